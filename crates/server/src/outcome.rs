//! What the platform keeps of a game's end beside the game's own
//! summary: how a game closed as outdated is recorded and told.

use serde::{Deserialize, Serialize};

/// What players are told about a game closed as outdated.
pub const OUTDATED_MESSAGE: &str = "this game was made by an older version and cannot continue";

/// The result recorded for a game closed as outdated, in place of the
/// game's summary: why it was closed. (A game's summary reads it as one
/// with no result and this reason: Siege's keeps an `outdated` field.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outdated {
    /// Why the game does not replay on these rules.
    pub outdated: String,
}
