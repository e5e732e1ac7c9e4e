//! Cluster mode: this node's NATS connection and identity.
//!
//! With `--nats-url`, several Citadel nodes share one Postgres. Each live
//! game runs on the node holding its lease ([`crate::lease`]); a
//! WebSocket may reach any node, which forwards the client's messages to
//! the game's node over NATS and relays the game's messages back
//! ([`crate::relay`]). docs/SCALING.md describes the design.

use std::time::Duration;

/// How long connecting to NATS at start may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// This node in a cluster.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// The NATS connection (it reconnects by itself after a loss).
    pub nats: async_nats::Client,
    /// This node's id (`--node-id`).
    pub node_id: String,
}

impl Cluster {
    /// Connect to NATS as node `node_id`.
    ///
    /// # Errors
    /// If NATS does not answer at `url` within a few seconds.
    pub async fn connect(url: &str, node_id: &str) -> anyhow::Result<Cluster> {
        let options = async_nats::ConnectOptions::new()
            .name(format!("citadel {node_id}"))
            .connection_timeout(CONNECT_TIMEOUT);
        let nats = tokio::time::timeout(CONNECT_TIMEOUT * 2, options.connect(url))
            .await
            .map_err(|_| anyhow::anyhow!("cannot connect to NATS at {url}: no answer"))?
            .map_err(|e| anyhow::anyhow!("cannot connect to NATS at {url}: {e}"))?;
        Ok(Cluster {
            nats,
            node_id: node_id.to_string(),
        })
    }

    /// Whether the NATS connection is up now: `"ok"`, or what is wrong.
    pub fn nats_state(&self) -> String {
        match self.nats.connection_state() {
            async_nats::connection::State::Connected => "ok".into(),
            other => format!("unavailable: {other}"),
        }
    }
}
