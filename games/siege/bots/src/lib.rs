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
/// generator, so a game with random bots replays exactly: the platform's
/// random bot (`citadel_game::RandomBot`, the same draws) over Siege's
/// [`Seen`].
#[derive(Debug, Clone)]
pub struct RandomBot {
    inner: citadel_game::RandomBot,
}

impl RandomBot {
    /// A bot whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        RandomBot {
            inner: citadel_game::RandomBot::new(seed),
        }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, seen: &Seen) -> Option<Command> {
        self.inner.pick(&seen.legal).cloned()
    }
}

/// A Siege bot as the platform drives it (`citadel_game::Bot`): the
/// platform hands it the seat's view and legal commands, and the game's
/// static rules, public and unchanging, are taken once when it is made.
#[derive(Debug)]
pub struct SeatBot {
    bot: Box<dyn Bot>,
    rules: Arc<Rules>,
}

impl citadel_game::Bot<Game> for SeatBot {
    fn choose(&mut self, seen: &citadel_game::Seen<Game>) -> Option<Command> {
        self.bot.choose(&Seen {
            seat: seen.seat,
            view: seen.view.clone(),
            legal: seen.legal.clone(),
            rules: Arc::clone(&self.rules),
        })
    }
}

/// The bot of a Siege seat (`citadel_game::Game::bot` for the catalogue):
/// the AI Dark Legion (core AI-*) on the AI's seat, the heuristic Dark
/// Legion on a Dark Legion player's seat, the heuristic corporation on
/// every corporation seat (bot seats, leavers). They are deterministic,
/// so a restored game's bots choose as the originals would have.
pub fn seat_bot(game: &Game, seat: Seat, _seed: u64) -> Box<dyn citadel_game::Bot<Game>> {
    let view = game.view(Viewer::Spectator);
    let bot: Box<dyn Bot> = if view.dark_legion.ai_seat == Some(seat) {
        Box::new(AiDarkLegion::new())
    } else if view.dark_legion.seat == Some(seat) {
        Box::new(HeuristicDarkLegion::new())
    } else {
        Box::new(HeuristicCorporation::new())
    };
    Box::new(SeatBot {
        bot,
        rules: Arc::clone(game.rules()),
    })
}

/// The turn timer's answer (CONV-8): the rules' own, kept here for
/// older paths.
pub use citadel_rules::seam::timeout_default;

#[cfg(test)]
mod tests {
    use super::*;
    use citadel_rules::content::Corporation;
    use citadel_rules::dice::SeededDice;
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
