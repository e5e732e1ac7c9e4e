//! The content document (`GET /api/games/siege/content`, and
//! `GET /api/content` as before games had kinds): the names and numbers a client shows players
//! (force cards and their options, events, Doomtrooper and door cards,
//! weapons, equipment, creatures, missions), straight from the rules
//! crate's content tables, so the page never hard-codes game text.
//!
//! Public data only: the tables every player may read in the rulebook,
//! nothing about any game in progress.

use super::brief::{brief, MissionBrief};
use crate::content::classic_tables::{ClassicDtCardDef, ClassicDtUse};
use crate::content::tables::CeTables;
use crate::game::reaction::Window;
use serde::Serialize;

/// `GET /api/content`: the CE tables at the top level, the 1993 tables
/// (same shape, classic values: AF in a creature's `dv`, 1993 weapons and
/// equipment) under `classic`, and every mission's briefing. A client shows
/// the tables of the game's mission edition.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ContentDoc<'a> {
    #[serde(flatten)]
    ce: &'a CeTables,
    classic: ClassicDoc<'a>,
    missions: Vec<MissionBrief<'a>>,
}

/// The 1993 tables of `GET /api/content`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClassicDoc<'a> {
    #[serde(flatten)]
    base: &'a CeTables,
    /// CRK-1: the minimum PP of ranks 1..=6.
    rank_min_pp: &'a [i32],
    /// CDT: the 13 two-use Doomtrooper cards, by number.
    two_use_cards: Vec<TwoUseCard<'a>>,
}

/// One 1993 two-use Doomtrooper card (classic CDT-1): a player holding it
/// plays it for one of its two uses.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TwoUseCard<'a> {
    /// 1..=13, the number `TeamView.cards` and the card events carry.
    pub number: u32,
    /// The card's name: its two uses' names, "Boon / Sabotage".
    pub name: String,
    /// Its two uses: the boon for the player's own side first, then the
    /// sabotage against a chosen player.
    pub uses: Vec<TwoUseCardUse<'a>>,
}

/// One use of a two-use card, as a `play_two_use` command names it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TwoUseCardUse<'a> {
    /// The use's id (`card_use` of `play_two_use` and the card events).
    pub card_use: ClassicDtUse,
    /// The boon (use 1) or the sabotage (use 2).
    pub role: TwoUseRole,
    /// Its printed name.
    pub name: &'a str,
    /// What it does, for players.
    pub text: &'a str,
    /// The reaction window it also answers (a `react` command with the
    /// card's index while `pending` is that window), if any.
    pub answers: Option<Window>,
}

/// Which of a two-use card's uses (CDT-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TwoUseRole {
    /// Use 1: for the player's own side.
    Boon,
    /// Use 2: against a chosen player.
    Sabotage,
}

/// A card of the rules content as the document shows it.
fn two_use_card(def: &ClassicDtCardDef) -> TwoUseCard<'_> {
    TwoUseCard {
        number: def.number,
        name: format!("{} / {}", def.boon_name, def.sabotage_name),
        uses: vec![
            TwoUseCardUse {
                card_use: def.boon,
                role: TwoUseRole::Boon,
                name: &def.boon_name,
                text: &def.boon_text,
                answers: def.boon.reaction_window(),
            },
            TwoUseCardUse {
                card_use: def.sabotage,
                role: TwoUseRole::Sabotage,
                name: &def.sabotage_name,
                text: &def.sabotage_text,
                answers: def.sabotage.reaction_window(),
            },
        ],
    }
}

/// The document's JSON text.
///
/// # Errors
/// The embedded content does not load.
pub fn document() -> Result<String, String> {
    let content = crate::Content::embedded().map_err(|e| e.to_string())?;
    // Every mission record, playable or not: the client greys out the
    // others and says what they still need.
    let missions = content.missions.iter().map(brief).collect();
    serde_json::to_string(&ContentDoc {
        ce: &content.ce,
        classic: ClassicDoc {
            base: &content.classic.base,
            rank_min_pp: &content.classic.rank_min_pp,
            two_use_cards: content.classic.dt_cards.iter().map(two_use_card).collect(),
        },
        missions,
    })
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_names_force_card_options_and_missions() {
        let doc: serde_json::Value =
            serde_json::from_str(&document().expect("content loads")).expect("json");
        let card38 = &doc["force_cards"][37];
        assert_eq!(card38["number"], 38);
        assert_eq!(card38["options"].as_array().map(Vec::len), Some(2));
        assert!(doc["missions"].as_array().is_some_and(|m| m
            .iter()
            .any(|m| m["id"] == "ce-c1m1" && m["rounds"].as_u64() > Some(0))));
        assert!(doc["creatures"][0]["name"].is_string());
    }

    #[test]
    fn every_mission_is_listed_with_what_it_still_needs() {
        let doc: serde_json::Value =
            serde_json::from_str(&document().expect("content loads")).expect("json");
        let missions = doc["missions"].as_array().expect("missions");
        let content = crate::Content::embedded().expect("content");
        assert_eq!(missions.len(), content.missions.len(), "all missions");
        let playable = crate::seam::playable_missions();
        for (m, def) in missions.iter().zip(&content.missions) {
            assert_eq!(m["id"], def.id.as_str(), "record order");
            let id = def.id.as_str();
            assert_eq!(m["playable"], playable.contains(&id), "{id}");
            let missing = m["missing"].as_array().expect("missing");
            assert_eq!(missing.is_empty(), playable.contains(&id), "{id}");
            assert_eq!(missing.len(), crate::game::playable::unsupported(def).len());
            assert!(m["rewards"]["success"].is_i64(), "{id}");
            // ROUNDS 0: no time limit (the classic training mission).
            assert_eq!(
                m["rounds"].as_u64() > Some(0),
                !def.unlimited_rounds(),
                "{id}"
            );
        }
        let c1m1 = &missions[0];
        assert_eq!(c1m1["campaign"], 1);
        assert_eq!(c1m1["rewards"]["commander"], -2);
        let c2m5 = missions
            .iter()
            .find(|m| m["id"] == "ce-c2m5")
            .expect("C2M5");
        assert_eq!(c2m5["campaign"], 2);
        let rules = c2m5["special_rules"].as_array().expect("rules");
        assert!(rules.iter().any(|r| r["key"] == "nepharite_if_c2m4_failed"
            && r["text"].as_str().is_some_and(|t| t.contains("C2M4"))));
    }

    #[test]
    fn every_card_and_item_has_its_effect_in_words() {
        let doc: serde_json::Value =
            serde_json::from_str(&document().expect("content loads")).expect("json");
        for table in [
            "equipment",
            "weapons",
            "dt_cards",
            "door_cards",
            "events",
            "secondary",
        ] {
            let rows = doc[table].as_array().expect(table);
            assert!(!rows.is_empty(), "{table}");
            for row in rows {
                let text = row["text"].as_str().unwrap_or_default();
                assert!(text.len() > 8, "{table}: {} has no text", row["name"]);
            }
        }
        let luck = doc["dt_cards"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["kind"] == "heroic_luck"))
            .expect("Heroic Luck");
        assert!(luck["text"]
            .as_str()
            .is_some_and(|t| t.contains("re-roll up to 2 failed dice")));
    }

    #[test]
    fn missions_name_their_edition_and_the_classic_tables_are_served_beside_the_ce_ones() {
        let doc: serde_json::Value =
            serde_json::from_str(&document().expect("content loads")).expect("json");
        let content = crate::Content::embedded().expect("content");
        let missions = doc["missions"].as_array().expect("missions");
        for (m, def) in missions.iter().zip(&content.missions) {
            let want = match def.edition {
                crate::content::ids::Edition::Ce => "ce",
                crate::content::ids::Edition::Classic => "classic",
            };
            assert_eq!(m["edition"], want, "{}", def.id);
        }
        let training = missions
            .iter()
            .find(|m| m["id"] == "classic-training")
            .expect("the classic training mission");
        assert_eq!(training["edition"], "classic");
        assert_eq!(training["rounds"], 0, "no time limit");
        let m1 = missions
            .iter()
            .find(|m| m["id"] == "classic-m1")
            .expect("classic mission 1");
        assert!(m1["rewards"]["credits"]["dt"].is_u64(), "credit rewards");
        // The classic tables: the same shape, 1993 values.
        let classic = &doc["classic"];
        assert_eq!(
            classic["creatures"].as_array().map(Vec::len),
            Some(content.classic.base.creatures.len())
        );
        for (row, def) in classic["creatures"]
            .as_array()
            .expect("classic creatures")
            .iter()
            .zip(&content.classic.base.creatures)
        {
            assert_eq!(row["name"], def.name.as_str());
            assert_eq!(
                row["bands"][0]["dv"],
                serde_json::json!(def.bands[0].dv),
                "{}: the AF",
                def.name
            );
        }
        assert_eq!(classic["ranks"].as_array().map(Vec::len), Some(6));
        assert_eq!(doc["ranks"].as_array().map(Vec::len), Some(12));
        assert_eq!(
            classic["rank_min_pp"],
            serde_json::json!(content.classic.rank_min_pp)
        );
        assert!(classic["weapons"].as_array().is_some_and(|w| !w.is_empty()));
    }

    #[test]
    fn the_classic_tables_name_every_two_use_card_and_both_its_uses() {
        let doc: serde_json::Value =
            serde_json::from_str(&document().expect("content loads")).expect("json");
        let content = crate::Content::embedded().expect("content");
        let cards = doc["classic"]["two_use_cards"]
            .as_array()
            .expect("the 1993 two-use cards");
        assert_eq!(cards.len(), 13, "the 13 cards of the 1993 deck");
        let mut seen = std::collections::HashSet::new();
        for (card, def) in cards.iter().zip(&content.classic.dt_cards) {
            let n = def.number;
            assert_eq!(card["number"], n, "record order");
            assert_eq!(
                card["name"],
                format!("{} / {}", def.boon_name, def.sabotage_name),
                "card {n}: named by its two uses"
            );
            let uses = card["uses"].as_array().expect("uses");
            assert_eq!(uses.len(), 2, "card {n}: two uses");
            let want = [
                ("boon", def.boon, &def.boon_name, &def.boon_text),
                (
                    "sabotage",
                    def.sabotage,
                    &def.sabotage_name,
                    &def.sabotage_text,
                ),
            ];
            for (u, (role, id, name, text)) in uses.iter().zip(want) {
                assert_eq!(u["role"], role, "card {n}");
                assert_eq!(
                    u["card_use"],
                    serde_json::json!(id),
                    "card {n}: the command's id"
                );
                assert_eq!(u["name"], name.as_str(), "card {n}");
                assert_eq!(u["text"], text.as_str(), "card {n}");
                assert!(text.len() > 8, "card {n}: {name} says what it does");
                assert!(
                    seen.insert(u["card_use"].to_string()),
                    "card {n}: {name} twice"
                );
            }
        }
        assert_eq!(seen.len(), 26, "every use once");
        let medic = &cards[7];
        assert_eq!(medic["number"], 8);
        assert_eq!(medic["name"], "Medic / Uncalibrated Targeter");
        assert_eq!(medic["uses"][0]["card_use"], "medic");
        assert!(
            medic["uses"][0]["answers"].is_null(),
            "played on a turn only"
        );
        // Dud Round (card 7's sabotage) answers a hit on a Doomtrooper.
        assert_eq!(cards[6]["uses"][1]["card_use"], "dud_round");
        assert_eq!(cards[6]["uses"][1]["answers"], "card_dt_hit");
        // The CE document has no such table: CE games deal no two-use cards.
        assert!(doc.get("two_use_cards").is_none());
    }
}
