//! Prometheus metrics at `/metrics` (prometheus-client).

use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use std::sync::Mutex;

/// Label of a rejection counter.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReasonLabel {
    /// The rejection reason (snake_case).
    pub reason: String,
}

/// Every metric the server exports.
#[derive(Debug)]
pub struct Metrics {
    registry: Mutex<Registry>,
    /// Open WebSocket connections.
    pub connections: Gauge,
    /// Live games.
    pub games: Gauge,
    /// Commands applied.
    pub commands: Counter,
    /// Commands rejected, by reason.
    pub rejections: Family<ReasonLabel, Counter>,
    /// Store writes that failed.
    pub store_errors: Counter,
    /// Seconds from receiving a command to handing its broadcast to the
    /// connections.
    pub command_latency: Histogram,
    /// Connections and logins turned away at the edge, by reason.
    pub refused: Family<ReasonLabel, Counter>,
    /// Games this node runs under its lease (all its games when alone).
    pub owned_games: Gauge,
    /// Client messages forwarded over NATS to the node that runs their
    /// game, and owner messages forwarded back (cluster mode).
    pub forwarded: Counter,
    /// Games taken over from a node whose lease ran out.
    pub lease_takeovers: Counter,
    /// Resident memory, read from /proc when rendered.
    resident: Gauge,
}

impl Metrics {
    /// A fresh registry.
    pub fn new() -> Self {
        let connections = Gauge::default();
        let games = Gauge::default();
        let commands = Counter::default();
        let rejections = Family::<ReasonLabel, Counter>::default();
        let store_errors = Counter::default();
        let command_latency = Histogram::new(exponential_buckets(0.000_05, 2.0, 16));
        let refused = Family::<ReasonLabel, Counter>::default();
        let resident = Gauge::default();
        let owned_games = Gauge::default();
        let forwarded = Counter::default();
        let lease_takeovers = Counter::default();
        let mut r = Registry::with_prefix("citadel");
        r.register(
            "owned_games",
            "Games this node runs under its lease",
            owned_games.clone(),
        );
        r.register(
            "forwarded_messages",
            "Messages forwarded between nodes over NATS",
            forwarded.clone(),
        );
        r.register(
            "lease_takeovers",
            "Games taken over from a node whose lease ran out",
            lease_takeovers.clone(),
        );
        r.register(
            "connections",
            "Open WebSocket connections",
            connections.clone(),
        );
        r.register("games", "Live games", games.clone());
        r.register("commands", "Commands applied", commands.clone());
        r.register(
            "rejections",
            "Commands rejected, by reason",
            rejections.clone(),
        );
        r.register(
            "store_errors",
            "Store writes that failed",
            store_errors.clone(),
        );
        r.register(
            "command_latency_seconds",
            "From command received to broadcast queued",
            command_latency.clone(),
        );
        r.register(
            "refused",
            "Connections and logins turned away at the edge, by reason",
            refused.clone(),
        );
        r.register(
            "process_resident_bytes",
            "Resident memory",
            resident.clone(),
        );
        // Every reason the edge refuses for, at 0 from the start (a rate
        // over a counter that appears only later misses its first step).
        for reason in [
            "connections_full",
            "connections_per_address",
            "login_throttled",
        ] {
            refused
                .get_or_create(&ReasonLabel {
                    reason: reason.into(),
                })
                .inc_by(0);
        }
        Metrics {
            owned_games,
            forwarded,
            lease_takeovers,
            refused,
            resident,
            registry: Mutex::new(r),
            connections,
            games,
            commands,
            rejections,
            store_errors,
            command_latency,
        }
    }

    /// The OpenMetrics text format, ending with `# EOF` (everything is
    /// in the registry: nothing may follow that line).
    pub fn render(&self) -> String {
        if let Some(rss) = resident_bytes() {
            self.resident.set(i64::try_from(rss).unwrap_or(i64::MAX));
        }
        let mut s = String::new();
        // A std Mutex: encoding never awaits while holding it.
        if let Ok(r) = self.registry.lock() {
            if encode(&mut s, &r).is_err() {
                s.clear();
            }
        }
        s
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

/// Resident set size from /proc (Linux), for the load tool.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}
