//! # citadel-search
//!
//! One search bot for every game on the seam: information-set Monte
//! Carlo tree search by determinization (OpenSpiel's `is_mcts.h`, over
//! `mcts.h`'s UCT), written against [`citadel_game::Game`] alone.
//!
//! Each iteration deals a game the searching seat could believe in
//! ([`citadel_game::Seen::sample`]: the game's `resample_hidden` for the
//! seat), walks the tree by UCT over the commands that deal allows,
//! adds one node, plays out with the game's [`Policy`] (random by
//! default) and backs up every seat's reward from the game's own
//! [`citadel_game::Outcome`] ([`rewards`]), or from the policy's
//! evaluation when a playout is cut at its horizon. Chance inside the
//! game is the game's own seeded dice, drawn afresh for every iteration.
//!
//! The budget is a number of iterations (deterministic for a seed: what
//! tests use) or wall time (what play uses), and the bot plays the most
//! visited command when it runs out.

pub mod policy;
pub mod reward;
pub mod tree;

pub use policy::{json_key, Policy, RandomPolicy};
pub use reward::rewards;
pub use tree::{Budget, PriorConfig, SearchBot, SearchConfig, SearchStats, SearchTotals};
