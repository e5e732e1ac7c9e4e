//! The registry of live games and the task that runs each one.
//!
//! One tokio task per game owns its [`Session`] (single writer); inputs
//! arrive on a bounded channel, outputs go to each connection's bounded
//! queue. A connection whose queue is full is too slow: it is told to
//! close (it will reconnect and catch up) rather than let memory grow.

use crate::error::ServerError;
use crate::metrics::{Metrics, ReasonLabel};
use crate::session::{ConnId, Input, Output, Session, SessionConfig};
use citadel_protocol::{close, ClientMsg, GameOptions, Join, ServerMsg};
use rand::Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc, Notify};

/// What a connection's task is sent.
#[derive(Debug)]
pub enum Outgoing {
    /// A serialized message.
    Text(Arc<str>),
    /// Close with a code.
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

/// What a game task is sent.
#[derive(Debug)]
pub enum ToGame {
    /// A socket said hello.
    Hello {
        /// Connection id.
        conn: ConnId,
        /// Its queue.
        sink: ConnSink,
        /// How it joins.
        join: Join,
        /// Last seen seq.
        last_seq: Option<u64>,
    },
    /// A message.
    Message {
        /// From.
        conn: ConnId,
        /// Message.
        msg: ClientMsg,
        /// When it arrived (latency metric).
        received: Instant,
    },
    /// The socket closed.
    Closed {
        /// Which.
        conn: ConnId,
    },
}

/// Shared by every request handler.
#[derive(Debug)]
pub struct Registry {
    games: Mutex<HashMap<String, mpsc::Sender<ToGame>>>,
    metrics: Arc<Metrics>,
    session: SessionConfig,
    max_games: usize,
    shutdown: broadcast::Sender<()>,
}

/// Unambiguous characters for join codes: no 0/O, 1/I/L.
const CODE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";

impl Registry {
    /// An empty registry.
    pub fn new(
        metrics: Arc<Metrics>,
        session: SessionConfig,
        max_games: usize,
        shutdown: broadcast::Sender<()>,
    ) -> Self {
        Registry {
            games: Mutex::new(HashMap::new()),
            metrics,
            session,
            max_games,
            shutdown,
        }
    }

    /// The game with this code.
    pub fn get(&self, code: &str) -> Option<mpsc::Sender<ToGame>> {
        let code = code.trim().to_ascii_uppercase();
        // A std Mutex: held for a lookup, never across an await.
        self.games.lock().ok()?.get(&code).cloned()
    }

    /// Fires when the server shuts down.
    pub fn shutdown_signal(&self) -> broadcast::Receiver<()> {
        self.shutdown.subscribe()
    }

    /// Games live now.
    pub fn len(&self) -> usize {
        self.games.lock().map_or(0, |g| g.len())
    }

    /// True if no game is live.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Validate options, create the lobby and start its task.
    ///
    /// # Errors
    /// [`ServerError::BadRequest`] for bad options, [`ServerError::Full`].
    pub fn create(self: &Arc<Self>, options: GameOptions) -> Result<String, ServerError> {
        validate(&options)?;
        let mut rng = rand::thread_rng();
        let seed: u64 = rng.gen();
        let (tx, rx) = mpsc::channel(1024);
        let code = {
            let mut games = self
                .games
                .lock()
                .map_err(|_| ServerError::Internal(anyhow::anyhow!("registry lock poisoned")))?;
            if games.len() >= self.max_games {
                return Err(ServerError::Full);
            }
            let code = loop {
                let c: String = (0..6)
                    .map(|_| char::from(CODE_ALPHABET[rng.gen_range(0..CODE_ALPHABET.len())]))
                    .collect();
                if !games.contains_key(&c) {
                    break c;
                }
            };
            games.insert(code.clone(), tx);
            code
        };
        self.metrics.games.inc();
        let session = Session::new(code.clone(), options, seed, self.session.clone());
        tokio::spawn(run_game(
            session,
            rx,
            Arc::clone(self),
            self.shutdown.subscribe(),
        ));
        Ok(code)
    }

    fn remove(&self, code: &str) {
        if let Ok(mut g) = self.games.lock() {
            if g.remove(code).is_some() {
                self.metrics.games.dec();
            }
        }
    }
}

fn validate(o: &GameOptions) -> Result<(), ServerError> {
    use citadel_protocol::DarkLegionChoice;
    let bad = |m: &str| Err(ServerError::BadRequest(m.to_string()));
    if !citadel_rules::game::state::PLAYABLE_MISSIONS.contains(&o.mission.as_str()) {
        return bad("unknown or unplayable mission");
    }
    let ok_count = match o.dark_legion {
        DarkLegionChoice::Ai => (1..=5).contains(&o.seats),
        DarkLegionChoice::Drawn => (2..=5).contains(&o.seats),
        DarkLegionChoice::Seat(s) => (2..=5).contains(&o.seats) && s < o.seats,
    };
    if !ok_count {
        return bad("seats must be 1-5 with the AI Dark Legion, 2-5 otherwise");
    }
    if !(1..=12).contains(&o.starting_rank) {
        return bad("starting rank must be 1-12");
    }
    Ok(())
}

fn token() -> String {
    let bytes: [u8; 16] = rand::thread_rng().gen();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Games with nobody connected are dropped after this long.
const IDLE_LIMIT: Duration = Duration::from_secs(30 * 60);

async fn run_game(
    mut session: Session,
    mut rx: mpsc::Receiver<ToGame>,
    registry: Arc<Registry>,
    mut shutdown: broadcast::Receiver<()>,
) {
    let start = Instant::now();
    let mut sinks: HashMap<ConnId, ConnSink> = HashMap::new();
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let mut idle_since = Instant::now();
    let metrics = Arc::clone(&registry.metrics);
    loop {
        let (input, received) = tokio::select! {
            msg = rx.recv() => match msg {
                None => break,
                Some(ToGame::Hello { conn, sink, join, last_seq }) => {
                    sinks.insert(conn, sink);
                    (Input::Hello { conn, join, last_seq, fresh_token: token() }, None)
                }
                Some(ToGame::Message { conn, msg, received }) => {
                    (Input::Message { conn, msg }, Some(received))
                }
                Some(ToGame::Closed { conn }) => {
                    sinks.remove(&conn);
                    (Input::Closed { conn }, None)
                }
            },
            _ = tick.tick() => (Input::Tick, None),
            _ = shutdown.recv() => {
                for sink in sinks.values() {
                    let _ = sink.tx.try_send(Outgoing::Close(close::SHUTDOWN, "server shutting down".into()));
                }
                break;
            }
        };
        let now = start.elapsed().as_millis() as u64;
        // Slow connections are cut off (they reconnect and catch up); the
        // session's answer to their leaving is delivered like any other.
        let mut outputs = session.handle(input, now);
        loop {
            let slow = deliver(outputs, &mut sinks, &metrics);
            if slow.is_empty() {
                break;
            }
            outputs = Vec::new();
            for conn in slow {
                outputs.extend(session.handle(Input::Closed { conn }, now));
            }
        }
        if let Some(t) = received {
            metrics.command_latency.observe(t.elapsed().as_secs_f64());
        }
        if sinks.is_empty() {
            if idle_since.elapsed() > IDLE_LIMIT {
                break;
            }
        } else {
            idle_since = Instant::now();
        }
    }
    registry.remove(session.code());
    tracing::info!(code = session.code(), "game closed");
}

/// Hand a session's outputs to the connections and the metrics. A
/// connection whose queue is full is told it is too slow and forgotten at
/// once (nothing later in the batch reaches it, so what it got stays
/// contiguous); the caller tells the session it left.
fn deliver(
    outputs: Vec<Output>,
    sinks: &mut HashMap<ConnId, ConnSink>,
    metrics: &Metrics,
) -> Vec<ConnId> {
    let mut slow = Vec::new();
    for o in outputs {
        match o {
            Output::Send { conn, msg } => {
                let Some(sink) = sinks.get(&conn) else {
                    continue;
                };
                let text: Arc<str> = match serde_json::to_string(&msg) {
                    Ok(t) => t.into(),
                    Err(e) => {
                        tracing::error!(error = %e, "cannot serialize a message");
                        continue;
                    }
                };
                if sink.tx.try_send(Outgoing::Text(text)).is_err() {
                    if let Some(sink) = sinks.remove(&conn) {
                        sink.too_slow.notify_one();
                    }
                    slow.push(conn);
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
            Output::Refused { reason } => {
                let reason = serde_json::to_value(reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                metrics
                    .rejections
                    .get_or_create(&ReasonLabel { reason })
                    .inc();
            }
        }
    }
    slow
}

/// Parsed `hello`, as the socket layer hands it over.
pub type Hello = (String, Join, Option<u64>);

/// Send a server message built outside a game (errors before `hello`).
pub fn text(msg: &ServerMsg) -> String {
    serde_json::to_string(msg).unwrap_or_default()
}
