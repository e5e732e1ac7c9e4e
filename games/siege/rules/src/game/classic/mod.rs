//! The 1993 edition (classic.md): everything that serves only 1993 games.
//!
//! The shared core (`game/*.rs`) reaches this code only through the
//! ruleset seam — the [`EditionRules`](super::ruleset::EditionRules)
//! trait that [`ClassicState`] implements, the hooks table of
//! [`RulesetId::Classic`](super::RulesetId::Classic) and the secondary
//! mission rules it names — so that no core file asks which edition it
//! plays. What lives here:
//!
//! - `state.rs`: the edition's part of the game state (markers, the event
//!   deck with the Dark Legion's reinforcement calls, the two-use deck);
//! - `hooks.rs`: its value hooks (core CONV-6);
//! - `cards.rs`: how it reads the cards both editions print;
//! - `two_use.rs`: the 13 two-use Doomtrooper cards (CDT);
//! - `altered_reality.rs`: event 11, Nepharite Altered Reality (CEV-1);
//! - `secondary.rs`: the 1993 secondary missions (CSM).

pub mod altered_reality;
mod cards;
mod hooks;
pub mod secondary;
mod state;
pub mod two_use;

pub(crate) use cards::CARDS;
pub(crate) use hooks::HOOKS;
pub(crate) use state::ClassicState;
