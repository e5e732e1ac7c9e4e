//! Cluster mode when NATS goes down mid-game (docs/SCALING.md, "Failure
//! cases"): the owner's game keeps running for the players on the owner;
//! the sockets forwarded through another node are closed with 1001; each
//! node's `/readyz` answers 503 naming NATS; once NATS is back, the
//! forwarded clients resume with their last seq and the game goes on,
//! with every acknowledged command stored.
//!
//! Runs a NATS server of its own on a free loopback port (never the shared
//! one), which it kills and starts again. Needs `nats-server` and Postgres
//! (`CITADEL_TEST_DATABASE_URL`); skips (passing) without them, unless
//! `CITADEL_REQUIRE_ALL=1`.

mod common;
#[path = "cluster_load/client.rs"]
mod load_client;
use common::nats::PrivateNats;
use common::node::{start_stoppable, Node};
use common::pg::with_db;
use load_client::{prefer_action, Answer, GameRun, Live};

use citadel_rules::game::Command;
use citadel_server::config::Config;
use serde_json::Value;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);
const LEASE_TTL: Duration = Duration::from_secs(2);
const LEASE_RENEW: Duration = Duration::from_millis(400);

fn node_config(db: &str, nats: &str, id: &str) -> Config {
    let mut c = citadel::config_for_tests();
    c.database_url = db.to_string();
    c.nats_url = Some(nats.to_string());
    c.node_id = Some(id.to_string());
    c.lease_ttl = LEASE_TTL;
    c.lease_renew = LEASE_RENEW;
    // Nobody's seat goes to a bot while its player is away.
    c.grace_secs = 600;
    c.rate_per_sec = 10_000;
    c.rate_burst = 10_000;
    c
}

/// `/readyz` of a node: status and body.
async fn readyz(addr: SocketAddr) -> (u16, Value) {
    let r = reqwest::get(format!("http://{addr}/readyz"))
        .await
        .expect("GET /readyz");
    let status = r.status().as_u16();
    (status, r.json().await.expect("a JSON body"))
}

/// Commands acknowledged so far, and the next client_ref.
struct Played {
    acked: Vec<(u8, Command)>,
    next_ref: u64,
}

impl Played {
    /// One command by client `who` (it must be able to act); acked.
    async fn by(&mut self, g: &mut GameRun, who: usize) {
        let c = &mut g.clients[who];
        let command = prefer_action(c.legal());
        let r = self.next_ref;
        self.next_ref += 1;
        assert_eq!(
            c.command(r, &command).await,
            Answer::Acked,
            "{}: {command:?}",
            c.label()
        );
        self.acked.push((c.seat().expect("a player"), command));
    }

    /// One command by whoever may act, then everyone drained.
    async fn step(&mut self, g: &mut GameRun) {
        let who = actor(g);
        self.by(g, who).await;
        for c in &mut g.clients {
            assert!(c.drain().await, "{}: still connected", c.label());
        }
    }
}

/// The player who may act (after a drain).
fn actor(g: &GameRun) -> usize {
    let acting: Vec<usize> = (0..2)
        .filter(|&i| !g.clients[i].legal().is_empty())
        .collect();
    assert_eq!(acting.len(), 1, "exactly one player may act: {acting:?}");
    acting[0]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nats_down_mid_game_keeps_the_owners_game_and_forwarded_clients_resume() {
    let Some(mut nats) = PrivateNats::start("cluster_nats_down").await else {
        return;
    };
    let url = nats.url();
    with_db("cluster_nats_down", LIMIT, move |db| async move {
        let pid = std::process::id();
        let (_a, addr_a, _stop_a) =
            start_stoppable(node_config(&db, &url, &format!("natsdown-{pid}-a"))).await;
        let (_b, addr_b, _stop_b): (Node, SocketAddr, _) =
            start_stoppable(node_config(&db, &url, &format!("natsdown-{pid}-b"))).await;
        // The game runs on a; Ann plays there, Bob and Eve through b.
        let mut g = GameRun::start(addr_a, [addr_a, addr_b, addr_b], 0).await;
        let mut played = Played {
            acked: Vec::new(),
            next_ref: 1,
        };
        // Play (Bob's commands are forwarded) until it is Ann's turn.
        for _ in 0..4 {
            played.step(&mut g).await;
        }
        while actor(&g) != 0 {
            played.step(&mut g).await;
        }

        nats.kill();
        let killed = Instant::now();
        // The forwarded sockets are closed with 1001 (going away).
        for i in [1, 2] {
            let c = &mut g.clients[i];
            let code = c.closed_within(Duration::from_secs(8)).await;
            assert_eq!(code, Some(Some(1001)), "{}: told to reconnect", c.label());
        }
        let told = killed.elapsed();
        // Both nodes say they are not ready, and why: each as soon as its
        // NATS client has seen the connection drop (a node whose one
        // worker thread is busy may take a moment; the owner has no
        // proxy to tell the test when it noticed).
        for addr in [addr_a, addr_b] {
            let deadline = Instant::now() + Duration::from_secs(5);
            let (status, body) = loop {
                let (status, body) = readyz(addr).await;
                if status != 200 || Instant::now() >= deadline {
                    break (status, body);
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            };
            assert_eq!(status, 503, "{addr}: {body}");
            let why = body["nats"].as_str().unwrap_or_default().to_string();
            assert!(why.starts_with("unavailable"), "{addr}: nats is {why:?}");
        }
        // Bob cannot come back through b meanwhile: told at once to try
        // again, not left waiting.
        let refused_at = Instant::now();
        let refused = g.clients[1].try_rejoin_once(addr_b, &g.code).await;
        assert_eq!(refused, Some(Some(1001)), "Bob's hello through b refused");
        assert!(
            refused_at.elapsed() < Duration::from_secs(3),
            "refused without waiting for the hello's time-out: {:?}",
            refused_at.elapsed()
        );
        // Ann, on the owner, plays on: her commands are stored and acked.
        let before = g.clients[0].covered();
        let mut during = 0;
        while during < 3 && !g.clients[0].legal().is_empty() {
            played.by(&mut g, 0).await;
            assert!(g.clients[0].drain().await, "Ann: still connected");
            during += 1;
        }
        assert!(during > 0, "Ann played while NATS was down");
        assert!(g.clients[0].covered() > before, "Ann saw her events");
        assert_eq!(
            load_client::stored_human_commands(&db, &g.code).await,
            played.acked,
            "stored while NATS is down"
        );

        nats.restart().await;
        let restarted = Instant::now();
        // Ready again once each node has reconnected by itself.
        for addr in [addr_a, addr_b] {
            loop {
                let (status, body) = readyz(addr).await;
                if status == 200 {
                    break;
                }
                assert!(
                    restarted.elapsed() < Duration::from_secs(30),
                    "{addr} not ready after NATS came back: {body}"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        let ready = restarted.elapsed();
        // Bob and Eve come back through b with their last seq and catch up
        // with what Ann played meanwhile.
        let through_b = Live::new(&[addr_b]);
        for i in [1, 2] {
            assert!(
                g.clients[i].rejoin(&through_b, &g.code).await,
                "the game goes on"
            );
        }
        let resumed = restarted.elapsed();
        for c in &mut g.clients {
            assert!(c.drain().await, "{}: connected", c.label());
        }
        let seq = g.clients[0].covered();
        for c in &g.clients {
            assert_eq!(c.covered(), seq, "{}: caught up", c.label());
            assert_eq!(c.log().gaps, [], "{}: no gap in seqs", c.label());
            assert_eq!(c.errors(), [] as [String; 0], "{}: no error", c.label());
        }
        assert_eq!(g.clients[0].log().closes, [], "Ann's socket was never closed");
        // The game goes on across the nodes, Bob's commands forwarded.
        let bob = g.clients[1].seat().expect("Bob's seat");
        let bobs = |played: &Played| played.acked.iter().filter(|(s, _)| *s == bob).count();
        let bob_before = bobs(&played);
        for _ in 0..40 {
            played.step(&mut g).await;
            if bobs(&played) > bob_before + 1 {
                break;
            }
        }
        assert!(
            bobs(&played) > bob_before,
            "Bob played through b after NATS came back"
        );
        assert_eq!(
            load_client::stored_human_commands(&db, &g.code).await,
            played.acked,
            "every acknowledged command, and only those, is stored"
        );
        eprintln!(
            "NATS down: forwarded sockets closed {} ms after the kill, Ann played {during} commands \
             meanwhile; after the restart the nodes were ready in {} ms and Bob and Eve resumed in {} ms",
            told.as_millis(),
            ready.as_millis(),
            resumed.as_millis()
        );
    })
    .await;
}
