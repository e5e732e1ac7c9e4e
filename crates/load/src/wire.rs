//! One WebSocket to the server: connect, say hello, and read the server's
//! messages cheaply.
//!
//! The load tool reads tens of thousands of messages a second on the same
//! two cores as the server, so it does not build the whole `ServerMsg`:
//! [`Incoming`] keeps only the fields it acts on and lets serde skip the
//! rest (views, event bodies). Legal commands stay raw JSON, to be sent
//! back as they came.

use citadel_protocol::{ClientMsg, Join, PROTOCOL_VERSION};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A client socket.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;
/// Its writing half.
pub type WsTx = SplitSink<Ws, Message>;
/// Its reading half.
pub type WsRx = SplitStream<Ws>;

/// Bytes read from a socket at a time.
const READ_BUFFER_BYTES: usize = 16 * 1024;

/// The longest wait for a connection or a setup step.
pub const STEP: Duration = Duration::from_secs(30);

/// A server message, reduced to what the load tool needs.
#[derive(Debug, Deserialize)]
pub struct Incoming {
    /// The message type (`welcome`, `lobby`, `snapshot`, `events`, `ack`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// `snapshot` and `ack`: a seq.
    #[serde(default)]
    pub seq: Option<u64>,
    /// `ack`/`rejected`: the reference the command carried.
    #[serde(default)]
    pub client_ref: Option<u64>,
    /// `welcome`: the seat given.
    #[serde(default)]
    pub seat: Option<u8>,
    /// `events`: the new events (only their seqs and types are read).
    #[serde(default)]
    pub events: Option<Vec<SeqOnly>>,
    /// `snapshot`/`events`: once the game is over, the places (only its
    /// presence is read: the tool knows no game's view or events).
    #[serde(default)]
    pub outcome: Option<Box<RawValue>>,
    /// `snapshot`/`events`: what this viewer may send now, as raw JSON.
    #[serde(default)]
    pub legal: Option<Vec<Box<RawValue>>>,
    /// `lobby`: the lobby.
    #[serde(default)]
    pub lobby: Option<LobbyLite>,
    /// `rejected`/`error`: in words.
    #[serde(default)]
    pub message: Option<String>,
}

impl Incoming {
    /// The last seq this message brings: an `events` batch's last event,
    /// a snapshot's seq.
    pub fn last_seq(&self) -> Option<u64> {
        match self.kind.as_str() {
            "events" => self.events.as_ref().and_then(|e| e.last()).map(|e| e.seq),
            "snapshot" => self.seq,
            _ => None,
        }
    }

    /// True if the game is over: the message carries its outcome.
    pub fn finished(&self) -> bool {
        self.outcome.is_some()
    }
}

/// An event's seq only: the event itself is the game's, which the tool
/// does not read.
#[derive(Debug, Deserialize)]
pub struct SeqOnly {
    /// Its seq.
    pub seq: u64,
}

/// A lobby's seats only.
#[derive(Debug, Deserialize)]
pub struct LobbyLite {
    /// Its seats.
    pub seats: Vec<SeatLite>,
    /// Started.
    pub started: bool,
}

/// A lobby seat's state only.
#[derive(Debug, Deserialize)]
pub struct SeatLite {
    /// `open`, `human` or `bot`.
    pub controller: String,
    /// Ready.
    pub ready: bool,
}

/// How a read ended other than with a text message.
#[derive(Debug)]
pub enum ReadEnd {
    /// The server closed the socket with this code (`None`: no code).
    Closed(Option<u16>),
    /// The stream failed or ended.
    Dropped(String),
}

impl std::fmt::Display for ReadEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadEnd::Closed(Some(code)) => write!(f, "closed by the server with {code}"),
            ReadEnd::Closed(None) => write!(f, "closed by the server"),
            ReadEnd::Dropped(why) => write!(f, "connection lost: {why}"),
        }
    }
}

/// Turn one frame into text (the frame's own buffer, not a copy),
/// skipping control frames (`Ok(None)`).
pub fn frame_text(
    frame: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
) -> Result<Option<Utf8Bytes>, ReadEnd> {
    match frame {
        Some(Ok(Message::Text(t))) => Ok(Some(t)),
        Some(Ok(Message::Close(c))) => Err(ReadEnd::Closed(c.map(|c| u16::from(c.code)))),
        Some(Ok(_)) => Ok(None),
        Some(Err(e)) => Err(ReadEnd::Dropped(e.to_string())),
        None => Err(ReadEnd::Dropped("stream ended".into())),
    }
}

/// The WebSocket URL for a server's base URL (`http://host:port`).
pub fn ws_url(base: &str) -> String {
    let base = base.trim_end_matches('/');
    let rest = base
        .strip_prefix("http://")
        .map(|r| format!("ws://{r}"))
        .or_else(|| base.strip_prefix("https://").map(|r| format!("wss://{r}")))
        .unwrap_or_else(|| base.to_string());
    format!("{rest}/ws")
}

/// A client message as JSON text (the protocol's own types, so the tool
/// speaks exactly what the server parses).
pub fn message(msg: &ClientMsg) -> String {
    // Serializing these plain types cannot fail.
    serde_json::to_string(msg).unwrap_or_default()
}

/// The `hello` a player (`spectator == false`) or spectator sends.
pub fn hello(game: &str, name: &str, spectator: bool) -> String {
    let name = name.to_string();
    message(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        game: game.to_string(),
        join: if spectator {
            Join::Spectator { name }
        } else {
            Join::Player { name }
        },
        last_seq: None,
        account: None,
    })
}

/// A `command` message with a legal command sent back verbatim.
pub fn command(client_ref: u64, command: &RawValue) -> String {
    format!(
        r#"{{"type":"command","client_ref":{client_ref},"command":{}}}"#,
        command.get()
    )
}

/// Open a socket and send `hello`.
///
/// # Errors
/// If the connection or the send fails or takes longer than [`STEP`].
pub async fn connect(url: &str, hello: String) -> anyhow::Result<Ws> {
    // The default 128 KiB read buffer per socket would make the tool, not
    // the server, the memory hog of a 20,000-socket run.
    let config = WebSocketConfig::default().read_buffer_size(READ_BUFFER_BYTES);
    let connect = tokio_tungstenite::connect_async_with_config(url, Some(config), false);
    let (mut ws, _) = tokio::time::timeout(STEP, connect)
        .await
        .map_err(|_| anyhow::anyhow!("connect timed out"))??;
    tokio::time::timeout(STEP, ws.send(Message::text(hello)))
        .await
        .map_err(|_| anyhow::anyhow!("hello timed out"))??;
    Ok(ws)
}

/// Send one text frame within [`STEP`].
///
/// # Errors
/// If the send fails or times out.
pub async fn send(tx: &mut WsTx, text: String) -> anyhow::Result<()> {
    tokio::time::timeout(STEP, tx.send(Message::text(text)))
        .await
        .map_err(|_| anyhow::anyhow!("send timed out"))??;
    Ok(())
}

/// The next text message within [`STEP`], parsed.
///
/// # Errors
/// A close, a dropped stream, a timeout or an unreadable message.
pub async fn next(rx: &mut WsRx) -> anyhow::Result<Incoming> {
    loop {
        let frame = tokio::time::timeout(STEP, rx.next())
            .await
            .map_err(|_| anyhow::anyhow!("no message within {STEP:?}"))?;
        match frame_text(frame) {
            Ok(Some(text)) => return Ok(serde_json::from_str(text.as_str())?),
            Ok(None) => continue,
            Err(end) => anyhow::bail!("{end}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_events_message_yields_its_last_seq_legal_commands_and_outcome() {
        let text = r#"{"type":"events","events":[{"seq":7,"event":{"type":"x"}},{"seq":8,"event":{"type":"y","at":[1,2]}}],
            "view":{"phase":{"phase":"finished","result":null},"teams":[]},
            "legal":[{"EndTurn":null},{"Move":{"to":[1,2]}}],
            "outcome":{"placings":[{"seat":0,"team":null,"place":1,"score":3}]}}"#;
        let m: Incoming = serde_json::from_str(text).expect("parse");
        assert_eq!(m.last_seq(), Some(8));
        assert!(m.finished());
        let legal = m.legal.expect("legal");
        assert_eq!(
            command(3, &legal[1]),
            r#"{"type":"command","client_ref":3,"command":{"Move":{"to":[1,2]}}}"#
        );
    }

    #[test]
    fn a_game_ends_with_the_outcome_not_with_a_game_s_own_words() {
        let running = r#"{"type":"events","events":[{"seq":3,"event":{"type":"mission_ended"}}],
            "view_patch":[{"op":"replace","path":"/phase","value":{"phase":"finished"}}],"legal":[]}"#;
        let m: Incoming = serde_json::from_str(running).expect("parse");
        assert!(!m.finished(), "neither the patch nor the event is read");
        let ended = running.replace(r#""legal":[]"#, r#""legal":[],"outcome":{"placings":[]}"#);
        let m: Incoming = serde_json::from_str(&ended).expect("parse");
        assert!(m.finished());
        assert_eq!(m.last_seq(), Some(3));
    }

    #[test]
    fn a_running_phase_is_not_finished_and_acks_have_no_event_seq() {
        let m: Incoming =
            serde_json::from_str(r#"{"type":"snapshot","seq":4,"view":{"phase":{"phase":"corporation","team":0}},"legal":[]}"#)
                .expect("parse");
        assert!(!m.finished());
        assert_eq!(m.last_seq(), Some(4));
        let ack: Incoming =
            serde_json::from_str(r#"{"type":"ack","client_ref":9,"seq":12}"#).expect("parse");
        assert_eq!(
            (ack.client_ref, ack.seq, ack.last_seq()),
            (Some(9), Some(12), None)
        );
    }

    #[test]
    fn base_urls_map_to_the_socket_url() {
        assert_eq!(ws_url("http://127.0.0.1:8080/"), "ws://127.0.0.1:8080/ws");
        assert_eq!(ws_url("https://example.org"), "wss://example.org/ws");
    }
}
