//! Checks of the options a client creates a game with (issue 17, item 8:
//! every option has a range). The game rules behind them live in the rules
//! crate (playable missions, SET-12 player counts, RNK-4 ranks); this module
//! asks them and names the field at fault. docs/PROTOCOL.md lists the same
//! ranges; the test `option_ranges_match_the_doc` in tests/edge.rs holds
//! them together.

use citadel_protocol::{DarkLegionChoice, GameOptions};
use citadel_rules::game::setup::{player_counts, starting_ranks, STARTING_RANKS};
use std::ops::RangeInclusive;

/// A per-turn time limit, in seconds: long enough to read the board and
/// move, short enough that a table is not held for more than an hour.
pub const TURN_SECONDS: RangeInclusive<u32> = 10..=3600;

/// An option out of range: which field, and why, in words. The message is
/// shown to the client.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct OptionError {
    /// The field of `GameOptions` at fault.
    pub field: &'static str,
    /// What is allowed.
    pub message: String,
}

fn bad(field: &'static str, message: impl Into<String>) -> Result<(), OptionError> {
    Err(OptionError {
        field,
        message: message.into(),
    })
}

/// The ids of the missions a game may be created with, in record order
/// (`citadel_rules::game::playable`: a mission is playable when every rule
/// it uses is implemented).
pub fn playable_missions() -> Vec<&'static str> {
    citadel_rules::Content::embedded()
        .map(citadel_rules::game::playable::playable_missions)
        .unwrap_or_default()
}

/// `mission` names a playable mission; otherwise the error says what is
/// missing.
///
/// # Errors
/// An unknown mission, or one that uses rules not implemented yet.
pub fn mission_playable(mission: &str) -> Result<(), OptionError> {
    let Some(def) = citadel_rules::Content::embedded()
        .ok()
        .and_then(|c| c.mission(mission))
    else {
        return bad("mission", "unknown mission");
    };
    let gaps = citadel_rules::game::playable::unsupported(def);
    if gaps.is_empty() {
        return Ok(());
    }
    let gaps: Vec<String> = gaps.iter().map(ToString::to_string).collect();
    bad(
        "mission",
        format!(
            "mission {mission} is not playable yet: it needs {}",
            gaps.join(", ")
        ),
    )
}

/// Check every option of a game about to be created.
///
/// # Errors
/// The first option out of range.
pub fn validate(o: &GameOptions) -> Result<(), OptionError> {
    mission_playable(&o.mission)?;
    let ai = o.dark_legion == DarkLegionChoice::Ai;
    if !player_counts(ai).contains(&o.seats) {
        return bad(
            "seats",
            "seats must be 1-5 with the AI Dark Legion, 2-5 otherwise",
        );
    }
    if let DarkLegionChoice::Seat(s) = o.dark_legion {
        if s >= o.seats {
            return bad("dark_legion", "the Dark Legion's seat must be below seats");
        }
    }
    let ranks = citadel_rules::Content::embedded()
        .ok()
        .and_then(|c| c.mission(&o.mission))
        .map_or(STARTING_RANKS, |m| starting_ranks(m.edition));
    if !ranks.contains(&o.starting_rank) {
        return bad(
            "starting_rank",
            format!(
                "starting rank must be {}-{} in this edition",
                ranks.start(),
                ranks.end()
            ),
        );
    }
    if let Some(t) = o.turn_seconds {
        if !TURN_SECONDS.contains(&t) {
            return bad(
                "turn_seconds",
                "turn_seconds must be 10-3600, or null for no limit",
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(json: &str) -> GameOptions {
        serde_json::from_str(json).expect("options")
    }

    #[test]
    fn every_option_is_range_checked() {
        let ok =
            r#"{"mission":"ce-c1m1","seats":2,"dark_legion":{"mode":"drawn"},"turn_seconds":120}"#;
        assert_eq!(validate(&options(ok)), Ok(()));
        for (json, field) in [
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
