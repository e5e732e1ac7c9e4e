//! Checks of the options a client creates a game with (issue 17, item 8:
//! every option has a range). The game's own options are the game's to
//! check (`citadel_game::Game::seat_plan`: Siege's playable missions,
//! SET-12 player counts, RNK-4 ranks); this module asks it, checks the
//! platform's turn limit and names the field at fault. docs/PROTOCOL.md lists the same
//! ranges; the test `option_ranges_match_the_doc` in tests/edge.rs holds
//! them together.

use crate::table::{Games, Kind};
use citadel_protocol::TableOptions;
use std::ops::RangeInclusive;
use std::sync::Arc;

/// A per-turn time limit, in seconds: long enough to read the board and
/// move, short enough that a table is not held for more than an hour.
pub const TURN_SECONDS: RangeInclusive<u32> = 10..=3600;

/// An option out of range: which field, and why, in words. The message is
/// shown to the client.
pub use citadel_game::OptionError;

/// Check every option of a game about to be created: its kind, the
/// game's own options (`citadel_game::Game::seat_plan`), then the
/// platform's turn limit. The game they make.
///
/// # Errors
/// The first option out of range.
pub fn validate(games: &Games, o: &TableOptions) -> Result<Arc<dyn Kind>, OptionError> {
    let Some(kind) = games.of(o) else {
        return Err(OptionError::new(
            "kind",
            format!(
                "no game {}; GET /api/catalogue lists them",
                o.kind.as_deref().unwrap_or_default()
            ),
        ));
    };
    kind.check_options(o)?;
    if let Some(t) = o.turn_seconds {
        if !TURN_SECONDS.contains(&t) {
            return Err(OptionError::new(
                "turn_seconds",
                "turn_seconds must be 10-3600, or null for no limit",
            ));
        }
    }
    Ok(Arc::clone(kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(json: &str) -> TableOptions {
        serde_json::from_str(json).expect("options")
    }

    fn validate(o: &TableOptions) -> Result<(), OptionError> {
        super::validate(crate::games::catalogue(), o).map(|_| ())
    }

    #[test]
    fn every_option_is_range_checked() {
        let ok =
            r#"{"mission":"ce-c1m1","seats":2,"dark_legion":{"mode":"drawn"},"turn_seconds":120}"#;
        assert_eq!(validate(&options(ok)), Ok(()));
        let named = r#"{"kind":"siege","mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"}}"#;
        assert_eq!(validate(&options(named)), Ok(()));
        for (json, field) in [
            (
                r#"{"kind":"chess","mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"}}"#,
                "kind",
            ),
            (
                r#"{"mission":"nope","seats":1,"dark_legion":{"mode":"ai"}}"#,
                "mission",
            ),
            (
                r#"{"mission":"ce-c1m1","seats":0,"dark_legion":{"mode":"ai"}}"#,
                "seats",
            ),
            (
                r#"{"mission":"ce-c1m1","seats":6,"dark_legion":{"mode":"ai"}}"#,
                "seats",
            ),
            (
                r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"drawn"}}"#,
                "seats",
            ),
            (
                r#"{"mission":"ce-c1m1","seats":2,"dark_legion":{"mode":"seat","seat":2}}"#,
                "dark_legion",
            ),
            (
                r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"},"starting_rank":0}"#,
                "starting_rank",
            ),
            (
                r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"},"starting_rank":13}"#,
                "starting_rank",
            ),
            (
                r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"},"turn_seconds":0}"#,
                "turn_seconds",
            ),
            (
                r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"},"turn_seconds":9}"#,
                "turn_seconds",
            ),
            (
                r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"},"turn_seconds":3601}"#,
                "turn_seconds",
            ),
        ] {
            assert_eq!(
                validate(&options(json)).map_err(|e| e.field),
                Err(field),
                "{json}"
            );
        }
        for t in [10, 3600] {
            let json = format!(
                r#"{{"mission":"ce-c1m1","seats":1,"dark_legion":{{"mode":"ai"}},"turn_seconds":{t}}}"#
            );
            assert_eq!(validate(&options(&json)), Ok(()));
        }
    }
}
