//! End-to-end campaign test: a real server on a SQLite file, the campaign
//! HTTP API, and bot clients playing each mission over WebSockets with
//! their campaign tokens — with a server restart between the missions.

mod common;
use common::{Ws, STEP};

use citadel_game::CampaignRefusal;
use citadel_protocol::{view_patch, ClientMsg, Join, ServerMsg, PROTOCOL_VERSION};
use citadel_rules::content::Corporation;
use citadel_rules::game::{Command, Event, GameView, Seat};
use citadel_server::campaign_ledger::CampaignLedger;
use citadel_server::Server;
use citadel_siege_campaign::rules::{
    CampaignChoice, CampaignDoc, CampaignTerms, DarkLegionMode, EconomyKind,
};
use citadel_store::{GameRecord, Store};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The longest the whole test may take.
const TEST_LIMIT: Duration = Duration::from_secs(240);
/// More commands than any C1M1 game needs with the test policy.
const MAX_COMMANDS: usize = 20_000;

// ---------------------------------------------------------------- server

/// A SQLite file in a fresh temporary directory, removed on drop.
struct TempDb {
    dir: PathBuf,
}

impl TempDb {
    fn new() -> TempDb {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir =
            std::env::temp_dir().join(format!("citadel-campaign-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDb { dir }
    }

    fn url(&self) -> String {
        format!("sqlite://{}", self.dir.join("citadel.db").display())
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn server(db: &TempDb) -> Server {
    let mut config = citadel::config_for_tests();
    config.database_url = db.url();
    // Nobody is replaced by a bot while the test's clients connect.
    config.grace_secs = 60;
    Server::start(config).await.expect("server starts")
}

// ---------------------------------------------------------------- HTTP

async fn post(addr: SocketAddr, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut req = reqwest::Client::new()
        .post(format!("http://{addr}{path}"))
        .json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().await.expect("POST");
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

async fn standings(addr: SocketAddr, code: &str) -> Value {
    let resp = reqwest::get(format!("http://{addr}/api/campaigns/{code}"))
        .await
        .expect("GET campaign");
    assert_eq!(resp.status().as_u16(), 200);
    resp.json().await.expect("json")
}

fn pps(standings: &Value) -> Vec<i64> {
    standings["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["pp"].as_i64().expect("pp"))
        .collect()
}

// ---------------------------------------------------------------- client

/// A small typed client: what it needs to play and to read the end.
struct Client {
    label: String,
    ws: Ws,
    seat: Option<u8>,
    view: Option<Box<GameView>>,
    legal: Vec<Command>,
    ended: bool,
    commands_sent: usize,
}

impl Client {
    async fn join(addr: SocketAddr, game: &str, join: Join, label: &str) -> Client {
        let (ws, _) = tokio::time::timeout(
            STEP,
            tokio_tungstenite::connect_async(format!("ws://{addr}/ws")),
        )
        .await
        .expect("connect in time")
        .expect("websocket handshake");
        let mut c = Client {
            label: label.to_string(),
            ws,
            seat: None,
            view: None,
            legal: Vec::new(),
            ended: false,
            commands_sent: 0,
        };
        c.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            game: game.into(),
            join,
            last_seq: None,
            account: None,
        })
        .await;
        // Welcome, then (the game has started) a snapshot.
        while c.view.is_none() {
            c.recv().await;
        }
        c
    }

    async fn send(&mut self, msg: &ClientMsg) {
        common::send_json(&mut self.ws, &self.label, msg).await;
    }

    async fn recv(&mut self) -> ServerMsg {
        let t = match common::next_text(&mut self.ws, &self.label).await {
            Ok(t) => t,
            Err(code) => panic!("{}: connection ended (close code {code:?})", self.label),
        };
        let msg: ServerMsg = serde_json::from_str(&t)
            .unwrap_or_else(|e| panic!("{}: not a ServerMsg: {e}", self.label));
        self.absorb(&msg);
        msg
    }

    fn absorb(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::Welcome { seat, .. } => self.seat = *seat,
            ServerMsg::Snapshot { view, legal, .. } => {
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
                if events
                    .iter()
                    .any(|e| matches!(e.event.parse::<Event>(), Ok(Event::MissionEnded { .. })))
                {
                    self.ended = true;
                }
                let next = view_patch::next_view(
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

    fn view(&self) -> &GameView {
        self.view.as_deref().expect("a view")
    }

    /// Send a command from the legal list and read until its ack.
    async fn play(&mut self, client_ref: u64, command: Command) {
        self.commands_sent += 1;
        self.send(&ClientMsg::Command {
            client_ref: Some(client_ref),
            command: citadel_protocol::Json::of(&command),
        })
        .await;
        loop {
            match self.recv().await {
                ServerMsg::Ack { client_ref: r, .. } if r == Some(client_ref) => {
                    // The command's events (and the new legal list) follow
                    // the ack in the same batch.
                    while !matches!(self.recv().await, ServerMsg::Events { .. }) {}
                    return;
                }
                m @ (ServerMsg::Rejected { .. } | ServerMsg::Error { .. }) => {
                    panic!("{}: {command:?} from its legal list: {m:?}", self.label)
                }
                _ => {}
            }
        }
    }
}

/// From the legal list: on its turn up to four random actions, then
/// `end_turn`; any other decision a random legal answer.
async fn autoplay(mut c: Client, seed: u64) -> Client {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut actions = 0;
    let mut next_ref = 1;
    while !c.ended {
        if c.legal.is_empty() {
            c.recv().await;
            continue;
        }
        assert!(c.commands_sent < MAX_COMMANDS, "{}: no end", c.label);
        let legal = &c.legal;
        let command = if legal.contains(&Command::EndTurn) {
            let others: Vec<&Command> = legal.iter().filter(|k| **k != Command::EndTurn).collect();
            if actions < 4 && !others.is_empty() && rng.gen_bool(0.6) {
                actions += 1;
                others[rng.gen_range(0..others.len())].clone()
            } else {
                actions = 0;
                Command::EndTurn
            }
        } else {
            legal[rng.gen_range(0..legal.len())].clone()
        };
        c.play(next_ref, command).await;
        next_ref += 1;
    }
    c
}

async fn watch(mut c: Client) -> Client {
    while !c.ended {
        c.recv().await;
    }
    c
}

/// Start the next mission as `token`'s player, play it out with both
/// players resuming with their campaign tokens, and return the
/// spectator's final view and the DL seat.
async fn play_mission(
    addr: SocketAddr,
    campaign: &str,
    tokens: &[String],
    standings_before: &[i64],
    mission: &str,
    seed: u64,
) -> (GameView, Option<Seat>, String) {
    let (status, next) = post(
        addr,
        &format!("/api/campaigns/{campaign}/next"),
        Some(&tokens[0]),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{next}");
    let game = next["game"].as_str().expect("game code").to_string();
    assert_eq!(next["mission"], mission, "CMP-5: the listed mission");

    // A second `next` while the mission is in play is a conflict.
    let (status, _) = post(
        addr,
        &format!("/api/campaigns/{campaign}/next"),
        Some(&tokens[1]),
        json!({}),
    )
    .await;
    assert_eq!(status, 409);

    let spectator = Client::join(
        addr,
        &game,
        Join::Spectator { name: "Eve".into() },
        "spectator",
    )
    .await;
    // CMP-3: the mission starts from the campaign standings, the DL
    // player's seat included.
    let start = spectator.view();
    let dl_seat = start.dark_legion.seat;
    assert_eq!(
        dl_seat.map(|s| usize::from(s.0)),
        next["dark_legion"].as_u64().map(|d| d as usize)
    );
    for (i, pp) in standings_before.iter().enumerate() {
        let at_start = match dl_seat {
            Some(s) if usize::from(s.0) == i => start.dark_legion.pp,
            _ => {
                start
                    .teams
                    .iter()
                    .find(|t| usize::from(t.seat.0) == i)
                    .expect("a team")
                    .pp
            }
        };
        assert_eq!(i64::from(at_start), *pp, "player {i}'s starting PP");
    }

    let mut players = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let c = Client::join(
            addr,
            &game,
            Join::Resume {
                token: token.clone(),
            },
            &format!("player{i}"),
        )
        .await;
        assert_eq!(c.seat, Some(i as u8), "the campaign token resumes its seat");
        players.push(c);
    }
    let watcher = tokio::spawn(watch(spectator));
    let tasks: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, c)| tokio::spawn(autoplay(c, seed + i as u64)))
        .collect();
    for t in tasks {
        t.await.expect("player task");
    }
    let spectator = watcher.await.expect("spectator task");
    (spectator.view().clone(), dl_seat, game)
}

/// Each player's PP at the end of a mission, from the spectator's view.
fn final_pp(view: &GameView, players: usize) -> Vec<i64> {
    (0..players)
        .map(|i| {
            let pp = match view.dark_legion.seat {
                Some(s) if usize::from(s.0) == i => view.dark_legion.pp,
                _ => {
                    view.teams
                        .iter()
                        .find(|t| usize::from(t.seat.0) == i)
                        .expect("a team")
                        .pp
                }
            };
            i64::from(pp.max(0))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_player_campaign_survives_a_restart_and_ends_with_scr3_winners() {
    tokio::time::timeout(TEST_LIMIT, campaign_body())
        .await
        .expect("the test finished in time");
}

async fn campaign_body() {
    let db = TempDb::new();
    let first = server(&db).await;
    let addr = first.addr();

    // Create: 2 players, 2 missions, a rotating DL, R0 = 2 (CMP-1).
    let (status, created) = post(
        addr,
        "/api/campaigns",
        None,
        json!({ "name": "Test campaign", "players": 2, "missions": 2, "campaign": "c1",
                "starting_rank": 2, "dark_legion": "rotate" }),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let code = created["code"].as_str().expect("code").to_string();
    assert!(created["id"].is_string());

    // A bad campaign is refused.
    let (status, _) = post(
        addr,
        "/api/campaigns",
        None,
        json!({ "name": "Solo", "players": 1, "missions": 2, "dark_legion": "rotate" }),
    )
    .await;
    assert_eq!(status, 400);

    // Join: distinct corporations; `next` needs everyone.
    let join = |name: &str, corp: &str| {
        let path = format!("/api/campaigns/{code}/join");
        let body = json!({ "name": name, "corporation": corp });
        async move { post(addr, &path, None, body).await }
    };
    let (status, ann) = join("Ann", "bauhaus").await;
    assert_eq!(status, 200, "{ann}");
    assert_eq!(ann["player"], 0);
    let ann_token = ann["token"].as_str().expect("token").to_string();
    let (status, _) = post(
        addr,
        &format!("/api/campaigns/{code}/next"),
        Some(&ann_token),
        json!({}),
    )
    .await;
    assert_eq!(status, 409, "not every player joined");
    let (status, _) = join("Bob", "bauhaus").await;
    assert_eq!(status, 409, "a corporation is fixed to one player");
    let (status, bob) = join("Bob", "capitol").await;
    assert_eq!(status, 200);
    let bob_token = bob["token"].as_str().expect("token").to_string();
    let (status, _) = join("Cid", "mishima").await;
    assert_eq!(status, 409, "the campaign is full");
    let (status, _) = post(
        addr,
        &format!("/api/campaigns/{code}/next"),
        None,
        json!({}),
    )
    .await;
    assert_eq!(status, 401);
    let (status, _) = post(
        addr,
        &format!("/api/campaigns/{code}/next"),
        Some("not-a-token"),
        json!({}),
    )
    .await;
    assert_eq!(status, 401);

    let s = standings(addr, &code).await;
    assert_eq!(pps(&s), [10, 10], "CMP-1: 10·(R0−1)");
    // CMP-1, CMP-5: Campaign 1's first two missions, in record order.
    assert_eq!(s["campaign"], "c1");
    let order: Vec<String> = s["order"]
        .as_array()
        .expect("order")
        .iter()
        .map(|m| m["mission"].as_str().expect("id").to_string())
        .collect();
    assert_eq!(order, ["ce-c1m1", "ce-c1m2"]);
    assert_eq!(s["next_mission"]["id"], "ce-c1m1");
    assert_eq!(s["next_mission"]["index"], 0);
    assert_eq!(s["next_mission"]["name"], "Battle Plans");
    assert_eq!(s["next_mission"]["playable"], true);
    assert!(s["next_mission"]["rewards"]["success"].is_i64());
    assert!(s["players"]
        .as_array()
        .expect("players")
        .iter()
        .all(|p| p["rank"] == 2));
    let tokens = [ann_token, bob_token];

    // Mission 1.
    let (end1, dl1, game1) = play_mission(addr, &code, &tokens, &[10, 10], "ce-c1m1", 100).await;
    let dl1 = usize::from(dl1.expect("a DL player").0);
    let after1 = final_pp(&end1, 2);
    let s = standings(addr, &code).await;
    assert_eq!(pps(&s), after1, "CMP-3: standings = the mission's final PP");
    assert_eq!(s["history"].as_array().expect("history").len(), 1);
    assert_eq!(s["history"][0]["game"], game1.as_str());
    assert_eq!(s["history"][0]["dark_legion"], dl1);
    assert_eq!(s["players"][dl1]["times_dl"], 1);
    assert!(s["current_game"].is_null());
    assert_eq!(s["finished"], false);
    // CMP-3: the outcome is kept for later missions (D40).
    assert_eq!(s["outcomes"][0]["mission"], "ce-c1m1");
    assert_eq!(
        s["outcomes"][0]["completed"],
        s["history"][0]["result"] == "success"
    );
    for p in s["players"].as_array().expect("players") {
        let pp = p["pp"].as_i64().expect("pp");
        assert_eq!(p["rank"].as_i64(), Some((1 + pp / 10).min(12)), "RNK-1");
    }

    // Restart the server on the same database between the missions.
    first.shutdown().await;
    let second = server(&db).await;
    let addr = second.addr();
    let s = standings(addr, &code).await;
    assert_eq!(pps(&s), after1, "the standings survive a restart");

    // CMP-5: mission 2 is C1M2 whatever mission 1's outcome, and never
    // C1M1 again in its place. While the engine cannot play C1M2 the
    // campaign says so and waits.
    let next = &s["next_mission"];
    assert_eq!(next["id"], "ce-c1m2");
    assert_eq!(next["index"], 1);
    let (status, wrong) = post(
        addr,
        &format!("/api/campaigns/{code}/next"),
        Some(&tokens[0]),
        json!({ "mission": "ce-c1m1" }),
    )
    .await;
    assert_eq!(status, 409, "no other mission in C1M2's place: {wrong}");
    if next["playable"] == false {
        assert!(!next["missing"].as_array().expect("missing").is_empty());
        let (status, refused) = post(
            addr,
            &format!("/api/campaigns/{code}/next"),
            Some(&tokens[0]),
            json!({}),
        )
        .await;
        assert_eq!(status, 409, "{refused}");
        let message = refused["message"].as_str().expect("message");
        assert!(
            message.contains("ce-c1m2") && message.contains("not playable"),
            "{message}"
        );
        assert_eq!(standings(addr, &code).await["current_game"], Value::Null);
        second.shutdown().await;
        return;
    }

    // Mission 2: CMP-2 makes the other player the DL.
    let (end2, dl2, _) = play_mission(addr, &code, &tokens, &after1, "ce-c1m2", 200).await;
    let dl2 = usize::from(dl2.expect("a DL player").0);
    assert_eq!(dl2, 1 - dl1, "CMP-2: the player who was not DL yet");
    let after2 = final_pp(&end2, 2);
    let s = standings(addr, &code).await;
    assert_eq!(pps(&s), after2);
    let history = s["history"].as_array().expect("history");
    assert_eq!(history.len(), 2);
    assert_eq!(history[1]["pp"][0]["before"], after1[0]);
    assert_eq!(history[1]["pp"][1]["after"], after2[1]);
    assert!(s["players"]
        .as_array()
        .expect("players")
        .iter()
        .all(|p| p["times_dl"] == 1));

    // CMP-6 / SCR-3: finished after M = 2; the highest PP win, ties joint.
    assert_eq!(s["finished"], true);
    let best = *after2.iter().max().expect("players");
    let expected: Vec<usize> = (0..2).filter(|&i| after2[i] == best).collect();
    let winners: Vec<usize> = s["winners"]
        .as_array()
        .expect("winners")
        .iter()
        .map(|w| w.as_u64().expect("index") as usize)
        .collect();
    assert_eq!(winners, expected);
    let (status, _) = post(
        addr,
        &format!("/api/campaigns/{code}/next"),
        Some(&tokens[0]),
        json!({}),
    )
    .await;
    assert_eq!(status, 409, "the campaign is finished");
    second.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn campaign_2_runs_its_own_missions_and_never_starts_another_in_place_of_its_first() {
    tokio::time::timeout(TEST_LIMIT, async {
        let db = TempDb::new();
        let server = server(&db).await;
        let addr = server.addr();
        // An unknown campaign is refused.
        let (status, _) = post(
            addr,
            "/api/campaigns",
            None,
            json!({ "name": "C3", "players": 1, "campaign": "c3", "dark_legion": "ai" }),
        )
        .await;
        assert!((400..500).contains(&status), "{status}");

        // Campaign 2 without M: its five missions, C2M1 first (CMP-1, CMP-5).
        let (status, created) = post(
            addr,
            "/api/campaigns",
            None,
            json!({ "name": "Second", "players": 1, "campaign": "c2", "dark_legion": "ai" }),
        )
        .await;
        assert_eq!(status, 201, "{created}");
        let code = created["code"].as_str().expect("code").to_string();
        let s = standings(addr, &code).await;
        assert_eq!(s["campaign"], "c2");
        assert_eq!(s["missions"], 5, "M defaults to the campaign's length");
        let order: Vec<&str> = s["order"]
            .as_array()
            .expect("order")
            .iter()
            .map(|m| m["mission"].as_str().expect("id"))
            .collect();
        assert_eq!(
            order,
            ["ce-c2m1", "ce-c2m2", "ce-c2m3", "ce-c2m4", "ce-c2m5"]
        );
        assert_eq!(s["next_mission"]["id"], "ce-c2m1");
        assert_eq!(s["outcomes"], json!([]));

        let (status, joined) = post(
            addr,
            &format!("/api/campaigns/{code}/join"),
            None,
            json!({ "name": "Ann", "corporation": "mishima" }),
        )
        .await;
        assert_eq!(status, 200, "{joined}");
        let token = joined["token"].as_str().expect("token").to_string();
        let (status, next) = post(
            addr,
            &format!("/api/campaigns/{code}/next"),
            Some(&token),
            json!({}),
        )
        .await;
        if s["next_mission"]["playable"] == true {
            assert_eq!(status, 200, "{next}");
            assert_eq!(next["mission"], "ce-c2m1");
        } else {
            // Named, never replaced by a playable mission.
            assert_eq!(status, 409, "{next}");
            let message = next["message"].as_str().expect("message");
            assert!(message.contains("ce-c2m1"), "{message}");
            for gap in s["next_mission"]["missing"].as_array().expect("missing") {
                let gap = gap.as_str().expect("text");
                assert!(message.contains(gap), "{message} names {gap}");
            }
            assert_eq!(standings(addr, &code).await["current_game"], Value::Null);
        }
        server.shutdown().await;
    })
    .await
    .expect("the test finished in time");
}

// ---------------------------------------------------------------- classic

/// Each player's credits in the standings (classic).
fn credits(standings: &Value) -> Vec<i64> {
    standings["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["credits"].as_i64().expect("credits"))
        .collect()
}

/// Each player's PP and credits at the start of a mission, from the
/// spectator's first view (the DL player's PP are the DL's; the DL player
/// has no team and so no credits in the game).
fn start_of(view: &GameView, players: usize) -> Vec<(i64, Option<i64>)> {
    (0..players)
        .map(|i| match view.dark_legion.seat {
            Some(s) if usize::from(s.0) == i => (i64::from(view.dark_legion.pp), None),
            _ => {
                let t = view
                    .teams
                    .iter()
                    .find(|t| usize::from(t.seat.0) == i)
                    .expect("a team");
                (i64::from(t.pp), Some(i64::from(t.credits)))
            }
        })
        .collect()
}

/// A classic mini-campaign over HTTP: created with the classic missions,
/// a credit bought (CEC-4) before mission 1, mission 1 played by bot
/// clients, and mission 2's setup starting from the standings' PP and
/// credits (CEC-1: the draft's checkout limit).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classic_campaign_carries_credits_and_pp_into_the_next_missions_setup() {
    tokio::time::timeout(TEST_LIMIT, classic_body())
        .await
        .expect("the test finished in time");
}

async fn classic_body() {
    let db = TempDb::new();
    let server = server(&db).await;
    let addr = server.addr();

    // Classic options are refused in a CE campaign, and classic ranks
    // stop at 6.
    for bad in [
        json!({ "name": "X", "players": 2, "campaign": "c1", "end": "first_to", "dark_legion": "rotate" }),
        json!({ "name": "X", "players": 2, "campaign": "both", "free_choice": true, "dark_legion": "rotate" }),
        json!({ "name": "X", "players": 2, "campaign": "classic", "starting_rank": 7, "dark_legion": "rotate" }),
        json!({ "name": "X", "players": 2, "campaign": "classic", "target_pp": 50, "dark_legion": "rotate" }),
        json!({ "name": "X", "players": 2, "campaign": "classic", "end": "first_to", "missions": 3, "dark_legion": "rotate" }),
    ] {
        let (status, body) = post(addr, "/api/campaigns", None, bad.clone()).await;
        assert_eq!(status, 400, "{bad} → {body}");
    }
    // "First to T" with the default T.
    let (status, created) = post(
        addr,
        "/api/campaigns",
        None,
        json!({ "name": "Long", "players": 2, "campaign": "classic", "end": "first_to",
                "dark_legion": "rotate" }),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let long = standings(addr, created["code"].as_str().expect("code")).await;
    assert_eq!(long["end"], "first_to");
    assert_eq!(long["target_pp"], 130);
    assert_eq!(long["order"].as_array().expect("order").len(), 10);

    // Free choice (CMP-5 classic): `next` names any of the ten missions;
    // not a CE one, nor the training mission.
    let (status, created) = post(
        addr,
        "/api/campaigns",
        None,
        json!({ "name": "Free", "players": 1, "campaign": "classic", "free_choice": true,
                "dark_legion": "ai" }),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let free = created["code"].as_str().expect("code").to_string();
    let (status, joined) = post(
        addr,
        &format!("/api/campaigns/{free}/join"),
        None,
        json!({ "name": "Solo", "corporation": "imperial" }),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let solo = joined["token"].as_str().expect("token").to_string();
    let s = standings(addr, &free).await;
    assert_eq!(s["free_choice"], true);
    let choices: Vec<&str> = s["choices"]
        .as_array()
        .expect("choices")
        .iter()
        .map(|m| m["mission"].as_str().expect("id"))
        .collect();
    assert_eq!(choices.len(), 10);
    assert_eq!(choices[2], "classic-m3");
    for other in ["ce-c1m1", "classic-training"] {
        let (status, refused) = post(
            addr,
            &format!("/api/campaigns/{free}/next"),
            Some(&solo),
            json!({ "mission": other }),
        )
        .await;
        assert_eq!(status, 409, "{other}: {refused}");
    }
    let (status, started) = post(
        addr,
        &format!("/api/campaigns/{free}/next"),
        Some(&solo),
        json!({ "mission": "classic-m3" }),
    )
    .await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(
        started["mission"], "classic-m3",
        "not the listed classic-m1"
    );

    // A mini-campaign of 2 missions at R0 = 2 (10 PP).
    let (status, created) = post(
        addr,
        "/api/campaigns",
        None,
        json!({ "name": "Mini", "players": 2, "campaign": "classic", "missions": 2,
                "starting_rank": 2, "dark_legion": "rotate" }),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let code = created["code"].as_str().expect("code").to_string();
    let mut tokens = Vec::new();
    for (name, corp) in [("Ann", "bauhaus"), ("Bob", "capitol")] {
        let (status, joined) = post(
            addr,
            &format!("/api/campaigns/{code}/join"),
            None,
            json!({ "name": name, "corporation": corp }),
        )
        .await;
        assert_eq!(status, 200, "{joined}");
        tokens.push(joined["token"].as_str().expect("token").to_string());
    }
    let s = standings(addr, &code).await;
    assert_eq!(s["edition"], "classic");
    assert_eq!(s["end"], "missions");
    assert_eq!(s["missions"], 2);
    assert_eq!(s["choices"], json!([]), "missions in order");
    assert_eq!(pps(&s), [10, 10], "CRK-1: rank 2's lowest PP");
    assert_eq!(credits(&s), [2, 2], "CEC-1");
    assert_eq!(s["next_mission"]["id"], "classic-m1");
    assert_eq!(s["next_band"], 1, "CDL-1");
    assert!(s["players"]
        .as_array()
        .expect("players")
        .iter()
        .all(|p| p["rank"] == 2));

    // CEC-4: Ann buys a credit; once per mission.
    let credit = format!("/api/campaigns/{code}/credit");
    let (status, bought) = post(addr, &credit, Some(&tokens[0]), json!({})).await;
    assert_eq!(status, 200, "{bought}");
    assert_eq!(bought["pp"], 5);
    assert_eq!(bought["credits"], 3);
    assert_eq!(bought["rank"], 1, "CRK-2: the rank after the purchase");
    let (status, again) = post(addr, &credit, Some(&tokens[0]), json!({})).await;
    assert_eq!(status, 409);
    assert!(
        again["message"]
            .as_str()
            .is_some_and(|m| m.contains("already")),
        "{again}"
    );
    let (status, _) = post(addr, &credit, None, json!({})).await;
    assert_eq!(status, 401);
    let s = standings(addr, &code).await;
    assert_eq!(pps(&s), [5, 10]);
    assert_eq!(credits(&s), [3, 2]);
    assert_eq!(s["players"][0]["credit_bought"], true);
    assert_eq!(s["players"][1]["credit_bought"], false);
    // Bob buys too, leaving 5 PP; a second purchase for this mission is
    // refused whatever the PP.
    let (status, _) = post(addr, &credit, Some(&tokens[1]), json!({})).await;
    assert_eq!(status, 200);

    assert_eq!(s["next_mission"]["playable"], true, "{}", s["next_mission"]);
    // Mission 1: the setup has the bought credits and the PP after paying.
    let (end1, dl1, _) =
        play_classic_mission(addr, &code, &tokens, &[(5, 3), (5, 3)], "classic-m1", 300).await;
    let dl1 = usize::from(dl1.expect("a DL player").0);
    let s = standings(addr, &code).await;
    let history = &s["history"][0];
    assert_eq!(history["mission"], "classic-m1");
    // CEC-8 as applied: the credits the history shows are the standings'.
    let after: Vec<i64> = (0..2)
        .map(|i| history["credits"][i]["after"].as_i64().expect("credits"))
        .collect();
    assert_eq!(credits(&s), after);
    let before: Vec<i64> = (0..2)
        .map(|i| history["credits"][i]["before"].as_i64().expect("credits"))
        .collect();
    assert_eq!(before, [3, 3]);
    // The economy's steps account for every change of credits and PP
    // after the engine's end PP.
    let engine_pp = final_pp(&end1, 2);
    let mut credit_change = [0i64; 2];
    let mut pp_change = [0i64; 2];
    for step in history["economy"].as_array().into_iter().flatten() {
        let p = step["player"].as_u64().expect("player") as usize;
        credit_change[p] += step["credits"].as_i64().expect("credits");
        pp_change[p] += step["pp"].as_i64().expect("pp");
    }
    for i in 0..2 {
        assert_eq!(after[i], 3 + credit_change[i], "player {i}'s credits");
        assert_eq!(pps(&s)[i], engine_pp[i] + pp_change[i], "player {i}'s PP");
    }
    // CEC-2: a failure gives the DL player classic-m1's 2 credits.
    // The DL player has no team, so no loss: 3 credits, + 2 on a failure.
    let dl_gain = if history["result"] == "failure" { 2 } else { 0 };
    assert_eq!(after[dl1], 3 + dl_gain, "{history}");

    // Mission 2 starts from those PP and credits.
    let want: Vec<(i64, i64)> = pps(&s).into_iter().zip(credits(&s)).collect();
    let (status, next) = post(
        addr,
        &format!("/api/campaigns/{code}/next"),
        Some(&tokens[0]),
        json!({}),
    )
    .await;
    if s["next_mission"]["playable"] != true {
        assert_eq!(status, 409, "{next}");
        server.shutdown().await;
        return;
    }
    assert_eq!(status, 200, "{next}");
    assert_eq!(next["mission"], "classic-m2");
    let game = next["game"].as_str().expect("game");
    let spectator = Client::join(
        addr,
        game,
        Join::Spectator { name: "Eve".into() },
        "spectator",
    )
    .await;
    for (i, (pp, credits)) in start_of(spectator.view(), 2).into_iter().enumerate() {
        assert_eq!(pp, want[i].0, "player {i}'s PP carried");
        if let Some(c) = credits {
            assert_eq!(c, want[i].1, "player {i}'s credits carried");
        }
    }
    server.shutdown().await;
}

/// As [`play_mission`] for a classic mission: the spectator checks each
/// player's (PP, credits) at the start.
async fn play_classic_mission(
    addr: SocketAddr,
    campaign: &str,
    tokens: &[String],
    start: &[(i64, i64)],
    mission: &str,
    seed: u64,
) -> (GameView, Option<Seat>, String) {
    let (status, next) = post(
        addr,
        &format!("/api/campaigns/{campaign}/next"),
        Some(&tokens[0]),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{next}");
    assert_eq!(next["mission"], mission);
    let game = next["game"].as_str().expect("game code").to_string();
    // No credit is bought while the mission is in play.
    let (status, _) = post(
        addr,
        &format!("/api/campaigns/{campaign}/credit"),
        Some(&tokens[1]),
        json!({}),
    )
    .await;
    assert_eq!(status, 409);
    let spectator = Client::join(
        addr,
        &game,
        Join::Spectator { name: "Eve".into() },
        "spectator",
    )
    .await;
    let dl_seat = spectator.view().dark_legion.seat;
    for (i, (pp, credits)) in start_of(spectator.view(), tokens.len())
        .into_iter()
        .enumerate()
    {
        assert_eq!(pp, start[i].0, "player {i}'s starting PP");
        if let Some(c) = credits {
            assert_eq!(c, start[i].1, "player {i}'s credits");
        }
    }
    let mut players = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let c = Client::join(
            addr,
            &game,
            Join::Resume {
                token: token.clone(),
            },
            &format!("player{i}"),
        )
        .await;
        players.push(c);
    }
    let watcher = tokio::spawn(watch(spectator));
    let tasks: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, c)| tokio::spawn(autoplay(c, seed + i as u64)))
        .collect();
    for t in tasks {
        t.await.expect("player task");
    }
    let spectator = watcher.await.expect("spectator task");
    (spectator.view().clone(), dl_seat, game)
}

// ---------------------------------------------------------------- ledger

/// A classic mission's stored result folds into the stored campaign in
/// CEC-8 order when the campaign is next read (as after a restart between
/// the game's end and the campaign's update), once; and two nodes buying
/// the same player's credit at once buy it once (CEC-4 under optimistic
/// concurrency).
async fn classic_ledger_body(a: Arc<dyn Store>, b: Arc<dyn Store>) {
    let nodes = [
        Arc::new(CampaignLedger::new(
            Arc::clone(&a),
            citadel::catalogue().clone(),
        )),
        Arc::new(CampaignLedger::new(b, citadel::catalogue().clone())),
    ];
    let terms = CampaignTerms::new(
        "Ledger",
        3,
        3,
        2,
        DarkLegionMode::Rotate,
        CampaignChoice::Classic,
    );
    let doc = CampaignDoc::create_with(&terms).expect("valid");
    let doc = serde_json::to_value(&doc).expect("json");
    let record = nodes[0]
        .create("camp-classic".into(), "siege", "Ledger", &doc)
        .await
        .expect("stored");
    let code = record.code.clone();
    for (i, corp) in [
        Corporation::Bauhaus,
        Corporation::Capitol,
        Corporation::Mishima,
    ]
    .into_iter()
    .enumerate()
    {
        nodes[i % 2]
            .update(&code, |c| {
                c.edit(|d: &mut CampaignDoc| {
                    Ok(d.join(&format!("P{i}"), corp, format!("h{i}"), None)
                        .map_err(CampaignRefusal::from)?)
                })
            })
            .await
            .expect("joins");
    }
    // Both nodes buy player 1's credit at once: one buys it.
    let buys: Vec<_> = nodes
        .iter()
        .map(|n| {
            let (n, code) = (Arc::clone(n), code.clone());
            tokio::spawn(async move {
                n.update(&code, |c| {
                    c.edit(|d: &mut CampaignDoc| {
                        Ok(d.buy_credit(1).map_err(CampaignRefusal::from)?)
                    })
                })
                .await
            })
        })
        .collect();
    let mut bought = 0;
    for b in buys {
        match b.await.expect("task") {
            Ok(_) => bought += 1,
            Err(e) => assert!(e.to_string().contains("already"), "{e}"),
        }
    }
    assert_eq!(bought, 1);
    nodes[1]
        .update(&code, |c| {
            c.edit(|d: &mut CampaignDoc| {
                d.begin("GAMEC1", "classic-m1", Some(0));
                Ok(())
            })
        })
        .await
        .expect("begins");

    // The game's end is stored, the campaign not yet updated.
    let summary = json!({
        "result": "success", "dark_legion_seat": 0, "dark_legion_pp": 13,
        "teams": [
            { "seat": 1, "corporation": "capitol", "pp": 17,
              "end": { "eliminated": 1, "survivors": 1 } },
            { "seat": 2, "corporation": "mishima", "pp": 12,
              "end": { "eliminated": 2, "survivors": 0, "primary": false,
                       "secondary": { "completed": true, "credits": 2, "dl_credits": 0 } } }
        ]
    });
    a.create_game(&GameRecord {
        code: "GAMEC1".into(),
        options: "{}".into(),
        seed: 1,
        created_at: 1,
        lobby: "{}".into(),
        setup: None,
        started_at: Some(1),
        finished_at: None,
        result: None,
        campaign: Some(record.id.clone()),
        active_at: 1,
        abandoned_at: None,
        listed: false,
        engine_version: 1,
        content_hash: "0123456789abcdef0123456789abcdef".into(),
        kind: "siege".into(),
    })
    .await
    .expect("game stored");
    a.finish_game("GAMEC1", &summary.to_string(), 2)
        .await
        .expect("end stored");

    for node in &nodes {
        let c = node.load(&code).await.expect("loads");
        let d: CampaignDoc = c.typed().expect("siege's");
        assert!(d.current.is_none());
        assert_eq!(d.history.len(), 1, "applied once");
        // P1: 10 − 5 (the credit) → 17 in the game; 3 credits + 1
        // (classic-m1 success) − 1 (a DT lost).
        // P2: no primary credit, +2 from its secondary, then −2 for its two
        // DTs: its PP stay.
        let standing: Vec<(i32, i32)> = d.players.iter().map(|p| (p.pp, p.credits)).collect();
        assert_eq!(standing, [(13, 2), (17, 3), (12, 2)]);
        let steps: Vec<(usize, EconomyKind)> = d.history[0]
            .economy
            .iter()
            .map(|e| (e.player, e.step))
            .collect();
        assert_eq!(
            steps,
            [
                (1, EconomyKind::PrimarySuccess),
                (2, EconomyKind::SecondarySuccess),
                (1, EconomyKind::Loss),
                (2, EconomyKind::Loss),
            ]
        );
    }
    let rows = a.campaign_missions(&record.id).await.expect("history rows");
    assert_eq!(rows.len(), 1);
    let row: Value = serde_json::from_str(&rows[0].summary).expect("json");
    assert_eq!(
        row["entry"]["credits"][1],
        json!({ "before": 3, "after": 3 })
    );
    assert_eq!(row["entry"]["economy"][0]["step"], "primary_success");
    assert_eq!(row["standings"][1]["credits"], 3);

    // Mission 2's game is closed as outdated (made on other rules): the
    // campaign is freed, and nobody's PP or credits change.
    nodes[0]
        .update(&code, |c| {
            c.edit(|d: &mut CampaignDoc| {
                d.begin("GAMEC2", "classic-m2", Some(1));
                Ok(())
            })
        })
        .await
        .expect("begins");
    a.create_game(&GameRecord {
        code: "GAMEC2".into(),
        options: "{}".into(),
        seed: 2,
        created_at: 3,
        lobby: "{}".into(),
        setup: None,
        started_at: Some(3),
        finished_at: None,
        result: None,
        campaign: Some(record.id.clone()),
        active_at: 3,
        abandoned_at: None,
        listed: false,
        engine_version: 1,
        content_hash: "0123456789abcdef0123456789abcdef".into(),
        kind: "siege".into(),
    })
    .await
    .expect("game stored");
    let outdated = json!({ "dark_legion_pp": 0, "teams": [], "outdated": "made by other rules" });
    a.finish_game("GAMEC2", &outdated.to_string(), 4)
        .await
        .expect("end stored");
    let c = nodes[1].load(&code).await.expect("loads");
    let d: CampaignDoc = c.typed().expect("siege's");
    assert!(d.current.is_none(), "the campaign is free");
    assert_eq!(d.history.len(), 1);
    let standing: Vec<(i32, i32)> = d.players.iter().map(|p| (p.pp, p.credits)).collect();
    assert_eq!(standing, [(13, 2), (17, 3), (12, 2)]);
    assert_eq!(d.players[1].times_dl, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classic_results_fold_into_a_campaign_stored_in_sqlite() {
    let db = TempDb::new();
    let a = citadel_store::open(&db.url()).await.expect("opens");
    let b = citadel_store::open(&db.url()).await.expect("opens");
    common::within(TEST_LIMIT, classic_ledger_body(a, b)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classic_results_fold_into_a_campaign_stored_in_postgres() {
    common::pg::with_db("campaign_classic", TEST_LIMIT, |url| async move {
        let a = citadel_store::open(&url).await.expect("opens");
        let b = citadel_store::open(&url).await.expect("opens");
        classic_ledger_body(a, b).await;
    })
    .await;
}

/// The campaign service is the platform's and the rules are each game's:
/// a campaign names its game (`kind`, the catalogue's first when absent),
/// a game without campaign rules has none, and a step a game's rules do
/// not know is 404, not a guess.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn campaigns_are_each_games_own() {
    let db = TempDb::new();
    let server = server(&db).await;
    let addr = server.addr();
    let catalogue: Value = reqwest::get(format!("http://{addr}/api/catalogue"))
        .await
        .expect("GET")
        .json()
        .await
        .expect("json");
    let has = |id: &str| {
        catalogue
            .as_array()
            .and_then(|games| games.iter().find(|g| g["id"] == id))
            .map(|g| g["campaigns"].clone())
    };
    assert_eq!(has("siege"), Some(json!(true)));
    assert_eq!(has("neuroshima"), Some(json!(false)));

    let (status, body) = post(
        addr,
        "/api/campaigns",
        None,
        json!({ "kind": "neuroshima", "name": "Hex league", "players": 2 }),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("no campaigns"), "{body}");
    let (status, _) = post(
        addr,
        "/api/campaigns",
        None,
        json!({ "kind": "chess", "name": "x", "players": 2 }),
    )
    .await;
    assert_eq!(status, 400);

    // Siege's, named or not.
    let mut codes = Vec::new();
    for body in [
        json!({ "name": "Unnamed", "players": 1, "dark_legion": "ai" }),
        json!({ "kind": "siege", "name": "Named", "players": 1, "dark_legion": "ai" }),
    ] {
        let (status, created) = post(addr, "/api/campaigns", None, body).await;
        assert_eq!(status, 201, "{created}");
        let code = created["code"].as_str().expect("code").to_string();
        let s = standings(addr, &code).await;
        assert_eq!(s["kind"], "siege");
        assert_eq!(s["code"], code.as_str());
        codes.push(code);
    }
    let (status, joined) = post(
        addr,
        &format!("/api/campaigns/{}/join", codes[0]),
        None,
        json!({ "name": "Ann", "corporation": "bauhaus" }),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let token = joined["token"].as_str().expect("token").to_string();
    // A join without a name, or with a corporation that is not one, is
    // the request's fault.
    for body in [
        json!({ "corporation": "capitol" }),
        json!({ "name": "Bo", "corporation": "nobody" }),
    ] {
        let (status, _) = post(
            addr,
            &format!("/api/campaigns/{}/join", codes[1]),
            None,
            body,
        )
        .await;
        assert_eq!(status, 400);
    }
    let (status, _) = post(
        addr,
        &format!("/api/campaigns/{}/teleport", codes[0]),
        Some(&token),
        json!({}),
    )
    .await;
    assert_eq!(status, 404, "Siege's rules have no such step");
    // Siege's own step: a CE campaign has no credits (CEC-4 is classic).
    let (status, body) = post(
        addr,
        &format!("/api/campaigns/{}/credit", codes[0]),
        Some(&token),
        json!({}),
    )
    .await;
    assert_eq!(status, 409, "{body}");
    let (status, _) = post(
        addr,
        &format!("/api/campaigns/{}/credit", codes[0]),
        Some("not-a-player"),
        json!({}),
    )
    .await;
    assert_eq!(status, 401);
    server.shutdown().await;
}
