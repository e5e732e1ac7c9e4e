//! The placed board: cells, tiles, stairs levels and the static wall set
//! (core BRD-1..3, BRD-8; maps.md MAP-11..14 say how a layout fills it).
//!
//! The board is built from generic parts by [`Board::new`]; reading tile
//! files, rotating tiles and placing a Citadel are the rules crate's job.

use crate::edge::Edge;
use crate::square::{Side, Square};
use crate::wall_bits::WallBits;
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

/// What a square lets through (core BRD-2, LOS-5, MAP-19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    /// Figures may enter; sight passes.
    Open,
    /// No figure may enter, but sight passes (GRID `#` and `O`).
    Impassable,
    /// No figure may enter and sight stops, as off the board (a Citadel
    /// base square).
    Solid,
}

/// One on-board square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// Index into [`Board::tiles`].
    pub tile: usize,
    /// The map's character for the square after rotation (`.`, `#`, `O`,
    /// `d`, `^`, `1`..`6` in maps.md). The grid never reads it: movement
    /// and sight use `terrain` and `level`; it is kept for drawing and for
    /// rules that name a kind of square (desks).
    pub glyph: char,
    /// Whether figures may enter and sight may pass.
    pub terrain: Terrain,
    /// Level, only on a stairs tile.
    pub level: Option<Level>,
}

/// An 8 × 8 tile as placed on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedTile {
    /// The tile's id in its tile set.
    pub id: u32,
    /// Tile name.
    pub name: String,
    /// Global origin `(8c, 8r)`.
    pub origin: Square,
    /// Clockwise rotation in degrees: 0, 90, 180, 270.
    pub rotation: u16,
    /// A stairs tile (MAP-7): its cells carry levels.
    pub stairs: bool,
}

impl PlacedTile {
    /// Centre point `(ox+3.5, oy+3.5)` as doubled integer coordinates
    /// `(2ox+7, 2oy+7)`, for compass scoring without floats (core AI-2).
    #[inline]
    pub fn centre_doubled(&self) -> (i32, i32) {
        (2 * self.origin.x + 7, 2 * self.origin.y + 7)
    }
}

/// The static board: placed tiles, cells and the wall set W (BRD-3).
///
/// Squares `(0,0)..(width,height)` form the bounding box; a square is
/// on-board if it has a [`Cell`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Placed tiles in layout order (row by row, west to east).
    pub tiles: Vec<PlacedTile>,
    width: i32,
    height: i32,
    cells: Vec<Option<Cell>>,
    walls: Vec<Edge>,
    /// Static wall bits per padded square (see [`WallBits`]): the hot-path
    /// form of `walls`, so `is_wall` is an index, not a search.
    bits: WallBits,
}

/// Why [`Board::new`] refused its parts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Width or height is negative or too large.
    #[error("board size {width}x{height} is out of range")]
    Size {
        /// Width asked for.
        width: i32,
        /// Height asked for.
        height: i32,
    },
    /// `cells` does not hold one entry per square of the bounding box.
    #[error("{got} cells for a {width}x{height} board")]
    CellCount {
        /// Width of the board.
        width: i32,
        /// Height of the board.
        height: i32,
        /// Length of `cells`.
        got: usize,
    },
    /// A cell names a tile index that `tiles` does not have.
    #[error("square {square} belongs to tile index {tile}, but there are {tiles} tiles")]
    UnknownTile {
        /// The square.
        square: Square,
        /// Its tile index.
        tile: usize,
        /// Number of tiles.
        tiles: usize,
    },
}

impl Board {
    /// A board from its parts: `cells` row by row (`y * width + x`, `None`
    /// off-board), the tiles the cells point into, and the static wall set.
    ///
    /// Wall edges that touch no square of the bounding box or its one-square
    /// rim separate nothing that matters and are dropped; duplicates are
    /// merged.
    ///
    /// # Errors
    /// [`BoardError`] if the sizes disagree or a cell names a missing tile.
    pub fn new(
        width: i32,
        height: i32,
        tiles: Vec<PlacedTile>,
        cells: Vec<Option<Cell>>,
        walls: impl IntoIterator<Item = Edge>,
    ) -> Result<Board, BoardError> {
        // The padded wall box must fit in an index too, hence the margin.
        let area = if (0..=1 << 14).contains(&width) && (0..=1 << 14).contains(&height) {
            usize::try_from(width * height).ok()
        } else {
            None
        };
        let area = area.ok_or(BoardError::Size { width, height })?;
        if cells.len() != area {
            return Err(BoardError::CellCount {
                width,
                height,
                got: cells.len(),
            });
        }
        for (i, cell) in cells.iter().enumerate() {
            if let Some(c) = cell {
                if c.tile >= tiles.len() {
                    // i < width * height, both small, so the casts hold.
                    let square = Square::new(i as i32 % width.max(1), i as i32 / width.max(1));
                    return Err(BoardError::UnknownTile {
                        square,
                        tile: c.tile,
                        tiles: tiles.len(),
                    });
                }
            }
        }
        let mut walls: Vec<Edge> = walls.into_iter().collect();
        walls.sort_unstable();
        walls.dedup();
        let mut bits = WallBits::new(width, height);
        walls.retain(|e| bits.set(*e));
        Ok(Board {
            tiles,
            width,
            height,
            cells,
            walls,
            bits,
        })
    }

    /// Width of the bounding box in squares.
    #[inline]
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height of the bounding box in squares.
    #[inline]
    pub fn height(&self) -> i32 {
        self.height
    }

    /// The cell of an on-board square.
    #[inline]
    pub fn cell(&self, s: Square) -> Option<&Cell> {
        if s.x < 0 || s.y < 0 || s.x >= self.width || s.y >= self.height {
            return None;
        }
        self.cells[(s.y * self.width + s.x) as usize].as_ref()
    }

    /// On-board (BRD-1).
    #[inline]
    pub fn on_board(&self, s: Square) -> bool {
        self.cell(s).is_some()
    }

    /// Passable ignoring tokens (BRD-2): on-board and [`Terrain::Open`].
    #[inline]
    pub fn passable(&self, s: Square) -> bool {
        self.cell(s).is_some_and(|c| c.terrain == Terrain::Open)
    }

    /// Stops line of sight when entered (LOS-5, leaving figures aside):
    /// off-board or [`Terrain::Solid`].
    #[inline]
    pub fn blocks_sight(&self, s: Square) -> bool {
        self.cell(s).is_none_or(|c| c.terrain == Terrain::Solid)
    }

    /// Index of the tile holding `s`.
    #[inline]
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
    #[inline]
    pub fn level(&self, s: Square) -> Option<Level> {
        self.cell(s).and_then(|c| c.level)
    }

    /// ADJ-8: at least one of the square's 4 sides is in W.
    #[inline]
    pub fn adjacent_to_wall(&self, s: Square) -> bool {
        Side::ALL
            .iter()
            .any(|&side| self.is_wall(Edge::side_of(s, side)))
    }

    /// Do `self` and `other` (of the same size) agree on row `y`, `-1`
    /// to `height` (the ring around the board included): the same cells,
    /// and the same static walls on the north and west sides of its
    /// squares? Rows `y - 1..=y + 1` agreeing settle every step from row
    /// `y`, so a board changed in a few rows can keep what it derived
    /// from the others.
    pub fn same_row(&self, other: &Board, y: i32) -> bool {
        if (self.width, self.height) != (other.width, other.height) || y < -1 || y > self.height {
            return false;
        }
        fn cells(b: &Board, y: i32) -> Option<&[Option<Cell>]> {
            let w = usize::try_from(b.width).ok()?;
            let y = usize::try_from(y).ok().filter(|&y| y < b.height as usize)?;
            b.cells.get(y * w..(y + 1) * w)
        }
        cells(self, y) == cells(other, y) && self.bits.row(y) == other.bits.row(y)
    }

    /// The static wall bits, copied by [`crate::Walls::new`].
    pub(crate) fn wall_bits(&self) -> &WallBits {
        &self.bits
    }

    /// Index of the placed tile with this id.
    pub fn tile_index(&self, id: u32) -> Option<usize> {
        self.tiles.iter().position(|t| t.id == id)
    }

    /// MOV-2 (5): on a stairs tile a step may change level by at most one
    /// in the order L–S1–S2–S3–U. Squares without a level never restrict.
    #[inline]
    pub fn levels_step_ok(&self, a: Square, b: Square) -> bool {
        match (self.level(a), self.level(b)) {
            (Some(la), Some(lb)) => (la as i32 - lb as i32).abs() <= 1,
            _ => true,
        }
    }

    /// Index `y * width + x` of an on-board square, the order of
    /// [`Board::new`]'s cells.
    #[inline]
    pub fn index(&self, s: Square) -> Option<usize> {
        self.cell(s)?;
        usize::try_from(s.y * self.width + s.x).ok()
    }
}
