//! The WebSocket at `/ws`: one task per connection reads frames, checks
//! size and rate, parses messages and forwards them to the game's task,
//! and writes what the game sends back. It never judges game moves.

use crate::delivery::{ConnSink, Outgoing};
use crate::error::ServerError;
use crate::game_task::ToGame;
use crate::session::Hello;
use crate::AppState;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use citadel_protocol::{close, ClientMsg, ErrorCode, ServerMsg, PROTOCOL_VERSION};
use governor::{Quota, RateLimiter};
use std::num::NonZeroU32;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify};

/// How long a client has to say hello, by default (`--hello-timeout-secs`).
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// Bytes read from a socket at a time. Clients send small messages; the
/// library's default (128 KiB) is zero-filled on every read and kept per
/// socket: at 1,000 games (6,000 sockets) it made the server's RSS
/// 1,038 MB instead of 302 MB and `memset` 8% of its time (measured with
/// citadel-load and perf).
const READ_BUFFER_BYTES: usize = 4 * 1024;
/// How long a close frame may wait to be written before the socket is
/// dropped without it. A client that reads slowly still gets its close
/// (`4010` when it fell behind) once it has drained what came before; one
/// that never reads again holds its descriptor for at most this long
/// after it was judged too slow.
pub const CLOSE_LINGER: Duration = Duration::from_secs(30);
/// How long to wait for the client's answer to our close frame.
const CLOSE_DRAIN: Duration = Duration::from_secs(2);

/// The largest frame read at all for a protocol limit of `max_frame_bytes`
/// (larger ones are refused before they are read whole).
pub fn transport_cap(max_frame_bytes: usize) -> usize {
    max_frame_bytes.saturating_mul(4).max(64 * 1024)
}

/// `GET /ws`.
pub async fn upgrade(ws: WebSocketUpgrade, State(app): State<AppState>) -> Response {
    // The transport cap is generous; the protocol limit is checked per
    // message below so an oversized frame gets our own close code.
    let cap = transport_cap(app.config.max_frame_bytes);
    ws.max_message_size(cap)
        .max_frame_size(cap)
        .read_buffer_size(READ_BUFFER_BYTES)
        .on_upgrade(move |socket| connection(socket, app))
}

async fn close_with(socket: &mut WebSocket, code: u16, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: Utf8Bytes::from(reason),
    };
    // A frame whose write timed out earlier is still in the socket's
    // buffer: this send writes its rest first, so the close comes after
    // whole messages.
    if !matches!(
        tokio::time::timeout(CLOSE_LINGER, socket.send(Message::Close(Some(frame)))).await,
        Ok(Ok(()))
    ) {
        return;
    }
    // The closing handshake: read (and drop) what the client still sends
    // until its own close, for a moment. Closing a TCP socket with unread
    // input makes the kernel send a reset, and a reset makes the client's
    // kernel discard what it had not read yet: our close frame with it.
    let _ = tokio::time::timeout(CLOSE_DRAIN, async {
        while let Some(Ok(_)) = socket.recv().await {}
    })
    .await;
}

/// How one write ended.
enum Sent {
    Done,
    /// The client did not take the message within the write timeout.
    TooSlow,
    /// The socket failed.
    Failed,
}

async fn send_frame(socket: &mut WebSocket, frame: Message, timeout: Duration) -> Sent {
    match tokio::time::timeout(timeout, socket.send(frame)).await {
        Ok(Ok(())) => Sent::Done,
        Ok(Err(_)) => Sent::Failed,
        Err(_) => Sent::TooSlow,
    }
}

/// Send one message built here (not by the game).
async fn send_msg(socket: &mut WebSocket, msg: &ServerMsg, timeout: Duration) -> Sent {
    let text = crate::delivery::text(msg);
    send_frame(socket, Message::Text(text.into()), timeout).await
}

/// The close for a client that fell behind.
const TOO_SLOW: (u16, &str) = (close::TOO_SLOW, "too slow; reconnect to catch up");

async fn close_too_slow(socket: &mut WebSocket) {
    close_with(socket, TOO_SLOW.0, TOO_SLOW.1).await;
}

/// How a conversation ended that its game has not heard of: the close
/// frame to send the client, if any.
type Ending = Option<(u16, &'static str)>;

/// What a failed write ends with (`None`: it went on).
fn after_write(sent: Sent) -> Option<Ending> {
    match sent {
        Sent::Done => None,
        Sent::TooSlow => Some(Some(TOO_SLOW)),
        Sent::Failed => Some(None),
    }
}

async fn connection(mut socket: WebSocket, app: AppState) {
    let Ok(_permit) = Arc::clone(&app.connection_slots).try_acquire_owned() else {
        close_with(&mut socket, 1013, "server busy").await;
        return;
    };
    app.metrics.connections.inc();
    let conn = app.next_conn.fetch_add(1, Ordering::Relaxed);
    run(conn, &mut socket, &app).await;
    app.metrics.connections.dec();
}

async fn run(conn: u64, socket: &mut WebSocket, app: &AppState) {
    let max = app.config.max_frame_bytes;
    // 1. hello (a socket that has not said it yet belongs to no game, so
    // it hears about a shutdown here)
    let mut stop = app.registry.shutdown_signal();
    let first = tokio::select! {
        first = tokio::time::timeout(Duration::from_secs(app.config.hello_timeout_secs.max(1)), socket.recv()) => first,
        _ = stop.recv() => {
            close_with(socket, close::SHUTDOWN, "server shutting down").await;
            return;
        }
    };
    let Ok(Some(Ok(Message::Text(text)))) = first else {
        close_with(socket, close::HELLO_REQUIRED, "say hello first").await;
        return;
    };
    if text.len() > max {
        close_with(socket, close::FRAME_TOO_LARGE, "message too large").await;
        return;
    }
    let Ok(ClientMsg::Hello {
        protocol,
        game,
        join,
        last_seq,
        account,
    }) = serde_json::from_str(&text)
    else {
        close_with(
            socket,
            close::HELLO_REQUIRED,
            "the first message must be hello",
        )
        .await;
        return;
    };
    if protocol != PROTOCOL_VERSION {
        let reason = format!("server speaks protocol {PROTOCOL_VERSION}");
        close_with(socket, close::PROTOCOL_MISMATCH, &reason).await;
        return;
    }
    // A logged-in player: the session token becomes an account id here, so
    // the game only ever sees ids.
    let account = match account {
        None => None,
        Some(token) => match crate::accounts::account_for_token(app.store.as_ref(), &token).await {
            Ok(Some(a)) => Some(a.id),
            Ok(None) => {
                close_with(socket, close::BAD_SESSION, "invalid or expired session").await;
                return;
            }
            Err(e) => {
                tracing::error!(conn, error = %e, "cannot look up a session");
                close_with(socket, 1011, "server error").await;
                return;
            }
        },
    };
    let to_game = match find_game(app, &game).await {
        Ok(Some(to_game)) => to_game,
        Ok(None) => {
            let (code, reason) = why_not_live(app, &game).await;
            close_with(socket, code, reason).await;
            return;
        }
        Err(ServerError::Full) => {
            close_with(
                socket,
                close::SERVER_FULL,
                "the server is full; try again later",
            )
            .await;
            return;
        }
        Err(e) => {
            tracing::error!(conn, game, error = %e, "cannot load a stored game");
            close_with(
                socket,
                close::STORAGE_FAILURE,
                "storage unavailable; try again later",
            )
            .await;
            return;
        }
    };
    let (tx, mut rx) = mpsc::channel(app.config.send_queue);
    let too_slow = Arc::new(Notify::new());
    let sink = ConnSink {
        tx,
        too_slow: Arc::clone(&too_slow),
    };
    if to_game
        .send(ToGame::Hello {
            hello: Hello {
                conn,
                join,
                last_seq,
                // Used if this hello makes a new player.
                fresh_token: crate::secrets::random_hex(16),
                account,
            },
            sink,
        })
        .await
        .is_err()
    {
        close_with(socket, close::UNKNOWN_GAME, "that game has ended").await;
        return;
    }
    // 2. the conversation
    let write_timeout = Duration::from_millis(app.config.write_timeout_ms.max(1));
    let per_sec = NonZeroU32::new(app.config.rate_per_sec.max(1)).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new(app.config.rate_burst.max(1)).unwrap_or(NonZeroU32::MIN);
    let limiter = RateLimiter::direct(Quota::per_second(per_sec).allow_burst(burst));
    let ending: Ending = loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(Outgoing::Text(t)) => {
                    if let Some(end) = after_write(send_frame(socket, Message::Text(t), write_timeout).await) {
                        break end;
                    }
                }
                Some(Outgoing::Close(code, reason)) => {
                    close_with(socket, code, &reason).await;
                    return; // The game already forgot this connection.
                }
                None => {
                    // The game dropped this connection: it was too slow
                    // (the queue drained before that branch was picked),
                    // or the game ended.
                    let slow = tokio::select! {
                        biased;
                        _ = too_slow.notified() => true,
                        _ = std::future::ready(()) => false,
                    };
                    if slow {
                        close_too_slow(socket).await;
                    } else {
                        close_with(socket, close::SHUTDOWN, "game closed").await;
                    }
                    return;
                }
            },
            _ = too_slow.notified() => {
                close_too_slow(socket).await;
                return; // The game already forgot this connection.
            }
            incoming = socket.recv() => {
                // Every frame a client sends counts against its rate:
                // text, binary, ping and pong alike (each ping costs the
                // server a pong).
                if matches!(incoming, Some(Ok(ref m)) if !matches!(m, Message::Close(_)))
                    && limiter.check().is_err()
                {
                    break Some((close::RATE_LIMITED, "too many messages"));
                }
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        let msg = ServerMsg::Error { code: ErrorCode::Malformed, message: "binary frames are not supported".into() };
                        if let Some(end) = after_write(send_msg(socket, &msg, write_timeout).await) {
                            break end;
                        }
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | None => break None,
                    Some(Err(e)) => {
                        tracing::debug!(conn, error = %e, "websocket read error");
                        break Some((close::FRAME_TOO_LARGE, "unreadable or oversized frame"));
                    }
                };
                if text.len() > max {
                    break Some((close::FRAME_TOO_LARGE, "message too large"));
                }
                match serde_json::from_str::<ClientMsg>(&text) {
                    Ok(msg) => {
                        let m = ToGame::Message { conn, msg, received: Instant::now() };
                        if to_game.send(m).await.is_err() {
                            close_with(socket, close::SHUTDOWN, "game closed").await;
                            return;
                        }
                    }
                    Err(e) => {
                        let msg = ServerMsg::Error { code: ErrorCode::Malformed, message: format!("not a valid message: {e}") };
                        if let Some(end) = after_write(send_msg(socket, &msg, write_timeout).await) {
                            break end;
                        }
                    }
                }
            }
        }
    };
    // The game hears first, the client after: a close frame may wait up
    // to CLOSE_LINGER for a client that reads nothing (one too slow, or a
    // flooder that does not read), and until the game hears of it, it
    // would count the connection as there all that time (a spectator in
    // the lobby, a player no bot stands in for) and keep queueing for it.
    let _ = to_game.send(ToGame::Closed { conn }).await;
    if let Some((code, reason)) = ending {
        close_with(socket, code, reason).await;
    }
}

/// The game's task here, or in cluster mode a channel to it on the node
/// that runs it, or after loading it here from the store; `None` if no
/// such game is live.
async fn find_game(
    app: &AppState,
    code: &str,
) -> Result<Option<mpsc::Sender<ToGame>>, ServerError> {
    if let Some(tx) = app.registry.get(code) {
        return Ok(Some(tx));
    }
    // Runs on another node: reached through NATS (a lone server has no
    // other node, and reads nothing here).
    if let Some(owner) = remote_owner(app, code).await {
        return Ok(Some(remote_game(app, code, owner)));
    }
    let found = app.registry.get_or_load(code).await?;
    if found.is_none() {
        // Another node may have taken it meanwhile.
        if let Some(owner) = remote_owner(app, code).await {
            return Ok(Some(remote_game(app, code, owner)));
        }
    }
    Ok(found)
}

/// The node that runs a game, if another node holds its lease now.
pub(crate) async fn remote_owner(app: &AppState, code: &str) -> Option<String> {
    let cluster = app.cluster.as_ref()?;
    let code = crate::codes::normalize(code);
    match app.store.lease(&code).await {
        Ok(Some(l))
            if l.owner != cluster.node_id && l.expires_at > crate::clock::wall_clock_ms() =>
        {
            Some(l.owner)
        }
        Ok(_) => None,
        Err(e) => {
            tracing::warn!(code, error = %e, "cannot read a game's lease");
            None
        }
    }
}

/// A channel to a game on another node ([`crate::relay::remote`]).
fn remote_game(app: &AppState, code: &str, owner: String) -> mpsc::Sender<ToGame> {
    let check_every = app.config.lease_renew;
    match &app.cluster {
        Some(cluster) => crate::relay::remote(
            crate::relay::Edge {
                cluster: Arc::clone(cluster),
                store: Arc::clone(&app.store),
                metrics: Arc::clone(&app.metrics),
                check_every,
                shutdown: app.registry.shutdown_signal(),
            },
            crate::codes::normalize(code),
            owner,
        ),
        // Not called outside cluster mode; a closed channel says "ended".
        None => mpsc::channel(1).0,
    }
}

/// Why a game code has no live game: a game closed as outdated says so
/// (its players learn why their game is gone), anything else is unknown.
async fn why_not_live(app: &AppState, code: &str) -> (u16, &'static str) {
    let code = crate::codes::normalize(code);
    let outdated = match app.store.game(&code).await {
        Ok(Some(g)) => g
            .result
            .as_deref()
            .and_then(|r| serde_json::from_str::<crate::outcome::GameSummary>(r).ok())
            .is_some_and(|s| s.outdated.is_some()),
        Ok(None) => false,
        Err(e) => {
            // Only the reason given is at stake.
            tracing::warn!(error = %e, "cannot look up a game that is not live");
            false
        }
    };
    if outdated {
        (close::OUTDATED, crate::outcome::OUTDATED_MESSAGE)
    } else {
        (close::UNKNOWN_GAME, "no game with that code")
    }
}
