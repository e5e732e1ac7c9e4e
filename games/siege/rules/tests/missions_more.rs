//! Missions beyond C1M1 (shared/rules/missions.md): the C1M4 special deal
//! (MSN-T2/T3 style), start on a tile next to DL figures (MOV-12), and the
//! C2M5 Ezoghoul acting in the turn it arrives.

use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::{Command, DarkLegionSetup, Game, Setup, Viewer};
use citadel_rules::geometry::Square;
use serde_json::Value;

fn c1m4(players: usize, seed: u64) -> (Game, Value) {
    let setup =
        Setup::new("ce-c1m4", &Corporation::ALL[..players], DarkLegionSetup::Ai).with_seed(seed);
    let mut dice = SeededDice::new(seed);
    let (game, _) = Game::new_unchecked(setup, &mut dice).expect("C1M4 sets up");
    let state = serde_json::to_value(&game).expect("state");
    (game, state)
}

fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

/// C1M4 special deal: S = players × 5 cards; S holds card 34 and otherwise
/// only cards 1–32; the pile holds the rest (36, 37–44 among them); 42
/// cards in all (MSN-T2); the same seed deals the same (CONV-2).
#[test]
fn msn_t3_c1m4_special_deal_puts_card_34_on_a_tile() {
    for players in 1..=4 {
        for seed in 0..25 {
            let (game, state) = c1m4(players, seed);
            let tiles = state["tiles"].as_array().expect("tiles");
            assert_eq!(tiles.len(), 5);
            let dealt: Vec<u64> = tiles
                .iter()
                .flat_map(|t| numbers(&t["face_down"]))
                .collect();
            for t in tiles {
                assert_eq!(numbers(&t["face_down"]).len(), players, "FOR-1 per tile");
            }
            assert_eq!(dealt.len(), players * 5);
            assert_eq!(
                dealt.iter().filter(|c| **c == 34).count(),
                1,
                "card 34 dealt once"
            );
            assert!(
                dealt.iter().all(|c| *c == 34 || *c <= 32),
                "S is from 1-32: {dealt:?}"
            );
            let pile = numbers(&state["force_pile"]);
            assert_eq!(pile.len() + dealt.len(), 42, "MSN-T2: C1M4 plays 42 cards");
            for c in [36, 37, 38, 39, 40, 41, 42, 43, 44] {
                assert!(pile.contains(&c), "card {c} is in the pile");
            }
            let mut all: Vec<u64> = pile.iter().chain(&dealt).copied().collect();
            all.sort_unstable();
            let mut want: Vec<u64> = (1..=32).chain([34, 36]).chain(37..=44).collect();
            want.sort_unstable();
            assert_eq!(all, want, "every card of the mission exactly once");
            // HID-1: nobody sees where card 34 is.
            let view = serde_json::to_value(game.view(Viewer::Spectator)).expect("view");
            assert_eq!(view["tiles"][0]["face_down"], Value::from(players));
            assert!(!view.to_string().contains("force_card_34"));
            // CONV-2: same seed, same deal.
            assert_eq!(c1m4(players, seed).1, state);
        }
    }
}

/// Card 34 lands on every tile for some seed: the replaced card and the
/// deal are random, not a fixed place.
#[test]
fn c1m4_card_34_is_not_always_on_the_same_tile() {
    let mut tiles_seen = [false; 5];
    for seed in 0..60 {
        let (_, state) = c1m4(2, seed);
        for (i, t) in state["tiles"].as_array().expect("tiles").iter().enumerate() {
            if numbers(&t["face_down"]).contains(&34) {
                tiles_seen[i] = true;
            }
        }
    }
    assert_eq!(tiles_seen, [true; 5]);
}

/// C1M1 keeps the plain FOR-1 deal (its golden game is unchanged).
#[test]
fn c1m1_has_no_card_34() {
    let setup = Setup::new("ce-c1m1", &[Corporation::Bauhaus], DarkLegionSetup::Ai).with_seed(3);
    let mut dice = SeededDice::new(3);
    let (game, _) = Game::new(setup, &mut dice).expect("C1M1");
    let state = serde_json::to_value(&game).expect("state");
    assert!(!state.to_string().contains("force_card_34"));
    assert_eq!(numbers(&state["force_pile"]).len(), 36);
}

/// MOV-12: at the first turn of a start-on-tile mission the only legal
/// commands place the DTs on tile 12, one DT at a time.
#[test]
fn mov_12_first_turn_offers_only_squares_of_the_start_tile() {
    let setup = Setup::new("ce-c1m2", &[Corporation::Bauhaus], DarkLegionSetup::Ai);
    let (mut game, _) = Game::new_unchecked(setup, &mut SeededDice::new(0)).expect("C1M2");
    let seat = game.seat_to_act().expect("draft");
    let mut dice = citadel_rules::dice::ScriptedDice::faces([1]);
    game.apply(seat, Command::PassEquipment, &mut dice)
        .expect("pass");
    // C1M2 plays secondary missions (SET-10): keep the first card drawn.
    let keep = game.legal(seat)[0].clone();
    assert!(matches!(keep, Command::KeepSecondary { .. }), "{keep:?}");
    game.apply(seat, keep, &mut dice).expect("keep");
    let legal = game.legal(seat);
    let squares: Vec<Square> = legal
        .iter()
        .filter_map(|c| match c {
            Command::PlaceStart { figure, square } if figure.0 == 0 => Some(*square),
            _ => None,
        })
        .collect();
    assert_eq!(squares.len(), legal.len(), "only placements: {legal:?}");
    assert!(squares
        .iter()
        .all(|s| (0..8).contains(&s.x) && (8..16).contains(&s.y)));
    let mut sorted = squares.clone();
    sorted.sort_by_key(|s| (s.y, s.x));
    assert_eq!(squares, sorted, "D50: the default is the lowest (y, x)");
}
