//! The classic (1993) mission records (missions.md "Classic (1993)
//! missions"): MSN-T5, MSN-T1-style validation on the classic tiles, and
//! the classic directives (FIGURE, POOL, token DV/PP, `then`, credit
//! rewards, ROUNDS 0). Every test names the rule it covers.

use citadel_rules::content::board::build_board;
use citadel_rules::content::missions::{
    parse_missions, CreditRewards, EntranceRef, Goal, MissionDef, StartMode, TokenKind,
};
use citadel_rules::content::tiles::{parse_tiles, TileDef};
use citadel_rules::content::{Content, CreatureKind, Edition};
use citadel_rules::geometry::Square;

const CLASSIC_TILES: &str = include_str!("../data/tiles/classic.tiles");
const CLASSIC_MISSIONS: &str = include_str!("../data/missions/classic.missions");

fn classic_tiles() -> Vec<TileDef> {
    parse_tiles("tiles/classic.tiles", CLASSIC_TILES).expect("classic tiles parse")
}

fn missions() -> Vec<MissionDef> {
    parse_missions("missions/classic.missions", CLASSIC_MISSIONS)
        .unwrap_or_else(|e| panic!("classic missions parse: {e}"))
}

fn mission(id: &str) -> MissionDef {
    missions()
        .into_iter()
        .find(|m| m.id == id)
        .expect("mission present")
}

fn sq(x: i32, y: i32) -> Square {
    Square::new(x, y)
}

/// Parse one record built from the M3 record with `find` replaced.
fn variant(find: &str, replace: &str) -> Result<Vec<MissionDef>, String> {
    let start = CLASSIC_MISSIONS.find("MISSION classic-m3").expect("m3");
    let end = start + CLASSIC_MISSIONS[start..].find("\nEND\n").expect("END") + 5;
    let record = &CLASSIC_MISSIONS[start..end];
    assert!(record.contains(find), "{find}");
    parse_missions("x.missions", &record.replacen(find, replace, 1)).map_err(|e| e.to_string())
}

#[test]
fn classic_eleven_records_in_order() {
    let ids: Vec<String> = missions().into_iter().map(|m| m.id).collect();
    let mut want = vec!["classic-training".to_string()];
    want.extend((1..=10).map(|n| format!("classic-m{n}")));
    assert_eq!(ids, want);
    for m in missions() {
        assert_eq!(m.edition, Edition::Classic, "{}", m.id);
        assert_eq!(m.start, StartMode::Entrance, "{}", m.id);
        assert!(
            m.layout.cells.iter().all(|c| c.rotation == 0),
            "{}: no rotation",
            m.id
        );
    }
    // They are part of the embedded content, after the CE records.
    let c = Content::embedded().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.missions.len(), 21);
    assert!(c.mission("classic-m10").is_some());
}

/// id, rounds, force cards, credits DT / DL, secondary.
type Row = (&'static str, u32, &'static [u32], (u8, u8), bool);

#[test]
fn classic_table_rounds_events_force_and_rewards() {
    let want: [Row; 11] = [
        ("classic-training", 0, &[1, 2, 4, 5, 7], (0, 0), false),
        ("classic-m1", 4, &[1, 2, 3, 4, 5, 7], (1, 2), true),
        ("classic-m2", 7, &[3, 4, 5, 6, 7], (1, 1), true),
        ("classic-m3", 8, &[1, 2, 4, 5, 7], (2, 2), true),
        ("classic-m4", 8, &[1, 2, 4, 5, 7, 8, 9, 12], (2, 2), true),
        ("classic-m5", 6, &[1, 2, 4, 5, 8, 9], (3, 2), true),
        ("classic-m6", 6, &[4, 7, 8, 9, 12], (1, 3), true),
        ("classic-m7", 6, &[1, 2, 4, 6, 8, 9], (3, 2), true),
        ("classic-m8", 5, &[1, 4, 6, 7, 8, 9, 12], (3, 1), true),
        ("classic-m9", 9, &[1, 2, 4, 5, 7, 8, 9], (3, 2), true),
        ("classic-m10", 8, &[1, 2, 4, 7, 8, 9, 12], (2, 2), true),
    ];
    for (id, rounds, force, (dt, dl), secondary) in want {
        let m = mission(id);
        assert_eq!(m.rounds, rounds, "{id}");
        assert_eq!(m.unlimited_rounds(), rounds == 0, "{id}");
        assert_eq!(m.force_cards, force, "{id}");
        assert_eq!(m.rewards.credits, Some(CreditRewards { dt, dl }), "{id}");
        assert_eq!(
            (m.rewards.success, m.rewards.failure, m.rewards.commander),
            (0, 0, 0),
            "{id}: classic rewards are credits, not PP"
        );
        assert_eq!(m.secondary, secondary, "{id}");
        let events: Vec<u32> = if id == "classic-training" {
            Vec::new()
        } else {
            (1..=13).collect()
        };
        assert_eq!(m.events, events, "{id}: CEV-1");
        assert_eq!(m.ends_early, id != "classic-m6", "{id}");
    }
}

#[test]
fn classic_goals_follow_the_table() {
    let exited = |count, exits: &[&str]| Goal::Exited {
        count,
        exits: exits.iter().map(|e| e.to_string()).collect(),
    };
    assert_eq!(mission("classic-training").goal, Goal::AllDlEliminated);
    assert_eq!(
        mission("classic-m1").goal,
        Goal::Then {
            first: Box::new(Goal::PpEarned(20)),
            next: Box::new(exited(1, &["1W", "4W"])),
        }
    );
    assert_eq!(mission("classic-m2").goal, exited(1, &["3E"]));
    assert_eq!(mission("classic-m3").goal, Goal::Eliminated("boss".into()));
    assert_eq!(mission("classic-m4").goal, Goal::AllDlEliminated);
    assert_eq!(
        mission("classic-m5").goal,
        Goal::Destroyed(vec!["battle_computer".into()])
    );
    assert_eq!(mission("classic-m6").goal, Goal::Alive(1));
    assert_eq!(mission("classic-m7").goal, exited(2, &["8E"]));
    assert_eq!(
        mission("classic-m8").goal,
        Goal::Destroyed(vec!["doorway_1".into(), "doorway_2".into()])
    );
    assert_eq!(mission("classic-m9").goal, Goal::Eliminated("boss".into()));
    assert_eq!(
        mission("classic-m10").goal,
        Goal::Eliminated("alakhai".into())
    );
}

#[test]
fn classic_figures_pools_and_terrain_targets() {
    let figures = |id: &str| {
        mission(id)
            .figures
            .iter()
            .map(|f| (f.kind, f.square, f.tag.clone(), f.actions))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        figures("classic-m2"),
        vec![(CreatureKind::Ezoghoul, sq(9, 7), "hunter".into(), None)]
    );
    assert_eq!(
        figures("classic-m3"),
        vec![(CreatureKind::Centurion, sq(18, 3), "boss".into(), None)]
    );
    assert_eq!(
        figures("classic-m9"),
        vec![(CreatureKind::Ezoghoul, sq(18, 19), "boss".into(), None)]
    );
    assert_eq!(
        figures("classic-m10"),
        vec![(
            CreatureKind::Nepharite,
            sq(12, 11),
            "alakhai".into(),
            Some(4)
        )]
    );
    let m3 = mission("classic-m3");
    assert_eq!(m3.pool, vec![(CreatureKind::Centurion, 0)]);
    assert_eq!(m3.pool_size(CreatureKind::Centurion, 3), 1, "Ghash only");
    assert_eq!(m3.pool_size(CreatureKind::Legionnaire, 12), 12);
    assert_eq!(
        mission("classic-m2").pool_size(CreatureKind::Ezoghoul, 1),
        1
    );
    assert_eq!(
        mission("classic-m10")
            .figure_with_tag("alakhai")
            .map(|f| f.actions),
        Some(Some(4))
    );
    let targets = |id: &str| {
        mission(id)
            .tokens
            .iter()
            .map(|t| (t.kind, t.square, t.name.clone(), t.dv, t.pp))
            .collect::<Vec<_>>()
    };
    let obj = TokenKind::Objective;
    assert_eq!(
        targets("classic-m5"),
        vec![(
            obj,
            sq(19, 11),
            Some("battle_computer".into()),
            Some(2),
            Some(4)
        )]
    );
    assert_eq!(
        targets("classic-m8"),
        vec![
            (obj, sq(17, 3), Some("doorway_1".into()), Some(3), Some(4)),
            (obj, sq(12, 11), Some("doorway_2".into()), Some(3), Some(4)),
        ]
    );
}

/// MSN-T5: every CITADEL point touches at least 3 placed tiles, and for
/// missions 1, 3, 8 and 10 every Citadel gate square is on-board.
#[test]
fn msn_t5_citadel_points_and_gates() {
    let tiles = classic_tiles();
    let with_citadel: Vec<MissionDef> = missions()
        .into_iter()
        .filter(|m| m.citadel.is_some())
        .collect();
    let ids: Vec<&str> = with_citadel.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "classic-training",
            "classic-m1",
            "classic-m3",
            "classic-m8",
            "classic-m10"
        ]
    );
    for m in &with_citadel {
        let c = m.citadel.expect("citadel");
        assert!(c.x % 8 == 0 && c.y % 8 == 0, "{} MAP-18", m.id);
        let b = build_board(&m.layout, &tiles, m.citadel).expect("board");
        // The four slots around the point: tiles whose origin is one of them.
        let touching = b
            .tiles
            .iter()
            .filter(|t| {
                [
                    (c.x - 8, c.y - 8),
                    (c.x, c.y - 8),
                    (c.x - 8, c.y),
                    (c.x, c.y),
                ]
                .contains(&(t.origin.x, t.origin.y))
            })
            .count();
        assert!(
            touching >= 3,
            "{}: the Citadel touches {touching} tiles",
            m.id
        );
        let gates = MissionDef::resolve_entrance(&b, m.citadel, "CITADEL", &EntranceRef::Citadel)
            .expect("gates");
        if m.id != "classic-training" {
            assert_eq!(
                gates.squares.len(),
                16,
                "{}: every gate square on-board",
                m.id
            );
        }
        for s in &gates.squares {
            assert!(b.on_board(*s) && b.passable(*s), "{} gate {s}", m.id);
        }
    }
}

/// MSN-T1 for classic: entrances on open board edges (MAP-16; the Citadel
/// gates per MAP-21), tokens and FIGURE squares passable, the board
/// connected with blocking tokens impassable (MAP-17).
#[test]
fn msn_t1_every_classic_mission_validates() {
    let tiles = classic_tiles();
    for m in missions() {
        let b = m.validate(&tiles).unwrap_or_else(|e| panic!("{e}"));
        for e in m.entrances(&b).expect("entrances") {
            if e.outside.is_empty() {
                continue; // Citadel gates
            }
            assert_eq!(e.squares.len(), 2, "{} {}", m.id, e.id);
            for (s, out) in &e.outside {
                assert!(b.passable(*s) && !b.on_board(*out), "{} {}", m.id, e.id);
            }
        }
        for t in &m.tokens {
            assert!(b.passable(t.square), "{} token {}", m.id, t.square);
        }
        for f in &m.figures {
            assert!(b.passable(f.square), "{} figure {}", m.id, f.square);
        }
    }
}

#[test]
fn figure_directive_errors_name_the_line() {
    let e = variant("TAG=boss", "ACTIONS=2").expect_err("no tag");
    assert!(e.contains("TAG=<tag> is required"), "{e}");
    let e = variant("FIGURE centurion", "FIGURE goblin").expect_err("goblin");
    assert!(e.contains("unknown creature `goblin`"), "{e}");
    let e = variant("TAG=boss", "TAG=boss ACTIONS=0").expect_err("0 actions");
    assert!(e.contains("at least 1"), "{e}");
    let e = variant("POOL centurion=0", "POOL centurion=0 centurion=1").expect_err("twice");
    assert!(e.contains("listed twice"), "{e}");
    assert!(e.starts_with("x.missions:"), "{e}");
}

#[test]
fn token_dv_pp_and_credit_rewards_errors() {
    let e = variant(
        "POOL centurion=0",
        "POOL centurion=0\nTOKEN objective 3:5,5 DV=2 PP=4",
    )
    .expect_err("unnamed");
    assert!(e.contains("needs NAME="), "{e}");
    let e = variant(
        "POOL centurion=0",
        "POOL centurion=0\nTOKEN objective 3:5,5 NAME=x DV=2",
    )
    .expect_err("DV alone");
    assert!(e.contains("go together"), "{e}");
    let e = variant("credits=2 dl_credits=2", "credits=2").expect_err("no dl");
    assert!(e.contains("dl_credits= missing"), "{e}");
    let e =
        variant("credits=2 dl_credits=2", "credits=2 dl_credits=2 success=4").expect_err("mixed");
    assert!(e.contains("replace"), "{e}");
}

#[test]
fn then_goal_checks_both_parts() {
    let e = variant(
        "GOAL eliminated(boss)",
        "GOAL then(pp_earned(5), exited(1, [9N]))",
    )
    .expect_err("unknown exit");
    assert!(e.contains("exit `9N`"), "{e}");
    let e = variant("GOAL eliminated(boss)", "GOAL then(pp_earned(5))").expect_err("arity");
    assert!(e.contains("then("), "{e}");
    let ok = variant(
        "GOAL eliminated(boss)",
        "GOAL then(pp_earned(5), exited(1, [4W]))",
    )
    .expect("valid");
    assert!(matches!(ok[0].goal, Goal::Then { .. }));
}

/// The embedded content with the classic missions file changed.
fn content_with_classic_missions(
    text: &str,
) -> Result<Content, citadel_rules::content::ContentError> {
    let files: Vec<(&str, &str)> = Content::embedded_files()
        .iter()
        .map(|&(n, t)| {
            if n == "missions/classic.missions" {
                (n, text)
            } else {
                (n, t)
            }
        })
        .collect();
    Content::from_files(&files)
}

#[test]
fn dl_1_figure_lines_are_checked_against_the_classic_pool() {
    // Classic has no Praetorian Stalker (CDL-3).
    let text = CLASSIC_MISSIONS.replace(
        "FIGURE ezoghoul 8:1,7 TAG=hunter",
        "FIGURE praetorian_stalker 8:1,7 TAG=hunter",
    );
    let e = content_with_classic_missions(&text).expect_err("stalker");
    assert_eq!(e.file, "missions/classic.missions");
    assert!(
        e.message.contains("no creature `praetorian_stalker`"),
        "{e}"
    );
    let m2 = CLASSIC_MISSIONS
        .lines()
        .position(|l| l.starts_with("MISSION classic-m2"))
        .expect("m2")
        + 1;
    assert_eq!(e.line, m2, "{e}");
    // A second Ezoghoul: the pool holds one.
    let text = CLASSIC_MISSIONS.replace(
        "FIGURE ezoghoul 8:1,7 TAG=hunter",
        "FIGURE ezoghoul 8:1,7 TAG=hunter\nFIGURE ezoghoul 8:2,7 TAG=hunter2",
    );
    let e = content_with_classic_missions(&text).expect_err("two Ezoghouls");
    assert!(e.message.contains("pool holds 1"), "{e}");
    // ... unless POOL makes room.
    let text = CLASSIC_MISSIONS.replace(
        "FIGURE ezoghoul 8:1,7 TAG=hunter",
        "FIGURE ezoghoul 8:1,7 TAG=hunter\nFIGURE ezoghoul 8:2,7 TAG=hunter2\nPOOL ezoghoul=0",
    );
    assert!(content_with_classic_missions(&text).is_ok());
    // Mission ids are unique across the two files.
    let text = CLASSIC_MISSIONS.replace("MISSION classic-m4 ", "MISSION ce-c1m1 ");
    let e = content_with_classic_missions(&text).expect_err("duplicate id");
    assert!(e.message.contains("`ce-c1m1` is already used"), "{e}");
}
