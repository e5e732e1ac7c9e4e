//! Path distances: fewest steps over open adjacency (core ADJ-7 without
//! figures), for content checks and for bots that head somewhere.
//!
//! The game's own move search (MOV-2 with door removal, pass-through and
//! allowances) is a rules procedure and stays in the rules crate.

use crate::board::Board;
use crate::edge::Edge;
use crate::square::Square;
use crate::walls::Walls;
use std::collections::VecDeque;

/// Fewest steps from a set of start squares to every square of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepMap {
    width: i32,
    /// Per square of the bounding box, `y * width + x`; `u32::MAX` where
    /// unreachable or off-board.
    dist: Vec<u32>,
}

impl StepMap {
    /// Breadth-first distances from `starts` (each at 0).
    ///
    /// A step needs open adjacency under `walls` (ADJ-4), a passable target
    /// that `blocked` does not reject, and the stairs level rule
    /// ([`Board::levels_step_ok`]). With `through_closed_doors`, an
    /// orthogonal step whose only obstacle is a closed door edge is allowed
    /// too (a Doomtrooper may do that, MOV-2 (1)). Starts off the board are
    /// ignored.
    pub fn new(
        board: &Board,
        walls: &Walls,
        starts: &[Square],
        blocked: impl Fn(Square) -> bool,
        through_closed_doors: bool,
    ) -> StepMap {
        let area = usize::try_from(board.width() * board.height()).unwrap_or(0);
        let mut dist = vec![u32::MAX; area];
        let mut queue = VecDeque::new();
        for &s in starts {
            if let Some(i) = board.index(s) {
                if dist[i] == u32::MAX {
                    dist[i] = 0;
                    queue.push_back(s);
                }
            }
        }
        while let Some(a) = queue.pop_front() {
            let Some(ia) = board.index(a) else { continue };
            let d = dist[ia];
            for b in a.ring() {
                let Some(ib) = board.index(b) else { continue };
                if dist[ib] != u32::MAX || !board.passable(b) || blocked(b) {
                    continue;
                }
                let open = walls.adjacent(board, a, b)
                    || (through_closed_doors
                        && a.is_orthogonal_neighbour(b)
                        && Edge::between(a, b).is_some_and(|e| !board.is_wall(e)));
                if open && board.levels_step_ok(a, b) {
                    dist[ib] = d + 1;
                    queue.push_back(b);
                }
            }
        }
        StepMap {
            width: board.width(),
            dist,
        }
    }

    /// Steps to `s`; `None` if it is off-board or cannot be reached.
    #[inline]
    pub fn get(&self, s: Square) -> Option<u32> {
        if s.x < 0 || s.y < 0 || s.x >= self.width {
            return None;
        }
        let i = usize::try_from(s.y * self.width + s.x).ok()?;
        self.dist.get(i).copied().filter(|&d| d != u32::MAX)
    }

    /// Can `s` be reached at all?
    #[inline]
    pub fn reaches(&self, s: Square) -> bool {
        self.get(s).is_some()
    }
}
