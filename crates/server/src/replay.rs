//! Replays of finished games, as a spectator saw them.
//!
//! A stored game is its setup, its seed and its accepted commands; the
//! rules are deterministic, so applying the commands in order to
//! `Game::new(setup, SeededDice::new(seed))` rebuilds every event. Each
//! step's events are redacted for [`Viewer::Spectator`] and numbered with
//! the same contiguous `seq` the live game used, and each step carries the
//! spectator's view after it. Pure: no store, no clock, no I/O.
//!
//! Re-running the engine is right only while the engine is the one that
//! made the game. So a finished game's replay is also kept whole in the
//! store ([`record`], made when the game ends), and served from there
//! ([`from_stored`]); the engine is the fallback for a game without a
//! kept replay, and for one made on other rules its replay is checked
//! against the checksums stored with its commands (docs/STORAGE.md).

use crate::table::Kind;
use citadel_game::{Game, Seat, SeededDice, Viewer};
use citadel_protocol::{Json, SeqEvent};
use citadel_store::{CommandRecord, GameRecord, ReplayPage, ReplayRecord};
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

/// `GET /api/games/{code}/replay`: a finished game, or a page of it,
/// step by step.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Replay {
    /// Join code.
    pub code: String,
    /// The game's kind.
    pub kind: String,
    /// The game's setup, without its seed (the seed would reveal every
    /// hand and deck order).
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub setup: Value,
    /// What the game draws once, as it is at step `from` (Siege: its map,
    /// which a 1993 game's event 11 may change: see [`Step::static_data`]).
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub static_data: Json,
    /// Steps in the whole game: the start plus one per command.
    pub total_steps: u64,
    /// The first step of this page.
    pub from: u64,
    /// The steps of this page, in order.
    pub steps: Vec<Step>,
    /// A kept replay of a game closed as outdated says why (and `null`
    /// when it was not); one the engine replays now leaves it out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub outdated: Option<String>,
}

/// One step: the start (index 0) or one accepted command.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "ReplayStep"))]
pub struct Step {
    /// Step number: 0 is the start, `n` the `n`th command.
    pub index: u64,
    /// Who sent the command (`null` for the start).
    pub seat: Option<u8>,
    /// The command, as the game's JSON (`null` for the start).
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub command: Option<Json>,
    /// What it caused, as a spectator sees it, with the game's seqs.
    pub events: Vec<SeqEvent>,
    /// The spectator's view after it, as the game's JSON.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub view: Json,
    /// What the game draws once, when this step changed it (Siege: 1993
    /// event 11).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "unknown"))]
    pub static_data: Option<Json>,
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
    /// Made on other rules, the game does not replay as it was played
    /// on these (a command refused, a checksum that differs).
    #[error("the game was made by other rules and does not replay on these: {0}")]
    Outdated(String),
}

/// How a replay run treats the stored checksums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The engine made the game: no check.
    SameRules,
    /// Other rules made it: every stored checksum must match, and a
    /// refused command means the rules differ.
    AgainstChecksums,
}

/// Replay a finished game's `page` of steps.
///
/// # Errors
/// [`ReplayError::NotFinished`] if the record has no finish time (or no
/// setup); [`ReplayError::Corrupt`] if the setup or a command does not
/// parse, the commands are not numbered 0, 1, 2…, or the rules refuse one.
pub fn replay(
    kind: &dyn Kind,
    game: &GameRecord,
    commands: &[CommandRecord],
    page: Page,
) -> Result<Replay, ReplayError> {
    replay_checked(kind, game, commands, page, Check::SameRules)
}

/// [`replay`], with the stored checksums checked as `check` says.
///
/// # Errors
/// As [`replay`], and [`ReplayError::Outdated`] when checking finds the
/// replay differs.
pub fn replay_checked(
    kind: &dyn Kind,
    game: &GameRecord,
    commands: &[CommandRecord],
    page: Page,
    check: Check,
) -> Result<Replay, ReplayError> {
    let (Some(_), Some(_)) = (&game.setup, game.finished_at) else {
        return Err(ReplayError::NotFinished);
    };
    let from = page.from.unwrap_or(0);
    let count = page.count.unwrap_or(MAX_PAGE).min(MAX_PAGE);
    kind.replay(game, commands, from, count, check)
}

/// The whole replay of a game's first `commands` (all of a finished
/// game's, or the part of an outdated one that replays identically), to
/// keep in the store. `outdated`: why the replay stops early, shown with
/// it.
///
/// # Errors
/// As [`replay_checked`] (a game not started is [`ReplayError::NotFinished`]).
pub fn record(
    kind: &dyn Kind,
    game: &GameRecord,
    commands: &[CommandRecord],
    check: Check,
    outdated: Option<&str>,
) -> Result<ReplayRecord, ReplayError> {
    if game.setup.is_none() {
        return Err(ReplayError::NotFinished);
    }
    let all = kind.replay(game, commands, 0, u64::MAX, check)?;
    let header = serde_json::json!({
        "kind": all.kind,
        "setup": all.setup,
        "static_data": all.static_data,
        "outdated": outdated,
    });
    Ok(ReplayRecord {
        header: to_text(&header)?,
        steps: all.steps.iter().map(to_text).collect::<Result<_, _>>()?,
    })
}

fn to_text<T: Serialize>(value: &T) -> Result<String, ReplayError> {
    serde_json::to_string(value).map_err(|e| ReplayError::Corrupt(format!("serialize: {e}")))
}

/// A page of a kept replay, in the shape [`Replay`] has (plus
/// `outdated` when the game was closed as outdated). The kept JSON is
/// passed through as it was made, not parsed into today's types, so a
/// change to them cannot break an old replay.
///
/// # Errors
/// [`ReplayError::Corrupt`] if the kept JSON does not parse.
pub fn from_stored(code: &str, stored: ReplayPage, from: u64) -> Result<Value, ReplayError> {
    let corrupt = |e: serde_json::Error| ReplayError::Corrupt(format!("kept replay: {e}"));
    let mut out: serde_json::Map<String, Value> =
        serde_json::from_str(&stored.header).map_err(corrupt)?;
    let steps = stored
        .steps
        .iter()
        .map(|s| serde_json::from_str::<Value>(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(corrupt)?;
    out.insert("code".into(), Value::from(code));
    out.insert("total_steps".into(), Value::from(stored.total_steps));
    out.insert("from".into(), Value::from(from));
    out.insert("steps".into(), Value::from(steps));
    Ok(Value::Object(out))
}

/// Replay steps `from..from + count` of game `G` (every step is
/// computed up to the last asked for).
pub(crate) fn run<G: Game>(
    game: &GameRecord,
    commands: &[CommandRecord],
    from: u64,
    count: u64,
    check: Check,
) -> Result<Replay, ReplayError> {
    let corrupt = |m: String| ReplayError::Corrupt(m);
    let setup_text = game.setup.as_deref().unwrap_or_default();
    let setup: G::Setup =
        serde_json::from_str(setup_text).map_err(|e| corrupt(format!("setup: {e}")))?;
    let total_steps = commands.len() as u64 + 1;
    let end = from.saturating_add(count).min(total_steps);

    let mut dice = SeededDice::new(game.seed);
    let (mut live, events) = G::start(&setup, &mut dice).map_err(|e| corrupt(e.to_string()))?;
    let mut static_data = Json::of(&live.static_data());
    let mut setup_value =
        serde_json::to_value(&setup).map_err(|e| corrupt(format!("setup: {e}")))?;
    if let Some(o) = setup_value.as_object_mut() {
        // By convention a setup's seed is its `seed` field.
        o.remove("seed");
    }

    let mut steps = Vec::new();
    // Events before the step being built: the next seq is `seen + 1`.
    let mut seen = 0u64;
    let mut record = |index: u64,
                      seat: Option<u8>,
                      command: Option<Json>,
                      events: Vec<G::Event>,
                      game: &G,
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
                        event: Json::of(&G::redact(e, Viewer::Spectator)),
                    })
                    .collect(),
                view: Json::of(&game.view(Viewer::Spectator)),
                static_data: G::static_changed(&events).then(|| Json::of(&game.static_data())),
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
        let command: G::Command =
            serde_json::from_str(&c.command).map_err(|e| corrupt(format!("command {i}: {e}")))?;
        let json = Json::of(&command);
        let events = live
            .apply(Seat(c.seat), command, &mut dice)
            .map_err(|r| match check {
                Check::SameRules => corrupt(format!("command {i} refused: {r}")),
                Check::AgainstChecksums => {
                    ReplayError::Outdated(format!("command {i} is refused: {r}"))
                }
            })?;
        if let (Check::AgainstChecksums, Some(stored)) = (check, &c.checksum) {
            if *stored != live.checksum() {
                return Err(ReplayError::Outdated(format!(
                    "the state after command {i} differs from the stored checksum"
                )));
            }
        }
        if index <= from && G::static_changed(&events) {
            static_data = Json::of(&live.static_data());
        }
        record(index, Some(c.seat), Some(json), events, &live, &mut seen);
    }
    Ok(Replay {
        code: game.code.clone(),
        kind: G::ID.to_string(),
        setup: setup_value,
        static_data,
        total_steps,
        from,
        steps,
        outdated: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Input, Output, Session, SessionConfig};
    use citadel_protocol::{ClientMsg, Join, ServerMsg, TableOptions};
    use citadel_rules::game::{Game as SiegeGame, GameView};

    fn siege() -> &'static dyn Kind {
        crate::games::catalogue()
            .get("siege")
            .map(|k| k.as_ref())
            .expect("siege is in the catalogue")
    }

    fn replay(
        game: &GameRecord,
        commands: &[CommandRecord],
        page: Page,
    ) -> Result<Replay, ReplayError> {
        super::replay(siege(), game, commands, page)
    }

    fn replay_checked(
        game: &GameRecord,
        commands: &[CommandRecord],
        page: Page,
        check: Check,
    ) -> Result<Replay, ReplayError> {
        super::replay_checked(siege(), game, commands, page, check)
    }

    fn record(
        game: &GameRecord,
        commands: &[CommandRecord],
        check: Check,
        outdated: Option<&str>,
    ) -> Result<ReplayRecord, ReplayError> {
        super::record(siege(), game, commands, check, outdated)
    }

    const PLAYER: u64 = 1;
    const SPECTATOR: u64 = 2;

    /// What a live game left behind: its record, its commands, and what
    /// its spectator was sent.
    struct Played {
        record: GameRecord,
        commands: Vec<CommandRecord>,
        spectator_events: Vec<SeqEvent>,
        spectator_view: Option<GameView>,
    }

    /// A 1-seat game against the AI Dark Legion whose player leaves at
    /// once, so bots play every seat to the end, with a spectator
    /// watching. Records are built from the session's outputs exactly as
    /// the server persists them.
    fn random_bot_game(seed: u64) -> Played {
        let options: TableOptions = serde_json::from_value(serde_json::json!({
            "mission": "ce-c1m1", "seats": 1, "dark_legion": {"mode": "ai"},
        }))
        .expect("options");
        let config = SessionConfig {
            grace_ms: 0,
            bot_delay_ms: 0,
            max_bot_steps: 100_000,
        };
        let mut s = Session::<SiegeGame>::new("REPLAY".into(), options.clone(), seed, config)
            .expect("options")
            .with_bots(citadel_bots::seat_bot);
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
        // Ann plays her seat as the heuristic bot would, and stays
        // connected: bots and the AI play only while a player is.
        let mut ann = citadel_bots::HeuristicCorporation::new();
        for now in 1..100_000 {
            let mine = s
                .game()
                .filter(|g| g.seat_to_act() == Some(citadel_rules::game::Seat(0)))
                .and_then(|g| {
                    use citadel_bots::Bot;
                    ann.choose(&citadel_bots::Seen::of(g, citadel_rules::game::Seat(0)))
                });
            let input = match mine {
                Some(command) => Input::Message {
                    conn: PLAYER,
                    msg: ClientMsg::Command {
                        client_ref: None,
                        command: citadel_protocol::Json::of(&command),
                    },
                },
                None => Input::Tick,
            };
            out.extend(s.handle(input, now));
            if s.game().is_some_and(SiegeGame::is_finished) {
                break;
            }
        }
        assert!(
            s.game().is_some_and(SiegeGame::is_finished),
            "the bots finish"
        );

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
            engine_version: 0,
            content_hash: String::new(),
            kind: "siege".into(),
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
                Output::Started { setup, .. } => record.setup = Some(setup.text().to_string()),
                Output::Finished { result } => {
                    record.finished_at = Some(1);
                    record.result = Some(result.text().to_string());
                }
                Output::Applied {
                    seat,
                    command,
                    index,
                } => played.commands.push(CommandRecord {
                    code: "REPLAY".into(),
                    index: index as i64,
                    seat,
                    command: command.text().to_string(),
                    at: 0,
                    checksum: None,
                }),
                Output::Checksum { index, checksum } => {
                    let last = played.commands.last_mut().expect("a command before");
                    assert_eq!(last.index, index as i64, "on the batch's last command");
                    last.checksum = Some(checksum);
                }
                Output::Send { to, msg } if to.contains(&SPECTATOR) => match msg {
                    ServerMsg::Snapshot { view, .. } => {
                        played.spectator_view = Some(view.parse().expect("a view"))
                    }
                    ServerMsg::Events {
                        events,
                        view,
                        view_patch,
                        ..
                    } => {
                        played.spectator_events.extend(events);
                        match (view, view_patch, played.spectator_view.as_mut()) {
                            (Some(view), _, _) => {
                                played.spectator_view = Some(view.parse().expect("a view"))
                            }
                            (None, Some(patch), Some(held)) => {
                                citadel_protocol::view_patch::apply_to_view(held, &patch)
                                    .expect("the patch fits the spectator's last view");
                            }
                            _ => panic!("events with neither a view nor a base to patch"),
                        }
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
        let last_view: GameView = last.view.parse().expect("a view");
        assert_eq!(Some(&last_view), p.spectator_view.as_ref());

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

    /// A kept replay, read back by pages, is what the engine replays.
    #[test]
    fn a_kept_replay_serves_what_the_engine_replays() {
        let p = random_bot_game(10);
        let kept = record(&p.record, &p.commands, Check::SameRules, None).expect("kept");
        assert_eq!(kept.steps.len(), p.commands.len() + 1);
        for (from, count) in [(0, MAX_PAGE), (3, 4), (p.commands.len() as u64, 10)] {
            let page = Page {
                from: Some(from),
                count: Some(count),
            };
            let engine = serde_json::to_value(replay(&p.record, &p.commands, page).expect("ok"))
                .expect("json");
            let stored = ReplayPage {
                header: kept.header.clone(),
                total_steps: kept.steps.len() as i64,
                steps: kept
                    .steps
                    .iter()
                    .skip(from as usize)
                    .take(count as usize)
                    .cloned()
                    .collect(),
            };
            let mut served = from_stored("REPLAY", stored, from).expect("parses");
            assert_eq!(served["outdated"], Value::Null);
            served.as_object_mut().expect("object").remove("outdated");
            assert_eq!(served, engine, "page {from}+{count}");
        }
    }

    /// Checked against the stored checksums, a faithful record replays; a
    /// changed checksum or a refused command is "outdated", unchecked it
    /// is not noticed (same rules) or corrupt.
    #[test]
    fn a_checked_replay_finds_a_checksum_that_differs() {
        let p = random_bot_game(11);
        let sums = p.commands.iter().filter(|c| c.checksum.is_some()).count();
        assert!(sums > 0, "batches have checksums");
        let page = Page::default();
        let checked = replay_checked(&p.record, &p.commands, page, Check::AgainstChecksums);
        assert!(checked.is_ok(), "{checked:?}");

        let mut changed = p.commands.clone();
        let k = changed
            .iter()
            .position(|c| c.checksum.is_some())
            .expect("one");
        changed[k].checksum = Some("another state".into());
        assert!(replay(&p.record, &changed, page).is_ok(), "not checked");
        let checked = replay_checked(&p.record, &changed, page, Check::AgainstChecksums);
        match checked {
            Err(ReplayError::Outdated(why)) => assert!(why.contains(&format!("command {k}"))),
            other => panic!("expected outdated, got {other:?}"),
        }
        let kept = record(&p.record, &changed, Check::AgainstChecksums, None);
        assert!(matches!(kept, Err(ReplayError::Outdated(_))));

        let mut refused = p.commands.clone();
        refused.swap(0, 1);
        refused[0].index = 0;
        refused[1].index = 1;
        let checked = replay_checked(&p.record, &refused, page, Check::AgainstChecksums);
        assert!(
            matches!(checked, Err(ReplayError::Outdated(_))),
            "{checked:?}"
        );
    }
}
