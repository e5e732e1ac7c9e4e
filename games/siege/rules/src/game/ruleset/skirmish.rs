//! The minimal test ruleset: a fixed turn order and no edition decks.

use super::{EditionRules, EventDraw};
use crate::content::tables::{CeTables, DoorCardKind, DtCardKind};
use crate::content::MissionDef;
use crate::dice::Dice;
use crate::game::ids::Side;
use serde::Serialize;

/// The sides still to act this round, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct SkirmishState {
    /// Sides still to act this round; the next is the first.
    pub order: Vec<Side>,
}

impl EditionRules for SkirmishState {
    fn deal_events(&mut self, _mission: &MissionDef, _dice: &mut dyn Dice) {}

    fn deal_decks(&mut self, _tables: &CeTables, _dice: &mut dyn Dice) {}

    fn begin_round(&mut self, round: u32, mission_rounds: u32, pool: Vec<Side>) -> bool {
        // The pool lists the teams in team order and the DL last: that is
        // the turn order.
        self.order = pool;
        round >= mission_rounds
    }

    fn next_side(
        &mut self,
        _dice: &mut dyn Dice,
        _order_key: &dyn Fn(Side) -> &'static str,
    ) -> Option<Side> {
        (!self.order.is_empty()).then(|| self.order.remove(0))
    }

    fn leave_pool(&mut self, side: Side) {
        self.order.retain(|s| *s != side);
    }

    fn sides_left(&self) -> usize {
        self.order.len()
    }

    fn draw_event(&mut self) -> Option<EventDraw> {
        None
    }

    fn current_event(&self) -> Option<u32> {
        None
    }

    fn discard_event(&mut self) {}

    fn events_left(&self) -> usize {
        0
    }

    fn event_discard(&self) -> &[u32] {
        &[]
    }

    fn door_card(&mut self, _dice: &mut dyn Dice) -> Option<DoorCardKind> {
        None
    }

    fn draw_dt_card(&mut self) -> Option<DtCardKind> {
        None
    }
}
