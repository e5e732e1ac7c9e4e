//! `wall(a,b)`, `sealed(a,b)` and open adjacency (core ADJ-2..4), with the
//! closed doors of the moment laid over the static wall set.

use super::board::Board;
use super::edge::Edge;
use super::square::Square;

/// W plus the edges of closed door groups: what ADJ-2 calls `wall`.
///
/// Built once per board; the game replaces the door overlay whenever a
/// door's state changes (BRD-6), which is far rarer than the lookups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walls {
    _private: (),
}

impl Walls {
    /// The static walls of `board`, no doors closed.
    pub fn new(_board: &Board) -> Walls {
        unimplemented!("geometry helper")
    }

    /// Replace the closed-door overlay with exactly `edges`.
    pub fn set_closed_doors(&mut self, _edges: impl IntoIterator<Item = Edge>) {
        unimplemented!("geometry helper")
    }

    /// Is `e` a wall or a closed door edge?
    pub fn is_wall(&self, _e: Edge) -> bool {
        unimplemented!("geometry helper")
    }

    /// Is `e` in the static set W (ignores doors)? ADJ-8 uses this.
    pub fn is_static_wall(&self, _e: Edge) -> bool {
        unimplemented!("geometry helper")
    }

    /// ADJ-2 for orthogonal neighbours; `false` for any other pair.
    pub fn wall(&self, a: Square, b: Square) -> bool {
        Edge::between(a, b).is_some_and(|e| self.is_wall(e))
    }

    /// ADJ-3 for diagonal neighbours; `false` for any other pair.
    /// Off-board side squares are still looked up in W only.
    pub fn sealed(&self, _a: Square, _b: Square) -> bool {
        unimplemented!("geometry helper")
    }

    /// ADJ-4 open adjacency: both on-board 8-neighbours, and not separated
    /// by a wall (orthogonal) or sealed (diagonal).
    pub fn adjacent(&self, _board: &Board, _a: Square, _b: Square) -> bool {
        unimplemented!("geometry helper")
    }
}
