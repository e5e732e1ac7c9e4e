//! # citadel-game
//!
//! The game seam: the one small API that every game on the Citadel
//! platform implements ([`Game`]), and the types every game and the
//! platform share — [`Seat`], [`Viewer`], [`Dice`], [`RulesVersion`],
//! [`Outcome`] and the [`Bot`] trait. The platform (sessions, storage,
//! replays, the load tool) is written against this crate only; a game is
//! a folder under `games/` that implements it, and
//! [`conformance::Conformance`] checks that it keeps what the platform
//! relies on.

pub mod bot;
pub mod campaign;
pub mod catalogue;
pub mod conformance;
pub mod dice;
pub mod game;
pub mod ids;
pub mod outcome;
pub mod patch;
pub mod version;

pub use bot::{Bot, RandomBot, Seen};
pub use campaign::{CampaignRefusal, CampaignRules, Member, NextGame, Recorded, ReservedPlayer};
pub use catalogue::{CatalogueGame, OptionChoice, OptionKind, OptionSpec};
pub use dice::{shuffle_with, CountingDice, Dice, SeededDice};
pub use game::{ChoiceError, Document, Game, OptionError, Payload, SeatPlan, SetupRefused};
pub use ids::{Seat, Viewer};
pub use outcome::{Outcome, Placing};
pub use version::RulesVersion;
