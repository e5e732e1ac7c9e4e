//! The task that runs one game: the thin shell around its session (a
//! [`Table`]: any game's).
//!
//! One tokio task per game owns the session (single writer). Inputs arrive
//! on a bounded channel; each batch of outputs is stored
//! ([`crate::persistence`]) before any of it is delivered
//! ([`crate::delivery`]) — durable before acknowledged. The task sleeps
//! until the session's next wake-up, a message, or the server's shutdown.
//!
//! A game with no player connected for its abandonment limit is closed in
//! the store as abandoned ([`crate::abandonment`]); the task keeps the
//! store's "last active" time up to date while players are connected.
//!
//! However the task ends — its game over and idle, a store failure, the
//! shutdown, or a panic — the connections still attached are told: a
//! panic unwinds into [`Sinks`]' drop, which closes them with 1011. The
//! registry's own guard removes the game from the registry.

use crate::abandonment::AbandonLimits;
use crate::campaign_ledger::CampaignLedger;
use crate::delivery::{ConnSink, Sinks};
use crate::metrics::Metrics;
use crate::persistence::GameStore;
use crate::session::{ConnId, Hello, Input, Output};
use crate::table::{AnySession, Table};
use citadel_protocol::{close, ClientMsg, ErrorCode, ServerMsg};
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

/// Unfinished games with nobody connected are dropped from memory after
/// this long; they stay in the store and load again on demand
/// (`Registry::get_or_load`).
const IDLE_LIMIT: Duration = Duration::from_secs(30 * 60);

/// A finished game leaves memory this long after its last socket closes:
/// long enough for a page reload to see the final screen, no longer (its
/// replay is served from the store afterwards).
pub const FINISHED_LINGER: Duration = Duration::from_secs(60);

/// A save that has not finished after this long is announced to the
/// game's sockets (`storage_delayed`); saves normally take milliseconds.
const STORAGE_NOTICE_AFTER: Duration = Duration::from_secs(1);

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
    /// When a game with no player connected is abandoned.
    pub limits: AbandonLimits,
    /// How long ago a player was last connected (zero for a new game; for
    /// a restored one, from the store's `active_at`).
    pub idle_before: Duration,
    /// Cancelled when this node lost the game's lease (cluster mode):
    /// another node runs the game now, so this task stops at once and
    /// writes nothing more.
    pub lost: tokio_util::sync::CancellationToken,
    /// Where the game's spectators and waiting seats are kept for the
    /// lobby's lists and "my games".
    pub live_games: Arc<crate::registry::LiveGames>,
}

/// The close for the connections of a game whose lease moved to another
/// node: they reconnect (to any node) and resume there.
const MOVED: (u16, &str) = (
    close::SHUTDOWN,
    "the game moved to another server; reconnect",
);

/// What presence needs to know of a session.
#[derive(Clone, Copy, Debug)]
struct GameState<'a> {
    code: &'a str,
    connected: bool,
    started: bool,
    finished: bool,
}

impl<'a> GameState<'a> {
    fn of(session: &'a dyn Table) -> Self {
        GameState {
            code: session.code(),
            connected: session.players_connected(),
            started: session.started(),
            finished: session.finished(),
        }
    }
}

/// Whether players are connected, and since when they are not: the
/// abandonment clock of a game in memory, and its writes to the store.
#[derive(Debug)]
struct Presence {
    /// Players were connected after the last batch.
    connected: bool,
    /// When a player was last seen connected.
    seen: Instant,
    /// When the store was last told players are connected.
    touched: Option<Instant>,
}

impl Presence {
    fn new(idle_before: Duration) -> Self {
        let now = Instant::now();
        Presence {
            connected: false,
            seen: now.checked_sub(idle_before).unwrap_or(now),
            touched: None,
        }
    }

    /// After a batch: record presence in the store when a player comes,
    /// leaves, or has been there a while. Returns what is due next: the
    /// next touch while players are connected (so a quiet lobby with a
    /// player in it still writes), else the abandonment.
    ///
    /// Takes what it needs of the session as values: a session is not
    /// `Sync`, so a reference to it cannot be held across the await.
    async fn update(&mut self, game: GameState<'_>, ctx: &GameContext) -> PresenceDue {
        let GameState {
            code,
            connected,
            started,
            finished,
        } = game;
        if finished {
            // Over, not abandoned: it leaves memory once nobody watches.
            return PresenceDue::Nothing;
        }
        let limit = ctx.limits.for_game(started);
        let now = Instant::now();
        let due = self
            .touched
            .is_none_or(|t| now.duration_since(t) >= ctx.limits.touch_every());
        if connected != self.connected || (connected && due) {
            ctx.games.touch(code).await;
            self.touched = Some(now);
        }
        self.connected = connected;
        if connected {
            self.seen = now;
            let touched = self.touched.unwrap_or(now);
            return PresenceDue::Touch(touched + ctx.limits.touch_every());
        }
        PresenceDue::Abandon(self.seen + limit)
    }
}

/// What a game's presence needs next.
#[derive(Clone, Copy, Debug)]
enum PresenceDue {
    /// Nothing (the game is over).
    Nothing,
    /// Players are connected: tell the store again at this time.
    Touch(Instant),
    /// Nobody is: the game is abandoned at this time.
    Abandon(Instant),
}

/// When to tick the session next, on the tokio clock.
fn next_wake(session: &dyn Table, start: Instant, now: u64) -> Option<tokio::time::Instant> {
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
pub async fn run(mut session: AnySession, mut rx: mpsc::Receiver<ToGame>, mut ctx: GameContext) {
    let start = Instant::now();
    let mut sinks = Sinks::default();
    let mut idle_since = Instant::now();
    let mut presence = Presence::new(ctx.idle_before);
    let metrics = Arc::clone(&ctx.metrics);
    loop {
        // The timers, checked before waiting so that a game nobody ever
        // joins is abandoned and unloaded too: when the session next needs
        // a tick, when the game is abandoned, when it leaves memory.
        let now = start.elapsed().as_millis() as u64;
        let mut wake = next_wake(session.as_ref(), start, now);
        match presence.update(GameState::of(session.as_ref()), &ctx).await {
            PresenceDue::Nothing => {}
            PresenceDue::Touch(at) => wake = Some(earliest(wake, at)),
            PresenceDue::Abandon(at) if Instant::now() >= at => {
                abandon(session.code(), &mut sinks, &ctx).await;
                break;
            }
            PresenceDue::Abandon(at) => wake = Some(earliest(wake, at)),
        }
        if sinks.is_empty() {
            let finished = session.finished();
            let drop_at = idle_since
                + if finished {
                    FINISHED_LINGER
                } else {
                    IDLE_LIMIT
                };
            if Instant::now() >= drop_at {
                break;
            }
            wake = Some(earliest(wake, drop_at));
        } else {
            idle_since = Instant::now();
        }
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
            () = ctx.lost.cancelled() => {
                tracing::warn!(code = session.code(), "lease lost: another node runs this game now");
                sinks.close_all(MOVED.0, MOVED.1);
                break;
            }
        };
        let now = start.elapsed().as_millis() as u64;
        let outputs = session.handle(input, now);
        if !store_and_deliver(session.as_mut(), outputs, now, &mut sinks, &ctx).await {
            break;
        }
        ctx.live_games.set(
            session.code(),
            crate::registry::LiveStatus {
                spectators: session.spectators(),
                to_act: session.to_act(),
            },
        );
        if let Some(t) = received {
            metrics.command_latency.observe(t.elapsed().as_secs_f64());
        }
    }
    tracing::info!(code = session.code(), "game closed");
}

/// The earlier of a wake-up and a deadline, on the tokio clock.
fn earliest(wake: Option<tokio::time::Instant>, at: Instant) -> tokio::time::Instant {
    let at = tokio::time::Instant::from_std(at);
    wake.map_or(at, |w| w.min(at))
}

/// Close a game nobody plays any more: abandoned in the store, and any
/// spectators told. If the store cannot record it, the game still leaves
/// memory; the registry's sweep closes it in the store later.
async fn abandon(code: &str, sinks: &mut Sinks, ctx: &GameContext) {
    match ctx.games.abandon(code).await {
        Ok(_) => tracing::info!(code, "game abandoned"),
        Err(e) => tracing::warn!(code, error = %e, "cannot record an abandoned game"),
    }
    sinks.close_all(
        close::SHUTDOWN,
        "the game was abandoned: no player came back",
    );
}

/// Store a batch, then deliver it. Slow connections are cut off (they
/// reconnect and catch up); the session's answer to their leaving is
/// stored and delivered like any other batch. Returns false if the store
/// failed: the game must stop.
async fn store_and_deliver(
    session: &mut dyn Table,
    mut outputs: Vec<Output>,
    now: u64,
    sinks: &mut Sinks,
    ctx: &GameContext,
) -> bool {
    loop {
        if ctx.lost.is_cancelled() {
            // Not ours any more: nothing more is stored or sent.
            sinks.close_all(MOVED.0, MOVED.1);
            return false;
        }
        // A save that takes long is announced (once) while it is retried:
        // players hear at once that the server is struggling, then either
        // play goes on or the game closes within the write bound.
        let saved = {
            let persist = ctx.games.persist(session.code(), &outputs);
            tokio::pin!(persist);
            let mut announced = false;
            loop {
                tokio::select! {
                    r = &mut persist => break r,
                    () = tokio::time::sleep(STORAGE_NOTICE_AFTER), if !announced => {
                        announced = true;
                        sinks.notify_all(&ServerMsg::Error {
                            code: ErrorCode::StorageDelayed,
                            message: "saving this game is taking long; the server is retrying"
                                .into(),
                        });
                    }
                }
            }
        };
        if let Err(e) = saved {
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
                if let Output::Finished { result, .. } = o {
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
