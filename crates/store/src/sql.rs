//! The SQL store: one implementation for Postgres and embedded SQLite.
//!
//! It goes through [`sqlx::Any`], so every query is written once. The two
//! schemas (`migrations/postgres`, `migrations/sqlite` at the repository
//! root) have the same tables and columns; only the column types differ.
//! The queries keep to what both databases accept: `$N` placeholders
//! (sqlx's SQLite driver binds `$N` by number), `INSERT ... SELECT ...
//! WHERE`, `ON CONFLICT ... DO NOTHING/UPDATE`, and only the value types
//! `Any` carries (TEXT and 64-bit integers).
//!
//! Durability: every method commits before it returns. SQLite runs in WAL
//! mode with `synchronous = FULL`, so a commit is on disk (the WAL is
//! fsynced) when `append_commands` returns; Postgres commits are durable
//! with its default `synchronous_commit = on`.
//!
//! Writes to a SQLite file go through one connection of their own (see
//! [`SqlStore`]); reads use a small pool beside it. A group of commands
//! is appended with a single `INSERT ... SELECT ... FROM (VALUES ...)`
//! that checks each game's numbering itself (see `insert_commands`).

use crate::{
    AccountRecord, CampaignMission, CampaignRecord, CommandRecord, GameRecord, LeaseRecord, Millis,
    Rated, RatingChange, RatingPoint, RatingRecord, ReplayPage, ReplayRecord, SessionRecord, Store,
    StoreError,
};
use async_trait::async_trait;
use sqlx::any::{AnyPoolOptions, AnyQueryResult, AnyRow};
use sqlx::error::{BoxDynError, ErrorKind};
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::{AnyPool, Executor, Row};
use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// Which database a [`SqlStore`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SqlBackend {
    /// PostgreSQL (`postgres://...`).
    Postgres,
    /// SQLite (`sqlite://path`, `sqlite::memory:`).
    Sqlite,
}

/// How long a SQLite connection waits for another writer's lock before
/// giving up with "database is locked".
const SQLITE_BUSY_TIMEOUT_MS: u32 = 10_000;

/// Connections in the read pool of a SQLite file (WAL lets readers run
/// beside the writer, which has a connection of its own).
const SQLITE_MAX_CONNECTIONS: u32 = 4;

/// How often the SQLite write-ahead log is copied back into the database.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// Checkpoint a SQLite file's WAL every [`CHECKPOINT_EVERY`] on a pooled
/// connection of its own, until the returned sender is dropped.
///
/// Why: by default the commit that grows the WAL past 1,000 pages runs
/// the checkpoint itself — copying pages and flushing the database file
/// while every game waiting on that commit waits too. Measured with
/// citadel-load at 1,000 commands a second, that put 180 ms stalls into
/// the command path. A PASSIVE checkpoint never blocks writers or readers.
fn checkpoint_in_background(pool: AnyPool) -> tokio::sync::oneshot::Sender<()> {
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(CHECKPOINT_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                _ = every.tick() => {
                    if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").execute(&pool).await {
                        // Only the WAL's size is at stake; the next try
                        // may succeed.
                        tracing::warn!(error = %e, "WAL checkpoint failed");
                    }
                }
            }
        }
    });
    stop
}

/// Connections in a pool for Postgres.
const POSTGRES_MAX_CONNECTIONS: u32 = 10;

/// The migrations of each backend, embedded in the binary. The version is
/// the file's number; the description its name.
const POSTGRES_MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        "games",
        include_str!("../../../migrations/postgres/0001_games.sql"),
    ),
    (
        2,
        "accounts",
        include_str!("../../../migrations/postgres/0002_accounts.sql"),
    ),
    (
        3,
        "campaigns",
        include_str!("../../../migrations/postgres/0003_campaigns.sql"),
    ),
    (
        4,
        "abandoned_games",
        include_str!("../../../migrations/postgres/0004_abandoned_games.sql"),
    ),
    (
        5,
        "rules versions",
        include_str!("../../../migrations/postgres/0005_rules_versions.sql"),
    ),
    (
        6,
        "campaign versions",
        include_str!("../../../migrations/postgres/0006_campaign_versions.sql"),
    ),
    (
        7,
        "game leases",
        include_str!("../../../migrations/postgres/0007_game_leases.sql"),
    ),
    (
        8,
        "game leases before games",
        include_str!("../../../migrations/postgres/0008_game_leases_before_games.sql"),
    ),
    (
        9,
        "game kinds",
        include_str!("../../../migrations/postgres/0009_game_kinds.sql"),
    ),
    (
        10,
        "ratings",
        include_str!("../../../migrations/postgres/0010_ratings.sql"),
    ),
    (
        11,
        "listed games",
        include_str!("../../../migrations/postgres/0011_listed_games.sql"),
    ),
];

const SQLITE_MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        "games",
        include_str!("../../../migrations/sqlite/0001_games.sql"),
    ),
    (
        2,
        "accounts",
        include_str!("../../../migrations/sqlite/0002_accounts.sql"),
    ),
    (
        3,
        "campaigns",
        include_str!("../../../migrations/sqlite/0003_campaigns.sql"),
    ),
    (
        4,
        "abandoned_games",
        include_str!("../../../migrations/sqlite/0004_abandoned_games.sql"),
    ),
    (
        5,
        "rules versions",
        include_str!("../../../migrations/sqlite/0005_rules_versions.sql"),
    ),
    (
        6,
        "campaign versions",
        include_str!("../../../migrations/sqlite/0006_campaign_versions.sql"),
    ),
    (
        7,
        "game leases",
        include_str!("../../../migrations/sqlite/0007_game_leases.sql"),
    ),
    (
        8,
        "game leases before games",
        include_str!("../../../migrations/sqlite/0008_game_leases_before_games.sql"),
    ),
    (
        9,
        "game kinds",
        include_str!("../../../migrations/sqlite/0009_game_kinds.sql"),
    ),
    (
        10,
        "ratings",
        include_str!("../../../migrations/sqlite/0010_ratings.sql"),
    ),
    (
        11,
        "listed games",
        include_str!("../../../migrations/sqlite/0011_listed_games.sql"),
    ),
];

/// The embedded migrations as a source for sqlx's [`Migrator`], which
/// records them in `_sqlx_migrations` (version and checksum) and applies
/// each one once, in its own transaction.
#[derive(Debug)]
struct Embedded(&'static [(i64, &'static str, &'static str)]);

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        let migrations = self
            .0
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    Cow::Borrowed(sql),
                    false,
                )
            })
            .collect();
        Box::pin(async move { Ok(migrations) })
    }
}

const GAME_COLUMNS: &str = "code, options, seed, created_at, lobby, setup, started_at, \
     finished_at, result, campaign, active_at, abandoned_at, engine_version, content_hash, kind, \
     listed";
const CAMPAIGN_COLUMNS: &str = "id, code, name, state, created_at, finished_at, version, kind";

/// Postgres or SQLite behind the [`Store`] trait.
#[derive(Clone, Debug)]
pub struct SqlStore {
    /// Reads (and, on Postgres and in-memory SQLite, writes too).
    pool: AnyPool,
    /// Writes. For a SQLite file, a pool of one connection: SQLite lets
    /// one writer in at a time, and a writer that finds the lock taken
    /// sleeps in growing steps (1, 2, 5, 10 ms and up) before it retries.
    /// Measured with citadel-load, a game start or lobby change competing
    /// with the command writer that way stalled every game's commands for
    /// 20–60 ms; queued on one connection, writes take turns at once.
    writer: AnyPool,
    backend: SqlBackend,
    /// Dropped with the store's last clone, which ends its checkpoint task.
    _checkpointer: Option<std::sync::Arc<tokio::sync::oneshot::Sender<()>>>,
}

impl SqlStore {
    /// Connect and bring the schema up to date.
    ///
    /// - `postgres://user@host:port/db` (add `?options=-c%20search_path%3Dx`
    ///   to use schema `x`);
    /// - `sqlite://path/to/file.db` (relative to the working directory;
    ///   `sqlite:///abs/path.db` for an absolute path): the file and its
    ///   directory are created if missing (`?mode=rwc` is added unless a
    ///   `mode` is given);
    /// - `sqlite::memory:`: a private in-memory database (one connection,
    ///   gone when the store is dropped).
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        let (backend, url) = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            (SqlBackend::Postgres, url.to_string())
        } else if url.starts_with("sqlite:") {
            (SqlBackend::Sqlite, sqlite_url(url))
        } else {
            // Only the scheme: the rest may hold a password.
            let scheme = url.split(':').next().unwrap_or_default();
            return Err(StoreError::Backend(format!(
                "unsupported database url scheme {scheme:?} (want postgres:// or sqlite:)"
            )));
        };
        let in_memory = backend == SqlBackend::Sqlite && is_memory(&url);
        if backend == SqlBackend::Sqlite && !in_memory {
            create_parent_dir(&url)?;
        }
        let options = match backend {
            SqlBackend::Postgres => AnyPoolOptions::new().max_connections(POSTGRES_MAX_CONNECTIONS),
            // Every connection to `sqlite::memory:` opens a database of its
            // own, so an in-memory store keeps exactly one, forever.
            SqlBackend::Sqlite if in_memory => AnyPoolOptions::new()
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None),
            // No ping before each use: a SQLite connection is a local
            // file handle, and the ping is one more round trip to its
            // worker thread on every commit (a failing connection still
            // reports its error on the statement itself).
            SqlBackend::Sqlite => AnyPoolOptions::new()
                .max_connections(SQLITE_MAX_CONNECTIONS)
                .test_before_acquire(false),
        };
        let writer_options = (backend == SqlBackend::Sqlite && !in_memory)
            .then(|| options.clone().max_connections(1));
        let pool = open_pool(options, &url, backend, in_memory).await?;
        let writer = match writer_options {
            Some(o) => open_pool(o, &url, backend, in_memory).await?,
            None => pool.clone(),
        };
        let checkpointer = (backend == SqlBackend::Sqlite && !in_memory)
            .then(|| std::sync::Arc::new(checkpoint_in_background(pool.clone())));
        let store = Self {
            pool,
            writer,
            backend,
            _checkpointer: checkpointer,
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Apply the migrations not applied yet (all of them on a new
    /// database, none on a current one).
    async fn migrate(&self) -> Result<(), StoreError> {
        let source = match self.backend {
            SqlBackend::Postgres => Embedded(POSTGRES_MIGRATIONS),
            SqlBackend::Sqlite => Embedded(SQLITE_MIGRATIONS),
        };
        let migrator = Migrator::new(source)
            .await
            .map_err(|e| StoreError::Backend(format!("migrations: {e}")))?;
        migrator
            .run(&self.writer)
            .await
            .map_err(|e| StoreError::Backend(format!("migrations: {e}")))
    }

    /// The database this store talks to.
    pub fn backend(&self) -> SqlBackend {
        self.backend
    }

    /// The connection pool reads use (health checks, maintenance, tests).
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The connection pool writes go through: for a SQLite file one
    /// connection of its own, else the same as [`SqlStore::pool`].
    pub fn writer(&self) -> &AnyPool {
        &self.writer
    }

    /// Close every connection (waits for those in use). The store is
    /// unusable afterwards.
    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }

    /// A transaction that is going to write. SQLite takes the write lock at
    /// once (`BEGIN IMMEDIATE`, waiting on the busy timeout): a deferred
    /// transaction that reads and then writes can fail with "database is
    /// locked" without waiting if another writer committed in between.
    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.backend {
            SqlBackend::Postgres => self.writer.begin().await,
            SqlBackend::Sqlite => self.writer.begin_with("BEGIN IMMEDIATE").await,
        }
    }

    /// Why `commands` could not be appended: the first record, in order,
    /// whose game does not exist (not found) or whose number is not its
    /// game's next one (a conflict). If every record looks right now, the
    /// database's own error `cause` (or a conflict, for a race that has
    /// passed).
    async fn why_not_appended(
        &self,
        commands: &[CommandRecord],
        cause: Option<sqlx::Error>,
    ) -> StoreError {
        // The next number of each game seen so far; `None`: no such game.
        let mut next: HashMap<&str, Option<i64>> = HashMap::new();
        for c in commands {
            let n = match next.entry(&c.code) {
                Entry::Occupied(n) => n.into_mut(),
                Entry::Vacant(slot) => match self.stored_next_index(&c.code).await {
                    Ok(n) => slot.insert(n),
                    Err(e) => return e,
                },
            };
            match n {
                None => return StoreError::NotFound(c.code.clone()),
                Some(n) if *n != c.index => {
                    return StoreError::Conflict(format!("command {} of {}", c.index, c.code))
                }
                Some(n) => *n += 1,
            }
        }
        let first = &commands[0];
        match cause {
            Some(e) => write_err(
                e,
                || format!("commands from {} of {}", first.index, first.code),
                &first.code,
            ),
            None => {
                StoreError::Conflict(format!("commands from {} of {}", first.index, first.code))
            }
        }
    }

    /// The number the next command of game `code` must have, or `None`
    /// if there is no such game.
    async fn stored_next_index(&self, code: &str) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM games WHERE code = $1) AS found, \
             (SELECT COALESCE(MAX(idx) + 1, 0) FROM commands WHERE code = $1) AS next",
        )
        .bind(code)
        .fetch_one(&self.pool)
        .await
        .map_err(backend_err)?;
        let found: i64 = get(&row, "found")?;
        (found > 0).then(|| get(&row, "next")).transpose()
    }
}

/// Open a pool whose connections are set up for `backend` (SQLite:
/// busy timeout, foreign keys, WAL, full sync, no automatic checkpoint).
async fn open_pool(
    options: AnyPoolOptions,
    url: &str,
    backend: SqlBackend,
    in_memory: bool,
) -> Result<AnyPool, StoreError> {
    options
        // A database that does not hand out a connection within this is
        // down as far as a game is concerned: fail fast, and let the
        // caller's bounded retries decide (docs/STORAGE.md, "Outages").
        .acquire_timeout(Duration::from_secs(5))
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                if backend == SqlBackend::Postgres {
                    // No statement runs for ever on a struggling server.
                    conn.execute("SET statement_timeout = 5000").await?;
                }
                if backend == SqlBackend::Sqlite {
                    // Wait for a competing writer instead of failing.
                    conn.execute(
                        format!("PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}").as_str(),
                    )
                    .await?;
                    // SQLite leaves foreign keys off unless asked, per
                    // connection.
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    // Readers do not block the writer nor it them; a
                    // commit appends to the log instead of rewriting
                    // pages. (An in-memory database stays "memory".)
                    conn.execute("PRAGMA journal_mode = WAL").await?;
                    // FULL: the WAL is fsynced at every commit, so a
                    // command acknowledged is a command kept through a
                    // power loss (NORMAL could lose the last commits).
                    conn.execute("PRAGMA synchronous = FULL").await?;
                    if !in_memory {
                        // Checkpoints run in the background (see
                        // `checkpoint_in_background`), not inside
                        // whichever commit crosses the threshold.
                        conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                    }
                }
                Ok(())
            })
        })
        .connect(url)
        .await
        .map_err(backend_err)
}

/// Rows in one INSERT of commands. Seven parameters a row keeps a
/// statement well inside SQLite's (32,766) and Postgres' (65,535) limits.
const ROWS_PER_INSERT: usize = 1000;

/// Rows in one INSERT of replay steps (three parameters a row).
const STEPS_PER_INSERT: usize = 500;

/// Whether each game's records in `commands` are numbered one after the
/// other, in the order given (the database checks that each game's first
/// one follows what it holds).
fn numbered_in_runs(commands: &[CommandRecord]) -> bool {
    let mut next: HashMap<&str, i64> = HashMap::new();
    commands.iter().all(|c| {
        let n = next.entry(&c.code).or_insert(c.index);
        let in_order = *n == c.index;
        *n += 1;
        in_order
    })
}

/// Insert `commands` (numbered in runs) with one statement.
///
/// Each row carries the number its game's first row here must have: the
/// game's next number as stored before the statement (a statement does not
/// see its own rows). A row of a game that has moved on, or has gaps, gets
/// a NULL number, which the NOT NULL column refuses: the statement fails
/// as a whole and writes nothing. The primary key refuses a repeat racing
/// from another connection; the foreign key an unknown game.
async fn insert_commands<'e, E>(executor: E, commands: &[CommandRecord]) -> Result<(), sqlx::Error>
where
    E: Executor<'e, Database = sqlx::Any>,
{
    let mut sql = String::from(
        "INSERT INTO commands (code, idx, seat, command, at, checksum) \
         SELECT v.column1, \
         CASE WHEN (SELECT COALESCE(MAX(c.idx) + 1, 0) FROM commands c WHERE c.code = v.column1) \
         = v.column6 THEN v.column2 END, \
         v.column3, v.column4, v.column5, v.column7 FROM (VALUES ",
    );
    for k in 0..commands.len() {
        let p = 7 * k;
        let comma = if k == 0 { "" } else { ", " };
        // Writing to a String cannot fail.
        let _ = write!(
            sql,
            "{comma}(${}, ${}, ${}, ${}, ${}, ${}, ${})",
            p + 1,
            p + 2,
            p + 3,
            p + 4,
            p + 5,
            p + 6,
            p + 7
        );
    }
    sql.push_str(") AS v");
    let mut first: HashMap<&str, i64> = HashMap::new();
    let mut query = sqlx::query(&sql);
    for c in commands {
        let game_first = *first.entry(&c.code).or_insert(c.index);
        query = query
            .bind(&c.code)
            .bind(c.index)
            .bind(i64::from(c.seat))
            .bind(&c.command)
            .bind(c.at)
            .bind(game_first)
            .bind(&c.checksum);
    }
    let done = query.execute(executor).await?;
    if done.rows_affected() != commands.len() as u64 {
        return Err(sqlx::Error::Protocol(format!(
            "{} of {} commands inserted",
            done.rows_affected(),
            commands.len()
        )));
    }
    Ok(())
}

/// Add `mode=rwc` (create if missing) to a SQLite file URL without a mode.
fn sqlite_url(url: &str) -> String {
    if is_memory(url) || url.contains("mode=") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    }
}

/// Create the directory of a SQLite file if missing, so that a default
/// like `sqlite://data/citadel.db` works on a fresh machine.
fn create_parent_dir(url: &str) -> Result<(), StoreError> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let path = rest.split('?').next().unwrap_or(rest);
    if path.contains('%') {
        // Percent-encoded: leave the decoding (and any error) to sqlx.
        return Ok(());
    }
    match std::path::Path::new(path).parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.exists() => std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::Backend(format!("creating {}: {e}", dir.display()))),
        _ => Ok(()),
    }
}

fn is_memory(url: &str) -> bool {
    url.contains(":memory:") || url.contains("mode=memory")
}

/// Any database failure, as a backend error with its message.
/// An UPDATE of one row by its key: `NotFound` if no row had that key.
fn updated(done: &AnyQueryResult, key: &str) -> Result<(), StoreError> {
    if done.rows_affected() == 0 {
        return Err(StoreError::NotFound(key.into()));
    }
    Ok(())
}

fn backend_err(e: sqlx::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// A failed write: a unique key taken is a conflict, a missing referenced
/// row is not-found, anything else a backend error.
fn write_err(e: sqlx::Error, conflict: impl FnOnce() -> String, missing: &str) -> StoreError {
    if let sqlx::Error::Database(db) = &e {
        match db.kind() {
            ErrorKind::UniqueViolation => return StoreError::Conflict(conflict()),
            ErrorKind::ForeignKeyViolation => return StoreError::NotFound(missing.to_string()),
            _ => {}
        }
    }
    backend_err(e)
}

fn get<'r, T>(row: &'r AnyRow, column: &str) -> Result<T, StoreError>
where
    T: sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
{
    row.try_get(column)
        .map_err(|e| StoreError::Backend(format!("column {column}: {e}")))
}

/// The seed is a u64; the databases have signed 64-bit integers. Store the
/// same 64 bits.
fn seed_to_db(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

fn seed_from_db(seed: i64) -> u64 {
    u64::from_ne_bytes(seed.to_ne_bytes())
}

fn seat_from_db(seat: i64) -> Result<u8, StoreError> {
    u8::try_from(seat).map_err(|_| StoreError::Backend(format!("seat out of range: {seat}")))
}

fn game_from_row(row: &AnyRow) -> Result<GameRecord, StoreError> {
    Ok(GameRecord {
        code: get(row, "code")?,
        options: get(row, "options")?,
        seed: seed_from_db(get(row, "seed")?),
        created_at: get(row, "created_at")?,
        lobby: get(row, "lobby")?,
        setup: get(row, "setup")?,
        started_at: get(row, "started_at")?,
        finished_at: get(row, "finished_at")?,
        result: get(row, "result")?,
        campaign: get(row, "campaign")?,
        active_at: get(row, "active_at")?,
        abandoned_at: get(row, "abandoned_at")?,
        engine_version: get(row, "engine_version")?,
        content_hash: get(row, "content_hash")?,
        kind: get(row, "kind")?,
        listed: get::<i64>(row, "listed")? != 0,
    })
}

fn command_from_row(row: &AnyRow) -> Result<CommandRecord, StoreError> {
    Ok(CommandRecord {
        code: get(row, "code")?,
        index: get(row, "idx")?,
        seat: seat_from_db(get(row, "seat")?)?,
        command: get(row, "command")?,
        at: get(row, "at")?,
        checksum: get(row, "checksum")?,
    })
}

fn account_from_row(row: &AnyRow) -> Result<AccountRecord, StoreError> {
    Ok(AccountRecord {
        id: get(row, "id")?,
        name: get(row, "name")?,
        password_hash: get(row, "password_hash")?,
        created_at: get(row, "created_at")?,
    })
}

fn session_from_row(row: &AnyRow) -> Result<SessionRecord, StoreError> {
    Ok(SessionRecord {
        token_hash: get(row, "token_hash")?,
        account_id: get(row, "account_id")?,
        created_at: get(row, "created_at")?,
        expires_at: get(row, "expires_at")?,
    })
}

fn campaign_from_row(row: &AnyRow) -> Result<CampaignRecord, StoreError> {
    Ok(CampaignRecord {
        id: get(row, "id")?,
        code: get(row, "code")?,
        name: get(row, "name")?,
        state: get(row, "state")?,
        created_at: get(row, "created_at")?,
        finished_at: get(row, "finished_at")?,
        version: get(row, "version")?,
        kind: get(row, "kind")?,
    })
}

fn mission_from_row(row: &AnyRow) -> Result<CampaignMission, StoreError> {
    Ok(CampaignMission {
        campaign: get(row, "campaign_id")?,
        index: get(row, "idx")?,
        game: get(row, "game")?,
        summary: get(row, "summary")?,
        at: get(row, "at")?,
    })
}

/// The columns of a rating row, in `rating_from_row`'s names.
const RATING_COLUMNS: &str = "kind, player, name, rating, deviation, volatility, games, wins, \
     draws, losses, updated_at";

fn rating_from_row(row: &AnyRow) -> Result<RatingRecord, StoreError> {
    Ok(RatingRecord {
        kind: get(row, "kind")?,
        player: get(row, "player")?,
        name: get(row, "name")?,
        rating: get(row, "rating")?,
        deviation: get(row, "deviation")?,
        volatility: get(row, "volatility")?,
        games: get(row, "games")?,
        wins: get(row, "wins")?,
        draws: get(row, "draws")?,
        losses: get(row, "losses")?,
        updated_at: get(row, "updated_at")?,
    })
}

fn rows<T>(
    rows: Vec<AnyRow>,
    f: impl Fn(&AnyRow) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    rows.iter().map(f).collect()
}

/// The account-name key: Unicode lower case, computed here rather than by
/// SQL `lower()` (ASCII-only in SQLite) so both databases agree.
fn name_key(name: &str) -> String {
    name.to_lowercase()
}

#[async_trait]
impl Store for SqlStore {
    async fn listed_games(&self, started: bool, limit: i64) -> Result<Vec<GameRecord>, StoreError> {
        // The conditions are the partial indexes' (migration 0011).
        let sql = if started {
            format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE listed = 1 AND started_at IS NOT NULL \
                 AND finished_at IS NULL AND abandoned_at IS NULL \
                 ORDER BY active_at DESC, code LIMIT $1"
            )
        } else {
            format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE listed = 1 AND started_at IS NULL \
                 AND finished_at IS NULL AND abandoned_at IS NULL \
                 ORDER BY created_at DESC, code LIMIT $1"
            )
        };
        let found = sqlx::query(&sql)
            .bind(limit.max(0))
            .fetch_all(&self.pool)
            .await
            .map_err(backend_err)?;
        rows(found, game_from_row)
    }

    async fn ratings(
        &self,
        kind: &str,
        players: &[String],
    ) -> Result<Vec<RatingRecord>, StoreError> {
        let mut found = Vec::new();
        for player in players {
            let row = sqlx::query(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE kind = $1 AND player = $2"
            ))
            .bind(kind)
            .bind(player)
            .fetch_optional(&self.pool)
            .await
            .map_err(backend_err)?;
            if let Some(row) = row {
                found.push(rating_from_row(&row)?);
            }
        }
        Ok(found)
    }

    async fn rate_game(
        &self,
        code: &str,
        at: Millis,
        changes: &[RatingChange],
    ) -> Result<Rated, StoreError> {
        let mut tx = self.begin_write().await.map_err(backend_err)?;
        // The game's row first: a second report of the same end stops here.
        let first = sqlx::query(
            "INSERT INTO rated_games (code, at) VALUES ($1, $2) ON CONFLICT (code) DO NOTHING",
        )
        .bind(code)
        .bind(at)
        .execute(&mut *tx)
        .await
        .map_err(backend_err)?;
        if first.rows_affected() == 0 {
            return Ok(Rated::AlreadyRated);
        }
        for c in changes {
            let r = &c.after;
            // A newcomer's row is inserted (and must not exist yet); a
            // known one is changed only from the games it was read with.
            let sql = if c.from_games == 0 {
                "INSERT INTO ratings (kind, player, name, rating, deviation, volatility, \
                 games, wins, draws, losses, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
                 ON CONFLICT (kind, player) DO NOTHING"
            } else {
                "UPDATE ratings SET name = $3, rating = $4, deviation = $5, volatility = $6, \
                 games = $7, wins = $8, draws = $9, losses = $10, updated_at = $11 \
                 WHERE kind = $1 AND player = $2 AND games = $12"
            };
            let done = sqlx::query(sql)
                .bind(&r.kind)
                .bind(&r.player)
                .bind(&r.name)
                .bind(r.rating)
                .bind(r.deviation)
                .bind(r.volatility)
                .bind(r.games)
                .bind(r.wins)
                .bind(r.draws)
                .bind(r.losses)
                .bind(r.updated_at);
            let done = if c.from_games == 0 {
                done
            } else {
                done.bind(c.from_games)
            }
            .execute(&mut *tx)
            .await
            .map_err(backend_err)?;
            if done.rows_affected() == 0 {
                // Dropped, the transaction rolls back: nothing written.
                return Ok(Rated::Conflict);
            }
            sqlx::query(
                "INSERT INTO rating_history (kind, player, code, at, rating, deviation) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (kind, player, code) DO NOTHING",
            )
            .bind(&r.kind)
            .bind(&r.player)
            .bind(code)
            .bind(at)
            .bind(r.rating)
            .bind(r.deviation)
            .execute(&mut *tx)
            .await
            .map_err(backend_err)?;
        }
        tx.commit().await.map_err(backend_err)?;
        Ok(Rated::Applied)
    }

    async fn leaderboard(
        &self,
        kind: &str,
        max_deviation: f64,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<RatingRecord>, StoreError> {
        let found = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE kind = $1 AND deviation <= $2 \
             ORDER BY rating DESC, name, player LIMIT $3 OFFSET $4"
        ))
        .bind(kind)
        .bind(max_deviation)
        .bind(limit.max(0))
        .bind(offset.max(0))
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        rows(found, rating_from_row)
    }

    async fn ratings_of_player(&self, player: &str) -> Result<Vec<RatingRecord>, StoreError> {
        let found = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE player = $1 ORDER BY kind"
        ))
        .bind(player)
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        rows(found, rating_from_row)
    }

    async fn rating_history(
        &self,
        kind: &str,
        player: &str,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let found = sqlx::query(
            "SELECT code, at, rating, deviation FROM rating_history \
             WHERE player = $1 AND kind = $2 ORDER BY at DESC, code DESC LIMIT $3",
        )
        .bind(player)
        .bind(kind)
        .bind(limit.max(0))
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        let mut points = rows(found, |row| {
            Ok(RatingPoint {
                code: get(row, "code")?,
                at: get(row, "at")?,
                rating: get(row, "rating")?,
                deviation: get(row, "deviation")?,
            })
        })?;
        points.reverse();
        Ok(points)
    }

    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1")
            .execute(&self.pool)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn create_game(&self, g: &GameRecord) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO games ({GAME_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
        ))
        .bind(&g.code)
        .bind(&g.options)
        .bind(seed_to_db(g.seed))
        .bind(g.created_at)
        .bind(&g.lobby)
        .bind(&g.setup)
        .bind(g.started_at)
        .bind(g.finished_at)
        .bind(&g.result)
        .bind(&g.campaign)
        .bind(g.active_at)
        .bind(g.abandoned_at)
        .bind(g.engine_version)
        .bind(&g.content_hash)
        .bind(&g.kind)
        .bind(i64::from(g.listed))
        .execute(&self.writer)
        .await
        .map_err(|e| write_err(e, || format!("game {}", g.code), &g.code))?;
        Ok(())
    }

    async fn update_lobby(&self, code: &str, lobby: &str) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE games SET lobby = $2 WHERE code = $1")
            .bind(code)
            .bind(lobby)
            .execute(&self.writer)
            .await
            .map_err(backend_err)?;
        updated(&done, code)
    }

    async fn start_game(
        &self,
        code: &str,
        setup: &str,
        lobby: &str,
        at: Millis,
    ) -> Result<(), StoreError> {
        let done =
            sqlx::query("UPDATE games SET setup = $2, lobby = $3, started_at = $4 WHERE code = $1")
                .bind(code)
                .bind(setup)
                .bind(lobby)
                .bind(at)
                .execute(&self.writer)
                .await
                .map_err(backend_err)?;
        updated(&done, code)
    }

    async fn append_commands(&self, commands: &[CommandRecord]) -> Result<(), StoreError> {
        if commands.is_empty() {
            return Ok(());
        }
        let written = if !numbered_in_runs(commands) {
            // A gap or repeat inside the batch: nothing to write.
            Err(None)
        } else if commands.len() <= ROWS_PER_INSERT {
            // The usual case (a group commit): one statement, committed
            // on its own — one round trip to the database.
            insert_commands(&self.writer, commands).await.map_err(Some)
        } else {
            // One transaction for the chunks: any error returns before the
            // commit, and dropping the transaction rolls everything back.
            async {
                let mut tx = self.begin_write().await?;
                for chunk in commands.chunks(ROWS_PER_INSERT) {
                    insert_commands(&mut *tx, chunk).await?;
                }
                tx.commit().await
            }
            .await
            .map_err(Some)
        };
        match written {
            Ok(()) => Ok(()),
            Err(cause) => Err(self.why_not_appended(commands, cause).await),
        }
    }

    async fn finish_game(&self, code: &str, result: &str, at: Millis) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE games SET result = $2, finished_at = $3 WHERE code = $1")
            .bind(code)
            .bind(result)
            .bind(at)
            .execute(&self.writer)
            .await
            .map_err(backend_err)?;
        updated(&done, code)
    }

    async fn game(&self, code: &str) -> Result<Option<GameRecord>, StoreError> {
        sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE code = $1"))
            .bind(code)
            .fetch_optional(&self.pool)
            .await
            .map_err(backend_err)?
            .as_ref()
            .map(game_from_row)
            .transpose()
    }

    async fn commands(&self, code: &str) -> Result<Vec<CommandRecord>, StoreError> {
        let found = sqlx::query(
            "SELECT code, idx, seat, command, at, checksum FROM commands \
             WHERE code = $1 ORDER BY idx",
        )
        .bind(code)
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        rows(found, command_from_row)
    }

    async fn set_rules_version(
        &self,
        code: &str,
        engine_version: i64,
        content_hash: &str,
    ) -> Result<(), StoreError> {
        let done =
            sqlx::query("UPDATE games SET engine_version = $2, content_hash = $3 WHERE code = $1")
                .bind(code)
                .bind(engine_version)
                .bind(content_hash)
                .execute(&self.writer)
                .await
                .map_err(backend_err)?;
        updated(&done, code)
    }

    async fn save_replay(&self, code: &str, replay: &ReplayRecord) -> Result<(), StoreError> {
        let written = async {
            let mut tx = self.begin_write().await?;
            // Replacing: the old steps go with their header (cascade).
            sqlx::query("DELETE FROM replays WHERE code = $1")
                .bind(code)
                .execute(&mut *tx)
                .await?;
            sqlx::query("INSERT INTO replays (code, header, total_steps) VALUES ($1, $2, $3)")
                .bind(code)
                .bind(&replay.header)
                .bind(replay.steps.len() as i64)
                .execute(&mut *tx)
                .await?;
            for (c, chunk) in replay.steps.chunks(STEPS_PER_INSERT).enumerate() {
                let mut sql = String::from("INSERT INTO replay_steps (code, idx, step) VALUES ");
                for k in 0..chunk.len() {
                    let p = 3 * k;
                    let comma = if k == 0 { "" } else { ", " };
                    // Writing to a String cannot fail.
                    let _ = write!(sql, "{comma}(${}, ${}, ${})", p + 1, p + 2, p + 3);
                }
                let mut query = sqlx::query(&sql);
                for (k, step) in chunk.iter().enumerate() {
                    query = query
                        .bind(code)
                        .bind((c * STEPS_PER_INSERT + k) as i64)
                        .bind(step);
                }
                query.execute(&mut *tx).await?;
            }
            tx.commit().await
        }
        .await;
        written.map_err(|e| write_err(e, || format!("replay of {code}"), code))
    }

    async fn replay_page(
        &self,
        code: &str,
        from: i64,
        count: i64,
    ) -> Result<Option<ReplayPage>, StoreError> {
        let Some(head) = sqlx::query("SELECT header, total_steps FROM replays WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await
            .map_err(backend_err)?
        else {
            return Ok(None);
        };
        let from = from.max(0);
        let found = sqlx::query(
            "SELECT step FROM replay_steps WHERE code = $1 AND idx >= $2 AND idx < $3 \
             ORDER BY idx",
        )
        .bind(code)
        .bind(from)
        .bind(from.saturating_add(count.max(0)))
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        Ok(Some(ReplayPage {
            header: get(&head, "header")?,
            total_steps: get(&head, "total_steps")?,
            steps: rows(found, |r| get(r, "step"))?,
        }))
    }

    async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        let found = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE finished_at IS NULL ORDER BY created_at, code"
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        rows(found, game_from_row)
    }

    async fn touch_game(&self, code: &str, at: Millis) -> Result<(), StoreError> {
        // The comparison is in the SET, not the WHERE, so that a missing
        // game (an error) is told apart from an older time (no change).
        let done = sqlx::query(
            "UPDATE games SET active_at = CASE WHEN active_at < $2 THEN $2 ELSE active_at END \
             WHERE code = $1",
        )
        .bind(code)
        .bind(at)
        .execute(&self.writer)
        .await
        .map_err(backend_err)?;
        updated(&done, code)
    }

    async fn idle_games(
        &self,
        lobby_before: Millis,
        started_before: Millis,
    ) -> Result<Vec<String>, StoreError> {
        let found = sqlx::query(
            "SELECT code FROM games WHERE finished_at IS NULL AND ( \
                (started_at IS NULL AND active_at < $1) \
                OR (started_at IS NOT NULL AND active_at < $2)) \
             ORDER BY active_at, code",
        )
        .bind(lobby_before)
        .bind(started_before)
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        rows(found, |row| get(row, "code"))
    }

    async fn abandon_game(&self, code: &str, at: Millis) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET finished_at = $2, abandoned_at = $2 \
             WHERE code = $1 AND finished_at IS NULL",
        )
        .bind(code)
        .bind(at)
        .execute(&self.writer)
        .await
        .map_err(backend_err)?;
        if done.rows_affected() == 1 {
            return Ok(true);
        }
        match self.game(code).await? {
            Some(_) => Ok(false),
            None => Err(StoreError::NotFound(code.into())),
        }
    }

    async fn link_player(&self, code: &str, seat: u8, account_id: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO game_players (account_id, code, seat) VALUES ($1, $2, $3) \
             ON CONFLICT (account_id, code, seat) DO NOTHING",
        )
        .bind(account_id)
        .bind(code)
        .bind(i64::from(seat))
        .execute(&self.writer)
        .await
        .map_err(|e| write_err(e, || format!("player {account_id} of {code}"), code))?;
        Ok(())
    }

    async fn games_of_account(&self, account_id: &str) -> Result<Vec<GameRecord>, StoreError> {
        let found = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games \
             WHERE code IN (SELECT code FROM game_players WHERE account_id = $1) \
             ORDER BY created_at DESC, code"
        ))
        .bind(account_id)
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        rows(found, game_from_row)
    }

    async fn create_account(&self, a: &AccountRecord) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO accounts (id, name, name_key, password_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&a.id)
        .bind(&a.name)
        .bind(name_key(&a.name))
        .bind(&a.password_hash)
        .bind(a.created_at)
        .execute(&self.writer)
        .await
        .map_err(|e| write_err(e, || format!("account {}", a.name), &a.id))?;
        Ok(())
    }

    async fn account_by_name(&self, name: &str) -> Result<Option<AccountRecord>, StoreError> {
        sqlx::query("SELECT id, name, password_hash, created_at FROM accounts WHERE name_key = $1")
            .bind(name_key(name))
            .fetch_optional(&self.pool)
            .await
            .map_err(backend_err)?
            .as_ref()
            .map(account_from_row)
            .transpose()
    }

    async fn account(&self, id: &str) -> Result<Option<AccountRecord>, StoreError> {
        sqlx::query("SELECT id, name, password_hash, created_at FROM accounts WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(backend_err)?
            .as_ref()
            .map(account_from_row)
            .transpose()
    }

    async fn create_session(&self, s: &SessionRecord) -> Result<(), StoreError> {
        // Like the reference store, a session with the same token hash is
        // replaced.
        sqlx::query(
            "INSERT INTO sessions (token_hash, account_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4) \
             ON CONFLICT (token_hash) DO UPDATE SET account_id = excluded.account_id, \
             created_at = excluded.created_at, expires_at = excluded.expires_at",
        )
        .bind(&s.token_hash)
        .bind(&s.account_id)
        .bind(s.created_at)
        .bind(s.expires_at)
        .execute(&self.writer)
        .await
        .map_err(|e| write_err(e, || "session".to_string(), &s.account_id))?;
        Ok(())
    }

    async fn session(&self, token_hash: &str) -> Result<Option<SessionRecord>, StoreError> {
        sqlx::query(
            "SELECT token_hash, account_id, created_at, expires_at FROM sessions \
             WHERE token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await
        .map_err(backend_err)?
        .as_ref()
        .map(session_from_row)
        .transpose()
    }

    async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.writer)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn create_campaign(&self, c: &CampaignRecord) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO campaigns ({CAMPAIGN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        ))
        .bind(&c.id)
        .bind(&c.code)
        .bind(&c.name)
        .bind(&c.state)
        .bind(c.created_at)
        .bind(c.finished_at)
        .bind(c.version)
        .bind(&c.kind)
        .execute(&self.writer)
        .await
        .map_err(|e| write_err(e, || format!("campaign {}", c.code), &c.id))?;
        Ok(())
    }

    async fn update_campaign(&self, c: &CampaignRecord) -> Result<(), StoreError> {
        // Only over the version the writer read: a row another writer
        // (another node) updated meanwhile is left as it is.
        let done = sqlx::query(
            "UPDATE campaigns SET state = $2, finished_at = $3, name = $4, \
             version = version + 1 WHERE id = $1 AND version = $5",
        )
        .bind(&c.id)
        .bind(&c.state)
        .bind(c.finished_at)
        .bind(&c.name)
        .bind(c.version)
        .execute(&self.writer)
        .await
        .map_err(backend_err)?;
        if done.rows_affected() > 0 {
            return Ok(());
        }
        let exists = sqlx::query("SELECT 1 FROM campaigns WHERE id = $1")
            .bind(&c.id)
            .fetch_optional(&self.pool)
            .await
            .map_err(backend_err)?;
        Err(match exists {
            Some(_) => StoreError::Stale(format!("campaign {}", c.id)),
            None => StoreError::NotFound(c.id.clone()),
        })
    }

    async fn campaign(&self, id: &str) -> Result<Option<CampaignRecord>, StoreError> {
        sqlx::query(&format!(
            "SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(backend_err)?
        .as_ref()
        .map(campaign_from_row)
        .transpose()
    }

    async fn campaign_by_code(&self, code: &str) -> Result<Option<CampaignRecord>, StoreError> {
        sqlx::query(&format!(
            "SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE code = $1"
        ))
        .bind(code)
        .fetch_optional(&self.pool)
        .await
        .map_err(backend_err)?
        .as_ref()
        .map(campaign_from_row)
        .transpose()
    }

    async fn link_campaign_member(
        &self,
        campaign: &str,
        account_id: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO campaign_members (campaign_id, account_id) VALUES ($1, $2) \
             ON CONFLICT (account_id, campaign_id) DO NOTHING",
        )
        .bind(campaign)
        .bind(account_id)
        .execute(&self.writer)
        .await
        .map_err(|e| write_err(e, || format!("member {account_id} of {campaign}"), campaign))?;
        Ok(())
    }

    async fn campaigns_of_account(
        &self,
        account_id: &str,
    ) -> Result<Vec<CampaignRecord>, StoreError> {
        let found = sqlx::query(&format!(
            "SELECT {CAMPAIGN_COLUMNS} FROM campaigns \
             WHERE id IN (SELECT campaign_id FROM campaign_members WHERE account_id = $1) \
             ORDER BY created_at DESC, id"
        ))
        .bind(account_id)
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        rows(found, campaign_from_row)
    }

    async fn add_campaign_mission(&self, m: &CampaignMission) -> Result<(), StoreError> {
        let conflict = || format!("mission {} of {}", m.index, m.campaign);
        // As with commands: inserted only if it is the next number.
        let done = sqlx::query(
            "INSERT INTO campaign_missions (campaign_id, idx, game, summary, at) \
             SELECT $1, $2, $3, $4, $5 \
             WHERE (SELECT COALESCE(MAX(idx) + 1, 0) FROM campaign_missions \
                    WHERE campaign_id = $1) = $2",
        )
        .bind(&m.campaign)
        .bind(m.index)
        .bind(&m.game)
        .bind(&m.summary)
        .bind(m.at)
        .execute(&self.writer)
        .await
        .map_err(|e| write_err(e, conflict, &m.campaign))?;
        if done.rows_affected() == 0 {
            let exists = sqlx::query("SELECT 1 FROM campaigns WHERE id = $1")
                .bind(&m.campaign)
                .fetch_optional(&self.pool)
                .await
                .map_err(backend_err)?
                .is_some();
            return Err(if exists {
                StoreError::Conflict(conflict())
            } else {
                StoreError::NotFound(m.campaign.clone())
            });
        }
        Ok(())
    }

    async fn campaign_missions(&self, campaign: &str) -> Result<Vec<CampaignMission>, StoreError> {
        let found = sqlx::query(
            "SELECT campaign_id, idx, game, summary, at FROM campaign_missions \
             WHERE campaign_id = $1 ORDER BY idx",
        )
        .bind(campaign)
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        rows(found, mission_from_row)
    }

    async fn acquire_lease(
        &self,
        code: &str,
        owner: &str,
        now: Millis,
        expires_at: Millis,
    ) -> Result<bool, StoreError> {
        // One statement: a new row, or the existing row taken over only if
        // it is ours or ran out. Racing nodes serialize on the row; the
        // loser's WHERE fails and it affects nothing.
        let done = sqlx::query(
            "INSERT INTO game_leases (code, owner, expires_at) VALUES ($1, $2, $3) \
             ON CONFLICT (code) DO UPDATE SET owner = excluded.owner, \
             expires_at = excluded.expires_at \
             WHERE game_leases.owner = excluded.owner OR game_leases.expires_at <= $4",
        )
        .bind(code)
        .bind(owner)
        .bind(expires_at)
        .bind(now)
        .execute(&self.writer)
        .await
        .map_err(|e| write_err(e, || format!("lease {code}"), code))?;
        Ok(done.rows_affected() > 0)
    }

    async fn renew_leases(
        &self,
        owner: &str,
        expires_at: Millis,
    ) -> Result<Vec<String>, StoreError> {
        let found =
            sqlx::query("UPDATE game_leases SET expires_at = $2 WHERE owner = $1 RETURNING code")
                .bind(owner)
                .bind(expires_at)
                .fetch_all(&self.writer)
                .await
                .map_err(backend_err)?;
        rows(found, |row| get(row, "code"))
    }

    async fn release_lease(&self, code: &str, owner: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM game_leases WHERE code = $1 AND owner = $2")
            .bind(code)
            .bind(owner)
            .execute(&self.writer)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn expired_leases(&self, now: Millis) -> Result<Vec<String>, StoreError> {
        let found = sqlx::query(
            "SELECT code FROM game_leases WHERE expires_at <= $1 ORDER BY expires_at, code",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await
        .map_err(backend_err)?;
        rows(found, |row| get(row, "code"))
    }

    async fn lease(&self, code: &str) -> Result<Option<LeaseRecord>, StoreError> {
        sqlx::query("SELECT code, owner, expires_at FROM game_leases WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await
            .map_err(backend_err)?
            .map(|row| {
                Ok(LeaseRecord {
                    code: get(&row, "code")?,
                    owner: get(&row, "owner")?,
                    expires_at: get(&row, "expires_at")?,
                })
            })
            .transpose()
    }
}
