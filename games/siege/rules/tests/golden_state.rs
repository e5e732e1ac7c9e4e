//! Pinned game states: a Collectors Edition and a 1993 game, each checked
//! in as setup + seed + commands, with the `state_checksum` after setup,
//! at checkpoints along the way and at the end, and the whole `Game` JSON
//! at the end.
//!
//! Why: a stored game in flight is checked against these checksums when
//! the server runs another engine version (docs/STORAGE.md). A refactor
//! that changes the JSON of `Game` without changing play would pass every
//! other test, and then the next real version bump would close every older
//! game as outdated. So any change to the serialized state fails here,
//! even one that plays the same. Moving the rules behind the game seam
//! (issue 29) must keep these files as they are.
//!
//! If a change is intended (a rule fix, with `ENGINE_VERSION` bumped),
//! regenerate and review the diff:
//!
//! ```text
//! GOLDEN_UPDATE=1 cargo test -p citadel-rules --test golden_state
//! ```

use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::{Command, DarkLegionSetup, Game, Seat, Setup};
use citadel_rules::sim::random_playout;
use citadel_rules::state_checksum;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A checksum after `after` commands (0: right after setup).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Checkpoint {
    after: usize,
    checksum: String,
}

/// The checked-in record.
#[derive(Debug, Serialize, Deserialize)]
struct GoldenState {
    note: String,
    setup: Setup,
    commands: Vec<(Seat, Command)>,
    checkpoints: Vec<Checkpoint>,
    /// The whole serialized `Game` after the last command.
    final_state: serde_json::Value,
}

/// Checkpoints every this many commands.
const EVERY: usize = 25;

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{name}.json"))
}

/// Replay the commands, taking the checkpoints.
fn replay(setup: &Setup, commands: &[(Seat, Command)]) -> (Game, Vec<Checkpoint>) {
    let mut dice = SeededDice::new(setup.seed);
    let (mut game, _) = Game::new(setup.clone(), &mut dice).expect("setup");
    let mut checkpoints = vec![Checkpoint {
        after: 0,
        checksum: state_checksum(&game),
    }];
    for (i, (seat, cmd)) in commands.iter().enumerate() {
        game.apply(*seat, cmd.clone(), &mut dice)
            .unwrap_or_else(|r| panic!("command {i} {cmd:?} from {seat:?} rejected: {r:?}"));
        let after = i + 1;
        if after % EVERY == 0 || after == commands.len() {
            checkpoints.push(Checkpoint {
                after,
                checksum: state_checksum(&game),
            });
        }
    }
    (game, checkpoints)
}

fn check(name: &str, setup: Setup, max_commands: usize) {
    let file = path(name);
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        let seed = setup.seed;
        let p = random_playout(setup.clone(), seed, max_commands, true).expect("setup");
        assert!(p.violations.is_empty(), "{:?}", p.violations);
        let commands: Vec<(Seat, Command)> = p.log.into_iter().map(|(s, c, _)| (s, c)).collect();
        let (game, checkpoints) = replay(&setup, &commands);
        let golden = GoldenState {
            note: "GOLDEN_UPDATE=1 cargo test -p citadel-rules --test golden_state".into(),
            setup,
            commands,
            checkpoints,
            final_state: serde_json::to_value(&game).expect("game serializes"),
        };
        let mut text = serde_json::to_string_pretty(&golden).expect("golden serializes");
        text.push('\n');
        std::fs::write(&file, text).expect("write golden");
        eprintln!("golden rewritten: {}", file.display());
        return;
    }
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; generate it with GOLDEN_UPDATE=1 cargo test -p citadel-rules --test golden_state",
            file.display()
        )
    });
    let golden: GoldenState = serde_json::from_str(&text).expect("golden parses");
    assert_eq!(
        golden.setup, setup,
        "the pinned setup is the one this test names"
    );
    assert!(
        golden.commands.len() >= 100,
        "a pinned game is long enough to reach the middle of play"
    );
    let (game, checkpoints) = replay(&golden.setup, &golden.commands);
    let state = serde_json::to_value(&game).expect("game serializes");
    if state != golden.final_state {
        panic!(
            "the serialized game differs from the pinned one: {}",
            first_difference("", &golden.final_state, &state)
        );
    }
    assert_eq!(checkpoints, golden.checkpoints, "state checksums drifted");
}

/// The path of the first place two JSON values differ, for a readable
/// failure.
fn first_difference(at: &str, a: &serde_json::Value, b: &serde_json::Value) -> String {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) if w == v => {}
                    Some(w) => return first_difference(&format!("{at}/{k}"), v, w),
                    None => return format!("{at}/{k} is gone"),
                }
            }
            match y.keys().find(|k| !x.contains_key(*k)) {
                Some(k) => format!("{at}/{k} is new"),
                None => format!("{at}: key order"),
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            match x.iter().zip(y).position(|(v, w)| v != w) {
                Some(i) => first_difference(&format!("{at}/{i}"), &x[i], &y[i]),
                None => format!("{at}: equal"),
            }
        }
        _ => format!("{at}: {a} became {b}"),
    }
}

#[test]
fn conv_2_ce_state_json_and_checksums_are_pinned() {
    let setup = Setup::new(
        "ce-c1m1",
        &[
            Corporation::Bauhaus,
            Corporation::Capitol,
            Corporation::Mishima,
        ],
        DarkLegionSetup::Drawn,
    )
    .with_seed(11);
    check("state_ce_c1m1_seed11", setup, 400);
}

#[test]
fn conv_2_classic_state_json_and_checksums_are_pinned() {
    // Three teams: the 1993 secondary missions are dealt too (CSM).
    let setup = Setup::new(
        "classic-m1",
        &[
            Corporation::Bauhaus,
            Corporation::Capitol,
            Corporation::Cybertronic,
        ],
        DarkLegionSetup::Drawn,
    )
    .with_seed(12);
    check("state_classic_m1_seed12", setup, 400);
}
