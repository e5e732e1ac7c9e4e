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

use crate::clock::wall_clock_ms;
use crate::group_commit::GroupCommit;
use crate::session::{LobbyDoc, Output, Session, SessionConfig, SessionError};
use citadel_protocol::GameOptions;
use citadel_rules::game::{Command, Setup};
use citadel_store::{CommandRecord, GameRecord, Store, StoreError};
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
}

/// A game about to be stored for the first time.
#[derive(Debug)]
pub struct NewGame<'a> {
    /// Join code.
    pub code: &'a str,
    /// Creation options.
    pub options: &'a GameOptions,
    /// The seed of its dice and bots.
    pub seed: u64,
    /// Its lobby document.
    pub lobby: &'a LobbyDoc,
    /// The setup, for a game that starts at once (a campaign mission).
    pub started: Option<&'a Setup>,
    /// The campaign it belongs to.
    pub campaign: Option<&'a str>,
}

/// The games in the store, as the registry and the game tasks use them.
#[derive(Debug)]
pub struct GameStore {
    store: Arc<dyn Store>,
    /// Every game's commands go through it (one transaction per group).
    commands: GroupCommit,
}

impl GameStore {
    /// The games of `store`. Starts the command writer, so it must be
    /// called inside a Tokio runtime.
    pub fn new(store: Arc<dyn Store>) -> Self {
        GameStore {
            commands: GroupCommit::start(Arc::clone(&store)),
            store,
        }
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
        let record = GameRecord {
            code: new.code.to_string(),
            options: to_json(new.options)?,
            seed: new.seed,
            created_at: now,
            lobby: to_json(new.lobby)?,
            setup: new.started.map(to_json).transpose()?,
            started_at: new.started.map(|_| now),
            finished_at: None,
            result: None,
            campaign: new.campaign.map(str::to_string),
            active_at: now,
            abandoned_at: None,
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
        let mut commands = Vec::new();
        for o in outputs {
            if let Output::Applied {
                seat,
                command,
                index,
            } = o
            {
                match serde_json::to_string(command) {
                    Ok(command) => commands.push(CommandRecord {
                        code: code.to_string(),
                        index: *index as i64,
                        seat: *seat,
                        command,
                        at: now,
                    }),
                    Err(e) => tracing::error!(error = %e, "cannot serialize a command"),
                }
            }
        }
        for o in outputs {
            match o {
                Output::Started { setup, lobby } => {
                    let (setup, lobby) = (to_json(setup)?, to_json(lobby)?);
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
            if let Output::Finished { result } = o {
                let result = to_json(result)?;
                with_retry(|| store.finish_game(code, &result, now)).await?;
            }
        }
        Ok(())
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
    /// # Errors
    /// A store failure, a document that does not parse, or data the
    /// engine cannot replay.
    pub async fn restore(
        &self,
        g: &GameRecord,
        config: SessionConfig,
    ) -> Result<Session, RestoreError> {
        let options: GameOptions = from_json(&g.options, "options")?;
        let lobby: LobbyDoc = from_json(&g.lobby, "lobby")?;
        let setup: Option<Setup> = g
            .setup
            .as_deref()
            .map(|s| from_json(s, "setup"))
            .transpose()?;
        let commands = self
            .store
            .commands(&g.code)
            .await?
            .iter()
            .map(|c| Ok((c.seat, from_json::<Command>(&c.command, "command")?)))
            .collect::<Result<Vec<_>, RestoreError>>()?;
        let session = Session::restore(
            g.code.clone(),
            options,
            g.seed,
            &lobby,
            setup.as_ref(),
            &commands,
            // A restored game's task starts its clock at 0, like a new one.
            0,
            config,
        )?;
        if let Some(game) = session.game().filter(|game| game.is_finished()) {
            let result = to_json(&crate::outcome::GameSummary::of(game))?;
            self.store
                .finish_game(&g.code, &result, wall_clock_ms())
                .await?;
        }
        Ok(session)
    }
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

/// Run a store write, retrying a database failure twice (50 ms, 250 ms)
/// in case it was passing; conflicts and missing rows are final.
async fn with_retry<F, Fut>(mut write: F) -> Result<(), StoreError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<(), StoreError>>,
{
    let mut waits = [50u64, 250].into_iter();
    loop {
        match write().await {
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
