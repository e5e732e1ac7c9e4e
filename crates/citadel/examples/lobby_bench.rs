//! How fast the lobby list and a profile answer with many stored games
//! (issue 31: under 50 ms at 10,000 stored games). A release server on a
//! fresh SQLite file (or the Postgres of `CITADEL_BENCH_DATABASE_URL`),
//! filled through the store with `games=N` games (a tenth of them listed
//! and open, a tenth listed and live, the rest finished), 1,000 accounts'
//! ratings with their history, then `GET /api/lobby` and
//! `GET /api/players/{name}` asked `requests=R` times each over HTTP.
//!
//! cargo run --release -p citadel --example lobby-bench -- games=10000 requests=200

use citadel_server::Server;
use citadel_store::{AccountRecord, GameRecord, RatingChange, RatingRecord};
use std::time::{Duration, Instant};

fn arg(name: &str, default: usize) -> usize {
    std::env::args()
        .filter_map(|a| {
            a.strip_prefix(&format!("{name}="))
                .and_then(|v| v.parse().ok())
        })
        .next()
        .unwrap_or(default)
}

fn game(k: usize) -> GameRecord {
    let code = format!("B{k:05}");
    let state = k % 10;
    let lobby = r#"{"seats":[{"name":"Ann","controller":"human","token_hash":null,"ready":true},{"name":null,"controller":"open","token_hash":null,"ready":false}],"host":0}"#;
    GameRecord {
        code,
        options: r#"{"kind":"neuroshima","turn_seconds":null,"listed":true}"#.into(),
        seed: k as u64,
        created_at: k as i64,
        lobby: lobby.into(),
        setup: (state != 0).then(|| "{}".into()),
        started_at: (state != 0).then_some(k as i64 + 1),
        finished_at: (state >= 2).then_some(k as i64 + 2),
        result: (state >= 2).then(|| "{}".into()),
        campaign: None,
        engine_version: 1,
        content_hash: "bench".into(),
        kind: "neuroshima".into(),
        active_at: k as i64 + 1,
        abandoned_at: None,
        listed: state <= 1 || k % 3 == 0,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

async fn timed(url: &str, requests: usize) -> Vec<Duration> {
    let client = reqwest::Client::new();
    let mut times = Vec::with_capacity(requests);
    for _ in 0..requests {
        let t = Instant::now();
        let res = client.get(url).send().await.expect("request");
        assert!(res.status().is_success(), "{url}: {}", res.status());
        let _ = res.bytes().await.expect("body");
        times.push(t.elapsed());
    }
    times.sort();
    times
}

#[tokio::main]
async fn main() {
    let games = arg("games", 10_000);
    let requests = arg("requests", 200);
    let dir = tempfile::tempdir().expect("a directory");
    let mut config = citadel::config_for_tests();
    config.database_url = std::env::var("CITADEL_BENCH_DATABASE_URL")
        .unwrap_or_else(|_| format!("sqlite://{}/bench.sqlite", dir.path().display()));
    let server = Server::start(config.clone()).await.expect("server");
    let store = citadel_server::open_store(&config.database_url)
        .await
        .expect("the same store");
    let fill = Instant::now();
    for k in 0..games {
        store.create_game(&game(k)).await.expect("a game");
    }
    for a in 0..1_000usize {
        let id = format!("acc-{a}");
        store
            .create_account(&AccountRecord {
                id: id.clone(),
                name: format!("player{a}"),
                password_hash: "x".into(),
                created_at: 0,
            })
            .await
            .expect("an account");
        for g in 0..10usize {
            let code = format!("R{a:04}{g}");
            let games_before = g as i64;
            let change = RatingChange {
                from_games: games_before,
                after: RatingRecord {
                    kind: "neuroshima".into(),
                    player: format!("account:{id}"),
                    name: format!("player{a}"),
                    rating: 1500.0 + (a % 400) as f64 + g as f64,
                    deviation: 60.0 + (a % 100) as f64,
                    volatility: 0.06,
                    games: games_before + 1,
                    wins: games_before + 1,
                    draws: 0,
                    losses: 0,
                    updated_at: g as i64,
                },
            };
            store
                .rate_game(&code, g as i64, &[change])
                .await
                .expect("rated");
        }
        store
            .link_player(&format!("B{:05}", a % games.max(1)), 0, &id)
            .await
            .expect("linked");
    }
    println!(
        "filled {games} games, 1,000 accounts with 10 rated games each in {:.1} s",
        fill.elapsed().as_secs_f64()
    );
    let base = format!("http://{}", server.addr());
    for (what, url) in [
        ("GET /api/lobby", format!("{base}/api/lobby")),
        (
            "GET /api/players/player7",
            format!("{base}/api/players/player7"),
        ),
        (
            "GET /api/leaderboards/neuroshima",
            format!("{base}/api/leaderboards/neuroshima"),
        ),
    ] {
        let _ = timed(&url, 5).await; // warm the caches
        let t = timed(&url, requests).await;
        println!(
            "{what}: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({requests} requests, {games} games)",
            percentile(&t, 0.5),
            percentile(&t, 0.99),
            percentile(&t, 1.0)
        );
    }
    server.shutdown().await;
}
