//! Every input the cargo-fuzz target `client_session` was seeded with
//! (fuzz/seeds/) or ever crashed on (fuzz/regressions/), replayed on every
//! test run. docs/FUZZING.md says how to add a crash here.

use citadel_server::fuzzing::session_from_bytes;
use std::path::Path;

#[test]
fn client_session_inputs_keep_every_invariant() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut seen = 0;
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join("client_session")) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()).filter(|p| p.is_file()) {
            let data = std::fs::read(&path).expect("readable input");
            if let Err(broken) = session_from_bytes(
                citadel::catalogue(),
                &citadel_rules::fuzzing::two_player_table(),
                &data,
            ) {
                panic!("{}: {broken}", path.display());
            }
            seen += 1;
        }
    }
    assert!(seen > 0, "no client_session inputs");
}
