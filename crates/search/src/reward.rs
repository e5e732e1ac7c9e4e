//! From placings to rewards in `[0, 1]`.

use citadel_game::Outcome;

/// Each seat's reward, indexed by seat: the share of its opponents it
/// finished ahead of, a tie counting half. Team mates (a shared
/// `team`) are not opponents. So in a two-seat game a win is 1, a draw
/// 0.5 and a loss 0; four free-for-all seats placed 1, 2, 2, 4 get 1,
/// 0.5, 0.5, 0; a side of corporations that shares first place against
/// a Dark Legion placed second gets 1 each. A seat with no opponent gets
/// 1 in first place and 0 otherwise.
pub fn rewards(outcome: &Outcome) -> Vec<f64> {
    let n = outcome
        .placings
        .iter()
        .map(|p| usize::from(p.seat.0) + 1)
        .max()
        .unwrap_or(0);
    let mut out = vec![0.5; n];
    for p in &outcome.placings {
        let mut opponents = 0u32;
        let mut score = 0.0;
        for q in &outcome.placings {
            let mate = q.seat == p.seat || (p.team.is_some() && q.team == p.team);
            if mate {
                continue;
            }
            opponents += 1;
            if p.place < q.place {
                score += 1.0;
            } else if p.place == q.place {
                score += 0.5;
            }
        }
        out[usize::from(p.seat.0)] = if opponents == 0 {
            if p.place == 1 {
                1.0
            } else {
                0.0
            }
        } else {
            score / f64::from(opponents)
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use citadel_game::{Placing, Seat};

    fn outcome(places: &[(Option<u8>, u8)]) -> Outcome {
        Outcome {
            placings: places
                .iter()
                .enumerate()
                .map(|(i, (team, place))| Placing {
                    seat: Seat(i as u8),
                    team: *team,
                    place: *place,
                    score: 0,
                })
                .collect(),
        }
    }

    #[test]
    fn two_seats_win_draw_loss() {
        assert_eq!(rewards(&outcome(&[(None, 1), (None, 2)])), [1.0, 0.0]);
        assert_eq!(rewards(&outcome(&[(None, 2), (None, 1)])), [0.0, 1.0]);
        // A draw is both in first place: half, not a win.
        assert_eq!(rewards(&outcome(&[(None, 1), (None, 1)])), [0.5, 0.5]);
    }

    #[test]
    fn free_for_all_counts_opponents_beaten() {
        let r = rewards(&outcome(&[(None, 1), (None, 2), (None, 2), (None, 4)]));
        assert_eq!(r, [1.0, 0.5, 0.5, 0.0]);
    }

    #[test]
    fn team_mates_are_not_opponents() {
        // Three corporations (team 0) share first place against the Dark
        // Legion (no team) in fourth.
        let r = rewards(&outcome(&[
            (Some(0), 1),
            (Some(0), 1),
            (Some(0), 1),
            (None, 4),
        ]));
        assert_eq!(r, [1.0, 1.0, 1.0, 0.0]);
        let lost = rewards(&outcome(&[(Some(0), 2), (Some(0), 2), (None, 1)]));
        assert_eq!(lost, [0.0, 0.0, 1.0]);
    }

    #[test]
    fn a_seat_alone_wins_or_loses() {
        assert_eq!(rewards(&outcome(&[(Some(0), 1), (Some(0), 1)])), [1.0, 1.0]);
        assert_eq!(rewards(&outcome(&[(Some(0), 2), (Some(0), 2)])), [0.0, 0.0]);
    }
}
