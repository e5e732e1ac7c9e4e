//! Win rates of bot pairings over seeded games (2 corporations), one table
//! per mission.
//!
//! `citadel-bots-report [--mission ID|all] --games N --seed S [--max-commands M]`

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
        println!("citadel-bots-report [--mission ID|all] --games N --seed S [--max-commands M]");
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
    let mission = match args.iter().position(|a| a == "--mission") {
        None => "ce-c1m1".to_string(),
        Some(i) => match args.get(i + 1) {
            Some(m) => m.clone(),
            None => {
                eprintln!("error: --mission needs a value");
                return ExitCode::from(2);
            }
        },
    };
    let missions: Vec<String> = if mission == "all" {
        match citadel_rules::Content::embedded() {
            Ok(c) => citadel_rules::game::playable::playable_missions(c)
                .into_iter()
                .map(String::from)
                .collect(),
            Err(e) => {
                eprintln!("error: content: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        vec![mission]
    };
    let mut lines = Vec::new();
    for mission in &missions {
        if let Err(e) = report(mission, games, seed, max, &mut lines) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    for l in lines {
        println!("{l}");
    }
    ExitCode::SUCCESS
}

/// Print the table of `mission` and push its machine-readable lines.
fn report(
    mission: &str,
    games: u64,
    seed: u64,
    max: u64,
    lines: &mut Vec<String>,
) -> Result<(), String> {
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
    println!();
    println!("{mission}, 2 corporations, {games} games per pairing, seeds {seed}..");
    println!(
        "| corporations | dark legion | corp win | DL win | mission success | mean commands | unfinished |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (c, d, cb, db) in pairings {
        let t = tally(mission, cb, db, seed, games, max as usize)
            .map_err(|e| format!("{mission}: {c} vs {d}: {e}"))?;
        println!(
            "| {c} | {d} | {:.1}% | {:.1}% | {:.1}% | {:.0} | {} |",
            100.0 * t.corp_rate(),
            100.0 * t.dl_rate(),
            100.0 * t.success_rate(),
            t.mean_commands(),
            t.unfinished
        );
        lines.push(format!(
            "RESULT mission={mission} corps={c} dl={d} games={} corp_win={:.4} dl_win={:.4} success={:.4} mean_commands={:.1} unfinished={}",
            t.games,
            t.corp_rate(),
            t.dl_rate(),
            t.success_rate(),
            t.mean_commands(),
            t.unfinished
        ));
    }
    Ok(())
}
