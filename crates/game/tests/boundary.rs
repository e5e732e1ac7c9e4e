//! The platform knows no game (issue 29): no crate under `crates/`
//! depends on a game's crate or names one in its sources (tests and
//! benches included), except `crates/citadel`, the binary that assembles
//! the catalogue. The games are the packages under `games/`.

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

/// The one crate under `crates/` that names the games: the binary that
/// assembles the catalogue (and holds the tests of the whole server).
const ASSEMBLER: &str = "citadel";

/// Every crate under `crates/` but the assembler: the platform and its
/// libraries, read from the tree so a new crate is covered at once.
fn platform_crates() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(crates_dir())
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().join("Cargo.toml").is_file())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|name| name != ASSEMBLER)
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn the_platform_crates_are_found() {
    let crates = platform_crates();
    for known in ["game", "protocol", "server", "store", "load", "search"] {
        assert!(crates.iter().any(|c| c == known), "{known} in {crates:?}");
    }
    assert!(
        crates_dir().join(ASSEMBLER).join("Cargo.toml").is_file(),
        "the assembler is there"
    );
}

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
fn no_platform_crate_depends_on_a_game() {
    for name in platform_crates() {
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
fn no_platform_source_names_a_game() {
    let root = crates_dir();
    let crates = game_crates();
    let mut naming = Vec::new();
    for name in platform_crates() {
        let mut files = Vec::new();
        for dir in ["src", "tests", "benches", "examples"] {
            rust_files(&root.join(&name).join(dir), &mut files);
        }
        assert!(!files.is_empty(), "{name} has sources");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            if let Some(game) = crates.iter().find(|c| text.contains(c.as_str())) {
                let rel = file
                    .strip_prefix(&root)
                    .map(|p| p.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default();
                naming.push(format!("{rel} ({game})"));
            }
        }
    }
    assert!(
        naming.is_empty(),
        "platform sources that name a game: {naming:?}; go through the seam (crates/game)"
    );
}
