//! Seeded random playouts of one mission, the workload of the
//! `playout_*_random` benchmarks (`benches/rules.rs`), played once each and
//! timed: the per-command number of the speed race (docs/BENCHMARKS.md).
//!
//! ```text
//! cargo run --release -p citadel-rules --features sim --example playouts -- classic-m1 16 20
//! valgrind --tool=callgrind target/release/examples/playouts classic-m1 16 1
//! ```
//!
//! Arguments: mission (default `classic-m1`), games (seeds 0..games,
//! default 16), rounds over them (default 20; the fastest is reported,
//! since on a shared machine the others measure the neighbours). Under
//! callgrind, one round gives an instruction count that does not move
//! with the machine's load: compare two commits by it when timings are
//! too noisy to tell.

use citadel_rules::content::Corporation;
use citadel_rules::dice::{Dice, SeededDice};
use citadel_rules::game::{DarkLegionSetup, Game, Setup};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The server's allocator, as in the benchmarks.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mission = args.next().unwrap_or_else(|| "classic-m1".to_string());
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(16);
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let content = match citadel_rules::Content::embedded() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("content: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut best = Duration::MAX;
    let mut commands = 0;
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        commands = 0;
        for seed in 0..games {
            match playout(content, &mission, seed) {
                Ok(n) => commands += n,
                Err(e) => {
                    eprintln!("{mission} seed {seed}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        best = best.min(start.elapsed());
    }
    let per_game = best.as_secs_f64() * 1e3 / games.max(1) as f64;
    let per_command = best.as_secs_f64() * 1e6 / commands.max(1) as f64;
    println!(
        "{mission}: {games} games, {commands} commands; fastest of {rounds} rounds: {per_game:.3} ms per game, {per_command:.2} µs per command"
    );
    ExitCode::SUCCESS
}

/// One random legal playout, as `playout` in `benches/rules.rs`: 3
/// corporations, the Dark Legion drawn, a seeded random bot.
fn playout(content: &citadel_rules::Content, mission: &str, seed: u64) -> Result<usize, String> {
    let setup = Setup::new(
        mission,
        &[
            Corporation::Bauhaus,
            Corporation::Capitol,
            Corporation::Mishima,
        ],
        DarkLegionSetup::Drawn,
    )
    .with_seed(seed);
    let mut dice = SeededDice::new(seed);
    let mut bot = SeededDice::new(seed ^ 0x5eed_b075);
    let (mut game, _) = Game::with_content(setup, content, &mut dice).map_err(|e| e.to_string())?;
    let mut n = 0;
    while !game.is_finished() && n < 20_000 {
        let Some(seat) = game.seat_to_act() else {
            break;
        };
        let legal = game.legal(seat);
        let Some(cmd) = legal.get(bot.below(legal.len() as u32) as usize).cloned() else {
            return Err(format!("no legal command for seat {seat:?}"));
        };
        game.apply(seat, cmd, &mut dice)
            .map_err(|r| format!("a listed command was refused: {r:?}"))?;
        n += 1;
    }
    Ok(n)
}
