//! [`MovePath`]: the squares a Move action enters.
//!
//! `legal()` lists one Move per reachable end square for every figure that
//! may act: some hundreds in a Dark Legion turn, each a path of one to
//! four squares (no allowance of the shipped missions is longer). Held
//! in a `Vec`, every listed Move cost an allocation and a free, more than
//! the search that found it; held inline they cost a copy. A longer path
//! (a larger allowance from other content, a client's own path) still
//! works: it moves to the heap.
//!
//! On the wire and in stored games a path is a plain JSON array of
//! squares, as it was when the field was a `Vec<Square>`.

use citadel_grid::Square;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::fmt;
use std::ops::{Deref, DerefMut};

/// Squares held inline before a path moves to the heap.
const INLINE: usize = 4;

/// The squares of a Move, in order (see [`Command::Move`]).
///
/// [`Command::Move`]: super::Command::Move
#[derive(Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MovePath(SmallVec<[Square; INLINE]>);

impl MovePath {
    /// An empty path (refused by `apply` as `Rejection::EmptyPath`).
    pub fn new() -> MovePath {
        MovePath(SmallVec::new())
    }

    /// A path of `len` squares read from its end: `back()` gives the last
    /// square, then the one before it, and so on (a search knows each
    /// square's predecessor, not its successor); then `extra`, if any.
    /// A short path is gathered in place, with no copy.
    #[inline(always)]
    pub(crate) fn read_back(
        len: usize,
        extra: Option<Square>,
        mut back: impl FnMut() -> Square,
    ) -> MovePath {
        let n = len + usize::from(extra.is_some());
        if n > INLINE {
            let mut v: Vec<Square> = (0..len).map(|_| back()).collect();
            v.reverse();
            v.extend(extra);
            return MovePath::from(v);
        }
        let mut buf = [Square::new(0, 0); INLINE];
        if let Some(e) = extra {
            buf[len] = e;
        }
        for s in buf[..len].iter_mut().rev() {
            *s = back();
        }
        MovePath(SmallVec::from_buf_and_len(buf, n))
    }

    /// The squares, as a slice.
    pub fn as_slice(&self) -> &[Square] {
        &self.0
    }

    /// Add a square at the end.
    pub fn push(&mut self, s: Square) {
        self.0.push(s);
    }
}

impl Deref for MovePath {
    type Target = [Square];
    fn deref(&self) -> &[Square] {
        &self.0
    }
}

impl DerefMut for MovePath {
    fn deref_mut(&mut self) -> &mut [Square] {
        &mut self.0
    }
}

impl fmt::Debug for MovePath {
    /// As the list it is (the text a `Vec<Square>` gave).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl From<Vec<Square>> for MovePath {
    fn from(v: Vec<Square>) -> MovePath {
        MovePath(SmallVec::from_vec(v))
    }
}

impl From<&[Square]> for MovePath {
    fn from(v: &[Square]) -> MovePath {
        MovePath(SmallVec::from_slice(v))
    }
}

impl<const N: usize> From<[Square; N]> for MovePath {
    fn from(v: [Square; N]) -> MovePath {
        MovePath(v.into_iter().collect())
    }
}

impl Extend<Square> for MovePath {
    fn extend<I: IntoIterator<Item = Square>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl FromIterator<Square> for MovePath {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> MovePath {
        MovePath(iter.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a MovePath {
    type Item = &'a Square;
    type IntoIter = std::slice::Iter<'a, Square>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl PartialEq<Vec<Square>> for MovePath {
    fn eq(&self, other: &Vec<Square>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::MovePath;
    use citadel_grid::Square;

    /// The wire form is the JSON array a `Vec<Square>` had, both ways, for
    /// short (inline) and long (heap) paths; `Debug` prints the same list.
    #[test]
    fn a_path_is_a_json_array_of_squares() {
        for len in [0, 1, 4, 5, 9] {
            let squares: Vec<Square> = (0..len).map(|i| Square::new(i, 2 * i)).collect();
            let path = MovePath::from(squares.clone());
            let json = serde_json::to_string(&path).expect("serialize");
            assert_eq!(json, serde_json::to_string(&squares).expect("serialize"));
            let back: MovePath = serde_json::from_str(&json).expect("deserialize");
            assert_eq!(back, squares);
            assert_eq!(format!("{back:?}"), format!("{squares:?}"));
        }
        assert!(serde_json::from_str::<MovePath>("{\"x\":1}").is_err());
    }
}
