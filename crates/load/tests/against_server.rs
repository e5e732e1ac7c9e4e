//! `citadel-load` against a real server on `127.0.0.1:0`: a clean run
//! measures every command with no error, and a server that cuts the
//! players off shows up as errors.

use citadel_load::{run, Options};
use citadel_server::Server;
use clap::Parser;
use std::time::Duration;

fn options(url: &str, extra: &[&str]) -> Options {
    let mut args = vec!["citadel-load", "--url", url];
    args.extend_from_slice(extra);
    Options::parse_from(args)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_run_plays_every_game_and_measures_every_viewer() {
    let server = Server::start(citadel::config_for_tests())
        .await
        .expect("server");
    let url = format!("http://{}", server.addr());
    let o = options(
        &url,
        &[
            "--games",
            "3",
            "--players-per-game",
            "2",
            "--spectators-per-game",
            "1",
            "--rate",
            "10",
            "--duration",
            "3",
            "--idle-spectators",
            "5",
        ],
    );
    let report = tokio::time::timeout(Duration::from_secs(60), run(o))
        .await
        .expect("run within a minute")
        .expect("run");
    assert_eq!(report.errors(), 0, "errors: {:?}", report.stats.errors);
    assert_eq!(report.sockets, 3 * 3 + 5);
    assert_eq!(report.idle_sockets, 5);
    assert!(report.stats.games_started >= 3);
    // 3 games at 10/s for 3 s: well over half of the 90 commands land
    // even on a loaded test machine.
    assert!(
        report.stats.commands >= 30,
        "only {} commands",
        report.stats.commands
    );
    // A command counts once every viewer has its events; when the run
    // stops, each game may hold one command that is acked but not yet seen
    // by all its viewers.
    let acks = report.stats.ack.len();
    assert!(
        (report.stats.commands..=report.stats.commands + 3).contains(&acks),
        "{acks} acks for {} commands",
        report.stats.commands
    );
    // Each command that caused events was seen by all 3 viewers of its game.
    assert!(report.stats.broadcast.len() >= report.stats.commands);
    assert_eq!(report.stats.broadcast.len() % 3, 0);
    assert!(report.server_rss_peak.is_some_and(|r| r > 1_000_000));
    let line = report.last_line();
    assert!(line.starts_with("games=3 sockets=14 cmds_per_s="), "{line}");
    assert!(line.contains(" errors=0 server_rss_mb="), "{line}");
    server.shutdown().await;
}

/// The tool knows no game: `--kind` and `--options` load another game of
/// the catalogue (Neuroshima Hex), whose games it plays to their end,
/// which it learns from the outcome the server sends, and replaces.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_game_of_the_catalogue_is_loaded_and_played_to_its_end() {
    // Fast enough that games end within the run: above the default
    // per-socket message rate.
    let mut config = citadel::config_for_tests();
    config.rate_per_sec = 10_000;
    config.rate_burst = 10_000;
    let server = Server::start(config).await.expect("server");
    let url = format!("http://{}", server.addr());
    let o = options(
        &url,
        &[
            "--kind",
            "neuroshima",
            "--options",
            r#"{"infinity_combo": "capped"}"#,
            "--games",
            "2",
            "--players-per-game",
            "2",
            "--spectators-per-game",
            "1",
            "--rate",
            "200",
            "--duration",
            "4",
        ],
    );
    let report = tokio::time::timeout(Duration::from_secs(60), run(o))
        .await
        .expect("run within a minute")
        .expect("run");
    assert_eq!(report.errors(), 0, "errors: {:?}", report.stats.errors);
    assert!(
        report.stats.commands >= 40,
        "only {} commands",
        report.stats.commands
    );
    assert!(
        report.stats.games_finished >= 1,
        "no game ended in {} commands",
        report.stats.commands
    );
    assert!(report.stats.games_started > report.stats.games_finished.min(2));
    server.shutdown().await;
}

/// Two `--url`s (here the same server twice, so no cluster is needed):
/// the sockets alternate between them and the report counts each one's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_alternate_over_several_urls() {
    let server = Server::start(citadel::config_for_tests())
        .await
        .expect("server");
    let url = format!("http://{}", server.addr());
    let both = format!("{url},{url}/");
    let o = options(
        &both,
        &[
            "--games",
            "3",
            "--players-per-game",
            "2",
            "--spectators-per-game",
            "1",
            "--rate",
            "5",
            "--duration",
            "2",
            "--idle-spectators",
            "3",
        ],
    );
    let report = tokio::time::timeout(Duration::from_secs(60), run(o))
        .await
        .expect("run within a minute")
        .expect("run");
    assert_eq!(report.errors(), 0, "errors: {:?}", report.stats.errors);
    let opened: Vec<usize> = report.per_url.iter().map(|u| u.sockets_opened).collect();
    // 3 games x 3 sockets + 3 idle = 12, six each (more if a game ended
    // and was replaced, still alternating).
    assert_eq!(opened.len(), 2);
    assert!(
        opened[0] >= 6 && opened[0].abs_diff(opened[1]) <= 1,
        "{opened:?}"
    );
    // Both URLs' viewers were measured.
    assert!(report.stats.per_url.iter().all(|u| !u.broadcast.is_empty()));
    assert!(report.to_string().contains(" (lobby): "), "{report}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_cut_off_by_the_server_count_as_errors() {
    let mut config = citadel::config_for_tests();
    // One message a second: the lobby steps alone overrun it.
    config.rate_per_sec = 1;
    config.rate_burst = 1;
    let server = Server::start(config).await.expect("server");
    let url = format!("http://{}", server.addr());
    let o = options(
        &url,
        &[
            "--games",
            "1",
            "--players-per-game",
            "2",
            "--rate",
            "10",
            "--duration",
            "2",
        ],
    );
    let report = tokio::time::timeout(Duration::from_secs(120), run(o))
        .await
        .expect("run within two minutes");
    match report {
        // No game could even start.
        Err(e) => assert!(e.to_string().contains("no game could be set up"), "{e:#}"),
        Ok(r) => assert!(r.errors() > 0, "no error reported: {}", r),
    }
    server.shutdown().await;
}

/// Idle spectators past what one process may open go to worker copies of
/// the tool, whose sockets count in the report.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_spectators_past_the_socket_budget_go_to_worker_processes() {
    let server = Server::start(citadel::config_for_tests())
        .await
        .expect("server");
    let url = format!("http://{}", server.addr());
    let run = tokio::process::Command::new(env!("CARGO_BIN_EXE_citadel-load"))
        .args(["--url", &url])
        .args(["--games", "1", "--players-per-game", "2"])
        .args([
            "--spectators-per-game",
            "1",
            "--rate",
            "5",
            "--duration",
            "2",
        ])
        .args(["--idle-spectators", "20"])
        // 3 game sockets + 5 idle here; 15 more need two workers of 8.
        .args(["--sockets-per-process", "8"])
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("run within a minute")
        .expect("citadel-load runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("games=1 sockets=23 "), "{last}");
    assert!(last.contains(" errors=0 "), "{last}");
    server.shutdown().await;
}
