//! cargo-fuzz target `client_session`: see `citadel_server::fuzzing::session_from_bytes` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(broken) = citadel_server::fuzzing::session_from_bytes(data) {
        panic!("{broken}");
    }
});
