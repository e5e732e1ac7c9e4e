//! Classic event 11, Nepharite Altered Reality (classic.md CEV-1): the Dark
//! Legion turns one sector a quarter turn with everything on it, or trades
//! the places of two sectors without turning them.
//!
//! The board of a game is part of its [`Rules`], shared by every clone of
//! the game; a change builds new rules for this game alone from the
//! altered layout, through the same loader checks a mission record passes
//! (MAP-16 entrances, tokens on passable squares, MAP-17 reachability), and
//! moves every figure and token of the moved sectors with them. The change
//! is kept in the game state ([`Game::layout_changes`]), so a checksum of
//! the state covers the board, and a replay makes the same board because
//! the same command makes the same change.
//!
//! Decisions where the rules are silent (docs/RULES-COVERAGE.md, classic
//! section): entrances and exits stay where they are on the board edge
//! (they are the mission's, not the sector's), and a change that would put
//! an entry square on an impassable square or behind a wall, or a figure or
//! token under the Citadel piece, is illegal;
//! "Citadel sectors keep their slots" forbids swapping a Citadel sector,
//! not turning it in place; a sector holding a door group never moves (no
//! 1993 mission has doors). The Dark Legion may also leave the board as
//! it is (the AI's policy leaves it when its one choice is illegal), and
//! that is the default answer.

use crate::content::missions::{Entrance, EntranceRef, MissionDef};
use crate::content::tiles::TileDef;
use crate::game::event::{Event, Place};
use crate::game::state::{Game, Rules};
use citadel_grid::{Board, Square, Walls};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The sector the rules never move (CEV-1: "sector 7").
const FIXED_SECTOR: u32 = 7;

/// One change of the board's layout (classic event 11). Sectors are
/// indices into the board's tiles, as [`super::Command::ChooseTile`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum SectorChange {
    /// Turn one sector a quarter turn in its slot.
    Rotate {
        /// The sector (tile index).
        tile: usize,
        /// Clockwise (`true`) or anticlockwise.
        clockwise: bool,
    },
    /// Trade the slots of two sectors, neither turned.
    Swap {
        /// One sector (tile index), the lower.
        a: usize,
        /// The other, higher.
        b: usize,
    },
}

impl SectorChange {
    /// Where the change takes square `s` of `board` (squares of sectors
    /// it does not move stay put).
    pub fn map_square(self, board: &Board, s: Square) -> Square {
        let Some(t) = board.tile_of(s) else {
            return s;
        };
        let origin = |i: usize| board.tiles.get(i).map(|p| p.origin);
        match self {
            SectorChange::Rotate { tile, clockwise } if t == tile => {
                let Some(o) = origin(tile) else { return s };
                let (x, y) = (s.x - o.x, s.y - o.y);
                // MAP-12: clockwise (x, y) → (7 − y, x).
                let (nx, ny) = if clockwise { (7 - y, x) } else { (y, 7 - x) };
                Square::new(o.x + nx, o.y + ny)
            }
            SectorChange::Swap { a, b } if t == a || t == b => {
                let other = if t == a { b } else { a };
                match (origin(t), origin(other)) {
                    (Some(from), Some(to)) => Square::new(s.x - from.x + to.x, s.y - from.y + to.y),
                    _ => s,
                }
            }
            _ => s,
        }
    }

    fn moves(self, tile: usize) -> bool {
        match self {
            SectorChange::Rotate { tile: t, .. } => t == tile,
            SectorChange::Swap { a, b } => a == tile || b == tile,
        }
    }
}

/// A layout change the board allows ([`Rules::sector_memo`]): the change,
/// and the mission record and board it makes, checked by the loader.
#[derive(Debug)]
pub(crate) struct BoardChange {
    change: SectorChange,
    mission: MissionDef,
    board: Board,
}

impl Rules {
    /// The layout changes this board allows, in CONV-8 order, each
    /// checked once per rules (each check builds and validates a whole
    /// board).
    fn board_changes(&self) -> &[BoardChange] {
        self.sector_memo.get_or_init(|| {
            candidate_changes(self.board.tiles.len())
                .filter_map(|change| {
                    let (mission, board) = self.board_change(change)?;
                    Some(BoardChange {
                        change,
                        mission,
                        board,
                    })
                })
                .collect()
        })
    }

    /// The mission record and board of this board with `change` made, or
    /// `None` if the board forbids it (what stands on it is not looked
    /// at here).
    fn board_change(&self, change: SectorChange) -> Option<(MissionDef, Board)> {
        let rules = self;
        let board = &rules.board;
        let n = board.tiles.len();
        let citadel = |i: usize| {
            rules.mission.citadel.is_some_and(|c| {
                let o = board.tiles[i].origin;
                (o.x == c.x || o.x + 8 == c.x) && (o.y == c.y || o.y + 8 == c.y)
            })
        };
        let moved: Vec<usize> = (0..n).filter(|&i| change.moves(i)).collect();
        let legal_sectors = match change {
            SectorChange::Rotate { tile, .. } => tile < n,
            SectorChange::Swap { a, b } => a < b && b < n && !citadel(a) && !citadel(b),
        };
        if !legal_sectors
            || moved.iter().any(|&i| board.tiles[i].id == FIXED_SECTOR)
            || rules.doors.iter().flatten().any(|e| {
                let (p, q) = e.squares();
                [p, q]
                    .iter()
                    .any(|s| board.tile_of(*s).is_some_and(|t| moved.contains(&t)))
            })
        {
            return None;
        }
        let mut mission = rules.mission.clone();
        let tile_ids: Vec<u32> = moved.iter().map(|&i| board.tiles[i].id).collect();
        let cell_of = |m: &MissionDef, id: u32| m.layout.cells.iter().position(|c| c.tile == id);
        match change {
            SectorChange::Rotate { clockwise, .. } => {
                let i = cell_of(&mission, *tile_ids.first()?)?;
                let cell = &mut mission.layout.cells[i];
                cell.rotation = (cell.rotation + if clockwise { 90 } else { 270 }) % 360;
            }
            SectorChange::Swap { .. } => {
                let (i, j) = (
                    cell_of(&mission, *tile_ids.first()?)?,
                    cell_of(&mission, *tile_ids.get(1)?)?,
                );
                let (ci, ri) = (mission.layout.cells[i].col, mission.layout.cells[i].row);
                let (cj, rj) = (mission.layout.cells[j].col, mission.layout.cells[j].row);
                (mission.layout.cells[i].col, mission.layout.cells[i].row) = (cj, rj);
                (mission.layout.cells[j].col, mission.layout.cells[j].row) = (ci, ri);
            }
        }
        for t in &mut mission.tokens {
            t.square = change.map_square(board, t.square);
        }
        for f in &mut mission.figures {
            f.square = change.map_square(board, f.square);
        }
        // Entrances stay on the board edge: state them by their squares.
        let fixed = |list: &mut Vec<(String, EntranceRef)>, resolved: &[Entrance]| {
            for ((_, r), e) in list.iter_mut().zip(resolved) {
                if !matches!(r, EntranceRef::Citadel) {
                    *r = EntranceRef::Squares(e.squares.clone());
                }
            }
        };
        fixed(&mut mission.white, &rules.white);
        fixed(&mut mission.red, &rules.red);
        fixed(&mut mission.exits, &rules.exits);
        let new_board = mission.validate(&rules.tile_defs).ok()?;
        let same = |list: &[(String, EntranceRef)], old: &[Entrance]| {
            list.iter().zip(old).all(|((id, r), e)| {
                MissionDef::resolve_entrance(&new_board, mission.citadel, id, r).as_ref() == Ok(e)
            })
        };
        if !(same(&mission.white, &rules.white)
            && same(&mission.red, &rules.red)
            && same(&mission.exits, &rules.exits))
        {
            return None;
        }
        Some((mission, new_board))
    }
}

/// Every turn and swap of the sectors of a board of `n` sectors, in
/// CONV-8 order: turns (sector by sector, clockwise first), then swaps.
fn candidate_changes(n: usize) -> impl Iterator<Item = SectorChange> {
    let turns = (0..n)
        .flat_map(|tile| [true, false].map(|clockwise| SectorChange::Rotate { tile, clockwise }));
    let swaps = (0..n).flat_map(move |a| (a + 1..n).map(move |b| SectorChange::Swap { a, b }));
    turns.chain(swaps)
}

impl Game {
    /// The board changes of classic event 11 that the rules allow now, in
    /// CONV-8 order.
    pub(crate) fn sector_changes(&self) -> Vec<SectorChange> {
        self.rules
            .board_changes()
            .iter()
            .filter(|c| self.allows(c))
            .map(|c| c.change)
            .collect()
    }

    /// Is any board change legal now?
    pub(crate) fn any_sector_change(&self) -> bool {
        self.rules.board_changes().iter().any(|c| self.allows(c))
    }

    /// Is `change` one of [`Self::sector_changes`]?
    pub(crate) fn sector_change_legal(&self, change: SectorChange) -> bool {
        self.board_change_now(change).is_some()
    }

    /// The board's entry for `change`, if the game allows it now.
    fn board_change_now(&self, change: SectorChange) -> Option<(MissionDef, Board)> {
        self.rules
            .board_changes()
            .iter()
            .find(|c| c.change == change && self.allows(c))
            .map(|c| (c.mission.clone(), c.board.clone()))
    }

    /// What the game adds to the board's checks: a Remote Controlled Door
    /// stays where it was placed, and what stands on a moved sector must
    /// land on a passable square (the Citadel piece stays where it is over
    /// the sectors' corners, so a turned Citadel sector may bring a square
    /// under it).
    fn allows(&self, c: &BoardChange) -> bool {
        let board = &self.rules.board;
        let change = c.change;
        let moved = |s: &Square| board.tile_of(*s).is_some_and(|t| change.moves(t));
        if self.card_doors.iter().flatten().any(moved) {
            return false;
        }
        let lands = |s: Square| c.board.passable(change.map_square(board, s));
        self.figures.iter().filter_map(|f| f.square()).all(lands)
            && self.tokens.iter().all(|t| lands(t.square))
    }

    /// Make `change` (checked legal by the caller): new rules for this
    /// game, and everything on the moved sectors moved with them.
    pub(crate) fn alter_reality(&mut self, change: SectorChange, events: &mut Vec<Event>) {
        let Some((mission, board)) = self.board_change_now(change) else {
            return;
        };
        let old = Arc::clone(&self.rules);
        let rules = old.with_board(mission, board);
        let map = |s: Square| change.map_square(&old.board, s);
        for f in &mut self.figures {
            if let Place::Board { square } = f.place {
                f.place = Place::Board {
                    square: map(square),
                };
            }
        }
        for t in self.tokens.iter_mut().chain(self.destroyed.iter_mut()) {
            t.square = map(t.square);
        }
        for (_, s) in &mut self.specials_at {
            *s = map(*s);
        }
        self.rules = Arc::new(rules);
        self.walls = Walls::new(&self.rules.board);
        self.occupancy.iter_mut().for_each(|o| *o = None);
        let width = self.rules.board.width();
        for f in &self.figures {
            if let Place::Board { square } = f.place {
                if let Some(o) = self
                    .occupancy
                    .get_mut((square.y * width + square.x) as usize)
                {
                    o.get_or_insert(f.id);
                }
            }
        }
        self.update_doors();
        self.layout_changes.push(change);
        events.push(Event::SectorsAltered { change });
    }
}

/// The definitions of the tiles `mission` places, for rebuilding its
/// board ([`Rules::tile_defs`]).
pub(crate) fn placed_tile_defs(mission: &MissionDef, tiles: &[TileDef]) -> Vec<TileDef> {
    tiles
        .iter()
        .filter(|t| mission.layout.cells.iter().any(|c| c.tile == t.id))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::game::playable::visit_random_games;
    use crate::game::step_table::StepTable;

    /// The step table of a board changed by event 11, kept where rows did
    /// not change and worked out again where they did, is the table of
    /// the changed board worked out whole: every turn and swap the boards
    /// of random games of every playable mission allow.
    #[test]
    fn a_changed_boards_step_table_is_the_whole_table_of_that_board() {
        let mut changes = 0usize;
        let mut seen: Vec<*const crate::game::state::Rules> = Vec::new();
        visit_random_games(2, 200, 0xa17e, |g, _| {
            let rules: &crate::game::state::Rules = &g.rules;
            if seen.contains(&(rules as *const _)) {
                return;
            }
            seen.push(rules as *const _);
            for c in rules.board_changes() {
                let kept = rules
                    .step_table
                    .rebuilt(&rules.board, &c.board, &rules.door_index);
                let whole = StepTable::new(&c.board, &rules.door_index);
                assert!(kept == whole, "{:?}", c.change);
                changes += 1;
            }
        });
        assert!(changes > 100, "{changes} board changes");
    }
}
