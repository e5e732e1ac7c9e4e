//! Move actions (core MOV-1..17, BRD-6/9, ce.md DOR): step legality,
//! reachable squares for `legal()`, and execution with doors and traps.

use super::event::{Event, Place};
use super::ids::FigureId;
use super::move_path::MovePath;
use super::rejection::Rejection;
use super::state::{FigureKind, Game};
use super::step_table::{StepKind, StepTable};
use crate::content::tables::{DoorCardKind, EquipmentEffect};
use crate::content::Specialty;
use crate::dice::Dice;
use citadel_grid::{Edge, Level, Square};
use std::ops::ControlFlow;

/// Where a step goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StepTarget {
    /// Onto an on-board square.
    Square,
    /// Across an entrance boundary, leaving the board (MOV-14).
    Exit,
}

/// Who is moving and what the step check needs to know about it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mover {
    pub id: FigureId,
    pub team: Option<u8>,
    pub phasing: bool,
    /// A captive (classic CSM card 2): it moves as a creature and may
    /// leave the board by a white entrance.
    pub captive: bool,
}

impl Game {
    pub(crate) fn mover(&self, id: FigureId) -> Mover {
        let f = &self.figures[id.index()];
        Mover {
            id,
            team: f.team(),
            phasing: f.turn.phasing
                || f.team()
                    .is_some_and(|t| self.effects.phasing_teams.contains(&t)),
            captive: self.captor(id).is_some(),
        }
    }

    /// MOV-3 allowance for a Move action starting now.
    pub(crate) fn allowance(&self, id: FigureId) -> usize {
        let f = &self.figures[id.index()];
        let mut cap = usize::MAX;
        // BASE_MOVE (classic CCO-1: Mishima 4).
        let mut base = f.team().map_or(3, |t| {
            (self.hooks().base_move)(self.teams[usize::from(t)].corporation)
        });
        if let Some(s) = f.square() {
            if f.team().is_some() {
                // MOV-4 blocking (the BLOCKING hook), MOV-3 smoke, event 10.
                let blocked = self.effects.restrained.contains(&id)
                    || (self.hooks().blocking && !self.enemies_adjacent(id, s).is_empty());
                if blocked && !f.turn.boost {
                    cap = cap.min(2);
                }
            }
            if self
                .rules
                .board
                .tile_of(s)
                .is_some_and(|t| self.tiles[t].smoke)
            {
                cap = cap.min(2);
            }
        }
        if f.turn.boost {
            base = 5;
        }
        // Classic Hurt Leg: the first Move of the round is one shorter.
        base = base.saturating_sub(self.card_hurt_leg(id));
        base.min(cap)
    }

    /// The squares a waiting figure may enter on (MOV-11).
    pub(crate) fn entry_squares(&self, id: FigureId) -> &[Square] {
        let f = &self.figures[id.index()];
        match (f.place, &f.kind) {
            (Place::Waiting { entrance }, FigureKind::Doomtrooper { .. }) => self
                .rules
                .white
                .get(usize::from(entrance))
                .map_or(&[][..], |e| &e.squares[..]),
            (Place::Waiting { entrance }, FigureKind::Creature { .. }) => self
                .rules
                .dl_entrances
                .get(usize::from(entrance))
                .map_or(&[][..], |e| &e.squares[..]),
            _ => &[],
        }
    }

    /// Is `e` a wall for this mover standing on `a` (ADJ-2 with BRD-9)?
    /// `removed` lists door groups this path has already removed.
    fn wall_for(&self, m: &Mover, a: Square, e: Edge, removed: &[usize]) -> bool {
        if self.walls.is_static_wall(e) {
            return true;
        }
        match self.door_of_edge(e) {
            Some(g) => {
                !removed.contains(&g) && !self.door_open(g, m.team.is_none().then_some((m.id, a)))
            }
            // Classic Remote Controlled Door: a wall for everyone.
            None => !self.card_doors.is_empty() && self.is_card_door(e),
        }
    }

    fn wall_between(&self, m: &Mover, at: Square, p: Square, q: Square, removed: &[usize]) -> bool {
        Edge::between(p, q).is_some_and(|e| self.wall_for(m, at, e, removed))
    }

    /// The step `a → b` as [`Self::check_step`] would answer it with no
    /// door group removed, given the board's answer `kind` for it (see
    /// [`StepTable`]): `Some(true)` legal crossing no door, `Some(false)`
    /// illegal, `None` when only the full check can tell (a door edge, a
    /// Remote Controlled Door near the step, a phasing mover). The game is
    /// asked only about what stands on `b`.
    pub(crate) fn quick_step(
        &self,
        m: &Mover,
        kind: StepKind,
        a: Square,
        b: Square,
    ) -> Option<bool> {
        if m.phasing {
            return None;
        }
        match kind {
            // A Remote Controlled Door only ever adds a wall.
            StepKind::Blocked => Some(false),
            StepKind::Door => None,
            StepKind::Open => {
                if self.card_doors.iter().any(|&d| door_touches_step(d, a, b)) {
                    return None;
                }
                Some(self.target_blocks(m, b).is_none())
            }
        }
    }

    /// What stands on `b` that stops `m` stepping there: a blocking token,
    /// an enemy, or a team that does not let it pass (MOV-2, MOV-6).
    pub(crate) fn target_blocks(&self, m: &Mover, b: Square) -> Option<Rejection> {
        if self.token_at(b).is_some_and(|t| t.kind.blocking()) {
            return Some(Rejection::Impassable);
        }
        let other = self.figure_at(b).filter(|o| *o != m.id)?;
        self.figure_in_the_way(m, other)
    }

    /// Does figure `other`, standing where `m` would step, stop it (MOV-2,
    /// MOV-6)?
    pub(crate) fn figure_in_the_way(&self, m: &Mover, other: FigureId) -> Option<Rejection> {
        match (m.team, self.figures[other.index()].team()) {
            (None, None) => None,
            (Some(_), None) | (None, Some(_)) => Some(Rejection::EnemyInTheWay),
            (Some(mine), Some(theirs)) => (mine != theirs
                && !self.teams[usize::from(theirs)].allow_pass)
                .then_some(Rejection::CannotPassThrough),
        }
    }

    /// MOV-2 for one on-board step `a → b`, the path so far having removed
    /// door groups `removed`. Returns the door group crossed, if any.
    pub(crate) fn check_step(
        &self,
        m: &Mover,
        a: Square,
        b: Square,
        removed: &[usize],
    ) -> Result<Option<usize>, Rejection> {
        let board = &self.rules.board;
        if !a.is_neighbour8(b) {
            return Err(Rejection::IllegalStep);
        }
        if !board.on_board(b) {
            return Err(Rejection::OffBoard);
        }
        if !board.passable(b) {
            return Err(Rejection::Impassable);
        }
        if let Some(r) = self.target_blocks(m, b) {
            return Err(r);
        }
        if let (Some(la), Some(lb)) = (board.level(a), board.level(b)) {
            if level_rank(la).abs_diff(level_rank(lb)) > 1 {
                return Err(Rejection::LevelChange);
            }
        }
        if m.phasing {
            return Ok(self.crossed_door(a, b));
        }
        if a.is_orthogonal_neighbour(b) {
            let Some(e) = Edge::between(a, b) else {
                return Err(Rejection::IllegalStep);
            };
            // Classic Remote Controlled Door: a wall for everyone.
            if self.walls.is_static_wall(e) || (!self.card_doors.is_empty() && self.is_card_door(e))
            {
                return Err(Rejection::IllegalStep);
            }
            let door = self.door_of_edge(e).filter(|g| !removed.contains(g));
            if let Some(g) = door {
                let open = self.door_open(g, m.team.is_none().then_some((m.id, a)));
                // MOV-2 (1): a DT may cross a closed door edge orthogonally.
                if !open && m.team.is_none() {
                    return Err(Rejection::IllegalStep);
                }
            }
            return Ok(door);
        }
        // Diagonal: ADJ-3 with the closed doors of this moment.
        if corner_routes_closed(a, b, |p, q| self.wall_between(m, a, p, q, removed)) {
            return Err(Rejection::IllegalStep);
        }
        Ok(self.crossed_door(a, b).filter(|g| !removed.contains(g)))
    }

    /// Is the step `a → b` walled off, on a board with no door
    /// edges (where a Remote Controlled Door is the only wall that comes
    /// and goes)? The wall part of [`Self::check_step`] for such a board
    /// (ADJ-2, ADJ-3): an orthogonal step is closed by its edge, a
    /// diagonal when both corner routes are.
    pub(crate) fn step_walled(&self, a: Square, b: Square) -> bool {
        // `wall_for` less its door lookup, which finds nothing here.
        let w = |p, q| {
            Edge::between(p, q)
                .is_some_and(|e| self.walls.is_static_wall(e) || self.is_card_door(e))
        };
        if a.is_orthogonal_neighbour(b) {
            return w(a, b);
        }
        corner_routes_closed(a, b, w)
    }

    /// BRD-9: the door group a step crosses, if any.
    fn crossed_door(&self, a: Square, b: Square) -> Option<usize> {
        if let Some(e) = Edge::between(a, b) {
            return self.door_of_edge(e);
        }
        // A diagonal crosses a group when the group holds an edge of each
        // of the two corner routes (a-c-b and a-d-b); the lowest such group.
        let c = Square::new(b.x, a.y);
        let d = Square::new(a.x, b.y);
        let group = |p: Square, q: Square| Edge::between(p, q).and_then(|e| self.door_of_edge(e));
        let (via_c, via_d) = ([group(a, c), group(c, b)], [group(a, d), group(d, b)]);
        via_c
            .into_iter()
            .flatten()
            .filter(|g| via_d.contains(&Some(*g)))
            .min()
    }

    /// MOV-7: may a move end on `s` (the mover itself aside)?
    pub(crate) fn may_end_on(&self, id: FigureId, s: Square) -> bool {
        self.rules.board.passable(s)
            && self.figure_at(s).is_none_or(|f| f == id)
            && self.token_at(s).is_none()
    }

    /// The exit step from an entry square, if `b` is the square beyond its
    /// boundary edge (MOV-14).
    pub(crate) fn is_exit_step(&self, a: Square, b: Square) -> bool {
        self.rules
            .white
            .iter()
            .chain(&self.rules.red)
            .chain(&self.rules.exits)
            .flat_map(|e| e.outside.iter())
            .any(|(inside, outside)| *inside == a && *outside == b)
    }

    /// The exit step of a captive (classic CSM card 2): from a white
    /// entrance's entry square to the square beyond its boundary edge.
    fn is_white_exit_step(&self, a: Square, b: Square) -> bool {
        self.rules
            .white
            .iter()
            .flat_map(|e| e.outside.iter())
            .any(|(inside, outside)| *inside == a && *outside == b)
    }

    /// Check a whole Move path statically (MOV-1): every step, the end
    /// square and the allowance. Returns the step targets.
    pub(crate) fn check_path(
        &self,
        id: FigureId,
        path: &[Square],
    ) -> Result<Vec<StepTarget>, Rejection> {
        let f = &self.figures[id.index()];
        if path.is_empty() {
            return Err(Rejection::EmptyPath);
        }
        if path.len() > self.allowance(id) {
            return Err(Rejection::PathTooLong);
        }
        let m = self.mover(id);
        let mut targets = Vec::with_capacity(path.len());
        let mut removed: Vec<usize> = Vec::new();
        let mut visited: Vec<Square> = Vec::with_capacity(path.len() + 1);
        let mut at = match f.place {
            Place::Board { square } => square,
            Place::Waiting { .. } => {
                let first = path[0];
                if !self.entry_squares(id).contains(&first)
                    || self.figure_at(first).is_some()
                    || !self.rules.board.passable(first)
                {
                    return Err(Rejection::NotAnEntrySquare);
                }
                visited.push(first);
                targets.push(StepTarget::Square);
                first
            }
            _ => return Err(Rejection::FigureNotOnBoard),
        };
        if f.square().is_some() {
            visited.push(at);
        }
        let start = if f.square().is_some() { 0 } else { 1 };
        for (i, &b) in path.iter().enumerate().skip(start) {
            let exit = if m.captive {
                self.is_white_exit_step(at, b)
            } else {
                m.team.is_some() && self.is_exit_step(at, b)
            };
            if exit {
                if i + 1 != path.len() {
                    return Err(Rejection::ExitNotLast);
                }
                targets.push(StepTarget::Exit);
                return Ok(targets);
            }
            if visited.contains(&b) {
                return Err(Rejection::RevisitsSquare);
            }
            if let Some(g) = self.check_step(&m, at, b, &removed)? {
                if m.team.is_some() {
                    removed.push(g);
                }
            }
            visited.push(b);
            targets.push(StepTarget::Square);
            at = b;
        }
        if !self.may_end_on(id, at) {
            return Err(if self.figure_at(at).is_some_and(|o| o != id) {
                Rejection::EndSquareOccupied
            } else {
                Rejection::EndSquareHasToken
            });
        }
        Ok(targets)
    }

    /// Every square a Move of `id` may end on, with one shortest legal
    /// path to it, plus exits, for the options of a decision (a 1993
    /// card's Move). Always the node search: a decision's answer must be
    /// one of its options exactly, path included, and stored games hold
    /// the paths this search lists.
    pub(crate) fn reachable(&self, id: FigureId) -> Vec<MovePath> {
        let mut out = Vec::with_capacity(64);
        let _ = self.node_search(&self.mover(id), self.allowance(id), |path| {
            out.push(path);
            ControlFlow::Continue(())
        });
        out
    }

    /// Every square a Move action of `id` may end on, with one shortest
    /// legal path to it, plus exits, each handed to `found` as it is found
    /// (`legal()` turns them into commands without a list in between).
    /// A Move action is accepted along any legal path, so the faster
    /// search may choose among paths of the same length.
    pub(crate) fn reachable_each(&self, id: FigureId, mut found: impl FnMut(MovePath)) {
        let _ = self.move_search(id, |path| {
            found(path);
            ControlFlow::Continue(())
        });
    }

    /// Has `id` anywhere to move? ([`Self::reachable`] not empty, without
    /// searching on after the first destination.)
    pub(crate) fn can_move(&self, id: FigureId) -> bool {
        self.move_search(id, |_| ControlFlow::Break(())).is_break()
    }

    /// The search behind [`Self::reachable`]: each destination's path goes
    /// to `found`, until it answers `Break`. The row search where it
    /// applies (every 1993 board), else the node search; both find the
    /// same destinations with paths of the same length.
    fn move_search(
        &self,
        id: FigureId,
        mut found: impl FnMut(MovePath) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let allowance = self.allowance(id);
        let m = self.mover(id);
        if let Some(flow) = self.row_search(&m, allowance, &mut found) {
            return flow;
        }
        self.node_search(&m, allowance, found)
    }

    /// [`Self::move_search`] one node (square) at a time: any board, any
    /// mover. Every destination is listed once, in breadth-first order.
    pub(crate) fn node_search(
        &self,
        m: &Mover,
        allowance: usize,
        mut found: impl FnMut(MovePath) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let id = m.id;
        let m = *m;
        let f = &self.figures[id.index()];
        let board = &self.rules.board;
        // BFS nodes live in `nodes`: square, its board index, parent node,
        // depth (path length), and the door group removed on the way in (a
        // DT removes at most one per step). A square is visited once,
        // flagged by its board index in a bit set, so the search is linear
        // in the reachable area. Nothing is allocated per node: this
        // search is most of `legal()`, run for every figure that may act on
        // every call.
        const ROOT: u32 = u32::MAX;
        const NO_DOOR: u32 = u32::MAX;
        #[derive(Clone, Copy)]
        struct Node {
            at: Square,
            index: u32,
            parent: u32,
            removed: u32,
            depth: u16,
        }
        let cells = usize::try_from(board.width() * board.height()).unwrap_or(0);
        // The seen set on the stack for any board up to 64 x 64 squares.
        let mut seen_stack = [0u64; 64];
        let mut seen_heap = Vec::new();
        let words = cells.div_ceil(64);
        let seen: &mut [u64] = if words <= seen_stack.len() {
            &mut seen_stack[..words]
        } else {
            seen_heap.resize(words, 0);
            &mut seen_heap
        };
        let is_seen = |seen: &[u64], i: usize| seen[i / 64] & (1 << (i % 64)) != 0;
        let mark = |seen: &mut [u64], i: usize| seen[i / 64] |= 1 << (i % 64);
        let mut nodes: Vec<Node> = Vec::with_capacity(128);
        let node = |at: Square, index: usize, parent: u32, depth: usize, removed: u32| Node {
            at,
            index: index as u32,
            parent,
            removed,
            depth: depth as u16,
        };
        match f.place {
            Place::Board { square } => {
                let Some(i) = board.index(square) else {
                    return ControlFlow::Continue(());
                };
                mark(seen, i);
                nodes.push(node(square, i, ROOT, 0, NO_DOOR));
            }
            Place::Waiting { .. } => {
                if allowance == 0 {
                    return ControlFlow::Continue(());
                }
                for &s in self.entry_squares(id) {
                    if self.figure_at(s).is_none() && board.passable(s) {
                        if let Some(i) = board.index(s) {
                            mark(seen, i);
                            nodes.push(node(s, i, ROOT, 1, NO_DOOR));
                        }
                    }
                }
            }
            _ => return ControlFlow::Continue(()),
        }
        // The path to node `i` (its squares after the start), plus `extra`.
        let path_to = |nodes: &[Node], i: usize, extra: Option<Square>| {
            let mut k = i;
            MovePath::read_back(usize::from(nodes[i].depth), extra, || {
                let at = nodes[k].at;
                k = nodes[k].parent as usize;
                at
            })
        };
        let mut removed: Vec<usize> = Vec::new();
        let mut any_removed = false;
        let table = &self.rules.step_table;
        let width = board.width();
        let mut next = 0;
        while next < nodes.len() {
            let Node {
                at, index, depth, ..
            } = nodes[next];
            let depth = usize::from(depth);
            // `may_end_on` but for passability: every node was entered by a
            // legal step or is a passable entry square.
            if depth > 0
                && self.occupancy[index as usize].is_none_or(|f| f == id)
                && self.token_at(at).is_none()
            {
                found(path_to(&nodes, next, None))?;
            }
            if depth >= allowance {
                next += 1;
                continue;
            }
            if m.team.is_some() || m.captive {
                let exits: &[_] = if m.captive {
                    &[&self.rules.white]
                } else {
                    &[&self.rules.white, &self.rules.red, &self.rules.exits]
                };
                for e in exits.iter().flat_map(|list| list.iter()) {
                    for (inside, outside) in &e.outside {
                        if *inside == at {
                            found(path_to(&nodes, next, Some(*outside)))?;
                        }
                    }
                }
            }
            // Doors this path removed so far (rarely any).
            removed.clear();
            if any_removed {
                let mut k = next as u32;
                while k != ROOT {
                    let n = &nodes[k as usize];
                    if n.removed != NO_DOOR {
                        removed.push(n.removed as usize);
                    }
                    k = n.parent;
                }
            }
            let row = table.row(index as usize);
            for (k, b) in at.ring().into_iter().enumerate() {
                // Most steps the board forbids outright: skip them first.
                // Any other step's target is on the board, inside the
                // bounding box, so its index needs no look at the cells.
                let kind = StepTable::kind(row, k);
                let ib = if m.phasing {
                    board.index(b)
                } else if kind == StepKind::Blocked {
                    continue;
                } else {
                    usize::try_from(b.y * width + b.x).ok()
                };
                let Some(ib) = ib.filter(|&i| !is_seen(seen, i)) else {
                    continue;
                };
                // The board's answer first; the full check only where a
                // door (or a Remote Controlled Door, or phasing) is
                // involved. Both give the same answer (step_table.rs).
                let step = match self.quick_step(&m, kind, at, b) {
                    Some(true) => Ok(None),
                    Some(false) => continue,
                    None => self.check_step(&m, at, b, &removed),
                };
                if let Ok(door) = step {
                    any_removed |= door.is_some() && m.team.is_some();
                    mark(seen, ib);
                    let door = door
                        .filter(|_| m.team.is_some())
                        .map_or(NO_DOOR, |g| g as u32);
                    nodes.push(node(b, ib, next as u32, depth + 1, door));
                }
            }
            next += 1;
        }
        ControlFlow::Continue(())
    }

    /// Execute a checked Move action (MOV-10). Returns the final square.
    pub(crate) fn execute_move(
        &mut self,
        id: FigureId,
        path: &[Square],
        targets: &[StepTarget],
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let start = self.figures[id.index()].place;
        let mut walked: Vec<Square> = Vec::new();
        let is_dt = self.figures[id.index()].team().is_some();
        let mut ended_early = false;
        for (&b, &target) in path.iter().zip(targets) {
            let from = self.figures[id.index()].square();
            if target == StepTarget::Exit && self.captor(id).is_some() {
                // Classic CSM card 2: the captive is out (no DT exit).
                self.captive_left(id);
                self.set_place(id, Place::Exited);
                events.push(Event::Exited { figure: id });
                return;
            }
            if target == StepTarget::Exit {
                self.note_exit(id, from);
                let exit = from.and_then(|a| self.exit_id(a, b)).unwrap_or_default();
                self.record_exit(id, exit, events);
                self.set_place(id, Place::Exited);
                events.push(Event::Exited { figure: id });
                self.after_dt_out(id, events);
                return;
            }
            // Door crossing is decided before the step (BRD-9).
            let crossed = from.and_then(|a| self.crossed_door(a, b));
            self.set_place(id, Place::Board { square: b });
            events.push(Event::Stepped {
                figure: id,
                from,
                to: b,
            });
            walked.push(b);
            if let (true, Some(g)) = (is_dt, crossed) {
                if !self.door_removed[g] {
                    self.door_removed[g] = true;
                    self.update_doors();
                    events.push(Event::DoorRemoved { door: g });
                    if !self.door_hacker(id) {
                        match self.door_card(dice, events) {
                            DoorCardKind::AllClear => {}
                            DoorCardKind::ShockTrap => {
                                self.trap_attack(id, None, dice, events);
                            }
                            DoorCardKind::Alarm => self.alarm(dice, events),
                            DoorCardKind::JammedLock => ended_early = true,
                        }
                    }
                }
            }
            if !self.figures[id.index()].in_play() {
                return;
            }
            if self.token_at(b).is_some_and(|t| t.kind.is_trap()) {
                let owner = match self.token_at(b).map(|t| &t.kind) {
                    Some(super::state::TokenState::Trap { owner }) => *owner,
                    _ => None,
                };
                self.trap_attack(id, owner, dice, events);
                if !self.figures[id.index()].in_play() {
                    return;
                }
            }
            if ended_early {
                break;
            }
        }
        // MOV-17: a move cut short where it may not end goes back.
        if let Some(at) = self.figures[id.index()].square() {
            if !self.may_end_on(id, at) {
                let back = walked
                    .iter()
                    .rev()
                    .skip(1)
                    .find(|s| self.may_end_on(id, **s))
                    .copied();
                match back {
                    Some(s) => {
                        self.set_place(id, Place::Board { square: s });
                        events.push(Event::MovedBack {
                            figure: id,
                            to: Some(s),
                        });
                    }
                    None => {
                        self.set_place(id, start);
                        events.push(Event::MovedBack {
                            figure: id,
                            to: start_square(start),
                        });
                    }
                }
            }
        }
        if let Some(at) = self.figures[id.index()].square() {
            if is_dt {
                self.force_reveal_on_entry(id, at, dice, events);
                // TAC-1: charge eligibility (the tactics hook).
                if self.hooks().tactics
                    && self.figures[id.index()].specialty() == Some(Specialty::CloseCombat)
                {
                    let adj = self.enemies_adjacent(id, at);
                    self.figures[id.index()].turn.charge = adj;
                }
            }
        }
    }

    /// TAC-5 / DOR-1: a TE Specialist or a Security Download carrier
    /// draws no door card.
    fn door_hacker(&self, id: FigureId) -> bool {
        let f = &self.figures[id.index()];
        f.specialty() == Some(Specialty::Tech)
            || f.items.iter().any(|&i| {
                self.rules.tables.equipment_def(i).effect == EquipmentEffect::SecurityDownload
            })
    }

    /// DOR-2: the edition's door card, revealed; an edition without door
    /// cards opens every door as if "all clear" were drawn, with no event.
    fn door_card(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) -> DoorCardKind {
        match self.edition.rules_mut().door_card(dice) {
            Some(card) => {
                events.push(Event::DoorCard { card });
                card
            }
            None => DoorCardKind::AllClear,
        }
    }
}

fn start_square(p: Place) -> Option<Square> {
    match p {
        Place::Board { square } => Some(square),
        _ => None,
    }
}

/// Order of levels L–S1–S2–S3–U (MOV-2 (5)).
pub(crate) fn level_rank(l: Level) -> u8 {
    match l {
        Level::Lower => 0,
        Level::S1 => 1,
        Level::S2 => 2,
        Level::S3 => 3,
        Level::Upper => 4,
    }
}

/// ADJ-3: a diagonal step `a → b` is closed when both routes round its
/// corner (by `(b.x, a.y)` and by `(a.x, b.y)`) cross a wall, as `wall`
/// says for the edge between two squares.
#[inline]
fn corner_routes_closed(a: Square, b: Square, wall: impl Fn(Square, Square) -> bool) -> bool {
    let c = Square::new(b.x, a.y);
    let d = Square::new(a.x, b.y);
    (wall(a, c) || wall(c, b)) && (wall(a, d) || wall(d, b))
}

/// Can the door edge between the two squares of `door` touch the step
/// `a → b`? Only if both lie in the block of squares the step spans (the
/// step's own edge, or for a diagonal its 2x2 block).
#[inline]
pub(crate) fn door_touches_step(door: [Square; 2], a: Square, b: Square) -> bool {
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    door.iter()
        .all(|s| (x0..=x1).contains(&s.x) && (y0..=y1).contains(&s.y))
}
