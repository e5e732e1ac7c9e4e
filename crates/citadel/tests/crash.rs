//! Crash tests: the real `citadel` binary as a separate process on a
//! Postgres schema of its own, SIGKILLed in the middle of a game and
//! started again on the same database.
//!
//! What they prove:
//! - every command acknowledged before the kill is in the store, in order,
//!   and nothing else a human sent is (`acked == stored`);
//! - after the restart the game is exactly where the last acknowledged
//!   command left it: a new spectator's snapshot has the same seq and the
//!   same view (the whole view JSON, compared as is), replaying from the
//!   start snapshot gives the very same events (dice included), and each
//!   resumed player gets no missed event, the same view and the same
//!   `legal`;
//! - the players can go on and the game ends normally, recorded as
//!   finished;
//! - a command whose `ack` arrived a moment before the kill survived it.
//!
//! What the comparison ignores: only the lobby's connection facts
//! (`connected`, `bot_playing`, the spectator count), which depend on who
//! is connected now, not on the game. Game views are compared whole.
//!
//! Postgres: `CITADEL_TEST_DATABASE_URL` (default
//! `postgres://postgres@127.0.0.1:5432/test`). If it cannot be reached the
//! tests print a notice and pass, unless `CITADEL_REQUIRE_ALL=1`.

#![allow(clippy::unwrap_used)]

mod common;
use common::pg::with_db;
use common::{DarkLegionChoice, GameOptions};
use common::{Ws, STEP};

use citadel_protocol::{ClientMsg, Join, LobbyView, SeqEvent};
use citadel_protocol::{ServerMsg, PROTOCOL_VERSION};
use citadel_rules::content::Corporation;
use citadel_rules::game::{Command, Event};
use serde_json::Value;
use sqlx::{Connection, Executor};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// The longest a whole test may take.
const TEST_LIMIT: Duration = Duration::from_secs(60);
/// The longest the server may take to be ready (`/readyz`: the store
/// answers and the games in it are restored) after it starts.
const BOOT_LIMIT: Duration = Duration::from_secs(20);
/// More commands than a C1M1 game needs when every turn is ended at once.
const MAX_COMMANDS: usize = 5_000;

// ---------------------------------------------------------------- database

// ---------------------------------------------------------------- process

/// The `citadel` binary running as a child process; killed when dropped.
struct Citadel {
    child: Child,
    addr: SocketAddr,
    log: PathBuf,
}

impl Citadel {
    /// Start the binary on `database_url` and wait until `/readyz`
    /// says ready. The port is found by binding port 0 and letting it go;
    /// should another process take it meanwhile, the start is retried.
    async fn start(database_url: &str, name: &str) -> Citadel {
        let started = Instant::now();
        for attempt in 0..5 {
            let port = {
                let probe = TcpListener::bind("127.0.0.1:0").unwrap();
                probe.local_addr().unwrap().port()
            };
            let addr = SocketAddr::from(([127, 0, 0, 1], port));
            let log = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
                .join(format!("crash-{name}-{}-{attempt}.log", std::process::id()));
            let out = std::fs::File::create(&log).unwrap();
            let child = std::process::Command::new(env!("CARGO_BIN_EXE_citadel"))
                .args(["--addr", &addr.to_string()])
                .args(["--database-url", database_url])
                // Nobody's seat is handed to a bot while the server is down
                // or the test reconnects; the AI Dark Legion answers at once.
                .args(["--grace-secs", "600", "--bot-delay-ms", "0"])
                .args(["--rate-per-sec", "10000", "--rate-burst", "10000"])
                .env("RUST_LOG", "info")
                .stdin(Stdio::null())
                .stdout(out.try_clone().unwrap())
                .stderr(out)
                .spawn()
                .expect("spawn the citadel binary");
            let mut server = Citadel { child, addr, log };
            match server.wait_ready(started).await {
                Ok(()) => return server,
                Err(log) if log.contains("cannot listen") => continue,
                Err(log) => panic!("citadel did not start:\n{log}"),
            }
        }
        panic!("citadel could not find a free port");
    }

    /// Poll `/readyz`; the child's log if it exits or is never ready.
    async fn wait_ready(&mut self, started: Instant) -> Result<(), String> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_millis(500))
            .build()
            .unwrap();
        let url = format!("http://{}/readyz", self.addr);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Err(format!("exited with {status}:\n{}", self.log_text()));
            }
            if let Ok(r) = http.get(&url).send().await {
                if r.status().is_success() {
                    return Ok(());
                }
            }
            if started.elapsed() > BOOT_LIMIT {
                return Err(format!(
                    "not ready within {BOOT_LIMIT:?}:\n{}",
                    self.log_text()
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGKILL (what `Child::kill` sends on Unix): no shutdown code runs.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Citadel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------- client

/// A typed WebSocket client that tracks what it was told.
#[derive(Debug)]
struct Client {
    label: String,
    ws: Ws,
    seat: Option<u8>,
    token: Option<String>,
    lobby: Option<LobbyView>,
    /// The last view received, as the server wrote it.
    view: Option<Value>,
    legal: Vec<Command>,
    /// Every event seq up to here is known (a snapshot covers 1..=seq).
    covered: u64,
    snapshots: Vec<u64>,
    events: Vec<SeqEvent>,
    gaps: Vec<(u64, u64)>,
    /// Every message received, in order.
    log: Vec<ServerMsg>,
}

impl Client {
    async fn join(addr: SocketAddr, game: &str, join: Join, last_seq: Option<u64>) -> Client {
        let label = match &join {
            Join::Player { name } | Join::Spectator { name } => name.clone(),
            Join::Resume { .. } => "resumed".into(),
        };
        let url = format!("ws://{addr}/ws");
        let (ws, _) = tokio::time::timeout(STEP, tokio_tungstenite::connect_async(url))
            .await
            .expect("connect in time")
            .expect("websocket handshake");
        let mut c = Client {
            label,
            ws,
            seat: None,
            token: None,
            lobby: None,
            view: None,
            legal: Vec::new(),
            // A reconnecting client already knows everything up to here.
            covered: last_seq.unwrap_or(0),
            snapshots: Vec::new(),
            events: Vec::new(),
            gaps: Vec::new(),
            log: Vec::new(),
        };
        c.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            game: game.into(),
            join,
            last_seq,
            account: None,
        })
        .await;
        c.wait_for("welcome", |m| matches!(m, ServerMsg::Welcome { .. }))
            .await;
        c
    }

    async fn resume(addr: SocketAddr, game: &str, token: &str, last_seq: u64) -> Client {
        let join = Join::Resume {
            token: token.into(),
        };
        Client::join(addr, game, join, Some(last_seq)).await
    }

    async fn send(&mut self, msg: &ClientMsg) {
        common::send_json(&mut self.ws, &self.label, msg).await;
    }

    async fn recv(&mut self) -> ServerMsg {
        let t = match common::next_text(&mut self.ws, &self.label).await {
            Ok(t) => t,
            Err(code) => panic!("{}: connection ended (close code {code:?})", self.label),
        };
        let raw: Value = serde_json::from_str(&t).unwrap();
        let typed: ServerMsg = serde_json::from_value(raw.clone())
            .unwrap_or_else(|e| panic!("{}: not a ServerMsg: {e}: {t}", self.label));
        self.absorb(&typed, raw);
        typed
    }

    async fn wait_for(&mut self, what: &str, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        for _ in 0..100_000 {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
        panic!("{}: never got {what}", self.label)
    }

    async fn wait_lobby(&mut self, what: &str, pred: impl Fn(&LobbyView) -> bool) {
        self.wait_for(
            what,
            |m| matches!(m, ServerMsg::Lobby { lobby } if pred(lobby)),
        )
        .await;
    }

    /// A barrier: every message the server queued for this client before
    /// it read our ping has been read (one ordered queue per connection,
    /// and a session answers a ping only after its earlier batches).
    async fn drain(&mut self) {
        self.send(&ClientMsg::Ping).await;
        self.wait_for("pong", |m| matches!(m, ServerMsg::Pong))
            .await;
    }

    /// Send a command; the seq of its `ack` (panics on a rejection).
    async fn command(&mut self, client_ref: u64, command: &Command) -> u64 {
        self.send(&ClientMsg::Command {
            client_ref: Some(client_ref),
            command: citadel_protocol::Json::of(&command),
        })
        .await;
        let answer = self
            .wait_for("ack or rejection", |m| {
                matches!(m, ServerMsg::Ack { client_ref: r, .. } | ServerMsg::Rejected { client_ref: r, .. } if *r == Some(client_ref))
                    || matches!(m, ServerMsg::Error { .. })
            })
            .await;
        match answer {
            ServerMsg::Ack { seq, .. } => seq,
            other => panic!("{}: {command:?} from its legal list: {other:?}", self.label),
        }
    }

    fn finished(&self) -> bool {
        self.events
            .iter()
            .any(|e| matches!(e.event.parse::<Event>(), Ok(Event::MissionEnded { .. })))
    }

    fn absorb(&mut self, msg: &ServerMsg, raw: Value) {
        match msg {
            ServerMsg::Welcome { seat, token, .. } => {
                self.seat = *seat;
                self.token.clone_from(token);
            }
            ServerMsg::Lobby { lobby } => self.lobby = Some(lobby.clone()),
            ServerMsg::Snapshot { seq, legal, .. } => {
                self.snapshots.push(*seq);
                self.covered = *seq;
                self.view = Some(raw["view"].clone());
                self.legal = legal.parse().expect("legal commands");
            }
            ServerMsg::Events { events, legal, .. } => {
                for e in events {
                    if e.seq != self.covered + 1 {
                        self.gaps.push((self.covered, e.seq));
                    }
                    self.covered = e.seq;
                    self.events.push(e.clone());
                }
                // The whole view, or the patch applied to the JSON held.
                match (raw.get("view"), raw.get("view_patch"), self.view.as_mut()) {
                    (Some(view), _, _) => self.view = Some(view.clone()),
                    (None, Some(patch), Some(held)) => {
                        let patch: citadel_protocol::view_patch::Patch =
                            serde_json::from_value(patch.clone()).expect("a JSON Patch");
                        citadel_protocol::view_patch::apply(held, &patch)
                            .expect("the patch fits the view held");
                    }
                    _ => panic!("events with neither a view nor a view to patch"),
                }
                self.legal = legal.parse().expect("legal commands");
            }
            _ => {}
        }
        self.log.push(msg.clone());
    }
}

// ---------------------------------------------------------------- table

/// Two corporation players against the AI Dark Legion, and a spectator.
struct Table {
    code: String,
    players: Vec<Client>,
    spectator: Client,
    /// Every command a player had acknowledged: (seat, command), in order.
    acked: Vec<(u8, Command)>,
    next_ref: u64,
}

async fn create_game(addr: SocketAddr) -> String {
    let options = GameOptions {
        mission: "ce-c1m1".into(),
        seats: 2,
        dark_legion: DarkLegionChoice::Ai,
        starting_rank: 1,
        turn_seconds: None,
    };
    let resp = reqwest::Client::new()
        .post(format!("http://{addr}/api/games"))
        .json(&options)
        .send()
        .await
        .expect("POST /api/games");
    assert_eq!(resp.status(), reqwest::StatusCode::CREATED);
    let body: Value = resp.json().await.unwrap();
    body["code"].as_str().unwrap().to_string()
}

impl Table {
    /// Create the game, seat Ann and Bob and the spectator Eve, take
    /// corporations, ready up and start: everyone holds the start snapshot.
    async fn start(addr: SocketAddr) -> Table {
        let code = create_game(addr).await;
        let mut players = Vec::new();
        for name in ["Ann", "Bob"] {
            let p = Client::join(addr, &code, Join::Player { name: name.into() }, None).await;
            assert!(p.token.is_some(), "{name}: a resume token");
            players.push(p);
        }
        let spectator =
            Client::join(addr, &code, Join::Spectator { name: "Eve".into() }, None).await;
        for (p, corp) in players
            .iter_mut()
            .zip([Corporation::Bauhaus, Corporation::Capitol])
        {
            let seat = usize::from(p.seat.unwrap());
            p.send(&ClientMsg::Choose {
                choice: citadel_protocol::Json::of(&citadel_rules::seam::SeatChoice {
                    corporation: Some(corp),
                    doomtroopers: None,
                }),
            })
            .await;
            p.wait_lobby("my corporation", |l| {
                l.seats[seat]
                    .choice
                    .as_ref()
                    .and_then(|c| c.parse::<citadel_rules::seam::SeatChoice>().ok())
                    .and_then(|c| c.corporation)
                    == Some(corp)
            })
            .await;
            p.send(&ClientMsg::Ready { ready: true }).await;
            p.wait_lobby("ready", |l| l.seats[seat].ready).await;
        }
        players[0]
            .wait_lobby("everyone ready", |l| l.seats.iter().all(|s| s.ready))
            .await;
        players[0].send(&ClientMsg::Start).await;
        let mut t = Table {
            code,
            players,
            spectator,
            acked: Vec::new(),
            next_ref: 1,
        };
        for c in t.clients() {
            c.wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
                .await;
        }
        t.drain().await;
        t
    }

    fn clients(&mut self) -> impl Iterator<Item = &mut Client> {
        self.players
            .iter_mut()
            .chain(std::iter::once(&mut self.spectator))
    }

    /// Everyone has read everything sent so far, and agrees on the seq.
    async fn drain(&mut self) {
        for c in self.clients() {
            c.drain().await;
        }
        let seq = self.spectator.covered;
        for p in &self.players {
            assert_eq!(p.covered, seq, "{} and the spectator disagree", p.label);
        }
    }

    /// The player the game waits for (after a drain).
    fn actor(&self) -> usize {
        let acting: Vec<usize> = (0..self.players.len())
            .filter(|i| !self.players[*i].legal.is_empty())
            .collect();
        assert_eq!(acting.len(), 1, "exactly one player can act: {acting:?}");
        acting[0]
    }

    /// One command by whoever must act; returns its ack seq. The AI Dark
    /// Legion's answers are part of the same batch (no bot delay), so they
    /// were stored before the ack was sent too.
    async fn send_one(&mut self, choose: impl Fn(&[Command]) -> Command) -> u64 {
        let i = self.actor();
        let command = choose(&self.players[i].legal);
        let r = self.next_ref;
        self.next_ref += 1;
        let seq = self.players[i].command(r, &command).await;
        self.acked.push((self.players[i].seat.unwrap(), command));
        seq
    }

    /// One command, then everyone drained.
    async fn step(&mut self, choose: impl Fn(&[Command]) -> Command) -> u64 {
        let seq = self.send_one(choose).await;
        self.drain().await;
        seq
    }

    /// Play until the mission ends.
    async fn play_to_the_end(&mut self) {
        while !self.spectator.finished() {
            assert!(self.acked.len() < MAX_COMMANDS, "the game does not end");
            self.step(prefer_end_turn).await;
        }
        for c in self.clients() {
            assert!(c.finished(), "{}: saw the end", c.label);
            assert_eq!(c.gaps, [], "{}: gaps in seqs", c.label);
        }
    }
}

/// End the turn whenever that is legal; otherwise the first legal answer.
fn prefer_end_turn(legal: &[Command]) -> Command {
    if legal.contains(&Command::EndTurn) {
        Command::EndTurn
    } else {
        legal[0].clone()
    }
}

/// An action other than ending the turn when there is one (the last, so
/// successive picks differ from the first-legal answers), else the first.
fn prefer_action(legal: &[Command]) -> Command {
    legal
        .iter()
        .rev()
        .find(|c| **c != Command::EndTurn)
        .unwrap_or(&legal[0])
        .clone()
}

/// The lobby without the facts that depend on who is connected now.
fn game_facts(lobby: &LobbyView) -> LobbyView {
    let mut l = lobby.clone();
    l.spectators = 0;
    for s in &mut l.seats {
        s.connected = false;
        s.bot_playing = false;
    }
    l
}

/// The human commands in the store, in order.
async fn stored_human_commands(url: &str, code: &str) -> Vec<(u8, Command)> {
    let store = citadel_store::open(url).await.unwrap();
    let records = store.commands(code).await.unwrap();
    let indexes: Vec<i64> = records.iter().map(|r| r.index).collect();
    let want: Vec<i64> = (0..records.len() as i64).collect();
    assert_eq!(indexes, want, "stored command indexes");
    records
        .iter()
        // Seats 0 and 1 are the players; the AI Dark Legion's is after them.
        .filter(|r| r.seat < 2)
        .map(|r| (r.seat, serde_json::from_str(&r.command).unwrap()))
        .collect()
}

// ---------------------------------------------------------------- tests

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_sigkill_the_restarted_server_is_exactly_where_the_last_ack_left_the_game() {
    with_db("resume", TEST_LIMIT, |url| async move {
        let t0 = Instant::now();
        let server = Citadel::start(&url, "resume-1").await;
        let mut t = Table::start(server.addr).await;
        let start_seq = t.spectator.covered;

        // Part of a game: turns with actions in them, not just ended.
        for k in 0..24 {
            if k % 6 == 5 {
                t.step(prefer_end_turn).await;
            } else {
                t.step(prefer_action).await;
            }
        }
        assert!(!t.spectator.finished(), "the game is still going");
        let seq = t.spectator.covered;
        let spectator_view = t.spectator.view.clone().unwrap();
        let spectator_events = t.spectator.events.clone();
        let lobby = game_facts(t.spectator.lobby.as_ref().unwrap());
        let players: Vec<(u8, String, Value, Vec<Command>)> = t
            .players
            .iter()
            .map(|p| {
                let token = p.token.clone().unwrap();
                (
                    p.seat.unwrap(),
                    token,
                    p.view.clone().unwrap(),
                    p.legal.clone(),
                )
            })
            .collect();

        server.kill();
        assert_eq!(
            stored_human_commands(&url, &t.code).await,
            t.acked,
            "every acknowledged command, and only those, is stored"
        );
        let Table {
            code,
            acked,
            next_ref,
            ..
        } = t;

        let server = Citadel::start(&url, "resume-2").await;
        let addr = server.addr;

        // (a) A new spectator's snapshot: the same seq, the same view.
        let mut fresh =
            Client::join(addr, &code, Join::Spectator { name: "Zed".into() }, None).await;
        fresh
            .wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
        assert_eq!(fresh.covered, seq, "the restarted game's last seq");
        assert_eq!(
            fresh.view.as_ref(),
            Some(&spectator_view),
            "the spectator's view"
        );

        // Replaying from the start snapshot gives the very same events.
        let replay = Client::join(
            addr,
            &code,
            Join::Spectator { name: "Eve".into() },
            Some(start_seq),
        )
        .await;
        let mut replay = replay;
        replay.drain().await;
        assert_eq!(
            replay.events, spectator_events,
            "the events since the start"
        );
        assert_eq!(replay.view.as_ref(), Some(&spectator_view));

        // Each player resumes with its token and last seq: nothing missed,
        // the same view, the same legal commands.
        let mut resumed = Vec::new();
        for (seat, token, view, legal) in &players {
            let mut p = Client::resume(addr, &code, token, seq).await;
            p.drain().await;
            assert_eq!(p.seat, Some(*seat), "the token's seat");
            assert_eq!(p.covered, seq, "seat {seat}: up to date");
            assert_eq!(p.events, [], "seat {seat}: no event was missed");
            assert_eq!(p.view.as_ref(), Some(view), "seat {seat}: its view");
            assert_eq!(&p.legal, legal, "seat {seat}: its legal commands");
            p.label = format!("seat {seat} resumed");
            resumed.push(p);
        }
        let now = resumed[1].lobby.clone().unwrap();
        assert!(now.seats.iter().all(|s| s.connected), "both players back");
        assert_eq!(game_facts(&now), lobby, "the lobby's game facts");

        // (b) The game goes on and ends normally.
        let mut t = Table {
            code,
            players: resumed,
            spectator: fresh,
            acked,
            next_ref,
        };
        t.play_to_the_end().await;
        let store = citadel_store::open(&url).await.unwrap();
        let game = store.game(&t.code).await.unwrap().unwrap();
        assert!(
            game.finished_at.is_some() && game.result.is_some(),
            "recorded as finished"
        );
        assert_eq!(stored_human_commands(&url, &t.code).await, t.acked);
        let result = game.result.clone();
        let end_seq = t.spectator.covered;
        let end_view = t.spectator.view.clone();

        // (c) A crash between storing the last command and recording the
        // end (two writes): the restart must record the end itself, or the
        // game would count as unfinished for ever.
        server.kill();
        let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
        conn.execute(
            format!(
                "UPDATE games SET finished_at = NULL, result = NULL WHERE code = '{}'",
                t.code
            )
            .as_str(),
        )
        .await
        .unwrap();
        conn.close().await.unwrap();
        let server = Citadel::start(&url, "resume-3").await;
        let game = store.game(&t.code).await.unwrap().unwrap();
        assert!(game.finished_at.is_some(), "the end is recorded at the restart");
        assert_eq!(game.result, result, "the same result");
        assert!(store.unfinished_games().await.unwrap().is_empty());
        let mut late = Client::join(server.addr, &t.code, Join::Spectator { name: "Late".into() }, None).await;
        late.wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
        assert_eq!(late.covered, end_seq);
        assert_eq!(late.view, end_view, "the final view");
        eprintln!(
            "crash/resume: killed at seq {seq}, ended at seq {end_seq} after {} player commands, {:?}",
            t.acked.len(),
            t0.elapsed()
        );
        server.kill();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_acknowledged_just_before_a_sigkill_survives_it() {
    with_db("ack", TEST_LIMIT, |url| async move {
        let t0 = Instant::now();
        let server = Citadel::start(&url, "ack-1").await;
        let mut t = Table::start(server.addr).await;
        for _ in 0..5 {
            t.step(prefer_action).await;
        }
        let before = t.spectator.covered;
        let before_view = t.spectator.view.clone().unwrap();

        // The kill follows the ack at once: the events the command caused
        // may or may not have reached anyone.
        let acked_seq = t.send_one(prefer_action).await;
        server.kill();
        assert_eq!(acked_seq, before + 1, "the ack's seq");
        let last = t.acked.last().cloned().unwrap();
        assert_eq!(
            stored_human_commands(&url, &t.code).await,
            t.acked,
            "the acknowledged command {last:?} is stored"
        );

        let server = Citadel::start(&url, "ack-2").await;
        let addr = server.addr;
        let mut fresh =
            Client::join(addr, &t.code, Join::Spectator { name: "Zed".into() }, None).await;
        fresh
            .wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
        assert!(
            fresh.covered >= acked_seq,
            "the restarted game has the command's events"
        );
        assert_ne!(
            fresh.view.as_ref(),
            Some(&before_view),
            "the command changed the game"
        );

        // Resumed from before the command: its events come first, and any
        // that arrived before the kill are the same.
        let mut resumed = Vec::new();
        for p in &t.players {
            let token = p.token.clone().unwrap();
            let mut r = Client::resume(addr, &t.code, &token, before).await;
            r.drain().await;
            assert_eq!(r.events.first().map(|e| e.seq), Some(acked_seq));
            assert_eq!(r.covered, fresh.covered);
            for e in p.events.iter().filter(|e| e.seq >= acked_seq) {
                assert!(r.events.contains(e), "{e:?} is the same after the restart");
            }
            r.label = format!("seat {} resumed", p.seat.unwrap());
            resumed.push(r);
        }
        let Table {
            code,
            acked,
            next_ref,
            ..
        } = t;
        let mut t = Table {
            code,
            players: resumed,
            spectator: fresh,
            acked,
            next_ref,
        };
        t.play_to_the_end().await;
        assert_eq!(stored_human_commands(&url, &t.code).await, t.acked);
        eprintln!("crash/ack: {:?}", t0.elapsed());
        server.kill();
    })
    .await;
}
