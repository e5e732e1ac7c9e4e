//! Command-line and environment configuration (one clap struct).

use clap::{Parser, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Log output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// The Citadel game server.
#[derive(Clone, Debug, Parser)]
#[command(name = "citadel", version, about)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "CITADEL_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Log format.
    #[arg(long, env = "CITADEL_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Serve the browser client from this directory (it must hold
    /// `index.html`) instead of the copy built into the binary.
    #[arg(long, env = "CITADEL_WEB_DIR")]
    pub web_dir: Option<PathBuf>,
    /// Largest WebSocket message accepted, in bytes.
    #[arg(long, env = "CITADEL_MAX_FRAME_BYTES", default_value_t = 16 * 1024)]
    pub max_frame_bytes: usize,
    /// Messages per second a connection may send (sustained).
    #[arg(long, env = "CITADEL_RATE_PER_SEC", default_value_t = 20)]
    pub rate_per_sec: u32,
    /// Burst of messages a connection may send at once.
    #[arg(long, env = "CITADEL_RATE_BURST", default_value_t = 40)]
    pub rate_burst: u32,
    /// Seconds a disconnected player keeps the seat before a bot plays it.
    #[arg(long, env = "CITADEL_GRACE_SECS", default_value_t = 30)]
    pub grace_secs: u64,
    /// Milliseconds between two bot commands.
    #[arg(long, env = "CITADEL_BOT_DELAY_MS", default_value_t = 400)]
    pub bot_delay_ms: u64,
    /// Most games at once.
    #[arg(long, env = "CITADEL_MAX_GAMES", default_value_t = 10_000)]
    pub max_games: usize,
    /// Most open connections at once.
    #[arg(long, env = "CITADEL_MAX_CONNECTIONS", default_value_t = 50_000)]
    pub max_connections: usize,
    /// Where games, accounts and campaigns are kept: `sqlite://FILE`,
    /// `postgres://...`, or `memory:` (nothing survives a restart).
    #[arg(
        long,
        env = "CITADEL_DATABASE_URL",
        default_value = "sqlite://citadel.sqlite"
    )]
    pub database_url: String,
    /// Messages queued for one connection before it counts as too slow.
    #[arg(long, env = "CITADEL_SEND_QUEUE", default_value_t = 256)]
    pub send_queue: usize,
    /// How long a started game may have no player connected before it is
    /// closed as abandoned (`7d`, `36h`, `90m`, ...).
    #[arg(
        long,
        env = "CITADEL_ABANDON_STARTED_AFTER",
        default_value = "7d",
        value_parser = humantime::parse_duration
    )]
    pub abandon_started_after: Duration,
    /// How long a lobby that never started may have no player connected
    /// before it is closed as abandoned.
    #[arg(
        long,
        env = "CITADEL_ABANDON_LOBBY_AFTER",
        default_value = "12h",
        value_parser = humantime::parse_duration
    )]
    pub abandon_lobby_after: Duration,
}

impl Config {
    /// The abandonment limits.
    pub fn abandon_limits(&self) -> crate::abandonment::AbandonLimits {
        crate::abandonment::AbandonLimits {
            lobby: self.abandon_lobby_after,
            started: self.abandon_started_after,
        }
    }

    /// Defaults for tests: an ephemeral port, no bot delay, short grace.
    pub fn for_tests() -> Self {
        let mut c = Config::parse_from(["citadel"]);
        c.addr = SocketAddr::from(([127, 0, 0, 1], 0));
        c.bot_delay_ms = 0;
        c.grace_secs = 1;
        c.database_url = "memory:".into();
        c
    }
}
