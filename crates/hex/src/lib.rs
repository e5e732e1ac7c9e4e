//! # citadel-hex
//!
//! Flat-topped hexes in axial coordinates `(q, r)` (the third cube
//! coordinate is `s = -q - r`), the six directions numbered clockwise from
//! "up" (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW), and the hexagonal board of
//! radius 2 (19 hexes) with a dense index `0..19` for array-backed boards.
//! Knows nothing about any game.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the six directions, `0..6`, clockwise from N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(transparent)]
pub struct Dir(u8);

impl Dir {
    /// N, NE, SE, S, SW, NW.
    pub const ALL: [Dir; 6] = [Dir(0), Dir(1), Dir(2), Dir(3), Dir(4), Dir(5)];
    /// Up.
    pub const N: Dir = Dir(0);
    /// Upper right.
    pub const NE: Dir = Dir(1);
    /// Lower right.
    pub const SE: Dir = Dir(2);
    /// Down.
    pub const S: Dir = Dir(3);
    /// Lower left.
    pub const SW: Dir = Dir(4);
    /// Upper left.
    pub const NW: Dir = Dir(5);

    /// The direction numbered `n mod 6`.
    pub const fn new(n: u8) -> Dir {
        Dir(n % 6)
    }

    /// Its number, `0..6`.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The axial step `(dq, dr)`.
    pub const fn vector(self) -> (i8, i8) {
        match self.0 {
            0 => (0, -1),
            1 => (1, -1),
            2 => (1, 0),
            3 => (0, 1),
            4 => (-1, 1),
            _ => (-1, 0),
        }
    }

    /// The opposite direction, `(d + 3) mod 6`.
    pub const fn opposite(self) -> Dir {
        Dir((self.0 + 3) % 6)
    }

    /// Turned `steps` sixths of a turn clockwise.
    pub const fn rotate_cw(self, steps: u8) -> Dir {
        Dir((self.0 + steps % 6) % 6)
    }

    /// Turned `steps` sixths of a turn counter-clockwise.
    pub const fn rotate_ccw(self, steps: u8) -> Dir {
        Dir((self.0 + 6 - steps % 6) % 6)
    }

    /// Short compass name.
    pub const fn name(self) -> &'static str {
        match self.0 {
            0 => "N",
            1 => "NE",
            2 => "SE",
            3 => "S",
            4 => "SW",
            _ => "NW",
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A hex in axial coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Hex {
    /// Column.
    pub q: i8,
    /// Row (slanted).
    pub r: i8,
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.q, self.r)
    }
}

impl Hex {
    /// The centre.
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    /// The hex `(q, r)`.
    pub const fn new(q: i8, r: i8) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate.
    pub const fn s(self) -> i8 {
        -self.q - self.r
    }

    /// Distance from the centre: max(|q|, |r|, |s|).
    pub fn ring(self) -> u8 {
        let (q, r, s) = (
            i16::from(self.q).unsigned_abs(),
            i16::from(self.r).unsigned_abs(),
            i16::from(self.s()).unsigned_abs(),
        );
        // At most 3 * 127: fits.
        q.max(r).max(s).min(255) as u8
    }

    /// The hex `n` steps away in direction `d` (may be off any board).
    pub fn step(self, d: Dir, n: i8) -> Hex {
        let (dq, dr) = d.vector();
        Hex {
            q: self.q.saturating_add(dq.saturating_mul(n)),
            r: self.r.saturating_add(dr.saturating_mul(n)),
        }
    }

    /// The neighbour in direction `d`.
    pub fn neighbour(self, d: Dir) -> Hex {
        self.step(d, 1)
    }

    /// All six neighbours, in direction order.
    pub fn neighbours(self) -> [Hex; 6] {
        Dir::ALL.map(|d| self.neighbour(d))
    }

    /// Hex distance: (|dq| + |dr| + |dq + dr|) / 2.
    pub fn distance(self, other: Hex) -> u8 {
        let dq = i16::from(other.q) - i16::from(self.q);
        let dr = i16::from(other.r) - i16::from(self.r);
        ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2).min(255) as u8
    }

    /// Is `other` a neighbour?
    pub fn is_adjacent(self, other: Hex) -> bool {
        self.distance(other) == 1
    }

    /// The direction from `self` to an adjacent `other`.
    pub fn direction_to(self, other: Hex) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| self.neighbour(*d) == other)
    }

    /// This hex turned `steps` sixths of a turn clockwise about the
    /// centre.
    pub fn rotate_cw(self, steps: u8) -> Hex {
        let mut h = self;
        for _ in 0..steps % 6 {
            // Cube (q, r, s) -> (-r, -s, -q) is a clockwise sixth for
            // flat-topped hexes with N = (0, -1).
            h = Hex {
                q: h.r.saturating_neg(),
                r: h.s().saturating_neg(),
            };
        }
        h
    }
}

/// The hexagonal board of radius `R`: hexes with max(|q|, |r|, |s|) ≤ R.
/// [`Board19`] is the radius-2 board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board19;

/// The 19 hexes of the radius-2 board in index order: by `q`, then `r`.
pub const HEXES: [Hex; 19] = {
    let mut out = [Hex::ORIGIN; 19];
    let mut i = 0;
    let mut q: i8 = -2;
    while q <= 2 {
        let mut r: i8 = -2;
        while r <= 2 {
            let s = -q - r;
            if s >= -2 && s <= 2 {
                out[i] = Hex { q, r };
                i += 1;
            }
            r += 1;
        }
        q += 1;
    }
    out
};

impl Board19 {
    /// Radius.
    pub const RADIUS: u8 = 2;
    /// Number of hexes.
    pub const LEN: usize = 19;

    /// Is the hex on the board?
    pub fn contains(h: Hex) -> bool {
        h.ring() <= Self::RADIUS
    }

    /// The dense index `0..19` of a hex on the board.
    pub fn index(h: Hex) -> Option<usize> {
        if !Self::contains(h) {
            return None;
        }
        // Column q has 5 - |q| hexes; columns before it are summed.
        let q = i16::from(h.q);
        let r = i16::from(h.r);
        let mut start: i16 = 0;
        for c in -2..q {
            start += 5 - c.abs();
        }
        let r_min = (-2i16).max(-2 - q);
        usize::try_from(start + r - r_min).ok()
    }

    /// The hex at a dense index.
    pub fn hex(i: usize) -> Option<Hex> {
        HEXES.get(i).copied()
    }

    /// The line from `h` in direction `d`: every hex beyond `h`, nearest
    /// first, up to the board's edge (empty on the edge facing `d`).
    pub fn line(h: Hex, d: Dir) -> Vec<Hex> {
        let mut out = Vec::new();
        let mut cur = h.neighbour(d);
        while Self::contains(cur) {
            out.push(cur);
            cur = cur.neighbour(d);
        }
        out
    }

    /// The neighbours of `h` that are on the board.
    pub fn neighbours(h: Hex) -> impl Iterator<Item = Hex> {
        h.neighbours().into_iter().filter(|n| Self::contains(*n))
    }

    /// Does every neighbour of `h` lie on the board (the centre and ring 1)?
    pub fn is_inner(h: Hex) -> bool {
        Self::contains(h) && h.neighbours().iter().all(|n| Self::contains(*n))
    }

    /// Every set of three mutually adjacent board hexes (the hexes around
    /// one inner vertex), each sorted by index, in index order.
    pub fn triangles() -> Vec<[Hex; 3]> {
        let mut out = Vec::new();
        for a in HEXES {
            for d in Dir::ALL {
                let b = a.neighbour(d);
                let c = a.neighbour(d.rotate_cw(1));
                if Self::contains(b) && Self::contains(c) {
                    let mut t = [a, b, c];
                    t.sort_by_key(|h| Self::index(*h).unwrap_or(usize::MAX));
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
            }
        }
        out.sort_by_key(|t| t.map(|h| Self::index(h).unwrap_or(usize::MAX)));
        out
    }
}

/// A tile's own edge `e` (0 = its top side) of a tile turned `rotation`
/// sixths clockwise faces world direction `(e + rotation) mod 6`.
pub const fn world_of_edge(edge: u8, rotation: u8) -> Dir {
    Dir::new(edge % 6 + rotation % 6)
}

/// The tile edge of a tile turned `rotation` that faces world direction
/// `w`: `(w - rotation) mod 6`.
pub const fn edge_of_world(w: Dir, rotation: u8) -> u8 {
    (w.index() + 6 - rotation % 6) % 6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nineteen_hexes_in_three_rings() {
        assert_eq!(HEXES.len(), 19);
        let rings: Vec<usize> = (0..=2)
            .map(|k| HEXES.iter().filter(|h| h.ring() == k).count())
            .collect();
        assert_eq!(rings, vec![1, 6, 12]);
        assert!(!Board19::contains(Hex::new(2, 1)));
        assert!(Board19::contains(Hex::new(2, -1)));
    }

    #[test]
    fn index_round_trips() {
        for (i, h) in HEXES.iter().enumerate() {
            assert_eq!(Board19::index(*h), Some(i), "{h}");
            assert_eq!(Board19::hex(i), Some(*h));
        }
        assert_eq!(Board19::index(Hex::new(3, 0)), None);
        assert_eq!(Board19::hex(19), None);
    }

    #[test]
    fn directions_clockwise_from_north() {
        let v: Vec<(i8, i8)> = Dir::ALL.iter().map(|d| d.vector()).collect();
        assert_eq!(v, vec![(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]);
        for d in Dir::ALL {
            assert_eq!(d.opposite().opposite(), d);
            let (a, b) = d.vector();
            let (c, e) = d.opposite().vector();
            assert_eq!((a + c, b + e), (0, 0));
            assert_eq!(d.rotate_cw(1).rotate_ccw(1), d);
            assert_eq!(d.rotate_cw(6), d);
        }
        assert_eq!(Dir::NW.rotate_cw(1), Dir::N);
        assert_eq!(Dir::N.rotate_ccw(1), Dir::NW);
    }

    #[test]
    fn neighbours_of_the_centre() {
        assert_eq!(
            Hex::ORIGIN.neighbours(),
            [
                Hex::new(0, -1),
                Hex::new(1, -1),
                Hex::new(1, 0),
                Hex::new(0, 1),
                Hex::new(-1, 1),
                Hex::new(-1, 0)
            ]
        );
        assert_eq!(Board19::neighbours(Hex::new(0, -2)).count(), 3);
        assert_eq!(Board19::neighbours(Hex::new(1, -2)).count(), 4);
        assert_eq!(Hex::ORIGIN.direction_to(Hex::new(-1, 1)), Some(Dir::SW));
        assert_eq!(Hex::ORIGIN.direction_to(Hex::new(2, 0)), None);
    }

    #[test]
    fn distance_is_the_cube_metric() {
        assert_eq!(Hex::ORIGIN.distance(Hex::new(2, -2)), 2);
        assert_eq!(Hex::new(-2, 0).distance(Hex::new(2, 0)), 4);
        assert_eq!(Hex::new(-2, 2).distance(Hex::new(2, -2)), 4);
        assert_eq!(Hex::new(0, 2).distance(Hex::new(1, 1)), 1);
        for a in HEXES {
            for b in HEXES {
                assert_eq!(a.distance(b), b.distance(a));
                assert_eq!(a.distance(b) == 1, a.is_adjacent(b));
            }
        }
    }

    #[test]
    fn lines_stop_at_the_edge() {
        assert_eq!(
            Board19::line(Hex::new(0, 2), Dir::N),
            vec![
                Hex::new(0, 1),
                Hex::ORIGIN,
                Hex::new(0, -1),
                Hex::new(0, -2)
            ]
        );
        assert!(Board19::line(Hex::new(0, -2), Dir::N).is_empty());
        assert_eq!(
            Board19::line(Hex::ORIGIN, Dir::SE),
            vec![Hex::new(1, 0), Hex::new(2, 0)]
        );
    }

    #[test]
    fn rotation_about_the_centre() {
        assert_eq!(Hex::new(0, -1).rotate_cw(1), Hex::new(1, -1));
        assert_eq!(Hex::new(0, -2).rotate_cw(2), Hex::new(2, 0));
        for h in HEXES {
            assert_eq!(h.rotate_cw(6), h);
            assert!(Board19::contains(h.rotate_cw(1)));
        }
        // Rotating a neighbour step rotates its direction.
        for d in Dir::ALL {
            assert_eq!(
                Hex::ORIGIN.neighbour(d).rotate_cw(1),
                Hex::ORIGIN.neighbour(d.rotate_cw(1))
            );
        }
    }

    #[test]
    fn tile_edges_and_world_directions() {
        assert_eq!(world_of_edge(0, 0), Dir::N);
        assert_eq!(world_of_edge(4, 3), Dir::NE);
        assert_eq!(edge_of_world(Dir::N, 3), 3);
        for e in 0..6 {
            for r in 0..6 {
                assert_eq!(edge_of_world(world_of_edge(e, r), r), e);
            }
        }
    }

    #[test]
    fn inner_hexes_and_triangles() {
        assert_eq!(HEXES.iter().filter(|h| Board19::is_inner(**h)).count(), 7);
        let t = Board19::triangles();
        assert_eq!(t.len(), 24);
        for [a, b, c] in t {
            assert!(a.is_adjacent(b) && b.is_adjacent(c) && a.is_adjacent(c));
        }
    }

    #[test]
    fn serde_shape() {
        let h = Hex::new(-1, 2);
        let text = serde_json::to_string(&h).expect("json");
        assert_eq!(text, r#"{"q":-1,"r":2}"#);
        assert_eq!(serde_json::to_string(&Dir::SW).expect("json"), "4");
    }
}
