//! cargo-fuzz target `client_session`: see `citadel_server::fuzzing::session_from_bytes` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let table = citadel_rules::fuzzing::two_player_table();
    if let Err(broken) = citadel_server::fuzzing::session_from_bytes(citadel::catalogue(), &table, data) {
        panic!("{broken}");
    }
});
