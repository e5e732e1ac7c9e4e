//! # citadel-grid
//!
//! Square-grid geometry shared by every ruleset on a Citadel-style board:
//! squares, unit edges, the placed board (cells, tiles, stairs levels, the
//! static wall set), closed doors laid over the walls, adjacency (core
//! ADJ), line of sight (core LOS) and path distances.
//!
//! Nothing here knows a game rule or a content file. A board is built from
//! generic parts ([`Board::new`]); the rules crate turns its tile and
//! layout files into those parts. What changes during a game (closed
//! doors, figures, tokens) comes in as arguments ([`Walls`],
//! [`SightBlockers`], the `blocked` test of [`StepMap::new`]), so the same
//! code serves the game, the content checks and the bots.

pub mod board;
pub mod edge;
pub mod los;
pub mod path;
pub mod square;
mod wall_bits;
pub mod walls;

pub use board::{Board, BoardError, Cell, Level, PlacedTile, Terrain};
pub use edge::Edge;
pub use los::{line_of_sight, line_of_sight_to_square, traverse, Crossing, Sight, SightBlockers};
pub use path::StepMap;
pub use square::{Direction, Side, Square};
pub use walls::Walls;
