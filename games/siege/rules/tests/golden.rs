//! Golden replay (core CONV-2): a whole random-bot game of C1M1, checked in
//! as setup + seed + commands, must replay to exactly the recorded final
//! spectator view and event count. Any change to the rules, the content or
//! the dice mapping that alters play shows up here.
//!
//! If a change is intended, regenerate the file and review the diff:
//!
//! ```text
//! GOLDEN_UPDATE=1 cargo test -p citadel-rules --test golden
//! ```
//!
//! Without `GOLDEN_UPDATE` the test only compares, and fails on any drift.

use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::{Command, DarkLegionSetup, Game, Seat, Setup, Viewer};
use citadel_rules::sim::random_playout;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The checked-in record.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Golden {
    /// How to regenerate.
    note: String,
    /// The setup (its `seed` seeds the dice).
    setup: Setup,
    /// Every command, in order.
    commands: Vec<(Seat, Command)>,
    /// Events from setup and all commands.
    event_count: usize,
    /// FNV-1a 64 of the final spectator view as compact JSON, in hex.
    final_view_fnv1a: String,
    /// A readable summary of the end, to make a diff easier to read.
    summary: Summary,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Summary {
    round: u32,
    finished: bool,
    result: Option<citadel_rules::game::MissionResult>,
    team_pp: Vec<i32>,
    dl_pp: i32,
}

const SEED: u64 = 7;

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/c1m1_seed7.json")
}

/// FNV-1a, 64 bits: stable, dependency-free.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn setup() -> Setup {
    Setup::new(
        "ce-c1m1",
        &[
            Corporation::Bauhaus,
            Corporation::Capitol,
            Corporation::Mishima,
        ],
        DarkLegionSetup::Drawn,
    )
    .with_seed(SEED)
}

/// Replay `commands` from `setup`: the final game and the event count.
fn replay(setup: &Setup, commands: &[(Seat, Command)]) -> (Game, usize) {
    let mut dice = SeededDice::new(setup.seed);
    let (mut game, start) = Game::new(setup.clone(), &mut dice).expect("setup");
    let mut count = start.len();
    for (i, (seat, cmd)) in commands.iter().enumerate() {
        let events = game
            .apply(*seat, cmd.clone(), &mut dice)
            .unwrap_or_else(|r| panic!("command {i} {cmd:?} from {seat:?} rejected: {r:?}"));
        count += events.len();
    }
    (game, count)
}

fn record(setup: Setup, commands: Vec<(Seat, Command)>) -> Golden {
    let (game, event_count) = replay(&setup, &commands);
    let view = game.view(Viewer::Spectator);
    let json = serde_json::to_string(&view).expect("view serializes");
    Golden {
        note: "GOLDEN_UPDATE=1 cargo test -p citadel-rules --test golden".into(),
        setup,
        commands,
        event_count,
        final_view_fnv1a: format!("{:016x}", fnv1a(json.as_bytes())),
        summary: Summary {
            round: view.round,
            finished: game.is_finished(),
            result: game.result(),
            team_pp: view.teams.iter().map(|t| t.pp).collect(),
            dl_pp: view.dark_legion.pp,
        },
    }
}

#[test]
fn conv_2_golden_c1m1_seed7_replays_exactly() {
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        let p = random_playout(setup(), SEED, 20_000, true).expect("setup");
        assert!(p.violations.is_empty(), "{:?}", p.violations);
        assert!(p.finished, "the golden game must finish");
        let commands = p.log.into_iter().map(|(s, c, _)| (s, c)).collect();
        let golden = record(setup(), commands);
        let mut text = serde_json::to_string_pretty(&golden).expect("golden serializes");
        text.push('\n');
        std::fs::create_dir_all(path().parent().expect("dir")).expect("mkdir");
        std::fs::write(path(), text).expect("write golden");
        eprintln!("golden rewritten: {}", path().display());
        return;
    }
    let text = std::fs::read_to_string(path()).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; generate it with GOLDEN_UPDATE=1 cargo test -p citadel-rules --test golden",
            path().display()
        )
    });
    let golden: Golden = serde_json::from_str(&text).expect("golden parses");
    assert!(golden.summary.finished, "the golden game is a whole game");
    let again = record(golden.setup.clone(), golden.commands.clone());
    assert_eq!(
        again.summary, golden.summary,
        "final state drifted from the golden game"
    );
    assert_eq!(again.event_count, golden.event_count, "event count drifted");
    assert_eq!(
        again.final_view_fnv1a, golden.final_view_fnv1a,
        "final spectator view drifted"
    );
}
