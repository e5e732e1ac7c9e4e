//! # citadel-bots
//!
//! Anything that can fill a seat without a person: empty seats, players
//! who left, turn timeouts, tests and the load tool. A bot only ever picks
//! from its seat's legal commands, so it can never break a rule.
//!
//! A bot sees what its seat sees and nothing more: [`Seen`] holds the
//! seat's view (`Game::view(Viewer::Seat(..))`, which for the AI Dark
//! Legion includes the public state of its AI deck), the seat's legal
//! commands and the game's static rules (mission, board, tables), never
//! the game itself. Face-down force cards, deck orders, other teams' hands
//! and the dice are out of its reach.

pub mod ai_dark_legion;
pub mod heuristic;
pub mod matchup;
pub mod nav;

pub use ai_dark_legion::AiDarkLegion;
use citadel_rules::dice::{Dice, SeededDice};
use citadel_rules::game::state::Rules;
use citadel_rules::game::{Command, Game, GameView, Seat, Viewer};
pub use heuristic::{HeuristicCorporation, HeuristicDarkLegion};
use std::fmt;
use std::sync::Arc;

/// Everything a bot may know when it chooses for its seat.
#[derive(Clone, Debug)]
pub struct Seen {
    /// The seat the bot plays.
    pub seat: Seat,
    /// The seat's view of the game (hidden information redacted).
    pub view: GameView,
    /// The commands the seat may send now.
    pub legal: Vec<Command>,
    /// What never changes during the game: public, and no game state.
    pub rules: Arc<Rules>,
}

impl Seen {
    /// What `seat` sees of `game` now.
    pub fn of(game: &Game, seat: Seat) -> Seen {
        Seen {
            seat,
            view: game.view(Viewer::Seat(seat)),
            legal: game.legal(seat),
            rules: Arc::clone(game.rules()),
        }
    }
}

/// A seat's automatic player.
pub trait Bot: fmt::Debug + Send {
    /// The command to send for `seen.seat` now, or `None` if it has none.
    fn choose(&mut self, seen: &Seen) -> Option<Command>;
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
    fn choose(&mut self, seen: &Seen) -> Option<Command> {
        if seen.legal.is_empty() {
            return None;
        }
        let i = self.rng.below(seen.legal.len() as u32) as usize;
        seen.legal.get(i).cloned()
    }
}

/// The default answer when a player runs out of time (core CONV-8, TRN-11):
/// end the turn if possible, otherwise the first legal option (lowest id,
/// lowest square), which declines every "may". Revealing an AI card is not
/// an answer, so it is never the default.
pub fn timeout_default(legal: &[Command]) -> Option<Command> {
    if legal.contains(&Command::EndTurn) {
        return Some(Command::EndTurn);
    }
    if legal.contains(&Command::PassEquipment) {
        return Some(Command::PassEquipment);
    }
    legal.iter().find(|c| **c != Command::RevealAiCard).cloned()
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
                .choose(&Seen::of(&g, seat))
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
            (0..5).map(|_| b.choose(&Seen::of(&g, seat))).collect()
        };
        let mut b = RandomBot::new(9);
        let again: Vec<_> = (0..5).map(|_| b.choose(&Seen::of(&g, seat))).collect();
        assert_eq!(a, again);
    }

    #[test]
    fn conv_8_timeout_passes_the_draft_and_ends_turns() {
        let g = game();
        let seat = g.seat_to_act().expect("seat");
        assert_eq!(
            timeout_default(&g.legal(seat)),
            Some(Command::PassEquipment)
        );
    }
}
