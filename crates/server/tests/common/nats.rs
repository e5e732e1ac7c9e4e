//! The test NATS server for cluster tests: `CITADEL_TEST_NATS_URL`
//! (default `nats://127.0.0.1:4222`). If it is unreachable a test prints
//! SKIPPED and passes, unless `CITADEL_REQUIRE_ALL=1`, then it fails.

use std::time::Duration;

/// The NATS URL, or `None` (skip) if nothing answers there.
pub async fn nats_url(test: &str) -> Option<String> {
    let url = std::env::var("CITADEL_TEST_NATS_URL")
        .unwrap_or_else(|_| "nats://127.0.0.1:4222".to_string());
    let host = url.trim_start_matches("nats://").to_string();
    let reachable = matches!(
        tokio::time::timeout(
            Duration::from_secs(2),
            tokio::net::TcpStream::connect(&host)
        )
        .await,
        Ok(Ok(_))
    );
    if reachable {
        return Some(url);
    }
    if std::env::var("CITADEL_REQUIRE_ALL").as_deref() == Ok("1") {
        panic!("NATS at {url} unreachable and CITADEL_REQUIRE_ALL=1");
    }
    eprintln!("SKIPPED {test}: NATS at {url} unreachable; set CITADEL_TEST_NATS_URL");
    None
}
