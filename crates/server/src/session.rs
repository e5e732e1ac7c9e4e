//! One game's lobby and play as a plain state machine:
//! `handle(input, now) -> outputs`. No sockets, no clock, no randomness of
//! its own (the shell passes fresh tokens in), so every behaviour here is
//! tested without a network (bughouse-chess style).

use citadel_bots::{
    timeout_default, AiDarkLegion, Bot, HeuristicCorporation, HeuristicDarkLegion, Seen,
};
use citadel_protocol::view_patch;
use citadel_protocol::{
    close, ChatRole, ClientMsg, Controller, DarkLegionChoice, ErrorCode, GameOptions, Join,
    LobbySeat, LobbyView, MapData, SeqEvent, ServerMsg, PROTOCOL_VERSION,
};
use citadel_rules::content::{Corporation, Specialty};
use citadel_rules::dice::SeededDice;
use citadel_rules::game::{
    Command, DarkLegionSetup, Event, Game, GameView, Rejection, Seat, SeatSetup, Setup, SetupError,
    Viewer,
};
use serde::{Deserialize, Serialize};

use crate::edge::text::{clean_name, DEFAULT_PLAYER_NAME, DEFAULT_SPECTATOR_NAME};
use crate::outcome::GameSummary;
pub use crate::secrets::token_hash;
use std::collections::BTreeMap;

/// A connection's id, given by the shell.
pub type ConnId = u64;

/// Milliseconds on the shell's clock.
pub type Millis = u64;

/// Timing and limits of a session.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// How long a disconnected player keeps the seat before a bot plays it.
    pub grace_ms: Millis,
    /// Pause between two bot commands (0 in tests), so people can follow.
    pub bot_delay_ms: Millis,
    /// Most bot commands applied in one `handle` call.
    pub max_bot_steps: usize,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            grace_ms: 30_000,
            bot_delay_ms: 400,
            max_bot_steps: 10_000,
        }
    }
}

/// A socket's `hello` as the session gets it: the shell has checked the
/// protocol version, found the game and turned the login token into an
/// account id. The one type for a hello between the socket and the session.
#[derive(Clone, Debug)]
pub struct Hello {
    /// The connection.
    pub conn: ConnId,
    /// How it joins.
    pub join: Join,
    /// The last event it saw.
    pub last_seq: Option<u64>,
    /// A fresh random token, used if this makes a new player.
    pub fresh_token: String,
    /// The account of a logged-in player, resolved by the shell.
    pub account: Option<String>,
}

/// What the shell feeds the session.
#[derive(Clone, Debug)]
pub enum Input {
    /// A socket sent a valid `hello`.
    Hello(Hello),
    /// A later message from a connection.
    Message {
        /// Connection.
        conn: ConnId,
        /// Message.
        msg: ClientMsg,
    },
    /// The connection is gone.
    Closed {
        /// Connection.
        conn: ConnId,
    },
    /// Time passed (timers: grace periods, turn limits, bot pacing).
    Tick,
}

/// What the session asks the shell to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Send one message to each of these connections. Viewers that see
    /// the same (every spectator, everyone in the lobby) share one
    /// `Send`, so the shell serializes the message once for all of them.
    Send {
        /// To.
        to: Vec<ConnId>,
        /// Message.
        msg: ServerMsg,
    },
    /// Close a connection with a code.
    Close {
        /// Which.
        conn: ConnId,
        /// Close code.
        code: u16,
        /// Reason.
        reason: String,
    },
    /// A command was applied: persist it before sending anything of the
    /// same batch (durable before acknowledged).
    Applied {
        /// Seat.
        seat: u8,
        /// The command.
        command: Command,
        /// Its number in the game, from 0.
        index: u64,
    },
    /// The lobby document changed (seats, tokens' hashes): persist it.
    LobbyChanged {
        /// The document.
        lobby: LobbyDoc,
    },
    /// The game started from this setup: persist it.
    Started {
        /// The rules setup.
        setup: Setup,
        /// The lobby as it started.
        lobby: LobbyDoc,
    },
    /// The game ended: persist the result summary.
    Finished {
        /// What is kept of the game's end.
        result: GameSummary,
    },
    /// A player with an account took a seat (for "my games").
    PlayerLinked {
        /// Seat.
        seat: u8,
        /// Account id.
        account: String,
    },
    /// The game's state after the last command of this batch: persist
    /// it with that command, so that a server on other rules can check
    /// its replay (see `citadel_rules::state_checksum`). Comes after the
    /// batch's last `Applied`.
    Checksum {
        /// The number of the batch's last command.
        index: u64,
        /// The checksum of the game after it.
        checksum: String,
    },
    /// A command was rejected (for metrics).
    Refused {
        /// Reason id.
        reason: citadel_rules::game::Rejection,
    },
}

/// One seat of the lobby. Only the hash of a seat's token is kept, so a
/// stored lobby cannot be used to take over a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct SeatSlot {
    corporation: Option<Corporation>,
    team: Option<[Specialty; 2]>,
    name: Option<String>,
    controller: Controller,
    token_hash: Option<String>,
    #[serde(default)]
    account: Option<String>,
    ready: bool,
    #[serde(skip)]
    conn: Option<ConnId>,
    #[serde(skip)]
    left_at: Option<Millis>,
    #[serde(default)]
    bot_playing: bool,
}

/// A seat of a game that starts with its players known (a campaign
/// mission): see [`Session::reserved`].
#[derive(Clone, Debug)]
pub struct ReservedSeat {
    /// Shown name.
    pub name: String,
    /// Corporation.
    pub corporation: Corporation,
    /// Hash of the token that resumes the seat ([`token_hash`]).
    pub token_hash: String,
    /// The player's account, if known.
    pub account: Option<String>,
}

/// The stored form of a lobby: its seats (controllers, names, hashed
/// tokens, accounts) and host, without who is connected now. Opaque
/// outside the session: the store keeps it as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyDoc {
    seats: Vec<SeatSlot>,
    host: Option<u8>,
}

/// Why a session cannot be built from a setup or from the store.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SessionError {
    /// The reserved seats do not match the setup or the options.
    #[error("reserved seats do not match the setup")]
    SeatsMismatch,
    /// The rules refuse the setup.
    #[error("setup: {0}")]
    Setup(#[from] SetupError),
    /// A stored command is rejected on replay: the data does not belong
    /// to this engine.
    #[error("stored command {index} rejected on replay: {reason}")]
    Replay {
        /// The command's number.
        index: usize,
        /// Why the rules refused it.
        reason: Rejection,
    },
    /// Replayed on other rules, the game does not come out as stored: a
    /// stored command is refused, or the state after a batch differs from
    /// its stored checksum.
    #[error("stored game diverges on these rules at command {index}: {why}")]
    Diverged {
        /// The first command whose outcome differs (or that is refused).
        index: usize,
        /// How many commands from the start are confirmed identical (up
        /// to the last checksum that matched; 0 if none did).
        verified: usize,
        /// What differed.
        why: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Role {
    Seat(u8),
    Spectator,
}

#[derive(Clone, Debug)]
struct Conn {
    role: Role,
    name: String,
}

#[derive(Debug)]
struct Play {
    game: Game,
    dice: SeededDice,
    /// Every event, seq = index + 1.
    log: Vec<Event>,
    /// One bot per rules seat (the AI DL's seat last): heuristic bots for
    /// bot seats and leavers, the AI Dark Legion (core AI-*) for an AI DL.
    bots: Vec<Box<dyn Bot>>,
    next_bot_at: Millis,
    /// Who the game waits for, and since when (turn timer).
    waiting: (Option<Seat>, Millis),
    /// Commands applied so far (the next command's number).
    commands: u64,
    /// The end of the game was handed out for persistence.
    finish_reported: bool,
    /// Per kind of viewer with a connection: the view its connections
    /// were last sent, which the next `events` is a patch against
    /// (`citadel_protocol::view_patch`). Every message to a kind of viewer
    /// goes to all its connections, in order, so they all hold this view;
    /// a connection that joins gets the whole current view, which is this
    /// one too (the game changes only in `publish`).
    views: BTreeMap<Role, GameView>,
}

/// One game: its lobby, then its play.
#[derive(Debug)]
pub struct Session {
    code: String,
    options: GameOptions,
    seed: u64,
    seats: Vec<SeatSlot>,
    host: Option<u8>,
    conns: BTreeMap<ConnId, Conn>,
    play: Option<Play>,
    config: SessionConfig,
    /// The lobby changed since it was last handed out for persistence.
    lobby_dirty: bool,
    /// The lobby document the store holds (as last handed out). Most
    /// lobby changes — spectators and players coming and going — leave
    /// the document as it is, and are not written again.
    stored_lobby: LobbyDoc,
}

impl Session {
    /// A new lobby. `seed` fixes the game's dice and bots.
    pub fn new(code: String, options: GameOptions, seed: u64, config: SessionConfig) -> Self {
        let seats = (0..options.seats)
            .map(|_| SeatSlot {
                corporation: None,
                team: None,
                name: None,
                controller: Controller::Open,
                token_hash: None,
                account: None,
                ready: false,
                conn: None,
                left_at: None,
                bot_playing: false,
            })
            .collect();
        let mut session = Session {
            code,
            options,
            seed,
            seats,
            host: None,
            conns: BTreeMap::new(),
            play: None,
            config,
            lobby_dirty: false,
            stored_lobby: LobbyDoc {
                seats: Vec::new(),
                host: None,
            },
        };
        // What the shell stores when it creates the game.
        session.stored_lobby = session.lobby_document();
        session
    }

    /// A game that starts at once with every seat reserved for a known
    /// player (a campaign mission): each seat is human, with its name,
    /// corporation and token hash (the player resumes it with
    /// `Join::Resume`), and the rules setup is given whole (campaign PP,
    /// the chosen Dark Legion). Every player counts as disconnected since
    /// `now`: the game is paused until one of them connects; then, after
    /// the grace period, a bot plays the seat of a player still away.
    /// Returns the session and its first outputs (`Started`, the lobby) to
    /// persist.
    ///
    /// # Errors
    /// The seats do not match the setup, or the rules refuse the setup.
    pub fn reserved(
        code: String,
        options: GameOptions,
        config: SessionConfig,
        seats: Vec<ReservedSeat>,
        setup: Setup,
        now: Millis,
    ) -> Result<(Session, Vec<Output>), SessionError> {
        if seats.len() != setup.seats.len() || seats.len() != usize::from(options.seats) {
            return Err(SessionError::SeatsMismatch);
        }
        let mut s = Session::new(code, options, setup.seed, config);
        for (slot, r) in s.seats.iter_mut().zip(seats) {
            slot.corporation = Some(r.corporation);
            slot.name = Some(clean_name(&r.name, DEFAULT_PLAYER_NAME));
            slot.controller = Controller::Human;
            slot.token_hash = Some(r.token_hash);
            slot.account = r.account;
            slot.ready = true;
            slot.left_at = Some(now);
        }
        s.host = Some(0);
        let mut out = Vec::new();
        s.launch(setup, now, &mut out)?;
        s.push_lobby_change(&mut out);
        Ok((s, out))
    }

    /// Rebuild a session from the store after a restart: the lobby as
    /// stored, and, if the game had started, the game replayed command by
    /// command from its setup and seed (the rules are deterministic, so it
    /// is exactly where the last acknowledged command left it). Every
    /// player counts as disconnected since `now`, so the game is paused:
    /// nothing plays until a player reconnects.
    ///
    /// # Errors
    /// The rules refuse the setup, or a stored command is rejected on
    /// replay (the data does not belong to this engine).
    #[allow(clippy::too_many_arguments)]
    pub fn restore(
        code: String,
        options: GameOptions,
        seed: u64,
        lobby: &LobbyDoc,
        setup: Option<&Setup>,
        commands: &[(u8, Command)],
        now: Millis,
        config: SessionConfig,
    ) -> Result<Session, SessionError> {
        Self::restore_checked(
            code, options, seed, lobby, setup, commands, None, now, config,
        )
    }

    /// [`Session::restore`], checking the replay against the checksums
    /// stored with the commands (`checksums[i]`: the state after command
    /// `i`, if one was stored), for a game made on other rules. A
    /// refused command or a checksum that differs is
    /// [`SessionError::Diverged`]; commands without a checksum are
    /// accepted as they replay. `None`: no check (the same rules).
    ///
    /// # Errors
    /// As [`Session::restore`], and [`SessionError::Diverged`].
    #[allow(clippy::too_many_arguments)]
    pub fn restore_checked(
        code: String,
        options: GameOptions,
        seed: u64,
        lobby: &LobbyDoc,
        setup: Option<&Setup>,
        commands: &[(u8, Command)],
        checksums: Option<&[Option<String>]>,
        now: Millis,
        config: SessionConfig,
    ) -> Result<Session, SessionError> {
        let mut s = Session::new(code, options, seed, config);
        s.seats.clone_from(&lobby.seats);
        s.host = lobby.host;
        s.stored_lobby = s.lobby_document();
        for slot in &mut s.seats {
            if slot.controller == Controller::Human {
                slot.left_at = Some(now);
            }
        }
        if let Some(setup) = setup {
            let mut dice = SeededDice::new(seed);
            let (mut game, mut log) = Game::new(setup.clone(), &mut dice)?;
            // The AI DL's deck is game state (its card reveals are stored
            // commands), so plain replay restores it too.
            // Commands confirmed identical so far (checked replays).
            let mut verified = 0;
            for (i, (seat, command)) in commands.iter().enumerate() {
                let events = match game.apply(Seat(*seat), command.clone(), &mut dice) {
                    Ok(events) => events,
                    Err(reason) if checksums.is_some() => {
                        return Err(SessionError::Diverged {
                            index: i,
                            verified,
                            why: format!("the command is refused: {reason}"),
                        })
                    }
                    Err(reason) => return Err(SessionError::Replay { index: i, reason }),
                };
                log.extend(events);
                let stored = checksums.and_then(|c| c.get(i)).and_then(Option::as_ref);
                if let Some(stored) = stored {
                    if *stored != citadel_rules::state_checksum(&game) {
                        return Err(SessionError::Diverged {
                            index: i,
                            verified,
                            why: "the state after it differs from the stored checksum".into(),
                        });
                    }
                    verified = i + 1;
                }
            }
            let bots = seat_bots(&game, ai_dark_legion(&game));
            let waiting = (game.seat_to_act(), now);
            let finished = game.is_finished();
            s.play = Some(Play {
                game,
                dice,
                log,
                bots,
                next_bot_at: now,
                waiting,
                commands: commands.len() as u64,
                finish_reported: finished,
                views: BTreeMap::new(),
            });
        }
        Ok(s)
    }

    /// The lobby as stored (seats with token hashes, the host), without
    /// who is connected now: that is not stored, so two documents that
    /// differ only in it are equal.
    pub fn lobby_document(&self) -> LobbyDoc {
        let seats = self
            .seats
            .iter()
            .map(|s| SeatSlot {
                conn: None,
                left_at: None,
                ..s.clone()
            })
            .collect();
        LobbyDoc {
            seats,
            host: self.host,
        }
    }

    /// Is any seat's player connected now? (Spectators do not count: a
    /// game only they watch is not being played.)
    pub fn players_connected(&self) -> bool {
        self.seats.iter().any(|s| s.conn.is_some())
    }

    /// Has the game started?
    pub fn started(&self) -> bool {
        self.play.is_some()
    }

    /// The join code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The game, once started.
    pub fn game(&self) -> Option<&Game> {
        self.play.as_ref().map(|p| &p.game)
    }

    /// Events so far.
    pub fn event_count(&self) -> u64 {
        self.play.as_ref().map_or(0, |p| p.log.len() as u64)
    }

    /// Connections open now.
    pub fn connections(&self) -> usize {
        self.conns.len()
    }

    /// The earliest time at which an [`Input::Tick`] could change
    /// something: a leaver's grace period running out, a bot's next move,
    /// a turn timer. `None`: only a message can. The shell sleeps until
    /// then instead of ticking every game all the time (1,000 idle games
    /// would otherwise wake 10,000 times a second). A time already past
    /// means a tick is due now.
    pub fn next_wake(&self) -> Option<Millis> {
        let play = self.play.as_ref()?;
        if self.paused() {
            // Nothing runs until a player comes back (a message).
            return None;
        }
        let grace = self
            .seats
            .iter()
            .filter(|s| !s.bot_playing)
            .filter_map(|s| s.left_at)
            .map(|t| t.saturating_add(self.config.grace_ms))
            .min();
        let turn = if play.game.is_finished() {
            None
        } else {
            play.game.seat_to_act().and_then(|seat| {
                let bot = self.automatic(seat).then_some(play.next_bot_at);
                let timer = self
                    .options
                    .turn_seconds
                    .filter(|_| play.waiting.0 == Some(seat))
                    .map(|limit| play.waiting.1.saturating_add(u64::from(limit) * 1000));
                bot.into_iter().chain(timer).min()
            })
        };
        grace.into_iter().chain(turn).min()
    }

    /// Handle one input at time `now`.
    pub fn handle(&mut self, input: Input, now: Millis) -> Vec<Output> {
        let mut out = Vec::new();
        match input {
            Input::Hello(hello) => self.on_hello(hello, now, &mut out),
            Input::Message { conn, msg } => self.on_message(conn, msg, now, &mut out),
            Input::Closed { conn } => self.on_closed(conn, now, &mut out),
            Input::Tick => self.on_tick(now, &mut out),
        }
        self.drive_bots(now, &mut out);
        self.push_lobby_change(&mut out);
        self.push_checksum(&mut out);
        out
    }

    /// After a batch that applied commands, the checksum of the state it
    /// left, for the store. Once per batch, not per command: it costs
    /// some six commands' `apply` (docs/BENCHMARKS.md).
    fn push_checksum(&self, out: &mut Vec<Output>) {
        let Some(play) = &self.play else {
            return;
        };
        let last = out.iter().rev().find_map(|o| match o {
            Output::Applied { index, .. } => Some(*index),
            _ => None,
        });
        if let Some(index) = last {
            out.push(Output::Checksum {
                index,
                checksum: citadel_rules::state_checksum(&play.game),
            });
        }
    }

    /// Hand the lobby document out for persistence if it changed since
    /// the store last got it.
    fn push_lobby_change(&mut self, out: &mut Vec<Output>) {
        if std::mem::take(&mut self.lobby_dirty) {
            let lobby = self.lobby_document();
            if lobby != self.stored_lobby {
                self.stored_lobby.clone_from(&lobby);
                out.push(Output::LobbyChanged { lobby });
            }
        }
    }

    fn send(out: &mut Vec<Output>, conn: ConnId, msg: ServerMsg) {
        out.push(Output::Send {
            to: vec![conn],
            msg,
        });
    }

    /// Every connection, grouped by what it may see (each seat; all
    /// spectators together).
    fn conns_by_role(&self) -> Vec<(Role, Vec<ConnId>)> {
        let mut groups: Vec<(Role, Vec<ConnId>)> = Vec::new();
        for (conn, c) in &self.conns {
            match groups.iter_mut().find(|(role, _)| *role == c.role) {
                Some((_, conns)) => conns.push(*conn),
                None => groups.push((c.role, vec![*conn])),
            }
        }
        groups
    }

    fn error(out: &mut Vec<Output>, conn: ConnId, code: ErrorCode, message: &str) {
        Self::send(
            out,
            conn,
            ServerMsg::Error {
                code,
                message: message.to_string(),
            },
        );
    }

    fn lobby(&self) -> LobbyView {
        LobbyView {
            code: self.code.clone(),
            options: self.options.clone(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| LobbySeat {
                    seat: i as u8,
                    corporation: s.corporation,
                    name: s.name.clone(),
                    controller: s.controller,
                    ready: s.ready,
                    connected: s.conn.is_some(),
                    bot_playing: s.bot_playing,
                })
                .collect(),
            spectators: self
                .conns
                .values()
                .filter(|c| c.role == Role::Spectator)
                .count() as u32,
            started: self.play.is_some(),
            host: self.host.unwrap_or(0),
        }
    }

    fn broadcast_lobby(&mut self, out: &mut Vec<Output>) {
        self.lobby_dirty = true;
        out.push(Output::Send {
            to: self.conns.keys().copied().collect(),
            msg: ServerMsg::Lobby {
                lobby: self.lobby(),
            },
        });
    }

    fn viewer(role: Role) -> Viewer {
        match role {
            Role::Seat(s) => Viewer::Seat(Seat(s)),
            Role::Spectator => Viewer::Spectator,
        }
    }

    fn on_hello(&mut self, hello: Hello, now: Millis, out: &mut Vec<Output>) {
        let Hello {
            conn,
            join,
            last_seq,
            fresh_token,
            account,
        } = hello;
        match join {
            Join::Player { name } => {
                let free = self
                    .seats
                    .iter()
                    .position(|s| s.controller == Controller::Open);
                let Some(i) = free.filter(|_| self.play.is_none()) else {
                    out.push(Output::Close {
                        conn,
                        code: close::GAME_FULL,
                        reason: "no free seat in this game".into(),
                    });
                    return;
                };
                let slot = &mut self.seats[i];
                slot.controller = Controller::Human;
                slot.name = Some(clean_name(&name, DEFAULT_PLAYER_NAME));
                slot.token_hash = Some(token_hash(&fresh_token));
                slot.account = account.clone();
                slot.conn = Some(conn);
                slot.ready = false;
                let i = i as u8;
                self.host.get_or_insert(i);
                if let Some(account) = account {
                    out.push(Output::PlayerLinked { seat: i, account });
                }
                self.conns.insert(
                    conn,
                    Conn {
                        role: Role::Seat(i),
                        name: clean_name(&name, DEFAULT_PLAYER_NAME),
                    },
                );
                Self::send(
                    out,
                    conn,
                    ServerMsg::Welcome {
                        protocol: PROTOCOL_VERSION,
                        seat: Some(i),
                        token: Some(fresh_token),
                    },
                );
                self.broadcast_lobby(out);
            }
            Join::Resume { token } => {
                let Some(i) = self
                    .seats
                    .iter()
                    .position(|s| s.token_hash.as_deref() == Some(token_hash(&token).as_str()))
                else {
                    out.push(Output::Close {
                        conn,
                        code: close::BAD_TOKEN,
                        reason: "that token matches no seat".into(),
                    });
                    return;
                };
                if self.paused() {
                    self.resume_play(now);
                }
                let slot = &mut self.seats[i];
                if let Some(old) = slot.conn.replace(conn) {
                    self.conns.remove(&old);
                    out.push(Output::Close {
                        conn: old,
                        code: close::REPLACED,
                        reason: "the seat connected again elsewhere".into(),
                    });
                }
                slot.left_at = None;
                slot.bot_playing = false;
                let name = slot.name.clone().unwrap_or_default();
                let i = i as u8;
                self.conns.insert(
                    conn,
                    Conn {
                        role: Role::Seat(i),
                        name,
                    },
                );
                Self::send(
                    out,
                    conn,
                    ServerMsg::Welcome {
                        protocol: PROTOCOL_VERSION,
                        seat: Some(i),
                        token: Some(token),
                    },
                );
                self.broadcast_lobby(out);
                self.catch_up(conn, last_seq, out);
            }
            Join::Spectator { name } => {
                self.conns.insert(
                    conn,
                    Conn {
                        role: Role::Spectator,
                        name: clean_name(&name, DEFAULT_SPECTATOR_NAME),
                    },
                );
                Self::send(
                    out,
                    conn,
                    ServerMsg::Welcome {
                        protocol: PROTOCOL_VERSION,
                        seat: None,
                        token: None,
                    },
                );
                self.broadcast_lobby(out);
                self.catch_up(conn, last_seq, out);
            }
        }
    }

    /// Send a reconnecting client the events it missed, or a snapshot
    /// when it has seen nothing (lila-ws). Either carries the whole view:
    /// the server cannot know which view the client holds, so the next
    /// patch is against this one.
    fn catch_up(&mut self, conn: ConnId, last_seq: Option<u64>, out: &mut Vec<Output>) {
        let (Some(play), Some(c)) = (&mut self.play, self.conns.get(&conn)) else {
            return;
        };
        let viewer = Self::viewer(c.role);
        let view = play.game.view(viewer);
        // The kind of viewer's other connections hold this view already;
        // if it has none, the next batch is a patch against it too.
        play.views.entry(c.role).or_insert_with(|| view.clone());
        match last_seq.filter(|s| *s <= play.log.len() as u64) {
            Some(seen) => {
                let events: Vec<SeqEvent> = play.log[seen as usize..]
                    .iter()
                    .enumerate()
                    .map(|(k, e)| SeqEvent {
                        seq: seen + 1 + k as u64,
                        event: e.for_viewer(viewer),
                    })
                    .collect();
                Self::send(
                    out,
                    conn,
                    ServerMsg::Events {
                        map: map_if_altered(&play.game, &events),
                        events,
                        view: Some(Box::new(view)),
                        view_patch: None,
                        legal: legal_for(&play.game, c.role),
                    },
                );
            }
            None => Self::send(out, conn, snapshot(play, c.role, view)),
        }
    }

    fn on_closed(&mut self, conn: ConnId, now: Millis, out: &mut Vec<Output>) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        if let Role::Seat(i) = c.role {
            let slot = &mut self.seats[usize::from(i)];
            if slot.conn == Some(conn) {
                slot.conn = None;
                slot.left_at = Some(now);
            }
        }
        self.broadcast_lobby(out);
    }

    fn on_tick(&mut self, now: Millis, out: &mut Vec<Output>) {
        if self.play.is_none() || self.paused() {
            return;
        }
        let mut changed = false;
        for slot in &mut self.seats {
            if let Some(t) = slot.left_at {
                if !slot.bot_playing && now.saturating_sub(t) >= self.config.grace_ms {
                    slot.bot_playing = true;
                    changed = true;
                }
            }
        }
        if changed {
            self.broadcast_lobby(out);
        }
    }

    fn on_message(&mut self, conn: ConnId, msg: ClientMsg, now: Millis, out: &mut Vec<Output>) {
        let Some(c) = self.conns.get(&conn).cloned() else {
            return;
        };
        let my_seat = match c.role {
            Role::Seat(i) => Some(i),
            Role::Spectator => None,
        };
        let started = self.play.is_some();
        match msg {
            ClientMsg::Hello { .. } => {
                Self::error(out, conn, ErrorCode::Malformed, "hello was already sent")
            }
            ClientMsg::Ping => Self::send(out, conn, ServerMsg::Pong),
            ClientMsg::Resync => {
                if started {
                    self.catch_up(conn, None, out);
                } else {
                    Self::send(
                        out,
                        conn,
                        ServerMsg::Lobby {
                            lobby: self.lobby(),
                        },
                    );
                }
            }
            ClientMsg::Chat { text } => {
                let text = crate::edge::text::clean_chat(&text, crate::edge::text::CHAT_MAX_CHARS);
                if !text.is_empty() {
                    let role = match my_seat {
                        Some(_) => ChatRole::Player,
                        None => ChatRole::Spectator,
                    };
                    out.push(Output::Send {
                        to: self.conns.keys().copied().collect(),
                        msg: ServerMsg::Chat {
                            from: c.name.clone(),
                            role,
                            seat: my_seat,
                            text,
                        },
                    });
                }
            }
            ClientMsg::TakeSeat { corporation } => {
                let Some(i) = my_seat.filter(|_| !started) else {
                    return self.refuse(out, conn, my_seat, started);
                };
                let taken = self
                    .seats
                    .iter()
                    .enumerate()
                    .any(|(k, s)| k != usize::from(i) && s.corporation == Some(corporation));
                if taken {
                    return Self::error(
                        out,
                        conn,
                        ErrorCode::LobbyRefused,
                        "that corporation is taken",
                    );
                }
                self.seats[usize::from(i)].corporation = Some(corporation);
                self.broadcast_lobby(out);
            }
            ClientMsg::ChooseTeam { doomtroopers } => {
                let Some(i) = my_seat.filter(|_| !started) else {
                    return self.refuse(out, conn, my_seat, started);
                };
                if doomtroopers[0] == doomtroopers[1] {
                    return Self::error(
                        out,
                        conn,
                        ErrorCode::LobbyRefused,
                        "pick two different Doomtroopers",
                    );
                }
                self.seats[usize::from(i)].team = Some(doomtroopers);
                self.broadcast_lobby(out);
            }
            ClientMsg::Ready { ready } => {
                let Some(i) = my_seat.filter(|_| !started) else {
                    return self.refuse(out, conn, my_seat, started);
                };
                self.seats[usize::from(i)].ready = ready;
                self.broadcast_lobby(out);
            }
            ClientMsg::SetBot { seat, bot } => {
                if my_seat.is_none() || my_seat != self.host {
                    return Self::error(out, conn, ErrorCode::NotHost, "only the host may do that");
                }
                if started {
                    return Self::error(out, conn, ErrorCode::LobbyRefused, "the game has started");
                }
                let free_corp = self.free_corporation();
                let Some(slot) = self.seats.get_mut(usize::from(seat)) else {
                    return Self::error(out, conn, ErrorCode::LobbyRefused, "no such seat");
                };
                match (bot, slot.controller) {
                    (true, Controller::Open) => {
                        slot.controller = Controller::Bot;
                        slot.corporation = free_corp;
                        slot.name = Some(format!("Bot {}", seat + 1));
                        slot.ready = true;
                    }
                    (false, Controller::Bot) => {
                        slot.controller = Controller::Open;
                        slot.corporation = None;
                        slot.name = None;
                        slot.ready = false;
                    }
                    _ => {
                        return Self::error(
                            out,
                            conn,
                            ErrorCode::LobbyRefused,
                            "that seat cannot change that way",
                        )
                    }
                }
                self.broadcast_lobby(out);
            }
            ClientMsg::Start => {
                if my_seat.is_none() || my_seat != self.host {
                    return Self::error(out, conn, ErrorCode::NotHost, "only the host may start");
                }
                if started {
                    return Self::error(out, conn, ErrorCode::LobbyRefused, "the game has started");
                }
                if let Err(why) = self.start(now, out) {
                    Self::error(out, conn, ErrorCode::LobbyRefused, &why);
                }
            }
            ClientMsg::Command {
                client_ref,
                command,
            } => {
                let Some(seat) = my_seat else {
                    return Self::error(
                        out,
                        conn,
                        ErrorCode::NotAPlayer,
                        "spectators cannot send commands",
                    );
                };
                let Some(play) = &mut self.play else {
                    return Self::error(
                        out,
                        conn,
                        ErrorCode::NotStarted,
                        "the game has not started",
                    );
                };
                if play.game.is_finished() {
                    return Self::error(out, conn, ErrorCode::GameOver, "the game is over");
                }
                match play.game.apply(Seat(seat), command.clone(), &mut play.dice) {
                    Ok(events) => {
                        // Once the client has seen `last`, it has every
                        // event the command caused (none: the seq it has).
                        let last = (play.log.len() + events.len()) as u64;
                        Self::send(
                            out,
                            conn,
                            ServerMsg::Ack {
                                client_ref,
                                seq: last,
                            },
                        );
                        let index = play.commands;
                        play.commands += 1;
                        out.push(Output::Applied {
                            seat,
                            command,
                            index,
                        });
                        self.publish(events, now, out);
                    }
                    Err(reason) => {
                        out.push(Output::Refused { reason });
                        Self::send(
                            out,
                            conn,
                            ServerMsg::Rejected {
                                client_ref,
                                reason,
                                message: reason.message(),
                            },
                        )
                    }
                }
            }
        }
    }

    fn refuse(&self, out: &mut Vec<Output>, conn: ConnId, seat: Option<u8>, started: bool) {
        if seat.is_none() {
            Self::error(
                out,
                conn,
                ErrorCode::NotAPlayer,
                "spectators cannot do that",
            );
        } else if started {
            Self::error(out, conn, ErrorCode::LobbyRefused, "the game has started");
        }
    }

    fn free_corporation(&self) -> Option<Corporation> {
        Corporation::ALL
            .into_iter()
            .find(|c| !self.seats.iter().any(|s| s.corporation == Some(*c)))
    }

    /// Build the rules setup from the lobby and start (SET-1, SET-2).
    fn start(&mut self, now: Millis, out: &mut Vec<Output>) -> Result<(), String> {
        if self.seats.iter().any(|s| s.controller == Controller::Open) {
            return Err("every seat needs a player or a bot".into());
        }
        if self
            .seats
            .iter()
            .any(|s| s.controller == Controller::Human && !s.ready)
        {
            return Err("every player must be ready".into());
        }
        // Players who did not pick get the free corporations in id order.
        for i in 0..self.seats.len() {
            if self.seats[i].corporation.is_none() {
                self.seats[i].corporation = self.free_corporation();
            }
        }
        let seats = self
            .seats
            .iter()
            .map(|s| SeatSetup {
                corporation: s.corporation.unwrap_or(Corporation::Bauhaus),
                doomtroopers: s.team,
                pp: None,
                credits: None,
            })
            .collect();
        let dark_legion = match self.options.dark_legion {
            DarkLegionChoice::Drawn => DarkLegionSetup::Drawn,
            DarkLegionChoice::Seat(s) => DarkLegionSetup::Seat(s),
            DarkLegionChoice::Ai => DarkLegionSetup::Ai,
        };
        let setup = Setup {
            ruleset: Setup::ruleset_for_mission(&self.options.mission),
            mission: self.options.mission.clone(),
            seats,
            dark_legion,
            starting_rank: self.options.starting_rank,
            seed: self.seed,
            campaign: false,
            c2m4_completed: None,
            dl_band: None,
        };
        self.launch(setup, now, out).map_err(|e| e.to_string())
    }

    /// Start the game from a rules setup: tell the shell to persist it,
    /// then send everyone connected a snapshot.
    fn launch(
        &mut self,
        setup: Setup,
        now: Millis,
        out: &mut Vec<Output>,
    ) -> Result<(), SetupError> {
        let mut dice = SeededDice::new(self.seed);
        let (game, events) = Game::new(setup, &mut dice)?;
        let bots = seat_bots(&game, ai_dark_legion(&game));
        let waiting = (game.seat_to_act(), now);
        self.stored_lobby = self.lobby_document();
        out.push(Output::Started {
            setup: game.setup().clone(),
            lobby: self.stored_lobby.clone(),
        });
        self.play = Some(Play {
            game,
            dice,
            log: events,
            bots,
            next_bot_at: now,
            waiting,
            commands: 0,
            finish_reported: false,
            views: BTreeMap::new(),
        });
        self.broadcast_lobby(out);
        let groups = self.conns_by_role();
        if let Some(play) = &mut self.play {
            for (role, to) in groups {
                let view = play.game.view(Self::viewer(role));
                play.views.insert(role, view.clone());
                out.push(Output::Send {
                    to,
                    msg: snapshot(play, role, view),
                });
            }
        }
        Ok(())
    }

    /// Append events to the log and send each viewer its filtered copy.
    fn publish(&mut self, events: Vec<Event>, now: Millis, out: &mut Vec<Output>) {
        let groups = self.conns_by_role();
        let Some(play) = &mut self.play else {
            return;
        };
        let first = play.log.len() as u64 + 1;
        play.log.extend(events);
        if play.game.is_finished() && !play.finish_reported {
            play.finish_reported = true;
            out.push(Output::Finished {
                result: GameSummary::of(&play.game),
            });
        }
        let seat = play.game.seat_to_act();
        if seat != play.waiting.0 {
            play.waiting = (seat, now);
        }
        // Views are kept only for the kinds of viewer still connected.
        play.views
            .retain(|role, _| groups.iter().any(|(r, _)| r == role));
        for (role, to) in groups {
            let viewer = Self::viewer(role);
            let events: Vec<SeqEvent> = play.log[(first - 1) as usize..]
                .iter()
                .enumerate()
                .map(|(k, e)| SeqEvent {
                    seq: first + k as u64,
                    event: e.for_viewer(viewer),
                })
                .collect();
            // A patch against the view this kind of viewer was last sent,
            // made from its own (redacted) views only; the whole view when
            // the server holds none for it.
            let new = play.game.view(viewer);
            let (view, view_patch) = match play.views.get(&role) {
                Some(old) => (None, Some(view_patch::diff(old, &new))),
                None => (Some(Box::new(new.clone())), None),
            };
            play.views.insert(role, new);
            out.push(Output::Send {
                to,
                msg: ServerMsg::Events {
                    map: map_if_altered(&play.game, &events),
                    events,
                    view,
                    view_patch,
                    legal: legal_for(&play.game, role),
                },
            });
        }
    }

    /// Is this rules seat played automatically now?
    fn automatic(&self, seat: Seat) -> bool {
        match self.seats.get(usize::from(seat.0)) {
            None => true, // The AI Dark Legion's seat.
            Some(s) => s.controller == Controller::Bot || s.bot_playing,
        }
    }

    /// Is the game paused? A started game with no seat's player connected
    /// waits for one: no bot plays (not a leaver's seat, a bot seat or the
    /// AI Dark Legion), no grace period runs out and no turn timer
    /// expires. Otherwise a game everyone left — or every game after a
    /// restart — would be played out by bots overnight. Spectators do not
    /// count.
    fn paused(&self) -> bool {
        self.play.is_some() && !self.players_connected()
    }

    /// A player comes back to a paused game: the clocks that stood still
    /// start again from `now` — the turn timer, and the grace period of
    /// every player still away (each gets the whole grace period to come
    /// back too before a bot stands in).
    fn resume_play(&mut self, now: Millis) {
        for slot in &mut self.seats {
            if slot.left_at.is_some() && !slot.bot_playing {
                slot.left_at = Some(now);
            }
        }
        if let Some(play) = &mut self.play {
            play.waiting.1 = now;
            play.next_bot_at = play.next_bot_at.max(now);
        }
    }

    /// Let bots (and expired turn timers) act until a person must.
    fn drive_bots(&mut self, now: Millis, out: &mut Vec<Output>) {
        if self.paused() {
            return;
        }
        for _ in 0..self.config.max_bot_steps {
            let Some(play) = &self.play else {
                return;
            };
            if play.game.is_finished() {
                return;
            }
            let Some(seat) = play.game.seat_to_act() else {
                return;
            };
            let timed_out = self.options.turn_seconds.is_some_and(|limit| {
                play.waiting.0 == Some(seat)
                    && now.saturating_sub(play.waiting.1) >= u64::from(limit) * 1000
            });
            let automatic = self.automatic(seat);
            if !automatic && !timed_out {
                return;
            }
            if automatic && now < play.next_bot_at {
                return;
            }
            let delay = self.config.bot_delay_ms;
            let Some(play) = &mut self.play else {
                return;
            };
            let choice = if automatic {
                play.bots
                    .get_mut(usize::from(seat.0))
                    .and_then(|b| b.choose(&Seen::of(&play.game, seat)))
            } else {
                timeout_default(&play.game.legal(seat))
            };
            if !automatic && choice.is_some() {
                let seq = play.log.len() as u64;
                announce_timeout(&self.conns, seat.0, seq, out);
            }
            let Some(command) = choice else {
                return;
            };
            match play.game.apply(seat, command.clone(), &mut play.dice) {
                Ok(events) => {
                    // A card reveal is part of the AI's next decision, not
                    // a move to watch: no pause after it.
                    if command != Command::RevealAiCard {
                        play.next_bot_at = now + delay;
                    }
                    let index = play.commands;
                    play.commands += 1;
                    out.push(Output::Applied {
                        seat: seat.0,
                        command,
                        index,
                    });
                    self.publish(events, now, out);
                }
                // A bot only picks legal commands; if one is refused the
                // engine and `legal` disagree: stop rather than loop.
                Err(_) => return,
            }
        }
    }
}

/// Tell everyone that `seat`'s time ran out, before the events of the
/// server's answer for it, so the log can say so.
fn announce_timeout(conns: &BTreeMap<ConnId, Conn>, seat: u8, seq: u64, out: &mut Vec<Output>) {
    out.push(Output::Send {
        to: conns.keys().copied().collect(),
        msg: ServerMsg::TimedOut { seat, seq },
    });
}

fn legal_for(game: &Game, role: Role) -> Vec<Command> {
    match role {
        Role::Seat(s) => game.legal(Seat(s)),
        Role::Spectator => Vec::new(),
    }
}

/// The map now, when `events` changed the board (classic event 11), so
/// the client draws the new one; `None` otherwise.
fn map_if_altered(game: &Game, events: &[SeqEvent]) -> Option<Box<MapData>> {
    events
        .iter()
        .any(|e| matches!(e.event, Event::SectorsAltered { .. }))
        .then(|| Box::new(MapData::of(game)))
}

/// A snapshot for `role`, with its `view` now.
fn snapshot(play: &Play, role: Role, view: GameView) -> ServerMsg {
    ServerMsg::Snapshot {
        seq: play.log.len() as u64,
        view: Box::new(view),
        map: Box::new(MapData::of(&play.game)),
        legal: legal_for(&play.game, role),
    }
}

/// The AI Dark Legion's seat and bot, when the game has an AI DL
/// (`DarkLegionChoice::Ai`).
fn ai_dark_legion(game: &Game) -> Option<(Seat, AiDarkLegion)> {
    let seat = game.view(Viewer::Spectator).dark_legion.ai_seat?;
    Some((seat, AiDarkLegion::new()))
}

/// One bot per rules seat: the AI DL's seat gets `ai` (when there is one),
/// the Dark Legion player's seat the heuristic Dark Legion, every
/// corporation seat the heuristic corporation (bot seats, leavers). The
/// heuristic bots are deterministic, so a restored game's bots choose as
/// the originals would have.
fn seat_bots(game: &Game, ai: Option<(Seat, AiDarkLegion)>) -> Vec<Box<dyn Bot>> {
    let dl_seat = game.view(Viewer::Spectator).dark_legion.seat;
    let mut ai = ai;
    (0..game.seats().len())
        .map(|i| -> Box<dyn Bot> {
            let seat = Seat(i as u8);
            match ai.take_if(|(s, _)| *s == seat) {
                Some((_, bot)) => Box::new(bot),
                None if dl_seat == Some(seat) => Box::new(HeuristicDarkLegion::new()),
                None => Box::new(HeuristicCorporation::new()),
            }
        })
        .collect()
}
