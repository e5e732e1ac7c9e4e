//! The board a mission builds from its layout (core BRD-1, maps.md MAP-11..14).

use super::edge::Edge;
use super::square::Square;
use crate::content::layout::Layout;
use crate::content::tiles::TileDef;
use serde::{Deserialize, Serialize};

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
}

impl Board {
    /// Places the layout's tiles (MAP-11..13). `tiles` is the edition's tile
    /// set; `citadel` is a classic Citadel point (MAP-18).
    ///
    /// # Errors
    /// A message if a tile id is unknown or a `k`/`k+8` pair is used (MAP-8).
    pub fn build(
        _layout: &Layout,
        _tiles: &[TileDef],
        _citadel: Option<Square>,
    ) -> Result<Board, String> {
        unimplemented!("geometry helper")
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
    pub fn passable(&self, _s: Square) -> bool {
        unimplemented!("geometry helper")
    }

    /// A Citadel base square (MAP-19).
    pub fn is_citadel_base(&self, _s: Square) -> bool {
        unimplemented!("geometry helper")
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
        self.squares().filter(move |s| self.tile_of(*s) == Some(tile))
    }

    /// Is `e` in the static wall set W (tile walls and Citadel arms)?
    pub fn is_wall(&self, _e: Edge) -> bool {
        unimplemented!("geometry helper")
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
    pub fn adjacent_to_wall(&self, _s: Square) -> bool {
        unimplemented!("geometry helper")
    }

    /// The Citadel point, if the mission declares one.
    pub fn citadel(&self) -> Option<Square> {
        self.citadel
    }
}
