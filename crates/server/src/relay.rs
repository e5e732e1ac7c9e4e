//! Any node serves any player: a WebSocket's game may run on another node.
//!
//! The seam is the game task's channels. A game task takes [`ToGame`]
//! messages and writes each connection's messages into that connection's
//! queue ([`ConnSink`]). For a socket whose game runs elsewhere, the node
//! holding the socket (the *edge*) gives the socket's task a channel that
//! ends in a proxy ([`remote`]) instead of a game task; the proxy forwards
//! what the socket sends to the game's node (the *owner*) over NATS, and
//! feeds what comes back into the socket's queue. On the owner, a relay
//! per game ([`serve_game`]) turns forwarded messages into `ToGame`
//! messages, giving each remote connection a queue of its own whose
//! contents it publishes back. Everything a socket task does — frame size,
//! rate limit, parsing, the write timeout, close codes — stays on the
//! edge, exactly as for a local game; everything a game does — seq, ack,
//! redaction per viewer — stays on the owner. The wire carries the
//! server's messages as the very text the socket will send.
//!
//! Subjects:
//! - `citadel.game.<CODE>.in`: to the game's owner (the relay subscribes
//!   while the game runs there): [`Inbound`] as JSON. `hello` is a request
//!   (answered once the game has the connection); the rest are published.
//! - `citadel.conn.<node>.<conn>`: to one socket's edge: `T` + a message's
//!   text, or `C` + a close (`{"code":..,"reason":..}`).
//!
//! Failures: an edge reads the game's lease again when the lease it last
//! read runs out; when its owner changed or let it run out (it died), the socket
//! is closed with 1001 and the client reconnects with its last seq — to
//! any node, which takes the game over if nobody has — and catches up
//! from the store. An edge sends a keep-alive per socket every
//! `--lease-renew`; an edge that dies stops, and the owner drops its
//! connections after a lease time (`--lease-ttl`) of silence, as if their
//! sockets closed (a bot stands in for a player after the usual grace).
//! An edge that loses NATS closes its proxied sockets with 1001 at once
//! (a publish would not fail: the NATS client buffers it).

use crate::cluster::Cluster;
use crate::delivery::{ConnSink, Outgoing};
use crate::game_task::ToGame;
use crate::metrics::Metrics;
use crate::session::Hello;
use citadel_protocol::{close, ClientMsg, Join};
use citadel_store::Store;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify};
use ws_protocol::tungstenite::Utf8Bytes;

/// How long after the lease it last read runs out an edge reads it again.
const LEASE_READ_SLACK: Duration = Duration::from_millis(20);
/// How long an edge waits for the owner to take a `hello`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(5);
/// Tries of a `hello` that found no relay listening (the game is just
/// starting on its node), a short pause apart.
const HELLO_TRIES: u32 = 10;

/// The subject a game's owner listens on.
pub fn game_subject(code: &str) -> String {
    format!("citadel.game.{code}.in")
}

/// The subject one socket's edge listens on.
pub fn conn_subject(node: &str, conn: u64) -> String {
    format!("citadel.conn.{node}.{conn}")
}

/// What an edge sends a game's owner.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Inbound {
    /// A socket said hello (a request: the answer is [`HELLO_OK`] or why
    /// not).
    Hello {
        /// The edge node.
        node: String,
        /// The socket's id on the edge.
        conn: u64,
        /// How it joins.
        join: Join,
        /// The last event it saw.
        last_seq: Option<u64>,
        /// The token a new player would get.
        fresh_token: String,
        /// The logged-in account, resolved on the edge.
        account: Option<String>,
    },
    /// A later message of the socket.
    Message {
        /// The edge node.
        node: String,
        /// The socket's id on the edge.
        conn: u64,
        /// The message.
        msg: ClientMsg,
    },
    /// The socket closed.
    Closed {
        /// The edge node.
        node: String,
        /// The socket's id on the edge.
        conn: u64,
    },
    /// The edge's sockets of this game are still open.
    Alive {
        /// The edge node.
        node: String,
        /// Its sockets of this game.
        conns: Vec<u64>,
    },
}

/// The owner's answer to a `hello` it handed to the game.
pub const HELLO_OK: &[u8] = b"ok";

#[derive(Serialize, Deserialize)]
struct CloseWire {
    code: u16,
    reason: String,
}

fn encode_outgoing(o: &Outgoing) -> Vec<u8> {
    match o {
        Outgoing::Text(t) => {
            let mut v = Vec::with_capacity(t.len() + 1);
            v.push(b'T');
            v.extend_from_slice(t.as_str().as_bytes());
            v
        }
        Outgoing::Close(code, reason) => {
            let mut v = vec![b'C'];
            let wire = CloseWire {
                code: *code,
                reason: reason.clone(),
            };
            v.extend(serde_json::to_vec(&wire).unwrap_or_default());
            v
        }
    }
}

fn decode_outgoing(payload: &[u8]) -> Option<Outgoing> {
    match payload.split_first()? {
        (b'T', text) => {
            let text = std::str::from_utf8(text).ok()?;
            Some(Outgoing::Text(Utf8Bytes::from(text)))
        }
        (b'C', json) => {
            let w: CloseWire = serde_json::from_slice(json).ok()?;
            Some(Outgoing::Close(w.code, w.reason))
        }
        _ => None,
    }
}

// ------------------------------------------------------------------ owner

/// Ids of remote connections on their owner: the top bit set, apart from
/// the ids of the owner's own sockets.
static NEXT_REMOTE: AtomicU64 = AtomicU64::new(1);

fn remote_conn_id() -> u64 {
    (1 << 63) | NEXT_REMOTE.fetch_add(1, Ordering::Relaxed)
}

struct RemoteConn {
    local: u64,
    seen: Instant,
}

/// On the game's owner: relay what edges send the game at `code` into its
/// task (`to_game`) until the task ends. Subscribes before it returns, so
/// the game is reachable from other nodes once this returns.
pub async fn serve_game(
    cluster: Arc<Cluster>,
    code: String,
    to_game: mpsc::Sender<ToGame>,
    metrics: Arc<Metrics>,
    send_queue: usize,
    silence: Duration,
) -> Option<impl std::future::Future<Output = ()> + Send + 'static> {
    let mut sub = match cluster.nats.subscribe(game_subject(&code)).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(code, error = %e, "cannot listen for the game's remote players");
            return None;
        }
    };
    Some(async move {
        let mut conns: HashMap<(String, u64), RemoteConn> = HashMap::new();
        // Remote connections unheard of for `silence` are dropped.
        let mut sweep = tokio::time::interval((silence / 4).max(Duration::from_millis(10)));
        loop {
            let msg = tokio::select! {
                m = sub.next() => match m { Some(m) => m, None => break },
                () = to_game.closed() => break,
                _ = sweep.tick() => {
                    let now = Instant::now();
                    let silent: Vec<(String, u64)> = conns
                        .iter()
                        .filter(|(_, c)| now.duration_since(c.seen) > silence)
                        .map(|(k, _)| k.clone())
                        .collect();
                    for key in silent {
                        if let Some(c) = conns.remove(&key) {
                            tracing::info!(code, node = key.0, "a remote socket's node went silent");
                            let _ = to_game.send(ToGame::Closed { conn: c.local }).await;
                        }
                    }
                    continue;
                }
            };
            let inbound: Inbound = match serde_json::from_slice(&msg.payload) {
                Ok(i) => i,
                Err(e) => {
                    tracing::warn!(code, error = %e, "unreadable message from another node");
                    continue;
                }
            };
            metrics.forwarded.inc();
            match inbound {
                Inbound::Hello {
                    node,
                    conn,
                    join,
                    last_seq,
                    fresh_token,
                    account,
                } => {
                    let local = remote_conn_id();
                    let (tx, rx) = mpsc::channel(send_queue.max(1));
                    let too_slow = Arc::new(Notify::new());
                    let sink = ConnSink {
                        tx,
                        too_slow: Arc::clone(&too_slow),
                    };
                    let hello = Hello {
                        conn: local,
                        join,
                        last_seq,
                        fresh_token,
                        account,
                    };
                    let taken = to_game.send(ToGame::Hello { hello, sink }).await.is_ok();
                    if taken {
                        tokio::spawn(publish_conn(
                            cluster.nats.clone(),
                            conn_subject(&node, conn),
                            rx,
                            too_slow,
                            Arc::clone(&metrics),
                        ));
                        conns.insert(
                            (node, conn),
                            RemoteConn {
                                local,
                                seen: Instant::now(),
                            },
                        );
                    }
                    if let Some(reply) = msg.reply {
                        let answer: &[u8] = if taken { HELLO_OK } else { b"gone" };
                        let _ = cluster.nats.publish(reply, answer.to_vec().into()).await;
                    }
                }
                Inbound::Message { node, conn, msg } => {
                    let Some(c) = conns.get_mut(&(node, conn)) else {
                        continue;
                    };
                    c.seen = Instant::now();
                    let m = ToGame::Message {
                        conn: c.local,
                        msg,
                        received: Instant::now(),
                    };
                    if to_game.send(m).await.is_err() {
                        break;
                    }
                }
                Inbound::Closed { node, conn } => {
                    if let Some(c) = conns.remove(&(node, conn)) {
                        let _ = to_game.send(ToGame::Closed { conn: c.local }).await;
                    }
                }
                Inbound::Alive { node, conns: alive } => {
                    let now = Instant::now();
                    for conn in alive {
                        if let Some(c) = conns.get_mut(&(node.clone(), conn)) {
                            c.seen = now;
                        }
                    }
                }
            }
        }
        let _ = sub.unsubscribe().await;
    })
}

/// On the owner: publish one remote connection's queue to its edge, until
/// the game closes it or forgets it.
async fn publish_conn(
    nats: async_nats::Client,
    subject: String,
    mut rx: mpsc::Receiver<Outgoing>,
    too_slow: Arc<Notify>,
    metrics: Arc<Metrics>,
) {
    loop {
        let out = tokio::select! {
            out = rx.recv() => out,
            () = too_slow.notified() => None,
        };
        let (out, last) = match out {
            Some(o @ Outgoing::Text(_)) => (o, false),
            Some(o @ Outgoing::Close(..)) => (o, true),
            None => {
                // The game dropped the connection: too slow, or it ended.
                let slow = tokio::select! {
                    biased;
                    () = too_slow.notified() => true,
                    () = std::future::ready(()) => false,
                };
                let close = if slow {
                    Outgoing::Close(close::TOO_SLOW, "too slow; reconnect to catch up".into())
                } else {
                    Outgoing::Close(close::SHUTDOWN, "game closed".into())
                };
                (close, true)
            }
        };
        if nats
            .publish(subject.clone(), encode_outgoing(&out).into())
            .await
            .is_err()
        {
            break;
        }
        metrics.forwarded.inc();
        if last {
            break;
        }
    }
}

// ------------------------------------------------------------------- edge

/// What an edge's proxy works with.
#[derive(Debug)]
pub struct Edge {
    /// NATS and this node's id.
    pub cluster: Arc<Cluster>,
    /// Where the game's lease is read.
    pub store: Arc<dyn Store>,
    /// Counters.
    pub metrics: Arc<Metrics>,
    /// How often the owner is told the socket is still there, and how
    /// soon the game's lease is first read (`--lease-renew`).
    pub check_every: Duration,
    /// Fires when this node shuts down.
    pub shutdown: tokio::sync::broadcast::Receiver<()>,
}

/// On the edge: a channel for a socket's task that reaches the game at
/// `code` on node `owner` through NATS. The proxy behind it ends when the
/// socket's task drops the channel, the game closes the socket, or this
/// node shuts down (the socket is closed with 1001, as a local game's).
pub fn remote(edge: Edge, code: String, owner: String) -> mpsc::Sender<ToGame> {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(proxy(edge, code, owner, rx));
    tx
}

async fn proxy(edge: Edge, code: String, owner: String, mut rx: mpsc::Receiver<ToGame>) {
    let Edge {
        cluster,
        store,
        metrics,
        check_every,
        mut shutdown,
    } = edge;
    // Everything starts with the socket's hello.
    let Some(ToGame::Hello { hello, sink }) = rx.recv().await else {
        return;
    };
    // Without NATS the hello could only wait for its time-out: say so now.
    if !cluster.nats_up() {
        let _ = sink.tx.try_send(Outgoing::Close(
            close::SHUTDOWN,
            "cannot reach the game's server; reconnect".into(),
        ));
        return;
    }
    let node = cluster.node_id.clone();
    let conn = hello.conn;
    let subject = game_subject(&code);
    let mut back = match cluster.nats.subscribe(conn_subject(&node, conn)).await {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(code, error = %e, "cannot listen for a remote game");
            let _ = sink.tx.try_send(Outgoing::Close(
                close::SHUTDOWN,
                "cannot reach the game's server; reconnect".into(),
            ));
            return;
        }
    };
    let hello = Inbound::Hello {
        node: node.clone(),
        conn,
        join: hello.join,
        last_seq: hello.last_seq,
        fresh_token: hello.fresh_token,
        account: hello.account,
    };
    let Ok(hello) = serde_json::to_vec(&hello) else {
        return;
    };
    if !send_hello(&cluster, &subject, hello).await {
        let _ = sink.tx.try_send(Outgoing::Close(
            close::SHUTDOWN,
            "the game's server did not answer; reconnect".into(),
        ));
        return;
    }
    metrics.forwarded.inc();
    let publish = |inbound: Inbound| {
        let nats = cluster.nats.clone();
        let subject = subject.clone();
        async move {
            match serde_json::to_vec(&inbound) {
                Ok(body) => nats.publish(subject, body.into()).await.is_ok(),
                Err(_) => false,
            }
        }
    };
    let mut keepalive = tokio::time::interval(check_every);
    keepalive.tick().await;
    // The game's lease is read when the lease last seen runs out: a live
    // owner has renewed it by then (read again at the new expiry), a dead
    // one has not (the socket is closed as the lease expires). About one
    // read per socket per lease time, not per renewal.
    let mut next_check = tokio::time::Instant::now() + check_every;
    let moved = (
        close::SHUTDOWN,
        "the game moved to another server; reconnect",
    );
    // One future for the socket's life, not one per message.
    let nats_down = cluster.nats_down();
    tokio::pin!(nats_down);
    loop {
        tokio::select! {
            from_socket = rx.recv() => match from_socket {
                Some(ToGame::Message { msg, .. }) => {
                    metrics.forwarded.inc();
                    if !publish(Inbound::Message { node: node.clone(), conn, msg }).await {
                        let _ = sink.tx.try_send(Outgoing::Close(moved.0, moved.1.into()));
                        return;
                    }
                }
                Some(ToGame::Closed { .. }) | None => {
                    let _ = publish(Inbound::Closed { node: node.clone(), conn }).await;
                    return;
                }
                Some(_) => {}
            },
            from_game = back.next() => {
                let Some(m) = from_game else {
                    let _ = sink.tx.try_send(Outgoing::Close(moved.0, moved.1.into()));
                    return;
                };
                let Some(out) = decode_outgoing(&m.payload) else {
                    continue;
                };
                let last = matches!(out, Outgoing::Close(..));
                if sink.tx.try_send(out).is_err() {
                    // The socket cannot keep up: as with a local game.
                    sink.too_slow.notify_one();
                    let _ = publish(Inbound::Closed { node: node.clone(), conn }).await;
                    return;
                }
                if last {
                    return;
                }
            }
            _ = shutdown.recv() => {
                let _ = publish(Inbound::Closed { node: node.clone(), conn }).await;
                let _ = sink.tx.try_send(Outgoing::Close(close::SHUTDOWN, "server shutting down".into()));
                return;
            }
            () = &mut nats_down => {
                // Nothing reaches the owner now, and nothing comes back:
                // the client reconnects (through the owner, or here once
                // NATS is back) with its last seq. The `Closed` is
                // buffered and reaches the owner after the reconnect
                // (otherwise it drops the connection after a lease time
                // without keep-alives); a full buffer would make the
                // publish wait, hence the socket first and a time limit.
                let _ = sink.tx.try_send(Outgoing::Close(
                    close::SHUTDOWN,
                    "lost the connection to the game's server; reconnect".into(),
                ));
                let closed = publish(Inbound::Closed { node: node.clone(), conn });
                let _ = tokio::time::timeout(check_every, closed).await;
                return;
            }
            _ = keepalive.tick() => {
                let _ = publish(Inbound::Alive { node: node.clone(), conns: vec![conn] }).await;
            }
            () = tokio::time::sleep_until(next_check) => {
                // The owner died or gave the game up: the client reconnects
                // and resumes wherever the game runs next.
                let now = crate::clock::wall_clock_ms();
                let held = match store.lease(&code).await {
                    Ok(Some(l)) if l.owner == owner && l.expires_at > now => {
                        let left = u64::try_from(l.expires_at - now).unwrap_or(0);
                        next_check = tokio::time::Instant::now()
                            + Duration::from_millis(left)
                            + LEASE_READ_SLACK;
                        true
                    }
                    Ok(_) => false,
                    Err(e) => {
                        tracing::warn!(code, error = %e, "cannot check a remote game's lease");
                        next_check = tokio::time::Instant::now() + check_every;
                        true
                    }
                };
                if !held {
                    let _ = publish(Inbound::Closed { node: node.clone(), conn }).await;
                    let _ = sink.tx.try_send(Outgoing::Close(moved.0, moved.1.into()));
                    return;
                }
            }
        }
    }
}

/// Hand a `hello` to the game's relay: retried shortly while no relay
/// listens yet (the game is just being restored on its node).
async fn send_hello(cluster: &Cluster, subject: &str, hello: Vec<u8>) -> bool {
    for _ in 0..HELLO_TRIES {
        let request = cluster
            .nats
            .request(subject.to_string(), hello.clone().into());
        match tokio::time::timeout(HELLO_TIMEOUT, request).await {
            Ok(Ok(answer)) => return answer.payload.as_ref() == HELLO_OK,
            Ok(Err(e)) if matches!(e.kind(), async_nats::RequestErrorKind::NoResponders) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Ok(Err(e)) => {
                tracing::warn!(subject, error = %e, "a remote hello failed");
                return false;
            }
            Err(_) => return false,
        }
    }
    false
}
