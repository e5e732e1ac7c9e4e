//! The WebSocket at `/ws`: one task per connection reads frames, checks
//! size and rate, parses messages and forwards them to the game's task,
//! and writes what the game sends back. It never judges game moves.
//!
//! The upgrade is done here, not by axum's `WebSocketUpgrade`, so that
//! the socket's bytes pass through [`Metered`] on their way to the
//! WebSocket library: the library hands over whole messages only, and the
//! rate limit must count every frame, the continuation frames of a
//! fragmented message included (edge/frames.rs).

use crate::delivery::{ConnSink, Outgoing};
use crate::edge::frames::{Breach, FrameGuard, Metered};
use crate::error::ServerError;
use crate::game_task::ToGame;
use crate::session::Hello;
use crate::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use citadel_protocol::{close, ClientMsg, ErrorCode, ServerMsg, PROTOCOL_VERSION};
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify};
use ws_protocol::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use ws_protocol::tungstenite::{Message, Utf8Bytes};
use ws_protocol::WebSocketStream;

/// A client's socket: the upgraded connection, its frames counted.
type WebSocket = WebSocketStream<Metered<TokioIo<hyper::upgrade::Upgraded>>>;

/// How long a client has to say hello, by default (`--hello-timeout-secs`).
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one message sent in fragments may stay open, by default
/// (`--fragment-timeout-secs`). A client sends a whole message at once;
/// even a slow link finishes a 16 KiB message well within this.
pub const FRAGMENT_TIMEOUT: Duration = Duration::from_secs(10);
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

/// `GET /ws`: the WebSocket handshake (RFC 6455, 4.2), then one task
/// for the connection. A request that is not a handshake gets `400`.
pub async fn upgrade(State(app): State<AppState>, mut req: Request) -> Response {
    let accept = match handshake_accept(req.method(), req.headers()) {
        Ok(accept) => accept,
        Err(why) => return ServerError::BadRequest(why.into()).into_response(),
    };
    let Some(on_upgrade) = req.extensions_mut().remove::<hyper::upgrade::OnUpgrade>() else {
        return ServerError::BadRequest("this connection cannot be upgraded".into())
            .into_response();
    };
    // The transport cap is generous; the protocol limit is checked per
    // message below so an oversized frame gets our own close code.
    let cap = transport_cap(app.config.max_frame_bytes);
    let config = WebSocketConfig::default()
        .max_message_size(Some(cap))
        .max_frame_size(Some(cap))
        .read_buffer_size(READ_BUFFER_BYTES);
    tokio::spawn(async move {
        let upgraded = match on_upgrade.await {
            Ok(upgraded) => upgraded,
            Err(e) => {
                tracing::debug!(error = %e, "websocket upgrade failed");
                return;
            }
        };
        let guard = FrameGuard::new(
            app.config.rate_per_sec,
            app.config.rate_burst,
            Duration::from_secs(app.config.fragment_timeout_secs.max(1)),
        );
        let io = Metered::new(TokioIo::new(upgraded), Arc::clone(&guard));
        let socket = WebSocketStream::from_raw_socket(io, Role::Server, Some(config)).await;
        connection(socket, guard, app).await;
    });
    let mut res = Response::new(Body::empty());
    *res.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = res.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    res
}

/// The `Sec-WebSocket-Accept` answering a WebSocket handshake request, or
/// why the request is not one.
fn handshake_accept(method: &Method, headers: &HeaderMap) -> Result<HeaderValue, &'static str> {
    if method != Method::GET {
        return Err("a WebSocket handshake is a GET");
    }
    if !header_has_token(headers, header::CONNECTION, "upgrade") {
        return Err("not a WebSocket handshake: no `Connection: upgrade`");
    }
    if !header_has_token(headers, header::UPGRADE, "websocket") {
        return Err("not a WebSocket handshake: no `Upgrade: websocket`");
    }
    if !header_has_token(headers, header::SEC_WEBSOCKET_VERSION, "13") {
        return Err("WebSocket version 13 only");
    }
    let key = headers
        .get(header::SEC_WEBSOCKET_KEY)
        .ok_or("not a WebSocket handshake: no `Sec-WebSocket-Key`")?;
    let accept = ws_protocol::tungstenite::handshake::derive_accept_key(key.as_bytes());
    // Base64 text: always a valid header value.
    HeaderValue::try_from(accept).map_err(|_| "bad Sec-WebSocket-Key")
}

/// Whether a header's comma-separated list holds `token` (any case).
fn header_has_token(headers: &HeaderMap, name: HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|v| {
        v.as_bytes()
            .split(|&b| b == b',')
            .any(|t| t.trim_ascii().eq_ignore_ascii_case(token.as_bytes()))
    })
}

async fn close_with(socket: &mut WebSocket, code: u16, reason: &str) {
    let frame = CloseFrame {
        code: code.into(),
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
        while let Some(Ok(_)) = socket.next().await {}
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
type Ending = Option<Breach>;

/// What a failed write ends with (`None`: it went on).
fn after_write(sent: Sent) -> Option<Ending> {
    match sent {
        Sent::Done => None,
        Sent::TooSlow => Some(Some(TOO_SLOW)),
        Sent::Failed => Some(None),
    }
}

async fn connection(mut socket: WebSocket, guard: Arc<FrameGuard>, app: AppState) {
    let Ok(_permit) = Arc::clone(&app.connection_slots).try_acquire_owned() else {
        close_with(&mut socket, 1013, "server busy").await;
        return;
    };
    app.metrics.connections.inc();
    let conn = app.next_conn.fetch_add(1, Ordering::Relaxed);
    run(conn, &mut socket, &guard, &app).await;
    app.metrics.connections.dec();
}

async fn run(conn: u64, socket: &mut WebSocket, guard: &FrameGuard, app: &AppState) {
    let max = app.config.max_frame_bytes;
    // Resolves when the client's frames break the rate limit or a
    // fragmented message stays open too long: frames the WebSocket
    // library reads without handing them over (continuation frames) are
    // seen here too. Watched from the first frame on.
    let broken = guard.broken();
    tokio::pin!(broken);
    // 1. hello (a socket that has not said it yet belongs to no game, so
    // it hears about a shutdown here)
    let mut stop = app.registry.shutdown_signal();
    let first = tokio::select! {
        first = tokio::time::timeout(Duration::from_secs(app.config.hello_timeout_secs.max(1)), socket.next()) => first,
        (code, reason) = &mut broken => {
            close_with(socket, code, reason).await;
            return;
        }
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
            breach = &mut broken => break Some(breach),
            incoming = socket.next() => {
                // Every frame a client sends counts against its rate:
                // text, binary, continuation, ping and pong alike (each
                // ping costs the server a pong). They were counted as
                // they were read: a message read after the limit broke
                // is not handled.
                if let Some(breach) = guard.breach() {
                    break Some(breach);
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
                    // (Raw frames are never read, only written.)
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
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
            .and_then(|r| serde_json::from_str::<crate::outcome::Outdated>(r).ok())
            .is_some(),
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
