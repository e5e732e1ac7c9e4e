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
    pub fn parse(text: &str) -> Result<Layout, String> {
        let mut cells = Vec::new();
        let mut any_row = false;
        for (row, row_text) in text.split('/').enumerate() {
            let words: Vec<&str> = row_text.split_whitespace().collect();
            if words.is_empty() {
                return Err(format!("layout row {row} is empty"));
            }
            any_row = true;
            for (col, word) in words.iter().enumerate() {
                if *word == "--" {
                    continue;
                }
                let cell = parse_cell(word).map_err(|m| format!("layout cell `{word}`: {m}"))?;
                cells.push(LayoutCell {
                    col: u32::try_from(col).map_err(|_| "too many columns".to_string())?,
                    row: u32::try_from(row).map_err(|_| "too many rows".to_string())?,
                    ..cell
                });
            }
        }
        if !any_row || cells.is_empty() {
            return Err("layout places no tile".into());
        }
        Ok(Layout {
            text: text.trim().to_string(),
            cells,
        })
    }

    /// Columns and rows of the layout's bounding box, in tile slots.
    pub fn slots(&self) -> (u32, u32) {
        let cols = self.cells.iter().map(|c| c.col + 1).max().unwrap_or(0);
        let rows = self.cells.iter().map(|c| c.row + 1).max().unwrap_or(0);
        (cols, rows)
    }
}

/// `<tileId> [ 'r' (0|90|180|270) ] [ '°' ]`; position fields are filled by
/// the caller.
fn parse_cell(word: &str) -> Result<LayoutCell, String> {
    let (body, no_force) = match word.strip_suffix('°') {
        Some(b) => (b, true),
        None => (word, false),
    };
    let (id_text, rotation) = match body.split_once('r') {
        Some((id, rot)) => {
            let rotation = match rot {
                "0" => 0,
                "90" => 90,
                "180" => 180,
                "270" => 270,
                _ => return Err(format!("rotation `r{rot}` is not r0, r90, r180 or r270")),
            };
            (id, rotation)
        }
        None => (body, 0),
    };
    if id_text.is_empty() || !id_text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("tile id `{id_text}` is not a number"));
    }
    let tile = id_text
        .parse::<u32>()
        .map_err(|_| format!("tile id `{id_text}` is too large"))?;
    Ok(LayoutCell {
        col: 0,
        row: 0,
        tile,
        rotation,
        no_force,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_11_layout_parses_rows_rotation_and_no_force_mark() {
        let l = Layout::parse("-- 5 14r90° / 10 7r180 4r180").expect("valid layout");
        assert_eq!(l.cells.len(), 5);
        assert_eq!(
            l.cells[1],
            LayoutCell {
                col: 2,
                row: 0,
                tile: 14,
                rotation: 90,
                no_force: true
            }
        );
        assert_eq!(l.cells[2].col, 0);
        assert_eq!(l.cells[2].row, 1);
        assert_eq!(l.slots(), (3, 2));
    }

    #[test]
    fn map_12_layout_rejects_bad_rotation_and_ids() {
        assert!(Layout::parse("5r45").is_err());
        assert!(Layout::parse("x").is_err());
        assert!(Layout::parse("5 / ").is_err());
        assert!(Layout::parse("-- --").is_err());
    }
}
