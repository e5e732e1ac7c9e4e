//! # citadel-bots
//!
//! Anything that can fill a seat without a person: empty seats, players
//! who left, turn timeouts, tests and the load tool. A bot only ever picks
//! from [`Game::legal`], so it can never break a rule.

pub mod ai_dark_legion;
pub mod heuristic;
pub mod matchup;
pub mod nav;

pub use ai_dark_legion::AiDarkLegion;
use citadel_rules::dice::{Dice, SeededDice};
use citadel_rules::game::{Command, Game, Seat};
pub use heuristic::{HeuristicCorporation, HeuristicDarkLegion};
use std::fmt;

/// A seat's automatic player.
pub trait Bot: fmt::Debug + Send {
    /// The command to send for `seat` now, or `None` if it has none.
    fn choose(&mut self, game: &Game, seat: Seat) -> Option<Command>;
}

/// Picks uniformly among the legal commands, from its own seeded
/// generator, so a game with random bots replays exactly.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: SeededDice,
}

impl RandomBot {
    /// A bot whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: SeededDice::new(seed),
        }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, game: &Game, seat: Seat) -> Option<Command> {
        let legal = game.legal(seat);
        if legal.is_empty() {
            return None;
        }
        let i = self.rng.below(legal.len() as u32) as usize;
        legal.into_iter().nth(i)
    }
}

/// The default answer when a player runs out of time (core CONV-8, TRN-11):
/// end the turn if possible, otherwise the first legal option (lowest id,
/// lowest square), which declines every "may". Revealing an AI card is not
/// an answer, so it is never the default.
pub fn timeout_default(game: &Game, seat: Seat) -> Option<Command> {
    let legal = game.legal(seat);
    if legal.contains(&Command::EndTurn) {
        return Some(Command::EndTurn);
    }
    if legal.contains(&Command::PassEquipment) {
        return Some(Command::PassEquipment);
    }
    legal.into_iter().find(|c| *c != Command::RevealAiCard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use citadel_rules::content::Corporation;
    use citadel_rules::game::{DarkLegionSetup, Setup};

    fn game() -> Game {
        let setup = Setup::new(
            "ce-c1m1",
            &[Corporation::Bauhaus, Corporation::Imperial],
            DarkLegionSetup::Ai,
        );
        let mut dice = SeededDice::new(3);
        match Game::new(setup, &mut dice) {
            Ok((g, _)) => g,
            Err(e) => panic!("setup: {e}"),
        }
    }

    #[test]
    fn random_bots_finish_a_game_with_only_legal_commands() {
        let mut g = game();
        let mut dice = SeededDice::new(4);
        let mut bots: Vec<RandomBot> = (0..3).map(RandomBot::new).collect();
        let mut n = 0;
        while !g.is_finished() {
            let seat = g.seat_to_act().expect("someone must act");
            let cmd = bots[usize::from(seat.0)]
                .choose(&g, seat)
                .expect("a legal command");
            assert!(g.apply(seat, cmd, &mut dice).is_ok());
            n += 1;
            assert!(n < 50_000, "game did not finish");
        }
    }

    #[test]
    fn same_seed_same_choices() {
        let g = game();
        let seat = g.seat_to_act().expect("seat");
        let a: Vec<_> = {
            let mut b = RandomBot::new(9);
            (0..5).map(|_| b.choose(&g, seat)).collect()
        };
        let mut b = RandomBot::new(9);
        let again: Vec<_> = (0..5).map(|_| b.choose(&g, seat)).collect();
        assert_eq!(a, again);
    }

    #[test]
    fn conv_8_timeout_passes_the_draft_and_ends_turns() {
        let g = game();
        let seat = g.seat_to_act().expect("seat");
        assert_eq!(timeout_default(&g, seat), Some(Command::PassEquipment));
    }
}
