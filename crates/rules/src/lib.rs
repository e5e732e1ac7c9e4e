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
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod geometry;
pub mod sim;

pub use content::Content;
pub use dice::{Dice, DieColor, ScriptedDice, SeededDice};
