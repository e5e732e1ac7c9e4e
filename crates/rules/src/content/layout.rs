//! `LAYOUT` rows (maps.md §3, MAP-11..12).

use serde::{Deserialize, Serialize};

/// One placed cell of a layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutCell {
    /// Column (0-based).
    pub col: u32,
    /// Row (0-based).
    pub row: u32,
    /// Tile id.
    pub tile: u32,
    /// Clockwise rotation in degrees.
    pub rotation: u16,
    /// `°` mark.
    pub no_force: bool,
}

/// A parsed layout: only the placed cells, in row-major order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// The text it was parsed from.
    pub text: String,
    /// Placed cells, row by row, west to east.
    pub cells: Vec<LayoutCell>,
}

impl Layout {
    /// Parse `15 2 14 / -- 12 --` (without the `LAYOUT` keyword).
    ///
    /// # Errors
    /// A message naming the bad cell.
    pub fn parse(_text: &str) -> Result<Layout, String> {
        unimplemented!("geometry helper")
    }
}
