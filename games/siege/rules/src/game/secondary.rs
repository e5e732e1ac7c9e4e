//! Secondary missions, the part both editions share (core MSN-7; ce.md
//! SEC, SET-10, PPC-4; classic.md CSM).
//!
//! The game keeps the proof every card needs ([`Proof`]) for every team
//! whatever it holds, so keeping a card reveals nothing, and resolves the
//! kept cards at mission end, after the commander's primary penalty and
//! before reckless tokens (PPC-4). What the cards are, how they are dealt,
//! what each asks and what it is worth is each edition's, behind
//! [`SecondaryRules`]: the CE cards in `ce/secondary.rs`, the 1993 cards
//! in `classic/secondary.rs`.
//!
//! Cards that need an action add a Special action that only the holder is
//! offered. *Decision: such a Special action is public when taken (it is
//! done on the board), the card itself stays secret until the end.*

use super::command::Command;
use super::event::Event;
use super::ids::{FigureId, Seat, Side};
use super::rejection::Rejection;
use super::state::Game;
use crate::content::tables::SecondaryDef;
use crate::content::{AttackType, CreatureKind};
use crate::dice::{shuffle_with, Dice};
use citadel_grid::Square;
use serde::{Deserialize, Serialize};

// The CE Special action ids keep their path from before the editions had
// folders (`game::secondary::CELL_SAMPLE`, ...).
pub use super::ce::secondary::{CELL_SAMPLE, CONVEY_MESSAGE, SCAN};

/// One DL figure eliminated by a team (MSN-7 kill log).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kill {
    /// What was eliminated.
    pub kind: CreatureKind,
    /// The attack type, for an Attack action (`None`: trap, bomb, card).
    pub attack: Option<AttackType>,
    /// `dist` from attacker to target, for an Attack action.
    pub dist: Option<i32>,
    /// The Attack action it happened in (a serial number), if any.
    pub action: Option<u32>,
}

/// What one team did this mission that a secondary card may ask about.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    /// DL figures the team eliminated, in order.
    pub kills: Vec<Kill>,
    /// Health its DTs lost in total (healing does not give it back).
    pub health_lost: u32,
    /// Successful terminal hacks (a terminal hack must call
    /// [`Game::note_hack`]).
    pub hacks: u32,
    /// Card 3: the DT that took the cell sample.
    pub cell_sample: Option<FigureId>,
    /// Card 4: the DT that took the message.
    pub message: Option<FigureId>,
    /// Card 7: tiles scanned.
    pub scans: Vec<usize>,
    /// DTs that left the board through a white entrance.
    pub exited_white: Vec<FigureId>,
    /// Classic Support Examination: the team's DTs that examined a large
    /// creature with a Special action. Not serialized while empty, so CE
    /// states keep their checksums.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examined: Vec<FigureId>,
    /// Classic Convey Important Message: a DT of the team left the board
    /// through a white entrance carrying the message.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub message_out: bool,
    /// Classic Prepare for Main Attack: at the end of the team's latest
    /// turn, (its round, no Legionnaire on the stairs sector).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prepared: Option<(u32, bool)>,
    /// Classic Capture Alien Specimen: the Centurion or Razide the team
    /// captured, while it is in play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captive: Option<FigureId>,
    /// The team controls its captive (from its next turn on).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub captive_ready: bool,
    /// The captive left the board through a white entrance.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub captive_out: bool,
}

/// The game's secondary-mission state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Secondaries {
    /// The cards were dealt (SET-10).
    pub dealt: bool,
    /// The deck (hidden order; top last).
    pub deck: Vec<u32>,
    /// Per team: the 2 cards offered while it chooses (secret).
    pub offers: Vec<Vec<u32>>,
    /// Per team: the card kept (secret until the end).
    pub kept: Vec<Option<u32>>,
    /// Per team: the proof.
    pub proof: Vec<Proof>,
    /// The first DL elimination of the mission, by this team (`Some(None)`:
    /// by no team).
    pub first_blood: Option<Option<u8>>,
    /// The first team whose token is on 3 tiles.
    pub vanguard: Option<u8>,
    /// The Attack action being resolved: (serial, attack type, `dist`).
    pub attack: Option<(u32, AttackType, i32)>,
    /// Attack actions so far (serial numbers).
    pub attacks: u32,
}

impl Secondaries {
    /// No card was dealt: nothing here matters to the game.
    pub(crate) fn unused(&self) -> bool {
        !self.dealt
    }

    /// Empty state for `teams` teams.
    pub(crate) fn new(teams: usize) -> Secondaries {
        Secondaries {
            offers: vec![Vec::new(); teams],
            kept: vec![None; teams],
            proof: vec![Proof::default(); teams],
            ..Secondaries::default()
        }
    }
}

/// How a ruleset deals, checks and rewards its secondary missions: the
/// seam between the shared proof-keeping here and each edition's cards
/// (CE SEC: `ce/secondary.rs`; classic CSM: `classic/secondary.rs`). Read through
/// `Hooks::secondaries`, so no core code asks which edition it plays.
#[derive(Debug)]
pub(crate) struct SecondaryRules {
    /// Fewest corporation teams with which the cards are dealt (CE: 1;
    /// classic CSM-1: 3).
    pub min_teams: usize,
    /// Some teams pursue the primary mission instead of a secondary one
    /// (classic CSM-1): a team holding no card is on the primary mission.
    pub assigns_primary: bool,
    /// Deal after the draft, in the draft `order`.
    pub deal: fn(&mut Game, &[u8], &mut dyn Dice, &mut Vec<Event>),
    /// The holder-only Special action ids.
    pub specials: &'static [&'static str],
    /// Is the Special action open to this DT now (action costs aside)?
    pub special_ok: fn(&Game, FigureId, &str) -> bool,
    /// Record a checked Special action.
    pub record_special: fn(&mut Game, FigureId, &str),
    /// Does the team's card hold at mission end?
    pub holds: fn(&Game, u8, u32) -> bool,
    /// The reward of a resolved card (CE: PP; classic CSM-2: credits).
    pub reward: fn(&mut Game, u8, &SecondaryDef, bool, &mut Vec<Event>),
    /// A team's turn ends (classic cards that look at that moment).
    pub turn_ended: fn(&mut Game, u8, &mut Vec<Event>),
    /// A team's turn begins (classic: its captive gets its actions).
    pub turn_begun: fn(&mut Game, u8),
}

/// One credit change of the mission result (classic CSM-2), for the
/// campaign, which keeps credits: `amount` credits to `side`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CreditAward {
    /// The team whose secondary mission this is.
    pub team: u8,
    /// Who gains them: that team (success), or the Dark Legion player
    /// (failure).
    pub side: Side,
    /// Credits gained (never negative).
    pub amount: i32,
    /// Why (`secondary mission success`, `secondary mission failure`).
    pub reason: String,
}

impl Game {
    /// SET-10: does this mission use secondary missions?
    pub(crate) fn uses_secondaries(&self) -> bool {
        self.hooks()
            .secondaries
            .is_some_and(|r| self.teams.len() >= r.min_teams)
            && self.rules.mission.secondary
            && !self.rules.tables.secondary.is_empty()
    }

    /// The ruleset's secondary-mission rules, when it has any.
    pub(crate) fn secondary_rules(&self) -> Option<&'static SecondaryRules> {
        self.hooks().secondaries
    }

    /// Classic CSM-1: is `team` on the primary mission? `None` in a
    /// ruleset where every team always is (CE) and while the draft that
    /// precedes the assignment is still open. A team holding a secondary
    /// card is not; with too few teams for secondary missions every team
    /// is.
    pub fn on_primary(&self, team: u8) -> Option<bool> {
        self.secondary_rules().filter(|r| r.assigns_primary)?;
        let kept = self.sec.kept.get(usize::from(team)).copied().flatten();
        if self.sec.dealt || !self.uses_secondaries() {
            Some(kept.is_none())
        } else {
            None
        }
    }

    /// The credit changes of the mission result so far (classic CSM-2):
    /// filled when the mission ends, empty in CE.
    pub fn credit_awards(&self) -> &[CreditAward] {
        &self.credits
    }

    /// The answers to [`Decision::KeepSecondary`]: the cards offered, the
    /// first drawn first (the default, SET-13).
    pub(crate) fn keep_options(&self, team: u8) -> Vec<Command> {
        self.sec.offers[usize::from(team)]
            .iter()
            .map(|&card| Command::KeepSecondary { card })
            .collect()
    }

    /// Keep `card`; the other offered card goes back into the deck (its
    /// bottom, so the order of the rest is unchanged).
    pub(crate) fn keep_secondary(&mut self, team: u8, card: u32, events: &mut Vec<Event>) {
        let offer = std::mem::take(&mut self.sec.offers[usize::from(team)]);
        for other in offer.into_iter().filter(|c| *c != card) {
            self.sec.deck.insert(0, other);
        }
        self.sec.kept[usize::from(team)] = Some(card);
        events.push(Event::SecondaryKept {
            seat: self.teams[usize::from(team)].seat,
            card: Some(card),
        });
    }

    /// MSN-7: an Attack action of `attack` type starts; kills it makes are
    /// logged with it (its range is set per target, [`Game::log_attack_range`]).
    pub(crate) fn begin_attack_log(&mut self, attack: AttackType) {
        self.sec.attacks += 1;
        self.sec.attack = Some((self.sec.attacks, attack, 0));
    }

    /// MSN-7: the Attack action being resolved now strikes the figure on
    /// `target` (an area or two-target attack strikes several, each at its
    /// own range).
    pub(crate) fn log_attack_range(&mut self, attacker: FigureId, target: Square) {
        let from = self.figures[attacker.index()].square();
        if let (Some(ctx), Some(from)) = (self.sec.attack.as_mut(), from) {
            ctx.2 = from.dist(target);
        }
    }

    /// MSN-7 kill log: `team` eliminated a figure of `kind`.
    pub(crate) fn note_kill(&mut self, team: Option<u8>, kind: CreatureKind) {
        if self.sec.first_blood.is_none() {
            self.sec.first_blood = Some(team);
        }
        let Some(team) = team else {
            return;
        };
        let ctx = self.sec.attack;
        if let Some(p) = self.sec.proof.get_mut(usize::from(team)) {
            p.kills.push(Kill {
                kind,
                attack: ctx.map(|c| c.1),
                dist: ctx.map(|c| c.2),
                action: ctx.map(|c| c.0),
            });
        }
    }

    /// MSN-7: a DT of `team` lost `amount` health.
    pub(crate) fn note_health_lost(&mut self, team: u8, amount: u8) {
        if let Some(p) = self.sec.proof.get_mut(usize::from(team)) {
            p.health_lost += u32::from(amount);
        }
    }

    /// MSN-7: `team` made a successful terminal hack (card 12).
    pub(crate) fn note_hack(&mut self, team: u8) {
        if let Some(p) = self.sec.proof.get_mut(usize::from(team)) {
            p.hacks += 1;
        }
    }

    /// FOR-2: `team` placed its token on a tile (card 18).
    pub(crate) fn note_marked(&mut self, team: u8) {
        if self.sec.vanguard.is_none()
            && self
                .tiles
                .iter()
                .filter(|t| t.marked.contains(&team))
                .count()
                >= 3
        {
            self.sec.vanguard = Some(team);
        }
    }

    /// MOV-14: `figure` left the board from `from` (card 4).
    pub(crate) fn note_exit(&mut self, figure: FigureId, from: Option<citadel_grid::Square>) {
        let Some(team) = self.figures[figure.index()].team() else {
            return;
        };
        let white = from.is_some_and(|s| self.rules.white.iter().any(|e| e.squares.contains(&s)));
        if white {
            let message = self.carries_message(figure);
            if let Some(p) = self.sec.proof.get_mut(usize::from(team)) {
                p.exited_white.push(figure);
                p.message_out |= message;
            }
        }
    }

    /// The tile whose centre is farthest from every white entrance (the
    /// largest distance to the nearest one), ties to the lowest tile id:
    /// the stand-in for a stairs tile a board lacks (CE card 4, classic
    /// CSM note).
    pub(crate) fn farthest_tile(&self) -> Option<usize> {
        let board = &self.rules.board;
        let tiles = board.tiles.len();
        let centre = |t: usize| {
            let (mut x, mut y, mut n) = (0.0_f64, 0.0_f64, 0.0_f64);
            for s in self.rules.tile_squares(t) {
                x += f64::from(s.x);
                y += f64::from(s.y);
                n += 1.0;
            }
            (x / n.max(1.0), y / n.max(1.0))
        };
        let entrances: Vec<(f64, f64)> = self
            .rules
            .white
            .iter()
            .map(|e| {
                let n = e.squares.len().max(1) as f64;
                let x: f64 = e.squares.iter().map(|s| f64::from(s.x)).sum();
                let y: f64 = e.squares.iter().map(|s| f64::from(s.y)).sum();
                (x / n, y / n)
            })
            .collect();
        let score = |t: usize| {
            let (cx, cy) = centre(t);
            entrances
                .iter()
                .map(|(ex, ey)| (cx - ex).powi(2) + (cy - ey).powi(2))
                .fold(f64::INFINITY, f64::min)
        };
        let mut best: Option<(usize, f64)> = None;
        for t in 0..tiles {
            let s = score(t);
            let better = match best {
                None => true,
                Some((b, bs)) => s > bs || (s == bs && board.tiles[t].id < board.tiles[b].id),
            };
            if better {
                best = Some((t, s));
            }
        }
        best.map(|(t, _)| t)
    }

    /// The secondary Special actions `figure` may take (for `legal()`).
    pub(crate) fn secondary_specials(&self, figure: FigureId) -> Vec<String> {
        let Some(rules) = self.secondary_rules() else {
            return Vec::new();
        };
        rules
            .specials
            .iter()
            .filter(|a| (rules.special_ok)(self, figure, a))
            .map(|a| a.to_string())
            .collect()
    }

    /// Is `action` a secondary Special action id of this ruleset?
    pub(crate) fn is_secondary_special(&self, action: &str) -> bool {
        self.secondary_rules()
            .is_some_and(|r| r.specials.contains(&action))
    }

    /// Check a secondary Special action (no change on error).
    pub(crate) fn check_secondary_special(
        &self,
        figure: FigureId,
        action: &str,
    ) -> Result<(), Rejection> {
        match self.secondary_rules() {
            Some(r) if (r.special_ok)(self, figure, action) => Ok(()),
            _ => Err(Rejection::SpecialNotAvailable),
        }
    }

    /// Record a checked secondary Special action.
    pub(crate) fn record_secondary_special(&mut self, figure: FigureId, action: &str) {
        if let Some(r) = self.secondary_rules() {
            (r.record_special)(self, figure, action);
        }
    }

    /// A team's turn began: the ruleset's cards that act at that moment.
    pub(crate) fn secondary_turn_begun(&mut self, team: u8) {
        if let (true, Some(r)) = (self.sec.dealt, self.secondary_rules()) {
            (r.turn_begun)(self, team);
        }
    }

    /// A team's turn ended: the ruleset's cards that look at that moment.
    pub(crate) fn secondary_turn_ended(&mut self, team: u8, events: &mut Vec<Event>) {
        if let (true, Some(r)) = (self.sec.dealt, self.secondary_rules()) {
            (r.turn_ended)(self, team, events);
        }
    }

    /// SCR-1 step 3 / PPC-4 / CSM-2: reveal and resolve every kept card,
    /// in team order, and give each its ruleset's reward.
    pub(crate) fn resolve_secondaries(&mut self, events: &mut Vec<Event>) {
        let Some(rules) = self.secondary_rules() else {
            return;
        };
        for t in 0..self.teams.len() as u8 {
            let Some(card) = self.sec.kept.get(usize::from(t)).copied().flatten() else {
                continue;
            };
            let Some(def) = self.rules.tables.secondary(card).cloned() else {
                continue;
            };
            let success = (rules.holds)(self, t, card);
            events.push(Event::SecondaryResolved {
                seat: self.teams[usize::from(t)].seat,
                card,
                success,
            });
            (rules.reward)(self, t, &def, success, events);
        }
    }

    /// The card `seat` holds, as that seat may see it (for views).
    pub(crate) fn secondary_seen_by(&self, team: u8, viewer_is_owner: bool) -> Option<u32> {
        let kept = self.sec.kept.get(usize::from(team)).copied().flatten();
        (viewer_is_owner || self.is_finished())
            .then_some(kept)
            .flatten()
    }

    /// Re-deal the secondary cards `keep` may not see (tests only; see
    /// [`Game::scramble_hidden`]).
    pub(crate) fn scramble_secondaries(&mut self, keep: Seat, dice: &mut dyn Dice) {
        let others: Vec<usize> = (0..self.teams.len())
            .filter(|&t| self.teams[t].seat != keep)
            .collect();
        let mut pool = std::mem::take(&mut self.sec.deck);
        let mut sizes = Vec::new();
        for &t in &others {
            let offers = self.sec.offers.get(t).map_or(0, Vec::len);
            let kept = self.sec.kept.get(t).copied().flatten();
            sizes.push((offers, kept.is_some()));
            if let Some(o) = self.sec.offers.get_mut(t) {
                pool.append(o);
            }
            pool.extend(kept);
        }
        shuffle_with(dice, &mut pool);
        for (&t, (offers, kept)) in others.iter().zip(sizes) {
            if let Some(o) = self.sec.offers.get_mut(t) {
                *o = pool.split_off(pool.len() - offers);
            }
            if kept {
                if let Some(k) = self.sec.kept.get_mut(t) {
                    *k = pool.pop();
                }
            }
        }
        self.sec.deck = pool;
    }
}
