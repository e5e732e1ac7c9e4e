//! How a game ended, in terms every game shares: places per seat.

use crate::Seat;
use serde::{Deserialize, Serialize};

/// The end of a game: every seat's place. Ratings and "my games" read it;
/// campaigns read the game's own summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Outcome {
    /// One per seat, automata included, in seat order.
    pub placings: Vec<Placing>,
}

/// One seat's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Placing {
    /// The seat.
    pub seat: Seat,
    /// Seats on the same side share a team number (several players
    /// allied against one opponent); `None`: the seat plays
    /// alone.
    pub team: Option<u8>,
    /// 1 for the winners; seats that tie share a place.
    pub place: u8,
    /// The game's own score for the seat (points, PP), for tie-breaks
    /// and display.
    pub score: i64,
}

impl Outcome {
    /// The seats in first place.
    pub fn winners(&self) -> impl Iterator<Item = Seat> + '_ {
        self.placings
            .iter()
            .filter(|p| p.place == 1)
            .map(|p| p.seat)
    }

    /// Are the placings consistent: one per seat in order, places from 1
    /// with no place above the number of seats, and team mates sharing a
    /// place?
    pub fn is_consistent(&self) -> bool {
        let n = self.placings.len();
        let ordered = self
            .placings
            .iter()
            .enumerate()
            .all(|(i, p)| usize::from(p.seat.0) == i);
        let places = self
            .placings
            .iter()
            .all(|p| p.place >= 1 && usize::from(p.place) <= n)
            && (n == 0 || self.placings.iter().any(|p| p.place == 1));
        let teams = self.placings.iter().all(|p| {
            self.placings
                .iter()
                .filter(|q| p.team.is_some() && q.team == p.team)
                .all(|q| q.place == p.place)
        });
        ordered && places && teams
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placing(seat: u8, team: Option<u8>, place: u8) -> Placing {
        Placing {
            seat: Seat(seat),
            team,
            place,
            score: 0,
        }
    }

    #[test]
    fn consistency() {
        let ok = Outcome {
            placings: vec![
                placing(0, Some(0), 1),
                placing(1, Some(0), 1),
                placing(2, None, 3),
            ],
        };
        assert!(ok.is_consistent());
        assert_eq!(ok.winners().collect::<Vec<_>>(), vec![Seat(0), Seat(1)]);
        let split_team = Outcome {
            placings: vec![placing(0, Some(0), 1), placing(1, Some(0), 2)],
        };
        assert!(!split_team.is_consistent());
        let no_winner = Outcome {
            placings: vec![placing(0, None, 2), placing(1, None, 2)],
        };
        assert!(!no_winner.is_consistent());
        let out_of_order = Outcome {
            placings: vec![placing(1, None, 1), placing(0, None, 2)],
        };
        assert!(!out_of_order.is_consistent());
    }
}
