//! cargo-fuzz target `game_apply`: see `citadel_rules::fuzzing::apply_from_bytes` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(broken) = citadel_rules::fuzzing::apply_from_bytes(data) {
        panic!("{broken}");
    }
});
