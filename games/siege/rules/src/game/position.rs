//! Stating a position directly, for scenario tests and tools.
//!
//! [`Game::scenario`] starts a game, skips the draft (everyone passes,
//! every team at its first white entrance) and then applies a
//! [`Position`]: figures, health, cards, decks and whose turn it is. This
//! bypasses the rules on purpose; play resumes under them from there.

use super::event::Place;
use super::ids::{FigureId, Seat, Side};
use super::setup::{Setup, SetupError};
use super::state::{DlStep, Game, Phase, Token, TokenState};
use crate::content::tables::{DoorCardKind, DtCardKind, Item};
use crate::content::{Corporation, CreatureKind};
use crate::dice::Dice;
use citadel_grid::Square;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Whose turn a stated position is in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnSpec {
    /// This corporation's turn.
    Corporation(Corporation),
    /// The Dark Legion's step 4 (activations).
    DarkLegion,
    /// The start of the Dark Legion turn (bombs, event, reinforcements...).
    DarkLegionStart,
}

/// One figure of a stated position. Either `name` (a DT, e.g.
/// `bauhaus-max_steiner`) or `creature` (taken from the DL pool).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureSpec {
    /// A DT's name.
    #[serde(default)]
    pub name: Option<String>,
    /// A DL creature from the pool.
    #[serde(default)]
    pub creature: Option<CreatureKind>,
    /// Square, `[x, y]`.
    #[serde(default)]
    pub at: Option<Square>,
    /// Waiting at this entrance instead (white for DTs, red for DL).
    #[serde(default)]
    pub waiting: Option<String>,
    /// Eliminated.
    #[serde(default)]
    pub eliminated: bool,
    /// Health (DTs).
    #[serde(default)]
    pub health: Option<u8>,
    /// Weapon id.
    #[serde(default)]
    pub weapon: Option<String>,
    /// Carried items.
    #[serde(default)]
    pub items: Option<Vec<String>>,
    /// A mission tag (MSN-2 `eliminated`), e.g. `ezoghoul`.
    #[serde(default)]
    pub tag: Option<String>,
}

/// A stated position. Every field is optional; unstated parts keep the
/// values of a fresh game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Whose turn.
    #[serde(default)]
    pub turn: Option<TurnSpec>,
    /// The round number.
    #[serde(default)]
    pub round: Option<u32>,
    /// Figures to place.
    #[serde(default)]
    pub figures: Vec<FigureSpec>,
    /// Doomtrooper card hands.
    #[serde(default)]
    pub hands: BTreeMap<Corporation, Vec<DtCardKind>>,
    /// Classic CDT: 1993 two-use card hands, by card number (the cards
    /// leave the deck; a deck card is never in two hands).
    #[serde(default)]
    pub cards: BTreeMap<Corporation, Vec<u32>>,
    /// PP per corporation (rank follows, RNK-1).
    #[serde(default)]
    pub pp: BTreeMap<Corporation, i32>,
    /// The DL's PP.
    #[serde(default)]
    pub dl_pp: Option<i32>,
    /// Traps: square and optional owner name.
    #[serde(default)]
    pub traps: Vec<(Square, Option<String>)>,
    /// Door groups already removed (by index).
    #[serde(default)]
    pub doors_removed: Vec<usize>,
    /// Face-down force cards per tile index (replaces the deal).
    #[serde(default)]
    pub face_down: BTreeMap<usize, Vec<u32>>,
    /// Force draw pile, top last.
    #[serde(default)]
    pub force_pile: Option<Vec<u32>>,
    /// Event deck, top last.
    #[serde(default)]
    pub event_deck: Option<Vec<u32>>,
    /// Door deck, top last.
    #[serde(default)]
    pub door_deck: Option<Vec<DoorCardKind>>,
    /// Tiles already marked by corporations.
    #[serde(default)]
    pub marked: BTreeMap<usize, Vec<Corporation>>,
    /// Markers still to draw this round after the stated turn.
    #[serde(default)]
    pub markers: Option<Vec<TurnSpecMarker>>,
    /// Secondary missions kept, per corporation (SET-10).
    #[serde(default)]
    pub secondary: BTreeMap<Corporation, u32>,
    /// Objective tokens carried (MSN-4): token name → carrier name. The
    /// token leaves the board.
    #[serde(default)]
    pub carried: BTreeMap<String, String>,
}

/// A marker of the pool, for [`Position::markers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnSpecMarker {
    /// A corporation.
    Corporation(Corporation),
    /// The Dark Legion.
    DarkLegion,
}

impl Game {
    /// Start `setup`, skip the draft and MOV-12 (first white entrance), and
    /// apply `position`. Like the position itself this bypasses a rule on
    /// purpose: the mission need not be playable as a whole yet
    /// ([`Game::new_unchecked`]), so the rules it does implement can be
    /// tested.
    ///
    /// # Errors
    /// The setup's error, or a message naming what in the position is wrong.
    pub fn scenario(
        setup: Setup,
        position: &Position,
        dice: &mut dyn Dice,
    ) -> Result<Game, String> {
        let content = crate::content::Content::embedded().map_err(|e| e.to_string())?;
        Game::scenario_with_content(setup, content, position, dice)
    }

    /// [`Game::scenario`] with replacement content (e.g. a mission record
    /// changed for a test). Like [`Game::scenario`] it does not check that
    /// the mission is playable.
    ///
    /// # Errors
    /// As [`Game::scenario`].
    pub fn scenario_with_content(
        setup: Setup,
        content: &crate::content::Content,
        position: &Position,
        dice: &mut dyn Dice,
    ) -> Result<Game, String> {
        let (mut game, _) =
            Game::build(setup, content, dice, false).map_err(|e: SetupError| e.to_string())?;
        for t in &mut game.teams {
            t.passed = true;
            t.entrance = Some(0);
        }
        for t in 0..game.teams.len() {
            for f in game.teams[t].figures {
                game.set_place(f, Place::Waiting { entrance: 0 });
            }
        }
        game.apply_position(position)?;
        Ok(game)
    }

    fn figure_by_name(&self, name: &str) -> Result<FigureId, String> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| FigureId(i as u16))
            .ok_or_else(|| format!("no figure named {name}"))
    }

    fn team_of(&self, corp: Corporation) -> Result<u8, String> {
        self.teams
            .iter()
            .position(|t| t.corporation == corp)
            .map(|t| t as u8)
            .ok_or_else(|| format!("{corp} is not a team in this game"))
    }

    fn apply_position(&mut self, p: &Position) -> Result<(), String> {
        self.pending.clear();
        self.suspended = None;
        self.round = p.round.unwrap_or(1);
        for spec in &p.figures {
            let id = match (&spec.name, spec.creature) {
                (Some(n), None) => self.figure_by_name(n)?,
                (None, Some(k)) => self
                    .pool_figure(k)
                    .ok_or_else(|| format!("no {k} left in the pool"))?,
                _ => return Err("a figure needs exactly one of name and creature".into()),
            };
            let place = if spec.eliminated {
                Place::Eliminated
            } else if let Some(s) = spec.at {
                if !self.rules.board.passable(s) {
                    return Err(format!("{s} is not a passable square"));
                }
                if self.figure_at(s).is_some() {
                    return Err(format!("{s} already holds a figure"));
                }
                Place::Board { square: s }
            } else if let Some(e) = &spec.waiting {
                let list = if spec.creature.is_some() {
                    &self.rules.dl_entrances
                } else {
                    &self.rules.white
                };
                let i = list
                    .iter()
                    .position(|x| &x.id == e)
                    .ok_or_else(|| format!("no entrance {e}"))?;
                Place::Waiting { entrance: i as u8 }
            } else {
                return Err("a figure needs at, waiting or eliminated".into());
            };
            let tables = &self.rules.tables;
            let weapon = match spec.weapon.as_deref().map(|w| (w, tables.item(w))) {
                None => None,
                Some((_, Some(Item::Weapon(w)))) => Some(w),
                Some((w, _)) => return Err(format!("no weapon `{w}`")),
            };
            let items = match &spec.items {
                None => None,
                Some(list) => Some(
                    list.iter()
                        .map(|i| match tables.item(i) {
                            Some(Item::Equipment(e)) => Ok(e),
                            _ => Err(format!("no equipment card `{i}`")),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                ),
            };
            self.set_place(id, place);
            let f = &mut self.figures[id.index()];
            if let Some(h) = spec.health {
                f.health = h.min(5);
            }
            if let Some(w) = weapon {
                f.weapon = Some(w);
            }
            if let Some(items) = items {
                f.items = items;
            }
            if spec.tag.is_some() {
                f.tag = spec.tag.clone();
            }
        }
        for (token, carrier) in &p.carried {
            let carrier = self.figure_by_name(carrier)?;
            let before = self.tokens.len();
            self.tokens.retain(
                |t| !matches!(&t.kind, TokenState::Mission { name: Some(n), .. } if n == token),
            );
            if self.tokens.len() == before {
                return Err(format!("no token named {token}"));
            }
            self.mission.carried.push((token.clone(), carrier));
        }
        for (corp, hand) in &p.hands {
            let t = self.team_of(*corp)?;
            self.teams[usize::from(t)].hand = hand.clone();
        }
        if !p.cards.is_empty() {
            // The stated hands replace the deal: every dealt card goes
            // back to the deck, then the stated ones leave it.
            let mut deck: Vec<u32> = self.rules.two_use_cards.iter().map(|c| c.number).collect();
            for t in &mut self.teams {
                t.cards.clear();
            }
            for (corp, cards) in &p.cards {
                let t = self.team_of(*corp)?;
                for c in cards {
                    let i = deck
                        .iter()
                        .position(|d| d == c)
                        .ok_or(format!("two-use card {c} is not in the deck"))?;
                    deck.remove(i);
                }
                self.teams[usize::from(t)].cards = cards.clone();
            }
            if let Some(d) = self.edition.rules_mut().two_use_deck_mut() {
                *d = deck;
            }
        }
        for (corp, card) in &p.secondary {
            let t = usize::from(self.team_of(*corp)?);
            if self.rules.tables.secondary(*card).is_none() {
                return Err(format!("no secondary mission {card}"));
            }
            self.sec.kept[t] = Some(*card);
            self.sec.dealt = true;
        }
        for (corp, pp) in &p.pp {
            let t = usize::from(self.team_of(*corp)?);
            self.teams[t].pp = *pp;
            self.teams[t].rank = self.rules.rank_for(*pp);
        }
        if let Some(pp) = p.dl_pp {
            self.dl.pp = pp;
        }
        for (s, owner) in &p.traps {
            let owner = owner
                .as_deref()
                .map(|n| self.figure_by_name(n))
                .transpose()?;
            self.tokens.push(Token {
                square: *s,
                kind: TokenState::Trap { owner },
            });
        }
        for g in &p.doors_removed {
            *self.door_removed.get_mut(*g).ok_or("no such door group")? = true;
        }
        self.update_doors();
        for (tile, cards) in &p.face_down {
            self.tiles.get_mut(*tile).ok_or("no such tile")?.face_down = cards.clone();
        }
        if let Some(v) = &p.force_pile {
            self.force_pile = v.clone();
        }
        if let Some(v) = &p.event_deck {
            *self
                .edition
                .rules_mut()
                .event_deck_mut()
                .ok_or("this ruleset has no event deck")? = v.clone();
        }
        if let Some(v) = &p.door_deck {
            *self
                .edition
                .rules_mut()
                .door_deck_mut()
                .ok_or("this ruleset has no door deck")? = v.clone();
        }
        for (tile, corps) in &p.marked {
            let teams = corps
                .iter()
                .map(|c| self.team_of(*c))
                .collect::<Result<Vec<_>, _>>()?;
            self.tiles.get_mut(*tile).ok_or("no such tile")?.marked = teams;
        }
        let marker = |g: &Game, m: &TurnSpecMarker| -> Result<Side, String> {
            Ok(match m {
                TurnSpecMarker::DarkLegion => Side::DarkLegion,
                TurnSpecMarker::Corporation(c) => Side::Team(g.team_of(*c)?),
            })
        };
        let markers: Vec<Side> = match &p.markers {
            Some(v) => v
                .iter()
                .map(|m| marker(self, m))
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        let round = self.round;
        let rounds = self.rules.mission.rounds;
        self.edition.rules_mut().begin_round(round, rounds, markers);
        let turn = p
            .turn
            .clone()
            .unwrap_or(TurnSpec::Corporation(self.teams[0].corporation));
        self.active = None;
        self.card_played = false;
        self.clear_overrun();
        match turn {
            TurnSpec::Corporation(c) => {
                let team = self.team_of(c)?;
                self.phase = Phase::Corporation { team };
                for f in self.teams[usize::from(team)].figures {
                    let fig = &mut self.figures[f.index()];
                    fig.turn = Default::default();
                    fig.turn.allowed = 2;
                }
            }
            TurnSpec::DarkLegion => {
                self.phase = Phase::DarkLegion {
                    step: DlStep::Activation,
                };
                self.prepare_dl_activation();
            }
            TurnSpec::DarkLegionStart => {
                self.phase = Phase::DarkLegion {
                    step: DlStep::Start,
                }
            }
        }
        Ok(())
    }

    /// Run the automatic parts of the game (for a stated position whose
    /// turn starts with automatic steps, such as the DL turn start).
    pub fn settle(&mut self, dice: &mut dyn Dice) -> Vec<super::event::Event> {
        self.checkpoint.drop_it();
        let mut events = Vec::new();
        self.advance(dice, &mut events);
        events
    }

    /// A figure's id by its stable name (CONV-5).
    pub fn figure_id(&self, name: &str) -> Option<FigureId> {
        self.figure_by_name(name).ok()
    }

    /// A figure's stable name.
    pub fn figure_name(&self, id: FigureId) -> Option<&str> {
        self.names.get(id.index()).map(String::as_str)
    }

    /// The seat of a corporation.
    pub fn seat_of(&self, corp: Corporation) -> Option<Seat> {
        self.teams
            .iter()
            .find(|t| t.corporation == corp)
            .map(|t| t.seat)
    }
}
