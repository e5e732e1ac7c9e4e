//! The clients of the cluster load tests: a game of two players (against
//! the AI Dark Legion) and a spectator, each socket on its own node,
//! played at a steady pace by one task. A socket that closes is not a
//! failure here: the client comes back with its last seq on a node that
//! is up ([`Live`]) and the game goes on. What a failure is (a close code
//! other than expected, a gap in the seqs, a rejected legal command, an
//! error message) is recorded for the test to assert on.

// Each test binary that includes this file uses a different part of it.
#![allow(dead_code)]

use crate::common::{self, Ws, STEP};
use citadel_protocol::{close, ClientMsg, Join, ServerMsg, PROTOCOL_VERSION};
use citadel_rules::content::Corporation;
use citadel_rules::game::{Command, Event};
use citadel_rules::seam::DarkLegionChoice;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The longest a client may take to find a node that takes it back.
const REJOIN_WITHIN: Duration = Duration::from_secs(30);

/// The nodes clients may reconnect to (the test takes a node out before
/// it stops it, and puts its successor in).
#[derive(Clone, Debug)]
pub struct Live(Arc<Mutex<Vec<SocketAddr>>>);

impl Live {
    pub fn new(addrs: &[SocketAddr]) -> Live {
        Live(Arc::new(Mutex::new(addrs.to_vec())))
    }

    pub fn remove(&self, addr: SocketAddr) {
        self.0.lock().expect("live nodes").retain(|a| *a != addr);
    }

    pub fn add(&self, addr: SocketAddr) {
        self.0.lock().expect("live nodes").push(addr);
    }

    /// The live nodes now.
    pub fn now(&self) -> Vec<SocketAddr> {
        self.0.lock().expect("live nodes").clone()
    }

    /// The `turn`-th live node, round robin.
    fn pick(&self, turn: usize) -> Option<SocketAddr> {
        let live = self.0.lock().expect("live nodes");
        (!live.is_empty()).then(|| live[turn % live.len()])
    }
}

/// What one client went through.
#[derive(Debug)]
pub struct ClientLog {
    pub label: String,
    /// How each of its sockets ended (`None`: dropped without a close).
    pub closes: Vec<Option<u16>>,
    /// Sockets it opened again.
    pub reconnects: usize,
    /// Hellos no node took (the game was between nodes); retried.
    pub refused_joins: usize,
    /// (seq it had, seq that came next) wherever events skipped seqs.
    pub gaps: Vec<(u64, u64)>,
    /// The last seq it holds.
    pub covered: u64,
}

/// One socket, player or spectator.
pub struct Client {
    log: ClientLog,
    ws: Option<Ws>,
    join: Join,
    seat: Option<u8>,
    legal: Vec<Command>,
    finished: bool,
    /// Where it reconnects next (its own round robin over [`Live`]).
    turn: usize,
    /// `error` messages received.
    errors: Vec<String>,
}

/// The answer to a command.
#[derive(Debug, PartialEq)]
pub enum Answer {
    Acked,
    /// Refused, with the server's words.
    Rejected(String),
    /// The socket ended before the answer (the command may or may not
    /// have been stored).
    Cut,
}

/// How one read ended.
enum Read {
    Msg(ServerMsg),
    /// The socket is gone; it has been logged and dropped.
    Closed,
}

impl Client {
    pub fn label(&self) -> &str {
        &self.log.label
    }

    pub fn legal(&self) -> &[Command] {
        &self.legal
    }

    pub fn covered(&self) -> u64 {
        self.log.covered
    }

    pub fn seat(&self) -> Option<u8> {
        self.seat
    }

    pub fn log(&self) -> &ClientLog {
        &self.log
    }

    /// `error` messages received.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// Send a command and read up to its answer.
    pub async fn command(&mut self, client_ref: u64, command: &Command) -> Answer {
        let msg = ClientMsg::Command {
            client_ref: Some(client_ref),
            command: citadel_protocol::Json::of(&command),
        };
        if !self.send(&msg).await {
            return Answer::Cut;
        }
        loop {
            match self.read().await {
                Read::Msg(ServerMsg::Ack { client_ref: r, .. }) if r == Some(client_ref) => {
                    return Answer::Acked
                }
                Read::Msg(ServerMsg::Rejected {
                    client_ref: r,
                    message,
                    ..
                }) if r == Some(client_ref) => return Answer::Rejected(message),
                Read::Msg(_) => {}
                Read::Closed => return Answer::Cut,
            }
        }
    }

    /// Read (and absorb) until the socket ends: its close code
    /// (`Some(None)`: dropped without one), or `None` if it is still open
    /// after `limit`.
    pub async fn closed_within(&mut self, limit: Duration) -> Option<Option<u16>> {
        let ended = tokio::time::timeout(limit, async {
            loop {
                if let Read::Closed = self.read().await {
                    return;
                }
            }
        })
        .await;
        ended
            .ok()
            .map(|()| self.log.closes.last().copied().flatten())
    }

    /// Connect and say hello; the client once it has `welcome`, or `None`
    /// if the socket ends first (a node stopping, a game moving).
    async fn connect(&mut self, addr: SocketAddr, game: &str, last_seq: Option<u64>) -> bool {
        let url = format!("ws://{addr}/ws");
        let Ok(Ok((ws, _))) =
            tokio::time::timeout(STEP, tokio_tungstenite::connect_async(url)).await
        else {
            return false;
        };
        self.ws = Some(ws);
        let hello = ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            game: game.into(),
            join: self.join.clone(),
            last_seq,
            account: None,
        };
        if !self.send(&hello).await {
            return false;
        }
        loop {
            match self.read().await {
                Read::Msg(ServerMsg::Welcome { seat, token, .. }) => {
                    self.seat = seat;
                    if let Some(token) = token {
                        self.join = Join::Resume { token };
                    }
                    return true;
                }
                Read::Msg(_) => {}
                Read::Closed => return false,
            }
        }
    }

    /// Send; false (socket dropped) if that fails.
    async fn send(&mut self, msg: &ClientMsg) -> bool {
        let Some(ws) = self.ws.as_mut() else {
            return false;
        };
        let text = serde_json::to_string(msg).expect("a client message serializes");
        use futures_util::SinkExt;
        let sent = tokio::time::timeout(
            STEP,
            ws.send(tokio_tungstenite::tungstenite::Message::text(text)),
        )
        .await;
        if matches!(sent, Ok(Ok(()))) {
            true
        } else {
            self.log.closes.push(None);
            self.ws = None;
            false
        }
    }

    /// The next message (absorbed), or the end of the socket.
    async fn read(&mut self) -> Read {
        let Some(ws) = self.ws.as_mut() else {
            return Read::Closed;
        };
        match common::next_text(ws, &self.log.label).await {
            Ok(text) => {
                let msg: ServerMsg = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("{}: not a ServerMsg: {e}: {text}", self.log.label));
                self.absorb(&msg);
                Read::Msg(msg)
            }
            Err(code) => {
                self.log.closes.push(code);
                self.ws = None;
                Read::Closed
            }
        }
    }

    fn absorb(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::Snapshot { seq, legal, .. } => {
                self.log.covered = *seq;
                self.legal = legal.parse().expect("legal commands");
            }
            ServerMsg::Events { events, legal, .. } => {
                for e in events {
                    if e.seq != self.log.covered + 1 {
                        self.log.gaps.push((self.log.covered, e.seq));
                    }
                    self.log.covered = e.seq;
                    if matches!(e.event.parse::<Event>(), Ok(Event::MissionEnded { .. })) {
                        self.finished = true;
                    }
                }
                self.legal = legal.parse().expect("legal commands");
            }
            ServerMsg::Error { message, .. } => self.errors.push(message.clone()),
            _ => {}
        }
    }

    /// A barrier: every message queued for this client before the server
    /// read our ping has been read. False if the socket ended.
    pub async fn drain(&mut self) -> bool {
        if !self.send(&ClientMsg::Ping).await {
            return false;
        }
        loop {
            match self.read().await {
                Read::Msg(ServerMsg::Pong) => return true,
                Read::Msg(_) => {}
                Read::Closed => return false,
            }
        }
    }

    /// Try once to come back through the node at `addr`: `None` if it
    /// took the hello, else how it closed the socket (`Some(None)`: no
    /// code, or no connection).
    pub async fn try_rejoin_once(&mut self, addr: SocketAddr, game: &str) -> Option<Option<u16>> {
        let closes = self.log.closes.len();
        let last = Some(self.log.covered);
        if self.connect(addr, game, last).await {
            self.log.reconnects += 1;
            return None;
        }
        let code = self.log.closes.get(closes).copied().flatten();
        self.log.closes.truncate(closes);
        Some(code)
    }

    /// Come back with the last seq on a live node, until one takes the
    /// hello and answers a ping after the catch-up: true. False if the
    /// game ended meanwhile (the command whose ack a close cut off ended
    /// it): a finished game that left memory is not loaded again, so the
    /// hello is refused as an unknown game (4003) and the game's replay
    /// is there instead.
    pub async fn rejoin(&mut self, live: &Live, game: &str) -> bool {
        let deadline = Instant::now() + REJOIN_WITHIN;
        // What the last refusal said, for the failure message.
        let mut refusal = String::new();
        loop {
            assert!(
                Instant::now() < deadline,
                "{}: no node took game {game} back after seq {}; last refusal: {refusal}",
                self.log.label,
                self.log.covered
            );
            self.turn += 1;
            if let Some(addr) = live.pick(self.turn) {
                let last = Some(self.log.covered);
                let (closes, errors) = (self.log.closes.len(), self.errors.len());
                if self.connect(addr, game, last).await && self.drain().await {
                    self.log.reconnects += 1;
                    return true;
                }
                let unknown = self.log.closes[closes..].contains(&Some(close::UNKNOWN_GAME));
                if unknown && finished(addr, game).await {
                    self.log.closes.truncate(closes);
                    self.finished = true;
                    return false;
                }
                self.log.refused_joins += 1;
                refusal = format!(
                    "{addr}: closes {:?}, errors {:?}",
                    &self.log.closes[closes..],
                    &self.errors[errors..]
                );
                // A close or an error seen while joining is part of the
                // retry (the game was between nodes), not of the client's
                // history.
                self.log.closes.truncate(closes);
                self.errors.truncate(errors);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Read until a lobby satisfies `pred`; `None` if the socket ends.
    async fn wait_lobby(
        &mut self,
        pred: impl Fn(&citadel_protocol::LobbyView) -> bool,
    ) -> Option<()> {
        loop {
            match self.read().await {
                Read::Msg(ServerMsg::Lobby { lobby }) if pred(&lobby) => return Some(()),
                Read::Msg(_) => {}
                Read::Closed => return None,
            }
        }
    }
}

/// One game and its three clients (Ann and Bob play, Eve watches).
pub struct GameRun {
    pub code: String,
    /// Ann, Bob, Eve.
    pub clients: Vec<Client>,
}

/// What a game's task reports.
#[derive(Debug)]
pub struct Outcome {
    pub code: String,
    pub clients: Vec<ClientLog>,
    /// (seat, command) of every acknowledged command, in order.
    pub acked: Vec<(u8, Command)>,
    /// Commands sent whose socket closed before their ack: each may or
    /// may not have been stored.
    pub in_doubt: usize,
    /// Commands acknowledged since a client of the game last came back.
    pub acked_since_rejoin: usize,
    /// Everything that went wrong (rejections, error messages, clients
    /// out of step).
    pub errors: Vec<String>,
    pub finished: bool,
}

impl GameRun {
    /// Create the game through `lobby`, seat Ann, Bob and Eve on the nodes
    /// at `at`, take corporations, ready up and start.
    pub async fn start(lobby: SocketAddr, at: [SocketAddr; 3], n: usize) -> GameRun {
        GameRun::try_start(lobby, at, n)
            .await
            .expect("the game was set up and started")
    }

    /// [`GameRun::start`], or `None` if a node on the way was stopping
    /// (the caller tries again; nothing was played).
    pub async fn try_start(lobby: SocketAddr, at: [SocketAddr; 3], n: usize) -> Option<GameRun> {
        let code = try_create_game(lobby).await?;
        let mut clients = Vec::new();
        for (i, (name, spectator)) in [("Ann", false), ("Bob", false), ("Eve", true)]
            .into_iter()
            .enumerate()
        {
            let name = format!("{name}{n}");
            let join = if spectator {
                Join::Spectator { name: name.clone() }
            } else {
                Join::Player { name: name.clone() }
            };
            let mut c = Client {
                log: ClientLog {
                    label: name,
                    closes: Vec::new(),
                    reconnects: 0,
                    refused_joins: 0,
                    gaps: Vec::new(),
                    covered: 0,
                },
                ws: None,
                join,
                seat: None,
                legal: Vec::new(),
                finished: false,
                turn: i,
                errors: Vec::new(),
            };
            if !c.connect(at[i], &code, None).await {
                return None;
            }
            clients.push(c);
        }
        for (c, corp) in clients
            .iter_mut()
            .zip([Corporation::Bauhaus, Corporation::Capitol])
        {
            let seat = usize::from(c.seat?);
            c.send(&ClientMsg::Choose {
                choice: citadel_protocol::Json::of(&citadel_rules::seam::SeatChoice {
                    corporation: Some(corp),
                    doomtroopers: None,
                }),
            })
            .await;
            c.wait_lobby(|l| {
                l.seats[seat]
                    .choice
                    .as_ref()
                    .and_then(|c| c.parse::<citadel_rules::seam::SeatChoice>().ok())
                    .and_then(|c| c.corporation)
                    == Some(corp)
            })
            .await?;
            c.send(&ClientMsg::Ready { ready: true }).await;
            c.wait_lobby(|l| l.seats[seat].ready).await?;
        }
        clients[0]
            .wait_lobby(|l| l.seats.iter().all(|s| s.ready))
            .await?;
        clients[0].send(&ClientMsg::Start).await;
        for c in &mut clients {
            loop {
                match c.read().await {
                    Read::Msg(ServerMsg::Snapshot { .. }) => break,
                    Read::Msg(_) => {}
                    Read::Closed => return None,
                }
            }
        }
        Some(GameRun { code, clients })
    }

    /// Play one command every `pace` until told to stop (or the game
    /// ends), bringing back every client whose socket closes.
    pub async fn play(
        mut self,
        live: Live,
        stop: watch::Receiver<bool>,
        pace: Duration,
    ) -> Outcome {
        let mut acked = Vec::new();
        let mut in_doubt = 0;
        let mut acked_since_rejoin = 0;
        let mut errors = Vec::new();
        let mut next_ref = 1u64;
        let mut ended_away = false;
        loop {
            let stopping = *stop.borrow();
            // Everyone back and caught up (a ping answered after the
            // catch-up); a socket that closes meanwhile comes back too.
            let mut all_in = false;
            while !all_in {
                all_in = true;
                for c in &mut self.clients {
                    if c.finished {
                        continue;
                    }
                    if c.ws.is_none() {
                        acked_since_rejoin = 0;
                        if !c.rejoin(&live, &self.code).await {
                            // Ended meanwhile: nobody can come back, and
                            // those away never see the last events.
                            ended_away = true;
                            continue;
                        }
                    }
                    if !c.drain().await {
                        all_in = false;
                    }
                }
            }
            if ended_away {
                break;
            }
            let seqs: Vec<u64> = self.clients.iter().map(|c| c.log.covered).collect();
            if seqs.iter().any(|s| *s != seqs[0]) {
                errors.push(format!("clients out of step: {seqs:?}"));
                break;
            }
            if stopping || self.clients.iter().any(|c| c.finished) {
                break;
            }
            let acting: Vec<usize> = (0..2)
                .filter(|&i| !self.clients[i].legal.is_empty())
                .collect();
            let [actor] = acting[..] else {
                errors.push(format!("not exactly one player may act: {acting:?}"));
                break;
            };
            let command = prefer_action(&self.clients[actor].legal);
            let r = next_ref;
            next_ref += 1;
            let c = &mut self.clients[actor];
            match c.command(r, &command).await {
                Answer::Acked => {
                    acked.push((c.seat.expect("a player's seat"), command));
                    acked_since_rejoin += 1;
                }
                Answer::Rejected(message) => {
                    errors.push(format!("{}: {command:?} rejected: {message}", c.log.label));
                    break;
                }
                Answer::Cut => in_doubt += 1,
            }
            tokio::time::sleep(pace).await;
        }
        for c in &self.clients {
            errors.extend(
                c.errors
                    .iter()
                    .map(|e| format!("{}: error: {e}", c.log.label)),
            );
        }
        Outcome {
            code: self.code,
            finished: self.clients.iter().any(|c| c.finished),
            clients: self.clients.into_iter().map(|c| c.log).collect(),
            acked,
            in_doubt,
            acked_since_rejoin,
            errors,
        }
    }
}

/// Whether `game` has finished: its replay is served (only a finished
/// game has one).
async fn finished(addr: SocketAddr, game: &str) -> bool {
    let replay = reqwest::Client::new()
        .get(format!("http://{addr}/api/games/{game}/replay?count=1"))
        .timeout(STEP)
        .send()
        .await;
    replay.is_ok_and(|r| r.status() == reqwest::StatusCode::OK)
}

/// `POST /api/games` for two players against the AI Dark Legion; `None`
/// if the node does not take it (it is stopping).
async fn try_create_game(lobby: SocketAddr) -> Option<String> {
    let options = common::c1m1_options(2, DarkLegionChoice::Ai);
    let resp = reqwest::Client::new()
        .post(format!("http://{lobby}/api/games"))
        .timeout(STEP)
        .json(&options)
        .send()
        .await
        .ok()?;
    if resp.status() != reqwest::StatusCode::CREATED {
        return None;
    }
    let body: serde_json::Value = resp.json().await.ok()?;
    body["code"].as_str().map(str::to_string)
}

/// An action other than ending the turn when there is one (the last, so
/// games last), else the first legal command.
pub fn prefer_action(legal: &[Command]) -> Command {
    legal
        .iter()
        .rev()
        .find(|c| **c != Command::EndTurn)
        .unwrap_or(&legal[0])
        .clone()
}

/// The human commands in the store, in order (seats 0 and 1; the AI
/// Dark Legion's seat comes after them).
pub async fn stored_human_commands(url: &str, code: &str) -> Vec<(u8, Command)> {
    let store = citadel_store::open(url).await.expect("open the store");
    let records = store.commands(code).await.expect("the game's commands");
    let indexes: Vec<i64> = records.iter().map(|r| r.index).collect();
    let want: Vec<i64> = (0..records.len() as i64).collect();
    assert_eq!(indexes, want, "stored command indexes");
    records
        .iter()
        .filter(|r| r.seat < 2)
        .map(|r| {
            (
                r.seat,
                serde_json::from_str(&r.command).expect("a stored command"),
            )
        })
        .collect()
}
