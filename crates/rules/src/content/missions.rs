//! Mission records (core MSN-1, missions.md) and their file format.

use super::error::ContentError;
use super::ids::Edition;
use super::layout::Layout;
use crate::geometry::{Board, Edge, Side, Square};
use serde::{Deserialize, Serialize};

/// How a mission names an entrance (MAP-16, MAP-21).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntranceRef {
    /// `<tileId><side>`, e.g. `15N`.
    TileSide {
        /// Tile id.
        tile: u32,
        /// Side of the placed tile.
        side: Side,
    },
    /// Explicit squares (classic `SQ(x,y) ...`).
    Squares(Vec<Square>),
    /// The classic Citadel gates.
    Citadel,
}

/// An entrance resolved on a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrance {
    /// Id as written, e.g. `15N`.
    pub id: String,
    /// Entry squares, sorted by `(y,x)`.
    pub squares: Vec<Square>,
    /// For each entry square, the off-board square just outside its boundary
    /// edge (MOV-14 exits step there). Empty for Citadel gates.
    pub outside: Vec<(Square, Square)>,
}

/// How the DTs start (MOV-12).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StartMode {
    /// In the holding area of a chosen white entrance.
    Entrance,
    /// Placed on the given tile id at their first turn.
    Tile(u32),
}

/// A printed feature or token kind named by missions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    /// Desk (a GRID `d` feature, not a token; walkable).
    Desk,
    /// Debris (blocking, cover).
    Debris,
    /// Terminal (blocking, cover, attackable, hackable).
    Terminal,
    /// Defense turret.
    Turret,
    /// Equipment container.
    Container,
    /// Dark portal.
    Portal,
    /// Primary target / objective marker.
    Objective,
}

/// A feature or token at a square, optionally named (`Throne`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenPlacement {
    /// Kind.
    pub kind: TokenKind,
    /// Global square.
    pub square: Square,
    /// Optional name (e.g. `throne`, `relay`).
    pub name: Option<String>,
}

/// A mission Special action (MSN-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecialActionDef {
    /// Id used in goals, e.g. `photograph`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The DT must be adjacent (ADJ-4) to a feature/token of this kind.
    pub adjacent_to: TokenKind,
    /// Each feature counts once (e.g. relays); otherwise any repeat counts.
    pub once_per_feature: bool,
}

/// Goal predicates (MSN-2), combinable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    /// Both hold.
    And(Vec<Goal>),
    /// Either holds.
    Or(Vec<Goal>),
    /// `special_done(S, k)`.
    SpecialDone {
        /// Special action id.
        action: String,
        /// Times.
        times: u32,
    },
    /// `exited(n, exits)`; `n = 0` means "one per corporation player".
    Exited {
        /// How many DTs.
        count: u32,
        /// Exit ids.
        exits: Vec<String>,
    },
    /// `carried_out(token, exits)`.
    CarriedOut {
        /// Token name.
        token: String,
        /// Exit ids.
        exits: Vec<String>,
    },
    /// `eliminated(tag)`.
    Eliminated(String),
    /// `destroyed(tokens)`.
    Destroyed(Vec<String>),
    /// `hacked(tokens)`.
    Hacked(Vec<String>),
    /// `pp_earned(n)`.
    PpEarned(u32),
    /// `all_dl_eliminated`.
    AllDlEliminated,
    /// `alive(n)`.
    Alive(u32),
}

/// Rewards (MSN-6, CMD-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rewards {
    /// PP to each eligible corporation player on success.
    pub success: i32,
    /// PP to the DL on failure.
    pub failure: i32,
    /// Commander penalty on primary failure (negative).
    pub commander: i32,
}

/// A mission record (MSN-1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissionDef {
    /// Id, e.g. `ce-c1m1`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Edition.
    pub edition: Edition,
    /// Layout.
    pub layout: Layout,
    /// Classic Citadel point.
    pub citadel: Option<Square>,
    /// Rounds R (EVT-1).
    pub rounds: u32,
    /// Event card numbers in play.
    pub events: Vec<u32>,
    /// Force card numbers in play.
    pub force_cards: Vec<u32>,
    /// Red (DL) entrances.
    pub red: Vec<(String, EntranceRef)>,
    /// White (DT) entrances.
    pub white: Vec<(String, EntranceRef)>,
    /// Exits.
    pub exits: Vec<(String, EntranceRef)>,
    /// Start mode.
    pub start: StartMode,
    /// Features and tokens.
    pub tokens: Vec<TokenPlacement>,
    /// Door groups, each a list of global unit edges.
    pub doors: Vec<Vec<Edge>>,
    /// Special actions.
    pub special_actions: Vec<SpecialActionDef>,
    /// Primary goal.
    pub goal: Goal,
    /// `ends_early`.
    pub ends_early: bool,
    /// Rewards.
    pub rewards: Rewards,
    /// Secondary missions used.
    pub secondary: bool,
    /// Line of the `MISSION` header in its file.
    pub line: usize,
}

impl MissionDef {
    /// Resolve an entrance on the mission's board (MAP-16, MAP-21).
    ///
    /// # Errors
    /// A message if the entrance is not on an open board edge.
    pub fn resolve_entrance(
        _board: &Board,
        _id: &str,
        _entrance: &EntranceRef,
    ) -> Result<Entrance, String> {
        unimplemented!("geometry helper")
    }
}

/// Parse a missions file.
///
/// # Errors
/// The first problem, with its file and line.
pub fn parse_missions(_file: &str, _text: &str) -> Result<Vec<MissionDef>, ContentError> {
    unimplemented!("geometry helper")
}
