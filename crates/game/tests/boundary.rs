//! The platform knows no game (issue 29): no crate of the platform
//! depends on a game's crate, and no platform source names a game's
//! types. The seam is being cut in steps, so the files of the platform
//! that still name Siege (its rules crate `citadel_rules`, its bots
//! `citadel_bots`) are listed here: the list may only shrink. A file that
//! starts naming a game fails this test; a listed file that no longer
//! does fails it too, so that the list is kept true.

use std::path::{Path, PathBuf};

/// The packages of the games: every Cargo.toml under `games/` names one.
/// Read from the tree, so a new game's crates are covered without a
/// change here.
fn game_packages() -> Vec<String> {
    fn manifests(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("target") {
                manifests(&path, out);
            } else if path.file_name().is_some_and(|n| n == "Cargo.toml") {
                out.push(path);
            }
        }
    }
    let mut found = Vec::new();
    manifests(&crates_dir().with_file_name("games"), &mut found);
    let mut names: Vec<String> = found
        .iter()
        .filter_map(|m| {
            let text = std::fs::read_to_string(m).ok()?;
            let line = text.lines().find(|l| l.trim_start().starts_with("name"))?;
            Some(line.split('"').nth(1)?.to_string())
        })
        .collect();
    names.sort();
    names
}

/// What naming a game looks like in Rust source: its crate's name.
fn game_crates() -> Vec<String> {
    game_packages()
        .iter()
        .map(|p| p.replace('-', "_"))
        .collect()
}

#[test]
fn the_games_are_found() {
    let packages = game_packages();
    for known in [
        "citadel-rules",
        "citadel-bots",
        "citadel-siege-campaign",
        "citadel-neuroshima",
    ] {
        assert!(
            packages.iter().any(|p| p == known),
            "{known} in {packages:?}"
        );
    }
}

/// Platform crates that never depend on a game.
const GAME_FREE: [&str; 3] = ["game", "store", "search"];

/// Platform sources that still name Siege, to move behind the seam.
const STILL_SIEGE: [&str; 2] = ["server/src/games.rs", "server/src/replay.rs"];

/// The platform crates whose sources are checked.
const PLATFORM: [&str; 6] = ["server", "protocol", "load", "store", "game", "search"];

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn game_free_crates_depend_on_no_game() {
    for name in GAME_FREE {
        let manifest = crates_dir().join(name).join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).unwrap_or_default();
        assert!(!text.is_empty(), "{} is there", manifest.display());
        for package in game_packages() {
            assert!(
                !text.contains(&format!("\n{package} =")),
                "{} depends on the game crate {package}",
                manifest.display()
            );
        }
    }
}

#[test]
fn no_platform_source_names_a_game_beyond_the_shrinking_list() {
    let root = crates_dir();
    let crates = game_crates();
    let mut naming = Vec::new();
    for name in PLATFORM {
        let mut files = Vec::new();
        rust_files(&root.join(name).join("src"), &mut files);
        assert!(!files.is_empty(), "{name} has sources");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            if crates.iter().any(|c| text.contains(c.as_str())) {
                let rel = file
                    .strip_prefix(&root)
                    .map(|p| p.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default();
                naming.push(rel);
            }
        }
    }
    naming.sort();
    let mut listed: Vec<String> = STILL_SIEGE.iter().map(|s| s.to_string()).collect();
    listed.sort();
    let new: Vec<&String> = naming.iter().filter(|f| !listed.contains(f)).collect();
    assert!(
        new.is_empty(),
        "platform sources that name a game: {new:?}; go through the seam (crates/game)"
    );
    let done: Vec<&String> = listed.iter().filter(|f| !naming.contains(f)).collect();
    assert!(
        done.is_empty(),
        "these no longer name a game: strike them from STILL_SIEGE: {done:?}"
    );
}
