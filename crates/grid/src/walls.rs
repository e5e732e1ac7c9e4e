//! `wall(a,b)`, `sealed(a,b)` and open adjacency (core ADJ-2..4), with the
//! closed doors of the moment laid over the static wall set.

use crate::board::Board;
use crate::edge::Edge;
use crate::square::Square;
use crate::wall_bits::{WallBits, BIT_N, BIT_W};

/// Door bits sit above the static bits in the same byte, so one load
/// answers "wall or closed door".
const DOOR_SHIFT: u8 = 2;

/// W plus the edges of closed door groups: what ADJ-2 calls `wall`.
///
/// Built once per board; the game replaces the door overlay whenever a
/// door's state changes (BRD-6), which is far rarer than the lookups.
/// Every lookup is an index into one byte per (padded) square: no hashing
/// and no allocation, because legal-move generation calls these in loops.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Walls {
    /// Static bits in `BIT_N | BIT_W`, closed-door bits shifted by
    /// `DOOR_SHIFT`.
    bits: WallBits,
}

impl Walls {
    /// The static walls of `board`, no doors closed.
    pub fn new(board: &Board) -> Walls {
        Walls {
            bits: board.wall_bits().clone(),
        }
    }

    /// Replace the closed-door overlay with exactly `edges`.
    ///
    /// Edges outside the board's padded box are ignored: they separate no
    /// squares that matter.
    pub fn set_closed_doors(&mut self, edges: impl IntoIterator<Item = Edge>) {
        let door_mask = (BIT_N | BIT_W) << DOOR_SHIFT;
        self.bits.map_bytes(|b| b & !door_mask);
        for e in edges {
            if let Some((i, bit)) = self.bits.slot(e) {
                self.bits.or_byte(i, bit << DOOR_SHIFT);
            }
        }
    }

    /// Is `e` a wall or a closed door edge?
    #[inline]
    pub fn is_wall(&self, e: Edge) -> bool {
        match self.bits.slot(e) {
            Some((i, bit)) => self.bits.byte(i) & (bit | bit << DOOR_SHIFT) != 0,
            None => false,
        }
    }

    /// Is `e` in the static set W (ignores doors)? ADJ-8 uses this.
    #[inline]
    pub fn is_static_wall(&self, e: Edge) -> bool {
        match self.bits.slot(e) {
            Some((i, bit)) => self.bits.byte(i) & bit != 0,
            None => false,
        }
    }

    /// ADJ-2 for orthogonal neighbours; `false` for any other pair.
    #[inline]
    pub fn wall(&self, a: Square, b: Square) -> bool {
        Edge::between(a, b).is_some_and(|e| self.is_wall(e))
    }

    /// ADJ-3 for diagonal neighbours; `false` for any other pair.
    /// Off-board side squares are still looked up in W only.
    #[inline]
    pub fn sealed(&self, a: Square, b: Square) -> bool {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        if dx.abs() != 1 || dy.abs() != 1 {
            return false;
        }
        let c = Square::new(a.x + dx, a.y);
        let d = Square::new(a.x, a.y + dy);
        (self.wall(a, c) || self.wall(c, b)) && (self.wall(a, d) || self.wall(d, b))
    }

    /// ADJ-4 open adjacency: both on-board 8-neighbours, and not separated
    /// by a wall (orthogonal) or sealed (diagonal).
    #[inline]
    pub fn adjacent(&self, board: &Board, a: Square, b: Square) -> bool {
        if !a.is_neighbour8(b) || !board.on_board(a) || !board.on_board(b) {
            return false;
        }
        if a.x == b.x || a.y == b.y {
            !self.wall(a, b)
        } else {
            !self.sealed(a, b)
        }
    }
}
