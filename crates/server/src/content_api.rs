//! `GET /api/content`: the names and numbers a client shows players
//! (force cards and their options, events, Doomtrooper and door cards,
//! weapons, equipment, creatures, missions), straight from the rules
//! crate's content tables, so the page never hard-codes game text.
//!
//! Public data only: the tables every player may read in the rulebook,
//! nothing about any game in progress.

use crate::error::ServerError;
use crate::AppState;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use citadel_rules::content::tables::CeTables;
use serde::Serialize;
use std::sync::OnceLock;

/// What a mission's briefing needs.
#[derive(Serialize)]
struct MissionBrief<'a> {
    id: &'a str,
    name: &'a str,
    rounds: u32,
    goal: &'a citadel_rules::content::missions::Goal,
    ends_early: bool,
    special_actions: &'a [citadel_rules::content::missions::SpecialActionDef],
}

#[derive(Serialize)]
struct ContentDoc<'a> {
    #[serde(flatten)]
    ce: &'a CeTables,
    missions: Vec<MissionBrief<'a>>,
}

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/content", get(content))
}

/// The document, built once: the content never changes while the server runs.
fn document() -> Result<&'static str, ServerError> {
    static DOC: OnceLock<Result<String, String>> = OnceLock::new();
    let doc = DOC.get_or_init(|| {
        let content = citadel_rules::Content::embedded().map_err(|e| e.to_string())?;
        let missions = citadel_rules::game::state::PLAYABLE_MISSIONS
            .iter()
            .filter_map(|id| content.mission(id))
            .map(|m| MissionBrief {
                id: &m.id,
                name: &m.name,
                rounds: m.rounds,
                goal: &m.goal,
                ends_early: m.ends_early,
                special_actions: &m.special_actions,
            })
            .collect();
        serde_json::to_string(&ContentDoc {
            ce: &content.ce,
            missions,
        })
        .map_err(|e| e.to_string())
    });
    doc.as_deref()
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("content: {e}")))
}

async fn content() -> Result<impl IntoResponse, ServerError> {
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        document()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_names_force_card_options_and_missions() {
        let doc: serde_json::Value =
            serde_json::from_str(document().expect("content loads")).expect("json");
        let card38 = &doc["force_cards"][37];
        assert_eq!(card38["number"], 38);
        assert_eq!(card38["options"].as_array().map(Vec::len), Some(2));
        assert!(doc["missions"].as_array().is_some_and(|m| m
            .iter()
            .any(|m| m["id"] == "ce-c1m1" && m["rounds"].as_u64() > Some(0))));
        assert!(doc["creatures"][0]["name"].is_string());
    }
}
