//! Cluster mode end to end: `citadel` nodes on loopback sharing one
//! Postgres and one NATS.
//!
//! Needs Postgres (`CITADEL_TEST_DATABASE_URL`) and NATS
//! (`CITADEL_TEST_NATS_URL`, default `nats://127.0.0.1:4222`); a test
//! skips (passing) when either is unreachable, unless
//! `CITADEL_REQUIRE_ALL=1`.

#![allow(clippy::unwrap_used)]

mod common;
use common::nats::nats_url;
use common::node::{start_stoppable, Node};
use common::pg::with_db;
use common::{DarkLegionChoice, GameOptions};
use common::{Ws, STEP};

use citadel_protocol::{ClientMsg, Join, LobbyView, SeqEvent};
use citadel_protocol::{ServerMsg, PROTOCOL_VERSION};
use citadel_rules::content::Corporation;
use citadel_rules::game::{Command, Event};
use citadel_server::config::Config;
use citadel_server::Server;
use serde_json::Value;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// More commands than a C1M1 game needs when every turn is ended at once.
const MAX_COMMANDS: usize = 5_000;

const LIMIT: Duration = Duration::from_secs(90);

/// A node id no other test (in this process or another) uses: node ids
/// name NATS subjects, and nodes must not share one.
fn nid(test: &str, node: &str) -> String {
    format!("{test}-{}-{node}", std::process::id())
}

/// A node's configuration: loopback, the shared database and NATS.
fn node_config(db: &str, nats: &str, id: &str) -> Config {
    let mut c = citadel::config_for_tests();
    c.database_url = db.to_string();
    c.nats_url = Some(nats.to_string());
    c.node_id = Some(id.to_string());
    c.lease_ttl = Duration::from_millis(LEASE_TTL_MS);
    c.lease_renew = Duration::from_millis(LEASE_RENEW_MS);
    // Nobody's seat is handed to a bot while the test reconnects; the AI
    // Dark Legion answers at once; the test's own pace is no flood.
    c.grace_secs = 600;
    c.rate_per_sec = 10_000;
    c.rate_burst = 10_000;
    c
}

const LEASE_TTL_MS: u64 = 2_000;
const LEASE_RENEW_MS: u64 = 400;

#[tokio::test]
async fn cluster_mode_needs_postgres_and_says_so() {
    let mut c = citadel::config_for_tests();
    c.nats_url = Some("nats://127.0.0.1:4222".into());
    c.database_url = "sqlite::memory:".into();
    let e = Server::start(c).await.unwrap_err().to_string();
    assert!(e.contains("needs a shared Postgres database"), "{e}");
}

#[tokio::test]
async fn two_running_nodes_cannot_share_a_node_id() {
    let Some(nats) = nats_url("cluster_same_id").await else {
        return;
    };
    with_db("cluster_same_id", LIMIT, move |db| async move {
        let id = nid("same", "x");
        let first = Server::start(node_config(&db, &nats, &id)).await.unwrap();
        let e = Server::start(node_config(&db, &nats, &id))
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("is taken"), "{e}");
        // Once the first has stopped, the id is free again.
        first.shutdown().await;
        let again = Server::start(node_config(&db, &nats, &id)).await.unwrap();
        again.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn health_and_metrics_of_a_cluster_node() {
    let Some(nats) = nats_url("cluster_health").await else {
        return;
    };
    with_db("cluster_health", LIMIT, move |db| async move {
        let id = nid("health", "1");
        let server = Server::start(node_config(&db, &nats, &id)).await.unwrap();
        let base = format!("http://{}", server.addr());
        let http = reqwest::Client::new();
        let r = http.get(format!("{base}/healthz")).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let h: Value = r.json().await.unwrap();
        assert_eq!(h["node"], id.as_str());
        assert_eq!(h["nats"], "ok");
        assert_eq!(h["database"], "ok");
        let code = common::create_game(
            server.addr(),
            &common::c1m1_options(2, common::DarkLegionChoice::Seat(1)),
        )
        .await;
        assert!(!code.is_empty());
        let m = http
            .get(format!("{base}/metrics"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(m.contains("citadel_owned_games 1"), "{m}");
        assert!(m.contains("citadel_forwarded_messages_total"), "{m}");
        assert!(m.contains("citadel_lease_takeovers_total 0"), "{m}");
        let r: Value = http
            .get(format!("{base}/readyz"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(r["nats"], "ok");
        server.shutdown().await;
    })
    .await;
}

// ---------------------------------------------------------------- client
// (the crash tests' client: crates/citadel/tests/crash.rs)

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
    let status = resp.status();
    let body: Value = resp.json().await.unwrap();
    assert_eq!(status, reqwest::StatusCode::CREATED, "{body}");
    body["code"].as_str().unwrap().to_string()
}

impl Table {
    /// Create the game on `owner`, seat Ann and Bob on the nodes at
    /// `at[0]` and `at[1]` and the spectator Eve on `at[2]`, take
    /// corporations, ready up and start: everyone holds the start snapshot.
    async fn start(owner: SocketAddr, at: [SocketAddr; 3]) -> Table {
        let code = create_game(owner).await;
        let mut players = Vec::new();
        for (name, addr) in [("Ann", at[0]), ("Bob", at[1])] {
            let p = Client::join(addr, &code, Join::Player { name: name.into() }, None).await;
            assert!(p.token.is_some(), "{name}: a resume token");
            players.push(p);
        }
        let spectator =
            Client::join(at[2], &code, Join::Spectator { name: "Eve".into() }, None).await;
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

impl Client {
    /// Join, or `None` if the server closes the socket before `welcome`
    /// (the game is moving between nodes: the client tries again).
    async fn try_join(
        addr: SocketAddr,
        game: &str,
        join: Join,
        last_seq: Option<u64>,
    ) -> Option<Client> {
        let url = format!("ws://{addr}/ws");
        let (ws, _) = tokio::time::timeout(STEP, tokio_tungstenite::connect_async(url))
            .await
            .ok()?
            .ok()?;
        let label = match &join {
            Join::Player { name } | Join::Spectator { name } => name.clone(),
            Join::Resume { .. } => "resumed".into(),
        };
        let mut c = Client {
            label,
            ws,
            seat: None,
            token: None,
            lobby: None,
            view: None,
            legal: Vec::new(),
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
        loop {
            let t = common::next_text(&mut c.ws, &c.label).await.ok()?;
            let raw: Value = serde_json::from_str(&t).unwrap();
            let typed: ServerMsg = serde_json::from_value(raw.clone()).unwrap();
            c.absorb(&typed, raw);
            if matches!(typed, ServerMsg::Welcome { .. }) {
                return Some(c);
            }
        }
    }

    /// Come back as `join` after `last_seq` until a node takes the hello.
    async fn rejoin(addr: SocketAddr, game: &str, join: Join, last_seq: u64) -> Client {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(c) = Client::try_join(addr, game, join.clone(), Some(last_seq)).await {
                return c;
            }
            assert!(Instant::now() < deadline, "no node took the game back");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The close code that ends this socket (skipping what comes first).
    async fn closed_with(&mut self) -> Option<u16> {
        loop {
            match common::next_text(&mut self.ws, &self.label).await {
                Ok(_) => continue,
                Err(code) => return code,
            }
        }
    }
}

/// Start a cluster node on its own runtime.
async fn start_node(db: &str, nats: &str, id: &str) -> (Node, SocketAddr) {
    let (node, addr, _stop) = start_stoppable(node_config(db, nats, id)).await;
    (node, addr)
}

/// The node holding the game's lease now.
async fn lease_owner(db: &str, code: &str) -> Option<String> {
    let store = citadel_store::open(db).await.unwrap();
    store.lease(code).await.unwrap().map(|l| l.owner)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_play_one_game_and_survive_the_owners_death() {
    let Some(nats) = nats_url("cluster_three_nodes").await else {
        return;
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(
            std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()),
        ))
        .with_test_writer()
        .try_init();
    with_db("cluster_three", LIMIT, move |db| async move {
        let id_a = nid("three", "a");
        let (mut a, addr_a) = start_node(&db, &nats, &id_a).await;
        let (b, addr_b) = start_node(&db, &nats, &nid("three", "b")).await;
        let (c, addr_c) = start_node(&db, &nats, &nid("three", "c")).await;
        // The game runs on a; Ann plays on a, Bob on b, Eve watches on c.
        let mut t = Table::start(addr_a, [addr_a, addr_b, addr_c]).await;
        assert_eq!(lease_owner(&db, &t.code).await, Some(id_a.clone()));
        // Every node knows the game (`GET /api/games/{code}`).
        for addr in [addr_a, addr_b, addr_c] {
            let r = reqwest::get(format!("http://{addr}/api/games/{}", t.code))
                .await
                .unwrap();
            assert_eq!(r.status(), 200, "{addr}");
        }
        // Command to ack, per player: Ann's socket is on the game's node,
        // Bob's is forwarded through b (for the log, not asserted).
        let mut ack_ms: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        for k in 0..20 {
            let i = t.actor();
            let sent = Instant::now();
            if k % 5 == 4 {
                t.send_one(prefer_end_turn).await;
            } else {
                t.send_one(prefer_action).await;
            }
            ack_ms[i].push(sent.elapsed().as_secs_f64() * 1000.0);
            t.drain().await;
        }
        for (who, ms) in ["Ann (on the owner)", "Bob (through b)"]
            .iter()
            .zip(&mut ack_ms)
        {
            ms.sort_by(f64::total_cmp);
            if !ms.is_empty() {
                eprintln!(
                    "ack latency, {who}: median {:.2} ms over {} commands",
                    ms[ms.len() / 2],
                    ms.len()
                );
            }
        }
        assert!(!t.spectator.finished(), "the game is still going");
        let metrics = reqwest::get(format!("http://{addr_b}/metrics"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let forwarded: f64 = metrics
            .lines()
            .find_map(|l| l.strip_prefix("citadel_forwarded_messages_total "))
            .and_then(|v| v.parse().ok())
            .unwrap();
        assert!(forwarded > 20.0, "b forwarded Bob's messages: {forwarded}");

        // kill the owner mid-game: no lease released, nothing flushed.
        let seq = t.spectator.covered;
        a.kill();
        let killed = Instant::now();
        assert_eq!(
            stored_human_commands(&db, &t.code).await,
            t.acked,
            "every acknowledged command, and only those, is in the store"
        );
        // Eve's node sees the owner gone and closes her socket with 1001.
        let code = t.spectator.closed_with().await;
        let noticed = killed.elapsed();
        assert_eq!(code, Some(1001), "Eve told to reconnect");
        // Another node takes the game over within the lease time.
        let took;
        loop {
            if let Some(o) = lease_owner(&db, &t.code).await.filter(|o| *o != id_a) {
                took = killed.elapsed();
                eprintln!("game taken over by {o}");
                break;
            }
            assert!(
                killed.elapsed() < Duration::from_secs(20),
                "nobody took the game over"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // Everyone resumes with the last seq, on a live node: Ann (whose
        // node died) on b, Bob on b, Eve on c.
        let Table {
            code,
            players,
            spectator,
            acked,
            next_ref,
        } = t;
        let mut resumed = Vec::new();
        for (p, addr) in players.iter().zip([addr_b, addr_b]) {
            let token = p.token.clone().unwrap();
            let mut r = Client::rejoin(addr, &code, Join::Resume { token }, p.covered).await;
            r.drain().await;
            assert_eq!(r.seat, p.seat);
            assert_eq!(r.covered, seq, "{}: up to date", p.label);
            assert_eq!(r.events, [], "{}: nothing missed", p.label);
            assert_eq!(r.view, p.view, "{}: the same view", p.label);
            assert_eq!(r.legal, p.legal, "{}: the same legal commands", p.label);
            r.label = format!("{} resumed", p.label);
            resumed.push(r);
        }
        let mut eve = Client::rejoin(
            addr_c,
            &code,
            Join::Spectator { name: "Eve".into() },
            spectator.covered,
        )
        .await;
        eve.drain().await;
        assert_eq!(eve.covered, seq);
        assert_eq!(eve.view, spectator.view, "Eve: the same view");
        let resumed_all = killed.elapsed();
        eprintln!(
            "owner killed at seq {seq}: Eve told after {} ms, lease taken after {} ms, \
             all resumed after {} ms (lease {LEASE_TTL_MS} ms, renew {LEASE_RENEW_MS} ms)",
            noticed.as_millis(),
            took.as_millis(),
            resumed_all.as_millis()
        );
        assert!(
            took <= Duration::from_millis(LEASE_TTL_MS + 3 * LEASE_RENEW_MS + 1_000),
            "{took:?}"
        );

        // The game goes on across b and c and ends normally.
        let mut t = Table {
            code,
            players: resumed,
            spectator: eve,
            acked,
            next_ref,
        };
        t.play_to_the_end().await;
        let store = citadel_store::open(&db).await.unwrap();
        let game = store.game(&t.code).await.unwrap().unwrap();
        assert!(
            game.finished_at.is_some() && game.result.is_some(),
            "recorded as finished"
        );
        assert_eq!(
            stored_human_commands(&db, &t.code).await,
            t.acked,
            "0 acked commands lost"
        );
        eprintln!(
            "three nodes: {} player commands acked and stored",
            t.acked.len()
        );
        drop(b);
        drop(c);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_stopped_for_a_deploy_hands_its_game_over_at_once() {
    let Some(nats) = nats_url("cluster_handover").await else {
        return;
    };
    with_db("cluster_handover", LIMIT, move |db| async move {
        // A long lease: the handover must not wait for it to run out.
        let config = |id: &str| {
            let mut c = node_config(&db, &nats, id);
            c.lease_ttl = Duration::from_secs(60);
            c.lease_renew = Duration::from_secs(1);
            c
        };
        let (_a, addr_a, stop_a) = start_stoppable(config(&nid("handover", "a"))).await;
        let (_b, addr_b, _stop_b) = start_stoppable(config(&nid("handover", "b"))).await;
        // The game runs on a; Ann plays there, Bob and Eve through b.
        let mut t = Table::start(addr_a, [addr_a, addr_b, addr_b]).await;
        for _ in 0..8 {
            t.step(prefer_action).await;
        }
        let seq = t.spectator.covered;
        let stopping = Instant::now();
        let (done, stopped) = tokio::sync::oneshot::channel();
        stop_a.send(done).unwrap();
        stopped.await.unwrap();
        // Everyone, local or remote, is told to reconnect.
        for c in t.clients() {
            assert_eq!(c.closed_with().await, Some(1001), "{}", c.label);
        }
        assert_eq!(
            lease_owner(&db, &t.code).await,
            None,
            "a released the lease"
        );
        assert_eq!(stored_human_commands(&db, &t.code).await, t.acked);
        let Table {
            code,
            players,
            spectator,
            acked,
            next_ref,
        } = t;
        let mut resumed = Vec::new();
        for p in &players {
            let token = p.token.clone().unwrap();
            let mut r = Client::rejoin(addr_b, &code, Join::Resume { token }, p.covered).await;
            r.drain().await;
            assert_eq!(
                (r.covered, r.events.len()),
                (seq, 0),
                "{}: up to date",
                p.label
            );
            assert_eq!(r.view, p.view, "{}: the same view", p.label);
            r.label = format!("{} resumed", p.label);
            resumed.push(r);
        }
        let mut eve = Client::rejoin(
            addr_b,
            &code,
            Join::Spectator { name: "Eve".into() },
            spectator.covered,
        )
        .await;
        eve.drain().await;
        let handed = stopping.elapsed();
        eprintln!(
            "graceful handover: everyone resumed on b {} ms after a began to stop",
            handed.as_millis()
        );
        assert!(
            handed < Duration::from_secs(30),
            "no wait for the 60 s lease: {handed:?}"
        );
        assert_eq!(lease_owner(&db, &code).await, Some(nid("handover", "b")));
        let mut t = Table {
            code,
            players: resumed,
            spectator: eve,
            acked,
            next_ref,
        };
        t.play_to_the_end().await;
        assert_eq!(
            stored_human_commands(&db, &t.code).await,
            t.acked,
            "0 acked commands lost"
        );
    })
    .await;
}

/// Bring a client back on the node at `addr` after its socket closed:
/// a player with its token, the spectator by name; with its last seq.
async fn come_back(old: &Client, addr: SocketAddr, code: &str) -> Client {
    let join = match &old.token {
        Some(token) => Join::Resume {
            token: token.clone(),
        },
        None => Join::Spectator {
            name: old.label.clone(),
        },
    };
    let mut c = Client::rejoin(addr, code, join, old.covered).await;
    c.drain().await;
    assert_eq!(
        c.covered, old.covered,
        "{}: nothing new meanwhile",
        old.label
    );
    assert_eq!(c.events, [], "{}: nothing missed", old.label);
    assert_eq!(c.view, old.view, "{}: the same view", old.label);
    assert_eq!(c.seat, old.seat, "{}: the same seat", old.label);
    c.label.clone_from(&old.label);
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_of_every_node_loses_no_acknowledged_command() {
    let Some(nats) = nats_url("cluster_rolling").await else {
        return;
    };
    with_db("cluster_rolling", LIMIT, move |db| async move {
        let config = |id: &str| {
            let mut c = node_config(&db, &nats, id);
            c.lease_ttl = Duration::from_secs(60);
            c.lease_renew = Duration::from_secs(1);
            c
        };
        let mut nodes = Vec::new();
        for id in ["a", "b", "c"] {
            let id = nid("rolling", id);
            let (node, addr, stop) = start_stoppable(config(&id)).await;
            nodes.push((id, node, addr, Some(stop)));
        }
        let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.2).collect();
        let mut t = Table::start(addrs[0], [addrs[0], addrs[1], addrs[2]]).await;
        // Where each client's socket is: Ann, Bob, Eve.
        let mut at = [addrs[0], addrs[1], addrs[2]];
        let mut moved = 0;
        let mut edge_only = 0;
        // Where Ann, Bob and Eve reconnect in each round (node indexes;
        // never the node being replaced, whose successor starts once they
        // are back, so its boot restore finds the game leased). Ann
        // rejoins first, so the game lands on her node: c after round 0,
        // so that stopping b in round 1 stops only the sockets of Bob and
        // Eve (b is an edge, not the owner); the new a in round 2.
        let targets = [[2, 1, 1], [2, 0, 0], [0, 1, 1]];
        for round in 0..3 {
            for _ in 0..4 {
                t.step(prefer_action).await;
            }
            let (id, _, addr, stop) = &mut nodes[round];
            let stopped_addr = *addr;
            let stopped_id = id.clone();
            let owner = lease_owner(&db, &t.code).await.unwrap();
            let (done, finished) = tokio::sync::oneshot::channel();
            stop.take().unwrap().send(done).unwrap();
            finished.await.unwrap();
            // The clients on the stopped node, or all if it ran the game,
            // are told to reconnect, and do on a live node.
            let game_moved = owner == stopped_id;
            if !game_moved {
                edge_only += 1;
            }
            let Table { code, players, spectator, acked, next_ref } = t;
            let mut clients: Vec<Client> = players;
            clients.push(spectator);
            let mut back = Vec::new();
            for (i, mut c) in clients.into_iter().enumerate() {
                if game_moved || at[i] == stopped_addr {
                    assert_eq!(c.closed_with().await, Some(1001), "{}", c.label);
                    let target = nodes[targets[round][i]].2;
                    back.push(come_back(&c, target, &code).await);
                    at[i] = target;
                    moved += 1;
                } else {
                    back.push(c);
                }
            }
            let spectator = back.pop().unwrap();
            t = Table { code, players: back, spectator, acked, next_ref };
            // The stopped node's replacement (a new node id, a new port).
            let id = format!("{stopped_id}2");
            let (node, addr, stop) = start_stoppable(config(&id)).await;
            nodes[round] = (id, node, addr, Some(stop));
            t.drain().await;
            assert_eq!(stored_human_commands(&db, &t.code).await, t.acked, "round {round}");
        }
        t.play_to_the_end().await;
        let store = citadel_store::open(&db).await.unwrap();
        let game = store.game(&t.code).await.unwrap().unwrap();
        assert!(game.finished_at.is_some() && game.result.is_some(), "recorded as finished");
        assert_eq!(stored_human_commands(&db, &t.code).await, t.acked, "0 acked commands lost");
        assert_eq!(edge_only, 1, "one round stopped a node that only held sockets");
        eprintln!("rolling restart: 3 nodes replaced, {moved} reconnects, {} player commands acked and stored", t.acked.len());
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edge_that_dies_leaves_its_player_disconnected_on_the_owner() {
    let Some(nats) = nats_url("cluster_edge_dies").await else {
        return;
    };
    with_db("cluster_edge_dies", LIMIT, move |db| async move {
        let (_a, addr_a) = start_node(&db, &nats, &nid("edge", "a")).await;
        let (mut b, addr_b) = start_node(&db, &nats, &nid("edge", "b")).await;
        // The game runs on a; Bob plays through b.
        let mut t = Table::start(addr_a, [addr_a, addr_b, addr_a]).await;
        for _ in 0..6 {
            t.step(prefer_action).await;
        }
        let bob_seat = usize::from(t.players[1].seat.unwrap());
        b.kill();
        let killed = Instant::now();
        // Nobody tells a; it stops hearing b's keep-alives and lets Bob go
        // after a lease time, as if his socket had closed.
        t.players[0]
            .wait_lobby("Bob disconnected", |l| !l.seats[bob_seat].connected)
            .await;
        let noticed = killed.elapsed();
        eprintln!(
            "edge killed: its player shown disconnected after {} ms (lease {LEASE_TTL_MS} ms)",
            noticed.as_millis()
        );
        assert!(
            noticed >= Duration::from_millis(LEASE_TTL_MS / 2),
            "{noticed:?}: not before the silence"
        );
        // Bob comes back through the owner itself and the game goes on.
        let Table {
            code,
            mut players,
            spectator,
            acked,
            next_ref,
        } = t;
        let bob = players.pop().unwrap();
        let back = come_back(&bob, addr_a, &code).await;
        players.push(back);
        let mut t = Table {
            code,
            players,
            spectator,
            acked,
            next_ref,
        };
        t.drain().await;
        t.play_to_the_end().await;
        assert_eq!(
            stored_human_commands(&db, &t.code).await,
            t.acked,
            "0 acked commands lost"
        );
    })
    .await;
}
