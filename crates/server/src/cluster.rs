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
    /// Whether the NATS connection is up, as its events last said. A
    /// publish while it is down does not fail (the client buffers it for
    /// after the reconnect), so the edge's proxies watch this to learn
    /// that their sockets are cut off.
    up: tokio::sync::watch::Receiver<bool>,
}

impl Cluster {
    /// Connect to NATS as node `node_id`.
    ///
    /// # Errors
    /// If NATS does not answer at `url` within a few seconds.
    pub async fn connect(url: &str, node_id: &str) -> anyhow::Result<Cluster> {
        let (up_tx, up) = tokio::sync::watch::channel(true);
        let up_tx = std::sync::Arc::new(up_tx);
        let options = async_nats::ConnectOptions::new()
            .name(format!("citadel {node_id}"))
            .connection_timeout(CONNECT_TIMEOUT)
            .event_callback(move |event| {
                let up_tx = std::sync::Arc::clone(&up_tx);
                async move {
                    match event {
                        async_nats::Event::Connected => {
                            up_tx.send_replace(true);
                        }
                        async_nats::Event::Disconnected | async_nats::Event::Closed => {
                            tracing::warn!("lost the connection to NATS");
                            up_tx.send_replace(false);
                        }
                        _ => {}
                    }
                }
            });
        // Errors name the server, never its password.
        let shown = crate::redact::redact_url(url);
        let nats = tokio::time::timeout(CONNECT_TIMEOUT * 2, options.connect(url))
            .await
            .map_err(|_| anyhow::anyhow!("cannot connect to NATS at {shown}: no answer"))?
            .map_err(|e| anyhow::anyhow!("cannot connect to NATS at {shown}: {e}"))?;
        Ok(Cluster {
            nats,
            node_id: node_id.to_string(),
            up,
        })
    }

    /// Make sure no running node has this node's id, then answer for it
    /// until `stop` fires. Two nodes with one id would share leases and
    /// NATS subjects: each would stop the other's games and read the
    /// other's sockets' messages.
    ///
    /// # Errors
    /// If another node answers to the id, or NATS refuses the subscription.
    pub async fn claim_id(
        &self,
        mut stop: tokio::sync::broadcast::Receiver<()>,
    ) -> anyhow::Result<()> {
        use futures_util::StreamExt;
        let subject = format!("citadel.node.{}.alive", self.node_id);
        let probe = self.nats.request(subject.clone(), Vec::new().into());
        // No responders (or no answer) means the id is free.
        if let Ok(Ok(_)) = tokio::time::timeout(Duration::from_secs(1), probe).await {
            anyhow::bail!(
                "node id {} is taken: another running node answers to it \
                 (give each node its own --node-id, or leave it out for a random one)",
                self.node_id
            );
        }
        let mut sub = self.nats.subscribe(subject).await?;
        let nats = self.nats.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    m = sub.next() => match m {
                        Some(m) => {
                            if let Some(reply) = m.reply {
                                let _ = nats.publish(reply, b"alive".to_vec().into()).await;
                            }
                        }
                        None => break,
                    },
                    _ = stop.recv() => break,
                }
            }
        });
        Ok(())
    }

    /// Whether the NATS connection is up, as its events last said.
    pub fn nats_up(&self) -> bool {
        *self.up.borrow()
    }

    /// Resolves once the NATS connection is down (at once if it is now).
    pub async fn nats_down(&self) {
        let mut up = self.up.clone();
        // An error means the connection is gone for good: down too.
        let _ = up.wait_for(|up| !*up).await;
    }

    /// Whether the NATS connection is up now: `"ok"`, or what is wrong.
    pub fn nats_state(&self) -> String {
        match self.nats.connection_state() {
            async_nats::connection::State::Connected => "ok".into(),
            other => format!("unavailable: {other}"),
        }
    }
}
