//! Bots see what their seat sees (core HID-1, HID-2): re-dealing every
//! hidden thing a seat may not see (face-down force cards, the force pile,
//! the event, door, DT-card and AI deck orders, other teams' DT hands)
//! changes no bot's choice for that seat.

use citadel_bots::matchup::{setup, DlBot};
use citadel_bots::{
    timeout_default, AiDarkLegion, Bot, HeuristicCorporation, HeuristicDarkLegion, RandomBot, Seen,
};
use citadel_rules::dice::SeededDice;
use citadel_rules::game::{Command, Game, Seat, Viewer};
use proptest::prelude::*;

/// Every bot's choice for `seat` in `game`; each bot is fresh, so a
/// stateful one (the random bot) starts from the same seed both times.
fn choices(game: &Game, seat: Seat, seed: u64) -> Vec<Option<Command>> {
    let seen = Seen::of(game, seat);
    let mut bots: Vec<Box<dyn Bot>> = vec![
        Box::new(RandomBot::new(seed)),
        Box::new(HeuristicCorporation::new()),
        Box::new(HeuristicDarkLegion::new()),
        Box::new(AiDarkLegion::new()),
    ];
    let mut out: Vec<Option<Command>> = bots.iter_mut().map(|b| b.choose(&seen)).collect();
    out.push(timeout_default(&seen.legal));
    out
}

/// The bot that plays `seat` in the game being driven.
fn driver(game: &Game, seat: Seat, dl: DlBot) -> Box<dyn Bot> {
    if seat != game.dark_legion_seat() {
        Box::new(HeuristicCorporation::new())
    } else if dl == DlBot::Ai {
        Box::new(AiDarkLegion::new())
    } else {
        Box::new(HeuristicDarkLegion::new())
    }
}

/// Every playable mission (`game::playable`).
fn mission() -> impl Strategy<Value = &'static str> {
    let content = citadel_rules::Content::embedded().expect("embedded content");
    prop::sample::select(citadel_rules::game::playable::playable_missions(content))
}

fn dl_kind() -> impl Strategy<Value = DlBot> {
    prop_oneof![Just(DlBot::Ai), Just(DlBot::Heuristic)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn hid_no_bot_choice_depends_on_hidden_state(
        mission in mission(),
        seed in 0u64..10_000,
        dl in dl_kind(),
        every in 5usize..30,
        scramble in any::<u64>(),
    ) {
        let mut dice = SeededDice::new(seed);
        let (mut game, _) = Game::new(setup(mission, dl, seed), &mut dice).expect("setup");
        let mut scramble_dice = SeededDice::new(scramble);
        let mut checked = 0;
        for step in 0..600 {
            if game.is_finished() {
                break;
            }
            let seat = game.seat_to_act().expect("someone acts");
            if step % every == 0 {
                let mut other = game.clone();
                other.scramble_hidden(seat, &mut scramble_dice);
                // What the seat is given is the same...
                let (a, b) = (Seen::of(&game, seat), Seen::of(&other, seat));
                prop_assert_eq!(&a.view, &b.view, "step {} seat {}", step, seat.0);
                prop_assert_eq!(&a.legal, &b.legal, "step {} seat {}", step, seat.0);
                // ...and so is every bot's choice.
                prop_assert_eq!(
                    choices(&game, seat, seed),
                    choices(&other, seat, seed),
                    "step {} seat {}", step, seat.0
                );
                checked += 1;
            }
            let cmd = driver(&game, seat, dl)
                .choose(&Seen::of(&game, seat))
                .expect("a command");
            game.apply(seat, cmd, &mut dice).expect("legal");
        }
        prop_assert!(checked > 0);
    }
}

/// The scramble does change hidden state, so the property above is not
/// vacuous: the next force card revealed, or the next event, differs for
/// some seed.
#[test]
fn scramble_changes_what_comes_next() {
    let mut differs = false;
    for seed in 0..20u64 {
        let mut dice = SeededDice::new(seed);
        let (game, _) = Game::new(setup("ce-c1m1", DlBot::Ai, seed), &mut dice).expect("setup");
        let mut other = game.clone();
        other.scramble_hidden(Seat(0), &mut SeededDice::new(seed + 1));
        // Seat 0 sees the same game...
        assert_eq!(
            game.view(Viewer::Seat(Seat(0))),
            other.view(Viewer::Seat(Seat(0)))
        );
        // ...that differs underneath.
        let json = |g: &Game| serde_json::to_string(g).expect("json");
        if json(&game) != json(&other) {
            differs = true;
            break;
        }
    }
    assert!(differs);
}

/// The same property in games with secondary missions (ce.md SET-10): C1M1
/// played as if its record said `SECONDARY yes`. The scramble re-deals the
/// other teams' kept and offered cards and the secondary deck.
#[test]
fn hid_no_bot_choice_depends_on_other_teams_secondary_missions() {
    let mut content = citadel_rules::content::Content::embedded()
        .expect("content")
        .clone();
    for m in content.missions.iter_mut().filter(|m| m.id == "ce-c1m1") {
        m.secondary = true;
    }
    for seed in 0..4u64 {
        let dl = if seed % 2 == 0 {
            DlBot::Ai
        } else {
            DlBot::Heuristic
        };
        let mut dice = SeededDice::new(seed);
        let (mut game, _) =
            Game::with_content(setup("ce-c1m1", dl, seed), &content, &mut dice).expect("setup");
        let mut scramble_dice = SeededDice::new(seed + 99);
        for step in 0..400 {
            if game.is_finished() {
                break;
            }
            let seat = game.seat_to_act().expect("someone acts");
            if step % 3 == 0 {
                let mut other = game.clone();
                other.scramble_hidden(seat, &mut scramble_dice);
                let (a, b) = (Seen::of(&game, seat), Seen::of(&other, seat));
                assert_eq!(a.view, b.view, "seed {seed} step {step}");
                assert_eq!(a.legal, b.legal, "seed {seed} step {step}");
                assert_eq!(choices(&game, seat, seed), choices(&other, seat, seed));
            }
            let cmd = driver(&game, seat, dl)
                .choose(&Seen::of(&game, seat))
                .expect("a command");
            game.apply(seat, cmd, &mut dice).expect("legal");
        }
    }
}
