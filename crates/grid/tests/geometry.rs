//! Geometry tests on hand-built boards: ADJ examples A1-A5, LOS examples
//! L1-L9, LOS symmetry (LOS-8), terrain, doors and path distances. Tests
//! that need the real tile files (stairs, the Citadel) live in the rules
//! crate's `tests/geometry.rs`. Every test names the rule it covers.

use citadel_grid::los::Traversal;
use citadel_grid::{
    line_of_sight, line_of_sight_to_square, traverse, Board, BoardError, Cell, Crossing, Edge,
    Level, PlacedTile, Sight, SightBlockers, Square, StepMap, Terrain, Walls,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn sq(x: i32, y: i32) -> Square {
    Square::new(x, y)
}

fn v(x: i32, y: i32) -> Edge {
    Edge::V { x, y }
}

fn h(x: i32, y: i32) -> Edge {
    Edge::H { x, y }
}

/// A board of 8x8 open tiles: `slots` are `(column, row, local walls)` in a
/// `cols` x `rows` layout; slots not listed are off-board.
fn tiled(cols: i32, rows: i32, slots: &[(i32, i32, Vec<Edge>)]) -> Board {
    let (width, height) = (cols * 8, rows * 8);
    let mut cells = vec![None; (width * height) as usize];
    let mut tiles = Vec::new();
    let mut walls = Vec::new();
    for (index, (c, r, local)) in slots.iter().enumerate() {
        let (ox, oy) = (c * 8, r * 8);
        for y in oy..oy + 8 {
            for x in ox..ox + 8 {
                cells[(y * width + x) as usize] = Some(Cell {
                    tile: index,
                    glyph: '.',
                    terrain: Terrain::Open,
                    level: None,
                });
            }
        }
        walls.extend(local.iter().map(|e| e.translate(ox, oy)));
        tiles.push(PlacedTile {
            id: index as u32 + 1,
            name: format!("test {}", index + 1),
            origin: sq(ox, oy),
            rotation: 0,
            stairs: false,
        });
    }
    Board::new(width, height, tiles, cells, walls).expect("board")
}

/// The open 8x8 map of the core.md examples, with `walls`.
fn open_board(walls: &[Edge]) -> (Board, Walls) {
    let board = tiled(1, 1, &[(0, 0, walls.to_vec())]);
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
    let b = tiled(2, 2, &[(0, 0, vec![]), (0, 1, vec![]), (1, 1, vec![])]);
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
        let slots: Vec<(i32, i32, Vec<Edge>)> = [(0, 0), (1, 0), (0, 1)]
            .into_iter()
            .zip(walls)
            .map(|((c, r), w)| (c, r, w))
            .collect();
        let board = tiled(2, 2, &slots);
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

// ---------------------------------------------------------------- terrain

/// `board` with the terrain of `s` replaced.
fn with_terrain(board: &Board, changes: &[(Square, Terrain)]) -> Board {
    let mut cells: Vec<Option<Cell>> = (0..board.height())
        .flat_map(|y| (0..board.width()).map(move |x| sq(x, y)))
        .map(|s| board.cell(s).copied())
        .collect();
    for &(s, t) in changes {
        let i = (s.y * board.width() + s.x) as usize;
        if let Some(c) = cells[i].as_mut() {
            c.terrain = t;
        }
    }
    Board::new(
        board.width(),
        board.height(),
        board.tiles.clone(),
        cells,
        board.walls().to_vec(),
    )
    .expect("board")
}

#[test]
fn brd_2_impassable_squares_let_sight_through_solid_ones_do_not() {
    let (b, w) = open_board(&[]);
    let b = with_terrain(
        &b,
        &[(sq(2, 0), Terrain::Impassable), (sq(2, 2), Terrain::Solid)],
    );
    // BRD-2: neither can be entered.
    assert!(!b.passable(sq(2, 0)) && !b.passable(sq(2, 2)));
    assert!(b.passable(sq(1, 0)));
    // LOS-5: a `#`/`O` square is entered freely; a solid one (MAP-19) blocks
    // like an off-board square.
    assert!(los(&b, &w, &figures(&[]), sq(0, 0), sq(4, 0)).is_clear());
    assert_eq!(
        los(&b, &w, &figures(&[]), sq(0, 2), sq(4, 2)),
        Sight::Blocked
    );
    assert!(!b.blocks_sight(sq(2, 0)) && b.blocks_sight(sq(2, 2)));
    assert!(b.blocks_sight(sq(-1, 0)));
}

#[test]
fn board_new_rejects_parts_that_disagree() {
    let tile = PlacedTile {
        id: 1,
        name: "t".into(),
        origin: sq(0, 0),
        rotation: 0,
        stairs: false,
    };
    let cell = Cell {
        tile: 0,
        glyph: '.',
        terrain: Terrain::Open,
        level: None,
    };
    assert_eq!(
        Board::new(2, 2, vec![tile.clone()], vec![Some(cell); 3], []),
        Err(BoardError::CellCount {
            width: 2,
            height: 2,
            got: 3
        })
    );
    let bad = Cell { tile: 1, ..cell };
    assert_eq!(
        Board::new(2, 1, vec![tile.clone()], vec![Some(cell), Some(bad)], []),
        Err(BoardError::UnknownTile {
            square: sq(1, 0),
            tile: 1,
            tiles: 1
        })
    );
    assert!(matches!(
        Board::new(-1, 2, vec![tile], vec![], []),
        Err(BoardError::Size { .. })
    ));
}

#[test]
fn brd_3_walls_are_sorted_deduplicated_and_clipped_to_the_rim() {
    let b = tiled(1, 1, &[(0, 0, vec![v(3, 3), v(3, 3), h(1, 2), v(40, 1)])]);
    assert_eq!(b.walls(), &[v(3, 3), h(1, 2)]);
    assert!(!b.is_wall(v(40, 1)));
}

// ---------------------------------------------------------------- paths

#[test]
fn adj_7_step_map_counts_king_steps_around_walls() {
    // A wall from the top down to row 5 on line x = 4.
    let walls: Vec<Edge> = (0..6).map(|y| v(4, y)).collect();
    let (b, w) = open_board(&walls);
    let m = StepMap::new(&b, &w, &[sq(3, 0)], |_| false, false);
    assert_eq!(m.get(sq(3, 0)), Some(0));
    assert_eq!(m.get(sq(2, 1)), Some(1));
    // Around the end of the wall: down to (3,5), across at (4,6), back up.
    assert_eq!(m.get(sq(4, 6)), Some(6));
    assert_eq!(m.get(sq(4, 0)), Some(12));
    assert_eq!(m.get(sq(-1, 0)), None);
    assert_eq!(m.get(sq(8, 0)), None);
}

#[test]
fn mov_2_step_map_honours_blocked_squares_doors_and_levels() {
    let (b, mut w) = open_board(&[]);
    // A closed door group across the whole board on line y = 4.
    w.set_closed_doors((0..8).map(|x| h(x, 4)));
    let cut = StepMap::new(&b, &w, &[sq(0, 0)], |_| false, false);
    assert!(cut.reaches(sq(7, 3)) && !cut.reaches(sq(0, 4)));
    // Through closed doors, only orthogonally (MOV-2 (1)).
    let through = StepMap::new(&b, &w, &[sq(0, 0)], |_| false, true);
    assert_eq!(through.get(sq(0, 4)), Some(4));
    assert_eq!(through.get(sq(1, 4)), Some(4));
    // A blocked square is never entered: the diagonal through it costs one
    // step more.
    let w = Walls::new(&b);
    let m = StepMap::new(&b, &w, &[sq(0, 0)], |s| s == sq(1, 1), false);
    assert!(!m.reaches(sq(1, 1)));
    assert_eq!(m.get(sq(2, 2)), Some(3));
    // Levels (MOV-2 (5)): a lower square next to an upper one is not a step.
    let mut cells: Vec<Option<Cell>> = (0..8)
        .flat_map(|y| (0..8).map(move |x| sq(x, y)))
        .map(|s| b.cell(s).copied())
        .collect();
    for (i, c) in cells.iter_mut().enumerate() {
        if let Some(c) = c {
            c.level = Some(if i % 8 < 4 {
                Level::Lower
            } else {
                Level::Upper
            });
        }
    }
    let stairs = Board::new(8, 8, b.tiles.clone(), cells, []).expect("board");
    let m = StepMap::new(&stairs, &Walls::new(&stairs), &[sq(0, 0)], |_| false, false);
    assert!(m.reaches(sq(3, 7)) && !m.reaches(sq(4, 0)));
}

#[test]
fn los_9_square_target_empty_or_occupied_is_seen_like_a_figure() {
    // LOS-9: the same test to the square's centre; the target square may
    // be empty or hold a figure or token, and never blocks itself.
    let (b, w) = open_board(&[]);
    let none = figures(&[]);
    assert!(line_of_sight_to_square(&b, &w, &none, sq(0, 0), sq(5, 2)).is_clear());
    let on_target = figures(&[sq(5, 2)]);
    assert!(line_of_sight_to_square(&b, &w, &on_target, sq(0, 0), sq(5, 2)).is_clear());
    // A figure on an entered square blocks, as for a figure target.
    let between = figures(&[sq(1, 1)]);
    assert_eq!(
        line_of_sight_to_square(&b, &w, &between, sq(0, 0), sq(2, 1)),
        Sight::Blocked
    );
    // Cover on an entered square counts (LOS-10).
    let cover = Pieces {
        figures: Vec::new(),
        cover: vec![sq(1, 0)],
    };
    assert_eq!(
        line_of_sight_to_square(&b, &w, &cover, sq(0, 0), sq(3, 0)),
        Sight::Clear { cover: true }
    );
}

#[test]
fn los_9_square_target_walls_and_corners_and_symmetry() {
    // A wall crossed by the segment blocks (LOS-3); a wall only touching a
    // corner does not (LOS-4); both directions agree (LOS-8).
    let (b, w) = open_board(&[v(1, 0)]);
    let none = figures(&[]);
    assert_eq!(
        line_of_sight_to_square(&b, &w, &none, sq(0, 0), sq(2, 1)),
        Sight::Blocked
    );
    assert!(line_of_sight_to_square(&b, &w, &none, sq(0, 0), sq(1, 1)).is_clear());
    for (a, t) in [
        (sq(0, 0), sq(2, 1)),
        (sq(0, 0), sq(1, 1)),
        (sq(6, 1), sq(0, 7)),
    ] {
        assert_eq!(
            line_of_sight_to_square(&b, &w, &none, a, t),
            line_of_sight_to_square(&b, &w, &none, t, a)
        );
    }
}

#[test]
fn los_9_square_target_off_board_is_never_seen() {
    // Layout `1 -- / 2 3`: (8..15, 0..7) is off-board.
    let b = tiled(2, 2, &[(0, 0, vec![]), (0, 1, vec![]), (1, 1, vec![])]);
    let w = Walls::new(&b);
    let none = figures(&[]);
    assert_eq!(
        line_of_sight_to_square(&b, &w, &none, sq(7, 7), sq(9, 6)),
        Sight::Blocked
    );
    assert_eq!(
        line_of_sight_to_square(&b, &w, &none, sq(7, 7), sq(-1, 7)),
        Sight::Blocked
    );
    assert!(line_of_sight_to_square(&b, &w, &none, sq(7, 7), sq(9, 9)).is_clear());
}
