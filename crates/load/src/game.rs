//! One load game: create it through the lobby API, seat its players and
//! spectators over real sockets, then play random legal commands at the
//! set rate, measuring each command's ack and broadcast latency. A game
//! that ends is replaced by a new one, so the load stays level.

use crate::stats::Stats;
use crate::wire::{self, Incoming, WsRx, WsTx};
use crate::Shared;
use citadel_protocol::ClientMsg;
use futures_util::stream::{select_all, SelectAll};
use futures_util::{SinkExt, Stream, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::value::RawValue;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::{Instant, MissedTickBehavior};
use tokio_tungstenite::tungstenite::Message;

/// How long a command may wait for its ack and broadcast before the game
/// counts as failed.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// The shape of every load game.
#[derive(Clone, Copy, Debug)]
pub struct GameShape {
    /// Player sockets (the Dark Legion is the last player; one player
    /// plays against the AI Dark Legion).
    pub players: u8,
    /// Spectator sockets.
    pub spectators: u32,
    /// Commands per second.
    pub rate: f64,
}

type Frames = Pin<
    Box<
        dyn Stream<
                Item = (
                    usize,
                    Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
                ),
            > + Send,
    >,
>;

/// A started game: writers of the players, and every socket's reads
/// merged, tagged with the viewer index (players first).
struct Table {
    code: String,
    players: Vec<WsTx>,
    spectators: Vec<WsTx>,
    reads: SelectAll<Frames>,
    /// Per viewer: the last seq it has.
    seen: Vec<u64>,
    /// Per viewer: the index of the `--url` its socket went to.
    url_of: Vec<usize>,
    /// Per player: what it may send now.
    legal: Vec<Vec<Box<RawValue>>>,
    finished: bool,
}

/// A command on its way.
struct InFlight {
    client_ref: u64,
    player: usize,
    sent: Instant,
    /// The sender's last seq when it sent: an ack naming no later seq
    /// means the command caused no event.
    before: u64,
    /// The seq its ack names, once acked.
    ack_seq: Option<u64>,
    /// Per viewer: the batches received since the send (last seq, when).
    arrivals: Vec<Vec<(u64, Instant)>>,
    /// Per viewer: its broadcast latency, once it has the events. The
    /// samples go into the stats only when every viewer has them, so a
    /// command cut off by the deadline leaves no partial set behind.
    seen: Vec<Option<Duration>>,
}

/// Keep one game slot busy until `deadline`; returns what it measured.
/// `ready` is told once the first game has started.
pub async fn run_slot(
    shared: Arc<Shared>,
    shape: GameShape,
    slot: usize,
    ready: tokio::sync::mpsc::Sender<Option<String>>,
) -> Stats {
    let mut stats = Stats::default();
    let mut rng = SmallRng::seed_from_u64(shared.seed ^ (slot as u64).wrapping_mul(0x9e37_79b9));
    let mut ready = Some(ready);
    let mut go = shared.go.clone();
    let mut client_ref = 0u64;
    loop {
        let table = match setup(&shared, shape, slot).await {
            Ok(t) => t,
            Err(e) => {
                stats.error(format!("setup: {e:#}"));
                if let Some(r) = ready.take() {
                    let _ = r.send(None).await;
                }
                // Do not hammer a server that refuses: wait a little.
                tokio::time::sleep(Duration::from_secs(1)).await;
                if shared.past_deadline() {
                    return stats;
                }
                continue;
            }
        };
        stats.games_started += 1;
        if let Some(r) = ready.take() {
            let _ = r.send(Some(table.code.clone())).await;
        }
        // Every game waits for the common start, so the measured window
        // has the full load from its first second.
        let Some(deadline) = wait_go(&mut go).await else {
            return stats;
        };
        if Instant::now() >= deadline {
            return stats;
        }
        let outcome = play(
            table,
            shape,
            deadline,
            &mut rng,
            &mut client_ref,
            &mut stats,
        )
        .await;
        match outcome {
            Ok(true) => stats.games_finished += 1,
            Ok(false) => return stats,
            Err(e) => {
                stats.error(e);
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
        if Instant::now() >= deadline {
            return stats;
        }
    }
}

/// The deadline once the run says go (`None` if the run was cancelled).
async fn wait_go(go: &mut tokio::sync::watch::Receiver<Option<Instant>>) -> Option<Instant> {
    loop {
        if let Some(d) = *go.borrow_and_update() {
            return Some(d);
        }
        go.changed().await.ok()?;
    }
}

/// Create a game, seat the players (all ready, the host starts) and the
/// spectators, and wait until everyone has the first snapshot.
async fn setup(shared: &Shared, shape: GameShape, slot: usize) -> anyhow::Result<Table> {
    let _permit = shared.setup_slots.acquire().await?;
    let code = shared.create_game(shape.players).await?;
    // One block of consecutive positions: the game's sockets go to
    // consecutive URLs (spread.rs).
    let sockets = usize::from(shape.players) + shape.spectators as usize;
    let first = shared.spread.reserve(sockets);
    let mut url_of = Vec::new();
    let mut players = Vec::new();
    let mut reads: Vec<WsRx> = Vec::new();
    for p in 0..shape.players {
        let hello = wire::hello(&code, &format!("load-{slot}-{p}"), false);
        let (target, at) = shared.spread.at(first + url_of.len());
        let ws = wire::connect(&at.ws_url, hello).await?;
        shared.spread.opened(target);
        url_of.push(target);
        let (mut tx, mut rx) = ws.split();
        let welcome = wire::next(&mut rx).await?;
        anyhow::ensure!(
            welcome.kind == "welcome",
            "expected welcome, got {}",
            welcome.kind
        );
        wire::send(&mut tx, wire::message(&ClientMsg::Ready { ready: true })).await?;
        players.push(tx);
        reads.push(rx);
    }
    // The host starts once it sees every seat taken and ready.
    if let (Some(host_tx), Some(host_rx)) = (players.first_mut(), reads.first_mut()) {
        loop {
            let m = wire::next(host_rx).await?;
            let all_ready = m
                .lobby
                .as_ref()
                .is_some_and(|l| l.seats.iter().all(|s| s.controller == "human" && s.ready));
            if all_ready {
                break;
            }
        }
        wire::send(host_tx, wire::message(&ClientMsg::Start)).await?;
    }
    let mut seen = Vec::new();
    let mut legal = Vec::new();
    for rx in &mut reads {
        let snap = until_snapshot(rx).await?;
        seen.push(snap.seq.unwrap_or(0));
        legal.push(snap.legal.unwrap_or_default());
    }
    let mut spectators = Vec::new();
    for s in 0..shape.spectators {
        let hello = wire::hello(&code, &format!("watch-{slot}-{s}"), true);
        let (target, at) = shared.spread.at(first + url_of.len());
        let ws = wire::connect(&at.ws_url, hello).await?;
        shared.spread.opened(target);
        url_of.push(target);
        let (tx, mut rx) = ws.split();
        let snap = until_snapshot(&mut rx).await?;
        seen.push(snap.seq.unwrap_or(0));
        spectators.push(tx);
        reads.push(rx);
    }
    let merged: Vec<Frames> = reads
        .into_iter()
        .enumerate()
        .map(|(i, rx)| -> Frames {
            // A read stream that ends yields one `None` so the game sees it.
            let frames = rx
                .map(move |f| (i, Some(f)))
                .chain(futures_util::stream::once(async move { (i, None) }));
            Box::pin(frames)
        })
        .collect();
    Ok(Table {
        code,
        players,
        spectators,
        reads: select_all(merged),
        seen,
        url_of,
        legal,
        finished: false,
    })
}

async fn until_snapshot(rx: &mut WsRx) -> anyhow::Result<Incoming> {
    loop {
        let m = wire::next(rx).await?;
        match m.kind.as_str() {
            "snapshot" => return Ok(m),
            "error" | "rejected" => anyhow::bail!(
                "{} before the game started: {}",
                m.kind,
                m.message.unwrap_or_default()
            ),
            _ => {}
        }
    }
}

/// Play until the game ends (`Ok(true)`), the deadline (`Ok(false)`) or a
/// failure (`Err`, with what went wrong).
async fn play(
    mut t: Table,
    shape: GameShape,
    deadline: Instant,
    rng: &mut SmallRng,
    client_ref: &mut u64,
    stats: &mut Stats,
) -> Result<bool, String> {
    let period = Duration::from_secs_f64(1.0 / shape.rate.max(0.001));
    // A random phase spreads the games' commands evenly over the period.
    let first = Instant::now() + period.mul_f64(rng.gen::<f64>());
    let mut tick = tokio::time::interval_at(first, period);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let viewers = t.seen.len();
    let mut in_flight: Option<InFlight> = None;
    let result = loop {
        if t.finished && in_flight.is_none() {
            break Ok(true);
        }
        let timeout_at = in_flight
            .as_ref()
            .map_or(deadline, |f| (f.sent + COMMAND_TIMEOUT).min(deadline));
        tokio::select! {
            _ = tokio::time::sleep_until(timeout_at) => {
                if Instant::now() >= deadline {
                    break Ok(false);
                }
                break Err(format!("game {}: no ack and broadcast within {COMMAND_TIMEOUT:?}", t.code));
            }
            _ = tick.tick(), if in_flight.is_none() && !t.finished => {
                let ready: Vec<usize> = (0..t.players.len()).filter(|&p| !t.legal[p].is_empty()).collect();
                if ready.is_empty() {
                    continue; // A server bot acts (the AI Dark Legion).
                }
                let p = ready[rng.gen_range(0..ready.len())];
                let k = rng.gen_range(0..t.legal[p].len());
                *client_ref += 1;
                let text = wire::command(*client_ref, &t.legal[p][k]);
                let sent = Instant::now();
                if let Err(e) = wire::send(&mut t.players[p], text).await {
                    break Err(format!("game {}: send: {e:#}", t.code));
                }
                in_flight = Some(InFlight {
                    client_ref: *client_ref,
                    player: p,
                    sent,
                    before: t.seen[p],
                    ack_seq: None,
                    arrivals: vec![Vec::new(); viewers],
                    seen: vec![None; viewers],
                });
            }
            frame = t.reads.next() => {
                let Some((v, frame)) = frame else {
                    break Err(format!("game {}: every socket ended", t.code));
                };
                let text = match wire::frame_text(frame) {
                    Ok(Some(text)) => text,
                    Ok(None) => continue,
                    Err(end) => break Err(format!("game {}: viewer {v}: {end}", t.code)),
                };
                let now = Instant::now();
                let m: Incoming = match serde_json::from_str(text.as_str()) {
                    Ok(m) => m,
                    Err(e) => break Err(format!("game {}: unreadable message: {e}", t.code)),
                };
                if let Err(e) = on_message(&mut t, v, m, now, &mut in_flight, stats) {
                    break Err(format!("game {}: {e}", t.code));
                }
            }
        }
    };
    // Leave politely: a close frame on every socket.
    for tx in t.players.iter_mut().chain(t.spectators.iter_mut()) {
        let _ = tokio::time::timeout(Duration::from_secs(2), tx.send(Message::Close(None))).await;
    }
    result
}

/// Act on one message from viewer `v`.
fn on_message(
    t: &mut Table,
    v: usize,
    m: Incoming,
    now: Instant,
    in_flight: &mut Option<InFlight>,
    stats: &mut Stats,
) -> Result<(), String> {
    match m.kind.as_str() {
        "events" | "snapshot" => {
            if let Some(seq) = m.last_seq() {
                t.seen[v] = t.seen[v].max(seq);
                if let Some(f) = in_flight.as_mut() {
                    f.arrivals[v].push((seq, now));
                }
            }
            if m.finished() {
                t.finished = true;
            }
            if let (Some(slot), Some(legal)) = (t.legal.get_mut(v), m.legal) {
                *slot = legal;
            }
        }
        "ack" => {
            let Some(f) = in_flight.as_mut().filter(|f| f.player == v) else {
                return Err("an ack for no command".into());
            };
            if m.client_ref != Some(f.client_ref) {
                return Err(format!(
                    "ack for {:?}, expected {}",
                    m.client_ref, f.client_ref
                ));
            }
            stats.ack_on(t.url_of.get(v).copied().unwrap_or(0), now - f.sent);
            f.ack_seq = m.seq;
        }
        "rejected" => {
            return Err(format!(
                "a legal command was rejected: {}",
                m.message.unwrap_or_default()
            ))
        }
        "error" => return Err(format!("error: {}", m.message.unwrap_or_default())),
        _ => {} // lobby, chat, pong
    }
    settle(in_flight, &t.url_of, stats);
    Ok(())
}

/// Once the ack names a seq, take each viewer's broadcast sample as soon
/// as it has that seq; the command is done when every viewer has it.
fn settle(in_flight: &mut Option<InFlight>, url_of: &[usize], stats: &mut Stats) {
    let Some(f) = in_flight.as_mut() else {
        return;
    };
    let Some(target) = f.ack_seq else {
        return;
    };
    // A command that caused no event has nothing to broadcast: the viewers
    // already hold `target`, and no batch arrives for it.
    if target <= f.before {
        stats.commands += 1;
        *in_flight = None;
        return;
    }
    for (v, arrivals) in f.arrivals.iter().enumerate() {
        if f.seen[v].is_some() {
            continue;
        }
        if let Some((_, at)) = arrivals.iter().find(|(seq, _)| *seq >= target) {
            f.seen[v] = Some(*at - f.sent);
        }
    }
    if f.seen.iter().all(Option::is_some) {
        for (v, d) in f.seen.iter().enumerate() {
            if let Some(d) = d {
                stats.broadcast_on(url_of.get(v).copied().unwrap_or(0), *d);
            }
        }
        stats.commands += 1;
        *in_flight = None;
    }
}
