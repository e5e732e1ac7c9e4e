//! `web-client/http.ts` must be what `citadel_server::http_ts::typescript()`
//! renders now. `CITADEL_UPDATE_TS=1` rewrites it instead of failing.
//! (The `ts` feature is on in every test build: the crate's
//! dev-dependency on itself turns it on.)

use std::path::PathBuf;

#[test]
fn http_ts_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web-client/http.ts");
    let fresh = citadel_server::http_ts::typescript();
    if std::env::var_os("CITADEL_UPDATE_TS").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(&path, &fresh).expect("write web-client/http.ts");
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
            "web-client/http.ts is stale (first difference at line {line}); \
             run `CITADEL_UPDATE_TS=1 cargo test -p citadel-server --test http_typescript` to update"
        );
    }
}
