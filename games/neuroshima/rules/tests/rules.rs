//! One test per rule of neuroshima.md (its ID is in the name); the worked
//! examples are in `examples.rs`.

use citadel_game::{Bot, Game, Seat, SeededDice, Seen, Viewer};
use citadel_hex::{Board19, Dir, Hex, HEXES};
use citadel_neuroshima::data::{self, Bonus, Class};
use citadel_neuroshima::scenario::Scenario;
use citadel_neuroshima::*;

fn dm() -> Scenario {
    Scenario::new("ddm", "moloch")
}

fn i(q: i8, r: i8) -> usize {
    Board19::index(Hex::new(q, r)).expect("on board")
}

fn apply(g: &mut NeuroshimaGame, seat: u8, c: Command) -> Vec<Event> {
    g.apply(Seat(seat), c, &mut SeededDice::new(1))
        .expect("accepted")
}

fn reject(g: &mut NeuroshimaGame, seat: u8, c: Command) -> Rejection {
    let before = g.checksum();
    let r = g
        .apply(Seat(seat), c, &mut SeededDice::new(1))
        .expect_err("refused");
    assert_eq!(g.checksum(), before, "a rejection changes nothing");
    r
}

fn phases(ev: &[Event]) -> Vec<PhaseReport> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Phase(p) => Some(p.clone()),
            _ => None,
        })
        .collect()
}

fn hand(g: &NeuroshimaGame, seat: u8, kind: &str) -> TileId {
    *g.state.players[usize::from(seat)]
        .hand
        .iter()
        .find(|t| g.kind(**t).id == kind)
        .expect("in hand")
}

fn new_game(a: &str, b: &str, options: Options, seed: u64) -> (NeuroshimaGame, Vec<Event>) {
    let setup =
        NeuroshimaGame::setup(&options, &[Some(a.into()), Some(b.into())], seed).expect("setup");
    NeuroshimaGame::start(&setup, &mut SeededDice::new(seed)).expect("start")
}

fn placed_hqs(seed: u64) -> NeuroshimaGame {
    let (mut g, _) = new_game("ddm", "moloch", Options::default(), seed);
    apply(
        &mut g,
        0,
        Command::PlaceHq {
            hex: Hex::new(0, 2),
            rotation: 0,
        },
    );
    apply(
        &mut g,
        1,
        Command::PlaceHq {
            hex: Hex::new(0, -2),
            rotation: 0,
        },
    );
    g
}

fn kind_at(g: &NeuroshimaGame, q: i8, r: i8) -> Option<&'static str> {
    g.describe(q, r).map(|d| d.0)
}

// ----- CONV ---------------------------------------------------------------

#[test]
fn nsh_conv_1_two_seats_two_armies() {
    let plan = NeuroshimaGame::seat_plan(&Options::default()).expect("plan");
    assert_eq!((plan.players, plan.automata), (2, 0));
    let o = Options::default();
    assert!(NeuroshimaGame::check_choice(&o, Seat(0), &"ddm".into(), &[]).is_ok());
    assert!(NeuroshimaGame::check_choice(&o, Seat(1), &"moloch".into(), &[]).is_ok());
    assert!(NeuroshimaGame::check_choice(&o, Seat(1), &"borgo".into(), &[]).is_err());
    assert!(NeuroshimaGame::setup(&o, &[Some("borgo".into()), None], 1).is_err());
    let s = NeuroshimaGame::setup(&o, &[None, None], 1).expect("setup");
    assert_eq!(s.armies, ["ddm".to_string(), "moloch".to_string()]);
}

#[test]
fn nsh_conv_2_terms_netters_redirectors_modules_instants() {
    let ddm = data::army("ddm").expect("ddm");
    let ids = |f: &dyn Fn(&data::Kind) -> bool| -> Vec<&str> {
        ddm.kinds
            .iter()
            .filter(|k| f(k))
            .map(|k| k.id.as_str())
            .collect()
    };
    assert_eq!(ids(&|k| k.is_netter()), vec!["dnf"]);
    assert_eq!(
        ids(&|k| k.is_redirector()),
        vec!["dnf", "fireblast", "tripler"]
    );
    assert!(ids(&|k| k.class == Class::Module).contains(&"trap"));
    assert_eq!(
        ids(&|k| k.class == Class::Instant),
        vec!["battle", "push", "small_bomb"]
    );
}

#[test]
fn nsh_conv_3_ids_sort_by_seat_kind_and_number() {
    let g = dm().build();
    let a = data::army("ddm").expect("ddm");
    let omega = a.kind_index("omega").expect("omega");
    let alpha = a.kind_index("alpha").expect("alpha");
    assert!(alpha < omega, "kinds sorted by id");
    let t = |seat, kind, k| TileId { seat, kind, k };
    let mut v = vec![t(1, 0, 1), t(0, omega, 3), t(0, omega, 1), t(0, alpha, 2)];
    v.sort();
    assert_eq!(
        v,
        vec![t(0, alpha, 2), t(0, omega, 1), t(0, omega, 3), t(1, 0, 1)]
    );
    assert_eq!(t(0, omega, 3).label(&g.armies), "0.omega#3");
}

#[test]
fn nsh_conv_4_defaults_on_timeout() {
    let mut g = placed_hqs(3);
    assert_eq!(g.timeout_command(Seat(0)), Some(Command::EndTurn));
    assert_eq!(g.timeout_command(Seat(1)), None, "not its move");
    apply(&mut g, 0, Command::EndTurn);
    apply(&mut g, 1, Command::EndTurn);
    let earliest = g.state.players[0].hand[0];
    assert_eq!(
        g.timeout_command(Seat(0)),
        Some(Command::Discard { tile: earliest })
    );
}

#[test]
fn nsh_conv_5_options_and_defaults() {
    let o: Options = serde_json::from_str("{}").expect("defaults");
    assert_eq!(
        o,
        Options {
            first_player: FirstPlayer::Seat0,
            infinity_combo: InfinityCombo::Capped,
            bots: BotLevel::Easy,
        }
    );
    let o: Options =
        serde_json::from_str(r#"{"first_player":"random","infinity_combo":"unbounded"}"#)
            .expect("json");
    assert_eq!(o.infinity_combo, InfinityCombo::Unbounded);
    assert!(serde_json::from_str::<Options>(r#"{"turns":3}"#).is_err());
    let names: Vec<String> = NeuroshimaGame::option_specs()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, vec!["first_player", "infinity_combo", "bots"]);
    // Every listed value reads back as an option, and the default level
    // (easy) is left out of the JSON, so older states keep their
    // checksums.
    let o: Options = serde_json::from_str(r#"{"bots":"hard"}"#).expect("a level");
    assert_eq!(o.bots, BotLevel::Hard);
    assert_eq!(
        serde_json::to_string(&Options::default()).expect("json"),
        r#"{"first_player":"seat0","infinity_combo":"capped"}"#
    );
    assert!(serde_json::from_str::<Options>(r#"{"bots":"expert"}"#).is_err());
}

#[test]
fn nsh_conv_6_hq_hp_never_below_zero() {
    let mut g = dm()
        .tile(1, "hq", 0, -2, 0)
        .damage(0, -2, 19)
        .tile(0, "delta", 0, 0, 0)
        .build();
    g.fight();
    assert_eq!(g.hq_hp()[1], 0);
}

// ----- BRD ----------------------------------------------------------------

#[test]
fn nsh_brd_1_nineteen_hexes() {
    assert_eq!(HEXES.len(), 19);
    assert!(HEXES.iter().all(|h| Board19::contains(*h)));
    assert!(!Board19::contains(Hex::new(2, 1)));
}

#[test]
fn nsh_brd_2_directions_and_opposites() {
    assert_eq!(Dir::N.vector(), (0, -1));
    assert_eq!(Dir::SE.vector(), (1, 0));
    assert_eq!(Dir::NW.opposite(), Dir::SE);
    assert_eq!(Hex::ORIGIN.neighbour(Dir::SW), Hex::new(-1, 1));
}

#[test]
fn nsh_brd_3_adjacency_and_distance() {
    assert_eq!(Hex::new(-2, 0).distance(Hex::new(2, -2)), 4);
    assert!(Hex::ORIGIN.is_adjacent(Hex::new(1, -1)));
    assert!(!Hex::ORIGIN.is_adjacent(Hex::new(1, 1)));
}

#[test]
fn nsh_brd_4_lines_end_at_the_edge() {
    assert_eq!(
        Board19::line(Hex::new(0, 2), Dir::N),
        vec![
            Hex::new(0, 1),
            Hex::ORIGIN,
            Hex::new(0, -1),
            Hex::new(0, -2)
        ]
    );
    assert!(Board19::line(Hex::new(2, 0), Dir::SE).is_empty());
}

#[test]
fn nsh_brd_5_tile_frame_edges_from_data() {
    let ddm = data::army("ddm").expect("ddm");
    let alpha = &ddm.kinds[usize::from(ddm.kind_index("alpha").expect("alpha"))];
    let ranged: Vec<usize> = (0..6).filter(|e| alpha.edges[*e].ranged > 0).collect();
    assert_eq!(ranged, vec![1, 5]);
}

#[test]
fn nsh_brd_6_rotation_turns_every_edge() {
    // Alpha turned once: its edges 1 and 5 face SE and N.
    let mut g = dm()
        .tile(0, "alpha", 0, 0, 1)
        .tile(1, "blocker", 0, -2, 0)
        .tile(1, "blocker", 2, 0, 3)
        .build();
    g.fight();
    assert_eq!(g.describe(0, -2).map(|d| d.1), Some(1));
    assert_eq!(g.describe(2, 0).map(|d| d.1), Some(1));
}

#[test]
fn nsh_brd_7_arrival_edge_decides_armour() {
    // Omega's armour (edge 3) turned to face N blocks a shot from the N.
    let mut g = dm()
        .tile(0, "omega", 0, 0, 3)
        .tile(1, "hybrid", 0, -2, 3)
        .build();
    let ev = g.fight();
    let h = phases(&ev)[0].hits[0];
    assert_eq!((h.arrival, h.wounds), (3, 0));
    assert_eq!(g.describe(0, 0).map(|d| d.1), Some(0));
}

#[test]
fn nsh_brd_8_one_board_tile_per_hex() {
    let mut g = dm().tile(0, "hq", 0, 0, 0).hand(0, "omega").build();
    let tile = hand(&g, 0, "omega");
    let r = reject(
        &mut g,
        0,
        Command::Place {
            tile,
            hex: Hex::ORIGIN,
            rotation: 0,
        },
    );
    assert_eq!(r, Rejection::Occupied);
    let r = reject(
        &mut g,
        0,
        Command::Place {
            tile,
            hex: Hex::new(3, 0),
            rotation: 0,
        },
    );
    assert_eq!(r, Rejection::OffBoard);
}

// ----- TILE ---------------------------------------------------------------

#[test]
fn nsh_tile_1_thirty_five_tiles_per_army() {
    let count = |a: &str, c: Class| -> usize {
        data::army(a)
            .expect("army")
            .kinds
            .iter()
            .filter(|k| k.class == c)
            .map(|k| usize::from(k.count))
            .sum()
    };
    for a in ["ddm", "moloch"] {
        assert_eq!(data::army(a).expect("army").total(), 35);
        assert_eq!(count(a, Class::Hq), 1);
    }
    assert_eq!(
        (
            count("ddm", Class::Soldier),
            count("ddm", Class::Module),
            count("ddm", Class::Instant)
        ),
        (16, 12, 6)
    );
    assert_eq!(
        (
            count("moloch", Class::Soldier),
            count("moloch", Class::Module),
            count("moloch", Class::Instant)
        ),
        (17, 6, 11)
    );
}

#[test]
fn nsh_tile_2_only_four_classes_no_foundation() {
    for a in data::armies().expect("armies") {
        for k in &a.kinds {
            assert!(matches!(
                k.class,
                Class::Hq | Class::Soldier | Class::Module | Class::Instant
            ));
        }
    }
}

#[test]
fn nsh_tile_3_hqs() {
    for a in data::armies().expect("armies") {
        let hq = &a.kinds[usize::from(a.hq())];
        assert_eq!((hq.hp, hq.init.clone()), (20, vec![0]));
        assert!(hq.edges.iter().all(|e| e.melee == 1));
    }
}

#[test]
fn nsh_tile_4_hit_points_from_toughness() {
    let hp = |a: &str, k: &str| {
        let a = data::army(a).expect("army");
        a.kinds[usize::from(a.kind_index(k).expect("kind"))].hp
    };
    assert_eq!(
        (
            hp("moloch", "blocker"),
            hp("ddm", "delta"),
            hp("ddm", "alpha")
        ),
        (3, 2, 1)
    );
    assert_eq!(hp("ddm", "tripler"), 2, "D1");
    assert_eq!(hp("moloch", "armored_hunter"), 1, "D7");
}

// ----- TRN ----------------------------------------------------------------

#[test]
fn nsh_trn_1_first_player() {
    let (g, _) = new_game("ddm", "moloch", Options::default(), 4);
    assert_eq!(g.state.first, 0);
    let random = Options {
        first_player: FirstPlayer::Random,
        ..Options::default()
    };
    let firsts: Vec<u8> = (0..20)
        .map(|s| new_game("ddm", "moloch", random, s).0.state.first)
        .collect();
    assert!(firsts.contains(&0) && firsts.contains(&1));
}

#[test]
fn nsh_trn_2_setup_piles() {
    let (g, _) = new_game("ddm", "moloch", Options::default(), 4);
    for p in &g.state.players {
        assert_eq!(p.draw.len(), 34);
        assert!(p.hand.is_empty() && p.discard.is_empty());
    }
    let (h, _) = new_game("ddm", "moloch", Options::default(), 5);
    assert_ne!(
        g.state.players[0].draw, h.state.players[0].draw,
        "shuffled by seed"
    );
}

#[test]
fn nsh_trn_3_hq_placement() {
    let (mut g, _) = new_game("ddm", "moloch", Options::default(), 4);
    assert_eq!(g.to_act(), vec![Seat(0)]);
    apply(
        &mut g,
        0,
        Command::PlaceHq {
            hex: Hex::ORIGIN,
            rotation: 2,
        },
    );
    assert_eq!(g.to_act(), vec![Seat(1)]);
    let r = reject(
        &mut g,
        1,
        Command::PlaceHq {
            hex: Hex::ORIGIN,
            rotation: 0,
        },
    );
    assert_eq!(r, Rejection::Occupied);
    apply(
        &mut g,
        1,
        Command::PlaceHq {
            hex: Hex::new(0, -1),
            rotation: 0,
        },
    );
    assert_eq!((g.state.turn, g.state.active), (1, 0));
    assert!(!g
        .legal(Seat(0))
        .iter()
        .any(|c| matches!(c, Command::PlaceHq { .. })));
}

#[test]
fn nsh_trn_4_turns_alternate() {
    let mut g = placed_hqs(2);
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push((g.state.turn, g.state.active));
        let a = g.state.active;
        if g.state.stage == Stage::Discard {
            let t = g.state.players[usize::from(a)].hand[0];
            apply(&mut g, a, Command::Discard { tile: t });
        }
        apply(&mut g, a, Command::EndTurn);
    }
    assert_eq!(seen, vec![(1, 0), (2, 1), (3, 0), (4, 1)]);
}

#[test]
fn nsh_trn_5_draw_one_then_two_then_up_to_three() {
    let mut g = placed_hqs(2);
    assert_eq!(g.state.players[0].hand.len(), 1);
    apply(&mut g, 0, Command::EndTurn);
    assert_eq!(g.state.players[1].hand.len(), 2);
    apply(&mut g, 1, Command::EndTurn);
    assert_eq!(g.state.players[0].hand.len(), 3);
}

#[test]
fn nsh_trn_6_mandatory_discard_first() {
    let mut g = placed_hqs(2);
    apply(&mut g, 0, Command::EndTurn);
    apply(&mut g, 1, Command::EndTurn);
    assert_eq!(g.state.stage, Stage::Discard);
    assert_eq!(reject(&mut g, 0, Command::EndTurn), Rejection::WrongMoment);
    let t = g.state.players[0].hand[1];
    apply(&mut g, 0, Command::Discard { tile: t });
    assert_eq!(g.state.stage, Stage::Action);
    assert_eq!(g.state.players[0].discard, vec![t]);
}

#[test]
fn nsh_trn_7_action_step_many_actions_and_hand_kept() {
    let mut g = dm()
        .tile(0, "hq", 0, 2, 0)
        .hand(0, "omega")
        .hand(0, "alpha")
        .hand(0, "battle")
        .build();
    let o = hand(&g, 0, "omega");
    let a = hand(&g, 0, "alpha");
    apply(
        &mut g,
        0,
        Command::Place {
            tile: o,
            hex: Hex::ORIGIN,
            rotation: 0,
        },
    );
    apply(&mut g, 0, Command::Discard { tile: a });
    assert_eq!(g.state.stage, Stage::Action);
    apply(&mut g, 0, Command::EndTurn);
    assert_eq!(
        g.state.players[0].hand.len(),
        1,
        "the unused Battle stays in the hand"
    );
}

fn full_but_one() -> Scenario {
    // Seat 0's 18 non-attacking tiles fill every hex but (2, 0).
    let kinds = [
        "hq",
        "medic",
        "medic",
        "medic",
        "medic",
        "medic",
        "officer",
        "officer",
        "mwp",
        "mwp",
        "scout",
        "scout",
        "dnf",
        "dnf",
        "fireblast",
        "fireblast",
        "tripler",
        "tripler",
    ];
    let mut s = Scenario::new("ddm", "moloch");
    let hexes: Vec<Hex> = HEXES
        .iter()
        .copied()
        .filter(|h| *h != Hex::new(2, 0))
        .collect();
    for (h, k) in hexes.iter().zip(kinds) {
        s = s.tile(0, k, h.q, h.r, 0);
    }
    s
}

#[test]
fn nsh_trn_8_full_board_battle_at_once_then_the_turn_goes_on() {
    // The 19th tile is a Moloch Hybrid... placed by seat 0: use a Delta of
    // seat 0 aiming at nothing, with a Moloch tile to destroy instead.
    let mut g = full_but_one().hand(0, "trap").build();
    // Make room for an enemy that dies: replace the Tripler at the last
    // listed hex by a Moloch Hybrid next to the DDM HQ.
    let hq_hex = HEXES[0];
    let victim = hq_hex
        .neighbours()
        .into_iter()
        .find(|h| Board19::contains(*h))
        .expect("hex");
    let vi = Board19::index(victim).expect("hex");
    let old = g.state.board[vi].take().expect("tile");
    g.state.players[0].draw.push(old.tile);
    let hybrid = TileId {
        seat: 1,
        kind: g.armies[1].kind_index("hybrid").expect("kind"),
        k: 1,
    };
    g.state.players[1].draw.retain(|t| *t != hybrid);
    g.state.board[vi] = Some(Placed {
        tile: hybrid,
        rot: 0,
        damage: 0,
    });
    let trap = hand(&g, 0, "trap");
    let ev = apply(
        &mut g,
        0,
        Command::Place {
            tile: trap,
            hex: Hex::new(2, 0),
            rotation: 0,
        },
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::BattleStarted {
            cause: Cause::FullBoard,
            ..
        }
    )));
    assert_eq!(
        kind_at(&g, victim.q, victim.r),
        None,
        "the HQ's melee removed the Hybrid"
    );
    assert_eq!(
        (g.state.active, &g.state.stage),
        (0, &Stage::Action),
        "the turn goes on"
    );
}

#[test]
fn nsh_trn_9_battle_tile_ends_the_turn() {
    let mut g = dm()
        .tile(0, "hq", 0, 2, 0)
        .tile(1, "hq", 0, -2, 0)
        .hand(0, "battle")
        .hand(0, "omega")
        .build();
    let b = hand(&g, 0, "battle");
    let ev = apply(&mut g, 0, Command::Battle { tile: b });
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::BattleStarted {
            cause: Cause::Tile,
            ..
        }
    )));
    assert_eq!(g.state.active, 1);
    assert!(g.state.players[0]
        .hand
        .iter()
        .any(|t| g.kind(*t).id == "omega"));
    assert_eq!(g.state.players[0].discard.last(), Some(&b));
}

#[test]
fn nsh_trn_10_no_turn_action_during_a_battle() {
    let mut g = dm()
        .tile(1, "clown", 0, 0, 0)
        .tile(0, "omega", 1, 0, 5)
        .hand(0, "battle")
        .build();
    let b = hand(&g, 0, "battle");
    apply(&mut g, 0, Command::Battle { tile: b });
    assert_eq!(g.state.stage, Stage::Battle);
    assert_eq!(reject(&mut g, 0, Command::EndTurn), Rejection::NotYourMove);
    assert!(g.legal(Seat(0)).is_empty());
}

#[test]
fn nsh_trn_11_empty_hand_still_takes_the_turn() {
    let mut g = dm().tile(0, "hq", 0, 2, 0).build();
    g.state.players[1].draw.clear();
    g.state.finale = Some(Finale {
        x: 1,
        step: FinaleStep::XTurn,
    });
    apply(&mut g, 0, Command::EndTurn);
    assert_eq!(g.state.active, 1);
    assert!(g.state.players[1].hand.is_empty());
    assert_eq!(g.legal(Seat(1)), vec![Command::EndTurn]);
}

// ----- USE ----------------------------------------------------------------

#[test]
fn nsh_use_1_a_placed_tile_acts_at_once() {
    let mut g = Scenario::new("moloch", "ddm")
        .tile(1, "omega", 0, -1, 0)
        .hand(0, "net_fighter")
        .build();
    let nf = hand(&g, 0, "net_fighter");
    assert!(!g.ctx().netted[i(0, -1)]);
    apply(
        &mut g,
        0,
        Command::Place {
            tile: nf,
            hex: Hex::ORIGIN,
            rotation: 0,
        },
    );
    assert!(g.ctx().netted[i(0, -1)]);
}

#[test]
fn nsh_use_2_instants_go_to_the_discard_and_need_a_use() {
    let mut g = dm().tile(0, "hq", 0, 2, 0).hand(0, "push").build();
    let p = hand(&g, 0, "push");
    assert!(
        !g.legal(Seat(0))
            .iter()
            .any(|c| matches!(c, Command::Push { .. })),
        "no enemy to push"
    );
    let r = reject(
        &mut g,
        0,
        Command::Push {
            tile: p,
            pusher: Hex::new(0, 2),
            target: Hex::new(0, 1),
        },
    );
    assert_eq!(r, Rejection::NoTile);
    apply(&mut g, 0, Command::Discard { tile: p });
    assert_eq!(g.state.players[0].discard, vec![p]);
}

#[test]
fn nsh_use_3_push_back_target_owner_chooses() {
    let mut g = dm()
        .tile(0, "omega", 0, 0, 0)
        .tile(1, "blocker", 0, -1, 1)
        .damage(0, -1, 2)
        .hand(0, "push")
        .build();
    let p = hand(&g, 0, "push");
    apply(
        &mut g,
        0,
        Command::Push {
            tile: p,
            pusher: Hex::ORIGIN,
            target: Hex::new(0, -1),
        },
    );
    assert_eq!(g.to_act(), vec![Seat(1)]);
    assert_eq!(
        g.timeout_command(Seat(1)),
        Some(Command::PushTo {
            hex: Hex::new(0, -2)
        })
    );
    assert_eq!(
        reject(
            &mut g,
            1,
            Command::PushTo {
                hex: Hex::new(1, 0)
            }
        ),
        Rejection::NotCandidate
    );
    apply(
        &mut g,
        1,
        Command::PushTo {
            hex: Hex::new(-1, -1),
        },
    );
    assert_eq!(g.describe(-1, -1), Some(("blocker", 2, 1)));
    assert_eq!(g.to_act(), vec![Seat(0)]);
}

#[test]
fn nsh_use_4_bombs_ignore_armour_and_traps() {
    let mut g = Scenario::new("moloch", "ddm")
        .tile(1, "trap", 0, 0, 0)
        .tile(1, "omega", 0, -2, 3)
        .tile(0, "blocker", 1, 0, 3)
        .hand(0, "air_strike")
        .build();
    let a = hand(&g, 0, "air_strike");
    apply(
        &mut g,
        0,
        Command::AirStrike {
            tile: a,
            centre: Hex::ORIGIN,
        },
    );
    assert_eq!(kind_at(&g, 0, 0), None, "the Trap is just destroyed");
    assert_eq!(g.describe(0, -2).map(|d| d.1), Some(0), "no shrapnel");
    assert_eq!(
        g.describe(1, 0).map(|d| d.1),
        Some(1),
        "armour does not help"
    );
}

#[test]
fn nsh_use_5_nets_re_evaluated_after_a_move() {
    let mut g = Scenario::new("moloch", "ddm")
        .tile(0, "net_fighter", 0, 1, 0)
        .tile(1, "omega", 0, -1, 0)
        .hand(0, "move")
        .build();
    let m = hand(&g, 0, "move");
    assert!(!g.ctx().netted[i(0, -1)]);
    apply(
        &mut g,
        0,
        Command::Move {
            tile: m,
            from: Hex::new(0, 1),
            to: Hex::ORIGIN,
            rotation: 0,
        },
    );
    assert!(g.ctx().netted[i(0, -1)]);
}

#[test]
fn nsh_use_6_removed_tiles_go_to_the_discard_without_damage() {
    let mut g = dm()
        .tile(0, "delta", 0, 1, 0)
        .tile(1, "blocker", 0, -1, 0)
        .damage(0, -1, 1)
        .build();
    g.fight();
    let blocker = g.state.players[1]
        .discard
        .last()
        .copied()
        .expect("discarded");
    assert_eq!(g.kind(blocker).id, "blocker");
    assert!(g.state.board.iter().flatten().all(|p| p.tile != blocker));
}

// ----- NET ----------------------------------------------------------------

#[test]
fn nsh_net_1_nets_spare_friends() {
    let g = Scenario::new("moloch", "ddm")
        .tile(0, "net_fighter", 0, 0, 0)
        .tile(0, "hybrid", 0, -1, 0)
        .tile(1, "omega", -1, 0, 0)
        .build();
    let c = g.ctx();
    assert!(!c.netted[i(0, -1)]);
    assert!(c.netted[i(-1, 0)], "edge 5 faces NW");
}

#[test]
fn nsh_net_2_a_netted_tile_does_not_attack() {
    let mut g = Scenario::new("moloch", "ddm")
        .tile(0, "net_fighter", 0, 0, 0)
        .tile(1, "omega", 0, -1, 3)
        .build();
    let ev = g.fight();
    assert!(phases(&ev)
        .iter()
        .all(|p| p.acting.is_empty() && p.hits.is_empty()));
    assert_eq!(g.tile_count(), 2);
}

#[test]
fn nsh_net_3_a_netted_netter_nets_nothing() {
    // The Moloch Net Fighter nets the DNF one way; the DNF's line to the
    // Hybrid is not effective.
    let g = dm()
        .tile(0, "dnf", 0, 0, 0)
        .tile(1, "hybrid", 0, -1, 0)
        .tile(1, "net_fighter", -1, 1, 1)
        .build();
    let c = g.ctx();
    assert!(c.netted[i(0, 0)]);
    assert!(!c.netted[i(0, -1)]);
    assert!(!c.netted[i(-1, 1)]);
}

#[test]
fn nsh_net_4_nets_hold_per_phase() {
    let mut g = dm()
        .tile(0, "dnf", 0, 0, 0)
        .tile(1, "net_fighter", 0, -1, 3)
        .tile(0, "alpha", 1, -1, 0)
        .build();
    let ev = g.fight();
    let p = phases(&ev);
    assert_eq!(p[0].netted.len(), 2, "phase 3");
    assert!(p[1].netted.is_empty(), "phase 2: the Net Fighter is gone");
}

// ----- MOD ----------------------------------------------------------------

#[test]
fn nsh_mod_1_long_links_reach_two_hexes() {
    let g = dm()
        .tile(0, "officer", 0, 2, 0)
        .tile(1, "blocker", 0, 1, 0)
        .tile(0, "alpha", 0, 0, 0)
        .tile(0, "alpha", 0, -1, 0)
        .build();
    let c = g.ctx();
    assert_eq!(
        (c.ranged[i(0, 0)], c.ranged[i(0, -1)], c.ranged[i(0, 1)]),
        (1, 0, 0)
    );
}

#[test]
fn nsh_mod_2_only_friendly_tiles_and_not_netted_modules() {
    let g = dm()
        .tile(0, "officer", 0, 0, 0)
        .tile(0, "alpha", 0, -1, 0)
        .build();
    assert_eq!(g.ctx().ranged[i(0, -1)], 1);
    let g = dm()
        .tile(0, "officer", 0, 0, 0)
        .tile(0, "alpha", 0, -1, 0)
        .tile(1, "net_fighter", 1, 0, 5)
        .build();
    let c = g.ctx();
    assert!(c.netted[i(0, 0)]);
    assert_eq!(c.ranged[i(0, -1)], 0);
}

#[test]
fn nsh_mod_3_bonuses_add_up() {
    let g = dm()
        .tile(0, "alpha", 0, 0, 0)
        .tile(0, "officer", 0, 1, 0)
        .tile(0, "officer", 1, 0, 5)
        .tile(0, "scout", -1, 1, 1)
        .tile(0, "mwp", -1, 0, 2)
        .build();
    let c = g.ctx();
    assert_eq!(
        (c.ranged[i(0, 0)], c.init[i(0, 0)], c.extra[i(0, 0)]),
        (2, 1, 1)
    );
    assert_eq!(g.slot_values(i(0, 0), &c), (vec![4], vec![Some(3)]));
}

#[test]
fn nsh_mod_4_moloch_hq_links_ddm_hq_none() {
    let g = Scenario::new("moloch", "ddm")
        .tile(0, "hq", 0, 0, 0)
        .tile(0, "hybrid", 0, -1, 0)
        .tile(0, "hybrid", 0, -2, 0)
        .tile(1, "hq", 2, 0, 0)
        .tile(1, "alpha", 1, 0, 0)
        .build();
    let c = g.ctx();
    assert_eq!((c.ranged[i(0, -1)], c.ranged[i(0, -2)]), (1, 0));
    assert_eq!(c.ranged[i(1, 0)], 0, "the DDM HQ has no links");
}

#[test]
fn nsh_mod_5_a_module_destroyed_in_a_phase_still_acts_in_it() {
    // The Hybrid kills the Officer in phase 3 while the boosted Alpha shoots.
    let mut g = dm()
        .tile(0, "alpha", 0, 0, 0)
        .tile(0, "officer", 0, 1, 0)
        .tile(1, "hybrid", -1, 2, 1)
        .tile(1, "blocker", 1, -1, 0)
        .build();
    let ev = g.fight();
    let p3 = &phases(&ev)[0];
    assert!(p3
        .hits
        .iter()
        .any(|h| h.kind == HitKind::Ranged && h.strength == 2));
    assert_eq!(kind_at(&g, 0, 1), None);
}

#[test]
fn nsh_mod_6_medic_never_saves_itself() {
    let mut g = dm()
        .tile(0, "medic", 0, 0, 0)
        .tile(0, "medic", 0, 1, 0)
        .tile(1, "hunter_killer", 0, -1, 3)
        .build();
    // The HK hits the upper Medic; the lower Medic (reaching it) saves it.
    let ev = g.fight();
    assert_eq!(phases(&ev)[0].cancels.len(), 1);
    assert_eq!(kind_at(&g, 0, 0), Some("medic"));
    assert_eq!(kind_at(&g, 0, 1), None);
    // Alone, a Medic does not save itself.
    let mut g = dm()
        .tile(0, "medic", 0, 0, 0)
        .tile(1, "hunter_killer", 0, -1, 3)
        .build();
    g.fight();
    assert_eq!(kind_at(&g, 0, 0), None);
}

#[test]
fn nsh_mod_7_medic_choice_is_the_owners() {
    // Two hits on two tiles one Medic reaches: the DDM player chooses.
    let mut g = dm()
        .tile(0, "medic", 0, 2, 0)
        .tile(0, "alpha", 0, 1, 0)
        .tile(0, "alpha", 0, 0, 0)
        .tile(1, "hunter_killer", -1, 1, 0)
        .tile(1, "hunter_killer", 1, 0, 1)
        .hand(0, "battle")
        .build();
    let b = hand(&g, 0, "battle");
    apply(&mut g, 0, Command::Battle { tile: b });
    assert_eq!(g.to_act(), vec![Seat(0)]);
    let legal = g.legal(Seat(0));
    assert!(legal.len() >= 2, "{legal:?}");
    assert_eq!(
        reject(&mut g, 0, Command::Medics { steps: vec![] }),
        Rejection::BadMedicPlan
    );
    let Some(Command::Medics { steps }) = g.timeout_command(Seat(0)) else {
        panic!("default plan")
    };
    assert_eq!(steps.len(), 1);
    // Choose the other one than the default.
    let other = legal
        .iter()
        .find(|c| !matches!(c, Command::Medics { steps: s } if *s == steps))
        .cloned()
        .expect("another plan");
    let Command::Medics { steps: chosen } = other.clone() else {
        panic!("a plan")
    };
    let mut by_default = g.clone();
    apply(&mut by_default, 0, Command::Medics { steps });
    apply(&mut g, 0, other);
    assert_eq!(g.state.active, 1, "the battle ended, and the turn with it");
    let alive = |g: &NeuroshimaGame| [(0, 1), (0, 0)].map(|(q, r)| kind_at(g, q, r).is_some());
    assert_eq!(
        alive(&g).iter().filter(|a| **a).count(),
        1,
        "one Alpha saved: {chosen:?}"
    );
    assert_ne!(alive(&g), alive(&by_default), "the choice decided which");
}

// ----- BAT ----------------------------------------------------------------

#[test]
fn nsh_bat_1_every_trigger_runs_the_same_battle() {
    let mut g = dm()
        .tile(0, "hq", 0, 2, 0)
        .tile(1, "hq", 0, -2, 0)
        .hand(0, "battle")
        .build();
    let b = hand(&g, 0, "battle");
    let ev = apply(&mut g, 0, Command::Battle { tile: b });
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::BattleStarted {
            cause: Cause::Tile,
            from_phase: 0
        }
    )));
    assert!(ev.iter().any(|e| matches!(e, Event::BattleEnded { .. })));
}

#[test]
fn nsh_bat_2_phases_from_the_highest_slot_to_zero() {
    let mut g = dm()
        .tile(0, "alpha", 0, 0, 0)
        .tile(1, "hq", 2, 0, 0)
        .build();
    let ev = g.fight();
    let ps: Vec<u8> = phases(&ev).iter().map(|p| p.phase).collect();
    assert_eq!(ps, vec![3, 2, 1, 0]);
}

#[test]
fn nsh_bat_3_effects_recomputed_each_phase() {
    // The Scout dies in phase 3; the Delta then fires in phase 1 (T17b).
    let mut g = dm()
        .tile(0, "delta", 0, 0, 0)
        .tile(0, "scout", -1, 1, 1)
        .tile(1, "hybrid", -2, 1, 2)
        .build();
    let ev = g.fight();
    let p = phases(&ev);
    assert_eq!(p[0].phase, 3);
    assert_eq!(
        p.iter().find(|x| x.phase == 1).map(|x| x.acting.len()),
        Some(1)
    );
}

#[test]
fn nsh_bat_4_extra_slots() {
    let g = dm()
        .tile(0, "gamma", 0, 0, 0)
        .tile(0, "mwp", 0, 1, 0)
        .build();
    let c = g.ctx();
    assert_eq!(g.slot_values(i(0, 0), &c), (vec![2, 1], vec![Some(0)]));
    let g = dm()
        .tile(0, "delta", 0, 0, 0)
        .tile(0, "mwp", 0, 1, 0)
        .tile(0, "mwp", 1, 0, 5)
        .build();
    let c = g.ctx();
    assert_eq!(g.slot_values(i(0, 0), &c), (vec![1], vec![Some(0), None]));
}

#[test]
fn nsh_bat_5_one_attack_round_per_phase() {
    let mut g = dm()
        .tile(0, "delta", 0, 0, 0)
        .tile(0, "mwp", 0, 1, 0)
        .tile(1, "blocker", 0, -2, 3)
        .build();
    let ev = g.fight();
    let p = phases(&ev);
    assert_eq!(
        p.iter().filter(|x| !x.acting.is_empty()).count(),
        2,
        "slots 1 and extra 0"
    );
    assert!(p.iter().all(|x| x.hits.len() <= 1));
}

#[test]
fn nsh_bat_6_missed_slots_are_lost() {
    // T17: the Delta's slot moved from 2 to 1 after acting: no second shot.
    let mut g = dm()
        .tile(0, "delta", 0, 0, 0)
        .tile(0, "scout", -1, 1, 1)
        .tile(1, "guard", -2, 1, 2)
        .tile(1, "hq", 0, -2, 0)
        .build();
    g.fight();
    assert_eq!(g.hq_hp()[1], 18);
}

#[test]
fn nsh_bat_7_attack_round_in_edge_order() {
    let mut g = dm()
        .tile(0, "omega", 0, 0, 0)
        .tile(1, "blocker", 0, -2, 3)
        .tile(1, "blocker", 2, -2, 3)
        .tile(1, "hq", -2, 0, 0)
        .build();
    let ev = g.fight();
    let edges: Vec<u8> = phases(&ev)[0].hits.iter().map(|h| h.edge).collect();
    assert_eq!(edges, vec![0, 1, 5]);
}

#[test]
fn nsh_bat_8_melee_only_next_door() {
    let mut g = dm()
        .tile(0, "omega", 0, 0, 0)
        .tile(1, "hunter_killer", 0, -2, 3)
        .build();
    let ev = g.fight();
    assert!(
        phases(&ev)[0].hits.is_empty(),
        "the HK's melee does not reach"
    );
}

#[test]
fn nsh_bat_9_ranged_passes_friends_stops_at_first_enemy() {
    let mut g = dm()
        .tile(0, "delta", 0, 2, 0)
        .tile(0, "omega", 0, 1, 3)
        .tile(1, "blocker", 0, 0, 0)
        .tile(1, "blocker", 0, -1, 3)
        .build();
    g.fight();
    assert_eq!(g.describe(0, 0).map(|d| d.1), Some(2));
    assert_eq!(g.describe(0, -1).map(|d| d.1), Some(0));
}

#[test]
fn nsh_bat_10_gauss_hits_every_enemy_on_the_line() {
    let mut g = dm()
        .tile(0, "gauss", 0, 2, 0)
        .tile(1, "blocker", 0, 1, 3)
        .tile(0, "omega", 0, 0, 0)
        .tile(1, "blocker", 0, -1, 3)
        .build();
    let ev = g.fight();
    let p1 = phases(&ev)
        .into_iter()
        .find(|p| p.phase == 1)
        .expect("phase 1");
    assert_eq!(
        p1.hits.iter().filter(|h| h.kind == HitKind::Gauss).count(),
        2
    );
}

#[test]
fn nsh_bat_11_armour_per_copy() {
    // A Tripler sends three copies; the one into armour loses 1.
    let mut g = dm()
        .tile(0, "delta", 0, 1, 0)
        .tile(0, "tripler", 0, 0, 0)
        .tile(1, "blocker", 0, -1, 3)
        .build();
    let ev = g.fight();
    let h = phases(&ev)[0].hits[0];
    assert_eq!((h.strength, h.wounds), (2, 1), "armour faces the shot");
}

#[test]
fn nsh_bat_12_hqs_do_not_wound_hqs_and_hit_order() {
    let mut g = dm().tile(0, "hq", 0, 0, 0).tile(1, "hq", 0, -1, 0).build();
    let ev = g.fight();
    assert!(phases(&ev).iter().all(|p| p.hits.is_empty()));
    assert_eq!(g.hq_hp(), [20, 20]);
}

#[test]
fn nsh_bat_13_damage_step_trap_shrapnel_and_medic() {
    // The Trap's shrapnel hits a friendly Omega; a Medic saves it.
    let mut g = dm()
        .tile(0, "trap", 0, 0, 0)
        .tile(1, "hunter_killer", 0, -1, 3)
        .tile(0, "omega", 1, 0, 0)
        .tile(0, "medic", 2, 0, 5)
        .build();
    let ev = g.fight();
    let p3 = &phases(&ev)[0];
    assert_eq!(p3.explosions.len(), 1);
    assert_eq!(p3.cancels.len(), 1);
    assert_eq!(kind_at(&g, 1, 0), Some("omega"));
    assert_eq!(kind_at(&g, 0, -1), None);
}

#[test]
fn nsh_bat_14_removal_at_the_end_of_the_phase() {
    let mut g = dm()
        .tile(0, "alpha", 0, 0, 0)
        .tile(1, "hybrid", 1, -1, 4)
        .build();
    let ev = g.fight();
    assert_eq!(phases(&ev)[0].hits.len(), 2, "both shot");
    assert_eq!(g.tile_count(), 0);
}

#[test]
fn nsh_bat_15_damage_stays_after_the_battle() {
    let mut g = dm()
        .tile(0, "delta", 0, 1, 0)
        .tile(1, "hybrid", 0, -1, 3)
        .build();
    g.fight();
    assert_eq!(g.describe(0, 1).map(|d| d.1), Some(1));
}

#[test]
fn nsh_bat_16_battle_report() {
    let mut g = dm()
        .tile(0, "alpha", 0, 0, 0)
        .tile(0, "fireblast", 1, -1, 2)
        .tile(1, "hybrid", 2, -1, 0)
        .build();
    let ev = g.fight();
    let p3 = &phases(&ev)[0];
    assert_eq!(p3.acting.len(), 2);
    assert_eq!(p3.traces.len(), 3);
    assert_eq!(p3.removed.len(), 1);
    assert!(matches!(
        ev.first(),
        Some(Event::BattleStarted { from_phase: 3, .. })
    ));
}

// ----- DM -----------------------------------------------------------------

#[test]
fn nsh_dm_1_redirector_edges() {
    let a = data::army("ddm").expect("ddm");
    let k = |id: &str| &a.kinds[usize::from(a.kind_index(id).expect("kind"))];
    let entries = |id: &str| (0..6).filter(|e| k(id).edges[*e].entry).collect::<Vec<_>>();
    let exits = |id: &str| (0..6).filter(|e| k(id).edges[*e].exit).collect::<Vec<_>>();
    assert_eq!(
        (entries("dnf"), exits("dnf")),
        (vec![1, 2, 3, 4, 5], vec![0])
    );
    assert_eq!(
        (entries("fireblast"), exits("fireblast")),
        (vec![1, 2, 3, 4, 5], vec![0])
    );
    assert_eq!(
        (entries("tripler"), exits("tripler")),
        (vec![2, 3, 4], vec![0, 1, 5])
    );
}

#[test]
fn nsh_dm_2_redirectors_have_no_slots_and_can_be_saved() {
    let g = dm()
        .tile(0, "tripler", 0, 0, 0)
        .tile(0, "scout", 0, 1, 0)
        .build();
    assert_eq!(g.slot_values(i(0, 0), &g.ctx()), (vec![], vec![]));
    let mut g = dm()
        .tile(0, "fireblast", 0, 0, 0)
        .tile(0, "medic", 0, 1, 0)
        .tile(1, "hunter_killer", 1, -1, 4)
        .build();
    g.fight();
    assert_eq!(g.describe(0, 0).map(|d| d.1), Some(0));
}

#[test]
fn nsh_dm_3_redirect_is_mandatory() {
    let mut g = dm()
        .tile(0, "alpha", 0, 0, 0)
        .tile(0, "fireblast", 1, -1, 2)
        .tile(1, "blocker", 2, -2, 0)
        .build();
    g.fight();
    assert_eq!(
        g.describe(2, -2).map(|d| d.1),
        Some(0),
        "the shot had to turn"
    );
}

#[test]
fn nsh_dm_4_one_branch_per_exit() {
    let mut g = dm()
        .tile(0, "delta", 0, 1, 0)
        .tile(0, "tripler", 0, 0, 0)
        .tile(1, "blocker", -1, 0, 3)
        .tile(1, "blocker", 0, -1, 3)
        .build();
    let ev = g.fight();
    let t = &phases(&ev)[0].traces[0];
    assert!(matches!(&t.steps[0], TraceStep::Redirect { exits, .. } if exits == &vec![0, 1, 5]));
    assert_eq!(g.describe(-1, 0).map(|d| d.1), Some(2));
    assert_eq!(
        g.describe(0, -1).map(|d| d.1),
        Some(1),
        "armour N... faces S: 2-1"
    );
}

#[test]
fn nsh_dm_5_non_entry_edge_passes_over() {
    // A shot entering the Fireblast through its exit edge goes straight on.
    let mut g = dm()
        .tile(0, "delta", 0, -2, 3)
        .tile(0, "fireblast", 0, -1, 0)
        .tile(1, "blocker", 0, 1, 3)
        .build();
    let ev = g.fight();
    assert!(phases(&ev)[0].traces[0]
        .steps
        .iter()
        .all(|s| !matches!(s, TraceStep::Redirect { .. })));
    assert_eq!(g.describe(0, 1).map(|d| d.1), Some(2));
}

#[test]
fn nsh_dm_6_enemy_shots_are_not_redirected() {
    let mut g = dm()
        .tile(0, "fireblast", 0, 0, 0)
        .tile(1, "hybrid", 0, 2, 0)
        .tile(1, "blocker", 0, -2, 3)
        .build();
    g.fight();
    assert_eq!(g.describe(0, 0).map(|d| d.1), Some(1));
    assert_eq!(g.describe(0, -2).map(|d| d.1), Some(0));
}

#[test]
fn nsh_dm_7_gauss_turns_and_skips_the_old_line() {
    let mut g = dm()
        .tile(0, "gauss", 0, 2, 0)
        .tile(0, "fireblast", 0, 1, 5)
        .tile(1, "protector", 0, 0, 0)
        .tile(1, "blocker", -1, 1, 1)
        .tile(1, "juggernaut", -2, 1, 1)
        .build();
    g.fight();
    assert_eq!(g.describe(0, 0).map(|d| d.1), Some(0), "old line");
    assert_eq!(g.describe(-1, 1).map(|d| d.1), Some(1));
    assert_eq!(g.describe(-2, 1).map(|d| d.1), Some(1));
}

fn two_triplers(combo: InfinityCombo) -> NeuroshimaGame {
    // Two Triplers facing each other: each one's N exit enters the other.
    dm().options(Options {
        infinity_combo: combo,
        ..Options::default()
    })
    .tile(0, "delta", 0, 2, 0)
    .tile(0, "tripler", 0, 1, 0)
    .tile(0, "tripler", 0, 0, 3)
    .tile(1, "blocker", -2, 1, 0)
    .build()
}

#[test]
fn nsh_dm_8_capped_loops_terminate() {
    let mut g = two_triplers(InfinityCombo::Capped);
    let ev = g.fight();
    let ps = phases(&ev);
    let t = &ps.iter().find(|p| p.phase == 1).expect("phase 1").traces[0];
    assert!(t.steps.len() < 200);
    let hits: u64 = t
        .steps
        .iter()
        .filter_map(|s| {
            if let TraceStep::Hit { copies, .. } = s {
                Some(*copies)
            } else {
                None
            }
        })
        .sum();
    assert!(hits <= 729);
}

#[test]
fn nsh_dm_9_unbounded_loops() {
    let mut g = dm()
        .options(Options {
            infinity_combo: InfinityCombo::Unbounded,
            ..Options::default()
        })
        .tile(0, "tripler", 0, 0, 0)
        .tile(0, "fireblast", 0, -1, 2)
        .tile(0, "fireblast", 1, -1, 3)
        .tile(0, "dnf", 1, 0, 5)
        .tile(0, "delta", 0, 1, 0)
        .tile(1, "blocker", -2, 0, 0)
        .build();
    g.fight();
    assert_eq!(kind_at(&g, -2, 0), None, "unboundedly many hits destroy it");
}

#[test]
fn nsh_dm_10_rotation_once_per_turn() {
    let mut g = dm()
        .tile(0, "hq", 0, 0, 0)
        .tile(0, "omega", 2, -2, 0)
        .build();
    apply(
        &mut g,
        0,
        Command::Rotate {
            hex: Hex::new(2, -2),
            rotation: 0,
        },
    );
    assert!(g.state.rotation_used, "spent even without a change");
    assert_eq!(
        reject(
            &mut g,
            0,
            Command::Rotate {
                hex: Hex::ORIGIN,
                rotation: 1
            }
        ),
        Rejection::AbilityUsed
    );
    let mut m = Scenario::new("moloch", "ddm")
        .tile(0, "hq", 0, 0, 0)
        .build();
    assert_eq!(
        reject(
            &mut m,
            0,
            Command::Rotate {
                hex: Hex::ORIGIN,
                rotation: 1
            }
        ),
        Rejection::NoAbility
    );
}

#[test]
fn nsh_dm_11_netted_trap_does_not_explode() {
    let mut g = dm()
        .tile(0, "trap", 0, 0, 0)
        .tile(1, "hunter_killer", 0, -1, 3)
        .tile(1, "net_fighter", 1, 0, 5)
        .tile(0, "omega", -1, 1, 0)
        .build();
    let ev = g.fight();
    assert!(phases(&ev).iter().all(|p| p.explosions.is_empty()));
    assert_eq!(g.describe(-1, 1).map(|d| d.1), Some(0));
}

#[test]
fn nsh_dm_12_small_bomb_needs_a_triangle() {
    let mut g = dm().hand(0, "small_bomb").build();
    let b = hand(&g, 0, "small_bomb");
    let c = Command::SmallBomb {
        tile: b,
        hexes: [Hex::ORIGIN, Hex::new(0, -1), Hex::new(0, 1)],
    };
    assert_eq!(reject(&mut g, 0, c), Rejection::NotTriangle);
    let n = g
        .legal(Seat(0))
        .iter()
        .filter(|c| matches!(c, Command::SmallBomb { .. }))
        .count();
    assert_eq!(n, 24);
}

#[test]
fn nsh_dm_13_long_distance_medic_chooses() {
    let mut g = dm()
        .tile(0, "medic", 0, 2, 0)
        .tile(1, "hornet", 0, 1, 0)
        .tile(0, "omega", 0, 0, 3)
        .build();
    let ev = g.fight();
    assert_eq!(
        phases(&ev).iter().map(|p| p.cancels.len()).sum::<usize>(),
        1
    );
    assert_eq!(kind_at(&g, 0, 0), Some("omega"));
}

#[test]
fn nsh_dm_14_redirected_shot_sets_off_an_enemy_trap() {
    let mut g = Scenario::new("ddm", "ddm")
        .tile(0, "alpha", 0, 0, 0)
        .tile(0, "fireblast", 1, -1, 2)
        .tile(1, "trap", 2, -1, 5)
        .tile(1, "omega", 2, 0, 0)
        .build();
    let ev = g.fight();
    let p3 = &phases(&ev)[0];
    assert_eq!(
        p3.explosions.len(),
        1,
        "arrival edge 0 of the Trap is marked"
    );
    assert_eq!(kind_at(&g, 2, 0), None, "its own Omega took the shrapnel");
    assert_eq!(
        g.describe(1, -1).map(|d| d.1),
        Some(1),
        "so did the Fireblast"
    );
}

#[test]
fn nsh_dm_15_trace_report_order() {
    let mut g = dm()
        .tile(0, "delta", 0, 1, 0)
        .tile(0, "tripler", 0, 0, 0)
        .build();
    let ev = g.fight();
    let t = &phases(&ev)[0].traces[0];
    let kinds: Vec<&str> = t
        .steps
        .iter()
        .map(|s| match s {
            TraceStep::Redirect { .. } => "redirect",
            TraceStep::LoopCut { .. } => "loop_cut",
            TraceStep::Hit { .. } => "hit",
            TraceStep::Lost { .. } => "lost",
        })
        .collect();
    assert_eq!(kinds, vec!["redirect", "lost", "lost", "lost"]);
    let dirs: Vec<u8> = t
        .steps
        .iter()
        .filter_map(|s| {
            if let TraceStep::Lost { direction, .. } = s {
                Some(*direction)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(dirs, vec![5, 0, 1], "by hex (q, r), then direction");
}

// ----- MOL ----------------------------------------------------------------

#[test]
fn nsh_mol_1_netted_moloch_hq_gives_nothing() {
    let g = Scenario::new("moloch", "ddm")
        .tile(0, "hq", 0, 0, 0)
        .tile(0, "hybrid", 1, -1, 0)
        .tile(1, "dnf", 0, -1, 3)
        .build();
    let c = g.ctx();
    assert!(c.netted[i(0, 0)]);
    assert_eq!(c.ranged[i(1, -1)], 0);
}

#[test]
fn nsh_mol_2_clown_at_the_edge() {
    let mut g = Scenario::new("moloch", "ddm")
        .tile(0, "clown", 0, -2, 0)
        .tile(1, "omega", 0, -1, 0)
        .tile(0, "hq", 1, -2, 0)
        .hand(0, "battle")
        .build();
    let b = hand(&g, 0, "battle");
    apply(&mut g, 0, Command::Battle { tile: b });
    let ev = apply(&mut g, 0, Command::Clown { explode: true });
    let p2 = phases(&ev)
        .into_iter()
        .find(|p| p.phase == 2)
        .expect("phase 2");
    assert_eq!(
        p2.hits
            .iter()
            .filter(|h| h.kind == HitKind::Shrapnel)
            .count(),
        1,
        "HQ spared, off-board ignored"
    );
    assert_eq!(kind_at(&g, 0, -2), None);
}

#[test]
fn nsh_mol_3_air_strike_spares_hqs() {
    let mut g = Scenario::new("moloch", "ddm")
        .tile(1, "hq", 0, 0, 0)
        .hand(0, "air_strike")
        .build();
    let a = hand(&g, 0, "air_strike");
    apply(
        &mut g,
        0,
        Command::AirStrike {
            tile: a,
            centre: Hex::ORIGIN,
        },
    );
    assert_eq!(g.hq_hp()[1], 20);
    let n = dm().build().legal(Seat(0)).len();
    assert!(n >= 1);
}

#[test]
fn nsh_mol_4_move_and_rotate() {
    let mut g = Scenario::new("moloch", "ddm")
        .tile(0, "hq", 0, 0, 0)
        .hand(0, "move")
        .build();
    let m = hand(&g, 0, "move");
    assert_eq!(
        reject(
            &mut g,
            0,
            Command::Move {
                tile: m,
                from: Hex::ORIGIN,
                to: Hex::ORIGIN,
                rotation: 0
            }
        ),
        Rejection::NoChange
    );
    assert_eq!(
        reject(
            &mut g,
            0,
            Command::Move {
                tile: m,
                from: Hex::ORIGIN,
                to: Hex::new(0, 2),
                rotation: 0
            }
        ),
        Rejection::NotAdjacent
    );
    apply(
        &mut g,
        0,
        Command::Move {
            tile: m,
            from: Hex::ORIGIN,
            to: Hex::new(1, 0),
            rotation: 4,
        },
    );
    assert_eq!(g.describe(1, 0), Some(("hq", 0, 4)));
    let mut g = Scenario::new("moloch", "ddm")
        .tile(0, "hybrid", 0, 0, 0)
        .tile(1, "dnf", 0, -1, 3)
        .hand(0, "move")
        .build();
    let m = hand(&g, 0, "move");
    assert_eq!(
        reject(
            &mut g,
            0,
            Command::Move {
                tile: m,
                from: Hex::ORIGIN,
                to: Hex::new(1, 0),
                rotation: 0
            }
        ),
        Rejection::Netted
    );
}

#[test]
fn nsh_mol_5_mother_and_brain() {
    let g = Scenario::new("moloch", "ddm")
        .tile(0, "hunter_killer", 0, 0, 0)
        .tile(0, "mother", 0, 1, 0)
        .tile(0, "brain", 0, -1, 3)
        .build();
    let c = g.ctx();
    assert_eq!(
        (c.extra[i(0, 0)], c.melee[i(0, 0)], c.ranged[i(0, 0)]),
        (1, 1, 1)
    );
    let a = data::army("moloch").expect("moloch");
    let brain = &a.kinds[usize::from(a.kind_index("brain").expect("brain"))];
    assert!(brain.gives(Bonus::Melee) && brain.gives(Bonus::Ranged));
}

// ----- END ----------------------------------------------------------------

#[test]
fn nsh_end_1_ending_begins_on_the_last_draw() {
    let mut g = dm().tile(0, "hq", 0, 2, 0).tile(1, "hq", 0, -2, 0).build();
    let p = &mut g.state.players[1];
    let keep = p.draw.split_off(p.draw.len() - 2);
    p.discard.append(&mut p.draw);
    p.draw = keep;
    let ev = apply(&mut g, 0, Command::EndTurn);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::EndingBegan { seat: 1 })));
    assert_eq!(
        g.state.finale,
        Some(Finale {
            x: 1,
            step: FinaleStep::XTurn
        })
    );
}

#[test]
fn nsh_end_2_y_plays_one_more_turn_then_the_last_battle() {
    let mut g = dm().tile(0, "hq", 0, 2, 0).tile(1, "hq", 0, -2, 0).build();
    g.state.finale = Some(Finale {
        x: 1,
        step: FinaleStep::YTurn,
    });
    let ev = apply(&mut g, 0, Command::EndTurn);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::BattleStarted {
            cause: Cause::Last,
            ..
        }
    )));
}

#[test]
fn nsh_end_3_destroyed_hq_loses() {
    let mut g = dm()
        .tile(0, "hq", 0, 2, 0)
        .tile(1, "hq", 0, -2, 0)
        .damage(0, -2, 19)
        .tile(0, "delta", 0, 0, 0)
        .hand(0, "battle")
        .build();
    let b = hand(&g, 0, "battle");
    apply(&mut g, 0, Command::Battle { tile: b });
    let r = g.state.result.expect("over");
    assert_eq!((r.winner, r.reason), (Some(0), Reason::HqDestroyed));
    assert!(g.to_act().is_empty());
}

#[test]
fn nsh_end_4_higher_hp_wins_after_the_last_battle() {
    let mut g = dm()
        .tile(0, "hq", 0, 2, 0)
        .tile(1, "hq", 0, -2, 0)
        .damage(0, 2, 5)
        .build();
    g.state.finale = Some(Finale {
        x: 0,
        step: FinaleStep::YTurn,
    });
    apply(&mut g, 0, Command::EndTurn);
    let r = g.state.result.expect("over");
    assert_eq!(
        (r.winner, r.reason, r.hq_hp),
        (Some(1), Reason::LastBattle, [15, 20])
    );
}

#[test]
fn nsh_end_5_stalemate_of_a_full_board() {
    let mut g = full_but_one().hand(0, "trap").build();
    let t = hand(&g, 0, "trap");
    apply(
        &mut g,
        0,
        Command::Place {
            tile: t,
            hex: Hex::new(2, 0),
            rotation: 0,
        },
    );
    let r = g.state.result.expect("over");
    assert_eq!((r.winner, r.reason), (None, Reason::Stalemate));
}

#[test]
fn nsh_end_6_result_record_and_placings() {
    let mut g = dm()
        .tile(0, "hq", 0, 2, 0)
        .tile(1, "hq", 0, -2, 0)
        .damage(0, -2, 4)
        .build();
    g.state.finale = Some(Finale {
        x: 1,
        step: FinaleStep::YTurn,
    });
    apply(&mut g, 0, Command::EndTurn);
    let s = g.summary();
    assert_eq!(
        s.result,
        Some(GameResult {
            winner: Some(0),
            hq_hp: [20, 16],
            reason: Reason::LastBattle
        })
    );
    let o = g.outcome().expect("outcome");
    assert_eq!(
        o.placings
            .iter()
            .map(|p| (p.place, p.score))
            .collect::<Vec<_>>(),
        vec![(1, 20), (2, 16)]
    );
    let json = serde_json::to_string(&s).expect("json");
    assert!(json.contains("\"last_battle\""), "{json}");
}

// ----- HID ----------------------------------------------------------------

#[test]
fn nsh_hid_1_public_view() {
    let g = placed_hqs(8);
    let a = g.view(Viewer::Seat(Seat(0)));
    let b = g.view(Viewer::Spectator);
    assert_eq!(a.state, b.state, "seats and spectators see the same");
    assert_eq!(
        a.state.players[1].hand, g.state.players[1].hand,
        "hands are face up"
    );
    assert_eq!(a.state.players[0].draw.len(), 33);
}

#[test]
fn nsh_hid_2_pile_order_hidden_from_everyone() {
    let g = placed_hqs(8);
    let mut sorted = g.state.players[0].draw.clone();
    sorted.sort();
    for v in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        assert_eq!(g.view(v).state.players[0].draw, sorted);
        let re = g.resample_hidden(v, &mut SeededDice::new(3));
        assert_ne!(re.checksum(), g.checksum());
        assert_eq!(re.view(v), g.view(v));
    }
}

#[test]
fn nsh_hid_3_shuffle_events_are_stubs_for_all() {
    let (_, ev) = new_game("ddm", "moloch", Options::default(), 1);
    let shuffled: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::Shuffled { .. }))
        .collect();
    assert_eq!(shuffled.len(), 2);
    for e in shuffled {
        assert!(matches!(e, Event::Shuffled { order: Some(o), .. } if o.len() == 34));
        for v in [
            Viewer::Seat(Seat(0)),
            Viewer::Seat(Seat(1)),
            Viewer::Spectator,
        ] {
            assert!(matches!(
                NeuroshimaGame::redact(e, v),
                Event::Shuffled { order: None, .. }
            ));
        }
    }
}

#[test]
fn nsh_hid_4_bots_see_only_the_view() {
    let g = placed_hqs(9);
    let re = g.resample_hidden(Viewer::Seat(Seat(0)), &mut SeededDice::new(4));
    let mut a = HeuristicBot::new();
    let mut b = HeuristicBot::new();
    let ca = a.choose(&Seen::of(&g, Seat(0)));
    let cb = b.choose(&Seen::of(&re, Seat(0)));
    assert!(ca.is_some());
    assert_eq!(ca, cb, "same view, same choice");
}

#[test]
fn nsh_hid_5_randomness_order_and_determinism() {
    let random = Options {
        first_player: FirstPlayer::Random,
        ..Options::default()
    };
    let (a, _) = new_game("ddm", "moloch", random, 11);
    let (b, _) = new_game("ddm", "moloch", random, 11);
    assert_eq!(a.checksum(), b.checksum());
    // With a fixed first player, no draw picks it: seat 0's pile is the
    // first shuffle, so it differs from the random-first game's.
    let (c, _) = new_game("ddm", "moloch", Options::default(), 11);
    assert_ne!(a.state.players[0].draw, c.state.players[0].draw);
}

#[test]
fn nsh_dm_8_two_triplers_loop_is_cut_and_multiplies() {
    let mut g = Scenario::new("ddm", "moloch")
        .tile(0, "tripler", 0, 0, 0)
        .tile(0, "fireblast", 0, -1, 2)
        .tile(0, "fireblast", 1, -1, 3)
        .tile(0, "tripler", 1, 0, 4)
        .tile(0, "delta", 0, 1, 0)
        .tile(1, "hq", -2, 0, 0)
        .build();
    let ev = g.fight();
    let p1 = phases(&ev)
        .into_iter()
        .find(|p| p.phase == 1)
        .expect("phase 1");
    let t = &p1.traces[0];
    assert!(t.combo_capped);
    let hits: u64 = t
        .steps
        .iter()
        .filter_map(|s| {
            if let TraceStep::Hit { copies, .. } = s {
                Some(*copies)
            } else {
                None
            }
        })
        .sum();
    // Each path redirects at a (Tripler, entry) pair once: the NW exit of
    // the first Tripler is taken by three loop-free paths.
    assert_eq!((t.steps.len(), hits), (24, 3));
    assert_eq!(g.hq_hp()[1], 14);
}

#[test]
fn nsh_use_4_bomb_damage_medic_choice_is_the_owners() {
    // An Air Strike wounds two DDM Alphas one DDM Medic reaches: the DDM
    // player (seat 1) chooses which it saves.
    let mut g = Scenario::new("moloch", "ddm")
        .tile(1, "alpha", 0, 0, 0)
        .tile(1, "alpha", 0, 1, 0)
        .tile(1, "medic", 0, 2, 0)
        .hand(0, "air_strike")
        .build();
    let a = hand(&g, 0, "air_strike");
    let ev = apply(
        &mut g,
        0,
        Command::AirStrike {
            tile: a,
            centre: Hex::ORIGIN,
        },
    );
    assert!(matches!(ev.last(), Some(Event::Awaiting { seats }) if seats == &vec![1]));
    assert_eq!(g.state.stage, Stage::Bomb);
    assert_eq!(g.to_act(), vec![Seat(1)]);
    assert_eq!(reject(&mut g, 0, Command::EndTurn), Rejection::NotYourMove);
    let legal = g.legal(Seat(1));
    assert_eq!(legal.len(), 2, "{legal:?}");
    assert_eq!(
        reject(&mut g, 1, Command::Medics { steps: vec![] }),
        Rejection::BadMedicPlan
    );
    let default = g.timeout_command(Seat(1)).expect("default");
    let other = legal
        .into_iter()
        .find(|c| *c != default)
        .expect("the other plan");
    let mut by_default = g.clone();
    apply(&mut by_default, 1, default);
    apply(&mut g, 1, other);
    assert_eq!(g.state.stage, Stage::Action);
    let alive = |g: &NeuroshimaGame| [(0, 0), (0, 1)].map(|(q, r)| kind_at(g, q, r).is_some());
    assert_eq!(alive(&g).iter().filter(|x| **x).count(), 1);
    assert_ne!(alive(&g), alive(&by_default));
    assert_eq!(kind_at(&g, 0, 2), None, "the used Medic is removed at once");
}
