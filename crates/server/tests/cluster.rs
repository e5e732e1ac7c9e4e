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
use common::pg::with_db;

use citadel_server::config::Config;
use citadel_server::Server;
use serde_json::Value;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(90);

/// A node's configuration: loopback, the shared database and NATS.
fn node_config(db: &str, nats: &str, id: &str) -> Config {
    let mut c = Config::for_tests();
    c.database_url = db.to_string();
    c.nats_url = Some(nats.to_string());
    c.node_id = Some(id.to_string());
    c.lease_ttl = Duration::from_millis(2_000);
    c.lease_renew = Duration::from_millis(400);
    c
}

#[tokio::test]
async fn cluster_mode_needs_postgres_and_says_so() {
    let mut c = Config::for_tests();
    c.nats_url = Some("nats://127.0.0.1:4222".into());
    c.database_url = "sqlite::memory:".into();
    let e = Server::start(c).await.unwrap_err().to_string();
    assert!(e.contains("needs a shared Postgres database"), "{e}");
}

#[tokio::test]
async fn health_and_metrics_of_a_cluster_node() {
    let Some(nats) = nats_url("cluster_health").await else {
        return;
    };
    with_db("cluster_health", LIMIT, move |db| async move {
        let server = Server::start(node_config(&db, &nats, "health-1"))
            .await
            .unwrap();
        let base = format!("http://{}", server.addr());
        let http = reqwest::Client::new();
        let r = http.get(format!("{base}/healthz")).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let h: Value = r.json().await.unwrap();
        assert_eq!(h["node"], "health-1");
        assert_eq!(h["nats"], "ok");
        assert_eq!(h["database"], "ok");
        let code = common::create_game(
            server.addr(),
            &common::c1m1_options(2, citadel_protocol::DarkLegionChoice::Seat(1)),
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
