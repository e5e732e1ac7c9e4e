//! One game's lobby and play as a plain state machine:
//! `handle(input, now) -> outputs`. No sockets, no clock, no randomness of
//! its own (the shell passes fresh tokens in), so every behaviour here is
//! tested without a network (bughouse-chess style).

use citadel_game::{Bot, Game, Seat, SeatPlan, SeededDice, Seen, Viewer};
use citadel_protocol::{
    close, ChatRole, ClientMsg, Controller, ErrorCode, Join, Json, LobbySeat, LobbyView, SeqEvent,
    ServerMsg, TableOptions, PROTOCOL_VERSION,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::edge::text::{clean_name, DEFAULT_PLAYER_NAME, DEFAULT_SPECTATOR_NAME};
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
        /// The command, as the game's JSON.
        command: Json,
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
        /// The game's setup, as its JSON.
        setup: Json,
        /// The lobby as it started.
        lobby: LobbyDoc,
    },
    /// The game ended: persist the game's summary of it.
    Finished {
        /// The game's summary (`citadel_game::Game::summary`), as JSON.
        result: Json,
        /// A rated table's end as ratings read it; `None` for a casual
        /// table (or a game without places).
        rated: Option<RatedGame>,
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
    /// its replay (`citadel_game::Game::checksum`). Comes after the
    /// batch's last `Applied`.
    Checksum {
        /// The number of the batch's last command.
        index: u64,
        /// The checksum of the game after it.
        checksum: String,
    },
    /// A command was rejected (for metrics).
    Refused {
        /// The reason's id: the rejection's JSON string, or its tag.
        reason: String,
    },
}

/// One seat of the lobby. Only the hash of a seat's token is kept, so a
/// stored lobby cannot be used to take over a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredSlot")]
struct SeatSlot {
    /// The player's lobby choice, as the game's JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    choice: Option<Json>,
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

impl SeatSlot {
    fn open() -> Self {
        SeatSlot {
            choice: None,
            name: None,
            controller: Controller::Open,
            token_hash: None,
            account: None,
            ready: false,
            conn: None,
            left_at: None,
            bot_playing: false,
        }
    }
}

/// A seat as stored, older forms included: lobbies stored before the
/// game seam kept the choice's fields in the seat itself (Siege's
/// `corporation` and `team`). Those fields, when set, are read as the
/// seat's choice, and the game reads its choice from them.
#[derive(Deserialize)]
struct StoredSlot {
    #[serde(default)]
    choice: Option<Json>,
    name: Option<String>,
    controller: Controller,
    token_hash: Option<String>,
    #[serde(default)]
    account: Option<String>,
    ready: bool,
    #[serde(default)]
    bot_playing: bool,
    #[serde(flatten)]
    inline_choice: serde_json::Map<String, Value>,
}

impl From<StoredSlot> for SeatSlot {
    fn from(s: StoredSlot) -> Self {
        let inline: serde_json::Map<String, Value> = s
            .inline_choice
            .into_iter()
            .filter(|(_, v)| !v.is_null())
            .collect();
        let choice = s
            .choice
            .or_else(|| (!inline.is_empty()).then(|| Json::from(Value::Object(inline))));
        SeatSlot {
            choice,
            name: s.name,
            controller: s.controller,
            token_hash: s.token_hash,
            account: s.account,
            ready: s.ready,
            conn: None,
            left_at: None,
            bot_playing: s.bot_playing,
        }
    }
}

/// A seat of a game that starts with its players known (a campaign
/// mission): see [`Session::reserved`].
#[derive(Clone, Debug)]
pub struct ReservedSeat {
    /// Shown name.
    pub name: String,
    /// The seat's choice, as the game's JSON.
    pub choice: Option<Json>,
    /// Hash of the token that resumes the seat ([`token_hash`]).
    pub token_hash: String,
    /// The player's account, if known.
    pub account: Option<String>,
}

/// The stored form of a lobby: its seats (controllers, names, hashed
/// tokens, accounts, choices) and host, without who is connected now.
/// Opaque outside the session: the store keeps it as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyDoc {
    seats: Vec<SeatSlot>,
    host: Option<u8>,
}

/// Why a session cannot be built from a setup or from the store.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SessionError {
    /// The options are not the game's, or out of range.
    #[error("options: {0}")]
    Options(String),
    /// A stored document (setup, command) is not the game's.
    #[error("stored {what} is not this game's: {error}")]
    Document {
        /// Which document.
        what: &'static str,
        /// The parser's complaint.
        error: String,
    },
    /// The reserved seats do not match the setup or the options.
    #[error("reserved seats do not match the setup")]
    SeatsMismatch,
    /// The rules refuse the setup.
    #[error("setup: {0}")]
    Setup(String),
    /// A stored command is rejected on replay: the data does not belong
    /// to this engine.
    #[error("stored command {index} rejected on replay: {reason}")]
    Replay {
        /// The command's number.
        index: usize,
        /// Why the rules refused it.
        reason: String,
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

/// A stored game, as [`Session::restore_checked`] reads it: its
/// documents as the store keeps them (JSON text), parsed by the game.
#[derive(Clone, Copy, Debug)]
pub struct StoredGame<'a> {
    /// Join code.
    pub code: &'a str,
    /// Options.
    pub options: &'a TableOptions,
    /// The seed of its dice and bots.
    pub seed: u64,
    /// The lobby.
    pub lobby: &'a LobbyDoc,
    /// The setup, once started.
    pub setup: Option<&'a str>,
    /// Every accepted command: seat and the command's JSON.
    pub commands: &'a [(u8, String)],
    /// The checksum stored with each command, if any: checked when
    /// given (a game made on other rules).
    pub checksums: Option<&'a [Option<String>]>,
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
struct Play<G: Game> {
    game: G,
    dice: SeededDice,
    /// Every event, seq = index + 1.
    log: Vec<G::Event>,
    /// One bot per rules seat, automata after the players: the game's
    /// own (an AI opponent's, stand-ins for bot seats and leavers).
    bots: Vec<Box<dyn Bot<G>>>,
    next_bot_at: Millis,
    /// Who the game waits for, and since when (turn timer).
    waiting: (Vec<Seat>, Millis),
    /// Commands applied so far (the next command's number).
    commands: u64,
    /// The end of the game was handed out for persistence.
    finish_reported: bool,
    /// Per kind of viewer with a connection: the view its connections
    /// were last sent, which the next `events` is a patch against
    /// (`citadel_game::Game::view_patch`). Every message to a kind of
    /// viewer goes to all its connections, in order, so they all hold
    /// this view; a connection that joins gets the whole current view,
    /// which is this one too (the game changes only in `publish`).
    views: BTreeMap<Role, G::View>,
    /// What a client draws once, serialized once (until the events say
    /// it changed).
    static_data: Json,
}

impl<G: Game> Play<G> {
    fn new(
        game: G,
        dice: SeededDice,
        log: Vec<G::Event>,
        (plan, seed, maker): (&SeatPlan, u64, BotMaker<G>),
        now: Millis,
    ) -> Self {
        let bots = seat_bots(&game, plan, seed, maker);
        let static_data = Json::of(&game.static_data());
        Play {
            waiting: (game.to_act(), now),
            game,
            dice,
            log,
            bots,
            next_bot_at: now,
            commands: 0,
            finish_reported: false,
            views: BTreeMap::new(),
            static_data,
        }
    }
}

/// Makes the automatic player of a seat: the game's own
/// (`citadel_game::Game::bot`) unless its catalogue entry names bots that
/// live beside the rules ([`Session::with_bots`]).
pub type BotMaker<G> = fn(&G, Seat, u64) -> Box<dyn Bot<G>>;

fn game_bot<G: Game>(game: &G, seat: Seat, seed: u64) -> Box<dyn Bot<G>> {
    game.bot(seat, seed)
}

/// One game: its lobby, then its play.
#[derive(Debug)]
pub struct Session<G: Game> {
    code: String,
    options: TableOptions,
    game_options: G::Options,
    plan: SeatPlan,
    seed: u64,
    bots: BotMaker<G>,
    seats: Vec<SeatSlot>,
    host: Option<u8>,
    conns: BTreeMap<ConnId, Conn>,
    play: Option<Play<G>>,
    config: SessionConfig,
    /// The lobby changed since it was last handed out for persistence.
    lobby_dirty: bool,
    /// The lobby document the store holds (as last handed out). Most
    /// lobby changes — spectators and players coming and going — leave
    /// the document as it is, and are not written again.
    stored_lobby: LobbyDoc,
    /// The last [`CHAT_KEPT`] chat lines, sent to whoever joins (a reload
    /// keeps the conversation). Every line is seen by every viewer, so
    /// every line is kept for all. In memory: a restart forgets them.
    chat: std::collections::VecDeque<ServerMsg>,
}

/// How many chat lines a game keeps for those who join later.
pub const CHAT_KEPT: usize = 50;

/// The game's own options within a table's.
///
/// # Errors
/// They are not the game's, or out of range.
pub fn game_options<G: Game>(
    options: &TableOptions,
) -> Result<(G::Options, SeatPlan), SessionError> {
    read_options::<G>(options).map_err(|e| SessionError::Options(e.to_string()))
}

/// The game's own options within a table's, and the seats they make; the
/// option at fault otherwise (`options` when the JSON is not the game's
/// options at all).
///
/// # Errors
/// They are not the game's, or out of range.
pub fn read_options<G: Game>(
    options: &TableOptions,
) -> Result<(G::Options, SeatPlan), citadel_game::OptionError> {
    let typed: G::Options = serde_json::from_value(options.game_json()).map_err(|e| {
        citadel_game::OptionError::new("options", format!("not {} options: {e}", G::NAME))
    })?;
    let plan = G::seat_plan(&typed)?;
    Ok((typed, plan))
}

fn parse<T: serde::de::DeserializeOwned>(
    text: &str,
    what: &'static str,
) -> Result<T, SessionError> {
    serde_json::from_str(text).map_err(|e| SessionError::Document {
        what,
        error: e.to_string(),
    })
}

impl<G: Game> Session<G> {
    /// A new lobby. `seed` fixes the game's dice and bots.
    ///
    /// # Errors
    /// The options are not the game's, or out of range.
    pub fn new(
        code: String,
        options: TableOptions,
        seed: u64,
        config: SessionConfig,
    ) -> Result<Self, SessionError> {
        let (game_options, plan) = game_options::<G>(&options)?;
        let seats = (0..plan.players).map(|_| SeatSlot::open()).collect();
        let mut session = Session {
            code,
            options,
            game_options,
            plan,
            seed,
            bots: game_bot::<G>,
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
            chat: std::collections::VecDeque::new(),
        };
        // What the shell stores when it creates the game.
        session.stored_lobby = session.lobby_document();
        Ok(session)
    }

    /// A game that starts at once with every seat reserved for a known
    /// player (a campaign mission): each seat is human, with its name,
    /// choice and token hash (the player resumes it with
    /// `Join::Resume`), and the setup is given whole (campaign points,
    /// the chosen sides). Every player counts as disconnected since
    /// `now`: the game is paused until one of them connects; then, after
    /// the grace period, a bot plays the seat of a player still away.
    /// Returns the session and its first outputs (`Started`, the lobby) to
    /// persist.
    ///
    /// # Errors
    /// The seats do not match the options, or the rules refuse the setup.
    pub fn reserved(
        code: String,
        options: TableOptions,
        config: SessionConfig,
        seats: Vec<ReservedSeat>,
        setup: &G::Setup,
        seed: u64,
        now: Millis,
    ) -> Result<(Self, Vec<Output>), SessionError> {
        let mut s = Session::new(code, options, seed, config)?;
        if seats.len() != s.seats.len() {
            return Err(SessionError::SeatsMismatch);
        }
        for (slot, r) in s.seats.iter_mut().zip(seats) {
            slot.choice = r.choice;
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
    /// With `stored.checksums` (a game made on other rules) the replay is
    /// checked against them (`checksums[i]`: the state after command `i`,
    /// if one was stored): a refused command or a checksum that differs
    /// is [`SessionError::Diverged`]; commands without a checksum are
    /// accepted as they replay.
    ///
    /// # Errors
    /// A document that is not the game's, the rules refuse the setup, a
    /// stored command is rejected on replay, or [`SessionError::Diverged`].
    pub fn restore_checked(
        stored: StoredGame<'_>,
        now: Millis,
        config: SessionConfig,
    ) -> Result<Self, SessionError> {
        let mut s = Session::new(
            stored.code.to_string(),
            stored.options.clone(),
            stored.seed,
            config,
        )?;
        s.seats.clone_from(&stored.lobby.seats);
        s.host = stored.lobby.host;
        s.stored_lobby = s.lobby_document();
        for slot in &mut s.seats {
            if slot.controller == Controller::Human {
                slot.left_at = Some(now);
            }
        }
        let Some(setup) = stored.setup else {
            return Ok(s);
        };
        let setup: G::Setup = parse(setup, "setup")?;
        let mut dice = SeededDice::new(stored.seed);
        let (mut game, mut log) =
            G::start(&setup, &mut dice).map_err(|e| SessionError::Setup(e.to_string()))?;
        let checksums = stored.checksums;
        // Commands confirmed identical so far (checked replays).
        let mut verified = 0;
        for (i, (seat, command)) in stored.commands.iter().enumerate() {
            let command: G::Command = parse(command, "command")?;
            let events = match game.apply(Seat(*seat), command, &mut dice) {
                Ok(events) => events,
                Err(reason) if checksums.is_some() => {
                    return Err(SessionError::Diverged {
                        index: i,
                        verified,
                        why: format!("the command is refused: {reason}"),
                    })
                }
                Err(reason) => {
                    return Err(SessionError::Replay {
                        index: i,
                        reason: reason.to_string(),
                    })
                }
            };
            log.extend(events);
            let stored = checksums.and_then(|c| c.get(i)).and_then(Option::as_ref);
            if let Some(stored) = stored {
                if *stored != game.checksum() {
                    return Err(SessionError::Diverged {
                        index: i,
                        verified,
                        why: "the state after it differs from the stored checksum".into(),
                    });
                }
                verified = i + 1;
            }
        }
        let finished = game.is_finished();
        let mut play = Play::new(game, dice, log, (&s.plan, s.seed, s.bots), now);
        play.commands = stored.commands.len() as u64;
        play.finish_reported = finished;
        s.play = Some(play);
        Ok(s)
    }

    /// Seats are played automatically by the bots `maker` makes (the
    /// game's bots that live beside its rules, not in them). A started
    /// game's bots are made again: bots are made from the game, the seat
    /// and the seed alone.
    #[must_use]
    pub fn with_bots(mut self, maker: BotMaker<G>) -> Self {
        self.bots = maker;
        if let Some(play) = &mut self.play {
            play.bots = seat_bots(&play.game, &self.plan, self.seed, maker);
        }
        self
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
    pub fn game(&self) -> Option<&G> {
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

    /// The seats the game waits for now (none before the start and after
    /// the end).
    pub fn to_act(&self) -> Vec<u8> {
        self.play
            .as_ref()
            .filter(|p| !p.game.is_finished())
            .map(|p| p.waiting.0.iter().map(|s| s.0).collect())
            .unwrap_or_default()
    }

    /// Spectators watching now.
    pub fn spectators(&self) -> u32 {
        self.conns
            .values()
            .filter(|c| c.role == Role::Spectator)
            .count() as u32
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
        let limit = self.options.turn_seconds.map(|l| u64::from(l) * 1000);
        let turn = play
            .waiting
            .0
            .iter()
            .filter_map(|seat| {
                if self.automatic(*seat) {
                    Some(play.next_bot_at)
                } else {
                    limit.map(|l| play.waiting.1.saturating_add(l))
                }
            })
            .min();
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
                checksum: play.game.checksum(),
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
            kind: G::ID.to_string(),
            options: self.options.clone(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| LobbySeat {
                    seat: i as u8,
                    choice: s.choice.clone(),
                    name: s.name.clone(),
                    controller: s.controller,
                    ready: s.ready,
                    connected: s.conn.is_some(),
                    bot_playing: s.bot_playing,
                })
                .collect(),
            spectators: self.spectators(),
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

    fn welcome(seat: Option<u8>, token: Option<String>) -> ServerMsg {
        ServerMsg::Welcome {
            protocol: PROTOCOL_VERSION,
            kind: G::ID.to_string(),
            seat,
            token,
        }
    }

    /// Every seat's choice, parsed as the game's (a choice that is not
    /// the game's counts as none).
    fn choices(&self) -> Vec<Option<G::Choice>> {
        self.seats
            .iter()
            .map(|s| s.choice.as_ref().and_then(|c| c.parse().ok()))
            .collect()
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
                // A seat belongs to its account, not only to the browser
                // that holds its token: the account's player takes its seat
                // back from any device (the seat's token is this one's now).
                let own = account.as_ref().and_then(|a| {
                    self.seats
                        .iter()
                        .position(|s| s.account.as_ref() == Some(a))
                });
                if let Some(i) = own {
                    self.seats[i].token_hash = Some(token_hash(&fresh_token));
                    self.rejoin(i, conn, fresh_token, last_seq, now, out);
                    return;
                }
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
                Self::send(out, conn, Self::welcome(Some(i), Some(fresh_token)));
                self.broadcast_lobby(out);
                self.send_chat(conn, out);
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
                self.rejoin(i, conn, token, last_seq, now, out);
            }
            Join::Spectator { name } => {
                self.conns.insert(
                    conn,
                    Conn {
                        role: Role::Spectator,
                        name: clean_name(&name, DEFAULT_SPECTATOR_NAME),
                    },
                );
                Self::send(out, conn, Self::welcome(None, None));
                self.broadcast_lobby(out);
                self.catch_up(conn, last_seq, out);
                self.send_chat(conn, out);
            }
        }
    }

    /// Seat `i`'s player is back on connection `conn` (with its token,
    /// or by its account): a connection it had is replaced, a bot standing
    /// in steps back, and it catches up from `last_seq`.
    fn rejoin(
        &mut self,
        i: usize,
        conn: ConnId,
        token: String,
        last_seq: Option<u64>,
        now: Millis,
        out: &mut Vec<Output>,
    ) {
        if self.paused() {
            self.resume_play(now);
        }
        let Some(slot) = self.seats.get_mut(i) else {
            return;
        };
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
        Self::send(out, conn, Self::welcome(Some(i), Some(token)));
        self.broadcast_lobby(out);
        self.catch_up(conn, last_seq, out);
        self.send_chat(conn, out);
    }

    /// The kept chat lines, to a connection that just joined.
    fn send_chat(&self, conn: ConnId, out: &mut Vec<Output>) {
        for line in &self.chat {
            Self::send(out, conn, line.clone());
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
                let events = &play.log[seen as usize..];
                Self::send(
                    out,
                    conn,
                    ServerMsg::Events {
                        static_data: G::static_changed(events).then(|| play.static_data.clone()),
                        events: seq_events::<G>(events, seen + 1, viewer),
                        view: Some(Json::of(&view)),
                        view_patch: None,
                        legal: legal_for(&play.game, c.role),
                        outcome: outcome_of(&play.game),
                    },
                );
            }
            None => Self::send(out, conn, snapshot(play, c.role, &view)),
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
            ClientMsg::Rematch { code } => {
                // A seated player of a finished game only; the code is
                // passed on as a table code looks (the table itself is
                // the clients' to join, and may not exist).
                let finished = self.play.as_ref().is_some_and(|p| p.game.is_finished());
                let code = crate::codes::normalize(&code);
                let Some(seat) = my_seat.filter(|_| finished) else {
                    return Self::error(
                        out,
                        conn,
                        ErrorCode::LobbyRefused,
                        "a rematch is offered by a player once the game has ended",
                    );
                };
                if !crate::codes::is_code(&code) {
                    return Self::error(out, conn, ErrorCode::Malformed, "not a table code");
                }
                out.push(Output::Send {
                    to: self.conns.keys().copied().collect(),
                    msg: ServerMsg::Rematch {
                        code,
                        from: c.name.clone(),
                        seat,
                    },
                });
            }
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
                    let line = ServerMsg::Chat {
                        from: c.name.clone(),
                        role,
                        seat: my_seat,
                        text,
                    };
                    if self.chat.len() == CHAT_KEPT {
                        self.chat.pop_front();
                    }
                    self.chat.push_back(line.clone());
                    out.push(Output::Send {
                        to: self.conns.keys().copied().collect(),
                        msg: line,
                    });
                }
            }
            ClientMsg::Choose { choice } => {
                let Some(i) = my_seat.filter(|_| !started) else {
                    return self.refuse(out, conn, my_seat, started);
                };
                let typed: G::Choice = match choice.parse() {
                    Ok(typed) => typed,
                    Err(e) => {
                        return Self::error(
                            out,
                            conn,
                            ErrorCode::Malformed,
                            &format!("not a {} choice: {e}", G::NAME),
                        )
                    }
                };
                let others = self.choices();
                if let Err(why) = G::check_choice(&self.game_options, Seat(i), &typed, &others) {
                    return Self::error(out, conn, ErrorCode::LobbyRefused, &why.to_string());
                }
                self.seats[usize::from(i)].choice = Some(Json::of(&typed));
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
                let others = self.choices();
                let bot_choice = G::bot_choice(&self.game_options, Seat(seat), &others);
                let Some(slot) = self.seats.get_mut(usize::from(seat)) else {
                    return Self::error(out, conn, ErrorCode::LobbyRefused, "no such seat");
                };
                match (bot, slot.controller) {
                    (true, Controller::Open) => {
                        slot.controller = Controller::Bot;
                        slot.choice = bot_choice.map(|c| Json::of(&c));
                        slot.name = Some(format!("Bot {}", seat + 1));
                        slot.ready = true;
                    }
                    (false, Controller::Bot) => {
                        slot.controller = Controller::Open;
                        slot.choice = None;
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
                let typed: G::Command = match command.parse() {
                    Ok(typed) => typed,
                    Err(e) => {
                        return Self::error(
                            out,
                            conn,
                            ErrorCode::Malformed,
                            &format!("not a {} command: {e}", G::NAME),
                        )
                    }
                };
                match play.game.apply(Seat(seat), typed, &mut play.dice) {
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
                        let message = reason.to_string();
                        let reason = Json::of(&reason);
                        out.push(Output::Refused {
                            reason: reason_id(&reason),
                        });
                        Self::send(
                            out,
                            conn,
                            ServerMsg::Rejected {
                                client_ref,
                                reason,
                                message,
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

    /// Build the game's setup from the lobby and start.
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
        let setup =
            G::setup(&self.game_options, &self.choices(), self.seed).map_err(|e| e.to_string())?;
        // Seats that left their choice open show what the setup gave them.
        for (slot, settled) in self.seats.iter_mut().zip(G::settled_choices(&setup)) {
            if let Some(choice) = settled {
                slot.choice = Some(Json::of(&choice));
            }
        }
        self.launch(&setup, now, out).map_err(|e| e.to_string())
    }

    /// Start the game from its setup: tell the shell to persist it, then
    /// send everyone connected a snapshot.
    fn launch(
        &mut self,
        setup: &G::Setup,
        now: Millis,
        out: &mut Vec<Output>,
    ) -> Result<(), SessionError> {
        let mut dice = SeededDice::new(self.seed);
        let (game, events) =
            G::start(setup, &mut dice).map_err(|e| SessionError::Setup(e.to_string()))?;
        self.stored_lobby = self.lobby_document();
        out.push(Output::Started {
            setup: Json::of(setup),
            lobby: self.stored_lobby.clone(),
        });
        self.play = Some(Play::new(
            game,
            dice,
            events,
            (&self.plan, self.seed, self.bots),
            now,
        ));
        self.broadcast_lobby(out);
        let groups = self.conns_by_role();
        if let Some(play) = &mut self.play {
            for (role, to) in groups {
                let view = play.game.view(Self::viewer(role));
                let msg = snapshot(play, role, &view);
                play.views.insert(role, view);
                out.push(Output::Send { to, msg });
            }
        }
        Ok(())
    }

    /// Append events to the log and send each viewer its filtered copy.
    fn publish(&mut self, events: Vec<G::Event>, now: Millis, out: &mut Vec<Output>) {
        let groups = self.conns_by_role();
        let Some(play) = &mut self.play else {
            return;
        };
        let first = play.log.len() as u64 + 1;
        let static_changed = G::static_changed(&events);
        if static_changed {
            play.static_data = Json::of(&play.game.static_data());
        }
        play.log.extend(events);
        if play.game.is_finished() && !play.finish_reported {
            play.finish_reported = true;
            let rated = self
                .options
                .rated
                .then(|| outcome_of(&play.game))
                .flatten()
                .map(|outcome| RatedGame {
                    kind: G::ID.to_string(),
                    seats: rated_seats::<G>(&outcome, &self.seats, &self.game_options),
                });
            out.push(Output::Finished {
                result: Json::of(&play.game.summary()),
                rated,
            });
        }
        let to_act = play.game.to_act();
        if to_act != play.waiting.0 {
            play.waiting = (to_act, now);
        }
        let outcome = outcome_of(&play.game);
        // Views are kept only for the kinds of viewer still connected.
        play.views
            .retain(|role, _| groups.iter().any(|(r, _)| r == role));
        for (role, to) in groups {
            let viewer = Self::viewer(role);
            let events = seq_events::<G>(&play.log[(first - 1) as usize..], first, viewer);
            // A patch against the view this kind of viewer was last sent,
            // made from its own (redacted) views only; the whole view when
            // the server holds none for it.
            let new = play.game.view(viewer);
            let (view, view_patch) = match play.views.get(&role) {
                Some(old) => (None, Some(G::view_patch(old, &new))),
                None => (Some(Json::of(&new)), None),
            };
            play.views.insert(role, new);
            out.push(Output::Send {
                to,
                msg: ServerMsg::Events {
                    static_data: static_changed.then(|| play.static_data.clone()),
                    events,
                    view,
                    view_patch,
                    legal: legal_for(&play.game, role),
                    outcome: outcome.clone(),
                },
            });
        }
    }

    /// Is this seat played automatically now? An automaton's seat always
    /// is; a player's when a bot holds it or stands in for a leaver.
    fn automatic(&self, seat: Seat) -> bool {
        match self.seats.get(usize::from(seat.0)) {
            None => true,
            Some(s) => s.controller == Controller::Bot || s.bot_playing,
        }
    }

    /// Is the game paused? A started game with no seat's player connected
    /// waits for one: no bot plays (not a leaver's seat, a bot seat or an
    /// automaton), no grace period runs out and no turn timer expires.
    /// Otherwise a game everyone left — or every game after a restart —
    /// would be played out by bots overnight. Spectators do not count.
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

    /// The seat to answer for now, if any: the first seat that may act
    /// and is played automatically (once its pause is over), or whose
    /// player's turn time ran out. `true` with a timed-out seat.
    fn due(&self, play: &Play<G>, now: Millis) -> Option<(Seat, bool)> {
        let limit = self.options.turn_seconds.map(|l| u64::from(l) * 1000);
        let timed_out = limit.is_some_and(|l| now.saturating_sub(play.waiting.1) >= l);
        play.waiting.0.iter().find_map(|seat| {
            if self.automatic(*seat) {
                (now >= play.next_bot_at).then_some((*seat, false))
            } else {
                timed_out.then_some((*seat, true))
            }
        })
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
            let Some((seat, timed_out)) = self.due(play, now) else {
                return;
            };
            let delay = self.config.bot_delay_ms;
            let Some(play) = &mut self.play else {
                return;
            };
            let choice = if timed_out {
                play.game.timeout_command(seat)
            } else {
                play.bots
                    .get_mut(usize::from(seat.0))
                    .and_then(|b| b.choose(&Seen::of(&play.game, seat)))
            };
            if timed_out && choice.is_some() {
                let seq = play.log.len() as u64;
                announce_timeout(&self.conns, seat.0, seq, out);
            }
            let Some(command) = choice else {
                return;
            };
            let json = Json::of(&command);
            let paced = G::paced(&command);
            match play.game.apply(seat, command, &mut play.dice) {
                Ok(events) => {
                    // A step that is part of the bot's next decision (an
                    // AI revealing its card) is not a move to watch: no
                    // pause after it.
                    if paced {
                        play.next_bot_at = now + delay;
                    }
                    let index = play.commands;
                    play.commands += 1;
                    out.push(Output::Applied {
                        seat: seat.0,
                        command: json,
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

/// `events` as `viewer` sees them, numbered from `first`.
fn seq_events<G: Game>(events: &[G::Event], first: u64, viewer: Viewer) -> Vec<SeqEvent> {
    events
        .iter()
        .enumerate()
        .map(|(k, e)| SeqEvent {
            seq: first + k as u64,
            event: Json::of(&G::redact(e, viewer)),
        })
        .collect()
}

fn legal_for<G: Game>(game: &G, role: Role) -> Json {
    match role {
        Role::Seat(s) => Json::of(&game.legal(Seat(s))),
        Role::Spectator => Json::of(&[(); 0]),
    }
}

/// A snapshot for `role`, with its `view` now.
fn snapshot<G: Game>(play: &Play<G>, role: Role, view: &G::View) -> ServerMsg {
    ServerMsg::Snapshot {
        seq: play.log.len() as u64,
        view: Json::of(view),
        static_data: play.static_data.clone(),
        legal: legal_for(&play.game, role),
        outcome: outcome_of(&play.game),
    }
}

/// A finished rated game, as ratings read it (`crate::ratings`).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// The game (catalogue id): ratings are per game.
    pub kind: String,
    /// Every seat, automata included, in seat order.
    pub seats: Vec<RatedSeat>,
}

/// One seat of a finished rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedSeat {
    /// The seat.
    pub seat: u8,
    /// Its side (`citadel_game::Placing::team`).
    pub team: Option<u8>,
    /// Its place.
    pub place: u8,
    /// Who is rated for it: `account:<id>`, `bot:<name>`, or `None` for a
    /// guest (played against, never recorded).
    pub player: Option<String>,
    /// The name shown.
    pub name: String,
}

/// The seats of a finished rated game: a player's seat is its account's
/// (a guest's is no one's), a bot's or an automaton's the bot's name.
fn rated_seats<G: Game>(
    outcome: &citadel_game::Outcome,
    seats: &[SeatSlot],
    options: &G::Options,
) -> Vec<RatedSeat> {
    outcome
        .placings
        .iter()
        .map(|p| {
            let slot = seats.get(usize::from(p.seat.0));
            let bot = |automaton| {
                let name = G::bot_rating_name(options, p.seat, automaton);
                let key = name.to_lowercase().replace(char::is_whitespace, "-");
                (Some(format!("bot:{key}")), name)
            };
            let (player, name) = match slot {
                None => bot(true),
                Some(s) if s.controller == Controller::Bot => bot(false),
                Some(s) => (
                    s.account.as_ref().map(|a| format!("account:{a}")),
                    s.name.clone().unwrap_or_else(|| "Guest".into()),
                ),
            };
            RatedSeat {
                seat: p.seat.0,
                team: p.team,
                place: p.place,
                player,
                name,
            }
        })
        .collect()
}

/// The places of a finished game; `None` while it goes on.
fn outcome_of<G: Game>(game: &G) -> Option<citadel_game::Outcome> {
    if game.is_finished() {
        game.outcome()
    } else {
        None
    }
}

/// A rejection's id for the metrics: its JSON string (Siege's rejections
/// are snake_case strings), or the tag of a tagged one.
fn reason_id(reason: &Json) -> String {
    match reason.value() {
        Value::String(s) => s,
        Value::Object(o) => o
            .get("type")
            .or_else(|| o.get("reason"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| o.keys().next().cloned())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// One bot per seat of the game (players' and automata's), the game's
/// own. They are made from the seed alone, so a restored game's bots are
/// the ones a game that never stopped would have made.
fn seat_bots<G: Game>(
    game: &G,
    plan: &SeatPlan,
    seed: u64,
    maker: BotMaker<G>,
) -> Vec<Box<dyn Bot<G>>> {
    plan.seats().map(|seat| maker(game, seat, seed)).collect()
}
