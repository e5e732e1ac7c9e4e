//! A second game on the platform, with no platform change (issue 29):
//! Tricks, the test-only card game of `citadel-test-game` (hidden hands, a
//! secret simultaneous bid), is registered beside Siege in a test server's
//! catalogue and played end to end over real WebSockets — two players, a
//! spectator, a player who leaves (a bot plays his seat after the grace
//! period) and comes back with his token (the gap replayed), then the
//! finished game's replay.
//!
//! The clients here know Tricks' payloads only as JSON, as a browser
//! does; they apply the view patches themselves.

mod common;

use citadel_protocol::{view_patch, ClientMsg, Join, ServerMsg, PROTOCOL_VERSION};
use citadel_server::table::Games;
use citadel_server::Server;
use common::{next_text, send_json, within, Ws};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// One socket and what it has learnt, as a client that knows the
/// envelope and reads the game's payloads as JSON.
struct Client {
    label: &'static str,
    ws: Ws,
    seat: Option<u8>,
    token: Option<String>,
    kind: Option<String>,
    view: Option<Value>,
    legal: Vec<Value>,
    /// Every event seen, with its seq.
    events: Vec<(u64, Value)>,
    /// Every message's text, to search for secrets.
    texts: Vec<String>,
    acked: u64,
}

impl Client {
    async fn join(addr: SocketAddr, code: &str, join: Join, last_seq: Option<u64>) -> Client {
        Client::join_as(addr, code, join, last_seq, None).await
    }

    /// [`Client::join`], logged in with the session `account` token.
    async fn join_as(
        addr: SocketAddr,
        code: &str,
        join: Join,
        last_seq: Option<u64>,
        account: Option<String>,
    ) -> Client {
        let label = match &join {
            Join::Player { .. } => "player",
            Join::Resume { .. } => "resumed",
            Join::Spectator { .. } => "spectator",
        };
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("connect");
        let mut c = Client {
            label,
            ws,
            seat: None,
            token: None,
            kind: None,
            view: None,
            legal: Vec::new(),
            events: Vec::new(),
            texts: Vec::new(),
            acked: 0,
        };
        let hello = ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            game: code.into(),
            join,
            last_seq,
            account,
        };
        c.send(&hello).await;
        c.wait(|m| matches!(m, ServerMsg::Welcome { .. })).await;
        c
    }

    async fn send(&mut self, msg: &ClientMsg) {
        send_json(&mut self.ws, self.label, msg).await;
    }

    /// Read one message and learn from it.
    async fn recv(&mut self) -> ServerMsg {
        let text = next_text(&mut self.ws, self.label)
            .await
            .unwrap_or_else(|code| panic!("{}: socket closed ({code:?})", self.label));
        let msg: ServerMsg = serde_json::from_str(&text).expect("a server message");
        self.texts.push(text);
        match &msg {
            ServerMsg::Welcome {
                kind, seat, token, ..
            } => {
                self.kind = Some(kind.clone());
                self.seat = *seat;
                self.token.clone_from(token);
            }
            ServerMsg::Snapshot { view, legal, .. } => {
                self.view = Some(view.value());
                self.legal = legal.parse().expect("a list");
            }
            ServerMsg::Events {
                events,
                view,
                view_patch,
                legal,
                ..
            } => {
                for e in events {
                    let last = self.events.last().map_or(0, |(s, _)| *s);
                    assert!(
                        last == 0 || e.seq == last + 1,
                        "{}: seq {} after {last}",
                        self.label,
                        e.seq
                    );
                    self.events.push((e.seq, e.event.value()));
                }
                match (view, view_patch, self.view.as_mut()) {
                    (Some(view), _, _) => self.view = Some(view.value()),
                    (None, Some(patch), Some(held)) => {
                        view_patch::apply(held, patch).expect("the patch fits the view held")
                    }
                    other => panic!("{}: events without a view to patch: {other:?}", self.label),
                }
                self.legal = legal.parse().expect("a list");
            }
            ServerMsg::Ack { seq, .. } => self.acked = *seq,
            ServerMsg::Rejected { message, .. } => {
                panic!("{}: a legal command was refused: {message}", self.label)
            }
            ServerMsg::Error { message, .. } => panic!("{}: error {message}", self.label),
            _ => {}
        }
        msg
    }

    async fn wait(&mut self, what: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let m = self.recv().await;
            if what(&m) {
                return m;
            }
        }
    }

    /// Is the game over, as the view says? (Tricks: `over`; Neuroshima
    /// Hex: a `result` in its state.)
    fn over(&self) -> bool {
        self.view.as_ref().is_some_and(|v| {
            v["over"] == true || v["state"].get("result").is_some_and(|r| !r.is_null())
        })
    }

    fn last_seq(&self) -> u64 {
        self.events.last().map_or(0, |(s, _)| *s)
    }

    /// Send the first legal command and read up to its `events`.
    async fn play_first_legal(&mut self) {
        let command = self.legal.first().cloned().expect("something to play");
        self.send(&ClientMsg::Command {
            client_ref: Some(1),
            command: citadel_protocol::Json::from(command),
        })
        .await;
        self.wait(|m| matches!(m, ServerMsg::Ack { .. })).await;
        let acked = self.acked;
        while self.last_seq() < acked {
            self.recv().await;
        }
    }
}

async fn server() -> Server {
    let mut config = citadel::config_for_tests();
    config.games = Games::new()
        .with_bots::<citadel_rules::game::Game>(citadel_bots::seat_bot)
        .and_then(|g| g.with::<citadel_test_game::Tricks>())
        .expect("two games");
    Server::start(config).await.expect("server")
}

async fn create(addr: SocketAddr, body: Value) -> reqwest::Response {
    reqwest::Client::new()
        .post(format!("http://{addr}/api/games"))
        .json(&body)
        .send()
        .await
        .expect("POST /api/games")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_game_is_played_end_to_end_with_no_platform_change() {
    within(LIMIT, async {
        let server = server().await;
        let addr = server.addr();

        // The catalogue lists both; a table names its game.
        let listed: Value = reqwest::get(format!("http://{addr}/api/catalogue"))
            .await
            .expect("catalogue")
            .json()
            .await
            .expect("json");
        let ids: Vec<&str> = listed
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|g| g["id"].as_str())
            .collect();
        assert_eq!(ids, ["siege", "tricks"]);
        let bad = create(addr, json!({"kind": "tricks", "seats": 9})).await;
        assert_eq!(bad.status(), 400, "Tricks checks its own options");
        let body: Value = bad.json().await.expect("json");
        assert_eq!(body["field"], "seats");
        let res = create(addr, json!({"kind": "tricks", "seats": 2})).await;
        assert_eq!(res.status(), 201);
        let code = res.json::<Value>().await.expect("json")["code"]
            .as_str()
            .expect("a code")
            .to_string();

        // Two players and a spectator; the lobby and welcome name the game.
        let mut ann = Client::join(addr, &code, Join::Player { name: "Ann".into() }, None).await;
        let mut bob = Client::join(addr, &code, Join::Player { name: "Bob".into() }, None).await;
        let mut eve =
            Client::join(addr, &code, Join::Spectator { name: "Eve".into() }, None).await;
        for c in [&ann, &bob, &eve] {
            assert_eq!(c.kind.as_deref(), Some("tricks"), "{}", c.label);
        }
        assert_eq!((ann.seat, bob.seat, eve.seat), (Some(0), Some(1), None));

        // Choices are the game's: a colour, refused when taken.
        let choose = |colour: &str| ClientMsg::Choose {
            choice: citadel_protocol::Json::from(json!(colour)),
        };
        ann.send(&choose("red")).await;
        ann.wait(|m| {
            matches!(m, ServerMsg::Lobby { lobby } if lobby.seats[0].choice.as_ref().map(|c| c.value()) == Some(json!("red")))
        })
        .await;
        bob.send(&choose("red")).await;
        match bob.recv_error().await {
            (citadel_protocol::ErrorCode::LobbyRefused, why) => assert!(why.contains("taken")),
            other => panic!("expected lobby_refused, got {other:?}"),
        }
        bob.send(&ClientMsg::Choose {
            choice: citadel_protocol::Json::from(json!({"not": "a colour"})),
        })
        .await;
        assert_eq!(
            bob.recv_error().await.0,
            citadel_protocol::ErrorCode::Malformed
        );
        bob.send(&choose("blue")).await;
        for c in [&mut ann, &mut bob] {
            c.send(&ClientMsg::Ready { ready: true }).await;
        }
        ann.wait(|m| {
            matches!(m, ServerMsg::Lobby { lobby } if lobby.seats.iter().all(|s| s.ready))
        })
        .await;
        ann.send(&ClientMsg::Start).await;
        for c in [&mut ann, &mut bob, &mut eve] {
            c.wait(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
        }
        // Each seat holds its own hand; the spectator none.
        assert_eq!(ann.view.as_ref().expect("view")["hand"].as_array().map(Vec::len), Some(3));
        assert_eq!(eve.view.as_ref().expect("view")["hand"], json!([]));

        // The secret bid: both seats may act at once.
        assert!(!ann.legal.is_empty() && !bob.legal.is_empty());
        ann.play_first_legal().await;
        bob.play_first_legal().await;

        // Bob leaves; after the grace period (1 s in tests) a bot plays
        // his seat, while Ann plays hers.
        let bob_seen = bob.last_seq();
        let token = bob.token.clone().expect("a token");
        drop(bob);
        let mut bot_played = false;
        while !bot_played && !ann.over() {
            if ann.legal.is_empty() {
                let m = ann.recv().await;
                if let ServerMsg::Events { events, .. } = m {
                    bot_played |= events
                        .iter()
                        .any(|e| e.event.value()["type"] == "played" && e.event.value()["seat"] == 1);
                }
            } else {
                ann.play_first_legal().await;
            }
        }
        assert!(bot_played, "a bot played the leaver's seat");

        // Bob comes back with his token and what he had seen: the gap.
        let mut bob = Client::join(addr, &code, Join::Resume { token }, Some(bob_seen)).await;
        assert_eq!(bob.seat, Some(1));
        let m = bob.wait(|m| matches!(m, ServerMsg::Events { .. })).await;
        let ServerMsg::Events { events, view, .. } = m else {
            unreachable!()
        };
        assert_eq!(events.first().map(|e| e.seq), Some(bob_seen + 1), "exactly the gap");
        assert!(view.is_some(), "a catch-up carries the whole view");

        // Both play to the end.
        while !(ann.over() && bob.over()) {
            if !ann.legal.is_empty() {
                ann.play_first_legal().await;
            } else if !bob.legal.is_empty() {
                bob.play_first_legal().await;
            } else {
                // The other's events are on their way.
                tokio::select! {
                    _ = ann.recv() => {}
                    _ = bob.recv() => {}
                }
            }
        }
        while !eve.over() {
            eve.recv().await;
        }

        // The spectator saw every event, contiguous, and no card before
        // it was played: every deal and bid came redacted.
        let seqs: Vec<u64> = eve.events.iter().map(|(s, _)| *s).collect();
        assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
        for (_, e) in &eve.events {
            if e["type"] == "dealt" {
                assert_eq!(e["cards"], Value::Null, "a dealt hand shown: {e}");
            }
        }
        for text in &eve.texts {
            assert!(!text.contains("\"hand\":[1") && !text.contains("\"cards\":["), "{text}");
        }
        assert!(eve.events.iter().any(|(_, e)| e["type"] == "over"));

        // The finished game's replay names its game.
        let replay: Value = reqwest::get(format!("http://{addr}/api/games/{code}/replay"))
            .await
            .expect("replay")
            .json()
            .await
            .expect("json");
        assert_eq!(replay["kind"], "tricks");
        assert!(replay["steps"].as_array().is_some_and(|s| s.len() > 6));
        server.shutdown().await;
    })
    .await;
}

impl Client {
    /// The next `error`: its code and message.
    async fn recv_error(&mut self) -> (citadel_protocol::ErrorCode, String) {
        loop {
            let text = next_text(&mut self.ws, self.label)
                .await
                .unwrap_or_else(|code| panic!("{}: socket closed ({code:?})", self.label));
            if let Ok(ServerMsg::Error { code, message }) = serde_json::from_str(&text) {
                return (code, message);
            }
        }
    }
}

/// Neuroshima Hex, as the server's own catalogue offers it: a table made
/// with nothing but its kind, a player against the heuristic bot the host
/// seats, a spectator, to the end and its replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn neuroshima_is_played_through_the_platform() {
    within(Duration::from_secs(120), async {
        let server = Server::start(citadel::config_for_tests())
            .await
            .expect("server");
        let addr = server.addr();
        let res = create(addr, json!({"kind": "neuroshima"})).await;
        assert_eq!(res.status(), 201);
        let code = res.json::<Value>().await.expect("json")["code"]
            .as_str()
            .expect("a code")
            .to_string();
        let mut ann = Client::join(addr, &code, Join::Player { name: "Ann".into() }, None).await;
        let mut eve = Client::join(addr, &code, Join::Spectator { name: "Eve".into() }, None).await;
        assert_eq!(ann.kind.as_deref(), Some("neuroshima"));
        ann.send(&ClientMsg::Choose {
            choice: citadel_protocol::Json::from(json!("moloch")),
        })
        .await;
        ann.send(&ClientMsg::SetBot { seat: 1, bot: true }).await;
        ann.send(&ClientMsg::Ready { ready: true }).await;
        ann.wait(
            |m| matches!(m, ServerMsg::Lobby { lobby } if lobby.seats.iter().all(|s| s.ready)),
        )
        .await;
        ann.send(&ClientMsg::Start).await;
        ann.wait(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
        eve.wait(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
        let mut commands = 0;
        while !ann.over() {
            if ann.legal.is_empty() {
                ann.recv().await;
            } else {
                ann.play_first_legal().await;
                commands += 1;
            }
            assert!(commands < 2_000, "the game does not end");
        }
        while !eve.over() {
            eve.recv().await;
        }
        assert!(commands > 5, "Ann played {commands} commands");
        let seqs: Vec<u64> = eve.events.iter().map(|(s, _)| *s).collect();
        assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
        let replay: Value = reqwest::get(format!("http://{addr}/api/games/{code}/replay"))
            .await
            .expect("replay")
            .json()
            .await
            .expect("json");
        assert_eq!(replay["kind"], "neuroshima");
        server.shutdown().await;
    })
    .await;
}

/// Ratings (issue 31) over the platform: a rated Neuroshima table of an
/// account against the search bot, played to the end on a SQLite store,
/// moves both ratings once; the profile shows the rating, its history and
/// the game, the leaderboard keeps provisional ratings off, and a casual
/// table moves nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_moves_the_ratings_and_the_profile_shows_them() {
    within(Duration::from_secs(180), async {
        let dir = tempfile::tempdir().expect("a directory");
        let mut config = citadel::config_for_tests();
        config.database_url = format!("sqlite://{}/ratings.sqlite", dir.path().display());
        let server = Server::start(config).await.expect("server");
        let addr = server.addr();
        let http = reqwest::Client::new();
        let credentials = json!({"name": "Rita", "password": "a long enough password"});
        let made = http
            .post(format!("http://{addr}/api/accounts"))
            .json(&credentials)
            .send()
            .await
            .expect("register");
        assert_eq!(made.status(), 201);
        let login: Value = http
            .post(format!("http://{addr}/api/login"))
            .json(&credentials)
            .send()
            .await
            .expect("login")
            .json()
            .await
            .expect("json");
        let token = login["token"].as_str().expect("a token").to_string();

        let play = |rated: bool, listed: bool| {
            let token = token.clone();
            async move {
                let res = create(
                    addr,
                    json!({"kind": "neuroshima", "rated": rated, "listed": listed, "bots": "normal"}),
                )
                .await;
                assert_eq!(res.status(), 201);
                let code = res.json::<Value>().await.expect("json")["code"]
                    .as_str()
                    .expect("a code")
                    .to_string();
                let join = Join::Player {
                    name: "Rita".into(),
                };
                let mut rita = Client::join_as(addr, &code, join, None, Some(token)).await;
                rita.send(&ClientMsg::SetBot { seat: 1, bot: true }).await;
                rita.send(&ClientMsg::Ready { ready: true }).await;
                rita.wait(|m| {
                    matches!(m, ServerMsg::Lobby { lobby } if lobby.seats.iter().all(|s| s.ready))
                })
                .await;
                rita.send(&ClientMsg::Start).await;
                rita.wait(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
                let mut commands = 0;
                while !rita.over() {
                    if rita.legal.is_empty() {
                        rita.recv().await;
                    } else {
                        rita.play_first_legal().await;
                        commands += 1;
                    }
                    assert!(commands < 2_000, "the game does not end");
                }
                code
            }
        };
        let profile = || async {
            // The rating is written after the game's end is: wait for it.
            for _ in 0..100 {
                let p: Value = reqwest::get(format!("http://{addr}/api/players/rita"))
                    .await
                    .expect("profile")
                    .json()
                    .await
                    .expect("json");
                if !p["recent_games"].as_array().expect("games").is_empty()
                    && !p["ratings"].as_array().expect("ratings").is_empty()
                {
                    return p;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            panic!("no rating after the game");
        };

        let code = play(true, false).await;
        let p = profile().await;
        assert_eq!(p["name"], "Rita");
        let r = &p["ratings"][0];
        assert_eq!(r["kind"], "neuroshima");
        assert_eq!(r["games"], 1);
        assert_eq!(r["provisional"], true, "one game: still provisional");
        assert_eq!(
            r["wins"].as_i64().unwrap_or(0)
                + r["draws"].as_i64().unwrap_or(0)
                + r["losses"].as_i64().unwrap_or(0),
            1
        );
        let rating = r["rating"].as_i64().expect("a rating");
        assert_ne!(rating, 1500, "the game moved it");
        assert!(r["deviation"].as_i64().expect("rd") < 350);
        assert_eq!(r["history"].as_array().map(Vec::len), Some(1));
        assert_eq!(r["history"][0]["code"], code.as_str());
        assert_eq!(r["history"][0]["rating"], rating);
        assert_eq!(p["recent_games"][0]["code"], code.as_str());

        // A casual listed table: played, in the profile, rated never. A
        // private casual one: not in the public profile at all.
        let private = play(false, false).await;
        let casual = play(false, true).await;
        let mut shown = None;
        for _ in 0..100 {
            let p: Value = reqwest::get(format!("http://{addr}/api/players/Rita"))
                .await
                .expect("profile")
                .json()
                .await
                .expect("json");
            if p["recent_games"].as_array().map(Vec::len) == Some(2) {
                shown = Some(p);
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let p = shown.expect("the casual listed game joins the profile");
        let codes: Vec<&str> = p["recent_games"]
            .as_array()
            .expect("games")
            .iter()
            .filter_map(|g| g["code"].as_str())
            .collect();
        assert_eq!(codes, [casual.as_str(), code.as_str()], "newest first, the private one left out");
        assert!(!codes.contains(&private.as_str()));
        assert_eq!(p["ratings"][0]["games"], 1, "casual games are not rated");

        // Provisional ratings (Rita's, the bot's after one game) stay off
        // the leaderboard; a game the server does not play has none.
        let board = reqwest::get(format!("http://{addr}/api/leaderboards/neuroshima"))
            .await
            .expect("board");
        assert_eq!(board.status(), 200);
        let board: Value = board.json().await.expect("json");
        assert_eq!(board["first_rank"], 1);
        assert_eq!(board["players"], json!([]));
        let none = reqwest::get(format!("http://{addr}/api/leaderboards/chess"))
            .await
            .expect("board");
        assert_eq!(none.status(), 404);
        let nobody = reqwest::get(format!("http://{addr}/api/players/nobody"))
            .await
            .expect("profile");
        assert_eq!(nobody.status(), 404);
        server.shutdown().await;
    })
    .await;
}

/// The lobby's lists (issue 31, item 1) over HTTP: a listed table is open
/// with its free seats until it starts, then live with its players and
/// its spectators; a private table is in neither list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listed_tables_are_open_then_live_and_private_ones_are_not_listed() {
    within(Duration::from_secs(120), async {
        let server = Server::start(citadel::config_for_tests())
            .await
            .expect("server");
        let addr = server.addr();
        let code_of = |v: Value| v["code"].as_str().expect("a code").to_string();
        let listed = code_of(
            create(addr, json!({"kind": "neuroshima", "listed": true}))
                .await
                .json()
                .await
                .expect("json"),
        );
        let private = code_of(
            create(addr, json!({"kind": "neuroshima"}))
                .await
                .json()
                .await
                .expect("json"),
        );
        let lobby = || async {
            let list: Value = reqwest::get(format!("http://{addr}/api/lobby"))
                .await
                .expect("lobby")
                .json()
                .await
                .expect("json");
            list
        };
        let find = |list: &Value, which: &str, code: &str| {
            list[which]
                .as_array()
                .expect("a list")
                .iter()
                .find(|t| t["code"] == code)
                .cloned()
        };
        let list = lobby().await;
        let open = find(&list, "open", &listed).expect("the listed table is open");
        assert_eq!(open["kind"], "neuroshima");
        assert_eq!(
            (open["seats"].as_u64(), open["free"].as_u64()),
            (Some(2), Some(2))
        );
        assert!(
            find(&list, "open", &private).is_none(),
            "private tables are not listed"
        );
        assert_eq!(list["live"], json!([]));
        assert_eq!(list["featured"], Value::Null);

        let mut ann = Client::join(addr, &listed, Join::Player { name: "Ann".into() }, None).await;
        ann.send(&ClientMsg::SetBot { seat: 1, bot: true }).await;
        // Seated, the lobby document is stored: one seat left, then none.
        for _ in 0..100 {
            let list = lobby().await;
            if find(&list, "open", &listed).is_none() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        assert!(
            find(&lobby().await, "open", &listed).is_none(),
            "a full table is not open"
        );
        ann.send(&ClientMsg::Ready { ready: true }).await;
        ann.wait(
            |m| matches!(m, ServerMsg::Lobby { lobby } if lobby.seats.iter().all(|s| s.ready)),
        )
        .await;
        ann.send(&ClientMsg::Start).await;
        ann.wait(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
        let mut eve =
            Client::join(addr, &listed, Join::Spectator { name: "Eve".into() }, None).await;
        eve.wait(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
        let mut live = None;
        for _ in 0..100 {
            live = find(&lobby().await, "live", &listed);
            if live.as_ref().is_some_and(|g| g["spectators"] == 1) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        let live = live.expect("the game is live");
        assert_eq!(live["spectators"], 1, "{live}");
        assert_eq!(live["players"].as_array().map(Vec::len), Some(2));
        assert_eq!(lobby().await["featured"], listed.as_str());
        server.shutdown().await;
    })
    .await;
}
