//! Versioned records: the restore policy across a change of rules
//! (docs/STORAGE.md, "Rules versions").
//!
//! Two games are played into a SQLite file on the current rules. A server
//! on the same rules resumes both. Then one game's last stored checksum is
//! changed — what an older engine that computed another state would have
//! left — and a server on "newer" rules (the engine version bumped, as
//! the server's config allows in tests) starts on the file: the game whose
//! checksums still match continues, now recorded under the new rules; the
//! other is closed as outdated, with a record, a message to its players
//! and a replay that still plays up to where it diverged.

#![allow(clippy::unwrap_used)]

mod common;
use citadel_protocol::{close, ClientMsg, Join, ServerMsg};
use citadel_rules::game::Seat;
use citadel_rules::seam::DarkLegionChoice;
use citadel_rules::summary::GameSummary;
use citadel_rules::RulesVersion;
use citadel_server::outcome::OUTDATED_MESSAGE;
use citadel_server::persistence::{GameStore, NewGame};
use citadel_server::session::{Hello, Input, Session, SessionConfig};
use citadel_server::Server;
use citadel_store::Store;
use common::GameOptions;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const STEP: Duration = Duration::from_secs(10);

/// Play a 1-player game against the AI Dark Legion for `moves` of the
/// player's commands, storing every batch as the server does. The player's
/// seat token is `token`.
async fn play(games: &GameStore, code: &str, seed: u64, token: &str, moves: usize) {
    let options = GameOptions {
        mission: "ce-c1m1".into(),
        seats: 1,
        dark_legion: DarkLegionChoice::Ai,
        starting_rank: 1,
        turn_seconds: None,
    };
    let config = SessionConfig {
        grace_ms: 60_000,
        bot_delay_ms: 0,
        max_bot_steps: 10_000,
    };
    let table = options.table();
    let mut s = Session::<citadel_rules::game::Game>::new(code.into(), table.clone(), seed, config)
        .expect("options")
        .with_bots(citadel_bots::seat_bot);
    let lobby = s.lobby_document();
    let new = NewGame {
        code,
        options: &table,
        kind: "siege",
        seed,
        lobby: &lobby,
        started: None,
        campaign: None,
    };
    games.create(new).await.unwrap();
    let hello = Input::Hello(Hello {
        conn: 1,
        join: Join::Player { name: "Ann".into() },
        last_seq: None,
        fresh_token: token.into(),
        account: None,
    });
    let mut inputs = std::collections::VecDeque::from([
        hello,
        Input::Message {
            conn: 1,
            msg: ClientMsg::Ready { ready: true },
        },
        Input::Message {
            conn: 1,
            msg: ClientMsg::Start,
        },
    ]);
    let mut sent = 0;
    let mut now = 0;
    while sent < moves {
        let input = match inputs.pop_front() {
            Some(i) => i,
            None => {
                let game = s.game().expect("started");
                assert!(!game.is_finished(), "the game ends too soon");
                if game.seat_to_act() == Some(Seat(0)) {
                    sent += 1;
                    Input::Message {
                        conn: 1,
                        msg: ClientMsg::Command {
                            client_ref: None,
                            command: citadel_protocol::Json::of(&game.legal(Seat(0))[0]),
                        },
                    }
                } else {
                    now += 1;
                    Input::Tick
                }
            }
        };
        let out = s.handle(input, now);
        games.persist(code, &out).await.unwrap();
    }
}

/// What a socket that says hello with `token` is told first: a snapshot
/// (the game resumed) or a close (code, reason).
async fn resume(addr: std::net::SocketAddr, code: &str, token: &str) -> Result<(), (u16, String)> {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .unwrap();
    let hello = ClientMsg::Hello {
        protocol: citadel_protocol::PROTOCOL_VERSION,
        game: code.into(),
        join: Join::Resume {
            token: token.into(),
        },
        last_seq: None,
        account: None,
    };
    let text = serde_json::to_string(&hello).unwrap();
    ws.send(Message::text(text)).await.unwrap();
    loop {
        let msg = tokio::time::timeout(STEP, ws.next())
            .await
            .expect("an answer in time");
        match msg {
            Some(Ok(Message::Text(t))) => {
                if let Ok(ServerMsg::Snapshot { .. }) = serde_json::from_str(t.as_str()) {
                    return Ok(());
                }
            }
            Some(Ok(Message::Close(frame))) => {
                let frame = frame.expect("a close frame");
                return Err((u16::from(frame.code), frame.reason.to_string()));
            }
            Some(Ok(_)) => {}
            other => panic!("socket ended without a close: {other:?}"),
        }
    }
}

async fn server(url: &str, rules: RulesVersion) -> Server {
    let mut config = citadel::config_for_tests();
    config.database_url = url.into();
    config.rules = Some(rules);
    Server::start(config).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_rules_resume_and_other_rules_check_the_checksums() {
    let dir = std::env::temp_dir().join(format!(
        "citadel-records-{}-{}",
        std::process::id(),
        citadel_server::clock::wall_clock_ms()
    ));
    let url = format!("sqlite://{}", dir.join("citadel.db").display());
    let store: Arc<dyn Store> = citadel_store::open(&url).await.unwrap();
    let now_rules = citadel_rules::version::current_rules();
    let games = GameStore::with_rules(
        Arc::clone(&store),
        citadel::catalogue().clone(),
        Some(now_rules.clone()),
    );
    play(&games, "KEEPGO", 11, "token-keep", 6).await;
    play(&games, "BROKEN", 12, "token-broken", 6).await;

    // Stored with the rules they were made on, and checksums with them.
    for code in ["KEEPGO", "BROKEN"] {
        let g = store.game(code).await.unwrap().unwrap();
        assert_eq!(g.engine_version, i64::from(now_rules.engine));
        assert_eq!(g.content_hash, now_rules.content);
        let commands = store.commands(code).await.unwrap();
        let sums = commands.iter().filter(|c| c.checksum.is_some()).count();
        assert!(sums >= 3, "{code}: {sums} checksums in {}", commands.len());
        assert!(
            commands.last().unwrap().checksum.is_some(),
            "a batch ends last"
        );
    }

    // Same rules: both resume as they are.
    let same = server(&url, now_rules.clone()).await;
    assert_eq!(resume(same.addr(), "KEEPGO", "token-keep").await, Ok(()));
    assert_eq!(resume(same.addr(), "BROKEN", "token-broken").await, Ok(()));
    same.shutdown().await;

    // An older engine left another state behind for BROKEN's last batch.
    let sql = citadel_store::SqlStore::connect(&url).await.unwrap();
    let broken = store.commands("BROKEN").await.unwrap();
    let last_checked = broken.iter().rev().find(|c| c.checksum.is_some()).unwrap();
    let earlier_checked = broken[..last_checked.index as usize]
        .iter()
        .rev()
        .find(|c| c.checksum.is_some())
        .map_or(0, |c| c.index + 1);
    sqlx::query("UPDATE commands SET checksum = 'not this state' WHERE code = $1 AND idx = $2")
        .bind("BROKEN")
        .bind(last_checked.index)
        .execute(sql.writer())
        .await
        .unwrap();
    sql.close().await;

    // Newer rules.
    let newer = RulesVersion {
        engine: now_rules.engine + 1,
        content: now_rules.content.clone(),
    };
    let next = server(&url, newer.clone()).await;

    // The game that replays identically continues, on the new rules.
    assert_eq!(resume(next.addr(), "KEEPGO", "token-keep").await, Ok(()));
    let kept = store.game("KEEPGO").await.unwrap().unwrap();
    assert_eq!(kept.engine_version, i64::from(newer.engine));
    assert_eq!(kept.finished_at, None);

    // The one that diverges is closed: a record...
    let closed = store.game("BROKEN").await.unwrap().unwrap();
    assert!(closed.finished_at.is_some(), "recorded as finished");
    let summary: GameSummary = serde_json::from_str(&closed.result.unwrap()).unwrap();
    let why = summary.outdated.expect("recorded as outdated");
    assert!(
        why.contains(&format!("command {}", last_checked.index)),
        "{why}"
    );
    assert_eq!(summary.result, None);
    // ... its players are told why ...
    let told = resume(next.addr(), "BROKEN", "token-broken").await;
    assert_eq!(told, Err((close::OUTDATED, OUTDATED_MESSAGE.to_string())));
    // ... and its replay still plays, up to the last state that matched.
    let http = reqwest::Client::new();
    let base = format!("http://{}/api/games", next.addr());
    let replay: serde_json::Value = http
        .get(format!("{base}/BROKEN/replay"))
        .send()
        .await
        .unwrap()
        .error_for_status()
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(replay["total_steps"], earlier_checked + 1);
    assert!(earlier_checked > 0, "an earlier batch matched");
    let steps = replay["steps"].as_array().unwrap();
    assert_eq!(steps.len() as i64, earlier_checked + 1);
    assert_eq!(steps[0]["index"], 0);
    assert!(steps[1]["command"].is_object(), "{}", steps[1]);
    assert!(steps.last().unwrap()["view"].is_object());
    let note = replay["outdated"].as_str().unwrap();
    assert!(note.starts_with(OUTDATED_MESSAGE), "{note}");
    assert!(
        replay["setup"].get("seed").is_none(),
        "the seed stays secret"
    );
    // A second page comes from the kept replay as well.
    let page: serde_json::Value = http
        .get(format!("{base}/BROKEN/replay?from=1&count=1"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(page["from"], 1);
    assert_eq!(page["steps"][0], steps[1]);
    // The game that continues has no replay yet.
    let live = http
        .get(format!("{base}/KEEPGO/replay"))
        .send()
        .await
        .unwrap();
    assert_eq!(live.status(), reqwest::StatusCode::CONFLICT);

    next.shutdown().await;
    // A third start on the newer rules: nothing more to check or close.
    let again = server(&url, newer).await;
    assert_eq!(resume(again.addr(), "KEEPGO", "token-keep").await, Ok(()));
    let told = resume(again.addr(), "BROKEN", "token-broken").await;
    assert_eq!(told.map_err(|(code, _)| code), Err(close::OUTDATED));
    again.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record from before rules versions (engine 0, no checksums) of a game
/// against the AI Dark Legion cannot be checked — its AI deck drew from
/// chance the game no longer keeps — so it is closed as outdated rather
/// than resumed as a possibly different game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_ai_dark_legion_game_is_closed_not_guessed() {
    let dir = std::env::temp_dir().join(format!(
        "citadel-legacy-{}-{}",
        std::process::id(),
        citadel_server::clock::wall_clock_ms()
    ));
    let url = format!("sqlite://{}", dir.join("citadel.db").display());
    let store: Arc<dyn Store> = citadel_store::open(&url).await.unwrap();
    let rules = citadel_rules::version::current_rules();
    let games = GameStore::with_rules(
        Arc::clone(&store),
        citadel::catalogue().clone(),
        Some(rules.clone()),
    );
    play(&games, "OLDAIG", 13, "token-old", 4).await;

    // What a server from before rules versions left behind.
    let sql = citadel_store::SqlStore::connect(&url).await.unwrap();
    sqlx::query("UPDATE games SET engine_version = $1, content_hash = $2 WHERE code = $3")
        .bind(citadel_store::LEGACY_ENGINE_VERSION)
        .bind(citadel_store::LEGACY_CONTENT_HASH)
        .bind("OLDAIG")
        .execute(sql.writer())
        .await
        .unwrap();
    sqlx::query("UPDATE commands SET checksum = NULL WHERE code = $1")
        .bind("OLDAIG")
        .execute(sql.writer())
        .await
        .unwrap();
    sql.close().await;
    assert!(store.game("OLDAIG").await.unwrap().unwrap().is_legacy());

    let next = server(&url, rules).await;
    let told = resume(next.addr(), "OLDAIG", "token-old").await;
    assert_eq!(told, Err((close::OUTDATED, OUTDATED_MESSAGE.to_string())));
    let closed = store.game("OLDAIG").await.unwrap().unwrap();
    assert!(closed.finished_at.is_some(), "recorded as finished");
    let summary: GameSummary = serde_json::from_str(&closed.result.unwrap()).unwrap();
    let why = summary.outdated.expect("recorded as outdated");
    assert!(why.contains("AI Dark Legion"), "{why}");
    next.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}
