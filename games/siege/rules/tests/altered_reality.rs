//! Classic event 11, Nepharite Altered Reality (classic.md CEV-1), on
//! mission 1's board: `LAYOUT 1 2 5 / 4 3 6` with the Citadel at (8,8), so
//! sectors 1, 2, 4 and 3 (tile indices 0, 1, 3, 4) are Citadel sectors and
//! only sectors 5 and 6 (indices 2 and 5) may trade places.

use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::position::Position;
use citadel_rules::game::{
    Command, DarkLegionSetup, Event, Game, Place, Rejection, SectorChange, Setup, Viewer,
};
use citadel_rules::geometry::Square;

const CORPS: [Corporation; 4] = [
    Corporation::Capitol,
    Corporation::Bauhaus,
    Corporation::Mishima,
    Corporation::Imperial,
];

/// Mission 1 at the start of a Dark Legion turn whose event is 11, with a
/// DT on sector 1, a DT on sector 5 and a Legionnaire on sector 6; the
/// game is settled until the Dark Legion must choose the change.
fn at_event_11() -> (Game, SeededDice) {
    let setup = Setup::new("classic-m1", &CORPS, DarkLegionSetup::Ai).with_seed(3);
    let position: Position = serde_json::from_value(serde_json::json!({
        "turn": "dark_legion_start",
        "event_deck": [2, 11],
        "face_down": { "0": [], "1": [], "2": [], "3": [], "4": [], "5": [] },
        "figures": [
            { "name": "capitol-big_bob_watts", "at": { "x": 2, "y": 3 } },
            { "name": "bauhaus-max_steiner", "at": { "x": 18, "y": 2 } },
            { "creature": "legionnaire", "at": { "x": 20, "y": 10 } },
        ],
    }))
    .expect("position");
    let mut dice = SeededDice::new(3);
    let mut g = Game::scenario(setup, &position, &mut dice).expect("scenario");
    let events = g.settle(&mut dice);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::EventDrawn { card: 11, .. })),
        "event 11 is drawn: {events:?}"
    );
    // Reinforcements first (4 teams: always placed), by their defaults.
    for _ in 0..20 {
        let seat = g.seat_to_act().expect("the Dark Legion acts");
        let legal = g.legal(seat);
        if legal
            .iter()
            .any(|c| matches!(c, Command::AlterSectors { .. }))
        {
            return (g, dice);
        }
        g.apply(seat, legal[0].clone(), &mut dice).expect("default");
    }
    panic!("no Altered Reality decision");
}

fn changes(g: &Game) -> Vec<Option<SectorChange>> {
    let seat = g.seat_to_act().expect("seat");
    g.legal(seat)
        .into_iter()
        .filter_map(|c| match c {
            Command::AlterSectors { change } => Some(change),
            _ => None,
        })
        .collect()
}

fn square_of(g: &Game, name: &str) -> Option<Square> {
    let v = g.view(Viewer::Spectator);
    v.figures
        .iter()
        .find(|f| f.name == name)
        .and_then(|f| match f.place {
            Place::Board { square } => Some(square),
            _ => None,
        })
}

/// CEV-1: the options start with leaving the board (CONV-8 default); the
/// sector 7 rule and "Citadel sectors keep their slots" hold: the only swap
/// is sectors 5 and 6; every option keeps the board whole.
#[test]
fn cev_1_event_11_offers_turns_and_the_one_legal_swap() {
    let (g, _) = at_event_11();
    let options = changes(&g);
    assert_eq!(options.first(), Some(&None), "the default leaves the board");
    let swaps: Vec<_> = options
        .iter()
        .flatten()
        .filter(|c| matches!(c, SectorChange::Swap { .. }))
        .collect();
    assert_eq!(swaps, vec![&SectorChange::Swap { a: 2, b: 5 }]);
    let board = &g.rules().board;
    assert!(options.iter().flatten().all(|c| match c {
        SectorChange::Rotate { tile, .. } => board.tiles[*tile].id != 7,
        SectorChange::Swap { .. } => true,
    }));
    assert!(options.len() > 2, "some turns are legal: {options:?}");
}

/// CEV-1: a swap takes the sectors with everything on them; the board's
/// entrances stay where they are; the map the clients draw follows.
#[test]
fn cev_1_event_11_swapping_two_sectors_moves_their_figures() {
    let (mut g, mut dice) = at_event_11();
    let before = g.rules().board.clone();
    let seat = g.seat_to_act().expect("seat");
    let change = SectorChange::Swap { a: 2, b: 5 };
    let events = g
        .apply(
            seat,
            Command::AlterSectors {
                change: Some(change),
            },
            &mut dice,
        )
        .expect("legal swap");
    assert!(events.contains(&Event::SectorsAltered { change }));
    // Sector 5 (origin 16,0) and sector 6 (origin 16,8) traded slots.
    assert_eq!(
        square_of(&g, "bauhaus-max_steiner"),
        Some(Square::new(18, 10))
    );
    assert_eq!(square_of(&g, "legionnaire#1"), Some(Square::new(20, 2)));
    assert_eq!(
        square_of(&g, "capitol-big_bob_watts"),
        Some(Square::new(2, 3))
    );
    let after = &g.rules().board;
    assert_eq!(after.tiles[2].origin, Square::new(16, 8));
    assert_eq!(after.tiles[5].origin, Square::new(16, 0));
    for (x, y) in [(0, 0), (3, 5), (7, 7)] {
        assert_eq!(
            after.cell(Square::new(16 + x, 8 + y)).map(|c| c.glyph),
            before.cell(Square::new(16 + x, y)).map(|c| c.glyph),
        );
    }
    // The state names the change, so the checksum covers the board.
    let state = serde_json::to_value(&g).expect("state");
    assert_eq!(state["layout_changes"][0]["change"], "swap");
    // Nobody stands on an impassable square, and occupancy follows.
    for f in g.view(Viewer::Spectator).figures {
        if let Place::Board { square } = f.place {
            assert!(after.passable(square), "{} on {square}", f.name);
        }
    }
}

/// CEV-1: a quarter turn clockwise takes (x, y) of the sector to
/// (7 − y, x) (MAP-12), figures included; the same command twice on a
/// fresh game makes the same board (determinism).
#[test]
fn cev_1_event_11_turning_a_sector_turns_what_stands_on_it() {
    let (g, _) = at_event_11();
    let turn = changes(&g)
        .into_iter()
        .flatten()
        .find(|c| matches!(c, SectorChange::Rotate { tile: 2, .. }))
        .expect("sector 5 may turn");
    let SectorChange::Rotate { clockwise, .. } = turn else {
        unreachable!()
    };
    let mut boards = Vec::new();
    for _ in 0..2 {
        let (mut g, mut dice) = at_event_11();
        let seat = g.seat_to_act().expect("seat");
        g.apply(
            seat,
            Command::AlterSectors { change: Some(turn) },
            &mut dice,
        )
        .expect("legal turn");
        // Max Steiner at local (2, 2) of the sector at (16, 0).
        let want = if clockwise { (7 - 2, 2) } else { (2, 7 - 2) };
        assert_eq!(
            square_of(&g, "bauhaus-max_steiner"),
            Some(Square::new(16 + want.0, want.1))
        );
        assert_eq!(g.rules().board.tiles[2].rotation % 90, 0);
        boards.push(g.rules().board.clone());
    }
    assert_eq!(boards[0], boards[1]);
}

/// A change the rules forbid is refused and changes nothing: sector 7 is
/// not on this board, but Citadel sectors may not trade places.
#[test]
fn cev_1_event_11_refuses_moving_a_citadel_sector() {
    let (mut g, mut dice) = at_event_11();
    let seat = g.seat_to_act().expect("seat");
    let before = serde_json::to_value(&g).expect("state");
    let swap = SectorChange::Swap { a: 0, b: 2 };
    assert_eq!(
        g.apply(
            seat,
            Command::AlterSectors { change: Some(swap) },
            &mut dice
        ),
        Err(Rejection::InvalidChoice)
    );
    assert_eq!(serde_json::to_value(&g).expect("state"), before);
    // Leaving the board is always allowed.
    let events = g
        .apply(seat, Command::AlterSectors { change: None }, &mut dice)
        .expect("no change");
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::SectorsAltered { .. })));
}

/// CEV-1: the Citadel piece stays over the sectors' corners, so a turn of
/// a Citadel sector that would bring a figure under it is not offered (a
/// quarter turn clockwise takes (7, 0) of sector 1 to (7, 7), under the
/// piece at (8, 8)); the other turn is.
#[test]
fn cev_1_event_11_never_turns_a_figure_under_the_citadel() {
    let setup = Setup::new("classic-m1", &CORPS, DarkLegionSetup::Ai).with_seed(3);
    let position: Position = serde_json::from_value(serde_json::json!({
        "turn": "dark_legion_start",
        "event_deck": [2, 11],
        "face_down": { "0": [], "1": [], "2": [], "3": [], "4": [], "5": [] },
        "figures": [
            { "name": "capitol-big_bob_watts", "at": { "x": 7, "y": 0 } },
        ],
    }))
    .expect("position");
    let mut dice = SeededDice::new(3);
    let mut g = Game::scenario(setup, &position, &mut dice).expect("scenario");
    g.settle(&mut dice);
    assert!(
        !g.rules().board.passable(Square::new(7, 7)),
        "under the piece"
    );
    for _ in 0..20 {
        let seat = g.seat_to_act().expect("the Dark Legion acts");
        let legal = g.legal(seat);
        if legal
            .iter()
            .any(|c| matches!(c, Command::AlterSectors { .. }))
        {
            let options = changes(&g);
            let turn = |clockwise| Some(SectorChange::Rotate { tile: 0, clockwise });
            assert!(!options.contains(&turn(true)), "{options:?}");
            assert!(options.contains(&turn(false)), "{options:?}");
            return;
        }
        g.apply(seat, legal[0].clone(), &mut dice).expect("default");
    }
    panic!("no Altered Reality decision");
}

/// Games of one mission share its board until one of them changes it: a
/// turn in one game leaves the other's board, figures and choices as they
/// were, and the other can still make a different change.
#[test]
fn cev_1_event_11_a_change_stays_in_its_own_game() {
    let (mut changed, mut dice) = at_event_11();
    let (other, _) = at_event_11();
    assert!(std::sync::Arc::ptr_eq(changed.rules(), other.rules()));
    let before = (other.rules().board.clone(), changes(&other));
    let turn = SectorChange::Rotate {
        tile: 2,
        clockwise: true,
    };
    assert!(before.1.contains(&Some(turn)));
    let seat = changed.seat_to_act().expect("seat");
    changed
        .apply(
            seat,
            Command::AlterSectors { change: Some(turn) },
            &mut dice,
        )
        .expect("legal turn");
    assert_ne!(changed.rules().board, before.0);
    assert_eq!(other.rules().board, before.0);
    assert_eq!(changes(&other), before.1);
    assert_eq!(
        square_of(&other, "bauhaus-max_steiner"),
        Some(Square::new(18, 2))
    );
}
