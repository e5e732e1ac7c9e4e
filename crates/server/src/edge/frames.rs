//! Every WebSocket frame a client sends, counted as it is read.
//!
//! The WebSocket library hands the server whole messages: the frames of a
//! fragmented message (a text frame without FIN, then continuation frames)
//! never reach `ws.rs` one by one. Counting messages let a client keep one
//! message open for ever with millions of empty continuation frames, each
//! costing the server a read and a parse, without ever meeting the rate
//! limit. So the socket's bytes pass through [`Metered`], which reads
//! every frame header on the way in (it never changes a byte) and tells
//! the connection's [`FrameGuard`]:
//!
//! - every frame but a close counts against the connection's rate limit
//!   (text, binary, continuation, ping, pong), except the very first
//!   frame, the `hello`, which was never counted (the limit starts after
//!   it, so a client may send a whole burst right after `welcome`);
//! - a fragmented message may stay open for a bounded time
//!   (`--fragment-timeout-secs`), whatever arrives meanwhile.
//!
//! Either closes the socket with `4008` ([`FrameGuard::broken`]).
//! docs/PROTOCOL.md ("Limits on a connection") and docs/SECURITY.md say so.

use citadel_protocol::close;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use std::io;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::watch;
use tokio::time::Instant;

/// Why a guard closes its socket: the close code and reason.
pub type Breach = (u16, &'static str);

/// Too many frames too fast.
pub const TOO_MANY_FRAMES: Breach = (close::RATE_LIMITED, "too many messages");
/// A fragmented message stayed open too long.
pub const FRAGMENTS_TOO_SLOW: Breach = (
    close::RATE_LIMITED,
    "a message sent in fragments stayed open too long",
);

/// What one connection's reader reports, shared between [`Metered`] (in
/// the socket) and the connection's task (which closes the socket).
#[derive(Debug)]
pub struct FrameGuard {
    limiter: DefaultDirectRateLimiter,
    /// The first frame (the hello) is not counted.
    first_seen: AtomicBool,
    /// Set once the rate limit is exceeded.
    over_rate: watch::Sender<bool>,
    /// When the fragmented message open now began (`None`: none is open).
    open_since: watch::Sender<Option<Instant>>,
    fragment_timeout: Duration,
}

impl FrameGuard {
    /// A guard allowing `burst` frames at once, then `per_sec` a second,
    /// and fragmented messages open for at most `fragment_timeout`.
    pub fn new(per_sec: u32, burst: u32, fragment_timeout: Duration) -> Arc<Self> {
        let per_sec = NonZeroU32::new(per_sec.max(1)).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
        Arc::new(FrameGuard {
            limiter: RateLimiter::direct(Quota::per_second(per_sec).allow_burst(burst)),
            first_seen: AtomicBool::new(false),
            over_rate: watch::Sender::new(false),
            open_since: watch::Sender::new(None),
            fragment_timeout,
        })
    }

    /// One frame header was read.
    fn frame(&self, header: Header) {
        match header.opcode {
            // Continuation: the last one ends the message.
            0x0 if header.fin => {
                self.open_since.send_if_modified(|o| o.take().is_some());
            }
            // Text or binary: a first frame without FIN opens a message.
            // (One while a message is open is a protocol error the library
            // closes the socket for; it does not restart the clock.)
            0x1 | 0x2 if !header.fin => {
                let now = Instant::now();
                self.open_since
                    .send_if_modified(|o| o.is_none() && o.replace(now).is_none());
            }
            _ => {}
        }
        // A close costs nothing to answer and ends the socket; every other
        // frame counts (ping and pong too: each ping costs a pong).
        if header.opcode == 0x8 {
            return;
        }
        if !self.first_seen.swap(true, Ordering::Relaxed) {
            return;
        }
        if self.limiter.check().is_err() {
            self.over_rate
                .send_if_modified(|over| !std::mem::replace(over, true));
        }
    }

    /// Whether the socket must close now ([`FrameGuard::broken`] without
    /// waiting).
    pub fn breach(&self) -> Option<Breach> {
        if *self.over_rate.borrow() {
            return Some(TOO_MANY_FRAMES);
        }
        match *self.open_since.borrow() {
            Some(since) if since.elapsed() >= self.fragment_timeout => Some(FRAGMENTS_TOO_SLOW),
            _ => None,
        }
    }

    /// Resolves when the socket must close, with the close code and
    /// reason: too many frames, or one fragmented message open longer than
    /// the fragment timeout. Pending while neither happens.
    pub async fn broken(&self) -> Breach {
        let mut over = self.over_rate.subscribe();
        let mut open = self.open_since.subscribe();
        loop {
            if *over.borrow_and_update() {
                return TOO_MANY_FRAMES;
            }
            let since = *open.borrow_and_update();
            // The senders live in `self`: `changed` fails only if they
            // were dropped, which they are not while this runs.
            let changed = async {
                tokio::select! {
                    r = over.changed() => r,
                    r = open.changed() => r,
                }
            };
            match since {
                Some(since) => {
                    tokio::select! {
                        _ = tokio::time::sleep_until(since + self.fragment_timeout) => {
                            return FRAGMENTS_TOO_SLOW;
                        }
                        r = changed => if r.is_err() { std::future::pending::<()>().await },
                    }
                }
                None => {
                    if changed.await.is_err() {
                        std::future::pending::<()>().await;
                    }
                }
            }
        }
    }
}

/// A frame header's parts the guard needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Header {
    fin: bool,
    opcode: u8,
}

/// Where the reader is in the byte stream of frames (RFC 6455, 5.2).
#[derive(Debug)]
enum State {
    /// Reading a header: the bytes so far, and how many it has (2 to 14).
    Header { bytes: [u8; 14], have: usize },
    /// Skipping a frame's payload: how many bytes are left.
    Payload { left: u64 },
}

/// Reads frame headers out of the client's byte stream.
#[derive(Debug)]
struct FrameReader {
    state: State,
}

impl FrameReader {
    fn new() -> Self {
        FrameReader {
            state: State::Header {
                bytes: [0; 14],
                have: 0,
            },
        }
    }

    /// Take in bytes as read; `on_frame` is called for each frame header
    /// completed. Never fails: a stream that is not WebSocket is the
    /// library's to refuse (it closes the socket), this only counts.
    fn feed(&mut self, mut data: &[u8], mut on_frame: impl FnMut(Header)) {
        while !data.is_empty() {
            match &mut self.state {
                State::Payload { left } => {
                    let skip = usize::try_from(*left).map_or(data.len(), |l| l.min(data.len()));
                    data = &data[skip..];
                    *left -= skip as u64;
                    if *left == 0 {
                        self.state = State::Header {
                            bytes: [0; 14],
                            have: 0,
                        };
                    }
                }
                State::Header { bytes, have } => {
                    let need = header_len(&bytes[..*have]);
                    let take = (need - *have).min(data.len());
                    bytes[*have..*have + take].copy_from_slice(&data[..take]);
                    *have += take;
                    data = &data[take..];
                    // The length is known once the first two bytes are.
                    if *have < header_len(&bytes[..*have]) {
                        continue;
                    }
                    let header = Header {
                        fin: bytes[0] & 0x80 != 0,
                        opcode: bytes[0] & 0x0f,
                    };
                    let left = payload_len(&bytes[..*have]);
                    on_frame(header);
                    self.state = if left == 0 {
                        State::Header {
                            bytes: [0; 14],
                            have: 0,
                        }
                    } else {
                        State::Payload { left }
                    };
                }
            }
        }
    }
}

/// The length of a header that starts with `start` (2 until the first
/// two bytes are known).
fn header_len(start: &[u8]) -> usize {
    let [_, second, ..] = start else {
        return 2;
    };
    let extended = match second & 0x7f {
        126 => 2,
        127 => 8,
        _ => 0,
    };
    let mask = if second & 0x80 != 0 { 4 } else { 0 };
    2 + extended + mask
}

/// The payload length a whole header states.
fn payload_len(header: &[u8]) -> u64 {
    match header.get(1).map(|b| b & 0x7f) {
        Some(126) => header
            .get(2..4)
            .map_or(0, |b| u64::from(u16::from_be_bytes([b[0], b[1]]))),
        Some(127) => header
            .get(2..10)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map_or(0, u64::from_be_bytes),
        Some(n) => u64::from(n),
        None => 0,
    }
}

/// A socket whose incoming frames its [`FrameGuard`] hears of. Writes pass
/// through untouched.
#[derive(Debug)]
pub struct Metered<S> {
    inner: S,
    reader: FrameReader,
    guard: Arc<FrameGuard>,
}

impl<S> Metered<S> {
    /// Watch `inner`'s incoming frames with `guard`.
    pub fn new(inner: S, guard: Arc<FrameGuard>) -> Self {
        Metered {
            inner,
            reader: FrameReader::new(),
            guard,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Metered<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            let guard = &this.guard;
            this.reader
                .feed(&buf.filled()[before..], |header| guard.frame(header));
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Metered<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    /// A client frame (masked, as clients must send them).
    fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
        let mut f = vec![(u8::from(fin) << 7) | opcode];
        match payload.len() {
            n @ 0..=125 => f.push(0x80 | n as u8),
            n @ 126..=0xffff => {
                f.push(0x80 | 126);
                f.extend((n as u16).to_be_bytes());
            }
            n => {
                f.push(0x80 | 127);
                f.extend((n as u64).to_be_bytes());
            }
        }
        let mask = [1, 2, 3, 4];
        f.extend(mask);
        f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        f
    }

    fn headers(stream: &[u8], chunk: usize) -> Vec<Header> {
        let mut reader = FrameReader::new();
        let mut seen = Vec::new();
        for part in stream.chunks(chunk.max(1)) {
            reader.feed(part, |h| seen.push(h));
        }
        seen
    }

    /// Frame headers are found however the bytes are split across reads,
    /// with every payload length form (7-bit, 16-bit, 64-bit).
    #[test]
    fn every_frame_is_seen_however_the_reads_split() {
        let mut stream = Vec::new();
        stream.extend(frame(false, 0x1, br#"{"type":"#));
        for _ in 0..5 {
            stream.extend(frame(false, 0x0, b""));
        }
        stream.extend(frame(false, 0x0, &[b' '; 300]));
        stream.extend(frame(true, 0x9, b"ping"));
        stream.extend(frame(true, 0x0, &[b' '; 70_000]));
        stream.extend(frame(true, 0x2, b""));
        let mut want = vec![Header {
            fin: false,
            opcode: 1,
        }];
        want.extend(
            [Header {
                fin: false,
                opcode: 0,
            }; 6],
        );
        want.push(Header {
            fin: true,
            opcode: 9,
        });
        want.push(Header {
            fin: true,
            opcode: 0,
        });
        want.push(Header {
            fin: true,
            opcode: 2,
        });
        for chunk in [1, 2, 3, 7, 14, 4096, stream.len()] {
            assert_eq!(headers(&stream, chunk), want, "reads of {chunk} bytes");
        }
    }

    /// The first frame is free, then every frame but a close counts,
    /// continuation frames included.
    #[tokio::test]
    async fn continuation_frames_count_and_the_first_frame_is_free() {
        let guard = FrameGuard::new(1, 3, Duration::from_secs(3600));
        let broken = guard.broken();
        tokio::pin!(broken);
        let mut reader = FrameReader::new();
        let mut stream = frame(true, 0x1, b"hello");
        stream.extend(frame(false, 0x1, b"{"));
        stream.extend(frame(true, 0x8, b""));
        stream.extend(frame(false, 0x0, b""));
        stream.extend(frame(false, 0x0, b""));
        reader.feed(&stream, |h| guard.frame(h));
        assert!(
            (&mut broken).now_or_never().is_none(),
            "three counted frames are within a burst of 3"
        );
        reader.feed(&frame(false, 0x0, b""), |h| guard.frame(h));
        assert_eq!(broken.await, TOO_MANY_FRAMES);
    }

    /// A fragmented message open past the timeout breaks the guard; one
    /// finished in time does not.
    #[tokio::test(start_paused = true)]
    async fn a_fragmented_message_may_stay_open_only_so_long() {
        let guard = FrameGuard::new(100, 100, Duration::from_secs(10));
        let mut reader = FrameReader::new();
        reader.feed(&frame(false, 0x1, b"{"), |h| guard.frame(h));
        tokio::time::sleep(Duration::from_secs(9)).await;
        reader.feed(&frame(true, 0x0, b"}"), |h| guard.frame(h));
        let broken = guard.broken();
        tokio::pin!(broken);
        assert!(tokio::time::timeout(Duration::from_secs(60), &mut broken)
            .await
            .is_err());
        reader.feed(&frame(false, 0x1, b"{"), |h| guard.frame(h));
        tokio::time::sleep(Duration::from_secs(5)).await;
        reader.feed(&frame(false, 0x0, b""), |h| guard.frame(h));
        assert_eq!(broken.await, FRAGMENTS_TOO_SLOW);
    }
}
