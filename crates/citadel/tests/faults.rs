//! Database faults (issue #17, items 12 and 13): the server reaches
//! Postgres through a TCP proxy this test controls, and the proxy goes
//! silent — a partition that never resets a connection, the worst case.
//!
//! Asserted: a player whose command cannot be stored is told (close 1011)
//! within the stated bound (`persistence::WRITE_FAILURE_BOUND` and a
//! margin), never acknowledged; `/readyz` says the store is unavailable
//! while `/healthz` stays up; when the database is reachable again the
//! server is ready again by itself, the game loads on demand when its
//! player comes back, every acknowledged command is there, and play goes
//! on.
//!
//! Needs Postgres (see `common::pg`).

#![allow(clippy::unwrap_used)]

mod common;
use common::{DarkLegionChoice, GameOptions};

use citadel_protocol::{ClientMsg, ErrorCode, Join, ServerMsg, PROTOCOL_VERSION};
use citadel_rules::game::Command;
use citadel_server::persistence::WRITE_FAILURE_BOUND;
use citadel_server::Server;
use common::pg::Db;
use common::{next_text, send_json, within, Ws};
use futures_util::StreamExt;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

const TEST_LIMIT: Duration = Duration::from_secs(90);

/// What the proxy does with traffic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Forward both ways.
    Open,
    /// Keep every connection open and forward nothing: a silent
    /// partition. Leaving this mode drops the connections it held, as a
    /// healed network's peers eventually do.
    Silent,
}

/// A TCP proxy in front of the test's Postgres.
struct Proxy {
    addr: SocketAddr,
    mode: watch::Sender<Mode>,
}

impl Proxy {
    async fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (mode, _) = watch::channel(Mode::Open);
        let modes = mode.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let rx = modes.subscribe();
                tokio::spawn(pipe(client, upstream.clone(), rx));
            }
        });
        Proxy { addr, mode }
    }

    fn set(&self, mode: Mode) {
        self.mode.send_replace(mode);
    }
}

/// Serve one client connection in the proxy's current mode until the mode
/// changes, then drop it.
async fn pipe(mut client: TcpStream, upstream: String, mut mode: watch::Receiver<Mode>) {
    let now = *mode.borrow_and_update();
    match now {
        Mode::Open => {
            let Ok(mut server) = TcpStream::connect(&upstream).await else {
                return;
            };
            tokio::select! {
                _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                _ = mode.changed() => {
                    // Silent now: hold both ends, forward nothing, until
                    // the network heals; then both are dropped.
                    let _ = mode.wait_for(|m| *m == Mode::Open).await;
                }
            }
        }
        Mode::Silent => {
            let _ = mode.wait_for(|m| *m == Mode::Open).await;
        }
    }
}

/// `host:port` of a `postgres://user@host:port/db` URL, and the URL with
/// that part replaced by `to`.
fn split_host(url: &str, to: SocketAddr) -> (String, String) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let start = url[after_scheme..]
        .find('@')
        .map_or(after_scheme, |i| after_scheme + i + 1);
    let end = url[start..].find('/').map_or(url.len(), |i| start + i);
    let host = url[start..end].to_string();
    let host = if host.contains(':') {
        host
    } else {
        format!("{host}:5432")
    };
    (host, format!("{}{to}{}", &url[..start], &url[end..]))
}

/// A player's socket and what it has seen.
struct Player {
    ws: Ws,
    legal: Vec<Command>,
    seq: u64,
}

impl Player {
    async fn connect(addr: SocketAddr, game: &str, join: Join) -> (Player, Option<String>) {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .unwrap();
        let mut p = Player {
            ws,
            legal: Vec::new(),
            seq: 0,
        };
        let hello = ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            game: game.into(),
            join,
            last_seq: None,
            account: None,
        };
        send_json(&mut p.ws, "player", &hello).await;
        let token = match p.next().await {
            ServerMsg::Welcome { token, .. } => token,
            other => panic!("expected welcome, got {other:?}"),
        };
        (p, token)
    }

    async fn next(&mut self) -> ServerMsg {
        let text = next_text(&mut self.ws, "player")
            .await
            .unwrap_or_else(|close| panic!("closed: {close:?}"));
        let msg: ServerMsg = serde_json::from_str(&text).unwrap();
        match &msg {
            ServerMsg::Snapshot { seq, legal, .. } => {
                self.seq = *seq;
                self.legal = legal.parse().expect("legal commands");
            }
            ServerMsg::Events { events, legal, .. } => {
                if let Some(last) = events.last() {
                    self.seq = last.seq;
                }
                self.legal = legal.parse().expect("legal commands");
            }
            _ => {}
        }
        msg
    }

    /// Wait until a command is legal for this player.
    async fn until_my_turn(&mut self) {
        while self.legal.is_empty() {
            self.next().await;
        }
    }

    /// Send the first legal command and wait for its ack.
    async fn play(&mut self, client_ref: u64) {
        self.until_my_turn().await;
        let command = self.legal[0].clone();
        self.legal.clear();
        send_json(
            &mut self.ws,
            "player",
            &ClientMsg::Command {
                client_ref: Some(client_ref),
                command: citadel_protocol::Json::of(&command),
            },
        )
        .await;
        loop {
            if let ServerMsg::Ack {
                client_ref: Some(r),
                ..
            } = self.next().await
            {
                assert_eq!(r, client_ref);
                return;
            }
        }
    }
}

/// Poll `/readyz` until it says 200, for at most `limit`.
async fn until_ready(http: &reqwest::Client, addr: SocketAddr, limit: Duration) {
    let since = Instant::now();
    loop {
        let (status, body) = ready(http, addr).await;
        if status == 200 {
            assert_eq!(body["ready"], true);
            return;
        }
        assert!(
            since.elapsed() < limit,
            "not ready within {limit:?}: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn ready(http: &reqwest::Client, addr: SocketAddr) -> (u16, serde_json::Value) {
    let resp = http
        .get(format!("http://{addr}/readyz"))
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_database_is_reported_in_time_and_play_resumes_when_it_returns() {
    let Some(db) = Db::create("faults").await else {
        return;
    };
    let direct = db.url();
    let (upstream, _) = split_host(&db.base, "127.0.0.1:1".parse().unwrap());
    let proxy = Proxy::start(upstream).await;
    let (_, proxied) = split_host(&db.base, proxy.addr);
    let url = db.url_on(&proxied);
    let outcome = tokio::spawn(within(TEST_LIMIT, async move {
        let mut config = citadel::config_for_tests();
        config.database_url = url;
        let server = Server::start(config).await.unwrap();
        let addr = server.addr();
        let http = reqwest::Client::new();
        // Ready once the boot restore is done (at once: nothing to restore).
        until_ready(&http, addr, Duration::from_secs(10)).await;

        // A one-player game against the AI Dark Legion, three commands in.
        let options = GameOptions {
            mission: "ce-c1m1".into(),
            seats: 1,
            dark_legion: DarkLegionChoice::Ai,
            starting_rank: 1,
            turn_seconds: None,
        };
        let created: serde_json::Value = http
            .post(format!("http://{addr}/api/games"))
            .json(&options)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let code = created["code"].as_str().unwrap().to_string();
        let (mut p, token) =
            Player::connect(addr, &code, Join::Player { name: "Ann".into() }).await;
        let token = token.unwrap();
        send_json(&mut p.ws, "player", &ClientMsg::Ready { ready: true }).await;
        send_json(&mut p.ws, "player", &ClientMsg::Start).await;
        for r in 1..=3 {
            p.play(r).await;
        }
        let acked_seq = p.seq;

        // The network to the database goes silent.
        proxy.set(Mode::Silent);
        let cut = Instant::now();
        p.until_my_turn().await;
        let command = p.legal[0].clone();
        send_json(
            &mut p.ws,
            "player",
            &ClientMsg::Command {
                client_ref: Some(99),
                command: citadel_protocol::Json::of(&command),
            },
        )
        .await;
        // Told, and never acknowledged.
        let deadline = cut + WRITE_FAILURE_BOUND + Duration::from_secs(5);
        let mut delayed_after = None;
        let close = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let frame = tokio::time::timeout(left, p.ws.next())
                .await
                .unwrap_or_else(|_| panic!("not told within {WRITE_FAILURE_BOUND:?} + 5 s"));
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let msg: ServerMsg = serde_json::from_str(text.as_str()).unwrap();
                    if let ServerMsg::Error {
                        code: ErrorCode::StorageDelayed,
                        ..
                    } = msg
                    {
                        delayed_after.get_or_insert(cut.elapsed());
                    }
                    assert!(
                        !matches!(
                            msg,
                            ServerMsg::Ack {
                                client_ref: Some(99),
                                ..
                            }
                        ),
                        "a command that could not be stored was acknowledged"
                    );
                }
                Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => {}
                Some(Err(_)) | None => break None,
            }
        };
        let told_after = cut.elapsed();
        assert_eq!(close, Some(1011));
        // First told that saving is delayed, about a second in.
        let delayed_after = delayed_after.expect("a storage_delayed error before the close");
        assert!(delayed_after < Duration::from_secs(4), "{delayed_after:?}");
        println!("storage_delayed after {delayed_after:?}");
        assert!(told_after <= WRITE_FAILURE_BOUND + Duration::from_secs(5));
        println!("a silent database was reported after {told_after:?}");

        // Alive, but not ready.
        let health = http
            .get(format!("http://{addr}/healthz"))
            .send()
            .await
            .unwrap();
        assert_eq!(health.status().as_u16(), 200);
        let (status, body) = ready(&http, addr).await;
        assert_eq!(status, 503, "{body}");
        assert_ne!(body["store"], "ok");

        // The network heals: ready again by itself...
        proxy.set(Mode::Open);
        until_ready(&http, addr, Duration::from_secs(20)).await;
        // ... the game loads on demand when its player comes back, with
        // everything acknowledged ...
        let (mut back, _) = Player::connect(addr, &code, Join::Resume { token }).await;
        loop {
            if let ServerMsg::Snapshot { seq, .. } = back.next().await {
                assert!(seq >= acked_seq, "{seq} < {acked_seq}");
                break;
            }
        }
        // ... and play goes on.
        back.play(100).await;
        server.shutdown().await;

        let store = citadel_store::open(&direct).await.unwrap();
        let stored = store.commands(&code).await.unwrap();
        assert!(stored.len() >= 4, "{} commands stored", stored.len());
    }))
    .await;
    db.drop_schema().await;
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// While the database does not answer (a silent partition), creating a
/// game is answered `503` with `Retry-After` and a JSON error saying the
/// storage is unavailable, not `500` "internal error"; once the database
/// answers again, games are created as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_a_game_while_the_database_is_down_is_503_with_retry_after() {
    let Some(db) = Db::create("faults503").await else {
        return;
    };
    let (upstream, _) = split_host(&db.base, "127.0.0.1:1".parse().unwrap());
    let proxy = Proxy::start(upstream).await;
    let (_, proxied) = split_host(&db.base, proxy.addr);
    let url = db.url_on(&proxied);
    let outcome = tokio::spawn(within(TEST_LIMIT, async move {
        let mut config = citadel::config_for_tests();
        config.database_url = url;
        let server = Server::start(config).await.unwrap();
        let addr = server.addr();
        let http = reqwest::Client::new();
        until_ready(&http, addr, Duration::from_secs(10)).await;
        let options = GameOptions {
            mission: "ce-c1m1".into(),
            seats: 1,
            dark_legion: DarkLegionChoice::Ai,
            starting_rank: 1,
            turn_seconds: None,
        };
        let create = || {
            http.post(format!("http://{addr}/api/games"))
                .json(&options)
                .send()
        };

        proxy.set(Mode::Silent);
        let resp = create().await.unwrap();
        assert_eq!(resp.status().as_u16(), 503);
        let retry_after: u64 = resp
            .headers()
            .get("retry-after")
            .expect("a Retry-After header")
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(retry_after >= 1, "{retry_after}");
        let body: serde_json::Value = resp.json().await.unwrap();
        assert_eq!(body["error"], 503, "{body}");
        assert_eq!(body["retry_after"], retry_after, "{body}");
        let message = body["message"].as_str().unwrap();
        assert!(message.contains("storage is unavailable"), "{body}");

        proxy.set(Mode::Open);
        until_ready(&http, addr, Duration::from_secs(20)).await;
        assert_eq!(create().await.unwrap().status().as_u16(), 201);
        server.shutdown().await;
    }))
    .await;
    db.drop_schema().await;
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}
