//! The heuristic bot beats `RandomBot` in at least 90% of 200 seeded
//! games (both seats, all pairings); the measured rate is in
//! docs/neuroshima/BOTS.md.

use citadel_neuroshima::sim::bot_game;

#[test]
fn nsh_hid_4_heuristic_bot_beats_random_in_90_percent() {
    let pairings = [
        ("ddm", "ddm"),
        ("ddm", "moloch"),
        ("moloch", "ddm"),
        ("moloch", "moloch"),
    ];
    let mut wins = 0;
    for seed in 0..200u64 {
        let (a, b) = pairings[(seed % 4) as usize];
        let seat = ((seed / 4) % 2) as u8;
        if bot_game(a, b, seat, seed).expect("a sound game") == Some(seat) {
            wins += 1;
        }
    }
    eprintln!("heuristic bot: {wins}/200");
    assert!(wins >= 180, "{wins}/200");
}
