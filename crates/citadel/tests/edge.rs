//! The server's edge against hostile HTTP clients (issue 17): slowloris
//! and idle sockets, per-address connection caps, login guessing, error
//! bodies, security headers, /metrics. The fd-exhaustion test against a
//! lowered file limit runs the real binary (tests/fd_limit.rs).

mod common;

use citadel_server::config::{Config, Secret};
use citadel_server::Server;
use common::{closed_within, connect_from, http_from, within, HALF_REQUEST};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const TEST_LIMIT: Duration = Duration::from_secs(60);

async fn server_with(config: Config) -> Server {
    Server::start(config).await.expect("server starts")
}

/// `GET /healthz` from `from`; how long the answer took.
async fn healthz_from(from: [u8; 4], addr: SocketAddr) -> Duration {
    let started = Instant::now();
    let res = http_from(from)
        .get(format!("http://{addr}/healthz"))
        .send()
        .await
        .expect("healthz answers");
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text().await.expect("body"), "ok");
    started.elapsed()
}

// ------------------------------------------------------ connections

/// What this proves: one address holding many half-sent requests cannot
/// take the server from anyone else: past its cap (16 here) its
/// connections are closed at once, and a client at another address gets
/// `/healthz` within 1 s while the 200 are held.
#[tokio::test]
async fn half_open_connections_from_one_address_do_not_lock_out_another() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.max_connections = Some(100);
        config.max_connections_per_ip = 16;
        // Every test client is on loopback.
        config.limit_loopback = true;
        config.header_timeout_secs = 30;
        let server = server_with(config).await;
        let addr = server.addr();
        let mut held = Vec::new();
        for _ in 0..200 {
            let mut s = connect_from([127, 0, 0, 1], addr).await.expect("connect");
            // The write may fail on a socket the server already closed.
            let _ = s.write_all(HALF_REQUEST).await;
            held.push(s);
        }
        let took = healthz_from([127, 0, 0, 2], addr).await;
        assert!(took < Duration::from_secs(1), "healthz took {took:?}");
        // The server kept only 16 of the 200.
        let mut open = 0;
        for s in &mut held {
            if !closed_within(s, Duration::from_millis(50)).await {
                open += 1;
            }
        }
        assert_eq!(open, 16, "connections the server kept from one address");
        server.shutdown().await;
    })
    .await;
}

/// What this proves: a request whose headers never finish (slowloris)
/// and a kept-alive connection that sends nothing more are both closed
/// after the header timeout (1 s here), not held forever.
#[tokio::test]
async fn half_sent_and_idle_connections_are_closed_after_the_header_timeout() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.header_timeout_secs = 1;
        let server = server_with(config).await;
        let addr = server.addr();
        let mut half = TcpStream::connect(addr).await.expect("connect");
        half.write_all(HALF_REQUEST).await.expect("write");
        let mut idle = TcpStream::connect(addr).await.expect("connect");
        idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("write");
        let mut answer = [0u8; 256];
        let n = idle.read(&mut answer).await.expect("answer");
        assert!(answer[..n].starts_with(b"HTTP/1.1 200"));
        let started = Instant::now();
        assert!(
            closed_within(&mut half, Duration::from_secs(3)).await,
            "half-sent request held"
        );
        assert!(
            closed_within(&mut idle, Duration::from_secs(3)).await,
            "idle keep-alive held"
        );
        assert!(started.elapsed() >= Duration::from_millis(500));
        server.shutdown().await;
    })
    .await;
}

/// What this proves: a request whose body never arrives is answered
/// `408` (in the JSON error shape) after the request timeout.
#[tokio::test]
async fn a_body_that_never_arrives_gets_408() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.request_timeout_secs = 1;
        let server = server_with(config).await;
        let mut s = TcpStream::connect(server.addr()).await.expect("connect");
        s.write_all(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        )
        .await
        .expect("write");
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut answer)).await;
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains(r#""error":408"#), "{answer}");
        server.shutdown().await;
    })
    .await;
}

// ------------------------------------------------------------ login

async fn post(
    http: &reqwest::Client,
    url: String,
    body: Value,
) -> (StatusCode, Option<String>, Value) {
    let res = http.post(url).json(&body).send().await.expect("answer");
    let status = res.status();
    let retry = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body = res.json().await.expect("a JSON body");
    (status, retry, body)
}

/// What this proves: guessing one account's password is cut off after a
/// few attempts with `429` and `Retry-After`, from any address, and an
/// unknown name is answered exactly alike (nothing tells which names
/// exist); another address is limited on its own.
#[tokio::test]
async fn login_guessing_is_throttled_alike_for_known_and_unknown_names() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.login_per_account = 3;
        config.login_per_address = 9;
        config.limit_loopback = true;
        let server = server_with(config).await;
        let base = format!("http://{}", server.addr());
        let a = http_from([127, 0, 0, 1]);
        let (status, _, _) = post(
            &a,
            format!("{base}/api/accounts"),
            json!({"name": "Mitch", "password": "correct horse"}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        let mut answers = Vec::new();
        for name in ["Mitch", "Nobody"] {
            let mut seen = Vec::new();
            for _ in 0..4 {
                let (status, retry, body) = post(
                    &a,
                    format!("{base}/api/login"),
                    json!({"name": name, "password": "wrong guess"}),
                )
                .await;
                seen.push((
                    status,
                    retry.is_some(),
                    body["error"].clone(),
                    body["message"]
                        .as_str()
                        .map(|m| m.split(" in ").next().unwrap_or(m).to_string()),
                ));
                if status == StatusCode::TOO_MANY_REQUESTS {
                    let secs: u64 = retry.expect("Retry-After").parse().expect("seconds");
                    assert!((1..=20).contains(&secs), "{secs}");
                    assert_eq!(body["retry_after"], json!(secs));
                }
            }
            answers.push(seen);
        }
        let expected = |s: StatusCode, r: bool| (s, r);
        for seen in &answers {
            let shape: Vec<_> = seen.iter().map(|(s, r, _, _)| expected(*s, *r)).collect();
            assert_eq!(
                shape,
                [
                    (StatusCode::UNAUTHORIZED, false),
                    (StatusCode::UNAUTHORIZED, false),
                    (StatusCode::UNAUTHORIZED, false),
                    (StatusCode::TOO_MANY_REQUESTS, true),
                ]
            );
        }
        assert_eq!(answers[0], answers[1], "a known and an unknown name differ");
        // Even the right password waits now: the limit is per name.
        let b = http_from([127, 0, 0, 2]);
        let (status, _, _) = post(
            &b,
            format!("{base}/api/login"),
            json!({"name": "mitch", "password": "correct horse"}),
        )
        .await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        // The first address has used its 9 (a register and 8 logins,
        // each checked against the address first); another name from it
        // is refused too, while a third address may still try that name.
        let (status, _, _) = post(
            &a,
            format!("{base}/api/login"),
            json!({"name": "Kim", "password": "whatever1"}),
        )
        .await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        let c = http_from([127, 0, 0, 3]);
        let (status, _, _) = post(
            &c,
            format!("{base}/api/login"),
            json!({"name": "Kim", "password": "whatever1"}),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        server.shutdown().await;
    })
    .await;
}

// ------------------------------------------------------- JSON errors

/// What this proves: every error the HTTP edge can produce, whether from
/// a handler, an extractor (400/413/415/422), routing (404/405) or the
/// body limit, comes back as `{"error": <status>, "message": "..."}`
/// with a JSON content type.
#[tokio::test]
async fn every_http_error_is_the_documented_json_body() {
    within(TEST_LIMIT, async {
        let server = server_with(citadel::config_for_tests()).await;
        let base = format!("http://{}", server.addr());
        let http = reqwest::Client::new();
        let big = format!(r#"{{"mission":"{}"}}"#, "x".repeat(200 * 1024));
        let cases: Vec<(reqwest::RequestBuilder, u16)> = vec![
            // Not JSON at all.
            (
                http.post(format!("{base}/api/games"))
                    .header("content-type", "application/json")
                    .body("{nope"),
                400,
            ),
            // JSON of the wrong shape.
            (
                http.post(format!("{base}/api/games"))
                    .header("content-type", "application/json")
                    .body(r#"{"seats":"x"}"#),
                422,
            ),
            // No JSON content type.
            (http.post(format!("{base}/api/games")).body("{}"), 415),
            // Too large.
            (
                http.post(format!("{base}/api/games"))
                    .header("content-type", "application/json")
                    .body(big),
                413,
            ),
            // Wrong method.
            (http.get(format!("{base}/api/games")), 405),
            (http.delete(format!("{base}/healthz")), 405),
            (http.post(format!("{base}/ws")), 405),
            // No such route under /api.
            (http.get(format!("{base}/api/nothing/here")), 404),
            // A handler's own error.
            (http.get(format!("{base}/api/games/ZZZZZZ")), 404),
            // A bad query string.
            (
                http.get(format!("{base}/api/games/ZZZZZZ/replay?from=minus")),
                400,
            ),
            // Not a WebSocket handshake.
            (http.get(format!("{base}/ws")), 400),
            (http.get(format!("{base}/api/me")), 401),
        ];
        for (req, status) in cases {
            let res = req.send().await.expect("answer");
            let url = res.url().to_string();
            assert_eq!(res.status().as_u16(), status, "{url}");
            let ct = res
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            assert!(ct.starts_with("application/json"), "{url}: {ct}");
            if status == 405 {
                assert!(res.headers().get("allow").is_some(), "{url}: no Allow");
            }
            let body: Value = res.json().await.expect("JSON");
            assert_eq!(body["error"], json!(status), "{url}: {body}");
            let message = body["message"].as_str().unwrap_or("");
            assert!(!message.is_empty(), "{url}: {body}");
        }
        server.shutdown().await;
    })
    .await;
}

/// What this proves: `turn_seconds: 0` (and every other option out of
/// range) is refused with `400` and the field at fault.
#[tokio::test]
async fn options_out_of_range_are_refused_with_the_field() {
    within(TEST_LIMIT, async {
        let server = server_with(citadel::config_for_tests()).await;
        let base = format!("http://{}", server.addr());
        let http = reqwest::Client::new();
        for (options, field) in [
            (json!({"mission": "ce-c1m1", "seats": 1, "dark_legion": {"mode": "ai"}, "turn_seconds": 0}), "turn_seconds"),
            (json!({"mission": "ce-c1m1", "seats": 1, "dark_legion": {"mode": "ai"}, "turn_seconds": 86400}), "turn_seconds"),
            (json!({"mission": "ce-c1m1", "seats": 1, "dark_legion": {"mode": "ai"}, "starting_rank": 13}), "starting_rank"),
            (json!({"mission": "ce-c1m1", "seats": 9, "dark_legion": {"mode": "ai"}}), "seats"),
        ] {
            let (status, _, body) = post(&http, format!("{base}/api/games"), options).await;
            assert_eq!(status, StatusCode::BAD_REQUEST);
            assert_eq!(body["field"], json!(field), "{body}");
            assert_eq!(body["error"], json!(400));
        }
        let (status, _, _) = post(
            &http,
            format!("{base}/api/games"),
            json!({"mission": "ce-c1m1", "seats": 1, "dark_legion": {"mode": "ai"}, "turn_seconds": 10}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        server.shutdown().await;
    })
    .await;
}

/// The option ranges docs/PROTOCOL.md states are the ones the server
/// checks.
#[test]
fn option_ranges_match_the_doc() {
    use citadel_rules::content::Edition;
    use citadel_rules::game::setup::{player_counts, starting_ranks, STARTING_RANKS};
    use citadel_server::options::TURN_SECONDS;
    let (with_ai, with_player_dl) = (player_counts(true), player_counts(false));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/PROTOCOL.md");
    let doc = std::fs::read_to_string(path).expect("PROTOCOL.md");
    for needle in [
        format!(
            "`turn_seconds`: {}–{}",
            TURN_SECONDS.start(),
            TURN_SECONDS.end()
        ),
        format!(
            "`starting_rank`: {}–{} in a Collectors Edition mission, {}–{} in a 1993",
            STARTING_RANKS.start(),
            STARTING_RANKS.end(),
            starting_ranks(Edition::Classic).start(),
            starting_ranks(Edition::Classic).end()
        ),
        format!(
            "`seats`: how many players, the Dark Legion player included: {}–{}, or {}–{}",
            with_player_dl.start(),
            with_player_dl.end(),
            with_ai.start(),
            with_ai.end()
        ),
    ] {
        assert!(doc.contains(&needle), "PROTOCOL.md does not say {needle:?}");
    }
}

/// The limits docs/PROTOCOL.md states are the server's defaults (each
/// sentence is looked for with the number filled in from the code).
#[test]
fn the_limits_in_the_doc_are_the_defaults() {
    use citadel_server::ws::{transport_cap, CLOSE_LINGER, HELLO_TIMEOUT};
    let c = citadel::config_for_tests();
    let defaults = <Config as clap::Parser>::parse_from(["citadel"]);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/PROTOCOL.md");
    // Line breaks and indentation do not matter.
    let doc = std::fs::read_to_string(path)
        .expect("PROTOCOL.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let kib = |b: usize| b / 1024;
    for needle in [
        format!("a message over {} KiB", kib(c.max_frame_bytes)),
        format!("a frame over {} KiB", kib(transport_cap(c.max_frame_bytes))),
        format!("{} at once, then {} a second", c.rate_burst, c.rate_per_sec),
        format!("at most {} messages for a connection", c.send_queue),
        format!(
            "waits at most {} s for one write",
            c.write_timeout_ms / 1000
        ),
        format!(
            "up to {} s for the client to take it",
            CLOSE_LINGER.as_secs()
        ),
        format!("saying nothing for {} seconds", HELLO_TIMEOUT.as_secs()),
        format!(
            "within {} seconds of its first frame",
            c.fragment_timeout_secs
        ),
        format!(
            "at most {} connections may come from one address",
            c.max_connections_per_ip
        ),
        format!(
            "within {} seconds of the connection opening",
            c.header_timeout_secs
        ),
        format!("the request timeout ({} s)", c.request_timeout_secs),
        format!(
            "a body over {} KiB",
            kib(citadel_server::http::MAX_BODY_BYTES)
        ),
        format!("({} attempts a minute, from any", c.login_per_account),
        format!(
            "({} attempts a minute, logins and registrations",
            c.login_per_address
        ),
    ] {
        assert!(doc.contains(&needle), "PROTOCOL.md does not say {needle:?}");
    }
    // `for_tests` changes none of these.
    assert_eq!(defaults.max_frame_bytes, c.max_frame_bytes);
    assert_eq!(defaults.write_timeout_ms, c.write_timeout_ms);
    assert_eq!(defaults.fragment_timeout_secs, c.fragment_timeout_secs);
    assert_eq!(defaults.login_per_address, c.login_per_address);
}

// ------------------------------------------------ headers and metrics

/// What this proves: the client's pages (and every other answer) carry
/// the security headers: a CSP that forbids framing and foreign
/// scripts, X-Frame-Options, nosniff and a referrer policy.
#[tokio::test]
async fn the_client_pages_carry_security_headers() {
    within(TEST_LIMIT, async {
        let server = server_with(citadel::config_for_tests()).await;
        let base = format!("http://{}", server.addr());
        for path in ["/", "/app.js", "/some/client/route", "/api/missions"] {
            let res = reqwest::get(format!("{base}{path}")).await.expect("answer");
            assert_eq!(res.status(), StatusCode::OK, "{path}");
            let h = res.headers();
            let get = |name: &str| {
                h.get(name)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_else(|| panic!("{path}: no {name}"))
                    .to_string()
            };
            let csp = get("content-security-policy");
            assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
            assert!(csp.contains("script-src 'self'"), "{csp}");
            assert!(!csp.contains("unsafe-inline"), "{csp}");
            assert_eq!(get("x-frame-options"), "DENY");
            assert_eq!(get("x-content-type-options"), "nosniff");
            assert_eq!(get("referrer-policy"), "no-referrer");
        }
        server.shutdown().await;
    })
    .await;
}

/// What this proves: with a token, `/metrics` answers only a request that
/// carries it; with an address of its own, `/metrics` is served there and
/// not on the public address.
#[tokio::test]
async fn metrics_can_be_token_protected_or_moved_to_another_address() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.metrics_token = Some(Secret("s3cret-token".into()));
        let server = server_with(config).await;
        let url = format!("http://{}/metrics", server.addr());
        let http = reqwest::Client::new();
        let res = http.get(&url).send().await.expect("answer");
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
        let res = http
            .get(&url)
            .bearer_auth("wrong")
            .send()
            .await
            .expect("answer");
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
        let res = http
            .get(&url)
            .bearer_auth("s3cret-token")
            .send()
            .await
            .expect("answer");
        assert_eq!(res.status(), StatusCode::OK);
        server.shutdown().await;

        let mut config = citadel::config_for_tests();
        config.metrics_addr = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
        let server = server_with(config).await;
        let public = http
            .get(format!("http://{}/metrics", server.addr()))
            .send()
            .await
            .expect("answer");
        assert_eq!(public.status(), StatusCode::NOT_FOUND);
        let private = server.metrics_addr().expect("a metrics address");
        let res = http
            .get(format!("http://{private}/metrics"))
            .send()
            .await
            .expect("answer");
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.text().await.expect("body").ends_with("# EOF\n"));
        server.shutdown().await;
    })
    .await;
}

// ------------------------------------------------ secrets in errors

/// What this proves: a start that fails to open the database (Postgres on
/// a port nobody listens on) says so, naming the database, without its
/// password: neither the error `Server::start` returns (in every format)
/// nor what the binary prints before it exits holds it, in the URL's user
/// info or in a `password=` parameter.
#[tokio::test]
async fn a_failed_start_never_shows_the_database_password() {
    const SECRET: &str = "Pw-9f3k2-never-shown";
    within(TEST_LIMIT, async {
        for url in [
            format!("postgres://citadel:{SECRET}@127.0.0.1:1/citadel"),
            format!("postgres://citadel@127.0.0.1:1/citadel?password={SECRET}"),
        ] {
            let mut config = citadel::config_for_tests();
            config.database_url = url.clone();
            let e = Server::start(config)
                .await
                .expect_err("no database listens there");
            let shown = format!("{e}\n{e:#}\n{e:?}");
            assert!(shown.contains("cannot open the database"), "{shown}");
            assert!(shown.contains("127.0.0.1:1"), "{shown}");
            assert!(!shown.contains(SECRET), "{shown}");

            let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_citadel"))
                .args(["--addr", "127.0.0.1:0", "--database-url", &url])
                .env("RUST_LOG", "debug")
                .kill_on_drop(true)
                .output()
                .await
                .expect("the binary runs");
            assert!(!out.status.success(), "started without a database");
            let printed = format!(
                "{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(printed.contains("cannot open the database"), "{printed}");
            assert!(!printed.contains(SECRET), "{printed}");
        }
    })
    .await;
}
