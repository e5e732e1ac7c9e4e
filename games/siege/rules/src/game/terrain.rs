//! Attacks on terrain tokens (core ATK-16; ce.md DEF-1, DEF-4, DEF-6,
//! PPC-1, DLB-3), terminal hacks (ce.md TAC-6, SPC-2, COR-2, EQI Glyph
//! Decrypter, Neural Jack, Security Download) and the mission rules built
//! on them (missions.md C1M3, C1M5, C2M3, C2M4).
//!
//! Decisions (see docs/RULES-COVERAGE.md):
//! - Only Doomtroopers attack or hack terrain; the Dark Legion has no use
//!   for it (its PP come from damage, PPC-2).
//! - ATK-16 names the attack types: close combat on an adjacent token and
//!   firearms under ATK-5 with LoS to the token's square (LOS-9). Tech
//!   attacks reach terrain only as terminal hacks (TAC-6).
//! - Terrain rolls no defense die (DEF-4); firearm cover (DEF-1, LOS-10)
//!   applies. Weak Spot and Rapid Reload apply to "the next attack" and so
//!   to these too. Concentration (TAC-3/4) is about figures; a hack right
//!   after a hack of the same terminal is concentrated tech (TAC-4).
//! - Heroic Luck (DTC-CE-3: "in the owner's attack after the roll") is
//!   offered for attacks on terrain and terminal hacks too: both are
//!   Attack actions (ATK-16, TAC-6). Its window opens after the
//!   attacker's own re-rolls, when a die is left to re-roll.

use super::command::Command;
use super::event::{DieRoll, Event};
use super::ids::{FigureId, Side};
use super::rejection::Rejection;
use super::state::{Decision, Game, LastAction, Token, TokenState};
use crate::content::missions::TokenKind;
use crate::content::tables::EquipmentEffect;
use crate::content::{AttackType, CreatureKind, Specialty};
use crate::dice::{Dice, DieColor};
use citadel_grid::{line_of_sight, Level, Sight, Square};

/// C1M5: the Throne's terrain values (missions.md: DV 3 at every band, 6 PP).
const THRONE: (u8, u8) = (3, 6);

/// The mission rule keys this module implements.
pub(crate) const RULE_HACK_TRANSMITS: &str = "hack_relay_transmits";
pub(crate) const RULE_THRONE: &str = "throne_target";
pub(crate) const RULE_PORTAL_REINFORCEMENTS: &str = "portal_reinforcements_from_round_6";
pub(crate) const RULE_NEPHARITE_SUMMONING: &str = "nepharite_summoning";

/// A checked attack on a token, ready to roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TokenPlan {
    attacker: FigureId,
    team: u8,
    token: Square,
    /// `None`: a terminal hack.
    attack: Option<AttackType>,
    pool: Vec<DieColor>,
    dv: u8,
    rerolls: u8,
    concentrated: bool,
}

impl Game {
    /// Whether the mission has the `RULE` key.
    pub(crate) fn has_rule(&self, key: &str) -> bool {
        self.rules.mission.special_rules.iter().any(|r| r == key)
    }

    /// The terrain DV and PP of a token if it can be attacked (BRD-4
    /// table, DLB-3 for the mission's band; the C1M5 Throne).
    pub(crate) fn terrain_values(&self, token: &Token) -> Option<(u8, u8)> {
        let TokenState::Mission { kind, name, .. } = &token.kind else {
            return None;
        };
        // A named token with its own DV and PP in the record (classic
        // terrain targets: the Battle Computer, the Teleporter Doorways).
        if let Some(values) = name.as_deref().and_then(|n| {
            let p = self
                .rules
                .mission
                .tokens
                .iter()
                .find(|p| p.name.as_deref() == Some(n))?;
            p.dv.zip(p.pp)
        }) {
            return Some(values);
        }
        let row = self.rules.tables.terrain(self.dl.band.max(1))?;
        match kind {
            TokenKind::Terminal => Some((row.terminal_dv, row.pp_terminal)),
            TokenKind::Turret => Some((row.turret_dv, row.pp_turret)),
            TokenKind::Portal => Some((row.portal_dv, row.pp_portal)),
            TokenKind::Objective
                if self.has_rule(RULE_THRONE) && name.as_deref() == Some("throne") =>
            {
                Some(THRONE)
            }
            _ => None,
        }
    }

    fn carries(&self, figure: FigureId, effect: EquipmentEffect, aug: Option<AttackType>) -> bool {
        self.figures[figure.index()].items.iter().any(|&i| {
            let d = self.rules.tables.equipment_def(i);
            d.effect == effect && (aug.is_none() || d.augment == aug)
        })
    }

    /// The attacker's team and the token, or why not (shared checks).
    fn token_target(
        &self,
        figure: FigureId,
        token: Square,
    ) -> Result<(u8, Square, &Token), Rejection> {
        let f = &self.figures[figure.index()];
        let team = f.team().ok_or(Rejection::AttackForbidden)?;
        let from = f.square().ok_or(Rejection::FigureNotOnBoard)?;
        let t = self.token_at(token).ok_or(Rejection::NoSuchToken)?;
        Ok((team, from, t))
    }

    /// The rank dice of `team` (DICE-2), strongest first, `n` of them.
    fn strongest_rank_dice(&self, team: u8, n: u8) -> Vec<DieColor> {
        let rank = self.teams[usize::from(team)].rank;
        let mut dice = self
            .rules
            .tables
            .ranks
            .get(usize::from(rank.max(1)) - 1)
            .map_or([DieColor::White; 3], |r| r.combat)
            .to_vec();
        dice.sort_by_key(|d| std::cmp::Reverse(d.strength()));
        dice.truncate(usize::from(n.min(3)));
        dice
    }

    /// COR-2 re-rolls of `attack` for `team` (current rank; the
    /// corporation hook).
    fn corporation_rerolls(&self, team: u8, attack: AttackType) -> u8 {
        let t = &self.teams[usize::from(team)];
        (self.hooks().corporation_attack)(t.corporation, attack, t.rank).1
    }

    /// Check an Attack action on a terrain token (ATK-16) without change.
    pub(crate) fn check_attack_token(
        &self,
        figure: FigureId,
        token: Square,
        attack: AttackType,
    ) -> Result<TokenPlan, Rejection> {
        let (team, from, t) = self.token_target(figure, token)?;
        let (terrain_dv, _) = self
            .terrain_values(t)
            .ok_or(Rejection::TokenNotAttackable)?;
        let board = &self.rules.board;
        let f = &self.figures[figure.index()];
        let weapon = self.weapon_of(figure).ok_or(Rejection::NoDice)?;
        let mut cover = false;
        let dice = match attack {
            AttackType::CloseCombat => {
                if !self.walls.adjacent(board, from, token) {
                    return Err(Rejection::NotAdjacent);
                }
                weapon.cc.as_ref().ok_or(Rejection::NoDice)?
            }
            AttackType::Firearm => {
                let fa = weapon.fa.as_ref().ok_or(Rejection::NoDice)?;
                let dist = from.dist(token);
                if dist < i32::from(fa.min_range).max(2) {
                    return Err(Rejection::TooClose);
                }
                if dist > i32::from(fa.max_range) {
                    return Err(Rejection::OutOfRange);
                }
                let smoky = |s| board.tile_of(s).is_some_and(|i| self.tiles[i].smoke);
                if smoky(from) || smoky(token) || board.level(from) == Some(Level::S2) {
                    return Err(Rejection::AttackForbidden);
                }
                // LOS-9: line of sight to the token's square.
                match line_of_sight(board, &self.walls, self, from, token) {
                    Sight::Blocked => return Err(Rejection::NoLineOfSight),
                    Sight::Clear { cover: c } => cover = c && self.hooks().cover,
                }
                &fa.dice
            }
            AttackType::Tech => return Err(Rejection::TokenNotAttackable),
        };
        let forbidden = match attack {
            AttackType::CloseCombat => self.effects.no_close_combat,
            AttackType::Firearm => self.effects.no_firearms,
            AttackType::Tech => self.effects.no_tech,
        };
        if forbidden {
            return Err(Rejection::AttackForbidden);
        }
        let mut pool = self.strongest_rank_dice(team, dice.rank_dice);
        pool.extend(dice.extra.iter().copied());
        if pool.is_empty() {
            return Err(Rejection::NoDice);
        }
        let turn = &f.turn;
        if attack == AttackType::Firearm && f.specialty() == Some(Specialty::Firearms) {
            // TAC-3: the bonus already earned applies to later FA attacks.
            pool.extend(std::iter::repeat_n(
                DieColor::White,
                usize::from(turn.fire_bonus),
            ));
        }
        if self.carries(figure, EquipmentEffect::ExtraDie, Some(attack)) {
            pool.push(DieColor::White);
        }
        if turn.rapid_reload && attack == AttackType::Firearm {
            pool.push(DieColor::Red);
        }
        let mut rerolls = self.corporation_rerolls(team, attack);
        if self.carries(figure, EquipmentEffect::RerollOne, Some(attack)) {
            rerolls += 1;
        }
        // DEF-1: the terrain row, +1 in cover against firearms.
        let mut dv = terrain_dv + u8::from(cover);
        if turn.weak_spot {
            dv = dv.saturating_sub(1);
        }
        Ok(TokenPlan {
            attacker: figure,
            team,
            token,
            attack: Some(attack),
            pool,
            dv,
            rerolls,
            concentrated: false,
        })
    }

    /// Check a terminal hack (TAC-6) without change.
    pub(crate) fn check_hack(
        &self,
        figure: FigureId,
        token: Square,
    ) -> Result<TokenPlan, Rejection> {
        let (team, from, t) = self.token_target(figure, token)?;
        let TokenState::Mission { kind, hacked, .. } = &t.kind else {
            return Err(Rejection::NotATerminal);
        };
        if *kind != TokenKind::Terminal {
            return Err(Rejection::NotATerminal);
        }
        let f = &self.figures[figure.index()];
        // SPC-2: the specialty and a tech attack on the weapon.
        let te = self
            .weapon_of(figure)
            .and_then(|w| w.te.as_ref())
            .filter(|_| f.specialty() == Some(Specialty::Tech))
            .ok_or(Rejection::NotAHacker)?;
        if *hacked {
            return Err(Rejection::AlreadyHacked);
        }
        let glyph = self.carries(figure, EquipmentEffect::GlyphDecrypter, None);
        let board = &self.rules.board;
        if !self.walls.adjacent(board, from, token) {
            if !glyph {
                return Err(Rejection::NotAdjacent);
            }
            // Glyph Decrypter: `dist` ≤ 3 with LoS to the square (LOS-9).
            if from.dist(token) > 3 {
                return Err(Rejection::OutOfRange);
            }
            if !line_of_sight(board, &self.walls, self, from, token).is_clear() {
                return Err(Rejection::NoLineOfSight);
            }
        }
        // Event 13 Security Encryption forbids tech attacks, hacks included.
        if self.effects.no_tech {
            return Err(Rejection::AttackForbidden);
        }
        let (terminal_dv, _) = self.terrain_values(t).ok_or(Rejection::NotATerminal)?;
        let mut pool = self.strongest_rank_dice(team, te.dice.rank_dice);
        pool.extend(te.dice.extra.iter().copied());
        if pool.is_empty() {
            return Err(Rejection::NoDice);
        }
        let turn = &f.turn;
        // TAC-4: a hack right after a hack of the same terminal.
        let concentrated = turn.last == Some(LastAction::Hack(token));
        let bonus = turn.tech_bonus + u8::from(concentrated);
        pool.extend(std::iter::repeat_n(DieColor::White, usize::from(bonus)));
        if self.carries(figure, EquipmentEffect::ExtraDie, Some(AttackType::Tech)) {
            pool.push(DieColor::White); // Neural Jack
        }
        if glyph {
            pool.push(DieColor::White);
        }
        if turn.rapid_reload {
            pool.push(DieColor::Red);
        }
        let mut rerolls = self.corporation_rerolls(team, AttackType::Tech);
        if self.carries(figure, EquipmentEffect::RerollOne, Some(AttackType::Tech)) {
            rerolls += 1;
        }
        if self.carries(figure, EquipmentEffect::SecurityDownload, None) {
            rerolls += 1; // A TE Specialist carrier: 1 failed die per hack.
        }
        let mut dv = terminal_dv;
        if turn.weak_spot {
            dv = dv.saturating_sub(1);
        }
        Ok(TokenPlan {
            attacker: figure,
            team,
            token,
            attack: None,
            pool,
            dv,
            rerolls,
            concentrated,
        })
    }

    /// `AttackToken`: an Attack action on a terrain token.
    pub(crate) fn do_attack_token(
        &mut self,
        figure: FigureId,
        token: Square,
        attack: AttackType,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let cost = self.check_actor(figure, true, super::actions::Cost::Action)?;
        let plan = self.check_attack_token(figure, token, attack)?;
        self.begin_action(figure, cost, events);
        self.resolve_token_plan(plan, dice, events);
        self.end_action(figure, events);
        Ok(())
    }

    /// `Hack`: a terminal hack.
    pub(crate) fn do_hack(
        &mut self,
        figure: FigureId,
        token: Square,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let cost = self.check_actor(figure, true, super::actions::Cost::Action)?;
        let plan = self.check_hack(figure, token)?;
        self.begin_action(figure, cost, events);
        self.resolve_token_plan(plan, dice, events);
        self.end_action(figure, events);
        Ok(())
    }

    fn resolve_token_plan(
        &mut self,
        plan: TokenPlan,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let (mut rolls, mut hits): (Vec<DieRoll>, u8) =
            self.roll_pool(&plan.pool, plan.rerolls, dice);
        // DTC-CE-3: Heroic Luck in the owner's own attack, after its re-rolls.
        if let Some(h) = self.offer_heroic_luck(plan.team, plan.attacker, &mut rolls, dice, events)
        {
            hits = h;
        }
        events.push(Event::TokenAttackRolled {
            attacker: plan.attacker,
            token: plan.token,
            attack: plan.attack,
            dice: rolls,
            hits,
            dv: plan.dv,
        });
        // DEF-2, DEF-4 (no defense die), DEF-6.
        let success = hits > plan.dv;
        let f = &mut self.figures[plan.attacker.index()];
        f.turn.weak_spot = false;
        if plan.attack != Some(AttackType::CloseCombat) {
            f.turn.rapid_reload = false;
        }
        if plan.concentrated {
            f.turn.tech_bonus += 1;
        }
        f.turn.last = Some(match plan.attack {
            None => LastAction::Hack(plan.token),
            Some(_) => LastAction::Other,
        });
        if !success {
            return;
        }
        let Some(i) = self.tokens.iter().position(|t| t.square == plan.token) else {
            return;
        };
        let (pp, was_hacked, name) = {
            let t = &self.tokens[i];
            let pp = self.terrain_values(t).map_or(0, |(_, pp)| pp);
            match &t.kind {
                TokenState::Mission { hacked, name, .. } => (pp, *hacked, name.clone()),
                _ => (pp, false, None),
            }
        };
        match plan.attack {
            None => {
                if let TokenState::Mission { hacked, .. } = &mut self.tokens[i].kind {
                    *hacked = true;
                }
                events.push(Event::TokenHacked {
                    figure: plan.attacker,
                    token: plan.token,
                    name,
                });
                self.note_hack(plan.team);
                self.award(
                    Side::Team(plan.team),
                    i32::from(pp),
                    "terminal hacked",
                    events,
                );
                if self.has_rule(RULE_HACK_TRANSMITS) {
                    self.count_special_at("transmit", plan.token, plan.attacker, events);
                }
            }
            Some(_) => {
                let token = self.tokens.remove(i);
                self.destroyed.push(token);
                events.push(Event::TokenDestroyed {
                    figure: plan.attacker,
                    token: plan.token,
                    name,
                });
                // D33: a terminal scores once, to whoever neutralises it first.
                if !was_hacked {
                    self.award(
                        Side::Team(plan.team),
                        i32::from(pp),
                        "terrain destroyed",
                        events,
                    );
                }
            }
        }
    }

    /// Count the special action `action` once at the feature on `feature`
    /// (`ONCE=yes`), if the mission has it and it was not counted there.
    pub(crate) fn count_special_at(
        &mut self,
        action: &str,
        feature: Square,
        figure: FigureId,
        events: &mut Vec<Event>,
    ) {
        let Some(special) = self.rules.mission.special(action) else {
            return;
        };
        if self.specials_at.contains(&(special, feature)) {
            return;
        }
        self.specials_at.push((special, feature));
        match self.specials.iter_mut().find(|(a, _)| *a == special) {
            Some((_, n)) => *n += 1,
            None => self.specials.push((special, 1)),
        }
        events.push(Event::SpecialDone {
            figure,
            action: action.to_string(),
        });
    }

    /// For a special action: the feature square it counts at next to `at`,
    /// `None` if there is none (MSN-3). Desks are features of the board;
    /// other kinds must still be on the board. With `ONCE=yes`, features
    /// already counted are skipped; the first in record order is taken.
    pub(crate) fn special_feature(
        &self,
        special: crate::content::missions::SpecialId,
        at: Square,
    ) -> Option<Square> {
        let def = self.rules.mission.special_def(special);
        let board = &self.rules.board;
        self.rules
            .mission
            .tokens
            .iter()
            .filter(|t| t.kind == def.adjacent_to)
            .filter(|t| t.kind == TokenKind::Desk || self.token_at(t.square).is_some())
            .filter(|t| !def.once_per_feature || !self.specials_at.contains(&(special, t.square)))
            .find(|t| self.walls.adjacent(board, at, t.square))
            .map(|t| t.square)
    }

    /// The token commands `figure` could send now (for `legal()`).
    pub(crate) fn token_commands(&self, figure: FigureId, out: &mut Vec<Command>) {
        let f = &self.figures[figure.index()];
        if f.team().is_none() || f.square().is_none() {
            return;
        }
        for t in &self.tokens {
            if !matches!(t.kind, TokenState::Mission { .. }) {
                continue;
            }
            let token = t.square;
            if self.check_hack(figure, token).is_ok() {
                out.push(Command::Hack { figure, token });
            }
            for attack in [AttackType::CloseCombat, AttackType::Firearm] {
                if self.check_attack_token(figure, token, attack).is_ok() {
                    out.push(Command::AttackToken {
                        figure,
                        token,
                        attack,
                    });
                }
            }
        }
    }

    /// MSN-2 `destroyed(tokens)`: each named token was removed by attack.
    pub(crate) fn tokens_destroyed(&self, names: &[String]) -> bool {
        names.iter().all(|n| {
            self.destroyed
                .iter()
                .any(|t| matches!(&t.kind, TokenState::Mission { name: Some(m), .. } if m == n))
        })
    }

    /// MSN-2 `hacked(tokens)`: each named terminal was hacked (latching: a
    /// hacked terminal destroyed later still counts).
    pub(crate) fn tokens_hacked(&self, names: &[String]) -> bool {
        names.iter().all(|n| {
            self.tokens.iter().chain(&self.destroyed).any(|t| {
                matches!(&t.kind, TokenState::Mission { name: Some(m), hacked: true, .. } if m == n)
            })
        })
    }

    /// The squares of mission tokens of `kind` still on the board.
    pub(crate) fn mission_tokens_of(&self, kind: TokenKind) -> Vec<Square> {
        self.tokens
            .iter()
            .filter(|t| matches!(&t.kind, TokenState::Mission { kind: k, .. } if *k == kind))
            .map(|t| t.square)
            .collect()
    }

    /// Empty, passable, token-free squares adjacent (ADJ-4) to `near`, by
    /// lowest `(y, x)`.
    pub(crate) fn squares_next_to(&self, near: Square) -> Vec<Square> {
        let board = &self.rules.board;
        let mut v: Vec<Square> = near
            .ring()
            .into_iter()
            .filter(|s| {
                board.passable(*s)
                    && self.walls.adjacent(board, near, *s)
                    && self.figure_at(*s).is_none()
                    && self.token_at(*s).is_none()
            })
            .collect();
        v.sort();
        v
    }

    /// C2M3 `portal_reinforcements_from_round_6`: the extra answers to a
    /// reinforcement's red entrance: any empty passable square adjacent to
    /// a portal still on the board.
    pub(crate) fn portal_reinforcement_options(&self, kind: CreatureKind) -> Vec<Command> {
        if !self.has_rule(RULE_PORTAL_REINFORCEMENTS) || self.round < 6 {
            return Vec::new();
        }
        let mut squares: Vec<Square> = self
            .mission_tokens_of(TokenKind::Portal)
            .into_iter()
            .flat_map(|p| self.squares_next_to(p))
            .collect();
        squares.sort();
        squares.dedup();
        squares
            .into_iter()
            .map(|square| Command::Place { kind, square })
            .collect()
    }

    /// Answers to [`Decision::PlaceNear`].
    pub(crate) fn place_near_options(&self, kind: CreatureKind, near: Square) -> Vec<Command> {
        if self.pool_count(kind) == 0 {
            return Vec::new();
        }
        self.squares_next_to(near)
            .into_iter()
            .map(|square| Command::Place { kind, square })
            .collect()
    }

    /// Mission rules at the start of the DL turn, before step 1. Returns
    /// true if the DL was asked to decide something, which it answers
    /// before the event is drawn.
    ///
    /// C2M4 `nepharite_summoning`: in round 7, unless all ritual terminals
    /// are neutralised, the Nepharite (if in the pool) is placed by the DL
    /// on an empty square adjacent to the summoning portal, at the start
    /// of the DL turn: before the event draw (DL-3 step 1). Decision: the
    /// portal's square is used even if the portal was destroyed; the
    /// terminals are what stop the ritual.
    pub(crate) fn mission_dl_start(&mut self) -> bool {
        if !self.has_rule(RULE_NEPHARITE_SUMMONING) || self.round != 7 {
            return false;
        }
        if self.all_terminals_neutralised() {
            return false;
        }
        let portal = self
            .rules
            .mission
            .tokens
            .iter()
            .find(|t| t.kind == TokenKind::Portal)
            .map(|t| t.square);
        match portal {
            Some(near) if self.pool_count(CreatureKind::Nepharite) > 0 => {
                self.ask_dl(Decision::PlaceNear {
                    kind: CreatureKind::Nepharite,
                    near,
                });
                true
            }
            _ => false,
        }
    }

    /// Every terminal of the mission is hacked or destroyed.
    fn all_terminals_neutralised(&self) -> bool {
        self.rules
            .mission
            .tokens
            .iter()
            .filter(|t| t.kind == TokenKind::Terminal)
            .all(|t| {
                let neutralised = |tok: &Token| {
                    tok.square == t.square
                        && matches!(
                            tok.kind,
                            TokenState::Mission {
                                kind: TokenKind::Terminal,
                                ..
                            }
                        )
                };
                self.destroyed.iter().any(neutralised)
                    || self.tokens.iter().any(|tok| {
                        neutralised(tok)
                            && matches!(tok.kind, TokenState::Mission { hacked: true, .. })
                    })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, Corporation};
    use crate::dice::SeededDice;
    use crate::game::position::{Position, TurnSpec, TurnSpecMarker};
    use crate::game::{DarkLegionSetup, Place, Setup};

    /// C2M4 at the start of the DL turn of `round`, no cards anywhere.
    fn c2m4(round: u32) -> Game {
        let content = crate::game::playable::relaxed(Content::embedded().expect("content"));
        let setup = Setup::new("ce-c2m4", &[Corporation::Bauhaus], DarkLegionSetup::Ai);
        let position = Position {
            turn: Some(TurnSpec::DarkLegionStart),
            round: Some(round),
            face_down: (0..4).map(|t| (t, vec![])).collect(),
            event_deck: Some(vec![19, 18]),
            force_pile: Some(vec![]),
            markers: Some(vec![TurnSpecMarker::Corporation(Corporation::Bauhaus)]),
            ..Default::default()
        };
        Game::scenario_with_content(setup, &content, &position, &mut SeededDice::new(1))
            .expect("scenario")
    }

    fn summoning_asked(g: &Game) -> bool {
        g.pending
            .iter()
            .any(|p| matches!(p.decision, Decision::PlaceNear { .. }))
    }

    #[test]
    fn nepharite_summoning_skipped_when_all_ritual_terminals_are_neutralised() {
        // Control: nothing neutralised, the DL is asked to place it.
        let mut g = c2m4(7);
        g.settle(&mut SeededDice::new(2));
        assert!(summoning_asked(&g));
        // Two hacked and one destroyed: no Nepharite, and the goal holds.
        let mut g = c2m4(7);
        for t in &mut g.tokens {
            if let TokenState::Mission {
                name: Some(n),
                hacked,
                ..
            } = &mut t.kind
            {
                *hacked = n == "ritual1" || n == "ritual2";
            }
        }
        let i = g
            .tokens
            .iter()
            .position(
                |t| matches!(&t.kind, TokenState::Mission { name: Some(n), .. } if n == "ritual3"),
            )
            .expect("ritual3");
        let t = g.tokens.remove(i);
        g.destroyed.push(t);
        g.settle(&mut SeededDice::new(2));
        assert!(!summoning_asked(&g));
        let neph = g
            .figures
            .iter()
            .find(|f| f.creature() == Some(CreatureKind::Nepharite))
            .expect("the pool has a Nepharite");
        assert_eq!(neph.place, Place::Reserve);
        assert!(g.goal_holds(&g.rules.mission.goal.clone()));
        // One terminal left standing un-hacked: the ritual goes on.
        let mut g = c2m4(7);
        for t in g.tokens.iter_mut().take(2) {
            if let TokenState::Mission { hacked, .. } = &mut t.kind {
                *hacked = true;
            }
        }
        assert!(!g.goal_holds(&g.rules.mission.goal.clone()));
        g.settle(&mut SeededDice::new(2));
        assert!(summoning_asked(&g));
    }

    #[test]
    fn event_13_security_encryption_forbids_terminal_hacks() {
        use crate::content::Specialty;
        use crate::game::position::FigureSpec;
        use crate::game::Command;
        let content = crate::game::playable::relaxed(Content::embedded().expect("content"));
        let mut setup = Setup::new("ce-c2m4", &[Corporation::Bauhaus], DarkLegionSetup::Ai);
        setup.seats[0].doomtroopers = Some([Specialty::Tech, Specialty::Firearms]);
        let position = Position {
            face_down: (0..4).map(|t| (t, vec![])).collect(),
            figures: vec![FigureSpec {
                name: Some("bauhaus-carl_lind".into()),
                at: Some(Square::new(12, 2)),
                ..Default::default()
            }],
            ..Default::default()
        };
        let mut g =
            Game::scenario_with_content(setup, &content, &position, &mut SeededDice::new(1))
                .expect("scenario");
        let carl = g.figure_id("bauhaus-carl_lind").expect("carl");
        let token = Square::new(13, 2);
        assert!(g.check_hack(carl, token).is_ok());
        g.effects.no_tech = true;
        assert_eq!(g.check_hack(carl, token), Err(Rejection::AttackForbidden));
        let seat = g.seat_of(Corporation::Bauhaus).expect("seat");
        assert!(!g.legal(seat).contains(&Command::Hack {
            figure: carl,
            token
        }));
    }

    #[test]
    fn terrain_values_follow_the_band_row_and_the_throne_rule() {
        let g = c2m4(1);
        let row = g.rules.tables.terrain(g.dl.band).expect("row").clone();
        let values: Vec<_> = g.tokens.iter().map(|t| g.terrain_values(t)).collect();
        assert_eq!(
            values,
            vec![
                Some((row.terminal_dv, row.pp_terminal)),
                Some((row.terminal_dv, row.pp_terminal)),
                Some((row.terminal_dv, row.pp_terminal)),
                Some((row.portal_dv, row.pp_portal)),
            ]
        );
        // An objective is terrain only under `throne_target`, and only the Throne.
        let throne = Token {
            square: Square::new(0, 0),
            kind: TokenState::Mission {
                kind: TokenKind::Objective,
                name: Some("throne".into()),
                hacked: false,
            },
        };
        assert_eq!(g.terrain_values(&throne), None);
    }

    /// Classic terrain targets: a named token with `DV=` and `PP=` in its
    /// record is attackable terrain with those values, at every band.
    #[test]
    fn a_token_with_dv_and_pp_in_its_record_uses_them() {
        let base = Content::embedded().expect("content");
        let line = "TOKEN portal 8:1,6 NAME=portal\n";
        let files: Vec<(&str, String)> = Content::embedded_files()
            .iter()
            .map(|&(n, t)| {
                let t = if n == "missions/ce.missions" {
                    assert!(t.contains(line), "C2M5 portal line");
                    t.replacen(line, "TOKEN portal 8:1,6 NAME=portal DV=5 PP=9\n", 1)
                } else {
                    t.to_string()
                };
                (n, t)
            })
            .collect();
        let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
        let content = Content::from_files(&refs).expect("content");
        assert_ne!(content.mission("ce-c2m5"), base.mission("ce-c2m5"));
        let setup = Setup::new("ce-c2m5", &[Corporation::Bauhaus], DarkLegionSetup::Ai);
        let (g, _) = Game::with_content_unchecked(setup, &content, &mut SeededDice::new(0))
            .expect("sets up");
        let portal = g
            .tokens
            .iter()
            .find(|t| matches!(&t.kind, TokenState::Mission { name, .. } if name.as_deref() == Some("portal")))
            .expect("portal token");
        assert_eq!(g.terrain_values(portal), Some((5, 9)));
        // The same mission without DV/PP reads the band row.
        let setup = Setup::new("ce-c2m5", &[Corporation::Bauhaus], DarkLegionSetup::Ai);
        let (g, _) =
            Game::with_content_unchecked(setup, base, &mut SeededDice::new(0)).expect("sets up");
        let row = g.rules.tables.terrain(g.dl.band).expect("row").clone();
        let portal = g
            .tokens
            .iter()
            .find(|t| {
                matches!(
                    &t.kind,
                    TokenState::Mission {
                        kind: TokenKind::Portal,
                        ..
                    }
                )
            })
            .expect("portal token");
        assert_eq!(
            g.terrain_values(portal),
            Some((row.portal_dv, row.pp_portal))
        );
    }
}
