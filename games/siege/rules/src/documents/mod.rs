//! Siege's public documents ([`citadel_game::Game::documents`]): what a
//! client reads besides the game's payloads, served by the platform at
//! `GET /api/games/siege/{name}` (and at `GET /api/{name}`, the addresses
//! from before games had kinds, Siege being the catalogue's first game).

pub mod brief;
pub mod content;

use citadel_game::Document;
use serde::Serialize;

/// One playable mission (the `missions` document is a list of them).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MissionInfo {
    /// Mission id, as a table's options name it.
    pub id: String,
    /// Its name.
    pub name: String,
}

/// The missions a table may be created with, in record order.
///
/// # Errors
/// The embedded content does not load.
pub fn missions() -> Result<String, String> {
    let content = crate::Content::embedded().map_err(|e| e.to_string())?;
    let list: Vec<MissionInfo> = crate::seam::playable_missions()
        .iter()
        .filter_map(|id| content.mission(id))
        .map(|m| MissionInfo {
            id: m.id.clone(),
            name: m.name.clone(),
        })
        .collect();
    serde_json::to_string(&list).map_err(|e| e.to_string())
}

/// Every document: `content` (the tables and every mission's briefing,
/// [`content::document`]) and `missions` (the playable ones, [`missions`]).
pub fn all() -> Vec<Document> {
    vec![
        Document {
            name: "content",
            build: content::document,
        },
        Document {
            name: "missions",
            build: missions,
        },
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_missions_document_lists_the_playable_missions_by_id_and_name() {
        let list: serde_json::Value =
            serde_json::from_str(&super::missions().expect("loads")).expect("json");
        let ids: Vec<&str> = list
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|m| m["id"].as_str())
            .collect();
        assert_eq!(ids, crate::seam::playable_missions());
        assert!(list[0]["name"].as_str().is_some_and(|n| !n.is_empty()));
    }
}
