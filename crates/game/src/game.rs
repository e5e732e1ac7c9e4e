//! The trait every game implements.

use crate::patch::{json_diff, Patch};
use crate::{Bot, Dice, OptionSpec, Outcome, RandomBot, RulesVersion, Seat, Viewer};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;

/// One public document of a game ([`Game::documents`]).
#[derive(Clone, Copy, Debug)]
pub struct Document {
    /// Its name: the last segment of its address.
    pub name: &'static str,
    /// Build its JSON text (once per process); `Err` says why it cannot
    /// be (a content file that does not load).
    pub build: fn() -> Result<String, String>,
}

/// What every payload of a game is: its own serde type, which the
/// platform stores and sends as JSON without looking inside.
pub trait Payload:
    Serialize + DeserializeOwned + Clone + fmt::Debug + PartialEq + Send + Sync + 'static
{
}

impl<T> Payload for T where
    T: Serialize + DeserializeOwned + Clone + fmt::Debug + PartialEq + Send + Sync + 'static
{
}

/// How the seats of a game are filled, as its options decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPlan {
    /// Seats for people (or bots standing in for them), `0..players`.
    pub players: u8,
    /// Seats the rules themselves play (an AI opponent), numbered after
    /// the players'. Never offered in the lobby.
    pub automata: u8,
}

impl SeatPlan {
    /// Every seat of the game, players first.
    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.players.saturating_add(self.automata)).map(Seat)
    }

    /// Is this an automaton's seat?
    pub fn is_automaton(&self, seat: Seat) -> bool {
        seat.0 >= self.players && seat.0 < self.players.saturating_add(self.automata)
    }
}

/// Options that do not make a game (a mission that does not exist, a seat
/// count out of range): the option at fault and what is allowed, in words
/// a client can show.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct OptionError {
    /// The option's name, as in the options' JSON.
    pub field: &'static str,
    /// What is allowed.
    pub message: String,
}

impl OptionError {
    /// `field` is wrong: `message` says what is allowed.
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        OptionError {
            field,
            message: message.into(),
        }
    }
}

/// A seat's lobby choice that the game refuses (a corporation another
/// seat holds), in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ChoiceError(pub String);

/// A setup the rules refuse, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupRefused(pub String);

/// One game, as the platform (sessions, storage, replays, bots, the
/// conformance suite) sees it. The model is OpenSpiel's `Game`/`State`
/// and boardgame.io's `Game` object; the rules discipline is shakmaty's:
///
/// - chance is an argument ([`Dice`]): the same setup, seed and commands
///   give the same game;
/// - [`Game::apply`] either changes the game and returns its events, or
///   returns a typed rejection and leaves the game — and the dice —
///   untouched;
/// - [`Game::view`] and [`Game::redact`] decide what each viewer sees;
///   the platform never hands out anything else;
/// - every stored form (setup, commands) is the game's own serde type,
///   stored as JSON and read back by the same game.
///
/// Implementations are pure: no I/O, no clock, no global randomness.
pub trait Game: Clone + fmt::Debug + Send + Sync + Sized + 'static {
    /// Chosen when a table is created (a mission, a seat count).
    type Options: Payload;
    /// What a player picks for their seat in the lobby (a corporation and
    /// its team, an army, a deck).
    type Choice: Payload;
    /// Everything a game is built from: options, choices and seed made
    /// concrete. Stored when the game starts.
    type Setup: Payload;
    /// What a seat may send.
    type Command: Payload;
    /// What happened, as the whole truth; [`Game::redact`] makes each
    /// viewer's copy.
    type Event: Payload;
    /// What one viewer sees of the game.
    type View: Payload;
    /// Why a command is refused: a flat, typed reason.
    type Rejection: Payload + fmt::Display;
    /// What a client draws once (a map, a hex board, a card catalogue).
    type Static: Payload;
    /// The game's own record of how a finished game ended (campaigns
    /// read it); the platform stores it as JSON.
    type Summary: Payload;

    /// The catalogue id (`siege`): stored with every game, named by the
    /// client's `hello`.
    const ID: &'static str;
    /// The name players read.
    const NAME: &'static str;

    /// The rules this build plays (engine version and content hash).
    fn rules_version() -> RulesVersion;

    /// Every option a table is created with, and its values, for the
    /// lobby (`GET /api/catalogue`).
    fn option_specs() -> Vec<OptionSpec>;

    /// Validate options and say how many seats they make.
    ///
    /// # Errors
    /// Options that make no game.
    fn seat_plan(options: &Self::Options) -> Result<SeatPlan, OptionError>;

    /// May `seat` make `choice`, given the other seats' choices so far?
    ///
    /// # Errors
    /// The choice is refused.
    fn check_choice(
        options: &Self::Options,
        seat: Seat,
        choice: &Self::Choice,
        others: &[Option<Self::Choice>],
    ) -> Result<(), ChoiceError>;

    /// The setup of a game from its options, every player seat's choice
    /// (`None`: the seat did not choose; the game picks) and the seed.
    ///
    /// # Errors
    /// The options and choices make no game.
    fn setup(
        options: &Self::Options,
        choices: &[Option<Self::Choice>],
        seed: u64,
    ) -> Result<Self::Setup, SetupRefused>;

    /// Build the game from its setup, drawing from `dice`; the events of
    /// the start (a deal, a draw).
    ///
    /// # Errors
    /// The rules refuse the setup.
    fn start(
        setup: &Self::Setup,
        dice: &mut dyn Dice,
    ) -> Result<(Self, Vec<Self::Event>), SetupRefused>;

    /// Apply `command` for `seat`. On a rejection nothing changed and
    /// nothing was drawn.
    ///
    /// # Errors
    /// Why the command is refused.
    fn apply(
        &mut self,
        seat: Seat,
        command: Self::Command,
        dice: &mut dyn Dice,
    ) -> Result<Vec<Self::Event>, Self::Rejection>;

    /// Every command `seat` may send now; empty when it may send none.
    /// A command in this list is accepted by [`Game::apply`].
    fn legal(&self, seat: Seat) -> Vec<Self::Command>;

    /// The seats that may act now (several in a response window); empty
    /// once the game is over.
    fn to_act(&self) -> Vec<Seat>;

    /// Is the game over?
    fn is_finished(&self) -> bool;

    /// What `viewer` sees of the game now.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// `event` as `viewer` may see it: a secret becomes a stub, never a
    /// gap, so every viewer's event numbers stay contiguous.
    fn redact(event: &Self::Event, viewer: Viewer) -> Self::Event;

    /// What a client draws once for this game.
    fn static_data(&self) -> Self::Static;

    /// The game's public documents, by name: what a client reads besides
    /// the game's payloads and every player may know (tables, a card
    /// catalogue, the list of scenarios). The server serves each at
    /// `GET /api/games/{id}/{name}`, built once on first asking. The
    /// default has none.
    fn documents() -> Vec<Document> {
        Vec::new()
    }

    /// Did these events change the static data (a board that changed in
    /// play)? The platform then sends it again.
    fn static_changed(_events: &[Self::Event]) -> bool {
        false
    }

    /// A checksum of the whole state: stored with commands, compared when
    /// a stored game is replayed on other rules.
    fn checksum(&self) -> String;

    /// The placings once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The game's own summary of its end, stored with a finished game.
    fn summary(&self) -> Self::Summary;

    /// What the platform sends for `seat` when its turn timer runs out
    /// (end the turn, the first option of a decision); `None` when the
    /// seat has nothing to send.
    fn timeout_command(&self, seat: Seat) -> Option<Self::Command>;

    /// A copy of the game as `viewer` could believe it to be: everything
    /// the viewer cannot see (other hands, deck orders, face-down cards)
    /// dealt again at random from what is consistent with its view
    /// (OpenSpiel's `ResampleFromInfostate`). The copy's view for
    /// `viewer` is the real view, so a search bot that plays on such
    /// copies learns nothing its seat may not know.
    fn resample_hidden(&self, viewer: Viewer, dice: &mut dyn Dice) -> Self;

    /// The patch that turns `old` into `new`, two views of one viewer
    /// (see [`crate::patch`]): applied to `old`'s JSON it must give
    /// exactly `new`'s. The default diffs their JSON; a game with large
    /// views diffs them field by field.
    fn view_patch(old: &Self::View, new: &Self::View) -> Patch {
        json_diff(old, new)
    }

    /// The automatic player for `seat`: an automaton seat's own (an AI
    /// opponent), or a stand-in for a person (a bot seat, a leaver, a
    /// timeout). `seed` is the game's. The default picks at random.
    fn bot(&self, seat: Seat, seed: u64) -> Box<dyn Bot<Self>> {
        Box::new(RandomBot::new(
            seed ^ u64::from(seat.0).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        ))
    }

    /// The name a bot playing `seat` is rated under: ratings keep one per
    /// name and game, so bots that play differently (levels, an AI
    /// opponent's own rules) should have different names. `automaton`:
    /// the seat is one of the seat plan's automata.
    fn bot_rating_name(_options: &Self::Options, _seat: Seat, automaton: bool) -> String {
        if automaton {
            "AI".into()
        } else {
            "Bot".into()
        }
    }

    /// Should a bot pause after sending `command`, so that people can
    /// follow? `false` for a step that is part of the bot's next decision
    /// (Siege's AI revealing its card).
    fn paced(_command: &Self::Command) -> bool {
        true
    }

    /// The choice made for `seat` when the host gives it to a bot in the
    /// lobby (`None`: none; the setup picks).
    fn bot_choice(
        _options: &Self::Options,
        _seat: Seat,
        _others: &[Option<Self::Choice>],
    ) -> Option<Self::Choice> {
        None
    }

    /// Each player seat's choice as `setup` settled it (what the game
    /// picked for a seat that left it open), for the lobby to show. Empty
    /// (the default): the lobby keeps the players' own choices.
    fn settled_choices(_setup: &Self::Setup) -> Vec<Option<Self::Choice>> {
        Vec::new()
    }

    /// Can a game stored before rules versions were recorded be replayed
    /// with confidence, given its options? Such a record has no checksums
    /// to compare, so a game whose state once lived partly outside the
    /// game says no here and the platform closes the record as outdated.
    ///
    /// # Errors
    /// Why such a record cannot be checked.
    fn check_unversioned(_options: &Self::Options) -> Result<(), String> {
        Ok(())
    }
}
