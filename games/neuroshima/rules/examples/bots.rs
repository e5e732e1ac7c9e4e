//! `cargo run --release -p citadel-neuroshima --example bots [games]`: the
//! heuristic bot against `RandomBot` over seeded games (200 by default),
//! the bot's seat and the pairing alternating; prints the win rate.

use citadel_neuroshima::sim::bot_game;
use std::time::Instant;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let pairings = [
        ("ddm", "ddm"),
        ("ddm", "moloch"),
        ("moloch", "ddm"),
        ("moloch", "moloch"),
    ];
    let start = Instant::now();
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    for seed in 0..games {
        let (a, b) = pairings[(seed % 4) as usize];
        let seat = ((seed / 4) % 2) as u8;
        match bot_game(a, b, seat, seed) {
            Ok(Some(w)) if w == seat => wins += 1,
            Ok(Some(_)) => losses += 1,
            Ok(None) => draws += 1,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    println!(
        "heuristic vs random: {games} games, {wins} wins, {draws} draws, {losses} losses: win rate {:.1}% ({:.1}s)",
        100.0 * wins as f64 / games as f64,
        start.elapsed().as_secs_f64()
    );
}
