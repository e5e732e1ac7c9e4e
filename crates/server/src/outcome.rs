//! What is kept of a finished game: its result, who won and every side's
//! PP. The game task stores it (as JSON, in `GameRecord.result`) and
//! campaigns read their players' PP from it; "my games" shows it as is.

use citadel_rules::content::Corporation;
use citadel_rules::game::{Game, MissionResult, Seat, Viewer};
use serde::{Deserialize, Serialize};

/// A finished game's summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GameSummary {
    /// The mission's result, as the engine reported it.
    #[serde(default)]
    pub result: Option<MissionResult>,
    /// The corporations won.
    #[serde(default)]
    pub corporations_won: bool,
    /// The Dark Legion won.
    #[serde(default)]
    pub dark_legion_won: bool,
    /// The Dark Legion player's seat; `None` with the AI.
    #[serde(default)]
    pub dark_legion_seat: Option<Seat>,
    /// The Dark Legion's PP at the end.
    pub dark_legion_pp: i32,
    /// Each corporation team at the end.
    pub teams: Vec<TeamSummary>,
    /// Set when the game did not end by the rules but was closed because
    /// it was made by other rules and does not replay on the server's
    /// (docs/STORAGE.md): why. The other fields are then empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outdated: Option<String>,
}

/// What players are told about a game closed as outdated.
pub const OUTDATED_MESSAGE: &str = "this game was made by an older version and cannot continue";

/// One corporation team at the end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TeamSummary {
    /// Rules seat (= player index in a campaign).
    pub seat: Seat,
    /// Its corporation.
    pub corporation: Corporation,
    /// PP at the end.
    pub pp: i32,
}

impl GameSummary {
    /// The summary of a game as it stands (meant for a finished one).
    pub fn of(game: &Game) -> GameSummary {
        let view = game.view(Viewer::Spectator);
        let (corporations_won, dark_legion_won, result) = game
            .outcome()
            .map_or((false, false, None), |(c, d, r)| (c, d, Some(r)));
        GameSummary {
            result,
            corporations_won,
            dark_legion_won,
            dark_legion_seat: view.dark_legion.seat,
            dark_legion_pp: view.dark_legion.pp,
            teams: view
                .teams
                .iter()
                .map(|t| TeamSummary {
                    seat: t.seat,
                    corporation: t.corporation,
                    pp: t.pp,
                })
                .collect(),
            outdated: None,
        }
    }

    /// The record of a game closed because it does not replay on these
    /// rules: no result, no winner, and why.
    pub fn outdated(why: String) -> GameSummary {
        GameSummary {
            result: None,
            corporations_won: false,
            dark_legion_won: false,
            dark_legion_seat: None,
            dark_legion_pp: 0,
            teams: Vec::new(),
            outdated: Some(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results stored before the summary was a type parse into it, and
    /// a summary writes the same fields back.
    #[test]
    fn stored_results_round_trip() {
        let stored = r#"{"corporations_won":false,"dark_legion_pp":7,"dark_legion_seat":1,
            "dark_legion_won":true,"result":"failure",
            "teams":[{"corporation":"capitol","pp":23,"seat":0}]}"#;
        let s: GameSummary = serde_json::from_str(stored).expect("parses");
        assert_eq!(s.result, Some(MissionResult::Failure));
        assert_eq!(s.dark_legion_seat, Some(Seat(1)));
        assert_eq!(s.teams[0].pp, 23);
        let again: serde_json::Value = serde_json::to_value(&s).expect("serializes");
        let before: serde_json::Value = serde_json::from_str(stored).expect("json");
        assert_eq!(again, before);
    }
}
