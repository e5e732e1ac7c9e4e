//! Secondary missions (ce.md SET-10, SET-13, SEC, PPC-4; core MSN-7,
//! HID-1, HID-2) over whole games: C1M1 played as if its record said
//! `SECONDARY yes`.

use citadel_rules::content::{Content, Corporation};
use citadel_rules::dice::{Dice, SeededDice};
use citadel_rules::game::{Command, DarkLegionSetup, Event, Game, Seat, Setup, Viewer};

/// C1M1 with secondary missions.
fn content() -> Content {
    let mut c = Content::embedded().expect("content").clone();
    for m in c.missions.iter_mut().filter(|m| m.id == "ce-c1m1") {
        m.secondary = true;
    }
    c
}

fn game(seed: u64, corps: &[Corporation], dl: DarkLegionSetup) -> (Game, Vec<Event>, SeededDice) {
    let mut dice = SeededDice::new(seed);
    let setup = Setup::new("ce-c1m1", corps, dl).with_seed(seed);
    let (g, ev) = Game::with_content(setup, &content(), &mut dice).expect("setup");
    (g, ev, dice)
}

const CORPS: [Corporation; 3] = [
    Corporation::Bauhaus,
    Corporation::Capitol,
    Corporation::Mishima,
];

/// Every viewer but the owner of team `t`.
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

#[test]
fn set_13_the_default_answer_keeps_the_first_card_drawn() {
    let (mut g, _, mut dice) = game(5, &CORPS[..2], DarkLegionSetup::Ai);
    for _ in 0..2 {
        let seat = g.seat_to_act().expect("draft");
        g.apply(seat, Command::PassEquipment, &mut dice)
            .expect("pass");
    }
    let seat = g.seat_to_act().expect("keep");
    let view = g.view(Viewer::Seat(seat));
    let team = view.teams.iter().find(|t| t.seat == seat).expect("team");
    let offer = team.secondary_offer.clone().expect("own offer");
    assert_eq!(offer.len(), 2);
    assert_ne!(offer[0], offer[1]);
    let legal = g.legal(seat);
    assert_eq!(
        legal,
        offer
            .iter()
            .map(|&card| Command::KeepSecondary { card })
            .collect::<Vec<_>>()
    );
    // CONV-8: the first legal option is the default.
    g.apply(seat, legal[0].clone(), &mut dice).expect("keep");
    let view = g.view(Viewer::Seat(seat));
    let team = view.teams.iter().find(|t| t.seat == seat).expect("team");
    assert_eq!(team.secondary, Some(offer[0]));
    assert_eq!(team.secondary_offer, None);
}

/// Random legal play of secondary-mission games: no viewer other than the
/// owner ever sees a card (views or events) before the end; the scramble
/// of hidden state changes nothing a seat is given; every kept card is
/// revealed and resolved at the end.
#[test]
fn hid_2_msn_7_secondary_cards_stay_secret_until_the_end() {
    let mut scrambled_differs = false;
    for seed in 0..8u64 {
        let dl = if seed % 2 == 0 {
            DarkLegionSetup::Ai
        } else {
            DarkLegionSetup::Drawn
        };
        let (mut g, mut all, mut dice) = game(seed, &CORPS, dl);
        let mut bot = SeededDice::new(seed ^ 0xabc);
        let mut steps = 0;
        while !g.is_finished() && steps < 4000 {
            steps += 1;
            let seat = g.seat_to_act().expect("someone acts");
            if steps % 7 == 0 {
                let mut other = g.clone();
                other.scramble_hidden(seat, &mut SeededDice::new(seed + steps as u64));
                assert_eq!(g.view(Viewer::Seat(seat)), other.view(Viewer::Seat(seat)));
                assert_eq!(g.legal(seat), other.legal(seat));
                let secrets = |x: &Game| {
                    x.view(Viewer::Spectator)
                        .teams
                        .iter()
                        .map(|t| x.view(Viewer::Seat(t.seat)).teams[usize::from(t.team)].secondary)
                        .collect::<Vec<_>>()
                };
                if secrets(&g) != secrets(&other) {
                    scrambled_differs = true;
                }
            }
            for t in g.view(Viewer::Spectator).teams {
                for v in others(&g, t.seat) {
                    let seen = &g.view(v).teams[usize::from(t.team)];
                    assert_eq!(
                        seen.secondary, None,
                        "seed {seed}: {v:?} sees team {}",
                        t.team
                    );
                    assert_eq!(seen.secondary_offer, None);
                }
            }
            let legal = g.legal(seat);
            let cmd = legal[bot.below(legal.len() as u32) as usize].clone();
            all.extend(g.apply(seat, cmd, &mut dice).expect("legal"));
        }
        assert!(g.is_finished(), "seed {seed} did not finish");
        // Events: the dealt and kept cards only for their owner.
        for e in &all {
            if let Event::SecondaryDealt { seat, .. } | Event::SecondaryKept { seat, .. } = e {
                for v in others(&g, *seat) {
                    match e.for_viewer(v) {
                        Event::SecondaryDealt { cards, .. } => assert_eq!(cards, None),
                        Event::SecondaryKept { card, .. } => assert_eq!(card, None),
                        other => panic!("{other:?}"),
                    }
                }
            }
        }
        let teams = g.view(Viewer::Spectator).teams;
        let resolved: Vec<(Seat, u32)> = all
            .iter()
            .filter_map(|e| match e {
                Event::SecondaryResolved { seat, card, .. } => Some((*seat, *card)),
                _ => None,
            })
            .collect();
        assert_eq!(resolved.len(), teams.len(), "seed {seed}");
        for t in &teams {
            // PPC-4: revealed to everyone once the mission is over.
            let card = t.secondary.expect("revealed");
            assert!((1..=18).contains(&card));
            assert!(resolved.contains(&(t.seat, card)));
        }
        // Each card at most once (the deck holds 18 different cards).
        let mut cards: Vec<u32> = teams.iter().filter_map(|t| t.secondary).collect();
        cards.sort_unstable();
        cards.dedup();
        assert_eq!(cards.len(), teams.len());
        // PPC-4 order: secondaries after the primary result, before
        // reckless tokens and the end.
        let pos = |f: &dyn Fn(&Event) -> bool| all.iter().position(f);
        let first_sec = pos(&|e| matches!(e, Event::SecondaryResolved { .. })).expect("sec");
        let end = pos(&|e| matches!(e, Event::MissionEnded { .. })).expect("end");
        assert!(first_sec < end);
        if let Some(primary) = pos(
            &|e| matches!(e, Event::PromotionPoints { reason, .. } if reason.starts_with("primary mission")),
        ) {
            assert!(primary < first_sec);
        }
        if let Some(reckless) = pos(
            &|e| matches!(e, Event::PromotionPoints { reason, .. } if reason == "reckless manoeuvres"),
        ) {
            assert!(first_sec < reckless);
        }
    }
    assert!(
        scrambled_differs,
        "the scramble never moved a secondary card"
    );
}
