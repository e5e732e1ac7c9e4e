//! HTTP routes: the lobby API, health, metrics, the socket and the client.

use crate::error::ServerError;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use citadel_protocol::GameOptions;
use serde::Serialize;
use tower_http::services::{ServeDir, ServeFile};

/// The whole app.
pub fn router(state: AppState) -> Router {
    let web = state.config.web_dir.clone();
    let client = ServeDir::new(&web).fallback(ServeFile::new(web.join("index.html")));
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .route("/ws", get(crate::ws::upgrade))
        .route("/api/missions", get(missions))
        .route("/api/games", post(create_game))
        .route("/api/games/{code}", get(game_info))
        .merge(crate::campaigns::routes())
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
