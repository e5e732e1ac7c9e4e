//! The Collectors Edition's part of the state: the marker pool (TRN-3), the
//! event deck (EVT), the door deck (DOR-2) and the Doomtrooper deck
//! (DTC-CE-2).

use crate::content::tables::{CeTables, DoorCardKind, DtCardKind};
use crate::content::MissionDef;
use crate::dice::{shuffle_with, Dice};
use crate::game::ids::Side;
use crate::game::ruleset::{EditionRules, EventDeck, EventDraw};
use serde::Serialize;

/// CE decks and the markers of the round.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct CeState {
    /// Markers not yet drawn this round (hidden order: drawn at random).
    pub markers: Vec<Side>,
    /// The event deck, its discards and the event in force.
    #[serde(flatten)]
    pub events: EventDeck,
    /// The door deck; its top is the end (hidden order).
    pub door_deck: Vec<DoorCardKind>,
    /// The Doomtrooper card deck; its top is the end (hidden).
    pub dt_deck: Vec<DtCardKind>,
}

impl EditionRules for CeState {
    fn deal_events(&mut self, mission: &MissionDef, dice: &mut dyn Dice) {
        self.events.deal(mission, dice);
    }

    fn deal_decks(&mut self, tables: &CeTables, dice: &mut dyn Dice) {
        let mut doors: Vec<DoorCardKind> = tables
            .door_cards
            .iter()
            .flat_map(|d| std::iter::repeat_n(d.kind, usize::from(d.copies)))
            .collect();
        shuffle_with(dice, &mut doors);
        let mut dt: Vec<DtCardKind> = tables
            .dt_cards
            .iter()
            .flat_map(|d| std::iter::repeat_n(d.kind, usize::from(d.copies)))
            .collect();
        shuffle_with(dice, &mut dt);
        self.door_deck = doors;
        self.dt_deck = dt;
    }

    fn begin_round(&mut self, _round: u32, _mission_rounds: u32, pool: Vec<Side>) -> bool {
        // The last round is announced by the last event card (EVT-1).
        self.markers = pool;
        false
    }

    fn next_side(
        &mut self,
        dice: &mut dyn Dice,
        order_key: &dyn Fn(Side) -> &'static str,
    ) -> Option<Side> {
        crate::game::ruleset::draw_marker(&mut self.markers, dice, order_key)
    }

    fn leave_pool(&mut self, side: Side) {
        self.markers.retain(|m| *m != side);
    }

    fn sides_left(&self) -> usize {
        self.markers.len()
    }

    fn draw_event(&mut self) -> Option<EventDraw> {
        self.events.draw()
    }

    fn current_event(&self) -> Option<u32> {
        self.events.current_event
    }

    fn discard_event(&mut self) {
        self.events.discard();
    }

    fn events_left(&self) -> usize {
        self.events.event_deck.len()
    }

    fn event_discard(&self) -> &[u32] {
        &self.events.event_discard
    }

    fn door_card(&mut self, dice: &mut dyn Dice) -> Option<DoorCardKind> {
        // DOR-2: reveal, put it back, reshuffle.
        let card = self.door_deck.pop().unwrap_or(DoorCardKind::AllClear);
        self.door_deck.push(card);
        shuffle_with(dice, &mut self.door_deck);
        Some(card)
    }

    fn draw_dt_card(&mut self) -> Option<DtCardKind> {
        self.dt_deck.pop()
    }

    fn event_deck_mut(&mut self) -> Option<&mut Vec<u32>> {
        Some(&mut self.events.event_deck)
    }

    fn door_deck_mut(&mut self) -> Option<&mut Vec<DoorCardKind>> {
        Some(&mut self.door_deck)
    }

    fn dt_deck_mut(&mut self) -> Option<&mut Vec<DtCardKind>> {
        Some(&mut self.dt_deck)
    }
}
