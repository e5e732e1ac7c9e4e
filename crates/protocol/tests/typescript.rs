//! `web-client/protocol.ts` must be what `citadel_protocol::typescript()`
//! renders now. `CITADEL_UPDATE_TS=1` rewrites it instead of failing.

use std::path::PathBuf;

#[test]
fn protocol_ts_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web-client/protocol.ts");
    let fresh = citadel_protocol::typescript();
    if std::env::var_os("CITADEL_UPDATE_TS").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::create_dir_all(path.parent().expect("web-client/")).expect("mkdir web-client");
        std::fs::write(&path, &fresh).expect("write web-client/protocol.ts");
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    if on_disk != fresh {
        let line = on_disk
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| on_disk.lines().count().min(fresh.lines().count()))
            + 1;
        panic!(
            "web-client/protocol.ts is stale (first difference at line {line}); \
             run `CITADEL_UPDATE_TS=1 cargo test -p citadel-protocol --test typescript` to update"
        );
    }
}

/// `web-client/protocol.js` (the constants the browser imports) must be
/// what `citadel_protocol::javascript()` renders now.
#[test]
fn protocol_js_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web-client/protocol.js");
    let fresh = citadel_protocol::javascript();
    if std::env::var_os("CITADEL_UPDATE_TS").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(&path, &fresh).expect("write web-client/protocol.js");
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == fresh,
        "web-client/protocol.js is stale; run `CITADEL_UPDATE_TS=1 cargo test -p citadel-protocol --test typescript` to update"
    );
}
