//! Game ownership across nodes (cluster mode): registries of several
//! "nodes" on one Postgres, each game running on exactly one of them.
//!
//! Each node is a registry on a tokio runtime of its own
//! ([`common::node::Node`]), with its own connections to the database, so
//! that killing one stops all its tasks at once, leases unreleased, as a
//! crashed process would.
//!
//! Postgres: `CITADEL_TEST_DATABASE_URL`; skipped (passing) if it is
//! unreachable, unless `CITADEL_REQUIRE_ALL=1`.

#![allow(clippy::unwrap_used)]

mod common;
use common::c1m1_options;
use common::node::Node;
use common::pg::with_db;
use common::DarkLegionChoice;

use citadel_server::abandonment::AbandonLimits;
use citadel_server::campaign_ledger::CampaignLedger;
use citadel_server::lease::{LeaseConfig, Ownership};
use citadel_server::metrics::Metrics;
use citadel_server::persistence::GameStore;
use citadel_server::registry::{LeaseRound, Registry};
use citadel_server::session::SessionConfig;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

const LIMIT: Duration = Duration::from_secs(60);

/// A registry on `url`: alone, or the cluster node `id` with these lease
/// times. Must run on the runtime that will run its games.
async fn registry(url: &str, ownership: Ownership) -> Arc<Registry> {
    let store = citadel_server::open_store(url).await.unwrap();
    let (shutdown, _) = broadcast::channel(1);
    let session = SessionConfig {
        bot_delay_ms: 0,
        ..Default::default()
    };
    Arc::new(
        Registry::new(
            Arc::new(GameStore::new(
                Arc::clone(&store),
                citadel::catalogue().clone(),
            )),
            Arc::new(CampaignLedger::new(store, citadel::catalogue().clone())),
            Arc::new(Metrics::new()),
            session,
            1_000,
            AbandonLimits::default(),
            shutdown,
        )
        .with_ownership(ownership),
    )
}

fn cluster(id: &str, ttl_ms: u64, renew_ms: u64) -> Ownership {
    Ownership::Cluster(LeaseConfig {
        node_id: id.into(),
        ttl: Duration::from_millis(ttl_ms),
        renew_every: Duration::from_millis(renew_ms),
    })
}

fn running(r: &Registry) -> BTreeSet<String> {
    r.running_codes().into_iter().collect()
}

/// Wait (with a deadline) until `f` holds.
async fn until(what: &str, limit: Duration, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `n` lobbies made by a lone server on `url`, which then stops: games in
/// the store with no lease, as after an upgrade to cluster mode or a
/// restart of the whole cluster.
async fn stored_games(url: &str, n: usize) -> BTreeSet<String> {
    let solo = registry(url, Ownership::Solo).await;
    let mut codes = BTreeSet::new();
    for _ in 0..n {
        let code = solo
            .create(c1m1_options(2, DarkLegionChoice::Seat(1)).table())
            .await
            .unwrap();
        codes.insert(code);
    }
    assert!(solo.shut_down(Duration::from_secs(10)).await);
    // A lone server writes no lease.
    let store = citadel_server::open_store(url).await.unwrap();
    for code in &codes {
        assert_eq!(store.lease(code).await.unwrap(), None);
    }
    codes
}

#[tokio::test]
async fn racing_nodes_restore_each_game_once() {
    with_db("lease_race", LIMIT, |url| async move {
        let codes = stored_games(&url, 24).await;
        let a = Node::new("a");
        let b = Node::new("b");
        let (u1, u2) = (url.clone(), url.clone());
        let ra = a
            .run(async move { registry(&u1, cluster("a", 10_000, 3_000)).await })
            .await;
        let rb = b
            .run(async move { registry(&u2, cluster("b", 10_000, 3_000)).await })
            .await;
        // Both boot at once and restore what they can get.
        let (x, y) = (Arc::clone(&ra), Arc::clone(&rb));
        let (na, nb) = tokio::join!(
            a.run(async move { x.restore_all().await.unwrap() }),
            b.run(async move { y.restore_all().await.unwrap() }),
        );
        let (on_a, on_b) = (running(&ra), running(&rb));
        eprintln!("restored: a {na}, b {nb}");
        assert_eq!((na, nb), (on_a.len(), on_b.len()));
        assert!(
            on_a.is_disjoint(&on_b),
            "a game runs on both: {:?}",
            on_a.intersection(&on_b)
        );
        let all: BTreeSet<String> = on_a.union(&on_b).cloned().collect();
        assert_eq!(all, codes, "every game runs somewhere");
        // The store agrees on who runs what.
        let store = citadel_server::open_store(&url).await.unwrap();
        for code in &codes {
            let owner = store.lease(code).await.unwrap().unwrap().owner;
            let expected = if on_a.contains(code) { "a" } else { "b" };
            assert_eq!(owner, expected, "{code}");
        }
        // Clients of the same stored game reach both nodes at once: it
        // loads on exactly one.
        let fresh = stored_games(&url, 10).await;
        for code in &fresh {
            let (x, y) = (Arc::clone(&ra), Arc::clone(&rb));
            let (c1, c2) = (code.clone(), code.clone());
            let (la, lb) = tokio::join!(
                a.run(async move { x.get_or_load(&c1).await.unwrap().is_some() }),
                b.run(async move { y.get_or_load(&c2).await.unwrap().is_some() }),
            );
            assert!(la ^ lb, "{code}: loaded on a {la}, on b {lb}");
            assert_eq!(running(&ra).contains(code), la);
            assert_eq!(running(&rb).contains(code), lb);
        }
        let on_a = running(&ra);
        // A client coming to b for one of a's games does not start it on b.
        if let Some(code) = on_a.iter().next().cloned() {
            let y = Arc::clone(&rb);
            let c = code.clone();
            let loaded = b
                .run(async move { y.get_or_load(&c).await.unwrap().is_some() })
                .await;
            assert!(!loaded);
            assert!(!running(&rb).contains(&code));
        }
        // A graceful stop gives the leases back.
        let x = Arc::clone(&ra);
        assert!(
            a.run(async move { x.shut_down(Duration::from_secs(10)).await })
                .await
        );
        for code in &on_a {
            assert_eq!(store.lease(code).await.unwrap(), None, "{code} released");
        }
        let y = Arc::clone(&rb);
        assert!(
            b.run(async move { y.shut_down(Duration::from_secs(10)).await })
                .await
        );
    })
    .await;
}

#[tokio::test]
async fn a_dead_nodes_games_are_taken_over() {
    with_db("lease_takeover", LIMIT, |url| async move {
        const TTL_MS: u64 = 1_500;
        const RENEW_MS: u64 = 300;
        let mut a = Node::new("a");
        let b = Node::new("b");
        let u = url.clone();
        let ra = a
            .run(async move { registry(&u, cluster("a", TTL_MS, RENEW_MS)).await })
            .await;
        let x = Arc::clone(&ra);
        let codes: BTreeSet<String> = a
            .run(async move {
                x.start_leasing();
                let mut codes = BTreeSet::new();
                for _ in 0..5 {
                    let options = c1m1_options(2, DarkLegionChoice::Seat(1));
                    codes.insert(x.create(options.table()).await.unwrap());
                }
                codes
            })
            .await;
        let u = url.clone();
        let rb = b
            .run(async move {
                let r = registry(&u, cluster("b", TTL_MS, RENEW_MS)).await;
                r.restore_in_background();
                r.start_leasing();
                r
            })
            .await;
        // b runs nothing of a's while a renews: wait two lease times.
        tokio::time::sleep(Duration::from_millis(2 * TTL_MS)).await;
        assert!(running(&rb).is_empty(), "b took a live node's games");
        assert_eq!(running(&ra), codes);
        // kill a: its leases stay in the store, unreleased, and run out.
        a.kill();
        let killed = Instant::now();
        until("b to take a's games over", Duration::from_secs(20), || {
            running(&rb) == codes
        })
        .await;
        let took = killed.elapsed();
        eprintln!(
            "takeover of {} games: {} ms after the kill (lease {TTL_MS} ms, renew {RENEW_MS} ms)",
            codes.len(),
            took.as_millis()
        );
        // Within the lease time and a renewal round (and scheduling slack).
        assert!(
            took <= Duration::from_millis(TTL_MS + 2 * RENEW_MS + 1_000),
            "{took:?}"
        );
        let text = rb_metrics(&rb);
        assert!(text.contains("citadel_lease_takeovers_total 5"), "{text}");
        assert!(text.contains("citadel_owned_games 5"), "{text}");
        let store = citadel_server::open_store(&url).await.unwrap();
        for code in &codes {
            assert_eq!(store.lease(code).await.unwrap().unwrap().owner, "b");
        }
        let y = Arc::clone(&rb);
        assert!(
            b.run(async move { y.shut_down(Duration::from_secs(10)).await })
                .await
        );
    })
    .await;
}

fn rb_metrics(r: &Registry) -> String {
    r.metrics().render()
}

#[tokio::test]
async fn a_lost_lease_stops_the_game_here() {
    with_db("lease_lost", LIMIT, |url| async move {
        let a = Node::new("a");
        let u = url.clone();
        let ra = a
            .run(async move { registry(&u, cluster("a", 10_000, 3_000)).await })
            .await;
        let x = Arc::clone(&ra);
        let code = a
            .run(async move {
                x.create(c1m1_options(2, DarkLegionChoice::Seat(1)).table())
                    .await
                    .unwrap()
            })
            .await;
        assert!(ra.get(&code).is_some());
        // Another node takes the lease (as if a's had run out unseen: its
        // clock says a's lease ended long ago).
        let store = citadel_server::open_store(&url).await.unwrap();
        let far = i64::MAX / 4;
        assert!(store
            .acquire_lease(&code, "thief", far, far + 10_000)
            .await
            .unwrap());
        // a's next renewal finds it gone and stops the game, leaving the
        // lease to its new holder.
        let x = Arc::clone(&ra);
        a.run(async move { x.lease_round(&mut LeaseRound::default()).await })
            .await;
        until("a to stop the game", Duration::from_secs(10), || {
            ra.get(&code).is_none()
        })
        .await;
        assert!(running(&ra).is_empty());
        assert_eq!(store.lease(&code).await.unwrap().unwrap().owner, "thief");
        let x = Arc::clone(&ra);
        assert!(
            a.run(async move { x.shut_down(Duration::from_secs(10)).await })
                .await
        );
    })
    .await;
}
