//! # citadel-server
//!
//! The game server: an axum app with the lobby's HTTP API, the WebSocket
//! at `/ws`, `/healthz`, `/metrics` and the browser client's files. Each
//! live game runs in its own task around a [`session::Session`], a plain
//! state machine tested without sockets.

pub mod abandonment;
pub mod accounts;
pub mod campaign_api;
pub mod campaign_ledger;
pub mod campaign_rules;
pub mod clock;
pub mod codes;
pub mod config;
pub mod content_api;
pub mod delivery;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod game_task;
pub mod group_commit;
pub mod http;
pub mod metrics;
pub mod options;
pub mod outcome;
pub mod persistence;
pub mod registry;
pub mod replay;
pub mod secrets;
pub mod session;
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
}

/// Open the store a database URL names.
///
/// # Errors
/// An unknown scheme, or a database that cannot be opened.
pub async fn open_store(url: &str) -> anyhow::Result<Arc<dyn citadel_store::Store>> {
    citadel_store::open(url)
        .await
        .with_context(|| format!("cannot open the database {url}"))
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
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
    /// If the address cannot be bound, or `--web-dir` has no `index.html`.
    pub async fn start(config: Config) -> anyhow::Result<Server> {
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
        let campaigns = Arc::new(CampaignLedger::new(Arc::clone(&store)));
        let registry = Arc::new(Registry::new(
            Arc::new(GameStore::new(Arc::clone(&store))),
            Arc::clone(&campaigns),
            Arc::clone(&metrics),
            session,
            config.max_games,
            config.abandon_limits(),
            shutdown.clone(),
        ));
        let restored = registry.restore_all().await?;
        if restored > 0 {
            tracing::info!(restored, "unfinished games restored");
        }
        registry.start_sweeping();
        let state = AppState {
            connection_slots: Arc::new(Semaphore::new(config.max_connections)),
            config: Arc::new(config),
            store,
            registry: Arc::clone(&registry),
            campaigns,
            metrics,
            next_conn: Arc::new(AtomicU64::new(1)),
        };
        let app = http::router(state);
        let mut stop = shutdown.subscribe();
        let task = tokio::spawn(async move {
            let serve = axum::serve(listener, app).with_graceful_shutdown(async move {
                let _ = stop.recv().await;
            });
            if let Err(e) = serve.await {
                tracing::error!(error = %e, "server stopped with an error");
            }
        });
        Ok(Server {
            addr,
            shutdown,
            registry,
            task,
        })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
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
