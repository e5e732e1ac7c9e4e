//! Every input the cargo-fuzz targets `game_apply` and `content_loader`
//! were seeded with (fuzz/seeds/) or ever crashed on (fuzz/regressions/),
//! replayed through the same checks on every test run. docs/FUZZING.md
//! says how to add a crash here.

use citadel_rules::fuzzing::{apply_from_bytes, content_from_bytes};
use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../fuzz");
    let mut files = Vec::new();
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        files.extend(entries.flatten().map(|e| e.path()).filter(|p| p.is_file()));
    }
    files.sort();
    assert!(!files.is_empty(), "no inputs for {target}");
    files
}

fn replay(target: &str, check: fn(&[u8]) -> Result<(), String>) {
    for path in inputs(target) {
        let data = std::fs::read(&path).expect("readable input");
        if let Err(broken) = check(&data) {
            panic!("{}: {broken}", path.display());
        }
    }
}

#[test]
fn game_apply_inputs_keep_every_invariant() {
    replay("game_apply", apply_from_bytes);
}

#[test]
fn content_loader_inputs_are_answered_with_an_error_naming_a_file() {
    replay("content_loader", content_from_bytes);
}
