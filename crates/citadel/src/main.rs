//! `citadel`: the game server.

use anyhow::Result;
use citadel_server::config::{Config, LogFormat};
use citadel_server::Server;
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// mimalloc instead of glibc's malloc: at 1,000 games glibc spent about
/// 14% of the server's time in malloc/free, much of it merging freed
/// chunks (`malloc_consolidate`); mimalloc cut the server's CPU per run
/// by about 10% (docs/BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> Result<()> {
    let mut config = Config::parse();
    config.games = citadel::catalogue().clone();
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    match config.log_format {
        LogFormat::Text => tracing_subscriber::fmt().with_env_filter(filter).init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .init(),
    }
    let database = describe_database(&config.database_url);
    let server = Server::start(config).await?;
    println!("Citadel is running at http://{}/", server.addr());
    if let Some(metrics) = server.metrics_addr() {
        println!("Metrics are at http://{metrics}/metrics");
    }
    println!("Games are kept in {database}");
    shutdown_signal().await;
    tracing::info!("shutting down");
    server.shutdown().await;
    Ok(())
}

/// Where the data lives, for the start-up line: a SQLite file's full path,
/// or the URL without its user and password.
fn describe_database(url: &str) -> String {
    if let Some(path) = url.strip_prefix("sqlite://") {
        let file = path.split('?').next().unwrap_or(path);
        return std::path::absolute(file)
            .map(|p| format!("the SQLite file {}", p.display()))
            .unwrap_or_else(|_| file.to_string());
    }
    if url == "memory:" {
        return "memory only (nothing survives a restart)".into();
    }
    // A `password=` query parameter is hidden too.
    let url = citadel_server::redact::redact_url(url);
    match url.split_once('@') {
        Some((scheme_user, host)) => {
            let scheme = scheme_user.split("://").next().unwrap_or("db");
            format!("{scheme}://…@{host}")
        }
        None => url,
    }
}

/// Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
