//! Win rates of bot pairings over seeded C1M1 games (2 corporations).
//!
//! `citadel-bots-report --games N --seed S [--max-commands M]`

use citadel_bots::matchup::{tally, CorpBots, DlBot};
use std::process::ExitCode;

fn arg(args: &[String], name: &str, default: u64) -> Result<u64, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args
            .get(i + 1)
            .ok_or(format!("{name} needs a value"))?
            .parse()
            .map_err(|e| format!("{name}: {e}")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("citadel-bots-report --games N --seed S [--max-commands M]");
        return ExitCode::SUCCESS;
    }
    let parsed = (|| -> Result<(u64, u64, u64), String> {
        Ok((
            arg(&args, "--games", 100)?,
            arg(&args, "--seed", 1)?,
            arg(&args, "--max-commands", 20_000)?,
        ))
    })();
    let (games, seed, max) = match parsed {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let pairings = [
        ("random", "random", CorpBots::Random, DlBot::Random),
        ("heuristic", "random", CorpBots::Heuristic, DlBot::Random),
        ("heuristic", "ai", CorpBots::Heuristic, DlBot::Ai),
        (
            "heuristic",
            "heuristic",
            CorpBots::Heuristic,
            DlBot::Heuristic,
        ),
    ];
    println!("C1M1, 2 corporations, {games} games per pairing, seeds {seed}..");
    println!(
        "| corporations | dark legion | corp win | DL win | mission success | mean commands | unfinished |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut lines = Vec::new();
    for (c, d, cb, db) in pairings {
        let t = match tally(cb, db, seed, games, max as usize) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {c} vs {d}: {e}");
                return ExitCode::FAILURE;
            }
        };
        println!(
            "| {c} | {d} | {:.1}% | {:.1}% | {:.1}% | {:.0} | {} |",
            100.0 * t.corp_rate(),
            100.0 * t.dl_rate(),
            100.0 * t.success_rate(),
            t.mean_commands(),
            t.unfinished
        );
        lines.push(format!(
            "RESULT corps={c} dl={d} games={} corp_win={:.4} dl_win={:.4} success={:.4} mean_commands={:.1} unfinished={}",
            t.games,
            t.corp_rate(),
            t.dl_rate(),
            t.success_rate(),
            t.mean_commands(),
            t.unfinished
        ));
    }
    for l in lines {
        println!("{l}");
    }
    ExitCode::SUCCESS
}
