//! Force cards (core FRC-1..7, ce.md FOR-1..3, DOR-3): reveals on entry,
//! reinforcement draws and the decisions they ask of the Dark Legion.

use super::event::Event;
use super::ids::{FigureId, Side};
use super::ruleset::hooks::Reveal;
use super::state::{Decision, Game, Pending};
use crate::content::tables::ForceCardDef;
use crate::dice::Dice;
use citadel_grid::Square;

impl Game {
    fn force_def(&self, card: u32) -> Option<&ForceCardDef> {
        self.rules.tables.force_card(card)
    }

    /// Ask the DL something (CONV-8: off-turn choices are asked at once).
    pub(crate) fn ask_dl(&mut self, decision: Decision) {
        self.pending.push_back(Pending {
            seat: self.dl.seat,
            decision,
        });
    }

    /// FRC-4 by the REVEAL hook. CE FOR-2: a team's first Move ending on
    /// a tile marks it and turns over one random face-down card there.
    /// Classic CFC-4: a Move of any DT ending on a tile turns over every
    /// face-down card there (so only the first one finds any).
    pub(crate) fn force_reveal_on_entry(
        &mut self,
        id: FigureId,
        at: Square,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let (Some(team), Some(tile)) = (
            self.figures[id.index()].team(),
            self.rules.board.tile_of(at),
        ) else {
            return;
        };
        let first = !self.tiles[tile].marked.contains(&team);
        if first {
            self.tiles[tile].marked.push(team);
            self.note_marked(team);
            events.push(Event::TileMarked { tile, team });
        }
        match self.hooks().reveal {
            Reveal::OnePerTeam if first => self.reveal_on_tile(tile, dice, events),
            Reveal::OnePerTeam => {}
            Reveal::AllOnFirstEntry => {
                while !self.tiles[tile].face_down.is_empty() {
                    self.reveal_on_tile(tile, dice, events);
                }
            }
        }
    }

    /// Turn over one face-down card of `tile` at random (CONV-2: uniform
    /// over the cards sorted by id) and queue its placement (FRC-5).
    pub(crate) fn reveal_on_tile(
        &mut self,
        tile: usize,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let cards = &mut self.tiles[tile].face_down;
        if cards.is_empty() {
            return;
        }
        cards.sort_unstable();
        let i = dice.below(cards.len() as u32) as usize;
        let card = cards.remove(i);
        self.reveal_card(tile, card, events);
    }

    /// Turn over `card`, already taken from the face-down cards, on `tile`
    /// and queue its placement (FRC-5, FRC-6).
    pub(crate) fn reveal_card(&mut self, tile: usize, card: u32, events: &mut Vec<Event>) {
        events.push(Event::ForceCardRevealed { tile, card });
        if card == super::state::C1M4_GOAL_CARD
            && self.rules.mission.has_rule(super::state::SPECIAL_DEAL_34)
        {
            // C1M4: the goal is this card's Nepharite (MSN-2 tag).
            let tag = super::mission_rules::CARD_34_TAG.to_string();
            self.mission
                .next_tags
                .push((crate::content::CreatureKind::Nepharite, tag));
        }
        self.queue_card_figures(card, Some(tile));
        self.force_discard.push(card); // FRC-6
    }

    /// Queue the DL decisions a card's figures need: an option for a
    /// choice card, then placements on `tile` or red entrances.
    pub(crate) fn queue_card_figures(&mut self, card: u32, tile: Option<usize>) {
        let Some(def) = self.force_def(card) else {
            return;
        };
        if def.options.len() > 1 {
            self.ask_dl(Decision::ForceOption { card, tile });
        } else if let Some(kinds) = def.options.first().cloned() {
            self.queue_figures(kinds, tile);
        }
    }

    /// Queue the placement of `kinds` on a tile, or at red entrances.
    pub(crate) fn queue_figures(
        &mut self,
        kinds: Vec<crate::content::CreatureKind>,
        tile: Option<usize>,
    ) {
        if kinds.is_empty() {
            return;
        }
        match tile {
            Some(tile) => self.ask_dl(Decision::PlaceFigures { tile, kinds }),
            None => {
                for kind in kinds {
                    self.ask_dl(Decision::RedEntrance { kind });
                }
            }
        }
    }

    /// FRC-7: the top of the draw pile, reshuffling the discards if empty.
    pub(crate) fn draw_force(&mut self, dice: &mut dyn Dice) -> Option<u32> {
        if self.force_pile.is_empty() {
            self.force_pile = std::mem::take(&mut self.force_discard);
            crate::dice::shuffle_with(dice, &mut self.force_pile);
        }
        self.force_pile.pop()
    }

    /// Corporation players in the marker pool (TRN-2), for FOR-3.
    pub(crate) fn corporations_in_pool(&self) -> usize {
        (0..self.teams.len() as u8)
            .filter(|&t| self.team_in_pool(t))
            .count()
    }

    /// TRN-2: a team is in the pool while a DT is neither eliminated nor exited.
    pub(crate) fn team_in_pool(&self, team: u8) -> bool {
        self.teams[usize::from(team)].figures.iter().any(|f| {
            !matches!(
                self.figures[f.index()].place,
                super::event::Place::Eliminated | super::event::Place::Exited
            )
        })
    }

    /// FOR-3: reinforcement draws in DL step 2.
    pub(crate) fn reinforcement_draws(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        let mut k = self.corporations_in_pool();
        let mut drawn = 0;
        while drawn < k {
            let Some(card) = self.draw_force(dice) else {
                break;
            };
            drawn += 1;
            events.push(Event::ForceCardDrawn { card });
            self.queue_card_figures(card, None);
            let (stop, more, remove) = self.force_def(card).map_or((false, false, false), |d| {
                (d.stop, d.draw_one_more, d.remove)
            });
            if !remove {
                self.force_discard.push(card);
            }
            if stop {
                break;
            }
            if more && drawn >= k {
                k += 1;
            }
        }
    }

    /// DOR-3 Alarm: one force card to red entrances, flags ignored.
    pub(crate) fn alarm(&mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) {
        if let Some(card) = self.draw_force(dice) {
            events.push(Event::ForceCardDrawn { card });
            self.queue_card_figures(card, None);
            self.force_discard.push(card);
        }
    }

    /// Is the head decision still possible? Placements with no room or an
    /// empty pool, and event targets with no candidate, lapse (FRC-5,
    /// DL-1, EVT-5).
    pub(crate) fn decision_possible(&self, d: &Decision) -> bool {
        match d {
            Decision::RedEntrance { kind } => self.pool_count(*kind) > 0,
            Decision::PlaceFigures { tile, kinds } => {
                kinds.iter().any(|k| self.pool_count(*k) > 0)
                    && self
                        .rules
                        .tile_squares(*tile)
                        .any(|s| self.placement_ok(s, Some(*tile)))
            }
            Decision::RevealTile => self.tiles.iter().any(|t| !t.face_down.is_empty()),
            // These always offer a default (leave the board as it is, pass
            // the card), so they never lapse; listing their options would
            // validate a whole board per sector change, or every card play.
            Decision::AlterSectors { .. }
            | Decision::CardWindow { .. }
            | Decision::CardControl { .. }
            | Decision::CardMove { .. } => true,
            _ => !self.decision_options(d).is_empty(),
        }
    }

    /// The markers of the DL and of the teams still in the pool.
    pub(crate) fn pool_markers(&self) -> Vec<Side> {
        let mut v: Vec<Side> = (0..self.teams.len() as u8)
            .filter(|&t| self.team_in_pool(t))
            .map(Side::Team)
            .collect();
        v.push(Side::DarkLegion);
        v
    }
}
