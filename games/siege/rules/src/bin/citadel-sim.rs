//! `citadel-sim`: plays seeded games with random legal bots on every seat.
//!
//! One machine-readable line per mission:
//! `mission=M games=N commands=C invariant_violations=V stuck=S corp_wins=A dl_wins=B ms_per_game=T`.
//! `--mission all` plays every playable mission (`game::playable`).
//! Exits non-zero if any invariant breaks or a game gets stuck.

use anyhow::{bail, Context, Result};
use citadel_rules::content::Corporation;
use citadel_rules::game::{DarkLegionSetup, Setup};
use citadel_rules::sim::{random_playout_with, winners};
use clap::Parser;
use std::time::Instant;

/// The allocator the server runs the engine with (crates/citadel/src/main.rs),
/// so `ms_per_game` is what the server would spend.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Play seeded random games headless.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// Mission id (`ce-c1m1`), or `all` for every playable mission.
    #[arg(long, default_value = "ce-c1m1")]
    mission: String,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Corporation players (1-4).
    #[arg(long, default_value_t = 2)]
    corporations: usize,
    /// Let the Dark Legion be a seat drawn at random (default) or the AI seat.
    #[arg(long)]
    ai_dark_legion: bool,
    /// Print the first game as a readable log.
    #[arg(long)]
    log: bool,
    /// Give up on a game after this many commands (it counts as stuck).
    #[arg(long, default_value_t = 50_000)]
    max_commands: usize,
    /// Play from `game::playable::relaxed` content: event cards the engine
    /// does not build yet leave the decks and secondary missions are off,
    /// so a mission waiting on one card can be exercised. Never a real
    /// game; `all` then means every mission playable that way.
    #[arg(long)]
    relaxed: bool,
}

fn main() -> Result<()> {
    let args = Args::parse();
    if !(1..=4).contains(&args.corporations) {
        bail!("--corporations must be 1-4");
    }
    let (corps, dl) = if args.ai_dark_legion {
        (&Corporation::ALL[..args.corporations], DarkLegionSetup::Ai)
    } else {
        // One more seat: the player drawn as the Dark Legion (SET-2).
        (
            &Corporation::ALL[..args.corporations + 1],
            DarkLegionSetup::Drawn,
        )
    };
    let embedded = citadel_rules::Content::embedded()?;
    let content = if args.relaxed {
        Box::leak(Box::new(citadel_rules::game::playable::relaxed(embedded)))
    } else {
        embedded
    };
    let missions: Vec<String> = if args.mission == "all" {
        citadel_rules::game::playable::playable_missions(content)
            .into_iter()
            .map(String::from)
            .collect()
    } else {
        vec![args.mission.clone()]
    };
    let (mut violations, mut stuck) = (0, 0);
    for mission in &missions {
        let totals = play_mission(&args, content, mission, corps, dl)?;
        violations += totals.0;
        stuck += totals.1;
    }
    if violations > 0 || stuck > 0 {
        bail!("{violations} invariant violations, {stuck} stuck games");
    }
    Ok(())
}

/// Play `args.games` games of `mission`, print its line, and return its
/// invariant violations and stuck games.
fn play_mission(
    args: &Args,
    content: &citadel_rules::Content,
    mission: &str,
    corps: &[Corporation],
    dl: DarkLegionSetup,
) -> Result<(usize, usize)> {
    let start = Instant::now();
    let (mut commands, mut violations, mut corp_wins, mut dl_wins, mut stuck) = (0, 0, 0, 0, 0);
    for i in 0..args.games {
        let setup = Setup::new(mission, corps, dl);
        let keep_log = args.log && i == 0;
        let p = random_playout_with(content, setup, args.seed + i, args.max_commands, keep_log)
            .with_context(|| format!("mission {mission}"))?;
        if keep_log {
            for (seat, cmd, events) in &p.log {
                println!("seat {} > {}", seat.0, serde_json::to_string(cmd)?);
                for e in events {
                    println!("    {}", serde_json::to_string(e)?);
                }
            }
        }
        commands += p.commands;
        violations += p.violations.len();
        for v in &p.violations {
            eprintln!("game seed {}: {v}", args.seed + i);
        }
        if !p.finished {
            stuck += 1;
            eprintln!(
                "game seed {}: stuck after {} commands",
                args.seed + i,
                p.commands
            );
        }
        let all: Vec<_> = p.log.iter().flat_map(|(_, _, e)| e.clone()).collect();
        let outcome = if keep_log {
            winners(&all)
        } else {
            p.game.outcome()
        };
        if let Some((corp, dl, _)) = outcome {
            corp_wins += usize::from(corp);
            dl_wins += usize::from(dl);
        }
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0 / args.games.max(1) as f64;
    println!(
        "mission={mission} games={} commands={commands} invariant_violations={violations} stuck={stuck} corp_wins={corp_wins} dl_wins={dl_wins} ms_per_game={ms:.3}",
        args.games
    );
    Ok((violations, stuck))
}
