//! The search bot against the heuristic bot over seeded games:
//!
//! ```text
//! cargo run --release -p citadel-neuroshima --example search-report -- \
//!     games=200 ms=1000            # 1 s of thinking per decision
//! cargo run --release -p citadel-neuroshima --example search-report -- \
//!     games=40 playouts=2000       # a fixed playout budget
//! ```
//!
//! Optional: `first=N` (first seed), `horizon=H`, `c=C` (exploration),
//! `widen=K,A` (progressive widening below the root),
//! `opponent=random` (the search bot against `RandomBot` instead),
//! `prior=off` (UCT everywhere, as before the prior), `pc=C` (PUCT's
//! exploration), `after=N` (visits before a node below the root asks
//! the prior), `temp=T` (the prior's temperature).
//! Pairings ddm–ddm, ddm–moloch, moloch–ddm, moloch–moloch in turn, the
//! search bot's seat alternating every four games (as the heuristic
//! bot's test). Prints one line per game and the totals, with the search's
//! playouts per second.

use citadel_game::{Bot, RandomBot};
use citadel_neuroshima::search::search_config;
use citadel_neuroshima::sim::duel;
use citadel_neuroshima::{HeuristicBot, NeuroshimaGame, NeuroshimaPolicy};
use citadel_search::{Budget, SearchBot};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    let mut games = 200u64;
    let mut first = 0u64;
    let mut budget = Budget::Time(Duration::from_secs(1));
    let mut horizon = None;
    let mut exploration = None;
    let mut random = false;
    let mut widening = None;
    let mut policy = NeuroshimaPolicy::default();
    let mut prior_c = None;
    let mut prior_after = None;
    let mut prior_off = false;
    for arg in std::env::args().skip(1) {
        let (k, v) = arg.split_once('=').unwrap_or((arg.as_str(), ""));
        let float = |v: &str| -> f64 {
            v.parse().unwrap_or_else(|_| {
                eprintln!("`{arg}`: a number expected");
                std::process::exit(2)
            })
        };
        let num = |v: &str| -> u64 {
            v.parse().unwrap_or_else(|_| {
                eprintln!("`{arg}`: a number expected");
                std::process::exit(2)
            })
        };
        match k {
            "games" => games = num(v),
            "first" => first = num(v),
            "ms" => budget = Budget::Time(Duration::from_millis(num(v))),
            "playouts" => budget = Budget::Playouts(num(v).min(u64::from(u32::MAX)) as u32),
            "horizon" => horizon = Some(num(v).min(u64::from(u32::MAX)) as u32),
            "c" => {
                exploration = Some(v.parse::<f64>().unwrap_or_else(|_| {
                    eprintln!("`{arg}`: a number expected");
                    std::process::exit(2)
                }))
            }
            "opponent" => random = v == "random",
            "prior" => prior_off = v == "off",
            "pc" => prior_c = Some(float(v)),
            "temp" => policy.temperature = float(v),
            "after" => prior_after = Some(num(v).min(u64::from(u32::MAX)) as u32),
            "widen" => {
                let (k, a) = v.split_once(',').unwrap_or((v, "0.5"));
                match (k.parse::<f64>(), a.parse::<f64>()) {
                    (Ok(k), Ok(a)) => widening = Some((k, a)),
                    _ => {
                        eprintln!("`{arg}`: widen=K,A expected");
                        std::process::exit(2)
                    }
                }
            }
            _ => {
                eprintln!("unknown argument `{arg}`");
                std::process::exit(2);
            }
        }
    }
    let mut config = search_config(budget);
    if let Some(h) = horizon {
        config.horizon = Some(h);
    }
    if let Some(c) = exploration {
        config.exploration = c;
    }
    if widening.is_some() {
        config.widening = widening;
    }
    if let Some(prior) = config.prior.as_mut() {
        if let Some(c) = prior_c {
            prior.exploration = c;
        }
        if let Some(a) = prior_after {
            prior.after = a;
        }
    }
    if prior_off {
        config.prior = None;
    }
    println!(
        "search {config:?} {policy:?} against {}",
        if random { "random" } else { "heuristic" }
    );
    let pairings = [
        ("ddm", "ddm"),
        ("ddm", "moloch"),
        ("moloch", "ddm"),
        ("moloch", "moloch"),
    ];
    let start = Instant::now();
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    let (mut playouts, mut searches, mut elapsed) = (0u64, 0u64, Duration::ZERO);
    for seed in first..first + games {
        let (a, b) = pairings[(seed % 4) as usize];
        let seat = ((seed / 4) % 2) as u8;
        let mut search: SearchBot<NeuroshimaGame> =
            SearchBot::new(config.clone(), Arc::new(policy), seed ^ 0x5ea2c4);
        let mut other: Box<dyn Bot<NeuroshimaGame>> = if random {
            Box::new(RandomBot::new(seed))
        } else {
            Box::new(HeuristicBot::new())
        };
        let result = if seat == 0 {
            duel(a, b, [&mut search, other.as_mut()], seed)
        } else {
            duel(a, b, [other.as_mut(), &mut search], seed)
        };
        let verdict = match result {
            Ok(Some(w)) if w == seat => {
                wins += 1;
                "win"
            }
            Ok(Some(_)) => {
                losses += 1;
                "loss"
            }
            Ok(None) => {
                draws += 1;
                "draw"
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        let t = search.totals();
        playouts += t.playouts;
        searches += t.searches;
        elapsed += t.elapsed;
        println!(
            "seed {seed} {a}-{b} search on seat {seat}: {verdict} ({} searches, {:.0} playouts/s)",
            t.searches,
            t.playouts_per_second()
        );
    }
    let n = wins + draws + losses;
    println!(
        "{n} games: {wins} wins, {draws} draws, {losses} losses: win rate {:.1}% \
         ({searches} searches, {playouts} playouts, {:.0} playouts/s, {:.1}s in all)",
        100.0 * wins as f64 / n.max(1) as f64,
        playouts as f64 / elapsed.as_secs_f64().max(1e-9),
        start.elapsed().as_secs_f64()
    );
}
