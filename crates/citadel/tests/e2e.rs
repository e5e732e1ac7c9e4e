//! End-to-end tests: a real server on 127.0.0.1:0, real WebSocket clients
//! (tokio-tungstenite) and real HTTP (reqwest). Every wait has a timeout,
//! so a broken server fails a test instead of hanging it.

mod common;
use common::DarkLegionChoice;
use common::{c1m1_options, create_game, within, Ws, STEP};

use citadel_protocol::{
    close, ClientMsg, ErrorCode, Join, LobbyView, SeqEvent, ServerMsg, PROTOCOL_VERSION,
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
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::MaybeTlsStream;

/// The longest a whole test may take.
const TEST_LIMIT: Duration = Duration::from_secs(60);
/// More commands than any C1M1 game needs with the test policy.
const MAX_COMMANDS: usize = 20_000;

// ---------------------------------------------------------------- server

async fn server_with(config: Config) -> Server {
    Server::start(config).await.expect("server starts")
}

async fn server() -> Server {
    server_with(citadel::config_for_tests()).await
}

/// A server for clients that play as fast as acks come back: a seat (the
/// Dark Legion placing its creatures, say) can then pass the default 20
/// messages a second, the faster the server the sooner. The rate limit is
/// the flood tests' subject, not these games'.
async fn server_for_fast_play() -> Server {
    let mut config = citadel::config_for_tests();
    config.rate_per_sec = 10_000;
    config.rate_burst = 10_000;
    server_with(config).await
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
    /// Bytes of text received.
    bytes: usize,
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
            bytes: 0,
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
            account: None,
        })
        .await;
    }

    async fn send(&mut self, msg: &ClientMsg) {
        let text = serde_json::to_string(msg).expect("serialize");
        self.send_text(text).await;
    }

    async fn send_text(&mut self, text: String) {
        common::send_text(&mut self.ws, &self.label, text).await;
    }

    async fn command(&mut self, client_ref: u64, command: Command) {
        self.commands_sent += 1;
        self.send(&ClientMsg::Command {
            client_ref: Some(client_ref),
            command: citadel_protocol::Json::of(&command),
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
                    self.bytes += t.len();
                    let raw: Value = serde_json::from_str(t.as_str())
                        .unwrap_or_else(|e| panic!("{}: server sent bad JSON: {e}", self.label));
                    let typed: ServerMsg =
                        serde_json::from_value(raw.clone()).unwrap_or_else(|e| {
                            panic!("{}: not a ServerMsg: {e}: {}", self.label, t.as_str())
                        });
                    self.absorb(&typed);
                    // Secrets are checked in the view the client holds
                    // now: whole, or rebuilt from a patch.
                    let mut raw = raw;
                    if let (ServerMsg::Events { .. }, Some(view)) = (&typed, &self.view) {
                        raw["view"] = serde_json::to_value(view).expect("a view is JSON");
                    }
                    self.check_secrets(&raw);
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
            .wait_for(
                what,
                |m| matches!(m, ServerMsg::Lobby { lobby } if pred(lobby)),
            )
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
    /// rejection. Returns the ack's seq: the last event it caused.
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

    fn mission_ended(&self) -> Option<Event> {
        self.events
            .iter()
            .filter_map(|e| e.event.parse::<Event>().ok())
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
                self.view = Some(Box::new(view.parse().expect("a view")));
                self.legal = legal.parse().expect("legal commands");
            }
            ServerMsg::Events {
                events,
                view,
                view_patch,
                legal,
                ..
            } => {
                for e in events {
                    if e.seq != self.covered + 1 {
                        self.gaps.push((self.covered, e.seq));
                    }
                    self.covered = e.seq;
                    self.events.push(e.clone());
                }
                let next = citadel_protocol::view_patch::next_view(
                    self.view.as_deref(),
                    view.as_ref()
                        .map(|v| v.parse::<GameView>().expect("a view"))
                        .as_ref(),
                    view_patch.as_ref(),
                )
                .expect("the view patch fits the view held");
                self.view = Some(Box::new(next));
                self.legal = legal.parse().expect("legal commands");
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
    let code = create_game(addr, &c1m1_options(seats, dark_legion)).await;
    start_table_in(addr, code, names, dark_legion).await
}

/// [`start_table`] in a game already created.
async fn start_table_in(
    addr: SocketAddr,
    code: String,
    names: &[&str],
    dark_legion: DarkLegionChoice,
) -> Table {
    let mut players = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let p = Client::player(addr, &code, name).await;
        assert_eq!(p.seat, Some(i as u8));
        players.push(p);
    }
    let mut spectator = Client::spectator(addr, &code, "Eve").await;
    let corps = [
        Corporation::Bauhaus,
        Corporation::Capitol,
        Corporation::Mishima,
    ];
    for (p, corp) in players.iter_mut().zip(corps) {
        let seat = p.seat.expect("seat");
        if DarkLegionChoice::Seat(seat) == dark_legion {
            continue;
        }
        p.send(&ClientMsg::Choose {
            choice: citadel_protocol::Json::of(&citadel_rules::seam::SeatChoice {
                corporation: Some(corp),
                doomtroopers: None,
            }),
        })
        .await;
        p.wait_lobby("my corporation", |l| {
            l.seats[usize::from(seat)]
                .choice
                .as_ref()
                .and_then(|c| c.parse::<citadel_rules::seam::SeatChoice>().ok())
                .and_then(|c| c.corporation)
                == Some(corp)
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

/// A 1-seat game against the AI Dark Legion, started, whose player can
/// act: the "other game" that bad inputs elsewhere must not disturb.
async fn solo_game(addr: SocketAddr) -> Client {
    let code = create_game(addr, &c1m1_options(1, DarkLegionChoice::Ai)).await;
    let mut p = Client::player(addr, &code, "Solo").await;
    p.send(&ClientMsg::Ready { ready: true }).await;
    p.wait_lobby("ready", |l| l.seats[0].ready).await;
    p.send(&ClientMsg::Start).await;
    p.wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
        .await;
    assert!(!p.legal.is_empty(), "the solo player acts first");
    p
}

/// The other game still accepts commands (and answers pings).
async fn assert_unaffected(other: &mut Client) {
    other.send(&ClientMsg::Ping).await;
    other
        .wait_for("pong", |m| matches!(m, ServerMsg::Pong))
        .await;
    assert!(!other.finished(), "the other game ended early");
    let before = other.covered;
    let command = Policy::new(other.covered).choose(&other.legal);
    let r = other.commands_sent as u64 + 1;
    let seq = other.play(r, command).await;
    assert_eq!(seq, before + 1, "the other game's ack");
}

// ---------------------------------------------------------------- 1 + 5

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_c1m1_game_between_real_clients_ends_consistently_for_everyone() {
    within(TEST_LIMIT, async {
        let server = server_for_fast_play().await;
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
            assert_eq!(
                c.mission_ended().as_ref(),
                Some(&ended),
                "{}: the end",
                c.label
            );
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
            "whole game: {last} events, commands {:?}, spectator got {} messages, {} bytes",
            clients.iter().map(|c| c.commands_sent).collect::<Vec<_>>(),
            spectator.received,
            spectator.bytes,
        );
        server.shutdown().await;
    })
    .await;
}

// ---------------------------------------------------------------- 2

/// A config whose grace period outlasts any test pause.
fn long_grace() -> Config {
    let mut c = citadel::config_for_tests();
    c.grace_secs = 60;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_drops_mid_turn_resumes_with_exactly_the_missed_events_and_continues() {
    within(TEST_LIMIT, async {
        let server = server_with(long_grace()).await;
        let addr = server.addr();
        let mut t = start_table(addr, &["Ann", "Bob", "Dee"], DarkLegionChoice::Seat(2)).await;
        let mut policy = Policy::new(7);
        let mut r = 1;
        let non_end = |legal: &[Command]| {
            legal
                .iter()
                .find(|c| !matches!(c, Command::EndTurn | Command::EndActivation))
                .cloned()
        };
        for _ in 0..MAX_COMMANDS {
            assert!(!t.spectator.finished(), "the game ended before a resume");
            t.sync().await;
            let i = t.actor().expect("someone acts");
            let in_turn = t.players[i].legal.contains(&Command::EndTurn);
            let Some(a) = non_end(&t.players[i].legal).filter(|_| in_turn) else {
                t.step(&mut policy, r).await;
                r += 1;
                continue;
            };
            // Command A is accepted: we are mid-turn.
            t.players[i].play(r, a).await;
            r += 1;
            t.sync().await;
            let still = t.players[i].legal.contains(&Command::EndTurn);
            let Some(b) = non_end(&t.players[i].legal).filter(|_| still) else {
                continue;
            };
            // Command B goes out, and the socket dies before any answer
            // is read.
            let seen = t.players[i].covered;
            let token = t.players[i].token.clone().expect("token");
            let seat = t.players[i].seat.expect("seat");
            t.players[i].command(r, b).await;
            r += 1;
            let old = std::mem::replace(
                &mut t.players[i],
                Client::connect(addr, "placeholder").await,
            );
            drop(old);
            t.spectator
                .wait_lobby("the seat disconnected", |l| {
                    !l.seats[usize::from(seat)].connected
                })
                .await;
            assert!(t.spectator.covered > seen, "B caused no events");
            let now = t.spectator.covered;
            // Resume: exactly seen+1..=now, no snapshot.
            let mut back = Client::connect(addr, "resumed").await;
            back.covered = seen;
            back.hello(&t.code, Join::Resume { token }, Some(seen))
                .await;
            let welcome = back.recv().await;
            assert!(
                matches!(welcome, ServerMsg::Welcome { seat: Some(s), .. } if s == seat),
                "{welcome:?}"
            );
            let missed = back
                .wait_for("the missed events", |m| {
                    matches!(m, ServerMsg::Events { .. })
                })
                .await;
            let ServerMsg::Events { events, .. } = missed else {
                unreachable!()
            };
            let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
            assert_eq!(seqs, (seen + 1..=now).collect::<Vec<_>>());
            assert_eq!(back.gaps, []);
            assert!(
                back.snapshots.is_empty(),
                "a resume with last_seq got a snapshot"
            );
            // The same events as the spectator saw (nothing is secret here
            // that the spectator may see and the player may not).
            let spect: Vec<u64> = t
                .spectator
                .events
                .iter()
                .map(|e| e.seq)
                .filter(|s| *s > seen)
                .collect();
            assert_eq!(seqs, spect);
            let lobby = back.lobby.clone().expect("lobby");
            assert!(lobby.seats[usize::from(seat)].connected);
            if back.legal.is_empty() {
                // B ended the turn after all: try again later.
                t.players[i] = back;
                continue;
            }
            // The turn goes on from the resumed socket.
            let c = policy.choose(&back.legal);
            let seq = back.play(r, c).await;
            assert!(
                seq > now,
                "the resumed command caused no new events: {seq} <= {now}"
            );
            t.players[i] = back;
            t.sync().await;
            server.shutdown().await;
            return;
        }
        panic!("never found a turn to interrupt");
    })
    .await;
}

// ---------------------------------------------------------------- 3

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_grace_period_a_bot_plays_for_the_leaver_and_a_resume_clears_the_flag() {
    within(TEST_LIMIT, async {
        let server = server().await; // grace 1 s
        let addr = server.addr();
        let mut t = start_table(addr, &["Ann", "Bob", "Dee"], DarkLegionChoice::Seat(2)).await;
        let mut policy = Policy::new(3);
        let mut r = 1;
        // Play until a corporation player must act.
        let i = loop {
            t.sync().await;
            let i = t.actor().expect("someone acts");
            if i < 2 {
                break i;
            }
            t.step(&mut policy, r).await;
            r += 1;
        };
        let seat = i as u8;
        let token = t.players[i].token.clone().expect("token");
        let seen = t.spectator.covered;
        let old = std::mem::replace(
            &mut t.players[i],
            Client::connect(addr, "placeholder").await,
        );
        drop(old);
        let left = Instant::now();
        let lobby = t
            .spectator
            .wait_lobby("the bot takes over", |l| {
                l.seats[usize::from(seat)].bot_playing
            })
            .await;
        let waited = left.elapsed();
        assert!(!lobby.seats[usize::from(seat)].connected);
        assert!(
            waited >= Duration::from_millis(950),
            "the bot came after {waited:?}, before the 1 s grace"
        );
        assert_eq!(
            t.spectator.covered, seen,
            "someone acted for the leaver before the grace"
        );
        // The game goes on without them: the bot plays the seat's turn.
        for _ in 0..MAX_COMMANDS {
            if t.spectator.view().to_act != Some(Seat(seat)) || t.spectator.finished() {
                break;
            }
            t.spectator.recv().await;
        }
        assert!(t.spectator.covered > seen, "the bot did not play");
        assert_ne!(t.spectator.view().to_act, Some(Seat(seat)));
        // The others keep playing around the bot for a while.
        for _ in 0..6 {
            if t.spectator.finished() {
                break;
            }
            let others: Vec<usize> = (0..3).filter(|k| *k != i).collect();
            let max = others
                .iter()
                .map(|k| t.players[*k].covered)
                .chain([t.spectator.covered])
                .max()
                .unwrap_or(0);
            for k in &others {
                t.players[*k].sync_to(max).await;
            }
            t.spectator.sync_to(max).await;
            match others.iter().find(|k| !t.players[**k].legal.is_empty()) {
                Some(k) => {
                    let c = policy.choose(&t.players[*k].legal);
                    t.players[*k].play(r, c).await;
                    r += 1;
                }
                // Only the bot's seat can act: it must, without us.
                None => {
                    let before = t.spectator.covered;
                    while t.spectator.covered == before {
                        t.spectator.recv().await;
                    }
                }
            }
        }
        // Resume: the flag clears for everyone.
        let mut back = Client::connect(addr, "resumed").await;
        back.covered = seen;
        back.hello(&t.code, Join::Resume { token }, Some(seen))
            .await;
        let lobby = back
            .wait_lobby("my seat back", |l| !l.seats[usize::from(seat)].bot_playing)
            .await;
        assert!(lobby.seats[usize::from(seat)].connected);
        t.spectator
            .wait_lobby("the flag cleared", |l| {
                let s = &l.seats[usize::from(seat)];
                s.connected && !s.bot_playing
            })
            .await;
        back.wait_for("the missed events", |m| {
            matches!(m, ServerMsg::Events { .. })
        })
        .await;
        assert_eq!(back.gaps, []);
        assert!(back.covered > seen);
        server.shutdown().await;
    })
    .await;
}

// ---------------------------------------------------------------- 4

/// A server with a started 3-seat game and a solo game beside it.
async fn bad_input_setup() -> (Server, Table, Client) {
    let server = server().await;
    let addr = server.addr();
    let t = start_table(addr, &["Ann", "Bob"], DarkLegionChoice::Seat(1)).await;
    let other = solo_game(addr).await;
    (server, t, other)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_is_answered_with_malformed_and_the_socket_stays_usable() {
    within(TEST_LIMIT, async {
        let (server, mut t, mut other) = bad_input_setup().await;
        let p = &mut t.players[0];
        p.send_text("{not json".into()).await;
        let m = p
            .wait_for("error", |m| matches!(m, ServerMsg::Error { .. }))
            .await;
        assert!(
            matches!(
                m,
                ServerMsg::Error {
                    code: ErrorCode::Malformed,
                    ..
                }
            ),
            "{m:?}"
        );
        p.send(&ClientMsg::Ping).await;
        p.wait_for("pong", |m| matches!(m, ServerMsg::Pong)).await;
        t.sync().await;
        let i = t.actor().expect("someone acts");
        let c = Policy::new(1).choose(&t.players[i].legal);
        t.players[i].play(1, c).await;
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_message_type_is_malformed() {
    within(TEST_LIMIT, async {
        let (server, mut t, mut other) = bad_input_setup().await;
        let p = &mut t.spectator;
        p.send_text(r#"{"type":"teleport","to":"the citadel"}"#.into())
            .await;
        let m = p
            .wait_for("error", |m| matches!(m, ServerMsg::Error { .. }))
            .await;
        assert!(
            matches!(
                m,
                ServerMsg::Error {
                    code: ErrorCode::Malformed,
                    ..
                }
            ),
            "{m:?}"
        );
        // A second hello is malformed too.
        p.hello(
            &t.code,
            Join::Spectator {
                name: "again".into(),
            },
            None,
        )
        .await;
        let m = p
            .wait_for("error", |m| matches!(m, ServerMsg::Error { .. }))
            .await;
        assert!(
            matches!(
                m,
                ServerMsg::Error {
                    code: ErrorCode::Malformed,
                    ..
                }
            ),
            "{m:?}"
        );
        p.send(&ClientMsg::Ping).await;
        p.wait_for("pong", |m| matches!(m, ServerMsg::Pong)).await;
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_out_of_turn_is_rejected_with_not_your_turn_and_changes_nothing() {
    within(TEST_LIMIT, async {
        let (server, mut t, mut other) = bad_input_setup().await;
        t.sync().await;
        let i = t.actor().expect("someone acts");
        let j = 1 - i;
        let before = t.spectator.covered;
        // The idle seat sends the acting seat's own legal commands.
        for (k, c) in t.players[i].legal.clone().into_iter().take(3).enumerate() {
            t.players[j].command(100 + k as u64, c).await;
            let m = t.players[j]
                .wait_for("rejection", |m| matches!(m, ServerMsg::Rejected { .. }))
                .await;
            let ServerMsg::Rejected {
                client_ref, reason, ..
            } = m
            else {
                unreachable!()
            };
            assert_eq!(client_ref, Some(100 + k as u64));
            assert_eq!(
                reason.parse::<Rejection>().ok(),
                Some(Rejection::NotYourTurn)
            );
        }
        // Nothing happened: the actor's next command is the next seq.
        let c = Policy::new(2).choose(&t.players[i].legal);
        let seq = t.players[i].play(1, c).await;
        assert_eq!(seq, before + 1);
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_command_is_refused_with_not_a_player() {
    within(TEST_LIMIT, async {
        let (server, mut t, mut other) = bad_input_setup().await;
        t.sync().await;
        let i = t.actor().expect("someone acts");
        let c = t.players[i].legal[0].clone();
        t.spectator.command(5, c).await;
        let m = t
            .spectator
            .wait_for("error", |m| matches!(m, ServerMsg::Error { .. }))
            .await;
        assert!(
            matches!(
                m,
                ServerMsg::Error {
                    code: ErrorCode::NotAPlayer,
                    ..
                }
            ),
            "{m:?}"
        );
        t.spectator.send(&ClientMsg::Ready { ready: true }).await;
        let m = t
            .spectator
            .wait_for("error", |m| matches!(m, ServerMsg::Error { .. }))
            .await;
        assert!(
            matches!(
                m,
                ServerMsg::Error {
                    code: ErrorCode::NotAPlayer,
                    ..
                }
            ),
            "{m:?}"
        );
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_over_max_frame_bytes_closes_with_frame_too_large() {
    within(TEST_LIMIT, async {
        let (server, mut t, mut other) = bad_input_setup().await;
        let max = citadel::config_for_tests().max_frame_bytes;
        let text = format!(r#"{{"type":"chat","text":"{}"}}"#, "x".repeat(max));
        t.spectator.send_text(text).await;
        let closed = t.spectator.expect_close().await;
        assert_eq!(closed.code, Some(close::FRAME_TOO_LARGE), "{closed:?}");
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_over_the_transport_cap_closes_with_frame_too_large() {
    within(TEST_LIMIT, async {
        let (server, mut t, mut other) = bad_input_setup().await;
        // The transport refuses frames over 4 x max_frame_bytes (64 KiB
        // at least) before our own check sees them.
        let text = format!(r#"{{"type":"chat","text":"{}"}}"#, "x".repeat(300 * 1024));
        t.spectator.send_text(text).await;
        let closed = t.spectator.expect_close().await;
        assert_eq!(closed.code, Some(close::FRAME_TOO_LARGE), "{closed:?}");
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_messages_closes_with_rate_limited() {
    within(TEST_LIMIT, async {
        let (server, mut t, mut other) = bad_input_setup().await;
        let burst = citadel::config_for_tests().rate_burst as usize;
        let ping = serde_json::to_string(&ClientMsg::Ping).expect("json");
        // A whole burst at once is allowed: every ping is answered.
        for _ in 0..burst {
            t.spectator.send_text(ping.clone()).await;
        }
        for k in 0..burst {
            t.spectator
                .wait_for(&format!("pong {k}"), |m| matches!(m, ServerMsg::Pong))
                .await;
        }
        // More than the bucket holds, at once, is not.
        let mut sent = 0;
        for _ in 0..burst * 3 {
            // The server may close mid-flood: later sends may fail.
            if t.spectator
                .ws
                .send(Message::text(ping.clone()))
                .await
                .is_err()
            {
                break;
            }
            sent += 1;
        }
        assert!(sent >= 1, "the flood never went out");
        let closed = t.spectator.expect_close().await;
        assert_eq!(closed.code, Some(close::RATE_LIMITED), "{closed:?}");
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

/// What this proves: WebSocket ping frames count against the message
/// rate like any other frame (each costs the server a pong): a flood of
/// them closes with RATE_LIMITED, and other games do not notice.
#[tokio::test]
async fn a_flood_of_ping_frames_closes_with_rate_limited() {
    within(TEST_LIMIT, async {
        let (server, mut t, mut other) = bad_input_setup().await;
        let burst = citadel::config_for_tests().rate_burst as usize;
        let sent = flood(&mut t.spectator.ws, burst * 5, || {
            Message::Ping(Vec::new().into())
        })
        .await;
        assert!(sent > burst, "the flood never went out");
        let closed = t.spectator.expect_close().await;
        assert_eq!(closed.code, Some(close::RATE_LIMITED), "{closed:?}");
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

/// Send up to `count` frames made by `frame`; how many went out (the
/// server may close mid-flood, and later sends fail).
async fn flood(ws: &mut Ws, count: usize, frame: impl Fn() -> Message) -> usize {
    let mut sent = 0;
    for _ in 0..count {
        if ws.send(frame()).await.is_err() {
            break;
        }
        sent += 1;
    }
    sent
}

/// A raw frame: `payload` with `opcode`, FIN set or not. The client
/// library sends it as it is (masked), so a test can fragment a message.
fn raw_frame(payload: &[u8], opcode: OpCode, fin: bool) -> Message {
    Message::Frame(Frame::message(payload.to_vec(), opcode, fin))
}

/// What this proves: continuation frames count against the rate like
/// any other frame. A message opened with `{"type":` and no FIN, then
/// kept open by empty continuation frames (the library under `ws.rs`
/// reads them without handing anything over), closes with
/// RATE_LIMITED once they exceed the burst; other games do not notice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_continuation_frames_closes_with_rate_limited() {
    within(TEST_LIMIT, async {
        let (server, mut t, mut other) = bad_input_setup().await;
        let burst = citadel::config_for_tests().rate_burst as usize;
        let ws = &mut t.spectator.ws;
        ws.send(raw_frame(br#"{"type":"#, OpCode::Data(Data::Text), false))
            .await
            .expect("the first fragment goes out");
        let sent = flood(ws, burst * 50, || {
            raw_frame(b"", OpCode::Data(Data::Continue), false)
        })
        .await;
        assert!(sent > burst, "the flood never went out");
        let closed = t.spectator.expect_close().await;
        assert_eq!(closed.code, Some(close::RATE_LIMITED), "{closed:?}");
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

/// What this proves: a message sent in fragments may stay open only for
/// `--fragment-timeout-secs`, however slowly (within the rate) its
/// continuation frames keep coming: then the socket closes with
/// RATE_LIMITED, saying why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_left_open_in_fragments_closes_with_rate_limited() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.fragment_timeout_secs = 1;
        let server = server_with(config).await;
        let addr = server.addr();
        let code = create_game(addr, &c1m1_options(2, DarkLegionChoice::Seat(1))).await;
        let mut c = Client::spectator(addr, &code, "Slow").await;
        c.ws.send(raw_frame(br#"{"type":"#, OpCode::Data(Data::Text), false))
            .await
            .expect("sent");
        // Three continuation frames, well within the rate, in less than
        // the timeout; the message is never finished.
        for _ in 0..3 {
            tokio::time::sleep(Duration::from_millis(250)).await;
            c.ws.send(raw_frame(b" ", OpCode::Data(Data::Continue), false))
                .await
                .expect("sent");
        }
        let closed = c.expect_close().await;
        assert_eq!(closed.code, Some(close::RATE_LIMITED), "{closed:?}");
        assert!(closed.reason.contains("fragments"), "{closed:?}");
        server.shutdown().await;
    })
    .await;
}

/// Open a socket, send one raw first message, expect a close code.
async fn first_message_closes(addr: SocketAddr, first: String, code: u16) {
    let mut c = Client::connect(addr, "stranger").await;
    c.send_text(first).await;
    let closed = c.expect_close().await;
    assert_eq!(closed.code, Some(code), "{closed:?}");
    assert_eq!(c.received, 0, "no message before the close");
}

fn hello_json(protocol: u32, game: &str, join: Join) -> String {
    serde_json::to_string(&ClientMsg::Hello {
        protocol,
        game: game.into(),
        join,
        last_seq: None,
        account: None,
    })
    .expect("json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_protocol_version_closes_with_protocol_mismatch() {
    within(TEST_LIMIT, async {
        let (server, t, mut other) = bad_input_setup().await;
        let join = Join::Spectator { name: "x".into() };
        first_message_closes(
            server.addr(),
            hello_json(PROTOCOL_VERSION + 1, &t.code, join),
            close::PROTOCOL_MISMATCH,
        )
        .await;
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_message_other_than_hello_closes_with_hello_required() {
    within(TEST_LIMIT, async {
        let (server, _t, mut other) = bad_input_setup().await;
        let addr = server.addr();
        let ping = serde_json::to_string(&ClientMsg::Ping).expect("json");
        first_message_closes(addr, ping, close::HELLO_REQUIRED).await;
        first_message_closes(addr, "{not json".into(), close::HELLO_REQUIRED).await;
        // A binary first frame too.
        let mut c = Client::connect(addr, "binary").await;
        c.ws.send(Message::binary(vec![1u8, 2, 3]))
            .await
            .expect("send");
        assert_eq!(c.expect_close().await.code, Some(close::HELLO_REQUIRED));
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_game_code_closes_with_unknown_game() {
    within(TEST_LIMIT, async {
        let (server, _t, mut other) = bad_input_setup().await;
        let join = Join::Spectator { name: "x".into() };
        first_message_closes(
            server.addr(),
            hello_json(PROTOCOL_VERSION, "ZZZZZZ", join),
            close::UNKNOWN_GAME,
        )
        .await;
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_resume_token_closes_with_bad_token() {
    within(TEST_LIMIT, async {
        let (server, t, mut other) = bad_input_setup().await;
        let join = Join::Resume {
            token: "0123456789abcdef".into(),
        };
        first_message_closes(
            server.addr(),
            hello_json(PROTOCOL_VERSION, &t.code, join),
            close::BAD_TOKEN,
        )
        .await;
        // The other game's token is not valid here either.
        let join = Join::Resume {
            token: other.token.clone().expect("token"),
        };
        first_message_closes(
            server.addr(),
            hello_json(PROTOCOL_VERSION, &t.code, join),
            close::BAD_TOKEN,
        )
        .await;
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_joining_a_started_game_closes_with_game_full() {
    within(TEST_LIMIT, async {
        let (server, t, mut other) = bad_input_setup().await;
        let join = Join::Player {
            name: "late".into(),
        };
        first_message_closes(
            server.addr(),
            hello_json(PROTOCOL_VERSION, &t.code, join),
            close::GAME_FULL,
        )
        .await;
        assert_unaffected(&mut other).await;
        server.shutdown().await;
    })
    .await;
}

// ---------------------------------------------------------------- 7

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_health_missions_games_errors_and_metrics() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let http = reqwest::Client::new();
        let get = |path: &str| http.get(format!("http://{addr}{path}")).send();

        let r = get("/healthz").await.expect("healthz");
        assert_eq!(r.status(), reqwest::StatusCode::OK);
        assert_eq!(r.text().await.expect("body"), "ok");

        let r = get("/api/missions").await.expect("missions");
        assert_eq!(r.status(), reqwest::StatusCode::OK);
        let missions: Value = r.json().await.expect("json");
        assert!(
            missions
                .as_array()
                .expect("a list")
                .iter()
                .any(|m| m["id"] == "ce-c1m1"),
            "{missions}"
        );

        // A game's documents: Siege's at the catalogue's address are the
        // ones served at the addresses from before games had kinds; a
        // game or document there is not is 404.
        for (old, new) in [
            ("/api/missions", "/api/catalogue/siege/missions"),
            ("/api/content", "/api/catalogue/siege/content"),
        ] {
            let a = get(old)
                .await
                .expect("old address")
                .text()
                .await
                .expect("body");
            let r = get(new).await.expect("catalogue address");
            assert_eq!(r.status(), reqwest::StatusCode::OK, "{new}");
            assert_eq!(
                r.text().await.expect("body"),
                a,
                "{new} serves what {old} does"
            );
        }
        for path in [
            "/api/catalogue/siege/secrets",
            "/api/catalogue/neuroshima/content",
            "/api/catalogue/chess/content",
        ] {
            let r = get(path).await.expect("GET");
            assert_eq!(r.status(), reqwest::StatusCode::NOT_FOUND, "{path}");
        }

        // The catalogue lists Siege with the same missions, and each
        // option with its values.
        let r = get("/api/catalogue").await.expect("catalogue");
        assert_eq!(r.status(), reqwest::StatusCode::OK);
        let catalogue: Value = r.json().await.expect("json");
        let siege = &catalogue[0];
        assert_eq!(siege["id"], "siege", "{catalogue}");
        assert_eq!(siege["rules"]["engine"], citadel_rules::ENGINE_VERSION);
        let options = siege["options"].as_array().expect("options");
        let names: Vec<&str> = options.iter().filter_map(|o| o["name"].as_str()).collect();
        assert_eq!(names, ["mission", "seats", "dark_legion", "starting_rank"]);
        let listed: Vec<&Value> = options[0]["choices"]
            .as_array()
            .expect("mission choices")
            .iter()
            .map(|c| &c["value"])
            .collect();
        let ids: Vec<&Value> = missions
            .as_array()
            .expect("a list")
            .iter()
            .map(|m| &m["id"])
            .collect();
        assert_eq!(
            listed, ids,
            "the catalogue's missions are the playable ones"
        );

        // A bad mission and bad seat counts: 400 with a JSON error.
        let mut bad = c1m1_options(3, DarkLegionChoice::Seat(2));
        bad.mission = "no-such-mission".into();
        let mut too_many = c1m1_options(3, DarkLegionChoice::Seat(2));
        too_many.seats = 9;
        let mut dl_outside = c1m1_options(3, DarkLegionChoice::Seat(2));
        dl_outside.dark_legion = DarkLegionChoice::Seat(3);
        for o in [&bad, &too_many, &dl_outside] {
            let r = http
                .post(format!("http://{addr}/api/games"))
                .json(o)
                .send()
                .await
                .expect("post");
            assert_eq!(r.status(), reqwest::StatusCode::BAD_REQUEST, "{o:?}");
            let body: Value = r.json().await.expect("a JSON error");
            assert_eq!(body["error"], 400);
            assert!(body["message"].is_string(), "{body}");
        }

        // A game exists under its code (any case), another does not.
        let code = create_game(addr, &c1m1_options(3, DarkLegionChoice::Seat(2))).await;
        let r = get(&format!("/api/games/{}", code.to_lowercase()))
            .await
            .expect("game");
        assert_eq!(r.status(), reqwest::StatusCode::OK);
        let body: Value = r.json().await.expect("json");
        assert_eq!(body["code"], code.as_str());
        let r = get("/api/games/ZZZZZZ").await.expect("no game");
        assert_eq!(r.status(), reqwest::StatusCode::NOT_FOUND);

        // Metrics count a connection and an applied command.
        let mut solo = solo_game(addr).await;
        assert_unaffected(&mut solo).await;
        let r = get("/metrics").await.expect("metrics");
        assert_eq!(r.status(), reqwest::StatusCode::OK);
        let text = r.text().await.expect("body");
        let value = |name: &str| -> f64 {
            text.lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
                .unwrap_or_else(|| panic!("no {name} in\n{text}"))
        };
        assert!(value("citadel_commands_total") >= 1.0);
        assert_eq!(value("citadel_connections"), 1.0);
        assert_eq!(value("citadel_games"), 2.0);
        assert!(text.contains("# TYPE citadel_commands counter"), "{text}");
        assert!(text.contains("citadel_command_latency_seconds_bucket"));
        server.shutdown().await;
    })
    .await;
}

// ---------------------------------------------------------------- 8

/// What this proves: `/metrics` is valid OpenMetrics, whole: a strict
/// parser (openmetrics-parser) reads it, so nothing follows `# EOF`, and
/// resident memory is one of its families. (That parser refuses a family
/// with no samples, which OpenMetrics allows, so the test first makes
/// every family hold one: a game, a rejected command.)
#[tokio::test]
async fn metrics_parse_as_openmetrics() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let mut p = solo_game(addr).await;
        let bogus = r#"{"type":"command","client_ref":1,"command":{"type":"use_item","figure":250,"item":"time_bomb"}}"#;
        p.send_text(bogus.to_string()).await;
        p.wait_for("a rejection", |m| matches!(m, ServerMsg::Rejected { .. }))
            .await;
        let text = reqwest::get(format!("http://{addr}/metrics"))
            .await
            .expect("answer")
            .text()
            .await
            .expect("body");
        assert!(text.ends_with("# EOF\n"), "{text}");
        let parsed = openmetrics_parser::openmetrics::parse_openmetrics(&text)
            .unwrap_or_else(|e| panic!("not OpenMetrics: {e:?}\n{text}"));
        for family in [
            "citadel_games",
            "citadel_rejections",
            "citadel_process_resident_bytes",
            "citadel_refused",
        ] {
            assert!(parsed.families.contains_key(family), "{family} missing:\n{text}");
        }
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_closes_every_connected_client_with_1001() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let t = start_table(addr, &["Ann", "Bob"], DarkLegionChoice::Seat(1)).await;
        // A game still in its lobby, too.
        let code = create_game(addr, &c1m1_options(2, DarkLegionChoice::Drawn)).await;
        let lobby_player = Client::player(addr, &code, "Lou").await;
        let mut clients: Vec<Client> = t.players;
        clients.push(t.spectator);
        clients.push(lobby_player);
        // And a socket that has not said hello yet.
        clients.push(Client::connect(addr, "silent").await);
        let started = Instant::now();
        let stop = tokio::spawn(server.shutdown());
        for c in &mut clients {
            let closed = c.expect_close().await;
            assert_eq!(
                closed.code,
                Some(close::SHUTDOWN),
                "{}: {closed:?}",
                c.label
            );
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        tokio::time::timeout(Duration::from_secs(5), stop)
            .await
            .expect("shutdown returns in time")
            .expect("shutdown task");
        // Nobody is listening any more.
        let url = format!("ws://{addr}/ws");
        assert!(tokio_tungstenite::connect_async(url).await.is_err());
    })
    .await;
}

// ---------------------------------------------------------------- 6

/// A spectator whose socket reads nothing: a small receive buffer, and
/// the test never polls it until the end.
async fn deaf_spectator(addr: SocketAddr, code: &str) -> Client {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("rcvbuf");
    let stream = socket.connect(addr).await.expect("connect");
    let (ws, _) =
        tokio_tungstenite::client_async(format!("ws://{addr}/ws"), MaybeTlsStream::Plain(stream))
            .await
            .expect("handshake");
    let mut c = Client::from_ws(ws, "deaf");
    c.hello(
        code,
        Join::Spectator {
            name: "Deaf".into(),
        },
        None,
    )
    .await;
    c
}

/// What this proves: the game task never waits for a connection. The deaf
/// spectator joins a started game through a socket with a 4 KiB receive
/// buffer, asks for 400 snapshots (about 27 KB each: ~10 MB, more than
/// loopback TCP buffers hold even at their 4 MB autotuned maximum; a whole
/// game's events alone, ~0.7 MB, are not always enough) and reads
/// nothing. The TCP buffers fill; the server's writer
/// for it blocks, its queue (8 messages here) fills, and the game drops it
/// (everyone's lobby shows one spectator fewer) while the players go on
/// at full speed to the end. When the spectator finally reads, it gets a
/// contiguous prefix of the game and then TOO_SLOW (never a bare EOF: a
/// write that times out is also answered with TOO_SLOW); a resume with
/// its last seq catches it up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_that_never_reads_is_cut_off_while_the_game_goes_on() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.send_queue = 8;
        config.rate_burst = 1000;
        let server = server_with(config).await;
        let addr = server.addr();
        let mut t = start_table(addr, &["Ann", "Bob", "Dee"], DarkLegionChoice::Seat(2)).await;
        let mut deaf = deaf_spectator(addr, &t.code).await;
        t.spectator
            .wait_lobby("the deaf spectator", |l| l.spectators == 2)
            .await;
        let resync = serde_json::to_string(&ClientMsg::Resync).expect("json");
        for _ in 0..400 {
            // Small frames: they fit the TCP buffers even unread. The
            // server may cut it off during these already: later sends
            // may fail.
            if deaf.ws.send(Message::text(resync.clone())).await.is_err() {
                break;
            }
        }
        let mut policy = Policy::new(11);
        let mut cut_at = None;
        let started = Instant::now();
        for r in 1..MAX_COMMANDS as u64 {
            if t.spectator.finished() {
                break;
            }
            t.step(&mut policy, r).await;
            if cut_at.is_none()
                && t.spectator
                    .lobby
                    .as_ref()
                    .is_some_and(|l| l.spectators == 1)
            {
                cut_at = Some(t.spectator.covered);
            }
        }
        let played = started.elapsed();
        let last = t.spectator.covered;
        let cut_at = cut_at.expect("the deaf spectator was never cut off");
        assert!(t.spectator.finished(), "the game did not finish");
        assert!(cut_at < last, "cut off only at the end");
        assert!(
            played < Duration::from_secs(20),
            "the game crawled: {played:?}"
        );
        for c in t.players.iter().chain([&t.spectator]) {
            assert_eq!(c.gaps, [], "{}", c.label);
        }
        // Now read: a contiguous prefix, then the close.
        let closed = deaf.expect_close().await;
        assert_eq!(closed.code, Some(close::TOO_SLOW), "{closed:?}");
        assert_eq!(deaf.gaps, []);
        assert!(deaf.covered <= cut_at, "{} > {cut_at}", deaf.covered);
        assert!(!deaf.finished());
        // It comes back as a spectator and gets exactly the rest.
        let seen = deaf.covered;
        let mut again = Client::connect(addr, "deaf again").await;
        again.covered = seen;
        again
            .hello(
                &t.code,
                Join::Spectator {
                    name: "Deaf".into(),
                },
                Some(seen),
            )
            .await;
        again
            .wait_for("the rest", |m| matches!(m, ServerMsg::Events { .. }))
            .await;
        assert_eq!(again.gaps, []);
        assert_eq!(again.covered, last);
        assert!(again.finished());
        eprintln!("slow spectator: {closed:?} at seq {seen}, cut at {cut_at} of {last}");
        server.shutdown().await;
    })
    .await;
}

/// What this proves: a spectator that stops reading long enough for one
/// write to time out (0.5 s here) is closed with TOO_SLOW, which it reads
/// after the messages before it once it reads again, not a bare EOF.
/// (Its queue is large, so the write timeout, not a full queue, is what
/// cuts it off.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_whose_write_times_out_gets_too_slow_not_a_bare_eof() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.write_timeout_ms = 500;
        config.send_queue = 100_000;
        config.rate_burst = 1000;
        let server = server_with(config).await;
        let addr = server.addr();
        let t = start_table(addr, &["Ann", "Bob", "Dee"], DarkLegionChoice::Seat(2)).await;
        let mut deaf = deaf_spectator(addr, &t.code).await;
        let resync = serde_json::to_string(&ClientMsg::Resync).expect("json");
        for _ in 0..400 {
            if deaf.ws.send(Message::text(resync.clone())).await.is_err() {
                break;
            }
        }
        // Reads nothing for a while: a write to it times out.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let closed = deaf.expect_close().await;
        assert_eq!(closed.code, Some(close::TOO_SLOW), "{closed:?}");
        assert!(closed.reason.contains("too slow"), "{closed:?}");
        server.shutdown().await;
    })
    .await;
}
