//! Replays of finished games, as a spectator saw them.
//!
//! A stored game is its setup, its seed and its accepted commands; the
//! rules are deterministic, so applying the commands in order to
//! `Game::new(setup, SeededDice::new(seed))` rebuilds every event. Each
//! step's events are redacted for [`Viewer::Spectator`] and numbered with
//! the same contiguous `seq` the live game used, and each step carries the
//! spectator's view after it. Pure: no store, no clock, no I/O.

use citadel_protocol::{MapData, SeqEvent};
use citadel_rules::dice::SeededDice;
use citadel_rules::game::{Command, Game, GameView, Seat, Setup, Viewer};
use citadel_store::{CommandRecord, GameRecord};
use serde::Serialize;
use serde_json::Value;

/// Most steps in one page.
pub const MAX_PAGE: u64 = 500;

/// Which steps to return: `from` (default 0), at most `count` of them
/// (default and cap [`MAX_PAGE`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
pub struct Page {
    /// First step.
    #[serde(default)]
    pub from: Option<u64>,
    /// How many steps.
    #[serde(default)]
    pub count: Option<u64>,
}

/// A finished game, or a page of it, step by step.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    /// Join code.
    pub code: String,
    /// The rules setup, without its seed (the seed would reveal every
    /// hand and deck order).
    pub setup: Value,
    /// The static map, for drawing.
    pub map: Box<MapData>,
    /// Steps in the whole game: the start plus one per command.
    pub total_steps: u64,
    /// The first step of this page.
    pub from: u64,
    /// The steps of this page, in order.
    pub steps: Vec<Step>,
}

/// One step: the start (index 0) or one accepted command.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// Step number: 0 is the start, `n` the `n`th command.
    pub index: u64,
    /// Who sent the command (`null` for the start).
    pub seat: Option<u8>,
    /// The command (`null` for the start).
    pub command: Option<Command>,
    /// What it caused, as a spectator sees it, with the game's seqs.
    pub events: Vec<SeqEvent>,
    /// The spectator's view after it.
    pub view: Box<GameView>,
}

/// Why a game cannot be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The game has not finished (replays would show a live game).
    #[error("the game has not finished")]
    NotFinished,
    /// The stored data does not replay (a bug or a damaged record).
    #[error("stored game does not replay: {0}")]
    Corrupt(String),
}

/// Replay a finished game's `page` of steps.
///
/// # Errors
/// [`ReplayError::NotFinished`] if the record has no finish time (or no
/// setup); [`ReplayError::Corrupt`] if the setup or a command does not
/// parse, the commands are not numbered 0, 1, 2…, or the rules refuse one.
pub fn replay(
    game: &GameRecord,
    commands: &[CommandRecord],
    page: Page,
) -> Result<Replay, ReplayError> {
    let (Some(setup_text), Some(_)) = (&game.setup, game.finished_at) else {
        return Err(ReplayError::NotFinished);
    };
    let corrupt = |m: String| ReplayError::Corrupt(m);
    let setup: Setup =
        serde_json::from_str(setup_text).map_err(|e| corrupt(format!("setup: {e}")))?;
    let total_steps = commands.len() as u64 + 1;
    let from = page.from.unwrap_or(0);
    let count = page.count.unwrap_or(MAX_PAGE).min(MAX_PAGE);
    let end = from.saturating_add(count).min(total_steps);

    let mut dice = SeededDice::new(game.seed);
    let (mut live, events) = Game::new(setup, &mut dice).map_err(|e| corrupt(e.to_string()))?;
    let map = Box::new(MapData::of(&live));
    let mut setup_value =
        serde_json::to_value(live.setup()).map_err(|e| corrupt(format!("setup: {e}")))?;
    if let Some(o) = setup_value.as_object_mut() {
        o.remove("seed");
    }

    let mut steps = Vec::new();
    // Events before the step being built: the next seq is `seen + 1`.
    let mut seen = 0u64;
    let mut record = |index: u64,
                      seat: Option<u8>,
                      command: Option<Command>,
                      events: Vec<citadel_rules::game::Event>,
                      game: &Game,
                      seen: &mut u64| {
        let first = *seen + 1;
        *seen += events.len() as u64;
        if (from..end).contains(&index) {
            steps.push(Step {
                index,
                seat,
                command,
                events: events
                    .iter()
                    .enumerate()
                    .map(|(k, e)| SeqEvent {
                        seq: first + k as u64,
                        event: e.for_viewer(Viewer::Spectator),
                    })
                    .collect(),
                view: Box::new(game.view(Viewer::Spectator)),
            });
        }
    };
    record(0, None, None, events, &live, &mut seen);
    for (i, c) in commands.iter().enumerate() {
        let index = i as u64 + 1;
        if index >= end {
            break; // Nothing later is asked for.
        }
        if c.index != i as i64 {
            return Err(corrupt(format!("command {i} is numbered {}", c.index)));
        }
        let command: Command =
            serde_json::from_str(&c.command).map_err(|e| corrupt(format!("command {i}: {e}")))?;
        let events = live
            .apply(Seat(c.seat), command.clone(), &mut dice)
            .map_err(|r| corrupt(format!("command {i} refused: {r}")))?;
        record(index, Some(c.seat), Some(command), events, &live, &mut seen);
    }
    Ok(Replay {
        code: game.code.clone(),
        setup: setup_value,
        map,
        total_steps,
        from,
        steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Input, Output, Session, SessionConfig};
    use citadel_protocol::{ClientMsg, DarkLegionChoice, GameOptions, Join, ServerMsg};

    const PLAYER: u64 = 1;
    const SPECTATOR: u64 = 2;

    /// What a live game left behind: its record, its commands, and what
    /// its spectator was sent.
    struct Played {
        record: GameRecord,
        commands: Vec<CommandRecord>,
        spectator_events: Vec<SeqEvent>,
        spectator_view: Option<Box<GameView>>,
    }

    /// A 1-seat game against the AI Dark Legion whose player leaves at
    /// once, so bots play every seat to the end, with a spectator
    /// watching. Records are built from the session's outputs exactly as
    /// the server persists them.
    fn random_bot_game(seed: u64) -> Played {
        let options = GameOptions {
            mission: "ce-c1m1".into(),
            seats: 1,
            dark_legion: DarkLegionChoice::Ai,
            starting_rank: 1,
            turn_seconds: None,
        };
        let config = SessionConfig {
            grace_ms: 0,
            bot_delay_ms: 0,
            max_bot_steps: 100_000,
        };
        let mut s = Session::new("REPLAY".into(), options.clone(), seed, config);
        let mut out = Vec::new();
        for (conn, join) in [
            (PLAYER, Join::Player { name: "Ann".into() }),
            (SPECTATOR, Join::Spectator { name: "Eve".into() }),
        ] {
            out.extend(s.handle(
                Input::Hello(crate::session::Hello {
                    conn,
                    join,
                    last_seq: None,
                    fresh_token: format!("t{conn}"),
                    account: None,
                }),
                0,
            ));
        }
        let ready = ClientMsg::Ready { ready: true };
        for msg in [ready, ClientMsg::Start] {
            out.extend(s.handle(Input::Message { conn: PLAYER, msg }, 0));
        }
        out.extend(s.handle(Input::Closed { conn: PLAYER }, 0));
        for now in 1..100 {
            out.extend(s.handle(Input::Tick, now));
            if s.game().is_some_and(Game::is_finished) {
                break;
            }
        }
        assert!(s.game().is_some_and(Game::is_finished), "the bots finish");

        let mut record = GameRecord {
            code: "REPLAY".into(),
            options: serde_json::to_string(&options).expect("options"),
            seed,
            created_at: 0,
            lobby: String::new(),
            setup: None,
            started_at: None,
            finished_at: None,
            result: None,
            campaign: None,
            active_at: 0,
            abandoned_at: None,
        };
        let mut played = Played {
            record: record.clone(),
            commands: Vec::new(),
            spectator_events: Vec::new(),
            spectator_view: None,
        };
        for o in out {
            match o {
                Output::Started { setup, .. } => {
                    record.setup = Some(serde_json::to_string(&setup).expect("setup"))
                }
                Output::Finished { result } => {
                    record.finished_at = Some(1);
                    record.result = Some(serde_json::to_string(&result).expect("result"));
                }
                Output::Applied {
                    seat,
                    command,
                    index,
                } => played.commands.push(CommandRecord {
                    code: "REPLAY".into(),
                    index: index as i64,
                    seat,
                    command: serde_json::to_string(&command).expect("command"),
                    at: 0,
                }),
                Output::Send { to, msg } if to.contains(&SPECTATOR) => match msg {
                    ServerMsg::Snapshot { view, .. } => played.spectator_view = Some(view),
                    ServerMsg::Events { events, view, .. } => {
                        played.spectator_events.extend(events);
                        played.spectator_view = Some(view);
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        played.record = record;
        played
    }

    fn all_steps(p: &Played) -> Vec<Step> {
        let mut steps = Vec::new();
        loop {
            let page = Page {
                from: Some(steps.len() as u64),
                count: None,
            };
            let r = replay(&p.record, &p.commands, page).expect("replays");
            assert_eq!(r.total_steps, p.commands.len() as u64 + 1);
            if r.steps.is_empty() {
                return steps;
            }
            assert!(r.steps.len() as u64 <= MAX_PAGE);
            steps.extend(r.steps);
        }
    }

    #[test]
    fn a_replay_ends_in_the_live_spectators_final_view_with_the_same_events() {
        let p = random_bot_game(7);
        let steps = all_steps(&p);
        assert_eq!(steps.len(), p.commands.len() + 1);
        let indexes: Vec<u64> = steps.iter().map(|s| s.index).collect();
        assert!(indexes.iter().enumerate().all(|(i, k)| *k == i as u64));
        assert!(steps[0].command.is_none() && steps[0].seat.is_none());
        assert!(!steps[0].events.is_empty(), "the start has events");

        let last = steps.last().expect("a step");
        assert_eq!(Some(&last.view), p.spectator_view.as_ref());

        // Same events, same seqs, contiguous from 1. (The live spectator
        // got the start's events inside its snapshot, not as events.)
        let events: Vec<SeqEvent> = steps.iter().flat_map(|s| s.events.clone()).collect();
        assert!(events
            .iter()
            .enumerate()
            .all(|(i, e)| e.seq == i as u64 + 1));
        let after_start = steps[0].events.len();
        assert_eq!(events[after_start..], p.spectator_events[..]);
    }

    #[test]
    fn a_replay_shows_no_hidden_information() {
        let p = random_bot_game(8);
        let r = replay(&p.record, &p.commands, Page::default()).expect("replays");
        let json = serde_json::to_value(&r).expect("json");
        assert!(json["setup"].get("seed").is_none(), "the seed is secret");
        let mut dealt = 0;
        for step in json["steps"].as_array().expect("steps") {
            for team in step["view"]["teams"].as_array().expect("teams") {
                assert!(team["hand"].is_null(), "a hand: {team}");
            }
            for e in step["events"].as_array().expect("events") {
                if e["event"]["type"] == "cards_dealt" {
                    dealt += 1;
                    assert!(e["event"]["cards"].is_null(), "dealt cards: {e}");
                }
            }
        }
        assert!(dealt > 0, "cards were dealt during the game");
    }

    #[test]
    fn pages_are_bounded_and_an_unfinished_or_damaged_game_is_refused() {
        let p = random_bot_game(9);
        let r = replay(
            &p.record,
            &p.commands,
            Page {
                from: Some(2),
                count: Some(3),
            },
        )
        .expect("replays");
        let indexes: Vec<u64> = r.steps.iter().map(|s| s.index).collect();
        assert_eq!(indexes, [2, 3, 4]);
        let big = Page {
            from: None,
            count: Some(100_000),
        };
        let r = replay(&p.record, &p.commands, big).expect("replays");
        assert_eq!(r.steps.len() as u64, r.total_steps.min(MAX_PAGE));

        let mut unfinished = p.record.clone();
        unfinished.finished_at = None;
        assert!(matches!(
            replay(&unfinished, &p.commands, Page::default()),
            Err(ReplayError::NotFinished)
        ));
        let mut gap = p.commands.clone();
        gap.remove(1);
        assert!(matches!(
            replay(&p.record, &gap, Page::default()),
            Err(ReplayError::Corrupt(_))
        ));
    }
}
