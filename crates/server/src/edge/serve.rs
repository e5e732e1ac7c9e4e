//! Accepting TCP connections and serving HTTP/1.1 on them, with the limits
//! a public server needs (issue 17, item 1):
//!
//! - **A cap on every connection**, HTTP and WebSocket alike, below the
//!   process's file limit: each accepted socket holds a [`Ticket`] until
//!   the socket itself closes (an upgraded WebSocket keeps it, because the
//!   ticket travels inside the I/O object hyper hands to the upgrade).
//! - **A cap per client address**, so one host cannot take every slot.
//! - **A header-read timeout** (hyper's), which also closes a keep-alive
//!   connection that sends no next request: a half-sent request or an idle
//!   socket holds its descriptor for at most that long.
//! - **Accept errors back off** (10 ms doubling to 1 s) instead of spinning
//!   on `EMFILE`.
//!
//! A connection over a cap is accepted and closed at once: the kernel's
//! backlog would otherwise hold it, and the client would wait for nothing.

use crate::metrics::{Metrics, ReasonLabel};
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{broadcast, watch, OwnedSemaphorePermit, Semaphore};
use tower::Service;

/// Descriptors kept back from connections out of a file limit of `limit`:
/// the listener, the database pool, log and client files being served,
/// the runtime's own. An eighth of the limit, at least 32 and at most
/// 1,024 (a pool and the files in flight need tens, not thousands).
pub fn reserved_fds(limit: u64) -> u64 {
    (limit / 8).clamp(32, 1024)
}

/// The fewest descriptors ever kept back, even when the operator asks
/// for more connections than the default cap.
const MIN_RESERVED_FDS: u64 = 32;

/// The connection cap for a file limit: below the limit by
/// [`reserved_fds`]; a cap asked for (`--max-connections`) may go higher,
/// up to the limit less [`MIN_RESERVED_FDS`], at the operator's risk.
pub fn cap_for_limit(limit: u64, requested: Option<usize>) -> usize {
    let to_usize = |n: u64| usize::try_from(n).unwrap_or(usize::MAX).max(1);
    let default = to_usize(limit.saturating_sub(reserved_fds(limit)));
    let most = to_usize(limit.saturating_sub(MIN_RESERVED_FDS));
    requested.map_or(default, |r| r.clamp(1, most))
}

/// Raise the soft file limit to the hard one where the system allows it,
/// and answer the limit in force (`None` where it cannot be read).
pub fn file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        match rlimit::increase_nofile_limit(u64::MAX) {
            Ok(n) => Some(n),
            Err(_) => rlimit::Resource::NOFILE.get().ok().map(|(soft, _)| soft),
        }
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Who may connect: the global cap and the per-address cap.
#[derive(Debug)]
pub struct Gate {
    slots: Arc<Semaphore>,
    cap: usize,
    per_ip: usize,
    limit_loopback: bool,
    by_ip: Mutex<HashMap<IpAddr, usize>>,
}

/// Why a connection was turned away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Every slot is taken.
    Full,
    /// This address holds as many connections as one address may.
    PerAddress,
}

impl Refusal {
    fn label(self) -> &'static str {
        match self {
            Refusal::Full => "connections_full",
            Refusal::PerAddress => "connections_per_address",
        }
    }
}

impl Gate {
    /// At most `cap` connections, at most `per_ip` from one address (`0`:
    /// no per-address cap). Loopback addresses are capped per address only
    /// with `limit_loopback`: on this host they are a local reverse proxy
    /// (which has every client's connections) or local tools.
    pub fn new(cap: usize, per_ip: usize, limit_loopback: bool) -> Arc<Self> {
        Arc::new(Gate {
            slots: Arc::new(Semaphore::new(cap)),
            cap,
            per_ip,
            limit_loopback,
            by_ip: Mutex::new(HashMap::new()),
        })
    }

    /// The global cap.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.cap - self.slots.available_permits()
    }

    /// A ticket for a connection from `ip`, or why not.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Ticket, Refusal> {
        let permit = Arc::clone(&self.slots)
            .try_acquire_owned()
            .map_err(|_| Refusal::Full)?;
        let counted = self.per_ip > 0 && (self.limit_loopback || !ip.is_loopback());
        if counted {
            // A std Mutex: held for one map update, never across an await.
            let mut by_ip = self.by_ip.lock().unwrap_or_else(|p| p.into_inner());
            let n = by_ip.entry(ip).or_insert(0);
            if *n >= self.per_ip {
                return Err(Refusal::PerAddress);
            }
            *n += 1;
        }
        Ok(Ticket {
            _permit: permit,
            gate: Arc::clone(self),
            ip: counted.then_some(ip),
        })
    }
}

/// One admitted connection's place; given back when dropped.
#[derive(Debug)]
pub struct Ticket {
    _permit: OwnedSemaphorePermit,
    gate: Arc<Gate>,
    /// The address, if it is counted per address.
    ip: Option<IpAddr>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let Some(ip) = self.ip else {
            return;
        };
        let mut by_ip = self.gate.by_ip.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = by_ip.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                by_ip.remove(&ip);
            }
        }
    }
}

/// A socket with its ticket: the ticket lives exactly as long as the
/// socket, through an upgrade to a WebSocket too.
struct Admitted {
    stream: TcpStream,
    _ticket: Ticket,
}

impl AsyncRead for Admitted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Admitted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// Pauses after failed accepts: 10 ms, doubling to 1 s; reset by a
/// successful accept.
#[derive(Debug, Default)]
pub struct Backoff {
    next: Option<Duration>,
}

impl Backoff {
    const FIRST: Duration = Duration::from_millis(10);
    const MAX: Duration = Duration::from_secs(1);

    /// The pause after one more failure.
    pub fn fail(&mut self) -> Duration {
        let d = self.next.unwrap_or(Self::FIRST);
        self.next = Some((d * 2).min(Self::MAX));
        d
    }

    /// An accept succeeded.
    pub fn reset(&mut self) {
        self.next = None;
    }
}

/// An accept error that concerns one connection only (the peer gave up
/// before we took it): take the next one at once.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// How long a connection may take to finish after shutdown begins.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// How connections are served.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Longest wait for a request's headers, and for the next request on
    /// a kept-alive connection.
    pub header_timeout: Duration,
}

/// Serve `app` on `listener` until `stop` fires, then wait for the open
/// HTTP exchanges to end (upgraded WebSockets are closed by their games).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    gate: Arc<Gate>,
    options: ServeOptions,
    metrics: Arc<Metrics>,
    mut stop: broadcast::Receiver<()>,
) {
    let (close_tx, close_rx) = watch::channel(());
    let mut backoff = Backoff::default();
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.recv() => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => {
                backoff.reset();
                a
            }
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                let pause = backoff.fail();
                tracing::warn!(error = %e, pause_ms = pause.as_millis() as u64, "accept error; pausing");
                tokio::select! {
                    _ = tokio::time::sleep(pause) => continue,
                    _ = stop.recv() => break,
                }
            }
        };
        let ticket = match gate.admit(peer.ip()) {
            Ok(t) => t,
            Err(refusal) => {
                metrics
                    .refused
                    .get_or_create(&ReasonLabel {
                        reason: refusal.label().into(),
                    })
                    .inc();
                tracing::debug!(%peer, ?refusal, "connection refused");
                drop(stream);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Admitted {
            stream,
            _ticket: ticket,
        });
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            // What `ConnectInfo<SocketAddr>` extractors read (the login
            // throttle keys on the address).
            req.extensions_mut().insert(ConnectInfo(peer));
            let mut app = app.clone();
            async move { app.call(req).await }
        });
        let mut stop = stop.resubscribe();
        let close_rx = close_rx.clone();
        let header_timeout = options.header_timeout;
        tokio::spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(io, service)
                .with_upgrades();
            let mut conn = std::pin::pin!(conn);
            let result = tokio::select! {
                r = conn.as_mut() => r,
                _ = stop.recv() => {
                    // Idle connections close at once; a request in flight
                    // may finish, a half-sent one is not waited for long.
                    conn.as_mut().graceful_shutdown();
                    match tokio::time::timeout(SHUTDOWN_GRACE, conn).await {
                        Ok(r) => r,
                        Err(_) => Ok(()),
                    }
                }
            };
            if let Err(e) = result {
                tracing::debug!(%peer, error = %e, "connection ended with an error");
            }
            drop(close_rx);
        });
    }
    drop(close_rx);
    drop(listener);
    close_tx.closed().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_stays_below_the_file_limit() {
        assert_eq!(cap_for_limit(256, None), 224);
        assert_eq!(cap_for_limit(1024, None), 896);
        assert_eq!(cap_for_limit(1024, Some(50_000)), 992);
        assert_eq!(cap_for_limit(1024, Some(1000)), 992);
        assert_eq!(cap_for_limit(1024, Some(100)), 100);
        assert_eq!(cap_for_limit(20_000, Some(19_950)), 19_950);
        assert_eq!(cap_for_limit(10, None), 1);
        assert_eq!(cap_for_limit(20_000, None), 18_976);
        for limit in [64u64, 1024, 20_000, 1 << 20] {
            assert!((cap_for_limit(limit, None) as u64) < limit);
        }
    }

    #[test]
    fn accept_errors_back_off_up_to_a_second() {
        let mut b = Backoff::default();
        let pauses: Vec<u128> = (0..10).map(|_| b.fail().as_millis()).collect();
        assert_eq!(pauses, [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000]);
        b.reset();
        assert_eq!(b.fail().as_millis(), 10);
    }

    #[test]
    fn the_gate_counts_per_address_and_gives_back_on_drop() {
        let gate = Gate::new(3, 2, true);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let t1 = gate.admit(a).expect("first");
        let t2 = gate.admit(a).expect("second");
        assert_eq!(gate.admit(a).err(), Some(Refusal::PerAddress));
        let t3 = gate.admit(b).expect("other address");
        assert_eq!(gate.admit(b).err(), Some(Refusal::Full));
        assert_eq!(gate.open(), 3);
        drop((t1, t3));
        assert_eq!(gate.open(), 1);
        let _t4 = gate.admit(a).expect("a slot came back");
        drop(t2);
        assert!(gate.by_ip.lock().expect("lock").get(&b).is_none());
    }

    #[test]
    fn loopback_is_capped_per_address_only_when_asked() {
        let local: IpAddr = [127, 0, 0, 1].into();
        let gate = Gate::new(10, 1, false);
        let _held: Vec<Ticket> = (0..5).map(|_| gate.admit(local).expect("local")).collect();
        let _one = gate.admit([10, 0, 0, 1].into()).expect("remote");
        assert_eq!(
            gate.admit([10, 0, 0, 1].into()).err(),
            Some(Refusal::PerAddress)
        );
        let strict = Gate::new(10, 1, true);
        let _first = strict.admit(local).expect("first");
        assert_eq!(strict.admit(local).err(), Some(Refusal::PerAddress));
    }
}
