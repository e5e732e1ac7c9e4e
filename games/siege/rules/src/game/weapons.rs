//! The weapons beyond a single-target attack (ce.md WPN-2, WPN-4..7;
//! classic CSW-3, CSW-4) and Dark Energy Shift (EQI): checks first, then
//! changes, so a rejected command leaves the game and the dice untouched.
//!
//! Both editions play this file: the 1993 cards have the Violator swing,
//! the Nimrod and the grenade launcher too, and how those differ is each
//! edition's [`CardRules`](super::ruleset::cards::CardRules). What only
//! CE cards have (the Puker line, barbs, Dark Energy Shift) is reached
//! through the fields of the weapon and equipment data, not by edition,
//! so it stays here with the rest.
//!
//! Area attacks (swing, Puker line, grenade) roll once and resolve every
//! struck figure separately with its own DEF, in the weapon's order (core
//! ATK-13). Friends are struck too (ATK-14): damage to a DT is reckless
//! for the attacker's team (PPC-3) and still scores for the DL (PPC-2).

use super::actions::Cost;
use super::command::Command;
use super::event::{Event, Place};
use super::ids::FigureId;
use super::rejection::Rejection;
use super::state::{FigureKind, Game, LastAction};
use crate::content::tables::EquipmentEffect;
use crate::content::{AttackType, Specialty};
use crate::dice::{Dice, DieColor};
use citadel_grid::{line_of_sight_to_square, Direction, Level, Sight, Square};

/// Dark Energy Shift: the farthest relocation.
pub(crate) const SHIFT_RANGE: i32 = 6;

/// A checked area attack, ready to roll: one pool, many figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AreaPlan {
    pub attacker: FigureId,
    pub attack: AttackType,
    pub pool: Vec<DieColor>,
    pub rerolls: u8,
    /// Defense dice are skipped (DEF-5: Pommel, Disruptor, Weak Spot).
    pub no_defense: bool,
    /// Weak Spot: DV −1 for every struck figure.
    pub weak_spot: bool,
    /// Classic Disruptor (CDF-3): the creatures' AF −1 against this
    /// firearm attack.
    pub disruptor: bool,
    /// The squares reached, in order (for the event).
    pub squares: Vec<Square>,
    /// Struck figures in order: figure, hits taken off the roll, cover.
    pub struck: Vec<(FigureId, u8, bool)>,
}

impl Game {
    /// The attacking DT's team and specialty, or why it cannot attack.
    fn dt_attacker(&self, figure: FigureId) -> Result<(u8, Specialty), Rejection> {
        match self
            .figures
            .get(figure.index())
            .ok_or(Rejection::NoSuchFigure)?
            .kind
        {
            FigureKind::Doomtrooper { team, specialty } => Ok((team, specialty)),
            FigureKind::Creature { .. } => Err(Rejection::WeaponLacksAbility),
        }
    }

    fn on_smoke(&self, s: Square) -> bool {
        self.rules
            .board
            .tile_of(s)
            .is_some_and(|i| self.tiles[i].smoke)
    }

    /// Firearms by the figure on `from` are forbidden (smoke, S2 stairs;
    /// events are checked with the pool).
    fn firearm_forbidden_from(&self, from: Square) -> bool {
        self.on_smoke(from) || self.rules.board.level(from) == Some(Level::S2)
    }

    /// An area plan for `attacker` with the pool of `attack`.
    fn area_plan(
        &self,
        attacker: FigureId,
        attack: AttackType,
        charge: bool,
        squares: Vec<Square>,
        struck: Vec<(FigureId, u8, bool)>,
    ) -> Result<AreaPlan, Rejection> {
        let (team, specialty) = self.dt_attacker(attacker)?;
        let (pool, rerolls) = self.dt_pool(attacker, team, specialty, attack, charge, false)?;
        let weak_spot = self.figures[attacker.index()].turn.weak_spot;
        let no_defense = weak_spot
            || self.has_item_effect(attacker, EquipmentEffect::NoDefenseDie, Some(attack));
        let disruptor = attack == AttackType::Firearm
            && self.has_item_effect(attacker, EquipmentEffect::Disruptor, Some(attack));
        Ok(AreaPlan {
            attacker,
            attack,
            pool,
            rerolls,
            no_defense,
            weak_spot,
            disruptor,
            squares,
            struck,
        })
    }

    /// DEF-1: the DV of a struck figure.
    fn struck_dv(
        &self,
        figure: FigureId,
        attack: AttackType,
        cover: bool,
        weak: bool,
        disruptor: bool,
    ) -> u8 {
        let base = match self.figures[figure.index()].kind {
            FigureKind::Doomtrooper { .. } => 1,
            FigureKind::Creature { .. } => self
                .creature_stats(figure)
                .map_or(0, |s| s.dv.saturating_sub(u8::from(disruptor))),
        };
        let dv = base + u8::from(cover && attack == AttackType::Firearm);
        if weak {
            dv.saturating_sub(1)
        } else {
            dv
        }
    }

    // ---- WPN-4 Violator swing ----

    /// The ring squares a swing from `start` visits (WPN-4).
    pub(crate) fn swing_squares(&self, at: Square, start: Square, clockwise: bool) -> Vec<Square> {
        let board = &self.rules.board;
        let ring = at.ring();
        let Some(i) = ring.iter().position(|s| *s == start) else {
            return Vec::new();
        };
        let mut out = vec![start];
        let mut r = start;
        for k in 1..8 {
            let j = if clockwise {
                (i + k) % 8
            } else {
                (i + 8 - k) % 8
            };
            let next = ring[j];
            if !self.walls.adjacent(board, at, next) || self.walls.wall(r, next) {
                break;
            }
            out.push(next);
            r = next;
        }
        out
    }

    pub(crate) fn check_swing(
        &self,
        figure: FigureId,
        start: Square,
        clockwise: bool,
    ) -> Result<AreaPlan, Rejection> {
        let (team, specialty) = self.dt_attacker(figure)?;
        if !self.weapon_of(figure).is_some_and(|w| w.swing) {
            return Err(Rejection::WeaponLacksAbility);
        }
        let at = self.figures[figure.index()]
            .square()
            .ok_or(Rejection::FigureNotOnBoard)?;
        let enemy = self.figure_at(start).filter(|t| self.enemies(figure, *t));
        let Some(first) = enemy.filter(|_| {
            at.is_neighbour8(start) && self.walls.adjacent(&self.rules.board, at, start)
        }) else {
            return Err(Rejection::NotASwingStart);
        };
        if self.shunned(team, first, AttackType::CloseCombat) {
            return Err(Rejection::AttackForbidden);
        }
        let squares = self.swing_squares(at, start, clockwise);
        let struck = squares
            .iter()
            .filter_map(|s| self.figure_at(*s))
            .map(|f| (f, 0, false))
            .collect();
        // TAC-1: the charge die if the first enemy struck was charged.
        let turn = &self.figures[figure.index()].turn;
        let charge = specialty == Specialty::CloseCombat
            && turn.last == Some(LastAction::Move)
            && turn.charge.contains(&first);
        self.area_plan(figure, AttackType::CloseCombat, charge, squares, struck)
    }

    // ---- WPN-5 Gehenna Puker ----

    /// The line s1..sN of a Puker from `at` towards `direction` (WPN-5).
    pub(crate) fn spray_squares(&self, at: Square, direction: Direction, len: u8) -> Vec<Square> {
        let board = &self.rules.board;
        let mut out = Vec::new();
        let mut prev = at;
        for _ in 0..len {
            let next = direction.step(prev);
            let blocked = if prev.is_orthogonal_neighbour(next) {
                self.walls.wall(prev, next)
            } else {
                self.walls.sealed(prev, next)
            };
            if !board.on_board(next) || blocked {
                break;
            }
            out.push(next);
            prev = next;
        }
        out
    }

    pub(crate) fn check_spray(
        &self,
        figure: FigureId,
        direction: Direction,
    ) -> Result<AreaPlan, Rejection> {
        self.dt_attacker(figure)?;
        let len = self
            .weapon_of(figure)
            .and_then(|w| w.fa.as_ref())
            .and_then(|f| f.line)
            .ok_or(Rejection::WeaponLacksAbility)?;
        let at = self.figures[figure.index()]
            .square()
            .ok_or(Rejection::FigureNotOnBoard)?;
        if self.firearm_forbidden_from(at) {
            return Err(Rejection::AttackForbidden);
        }
        let squares = self.spray_squares(at, direction, len);
        // Smoke: no firearm attack at a figure on a smoke tile, so those
        // figures are not struck (Decision, docs/RULES-COVERAGE.md).
        let struck = squares
            .iter()
            .filter(|s| !self.on_smoke(**s))
            .filter_map(|s| self.figure_at(*s))
            .map(|f| (f, 0, false))
            .collect();
        self.area_plan(figure, AttackType::Firearm, false, squares, struck)
    }

    // ---- WPN-7 Grenade Launcher ----

    /// Does `figure` carry a Grenade Launcher on its Plasma Carbine?
    fn has_grenade_launcher(&self, figure: FigureId) -> bool {
        let carbine = self.rules.tables.base_weapon(Specialty::Firearms);
        self.figures[figure.index()].weapon == Some(carbine)
            && self.has_item_effect(figure, EquipmentEffect::GrenadeLauncher, None)
    }

    pub(crate) fn check_grenade(
        &self,
        figure: FigureId,
        square: Square,
    ) -> Result<AreaPlan, Rejection> {
        self.dt_attacker(figure)?;
        if !self.has_grenade_launcher(figure) {
            return Err(Rejection::WeaponLacksAbility);
        }
        let board = &self.rules.board;
        let at = self.figures[figure.index()]
            .square()
            .ok_or(Rejection::FigureNotOnBoard)?;
        if !board.on_board(square) {
            return Err(Rejection::InvalidSquare);
        }
        let dist = at.dist(square);
        let range = self.cards().grenade_range;
        if dist < range.0 {
            return Err(Rejection::TooClose);
        }
        if dist > range.1 {
            return Err(Rejection::OutOfRange);
        }
        if self.firearm_forbidden_from(at) || self.on_smoke(square) {
            return Err(Rejection::AttackForbidden);
        }
        let cover = match line_of_sight_to_square(board, &self.walls, self, at, square) {
            Sight::Blocked => return Err(Rejection::NoLineOfSight),
            Sight::Clear { cover } => cover && self.hooks().cover,
        };
        let mut squares = vec![square];
        squares.extend(
            square
                .ring()
                .into_iter()
                .filter(|n| self.walls.adjacent(board, square, *n)),
        );
        let struck = squares
            .iter()
            .enumerate()
            .filter(|(_, s)| !self.on_smoke(**s))
            .filter_map(|(i, s)| {
                let first = i == 0;
                self.figure_at(*s)
                    .map(|f| (f, u8::from(!first), first && cover))
            })
            .collect();
        let mut plan = self.area_plan(figure, AttackType::Firearm, false, squares, struck)?;
        if let Some(pool) = self.cards().grenade_dice {
            plan.pool = pool.to_vec(); // CDI-2: fixed dice.
        }
        Ok(plan)
    }

    /// Roll an area attack once and resolve every struck figure in order
    /// (core ATK-13, DEF, PPC-1..3, TAC-2 after a swing).
    pub(crate) fn resolve_area(
        &mut self,
        plan: AreaPlan,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let (mut rolls, mut hits) = self.roll_pool(&plan.pool, plan.rerolls, dice);
        let credit = self.figures[plan.attacker.index()].team();
        // DTC-CE-3: Heroic Luck in the owner's own attack, after its re-rolls.
        if let Some(team) = credit.filter(|_| !plan.struck.is_empty()) {
            if let Some(h) = self.offer_heroic_luck(team, plan.attacker, &mut rolls, dice, events) {
                hits = h;
            }
        }
        events.push(Event::AreaAttackRolled {
            attacker: plan.attacker,
            attack: plan.attack,
            squares: plan.squares.clone(),
            dice: rolls,
            hits,
        });
        let mut vacated = Vec::new();
        for &(target, minus, cover) in &plan.struck {
            let Some(sq) = self.figures[target.index()].square() else {
                continue;
            };
            // Classic Spectral Displacement: no attack reaches these DTs.
            if self.figures[target.index()]
                .team()
                .is_some_and(|t| self.card_protects(t, false))
            {
                continue;
            }
            let h = hits.saturating_sub(minus);
            events.push(Event::Struck {
                figure: target,
                hits: h,
            });
            self.log_attack_range(plan.attacker, sq);
            let dv = self.struck_dv(target, plan.attack, cover, plan.weak_spot, plan.disruptor);
            let creature = self.figures[target.index()].creature().is_some();
            let killed = self.apply_hits(target, h, dv, plan.no_defense, credit, dice, events);
            if killed && creature {
                vacated.push(sq);
            }
        }
        let f = &mut self.figures[plan.attacker.index()];
        f.turn.weak_spot = false;
        if plan.attack != AttackType::CloseCombat {
            f.turn.rapid_reload = false;
        }
        f.turn.last = Some(LastAction::Other);
        let cc_specialist = f.specialty() == Some(Specialty::CloseCombat);
        // TAC-2: after a swing, any one vacated square.
        if plan.attack == AttackType::CloseCombat && cc_specialist && !vacated.is_empty() {
            self.overrun = Some((plan.attacker, vacated[0]));
            self.overrun_extra = vacated[1..].to_vec();
        }
    }

    // ---- WPN-2 Manus barbs ----

    /// After a successful trap tech attack with barbs: every figure
    /// adjacent (ADJ-4) to the new trap, clockwise from north, is attacked
    /// with one `die`, no re-rolls, against its own DEF.
    pub(crate) fn barbs(
        &mut self,
        attacker: FigureId,
        trap: Square,
        die: DieColor,
        credit: Option<u8>,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let board = &self.rules.board;
        let targets: Vec<FigureId> = trap
            .ring()
            .into_iter()
            .filter(|n| self.walls.adjacent(board, trap, *n))
            .filter_map(|n| self.figure_at(n))
            .collect();
        if targets.is_empty() {
            return;
        }
        events.push(Event::Barbs { square: trap });
        for target in targets {
            if self.figures[target.index()].square().is_none() {
                continue;
            }
            let (rolls, hits) = self.roll_pool(&[die], 0, dice);
            events.push(Event::AttackRolled {
                attacker: Some(attacker),
                target,
                attack: Some(AttackType::Tech),
                dice: rolls,
                hits,
            });
            let dv = self.struck_dv(target, AttackType::Tech, false, false, false);
            self.apply_hits(target, hits, dv, false, credit, dice, events);
        }
    }

    // ---- WPN-6 Nimrod ----

    /// The weapon of `figure` has two barrels (WPN-6).
    pub(crate) fn has_two_barrels(&self, figure: FigureId) -> bool {
        self.weapon_of(figure)
            .and_then(|w| w.fa.as_ref())
            .is_some_and(|f| f.barrels >= 2)
    }

    /// Check a two-target Nimrod attack: both plans, the concentration
    /// shared (WPN-6: it is "an attack on" each target).
    pub(crate) fn check_volley(
        &self,
        figure: FigureId,
        targets: [FigureId; 2],
    ) -> Result<[super::combat::AttackPlan; 2], Rejection> {
        self.dt_attacker(figure)?;
        if !self.has_two_barrels(figure) {
            return Err(Rejection::WeaponLacksAbility);
        }
        if targets[0] == targets[1] {
            return Err(Rejection::InvalidChoice);
        }
        let mut a = self.check_attack(figure, targets[0], AttackType::Firearm)?;
        let mut b = self.check_attack(figure, targets[1], AttackType::Firearm)?;
        let (Some(sa), Some(sb)) = (
            self.figures[targets[0].index()].square(),
            self.figures[targets[1].index()].square(),
        ) else {
            return Err(Rejection::FigureNotOnBoard);
        };
        if self.cards().nimrod_spread.is_some_and(|d| sa.dist(sb) > d) {
            return Err(Rejection::TargetsTooFarApart);
        }
        // One attack: concentrated if it follows a firearm attack on either
        // target, and then the bonus rises once.
        match (a.concentrated, b.concentrated) {
            (true, false) => b.pool.push(DieColor::White),
            (false, true) => {
                a.pool.push(DieColor::White);
                a.concentrated = true;
                b.concentrated = false;
            }
            (true, true) => b.concentrated = false,
            (false, false) => {}
        }
        Ok([a, b])
    }

    /// A Nimrod attack: one target rolls twice (the second roll is lost
    /// if the first kills), two targets one roll each; each roll has its
    /// own re-rolls (WPN-6).
    pub(crate) fn resolve_nimrod(
        &mut self,
        plans: Vec<super::combat::AttackPlan>,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let targets: Vec<FigureId> = plans.iter().map(|p| p.target).collect();
        let attacker = plans.first().map(|p| p.attacker);
        for plan in plans {
            let Some(at) = self.figures[plan.target.index()].square() else {
                continue; // The first roll killed it.
            };
            self.log_attack_range(plan.attacker, at);
            self.resolve_attack(plan, dice, events);
        }
        if let (Some(a), [x, y]) = (attacker, targets.as_slice()) {
            if x != y {
                self.figures[a.index()].turn.last = Some(LastAction::FireTwo(*x, *y));
            } else {
                self.figures[a.index()].turn.last = Some(LastAction::Fire(*x));
            }
        }
    }

    // ---- Dark Energy Shift ----

    /// May `figure` shift to `to` (EQI Dark Energy Shift)? Within `dist` 6,
    /// on its own level, empty and passable (MOV-7), not adjacent to a DL
    /// figure; walls and figures between do not matter.
    pub(crate) fn shift_ok(&self, figure: FigureId, to: Square) -> bool {
        self.relocate_ok(figure, to, Some(SHIFT_RANGE))
    }

    /// MOV-15 relocation of a DT by an item (Dark Energy Shift within
    /// `range`, the Teleportal anywhere): another square of the same
    /// level, where it may end, not next to a DL figure.
    pub(crate) fn relocate_ok(&self, figure: FigureId, to: Square, range: Option<i32>) -> bool {
        let b = &self.rules.board;
        let Some(from) = self.figures[figure.index()].square() else {
            return false;
        };
        // Squares off the stairs tiles have no level: the ground floor.
        let level = |s| b.level(s).unwrap_or(Level::Lower);
        to != from
            && b.on_board(to)
            && range.is_none_or(|r| from.dist(to) <= r)
            && level(from) == level(to)
            && self.may_end_on(figure, to)
            && !to.ring().iter().any(|n| {
                self.figure_at(*n).is_some_and(|o| {
                    self.figures[o.index()].creature().is_some() && self.walls.adjacent(b, to, *n)
                })
            })
    }

    /// Relocate after a checked shift (MOV-15: no traps, doors or reveals).
    pub(crate) fn shift(&mut self, figure: FigureId, to: Square, events: &mut Vec<Event>) {
        self.set_place(figure, Place::Board { square: to });
        events.push(Event::Relocated { figure, to });
    }

    /// No overrun is open any more (TAC-2).
    pub(crate) fn clear_overrun(&mut self) {
        self.overrun = None;
        self.overrun_extra.clear();
    }

    // ---- the commands ----

    /// `Swing`, `Spray`, `AttackSquare`, `Volley`: an Attack action.
    pub(crate) fn do_weapon_attack(
        &mut self,
        command: Command,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let figure = match &command {
            Command::Swing { figure, .. }
            | Command::Spray { figure, .. }
            | Command::AttackSquare { figure, .. }
            | Command::Volley { figure, .. } => *figure,
            _ => return Err(Rejection::NoSuchDecision),
        };
        let cost = self.check_actor(figure, true, Cost::Action)?;
        match command {
            Command::Volley { targets, .. } => {
                let plans = self.check_volley(figure, targets)?;
                self.begin_action(figure, cost, events);
                self.begin_attack_log(AttackType::Firearm);
                self.resolve_nimrod(plans.to_vec(), dice, events);
            }
            Command::Swing {
                start, clockwise, ..
            } => {
                let plan = self.check_swing(figure, start, clockwise)?;
                self.begin_action(figure, cost, events);
                self.begin_attack_log(plan.attack);
                self.resolve_area(plan, dice, events);
            }
            Command::Spray { direction, .. } => {
                let plan = self.check_spray(figure, direction)?;
                self.begin_action(figure, cost, events);
                self.begin_attack_log(plan.attack);
                self.resolve_area(plan, dice, events);
            }
            Command::AttackSquare { square, .. } => {
                let plan = self.check_grenade(figure, square)?;
                self.begin_action(figure, cost, events);
                self.begin_attack_log(plan.attack);
                self.resolve_area(plan, dice, events);
            }
            _ => return Err(Rejection::NoSuchDecision),
        }
        self.sec.attack = None;
        self.end_action(figure, events);
        Ok(())
    }

    /// The weapon commands `figure` could send now (for `legal()`), kept
    /// short: only forms that strike at least one enemy.
    pub(crate) fn weapon_commands(&self, figure: FigureId, out: &mut Vec<Command>) {
        let f = &self.figures[figure.index()];
        let (Some(at), Some(_)) = (f.square(), f.team()) else {
            return;
        };
        let Some(w) = self.weapon_of(figure) else {
            return;
        };
        let hits_enemy =
            |plan: &AreaPlan| plan.struck.iter().any(|(t, _, _)| self.enemies(figure, *t));
        if w.swing {
            for start in at.ring() {
                for clockwise in [true, false] {
                    if self.check_swing(figure, start, clockwise).is_ok() {
                        out.push(Command::Swing {
                            figure,
                            start,
                            clockwise,
                        });
                    }
                }
            }
        }
        if w.fa.as_ref().is_some_and(|f| f.line.is_some()) {
            for direction in Direction::ALL {
                if self
                    .check_spray(figure, direction)
                    .is_ok_and(|p| hits_enemy(&p))
                {
                    out.push(Command::Spray { figure, direction });
                }
            }
        }
        // Only the area weapons below need the enemies on the board.
        let enemies = || -> Vec<(FigureId, Square)> {
            self.figures
                .iter()
                .filter(|t| self.enemies(figure, t.id))
                .filter_map(|t| t.square().map(|s| (t.id, s)))
                .collect()
        };
        if self.has_grenade_launcher(figure) {
            let mut squares: Vec<Square> = enemies()
                .iter()
                .flat_map(|(_, s)| std::iter::once(*s).chain(s.ring()))
                .collect();
            squares.sort();
            squares.dedup();
            for square in squares {
                if self
                    .check_grenade(figure, square)
                    .is_ok_and(|p| hits_enemy(&p))
                {
                    out.push(Command::AttackSquare { figure, square });
                }
            }
        }
        if self.has_two_barrels(figure) {
            let enemies = enemies();
            for (i, (a, sa)) in enemies.iter().enumerate() {
                for (b, sb) in &enemies[i + 1..] {
                    let near = self.cards().nimrod_spread.is_none_or(|d| sa.dist(*sb) <= d);
                    if near && self.check_volley(figure, [*a, *b]).is_ok() {
                        out.push(Command::Volley {
                            figure,
                            targets: [*a, *b],
                        });
                    }
                }
            }
        }
    }

    /// Dark Energy Shift destinations (for `legal()`).
    pub(crate) fn relocate_squares(&self, figure: FigureId, range: Option<i32>) -> Vec<Square> {
        let Some(from) = self.figures[figure.index()].square() else {
            return Vec::new();
        };
        let b = &self.rules.board;
        let mut out = Vec::new();
        let (x0, y0, x1, y1) = match range {
            Some(r) => (from.x - r, from.y - r, from.x + r, from.y + r),
            None => (0, 0, b.width() - 1, b.height() - 1),
        };
        for y in y0..=y1 {
            for x in x0..=x1 {
                let s = Square::new(x, y);
                if self.relocate_ok(figure, s, range) {
                    out.push(s);
                }
            }
        }
        out
    }
}
