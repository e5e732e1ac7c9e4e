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
pub mod content_api;
pub mod error;
pub mod games;
pub mod group_commit;
pub mod http;
pub mod metrics;
pub mod replay;
pub mod session;
pub mod web_assets;
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
    shutdown: broadcast::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

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
        let state = AppState {
            connection_slots: Arc::new(Semaphore::new(config.max_connections)),
            config: Arc::new(config),
            registry,
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
            task,
        })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stop accepting, tell every game and connection, and wait.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(());
        let _ = tokio::time::timeout(std::time::Duration::from_secs(10), self.task).await;
    }
}
