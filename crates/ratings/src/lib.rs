//! # citadel-ratings
//!
//! Glicko-2 ratings for the players of any game, from the places the game
//! reports (`citadel_game::Outcome`, here as plain [`Entrant`]s so this
//! crate needs no game and no seam).
//!
//! **Team-aware.** A game's seats form sides: seats that share a team
//! number are one side (Siege's corporations against the Dark Legion),
//! a seat without one is a side alone (each player of Neuroshima Hex).
//! Each rated seat plays one Glicko-2 rating period in which every other
//! side is one opponent: a composite of that side's players (their mean
//! rating, the root mean square of their deviations), the result read
//! from the two sides' places (the better place wins, equal places draw).
//! So a Dark Legion player who beats three corporations plays one game
//! against their composite, not three games, and each corporation player
//! plays one game against the Dark Legion; in a free-for-all every seat
//! plays every other (the usual pairwise reading of a multiplayer game).
//! docs/RATINGS.md says why.
//!
//! The Glicko-2 arithmetic is `skillratings`' (the published algorithm,
//! checked here against Glickman's worked example).

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A player's Glicko-2 rating on the usual scale (1500 for a newcomer).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation (350 for a newcomer): how unsure it is.
    pub deviation: f64,
    /// The volatility: how erratic the player's results are.
    pub volatility: f64,
}

/// A newcomer's rating, deviation and volatility (Glickman's defaults).
pub const NEWCOMER: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

/// A rating whose deviation is above this is provisional: shown as such,
/// and kept off leaderboards (lichess's threshold).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The system constant τ, which limits how fast volatility changes.
/// Glickman suggests 0.3 to 1.2; 0.5 is his example's and the crate's.
pub const TAU: f64 = 0.5;

impl Default for Rating {
    fn default() -> Self {
        NEWCOMER
    }
}

impl Rating {
    /// Is this rating still provisional?
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn of(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

/// One seat of a finished game, as rating reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entrant {
    /// The seat's side: seats with the same `Some` team are one side;
    /// `None` is a side of its own.
    pub team: Option<u8>,
    /// 1 for the winners; seats that tie share a place.
    pub place: u8,
    /// The seat's rating before the game.
    pub rating: Rating,
}

/// How a seat did against another side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Result {
    /// A better place than every other side, or one it shares with none.
    Win,
    /// The same place as another side and no better one.
    Draw,
    /// A worse place than some other side.
    Loss,
}

/// The seat's result in the game as a whole: a win when no other side
/// placed better and none placed the same, a draw when one placed the
/// same and none better, a loss otherwise. Records (wins, draws, losses)
/// count these.
pub fn result_of(entrants: &[Entrant], seat: usize) -> Option<Result> {
    let me = entrants.get(seat)?;
    let others = sides(entrants)
        .into_iter()
        .filter(|side| !side.contains(&seat))
        .filter_map(|side| side.first().and_then(|&i| entrants.get(i)));
    let mut result = Result::Win;
    for other in others {
        if other.place < me.place {
            return Some(Result::Loss);
        }
        if other.place == me.place {
            result = Result::Draw;
        }
    }
    Some(result)
}

/// The seats of each side, in order of their first seat.
fn sides(entrants: &[Entrant]) -> Vec<Vec<usize>> {
    let mut sides: Vec<(Option<u8>, Vec<usize>)> = Vec::new();
    for (i, e) in entrants.iter().enumerate() {
        match sides
            .iter_mut()
            .find(|(team, _)| team.is_some() && *team == e.team)
        {
            Some((_, seats)) => seats.push(i),
            None => sides.push((e.team, vec![i])),
        }
    }
    sides.into_iter().map(|(_, seats)| seats).collect()
}

/// A side as one opponent: the mean rating of its players and the root
/// mean square of their deviations.
fn composite(entrants: &[Entrant], side: &[usize]) -> Glicko2Rating {
    let n = side.len().max(1) as f64;
    let (mut rating, mut variance, mut volatility) = (0.0, 0.0, 0.0);
    for e in side.iter().filter_map(|&i| entrants.get(i)) {
        rating += e.rating.rating;
        variance += e.rating.deviation * e.rating.deviation;
        volatility += e.rating.volatility;
    }
    Glicko2Rating {
        rating: rating / n,
        deviation: (variance / n).sqrt(),
        volatility: volatility / n,
    }
}

/// Every seat's rating after the game, in seat order (see the crate's
/// doc for how sides are read). A game with one side only changes no
/// rating.
pub fn rate(entrants: &[Entrant]) -> Vec<Rating> {
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let sides = sides(entrants);
    entrants
        .iter()
        .enumerate()
        .map(|(i, me)| {
            let games: Vec<(Glicko2Rating, Outcomes)> = sides
                .iter()
                .filter(|side| !side.contains(&i))
                .filter_map(|side| {
                    let place = entrants.get(*side.first()?)?.place;
                    let outcome = match place.cmp(&me.place) {
                        std::cmp::Ordering::Greater => Outcomes::WIN,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                        std::cmp::Ordering::Less => Outcomes::LOSS,
                    };
                    Some((composite(entrants, side), outcome))
                })
                .collect();
            if games.is_empty() {
                return me.rating;
            }
            Rating::of(glicko2_rating_period(&me.rating.glicko(), &games, &config))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    fn alone(place: u8, rating: Rating) -> Entrant {
        Entrant {
            team: None,
            place,
            rating,
        }
    }

    /// Glickman's worked example ("Example of the Glicko-2 system",
    /// 2013): a 1500/200/0.06 player beats 1400/30 and loses to 1550/100
    /// and 1700/300 in one rating period, τ = 0.5. The paper states, on
    /// the Glicko-2 scale, μ' = −0.2069, φ' = 0.8722, σ' = 0.05999, and on
    /// the Glicko scale r' = 1464.06 and RD' = 151.52, which it converts
    /// from the rounded μ' and φ' (the unrounded r' is 1464.051).
    #[test]
    fn glickmans_worked_example() {
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let player = r(1500.0, 200.0).glicko();
        let games = [
            (r(1400.0, 30.0).glicko(), Outcomes::WIN),
            (r(1550.0, 100.0).glicko(), Outcomes::LOSS),
            (r(1700.0, 300.0).glicko(), Outcomes::LOSS),
        ];
        let after = Rating::of(glicko2_rating_period(&player, &games, &config));
        let mu = (after.rating - 1500.0) / 173.7178;
        let phi = after.deviation / 173.7178;
        assert_eq!(format!("{mu:.4}"), "-0.2069", "{after:?}");
        assert_eq!(format!("{phi:.4}"), "0.8722", "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert_eq!(format!("{:.2}", after.deviation), "151.52", "{after:?}");
    }

    #[test]
    fn a_one_on_one_moves_both_ratings_by_the_same_amount_when_equal() {
        let after = rate(&[alone(1, NEWCOMER), alone(2, NEWCOMER)]);
        assert!(after[0].rating > 1500.0 && after[1].rating < 1500.0);
        assert!((after[0].rating - 1500.0 - (1500.0 - after[1].rating)).abs() < 1e-9);
        assert!(after[0].deviation < 350.0, "a game makes the rating surer");
        let draw = rate(&[alone(1, NEWCOMER), alone(1, NEWCOMER)]);
        assert!((draw[0].rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn an_upset_moves_ratings_more_than_an_expected_result() {
        let (strong, weak) = (r(1800.0, 60.0), r(1400.0, 60.0));
        let expected = rate(&[alone(1, strong), alone(2, weak)]);
        let upset = rate(&[alone(2, strong), alone(1, weak)]);
        let gain = |before: Rating, after: Rating| (after.rating - before.rating).abs();
        assert!(gain(weak, upset[1]) > 4.0 * gain(weak, expected[1]));
    }

    /// Three corporations (one side) lose to the Dark Legion: each
    /// corporation plays one game against the Dark Legion, and the Dark
    /// Legion one game against the corporations' composite, so it gains
    /// what a win over one 1500 player gives, not three times that.
    #[test]
    fn a_side_is_one_opponent() {
        let corp = |place| Entrant {
            team: Some(0),
            place,
            rating: NEWCOMER,
        };
        let dl = Entrant {
            team: Some(1),
            place: 1,
            rating: NEWCOMER,
        };
        let after = rate(&[corp(2), corp(2), corp(2), dl]);
        let one_on_one = rate(&[alone(1, NEWCOMER), alone(2, NEWCOMER)]);
        assert!((after[3].rating - one_on_one[0].rating).abs() < 1e-9);
        for c in &after[..3] {
            assert!((c.rating - one_on_one[1].rating).abs() < 1e-9);
        }
        assert_eq!(
            result_of(&[corp(2), corp(2), corp(2), dl], 0),
            Some(Result::Loss)
        );
        assert_eq!(
            result_of(&[corp(2), corp(2), corp(2), dl], 3),
            Some(Result::Win)
        );
    }

    /// In a free-for-all each seat plays every other: the winner of a
    /// three-way game gains more than the winner of a one-on-one.
    #[test]
    fn a_free_for_all_is_pairwise() {
        let three = rate(&[alone(1, NEWCOMER), alone(2, NEWCOMER), alone(3, NEWCOMER)]);
        let two = rate(&[alone(1, NEWCOMER), alone(2, NEWCOMER)]);
        assert!(three[0].rating > two[0].rating);
        assert!(
            three[1].rating > 1499.0 && three[1].rating < 1501.0,
            "{:?}",
            three[1]
        );
        assert!(three[2].rating < two[1].rating + 1e-9);
        let e = [alone(1, NEWCOMER), alone(2, NEWCOMER), alone(2, NEWCOMER)];
        assert_eq!(result_of(&e, 0), Some(Result::Win));
        assert_eq!(result_of(&e, 1), Some(Result::Loss));
        let tie = [alone(1, NEWCOMER), alone(1, NEWCOMER)];
        assert_eq!(result_of(&tie, 1), Some(Result::Draw));
    }

    #[test]
    fn one_side_alone_changes_nothing_and_provisional_is_by_deviation() {
        let solo = [Entrant {
            team: Some(0),
            place: 1,
            rating: r(1600.0, 80.0),
        }];
        assert_eq!(rate(&solo), vec![r(1600.0, 80.0)]);
        assert!(NEWCOMER.is_provisional());
        assert!(!r(1600.0, 80.0).is_provisional());
        assert_eq!(result_of(&solo, 1), None);
    }
}
