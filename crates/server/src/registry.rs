//! The registry of live games: join codes to game tasks, the cap on
//! games, creating and restoring games, and the tasks' lifetimes.
//!
//! Every game task is spawned on a [`TaskTracker`], so shutdown can wait
//! for all of them (mini-redis: a broadcast tells every task to stop, then
//! the server waits until each has finished its batch and closed its
//! connections). Each task carries a guard that removes its game from the
//! registry however the task ends, a panic included.
//!
//! At start the registry first closes the games nobody has played for too
//! long ([`crate::abandonment`]), then restores the live ones in the
//! background, the most recently active first, up to the cap on games,
//! while the server already serves. A game that is in the store but not in
//! memory — left out by the cap, unloaded after idling, or closed by a
//! store failure — loads on demand when someone comes back to it
//! ([`Registry::get_or_load`]). While it runs, a sweep closes idle games
//! that are in the store but not in memory.

use crate::abandonment::AbandonLimits;
use crate::campaign_ledger::CampaignLedger;
use crate::clock::wall_clock_ms;
use crate::codes;
use crate::error::ServerError;
use crate::game_task::{self, GameContext, ToGame};
use crate::lease::Ownership;
use crate::metrics::Metrics;
use crate::options;
use crate::persistence::{GameStore, NewGame, RestoreError};
use crate::session::{SessionConfig, SessionError};
use crate::table::AnySession;
use citadel_protocol::{Json, TableOptions};
use citadel_store::GameRecord;
use rand::Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Messages queued for one game before senders wait.
const GAME_QUEUE: usize = 1024;

/// A game that starts at once with its seats reserved (a campaign
/// mission), as its series made it: see [`Registry::create_reserved`].
#[derive(Debug)]
pub struct Reserved {
    /// The started session.
    pub session: AnySession,
    /// Its setup, as the game's JSON.
    pub setup: Json,
    /// The seed of its dice and bots.
    pub seed: u64,
}

/// Live games, by join code.
#[derive(Debug)]
pub struct Registry {
    /// A std Mutex: held for a lookup or an insert, never across an await.
    games: Mutex<HashMap<String, mpsc::Sender<ToGame>>>,
    store: Arc<GameStore>,
    campaigns: Arc<CampaignLedger>,
    metrics: Arc<Metrics>,
    session: SessionConfig,
    max_games: usize,
    shutdown: broadcast::Sender<()>,
    tasks: TaskTracker,
    limits: AbandonLimits,
    /// Held while a stored game is brought into memory, so that two
    /// clients coming back to the same game load it once. Restores are
    /// rare and short; one lock for all of them is enough.
    loading: tokio::sync::Mutex<()>,
    /// Becomes true when the boot restore has finished: a load on demand
    /// waits for it, so that it never races the boot restore for a game or
    /// for the room under the cap.
    restored: tokio::sync::watch::Sender<bool>,
    /// A lone node, or a cluster node holding leases.
    ownership: Ownership,
    /// The running game tasks (spawned, so under their lease), each with
    /// the token that stops it when its lease is lost.
    running: Mutex<HashMap<String, CancellationToken>>,
    /// Each game running here as its task last saw it: its spectators and
    /// the seats it waits for (the lobby's lists, "my games").
    live_games: Arc<LiveGames>,
    /// In cluster mode: NATS, to serve sockets held by other nodes
    /// ([`crate::relay`]), and their queue length.
    relay: Option<(Arc<crate::cluster::Cluster>, usize)>,
}

/// What one round of lease keeping remembers for the next.
#[derive(Debug, Default)]
pub struct LeaseRound {
    /// When the last successful renewal started.
    renewed: Option<std::time::Instant>,
    /// Leases held last round for games not running here.
    idle: std::collections::HashSet<String>,
}

/// Removes a game from the registry when its task ends, however it ends.
struct Registration {
    registry: Arc<Registry>,
    code: String,
    /// The task's own channel: only its own entry is removed, never one
    /// that another instance of the code put there (weak, so that it does
    /// not keep the channel open).
    channel: mpsc::WeakSender<ToGame>,
}

/// What the lobby and "my games" read of each game running on this node,
/// kept by the game tasks after every batch: its spectators and the seats
/// it waits for.
#[derive(Debug, Default)]
pub struct LiveGames(Mutex<HashMap<String, LiveStatus>>);

/// A running game's spectators and the seats it waits for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveStatus {
    /// Spectators now.
    pub spectators: u32,
    /// The seats the game waits for.
    pub to_act: Vec<u8>,
}

impl LiveGames {
    /// Game `code` is like this now.
    pub fn set(&self, code: &str, status: LiveStatus) {
        if let Ok(mut w) = self.0.lock() {
            if w.get(code) != Some(&status) {
                w.insert(code.to_string(), status);
            }
        }
    }

    /// Game `code` stopped running here.
    pub fn remove(&self, code: &str) {
        if let Ok(mut w) = self.0.lock() {
            w.remove(code);
        }
    }

    /// Game `code`'s spectators, if it runs here.
    pub fn of(&self, code: &str) -> Option<u32> {
        self.status(code).map(|s| s.spectators)
    }

    /// Game `code`'s status, if it runs here.
    pub fn status(&self, code: &str) -> Option<LiveStatus> {
        self.0.lock().ok().and_then(|w| w.get(code).cloned())
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.registry.live_games.remove(&self.code);
        if let Ok(mut running) = self.registry.running.lock() {
            if running.remove(&self.code).is_some() {
                self.registry.metrics.owned_games.dec();
            }
        }
        self.registry.remove_own(&self.code, &self.channel);
    }
}

impl Registry {
    /// The spectators and waiting seats of the games running here.
    pub fn live_games(&self) -> &LiveGames {
        &self.live_games
    }

    /// An empty registry.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: Arc<GameStore>,
        campaigns: Arc<CampaignLedger>,
        metrics: Arc<Metrics>,
        session: SessionConfig,
        max_games: usize,
        limits: AbandonLimits,
        shutdown: broadcast::Sender<()>,
    ) -> Self {
        Registry {
            games: Mutex::new(HashMap::new()),
            store,
            campaigns,
            metrics,
            session,
            max_games,
            shutdown,
            tasks: TaskTracker::new(),
            limits,
            loading: tokio::sync::Mutex::new(()),
            restored: tokio::sync::watch::Sender::new(true),
            ownership: Ownership::Solo,
            running: Mutex::new(HashMap::new()),
            live_games: Arc::default(),
            relay: None,
        }
    }

    /// Serve this node's games to sockets held by other nodes, over NATS,
    /// with `send_queue` messages queued per remote socket.
    pub fn with_relay(mut self, cluster: Arc<crate::cluster::Cluster>, send_queue: usize) -> Self {
        self.relay = Some((cluster, send_queue));
        self
    }

    /// Run as a cluster node (games under leases) rather than alone.
    pub fn with_ownership(mut self, ownership: Ownership) -> Self {
        self.ownership = ownership;
        self
    }

    /// How this server owns its games.
    pub fn ownership(&self) -> &Ownership {
        &self.ownership
    }

    /// The counters this registry updates.
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// The codes of the games running here.
    pub fn running_codes(&self) -> Vec<String> {
        self.running
            .lock()
            .map(|r| r.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The game with this code.
    pub fn get(&self, code: &str) -> Option<mpsc::Sender<ToGame>> {
        let code = codes::normalize(code);
        self.games.lock().ok()?.get(&code).cloned()
    }

    /// The game with this code, loaded from the store if it is there,
    /// unfinished and not in memory (after a restart, after idling out of
    /// memory, or after a store failure closed its task). `None` if there
    /// is no such live game; a game made on other rules that does not
    /// replay on these is closed as outdated on the way
    /// ([`GameStore::restore`]).
    ///
    /// # Errors
    /// [`ServerError::Full`] at the cap on games, or a store failure.
    pub async fn get_or_load(
        self: &Arc<Self>,
        code: &str,
    ) -> Result<Option<mpsc::Sender<ToGame>>, ServerError> {
        if let Some(tx) = self.get(code) {
            return Ok(Some(tx));
        }
        let code = codes::normalize(code);
        // The boot restore may be bringing this very game back.
        let mut done = self.restored.subscribe();
        let _ = done.wait_for(|d| *d).await;
        let _loading = self.loading.lock().await;
        if let Some(tx) = self.get(&code) {
            return Ok(Some(tx));
        }
        let Some(g) = self.store.store().game(&code).await? else {
            return Ok(None);
        };
        if g.finished_at.is_some() || g.abandoned_at.is_some() {
            return Ok(None);
        }
        if self.len() >= self.max_games {
            return Err(ServerError::Full);
        }
        match self.restore_one(&g).await {
            Ok(true) => {
                tracing::info!(code, "stored game loaded on demand");
                Ok(self.get(&code))
            }
            // Another node runs it.
            Ok(false) => Ok(None),
            Err(RestoreError::Outdated { .. }) => Ok(None),
            Err(RestoreError::Store(e)) => Err(e.into()),
            Err(e) => {
                tracing::error!(code, error = %e, "cannot load a stored game");
                Err(ServerError::Internal(anyhow::anyhow!(
                    "cannot load game {code}"
                )))
            }
        }
    }

    /// Restore the live games ([`Registry::restore_all`]) in the
    /// background, so the server serves meanwhile; loads on demand wait
    /// until it is done.
    pub fn restore_in_background(self: &Arc<Self>) {
        self.restored.send_replace(false);
        let registry = Arc::clone(self);
        self.tasks.spawn(async move {
            let started = std::time::Instant::now();
            match registry.restore_all().await {
                Ok(0) => {}
                Ok(restored) => tracing::info!(
                    restored,
                    ms = started.elapsed().as_millis() as u64,
                    "unfinished games restored"
                ),
                Err(e) => tracing::error!(error = %e, "cannot restore the unfinished games"),
            }
            registry.restored.send_replace(true);
        });
    }

    /// Whether the boot restore has finished.
    pub fn is_restored(&self) -> bool {
        *self.restored.borrow()
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

    /// The stored games and the games this server plays.
    pub fn game_store(&self) -> &Arc<GameStore> {
        &self.store
    }

    /// Validate options, create the lobby, store it and start its task.
    ///
    /// # Errors
    /// [`ServerError::BadRequest`] for bad options, [`ServerError::Full`],
    /// or a store failure.
    pub async fn create(self: &Arc<Self>, options: TableOptions) -> Result<String, ServerError> {
        let kind = options::validate(self.store.games(), &options)?;
        let seed: u64 = rand::thread_rng().gen();
        let (tx, rx) = mpsc::channel(GAME_QUEUE);
        let code = self.reserve_code(tx.clone())?;
        let session =
            match kind.new_session(code.clone(), options.clone(), seed, self.session.clone()) {
                Ok(session) => session,
                Err(e) => {
                    self.remove(&code);
                    return Err(ServerError::BadRequest(e.to_string()));
                }
            };
        let new = NewGame {
            code: &code,
            options: &options,
            kind: kind.id(),
            seed,
            lobby: &session.lobby_document(),
            started: None,
            campaign: None,
        };
        // The lease first: from the moment the game is stored, a node
        // restoring the unfinished games could take it.
        self.take_new_lease(&code).await?;
        if let Err(e) = self.store.create(new).await {
            self.ownership
                .release(self.store.store().as_ref(), &code)
                .await;
            self.remove(&code);
            return Err(e.into());
        }
        self.spawn(session, &tx, rx, None, Duration::ZERO);
        Ok(code)
    }

    /// Create a campaign mission's game: seats reserved for the campaign's
    /// players, started at once from `setup`, marked with the campaign.
    ///
    /// # Errors
    /// [`ServerError::Full`], a setup the rules refuse, or a store failure.
    pub async fn create_reserved(
        self: &Arc<Self>,
        options: TableOptions,
        start: impl FnOnce(String, SessionConfig) -> Result<Reserved, SessionError>,
        campaign: &str,
    ) -> Result<String, ServerError> {
        let (tx, rx) = mpsc::channel(GAME_QUEUE);
        let code = self.reserve_code(tx.clone())?;
        let reserved = match start(code.clone(), self.session.clone()) {
            Ok(reserved) => reserved,
            Err(e) => {
                self.remove(&code);
                // The campaign made a setup the rules refuse: a bug.
                return Err(ServerError::Internal(
                    anyhow::Error::new(e).context("campaign game"),
                ));
            }
        };
        let session = reserved.session;
        self.take_new_lease(&code).await?;
        let new = NewGame {
            code: &code,
            options: &options,
            kind: session.kind(),
            seed: reserved.seed,
            lobby: &session.lobby_document(),
            started: Some(&reserved.setup),
            campaign: Some(campaign),
        };
        if let Err(e) = self.store.create(new).await {
            self.ownership
                .release(self.store.store().as_ref(), &code)
                .await;
            self.remove(&code);
            return Err(e.into());
        }
        self.spawn(session, &tx, rx, Some(campaign.to_string()), Duration::ZERO);
        Ok(code)
    }

    /// The lease on a new game, taken before the game is stored (nobody
    /// else can hold it: its code is new here, and a code another node
    /// holds is refused). On failure the game leaves the registry.
    async fn take_new_lease(&self, code: &str) -> Result<(), ServerError> {
        match self
            .ownership
            .acquire(self.store.store().as_ref(), code)
            .await
        {
            Ok(true) => Ok(()),
            Ok(false) => {
                self.remove(code);
                Err(ServerError::Internal(anyhow::anyhow!(
                    "the lease of new game {code} is held by another node"
                )))
            }
            Err(e) => {
                self.remove(code);
                Err(e.into())
            }
        }
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
            let c = codes::random_code(&mut rng);
            if !games.contains_key(&c) {
                break c;
            }
        };
        games.insert(code.clone(), tx);
        self.metrics.games.inc();
        Ok(code)
    }

    /// Start a game's task (registered under its code with `tx`), with the
    /// guard that deregisters it. No player has been connected for
    /// `idle_before`.
    fn spawn(
        self: &Arc<Self>,
        session: AnySession,
        tx: &mpsc::Sender<ToGame>,
        rx: mpsc::Receiver<ToGame>,
        campaign: Option<String>,
        idle_before: Duration,
    ) {
        let code = session.code().to_string();
        let lost = CancellationToken::new();
        if let Ok(mut running) = self.running.lock() {
            if running.insert(code.clone(), lost.clone()).is_none() {
                self.metrics.owned_games.inc();
            }
        }
        let registration = Registration {
            registry: Arc::clone(self),
            code: code.clone(),
            channel: tx.downgrade(),
        };
        let relay_to = self.relay.as_ref().zip(self.ownership.cluster());
        if let Some(((cluster, queue), lease)) = relay_to {
            let relay = crate::relay::serve_game(
                Arc::clone(cluster),
                code.clone(),
                tx.clone(),
                Arc::clone(&self.metrics),
                *queue,
                // An edge silent for a lease time is taken for dead.
                lease.ttl,
            );
            self.tasks.spawn(async move {
                if let Some(relay) = relay.await {
                    relay.await;
                }
            });
        }
        let registry = Arc::clone(self);
        let shutdown = self.shutdown.subscribe();
        if self.tasks.is_closed() {
            // The server began to stop before this game came (a hello or
            // a lobby request in flight): it has missed the signal, which
            // is sent once. Say it again (the others are stopping anyway);
            // otherwise the game would run on, holding its lease, until
            // the process died, and nobody could load it for a lease time.
            let _ = self.shutdown.send(());
        }
        let ctx = GameContext {
            live_games: Arc::clone(&self.live_games),
            lost: lost.clone(),
            games: Arc::clone(&self.store),
            campaigns: Arc::clone(&self.campaigns),
            campaign,
            metrics: Arc::clone(&self.metrics),
            shutdown,
            limits: self.limits,
            idle_before,
        };
        self.tasks.spawn(async move {
            // Dropped when the task ends, also when it panics (tokio drops
            // a panicked task's future).
            let _registration = registration;
            game_task::run(session, rx, ctx).await;
            // The lease goes back as the game leaves memory (unless it
            // was lost: then it is not ours to give).
            if !lost.is_cancelled() {
                registry
                    .ownership
                    .release(registry.store.store().as_ref(), &code)
                    .await;
            }
        });
    }

    /// After a restart or a crash: close the games abandoned meanwhile,
    /// then bring back the live ones, the most recently active first, up
    /// to the cap on games (the rest stay in the store, unfinished).
    /// Returns how many came back; a game made on other rules that does
    /// not replay on these is closed as outdated (see
    /// [`GameStore::restore`]); a game whose data cannot be replayed is
    /// logged and skipped.
    ///
    /// # Errors
    /// If the store cannot list the games.
    pub async fn restore_all(self: &Arc<Self>) -> Result<usize, ServerError> {
        let _loading = self.loading.lock().await;
        let abandoned = self.sweep_unlocked().await?;
        if abandoned > 0 {
            tracing::info!(
                abandoned,
                "games nobody played for too long closed as abandoned"
            );
        }
        let mut games = self.store.store().unfinished_games().await?;
        games.sort_by_key(|g| std::cmp::Reverse(g.active_at));
        let room = self.max_games.saturating_sub(self.len());
        if games.len() > room {
            tracing::warn!(
                unfinished = games.len(),
                max_games = self.max_games,
                "more unfinished games than the cap; the least recently active stay in the store"
            );
            games.truncate(room);
        }
        let mut restored = 0;
        for g in games {
            match self.restore_one(&g).await {
                Ok(true) => restored += 1,
                // Another node runs it.
                Ok(false) => {}
                // Recorded and logged where it was closed.
                Err(RestoreError::Outdated { .. }) => {}
                Err(e) => tracing::error!(code = %g.code, error = %e, "cannot restore game"),
            }
        }
        Ok(restored)
    }

    /// Restore one stored game if this node gets its lease and the game
    /// is not live here already. Returns false (restoring nothing) if
    /// another node holds the lease, or if it is live here.
    ///
    /// A game is live here at most once: the boot restore lists the
    /// unfinished games while the server already serves, so a game created
    /// in the first moments after the listener opened is both live (its
    /// creator started it) and in the list. Loaded again, it ran twice:
    /// two tasks for one code, the registry pointing at the second while
    /// the first player sat in the first.
    async fn restore_one(self: &Arc<Self>, g: &GameRecord) -> Result<bool, RestoreError> {
        // A stopping node takes no game: another node will.
        if self.tasks.is_closed() {
            return Ok(false);
        }
        // Live here: its lease (in cluster mode) is this node's already,
        // and must not be given back below.
        if self.get(&g.code).is_some() {
            return Ok(false);
        }
        let store = self.store.store();
        if !self.ownership.acquire(store.as_ref(), &g.code).await? {
            return Ok(false);
        }
        let session = match self.store.restore(g, self.session.clone()).await {
            Ok(session) => session,
            Err(e) => {
                self.ownership.release(store.as_ref(), &g.code).await;
                return Err(e);
            }
        };
        let (tx, rx) = mpsc::channel(GAME_QUEUE);
        // Checked again and inserted under one lock: the code may have
        // become live while the game replayed (a new game drawing the same
        // code, whose store insert then fails). The first one stays.
        let inserted = match self.games.lock() {
            Ok(mut games) => match games.entry(g.code.clone()) {
                std::collections::hash_map::Entry::Occupied(_) => false,
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(tx.clone());
                    true
                }
            },
            Err(_) => false,
        };
        if !inserted {
            tracing::warn!(code = %g.code, "a game being restored is live already; kept the live one");
            return Ok(false);
        }
        self.metrics.games.inc();
        let idle = wall_clock_ms().saturating_sub(g.active_at).max(0);
        let idle = Duration::from_millis(u64::try_from(idle).unwrap_or(0));
        self.spawn(session, &tx, rx, g.campaign.clone(), idle);
        Ok(true)
    }

    /// Close as abandoned every game in the store that nobody has played
    /// for its limit and that is not in memory (a game in memory keeps
    /// its own clock). Returns how many were closed.
    ///
    /// # Errors
    /// If the store cannot list the idle games; a game that cannot be
    /// closed is logged and left for the next sweep.
    pub async fn sweep(&self) -> Result<usize, ServerError> {
        // Not while a game is being loaded: it could be this one.
        let _loading = self.loading.lock().await;
        self.sweep_unlocked().await
    }

    async fn sweep_unlocked(&self) -> Result<usize, ServerError> {
        let (lobby_before, started_before) = self.limits.cutoffs(wall_clock_ms());
        let idle = self
            .store
            .store()
            .idle_games(lobby_before, started_before)
            .await?;
        let mut closed = 0;
        for code in idle {
            if self.get(&code).is_some() {
                continue;
            }
            if self.ownership.cluster().is_some() {
                // Another node's game keeps its own clock while it runs.
                let now = wall_clock_ms();
                match self.store.store().lease(&code).await {
                    Ok(Some(l)) if l.expires_at > now => continue,
                    Ok(_) => {}
                    Err(e) => {
                        tracing::warn!(code, error = %e, "cannot read a game's lease");
                        continue;
                    }
                }
            }
            match self.store.abandon(&code).await {
                Ok(true) => closed += 1,
                Ok(false) => {}
                Err(e) => tracing::warn!(code, error = %e, "cannot close an abandoned game"),
            }
        }
        Ok(closed)
    }

    /// Sweep the store every [`AbandonLimits::sweep_every`] until the
    /// server shuts down.
    pub fn start_sweeping(self: &Arc<Self>) {
        let registry = Arc::clone(self);
        let mut stop = self.shutdown.subscribe();
        self.tasks.spawn(async move {
            let mut every = tokio::time::interval(registry.limits.sweep_every());
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            every.tick().await; // The first tick is now, and start has swept.
            loop {
                tokio::select! {
                    _ = every.tick() => match registry.sweep().await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(abandoned = n, "idle games closed as abandoned"),
                        Err(e) => tracing::warn!(error = %e, "cannot sweep for abandoned games"),
                    },
                    _ = stop.recv() => break,
                }
            }
        });
    }

    /// Cluster mode: every [`crate::lease::LeaseConfig::renew_every`],
    /// renew this node's leases ([`Registry::lease_round`]) until the
    /// server shuts down. Nothing for a lone node.
    pub fn start_leasing(self: &Arc<Self>) {
        let Some(every) = self.ownership.cluster().map(|c| c.renew_every) else {
            return;
        };
        let registry = Arc::clone(self);
        let mut stop = self.shutdown.subscribe();
        self.tasks.spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut state = LeaseRound::default();
            loop {
                tokio::select! {
                    _ = tick.tick() => registry.lease_round(&mut state).await,
                    _ = stop.recv() => break,
                }
            }
        });
    }

    /// One round of lease keeping: renew every lease this node holds; stop
    /// the games whose lease another node took (or that this node cannot
    /// be sure it still holds, when the store has not answered for nearly
    /// a lease time); give back leases held for games not running here;
    /// then take over the games of nodes that stopped renewing.
    pub async fn lease_round(self: &Arc<Self>, state: &mut LeaseRound) {
        let Some(cfg) = self.ownership.cluster() else {
            return;
        };
        let store = self.store.store();
        let started = std::time::Instant::now();
        // Before the renewal: a game spawned after this snapshot may have
        // taken its lease after the renewal read the table.
        let running: Vec<(String, CancellationToken)> = self
            .running
            .lock()
            .map(|r| r.iter().map(|(c, t)| (c.clone(), t.clone())).collect())
            .unwrap_or_default();
        match self.ownership.renew(store.as_ref()).await {
            Ok(held) => {
                state.renewed = Some(started);
                let held: std::collections::HashSet<String> = held.into_iter().collect();
                for (code, lost) in &running {
                    if !held.contains(code) {
                        tracing::warn!(code, "lease lost; stopping the game here");
                        lost.cancel();
                    }
                }
                // A lease held for a game not running here (its release
                // failed): given back if it is still so next round (a game
                // being created or restored holds its lease a moment before
                // it runs).
                let now_running: std::collections::HashSet<String> =
                    self.running_codes().into_iter().collect();
                let idle: std::collections::HashSet<String> = held
                    .into_iter()
                    .filter(|c| !now_running.contains(c))
                    .collect();
                for code in idle.intersection(&state.idle) {
                    if self.get(code).is_none() {
                        self.ownership.release(store.as_ref(), code).await;
                    }
                }
                state.idle = idle;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot renew the game leases");
                // The leases were last moved on at `renewed`; if they may
                // run out before the next round, another node may take the
                // games: stop them first.
                let since = state
                    .renewed
                    .map_or(Duration::MAX, |t| started.duration_since(t));
                if since.saturating_add(cfg.renew_every) >= cfg.ttl {
                    for (code, lost) in &running {
                        tracing::warn!(code, "lease not renewed in time; stopping the game here");
                        lost.cancel();
                    }
                }
            }
        }
        match self.take_over_expired().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(games = n, "games taken over from a node that stopped"),
            Err(e) => tracing::warn!(error = %e, "cannot look for expired leases"),
        }
    }

    /// Take over the games whose lease ran out (their node stopped
    /// renewing): each restored here from its commands, if this node gets
    /// the lease first. Returns how many it took.
    ///
    /// # Errors
    /// If the store cannot list the expired leases.
    pub async fn take_over_expired(self: &Arc<Self>) -> Result<usize, ServerError> {
        if self.ownership.cluster().is_none() || !self.is_restored() {
            return Ok(0);
        }
        let store = self.store.store();
        let expired = store.expired_leases(wall_clock_ms()).await?;
        let mut taken = 0;
        for code in expired {
            if self.get(&code).is_some() {
                continue;
            }
            let _loading = self.loading.lock().await;
            if self.get(&code).is_some() {
                continue;
            }
            let g = match store.game(&code).await {
                Ok(Some(g)) => g,
                Ok(None) => {
                    // A new game's lease whose game was never stored (its
                    // node died in between): clear it.
                    if let Ok(true) = self.ownership.acquire(store.as_ref(), &code).await {
                        self.ownership.release(store.as_ref(), &code).await;
                    }
                    continue;
                }
                Err(e) => {
                    tracing::warn!(code, error = %e, "cannot read a game to take over");
                    continue;
                }
            };
            if g.finished_at.is_some() {
                // A finished game's lease left behind: clear it.
                if let Ok(true) = self.ownership.acquire(store.as_ref(), &code).await {
                    self.ownership.release(store.as_ref(), &code).await;
                }
                continue;
            }
            if self.len() >= self.max_games {
                break;
            }
            match self.restore_one(&g).await {
                Ok(true) => {
                    taken += 1;
                    self.metrics.lease_takeovers.inc();
                    tracing::info!(code, "game taken over from a node whose lease ran out");
                }
                Ok(false) => {}
                Err(RestoreError::Outdated { .. }) => {}
                Err(e) => tracing::error!(code, error = %e, "cannot take over a game"),
            }
        }
        Ok(taken)
    }

    fn remove(&self, code: &str) {
        if let Ok(mut g) = self.games.lock() {
            if g.remove(code).is_some() {
                self.metrics.games.dec();
            }
        }
    }

    /// Remove `code` if its entry is `channel`'s (a task ending removes
    /// its own registration only).
    fn remove_own(&self, code: &str, channel: &mpsc::WeakSender<ToGame>) {
        // A dropped channel cannot be the one in the map, which holds a
        // sender of it.
        let Some(own) = channel.upgrade() else {
            return;
        };
        if let Ok(mut g) = self.games.lock() {
            if g.get(code).is_some_and(|tx| tx.same_channel(&own)) {
                g.remove(code);
                self.metrics.games.dec();
            }
        }
    }

    /// Tell every game the server is stopping and wait up to `limit` for
    /// their tasks to end (each finishes the batch in hand, stores it and
    /// closes its connections). Returns whether all ended in time.
    pub async fn shut_down(&self, limit: Duration) -> bool {
        // Closed before the signal, so a game spawned after the signal
        // sees the tracker closed and is told again ([`Registry::spawn`]).
        self.tasks.close();
        let _ = self.shutdown.send(());
        tokio::time::timeout(limit, self.tasks.wait()).await.is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delivery::{ConnSink, Outgoing, INTERNAL_ERROR};
    use crate::session::Hello;
    use crate::table::Games;
    use citadel_protocol::Join;
    use tokio::sync::Notify;

    fn registry() -> Arc<Registry> {
        let store: Arc<dyn citadel_store::Store> = Arc::new(citadel_store::MemStore::new());
        let (shutdown, _) = broadcast::channel(1);
        Arc::new(Registry::new(
            Arc::new(GameStore::new(Arc::clone(&store), games())),
            Arc::new(CampaignLedger::new(store, games())),
            Arc::new(Metrics::new()),
            SessionConfig::default(),
            10,
            AbandonLimits::default(),
            shutdown,
        ))
    }

    /// The platform's own test game: these tests are about the registry,
    /// not about any game.
    fn games() -> Games {
        Games::new()
            .with::<citadel_test_game::Tricks>()
            .expect("one game")
    }

    /// A table of the test game for two players.
    fn options() -> TableOptions {
        serde_json::from_value(serde_json::json!({"kind": "tricks", "seats": 2})).expect("options")
    }

    /// A lobby request or a hello in flight when the server begins to stop
    /// makes a game after the stop signal went out: that game stops too
    /// (and gives its lease back) instead of outliving the shutdown.
    #[tokio::test]
    async fn a_game_made_after_the_shutdown_began_stops_too() {
        let registry = registry();
        assert!(registry.shut_down(Duration::from_secs(5)).await);
        let code = registry.create(options()).await.expect("created");
        let ended = tokio::time::timeout(Duration::from_secs(5), registry.tasks.wait()).await;
        assert!(
            ended.is_ok(),
            "game {code} still running after the shutdown"
        );
        assert!(registry.get(&code).is_none(), "{code} left memory");
    }

    /// Join `code` as a player; returns the connection's queue.
    async fn join(registry: &Registry, code: &str, conn: u64) -> mpsc::Receiver<Outgoing> {
        let to_game = registry.get(code).expect("live");
        let name = format!("P{conn}");
        hello(&to_game, conn, Join::Player { name }).await
    }

    /// Say hello to a game as `join` (a new player's token is
    /// `token{conn}`); returns the connection's queue once welcomed.
    async fn hello(
        to_game: &mpsc::Sender<ToGame>,
        conn: u64,
        join: Join,
    ) -> mpsc::Receiver<Outgoing> {
        welcomed(to_game, conn, join).await.0
    }

    /// [`hello`], and the welcome itself.
    async fn welcomed(
        to_game: &mpsc::Sender<ToGame>,
        conn: u64,
        join: Join,
    ) -> (mpsc::Receiver<Outgoing>, citadel_protocol::ServerMsg) {
        let (tx, mut rx) = mpsc::channel(64);
        let hello = Hello {
            conn,
            join,
            last_seq: None,
            fresh_token: format!("token{conn}"),
            account: None,
        };
        let sink = ConnSink {
            tx,
            too_slow: Arc::new(Notify::new()),
        };
        to_game
            .send(ToGame::Hello { hello, sink })
            .await
            .expect("sent");
        // The welcome shows the game took the connection.
        let welcome = match rx.recv().await {
            Some(Outgoing::Text(t)) => serde_json::from_str(t.as_str()).expect("a message"),
            other => panic!("expected a welcome, got {other:?}"),
        };
        assert!(
            matches!(welcome, citadel_protocol::ServerMsg::Welcome { .. }),
            "{welcome:?}"
        );
        (rx, welcome)
    }

    /// The next close a connection gets (messages before it skipped).
    async fn close_of(rx: &mut mpsc::Receiver<Outgoing>) -> Option<(u16, String)> {
        loop {
            match tokio::time::timeout(Duration::from_secs(5), rx.recv()).await {
                Ok(Some(Outgoing::Close(code, reason))) => return Some((code, reason)),
                Ok(Some(Outgoing::Text(_))) => continue,
                Ok(None) | Err(_) => return None,
            }
        }
    }

    /// Issue #17 item 13: a game whose task ended (a storage failure, a
    /// bug, idling out of memory) but that is in the store, unfinished,
    /// comes back when someone returns to it, with its seats.
    #[tokio::test]
    async fn a_lone_node_writes_no_lease_and_a_cluster_node_does() {
        let solo = registry();
        let code = solo.create(options()).await.expect("created");
        let store = solo.store.store();
        assert_eq!(store.lease(&code).await.expect("read"), None);
        assert_eq!(solo.running_codes(), std::slice::from_ref(&code));
        assert!(solo.shut_down(Duration::from_secs(5)).await);

        // Two cluster nodes on one store: the creator holds the lease, the
        // other cannot load the game, and a graceful stop gives it back.
        let shared: Arc<dyn citadel_store::Store> = Arc::new(citadel_store::MemStore::new());
        let node = |id: &str| {
            let (shutdown, _) = broadcast::channel(1);
            Arc::new(
                Registry::new(
                    Arc::new(GameStore::new(Arc::clone(&shared), games())),
                    Arc::new(CampaignLedger::new(Arc::clone(&shared), games())),
                    Arc::new(Metrics::new()),
                    SessionConfig::default(),
                    10,
                    AbandonLimits::default(),
                    shutdown,
                )
                .with_ownership(Ownership::Cluster(crate::lease::LeaseConfig {
                    node_id: id.into(),
                    ttl: Duration::from_secs(10),
                    renew_every: Duration::from_secs(3),
                })),
            )
        };
        let (a, b) = (node("a"), node("b"));
        let code = a.create(options()).await.expect("created");
        let lease = shared.lease(&code).await.expect("read").expect("leased");
        assert_eq!(lease.owner, "a");
        assert!(b.get_or_load(&code).await.expect("looked up").is_none());
        assert!(b.is_empty());
        a.lease_round(&mut LeaseRound::default()).await;
        assert!(a.get(&code).is_some(), "a keeps the game it holds");
        assert!(a.shut_down(Duration::from_secs(5)).await);
        assert_eq!(shared.lease(&code).await.expect("read"), None);
        // Now b may load it.
        assert!(b.get_or_load(&code).await.expect("loaded").is_some());
        assert_eq!(
            shared
                .lease(&code)
                .await
                .expect("read")
                .expect("leased")
                .owner,
            "b"
        );
        assert!(b.shut_down(Duration::from_secs(5)).await);
    }

    /// The boot restore lists the unfinished games while the server
    /// already serves: games created before the listing (here: while the
    /// restore waits for the loading lock, so that all of them are) are
    /// in the list and live at once. Each stays live exactly once: the
    /// restore brings none back a second time, and a second player joins
    /// the instance the first player sits in.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn games_created_while_the_boot_restore_lists_are_live_once() {
        const GAMES: usize = 32;
        let registry = {
            let store: Arc<dyn citadel_store::Store> = Arc::new(citadel_store::MemStore::new());
            let (shutdown, _) = broadcast::channel(1);
            Arc::new(Registry::new(
                Arc::new(GameStore::new(Arc::clone(&store), games())),
                Arc::new(CampaignLedger::new(store, games())),
                Arc::new(Metrics::new()),
                SessionConfig::default(),
                GAMES * 4,
                AbandonLimits::default(),
                shutdown,
            ))
        };
        let held = registry.loading.lock().await;
        let restore = tokio::spawn({
            let registry = Arc::clone(&registry);
            async move { registry.restore_all().await }
        });
        let created =
            futures_util::future::join_all((0..GAMES).map(|_| registry.create(options()))).await;
        let codes: Vec<String> = created.into_iter().map(|c| c.expect("created")).collect();
        // The first player of each game, in the instance the creator made.
        let mut first = Vec::new();
        for (k, code) in codes.iter().enumerate() {
            first.push(join(&registry, code, k as u64 * 2 + 1).await);
        }
        drop(held);
        let restored = restore.await.expect("joined").expect("listed");
        assert_eq!(restored, 0, "games already live were restored again");
        assert_eq!(registry.len(), GAMES);
        assert_eq!(registry.metrics.games.get(), GAMES as i64);
        assert_eq!(registry.running_codes().len(), GAMES);
        for (k, code) in codes.iter().enumerate() {
            // The second player joins the same instance: seat 1.
            let to_game = registry.get(code).expect("live");
            let second = Join::Player {
                name: "second".into(),
            };
            let (_rx, welcome) = welcomed(&to_game, k as u64 * 2 + 2, second).await;
            assert!(
                matches!(
                    welcome,
                    citadel_protocol::ServerMsg::Welcome { seat: Some(1), .. }
                ),
                "{code}: the second player got {welcome:?}"
            );
        }
        assert!(registry.shut_down(Duration::from_secs(5)).await);
        drop(first);
        assert!(registry.is_empty());
        assert_eq!(registry.metrics.games.get(), 0);
    }

    #[tokio::test]
    async fn a_stored_game_not_in_memory_loads_on_demand() {
        let registry = registry();
        let code = registry.create(options()).await.expect("created");
        let _seat = join(&registry, &code, 1).await;
        let to_game = registry.get(&code).expect("live");
        to_game.send(ToGame::Panic).await.expect("sent");
        while registry.get(&code).is_some() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(registry.is_empty());

        let to_game = registry
            .get_or_load(&code.to_ascii_lowercase())
            .await
            .expect("the store answers")
            .expect("stored and unfinished");
        assert_eq!(registry.len(), 1);
        // The seat comes back with its token.
        let token = "token1".to_string();
        let _back = hello(&to_game, 9, Join::Resume { token }).await;
        // Loaded once: a second lookup finds it in memory.
        assert!(registry.get_or_load(&code).await.expect("ok").is_some());
        assert_eq!(registry.len(), 1);
        // A code the store does not hold is no game.
        assert!(registry.get_or_load("ZZZZZZ").await.expect("ok").is_none());
    }

    #[tokio::test]
    async fn a_panicking_game_leaves_the_registry_and_its_players_are_told() {
        let registry = registry();
        let crashing = registry.create(options()).await.expect("created");
        let other = registry.create(options()).await.expect("created");
        let mut a = join(&registry, &crashing, 1).await;
        let mut b = join(&registry, &crashing, 2).await;
        let mut c = join(&registry, &other, 3).await;
        assert_eq!(registry.len(), 2);

        let to_game = registry.get(&crashing).expect("live");
        to_game.send(ToGame::Panic).await.expect("sent");

        for rx in [&mut a, &mut b] {
            let (code, reason) = close_of(rx).await.expect("told");
            assert_eq!(code, INTERNAL_ERROR);
            assert!(reason.contains("server error"), "{reason}");
        }
        // The registration guard runs when tokio drops the panicked
        // task's future, which may be just after the close is queued.
        let gone = async {
            while registry.get(&crashing).is_some() {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(5), gone)
            .await
            .expect("removed from the registry");
        assert_eq!(registry.len(), 1);
        assert_eq!(registry.metrics.games.get(), 1);
        // The other game plays on.
        let to_other = registry.get(&other).expect("still live");
        to_other
            .send(ToGame::Message {
                conn: 3,
                msg: citadel_protocol::ClientMsg::Ping,
                received: std::time::Instant::now(),
            })
            .await
            .expect("sent");
        loop {
            match tokio::time::timeout(Duration::from_secs(5), c.recv()).await {
                Ok(Some(Outgoing::Text(t))) if t.as_str().contains("pong") => break,
                Ok(Some(Outgoing::Text(_))) => continue,
                other => panic!("expected a pong, got {other:?}"),
            }
        }
        // And shutdown still joins every task, the panicked one included.
        assert!(registry.shut_down(Duration::from_secs(5)).await);
        assert_eq!(close_of(&mut c).await.map(|(code, _)| code), Some(1001));
        assert!(registry.is_empty());
    }
}
