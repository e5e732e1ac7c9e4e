//! # citadel-load
//!
//! Drives a running Citadel server over real WebSockets, the way players
//! and spectators do: games are created through the lobby API, players
//! join, get ready and start, then play random legal commands (taken from
//! the `legal` list the server sends) at a fixed rate per game while
//! spectators watch. Extra idle spectators only watch.
//!
//! Measured per command: the time from sending it to its `ack`, and to
//! each viewer (the sender, the other players, the spectators) receiving
//! the events it caused — the *broadcast* latency, the number players
//! feel. The report's last line is machine-readable:
//!
//! `games=G sockets=S cmds_per_s=R p50_ms=.. p99_ms=.. p999_ms=.. errors=E server_rss_mb=M`
//!
//! where the percentiles are of the broadcast latency and the RSS is the
//! peak the server reported on `/metrics` during the run (with several
//! `--url`s, the sum of each one's peak).
//!
//! `--url` may name several nodes of a cluster (repeated, or a
//! comma-separated list): the games are created through the first one's
//! lobby and every socket goes to the next URL round robin
//! ([`spread`]); the report then gives each URL's sockets, latency and
//! RSS.
//!
//! A process may hold only so many sockets (`ulimit -n`); idle spectators
//! beyond what this process can open are handed to worker copies of the
//! tool (`--worker-codes`), which report back on their stdout.

pub mod game;
pub mod idle;
pub mod spread;
pub mod stats;
pub mod wire;

use anyhow::Context;
use clap::Parser;
use game::GameShape;
use spread::Spread;
use stats::{quantile_ms, Stats};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch, Semaphore};
use tokio::time::Instant;

/// Command-line options.
#[derive(Clone, Debug, Parser)]
#[command(
    name = "citadel-load",
    version,
    about = "Load a running Citadel server over real WebSockets"
)]
pub struct Options {
    /// The server's base URL. Give it more than once, or a comma-separated
    /// list, to spread the sockets over the nodes of a cluster: games are
    /// created through the first URL's lobby, and each socket (player,
    /// spectator, idle spectator) goes to the next URL round robin, so a
    /// game's players land on different nodes.
    #[arg(
        long = "url",
        value_name = "URL",
        default_value = "http://127.0.0.1:8080",
        action = clap::ArgAction::Append
    )]
    pub urls: Vec<String>,
    /// Concurrent games (a game that ends is replaced by a new one).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Player sockets per game, 1–5: as many as the table has seats. With
    /// Siege's default options the last plays the Dark Legion, and a
    /// single player faces the AI Dark Legion.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub players_per_game: u8,
    /// The game to load (its id in `GET /api/catalogue`); left out, the
    /// server's first game (Siege).
    #[arg(long)]
    pub kind: Option<String>,
    /// The game's own options, as JSON (`--kind neuroshima --options '{}'
    /// --players-per-game 2`); left out, Siege's C1M1 for
    /// `--players-per-game` players. The tool knows no game: it plays
    /// random legal commands and ends a game when the server sends its
    /// outcome.
    #[arg(long, value_parser = parse_json_object)]
    pub options: Option<serde_json::Map<String, serde_json::Value>>,
    /// Spectator sockets per game (measured like players).
    #[arg(long, default_value_t = 2)]
    pub spectators_per_game: u32,
    /// Commands per second per game.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Seconds to measure, once every game has started.
    #[arg(long, default_value_t = 30)]
    pub duration: u64,
    /// Extra spectator sockets that only watch (spread over the games; with
    /// `--games 0`, over lobbies created for them).
    #[arg(long, default_value_t = 0)]
    pub idle_spectators: usize,
    /// Connections being set up at once.
    #[arg(long, default_value_t = 64)]
    pub setup_concurrency: usize,
    /// Seed for the random choice of commands.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Sockets one process opens at most (default: as many as its
    /// open-file limit allows); the rest go to worker processes. Lets a
    /// test exercise the workers without exhausting file descriptors.
    #[arg(long, hide = true)]
    pub sockets_per_process: Option<usize>,
    /// Internal: run as a worker holding idle spectators of these games
    /// (comma-separated codes) until stdin closes.
    #[arg(long, hide = true)]
    pub worker_codes: Option<String>,
    /// Internal: a worker's first socket position in the round robin over
    /// the URLs (it continues the parent's sequence).
    #[arg(long, hide = true, default_value_t = 0)]
    pub first_position: usize,
}

/// `--options`: a JSON object.
fn parse_json_object(text: &str) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    match serde_json::from_str(text) {
        Ok(serde_json::Value::Object(o)) => Ok(o),
        Ok(_) => Err("the options must be a JSON object".into()),
        Err(e) => Err(format!("not JSON: {e}")),
    }
}

/// What every task of a run shares.
#[derive(Debug)]
pub struct Shared {
    http: reqwest::Client,
    spread: Spread,
    setup_slots: Semaphore,
    /// Set to the end of the measured window when the run starts.
    go: watch::Receiver<Option<Instant>>,
    seed: u64,
    kind: Option<String>,
    options: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Shared {
    fn new(options: &Options, go: watch::Receiver<Option<Instant>>) -> anyhow::Result<Self> {
        Ok(Shared {
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()?,
            spread: Spread::new(&options.urls, options.first_position)?,
            setup_slots: Semaphore::new(options.setup_concurrency.max(1)),
            go,
            seed: options.seed,
            kind: options.kind.clone(),
            options: options.options.clone(),
        })
    }

    /// `POST /api/games` for C1M1 with `players` seats; the last player is
    /// the Dark Legion (the AI when there is a single player).
    async fn create_game(&self, players: u8) -> anyhow::Result<String> {
        let mut options = match &self.options {
            Some(given) => given.clone(),
            // Siege's C1M1 for `players` seats.
            None => {
                let dark_legion = if players == 1 {
                    serde_json::json!({"mode": "ai"})
                } else {
                    serde_json::json!({"mode": "seat", "seat": players - 1})
                };
                let siege = serde_json::json!({
                    "mission": "ce-c1m1",
                    "seats": players,
                    "dark_legion": dark_legion,
                    "starting_rank": 1,
                });
                match siege {
                    serde_json::Value::Object(o) => o,
                    _ => serde_json::Map::new(),
                }
            }
        };
        if let Some(kind) = &self.kind {
            options.insert("kind".into(), kind.clone().into());
        }
        let res = self
            .http
            .post(format!("{}/api/games", self.spread.lobby().base))
            .json(&options)
            .send()
            .await
            .context("POST /api/games")?;
        let status = res.status();
        anyhow::ensure!(status.is_success(), "POST /api/games: {status}");
        let body: serde_json::Value = res.json().await.context("POST /api/games body")?;
        body.get("code")
            .and_then(|c| c.as_str())
            .map(str::to_string)
            .context("POST /api/games: no code")
    }

    fn past_deadline(&self) -> bool {
        self.go.borrow().is_some_and(|d| Instant::now() >= d)
    }
}

/// The result of a run.
#[derive(Debug)]
pub struct Report {
    /// Options it ran with.
    pub options: Options,
    /// Games and spectators' numbers.
    pub stats: Stats,
    /// Sockets open at the start of the window (players, spectators, idle).
    pub sockets: usize,
    /// Idle spectator sockets among them.
    pub idle_sockets: usize,
    /// The measured window.
    pub window: Duration,
    /// Peak server RSS seen on `/metrics`, bytes.
    pub server_rss_peak: Option<u64>,
    /// Server RSS at the end, bytes.
    pub server_rss_end: Option<u64>,
    /// Per `--url`, in order.
    pub per_url: Vec<UrlReport>,
}

/// What one `--url` saw.
#[derive(Debug, Clone, Default)]
pub struct UrlReport {
    /// The base URL.
    pub base: String,
    /// Sockets that connected there during the run (this process and its
    /// workers; replacement games included).
    pub sockets_opened: usize,
    /// Peak RSS it reported on `/metrics`, bytes.
    pub rss_peak: Option<u64>,
}

impl Report {
    /// Errors of every kind.
    pub fn errors(&self) -> usize {
        self.stats.errors.len()
    }

    /// Acknowledged commands per second over the window.
    pub fn commands_per_sec(&self) -> f64 {
        self.stats.commands as f64 / self.window.as_secs_f64().max(0.001)
    }

    /// The machine-readable last line.
    pub fn last_line(&self) -> String {
        let b = &self.stats.broadcast;
        format!(
            "games={} sockets={} cmds_per_s={:.1} p50_ms={:.2} p99_ms={:.2} p999_ms={:.2} errors={} server_rss_mb={}",
            self.options.games,
            self.sockets,
            self.commands_per_sec(),
            quantile_ms(b, 0.5),
            quantile_ms(b, 0.99),
            quantile_ms(b, 0.999),
            self.errors(),
            self.server_rss_peak
                .map_or("unknown".to_string(), |r| format!("{:.0}", r as f64 / 1_048_576.0)),
        )
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = &self.options;
        let s = &self.stats;
        writeln!(
            f,
            "citadel-load: {} games x ({} players + {} spectators) at {} cmd/s each, {} idle spectators, {:.1} s measured",
            o.games,
            o.players_per_game,
            o.spectators_per_game,
            o.rate,
            self.idle_sockets,
            self.window.as_secs_f64()
        )?;
        writeln!(
            f,
            "commands: {} ({:.1}/s); games started {}, finished {}",
            s.commands,
            self.commands_per_sec(),
            s.games_started,
            s.games_finished
        )?;
        for (name, h) in [("ack", &s.ack), ("broadcast", &s.broadcast)] {
            writeln!(
                f,
                "{name} latency ms: p50 {:.2} p99 {:.2} p999 {:.2} max {:.2} ({} samples)",
                quantile_ms(h, 0.5),
                quantile_ms(h, 0.99),
                quantile_ms(h, 0.999),
                quantile_ms(h, 1.0),
                h.len()
            )?;
        }
        let mb = |r: Option<u64>| {
            r.map_or("unknown".into(), |r| {
                format!("{:.1} MB", r as f64 / 1_048_576.0)
            })
        };
        writeln!(
            f,
            "server rss: peak {}, at the end {}",
            mb(self.server_rss_peak),
            mb(self.server_rss_end)
        )?;
        if self.per_url.len() > 1 {
            for (i, u) in self.per_url.iter().enumerate() {
                let lat = s.per_url.get(i);
                let q = |h: Option<&hdrhistogram::Histogram<u64>>, q| {
                    h.map_or(0.0, |h| quantile_ms(h, q))
                };
                let (ack, bc) = (lat.map(|l| &l.ack), lat.map(|l| &l.broadcast));
                writeln!(
                    f,
                    "url {}{}: {} sockets opened, ack p50 {:.2} p99 {:.2}, broadcast p50 {:.2} p99 {:.2} ms, rss peak {}",
                    u.base,
                    if i == 0 { " (lobby)" } else { "" },
                    u.sockets_opened,
                    q(ack, 0.5),
                    q(ack, 0.99),
                    q(bc, 0.5),
                    q(bc, 0.99),
                    mb(u.rss_peak)
                )?;
            }
        }
        writeln!(f, "errors: {}", self.errors())?;
        for e in s.sample_errors() {
            writeln!(f, "  {e}")?;
        }
        write!(f, "{}", self.last_line())
    }
}

/// Idle spectators one lobby hosts when `--games 0`.
const IDLE_PER_LOBBY: usize = 100;
/// File descriptors kept free for everything but sockets.
const FD_RESERVE: u64 = 256;

/// Raise this process's open-file limit as far as allowed; returns how
/// many sockets it may open (at most `--sockets-per-process`).
fn socket_budget(options: &Options) -> usize {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let soft = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft);
    let allowed = usize::try_from(soft.saturating_sub(FD_RESERVE)).unwrap_or(usize::MAX);
    options
        .sockets_per_process
        .map_or(allowed, |cap| cap.min(allowed))
}

/// Run a load test as `options` say.
///
/// # Errors
/// Only for a setup that cannot run at all (no server, bad options);
/// failures during the run are counted in the report.
pub async fn run(options: Options) -> anyhow::Result<Report> {
    anyhow::ensure!(options.rate > 0.0, "--rate must be positive");
    let budget = socket_budget(&options);
    let (go_tx, go) = watch::channel(None);
    let shared = Arc::new(Shared::new(&options, go)?);
    for target in shared.spread.targets() {
        shared
            .http
            .get(format!("{}/healthz", target.base))
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .with_context(|| format!("no Citadel server answers at {}", target.base))?;
    }
    let shape = GameShape {
        players: options.players_per_game,
        spectators: options.spectators_per_game,
        rate: options.rate,
    };
    let game_sockets = options.games * (usize::from(shape.players) + shape.spectators as usize);
    anyhow::ensure!(
        game_sockets <= budget,
        "{game_sockets} game sockets exceed this process's limit of {budget} (ulimit -n)"
    );

    // 1. Every game set up and started.
    let (ready_tx, mut ready_rx) = mpsc::channel(options.games.max(1));
    let slots: Vec<_> = (0..options.games)
        .map(|slot| {
            tokio::spawn(game::run_slot(
                Arc::clone(&shared),
                shape,
                slot,
                ready_tx.clone(),
            ))
        })
        .collect();
    drop(ready_tx);
    let mut codes = Vec::new();
    for _ in 0..options.games {
        match ready_rx.recv().await {
            Some(Some(code)) => codes.push(code),
            Some(None) => {}
            None => break,
        }
    }
    let mut stats = Stats::default();
    if options.games > 0 && codes.is_empty() {
        anyhow::bail!("no game could be set up");
    }

    // 2. Idle spectators, here and in workers.
    if options.games == 0 {
        for _ in 0..options.idle_spectators.div_ceil(IDLE_PER_LOBBY) {
            codes.push(shared.create_game(shape.players).await?);
        }
    }
    let local = options
        .idle_spectators
        .min(budget.saturating_sub(game_sockets));
    let idle = idle::start(Arc::clone(&shared), &codes, local).await;
    let workers = idle::start_workers(
        &options,
        &shared.spread,
        &codes,
        options.idle_spectators - local,
    )
    .await?;
    let idle_sockets = idle.connected() + workers.connected();

    // 3. The measured window.
    let started = Instant::now();
    let deadline = started + Duration::from_secs(options.duration);
    let _ = go_tx.send(Some(deadline));
    let targets = shared.spread.targets().len();
    let mut rss_peaks: Vec<Option<u64>> = vec![None; targets];
    while Instant::now() < deadline {
        for (i, peak) in rss_peaks.iter_mut().enumerate() {
            *peak = (*peak).max(server_rss(&shared, i).await);
        }
        tokio::time::sleep(Duration::from_secs(1).min(deadline - Instant::now())).await;
    }
    let mut rss_ends = Vec::new();
    for (i, peak) in rss_peaks.iter_mut().enumerate() {
        let end = server_rss(&shared, i).await;
        *peak = (*peak).max(end);
        rss_ends.push(end);
    }
    for slot in slots {
        match slot.await {
            Ok(s) => stats.merge(s),
            Err(e) => stats.error(format!("game task failed: {e}")),
        }
    }
    let window = started.elapsed();
    stats.errors.extend(idle.finish().await);
    let mut opened = shared.spread.opened_counts();
    let (worker_errors, worker_opened) = workers.finish().await;
    stats.errors.extend(worker_errors);
    for (mine, theirs) in opened.iter_mut().zip(worker_opened) {
        *mine += theirs;
    }
    let per_url = shared
        .spread
        .targets()
        .iter()
        .zip(opened)
        .zip(&rss_peaks)
        .map(|((t, sockets_opened), rss_peak)| UrlReport {
            base: t.base.clone(),
            sockets_opened,
            rss_peak: *rss_peak,
        })
        .collect();
    Ok(Report {
        options,
        stats,
        sockets: game_sockets + idle_sockets,
        idle_sockets,
        window,
        server_rss_peak: sum_known(&rss_peaks),
        server_rss_end: sum_known(&rss_ends),
        per_url,
    })
}

/// The sum of the values known, `None` if none is.
fn sum_known(values: &[Option<u64>]) -> Option<u64> {
    values.iter().flatten().copied().reduce(|a, b| a + b)
}

/// The resident memory of the server at `--url` number `target`, from its
/// `/metrics`.
async fn server_rss(shared: &Shared, target: usize) -> Option<u64> {
    let base = &shared.spread.targets().get(target)?.base;
    let text = shared
        .http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .ok()?
        .text()
        .await
        .ok()?;
    parse_rss(&text)
}

/// `citadel_process_resident_bytes N` from a metrics text.
pub fn parse_rss(metrics: &str) -> Option<u64> {
    metrics.lines().find_map(|l| {
        l.strip_prefix("citadel_process_resident_bytes ")
            .and_then(|v| v.trim().parse::<f64>().ok())
            .map(|v| v as u64)
    })
}

/// Worker mode: hold idle spectators of `codes` until stdin closes,
/// printing `connected N opened=A,B,..` (sockets per `--url`) once they
/// are up and `done errors=E` (then one
/// error per line) at the end.
///
/// # Errors
/// If stdout cannot be written.
pub async fn worker(options: Options, codes: &str) -> anyhow::Result<()> {
    let budget = socket_budget(&options);
    let (_go_tx, go) = watch::channel(None);
    let shared = Arc::new(Shared::new(&options, go)?);
    let codes: Vec<String> = codes.split(',').map(str::to_string).collect();
    let idle = idle::start(
        Arc::clone(&shared),
        &codes,
        options.idle_spectators.min(budget),
    )
    .await;
    let opened: Vec<String> = shared
        .spread
        .opened_counts()
        .iter()
        .map(usize::to_string)
        .collect();
    println!("connected {} opened={}", idle.connected(), opened.join(","));
    let mut stdin = tokio::io::stdin();
    let mut sink = Vec::new();
    let _ = tokio::io::AsyncReadExt::read_to_end(&mut stdin, &mut sink).await;
    let errors = idle.finish().await;
    println!("done errors={}", errors.len());
    for e in errors {
        println!("{e}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_is_one_default_or_repeated_or_a_list() {
        let one = Options::parse_from(["citadel-load"]);
        assert_eq!(one.urls, ["http://127.0.0.1:8080"]);
        let many = Options::parse_from([
            "citadel-load",
            "--url",
            "http://a:1",
            "--url",
            "http://b:2,http://c:3",
        ]);
        let spread = Spread::new(&many.urls, many.first_position).expect("URLs");
        let bases: Vec<&str> = spread.targets().iter().map(|t| t.base.as_str()).collect();
        assert_eq!(bases, ["http://a:1", "http://b:2", "http://c:3"]);
        assert_eq!(spread.lobby().base, "http://a:1");
    }

    #[test]
    fn rss_is_read_from_the_metrics_text() {
        let text = "# TYPE x counter\nx_total 3\ncitadel_process_resident_bytes 104857600\n# EOF\n";
        assert_eq!(parse_rss(text), Some(104_857_600));
        assert_eq!(parse_rss("x 1\n"), None);
    }

    #[test]
    fn the_last_line_has_every_field_in_order() {
        let mut stats = Stats {
            commands: 50,
            ..Stats::default()
        };
        stats.broadcast(Duration::from_millis(3));
        let report = Report {
            options: Options::parse_from(["citadel-load", "--games", "7"]),
            stats,
            sockets: 42,
            idle_sockets: 0,
            window: Duration::from_secs(10),
            server_rss_peak: Some(200 * 1_048_576),
            server_rss_end: None,
            per_url: Vec::new(),
        };
        assert_eq!(
            report.last_line(),
            "games=7 sockets=42 cmds_per_s=5.0 p50_ms=3.00 p99_ms=3.00 p999_ms=3.00 errors=0 server_rss_mb=200"
        );
        assert!(report.to_string().ends_with(&report.last_line()));
    }
}
