//! Every worked example of neuroshima.md §13 (NSH-T-1 .. NSH-T-25), with
//! its exact result.

use citadel_game::{Game, Seat, SeededDice};
use citadel_hex::Hex;
use citadel_neuroshima::scenario::Scenario;
use citadel_neuroshima::*;

fn ddm_moloch() -> Scenario {
    Scenario::new("ddm", "moloch")
}

fn phases(events: &[Event]) -> Vec<&PhaseReport> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Phase(p) => Some(p),
            _ => None,
        })
        .collect()
}

fn phase(events: &[Event], p: u8) -> &PhaseReport {
    phases(events)
        .into_iter()
        .find(|r| r.phase == p)
        .expect("phase fought")
}

fn kind(g: &NeuroshimaGame, q: i8, r: i8) -> Option<&'static str> {
    g.describe(q, r).map(|d| d.0)
}

fn dmg(g: &NeuroshimaGame, q: i8, r: i8) -> u8 {
    g.describe(q, r).expect("a tile there").1
}

/// End `seat`'s turn, discarding the earliest tile first if it must.
fn end_turn(g: &mut NeuroshimaGame, seat: u8) -> Vec<Event> {
    if g.state.stage == Stage::Discard {
        let tile = g.state.players[usize::from(seat)].hand[0];
        apply(g, seat, Command::Discard { tile });
    }
    apply(g, seat, Command::EndTurn)
}

fn apply(g: &mut NeuroshimaGame, seat: u8, c: Command) -> Vec<Event> {
    let mut dice = SeededDice::new(1);
    g.apply(Seat(seat), c, &mut dice).expect("accepted")
}

#[test]
fn nsh_t_1_initiative_tie_both_act_and_die() {
    let mut g = ddm_moloch()
        .tile(0, "alpha", 0, 0, 0)
        .tile(1, "hybrid", 1, -1, 4)
        .build();
    let ev = g.fight();
    let p3 = phase(&ev, 3);
    assert_eq!(p3.acting.len(), 2);
    assert_eq!(p3.removed.len(), 2);
    assert_eq!(g.tile_count(), 0);
}

#[test]
fn nsh_t_2_higher_initiative_first() {
    let mut g = ddm_moloch()
        .tile(0, "omega", 0, 0, 0)
        .tile(1, "hunter_killer", 0, -1, 3)
        .build();
    let ev = g.fight();
    assert_eq!(phase(&ev, 3).removed.len(), 1);
    assert!(phase(&ev, 2).acting.is_empty());
    assert_eq!(kind(&g, 0, 0), None);
    assert_eq!(g.describe(0, -1), Some(("hunter_killer", 0, 3)));
}

#[test]
fn nsh_t_3_toughness_and_damage_kept() {
    let mut g = ddm_moloch()
        .tile(0, "delta", 0, 1, 0)
        .tile(1, "hybrid", 0, -1, 3)
        .build();
    let ev = g.fight();
    assert_eq!(phase(&ev, 1).hits[0].wounds, 2);
    assert_eq!(kind(&g, 0, -1), None);
    assert_eq!(dmg(&g, 0, 1), 1);
}

#[test]
fn nsh_t_4_armour_stops_ranged_not_melee() {
    let mut g = ddm_moloch()
        .tile(0, "omega", 0, 0, 0)
        .tile(1, "hybrid", 0, 2, 0)
        .tile(1, "hunter_killer", 0, 1, 0)
        .build();
    let ev = g.fight();
    let p3 = phase(&ev, 3);
    let ranged = p3
        .hits
        .iter()
        .find(|h| h.kind == HitKind::Ranged)
        .expect("shot");
    assert_eq!((ranged.strength, ranged.wounds, ranged.arrival), (1, 0, 3));
    let melee = p3
        .hits
        .iter()
        .find(|h| h.kind == HitKind::Melee)
        .expect("melee");
    assert_eq!(melee.wounds, 1);
    assert_eq!(kind(&g, 0, 0), None);
    assert_eq!(dmg(&g, 0, 1), 0);
}

#[test]
fn nsh_t_5_gauss_line_armour_per_tile() {
    let mut g = ddm_moloch()
        .tile(0, "gauss", 0, 2, 0)
        .tile(1, "hybrid", 0, 1, 3)
        .tile(1, "armored_guard", 0, 0, 3)
        .tile(1, "hq", 0, -2, 0)
        .build();
    let ev = g.fight();
    let p1 = phase(&ev, 1);
    let wounds: Vec<u8> = p1.hits.iter().map(|h| h.wounds).collect();
    assert_eq!(wounds, vec![1, 0, 1]);
    assert_eq!(dmg(&g, 0, 2), 1);
    assert_eq!(kind(&g, 0, 1), None);
    assert_eq!(dmg(&g, 0, 0), 0);
    assert_eq!(g.hq_hp()[1], 19);
}

#[test]
fn nsh_t_6_fireblast_redirect() {
    let mut g = ddm_moloch()
        .tile(0, "alpha", 0, 0, 0)
        .tile(0, "fireblast", 1, -1, 2)
        .tile(1, "hybrid", 2, -1, 0)
        .tile(1, "blocker", 2, -2, 0)
        .build();
    let ev = g.fight();
    let p3 = phase(&ev, 3);
    assert!(p3
        .traces
        .iter()
        .any(|t| t.steps.iter().any(
            |s| matches!(s, TraceStep::Redirect { entry: 2, exits, .. } if exits == &vec![2])
        )));
    assert_eq!(kind(&g, 2, -1), None);
    assert_eq!(dmg(&g, 2, -2), 0);
    assert_eq!(kind(&g, 0, 0), Some("alpha"));
}

#[test]
fn nsh_t_7_gauss_turns_through_a_redirector() {
    let mut g = ddm_moloch()
        .tile(0, "gauss", -2, 2, 1)
        .tile(1, "hybrid", -1, 1, 0)
        .tile(0, "fireblast", 0, 0, 0)
        .tile(1, "blocker", 0, -1, 0)
        .tile(1, "hq", 0, -2, 0)
        .tile(1, "guard", 1, -1, 0)
        .build();
    let ev = g.fight();
    let p1 = phase(&ev, 1);
    assert_eq!(p1.hits.len(), 3);
    assert_eq!(p1.hits[1].arrival, 3);
    assert_eq!(kind(&g, -1, 1), None);
    assert_eq!(dmg(&g, 0, -1), 1);
    assert_eq!(dmg(&g, 1, -1), 0);
    assert_eq!(g.hq_hp()[1], 19);
}

#[test]
fn nsh_t_8_tripler_fan_out_with_officer_and_two_initiatives() {
    let mut g = ddm_moloch()
        .tile(0, "gamma", 0, 2, 0)
        .tile(0, "officer", 0, 1, 3)
        .tile(0, "tripler", 0, 0, 0)
        .tile(1, "armored_hunter", -1, 0, 0)
        .tile(1, "hq", 0, -2, 0)
        .tile(1, "blocker", 1, -1, 4)
        .build();
    let ev = g.fight();
    let p2 = phase(&ev, 2);
    let mut w: Vec<(u8, u8)> = p2.hits.iter().map(|h| (h.strength, h.wounds)).collect();
    w.sort();
    assert_eq!(w, vec![(1, 1), (2, 1), (2, 2), (2, 2)]);
    assert_eq!(g.hq_hp()[1], 16);
    assert_eq!(dmg(&g, 1, -1), 2);
    assert_eq!(dmg(&g, 0, 0), 1);
    assert_eq!(kind(&g, -1, 0), None);
}

#[test]
fn nsh_t_9_netted_redirector_is_passed_over() {
    let mut g = ddm_moloch()
        .tile(0, "alpha", 0, 0, 0)
        .tile(0, "fireblast", 1, -1, 2)
        .tile(1, "net_fighter", 2, -2, 4)
        .tile(1, "hybrid", 2, -1, 0)
        .build();
    let fb = g.tile_on(1, -1).expect("fireblast");
    let ev = g.fight();
    assert_eq!(phase(&ev, 3).netted, vec![fb]);
    assert_eq!(kind(&g, 2, -2), None);
    assert_eq!(dmg(&g, 2, -1), 0);
}

fn t10(trap_rot: u8) -> NeuroshimaGame {
    let mut g = ddm_moloch()
        .tile(0, "trap", 0, 0, trap_rot)
        .tile(1, "hunter_killer", 0, -1, 3)
        .tile(0, "hq", 0, 1, 0)
        .tile(1, "blocker", 1, 0, 0)
        .tile(0, "omega", -1, 0, 1)
        .build();
    g.fight();
    g
}

#[test]
fn nsh_t_10_trap_marked_side_explodes() {
    let g = t10(0);
    assert_eq!(g.hq_hp()[0], 19);
    assert_eq!(dmg(&g, 1, 0), 2);
    for (q, r) in [(0, -1), (-1, 0), (0, 0)] {
        assert_eq!(kind(&g, q, r), None, "({q},{r}) removed");
    }
}

#[test]
fn nsh_t_10b_trap_other_side_just_dies() {
    let g = t10(3);
    assert_eq!(g.hq_hp()[0], 20);
    assert_eq!(dmg(&g, 1, 0), 1);
    assert_eq!(g.describe(0, -1), Some(("hunter_killer", 0, 3)));
    assert_eq!(kind(&g, 0, 0), None);
    assert_eq!(kind(&g, -1, 0), None);
}

#[test]
fn nsh_t_11_medic_is_mandatory() {
    let mut g = ddm_moloch()
        .tile(0, "alpha", 0, 1, 0)
        .tile(1, "guard", 1, 0, 4)
        .tile(1, "medic", 2, -1, 0)
        .build();
    let ev = g.fight();
    assert_eq!(phase(&ev, 3).cancels.len(), 1);
    assert_eq!(kind(&g, 2, -1), None);
    assert_eq!(kind(&g, 0, 1), None);
    assert_eq!(g.describe(1, 0), Some(("guard", 0, 4)));
}

#[test]
fn nsh_t_12_long_distance_medic_over_an_enemy() {
    let mut g = ddm_moloch()
        .tile(0, "medic", 0, 2, 0)
        .tile(1, "hornet", 0, 1, 0)
        .tile(0, "omega", 0, 0, 3)
        .build();
    let ev = g.fight();
    let p2 = phase(&ev, 2);
    assert_eq!(p2.acting.len(), 2);
    assert_eq!(p2.cancels.len(), 1);
    assert_eq!(g.describe(0, 0), Some(("omega", 0, 3)));
    assert_eq!(kind(&g, 0, 1), None);
    assert_eq!(kind(&g, 0, 2), None);
}

#[test]
fn nsh_t_13_officer_scout_and_main_war_processor() {
    let mut g = ddm_moloch()
        .tile(0, "officer", 0, 2, 0)
        .tile(1, "blocker", 0, 1, 0)
        .tile(0, "delta", 0, 0, 0)
        .tile(0, "scout", -1, 1, 1)
        .tile(0, "mwp", 1, 0, 5)
        .tile(1, "hq", 0, -1, 0)
        .build();
    let ev = g.fight();
    assert_eq!(phase(&ev, 2).hits[0].wounds, 3);
    assert_eq!(phase(&ev, 1).hits[0].wounds, 3);
    assert_eq!(g.hq_hp()[1], 14);
    assert_eq!(dmg(&g, 0, 0), 1);
}

#[test]
fn nsh_t_14_hqs_do_not_wound_hqs_and_moloch_hq_bonus() {
    let mut g = ddm_moloch()
        .tile(0, "hq", 0, 0, 0)
        .tile(1, "hq", 0, -1, 0)
        .tile(1, "hybrid", 1, -1, 4)
        .build();
    let ev = g.fight();
    assert_eq!(phase(&ev, 3).hits[0].wounds, 2);
    assert_eq!(g.hq_hp(), [18, 20]);
    assert_eq!(kind(&g, 1, -1), None);
}

#[test]
fn nsh_t_15_mutual_nets() {
    let mut g = ddm_moloch()
        .tile(0, "dnf", 0, 0, 0)
        .tile(1, "net_fighter", 0, -1, 3)
        .tile(0, "alpha", 1, -1, 0)
        .build();
    let ctx = g.ctx();
    let i = |q, r| citadel_hex::Board19::index(Hex::new(q, r)).expect("on board");
    assert!(ctx.netted[i(0, 0)] && ctx.netted[i(0, -1)]);
    assert!(!ctx.netted[i(1, -1)]);
    let ev = g.fight();
    assert_eq!(kind(&g, 0, -1), None);
    assert!(phase(&ev, 2).netted.is_empty());
    assert_eq!(kind(&g, 1, -1), Some("alpha"));
}

fn t16(combo: InfinityCombo) -> (NeuroshimaGame, Vec<Event>) {
    let mut g = ddm_moloch()
        .options(Options {
            infinity_combo: combo,
            ..Options::default()
        })
        .tile(0, "tripler", 0, 0, 0)
        .tile(0, "fireblast", 0, -1, 2)
        .tile(0, "fireblast", 1, -1, 3)
        .tile(0, "dnf", 1, 0, 5)
        .tile(0, "delta", 0, 1, 0)
        .tile(1, "hq", -2, 0, 0)
        .build();
    let ev = g.fight();
    (g, ev)
}

#[test]
fn nsh_t_16_infinity_combo_capped_loops_and_a_convergence() {
    let (g, ev) = t16(InfinityCombo::Capped);
    let p1 = phase(&ev, 1);
    let trace = &p1.traces[0];
    assert!(trace.combo_capped);
    let hits: Vec<u64> = trace
        .steps
        .iter()
        .filter_map(|s| match s {
            TraceStep::Hit { copies, .. } => Some(*copies),
            _ => None,
        })
        .collect();
    assert_eq!(hits, vec![1, 1, 1]);
    let cuts: Vec<u64> = trace
        .steps
        .iter()
        .filter_map(|s| match s {
            TraceStep::LoopCut { copies, .. } => Some(*copies),
            _ => None,
        })
        .collect();
    // Cuts at ticks 5, 6 and 7 (the merged branch carries 2 copies).
    assert_eq!(cuts, vec![1, 1, 2]);
    // 7 copies in all end the trace: 3 hits and 4 lost.
    let lost: u64 = trace
        .steps
        .iter()
        .filter_map(|s| match s {
            TraceStep::Lost { copies, .. } => Some(*copies),
            _ => None,
        })
        .sum();
    assert_eq!(lost + 3, 7);
    assert_eq!(g.hq_hp()[1], 14);
}

#[test]
fn nsh_t_16_infinity_combo_unbounded_destroys_the_hq() {
    let (g, ev) = t16(InfinityCombo::Unbounded);
    assert!(phase(&ev, 1).traces[0].unbounded);
    assert_eq!(g.hq_hp()[1], 0);
}

#[test]
fn nsh_t_17_initiative_bonus_lost_after_use() {
    let mut g = ddm_moloch()
        .tile(0, "delta", 0, 0, 0)
        .tile(0, "scout", -1, 1, 1)
        .tile(1, "guard", -2, 1, 2)
        .tile(1, "hq", 0, -2, 0)
        .build();
    let ev = g.fight();
    assert_eq!(phase(&ev, 2).hits.len(), 2);
    assert!(phase(&ev, 1).acting.is_empty());
    assert_eq!(g.hq_hp()[1], 18);
    assert_eq!(kind(&g, -1, 1), None);
}

#[test]
fn nsh_t_17b_lowered_slot_fires_later() {
    let mut g = ddm_moloch()
        .tile(0, "delta", 0, 0, 0)
        .tile(0, "scout", -1, 1, 1)
        .tile(1, "hybrid", -2, 1, 2)
        .tile(1, "hq", 0, -2, 0)
        .build();
    let ev = g.fight();
    assert_eq!(phase(&ev, 3).removed.len(), 1);
    assert!(phase(&ev, 2).acting.is_empty());
    assert_eq!(phase(&ev, 1).acting.len(), 1);
    assert_eq!(g.hq_hp()[1], 18);
}

#[test]
fn nsh_t_18_clown_explosion() {
    let mut g = ddm_moloch()
        .tile(1, "clown", 0, 0, 0)
        .tile(0, "omega", 1, 0, 5)
        .tile(0, "hq", 0, 1, 0)
        .tile(1, "hybrid", -1, 0, 0)
        .hand(0, "battle")
        .build();
    let tile = g.state.players[0].hand[0];
    let ev = apply(&mut g, 0, Command::Battle { tile });
    assert!(matches!(ev.last(), Some(Event::Awaiting { seats }) if seats == &vec![1]));
    assert_eq!(g.to_act(), vec![Seat(1)]);
    // The default is not to explode.
    assert_eq!(
        g.timeout_command(Seat(1)),
        Some(Command::Clown { explode: false })
    );
    let ev = apply(&mut g, 1, Command::Clown { explode: true });
    let p2 = phase(&ev, 2);
    assert_eq!(p2.explosions.len(), 1);
    assert_eq!(p2.removed.len(), 3);
    assert_eq!(g.tile_count(), 1);
    assert_eq!(g.hq_hp()[0], 20);
}

fn started(seed: u64) -> NeuroshimaGame {
    let setup = NeuroshimaGame::setup(&Options::default(), &[None, None], seed).expect("setup");
    let mut dice = SeededDice::new(seed);
    let (mut g, _) = NeuroshimaGame::start(&setup, &mut dice).expect("start");
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

#[test]
fn nsh_t_19_draw_counts() {
    let mut g = started(5);
    assert_eq!(g.state.players[0].hand.len(), 1);
    assert_eq!(g.state.stage, Stage::Action);
    apply(&mut g, 0, Command::EndTurn);
    assert_eq!(g.state.players[1].hand.len(), 2);
    assert_eq!(g.state.stage, Stage::Action);
    apply(&mut g, 1, Command::EndTurn);
    assert_eq!(g.state.players[0].hand.len(), 3);
    assert_eq!(g.state.stage, Stage::Discard);
    let legal = g.legal(Seat(0));
    assert!(legal.iter().all(|c| matches!(c, Command::Discard { .. })));
    // Using the turn-1 tile: turn 3 draws 3.
    let mut g = started(5);
    let t = g.state.players[0].hand[0];
    apply(&mut g, 0, Command::Discard { tile: t });
    apply(&mut g, 0, Command::EndTurn);
    apply(&mut g, 1, Command::EndTurn);
    assert_eq!(g.state.players[0].draw.len(), 34 - 4);
    assert_eq!(g.state.stage, Stage::Discard);
}

#[test]
fn nsh_t_20_push_back_geometry() {
    let base = || {
        ddm_moloch()
            .tile(0, "omega", 0, 0, 0)
            .tile(1, "blocker", 0, -1, 2)
            .tile(1, "hybrid", 0, -2, 0)
            .tile(1, "guard", 1, -2, 0)
            .hand(0, "push")
    };
    let mut g = base().damage(0, -1, 1).build();
    let tile = g.state.players[0].hand[0];
    let push = Command::Push {
        tile,
        pusher: Hex::new(0, 0),
        target: Hex::new(0, -1),
    };
    apply(&mut g, 0, push.clone());
    assert_eq!(g.describe(-1, -1), Some(("blocker", 1, 2)));
    let mut g = base().tile(1, "hunter_killer", -1, -1, 0).build();
    let mut dice = SeededDice::new(1);
    assert_eq!(
        g.apply(Seat(0), push.clone(), &mut dice),
        Err(Rejection::NoRoom)
    );
    // A netted target (a DNF of seat 0 nets it? no: nets hit enemies; a
    // Moloch Net Fighter cannot net its own) — net the pusher instead.
    let mut g = base().tile(1, "net_fighter", 1, 0, 5).build();
    assert_eq!(g.apply(Seat(0), push, &mut dice), Err(Rejection::Netted));
}

#[test]
fn nsh_t_20_netted_target_cannot_be_pushed() {
    let mut g = ddm_moloch()
        .tile(0, "omega", 0, 0, 0)
        .tile(1, "blocker", 0, -1, 0)
        .tile(0, "dnf", 1, -1, 5)
        .hand(0, "push")
        .build();
    let tile = g.state.players[0].hand[0];
    let mut dice = SeededDice::new(1);
    let push = Command::Push {
        tile,
        pusher: Hex::new(0, 0),
        target: Hex::new(0, -1),
    };
    assert_eq!(g.apply(Seat(0), push, &mut dice), Err(Rejection::Netted));
}

#[test]
fn nsh_t_21_small_bomb() {
    let build = |medic: bool| {
        let mut s = ddm_moloch()
            .tile(1, "hq", 0, 0, 0)
            .tile(1, "blocker", 1, -1, 0)
            .tile(0, "omega", 1, 0, 0)
            .hand(0, "small_bomb");
        if medic {
            s = s.tile(0, "medic", 1, 1, 0);
        }
        s.build()
    };
    let bomb = |g: &NeuroshimaGame| Command::SmallBomb {
        tile: g.state.players[0].hand[0],
        hexes: [Hex::new(0, 0), Hex::new(1, -1), Hex::new(1, 0)],
    };
    let mut g = build(false);
    let c = bomb(&g);
    apply(&mut g, 0, c);
    assert_eq!(g.hq_hp()[1], 20);
    assert_eq!(dmg(&g, 1, -1), 1);
    assert_eq!(kind(&g, 1, 0), None);
    let mut g = build(true);
    let c = bomb(&g);
    apply(&mut g, 0, c);
    assert_eq!(g.describe(1, 0), Some(("omega", 0, 0)));
    assert_eq!(kind(&g, 1, 1), None, "the used Medic is removed at once");
}

#[test]
fn nsh_t_22_air_strike_centre() {
    let mut s = Scenario::new("moloch", "ddm").hand(0, "air_strike");
    let covered = [(1, 0), (1, -1), (2, -1), (2, 0), (1, 1), (0, 1), (0, 0)];
    let kinds = [
        "omega", "omega", "omega", "omega", "alpha", "alpha", "officer",
    ];
    for ((q, r), k) in covered.into_iter().zip(kinds) {
        s = s.tile(1, k, q, r, 3);
    }
    let mut g = s.tile(1, "mwp", -1, 0, 0).build();
    let tile = g.state.players[0].hand[0];
    let mut dice = SeededDice::new(1);
    assert_eq!(
        g.apply(
            Seat(0),
            Command::AirStrike {
                tile,
                centre: Hex::new(2, -1)
            },
            &mut dice
        ),
        Err(Rejection::NotInner)
    );
    apply(
        &mut g,
        0,
        Command::AirStrike {
            tile,
            centre: Hex::new(1, 0),
        },
    );
    // Every covered tile (1 HP each) took its wound; the tile outside did
    // not.
    for (q, r) in covered {
        assert_eq!(kind(&g, q, r), None, "({q},{r})");
    }
    assert_eq!(dmg(&g, -1, 0), 0);
}

/// Seat 1 about to draw its last tile on the next turn.
fn near_end() -> NeuroshimaGame {
    let mut g = ddm_moloch()
        .tile(0, "hq", 0, 2, 0)
        .tile(1, "hq", 0, -2, 0)
        .hand(1, "battle")
        .build();
    let p = &mut g.state.players[1];
    let keep = p.draw.split_off(p.draw.len() - 1);
    p.discard.append(&mut p.draw);
    p.draw = keep;
    g.state.board[citadel_hex::Board19::index(Hex::new(0, -2)).expect("hex")]
        .as_mut()
        .expect("hq")
        .damage = 3;
    g
}

#[test]
fn nsh_t_23_ending_sequence() {
    let mut g = near_end();
    let ev = end_turn(&mut g, 0);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::EndingBegan { seat: 1 })));
    assert!(!g
        .legal(Seat(1))
        .iter()
        .any(|c| matches!(c, Command::Battle { .. })));
    let tile = g.state.players[1]
        .hand
        .iter()
        .copied()
        .find(|t| g.kind(*t).id == "battle")
        .expect("battle tile");
    let mut dice = SeededDice::new(1);
    assert_eq!(
        g.apply(Seat(1), Command::Battle { tile }, &mut dice),
        Err(Rejection::BattleForbidden)
    );
    end_turn(&mut g, 1);
    assert_eq!(g.state.active, 0, "Y plays one more turn");
    assert!(!g.is_finished());
    let ev = end_turn(&mut g, 0);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::BattleStarted {
            cause: Cause::Last,
            ..
        }
    )));
    let r = g.state.result.expect("over");
    assert_eq!(
        (r.winner, r.reason, r.hq_hp),
        (Some(0), Reason::LastBattle, [20, 17])
    );
}

#[test]
fn nsh_t_24_tie_goes_to_overtime_then_draw() {
    let mut g = near_end();
    for q in [(0, 2), (0, -2)] {
        g.state.board[citadel_hex::Board19::index(Hex::new(q.0, q.1)).expect("hex")]
            .as_mut()
            .expect("hq")
            .damage = 8;
    }
    end_turn(&mut g, 0);
    end_turn(&mut g, 1);
    let ev = end_turn(&mut g, 0);
    assert!(ev.iter().any(|e| matches!(e, Event::Overtime)));
    assert_eq!(g.state.active, 1, "X plays first in overtime");
    assert!(!g
        .legal(Seat(1))
        .iter()
        .any(|c| matches!(c, Command::Battle { .. })));
    end_turn(&mut g, 1);
    assert_eq!(g.state.active, 0);
    let ev = end_turn(&mut g, 0);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::BattleStarted {
            cause: Cause::Overtime,
            ..
        }
    )));
    let r = g.state.result.expect("over");
    assert_eq!(
        (r.winner, r.reason, r.hq_hp),
        (None, Reason::Overtime, [12, 12])
    );
    let o = g.outcome().expect("outcome");
    assert!(o.placings.iter().all(|p| p.place == 1));
}

#[test]
fn nsh_t_25_ddm_rotation() {
    let mut g = ddm_moloch()
        .tile(0, "hq", 0, 0, 0)
        .tile(1, "net_fighter", 0, -1, 3)
        .tile(0, "omega", 2, 0, 0)
        .build();
    let mut dice = SeededDice::new(1);
    let rot = Command::Rotate {
        hex: Hex::new(2, 0),
        rotation: 3,
    };
    assert_eq!(
        g.apply(Seat(0), rot.clone(), &mut dice),
        Err(Rejection::Netted)
    );
    assert!(!g
        .legal(Seat(0))
        .iter()
        .any(|c| matches!(c, Command::Rotate { .. })));
    let i = citadel_hex::Board19::index(Hex::new(0, -1)).expect("hex");
    g.state.board[i] = None;
    apply(&mut g, 0, rot.clone());
    assert_eq!(g.describe(2, 0), Some(("omega", 0, 3)));
    assert_eq!(
        g.apply(Seat(0), rot, &mut dice),
        Err(Rejection::AbilityUsed)
    );
}

#[test]
fn nsh_t_23_full_board_in_the_last_turn_then_the_last_battle() {
    // Seat 0 (Y) fills the board in its last turn: a full-board battle is
    // fought at once, seat 0 finishes the turn, then the Last Battle.
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
    ];
    let hexes: Vec<Hex> = citadel_hex::HEXES
        .iter()
        .copied()
        .filter(|h| *h != Hex::new(2, 0) && *h != Hex::new(-1, -1))
        .collect();
    let mut s = ddm_moloch();
    for (h, k) in hexes.iter().zip(kinds) {
        s = s.tile(0, k, h.q, h.r, 0);
    }
    // A Moloch Hybrid next to the DDM HQ on (-2, 0): the HQ's melee kills it.
    let mut g = s
        .tile(1, "hybrid", -1, -1, 3)
        .damage(-2, 0, 5)
        .hand(0, "trap")
        .build();
    g.state.finale = Some(Finale {
        x: 1,
        step: FinaleStep::YTurn,
    });
    let trap = g.state.players[0].hand[0];
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
    // The Hybrid's shot reaches tiles several Medics cover: the DDM player
    // is asked; take the default.
    while g.state.stage == Stage::Battle {
        let seat = g.to_act()[0];
        let c = g.timeout_command(seat).expect("a default");
        apply(&mut g, seat.0, c);
    }
    assert_eq!((g.state.active, &g.state.stage), (0, &Stage::Action));
    assert!(!g.is_finished());
    let ev = end_turn(&mut g, 0);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::BattleStarted {
            cause: Cause::Last,
            ..
        }
    )));
    let r = g.state.result.expect("over");
    assert_eq!((r.winner, r.reason), (Some(1), Reason::LastBattle));
}
