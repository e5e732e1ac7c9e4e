//! Abandoned games end (docs/STORAGE.md, "Abandoned games"): a game with
//! no player connected for its limit is closed in the store as abandoned;
//! a restart brings back only live games, and no more than `max_games`.
//!
//! Each test runs a real server on a SQLite file of its own, seeded or
//! inspected through the store directly.

mod common;
use common::{next_text, send_json, within, Ws, STEP};
use common::{DarkLegionChoice, GameOptions};

use citadel_protocol::{ClientMsg, Join, PROTOCOL_VERSION};
use citadel_server::config::Config;
use citadel_server::session::{Session, SessionConfig};
use citadel_server::Server;
use citadel_store::{GameRecord, Store};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

const TEST_LIMIT: Duration = Duration::from_secs(60);
const HOUR_MS: i64 = 60 * 60 * 1000;

fn options() -> GameOptions {
    GameOptions {
        mission: "ce-c1m1".into(),
        seats: 2,
        dark_legion: DarkLegionChoice::Seat(1),
        starting_rank: 1,
        turn_seconds: None,
    }
}

fn now_ms() -> i64 {
    citadel_server::clock::wall_clock_ms()
}

/// A SQLite database of its own, and a server config on it.
fn database() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("citadel.db").display());
    (dir, url)
}

fn config(url: &str) -> Config {
    let mut c = citadel::config_for_tests();
    c.database_url = url.to_string();
    c
}

/// A lobby as the server would have stored it, last active at `active_at`.
async fn store_lobby(store: &Arc<dyn Store>, code: &str, active_at: i64) {
    let session = Session::<citadel_rules::game::Game>::new(
        code.into(),
        options().table(),
        7,
        SessionConfig::default(),
    )
    .expect("options");
    let record = GameRecord {
        code: code.into(),
        options: serde_json::to_string(&options()).expect("options"),
        seed: 7,
        created_at: active_at,
        lobby: serde_json::to_string(&session.lobby_document()).expect("lobby"),
        setup: None,
        started_at: None,
        finished_at: None,
        result: None,
        campaign: None,
        active_at,
        abandoned_at: None,
        listed: false,
        engine_version: i64::from(citadel_rules::ENGINE_VERSION),
        content_hash: citadel_rules::Content::embedded_hash().to_string(),
        kind: "siege".into(),
    };
    store.create_game(&record).await.expect("stored");
}

/// `GET /api/games/{code}`: 200 for a live game (in memory, or loaded
/// from the store on demand), 404 for none, 503 for a stored game the
/// server has no room to load.
async fn status(addr: SocketAddr, code: &str) -> u16 {
    reqwest::get(format!("http://{addr}/api/games/{code}"))
        .await
        .expect("GET /api/games")
        .status()
        .as_u16()
}

/// Is the game live on the server?
async fn live(addr: SocketAddr, code: &str) -> bool {
    match status(addr, code).await {
        200 => true,
        404 => false,
        s => panic!("unexpected status {s}"),
    }
}

async fn create_game(addr: SocketAddr) -> String {
    let resp = reqwest::Client::new()
        .post(format!("http://{addr}/api/games"))
        .json(&options())
        .send()
        .await
        .expect("POST /api/games");
    assert_eq!(resp.status(), reqwest::StatusCode::CREATED);
    let body: serde_json::Value = resp.json().await.expect("json");
    body["code"].as_str().expect("code").to_string()
}

/// Join `code` as a player; returns the socket once welcomed.
async fn join(addr: SocketAddr, code: &str) -> Ws {
    let (mut ws, _) = tokio::time::timeout(
        STEP,
        tokio_tungstenite::connect_async(format!("ws://{addr}/ws")),
    )
    .await
    .expect("connect in time")
    .expect("handshake");
    let hello = ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        game: code.into(),
        join: Join::Player { name: "Ann".into() },
        last_seq: None,
        account: None,
    };
    send_json(&mut ws, "ann", &hello).await;
    let first = next_text(&mut ws, "ann").await.expect("welcome");
    assert!(first.contains("welcome"), "{first}");
    ws
}

/// Wait until `cond` holds, polling.
async fn eventually<F, Fut>(what: &str, cond: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(20);
    while !cond().await {
        assert!(Instant::now() < deadline, "{what}: not within 20 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_restores_only_live_games() {
    within(TEST_LIMIT, async {
        let (_dir, url) = database();
        let store = citadel_store::open(&url).await.expect("store");
        let now = now_ms();
        // M = 3 live lobbies (active an hour ago, limit 12 h) ...
        let live_codes = ["LIVE01", "LIVE02", "LIVE03"];
        for code in live_codes {
            store_lobby(&store, code, now - HOUR_MS).await;
        }
        // ... and N = 4 abandoned: two closed before, two idle past the
        // limit that the boot sweep closes.
        let abandoned = ["GONE01", "GONE02", "IDLE01", "IDLE02"];
        for code in abandoned {
            store_lobby(&store, code, now - 13 * HOUR_MS).await;
        }
        for code in &abandoned[..2] {
            assert!(store
                .abandon_game(code, now - HOUR_MS)
                .await
                .expect("closed"));
        }
        drop(store);

        let server = Server::start(config(&url)).await.expect("starts");
        let addr = server.addr();
        for code in live_codes {
            assert!(live(addr, code).await, "{code} restored");
        }
        for code in abandoned {
            assert!(!live(addr, code).await, "{code} not restored");
        }
        server.shutdown().await;

        let store = citadel_store::open(&url).await.expect("store");
        for code in abandoned {
            let g = store.game(code).await.expect("read").expect("kept");
            assert!(g.abandoned_at.is_some(), "{code} closed as abandoned");
            assert_eq!(g.result, None);
        }
        let unfinished = store.unfinished_games().await.expect("list");
        let mut codes: Vec<&str> = unfinished.iter().map(|g| g.code.as_str()).collect();
        codes.sort_unstable();
        assert_eq!(codes, live_codes);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restore_respects_max_games_and_keeps_the_most_recently_active() {
    within(TEST_LIMIT, async {
        let (_dir, url) = database();
        let store = citadel_store::open(&url).await.expect("store");
        let now = now_ms();
        // Five live lobbies, GAME1 the least recently active.
        for i in 1..=5 {
            store_lobby(&store, &format!("GAME{i}"), now - (6 - i) * 60_000).await;
        }
        drop(store);

        let mut c = config(&url);
        c.max_games = 3;
        let server = Server::start(c).await.expect("starts");
        let addr = server.addr();
        let mut statuses = Vec::new();
        for i in 1..=5 {
            statuses.push(status(addr, &format!("GAME{i}")).await);
        }
        // The three most recent are in memory; the two others are stored
        // but there is no room to load them on demand.
        assert_eq!(statuses, [503, 503, 200, 200, 200]);
        // Full: a new game is refused until one leaves.
        let resp = reqwest::Client::new()
            .post(format!("http://{addr}/api/games"))
            .json(&options())
            .send()
            .await
            .expect("POST");
        assert_eq!(resp.status(), reqwest::StatusCode::SERVICE_UNAVAILABLE);
        server.shutdown().await;

        // The two left out are still in the store, unfinished.
        let store = citadel_store::open(&url).await.expect("store");
        assert_eq!(store.unfinished_games().await.expect("list").len(), 5);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_memory_is_abandoned_once_its_players_stay_away() {
    within(TEST_LIMIT, async {
        let (_dir, url) = database();
        let mut c = config(&url);
        c.abandon_lobby_after = Duration::from_secs(2);
        let server = Server::start(c).await.expect("starts");
        let addr = server.addr();
        let store = citadel_store::open(&url).await.expect("store");

        // Nobody ever joins: abandoned after the limit.
        let empty = create_game(addr).await;
        // A player stays connected past the limit: not abandoned, and the
        // store hears it is active.
        let kept = create_game(addr).await;
        let created = store.game(&kept).await.expect("read").expect("stored");
        let mut ws = join(addr, &kept).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let joined = store.game(&kept).await.expect("read").expect("stored");
        assert!(joined.active_at > created.active_at, "touched on joining");
        // A quiet lobby with a player in it: touched again (every second
        // with a two-second limit), not abandoned.
        tokio::time::sleep(Duration::from_secs(3)).await;
        assert!(live(addr, &kept).await);
        let g = store.game(&kept).await.expect("read").expect("stored");
        assert!(g.abandoned_at.is_none());
        assert!(
            g.active_at >= joined.active_at + 1000,
            "touched while connected: {} then {}",
            joined.active_at,
            g.active_at
        );
        let g = store.game(&empty).await.expect("read").expect("stored");
        assert!(g.abandoned_at.is_some(), "the empty lobby was abandoned");
        assert!(!live(addr, &empty).await);

        // Once the player leaves, the limit runs from then.
        send_json(&mut ws, "ann", &ClientMsg::Ping).await;
        ws.close(None).await.expect("close");
        let left = Instant::now();
        let store_ref = &store;
        let kept_ref = kept.as_str();
        eventually("abandoned after the player left", || async move {
            let g = store_ref.game(kept_ref).await.expect("read");
            g.is_some_and(|g| g.abandoned_at.is_some())
        })
        .await;
        assert!(
            left.elapsed() >= Duration::from_millis(1500),
            "not before the limit"
        );
        assert!(!live(addr, &kept).await);
        server.shutdown().await;
    })
    .await;
}
