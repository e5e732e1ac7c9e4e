//! # citadel-server
//!
//! The game server: an axum app with the lobby's HTTP API, the WebSocket
//! at `/ws`, `/healthz`, `/metrics` and the browser client's files. Each
//! live game runs in its own task around a [`session::Session`], a plain
//! state machine tested without sockets.

pub mod accounts;
pub mod campaign;
pub mod campaigns;
pub mod config;
pub mod edge;
pub mod error;
pub mod games;
pub mod group_commit;
pub mod http;
pub mod metrics;
pub mod replay;
pub mod session;
pub mod ws;

use anyhow::Context;
use config::Config;
use games::Registry;
use metrics::Metrics;
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use tokio::sync::{broadcast, Semaphore};

/// What every handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Configuration.
    pub config: Arc<Config>,
    /// Live games.
    pub registry: Arc<Registry>,
    /// Metrics.
    pub metrics: Arc<Metrics>,
    /// Caps open connections.
    pub connection_slots: Arc<Semaphore>,
    /// Next connection id.
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
    metrics_addr: Option<SocketAddr>,
    shutdown: broadcast::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Bind and start serving.
    ///
    /// # Errors
    /// If the address cannot be bound.
    pub async fn start(config: Config) -> anyhow::Result<Server> {
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
        let registry = Arc::new(Registry::new(
            store,
            Arc::clone(&metrics),
            session,
            config.max_games,
            shutdown.clone(),
        ));
        let restored = registry.restore_all().await?;
        if restored > 0 {
            tracing::info!(restored, "unfinished games restored");
        }
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
            registry,
            metrics,
            next_conn: Arc::new(AtomicU64::new(1)),
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

    /// Stop accepting, tell every game and connection, and wait.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(());
        let _ = tokio::time::timeout(std::time::Duration::from_secs(10), self.task).await;
    }
}
