//! Classic CDT (classic.md §12): the 1993 two-use Doomtrooper cards.
//!
//! Each team is dealt 2 cards (Capitol 3, CCO-1) from the 13-card deck
//! with the CE cards (SET-11's moment; the deck is the classic
//! ruleset's, `ruleset/classic.rs`). A card is played for one of its two
//! uses (CDT-1), with the targets the use names (CDT-2), at three
//! moments:
//!
//! - on the owner's own turn between actions ([`Command::PlayTwoUse`] in
//!   `legal()`),
//! - at the start of any other turn (a [`Decision::CardWindow`] for every
//!   other player holding a card, in team order),
//! - in the reaction window after an attack roll and before defense
//!   ([`Window::CardOwnAttack`], [`Window::CardDtHit`], by the suspension
//!   machinery of `game/reaction.rs`).
//!
//! Windows open on public facts only (the player holds a card; the roll
//! could matter), so asking reveals nothing about the hand. Lasting uses
//! become [`CardEffect`]s in `Effects::cards`, with their duration, so
//! every viewer sees them; CE games never hold these cards, so nothing
//! here runs for them.
//!
//! Every one of the 26 uses is built.

use crate::content::classic_tables::{ClassicDtCardDef, ClassicDtUse as U};
use crate::content::{AttackType, CreatureKind};
use crate::dice::{Dice, DieColor};
use crate::game::command::Command;
use crate::game::event::{DieRoll, Event, Place};
use crate::game::ids::{FigureId, Side};
use crate::game::reaction::Window;
use crate::game::rejection::Rejection;
use crate::game::state::{Decision, Game, Pending, Phase};
use citadel_grid::Square;
use serde::{Deserialize, Serialize};

/// How long a card's lasting effect holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Lasts {
    /// Until the end of the current round.
    Round,
    /// Until the end of the mission.
    Mission,
}

/// A lasting effect of a 1993 Doomtrooper card, in the view for everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CardEffect {
    /// The use played.
    pub card_use: U,
    /// The team whose player played it.
    pub by: u8,
    /// The chosen team, where the use names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub team: Option<u8>,
    /// The chosen figure, where the use names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub figure: Option<FigureId>,
    /// Its duration.
    pub lasts: Lasts,
    /// Combat Frenzy: the card's extra actions still unspent this round
    /// (lost at its end, README D44). Hurt Leg: 1 once the DT's first
    /// Move of this round has been made.
    #[serde(default, skip_serializing_if = "crate::game::view::is_zero")]
    #[cfg_attr(feature = "ts", ts(as = "Option<u8>", optional))]
    pub count: u8,
}

/// What a use names (CDT-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// Nothing: it acts for the player's own team.
    None,
    /// Any team still in the marker pool, own or other.
    AnyTeam,
    /// Any other team.
    OtherTeam,
    /// Any other team holding a card.
    OtherTeamWithCards,
    /// Another team with a DT on the board that can move.
    OtherTeamMovable,
    /// One of the player's own DTs, wounded and in play.
    OwnWoundedDt,
    /// One of the player's own DTs on the board.
    OwnDtOnBoard,
    /// Any DT in play (waiting or on the board), of any team.
    AnyDt,
    /// Any DT on the board, of any team.
    AnyDtOnBoard,
    /// A DL figure on the board.
    DlFigure,
    /// A sector holding a face-down force card and a side-adjacent one.
    SectorPair,
    /// An edge across a 1-wide corridor (Remote Controlled Door).
    CorridorEdge,
    /// Played only in its reaction window.
    Reaction,
}

fn target_of(u: U) -> Target {
    match u {
        U::CombatAura
        | U::CombatFrenzy
        | U::HeroicLuck
        | U::MovementBoost
        | U::MolecularPhasing
        | U::SpectralDisplacement => Target::None,
        U::LegionnaireFear | U::Necrofear | U::CombatNeurosis | U::CoordinatingError => {
            Target::AnyTeam
        }
        U::CombatReport => Target::OtherTeam,
        U::StealInitiative | U::LostInitiative => Target::OtherTeamWithCards,
        U::FalseOrders => Target::OtherTeamMovable,
        U::Medic | U::MedicineInjector => Target::OwnWoundedDt,
        U::LimitedTeleportation => Target::OwnDtOnBoard,
        U::HurtLeg | U::UncalibratedTargeter => Target::AnyDt,
        U::FaultyTeleportation => Target::AnyDtOnBoard,
        U::ControlDefenseSystem | U::WeakSpot | U::CommandingVoice => Target::DlFigure,
        U::CommandInterference => Target::SectorPair,
        U::DudRound => Target::Reaction,
        U::RemoteControlledDoor => Target::CorridorEdge,
    }
}

impl U {
    /// The 1993 reaction window this use answers, if any (CDT-1): Heroic
    /// Luck and Weak Spot after the player's own attack roll on a DL
    /// figure, Dud Round when a firearm attack would wound a DT. The other
    /// uses are played between actions and at the start of a turn only.
    pub fn reaction_window(self) -> Option<Window> {
        match self {
            U::HeroicLuck | U::WeakSpot => Some(Window::CardOwnAttack),
            U::DudRound => Some(Window::CardDtHit),
            _ => None,
        }
    }
}

impl Window {
    /// The use of a two-use card that answers this window, if any.
    pub(crate) fn fitting_use(self, def: &ClassicDtCardDef) -> Option<U> {
        [def.boon, def.sabotage]
            .into_iter()
            .find(|u| u.reaction_window() == Some(self))
    }

    /// A window of the 1993 cards (answered from `Team::cards`).
    pub(crate) fn is_two_use(self) -> bool {
        matches!(self, Window::CardOwnAttack | Window::CardDtHit)
    }
}

impl Game {
    /// Invariant (classic CDT-1): every two-use card is in exactly one
    /// place — a hand, the deck or the discards — once the deck exists.
    ///
    /// # Errors
    /// A description of the first card out of place.
    pub fn two_use_cards_conserved(&self) -> Result<(), String> {
        let Some(classic) = self.edition.classic() else {
            return Ok(());
        };
        let mut all: Vec<u32> = self.teams.iter().flat_map(|t| t.cards.clone()).collect();
        all.extend(&classic.two_use_deck);
        all.extend(&classic.two_use_discard);
        all.sort_unstable();
        let want: Vec<u32> = self.rules.two_use_cards.iter().map(|c| c.number).collect();
        let mut want_sorted = want;
        want_sorted.sort_unstable();
        if all.is_empty() || all == want_sorted {
            Ok(())
        } else {
            Err(format!("two-use cards out of place: {all:?}"))
        }
    }

    /// The definition of two-use card `number`.
    pub(crate) fn two_use_def(&self, number: u32) -> Option<&ClassicDtCardDef> {
        self.rules.two_use_cards.iter().find(|c| c.number == number)
    }

    /// CDT-1: the 1993 cards of `team`'s hand (by index) with a use that
    /// answers `window`.
    pub(crate) fn two_use_answers(&self, team: u8, window: Window) -> Vec<usize> {
        self.teams[usize::from(team)]
            .cards
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                self.two_use_def(**c)
                    .is_some_and(|d| window.fitting_use(d).is_some())
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// The lasting card effects of one use, whoever played them.
    fn card_effects(&self, card_use: U) -> impl Iterator<Item = &CardEffect> + '_ {
        self.effects
            .cards
            .iter()
            .filter(move |e| e.card_use == card_use)
    }

    /// Combat Aura (`by_dl`: the attacker is a DL figure) and Spectral
    /// Displacement: may no attack be made on `team`'s DTs?
    pub(crate) fn card_protects(&self, team: u8, by_dl: bool) -> bool {
        self.card_effects(U::SpectralDisplacement)
            .any(|e| e.by == team)
            || (by_dl && self.card_effects(U::CombatAura).any(|e| e.by == team))
    }

    /// Legionnaire Fear, Necrofear: may `team` not CC-attack `kind`?
    pub(crate) fn card_fear(&self, team: u8, kind: CreatureKind) -> bool {
        let u = match kind {
            CreatureKind::Legionnaire => U::LegionnaireFear,
            CreatureKind::Necromutant => U::Necrofear,
            _ => return false,
        };
        self.card_effects(u).any(|e| e.team == Some(team))
    }

    /// Heroic Luck: re-rolls `team`'s attacks get this round.
    pub(crate) fn card_rerolls(&self, team: u8) -> u8 {
        u8::from(self.card_effects(U::HeroicLuck).any(|e| e.by == team))
    }

    /// Weak Spot: AF reduction of `target` against `team`'s attacks.
    pub(crate) fn card_weak_spot(&self, team: u8, target: FigureId) -> u8 {
        u8::from(
            self.card_effects(U::WeakSpot)
                .any(|e| e.by == team && e.figure == Some(target)),
        )
    }

    /// Uncalibrated Targeter: does `figure` fire with dice two ranks down?
    pub(crate) fn card_uncalibrated(&self, figure: FigureId, attack: AttackType) -> bool {
        attack == AttackType::Firearm
            && self
                .card_effects(U::UncalibratedTargeter)
                .any(|e| e.figure == Some(figure))
    }

    /// Hurt Leg: squares the figure's Move now loses (its first Move of
    /// the round only).
    pub(crate) fn card_hurt_leg(&self, figure: FigureId) -> usize {
        self.card_effects(U::HurtLeg)
            .filter(|e| e.figure == Some(figure) && e.count == 0)
            .count()
    }

    /// Hurt Leg: `figure` has made a Move this round.
    pub(crate) fn note_card_move(&mut self, figure: FigureId) {
        for e in &mut self.effects.cards {
            if e.card_use == U::HurtLeg && e.figure == Some(figure) {
                e.count = 1;
            }
        }
    }

    /// Combat Neurosis: `team`'s DTs take at most 1 action this round and
    /// no extra actions.
    pub(crate) fn card_neurosis(&self, team: u8) -> bool {
        self.card_effects(U::CombatNeurosis)
            .any(|e| e.team == Some(team))
    }

    /// Combat Frenzy: actions of the card still in `team`'s pool.
    pub(crate) fn card_frenzy_left(&self, team: u8) -> u8 {
        self.card_effects(U::CombatFrenzy)
            .filter(|e| e.by == team)
            .map(|e| e.count)
            .sum()
    }

    /// An extra action of `team`'s pool was spent: the Combat Frenzy
    /// actions go first (they are lost at the end of the round).
    pub(crate) fn note_extra_action_spent(&mut self, team: u8) {
        if let Some(e) = self
            .effects
            .cards
            .iter_mut()
            .find(|e| e.card_use == U::CombatFrenzy && e.by == team && e.count > 0)
        {
            e.count -= 1;
        }
    }

    /// End of the round: round effects end; Hurt Leg counts again; Combat
    /// Frenzy's unspent actions leave the pool (README D44).
    pub(crate) fn end_round_card_effects(&mut self, events: &mut Vec<Event>) {
        let frenzy: Vec<(u8, u8)> = self
            .card_effects(U::CombatFrenzy)
            .map(|e| (e.by, e.count))
            .collect();
        for (team, left) in frenzy {
            if left > 0 {
                let t = &mut self.teams[usize::from(team)];
                t.extra_actions = t.extra_actions.saturating_sub(left);
                events.push(Event::ExtraActionPool {
                    team,
                    pool: t.extra_actions,
                });
            }
        }
        self.effects.cards.retain(|e| e.lasts == Lasts::Mission);
        for e in &mut self.effects.cards {
            e.count = 0;
        }
    }

    /// CDT-1 "at the start of any turn": every other player holding a card
    /// may play one now (`acting`: the team whose turn starts, if any).
    pub(crate) fn open_card_windows(&mut self, acting: Option<u8>) {
        for (i, t) in self.teams.iter().enumerate() {
            let team = i as u8;
            if Some(team) != acting && !t.cards.is_empty() {
                self.pending.push_back(Pending {
                    seat: t.seat,
                    decision: Decision::CardWindow { team },
                });
            }
        }
    }

    /// Every two-use play `team` may make now (CDT-1, CDT-2), cards in
    /// number order, boon before sabotage, targets in id order.
    pub(crate) fn two_use_plays(&self, team: u8) -> Vec<Command> {
        let mut cards = self.teams[usize::from(team)].cards.clone();
        cards.sort_unstable();
        cards.dedup();
        let mut out = Vec::new();
        for card in cards {
            if let Some(def) = self.two_use_def(card) {
                for u in [def.boon, def.sabotage] {
                    self.plays_of(team, card, u, &mut out);
                }
            }
        }
        out
    }

    /// The plays of one use of one card.
    fn plays_of(&self, team: u8, card: u32, card_use: U, out: &mut Vec<Command>) {
        let play = |corporation, figure, tile, to_tile| Command::PlayTwoUse {
            card,
            card_use,
            corporation,
            figure,
            tile,
            to_tile,
            squares: None,
        };
        let corp = |t: usize| Some(self.teams[t].corporation);
        let n = self.teams.len();
        match target_of(card_use) {
            Target::None => out.push(play(None, None, None, None)),
            Target::AnyTeam => {
                for t in (0..n).filter(|&t| self.team_in_pool(t as u8)) {
                    out.push(play(corp(t), None, None, None));
                }
            }
            Target::OtherTeam => {
                for t in (0..n).filter(|&t| t != usize::from(team)) {
                    out.push(play(corp(t), None, None, None));
                }
            }
            Target::OtherTeamWithCards => {
                for t in
                    (0..n).filter(|&t| t != usize::from(team) && !self.teams[t].cards.is_empty())
                {
                    out.push(play(corp(t), None, None, None));
                }
            }
            Target::OtherTeamMovable => {
                for t in (0..n).filter(|&t| t != usize::from(team)) {
                    if !self.movable_dts(t as u8).is_empty() {
                        out.push(play(corp(t), None, None, None));
                    }
                }
            }
            Target::OwnWoundedDt => {
                for f in self.teams[usize::from(team)].figures {
                    let fig = &self.figures[f.index()];
                    if fig.in_play() && fig.health < 5 {
                        out.push(play(None, Some(f), None, None));
                    }
                }
            }
            Target::OwnDtOnBoard => {
                for f in self.teams[usize::from(team)].figures {
                    if self.has_card_square(card_use, f) {
                        out.push(play(None, Some(f), None, None));
                    }
                }
            }
            Target::AnyDt | Target::AnyDtOnBoard => {
                for f in &self.figures {
                    let ok = f.team().is_some()
                        && f.in_play()
                        && (target_of(card_use) == Target::AnyDt
                            || self.has_card_square(card_use, f.id));
                    if ok {
                        out.push(play(None, Some(f.id), None, None));
                    }
                }
            }
            Target::DlFigure => {
                for f in &self.figures {
                    if f.creature().is_some() && f.square().is_some() {
                        out.push(play(None, Some(f.id), None, None));
                    }
                }
            }
            Target::SectorPair => {
                for (from, state) in self.tiles.iter().enumerate() {
                    if state.face_down.is_empty() {
                        continue;
                    }
                    for &to in self.rules.side_adjacent_tiles(from) {
                        out.push(play(None, None, Some(from), Some(to)));
                    }
                }
            }
            Target::CorridorEdge => {
                for squares in self.corridor_edges() {
                    out.push(Command::PlayTwoUse {
                        card,
                        card_use,
                        corporation: None,
                        figure: None,
                        tile: None,
                        to_tile: None,
                        squares: Some(squares),
                    });
                }
            }
            Target::Reaction => {}
        }
    }

    /// Remote Controlled Door: the edges between two passable squares
    /// whose two collinear neighbouring edges are walls (a 1-wide
    /// corridor), with no wall, mission door or card door on them yet;
    /// each as its two squares, west or north first, in (y, x) order.
    pub(crate) fn corridor_edges(&self) -> Vec<[Square; 2]> {
        // With no door on the board (no 1993 mission has one) and no card
        // door placed yet, the walls are the board's own: the answer is
        // the board's, worked out once.
        if self.rules.doors.is_empty() && self.card_doors.is_empty() {
            return self
                .rules
                .corridor_memo
                .get_or_init(|| self.corridor_edges_now())
                .clone();
        }
        self.corridor_edges_now()
    }

    fn corridor_edges_now(&self) -> Vec<[Square; 2]> {
        let b = &self.rules.board;
        let wall = |p: Square, q: Square| {
            citadel_grid::Edge::between(p, q).is_some_and(|e| self.walls.is_static_wall(e))
        };
        let mut out = Vec::new();
        for a in b.squares() {
            if !b.passable(a) {
                continue;
            }
            for (dx, dy) in [(1, 0), (0, 1)] {
                let c = Square::new(a.x + dx, a.y + dy);
                let Some(e) = citadel_grid::Edge::between(a, c) else {
                    continue;
                };
                if !b.on_board(c)
                    || !b.passable(c)
                    || self.walls.is_wall(e)
                    || self.door_of_edge(e).is_some()
                    || self.is_card_door(e)
                {
                    continue;
                }
                // The collinear neighbours: the same crossing one square
                // to either side, across the step.
                let side = |k: i32| {
                    let (sx, sy) = (dy * k, dx * k);
                    wall(
                        Square::new(a.x + sx, a.y + sy),
                        Square::new(c.x + sx, c.y + sy),
                    )
                };
                if side(-1) && side(1) && self.reachable_around(a, c) {
                    out.push([a, c]);
                }
            }
        }
        out.sort_by_key(|[a, _]| (a.y, a.x));
        out
    }

    /// Can `a` still reach `c` (two side-adjacent squares) without the
    /// step between them, by orthogonal steps over passable squares (walls,
    /// closed doors and card doors stop it; a diagonal step may not pass a
    /// door's corner, so only orthogonal steps count)? *Decision (CDT,
    /// Remote Controlled Door): the rules are silent on a door that cuts
    /// the board in two; only a 3-hit close combat attack opens it, which a
    /// rank-1 team or a Legionnaire never rolls, so such a door could shut
    /// a figure away for good and leave a mission without a time limit
    /// unable to end. It goes only where the board stays connected (MAP-17,
    /// read square by square).*
    fn reachable_around(&self, a: Square, c: Square) -> bool {
        let b = &self.rules.board;
        let mut seen = vec![false; (b.width() * b.height()).max(0) as usize];
        let mut queue = std::collections::VecDeque::from([a]);
        if let Some(i) = b.index(a) {
            seen[i] = true;
        }
        while let Some(s) = queue.pop_front() {
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let n = Square::new(s.x + dx, s.y + dy);
                if (s, n) == (a, c) || !b.passable(n) {
                    continue;
                }
                if citadel_grid::Edge::between(s, n).is_none_or(|e| self.walls.is_wall(e)) {
                    continue;
                }
                if n == c {
                    return true;
                }
                if let Some(i) = b.index(n) {
                    if !seen[i] {
                        seen[i] = true;
                        queue.push_back(n);
                    }
                }
            }
        }
        false
    }

    /// Is `e` the edge of a Remote Controlled Door?
    pub(crate) fn is_card_door(&self, e: citadel_grid::Edge) -> bool {
        self.card_doors
            .iter()
            .any(|[a, b]| citadel_grid::Edge::between(*a, *b) == Some(e))
    }

    /// Check a close combat attack on a Remote Controlled Door: the
    /// attacker may act, stands on one of its squares and has close combat
    /// dice. Returns the pool and re-rolls.
    pub(crate) fn check_attack_door(
        &self,
        figure: FigureId,
        squares: [Square; 2],
    ) -> Result<(crate::game::actions::Cost, Vec<DieColor>, u8), Rejection> {
        let cost = self.check_actor(figure, true, crate::game::actions::Cost::Action)?;
        if !self.card_doors.contains(&squares) {
            return Err(Rejection::NoSuchToken);
        }
        let f = &self.figures[figure.index()];
        if !f.square().is_some_and(|s| squares.contains(&s)) {
            return Err(Rejection::NotAdjacent);
        }
        let (pool, rerolls) = match f.kind {
            crate::game::state::FigureKind::Doomtrooper { team, specialty } => self.dt_pool(
                figure,
                team,
                specialty,
                AttackType::CloseCombat,
                false,
                false,
            )?,
            crate::game::state::FigureKind::Creature { .. } => {
                let stats = self.creature_stats(figure).ok_or(Rejection::NoDice)?;
                (stats.cc.clone(), 0)
            }
        };
        if pool.is_empty() {
            return Err(Rejection::NoDice);
        }
        Ok((cost, pool, rerolls))
    }

    /// A close combat Attack action on a Remote Controlled Door: 3 or more
    /// hits destroy it (classic.md CDT table).
    pub(crate) fn do_attack_door(
        &mut self,
        figure: FigureId,
        squares: [Square; 2],
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        let (cost, pool, rerolls) = self.check_attack_door(figure, squares)?;
        self.begin_action(figure, cost, events);
        let (rolls, hits) = self.roll_pool(&pool, rerolls, dice);
        events.push(Event::CardDoorAttacked {
            figure,
            squares,
            dice: rolls,
            hits,
        });
        if hits >= 3 {
            self.card_doors.retain(|d| *d != squares);
            self.set_door_overlay();
            events.push(Event::CardDoorDestroyed { squares });
        }
        let f = &mut self.figures[figure.index()];
        f.turn.last = Some(crate::game::state::LastAction::Other);
        f.turn.charge.clear();
        self.end_action(figure, events);
        Ok(())
    }

    /// The squares a teleporting use may put `figure` on: empty, passable,
    /// token-free, where the figure may end (Limited Teleportation: a
    /// side-adjacent sector; Faulty Teleportation: any other sector), in
    /// sector order, then square order.
    pub(crate) fn card_squares(&self, card_use: U, figure: FigureId) -> Vec<Square> {
        self.card_squares_iter(card_use, figure).collect()
    }

    /// Is [`Self::card_squares`] not empty? (The listing of card plays asks
    /// this for every DT on every call: it stops at the first square.)
    fn has_card_square(&self, card_use: U, figure: FigureId) -> bool {
        self.card_squares_iter(card_use, figure).next().is_some()
    }

    /// The squares of [`Self::card_squares`], one by one (empty unless
    /// `figure` is a DT on the board and `card_use` teleports).
    fn card_squares_iter(
        &self,
        card_use: U,
        figure: FigureId,
    ) -> impl Iterator<Item = Square> + '_ {
        let f = &self.figures[figure.index()];
        let from = f
            .square()
            .filter(|_| f.team().is_some())
            .and_then(|s| self.rules.board.tile_of(s));
        let tiles: Vec<usize> = match (from, card_use) {
            (Some(from), U::LimitedTeleportation) => self.rules.side_adjacent_tiles(from).to_vec(),
            (Some(from), U::FaultyTeleportation) => (0..self.rules.board.tiles.len())
                .filter(|&t| t != from)
                .collect(),
            _ => Vec::new(),
        };
        tiles
            .into_iter()
            .flat_map(|t| self.rules.tile_squares(t))
            .filter(move |s| self.card_square_ok(figure, *s))
    }

    fn card_square_ok(&self, figure: FigureId, s: Square) -> bool {
        self.rules.board.passable(s)
            && self.figure_at(s).is_none()
            && self.token_at(s).is_none()
            && self.may_end_on(figure, s)
    }

    /// `team`'s DTs on the board that have somewhere to move.
    fn movable_dts(&self, team: u8) -> Vec<FigureId> {
        self.teams[usize::from(team)]
            .figures
            .into_iter()
            .filter(|f| self.figures[f.index()].square().is_some() && self.can_move(*f))
            .collect()
    }

    /// Check a two-use play by `team` without changing anything.
    pub(crate) fn check_two_use(&self, team: u8, cmd: &Command) -> Result<(), Rejection> {
        let Command::PlayTwoUse { card, card_use, .. } = cmd else {
            return Err(Rejection::WrongPhase);
        };
        if !self.teams[usize::from(team)].cards.contains(card) {
            return Err(Rejection::NoSuchCard);
        }
        let def = self.two_use_def(*card).ok_or(Rejection::NoSuchCard)?;
        if def.boon != *card_use && def.sabotage != *card_use {
            return Err(Rejection::CardUseNotOnCard);
        }
        if target_of(*card_use) == Target::Reaction {
            return Err(Rejection::CardUseOnlyAsReaction);
        }
        let mut plays = Vec::new();
        self.plays_of(team, *card, *card_use, &mut plays);
        if plays.contains(cmd) {
            Ok(())
        } else {
            Err(Rejection::CardTargetInvalid)
        }
    }

    /// Play a two-use card (checked first; a rejection changes nothing).
    pub(crate) fn do_play_two_use(
        &mut self,
        team: u8,
        cmd: &Command,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        self.check_two_use(team, cmd)?;
        let Command::PlayTwoUse {
            card,
            card_use,
            corporation,
            figure,
            tile,
            to_tile,
            squares,
        } = cmd.clone()
        else {
            return Err(Rejection::WrongPhase);
        };
        self.clear_overrun();
        let t = &mut self.teams[usize::from(team)];
        if let Some(i) = t.cards.iter().position(|c| *c == card) {
            t.cards.remove(i);
        }
        let seat = t.seat;
        self.edition.rules_mut().discard_two_use(card);
        events.push(Event::TwoUsePlayed {
            seat,
            card,
            card_use,
            corporation,
            figure,
        });
        let chosen = corporation.and_then(|c| {
            self.teams
                .iter()
                .position(|t| t.corporation == c)
                .map(|i| i as u8)
        });
        self.resolve_two_use(
            team,
            card_use,
            chosen,
            figure,
            (tile, to_tile, squares),
            dice,
            events,
        );
        Ok(())
    }

    /// A lasting effect.
    fn add_card_effect(
        &mut self,
        card_use: U,
        by: u8,
        team: Option<u8>,
        figure: Option<FigureId>,
        lasts: Lasts,
    ) {
        self.effects.cards.push(CardEffect {
            card_use,
            by,
            team,
            figure,
            lasts,
            count: 0,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn resolve_two_use(
        &mut self,
        team: u8,
        card_use: U,
        chosen: Option<u8>,
        figure: Option<FigureId>,
        (tile, to_tile, squares): (Option<usize>, Option<usize>, Option<[Square; 2]>),
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        match card_use {
            U::CombatAura | U::SpectralDisplacement | U::HeroicLuck => {
                self.add_card_effect(card_use, team, None, None, Lasts::Round);
            }
            U::MolecularPhasing => {
                // The Molecular Phaser's effect (core MOV-16), for the round.
                if !self.effects.phasing_teams.contains(&team) {
                    self.effects.phasing_teams.push(team);
                }
                self.add_card_effect(card_use, team, None, None, Lasts::Round);
            }
            U::LegionnaireFear | U::Necrofear | U::HurtLeg | U::UncalibratedTargeter => {
                self.add_card_effect(card_use, team, chosen, figure, Lasts::Mission);
            }
            U::WeakSpot => self.add_card_effect(card_use, team, None, figure, Lasts::Round),
            U::CombatNeurosis => {
                let Some(victim) = chosen else { return };
                self.add_card_effect(card_use, team, Some(victim), None, Lasts::Round);
                // In the middle of the victim's turn: no action beyond the
                // first (one already taken ends its DT's actions).
                if self.phase == (Phase::Corporation { team: victim }) {
                    for f in self.teams[usize::from(victim)].figures {
                        let turn = &mut self.figures[f.index()].turn;
                        turn.allowed = turn.allowed.min(turn.used.max(1));
                    }
                }
            }
            U::CombatFrenzy => {
                // README D44: +2 to the pool, above the cap, for this round.
                let t = &mut self.teams[usize::from(team)];
                t.extra_actions = t.extra_actions.saturating_add(2);
                let pool = t.extra_actions;
                events.push(Event::ExtraActionPool { team, pool });
                self.add_card_effect(card_use, team, None, None, Lasts::Round);
                if let Some(e) = self.effects.cards.last_mut() {
                    e.count = 2;
                }
            }
            U::CoordinatingError => {
                let Some(victim) = chosen else { return };
                let t = &mut self.teams[usize::from(victim)];
                t.extra_actions = t.extra_actions.saturating_sub(2);
                let pool = t.extra_actions;
                events.push(Event::ExtraActionPool { team: victim, pool });
                for e in &mut self.effects.cards {
                    if e.card_use == U::CombatFrenzy && e.by == victim {
                        e.count = e.count.min(pool);
                    }
                }
            }
            U::CombatReport => {
                // README D43: the taker gains what the victim loses.
                let Some(victim) = chosen else { return };
                let before = self.teams[usize::from(victim)].pp;
                self.award(Side::Team(victim), -5, "Combat Report", events);
                let lost = before - self.teams[usize::from(victim)].pp;
                self.award(Side::Team(team), lost, "Combat Report", events);
            }
            U::StealInitiative | U::LostInitiative => {
                let Some(victim) = chosen else { return };
                let v = &mut self.teams[usize::from(victim)];
                if v.cards.is_empty() {
                    return;
                }
                // CONV-2: uniform over the cards sorted by number, so the
                // draw depends only on the dice.
                v.cards.sort_unstable();
                let i = dice.below(v.cards.len() as u32) as usize;
                let card = v.cards.remove(i);
                let from = v.seat;
                if card_use == U::StealInitiative {
                    let to = self.teams[usize::from(team)].seat;
                    self.teams[usize::from(team)].cards.push(card);
                    events.push(Event::TwoUseTaken {
                        from,
                        to,
                        card: Some(card),
                    });
                } else {
                    self.edition.rules_mut().discard_two_use(card);
                    events.push(Event::TwoUseDiscarded { seat: from, card });
                }
            }
            U::ControlDefenseSystem => {
                if let Some(target) = figure {
                    self.fixed_attack(target, &[DieColor::Black; 3], Some(team), dice, events);
                }
            }
            U::Medic | U::MedicineInjector => {
                if let Some(f) = figure {
                    self.heal(f, 2, events);
                }
            }
            U::LimitedTeleportation | U::FaultyTeleportation => {
                if let Some(figure) = figure {
                    self.pending.push_front(Pending {
                        seat: self.teams[usize::from(team)].seat,
                        decision: Decision::CardSquare {
                            team,
                            card_use,
                            figure,
                        },
                    });
                }
            }
            U::MovementBoost => {
                let figures = self.movable_dts(team);
                let left = figures.len() as u8;
                self.ask_card_moves(team, card_use, figures, left);
            }
            U::FalseOrders => {
                let Some(victim) = chosen else { return };
                let figures = self.movable_dts(victim);
                self.ask_card_moves(team, card_use, figures, 2);
            }
            U::CommandInterference => {
                let (Some(from), Some(to)) = (tile, to_tile) else {
                    return;
                };
                let cards = &mut self.tiles[from].face_down;
                if cards.is_empty() {
                    return;
                }
                cards.sort_unstable();
                let i = dice.below(cards.len() as u32) as usize;
                let card = cards.remove(i);
                events.push(Event::ForceCardMoved { from, to });
                let dt_there = self.figures.iter().any(|f| {
                    f.team().is_some()
                        && f.square()
                            .is_some_and(|s| self.rules.board.tile_of(s) == Some(to))
                });
                if dt_there {
                    self.reveal_card(to, card, events);
                } else {
                    self.tiles[to].face_down.push(card);
                }
            }
            U::CommandingVoice => {
                // "Take control now: 2 actions" (asked at once, CONV-8).
                if let Some(figure) = figure {
                    self.ask_control(team, figure, 2);
                }
            }
            U::RemoteControlledDoor => {
                if let Some(squares) = squares {
                    self.card_doors.push(squares);
                    self.set_door_overlay();
                    events.push(Event::CardDoorPlaced { squares });
                }
            }
            U::DudRound => {}
        }
    }

    fn ask_control(&mut self, team: u8, figure: FigureId, left: u8) {
        if left == 0 || self.figures[figure.index()].square().is_none() {
            return;
        }
        self.pending.push_front(Pending {
            seat: self.teams[usize::from(team)].seat,
            decision: Decision::CardControl { team, figure, left },
        });
    }

    /// Commanding Voice: an attack of the controlled DL figure `attacker`
    /// on another DL figure (CC adjacent, firearms in the DL's range with
    /// line of sight; core ATK-3..6), with the creature's own dice against
    /// the target's AF. Returns the pool and the target's AF.
    pub(crate) fn check_controlled_attack(
        &self,
        attacker: FigureId,
        target: FigureId,
        attack: AttackType,
    ) -> Result<(Vec<DieColor>, u8), Rejection> {
        let t = self
            .figures
            .get(target.index())
            .ok_or(Rejection::NoSuchFigure)?;
        let a = &self.figures[attacker.index()];
        if target == attacker || t.creature().is_none() {
            return Err(Rejection::InvalidChoice);
        }
        let (Some(from), Some(to)) = (a.square(), t.square()) else {
            return Err(Rejection::FigureNotOnBoard);
        };
        let board = &self.rules.board;
        let stats = self.creature_stats(attacker).ok_or(Rejection::NoDice)?;
        let mut dv = self.creature_stats(target).map_or(0, |s| s.dv);
        let pool = match attack {
            AttackType::CloseCombat => {
                if !self.walls.adjacent(board, from, to) {
                    return Err(Rejection::NotAdjacent);
                }
                stats.cc.clone()
            }
            AttackType::Firearm => {
                let (min, max) = self.hooks().dl_firearm_range;
                let dist = from.dist(to);
                if dist < min.max(2) {
                    return Err(Rejection::TooClose);
                }
                if dist > max {
                    return Err(Rejection::OutOfRange);
                }
                match citadel_grid::line_of_sight(board, &self.walls, self, from, to) {
                    citadel_grid::Sight::Blocked => return Err(Rejection::NoLineOfSight),
                    citadel_grid::Sight::Clear { cover } => {
                        dv += u8::from(cover && self.hooks().cover);
                    }
                }
                stats.fa.clone()
            }
            AttackType::Tech => Vec::new(),
        };
        if pool.is_empty() {
            return Err(Rejection::NoDice);
        }
        Ok((pool, dv))
    }

    fn ask_card_moves(&mut self, team: u8, card_use: U, figures: Vec<FigureId>, left: u8) {
        if figures.is_empty() || left == 0 {
            return;
        }
        self.pending.push_front(Pending {
            seat: self.teams[usize::from(team)].seat,
            decision: Decision::CardMove {
                team,
                card_use,
                figures,
                left,
            },
        });
    }

    /// Options of the card decisions: pass first (CONV-8 declines every
    /// "may"), then the plays, squares or moves.
    pub(crate) fn card_decision_options(&self, d: &Decision) -> Vec<Command> {
        match d {
            Decision::CardWindow { team } => std::iter::once(Command::PassCard)
                .chain(self.two_use_plays(*team))
                .collect(),
            Decision::CardSquare {
                card_use, figure, ..
            } => self
                .card_squares(*card_use, *figure)
                .into_iter()
                .map(|square| Command::ChooseSquare { square })
                .collect(),
            Decision::CardControl { figure, .. } => {
                let figure = *figure;
                let mut v = vec![Command::PassCard];
                if self.figures[figure.index()].square().is_none() {
                    return v;
                }
                for path in self.reachable(figure) {
                    v.push(Command::Move { figure, path });
                }
                for t in &self.figures {
                    for attack in [AttackType::CloseCombat, AttackType::Firearm] {
                        if t.square().is_some()
                            && self.check_controlled_attack(figure, t.id, attack).is_ok()
                        {
                            v.push(Command::Attack {
                                figure,
                                target: t.id,
                                attack,
                                barb_die: None,
                            });
                        }
                    }
                }
                v
            }
            Decision::CardMove { figures, .. } => {
                let mut v = vec![Command::PassCard];
                for &figure in figures {
                    if self.figures[figure.index()].square().is_some() {
                        for path in self.reachable(figure) {
                            v.push(Command::Move { figure, path });
                        }
                    }
                }
                v
            }
            _ => Vec::new(),
        }
    }

    /// A card's Move: any legal path of a listed DT (like an ordinary
    /// Move, not only the listed shortest one). `None`: not a card move.
    pub(crate) fn check_card_move(
        &self,
        d: &Decision,
        cmd: &Command,
    ) -> Option<Result<(), Rejection>> {
        if let (Decision::CardControl { figure: f, .. }, Command::Move { figure, path }) = (d, cmd)
        {
            if f != figure {
                return Some(Err(Rejection::InvalidChoice));
            }
            return Some(self.check_path(*figure, path).map(|_| ()));
        }
        let (Decision::CardMove { figures, .. }, Command::Move { figure, path }) = (d, cmd) else {
            return None;
        };
        if !figures.contains(figure) || self.figures[figure.index()].square().is_none() {
            return Some(Err(Rejection::InvalidChoice));
        }
        Some(self.check_path(*figure, path).map(|_| ()))
    }

    /// Apply a checked answer to a card decision.
    pub(crate) fn answer_card_decision(
        &mut self,
        p: Pending,
        cmd: Command,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        match (p.decision, cmd) {
            (Decision::CardWindow { team }, cmd @ Command::PlayTwoUse { .. }) => {
                // The window stays open for another card, after what this
                // one asks at once (its decisions go in front of it).
                let window = Decision::CardWindow { team };
                self.pending.push_front(Pending {
                    seat: p.seat,
                    decision: window.clone(),
                });
                let played = self.do_play_two_use(team, &cmd, dice, events).is_ok();
                if !played || self.teams[usize::from(team)].cards.is_empty() {
                    if let Some(i) = self.pending.iter().position(|q| q.decision == window) {
                        self.pending.remove(i);
                    }
                }
            }
            (
                Decision::CardSquare {
                    card_use, figure, ..
                },
                Command::ChooseSquare { square },
            ) => {
                self.set_place(figure, Place::Board { square });
                events.push(Event::Relocated { figure, to: square });
                if card_use == U::LimitedTeleportation {
                    // "This counts as ending a move there" (CFC-4).
                    self.force_reveal_on_entry(figure, square, dice, events);
                }
            }
            (Decision::CardControl { team, figure, left }, Command::Move { path, .. }) => {
                let Ok(targets) = self.check_path(figure, &path) else {
                    return;
                };
                self.execute_move(figure, &path, &targets, dice, events);
                self.ask_control(team, figure, left.saturating_sub(1));
            }
            (
                Decision::CardControl { team, figure, left },
                Command::Attack { target, attack, .. },
            ) => {
                let Ok((pool, dv)) = self.check_controlled_attack(figure, target, attack) else {
                    return;
                };
                let (rolls, hits) = self.roll_pool(&pool, 0, dice);
                events.push(Event::AttackRolled {
                    attacker: Some(figure),
                    target,
                    attack: Some(attack),
                    dice: rolls,
                    hits,
                });
                // "Kills score for you": the player's team gets the credit.
                self.apply_hits(target, hits, dv, false, Some(team), dice, events);
                self.ask_control(team, figure, left.saturating_sub(1));
            }
            (
                Decision::CardMove {
                    team,
                    card_use,
                    mut figures,
                    left,
                },
                Command::Move { figure, path },
            ) => {
                let Ok(targets) = self.check_path(figure, &path) else {
                    return;
                };
                self.execute_move(figure, &path, &targets, dice, events);
                self.note_card_move(figure);
                if card_use == U::MovementBoost {
                    // One free Move for each DT.
                    figures.retain(|f| *f != figure);
                }
                figures.retain(|f| self.figures[f.index()].square().is_some() && self.can_move(*f));
                self.ask_card_moves(team, card_use, figures, left.saturating_sub(1));
            }
            _ => {}
        }
    }

    /// A reaction window of the 1993 cards for `team` (CDT-1: after an
    /// attack roll, before defense). Returns the use played, if any; may
    /// instead mark the run as waiting for the player. The card leaves
    /// the hand here.
    pub(crate) fn card_window(
        &mut self,
        team: u8,
        figure: FigureId,
        window: Window,
        roll: &[DieRoll],
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Option<U> {
        if self.teams[usize::from(team)].cards.is_empty() {
            return None;
        }
        let answer = self.reaction_answer(team, figure, window, roll, dice)?;
        let t = &self.teams[usize::from(team)];
        let card = *t.cards.get(answer?)?;
        let card_use = self.two_use_def(card)?.clone();
        let card_use = window.fitting_use(&card_use)?;
        let seat = t.seat;
        let t = &mut self.teams[usize::from(team)];
        t.cards.retain(|c| *c != card);
        self.edition.rules_mut().discard_two_use(card);
        events.push(Event::TwoUsePlayed {
            seat,
            card,
            card_use,
            corporation: None,
            figure: Some(figure),
        });
        Some(card_use)
    }

    /// The 1993 windows in an Attack action: the attacker's player after
    /// its roll on a DL figure (Heroic Luck, Weak Spot), and every player
    /// when a firearm attack may wound a DT (Dud Round). Returns whether
    /// the attack is cancelled (Dud Round); `hits` and `dv` change for
    /// Heroic Luck and Weak Spot.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn two_use_attack_windows(
        &mut self,
        attacker: FigureId,
        target: FigureId,
        attack: AttackType,
        rolls: &mut Vec<DieRoll>,
        hits: &mut u8,
        dv: &mut u8,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> bool {
        let credit = self.figures[attacker.index()].team();
        let target_dt = self.figures[target.index()].team().is_some();
        if let (Some(team), false) = (credit, target_dt) {
            // The roll can matter: it does not already beat the AF.
            if *hits <= *dv {
                match self.card_window(team, attacker, Window::CardOwnAttack, rolls, dice, events) {
                    Some(U::HeroicLuck) => {
                        self.add_card_effect(U::HeroicLuck, team, None, None, Lasts::Round);
                        *hits = self.reroll_failed(rolls, 1, dice);
                    }
                    Some(U::WeakSpot) => {
                        self.add_card_effect(U::WeakSpot, team, None, Some(target), Lasts::Round);
                        *dv = dv.saturating_sub(1);
                    }
                    _ => {}
                }
            }
        }
        if target_dt && attack == AttackType::Firearm && *hits > *dv {
            for team in 0..self.teams.len() as u8 {
                if self.card_window(team, target, Window::CardDtHit, rolls, dice, events)
                    == Some(U::DudRound)
                {
                    return true;
                }
            }
        }
        false
    }
}
