//! Plumbing shared by the server's socket tests: deadlines and a timed
//! WebSocket send and receive. Each test file keeps its own client, which
//! tracks what that file checks.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use citadel_protocol::ClientMsg;
pub use citadel_rules::seam::DarkLegionChoice;
use futures_util::{SinkExt, StreamExt};
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub mod nats;
pub mod node;
pub mod pg;

/// A client socket.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The longest wait for any one message.
pub const STEP: Duration = Duration::from_secs(10);

/// Run a test body with an overall deadline.
pub async fn within<T>(limit: Duration, f: impl Future<Output = T>) -> T {
    match tokio::time::timeout(limit, f).await {
        Ok(v) => v,
        Err(_) => panic!("test did not finish within {limit:?}"),
    }
}

/// Send a raw text frame within [`STEP`].
pub async fn send_text(ws: &mut Ws, label: &str, text: String) {
    match tokio::time::timeout(STEP, ws.send(Message::text(text))).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => panic!("{label}: send failed: {e}"),
        Err(_) => panic!("{label}: send timed out"),
    }
}

/// Send a message as a JSON text frame within [`STEP`].
pub async fn send_json(ws: &mut Ws, label: &str, msg: &ClientMsg) {
    let text = serde_json::to_string(msg).unwrap_or_else(|e| panic!("{label}: serialize: {e}"));
    send_text(ws, label, text).await;
}

/// The next text frame within [`STEP`], skipping pings and pongs; or how
/// the connection ended: `Err(Some(code))` for a close frame, `Err(None)`
/// for a dropped stream.
pub async fn next_text(ws: &mut Ws, label: &str) -> Result<String, Option<u16>> {
    loop {
        let next = tokio::time::timeout(STEP, ws.next())
            .await
            .unwrap_or_else(|_| panic!("{label}: no message within {STEP:?}"));
        match next {
            Some(Ok(Message::Text(t))) => return Ok(t.as_str().to_string()),
            Some(Ok(Message::Close(frame))) => return Err(frame.map(|f| u16::from(f.code))),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return Err(None),
        }
    }
}

/// A TCP connection to `addr` from the loopback address `from` (every
/// 127.x.y.z is this host, so tests can be several clients).
pub async fn connect_from(from: [u8; 4], addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((from, 0)))?;
    socket.connect(addr).await
}

/// An HTTP client whose connections come from `from`.
pub fn http_from(from: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::from(from))
        .timeout(STEP)
        .build()
        .expect("client")
}

/// Does the server close this socket within `limit`? (Reads until EOF or
/// a reset; whatever was answered before is ignored.)
pub async fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

/// The start of a request that never ends (slowloris).
pub const HALF_REQUEST: &[u8] = b"GET /healthz HTTP/1.1\r\nHost: x\r\n";

/// Siege's table options as the tests write them: the game's own
/// (`citadel_rules::seam::SiegeOptions`) beside the platform's turn
/// limit, in the JSON `POST /api/games` takes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameOptions {
    /// Mission id.
    pub mission: String,
    /// Player seats.
    pub seats: u8,
    /// Dark Legion.
    pub dark_legion: DarkLegionChoice,
    /// Starting rank.
    pub starting_rank: u8,
    /// Turn limit.
    pub turn_seconds: Option<u32>,
}

impl GameOptions {
    /// As the platform's table options.
    pub fn table(&self) -> citadel_protocol::TableOptions {
        serde_json::from_value(serde_json::to_value(self).expect("json")).expect("table options")
    }
}

/// Options for a C1M1 game at starting rank 1 without a turn clock.
pub fn c1m1_options(seats: u8, dark_legion: DarkLegionChoice) -> GameOptions {
    GameOptions {
        mission: "ce-c1m1".into(),
        seats,
        dark_legion,
        starting_rank: 1,
        turn_seconds: None,
    }
}

/// `POST /api/games`: the new game's code.
pub async fn create_game(addr: SocketAddr, options: &GameOptions) -> String {
    let resp = reqwest::Client::new()
        .post(format!("http://{addr}/api/games"))
        .json(options)
        .send()
        .await
        .expect("POST /api/games");
    assert_eq!(resp.status(), reqwest::StatusCode::CREATED);
    let body: serde_json::Value = resp.json().await.expect("json body");
    body["code"].as_str().expect("a code").to_string()
}
