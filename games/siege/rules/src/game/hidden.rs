//! A test helper: shuffle everything no seat may see (core HID-1, HID-2),
//! so tests can show that what a seat is given (its view and legal list)
//! does not depend on it.

use super::ids::Seat;
use super::state::Game;
use crate::dice::{shuffle_with, Dice};

impl Game {
    /// Re-deal the hidden state other than `keep`'s own: face-down force
    /// cards and the force pile (each tile keeps its count), the event,
    /// door, DT-card and AI deck orders, and other teams' DT-card hands
    /// (each keeps its size, cards swapped with the DT deck). Everything
    /// public stays as it was. For tests only: a real game never does this.
    #[doc(hidden)]
    pub fn scramble_hidden(&mut self, keep: Seat, dice: &mut dyn Dice) {
        self.checkpoint.drop_it();
        // Force cards: one pool, the same counts per tile and in the pile.
        let counts: Vec<usize> = self.tiles.iter().map(|t| t.face_down.len()).collect();
        let mut pool: Vec<u32> = std::mem::take(&mut self.force_pile);
        for t in &mut self.tiles {
            pool.append(&mut t.face_down);
        }
        shuffle_with(dice, &mut pool);
        for (t, n) in self.tiles.iter_mut().zip(counts) {
            t.face_down = pool.split_off(pool.len() - n);
        }
        self.force_pile = pool;
        // The edition's decks.
        let edition = self.edition.rules_mut();
        if let Some(d) = edition.event_deck_mut() {
            shuffle_with(dice, d);
        }
        if let Some(d) = edition.door_deck_mut() {
            shuffle_with(dice, d);
        }
        let deck = edition
            .dt_deck_mut()
            .map(std::mem::take)
            .unwrap_or_default();
        // DT hands of the other teams: swap with the deck, then shuffle it.
        let mut cards: Vec<_> = deck;
        let mut sizes = Vec::new();
        for t in self.teams.iter_mut().filter(|t| t.seat != keep) {
            sizes.push(t.hand.len());
            cards.append(&mut t.hand);
        }
        shuffle_with(dice, &mut cards);
        for (t, n) in self.teams.iter_mut().filter(|t| t.seat != keep).zip(sizes) {
            t.hand = cards.split_off(cards.len() - n);
        }
        if let Some(d) = self.edition.rules_mut().dt_deck_mut() {
            *d = cards;
        }
        // Classic CDT: the same for the 1993 two-use cards.
        let mut cards = self
            .edition
            .rules_mut()
            .two_use_deck_mut()
            .map(std::mem::take)
            .unwrap_or_default();
        let mut sizes = Vec::new();
        for t in self.teams.iter_mut().filter(|t| t.seat != keep) {
            sizes.push(t.cards.len());
            cards.append(&mut t.cards);
        }
        shuffle_with(dice, &mut cards);
        for (t, n) in self.teams.iter_mut().filter(|t| t.seat != keep).zip(sizes) {
            t.cards = cards.split_off(cards.len() - n);
        }
        if let Some(d) = self.edition.rules_mut().two_use_deck_mut() {
            *d = cards;
        }
        if let Some(d) = self.ai_deck.as_mut() {
            d.scramble(dice);
        }
        // Secondary missions: the deck and other teams' cards (SET-10).
        self.scramble_secondaries(keep, dice);
    }
}
