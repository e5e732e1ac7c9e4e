//! The game state and its construction from a [`Setup`] (ce.md SET-1..7).

use super::event::{Event, Place};
use super::ids::{FigureId, Seat, Side};
use super::ruleset::hooks::ForceDeal;
use super::ruleset::EditionState;
use super::setup::{DarkLegionSetup, Setup, SetupError};
use crate::content::board::build_board;
use crate::content::missions::{Entrance, MissionDef, SpecialId, TokenKind};
use crate::content::tables::{CeTables, DtCardKind, EquipmentId, EventEffect, WeaponId};
use crate::content::{Content, Corporation, CreatureKind, Edition, Specialty};
use crate::dice::{shuffle_with, Dice};
use citadel_grid::{Board, Edge, Square, Walls};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// What never changes during a game: the mission, its board and the
/// edition tables. Shared by clones of the game (bots clone often).
#[derive(Debug, Serialize)]
pub struct Rules {
    /// The mission record.
    pub mission: MissionDef,
    /// The board.
    pub board: Board,
    /// The CE tables.
    pub tables: CeTables,
    /// White entrances, in mission order.
    pub white: Vec<Entrance>,
    /// Red entrances, in mission order.
    pub red: Vec<Entrance>,
    /// The entrances a DL figure may wait at: the red ones, then the white
    /// ones (classic events 1 and 7 let some creatures in through a white
    /// entrance). A waiting DL figure's entrance indexes this list, so a
    /// red entrance keeps its index.
    pub dl_entrances: Vec<Entrance>,
    /// Exits, in mission order.
    pub exits: Vec<Entrance>,
    /// Door groups: their edges.
    pub doors: Vec<Vec<Edge>>,
    /// Door groups: the squares that have one of the group's edges as a side.
    pub door_squares: Vec<Vec<Square>>,
    /// Door groups by edge (derived from `doors`).
    #[serde(skip)]
    pub(crate) door_index: super::door_index::DoorIndex,
    /// RANK_FN: the lowest PP of each rank, rank 1 first (CE RNK-1: every
    /// 10 PP up to rank 12; classic CRK-1: its own table up to rank 6).
    pub rank_min_pp: Vec<i32>,
    /// The definitions of the placed tiles, to build the board again when
    /// classic event 11 changes the layout ([`super::altered_reality`]).
    #[serde(skip)]
    pub(crate) tile_defs: Vec<crate::content::tiles::TileDef>,
    /// Classic CDT: the 13 two-use Doomtrooper cards (empty in other
    /// editions).
    #[serde(skip)]
    pub(crate) two_use_cards: Vec<crate::content::classic_tables::ClassicDtCardDef>,
    /// What the board alone says about each step (derived from `board`
    /// and `door_index`), for the move search.
    #[serde(skip)]
    pub(crate) step_table: super::step_table::StepTable,
    /// Each placed tile's on-board squares in `(y, x)` order (derived from
    /// `board`): placements and card squares ask for a tile's squares
    /// often, and the board can only find them by looking at every square.
    #[serde(skip)]
    pub(crate) tile_squares: Vec<Vec<Square>>,
    /// Each placed tile's side neighbours, ascending (derived from
    /// `board`): the listing of 1993 card plays asks for them on every
    /// call ([`Rules::side_adjacent_tiles`]).
    #[serde(skip)]
    pub(crate) tile_sides: Vec<Vec<usize>>,
    /// Classic Remote Controlled Door: the corridor edges of this board
    /// while no door is on it ([`Game::corridor_edges`]), found on first
    /// use.
    #[serde(skip)]
    pub(crate) corridor_memo: OnceLock<Vec<[Square; 2]>>,
    /// Classic event 11: the layout changes this board allows, each with
    /// its checked mission record and board, found on first use. Only the
    /// checks that depend on the game (where figures and tokens stand, the
    /// Remote Controlled Doors) are left to make per game.
    #[serde(skip)]
    pub(crate) sector_memo: OnceLock<Vec<super::altered_reality::BoardChange>>,
}

impl Rules {
    /// The on-board squares of placed tile `tile`, in `(y, x)` order (as
    /// `Board::tile_squares`, without looking at the whole board).
    pub(crate) fn tile_squares(&self, tile: usize) -> impl Iterator<Item = Square> + '_ {
        self.tile_squares.get(tile).into_iter().flatten().copied()
    }

    /// The tiles sharing a side with placed tile `tile` (a square of one
    /// orthogonally next to a square of the other), ascending.
    pub(crate) fn side_adjacent_tiles(&self, tile: usize) -> &[usize] {
        self.tile_sides.get(tile).map_or(&[], |v| &v[..])
    }

    /// The rank of `pp` (RNK-1, CRK-1).
    pub fn rank_for(&self, pp: i32) -> u8 {
        self.rank_min_pp.iter().filter(|&&m| pp >= m).count().max(1) as u8
    }

    /// The PP a side starts with at starting rank `rank`: the lowest PP of
    /// that rank (RNK-4, CRK-4).
    pub fn starting_pp(&self, rank: u8) -> i32 {
        let i = usize::from(rank.max(1)) - 1;
        self.rank_min_pp.get(i).copied().unwrap_or(0)
    }

    /// The highest rank of the edition.
    pub fn top_rank(&self) -> u8 {
        self.rank_min_pp.len() as u8
    }
}

/// What a figure is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FigureKind {
    /// A Doomtrooper of a team.
    Doomtrooper {
        /// Team index.
        team: u8,
        /// Specialty.
        specialty: Specialty,
    },
    /// A Dark Legion creature.
    Creature {
        /// Creature type.
        creature: CreatureKind,
    },
}

/// A figure's progress in the current turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Activation {
    /// Not activated yet this turn.
    #[default]
    Ready,
    /// Acting now.
    Active,
    /// Finished for this turn.
    Done,
}

/// Per-turn bookkeeping of one figure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FigureTurn {
    /// Activation state.
    pub activation: Activation,
    /// Actions taken this turn.
    pub used: u8,
    /// Actions available this turn (base + extras, cap 4, TRN-6).
    pub allowed: u8,
    /// Enemies adjacent at the end of its last Move (TAC-1 charge).
    pub charge: Vec<FigureId>,
    /// The previous action, for charge and concentration (TAC-1, TAC-3).
    pub last: Option<LastAction>,
    /// Concentrated fire bonus dice (TAC-3).
    pub fire_bonus: u8,
    /// Concentrated tech bonus dice (TAC-4).
    pub tech_bonus: u8,
    /// Phasing this activation (Molecular Phaser).
    pub phasing: bool,
    /// Movement Boost pending (allowance 5, not blocked).
    pub boost: bool,
    /// Rapid Reload pending (+1R on the next FA/TE attack).
    pub rapid_reload: bool,
    /// Weak Spot pending (next attack: DV −1, no defense die).
    pub weak_spot: bool,
    /// The classic Command Helmet's extra action was taken this turn
    /// (CXA-4: once per round).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub helmet_used: bool,
    /// Classic event 13 (Nepharite Timerift): one of this turn's actions is
    /// a Move not taken yet, so the last action left must be that Move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rift_move: bool,
}

/// The previous action of a figure this activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LastAction {
    /// A Move action.
    Move,
    /// A firearm attack on a figure.
    Fire(FigureId),
    /// A tech attack on a figure.
    Tech(FigureId),
    /// A terminal hack, by the terminal's square (TAC-4 counts it as a
    /// tech attack on the terminal).
    Hack(Square),
    /// A Nimrod attack on two figures (WPN-6: "an attack on" each).
    FireTwo(FigureId, FigureId),
    /// Anything else.
    Other,
}

/// One figure: a Doomtrooper or a miniature of the DL pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    /// Index in the figure table.
    pub id: FigureId,
    /// What it is.
    pub kind: FigureKind,
    /// Where it is.
    pub place: Place,
    /// Health (DTs; DL figures have 1).
    pub health: u8,
    /// Weapon (DTs).
    pub weapon: Option<WeaponId>,
    /// Non-weapon cards carried (DTs), in pick order.
    pub items: Vec<EquipmentId>,
    /// Per-turn bookkeeping.
    pub turn: FigureTurn,
    /// Skips its next DL activation (Commanding Voice).
    pub skip_activation: bool,
    /// A mission tag (`force_card_34`, `ezoghoul`) for MSN-2 `eliminated`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

impl Figure {
    /// The square, if on the board.
    pub fn square(&self) -> Option<Square> {
        match self.place {
            Place::Board { square } => Some(square),
            _ => None,
        }
    }

    /// The team index, for a DT.
    pub fn team(&self) -> Option<u8> {
        match self.kind {
            FigureKind::Doomtrooper { team, .. } => Some(team),
            FigureKind::Creature { .. } => None,
        }
    }

    /// The creature type, for a DL figure.
    pub fn creature(&self) -> Option<CreatureKind> {
        match self.kind {
            FigureKind::Creature { creature } => Some(creature),
            FigureKind::Doomtrooper { .. } => None,
        }
    }

    /// The specialty, for a DT.
    pub fn specialty(&self) -> Option<Specialty> {
        match self.kind {
            FigureKind::Doomtrooper { specialty, .. } => Some(specialty),
            FigureKind::Creature { .. } => None,
        }
    }

    /// The side it fights for.
    pub fn side(&self) -> Side {
        match self.kind {
            FigureKind::Doomtrooper { team, .. } => Side::Team(team),
            FigureKind::Creature { .. } => Side::DarkLegion,
        }
    }

    /// Still in the mission: on the board or waiting to enter (TRN-2).
    pub fn in_play(&self) -> bool {
        matches!(self.place, Place::Board { .. } | Place::Waiting { .. })
    }
}

/// A corporation team (one player's two DTs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    /// The player's seat.
    pub seat: Seat,
    /// Corporation.
    pub corporation: Corporation,
    /// The two Doomtroopers.
    pub figures: [FigureId; 2],
    /// Promotion points (PRM-1).
    pub pp: i32,
    /// Current rank (RNK-1, at once).
    pub rank: u8,
    /// Rank at mission start (credits, DT cards, abilities other than re-rolls).
    pub start_rank: u8,
    /// Credits left in the equipment draft.
    pub credits: u8,
    /// Doomtrooper cards in hand (secret, HID-2).
    pub hand: Vec<DtCardKind>,
    /// Classic CDT: the 1993 two-use Doomtrooper cards in hand, by card
    /// number (secret, HID-2). Empty in other rulesets, and then not
    /// serialized.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<u32>,
    /// The white entrance chosen (MOV-12), index into `Rules::white`.
    pub entrance: Option<u8>,
    /// Other teams may pass through (MOV-6).
    pub allow_pass: bool,
    /// Reckless-manoeuvre tokens (PPC-3).
    pub reckless: u8,
    /// The team's extra-action pool (classic CXA); always 0 in rulesets
    /// without one, and then not serialized, so their states are what
    /// they were before the pool existed.
    #[serde(default, skip_serializing_if = "super::view::is_zero")]
    pub extra_actions: u8,
    /// Holds the commander token (SET-6).
    pub commander: bool,
    /// Passed in the equipment draft.
    pub passed: bool,
    /// PP earned from eliminations this mission.
    pub kill_pp: i32,
}

/// The Dark Legion side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DarkLegion {
    /// The DL player's seat; with an AI DL, the extra seat the AI uses.
    pub seat: Seat,
    /// AI-controlled (SET-12).
    pub ai: bool,
    /// Promotion points.
    pub pp: i32,
    /// Band (DLB-1), fixed for the mission.
    pub band: u8,
}

/// A token on a square (BRD-4). Mission features that are not tokens
/// (desks) are not listed here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Token {
    /// Square.
    pub square: Square,
    /// What it is.
    pub kind: TokenState,
}

/// Token kinds the game tracks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "token", rename_all = "snake_case")]
pub enum TokenState {
    /// A mission token.
    Mission {
        /// Kind.
        kind: TokenKind,
        /// Name, if any.
        name: Option<String>,
        /// A terminal hacked by a TE Specialist (ce.md TAC-6): it stays on
        /// the board, marked.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        hacked: bool,
    },
    /// A trap owned by a DT (WPN-1); `None` for an unowned trap.
    Trap {
        /// Owner.
        owner: Option<FigureId>,
    },
    /// A time bomb of a team; it explodes at the start of the first DL
    /// turn of a later round (EQI Time Bomb).
    Bomb {
        /// Team.
        team: u8,
        /// Round it was placed in.
        round: u32,
    },
}

impl TokenState {
    /// Blocks movement (BRD-4 table).
    pub fn blocking(&self) -> bool {
        match self {
            TokenState::Mission { kind, .. } => !matches!(kind, TokenKind::Desk),
            TokenState::Trap { .. } | TokenState::Bomb { .. } => false,
        }
    }

    /// Gives cover (BRD-4 table).
    pub fn cover(&self) -> bool {
        matches!(
            self,
            TokenState::Mission {
                kind: TokenKind::Debris
                    | TokenKind::Terminal
                    | TokenKind::Turret
                    | TokenKind::Container,
                ..
            }
        )
    }
}

/// State of one tile.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileState {
    /// Face-down force cards (hidden, FRC-3).
    pub face_down: Vec<u32>,
    /// Teams whose token is on the tile (FOR-2), in marking order.
    pub marked: Vec<u8>,
    /// Smoke until the end of the round.
    pub smoke: bool,
}

/// Effects that last beyond one action (EVT-3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Effects {
    /// #1 rest of round.
    pub no_close_combat: bool,
    /// #5 rest of round.
    pub no_firearms: bool,
    /// #13 rest of round: no tech attacks and no terminal hacks (a
    /// terminal hack must check this flag too).
    pub no_tech: bool,
    /// #4 DL turn.
    pub cc_frenzy: bool,
    /// #7 DL turn.
    pub fa_wave: bool,
    /// #6 DL turn.
    pub necrofrenzy: bool,
    /// #9: single DL actions left this DL turn.
    pub dark_influence: u8,
    /// #8: DTs with 1 base action on their next turn.
    pub intercepted: Vec<FigureId>,
    /// #10: DTs blocked for the rest of the round.
    pub restrained: Vec<FigureId>,
    /// #11: teams that may not play DT cards on their next turn.
    pub no_cards: Vec<u8>,
    /// #2: a DL figure that loses 1 action this turn.
    pub teleported: Vec<FigureId>,
    /// #16, #17: (team, creature type) pairs: the team's DTs may not make
    /// close combat attacks on figures of that type until the end of the
    /// team's next turn (EVT-3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<(u8, CreatureKind)>>", optional))]
    pub no_cc_against: Vec<(u8, CreatureKind)>,
    /// #23 DL turn: Legionnaires +1 action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub legionnaire_frenzy: bool,
    /// #24 rest of round: Razides roll +1 white die on every attack.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub razide_fury: bool,
    /// #26 rest of round: DTs roll no defense die against these figures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<FigureId>>", optional))]
    pub berserk: Vec<FigureId>,
    /// Classic event 13 Nepharite Timerift, this DL turn: the Nepharite
    /// gets one more action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub nepharite_rift: bool,
    /// Classic event 9 Misinterpreted Orders: (team, round) — in that
    /// round the team's two DTs have one base action each, 2 in all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<(u8, u32)>>", optional))]
    pub misinterpreted: Vec<(u8, u32)>,
    /// Classic Molecular Phaser: teams whose DTs phase until the round
    /// ends.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<u8>>", optional))]
    pub phasing_teams: Vec<u8>,
    /// Classic "next round" events (CEV-1) drawn this round, in force from
    /// the start of the next one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<EventEffect>>", optional))]
    pub next_round: Vec<EventEffect>,
    /// Classic CDT: lasting effects of the 1993 Doomtrooper cards, each
    /// with its duration (shown to everyone in the view).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        feature = "ts",
        ts(as = "Option<Vec<super::two_use::CardEffect>>", optional)
    )]
    pub cards: Vec<super::two_use::CardEffect>,
}

/// The phase of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The equipment draft (EQP-5): `order` lists teams, `next` indexes it.
    Equipment {
        /// Teams in picking order.
        order: Vec<u8>,
        /// Index of the team to pick.
        next: usize,
    },
    /// A corporation team's turn.
    Corporation {
        /// Team.
        team: u8,
    },
    /// The Dark Legion turn, at a step of DL-3.
    DarkLegion {
        /// Step.
        step: DlStep,
    },
    /// The mission is over.
    Finished,
}

/// Steps of the Dark Legion turn (DL-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DlStep {
    /// Before step 1 (time bombs).
    Start,
    /// Step 1 after the Dark Legion declared its reinforcement call
    /// (classic CEV-2).
    Event,
    /// Step 2.
    Reinforcements,
    /// Step 3.
    Reveal,
    /// Step 4, waiting for the DL's actions.
    Activation,
}

/// A decision the game waits for (core CONV-8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// MOV-12: pick a white entrance for the team.
    WhiteEntrance {
        /// Team.
        team: u8,
    },
    /// DL-4: pick a red entrance for a reinforcement.
    RedEntrance {
        /// Creature to send.
        kind: CreatureKind,
    },
    /// A choice force card (FRC-5, FOR-3).
    ForceOption {
        /// Card.
        card: u32,
        /// Where the figures go: a tile, or red entrances if `None`.
        tile: Option<usize>,
    },
    /// FRC-5: place figures on a tile, one per answer.
    PlaceFigures {
        /// Tile.
        tile: usize,
        /// Creatures still to place.
        kinds: Vec<CreatureKind>,
    },
    /// A mission rule places a DL figure on an empty square adjacent
    /// (ADJ-4) to `near` (C2M4 `nepharite_summoning`).
    PlaceNear {
        /// The creature.
        kind: CreatureKind,
        /// The square the figure goes next to (a portal).
        near: Square,
    },
    /// DL-3 step 3: the tile whose face-down card is turned over.
    RevealTile,
    /// Classic CEV-2: before the event is drawn, "call" its reinforcements
    /// (spending one of the mission's calls) or "no call".
    CallReinforcements {
        /// Calls left before this one.
        calls_left: u8,
    },
    /// An event target figure (#2 figure, #3, #8, #12).
    EventFigure {
        /// Event card.
        card: u32,
    },
    /// An event target tile (#2 destination, #10).
    EventTile {
        /// Event card.
        card: u32,
        /// For #2: the figure being teleported.
        figure: Option<FigureId>,
    },
    /// Classic #11 Nepharite Altered Reality: turn a sector, swap two, or
    /// leave the board as it is.
    AlterSectors {
        /// Event card.
        card: u32,
    },
    /// #2: the square on the chosen tile.
    EventSquare {
        /// Event card.
        card: u32,
        /// Figure.
        figure: FigureId,
        /// Tile.
        tile: usize,
    },
    /// #11: a corporation.
    EventCorporation {
        /// Event card.
        card: u32,
    },
    /// MOV-12 "start on tile T": the owner places `figure` on the tile.
    StartSquare {
        /// Team.
        team: u8,
        /// The DT to place.
        figure: FigureId,
    },
    /// A mission placement (C2M5): the DL places a creature on one of the
    /// listed squares; the placed figure gets `tag`.
    MissionPlacement {
        /// Creature.
        kind: CreatureKind,
        /// The squares it may go on, in `(y, x)` order.
        squares: Vec<Square>,
        /// Tag for MSN-2 `eliminated`.
        tag: Option<String>,
    },
    /// C2M1 special setup: the DL places a debris token on tile 1.
    DebrisSquare {
        /// Tokens still to place, this one included.
        left: u8,
    },
    /// #12: the owner picks a non-weapon card to discard.
    DiscardItem {
        /// The DT.
        figure: FigureId,
    },
    /// SET-10: the team keeps one of the 2 secondary missions it drew
    /// (the cards are shown only to its owner, in its view).
    KeepSecondary {
        /// Team.
        team: u8,
    },
    /// Classic CDT-1: at the start of a turn, the owner of `team` may
    /// play one of its 1993 Doomtrooper cards (`play_two_use`) or pass.
    CardWindow {
        /// The team.
        team: u8,
    },
    /// Classic CDT: the square a played card needs (Limited or Faulty
    /// Teleportation), answered with `choose_square`.
    CardSquare {
        /// The player who played the card.
        team: u8,
        /// The use played.
        card_use: crate::content::classic_tables::ClassicDtUse,
        /// The DT that goes there.
        figure: FigureId,
    },
    /// Classic CDT: the Move actions a played card gives (Movement Boost:
    /// one free Move for each listed DT; False Orders: `left` Moves of any
    /// listed DT). Answered with `move` or `pass_card`.
    CardMove {
        /// The player who played the card (who chooses the paths).
        team: u8,
        /// The use played.
        card_use: crate::content::classic_tables::ClassicDtUse,
        /// The DTs that may still move.
        figures: Vec<FigureId>,
        /// Moves left.
        left: u8,
    },
    /// Classic Commanding Voice: the player controls the DL `figure` for
    /// `left` more actions (Move, or an attack on another DL figure),
    /// answered with `move`, `attack` or `pass_card`.
    CardControl {
        /// The player who played the card.
        team: u8,
        /// The DL figure controlled.
        figure: FigureId,
        /// Actions left.
        left: u8,
    },
    /// DTC-CE-3: the owner of `figure` may play a reaction card now.
    Reaction {
        /// The owner's team.
        team: u8,
        /// The DT concerned.
        figure: FigureId,
        /// Which window.
        window: super::reaction::Window,
        /// The roll that opened it (empty for Last Stand).
        dice: Vec<super::event::DieRoll>,
    },
}

/// A decision and who must answer it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Who answers.
    pub seat: Seat,
    /// What.
    pub decision: Decision,
}

/// A game of Siege of the Citadel in progress.
///
/// Built by [`Game::new`]; changed only by [`Game::apply`], which either
/// applies a whole command or leaves the game untouched.
#[derive(Clone, Debug, Serialize)]
pub struct Game {
    #[serde(skip)]
    pub(crate) rules: Arc<Rules>,
    /// Figure names (CONV-5), by figure index; shared because they never
    /// change and a game is cloned often.
    pub(crate) names: Arc<[String]>,
    pub(crate) setup: Arc<Setup>,
    pub(crate) phase: Phase,
    pub(crate) round: u32,
    pub(crate) final_round: bool,
    pub(crate) teams: Vec<Team>,
    pub(crate) dl: DarkLegion,
    pub(crate) figures: Vec<Figure>,
    pub(crate) walls: Walls,
    /// Door groups: removed (BRD-6).
    pub(crate) door_removed: Vec<bool>,
    pub(crate) tokens: Vec<Token>,
    pub(crate) tiles: Vec<TileState>,
    pub(crate) force_pile: Vec<u32>,
    pub(crate) force_discard: Vec<u32>,
    /// What the ruleset adds to the shared core (turn order, event, door
    /// and Doomtrooper decks): see [`super::ruleset`]. Flattened, so the
    /// serialized state keeps one level of keys whatever the ruleset.
    #[serde(flatten)]
    pub(crate) edition: EditionState,
    /// The AI deck (AI-1), only with an AI Dark Legion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ai_deck: Option<super::ai_deck::AiDeck>,
    pub(crate) pending: VecDeque<Pending>,
    /// The figure acting now.
    pub(crate) active: Option<FigureId>,
    /// A DT card was played this turn (DTC-CE-1).
    pub(crate) card_played: bool,
    /// TAC-2: the CC Specialist may step into this square now.
    pub(crate) overrun: Option<(FigureId, Square)>,
    /// TAC-2 after a Violator swing: the other vacated squares the
    /// specialist may pick instead of `overrun`'s.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) overrun_extra: Vec<Square>,
    pub(crate) effects: Effects,
    /// MSN-3 counters: (action id, times).
    pub(crate) specials: Vec<(SpecialId, u32)>,
    /// `ONCE=yes` special actions: the (action, feature square) pairs
    /// already counted (each feature counts once).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) specials_at: Vec<(SpecialId, Square)>,
    /// Mission tokens removed by attack (core ATK-16, DEF-6), as they were
    /// when removed, in order; the `destroyed(...)` goal reads them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) destroyed: Vec<Token>,
    /// Figure on each square, indexed `y * width + x`.
    #[serde(skip)]
    pub(crate) occupancy: Vec<Option<FigureId>>,
    /// Mission result once finished.
    pub(crate) result: Option<super::event::MissionResult>,
    /// A command waiting for a reaction answer (DTC-CE-3).
    pub(crate) suspended: Option<Box<super::reaction::Suspended>>,
    /// Reaction bookkeeping of the command being run.
    pub(crate) reaction: super::reaction::ReactionRun,
    /// The state some commands back, to rebuild the state before a
    /// command when a reaction window opens (not part of the game: a
    /// clone or a stored game has none).
    #[serde(skip)]
    pub(crate) checkpoint: super::reaction::Checkpoint,
    /// Secondary missions and their proof (SEC, MSN-7). Serialized only
    /// once dealt, so the state (and its checksum) of a mission without
    /// secondary missions is what it was before they existed.
    #[serde(skip_serializing_if = "super::secondary::Secondaries::unused")]
    pub(crate) sec: super::secondary::Secondaries,
    /// Mission progress beyond the special-action counters (MSN-2, MSN-4).
    #[serde(skip_serializing_if = "MissionProgress::is_empty")]
    pub(crate) mission: MissionProgress,
    /// Classic event 11: the layout changes made so far, in order (the
    /// board is in the rules; this puts it in the state and its checksum).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) layout_changes: Vec<super::altered_reality::SectorChange>,
    /// Classic Remote Controlled Door: doors placed by the card, each on
    /// the edge between its two squares; a wall for everyone until
    /// destroyed (empty otherwise, and then not serialized).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) card_doors: Vec<[Square; 2]>,
    /// Classic CSM-2: the credit changes of the mission result, set when
    /// it ends (credits themselves are the campaign's). Empty, and not
    /// serialized, in CE.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) credits: Vec<super::secondary::CreditAward>,
}

/// What the mission goals read beyond the special-action counters: which
/// exit each DT took, carried objective tokens, eliminated tags, and tags
/// waiting for the next placement of a creature kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissionProgress {
    /// Exited DTs and the entrance or exit each left by (MOV-14).
    pub exits: Vec<(FigureId, String)>,
    /// Objective tokens carried now: token name, carrier (MSN-4).
    pub carried: Vec<(String, FigureId)>,
    /// Objective tokens that left the board with their carrier: token
    /// name, exit id.
    pub carried_out: Vec<(String, String)>,
    /// Tags of eliminated figures (latching, MSN-2).
    pub eliminated_tags: Vec<String>,
    /// A tag for the next figure of this kind placed (card 34, C1M4).
    pub next_tags: Vec<(CreatureKind, String)>,
    /// Mission arrivals already run (C2M5 `ezoghoul`).
    pub arrivals: Vec<String>,
    /// `then(first, next)`: the exits made when `first` first held.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then_mark: Option<u32>,
}

impl MissionProgress {
    fn is_empty(&self) -> bool {
        *self == MissionProgress::default()
    }
}

impl Game {
    /// Validate `setup` and start the game (SET-1..7): the DL is drawn,
    /// decks are shuffled, force cards dealt and the equipment draft opens.
    /// All chance comes from `dice`.
    ///
    /// # Errors
    /// [`SetupError`] says what is wrong with the setup.
    pub fn new(setup: Setup, dice: &mut dyn Dice) -> Result<(Game, Vec<Event>), SetupError> {
        let content = Content::embedded().map_err(|e| SetupError::Content(e.to_string()))?;
        Game::with_content(setup, content, dice)
    }

    /// [`Game::new`] with replacement content.
    ///
    /// # Errors
    /// [`SetupError`] says what is wrong with the setup.
    pub fn with_content(
        setup: Setup,
        content: &Content,
        dice: &mut dyn Dice,
    ) -> Result<(Game, Vec<Event>), SetupError> {
        Game::build(setup, content, dice, true)
    }

    /// [`Game::new`] without the playability check ([`super::playable`]):
    /// for tests of the implemented rules of a mission that is not
    /// playable as a whole yet (scenario tests, [`Game::scenario`]). A
    /// real game never uses it.
    ///
    /// # Errors
    /// [`SetupError`] says what is wrong with the setup.
    #[doc(hidden)]
    pub fn new_unchecked(
        setup: Setup,
        dice: &mut dyn Dice,
    ) -> Result<(Game, Vec<Event>), SetupError> {
        let content = Content::embedded().map_err(|e| SetupError::Content(e.to_string()))?;
        Game::build(setup, content, dice, false)
    }

    /// [`Game::new_unchecked`] with replacement content.
    ///
    /// # Errors
    /// [`SetupError`] says what is wrong with the setup.
    #[doc(hidden)]
    pub fn with_content_unchecked(
        setup: Setup,
        content: &Content,
        dice: &mut dyn Dice,
    ) -> Result<(Game, Vec<Event>), SetupError> {
        Game::build(setup, content, dice, false)
    }

    pub(crate) fn build(
        setup: Setup,
        content: &Content,
        dice: &mut dyn Dice,
        check_playable: bool,
    ) -> Result<(Game, Vec<Event>), SetupError> {
        let mission = content
            .mission(&setup.mission)
            .ok_or_else(|| SetupError::UnknownMission(setup.mission.clone()))?;
        if mission.edition != setup.ruleset.content_edition()
            || (check_playable && !super::playable::is_playable(mission))
        {
            return Err(SetupError::MissionNotPlayable(mission.id.clone()));
        }
        validate_seats(&setup)?;
        let rules = shared_rules(content, mission)?;
        if usize::from(setup.starting_rank) > rules.rank_min_pp.len() {
            return Err(SetupError::BadRank);
        }
        Ok(Game::start(rules, setup, dice))
    }

    fn start(rules: Arc<Rules>, setup: Setup, dice: &mut dyn Dice) -> (Game, Vec<Event>) {
        let mut events = Vec::new();
        let players = setup.seats.len() as u8;
        // SET-2: the DL player (core CMP-2: at random among all players).
        let (dl_seat, ai) = match setup.dark_legion {
            DarkLegionSetup::Ai => (Seat(players), true),
            DarkLegionSetup::Seat(s) => (Seat(s), false),
            DarkLegionSetup::Drawn => (Seat(dice.below(u32::from(players)) as u8), false),
        };
        let start_pp = rules.starting_pp(setup.starting_rank);
        let tables = &rules.tables;
        let hooks = setup.ruleset.hooks();

        // Figures: the DTs of each corporation team, then the DL pool (DL-1).
        let mut figures = Vec::new();
        let mut names = Vec::new();
        let mut teams = Vec::new();
        for (i, seat) in setup.seats.iter().enumerate() {
            let seat_id = Seat(i as u8);
            if !ai && seat_id == dl_seat {
                continue; // SET-2: the DL's own DTs sit out.
            }
            let team = teams.len() as u8;
            let picks = seat
                .doomtroopers
                .unwrap_or([Specialty::Firearms, Specialty::CloseCombat]);
            let corp = tables
                .corporations
                .iter()
                .find(|c| c.id == seat.corporation);
            let mut ids = [FigureId(0); 2];
            for (k, spec) in picks.iter().enumerate() {
                let name = corp
                    .and_then(|c| c.roster.iter().find(|r| r.specialty == *spec))
                    .map(|r| r.name.clone())
                    .unwrap_or_else(|| format!("{spec:?}"));
                let id = FigureId(figures.len() as u16);
                ids[k] = id;
                names.push(format!(
                    "{}-{}",
                    seat.corporation.id(),
                    name.to_lowercase()
                        .replace([' ', '.'], "_")
                        .replace("__", "_")
                ));
                figures.push(Figure {
                    id,
                    kind: FigureKind::Doomtrooper {
                        team,
                        specialty: *spec,
                    },
                    place: Place::Reserve,
                    health: 5,
                    weapon: Some(tables.base_weapon(*spec)),
                    items: Vec::new(),
                    turn: FigureTurn::default(),
                    skip_activation: false,
                    tag: None,
                });
            }
            let pp = seat.pp.unwrap_or(start_pp).max(0);
            let rank = rules.rank_for(pp);
            // A classic campaign carries each team's credits (CEC-1) in
            // place of the rank's single-mission credits (CRK-4).
            let credits = seat
                .credits
                .unwrap_or_else(|| {
                    tables
                        .ranks
                        .get(usize::from(rank) - 1)
                        .map_or(0, |r| r.credits)
                })
                .saturating_add((hooks.bonus_credits)(seat.corporation, rank));
            let extra_actions = hooks
                .extra_action_pool
                .map_or(0, |p| (p.at_start)(rank).min(p.cap));
            teams.push(Team {
                seat: seat_id,
                corporation: seat.corporation,
                figures: ids,
                pp,
                rank,
                start_rank: rank,
                credits,
                hand: Vec::new(),
                cards: Vec::new(),
                entrance: None,
                allow_pass: true,
                reckless: 0,
                extra_actions,
                commander: false,
                passed: false,
                kill_pp: 0,
            });
        }
        for def in &tables.creatures {
            // Core DL-1, with the mission's POOL overrides (FIGURE figures
            // come from the pool).
            for n in 1..=rules.mission.pool_size(def.kind, def.pool) {
                let id = FigureId(figures.len() as u16);
                names.push(format!("{}#{n}", def.kind.id()));
                figures.push(Figure {
                    id,
                    kind: FigureKind::Creature { creature: def.kind },
                    place: Place::Reserve,
                    health: 1,
                    weapon: None,
                    items: Vec::new(),
                    turn: FigureTurn::default(),
                    skip_activation: false,
                    tag: None,
                });
            }
        }
        let dl_pp = if ai {
            start_pp
        } else {
            setup
                .seats
                .get(usize::from(dl_seat.0))
                .and_then(|s| s.pp)
                .unwrap_or(start_pp)
                .max(0)
        };
        // DLB-1: the rank of the second corporation player by PP (or the only one).
        let mut pps: Vec<i32> = teams.iter().map(|t| t.pp).collect();
        pps.sort_unstable_by(|a, b| b.cmp(a));
        let r = rules.rank_for(pps.get(1).or(pps.first()).copied().unwrap_or(0));
        // A campaign may fix the band (classic CDL-1 counts the DL
        // player's rank too, which only the campaign knows as a rank).
        let band = match setup.dl_band {
            Some(b) => b.clamp(1, 6), // the creature tables have 6 bands
            None => (hooks.band_for_rank)(r),
        };
        // SET-6: commander.
        let commander = if teams.len() >= 2 {
            let max = pps[0];
            let top: Vec<usize> = (0..teams.len()).filter(|&i| teams[i].pp == max).collect();
            if top.len() == 1 {
                teams[top[0]].commander = true;
                Some(teams[top[0]].seat)
            } else {
                None
            }
        } else {
            None
        };

        // SET-4: the edition's event deck (EVT-1).
        let mut edition = EditionState::new(setup.ruleset);
        edition.rules_mut().deal_events(&rules.mission, dice);
        edition.rules_mut().begin_mission(teams.len());
        // SET-5: force cards (FOR-1): all of a tile's cards at once, tiles
        // in layout order, from the top of the shuffled deck.
        let mut force: Vec<u32> = rules.mission.force_cards.clone();
        let per_tile = teams.len();
        if rules.mission.has_rule(SPECIAL_DEAL_34) {
            let dealt_tiles = rules.mission.layout.cells.iter();
            let dealt = per_tile * dealt_tiles.filter(|c| !c.no_force).count();
            force = special_deal_34(&force, dealt, dice);
        } else {
            shuffle_with(dice, &mut force);
        }
        let mut tiles = vec![TileState::default(); rules.board.tiles.len()];
        let deal = match hooks.force_deal {
            ForceDeal::PerPlayerPerTile => deal_per_tile(&rules, &mut force, per_tile, &mut tiles),
            ForceDeal::OnePerSectorRestToCitadel => {
                deal_classic(&rules, &mut force, teams.len(), &mut tiles, dice)
            }
        };
        // The edition's other decks (DOR-2, DTC-CE-2).
        edition.rules_mut().deal_decks(tables, dice);
        // Classic CDT-1: the two-use cards (no dice in other editions).
        let two_use: Vec<u32> = rules.two_use_cards.iter().map(|c| c.number).collect();
        edition.rules_mut().shuffle_two_use(&two_use, dice);
        // AI-1: the AI deck is shuffled at mission start (an AI DL only, so
        // a game with a DL player draws exactly the same dice as before).
        let ai_deck = ai.then(|| super::ai_deck::AiDeck::shuffled(dice));

        // Mission tokens (desks are features, not tokens).
        let tokens = rules
            .mission
            .tokens
            .iter()
            .filter(|t| t.kind != TokenKind::Desk)
            .map(|t| Token {
                square: t.square,
                kind: TokenState::Mission {
                    kind: t.kind,
                    name: t.name.clone(),
                    hacked: false,
                },
            })
            .collect();

        // EQP-5: in a campaign the lowest PP picks first, ties at random
        // (only campaign games draw these dice); a single mission starts
        // after the DL in seat order.
        let mut order: Vec<u8> = (0..teams.len() as u8).collect();
        if setup.campaign {
            shuffle_with(dice, &mut order);
            order.sort_by_key(|&t| teams[usize::from(t)].pp);
        } else if !ai {
            order.sort_by_key(|&t| {
                let s = teams[usize::from(t)].seat.0;
                (s + players - dl_seat.0 - 1) % players
            });
        }
        let mut walls = Walls::new(&rules.board);
        walls.set_closed_doors(rules.doors.iter().flatten().copied());
        let area = (rules.board.width() * rules.board.height()) as usize;
        let door_count = rules.doors.len();
        let team_count = teams.len();
        let mut game = Game {
            rules,
            names: names.into(),
            setup: Arc::new(setup),
            phase: Phase::Equipment { order, next: 0 },
            round: 0,
            final_round: false,
            teams,
            dl: DarkLegion {
                seat: dl_seat,
                ai,
                pp: dl_pp,
                band,
            },
            figures,
            walls,
            door_removed: vec![false; door_count],
            tokens,
            tiles,
            force_pile: force,
            force_discard: Vec::new(),
            edition,
            ai_deck,
            pending: VecDeque::new(),
            active: None,
            card_played: false,
            overrun: None,
            overrun_extra: Vec::new(),
            effects: Effects::default(),
            specials: Vec::new(),
            specials_at: Vec::new(),
            destroyed: Vec::new(),
            occupancy: vec![None; area],
            result: None,
            suspended: None,
            reaction: Default::default(),
            checkpoint: Default::default(),
            sec: super::secondary::Secondaries::new(team_count),
            mission: MissionProgress::default(),
            layout_changes: Vec::new(),
            card_doors: Vec::new(),
            credits: Vec::new(),
        };
        // The mission's FIGURE figures (classic bosses), then the decisions
        // the mission asks before play (C2M1, C2M5).
        game.place_mission_figures(&mut events);
        game.queue_mission_setup();
        events.push(Event::GameStarted {
            dark_legion: (!ai).then_some(dl_seat),
            band,
            commander,
        });
        for (tile, count) in deal {
            events.push(Event::ForceCardsDealt { tile, count });
        }
        (game.clone_with_advance(dice, &mut events), events)
    }

    /// Runs the automatic parts of the game after setup.
    fn clone_with_advance(mut self, dice: &mut dyn Dice, events: &mut Vec<Event>) -> Game {
        self.advance(dice, events);
        self
    }
}

fn validate_seats(setup: &Setup) -> Result<(), SetupError> {
    let n = setup.seats.len();
    let ai = setup.dark_legion == DarkLegionSetup::Ai;
    let allowed = super::setup::player_counts(ai);
    if !u8::try_from(n).is_ok_and(|n| allowed.contains(&n)) {
        return Err(SetupError::PlayerCount);
    }
    if let DarkLegionSetup::Seat(s) = setup.dark_legion {
        if usize::from(s) >= n {
            return Err(SetupError::BadDarkLegionSeat);
        }
    }
    for (i, a) in setup.seats.iter().enumerate() {
        if setup.seats[..i]
            .iter()
            .any(|b| b.corporation == a.corporation)
        {
            return Err(SetupError::DuplicateCorporation);
        }
        if let Some([x, y]) = a.doomtroopers {
            if x == y {
                return Err(SetupError::BadTeam);
            }
        }
    }
    if !super::setup::STARTING_RANKS.contains(&setup.starting_rank) {
        return Err(SetupError::BadRank);
    }
    Ok(())
}

/// FOR-1 (CE): `per_tile` cards on each tile, tiles in layout order, from
/// the top of the shuffled deck; returns how many each tile got.
fn deal_per_tile(
    rules: &Rules,
    force: &mut Vec<u32>,
    per_tile: usize,
    tiles: &mut [TileState],
) -> Vec<(usize, u8)> {
    let mut deal = Vec::new();
    // Board tiles are placed in layout order, so `t` indexes both.
    for (t, slot) in rules.mission.layout.cells.iter().enumerate() {
        if slot.no_force {
            continue;
        }
        let n = per_tile.min(force.len());
        // The pile's top is its end.
        tiles[t].face_down = force.split_off(force.len() - n);
        deal.push((t, n as u8));
    }
    deal
}

/// Classic CFC-2/3: remove cards at random by the number of corporation
/// teams (3 with 1 team, 2 with 2, 1 with 3, none with 4 or more; no
/// classic mission lists key cards), deal one card to each sector in
/// layout order while cards remain, then the rest one at a time to a
/// Citadel sector at random (MAP-22), or to any sector without a Citadel.
/// Nothing is left over: classic has no draw pile (FRC-2).
fn deal_classic(
    rules: &Rules,
    force: &mut Vec<u32>,
    teams: usize,
    tiles: &mut [TileState],
    dice: &mut dyn Dice,
) -> Vec<(usize, u8)> {
    let removed = 4usize.saturating_sub(teams).min(3).min(force.len());
    // The deck is shuffled: its top `removed` cards are a random pick.
    force.truncate(force.len() - removed);
    let sectors: Vec<usize> = rules
        .mission
        .layout
        .cells
        .iter()
        .enumerate()
        .filter(|(_, slot)| !slot.no_force)
        .map(|(t, _)| t)
        .collect();
    for &t in &sectors {
        if let Some(card) = force.pop() {
            tiles[t].face_down.push(card);
        }
    }
    let mut citadel: Vec<usize> = rules
        .mission
        .citadel
        .map(|c| {
            let (x, y) = (c.x, c.y);
            [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
                .into_iter()
                .filter_map(|(x, y)| rules.board.tile_of(Square::new(x, y)))
                .collect()
        })
        .unwrap_or_default();
    citadel.sort_unstable();
    citadel.dedup();
    let targets = if citadel.is_empty() {
        &sectors
    } else {
        &citadel
    };
    while !targets.is_empty() {
        let Some(card) = force.pop() else { break };
        let t = targets[dice.below(targets.len() as u32) as usize];
        tiles[t].face_down.push(card);
    }
    let mut deal: Vec<(usize, u8)> = (0..tiles.len())
        .filter(|&t| !tiles[t].face_down.is_empty())
        .map(|t| (t, tiles[t].face_down.len() as u8))
        .collect();
    deal.sort_unstable();
    deal
}

/// Mission rule key of C1M4's special deal.
pub(crate) const SPECIAL_DEAL_34: &str = "special_deal_34";
/// C1M4: the force card whose Nepharite is the mission's goal.
pub(crate) const C1M4_GOAL_CARD: u32 = 34;
/// C1M4: the special deal draws the cards on the tiles from 1 to this.
const C1M4_DEALT_UP_TO: u32 = 32;

/// C1M4's special deal (missions.md): S = `dealt` cards at random from
/// 1–32, one random card of S replaced by card 34, S shuffled; everything
/// else of `force` (the rest of 1–32, the replaced card, 36, 37–44)
/// shuffled into the draw pile. Returns the whole deck with S on top (the
/// end), so FOR-1 deals exactly S onto the tiles.
pub(crate) fn special_deal_34(force: &[u32], dealt: usize, dice: &mut dyn Dice) -> Vec<u32> {
    let mut low: Vec<u32> = force
        .iter()
        .copied()
        .filter(|c| *c <= C1M4_DEALT_UP_TO)
        .collect();
    let mut rest: Vec<u32> = force
        .iter()
        .copied()
        .filter(|c| *c > C1M4_DEALT_UP_TO && *c != C1M4_GOAL_CARD)
        .collect();
    shuffle_with(dice, &mut low);
    let n = dealt.min(low.len());
    let mut s = low.split_off(low.len() - n);
    rest.append(&mut low);
    if force.contains(&C1M4_GOAL_CARD) {
        if s.is_empty() {
            rest.push(C1M4_GOAL_CARD);
        } else {
            let i = dice.below(s.len() as u32) as usize;
            rest.push(s[i]);
            s[i] = C1M4_GOAL_CARD;
        }
    }
    shuffle_with(dice, &mut s);
    shuffle_with(dice, &mut rest);
    rest.extend(s);
    rest
}

/// RNK-1: rank from PP.
pub fn rank_for(pp: i32) -> u8 {
    (1 + pp.max(0) / 10).min(12) as u8
}

/// RNK-4 / CMP-1: the PP a side starts with at starting rank R0, the
/// lowest PP of that rank (`10·(R0−1)`).
pub fn starting_pp(starting_rank: u8) -> i32 {
    10 * (i32::from(starting_rank) - 1)
}

/// COR-1: N by rank.
pub fn ability_n(rank: u8) -> u8 {
    match rank {
        0..=6 => 1,
        7..=11 => 2,
        _ => 3,
    }
}

/// The rules of `mission`: built once per mission and shared by every game
/// when `content` is the embedded content (it cannot change, so what is
/// derived from it cannot go stale), built per game from any other content.
/// Sharing is what lets [`Rules::sector_memo`] serve every game.
fn shared_rules(content: &Content, mission: &MissionDef) -> Result<Arc<Rules>, SetupError> {
    let embedded = Content::embedded().is_ok_and(|e| std::ptr::eq(e, content));
    if !embedded {
        return build_rules(content, mission.clone()).map(Arc::new);
    }
    static SHARED: OnceLock<Mutex<HashMap<String, Arc<Rules>>>> = OnceLock::new();
    let shared = SHARED.get_or_init(Mutex::default);
    // A panic elsewhere while holding the lock leaves the map intact.
    let mut shared = shared.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(rules) = shared.get(&mission.id) {
        return Ok(Arc::clone(rules));
    }
    let rules = Arc::new(build_rules(content, mission.clone())?);
    shared.insert(mission.id.clone(), Arc::clone(&rules));
    Ok(rules)
}

/// Build the rules of `mission` from `content` (its board, entrances,
/// doors and the edition's tables).
fn build_rules(content: &Content, mission: MissionDef) -> Result<Rules, SetupError> {
    let board = build_board(
        &mission.layout,
        content.tiles(mission.edition),
        mission.citadel,
    )
    .map_err(SetupError::BadMission)?;
    let resolve = |list: &[(String, crate::content::missions::EntranceRef)]| {
        list.iter()
            .map(|(id, e)| MissionDef::resolve_entrance(&board, mission.citadel, id, e))
            .collect::<Result<Vec<_>, _>>()
            .map_err(SetupError::BadMission)
    };
    let white = resolve(&mission.white)?;
    let red = resolve(&mission.red)?;
    let exits = resolve(&mission.exits)?;
    let doors = mission.doors.clone();
    let door_squares = doors
        .iter()
        .map(|g| {
            let mut v: Vec<Square> = g
                .iter()
                .flat_map(|e| {
                    let (a, b) = e.squares();
                    [a, b]
                })
                .filter(|s| board.on_board(*s))
                .collect();
            v.sort();
            v.dedup();
            v
        })
        .collect();
    let (tables, rank_min_pp, two_use_cards) = match mission.edition {
        Edition::Ce => (
            content.ce.clone(),
            (0..12).map(|r| 10 * r).collect::<Vec<i32>>(),
            Vec::new(),
        ),
        Edition::Classic => (
            content.classic.base.clone(),
            content.classic.rank_min_pp.clone(),
            content.classic.dt_cards.clone(),
        ),
    };
    let tile_defs =
        super::altered_reality::placed_tile_defs(&mission, content.tiles(mission.edition));
    let door_index = super::door_index::DoorIndex::new(&doors, board.width(), board.height());
    let step_table = super::step_table::StepTable::new(&board, &door_index);
    let (tile_squares, tile_sides) = tile_derived(&board);
    let dl_entrances = red.iter().chain(&white).cloned().collect();
    Ok(Rules {
        mission,
        board,
        tables,
        dl_entrances,
        white,
        red,
        exits,
        doors,
        door_squares,
        door_index,
        rank_min_pp,
        tile_defs,
        two_use_cards,
        step_table,
        tile_squares,
        tile_sides,
        corridor_memo: OnceLock::new(),
        sector_memo: OnceLock::new(),
    })
}

impl Rules {
    /// These rules over another layout of the same mission (classic event
    /// 11): what derives from the board is worked out again and the memos
    /// start empty. No sector holding a door moves, so the doors and their
    /// index stay right.
    pub(crate) fn with_board(&self, mission: MissionDef, board: Board) -> Rules {
        let step_table = self
            .step_table
            .rebuilt(&self.board, &board, &self.door_index);
        let (tile_squares, tile_sides) = tile_derived(&board);
        Rules {
            mission,
            board,
            tables: self.tables.clone(),
            white: self.white.clone(),
            red: self.red.clone(),
            dl_entrances: self.dl_entrances.clone(),
            exits: self.exits.clone(),
            doors: self.doors.clone(),
            door_squares: self.door_squares.clone(),
            door_index: self.door_index.clone(),
            rank_min_pp: self.rank_min_pp.clone(),
            tile_defs: self.tile_defs.clone(),
            two_use_cards: self.two_use_cards.clone(),
            step_table,
            tile_squares,
            tile_sides,
            corridor_memo: OnceLock::new(),
            sector_memo: OnceLock::new(),
        }
    }
}

/// What [`Rules`] derives from its board's tiles: each tile's on-board
/// squares in `(y, x)` order ([`Rules::tile_squares`]) and its side
/// neighbours ([`Rules::side_adjacent_tiles`]).
fn tile_derived(board: &Board) -> (Vec<Vec<Square>>, Vec<Vec<usize>>) {
    let mut tile_squares = vec![Vec::new(); board.tiles.len()];
    let mut tile_sides: Vec<Vec<usize>> = vec![Vec::new(); board.tiles.len()];
    for s in board.squares() {
        let Some(t) = board.tile_of(s) else { continue };
        if let Some(list) = tile_squares.get_mut(t) {
            list.push(s);
        }
        for n in [
            s.offset(1, 0),
            s.offset(-1, 0),
            s.offset(0, 1),
            s.offset(0, -1),
        ] {
            if let (Some(other), Some(sides)) = (board.tile_of(n), tile_sides.get_mut(t)) {
                if other != t {
                    sides.push(other);
                }
            }
        }
    }
    for sides in &mut tile_sides {
        sides.sort_unstable();
        sides.dedup();
    }
    (tile_squares, tile_sides)
}

#[cfg(test)]
mod classic_deal_tests {
    use super::*;
    use crate::dice::SeededDice;

    fn training(corps: &[Corporation]) -> Game {
        let setup = Setup::new("classic-training", corps, DarkLegionSetup::Ai);
        let mut dice = SeededDice::new(3);
        Game::new(setup, &mut dice).expect("training").0
    }

    fn dealt(g: &Game) -> Vec<usize> {
        g.tiles.iter().map(|t| t.face_down.len()).collect()
    }

    /// CFC-2/3: the training mission lists 5 cards for its 5 sectors.
    /// One team removes 3 and the other 2 go to the first sectors in
    /// layout order; four teams remove none, one card a sector.
    #[test]
    fn cfc_2_3_cards_removed_by_team_count_then_one_per_sector() {
        let one = training(&[Corporation::Capitol]);
        assert_eq!(dealt(&one), [1, 1, 0, 0, 0]);
        assert!(one.force_pile.is_empty(), "classic has no draw pile");
        let four = training(&[
            Corporation::Capitol,
            Corporation::Bauhaus,
            Corporation::Mishima,
            Corporation::Imperial,
        ]);
        assert_eq!(dealt(&four), [1, 1, 1, 1, 1]);
    }

    /// CFC-3 / MAP-22: cards beyond one a sector go to the sectors that
    /// touch the Citadel point (16,8): sectors 2, 5 and 3 of the training
    /// layout (tiles 1, 3 and 4), never to sectors 1 and 4.
    #[test]
    fn cfc_3_the_rest_goes_to_the_citadel_sectors() {
        let g = training(&[Corporation::Capitol; 1]);
        let mut tiles = vec![TileState::default(); g.tiles.len()];
        let mut force: Vec<u32> = (1..=12).collect();
        let mut dice = SeededDice::new(9);
        let deal = deal_classic(&g.rules, &mut force, 4, &mut tiles, &mut dice);
        let counts: Vec<usize> = tiles.iter().map(|t| t.face_down.len()).collect();
        assert_eq!(counts.iter().sum::<usize>(), 12, "every card is dealt");
        assert!(force.is_empty());
        assert_eq!(
            (counts[0], counts[2]),
            (1, 1),
            "non-Citadel sectors get one"
        );
        assert_eq!(counts[1] + counts[3] + counts[4], 10);
        assert_eq!(deal.iter().map(|(_, n)| usize::from(*n)).sum::<usize>(), 12);
    }
}

#[cfg(test)]
mod tile_squares_tests {
    use super::*;

    /// The kept lists (squares, side neighbours) are what the board finds
    /// by looking at every square, for every tile of every mission of both
    /// editions.
    #[test]
    fn each_tile_lists_the_squares_and_neighbours_the_board_gives() {
        let content = Content::embedded().expect("content");
        let mut tiles = 0;
        let mut neighbours = 0;
        for mission in &content.missions {
            let rules = build_rules(content, mission.clone()).expect("rules");
            for t in 0..rules.board.tiles.len() {
                let kept: Vec<Square> = rules.tile_squares(t).collect();
                let scanned: Vec<Square> = rules.board.tile_squares(t).collect();
                assert_eq!(kept, scanned, "{} tile {t}", mission.id);
                // Side neighbours, found again from the board's squares.
                let mut sides: Vec<usize> = scanned
                    .iter()
                    .flat_map(|s| {
                        [
                            s.offset(1, 0),
                            s.offset(-1, 0),
                            s.offset(0, 1),
                            s.offset(0, -1),
                        ]
                    })
                    .filter_map(|n| rules.board.tile_of(n))
                    .filter(|&o| o != t)
                    .collect();
                sides.sort_unstable();
                sides.dedup();
                assert_eq!(
                    rules.side_adjacent_tiles(t),
                    sides,
                    "{} tile {t}",
                    mission.id
                );
                neighbours += sides.len();
                assert!(!kept.is_empty(), "{} tile {t} has squares", mission.id);
                tiles += 1;
            }
            assert_eq!(rules.tile_squares(rules.board.tiles.len()).count(), 0);
        }
        assert!(tiles > 50, "every mission's tiles were compared ({tiles})");
        assert!(
            neighbours > tiles,
            "tiles have side neighbours ({neighbours})"
        );
    }
}
