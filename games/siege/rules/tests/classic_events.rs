//! The 1993 events whose effect reaches past the Dark Legion's event step
//! (classic.md CEV-1): 6 Dark Teleportation, 9 Misinterpreted Orders and
//! 13 Nepharite Timerift, each played out on mission 1's board from the
//! start of a Dark Legion turn whose event is the card under test.

use citadel_rules::content::Corporation;
use citadel_rules::dice::{ScriptedDice, SeededDice};
use citadel_rules::game::position::Position;
use citadel_rules::game::view::PhaseView;
use citadel_rules::game::{
    Command, DarkLegionSetup, Event, FigureId, Game, Rejection, Setup, Viewer,
};

const CORPS: [Corporation; 4] = [
    Corporation::Capitol,
    Corporation::Bauhaus,
    Corporation::Mishima,
    Corporation::Imperial,
];

/// Mission 1 at the start of a Dark Legion turn whose event is `card`,
/// with `figures` placed; the event is drawn.
fn drawing(card: u32, figures: serde_json::Value) -> (Game, SeededDice) {
    let setup = Setup::new("classic-m1", &CORPS, DarkLegionSetup::Ai).with_seed(3);
    let position: Position = serde_json::from_value(serde_json::json!({
        "turn": "dark_legion_start",
        "event_deck": [2, card],
        "face_down": { "0": [], "1": [], "2": [], "3": [], "4": [], "5": [] },
        "figures": figures,
    }))
    .expect("position");
    let mut dice = SeededDice::new(3);
    let mut g = Game::scenario(setup, &position, &mut dice).expect("scenario");
    let events = g.settle(&mut dice);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::EventDrawn { card: c, .. } if *c == card)),
        "event {card} is drawn: {events:?}"
    );
    (g, dice)
}

/// Answer every decision with `pick` (or its default) until `stop` holds.
fn play_until(
    g: &mut Game,
    dice: &mut SeededDice,
    pick: impl Fn(&[Command]) -> Option<Command>,
    stop: impl Fn(&Game, &[Command]) -> bool,
) {
    for _ in 0..400 {
        let seat = g.seat_to_act().expect("someone acts");
        let legal = g.legal(seat);
        if stop(g, &legal) {
            return;
        }
        let cmd = pick(&legal)
            .or_else(|| {
                legal
                    .contains(&Command::EndTurn)
                    .then_some(Command::EndTurn)
            })
            .unwrap_or_else(|| legal[0].clone());
        g.apply(seat, cmd, dice).expect("legal");
    }
    panic!("never reached");
}

fn figure(g: &Game, name: &str) -> FigureId {
    g.view(Viewer::Spectator)
        .figures
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.id)
        .expect("figure")
}

fn moves_of(legal: &[Command], f: FigureId) -> Vec<Command> {
    legal
        .iter()
        .filter(|c| matches!(c, Command::Move { figure, .. } if *figure == f))
        .cloned()
        .collect()
}

/// CEV-1 event 6: the teleported figure may land anywhere on the board,
/// its own sector included (CE event 2 sends it to another tile), and the
/// relocation takes the place of one of its actions.
#[test]
fn cev_1_event_6_dark_teleportation_may_land_in_the_figures_own_sector() {
    let (mut g, mut dice) = drawing(
        6,
        serde_json::json!([
            { "name": "capitol-big_bob_watts", "at": { "x": 2, "y": 3 } },
            { "creature": "legionnaire", "at": { "x": 20, "y": 10 } },
        ]),
    );
    let leg = figure(&g, "legionnaire#1");
    let own = g
        .rules()
        .board
        .tile_of(citadel_rules::geometry::Square::new(20, 10));
    play_until(
        &mut g,
        &mut dice,
        |legal| {
            legal
                .contains(&Command::ChooseFigure { figure: leg })
                .then_some(Command::ChooseFigure { figure: leg })
        },
        |_, legal| {
            legal
                .iter()
                .any(|c| matches!(c, Command::ChooseTile { .. }))
        },
    );
    let seat = g.seat_to_act().expect("the Dark Legion");
    let own = own.expect("a sector");
    let tiles: Vec<usize> = g
        .legal(seat)
        .iter()
        .filter_map(|c| match c {
            Command::ChooseTile { tile } => Some(*tile),
            _ => None,
        })
        .collect();
    assert!(tiles.contains(&own), "own sector {own} in {tiles:?}");
    assert_eq!(tiles.len(), g.rules().board.tiles.len(), "every sector");
    g.apply(seat, Command::ChooseTile { tile: own }, &mut dice)
        .expect("own sector");
    let seat = g.seat_to_act().expect("the Dark Legion");
    let place = g.legal(seat)[0].clone();
    let Command::Place { square, .. } = place else {
        panic!("a square: {place:?}");
    };
    let events = g.apply(seat, place, &mut dice).expect("square");
    assert!(events.contains(&Event::Relocated {
        figure: leg,
        to: square
    }));
    // At its activation it has one action fewer (classic Legionnaire: 2).
    play_until(
        &mut g,
        &mut dice,
        |_| None,
        |g, _| {
            matches!(g.view(Viewer::Spectator).phase, PhaseView::DarkLegion)
                && g.legal(g.seat_to_act().expect("seat"))
                    .iter()
                    .any(|c| matches!(c, Command::Move { figure, .. } if *figure == leg))
        },
    );
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.figures[leg.index()].actions_allowed, 1);
}

/// CEV-1 event 9: next round the chosen team's two DTs have two base
/// actions between them, split as they like: after one DT has taken both,
/// the other's action comes from the extra-action pool.
#[test]
fn cev_1_event_9_misinterpreted_orders_share_two_base_actions() {
    let (mut g, mut dice) = drawing(
        9,
        serde_json::json!([
            { "name": "capitol-big_bob_watts", "at": { "x": 2, "y": 3 } },
            { "name": "capitol-mitch_hunter", "at": { "x": 4, "y": 5 } },
        ]),
    );
    let bob = figure(&g, "capitol-big_bob_watts");
    let mitch = figure(&g, "capitol-mitch_hunter");
    let capitol = Command::ChooseCorporation {
        corporation: Corporation::Capitol,
    };
    let round = g.view(Viewer::Spectator).round;
    play_until(
        &mut g,
        &mut dice,
        |legal| legal.contains(&capitol).then(|| capitol.clone()),
        |g, _| {
            let v = g.view(Viewer::Spectator);
            v.round == round + 1 && matches!(v.phase, PhaseView::Corporation { team: 0 })
        },
    );
    let seat = g.seat_to_act().expect("Capitol");
    for _ in 0..2 {
        let mv = moves_of(&g.legal(seat), bob)
            .pop()
            .expect("Bob moves on base actions");
        let events = g.apply(seat, mv, &mut dice).expect("move");
        assert!(!events
            .iter()
            .any(|e| matches!(e, Event::ExtraActionTaken { .. })));
    }
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.figures[mitch.index()].actions_allowed, 0);
    let pool = v.teams[0].extra_actions.expect("classic pool");
    assert!(pool > 0, "Capitol has extra actions");
    let mv = moves_of(&g.legal(seat), mitch)
        .pop()
        .expect("Mitch moves on an extra action");
    let events = g.apply(seat, mv, &mut dice).expect("move");
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::ExtraActionTaken { figure, .. } if *figure == mitch)));
}

/// CEV-1 event 13: one Nepharite has one more action this round, and that
/// action is a Move: once only one action is left and it has not moved,
/// it may move but not attack.
#[test]
fn cev_1_event_13_the_timerift_action_is_a_move() {
    let (mut g, mut dice) = drawing(
        13,
        serde_json::json!([
            { "name": "capitol-big_bob_watts", "at": { "x": 2, "y": 3 } },
            { "creature": "nepharite", "at": { "x": 3, "y": 3 } },
        ]),
    );
    let nep = figure(&g, "nepharite#1");
    let attack_of = |legal: &[Command]| {
        legal
            .iter()
            .find(|c| matches!(c, Command::Attack { figure, .. } if *figure == nep))
            .cloned()
    };
    play_until(
        &mut g,
        &mut dice,
        |_| None,
        |_, legal| attack_of(legal).is_some(),
    );
    let v = g.view(Viewer::Spectator);
    // Classic Nepharite: 3 actions, and the Timerift's Move.
    assert_eq!(v.figures[nep.index()].actions_allowed, 4);
    let seat = g.seat_to_act().expect("the Dark Legion");
    for _ in 0..3 {
        let attack = attack_of(&g.legal(seat)).expect("an attack");
        // Four red dice showing 2: no hit, so Bob stays next to it.
        let mut misses = ScriptedDice::faces([2, 2, 2, 2]);
        g.apply(seat, attack, &mut misses).expect("attack");
    }
    let legal = g.legal(seat);
    assert_eq!(attack_of(&legal), None, "the last action is a Move");
    assert!(!moves_of(&legal, nep).is_empty());
    let attack = Command::Attack {
        figure: nep,
        target: figure(&g, "capitol-big_bob_watts"),
        attack: citadel_rules::content::AttackType::CloseCombat,
        barb_die: None,
    };
    let before = serde_json::to_value(&g).expect("state");
    assert_eq!(
        g.apply(seat, attack, &mut dice),
        Err(Rejection::NoActionsLeft)
    );
    assert_eq!(serde_json::to_value(&g).expect("state"), before);
    let mv = moves_of(&legal, nep).remove(0);
    g.apply(seat, mv, &mut dice).expect("the Timerift's Move");
}
