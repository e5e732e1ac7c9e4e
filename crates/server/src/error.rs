//! One error type at the HTTP edge, mapped to status codes. Internal
//! details are logged, never returned.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use citadel_store::StoreError;
use serde::Serialize;

/// The body of every error answer of the API (4xx and 5xx), whichever
/// layer made it. The fields are in alphabetical order, as the JSON
/// objects this replaced wrote them.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ErrorBody {
    /// The HTTP status code.
    pub error: u16,
    /// The game option at fault (400 for an option out of its range).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub field: Option<&'static str>,
    /// What went wrong, in words.
    pub message: String,
    /// Seconds to wait before trying again (429, and 503 when the storage
    /// is unavailable; also the `Retry-After` header).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub retry_after: Option<u64>,
}

impl ErrorBody {
    /// A body with only the status and the message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ErrorBody {
            error: status.as_u16(),
            field: None,
            message: message.into(),
            retry_after: None,
        }
    }
}

/// Seconds a client is told to wait when the storage is unavailable: about
/// how long the database may take to answer again after a blip, and the
/// longest a request waits for a connection before it gives up
/// (`citadel-store`'s acquire timeout).
pub const STORAGE_RETRY_SECS: u64 = 5;

/// The message of a `503` for an unavailable storage.
pub const STORAGE_UNAVAILABLE: &str = "the storage is unavailable; try again in 5 s";

/// Errors the HTTP API answers with.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The request is not valid.
    #[error("{0}")]
    BadRequest(String),
    /// No such game.
    #[error("no game with that code")]
    NotFound,
    /// No valid session (missing, unknown or expired bearer token).
    #[error("not logged in, or the session has expired")]
    Unauthorized,
    /// A login with a wrong name or password: one message for both, so
    /// the answer does not tell which names exist.
    #[error("wrong name or password")]
    BadCredentials,
    /// The request conflicts with the current state (a taken name, a game
    /// not finished yet).
    #[error("{0}")]
    Conflict(String),
    /// No such campaign.
    #[error("no campaign with that code")]
    NoCampaign,
    /// No such thing (a player, a game's leaderboard): what is missing.
    #[error("{0}")]
    Missing(String),
    /// A campaign token that is missing or belongs to no player.
    #[error("{0}")]
    BadToken(String),
    /// A game option out of its range.
    #[error("{0}")]
    InvalidOption(#[from] crate::options::OptionError),
    /// Too many attempts (logins): wait this many seconds.
    #[error("too many attempts; try again in {0} s")]
    Throttled(u64),
    /// The thing asked for existed but cannot be served any more (the
    /// replay of a game made by older rules that do not replay on these).
    #[error("{0}")]
    Gone(String),
    /// The server holds as many games as it may.
    #[error("the server is full; try again later")]
    Full,
    /// A campaign changed by other writers every time this change was
    /// tried ([`crate::campaign_ledger::TRIES`]).
    #[error("the campaign is busy; try again")]
    Contended,
    /// The store failed. A database failure (down, unreachable, not
    /// answering in time) is answered `503` with `Retry-After`: nothing is
    /// wrong with the request, and it may work again soon. Anything else
    /// (a conflict or a missing row the route did not expect) is an
    /// internal error. The detail is logged, never answered.
    #[error("internal error")]
    Store(#[from] StoreError),
    /// A bug or an outside failure.
    #[error("internal error")]
    Internal(#[from] anyhow::Error),
}

impl IntoResponse for ServerError {
    fn into_response(self) -> Response {
        let status = match &self {
            // Options that are not the game's at all (a string for a
            // number): JSON of the wrong shape, as for any other body.
            ServerError::InvalidOption(e) if e.field == "options" => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ServerError::BadRequest(_) | ServerError::InvalidOption(_) => StatusCode::BAD_REQUEST,
            ServerError::Throttled(_) => StatusCode::TOO_MANY_REQUESTS,
            ServerError::NotFound | ServerError::NoCampaign | ServerError::Missing(_) => {
                StatusCode::NOT_FOUND
            }
            ServerError::Unauthorized | ServerError::BadCredentials | ServerError::BadToken(_) => {
                StatusCode::UNAUTHORIZED
            }
            ServerError::Conflict(_) => StatusCode::CONFLICT,
            ServerError::Gone(_) => StatusCode::GONE,
            ServerError::Full | ServerError::Contended => StatusCode::SERVICE_UNAVAILABLE,
            ServerError::Store(e @ StoreError::Backend(_)) => {
                tracing::error!(error = %e, "storage unavailable");
                StatusCode::SERVICE_UNAVAILABLE
            }
            ServerError::Store(e) => {
                tracing::error!(error = %e, "store failure");
                StatusCode::INTERNAL_SERVER_ERROR
            }
            ServerError::Internal(e) => {
                tracing::error!(error = ?e, "internal error");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        let mut body = ErrorBody::new(status, self.to_string());
        match &self {
            ServerError::InvalidOption(e) => body.field = Some(e.field),
            ServerError::Throttled(secs) => body.retry_after = Some(*secs),
            ServerError::Store(StoreError::Backend(_)) => {
                body.message = STORAGE_UNAVAILABLE.into();
                body.retry_after = Some(STORAGE_RETRY_SECS);
            }
            _ => {}
        }
        let retry_after = body.retry_after;
        let mut res = (status, Json(body)).into_response();
        if let Some(secs) = retry_after {
            res.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database that fails or does not answer is a `503` saying the
    /// storage is unavailable, with `Retry-After`; other store errors stay
    /// `500`.
    #[tokio::test]
    async fn an_unavailable_storage_is_503_with_retry_after() {
        let res = ServerError::Store(StoreError::Backend("pool timed out".into())).into_response();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            res.headers()
                .get(axum::http::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok()),
            Some("5")
        );
        let body = axum::body::to_bytes(res.into_body(), 4096)
            .await
            .expect("a body");
        let body: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(
            body,
            serde_json::json!({"error": 503, "message": STORAGE_UNAVAILABLE, "retry_after": 5})
        );
        assert!(STORAGE_UNAVAILABLE.contains(&format!("in {STORAGE_RETRY_SECS} s")));
        let res = ServerError::Store(StoreError::Conflict("x".into())).into_response();
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(res.headers().get(axum::http::header::RETRY_AFTER).is_none());
    }

    #[test]
    fn error_bodies_serialize_as_the_documented_json() {
        let plain = ErrorBody::new(StatusCode::NOT_FOUND, "no such API endpoint");
        assert_eq!(
            serde_json::to_string(&plain).expect("json"),
            r#"{"error":404,"message":"no such API endpoint"}"#
        );
        let full = ErrorBody {
            field: Some("seats"),
            retry_after: Some(7),
            ..ErrorBody::new(StatusCode::BAD_REQUEST, "m")
        };
        assert_eq!(
            serde_json::to_string(&full).expect("json"),
            r#"{"error":400,"field":"seats","message":"m","retry_after":7}"#
        );
    }
}
