//! HTTP routes: the lobby API, health, metrics, the socket and the client.

use crate::error::ServerError;
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use citadel_protocol::GameOptions;
use serde::Serialize;

/// The whole app.
pub fn router(state: AppState) -> Router {
    let client = crate::web_assets::service(state.config.web_dir.as_ref());
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .route("/ws", get(crate::ws::upgrade))
        .route("/api/missions", get(missions))
        .route("/api/games", post(create_game))
        .route("/api/games/{code}", get(game_info))
        .route("/api/games/{code}/replay", get(replay))
        .merge(crate::accounts::routes())
        .merge(crate::campaign_api::routes())
        .merge(crate::content_api::routes())
        .fallback_service(client)
        .with_state(state)
}

async fn metrics(State(app): State<AppState>) -> impl IntoResponse {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        app.metrics.render(),
    )
}

#[derive(Serialize)]
struct MissionInfo {
    id: String,
    name: String,
}

async fn missions() -> Result<Json<Vec<MissionInfo>>, ServerError> {
    let content = citadel_rules::Content::embedded()
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("content: {e}")))?;
    Ok(Json(
        citadel_rules::game::state::PLAYABLE_MISSIONS
            .iter()
            .filter_map(|id| content.mission(id))
            .map(|m| MissionInfo {
                id: m.id.clone(),
                name: m.name.clone(),
            })
            .collect(),
    ))
}

#[derive(Serialize)]
struct Created {
    code: String,
}

async fn create_game(
    State(app): State<AppState>,
    Json(options): Json<GameOptions>,
) -> Result<(StatusCode, Json<Created>), ServerError> {
    let code = app.registry.create(options).await?;
    Ok((StatusCode::CREATED, Json(Created { code })))
}

async fn game_info(
    State(app): State<AppState>,
    Path(code): Path<String>,
) -> Result<Json<Created>, ServerError> {
    match app.registry.get(&code) {
        Some(_) => Ok(Json(Created {
            code: code.to_ascii_uppercase(),
        })),
        None => Err(ServerError::NotFound),
    }
}

/// `GET /api/games/{code}/replay`: a finished game step by step, as a
/// spectator saw it (paged with `?from=N&count=M`).
async fn replay(
    State(app): State<AppState>,
    Path(code): Path<String>,
    Query(page): Query<crate::replay::Page>,
) -> Result<Json<crate::replay::Replay>, ServerError> {
    use crate::replay::ReplayError;
    let code = crate::codes::normalize(&code);
    let store = &app.store;
    let game = store.game(&code).await?;
    let game = game.ok_or(ServerError::NotFound)?;
    if game.finished_at.is_none() {
        return Err(ServerError::Conflict("the game has not finished".into()));
    }
    let commands = store.commands(&code).await?;
    // Replaying a long game is real work: keep it off the async threads.
    let replayed =
        tokio::task::spawn_blocking(move || crate::replay::replay(&game, &commands, page))
            .await
            .map_err(|e| ServerError::Internal(e.into()))?;
    match replayed {
        Ok(r) => Ok(Json(r)),
        Err(ReplayError::NotFinished) => {
            Err(ServerError::Conflict("the game has not finished".into()))
        }
        Err(e) => Err(ServerError::Internal(anyhow::anyhow!("{code}: {e}"))),
    }
}
