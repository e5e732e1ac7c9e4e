//! Which rules made a game.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The rules a game was made with: the game's engine code (a number its
/// maintainers bump by hand whenever the same setup, seed and commands
/// could give another game) and a hash of its content data. The platform
/// stores it with every game; a game restored under another version is
/// replayed against its stored checksums, not trusted.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RulesVersion {
    /// The engine's behaviour version.
    pub engine: u32,
    /// A hash of the content data, hex.
    pub content: String,
}

impl fmt::Display for RulesVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine {} content {}", self.engine, self.content)
    }
}
