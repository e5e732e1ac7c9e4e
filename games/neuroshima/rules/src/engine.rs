//! The rules: turns, tiles, nets, modules and battles.

use crate::data::{Ability, Army, Bonus, Class, Effect, Kind};
use crate::types::*;
use citadel_hex::{edge_of_world, world_of_edge, Board19, Dir, Hex, HEXES};

/// Hexes on the board.
pub const N: usize = 19;
/// An HQ's hit points (NSH-TILE-3).
pub const HQ_HP: u8 = 20;

/// The dense index of a hex on the board.
pub fn idx(h: Hex) -> Option<usize> {
    Board19::index(h)
}

/// Per-hex effects of nets and modules at one moment (NSH-NET-3,
/// NSH-MOD).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ctx {
    /// Netted tiles.
    pub netted: [bool; N],
    /// `+1 melee` bonuses.
    pub melee: [u8; N],
    /// `+1 ranged` bonuses.
    pub ranged: [u8; N],
    /// `+1 initiative` bonuses.
    pub init: [u8; N],
    /// Extra initiative sources.
    pub extra: [u8; N],
    /// Medic connections: (Medic hex, connected tile hex).
    pub medic_links: Vec<(u8, u8)>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Label {
    Unknown,
    Free,
    Netted,
}

/// One Neuroshima Hex game.
#[derive(Clone, Debug)]
pub struct NeuroshimaGame {
    /// The state (serde: the checksum's input).
    pub state: State,
    /// The seats' armies.
    pub armies: [&'static Army; 2],
}

impl NeuroshimaGame {
    /// The kind of a tile.
    pub fn kind(&self, t: TileId) -> &'static Kind {
        let army: &'static Army = self.armies[usize::from(t.seat & 1)];
        &army.kinds[usize::from(t.kind)]
    }

    fn kind_checked(&self, t: TileId) -> Option<&'static Kind> {
        let army: &'static Army = self.armies.get(usize::from(t.seat))?;
        army.kinds.get(usize::from(t.kind))
    }

    /// The tile on a hex.
    pub fn at(&self, h: Hex) -> Option<Placed> {
        idx(h).and_then(|i| self.state.board[i])
    }

    /// Is the board full (NSH-TRN-8)?
    pub fn board_full(&self) -> bool {
        self.state.board.iter().all(Option::is_some)
    }

    /// HQ HP per seat (NSH-CONV-6): an HQ not on the board after it was
    /// placed has 0.
    pub fn hq_hp(&self) -> [u8; 2] {
        let mut out = [0u8; 2];
        for (s, slot) in out.iter_mut().enumerate() {
            if !self.state.players[s].hq_placed {
                *slot = HQ_HP;
                continue;
            }
            *slot = self
                .state
                .board
                .iter()
                .flatten()
                .find(|p| usize::from(p.tile.seat) == s && self.kind(p.tile).class == Class::Hq)
                .map_or(0, |p| HQ_HP.saturating_sub(p.damage));
        }
        out
    }

    fn hq_index(&self, seat: u8) -> Option<usize> {
        self.state.board.iter().position(|p| {
            p.is_some_and(|p| p.tile.seat == seat && self.kind(p.tile).class == Class::Hq)
        })
    }

    // ----- nets and modules -------------------------------------------

    /// Nets and module effects of the current board.
    pub fn ctx(&self) -> Ctx {
        let board = &self.state.board;
        // (1) net lines.
        let mut lines: Vec<(usize, usize)> = Vec::new();
        let mut is_netter = [false; N];
        for (i, p) in board.iter().enumerate() {
            let Some(p) = p else { continue };
            let k = self.kind(p.tile);
            if !k.is_netter() {
                continue;
            }
            is_netter[i] = true;
            for (e, edge) in k.edges.iter().enumerate() {
                if !edge.net {
                    continue;
                }
                let w = world_of_edge(e as u8, p.rot);
                if let Some(j) = idx(HEXES[i].neighbour(w)) {
                    if board[j].is_some_and(|u| u.tile.seat != p.tile.seat) {
                        lines.push((i, j));
                    }
                }
            }
        }
        let mut netted = [false; N];
        if !lines.is_empty() {
            let mut label = [Label::Unknown; N];
            let mut mutual: Vec<(usize, usize)> = Vec::new();
            // (2) mutual pairs.
            for &(v, u) in &lines {
                if lines.contains(&(u, v)) {
                    label[v] = Label::Netted;
                    label[u] = Label::Netted;
                    mutual.push((v, u));
                }
            }
            // (3) and (4) until settled.
            loop {
                let mut changed = true;
                while changed {
                    changed = false;
                    for v in 0..N {
                        if !is_netter[v] || label[v] != Label::Unknown {
                            continue;
                        }
                        let into = lines.iter().filter(|l| l.1 == v);
                        let mut any_free = false;
                        let mut all_netted = true;
                        for &(from, _) in into {
                            match label[from] {
                                Label::Free => any_free = true,
                                Label::Netted => {}
                                Label::Unknown => all_netted = false,
                            }
                        }
                        if any_free {
                            label[v] = Label::Netted;
                            changed = true;
                        } else if all_netted {
                            label[v] = Label::Free;
                            changed = true;
                        }
                    }
                }
                let unknown: Vec<usize> = (0..N)
                    .filter(|v| is_netter[*v] && label[*v] == Label::Unknown)
                    .collect();
                if unknown.is_empty() {
                    break;
                }
                // (4) unknown netters on a cycle of unknown lines.
                let mut on_cycle = Vec::new();
                for &start in &unknown {
                    let mut seen = [false; N];
                    let mut stack = vec![start];
                    let mut found = false;
                    while let Some(x) = stack.pop() {
                        for &(a, b) in &lines {
                            if a == x && label[b] == Label::Unknown && is_netter[b] {
                                if b == start {
                                    found = true;
                                }
                                if !seen[b] {
                                    seen[b] = true;
                                    stack.push(b);
                                }
                            }
                        }
                    }
                    if found {
                        on_cycle.push(start);
                    }
                }
                if on_cycle.is_empty() {
                    // Cannot happen with a finite board (D11); settle as free.
                    for v in unknown {
                        label[v] = Label::Free;
                    }
                    break;
                }
                for v in on_cycle {
                    label[v] = Label::Netted;
                }
            }
            // (5) effective lines.
            for v in 0..N {
                if is_netter[v] && label[v] == Label::Netted {
                    netted[v] = true;
                }
            }
            for &(v, u) in &lines {
                if label[v] == Label::Free || mutual.contains(&(v, u)) {
                    netted[u] = true;
                }
            }
        }
        let mut ctx = Ctx {
            netted,
            melee: [0; N],
            ranged: [0; N],
            init: [0; N],
            extra: [0; N],
            medic_links: Vec::new(),
        };
        // Modules (NSH-MOD-1..4).
        for (i, p) in board.iter().enumerate() {
            let Some(p) = p else { continue };
            let k = self.kind(p.tile);
            if !k.is_linker() || ctx.netted[i] {
                continue;
            }
            for (e, edge) in k.edges.iter().enumerate() {
                if edge.link == 0 {
                    continue;
                }
                let w = world_of_edge(e as u8, p.rot);
                for n in 1..=edge.link {
                    let Some(j) = idx(HEXES[i].step(w, n as i8)) else {
                        break;
                    };
                    let Some(u) = board[j] else { continue };
                    if u.tile.seat != p.tile.seat || j == i {
                        continue;
                    }
                    for b in &k.bonus {
                        match b {
                            Bonus::Melee => ctx.melee[j] += 1,
                            Bonus::Ranged => ctx.ranged[j] += 1,
                            Bonus::Initiative => ctx.init[j] += 1,
                            Bonus::ExtraInitiative => ctx.extra[j] += 1,
                            Bonus::Medic => ctx.medic_links.push((i as u8, j as u8)),
                        }
                    }
                }
            }
        }
        ctx
    }

    /// Slot values of the tile on hex `i` (NSH-BAT-4): base values in
    /// printed order, then extra slots (`None`: no value).
    pub fn slot_values(&self, i: usize, ctx: &Ctx) -> (Vec<u8>, Vec<Option<u8>>) {
        let Some(p) = self.state.board[i] else {
            return (Vec::new(), Vec::new());
        };
        let k = self.kind(p.tile);
        if k.init.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let base: Vec<u8> = k
            .init
            .iter()
            .map(|v| v.saturating_add(ctx.init[i]))
            .collect();
        let max = base.iter().copied().max().unwrap_or(0);
        let mut given: Vec<u8> = Vec::new();
        let mut extra = Vec::new();
        for _ in 0..ctx.extra[i] {
            let v = (0..max)
                .rev()
                .find(|v| !base.contains(v) && !given.contains(v));
            if let Some(v) = v {
                given.push(v);
            }
            extra.push(v);
        }
        (base, extra)
    }

    // ----- battles ----------------------------------------------------

    /// Begin a battle (NSH-BAT-1, 2): the slots and the first phase.
    pub(crate) fn start_battle(&mut self, cause: Cause, ev: &mut Vec<Event>) {
        let ctx = self.ctx();
        let mut slots = Vec::new();
        let mut top = 0u8;
        for i in 0..N {
            let Some(p) = self.state.board[i] else {
                continue;
            };
            let (base, extra) = self.slot_values(i, &ctx);
            if base.is_empty() {
                continue;
            }
            top = top.max(
                base.iter()
                    .copied()
                    .chain(extra.iter().flatten().copied())
                    .max()
                    .unwrap_or(0),
            );
            slots.push(Slots {
                tile: p.tile,
                base: vec![SlotFate::Ready; base.len()],
                extra: Vec::new(),
            });
        }
        ev.push(Event::BattleStarted {
            cause,
            from_phase: top,
        });
        self.state.battle = Some(BattleState {
            cause,
            phase: top,
            slots,
            clown: [None, None],
            medic: [None, None],
            waiting: Vec::new(),
            hits: Vec::new(),
            changed: false,
        });
        self.state.stage = Stage::Battle;
    }

    /// Run battles (and what follows them) until one waits for an answer
    /// or none is left. `auto`: answer every choice with its default.
    pub(crate) fn drive(&mut self, auto: bool, ev: &mut Vec<Event>) {
        while self.state.battle.is_some() {
            if !self.step_battle(auto, false, ev) {
                return;
            }
        }
    }

    /// Fight one battle now with default answers, without anything that
    /// follows it (turn end, end of game): the bot's look-ahead and the
    /// worked examples' harness.
    pub fn fight(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        let stage = self.state.stage.clone();
        self.start_battle(Cause::Tile, &mut ev);
        while self.state.battle.is_some() {
            self.step_battle(true, true, &mut ev);
        }
        self.state.stage = stage;
        ev
    }

    /// Run the current battle's phases. Returns false when it waits.
    fn step_battle(&mut self, auto: bool, detached: bool, ev: &mut Vec<Event>) -> bool {
        loop {
            let Some(mut bs) = self.state.battle.take() else {
                return true;
            };
            match self.run_phase(&mut bs, auto) {
                None => {
                    ev.push(Event::Awaiting {
                        seats: bs.waiting.clone(),
                    });
                    self.state.battle = Some(bs);
                    self.state.stage = Stage::Battle;
                    return false;
                }
                Some(report) => {
                    ev.push(Event::Phase(report));
                    bs.clown = [None, None];
                    bs.medic = [None, None];
                    bs.waiting.clear();
                    bs.hits.clear();
                    if bs.phase == 0 {
                        if !detached {
                            self.after_battle(bs.cause, bs.changed, ev);
                        }
                        return true;
                    }
                    bs.phase -= 1;
                    self.state.battle = Some(bs);
                }
            }
        }
    }

    /// One phase; `None` when an answer is awaited (nothing changed then).
    fn run_phase(&mut self, bs: &mut BattleState, auto: bool) -> Option<PhaseReport> {
        let p = bs.phase;
        let ctx = self.ctx();
        // Slot values and who acts (NSH-BAT-3..5).
        let mut values: Vec<(usize, Vec<u8>, Vec<Option<u8>>)> = Vec::new();
        let mut acting: Vec<usize> = Vec::new();
        for (si, rec) in bs.slots.iter_mut().enumerate() {
            let Some(i) = self
                .state
                .board
                .iter()
                .position(|q| q.is_some_and(|q| q.tile == rec.tile))
            else {
                continue;
            };
            let (base, extra) = self.slot_values(i, &ctx);
            if rec.extra.len() < extra.len() {
                rec.extra.resize(extra.len(), SlotFate::Ready);
            }
            let acts = !ctx.netted[i]
                && (base
                    .iter()
                    .zip(&rec.base)
                    .any(|(v, f)| *v == p && *f == SlotFate::Ready)
                    || extra
                        .iter()
                        .zip(&rec.extra)
                        .any(|(v, f)| *v == Some(p) && *f == SlotFate::Ready));
            if acts {
                acting.push(si);
            }
            values.push((si, base, extra));
        }
        let acting_hex: Vec<usize> = acting
            .iter()
            .filter_map(|si| {
                let t = bs.slots[*si].tile;
                self.state
                    .board
                    .iter()
                    .position(|q| q.is_some_and(|q| q.tile == t))
            })
            .collect();
        // Clown question (NSH-MOL-2).
        let mut clown_at: Vec<usize> = Vec::new();
        for &i in &acting_hex {
            if let Some(pl) = self.state.board[i] {
                if self.kind(pl.tile).ability == Some(Ability::Explode) {
                    clown_at.push(i);
                }
            }
        }
        let mut waiting: Vec<u8> = Vec::new();
        for &i in &clown_at {
            if let Some(pl) = self.state.board[i] {
                let s = usize::from(pl.tile.seat);
                if bs.clown[s].is_none() {
                    if auto {
                        bs.clown[s] = Some(false);
                    } else if !waiting.contains(&pl.tile.seat) {
                        waiting.push(pl.tile.seat);
                    }
                }
            }
        }
        if !waiting.is_empty() {
            bs.waiting = waiting;
            return None;
        }
        let exploding: Vec<usize> = clown_at
            .iter()
            .copied()
            .filter(|i| {
                self.state.board[*i]
                    .is_some_and(|pl| bs.clown[usize::from(pl.tile.seat)] == Some(true))
            })
            .collect();
        // Attack rounds (NSH-BAT-7..12).
        let mut hits: Vec<HitReport> = Vec::new();
        let mut traces: Vec<Trace> = Vec::new();
        let mut acting_ids: Vec<TileId> = Vec::new();
        for &i in &acting_hex {
            let Some(pl) = self.state.board[i] else {
                continue;
            };
            acting_ids.push(pl.tile);
            if exploding.contains(&i) {
                continue;
            }
            self.attack_round(i, &ctx, &mut hits, &mut traces);
        }
        // (1) Clown shrapnel.
        let mut explosions: Vec<TileId> = Vec::new();
        for &i in &exploding {
            if let Some(pl) = self.state.board[i] {
                explosions.push(pl.tile);
                self.shrapnel(i, false, &mut hits);
            }
        }
        // (2) Traps.
        let mut scanned = 0;
        let mut exploded_traps: Vec<usize> = Vec::new();
        while scanned < hits.len() {
            let h = hits[scanned];
            scanned += 1;
            let Some(ti) = idx(h.hex) else { continue };
            let Some(tp) = self.state.board[ti] else {
                continue;
            };
            let k = self.kind(tp.tile);
            let from_enemy = h.source.is_some_and(|s| s.seat != tp.tile.seat);
            if k.is_trap()
                && !ctx.netted[ti]
                && from_enemy
                && h.kind != HitKind::Bomb
                && k.edges[usize::from(h.arrival % 6)].trap
                && !exploded_traps.contains(&ti)
            {
                exploded_traps.push(ti);
                explosions.push(tp.tile);
                self.shrapnel(ti, true, &mut hits);
            }
        }
        // Hit order (NSH-BAT-12): source id, then source edge; stable.
        hits.sort_by_key(|h| (h.source, h.edge));
        // (3) Medics.
        let mut cancels = Vec::new();
        let mut used_medics: Vec<TileId> = Vec::new();
        let mut plans: [Option<Vec<MedicStep>>; 2] = [None, None];
        for s in 0..2u8 {
            if let Some(plan) = &bs.medic[usize::from(s)] {
                plans[usize::from(s)] = Some(plan.clone());
                continue;
            }
            let options = self.medic_plans(s, &hits, &ctx, 2);
            if options.len() > 1 && !auto {
                waiting.push(s);
            } else {
                plans[usize::from(s)] = Some(self.default_medic_plan(s, &hits, &ctx));
            }
        }
        if !waiting.is_empty() {
            bs.waiting = waiting;
            bs.hits = hits;
            return None;
        }
        for plan in plans.iter().flatten() {
            for st in plan {
                if let Some(h) = hits.get_mut(st.hit as usize) {
                    h.cancelled += 1;
                    cancels.push(Cancel {
                        medic: st.medic,
                        hit: st.hit,
                        target: h.target,
                    });
                    used_medics.push(st.medic);
                }
            }
        }
        // (4) Wounds.
        for h in &hits {
            if self.wound(h) {
                bs.changed = true;
            }
        }
        // End of phase: lost slots (NSH-BAT-6), removals (NSH-BAT-14).
        for (si, base, extra) in &values {
            let rec = &mut bs.slots[*si];
            let acted = acting.contains(si);
            for (v, f) in base.iter().zip(rec.base.iter_mut()) {
                if acted && *v == p && *f == SlotFate::Ready {
                    *f = SlotFate::Executed;
                } else if *v >= p && *f == SlotFate::Ready {
                    *f = SlotFate::Lost;
                }
            }
            for (v, f) in extra.iter().zip(rec.extra.iter_mut()) {
                let Some(v) = v else { continue };
                if acted && *v == p && *f == SlotFate::Ready {
                    *f = SlotFate::Executed;
                } else if *v >= p && *f == SlotFate::Ready {
                    *f = SlotFate::Lost;
                }
            }
        }
        let mut remove: Vec<TileId> = Vec::new();
        for i in 0..N {
            let Some(pl) = self.state.board[i] else {
                continue;
            };
            let k = self.kind(pl.tile);
            if pl.damage >= k.hp
                || exploded_traps.contains(&i)
                || exploding.contains(&i)
                || used_medics.contains(&pl.tile)
            {
                remove.push(pl.tile);
            }
        }
        if !remove.is_empty() {
            bs.changed = true;
        }
        let netted = (0..N)
            .filter(|i| ctx.netted[*i])
            .filter_map(|i| self.state.board[i].map(|p| p.tile))
            .collect();
        self.remove(&remove);
        remove.sort();
        Some(PhaseReport {
            phase: p,
            acting: acting_ids,
            netted,
            traces,
            explosions,
            hits,
            cancels,
            removed: remove,
        })
    }

    /// Apply a hit's uncancelled wounds; true if any wound was applied.
    fn wound(&mut self, h: &HitReport) -> bool {
        let Some(i) = idx(h.hex) else { return false };
        let Some(mut pl) = self.state.board[i] else {
            return false;
        };
        if pl.tile != h.target || h.wounds == 0 {
            return false;
        }
        let hp = self.kind(pl.tile).hp;
        if h.unbounded {
            pl.damage = hp;
        } else {
            let n = u64::from(h.copies.saturating_sub(h.cancelled)) * u64::from(h.wounds);
            if n == 0 {
                return false;
            }
            pl.damage = u64::from(pl.damage).saturating_add(n).min(u64::from(hp)) as u8;
        }
        self.state.board[i] = Some(pl);
        true
    }

    /// Remove tiles to their owners' discard piles, in id order.
    fn remove(&mut self, tiles: &[TileId]) {
        let mut sorted = tiles.to_vec();
        sorted.sort();
        sorted.dedup();
        for t in sorted {
            if let Some(i) = self
                .state
                .board
                .iter()
                .position(|q| q.is_some_and(|q| q.tile == t))
            {
                self.state.board[i] = None;
                self.state.players[usize::from(t.seat)].discard.push(t);
            }
        }
    }

    /// Shrapnel from the tile on `i` (Trap: HQs included; Clown: not).
    fn shrapnel(&self, i: usize, hqs: bool, hits: &mut Vec<HitReport>) {
        let Some(src) = self.state.board[i] else {
            return;
        };
        for w in Dir::ALL {
            let Some(j) = idx(HEXES[i].neighbour(w)) else {
                continue;
            };
            let Some(t) = self.state.board[j] else {
                continue;
            };
            if !hqs && self.kind(t.tile).class == Class::Hq {
                continue;
            }
            hits.push(HitReport {
                target: t.tile,
                hex: HEXES[j],
                source: Some(src.tile),
                edge: edge_of_world(w, src.rot),
                kind: HitKind::Shrapnel,
                strength: 1,
                wounds: 1,
                copies: 1,
                cancelled: 0,
                unbounded: false,
                arrival: edge_of_world(w.opposite(), t.rot),
            });
        }
    }

    /// The attacks of the tile on `i` (NSH-BAT-7).
    fn attack_round(
        &self,
        i: usize,
        ctx: &Ctx,
        hits: &mut Vec<HitReport>,
        traces: &mut Vec<Trace>,
    ) {
        let Some(pl) = self.state.board[i] else {
            return;
        };
        let k = self.kind(pl.tile);
        let is_hq = k.class == Class::Hq;
        for (e, edge) in k.edges.iter().enumerate() {
            let w = world_of_edge(e as u8, pl.rot);
            if edge.melee > 0 {
                let strength = edge.melee.saturating_add(ctx.melee[i]);
                if let Some(j) = idx(HEXES[i].neighbour(w)) {
                    if let Some(t) = self.state.board[j] {
                        let t_hq = self.kind(t.tile).class == Class::Hq;
                        if t.tile.seat != pl.tile.seat && !(is_hq && t_hq) {
                            hits.push(HitReport {
                                target: t.tile,
                                hex: HEXES[j],
                                source: Some(pl.tile),
                                edge: e as u8,
                                kind: HitKind::Melee,
                                strength,
                                wounds: strength,
                                copies: 1,
                                cancelled: 0,
                                unbounded: false,
                                arrival: edge_of_world(w.opposite(), t.rot),
                            });
                        }
                    }
                }
            }
            if edge.ranged > 0 {
                let strength = edge.ranged.saturating_add(ctx.ranged[i]);
                traces.push(self.trace(i, e as u8, w, HitKind::Ranged, strength, ctx, hits));
            }
            if edge.gauss {
                traces.push(self.trace(i, e as u8, w, HitKind::Gauss, 1, ctx, hits));
            }
        }
    }

    /// Where a branch on hex `from` moving in `d` goes next.
    fn step_of(&self, owner: u8, from: usize, d: Dir, ctx: &Ctx) -> StepOut {
        let Some(j) = idx(HEXES[from].neighbour(d)) else {
            return StepOut::Lost;
        };
        let Some(t) = self.state.board[j] else {
            return StepOut::Pass(j);
        };
        if t.tile.seat != owner {
            return StepOut::Enemy(j, t);
        }
        let k = self.kind(t.tile);
        let entry = edge_of_world(d.opposite(), t.rot);
        if k.is_redirector() && !ctx.netted[j] && k.edges[usize::from(entry)].entry {
            return StepOut::Redirect(j, t, entry);
        }
        StepOut::Pass(j)
    }

    #[allow(clippy::too_many_arguments)]
    fn make_hit(
        &self,
        src: Placed,
        e: u8,
        kind: HitKind,
        strength: u8,
        j: usize,
        t: Placed,
        d: Dir,
    ) -> HitReport {
        let arrival = edge_of_world(d.opposite(), t.rot);
        let armour = self.kind(t.tile).edges[usize::from(arrival)].armour;
        HitReport {
            target: t.tile,
            hex: HEXES[j],
            source: Some(src.tile),
            edge: e,
            kind,
            strength,
            wounds: if armour {
                strength.saturating_sub(1)
            } else {
                strength
            },
            copies: 1,
            cancelled: 0,
            unbounded: false,
            arrival,
        }
    }

    /// Trace one ranged or Gauss attack (NSH-BAT-9, 10, NSH-DM-3..9, 15).
    #[allow(clippy::too_many_arguments)]
    fn trace(
        &self,
        i: usize,
        e: u8,
        w: Dir,
        kind: HitKind,
        strength: u8,
        ctx: &Ctx,
        hits: &mut Vec<HitReport>,
    ) -> Trace {
        match self.state.options.infinity_combo {
            InfinityCombo::Capped => self.trace_capped(i, e, w, kind, strength, ctx, hits),
            InfinityCombo::Unbounded => self.trace_unbounded(i, e, w, kind, strength, ctx, hits),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn trace_capped(
        &self,
        i: usize,
        e: u8,
        w: Dir,
        kind: HitKind,
        strength: u8,
        ctx: &Ctx,
        hits: &mut Vec<HitReport>,
    ) -> Trace {
        #[derive(Clone, Copy)]
        struct Branch {
            hex: usize,
            dir: Dir,
            used: u128,
            copies: u64,
        }
        let Some(src) = self.state.board[i] else {
            return Trace {
                source: TileId {
                    seat: 0,
                    kind: 0,
                    k: 0,
                },
                edge: e,
                kind,
                steps: Vec::new(),
                combo_capped: false,
                unbounded: false,
            };
        };
        let owner = src.tile.seat;
        let mut live = vec![Branch {
            hex: i,
            dir: w,
            used: 0,
            copies: 1,
        }];
        let mut steps: Vec<TraceStep> = Vec::new();
        let mut capped = false;
        // (hex, dir, kind order, step, hit target hex)
        let mut tick: Vec<TickStep> = Vec::new();
        let mut next: Vec<Branch> = Vec::new();
        while !live.is_empty() {
            tick.clear();
            next.clear();
            for b in &live {
                let here = HEXES[b.hex];
                let go = |nb: Branch, next: &mut Vec<Branch>| {
                    if let Some(m) = next
                        .iter_mut()
                        .find(|x| x.hex == nb.hex && x.dir == nb.dir && x.used == nb.used)
                    {
                        m.copies = m.copies.saturating_add(nb.copies);
                    } else {
                        next.push(nb);
                    }
                };
                match self.step_of(owner, b.hex, b.dir, ctx) {
                    StepOut::Lost => tick.push((
                        here,
                        b.dir.index(),
                        3,
                        TraceStep::Lost {
                            direction: b.dir.index(),
                            copies: b.copies,
                        },
                        None,
                    )),
                    StepOut::Pass(j) => go(Branch { hex: j, ..*b }, &mut next),
                    StepOut::Enemy(j, t) => {
                        let h = self.make_hit(src, e, kind, strength, j, t, b.dir);
                        tick.push((
                            here,
                            b.dir.index(),
                            2,
                            TraceStep::Hit {
                                target: t.tile,
                                strength,
                                wounds: h.wounds,
                                copies: b.copies,
                                unbounded: false,
                            },
                            Some((j, t, b.dir)),
                        ));
                        if kind == HitKind::Gauss {
                            go(Branch { hex: j, ..*b }, &mut next);
                        }
                    }
                    StepOut::Redirect(j, t, entry) => {
                        let bit = 1u128 << (j * 6 + usize::from(entry));
                        if b.used & bit != 0 {
                            capped = true;
                            tick.push((
                                here,
                                b.dir.index(),
                                1,
                                TraceStep::LoopCut {
                                    redirector: t.tile,
                                    entry,
                                    copies: b.copies,
                                },
                                None,
                            ));
                            go(Branch { hex: j, ..*b }, &mut next);
                        } else {
                            let k = self.kind(t.tile);
                            let mut exits = Vec::new();
                            for (x, edge) in k.edges.iter().enumerate() {
                                if edge.exit {
                                    let d = world_of_edge(x as u8, t.rot);
                                    exits.push(d.index());
                                    go(
                                        Branch {
                                            hex: j,
                                            dir: d,
                                            used: b.used | bit,
                                            copies: b.copies,
                                        },
                                        &mut next,
                                    );
                                }
                            }
                            tick.push((
                                here,
                                b.dir.index(),
                                0,
                                TraceStep::Redirect {
                                    redirector: t.tile,
                                    entry,
                                    exits,
                                    copies: b.copies,
                                },
                                None,
                            ));
                        }
                    }
                }
            }
            tick.sort_by_key(|(h, d, k, _, _)| (h.q, h.r, *d, *k));
            let mut k = 0;
            while k < tick.len() {
                let (h, d, kd, mut step, target) = tick[k].clone();
                let mut m = k + 1;
                while m < tick.len() && tick[m].0 == h && tick[m].1 == d && tick[m].2 == kd {
                    let add = copies_of(&tick[m].3);
                    add_copies(&mut step, add);
                    m += 1;
                }
                if let Some((j, t, dir)) = target {
                    let mut hit = self.make_hit(src, e, kind, strength, j, t, dir);
                    hit.copies = copies_of(&step).min(u64::from(u32::MAX)) as u32;
                    hits.push(hit);
                }
                steps.push(step);
                k = m;
            }
            std::mem::swap(&mut live, &mut next);
        }
        Trace {
            source: src.tile,
            edge: e,
            kind,
            steps,
            combo_capped: capped,
            unbounded: false,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn trace_unbounded(
        &self,
        i: usize,
        e: u8,
        w: Dir,
        kind: HitKind,
        strength: u8,
        ctx: &Ctx,
        hits: &mut Vec<HitReport>,
    ) -> Trace {
        let Some(src) = self.state.board[i] else {
            return Trace {
                source: TileId {
                    seat: 0,
                    kind: 0,
                    k: 0,
                },
                edge: e,
                kind,
                steps: Vec::new(),
                combo_capped: false,
                unbounded: false,
            };
        };
        let owner = src.tile.seat;
        const S: usize = N * 6;
        let sid = |h: usize, d: Dir| h * 6 + usize::from(d.index());
        // Successors and hit events per state.
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); S];
        let mut event: Vec<Option<(usize, Placed, Dir)>> = vec![None; S];
        let mut reach = [false; S];
        let start = sid(i, w);
        let mut stack = vec![start];
        reach[start] = true;
        while let Some(s) = stack.pop() {
            let (h, d) = (s / 6, Dir::new((s % 6) as u8));
            let out = match self.step_of(owner, h, d, ctx) {
                StepOut::Lost => Vec::new(),
                StepOut::Pass(j) => vec![sid(j, d)],
                StepOut::Enemy(j, t) => {
                    event[s] = Some((j, t, d));
                    if kind == HitKind::Gauss {
                        vec![sid(j, d)]
                    } else {
                        Vec::new()
                    }
                }
                StepOut::Redirect(j, t, _) => self
                    .kind(t.tile)
                    .edges
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.exit)
                    .map(|(x, _)| sid(j, world_of_edge(x as u8, t.rot)))
                    .collect(),
            };
            for &n in &out {
                if !reach[n] {
                    reach[n] = true;
                    stack.push(n);
                }
            }
            succ[s] = out;
        }
        // States on a cycle, then everything they reach: infinite.
        let reach_from = |from: usize| {
            let mut seen = vec![false; S];
            let mut st = succ[from].clone();
            while let Some(x) = st.pop() {
                if !seen[x] {
                    seen[x] = true;
                    st.extend(succ[x].iter().copied());
                }
            }
            seen
        };
        let mut inf = [false; S];
        for s in 0..S {
            if reach[s] && !inf[s] {
                let r = reach_from(s);
                if r[s] {
                    inf[s] = true;
                    for (x, flag) in r.iter().enumerate() {
                        if *flag {
                            inf[x] = true;
                        }
                    }
                }
            }
        }
        // Path counts over the finite part (a DAG), Kahn's order.
        let mut indeg = vec![0usize; S];
        for s in 0..S {
            if reach[s] && !inf[s] {
                for &n in &succ[s] {
                    if !inf[n] {
                        indeg[n] += 1;
                    }
                }
            }
        }
        let mut count = vec![0u64; S];
        if !inf[start] {
            count[start] = 1;
        }
        let mut queue: Vec<usize> = (0..S)
            .filter(|s| reach[*s] && !inf[*s] && indeg[*s] == 0)
            .collect();
        while let Some(s) = queue.pop() {
            for &n in &succ[s] {
                if inf[n] {
                    continue;
                }
                count[n] = count[n].saturating_add(count[s]);
                indeg[n] -= 1;
                if indeg[n] == 0 {
                    queue.push(n);
                }
            }
        }
        let mut events: Vec<usize> = (0..S)
            .filter(|s| reach[*s] && event[*s].is_some())
            .collect();
        events.sort_by_key(|s| (HEXES[s / 6].q, HEXES[s / 6].r, s % 6));
        let mut steps = Vec::new();
        let mut any_unbounded = false;
        for s in events {
            let Some((j, t, d)) = event[s] else { continue };
            let mut hit = self.make_hit(src, e, kind, strength, j, t, d);
            if inf[s] {
                any_unbounded = true;
                hit.unbounded = true;
                hit.copies = 0;
            } else {
                hit.copies = count[s].min(u64::from(u32::MAX)) as u32;
            }
            if hit.unbounded || hit.copies > 0 {
                steps.push(TraceStep::Hit {
                    target: t.tile,
                    strength,
                    wounds: hit.wounds,
                    copies: count[s],
                    unbounded: inf[s],
                });
                hits.push(hit);
            }
        }
        Trace {
            source: src.tile,
            edge: e,
            kind,
            steps,
            combo_capped: false,
            unbounded: any_unbounded,
        }
    }

    // ----- Medics (NSH-MOD-6, 7) ---------------------------------------

    fn legal_pairs(
        &self,
        seat: u8,
        hits: &[HitReport],
        ctx: &Ctx,
        used: &[TileId],
    ) -> Vec<MedicStep> {
        let live = |h: &HitReport| h.wounds >= 1 && (h.unbounded || h.copies > h.cancelled);
        let mut out = Vec::new();
        for &(m, u) in &ctx.medic_links {
            let (m, u) = (usize::from(m), usize::from(u));
            let (Some(mp), Some(up)) = (self.state.board[m], self.state.board[u]) else {
                continue;
            };
            if mp.tile.seat != seat
                || up.tile.seat != seat
                || used.contains(&mp.tile)
                || ctx.netted[m]
            {
                continue;
            }
            if self.kind(up.tile).is_trap() {
                continue;
            }
            let standing = !hits.iter().any(|h| h.target == mp.tile && live(h));
            if !standing {
                continue;
            }
            for (hi, h) in hits.iter().enumerate() {
                if h.target == up.tile && h.target != mp.tile && live(h) && !h.unbounded {
                    out.push(MedicStep {
                        medic: mp.tile,
                        hit: hi as u32,
                    });
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The default Medic sequence (NSH-MOD-7 (d)).
    pub(crate) fn default_medic_plan(
        &self,
        seat: u8,
        hits: &[HitReport],
        ctx: &Ctx,
    ) -> Vec<MedicStep> {
        let mut hits = hits.to_vec();
        let mut used = Vec::new();
        let mut plan = Vec::new();
        loop {
            let pairs = self.legal_pairs(seat, &hits, ctx, &used);
            let best = pairs.into_iter().min_by_key(|st| {
                let h = &hits[st.hit as usize];
                let on_medic = self.kind(h.target).gives(Bonus::Medic);
                (
                    !on_medic,
                    h.target,
                    std::cmp::Reverse(h.wounds),
                    st.hit,
                    st.medic,
                )
            });
            let Some(st) = best else { break };
            hits[st.hit as usize].cancelled += 1;
            used.push(st.medic);
            plan.push(st);
        }
        plan
    }

    /// Up to `cap` complete Medic sequences with distinct results, the
    /// default first.
    pub(crate) fn medic_plans(
        &self,
        seat: u8,
        hits: &[HitReport],
        ctx: &Ctx,
        cap: usize,
    ) -> Vec<Vec<MedicStep>> {
        let mut out: Vec<Vec<MedicStep>> = vec![self.default_medic_plan(seat, hits, ctx)];
        let mut keys: Vec<Vec<MedicStep>> = vec![sorted(&out[0])];
        let mut budget = 2_000usize;
        let mut hits = hits.to_vec();
        let mut used = Vec::new();
        let mut plan = Vec::new();
        self.plans_dfs(
            seat,
            &mut hits,
            ctx,
            &mut used,
            &mut plan,
            &mut out,
            &mut keys,
            cap,
            &mut budget,
        );
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn plans_dfs(
        &self,
        seat: u8,
        hits: &mut Vec<HitReport>,
        ctx: &Ctx,
        used: &mut Vec<TileId>,
        plan: &mut Vec<MedicStep>,
        out: &mut Vec<Vec<MedicStep>>,
        keys: &mut Vec<Vec<MedicStep>>,
        cap: usize,
        budget: &mut usize,
    ) {
        if out.len() >= cap || *budget == 0 {
            return;
        }
        *budget -= 1;
        let pairs = self.legal_pairs(seat, hits, ctx, used);
        if pairs.is_empty() {
            let key = sorted(plan);
            if !keys.contains(&key) {
                keys.push(key);
                out.push(plan.clone());
            }
            return;
        }
        for st in pairs {
            hits[st.hit as usize].cancelled += 1;
            used.push(st.medic);
            plan.push(st);
            self.plans_dfs(seat, hits, ctx, used, plan, out, keys, cap, budget);
            plan.pop();
            used.pop();
            hits[st.hit as usize].cancelled -= 1;
        }
    }

    /// Is `plan` a complete legal Medic sequence for `seat`?
    pub(crate) fn check_medic_plan(
        &self,
        seat: u8,
        hits: &[HitReport],
        ctx: &Ctx,
        plan: &[MedicStep],
    ) -> bool {
        let mut hits = hits.to_vec();
        let mut used = Vec::new();
        for st in plan {
            if !self.legal_pairs(seat, &hits, ctx, &used).contains(st) {
                return false;
            }
            hits[st.hit as usize].cancelled += 1;
            used.push(st.medic);
        }
        self.legal_pairs(seat, &hits, ctx, &used).is_empty()
    }

    /// The hits and context of the phase a battle waits in (for answers).
    pub(crate) fn waiting_hits(&self) -> (Vec<HitReport>, Ctx) {
        let hits = self
            .state
            .battle
            .as_ref()
            .map(|b| b.hits.clone())
            .unwrap_or_default();
        (hits, self.ctx())
    }

    // ----- outside battles --------------------------------------------

    /// Bomb damage (NSH-USE-4): one wound to every non-HQ tile on `hexes`.
    pub(crate) fn bomb(&mut self, hexes: &[Hex], ev: &mut Vec<Event>) {
        let ctx = self.ctx();
        let mut hits: Vec<HitReport> = Vec::new();
        for &h in hexes {
            let Some(t) = self.at(h) else { continue };
            if self.kind(t.tile).class == Class::Hq {
                continue;
            }
            hits.push(HitReport {
                target: t.tile,
                hex: h,
                source: None,
                edge: 0,
                kind: HitKind::Bomb,
                strength: 1,
                wounds: 1,
                copies: 1,
                cancelled: 0,
                unbounded: false,
                arrival: 0,
            });
        }
        hits.sort_by_key(|h| h.target);
        let waiting: Vec<u8> = (0..2u8)
            .filter(|s| self.medic_plans(*s, &hits, &ctx, 2).len() > 1)
            .collect();
        if waiting.is_empty() {
            self.finish_bomb(hits, [None, None], ev);
        } else {
            ev.push(Event::Awaiting {
                seats: waiting.clone(),
            });
            self.state.bomb = Some(PendingBomb {
                hits,
                medic: [None, None],
                waiting,
            });
            self.state.stage = Stage::Bomb;
        }
    }

    /// Apply bomb hits with the Medic plans given (default where none).
    pub(crate) fn finish_bomb(
        &mut self,
        mut hits: Vec<HitReport>,
        plans: [Option<Vec<MedicStep>>; 2],
        ev: &mut Vec<Event>,
    ) {
        let ctx = self.ctx();
        let mut cancels = Vec::new();
        let mut used = Vec::new();
        for (s, plan) in plans.into_iter().enumerate() {
            let plan = plan.unwrap_or_else(|| self.default_medic_plan(s as u8, &hits, &ctx));
            for st in plan {
                if let Some(h) = hits.get_mut(st.hit as usize) {
                    h.cancelled += 1;
                    cancels.push(Cancel {
                        medic: st.medic,
                        hit: st.hit,
                        target: h.target,
                    });
                    used.push(st.medic);
                }
            }
        }
        for h in &hits {
            self.wound(h);
        }
        let mut removed: Vec<TileId> = self
            .state
            .board
            .iter()
            .flatten()
            .filter(|p| p.damage >= self.kind(p.tile).hp || used.contains(&p.tile))
            .map(|p| p.tile)
            .collect();
        removed.sort();
        self.remove(&removed);
        self.state.bomb = None;
        self.state.stage = Stage::Action;
        ev.push(Event::Bombed {
            hits,
            cancels,
            removed,
        });
    }

    /// Push Back candidates for a pusher/target pair (NSH-USE-3), in
    /// default order.
    pub fn push_candidates(&self, pusher: Hex, target: Hex) -> Vec<Hex> {
        let Some(d) = pusher.direction_to(target) else {
            return Vec::new();
        };
        [d, d.rotate_cw(1), d.rotate_cw(5)]
            .into_iter()
            .map(|x| target.neighbour(x))
            .filter(|h| idx(*h).is_some_and(|i| self.state.board[i].is_none()))
            .collect()
    }

    /// Is the army's HQ ability usable now by `seat` (NSH-DM-10)?
    pub(crate) fn rotation_available(&self, seat: u8, ctx: &Ctx) -> Result<(), Rejection> {
        let army = self.armies[usize::from(seat & 1)];
        let hq = &army.kinds[usize::from(army.hq())];
        if hq.ability != Some(Ability::Rotate) {
            return Err(Rejection::NoAbility);
        }
        let Some(i) = self.hq_index(seat) else {
            return Err(Rejection::NoAbility);
        };
        if ctx.netted[i] {
            return Err(Rejection::Netted);
        }
        if self.state.rotation_used {
            return Err(Rejection::AbilityUsed);
        }
        Ok(())
    }

    // ----- turns ------------------------------------------------------

    /// Start `seat`'s turn: the draw step (NSH-TRN-5, 6).
    pub(crate) fn start_turn(&mut self, seat: u8, ev: &mut Vec<Event>) {
        self.state.turn += 1;
        self.state.active = seat;
        self.state.rotation_used = false;
        ev.push(Event::TurnStarted {
            turn: self.state.turn,
            seat,
        });
        let pl = &mut self.state.players[usize::from(seat)];
        let want = match self.state.turn {
            1 => 1,
            2 => 2,
            _ => 3usize.saturating_sub(pl.hand.len()),
        };
        let mut drawn = Vec::new();
        for _ in 0..want {
            if pl.hand.len() >= 3 {
                break;
            }
            let Some(t) = pl.draw.pop() else { break };
            pl.hand.push(t);
            drawn.push(t);
        }
        let emptied = !drawn.is_empty() && pl.draw.is_empty();
        let hand = pl.hand.len();
        ev.push(Event::Drew { seat, tiles: drawn });
        if emptied && self.state.finale.is_none() {
            self.state.finale = Some(Finale {
                x: seat,
                step: FinaleStep::XTurn,
            });
            ev.push(Event::EndingBegan { seat });
        }
        self.state.stage = if hand >= 3 {
            Stage::Discard
        } else {
            Stage::Action
        };
    }

    /// End the active turn (NSH-TRN-4, NSH-END-2, 4).
    pub(crate) fn end_turn(&mut self, ev: &mut Vec<Event>) {
        let seat = self.state.active;
        ev.push(Event::TurnEnded { seat });
        let other = 1 - seat;
        match self.state.finale {
            None => self.start_turn(other, ev),
            Some(mut f) => match f.step {
                FinaleStep::XTurn => {
                    if seat == f.x {
                        f.step = FinaleStep::YTurn;
                        self.state.finale = Some(f);
                    }
                    self.start_turn(other, ev);
                }
                FinaleStep::YTurn => self.start_battle(Cause::Last, ev),
                FinaleStep::OvertimeX => {
                    f.step = FinaleStep::OvertimeY;
                    self.state.finale = Some(f);
                    self.start_turn(other, ev);
                }
                FinaleStep::OvertimeY => self.start_battle(Cause::Overtime, ev),
            },
        }
    }

    fn finish(&mut self, winner: Option<u8>, reason: Reason, ev: &mut Vec<Event>) {
        let result = GameResult {
            winner,
            hq_hp: self.hq_hp(),
            reason,
        };
        self.state.result = Some(result);
        self.state.stage = Stage::Over;
        self.state.battle = None;
        ev.push(Event::GameOver { result });
    }

    fn compare(&self) -> Option<u8> {
        let hp = self.hq_hp();
        match hp[0].cmp(&hp[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// What follows a battle (NSH-BAT-15, NSH-END-3..5, NSH-TRN-8, 9).
    fn after_battle(&mut self, cause: Cause, changed: bool, ev: &mut Vec<Event>) {
        let hp = self.hq_hp();
        ev.push(Event::BattleEnded { hq_hp: hp });
        let dead = [hp[0] == 0, hp[1] == 0];
        if dead[0] || dead[1] {
            let winner = match dead {
                [true, true] => None,
                [true, false] => Some(1),
                _ => Some(0),
            };
            self.finish(winner, Reason::HqDestroyed, ev);
            return;
        }
        match cause {
            Cause::FullBoard => {
                if self.board_full() {
                    if !changed {
                        let w = self.compare();
                        self.finish(w, Reason::Stalemate, ev);
                    } else {
                        self.start_battle(Cause::FullBoard, ev);
                    }
                } else {
                    self.state.stage = Stage::Action;
                }
            }
            Cause::Tile => {
                self.state.stage = Stage::Action;
                self.end_turn(ev);
            }
            Cause::Last => match self.compare() {
                Some(w) => self.finish(Some(w), Reason::LastBattle, ev),
                None => {
                    let x = self.state.finale.map_or(0, |f| f.x);
                    self.state.finale = Some(Finale {
                        x,
                        step: FinaleStep::OvertimeX,
                    });
                    ev.push(Event::Overtime);
                    self.start_turn(x, ev);
                }
            },
            Cause::Overtime => {
                let w = self.compare();
                self.finish(w, Reason::Overtime, ev);
            }
        }
    }

    // ----- commands ----------------------------------------------------

    /// The seats that may act now.
    pub fn seats_to_act(&self) -> Vec<u8> {
        match &self.state.stage {
            Stage::Over => Vec::new(),
            Stage::Hq { seat } => vec![*seat],
            Stage::Discard | Stage::Action => vec![self.state.active],
            Stage::PushChoice { target, .. } => self
                .at(*target)
                .map(|p| vec![p.tile.seat])
                .unwrap_or_default(),
            Stage::Battle => self
                .state
                .battle
                .as_ref()
                .map(|b| b.waiting.clone())
                .unwrap_or_default(),
            Stage::Bomb => self
                .state
                .bomb
                .as_ref()
                .map(|b| b.waiting.clone())
                .unwrap_or_default(),
        }
    }

    /// May `seat` act now (without allocating)?
    pub fn may_act(&self, seat: u8) -> bool {
        match &self.state.stage {
            Stage::Over => false,
            Stage::Hq { seat: s } => *s == seat,
            Stage::Discard | Stage::Action => self.state.active == seat,
            Stage::PushChoice { target, .. } => {
                self.at(*target).is_some_and(|p| p.tile.seat == seat)
            }
            Stage::Battle => self
                .state
                .battle
                .as_ref()
                .is_some_and(|b| b.waiting.contains(&seat)),
            Stage::Bomb => self
                .state
                .bomb
                .as_ref()
                .is_some_and(|b| b.waiting.contains(&seat)),
        }
    }

    fn hand_tile(&self, seat: u8, t: TileId) -> Result<&'static Kind, Rejection> {
        if t.seat != seat || !self.state.players[usize::from(seat)].hand.contains(&t) {
            return Err(Rejection::NotInHand);
        }
        self.kind_checked(t).ok_or(Rejection::NotInHand)
    }

    fn instant(&self, seat: u8, t: TileId, want: Effect) -> Result<(), Rejection> {
        let k = self.hand_tile(seat, t)?;
        if k.effect != Some(want) {
            return Err(Rejection::WrongTile);
        }
        Ok(())
    }

    fn board_idx(h: Hex) -> Result<usize, Rejection> {
        idx(h).ok_or(Rejection::OffBoard)
    }

    /// Check a command without changing anything.
    pub fn check(&self, seat: u8, cmd: &Command, ctx: &Ctx) -> Result<(), Rejection> {
        if self.state.stage == Stage::Over {
            return Err(Rejection::GameOver);
        }
        if !self.may_act(seat) {
            return Err(Rejection::NotYourMove);
        }
        let action = self.state.stage == Stage::Action;
        match (cmd, &self.state.stage) {
            (Command::PlaceHq { hex, rotation }, Stage::Hq { .. }) => {
                let i = Self::board_idx(*hex)?;
                if *rotation >= 6 {
                    return Err(Rejection::BadRotation);
                }
                if self.state.board[i].is_some() {
                    return Err(Rejection::Occupied);
                }
                Ok(())
            }
            (Command::Discard { tile }, Stage::Discard | Stage::Action) => {
                self.hand_tile(seat, *tile).map(|_| ())
            }
            (
                Command::Place {
                    tile,
                    hex,
                    rotation,
                },
                Stage::Action,
            ) => {
                let k = self.hand_tile(seat, *tile)?;
                if !k.is_board() || k.class == Class::Hq {
                    return Err(Rejection::WrongTile);
                }
                let i = Self::board_idx(*hex)?;
                if *rotation >= 6 {
                    return Err(Rejection::BadRotation);
                }
                if self.state.board[i].is_some() {
                    return Err(Rejection::Occupied);
                }
                Ok(())
            }
            (Command::Battle { tile }, Stage::Action) => {
                self.instant(seat, *tile, Effect::Battle)?;
                if self.state.finale.is_some() {
                    return Err(Rejection::BattleForbidden);
                }
                Ok(())
            }
            (
                Command::Push {
                    tile,
                    pusher,
                    target,
                },
                Stage::Action,
            ) => {
                self.instant(seat, *tile, Effect::Push)?;
                let pi = Self::board_idx(*pusher)?;
                let ti = Self::board_idx(*target)?;
                let p = self.state.board[pi].ok_or(Rejection::NoTile)?;
                let t = self.state.board[ti].ok_or(Rejection::NoTile)?;
                if p.tile.seat != seat {
                    return Err(Rejection::NotFriendly);
                }
                if t.tile.seat == seat {
                    return Err(Rejection::NotEnemy);
                }
                if !pusher.is_adjacent(*target) {
                    return Err(Rejection::NotAdjacent);
                }
                if ctx.netted[pi] || ctx.netted[ti] {
                    return Err(Rejection::Netted);
                }
                if self.push_candidates(*pusher, *target).is_empty() {
                    return Err(Rejection::NoRoom);
                }
                Ok(())
            }
            (
                Command::Move {
                    tile,
                    from,
                    to,
                    rotation,
                },
                Stage::Action,
            ) => {
                self.instant(seat, *tile, Effect::Move)?;
                let fi = Self::board_idx(*from)?;
                let ti = Self::board_idx(*to)?;
                let p = self.state.board[fi].ok_or(Rejection::NoTile)?;
                if p.tile.seat != seat {
                    return Err(Rejection::NotFriendly);
                }
                if ctx.netted[fi] {
                    return Err(Rejection::Netted);
                }
                if *rotation >= 6 {
                    return Err(Rejection::BadRotation);
                }
                if from == to {
                    if *rotation == p.rot {
                        return Err(Rejection::NoChange);
                    }
                } else {
                    if !from.is_adjacent(*to) {
                        return Err(Rejection::NotAdjacent);
                    }
                    if self.state.board[ti].is_some() {
                        return Err(Rejection::Occupied);
                    }
                }
                Ok(())
            }
            (Command::SmallBomb { tile, hexes }, Stage::Action) => {
                self.instant(seat, *tile, Effect::SmallBomb)?;
                for h in hexes {
                    Self::board_idx(*h)?;
                }
                let [a, b, c] = *hexes;
                if !(a.is_adjacent(b) && b.is_adjacent(c) && a.is_adjacent(c)) {
                    return Err(Rejection::NotTriangle);
                }
                Ok(())
            }
            (Command::AirStrike { tile, centre }, Stage::Action) => {
                self.instant(seat, *tile, Effect::AirStrike)?;
                Self::board_idx(*centre)?;
                if !Board19::is_inner(*centre) {
                    return Err(Rejection::NotInner);
                }
                Ok(())
            }
            (Command::Rotate { hex, rotation }, Stage::Action) => {
                self.rotation_available(seat, ctx)?;
                let i = Self::board_idx(*hex)?;
                let p = self.state.board[i].ok_or(Rejection::NoTile)?;
                if p.tile.seat != seat {
                    return Err(Rejection::NotFriendly);
                }
                if ctx.netted[i] {
                    return Err(Rejection::Netted);
                }
                if *rotation >= 6 {
                    return Err(Rejection::BadRotation);
                }
                Ok(())
            }
            (Command::EndTurn, Stage::Action) => Ok(()),
            (Command::PushTo { hex }, Stage::PushChoice { candidates, .. }) => {
                if candidates.contains(hex) {
                    Ok(())
                } else {
                    Err(Rejection::NotCandidate)
                }
            }
            (Command::Clown { .. }, Stage::Battle) => {
                let b = self.state.battle.as_ref().ok_or(Rejection::WrongMoment)?;
                if b.clown[usize::from(seat & 1)].is_none() && b.hits.is_empty() {
                    Ok(())
                } else {
                    Err(Rejection::WrongMoment)
                }
            }
            (Command::Medics { steps }, Stage::Battle) => {
                let b = self.state.battle.as_ref().ok_or(Rejection::WrongMoment)?;
                if b.hits.is_empty() || b.medic[usize::from(seat & 1)].is_some() {
                    return Err(Rejection::WrongMoment);
                }
                if steps.iter().any(|s| s.hit as usize >= b.hits.len()) {
                    return Err(Rejection::BadMedicPlan);
                }
                if self.check_medic_plan(seat, &b.hits, ctx, steps) {
                    Ok(())
                } else {
                    Err(Rejection::BadMedicPlan)
                }
            }
            (Command::Medics { steps }, Stage::Bomb) => {
                let b = self.state.bomb.as_ref().ok_or(Rejection::WrongMoment)?;
                if steps.iter().any(|s| s.hit as usize >= b.hits.len()) {
                    return Err(Rejection::BadMedicPlan);
                }
                if self.check_medic_plan(seat, &b.hits, ctx, steps) {
                    Ok(())
                } else {
                    Err(Rejection::BadMedicPlan)
                }
            }
            _ if action => Err(Rejection::WrongMoment),
            _ => Err(Rejection::WrongMoment),
        }
    }

    /// Apply a checked command.
    pub(crate) fn execute(&mut self, seat: u8, cmd: Command, ev: &mut Vec<Event>) {
        let s = usize::from(seat & 1);
        match cmd {
            Command::PlaceHq { hex, rotation } => {
                let hq = TileId {
                    seat,
                    kind: self.armies[s].hq(),
                    k: 1,
                };
                if let Some(i) = idx(hex) {
                    self.state.board[i] = Some(Placed {
                        tile: hq,
                        rot: rotation,
                        damage: 0,
                    });
                }
                self.state.players[s].hq_placed = true;
                ev.push(Event::HqPlaced {
                    seat,
                    hex,
                    rotation,
                });
                if seat == self.state.first {
                    self.state.stage = Stage::Hq { seat: 1 - seat };
                } else {
                    let first = self.state.first;
                    self.start_turn(first, ev);
                }
            }
            Command::Discard { tile } => {
                self.take_from_hand(seat, tile);
                self.state.players[s].discard.push(tile);
                ev.push(Event::Discarded { tile });
                self.state.stage = Stage::Action;
            }
            Command::Place {
                tile,
                hex,
                rotation,
            } => {
                self.take_from_hand(seat, tile);
                if let Some(i) = idx(hex) {
                    self.state.board[i] = Some(Placed {
                        tile,
                        rot: rotation,
                        damage: 0,
                    });
                }
                ev.push(Event::Placed {
                    tile,
                    hex,
                    rotation,
                });
                if self.board_full() {
                    self.start_battle(Cause::FullBoard, ev);
                }
            }
            Command::Battle { tile } => {
                self.use_instant(seat, tile, ev);
                self.start_battle(Cause::Tile, ev);
            }
            Command::Push {
                tile,
                pusher,
                target,
            } => {
                self.use_instant(seat, tile, ev);
                let candidates = self.push_candidates(pusher, target);
                if candidates.len() == 1 {
                    self.move_tile(target, candidates[0], None, ev);
                } else {
                    let owner = self.at(target).map_or(1 - seat, |p| p.tile.seat);
                    self.state.stage = Stage::PushChoice { target, candidates };
                    ev.push(Event::Awaiting { seats: vec![owner] });
                }
            }
            Command::PushTo { hex } => {
                if let Stage::PushChoice { target, .. } = self.state.stage.clone() {
                    self.move_tile(target, hex, None, ev);
                }
                self.state.stage = Stage::Action;
            }
            Command::Move {
                tile,
                from,
                to,
                rotation,
            } => {
                self.use_instant(seat, tile, ev);
                self.move_tile(from, to, Some(rotation), ev);
            }
            Command::SmallBomb { tile, hexes } => {
                self.use_instant(seat, tile, ev);
                self.bomb(&hexes, ev);
            }
            Command::AirStrike { tile, centre } => {
                self.use_instant(seat, tile, ev);
                let mut hexes = vec![centre];
                hexes.extend(centre.neighbours());
                self.bomb(&hexes, ev);
            }
            Command::Rotate { hex, rotation } => {
                self.state.rotation_used = true;
                if let Some(i) = idx(hex) {
                    if let Some(mut p) = self.state.board[i] {
                        p.rot = rotation;
                        self.state.board[i] = Some(p);
                        ev.push(Event::Rotated {
                            tile: p.tile,
                            rotation,
                        });
                    }
                }
            }
            Command::EndTurn => self.end_turn(ev),
            Command::Clown { explode } => {
                if let Some(b) = self.state.battle.as_mut() {
                    b.clown[s] = Some(explode);
                    b.waiting.retain(|w| *w != seat);
                }
            }
            Command::Medics { steps } => {
                if let Some(mut b) = self.state.bomb.take() {
                    b.medic[s] = Some(steps);
                    b.waiting.retain(|w| *w != seat);
                    if b.waiting.is_empty() {
                        self.finish_bomb(b.hits, b.medic, ev);
                    } else {
                        self.state.bomb = Some(b);
                    }
                } else if let Some(b) = self.state.battle.as_mut() {
                    b.medic[s] = Some(steps);
                    b.waiting.retain(|w| *w != seat);
                }
            }
        }
        let waiting = self
            .state
            .battle
            .as_ref()
            .is_some_and(|b| !b.waiting.is_empty());
        if !waiting {
            self.drive(false, ev);
        }
    }

    fn take_from_hand(&mut self, seat: u8, tile: TileId) {
        let hand = &mut self.state.players[usize::from(seat & 1)].hand;
        if let Some(pos) = hand.iter().position(|t| *t == tile) {
            hand.remove(pos);
        }
    }

    fn use_instant(&mut self, seat: u8, tile: TileId, ev: &mut Vec<Event>) {
        self.take_from_hand(seat, tile);
        self.state.players[usize::from(seat & 1)].discard.push(tile);
        ev.push(Event::Used { tile });
    }

    fn move_tile(&mut self, from: Hex, to: Hex, rotation: Option<u8>, ev: &mut Vec<Event>) {
        let (Some(fi), Some(ti)) = (idx(from), idx(to)) else {
            return;
        };
        let Some(mut p) = self.state.board[fi].take() else {
            return;
        };
        if let Some(r) = rotation {
            p.rot = r;
        }
        self.state.board[ti] = Some(p);
        ev.push(Event::Moved {
            tile: p.tile,
            from,
            to,
            rotation: p.rot,
        });
    }

    /// Every command `seat` may send now.
    pub fn legal_commands(&self, seat: u8) -> Vec<Command> {
        if !self.may_act(seat) {
            return Vec::new();
        }
        let ctx = self.ctx();
        let mut out = Vec::new();
        let empty: Vec<Hex> = HEXES
            .iter()
            .copied()
            .filter(|h| self.at(*h).is_none())
            .collect();
        match &self.state.stage {
            Stage::Over => {}
            Stage::Hq { .. } => {
                for h in &empty {
                    for rotation in 0..6 {
                        out.push(Command::PlaceHq { hex: *h, rotation });
                    }
                }
            }
            Stage::Discard => {
                for t in &self.state.players[usize::from(seat)].hand {
                    out.push(Command::Discard { tile: *t });
                }
            }
            Stage::PushChoice { candidates, .. } => {
                for h in candidates {
                    out.push(Command::PushTo { hex: *h });
                }
            }
            Stage::Battle => {
                let Some(b) = self.state.battle.as_ref() else {
                    return out;
                };
                if b.hits.is_empty() {
                    out.push(Command::Clown { explode: false });
                    out.push(Command::Clown { explode: true });
                } else {
                    for steps in self.medic_plans(seat, &b.hits, &ctx, 32) {
                        out.push(Command::Medics { steps });
                    }
                }
            }
            Stage::Bomb => {
                let Some(b) = self.state.bomb.as_ref() else {
                    return out;
                };
                for steps in self.medic_plans(seat, &b.hits, &ctx, 32) {
                    out.push(Command::Medics { steps });
                }
            }
            Stage::Action => {
                out.push(Command::EndTurn);
                let hand = self.state.players[usize::from(seat)].hand.clone();
                for t in &hand {
                    out.push(Command::Discard { tile: *t });
                }
                let friendly: Vec<(Hex, Placed)> = HEXES
                    .iter()
                    .filter_map(|h| self.at(*h).map(|p| (*h, p)))
                    .filter(|(_, p)| p.tile.seat == seat)
                    .collect();
                for t in &hand {
                    let k = self.kind(*t);
                    match k.effect {
                        None => {
                            for h in &empty {
                                for rotation in 0..6 {
                                    out.push(Command::Place {
                                        tile: *t,
                                        hex: *h,
                                        rotation,
                                    });
                                }
                            }
                        }
                        Some(Effect::Battle) => {
                            if self.state.finale.is_none() {
                                out.push(Command::Battle { tile: *t });
                            }
                        }
                        Some(Effect::Push) => {
                            for (ph, _) in &friendly {
                                for tgt in ph.neighbours() {
                                    let c = Command::Push {
                                        tile: *t,
                                        pusher: *ph,
                                        target: tgt,
                                    };
                                    if self.check(seat, &c, &ctx).is_ok() {
                                        out.push(c);
                                    }
                                }
                            }
                        }
                        Some(Effect::Move) => {
                            for (fh, p) in &friendly {
                                let mut tos = vec![*fh];
                                tos.extend(fh.neighbours());
                                for to in tos {
                                    for rotation in 0..6 {
                                        let c = Command::Move {
                                            tile: *t,
                                            from: *fh,
                                            to,
                                            rotation,
                                        };
                                        if (to != *fh || rotation != p.rot)
                                            && self.check(seat, &c, &ctx).is_ok()
                                        {
                                            out.push(c);
                                        }
                                    }
                                }
                            }
                        }
                        Some(Effect::SmallBomb) => {
                            for hexes in Board19::triangles() {
                                out.push(Command::SmallBomb { tile: *t, hexes });
                            }
                        }
                        Some(Effect::AirStrike) => {
                            for h in HEXES {
                                if Board19::is_inner(h) {
                                    out.push(Command::AirStrike {
                                        tile: *t,
                                        centre: h,
                                    });
                                }
                            }
                        }
                    }
                }
                if self.rotation_available(seat, &ctx).is_ok() {
                    for (h, _) in &friendly {
                        if let Some(i) = idx(*h) {
                            if !ctx.netted[i] {
                                for rotation in 0..6 {
                                    out.push(Command::Rotate { hex: *h, rotation });
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

fn sorted(plan: &[MedicStep]) -> Vec<MedicStep> {
    let mut v = plan.to_vec();
    v.sort();
    v
}

/// One step of a tick: the branch's hex, its direction, the step kind's
/// rank, the step, and the hit target (hex, tile, direction) if a hit.
type TickStep = (Hex, u8, u8, TraceStep, Option<(usize, Placed, Dir)>);

#[derive(Clone, Copy)]
enum StepOut {
    Lost,
    Pass(usize),
    Enemy(usize, Placed),
    Redirect(usize, Placed, u8),
}

fn copies_of(s: &TraceStep) -> u64 {
    match s {
        TraceStep::Redirect { copies, .. }
        | TraceStep::LoopCut { copies, .. }
        | TraceStep::Hit { copies, .. }
        | TraceStep::Lost { copies, .. } => *copies,
    }
}

fn add_copies(s: &mut TraceStep, n: u64) {
    match s {
        TraceStep::Redirect { copies, .. }
        | TraceStep::LoopCut { copies, .. }
        | TraceStep::Hit { copies, .. }
        | TraceStep::Lost { copies, .. } => *copies = copies.saturating_add(n),
    }
}
