//! Campaigns: a series of games of one kind whose results carry over
//! (Siege's PP and ranks from mission to mission, a league's points).
//!
//! The platform keeps the series: the stored document under optimistic
//! concurrency, the invite code, the players' tokens and accounts, the
//! history rows, making each game with every player's seat reserved, and
//! applying a finished game before its players hear of it. A game that
//! has campaigns supplies their rules through [`CampaignRules`]: what a
//! campaign is made of (its document), who may join, what the next game
//! is, what a finished game changes, and what the standings show. The
//! rules are pure: no I/O, and randomness only from the `entropy` they
//! are given.

use crate::Game;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;

/// A person joining a campaign, as the platform knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The name they gave.
    pub name: String,
    /// The hash of their campaign token (the token itself is never kept):
    /// it reserves their seat in every game of the campaign.
    pub token_hash: String,
    /// Their account, when they joined logged in.
    pub account: Option<String>,
}

/// Why a campaign step is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CampaignRefusal {
    /// The request itself is wrong (a bad length, an unknown field value):
    /// the platform answers 400.
    #[error("{0}")]
    Invalid(String),
    /// The request is fine but the campaign's state does not allow it now
    /// (full, started, a game in play): the platform answers 409.
    #[error("{0}")]
    Conflict(String),
}

/// One reserved seat of a campaign's next game.
#[derive(Clone, Debug)]
pub struct ReservedPlayer<G: Game> {
    /// The campaign player who holds the seat.
    pub member: Member,
    /// Their choice for this game (Siege: their corporation).
    pub choice: Option<G::Choice>,
}

/// A campaign's next game, as its rules make it: the platform creates the
/// table from it with every seat reserved, then tells the rules its code
/// ([`CampaignRules::begin`]).
#[derive(Clone, Debug)]
pub struct NextGame<G: Game> {
    /// The table's options.
    pub options: G::Options,
    /// The game's setup (the campaign decides it: carried-over scores,
    /// earlier outcomes).
    pub setup: G::Setup,
    /// The game's seed (also inside `setup` for games that keep it there).
    pub seed: u64,
    /// Seat by seat, in seat order: who holds it.
    pub seats: Vec<ReservedPlayer<G>>,
}

/// A history row the platform stores when a finished game changes the
/// campaign: the game's position in the series and what the rules want
/// kept of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// The game's position in the campaign, from 0.
    pub index: u32,
    /// The row (JSON), as the rules define it.
    pub row: serde_json::Value,
}

/// A game's campaign rules. Implemented by a type of the game's (Siege's
/// in `games/siege/campaign`) and registered with the game in the
/// server's catalogue. Every method is pure.
pub trait CampaignRules: fmt::Debug + Send + Sync + 'static {
    /// The game whose campaigns these are.
    type Game: Game;
    /// The campaign document the platform stores (JSON). Documents stored
    /// by earlier releases must keep parsing.
    type Doc: Serialize + DeserializeOwned + Clone + fmt::Debug + Send;
    /// The body of `POST /api/campaigns` (besides the platform's `kind`).
    type Terms: DeserializeOwned;
    /// The body of a join (besides the platform's `name`): the player's
    /// choice for the whole campaign.
    type Join: DeserializeOwned;
    /// The body of a request for the next game (may be empty).
    type Next: DeserializeOwned + Default;

    /// A new campaign with no players yet.
    ///
    /// # Errors
    /// Terms the rules do not allow.
    fn create(terms: Self::Terms) -> Result<Self::Doc, CampaignRefusal>;

    /// The campaign's shown name.
    fn name(doc: &Self::Doc) -> &str;

    /// Add a player; returns their index (their seat in every game).
    ///
    /// # Errors
    /// A full or started campaign, a choice taken.
    fn join(
        doc: &mut Self::Doc,
        member: Member,
        join: Self::Join,
    ) -> Result<usize, CampaignRefusal>;

    /// The player whose token hashes to `hash`.
    fn player_by_token_hash(doc: &Self::Doc, hash: &str) -> Option<usize>;

    /// The next game to play. `entropy` is fresh randomness (the game's
    /// seed and any draw the rules make, such as who plays which side).
    ///
    /// # Errors
    /// A game in play, players missing, a finished campaign, a request
    /// the rules do not allow.
    fn next(
        doc: &Self::Doc,
        request: Self::Next,
        entropy: u64,
    ) -> Result<NextGame<Self::Game>, CampaignRefusal>;

    /// The game `game` (its code) was made from `next`: it is now the
    /// campaign's game in play. Returns the answer to the player who asked
    /// for it (it names the code).
    fn begin(doc: &mut Self::Doc, game: &str, next: &NextGame<Self::Game>) -> serde_json::Value;

    /// The code of the campaign's game in play, if any.
    fn in_play(doc: &Self::Doc) -> Option<&str>;

    /// The game in play ended without a result (abandoned, or closed as
    /// outdated): the campaign may go on with another. False if `game` is
    /// not the game in play.
    fn abandoned(doc: &mut Self::Doc, game: &str) -> bool;

    /// The game in play finished with `summary`: carry its result over.
    /// `Ok(None)` if `game` is not the game in play (already applied).
    ///
    /// # Errors
    /// A summary the rules cannot apply.
    fn apply_result(
        doc: &mut Self::Doc,
        game: &str,
        summary: &<Self::Game as Game>::Summary,
    ) -> Result<Option<Recorded>, CampaignRefusal>;

    /// Whether the campaign is over.
    fn is_finished(doc: &Self::Doc) -> bool;

    /// A game-specific step between games (Siege's classic "buy a
    /// credit"), named by the last segment of its URL, for `player`.
    /// `None` if the rules have no step of that name; else its answer.
    ///
    /// # Errors
    /// A step the campaign's state does not allow.
    fn act(
        doc: &mut Self::Doc,
        player: usize,
        action: &str,
        body: &serde_json::Value,
    ) -> Option<Result<serde_json::Value, CampaignRefusal>>;

    /// What `GET /api/campaigns/{code}` shows of the campaign with that
    /// `id` and invite `code` (the platform adds the game's `kind`).
    fn standings(doc: &Self::Doc, id: &str, code: &str) -> serde_json::Value;
}
