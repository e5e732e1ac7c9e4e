//! Line of sight by exact traversal (core LOS-1..12).

use crate::board::{Board, Level};
use crate::square::Square;
use crate::walls::Walls;
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
    #[inline]
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

/// The LOS-2 events from `a` to `b` as an iterator, without allocation.
///
/// With `nx = |bx-ax|` and `ny = |by-ay|`, the k-th X event (k = 1..=nx)
/// sits at `t = (2k-1) / (2nx)` and the m-th Y event at `t = (2m-1) / (2ny)`
/// (doubled coordinates: centres are odd, grid lines even). Comparing
/// `(2k-1)·ny` with `(2m-1)·nx` orders them exactly; equality is a corner.
#[derive(Clone, Copy, Debug)]
pub struct Traversal {
    cur: Square,
    sx: i32,
    sy: i32,
    nx: i64,
    ny: i64,
    /// Next X event index (1-based); `> nx` when exhausted.
    k: i64,
    /// Next Y event index (1-based); `> ny` when exhausted.
    m: i64,
}

impl Traversal {
    /// The traversal from `a` to `b` (no events if `a == b`).
    pub fn new(a: Square, b: Square) -> Traversal {
        Traversal {
            cur: a,
            sx: (b.x - a.x).signum(),
            sy: (b.y - a.y).signum(),
            nx: i64::from((b.x - a.x).abs()),
            ny: i64::from((b.y - a.y).abs()),
            k: 1,
            m: 1,
        }
    }
}

impl Iterator for Traversal {
    type Item = Crossing;

    #[inline]
    fn next(&mut self) -> Option<Crossing> {
        let x_left = self.k <= self.nx;
        let y_left = self.m <= self.ny;
        let from = self.cur;
        let ord = match (x_left, y_left) {
            (false, false) => return None,
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            (true, true) => ((2 * self.k - 1) * self.ny).cmp(&((2 * self.m - 1) * self.nx)),
        };
        let item = match ord {
            std::cmp::Ordering::Less => {
                self.k += 1;
                self.cur = from.offset(self.sx, 0);
                Crossing::Edge { from, to: self.cur }
            }
            std::cmp::Ordering::Greater => {
                self.m += 1;
                self.cur = from.offset(0, self.sy);
                Crossing::Edge { from, to: self.cur }
            }
            std::cmp::Ordering::Equal => {
                self.k += 1;
                self.m += 1;
                self.cur = from.offset(self.sx, self.sy);
                Crossing::Corner { from, to: self.cur }
            }
        };
        Some(item)
    }
}

/// The LOS-2 event sequence from `a` to `b` (empty if `a == b`).
pub fn traverse(a: Square, b: Square) -> Vec<Crossing> {
    Traversal::new(a, b).collect()
}

/// LOS-11/12: may the level pair of `a` and `b` see each other at all?
fn levels_allow(board: &Board, a: Square, b: Square) -> bool {
    use Level::{Lower, Upper, S1, S2, S3};
    let (ca, cb) = (board.cell(a), board.cell(b));
    let (la, lb) = (ca.and_then(|c| c.level), cb.and_then(|c| c.level));
    // Most squares are on no stairs tile: nothing below can refuse them
    // (each rule needs a level on at least one side), so the tile
    // comparison is skipped for them (a line of sight is checked for
    // every figure and target `legal()` weighs).
    if la.is_none() && lb.is_none() {
        return true;
    }
    let same_tile = ca.map(|c| c.tile) == cb.map(|c| c.tile);
    let is_stair = |l: Option<Level>| matches!(l, Some(S1 | S2 | S3));
    if is_stair(la) || is_stair(lb) {
        // LOS-11: only the listed pairs, and only within the stairs tile.
        if !same_tile {
            return false;
        }
        return matches!(
            (la, lb),
            (Some(S1), Some(S3))
                | (Some(S3), Some(S1))
                | (Some(S2), Some(S1))
                | (Some(S1), Some(S2))
                | (Some(S2), Some(S3))
                | (Some(S3), Some(S2))
                | (Some(S3), Some(Upper))
                | (Some(Upper), Some(S3))
                | (Some(S1), Some(S1))
                | (Some(S2), Some(S2))
                | (Some(S3), Some(S3))
        );
    }
    // LOS-12: lower and upper floor of one stairs tile never see each other.
    !(same_tile
        && matches!(
            (la, lb),
            (Some(Lower), Some(Upper)) | (Some(Upper), Some(Lower))
        ))
}

/// `los(a, b)` (LOS-1..12) with cover (LOS-10).
///
/// Walks the LOS-2 events lazily, so a check allocates nothing.
pub fn line_of_sight(
    board: &Board,
    walls: &Walls,
    blockers: &impl SightBlockers,
    a: Square,
    b: Square,
) -> Sight {
    if a == b {
        return Sight::Clear { cover: false };
    }
    if !levels_allow(board, a, b) {
        return Sight::Blocked;
    }
    let mut cover = false;
    for crossing in Traversal::new(a, b) {
        let to = match crossing {
            Crossing::Edge { from, to } => {
                if walls.wall(from, to) {
                    return Sight::Blocked;
                }
                to
            }
            Crossing::Corner { from, to } => {
                // LOS-4: only sealing counts; the side squares are not
                // entered, so their figures and tokens are irrelevant.
                if walls.sealed(from, to) {
                    return Sight::Blocked;
                }
                to
            }
        };
        if to == b {
            break;
        }
        // LOS-5: an entered square blocks if it holds a figure, is
        // off-board or is a Citadel base square (solid terrain).
        if board.blocks_sight(to) || blockers.figure_at(to) {
            return Sight::Blocked;
        }
        if blockers.cover_at(to) {
            cover = true;
        }
    }
    Sight::Clear { cover }
}

/// LOS-9: line of sight from `a` to the centre of the square `target`
/// (a grenade's target square, a hack target). The same test as
/// [`line_of_sight`]: the target square itself never blocks, so it may be
/// empty, hold a figure or a token. A target off the board is never seen.
pub fn line_of_sight_to_square(
    board: &Board,
    walls: &Walls,
    blockers: &impl SightBlockers,
    a: Square,
    target: Square,
) -> Sight {
    if !board.on_board(target) {
        return Sight::Blocked;
    }
    line_of_sight(board, walls, blockers, a, target)
}
