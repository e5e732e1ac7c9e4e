//! Siege of the Citadel behind the game seam: the `citadel_game::Game`
//! implementation for [`Game`], and the lobby side of the game — its
//! options ([`SiegeOptions`]), a seat's choice ([`SeatChoice`]) and how
//! they make a [`Setup`].
//!
//! Every payload is the type the server already stored and sent (the
//! setup, commands, events, views, the map, the summary), so games stored
//! before the seam read back as they were.

use crate::content::{Corporation, Specialty};
use crate::game::setup::{player_counts, starting_ranks, STARTING_RANKS};
use crate::game::{
    Command, DarkLegionSetup, Event, Game, GameView, Rejection, Seat, SeatSetup, Setup, Viewer,
};
use crate::map_data::MapData;
use crate::summary::GameSummary;
use crate::Content;
use citadel_game::{
    ChoiceError, Dice, OptionChoice, OptionError, OptionKind, OptionSpec, Outcome, Placing,
    RulesVersion, SeatPlan, SetupRefused,
};
use serde::{Deserialize, Serialize};

/// How the Dark Legion is chosen at start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case", tag = "mode", content = "seat")]
pub enum DarkLegionChoice {
    /// Drawn at random among the players (SET-2).
    Drawn,
    /// The host picks a seat.
    Seat(u8),
    /// The AI (SET-12).
    Ai,
}

/// The options of a Siege table, as a table is created with them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiegeOptions {
    /// Mission id.
    pub mission: String,
    /// Player seats (the Dark Legion player included unless AI), 1–5.
    pub seats: u8,
    /// Dark Legion.
    pub dark_legion: DarkLegionChoice,
    /// Starting rank R0.
    #[serde(default = "one")]
    pub starting_rank: u8,
}

fn one() -> u8 {
    1
}

/// What a player picks for their seat in the lobby: a corporation (ce.md
/// COR-1) and the team's two Doomtroopers (SET-8). Either may be left to
/// the game: free corporations in id order, the default team (SET-13).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatChoice {
    /// Corporation.
    #[serde(default)]
    pub corporation: Option<Corporation>,
    /// The two Doomtroopers, by specialty. (Lobbies stored before the
    /// game seam call it `team`.)
    #[serde(default, alias = "team")]
    pub doomtroopers: Option<[Specialty; 2]>,
}

/// The ids of the missions a game may be created with, in record order
/// (`game::playable`: a mission is playable when every rule it uses is
/// implemented).
pub fn playable_missions() -> Vec<&'static str> {
    Content::embedded()
        .map(crate::game::playable::playable_missions)
        .unwrap_or_default()
}

/// `mission` names a playable mission; otherwise the error says what is
/// missing.
///
/// # Errors
/// An unknown mission, or one that uses rules not implemented yet.
pub fn mission_playable(mission: &str) -> Result<(), OptionError> {
    let Some(def) = Content::embedded().ok().and_then(|c| c.mission(mission)) else {
        return Err(OptionError::new("mission", "unknown mission"));
    };
    let gaps = crate::game::playable::unsupported(def);
    if gaps.is_empty() {
        return Ok(());
    }
    let gaps: Vec<String> = gaps.iter().map(ToString::to_string).collect();
    Err(OptionError::new(
        "mission",
        format!(
            "mission {mission} is not playable yet: it needs {}",
            gaps.join(", ")
        ),
    ))
}

/// Check every option, naming the first one out of range.
///
/// # Errors
/// The first option out of range.
pub fn check_options(o: &SiegeOptions) -> Result<SeatPlan, OptionError> {
    mission_playable(&o.mission)?;
    let ai = o.dark_legion == DarkLegionChoice::Ai;
    if !player_counts(ai).contains(&o.seats) {
        return Err(OptionError::new(
            "seats",
            "seats must be 1-5 with the AI Dark Legion, 2-5 otherwise",
        ));
    }
    if let DarkLegionChoice::Seat(s) = o.dark_legion {
        if s >= o.seats {
            return Err(OptionError::new(
                "dark_legion",
                "the Dark Legion's seat must be below seats",
            ));
        }
    }
    let ranks = Content::embedded()
        .ok()
        .and_then(|c| c.mission(&o.mission))
        .map_or(STARTING_RANKS, |m| starting_ranks(m.edition));
    if !ranks.contains(&o.starting_rank) {
        return Err(OptionError::new(
            "starting_rank",
            format!(
                "starting rank must be {}-{} in this edition",
                ranks.start(),
                ranks.end()
            ),
        ));
    }
    Ok(SeatPlan {
        players: o.seats,
        automata: u8::from(ai),
    })
}

/// The rules setup of a table: each seat's corporation (free ones in id
/// order for seats that did not pick), team and the Dark Legion (SET-1,
/// SET-2).
///
/// # Errors
/// The options are out of range, or two seats hold one corporation.
pub fn setup_of(
    o: &SiegeOptions,
    choices: &[Option<SeatChoice>],
    seed: u64,
) -> Result<Setup, SetupRefused> {
    check_options(o).map_err(|e| SetupRefused(e.to_string()))?;
    let mut corporations: Vec<Option<Corporation>> = (0..usize::from(o.seats))
        .map(|i| {
            choices
                .get(i)
                .cloned()
                .flatten()
                .and_then(|c| c.corporation)
        })
        .collect();
    for (i, c) in corporations.iter().enumerate() {
        if c.is_some() && corporations[..i].contains(c) {
            return Err(SetupRefused(
                "two seats hold the same corporation".to_string(),
            ));
        }
    }
    // Players who did not pick get the free corporations in id order.
    for i in 0..corporations.len() {
        if corporations[i].is_none() {
            corporations[i] = Corporation::ALL
                .into_iter()
                .find(|c| !corporations.contains(&Some(*c)));
        }
    }
    let seats = corporations
        .iter()
        .enumerate()
        .map(|(i, c)| SeatSetup {
            corporation: c.unwrap_or(Corporation::Bauhaus),
            doomtroopers: choices
                .get(i)
                .cloned()
                .flatten()
                .and_then(|c| c.doomtroopers),
            pp: None,
            credits: None,
        })
        .collect();
    Ok(Setup {
        ruleset: Setup::ruleset_for_mission(&o.mission),
        mission: o.mission.clone(),
        seats,
        dark_legion: dark_legion_setup(o.dark_legion),
        starting_rank: o.starting_rank,
        seed,
        campaign: false,
        c2m4_completed: None,
        dl_band: None,
    })
}

/// Siege's options as the lobby lists them (`GET /api/catalogue`); the
/// ranges are [`check_options`]'s.
pub fn option_specs() -> Vec<OptionSpec> {
    let missions = Content::embedded()
        .map(|content| {
            playable_missions()
                .iter()
                .filter_map(|id| content.mission(id))
                .map(|m| OptionChoice {
                    value: m.id.clone().into(),
                    name: m.name.clone(),
                })
                .collect()
        })
        .unwrap_or_default();
    let seats = *player_counts(true).end();
    let mut dark_legion = vec![
        OptionChoice {
            value: serde_json::json!({ "mode": "drawn" }),
            name: "Drawn among the players".into(),
        },
        OptionChoice {
            value: serde_json::json!({ "mode": "ai" }),
            name: "The AI".into(),
        },
    ];
    dark_legion.extend((0..seats).map(|seat| OptionChoice {
        value: serde_json::json!({ "mode": "seat", "seat": seat }),
        name: format!("Seat {}", seat + 1),
    }));
    let ai = player_counts(true);
    let classic = starting_ranks(crate::content::Edition::Classic);
    vec![
        OptionSpec {
            name: "mission".into(),
            label: "Mission".into(),
            kind: OptionKind::Choice {
                choices: missions,
                default: serde_json::Value::Null,
            },
            note: String::new(),
        },
        OptionSpec {
            name: "seats".into(),
            label: "Players".into(),
            kind: OptionKind::Integer {
                min: i64::from(*ai.start()),
                max: i64::from(*ai.end()),
                default: None,
            },
            note: format!(
                "{}-{} with the AI Dark Legion, {}-{} otherwise",
                ai.start(),
                ai.end(),
                player_counts(false).start(),
                player_counts(false).end()
            ),
        },
        OptionSpec {
            name: "dark_legion".into(),
            label: "Dark Legion".into(),
            kind: OptionKind::Choice {
                choices: dark_legion,
                default: serde_json::Value::Null,
            },
            note: "a seat below the number of players".into(),
        },
        OptionSpec {
            name: "starting_rank".into(),
            label: "Starting rank".into(),
            kind: OptionKind::Integer {
                min: i64::from(*STARTING_RANKS.start()),
                max: i64::from(*STARTING_RANKS.end()),
                default: Some(1),
            },
            note: format!(
                "Collectors Edition missions {}-{}, 1993 missions {}-{}",
                STARTING_RANKS.start(),
                STARTING_RANKS.end(),
                classic.start(),
                classic.end()
            ),
        },
    ]
}

/// The rules' form of the lobby's Dark Legion choice.
pub fn dark_legion_setup(choice: DarkLegionChoice) -> DarkLegionSetup {
    match choice {
        DarkLegionChoice::Drawn => DarkLegionSetup::Drawn,
        DarkLegionChoice::Seat(s) => DarkLegionSetup::Seat(s),
        DarkLegionChoice::Ai => DarkLegionSetup::Ai,
    }
}

/// The default answer when a player runs out of time (core CONV-8,
/// TRN-11): end the turn if possible, pass the equipment draft, otherwise
/// the first legal option (lowest id, lowest square), which declines every
/// "may". Revealing an AI card is the AI seat's own step, never an answer.
pub fn timeout_default(legal: &[Command]) -> Option<Command> {
    if legal.contains(&Command::EndTurn) {
        return Some(Command::EndTurn);
    }
    if legal.contains(&Command::PassEquipment) {
        return Some(Command::PassEquipment);
    }
    legal.iter().find(|c| **c != Command::RevealAiCard).cloned()
}

/// SCR-2: the winner is the player with the highest PP; a tie between the
/// Dark Legion and corporation players goes to the Dark Legion; a tie
/// among corporation players only is a joint win. Every seat is placed,
/// the AI Dark Legion's too: a seat's place is one more than the number of
/// seats ahead of it.
fn placings(game: &Game) -> Vec<Placing> {
    let view = game.view(Viewer::Spectator);
    let dl_seat = game.dark_legion_seat();
    let standing: Vec<(Seat, bool, i32)> = game
        .seats()
        .into_iter()
        .map(|seat| {
            if seat == dl_seat {
                (seat, true, view.dark_legion.pp)
            } else {
                let pp = view
                    .teams
                    .iter()
                    .find(|t| t.seat == seat)
                    .map_or(0, |t| t.pp);
                (seat, false, pp)
            }
        })
        .collect();
    places(&standing)
}

/// SCR-2 over `(seat, is the Dark Legion, PP)`, in seat order.
fn places(standing: &[(Seat, bool, i32)]) -> Vec<Placing> {
    // Is `a` ahead of `b`?
    let ahead = |(_, a_dl, a): (Seat, bool, i32), (_, b_dl, b): (Seat, bool, i32)| {
        a > b || (a == b && a_dl && !b_dl)
    };
    standing
        .iter()
        .map(|me| {
            let before = standing.iter().filter(|other| ahead(**other, *me)).count();
            Placing {
                seat: me.0,
                team: None,
                place: u8::try_from(before + 1).unwrap_or(u8::MAX),
                score: i64::from(me.2),
            }
        })
        .collect()
}

impl citadel_game::Game for Game {
    type Options = SiegeOptions;
    type Choice = SeatChoice;
    type Setup = Setup;
    type Command = Command;
    type Event = Event;
    type View = GameView;
    type Rejection = Rejection;
    type Static = MapData;
    type Summary = GameSummary;

    const ID: &'static str = "siege";
    const NAME: &'static str = "Siege of the Citadel";

    fn rules_version() -> RulesVersion {
        crate::current_rules()
    }

    fn option_specs() -> Vec<OptionSpec> {
        option_specs()
    }

    fn seat_plan(options: &SiegeOptions) -> Result<SeatPlan, OptionError> {
        check_options(options)
    }

    fn check_choice(
        _options: &SiegeOptions,
        seat: citadel_game::Seat,
        choice: &SeatChoice,
        others: &[Option<SeatChoice>],
    ) -> Result<(), ChoiceError> {
        if let Some(team) = choice.doomtroopers {
            if team[0] == team[1] {
                return Err(ChoiceError("pick two different Doomtroopers".into()));
            }
        }
        if let Some(corporation) = choice.corporation {
            let taken = others.iter().enumerate().any(|(i, other)| {
                i != usize::from(seat.0)
                    && other.as_ref().and_then(|o| o.corporation) == Some(corporation)
            });
            if taken {
                return Err(ChoiceError("another seat holds that corporation".into()));
            }
        }
        Ok(())
    }

    fn setup(
        options: &SiegeOptions,
        choices: &[Option<SeatChoice>],
        seed: u64,
    ) -> Result<Setup, SetupRefused> {
        setup_of(options, choices, seed)
    }

    fn start(setup: &Setup, dice: &mut dyn Dice) -> Result<(Game, Vec<Event>), SetupRefused> {
        Game::new(setup.clone(), dice).map_err(|e| SetupRefused(e.to_string()))
    }

    fn apply(
        &mut self,
        seat: citadel_game::Seat,
        command: Command,
        dice: &mut dyn Dice,
    ) -> Result<Vec<Event>, Rejection> {
        Game::apply(self, seat, command, dice)
    }

    fn legal(&self, seat: citadel_game::Seat) -> Vec<Command> {
        Game::legal(self, seat)
    }

    fn to_act(&self) -> Vec<citadel_game::Seat> {
        if self.is_finished() {
            return Vec::new();
        }
        self.seat_to_act().into_iter().collect()
    }

    fn is_finished(&self) -> bool {
        Game::is_finished(self)
    }

    fn view(&self, viewer: Viewer) -> GameView {
        Game::view(self, viewer)
    }

    fn redact(event: &Event, viewer: Viewer) -> Event {
        event.for_viewer(viewer)
    }

    fn static_data(&self) -> MapData {
        MapData::of(self)
    }

    fn documents() -> Vec<citadel_game::Document> {
        crate::documents::all()
    }

    fn static_changed(events: &[Event]) -> bool {
        // 1993 event 11 turns or swaps sectors: the board changed.
        events
            .iter()
            .any(|e| matches!(e, Event::SectorsAltered { .. }))
    }

    fn checksum(&self) -> String {
        crate::state_checksum(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::is_finished(self).then(|| Outcome {
            placings: placings(self),
        })
    }

    fn summary(&self) -> GameSummary {
        GameSummary::of(self)
    }

    fn timeout_command(&self, seat: citadel_game::Seat) -> Option<Command> {
        timeout_default(&Game::legal(self, seat))
    }

    fn view_patch(old: &GameView, new: &GameView) -> citadel_game::patch::Patch {
        crate::view_diff::diff(old, new)
    }

    fn paced(command: &Command) -> bool {
        // A card reveal is part of the AI's next decision, not a move to
        // watch.
        *command != Command::RevealAiCard
    }

    fn bot_rating_name(
        _options: &SiegeOptions,
        _seat: citadel_game::Seat,
        automaton: bool,
    ) -> String {
        // The automaton is the AI Dark Legion (its own rules, AI-1..AI-13);
        // a bot seat or a leaver's stand-in is the heuristic bot.
        if automaton {
            "AI Dark Legion".into()
        } else {
            "Heuristic bot".into()
        }
    }

    fn bot_choice(
        _options: &SiegeOptions,
        _seat: citadel_game::Seat,
        others: &[Option<SeatChoice>],
    ) -> Option<SeatChoice> {
        // The first corporation nobody holds.
        let taken = |c: Corporation| {
            others
                .iter()
                .any(|o| o.as_ref().and_then(|o| o.corporation) == Some(c))
        };
        Corporation::ALL
            .into_iter()
            .find(|c| !taken(*c))
            .map(|corporation| SeatChoice {
                corporation: Some(corporation),
                doomtroopers: None,
            })
    }

    fn settled_choices(setup: &Setup) -> Vec<Option<SeatChoice>> {
        setup
            .seats
            .iter()
            .map(|s| {
                Some(SeatChoice {
                    corporation: Some(s.corporation),
                    doomtroopers: s.doomtroopers,
                })
            })
            .collect()
    }

    fn check_unversioned(options: &SiegeOptions) -> Result<(), String> {
        // Before rules versions the AI Dark Legion's deck lived outside
        // the game and drew from the server's own chance; now it is game
        // state drawn from the game's dice.
        if options.dark_legion == DarkLegionChoice::Ai {
            return Err(
                "an AI Dark Legion game from before the AI deck was game state cannot be checked"
                    .into(),
            );
        }
        Ok(())
    }

    fn resample_hidden(&self, viewer: Viewer, dice: &mut dyn Dice) -> Game {
        let mut copy = self.clone();
        // A spectator keeps no hand: a seat that is not in the game.
        let keep = match viewer {
            Viewer::Seat(seat) => seat,
            Viewer::Spectator => Seat(u8::MAX),
        };
        copy.scramble_hidden(keep, dice);
        copy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place_of(standing: &[(u8, bool, i32)]) -> Vec<u8> {
        let standing: Vec<(Seat, bool, i32)> = standing
            .iter()
            .map(|(s, dl, pp)| (Seat(*s), *dl, *pp))
            .collect();
        places(&standing).iter().map(|p| p.place).collect()
    }

    #[test]
    fn scr_2_highest_pp_wins_the_dark_legion_takes_ties_corporations_share() {
        // The highest PP wins.
        assert_eq!(
            place_of(&[(0, false, 12), (1, false, 7), (2, true, 9)]),
            [1, 3, 2]
        );
        // A tie between the DL and corporation players goes to the DL.
        assert_eq!(
            place_of(&[(0, false, 10), (1, true, 10), (2, false, 3)]),
            [2, 1, 3]
        );
        // A tie among corporation players only is a joint win.
        assert_eq!(
            place_of(&[(0, false, 10), (1, false, 10), (2, true, 4)]),
            [1, 1, 3]
        );
    }

    #[test]
    fn options_name_the_field_at_fault() {
        let ok = SiegeOptions {
            mission: "ce-c1m1".into(),
            seats: 2,
            dark_legion: DarkLegionChoice::Drawn,
            starting_rank: 1,
        };
        assert_eq!(
            check_options(&ok),
            Ok(SeatPlan {
                players: 2,
                automata: 0
            })
        );
        let ai = SiegeOptions {
            seats: 1,
            dark_legion: DarkLegionChoice::Ai,
            ..ok.clone()
        };
        assert_eq!(check_options(&ai).map(|p| p.automata), Ok(1));
        for (bad, field) in [
            (
                SiegeOptions {
                    mission: "nope".into(),
                    ..ok.clone()
                },
                "mission",
            ),
            (
                SiegeOptions {
                    seats: 1,
                    ..ok.clone()
                },
                "seats",
            ),
            (
                SiegeOptions {
                    dark_legion: DarkLegionChoice::Seat(2),
                    ..ok.clone()
                },
                "dark_legion",
            ),
            (
                SiegeOptions {
                    starting_rank: 0,
                    ..ok.clone()
                },
                "starting_rank",
            ),
        ] {
            assert_eq!(
                check_options(&bad).map_err(|e| e.field),
                Err(field),
                "{bad:?}"
            );
        }
    }

    /// What the catalogue lists is what `check_options` accepts: every
    /// listed mission, the seat and rank bounds.
    #[test]
    fn the_listed_options_are_the_checked_ones() {
        let specs = option_specs();
        let OptionKind::Choice { choices, .. } = &specs[0].kind else {
            panic!("missions are a choice");
        };
        assert_eq!(choices.len(), playable_missions().len());
        for c in choices {
            let o = SiegeOptions {
                mission: c.value.as_str().unwrap_or_default().to_string(),
                seats: 1,
                dark_legion: DarkLegionChoice::Ai,
                starting_rank: 1,
            };
            assert!(check_options(&o).is_ok(), "{o:?}");
        }
        let OptionKind::Choice { choices, .. } = &specs[2].kind else {
            panic!("the Dark Legion is a choice");
        };
        for c in choices {
            let dl: DarkLegionChoice =
                serde_json::from_value(c.value.clone()).expect("a Dark Legion choice");
            let o = SiegeOptions {
                mission: "ce-c1m1".into(),
                seats: 5,
                dark_legion: dl,
                starting_rank: 1,
            };
            assert!(check_options(&o).is_ok(), "{o:?}");
        }
        let OptionKind::Integer { min, max, .. } = specs[1].kind else {
            panic!("seats are a number");
        };
        for (seats, ok) in [(min, true), (max, true), (min - 1, false), (max + 1, false)] {
            let o = SiegeOptions {
                mission: "ce-c1m1".into(),
                seats: u8::try_from(seats).unwrap_or(0),
                dark_legion: DarkLegionChoice::Ai,
                starting_rank: 1,
            };
            assert_eq!(check_options(&o).is_ok(), ok, "{o:?}");
        }
    }

    #[test]
    fn set_1_seats_without_a_choice_get_the_free_corporations_in_id_order() {
        let o = SiegeOptions {
            mission: "ce-c1m1".into(),
            seats: 3,
            dark_legion: DarkLegionChoice::Drawn,
            starting_rank: 1,
        };
        let second = Corporation::ALL[1];
        let choices = [
            None,
            Some(SeatChoice {
                corporation: Some(Corporation::ALL[0]),
                doomtroopers: None,
            }),
            None,
        ];
        let setup = setup_of(&o, &choices, 5).expect("a setup");
        let got: Vec<Corporation> = setup.seats.iter().map(|s| s.corporation).collect();
        assert_eq!(got, [second, Corporation::ALL[0], Corporation::ALL[2]]);
        assert_eq!(setup.seed, 5);
        let twice = [choices[1].clone(), choices[1].clone(), None];
        assert!(
            setup_of(&o, &twice, 5).is_err(),
            "one corporation, two seats"
        );
    }
}
