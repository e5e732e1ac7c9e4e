//! Geometry tests: ADJ examples A1-A5, LOS examples L1-L9, LOS symmetry
//! (LOS-8), the stairs rules (LOS-11/12) and the Citadel (MAP-19..21).
//! Every test names the rule it covers.

use citadel_rules::content::ids::Edition;
use citadel_rules::content::layout::Layout;
use citadel_rules::content::tiles::{parse_tiles, TileDef, TileSource};
use citadel_rules::geometry::los::Traversal;
use citadel_rules::geometry::{
    line_of_sight, traverse, Board, Crossing, Edge, Sight, SightBlockers, Square, Walls,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

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

/// An 8x8 tile with the given walls and an all-floor grid.
fn tile(id: u32, walls: &[Edge]) -> TileDef {
    TileDef {
        id,
        name: format!("test {id}"),
        edition: Edition::Ce,
        source: TileSource::Authored,
        grid: [['.'; 8]; 8],
        walls: walls.iter().copied().collect(),
        doors: BTreeSet::new(),
        drawing: Vec::new(),
        line: 0,
    }
}

/// The open 8x8 map of the core.md examples, with `walls`.
fn open_board(walls: &[Edge]) -> (Board, Walls) {
    let layout = Layout::parse("1").expect("layout");
    let board = Board::build(&layout, &[tile(1, walls)], None).expect("board");
    let w = Walls::new(&board);
    (board, w)
}

/// Figures and cover tokens for LoS tests.
#[derive(Default)]
struct Pieces {
    figures: Vec<Square>,
    cover: Vec<Square>,
}

impl SightBlockers for Pieces {
    fn figure_at(&self, s: Square) -> bool {
        self.figures.contains(&s)
    }
    fn cover_at(&self, s: Square) -> bool {
        self.cover.contains(&s)
    }
}

fn figures(f: &[Square]) -> Pieces {
    Pieces {
        figures: f.to_vec(),
        cover: Vec::new(),
    }
}

fn los(board: &Board, walls: &Walls, p: &Pieces, a: Square, b: Square) -> Sight {
    let ab = line_of_sight(board, walls, p, a, b);
    // LOS-8: every test checks both directions.
    assert_eq!(
        ab,
        line_of_sight(board, walls, p, b, a),
        "{a}->{b} asymmetric"
    );
    ab
}

// ---------------------------------------------------------------- ADJ

#[test]
fn adj_3_a1_route_via_d_open() {
    let (b, w) = open_board(&[v(1, 0)]);
    assert!(!w.sealed(sq(0, 0), sq(1, 1)));
    assert!(w.adjacent(&b, sq(0, 0), sq(1, 1)));
    assert!(w.adjacent(&b, sq(1, 1), sq(0, 0)));
}

#[test]
fn adj_3_a2_straight_wall_seals() {
    let (b, w) = open_board(&[v(1, 0), v(1, 1)]);
    assert!(w.sealed(sq(0, 0), sq(1, 1)));
    assert!(!w.adjacent(&b, sq(0, 0), sq(1, 1)));
    assert!(!w.adjacent(&b, sq(1, 1), sq(0, 0)));
}

#[test]
fn adj_3_a3_pocket_around_a_seals() {
    let (b, w) = open_board(&[v(1, 0), h(0, 1)]);
    assert!(!w.adjacent(&b, sq(0, 0), sq(1, 1)));
}

#[test]
fn adj_3_a4_bent_wall_leaves_route_open() {
    let (b, w) = open_board(&[v(1, 0), h(1, 1)]);
    assert!(w.adjacent(&b, sq(0, 0), sq(1, 1)));
}

#[test]
fn adj_3_a5_pocket_around_b_seals() {
    let (b, w) = open_board(&[h(1, 1), v(1, 1)]);
    assert!(!w.adjacent(&b, sq(0, 0), sq(1, 1)));
}

#[test]
fn adj_3_off_board_side_squares_use_w_only() {
    // (0,1)->(1,0) has side squares (1,1) and (0,0), both on-board; use the
    // board corner instead: from (0,0) towards (-1,1) nothing is on-board,
    // but sealing still looks up W only, so no wall means not sealed.
    let (_, w) = open_board(&[]);
    assert!(!w.sealed(sq(0, 0), sq(-1, 1)));
    let (_, w) = open_board(&[v(0, 0), v(0, 1)]);
    assert!(w.sealed(sq(0, 0), sq(-1, 1)));
}

#[test]
fn adj_4_orthogonal_wall_and_board_edge() {
    let (b, w) = open_board(&[v(3, 2)]);
    assert!(!w.adjacent(&b, sq(2, 2), sq(3, 2)));
    assert!(w.adjacent(&b, sq(2, 2), sq(2, 3)));
    // Off-board squares are never adjacent, and a square is not its own
    // neighbour.
    assert!(!w.adjacent(&b, sq(0, 0), sq(-1, 0)));
    assert!(!w.adjacent(&b, sq(0, 0), sq(0, 0)));
    assert!(!w.adjacent(&b, sq(0, 0), sq(2, 0)));
}

#[test]
fn adj_2_closed_doors_act_as_walls_until_opened() {
    let (b, mut w) = open_board(&[]);
    w.set_closed_doors([h(0, 1), h(1, 1)]);
    assert!(w.is_wall(h(0, 1)));
    assert!(!w.is_static_wall(h(0, 1)));
    assert!(!w.adjacent(&b, sq(0, 0), sq(0, 1)));
    // M7: the diagonal across the closed group is sealed too.
    assert!(!w.adjacent(&b, sq(0, 0), sq(1, 1)));
    w.set_closed_doors([]);
    assert!(w.adjacent(&b, sq(0, 0), sq(0, 1)));
    assert!(w.adjacent(&b, sq(0, 0), sq(1, 1)));
}

#[test]
fn adj_8_adjacent_to_wall_counts_w_only() {
    let (b, _) = open_board(&[v(3, 3)]);
    assert!(b.adjacent_to_wall(sq(3, 3)));
    assert!(b.adjacent_to_wall(sq(2, 3)));
    assert!(!b.adjacent_to_wall(sq(4, 4)));
    // The bare board edge is not a wall.
    assert!(!b.adjacent_to_wall(sq(0, 0)));
}

#[test]
fn mov_2_m1_m4_steps_follow_sealing() {
    // M1: the straight wall makes the diagonal step illegal.
    let (b, w) = open_board(&[v(1, 0), v(1, 1)]);
    assert!(!w.adjacent(&b, sq(0, 0), sq(1, 1)));
    // M4: walls V,3,2 and V,3,3 separate (2,2) from (3,3).
    let (b, w) = open_board(&[v(3, 2), v(3, 3)]);
    assert!(!w.adjacent(&b, sq(2, 2), sq(3, 3)));
}

// ---------------------------------------------------------------- LOS

#[test]
fn los_2_l3_traversal_enters_expected_squares() {
    let events = traverse(sq(0, 0), sq(2, 1));
    assert_eq!(
        events,
        vec![
            Crossing::Edge {
                from: sq(0, 0),
                to: sq(1, 0)
            },
            Crossing::Edge {
                from: sq(1, 0),
                to: sq(1, 1)
            },
            Crossing::Edge {
                from: sq(1, 1),
                to: sq(2, 1)
            },
        ]
    );
    assert!(traverse(sq(4, 4), sq(4, 4)).is_empty());
}

#[test]
fn los_2_corner_events_merge_on_diagonals() {
    let events = traverse(sq(0, 0), sq(2, 2));
    assert_eq!(
        events,
        vec![
            Crossing::Corner {
                from: sq(0, 0),
                to: sq(1, 1)
            },
            Crossing::Corner {
                from: sq(1, 1),
                to: sq(2, 2)
            },
        ]
    );
    // (0,0)->(3,1): t = 1/6, 3/6, 5/6 for X and 1/2 for Y: a corner at 1/2.
    let events = traverse(sq(0, 0), sq(3, 1));
    assert_eq!(events.len(), 3);
    assert_eq!(
        events[1],
        Crossing::Corner {
            from: sq(1, 0),
            to: sq(2, 1)
        }
    );
}

#[test]
fn los_1_l1_entered_diagonal_square_blocks() {
    let (b, w) = open_board(&[]);
    assert_eq!(
        los(&b, &w, &figures(&[sq(1, 1)]), sq(0, 0), sq(2, 2)),
        Sight::Blocked
    );
    assert!(line_of_sight(&b, &w, &(), sq(3, 3), sq(3, 3)).is_clear());
}

#[test]
fn los_4_l2_side_squares_not_entered() {
    let (b, w) = open_board(&[]);
    assert!(los(&b, &w, &figures(&[sq(1, 0), sq(0, 1)]), sq(0, 0), sq(2, 2)).is_clear());
}

#[test]
fn los_5_l4_figure_beside_the_line_does_not_block() {
    let (b, w) = open_board(&[]);
    assert!(los(&b, &w, &figures(&[sq(2, 0)]), sq(0, 0), sq(2, 1)).is_clear());
}

#[test]
fn los_5_l5_figure_on_entered_square_blocks() {
    let (b, w) = open_board(&[]);
    assert_eq!(
        los(&b, &w, &figures(&[sq(1, 1)]), sq(0, 0), sq(2, 1)),
        Sight::Blocked
    );
}

#[test]
fn los_5_figures_on_endpoints_do_not_block() {
    let (b, w) = open_board(&[]);
    assert!(los(&b, &w, &figures(&[sq(0, 0), sq(5, 2)]), sq(0, 0), sq(5, 2)).is_clear());
}

#[test]
fn los_5_off_board_entered_square_blocks() {
    // Layout `1 -- / 2 3`: (8..15, 0..7) is off-board. From (7,5) to (9,9)
    // the line enters (7,6) and then (8,6), which is off-board.
    let layout = Layout::parse("1 -- / 2 3").expect("layout");
    let tiles = [tile(1, &[]), tile(2, &[]), tile(3, &[])];
    let b = Board::build(&layout, &tiles, None).expect("board");
    let w = Walls::new(&b);
    assert_eq!(
        traverse(sq(7, 5), sq(9, 9))[1],
        Crossing::Edge {
            from: sq(7, 6),
            to: sq(8, 6)
        }
    );
    assert_eq!(
        los(&b, &w, &figures(&[]), sq(7, 5), sq(9, 9)),
        Sight::Blocked
    );
    assert!(los(&b, &w, &figures(&[]), sq(7, 5), sq(7, 9)).is_clear());
}

#[test]
fn los_3_l6_wall_blocks_at_first_x_event() {
    let (b, w) = open_board(&[v(1, 0)]);
    assert_eq!(
        los(&b, &w, &figures(&[]), sq(0, 0), sq(2, 1)),
        Sight::Blocked
    );
}

#[test]
fn los_4_l7_corner_touching_wall_is_clear() {
    let (b, w) = open_board(&[v(1, 0)]);
    assert!(los(&b, &w, &figures(&[]), sq(0, 0), sq(1, 1)).is_clear());
}

#[test]
fn los_4_l8_straight_wall_through_corner_blocks() {
    let (b, w) = open_board(&[v(2, 1), v(2, 2)]);
    assert_eq!(
        los(&b, &w, &figures(&[]), sq(0, 0), sq(4, 4)),
        Sight::Blocked
    );
}

#[test]
fn los_10_l9_cover_token_on_entered_square() {
    let (b, w) = open_board(&[]);
    let p = Pieces {
        figures: Vec::new(),
        cover: vec![sq(1, 0)],
    };
    assert_eq!(
        los(&b, &w, &p, sq(0, 0), sq(3, 0)),
        Sight::Clear { cover: true }
    );
    // Cover on the target's own square or on a side square does not count.
    let p = Pieces {
        figures: Vec::new(),
        cover: vec![sq(3, 0), sq(1, 0)],
    };
    assert_eq!(
        los(&b, &w, &p, sq(0, 0), sq(1, 1)),
        Sight::Clear { cover: false }
    );
}

#[test]
fn los_3_closed_door_blocks_until_open() {
    let (b, mut w) = open_board(&[]);
    w.set_closed_doors([h(3, 4)]);
    assert_eq!(
        los(&b, &w, &figures(&[]), sq(3, 2), sq(3, 6)),
        Sight::Blocked
    );
    w.set_closed_doors([]);
    assert!(los(&b, &w, &figures(&[]), sq(3, 2), sq(3, 6)).is_clear());
}

/// The CE tiles.
fn ce_tiles() -> Vec<TileDef> {
    parse_tiles("tiles/ce.tiles", CE_TILES).expect("CE tiles parse")
}

#[test]
fn los_11_stairs_pairs_on_tile_8() {
    let layout = Layout::parse("8").expect("layout");
    let b = Board::build(&layout, &ce_tiles(), None).expect("board");
    let w = Walls::new(&b);
    let none = figures(&[]);
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
        assert_eq!(los(&b, &w, &none, a, c).is_clear(), clear, "{a} -> {c}");
    }
}

#[test]
fn los_11_stair_square_never_sees_another_tile() {
    // Tile 13 north of tile 8: the column x=3 runs through open openings.
    let layout = Layout::parse("13 / 8").expect("layout");
    let b = Board::build(&layout, &ce_tiles(), None).expect("board");
    let w = Walls::new(&b);
    let none = figures(&[]);
    // Upper floor of tile 8 to tile 13: no stairs rule, clear.
    assert!(los(&b, &w, &none, sq(3, 9), sq(3, 6)).is_clear());
    // S3 (3,11) to tile 13 along the same column: blocked by LOS-11.
    assert_eq!(los(&b, &w, &none, sq(3, 11), sq(3, 6)), Sight::Blocked);
}

#[test]
fn los_12_lower_and_upper_floor_blocked() {
    let layout = Layout::parse("8").expect("layout");
    let b = Board::build(&layout, &ce_tiles(), None).expect("board");
    let w = Walls::new(&b);
    let none = figures(&[]);
    // Along x = 3.5 through the stairs: no wall is crossed, yet L <-> U is
    // blocked.
    assert_eq!(los(&b, &w, &none, sq(3, 7), sq(3, 1)), Sight::Blocked);
    assert!(los(&b, &w, &none, sq(0, 0), sq(7, 2)).is_clear()); // U <-> U
    assert!(los(&b, &w, &none, sq(0, 7), sq(7, 6)).is_clear()); // L <-> L
}

// ---------------------------------------------------------------- Citadel

#[test]
fn map_19_20_citadel_base_and_arms() {
    let tiles = parse_tiles("tiles/classic.tiles", CLASSIC_TILES).expect("classic tiles");
    // Classic mission 1: `1 2 5 / 4 3 6`, Citadel at (8,8).
    let layout = Layout::parse("1 2 5 / 4 3 6").expect("layout");
    let b = Board::build(&layout, &tiles, Some(sq(8, 8))).expect("board");
    let w = Walls::new(&b);
    for s in [sq(7, 7), sq(8, 7), sq(7, 8), sq(8, 8)] {
        assert!(b.is_citadel_base(s));
        assert!(!b.passable(s));
    }
    assert!(!b.is_citadel_base(sq(9, 8)));
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
    assert!(Board::build(&layout, &tiles, Some(sq(7, 8))).is_err());
}

// ---------------------------------------------------------------- LOS-8

/// Random boards: layout `1 2 / 3 --` (an off-board quarter), random walls
/// on every tile, random closed doors, random figures and cover.
fn arb_case() -> impl Strategy<Value = (Vec<Vec<Edge>>, Vec<Edge>, Vec<Square>, Vec<Square>)> {
    let edge = (any::<bool>(), 0..9i32, 0..9i32).prop_filter_map("in range", |(vert, i, j)| {
        if vert && j < 8 {
            Some(Edge::V { x: i, y: j })
        } else if !vert && i < 8 {
            Some(Edge::H { x: i, y: j })
        } else {
            None
        }
    });
    let walls = prop::collection::vec(prop::collection::vec(edge, 0..40), 3);
    let gedge = (any::<bool>(), 0..17i32, 0..17i32).prop_map(|(vert, x, y)| {
        if vert {
            Edge::V { x, y }
        } else {
            Edge::H { x, y }
        }
    });
    let doors = prop::collection::vec(gedge, 0..6);
    let square = (0..16i32, 0..16i32).prop_map(|(x, y)| Square::new(x, y));
    let figs = prop::collection::vec(square.clone(), 0..20);
    let cover = prop::collection::vec(square, 0..10);
    (walls, doors, figs, cover)
}

proptest! {
    #[test]
    fn los_8_symmetric_on_random_boards(
        (walls, doors, figs, cover) in arb_case(),
        ax in 0..16i32, ay in 0..16i32, bx in 0..16i32, by in 0..16i32,
    ) {
        let tiles: Vec<TileDef> = walls
            .iter()
            .enumerate()
            .map(|(i, w)| tile(i as u32 + 1, w))
            .collect();
        let layout = Layout::parse("1 2 / 3 --").expect("layout");
        let board = Board::build(&layout, &tiles, None).expect("board");
        let mut w = Walls::new(&board);
        w.set_closed_doors(doors);
        let p = Pieces { figures: figs, cover };
        let (a, b) = (sq(ax, ay), sq(bx, by));
        prop_assert_eq!(
            line_of_sight(&board, &w, &p, a, b),
            line_of_sight(&board, &w, &p, b, a)
        );
        // ADJ-3/4 are symmetric too.
        prop_assert_eq!(w.adjacent(&board, a, b), w.adjacent(&board, b, a));
    }

    #[test]
    fn los_2_traversal_ends_at_b_with_unit_steps(
        ax in -20..20i32, ay in -20..20i32, bx in -20..20i32, by in -20..20i32,
    ) {
        let (a, b) = (sq(ax, ay), sq(bx, by));
        let mut s = a;
        let mut n = 0;
        for c in Traversal::new(a, b) {
            let (from, to) = match c {
                Crossing::Edge { from, to } => {
                    prop_assert!(from.is_orthogonal_neighbour(to));
                    (from, to)
                }
                Crossing::Corner { from, to } => {
                    prop_assert!(from.is_neighbour8(to) && !from.is_orthogonal_neighbour(to));
                    (from, to)
                }
            };
            prop_assert_eq!(from, s);
            s = to;
            n += 1;
        }
        prop_assert_eq!(s, b);
        // The reverse traversal enters the same squares in reverse order.
        let fwd: Vec<Square> = traverse(a, b).iter().map(|c| match c {
            Crossing::Edge { to, .. } | Crossing::Corner { to, .. } => *to,
        }).collect();
        let mut back: Vec<Square> = traverse(b, a).iter().map(|c| match c {
            Crossing::Edge { from, .. } | Crossing::Corner { from, .. } => *from,
        }).collect();
        back.reverse();
        prop_assert_eq!(fwd, back);
        prop_assert!(n <= (ax - bx).abs() + (ay - by).abs());
    }
}

#[test]
fn adj_1_eight_neighbours_are_the_squares_at_chebyshev_distance_1() {
    let c = sq(3, 3);
    let ring: BTreeSet<Square> = c.ring().into_iter().collect();
    assert_eq!(ring.len(), 8);
    for x in 0..7 {
        for y in 0..7 {
            let s = sq(x, y);
            assert_eq!(ring.contains(&s), c.dist(s) == 1, "{s:?}");
            assert_eq!(c.is_neighbour8(s), c.dist(s) == 1, "{s:?}");
        }
    }
}

#[test]
fn brd_3_wall_set_is_tile_walls_plus_closed_doors() {
    let (b, mut w) = open_board(&[v(3, 3), h(5, 2)]);
    // Tile walls are in the static wall set W.
    assert!(b.is_wall(v(3, 3)) && w.is_static_wall(v(3, 3)) && w.is_wall(v(3, 3)));
    assert!(w.is_wall(h(5, 2)) && w.wall(sq(5, 1), sq(5, 2)));
    assert!(!w.is_wall(v(4, 3)) && !w.wall(sq(3, 3), sq(4, 3)));
    // A closed door is an extra wall edge, not part of the static set.
    w.set_closed_doors([v(4, 3)]);
    assert!(w.is_wall(v(4, 3)) && !w.is_static_wall(v(4, 3)) && !b.is_wall(v(4, 3)));
    assert!(w.wall(sq(3, 3), sq(4, 3)));
    w.set_closed_doors([]);
    assert!(!w.is_wall(v(4, 3)));
}

#[test]
fn los_6_tokens_and_cover_do_not_block() {
    let (b, w) = open_board(&[]);
    let p = Pieces {
        figures: Vec::new(),
        cover: vec![sq(1, 0), sq(2, 0)],
    };
    // Tokens on the entered squares: still in sight (cover is LOS-10).
    assert!(los(&b, &w, &p, sq(0, 0), sq(3, 0)).is_clear());
    // The same squares holding figures block.
    assert_eq!(
        los(&b, &w, &figures(&[sq(1, 0)]), sq(0, 0), sq(3, 0)),
        Sight::Blocked
    );
}

#[test]
fn los_7_walls_block_only_where_the_segment_crosses_them() {
    // Horizontal walls along row 2's north and south sides: the segment on
    // row 2 runs between them at a half-integer height and crosses neither.
    let walls: Vec<Edge> = (0..6).flat_map(|x| [h(x, 2), h(x, 3)]).collect();
    let (b, w) = open_board(&walls);
    assert!(los(&b, &w, &figures(&[]), sq(0, 2), sq(5, 2)).is_clear());
    // Leaving the row crosses one of them.
    assert_eq!(
        los(&b, &w, &figures(&[]), sq(0, 2), sq(5, 3)),
        Sight::Blocked
    );
    // A vertical wall across the row blocks.
    let (b, w) = open_board(&[v(3, 2)]);
    assert_eq!(
        los(&b, &w, &figures(&[]), sq(0, 2), sq(5, 2)),
        Sight::Blocked
    );
}
