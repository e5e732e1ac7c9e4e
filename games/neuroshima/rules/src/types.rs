//! The state, commands, events and rejections: every stored form.

use crate::data::Army;
use citadel_hex::Hex;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A tile: `<seat>.<kind>#<k>` (NSH-CONV-3). `kind` indexes the seat's
/// army's kinds, which are sorted by kind id, so the derived order is id
/// order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TileId {
    /// Owner.
    pub seat: u8,
    /// Kind index in the owner's army.
    pub kind: u8,
    /// 1..=count.
    pub k: u8,
}

impl TileId {
    /// `0.omega#3`, given the seats' armies.
    pub fn label(&self, armies: &[&Army; 2]) -> String {
        let kind = armies
            .get(usize::from(self.seat))
            .and_then(|a| a.kind(self.kind))
            .map_or("?", |k| k.id.as_str());
        format!("{}.{}#{}", self.seat, kind, self.k)
    }
}

impl fmt::Display for TileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}#{}", self.seat, self.kind, self.k)
    }
}

/// A board tile where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Placed {
    /// Which tile.
    pub tile: TileId,
    /// ρ, 0..6 (NSH-BRD-6).
    pub rot: u8,
    /// Wounds kept.
    pub damage: u8,
}

/// `first_player` (NSH-CONV-5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FirstPlayer {
    /// Seat 0 starts.
    #[default]
    Seat0,
    /// One draw decides (NSH-HID-5).
    Random,
}

/// `infinity_combo` (NSH-CONV-5, NSH-DM-8, NSH-DM-9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum InfinityCombo {
    /// Loops are cut (NSH-DM-8).
    #[default]
    Capped,
    /// Loops make unboundedly many hits (NSH-DM-9).
    Unbounded,
}

/// `bots`: how the table's bots play (bot seats, leavers); not a rule
/// (docs/neuroshima/DECISIONS.md, I19).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// The heuristic bot (one ply).
    #[default]
    Easy,
    /// The search bot with a small playout budget.
    Normal,
    /// The search bot with a larger playout budget.
    Hard,
}

impl BotLevel {
    /// The default, which the state's JSON leaves out (so the checksums
    /// of games stored before the option existed stay as they were).
    pub fn is_easy(&self) -> bool {
        *self == BotLevel::Easy
    }
}

/// Game options (NSH-CONV-5; the turn timer is the platform's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Who starts.
    #[serde(default)]
    pub first_player: FirstPlayer,
    /// Redirect loops.
    #[serde(default)]
    pub infinity_combo: InfinityCombo,
    /// The bots' level.
    #[serde(default, skip_serializing_if = "BotLevel::is_easy")]
    pub bots: BotLevel,
}

/// Everything a game is built from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Setup {
    /// Options.
    pub options: Options,
    /// Army id per seat.
    pub armies: [String; 2],
    /// The seed (published after the game at most, NSH-HID-5).
    pub seed: u64,
}

/// One seat's tiles off the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlayerState {
    /// Draw pile; the last tile is drawn next. Its order is the hidden
    /// information (NSH-HID-2); views sort it.
    pub draw: Vec<TileId>,
    /// Hand, in draw order.
    pub hand: Vec<TileId>,
    /// Discard pile, in order.
    pub discard: Vec<TileId>,
    /// The HQ went to the board.
    pub hq_placed: bool,
}

/// Why a battle is fought (NSH-BAT-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// A Battle tile.
    Tile,
    /// A full board.
    FullBoard,
    /// The Last Battle.
    Last,
    /// The Overtime Battle.
    Overtime,
}

/// Where the ending sequence stands (NSH-END-1, 2, 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FinaleStep {
    /// X finishes the turn in which the pile ran out.
    XTurn,
    /// Y's last turn.
    YTurn,
    /// X's overtime turn.
    OvertimeX,
    /// Y's overtime turn.
    OvertimeY,
}

/// The ending sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Finale {
    /// The seat that drew its last tile first.
    pub x: u8,
    /// Where it stands.
    pub step: FinaleStep,
}

/// Why the game ended (NSH-END-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// An HQ at 0 after a battle.
    HqDestroyed,
    /// Compared after the Last Battle.
    LastBattle,
    /// Compared after the Overtime Battle.
    Overtime,
    /// A full board that no battle changes.
    Stalemate,
    /// A seat left (the platform's).
    Forfeit,
}

/// The result record (NSH-END-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<u8>,
    /// HQ HP per seat.
    pub hq_hp: [u8; 2],
    /// Why.
    pub reason: Reason,
}

/// A slot's fate in a battle (NSH-BAT-4..6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SlotFate {
    /// May still act.
    Ready,
    /// Acted.
    Executed,
    /// Missed; never acts in this battle.
    Lost,
}

/// The slots of one tile, by identity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Slots {
    /// The tile.
    pub tile: TileId,
    /// Base slots, in printed order.
    pub base: Vec<SlotFate>,
    /// Extra slots 1, 2, …
    pub extra: Vec<SlotFate>,
}

/// One step of a Medic plan: `medic` cancels one copy of hit number
/// `hit` of the phase (numbering of the awaited choice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MedicStep {
    /// The Medic.
    pub medic: TileId,
    /// Index in the phase's hit list.
    pub hit: u32,
}

/// A battle in progress (it is only stored while a choice is awaited).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BattleState {
    /// Why.
    pub cause: Cause,
    /// The current phase.
    pub phase: u8,
    /// Slot fates.
    pub slots: Vec<Slots>,
    /// Clown answers for this phase, per seat.
    pub clown: [Option<bool>; 2],
    /// Medic answers for this phase, per seat.
    pub medic: [Option<Vec<MedicStep>>; 2],
    /// Seats asked and not yet answered.
    pub waiting: Vec<u8>,
    /// The hits a Medic choice is about (public, for the client).
    pub hits: Vec<HitReport>,
    /// Wounds applied or tiles removed so far (NSH-END-5).
    pub changed: bool,
}

/// Bomb damage whose Medic answers are awaited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PendingBomb {
    /// The hits, by target id.
    pub hits: Vec<HitReport>,
    /// Answers per seat.
    pub medic: [Option<Vec<MedicStep>>; 2],
    /// Seats asked and not yet answered.
    pub waiting: Vec<u8>,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Stage {
    /// A seat places its HQ (NSH-TRN-3).
    Hq {
        /// Who.
        seat: u8,
    },
    /// The active player must discard one (NSH-TRN-6).
    Discard,
    /// The action step (NSH-TRN-7).
    Action,
    /// A Push Back's target owner picks the hex (NSH-USE-3).
    PushChoice {
        /// The pushed tile's hex.
        target: Hex,
        /// Where it may go, default first.
        candidates: Vec<Hex>,
    },
    /// A battle waits for answers.
    Battle,
    /// Bomb damage waits for Medic answers (NSH-USE-4, NSH-MOD-7).
    Bomb,
    /// Over.
    Over,
}

/// The whole state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct State {
    /// Options.
    pub options: Options,
    /// Army ids.
    pub armies: [String; 2],
    /// The first player.
    pub first: u8,
    /// Turn number (0 during HQ placement).
    pub turn: u32,
    /// Whose turn.
    pub active: u8,
    /// Both seats.
    pub players: [PlayerState; 2],
    /// The 19 hexes in `citadel_hex::HEXES` order.
    pub board: [Option<Placed>; 19],
    /// Where the game stands.
    pub stage: Stage,
    /// The DDM HQ rotation was used this turn.
    pub rotation_used: bool,
    /// The ending sequence.
    pub finale: Option<Finale>,
    /// A battle waiting for answers.
    pub battle: Option<BattleState>,
    /// Bomb damage waiting for Medic answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bomb: Option<PendingBomb>,
    /// The result, once over.
    pub result: Option<GameResult>,
}

/// What a seat may send.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// Place the HQ (NSH-TRN-3).
    PlaceHq {
        /// Where.
        hex: Hex,
        /// Rotation.
        rotation: u8,
    },
    /// Discard a hand tile.
    Discard {
        /// Which.
        tile: TileId,
    },
    /// Place a board tile (NSH-USE-1).
    Place {
        /// Which.
        tile: TileId,
        /// Where.
        hex: Hex,
        /// Rotation.
        rotation: u8,
    },
    /// Play a Battle tile (NSH-TRN-9).
    Battle {
        /// Which.
        tile: TileId,
    },
    /// Play a Push Back (NSH-USE-3).
    Push {
        /// Which.
        tile: TileId,
        /// The pushing friendly tile's hex.
        pusher: Hex,
        /// The pushed enemy tile's hex.
        target: Hex,
    },
    /// Play a Move (NSH-MOL-4): `to == from` rotates only.
    Move {
        /// Which.
        tile: TileId,
        /// The moved tile's hex.
        from: Hex,
        /// Its new hex.
        to: Hex,
        /// Its new rotation.
        rotation: u8,
    },
    /// Play a Small Bomb (NSH-DM-12).
    SmallBomb {
        /// Which.
        tile: TileId,
        /// Three mutually adjacent hexes.
        hexes: [Hex; 3],
    },
    /// Play an Air Strike (NSH-MOL-3).
    AirStrike {
        /// Which.
        tile: TileId,
        /// An inner hex.
        centre: Hex,
    },
    /// Use the DDM HQ rotation (NSH-DM-10).
    Rotate {
        /// The friendly tile's hex.
        hex: Hex,
        /// New rotation.
        rotation: u8,
    },
    /// End the turn.
    EndTurn,
    /// Answer a Push Back: the pushed tile goes here.
    PushTo {
        /// One of the candidates.
        hex: Hex,
    },
    /// Answer the Clown question (NSH-MOL-2).
    Clown {
        /// Explode instead of attacking.
        explode: bool,
    },
    /// Answer the Medic question (NSH-MOD-7).
    Medics {
        /// The whole sequence.
        steps: Vec<MedicStep>,
    },
}

/// Why a command is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Rejection {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// This seat may not act now.
    #[error("it is not this seat's move")]
    NotYourMove,
    /// Not a command for this moment.
    #[error("that command does not fit this moment")]
    WrongMoment,
    /// The tile is not in the seat's hand.
    #[error("that tile is not in your hand")]
    NotInHand,
    /// The tile is not of the needed type.
    #[error("that tile cannot be used that way")]
    WrongTile,
    /// A hex off the board.
    #[error("that hex is not on the board")]
    OffBoard,
    /// An occupied hex.
    #[error("that hex is occupied")]
    Occupied,
    /// No tile there.
    #[error("no tile stands there")]
    NoTile,
    /// Rotation out of 0..6.
    #[error("rotation must be 0 to 5")]
    BadRotation,
    /// Battle tiles are not allowed in the ending sequence.
    #[error("no Battle tile once the ending sequence has begun")]
    BattleForbidden,
    /// The tile is not the seat's.
    #[error("that tile is not yours")]
    NotFriendly,
    /// The tile is not an enemy's.
    #[error("that tile is not an enemy's")]
    NotEnemy,
    /// A netted tile cannot do or undergo that.
    #[error("a netted tile cannot do that")]
    Netted,
    /// Hexes that must be adjacent are not.
    #[error("those hexes are not adjacent")]
    NotAdjacent,
    /// Nowhere to push.
    #[error("the target has nowhere to go")]
    NoRoom,
    /// Not one of the offered hexes.
    #[error("not one of the offered hexes")]
    NotCandidate,
    /// Not three mutually adjacent hexes.
    #[error("those are not three mutually adjacent hexes")]
    NotTriangle,
    /// An Air Strike centre needs all six neighbours on the board.
    #[error("the centre must have six neighbours on the board")]
    NotInner,
    /// The HQ rotation was used this turn.
    #[error("the HQ ability was used this turn")]
    AbilityUsed,
    /// The army has no such ability, or its HQ is netted or gone.
    #[error("the HQ ability is not available")]
    NoAbility,
    /// The move changes nothing.
    #[error("that changes nothing")]
    NoChange,
    /// A Medic plan the rules do not allow.
    #[error("that Medic plan is not allowed")]
    BadMedicPlan,
}

/// Kind of hit (NSH-CONV-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum HitKind {
    /// Melee attack.
    Melee,
    /// Ranged attack.
    Ranged,
    /// Gauss attack.
    Gauss,
    /// Trap or Clown shrapnel.
    Shrapnel,
    /// Small Bomb or Air Strike.
    Bomb,
}

/// One hit (or several identical copies of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HitReport {
    /// The hit tile.
    pub target: TileId,
    /// Its hex.
    pub hex: Hex,
    /// The source (none for bombs).
    pub source: Option<TileId>,
    /// The source edge.
    pub edge: u8,
    /// What kind.
    pub kind: HitKind,
    /// Strength before armour.
    pub strength: u8,
    /// Wounds after armour, per copy.
    pub wounds: u8,
    /// Copies (NSH-DM-8).
    pub copies: u32,
    /// Copies cancelled by Medics.
    pub cancelled: u32,
    /// Unboundedly many copies (NSH-DM-9).
    pub unbounded: bool,
    /// The target's tile edge it came through (shrapnel: the side facing
    /// the exploding tile).
    pub arrival: u8,
}

/// One step of an attack's trace (NSH-DM-15).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum TraceStep {
    /// Redirected.
    Redirect {
        /// By.
        redirector: TileId,
        /// Entry tile edge.
        entry: u8,
        /// Exit world directions.
        exits: Vec<u8>,
        /// Copies.
        copies: u64,
    },
    /// A loop cut (NSH-DM-8).
    LoopCut {
        /// At.
        redirector: TileId,
        /// Entry tile edge.
        entry: u8,
        /// Copies.
        copies: u64,
    },
    /// A hit.
    Hit {
        /// On.
        target: TileId,
        /// Strength.
        strength: u8,
        /// Wounds after armour.
        wounds: u8,
        /// Copies (multiplicity under `unbounded`).
        copies: u64,
        /// Unbounded multiplicity.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unbounded: bool,
    },
    /// Left the board.
    Lost {
        /// Moving in.
        direction: u8,
        /// Copies.
        copies: u64,
    },
}

/// The trace report of one ranged or Gauss attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Trace {
    /// The attacker.
    pub source: TileId,
    /// Its tile edge.
    pub edge: u8,
    /// Ranged or Gauss.
    pub kind: HitKind,
    /// The steps, in order (per tick under `capped`).
    pub steps: Vec<TraceStep>,
    /// A loop was cut.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub combo_capped: bool,
    /// Some hit is unbounded.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unbounded: bool,
}

/// A Medic's cancellation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Cancel {
    /// The Medic.
    pub medic: TileId,
    /// The hit number in the phase report.
    pub hit: u32,
    /// The tile saved.
    pub target: TileId,
}

/// One battle phase's report (NSH-BAT-16).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PhaseReport {
    /// The phase.
    pub phase: u8,
    /// Tiles that acted.
    pub acting: Vec<TileId>,
    /// Netted tiles.
    pub netted: Vec<TileId>,
    /// Traces of ranged and Gauss attacks.
    pub traces: Vec<Trace>,
    /// Exploded Traps and Clowns.
    pub explosions: Vec<TileId>,
    /// Every hit, in hit order.
    pub hits: Vec<HitReport>,
    /// Medic cancellations.
    pub cancels: Vec<Cancel>,
    /// Removed tiles.
    pub removed: Vec<TileId>,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The game began.
    Started {
        /// First player.
        first_player: u8,
        /// Armies.
        armies: [String; 2],
    },
    /// A pile was shuffled; the order is the truth, and nobody's to see
    /// (NSH-HID-2): every viewer gets `None`.
    Shuffled {
        /// Whose.
        seat: u8,
        /// The order (truth only).
        order: Option<Vec<TileId>>,
    },
    /// An HQ was placed.
    HqPlaced {
        /// Whose.
        seat: u8,
        /// Where.
        hex: Hex,
        /// Rotation.
        rotation: u8,
    },
    /// A turn began.
    TurnStarted {
        /// Number.
        turn: u32,
        /// Whose.
        seat: u8,
    },
    /// Tiles drawn (face up, NSH-HID-1).
    Drew {
        /// Who.
        seat: u8,
        /// What.
        tiles: Vec<TileId>,
    },
    /// The ending sequence began (NSH-END-1).
    EndingBegan {
        /// X.
        seat: u8,
    },
    /// A tile was discarded from the hand.
    Discarded {
        /// Which.
        tile: TileId,
    },
    /// A board tile was placed.
    Placed {
        /// Which.
        tile: TileId,
        /// Where.
        hex: Hex,
        /// Rotation.
        rotation: u8,
    },
    /// An instant tile was used.
    Used {
        /// Which.
        tile: TileId,
    },
    /// A tile moved (Push Back, Move).
    Moved {
        /// Which.
        tile: TileId,
        /// From.
        from: Hex,
        /// To.
        to: Hex,
        /// Rotation after.
        rotation: u8,
    },
    /// A tile was rotated by the DDM HQ.
    Rotated {
        /// Which.
        tile: TileId,
        /// New rotation.
        rotation: u8,
    },
    /// Bomb damage (NSH-USE-4).
    Bombed {
        /// Hits.
        hits: Vec<HitReport>,
        /// Cancellations.
        cancels: Vec<Cancel>,
        /// Removed tiles.
        removed: Vec<TileId>,
    },
    /// A choice is awaited.
    Awaiting {
        /// From whom.
        seats: Vec<u8>,
    },
    /// A battle began.
    BattleStarted {
        /// Why.
        cause: Cause,
        /// The first phase.
        from_phase: u8,
    },
    /// A phase was fought.
    Phase(PhaseReport),
    /// A battle ended.
    BattleEnded {
        /// HQ HP after it.
        hq_hp: [u8; 2],
    },
    /// Overtime began (NSH-END-4).
    Overtime,
    /// A turn ended.
    TurnEnded {
        /// Whose.
        seat: u8,
    },
    /// The game ended.
    GameOver {
        /// How.
        result: GameResult,
    },
}
