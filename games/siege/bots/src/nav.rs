//! Board helpers shared by the bots: walls with the current doors, ADJ-4
//! adjacency and breadth-first path distances that ignore figures.

use citadel_rules::game::view::{DoorState, GameView};
use citadel_rules::game::{FigureId, FigureKind, Place};
use citadel_rules::geometry::{Board, Square, StepMap, Walls};

/// Walls of `board` with the doors that are closed in `view`.
pub fn walls(board: &Board, view: &GameView) -> Walls {
    let mut walls = Walls::new(board);
    walls.set_closed_doors(
        view.doors
            .iter()
            .filter(|d| d.state == DoorState::Closed)
            .flat_map(|d| d.edges.iter().copied()),
    );
    walls
}

/// Passable squares adjacent (ADJ-4) to `s`.
pub fn adjacent(board: &Board, walls: &Walls, s: Square) -> Vec<Square> {
    s.ring()
        .into_iter()
        .filter(|n| board.passable(*n) && walls.adjacent(board, s, *n))
        .collect()
}

/// Step distances from `starts` over passable squares, ignoring figures.
pub fn step_map(board: &Board, walls: &Walls, starts: &[Square]) -> StepMap {
    StepMap::new(board, walls, starts, |_| false, false)
}

/// [`step_map`] that also treats blocking tokens (BRD-4: terminals,
/// portals, objectives ...) as impassable.
pub fn step_map_tokens(
    board: &Board,
    walls: &Walls,
    starts: &[Square],
    view: &GameView,
) -> StepMap {
    let blocked: Vec<Square> = view
        .tokens
        .iter()
        .filter(|t| t.kind.blocking())
        .map(|t| t.square)
        .collect();
    StepMap::new(board, walls, starts, |s| blocked.contains(&s), false)
}

/// The distance of `s` in a [`step_map`], `u32::MAX` if unreachable (so
/// unreachable squares sort last).
pub fn at(map: &StepMap, s: Square) -> u32 {
    map.get(s).unwrap_or(u32::MAX)
}

/// Path distance of `s` in a [`step_map`] from `targets`; where closed
/// doors cut every path, 1000 plus the Chebyshev distance to the nearest
/// target (so a figure still walks up to the door). `u32::MAX` without
/// targets.
pub fn distance(map: &StepMap, targets: &[Square], s: Square) -> u32 {
    let d = at(map, s);
    if d != u32::MAX {
        return d;
    }
    targets
        .iter()
        .map(|t| t.dist(s).unsigned_abs())
        .min()
        .map_or(u32::MAX, |c| 1000 + c)
}

/// A figure's square, if it is on the board.
pub fn square_of(view: &GameView, f: FigureId) -> Option<Square> {
    match view.figures.get(f.index())?.place {
        Place::Board { square } => Some(square),
        _ => None,
    }
}

/// Doomtroopers on the board: (id, square, health).
pub fn doomtroopers(view: &GameView) -> Vec<(FigureId, Square, u8)> {
    view.figures
        .iter()
        .filter(|f| matches!(f.kind, FigureKind::Doomtrooper { .. }))
        .filter_map(|f| match f.place {
            Place::Board { square } => Some((f.id, square, f.health)),
            _ => None,
        })
        .collect()
}

/// Dark Legion creatures on the board: their squares.
pub fn creature_squares(view: &GameView) -> Vec<Square> {
    view.figures
        .iter()
        .filter(|f| matches!(f.kind, FigureKind::Creature { .. }))
        .filter_map(|f| match f.place {
            Place::Board { square } => Some(square),
            _ => None,
        })
        .collect()
}

/// AI-2 style position of a square.
pub fn pos(s: Square) -> (f64, f64) {
    (f64::from(s.x), f64::from(s.y))
}
