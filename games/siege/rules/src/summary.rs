//! What is kept of a finished Siege game (the seam's `Game::Summary`):
//! its result, who won and every side's PP. The platform stores it (as
//! JSON, in `GameRecord.result`), Siege's campaigns read their players'
//! PP from it, and "my games" shows it as is.

use crate::content::Corporation;
use crate::game::{Game, MissionResult, Place, Seat, Side, Viewer};
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
    #[serde(default)]
    pub dark_legion_pp: i32,
    /// Each corporation team at the end. (Both default: the platform
    /// records a game closed as outdated as `{"outdated": why}` alone.)
    #[serde(default)]
    pub teams: Vec<TeamSummary>,
    /// Set when the game did not end by the rules but was closed because
    /// it was made by other rules and does not replay on the server's
    /// (docs/STORAGE.md): why. The other fields are then empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outdated: Option<String>,
}

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
    /// How its Doomtroopers ended, and its missions' results: what a
    /// classic campaign's economy reads (CEC-2, CEC-3, CSM-2). Results
    /// stored before the field existed have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<TeamEnd>,
}

/// How one corporation team ended a mission (classic CEC-2, CEC-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TeamEnd {
    /// Its Doomtroopers eliminated in the mission (CEC-3).
    pub eliminated: u8,
    /// Its Doomtroopers alive or exited at the end (CEC-2; D15: exited DTs
    /// count; a DT never placed is alive, MSN-6).
    pub survivors: u8,
    /// It pursued the primary mission (CSM-1: with secondary missions in
    /// play, only the teams drawn for it). Every team until the engine
    /// assigns secondary missions in classic games.
    #[serde(default = "yes")]
    pub primary: bool,
    /// Its secondary mission's result and credits (classic CSM-2), when
    /// the engine reports one; applied after the primary credits (CEC-8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secondary: Option<SecondaryEnd>,
}

fn yes() -> bool {
    true
}

/// A team's secondary mission at the end (classic CSM-2). The engine
/// decides the amounts; the campaign only applies them, in CEC-8 order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SecondaryEnd {
    /// Its condition held.
    pub completed: bool,
    /// Credits the team gains (CSM-2 success: 2).
    pub credits: i32,
    /// Credits the DL player gains (CSM-2 failure: 1).
    pub dl_credits: i32,
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
                .map(|t| {
                    let places: Vec<Place> = t
                        .figures
                        .iter()
                        .filter_map(|id| view.figures.iter().find(|f| f.id == *id))
                        .map(|f| f.place)
                        .collect();
                    let eliminated = places.iter().filter(|p| **p == Place::Eliminated).count();
                    TeamSummary {
                        seat: t.seat,
                        corporation: t.corporation,
                        pp: t.pp,
                        end: Some(TeamEnd {
                            eliminated: eliminated as u8,
                            survivors: (places.len() - eliminated) as u8,
                            // CSM-1: the engine says which teams were
                            // drawn for the primary mission (no flag: every
                            // team, as in CE).
                            primary: t.primary.unwrap_or(true),
                            // CSM-2: the engine's credits for the team's
                            // secondary mission, once the mission is over.
                            secondary: view.credits.iter().find(|c| c.team == t.team).map(|c| {
                                let completed = c.side == Side::Team(t.team);
                                SecondaryEnd {
                                    completed,
                                    credits: if completed { c.amount } else { 0 },
                                    dl_credits: if completed { 0 } else { c.amount },
                                }
                            }),
                        }),
                    }
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

    /// A classic game's summary says how each team's Doomtroopers ended:
    /// at the start none is eliminated, and DTs still in reserve count as
    /// alive (MSN-6), so both survive (CEC-2); with fewer than 3 teams
    /// every team is on the primary mission and none has a secondary one
    /// (CSM-1).
    #[test]
    fn a_summary_counts_each_teams_survivors_and_losses() {
        use crate::content::Corporation;
        use crate::game::{DarkLegionSetup, Setup};
        let setup = Setup::new(
            "classic-m1",
            &[Corporation::Bauhaus, Corporation::Capitol],
            DarkLegionSetup::Seat(1),
        );
        let mut dice = crate::dice::SeededDice::new(1);
        let (game, _) = Game::new(setup, &mut dice).expect("a game");
        let s = GameSummary::of(&game);
        assert_eq!(s.teams.len(), 1);
        assert_eq!(
            s.teams[0].end,
            Some(TeamEnd {
                eliminated: 0,
                survivors: 2,
                primary: true,
                secondary: None,
            })
        );
        // Stored results without it still read; `primary` defaults to true.
        let t: TeamSummary = serde_json::from_str(
            r#"{"seat":0,"corporation":"capitol","pp":1,"end":{"eliminated":1,"survivors":1}}"#,
        )
        .expect("parses");
        assert_eq!(t.end.map(|e| (e.primary, e.eliminated)), Some((true, 1)));
    }

    /// CSM-1, CSM-2: a finished 1993 game with 4 teams reports the two
    /// teams drawn for the primary mission, and for each of the others
    /// its secondary mission's result and credits (+2 to the team on
    /// success, +1 to the Dark Legion player on failure).
    #[test]
    fn a_classic_summary_reports_primary_teams_and_secondary_credits() {
        use crate::content::Corporation;
        use crate::dice::Dice;
        use crate::game::{DarkLegionSetup, Setup};
        let corps = [
            Corporation::Bauhaus,
            Corporation::Capitol,
            Corporation::Imperial,
            Corporation::Mishima,
        ];
        let setup = Setup::new("classic-m5", &corps, DarkLegionSetup::Ai).with_seed(2);
        let mut dice = crate::dice::SeededDice::new(2);
        let mut pick = crate::dice::SeededDice::new(99);
        let (mut game, _) = Game::new(setup, &mut dice).expect("a game");
        let mut steps = 0;
        while !game.is_finished() && steps < 20_000 {
            steps += 1;
            let seat = game.seat_to_act().expect("a seat acts");
            let legal = game.legal(seat);
            let cmd = legal[pick.below(legal.len() as u32) as usize].clone();
            game.apply(seat, cmd, &mut dice).expect("legal");
        }
        assert!(game.is_finished());
        let s = GameSummary::of(&game);
        let ends: Vec<TeamEnd> = s.teams.iter().filter_map(|t| t.end.clone()).collect();
        assert_eq!(ends.iter().filter(|e| e.primary).count(), 2);
        for e in &ends {
            match (e.primary, e.secondary) {
                (true, None) => {}
                (false, Some(sec)) if sec.completed => {
                    assert_eq!((sec.credits, sec.dl_credits), (2, 0));
                }
                (false, Some(sec)) => assert_eq!((sec.credits, sec.dl_credits), (0, 1)),
                other => panic!("{other:?}"),
            }
        }
    }

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
