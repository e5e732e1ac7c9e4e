//! `GET /api/lobby` (issue 31, item 1): the tables anyone may join and the
//! games anyone may watch. Only listed tables (`TableOptions.listed`) are
//! here; a private table is found by its code alone. Read from the store,
//! so every node of a cluster answers the same lists; the spectator
//! counts are this node's (a game running on another node has none).

use crate::accounts::json_value;
use crate::error::ServerError;
use crate::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use citadel_store::GameRecord;
use serde::Serialize;
use serde_json::Value;

/// Most tables in each list.
pub const LIST_LENGTH: i64 = 50;

/// The route.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/lobby", get(lobby))
}

/// A listed table waiting for players.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OpenTable {
    /// Its code: join it with a `hello`.
    pub code: String,
    /// The game.
    pub kind: String,
    /// The options it was made with.
    #[cfg_attr(feature = "ts", ts(as = "Option<citadel_protocol::TableOptions>"))]
    pub options: Value,
    /// Its seats.
    pub seats: u32,
    /// Of them not taken yet.
    pub free: u32,
    /// Who sits already (bots by their seat's name).
    pub players: Vec<String>,
    /// When it was made (Unix milliseconds).
    pub created_at: i64,
}

/// A listed game being played.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LiveGame {
    /// Its code: watch it with a spectator's `hello`.
    pub code: String,
    /// The game.
    pub kind: String,
    /// The options it was made with.
    #[cfg_attr(feature = "ts", ts(as = "Option<citadel_protocol::TableOptions>"))]
    pub options: Value,
    /// Who plays.
    pub players: Vec<String>,
    /// Spectators now, when the game runs on this node.
    pub spectators: Option<u32>,
    /// When it started (Unix milliseconds).
    pub started_at: i64,
    /// When a player was last connected.
    pub active_at: i64,
}

/// `GET /api/lobby`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LobbyList {
    /// Tables with a free seat, newest first.
    pub open: Vec<OpenTable>,
    /// Games being played, most recently active first.
    pub live: Vec<LiveGame>,
    /// The live game the home page shows first: the most watched, or the
    /// most recently active.
    pub featured: Option<String>,
}

/// The seats of a stored lobby document: (name or "open", taken?).
fn seats_of(lobby: &str) -> Vec<(Option<String>, bool)> {
    let doc = json_value(Some(lobby), "lobby");
    doc["seats"]
        .as_array()
        .map(|seats| {
            seats
                .iter()
                .map(|s| {
                    let taken = s["controller"].as_str().is_some_and(|c| c != "open");
                    let name = s["name"]
                        .as_str()
                        .map(str::to_string)
                        .or_else(|| (s["controller"] == "bot").then(|| "Bot".to_string()));
                    (name, taken)
                })
                .collect()
        })
        .unwrap_or_default()
}

fn names(seats: &[(Option<String>, bool)]) -> Vec<String> {
    seats
        .iter()
        .filter(|(_, taken)| *taken)
        .map(|(name, _)| name.clone().unwrap_or_else(|| "Player".into()))
        .collect()
}

fn open_table(g: GameRecord) -> Option<OpenTable> {
    let seats = seats_of(&g.lobby);
    let free = seats.iter().filter(|(_, taken)| !taken).count() as u32;
    (free > 0).then(|| OpenTable {
        players: names(&seats),
        seats: seats.len() as u32,
        free,
        options: json_value(Some(&g.options), "options"),
        kind: g.kind,
        code: g.code,
        created_at: g.created_at,
    })
}

/// `GET /api/lobby`: the open tables and the live games.
async fn lobby(State(app): State<AppState>) -> Result<Json<LobbyList>, ServerError> {
    let open = app
        .store
        .listed_games(false, LIST_LENGTH)
        .await?
        .into_iter()
        .filter_map(open_table)
        .collect();
    let live: Vec<LiveGame> = app
        .store
        .listed_games(true, LIST_LENGTH)
        .await?
        .into_iter()
        .map(|g| LiveGame {
            players: names(&seats_of(&g.lobby)),
            spectators: app.registry.live_games().of(&g.code),
            options: json_value(Some(&g.options), "options"),
            started_at: g.started_at.unwrap_or(g.created_at),
            active_at: g.active_at,
            kind: g.kind,
            code: g.code,
        })
        .collect();
    // Most watched first; among equals the list's order (most recently
    // active).
    let featured = live
        .iter()
        .enumerate()
        .max_by_key(|(i, g)| (g.spectators.unwrap_or(0), std::cmp::Reverse(*i)))
        .map(|(_, g)| g.code.clone());
    Ok(Json(LobbyList {
        open,
        live,
        featured,
    }))
}
