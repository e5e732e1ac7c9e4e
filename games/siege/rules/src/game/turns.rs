//! Rounds and turns (core TRN-1..11), the equipment draft (ce.md EQP-5,
//! SET-11), the end-of-round check (MSN-5) and scoring (SCR, PPC-4).

use super::event::{Event, MissionResult, Place};
use super::ids::{Seat, Side};
use super::state::{Activation, Decision, DlStep, Game, Pending, Phase};
use crate::content::missions::Goal;
use crate::content::tables::EventEffect;
use crate::dice::Dice;

impl Game {
    /// Run everything that needs no player input, until someone must act.
    pub(crate) fn advance(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        loop {
            if self.reaction.waiting_for_answer() {
                return; // This run is discarded and the command suspended.
            }
            self.latch_then_goal();
            // README D34 (C1M2): no DT left on the board ends the mission.
            if self.phase != Phase::Finished && self.no_dt_left_ends_mission() {
                let goal = self.goal_holds(&self.rules.mission.goal);
                let result = if goal {
                    MissionResult::Success
                } else {
                    MissionResult::Failure
                };
                self.finish(result, events);
                return;
            }
            // A decision waits for its seat, unless it has lapsed.
            if let Some(head) = self.pending.front() {
                if self.decision_possible(&head.decision) {
                    return;
                }
                match self.pending.pop_front() {
                    Some(Pending {
                        decision: Decision::PlaceFigures { kinds, .. },
                        ..
                    }) => {
                        for kind in kinds {
                            events.push(Event::NotPlaced { kind });
                        }
                    }
                    Some(Pending {
                        decision: Decision::PlaceNear { kind, .. },
                        ..
                    }) => events.push(Event::NotPlaced { kind }),
                    _ => {}
                }
                continue;
            }
            match self.phase.clone() {
                Phase::Finished => return,
                Phase::Equipment { order, next } => {
                    if order.iter().all(|t| self.teams[usize::from(*t)].passed) {
                        // SET-10 comes before SET-11.
                        if let Some(deal) = self
                            .secondary_rules()
                            .filter(|_| self.uses_secondaries() && !self.sec.dealt)
                            .map(|r| r.deal)
                        {
                            deal(self, &order, dice, events);
                            continue;
                        }
                        self.deal_dt_cards(&order, events);
                        self.start_round(dice, events);
                        continue;
                    }
                    if self.teams[usize::from(order[next])].passed {
                        self.phase = Phase::Equipment {
                            next: (next + 1) % order.len(),
                            order,
                        };
                        continue;
                    }
                    return;
                }
                Phase::Corporation { team } => {
                    if self.team_can_act(team) {
                        return;
                    }
                    self.end_corporation_turn(team, dice, events);
                }
                Phase::DarkLegion {
                    step: DlStep::Activation,
                } => {
                    if self.dl_can_act() {
                        self.reveal_ai_tie_breaker(dice, events);
                        return;
                    }
                    self.end_dl_turn(dice, events);
                    self.next_marker(dice, events);
                }
                Phase::DarkLegion { step } => self.dl_step(step, dice, events),
            }
        }
    }

    fn start_round(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        self.round += 1;
        events.push(Event::RoundStarted { round: self.round });
        let pool = self.pool_markers();
        let rounds = self.rules.mission.rounds;
        if self
            .edition
            .rules_mut()
            .begin_round(self.round, rounds, pool)
        {
            self.final_round = true;
        }
        self.next_marker(dice, events);
    }

    /// The next side's turn as the ruleset orders it (CE: TRN-3, a marker
    /// at random), or the end of the round.
    pub(crate) fn next_marker(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        let teams = &self.teams;
        let key = |side: Side| marker_id(teams, side);
        let Some(side) = self.edition.rules_mut().next_side(dice, &key) else {
            self.end_of_round(dice, events);
            return;
        };
        self.active = None;
        self.card_played = false;
        self.clear_overrun();
        match side {
            Side::DarkLegion => {
                events.push(Event::TurnStarted {
                    side,
                    seat: (!self.dl.ai).then_some(self.dl.seat),
                });
                self.phase = Phase::DarkLegion {
                    step: DlStep::Start,
                };
                self.open_card_windows(None);
            }
            Side::Team(team) => {
                self.begin_corporation_turn(team, events);
                self.open_card_windows(Some(team));
            }
        }
    }

    fn begin_corporation_turn(&mut self, team: u8, events: &mut Vec<Event>) {
        let t = &self.teams[usize::from(team)];
        events.push(Event::TurnStarted {
            side: Side::Team(team),
            seat: Some(t.seat),
        });
        self.phase = Phase::Corporation { team };
        // Classic event 9 shares the team's base actions as they are taken
        // (`share_misinterpreted_action`); each DT may still take both.
        // Classic Combat Neurosis: one action at most this round.
        let neurosis = self.card_neurosis(team);
        for f in t.figures {
            let base = if self.effects.intercepted.contains(&f) || neurosis {
                1
            } else {
                2
            };
            let fig = &mut self.figures[f.index()];
            fig.turn = Default::default();
            fig.turn.allowed = base;
        }
        // Classic CSM card 2: the team's captive acts in its turn.
        self.secondary_turn_begun(team);
        // Classic CXA-3: Imperial adds to its pool at the start of its turn.
        if let Some(pool) = self.hooks().extra_action_pool {
            // Combat Frenzy's actions sit above the cap (README D44).
            let frenzy = self.card_frenzy_left(team);
            let t = &mut self.teams[usize::from(team)];
            let base = t.extra_actions.saturating_sub(frenzy);
            t.extra_actions = (base + (pool.per_turn)(t.corporation)).min(pool.cap) + frenzy;
        }
        let t = &self.teams[usize::from(team)];
        let seat = t.seat;
        if t.entrance.is_none() && !self.queue_start_on_tile(team) {
            // MOV-12: the first marker draw asks for a white entrance.
            self.pending.push_back(Pending {
                seat,
                decision: Decision::WhiteEntrance { team },
            });
        }
    }

    /// TRN-4: can the team still do anything this turn? The turn ends by
    /// itself only once no DT is left that may act: one whose activation
    /// has not ended and that has an action left, or may still gain one
    /// (a CE DT card, the classic extra-action pool, a Command Helmet:
    /// classic CXA-4), or while such a DT stands, the team holds a 1993
    /// two-use card, which it may play between actions (CDT-1). Only the
    /// number of cards counts, never which: whether the turn ends by
    /// itself is seen by every player, and whether a held card has a play
    /// now would tell them which card it is (HID-2).
    pub(crate) fn team_can_act(&self, team: u8) -> bool {
        if self.overrun.is_some() {
            return true;
        }
        let t = &self.teams[usize::from(team)];
        // Classic Combat Neurosis: no extra action of any kind.
        let neurosis = self.card_neurosis(team);
        let cards =
            (!t.hand.is_empty() && !self.card_played && !self.effects.no_cards.contains(&team))
                || (t.extra_actions > 0 && !neurosis);
        let captive = self.captive_of(team).is_some_and(|id| {
            let f = &self.figures[id.index()];
            f.square().is_some()
                && f.turn.activation != Activation::Done
                && f.turn.used < f.turn.allowed
        });
        if captive {
            return true;
        }
        let mut open = t
            .figures
            .iter()
            .filter(|id| {
                let f = &self.figures[id.index()];
                f.in_play() && f.turn.activation != Activation::Done
            })
            .peekable();
        if open.peek().is_none() {
            return false;
        }
        open.any(|id| {
            let f = &self.figures[id.index()];
            f.turn.used < f.turn.allowed
                || (cards && f.turn.allowed < 4)
                || (!neurosis && self.helmet_action_left(*id))
        }) || !t.cards.is_empty()
    }

    pub(crate) fn end_corporation_turn(
        &mut self,
        team: u8,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let figs = self.teams[usize::from(team)].figures;
        for f in figs {
            let fig = &mut self.figures[f.index()];
            fig.turn.activation = Activation::Done;
            fig.turn.phasing = false;
        }
        // EVT-3: "target's next turn" effects end with this turn.
        self.effects.intercepted.retain(|f| !figs.contains(f));
        self.effects.no_cards.retain(|t| *t != team);
        self.effects.no_cc_against.retain(|(t, _)| *t != team);
        self.clear_overrun();
        self.active = None;
        // Classic CSM cards 3 and 7 look at the end of the holder's turn.
        self.secondary_turn_ended(team, events);
        events.push(Event::TurnEnded {
            side: Side::Team(team),
        });
        self.next_marker(dice, events);
    }

    /// TRN-9 / MSN-5: the end-of-round check.
    fn end_of_round(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        let e = &mut self.effects;
        e.no_close_combat = false;
        e.no_firearms = false;
        e.no_tech = false;
        e.razide_fury = false;
        e.berserk.clear();
        e.restrained.clear();
        e.phasing_teams.clear();
        let round = self.round;
        e.misinterpreted.retain(|(_, r)| *r > round);
        // Classic CDT: "this round" card effects end (after the pool
        // loses Combat Frenzy's unspent actions).
        if !self.effects.cards.is_empty() {
            self.end_round_card_effects(events);
        }
        let e = &mut self.effects;
        // Classic CEV-1: "next round" events take effect now.
        for effect in std::mem::take(&mut e.next_round) {
            match effect {
                EventEffect::CloseCombatPhobia => e.no_close_combat = true,
                EventEffect::MentalBlock => e.no_firearms = true,
                _ => {}
            }
        }
        for t in &mut self.tiles {
            t.smoke = false;
        }
        let goal = self.goal_holds(&self.rules.mission.goal);
        let result = if goal && self.rules.mission.ends_early {
            Some(MissionResult::Success)
        } else if self.final_round || self.corporations_in_pool() == 0 {
            Some(if goal {
                MissionResult::Success
            } else {
                MissionResult::Failure
            })
        } else {
            None
        };
        match result {
            Some(r) => self.finish(r, events),
            None => self.start_round(dice, events),
        }
    }

    /// MSN-2 goal predicates. Latching ones are latched by the counters
    /// they read (specials done, exits, kills never decrease).
    pub(crate) fn goal_holds(&self, goal: &Goal) -> bool {
        match goal {
            Goal::And(v) => v.iter().all(|g| self.goal_holds(g)),
            Goal::Or(v) => v.iter().any(|g| self.goal_holds(g)),
            Goal::SpecialDone { action, times } => {
                let special = self.rules.mission.special(action);
                self.specials
                    .iter()
                    .find(|(a, _)| Some(*a) == special)
                    .is_some_and(|(_, n)| n >= times)
            }
            Goal::Exited { count, exits } => {
                // `k` (0): one per corporation player at setup.
                let need = if *count == 0 {
                    self.teams.len() as u32
                } else {
                    *count
                };
                self.exited_by(exits) >= need
            }
            Goal::CarriedOut { token, exits } => self.carried_out_by(token, exits),
            Goal::Eliminated(tag) => self.tag_goal(tag),
            Goal::PpEarned(n) => self.teams.iter().map(|t| t.kill_pp).sum::<i32>() >= *n as i32,
            Goal::AllDlEliminated => {
                !self
                    .figures
                    .iter()
                    .any(|f| f.creature().is_some() && f.in_play())
                    && self.tiles.iter().all(|t| t.face_down.is_empty())
            }
            Goal::Alive(n) => self.dts_on_board().count() as u32 >= *n,
            Goal::Destroyed(names) => self.tokens_destroyed(names),
            Goal::Hacked(names) => self.tokens_hacked(names),
            Goal::Then { next, .. } => self.mission.then_mark.is_some() && self.goal_holds(next),
        }
    }

    /// SCR-1 / PPC-4: score the mission and name the winners (SCR-2).
    fn finish(&mut self, result: MissionResult, events: &mut Vec<Event>) {
        let rewards = self.rules.mission.rewards.clone();
        // END_SCORING: classic rewards are credits, which the campaign
        // keeps (CEC-2); the mission itself scores no PP for them.
        match result {
            _ if !self.hooks().pp_rewards => {}
            MissionResult::Success => {
                for t in 0..self.teams.len() as u8 {
                    let any_alive = self.teams[usize::from(t)]
                        .figures
                        .iter()
                        .any(|f| self.figures[f.index()].place != Place::Eliminated);
                    if any_alive {
                        self.award(
                            Side::Team(t),
                            rewards.success,
                            "primary mission success",
                            events,
                        );
                    }
                }
            }
            MissionResult::Failure => {
                self.award(
                    Side::DarkLegion,
                    rewards.failure,
                    "primary mission failure",
                    events,
                );
                if let Some(t) = self.teams.iter().position(|t| t.commander) {
                    self.award(
                        Side::Team(t as u8),
                        rewards.commander,
                        "commander penalty",
                        events,
                    );
                }
            }
        }
        // SCR-1 step 3: secondary missions (PPC-4).
        self.resolve_secondaries(events);
        for t in 0..self.teams.len() as u8 {
            let tokens = i32::from(self.teams[usize::from(t)].reckless);
            self.award(Side::Team(t), -3 * tokens, "reckless manoeuvres", events);
        }
        let best = self.teams.iter().map(|t| t.pp).max().unwrap_or(0);
        let dl_wins = self.dl.pp >= best;
        let winners: Vec<Seat> = if dl_wins {
            if self.dl.ai {
                Vec::new()
            } else {
                vec![self.dl.seat]
            }
        } else {
            self.teams
                .iter()
                .filter(|t| t.pp == best)
                .map(|t| t.seat)
                .collect()
        };
        self.result = Some(result);
        self.phase = Phase::Finished;
        self.pending.clear();
        events.push(Event::MissionEnded {
            result,
            winners,
            dl_wins,
        });
    }

    /// SET-11: deal DT cards one at a time in equipment order.
    fn deal_dt_cards(&mut self, order: &[u8], events: &mut Vec<Event>) {
        let counts: Vec<u8> = order
            .iter()
            .map(|&t| {
                let team = &self.teams[usize::from(t)];
                let base = self
                    .rules
                    .tables
                    .ranks
                    .get(usize::from(team.start_rank.max(1)) - 1)
                    .map_or(0, |r| r.dt_cards);
                base + (self.hooks().bonus_dt_cards)(team.corporation, team.start_rank)
            })
            .collect();
        let max = counts.iter().copied().max().unwrap_or(0);
        for round in 0..max {
            for (i, &t) in order.iter().enumerate() {
                if round < counts[i] {
                    if let Some(card) = self.edition.rules_mut().draw_dt_card() {
                        self.teams[usize::from(t)].hand.push(card);
                    } else if let Some(card) = self.edition.rules_mut().draw_two_use() {
                        // Classic CDT-1: the same counts, from the two-use deck.
                        self.teams[usize::from(t)].cards.push(card);
                    }
                }
            }
        }
        for &t in order {
            let team = &self.teams[usize::from(t)];
            events.push(Event::CardsDealt {
                seat: team.seat,
                count: team.hand.len() as u8,
                cards: Some(team.hand.clone()),
            });
            if !team.cards.is_empty() {
                events.push(Event::TwoUseDealt {
                    seat: team.seat,
                    count: team.cards.len() as u8,
                    cards: Some(team.cards.clone()),
                });
            }
        }
    }
}

/// A side's marker id, for CONV-5 ordering.
fn marker_id(teams: &[super::state::Team], side: Side) -> &'static str {
    match side {
        Side::DarkLegion => "dark_legion",
        Side::Team(t) => teams[usize::from(t)].corporation.id(),
    }
}
