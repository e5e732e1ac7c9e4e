//! What a seat may ask the game to do. Clients send intentions only; the
//! game validates each one against the rules.

use super::ids::FigureId;
use crate::content::{AttackType, Corporation, CreatureKind};
use citadel_grid::Square;
use serde::{Deserialize, Serialize};

/// One command from one seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    // ---- setup (ce.md EQP-5) ----
    /// Take one equipment card for one of your Doomtroopers.
    PickEquipment {
        /// Equipment or weapon id (`smoke_grenade`).
        item: String,
        /// The Doomtrooper who carries it (EQP-4).
        figure: FigureId,
    },
    /// Stop picking equipment for this mission.
    PassEquipment,

    // ---- answers to pending decisions ----
    /// MOV-12 (white entrance of your team) or DL-4 (red entrance of a
    /// reinforcement figure).
    ChooseEntrance {
        /// Entrance id as the mission writes it (`15N`).
        entrance: String,
    },
    /// The option of a choice force card (FRC-5, FOR-3).
    ChooseOption {
        /// Index into the card's options.
        option: usize,
    },
    /// Place a DL figure (FRC-5, events).
    Place {
        /// Which of the figures waiting to be placed.
        kind: CreatureKind,
        /// Where.
        square: Square,
    },
    /// A tile: DL step 3 (DL-3), or an event target.
    ChooseTile {
        /// Index into the board's tiles.
        tile: usize,
    },
    /// A figure as an event target.
    ChooseFigure {
        /// The figure.
        figure: FigureId,
    },
    /// A corporation as an event target.
    ChooseCorporation {
        /// The corporation.
        corporation: Corporation,
    },
    /// Which non-weapon card to discard (event 12).
    Discard {
        /// Item id.
        item: String,
    },
    /// Answer a reaction window (DTC-CE-3): a card of your hand, or pass.
    React {
        /// Index of the card in your hand; `None` passes.
        card: Option<usize>,
    },

    // ---- actions (TRN-7) ----
    /// A Move action along a path; the first square is the first step.
    Move {
        /// Mover.
        figure: FigureId,
        /// Squares entered, in order. A waiting figure's first square is an
        /// entry square; an exit's last square is the off-board square
        /// beyond the boundary edge (MOV-14).
        path: Vec<Square>,
    },
    /// An Attack action on a figure.
    Attack {
        /// Attacker.
        figure: FigureId,
        /// Target.
        target: FigureId,
        /// Attack type.
        attack: AttackType,
    },
    /// A mission Special action (MSN-3, TRN-7), e.g. `photograph`.
    Special {
        /// Who acts.
        figure: FigureId,
        /// Action id from the mission record.
        action: String,
    },
    /// Use a carried item (ce.md EQI). Autoinjector, smoke grenade and time
    /// bomb are Special actions and cost an action; command helmet and
    /// molecular phaser are free.
    UseItem {
        /// Carrier.
        figure: FigureId,
        /// Item id.
        item: String,
        /// Target square where the item needs one (time bomb).
        square: Option<Square>,
    },
    /// Step into the square of the DL figure just eliminated in close
    /// combat (TAC-2). Free, not an action.
    Overrun {
        /// The CC Specialist who made the kill.
        figure: FigureId,
    },
    /// Play a Doomtrooper card (DTC-CE-1).
    PlayCard {
        /// Index of the card in your hand.
        card: usize,
        /// The Doomtrooper it is for.
        figure: FigureId,
        /// How it is used.
        play: CardPlay,
    },
    /// Toggle whether other teams' DTs may pass through yours (MOV-6).
    SetAllowPass {
        /// The new value.
        allow: bool,
    },
    /// End the current figure's activation.
    EndActivation,

    // ---- the AI Dark Legion (core AI-1) ----
    /// Reveal the top card of the AI deck for the decision in hand. Only
    /// the AI Dark Legion's seat sends it; any other command from that
    /// seat closes the decision.
    RevealAiCard,
    /// End your turn.
    EndTurn,
}

/// How a Doomtrooper card is played.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "as", rename_all = "snake_case")]
pub enum CardPlay {
    /// Discard it for +1 action (DTC-CE-1).
    ExtraAction,
    /// Use its text. `target` names a figure where the card needs one.
    Text {
        /// Target figure (Control Defense System, Commanding Voice).
        target: Option<FigureId>,
        /// Target square (Limited Teleportation).
        square: Option<Square>,
    },
}
