//! Actions of figures (core TRN-4..7): checks first, then changes, so a
//! rejected command leaves the game untouched.

use super::command::{CardPlay, Command};
use super::event::{Event, Place};
use super::ids::{FigureId, Side};
use super::rejection::Rejection;
use super::state::{Activation, Game, LastAction, Phase, Token, TokenState};
use crate::content::missions::TokenKind;
use crate::content::tables::{DtCardKind, EquipmentEffect, EquipmentId, Item};
use crate::content::AttackType;
use crate::dice::{Dice, DieColor};
use citadel_grid::{line_of_sight, Square};

/// How an action will be paid for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cost {
    /// One of the figure's actions.
    Action,
    /// One of Dark Influence's single actions (event 9).
    DarkInfluence,
    /// One action from the team's extra-action pool (classic CXA-1): an
    /// action beyond the DT's own draws on the pool by itself.
    ExtraAction,
    /// Free.
    Free,
}

impl Game {
    /// The side whose figures act now, if any.
    pub(crate) fn acting_side(&self) -> Option<Side> {
        match self.phase {
            Phase::Corporation { team } => Some(Side::Team(team)),
            Phase::DarkLegion {
                step: super::state::DlStep::Activation,
            } => Some(Side::DarkLegion),
            _ => None,
        }
    }

    /// May `figure` take an action now (TRN-4..6, DL-5)? `needs_board`:
    /// the action needs the figure on the board, which every action but a
    /// Move does (a Move may bring a waiting figure on), so a costed action
    /// with `needs_board` is not a Move (classic event 13 reads it so).
    pub(crate) fn check_actor(
        &self,
        figure: FigureId,
        needs_board: bool,
        cost: Cost,
    ) -> Result<Cost, Rejection> {
        let f = self
            .figures
            .get(figure.index())
            .ok_or(Rejection::NoSuchFigure)?;
        let side = self.acting_side().ok_or(Rejection::WrongPhase)?;
        // A captive (classic CSM card 2) is its captor's once ready, and
        // never the Dark Legion's.
        let controller = match self.captor(figure) {
            Some((team, true)) => Some(Side::Team(team)),
            Some((_, false)) => None,
            None => Some(f.side()),
        };
        if controller != Some(side) {
            return Err(Rejection::NotYourFigure);
        }
        match f.place {
            Place::Board { .. } => {}
            Place::Waiting { .. } if !needs_board => {}
            Place::Waiting { .. } => return Err(Rejection::FigureNotOnBoard),
            _ => return Err(Rejection::FigureNotOnBoard),
        }
        if cost == Cost::Free {
            return if f.turn.activation == Activation::Done {
                Err(Rejection::AlreadyActivated)
            } else {
                Ok(Cost::Free)
            };
        }
        match f.turn.activation {
            Activation::Done => {
                if side == Side::DarkLegion && self.effects.dark_influence > 0 {
                    Ok(Cost::DarkInfluence)
                } else {
                    Err(Rejection::AlreadyActivated)
                }
            }
            // Classic event 13: the Timerift's action is a Move; while it is
            // not taken, the last action left is only for a Move.
            _ if needs_board && f.turn.rift_move && f.turn.used + 1 >= f.turn.allowed => {
                Err(Rejection::NoActionsLeft)
            }
            // Classic Combat Neurosis: one action this round, no extra ones.
            _ if f.turn.used >= 1 && f.team().is_some_and(|t| self.card_neurosis(t)) => {
                Err(Rejection::NoActionsLeft)
            }
            _ if f.turn.used >= f.turn.allowed => {
                if f.turn.used >= 4 {
                    Err(Rejection::ActionCapReached)
                } else if f
                    .team()
                    .is_some_and(|t| self.teams[usize::from(t)].extra_actions > 0)
                {
                    Ok(Cost::ExtraAction)
                } else {
                    Err(Rejection::NoActionsLeft)
                }
            }
            _ => Ok(Cost::Action),
        }
    }

    /// Make `figure` the active figure (ending another's activation).
    pub(crate) fn activate(&mut self, figure: FigureId, events: &mut Vec<Event>) {
        if self.active == Some(figure) {
            return;
        }
        if let Some(other) = self.active.take() {
            self.end_activation_of(other, events);
        }
        let f = &mut self.figures[figure.index()];
        f.turn.activation = Activation::Active;
        self.active = Some(figure);
        events.push(Event::Activated { figure });
    }

    pub(crate) fn end_activation_of(&mut self, figure: FigureId, events: &mut Vec<Event>) {
        let f = &mut self.figures[figure.index()];
        if f.turn.activation == Activation::Active {
            f.turn.activation = Activation::Done;
            f.turn.phasing = false;
            events.push(Event::ActivationEnded { figure });
        }
        if self.active == Some(figure) {
            self.active = None;
        }
    }

    /// Pay for an action that has passed every check.
    pub(crate) fn begin_action(&mut self, figure: FigureId, cost: Cost, events: &mut Vec<Event>) {
        self.clear_overrun();
        match cost {
            Cost::DarkInfluence => {
                // A single-action activation between activations.
                if let Some(other) = self.active.take() {
                    self.end_activation_of(other, events);
                }
                self.effects.dark_influence -= 1;
                let f = &mut self.figures[figure.index()];
                f.turn.allowed = f.turn.used + 1;
                f.turn.activation = Activation::Active;
                self.active = Some(figure);
                events.push(Event::Activated { figure });
            }
            Cost::ExtraAction => {
                self.activate(figure, events);
                let f = &mut self.figures[figure.index()];
                f.turn.allowed += 1;
                if let Some(t) = f.team() {
                    self.note_extra_action_spent(t);
                    let team = &mut self.teams[usize::from(t)];
                    team.extra_actions -= 1;
                    events.push(Event::ExtraActionTaken {
                        figure,
                        pool: team.extra_actions,
                    });
                }
            }
            Cost::Action => {
                self.activate(figure, events);
                self.share_misinterpreted_action(figure);
            }
            Cost::Free => self.activate(figure, events),
        }
        if cost != Cost::Free {
            self.figures[figure.index()].turn.used += 1;
        }
    }

    /// Classic event 9 (Misinterpreted Orders): the chosen team's DTs have
    /// two base actions between them this round, split as they like, so a
    /// base action one takes is one fewer for each teammate (never below
    /// what it has used). Extra actions from the pool are not counted.
    fn share_misinterpreted_action(&mut self, figure: FigureId) {
        let Some(team) = self.figures[figure.index()].team() else {
            return;
        };
        if !self.effects.misinterpreted.contains(&(team, self.round)) {
            return;
        }
        for mate in self.teams[usize::from(team)].figures {
            let turn = &mut self.figures[mate.index()].turn;
            if mate != figure && turn.allowed > turn.used {
                turn.allowed -= 1;
            }
        }
    }

    /// After an action: a DL activation ends when its actions are spent.
    pub(crate) fn end_action(&mut self, figure: FigureId, events: &mut Vec<Event>) {
        let f = &self.figures[figure.index()];
        if f.creature().is_some() && f.turn.used >= f.turn.allowed {
            self.end_activation_of(figure, events);
        }
        if !self.figures[figure.index()].in_play() && self.active == Some(figure) {
            self.active = None;
        }
    }

    /// A Move action (MOV-1).
    pub(crate) fn do_move(
        &mut self,
        figure: FigureId,
        path: &[Square],
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let cost = self.check_actor(figure, false, Cost::Action)?;
        let targets = self.check_path(figure, path)?;
        self.begin_action(figure, cost, events);
        let turn = &mut self.figures[figure.index()].turn;
        turn.charge.clear();
        // Classic event 13: a Move taken is the Timerift's Move.
        turn.rift_move = false;
        self.execute_move(figure, path, &targets, dice, events);
        if !self.effects.cards.is_empty() {
            self.note_card_move(figure);
        }
        let f = &mut self.figures[figure.index()];
        f.turn.last = Some(LastAction::Move);
        f.turn.boost = false;
        self.end_action(figure, events);
        Ok(())
    }

    /// An Attack action (ATK-2).
    pub(crate) fn do_attack(
        &mut self,
        figure: FigureId,
        target: FigureId,
        attack: AttackType,
        barb_die: Option<DieColor>,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let cost = self.check_actor(figure, true, Cost::Action)?;
        let mut plan = self.check_attack(figure, target, attack)?;
        if barb_die.is_some() {
            // WPN-2: the chosen barb die must be one of the rank dice.
            let team = self.figures[figure.index()]
                .team()
                .ok_or(Rejection::WeaponLacksAbility)?;
            if attack != AttackType::Tech {
                return Err(Rejection::WeaponLacksAbility);
            }
            plan.barbs = self.barb_die(figure, team, barb_die)?;
        }
        self.begin_action(figure, cost, events);
        // MSN-7: kills are logged with this Attack action's type and range.
        let dist = match (
            self.figures[figure.index()].square(),
            self.figures[target.index()].square(),
        ) {
            (Some(a), Some(b)) => a.dist(b),
            _ => 0,
        };
        self.sec.attacks += 1;
        self.sec.attack = Some((self.sec.attacks, attack, dist));
        let nimrod = attack == AttackType::Firearm && self.has_two_barrels(figure);
        if nimrod && plan.attack == attack && !self.cards().nimrod_one_roll {
            // WPN-6: one target, two separate rolls.
            let mut second = plan.clone();
            second.concentrated = false;
            self.resolve_nimrod(vec![plan, second], dice, events);
        } else if nimrod && plan.attack == attack {
            // CSW-3: one target takes both barrels' dice in one roll.
            let mut plan = plan;
            let barrel = plan.pool.clone();
            plan.pool.extend(barrel);
            self.resolve_attack(plan, dice, events);
        } else {
            self.resolve_attack(plan, dice, events);
        }
        self.sec.attack = None;
        self.end_action(figure, events);
        Ok(())
    }

    /// A mission Special action (MSN-3).
    pub(crate) fn do_special(
        &mut self,
        figure: FigureId,
        action: &str,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let cost = self.check_actor(figure, true, Cost::Action)?;
        if self.is_secondary_special(action) {
            // The ruleset's secondary cards with an action (CE SEC 3, 4
            // and 7; classic card 10): only for the card's holder.
            self.check_secondary_special(figure, action)?;
            self.begin_action(figure, cost, events);
            self.record_secondary_special(figure, action);
            self.figures[figure.index()].turn.last = Some(LastAction::Other);
            events.push(Event::SpecialDone {
                figure,
                action: action.to_string(),
            });
            self.end_action(figure, events);
            return Ok(());
        }
        let f = &self.figures[figure.index()];
        let mission = &self.rules.mission;
        let special = mission
            .special(action)
            .ok_or(Rejection::SpecialNotAvailable)?;
        let def = mission.special_def(special);
        if f.team().is_none() {
            return Err(Rejection::SpecialNotAvailable);
        }
        let at = f.square().ok_or(Rejection::FigureNotOnBoard)?;
        let feature = self
            .special_feature(special, at)
            .ok_or(Rejection::SpecialNotAvailable)?;
        let once = def.once_per_feature;
        let looting = def.adjacent_to == TokenKind::Container;
        self.begin_action(figure, cost, events);
        if once {
            self.count_special_at(action, feature, figure, events);
        } else {
            match self.specials.iter_mut().find(|(a, _)| *a == special) {
                Some((_, n)) => *n += 1,
                None => self.specials.push((special, 1)),
            }
            events.push(Event::SpecialDone {
                figure,
                action: action.to_string(),
            });
        }
        self.figures[figure.index()].turn.last = Some(LastAction::Other);
        if looting {
            // The container the action was taken at (C2M2).
            self.loot(figure, feature, events);
        }
        self.end_action(figure, events);
        Ok(())
    }

    /// The carried equipment card a command names by its string id, with
    /// its effect. A string that names no equipment card cannot be carried.
    fn carried_item(
        &self,
        figure: FigureId,
        item: &str,
    ) -> Result<(EquipmentId, EquipmentEffect), Rejection> {
        let f = self
            .figures
            .get(figure.index())
            .ok_or(Rejection::NoSuchFigure)?;
        match self.rules.tables.item(item) {
            Some(Item::Equipment(id)) if f.items.contains(&id) => {
                Ok((id, self.rules.tables.equipment_def(id).effect))
            }
            _ => Err(Rejection::ItemNotCarried),
        }
    }

    /// Use a carried item (ce.md EQI).
    pub(crate) fn do_use_item(
        &mut self,
        figure: FigureId,
        item: &str,
        square: Option<Square>,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let (id, effect) = self.carried_item(figure, item)?;
        let board = &self.rules.board;
        let free = self.cards().items.free.contains(&effect);
        let cost = self.check_actor(figure, !free, if free { Cost::Free } else { Cost::Action })?;
        let at = self.figures[figure.index()].square();
        match effect {
            EquipmentEffect::CoagulantAutoinjector
            | EquipmentEffect::SmokeGrenade
            | EquipmentEffect::CombatMedicUnit => {}
            EquipmentEffect::TimeBomb => {
                let s = square.ok_or(Rejection::InvalidSquare)?;
                let ok = at.is_some_and(|a| self.walls.adjacent(board, a, s))
                    && board.passable(s)
                    && self.figure_at(s).is_none()
                    && self.token_at(s).is_none();
                if !ok {
                    return Err(Rejection::InvalidSquare);
                }
            }
            EquipmentEffect::CommandHelmet => {
                let turn = &self.figures[figure.index()].turn;
                if turn.allowed >= 4 {
                    return Err(Rejection::ActionCapReached);
                }
                if turn.helmet_used {
                    return Err(Rejection::ItemNotUsable);
                }
            }
            EquipmentEffect::MolecularPhaser => {}
            EquipmentEffect::Teleportal => {
                let s = square.ok_or(Rejection::InvalidSquare)?;
                if !self.relocate_ok(figure, s, None) {
                    return Err(Rejection::InvalidSquare);
                }
            }
            EquipmentEffect::DarkEnergyShift => {
                let s = square.ok_or(Rejection::InvalidSquare)?;
                if !self.shift_ok(figure, s) {
                    return Err(Rejection::InvalidSquare);
                }
            }
            _ => return Err(Rejection::ItemNotUsable),
        }
        self.begin_action(figure, cost, events);
        let kept =
            effect == EquipmentEffect::CommandHelmet && self.cards().items.helmet_every_round;
        let f = &mut self.figures[figure.index()];
        if let (false, Some(i)) = (kept, f.items.iter().position(|x| *x == id)) {
            f.items.remove(i); // Every other usable item is discarded after use.
        }
        f.turn.last = Some(LastAction::Other);
        events.push(Event::ItemUsed {
            figure,
            item: item.to_string(),
        });
        match effect {
            EquipmentEffect::CoagulantAutoinjector => {
                let (rolls, hits) = self.roll_pool(&[DieColor::Red; 3], 0, dice);
                events.push(Event::AttackRolled {
                    attacker: Some(figure),
                    target: figure,
                    attack: None,
                    dice: rolls,
                    hits,
                });
                self.heal(figure, hits, events);
            }
            EquipmentEffect::CombatMedicUnit => {
                let amount = self.cards().items.medic_heal;
                self.heal(figure, amount, events);
            }
            EquipmentEffect::SmokeGrenade => {
                if let Some(tile) = at.and_then(|s| self.rules.board.tile_of(s)) {
                    self.tiles[tile].smoke = true;
                    events.push(Event::Smoke { tile });
                }
            }
            EquipmentEffect::TimeBomb => {
                if let (Some(s), Some(team)) = (square, self.figures[figure.index()].team()) {
                    self.tokens.push(Token {
                        square: s,
                        kind: TokenState::Bomb {
                            team,
                            round: self.round,
                        },
                    });
                    events.push(Event::BombPlaced { square: s, team });
                }
            }
            EquipmentEffect::CommandHelmet => {
                let turn = &mut self.figures[figure.index()].turn;
                turn.allowed += 1;
                turn.helmet_used = true;
            }
            EquipmentEffect::MolecularPhaser => match self.figures[figure.index()].team() {
                Some(team) if self.cards().items.phaser_team_round => {
                    self.effects.phasing_teams.push(team);
                }
                _ => self.figures[figure.index()].turn.phasing = true,
            },
            EquipmentEffect::DarkEnergyShift | EquipmentEffect::Teleportal => {
                if let Some(s) = square {
                    self.shift(figure, s, events);
                }
            }
            _ => {}
        }
        self.end_action(figure, events);
        Ok(())
    }

    pub(crate) fn heal(&mut self, figure: FigureId, amount: u8, events: &mut Vec<Event>) {
        let f = &mut self.figures[figure.index()];
        let healed = amount.min(5 - f.health.min(5));
        f.health += healed;
        events.push(Event::Healed {
            figure,
            amount: healed,
            health: f.health,
        });
    }

    /// TAC-2 overrun.
    pub(crate) fn do_overrun(
        &mut self,
        figure: FigureId,
        square: Option<Square>,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let chosen = match (self.overrun, square) {
            (Some((_, first)), None) => Some(first),
            (Some((_, first)), Some(s)) if s == first || self.overrun_extra.contains(&s) => Some(s),
            _ => None,
        };
        match (self.overrun, chosen) {
            (Some((f, _)), Some(s)) if f == figure && self.may_end_on(figure, s) => {
                self.clear_overrun();
                self.set_place(figure, Place::Board { square: s });
                events.push(Event::Relocated { figure, to: s });
                Ok(())
            }
            _ => Err(Rejection::OverrunNotAvailable),
        }
    }

    /// DTC-CE-1: play a Doomtrooper card.
    pub(crate) fn do_play_card(
        &mut self,
        team: u8,
        card: usize,
        figure: FigureId,
        play: &CardPlay,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let kind = *self.teams[usize::from(team)]
            .hand
            .get(card)
            .ok_or(Rejection::NoSuchCard)?;
        if self.card_played {
            return Err(Rejection::CardLimitReached);
        }
        if self.effects.no_cards.contains(&team) {
            return Err(Rejection::CardsForbidden);
        }
        let f = self.own_figure(team, figure)?;
        if !f.in_play() {
            return Err(Rejection::FigureNotOnBoard);
        }
        let mut relocate = None;
        match play {
            CardPlay::ExtraAction => {
                if f.turn.activation == Activation::Done {
                    return Err(Rejection::AlreadyActivated);
                }
                if f.turn.allowed >= 4 {
                    return Err(Rejection::ActionCapReached);
                }
            }
            CardPlay::Text { target, square } => match kind {
                DtCardKind::Medic
                | DtCardKind::MovementBoost
                | DtCardKind::RapidReload
                | DtCardKind::WeakSpot => {}
                DtCardKind::ControlDefenseSystem => {
                    let t = target.ok_or(Rejection::InvalidChoice)?;
                    let tf = self.figures.get(t.index()).ok_or(Rejection::NoSuchFigure)?;
                    if tf.creature().is_none() || tf.square().is_none() {
                        return Err(Rejection::InvalidChoice);
                    }
                }
                DtCardKind::CommandingVoice => {
                    let t = target.ok_or(Rejection::InvalidChoice)?;
                    let tf = self.figures.get(t.index()).ok_or(Rejection::NoSuchFigure)?;
                    let (Some(a), Some(b)) = (f.square(), tf.square()) else {
                        return Err(Rejection::FigureNotOnBoard);
                    };
                    let seen = line_of_sight(&self.rules.board, &self.walls, self, a, b).is_clear();
                    if tf.creature().is_none() || a.dist(b) > 6 || !seen {
                        return Err(Rejection::InvalidChoice);
                    }
                }
                DtCardKind::LimitedTeleportation => {
                    let s = square.ok_or(Rejection::InvalidSquare)?;
                    let from = f.square().ok_or(Rejection::FigureNotOnBoard)?;
                    if !self.teleport_ok(figure, from, s) {
                        return Err(Rejection::InvalidSquare);
                    }
                    relocate = Some(s);
                }
                // Reactions and Heroic Luck have windows the engine does
                // not open yet; they still give +1 action.
                DtCardKind::LastStand
                | DtCardKind::CombatAura
                | DtCardKind::DudRound
                | DtCardKind::HeroicLuck => return Err(Rejection::CardNotPlayable),
            },
        }
        // All checks passed.
        self.clear_overrun();
        self.teams[usize::from(team)].hand.remove(card);
        self.card_played = true;
        let extra = matches!(play, CardPlay::ExtraAction);
        events.push(Event::CardPlayed {
            seat: self.teams[usize::from(team)].seat,
            card: kind,
            extra_action: extra,
            figure,
        });
        let f = &mut self.figures[figure.index()];
        match (play, kind) {
            (CardPlay::ExtraAction, _) => f.turn.allowed += 1,
            (_, DtCardKind::Medic) => self.heal(figure, 2, events),
            (_, DtCardKind::MovementBoost) => f.turn.boost = true,
            (_, DtCardKind::RapidReload) => f.turn.rapid_reload = true,
            (_, DtCardKind::WeakSpot) => f.turn.weak_spot = true,
            (
                CardPlay::Text {
                    target: Some(t), ..
                },
                DtCardKind::ControlDefenseSystem,
            ) => {
                self.fixed_attack(*t, &[DieColor::Black; 3], Some(team), dice, events);
            }
            (
                CardPlay::Text {
                    target: Some(t), ..
                },
                DtCardKind::CommandingVoice,
            ) => {
                self.figures[t.index()].skip_activation = true;
            }
            (_, DtCardKind::LimitedTeleportation) => {
                if let Some(s) = relocate {
                    self.set_place(figure, Place::Board { square: s });
                    events.push(Event::Relocated { figure, to: s });
                    // It counts as having ended a Move there (FOR-2).
                    self.force_reveal_on_entry(figure, s, dice, events);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Limited Teleportation: an empty square of a tile sharing a side with
    /// the DT's tile, not adjacent to a DL figure.
    fn teleport_ok(&self, figure: FigureId, from: Square, to: Square) -> bool {
        let b = &self.rules.board;
        let (Some(ta), Some(tb)) = (b.tile_of(from), b.tile_of(to)) else {
            return false;
        };
        let (oa, ob) = (b.tiles[ta].origin, b.tiles[tb].origin);
        let touching = (oa.x - ob.x).abs() + (oa.y - ob.y).abs() == 8;
        touching
            && self.may_end_on(figure, to)
            && !to.ring().iter().any(|n| {
                self.figure_at(*n).is_some_and(|o| {
                    self.figures[o.index()].creature().is_some() && self.walls.adjacent(b, to, *n)
                })
            })
    }

    /// End the active figure's activation (TRN-4, DL-5).
    pub(crate) fn do_end_activation(&mut self, events: &mut Vec<Event>) -> Result<(), Rejection> {
        let f = self.active.ok_or(Rejection::NoActiveFigure)?;
        self.clear_overrun();
        self.end_activation_of(f, events);
        Ok(())
    }

    /// The commands a figure of the acting side could take now (for
    /// `legal()`): moves, attacks, specials, items, overrun.
    pub(crate) fn figure_commands(&self, figure: FigureId, out: &mut Vec<Command>) {
        let f = &self.figures[figure.index()];
        if let Some((o, s)) = self.overrun.filter(|(o, _)| *o == figure) {
            if self.overrun_extra.is_empty() {
                if self.may_end_on(figure, s) {
                    out.push(Command::Overrun {
                        figure,
                        square: None,
                    });
                }
            } else {
                // TAC-2 after a swing: any one vacated square.
                for s in std::iter::once(s).chain(self.overrun_extra.iter().copied()) {
                    if self.may_end_on(o, s) {
                        out.push(Command::Overrun {
                            figure,
                            square: Some(s),
                        });
                    }
                }
            }
        }
        if self.check_actor(figure, false, Cost::Action).is_ok() {
            // Room first, then the command built where it goes: a push
            // builds it aside and copies it in, which costs the CPU more
            // than finding the path did.
            self.reachable_each(figure, |path| {
                out.extend(std::iter::once_with(|| Command::Move { figure, path }));
            });
        }
        if self.check_actor(figure, true, Cost::Action).is_ok() {
            let enemies = self
                .figures
                .iter()
                .filter(|t| t.square().is_some() && self.enemies(figure, t.id))
                .map(|t| t.id);
            for t in enemies {
                for attack in [
                    AttackType::CloseCombat,
                    AttackType::Firearm,
                    AttackType::Tech,
                ] {
                    if self.attack_in_reach(figure, t, attack)
                        && self.check_attack(figure, t, attack).is_ok()
                    {
                        out.push(Command::Attack {
                            figure,
                            target: t,
                            attack,
                            barb_die: None,
                        });
                    }
                }
            }
            self.weapon_commands(figure, out);
            // Classic Remote Controlled Door: its doors can be attacked.
            for &squares in &self.card_doors {
                if self.check_attack_door(figure, squares).is_ok() {
                    out.push(Command::AttackDoor { figure, squares });
                }
            }
            self.carry_commands(figure, out);
            self.token_commands(figure, out);
            if f.team().is_some() {
                for s in &self.rules.mission.special_actions {
                    let special = self.rules.mission.special(&s.id);
                    if let (Some(at), Some(special)) = (f.square(), special) {
                        if self.special_feature(special, at).is_none() {
                            continue;
                        }
                        out.push(Command::Special {
                            figure,
                            action: s.id.clone(),
                        });
                    }
                }
                for action in self.secondary_specials(figure) {
                    out.push(Command::Special { figure, action });
                }
            }
        }
        for &item in &f.items {
            let def = self.rules.tables.equipment_def(item);
            if def.effect == EquipmentEffect::TimeBomb {
                if let Some(at) = f.square() {
                    for s in at.ring() {
                        if self.item_usable(figure, item, Some(s)) {
                            out.push(Command::UseItem {
                                figure,
                                item: def.id.clone(),
                                square: Some(s),
                            });
                        }
                    }
                }
            } else if matches!(
                def.effect,
                EquipmentEffect::DarkEnergyShift | EquipmentEffect::Teleportal
            ) {
                if self.item_usable(figure, item, None) {
                    let range = (def.effect == EquipmentEffect::DarkEnergyShift)
                        .then_some(super::weapons::SHIFT_RANGE);
                    for s in self.relocate_squares(figure, range) {
                        out.push(Command::UseItem {
                            figure,
                            item: def.id.clone(),
                            square: Some(s),
                        });
                    }
                }
            } else if self.item_usable(figure, item, None) {
                out.push(Command::UseItem {
                    figure,
                    item: def.id.clone(),
                    square: None,
                });
            }
        }
    }

    /// May `figure` still take a Command Helmet's extra action now (classic
    /// CXA-4: once per round, without spending the pool; CE EQI: once per
    /// mission): it carries one and `UseItem` of it would be accepted.
    /// TRN-4 keeps the turn open while this holds.
    pub(crate) fn helmet_action_left(&self, figure: FigureId) -> bool {
        self.figures[figure.index()].items.iter().any(|&id| {
            self.rules.tables.equipment_def(id).effect == EquipmentEffect::CommandHelmet
                && self.item_usable(figure, id, None)
        })
    }

    /// Would `UseItem` of the carried `item` be accepted? (Checks only; no
    /// change.)
    fn item_usable(&self, figure: FigureId, item: EquipmentId, square: Option<Square>) -> bool {
        let effect = self.rules.tables.equipment_def(item).effect;
        let free = self.cards().items.free.contains(&effect);
        if self
            .check_actor(figure, !free, if free { Cost::Free } else { Cost::Action })
            .is_err()
        {
            return false;
        }
        let f = &self.figures[figure.index()];
        let board = &self.rules.board;
        match effect {
            EquipmentEffect::CoagulantAutoinjector
            | EquipmentEffect::SmokeGrenade
            | EquipmentEffect::CombatMedicUnit => true,
            // The square is checked per destination (`relocate_squares`).
            EquipmentEffect::DarkEnergyShift => square.is_none_or(|s| self.shift_ok(figure, s)),
            EquipmentEffect::Teleportal => square.is_none_or(|s| self.relocate_ok(figure, s, None)),
            EquipmentEffect::MolecularPhaser => {
                !f.turn.phasing
                    && !f
                        .team()
                        .is_some_and(|t| self.effects.phasing_teams.contains(&t))
            }
            EquipmentEffect::CommandHelmet => f.turn.allowed < 4 && !f.turn.helmet_used,
            EquipmentEffect::TimeBomb => square.is_some_and(|s| {
                f.square().is_some_and(|a| self.walls.adjacent(board, a, s))
                    && board.passable(s)
                    && self.figure_at(s).is_none()
                    && self.token_at(s).is_none()
            }),
            _ => false,
        }
    }

    /// Desk squares of the mission (features), for views and bots.
    pub fn desks(&self) -> Vec<Square> {
        self.rules
            .mission
            .tokens
            .iter()
            .filter(|t| t.kind == TokenKind::Desk)
            .map(|t| t.square)
            .collect()
    }
}
