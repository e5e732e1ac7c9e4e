//! Loader tests for tiles, layouts and missions (maps.md MAP-T1..T4,
//! MAP-8, MAP-16; missions.md MSN-T1, MSN-T2, MSN-T6). Every test names
//! the rule it covers.

use citadel_rules::content::board::build_board;
use citadel_rules::content::layout::Layout;
use citadel_rules::content::missions::{
    parse_missions, EntranceRef, Goal, MissionDef, StartMode, TokenKind,
};
use citadel_rules::content::tiles::{parse_tiles, TileDef};
use citadel_rules::geometry::{line_of_sight, Edge, Side, Square, StepMap, Walls};

const CE_TILES: &str = include_str!("../data/tiles/ce.tiles");
const CLASSIC_TILES: &str = include_str!("../data/tiles/classic.tiles");
const CE_MISSIONS: &str = include_str!("../data/missions/ce.missions");

fn ce_tiles() -> Vec<TileDef> {
    parse_tiles("tiles/ce.tiles", CE_TILES).expect("CE tiles parse")
}

fn classic_tiles() -> Vec<TileDef> {
    parse_tiles("tiles/classic.tiles", CLASSIC_TILES).expect("classic tiles parse")
}

fn missions() -> Vec<MissionDef> {
    parse_missions("missions/ce.missions", CE_MISSIONS).expect("CE missions parse")
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

// ---------------------------------------------------------------- tiles

#[test]
fn map_t1_ce_tiles_render_identically() {
    let tiles = ce_tiles();
    assert_eq!(
        tiles.iter().map(|t| t.id).collect::<Vec<_>>(),
        (1..=16).collect::<Vec<_>>()
    );
    for t in &tiles {
        assert_eq!(t.drawing.len(), 17, "tile {} drawing lines", t.id);
        assert_eq!(t.render(), t.drawing, "tile {} drawing", t.id);
    }
}

#[test]
fn map_t1_classic_edge_counts() {
    let tiles = classic_tiles();
    assert_eq!(tiles.len(), 9);
    let count = |id: u32| tiles.iter().find(|t| t.id == id).map(|t| t.walls.len());
    assert_eq!(count(2), Some(37));
    assert_eq!(count(6), Some(50));
    // Tile 9 is identical to tile 1 (maps.md section 5).
    assert_eq!(tiles[0].walls, tiles[8].walls);
}

#[test]
fn map_t2_rotation_four_turns_is_identity() {
    for t in ce_tiles().iter().chain(classic_tiles().iter()) {
        let r = t.rotated(4);
        assert_eq!(r.walls, t.walls, "tile {}", t.id);
        assert_eq!(r.grid, t.grid, "tile {}", t.id);
        let r4 = t.rotated(1).rotated(1).rotated(1).rotated(1);
        assert_eq!(r4.walls, t.walls);
        assert_eq!(r4.grid, t.grid);
    }
}

#[test]
fn map_t2_rotation_maps_walls_between_rotated_squares() {
    let rot = |s: Square| sq(7 - s.y, s.x);
    for t in ce_tiles() {
        let r = t.rotated(1);
        assert_eq!(r.walls.len(), t.walls.len());
        for e in &t.walls {
            let (a, b) = e.squares();
            let re = Edge::between(rot(a), rot(b)).expect("neighbours stay neighbours");
            assert!(r.walls.contains(&re), "tile {} edge {e} -> {re}", t.id);
        }
        for y in 0..8 {
            for x in 0..8 {
                let n = rot(sq(x, y));
                assert_eq!(
                    r.grid[n.y as usize][n.x as usize],
                    t.grid[y as usize][x as usize]
                );
            }
        }
    }
}

#[test]
fn map_12_rotation_formulas() {
    let t = ce_tiles()
        .into_iter()
        .find(|t| t.id == 13)
        .expect("tile 13");
    let mut one = t.clone();
    one.walls = [Edge::V { x: 2, y: 5 }, Edge::H { x: 1, y: 6 }]
        .into_iter()
        .collect();
    let r = one.rotated(1);
    assert!(r.walls.contains(&Edge::H { x: 2, y: 2 })); // V,i,j -> H,7-j,i
    assert!(r.walls.contains(&Edge::V { x: 2, y: 1 })); // H,i,j -> V,8-j,i
                                                        // GRID: `#` at (1,1) goes to (6,1).
    assert_eq!(t.grid[1][1], '#');
    assert_eq!(t.rotated(1).grid[1][6], '#');
}

#[test]
fn map_t4_classic_tile_1_openings() {
    let t1 = classic_tiles()
        .into_iter()
        .find(|t| t.id == 1)
        .expect("tile 1");
    for e in [
        Edge::V { x: 0, y: 3 },
        Edge::V { x: 0, y: 4 },
        Edge::H { x: 3, y: 0 },
        Edge::H { x: 4, y: 0 },
    ] {
        assert!(!t1.walls.contains(&e), "{e} must be open");
    }
    assert!(t1.walls.contains(&Edge::V { x: 0, y: 2 }));
}

#[test]
fn map_7_stairs_tiles_are_8_and_16_only() {
    let stairs: Vec<u32> = ce_tiles()
        .iter()
        .filter(|t| t.is_stairs())
        .map(|t| t.id)
        .collect();
    assert_eq!(stairs, vec![8, 16]);
    assert!(classic_tiles().iter().all(|t| !t.is_stairs()));
}

#[test]
fn map_9_edge_runs_expand_and_merge() {
    let text = "TILE 1 \"x\" EDITION=ce SOURCE=authored\nWALLS H,0-2,0 H,1,0 V,8,5-7\nEND\n";
    let t = &parse_tiles("t", text).expect("parses")[0];
    assert_eq!(t.walls.len(), 6);
    assert!(t.grid.iter().flatten().all(|&c| c == '.')); // MAP-5
}

#[test]
fn map_2_broken_tile_file_reports_line() {
    let cases = [
        // Bad GRID character on line 5.
        (
            "; header\nTILE 1 \"x\" EDITION=ce SOURCE=authored\nGRID\n........\n...X....\n........\n........\n........\n........\n........\n........\nEND\n",
            5,
        ),
        // Edge out of range (MAP-9) on line 3.
        (
            "TILE 1 \"x\" EDITION=ce SOURCE=authored\nWALLS H,0,0\nWALLS V,9,0\nEND\n",
            3,
        ),
        // Unknown keyword on line 2.
        ("TILE 1 \"x\" EDITION=ce SOURCE=authored\nWALL H,0,0\nEND\n", 2),
        // Missing END: reported at the TILE line.
        ("\n\nTILE 2 \"x\" EDITION=ce SOURCE=authored\nWALLS H,0,0\n", 3),
        // Short GRID row on line 4.
        ("TILE 1 \"x\" EDITION=ce SOURCE=authored\nGRID\n........\n.......\n", 4),
        // Duplicate id on line 3.
        (
            "TILE 1 \"x\" EDITION=ce SOURCE=authored\nEND\nTILE 1 \"y\" EDITION=ce SOURCE=authored\nEND\n",
            3,
        ),
        // Classic id out of range on line 1.
        ("TILE 10 \"x\" EDITION=classic SOURCE=traced\nEND\n", 1),
    ];
    for (text, line) in cases {
        let e = parse_tiles("tiles/bad.tiles", text).expect_err("must fail");
        assert_eq!(e.file, "tiles/bad.tiles");
        assert_eq!(e.line, line, "{e}");
    }
}

// ---------------------------------------------------------------- layouts

#[test]
fn map_8_rejects_both_faces_of_one_board() {
    let tiles = ce_tiles();
    for text in ["4 12", "8 / 16", "1 2 9"] {
        let layout = Layout::parse(text).expect("layout");
        let e = build_board(&layout, &tiles, None).expect_err(text);
        assert!(e.contains("MAP-8"), "{e}");
    }
    // k and k+1 or k+7 are fine.
    let layout = Layout::parse("4 11 13").expect("layout");
    assert!(build_board(&layout, &tiles, None).is_ok());
    // Classic has no two-faced boards: 1 and 9 together are allowed.
    let layout = Layout::parse("1 9").expect("layout");
    assert!(build_board(&layout, &classic_tiles(), None).is_ok());
    // Unknown tile ids are rejected too.
    let layout = Layout::parse("17").expect("layout");
    assert!(build_board(&layout, &tiles, None).is_err());
}

#[test]
fn map_11_13_c1m1_placement_worked_example() {
    let m = mission("ce-c1m1");
    let b = m.board(&ce_tiles()).expect("board");
    assert_eq!((b.width(), b.height()), (24, 16));
    let origins: Vec<(u32, Square)> = b.tiles.iter().map(|t| (t.id, t.origin)).collect();
    assert_eq!(
        origins,
        vec![
            (15, sq(0, 0)),
            (2, sq(8, 0)),
            (14, sq(16, 0)),
            (12, sq(8, 8))
        ]
    );
    assert!(!b.on_board(sq(0, 8)));
    assert!(!b.on_board(sq(16, 8)));
    // The shared border of tiles 2 and 12 (MAP-13).
    for x in [8, 9, 10, 13, 14, 15] {
        assert!(b.is_wall(Edge::H { x, y: 8 }), "H,{x},8");
    }
    assert!(!b.is_wall(Edge::H { x: 11, y: 8 }));
    assert!(!b.is_wall(Edge::H { x: 12, y: 8 }));
    // Desks (MAP-15).
    assert_eq!(b.cell(sq(10, 11)).map(|c| c.glyph), Some('d'));
    assert_eq!(b.cell(sq(13, 12)).map(|c| c.glyph), Some('d'));
    assert_eq!(
        m.tokens.iter().map(|t| t.square).collect::<Vec<_>>(),
        vec![sq(10, 11), sq(13, 12)]
    );
}

#[test]
fn map_12_rotated_placement_moves_printed_squares() {
    // C2M2 places tile 2 at r90 in slot (1,1): its `#` at local (0,0) moves
    // to local (7,0), global (15,8).
    let m = mission("ce-c2m2");
    let b = m.board(&ce_tiles()).expect("board");
    assert!(!b.passable(sq(15, 8)));
    assert!(b.passable(sq(8, 8)));
    assert!(!b.passable(sq(8, 15)));
}

// ---------------------------------------------------------------- entrances

#[test]
fn map_16_entry_squares_and_outside() {
    let m = mission("ce-c1m1");
    let b = m.board(&ce_tiles()).expect("board");
    let e = MissionDef::resolve_entrance(
        &b,
        None,
        "15W",
        &EntranceRef::TileSide {
            tile: 15,
            side: Side::W,
        },
    )
    .expect("15W valid");
    assert_eq!(e.squares, vec![sq(0, 3), sq(0, 4)]);
    assert_eq!(
        e.outside,
        vec![(sq(0, 3), sq(-1, 3)), (sq(0, 4), sq(-1, 4))]
    );
    let e = MissionDef::resolve_entrance(
        &b,
        None,
        "14E",
        &EntranceRef::TileSide {
            tile: 14,
            side: Side::E,
        },
    )
    .expect("14E valid");
    assert_eq!(e.squares, vec![sq(23, 3), sq(23, 4)]);
    assert_eq!(e.outside[0].1, sq(24, 3));
    let e = MissionDef::resolve_entrance(
        &b,
        None,
        "14N",
        &EntranceRef::TileSide {
            tile: 14,
            side: Side::N,
        },
    )
    .expect("14N valid");
    assert_eq!(e.squares, vec![sq(19, 0), sq(20, 0)]);
    // Explicit squares.
    let e = MissionDef::resolve_entrance(
        &b,
        None,
        "west",
        &EntranceRef::Squares(vec![sq(0, 4), sq(0, 3)]),
    )
    .expect("squares valid");
    assert_eq!(e.squares, vec![sq(0, 3), sq(0, 4)]);
}

#[test]
fn map_16_rejects_interior_borders_walls_and_interior_squares() {
    let m = mission("ce-c1m1");
    let b = m.board(&ce_tiles()).expect("board");
    // 2S lies on the border with tile 12.
    assert!(MissionDef::resolve_entrance(
        &b,
        None,
        "2S",
        &EntranceRef::TileSide {
            tile: 2,
            side: Side::S
        }
    )
    .is_err());
    // 15E lies on the border with tile 2.
    assert!(MissionDef::resolve_entrance(
        &b,
        None,
        "15E",
        &EntranceRef::TileSide {
            tile: 15,
            side: Side::E
        }
    )
    .is_err());
    // A tile not on the board.
    assert!(MissionDef::resolve_entrance(
        &b,
        None,
        "9N",
        &EntranceRef::TileSide {
            tile: 9,
            side: Side::N
        }
    )
    .is_err());
    // An interior square.
    assert!(
        MissionDef::resolve_entrance(&b, None, "x", &EntranceRef::Squares(vec![sq(5, 5)])).is_err()
    );
    // The Citadel needs a Citadel point.
    assert!(MissionDef::resolve_entrance(&b, None, "CITADEL", &EntranceRef::Citadel).is_err());
    // Classic tile 7's west border is a wall.
    let layout = Layout::parse("7").expect("layout");
    let b = build_board(&layout, &classic_tiles(), None).expect("board");
    let e = MissionDef::resolve_entrance(
        &b,
        None,
        "7W",
        &EntranceRef::TileSide {
            tile: 7,
            side: Side::W,
        },
    )
    .expect_err("wall");
    assert!(e.contains("wall"), "{e}");
}

#[test]
fn map_21_citadel_gates_as_entrance() {
    // Classic mission 1: every gate square on-board (16).
    let layout = Layout::parse("1 2 5 / 4 3 6").expect("layout");
    let b = build_board(&layout, &classic_tiles(), Some(sq(8, 8))).expect("board");
    let e = MissionDef::resolve_entrance(&b, Some(sq(8, 8)), "CITADEL", &EntranceRef::Citadel)
        .expect("gates");
    assert_eq!(e.squares.len(), 16);
    assert!(e.squares.contains(&sq(7, 4)) && e.squares.contains(&sq(8, 3)));
    assert!(e.squares.contains(&sq(3, 7)) && e.squares.contains(&sq(12, 8)));
    assert!(e.outside.is_empty());
    // Training mission `1 2 -- / 4 5 3` at (16,8): the north-east quarter is
    // off-board, so its gate squares are dropped.
    let layout = Layout::parse("1 2 -- / 4 5 3").expect("layout");
    let b = build_board(&layout, &classic_tiles(), Some(sq(16, 8))).expect("board");
    let e = MissionDef::resolve_entrance(&b, Some(sq(16, 8)), "CITADEL", &EntranceRef::Citadel)
        .expect("gates");
    assert_eq!(e.squares.len(), 12);
    assert!(e.squares.iter().all(|s| b.on_board(*s)));
}

// ---------------------------------------------------------------- missions

#[test]
fn map_t3_msn_t1_every_ce_mission_validates() {
    let tiles = ce_tiles();
    let ms = missions();
    let ids: Vec<&str> = ms.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "ce-c1m1", "ce-c1m2", "ce-c1m3", "ce-c1m4", "ce-c1m5", "ce-c2m1", "ce-c2m2", "ce-c2m3",
            "ce-c2m4", "ce-c2m5"
        ]
    );
    for m in &ms {
        // MAP-8 (inside build), MAP-16, tokens, doors, MAP-17.
        let b = m.validate(&tiles).unwrap_or_else(|e| panic!("{e}"));
        for e in m.entrances(&b).expect("entrances") {
            assert_eq!(e.squares.len(), 2, "{} {}", m.id, e.id);
            for (s, out) in &e.outside {
                assert!(b.passable(*s) && !b.on_board(*out));
            }
        }
        for t in &m.tokens {
            assert!(b.passable(t.square), "{} token {}", m.id, t.square);
        }
        let mut ids: Vec<u32> = b.tiles.iter().map(|t| t.id).collect();
        ids.sort_unstable();
        assert!(
            !ids.iter().any(|k| ids.contains(&(k + 8))),
            "{} MAP-8",
            m.id
        );
    }
}

#[test]
fn map_17_blocking_token_that_cuts_the_board_is_rejected() {
    // C1M5, tile 5 at (0,0): the cell (0,0)-(0,1) opens only onto (0,2)
    // and, diagonally, (1,2). Debris on both cuts it off.
    let text = CE_MISSIONS.replace(
        "TOKEN objective 5:3,3 NAME=throne\n",
        "TOKEN objective 5:3,3 NAME=throne\nTOKEN debris (0,2)\nTOKEN debris (1,2)\n",
    );
    let ms = parse_missions("m", &text).expect("parses");
    let m = ms.iter().find(|m| m.id == "ce-c1m5").expect("c1m5");
    let e = m.validate(&ce_tiles()).expect_err("disconnected");
    assert!(e.contains("MAP-17"), "{e}");
    // One debris token leaves the diagonal route open.
    let text = CE_MISSIONS.replace(
        "TOKEN objective 5:3,3 NAME=throne\n",
        "TOKEN objective 5:3,3 NAME=throne\nTOKEN debris (0,2)\n",
    );
    let ms = parse_missions("m", &text).expect("parses");
    let m = ms.iter().find(|m| m.id == "ce-c1m5").expect("c1m5");
    assert!(m.validate(&ce_tiles()).is_ok());
    // A token on an impassable square is rejected (C1M1: `#` at (8,0)).
    let text = CE_MISSIONS.replace(
        "TOKEN desk 12:2,3\n",
        "TOKEN desk 12:2,3\nTOKEN debris 2:0,0\n",
    );
    let ms = parse_missions("m", &text).expect("parses");
    let m = ms.iter().find(|m| m.id == "ce-c1m1").expect("c1m1");
    assert!(m.validate(&ce_tiles()).is_err());
}

#[test]
fn msn_1_door_groups_must_be_valid() {
    let tiles = ce_tiles();
    for bad in [
        "DOORS H,10,8 H,11,8", // H,10,8 is a wall
        "DOORS H,11,8 H,13,8", // not contiguous (and H,13,8 is a wall)
        "DOORS H,11,8 V,11,8", // two lines
        "DOORS H,3,0",         // the board edge: one side off-board
    ] {
        let text = CE_MISSIONS.replace("DOORS H,11,8 H,12,8", bad);
        let ms = parse_missions("m", &text).expect("parses");
        let m = ms.iter().find(|m| m.id == "ce-c1m1").expect("c1m1");
        assert!(m.validate(&tiles).is_err(), "{bad}");
    }
}

#[test]
fn msn_t2_force_card_pools() {
    let ms = missions();
    let pool = |id: &str| {
        ms.iter()
            .find(|m| m.id == id)
            .map(|m| m.force_cards.clone())
    };
    let run = |a: u32, b: u32| (a..=b).collect::<Vec<u32>>();
    let cat = |parts: &[Vec<u32>]| parts.concat();
    let base = cat(&[run(1, 32), run(37, 44)]);
    let short = cat(&[run(1, 31), run(37, 44)]);
    assert_eq!(pool("ce-c1m1").map(|p| p.len()), Some(40));
    assert_eq!(pool("ce-c1m4").map(|p| p.len()), Some(42));
    assert_eq!(pool("ce-c1m1"), Some(base.clone()));
    assert_eq!(pool("ce-c1m2"), Some(base.clone()));
    assert_eq!(pool("ce-c1m3"), Some(base.clone()));
    assert_eq!(
        pool("ce-c1m4"),
        Some(cat(&[run(1, 32), vec![34, 36], run(37, 44)]))
    );
    assert_eq!(pool("ce-c1m5"), Some(short.clone()));
    assert_eq!(pool("ce-c2m1"), Some(short.clone()));
    assert_eq!(pool("ce-c2m2"), Some(short));
    assert_eq!(pool("ce-c2m3"), Some(base.clone()));
    assert_eq!(pool("ce-c2m4"), Some(base));
    assert_eq!(
        pool("ce-c2m5"),
        Some(cat(&[run(1, 33), vec![36], run(37, 44)]))
    );
}

#[test]
fn msn_1_c1m1_record_fields() {
    let m = mission("ce-c1m1");
    assert_eq!(m.name, "Battle Plans");
    assert_eq!(m.rounds, 5);
    assert_eq!(m.events, (1..=12).collect::<Vec<_>>());
    assert_eq!(m.start, StartMode::Entrance);
    assert_eq!(
        m.white
            .iter()
            .map(|(id, _)| id.as_str())
            .collect::<Vec<_>>(),
        ["15N", "14N"]
    );
    assert_eq!(
        m.red.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(),
        ["15W", "14E"]
    );
    assert_eq!(
        m.doors,
        vec![vec![Edge::H { x: 11, y: 8 }, Edge::H { x: 12, y: 8 }]]
    );
    assert!(m.tokens.iter().all(|t| t.kind == TokenKind::Desk));
    assert_eq!(m.special_actions.len(), 1);
    assert_eq!(m.special_actions[0].adjacent_to, TokenKind::Desk);
    assert_eq!(
        m.goal,
        Goal::SpecialDone {
            action: "photograph".into(),
            times: 1
        }
    );
    assert!(m.ends_early);
    assert!(!m.secondary);
    assert_eq!(
        (m.rewards.success, m.rewards.failure, m.rewards.commander),
        (4, 4, -2)
    );
}

#[test]
fn msn_2_goal_grammar_and_or_and_k() {
    let m = mission("ce-c2m4");
    let Goal::And(parts) = &m.goal else {
        panic!("and expected")
    };
    assert_eq!(parts.len(), 3);
    assert!(matches!(&parts[0], Goal::Or(v) if v.len() == 2));
    let m = mission("ce-c1m2");
    assert_eq!(
        m.goal,
        Goal::Exited {
            count: 0,
            exits: vec!["2W".into(), "13E".into()]
        }
    );
    assert_eq!(m.start, StartMode::Tile(12));
    let m = mission("ce-c2m3");
    assert_eq!(
        m.goal,
        Goal::Destroyed(vec!["portal1".into(), "portal2".into()])
    );
    assert!(m.layout.cells.iter().any(|c| c.tile == 14 && c.no_force));
}

#[test]
fn msn_1_broken_mission_file_reports_line() {
    let lines: Vec<&str> = CE_MISSIONS.lines().collect();
    let line_of = |needle: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(needle))
            .map(|i| i + 1)
            .expect("line present")
    };
    let cases = [
        (
            "GOAL special_done(photograph, 1)",
            "GOAL special_done(photo, 1)",
        ),
        ("GOAL special_done(photograph, 1)", "GOAL flew(away)"),
        ("TOKEN desk 12:2,3", "TOKEN desk 9:2,3"),
        ("TOKEN desk 12:2,3", "TOKEN chair 12:2,3"),
        ("RED 15W 14E", "RED 15X"),
        ("FORCE 1-32 37-44", "FORCE 1-32 30-44"),
        (
            "ROUNDS 5\nEVENTS 1-12\nFORCE 1-32 37-44\nRED 15W",
            "ROUNDS five\nEVENTS 1-12\nFORCE 1-32 37-44\nRED 15W",
        ),
        ("DOORS H,11,8 H,12,8", "DOORS Q,11,8"),
    ];
    for (good, bad) in cases {
        let first = good.lines().next().expect("line");
        let expected = line_of(first);
        let text = CE_MISSIONS.replacen(good, bad, 1);
        let e = parse_missions("missions/bad.missions", &text).expect_err(bad);
        assert_eq!(e.file, "missions/bad.missions");
        assert_eq!(e.line, expected, "{bad}: {e}");
    }
    // A missing field is reported at the END line of its record.
    let text = CE_MISSIONS.replacen("SECONDARY no\n", "", 1);
    let e = parse_missions("m", &text).expect_err("missing SECONDARY");
    assert_eq!(e.line, line_of("SECONDARY no"), "{e}");
    assert!(e.message.contains("SECONDARY"));
    // No END at all: reported at the MISSION line.
    let e = parse_missions("m", "MISSION x \"y\" EDITION=ce\nROUNDS 3\n").expect_err("no END");
    assert_eq!(e.line, 1);
}

// ---------------------------------------------------------------- MSN-T6

#[test]
fn msn_t6_c1m1_geometry() {
    let m = mission("ce-c1m1");
    let tiles = ce_tiles();
    let b = m.validate(&tiles).expect("valid");
    // White 15N, 14N and red 15W, 14E on open board edges.
    let ents = m.entrances(&b).expect("entrances");
    assert_eq!(ents.len(), 4);
    let passable: Vec<Square> = b.squares().filter(|s| b.passable(*s)).collect();
    assert_eq!(passable.len(), 254);
    let mut closed = Walls::new(&b);
    closed.set_closed_doors(m.doors.iter().flatten().copied());
    let open = Walls::new(&b);
    let desk = sq(10, 11);
    for walls in [&closed, &open] {
        // All 254 squares connected (a DT crosses a closed door edge).
        let d = StepMap::new(&b, walls, &passable[..1], |_| false, true);
        assert!(passable.iter().all(|s| d.reaches(*s)));
        // Fewest steps from each white entrance to a square adjacent to the
        // desk, counting the entry step.
        for (id, expected) in [("15N", 12), ("14N", 13)] {
            let e = ents.iter().find(|e| e.id == id).expect("entrance");
            let d = StepMap::new(&b, walls, &e.squares, |_| false, true);
            let best = desk
                .ring()
                .into_iter()
                .filter(|s| walls.adjacent(&b, desk, *s))
                .filter_map(|s| d.get(s))
                .min()
                .expect("some adjacent square");
            assert_eq!(best + 1, expected, "{id}");
        }
        // Each desk has 8 adjacent squares, all reachable.
        for t in &m.tokens {
            let adj: Vec<Square> = t
                .square
                .ring()
                .into_iter()
                .filter(|s| walls.adjacent(&b, t.square, *s))
                .collect();
            assert_eq!(adj.len(), 8, "desk {}", t.square);
            let d = StepMap::new(&b, walls, &passable[..1], |_| false, true);
            assert!(adj.iter().all(|s| b.passable(*s) && d.reaches(*s)));
        }
    }
    // A DL figure cannot cross the closed door (no `dt_doors`): the War
    // Room is cut off until the door opens.
    let d = StepMap::new(&b, &closed, &passable[..1], |_| false, false);
    assert!(b.on_board(desk) && !d.reaches(desk));
    // The closed group blocks LoS; open, it is clear (BRD-6).
    assert!(!line_of_sight(&b, &closed, &(), sq(11, 5), sq(11, 10)).is_clear());
    assert!(line_of_sight(&b, &open, &(), sq(11, 5), sq(11, 10)).is_clear());
}

/// BRD-5: printed furniture has no rules effect. C1M1's desks are floor:
/// passable, and sight crosses them like any empty floor square.
#[test]
fn brd_5_desks_are_floor_passable_and_see_through() {
    let m = mission("ce-c1m1");
    let b = m.validate(&ce_tiles()).expect("valid");
    let walls = Walls::new(&b);
    let desks: Vec<Square> = m.tokens.iter().map(|t| t.square).collect();
    assert_eq!(desks, [sq(10, 11), sq(13, 12)]);
    for d in desks {
        assert!(b.passable(d), "desk {d} is walkable");
        // A line through the desk square, two squares either way along its
        // row, is clear exactly as along a row of plain floor.
        let (a, c) = (sq(d.x - 1, d.y), sq(d.x + 1, d.y));
        assert!(b.passable(a) && b.passable(c));
        assert_eq!(
            line_of_sight(&b, &walls, &(), a, c),
            citadel_rules::geometry::Sight::Clear { cover: false },
            "through desk {d}"
        );
    }
}

/// The move search looks a door edge up by edge (one group per edge): no
/// mission may put an edge in two door groups.
#[test]
fn no_edge_is_in_two_door_groups() {
    for m in missions() {
        let mut seen = std::collections::BTreeMap::new();
        for (g, group) in m.doors.iter().enumerate() {
            for e in group {
                if let Some(other) = seen.insert(*e, g) {
                    assert_eq!(other, g, "{}: {e:?} in door groups {other} and {g}", m.id);
                }
            }
        }
    }
}
