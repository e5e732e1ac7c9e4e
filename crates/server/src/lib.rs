//! # citadel-server
//!
//! The game server: an axum app with the lobby's HTTP API, the WebSocket
//! at `/ws`, `/healthz`, `/metrics` and the browser client's files. Each
//! live game runs in its own task around a [`session::Session`], a plain
//! state machine tested without sockets.

pub mod abandonment;
pub mod accounts;
pub mod campaign_api;
pub mod campaign_kind;
pub mod campaign_ledger;
pub mod clock;
pub mod cluster;
pub mod codes;
pub mod config;
pub mod delivery;
pub mod edge;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod game_task;
pub mod group_commit;
pub mod http;
#[cfg(feature = "ts")]
pub mod http_ts;
pub mod lease;
pub mod lobby_api;
pub mod metrics;
pub mod options;
pub mod outcome;
pub mod persistence;
pub mod ratings;
pub mod redact;
pub mod registry;
pub mod relay;
pub mod replay;
pub mod secrets;
pub mod session;
pub mod table;
pub mod web_assets;
pub mod ws;

use anyhow::Context;
use campaign_ledger::CampaignLedger;
use citadel_store::Store;
use config::Config;
use metrics::Metrics;
use persistence::GameStore;
use registry::Registry;
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, Semaphore};

/// The app context every handler gets: one struct, cloned per request
/// (every field is shared).
#[derive(Clone, Debug)]
pub struct AppState {
    /// Configuration.
    pub config: Arc<Config>,
    /// Accounts, sessions, games and campaigns as stored.
    pub store: Arc<dyn Store>,
    /// Live games.
    pub registry: Arc<Registry>,
    /// Stored campaigns and the lock their writers share.
    pub campaigns: Arc<CampaignLedger>,
    /// Counters and gauges for `/metrics`.
    pub metrics: Arc<Metrics>,
    /// Caps open connections.
    pub connection_slots: Arc<Semaphore>,
    /// The next connection's id.
    pub next_conn: Arc<AtomicU64>,
    /// This node's NATS connection and id, in cluster mode.
    pub cluster: Option<Arc<cluster::Cluster>>,
}

/// Open the store a database URL names.
///
/// # Errors
/// An unknown scheme, or a database that cannot be opened. The message
/// names the URL without its password, and holds the password nowhere.
pub async fn open_store(url: &str) -> anyhow::Result<Arc<dyn citadel_store::Store>> {
    citadel_store::open(url)
        .await
        .with_context(|| format!("cannot open the database {}", redact::redact_url(url)))
        .map_err(|e| redact::scrub_error(e, &redact::url_secrets(url)))
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    metrics_addr: Option<SocketAddr>,
    shutdown: broadcast::Sender<()>,
    registry: Arc<Registry>,
    task: tokio::task::JoinHandle<()>,
}

/// How long shutdown waits for the game tasks, then for the connections.
const SHUTDOWN_LIMIT: Duration = Duration::from_secs(10);

impl Server {
    /// Bind and start serving.
    ///
    /// # Errors
    /// If the address cannot be bound, or `--web-dir` has no `index.html`,
    /// or the database or NATS cannot be reached. No error holds the
    /// password of `--database-url` or `--nats-url`, whichever part of
    /// the start failed and whatever library wrote the message: a failed
    /// start is printed, often into logs others read.
    pub async fn start(config: Config) -> anyhow::Result<Server> {
        let mut secrets = redact::url_secrets(&config.database_url);
        if let Some(nats) = &config.nats_url {
            secrets.extend(redact::url_secrets(nats));
        }
        Self::start_unscrubbed(config)
            .await
            .map_err(|e| redact::scrub_error(e, &secrets))
    }

    async fn start_unscrubbed(config: Config) -> anyhow::Result<Server> {
        // Cluster mode's settings are checked before anything starts.
        let lease = config.cluster().map_err(anyhow::Error::msg)?;
        if let Some(dir) = &config.web_dir {
            web_assets::check_web_dir(dir).map_err(anyhow::Error::msg)?;
        }
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .with_context(|| format!("cannot listen on {}", config.addr))?;
        let addr = listener.local_addr()?;
        let (shutdown, _) = broadcast::channel(1);
        let metrics = Arc::new(Metrics::new());
        let session = session::SessionConfig {
            grace_ms: config.grace_secs * 1000,
            bot_delay_ms: config.bot_delay_ms,
            ..Default::default()
        };
        let store = open_store(&config.database_url).await?;
        let cluster = match (&lease, &config.nats_url) {
            (Some(lease), Some(url)) => {
                let cluster = cluster::Cluster::connect(url, &lease.node_id).await?;
                cluster.claim_id(shutdown.subscribe()).await?;
                tracing::info!(
                    node = lease.node_id,
                    nats = redact::redact_url(url),
                    "cluster mode"
                );
                Some(Arc::new(cluster))
            }
            _ => None,
        };
        let ownership = match lease {
            Some(lease) => lease::Ownership::Cluster(lease),
            None => lease::Ownership::Solo,
        };
        let campaigns = Arc::new(CampaignLedger::new(
            Arc::clone(&store),
            config.games.clone(),
        ));
        let registry = Registry::new(
            Arc::new(GameStore::with_rules(
                Arc::clone(&store),
                config.games.clone(),
                config.rules.clone(),
            )),
            Arc::clone(&campaigns),
            Arc::clone(&metrics),
            session,
            config.max_games,
            config.abandon_limits(),
            shutdown.clone(),
        )
        .with_ownership(ownership);
        let registry = Arc::new(match &cluster {
            Some(c) => registry.with_relay(Arc::clone(c), config.send_queue),
            None => registry,
        });
        // Served while it runs: a client coming back to a game not yet
        // restored waits for it (Registry::get_or_load).
        registry.restore_in_background();
        registry.start_sweeping();
        registry.start_leasing();
        // Every connection costs a file descriptor: cap them below the
        // process's limit, so accept never fails with EMFILE and the
        // database and files keep theirs.
        let limit = edge::serve::file_limit();
        let cap = match limit {
            Some(limit) => edge::serve::cap_for_limit(limit, config.max_connections),
            None => config.max_connections.unwrap_or(50_000),
        };
        tracing::info!(
            file_limit = limit,
            max_connections = cap,
            per_address = config.max_connections_per_ip,
            "connection cap (all connections, below the file limit)"
        );
        let gate =
            edge::serve::Gate::new(cap, config.max_connections_per_ip, config.limit_loopback);
        let serve_options = edge::serve::ServeOptions {
            header_timeout: std::time::Duration::from_secs(config.header_timeout_secs.max(1)),
        };
        let metrics_listener = match config.metrics_addr {
            Some(a) => Some(
                tokio::net::TcpListener::bind(a)
                    .await
                    .with_context(|| format!("cannot listen on {a} for metrics"))?,
            ),
            None => None,
        };
        let metrics_addr = match &metrics_listener {
            Some(l) => Some(l.local_addr()?),
            None => None,
        };
        let state = AppState {
            connection_slots: Arc::new(Semaphore::new(cap)),
            config: Arc::new(config),
            store,
            registry: Arc::clone(&registry),
            campaigns,
            metrics,
            next_conn: Arc::new(AtomicU64::new(1)),
            cluster,
        };
        if let Some(l) = metrics_listener {
            // Few scrapers: a small gate of its own, apart from the
            // public one.
            let app = http::metrics_router(state.clone());
            let gate = edge::serve::Gate::new(64, 0, false);
            tokio::spawn(edge::serve::serve(
                l,
                app,
                gate,
                serve_options.clone(),
                Arc::clone(&state.metrics),
                shutdown.subscribe(),
            ));
        }
        let metrics = Arc::clone(&state.metrics);
        let app = http::router(state);
        let task = tokio::spawn(edge::serve::serve(
            listener,
            app,
            gate,
            serve_options,
            metrics,
            shutdown.subscribe(),
        ));
        Ok(Server {
            addr,
            metrics_addr,
            shutdown,
            registry,
            task,
        })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The bound metrics address, with `--metrics-addr`.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_addr
    }

    /// Stop accepting, tell every game and connection, and wait: first
    /// for every game task to store its last batch and close its
    /// connections, then for the HTTP server.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(());
        if !self.registry.shut_down(SHUTDOWN_LIMIT).await {
            tracing::warn!("some games did not stop in time");
        }
        let _ = tokio::time::timeout(SHUTDOWN_LIMIT, self.task).await;
    }
}
