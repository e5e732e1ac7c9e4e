//! The board a mission builds from its layout (core BRD-1, maps.md MAP-11..14).

use super::edge::Edge;
use super::square::{Side, Square};
use super::walls::Walls;
use crate::content::ids::Edition;
use crate::content::layout::Layout;
use crate::content::tiles::TileDef;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Level of a square on a stairs tile (core BRD-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Level {
    /// `.` on a stairs tile.
    Lower,
    /// `1`, `2`.
    S1,
    /// `3`, `4`.
    S2,
    /// `5`, `6`.
    S3,
    /// `^`.
    Upper,
}

/// One on-board square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// Index into [`Board::tiles`].
    pub tile: usize,
    /// GRID character after rotation (`.`, `#`, `O`, `d`, `^`, `1`..`6`).
    pub glyph: char,
    /// Level, only on a stairs tile.
    pub level: Option<Level>,
}

/// A tile as placed by the layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedTile {
    /// Tile id (per edition, MAP-8).
    pub id: u32,
    /// Tile name.
    pub name: String,
    /// Global origin `(8c, 8r)`.
    pub origin: Square,
    /// Clockwise rotation in degrees: 0, 90, 180, 270.
    pub rotation: u16,
    /// `°`: no face-down force cards.
    pub no_force: bool,
    /// A stairs tile (MAP-7).
    pub stairs: bool,
}

impl PlacedTile {
    /// Centre point `(ox+3.5, oy+3.5)` as doubled integer coordinates
    /// `(2ox+7, 2oy+7)`, for compass scoring without floats (core AI-2).
    pub fn centre_doubled(&self) -> (i32, i32) {
        (2 * self.origin.x + 7, 2 * self.origin.y + 7)
    }
}

/// The static board: placed tiles, cells and the wall set W (BRD-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Placed tiles in layout order (row by row, west to east).
    pub tiles: Vec<PlacedTile>,
    width: i32,
    height: i32,
    cells: Vec<Option<Cell>>,
    walls: Vec<Edge>,
    citadel: Option<Square>,
    /// Static wall bits per padded square (see [`WallBits`]): the hot-path
    /// form of `walls`, so `is_wall` is an index, not a search.
    bits: WallBits,
}

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

impl Board {
    /// Places the layout's tiles (MAP-11..13). `tiles` is the edition's tile
    /// set; `citadel` is a classic Citadel point (MAP-18).
    ///
    /// # Errors
    /// A message if a tile id is unknown or a `k`/`k+8` pair is used (MAP-8).
    pub fn build(
        layout: &Layout,
        tiles: &[TileDef],
        citadel: Option<Square>,
    ) -> Result<Board, String> {
        let mut ids: Vec<u32> = layout.cells.iter().map(|c| c.tile).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            // One physical tile cannot lie twice, and `<tile><side>`
            // entrances would be ambiguous.
            return Err(format!("tile {} is placed twice", w[0]));
        }
        let ce = tiles.iter().any(|t| t.edition == Edition::Ce);
        if ce {
            if let Some(k) = ids.iter().find(|&&k| k <= 8 && ids.contains(&(k + 8))) {
                return Err(format!(
                    "tiles {k} and {} are the two faces of one board (MAP-8)",
                    k + 8
                ));
            }
        }
        let (cols, rows) = layout.slots();
        let width = i32::try_from(cols * 8).map_err(|_| "layout too wide".to_string())?;
        let height = i32::try_from(rows * 8).map_err(|_| "layout too tall".to_string())?;
        let mut cells: Vec<Option<Cell>> = vec![None; usize::try_from(width * height).unwrap_or(0)];
        let mut placed = Vec::with_capacity(layout.cells.len());
        let mut walls = BTreeSet::new();
        for lc in &layout.cells {
            let def = tiles
                .iter()
                .find(|t| t.id == lc.tile)
                .ok_or_else(|| format!("unknown tile id {}", lc.tile))?;
            if lc.rotation % 90 != 0 {
                return Err(format!("rotation {} is not a multiple of 90", lc.rotation));
            }
            let quarter = u8::try_from((lc.rotation / 90) % 4).unwrap_or(0);
            let t = def.rotated(quarter);
            let stairs = t.is_stairs();
            // Small numbers (layout slots), checked above via width/height.
            let (ox, oy) = (lc.col as i32 * 8, lc.row as i32 * 8);
            let index = placed.len();
            for (y, row) in t.grid.iter().enumerate() {
                for (x, &glyph) in row.iter().enumerate() {
                    let level = if stairs { level_of(glyph) } else { None };
                    let i = (oy + y as i32) * width + ox + x as i32;
                    cells[i as usize] = Some(Cell {
                        tile: index,
                        glyph,
                        level,
                    });
                }
            }
            walls.extend(t.walls.iter().map(|e| e.translate(ox, oy)));
            placed.push(PlacedTile {
                id: def.id,
                name: def.name.clone(),
                origin: Square::new(ox, oy),
                rotation: lc.rotation,
                no_force: lc.no_force,
                stairs,
            });
        }
        if let Some(c) = citadel {
            if c.x % 8 != 0 || c.y % 8 != 0 {
                return Err(format!(
                    "Citadel point {c} is not on a tile corner (MAP-18)"
                ));
            }
            walls.extend(citadel_arms(c));
        }
        let mut bits = WallBits::new(width, height);
        // Edges beyond the padded box touch no square that matters (e.g. a
        // Citadel arm running off the layout), so they are dropped.
        walls.retain(|e| bits.set(*e));
        Ok(Board {
            tiles: placed,
            width,
            height,
            cells,
            walls: walls.into_iter().collect(),
            citadel,
            bits,
        })
    }

    /// Width of the bounding box in squares.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height of the bounding box in squares.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// The cell of an on-board square.
    pub fn cell(&self, s: Square) -> Option<&Cell> {
        if s.x < 0 || s.y < 0 || s.x >= self.width || s.y >= self.height {
            return None;
        }
        self.cells[(s.y * self.width + s.x) as usize].as_ref()
    }

    /// On-board (BRD-1).
    pub fn on_board(&self, s: Square) -> bool {
        self.cell(s).is_some()
    }

    /// Passable ignoring tokens (BRD-2): on-board, not `#`/`O`, not a
    /// Citadel base square.
    pub fn passable(&self, s: Square) -> bool {
        match self.cell(s) {
            Some(c) => c.glyph != '#' && c.glyph != 'O' && !self.is_citadel_base(s),
            None => false,
        }
    }

    /// A Citadel base square (MAP-19).
    pub fn is_citadel_base(&self, s: Square) -> bool {
        self.citadel
            .is_some_and(|c| (c.x - 1..=c.x).contains(&s.x) && (c.y - 1..=c.y).contains(&s.y))
    }

    /// Index of the tile holding `s`.
    pub fn tile_of(&self, s: Square) -> Option<usize> {
        self.cell(s).map(|c| c.tile)
    }

    /// Every on-board square in `(y, x)` order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.height)
            .flat_map(move |y| (0..self.width).map(move |x| Square::new(x, y)))
            .filter(|s| self.on_board(*s))
    }

    /// The on-board squares of tile `tile` in `(y, x)` order.
    pub fn tile_squares(&self, tile: usize) -> impl Iterator<Item = Square> + '_ {
        self.squares()
            .filter(move |s| self.tile_of(*s) == Some(tile))
    }

    /// Is `e` in the static wall set W (tile walls and Citadel arms)?
    #[inline]
    pub fn is_wall(&self, e: Edge) -> bool {
        self.bits.get(e)
    }

    /// Every edge of W, sorted.
    pub fn walls(&self) -> &[Edge] {
        &self.walls
    }

    /// Level of a square (only on a stairs tile).
    pub fn level(&self, s: Square) -> Option<Level> {
        self.cell(s).and_then(|c| c.level)
    }

    /// ADJ-8: at least one of the square's 4 sides is in W.
    pub fn adjacent_to_wall(&self, s: Square) -> bool {
        Side::ALL
            .iter()
            .any(|&side| self.is_wall(Edge::side_of(s, side)))
    }

    /// The static wall bits, copied by [`super::Walls::new`].
    pub(crate) fn wall_bits(&self) -> &WallBits {
        &self.bits
    }

    /// Index of the placed tile with this id.
    pub fn tile_index(&self, id: u32) -> Option<usize> {
        self.tiles.iter().position(|t| t.id == id)
    }

    /// MOV-2 (5): on a stairs tile a step may change level by at most one
    /// in the order L–S1–S2–S3–U. Squares without a level never restrict.
    pub fn levels_step_ok(&self, a: Square, b: Square) -> bool {
        match (self.level(a), self.level(b)) {
            (Some(la), Some(lb)) => (la as i32 - lb as i32).abs() <= 1,
            _ => true,
        }
    }

    /// Fewest steps from any of `starts` to every square (ADJ-7 without
    /// figures): index `y * width + x`, `u32::MAX` where unreachable.
    ///
    /// A step needs open adjacency under `walls` (ADJ-4), a passable target
    /// that `blocked` does not reject, and the MOV-2 (5) level rule. With
    /// `dt_doors`, an orthogonal step whose only obstacle is a closed door
    /// edge is allowed too, as for a DT (MOV-2 (1)). Starts are at 0.
    pub fn step_distances(
        &self,
        walls: &Walls,
        starts: &[Square],
        blocked: impl Fn(Square) -> bool,
        dt_doors: bool,
    ) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.cells.len()];
        let mut queue = std::collections::VecDeque::new();
        for &s in starts {
            if let Some(i) = self.index(s) {
                if dist[i] == u32::MAX {
                    dist[i] = 0;
                    queue.push_back(s);
                }
            }
        }
        while let Some(a) = queue.pop_front() {
            let Some(ia) = self.index(a) else { continue };
            let d = dist[ia];
            for b in a.ring() {
                let Some(ib) = self.index(b) else { continue };
                if dist[ib] != u32::MAX || !self.passable(b) || blocked(b) {
                    continue;
                }
                let open = walls.adjacent(self, a, b)
                    || (dt_doors
                        && a.is_orthogonal_neighbour(b)
                        && Edge::between(a, b).is_some_and(|e| !self.is_wall(e)));
                if open && self.levels_step_ok(a, b) {
                    dist[ib] = d + 1;
                    queue.push_back(b);
                }
            }
        }
        dist
    }

    /// Index of an on-board square into [`Board::step_distances`]' result.
    pub fn index(&self, s: Square) -> Option<usize> {
        self.cell(s)?;
        usize::try_from(s.y * self.width + s.x).ok()
    }

    /// The Citadel point, if the mission declares one.
    pub fn citadel(&self) -> Option<Square> {
        self.citadel
    }
}

/// Level of a GRID character on a stairs tile (BRD-8).
fn level_of(glyph: char) -> Option<Level> {
    match glyph {
        '1' | '2' => Some(Level::S1),
        '3' | '4' => Some(Level::S2),
        '5' | '6' => Some(Level::S3),
        '^' => Some(Level::Upper),
        '.' | 'd' => Some(Level::Lower),
        // `#`/`O` can never hold a figure, and the GRID does not say which
        // floor they stand on, so they get no level (LOS-12 then ignores
        // them).
        _ => None,
    }
}

/// The Citadel arms (MAP-20): on each of the four half-lines from the point,
/// unit edges at distance 1..=8 except the gates at 4 and 5.
fn citadel_arms(c: Square) -> Vec<Edge> {
    let (cx, cy) = (c.x, c.y);
    let mut out = Vec::with_capacity(24);
    for d in (1..=8).filter(|d| *d != 4 && *d != 5) {
        out.push(Edge::V { x: cx, y: cy - d });
        out.push(Edge::V {
            x: cx,
            y: cy + d - 1,
        });
        out.push(Edge::H { x: cx - d, y: cy });
        out.push(Edge::H {
            x: cx + d - 1,
            y: cy,
        });
    }
    out
}
