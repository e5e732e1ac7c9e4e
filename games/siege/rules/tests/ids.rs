//! Typed ids (weapons, equipment, special actions): inside the engine they
//! are indices into the loaded tables; on the wire they stay the string ids
//! of the data files (EQP-2..5, CONV-8). These tests pin the edge.

use citadel_rules::content::missions::SpecialId;
use citadel_rules::content::tables::{EquipmentId, Item, WeaponId};
use citadel_rules::content::Corporation;
use citadel_rules::game::position::Position;
use citadel_rules::game::view::GameView;
use citadel_rules::game::{Command, DarkLegionSetup, Event, Game, Rejection, Seat, Setup, Viewer};
use citadel_rules::{Content, SeededDice};
use serde_json::{json, Value};

fn new_game() -> Game {
    let setup = Setup::new("ce-c1m1", &[Corporation::Bauhaus], DarkLegionSetup::Ai).with_seed(3);
    Game::new(setup, &mut SeededDice::new(3)).expect("setup").0
}

fn figure_view(view: &GameView, figure: citadel_rules::game::FigureId) -> Value {
    serde_json::to_value(&view.figures[figure.index()]).expect("view")
}

#[test]
fn eqp_5_picks_cross_the_wire_as_string_ids() {
    let mut g = new_game();
    let picks: Vec<Command> = g
        .legal(Seat(0))
        .into_iter()
        .filter(|c| matches!(c, Command::PickEquipment { .. }))
        .collect();
    assert!(!picks.is_empty(), "the draft offers picks");
    let tables = &Content::embedded().expect("content").ce;
    for c in &picks {
        // Each offered pick names a card of the tables by its string id,
        // and survives a JSON round trip unchanged.
        let Command::PickEquipment { item, .. } = c else {
            unreachable!()
        };
        assert!(tables.item(item).is_some(), "{item}");
        let text = serde_json::to_string(c).expect("json");
        assert!(text.contains(&format!("\"item\":\"{item}\"")), "{text}");
        let back: Command = serde_json::from_str(&text).expect("parse");
        assert_eq!(&back, c);
    }
    // Take an equipment card (not a weapon) and read it back everywhere.
    let pick = picks
        .iter()
        .find(|c| {
            matches!(c, Command::PickEquipment { item, .. }
                if matches!(tables.item(item), Some(Item::Equipment(_))))
        })
        .expect("an equipment pick")
        .clone();
    let Command::PickEquipment { item, figure } = pick.clone() else {
        unreachable!()
    };
    let events = g
        .apply(Seat(0), pick, &mut SeededDice::new(0))
        .expect("pick");
    assert!(events.iter().any(|e| matches!(e,
        Event::EquipmentPicked { item: i, figure: f, .. } if *i == item && *f == figure)));
    let fv = figure_view(&g.view(Viewer::Spectator), figure);
    assert_eq!(fv["items"], json!([item]));
    assert!(fv["weapon"].is_string(), "{fv}");
}

#[test]
fn eqp_2_an_unknown_item_is_rejected_and_changes_nothing() {
    let mut g = new_game();
    let figure = g.figure_id("bauhaus-max_steiner").expect("max");
    let before = serde_json::to_value(&g).expect("state");
    for item in ["no_such_card", "", "Plasma_Carbine"] {
        let r = g.apply(
            Seat(0),
            Command::PickEquipment {
                item: item.into(),
                figure,
            },
            &mut SeededDice::new(0),
        );
        assert_eq!(r, Err(Rejection::UnknownItem), "{item:?}");
    }
    assert_eq!(serde_json::to_value(&g).expect("state"), before);
}

#[test]
fn a_position_naming_an_unknown_card_is_an_error_that_names_it() {
    let setup = Setup::new("ce-c1m1", &[Corporation::Bauhaus], DarkLegionSetup::Ai);
    for (field, value, name) in [
        ("weapon", json!("plasma_carbin"), "plasma_carbin"),
        ("weapon", json!("smoke_grenade"), "smoke_grenade"),
        ("items", json!(["violator_sword"]), "violator_sword"),
    ] {
        let p: Position = serde_json::from_value(json!({
            "figures": [{ "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 }, field: value }],
        }))
        .expect("position");
        let e = Game::scenario(setup.clone(), &p, &mut SeededDice::new(0)).expect_err(name);
        assert!(e.contains(&format!("`{name}`")), "{e}");
    }
}

#[test]
fn typed_ids_round_trip_through_serde() {
    let tables = &Content::embedded().expect("content").ce;
    let Some(Item::Weapon(w)) = tables.item("violator_sword") else {
        panic!("violator_sword is a weapon")
    };
    let Some(Item::Equipment(e)) = tables.item("smoke_grenade") else {
        panic!("smoke_grenade is equipment")
    };
    // Inside a game's state an id is its table index.
    assert_eq!(serde_json::to_value(w).expect("json"), json!(w.index()));
    let back: WeaponId = serde_json::from_value(json!(w.index())).expect("parse");
    assert_eq!(back, w);
    let back: EquipmentId = serde_json::from_value(json!(e.index())).expect("parse");
    assert_eq!(back, e);
    for item in [Item::Weapon(w), Item::Equipment(e)] {
        let text = serde_json::to_string(&item).expect("json");
        assert_eq!(serde_json::from_str::<Item>(&text).expect("parse"), item);
        // The string id comes back from the tables.
        assert_eq!(tables.item(tables.item_name(item)), Some(item));
    }
    let mission = Content::embedded()
        .expect("content")
        .mission("ce-c1m1")
        .expect("c1m1");
    let s: SpecialId = mission.special("photograph").expect("photograph");
    let text = serde_json::to_string(&s).expect("json");
    assert_eq!(serde_json::from_str::<SpecialId>(&text).expect("parse"), s);
    assert_eq!(mission.special_def(s).id, "photograph");
    assert_eq!(mission.special("no_such_action"), None);
}
