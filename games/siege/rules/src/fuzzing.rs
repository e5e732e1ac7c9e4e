//! Checks driven by arbitrary bytes, shared by the cargo-fuzz targets in
//! `fuzz/` and by the regression tests that replay every input those
//! targets ever crashed on (`games/siege/rules/tests/fuzz_regressions.rs`).
//!
//! Each function turns any byte string into a game situation and returns
//! `Err` with a description when an invariant breaks, so a fuzzer reports
//! it as a crash and a test can assert `Ok`. They never panic on their own
//! account: a panic is always a defect of the code under test.

use crate::content::{Content, Corporation};
use crate::dice::{Dice, SeededDice};
use crate::game::{Command, DarkLegionSetup, Game, Seat, Setup};
use crate::sim::check_invariants;
use serde_json::Value;

/// The table the platform's session fuzzing plays (`client_session`,
/// `citadel_server::fuzzing::session_from_bytes`): a CE mission for two
/// players, the second the Dark Legion, with a turn limit so timers run.
pub fn two_player_table() -> Value {
    serde_json::json!({
        "kind": "siege",
        "mission": "ce-c1m1",
        "seats": 2,
        "dark_legion": {"mode": "seat", "seat": 1},
        "turn_seconds": 30,
    })
}

/// A little reader over the fuzzer's bytes; past the end it yields zeros,
/// so every input is a complete script.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    fn u16(&mut self) -> u16 {
        u16::from(self.u8()) << 8 | u16::from(self.u8())
    }
    fn done(&self) -> bool {
        self.at >= self.data.len()
    }
}

const CORPS: [Corporation; 5] = [
    Corporation::Bauhaus,
    Corporation::Capitol,
    Corporation::Cybertronic,
    Corporation::Imperial,
    Corporation::Mishima,
];

/// `Game::apply` from reachable states: the bytes choose the setup, a
/// stretch of random legal play, then a mix of legal commands (which must
/// be accepted) and mutated or misdirected ones (which, when rejected, must
/// leave the game and the dice untouched). Invariants are checked after
/// every accepted command.
///
/// # Errors
/// A description of the first broken invariant.
pub fn apply_from_bytes(data: &[u8]) -> Result<(), String> {
    let mut b = Bytes { data, at: 0 };
    let players = 1 + b.u8() % 4;
    let ai = b.u8() % 2 == 0 || players == 1;
    let dl = if ai {
        DarkLegionSetup::Ai
    } else {
        DarkLegionSetup::Drawn
    };
    let seed = u64::from(b.u16());
    let setup = Setup::new("ce-c1m1", &CORPS[..usize::from(players)], dl).with_seed(seed);
    let mut dice = SeededDice::new(seed);
    let (mut game, _) = Game::new(setup, &mut dice).map_err(|e| format!("setup: {e}"))?;
    // Walk forward with random legal play so later commands meet
    // mid-game states, not only the draft.
    let warmup = usize::from(b.u16() % 600);
    let mut pick = SeededDice::new(seed ^ 0xf022);
    for _ in 0..warmup {
        let Some(seat) = game.seat_to_act() else {
            break;
        };
        let legal = game.legal(seat);
        if legal.is_empty() {
            return Err(format!("seat {} must act but has nothing legal", seat.0));
        }
        let cmd = legal[pick.below(legal.len() as u32) as usize].clone();
        game.apply(seat, cmd.clone(), &mut dice)
            .map_err(|r| format!("legal command {cmd:?} refused: {r:?}"))?;
    }
    let seats = u32::try_from(game.seats().len()).unwrap_or(1) + 1;
    while !b.done() && !game.is_finished() {
        let Some(to_act) = game.seat_to_act() else {
            return Err("no seat to act in an unfinished game".into());
        };
        let legal = game.legal(to_act);
        if legal.is_empty() {
            return Err(format!("seat {} must act but has nothing legal", to_act.0));
        }
        let op = b.u8();
        let base = legal[usize::from(b.u16()) % legal.len()].clone();
        if op % 3 == 0 {
            game.apply(to_act, base.clone(), &mut dice)
                .map_err(|r| format!("legal command {base:?} refused: {r:?}"))?;
            check_invariants(&game)?;
            continue;
        }
        // A command from any seat, possibly mutated.
        let seat = Seat((u32::from(b.u8()) % seats) as u8);
        let cmd = if op % 3 == 1 {
            mutate(&base, &mut b).unwrap_or(base)
        } else {
            base
        };
        let before = serde_json::to_string(&game).map_err(|e| e.to_string())?;
        let mut dice_before = dice.clone();
        match game.apply(seat, cmd.clone(), &mut dice) {
            Ok(_) => check_invariants(&game)?,
            Err(rejection) => {
                let after = serde_json::to_string(&game).map_err(|e| e.to_string())?;
                if after != before {
                    return Err(format!(
                        "{cmd:?} from seat {} was refused ({rejection:?}) but changed the game",
                        seat.0
                    ));
                }
                if dice.clone().below(1 << 30) != dice_before.below(1 << 30) {
                    return Err(format!("{cmd:?} was refused ({rejection:?}) but drew dice"));
                }
            }
        }
    }
    Ok(())
}

/// Replace one number or string inside a command with a value from the
/// bytes; `None` if the result is no command at all.
fn mutate(cmd: &Command, b: &mut Bytes<'_>) -> Option<Command> {
    let mut v = serde_json::to_value(cmd).ok()?;
    let mut slots = Vec::new();
    collect_slots(&mut v, &mut slots);
    if slots.is_empty() {
        return None;
    }
    let n = slots.len();
    let slot = &mut slots[usize::from(b.u8()) % n];
    let raw = b.u16();
    **slot = match &**slot {
        Value::Number(_) => Value::from(raw % 300),
        Value::String(_) => Value::from(match raw % 4 {
            0 => String::new(),
            1 => format!("{}", raw),
            2 => "15W".to_string(),
            _ => "grenade_launcher".to_string(),
        }),
        other => other.clone(),
    };
    serde_json::from_value(v).ok()
}

fn collect_slots<'v>(v: &'v mut Value, out: &mut Vec<&'v mut Value>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                if k != "type" {
                    collect_slots(x, out);
                }
            }
        }
        Value::Array(xs) => xs.iter_mut().for_each(|x| collect_slots(x, out)),
        Value::Number(_) | Value::String(_) => out.push(v),
        _ => {}
    }
}

/// The content loader on a damaged file: the bytes choose which embedded
/// file is replaced and by what. Loading must answer `Ok` or a
/// [`ContentError`](crate::content::ContentError) that names a file and
/// says what is wrong; a panic is the defect.
///
/// # Errors
/// When the error names no content file or says nothing.
pub fn content_from_bytes(data: &[u8]) -> Result<(), String> {
    let files = Content::embedded_files();
    let Some((&which, text)) = data.split_first() else {
        return Ok(());
    };
    let target = usize::from(which) % files.len();
    let text = String::from_utf8_lossy(text);
    let replaced: Vec<(&str, &str)> = files
        .iter()
        .enumerate()
        .map(|(i, (n, t))| if i == target { (*n, &*text) } else { (*n, *t) })
        .collect();
    match Content::from_files(&replaced) {
        Ok(_) => Ok(()),
        Err(e) if e.message.is_empty() => Err(format!("{e}: an error without a message")),
        // Cross-file checks may blame another file (a mission naming a
        // tile), but always a real one.
        Err(e) if !files.iter().any(|(n, _)| *n == e.file) => {
            Err(format!("{e}: the error names no content file"))
        }
        Err(_) => Ok(()),
    }
}
