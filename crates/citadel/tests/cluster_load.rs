//! Cluster mode under load: three `citadel` nodes on loopback sharing one
//! Postgres and one NATS, several games played at a steady pace by
//! clients spread over the nodes, while every node is restarted one by
//! one. What may happen to a client is a close with 1001 and a reconnect
//! with its last seq; anything else is an error. Every acknowledged
//! command must be in Postgres at the end.
//!
//! Needs Postgres (`CITADEL_TEST_DATABASE_URL`) and NATS
//! (`CITADEL_TEST_NATS_URL`); skips (passing) when either is unreachable,
//! unless `CITADEL_REQUIRE_ALL=1`.

mod common;
#[path = "cluster_load/client.rs"]
mod load_client;
use common::nats::nats_url;
use common::node::{start_stoppable, stop_gracefully, Node, Stop};
use common::pg::with_db;
use load_client::{GameRun, Live, Outcome};

use citadel_server::config::Config;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(150);

/// Games played at once.
const GAMES: usize = 8;
/// Each game's pause between two commands: 8 games at ~6 commands/s each
/// keeps the three debug-build nodes busy but not saturated on two cores.
const PACE: Duration = Duration::from_millis(150);
/// Play between two restarts.
const PLAY_BETWEEN: Duration = Duration::from_secs(3);

/// A node id no other test run uses (ids name NATS subjects).
fn nid(node: &str) -> String {
    format!("load-{}-{node}", std::process::id())
}

fn node_config(db: &str, nats: &str, id: &str) -> Config {
    let mut c = citadel::config_for_tests();
    c.database_url = db.to_string();
    c.nats_url = Some(nats.to_string());
    c.node_id = Some(id.to_string());
    // A graceful stop releases its leases, so nobody waits for one to run
    // out; a long lease keeps a slow debug build from losing one.
    c.lease_ttl = Duration::from_secs(60);
    c.lease_renew = Duration::from_secs(1);
    // No seat is handed to a bot while its player reconnects; the test's
    // pace is no flood.
    c.grace_secs = 600;
    c.rate_per_sec = 10_000;
    c.rate_burst = 10_000;
    c
}

struct Running {
    id: String,
    _node: Node,
    addr: SocketAddr,
    stop: Option<Stop>,
}

async fn start(db: &str, nats: &str, id: String) -> Running {
    let (node, addr, stop) = start_stoppable(node_config(db, nats, &id)).await;
    Running {
        id,
        _node: node,
        addr,
        stop: Some(stop),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_under_load_loses_no_acknowledged_command() {
    let Some(nats) = nats_url("cluster_load_rolling").await else {
        return;
    };
    with_db("cluster_load_rolling", LIMIT, move |db| async move {
        let began = Instant::now();
        let mut nodes = Vec::new();
        for n in ["a", "b", "c"] {
            nodes.push(start(&db, &nats, nid(n)).await);
        }
        let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
        let live = Live::new(&addrs);
        // Game g is created on node g % 3 (so each node owns some) and its
        // two players and spectator sit one per node.
        let mut runs = Vec::new();
        for g in 0..GAMES {
            let at = [addrs[(g + 1) % 3], addrs[(g + 2) % 3], addrs[g % 3]];
            runs.push(GameRun::start(addrs[g % 3], at, g).await);
        }
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let tasks: Vec<_> = runs
            .into_iter()
            .enumerate()
            .map(|(slot, r)| tokio::spawn(keep_playing(slot, r, live.clone(), stop_rx.clone())))
            .collect();
        eprintln!("{GAMES} games started after {} ms", began.elapsed().as_millis());

        tokio::time::sleep(PLAY_BETWEEN).await;
        let mut restarts = Vec::new();
        for node in &mut nodes {
            // Out of the rotation first, so nobody reconnects to it; then
            // a graceful stop (each game stores its last batch, closes its
            // sockets with 1001 and releases its lease).
            live.remove(node.addr);
            let stopping = Instant::now();
            let stop = node.stop.take().expect("a running node");
            stop_gracefully(stop).await;
            let stopped = stopping.elapsed();
            // Its replacement: a new node id, a new port.
            let id = format!("{}2", node.id);
            *node = start(&db, &nats, id).await;
            live.add(node.addr);
            restarts.push((stopped, stopping.elapsed()));
            tokio::time::sleep(PLAY_BETWEEN).await;
        }
        let _ = stop_tx.send(true);
        let mut outcomes: Vec<Outcome> = Vec::new();
        for t in tasks {
            match t.await {
                Ok(o) => outcomes.extend(o),
                Err(e) => std::panic::resume_unwind(e.into_panic()),
            }
        }

        let mut acked = 0;
        let mut reconnects = 0;
        for o in &outcomes {
            assert_eq!(o.errors, Vec::<String>::new(), "game {}: errors", o.code);
            for c in &o.clients {
                assert_eq!(c.gaps, [], "game {} {}: gaps in seqs", o.code, c.label);
                assert!(
                    c.closes.iter().all(|code| *code == Some(1001)),
                    "game {} {}: closed only with 1001 (going away): {:?}",
                    o.code,
                    c.label,
                    c.closes
                );
                assert_eq!(c.covered, o.clients[0].covered, "game {}: everyone caught up", o.code);
                reconnects += c.reconnects;
            }
            // A game still going at the end whose clients moved played on
            // after they came back (the last restart was PLAY_BETWEEN
            // before the end): they resumed.
            let moved = o.clients.iter().any(|c| c.reconnects > 0);
            assert!(
                o.acked_since_rejoin > 0 || o.finished || !moved,
                "game {}: no command acknowledged after its clients came back",
                o.code
            );
            let stored = load_client::stored_human_commands(&db, &o.code).await;
            let acked_cmds: Vec<_> = o.acked.iter().map(|(seat, c)| (*seat, c.clone())).collect();
            assert!(
                is_subsequence(&acked_cmds, &stored),
                "game {}: every acknowledged command is stored, in order",
                o.code
            );
            // Stored but not acknowledged: only commands whose ack a close
            // cut off (committed just before the node stopped).
            assert!(
                stored.len() - acked_cmds.len() <= o.in_doubt,
                "game {}: {} stored, {} acked, {} in doubt",
                o.code,
                stored.len(),
                acked_cmds.len(),
                o.in_doubt
            );
            acked += acked_cmds.len();
        }
        let in_doubt: usize = outcomes.iter().map(|o| o.in_doubt).sum();
        let finished = outcomes.iter().filter(|o| o.finished).count();
        eprintln!(
            "rolling restart under load: {GAMES} games at a time ({} in all), {acked} commands acked \
             and stored, {in_doubt} cut off before their ack, {reconnects} reconnects, {finished} games \
             finished; \
             stops took {:?} ms (stop, stop + new node), whole test {} ms",
            outcomes.len(),
            restarts
                .iter()
                .map(|(s, r)| (s.as_millis(), r.as_millis()))
                .collect::<Vec<_>>(),
            began.elapsed().as_millis()
        );
        assert!(acked > GAMES * 10, "the games were played: {acked} commands");
        // The first games started on the three first nodes, and each of
        // those was stopped, long before a game can end.
        assert!(reconnects >= GAMES, "clients moved: {reconnects} reconnects");

    })
    .await;
}

/// Is `part` `whole` with some elements left out?
fn is_subsequence<T: PartialEq>(part: &[T], whole: &[T]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|p| rest.any(|w| w == p))
}

/// Keep slot `slot` busy until told to stop: play its game, and when a
/// game ends, set up a new one on the live nodes (so the load stays level
/// through every restart). Returns every game's outcome.
async fn keep_playing(
    slot: usize,
    first: GameRun,
    live: Live,
    stop: tokio::sync::watch::Receiver<bool>,
) -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    let mut run = first;
    for n in 1.. {
        let o = run.play(live.clone(), stop.clone(), PACE).await;
        let finished = o.finished;
        outcomes.push(o);
        if !finished {
            break;
        }
        run = loop {
            if *stop.borrow() {
                return outcomes;
            }
            let nodes = live.now();
            if !nodes.is_empty() {
                let at = |k: usize| nodes[(slot + k) % nodes.len()];
                let label = n * GAMES + slot;
                if let Some(r) = GameRun::try_start(at(0), [at(1), at(2), at(0)], label).await {
                    break r;
                }
            }
            // A node on the way was stopping: try again.
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
    }
    outcomes
}
