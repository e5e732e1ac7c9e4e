//! The 1993 edition's part of the state (classic.md): the marker pool
//! (core TRN-3, as in CE), the event deck of the 13 classic events with
//! the Dark Legion's reinforcement calls (CEV-1, CEV-2), and no door cards
//! (a classic door simply opens).
//!
//! The 13 two-use Doomtrooper cards (CDT) are shuffled into a deck here
//! and dealt by the core with the CE cards (SET-11's moment, CDT-1's
//! counts); what they do is `game/two_use.rs`.

use crate::content::tables::{CeTables, DoorCardKind, DtCardKind};
use crate::content::MissionDef;
use crate::dice::Dice;
use crate::game::ids::Side;
use crate::game::ruleset::{EditionRules, EventDeck, EventDraw};
use serde::Serialize;

/// Classic markers and events.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct ClassicState {
    /// Markers not yet drawn this round (hidden order: drawn at random).
    pub markers: Vec<Side>,
    /// The event deck, its discards and the event in force.
    #[serde(flatten)]
    pub events: EventDeck,
    /// CEV-2: reinforcement calls the Dark Legion has left this mission;
    /// `None` with 4 corporation teams, where every card's reinforcements
    /// are placed.
    pub calls_left: Option<u8>,
    /// CEV-2: the current event's reinforcements were called.
    pub called: bool,
    /// CDT-1: the two-use Doomtrooper cards not dealt (hidden order, top
    /// at the end).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub two_use_deck: Vec<u32>,
    /// CDT-1: two-use cards played or discarded, in order (public).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub two_use_discard: Vec<u32>,
}

impl ClassicState {
    /// CEV-2: give the Dark Legion one call per corporation team (1–3
    /// teams); with 4 or more, reinforcements need no call.
    pub(crate) fn set_calls(&mut self, teams: usize) {
        self.calls_left = (teams < 4).then_some(teams as u8);
    }

    /// CEV-2: whether the current event's reinforcements are placed: with
    /// 4 teams always, otherwise when they were called.
    pub(crate) fn reinforcements_come(&self) -> bool {
        self.calls_left.is_none() || self.called
    }

    /// CEV-2: declare "call" (spending a call) or "no call" for the next
    /// event. A call that is not available is "no call".
    pub(crate) fn declare(&mut self, call: bool) {
        self.called = match (&mut self.calls_left, call) {
            (None, _) => false,
            (Some(_), false) => false,
            (Some(0), true) => false,
            (Some(n), true) => {
                *n -= 1;
                true
            }
        };
    }
}

impl EditionRules for ClassicState {
    fn deal_events(&mut self, mission: &MissionDef, dice: &mut dyn Dice) {
        // CEV-1 / EVT-1. The training mission lists none: no event deck,
        // no time limit.
        self.events.deal(mission, dice);
    }

    fn deal_decks(&mut self, _tables: &CeTables, _dice: &mut dyn Dice) {}

    fn begin_round(&mut self, _round: u32, _mission_rounds: u32, pool: Vec<Side>) -> bool {
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
        self.called = false;
    }

    fn events_left(&self) -> usize {
        self.events.event_deck.len()
    }

    fn event_discard(&self) -> &[u32] {
        &self.events.event_discard
    }

    fn door_card(&mut self, _dice: &mut dyn Dice) -> Option<DoorCardKind> {
        None
    }

    fn draw_dt_card(&mut self) -> Option<DtCardKind> {
        None
    }

    fn begin_mission(&mut self, teams: usize) {
        self.set_calls(teams);
    }

    fn reinforcement_calls_left(&self) -> Option<u8> {
        self.calls_left
    }

    fn declare_call(&mut self, call: bool) {
        self.declare(call);
    }

    fn reinforcements_come(&self) -> bool {
        ClassicState::reinforcements_come(self)
    }

    fn event_deck_mut(&mut self) -> Option<&mut Vec<u32>> {
        Some(&mut self.events.event_deck)
    }

    fn two_use_deck_mut(&mut self) -> Option<&mut Vec<u32>> {
        Some(&mut self.two_use_deck)
    }

    fn shuffle_two_use(&mut self, cards: &[u32], dice: &mut dyn Dice) {
        let mut deck = cards.to_vec();
        deck.sort_unstable();
        crate::dice::shuffle_with(dice, &mut deck);
        self.two_use_deck = deck;
    }

    fn draw_two_use(&mut self) -> Option<u32> {
        self.two_use_deck.pop()
    }

    fn discard_two_use(&mut self, card: u32) {
        self.two_use_discard.push(card);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_one_per_team_below_four_teams() {
        let mut s = ClassicState::default();
        s.set_calls(2);
        assert!(!s.reinforcements_come());
        s.declare(true);
        assert!(s.called);
        s.declare(false);
        assert!(!s.called);
        s.declare(true);
        assert!(s.reinforcements_come());
        assert_eq!(s.calls_left, Some(0));
        s.declare(true);
        assert!(!s.reinforcements_come(), "no call is left");
        s.set_calls(4);
        assert!(
            s.reinforcements_come(),
            "with 4 teams reinforcements always come"
        );
    }
}
