//! HTTP routes: the lobby API, health, metrics, the socket and the client.

use crate::config::{Config, Secret};
use crate::edge::layers;
use crate::edge::throttle::LoginThrottle;
use crate::error::ServerError;
use crate::AppState;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Extension, Json, Router};
use citadel_protocol::TableOptions;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::Duration;
use tower_http::timeout::TimeoutLayer;

/// Largest request body the API reads (names, passwords, options: all
/// small); a larger one gets `413`.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The whole app.
pub fn router(state: AppState) -> Router {
    let client = crate::web_assets::service(state.config.web_dir.as_ref());
    let config = Arc::clone(&state.config);
    let throttle = Arc::new(LoginThrottle::new(
        config.login_per_account,
        config.login_per_address,
        config.limit_loopback,
    ));
    let app = Router::new()
        // Liveness: the process serves HTTP. Readiness: it can also play
        // games — the store answers and the boot restore is done.
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/ws", get(crate::ws::upgrade));
    // With a metrics address of its own, `/metrics` is served only there.
    let app = match config.metrics_addr {
        None => app.route("/metrics", get(metrics)),
        Some(_) => app.route("/metrics", any(layers::no_route)),
    };
    let app = app
        .route("/api/catalogue", get(catalogue))
        .route("/api/catalogue/{kind}/{document}", get(game_document))
        // The addresses of the first game's documents from before games
        // had kinds (docs/PROTOCOL.md).
        .route("/api/content", get(first_game_content))
        .route("/api/missions", get(first_game_missions))
        .route("/api/games", post(create_game))
        .route("/api/games/{code}", get(game_info))
        .route("/api/games/{code}/replay", get(replay))
        .merge(crate::accounts::routes())
        .merge(crate::campaign_api::routes())
        .merge(crate::ratings::routes())
        .merge(crate::lobby_api::routes())
        // An API path that names no route is a JSON 404, not the client's
        // index page.
        .route("/api", any(layers::no_route))
        .route("/api/{*rest}", any(layers::no_route))
        .fallback_service(client)
        .with_state(state)
        .layer(Extension(throttle))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(config.request_timeout_secs.max(1)),
        ))
        .layer(axum::middleware::from_fn(layers::json_errors));
    layers::security_headers(app)
}

/// `/metrics` alone, for `--metrics-addr`.
pub fn metrics_router(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .with_state(state)
        .layer(axum::middleware::from_fn(layers::json_errors))
}

/// Does the request carry the configured metrics token (or is none
/// configured)? Hashes are compared, so the time taken does not depend on
/// how much of the token matched.
fn metrics_allowed(config: &Config, headers: &HeaderMap) -> bool {
    let Some(Secret(expected)) = &config.metrics_token else {
        return true;
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .unwrap_or("");
    Sha256::digest(given.as_bytes()) == Sha256::digest(expected.as_bytes())
}

async fn metrics(State(app): State<AppState>, headers: HeaderMap) -> Response {
    if !metrics_allowed(&app.config, &headers) {
        return ServerError::Unauthorized.into_response();
    }
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        app.metrics.render(),
    )
        .into_response()
}

/// `GET /api/catalogue`: the games this server offers, each with its
/// options and their values.
async fn catalogue(State(app): State<AppState>) -> Json<Vec<citadel_game::CatalogueGame>> {
    Json(app.registry.game_store().games().listing())
}

/// `GET /api/catalogue/{kind}/{document}`: one of a game's public
/// documents (`citadel_game::Game::documents`), cached by clients for an
/// hour (they change only with the server's content).
async fn game_document(
    State(app): State<AppState>,
    Path((kind, document)): Path<(String, String)>,
) -> Result<Response, ServerError> {
    let games = app.registry.game_store().games();
    let kind = games.get(&kind).ok_or(ServerError::NotFound)?;
    serve_document(kind.as_ref(), &document)
}

/// `GET /api/content`: the first game's `content` document.
async fn first_game_content(State(app): State<AppState>) -> Result<Response, ServerError> {
    first_game_document(&app, "content")
}

/// `GET /api/missions`: the first game's `missions` document.
async fn first_game_missions(State(app): State<AppState>) -> Result<Response, ServerError> {
    first_game_document(&app, "missions")
}

fn first_game_document(app: &AppState, name: &str) -> Result<Response, ServerError> {
    let games = app.registry.game_store().games();
    let kind = games.first().ok_or(ServerError::NotFound)?;
    serve_document(kind.as_ref(), name)
}

fn serve_document(kind: &dyn crate::table::Kind, name: &str) -> Result<Response, ServerError> {
    let text = kind
        .document(name)
        .ok_or(ServerError::NotFound)?
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("{} {name}: {e}", kind.id())))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        text.to_string(),
    )
        .into_response())
}

/// `POST /api/games` (201) and `GET /api/games/{code}`: the game's join
/// code.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GameCreated"))]
pub(crate) struct Created {
    code: String,
}

async fn create_game(
    State(app): State<AppState>,
    Json(options): Json<TableOptions>,
) -> Result<(StatusCode, Json<Created>), ServerError> {
    let code = app.registry.create(options).await?;
    Ok((StatusCode::CREATED, Json(Created { code })))
}

async fn game_info(
    State(app): State<AppState>,
    Path(code): Path<String>,
) -> Result<Json<Created>, ServerError> {
    // In cluster mode the game may run on another node.
    let live = app.registry.get(&code).is_some()
        || crate::ws::remote_owner(&app, &code).await.is_some()
        || app.registry.get_or_load(&code).await?.is_some();
    if live {
        Ok(Json(Created {
            code: code.to_ascii_uppercase(),
        }))
    } else {
        Err(ServerError::NotFound)
    }
}

/// `GET /api/games/{code}/replay`: a finished game step by step, as a
/// spectator saw it (paged with `?from=N&count=M`). Served from the
/// replay kept when the game finished; without one, the engine replays
/// it — checked against the stored checksums if the game was made on
/// other rules, and answered 410 if it does not replay on these.
async fn replay(
    State(app): State<AppState>,
    Path(code): Path<String>,
    Query(page): Query<crate::replay::Page>,
) -> Result<Json<serde_json::Value>, ServerError> {
    use crate::replay::{Check, ReplayError, MAX_PAGE};
    let code = crate::codes::normalize(&code);
    let store = &app.store;
    let game = store.game(&code).await?;
    let game = game.ok_or(ServerError::NotFound)?;
    if game.finished_at.is_none() {
        return Err(ServerError::Conflict("the game has not finished".into()));
    }
    let from = page.from.unwrap_or(0);
    let count = page.count.unwrap_or(MAX_PAGE).min(MAX_PAGE);
    let at = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    if let Some(kept) = store.replay_page(&code, at(from), at(count)).await? {
        return crate::replay::from_stored(&code, kept, from)
            .map(Json)
            .map_err(|e| ServerError::Internal(anyhow::anyhow!("{code}: {e}")));
    }
    let games = app.registry.game_store();
    let Ok(kind) = games.kind_of(&game).cloned() else {
        return Err(ServerError::Conflict(format!(
            "a {} game: this server does not play it",
            game.kind
        )));
    };
    let same = games.same_rules(&game);
    let check = if same {
        Check::SameRules
    } else {
        Check::AgainstChecksums
    };
    let commands = store.commands(&code).await?;
    // Replaying a long game is real work: keep it off the async threads.
    let replayed = tokio::task::spawn_blocking(move || {
        crate::replay::replay_checked(kind.as_ref(), &game, &commands, page, check)
            .and_then(|r| serde_json::to_value(r).map_err(|e| ReplayError::Corrupt(e.to_string())))
    })
    .await
    .map_err(|e| ServerError::Internal(e.into()))?;
    match replayed {
        Ok(r) => Ok(Json(r)),
        Err(ReplayError::NotFinished) => {
            Err(ServerError::Conflict("the game has not finished".into()))
        }
        // Made on other rules and not kept: today's engine cannot show
        // it faithfully. An answer, not a server error.
        Err(e) if !same => {
            tracing::info!(%code, error = %e, "replay of a game made on other rules refused");
            Err(ServerError::Gone(
                "this game was made by an older version and its replay cannot be shown".into(),
            ))
        }
        Err(e) => Err(ServerError::Internal(anyhow::anyhow!("{code}: {e}"))),
    }
}

/// `GET /healthz`: 200 as long as the process serves (liveness). A lone
/// server answers `ok`; a cluster node answers JSON with its node id and
/// whether NATS and the database are reachable now (still 200: a node cut
/// off from them recovers by itself when they come back, and a restart
/// would not help; `/readyz` answers 503 meanwhile).
async fn healthz(State(app): State<AppState>) -> axum::response::Response {
    use axum::response::IntoResponse;
    let Some(cluster) = &app.cluster else {
        return "ok".into_response();
    };
    let database = store_state(&app).await;
    let nats = cluster.nats_state();
    Json(serde_json::json!({
        "ok": true,
        "node": cluster.node_id,
        "nats": nats,
        "database": database,
    }))
    .into_response()
}

/// Whether the store answers now: `"ok"`, or what is wrong.
async fn store_state(app: &AppState) -> String {
    match tokio::time::timeout(READY_PING_TIMEOUT, app.store.ping()).await {
        Ok(Ok(())) => "ok".to_string(),
        Ok(Err(e)) => format!("unavailable: {e}"),
        Err(_) => format!("no answer within {} s", READY_PING_TIMEOUT.as_secs()),
    }
}

/// How long `/readyz` waits for the store.
const READY_PING_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// `GET /readyz`: 200 `{"ready":true,...}` when the store answers within
/// [`READY_PING_TIMEOUT`] and the boot restore is done; otherwise 503 with
/// what is missing. `/healthz` stays 200 as long as the process serves, so
/// an orchestrator restarts a stuck process but only routes players to a
/// ready one.
async fn readyz(State(app): State<AppState>) -> (StatusCode, Json<serde_json::Value>) {
    let store = store_state(&app).await;
    let restored = app.registry.is_restored();
    let nats = app.cluster.as_ref().map(|c| c.nats_state());
    let ready = store == "ok" && restored && nats.as_deref().is_none_or(|n| n == "ok");
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(match nats {
            None => serde_json::json!({ "ready": ready, "store": store, "restored": restored }),
            Some(nats) => serde_json::json!({
                "ready": ready, "store": store, "restored": restored, "nats": nats,
            }),
        }),
    )
}
