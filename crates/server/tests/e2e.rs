//! End-to-end tests: a real server on 127.0.0.1:0, real WebSocket clients
//! (tokio-tungstenite) and real HTTP (reqwest). Every wait has a timeout,
//! so a broken server fails a test instead of hanging it.

use citadel_protocol::{
    close, ClientMsg, DarkLegionChoice, ErrorCode, GameOptions, Join, LobbyView, SeqEvent,
    ServerMsg, PROTOCOL_VERSION,
};
use citadel_rules::content::Corporation;
use citadel_rules::game::view::PhaseView;
use citadel_rules::game::{Command, Event, GameView, Rejection, Seat};
use citadel_server::config::Config;
use citadel_server::Server;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::future::Future;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The longest wait for any one message.
const STEP: Duration = Duration::from_secs(10);
/// The longest a whole test may take.
const TEST_LIMIT: Duration = Duration::from_secs(60);
/// More commands than any C1M1 game needs with the test policy.
const MAX_COMMANDS: usize = 20_000;

/// Run a test body with an overall deadline.
async fn within<T>(limit: Duration, f: impl Future<Output = T>) -> T {
    match tokio::time::timeout(limit, f).await {
        Ok(v) => v,
        Err(_) => panic!("test did not finish within {limit:?}"),
    }
}

// ---------------------------------------------------------------- server

async fn server_with(config: Config) -> Server {
    Server::start(config).await.expect("server starts")
}

async fn server() -> Server {
    server_with(Config::for_tests()).await
}

fn options(seats: u8, dark_legion: DarkLegionChoice) -> GameOptions {
    GameOptions {
        mission: "ce-c1m1".into(),
        seats,
        dark_legion,
        starting_rank: 1,
        turn_seconds: None,
    }
}

/// `POST /api/games`: the new game's code.
async fn create_game(addr: SocketAddr, options: &GameOptions) -> String {
    let resp = reqwest::Client::new()
        .post(format!("http://{addr}/api/games"))
        .json(options)
        .send()
        .await
        .expect("POST /api/games");
    assert_eq!(resp.status(), reqwest::StatusCode::CREATED);
    let body: Value = resp.json().await.expect("json body");
    body["code"].as_str().expect("a code").to_string()
}

// ---------------------------------------------------------------- client

/// How a connection ended.
#[derive(Debug, Clone, PartialEq)]
struct Closed {
    /// The close frame's code, if the server sent one.
    code: Option<u16>,
    reason: String,
}

/// A typed test client that tracks what it was told.
#[derive(Debug)]
struct Client {
    label: String,
    ws: Ws,
    seat: Option<u8>,
    token: Option<String>,
    lobby: Option<LobbyView>,
    view: Option<Box<GameView>>,
    legal: Vec<Command>,
    /// Every event seq up to here is known (a snapshot covers 1..=seq).
    covered: u64,
    /// Snapshots received, with their seq.
    snapshots: Vec<u64>,
    /// Every event received, in order.
    events: Vec<SeqEvent>,
    /// Where the seqs were not contiguous: (covered before, seq received).
    gaps: Vec<(u64, u64)>,
    /// Every message received, counted.
    received: usize,
    /// Secrets seen that belong to this client (its own hand, its cards).
    own_secrets_seen: usize,
    commands_sent: usize,
}

impl Client {
    /// Open a socket without saying anything.
    async fn connect(addr: SocketAddr, label: &str) -> Client {
        let url = format!("ws://{addr}/ws");
        let (ws, _) = tokio::time::timeout(STEP, tokio_tungstenite::connect_async(url))
            .await
            .expect("connect in time")
            .expect("websocket handshake");
        Client::from_ws(ws, label)
    }

    fn from_ws(ws: Ws, label: &str) -> Client {
        Client {
            label: label.to_string(),
            ws,
            seat: None,
            token: None,
            lobby: None,
            view: None,
            legal: Vec::new(),
            covered: 0,
            snapshots: Vec::new(),
            events: Vec::new(),
            gaps: Vec::new(),
            received: 0,
            own_secrets_seen: 0,
            commands_sent: 0,
        }
    }

    /// Connect and say hello; wait for `welcome`.
    async fn join(addr: SocketAddr, game: &str, join: Join, last_seq: Option<u64>) -> Client {
        let label = match &join {
            Join::Player { name } | Join::Spectator { name } => name.clone(),
            Join::Resume { .. } => "resumed".into(),
        };
        let mut c = Client::connect(addr, &label).await;
        c.hello(game, join, last_seq).await;
        c.wait_for("welcome", |m| matches!(m, ServerMsg::Welcome { .. }))
            .await;
        c
    }

    async fn player(addr: SocketAddr, game: &str, name: &str) -> Client {
        let c = Client::join(addr, game, Join::Player { name: name.into() }, None).await;
        assert!(c.seat.is_some(), "{name} got no seat");
        c
    }

    async fn spectator(addr: SocketAddr, game: &str, name: &str) -> Client {
        Client::join(addr, game, Join::Spectator { name: name.into() }, None).await
    }

    async fn hello(&mut self, game: &str, join: Join, last_seq: Option<u64>) {
        self.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            game: game.into(),
            join,
            last_seq,
        })
        .await;
    }

    async fn send(&mut self, msg: &ClientMsg) {
        let text = serde_json::to_string(msg).expect("serialize");
        self.send_text(text).await;
    }

    async fn send_text(&mut self, text: String) {
        tokio::time::timeout(STEP, self.ws.send(Message::text(text)))
            .await
            .unwrap_or_else(|_| panic!("{}: send timed out", self.label))
            .unwrap_or_else(|e| panic!("{}: send failed: {e}", self.label));
    }

    async fn command(&mut self, client_ref: u64, command: Command) {
        self.commands_sent += 1;
        self.send(&ClientMsg::Command {
            client_ref: Some(client_ref),
            command,
        })
        .await;
    }

    /// The next server message, or how the connection ended.
    async fn recv_any(&mut self) -> Result<ServerMsg, Closed> {
        loop {
            let next = tokio::time::timeout(STEP, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no message within {STEP:?}", self.label));
            let msg = match next {
                None => {
                    return Err(Closed {
                        code: None,
                        reason: "stream ended".into(),
                    })
                }
                Some(Err(e)) => {
                    return Err(Closed {
                        code: None,
                        reason: format!("transport error: {e}"),
                    })
                }
                Some(Ok(m)) => m,
            };
            match msg {
                Message::Text(t) => {
                    let raw: Value = serde_json::from_str(t.as_str())
                        .unwrap_or_else(|e| panic!("{}: server sent bad JSON: {e}", self.label));
                    self.check_secrets(&raw);
                    let typed: ServerMsg = serde_json::from_value(raw).unwrap_or_else(|e| {
                        panic!("{}: not a ServerMsg: {e}: {}", self.label, t.as_str())
                    });
                    self.absorb(&typed);
                    return Ok(typed);
                }
                Message::Close(frame) => {
                    return Err(Closed {
                        code: frame.as_ref().map(|f| u16::from(f.code)),
                        reason: frame.map(|f| f.reason.to_string()).unwrap_or_default(),
                    })
                }
                Message::Binary(_) => panic!("{}: the server sent a binary frame", self.label),
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => continue,
            }
        }
    }

    /// The next server message; panics if the connection closed.
    async fn recv(&mut self) -> ServerMsg {
        match self.recv_any().await {
            Ok(m) => m,
            Err(c) => panic!("{}: connection closed: {c:?}", self.label),
        }
    }

    /// Read until a message matches.
    async fn wait_for(&mut self, what: &str, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        for _ in 0..100_000 {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
        panic!("{}: never got {what}", self.label)
    }

    /// Read until the lobby matches.
    async fn wait_lobby(&mut self, what: &str, pred: impl Fn(&LobbyView) -> bool) -> LobbyView {
        match self
            .wait_for(what, |m| matches!(m, ServerMsg::Lobby { lobby } if pred(lobby)))
            .await
        {
            ServerMsg::Lobby { lobby } => lobby,
            _ => unreachable!(),
        }
    }

    /// Read until every event up to `seq` is known.
    async fn sync_to(&mut self, seq: u64) {
        while self.covered < seq {
            self.recv().await;
        }
    }

    /// Read until the connection closes; every message before it is
    /// tracked as usual.
    async fn expect_close(&mut self) -> Closed {
        for _ in 0..1_000_000 {
            if let Err(c) = self.recv_any().await {
                return c;
            }
        }
        panic!("{}: the server never closed the socket", self.label)
    }

    /// Send one command and wait for its ack and its events; panics on a
    /// rejection. Returns the first seq it caused.
    async fn play(&mut self, client_ref: u64, command: Command) -> u64 {
        self.command(client_ref, command.clone()).await;
        let answer = self
            .wait_for("ack or rejection", |m| {
                matches!(m, ServerMsg::Ack { client_ref: r, .. } | ServerMsg::Rejected { client_ref: r, .. } if *r == Some(client_ref))
                    || matches!(m, ServerMsg::Error { .. })
            })
            .await;
        match answer {
            ServerMsg::Ack { seq, .. } => {
                self.sync_to(seq).await;
                seq
            }
            other => panic!("{}: {command:?} from its legal list: {other:?}", self.label),
        }
    }

    fn finished(&self) -> bool {
        self.mission_ended().is_some()
    }

    fn mission_ended(&self) -> Option<&Event> {
        self.events
            .iter()
            .map(|e| &e.event)
            .find(|e| matches!(e, Event::MissionEnded { .. }))
    }

    fn view(&self) -> &GameView {
        self.view.as_deref().expect("a view")
    }

    /// Track welcome, lobby, snapshots and events.
    fn absorb(&mut self, msg: &ServerMsg) {
        self.received += 1;
        match msg {
            ServerMsg::Welcome { seat, token, .. } => {
                self.seat = *seat;
                self.token.clone_from(token);
            }
            ServerMsg::Lobby { lobby } => self.lobby = Some(lobby.clone()),
            ServerMsg::Snapshot {
                seq, view, legal, ..
            } => {
                self.snapshots.push(*seq);
                self.covered = *seq;
                self.view = Some(view.clone());
                self.legal.clone_from(legal);
            }
            ServerMsg::Events {
                events,
                view,
                legal,
            } => {
                for e in events {
                    if e.seq != self.covered + 1 {
                        self.gaps.push((self.covered, e.seq));
                    }
                    self.covered = e.seq;
                    self.events.push(e.clone());
                }
                self.view = Some(view.clone());
                self.legal.clone_from(legal);
            }
            _ => {}
        }
    }

    /// HID-1/HID-2 on the wire: a hand only for its owner, dealt cards only
    /// for their owner, face-down force cards only as counts.
    fn check_secrets(&mut self, raw: &Value) {
        let me = self.seat.map(u64::from);
        let label = &self.label;
        if let Some(view) = raw.get("view") {
            for team in view["teams"].as_array().expect("teams") {
                let seat = team["seat"].as_u64().expect("team seat");
                if Some(seat) == me {
                    if !team["hand"].is_null() {
                        self.own_secrets_seen += 1;
                    }
                } else {
                    assert!(
                        team["hand"].is_null(),
                        "{label} (seat {me:?}) saw seat {seat}'s hand: {team}"
                    );
                }
                assert!(team["hand_size"].is_u64(), "{label}: hand size is a count");
            }
            for tile in view["tiles"].as_array().expect("tiles") {
                assert!(
                    tile["face_down"].is_u64(),
                    "{label}: face-down cards are not a count: {tile}"
                );
            }
            assert!(view["force_pile"].is_u64(), "{label}: force pile");
            assert!(view["event_deck"].is_u64(), "{label}: event deck");
            assert!(view["markers_left"].is_u64(), "{label}: markers");
        }
        for e in raw["events"].as_array().into_iter().flatten() {
            let e = &e["event"];
            match e["type"].as_str() {
                Some("cards_dealt") => {
                    let seat = e["seat"].as_u64();
                    if seat == me {
                        assert!(!e["cards"].is_null(), "{label}: own dealt cards missing");
                        self.own_secrets_seen += 1;
                    } else {
                        assert!(e["cards"].is_null(), "{label} saw dealt cards: {e}");
                    }
                }
                Some("force_cards_dealt") => {
                    let mut keys: Vec<&str> = e
                        .as_object()
                        .expect("event object")
                        .keys()
                        .map(String::as_str)
                        .collect();
                    keys.sort_unstable();
                    assert_eq!(keys, ["count", "tile", "type"], "{label}: {e}");
                }
                _ => {}
            }
        }
    }
}

// ---------------------------------------------------------------- playing

/// The test's player: from its own legal list, seeded. On its turn it
/// takes up to four random actions, then ends the turn; every other
/// decision is a random legal answer. Games end: every turn ends.
#[derive(Debug)]
struct Policy {
    rng: StdRng,
    actions: u32,
}

impl Policy {
    fn new(seed: u64) -> Self {
        Policy {
            rng: StdRng::seed_from_u64(seed),
            actions: 0,
        }
    }

    fn choose(&mut self, legal: &[Command]) -> Command {
        assert!(!legal.is_empty(), "nothing to choose from");
        if legal.contains(&Command::EndTurn) {
            let others: Vec<&Command> = legal.iter().filter(|c| **c != Command::EndTurn).collect();
            if self.actions < 4 && !others.is_empty() && self.rng.gen_bool(0.6) {
                self.actions += 1;
                return others[self.rng.gen_range(0..others.len())].clone();
            }
            self.actions = 0;
            return Command::EndTurn;
        }
        legal[self.rng.gen_range(0..legal.len())].clone()
    }
}

/// One player's task in the whole-game test: read everything, act when
/// its own legal list says so, until the mission ends.
async fn autoplay(mut c: Client, seed: u64) -> Client {
    let mut policy = Policy::new(seed);
    let mut next_ref = 1;
    while !c.finished() {
        if c.legal.is_empty() {
            c.recv().await;
            continue;
        }
        assert!(
            c.commands_sent < MAX_COMMANDS,
            "{}: the game does not end",
            c.label
        );
        let command = policy.choose(&c.legal);
        c.play(next_ref, command).await;
        next_ref += 1;
    }
    c
}

/// A spectator's task: read until the mission ends.
async fn watch(mut c: Client) -> Client {
    while !c.finished() {
        c.recv().await;
    }
    c
}

/// A started game: players (seat order) and a spectator, all synced to
/// the snapshot.
struct Table {
    code: String,
    players: Vec<Client>,
    spectator: Client,
}

/// Create a game with `names.len()` seats, join them all and a
/// spectator, take corporations, ready up and start.
async fn start_table(addr: SocketAddr, names: &[&str], dark_legion: DarkLegionChoice) -> Table {
    let seats = names.len() as u8;
    let code = create_game(addr, &options(seats, dark_legion)).await;
    let mut players = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let p = Client::player(addr, &code, name).await;
        assert_eq!(p.seat, Some(i as u8));
        players.push(p);
    }
    let mut spectator = Client::spectator(addr, &code, "Eve").await;
    let corps = [Corporation::Bauhaus, Corporation::Capitol, Corporation::Mishima];
    for (p, corp) in players.iter_mut().zip(corps) {
        let seat = p.seat.expect("seat");
        if DarkLegionChoice::Seat(seat) == dark_legion {
            continue;
        }
        p.send(&ClientMsg::TakeSeat { corporation: corp }).await;
        p.wait_lobby("my corporation", |l| {
            l.seats[usize::from(seat)].corporation == Some(corp)
        })
        .await;
    }
    for p in &mut players {
        let seat = usize::from(p.seat.expect("seat"));
        p.send(&ClientMsg::Ready { ready: true }).await;
        p.wait_lobby("ready", |l| l.seats[seat].ready).await;
    }
    players[0]
        .wait_lobby("everyone ready", |l| l.seats.iter().all(|s| s.ready))
        .await;
    players[0].send(&ClientMsg::Start).await;
    for c in players.iter_mut().chain(std::iter::once(&mut spectator)) {
        c.wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
        assert!(c.lobby.as_ref().is_some_and(|l| l.started));
    }
    Table {
        code,
        players,
        spectator,
    }
}

impl Table {
    /// Bring every client up to the latest seq any of them knows.
    async fn sync(&mut self) {
        let seq = self
            .players
            .iter()
            .map(|p| p.covered)
            .chain([self.spectator.covered])
            .max()
            .unwrap_or(0);
        for c in self.players.iter_mut() {
            c.sync_to(seq).await;
        }
        self.spectator.sync_to(seq).await;
    }

    /// The player whose legal list is not empty (after a sync).
    fn actor(&self) -> Option<usize> {
        let acting: Vec<usize> = (0..self.players.len())
            .filter(|i| !self.players[*i].legal.is_empty())
            .collect();
        assert!(acting.len() <= 1, "two seats may act at once: {acting:?}");
        acting.first().copied()
    }

    /// One command by whoever must act, then everyone synced.
    async fn step(&mut self, policy: &mut Policy, client_ref: u64) -> usize {
        self.sync().await;
        let i = self.actor().expect("someone can act");
        let command = policy.choose(&self.players[i].legal);
        self.players[i].play(client_ref, command).await;
        self.sync().await;
        i
    }
}

fn close_code(c: &Closed) -> Option<u16> {
    c.code
}

// ---------------------------------------------------------------- 1 + 5

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_c1m1_game_between_real_clients_ends_consistently_for_everyone() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let table = start_table(addr, &["Ann", "Bob", "Dee"], DarkLegionChoice::Seat(2)).await;
        let Table {
            players, spectator, ..
        } = table;
        let watcher = tokio::spawn(watch(spectator));
        let tasks: Vec<_> = players
            .into_iter()
            .enumerate()
            .map(|(i, p)| tokio::spawn(autoplay(p, 1000 + i as u64)))
            .collect();
        let mut clients = Vec::new();
        for t in tasks {
            clients.push(t.await.expect("player task"));
        }
        let spectator = watcher.await.expect("spectator task");

        // Contiguous seqs for everyone: one snapshot at the start, then
        // every event exactly once, up to the same last seq.
        let last = spectator.covered;
        let ended = spectator.mission_ended().expect("mission ended").clone();
        for c in clients.iter().chain([&spectator]) {
            assert_eq!(c.gaps, [], "{}: gaps in seqs", c.label);
            assert_eq!(c.snapshots.len(), 1, "{}: snapshots", c.label);
            let s0 = c.snapshots[0];
            assert!(s0 >= 1, "{}: the start snapshot covers setup", c.label);
            let seqs: Vec<u64> = c.events.iter().map(|e| e.seq).collect();
            let want: Vec<u64> = (s0 + 1..=last).collect();
            assert_eq!(seqs, want, "{}: seqs", c.label);
            assert_eq!(c.mission_ended(), Some(&ended), "{}: the end", c.label);
        }

        // SCR-2 in the spectator's final view.
        let view = spectator.view();
        let Event::MissionEnded {
            result,
            winners,
            dl_wins,
        } = ended
        else {
            unreachable!()
        };
        assert_eq!(
            view.phase,
            PhaseView::Finished {
                result: Some(result)
            }
        );
        let best = view.teams.iter().map(|t| t.pp).max().expect("teams");
        assert_eq!(dl_wins, view.dark_legion.pp >= best, "DL wins ties");
        let mut want: Vec<Seat> = if dl_wins {
            vec![view.dark_legion.seat.expect("a human DL")]
        } else {
            view.teams
                .iter()
                .filter(|t| t.pp == best)
                .map(|t| t.seat)
                .collect()
        };
        let mut got = winners.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want, "winners vs final PP {view:?}");

        // Everyone played, the corporations saw their own secrets (so the
        // secrecy checks in `check_secrets` had something to miss).
        for c in &clients {
            assert!(c.commands_sent > 0, "{} never acted", c.label);
        }
        assert!(clients[0].own_secrets_seen > 0 && clients[1].own_secrets_seen > 0);
        assert_eq!(spectator.own_secrets_seen, 0);
        eprintln!(
            "whole game: {last} events, commands {:?}",
            clients.iter().map(|c| c.commands_sent).collect::<Vec<_>>()
        );
        server.shutdown().await;
    })
    .await;
}
