//! Siege's static data (the seam's `Game::Static`): the map a client
//! draws — squares, walls, doors, entrances and features — derived from
//! the rules' board so the browser needs no rules.

use crate::game::Game;
use crate::geometry::{Edge, Square};
use serde::{Deserialize, Serialize};

/// One on-board square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MapSquare {
    /// Square.
    pub at: Square,
    /// Tile index.
    pub tile: usize,
    /// GRID character (`.`, `#`, `O`, `d`, `^`, `1`–`6`).
    pub glyph: char,
}

/// An entrance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MapEntrance {
    /// Id (`15N`).
    pub id: String,
    /// `white`, `red` or `exit`.
    pub kind: String,
    /// Entry squares.
    pub squares: Vec<Square>,
}

/// Everything static about the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MapData {
    /// Width in squares.
    pub width: i32,
    /// Height in squares.
    pub height: i32,
    /// On-board squares.
    pub squares: Vec<MapSquare>,
    /// Wall edges (W).
    pub walls: Vec<Edge>,
    /// Door groups.
    pub doors: Vec<Vec<Edge>>,
    /// Entrances.
    pub entrances: Vec<MapEntrance>,
    /// Desk squares (mission features).
    pub desks: Vec<Square>,
    /// A 1993 mission's Citadel point (MAP-18): its base is the 2×2 squares
    /// above and left of it (MAP-19), its arms are in `walls` (MAP-20).
    /// Absent without a Citadel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub citadel: Option<Square>,
}

impl MapData {
    /// The map of a game.
    pub fn of(game: &Game) -> MapData {
        let board = game.board();
        let mission = game.mission();
        let squares = board
            .squares()
            .filter_map(|s| {
                board.cell(s).map(|c| MapSquare {
                    at: s,
                    tile: c.tile,
                    glyph: c.glyph,
                })
            })
            .collect();
        let mut entrances = Vec::new();
        for (kind, list) in [
            ("white", &mission.white),
            ("red", &mission.red),
            ("exit", &mission.exits),
        ] {
            for (id, e) in list.iter() {
                if let Ok(r) =
                    crate::content::MissionDef::resolve_entrance(board, mission.citadel, id, e)
                {
                    entrances.push(MapEntrance {
                        id: id.clone(),
                        kind: kind.to_string(),
                        squares: r.squares,
                    });
                }
            }
        }
        MapData {
            width: board.width(),
            height: board.height(),
            squares,
            walls: board.walls().to_vec(),
            doors: mission.doors.clone(),
            entrances,
            desks: game.desks(),
            citadel: mission.citadel,
        }
    }
}
