//! Geometry on boards built from the real tile files: the stairs rules
//! (LOS-11/12) and the Citadel (MAP-18..20). The pure geometry tests (ADJ,
//! LOS examples, LOS-8 symmetry) are in `crates/grid/tests/geometry.rs`.
//! Every test names the rule it covers.

use citadel_rules::content::board::build_board;
use citadel_rules::content::layout::Layout;
use citadel_rules::content::tiles::{parse_tiles, TileDef};
use citadel_rules::geometry::{line_of_sight, Board, Edge, Sight, Square, Terrain, Walls};

const CE_TILES: &str = include_str!("../data/tiles/ce.tiles");
const CLASSIC_TILES: &str = include_str!("../data/tiles/classic.tiles");

fn sq(x: i32, y: i32) -> Square {
    Square::new(x, y)
}

fn v(x: i32, y: i32) -> Edge {
    Edge::V { x, y }
}

fn h(x: i32, y: i32) -> Edge {
    Edge::H { x, y }
}

fn los(board: &Board, walls: &Walls, a: Square, b: Square) -> Sight {
    let ab = line_of_sight(board, walls, &(), a, b);
    // LOS-8: every test checks both directions.
    assert_eq!(
        ab,
        line_of_sight(board, walls, &(), b, a),
        "{a}->{b} asymmetric"
    );
    ab
}

/// The CE tiles.
fn ce_tiles() -> Vec<TileDef> {
    parse_tiles("tiles/ce.tiles", CE_TILES).expect("CE tiles parse")
}

#[test]
fn los_11_stairs_pairs_on_tile_8() {
    let layout = Layout::parse("8").expect("layout");
    let b = build_board(&layout, &ce_tiles(), None).expect("board");
    let w = Walls::new(&b);
    // Stair squares: S3 (3,3),(4,3); S2 (3,4),(4,4); S1 (3,5),(4,5).
    for (a, c, clear) in [
        (sq(3, 5), sq(3, 3), true),  // S1 <-> S3
        (sq(3, 4), sq(3, 5), true),  // S2 <-> S1
        (sq(3, 4), sq(4, 3), true),  // S2 <-> S3
        (sq(3, 3), sq(3, 1), true),  // S3 <-> U
        (sq(3, 5), sq(4, 5), true),  // the same step
        (sq(3, 3), sq(4, 3), true),  // the same step
        (sq(3, 5), sq(3, 1), false), // S1 <-> U
        (sq(3, 4), sq(3, 1), false), // S2 <-> U
        (sq(3, 5), sq(3, 6), false), // S1 <-> L
        (sq(4, 4), sq(4, 7), false), // S2 <-> L
        (sq(3, 3), sq(3, 6), false), // S3 <-> L
    ] {
        assert_eq!(los(&b, &w, a, c).is_clear(), clear, "{a} -> {c}");
    }
}

#[test]
fn los_11_stair_square_never_sees_another_tile() {
    // Tile 13 north of tile 8: the column x=3 runs through open openings.
    let layout = Layout::parse("13 / 8").expect("layout");
    let b = build_board(&layout, &ce_tiles(), None).expect("board");
    let w = Walls::new(&b);
    // Upper floor of tile 8 to tile 13: no stairs rule, clear.
    assert!(los(&b, &w, sq(3, 9), sq(3, 6)).is_clear());
    // S3 (3,11) to tile 13 along the same column: blocked by LOS-11.
    assert_eq!(los(&b, &w, sq(3, 11), sq(3, 6)), Sight::Blocked);
}

#[test]
fn los_12_lower_and_upper_floor_blocked() {
    let layout = Layout::parse("8").expect("layout");
    let b = build_board(&layout, &ce_tiles(), None).expect("board");
    let w = Walls::new(&b);
    // Along x = 3.5 through the stairs: no wall is crossed, yet L <-> U is
    // blocked.
    assert_eq!(los(&b, &w, sq(3, 7), sq(3, 1)), Sight::Blocked);
    assert!(los(&b, &w, sq(0, 0), sq(7, 2)).is_clear()); // U <-> U
    assert!(los(&b, &w, sq(0, 7), sq(7, 6)).is_clear()); // L <-> L
}

// ---------------------------------------------------------------- Citadel

#[test]
fn map_19_20_citadel_base_and_arms() {
    let tiles = parse_tiles("tiles/classic.tiles", CLASSIC_TILES).expect("classic tiles");
    // Classic mission 1: `1 2 5 / 4 3 6`, Citadel at (8,8).
    let layout = Layout::parse("1 2 5 / 4 3 6").expect("layout");
    let b = build_board(&layout, &tiles, Some(sq(8, 8))).expect("board");
    let w = Walls::new(&b);
    for s in [sq(7, 7), sq(8, 7), sq(7, 8), sq(8, 8)] {
        assert_eq!(b.cell(s).map(|c| c.terrain), Some(Terrain::Solid));
        assert!(!b.passable(s) && b.blocks_sight(s));
    }
    assert_eq!(b.cell(sq(9, 8)).map(|c| c.terrain), Some(Terrain::Open));
    // Arms: distance 1..3 and 6..8 are walls, 4 and 5 are gates.
    for d in [1, 2, 3, 6, 7, 8] {
        assert!(b.is_wall(v(8, 8 - d)), "north arm d={d}");
        assert!(b.is_wall(v(8, 8 + d - 1)), "south arm d={d}");
        assert!(b.is_wall(h(8 - d, 8)), "west arm d={d}");
        assert!(b.is_wall(h(8 + d - 1, 8)), "east arm d={d}");
    }
    for d in [4, 5] {
        assert!(!b.is_wall(v(8, 8 - d)), "north gate d={d}");
        assert!(!b.is_wall(h(8 + d - 1, 8)), "east gate d={d}");
    }
    // LOS-5: base squares block like off-board squares.
    assert_eq!(
        line_of_sight(&b, &w, &(), sq(6, 6), sq(9, 9)),
        Sight::Blocked
    );
}

#[test]
fn map_18_citadel_point_must_be_a_tile_corner() {
    let tiles = parse_tiles("tiles/classic.tiles", CLASSIC_TILES).expect("classic tiles");
    let layout = Layout::parse("1 2 / 4 3").expect("layout");
    assert!(build_board(&layout, &tiles, Some(sq(7, 8))).is_err());
}
