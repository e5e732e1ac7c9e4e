//! Seeded random playouts of every pairing: no stuck game, tiles
//! conserved, HQ HP in range, every game ends (the `neuroshima-sim`
//! example runs 10,000 per pairing).

use citadel_neuroshima::sim::playout;
use citadel_neuroshima::Options;

fn pairing(a: &str, b: &str, games: u64) {
    let mut battles = 0;
    let mut wins = [0usize; 3];
    for seed in 0..games {
        let p = playout(a, b, Options::default(), seed, true)
            .unwrap_or_else(|e| panic!("{a}-{b}: {e}"));
        battles += p.battles;
        wins[p.winner.map_or(2, usize::from)] += 1;
    }
    eprintln!("{a}-{b}: {games} games, {battles} battles, wins {wins:?}");
    assert!(battles as u64 >= games, "battles happen");
}

#[test]
fn nsh_end_3_random_playouts_ddm_ddm_end_and_keep_invariants() {
    pairing("ddm", "ddm", 200);
}

#[test]
fn nsh_end_3_random_playouts_ddm_moloch_end_and_keep_invariants() {
    pairing("ddm", "moloch", 200);
}

#[test]
fn nsh_end_3_random_playouts_moloch_moloch_end_and_keep_invariants() {
    pairing("moloch", "moloch", 200);
}
