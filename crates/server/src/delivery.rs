//! Delivery: a game's outputs to its connections' queues, and the metrics
//! that count them.
//!
//! Each connection has a bounded queue. A connection whose queue is full
//! is too slow: it is told to close (it will reconnect and catch up)
//! rather than let memory grow.

use crate::metrics::{Metrics, ReasonLabel};
use crate::session::{ConnId, Output};
use citadel_protocol::ServerMsg;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{mpsc, Notify};
use ws_protocol::tungstenite::Utf8Bytes;

/// What a connection's task is sent.
#[derive(Debug)]
pub enum Outgoing {
    /// A serialized message. `Utf8Bytes` is reference-counted: every
    /// connection a message goes to shares the one serialized copy, down
    /// to the socket write.
    Text(Utf8Bytes),
    /// Close with a code and a reason.
    Close(u16, String),
}

/// A connection as the game task knows it.
#[derive(Debug)]
pub struct ConnSink {
    /// Its queue.
    pub tx: mpsc::Sender<Outgoing>,
    /// Pulled when the queue overflows.
    pub too_slow: Arc<Notify>,
}

/// RFC 6455's "internal error" close code: the game stopped because of a
/// bug (its task panicked). The same number as
/// `citadel_protocol::close::STORAGE_FAILURE`, which a client already
/// treats as "the server failed; come back later".
pub const INTERNAL_ERROR: u16 = 1011;

/// The connections of one game.
///
/// Dropped with connections still in it — the game's task ended without
/// closing them, which only a panic does — it closes them with
/// [`INTERNAL_ERROR`], so no player is left waiting on a dead game.
#[derive(Debug, Default)]
pub struct Sinks(HashMap<ConnId, ConnSink>);

impl Drop for Sinks {
    fn drop(&mut self) {
        if !self.0.is_empty() {
            tracing::error!(
                connections = self.0.len(),
                "a game task ended without closing its connections"
            );
            self.close_all(INTERNAL_ERROR, "this game stopped after a server error");
        }
    }
}

impl Sinks {
    /// A connection said hello.
    pub fn insert(&mut self, conn: ConnId, sink: ConnSink) {
        self.0.insert(conn, sink);
    }

    /// A connection left.
    pub fn remove(&mut self, conn: ConnId) {
        self.0.remove(&conn);
    }

    /// No connection is open.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Tell every connection to close, and forget them. Best effort: a
    /// full queue misses the close, and its socket sees the queue end.
    pub fn close_all(&mut self, code: u16, reason: &str) {
        for (_, sink) in self.0.drain() {
            let _ = sink.tx.try_send(Outgoing::Close(code, reason.to_string()));
        }
    }

    /// Send `msg` to every connection, best effort (a full queue misses
    /// it; the close that follows a failure reaches it or its queue ends).
    pub fn notify_all(&mut self, msg: &ServerMsg) {
        let text = Utf8Bytes::from(text(msg));
        for sink in self.0.values() {
            let _ = sink.tx.try_send(Outgoing::Text(text.clone()));
        }
    }

    /// Hand a session's outputs to the connections and the metrics. A
    /// connection whose queue is full is told it is too slow and forgotten
    /// at once (nothing later in the batch reaches it, so what it got
    /// stays contiguous); the caller tells the session it left.
    pub fn deliver(&mut self, outputs: Vec<Output>, metrics: &Metrics) -> Vec<ConnId> {
        let sinks = &mut self.0;
        let mut slow = Vec::new();
        for o in outputs {
            match o {
                Output::Send { to, msg } => {
                    if !to.iter().any(|conn| sinks.contains_key(conn)) {
                        continue;
                    }
                    // Serialized once, shared by every connection it goes to.
                    let text = match serde_json::to_string(&msg) {
                        Ok(t) => Utf8Bytes::from(t),
                        Err(e) => {
                            tracing::error!(error = %e, "cannot serialize a message");
                            continue;
                        }
                    };
                    for conn in to {
                        let Some(sink) = sinks.get(&conn) else {
                            continue;
                        };
                        if sink.tx.try_send(Outgoing::Text(text.clone())).is_err() {
                            if let Some(sink) = sinks.remove(&conn) {
                                sink.too_slow.notify_one();
                            }
                            slow.push(conn);
                        }
                    }
                }
                Output::Close { conn, code, reason } => {
                    if let Some(sink) = sinks.remove(&conn) {
                        let _ = sink.tx.try_send(Outgoing::Close(code, reason));
                    }
                }
                Output::Applied { .. } => {
                    metrics.commands.inc();
                }
                Output::LobbyChanged { .. }
                | Output::Started { .. }
                | Output::Finished { .. }
                | Output::PlayerLinked { .. }
                | Output::Checksum { .. } => {}
                Output::Refused { reason } => {
                    metrics
                        .rejections
                        .get_or_create(&ReasonLabel { reason })
                        .inc();
                }
            }
        }
        slow
    }
}

/// A server message built outside a game (errors before `hello`), as text.
pub fn text(msg: &ServerMsg) -> String {
    serde_json::to_string(msg).unwrap_or_default()
}
