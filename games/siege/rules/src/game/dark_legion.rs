//! The Dark Legion turn (core DL-3..5, EVT) and the CE events 1–30 that the
//! engine implements (ce.md EVE).

use super::event::{Event, Place};
use super::ids::Side;
use super::state::{Activation, Decision, DlStep, FigureKind, Game, Phase, TokenState};
use crate::content::tables::{EventDuration, EventEffect};
use crate::content::CreatureKind;
use crate::dice::Dice;

impl Game {
    /// Run the automatic part of the DL step `step`; returns the next step
    /// (or `None` once the DL acts in step 4).
    pub(crate) fn dl_step(&mut self, step: DlStep, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        match step {
            DlStep::Start => {
                // C2M5: the Ezoghoul is placed before step 1.
                if self.ezoghoul_arrives() {
                    return;
                }
                self.explode_bombs(dice, events);
                // C2M4: the summoned Nepharite is placed before step 1, so
                // the draw waits for the placement in its own step.
                let mut wait = self.mission_dl_start();
                // Classic CEV-2: the call comes before the draw, so the
                // draw waits for it in its own step.
                let calls = self.edition.rules().reinforcement_calls_left();
                if let Some(calls_left) = calls.filter(|&n| n > 0) {
                    if self.edition.rules().events_left() > 0 {
                        self.ask_dl(Decision::CallReinforcements { calls_left });
                        wait = true;
                    }
                }
                if wait {
                    self.phase = Phase::DarkLegion {
                        step: DlStep::Event,
                    };
                    return;
                }
                self.draw_event(dice, events);
                self.phase = Phase::DarkLegion {
                    step: DlStep::Reinforcements,
                };
            }
            DlStep::Event => {
                self.draw_event(dice, events);
                self.phase = Phase::DarkLegion {
                    step: DlStep::Reinforcements,
                };
            }
            DlStep::Reinforcements => {
                let queued = self.pending.len();
                let called = self.edition.rules().reinforcements_come();
                if let Some(card) = self.edition.rules().current_event().filter(|_| called) {
                    let (fixed, force_draw) = self
                        .rules
                        .tables
                        .event(card)
                        .map(|e| (e.reinforcements.clone(), e.force_draw))
                        .unwrap_or_default();
                    let corps = self.corporations_in_pool() as u8;
                    for r in fixed {
                        let n = if r.per_corporation {
                            r.count * corps
                        } else {
                            r.count
                        };
                        for _ in 0..n {
                            self.ask_dl(Decision::RedEntrance { kind: r.kind });
                        }
                    }
                    if force_draw {
                        self.reinforcement_draws(dice, events);
                    }
                }
                if self.ai_deck.is_some() {
                    self.ai_reinforcements_in_pool_order(queued);
                }
                self.phase = Phase::DarkLegion {
                    step: DlStep::Reveal,
                };
            }
            DlStep::Reveal => {
                // DL-3 step 3 (CE): mandatory while any face-down card remains.
                if self.hooks().dl_reveals_force_card
                    && self.tiles.iter().any(|t| !t.face_down.is_empty())
                {
                    self.ask_dl(Decision::RevealTile);
                }
                self.phase = Phase::DarkLegion {
                    step: DlStep::Activation,
                };
                self.prepare_dl_activation();
            }
            DlStep::Activation => {}
        }
    }

    /// AI-5: the AI Dark Legion sends the step-2 reinforcements queued from
    /// `from` on one by one in pool order (Legionnaire, Necromutant, ...),
    /// each with its own AI card; the order is stable within a kind.
    /// Decision: a choice card's figures (FOR-3) are queued once its option
    /// is chosen, so they come after these. A DL player is asked in the
    /// order the cards list the figures, as before.
    fn ai_reinforcements_in_pool_order(&mut self, from: usize) {
        let mut queued: Vec<_> = self.pending.drain(from..).collect();
        queued.sort_by_key(|p| match p.decision {
            Decision::RedEntrance { kind } => (0, Some(kind)),
            _ => (1, None),
        });
        self.pending.extend(queued);
    }

    /// The actions of a creature of `kind` at the game's band (its table
    /// row; 2 if the table has no row for that band).
    pub(crate) fn creature_actions(&self, kind: CreatureKind) -> u8 {
        let band = usize::from(self.dl.band.max(1)) - 1;
        self.rules
            .tables
            .creatures
            .iter()
            .find(|c| c.kind == kind)
            .filter(|c| c.bands.len() > band)
            .map_or(2, |c| c.actions)
    }

    /// DL-5: every DL figure on the board or waiting may activate once.
    pub(crate) fn prepare_dl_activation(&mut self) {
        // Classic event 13: one Nepharite gets one more action, which must be
        // a Move. *Decision: the Nepharite in play with the lowest figure
        // id (the card names none; the lowest id is the CONV-8 order).*
        let rift = self
            .figures
            .iter()
            .filter(|f| self.effects.nepharite_rift && f.in_play())
            .find(|f| f.creature() == Some(CreatureKind::Nepharite))
            .map(|f| f.id);
        for i in 0..self.figures.len() {
            let Some(kind) = self.figures[i].creature() else {
                continue;
            };
            let id = self.figures[i].id;
            let mut actions = self.creature_actions(kind);
            if self.effects.necrofrenzy
                && matches!(kind, CreatureKind::Necromutant | CreatureKind::Centurion)
            {
                actions += 1;
            }
            if rift == Some(id) {
                actions += 1;
            }
            if self.effects.legionnaire_frenzy && kind == CreatureKind::Legionnaire {
                actions += 1;
            }
            // A FIGURE with its own action count (classic Alakhai: 4).
            if let Some(n) = self.figures[i]
                .tag
                .as_deref()
                .and_then(|t| self.rules.mission.figure_with_tag(t))
                .and_then(|p| p.actions)
            {
                actions = n;
            }
            if self.effects.teleported.contains(&id) {
                actions = actions.saturating_sub(1);
            }
            let f = &mut self.figures[i];
            f.turn = Default::default();
            f.turn.allowed = actions;
            f.turn.rift_move = rift == Some(id);
            if f.skip_activation && f.in_play() {
                f.skip_activation = false;
                f.turn.activation = Activation::Done;
            }
        }
        self.active = None;
    }

    /// Can the DL still do anything in step 4?
    pub(crate) fn dl_can_act(&self) -> bool {
        self.figures.iter().any(|f| {
            f.creature().is_some()
                && f.in_play()
                && self.captor(f.id).is_none()
                && (f.turn.activation != Activation::Done && f.turn.used < f.turn.allowed
                    || self.effects.dark_influence > 0)
        })
    }

    /// DL step 5 and the end of the DL turn.
    pub(crate) fn end_dl_turn(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        self.edition.rules_mut().discard_event();
        let e = &mut self.effects;
        e.cc_frenzy = false;
        e.fa_wave = false;
        e.necrofrenzy = false;
        e.nepharite_rift = false;
        e.legionnaire_frenzy = false;
        e.dark_influence = 0;
        e.teleported.clear();
        self.active = None;
        self.reshuffle_ai_deck(dice, events);
        events.push(Event::TurnEnded {
            side: Side::DarkLegion,
        });
    }

    /// Time bombs explode at the start of the next round's DL turn (EQI
    /// Time Bomb): a bomb placed this round waits for a later round.
    fn explode_bombs(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        let bombs: Vec<(citadel_grid::Square, u8)> = self
            .tokens
            .iter()
            .filter_map(|t| match t.kind {
                TokenState::Bomb { team, round } if round < self.round => Some((t.square, team)),
                _ => None,
            })
            .collect();
        for (square, team) in bombs {
            self.tokens.retain(|t| t.square != square);
            events.push(Event::TokenRemoved { square });
            let board = &self.rules.board;
            let mut victims = Vec::new();
            if let Some(f) = self.figure_at(square) {
                victims.push(f);
            }
            for n in square.ring() {
                if self.walls.adjacent(board, square, n) {
                    if let Some(f) = self.figure_at(n) {
                        victims.push(f);
                    }
                }
            }
            let pool = self.trap_dice();
            for v in victims {
                if self.figures[v.index()].square().is_some() {
                    self.fixed_attack(v, &pool, Some(team), dice, events);
                }
            }
        }
    }

    /// DL-3 step 1: draw the top event (EVT-2) and resolve what is instant.
    fn draw_event(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        let Some(super::ruleset::EventDraw { card, last }) = self.edition.rules_mut().draw_event()
        else {
            return;
        };
        if last {
            self.final_round = true;
        }
        events.push(Event::EventDrawn {
            card,
            final_round: self.final_round,
        });
        let (effect, duration) = self
            .rules
            .tables
            .event(card)
            .map_or((EventEffect::None, EventDuration::Instant), |e| {
                (e.effect, e.duration)
            });
        let time_rift_extra_move = self.cards().time_rift_extra_move;
        let e = &mut self.effects;
        if duration == EventDuration::NextRound {
            // Classic CEV-1: in force for the whole next round; a target is
            // chosen now.
            if effect == EventEffect::MisinterpretedOrders {
                self.ask_dl(Decision::EventCorporation { card });
            } else {
                e.next_round.push(effect);
            }
            return;
        }
        match effect {
            EventEffect::CloseCombatPhobia => e.no_close_combat = true,
            EventEffect::MentalBlock => e.no_firearms = true,
            EventEffect::SecurityEncryption => e.no_tech = true,
            EventEffect::CloseCombatFrenzy => e.cc_frenzy = true,
            EventEffect::DarkEnergyWave => e.fa_wave = true,
            EventEffect::DarkEnergyWaveAny => {
                e.fa_wave = true;
                e.cc_frenzy = true;
            }
            EventEffect::Necrofrenzy => e.necrofrenzy = true,
            EventEffect::NephariteTimeRift if time_rift_extra_move => {
                e.nepharite_rift = true;
            }
            EventEffect::DarkInfluence => e.dark_influence = 2,
            EventEffect::LegionnaireFrenzy => e.legionnaire_frenzy = true,
            EventEffect::RazideFury => e.razide_fury = true,
            EventEffect::DarkTeleportation
            | EventEffect::TemporaryDefensiveSystem
            | EventEffect::InterceptedOrders
            | EventEffect::CorruptedEquipment
            | EventEffect::Berserk => self.ask_dl(Decision::EventFigure { card }),
            EventEffect::MagneticRestraints => {
                self.ask_dl(Decision::EventTile { card, figure: None })
            }
            EventEffect::CombatNeurosis | EventEffect::FallenFriend | EventEffect::RazideFear => {
                self.ask_dl(Decision::EventCorporation { card })
            }
            EventEffect::DefensiveSpike => self.defensive_spike(dice, events),
            EventEffect::NephariteAlteredReality if self.any_sector_change() => {
                self.ask_dl(Decision::AlterSectors { card });
            }
            // Events 21, 22, 25, 27, 28, 29 (no mission uses them) that need
            // more than reinforcements are not implemented; their effect is skipped
            // (see docs/RULES-COVERAGE.md).
            _ => {}
        }
    }

    /// Event 14: every on-board DT whose weapon has a tech attack and that
    /// is adjacent to a wall (ADJ-8) suffers an unowned trap attack
    /// (TRP-1, TRP-3), in figure order.
    fn defensive_spike(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        let board = &self.rules.board;
        let victims: Vec<_> = self
            .dts_on_board()
            .filter(|f| {
                f.weapon
                    .is_some_and(|w| self.rules.tables.weapon_def(w).te.is_some())
                    && f.square().is_some_and(|s| board.adjacent_to_wall(s))
            })
            .map(|f| f.id)
            .collect();
        let pool = self.trap_dice();
        for v in victims {
            if self.figures[v.index()].square().is_some() {
                self.fixed_attack(v, &pool, None, dice, events);
            }
        }
    }

    /// The effect of the event `card`, if one is being resolved.
    pub(crate) fn event_effect(&self, card: u32) -> EventEffect {
        self.rules
            .tables
            .event(card)
            .map_or(EventEffect::None, |e| e.effect)
    }

    /// Event 26 targets: on-board Centurions and Necromutants.
    pub(crate) fn berserk_candidates(&self) -> impl Iterator<Item = &super::state::Figure> {
        self.dl_on_board().filter(|f| {
            matches!(
                f.creature(),
                Some(CreatureKind::Centurion | CreatureKind::Necromutant)
            )
        })
    }

    /// DL figures that are not DTs' enemies... (helper for event 2).
    pub(crate) fn dl_on_board(&self) -> impl Iterator<Item = &super::state::Figure> {
        self.figures.iter().filter(|f| {
            matches!(f.kind, FigureKind::Creature { .. }) && matches!(f.place, Place::Board { .. })
        })
    }
}
