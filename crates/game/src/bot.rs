//! Automatic players: empty seats, leavers, timeouts, tests.

use crate::{Dice, Game, Seat, SeededDice, Viewer};
use std::fmt;

/// Everything a bot may know when it chooses for its seat: the seat's
/// view and its legal commands, never the game itself, so it cannot read
/// what its seat may not see.
///
/// A search bot also needs games to play ahead on: [`Seen::sample`] deals
/// one, a copy of the game as the seat could believe it to be
/// ([`Game::resample_hidden`] for the seat). `Seen` borrows the real game
/// for that, privately, so building it for every bot decision copies
/// nothing beyond the view and the legal commands it always built.
pub struct Seen<'g, G: Game> {
    /// The seat the bot plays.
    pub seat: Seat,
    /// The seat's view.
    pub view: G::View,
    /// The commands the seat may send now.
    pub legal: Vec<G::Command>,
    /// The real game: read only through `resample_hidden`, never handed
    /// out.
    game: &'g G,
}

impl<'g, G: Game> Seen<'g, G> {
    /// What `seat` sees of `game` now.
    pub fn of(game: &'g G, seat: Seat) -> Self {
        Seen {
            seat,
            view: game.view(Viewer::Seat(seat)),
            legal: game.legal(seat),
            game,
        }
    }

    /// A game consistent with everything the seat knows: what it may not
    /// see (other hands, the order of the draw piles) dealt again from
    /// `dice`. Its view for the seat is `self.view`; its hidden state is
    /// a draw, not the truth, so a bot that plays on samples learns
    /// nothing its seat may not know (the conformance suite checks the
    /// view half of that for every game).
    pub fn sample(&self, dice: &mut dyn Dice) -> G {
        self.game.resample_hidden(Viewer::Seat(self.seat), dice)
    }
}

impl<G: Game> Clone for Seen<'_, G> {
    fn clone(&self) -> Self {
        Seen {
            seat: self.seat,
            view: self.view.clone(),
            legal: self.legal.clone(),
            game: self.game,
        }
    }
}

/// The game itself is left out: a log line must not carry hidden state.
impl<G: Game> fmt::Debug for Seen<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Seen")
            .field("seat", &self.seat)
            .field("view", &self.view)
            .field("legal", &self.legal)
            .finish_non_exhaustive()
    }
}

/// A seat's automatic player.
pub trait Bot<G: Game>: fmt::Debug + Send {
    /// The command to send for `seen.seat` now, or `None` if it has none.
    fn choose(&mut self, seen: &Seen<'_, G>) -> Option<G::Command>;
}

/// Picks uniformly among the legal commands from its own seeded
/// generator, so a game with random bots replays exactly. Works for every
/// game.
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

    /// One of `legal`, or `None` when it is empty.
    pub fn pick<'a, T>(&mut self, legal: &'a [T]) -> Option<&'a T> {
        if legal.is_empty() {
            return None;
        }
        legal.get(self.rng.below(legal.len() as u32) as usize)
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn choose(&mut self, seen: &Seen<'_, G>) -> Option<G::Command> {
        self.pick(&seen.legal).cloned()
    }
}
