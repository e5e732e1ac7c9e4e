//! The Collectors Edition (ce.md): everything that serves only CE games
//! (and the skirmish ruleset, which plays on CE content).
//!
//! The shared core (`game/*.rs`) reaches this code only through the
//! ruleset seam — the [`EditionRules`](super::ruleset::EditionRules)
//! trait that [`CeState`] implements, the hooks table of
//! [`RulesetId::Ce`](super::RulesetId::Ce) and the secondary mission rules
//! it names — so that no core file asks which edition it plays. What
//! lives here:
//!
//! - `state.rs`: the edition's part of the game state (markers, the event,
//!   door and Doomtrooper card decks);
//! - `hooks.rs`: its value hooks (core CONV-6);
//! - `cards.rs`: how it reads the cards both editions print;
//! - `secondary.rs`: the CE secondary missions (SEC);
//! - `reaction.rs`: which Doomtrooper card answers which reaction window
//!   (DTC-CE-3).

mod cards;
mod hooks;
mod reaction;
pub mod secondary;
mod state;

pub(crate) use cards::CARDS;
pub(crate) use hooks::HOOKS;
pub(crate) use state::CeState;
