//! Persistence mapping: what a game's session asks to keep (its
//! [`Output`]s) turned into store writes, and a stored game turned back
//! into a [`Session`].
//!
//! The store keeps documents as JSON text; this module is the boundary
//! where the typed values (options, lobby, setup, commands, result) are
//! serialized and parsed, so the rest of the server passes types.
//! Writes of a batch are ordered (lobby and start, then the commands in
//! one group-commit transaction, then the end) and a database failure is
//! retried twice before it counts.
//!
//! It is also where the rules version policy lives (docs/STORAGE.md):
//! every game is stored with the [`RulesVersion`] it is made with, every
//! batch of commands with the checksum of the state it left, and a game
//! restored under other rules is replayed against those checksums —
//! continued if it comes out the same, closed as outdated (with a record
//! and the replay of the part that does replay) if not. A finished game's
//! replay is kept whole, so showing it never needs the engine again.

use crate::clock::wall_clock_ms;
use crate::group_commit::GroupCommit;
use crate::outcome::{Outdated, OUTDATED_MESSAGE};
use crate::replay::{self, Check};
use crate::session::{LobbyDoc, Output, SessionConfig, SessionError, StoredGame};
use crate::table::{AnySession, Games, Kind};
use citadel_game::RulesVersion;
use citadel_protocol::{Json, TableOptions};
use citadel_store::{CommandRecord, GameRecord, Store, StoreError};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// Why a stored game cannot be brought back.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// The store failed.
    #[error("store: {0}")]
    Store(#[from] StoreError),
    /// A stored document does not parse.
    #[error("stored {what} does not parse: {error}")]
    Document {
        /// Which document.
        what: &'static str,
        /// The parser's complaint.
        error: serde_json::Error,
    },
    /// The documents parse but the session cannot be rebuilt from them.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The record names a game this server does not play.
    #[error("a {0} game: this server does not play it")]
    UnknownKind(String),
    /// The game was made by other rules and does not replay on these: it
    /// was closed as outdated (recorded as finished, its replay kept up
    /// to where it diverges).
    #[error("closed as outdated: {reason}")]
    Outdated {
        /// What diverged, for the log.
        reason: String,
    },
}

/// A game about to be stored for the first time.
#[derive(Debug)]
pub struct NewGame<'a> {
    /// Join code.
    pub code: &'a str,
    /// Creation options.
    pub options: &'a TableOptions,
    /// The game's kind.
    pub kind: &'a str,
    /// The seed of its dice and bots.
    pub seed: u64,
    /// Its lobby document.
    pub lobby: &'a LobbyDoc,
    /// The setup, for a game that starts at once (a campaign mission).
    pub started: Option<&'a Json>,
    /// The campaign it belongs to.
    pub campaign: Option<&'a str>,
}

/// The games in the store, as the registry and the game tasks use them.
#[derive(Debug)]
pub struct GameStore {
    store: Arc<dyn Store>,
    /// Every game's commands go through it (one transaction per group).
    commands: GroupCommit,
    /// The games this server plays.
    games: Games,
    /// The rules every game is taken to be made on, when not its own
    /// (tests acting as a server of other rules).
    rules: Option<RulesVersion>,
}

impl GameStore {
    /// The games of `store`, played as `games` says, each on the rules
    /// compiled in. Starts the command writer, so it must be called inside
    /// a Tokio runtime.
    pub fn new(store: Arc<dyn Store>, games: Games) -> Self {
        Self::with_rules(store, games, None)
    }

    /// [`GameStore::new`], with `rules`, when given, standing for every
    /// game's rules version (tests act as a server of other rules).
    pub fn with_rules(store: Arc<dyn Store>, games: Games, rules: Option<RulesVersion>) -> Self {
        GameStore {
            commands: GroupCommit::start(Arc::clone(&store)),
            store,
            games,
            rules,
        }
    }

    /// The games this server plays.
    pub fn games(&self) -> &Games {
        &self.games
    }

    /// The game of a stored record.
    ///
    /// # Errors
    /// The record names a game this server does not play.
    pub fn kind_of(&self, g: &GameRecord) -> Result<&Arc<dyn Kind>, RestoreError> {
        self.games
            .get(&g.kind)
            .ok_or_else(|| RestoreError::UnknownKind(g.kind.clone()))
    }

    /// The rules this server plays `kind` by.
    pub fn rules(&self, kind: &dyn Kind) -> RulesVersion {
        self.rules.clone().unwrap_or_else(|| kind.rules())
    }

    /// Whether a stored game was made on the rules this server runs.
    pub fn same_rules(&self, g: &GameRecord) -> bool {
        self.games
            .get(&g.kind)
            .is_some_and(|kind| made_on(g, &self.rules(kind.as_ref())))
    }

    /// The store underneath.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Store a new game.
    ///
    /// # Errors
    /// A store failure.
    pub async fn create(&self, new: NewGame<'_>) -> Result<(), StoreError> {
        let now = wall_clock_ms();
        let rules = match self.games.get(new.kind) {
            Some(kind) => self.rules(kind.as_ref()),
            None => return Err(StoreError::Backend(format!("no game {}", new.kind))),
        };
        let record = GameRecord {
            code: new.code.to_string(),
            options: to_json(new.options)?,
            seed: new.seed,
            created_at: now,
            lobby: to_json(new.lobby)?,
            setup: new.started.map(|s| s.text().to_string()),
            started_at: new.started.map(|_| now),
            finished_at: None,
            result: None,
            campaign: new.campaign.map(str::to_string),
            engine_version: i64::from(rules.engine),
            content_hash: rules.content.clone(),
            kind: new.kind.to_string(),
            active_at: now,
            abandoned_at: None,
            // A campaign's games are its players' only.
            listed: new.options.listed && new.campaign.is_none(),
        };
        self.store.create_game(&record).await
    }

    /// Write a batch's persistence outputs, in order; the accepted
    /// commands of the batch go in one transaction.
    ///
    /// # Errors
    /// The first write that still fails after its retries.
    pub async fn persist(&self, code: &str, outputs: &[Output]) -> Result<(), StoreError> {
        let store = &self.store;
        let now = wall_clock_ms();
        let checksums: HashMap<u64, &String> = outputs
            .iter()
            .filter_map(|o| match o {
                Output::Checksum { index, checksum } => Some((*index, checksum)),
                _ => None,
            })
            .collect();
        let mut commands = Vec::new();
        for o in outputs {
            if let Output::Applied {
                seat,
                command,
                index,
            } = o
            {
                commands.push(CommandRecord {
                    code: code.to_string(),
                    index: *index as i64,
                    seat: *seat,
                    command: command.text().to_string(),
                    at: now,
                    checksum: checksums.get(index).map(|c| (*c).clone()),
                });
            }
        }
        for o in outputs {
            match o {
                Output::Started { setup, lobby } => {
                    let (setup, lobby) = (setup.text().to_string(), to_json(lobby)?);
                    with_retry(|| store.start_game(code, &setup, &lobby, now)).await?
                }
                Output::LobbyChanged { lobby } => {
                    let lobby = to_json(lobby)?;
                    with_retry(|| store.update_lobby(code, &lobby)).await?
                }
                Output::PlayerLinked { seat, account } => {
                    with_retry(|| store.link_player(code, *seat, account)).await?
                }
                _ => {}
            }
        }
        if !commands.is_empty() {
            with_retry(|| self.commands.append(commands.clone())).await?;
        }
        for o in outputs {
            if let Output::Finished { result, rated } = o {
                let result = result.text().to_string();
                with_retry(|| store.finish_game(code, &result, now)).await?;
                self.keep_replay(code);
                if let Some(rated) = rated {
                    // The game is over and stored whatever happens here:
                    // a rating that cannot be written is logged, and the
                    // players are not cut off for it.
                    match crate::ratings::rate_game(store.as_ref(), code, rated, now).await {
                        Ok(Ok(done)) => tracing::debug!(code, ?done, "rated"),
                        Ok(Err(why)) => tracing::info!(code, ?why, "a rated game left unrated"),
                        Err(e) => tracing::warn!(code, error = %e, "cannot rate a finished game"),
                    }
                }
            }
        }
        Ok(())
    }

    /// Make and keep a finished game's replay, in the background: the
    /// engine that finished the game is the one that can replay it, and
    /// the game's players need not wait for it. If it fails (or the
    /// server stops first), the replay endpoint falls back to the engine
    /// for as long as the rules stay the same.
    fn keep_replay(&self, code: &str) {
        let store = Arc::clone(&self.store);
        let games = self.games.clone();
        let code = code.to_string();
        tokio::spawn(async move {
            if let Err(e) = save_replay(&games, store.as_ref(), &code, None, None).await {
                tracing::warn!(%code, error = %e, "cannot keep the replay of a finished game");
            }
        });
    }

    /// A player is connected to the game now (see
    /// [`crate::abandonment`]). Best effort: a failure is logged, since
    /// at worst the game is abandoned a little early.
    pub async fn touch(&self, code: &str) {
        if let Err(e) = with_retry(|| self.store.touch_game(code, wall_clock_ms())).await {
            tracing::warn!(code, error = %e, "cannot record that a game is active");
        }
    }

    /// Close a game as abandoned now. Returns false if it had already
    /// finished.
    ///
    /// # Errors
    /// A store failure.
    pub async fn abandon(&self, code: &str) -> Result<bool, StoreError> {
        self.store.abandon_game(code, wall_clock_ms()).await
    }

    /// Rebuild a stored game's session: its documents parsed, its commands
    /// replayed (see [`Session::restore`]). A game that replays to its end
    /// but is not recorded as finished (a crash between the last command
    /// and the end, two writes) is recorded as finished now, or it would
    /// stay "unfinished" for ever.
    ///
    /// A game made on other rules (another engine version or content
    /// hash, or none recorded) is replayed against the checksums stored
    /// with its commands. If it comes out the same it continues, and is
    /// recorded as made on these rules from now on. If not — a checksum
    /// differs, a command or the setup is refused — it is closed as
    /// outdated: recorded as finished with [`GameSummary::outdated`], its
    /// replay kept up to the last checksum that matched, and
    /// [`RestoreError::Outdated`] returned.
    ///
    /// # Errors
    /// A store failure, a document that does not parse, data the engine
    /// cannot replay, or [`RestoreError::Outdated`].
    pub async fn restore(
        &self,
        g: &GameRecord,
        config: SessionConfig,
    ) -> Result<AnySession, RestoreError> {
        let kind = Arc::clone(self.kind_of(g)?);
        let rules = self.rules(kind.as_ref());
        let options: TableOptions = from_json(&g.options, "options")?;
        let lobby: LobbyDoc = from_json(&g.lobby, "lobby")?;
        let records = self.store.commands(&g.code).await?;
        let commands: Vec<(u8, String)> = records
            .iter()
            .map(|c| (c.seat, c.command.clone()))
            .collect();
        let same = self.same_rules(g);
        if !same && g.is_legacy() && !records.is_empty() {
            if let Err(why) = kind.check_unversioned(&options) {
                // Such a record has no checksums to compare, so a replay
                // could come out as another game without anything
                // noticing: it is closed, not guessed at.
                let reason = format!("made on {}, replayed on {rules}: {why}", rules_of(g));
                return Err(self.close_outdated(g, &records, 0, reason).await);
            }
        }
        let checksums: Vec<Option<String>> = records.iter().map(|c| c.checksum.clone()).collect();
        let restored = kind.restore(
            StoredGame {
                code: &g.code,
                options: &options,
                seed: g.seed,
                lobby: &lobby,
                setup: g.setup.as_deref(),
                commands: &commands,
                checksums: (!same).then_some(&checksums[..]),
            },
            // A restored game's task starts its clock at 0, like a new one.
            0,
            config,
        );
        let session = match restored {
            Ok(session) => session,
            Err(SessionError::Diverged {
                index,
                verified,
                why,
            }) => {
                let reason = format!(
                    "made on {}, replayed on {rules}: command {index} diverges ({why})",
                    rules_of(g),
                );
                return Err(self.close_outdated(g, &records, verified, reason).await);
            }
            Err(SessionError::Setup(e)) if !same => {
                let reason = format!(
                    "made on {}, replayed on {rules}: the setup is refused ({e})",
                    rules_of(g),
                );
                return Err(self.close_outdated(g, &records, 0, reason).await);
            }
            Err(e) => return Err(e.into()),
        };
        if !same {
            tracing::info!(
                code = %g.code,
                from = %rules_of(g),
                to = %rules,
                "game made on other rules replays identically; it continues on these"
            );
            self.store
                .set_rules_version(&g.code, i64::from(rules.engine), &rules.content)
                .await?;
        }
        if let Some(result) = session.summary() {
            self.store
                .finish_game(&g.code, result.text(), wall_clock_ms())
                .await?;
            self.keep_replay(&g.code);
        }
        Ok(session)
    }

    /// Close a game that does not replay on these rules: record it as
    /// finished and outdated, and keep the replay of its first `verified`
    /// commands (those confirmed identical), marked as stopping early.
    /// Returns the error that tells the caller.
    async fn close_outdated(
        &self,
        g: &GameRecord,
        records: &[CommandRecord],
        verified: usize,
        reason: String,
    ) -> RestoreError {
        tracing::warn!(code = %g.code, %reason, "closing a game made on other rules");
        let summary = Outdated {
            outdated: reason.clone(),
        };
        let closed = async {
            let result = to_json(&summary)?;
            self.store
                .finish_game(&g.code, &result, wall_clock_ms())
                .await?;
            let upto = verified.min(records.len());
            save_replay(
                &self.games,
                self.store.as_ref(),
                &g.code,
                Some(upto),
                Some(&reason),
            )
            .await
        };
        match closed.await {
            Ok(()) => RestoreError::Outdated { reason },
            Err(e) => e,
        }
    }
}

/// Whether a stored game was made on `rules` (a legacy record never is).
pub fn made_on(g: &GameRecord, rules: &RulesVersion) -> bool {
    g.engine_version == i64::from(rules.engine) && g.content_hash == rules.content
}

/// "engine N content H", or "unrecorded rules" for a legacy record.
fn rules_of(g: &GameRecord) -> String {
    if g.is_legacy() {
        "unrecorded rules".into()
    } else {
        format!("engine {} content {}", g.engine_version, g.content_hash)
    }
}

/// Make the replay of game `code` (of its first `upto` commands if
/// given; `outdated`: why it stops early) on this engine and keep it.
/// The game must have started; the replay is made on a blocking thread.
async fn save_replay(
    games: &Games,
    store: &dyn Store,
    code: &str,
    upto: Option<usize>,
    outdated: Option<&str>,
) -> Result<(), RestoreError> {
    let Some(game) = store.game(code).await? else {
        return Err(StoreError::NotFound(code.into()).into());
    };
    let Some(kind) = games.get(&game.kind).cloned() else {
        return Err(RestoreError::UnknownKind(game.kind));
    };
    let mut commands = store.commands(code).await?;
    if let Some(upto) = upto {
        commands.truncate(upto);
    }
    let outdated = outdated.map(|why| format!("{OUTDATED_MESSAGE}: {why}"));
    let made = tokio::task::spawn_blocking(move || {
        replay::record(
            kind.as_ref(),
            &game,
            &commands,
            Check::SameRules,
            outdated.as_deref(),
        )
    })
    .await
    .map_err(|e| StoreError::Backend(format!("replay task: {e}")))?;
    let kept = made.map_err(|e| StoreError::Backend(format!("replay: {e}")))?;
    store.save_replay(code, &kept).await?;
    Ok(())
}

/// A value as the JSON text the store keeps. Our own types always
/// serialize; a failure would be a bug, reported as a store error so the
/// write is not taken as done.
fn to_json<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Backend(format!("serialize: {e}")))
}

fn from_json<T: serde::de::DeserializeOwned>(
    text: &str,
    what: &'static str,
) -> Result<T, RestoreError> {
    serde_json::from_str(text).map_err(|error| RestoreError::Document { what, error })
}

/// How long one attempt at a store write may take. A database that does
/// not answer within it (down, or a silent partition that never resets the
/// connection) counts as a failed attempt, so a game's players hear of an
/// outage within [`WRITE_FAILURE_BOUND`], never minutes later. A write that
/// timed out may still have landed: its retry then meets a conflict, which
/// is final — the game closes, and nothing was acknowledged that is not
/// stored.
pub const WRITE_ATTEMPT_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest a failing write keeps a game waiting before it closes with
/// 1011: three attempts and the waits between them.
pub const WRITE_FAILURE_BOUND: Duration =
    Duration::from_millis(3 * (WRITE_ATTEMPT_TIMEOUT.as_millis() as u64) + 50 + 250);

/// Run a store write, retrying a database failure twice (50 ms, 250 ms)
/// in case it was passing; conflicts and missing rows are final. Each
/// attempt is cut off after [`WRITE_ATTEMPT_TIMEOUT`].
async fn with_retry<F, Fut>(mut write: F) -> Result<(), StoreError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<(), StoreError>>,
{
    let mut waits = [50u64, 250].into_iter();
    loop {
        let attempt = tokio::time::timeout(WRITE_ATTEMPT_TIMEOUT, write())
            .await
            .unwrap_or_else(|_| {
                Err(StoreError::Backend(format!(
                    "no answer within {} s",
                    WRITE_ATTEMPT_TIMEOUT.as_secs()
                )))
            });
        match attempt {
            Err(StoreError::Backend(e)) => match waits.next() {
                Some(ms) => {
                    tracing::warn!(error = %e, "store write failed; retrying");
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                }
                None => return Err(StoreError::Backend(e)),
            },
            other => return other,
        }
    }
}
