//! Accounts, login sessions, "my games" and replays, end to end: a real
//! server on 127.0.0.1:0, real HTTP (reqwest) and real WebSocket clients
//! (tokio-tungstenite). Every wait has a timeout.

mod common;
use common::{DarkLegionChoice, GameOptions};
use common::{Ws, STEP};

use citadel_protocol::{close, ClientMsg, Join, SeqEvent, ServerMsg, PROTOCOL_VERSION};
use citadel_rules::game::{Command, Event, GameView};
use citadel_server::Server;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

/// The longest a whole test may take.
const TEST_LIMIT: Duration = Duration::from_secs(120);
/// More commands than a C1M1 game needs when every turn is ended at once.
const MAX_COMMANDS: usize = 20_000;

async fn within<T>(f: impl Future<Output = T>) -> T {
    match tokio::time::timeout(TEST_LIMIT, f).await {
        Ok(v) => v,
        Err(_) => panic!("test did not finish within {TEST_LIMIT:?}"),
    }
}

async fn server() -> Server {
    Server::start(citadel::config_for_tests())
        .await
        .expect("server starts")
}

// ---------------------------------------------------------------- HTTP

/// A tiny HTTP client for the API.
struct Api {
    base: String,
    http: reqwest::Client,
}

impl Api {
    fn new(addr: SocketAddr) -> Api {
        Api {
            base: format!("http://{addr}"),
            http: reqwest::Client::new(),
        }
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> (StatusCode, Value) {
        let resp = tokio::time::timeout(STEP, req.send())
            .await
            .expect("answer in time")
            .expect("request");
        let status = resp.status();
        let text = resp.text().await.expect("body");
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
        };
        (status, body)
    }

    async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> (StatusCode, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.send(req).await
    }

    async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.send(req).await
    }

    async fn register(&self, name: &str, password: &str) -> (StatusCode, Value) {
        let body = json!({ "name": name, "password": password });
        self.post("/api/accounts", &body, None).await
    }

    async fn login(&self, name: &str, password: &str) -> (StatusCode, Value) {
        let body = json!({ "name": name, "password": password });
        self.post("/api/login", &body, None).await
    }

    /// Register and log in: the account id and a session token.
    async fn account(&self, name: &str) -> (String, String) {
        let (status, body) = self.register(name, "a long password").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let (status, body) = self.login(name, "a long password").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let token = body["token"].as_str().expect("a token").to_string();
        (body["account"]["id"].as_str().expect("id").into(), token)
    }

    async fn me(&self, token: Option<&str>) -> (StatusCode, Value) {
        self.get("/api/me", token).await
    }

    async fn create_game(&self) -> String {
        let options = GameOptions {
            mission: "ce-c1m1".into(),
            seats: 1,
            dark_legion: DarkLegionChoice::Ai,
            starting_rank: 1,
            turn_seconds: None,
        };
        let body = serde_json::to_value(&options).expect("options");
        let (status, body) = self.post("/api/games", &body, None).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        body["code"].as_str().expect("a code").to_string()
    }
}

// ---------------------------------------------------------------- socket

/// A typed WebSocket client that keeps what it was told.
struct Client {
    ws: Ws,
    seat: Option<u8>,
    view: Option<Box<GameView>>,
    legal: Vec<Command>,
    events: Vec<SeqEvent>,
    /// Every seq up to here is known (a snapshot covers 1..=seq).
    covered: u64,
}

impl Client {
    async fn connect(addr: SocketAddr) -> Client {
        let url = format!("ws://{addr}/ws");
        let (ws, _) = tokio::time::timeout(STEP, tokio_tungstenite::connect_async(url))
            .await
            .expect("connect in time")
            .expect("websocket handshake");
        Client {
            ws,
            seat: None,
            view: None,
            legal: Vec::new(),
            events: Vec::new(),
            covered: 0,
        }
    }

    async fn hello(&mut self, game: &str, join: Join, account: Option<&str>) {
        self.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            game: game.into(),
            join,
            last_seq: None,
            account: account.map(str::to_string),
        })
        .await;
    }

    /// Connect, say hello and wait for `welcome`.
    async fn join(addr: SocketAddr, game: &str, join: Join, account: Option<&str>) -> Client {
        let mut c = Client::connect(addr).await;
        c.hello(game, join, account).await;
        c.wait_for(|m| matches!(m, ServerMsg::Welcome { .. })).await;
        c
    }

    async fn send(&mut self, msg: &ClientMsg) {
        common::send_json(&mut self.ws, "client", msg).await;
    }

    /// The next message, or the close code (`None` if no close frame).
    async fn recv_any(&mut self) -> Result<ServerMsg, Option<u16>> {
        let t = common::next_text(&mut self.ws, "client").await?;
        let msg: ServerMsg =
            serde_json::from_str(&t).unwrap_or_else(|e| panic!("not a ServerMsg: {e}: {t}"));
        self.absorb(&msg);
        Ok(msg)
    }

    async fn recv(&mut self) -> ServerMsg {
        match self.recv_any().await {
            Ok(m) => m,
            Err(code) => panic!("closed with {code:?}"),
        }
    }

    async fn wait_for(&mut self, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
    }

    fn absorb(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::Welcome { seat, .. } => self.seat = *seat,
            ServerMsg::Snapshot {
                seq, view, legal, ..
            } => {
                self.covered = *seq;
                self.view = Some(Box::new(view.parse().expect("a view")));
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
                    assert_eq!(e.seq, self.covered + 1, "seqs are contiguous");
                    self.covered = e.seq;
                    self.events.push(e.clone());
                }
                let next = citadel_protocol::view_patch::next_view(
                    self.view.as_deref(),
                    view.as_ref()
                        .map(|v| v.parse::<GameView>().expect("a view"))
                        .as_ref(),
                    view_patch.as_ref(),
                )
                .expect("the view patch fits");
                self.view = Some(Box::new(next));
                self.legal = legal.parse().expect("legal commands");
            }
            _ => {}
        }
    }

    fn finished(&self) -> bool {
        self.events
            .iter()
            .any(|e| matches!(e.event.parse::<Event>(), Ok(Event::MissionEnded { .. })))
    }

    /// Ready up and start a 1-seat game; wait for the snapshot.
    async fn start_solo(&mut self) {
        self.send(&ClientMsg::Ready { ready: true }).await;
        self.send(&ClientMsg::Start).await;
        self.wait_for(|m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
    }

    /// Play to the end: end the turn whenever that is legal, otherwise
    /// the first legal command.
    async fn play_to_the_end(&mut self) {
        let mut sent = 0;
        while !self.finished() {
            if self.legal.is_empty() {
                self.recv().await;
                continue;
            }
            assert!(sent < MAX_COMMANDS, "the game does not end");
            let command = if self.legal.contains(&Command::EndTurn) {
                Command::EndTurn
            } else {
                self.legal[0].clone()
            };
            sent += 1;
            let client_ref = Some(sent as u64);
            self.send(&ClientMsg::Command {
                client_ref,
                command: citadel_protocol::Json::of(&command),
            })
            .await;
            let answer = self
                .wait_for(|m| {
                    matches!(m, ServerMsg::Ack { client_ref: r, .. } | ServerMsg::Rejected { client_ref: r, .. } if *r == client_ref)
                        || matches!(m, ServerMsg::Error { .. })
                })
                .await;
            let ServerMsg::Ack { seq, .. } = answer else {
                panic!("{command:?} from the legal list: {answer:?}");
            };
            while self.covered < seq {
                self.recv().await;
            }
        }
    }
}

// ---------------------------------------------------------------- tests

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn register_login_me_and_logout_invalidates_the_token() {
    within(async {
        let server = server().await;
        let api = Api::new(server.addr());
        let (status, body) = api.register("  Mitch  ", "hunter22hunter").await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(body["name"], "Mitch", "the name is trimmed");
        let id = body["id"].as_str().expect("an id").to_string();
        assert_eq!(body.as_object().expect("object").len(), 2, "{body}");

        // Names are matched case-insensitively at login too.
        let (status, body) = api.login("mitch", "hunter22hunter").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let token = body["token"].as_str().expect("a token").to_string();
        assert_eq!(token.len(), 64, "32 random bytes, hex");
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(body["account"], json!({ "id": id, "name": "Mitch" }));

        let (status, me) = api.me(Some(&token)).await;
        assert_eq!(status, StatusCode::OK, "{me}");
        assert_eq!(me["account"], json!({ "id": id, "name": "Mitch" }));
        assert_eq!(me["games"], json!([]));
        assert_eq!(me["campaigns"], json!([]));

        // A second login is a second session; logging one out leaves the
        // other.
        let (_, other) = api.login("Mitch", "hunter22hunter").await;
        let other = other["token"].as_str().expect("a token").to_string();
        assert_ne!(other, token);

        let (status, body) = api.post("/api/logout", &Value::Null, Some(&token)).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
        assert_eq!(body, Value::Null, "204 has no body");
        let (status, _) = api.me(Some(&token)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, _) = api.post("/api/logout", &Value::Null, Some(&token)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "already logged out");
        let (status, _) = api.me(Some(&other)).await;
        assert_eq!(status, StatusCode::OK, "the other session lives on");
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_taken_name_in_any_case_is_409_and_bad_input_is_400() {
    within(async {
        let server = server().await;
        let api = Api::new(server.addr());
        let (status, _) = api.register("Doomtrooper", "password1").await;
        assert_eq!(status, StatusCode::CREATED);
        for name in ["Doomtrooper", "DOOMTROOPER", " doomtrooper "] {
            let (status, body) = api.register(name, "password2").await;
            assert_eq!(status, StatusCode::CONFLICT, "{name}: {body}");
            assert_eq!(body["error"], 409);
        }
        for (name, password) in [
            ("ab", "password1"),
            ("   ab   ", "password1"),
            (&"x".repeat(33)[..], "password1"),
            ("Nameless", "short"),
        ] {
            let (status, body) = api.register(name, password).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{name:?}: {body}");
            assert_eq!(body["error"], 400);
        }
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_and_an_unknown_name_get_the_same_401() {
    within(async {
        let server = server().await;
        let api = Api::new(server.addr());
        api.register("Capitol", "right password").await;
        let (s1, wrong_password) = api.login("Capitol", "wrong password").await;
        let (s2, unknown_name) = api.login("Cybertronic", "right password").await;
        assert_eq!(s1, StatusCode::UNAUTHORIZED);
        assert_eq!(s2, StatusCode::UNAUTHORIZED);
        assert_eq!(
            wrong_password, unknown_name,
            "the answers tell nothing apart"
        );
        assert_eq!(wrong_password["message"], "wrong name or password");
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn me_without_a_token_or_with_a_bad_one_is_401() {
    within(async {
        let server = server().await;
        let api = Api::new(server.addr());
        let (status, body) = api.me(None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(body["error"], 401);
        let (status, _) = api.me(Some(&"0".repeat(64))).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, _) = api.me(Some("not even hex")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let basic = api
            .http
            .get(format!("{}/api/me", api.base))
            .header("authorization", "Basic dXNlcjpwYXNz");
        let (status, _) = api.send(basic).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logged_in_player_is_linked_and_the_game_shows_in_me_but_a_guests_does_not() {
    within(async {
        let server = server().await;
        let addr = server.addr();
        let api = Api::new(addr);
        let (_, token) = api.account("Bauhaus").await;
        let older = api.create_game().await;
        // Two games made in the same millisecond tie on `created_at` (and
        // are then ordered by code): let the clock move on.
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let newer = api.create_game().await;
        let guest_game = api.create_game().await;

        for code in [&older, &newer] {
            let join = Join::Player { name: "B".into() };
            let p = Client::join(addr, code, join, Some(&token)).await;
            assert_eq!(p.seat, Some(0));
        }
        let guest = Join::Player { name: "G".into() };
        let g = Client::join(addr, &guest_game, guest, None).await;
        assert_eq!(g.seat, Some(0), "guests play as before");

        // The link is stored before `welcome` is sent.
        let (status, me) = api.me(Some(&token)).await;
        assert_eq!(status, StatusCode::OK, "{me}");
        let games = me["games"].as_array().expect("games");
        let codes: Vec<&str> = games.iter().filter_map(|g| g["code"].as_str()).collect();
        assert_eq!(codes, [newer.as_str(), older.as_str()], "newest first");
        let g = &games[0];
        assert_eq!(g["options"]["mission"], "ce-c1m1", "options are JSON");
        assert!(g["created_at"].is_i64());
        assert!(g["started_at"].is_null() && g["finished_at"].is_null());
        assert!(g["result"].is_null());
        server.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_session_in_hello_closes_with_bad_session() {
    within(async {
        let server = server().await;
        let addr = server.addr();
        let api = Api::new(addr);
        let code = api.create_game().await;
        let (_, token) = api.account("Mishima").await;
        api.post("/api/logout", &Value::Null, Some(&token)).await;
        for bad in [token.as_str(), "nonsense"] {
            let mut c = Client::connect(addr).await;
            let join = Join::Player { name: "M".into() };
            c.hello(&code, join, Some(bad)).await;
            assert_eq!(c.recv_any().await.err(), Some(Some(close::BAD_SESSION)));
        }
        // Nobody took the seat.
        let p = Client::join(addr, &code, Join::Player { name: "G".into() }, None).await;
        assert_eq!(p.seat, Some(0));
        server.shutdown().await;
    })
    .await;
}

/// Every step of a replay, page by page.
async fn whole_replay(api: &Api, code: &str) -> (Value, Vec<Value>) {
    let mut steps: Vec<Value> = Vec::new();
    loop {
        let path = format!("/api/games/{code}/replay?from={}&count=25", steps.len());
        let (status, page) = api.get(&path, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let got = page["steps"].as_array().expect("steps").clone();
        assert!(got.len() <= 25);
        if got.is_empty() {
            return (page, steps);
        }
        steps.extend(got);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_replay_matches_what_the_live_spectator_saw() {
    within(async {
        let server = server().await;
        let addr = server.addr();
        let api = Api::new(addr);
        let (_, token) = api.account("Imperial").await;
        let code = api.create_game().await;
        let (status, _) = api.get("/api/games/ZZZZZZ/replay", None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "unknown game");

        let mut player =
            Client::join(addr, &code, Join::Player { name: "I".into() }, Some(&token)).await;
        let mut spectator =
            Client::join(addr, &code, Join::Spectator { name: "E".into() }, None).await;
        player.start_solo().await;
        spectator
            .wait_for(|m| matches!(m, ServerMsg::Snapshot { .. }))
            .await;
        let start_seq = spectator.covered;
        let (status, body) = api.get(&format!("/api/games/{code}/replay"), None).await;
        assert_eq!(status, StatusCode::CONFLICT, "not finished: {body}");

        player.play_to_the_end().await;
        while !spectator.finished() {
            spectator.recv().await;
        }

        let (last_page, steps) = whole_replay(&api, &code).await;
        assert_eq!(last_page["code"], code.as_str());
        assert!(last_page["setup"]["mission"] == "ce-c1m1");
        assert!(last_page["setup"].get("seed").is_none());
        assert_eq!(last_page["kind"], "siege");
        assert!(last_page["static_data"]["squares"].is_array());
        let total = last_page["total_steps"].as_u64().expect("total_steps");
        assert_eq!(steps.len() as u64, total);
        assert!(total > 25, "a whole game spans several pages: {total}");
        for (i, s) in steps.iter().enumerate() {
            assert_eq!(s["index"], i as u64);
        }
        assert!(steps[0]["command"].is_null() && steps[0]["seat"].is_null());

        // The spectator's final view, and every event it was sent after
        // the start (the start's events came inside its snapshot).
        let last: GameView =
            serde_json::from_value(steps[steps.len() - 1]["view"].clone()).expect("a view");
        assert_eq!(Some(&last), spectator.view.as_deref());
        let events: Vec<SeqEvent> = steps
            .iter()
            .flat_map(|s| s["events"].as_array().expect("events").clone())
            .map(|e| serde_json::from_value(e).expect("an event"))
            .collect();
        assert!(events
            .iter()
            .enumerate()
            .all(|(i, e)| e.seq == i as u64 + 1));
        assert_eq!(
            steps[0]["events"].as_array().map(Vec::len),
            Some(start_seq as usize)
        );
        assert_eq!(events[start_seq as usize..], spectator.events[..]);
        for e in &events {
            if let Ok(Event::CardsDealt { cards, .. }) = e.event.parse::<Event>() {
                assert!(cards.is_none(), "a replay shows no dealt cards");
            }
        }

        // A small page from the middle.
        let (_, page) = api
            .get(&format!("/api/games/{code}/replay?from=1&count=2"), None)
            .await;
        assert_eq!(page["steps"].as_array().map(Vec::len), Some(2));
        assert_eq!(page["steps"][0], steps[1]);

        // The finished game is in the player's games, with its result.
        let (_, me) = api.me(Some(&token)).await;
        let g = &me["games"][0];
        assert_eq!(g["code"], code.as_str());
        assert!(g["finished_at"].is_i64() && g["started_at"].is_i64());
        assert!(g["result"].is_object(), "{g}");
        server.shutdown().await;
    })
    .await;
}

/// Issue 31, item 2: the games a guest played on a browser join the
/// account that logs in there: `POST /api/me/claim` links each seat whose
/// token the browser holds, and nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guests_seats_join_the_account_by_their_tokens() {
    within(async {
        let server = server().await;
        let addr = server.addr();
        let api = Api::new(addr);
        let played = api.create_game().await;
        let someone_elses = api.create_game().await;
        // A guest's seat and its token, from the welcome.
        let seat_of = |code: String, name: &'static str| async move {
            let mut c = Client::connect(addr).await;
            c.hello(&code, Join::Player { name: name.into() }, None)
                .await;
            match c.wait_for(|m| matches!(m, ServerMsg::Welcome { .. })).await {
                ServerMsg::Welcome { token, .. } => (c, token.expect("a seat token")),
                _ => unreachable!("waited for a welcome"),
            }
        };
        let (_guest, seat_token) = seat_of(played.clone(), "G").await;
        let (_other, _) = seat_of(someone_elses.clone(), "O").await;
        // The lobby (with the seat's token hash) is stored before `welcome`.
        let (_, token) = api.account("Claimer").await;
        let claim = json!({"games": [
            {"code": played.to_lowercase(), "token": seat_token},
            {"code": someone_elses, "token": "not its token"},
            {"code": "ZZZZZZ", "token": "no such game"},
        ]});
        let (status, body) = api.post("/api/me/claim", &claim, Some(&token)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["linked"], 1);
        let (_, me) = api.me(Some(&token)).await;
        let codes: Vec<&str> = me["games"]
            .as_array()
            .expect("games")
            .iter()
            .filter_map(|g| g["code"].as_str())
            .collect();
        assert_eq!(codes, [played.as_str()]);
        // Claiming again changes nothing; without a session it is 401; too
        // many seats at once is 400.
        let (_, again) = api.post("/api/me/claim", &claim, Some(&token)).await;
        assert_eq!(again["linked"], 1);
        let (status, _) = api.post("/api/me/claim", &claim, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let many: Vec<Value> = (0..201)
            .map(|_| json!({"code": "ZZZZZZ", "token": "x"}))
            .collect();
        let (status, _) = api
            .post("/api/me/claim", &json!({ "games": many }), Some(&token))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        server.shutdown().await;
    })
    .await;
}
