//! `web-client/protocol.ts` must be what `citadel_protocol::typescript()`
//! renders now. `CITADEL_UPDATE_TS=1` rewrites it instead of failing.

use citadel_protocol::check_generated;
use std::path::PathBuf;

const UPDATE: &str = "cargo test -p citadel-protocol --test typescript";

fn web_client(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../web-client")
        .join(file)
}

#[test]
fn protocol_ts_is_current() {
    check_generated(
        &web_client("protocol.ts"),
        &citadel_protocol::typescript(),
        UPDATE,
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

/// `web-client/protocol.js` (the constants the browser imports) must be
/// what `citadel_protocol::javascript()` renders now.
#[test]
fn protocol_js_is_current() {
    check_generated(
        &web_client("protocol.js"),
        &citadel_protocol::javascript(),
        UPDATE,
    )
    .unwrap_or_else(|e| panic!("{e}"));
}
