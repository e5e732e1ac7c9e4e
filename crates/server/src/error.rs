//! One error type at the HTTP edge, mapped to status codes. Internal
//! details are logged, never returned.

use crate::campaign_rules::CampaignError;
use crate::options::OptionsError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use citadel_store::StoreError;

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
    /// A campaign token that is missing or belongs to no player.
    #[error("{0}")]
    BadToken(String),
    /// The server holds as many games as it may.
    #[error("the server is full; try again later")]
    Full,
    /// The store failed (answered as an internal error; the detail is
    /// logged).
    #[error("internal error")]
    Store(#[from] StoreError),
    /// A bug or an outside failure.
    #[error("internal error")]
    Internal(#[from] anyhow::Error),
}

impl From<CampaignError> for ServerError {
    fn from(e: CampaignError) -> Self {
        match e {
            CampaignError::Invalid(m) => ServerError::BadRequest(m),
            CampaignError::Conflict(m) => ServerError::Conflict(m),
        }
    }
}

impl From<OptionsError> for ServerError {
    fn from(e: OptionsError) -> Self {
        ServerError::BadRequest(e.to_string())
    }
}

impl IntoResponse for ServerError {
    fn into_response(self) -> Response {
        let status = match &self {
            ServerError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServerError::NotFound | ServerError::NoCampaign => StatusCode::NOT_FOUND,
            ServerError::Unauthorized | ServerError::BadCredentials | ServerError::BadToken(_) => {
                StatusCode::UNAUTHORIZED
            }
            ServerError::Conflict(_) => StatusCode::CONFLICT,
            ServerError::Full => StatusCode::SERVICE_UNAVAILABLE,
            ServerError::Store(e) => {
                tracing::error!(error = %e, "store failure");
                StatusCode::INTERNAL_SERVER_ERROR
            }
            ServerError::Internal(e) => {
                tracing::error!(error = ?e, "internal error");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        let body = serde_json::json!({ "error": status.as_u16(), "message": self.to_string() });
        (status, Json(body)).into_response()
    }
}
