//! Which door group an edge belongs to, by array lookup.
//!
//! `check_step` asks this for every orthogonal step the move search tries.
//! A scan of every group's edges made it a fifth of `legal()` on the
//! 3x3-tile C2M5 board, so the groups are indexed once per game, by the
//! square on the east/south side of the edge.

use citadel_grid::Edge;

const NONE: u32 = u32::MAX;

/// Door group by edge; built from [`Rules::doors`](super::state::Rules).
#[derive(Clone, Debug, Default)]
pub(crate) struct DoorIndex {
    width: i32,
    height: i32,
    /// Group of the vertical edge on a square's west side.
    west: Vec<u32>,
    /// Group of the horizontal edge on a square's north side.
    north: Vec<u32>,
    /// Edges whose east/south square lies outside the bounding box.
    outside: Vec<(Edge, usize)>,
}

impl DoorIndex {
    /// Index `doors` (group `g` holds the edges `doors[g]`) over a
    /// `width` × `height` bounding box. An edge in two groups keeps the
    /// first, as the scan it replaces did.
    pub(crate) fn new(doors: &[Vec<Edge>], width: i32, height: i32) -> DoorIndex {
        let cells = usize::try_from(width.max(0) * height.max(0)).unwrap_or(0);
        let mut index = DoorIndex {
            width,
            height,
            west: vec![NONE; cells],
            north: vec![NONE; cells],
            outside: Vec::new(),
        };
        for (g, group) in doors.iter().enumerate() {
            for &e in group {
                match index.slot(e) {
                    Some((list, i)) => {
                        let v = match list {
                            Side::West => &mut index.west[i],
                            Side::North => &mut index.north[i],
                        };
                        if *v == NONE {
                            *v = g as u32;
                        }
                    }
                    None => {
                        if !index.outside.iter().any(|(o, _)| *o == e) {
                            index.outside.push((e, g));
                        }
                    }
                }
            }
        }
        index
    }

    fn slot(&self, e: Edge) -> Option<(Side, usize)> {
        let (side, x, y) = match e {
            Edge::V { x, y } => (Side::West, x, y),
            Edge::H { x, y } => (Side::North, x, y),
        };
        if !(0..self.width).contains(&x) || !(0..self.height).contains(&y) {
            return None;
        }
        Some((side, (y * self.width + x) as usize))
    }

    /// The door group `e` belongs to.
    #[inline]
    pub(crate) fn group(&self, e: Edge) -> Option<usize> {
        let g = match self.slot(e) {
            Some((Side::West, i)) => self.west[i],
            Some((Side::North, i)) => self.north[i],
            None => return self.outside.iter().find(|(o, _)| *o == e).map(|&(_, g)| g),
        };
        (g != NONE).then_some(g as usize)
    }
}

#[derive(Clone, Copy)]
enum Side {
    West,
    North,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index answers exactly what a scan of the groups answers, for
    /// every edge in and around the box.
    #[test]
    fn the_index_agrees_with_a_scan_of_the_groups() {
        let doors = vec![
            vec![Edge::V { x: 1, y: 0 }, Edge::V { x: 1, y: 1 }],
            vec![Edge::H { x: 2, y: 3 }, Edge::V { x: 4, y: 2 }],
            vec![Edge::H { x: 0, y: 0 }, Edge::V { x: 0, y: 2 }],
            vec![Edge::V { x: 1, y: 1 }],
        ];
        let index = DoorIndex::new(&doors, 4, 3);
        let scan = |e: Edge| doors.iter().position(|g| g.contains(&e));
        let mut seen = 0;
        for x in -1..=5 {
            for y in -1..=4 {
                for e in [Edge::V { x, y }, Edge::H { x, y }] {
                    assert_eq!(index.group(e), scan(e), "{e:?}");
                    seen += usize::from(scan(e).is_some());
                }
            }
        }
        assert_eq!(seen, 6, "every door edge was asked for");
    }
}
