//! # citadel-protocol
//!
//! The messages a browser (or bot, or load tool) and the server exchange
//! over the WebSocket at `/ws`, as JSON text frames. Every message is a
//! tagged object: `{"type": "hello", ...}`.
//!
//! A client first sends [`ClientMsg::Hello`] with [`PROTOCOL_VERSION`]; a
//! mismatch closes the socket with [`close::PROTOCOL_MISMATCH`]. Game
//! events carry a per-game sequence number `seq`, contiguous for every
//! viewer (secrets are redacted, never skipped), so a client that
//! reconnects sends the last `seq` it saw and receives exactly the gap.
//!
//! This is the envelope only: it knows no game. A game's own payloads (a
//! seat's lobby choice, a command, an event, a view, a rejection, what a
//! client draws once) ride inside it as [`Json`], each game's serde types;
//! `welcome` and the lobby name the game's kind, so a client knows how to
//! read them. `docs/PROTOCOL.md` shows every message with an example, and
//! each game's payloads separately.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

mod json;
mod typescript;
pub mod view_patch;

pub use json::Json;
pub use typescript::{check_generated, javascript, typescript, Declarations};

/// The protocol version. Bump on any incompatible change.
///
/// 2: `events` carries `view_patch` (a patch against the viewer's last
/// view) instead of the whole `view`, except when it catches a client up.
///
/// 3: the game seam. `welcome` and `lobby` name the game's `kind`; a seat's
/// lobby choice is one `choose` message with the game's own choice
/// (protocol 2's `take_seat` and `choose_team` are gone); a lobby seat
/// shows its `choice`; `snapshot` and `events` carry the game's
/// `static_data` (protocol 2's `map`).
pub const PROTOCOL_VERSION: u32 = 3;

/// WebSocket close codes (4000–4999 are the application's range).
pub mod close {
    macro_rules! close_codes {
        ($($(#[doc = $doc:literal])+ $name:ident = $code:literal,)+) => {
            $($(#[doc = $doc])+ pub const $name: u16 = $code;)+

            /// Every close code: `(name, code, meaning)`, in declaration order.
            pub const ALL: &[(&str, u16, &str)] = &[
                $((stringify!($name), $code, concat!($($doc),+)),)+
            ];
        };
    }

    close_codes! {
        /// The client speaks another protocol version.
        PROTOCOL_MISMATCH = 4001,
        /// The first message was not `hello`, or `hello` came twice.
        HELLO_REQUIRED = 4002,
        /// No game with that code.
        UNKNOWN_GAME = 4003,
        /// The resume token matches no seat.
        BAD_TOKEN = 4004,
        /// Too many messages too fast.
        RATE_LIMITED = 4008,
        /// A frame over the size limit.
        FRAME_TOO_LARGE = 4009,
        /// The game has no free seat.
        GAME_FULL = 4005,
        /// The `account` session token in `hello` is unknown or expired.
        BAD_SESSION = 4006,
        /// The client could not keep up with the game's messages.
        TOO_SLOW = 4010,
        /// The same seat connected again elsewhere.
        REPLACED = 4011,
        /// The game was made by an older version of the rules and cannot continue; it is closed and its replay kept.
        OUTDATED = 4012,
        /// The server holds as many games as it may, and this stored game cannot be loaded now; try again later.
        SERVER_FULL = 4013,
        /// The server is shutting down.
        SHUTDOWN = 1001,
        /// The server could not save the game; nothing unsaved was sent.
        STORAGE_FAILURE = 1011,
    }
}

/// How a connection wants to take part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "as", rename_all = "snake_case")]
pub enum Join {
    /// A new player with a display name (a guest).
    Player {
        /// Display name.
        name: String,
    },
    /// A returning player: the secret token from `welcome`.
    Resume {
        /// The seat token.
        token: String,
    },
    /// A spectator.
    Spectator {
        /// Display name.
        name: String,
    },
}

/// Who controls a seat in the lobby.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Controller {
    /// Nobody yet.
    Open,
    /// A person.
    Human,
    /// A bot (the heuristic bot for its side).
    Bot,
}

/// Messages from a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// The first message on a socket.
    Hello {
        /// Must equal [`PROTOCOL_VERSION`].
        protocol: u32,
        /// The game's join code.
        game: String,
        /// How to join.
        join: Join,
        /// The last event `seq` this client saw (reconnects).
        #[serde(default)]
        #[ts(optional = nullable)]
        last_seq: Option<u64>,
        /// A login session token from `POST /api/login`: a player who
        /// joins with it is linked to the account ("my games"). Left out
        /// (or `null`) to play as a guest.
        #[serde(default)]
        #[ts(optional = nullable)]
        account: Option<String>,
    },
    /// Lobby: make (or change) your seat's choice: the game's own (a
    /// side, an army, a deck; each game's doc says its shape). The whole
    /// choice each time: it replaces the one before.
    Choose {
        /// The choice, as the game's JSON.
        #[ts(type = "unknown")]
        choice: Json,
    },
    /// Lobby (host): put a bot on an open seat, or remove it.
    SetBot {
        /// Seat index.
        seat: u8,
        /// True to add, false to remove.
        bot: bool,
    },
    /// Lobby: ready or not.
    Ready {
        /// Ready.
        ready: bool,
    },
    /// Lobby (host): start the game.
    Start,
    /// A game command for your seat.
    Command {
        /// Echoed in `ack`/`rejected`: an integer from 0 to
        /// [`MAX_CLIENT_REF`] (2^53 − 1, the largest integer a JavaScript
        /// number holds exactly); a larger one makes the message malformed.
        #[serde(default, deserialize_with = "client_ref")]
        #[ts(optional = nullable)]
        client_ref: Option<u64>,
        /// The command, as the game's JSON.
        #[ts(type = "unknown")]
        command: Json,
    },
    /// Chat.
    Chat {
        /// Text. The server removes control characters and direction
        /// overrides, trims it and cuts it to 500 characters.
        text: String,
    },
    /// Ask for a fresh snapshot.
    Resync,
    /// Keep-alive.
    Ping,
    /// Offer the other players of this finished game a rematch at the
    /// table `code` (made by the sender with `POST /api/games`, the same
    /// options): the server tells everyone in the game.
    Rematch {
        /// The new table's code.
        code: String,
    },
}

/// The largest `client_ref`: 2^53 − 1, so that a JavaScript client gets
/// back exactly the number it sent.
pub const MAX_CLIENT_REF: u64 = (1 << 53) - 1;

/// `client_ref`: absent, `null`, or an integer up to [`MAX_CLIENT_REF`].
fn client_ref<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let r = Option::<u64>::deserialize(d)?;
    match r {
        Some(n) if n > MAX_CLIENT_REF => Err(serde::de::Error::custom(format!(
            "client_ref {n} is over {MAX_CLIENT_REF} (2^53 - 1)"
        ))),
        _ => Ok(r),
    }
}

/// Who sent a chat line: set by the server from the connection, never by
/// the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChatRole {
    /// A seated player.
    Player,
    /// A spectator.
    Spectator,
}

/// A seat as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LobbySeat {
    /// Seat index.
    pub seat: u8,
    /// The seat's lobby choice, as the game's JSON (a side, an army, a
    /// deck), once made.
    #[ts(type = "unknown")]
    pub choice: Option<Json>,
    /// Player name.
    pub name: Option<String>,
    /// Controller.
    pub controller: Controller,
    /// Ready.
    pub ready: bool,
    /// Connected now.
    pub connected: bool,
    /// A bot plays it for a player who left (shown to everyone).
    pub bot_playing: bool,
}

/// The options of a table: the game's kind and own options (checked by
/// the game), and the platform's turn limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TableOptions {
    /// The game (its catalogue id, `GET /api/catalogue`). Left out when a
    /// table is created: the catalogue's first game. Records made before
    /// games had kinds have none (they are the first game's; the store knows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub kind: Option<String>,
    /// Per-turn time limit in seconds; the game's timeout answer is sent
    /// for a seat when it runs out.
    #[serde(default)]
    pub turn_seconds: Option<u32>,
    /// A rated table: its end moves the players' ratings (docs/RATINGS.md).
    /// Casual (`false`, left out) by default.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub rated: bool,
    /// Listed in the lobby (`GET /api/lobby`): anyone may find it, join
    /// while it waits for players and watch it while it plays. Private
    /// (`false`, left out) by default: only its code finds it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub listed: bool,
    /// The game's own options (its `GET /api/catalogue` specs), as its
    /// JSON object.
    #[serde(flatten)]
    #[ts(skip)]
    pub game: serde_json::Map<String, serde_json::Value>,
}

impl TableOptions {
    /// The game's own options as JSON.
    pub fn game_json(&self) -> serde_json::Value {
        serde_json::Value::Object(self.game.clone())
    }
}

/// The lobby state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LobbyView {
    /// Join code.
    pub code: String,
    /// The game's kind (its catalogue id).
    pub kind: String,
    /// Options (the game's own beside `turn_seconds`).
    pub options: TableOptions,
    /// Seats.
    pub seats: Vec<LobbySeat>,
    /// Spectators watching.
    pub spectators: u32,
    /// Started.
    pub started: bool,
    /// The host's seat.
    pub host: u8,
}

/// One event with its sequence number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct SeqEvent {
    /// Game-wide sequence number, contiguous from 1.
    pub seq: u64,
    /// The event as this viewer may see it, as the game's JSON.
    #[ts(type = "unknown")]
    pub event: Json,
}

/// Errors answered without closing the socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not a known message.
    Malformed,
    /// A spectator tried to act, or a player acted for another seat.
    NotAPlayer,
    /// That lobby action is not possible now.
    LobbyRefused,
    /// Only the host may do that.
    NotHost,
    /// The game has not started.
    NotStarted,
    /// The game is over.
    GameOver,
    /// Something failed on the server; details are in its log.
    Internal,
    /// Saving the game is taking long (the database is slow or down) and
    /// the server is retrying; nothing unsaved was sent. If it cannot
    /// save, the game closes with 1011 (`STORAGE_FAILURE`).
    StorageDelayed,
}

/// Messages from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Answer to `hello`.
    Welcome {
        /// [`PROTOCOL_VERSION`].
        protocol: u32,
        /// The game's kind (its catalogue id): which game's payloads the
        /// messages that follow carry.
        kind: String,
        /// Your seat, if you are a player.
        seat: Option<u8>,
        /// Your secret resume token (players only; keep it).
        token: Option<String>,
    },
    /// The lobby changed.
    Lobby {
        /// The lobby.
        lobby: LobbyView,
    },
    /// The whole game as you may see it, with the board, up to `seq`.
    Snapshot {
        /// The last event included.
        seq: u64,
        /// Your view, as the game's JSON.
        #[ts(type = "unknown")]
        view: Json,
        /// What the game draws once (a board, a card catalogue), as the game's JSON.
        #[ts(type = "unknown")]
        static_data: Json,
        /// What you may send now: a list of the game's commands.
        #[ts(type = "Array<unknown>")]
        legal: Json,
        /// Once the game is over: every seat's place, in terms every game
        /// shares (absent while it goes on).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        outcome: Option<citadel_game::Outcome>,
    },
    /// New events, contiguous, and your view after them: whole (`view`)
    /// when this message catches you up (after `hello` or `resync`),
    /// otherwise as a patch (`view_patch`) against the view of the
    /// message before. Exactly one of the two is present.
    Events {
        /// The events.
        events: Vec<SeqEvent>,
        /// Your whole view after them (a catch-up).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "unknown")]
        view: Option<Json>,
        /// A JSON Patch (RFC 6902: `add`, `remove`, `replace`) that turns
        /// your view as the previous `snapshot` or `events` left it into
        /// your view after these events (docs/PROTOCOL.md, "Views as
        /// patches"; [`view_patch`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, as = "Option<Vec<view_patch::ViewPatchOp>>")]
        view_patch: Option<view_patch::Patch>,
        /// What you may send now: a list of the game's commands.
        #[ts(type = "Array<unknown>")]
        legal: Json,
        /// What the game draws once, again, when these events changed it
        /// (a board turned or swapped by an event); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "unknown")]
        static_data: Option<Json>,
        /// Once the game is over (these events ended it, or a catch-up
        /// after the end): every seat's place, in terms every game
        /// shares. Absent while it goes on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        outcome: Option<citadel_game::Outcome>,
    },
    /// Your command was accepted.
    Ack {
        /// Your reference.
        client_ref: Option<u64>,
        /// The last event seq once it was applied: when you have seen
        /// `seq`, you have every event it caused (a command that caused
        /// none is acked with the seq you already have).
        seq: u64,
    },
    /// Your command was refused; the game did not change.
    Rejected {
        /// Your reference.
        client_ref: Option<u64>,
        /// Why: the game's typed reason, as its JSON (e.g. a snake_case
        /// string).
        #[ts(type = "unknown")]
        reason: Json,
        /// In words.
        message: String,
    },
    /// A chat line.
    Chat {
        /// The sender's display name (names are not unique: `role` and
        /// `seat` say who really sent it).
        from: String,
        /// Whether a seated player or a spectator sent it.
        role: ChatRole,
        /// The sender's seat; `null` for a spectator.
        seat: Option<u8>,
        /// Text: control characters and direction overrides removed,
        /// trimmed, at most 500 characters, never empty.
        text: String,
    },
    /// A player of this finished game offers a rematch at the table
    /// `code` (the same game and options): join it as a player.
    Rematch {
        /// The new table's code.
        code: String,
        /// Who offers it (the player's seat name).
        from: String,
        /// The offering player's seat in this game.
        seat: u8,
    },
    /// A problem with your message.
    Error {
        /// Which.
        code: ErrorCode,
        /// In words.
        message: String,
    },
    /// Keep-alive answer.
    Pong,
    /// A seat's turn limit ran out: the server answers for it, and the
    /// events that follow (from `seq + 1`) are that answer, not the
    /// player's choice. Sent to everyone, live only (not replayed on a
    /// reconnect).
    TimedOut {
        /// The seat whose time ran out.
        seat: u8,
        /// The last event before the server's answer.
        seq: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ClientMsg, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn client_ref_is_an_integer_up_to_2_pow_53_minus_1() {
        let ok = format!(
            r#"{{"type":"command","client_ref":{MAX_CLIENT_REF},"command":{{"type":"end_turn"}}}}"#
        );
        assert!(matches!(
            parse(&ok),
            Ok(ClientMsg::Command {
                client_ref: Some(MAX_CLIENT_REF),
                ..
            })
        ));
        let over = ok.replace(
            &MAX_CLIENT_REF.to_string(),
            &(MAX_CLIENT_REF + 1).to_string(),
        );
        let e = parse(&over).expect_err("over 2^53 - 1");
        assert!(e.to_string().contains("client_ref"), "{e}");
        for bad in ["-1", "1.5", "\"7\""] {
            let text = ok.replace(&MAX_CLIENT_REF.to_string(), bad);
            assert!(parse(&text).is_err(), "{text}");
        }
        for absent in [
            r#"{"type":"command","command":{"type":"end_turn"}}"#,
            r#"{"type":"command","client_ref":null,"command":{"type":"end_turn"}}"#,
        ] {
            assert!(matches!(
                parse(absent),
                Ok(ClientMsg::Command {
                    client_ref: None,
                    ..
                })
            ));
        }
    }

    #[test]
    fn unknown_fields_are_ignored() {
        assert_eq!(
            parse(r#"{"type":"ping","sent_at":12,"extra":{"a":1}}"#).expect("ping"),
            ClientMsg::Ping
        );
        assert!(matches!(
            parse(r#"{"type":"chat","text":"hi","colour":"red"}"#),
            Ok(ClientMsg::Chat { .. })
        ));
    }
}
