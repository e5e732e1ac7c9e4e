//! The AI Dark Legion's deck is game state (core AI-1, AI-8, HID-1, HID-3):
//! shuffled at mission start, revealed by the AI seat's `RevealAiCard` or
//! by the game for the tie-breaker, public once revealed, shuffled back at
//! the end of each DL turn, and restored by plain replay.

use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::view::PhaseView;
use citadel_rules::game::{Command, DarkLegionSetup, Event, Game, Rejection, Seat, Setup, Viewer};

fn game(dl: DarkLegionSetup, seed: u64) -> (Game, SeededDice) {
    let corps: &[Corporation] = match dl {
        DarkLegionSetup::Ai => &[Corporation::Bauhaus, Corporation::Imperial],
        _ => &[
            Corporation::Bauhaus,
            Corporation::Imperial,
            Corporation::Capitol,
        ],
    };
    let setup = Setup::new("ce-c1m1", corps, dl).with_seed(seed);
    let mut dice = SeededDice::new(seed);
    let (g, _) = Game::new(setup, &mut dice).expect("setup");
    (g, dice)
}

/// A quick answer: end the turn, pass the draft, else the first option
/// that is not a card reveal.
fn quick(g: &Game, seat: Seat) -> Command {
    let legal = g.legal(seat);
    for c in [Command::EndTurn, Command::PassEquipment] {
        if legal.contains(&c) {
            return c;
        }
    }
    legal
        .into_iter()
        .find(|c| *c != Command::RevealAiCard)
        .expect("a command")
}

#[test]
fn ai_1_a_game_with_a_dl_player_has_no_ai_deck() {
    let (mut g, mut dice) = game(DarkLegionSetup::Seat(2), 3);
    assert!(g.ai_deck().is_none());
    assert!(g.view(Viewer::Spectator).ai_deck.is_none());
    for _ in 0..200 {
        let Some(seat) = g.seat_to_act() else { break };
        assert!(!g.legal(seat).contains(&Command::RevealAiCard));
        assert_eq!(
            g.clone().apply(seat, Command::RevealAiCard, &mut dice),
            Err(Rejection::WrongPhase)
        );
        let c = quick(&g, seat);
        g.apply(seat, c, &mut dice).expect("legal");
    }
}

#[test]
fn ai_1_reveals_are_public_belong_to_one_decision_and_go_back_after_the_dl_turn() {
    let (mut g, mut dice) = game(DarkLegionSetup::Ai, 5);
    let dl = g.dark_legion_seat();
    let start = g.view(Viewer::Spectator).ai_deck.expect("AI deck");
    assert_eq!((start.draw, start.discard.len()), (54, 0));
    let (mut revealed_once, mut saw_tie_breaker, mut saw_reshuffle) = (false, false, false);
    for _ in 0..5_000 {
        if g.is_finished() {
            break;
        }
        let seat = g.seat_to_act().expect("someone acts");
        let view = g.view(Viewer::Spectator);
        let deck = view.ai_deck.clone().expect("AI deck");
        if seat != dl {
            // Only the AI's seat reveals.
            assert!(g
                .clone()
                .apply(seat, Command::RevealAiCard, &mut dice)
                .is_err());
            let c = quick(&g, seat);
            g.apply(seat, c, &mut dice).expect("legal");
            continue;
        }
        assert_eq!(g.legal(dl).last(), Some(&Command::RevealAiCard));
        if view.pending.is_none() && view.phase == PhaseView::DarkLegion {
            // AI-8: the game revealed the tie-breaker before the DL acts.
            let tb = deck.tie_breaker.expect("tie-breaker");
            assert!(deck.discard.contains(&tb));
            saw_tie_breaker = true;
        }
        if !revealed_once {
            let events = g
                .apply(dl, Command::RevealAiCard, &mut dice)
                .expect("reveal");
            let card = events
                .iter()
                .find_map(|e| match e {
                    Event::AiCardRevealed {
                        card,
                        tie_breaker: false,
                    } => Some(*card),
                    _ => None,
                })
                .expect("revealed event");
            // HID-3: every viewer sees the card.
            for viewer in [Viewer::Spectator, Viewer::Seat(Seat(0))] {
                assert_eq!(Game::filter_events(&events, viewer), events);
            }
            let after = g.view(Viewer::Seat(Seat(1))).ai_deck.expect("deck");
            assert_eq!(after.revealed, vec![card]);
            assert_eq!(after.draw + 1, deck.draw);
            assert_eq!(after.discard.last(), Some(&card));
            // Another command from the AI's seat closes the decision.
            let c = quick(&g, dl);
            g.apply(dl, c, &mut dice).expect("legal");
            let closed = g.view(Viewer::Spectator).ai_deck.expect("deck");
            assert!(closed.revealed.is_empty());
            revealed_once = true;
            continue;
        }
        let c = quick(&g, dl);
        let end_turn = c == Command::EndTurn && view.phase == PhaseView::DarkLegion;
        let events = g.apply(dl, c, &mut dice).expect("legal");
        if end_turn {
            // AI-1: all cards shuffled back at the end of the DL turn.
            assert!(events.contains(&Event::AiDeckShuffled));
            let d = g.view(Viewer::Spectator).ai_deck.expect("deck");
            assert_eq!((d.draw, d.discard.len(), d.tie_breaker), (54, 0, None));
            saw_reshuffle = true;
        }
    }
    assert!(revealed_once && saw_tie_breaker && saw_reshuffle);
}

#[test]
fn ai_1_deck_order_is_hidden_and_replay_restores_it() {
    let (mut g, mut dice) = game(DarkLegionSetup::Ai, 9);
    let setup = g.setup().clone();
    let dl = g.dark_legion_seat();
    let mut commands = Vec::new();
    for _ in 0..400 {
        let Some(seat) = g.seat_to_act() else { break };
        // Reveal a card before each AI answer, as the AI does.
        let c = if seat == dl
            && g.legal(dl).contains(&Command::RevealAiCard)
            && commands.len() % 2 == 0
        {
            Command::RevealAiCard
        } else {
            quick(&g, seat)
        };
        g.apply(seat, c.clone(), &mut dice).expect("legal");
        commands.push((seat, c));
    }
    assert!(commands.iter().any(|(_, c)| *c == Command::RevealAiCard));
    let mut dice2 = SeededDice::new(setup.seed);
    let (mut again, _) = Game::new(setup, &mut dice2).expect("setup");
    for (seat, c) in commands {
        again.apply(seat, c, &mut dice2).expect("replay");
    }
    assert_eq!(again.ai_deck(), g.ai_deck());
    assert_eq!(again.view(Viewer::Spectator), g.view(Viewer::Spectator));
    // HID-1: the view shows the pile as a count only.
    let json = serde_json::to_value(g.view(Viewer::Spectator)).expect("json");
    assert!(json["ai_deck"]["draw"].is_u64());
}
