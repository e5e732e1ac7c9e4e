//! The AI Dark Legion (core AI-*) against random corporations in C1M1.

use citadel_bots::ai_dark_legion::{AiCard, AiDarkLegion};
use citadel_bots::{Bot, RandomBot};
use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::{Command, DarkLegionSetup, Game, Setup};

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
}

/// Play one game; `ai` picks the DL bot. Every command must be legal.
fn play(seed: u64, ai: bool) -> Outcome {
    let mut g = game(seed);
    let mut dice = SeededDice::new(seed ^ 0x5eed);
    let dl = g.dark_legion_seat();
    let mut corps: Vec<RandomBot> = (0..8).map(|i| RandomBot::new(seed * 31 + i)).collect();
    let mut dl_bot: Box<dyn Bot> = if ai {
        Box::new(AiDarkLegion::for_game(&g))
    } else {
        Box::new(RandomBot::new(seed * 31 + 99))
    };
    let mut commands = Vec::new();
    while !g.is_finished() {
        let seat = g.seat_to_act().expect("someone must act");
        let cmd = if seat == dl {
            dl_bot.choose(&g, seat)
        } else {
            corps[usize::from(seat.0)].choose(&g, seat)
        }
        .expect("a command");
        assert!(
            g.legal(seat).contains(&cmd),
            "seed {seed}: illegal {cmd:?}"
        );
        if let Err(e) = g.apply(seat, cmd.clone(), &mut dice) {
            panic!("seed {seed}: {cmd:?} rejected: {e}");
        }
        commands.push(cmd);
        assert!(commands.len() < 100_000, "seed {seed}: game stuck");
    }
    let dl_won = g.outcome().is_some_and(|(_, dl, _)| dl);
    Outcome { commands, dl_won }
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
fn ai_dl_finishes_200_games_legally_and_wins_at_least_as_often_as_random() {
    let n = 200u64;
    let mut ai = 0;
    let mut random = 0;
    for seed in 0..n {
        ai += u32::from(play(1000 + seed, true).dl_won);
        random += u32::from(play(1000 + seed, false).dl_won);
    }
    let ai_rate = f64::from(ai) / n as f64;
    let random_rate = f64::from(random) / n as f64;
    println!("DL win rate over {n} C1M1 games vs random corporations: AI {ai_rate:.3}, random {random_rate:.3}");
    assert!(
        ai_rate + 0.05 >= random_rate,
        "AI DL {ai_rate} vs random DL {random_rate}"
    );
}
