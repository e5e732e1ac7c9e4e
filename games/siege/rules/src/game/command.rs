//! What a seat may ask the game to do. Clients send intentions only; the
//! game validates each one against the rules.

use super::ids::FigureId;
use super::move_path::MovePath;
use crate::content::{AttackType, Corporation, CreatureKind};
use crate::dice::DieColor;
use citadel_grid::{Direction, Square};
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
    /// Keep one of the two secondary missions you drew (SET-10); the
    /// other goes back into the deck.
    KeepSecondary {
        /// The card's number (1..=18).
        card: u32,
    },
    /// MOV-12 "start on tile T": place one of your DTs on a square of T.
    PlaceStart {
        /// The DT.
        figure: FigureId,
        /// Where.
        square: Square,
    },
    /// A mission's special setup (C2M1): the DL places a debris token.
    PlaceDebris {
        /// Where.
        square: Square,
    },
    /// Classic event 11: how the board changes (`None` leaves it).
    AlterSectors {
        /// The change.
        change: Option<super::altered_reality::SectorChange>,
    },
    /// Classic CEV-2: call the coming event's reinforcements (`true`,
    /// spending a call) or not.
    CallReinforcements {
        /// Call them.
        call: bool,
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
        #[cfg_attr(feature = "ts", ts(as = "Vec<Square>"))]
        path: MovePath,
    },
    /// An Attack action on a figure.
    Attack {
        /// Attacker.
        figure: FigureId,
        /// Target.
        target: FigureId,
        /// Attack type.
        attack: AttackType,
        /// Manus barbs (ce.md WPN-2): the colour of the one rank die each
        /// barb attack rolls. `None`: the strongest.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        barb_die: Option<DieColor>,
    },
    /// Violator swing (ce.md WPN-4), an Attack action instead of a
    /// single-target close combat attack: strike round the ring of 8
    /// neighbours from `start` (a square holding an adjacent enemy).
    Swing {
        /// Attacker (its weapon has the swing).
        figure: FigureId,
        /// First ring square.
        start: Square,
        /// Walk the ring clockwise (else counter-clockwise).
        clockwise: bool,
    },
    /// Gehenna Puker (ce.md WPN-5): a firearm attack along a line of up to
    /// 7 squares in one of the 8 directions.
    Spray {
        /// Attacker.
        figure: FigureId,
        /// Direction of the line.
        direction: Direction,
    },
    /// Nimrod Autocannon (ce.md WPN-6) with two targets, one 3-dice roll
    /// each. (One target: an ordinary `attack`, which rolls twice.)
    Volley {
        /// Attacker.
        figure: FigureId,
        /// The two DL targets, within `dist` 4 of each other.
        targets: [FigureId; 2],
    },
    /// Grenade Launcher (ce.md WPN-7): a firearm attack on a square.
    AttackSquare {
        /// Attacker (a Plasma Carbine with a Grenade Launcher).
        figure: FigureId,
        /// Target square, `dist` 2–8 with LoS to its centre (LOS-9).
        square: Square,
    },
    /// An Attack action on a terrain token (core ATK-16): close combat on
    /// an adjacent token, or firearms with line of sight to its square.
    AttackToken {
        /// Attacker.
        figure: FigureId,
        /// The token's square (one token per square, BRD-4).
        token: Square,
        /// Attack type: `close_combat` or `firearm`.
        attack: AttackType,
    },
    /// A terminal hack (ce.md TAC-6): a TE Specialist's tech Attack action
    /// on an adjacent terminal (Glyph Decrypter: `dist` ≤ 3 with LoS).
    Hack {
        /// The TE Specialist.
        figure: FigureId,
        /// The terminal's square.
        token: Square,
    },
    /// A mission Special action (MSN-3, TRN-7), e.g. `photograph`.
    Special {
        /// Who acts.
        figure: FigureId,
        /// Action id from the mission record.
        action: String,
    },
    /// MSN-4: pick up an adjacent objective token (a Special action).
    PickUp {
        /// Who picks it up.
        figure: FigureId,
        /// The token's name in the mission record (`soldier`).
        token: String,
    },
    /// MSN-4: hand the carried objective token to an adjacent friendly DT,
    /// of any team (CONV-3), as a Special action.
    HandOver {
        /// The carrier.
        figure: FigureId,
        /// The friendly DT that takes it.
        to: FigureId,
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
        /// After a Violator swing with several kills: which vacated
        /// square. `None`: the first.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        square: Option<Square>,
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
    /// Play a 1993 two-use Doomtrooper card (classic CDT-1) for one of its
    /// two uses, with the targets that use names (CDT-2). `legal()` lists
    /// every play possible now.
    PlayTwoUse {
        /// The card's number (1..=13) in your hand.
        card: u32,
        /// Which of its two uses (the boon or the sabotage).
        card_use: crate::content::classic_tables::ClassicDtUse,
        /// The chosen team (player), for uses that name one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        corporation: Option<Corporation>,
        /// The chosen figure (a DT or a DL figure), for uses that name one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        figure: Option<FigureId>,
        /// Command Interference: the sector (tile index) the face-down
        /// force card leaves.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        tile: Option<usize>,
        /// Command Interference: the side-adjacent sector it goes to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        to_tile: Option<usize>,
        /// Remote Controlled Door: the two squares whose shared edge takes
        /// the door.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        squares: Option<[Square; 2]>,
    },
    /// Classic Remote Controlled Door: a close combat Attack action on the
    /// card's door, from one of its two squares; 3 or more hits destroy it.
    AttackDoor {
        /// Attacker, standing on one of the two squares.
        figure: FigureId,
        /// The door's two squares, as placed.
        squares: [Square; 2],
    },
    /// Classic CDT: decline a start-of-turn card window, or the rest of a
    /// card's Move actions (Movement Boost, False Orders).
    PassCard,
    /// Classic CDT: the square a played card asks for (Limited or Faulty
    /// Teleportation).
    ChooseSquare {
        /// Where.
        square: Square,
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
