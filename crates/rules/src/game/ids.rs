//! Seats, figures and viewers.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A player's place at the table (core CONV-7), 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(transparent)]
pub struct Seat(pub u8);

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Index of a figure in [`super::Game::figures`]. Stable for the whole game:
/// every DL miniature of the pool and every Doomtrooper gets one at setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(transparent)]
pub struct FigureId(pub u16);

impl FigureId {
    /// Position in the figure table.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Who is looking: a seated player or a spectator (core HID).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A player; sees their own secrets.
    Seat(Seat),
    /// Anyone else; sees only public state.
    Spectator,
}

/// Which side acts: a corporation team or the Dark Legion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The team with this index in [`super::Game::teams`].
    Team(u8),
    /// The Dark Legion.
    DarkLegion,
}
