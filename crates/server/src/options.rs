//! Checks of the options a client creates a game with. The rules they
//! apply live in the rules crate (playable missions, SET-12 player counts,
//! RNK-4 ranks); this module only asks them and names what is wrong.

use citadel_protocol::{DarkLegionChoice, GameOptions};
use citadel_rules::game::setup::{player_counts, STARTING_RANKS};
use citadel_rules::game::state::PLAYABLE_MISSIONS;

/// Why options are refused. The messages are shown to the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// The mission is unknown, or not one the engine can play yet.
    #[error("unknown or unplayable mission")]
    Mission,
    /// SET-12: too few or too many seats for the Dark Legion chosen, or a
    /// Dark Legion seat outside the seats.
    #[error("seats must be 1-5 with the AI Dark Legion, 2-5 otherwise")]
    Seats,
    /// RNK-4: a starting rank outside 1..=12.
    #[error("starting rank must be 1-12")]
    StartingRank,
}

/// Check a new game's options.
///
/// # Errors
/// The first thing wrong, as an [`OptionsError`].
pub fn validate(o: &GameOptions) -> Result<(), OptionsError> {
    if !PLAYABLE_MISSIONS.contains(&o.mission.as_str()) {
        return Err(OptionsError::Mission);
    }
    let ai = o.dark_legion == DarkLegionChoice::Ai;
    let seat_ok = match o.dark_legion {
        DarkLegionChoice::Seat(s) => s < o.seats,
        DarkLegionChoice::Ai | DarkLegionChoice::Drawn => true,
    };
    if !player_counts(ai).contains(&o.seats) || !seat_ok {
        return Err(OptionsError::Seats);
    }
    if !STARTING_RANKS.contains(&o.starting_rank) {
        return Err(OptionsError::StartingRank);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(seats: u8, dark_legion: DarkLegionChoice, rank: u8) -> GameOptions {
        GameOptions {
            mission: "ce-c1m1".into(),
            seats,
            dark_legion,
            starting_rank: rank,
            turn_seconds: None,
        }
    }

    #[test]
    fn set12_player_counts_and_rnk4_ranks_are_checked() {
        use DarkLegionChoice::{Ai, Drawn, Seat};
        assert_eq!(validate(&options(1, Ai, 1)), Ok(()));
        assert_eq!(validate(&options(1, Drawn, 1)), Err(OptionsError::Seats));
        assert_eq!(validate(&options(6, Ai, 1)), Err(OptionsError::Seats));
        assert_eq!(validate(&options(3, Seat(2), 12)), Ok(()));
        assert_eq!(validate(&options(3, Seat(3), 1)), Err(OptionsError::Seats));
        assert_eq!(
            validate(&options(2, Drawn, 13)),
            Err(OptionsError::StartingRank)
        );
        let mut o = options(2, Drawn, 1);
        o.mission = "ce-c9m9".into();
        assert_eq!(validate(&o), Err(OptionsError::Mission));
    }
}
