//! What docs/PROTOCOL.md promises, checked against the real server (issue
//! 17, "PROTOCOL.md must say exactly"): a server on 127.0.0.1:0 with
//! `citadel::config_for_tests()`, real WebSocket clients. Each test names the
//! section of the doc it holds to; the doc's "Checklist" lists them. The
//! numbers the doc states are checked against the code's constants at
//! the end.

mod common;
use common::DarkLegionChoice;
use common::{c1m1_options, create_game, within, Ws, STEP};

use citadel_protocol::{
    close, ClientMsg, Controller, ErrorCode, Join, LobbyView, ServerMsg, MAX_CLIENT_REF,
    PROTOCOL_VERSION,
};
use citadel_rules::content::{Corporation, Specialty};
use citadel_rules::game::reaction::Window;
use citadel_rules::game::view::PhaseView;
use citadel_rules::game::{Command, Decision, DieRoll, Event, FigureKind, GameView, Seat};
use citadel_server::config::Config;
use citadel_server::Server;
use futures_util::SinkExt;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const TEST_LIMIT: Duration = Duration::from_secs(120);
/// More commands than any C1M1 game needs with the test policy.
const MAX_COMMANDS: usize = 20_000;

// ------------------------------------------------------------- server

async fn server_with(config: Config) -> Server {
    Server::start(config).await.expect("server starts")
}

async fn server() -> Server {
    server_with(citadel::config_for_tests()).await
}

// ------------------------------------------------------------- client

/// A WebSocket client that keeps what it was told.
#[derive(Debug)]
struct Client {
    label: String,
    ws: Ws,
    seat: Option<u8>,
    token: Option<String>,
    lobby: Option<LobbyView>,
    view: Option<Box<GameView>>,
    legal: Vec<Command>,
    /// Every event seq up to here is known.
    covered: u64,
    /// Every message received, in order.
    log: Vec<ServerMsg>,
    finished: bool,
}

impl Client {
    async fn connect(addr: SocketAddr, label: &str) -> Client {
        let url = format!("ws://{addr}/ws");
        let (ws, _) = tokio::time::timeout(STEP, tokio_tungstenite::connect_async(url))
            .await
            .expect("connect in time")
            .expect("websocket handshake");
        Client {
            label: label.to_string(),
            ws,
            seat: None,
            token: None,
            lobby: None,
            view: None,
            legal: Vec::new(),
            covered: 0,
            log: Vec::new(),
            finished: false,
        }
    }

    /// Connect, say hello and wait for `welcome`.
    async fn join(addr: SocketAddr, code: &str, join: Join, last_seq: Option<u64>) -> Client {
        let label = match &join {
            Join::Player { name } | Join::Spectator { name } => format!("{name:?}"),
            Join::Resume { .. } => "resumed".into(),
        };
        let mut c = Client::connect(addr, &label).await;
        c.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            game: code.into(),
            join,
            last_seq,
            account: None,
        })
        .await;
        c.wait_for("welcome", |m| matches!(m, ServerMsg::Welcome { .. }))
            .await;
        c
    }

    async fn player(addr: SocketAddr, code: &str, name: &str) -> Client {
        let c = Client::join(addr, code, Join::Player { name: name.into() }, None).await;
        assert!(c.seat.is_some(), "{name} got no seat");
        c
    }

    async fn spectator(addr: SocketAddr, code: &str, name: &str) -> Client {
        Client::join(addr, code, Join::Spectator { name: name.into() }, None).await
    }

    async fn send(&mut self, msg: &ClientMsg) {
        common::send_json(&mut self.ws, &self.label, msg).await;
    }

    async fn send_text(&mut self, text: String) {
        common::send_text(&mut self.ws, &self.label, text).await;
    }

    /// The next message, or the close code (`None`: no close frame).
    async fn recv_any(&mut self) -> Result<ServerMsg, Option<u16>> {
        let text = common::next_text(&mut self.ws, &self.label).await?;
        let msg: ServerMsg = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a ServerMsg: {e}: {text}", self.label));
        self.absorb(&msg);
        // The log holds an `events` message with the view the client
        // rebuilt (its patch applied), so that checks see whole views.
        let logged = match msg.clone() {
            ServerMsg::Events {
                events,
                legal,
                static_data,
                outcome,
                ..
            } => ServerMsg::Events {
                events,
                view: self.view.as_ref().map(citadel_protocol::Json::of),
                view_patch: None,
                legal,
                static_data,
                outcome,
            },
            other => other,
        };
        self.log.push(logged);
        Ok(msg)
    }

    async fn recv(&mut self) -> ServerMsg {
        match self.recv_any().await {
            Ok(m) => m,
            Err(code) => panic!("{}: closed with {code:?}", self.label),
        }
    }

    async fn wait_for(&mut self, what: &str, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        for _ in 0..100_000 {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
        panic!("{}: never got {what}", self.label)
    }

    async fn wait_lobby(&mut self, what: &str, pred: impl Fn(&LobbyView) -> bool) -> LobbyView {
        match self
            .wait_for(
                what,
                |m| matches!(m, ServerMsg::Lobby { lobby } if pred(lobby)),
            )
            .await
        {
            ServerMsg::Lobby { lobby } => lobby,
            _ => unreachable!(),
        }
    }

    /// The next `error`; panics on anything else that answers a message.
    async fn expect_error(&mut self, what: &str) -> (ErrorCode, String) {
        match self
            .wait_for(what, |m| {
                matches!(
                    m,
                    ServerMsg::Error { .. }
                        | ServerMsg::Ack { .. }
                        | ServerMsg::Rejected { .. }
                        | ServerMsg::Snapshot { .. }
                )
            })
            .await
        {
            ServerMsg::Error { code, message } => (code, message),
            other => panic!("{}: {what}: expected an error, got {other:?}", self.label),
        }
    }

    /// Read until the server closes; its close code.
    async fn expect_close(&mut self) -> Option<u16> {
        for _ in 0..1_000_000 {
            if let Err(code) = self.recv_any().await {
                return code;
            }
        }
        panic!("{}: the server never closed the socket", self.label)
    }

    fn absorb(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::Welcome { seat, token, .. } => {
                self.seat = *seat;
                self.token.clone_from(token);
            }
            ServerMsg::Lobby { lobby } => self.lobby = Some(lobby.clone()),
            ServerMsg::Snapshot {
                seq, view, legal, ..
            } => {
                self.covered = *seq;
                let view: GameView = view.parse().expect("a view");
                self.finished = matches!(view.phase, PhaseView::Finished { .. });
                self.view = Some(Box::new(view));
                self.legal = legal.parse().expect("legal commands");
            }
            ServerMsg::Events {
                events,
                view,
                view_patch,
                legal,
                ..
            } => {
                for e in events {
                    assert_eq!(e.seq, self.covered + 1, "{}: a gap in seqs", self.label);
                    self.covered = e.seq;
                    if matches!(e.event.parse::<Event>(), Ok(Event::MissionEnded { .. })) {
                        self.finished = true;
                    }
                }
                let next = citadel_protocol::view_patch::next_view(
                    self.view.as_deref(),
                    view.as_ref()
                        .map(|v| v.parse::<GameView>().expect("a view"))
                        .as_ref(),
                    view_patch.as_ref(),
                )
                .unwrap_or_else(|e| panic!("{}: {e}", self.label));
                self.view = Some(Box::new(next));
                self.legal = legal.parse().expect("legal commands");
            }
            _ => {}
        }
    }

    fn view(&self) -> &GameView {
        self.view.as_deref().expect("a view")
    }
}

/// Join `names` as players (seat order); nobody readies.
async fn lobby_of(addr: SocketAddr, code: &str, names: &[&str]) -> Vec<Client> {
    let mut players = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let p = Client::player(addr, code, name).await;
        assert_eq!(p.seat, Some(i as u8));
        players.push(p);
    }
    players
}

async fn ready(p: &mut Client) {
    let seat = usize::from(p.seat.expect("a seat"));
    p.send(&ClientMsg::Ready { ready: true }).await;
    p.wait_lobby("ready", |l| l.seats[seat].ready).await;
}

async fn start(host: &mut Client) {
    host.send(&ClientMsg::Start).await;
    host.wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
        .await;
}

/// A started 1-seat game against the AI Dark Legion.
async fn solo(addr: SocketAddr) -> (String, Client) {
    let code = create_game(addr, &c1m1_options(1, DarkLegionChoice::Ai)).await;
    let mut p = Client::player(addr, &code, "Solo").await;
    ready(&mut p).await;
    start(&mut p).await;
    (code, p)
}

// ---------------------------------------------------- playing a game

/// A seeded random player from its own legal list: up to four actions a
/// turn, then the end of the turn; every other decision at random.
struct Policy {
    rng: StdRng,
    actions: u32,
}

impl Policy {
    fn new(seed: u64) -> Self {
        Policy {
            rng: StdRng::seed_from_u64(seed),
            actions: 0,
        }
    }

    fn choose(&mut self, legal: &[Command]) -> Command {
        assert!(!legal.is_empty(), "nothing to choose from");
        // Play a reaction card whenever one fits, so the windows' answers
        // are seen with cards too.
        if let Some(c) = legal
            .iter()
            .find(|c| matches!(c, Command::React { card: Some(_) }))
        {
            return c.clone();
        }
        if legal.contains(&Command::EndTurn) {
            let others: Vec<&Command> = legal.iter().filter(|c| **c != Command::EndTurn).collect();
            if self.actions < 4 && !others.is_empty() && self.rng.gen_bool(0.7) {
                self.actions += 1;
                return others[self.rng.gen_range(0..others.len())].clone();
            }
            self.actions = 0;
            return Command::EndTurn;
        }
        legal[self.rng.gen_range(0..legal.len())].clone()
    }
}

/// A reaction window as the player saw it open.
#[derive(Clone, Debug)]
struct Opened {
    window: Window,
    dice: Vec<DieRoll>,
}

/// Checks "Reaction windows" on every `events` message one player gets.
#[derive(Debug, Default)]
struct ReactionCheck {
    /// The window open now, waiting for this player's answer.
    waiting: Option<Opened>,
    /// Windows answered whose command has not yet finished, in order,
    /// with whether a card was played.
    answered: Vec<(Opened, bool)>,
    /// Windows seen open.
    opened: usize,
    /// Windows answered with a card, then resolved.
    cards_played: usize,
    /// Attack windows whose roll was found after the answer.
    rolls_found: usize,
}

impl ReactionCheck {
    fn on_events(&mut self, me: Seat, events: &[Event], view: &GameView, legal: &[Command]) {
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::DecisionRequested { .. })),
            "the server sent decision_requested: {events:?}"
        );
        if let Some(k) = events
            .iter()
            .position(|e| matches!(e, Event::ReactionOffered { .. }))
        {
            // The command that opened the window sends nothing else: the
            // roll and whatever came before it in the command wait.
            assert_eq!(events.len(), 1, "reaction_offered alone: {events:?}");
            let Event::ReactionOffered { team } = events[k] else {
                unreachable!()
            };
            let Some(Decision::Reaction {
                team: pending_team,
                window,
                dice,
                ..
            }) = view.pending.clone()
            else {
                panic!(
                    "reaction_offered without a pending reaction: {:?}",
                    view.pending
                )
            };
            assert_eq!(pending_team, team);
            let owner = view.teams[usize::from(team)].seat;
            assert_eq!(view.to_act, Some(owner), "to_act is the card's owner");
            if owner == me {
                assert!(legal.contains(&Command::React { card: None }), "{legal:?}");
                assert!(
                    legal.iter().all(|c| matches!(c, Command::React { .. })),
                    "{legal:?}"
                );
                self.opened += 1;
                self.waiting = Some(Opened { window, dice });
            }
            return;
        }
        if self.answered.is_empty() {
            return;
        }
        // The answered command ran again from its start: its events, the
        // card (if played) before the roll it changes, the roll holding
        // the dice that opened the window.
        let mut from = 0;
        for (opened, played) in std::mem::take(&mut self.answered) {
            let card_at = events[from..]
                .iter()
                .position(|e| matches!(e, Event::CardPlayed { seat, .. } if *seat == me))
                .map(|i| i + from);
            if played {
                assert!(
                    card_at.is_some(),
                    "no card_played after {opened:?}: {events:?}"
                );
                self.cards_played += 1;
            }
            if matches!(opened.window, Window::Lethal) {
                continue;
            }
            let roll_at = events[from..]
                .iter()
                .position(|e| match e {
                    Event::AttackRolled { dice, .. } | Event::AreaAttackRolled { dice, .. } => {
                        is_subsequence(&opened.dice, dice)
                    }
                    _ => false,
                })
                .map(|i| i + from)
                .unwrap_or_else(|| panic!("no roll with {:?} in {events:?}", opened.dice));
            if played {
                let card_at = card_at.unwrap_or(usize::MAX);
                assert!(card_at < roll_at, "the card after its roll: {events:?}");
            }
            self.rolls_found += 1;
            from = roll_at + 1;
        }
    }

    fn on_command(&mut self, command: &Command) {
        if let Command::React { card } = command {
            let opened = self.waiting.take().expect("a react without a window");
            self.answered.push((opened, card.is_some()));
        }
    }
}

fn is_subsequence(part: &[DieRoll], whole: &[DieRoll]) -> bool {
    let mut it = whole.iter();
    part.iter().all(|d| it.any(|w| w == d))
}

/// Play `p`'s seat to the end of the mission from its own legal lists,
/// checking every reaction window on the way.
async fn play_to_the_end(p: &mut Client, seed: u64) -> ReactionCheck {
    let me = Seat(p.seat.expect("a seat"));
    let mut policy = Policy::new(seed);
    let mut check = ReactionCheck::default();
    let mut client_ref = 0;
    let mut checked = p.log.len();
    while !p.finished {
        if p.legal.is_empty() {
            p.recv().await;
        } else {
            assert!(
                (client_ref as usize) < MAX_COMMANDS,
                "the game does not end"
            );
            client_ref += 1;
            let command = policy.choose(&p.legal);
            check.on_command(&command);
            p.send(&ClientMsg::Command {
                client_ref: Some(client_ref),
                command: citadel_protocol::Json::of(&command),
            })
            .await;
            let answer = p
                .wait_for("ack", |m| {
                    matches!(
                        m,
                        ServerMsg::Ack { .. }
                            | ServerMsg::Rejected { .. }
                            | ServerMsg::Error { .. }
                    )
                })
                .await;
            let ServerMsg::Ack { client_ref: r, seq } = answer else {
                panic!("{command:?} from the legal list: {answer:?}")
            };
            assert_eq!(r, Some(client_ref));
            while p.covered < seq {
                p.recv().await;
            }
        }
        for m in &p.log[checked..] {
            if let ServerMsg::Events {
                events,
                view: Some(view),
                legal,
                ..
            } = m
            {
                let events: Vec<Event> = events
                    .iter()
                    .map(|e| e.event.parse().expect("an event"))
                    .collect();
                let view: GameView = view.parse().expect("a view");
                let legal: Vec<Command> = legal.parse().expect("legal commands");
                check.on_events(me, &events, &view, &legal);
            }
        }
        checked = p.log.len();
    }
    check
}

// ------------------------------------------------------------ tests

/// Connecting, step 3: a socket that says nothing is closed with `4002`
/// (`HELLO_REQUIRED`) once the hello timeout has passed (1 s here; 10 s
/// by default), and is sent nothing before.
#[tokio::test]
async fn a_socket_that_never_says_hello_is_closed_with_hello_required() {
    within(TEST_LIMIT, async {
        let mut config = citadel::config_for_tests();
        config.hello_timeout_secs = 1;
        let server = server_with(config).await;
        let mut c = Client::connect(server.addr(), "silent").await;
        assert_eq!(c.recv_any().await.err(), Some(Some(close::HELLO_REQUIRED)));
        assert!(c.log.is_empty());
        // Any first frame but a text hello closes the same way, a
        // WebSocket ping frame included.
        let mut pinger = Client::connect(server.addr(), "pinger").await;
        pinger
            .ws
            .send(Message::Ping(Vec::new().into()))
            .await
            .expect("send a ping");
        assert_eq!(pinger.expect_close().await, Some(close::HELLO_REQUIRED));
        // A hello in time is answered as usual.
        let code = create_game(server.addr(), &c1m1_options(1, DarkLegionChoice::Ai)).await;
        let p = Client::player(server.addr(), &code, "Prompt").await;
        assert_eq!(p.seat, Some(0));
        server.shutdown().await;
    })
    .await;
}

/// Limits on a connection, size: the limit is on the bytes of the text,
/// not its characters; a message of exactly the limit is read, one byte
/// more closes with `4009`.
#[tokio::test]
async fn the_size_limit_counts_bytes_and_allows_exactly_the_limit() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let max = citadel::config_for_tests().max_frame_bytes;
        let code = create_game(addr, &c1m1_options(2, DarkLegionChoice::Drawn)).await;
        let mut a = Client::spectator(addr, &code, "a").await;
        // Exactly `max` bytes.
        let shell = r#"{"type":"chat","text":""}"#.len();
        let exact = format!(r#"{{"type":"chat","text":"{}"}}"#, "x".repeat(max - shell));
        assert_eq!(exact.len(), max);
        a.send_text(exact).await;
        match a
            .wait_for("chat", |m| matches!(m, ServerMsg::Chat { .. }))
            .await
        {
            ServerMsg::Chat { text, .. } => assert_eq!(text.chars().count(), 500),
            _ => unreachable!(),
        }
        // Fewer characters than `max`, more bytes: closed.
        let wide = "é".repeat(max / 2 + 1);
        assert!(wide.chars().count() < max && wide.len() > max);
        let mut b = Client::spectator(addr, &code, "b").await;
        b.send_text(format!(r#"{{"type":"chat","text":"{wide}"}}"#))
            .await;
        assert_eq!(b.expect_close().await, Some(close::FRAME_TOO_LARGE));
        server.shutdown().await;
    })
    .await;
}

/// Limits on a connection, rate: binary and pong frames count like text
/// (each binary frame still gets its `malformed` error until the limit).
#[tokio::test]
async fn binary_and_pong_frames_count_against_the_rate() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let burst = citadel::config_for_tests().rate_burst as usize;
        let code = create_game(addr, &c1m1_options(2, DarkLegionChoice::Drawn)).await;
        let mut c = Client::spectator(addr, &code, "flood").await;
        let mut sent = 0;
        for k in 0..burst * 4 {
            let frame = if k % 2 == 0 {
                Message::binary(vec![1u8])
            } else {
                Message::Pong(Vec::new().into())
            };
            // The server may close mid-flood: later sends may fail.
            if c.ws.send(frame).await.is_err() {
                break;
            }
            sent += 1;
        }
        assert!(sent > burst, "the flood never went out");
        assert_eq!(c.expect_close().await, Some(close::RATE_LIMITED));
        let errors = c
            .log
            .iter()
            .filter(|m| {
                matches!(
                    m,
                    ServerMsg::Error {
                        code: ErrorCode::Malformed,
                        ..
                    }
                )
            })
            .count();
        // Binary frames within the burst were each answered.
        assert!(errors >= 1 && errors <= burst, "{errors} errors");
        server.shutdown().await;
    })
    .await;
}

/// `start`: only the host, only with every seat filled (a player or a
/// bot) and every seated player ready (a bot is ready at once); each
/// refusal is an `error`, and nothing starts.
#[tokio::test]
async fn start_needs_the_host_every_seat_filled_and_every_player_ready() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let code = create_game(addr, &c1m1_options(3, DarkLegionChoice::Drawn)).await;
        let mut host = Client::player(addr, &code, "Host").await;
        host.send(&ClientMsg::Start).await;
        let (e, why) = host.expect_error("start with open seats").await;
        assert_eq!(e, ErrorCode::LobbyRefused, "{why}");
        let mut guest = Client::player(addr, &code, "Guest").await;
        host.send(&ClientMsg::SetBot { seat: 2, bot: true }).await;
        let lobby = host
            .wait_lobby("bot seated", |l| l.seats[2].controller == Controller::Bot)
            .await;
        assert!(lobby.seats[2].ready, "a bot is ready at once");
        // Nobody ready.
        host.send(&ClientMsg::Start).await;
        let (e, why) = host.expect_error("start, nobody ready").await;
        assert_eq!(
            (e, why.as_str()),
            (ErrorCode::LobbyRefused, "every player must be ready")
        );
        // Only the host starts.
        guest.send(&ClientMsg::Start).await;
        assert_eq!(
            guest.expect_error("guest start").await.0,
            ErrorCode::NotHost
        );
        // The host alone ready is not enough.
        ready(&mut host).await;
        host.send(&ClientMsg::Start).await;
        let (e, why) = host.expect_error("start, guest not ready").await;
        assert_eq!(
            (e, why.as_str()),
            (ErrorCode::LobbyRefused, "every player must be ready")
        );
        // Ready, then not ready again, is not ready.
        ready(&mut guest).await;
        guest.send(&ClientMsg::Ready { ready: false }).await;
        host.wait_lobby("guest unready", |l| !l.seats[1].ready)
            .await;
        host.send(&ClientMsg::Start).await;
        assert_eq!(
            host.expect_error("start, unready").await.0,
            ErrorCode::LobbyRefused
        );
        assert!(host.lobby.as_ref().is_some_and(|l| !l.started));
        ready(&mut guest).await;
        host.wait_lobby("all ready", |l| l.seats.iter().all(|s| s.ready))
            .await;
        start(&mut host).await;
        guest
            .wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
        // After the start the lobby is closed.
        host.send(&ClientMsg::Start).await;
        assert_eq!(
            host.expect_error("start again").await.0,
            ErrorCode::LobbyRefused
        );
        guest
            .send(&ClientMsg::Choose {
                choice: citadel_protocol::Json::of(&citadel_rules::seam::SeatChoice {
                    corporation: Some(Corporation::Imperial),
                    doomtroopers: None,
                }),
            })
            .await;
        assert_eq!(
            guest.expect_error("late take_seat").await.0,
            ErrorCode::LobbyRefused
        );
        server.shutdown().await;
    })
    .await;
}

/// A seat's choice (`choose`) is optional: a seat that took no
/// corporation gets the first one free in `bauhaus, capitol, cybertronic,
/// imperial, mishima` order, a team not chosen is the Firearms and Close
/// Combat Specialists (figures in that order). A taken corporation and
/// two of one specialty are refused with `lobby_refused`.
#[tokio::test]
async fn corporation_and_team_are_optional_with_the_documented_defaults() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let code = create_game(addr, &c1m1_options(2, DarkLegionChoice::Ai)).await;
        let mut ps = lobby_of(addr, &code, &["Ann", "Bob"]).await;
        ps[1]
            .send(&ClientMsg::Choose {
                choice: citadel_protocol::Json::of(&citadel_rules::seam::SeatChoice {
                    corporation: Some(Corporation::Bauhaus),
                    doomtroopers: None,
                }),
            })
            .await;
        ps[1]
            .wait_lobby("bauhaus", |l| {
                l.seats[1]
                    .choice
                    .as_ref()
                    .and_then(|c| c.parse::<citadel_rules::seam::SeatChoice>().ok())
                    .and_then(|c| c.corporation)
                    == Some(Corporation::Bauhaus)
            })
            .await;
        ps[0]
            .send(&ClientMsg::Choose {
                choice: citadel_protocol::Json::of(&citadel_rules::seam::SeatChoice {
                    corporation: Some(Corporation::Bauhaus),
                    doomtroopers: None,
                }),
            })
            .await;
        assert_eq!(ps[0].expect_error("taken").await.0, ErrorCode::LobbyRefused);
        ps[1]
            .send(&ClientMsg::Choose {
                choice: citadel_protocol::Json::of(&citadel_rules::seam::SeatChoice {
                    corporation: Some(Corporation::Bauhaus),
                    doomtroopers: Some([Specialty::Tech, Specialty::Tech]),
                }),
            })
            .await;
        assert_eq!(
            ps[1].expect_error("two techs").await.0,
            ErrorCode::LobbyRefused
        );
        ps[1]
            .send(&ClientMsg::Choose {
                choice: citadel_protocol::Json::of(&citadel_rules::seam::SeatChoice {
                    corporation: Some(Corporation::Bauhaus),
                    doomtroopers: Some([Specialty::Tech, Specialty::Firearms]),
                }),
            })
            .await;
        // The lobby does not show teams; the answer is a new lobby.
        ps[1]
            .wait_for("lobby", |m| matches!(m, ServerMsg::Lobby { .. }))
            .await;
        for p in ps.iter_mut() {
            ready(p).await;
        }
        start(&mut ps[0]).await;
        let view = ps[0].view().clone();
        let team = |seat: u8| {
            let t = view
                .teams
                .iter()
                .find(|t| t.seat == Seat(seat))
                .unwrap_or_else(|| panic!("no team for seat {seat}"));
            let mut figures = t.figures;
            figures.sort();
            let specs: Vec<Specialty> = figures
                .iter()
                .map(
                    |id| match view.figures.iter().find(|f| f.id == *id).map(|f| &f.kind) {
                        Some(FigureKind::Doomtrooper { specialty, .. }) => *specialty,
                        other => panic!("figure {id:?}: {other:?}"),
                    },
                )
                .collect();
            (t.corporation, specs)
        };
        let first_free = Corporation::ALL
            .into_iter()
            .find(|c| *c != Corporation::Bauhaus)
            .expect("a free corporation");
        assert_eq!(first_free, Corporation::Capitol);
        assert_eq!(
            team(0),
            (
                first_free,
                vec![Specialty::Firearms, Specialty::CloseCombat]
            )
        );
        assert_eq!(
            team(1),
            (
                Corporation::Bauhaus,
                vec![Specialty::Tech, Specialty::Firearms]
            )
        );
        server.shutdown().await;
    })
    .await;
}

/// Names (players' and spectators' alike) and chat lines lose control
/// characters and direction overrides, are trimmed and cut (32 and 500
/// characters); an empty name becomes `Player` or `Spectator`; a chat
/// line left empty is dropped; every line reaches players and
/// spectators with the sender's role and seat.
#[tokio::test]
async fn names_and_chat_are_cleaned_as_documented() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let code = create_game(addr, &c1m1_options(2, DarkLegionChoice::Drawn)).await;
        let ann = Client::player(addr, &code, "  Ann\u{1b}[31m\u{202E}  ").await;
        let mut blank = Client::player(addr, &code, " \u{2066}\n\t ").await;
        let lobby = blank
            .wait_lobby("both seated", |l| l.seats.iter().all(|s| s.name.is_some()))
            .await;
        assert_eq!(lobby.seats[0].name.as_deref(), Some("Ann[31m"));
        assert_eq!(lobby.seats[1].name.as_deref(), Some("Player"));
        let nameless = Client::spectator(addr, &code, "\0 ").await;
        let wordy = Client::spectator(addr, &code, &format!(" \u{200F}{}", "ü".repeat(40))).await;
        let mut all = [ann, blank, nameless, wordy];

        let said = |from: &str, role, seat, text: &str| ServerMsg::Chat {
            from: from.into(),
            role,
            seat,
            text: text.into(),
        };
        use citadel_protocol::ChatRole::{Player, Spectator};
        let long = "é".repeat(600);
        let cases = [
            (
                0,
                "  hi\u{202E}\tthere\0 ",
                said("Ann[31m", Player, Some(0), "hithere"),
            ),
            (2, "x", said("Spectator", Spectator, None, "x")),
            (3, "y", said(&"ü".repeat(32), Spectator, None, "y")),
            (
                1,
                long.as_str(),
                said("Player", Player, Some(1), &"é".repeat(500)),
            ),
        ];
        for (who, text, want) in cases {
            // A line that cleans to nothing is dropped: the next chat
            // everyone gets is the line after it.
            all[who]
                .send(&ClientMsg::Chat {
                    text: " \0\u{202A} ".into(),
                })
                .await;
            all[who].send(&ClientMsg::Chat { text: text.into() }).await;
            for c in all.iter_mut() {
                let got = c
                    .wait_for("chat", |m| matches!(m, ServerMsg::Chat { .. }))
                    .await;
                assert_eq!(got, want, "{}", c.label);
            }
        }
        server.shutdown().await;
    })
    .await;
}

/// Reaction windows: the command that opens one is answered with a lone
/// `reaction_offered` (the view's `pending` says which window and dice,
/// `to_act` is the owner, whose `legal` holds only `react`); the owner's
/// answer brings the whole command, its `card_played` (if any) before the
/// roll that holds the window's dice. No `decision_requested` is sent.
/// Games are played until windows have opened (any own attack that
/// misses while the hand holds a card opens one).
#[tokio::test]
async fn reaction_windows_arrive_in_the_documented_order() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let (mut opened, mut rolls, mut cards, mut games) = (0, 0, 0, 0);
        for seed in 0..30 {
            games += 1;
            let (_, mut p) = solo(addr).await;
            let check = play_to_the_end(&mut p, seed).await;
            assert!(check.waiting.is_none() && check.answered.is_empty());
            opened += check.opened;
            rolls += check.rolls_found;
            cards += check.cards_played;
            if opened >= 3 && rolls >= 1 && cards >= 1 {
                break;
            }
        }
        eprintln!(
            "{games} games: windows opened {opened}, rolls matched {rolls}, cards played {cards}"
        );
        assert!(
            opened >= 3 && rolls >= 1 && cards >= 1,
            "too few windows to check"
        );
        server.shutdown().await;
    })
    .await;
}

/// `ack`: a command that causes no events (`set_allow_pass`) is acked
/// with the seq the client already has, and the message right after the
/// ack is an `events` message with an empty `events` list, the view after
/// the command as a patch and the new `legal` list; every other
/// connection of the game (here a spectator) gets the same kind of
/// message. What it carries is what a `resync` then shows.
#[tokio::test]
async fn a_command_without_events_is_acked_then_followed_by_an_empty_events_message() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let code = create_game(addr, &c1m1_options(1, DarkLegionChoice::Ai)).await;
        let mut p = Client::player(addr, &code, "Solo").await;
        let mut s = Client::spectator(addr, &code, "Kim").await;
        ready(&mut p).await;
        start(&mut p).await;
        s.wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
        let team = p
            .view()
            .teams
            .iter()
            .position(|t| t.seat == Seat(0))
            .expect("the player's team");
        let allow = !p.view().teams[team].allow_pass;
        p.send(&ClientMsg::Command {
            client_ref: Some(41),
            command: citadel_protocol::Json::of(&Command::SetAllowPass { allow }),
        })
        .await;
        let ack = p
            .wait_for("the ack", |m| {
                matches!(m, ServerMsg::Ack { .. } | ServerMsg::Rejected { .. })
            })
            .await;
        let ServerMsg::Ack {
            client_ref: Some(41),
            seq,
        } = ack
        else {
            panic!("expected the ack of set_allow_pass, got {ack:?}");
        };
        // No events: the seq the client has (every event before the
        // command came before its ack).
        let had = p.covered;
        assert_eq!(seq, had);
        let after = p.recv().await;
        let ServerMsg::Events {
            events,
            view,
            view_patch,
            ..
        } = &after
        else {
            panic!("expected an events message right after the ack, got {after:?}");
        };
        assert!(events.is_empty(), "{events:?}");
        assert!(view.is_none(), "the view comes as a patch during play");
        assert!(view_patch.is_some());
        assert_eq!(p.covered, had);
        assert_eq!(p.view().teams[team].allow_pass, allow);
        // Everyone else gets the same kind of message.
        let seen = s
            .wait_for(
                "the spectator's events",
                |m| matches!(m, ServerMsg::Events { events, .. } if events.is_empty()),
            )
            .await;
        assert!(matches!(seen, ServerMsg::Events { view: None, .. }));
        assert_eq!(s.view().teams[team].allow_pass, allow);
        // It carried the view and legal list a resync shows.
        let (view, legal) = (p.view().clone(), p.legal.clone());
        p.send(&ClientMsg::Resync).await;
        match p
            .wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
            .await
        {
            ServerMsg::Snapshot {
                seq,
                view: fresh,
                legal: fresh_legal,
                ..
            } => {
                assert_eq!(seq, had);
                assert_eq!(fresh.parse::<GameView>().ok().as_ref(), Some(&view));
                assert_eq!(
                    fresh_legal.parse::<Vec<Command>>().ok().as_ref(),
                    Some(&legal)
                );
            }
            _ => unreachable!(),
        }
        server.shutdown().await;
    })
    .await;
}

/// A finished game: a `command` gets the `error` `game_over` (never a
/// `rejected`); spectators and resumes are still served (a snapshot of
/// the end, or the events after `last_seq`); a new player gets `4005`;
/// its replay is served.
#[tokio::test]
async fn a_finished_game_answers_game_over_and_still_takes_spectators_and_resumes() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let (code, mut p) = solo(addr).await;
        play_to_the_end(&mut p, 7).await;
        let last = p.covered;
        p.send(&ClientMsg::Command {
            client_ref: Some(5),
            command: citadel_protocol::Json::of(&Command::EndTurn),
        })
        .await;
        let answer = p
            .wait_for("an answer", |m| {
                matches!(
                    m,
                    ServerMsg::Error { .. } | ServerMsg::Rejected { .. } | ServerMsg::Ack { .. }
                )
            })
            .await;
        assert!(
            matches!(
                answer,
                ServerMsg::Error {
                    code: ErrorCode::GameOver,
                    ..
                }
            ),
            "{answer:?}"
        );

        // A spectator: welcome, lobby, the final snapshot.
        let mut s = Client::spectator(addr, &code, "Late").await;
        s.wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
        assert_eq!(s.covered, last);
        assert!(matches!(s.view().phase, PhaseView::Finished { .. }));
        assert!(s.legal.is_empty());
        // A spectator with `last_seq`: the events after it.
        let mut s2 = Client::join(
            addr,
            &code,
            Join::Spectator {
                name: "Later".into(),
            },
            Some(last - 3),
        )
        .await;
        s2.covered = last - 3;
        match s2
            .wait_for("events", |m| matches!(m, ServerMsg::Events { .. }))
            .await
        {
            ServerMsg::Events { events, .. } => {
                assert_eq!(events.len(), 3);
                assert!(matches!(
                    events.last().map(|e| e.event.parse::<Event>()),
                    Some(Ok(Event::MissionEnded { .. }))
                ));
            }
            _ => unreachable!(),
        }
        // The player resumes elsewhere; the old socket is replaced.
        let token = p.token.clone().expect("a token");
        let mut back = Client::join(addr, &code, Join::Resume { token }, None).await;
        assert_eq!(back.seat, Some(0));
        back.wait_for("snapshot", |m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
        assert!(back.finished);
        assert_eq!(p.expect_close().await, Some(close::REPLACED));
        // No new player.
        let mut late = Client::connect(addr, "late player").await;
        late.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            game: code.clone(),
            join: Join::Player {
                name: "Late".into(),
            },
            last_seq: None,
            account: None,
        })
        .await;
        assert_eq!(late.expect_close().await, Some(close::GAME_FULL));
        let replay = reqwest::get(format!("http://{addr}/api/games/{code}/replay"))
            .await
            .expect("replay");
        assert_eq!(replay.status(), reqwest::StatusCode::OK);
        server.shutdown().await;
    })
    .await;
}

/// Numbers and unknown fields, on the wire: a `client_ref` of 2^53 − 1
/// comes back exactly, one more is `malformed`; unknown fields in
/// `hello`, a message and a command are ignored.
#[tokio::test]
async fn client_ref_range_and_unknown_fields_on_the_wire() {
    within(TEST_LIMIT, async {
        let server = server().await;
        let addr = server.addr();
        let (code, mut p) = solo(addr).await;
        // An unknown field in hello.
        let mut s = Client::connect(addr, "extra").await;
        s.send_text(format!(
            r#"{{"type":"hello","protocol":{PROTOCOL_VERSION},"game":"{code}","join":{{"as":"spectator","name":"x","colour":"red"}},"client":"test/1"}}"#
        ))
        .await;
        s.wait_for("welcome", |m| matches!(m, ServerMsg::Welcome { .. }))
            .await;
        // The largest client_ref, with unknown fields around the command.
        let command = serde_json::to_value(p.legal[0].clone()).expect("json");
        let mut command = command.as_object().expect("an object").clone();
        command.insert("note".into(), Value::from("ignored"));
        let text = serde_json::json!({
            "type": "command",
            "client_ref": MAX_CLIENT_REF,
            "command": command,
            "sent_at": 12,
        })
        .to_string();
        p.send_text(text).await;
        let ServerMsg::Ack { client_ref, .. } = p
            .wait_for("ack", |m| {
                matches!(m, ServerMsg::Ack { .. } | ServerMsg::Rejected { .. } | ServerMsg::Error { .. })
            })
            .await
        else {
            panic!("a legal command with unknown fields was not acked")
        };
        assert_eq!(client_ref, Some(MAX_CLIENT_REF));
        assert_eq!(MAX_CLIENT_REF, 9_007_199_254_740_991);
        // One more is malformed, and nothing is applied: no ack, no
        // rejection, only the error.
        let before = p.log.len();
        p.send_text(format!(
            r#"{{"type":"command","client_ref":{},"command":{{"type":"end_turn"}}}}"#,
            MAX_CLIENT_REF + 1
        ))
        .await;
        let (e, _) = p.expect_error("too large a client_ref").await;
        assert_eq!(e, ErrorCode::Malformed);
        p.send(&ClientMsg::Ping).await;
        p.wait_for("pong", |m| matches!(m, ServerMsg::Pong)).await;
        let answers: Vec<&ServerMsg> = p.log[before..]
            .iter()
            .filter(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Rejected { .. }))
            .collect();
        assert!(answers.is_empty(), "the malformed command was answered: {answers:?}");
        server.shutdown().await;
    })
    .await;
}

// ------------------------------------------- the doc's numbers, from the code

/// The doc with its whitespace folded, so line breaks do not matter.
fn doc() -> String {
    [
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/PROTOCOL.md"),
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/siege/PROTOCOL.md"),
    ]
    .iter()
    .map(|path| std::fs::read_to_string(path).expect("PROTOCOL.md"))
    .collect::<Vec<_>>()
    .join("\n")
    .split_whitespace()
    .collect::<Vec<_>>()
    .join(" ")
}

/// The numbers and names PROTOCOL.md states for the items above are the
/// code's own (each sentence is looked for with the value filled in).
#[test]
fn the_numbers_in_the_doc_are_the_codes() {
    use citadel_rules::game::setup::player_counts;
    use citadel_server::edge::text::{
        CHAT_MAX_CHARS, DEFAULT_PLAYER_NAME, DEFAULT_SPECTATOR_NAME, NAME_MAX_CHARS,
    };
    use citadel_server::game_task::FINISHED_LINGER;
    use citadel_server::ws::HELLO_TIMEOUT;
    let doc = doc();
    let corporations: Vec<String> = Corporation::ALL
        .iter()
        .map(|c| {
            format!(
                "`{}`",
                serde_json::to_value(c)
                    .expect("json")
                    .as_str()
                    .unwrap_or("?")
            )
        })
        .collect();
    let max_seat = player_counts(true).end().max(player_counts(false).end()) - 1;
    let defaults = <Config as clap::Parser>::parse_from(["citadel"]);
    for needle in [
        format!("cut to {CHAT_MAX_CHARS} characters"),
        format!("cut to {NAME_MAX_CHARS} characters"),
        format!("becomes `{DEFAULT_PLAYER_NAME}` for a player and `{DEFAULT_SPECTATOR_NAME}` for a spectator"),
        format!("{} seconds after its last socket closes", FINISHED_LINGER.as_secs()),
        format!("within {} seconds", HELLO_TIMEOUT.as_secs()),
        format!("the first free one in the order {}", corporations.join(", ")),
        format!("seats 0–{max_seat}"),
        format!("figure ids 0–{}", u16::MAX),
        format!("**`client_ref`** is absent, `null`, or an integer from 0 to {MAX_CLIENT_REF}"),
    ] {
        assert!(doc.contains(&needle), "PROTOCOL.md does not say {needle:?}");
    }
    assert_eq!(defaults.hello_timeout_secs, HELLO_TIMEOUT.as_secs());
    // Seats and figures fit the types the doc's ranges come from.
    let _: u16 = citadel_rules::game::FigureId(u16::MAX).0;
    let _: u8 = Seat(max_seat).0;
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The doc's Checklist names tests that exist: each name in its
/// "Checked by" column is a `fn` in the workspace's crates.
#[test]
fn the_checklist_names_real_tests() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/PROTOCOL.md");
    let raw = std::fs::read_to_string(path).expect("PROTOCOL.md");
    let checklist = raw
        .split_once("\n## Checklist\n")
        .expect("a Checklist section")
        .1;
    let mut sources = Vec::new();
    rust_files(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        &mut sources,
    );
    let code: String = sources
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    let mut named = 0;
    for row in checklist.lines().filter(|l| l.starts_with("| ")) {
        let Some(checked_by) = row.trim_end_matches('|').rsplit('|').next() else {
            continue;
        };
        for name in checked_by.split('`').skip(1).step_by(2) {
            let is_test_name = name.contains('_')
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if is_test_name {
                named += 1;
                assert!(
                    code.contains(&format!("fn {name}(")),
                    "the Checklist names {name}, which is no test"
                );
            }
        }
    }
    assert!(named >= 20, "the Checklist names only {named} tests");
}
