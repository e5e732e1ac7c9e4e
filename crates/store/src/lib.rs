//! # citadel-store
//!
//! Everything Citadel keeps between runs, behind the [`Store`] trait so the
//! server never sees a database type. Games are event-sourced: the record
//! holds the options, seed and setup, and every accepted command is
//! appended with its number; replaying them rebuilds the game exactly
//! (the rules are deterministic). Documents the server owns (lobby seats,
//! campaign standings) are stored as JSON text, which keeps the SQL
//! portable between Postgres and SQLite.
//!
//! [`MemStore`] keeps everything in memory (tests, and a server run with
//! `--database-url memory:`). [`SqlStore`] keeps it in Postgres or in an
//! embedded SQLite file, with the schema in the repository's `migrations/`
//! (see `docs/STORAGE.md`).

mod memory;
mod sql;

pub use memory::MemStore;
pub use sql::{SqlBackend, SqlStore};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

/// Open the store a `--database-url` names: `memory:` for a [`MemStore`],
/// `sqlite:...` or `postgres://...` for a [`SqlStore`] (connected, schema
/// up to date).
pub async fn open(url: &str) -> Result<std::sync::Arc<dyn Store>, StoreError> {
    if url == "memory:" {
        Ok(std::sync::Arc::new(MemStore::new()))
    } else {
        Ok(std::sync::Arc::new(SqlStore::connect(url).await?))
    }
}

/// Milliseconds since the Unix epoch.
pub type Millis = i64;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A unique key is taken (account name, game code, command number).
    #[error("already exists: {0}")]
    Conflict(String),
    /// The row the operation needs does not exist.
    #[error("not found: {0}")]
    NotFound(String),
    /// A conditional write found the row changed since it was read (its
    /// version moved on): nothing was written; read it again and redo the
    /// change ([`Store::update_campaign`]).
    #[error("changed meanwhile: {0}")]
    Stale(String),
    /// The database failed; the message is for logs, not for clients.
    #[error("database: {0}")]
    Backend(String),
}

/// One game: lobby, then play, then result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Join code (primary key).
    pub code: String,
    /// The creation options (JSON).
    pub options: String,
    /// The seed of the game's dice and bots.
    pub seed: u64,
    /// Created.
    pub created_at: Millis,
    /// The lobby: seats, names, controllers, hashed tokens (JSON).
    pub lobby: String,
    /// The rules setup once started (JSON).
    pub setup: Option<String>,
    /// Started.
    pub started_at: Option<Millis>,
    /// Finished.
    pub finished_at: Option<Millis>,
    /// The result summary (JSON) once finished.
    pub result: Option<String>,
    /// The campaign this game belongs to.
    pub campaign: Option<String>,
    /// When a player was last connected to the game (at creation: the
    /// creation time). Abandonment is measured from it.
    #[serde(default)]
    pub active_at: Millis,
    /// When the game was closed as abandoned ([`Store::abandon_game`]):
    /// then `finished_at` is the same time and `result` is empty.
    #[serde(default)]
    pub abandoned_at: Option<Millis>,
    /// The game's engine behaviour version the game was made with
    /// (`RulesVersion::engine` of the game seam); [`LEGACY_ENGINE_VERSION`]
    /// for a game stored before versions were recorded.
    #[serde(default)]
    pub engine_version: i64,
    /// The hash of the content the game was made with
    /// (`RulesVersion::content` of the game seam); [`LEGACY_CONTENT_HASH`]
    /// for a game stored before versions were recorded.
    #[serde(default = "legacy_content_hash")]
    pub content_hash: String,
    /// Which game this is: its catalogue id (`citadel_game::Game::ID`).
    /// Every game stored before games had kinds is Siege's.
    #[serde(default = "first_game_kind")]
    pub kind: String,
    /// Listed in the lobby (open tables, live games); `false`: only its
    /// code finds it (every game stored before migration 0011).
    #[serde(default)]
    pub listed: bool,
}

/// The game every record stored before game kinds were recorded belongs
/// to (migration 0009).
pub const FIRST_GAME_KIND: &str = "siege";

fn first_game_kind() -> String {
    FIRST_GAME_KIND.to_string()
}

/// The engine version of a game stored before versions were recorded.
pub const LEGACY_ENGINE_VERSION: i64 = 0;

/// The content hash of a game stored before versions were recorded.
pub const LEGACY_CONTENT_HASH: &str = "legacy";

fn legacy_content_hash() -> String {
    LEGACY_CONTENT_HASH.to_string()
}

impl GameRecord {
    /// True if the record predates rules versions (its rules are unknown).
    pub fn is_legacy(&self) -> bool {
        self.engine_version == LEGACY_ENGINE_VERSION && self.content_hash == LEGACY_CONTENT_HASH
    }
}

/// One accepted command of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandRecord {
    /// Game code.
    pub code: String,
    /// Command number in the game, from 0, contiguous.
    pub index: i64,
    /// The seat that sent it.
    pub seat: u8,
    /// The command (JSON).
    pub command: String,
    /// When it was accepted.
    pub at: Millis,
    /// A checksum of the whole game state after this command, on the last
    /// command of each batch the server applied (`None` on the others,
    /// and on commands stored before checksums were).
    #[serde(default)]
    pub checksum: Option<String>,
}

/// A finished game's replay as it was shown, kept so that showing it
/// again never needs the engine (whose rules may have changed since).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayRecord {
    /// What every step shares: the setup without its seed, the map (JSON).
    pub header: String,
    /// Each step as a spectator saw it (JSON), step 0 first.
    pub steps: Vec<String>,
}

/// A page of a stored replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayPage {
    /// What every step shares (JSON).
    pub header: String,
    /// Steps in the whole replay.
    pub total_steps: i64,
    /// The steps asked for (JSON), in order.
    pub steps: Vec<String>,
}

/// A registered account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountRecord {
    /// Id.
    pub id: String,
    /// Unique name (compared case-insensitively; stored as given).
    pub name: String,
    /// The password's argon2 PHC string.
    pub password_hash: String,
    /// Created.
    pub created_at: Millis,
}

/// A login session: the token itself is never stored, only its hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRecord {
    /// Hash of the session token.
    pub token_hash: String,
    /// The account.
    pub account_id: String,
    /// Created.
    pub created_at: Millis,
    /// Expires.
    pub expires_at: Millis,
}

/// A campaign: the server's document plus what listing needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignRecord {
    /// Id.
    pub id: String,
    /// Invite code (unique).
    pub code: String,
    /// Name.
    pub name: String,
    /// The campaign document: players, standings, next mission (JSON).
    pub state: String,
    /// Created.
    pub created_at: Millis,
    /// Finished.
    pub finished_at: Option<Millis>,
    /// How many times the row was updated: [`Store::update_campaign`]
    /// writes only over the version it was read at, and moves it on by 1.
    /// A new campaign starts at 0 (as do rows stored before versions).
    #[serde(default)]
    pub version: i64,
    /// Which game the campaign plays: its catalogue id. Campaigns stored
    /// before game kinds were recorded are Siege's.
    #[serde(default = "first_game_kind")]
    pub kind: String,
}

/// One finished mission of a campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignMission {
    /// Campaign id.
    pub campaign: String,
    /// Mission number in the campaign, from 0.
    pub index: i64,
    /// The game that played it.
    pub game: String,
    /// What happened and the standings after it (JSON).
    pub summary: String,
    /// When it finished.
    pub at: Millis,
}

/// A node's hold on a live game (cluster mode): the node runs the game
/// until `expires_at` unless it renews the lease first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaseRecord {
    /// Game code.
    pub code: String,
    /// The node that holds it.
    pub owner: String,
    /// When it runs out.
    pub expires_at: Millis,
}

/// A player's rating in one game, as stored (issue 31; crates/ratings).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingRecord {
    /// The game (catalogue id).
    pub kind: String,
    /// Who: `account:<id>` or `bot:<label>`.
    pub player: String,
    /// The name shown, as of the last rated game.
    pub name: String,
    /// Glicko-2 rating.
    pub rating: f64,
    /// Glicko-2 rating deviation.
    pub deviation: f64,
    /// Glicko-2 volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
    /// Of them won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
    /// When the last rated game changed it.
    pub updated_at: Millis,
}

/// One seat's new rating after a rated game, and the number of games the
/// rating it was computed from had (0: the player had none).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// `games` of the rating read before the game (0 for a newcomer).
    pub from_games: i64,
    /// The rating after the game (`games` one more).
    pub after: RatingRecord,
}

/// A point of a player's rating history: after the game `code`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// The game that moved it.
    pub code: String,
    /// When.
    pub at: Millis,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub deviation: f64,
}

/// What [`Store::rate_game`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rated {
    /// The ratings moved.
    Applied,
    /// The game had been rated before: nothing changed.
    AlreadyRated,
    /// A rating changed since it was read (another game ended): nothing
    /// changed; read again and retry.
    Conflict,
}

/// Everything the server persists.
///
/// Every method is durable when it returns `Ok`: the server acknowledges a
/// command only after [`Store::append_commands`] has returned.
#[async_trait]
pub trait Store: Send + Sync + std::fmt::Debug {
    /// The ratings in game `kind` of those of `players` who have one.
    async fn ratings(
        &self,
        kind: &str,
        players: &[String],
    ) -> Result<Vec<RatingRecord>, StoreError>;
    /// Apply a finished game's rating changes at once, exactly once per
    /// game `code`: [`Rated::AlreadyRated`] if it was rated before,
    /// [`Rated::Conflict`] (and nothing written) if a rating is no longer
    /// at its `from_games`.
    async fn rate_game(
        &self,
        code: &str,
        at: Millis,
        changes: &[RatingChange],
    ) -> Result<Rated, StoreError>;
    /// Game `kind`'s leaderboard: ratings with a deviation at most
    /// `max_deviation`, best first (ties by name), `limit` from `offset`.
    async fn leaderboard(
        &self,
        kind: &str,
        max_deviation: f64,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<RatingRecord>, StoreError>;
    /// Every game's rating of `player`, by game.
    async fn ratings_of_player(&self, player: &str) -> Result<Vec<RatingRecord>, StoreError>;
    /// `player`'s rating after each rated game of `kind`, oldest first:
    /// the last `limit` of them.
    async fn rating_history(
        &self,
        kind: &str,
        player: &str,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError>;
    /// Listed games that have not ended: `started` false, the open
    /// tables (not started), newest first; `true`, the games being played,
    /// most recently active first. At most `limit`.
    async fn listed_games(&self, started: bool, limit: i64) -> Result<Vec<GameRecord>, StoreError>;
    /// A new game.
    async fn create_game(&self, game: &GameRecord) -> Result<(), StoreError>;
    /// Replace a game's lobby document.
    async fn update_lobby(&self, code: &str, lobby: &str) -> Result<(), StoreError>;
    /// The game started with this setup.
    async fn start_game(
        &self,
        code: &str,
        setup: &str,
        lobby: &str,
        at: Millis,
    ) -> Result<(), StoreError>;
    /// Append accepted commands (of one or several games) in one
    /// transaction. A repeated `(code, index)` is a conflict.
    async fn append_commands(&self, commands: &[CommandRecord]) -> Result<(), StoreError>;
    /// The game ended.
    async fn finish_game(&self, code: &str, result: &str, at: Millis) -> Result<(), StoreError>;
    /// One game.
    async fn game(&self, code: &str) -> Result<Option<GameRecord>, StoreError>;
    /// A game's commands in order.
    async fn commands(&self, code: &str) -> Result<Vec<CommandRecord>, StoreError>;
    /// Record that a game's stored commands were checked against (and now
    /// continue under) other rules: the engine version and content hash.
    async fn set_rules_version(
        &self,
        code: &str,
        engine_version: i64,
        content_hash: &str,
    ) -> Result<(), StoreError>;
    /// Keep a finished game's replay (replacing one kept before), all or
    /// nothing.
    async fn save_replay(&self, code: &str, replay: &ReplayRecord) -> Result<(), StoreError>;
    /// Steps `from..from + count` of a kept replay (fewer at its end), or
    /// `None` if none is kept for the game.
    async fn replay_page(
        &self,
        code: &str,
        from: i64,
        count: i64,
    ) -> Result<Option<ReplayPage>, StoreError>;
    /// Whether the database answers a trivial query now (readiness).
    async fn ping(&self) -> Result<(), StoreError>;
    /// Games not finished (lobbies and games in play), oldest first. An
    /// abandoned game is finished, so it is not among them.
    async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError>;
    /// A player is connected to the game at `at`: its `active_at` moves
    /// forward to `at` (never back).
    async fn touch_game(&self, code: &str, at: Millis) -> Result<(), StoreError>;
    /// The codes of unfinished games nobody has played for too long: lobbies
    /// (never started) last active before `lobby_before`, started games
    /// last active before `started_before`; least recently active first.
    async fn idle_games(
        &self,
        lobby_before: Millis,
        started_before: Millis,
    ) -> Result<Vec<String>, StoreError>;
    /// Close an unfinished game as abandoned at `at` (`finished_at` and
    /// `abandoned_at` set, no result). Returns false, changing nothing, if
    /// the game had already finished.
    async fn abandon_game(&self, code: &str, at: Millis) -> Result<bool, StoreError>;
    /// Record that an account plays a seat of a game (for "my games").
    async fn link_player(&self, code: &str, seat: u8, account_id: &str) -> Result<(), StoreError>;
    /// The games an account played or plays, newest first.
    async fn games_of_account(&self, account_id: &str) -> Result<Vec<GameRecord>, StoreError>;

    /// A new account; a taken name (case-insensitive) is a conflict.
    async fn create_account(&self, account: &AccountRecord) -> Result<(), StoreError>;
    /// An account by name (case-insensitive).
    async fn account_by_name(&self, name: &str) -> Result<Option<AccountRecord>, StoreError>;
    /// An account by id.
    async fn account(&self, id: &str) -> Result<Option<AccountRecord>, StoreError>;
    /// A new login session.
    async fn create_session(&self, session: &SessionRecord) -> Result<(), StoreError>;
    /// A session by token hash (expired ones included; the caller checks).
    async fn session(&self, token_hash: &str) -> Result<Option<SessionRecord>, StoreError>;
    /// End a session.
    async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError>;

    /// A new campaign.
    async fn create_campaign(&self, campaign: &CampaignRecord) -> Result<(), StoreError>;
    /// Replace a campaign's document (name and finished time) if the
    /// stored row is still at `campaign.version`; the stored version
    /// becomes `campaign.version + 1`. A row another writer updated since
    /// it was read is [`StoreError::Stale`] and left as it is (optimistic
    /// concurrency: the writer reads again and redoes its change); a
    /// missing one is [`StoreError::NotFound`].
    async fn update_campaign(&self, campaign: &CampaignRecord) -> Result<(), StoreError>;
    /// A campaign by id.
    async fn campaign(&self, id: &str) -> Result<Option<CampaignRecord>, StoreError>;
    /// A campaign by invite code.
    async fn campaign_by_code(&self, code: &str) -> Result<Option<CampaignRecord>, StoreError>;
    /// Record that an account is a member of a campaign.
    async fn link_campaign_member(
        &self,
        campaign: &str,
        account_id: &str,
    ) -> Result<(), StoreError>;
    /// The campaigns of an account, newest first.
    async fn campaigns_of_account(
        &self,
        account_id: &str,
    ) -> Result<Vec<CampaignRecord>, StoreError>;
    /// Append a finished mission to a campaign's history.
    async fn add_campaign_mission(&self, mission: &CampaignMission) -> Result<(), StoreError>;
    /// A campaign's history in order.
    async fn campaign_missions(&self, campaign: &str) -> Result<Vec<CampaignMission>, StoreError>;

    /// Take the lease on a game for `owner` until `expires_at`, if nobody
    /// holds it, `owner` already does, or its holder let it run out (it
    /// expired at or before `now`). One conditional write: of nodes racing
    /// for a lease, exactly one gets it. Returns whether `owner` holds it
    /// now. The game need not be stored yet: a new game's lease is taken
    /// before the game is stored.
    async fn acquire_lease(
        &self,
        code: &str,
        owner: &str,
        now: Millis,
        expires_at: Millis,
    ) -> Result<bool, StoreError>;
    /// Move every lease `owner` still holds on to `expires_at`, in one
    /// write. Returns the codes of those leases (a lease another node took
    /// over meanwhile is not among them: its game must stop here).
    async fn renew_leases(
        &self,
        owner: &str,
        expires_at: Millis,
    ) -> Result<Vec<String>, StoreError>;
    /// Give up `owner`'s lease on a game (nothing if another node holds it).
    async fn release_lease(&self, code: &str, owner: &str) -> Result<(), StoreError>;
    /// The codes of the leases that expired at or before `now`, oldest
    /// expiry first: games whose node stopped renewing.
    async fn expired_leases(&self, now: Millis) -> Result<Vec<String>, StoreError>;
    /// A game's lease, if any node holds (or held and did not release) it.
    async fn lease(&self, code: &str) -> Result<Option<LeaseRecord>, StoreError>;
}
