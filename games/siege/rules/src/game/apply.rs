//! `Game::apply`: one command from one seat, all or nothing.

use super::command::Command;
use super::event::Event;
use super::ids::{FigureId, Seat, Side};
use super::rejection::Rejection;
use super::state::{DlStep, Figure, Game, Phase};
use crate::content::tables::Item;
use crate::content::Specialty;
use crate::dice::Dice;

impl Game {
    /// Apply `command` from `seat`.
    ///
    /// On success the game has changed and the returned events say how, in
    /// order. All chance comes from `dice`.
    ///
    /// # Errors
    /// A [`Rejection`] saying why the command is not legal now; the game is
    /// then exactly as it was, and `dice` has not been used.
    pub fn apply(
        &mut self,
        seat: Seat,
        command: Command,
        dice: &mut dyn Dice,
    ) -> Result<Vec<Event>, Rejection> {
        if self.suspended.is_some() {
            return self.answer_reaction(seat, command, dice);
        }
        self.run_command(seat, command, dice, Vec::new(), Vec::new())
    }

    fn team_of_seat(&self, seat: Seat) -> Option<u8> {
        self.teams
            .iter()
            .position(|t| t.seat == seat)
            .map(|i| i as u8)
    }

    pub(crate) fn dispatch(
        &mut self,
        seat: Seat,
        command: Command,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        if command == Command::RevealAiCard {
            return self.reveal_ai_card(seat, dice, events);
        }
        self.dispatch_command(seat, command, dice, events)?;
        self.close_ai_decision(seat);
        Ok(())
    }

    fn dispatch_command(
        &mut self,
        seat: Seat,
        command: Command,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        if self.phase == Phase::Finished {
            return Err(Rejection::GameOver);
        }
        let my_team = self.team_of_seat(seat);
        if my_team.is_none() && seat != self.dl.seat {
            return Err(Rejection::NoSuchSeat);
        }
        // MOV-6: the pass-through flag may be toggled at any time.
        if let Command::SetAllowPass { allow } = command {
            let team = my_team.ok_or(Rejection::WrongPhase)?;
            self.teams[usize::from(team)].allow_pass = allow;
            return Ok(());
        }
        if let Some(head) = self.pending.front() {
            if head.seat != seat {
                return Err(if self.seat_to_act() == Some(seat) {
                    Rejection::DecisionPending
                } else {
                    Rejection::NotYourTurn
                });
            }
            let d = head.decision.clone();
            self.check_answer(&d, &command)?;
            self.answer(command, dice, events);
            return Ok(());
        }
        match self.phase.clone() {
            Phase::Equipment { order, next } => {
                let team = order[next];
                if my_team != Some(team) {
                    return Err(Rejection::NotYourTurn);
                }
                match command {
                    Command::PickEquipment { item, figure } => {
                        let typed = self.check_pick(team, &item, figure)?;
                        self.pick(team, typed, item, figure, events);
                    }
                    Command::PassEquipment => {
                        self.teams[usize::from(team)].passed = true;
                        events.push(Event::EquipmentPassed { seat });
                    }
                    _ => return Err(Rejection::WrongPhase),
                }
                if let Phase::Equipment { order, next } = &mut self.phase {
                    *next = (*next + 1) % order.len();
                }
                Ok(())
            }
            Phase::Corporation { team } => {
                if my_team != Some(team) {
                    return Err(Rejection::NotYourTurn);
                }
                self.figure_command(Side::Team(team), command, dice, events)
            }
            Phase::DarkLegion {
                step: DlStep::Activation,
            } => {
                if seat != self.dl.seat {
                    return Err(Rejection::NotYourTurn);
                }
                self.figure_command(Side::DarkLegion, command, dice, events)
            }
            Phase::DarkLegion { .. } | Phase::Finished => Err(Rejection::NotYourTurn),
        }
    }

    fn figure_command(
        &mut self,
        side: Side,
        command: Command,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        // A captive (classic CSM card 2) may only be moved.
        if let Some(figure) = action_figure(&command) {
            if self.captor(figure).is_some() {
                return Err(Rejection::AttackForbidden);
            }
        }
        match command {
            Command::Move { figure, path } => self.do_move(figure, &path, dice, events),
            Command::Attack {
                figure,
                target,
                attack,
                barb_die,
            } => self.do_attack(figure, target, attack, barb_die, dice, events),
            Command::Swing { .. }
            | Command::Spray { .. }
            | Command::Volley { .. }
            | Command::AttackSquare { .. } => self.do_weapon_attack(command, dice, events),
            Command::Special { figure, action } => self.do_special(figure, &action, events),
            Command::PickUp { figure, token } => self.do_pick_up(figure, &token, events),
            Command::HandOver { figure, to } => self.do_hand_over(figure, to, events),
            Command::AttackToken {
                figure,
                token,
                attack,
            } => self.do_attack_token(figure, token, attack, dice, events),
            Command::Hack { figure, token } => self.do_hack(figure, token, dice, events),
            Command::UseItem {
                figure,
                item,
                square,
            } => self.do_use_item(figure, &item, square, dice, events),
            Command::Overrun { figure, square } => self.do_overrun(figure, square, events),
            Command::PlayCard { card, figure, play } => match side {
                Side::Team(team) => self.do_play_card(team, card, figure, &play, dice, events),
                Side::DarkLegion => Err(Rejection::WrongPhase),
            },
            Command::AttackDoor { figure, squares } => {
                self.do_attack_door(figure, squares, dice, events)
            }
            cmd @ Command::PlayTwoUse { .. } => match side {
                Side::Team(team) => self.do_play_two_use(team, &cmd, dice, events),
                Side::DarkLegion => Err(Rejection::WrongPhase),
            },
            Command::EndActivation => self.do_end_activation(events),
            Command::EndTurn => {
                match side {
                    Side::Team(team) => self.end_corporation_turn(team, dice, events),
                    Side::DarkLegion => {
                        self.end_dl_turn(dice, events);
                        self.next_marker(dice, events);
                    }
                }
                Ok(())
            }
            _ => Err(Rejection::NoSuchDecision),
        }
    }

    /// A DT of `team`, or why not.
    pub(crate) fn own_figure(
        &self,
        team: u8,
        figure: FigureId,
    ) -> Result<&super::state::Figure, Rejection> {
        let f = self
            .figures
            .get(figure.index())
            .ok_or(Rejection::NoSuchFigure)?;
        if f.team() != Some(team) {
            return Err(Rejection::NotYourFigure);
        }
        Ok(f)
    }

    /// EQP-2..4: may `team` take `item` (a string id, as commands name it)
    /// for `figure`? Returns the typed item.
    pub(crate) fn check_pick(
        &self,
        team: u8,
        item: &str,
        figure: FigureId,
    ) -> Result<Item, Rejection> {
        let f = self.own_figure(team, figure)?;
        let typed = self.rules.tables.item(item).ok_or(Rejection::UnknownItem)?;
        self.check_pick_item(team, typed, f)?;
        Ok(typed)
    }

    /// [`Self::check_pick`] of a known item for figure `f` of `team`.
    fn check_pick_item(&self, team: u8, typed: Item, f: &Figure) -> Result<(), Rejection> {
        let t = &self.teams[usize::from(team)];
        let spec = f.specialty().unwrap_or(Specialty::Firearms);
        let tables = &self.rules.tables;
        let max_rank = t.start_rank + (self.hooks().draft_rank_bonus)(t.corporation);
        // Copies in use, counted only once rank and price allow the item.
        let taken = || {
            self.figures
                .iter()
                .filter(|g| match typed {
                    Item::Weapon(w) => g.weapon == Some(w),
                    Item::Equipment(e) => g.items.contains(&e),
                })
                .count()
        };
        match typed {
            Item::Weapon(id) => {
                let w = tables.weapon_def(id);
                if w.copies.is_none() {
                    return Err(Rejection::NotEligible); // Base weapons come free.
                }
                if w.rank > max_rank {
                    return Err(Rejection::RankTooLow);
                }
                if w.cost > t.credits {
                    return Err(Rejection::NotAffordable);
                }
                if taken() >= usize::from(w.copies.unwrap_or(0)) {
                    return Err(Rejection::NoCopiesLeft);
                }
                let base = f.weapon == Some(tables.base_weapon(spec));
                if !w.icons.contains(&spec) || !base {
                    return Err(Rejection::NotEligible);
                }
                // Classic CCO-3: a close combat specialist's weapon has at
                // least 3 close combat dice.
                let cc_dice = w.cc.as_ref().map_or(0, |d| d.rank_dice);
                if spec == Specialty::CloseCombat
                    && self
                        .hooks()
                        .cc_specialist_min_dice
                        .is_some_and(|n| cc_dice < n)
                {
                    return Err(Rejection::NotEligible);
                }
                // EQP-1: an augment already fitted must fit the new weapon.
                let orphan = f.items.iter().any(|&i| {
                    let e = tables.equipment_def(i);
                    e.augment
                        .is_some_and(|kind| !self.augment_fits(e.effect, kind, id))
                });
                if orphan {
                    return Err(Rejection::NotEligible);
                }
            }
            Item::Equipment(id) => {
                let e = tables.equipment_def(id);
                if e.rank > max_rank {
                    return Err(Rejection::RankTooLow);
                }
                if e.cost > t.credits {
                    return Err(Rejection::NotAffordable);
                }
                if taken() >= usize::from(e.copies) {
                    return Err(Rejection::NoCopiesLeft);
                }
                if f.items.len() >= 3 {
                    return Err(Rejection::NotEligible);
                }
                if let Some(kind) = e.augment {
                    let has_aug = f
                        .items
                        .iter()
                        .any(|&i| tables.equipment_def(i).augment.is_some());
                    let fits = f
                        .weapon
                        .is_some_and(|w| self.augment_fits(e.effect, kind, w));
                    if has_aug || !fits {
                        return Err(Rejection::NotEligible);
                    }
                }
            }
        }
        Ok(())
    }

    /// EQP-1: may an augment of attack type `kind` with `effect` be fitted
    /// to `weapon`? The Grenade Launcher goes only on a Plasma Carbine
    /// (WPN-7); the Disruptor not on a Nimrod (WPN-6).
    fn augment_fits(
        &self,
        effect: crate::content::tables::EquipmentEffect,
        kind: crate::content::AttackType,
        weapon: crate::content::tables::WeaponId,
    ) -> bool {
        use crate::content::tables::EquipmentEffect;
        use crate::content::AttackType;
        let tables = &self.rules.tables;
        let w = tables.weapon_def(weapon);
        let has_type = match kind {
            AttackType::CloseCombat => w.cc.is_some(),
            AttackType::Firearm => w.fa.is_some(),
            AttackType::Tech => w.te.is_some(),
        };
        has_type
            && match effect {
                EquipmentEffect::GrenadeLauncher => {
                    weapon == tables.base_weapon(Specialty::Firearms)
                }
                EquipmentEffect::NoDefenseDie if kind == AttackType::Firearm => {
                    w.fa.as_ref().is_none_or(|f| f.barrels < 2)
                }
                _ => true,
            }
    }

    /// Take a checked pick: pay, equip, and say so under the item's string
    /// id `name`.
    fn pick(
        &mut self,
        team: u8,
        item: Item,
        name: String,
        figure: FigureId,
        events: &mut Vec<Event>,
    ) {
        let tables = &self.rules.tables;
        let cost = match item {
            Item::Weapon(w) => tables.weapon_def(w).cost,
            Item::Equipment(e) => tables.equipment_def(e).cost,
        };
        let t = &mut self.teams[usize::from(team)];
        t.credits = t.credits.saturating_sub(cost);
        let f = &mut self.figures[figure.index()];
        match item {
            Item::Weapon(w) => f.weapon = Some(w),
            Item::Equipment(e) => f.items.push(e),
        }
        events.push(Event::EquipmentPicked {
            seat: t.seat,
            figure,
            item: name,
        });
    }

    /// Every item `team` could pick now, with a DT that may carry it.
    pub(crate) fn pick_options(&self, team: u8) -> Vec<Command> {
        let t = &self.teams[usize::from(team)];
        let mut out = Vec::new();
        for (typed, id) in self.rules.tables.items() {
            for figure in t.figures {
                let ok = self
                    .own_figure(team, figure)
                    .and_then(|f| self.check_pick_item(team, typed, f));
                if ok.is_ok() {
                    out.push(Command::PickEquipment {
                        item: id.to_string(),
                        figure,
                    });
                }
            }
        }
        out
    }

    /// The seat whose input the game waits for, if any.
    pub fn seat_to_act(&self) -> Option<Seat> {
        if let Some(p) = self.pending.front() {
            return Some(p.seat);
        }
        match &self.phase {
            Phase::Equipment { order, next } => Some(self.teams[usize::from(order[*next])].seat),
            Phase::Corporation { team } => Some(self.teams[usize::from(*team)].seat),
            Phase::DarkLegion {
                step: DlStep::Activation,
            } => Some(self.dl.seat),
            _ => None,
        }
    }
}

/// The figure a command other than a Move has act, if any (a captive,
/// classic CSM card 2, may take no such action).
fn action_figure(command: &Command) -> Option<FigureId> {
    match command {
        Command::Attack { figure, .. }
        | Command::Swing { figure, .. }
        | Command::Spray { figure, .. }
        | Command::Volley { figure, .. }
        | Command::AttackSquare { figure, .. }
        | Command::AttackToken { figure, .. }
        | Command::Hack { figure, .. }
        | Command::Special { figure, .. }
        | Command::PickUp { figure, .. }
        | Command::HandOver { figure, .. }
        | Command::UseItem { figure, .. }
        | Command::Overrun { figure, .. }
        | Command::PlayCard { figure, .. } => Some(*figure),
        _ => None,
    }
}
