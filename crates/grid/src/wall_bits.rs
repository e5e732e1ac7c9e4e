//! One bit per unit edge around a bounded box: the hot-path form of a wall
//! set, shared by the static walls of [`crate::Board`] and the door overlay
//! of [`crate::Walls`].

use crate::edge::Edge;
use serde::{Deserialize, Serialize};

/// Bit for "the north side (`H,x,y`) is a wall".
pub(crate) const BIT_N: u8 = 1;
/// Bit for "the west side (`V,x,y`) is a wall".
pub(crate) const BIT_W: u8 = 2;

/// One byte per square of the bounding box padded by one square on every
/// side. A square stores only its north and west sides; its south and east
/// sides are the north/west sides of its neighbours, so every unit edge that
/// touches the box (including edges of off-board squares just outside it,
/// needed by ADJ-3) has exactly one bit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct WallBits {
    width: i32,
    height: i32,
    bits: Vec<u8>,
}

impl WallBits {
    /// All clear, for a `width` × `height` box.
    pub(crate) fn new(width: i32, height: i32) -> WallBits {
        let len = usize::try_from((width + 2) * (height + 2)).unwrap_or(0);
        WallBits {
            width,
            height,
            bits: vec![0; len],
        }
    }

    /// Byte index and bit of an edge; `None` if it lies outside the padded
    /// box (such an edge can never be a wall).
    #[inline]
    pub(crate) fn slot(&self, e: Edge) -> Option<(usize, u8)> {
        let (x, y, bit) = match e {
            Edge::H { x, y } => (x, y, BIT_N),
            Edge::V { x, y } => (x, y, BIT_W),
        };
        if x < -1 || y < -1 || x > self.width || y > self.height {
            return None;
        }
        // In range by the check above, so the cast cannot wrap.
        Some((((y + 1) * (self.width + 2) + (x + 1)) as usize, bit))
    }

    /// Is the bit of `e` set?
    #[inline]
    pub(crate) fn get(&self, e: Edge) -> bool {
        match self.slot(e) {
            Some((i, bit)) => self.bits[i] & bit != 0,
            None => false,
        }
    }

    /// Set the bit of `e`; returns false if `e` is outside the padded box.
    pub(crate) fn set(&mut self, e: Edge) -> bool {
        match self.slot(e) {
            Some((i, bit)) => {
                self.bits[i] |= bit;
                true
            }
            None => false,
        }
    }

    /// The bytes of row `y` (`-1..=height`), west of the board to east.
    pub(crate) fn row(&self, y: i32) -> Option<&[u8]> {
        let w = usize::try_from(self.width + 2).ok()?;
        let start = usize::try_from(y + 1).ok()? * w;
        self.bits.get(start..start + w)
    }

    /// The byte at index `i` (from [`WallBits::slot`]).
    #[inline]
    pub(crate) fn byte(&self, i: usize) -> u8 {
        self.bits[i]
    }

    /// OR `mask` into the byte at index `i`.
    pub(crate) fn or_byte(&mut self, i: usize, mask: u8) {
        self.bits[i] |= mask;
    }

    /// Apply `f` to every byte (door overlay reset).
    pub(crate) fn map_bytes(&mut self, f: impl Fn(u8) -> u8) {
        self.bits.iter_mut().for_each(|b| *b = f(*b));
    }
}
