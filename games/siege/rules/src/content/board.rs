//! A mission's board from its layout and the edition's tiles (maps.md
//! MAP-8, MAP-11..13, MAP-18..20): the map files' meaning turned into the
//! generic parts of a [`citadel_grid::Board`].

use super::ids::Edition;
use super::layout::Layout;
use super::tiles::TileDef;
use citadel_grid::{Board, Cell, Edge, Level, PlacedTile, Square, Terrain};

/// Places the layout's tiles (MAP-11..13). `tiles` is the edition's tile
/// set; `citadel` is a classic Citadel point (MAP-18).
///
/// # Errors
/// A message if a tile id is unknown or a `k`/`k+8` pair is used (MAP-8).
pub fn build_board(
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
    let mut walls: Vec<Edge> = Vec::new();
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
                let square = Square::new(ox + x as i32, oy + y as i32);
                let i = square.y * width + square.x;
                cells[i as usize] = Some(Cell {
                    tile: index,
                    glyph,
                    terrain: terrain_of(glyph, citadel, square),
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
            stairs,
        });
    }
    if let Some(c) = citadel {
        if c.x % 8 != 0 || c.y % 8 != 0 {
            return Err(format!(
                "Citadel point {c} is not on a tile corner (MAP-18)"
            ));
        }
        // Arms running off the layout are dropped by the grid: they
        // separate no square that matters.
        walls.extend(citadel_arms(c));
    }
    Board::new(width, height, placed, cells, walls).map_err(|e| e.to_string())
}

/// BRD-2 and MAP-19: `#` and `O` cannot be entered; a Citadel base square
/// cannot be entered either and blocks sight like an off-board square.
fn terrain_of(glyph: char, citadel: Option<Square>, s: Square) -> Terrain {
    if citadel.is_some_and(|c| is_citadel_base(c, s)) {
        Terrain::Solid
    } else if glyph == '#' || glyph == 'O' {
        Terrain::Impassable
    } else {
        Terrain::Open
    }
}

/// A Citadel base square of the point `c` (MAP-19).
pub fn is_citadel_base(c: Square, s: Square) -> bool {
    (c.x - 1..=c.x).contains(&s.x) && (c.y - 1..=c.y).contains(&s.y)
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
