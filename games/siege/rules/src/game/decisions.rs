//! Pending decisions (core CONV-8): what each may be answered with, and
//! what an answer does.

use super::command::Command;
use super::event::{Event, Place};
use super::ids::FigureId;
use super::rejection::Rejection;
use super::state::{Decision, Game};
use crate::content::tables::{EventEffect, Item};
use crate::dice::Dice;

impl Game {
    /// Every legal answer to `d`, in CONV-8 default order (the first is the
    /// default: lowest id, squares by lowest `(y, x)`).
    pub(crate) fn decision_options(&self, d: &Decision) -> Vec<Command> {
        match d {
            Decision::WhiteEntrance { .. } => self
                .rules
                .white
                .iter()
                .map(|e| Command::ChooseEntrance {
                    entrance: e.id.clone(),
                })
                .collect(),
            Decision::RedEntrance { kind } => {
                let any = self.may_enter_anywhere(*kind);
                let n = if any {
                    self.rules.dl_entrances.len()
                } else {
                    self.rules.red.len()
                };
                self.rules.dl_entrances[..n]
                    .iter()
                    .map(|e| Command::ChooseEntrance {
                        entrance: e.id.clone(),
                    })
                    .chain(self.portal_reinforcement_options(*kind))
                    .collect()
            }
            Decision::PlaceNear { kind, near } => self.place_near_options(*kind, *near),
            Decision::ForceOption { card, .. } => {
                let n = self
                    .rules
                    .tables
                    .force_card(*card)
                    .map_or(0, |c| c.options.len());
                (0..n)
                    .map(|option| Command::ChooseOption { option })
                    .collect()
            }
            Decision::PlaceFigures { tile, kinds } => {
                let squares = self.placement_squares(*tile);
                let mut kinds: Vec<_> = kinds
                    .iter()
                    .copied()
                    .filter(|k| self.pool_count(*k) > 0)
                    .collect();
                kinds.sort();
                kinds.dedup();
                kinds
                    .iter()
                    .flat_map(|k| {
                        squares.iter().map(move |s| Command::Place {
                            kind: *k,
                            square: *s,
                        })
                    })
                    .collect()
            }
            // CONV-8: the default declines ("no call") first.
            Decision::CallReinforcements { .. } => [false, true]
                .map(|call| Command::CallReinforcements { call })
                .to_vec(),
            Decision::RevealTile => (0..self.tiles.len())
                .filter(|&t| !self.tiles[t].face_down.is_empty())
                .map(|tile| Command::ChooseTile { tile })
                .collect(),
            Decision::EventFigure { card } => {
                let figures: Vec<FigureId> = match self.event_effect(*card) {
                    EventEffect::DarkTeleportation => self.dl_on_board().map(|f| f.id).collect(),
                    EventEffect::Berserk => self.berserk_candidates().map(|f| f.id).collect(),
                    _ => self.dts_on_board().map(|f| f.id).collect(),
                };
                figures
                    .into_iter()
                    .map(|figure| Command::ChooseFigure { figure })
                    .collect()
            }
            Decision::EventTile { figure, .. } => {
                let from = figure
                    .and_then(|f| self.figures[f.index()].square())
                    .and_then(|s| self.rules.board.tile_of(s));
                let own_tile_too = self.cards().teleport_within_own_tile;
                (0..self.tiles.len())
                    .filter(|t| own_tile_too || Some(*t) != from)
                    .filter(|t| figure.is_none() || !self.teleport_squares(*t).is_empty())
                    .map(|tile| Command::ChooseTile { tile })
                    .collect()
            }
            // CONV-8: the default leaves the board as it is.
            Decision::AlterSectors { .. } => std::iter::once(None)
                .chain(self.sector_changes().into_iter().map(Some))
                .map(|change| Command::AlterSectors { change })
                .collect(),
            Decision::EventSquare { tile, figure, .. } => {
                let Some(kind) = self.figures[figure.index()].creature() else {
                    return Vec::new();
                };
                self.teleport_squares(*tile)
                    .into_iter()
                    .map(|square| Command::Place { kind, square })
                    .collect()
            }
            Decision::EventCorporation { .. } => (0..self.teams.len() as u8)
                .filter(|&t| self.team_in_pool(t))
                .map(|t| Command::ChooseCorporation {
                    corporation: self.teams[usize::from(t)].corporation,
                })
                .collect(),
            Decision::Reaction { team, window, .. } => self.reaction_options(*team, *window),
            Decision::CardWindow { .. }
            | Decision::CardSquare { .. }
            | Decision::CardMove { .. }
            | Decision::CardControl { .. } => self.card_decision_options(d),
            Decision::KeepSecondary { team } => self.keep_options(*team),
            Decision::StartSquare { .. }
            | Decision::MissionPlacement { .. }
            | Decision::DebrisSquare { .. } => self.mission_decision_options(d),
            Decision::DiscardItem { figure } => {
                // CONV-8: the owner's default is the lowest id, by its
                // string (the order players see).
                let tables = &self.rules.tables;
                let mut items: Vec<String> = self.figures[figure.index()]
                    .items
                    .iter()
                    .map(|&i| tables.equipment_def(i).id.clone())
                    .collect();
                items.sort();
                items.dedup();
                items
                    .into_iter()
                    .map(|item| Command::Discard { item })
                    .collect()
            }
        }
    }

    /// Classic events 1 and 7: the Legionnaires (The Legionnaires' Charge)
    /// or the Ezoghoul (Ezoghoul Attack) of the event's call may wait at any
    /// entrance, white or red.
    fn may_enter_anywhere(&self, kind: crate::content::CreatureKind) -> bool {
        use crate::content::CreatureKind as K;
        self.edition.rules().current_event().is_some_and(|card| {
            matches!(
                (self.event_effect(card), kind),
                (EventEffect::LegionnairesCharge, K::Legionnaire)
                    | (EventEffect::EzoghoulAttack, K::Ezoghoul)
            )
        })
    }

    /// MOV-15 destinations of event 2: empty, passable, token-free squares.
    fn teleport_squares(&self, tile: usize) -> Vec<citadel_grid::Square> {
        self.rules
            .tile_squares(tile)
            .filter(|s| {
                self.rules.board.passable(*s)
                    && self.figure_at(*s).is_none()
                    && self.token_at(*s).is_none()
            })
            .collect()
    }

    /// Check that `cmd` answers `d` (no change on error).
    pub(crate) fn check_answer(&self, d: &Decision, cmd: &Command) -> Result<(), Rejection> {
        if let Some(r) = self.check_card_move(d, cmd) {
            return r;
        }
        if let (Decision::CardWindow { team }, Command::PlayTwoUse { .. }) = (d, cmd) {
            // The typed reason of a refused play, not just "not an option".
            return self.check_two_use(*team, cmd);
        }
        // The common answers, checked alone rather than against a list of
        // every option: passing a card window (always offered), and a
        // placement (one square's check, not the whole tile's).
        match (d, cmd) {
            (Decision::CardWindow { .. }, Command::PassCard) => return Ok(()),
            (Decision::PlaceFigures { tile, kinds }, Command::Place { kind, square })
                if kinds.contains(kind)
                    && self.pool_count(*kind) > 0
                    && self.placement_ok(*square, Some(*tile)) =>
            {
                return Ok(());
            }
            _ => {}
        }
        if let (Decision::AlterSectors { .. }, Command::AlterSectors { change }) = (d, cmd) {
            // One board to validate, not every turn and swap.
            return match change {
                None => Ok(()),
                Some(c) if self.sector_change_legal(*c) => Ok(()),
                Some(_) => Err(Rejection::InvalidChoice),
            };
        }
        let options = self.decision_options(d);
        if options.contains(cmd) {
            return Ok(());
        }
        let same_kind = options
            .iter()
            .any(|o| std::mem::discriminant(o) == std::mem::discriminant(cmd));
        if !same_kind {
            return Err(Rejection::NoSuchDecision);
        }
        Err(match cmd {
            Command::Place { .. }
            | Command::PlaceStart { .. }
            | Command::PlaceDebris { .. }
            | Command::ChooseSquare { .. } => Rejection::InvalidSquare,
            Command::ChooseEntrance { .. } => Rejection::UnknownEntrance,
            _ => Rejection::InvalidChoice,
        })
    }

    /// Apply a checked answer to the head decision.
    pub(crate) fn answer(&mut self, cmd: Command, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        let Some(p) = self.pending.pop_front() else {
            return;
        };
        if matches!(
            p.decision,
            Decision::StartSquare { .. }
                | Decision::MissionPlacement { .. }
                | Decision::DebrisSquare { .. }
        ) {
            self.answer_mission_decision(p, cmd, events);
            return;
        }
        if matches!(
            p.decision,
            Decision::CardWindow { .. }
                | Decision::CardSquare { .. }
                | Decision::CardMove { .. }
                | Decision::CardControl { .. }
        ) {
            self.answer_card_decision(p, cmd, dice, events);
            return;
        }
        match (p.decision, cmd) {
            (Decision::WhiteEntrance { team }, Command::ChooseEntrance { entrance }) => {
                let idx = self
                    .rules
                    .white
                    .iter()
                    .position(|e| e.id == entrance)
                    .unwrap_or(0);
                self.teams[usize::from(team)].entrance = Some(idx as u8);
                events.push(Event::EntranceChosen { team, entrance });
                for f in self.teams[usize::from(team)].figures {
                    self.set_place(
                        f,
                        Place::Waiting {
                            entrance: idx as u8,
                        },
                    );
                }
            }
            (Decision::RedEntrance { kind }, Command::ChooseEntrance { entrance }) => {
                let idx = self
                    .rules
                    .dl_entrances
                    .iter()
                    .position(|e| e.id == entrance)
                    .unwrap_or(0);
                if let Some(id) = self.pool_figure(kind) {
                    self.set_place(
                        id,
                        Place::Waiting {
                            entrance: idx as u8,
                        },
                    );
                    events.push(Event::Reinforcement {
                        figure: id,
                        entrance,
                    });
                }
            }
            (
                Decision::RedEntrance { kind } | Decision::PlaceNear { kind, .. },
                Command::Place { square, .. },
            ) => {
                self.place_creature(kind, square, events);
            }
            (Decision::ForceOption { card, tile }, Command::ChooseOption { option }) => {
                events.push(Event::OptionChosen { card, option });
                let kinds = self
                    .rules
                    .tables
                    .force_card(card)
                    .and_then(|c| c.options.get(option).cloned())
                    .unwrap_or_default();
                // The option's placements come before anything queued later.
                let rest: Vec<_> = self.pending.drain(..).collect();
                self.queue_figures(kinds, tile);
                self.pending.extend(rest);
            }
            (Decision::PlaceFigures { tile, mut kinds }, Command::Place { kind, square }) => {
                self.place_creature(kind, square, events);
                if let Some(i) = kinds.iter().position(|k| *k == kind) {
                    kinds.remove(i);
                }
                if !kinds.is_empty() {
                    self.pending.push_front(super::state::Pending {
                        seat: p.seat,
                        decision: Decision::PlaceFigures { tile, kinds },
                    });
                }
            }
            (Decision::RevealTile, Command::ChooseTile { tile }) => {
                let rest: Vec<_> = self.pending.drain(..).collect();
                self.reveal_on_tile(tile, dice, events);
                self.pending.extend(rest);
            }
            (Decision::EventFigure { card }, Command::ChooseFigure { figure }) => {
                events.push(Event::EventTarget {
                    card,
                    figure: Some(figure),
                    tile: None,
                    corporation: None,
                });
                self.event_figure_chosen(card, figure, p.seat, dice, events);
            }
            (Decision::EventTile { card, figure }, Command::ChooseTile { tile }) => {
                events.push(Event::EventTarget {
                    card,
                    figure: None,
                    tile: Some(tile),
                    corporation: None,
                });
                match figure {
                    Some(figure) => self.pending.push_front(super::state::Pending {
                        seat: p.seat,
                        decision: Decision::EventSquare { card, figure, tile },
                    }),
                    None => {
                        // Event 10: DTs on the tile now are blocked.
                        let on: Vec<FigureId> = self
                            .dts_on_board()
                            .filter(|f| {
                                f.square().and_then(|s| self.rules.board.tile_of(s)) == Some(tile)
                            })
                            .map(|f| f.id)
                            .collect();
                        self.effects.restrained.extend(on);
                    }
                }
            }
            (
                Decision::AlterSectors { .. },
                Command::AlterSectors {
                    change: Some(change),
                },
            ) => {
                self.alter_reality(change, events);
            }
            (Decision::EventSquare { figure, .. }, Command::Place { square, .. }) => {
                self.set_place(figure, Place::Board { square });
                events.push(Event::Relocated { figure, to: square });
                self.effects.teleported.push(figure);
            }
            (Decision::EventCorporation { card }, Command::ChooseCorporation { corporation }) => {
                events.push(Event::EventTarget {
                    card,
                    figure: None,
                    tile: None,
                    corporation: Some(corporation),
                });
                if let Some(t) = self.teams.iter().position(|t| t.corporation == corporation) {
                    let t = t as u8;
                    match self.event_effect(card) {
                        EventEffect::FallenFriend => self
                            .effects
                            .no_cc_against
                            .push((t, crate::content::CreatureKind::Centurion)),
                        EventEffect::RazideFear => self
                            .effects
                            .no_cc_against
                            .push((t, crate::content::CreatureKind::Razide)),
                        EventEffect::MisinterpretedOrders => {
                            let next = self.round + 1;
                            self.effects.misinterpreted.push((t, next));
                        }
                        _ => self.effects.no_cards.push(t),
                    }
                }
            }
            (Decision::CallReinforcements { .. }, Command::CallReinforcements { call }) => {
                self.edition.rules_mut().declare_call(call);
                events.push(Event::ReinforcementsCalled { call });
            }
            (Decision::KeepSecondary { team }, Command::KeepSecondary { card }) => {
                self.keep_secondary(team, card, events);
            }
            (Decision::DiscardItem { figure }, Command::Discard { item }) => {
                let id = match self.rules.tables.item(&item) {
                    Some(Item::Equipment(id)) => Some(id),
                    _ => None,
                };
                let f = &mut self.figures[figure.index()];
                if let Some(i) = f.items.iter().position(|x| Some(*x) == id) {
                    f.items.remove(i);
                    events.push(Event::ItemUsed { figure, item });
                }
            }
            _ => {}
        }
    }

    fn event_figure_chosen(
        &mut self,
        card: u32,
        figure: FigureId,
        seat: super::ids::Seat,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        match self.event_effect(card) {
            EventEffect::DarkTeleportation => self.pending.push_front(super::state::Pending {
                seat,
                decision: Decision::EventTile {
                    card,
                    figure: Some(figure),
                },
            }),
            EventEffect::TemporaryDefensiveSystem => {
                let pool = [crate::dice::DieColor::Black; 3];
                self.fixed_attack(figure, &pool, None, dice, events);
            }
            EventEffect::InterceptedOrders => self.effects.intercepted.push(figure),
            EventEffect::Berserk => self.effects.berserk.push(figure),
            EventEffect::CorruptedEquipment => {
                if let Some(team) = self.figures[figure.index()].team() {
                    if !self.figures[figure.index()].items.is_empty() {
                        let owner = self.teams[usize::from(team)].seat;
                        self.pending.push_front(super::state::Pending {
                            seat: owner,
                            decision: Decision::DiscardItem { figure },
                        });
                    }
                }
            }
            _ => {}
        }
    }
}
