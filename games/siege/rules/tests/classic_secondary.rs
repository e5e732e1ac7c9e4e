//! The 1993 secondary missions (classic.md CSM-1, CSM-2; core HID-1,
//! HID-2, MSN-7) over whole games: random legal play of missions 5 and 1
//! with 3 and 4 corporation teams.

use citadel_rules::content::Corporation;
use citadel_rules::dice::{Dice, SeededDice};
use citadel_rules::game::{DarkLegionSetup, Event, Game, Seat, Setup, Side, Viewer};

const CORPS: [Corporation; 5] = [
    Corporation::Mishima,
    Corporation::Capitol,
    Corporation::Bauhaus,
    Corporation::Imperial,
    Corporation::Cybertronic,
];

/// Every viewer but `owner`.
fn others(game: &Game, owner: Seat) -> Vec<Viewer> {
    let mut v = vec![Viewer::Spectator];
    v.extend(
        game.seats()
            .into_iter()
            .filter(|s| *s != owner)
            .map(Viewer::Seat),
    );
    v
}

/// Random legal play: before the end no viewer but the owner sees a
/// team's card, in views or events; the primary flags are the same for
/// every viewer; scrambling the hidden state changes nothing a seat is
/// given; at the end every card is revealed and resolved, and each gives
/// exactly one CSM-2 credit award (team on success, Dark Legion on
/// failure), with no PP for it.
#[test]
fn csm_1_csm_2_hid_2_1993_secondary_cards_stay_secret_until_the_end() {
    let mut scrambled_differs = false;
    for seed in 0..10u64 {
        let (mission, teams) = if seed % 2 == 0 {
            ("classic-m5", 3)
        } else {
            ("classic-m1", 4)
        };
        let dl = if seed % 4 < 2 {
            DarkLegionSetup::Ai
        } else {
            DarkLegionSetup::Drawn
        };
        // A drawn Dark Legion is one of the players (SET-2).
        let corps = if dl == DarkLegionSetup::Ai {
            &CORPS[..teams]
        } else {
            &CORPS[..teams + 1]
        };
        let mut dice = SeededDice::new(seed);
        let setup = Setup::new(mission, corps, dl).with_seed(seed);
        let (mut g, mut all) = Game::new(setup, &mut dice).expect("setup");
        assert_eq!(g.view(Viewer::Spectator).teams.len(), teams);
        let mut bot = SeededDice::new(seed ^ 0x5ec);
        let mut steps = 0;
        while !g.is_finished() && steps < 20_000 {
            steps += 1;
            let seat = g.seat_to_act().expect("someone acts");
            let spectator = g.view(Viewer::Spectator);
            if steps % 11 == 0 {
                let mut other = g.clone();
                other.scramble_hidden(seat, &mut SeededDice::new(seed + steps as u64));
                assert_eq!(g.view(Viewer::Seat(seat)), other.view(Viewer::Seat(seat)));
                assert_eq!(g.legal(seat), other.legal(seat));
                let secrets = |x: &Game| {
                    spectator
                        .teams
                        .iter()
                        .map(|t| x.view(Viewer::Seat(t.seat)).teams[usize::from(t.team)].secondary)
                        .collect::<Vec<_>>()
                };
                if secrets(&g) != secrets(&other) {
                    scrambled_differs = true;
                }
            }
            for t in &spectator.teams {
                for v in others(&g, t.seat) {
                    let seen = &g.view(v).teams[usize::from(t.team)];
                    assert_eq!(
                        seen.secondary, None,
                        "seed {seed}: {v:?} sees team {}",
                        t.team
                    );
                    assert_eq!(seen.primary, t.primary, "CSM-1: primary is public");
                }
            }
            assert!(spectator.credits.is_empty(), "credits only at the end");
            let legal = g.legal(seat);
            let cmd = legal[bot.below(legal.len() as u32) as usize].clone();
            all.extend(g.apply(seat, cmd, &mut dice).expect("legal"));
        }
        assert!(g.is_finished(), "seed {seed} did not finish");
        for e in &all {
            if let Event::SecondaryDealt { seat, cards } = e {
                assert_eq!(cards.as_ref().map(Vec::len), Some(1), "CSM-1: one card");
                for v in others(&g, *seat) {
                    assert_eq!(
                        e.for_viewer(v),
                        Event::SecondaryDealt {
                            seat: *seat,
                            cards: None
                        }
                    );
                }
            }
        }
        let view = g.view(Viewer::Spectator);
        let primary = view
            .teams
            .iter()
            .filter(|t| t.primary == Some(true))
            .count();
        assert_eq!(primary, 2, "seed {seed}");
        let resolved: Vec<(Seat, u32, bool)> = all
            .iter()
            .filter_map(|e| match e {
                Event::SecondaryResolved {
                    seat,
                    card,
                    success,
                } => Some((*seat, *card, *success)),
                _ => None,
            })
            .collect();
        assert_eq!(resolved.len(), teams - 2, "seed {seed}");
        assert_eq!(view.credits.len(), teams - 2);
        for (t, award) in view
            .teams
            .iter()
            .filter(|t| t.primary == Some(false))
            .zip(&view.credits)
        {
            assert_eq!(award.team, t.team, "team order");
            let card = t.secondary.expect("revealed at the end");
            assert!((1..=10).contains(&card));
            let success = resolved
                .iter()
                .find(|(s, c, _)| *s == t.seat && *c == card)
                .map(|r| r.2)
                .expect("resolved");
            if success {
                assert_eq!(
                    (award.side, award.amount),
                    (Side::Team(t.team), 2),
                    "seed {seed}"
                );
            } else {
                assert_eq!((award.side, award.amount), (Side::DarkLegion, 1));
            }
        }
        assert!(!all.iter().any(|e| matches!(
            e,
            Event::PromotionPoints { reason, .. } if reason.starts_with("secondary")
        )));
    }
    assert!(scrambled_differs, "the scramble never moved a card");
}
