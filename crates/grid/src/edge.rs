//! Unit edges of the grid (maps.md MAP-3, MAP-4).

use crate::square::{Side, Square};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A unit edge on a grid line.
///
/// `V { x, y }` is the vertical edge on line `x` from `(x, y)` to `(x, y+1)`:
/// the west side of square `(x, y)`. `H { x, y }` is the horizontal edge on
/// line `y` from `(x, y)` to `(x+1, y)`: the north side of square `(x, y)`.
/// The same type serves local (tile) and global coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Edge {
    /// Vertical unit edge on line `x = x`, rows `y..y+1`.
    V {
        /// Grid line.
        x: i32,
        /// Row the edge spans.
        y: i32,
    },
    /// Horizontal unit edge on line `y = y`, columns `x..x+1`.
    H {
        /// Column the edge spans.
        x: i32,
        /// Grid line.
        y: i32,
    },
}

impl Edge {
    /// The edge on the given side of square `s`.
    #[inline]
    pub const fn side_of(s: Square, side: Side) -> Edge {
        match side {
            Side::N => Edge::H { x: s.x, y: s.y },
            Side::S => Edge::H { x: s.x, y: s.y + 1 },
            Side::W => Edge::V { x: s.x, y: s.y },
            Side::E => Edge::V { x: s.x + 1, y: s.y },
        }
    }

    /// The shared edge of two orthogonal neighbours, `None` otherwise.
    #[inline]
    pub fn between(a: Square, b: Square) -> Option<Edge> {
        match (b.x - a.x, b.y - a.y) {
            (1, 0) => Some(Edge::side_of(a, Side::E)),
            (-1, 0) => Some(Edge::side_of(a, Side::W)),
            (0, 1) => Some(Edge::side_of(a, Side::S)),
            (0, -1) => Some(Edge::side_of(a, Side::N)),
            _ => None,
        }
    }

    /// The two squares the edge separates (west/north one first).
    #[inline]
    pub const fn squares(self) -> (Square, Square) {
        match self {
            Edge::V { x, y } => (Square::new(x - 1, y), Square::new(x, y)),
            Edge::H { x, y } => (Square::new(x, y - 1), Square::new(x, y)),
        }
    }

    /// The edge shifted by a tile origin (MAP-4).
    #[inline]
    pub const fn translate(self, ox: i32, oy: i32) -> Edge {
        match self {
            Edge::V { x, y } => Edge::V {
                x: x + ox,
                y: y + oy,
            },
            Edge::H { x, y } => Edge::H {
                x: x + ox,
                y: y + oy,
            },
        }
    }
}

impl fmt::Display for Edge {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Edge::V { x, y } => write!(f, "V,{x},{y}"),
            Edge::H { x, y } => write!(f, "H,{x},{y}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[inline]
    fn map_3_edge_sides() {
        let s = Square::new(2, 3);
        assert_eq!(Edge::side_of(s, Side::W), Edge::V { x: 2, y: 3 });
        assert_eq!(Edge::side_of(s, Side::E), Edge::V { x: 3, y: 3 });
        assert_eq!(Edge::side_of(s, Side::N), Edge::H { x: 2, y: 3 });
        assert_eq!(Edge::side_of(s, Side::S), Edge::H { x: 2, y: 4 });
        assert_eq!(
            Edge::between(s, Square::new(3, 3)),
            Some(Edge::V { x: 3, y: 3 })
        );
        assert_eq!(Edge::between(s, Square::new(3, 4)), None);
        assert_eq!(
            Edge::V { x: 3, y: 3 }.squares(),
            (Square::new(2, 3), Square::new(3, 3))
        );
    }
}
