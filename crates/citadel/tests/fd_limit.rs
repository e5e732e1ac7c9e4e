//! File-descriptor exhaustion against a lowered limit (issue 17, item 1):
//! the real `citadel` binary runs under `ulimit -n 256`, many clients
//! hold half-sent requests, and an unrelated client's `/healthz` must
//! still answer within a stated bound. Its own process, so the lowered
//! limit touches nothing else.

use std::net::SocketAddr;
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};
use tokio::process::{Child, Command};

/// The file limit the server runs under.
const FILE_LIMIT: u64 = 256;
/// Its header timeout, seconds.
const HEADER_TIMEOUT_SECS: u64 = 2;
/// Connections one address may hold.
const PER_ADDRESS: usize = 32;

struct Running {
    child: Child,
    addr: SocketAddr,
    log: tokio::sync::mpsc::UnboundedReceiver<String>,
}

/// Start the binary under the lowered limit; its address and its log
/// lines as they come.
async fn start() -> Running {
    let bin = env!("CARGO_BIN_EXE_citadel");
    let script = format!(
        "ulimit -n {FILE_LIMIT} && exec \"$0\" --addr 127.0.0.1:0 --database-url memory: --log-format json \
         --header-timeout-secs {HEADER_TIMEOUT_SECS} --max-connections-per-ip {PER_ADDRESS} --limit-loopback"
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("the server binary starts");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut lines = BufReader::new(stdout).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let (addr, mut seen) = tokio::time::timeout(Duration::from_secs(60), async {
        let mut seen = Vec::new();
        while let Some(line) = rx.recv().await {
            if let Some(rest) = line.strip_prefix("Citadel is running at http://") {
                let addr = rest.trim_end_matches('/').parse().expect("an address");
                return (addr, seen);
            }
            seen.push(line);
        }
        panic!("the server exited before listening: {seen:?}");
    })
    .await
    .expect("the server listens within 60 s");
    seen.retain(|l| l.contains("connection cap"));
    let cap_line = seen.first().cloned().unwrap_or_default();
    let fields = serde_json::from_str::<serde_json::Value>(&cap_line)
        .unwrap_or_else(|e| panic!("no connection cap logged ({e}): {cap_line:?}"))["fields"]
        .clone();
    // It says which cap it chose, and that cap is below the limit.
    assert_eq!(fields["file_limit"], FILE_LIMIT, "{cap_line}");
    let cap = fields["max_connections"].as_u64().expect("the cap");
    assert!(cap < FILE_LIMIT, "cap {cap} is not below the limit");
    Running {
        child,
        addr,
        log: rx,
    }
}

async fn connect_from(from: [u8; 4], addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((from, 0)))?;
    socket.connect(addr).await
}

/// `GET /healthz` over a fresh connection from `from`: did it answer
/// `ok`, and how long did that take? Retries refused connections until
/// `limit`.
async fn healthz_from(from: [u8; 4], addr: SocketAddr, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < limit {
        let attempt = async {
            let mut s = connect_from(from, addr).await.ok()?;
            s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .await
                .ok()?;
            let mut answer = Vec::new();
            s.read_to_end(&mut answer).await.ok()?;
            let answer = String::from_utf8_lossy(&answer).to_string();
            (answer.starts_with("HTTP/1.1 200") && answer.ends_with("ok")).then_some(())
        };
        let left = limit.saturating_sub(started.elapsed());
        if let Ok(Some(())) = tokio::time::timeout(left, attempt).await {
            return Some(started.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

/// Open `count` connections from `from`, each sending the start of a
/// request and nothing more.
async fn hold(from: [u8; 4], addr: SocketAddr, count: usize, into: &mut Vec<TcpStream>) {
    for _ in 0..count {
        match connect_from(from, addr).await {
            Ok(mut s) => {
                let _ = s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n").await;
                into.push(s);
            }
            Err(e) => panic!("connect: {e}"),
        }
    }
}

/// What this proves, under a file limit of 256:
/// 1. 400 half-sent requests from one address: the server keeps 32 and
///    closes the rest at once; another address's `/healthz` answers
///    within 1 s.
/// 2. Half-sent requests from 20 addresses, more than the whole cap: the
///    server never runs out of descriptors (no accept error in its log),
///    and an unrelated client's `/healthz` answers within the header
///    timeout plus 3 s, because the held connections are cut at the
///    header timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_while_half_open_connections_are_held_under_a_lowered_limit() {
    let test = async {
        let mut server = start().await;
        let addr = server.addr;
        let mut held = Vec::new();
        hold([127, 0, 0, 1], addr, 400, &mut held).await;
        let took = healthz_from([127, 0, 0, 200], addr, Duration::from_secs(1)).await;
        assert!(
            took.is_some(),
            "healthz did not answer within 1 s (one address holding 400)"
        );

        for i in 2..22u8 {
            hold([127, 0, 1, i], addr, 2 * PER_ADDRESS, &mut held).await;
        }
        let bound = Duration::from_secs(HEADER_TIMEOUT_SECS + 3);
        let took = healthz_from([127, 0, 0, 201], addr, bound).await;
        assert!(
            took.is_some(),
            "healthz did not answer within {bound:?} (20 addresses holding)"
        );
        drop(held);
        // No descriptor ran out: no accept error was logged.
        tokio::time::sleep(Duration::from_millis(200)).await;
        while let Ok(line) = server.log.try_recv() {
            assert!(!line.contains("accept error"), "{line}");
        }
        assert!(healthz_from([127, 0, 0, 1], addr, Duration::from_secs(2))
            .await
            .is_some());
        let _ = server.child.start_kill();
        let _ = server.child.wait().await;
    };
    tokio::time::timeout(Duration::from_secs(120), test)
        .await
        .expect("the test finishes within 120 s");
}
