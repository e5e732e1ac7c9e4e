//! What a game tells the search: how to file its commands, how to play
//! a playout, and (optionally) what a position is worth when a playout
//! is cut short.

use citadel_game::{Dice, Game, Seat};
use serde::Serialize;
use std::fmt;
use std::io;

/// The game's knowledge the search uses. Every method has a default
/// that works for any game: commands filed by a hash of their JSON,
/// playouts uniform over the legal commands, no evaluation (playouts
/// run to the end).
pub trait Policy<G: Game>: fmt::Debug + Send + Sync {
    /// The key under which the tree files `command`: equal commands must
    /// get equal keys (two different commands that collide share one
    /// node, which costs strength, never soundness). The default hashes
    /// the command's JSON; a game with a cheap `Hash` does better.
    fn key(&self, command: &G::Command) -> u64 {
        json_key(command)
    }

    /// The command `seat` plays in a playout, drawn from `dice`; `None`
    /// when it has none. The default is uniform over `legal`.
    fn playout(&self, game: &G, seat: Seat, dice: &mut dyn Dice) -> Option<G::Command> {
        let mut legal = game.legal(seat);
        if legal.is_empty() {
            return None;
        }
        let i = dice.below(legal.len() as u32) as usize;
        Some(legal.swap_remove(i))
    }

    /// Every seat's value of `game`, which is not over, in `[0, 1]` and
    /// indexed by seat, as [`crate::rewards`] would score the end; asked
    /// when a playout reaches the search's horizon. `None` (the default):
    /// play on to the end.
    fn evaluate(&self, _game: &G) -> Option<Vec<f64>> {
        None
    }

    /// How promising each of `legal` (the commands `seat` may play in
    /// `game`) looks before any search: one non-negative weight per
    /// command, in `legal`'s order (the tree normalizes them). Asked only
    /// when the search's [`crate::SearchConfig::prior`] is set, once per
    /// tree node (and again when a deal brings commands the node has not
    /// seen); the tree then selects by PUCT. `None` (the default): no
    /// prior, the node selects by UCT.
    fn prior(&self, _game: &G, _seat: Seat, _legal: &[G::Command]) -> Option<Vec<f64>> {
        None
    }
}

/// The defaults of [`Policy`]: uniform random playouts to the end.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPolicy;

impl<G: Game> Policy<G> for RandomPolicy {}

/// FNV-1a of `value`'s JSON, written straight into the hash (no
/// string is built).
pub fn json_key<T: Serialize>(value: &T) -> u64 {
    let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
    // Writing into the hash cannot fail; a value that does not serialize
    // (never a payload of the seam) keys as what it wrote so far.
    let _ = serde_json::to_writer(&mut hasher, value);
    hasher.0
}

struct Fnv(u64);

impl io::Write for Fnv {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_keys_tell_values_apart_and_repeat() {
        assert_eq!(json_key(&("a", 1)), json_key(&("a", 1)));
        assert_ne!(json_key(&("a", 1)), json_key(&("a", 2)));
        assert_ne!(json_key(&"ab"), json_key(&"ba"));
    }
}
