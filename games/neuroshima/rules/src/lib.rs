//! # citadel-neuroshima
//!
//! Neuroshima Hex (3.0 base rules) for two armies, the Doomsday Machine
//! (`ddm`) and Moloch (`moloch`), as specified in `neuroshima.md`: pure
//! rules behind the Citadel game seam, with the armies as data files
//! (`data/*.toml`) and a heuristic bot.

pub mod bot;
pub mod data;
pub mod engine;
pub mod scenario;
pub mod seam;
pub mod search;
pub mod sim;
pub mod types;

pub use bot::HeuristicBot;
pub use engine::{Ctx, NeuroshimaGame};
pub use seam::{Static, Summary, View};
pub use search::{search_bot, NeuroshimaPolicy};
pub use types::*;
