//! The move search on whole board rows at once.
//!
//! `legal()` lists a Move for every square every figure that may act can
//! reach; on a Dark Legion turn that is most of the time a command takes.
//! The node search (`Game::node_search`) visits one square at a time and
//! tries its eight steps one by one. On a board without door edges and
//! with no Remote Controlled Door, every step is either forbidden by the
//! board or open, and an open step is stopped only by what stands on its
//! target ([`StepTable`](super::step_table::StepTable)). There a whole
//! row of squares takes a step at once: the squares reached in `d` steps
//! are the squares reached in `d - 1`, shifted by each of the eight steps
//! where the board opens it, less the squares this mover may not enter and
//! those reached earlier. That is the breadth-first search layer by layer
//! with a row of up to 64 squares in one machine word, a few hundred
//! instructions for a whole search instead of some thousands.
//!
//! It finds exactly the node search's destinations, each with a shortest
//! path (the test below compares the two on positions of every mission);
//! only the order of the list and, among paths of the same length, which
//! one is listed may differ. That is why it lists Move actions (accepted
//! along any legal path) but not a decision's Move options (an answer
//! must be one of them exactly: `Game::reachable`). Every 1993 board
//! qualifies, Remote Controlled Doors in play included (they only add
//! walls: the steps they close are struck from a copy of the window's
//! steps); a CE board (door edges), a phasing mover, a captive or a board
//! wider than 64 squares takes the node search.

use super::event::Place;
use super::move_path::MovePath;
use super::movement::{door_touches_step, Mover};
use super::state::Game;
use citadel_grid::{Direction, Square};
use std::ops::ControlFlow;

/// The longest Move the row search takes (a longer allowance takes the
/// node search).
const MAX_DEPTH: usize = 6;
/// Rows a search of [`MAX_DEPTH`] can touch, and an empty row above and
/// below: `MAX_DEPTH` either side of a standing figure (13 rows), or
/// `MAX_DEPTH - 1` either side of a waiting figure's entry squares, which
/// span up to four rows at the Citadel's entrance (14 rows; with one row
/// less, those took the node search: 3,753 of 121,460 searches in 256
/// random classic-m1 games, at twenty times the cost of a row search, a
/// tenth of all the work).
const WINDOW: usize = 2 * MAX_DEPTH + 4;
/// Start squares the search takes (more, as at the Citadel's entrance,
/// take the node search).
const MAX_ROOTS: usize = 16;

/// `(dx, dy)` of step `k` of [`Square::ring`].
const STEPS: [(i32, i32); 8] = {
    let mut out = [(0, 0); 8];
    let mut k = 0;
    while k < 8 {
        out[k] = Direction::ALL[k].delta();
        k += 1;
    }
    out
};

/// Cells of the way-back array: 64 per window row, rounded up to a power
/// of two so that a cell index masked by `BACK_CELLS - 1` needs no bounds
/// check.
const BACK_CELLS: usize = (WINDOW * 64).next_power_of_two();

/// The way-back cell of window row `r`, column `x` (`x < 64`).
#[inline(always)]
fn cell(r: usize, x: usize) -> usize {
    (r * 64 + x) % BACK_CELLS
}

/// One bit per square of the rows of the search's window (bit `x` of word
/// `y - top + 1`).
type Rows = [u64; WINDOW];

impl Game {
    /// The move search of `m` (allowance `allowance`) by rows, or `None`
    /// where it does not apply (see the module documentation): then
    /// nothing was handed to `found`.
    pub(crate) fn row_search(
        &self,
        m: &Mover,
        allowance: usize,
        found: &mut impl FnMut(MovePath) -> ControlFlow<()>,
    ) -> Option<ControlFlow<()>> {
        let table = &self.rules.step_table;
        if m.phasing || m.captive || allowance > MAX_DEPTH || !table.has_open_rows() {
            return None;
        }
        let board = &self.rules.board;
        // Where the search starts, and after how many steps: the figure's
        // square, or a waiting figure's free entry squares (MOV-11: the
        // first square of its path).
        let mut roots = [Square::new(0, 0); MAX_ROOTS];
        let (roots, root_depth) = match self.figures[m.id.index()].place {
            Place::Board { square } => {
                roots[0] = square;
                (&roots[..1], 0)
            }
            Place::Waiting { .. } => {
                if allowance == 0 {
                    return Some(ControlFlow::Continue(()));
                }
                let mut n = 0;
                for &s in self.entry_squares(m.id) {
                    if self.figure_at(s).is_none() && board.passable(s) {
                        *roots.get_mut(n)? = s;
                        n += 1;
                    }
                }
                (&roots[..n], 1)
            }
            _ => return None,
        };
        if roots.iter().any(|s| !(0..64).contains(&s.x)) {
            return None;
        }
        let reach = (allowance - root_depth) as i32;
        // The window: board rows `top..=bottom`, at window rows 1..=rows;
        // window rows 0 and rows + 1 stay empty, so a step from any row of
        // the window lands in it.
        let lowest = roots.iter().map(|s| s.y).min().unwrap_or(0);
        let highest = roots.iter().map(|s| s.y).max().unwrap_or(-1);
        let top = (lowest - reach).max(0);
        let bottom = (highest + reach).min(board.height() - 1);
        let rows = usize::try_from(bottom - top + 1).unwrap_or(0);
        if rows + 2 > WINDOW {
            return None;
        }
        let row_of = |y: i32| (y - top + 1) as usize;
        // The window row and bit of a square, if it is in the window.
        let place = |s: Square| -> Option<(usize, u64)> {
            if s.y < top || s.y > bottom || !(0..64).contains(&s.x) {
                return None;
            }
            Some((row_of(s.y), 1u64 << s.x))
        };
        // `free`: squares a step may enter (MOV-2: no blocking token, no
        // figure in the way); `end`: squares a move may end on (MOV-7: no
        // token, no other figure). The board's side of both is in the
        // open-step bits.
        let mut free: Rows = [u64::MAX; WINDOW];
        free[0] = 0;
        free[rows + 1] = 0;
        let mut end: Rows = [u64::MAX; WINDOW];
        for t in &self.tokens {
            if let Some((r, bit)) = place(t.square) {
                end[r] &= !bit;
                if t.kind.blocking() {
                    free[r] &= !bit;
                }
            }
        }
        for o in &self.figures {
            let Some(s) = o.square() else { continue };
            let Some((r, bit)) = place(s) else { continue };
            // The grid's figure, as the step check reads it.
            let Some(other) = self.figure_at(s).filter(|f| *f != m.id) else {
                continue;
            };
            end[r] &= !bit;
            if self.figure_in_the_way(m, other).is_some() {
                free[r] &= !bit;
            }
        }
        // The board's open steps of each row of the window.
        static NO_STEPS: [u64; 8] = [0; 8];
        let mut open_rows = [&NO_STEPS; WINDOW];
        for (r, row) in open_rows[1..=rows].iter_mut().enumerate() {
            *row = table.open_row(top + r as i32).unwrap_or(&NO_STEPS);
        }
        // A Remote Controlled Door (classic) only ever adds a wall, and
        // only to the steps whose corner block holds both its squares
        // (`Game::quick_step`): those of the window are asked again with
        // the door in place, in a copy of the window's steps.
        let mended;
        if !self.card_doors.is_empty() {
            let mut steps = [[0u64; 8]; WINDOW];
            for r in 1..=rows {
                steps[r] = *open_rows[r];
            }
            for &door in &self.card_doors {
                let [p, q] = door;
                for y in p.y.min(q.y) - 1..=p.y.max(q.y) + 1 {
                    for x in p.x.min(q.x) - 1..=p.x.max(q.x) + 1 {
                        let a = Square::new(x, y);
                        let Some((r, bit)) = place(a) else { continue };
                        for (k, &(dx, dy)) in STEPS.iter().enumerate() {
                            let b = a.offset(dx, dy);
                            if steps[r][k] & bit != 0
                                && door_touches_step(door, a, b)
                                && self.step_walled(a, b)
                            {
                                steps[r][k] &= !bit;
                            }
                        }
                    }
                }
            }
            mended = steps;
            for (r, row) in open_rows.iter_mut().enumerate().take(rows + 1).skip(1) {
                *row = &mended[r];
            }
        }
        // layers[d]: the squares first reached in d steps. `back[cell(r, x)]`:
        // for a square reached after the roots, the window cell it was
        // first reached from, by the first step in ring order from a
        // square of the layer before (the way back reads it, one lookup a
        // step). Written only where a square is reached, read only there.
        let mut layers = [[0u64; WINDOW]; MAX_DEPTH + 1];
        for &s in roots {
            let (r, bit) = place(s)?;
            layers[root_depth][r] |= bit;
        }
        let mut back = [0u16; BACK_CELLS];
        let mut seen = layers[root_depth];
        let mut depth = root_depth;
        // The window rows the current layer occupies, `lo..hi`. A layer
        // never holds window row 0 or `rows + 1` (nothing may enter them),
        // so the clamps change nothing; they tell the compiler that a row
        // and both its neighbours are in the window, and the step loops
        // below then run without bounds checks.
        let occupied = |layer: &Rows| {
            let lo = layer.iter().position(|&w| w != 0).unwrap_or(0);
            let hi = layer.iter().rposition(|&w| w != 0).map_or(0, |r| r + 1);
            (lo.max(1), hi.min(WINDOW - 1))
        };
        let (mut lo, mut hi) = occupied(&layers[root_depth]);
        while depth < allowance {
            let mut next: Rows = [0; WINDOW];
            let layer = &layers[depth];
            // Step by step in ring order, so the first step to reach a
            // square is the one recorded; each step's shift and row
            // offset are constants of its own copy of the loop.
            macro_rules! take_step {
                ($k:expr) => {{
                    const K: usize = $k;
                    const DX: i32 = STEPS[K].0;
                    const DY: i32 = STEPS[K].1;
                    for r in lo..hi {
                        let movers = layer[r] & open_rows[r][K];
                        let moved = match DX {
                            1 => movers << 1,
                            -1 => movers >> 1,
                            _ => movers,
                        };
                        let to = r.wrapping_add_signed(DY as isize);
                        let mut new = moved & free[to] & !seen[to];
                        seen[to] |= new;
                        next[to] |= new;
                        while new != 0 {
                            let x = new.trailing_zeros() as usize;
                            // The square it came from: x - DX of row r,
                            // in 0..64 as the bit it was shifted from.
                            let from = cell(r, x).wrapping_add_signed(-DX as isize);
                            back[cell(to, x)] = from as u16;
                            new &= new - 1;
                        }
                    }
                }};
            }
            take_step!(0);
            take_step!(1);
            take_step!(2);
            take_step!(3);
            take_step!(4);
            take_step!(5);
            take_step!(6);
            take_step!(7);
            (lo, hi) = occupied(&next);
            if lo >= hi {
                break;
            }
            depth += 1;
            layers[depth] = next;
        }
        // The path to square `s` of layer `d` (then `extra`), read back
        // along the recorded steps.
        let path_to = |s: Square, d: usize, extra: Option<Square>| {
            // `s` is in the window (0 <= x < 64), as every reached square.
            let mut at = cell(row_of(s.y), s.x as usize);
            MovePath::read_back(d, extra, || {
                let here = Square::new((at % 64) as i32, top - 1 + (at / 64) as i32);
                at = usize::from(back[at % BACK_CELLS]);
                here
            })
        };
        let exits: &[&[_]] = if m.team.is_some() {
            &[&self.rules.white, &self.rules.red, &self.rules.exits]
        } else {
            &[]
        };
        for (d, layer) in layers.iter().enumerate().take(depth + 1).skip(root_depth) {
            if d > 0 {
                for r in 1..=rows {
                    let mut ends = layer[r] & end[r];
                    while ends != 0 {
                        let x = ends.trailing_zeros() as i32;
                        ends &= ends - 1;
                        let s = Square::new(x, top + r as i32 - 1);
                        if let ControlFlow::Break(()) = found(path_to(s, d, None)) {
                            return Some(ControlFlow::Break(()));
                        }
                    }
                }
            }
            if d < allowance {
                for e in exits.iter().flat_map(|list| list.iter()) {
                    for &(inside, outside) in &e.outside {
                        let Some((r, bit)) = place(inside) else {
                            continue;
                        };
                        if layer[r] & bit != 0 {
                            if let ControlFlow::Break(()) = found(path_to(inside, d, Some(outside)))
                            {
                                return Some(ControlFlow::Break(()));
                            }
                        }
                    }
                }
            }
        }
        Some(ControlFlow::Continue(()))
    }
}

#[cfg(test)]
mod tests {
    use super::MAX_DEPTH;
    use crate::game::playable::visit_random_games;
    use crate::game::{Game, MovePath, Place};
    use citadel_grid::Square;
    use std::collections::BTreeMap;
    use std::ops::ControlFlow;

    /// In positions of random games of every playable mission, for every
    /// figure on the board or waiting to enter, the row search (where it
    /// applies) lists the node search's destinations and exits, with
    /// paths of the same lengths, that the Move check accepts.
    #[test]
    fn the_row_search_finds_what_the_node_search_finds() {
        let mut compared = 0usize;
        let mut destinations = 0usize;
        let mut with_card_doors = 0usize;
        let mut wide_entrances = 0usize;
        visit_random_games(3, 600, 0x5ea5c4, |g, n| {
            if n % 25 == 0 || (!g.card_doors.is_empty() && n % 5 == 0) {
                let (c, d, w) = compare(g);
                compared += c;
                destinations += d;
                wide_entrances += w;
                if !g.card_doors.is_empty() {
                    with_card_doors += c;
                }
            }
        });
        // The row search ran on many positions and found much, Remote
        // Controlled Doors in play among them.
        assert!(compared > 1000, "{compared} searches compared");
        assert!(destinations > 20_000, "{destinations} destinations");
        assert!(with_card_doors > 100, "{with_card_doors} with card doors");
        // Figures waiting at an entrance of four rows (the Citadel's) with
        // the full allowance of a Move: the widest window.
        assert!(wide_entrances > 20, "{wide_entrances} at wide entrances");
    }

    /// Compare the two searches for every figure of `g` on the board:
    /// (searches compared, destinations found, searches of waiting
    /// figures whose window has 14 rows, the most it can have).
    fn compare(g: &Game) -> (usize, usize, usize) {
        let (mut compared, mut destinations, mut wide) = (0, 0, 0);
        let placed = |f: &&crate::game::Figure| {
            matches!(f.place, Place::Board { .. } | Place::Waiting { .. })
        };
        for f in g.figures.iter().filter(placed) {
            let m = g.mover(f.id);
            for allowance in [1, 3, g.allowance(f.id)] {
                let mut rows = Vec::new();
                let ran = g.row_search(&m, allowance, &mut |p| {
                    rows.push(p);
                    ControlFlow::Continue(())
                });
                if ran.is_none() {
                    continue;
                }
                let mut nodes = Vec::new();
                let _ = g.node_search(&m, allowance, |p| {
                    nodes.push(p);
                    ControlFlow::Continue(())
                });
                let ends = |list: &[MovePath]| -> BTreeMap<(Square, usize), usize> {
                    let mut out = BTreeMap::new();
                    for p in list {
                        let last = *p.last().expect("a path has a square");
                        *out.entry((last, p.len())).or_default() += 1;
                    }
                    out
                };
                assert_eq!(
                    ends(&rows),
                    ends(&nodes),
                    "{:?} allowance {allowance}",
                    f.id
                );
                if allowance == g.allowance(f.id) {
                    for p in &rows {
                        assert!(g.check_path(f.id, p).is_ok(), "{:?}: {p:?}", f.id);
                    }
                }
                compared += 1;
                destinations += rows.len();
                // The rows of the search's window, as it works them out
                // from the free entry squares.
                let window_rows = || {
                    let ys: Vec<i32> = g
                        .entry_squares(f.id)
                        .iter()
                        .filter(|s| g.figure_at(**s).is_none() && g.rules.board.passable(**s))
                        .map(|s| s.y)
                        .collect();
                    let reach = allowance as i32 - 1;
                    let top = (ys.iter().min().unwrap_or(&0) - reach).max(0);
                    let bottom =
                        (ys.iter().max().unwrap_or(&0) + reach).min(g.rules.board.height() - 1);
                    (bottom - top + 1) as usize
                };
                if matches!(f.place, Place::Waiting { .. }) && window_rows() + 2 > 2 * MAX_DEPTH + 3
                {
                    wide += 1;
                }
            }
        }
        (compared, destinations, wide)
    }
}
