//! `cargo run --release -p citadel-neuroshima --example neuroshima-sim [games]`:
//! seeded random playouts of every pairing (10,000 each by default),
//! checking the invariants after every command. Exits non-zero on the
//! first broken invariant.

use citadel_neuroshima::sim::playout;
use citadel_neuroshima::{InfinityCombo, Options};
use std::time::Instant;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    let mut failed = false;
    for (a, b) in [("ddm", "ddm"), ("ddm", "moloch"), ("moloch", "moloch")] {
        for combo in [InfinityCombo::Capped, InfinityCombo::Unbounded] {
            let options = Options {
                infinity_combo: combo,
                ..Options::default()
            };
            let start = Instant::now();
            let mut wins = [0u64; 3];
            let mut commands = 0usize;
            let mut battles = 0usize;
            for seed in 0..games {
                match playout(a, b, options, seed, true) {
                    Ok(p) => {
                        wins[p.winner.map_or(2, usize::from)] += 1;
                        commands += p.commands;
                        battles += p.battles;
                    }
                    Err(e) => {
                        eprintln!("{a}-{b} {combo:?}: {e}");
                        failed = true;
                        break;
                    }
                }
            }
            println!(
                "{a}-{b} {combo:?}: {games} games in {:.1}s, seat0/seat1/draw wins {wins:?}, {commands} commands, {battles} battles",
                start.elapsed().as_secs_f64()
            );
        }
    }
    if failed {
        std::process::exit(1);
    }
}
