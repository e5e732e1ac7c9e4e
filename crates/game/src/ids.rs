//! Seats and viewers: who plays and who looks, in every game.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A player's place at the table, 0-based. Automaton seats (an AI
/// opponent the rules play, such as an AI army) are seats
/// too, numbered after the players'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(transparent)]
pub struct Seat(pub u8);

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Who is looking: a seated player or a spectator. Every view and every
/// event a game hands out is made for one viewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A player; sees their own secrets.
    Seat(Seat),
    /// Anyone else; sees only public state.
    Spectator,
}
