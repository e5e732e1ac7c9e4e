//! The AI Dark Legion (core AI-*) against random corporations in C1M1.

use citadel_bots::AiDarkLegion;
use citadel_bots::{Bot, RandomBot, Seen};
use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::ai_deck::AiCard;
use citadel_rules::game::{Command, DarkLegionSetup, FigureKind, Game, Place, Setup, Viewer};

fn game(seed: u64) -> Game {
    let setup = Setup::new(
        "ce-c1m1",
        &[Corporation::Bauhaus, Corporation::Imperial],
        DarkLegionSetup::Ai,
    )
    .with_seed(seed);
    let mut dice = SeededDice::new(seed);
    match Game::new(setup, &mut dice) {
        Ok((g, _)) => g,
        Err(e) => panic!("setup: {e}"),
    }
}

struct Outcome {
    commands: Vec<Command>,
    dl_won: bool,
    /// Sum and count of "DL figure to nearest DT" `dist` after DL turns.
    dist: (u64, u64),
}

/// Each on-board DL figure's `dist` to the nearest on-board DT.
fn dl_distances(g: &Game) -> Vec<u64> {
    let v = g.view(Viewer::Spectator);
    let on = |f: &citadel_rules::game::view::FigureView| match f.place {
        Place::Board { square } => Some(square),
        _ => None,
    };
    let dts: Vec<_> = v
        .figures
        .iter()
        .filter(|f| matches!(f.kind, FigureKind::Doomtrooper { .. }))
        .filter_map(on)
        .collect();
    v.figures
        .iter()
        .filter(|f| matches!(f.kind, FigureKind::Creature { .. }))
        .filter_map(on)
        .filter_map(|s| dts.iter().map(|d| d.dist(s) as u64).min())
        .collect()
}

/// Play one game; `ai` picks the DL bot. Every command must be legal.
fn play(seed: u64, ai: bool) -> Outcome {
    let mut g = game(seed);
    let mut dice = SeededDice::new(seed ^ 0x5eed);
    let dl = g.dark_legion_seat();
    let mut corps: Vec<RandomBot> = (0..8).map(|i| RandomBot::new(seed * 31 + i)).collect();
    let mut dl_bot: Box<dyn Bot> = if ai {
        Box::new(AiDarkLegion::new())
    } else {
        Box::new(RandomBot::new(seed * 31 + 99))
    };
    let mut commands = Vec::new();
    let mut dist = (0, 0);
    while !g.is_finished() {
        let seat = g.seat_to_act().expect("someone must act");
        let cmd = if seat == dl {
            dl_bot.choose(&Seen::of(&g, seat))
        } else {
            corps[usize::from(seat.0)].choose(&Seen::of(&g, seat))
        }
        .expect("a command");
        assert!(g.legal(seat).contains(&cmd), "seed {seed}: illegal {cmd:?}");
        if let Err(e) = g.apply(seat, cmd.clone(), &mut dice) {
            panic!("seed {seed}: {cmd:?} rejected: {e}");
        }
        if seat == dl && cmd == Command::EndTurn {
            for d in dl_distances(&g) {
                dist.0 += d;
                dist.1 += 1;
            }
        }
        commands.push(cmd);
        assert!(commands.len() < 100_000, "seed {seed}: game stuck");
    }
    let dl_won = g.outcome().is_some_and(|(_, dl, _)| dl);
    Outcome {
        commands,
        dl_won,
        dist,
    }
}

#[test]
fn ai_1_card_spot_checks() {
    let c = AiCard::new(53);
    assert_eq!(c.k, 53);
    assert_eq!(c.matrix, (7, 7));
}

#[test]
fn ai_dl_is_deterministic() {
    for seed in [1, 2, 3] {
        assert_eq!(play(seed, true).commands, play(seed, true).commands);
    }
}

#[test]
fn ai_dl_finishes_200_games_legally_wins_as_often_and_closes_in() {
    let n = 200u64;
    let (mut ai, mut random) = (0u32, 0u32);
    let (mut ai_d, mut random_d) = ((0u64, 0u64), (0u64, 0u64));
    for seed in 0..n {
        let a = play(1000 + seed, true);
        let r = play(1000 + seed, false);
        ai += u32::from(a.dl_won);
        random += u32::from(r.dl_won);
        ai_d = (ai_d.0 + a.dist.0, ai_d.1 + a.dist.1);
        random_d = (random_d.0 + r.dist.0, random_d.1 + r.dist.1);
    }
    let ai_rate = f64::from(ai) / n as f64;
    let random_rate = f64::from(random) / n as f64;
    let ai_mean = ai_d.0 as f64 / ai_d.1.max(1) as f64;
    let random_mean = random_d.0 as f64 / random_d.1.max(1) as f64;
    println!(
        "C1M1, {n} games vs random corporations: DL win rate AI {ai_rate:.3}, random {random_rate:.3}; \
         mean dist DL figure -> nearest DT after DL turns: AI {ai_mean:.2}, random {random_mean:.2}"
    );
    assert!(
        ai_rate + 0.05 >= random_rate,
        "AI DL {ai_rate} vs random DL {random_rate}"
    );
    assert!(
        ai_mean < random_mean,
        "AI DL should close in: {ai_mean} vs {random_mean}"
    );
}
