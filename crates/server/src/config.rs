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
    /// Seconds a new WebSocket may take to send its `hello` before it is
    /// closed with `4002` (`HELLO_REQUIRED`).
    #[arg(long, env = "CITADEL_HELLO_TIMEOUT_SECS", default_value_t = crate::ws::HELLO_TIMEOUT.as_secs())]
    pub hello_timeout_secs: u64,
    /// Seconds one WebSocket message sent in fragments (a first frame
    /// without FIN, then continuation frames) may stay open before the
    /// socket is closed with `4008` (`RATE_LIMITED`). Clients send each
    /// message in one frame; a message held open for ever would hold its
    /// buffer and the socket for nothing.
    #[arg(long, env = "CITADEL_FRAGMENT_TIMEOUT_SECS", default_value_t = crate::ws::FRAGMENT_TIMEOUT.as_secs())]
    pub fragment_timeout_secs: u64,
    /// Seconds a disconnected player keeps the seat before a bot plays it.
    #[arg(long, env = "CITADEL_GRACE_SECS", default_value_t = 30)]
    pub grace_secs: u64,
    /// Milliseconds between two bot commands.
    #[arg(long, env = "CITADEL_BOT_DELAY_MS", default_value_t = 400)]
    pub bot_delay_ms: u64,
    /// Most games at once.
    #[arg(long, env = "CITADEL_MAX_GAMES", default_value_t = 10_000)]
    pub max_games: usize,
    /// Most open connections at once, HTTP and WebSocket alike (default:
    /// the process's file limit less an eighth, at most 1,024, kept for
    /// the database and files; a number given here may go up to the limit
    /// less 32). The chosen cap is logged at start.
    #[arg(long, env = "CITADEL_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// Most open connections from one client address (0: no limit).
    /// Loopback clients (a reverse proxy on this host, local tools) are
    /// not capped per address unless `--limit-loopback`; behind a proxy on
    /// another host, use 0 and limit per client in the proxy.
    #[arg(long, env = "CITADEL_MAX_CONNECTIONS_PER_IP", default_value_t = 64)]
    pub max_connections_per_ip: usize,
    /// Cap loopback clients per address too (connections and login
    /// attempts).
    #[arg(long, env = "CITADEL_LIMIT_LOOPBACK")]
    pub limit_loopback: bool,
    /// Seconds a connection may take to send a request's headers, or to
    /// start its next request when kept alive; then it is closed.
    #[arg(long, env = "CITADEL_HEADER_TIMEOUT_SECS", default_value_t = 10)]
    pub header_timeout_secs: u64,
    /// Seconds an HTTP request (body included) may take before `408`.
    #[arg(long, env = "CITADEL_REQUEST_TIMEOUT_SECS", default_value_t = 30)]
    pub request_timeout_secs: u64,
    /// Milliseconds one WebSocket write may wait for a client that does
    /// not read before the client counts as too slow (`4010`).
    #[arg(long, env = "CITADEL_WRITE_TIMEOUT_MS", default_value_t = 10_000)]
    pub write_timeout_ms: u64,
    /// Login attempts a minute for one account name (from anywhere).
    #[arg(long, env = "CITADEL_LOGIN_PER_ACCOUNT", default_value_t = 6)]
    pub login_per_account: u32,
    /// Login and register attempts a minute from one client address.
    #[arg(long, env = "CITADEL_LOGIN_PER_ADDRESS", default_value_t = 30)]
    pub login_per_address: u32,
    /// Serve `/metrics` on this address only (for example a private
    /// interface), and not on `--addr`.
    #[arg(long, env = "CITADEL_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// Require `Authorization: Bearer <token>` on `/metrics`.
    #[arg(long, env = "CITADEL_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<Secret>,
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
    /// NATS server to join (`nats://host:4222`): turns cluster mode on.
    /// Several nodes then share one Postgres (`--database-url` must be
    /// one), each live game runs on the node holding its lease, and a
    /// WebSocket reaching any node is served through NATS
    /// (docs/SCALING.md). Without it the server runs alone, as before.
    #[arg(long, env = "CITADEL_NATS_URL")]
    pub nats_url: Option<String>,
    /// This node's name in a cluster: letters, digits, `-` and `_`
    /// (default: random, new at every start).
    #[arg(long, env = "CITADEL_NODE_ID")]
    pub node_id: Option<String>,
    /// How long a node's lease on a game lasts unless renewed: how long
    /// the games of a node that died wait before another node takes them
    /// over (cluster mode).
    #[arg(
        long,
        env = "CITADEL_LEASE_TTL",
        default_value = "10s",
        value_parser = humantime::parse_duration
    )]
    pub lease_ttl: Duration,
    /// How often a node renews its leases and looks for games whose node
    /// stopped renewing (cluster mode; well under `--lease-ttl`).
    #[arg(
        long,
        env = "CITADEL_LEASE_RENEW",
        default_value = "3s",
        value_parser = humantime::parse_duration
    )]
    pub lease_renew: Duration,
    /// The rules version this server runs every game by: not a flag;
    /// `None`, each game's compiled-in one, except in tests that act as a
    /// server of other rules.
    #[arg(skip)]
    pub rules: Option<citadel_game::RulesVersion>,
    /// The games this server plays: not a flag; the binary that builds
    /// the server fills in its catalogue (the crate `citadel`), a test its
    /// own. A server with none serves no game.
    #[arg(skip)]
    pub games: crate::table::Games,
}

/// A configured secret: its `Debug` never shows it, so a logged config
/// does not leak it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Secret(s.to_string()))
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

impl Config {
    /// The abandonment limits.
    pub fn abandon_limits(&self) -> crate::abandonment::AbandonLimits {
        crate::abandonment::AbandonLimits {
            lobby: self.abandon_lobby_after,
            started: self.abandon_started_after,
        }
    }

    /// Cluster mode's settings with `--nats-url`, checked: `None` for a
    /// server on its own.
    ///
    /// # Errors
    /// A clear message for settings cluster mode cannot run with: a
    /// database other than Postgres (each node would have its own), a bad
    /// node id, or a renewal not shorter than the lease.
    pub fn cluster(&self) -> Result<Option<crate::lease::LeaseConfig>, String> {
        let Some(_) = &self.nats_url else {
            return Ok(None);
        };
        let url = self.database_url.as_str();
        if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
            return Err(format!(
                "cluster mode (--nats-url / CITADEL_NATS_URL) needs a shared Postgres database: \
                 give --database-url postgres://... (CITADEL_DATABASE_URL); {} is not one \
                 (every node would keep its own games)",
                if url.starts_with("sqlite:") {
                    "a SQLite file".to_string()
                } else {
                    crate::redact::redact_url(url)
                }
            ));
        }
        let node_id = match &self.node_id {
            Some(id) => id.clone(),
            None => format!("node-{}", crate::secrets::random_hex(4)),
        };
        if node_id.is_empty()
            || node_id.len() > 64
            || !node_id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "--node-id {node_id:?}: use 1 to 64 letters, digits, '-' or '_' \
                 (it is part of NATS subject names)"
            ));
        }
        if self.lease_renew.is_zero() || self.lease_renew >= self.lease_ttl {
            return Err(format!(
                "--lease-renew ({:?}) must be above zero and shorter than --lease-ttl ({:?})",
                self.lease_renew, self.lease_ttl
            ));
        }
        Ok(Some(crate::lease::LeaseConfig {
            node_id,
            ttl: self.lease_ttl,
            renew_every: self.lease_renew,
        }))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn with(args: &[&str]) -> Config {
        Config::parse_from(std::iter::once("citadel").chain(args.iter().copied()))
    }

    #[test]
    fn no_nats_no_cluster() {
        assert!(with(&[]).cluster().expect("fine").is_none());
        assert!(with(&["--database-url", "postgres://db/x"])
            .cluster()
            .expect("fine")
            .is_none());
    }

    #[test]
    fn cluster_mode_needs_postgres() {
        let e = with(&["--nats-url", "nats://n:4222"])
            .cluster()
            .expect_err("refused");
        assert!(e.contains("needs a shared Postgres database"), "{e}");
        assert!(e.contains("SQLite"), "{e}");
        let e = with(&["--nats-url", "nats://n", "--database-url", "memory:"])
            .cluster()
            .expect_err("refused");
        assert!(e.contains("--database-url postgres://"), "{e}");
        // Named without its password.
        let e = with(&[
            "--nats-url",
            "nats://n",
            "--database-url",
            "mysql://u:pw1@h/x",
        ])
        .cluster()
        .expect_err("refused");
        assert!(e.contains("mysql://u:***@h/x") && !e.contains("pw1"), "{e}");
    }

    #[test]
    fn cluster_settings() {
        let base = [
            "--nats-url",
            "nats://n",
            "--database-url",
            "postgres://db/x",
        ];
        let c = with(&base).cluster().expect("fine").expect("cluster");
        assert!(c.node_id.starts_with("node-"));
        assert_eq!(
            (c.ttl, c.renew_every),
            (Duration::from_secs(10), Duration::from_secs(3))
        );
        let mut args = base.to_vec();
        args.extend([
            "--node-id",
            "web-1",
            "--lease-ttl",
            "4s",
            "--lease-renew",
            "1s",
        ]);
        let c = with(&args).cluster().expect("fine").expect("cluster");
        assert_eq!(c.node_id, "web-1");
        assert_eq!(c.ttl, Duration::from_secs(4));
        let mut bad = base.to_vec();
        bad.extend(["--node-id", "a.b"]);
        assert!(with(&bad)
            .cluster()
            .expect_err("refused")
            .contains("--node-id"));
        let mut bad = base.to_vec();
        bad.extend(["--lease-renew", "10s"]);
        assert!(with(&bad)
            .cluster()
            .expect_err("refused")
            .contains("shorter than --lease-ttl"));
    }
}
