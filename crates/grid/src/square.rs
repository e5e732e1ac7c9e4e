//! Squares and directions on the global grid (maps.md MAP-1, MAP-2).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// A square `(x, y)` of the global grid: `x` grows east, `y` grows south.
///
/// Squares order by `(y, x)`, the "lowest (y,x)" tie-break the rules use
/// (core CONV-8, AI-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Square {
    /// Column, growing east.
    pub x: i32,
    /// Row, growing south.
    pub y: i32,
}

impl Square {
    /// The square at `(x, y)`.
    #[inline]
    pub const fn new(x: i32, y: i32) -> Self {
        Square { x, y }
    }

    /// The square moved by `(dx, dy)`.
    #[inline]
    pub const fn offset(self, dx: i32, dy: i32) -> Self {
        Square {
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    /// Chebyshev distance (core ADJ-6): every range in the rules uses it.
    #[inline]
    pub fn dist(self, other: Square) -> i32 {
        (self.x - other.x).abs().max((self.y - other.y).abs())
    }

    /// True if `other` is one of the 8 neighbours (core ADJ-1).
    #[inline]
    pub fn is_neighbour8(self, other: Square) -> bool {
        self != other && self.dist(other) == 1
    }

    /// True if `other` is an orthogonal neighbour.
    #[inline]
    pub fn is_orthogonal_neighbour(self, other: Square) -> bool {
        (self.x - other.x).abs() + (self.y - other.y).abs() == 1
    }

    /// The 8 neighbours in clockwise order from north (N, NE, E, SE, S, SW,
    /// W, NW), the ring order of WPN-4 and the "clockwise from north" order
    /// of area effects (core ATK-13).
    #[inline]
    pub fn ring(self) -> [Square; 8] {
        Direction::ALL.map(|d| d.step(self))
    }
}

impl Ord for Square {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        (self.y, self.x).cmp(&(other.y, other.x))
    }
}

impl PartialOrd for Square {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Square {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// One of the 8 compass directions, clockwise from north. Written in
/// lower case on the wire (`"n"`, `"ne"`, ... `"nw"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// North, `-y`.
    N,
    /// North-east.
    NE,
    /// East, `+x`.
    E,
    /// South-east.
    SE,
    /// South, `+y`.
    S,
    /// South-west.
    SW,
    /// West, `-x`.
    W,
    /// North-west.
    NW,
}

impl Direction {
    /// All 8, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// `(dx, dy)` of one step.
    #[inline]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::N => (0, -1),
            Direction::NE => (1, -1),
            Direction::E => (1, 0),
            Direction::SE => (1, 1),
            Direction::S => (0, 1),
            Direction::SW => (-1, 1),
            Direction::W => (-1, 0),
            Direction::NW => (-1, -1),
        }
    }

    /// The neighbour of `s` in this direction.
    #[inline]
    pub const fn step(self, s: Square) -> Square {
        let (dx, dy) = self.delta();
        s.offset(dx, dy)
    }
}

/// A side of a square or of a tile (maps.md MAP-16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// North side (`-y`).
    N,
    /// East side (`+x`).
    E,
    /// South side (`+y`).
    S,
    /// West side (`-x`).
    W,
}

impl Side {
    /// All four, clockwise from north.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The side after turning clockwise by 90°.
    #[inline]
    pub const fn clockwise(self) -> Side {
        match self {
            Side::N => Side::E,
            Side::E => Side::S,
            Side::S => Side::W,
            Side::W => Side::N,
        }
    }

    /// The orthogonal neighbour of `s` across this side.
    #[inline]
    pub const fn step(self, s: Square) -> Square {
        match self {
            Side::N => s.offset(0, -1),
            Side::E => s.offset(1, 0),
            Side::S => s.offset(0, 1),
            Side::W => s.offset(-1, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[inline]
    fn squares_order_by_row_then_column() {
        let mut v = vec![Square::new(5, 1), Square::new(0, 2), Square::new(3, 1)];
        v.sort();
        assert_eq!(
            v,
            vec![Square::new(3, 1), Square::new(5, 1), Square::new(0, 2)]
        );
    }

    #[test]
    #[inline]
    fn adj_6_distance_is_chebyshev() {
        assert_eq!(Square::new(0, 0).dist(Square::new(3, -2)), 3);
        assert!(Square::new(0, 0).is_neighbour8(Square::new(1, 1)));
        assert!(!Square::new(0, 0).is_orthogonal_neighbour(Square::new(1, 1)));
    }

    #[test]
    #[inline]
    fn ring_is_clockwise_from_north() {
        let r = Square::new(5, 5).ring();
        assert_eq!(r[0], Square::new(5, 4));
        assert_eq!(r[2], Square::new(6, 5));
        assert_eq!(r[7], Square::new(4, 4));
    }
}
