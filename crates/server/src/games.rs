//! The registry of live games and the task that runs each one.
//!
//! One tokio task per game owns its [`Session`] (single writer); inputs
//! arrive on a bounded channel, outputs go to each connection's bounded
//! queue. A connection whose queue is full is too slow: it is told to
//! close (it will reconnect and catch up) rather than let memory grow.

use crate::error::ServerError;
use crate::group_commit::GroupCommit;
use crate::metrics::{Metrics, ReasonLabel};
use crate::session::{ConnId, Input, Output, ReservedSeat, Session, SessionConfig};
use axum::extract::ws::Utf8Bytes;
use citadel_protocol::{close, ClientMsg, GameOptions, Join, ServerMsg};
use citadel_store::{CommandRecord, GameRecord, Store, StoreError};
use rand::Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc, Notify};

/// What a connection's task is sent.
#[derive(Debug)]
pub enum Outgoing {
    /// A serialized message. `Utf8Bytes` is reference-counted: every
    /// connection a message goes to shares the one serialized copy, down
    /// to the socket write.
    Text(Utf8Bytes),
    /// Close with a code.
    Close(u16, String),
}

/// A connection as the game task knows it.
#[derive(Debug)]
pub struct ConnSink {
    /// Its queue.
    pub tx: mpsc::Sender<Outgoing>,
    /// Pulled when the queue overflows.
    pub too_slow: Arc<Notify>,
}

/// What a game task is sent.
#[derive(Debug)]
pub enum ToGame {
    /// A socket said hello.
    Hello {
        /// Connection id.
        conn: ConnId,
        /// Its queue.
        sink: ConnSink,
        /// How it joins.
        join: Join,
        /// Last seen seq.
        last_seq: Option<u64>,
        /// The logged-in account, if any.
        account: Option<String>,
    },
    /// A message.
    Message {
        /// From.
        conn: ConnId,
        /// Message.
        msg: ClientMsg,
        /// When it arrived (latency metric).
        received: Instant,
    },
    /// The socket closed.
    Closed {
        /// Which.
        conn: ConnId,
    },
}

/// Shared by every request handler.
#[derive(Debug)]
pub struct Registry {
    games: Mutex<HashMap<String, mpsc::Sender<ToGame>>>,
    store: Arc<dyn Store>,
    /// Every game's commands go through it (one transaction per group).
    commands: GroupCommit,
    metrics: Arc<Metrics>,
    session: SessionConfig,
    max_games: usize,
    shutdown: broadcast::Sender<()>,
    /// Serializes the read-modify-write of campaign documents (HTTP
    /// handlers and finishing games).
    campaign_lock: tokio::sync::Mutex<()>,
}

/// Unambiguous characters for join codes: no 0/O, 1/I/L.
const CODE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";

impl Registry {
    /// An empty registry. Starts the command writer, so it must be
    /// called inside a Tokio runtime.
    pub fn new(
        store: Arc<dyn Store>,
        metrics: Arc<Metrics>,
        session: SessionConfig,
        max_games: usize,
        shutdown: broadcast::Sender<()>,
    ) -> Self {
        Registry {
            games: Mutex::new(HashMap::new()),
            commands: GroupCommit::start(Arc::clone(&store)),
            store,
            metrics,
            session,
            max_games,
            shutdown,
            campaign_lock: tokio::sync::Mutex::new(()),
        }
    }

    /// Held while a campaign document is read, changed and written.
    pub(crate) fn campaign_lock(&self) -> &tokio::sync::Mutex<()> {
        &self.campaign_lock
    }

    /// The game with this code.
    pub fn get(&self, code: &str) -> Option<mpsc::Sender<ToGame>> {
        let code = code.trim().to_ascii_uppercase();
        // A std Mutex: held for a lookup, never across an await.
        self.games.lock().ok()?.get(&code).cloned()
    }

    /// Fires when the server shuts down.
    pub fn shutdown_signal(&self) -> broadcast::Receiver<()> {
        self.shutdown.subscribe()
    }

    /// Games live now.
    pub fn len(&self) -> usize {
        self.games.lock().map_or(0, |g| g.len())
    }

    /// True if no game is live.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Validate options, create the lobby, store it and start its task.
    ///
    /// # Errors
    /// [`ServerError::BadRequest`] for bad options, [`ServerError::Full`],
    /// or a store failure.
    pub async fn create(self: &Arc<Self>, options: GameOptions) -> Result<String, ServerError> {
        validate(&options)?;
        let seed: u64 = rand::thread_rng().gen();
        let (tx, rx) = mpsc::channel(1024);
        let code = self.reserve_code(tx)?;
        let session = Session::new(code.clone(), options.clone(), seed, self.session.clone());
        let record = GameRecord {
            code: code.clone(),
            options: serde_json::to_string(&options)
                .map_err(|e| ServerError::Internal(e.into()))?,
            seed,
            created_at: wall_clock_ms(),
            lobby: session.lobby_document(),
            setup: None,
            started_at: None,
            finished_at: None,
            result: None,
            campaign: None,
            engine_version: i64::from(citadel_rules::ENGINE_VERSION),
            content_hash: citadel_rules::Content::embedded_hash().to_string(),
        };
        if let Err(e) = self.store.create_game(&record).await {
            self.remove(&code);
            return Err(ServerError::Internal(anyhow::anyhow!("store: {e}")));
        }
        self.spawn(session, rx, None);
        Ok(code)
    }

    /// Create a campaign mission's game: seats reserved for the campaign's
    /// players, started at once from `setup`, marked with the campaign.
    ///
    /// # Errors
    /// [`ServerError::Full`], a setup the rules refuse, or a store failure.
    pub async fn create_reserved(
        self: &Arc<Self>,
        options: GameOptions,
        seats: Vec<ReservedSeat>,
        setup: citadel_rules::game::Setup,
        campaign: &str,
    ) -> Result<String, ServerError> {
        let (tx, rx) = mpsc::channel(1024);
        let code = self.reserve_code(tx)?;
        let seed = setup.seed;
        let session = Session::reserved(
            code.clone(),
            options.clone(),
            self.session.clone(),
            seats,
            setup,
            0,
        );
        let (session, outputs) = match session {
            Ok(s) => s,
            Err(e) => {
                self.remove(&code);
                return Err(ServerError::Internal(anyhow::anyhow!("campaign game: {e}")));
            }
        };
        let now = wall_clock_ms();
        let started = outputs.iter().find_map(|o| match o {
            Output::Started { setup, lobby } => Some((setup.clone(), lobby.clone())),
            _ => None,
        });
        let (setup, lobby) = started.unwrap_or_default();
        let record = GameRecord {
            code: code.clone(),
            options: serde_json::to_string(&options)
                .map_err(|e| ServerError::Internal(e.into()))?,
            seed,
            created_at: now,
            lobby,
            setup: Some(setup),
            started_at: Some(now),
            finished_at: None,
            result: None,
            campaign: Some(campaign.to_string()),
            engine_version: i64::from(citadel_rules::ENGINE_VERSION),
            content_hash: citadel_rules::Content::embedded_hash().to_string(),
        };
        if let Err(e) = self.store.create_game(&record).await {
            self.remove(&code);
            return Err(ServerError::Internal(anyhow::anyhow!("store: {e}")));
        }
        self.spawn(session, rx, Some(campaign.to_string()));
        Ok(code)
    }

    /// A fresh unique code, registered to `tx`.
    fn reserve_code(&self, tx: mpsc::Sender<ToGame>) -> Result<String, ServerError> {
        let mut rng = rand::thread_rng();
        let mut games = self
            .games
            .lock()
            .map_err(|_| ServerError::Internal(anyhow::anyhow!("registry lock poisoned")))?;
        if games.len() >= self.max_games {
            return Err(ServerError::Full);
        }
        let code = loop {
            let c: String = (0..6)
                .map(|_| char::from(CODE_ALPHABET[rng.gen_range(0..CODE_ALPHABET.len())]))
                .collect();
            if !games.contains_key(&c) {
                break c;
            }
        };
        games.insert(code.clone(), tx);
        self.metrics.games.inc();
        Ok(code)
    }

    fn spawn(
        self: &Arc<Self>,
        session: Session,
        rx: mpsc::Receiver<ToGame>,
        campaign: Option<String>,
    ) {
        tokio::spawn(run_game(
            session,
            rx,
            Arc::clone(self),
            self.shutdown.subscribe(),
            campaign,
        ));
    }

    /// Bring back every unfinished game from the store (after a restart or
    /// a crash). Returns how many came back; a game whose data cannot be
    /// replayed is logged and skipped.
    ///
    /// # Errors
    /// If the store cannot list the games.
    pub async fn restore_all(self: &Arc<Self>) -> Result<usize, ServerError> {
        let games = self
            .store
            .unfinished_games()
            .await
            .map_err(|e| ServerError::Internal(anyhow::anyhow!("store: {e}")))?;
        let mut restored = 0;
        for g in games {
            match self.restore_one(&g).await {
                Ok(()) => restored += 1,
                Err(e) => tracing::error!(code = %g.code, error = %e, "cannot restore game"),
            }
        }
        Ok(restored)
    }

    async fn restore_one(self: &Arc<Self>, g: &GameRecord) -> anyhow::Result<()> {
        let options: GameOptions = serde_json::from_str(&g.options)?;
        let commands = self.store.commands(&g.code).await?;
        let commands: Vec<(u8, citadel_rules::game::Command)> = commands
            .iter()
            .map(|c| Ok((c.seat, serde_json::from_str(&c.command)?)))
            .collect::<Result<_, serde_json::Error>>()?;
        let session = Session::restore(
            g.code.clone(),
            options,
            g.seed,
            &g.lobby,
            g.setup.as_deref(),
            &commands,
            0,
            self.session.clone(),
        )
        .map_err(|e| anyhow::anyhow!(e))?;
        // The last command and the end are two writes: a crash between
        // them leaves a game that replays to its end but is not recorded
        // as finished. Record it now, or it stays "unfinished" for ever.
        if let Some(game) = session.game().filter(|g| g.is_finished()) {
            let result = crate::session::result_summary(game);
            self.store
                .finish_game(&g.code, &result, wall_clock_ms())
                .await?;
        }
        let (tx, rx) = mpsc::channel(1024);
        {
            let mut games = self
                .games
                .lock()
                .map_err(|_| anyhow::anyhow!("registry lock poisoned"))?;
            games.insert(g.code.clone(), tx);
        }
        self.metrics.games.inc();
        self.spawn(session, rx, g.campaign.clone());
        Ok(())
    }

    fn remove(&self, code: &str) {
        if let Ok(mut g) = self.games.lock() {
            if g.remove(code).is_some() {
                self.metrics.games.dec();
            }
        }
    }
}

fn validate(o: &GameOptions) -> Result<(), ServerError> {
    use citadel_protocol::DarkLegionChoice;
    let bad = |m: &str| Err(ServerError::BadRequest(m.to_string()));
    if !citadel_rules::game::state::PLAYABLE_MISSIONS.contains(&o.mission.as_str()) {
        return bad("unknown or unplayable mission");
    }
    let ok_count = match o.dark_legion {
        DarkLegionChoice::Ai => (1..=5).contains(&o.seats),
        DarkLegionChoice::Drawn => (2..=5).contains(&o.seats),
        DarkLegionChoice::Seat(s) => (2..=5).contains(&o.seats) && s < o.seats,
    };
    if !ok_count {
        return bad("seats must be 1-5 with the AI Dark Legion, 2-5 otherwise");
    }
    if !(1..=12).contains(&o.starting_rank) {
        return bad("starting rank must be 1-12");
    }
    Ok(())
}

fn token() -> String {
    let bytes: [u8; 16] = rand::thread_rng().gen();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The shortest pause between two ticks of one game.
const MIN_TICK_MS: u64 = 50;

/// When to tick the session next, on the tokio clock.
fn next_wake(session: &Session, start: Instant, now: u64) -> Option<tokio::time::Instant> {
    session.next_wake().map(|at| {
        // Something due that this round did not do (a bot with no move)
        // is retried shortly, not in a busy loop.
        let at = at.max(now + MIN_TICK_MS);
        tokio::time::Instant::from_std(start) + Duration::from_millis(at)
    })
}

/// Sleep until `at`, or for ever.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Games with nobody connected are dropped after this long.
const IDLE_LIMIT: Duration = Duration::from_secs(30 * 60);

async fn run_game(
    mut session: Session,
    mut rx: mpsc::Receiver<ToGame>,
    registry: Arc<Registry>,
    mut shutdown: broadcast::Receiver<()>,
    campaign: Option<String>,
) {
    let start = Instant::now();
    let mut sinks: HashMap<ConnId, ConnSink> = HashMap::new();
    // When the session next needs a tick (none: only messages matter).
    let mut wake = next_wake(&session, start, 0);
    let mut idle_since = Instant::now();
    let metrics = Arc::clone(&registry.metrics);
    loop {
        let (input, received) = tokio::select! {
            msg = rx.recv() => match msg {
                None => break,
                Some(ToGame::Hello { conn, sink, join, last_seq, account }) => {
                    sinks.insert(conn, sink);
                    (Input::Hello { conn, join, last_seq, fresh_token: token(), account }, None)
                }
                Some(ToGame::Message { conn, msg, received }) => {
                    (Input::Message { conn, msg }, Some(received))
                }
                Some(ToGame::Closed { conn }) => {
                    sinks.remove(&conn);
                    (Input::Closed { conn }, None)
                }
            },
            _ = sleep_until(wake) => (Input::Tick, None),
            _ = shutdown.recv() => {
                for sink in sinks.values() {
                    let _ = sink.tx.try_send(Outgoing::Close(close::SHUTDOWN, "server shutting down".into()));
                }
                break;
            }
        };
        let now = start.elapsed().as_millis() as u64;
        // Slow connections are cut off (they reconnect and catch up); the
        // session's answer to their leaving is delivered like any other.
        // Durable before acknowledged: each batch is stored before it is sent.
        let mut outputs = session.handle(input, now);
        let mut store_failed = false;
        loop {
            if let Err(e) = persist(
                &registry.store,
                &registry.commands,
                session.code(),
                &outputs,
            )
            .await
            {
                // Nothing of an unstored batch may be sent: the game leaves
                // memory and its players are told to come back later. The
                // store still holds every acknowledged command, so a
                // restart brings the game back exactly as they last saw it.
                metrics.store_errors.inc();
                tracing::error!(code = session.code(), error = %e, "store write failed; closing the game");
                for sink in sinks.values() {
                    let _ = sink.tx.try_send(Outgoing::Close(
                        close::STORAGE_FAILURE,
                        "the server cannot save this game now; try again later".into(),
                    ));
                }
                store_failed = true;
                break;
            }
            if let Some(campaign) = &campaign {
                crate::campaigns::after_persist(&registry, campaign, session.code(), &outputs)
                    .await;
            }
            let slow = deliver(outputs, &mut sinks, &metrics);
            if slow.is_empty() {
                break;
            }
            outputs = Vec::new();
            for conn in slow {
                outputs.extend(session.handle(Input::Closed { conn }, now));
            }
        }
        if store_failed {
            break;
        }
        if let Some(t) = received {
            metrics.command_latency.observe(t.elapsed().as_secs_f64());
        }
        wake = next_wake(&session, start, now);
        if sinks.is_empty() {
            if idle_since.elapsed() > IDLE_LIMIT {
                break;
            }
            // Wake to drop the game even if nothing else happens.
            let drop_at = tokio::time::Instant::from_std(idle_since + IDLE_LIMIT);
            wake = Some(wake.map_or(drop_at, |w| w.min(drop_at)));
        } else {
            idle_since = Instant::now();
        }
    }
    registry.remove(session.code());
    tracing::info!(code = session.code(), "game closed");
}

/// Milliseconds since the Unix epoch (record times).
pub fn wall_clock_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
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

/// Write a batch's persistence outputs, in order; the accepted commands of
/// the batch go in one transaction.
///
/// # Errors
/// The first write that still fails after its retries.
async fn persist(
    store: &Arc<dyn Store>,
    commands_writer: &GroupCommit,
    code: &str,
    outputs: &[Output],
) -> Result<(), StoreError> {
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
                    checksum: None,
                }),
                Err(e) => tracing::error!(error = %e, "cannot serialize a command"),
            }
        }
    }
    for o in outputs {
        match o {
            Output::Started { setup, lobby } => {
                with_retry(|| store.start_game(code, setup, lobby, now)).await?
            }
            Output::LobbyChanged { lobby } => {
                with_retry(|| store.update_lobby(code, lobby)).await?
            }
            Output::PlayerLinked { seat, account } => {
                with_retry(|| store.link_player(code, *seat, account)).await?
            }
            _ => {}
        }
    }
    if !commands.is_empty() {
        with_retry(|| commands_writer.append(commands.clone())).await?;
    }
    for o in outputs {
        if let Output::Finished { result: summary } = o {
            with_retry(|| store.finish_game(code, summary, now)).await?;
        }
    }
    Ok(())
}

/// Hand a session's outputs to the connections and the metrics. A
/// connection whose queue is full is told it is too slow and forgotten at
/// once (nothing later in the batch reaches it, so what it got stays
/// contiguous); the caller tells the session it left.
fn deliver(
    outputs: Vec<Output>,
    sinks: &mut HashMap<ConnId, ConnSink>,
    metrics: &Metrics,
) -> Vec<ConnId> {
    let mut slow = Vec::new();
    for o in outputs {
        match o {
            Output::Send { to, msg } => {
                if !to.iter().any(|conn| sinks.contains_key(conn)) {
                    continue;
                }
                // Serialized once, shared by every connection it goes to.
                let text = match serde_json::to_string(&msg) {
                    Ok(t) => Utf8Bytes::from(t),
                    Err(e) => {
                        tracing::error!(error = %e, "cannot serialize a message");
                        continue;
                    }
                };
                for conn in to {
                    let Some(sink) = sinks.get(&conn) else {
                        continue;
                    };
                    if sink.tx.try_send(Outgoing::Text(text.clone())).is_err() {
                        if let Some(sink) = sinks.remove(&conn) {
                            sink.too_slow.notify_one();
                        }
                        slow.push(conn);
                    }
                }
            }
            Output::Close { conn, code, reason } => {
                if let Some(sink) = sinks.remove(&conn) {
                    let _ = sink.tx.try_send(Outgoing::Close(code, reason));
                }
            }
            Output::Applied { .. } => {
                metrics.commands.inc();
            }
            Output::LobbyChanged { .. }
            | Output::Started { .. }
            | Output::Finished { .. }
            | Output::PlayerLinked { .. } => {}
            Output::Refused { reason } => {
                let reason = serde_json::to_value(reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                metrics
                    .rejections
                    .get_or_create(&ReasonLabel { reason })
                    .inc();
            }
        }
    }
    slow
}

/// Parsed `hello`, as the socket layer hands it over.
pub type Hello = (String, Join, Option<u64>);

/// Send a server message built outside a game (errors before `hello`).
pub fn text(msg: &ServerMsg) -> String {
    serde_json::to_string(msg).unwrap_or_default()
}
