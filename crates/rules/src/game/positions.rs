//! Where figures and tokens are: occupancy, door states (BRD-6) and the
//! placement rules shared by force cards and events (FRC-5, MOV-15).

use super::event::{Event, Place};
use super::ids::{FigureId, Side};
use super::state::{FigureKind, Game, Token, TokenState};
use crate::content::CreatureKind;
use citadel_grid::{SightBlockers, Square};

impl Game {
    fn cell_index(&self, s: Square) -> Option<usize> {
        let b = &self.rules.board;
        (s.x >= 0 && s.y >= 0 && s.x < b.width() && s.y < b.height())
            .then(|| (s.y * b.width() + s.x) as usize)
    }

    /// The figure standing on `s`.
    pub fn figure_at(&self, s: Square) -> Option<FigureId> {
        self.cell_index(s).and_then(|i| self.occupancy[i])
    }

    /// The token on `s`.
    pub fn token_at(&self, s: Square) -> Option<&Token> {
        self.tokens.iter().find(|t| t.square == s)
    }

    /// Move a figure to a new place, keeping occupancy and doors right.
    pub(crate) fn set_place(&mut self, id: FigureId, place: Place) {
        // A figure passing through a friend (MOV-6) shares its square for a
        // moment: the grid keeps the figure that stands there.
        let old = self.figures[id.index()].square();
        if let Some(c) = old.and_then(|s| self.cell_index(s)) {
            if self.occupancy[c] == Some(id) {
                self.occupancy[c] = None;
            }
        }
        self.figures[id.index()].place = place;
        if let Place::Board { square } = place {
            if let Some(c) = self.cell_index(square) {
                if self.occupancy[c].is_none() {
                    self.occupancy[c] = Some(id);
                }
            }
        }
        if self.figures[id.index()].creature().is_some() {
            self.update_doors();
            // A captive (classic CSM card 2) that leaves play is nobody's.
            if matches!(place, Place::Reserve | Place::Eliminated) {
                self.release_captive(id);
            }
        }
    }

    /// BRD-6: a group is open while a DL figure stands on a square that has
    /// one of its edges as a side. Recomputed whenever a DL figure moves.
    pub(crate) fn update_doors(&mut self) {
        if self.rules.doors.is_empty() && self.card_doors.is_empty() {
            return;
        }
        self.set_door_overlay();
    }

    /// The closed-door overlay of the walls: closed mission doors and the
    /// doors of Remote Controlled Door (classic), always closed.
    pub(crate) fn set_door_overlay(&mut self) {
        let mut closed: Vec<_> = (0..self.rules.doors.len())
            .filter(|&g| !self.door_open(g, None))
            .flat_map(|g| self.rules.doors[g].iter().copied())
            .collect();
        closed.extend(
            self.card_doors
                .iter()
                .filter_map(|[a, b]| citadel_grid::Edge::between(*a, *b)),
        );
        self.walls.set_closed_doors(closed);
    }

    /// Is door group `g` open or removed? `dl_mover_at` is the square of a
    /// DL figure moving now (BRD-9: the state is judged with the mover on
    /// its start square); its recorded square is ignored.
    pub(crate) fn door_open(&self, g: usize, dl_mover: Option<(FigureId, Square)>) -> bool {
        if self.door_removed[g] {
            return true;
        }
        self.rules.door_squares[g].iter().any(|s| match dl_mover {
            Some((_, at)) if *s == at => true,
            _ => self.figure_at(*s).is_some_and(|f| {
                self.figures[f.index()].creature().is_some() && dl_mover.is_none_or(|(m, _)| m != f)
            }),
        })
    }

    /// The door group a step's shared edge belongs to, if any.
    pub(crate) fn door_of_edge(&self, e: citadel_grid::Edge) -> Option<usize> {
        self.rules.door_index.group(e)
    }

    /// FRC-5 / MOV-7: a square where a DL figure may be placed on `tile`:
    /// passable, empty, no token, not adjacent to any DT.
    pub(crate) fn placement_ok(&self, s: Square, tile: Option<usize>) -> bool {
        let b = &self.rules.board;
        if let Some(t) = tile {
            if b.tile_of(s) != Some(t) {
                return false;
            }
        }
        b.passable(s)
            && self.figure_at(s).is_none()
            && self.token_at(s).is_none()
            && !s.ring().iter().any(|n| {
                self.figure_at(*n).is_some_and(|f| {
                    self.figures[f.index()].team().is_some() && self.walls.adjacent(b, s, *n)
                })
            })
    }

    /// Every legal placement square of a tile, in `(y, x)` order.
    pub(crate) fn placement_squares(&self, tile: usize) -> Vec<Square> {
        self.rules
            .tile_squares(tile)
            .filter(|s| self.placement_ok(*s, Some(tile)))
            .collect()
    }

    /// The lowest-id figure of `kind` still in the DL pool (DL-1).
    pub(crate) fn pool_figure(&self, kind: CreatureKind) -> Option<FigureId> {
        self.figures
            .iter()
            .find(|f| f.creature() == Some(kind) && f.place == Place::Reserve)
            .map(|f| f.id)
    }

    /// How many of `kind` the pool holds.
    pub(crate) fn pool_count(&self, kind: CreatureKind) -> usize {
        self.figures
            .iter()
            .filter(|f| f.creature() == Some(kind) && f.place == Place::Reserve)
            .count()
    }

    /// Put a DL figure from the pool on a square; emits `Placed`.
    pub(crate) fn place_creature(
        &mut self,
        kind: CreatureKind,
        square: Square,
        events: &mut Vec<Event>,
    ) -> Option<FigureId> {
        let id = self.pool_figure(kind)?;
        self.set_place(id, Place::Board { square });
        self.tag_placed(id);
        events.push(Event::Placed { figure: id, square });
        Some(id)
    }

    /// True if the two figures are enemies.
    pub(crate) fn enemies(&self, a: FigureId, b: FigureId) -> bool {
        let sa = self.figures[a.index()].side();
        let sb = self.figures[b.index()].side();
        matches!(
            (sa, sb),
            (Side::DarkLegion, Side::Team(_)) | (Side::Team(_), Side::DarkLegion)
        )
    }

    /// On-board DTs.
    pub(crate) fn dts_on_board(&self) -> impl Iterator<Item = &super::state::Figure> {
        self.figures
            .iter()
            .filter(|f| matches!(f.kind, FigureKind::Doomtrooper { .. }) && f.square().is_some())
    }

    /// Is an enemy of `id` adjacent (ADJ-4) to `s`?
    pub(crate) fn enemies_adjacent(&self, id: FigureId, s: Square) -> Vec<FigureId> {
        let b = &self.rules.board;
        let mut v: Vec<FigureId> = s
            .ring()
            .iter()
            .filter_map(|n| self.figure_at(*n).filter(|_| self.walls.adjacent(b, s, *n)))
            .filter(|f| *f != id && self.enemies(id, *f))
            .collect();
        v.sort();
        v
    }
}

/// Line of sight sees figures and cover tokens through this.
impl SightBlockers for Game {
    fn figure_at(&self, s: Square) -> bool {
        Game::figure_at(self, s).is_some()
    }

    fn cover_at(&self, s: Square) -> bool {
        self.token_at(s).is_some_and(|t| t.kind.cover())
    }
}

impl TokenState {
    /// A trap token.
    pub fn is_trap(&self) -> bool {
        matches!(self, TokenState::Trap { .. })
    }
}
