//! Idle spectators: sockets that join as spectators and only read, here
//! or in worker processes when this one has no file descriptors left.

use crate::spread::Spread;
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
        let position = shared.spread.reserve(1);
        tasks.spawn(watch_game(
            Arc::clone(&shared),
            code,
            i,
            position,
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
    position: usize,
    mut stop: watch::Receiver<bool>,
    joined: mpsc::Sender<Result<(), String>>,
) -> Option<String> {
    let ws = {
        let Ok(_permit) = shared.setup_slots.acquire().await else {
            return None;
        };
        let (target, at) = shared.spread.at(position);
        match wire::connect(&at.ws_url, wire::hello(&code, &format!("idle-{i}"), true)).await {
            Ok(ws) => {
                shared.spread.opened(target);
                ws
            }
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
    /// Sockets the workers opened, per `--url`.
    opened: Vec<usize>,
}

impl Workers {
    /// Sockets the workers said they hold.
    pub fn connected(&self) -> usize {
        self.children.iter().map(|(_, _, n)| n).sum()
    }

    /// Tell every worker to stop (close its stdin) and gather its errors;
    /// also returns the sockets they opened per `--url`.
    pub async fn finish(mut self) -> (Vec<String>, Vec<usize>) {
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
        (errors, self.opened)
    }
}

/// Start enough workers for `count` idle spectators over `codes`, each
/// taking as many as this process could, and wait until they are up.
/// Each continues the round robin over the URLs where `spread` stands.
///
/// # Errors
/// If this program cannot be started again.
pub async fn start_workers(
    options: &Options,
    spread: &Spread,
    codes: &[String],
    count: usize,
) -> anyhow::Result<Workers> {
    let mut workers = Workers {
        opened: vec![0; spread.targets().len()],
        ..Workers::default()
    };
    if count == 0 {
        return Ok(workers);
    }
    let per_worker = crate::socket_budget(options).max(1);
    let exe = std::env::current_exe()?;
    let joined = codes.join(",");
    let urls: Vec<&str> = spread.targets().iter().map(|t| t.base.as_str()).collect();
    let urls = urls.join(",");
    let mut left = count;
    while left > 0 {
        let n = left.min(per_worker);
        left -= n;
        let mut child = tokio::process::Command::new(&exe)
            .args(["--url", &urls])
            .args(["--idle-spectators", &n.to_string()])
            .args(["--first-position", &spread.reserve(n).to_string()])
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
        match parse_connected(&first) {
            // A worker reports its failed connections among its errors.
            Some((c, opened)) => {
                for (sum, n) in workers.opened.iter_mut().zip(opened) {
                    *sum += n;
                }
                workers.children.push((child, stdin, c));
            }
            None => workers
                .failures
                .push(format!("a worker did not start: {first:?}")),
        }
    }
    Ok(workers)
}

/// A worker's first line, `connected N opened=A,B,..`: the sockets it
/// holds, and how many it opened per `--url`.
fn parse_connected(line: &str) -> Option<(usize, Vec<usize>)> {
    let mut words = line.split_whitespace();
    if words.next()? != "connected" {
        return None;
    }
    let connected = words.next()?.parse().ok()?;
    let opened = words
        .next()
        .and_then(|w| w.strip_prefix("opened="))
        .map(|list| list.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    Some((connected, opened))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workers_first_line_gives_its_sockets_per_url() {
        assert_eq!(
            parse_connected("connected 5 opened=2,2,1\n"),
            Some((5, vec![2, 2, 1]))
        );
        assert_eq!(parse_connected("connected 3"), Some((3, vec![])));
        assert_eq!(parse_connected("Error: no server"), None);
    }
}
