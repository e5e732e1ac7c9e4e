//! Line of sight by exact traversal (core LOS-1..12).

use super::board::Board;
use super::square::Square;
use super::walls::Walls;
use serde::{Deserialize, Serialize};

/// What the game tells line of sight about squares: figures block (LOS-5),
/// cover tokens give cover (LOS-10).
pub trait SightBlockers {
    /// A figure (any side) stands on `s`.
    fn figure_at(&self, s: Square) -> bool;
    /// `s` holds a cover token (BRD-4 table).
    fn cover_at(&self, s: Square) -> bool;
}

/// No figures, no tokens: for geometry tests and map checks.
impl SightBlockers for () {
    fn figure_at(&self, _s: Square) -> bool {
        false
    }
    fn cover_at(&self, _s: Square) -> bool {
        false
    }
}

/// The result of a line of sight check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sight {
    /// Something blocks it.
    Blocked,
    /// Clear; `cover` if an entered square holds a cover token (LOS-10).
    Clear {
        /// The target is in cover.
        cover: bool,
    },
}

impl Sight {
    /// True if not blocked.
    pub fn is_clear(self) -> bool {
        matches!(self, Sight::Clear { .. })
    }
}

/// One event of the LOS-2 traversal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Crossing {
    /// An edge event from `from` to the orthogonal neighbour `to`.
    Edge {
        /// Square before.
        from: Square,
        /// Square entered.
        to: Square,
    },
    /// A corner event from `from` to the diagonal neighbour `to`.
    Corner {
        /// Square before.
        from: Square,
        /// Square entered.
        to: Square,
    },
}

/// The LOS-2 event sequence from `a` to `b` (empty if `a == b`).
pub fn traverse(_a: Square, _b: Square) -> Vec<Crossing> {
    unimplemented!("geometry helper")
}

/// `los(a, b)` (LOS-1..12) with cover (LOS-10).
pub fn line_of_sight(
    _board: &Board,
    _walls: &Walls,
    _blockers: &impl SightBlockers,
    _a: Square,
    _b: Square,
) -> Sight {
    unimplemented!("geometry helper")
}
