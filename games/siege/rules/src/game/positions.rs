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

    /// Every legal placement square of a tile, in `(y, x)` order: the
    /// squares [`Self::placement_ok`] accepts. The squares next to a DT
    /// and those holding a token are found once for the tile rather than
    /// asked square by square (a DL placement lists a whole tile).
    pub(crate) fn placement_squares(&self, tile: usize) -> Vec<Square> {
        let b = &self.rules.board;
        // Squares open-adjacent to a DT the grid holds (adjacency is
        // symmetric), and token squares, by board cell.
        let mut barred = vec![false; self.occupancy.len()];
        let mut bar = |s: Square| {
            if let Some(i) = self.cell_index(s) {
                barred[i] = true;
            }
        };
        for f in &self.figures {
            let Some(d) = f.square() else { continue };
            if f.team().is_none() || self.figure_at(d) != Some(f.id) {
                continue;
            }
            for n in d.ring() {
                if self.walls.adjacent(b, n, d) {
                    bar(n);
                }
            }
        }
        for t in &self.tokens {
            bar(t.square);
        }
        self.rules
            .tile_squares(tile)
            .filter(|s| {
                b.tile_of(*s) == Some(tile)
                    && b.passable(*s)
                    && self
                        .cell_index(*s)
                        .is_some_and(|i| self.occupancy[i].is_none() && !barred[i])
            })
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

#[cfg(test)]
mod tests {
    use crate::game::playable::visit_random_games;

    /// The placement list of a tile is the tile's squares that the
    /// one-square check (FRC-5 / MOV-7) accepts, in positions of random
    /// games of every playable mission, DTs on the board among them.
    #[test]
    fn the_placement_list_is_what_the_square_check_accepts() {
        let (mut tiles, mut barred_by_dt) = (0usize, 0usize);
        visit_random_games(2, 400, 0x91ace, |g, n| {
            if n % 10 != 0 {
                return;
            }
            for tile in 0..g.tiles.len() {
                let listed = g.placement_squares(tile);
                let checked: Vec<_> = g
                    .rules
                    .tile_squares(tile)
                    .filter(|s| g.placement_ok(*s, Some(tile)))
                    .collect();
                assert_eq!(listed, checked, "tile {tile}");
                tiles += 1;
                // Free squares struck only for a DT next to them.
                barred_by_dt += g
                    .rules
                    .tile_squares(tile)
                    .filter(|s| {
                        g.rules.board.passable(*s)
                            && g.figure_at(*s).is_none()
                            && g.token_at(*s).is_none()
                            && !listed.contains(s)
                    })
                    .count();
            }
        });
        assert!(tiles > 1000, "{tiles} tiles listed");
        assert!(barred_by_dt > 100, "{barred_by_dt} squares next to a DT");
    }
}
