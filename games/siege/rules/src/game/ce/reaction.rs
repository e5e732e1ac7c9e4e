//! The Collectors Edition's reaction cards (ce.md DTC-CE-3, DTC-CE-4):
//! which Doomtrooper card answers which window, and playing one from the
//! hand when a window opens. The suspension that lets a window wait for
//! its owner is shared (`game/reaction.rs`).

use crate::content::tables::DtCardKind;
use crate::dice::Dice;
use crate::game::event::{DieRoll, Event};
use crate::game::ids::FigureId;
use crate::game::reaction::Window;
use crate::game::state::{Game, Phase};

impl Window {
    /// Does `card` answer this window?
    pub fn fits(self, card: DtCardKind) -> bool {
        match self {
            Window::DlAttackRolled { firearm } => {
                card == DtCardKind::CombatAura || (firearm && card == DtCardKind::DudRound)
            }
            Window::Lethal => card == DtCardKind::LastStand,
            Window::OwnAttackRolled => card == DtCardKind::HeroicLuck,
            Window::CardOwnAttack | Window::CardDtHit => false,
        }
    }
}

impl Game {
    /// A reaction window for `team`'s DT `figure`. Returns the card played,
    /// if any; may instead mark the run as waiting for the owner.
    pub(crate) fn reaction_window(
        &mut self,
        team: u8,
        figure: FigureId,
        window: Window,
        roll: &[DieRoll],
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Option<DtCardKind> {
        let t = &self.teams[usize::from(team)];
        let own_turn = self.phase == Phase::Corporation { team };
        if t.hand.is_empty()
            || self.effects.no_cards.contains(&team)
            || (own_turn && self.card_played)
        {
            return None;
        }
        let answer = self.reaction_answer(team, figure, window, roll, dice)?;
        let t = &self.teams[usize::from(team)];
        let card = answer.and_then(|i| t.hand.get(i).copied().map(|k| (i, k)))?;
        if !window.fits(card.1) {
            return None;
        }
        let seat = t.seat;
        self.teams[usize::from(team)].hand.remove(card.0);
        if own_turn {
            self.card_played = true;
        }
        events.push(Event::CardPlayed {
            seat,
            card: card.1,
            extra_action: false,
            figure,
        });
        Some(card.1)
    }

    /// The cards of `team`'s hand (by index) that answer `window`.
    pub(crate) fn dt_card_answers(&self, team: u8, window: Window) -> Vec<usize> {
        self.teams[usize::from(team)]
            .hand
            .iter()
            .enumerate()
            .filter(|(_, k)| window.fits(**k))
            .map(|(i, _)| i)
            .collect()
    }
}
