//! Seats, figures and viewers.

use serde::{Deserialize, Serialize};

/// A player's place at the table (core CONV-7), 0-based: the platform's
/// seat type.
pub use citadel_game::Seat;

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

/// Who is looking: a seated player or a spectator (core HID); the
/// platform's viewer type.
pub use citadel_game::Viewer;

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
