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
    /// What the game draws once, as it is at step `from` (a board, which a
    /// game's events may change: see [`Step::static_data`]).
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
    /// What the game draws once, when this step changed it.
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
