//! Idle spectators: sockets that join as spectators and only read, here
//! or in worker processes when this one has no file descriptors left.

use crate::{wire, Options, Shared};
use futures_util::StreamExt;
use std::process::Stdio;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, ChildStdin};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

/// Idle spectators held by this process.
#[derive(Debug)]
pub struct IdleGroup {
    connected: usize,
    stop: watch::Sender<bool>,
    tasks: JoinSet<Option<String>>,
    /// Connection failures.
    failures: Vec<String>,
}

impl IdleGroup {
    /// Sockets that joined.
    pub fn connected(&self) -> usize {
        self.connected
    }

    /// Close every socket; returns the errors (a socket lost before the
    /// end, a failed connection).
    pub async fn finish(mut self) -> Vec<String> {
        let _ = self.stop.send(true);
        let mut errors = std::mem::take(&mut self.failures);
        while let Some(r) = self.tasks.join_next().await {
            match r {
                Ok(Some(e)) => errors.push(e),
                Ok(None) => {}
                Err(e) => errors.push(format!("idle spectator task failed: {e}")),
            }
        }
        errors
    }
}

/// Connect `count` idle spectators, spread over `codes`, and wait until
/// each has joined (or failed).
pub async fn start(shared: Arc<Shared>, codes: &[String], count: usize) -> IdleGroup {
    let (stop, stop_rx) = watch::channel(false);
    let (joined_tx, mut joined_rx) = mpsc::channel(count.max(1));
    let mut tasks = JoinSet::new();
    for i in 0..count {
        let Some(code) = codes.get(i % codes.len().max(1)).cloned() else {
            break;
        };
        tasks.spawn(watch_game(
            Arc::clone(&shared),
            code,
            i,
            stop_rx.clone(),
            joined_tx.clone(),
        ));
    }
    drop(joined_tx);
    let mut connected = 0;
    let mut failures = Vec::new();
    while let Some(joined) = joined_rx.recv().await {
        match joined {
            Ok(()) => connected += 1,
            Err(e) => failures.push(e),
        }
    }
    IdleGroup {
        connected,
        stop,
        tasks,
        failures,
    }
}

/// One idle spectator: join, then read (and drop) whatever comes until
/// told to stop. Returns an error if the socket was lost before that.
async fn watch_game(
    shared: Arc<Shared>,
    code: String,
    i: usize,
    mut stop: watch::Receiver<bool>,
    joined: mpsc::Sender<Result<(), String>>,
) -> Option<String> {
    let ws = {
        let Ok(_permit) = shared.setup_slots.acquire().await else {
            return None;
        };
        match wire::connect(
            &shared.ws_url,
            wire::hello(&code, &format!("idle-{i}"), true),
        )
        .await
        {
            Ok(ws) => ws,
            Err(e) => {
                let _ = joined.send(Err(format!("idle spectator: {e:#}"))).await;
                return None;
            }
        }
    };
    let (_tx, mut rx) = ws.split();
    // Joined once the server has answered (welcome).
    let first = tokio::time::timeout(wire::STEP, rx.next()).await;
    match first.map(wire::frame_text) {
        Ok(Ok(Some(_))) => {
            let _ = joined.send(Ok(())).await;
        }
        Ok(Ok(None)) | Ok(Err(_)) | Err(_) => {
            let _ = joined
                .send(Err(format!("idle spectator of {code}: no welcome")))
                .await;
            return None;
        }
    }
    drop(joined);
    loop {
        tokio::select! {
            _ = stop.changed() => return None,
            frame = rx.next() => {
                if let Err(end) = wire::frame_text(frame) {
                    return Some(format!("idle spectator of {code}: {end}"));
                }
            }
        }
    }
}

/// Worker processes holding idle spectators.
#[derive(Debug, Default)]
pub struct Workers {
    children: Vec<(Child, Option<ChildStdin>, usize)>,
    failures: Vec<String>,
}

impl Workers {
    /// Sockets the workers said they hold.
    pub fn connected(&self) -> usize {
        self.children.iter().map(|(_, _, n)| n).sum()
    }

    /// Tell every worker to stop (close its stdin) and gather its errors.
    pub async fn finish(mut self) -> Vec<String> {
        let mut errors = std::mem::take(&mut self.failures);
        for (mut child, stdin, _) in self.children {
            drop(stdin);
            let mut out = String::new();
            if let Some(mut stdout) = child.stdout.take() {
                let _ = stdout.read_to_string(&mut out).await;
            }
            let _ = child.wait().await;
            let mut lines = out.lines();
            match lines
                .next()
                .and_then(|l| l.strip_prefix("done errors="))
                .and_then(|n| n.trim().parse::<usize>().ok())
            {
                Some(n) => {
                    let texts: Vec<String> = lines.map(str::to_string).collect();
                    errors.extend(texts.iter().take(n).cloned());
                    // Count every error even if its text went missing.
                    errors.extend((texts.len()..n).map(|_| "worker error".to_string()));
                }
                None => errors.push("a worker ended without its report".into()),
            }
        }
        errors
    }
}

/// Start enough workers for `count` idle spectators over `codes`, each
/// taking as many as this process could, and wait until they are up.
///
/// # Errors
/// If this program cannot be started again.
pub async fn start_workers(
    options: &Options,
    codes: &[String],
    count: usize,
) -> anyhow::Result<Workers> {
    let mut workers = Workers::default();
    if count == 0 {
        return Ok(workers);
    }
    let per_worker = crate::socket_budget(options).max(1);
    let exe = std::env::current_exe()?;
    let joined = codes.join(",");
    let mut left = count;
    while left > 0 {
        let n = left.min(per_worker);
        left -= n;
        let mut child = tokio::process::Command::new(&exe)
            .args(["--url", &options.url])
            .args(["--idle-spectators", &n.to_string()])
            .args([
                "--setup-concurrency",
                &options.setup_concurrency.to_string(),
            ])
            .args(["--worker-codes", &joined])
            .args(
                options
                    .sockets_per_process
                    .map(|n| format!("--sockets-per-process={n}")),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().map(BufReader::new);
        let mut first = String::new();
        if let Some(out) = stdout.as_mut() {
            let _ = out.read_line(&mut first).await;
        }
        child.stdout = stdout.map(BufReader::into_inner);
        match first
            .trim()
            .strip_prefix("connected ")
            .and_then(|c| c.parse::<usize>().ok())
        {
            // A worker reports its failed connections among its errors.
            Some(c) => workers.children.push((child, stdin, c)),
            None => workers
                .failures
                .push(format!("a worker did not start: {first:?}")),
        }
    }
    Ok(workers)
}
