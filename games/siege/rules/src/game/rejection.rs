//! Why a command was refused. A rejected command changes nothing.

use serde::{Deserialize, Serialize};

/// The reason a command was rejected: flat and `Copy`, so a client can
/// show it and a bot can learn from it. [`Rejection::message`] gives words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Rejection {
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("this seat does not take part in the game")]
    NoSuchSeat,
    #[error("a decision must be answered first")]
    DecisionPending,
    #[error("that answers no pending decision")]
    NoSuchDecision,
    #[error("that command does not fit this phase of the game")]
    WrongPhase,
    #[error("no such figure")]
    NoSuchFigure,
    #[error("that figure is not yours")]
    NotYourFigure,
    #[error("that figure is not on the board")]
    FigureNotOnBoard,
    #[error("that figure cannot enter from where it waits")]
    FigureNotWaiting,
    #[error("that figure has already been activated this turn")]
    AlreadyActivated,
    #[error("that figure has no actions left")]
    NoActionsLeft,
    #[error("a figure may take at most 4 actions a turn")]
    ActionCapReached,
    #[error("the move has no steps")]
    EmptyPath,
    #[error("the move is longer than the figure's allowance")]
    PathTooLong,
    #[error("a step of the path is not a legal step")]
    IllegalStep,
    #[error("the path leaves the board")]
    OffBoard,
    #[error("the path enters an impassable square")]
    Impassable,
    #[error("the path enters a square held by an enemy")]
    EnemyInTheWay,
    #[error("the path passes through a figure that does not let it pass")]
    CannotPassThrough,
    #[error("a move may not revisit a square")]
    RevisitsSquare,
    #[error("the move may not end on a square with a figure")]
    EndSquareOccupied,
    #[error("the move may not end on a token")]
    EndSquareHasToken,
    #[error("the first step must be onto a free entry square of the figure's entrance")]
    NotAnEntrySquare,
    #[error("changing level needs the stairs")]
    LevelChange,
    #[error("leaving the board ends the move, so it must be the last step")]
    ExitNotLast,
    #[error("the target is not adjacent")]
    NotAdjacent,
    #[error("the target is out of range")]
    OutOfRange,
    #[error("firearms cannot target an adjacent figure")]
    TooClose,
    #[error("target not in line of sight")]
    NoLineOfSight,
    #[error("the attacker has no dice for that attack")]
    NoDice,
    #[error("a rule forbids that attack now")]
    AttackForbidden,
    #[error("you cannot attack a friendly figure")]
    FriendlyTarget,
    #[error("the attacker must stand next to a wall for a trap attack")]
    NotNextToWall,
    #[error("no such equipment")]
    UnknownItem,
    #[error("the team cannot afford that")]
    NotAffordable,
    #[error("the team's rank is too low for that")]
    RankTooLow,
    #[error("that Doomtrooper cannot carry that")]
    NotEligible,
    #[error("no copies of that card are left")]
    NoCopiesLeft,
    #[error("the figure does not carry that")]
    ItemNotCarried,
    #[error("that item cannot be used now")]
    ItemNotUsable,
    #[error("no such card in your hand")]
    NoSuchCard,
    #[error("only one Doomtrooper card may be played a turn")]
    CardLimitReached,
    #[error("Doomtrooper cards are forbidden this turn")]
    CardsForbidden,
    #[error("that card cannot be used that way now")]
    CardNotPlayable,
    #[error("no such entrance")]
    UnknownEntrance,
    #[error("that choice is not one of the options")]
    InvalidChoice,
    #[error("that square is not allowed here")]
    InvalidSquare,
    #[error("that Special action is not available here")]
    SpecialNotAvailable,
    #[error("overrun is not available now")]
    OverrunNotAvailable,
    #[error("no figure is activated")]
    NoActiveFigure,
    #[error("there is no token on that square")]
    NoSuchToken,
    #[error("that token cannot be attacked")]
    TokenNotAttackable,
    #[error("only a terminal can be hacked")]
    NotATerminal,
    #[error("that terminal is already hacked")]
    AlreadyHacked,
    #[error("only a Tech Specialist with a tech weapon can hack")]
    NotAHacker,
    #[error("this weapon cannot make that attack")]
    WeaponLacksAbility,
    #[error("a swing starts on a ring square holding an adjacent enemy")]
    NotASwingStart,
    #[error("the two targets are more than 4 squares apart")]
    TargetsTooFarApart,
    #[error("there is no such objective token next to this Doomtrooper")]
    NoObjectiveHere,
    #[error("this Doomtrooper carries nothing")]
    NotCarrying,
    #[error("only another Doomtrooper next to the carrier can take it")]
    NotAFriendNextTo,
    #[error("that card does not have that use")]
    CardUseNotOnCard,
    #[error("that use is a reaction: it is played when its window opens")]
    CardUseOnlyAsReaction,
    #[error("that use needs other targets, or has none now")]
    CardTargetInvalid,
    #[error("a Doomtrooper card protects that target from this attack")]
    TargetProtected,
}

impl Rejection {
    /// The reason in plain words, for a client to show.
    pub fn message(self) -> String {
        self.to_string()
    }
}
