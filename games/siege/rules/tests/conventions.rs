//! Conventions, setup and board facts of a fresh C1M1 game (CONV, BRD-1,
//! FRC-1, EVT-1, SET-3/4/12, RNK-4), read from the engine's state. Every
//! test names the rule it covers.

use citadel_rules::content::ids::Edition;
use citadel_rules::content::Corporation;
use citadel_rules::game::position::Position;
use citadel_rules::game::{Command, DarkLegionSetup, Event, Game, Seat, Setup, SetupError};
use citadel_rules::geometry::Square;
use citadel_rules::{ScriptedDice, SeededDice};
use serde_json::{json, Value};

const C1M1: &str = "ce-c1m1";

fn new_game(corps: &[Corporation], dl: DarkLegionSetup, seed: u64) -> (Game, Vec<Event>) {
    let setup = Setup::new(C1M1, corps, dl).with_seed(seed);
    Game::new(setup, &mut SeededDice::new(seed)).expect("setup")
}

fn state(g: &Game) -> Value {
    serde_json::to_value(g).expect("state")
}

fn numbers(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_u64().expect("number") as u32)
        .collect()
}

#[test]
fn conv_1_a_c1m1_game_runs_the_ce_edition() {
    let (g, _) = new_game(&[Corporation::Bauhaus], DarkLegionSetup::Ai, 0);
    assert_eq!(g.mission().edition, Edition::Ce);
    // CE hooks in force: DT health 5, one force card per tile and player.
    let s = state(&g);
    assert_eq!(s["figures"][0]["health"], json!(5));
    assert_eq!(s["tiles"][0]["face_down"].as_array().map(Vec::len), Some(1));
}

#[test]
fn conv_5_figure_ids_are_corp_name_and_type_number() {
    let (g, _) = new_game(
        &[Corporation::Bauhaus, Corporation::Capitol],
        DarkLegionSetup::Ai,
        0,
    );
    for name in [
        "bauhaus-max_steiner",
        "capitol-big_bob_watts",
        "legionnaire#1",
        "legionnaire#12",
        "necromutant#9",
        "centurion#3",
        "razide#2",
        "nepharite#1",
        "ezoghoul#1",
        "praetorian_stalker#2",
    ] {
        let id = g.figure_id(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(g.figure_name(id), Some(name));
    }
    // DL-1 pool sizes bound the numbers.
    assert!(g.figure_id("legionnaire#13").is_none());
    assert!(g.figure_id("razide#3").is_none());
}

#[test]
fn conv_7_the_draft_starts_after_the_dl_in_seat_order() {
    let corps = [
        Corporation::Bauhaus,
        Corporation::Capitol,
        Corporation::Mishima,
    ];
    // DL in seat 1: Mishima (seat 2) picks first, then Bauhaus (seat 0).
    let (g, _) = new_game(&corps, DarkLegionSetup::Seat(1), 0);
    assert_eq!(g.seat_to_act(), Some(Seat(2)));
    assert_eq!(g.seat_of(Corporation::Capitol), None);
    let s = state(&g);
    let order: Vec<u32> = numbers(&s["phase"]["order"]);
    let seats: Vec<Value> = order
        .iter()
        .map(|t| s["teams"][*t as usize]["seat"].clone())
        .collect();
    assert_eq!(seats, vec![json!(2), json!(0)]);
    // DL in seat 2: wrapping, seat 0 picks first.
    let (g, _) = new_game(&corps, DarkLegionSetup::Seat(2), 0);
    assert_eq!(g.seat_to_act(), Some(Seat(0)));
    // An AI DL has no seat.
    let (_, events) = new_game(&corps, DarkLegionSetup::Ai, 0);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::GameStarted {
            dark_legion: None,
            ..
        }
    )));
}

/// ce.md EQP-5: in a campaign the lowest PP picks first, ties broken at
/// random (by the game's dice, so a replay breaks them the same way).
#[test]
fn eqp_5_in_a_campaign_the_lowest_pp_picks_first_ties_at_random() {
    let corps = [
        Corporation::Bauhaus,
        Corporation::Capitol,
        Corporation::Mishima,
    ];
    let campaign = |pps: [i32; 3], seed: u64| {
        let mut setup = Setup::new(C1M1, &corps, DarkLegionSetup::Ai).with_seed(seed);
        setup.campaign = true;
        for (seat, pp) in setup.seats.iter_mut().zip(pps) {
            seat.pp = Some(pp);
        }
        let (g, _) = Game::new(setup, &mut SeededDice::new(seed)).expect("setup");
        let s = state(&g);
        numbers(&s["phase"]["order"])
    };
    // Distinct PP: lowest first, whatever the seed.
    for seed in 0..8 {
        assert_eq!(campaign([30, 5, 17], seed), vec![1, 2, 0]);
    }
    // A tie: the two tied teams come in either order over the seeds, always
    // after the lowest.
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..16 {
        let order = campaign([12, 3, 12], seed);
        assert_eq!(order[0], 1, "seed {seed}: {order:?}");
        firsts.insert(order[1]);
        assert_eq!(
            order,
            campaign([12, 3, 12], seed),
            "the same seed, the same order"
        );
    }
    assert_eq!(firsts.len(), 2, "ties are broken both ways");
}

fn scenario(corps: &[Corporation], position: Value) -> Game {
    let setup = Setup::new(C1M1, corps, DarkLegionSetup::Ai);
    let p: Position = serde_json::from_value(position).expect("position");
    Game::scenario(setup, &p, &mut SeededDice::new(0)).expect("scenario")
}

fn yx(s: &Square) -> (i32, i32) {
    (s.y, s.x)
}

#[test]
fn conv_8_legal_lists_placements_lowest_y_x_first() {
    let mut g = scenario(
        &[Corporation::Bauhaus],
        json!({
            "face_down": { "0": [4], "1": [], "2": [], "3": [] },
            "figures": [{ "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } }],
        }),
    );
    let max = g.figure_id("bauhaus-max_steiner").expect("max");
    g.apply(
        Seat(0),
        Command::Move {
            figure: max,
            path: vec![Square::new(3, 4)].into(),
        },
        &mut ScriptedDice::faces([1]),
    )
    .expect("move");
    let legal = g.legal(g.dark_legion_seat());
    // The AI's own card reveal (AI-1) is listed last; it is not a placement.
    let squares: Vec<Square> = legal
        .iter()
        .filter(|c| **c != Command::RevealAiCard)
        .map(|c| match c {
            Command::Place { square, .. } => *square,
            other => panic!("not a placement: {other:?}"),
        })
        .collect();
    assert!(squares.len() > 1);
    let mut sorted = squares.clone();
    sorted.sort_by_key(yx);
    assert_eq!(squares, sorted);
}

#[test]
fn conv_8_legal_lists_event_targets_lowest_id_first() {
    let mut g = scenario(
        &[Corporation::Bauhaus, Corporation::Capitol],
        json!({
            "turn": "dark_legion_start",
            "face_down": { "0": [], "1": [], "2": [], "3": [] },
            "event_deck": [18, 3],
            "force_pile": [],
            "figures": [
                { "name": "capitol-big_bob_watts", "at": { "x": 20, "y": 3 } },
                { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } },
            ],
        }),
    );
    g.settle(&mut SeededDice::new(0));
    let legal = g.legal(g.dark_legion_seat());
    assert_eq!(legal.last(), Some(&Command::RevealAiCard));
    let ids: Vec<u16> = legal
        .iter()
        .filter(|c| **c != Command::RevealAiCard)
        .map(|c| match c {
            Command::ChooseFigure { figure } => figure.0,
            other => panic!("not a figure choice: {other:?}"),
        })
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids[0] < ids[1]);
}

#[test]
fn conv_8_the_owners_discard_options_are_in_id_order() {
    let mut g = scenario(
        &[Corporation::Bauhaus],
        json!({
            "turn": "dark_legion_start",
            "face_down": { "0": [], "1": [], "2": [], "3": [] },
            "event_deck": [18, 12],
            "force_pile": [],
            "figures": [{ "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 },
                          "items": ["smoke_grenade", "command_helmet"] }],
        }),
    );
    g.settle(&mut SeededDice::new(0));
    let max = g.figure_id("bauhaus-max_steiner").expect("max");
    g.apply(
        g.dark_legion_seat(),
        Command::ChooseFigure { figure: max },
        &mut SeededDice::new(0),
    )
    .expect("target");
    let legal = g.legal(Seat(0));
    assert_eq!(
        legal,
        vec![
            Command::Discard {
                item: "command_helmet".into()
            },
            Command::Discard {
                item: "smoke_grenade".into()
            },
        ]
    );
}

#[test]
fn brd_1_on_board_squares_are_those_of_placed_tiles() {
    let (g, _) = new_game(&[Corporation::Bauhaus], DarkLegionSetup::Ai, 0);
    let b = g.board();
    // Layout `15 2 14 / -- 12 --`: four tiles of 8x8.
    assert_eq!(b.squares().filter(|s| b.tile_of(*s).is_some()).count(), 256);
    assert_eq!(b.tile_of(Square::new(3, 3)), Some(0));
    assert_eq!(b.tile_of(Square::new(10, 3)), Some(1));
    assert_eq!(b.tile_of(Square::new(20, 3)), Some(2));
    assert_eq!(b.tile_of(Square::new(10, 10)), Some(3));
    // The empty slots of the second row are not on-board.
    for s in [Square::new(3, 10), Square::new(20, 12)] {
        assert!(!b.on_board(s) && b.tile_of(s).is_none() && !b.passable(s));
    }
}

#[test]
fn frc_1_set_5_only_the_mission_force_cards_are_in_play() {
    for n in 1..=4usize {
        let corps = &[
            Corporation::Bauhaus,
            Corporation::Capitol,
            Corporation::Mishima,
            Corporation::Imperial,
        ][..n];
        let (g, _) = new_game(corps, DarkLegionSetup::Ai, n as u64);
        let s = state(&g);
        let mut cards = numbers(&s["force_pile"]);
        for t in 0..4 {
            cards.extend(numbers(&s["tiles"][t]["face_down"]));
        }
        assert_eq!(numbers(&s["force_pile"]).len(), 40 - 4 * n);
        cards.sort_unstable();
        let mut want = g.mission().force_cards.clone();
        want.sort_unstable();
        assert_eq!(cards, want);
        assert_eq!(cards.len(), 40);
        assert!(cards.iter().all(|c| !(33..=36).contains(c)));
    }
}

#[test]
fn evt_1_set_4_the_event_deck_is_r_cards_of_the_mission_list() {
    let mut decks = Vec::new();
    for seed in 0..8 {
        let (g, _) = new_game(&[Corporation::Bauhaus], DarkLegionSetup::Ai, seed);
        let mut deck = numbers(&state(&g)["event_deck"]);
        assert_eq!(deck.len(), g.mission().rounds as usize);
        assert_eq!(deck.len(), 5);
        decks.push(deck.clone());
        deck.sort_unstable();
        deck.dedup();
        assert_eq!(deck.len(), 5, "duplicate event cards");
        assert!(deck.iter().all(|c| g.mission().events.contains(c)));
        assert!(deck.iter().all(|c| (1..=12).contains(c)));
    }
    decks.dedup();
    assert!(decks.len() > 1, "the deck is shuffled");
}

#[test]
fn set_3_the_c1m1_map_entrances_and_door_are_placed() {
    let (g, _) = new_game(&[Corporation::Bauhaus], DarkLegionSetup::Ai, 0);
    let m = g.mission();
    let ids = |l: &[(String, _)]| l.iter().map(|(i, _)| i.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&m.white), ["15N", "14N"]);
    assert_eq!(ids(&m.red), ["15W", "14E"]);
    let s = state(&g);
    assert_eq!(s["door_removed"], json!([false]));
    assert_eq!(s["tiles"].as_array().map(Vec::len), Some(4));
}

#[test]
fn set_12_player_counts_and_one_corporation_player() {
    let all = [
        Corporation::Bauhaus,
        Corporation::Capitol,
        Corporation::Mishima,
        Corporation::Imperial,
        Corporation::Cybertronic,
    ];
    let try_new = |corps: &[Corporation], dl| {
        Game::new(Setup::new(C1M1, corps, dl), &mut SeededDice::new(0)).map(|_| ())
    };
    // Human DL: 2-5 players. AI DL: 1-5 corporation players.
    assert_eq!(
        try_new(&all[..1], DarkLegionSetup::Seat(0)),
        Err(SetupError::PlayerCount)
    );
    assert!(try_new(&all[..2], DarkLegionSetup::Seat(0)).is_ok());
    assert!(try_new(&all[..5], DarkLegionSetup::Seat(4)).is_ok());
    assert!(try_new(&all[..1], DarkLegionSetup::Ai).is_ok());
    assert!(try_new(&all[..5], DarkLegionSetup::Ai).is_ok());
    assert_eq!(
        try_new(&[], DarkLegionSetup::Ai),
        Err(SetupError::PlayerCount)
    );
    // One corporation player: 1 card per tile, 36 in the pile, no commander.
    let (g, _) = new_game(&all[..1], DarkLegionSetup::Ai, 0);
    let s = state(&g);
    assert_eq!(numbers(&s["force_pile"]).len(), 36);
    assert_eq!(s["teams"][0]["commander"], json!(false));
}

#[test]
fn rnk_4_every_player_dl_included_starts_at_10_times_r0_minus_1() {
    let mut setup = Setup::new(
        C1M1,
        &[Corporation::Bauhaus, Corporation::Capitol],
        DarkLegionSetup::Ai,
    );
    setup.starting_rank = 3;
    let (g, _) = Game::new(setup, &mut SeededDice::new(0)).expect("setup");
    let s = state(&g);
    assert_eq!(s["teams"][0]["pp"], json!(20));
    assert_eq!(s["teams"][1]["pp"], json!(20));
    assert_eq!(s["teams"][0]["rank"], json!(3));
    assert_eq!(s["dl"]["pp"], json!(20));
}
