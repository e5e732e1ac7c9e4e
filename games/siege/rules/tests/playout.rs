//! Whole games with random legal bots.

use citadel_rules::content::Corporation;
use citadel_rules::game::{DarkLegionSetup, Setup};
use citadel_rules::sim::random_playout;

/// C1M1 with three corporations, the Dark Legion drawn.
fn c1m1_three_corporations() -> Setup {
    Setup::new(
        "ce-c1m1",
        &[
            Corporation::Bauhaus,
            Corporation::Capitol,
            Corporation::Mishima,
        ],
        DarkLegionSetup::Drawn,
    )
}

#[test]
fn trn_1_random_c1m1_games_finish_without_violations() {
    for seed in 0..20 {
        let setup = c1m1_three_corporations();
        let p = random_playout(setup, seed, 20_000, false).expect("setup");
        assert!(p.violations.is_empty(), "seed {seed}: {:?}", p.violations);
        assert!(
            p.finished,
            "seed {seed}: not finished after {} commands",
            p.commands
        );
    }
}

/// DTC-CE-3 by suspension: when a reaction window waits for its owner,
/// the game is exactly as it was before the command, plus the waiting
/// decision. The state from before is rebuilt from a checkpoint kept some
/// commands back (`game/reaction.rs`), so this follows random C1M1 games
/// (about one window in 200 commands) through windows opened long after
/// the checkpoint was taken, and compares every field but the decision
/// queue and the suspended command with a copy taken before the command.
#[test]
fn a_reaction_window_leaves_the_game_as_it_was_before_the_command() {
    use citadel_rules::dice::{Dice, SeededDice};
    use citadel_rules::game::{Event, Game};
    let without_waiting = |game: &Game| {
        let mut v = serde_json::to_value(game).expect("a game serializes");
        if let Some(map) = v.as_object_mut() {
            map.remove("pending");
            map.remove("suspended");
        }
        v
    };
    let mut windows = 0;
    for seed in 0..12 {
        let setup = c1m1_three_corporations().with_seed(seed);
        let mut dice = SeededDice::new(seed);
        let mut bot = SeededDice::new(seed ^ 0x5eed_b075);
        let (mut game, _) = Game::new(setup, &mut dice).expect("setup");
        let mut commands = 0;
        while !game.is_finished() && commands < 5_000 {
            let Some(seat) = game.seat_to_act() else {
                break;
            };
            let legal = game.legal(seat);
            let cmd = legal[bot.below(legal.len() as u32) as usize].clone();
            let before = without_waiting(&game);
            let events = game.apply(seat, cmd, &mut dice).expect("a listed command");
            if events
                .iter()
                .any(|e| matches!(e, Event::ReactionOffered { .. }))
            {
                windows += 1;
                let after = without_waiting(&game);
                let differ: Vec<&String> = after
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(k, v)| before.get(k.as_str()) != Some(*v))
                    .map(|(k, _)| k)
                    .collect();
                assert!(
                    differ.is_empty() && after == before,
                    "seed {seed}, command {commands}: changed {differ:?}"
                );
            }
            commands += 1;
        }
    }
    assert!(windows >= 10, "only {windows} windows opened");
}
