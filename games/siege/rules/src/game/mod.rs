//! The game: setup, commands, events, rejections, legal commands and
//! per-viewer views. Pure and deterministic: chance comes from a [`Dice`]
//! argument, and nothing here reads a clock or does I/O.
//!
//! [`Dice`]: crate::dice::Dice

mod actions;
pub mod ai_deck;
mod apply;
pub mod ce;
pub mod classic;
mod combat;
pub mod command;
mod dark_legion;
mod decisions;
mod door_index;
pub mod event;
mod force;
mod hidden;
pub mod ids;
mod legal;
mod mission_rules;
mod move_path;
mod movement;
pub mod playable;
pub mod position;
mod positions;
pub mod reaction;
pub mod rejection;
mod row_search;
pub mod ruleset;
pub mod secondary;
pub mod setup;
pub mod state;
mod step_table;
mod terrain;
mod turns;
pub mod view;
mod weapons;

// The 1993-only modules keep their paths from before the editions had
// folders (`game::two_use`, `game::altered_reality`), for other crates.
pub use classic::{altered_reality, two_use};

pub use altered_reality::SectorChange;
pub use command::{CardPlay, Command};
pub use event::{DieRoll, Event, MissionResult, Place};
pub use ids::{FigureId, Seat, Side, Viewer};
pub use move_path::MovePath;
pub use rejection::Rejection;
pub use ruleset::RulesetId;
pub use setup::{DarkLegionSetup, SeatSetup, Setup, SetupError};
pub use state::{Decision, Figure, FigureKind, Game, Phase};
pub use view::GameView;
