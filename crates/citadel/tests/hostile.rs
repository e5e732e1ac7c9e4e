//! Hostile clients against a live server (issue 17): slowloris,
//! descriptor exhaustion against a lowered connection cap, a ping flood,
//! login guessing and a reader that stops reading.
//!
//! Each test runs its attack on tasks of its own while the **bystander**,
//! the player of an unrelated game, measures a round trip through its
//! game every [`SAMPLE_EVERY`]. Every sample must be under
//! [`ROUND_TRIP_BOUND`], and the attack must be answered as
//! docs/SECURITY.md and docs/PROTOCOL.md say (the connection closed, the
//! close code, the status and `Retry-After`). Limits and timeouts are
//! lowered through `Config`, so each attack is cheap and each test takes
//! seconds. Server and clients share one 2-thread runtime, as they would
//! share a small machine's two cores.

mod common;
use common::DarkLegionChoice;

use citadel_protocol::{close, ClientMsg, Join, ServerMsg, PROTOCOL_VERSION};
use citadel_rules::game::{Command, Event};
use citadel_server::config::Config;
use citadel_server::Server;
use common::{
    c1m1_options, closed_within, connect_from, create_game, http_from, next_text, send_json,
    within, Ws, HALF_REQUEST, STEP,
};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::MaybeTlsStream;

/// Every round trip the bystander measures during an attack must take
/// less than this. On loopback an answer takes milliseconds; 2 s leaves
/// room for a loaded 2-core CI machine (a debug build, the attacker on
/// the same cores, other tests running alongside). What it rules out is
/// starvation, a bystander that waits for the attack to end or for a
/// timeout inside it; it says nothing about speed.
const ROUND_TRIP_BOUND: Duration = Duration::from_secs(2);
/// How often the bystander measures.
const SAMPLE_EVERY: Duration = Duration::from_millis(200);
/// The fewest samples an attack must overlap (a shorter attack proves
/// nothing about the bystander).
const MIN_SAMPLES: usize = 5;
/// How long the attacks that are not over by themselves go on.
const ATTACK_FOR: Duration = Duration::from_secs(4);
/// A hang guard; each test takes well under half of it.
const TEST_LIMIT: Duration = Duration::from_secs(60);

async fn server_with(config: Config) -> Server {
    Server::start(config).await.expect("server starts")
}

/// A WebSocket to `/ws`, nothing said yet.
async fn ws_connect(addr: SocketAddr) -> Result<Ws, String> {
    match tokio::time::timeout(
        STEP,
        tokio_tungstenite::connect_async(format!("ws://{addr}/ws")),
    )
    .await
    {
        Ok(Ok((ws, _))) => Ok(ws),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no handshake within {STEP:?}")),
    }
}

fn hello(game: &str, join: Join) -> ClientMsg {
    ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        game: game.into(),
        join,
        last_seq: None,
        account: None,
    }
}

// ---------------------------------------------------------- bystander

/// The player of a started 1-seat game against the AI Dark Legion: the
/// client every attack must leave alone.
struct Bystander {
    /// Who it is, in failure messages.
    label: &'static str,
    ws: Ws,
    /// Its game's code.
    code: String,
    legal: Vec<Command>,
    /// Every event up to this seq has arrived.
    covered: u64,
    finished: bool,
    rng: StdRng,
    next_ref: u64,
    chats: u64,
    /// Commands acknowledged: how far the game moved.
    played: usize,
    /// Spectators, as the last lobby said.
    spectators: Option<u32>,
}

impl Bystander {
    /// Create the game, join it from 127.0.0.1, ready, start; returns
    /// once the snapshot is in.
    async fn start(addr: SocketAddr) -> Bystander {
        Bystander::start_as(addr, "the bystander").await
    }

    /// [`Bystander::start`], named otherwise in failure messages.
    async fn start_as(addr: SocketAddr, label: &'static str) -> Bystander {
        let code = create_game(addr, &c1m1_options(1, DarkLegionChoice::Ai)).await;
        let ws = ws_connect(addr)
            .await
            .unwrap_or_else(|e| panic!("{label} cannot connect: {e}"));
        let mut b = Bystander {
            label,
            ws,
            code: code.clone(),
            legal: Vec::new(),
            covered: 0,
            finished: false,
            rng: StdRng::seed_from_u64(17),
            next_ref: 1,
            chats: 0,
            played: 0,
            spectators: None,
        };
        let name = "Bystander".to_string();
        b.send(&hello(&code, Join::Player { name })).await;
        b.wait("welcome", |m| {
            matches!(m, ServerMsg::Welcome { seat: Some(0), .. })
        })
        .await;
        b.send(&ClientMsg::Ready { ready: true }).await;
        b.wait(
            "ready",
            |m| matches!(m, ServerMsg::Lobby { lobby } if lobby.seats[0].ready),
        )
        .await;
        b.send(&ClientMsg::Start).await;
        b.wait("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
        assert!(!b.legal.is_empty(), "{label}: the player acts first");
        b
    }

    async fn send(&mut self, msg: &ClientMsg) {
        send_json(&mut self.ws, self.label, msg).await;
    }

    /// The next message, tracked. The bystander does nothing wrong, so
    /// an error or a close is a failure; so is silence for [`STEP`].
    async fn recv(&mut self) -> ServerMsg {
        loop {
            let label = self.label;
            let next = tokio::time::timeout(STEP, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{label} heard nothing for {STEP:?}"));
            let text = match next {
                Some(Ok(Message::Text(t))) => t,
                Some(Ok(Message::Close(frame))) => panic!("{label} was closed: {frame:?}"),
                Some(Ok(_)) => continue,
                Some(Err(e)) => panic!("{label}'s socket failed: {e}"),
                None => panic!("{label}'s socket ended"),
            };
            let msg: ServerMsg = serde_json::from_str(text.as_str())
                .unwrap_or_else(|e| panic!("{label} got {text}: {e}"));
            match &msg {
                ServerMsg::Snapshot { seq, legal, .. } => {
                    self.covered = *seq;
                    self.legal = legal.parse().expect("legal commands");
                }
                ServerMsg::Events { events, legal, .. } => {
                    for e in events {
                        assert_eq!(e.seq, self.covered + 1, "a gap in {label}'s events");
                        self.covered = e.seq;
                        self.finished |=
                            matches!(e.event.parse::<Event>(), Ok(Event::MissionEnded { .. }));
                    }
                    self.legal = legal.parse().expect("legal commands");
                }
                ServerMsg::Lobby { lobby } => self.spectators = Some(lobby.spectators),
                ServerMsg::Error { code, message } => {
                    panic!("{label} was told {code:?}: {message}")
                }
                _ => {}
            }
            return msg;
        }
    }

    async fn wait(&mut self, what: &str, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        for _ in 0..100_000 {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
        panic!("{} never got {what}", self.label)
    }

    /// A command from the legal list: mostly actions, sometimes the end
    /// of the turn (the mission has a turn limit; the game should last).
    fn choose(&mut self) -> Command {
        let actions: Vec<&Command> = self
            .legal
            .iter()
            .filter(|c| **c != Command::EndTurn)
            .collect();
        if actions.is_empty() || (self.legal.contains(&Command::EndTurn) && self.rng.gen_bool(0.25))
        {
            return Command::EndTurn;
        }
        actions[self.rng.gen_range(0..actions.len())].clone()
    }

    /// One round trip through the game's task. When the player may act:
    /// a command, timed until its ack and every event it caused have
    /// arrived (the whole game path: rules, storage, delivery). While the
    /// AI Dark Legion plays, or once the game is over: a chat line, timed
    /// until it comes back.
    async fn round_trip(&mut self) -> Duration {
        let started = Instant::now();
        if !self.finished && !self.legal.is_empty() {
            let r = self.next_ref;
            self.next_ref += 1;
            let command = self.choose();
            self.send(&ClientMsg::Command {
                client_ref: Some(r),
                command: citadel_protocol::Json::of(&command),
            })
            .await;
            let answer = self
                .wait("its command's answer", |m| {
                    matches!(m, ServerMsg::Ack { client_ref: Some(x), .. }
                        | ServerMsg::Rejected { client_ref: Some(x), .. } if *x == r)
                })
                .await;
            if let ServerMsg::Ack { seq, .. } = answer {
                self.played += 1;
                while self.covered < seq {
                    self.recv().await;
                }
            }
        } else {
            self.chats += 1;
            let line = format!("still here {}", self.chats);
            self.send(&ClientMsg::Chat { text: line.clone() }).await;
            self.wait(
                "its chat line",
                |m| matches!(m, ServerMsg::Chat { text, .. } if *text == line),
            )
            .await;
        }
        started.elapsed()
    }
}

/// Run `attack` on a task of its own while the bystander measures a
/// round trip every [`SAMPLE_EVERY`], until the attack is over. Fails if
/// a sample reaches [`ROUND_TRIP_BOUND`], if fewer than [`MIN_SAMPLES`]
/// overlapped the attack, or if the bystander's game did not move.
async fn during<T: Send + 'static>(
    by: &mut Bystander,
    what: &str,
    attack: impl Future<Output = T> + Send + 'static,
) -> T {
    let mut task = tokio::spawn(attack);
    let played_before = by.played;
    let mut samples = Vec::new();
    let outcome = loop {
        tokio::select! {
            r = &mut task => break r,
            () = tokio::time::sleep(SAMPLE_EVERY) => {}
        }
        samples.push(by.round_trip().await);
    };
    let result = match outcome {
        Ok(r) => r,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(e) => panic!("{what}: the attack task failed: {e}"),
    };
    let worst = samples.iter().max().copied().unwrap_or_default();
    eprintln!(
        "{what}: {} bystander round trips, the slowest {worst:?}",
        samples.len()
    );
    assert!(
        samples.len() >= MIN_SAMPLES,
        "{what}: only {} samples overlapped the attack",
        samples.len()
    );
    assert!(
        worst < ROUND_TRIP_BOUND,
        "{what}: a bystander round trip took {worst:?}, the bound is {ROUND_TRIP_BOUND:?} \
         (every sample: {samples:?})"
    );
    assert!(
        by.played > played_before || by.finished,
        "{what}: the bystander's game did not move during the attack"
    );
    result
}

/// Collect every task's result (a panic in one fails the test with its
/// message).
async fn join_all<T: 'static>(mut tasks: JoinSet<T>) -> Vec<T> {
    let mut out = Vec::new();
    while let Some(r) = tasks.join_next().await {
        match r {
            Ok(v) => out.push(v),
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(e) => panic!("an attacker task failed: {e}"),
        }
    }
    out
}

// ----------------------------------------------------------- slowloris

/// The header timeout in the slowloris test, seconds.
const SLOWLORIS_HEADER_TIMEOUT_SECS: u64 = 2;

/// One slowloris connection: a byte of headers every 100 ms, never the
/// blank line that ends them. How long until the server closed it
/// (`None`: still open after [`STEP`]).
async fn trickle(from: [u8; 4], addr: SocketAddr) -> Option<Duration> {
    // Timed from before the connection is made: the server's clock for
    // it cannot start sooner.
    let started = Instant::now();
    let mut s = connect_from(from, addr).await.expect("connect");
    let head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ";
    let mut buf = [0u8; 1024];
    for i in 0.. {
        if started.elapsed() > STEP {
            return None;
        }
        let byte = head.get(i).copied().unwrap_or(b'a');
        if s.write_all(&[byte]).await.is_err() {
            return Some(started.elapsed());
        }
        match tokio::time::timeout(Duration::from_millis(100), s.read(&mut buf)).await {
            Err(_) => {}
            Ok(Ok(0) | Err(_)) => return Some(started.elapsed()),
            Ok(Ok(n)) => panic!(
                "the server answered headers that never ended: {:?}",
                String::from_utf8_lossy(&buf[..n])
            ),
        }
    }
    None
}

/// What this proves: 200 slowloris connections from 8 addresses, each
/// sending its headers a byte every 100 ms and opening a new connection
/// when the server closes it (two waves), are every one closed by the
/// header timeout (2 s here): not sooner than half of it (they were let
/// in, and the timeout cut them) and not later than it plus 3 s. The
/// bystander's round trip stays under [`ROUND_TRIP_BOUND`] throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slowloris_is_cut_at_the_header_timeout_while_another_game_plays_on() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.header_timeout_secs = SLOWLORIS_HEADER_TIMEOUT_SECS;
        let server = server_with(config).await;
        let addr = server.addr();
        let mut by = Bystander::start(addr).await;
        let lives = during(&mut by, "slowloris", async move {
            let mut tasks = JoinSet::new();
            for i in 0..200u8 {
                let from = [127, 0, 5, 1 + i % 8];
                tasks.spawn(async move { [trickle(from, addr).await, trickle(from, addr).await] });
            }
            join_all(tasks).await
        })
        .await;
        let timeout = Duration::from_secs(SLOWLORIS_HEADER_TIMEOUT_SECS);
        let lives: Vec<Duration> = lives
            .into_iter()
            .flatten()
            .map(|l| l.expect("a slowloris connection held past 10 s"))
            .collect();
        assert_eq!(lives.len(), 400);
        let shortest = lives.iter().min().copied().unwrap_or_default();
        let longest = lives.iter().max().copied().unwrap_or_default();
        assert!(
            shortest >= timeout / 2,
            "a slowloris connection closed after {shortest:?}, before the timeout"
        );
        assert!(
            longest <= timeout + Duration::from_secs(3),
            "a slowloris connection was held {longest:?}"
        );
        server.shutdown().await;
    })
    .await;
}

// ------------------------------------------------ descriptor exhaustion

/// The lowered connection cap.
const CAP: usize = 40;
/// The lowered per-address cap.
const PER_ADDRESS: usize = 16;
/// The header timeout in the exhaustion test, seconds.
const EXHAUSTION_HEADER_TIMEOUT_SECS: u64 = 3;
/// Connections from the one address that goes first.
const GREEDY: usize = 24;
/// Other addresses, and connections from each.
const CROWD: (u8, usize) = (7, 20);

/// How a half-sent request fared.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fate {
    /// Closed at once: over a cap.
    Refused,
    /// Let in, and closed after this long.
    Held(Duration),
}

/// Send the start of a request on `s` and wait for the server to close
/// it.
async fn half_request(mut s: tokio::net::TcpStream, started: Instant) -> Fate {
    let _ = s.write_all(HALF_REQUEST).await;
    let header_timeout = Duration::from_secs(EXHAUSTION_HEADER_TIMEOUT_SECS);
    // A connection over a cap is closed at once; one let in waits for
    // the header timeout.
    if closed_within(&mut s, header_timeout / 2).await {
        return Fate::Refused;
    }
    assert!(
        closed_within(&mut s, STEP).await,
        "a half-sent request was held past {STEP:?}"
    );
    Fate::Held(started.elapsed())
}

/// `citadel_refused_total` for each reason, from the private metrics
/// address.
async fn refused(metrics: SocketAddr) -> HashMap<String, u64> {
    let text = reqwest::get(format!("http://{metrics}/metrics"))
        .await
        .expect("metrics answer")
        .text()
        .await
        .expect("metrics body");
    text.lines()
        .filter_map(|l| l.strip_prefix("citadel_refused_total{reason=\""))
        .filter_map(|l| l.split_once("\"} "))
        .map(|(reason, n)| (reason.to_string(), n.trim().parse().expect("a count")))
        .collect()
}

/// One round of the exhaustion attack: the greedy address opens its
/// connections first, then the crowd theirs, all at once; meanwhile a
/// new player tries to connect. Returns each connection's address and
/// fate, and whether the new player got in.
async fn exhaust_once(addr: SocketAddr, metrics: SocketAddr) -> (Vec<([u8; 4], Fate)>, bool) {
    let before = refused(metrics).await;
    let mut tasks = JoinSet::new();
    // In the accept queue first: the server lets in as many as one
    // address may hold, and refuses the rest of them.
    let greedy = [127, 0, 6, 1];
    for _ in 0..GREEDY {
        let started = Instant::now();
        let s = connect_from(greedy, addr).await.expect("connect");
        tasks.spawn(async move { (greedy, half_request(s, started).await) });
    }
    for a in 0..CROWD.0 {
        let from = [127, 0, 6, 2 + a];
        for _ in 0..CROWD.1 {
            tasks.spawn(async move {
                let started = Instant::now();
                let fate = match connect_from(from, addr).await {
                    Ok(s) => half_request(s, started).await,
                    // The backlog may overflow under the rush: refused too.
                    Err(_) => Fate::Refused,
                };
                (from, fate)
            });
        }
    }
    // Once the crowd has been turned away, the server is full: a new
    // player cannot get in either. (Of the crowd, as many as there are
    // slots left get in; which cap refuses the rest depends on the order
    // they come in.)
    let total = |m: &HashMap<String, u64>| {
        m.get("connections_full").copied().unwrap_or(0)
            + m.get("connections_per_address").copied().unwrap_or(0)
    };
    let want = (GREEDY - PER_ADDRESS) as u64 + CROWD.0 as u64 * CROWD.1 as u64
        - (CAP - 1 - PER_ADDRESS) as u64;
    let deadline = Instant::now() + STEP;
    loop {
        let now = refused(metrics).await;
        if total(&now) - total(&before) >= want {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the crowd was never turned away: {before:?} -> {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Refused, its handshake finds the socket closed.
    let got_in = ws_connect(addr).await.is_ok();
    let fates = join_all(tasks).await;
    let after = refused(metrics).await;
    assert!(
        after.get("connections_per_address").copied().unwrap_or(0)
            - before.get("connections_per_address").copied().unwrap_or(0)
            >= (GREEDY - PER_ADDRESS) as u64,
        "per-address refusals: {before:?} -> {after:?}"
    );
    assert!(
        total(&after) - total(&before) > want,
        "refusals (the crowd's, then the newcomer's): {before:?} -> {after:?}"
    );
    (fates, got_in)
}

/// What this proves, with the connection cap lowered to 40 (16 per
/// address, loopback counted) and a 3 s header timeout, over two rounds
/// while the bystander holds one of the 40: one address opening 24
/// half-sent requests keeps 16 and is refused the rest; 7 more
/// addresses opening 20 each fill the cap and are refused beyond it
/// (closed at once, and counted in `citadel_refused_total`); a new
/// player cannot connect while the cap is full; the held connections
/// are all closed by the header timeout, after which a new player gets
/// in and plays. The bystander's round trip stays under
/// [`ROUND_TRIP_BOUND`] throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_a_lowered_cap_are_refused_while_another_game_plays_on() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.max_connections = Some(CAP);
        config.max_connections_per_ip = PER_ADDRESS;
        config.limit_loopback = true;
        config.header_timeout_secs = EXHAUSTION_HEADER_TIMEOUT_SECS;
        // Its own gate: readable while the public cap is full.
        config.metrics_addr = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
        let server = server_with(config).await;
        let addr = server.addr();
        let metrics = server.metrics_addr().expect("a metrics address");
        let mut by = Bystander::start(addr).await;
        let rounds = during(&mut by, "descriptor exhaustion", async move {
            let mut rounds = Vec::new();
            for _ in 0..2 {
                rounds.push(exhaust_once(addr, metrics).await);
            }
            rounds
        })
        .await;
        let header_timeout = Duration::from_secs(EXHAUSTION_HEADER_TIMEOUT_SECS);
        for (round, (fates, newcomer_got_in)) in rounds.iter().enumerate() {
            assert!(
                !newcomer_got_in,
                "round {round}: a newcomer got in at the cap"
            );
            let held: Vec<&([u8; 4], Fate)> = fates
                .iter()
                .filter(|(_, f)| matches!(f, Fate::Held(_)))
                .collect();
            let greedy_held = held.iter().filter(|(a, _)| *a == [127, 0, 6, 1]).count();
            assert_eq!(
                greedy_held, PER_ADDRESS,
                "round {round}: the greedy address"
            );
            // Every slot but the bystander's (and perhaps the game
            // creation's connection, on its way out).
            assert!(
                (CAP - 2..CAP).contains(&held.len()),
                "round {round}: {} connections held at a cap of {CAP}",
                held.len()
            );
            for (_, fate) in held {
                if let Fate::Held(d) = fate {
                    assert!(
                        *d <= header_timeout + Duration::from_secs(3),
                        "round {round}: held {d:?}"
                    );
                }
            }
        }
        // The slots came back.
        let mut newcomer = Bystander::start_as(addr, "the newcomer").await;
        newcomer.round_trip().await;
        server.shutdown().await;
    })
    .await;
}

// ---------------------------------------------------------- ping flood

/// Flooders at once.
const FLOODERS: usize = 6;

/// Join `code` as a spectator, send WebSocket pings without reading
/// until the server stops taking them, then read to the end: the close
/// code (`None`: no close frame).
async fn flood_once(addr: SocketAddr, code: &str, pings: usize) -> Option<u16> {
    let mut ws = ws_connect(addr).await.expect("the flooder connects");
    let join = Join::Spectator {
        name: "Flood".into(),
    };
    send_json(&mut ws, "flooder", &hello(code, join)).await;
    let welcome = next_text(&mut ws, "flooder").await.expect("a welcome");
    assert!(welcome.contains(r#""type":"welcome""#), "{welcome}");
    for _ in 0..pings {
        // The server may close mid-flood: later sends may fail.
        if ws.send(Message::Ping(Vec::new().into())).await.is_err() {
            break;
        }
    }
    loop {
        match next_text(&mut ws, "flooder").await {
            Ok(_) => continue,
            Err(code) => return code,
        }
    }
}

/// What this proves: 6 clients in another game, each flooding WebSocket
/// ping frames (5 bursts' worth at once) and reconnecting to flood again
/// as soon as it is closed, for 4 s, are every time closed with
/// `RATE_LIMITED` (4008): pings count against the frame rate like any
/// message. The bystander's round trip stays under [`ROUND_TRIP_BOUND`]
/// throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ping_flood_is_closed_with_rate_limited_while_another_game_plays_on() {
    within(TEST_LIMIT, async {
        let config = citadel::config_for_tests();
        let pings = 5 * config.rate_burst as usize;
        let server = server_with(config).await;
        let addr = server.addr();
        let mut by = Bystander::start(addr).await;
        let flooded = create_game(addr, &c1m1_options(1, DarkLegionChoice::Ai)).await;
        let codes = during(&mut by, "ping flood", async move {
            let mut tasks = JoinSet::new();
            for _ in 0..FLOODERS {
                let code = flooded.clone();
                tasks.spawn(async move {
                    let until = Instant::now() + ATTACK_FOR;
                    let mut codes = Vec::new();
                    while Instant::now() < until {
                        codes.push(flood_once(addr, &code, pings).await);
                    }
                    codes
                });
            }
            join_all(tasks).await.concat()
        })
        .await;
        eprintln!("ping flood: {} floods", codes.len());
        assert!(codes.len() >= FLOODERS, "{codes:?}");
        assert!(
            codes.iter().all(|c| *c == Some(close::RATE_LIMITED)),
            "every flood ends with RATE_LIMITED: {codes:?}"
        );
        server.shutdown().await;
    })
    .await;
}

// ------------------------------------------------------- login guessing

/// Lowered login limits: attempts a minute per name, per address.
const PER_NAME: u32 = 3;
const PER_ADDRESS_LOGINS: u32 = 4;
/// Addresses guessing one account's password, and spraying guesses at
/// made-up names.
const GUESSERS: (u8, u8) = (4, 8);

/// One login answer: status, `Retry-After`, the body's `retry_after`.
type Answer = (StatusCode, Option<u64>, Option<u64>);

/// Log in from `from`, as fast as the server answers, with the name and
/// password `guess(n)` makes of the attempt's number: until `until`, and
/// at least until the first `429` (the hashes of the guesses let through
/// queue, so on a slow machine that can come later).
async fn guess(
    from: [u8; 4],
    base: String,
    until: Instant,
    guess: impl Fn(usize) -> (String, String),
) -> Vec<Answer> {
    let http = http_from(from);
    let mut answers: Vec<Answer> = Vec::new();
    let give_up = until + STEP;
    for n in 0.. {
        let throttled = answers
            .iter()
            .any(|(s, _, _)| *s == StatusCode::TOO_MANY_REQUESTS);
        if Instant::now() >= until && throttled {
            break;
        }
        assert!(Instant::now() < give_up, "{from:?} was never throttled");
        let (name, password) = guess(n);
        let res = http
            .post(format!("{base}/api/login"))
            .json(&json!({"name": name, "password": password}))
            .send()
            .await
            .expect("an answer");
        let status = res.status();
        let retry = res.headers().get("retry-after").map(|v| {
            v.to_str()
                .ok()
                .and_then(|s| s.parse().ok())
                .expect("seconds")
        });
        let body: Value = res.json().await.expect("a JSON body");
        answers.push((status, retry, body["retry_after"].as_u64()));
    }
    answers
}

/// Check one attacker's answers: each is `401` (a guess that was
/// checked) or `429` with `Retry-After` in seconds, the same in the
/// body. Returns how many were checked.
fn checked(answers: &[Answer]) -> usize {
    for (status, retry, body) in answers {
        match *status {
            StatusCode::UNAUTHORIZED => assert_eq!(*retry, None),
            StatusCode::TOO_MANY_REQUESTS => {
                let secs = retry.expect("429 without Retry-After");
                assert!((1..=60).contains(&secs), "Retry-After: {secs}");
                assert_eq!(*body, Some(secs), "the body's retry_after");
            }
            other => panic!("a guess was answered {other}"),
        }
    }
    answers
        .iter()
        .filter(|(s, _, _)| *s == StatusCode::UNAUTHORIZED)
        .count()
}

/// The most attempts a limit of `per_minute` lets through in `elapsed`:
/// the burst, then one every `60 / per_minute` seconds.
fn allowed(per_minute: u32, elapsed: Duration) -> usize {
    let every = 60.0 / f64::from(per_minute);
    per_minute as usize + (elapsed.as_secs_f64() / every) as usize
}

/// What this proves, with the limits lowered to 3 attempts a minute per
/// name and 4 per address (loopback counted): for 4 s (and until each
/// has been throttled), 4 addresses guess one account's password and 8
/// more spray guesses at made-up names, each as fast as the server
/// answers. Only 3 guesses at the account are checked (each costs a
/// password hash), and 4 from each spraying address (plus one for every
/// 15 s the attack lasts, as the limits refill); every other attempt is
/// `429` with `Retry-After`. The hashes the attack does get (35, 4 at a
/// time) run off the async threads, so the bystander's round trip stays
/// under [`ROUND_TRIP_BOUND`] throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_guessing_is_throttled_while_another_game_plays_on() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.login_per_account = PER_NAME;
        config.login_per_address = PER_ADDRESS_LOGINS;
        config.limit_loopback = true;
        let server = server_with(config).await;
        let addr = server.addr();
        let base = format!("http://{addr}");
        let res = reqwest::Client::new()
            .post(format!("{base}/api/accounts"))
            .json(&json!({"name": "Victim", "password": "correct horse"}))
            .send()
            .await
            .expect("register");
        assert_eq!(res.status(), StatusCode::CREATED);
        let mut by = Bystander::start(addr).await;
        let started = Instant::now();
        let (at_victim, sprayed) = during(&mut by, "login guessing", async move {
            let until = Instant::now() + ATTACK_FOR;
            let mut victim = JoinSet::new();
            for i in 1..=GUESSERS.0 {
                let base = base.clone();
                victim.spawn(guess([127, 0, 7, i], base, until, move |n| {
                    ("Victim".into(), format!("guess {i} {n}"))
                }));
            }
            let mut spray = JoinSet::new();
            for i in 1..=GUESSERS.1 {
                let base = base.clone();
                spray.spawn(guess([127, 0, 8, i], base, until, move |n| {
                    (format!("user{i}x{n}"), "password1".into())
                }));
            }
            (join_all(victim).await, join_all(spray).await)
        })
        .await;
        let elapsed = started.elapsed();
        let victim_checked: usize = at_victim.iter().map(|a| checked(a)).sum();
        assert!(
            (PER_NAME as usize..=allowed(PER_NAME, elapsed)).contains(&victim_checked),
            "{victim_checked} guesses at one name were checked in {elapsed:?}"
        );
        for answers in &sprayed {
            let n = checked(answers);
            assert!(
                (PER_ADDRESS_LOGINS as usize..=allowed(PER_ADDRESS_LOGINS, elapsed)).contains(&n),
                "{n} guesses from one address were checked in {elapsed:?}"
            );
            assert!(answers.len() > n, "the sprayer was never throttled");
        }
        let attempts: usize = at_victim.iter().chain(&sprayed).map(Vec::len).sum();
        eprintln!("login guessing: {attempts} attempts");
        server.shutdown().await;
    })
    .await;
}

// ---------------------------------------------------- a stopped reader

/// Readers that stop reading.
const DEAF: usize = 3;
/// The lowered write timeout, milliseconds.
const WRITE_TIMEOUT_MS: u64 = 1000;

/// A spectator of `code` whose socket reads nothing: a 4 KiB receive
/// buffer, and nothing polls it until the test says so.
async fn deaf_spectator(addr: SocketAddr, code: &str) -> Ws {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("rcvbuf");
    let stream = socket.connect(addr).await.expect("connect");
    let (mut ws, _) =
        tokio_tungstenite::client_async(format!("ws://{addr}/ws"), MaybeTlsStream::Plain(stream))
            .await
            .expect("handshake");
    let join = Join::Spectator {
        name: "Deaf".into(),
    };
    send_json(&mut ws, "deaf", &hello(code, join)).await;
    ws
}

/// What this proves, with a 1 s write timeout and a queue too large to
/// fill: 3 spectators of another game ask for 400 snapshots each (about
/// 27 KB apiece, more than loopback socket buffers hold) and then read
/// nothing, while that game's player keeps playing. A write to each
/// times out, and the game hears at once that they are gone (its lobby
/// shows no spectator while they still read nothing; it used to count
/// them for the 30 s their close frame may wait) and its player's
/// answers keep coming. Each deaf spectator, when it reads at last,
/// finds `TOO_SLOW` (4010) after what was already on its way. The
/// bystander's round trip stays under [`ROUND_TRIP_BOUND`] throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readers_that_stop_reading_are_closed_with_too_slow_while_another_game_plays_on() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        // A queue that never fills: the write timeout is what cuts them.
        config.send_queue = 100_000;
        config.write_timeout_ms = WRITE_TIMEOUT_MS;
        // The deaf spectators' requests must not be what closes them.
        config.rate_burst = 1000;
        let server = server_with(config).await;
        let addr = server.addr();
        let mut by = Bystander::start(addr).await;
        let codes = during(&mut by, "stopped readers", async move {
            let mut host = Bystander::start_as(addr, "the deaf spectators' host").await;
            let mut deaf = Vec::new();
            for _ in 0..DEAF {
                deaf.push(deaf_spectator(addr, &host.code).await);
            }
            host.wait(
                "the deaf spectators",
                |m| matches!(m, ServerMsg::Lobby { lobby } if lobby.spectators == DEAF as u32),
            )
            .await;
            let resync = serde_json::to_string(&ClientMsg::Resync).expect("json");
            for ws in &mut deaf {
                for _ in 0..400 {
                    // Small frames: they fit the socket buffers even
                    // unread. The server may cut it off during these
                    // already: later sends may fail.
                    if ws.send(Message::text(resync.clone())).await.is_err() {
                        break;
                    }
                }
            }
            // The game goes on (a command or a chat line from its player
            // every 100 ms, each answered in time) for 4 s and until it
            // has dropped the deaf without waiting for them: its lobby
            // shows no spectator while they still read nothing.
            let started = Instant::now();
            let mut dropped_after = None;
            while started.elapsed() < ATTACK_FOR || dropped_after.is_none() {
                assert!(
                    started.elapsed() < Duration::from_secs(15),
                    "the deaf spectators were never dropped"
                );
                host.round_trip().await;
                if dropped_after.is_none() && host.spectators == Some(0) {
                    dropped_after = Some(started.elapsed());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            eprintln!("stopped readers: dropped after {dropped_after:?}");
            // Now they read: what was on its way, then the close.
            let mut codes = Vec::new();
            for ws in &mut deaf {
                let code = loop {
                    match next_text(ws, "deaf").await {
                        Ok(_) => continue,
                        Err(code) => break code,
                    }
                };
                codes.push(code);
            }
            codes
        })
        .await;
        assert_eq!(
            codes,
            [Some(close::TOO_SLOW); DEAF],
            "the deaf spectators' close codes"
        );
        server.shutdown().await;
    })
    .await;
}
