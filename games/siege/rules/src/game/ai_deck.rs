//! The AI Dark Legion's deck (core AI-1) and compass selection (AI-2).
//!
//! The deck is game state, present only in games with an AI Dark Legion
//! (SET-12): shuffled at mission start with the game's own dice, drawn by
//! the game, and shuffled whole again at the end of each DL turn. Restoring
//! a game is therefore plain replay of its setup, seed and commands.
//!
//! Cards are revealed at two kinds of points:
//! - by [`Command::RevealAiCard`] from the AI's seat, whenever its policy
//!   (AI-4..AI-12) says "reveal a card"; the cards revealed since the AI
//!   seat's last other command are the cards *for the decision in hand*
//!   ([`AiDeckView::revealed`]), and any other command from that seat closes
//!   the decision;
//! - by the game itself for the AI-8 tie-breaker card, the first time the
//!   DL must act in step 4 of a DL turn; it is kept until the turn ends.
//!
//! The order of the draw pile is hidden (HID-1); every revealed card and
//! the discards are public (HID-3), so the events and the view show them to
//! every viewer.
//!
//! [`Command::RevealAiCard`]: super::Command::RevealAiCard

use super::event::Event;
use super::ids::Seat;
use super::rejection::Rejection;
use super::state::Game;
use crate::content::Corporation;
use crate::dice::{shuffle_with, Dice};
use serde::{Deserialize, Serialize};

/// Cards in the AI deck (AI-1).
pub const AI_DECK_SIZE: u8 = 54;

/// A compass direction of the AI deck (AI-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// North: score −y.
    N,
    /// East: score x.
    E,
    /// South: score y.
    S,
    /// West: score −x.
    W,
}

impl Dir {
    /// AI-2 score of a position.
    pub fn score(self, (x, y): (f64, f64)) -> f64 {
        match self {
            Dir::N => -y,
            Dir::E => x,
            Dir::S => y,
            Dir::W => -x,
        }
    }
}

/// An action template (AI-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    /// T1 Close in.
    T1,
    /// T2 Gun line.
    T2,
    /// T3 Flank.
    T3,
    /// T4 Swarm.
    T4,
    /// T5 Hold.
    T5,
    /// T6 Berserk.
    T6,
}

/// One AI card (AI-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiCard {
    /// `k`, 0..54.
    pub k: u8,
    /// Primary direction.
    pub primary: Dir,
    /// Secondary direction.
    pub secondary: Dir,
    /// Corporation.
    pub corp: Corporation,
    /// Matrix offset `(mx, my)`.
    pub matrix: (i32, i32),
    /// Template.
    pub template: Template,
}

/// The cyclic corporation order of AI-1 (and AI-3).
pub const AI_CORPORATIONS: [Corporation; 5] = [
    Corporation::Bauhaus,
    Corporation::Capitol,
    Corporation::Cybertronic,
    Corporation::Imperial,
    Corporation::Mishima,
];

impl AiCard {
    /// Card `k` of the deck by the AI-1 formula.
    pub fn new(k: u8) -> AiCard {
        let k32 = i32::from(k);
        let primary = [Dir::N, Dir::E, Dir::S, Dir::W][usize::from(k % 4)];
        let secondary = [
            [Dir::E, Dir::W],
            [Dir::S, Dir::N],
            [Dir::W, Dir::E],
            [Dir::N, Dir::S],
        ][usize::from(k % 4)][usize::from((k / 4) % 2)];
        let template = [
            Template::T1,
            Template::T2,
            Template::T3,
            Template::T4,
            Template::T5,
            Template::T6,
        ][usize::from(k % 6)];
        AiCard {
            k,
            primary,
            secondary,
            corp: AI_CORPORATIONS[usize::from(k % 5)],
            matrix: ((3 * k32) % 8, (5 * k32 + k32 / 8) % 8),
            template,
        }
    }
}

/// AI-2: the id of the winning candidate `(id, position)`, or `None` if
/// there are none.
pub fn compass<T: Ord + Copy>(card: &AiCard, candidates: &[(T, (f64, f64))]) -> Option<T> {
    let best_p = candidates
        .iter()
        .map(|(_, p)| card.primary.score(*p))
        .fold(f64::NEG_INFINITY, f64::max);
    let first: Vec<_> = candidates
        .iter()
        .filter(|(_, p)| card.primary.score(*p) == best_p)
        .collect();
    let best_s = first
        .iter()
        .map(|(_, p)| card.secondary.score(*p))
        .fold(f64::NEG_INFINITY, f64::max);
    first
        .into_iter()
        .filter(|(_, p)| card.secondary.score(*p) == best_s)
        .map(|(id, _)| *id)
        .min()
}

/// The AI deck's state (AI-1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiDeck {
    /// Cards still to draw, top last (hidden order, HID-1).
    draw: Vec<u8>,
    /// Every card revealed since the last full shuffle, in reveal order.
    discard: Vec<u8>,
    /// The cards revealed for the decision in hand (also in `discard`).
    revealed: Vec<u8>,
    /// The AI-8 tie-breaker card of the current DL turn (also in `discard`).
    tie_breaker: Option<u8>,
}

/// The AI deck as every viewer sees it: the draw pile as a count, the
/// revealed cards face up (HID-1, HID-3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AiDeckView {
    /// Cards left in the draw pile.
    pub draw: usize,
    /// Cards revealed since the last full shuffle, in reveal order.
    pub discard: Vec<u8>,
    /// Cards revealed for the decision the AI is making now, in order.
    pub revealed: Vec<u8>,
    /// The AI-8 tie-breaker card of this DL turn.
    pub tie_breaker: Option<u8>,
}

impl AiDeck {
    /// All 54 cards, shuffled (AI-1 "shuffle at mission start").
    pub(crate) fn shuffled(dice: &mut dyn Dice) -> AiDeck {
        let mut draw: Vec<u8> = (0..AI_DECK_SIZE).collect();
        shuffle_with(dice, &mut draw);
        AiDeck {
            draw,
            discard: Vec::new(),
            revealed: Vec::new(),
            tie_breaker: None,
        }
    }

    /// Take the top card; an empty pile first takes the discards back,
    /// shuffled (AI-1). Returns the card and whether that shuffle happened.
    fn draw(&mut self, dice: &mut dyn Dice) -> (u8, bool) {
        let refilled = self.draw.is_empty();
        if refilled {
            self.draw.append(&mut self.discard);
            self.draw.sort_unstable();
            shuffle_with(dice, &mut self.draw);
        }
        // 54 cards are always in the draw pile or the discards.
        let k = self.draw.pop().unwrap_or(0);
        self.discard.push(k);
        (k, refilled)
    }

    /// Every card back into the pile, shuffled (AI-1, CE DL step 5).
    fn reshuffle_all(&mut self, dice: &mut dyn Dice) {
        self.draw.append(&mut self.discard);
        self.draw.sort_unstable();
        shuffle_with(dice, &mut self.draw);
        self.revealed.clear();
        self.tie_breaker = None;
    }

    /// Shuffle the draw pile (its order is hidden; tests only).
    pub(crate) fn scramble(&mut self, dice: &mut dyn Dice) {
        shuffle_with(dice, &mut self.draw);
    }

    /// What every viewer sees.
    pub fn view(&self) -> AiDeckView {
        AiDeckView {
            draw: self.draw.len(),
            discard: self.discard.clone(),
            revealed: self.revealed.clone(),
            tie_breaker: self.tie_breaker,
        }
    }
}

impl Game {
    /// The AI deck, in a game with an AI Dark Legion.
    pub fn ai_deck(&self) -> Option<&AiDeck> {
        self.ai_deck.as_ref()
    }

    /// May `seat` reveal an AI card now? Only the AI's seat, only while the
    /// game waits for it, and never more cards for one decision than the
    /// deck holds (so a faulty policy cannot reveal forever).
    pub(crate) fn can_reveal_ai_card(&self, seat: Seat) -> bool {
        self.ai_deck
            .as_ref()
            .is_some_and(|d| d.revealed.len() < usize::from(AI_DECK_SIZE))
            && self.dl.ai
            && seat == self.dl.seat
            && self.suspended.is_none()
            && !self.is_finished()
            && self.seat_to_act() == Some(seat)
    }

    /// `Command::RevealAiCard`: the top card, for the decision in hand.
    pub(crate) fn reveal_ai_card(
        &mut self,
        seat: Seat,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), Rejection> {
        if !self.can_reveal_ai_card(seat) {
            return Err(if self.ai_deck.is_none() || seat != self.dl.seat {
                Rejection::WrongPhase
            } else {
                Rejection::NotYourTurn
            });
        }
        let Some(deck) = self.ai_deck.as_mut() else {
            return Err(Rejection::WrongPhase);
        };
        let (card, refilled) = deck.draw(dice);
        deck.revealed.push(card);
        if refilled {
            events.push(Event::AiDeckShuffled);
        }
        events.push(Event::AiCardRevealed {
            card,
            tie_breaker: false,
        });
        Ok(())
    }

    /// A command other than a reveal from the AI's seat closes the decision
    /// its revealed cards were for.
    pub(crate) fn close_ai_decision(&mut self, seat: Seat) {
        if seat == self.dl.seat {
            if let Some(d) = self.ai_deck.as_mut() {
                d.revealed.clear();
            }
        }
    }

    /// AI-8: the tie-breaker card, revealed the first time the AI must act
    /// in step 4 of a DL turn and kept for the rest of it.
    pub(crate) fn reveal_ai_tie_breaker(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        let Some(deck) = self.ai_deck.as_mut() else {
            return;
        };
        if deck.tie_breaker.is_some() {
            return;
        }
        let (card, refilled) = deck.draw(dice);
        deck.tie_breaker = Some(card);
        if refilled {
            events.push(Event::AiDeckShuffled);
        }
        events.push(Event::AiCardRevealed {
            card,
            tie_breaker: true,
        });
    }

    /// AI-1: at the end of each DL turn all AI cards are shuffled back.
    pub(crate) fn reshuffle_ai_deck(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        if let Some(deck) = self.ai_deck.as_mut() {
            deck.reshuffle_all(dice);
            events.push(Event::AiDeckShuffled);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::SeededDice;
    use std::collections::BTreeSet;

    #[test]
    fn ai_1_cards_follow_the_formula() {
        let c = AiCard::new(0);
        assert_eq!((c.primary, c.secondary), (Dir::N, Dir::E));
        assert_eq!(c.corp, Corporation::Bauhaus);
        assert_eq!(c.matrix, (0, 0));
        assert_eq!(c.template, Template::T1);
        let c = AiCard::new(5);
        assert_eq!((c.primary, c.secondary), (Dir::E, Dir::N));
        assert_eq!(c.corp, Corporation::Bauhaus);
        assert_eq!(c.matrix, (7, 1));
        assert_eq!(c.template, Template::T6);
        let c = AiCard::new(53);
        // 53 mod 4 = 1 (E); 53 div 4 = 13, odd → N; 53 mod 5 = 3; 53 mod 6 = 5.
        assert_eq!((c.primary, c.secondary), (Dir::E, Dir::N));
        assert_eq!(c.corp, Corporation::Imperial);
        // (159 mod 8, (265 + 6) mod 8) = (7, 7)
        assert_eq!(c.matrix, (7, 7));
        assert_eq!(c.template, Template::T6);
    }

    #[test]
    fn ai_1_deck_has_54_distinct_cards_and_reshuffles() {
        let mut dice = SeededDice::new(7);
        let mut d = AiDeck::shuffled(&mut dice);
        let mut all = d.draw.clone();
        all.sort_unstable();
        assert_eq!(all, (0..54).collect::<Vec<u8>>());
        let drawn: BTreeSet<u8> = (0..54).map(|_| d.draw(&mut dice).0).collect();
        assert_eq!(drawn.len(), 54);
        assert_eq!(d.view().draw, 0);
        // Empty: the discards are shuffled back in.
        let (_, refilled) = d.draw(&mut dice);
        assert!(refilled);
        assert_eq!(d.view().draw, 53);
        assert_eq!(d.view().discard.len(), 1);
        d.revealed.push(1);
        d.tie_breaker = Some(2);
        d.reshuffle_all(&mut dice);
        let v = d.view();
        assert_eq!((v.draw, v.discard.len()), (54, 0));
        assert!(v.revealed.is_empty() && v.tie_breaker.is_none());
    }

    #[test]
    fn ai_2_compass_primary_then_secondary_then_lowest_id() {
        let north_east = AiCard::new(0); // N, then E
        let cands = [
            (3u32, (1.0, 2.0)),
            (1u32, (5.0, 2.0)),
            (2u32, (5.0, 2.0)),
            (0u32, (9.0, 4.0)),
        ];
        // Max −y: ids 3, 1, 2 (y = 2); max x: 1 and 2; lowest id: 1.
        assert_eq!(compass(&north_east, &cands), Some(1));
        let south = AiCard::new(2); // S, then W
        assert_eq!(compass(&south, &cands), Some(0));
        let west = AiCard::new(3); // W, then N
        assert_eq!(compass(&west, &cands), Some(3));
        assert_eq!(compass::<u32>(&west, &[]), None);
    }
}
