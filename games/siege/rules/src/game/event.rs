//! What happened. Every accepted command yields events; each viewer gets
//! them filtered by [`Event::for_viewer`], so secrets never leave the game.

use super::ids::{FigureId, Seat, Side, Viewer};
use crate::content::tables::{DoorCardKind, DtCardKind};
use crate::content::{AttackType, Corporation, CreatureKind};
use crate::dice::DieColor;
use citadel_grid::Square;
use serde::{Deserialize, Serialize};

/// One die as rolled: colour, face and hits (HID-3: every result is public).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DieRoll {
    /// Colour.
    pub color: DieColor,
    /// Face 1..=6.
    pub face: u8,
    /// Hits shown.
    pub hits: u8,
    /// This die is a re-roll of the die before it in the list.
    pub reroll: bool,
}

/// Where a figure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum Place {
    /// On the board.
    Board {
        /// Square.
        square: Square,
    },
    /// Waiting off-board at an entrance (index into the mission's white or
    /// red entrances, per side).
    Waiting {
        /// Entrance index.
        entrance: u8,
    },
    /// Not yet in play (DTs before their team's first turn; DL pool).
    Reserve,
    /// Eliminated.
    Eliminated,
    /// Left the board (MOV-14).
    Exited,
}

/// Why the mission ended and how (MSN-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MissionResult {
    /// Primary goal met.
    Success,
    /// Primary goal not met.
    Failure,
}

/// Something that happened, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A hidden event, as seen by someone who may not see it.
    Hidden,
    /// Setup finished (SET-1..7).
    GameStarted {
        /// Seat of the DL player, `None` for an AI DL.
        dark_legion: Option<Seat>,
        /// DL band (DLB-1).
        band: u8,
        /// Commander seat (SET-6), if any.
        commander: Option<Seat>,
    },
    /// A weapon or item went to a DT (EQP-4).
    EquipmentPicked {
        /// Seat.
        seat: Seat,
        /// Carrier.
        figure: FigureId,
        /// Item id.
        item: String,
    },
    /// A seat passed in the equipment draft.
    EquipmentPassed {
        /// Seat.
        seat: Seat,
    },
    /// Doomtrooper cards dealt (SET-11). `cards` is only shown to the owner.
    CardsDealt {
        /// Owner.
        seat: Seat,
        /// How many.
        count: u8,
        /// The cards, for the owner only.
        cards: Option<Vec<DtCardKind>>,
    },
    /// Secondary missions drawn (SET-10). `cards` is only shown to the
    /// owner.
    SecondaryDealt {
        /// Owner.
        seat: Seat,
        /// The cards, for the owner only.
        cards: Option<Vec<u32>>,
    },
    /// Classic CDT-1: 1993 two-use Doomtrooper cards dealt. `cards` (card
    /// numbers) is only shown to the owner.
    TwoUseDealt {
        /// Owner.
        seat: Seat,
        /// How many.
        count: u8,
        /// The cards, for the owner only.
        cards: Option<Vec<u32>>,
    },
    /// Classic CDT-1: a two-use card was played for one of its uses (now
    /// public; it goes to the discards).
    TwoUsePlayed {
        /// Who played it.
        seat: Seat,
        /// Card number (1..=13).
        card: u32,
        /// The use chosen.
        card_use: crate::content::classic_tables::ClassicDtUse,
        /// The chosen team, where the use names one.
        corporation: Option<Corporation>,
        /// The chosen figure, where the use names one.
        figure: Option<FigureId>,
    },
    /// Classic Steal Initiative: `to` took a card at random from `from`.
    /// `card` is only shown to those two seats.
    TwoUseTaken {
        /// The player who lost it.
        from: Seat,
        /// The player who took it.
        to: Seat,
        /// The card, for `from` and `to` only.
        card: Option<u32>,
    },
    /// Classic Lost Initiative: a random card of `seat` was discarded
    /// (face up, so public).
    TwoUseDiscarded {
        /// Whose card.
        seat: Seat,
        /// The card.
        card: u32,
    },
    /// Classic Command Interference: a face-down force card went from one
    /// sector to another (still face down).
    ForceCardMoved {
        /// From this tile.
        from: usize,
        /// To this tile.
        to: usize,
    },
    /// Classic Remote Controlled Door: a door now stands on the edge
    /// between these squares, a wall for everyone.
    CardDoorPlaced {
        /// The two squares.
        squares: [Square; 2],
    },
    /// A close combat attack on a Remote Controlled Door.
    CardDoorAttacked {
        /// Attacker.
        figure: FigureId,
        /// The door's squares.
        squares: [Square; 2],
        /// Dice in pool order, re-rolls after the die they replace.
        dice: Vec<DieRoll>,
        /// Total hits (3 or more destroy the door).
        hits: u8,
    },
    /// A Remote Controlled Door was destroyed.
    CardDoorDestroyed {
        /// The door's squares.
        squares: [Square; 2],
    },
    /// Classic Combat Frenzy or Coordinating Error changed a team's
    /// extra-action pool (CXA-1).
    ExtraActionPool {
        /// Team.
        team: u8,
        /// The pool now.
        pool: u8,
    },
    /// A secondary mission was kept (SET-10). `card` is only shown to the
    /// owner.
    SecondaryKept {
        /// Owner.
        seat: Seat,
        /// The card, for the owner only.
        card: Option<u32>,
    },
    /// A secondary mission revealed and resolved at mission end (PPC-4).
    SecondaryResolved {
        /// Owner.
        seat: Seat,
        /// The card.
        card: u32,
        /// Its condition held.
        success: bool,
    },
    /// A round began.
    RoundStarted {
        /// Round number.
        round: u32,
    },
    /// A marker was drawn (TRN-3).
    TurnStarted {
        /// Whose turn.
        side: Side,
        /// The seat that plays it, `None` for an AI DL.
        seat: Option<Seat>,
    },
    /// A turn ended.
    TurnEnded {
        /// Whose.
        side: Side,
    },
    /// A team chose its white entrance (MOV-12).
    EntranceChosen {
        /// Team.
        team: u8,
        /// Entrance id.
        entrance: String,
    },
    /// A figure began its activation.
    Activated {
        /// Figure.
        figure: FigureId,
    },
    /// A figure moved one step (or entered the board).
    Stepped {
        /// Figure.
        figure: FigureId,
        /// From (None if entering from a holding area).
        from: Option<Square>,
        /// To.
        to: Square,
    },
    /// A figure left the board (MOV-14).
    Exited {
        /// Figure.
        figure: FigureId,
    },
    /// A move was cut short and the figure went back (MOV-17).
    MovedBack {
        /// Figure.
        figure: FigureId,
        /// Where it stands now (None: back in its holding area).
        to: Option<Square>,
    },
    /// Classic event 11 changed the board: the sectors moved with
    /// everything on them (the new map follows).
    SectorsAltered {
        /// The change.
        change: super::altered_reality::SectorChange,
    },
    /// A figure was relocated without a Move (MOV-15).
    Relocated {
        /// Figure.
        figure: FigureId,
        /// To.
        to: Square,
    },
    /// An AI card was turned face up (AI-1; public, HID-3).
    AiCardRevealed {
        /// The card's `k`.
        card: u8,
        /// It is the AI-8 tie-breaker card of this DL turn.
        tie_breaker: bool,
    },
    /// The AI deck was shuffled: its discards went back into an empty
    /// pile, or every card went back at the end of a DL turn (AI-1).
    AiDeckShuffled,
    /// A door group was crossed for the first time (BRD-6).
    DoorRemoved {
        /// Door group index.
        door: usize,
    },
    /// A door card was drawn (DOR).
    DoorCard {
        /// The card.
        card: DoorCardKind,
    },
    /// An attack's dice.
    AttackRolled {
        /// Attacker, `None` for traps, bombs and events.
        attacker: Option<FigureId>,
        /// Target.
        target: FigureId,
        /// Attack type, `None` for trap/event attacks.
        attack: Option<AttackType>,
        /// Dice in pool order, re-rolls after the die they replace.
        dice: Vec<DieRoll>,
        /// Total hits.
        hits: u8,
    },
    /// One roll of an area attack (core ATK-13): a Violator swing
    /// (WPN-4), a Gehenna Puker line (WPN-5) or a grenade (WPN-7). Each
    /// struck figure follows as [`Event::Struck`] with its own defense.
    AreaAttackRolled {
        /// Attacker.
        attacker: FigureId,
        /// Attack type.
        attack: AttackType,
        /// The squares the attack reaches, in resolution order (swing:
        /// the visited ring squares; line: s1..; grenade: the target
        /// square, then its adjacent squares clockwise from north).
        squares: Vec<Square>,
        /// Dice in pool order, re-rolls after the die they replace.
        dice: Vec<DieRoll>,
        /// Total hits.
        hits: u8,
    },
    /// A figure struck by an area attack takes `hits` (the roll's hits,
    /// minus 1 next to a grenade's target square); defense and damage
    /// follow.
    Struck {
        /// The figure.
        figure: FigureId,
        /// Hits against it.
        hits: u8,
    },
    /// Manus barbs (WPN-2) spring from the new trap: each adjacent figure
    /// is attacked separately next, clockwise from north.
    Barbs {
        /// The trap's square.
        square: Square,
    },
    /// A defense die (DEF-3, DEF-4).
    DefenseRolled {
        /// Defender.
        figure: FigureId,
        /// The die.
        die: DieRoll,
    },
    /// Damage after defense (DEF-2..6).
    Damage {
        /// Target.
        figure: FigureId,
        /// Final damage.
        amount: u8,
        /// Health left (DTs).
        health: u8,
    },
    /// Health healed.
    Healed {
        /// Figure.
        figure: FigureId,
        /// Amount.
        amount: u8,
        /// Health now.
        health: u8,
    },
    /// A figure was eliminated (ATK-12).
    Eliminated {
        /// Figure.
        figure: FigureId,
        /// Team credited, if any.
        by: Option<u8>,
    },
    /// Promotion points changed (PRM, PPC).
    PromotionPoints {
        /// Side.
        side: Side,
        /// The change actually made (PRM-1's floor at 0 may absorb part
        /// of a penalty).
        delta: i32,
        /// New total.
        total: i32,
        /// Why, in words.
        reason: String,
    },
    /// A team's rank changed (RNK-3).
    RankChanged {
        /// Team.
        team: u8,
        /// New rank.
        rank: u8,
    },
    /// The Dark Legion declared its reinforcement call for the event it
    /// is about to draw (classic CEV-2).
    ReinforcementsCalled {
        /// "Call" (the event's reinforcements come) or "no call".
        call: bool,
    },
    /// A DT took an action from its team's extra-action pool (classic
    /// CXA-1).
    ExtraActionTaken {
        /// The DT.
        figure: FigureId,
        /// Actions left in the team's pool.
        pool: u8,
    },
    /// A reckless-manoeuvre token (PPC-3).
    RecklessToken {
        /// Team.
        team: u8,
        /// Tokens now.
        total: u8,
    },
    /// An event card was drawn (DL-3 step 1).
    EventDrawn {
        /// Card number.
        card: u32,
        /// This is the final round (EVT-2).
        final_round: bool,
    },
    /// An event targeted something.
    EventTarget {
        /// Card.
        card: u32,
        /// Figure target.
        figure: Option<FigureId>,
        /// Tile target.
        tile: Option<usize>,
        /// Corporation target.
        corporation: Option<Corporation>,
    },
    /// A force card was drawn as reinforcements (FOR-3).
    ForceCardDrawn {
        /// Card number.
        card: u32,
    },
    /// Face-down force cards were dealt on a tile (FOR-1): only the count.
    ForceCardsDealt {
        /// Tile index.
        tile: usize,
        /// How many.
        count: u8,
    },
    /// A face-down force card was turned over (FRC-4, DL-3 step 3).
    ForceCardRevealed {
        /// Tile.
        tile: usize,
        /// Card number.
        card: u32,
    },
    /// A team marked a tile with its corporation token (FOR-2).
    TileMarked {
        /// Tile.
        tile: usize,
        /// Team.
        team: u8,
    },
    /// A choice card's option was picked.
    OptionChosen {
        /// Card.
        card: u32,
        /// Option index.
        option: usize,
    },
    /// A DL figure went to a red entrance's holding area (DL-4).
    Reinforcement {
        /// Figure.
        figure: FigureId,
        /// Red entrance id.
        entrance: String,
    },
    /// A DL figure was placed on the board.
    Placed {
        /// Figure.
        figure: FigureId,
        /// Square.
        square: Square,
    },
    /// Figures that could not be placed (pool empty or no room).
    NotPlaced {
        /// Kind.
        kind: CreatureKind,
    },
    /// A trap token was placed (WPN-1).
    TrapPlaced {
        /// Square.
        square: Square,
        /// Owner.
        owner: FigureId,
    },
    /// A token left the board.
    TokenRemoved {
        /// Square.
        square: Square,
    },
    /// A mission token was put on the board (C2M1 debris).
    TokenPlaced {
        /// Square.
        square: Square,
        /// Kind.
        kind: crate::content::missions::TokenKind,
    },
    /// MSN-4: a DT picked up an objective token from `square`.
    ObjectivePickedUp {
        /// The carrier.
        figure: FigureId,
        /// Token name.
        token: String,
        /// Where it lay.
        square: Square,
    },
    /// MSN-4: the carrier handed the token to a friendly DT.
    ObjectiveHandedOver {
        /// The old carrier.
        figure: FigureId,
        /// The new carrier.
        to: FigureId,
        /// Token name.
        token: String,
    },
    /// MSN-4: the carrier was eliminated and the token dropped.
    ObjectiveDropped {
        /// Token name.
        token: String,
        /// Where it lies now.
        square: Square,
    },
    /// MSN-4: the token left the board with its carrier.
    ObjectiveCarriedOut {
        /// The carrier.
        figure: FigureId,
        /// Token name.
        token: String,
        /// The entrance or exit id.
        exit: String,
    },
    /// The dice of an attack on a terrain token (core ATK-16) or of a
    /// terminal hack (ce.md TAC-6). Success when `hits > dv`.
    TokenAttackRolled {
        /// Attacker.
        attacker: FigureId,
        /// The token's square.
        token: Square,
        /// Attack type; `None` for a terminal hack.
        attack: Option<AttackType>,
        /// Dice in pool order, re-rolls after the die they replace.
        dice: Vec<DieRoll>,
        /// Total hits.
        hits: u8,
        /// The token's defense value for this attack (DLB-3, cover).
        dv: u8,
    },
    /// A terminal was hacked (ce.md TAC-6); it stays on the board, marked.
    TokenHacked {
        /// The TE Specialist.
        figure: FigureId,
        /// The terminal's square.
        token: Square,
        /// The token's mission name (`relay1`), if any.
        name: Option<String>,
    },
    /// A terrain token was removed by an attack (core ATK-16, DEF-6).
    TokenDestroyed {
        /// The attacker.
        figure: FigureId,
        /// The token's square.
        token: Square,
        /// The token's mission name (`throne`), if any.
        name: Option<String>,
    },
    /// A time bomb was placed.
    BombPlaced {
        /// Square.
        square: Square,
        /// Team.
        team: u8,
    },
    /// Smoke on a tile.
    Smoke {
        /// Tile.
        tile: usize,
    },
    /// A card was played (DTC-CE-1).
    CardPlayed {
        /// Seat.
        seat: Seat,
        /// Card.
        card: DtCardKind,
        /// For +1 action (else its text).
        extra_action: bool,
        /// Doomtrooper it was for.
        figure: FigureId,
    },
    /// An item was used or discarded.
    ItemUsed {
        /// Carrier.
        figure: FigureId,
        /// Item id.
        item: String,
    },
    /// A mission Special action was done (MSN-3).
    SpecialDone {
        /// Figure.
        figure: FigureId,
        /// Action id.
        action: String,
    },
    /// A reaction window waits for the owner of `team` (DTC-CE-3); the
    /// command that opened it resumes when they answer.
    ReactionOffered {
        /// Team.
        team: u8,
    },
    /// Someone must decide something; see the view's `pending`. Not sent
    /// by the server (docs/PROTOCOL.md, "Reaction windows"): the view's
    /// `pending` and `to_act` say who must decide what.
    DecisionRequested {
        /// Who.
        seat: Option<Seat>,
        /// What, in words.
        what: String,
    },
    /// An activation ended.
    ActivationEnded {
        /// Figure.
        figure: FigureId,
    },
    /// The mission ended (MSN-5) and was scored (SCR-1).
    MissionEnded {
        /// Outcome.
        result: MissionResult,
        /// Winning seats (SCR-2); the AI DL wins as `None` in `dl_wins`.
        winners: Vec<Seat>,
        /// The Dark Legion won (alone or jointly).
        dl_wins: bool,
    },
}

impl Event {
    /// What `viewer` may see of this event: itself, a redacted copy, or
    /// [`Event::Hidden`] (so every viewer's event numbering stays contiguous).
    pub fn for_viewer(&self, viewer: Viewer) -> Event {
        match self {
            Event::CardsDealt { seat, count, .. } if viewer != Viewer::Seat(*seat) => {
                Event::CardsDealt {
                    seat: *seat,
                    count: *count,
                    cards: None,
                }
            }
            Event::TwoUseDealt { seat, count, .. } if viewer != Viewer::Seat(*seat) => {
                Event::TwoUseDealt {
                    seat: *seat,
                    count: *count,
                    cards: None,
                }
            }
            // Steal Initiative: only the two players involved see the card.
            Event::TwoUseTaken { from, to, .. }
                if viewer != Viewer::Seat(*from) && viewer != Viewer::Seat(*to) =>
            {
                Event::TwoUseTaken {
                    from: *from,
                    to: *to,
                    card: None,
                }
            }
            Event::SecondaryDealt { seat, .. } if viewer != Viewer::Seat(*seat) => {
                Event::SecondaryDealt {
                    seat: *seat,
                    cards: None,
                }
            }
            Event::SecondaryKept { seat, .. } if viewer != Viewer::Seat(*seat) => {
                Event::SecondaryKept {
                    seat: *seat,
                    card: None,
                }
            }
            _ => self.clone(),
        }
    }
}
