//! Browser tests: a real server on 127.0.0.1:0 serving the repository's
//! `web-client/`, driven by headless Chromium through the Node scripts in
//! `tests/browser/` (playwright-core + `node:test`).
//!
//! - `selftest.test.mjs` always runs: it proves Chromium, playwright-core
//!   and the harness work, against a fixture page of its own.
//! - `text.test.mjs` always runs (Node only): every Command and Event
//!   variant of `web-client/protocol.ts` gets its own words from Siege's `games/siege/text.js`.
//! - `citadel.test.mjs` (the DOM-contract tests: lobby, moves by clicking,
//!   spectator, reconnect) and `screens.test.mjs` (accounts, my games,
//!   campaigns, the replay viewer), `player.test.mjs` (issue 16's defects,
//!   one test each), `a11y.test.mjs` (axe-core on home, lobby and game, Siege's and Neuroshima's)
//!   and `missions.test.mjs` (the mission picker and briefings, a game at
//!   a chosen rank, the campaign screen's mission order, the create form's
//!   game picker with generic options from the catalogue), `weapons.test.mjs`
//!   (a rank-6 Grenade Launcher drafted and fired by square), `board.test.mjs`
//!   (zoom and pan, the phone's fit, gliding moves, the last action, the
//!   colour-blind safe palette, cards and the draft explained from the content)
//!   and `hotseat.test.mjs` (two corporations on one page, passed by the
//!   hand-over screen, no seat's secrets in the page while another plays)
//!   and `classic.test.mjs` (the 1993 edition: the picker, the Citadel
//!   piece, the training mission in hotseat, played by clicking)
//!   and `neuroshima.test.mjs` (Neuroshima Hex's module: the army chosen in
//!   the lobby, a whole game against a bot seat played by clicking with a
//!   reload on the way, a spectator who sees every battle played back, the
//!   tile descriptions, a redirect drawn branch by branch, every instant
//!   and question answered by clicking, hotseat, a phone's size played
//!   by tapping) and `ratings.test.mjs` (a rated table from the create
//!   form, a rated game's rating in the player's profile with its history
//!   and replay, the leaderboard card) and `lobby.test.mjs` (a listed
//!   table joined from "Open tables", the featured live game watched)
//!   run only once `web-client/index.html` carries
//!   the board client's marker, `data-client="citadel-board"`; before that
//!   they are reported as PENDING, not as passed.
//!
//! Without `node`, `npm` (for the first `npm ci`) or Chromium the test
//! prints SKIPPED and passes, unless `CITADEL_REQUIRE_ALL=1`, then it fails.
//! Screenshots land in `target/screenshots/`.

use citadel_server::Server;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The marker the board client puts on `<body>`.
const MARKER: &str = r#"data-client="citadel-board""#;
/// The longest the Node run may take before it is killed (the whole
/// suite takes about 6 minutes on a loaded 2-core machine).
const NODE_LIMIT: Duration = Duration::from_secs(600);

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A line for the terminal even while libtest captures output (written to
/// the process's stderr directly, not through `eprintln!`).
fn notice(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Skip (pass with a notice), or fail when every test must run.
fn skip(reason: &str) {
    if std::env::var("CITADEL_REQUIRE_ALL").is_ok_and(|v| v == "1") {
        panic!("browser tests cannot run and CITADEL_REQUIRE_ALL=1: {reason}");
    }
    notice(&format!("SKIPPED: browser tests: {reason}"));
}

fn node_version() -> Option<String> {
    let out = Command::new("node").arg("--version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// `npm ci` in `tests/browser` unless its packages are already there.
fn ensure_node_modules(dir: &Path) -> Result<(), String> {
    let installed = ["playwright-core", "axe-core"].iter().all(|m| {
        dir.join("node_modules")
            .join(m)
            .join("package.json")
            .exists()
    });
    if installed {
        return Ok(());
    }
    notice(&format!("browser tests: npm ci in {}", dir.display()));
    let status = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(dir)
        .status()
        .map_err(|e| format!("cannot run npm: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("npm ci failed ({status})"))
    }
}

/// Run `node --test` on `files`, output streamed straight to the terminal.
fn run_node(dir: &Path, files: &[&str], url: &str, chromium: &Path) -> Result<(), String> {
    let mut child = Command::new("node")
        .arg("--test")
        .arg("--test-reporter=spec")
        .args(files)
        .current_dir(dir)
        .env("CITADEL_URL", url)
        .env("CHROMIUM_PATH", chromium)
        .stdin(Stdio::null())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run node: {e}"))?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => return Err(format!("node --test failed ({status})")),
            Ok(None) if started.elapsed() > NODE_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("node --test did not finish within {NODE_LIMIT:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Err(format!("cannot wait for node: {e}")),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_client_works_in_headless_chromium() {
    let root = repo_root();
    let dir = root.join("tests/browser");
    let chromium = std::env::var_os("CHROMIUM_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));

    let Some(version) = node_version() else {
        return skip("`node` is not installed");
    };
    if !chromium.exists() {
        return skip(&format!(
            "no Chromium at {} (apt-get install chromium, or set CHROMIUM_PATH)",
            chromium.display()
        ));
    }
    if let Err(e) = ensure_node_modules(&dir) {
        return skip(&e);
    }

    let web_dir = root.join("web-client");
    let index = std::fs::read_to_string(web_dir.join("index.html")).unwrap_or_default();
    // text.test.mjs and patch.test.mjs need no server nor browser: the
    // client's words for every protocol variant, and its view patches.
    let mut files = vec!["selftest.test.mjs", "text.test.mjs", "patch.test.mjs"];
    if index.contains(MARKER) {
        files.push("citadel.test.mjs");
        files.push("screens.test.mjs");
        files.push("player.test.mjs");
        files.push("a11y.test.mjs");
        files.push("missions.test.mjs");
        files.push("weapons.test.mjs");
        files.push("board.test.mjs");
        files.push("hotseat.test.mjs");
        files.push("classic.test.mjs");
        files.push("neuroshima.test.mjs");
        files.push("ratings.test.mjs");
        files.push("lobby.test.mjs");
    } else {
        notice(&format!(
            "PENDING: browser contract tests (tests/browser/citadel.test.mjs, screens.test.mjs) not run: \
             web-client/index.html lacks the board client's marker {MARKER} on <body>"
        ));
    }

    // `CITADEL_BROWSER_ONLY=classic,hotseat` runs only the files whose
    // names start with one of these (and the self-test), for a quick run.
    if let Ok(only) = std::env::var("CITADEL_BROWSER_ONLY") {
        let wanted: Vec<&str> = only
            .split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .collect();
        if !wanted.is_empty() {
            files.retain(|f| *f == "selftest.test.mjs" || wanted.iter().any(|w| f.starts_with(w)));
        }
    }

    let mut config = citadel::config_for_tests();
    config.web_dir = Some(web_dir);
    config.bot_delay_ms = 50;
    config.grace_secs = 30;
    let server = Server::start(config).await.expect("server starts");
    let url = format!("http://{}", server.addr());
    notice(&format!(
        "browser tests: node {version}, {}, server {url}",
        chromium.display()
    ));

    let chromium_path = chromium.clone();
    let result = tokio::task::spawn_blocking(move || run_node(&dir, &files, &url, &chromium_path))
        .await
        .expect("the node runner does not panic");
    server.shutdown().await;
    if let Err(e) = result {
        panic!("browser tests failed: {e} (screenshots in target/screenshots/)");
    }
}
