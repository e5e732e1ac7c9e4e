//! Tile files (maps.md §2, MAP-5..10, MAP-12).

use super::error::ContentError;
use super::ids::Edition;
use citadel_grid::Edge;
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

/// The printed GRID characters (MAP-6); anything else is a load error.
const GRID_CHARS: &[char] = &['.', '^', '1', '2', '3', '4', '5', '6', '#', 'O', 'd'];

impl TileDef {
    /// The tile turned clockwise by `quarter_turns` × 90° (MAP-12).
    ///
    /// Only the geometry turns (GRID, WALLS, DOORS); the `;` drawing stays as
    /// written because it documents the unrotated tile.
    pub fn rotated(&self, quarter_turns: u8) -> TileDef {
        let mut t = self.clone();
        for _ in 0..quarter_turns % 4 {
            let mut grid = [['.'; 8]; 8];
            for (y, row) in t.grid.iter().enumerate() {
                for (x, &c) in row.iter().enumerate() {
                    // (x, y) -> (7 - y, x): new[x][7 - y] = old[y][x].
                    grid[x][7 - y] = c;
                }
            }
            t.grid = grid;
            t.walls = t.walls.iter().map(|e| rotate_edge_90(*e)).collect();
            t.doors = t.doors.iter().map(|e| rotate_edge_90(*e)).collect();
        }
        t
    }

    /// A stairs tile (MAP-7): the GRID holds each of `1`..`6` exactly once.
    pub fn is_stairs(&self) -> bool {
        ('1'..='6').all(|d| self.grid.iter().flatten().filter(|&&c| c == d).count() == 1)
    }

    /// The drawing rendered from WALLS and GRID (MAP-10), one string per line,
    /// trailing spaces trimmed.
    ///
    /// Each square is 3 characters wide: the grid point or west wall, then
    /// two characters for the interior, whose first shows the GRID character
    /// when it is not `.`.
    pub fn render(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(17);
        for y in 0..=8i32 {
            let mut line = String::with_capacity(25);
            for x in 0..8i32 {
                line.push('+');
                line.push_str(if self.walls.contains(&Edge::H { x, y }) {
                    "--"
                } else {
                    "  "
                });
            }
            line.push('+');
            out.push(line.trim_end().to_string());
            if y == 8 {
                break;
            }
            let mut line = String::with_capacity(25);
            for x in 0..=8i32 {
                line.push(if self.walls.contains(&Edge::V { x, y }) {
                    '|'
                } else {
                    ' '
                });
                if x < 8 {
                    let c = self.grid[y as usize][x as usize];
                    line.push(if c == '.' { ' ' } else { c });
                    line.push(' ');
                }
            }
            out.push(line.trim_end().to_string());
        }
        out
    }
}

/// One clockwise quarter turn of a local edge (MAP-12):
/// `V,i,j -> H,7-j,i` and `H,i,j -> V,8-j,i`.
fn rotate_edge_90(e: Edge) -> Edge {
    match e {
        Edge::V { x, y } => Edge::H { x: 7 - y, y: x },
        Edge::H { x, y } => Edge::V { x: 8 - y, y: x },
    }
}

/// Split a line into whitespace-separated tokens, keeping `"quoted text"`
/// as one token (quotes removed). Shared by the tile and mission parsers so
/// names with spaces need no escaping.
pub(crate) fn split_tokens(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut tok = String::new();
        if c == '"' {
            chars.next();
            let mut closed = false;
            for c in chars.by_ref() {
                if c == '"' {
                    closed = true;
                    break;
                }
                tok.push(c);
            }
            if !closed {
                return Err("unterminated quoted string".into());
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                // A quote inside a bare token (KEY="a b") opens a quoted part.
                if c == '"' {
                    chars.next();
                    let mut closed = false;
                    for c in chars.by_ref() {
                        if c == '"' {
                            closed = true;
                            break;
                        }
                        tok.push(c);
                    }
                    if !closed {
                        return Err("unterminated quoted string".into());
                    }
                    continue;
                }
                tok.push(c);
                chars.next();
            }
        }
        out.push(tok);
    }
    Ok(out)
}

/// Parse a non-negative integer with a readable error.
pub(crate) fn parse_num(s: &str, what: &str) -> Result<i32, String> {
    s.parse::<i32>()
        .map_err(|_| format!("{what}: `{s}` is not a number"))
}

/// Parse `a` or `a-b` (inclusive) into a range, `a <= b`.
fn parse_run(s: &str, what: &str) -> Result<(i32, i32), String> {
    match s.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (parse_num(a, what)?, parse_num(b, what)?);
            if a > b {
                return Err(format!("{what}: run `{s}` is reversed"));
            }
            Ok((a, b))
        }
        None => {
            let a = parse_num(s, what)?;
            Ok((a, a))
        }
    }
}

/// Parse one edge term `V,i,j`, `H,i,j`, `H,a-b,j` or `V,i,a-b` into unit
/// edges. With `local`, the MAP-3 tile ranges are enforced (MAP-9); global
/// edges (mission doors) only need non-negative coordinates.
pub(crate) fn parse_edge_term(term: &str, local: bool) -> Result<Vec<Edge>, String> {
    let parts: Vec<&str> = term.split(',').collect();
    if parts.len() != 3 {
        return Err(format!("edge `{term}`: expected V,i,j or H,i,j"));
    }
    let mut out = Vec::new();
    match parts[0] {
        "V" => {
            let i = parse_num(parts[1], "edge")?;
            let (a, b) = parse_run(parts[2], "edge")?;
            for j in a..=b {
                out.push(Edge::V { x: i, y: j });
            }
        }
        "H" => {
            let (a, b) = parse_run(parts[1], "edge")?;
            let j = parse_num(parts[2], "edge")?;
            for i in a..=b {
                out.push(Edge::H { x: i, y: j });
            }
        }
        other => {
            return Err(format!(
                "edge `{term}`: orientation `{other}` is not V or H"
            ))
        }
    }
    for e in &out {
        let ok = match (*e, local) {
            (Edge::V { x, y }, true) => (0..=8).contains(&x) && (0..=7).contains(&y),
            (Edge::H { x, y }, true) => (0..=7).contains(&x) && (0..=8).contains(&y),
            (Edge::V { x, y } | Edge::H { x, y }, false) => x >= 0 && y >= 0,
        };
        if !ok {
            return Err(format!("edge `{term}`: {e} is out of range"));
        }
    }
    Ok(out)
}

/// A tile being read, before its `END`.
struct Partial {
    def: TileDef,
    grid_seen: bool,
}

/// Parse a tile file (maps.md §2).
///
/// # Errors
/// The first problem, with its file and line.
pub fn parse_tiles(file: &str, text: &str) -> Result<Vec<TileDef>, ContentError> {
    let err = |line: usize, msg: String| ContentError::new(file, line, msg);
    let mut tiles: Vec<TileDef> = Vec::new();
    let mut cur: Option<Partial> = None;
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    while let Some((n, raw)) = lines.next() {
        let line = raw.trim_end();
        if let Some(drawing) = line.strip_prefix(';') {
            // Drawings belong to the tile being read; file-level comments
            // (outside TILE ... END) are simply ignored.
            if let Some(p) = cur.as_mut() {
                let d = drawing.strip_prefix(' ').unwrap_or(drawing);
                p.def.drawing.push(d.trim_end().to_string());
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let toks = split_tokens(line).map_err(|m| err(n, m))?;
        let Some(kw) = toks.first() else { continue };
        match kw.as_str() {
            "TILE" => {
                if let Some(p) = &cur {
                    return Err(err(
                        n,
                        format!("TILE before END of tile {} (line {})", p.def.id, p.def.line),
                    ));
                }
                let def = parse_header(&toks).map_err(|m| err(n, m))?;
                let max = match def.edition {
                    Edition::Ce => 16,
                    Edition::Classic => 9,
                };
                if def.id == 0 || def.id > max {
                    return Err(err(
                        n,
                        format!(
                            "tile id {} outside 1..={max} for its edition (MAP-8)",
                            def.id
                        ),
                    ));
                }
                if tiles
                    .iter()
                    .any(|t| t.id == def.id && t.edition == def.edition)
                {
                    return Err(err(n, format!("duplicate tile id {}", def.id)));
                }
                cur = Some(Partial {
                    def: TileDef { line: n, ..def },
                    grid_seen: false,
                });
            }
            "GRID" | "WALLS" | "DOORS" | "END" => {
                let Some(p) = cur.as_mut() else {
                    return Err(err(n, format!("{kw} outside a TILE block")));
                };
                match kw.as_str() {
                    "GRID" => {
                        if toks.len() != 1 {
                            return Err(err(n, "GRID takes no arguments".into()));
                        }
                        if p.grid_seen {
                            return Err(err(n, "second GRID in one tile".into()));
                        }
                        p.grid_seen = true;
                        for y in 0..8 {
                            let Some((rn, row)) = lines.next() else {
                                return Err(err(n, format!("GRID ends after {y} rows, 8 needed")));
                            };
                            let row = row.trim_end();
                            let chars: Vec<char> = row.chars().collect();
                            if chars.len() != 8 {
                                return Err(err(
                                    rn,
                                    format!(
                                        "GRID row `{row}` has {} characters, 8 needed",
                                        chars.len()
                                    ),
                                ));
                            }
                            for (x, &c) in chars.iter().enumerate() {
                                if !GRID_CHARS.contains(&c) {
                                    return Err(err(
                                        rn,
                                        format!("GRID character `{c}` at column {x} is not allowed (MAP-6)"),
                                    ));
                                }
                                p.def.grid[y][x] = c;
                            }
                        }
                    }
                    "WALLS" | "DOORS" => {
                        for term in &toks[1..] {
                            let edges = parse_edge_term(term, true).map_err(|m| err(n, m))?;
                            let set = if kw == "WALLS" {
                                &mut p.def.walls
                            } else {
                                &mut p.def.doors
                            };
                            set.extend(edges);
                        }
                    }
                    _ => {
                        if toks.len() != 1 {
                            return Err(err(n, "END takes no arguments".into()));
                        }
                        if let Some(p) = cur.take() {
                            tiles.push(p.def);
                        }
                    }
                }
            }
            other => return Err(err(n, format!("unknown keyword `{other}`"))),
        }
    }
    if let Some(p) = cur {
        return Err(err(p.def.line, format!("tile {} has no END", p.def.id)));
    }
    Ok(tiles)
}

/// `TILE <id> "<name>" EDITION=<classic|ce> SOURCE=<traced|authored>`.
fn parse_header(toks: &[String]) -> Result<TileDef, String> {
    if toks.len() != 5 {
        return Err(
            "expected TILE <id> \"<name>\" EDITION=<classic|ce> SOURCE=<traced|authored>".into(),
        );
    }
    let id = toks[1]
        .parse::<u32>()
        .map_err(|_| format!("tile id `{}` is not a number", toks[1]))?;
    let edition = match toks[3].as_str() {
        "EDITION=ce" => Edition::Ce,
        "EDITION=classic" => Edition::Classic,
        o => return Err(format!("`{o}`: expected EDITION=ce or EDITION=classic")),
    };
    let source = match toks[4].as_str() {
        "SOURCE=traced" => TileSource::Traced,
        "SOURCE=authored" => TileSource::Authored,
        o => return Err(format!("`{o}`: expected SOURCE=traced or SOURCE=authored")),
    };
    Ok(TileDef {
        id,
        name: toks[2].clone(),
        edition,
        source,
        grid: [['.'; 8]; 8],
        walls: BTreeSet::new(),
        doors: BTreeSet::new(),
        drawing: Vec::new(),
        line: 0,
    })
}
