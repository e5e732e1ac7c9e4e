//! The ruleset seam: what an edition decides that the shared core does not.
//!
//! The core of [`Game`](super::Game) — figures, movement, attacks, line of
//! sight, force cards, the decision queue, scoring — is the same for every
//! ruleset. What differs between editions lives behind [`EditionRules`]:
//! how the next side to act in a round is chosen (CE: markers drawn at
//! random, TRN-3), the event deck (EVT), door cards (DOR-2) and Doomtrooper
//! cards (DTC-CE-2). Each ruleset keeps its own state in one variant of
//! [`EditionState`], in the manner of shakmaty's `VariantPosition`: the game
//! holds the enum, the enum hands out the trait object, and no core file
//! asks which edition it is playing.
//!
//! The hooks of core CONV-6 that are plain values (base move, blocking,
//! corporation abilities, how force cards are dealt, ...) are one
//! [`hooks::Hooks`] table per ruleset, read by the core through
//! [`RulesetId::hooks`]; how single cards work in an edition is its
//! [`cards::CardRules`], read through [`RulesetId::cards`]. Both are
//! written in the edition's folder (`game/ce/`, `game/classic/`), with
//! its state and every file that serves that edition alone.
//!
//! Three rulesets exist: [`RulesetId::Ce`], the Collectors Edition,
//! [`RulesetId::Classic`], the 1993 edition, and [`RulesetId::Skirmish`], a
//! minimal ruleset that exists to prove the seam (tests use it; the server
//! does not offer it). Adding a ruleset means a new [`RulesetId`] variant,
//! a folder beside `game/ce/` and `game/classic/` with its hooks table, its
//! card rules and a state type implementing [`EditionRules`], and that
//! state's arm in [`EditionState`] — see docs/ARCHITECTURE.md.

pub(crate) mod cards;
pub(crate) mod hooks;
mod skirmish;

// The 1993 secondary missions keep their path from before the editions
// had folders (`game::ruleset::classic_secondary`), for other crates.
pub use super::classic::secondary as classic_secondary;

pub(crate) use super::ce::CeState;
pub(crate) use super::classic::ClassicState;
pub(crate) use hooks::Hooks;
pub(crate) use skirmish::SkirmishState;

use super::ids::Side;
use crate::content::tables::{CeTables, DoorCardKind, DtCardKind};
use crate::content::{Edition, MissionDef};
use crate::dice::Dice;
use serde::{Deserialize, Serialize};

/// Which rules a game is played by. A stored [`Setup`](super::Setup) without
/// the field is a Collectors Edition game, so records made before rulesets
/// existed still load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum RulesetId {
    /// The Collectors Edition (ce.md).
    #[default]
    Ce,
    /// A minimal ruleset over the CE board and tables: a fixed turn order
    /// (the teams in team order, then the Dark Legion), no event cards, no
    /// door cards, no Doomtrooper cards; the mission ends after its rounds.
    /// It exists to show that the core runs without the CE parts.
    Skirmish,
    /// The 1993 original edition (classic.md), on the classic tiles and
    /// tables.
    Classic,
}

impl RulesetId {
    /// The ruleset's id as stored and sent (`ce`, `skirmish`).
    pub fn id(self) -> &'static str {
        match self {
            RulesetId::Ce => "ce",
            RulesetId::Skirmish => "skirmish",
            RulesetId::Classic => "classic",
        }
    }

    /// The edition whose content (missions, tiles, tables) the ruleset
    /// plays on.
    pub fn content_edition(self) -> Edition {
        match self {
            RulesetId::Ce | RulesetId::Skirmish => Edition::Ce,
            RulesetId::Classic => Edition::Classic,
        }
    }

    /// The ruleset that plays missions of `edition` by default.
    pub fn for_edition(edition: Edition) -> RulesetId {
        match edition {
            Edition::Ce => RulesetId::Ce,
            Edition::Classic => RulesetId::Classic,
        }
    }

    /// The value hooks of the ruleset (core CONV-6).
    pub(crate) fn hooks(self) -> &'static Hooks {
        match self {
            RulesetId::Ce | RulesetId::Skirmish => &super::ce::HOOKS,
            RulesetId::Classic => &super::classic::HOOKS,
        }
    }

    /// How the ruleset reads the cards both editions print.
    pub(crate) fn cards(self) -> &'static cards::CardRules {
        match self {
            RulesetId::Ce | RulesetId::Skirmish => &super::ce::CARDS,
            RulesetId::Classic => &super::classic::CARDS,
        }
    }
}

/// An event deck (EVT-1): the cards still to draw (hidden order, top at
/// the end), the one in force this Dark Legion turn, and those played.
/// Flattened into its ruleset's state, so the serialized keys are those of
/// the state itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct EventDeck {
    /// The event deck; its top is the end (hidden order).
    pub event_deck: Vec<u32>,
    /// Event cards played.
    pub event_discard: Vec<u32>,
    /// The event of the current DL turn.
    pub current_event: Option<u32>,
}

impl EventDeck {
    /// SET-4 / EVT-1: the mission's events, shuffled, one per round.
    pub(crate) fn deal(&mut self, mission: &MissionDef, dice: &mut dyn Dice) {
        let mut deck = mission.events.clone();
        crate::dice::shuffle_with(dice, &mut deck);
        deck.truncate(mission.rounds as usize);
        self.event_deck = deck;
    }

    /// DL-3 step 1.
    pub(crate) fn draw(&mut self) -> Option<EventDraw> {
        let card = self.event_deck.pop()?;
        self.current_event = Some(card);
        Some(EventDraw {
            card,
            last: self.event_deck.is_empty(),
        })
    }

    /// DL-3 step 5.
    pub(crate) fn discard(&mut self) {
        if let Some(card) = self.current_event.take() {
            self.event_discard.push(card);
        }
    }
}

/// TRN-3: draw a marker at random; the markers are sorted first so the draw
/// depends only on the dice, not on the order markers left the pool
/// (CONV-5).
pub(crate) fn draw_marker(
    markers: &mut Vec<Side>,
    dice: &mut dyn Dice,
    order_key: &dyn Fn(Side) -> &'static str,
) -> Option<Side> {
    if markers.is_empty() {
        return None;
    }
    markers.sort_by_key(|m| order_key(*m));
    let i = dice.below(markers.len() as u32) as usize;
    Some(markers.remove(i))
}

/// An event card drawn at the start of a Dark Legion turn (EVT-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EventDraw {
    /// The card's number.
    pub card: u32,
    /// The deck is empty now: this round is the last (EVT-1).
    pub last: bool,
}

/// The parts of the rules an edition supplies. Every method has a meaning
/// in every edition; an edition without a deck answers "none left".
pub(crate) trait EditionRules {
    /// SET-4: prepare the event deck for the mission.
    fn deal_events(&mut self, mission: &MissionDef, dice: &mut dyn Dice);
    /// After the force cards are dealt: prepare the door and Doomtrooper
    /// card decks (DOR-2, DTC-CE-2).
    fn deal_decks(&mut self, tables: &CeTables, dice: &mut dyn Dice);

    /// A round begins with these sides in the pool. Returns whether this
    /// round is known to be the last one already.
    fn begin_round(&mut self, round: u32, mission_rounds: u32, pool: Vec<Side>) -> bool;
    /// The next side to take a turn this round, or `None` when the round is
    /// over. `order_key` names each side for a stable order (CONV-5).
    fn next_side(
        &mut self,
        dice: &mut dyn Dice,
        order_key: &dyn Fn(Side) -> &'static str,
    ) -> Option<Side>;
    /// A side leaves the pool at once (TRN-2).
    fn leave_pool(&mut self, side: Side);
    /// Sides still to act this round.
    fn sides_left(&self) -> usize;

    /// DL-3 step 1: draw the next event card, if the edition has them.
    fn draw_event(&mut self) -> Option<EventDraw>;
    /// The event card in force this Dark Legion turn.
    fn current_event(&self) -> Option<u32>;
    /// DL-3 step 5: the current event goes to the discards.
    fn discard_event(&mut self);
    /// Event cards left in the deck.
    fn events_left(&self) -> usize;
    /// Event cards played, in order.
    fn event_discard(&self) -> &[u32];

    /// DOR-2: draw a door card when a door opens; `None` if the edition
    /// has no door cards (the door simply opens).
    fn door_card(&mut self, dice: &mut dyn Dice) -> Option<DoorCardKind>;
    /// SET-11: the next Doomtrooper card, if any are left.
    fn draw_dt_card(&mut self) -> Option<DtCardKind>;

    /// The mission begins with `teams` corporation teams (classic CEV-2:
    /// the Dark Legion gets its reinforcement calls).
    fn begin_mission(&mut self, _teams: usize) {}
    /// Classic CEV-2: reinforcement calls the Dark Legion has left; `None`
    /// where reinforcements need no call (CE, or 4 classic teams).
    fn reinforcement_calls_left(&self) -> Option<u8> {
        None
    }
    /// Classic CEV-2: the Dark Legion declares "call" or "no call" for
    /// the next event.
    fn declare_call(&mut self, _call: bool) {}
    /// DL-3 step 2: are the current event's reinforcements placed? Always,
    /// unless the edition makes the Dark Legion call them (CEV-2).
    fn reinforcements_come(&self) -> bool {
        true
    }

    /// The hidden order of the event deck, for test positions and
    /// `Game::scramble_hidden`; `None` if the edition has none.
    fn event_deck_mut(&mut self) -> Option<&mut Vec<u32>> {
        None
    }
    /// The hidden order of the door deck (DOR-2), likewise.
    fn door_deck_mut(&mut self) -> Option<&mut Vec<DoorCardKind>> {
        None
    }
    /// The Doomtrooper cards not dealt (DTC-CE-2), likewise.
    fn dt_deck_mut(&mut self) -> Option<&mut Vec<DtCardKind>> {
        None
    }
    /// The two-use cards not dealt (classic CDT-1), likewise.
    fn two_use_deck_mut(&mut self) -> Option<&mut Vec<u32>> {
        None
    }

    /// Classic CDT-1: shuffle the two-use Doomtrooper cards (`cards`, by
    /// number) into a deck. Editions without them draw no dice here.
    fn shuffle_two_use(&mut self, _cards: &[u32], _dice: &mut dyn Dice) {}
    /// Classic CDT-1: the next two-use card of the deck, if any.
    fn draw_two_use(&mut self) -> Option<u32> {
        None
    }
    /// Classic CDT-1: a played or discarded two-use card goes to the
    /// discards (public).
    fn discard_two_use(&mut self, _card: u32) {}
}

/// The edition-specific part of a game's state, one variant per ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "ruleset", rename_all = "snake_case")]
pub(crate) enum EditionState {
    /// Collectors Edition.
    Ce(CeState),
    /// The minimal test ruleset.
    Skirmish(SkirmishState),
    /// The 1993 edition.
    Classic(ClassicState),
}

impl EditionState {
    /// The empty state of `ruleset`, before anything is dealt.
    pub(crate) fn new(ruleset: RulesetId) -> EditionState {
        match ruleset {
            RulesetId::Ce => EditionState::Ce(CeState::default()),
            RulesetId::Skirmish => EditionState::Skirmish(SkirmishState::default()),
            RulesetId::Classic => EditionState::Classic(ClassicState::default()),
        }
    }

    /// The ruleset this state belongs to.
    pub(crate) fn id(&self) -> RulesetId {
        match self {
            EditionState::Ce(_) => RulesetId::Ce,
            EditionState::Skirmish(_) => RulesetId::Skirmish,
            EditionState::Classic(_) => RulesetId::Classic,
        }
    }

    /// The edition's rules, to read.
    pub(crate) fn rules(&self) -> &dyn EditionRules {
        match self {
            EditionState::Ce(s) => s,
            EditionState::Skirmish(s) => s,
            EditionState::Classic(s) => s,
        }
    }

    /// The edition's rules, to change.
    pub(crate) fn rules_mut(&mut self) -> &mut dyn EditionRules {
        match self {
            EditionState::Ce(s) => s,
            EditionState::Skirmish(s) => s,
            EditionState::Classic(s) => s,
        }
    }

    /// The classic state, to read: for the 1993 edition's own code
    /// (`game/classic/`) only; the core asks through [`EditionRules`].
    pub(crate) fn classic(&self) -> Option<&ClassicState> {
        match self {
            EditionState::Classic(s) => Some(s),
            _ => None,
        }
    }
}
