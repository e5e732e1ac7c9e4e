//! Attacks (core ATK-1..16; ce.md DICE, DEF, TAC, WPN-1, TRP, PPC).

use super::event::{DieRoll, Event, Place};
use super::ids::{FigureId, Side};
use super::reaction::Window;
use super::rejection::Rejection;
use super::ruleset::hooks::FriendlyFire;
use super::state::{FigureKind, Game, LastAction, Token, TokenState};
use crate::content::tables::{CreatureStats, DtCardKind, EquipmentEffect, WeaponDef};
use crate::content::{AttackType, CreatureKind, Specialty};
use crate::dice::{Dice, DieColor};
use citadel_grid::{line_of_sight, Level, Sight};

/// A checked attack, ready to roll. Everything here is fixed before the
/// first die (DICE-4, ATK-15).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AttackPlan {
    pub attacker: FigureId,
    pub target: FigureId,
    pub attack: AttackType,
    pub pool: Vec<DieColor>,
    /// Target DV including cover and Weak Spot.
    pub dv: u8,
    /// Defense dice are skipped (DEF-5).
    pub no_defense: bool,
    /// Failed dice the attacker may re-roll (ATK-9).
    pub rerolls: u8,
    /// TAC-1 charge applied.
    pub charge: bool,
    /// TAC-3/4 concentrated.
    pub concentrated: bool,
    /// WPN-2 Manus barbs after a kill: the one die each barb attack rolls.
    pub barbs: Option<DieColor>,
}

/// A die of a roll that has not been re-rolled and is not itself a
/// re-roll (ATK-9: a die is re-rolled at most once).
pub(crate) fn rerollable(rolls: &[DieRoll], i: usize) -> bool {
    !rolls[i].reroll && !rolls.get(i + 1).is_some_and(|n| n.reroll)
}

/// Hits of a roll list: a re-rolled die counts by its re-roll.
fn total_hits(rolls: &[DieRoll]) -> u8 {
    rolls
        .iter()
        .enumerate()
        .filter(|(i, _)| !rolls.get(i + 1).is_some_and(|n| n.reroll))
        .map(|(_, r)| r.hits)
        .sum()
}

impl Game {
    pub(crate) fn weapon_of(&self, id: FigureId) -> Option<&WeaponDef> {
        let w = self.figures[id.index()].weapon?;
        Some(self.rules.tables.weapon_def(w))
    }

    pub(crate) fn has_item_effect(
        &self,
        id: FigureId,
        effect: EquipmentEffect,
        augment: Option<AttackType>,
    ) -> bool {
        self.figures[id.index()].items.iter().any(|&i| {
            let d = self.rules.tables.equipment_def(i);
            d.effect == effect && (augment.is_none() || d.augment == augment)
        })
    }

    pub(crate) fn creature_stats(&self, id: FigureId) -> Option<&CreatureStats> {
        let kind = self.figures[id.index()].creature()?;
        let def = self
            .rules
            .tables
            .creatures
            .iter()
            .find(|c| c.kind == kind)?;
        def.bands.get(usize::from(self.dl.band.max(1)) - 1)
    }

    /// The rank dice of a team's current rank (DICE-2, RNK-3).
    pub(crate) fn rank_dice(&self, team: u8) -> [DieColor; 3] {
        let rank = self.teams[usize::from(team)].rank;
        self.rules
            .tables
            .ranks
            .get(usize::from(rank.max(1)) - 1)
            .map_or([DieColor::White; 3], |r| r.combat)
    }

    fn defense_die_of_team(&self, team: u8) -> DieColor {
        let rank = self.teams[usize::from(team)].rank;
        self.rules
            .tables
            .ranks
            .get(usize::from(rank.max(1)) - 1)
            .map_or(DieColor::White, |r| r.defense)
    }

    /// A necessary condition of [`Self::check_attack`], cheap to test:
    /// the distance the attack type needs and, for a creature, dice for
    /// it. `legal()` asks this first so that targets out of reach cost no
    /// line of sight. Never false where `check_attack` would accept.
    pub(crate) fn attack_in_reach(
        &self,
        attacker: FigureId,
        target: FigureId,
        attack: AttackType,
    ) -> bool {
        let a = &self.figures[attacker.index()];
        let (Some(from), Some(to)) = (
            a.square(),
            self.figures.get(target.index()).and_then(|t| t.square()),
        ) else {
            return false;
        };
        let dist = from.dist(to);
        let creature_dice = |pick: fn(&CreatureStats) -> &Vec<DieColor>| {
            a.team().is_some()
                || self
                    .creature_stats(attacker)
                    .is_some_and(|s| !pick(s).is_empty())
        };
        match attack {
            AttackType::CloseCombat => dist == 1 && creature_dice(|s| &s.cc),
            AttackType::Firearm => {
                // A DT's weapon's range (no line weapon: it only sprays).
                let (min, max) = match a.team() {
                    Some(_) => match self.weapon_of(attacker).and_then(|w| w.fa.as_ref()) {
                        Some(fa) if fa.line.is_none() => {
                            (i32::from(fa.min_range), i32::from(fa.max_range))
                        }
                        _ => return false,
                    },
                    None => self.hooks().dl_firearm_range,
                };
                (min.max(2)..=max).contains(&dist) && creature_dice(|s| &s.fa)
            }
            AttackType::Tech => a.team().is_some() && (2..=3).contains(&dist),
        }
    }

    /// Check an Attack action (ATK-2..6, ATK-15) without changing anything.
    pub(crate) fn check_attack(
        &self,
        attacker: FigureId,
        target: FigureId,
        attack: AttackType,
    ) -> Result<AttackPlan, Rejection> {
        let a = &self.figures[attacker.index()];
        let t = self
            .figures
            .get(target.index())
            .ok_or(Rejection::NoSuchFigure)?;
        let (Some(from), Some(to)) = (a.square(), t.square()) else {
            return Err(Rejection::FigureNotOnBoard);
        };
        if !self.enemies(attacker, target) {
            return Err(Rejection::FriendlyTarget);
        }
        // Classic Combat Aura, Spectral Displacement.
        if t.team()
            .is_some_and(|tt| self.card_protects(tt, a.creature().is_some()))
        {
            return Err(Rejection::TargetProtected);
        }
        let board = &self.rules.board;
        let dist = from.dist(to);
        let mut cover = false;
        match attack {
            AttackType::CloseCombat => {
                if !self.walls.adjacent(board, from, to) {
                    return Err(Rejection::NotAdjacent);
                }
            }
            AttackType::Firearm => {
                let (min, max) = match a.team() {
                    Some(_) => {
                        let fa = self
                            .weapon_of(attacker)
                            .and_then(|w| w.fa.as_ref())
                            .ok_or(Rejection::NoDice)?;
                        if fa.line.is_some() {
                            // WPN-5: the Puker only sprays a line.
                            return Err(Rejection::WeaponLacksAbility);
                        }
                        (i32::from(fa.min_range), i32::from(fa.max_range))
                    }
                    None => self.hooks().dl_firearm_range,
                };
                if dist < min.max(2) {
                    return Err(Rejection::TooClose);
                }
                if dist > max {
                    return Err(Rejection::OutOfRange);
                }
                let smoky = |s| board.tile_of(s).is_some_and(|i| self.tiles[i].smoke);
                if smoky(from) || smoky(to) || board.level(from) == Some(Level::S2) {
                    return Err(Rejection::AttackForbidden);
                }
                match line_of_sight(board, &self.walls, self, from, to) {
                    Sight::Blocked => return Err(Rejection::NoLineOfSight),
                    Sight::Clear { cover: c } => cover = c && self.hooks().cover,
                }
            }
            AttackType::Tech => {
                // WPN-1 trap tech attack: the only tech attack on a figure.
                let te = self.weapon_of(attacker).and_then(|w| w.te.as_ref());
                if a.team().is_none() || !te.is_some_and(|t| t.trap) {
                    return Err(Rejection::NoDice);
                }
                if !board.adjacent_to_wall(from) {
                    return Err(Rejection::NotNextToWall);
                }
                if !(2..=3).contains(&dist) {
                    return Err(if dist < 2 {
                        Rejection::TooClose
                    } else {
                        Rejection::OutOfRange
                    });
                }
            }
        }
        match a.kind {
            FigureKind::Doomtrooper { team, specialty } => {
                self.plan_dt_attack(attacker, team, specialty, target, attack, cover)
            }
            FigureKind::Creature { .. } => self.plan_dl_attack(attacker, target, attack, cover),
        }
    }

    fn plan_dt_attack(
        &self,
        attacker: FigureId,
        team: u8,
        specialty: Specialty,
        target: FigureId,
        attack: AttackType,
        cover: bool,
    ) -> Result<AttackPlan, Rejection> {
        if self.shunned(team, target, attack) {
            return Err(Rejection::AttackForbidden);
        }
        let turn = &self.figures[attacker.index()].turn;
        // TAC-1 charge: the very next action after the Move.
        let tactics = self.hooks().tactics;
        let charge = tactics
            && attack == AttackType::CloseCombat
            && specialty == Specialty::CloseCombat
            && turn.last == Some(LastAction::Move)
            && turn.charge.contains(&target);
        // TAC-3/4 concentration.
        let concentrated = tactics
            && match (attack, specialty) {
                (AttackType::Firearm, Specialty::Firearms) => match turn.last {
                    Some(LastAction::Fire(x)) => x == target,
                    Some(LastAction::FireTwo(x, y)) => x == target || y == target,
                    _ => false,
                },
                (AttackType::Tech, Specialty::Tech) => turn.last == Some(LastAction::Tech(target)),
                _ => false,
            };
        let (pool, rerolls) =
            self.dt_pool(attacker, team, specialty, attack, charge, concentrated)?;
        let turn = &self.figures[attacker.index()].turn;
        let barbs = match attack {
            AttackType::Tech => self.barb_die(attacker, team, None)?,
            _ => None,
        };
        let stats = self.creature_stats(target).ok_or(Rejection::NoSuchFigure)?;
        let mut dv = stats.dv + u8::from(cover && attack == AttackType::Firearm);
        // Classic CDF-3: the Disruptor lowers AF against firearm attacks.
        if attack == AttackType::Firearm
            && self.has_item_effect(attacker, EquipmentEffect::Disruptor, Some(attack))
        {
            dv = dv.saturating_sub(1);
        }
        let mut no_defense =
            self.has_item_effect(attacker, EquipmentEffect::NoDefenseDie, Some(attack));
        if turn.weak_spot {
            dv = dv.saturating_sub(1);
            no_defense = true;
        }
        // Classic Weak Spot (CDF-3): AF -1 against this team, min 0.
        dv = dv.saturating_sub(self.card_weak_spot(team, target));
        Ok(AttackPlan {
            attacker,
            target,
            attack,
            pool,
            dv,
            no_defense,
            rerolls,
            charge,
            concentrated,
            barbs,
        })
    }

    /// Events 16 and 17: `team`'s DTs may make no close combat attack on
    /// a figure of the named type (a swing may not start on one).
    pub(crate) fn shunned(&self, team: u8, target: FigureId, attack: AttackType) -> bool {
        attack == AttackType::CloseCombat
            && self.figures[target.index()].creature().is_some_and(|k| {
                self.effects.no_cc_against.contains(&(team, k)) || self.card_fear(team, k)
            })
    }

    /// The pool and re-rolls of a DT's attack of type `attack` with its
    /// weapon (DICE-2..4, TAC-1/3/4, COR-2, EQI augments, Rapid Reload),
    /// shared by every attack form. `charge`/`concentrated`: this attack
    /// gets the TAC-1 die / raises the TAC-3/4 bonus.
    pub(crate) fn dt_pool(
        &self,
        attacker: FigureId,
        team: u8,
        specialty: Specialty,
        attack: AttackType,
        charge: bool,
        concentrated: bool,
    ) -> Result<(Vec<DieColor>, u8), Rejection> {
        let e = &self.effects;
        let forbidden = match attack {
            AttackType::CloseCombat => e.no_close_combat,
            AttackType::Firearm => e.no_firearms,
            AttackType::Tech => e.no_tech,
        };
        if forbidden {
            return Err(Rejection::AttackForbidden);
        }
        let weapon = self.weapon_of(attacker).ok_or(Rejection::NoDice)?;
        let wd = match attack {
            AttackType::CloseCombat => weapon.cc.as_ref(),
            AttackType::Firearm => weapon.fa.as_ref().map(|f| &f.dice),
            AttackType::Tech => weapon.te.as_ref().map(|t| &t.dice),
        }
        .ok_or(Rejection::NoDice)?;
        // DICE-2: fewer than 3 rank dice → the strongest ones. A classic
        // card may ask for more than 3 (CDI-1: all of the rank colour, so
        // the strongest is repeated).
        let mut rank = if self.card_uncalibrated(attacker, attack) {
            // Classic Uncalibrated Targeter: the colour of rank - 2.
            let r = self.teams[usize::from(team)].rank.saturating_sub(2).max(1);
            self.rules
                .tables
                .ranks
                .get(usize::from(r) - 1)
                .map_or([DieColor::White; 3], |r| r.combat)
                .to_vec()
        } else {
            self.rank_dice(team).to_vec()
        };
        rank.sort_by_key(|d| std::cmp::Reverse(d.strength()));
        let strongest = rank[0];
        let mut pool: Vec<DieColor> = (0..usize::from(wd.rank_dice))
            .map(|i| rank.get(i).copied().unwrap_or(strongest))
            .collect();
        pool.extend(wd.extra.iter().copied());
        if pool.is_empty() {
            return Err(Rejection::NoDice);
        }
        let turn = &self.figures[attacker.index()].turn;
        if charge {
            pool.push(DieColor::White);
        }
        match (attack, specialty) {
            (AttackType::Firearm, Specialty::Firearms) => {
                let bonus = turn.fire_bonus + u8::from(concentrated);
                pool.extend(std::iter::repeat_n(DieColor::White, usize::from(bonus)));
            }
            (AttackType::Tech, Specialty::Tech) => {
                let bonus = turn.tech_bonus + u8::from(concentrated);
                pool.extend(std::iter::repeat_n(DieColor::White, usize::from(bonus)));
            }
            _ => {}
        }
        // An item's or ability's extra die: white (CE), or of the rank
        // colour (classic CDI-1).
        let bonus_die = if self.hooks().bonus_die_of_rank {
            strongest
        } else {
            DieColor::White
        };
        if self.has_item_effect(attacker, EquipmentEffect::ExtraDie, Some(attack)) {
            pool.push(bonus_die);
        }
        if turn.rapid_reload && attack != AttackType::CloseCombat {
            pool.push(DieColor::Red);
        }
        // COR-2 re-rolls (CE, current rank) or CCO-1 dice (classic).
        let t = &self.teams[usize::from(team)];
        let (dice, mut rerolls) = (self.hooks().corporation_attack)(t.corporation, attack, t.rank);
        pool.extend(std::iter::repeat_n(bonus_die, usize::from(dice)));
        if self.has_item_effect(attacker, EquipmentEffect::RerollOne, Some(attack)) {
            rerolls += 1;
        }
        // Classic CEQ: the Power Arm adds a die and a re-roll to close
        // combat; the Targeting Eye two re-rolls to firearms.
        if self.has_item_effect(attacker, EquipmentEffect::CyberneticPowerArm, Some(attack)) {
            pool.push(bonus_die);
            rerolls += 1;
        }
        if self.has_item_effect(attacker, EquipmentEffect::TargetingEye, Some(attack)) {
            rerolls += 2;
        }
        // Classic Heroic Luck: one more re-roll this round.
        rerolls += self.card_rerolls(team);
        Ok((pool, rerolls))
    }

    /// WPN-2: the die of each barb attack when the attacker's weapon has
    /// barbs: `chosen` if it is one of the team's rank dice, else (`None`)
    /// the strongest. `None` if the weapon has no barbs.
    pub(crate) fn barb_die(
        &self,
        attacker: FigureId,
        team: u8,
        chosen: Option<DieColor>,
    ) -> Result<Option<DieColor>, Rejection> {
        let barbs = self
            .weapon_of(attacker)
            .and_then(|w| w.te.as_ref())
            .is_some_and(|t| t.barbs);
        let rank = self.rank_dice(team);
        match (barbs, chosen) {
            (false, None) => Ok(None),
            (false, Some(_)) => Err(Rejection::WeaponLacksAbility),
            (true, Some(c)) if rank.contains(&c) => Ok(Some(c)),
            (true, Some(_)) => Err(Rejection::InvalidChoice),
            (true, None) => Ok(rank.iter().copied().max_by_key(|d| d.strength())),
        }
    }

    fn plan_dl_attack(
        &self,
        attacker: FigureId,
        target: FigureId,
        attack: AttackType,
        cover: bool,
    ) -> Result<AttackPlan, Rejection> {
        let stats = self.creature_stats(attacker).ok_or(Rejection::NoDice)?;
        let mut pool = match attack {
            AttackType::CloseCombat => stats.cc.clone(),
            AttackType::Firearm => stats.fa.clone(),
            AttackType::Tech => Vec::new(),
        };
        if pool.is_empty() {
            return Err(Rejection::NoDice);
        }
        // Event 24 Razide Fury: +1W on every Razide attack.
        if self.effects.razide_fury
            && self.figures[attacker.index()].creature() == Some(CreatureKind::Razide)
        {
            pool.push(DieColor::White);
        }
        let rerolls = match attack {
            AttackType::CloseCombat => u8::from(self.effects.cc_frenzy),
            AttackType::Firearm => u8::from(self.effects.fa_wave),
            AttackType::Tech => 0,
        };
        Ok(AttackPlan {
            attacker,
            target,
            attack,
            pool,
            dv: 1 + u8::from(cover && attack == AttackType::Firearm),
            // Event 26 Berserk: no defense die against this figure.
            no_defense: self.effects.berserk.contains(&attacker),
            rerolls,
            charge: false,
            concentrated: false,
            barbs: None,
        })
    }

    /// Roll a pool (ATK-8) and re-roll up to `rerolls` failed dice, in
    /// pool order (ATK-9; re-rolling a failed die never hurts, so the
    /// engine always takes every re-roll it is given).
    pub(crate) fn roll_pool(
        &self,
        pool: &[DieColor],
        rerolls: u8,
        dice: &mut dyn Dice,
    ) -> (Vec<DieRoll>, u8) {
        let faces = &self.rules.tables.dice;
        let mut out = Vec::with_capacity(pool.len() + usize::from(rerolls));
        let mut hits = 0u8;
        let mut left = rerolls;
        for &color in pool {
            let face = dice.d6();
            let h = faces.hits(color, face);
            out.push(DieRoll {
                color,
                face,
                hits: h,
                reroll: false,
            });
            if h == 0 && left > 0 {
                left -= 1;
                let face = dice.d6();
                let h = faces.hits(color, face);
                out.push(DieRoll {
                    color,
                    face,
                    hits: h,
                    reroll: true,
                });
                hits += h;
            } else {
                hits += h;
            }
        }
        (out, hits)
    }

    /// Heroic Luck: re-roll up to `n` failed dice not yet re-rolled, in
    /// pool order (ATK-9). Returns the new hit total.
    /// DTC-CE-3: after the re-rolls of `team`'s own attack, a failed die
    /// that may still be re-rolled opens the owner's Heroic Luck window;
    /// played, the card re-rolls up to two failed dice. Returns the new hit
    /// count when it was played.
    pub(crate) fn offer_heroic_luck(
        &mut self,
        team: u8,
        attacker: FigureId,
        rolls: &mut Vec<DieRoll>,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Option<u8> {
        let failed = rolls
            .iter()
            .enumerate()
            .any(|(i, r)| rerollable(rolls, i) && r.hits == 0);
        let played = failed
            && self.reaction_window(team, attacker, Window::OwnAttackRolled, rolls, dice, events)
                == Some(DtCardKind::HeroicLuck);
        played.then(|| self.reroll_failed(rolls, 2, dice))
    }

    pub(crate) fn reroll_failed(
        &self,
        rolls: &mut Vec<DieRoll>,
        n: usize,
        dice: &mut dyn Dice,
    ) -> u8 {
        let faces = &self.rules.tables.dice;
        let mut left = n;
        let mut i = 0;
        while i < rolls.len() {
            if left > 0 && rolls[i].hits == 0 && rerollable(rolls, i) {
                let color = rolls[i].color;
                let face = dice.d6();
                let hits = faces.hits(color, face);
                rolls.insert(
                    i + 1,
                    DieRoll {
                        color,
                        face,
                        hits,
                        reroll: true,
                    },
                );
                left -= 1;
                i += 1;
            }
            i += 1;
        }
        total_hits(rolls)
    }

    /// Resolve a checked attack (ATK-8..12, DEF, TAC-1..4, WPN-1).
    pub(crate) fn resolve_attack(
        &mut self,
        plan: AttackPlan,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let (mut rolls, mut hits) = self.roll_pool(&plan.pool, plan.rerolls, dice);
        let credit = self.figures[plan.attacker.index()].team();
        let target_team = self.figures[plan.target.index()].team();
        let mut dv = plan.dv;
        let mut dud = false;
        // DTC-CE-3 windows, after the roll and every re-roll, before defense.
        match (credit, target_team) {
            (Some(team), None) => {
                if let Some(h) =
                    self.offer_heroic_luck(team, plan.attacker, &mut rolls, dice, events)
                {
                    hits = h;
                }
            }
            (None, Some(team)) if hits > dv => {
                let w = Window::DlAttackRolled {
                    firearm: plan.attack == AttackType::Firearm,
                };
                match self.reaction_window(team, plan.target, w, &rolls, dice, events) {
                    Some(DtCardKind::CombatAura) => dv += 2,
                    Some(DtCardKind::DudRound) => dud = true,
                    _ => {}
                }
            }
            _ => {}
        }
        // Classic CDT-1 windows (only a player holding a 1993 card).
        if self.teams.iter().any(|t| !t.cards.is_empty()) && !dud {
            dud = self.two_use_attack_windows(
                plan.attacker,
                plan.target,
                plan.attack,
                &mut rolls,
                &mut hits,
                &mut dv,
                dice,
                events,
            );
        }
        events.push(Event::AttackRolled {
            attacker: Some(plan.attacker),
            target: plan.target,
            attack: Some(plan.attack),
            dice: rolls,
            hits,
        });
        let target_square = self.figures[plan.target.index()].square();
        let killed = if dud {
            let health = self.figures[plan.target.index()].health;
            events.push(Event::Damage {
                figure: plan.target,
                amount: 0,
                health,
            });
            false
        } else {
            self.apply_hits(plan.target, hits, dv, plan.no_defense, credit, dice, events)
        };
        let f = &mut self.figures[plan.attacker.index()];
        f.turn.weak_spot = false;
        if plan.attack != AttackType::CloseCombat {
            f.turn.rapid_reload = false;
        }
        if plan.concentrated {
            match plan.attack {
                AttackType::Firearm => f.turn.fire_bonus += 1,
                AttackType::Tech => f.turn.tech_bonus += 1,
                AttackType::CloseCombat => {}
            }
        }
        f.turn.last = Some(match plan.attack {
            AttackType::Firearm => LastAction::Fire(plan.target),
            AttackType::Tech => LastAction::Tech(plan.target),
            AttackType::CloseCombat => LastAction::Other,
        });
        if let (true, Some(sq)) = (killed, target_square) {
            let spec = self.figures[plan.attacker.index()].specialty();
            if self.hooks().tactics
                && plan.attack == AttackType::CloseCombat
                && spec == Some(Specialty::CloseCombat)
            {
                self.overrun = Some((plan.attacker, sq));
            }
            if plan.attack == AttackType::Tech {
                let placed = self.place_trap(plan.attacker, sq, events);
                if let (true, Some(die)) = (placed, plan.barbs) {
                    self.barbs(plan.attacker, sq, die, credit, dice, events);
                }
            }
        }
    }

    /// WPN-1: a trap on the victim's square; at most 2 per owner (the
    /// oldest goes first: the engine's fixed reading of "its choice").
    fn place_trap(
        &mut self,
        owner: FigureId,
        square: citadel_grid::Square,
        events: &mut Vec<Event>,
    ) -> bool {
        if self.token_at(square).is_some() {
            return false;
        }
        let owned: Vec<usize> = (0..self.tokens.len())
            .filter(|&i| self.tokens[i].kind == TokenState::Trap { owner: Some(owner) })
            .collect();
        if owned.len() >= 2 {
            let old = self.tokens.remove(owned[0]);
            events.push(Event::TokenRemoved { square: old.square });
        }
        self.tokens.push(Token {
            square,
            kind: TokenState::Trap { owner: Some(owner) },
        });
        events.push(Event::TrapPlaced { square, owner });
        true
    }

    /// TRP-1: a trap attack (traps, bombs, Shock Trap, event 14). `owner`
    /// gets the credit (TRP-3). Returns true if the target was eliminated.
    pub(crate) fn trap_attack(
        &mut self,
        target: FigureId,
        owner: Option<FigureId>,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> bool {
        let pool = self.trap_dice();
        let credit = owner.and_then(|o| self.figures[o.index()].team());
        self.fixed_attack(target, &pool, credit, dice, events)
    }

    /// The DL board's trap dice for the mission's band (DLB-3, TRP-1).
    pub(crate) fn trap_dice(&self) -> Vec<DieColor> {
        let band = usize::from(self.dl.band.max(1)) - 1;
        self.rules
            .tables
            .terrain
            .get(band)
            .map(|t| t.trap_dice.clone())
            .unwrap_or_default()
    }

    /// Roll one defense die for `figure` (DEF-3, DEF-4); returns its hits.
    fn roll_defense(
        &self,
        figure: FigureId,
        color: DieColor,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> u8 {
        let face = dice.d6();
        let hits = self.rules.tables.dice.hits(color, face);
        events.push(Event::DefenseRolled {
            figure,
            die: DieRoll {
                color,
                face,
                hits,
                reroll: false,
            },
        });
        hits
    }

    /// An attack that is not an Attack action: fixed dice, no re-rolls, no
    /// cover (traps, bombs, event 3, Control Defense System).
    pub(crate) fn fixed_attack(
        &mut self,
        target: FigureId,
        pool: &[DieColor],
        credit: Option<u8>,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> bool {
        let (rolls, hits) = self.roll_pool(pool, 0, dice);
        events.push(Event::AttackRolled {
            attacker: None,
            target,
            attack: None,
            dice: rolls,
            hits,
        });
        let dv = match self.figures[target.index()].kind {
            FigureKind::Doomtrooper { .. } => 1,
            FigureKind::Creature { .. } => self.creature_stats(target).map_or(0, |s| s.dv),
        };
        self.apply_hits(target, hits, dv, false, credit, dice, events)
    }

    /// DEF-2..6 and ATK-11/12: hits against one target. `credit` is the
    /// team whose attack, trap or bomb it was. Returns true on elimination.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn apply_hits(
        &mut self,
        target: FigureId,
        hits: u8,
        dv: u8,
        no_defense: bool,
        credit: Option<u8>,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> bool {
        let mut damage = hits.saturating_sub(dv);
        match self.figures[target.index()].kind {
            FigureKind::Creature { .. } => {
                // DEF-4: the defense die only matters when damage is exactly 1.
                if damage == 1 && !no_defense {
                    if let Some(color) = self.creature_stats(target).and_then(|s| s.defense_die) {
                        damage -= self.roll_defense(target, color, dice, events).min(damage);
                    }
                }
                events.push(Event::Damage {
                    figure: target,
                    amount: damage,
                    health: u8::from(damage == 0),
                });
                if damage >= 1 {
                    self.eliminate_creature(target, credit, events);
                    return true;
                }
                false
            }
            FigureKind::Doomtrooper { team, .. } => {
                if damage >= 1 && !no_defense {
                    // DEF-3 / CDF-2: the rank's defense (absorb) dice,
                    // each hit saving one damage.
                    let color = self.defense_die_of_team(team);
                    let corp = self.teams[usize::from(team)].corporation;
                    for _ in 0..(self.hooks().defense_dice)(corp) {
                        if damage == 0 {
                            break;
                        }
                        damage -= self.roll_defense(target, color, dice, events).min(damage);
                    }
                }
                self.damage_dt(target, damage, credit, dice, events)
            }
        }
    }

    /// A DT loses health (ATK-11, PPC-2, PPC-3). Returns true on elimination.
    pub(crate) fn damage_dt(
        &mut self,
        target: FigureId,
        damage: u8,
        credit: Option<u8>,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> bool {
        let mut damage = damage;
        let (health, team) = (
            self.figures[target.index()].health,
            self.figures[target.index()].team(),
        );
        // DTC-CE-3 Last Stand: damage from any source that would bring the
        // DT to 0 health leaves it at 1 instead.
        if let (true, Some(team)) = (health > 0 && damage >= health, team) {
            if self.reaction_window(team, target, Window::Lethal, &[], dice, events)
                == Some(DtCardKind::LastStand)
            {
                damage = health - 1;
            }
        }
        let f = &mut self.figures[target.index()];
        let lost = damage.min(f.health);
        f.health -= lost;
        let health = f.health;
        events.push(Event::Damage {
            figure: target,
            amount: damage,
            health,
        });
        if lost > 0 {
            if let Some(team) = team {
                self.note_health_lost(team, lost);
            }
            self.award(
                Side::DarkLegion,
                i32::from(lost),
                "health lost by a Doomtrooper",
                events,
            );
            match (credit, self.hooks().friendly_fire) {
                (Some(team), FriendlyFire::RecklessTokens) => {
                    let t = &mut self.teams[usize::from(team)];
                    t.reckless = t.reckless.saturating_add(lost);
                    events.push(Event::RecklessToken {
                        team,
                        total: t.reckless,
                    });
                }
                (Some(team), FriendlyFire::ThreePpPerWound) => self.award(
                    Side::Team(team),
                    -3 * i32::from(lost),
                    "friendly fire",
                    events,
                ),
                (None, _) => {}
            }
        }
        if health == 0 {
            let last = self.figures[target.index()].square();
            self.set_place(target, Place::Eliminated);
            let f = &mut self.figures[target.index()];
            f.items.clear(); // EQP-6: back to the bunker.
            events.push(Event::Eliminated {
                figure: target,
                by: credit,
            });
            // MSN-4: what it carried drops onto its last square.
            if let Some(last) = last {
                self.drop_carried(target, last, events);
            }
            let pp = self.hooks().dl_pp_per_dt_eliminated;
            self.award(Side::DarkLegion, pp, "Doomtrooper eliminated", events);
            self.after_dt_out(target, events);
            return true;
        }
        false
    }

    fn eliminate_creature(
        &mut self,
        target: FigureId,
        credit: Option<u8>,
        events: &mut Vec<Event>,
    ) {
        let pp = self.creature_stats(target).map_or(0, |s| i32::from(s.pp));
        if let Some(kind) = self.figures[target.index()].creature() {
            self.note_kill(credit, kind);
        }
        self.effects.berserk.retain(|f| *f != target);
        self.tag_eliminated(target);
        // DL-1: back to the pool at once.
        self.set_place(target, Place::Reserve);
        self.figures[target.index()].turn = Default::default();
        events.push(Event::Eliminated {
            figure: target,
            by: credit,
        });
        if let Some(team) = credit {
            self.teams[usize::from(team)].kill_pp += pp;
            self.award(
                Side::Team(team),
                pp,
                "Dark Legion figure eliminated",
                events,
            );
        }
    }

    /// Change a side's PP (PRM-1 floor at 0), with rank changes (RNK-3).
    pub(crate) fn award(&mut self, side: Side, delta: i32, reason: &str, events: &mut Vec<Event>) {
        let pp = match side {
            Side::DarkLegion => &mut self.dl.pp,
            Side::Team(t) => &mut self.teams[usize::from(t)].pp,
        };
        let before = *pp;
        *pp = (before + delta).max(0);
        let total = *pp;
        // The event reports the change actually made, so a log of events
        // always adds up to the totals (PRM-1's floor may absorb part of
        // a penalty, or all of it: then there is no event).
        if total == before {
            return;
        }
        events.push(Event::PromotionPoints {
            side,
            delta: total - before,
            total,
            reason: reason.to_string(),
        });
        if let (Side::Team(t), true) = (side, self.hooks().rank_changes_in_mission) {
            let team = &mut self.teams[usize::from(t)];
            let rank = self.rules.rank_for(team.pp);
            if rank != team.rank {
                team.rank = rank;
                events.push(Event::RankChanged { team: t, rank });
            }
        }
    }

    /// TRN-2: a team with no DT left in play leaves the marker pool at once.
    pub(crate) fn after_dt_out(&mut self, id: FigureId, _events: &mut [Event]) {
        if let Some(team) = self.figures[id.index()].team() {
            let [a, b] = self.teams[usize::from(team)].figures;
            let alive = |f: FigureId| {
                !matches!(
                    self.figures[f.index()].place,
                    Place::Eliminated | Place::Exited
                )
            };
            if !alive(a) && !alive(b) {
                self.edition.rules_mut().leave_pool(Side::Team(team));
            }
        }
        if self.active == Some(id) {
            self.active = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::content::AttackType;
    use crate::game::playable::visit_random_games;

    /// `attack_in_reach` is a necessary condition of `check_attack`: in
    /// positions of random games of every playable mission, no attack the
    /// check accepts is out of reach, and the condition does turn away
    /// attacks (else `legal()` would gain nothing by asking it first).
    #[test]
    fn an_accepted_attack_is_always_in_reach() {
        let (mut accepted, mut turned_away) = (0usize, 0usize);
        visit_random_games(2, 400, 0xa77ac, |g, n| {
            if n % 5 != 0 {
                return;
            }
            let on_board = || g.figures.iter().filter(|f| f.square().is_some());
            for a in on_board() {
                for t in on_board() {
                    for attack in [
                        AttackType::CloseCombat,
                        AttackType::Firearm,
                        AttackType::Tech,
                    ] {
                        let reach = g.attack_in_reach(a.id, t.id, attack);
                        if g.check_attack(a.id, t.id, attack).is_ok() {
                            assert!(reach, "{:?} -> {:?} {attack:?}", a.id, t.id);
                            accepted += 1;
                        } else if !reach {
                            turned_away += 1;
                        }
                    }
                }
            }
        });
        assert!(accepted > 1000, "{accepted} attacks accepted");
        assert!(turned_away > accepted, "{turned_away} turned away");
    }
}
