//! Layers over every HTTP answer: the documented JSON error body for
//! errors that axum, tower-http or a missing route produce (issue 17,
//! item 4), and the security headers of the browser client's pages
//! (item 10).

use crate::error::ErrorBody;
use axum::extract::Request;
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use tower_http::set_header::SetResponseHeaderLayer;

/// Longest error text kept from a rejection's body.
const MAX_MESSAGE_BYTES: usize = 1024;

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

/// Turn an error answer that is not already JSON (an extractor's
/// rejection in text, an empty `405` or `404`, a `408` from the timeout
/// layer) into `{"error": <status>, "message": "..."}`. The text the
/// rejection carried becomes the message; an empty one gets the status's
/// own phrase. Headers that say what to do next (`Allow`, `Retry-After`)
/// are kept.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) || is_json(res.headers()) {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, MAX_MESSAGE_BYTES)
        .await
        .ok()
        .and_then(|b| String::from_utf8(b.to_vec()).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty() && !s.starts_with('<'));
    let message = text.unwrap_or_else(|| {
        status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase()
    });
    let body = ErrorBody::new(status, message);
    let mut out = (status, Json(body)).into_response();
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(v) = parts.headers.get(&name) {
            out.headers_mut().insert(name, v.clone());
        }
    }
    out
}

/// The answer to an API path that names no route.
pub async fn no_route() -> Response {
    let body = ErrorBody::new(StatusCode::NOT_FOUND, "no such API endpoint");
    (StatusCode::NOT_FOUND, Json(body)).into_response()
}

/// What the client's pages may load: only its own files, its own
/// WebSocket (CSP Level 3 browsers match `ws:`/`wss:` of the same host to
/// `'self'`) and data: images; never framed (clickjacking), no plugins.
/// The client sets element styles through the CSSOM, so no inline style
/// is needed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Security headers on every answer (pages, files and API alike), set
/// only where a handler did not set its own.
pub fn security_headers(router: Router) -> Router {
    let headers: [(HeaderName, &'static str); 4] = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        // For browsers without `frame-ancestors`.
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        // Join codes are in URLs: never send them to another site.
        (header::REFERRER_POLICY, "no-referrer"),
    ];
    headers.into_iter().fold(router, |r, (name, value)| {
        r.layer(SetResponseHeaderLayer::if_not_present(
            name,
            HeaderValue::from_static(value),
        ))
    })
}
