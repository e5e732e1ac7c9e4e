//! The task that runs one game: the thin shell around its [`Session`].
//!
//! One tokio task per game owns the session (single writer). Inputs arrive
//! on a bounded channel; each batch of outputs is stored
//! ([`crate::persistence`]) before any of it is delivered
//! ([`crate::delivery`]) — durable before acknowledged. The task sleeps
//! until the session's next wake-up, a message, or the server's shutdown.
//!
//! However the task ends — its game over and idle, a store failure, the
//! shutdown, or a panic — the connections still attached are told: a
//! panic unwinds into [`Sinks`]' drop, which closes them with 1011. The
//! registry's own guard removes the game from the registry.

use crate::campaign_ledger::CampaignLedger;
use crate::delivery::{ConnSink, Sinks};
use crate::metrics::Metrics;
use crate::persistence::GameStore;
use crate::session::{ConnId, Hello, Input, Output, Session};
use citadel_protocol::{close, ClientMsg};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc};

/// What a game task is sent.
#[derive(Debug)]
pub enum ToGame {
    /// A socket said hello.
    Hello {
        /// The hello, as the session takes it.
        hello: Hello,
        /// The connection's queue.
        sink: ConnSink,
    },
    /// A later message.
    Message {
        /// From.
        conn: ConnId,
        /// The message.
        msg: ClientMsg,
        /// When it arrived (latency metric).
        received: Instant,
    },
    /// The socket closed.
    Closed {
        /// The connection that closed.
        conn: ConnId,
    },
    /// Tests only: make the task panic, as a bug would.
    #[cfg(test)]
    Panic,
}

/// Games with nobody connected are dropped from memory after this long.
const IDLE_LIMIT: Duration = Duration::from_secs(30 * 60);

/// The shortest pause between two ticks of one game.
const MIN_TICK_MS: u64 = 50;

/// What a game task works with besides its session.
#[derive(Debug)]
pub struct GameContext {
    /// Where its outputs are stored.
    pub games: Arc<GameStore>,
    /// Where a finished campaign mission is applied.
    pub campaigns: Arc<CampaignLedger>,
    /// The campaign the game belongs to.
    pub campaign: Option<String>,
    /// Counters.
    pub metrics: Arc<Metrics>,
    /// Fires when the server shuts down.
    pub shutdown: broadcast::Receiver<()>,
}

/// When to tick the session next, on the tokio clock.
fn next_wake(session: &Session, start: Instant, now: u64) -> Option<tokio::time::Instant> {
    session.next_wake().map(|at| {
        // Something due that this round did not do (a bot with no move)
        // is retried shortly, not in a busy loop.
        let at = at.max(now + MIN_TICK_MS);
        tokio::time::Instant::from_std(start) + Duration::from_millis(at)
    })
}

/// Sleep until `at`, or for ever.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Run one game until it is over and idle, the store fails, or the
/// server shuts down.
pub async fn run(mut session: Session, mut rx: mpsc::Receiver<ToGame>, mut ctx: GameContext) {
    let start = Instant::now();
    let mut sinks = Sinks::default();
    // When the session next needs a tick (none: only messages matter).
    let mut wake = next_wake(&session, start, 0);
    let mut idle_since = Instant::now();
    let metrics = Arc::clone(&ctx.metrics);
    loop {
        let (input, received) = tokio::select! {
            msg = rx.recv() => match msg {
                None => break,
                Some(ToGame::Hello { hello, sink }) => {
                    sinks.insert(hello.conn, sink);
                    (Input::Hello(hello), None)
                }
                Some(ToGame::Message { conn, msg, received }) => {
                    (Input::Message { conn, msg }, Some(received))
                }
                Some(ToGame::Closed { conn }) => {
                    sinks.remove(conn);
                    (Input::Closed { conn }, None)
                }
                #[cfg(test)]
                Some(ToGame::Panic) => panic!("a game task panics (test hook)"),
            },
            _ = sleep_until(wake) => (Input::Tick, None),
            _ = ctx.shutdown.recv() => {
                sinks.close_all(close::SHUTDOWN, "server shutting down");
                break;
            }
        };
        let now = start.elapsed().as_millis() as u64;
        let outputs = session.handle(input, now);
        if !store_and_deliver(&mut session, outputs, now, &mut sinks, &ctx).await {
            break;
        }
        if let Some(t) = received {
            metrics.command_latency.observe(t.elapsed().as_secs_f64());
        }
        wake = next_wake(&session, start, now);
        if sinks.is_empty() {
            if idle_since.elapsed() > IDLE_LIMIT {
                break;
            }
            // Wake to drop the game even if nothing else happens.
            let drop_at = tokio::time::Instant::from_std(idle_since + IDLE_LIMIT);
            wake = Some(wake.map_or(drop_at, |w| w.min(drop_at)));
        } else {
            idle_since = Instant::now();
        }
    }
    tracing::info!(code = session.code(), "game closed");
}

/// Store a batch, then deliver it. Slow connections are cut off (they
/// reconnect and catch up); the session's answer to their leaving is
/// stored and delivered like any other batch. Returns false if the store
/// failed: the game must stop.
async fn store_and_deliver(
    session: &mut Session,
    mut outputs: Vec<Output>,
    now: u64,
    sinks: &mut Sinks,
    ctx: &GameContext,
) -> bool {
    loop {
        if let Err(e) = ctx.games.persist(session.code(), &outputs).await {
            // Nothing of an unstored batch may be sent: the game leaves
            // memory and its players are told to come back later. The
            // store still holds every acknowledged command, so a restart
            // brings the game back exactly as they last saw it.
            ctx.metrics.store_errors.inc();
            tracing::error!(code = session.code(), error = %e, "store write failed; closing the game");
            sinks.close_all(
                close::STORAGE_FAILURE,
                "the server cannot save this game now; try again later",
            );
            return false;
        }
        if let Some(campaign) = &ctx.campaign {
            for o in &outputs {
                if let Output::Finished { result } = o {
                    ctx.campaigns
                        .game_finished(campaign, session.code(), result)
                        .await;
                }
            }
        }
        let slow = sinks.deliver(outputs, &ctx.metrics);
        if slow.is_empty() {
            return true;
        }
        outputs = Vec::new();
        for conn in slow {
            outputs.extend(session.handle(Input::Closed { conn }, now));
        }
    }
}
