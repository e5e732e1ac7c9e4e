//! The parts of a step's legality (MOV-2) that only the board decides,
//! worked out once per board.
//!
//! The move search of `legal()` tries all eight steps from every square a
//! figure can reach, for every figure that may act, on every call. Most of
//! [`Game::check_step`](super::state::Game)'s work for a step is about the
//! board alone: on-board, passable, stairs levels, static walls and, for a
//! diagonal, the ADJ-3 corner routes. That answer is the same for every
//! game of the board, so it is kept per board in [`Rules`] and the search
//! asks the game only what changes: tokens and figures on the target
//! square. A step that touches a door edge is left to the full check,
//! because doors open, close and are removed during play.
//!
//! [`Rules`]: super::state::Rules

use super::door_index::DoorIndex;
use super::movement::level_rank;
use citadel_grid::{Board, Edge, Square, Walls};

/// What the board alone says about one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StepKind {
    /// Never legal on this board (off the board, impassable target,
    /// a level change of two or more, a static wall, a sealed diagonal).
    Blocked,
    /// Legal as far as the board goes and no door edge is involved: only
    /// what stands on the target square can stop it.
    Open,
    /// A door edge is involved: ask the full check.
    Door,
}

const BITS: u32 = 2;
const BLOCKED: u16 = 0;
const OPEN: u16 = 1;
const DOOR: u16 = 2;

/// [`StepKind`] for each square of the board's bounding box and each of
/// the eight steps of [`Square::ring`], two bits a step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct StepTable {
    steps: Vec<u16>,
    /// Row by row, for each of the eight steps: bit `x` set when the step
    /// from `(x, y)` is [`StepKind::Open`]. Kept only for a board at most
    /// 64 squares wide with no door edge at all (every 1993 board), where
    /// the move search runs on whole rows at once (`Game::row_search`).
    open_rows: Vec<[u64; 8]>,
}

impl StepTable {
    /// The table of `board`, whose door groups are indexed by `doors`.
    pub(crate) fn new(board: &Board, doors: &DoorIndex) -> StepTable {
        let walls = Walls::new(board);
        let (w, h) = (board.width(), board.height());
        let mut steps = vec![BLOCKED; usize::try_from(w * h).unwrap_or(0)];
        let mut open_rows = vec![[0u64; 8]; usize::try_from(h).unwrap_or(0)];
        let mut any_door = false;
        for y in 0..h {
            any_door |= fill_row(board, &walls, doors, y, &mut steps, &mut open_rows);
        }
        StepTable::finish(steps, open_rows, any_door, w)
    }

    /// The table of `board`, `self` being the table of `old` (the same
    /// doors): the rows whose steps can differ are worked out again, the
    /// others kept. Classic event 11 turns or swaps sectors of the board
    /// in play; the rows outside them, and not next to them, keep every
    /// step. Equal to [`Self::new`] of `board`.
    pub(crate) fn rebuilt(&self, old: &Board, board: &Board, doors: &DoorIndex) -> StepTable {
        let (w, h) = (board.width(), board.height());
        // Kept rows must hold no door step (a table with a door anywhere
        // keeps no open rows to copy).
        if self.open_rows.is_empty() || (old.width(), old.height()) != (w, h) {
            return StepTable::new(board, doors);
        }
        let same: Vec<bool> = (-1..=h).map(|y| board.same_row(old, y)).collect();
        let walls = Walls::new(board);
        let mut steps = self.steps.clone();
        let mut open_rows = self.open_rows.clone();
        let mut any_door = false;
        for y in 0..h {
            // `same[i]` is row `i - 1`.
            let i = (y + 1) as usize;
            if !(same[i - 1] && same[i] && same[i + 1]) {
                any_door |= fill_row(board, &walls, doors, y, &mut steps, &mut open_rows);
            }
        }
        StepTable::finish(steps, open_rows, any_door, w)
    }

    /// The table of these rows; the open rows are kept only for a board
    /// with no door step and at most 64 squares (a row's bits) wide.
    fn finish(steps: Vec<u16>, open_rows: Vec<[u64; 8]>, any_door: bool, width: i32) -> StepTable {
        let open_rows = if any_door || width > 64 {
            Vec::new()
        } else {
            open_rows
        };
        StepTable { steps, open_rows }
    }

    /// The open steps of row `y` ([`Self::open_rows`]), or `None` when the
    /// board keeps none (too wide, door edges) or `y` is off it.
    #[inline]
    pub(crate) fn open_row(&self, y: i32) -> Option<&[u64; 8]> {
        self.open_rows.get(usize::try_from(y).ok()?)
    }

    /// Does this board keep [`Self::open_rows`]?
    #[inline]
    pub(crate) fn has_open_rows(&self) -> bool {
        !self.open_rows.is_empty()
    }

    /// The eight steps from the square of board index `from`, for
    /// [`Self::kind`] (all blocked off the board).
    #[inline]
    pub(crate) fn row(&self, from: usize) -> u16 {
        self.steps.get(from).copied().unwrap_or(BLOCKED)
    }

    /// The `k`-th step of a [`Self::row`].
    #[inline]
    pub(crate) fn kind(row: u16, k: usize) -> StepKind {
        match (row >> (BITS * k as u32)) & ((1 << BITS) - 1) {
            OPEN => StepKind::Open,
            DOOR => StepKind::Door,
            _ => StepKind::Blocked,
        }
    }
}

/// Work out the steps of row `y` into `steps` (row-major, the board's
/// width) and `open_rows[y]`; true if a step of the row touches a door.
fn fill_row(
    board: &Board,
    walls: &Walls,
    doors: &DoorIndex,
    y: i32,
    steps: &mut [u16],
    open_rows: &mut [[u64; 8]],
) -> bool {
    let w = board.width();
    let mut row = [0u64; 8];
    let mut any_door = false;
    for x in 0..w {
        let a = Square::new(x, y);
        let mut bits = 0u16;
        if board.on_board(a) {
            for (k, b) in a.ring().into_iter().enumerate() {
                let kind = match classify(board, walls, doors, a, b) {
                    StepKind::Blocked => BLOCKED,
                    StepKind::Open => {
                        if x < 64 {
                            row[k] |= 1 << x;
                        }
                        OPEN
                    }
                    StepKind::Door => {
                        any_door = true;
                        DOOR
                    }
                };
                bits |= kind << (BITS * k as u32);
            }
        }
        if let Some(cell) = usize::try_from(y * w + x)
            .ok()
            .and_then(|i| steps.get_mut(i))
        {
            *cell = bits;
        }
    }
    if let Some(r) = usize::try_from(y).ok().and_then(|y| open_rows.get_mut(y)) {
        *r = row;
    }
    any_door
}

/// What the board says about the step `a → b` (neighbours): the static
/// checks of `Game::check_step`, in its terms.
fn classify(board: &Board, walls: &Walls, doors: &DoorIndex, a: Square, b: Square) -> StepKind {
    if !board.on_board(b) || !board.passable(b) {
        return StepKind::Blocked;
    }
    if let (Some(la), Some(lb)) = (board.level(a), board.level(b)) {
        if level_rank(la).abs_diff(level_rank(lb)) > 1 {
            return StepKind::Blocked;
        }
    }
    if a.is_orthogonal_neighbour(b) {
        let Some(e) = Edge::between(a, b) else {
            return StepKind::Blocked;
        };
        if walls.is_static_wall(e) {
            return StepKind::Blocked;
        }
        return if doors.group(e).is_some() {
            StepKind::Door
        } else {
            StepKind::Open
        };
    }
    // Diagonal (ADJ-3): two corner routes, each closed by a wall on
    // either of its edges.
    let c = Square::new(b.x, a.y);
    let d = Square::new(a.x, b.y);
    let edges = [(a, c), (c, b), (a, d), (d, b)].map(|(p, q)| Edge::between(p, q));
    if edges.iter().flatten().any(|e| doors.group(*e).is_some()) {
        return StepKind::Door;
    }
    let wall = |i: usize| edges[i].is_some_and(|e| walls.is_static_wall(e));
    if (wall(0) || wall(1)) && (wall(2) || wall(3)) {
        StepKind::Blocked
    } else {
        StepKind::Open
    }
}

#[cfg(test)]
mod tests {
    use super::StepTable;
    use crate::game::playable::visit_random_games;
    use crate::game::Game;

    /// For every figure on the board, from every square to each of its
    /// eight neighbours, `Game::quick_step` answers exactly what the full
    /// step check answers wherever it claims to know, in the positions of
    /// random games of every playable mission of both editions (CE boards
    /// have doors; 1993 games place Remote Controlled Doors).
    #[test]
    fn the_table_agrees_with_the_full_step_check() {
        let mut checked = [0usize; 3];
        let mut card_door_positions = 0;
        visit_random_games(2, 400, 0x7ab1e, |g, n| {
            if n % 60 == 0 || (!g.card_doors.is_empty() && n % 20 == 0) {
                agree(g, &mut checked);
                card_door_positions += usize::from(!g.card_doors.is_empty());
            }
        });
        // Every kind of answer was met and checked.
        assert!(checked.iter().all(|&c| c > 1000), "{checked:?}");
        assert!(card_door_positions > 0, "a Remote Controlled Door was met");
    }

    fn agree(g: &Game, checked: &mut [usize; 3]) {
        let board = &g.rules.board;
        let table = &g.rules.step_table;
        for f in g.figures.iter().filter(|f| f.square().is_some()) {
            let m = g.mover(f.id);
            for a in board.squares() {
                let Some(from) = board.index(a) else { continue };
                for (k, b) in a.ring().into_iter().enumerate() {
                    let full = g.check_step(&m, a, b, &[]);
                    match g.quick_step(&m, StepTable::kind(table.row(from), k), a, b) {
                        Some(false) => {
                            assert!(full.is_err(), "{a} -> {b} illegal, check says {full:?}");
                            checked[0] += 1;
                        }
                        Some(true) => {
                            assert_eq!(full, Ok(None), "{a} -> {b} for {:?}", f.id);
                            checked[1] += 1;
                        }
                        None => checked[2] += 1,
                    }
                }
            }
        }
    }
}
