//! # citadel-rules
//!
//! The rules of *Siege of the Citadel* as a pure library: no I/O, no clock,
//! no global randomness. A validated [`game::Setup`] becomes a
//! [`game::Game`]; [`game::Game::apply`] takes one seat's command and the
//! dice, and either returns the events it caused or a
//! [`game::Rejection`] that says why, leaving the game untouched.
//!
//! The specification is `shared/rules/` (rule IDs such as `LOS-3`); tests
//! name the rule IDs they cover (see `docs/RULES-COVERAGE.md`).

pub mod content;
pub mod dice;
pub mod documents;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod map_data;
pub mod seam;
pub mod sim;
pub mod summary;
pub mod version;
pub mod view_diff;

/// The board geometry lives in its own crate, `citadel-grid`, shared with
/// other rulesets; this path keeps `citadel_rules::geometry::…` working.
pub use citadel_grid as geometry;

pub use content::Content;
pub use dice::{Dice, DieColor, ScriptedDice, SeededDice};
pub use version::{current_rules, state_checksum, RulesVersion, ENGINE_VERSION};
