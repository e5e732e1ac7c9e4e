//! Tile files (maps.md §2, MAP-5..10, MAP-12).

use super::error::ContentError;
use super::ids::Edition;
use crate::geometry::Edge;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Where a tile's data comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileSource {
    /// Traced from printed art.
    Traced,
    /// Authored approximation.
    Authored,
}

/// One tile definition in local coordinates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileDef {
    /// Id, unique per edition.
    pub id: u32,
    /// Name.
    pub name: String,
    /// Edition.
    pub edition: Edition,
    /// Source.
    pub source: TileSource,
    /// GRID rows, `grid[y][x]`.
    pub grid: [[char; 8]; 8],
    /// WALLS, merged and sorted.
    pub walls: BTreeSet<Edge>,
    /// DOORS (informative, MAP-23).
    pub doors: BTreeSet<Edge>,
    /// The `;` drawing lines as written (informative, MAP-10).
    pub drawing: Vec<String>,
    /// Line of the `TILE` header in its file.
    pub line: usize,
}

impl TileDef {
    /// The tile turned clockwise by `quarter_turns` × 90° (MAP-12).
    pub fn rotated(&self, _quarter_turns: u8) -> TileDef {
        unimplemented!("geometry helper")
    }

    /// A stairs tile (MAP-7).
    pub fn is_stairs(&self) -> bool {
        unimplemented!("geometry helper")
    }

    /// The drawing rendered from WALLS and GRID (MAP-10), one string per line,
    /// trailing spaces trimmed.
    pub fn render(&self) -> Vec<String> {
        unimplemented!("geometry helper")
    }
}

/// Parse a tile file (maps.md §2).
///
/// # Errors
/// The first problem, with its file and line.
pub fn parse_tiles(_file: &str, _text: &str) -> Result<Vec<TileDef>, ContentError> {
    unimplemented!("geometry helper")
}
