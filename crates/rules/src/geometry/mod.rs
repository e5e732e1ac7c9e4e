//! Board geometry: squares, edges, the placed board, walls, adjacency and
//! line of sight (core.md BRD, ADJ, LOS; maps.md MAP).
//!
//! Everything here is static or takes the dynamic parts (closed doors,
//! figures) as arguments, so the same code serves the game, the loader
//! tests and the bots.

pub mod board;
pub mod edge;
pub mod los;
pub mod square;
pub mod walls;

pub use board::{Board, Cell, Level, PlacedTile};
pub use edge::Edge;
pub use los::{line_of_sight, traverse, Crossing, Sight, SightBlockers};
pub use square::{Direction, Side, Square};
pub use walls::Walls;
