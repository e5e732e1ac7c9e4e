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

    /// The platform's part, on its own test game: the game named, and the
    /// turn limit (the game's own options are its own tests').
    #[test]
    fn the_game_and_the_turn_limit_are_range_checked() {
        let games = Games::new()
            .with::<citadel_test_game::Tricks>()
            .expect("one game");
        let check = |json: serde_json::Value| {
            let options: TableOptions = serde_json::from_value(json).expect("options");
            validate(&games, &options).map(|kind| kind.id())
        };
        assert_eq!(
            check(serde_json::json!({"kind": "tricks", "seats": 2})),
            Ok("tricks")
        );
        for t in [10, 3600] {
            let ok = serde_json::json!({"kind": "tricks", "seats": 2, "turn_seconds": t});
            assert_eq!(check(ok), Ok("tricks"), "{t}");
        }
        for (json, field) in [
            (serde_json::json!({"kind": "chess", "seats": 2}), "kind"),
            (
                serde_json::json!({"kind": "tricks", "seats": 2, "turn_seconds": 9}),
                "turn_seconds",
            ),
            (
                serde_json::json!({"kind": "tricks", "seats": 2, "turn_seconds": 3601}),
                "turn_seconds",
            ),
        ] {
            assert_eq!(
                check(json.clone()).map_err(|e| e.field),
                Err(field),
                "{json}"
            );
        }
    }
}
