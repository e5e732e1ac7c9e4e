//! Determinism: the same setup, seed and commands give the same game, and
//! the state's checksum is pinned (a change here means a stored game may
//! replay differently: bump `ENGINE_VERSION`).

use citadel_game::{Game, RandomBot, SeededDice, Seen};
use citadel_neuroshima::{NeuroshimaGame, Options};

fn play(seed: u64) -> (String, usize) {
    let setup = NeuroshimaGame::setup(
        &Options::default(),
        &[Some("ddm".into()), Some("moloch".into())],
        seed,
    )
    .expect("setup");
    let mut dice = SeededDice::new(seed);
    let (mut g, _) = NeuroshimaGame::start(&setup, &mut dice).expect("start");
    let mut bot = RandomBot::new(seed);
    let mut n = 0;
    while !g.is_finished() {
        let seat = g.to_act()[0];
        let c = citadel_game::Bot::<NeuroshimaGame>::choose(&mut bot, &Seen::of(&g, seat))
            .expect("a command");
        g.apply(seat, c, &mut dice).expect("legal");
        n += 1;
    }
    (g.checksum(), n)
}

#[test]
fn nsh_hid_5_same_seed_same_game_same_checksum() {
    assert_eq!(play(42), play(42));
    assert_ne!(play(42).0, play(43).0);
}

#[test]
fn golden_checksum_is_pinned() {
    let (sum, n) = play(42);
    assert_eq!((sum.as_str(), n), ("36879d51114d01a5622a553d5804f06f", 104));
}
