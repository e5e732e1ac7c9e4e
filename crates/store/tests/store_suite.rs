//! One behaviour suite for every store.
//!
//! Each behaviour is written once, as an async function over `&dyn Store`,
//! and the `suite!` macro runs it against:
//! - `mem::*`: the in-memory reference store;
//! - `sqlite::*`: a SQLite file in a fresh temporary directory;
//! - `postgres::*`: Postgres at `CITADEL_TEST_DATABASE_URL` (default
//!   `postgres://postgres@127.0.0.1:5432/test`), each test in a schema of
//!   its own that is dropped at the end, so runs can overlap.
//!
//! If Postgres cannot be reached its tests print a notice and pass, unless
//! `CITADEL_REQUIRE_ALL=1` (CI), where they fail.

#![allow(clippy::unwrap_used)]

use citadel_store::{
    AccountRecord, CampaignMission, CampaignRecord, CommandRecord, GameRecord, MemStore, Rated,
    RatingChange, RatingRecord, ReplayRecord, SessionRecord, SqlStore, Store, StoreError,
    LEGACY_CONTENT_HASH, LEGACY_ENGINE_VERSION,
};
use sqlx::{Connection, Executor, Row};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

// ---------------------------------------------------------------------------
// Records.

fn game(code: &str, created_at: i64) -> GameRecord {
    GameRecord {
        code: code.to_string(),
        options: r#"{"mission":"first","players":2}"#.to_string(),
        seed: 0xDEAD_BEEF_0000_0001,
        created_at,
        lobby: r#"{"seats":[]}"#.to_string(),
        setup: None,
        started_at: None,
        finished_at: None,
        result: None,
        campaign: None,
        engine_version: 7,
        content_hash: "0123456789abcdef0123456789abcdef".to_string(),
        kind: "siege".to_string(),
        active_at: created_at,
        abandoned_at: None,
        listed: false,
    }
}

fn cmd(code: &str, index: i64) -> CommandRecord {
    CommandRecord {
        code: code.to_string(),
        index,
        seat: (index % 4) as u8,
        command: format!(r#"{{"move":{index}}}"#),
        at: 1_000 + index,
        // Every third command ends a batch.
        checksum: (index % 3 == 2).then(|| format!("sum{index}")),
    }
}

fn account(id: &str, name: &str) -> AccountRecord {
    AccountRecord {
        id: id.to_string(),
        name: name.to_string(),
        password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1$salt${id}"),
        created_at: 5,
    }
}

fn campaign(id: &str, code: &str, created_at: i64) -> CampaignRecord {
    CampaignRecord {
        id: id.to_string(),
        code: code.to_string(),
        name: format!("Campaign {id}"),
        state: r#"{"next":0}"#.to_string(),
        created_at,
        finished_at: None,
        version: 0,
        kind: "siege".to_string(),
    }
}

fn mission(campaign: &str, index: i64) -> CampaignMission {
    CampaignMission {
        campaign: campaign.to_string(),
        index,
        game: format!("G{index}"),
        summary: format!(r#"{{"mission":{index}}}"#),
        at: 100 + index,
    }
}

fn is_conflict<T: std::fmt::Debug>(r: Result<T, StoreError>) -> bool {
    matches!(r, Err(StoreError::Conflict(_)))
}

fn is_not_found<T: std::fmt::Debug>(r: Result<T, StoreError>) -> bool {
    matches!(r, Err(StoreError::NotFound(_)))
}

fn codes(games: &[GameRecord]) -> Vec<&str> {
    games.iter().map(|g| g.code.as_str()).collect()
}

// ---------------------------------------------------------------------------
// Behaviours.

async fn game_create_and_get(s: &dyn Store) {
    let mut g = game("ABCD", 10);
    g.seed = u64::MAX - 7; // does not fit an i64: stored by bit pattern
    g.options = r#"{"name":"Sièg€ 🏰","quote":"it's"}"#.to_string();
    g.campaign = Some("camp-1".to_string());
    s.create_game(&g).await.unwrap();
    assert_eq!(s.game("ABCD").await.unwrap(), Some(g.clone()));
    assert_eq!(s.game("abcd").await.unwrap(), None, "codes are exact");
    assert_eq!(s.game("NONE").await.unwrap(), None);

    let mut z = game("ZERO", 11);
    z.seed = 0;
    s.create_game(&z).await.unwrap();
    assert_eq!(s.game("ZERO").await.unwrap().unwrap().seed, 0);
    let mut h = game("HIGH", 12);
    h.seed = 1 << 63;
    s.create_game(&h).await.unwrap();
    assert_eq!(s.game("HIGH").await.unwrap().unwrap().seed, 1 << 63);
}

/// Every game and campaign names its game (issue 29): a kind other than
/// Siege's is stored and read back as it is.
async fn game_kinds_round_trip(s: &dyn Store) {
    let mut g = game("KIND", 10);
    g.kind = "tricks".to_string();
    s.create_game(&g).await.unwrap();
    assert_eq!(s.game("KIND").await.unwrap().unwrap().kind, "tricks");
    assert_eq!(s.game("KIND").await.unwrap(), Some(g));
    let mut c = campaign("camp-kind", "CKIND", 10);
    c.kind = "tricks".to_string();
    s.create_campaign(&c).await.unwrap();
    assert_eq!(
        s.campaign("camp-kind").await.unwrap().unwrap().kind,
        "tricks"
    );
    assert_eq!(
        s.campaign_by_code("CKIND").await.unwrap().unwrap().kind,
        "tricks"
    );
}

async fn game_duplicate_code_conflict(s: &dyn Store) {
    let g = game("DUPE", 10);
    s.create_game(&g).await.unwrap();
    let mut other = game("DUPE", 20);
    other.lobby = "{}".to_string();
    assert!(is_conflict(s.create_game(&other).await));
    assert_eq!(s.game("DUPE").await.unwrap(), Some(g), "first one kept");
}

async fn game_lobby_start_finish(s: &dyn Store) {
    let g = game("LIFE", 10);
    s.create_game(&g).await.unwrap();

    s.update_lobby("LIFE", r#"{"seats":["ann"]}"#)
        .await
        .unwrap();
    let got = s.game("LIFE").await.unwrap().unwrap();
    assert_eq!(got.lobby, r#"{"seats":["ann"]}"#);
    assert_eq!(got.setup, None);

    s.start_game("LIFE", r#"{"setup":1}"#, r#"{"seats":["ann","bob"]}"#, 50)
        .await
        .unwrap();
    let got = s.game("LIFE").await.unwrap().unwrap();
    assert_eq!(got.setup.as_deref(), Some(r#"{"setup":1}"#));
    assert_eq!(got.lobby, r#"{"seats":["ann","bob"]}"#);
    assert_eq!(got.started_at, Some(50));
    assert_eq!(got.finished_at, None);

    s.finish_game("LIFE", r#"{"winner":"marines"}"#, 90)
        .await
        .unwrap();
    let got = s.game("LIFE").await.unwrap().unwrap();
    assert_eq!(got.result.as_deref(), Some(r#"{"winner":"marines"}"#));
    assert_eq!(got.finished_at, Some(90));
    assert_eq!(got.started_at, Some(50));
    assert_eq!(got.options, g.options);

    assert!(is_not_found(s.update_lobby("NONE", "{}").await));
    assert!(is_not_found(s.start_game("NONE", "{}", "{}", 1).await));
    assert!(is_not_found(s.finish_game("NONE", "{}", 1).await));
}

async fn commands_append_in_order(s: &dyn Store) {
    s.create_game(&game("PLAY", 10)).await.unwrap();
    assert_eq!(s.commands("PLAY").await.unwrap(), vec![]);
    s.append_commands(&[]).await.unwrap();

    s.append_commands(&[cmd("PLAY", 0)]).await.unwrap();
    s.append_commands(&[cmd("PLAY", 1), cmd("PLAY", 2)])
        .await
        .unwrap();
    s.append_commands(&[cmd("PLAY", 3)]).await.unwrap();
    let want: Vec<_> = (0..4).map(|i| cmd("PLAY", i)).collect();
    assert_eq!(s.commands("PLAY").await.unwrap(), want);

    // Many at once, still in order.
    let more: Vec<_> = (4..60).map(|i| cmd("PLAY", i)).collect();
    s.append_commands(&more).await.unwrap();
    let got = s.commands("PLAY").await.unwrap();
    assert_eq!(got.len(), 60);
    assert!(got.iter().enumerate().all(|(i, c)| c.index == i as i64));
    assert_eq!(got[59], cmd("PLAY", 59));

    assert_eq!(s.commands("NONE").await.unwrap(), vec![]);
}

async fn commands_batch_across_games(s: &dyn Store) {
    s.create_game(&game("AAAA", 10)).await.unwrap();
    s.create_game(&game("BBBB", 11)).await.unwrap();
    s.append_commands(&[cmd("AAAA", 0), cmd("BBBB", 0), cmd("AAAA", 1)])
        .await
        .unwrap();
    s.append_commands(&[cmd("BBBB", 1), cmd("AAAA", 2), cmd("BBBB", 2)])
        .await
        .unwrap();
    let a: Vec<_> = (0..3).map(|i| cmd("AAAA", i)).collect();
    let b: Vec<_> = (0..3).map(|i| cmd("BBBB", i)).collect();
    assert_eq!(s.commands("AAAA").await.unwrap(), a);
    assert_eq!(s.commands("BBBB").await.unwrap(), b);
}

async fn commands_duplicate_index_conflict(s: &dyn Store) {
    s.create_game(&game("AAAA", 10)).await.unwrap();
    s.create_game(&game("BBBB", 11)).await.unwrap();
    s.append_commands(&[cmd("AAAA", 0), cmd("AAAA", 1)])
        .await
        .unwrap();

    // A repeat already stored, after a valid command of another game.
    let mut dup = cmd("AAAA", 1);
    dup.command = r#"{"other":true}"#.to_string();
    assert!(is_conflict(
        s.append_commands(&[cmd("BBBB", 0), dup.clone()]).await
    ));
    // A repeat inside the batch.
    assert!(is_conflict(
        s.append_commands(&[cmd("BBBB", 0), cmd("BBBB", 0)]).await
    ));
    // A valid one after the repeat.
    assert!(is_conflict(s.append_commands(&[dup, cmd("BBBB", 0)]).await));

    // Nothing of the failed batches was written.
    assert_eq!(s.commands("BBBB").await.unwrap(), vec![]);
    assert_eq!(
        s.commands("AAAA").await.unwrap(),
        vec![cmd("AAAA", 0), cmd("AAAA", 1)]
    );
    // And the store still takes the right next commands.
    s.append_commands(&[cmd("AAAA", 2), cmd("BBBB", 0)])
        .await
        .unwrap();
    assert_eq!(s.commands("AAAA").await.unwrap().len(), 3);
    assert_eq!(s.commands("BBBB").await.unwrap(), vec![cmd("BBBB", 0)]);
}

async fn commands_skipped_index_conflict(s: &dyn Store) {
    s.create_game(&game("AAAA", 10)).await.unwrap();
    s.create_game(&game("BBBB", 11)).await.unwrap();
    // A first command that is not 0.
    assert!(is_conflict(s.append_commands(&[cmd("AAAA", 1)]).await));
    s.append_commands(&[cmd("AAAA", 0)]).await.unwrap();
    // A gap after valid commands of both games.
    assert!(is_conflict(
        s.append_commands(&[cmd("BBBB", 0), cmd("AAAA", 1), cmd("AAAA", 3)])
            .await
    ));
    // Going backwards.
    assert!(is_conflict(
        s.append_commands(&[cmd("AAAA", 1), cmd("AAAA", 0)]).await
    ));
    // A negative number.
    assert!(is_conflict(s.append_commands(&[cmd("BBBB", -1)]).await));

    assert_eq!(s.commands("AAAA").await.unwrap(), vec![cmd("AAAA", 0)]);
    assert_eq!(s.commands("BBBB").await.unwrap(), vec![]);
}

async fn commands_unknown_game_not_found(s: &dyn Store) {
    s.create_game(&game("AAAA", 10)).await.unwrap();
    assert!(is_not_found(s.append_commands(&[cmd("NONE", 0)]).await));
    assert!(is_not_found(s.append_commands(&[cmd("NONE", 5)]).await));
    assert!(is_not_found(
        s.append_commands(&[cmd("AAAA", 0), cmd("NONE", 0)]).await
    ));
    assert_eq!(s.commands("AAAA").await.unwrap(), vec![]);
}

/// A batch larger than one SQL statement takes (the SQL store splits it)
/// is still all or nothing.
async fn commands_large_batch_all_or_nothing(s: &dyn Store) {
    s.create_game(&game("AAAA", 10)).await.unwrap();
    s.create_game(&game("BBBB", 11)).await.unwrap();
    let batch: Vec<_> = (0..1500)
        .flat_map(|i| [cmd("AAAA", i), cmd("BBBB", i)])
        .collect();
    s.append_commands(&batch).await.unwrap();
    assert_eq!(s.commands("AAAA").await.unwrap().len(), 1500);
    assert_eq!(s.commands("BBBB").await.unwrap().len(), 1500);

    // The fault is in the last statement's rows: the first ones' rows
    // must not stay.
    let mut faulty: Vec<_> = (1500..3000).map(|i| cmd("AAAA", i)).collect();
    faulty.push(cmd("BBBB", 1501));
    assert!(is_conflict(s.append_commands(&faulty).await));
    let mut faulty: Vec<_> = (1500..3000).map(|i| cmd("AAAA", i)).collect();
    faulty.push(cmd("NONE", 0));
    assert!(is_not_found(s.append_commands(&faulty).await));
    assert_eq!(s.commands("AAAA").await.unwrap().len(), 1500);
    assert_eq!(s.commands("BBBB").await.unwrap().len(), 1500);
}

async fn unfinished_games_oldest_first(s: &dyn Store) {
    assert_eq!(s.unfinished_games().await.unwrap(), vec![]);
    s.create_game(&game("LATE", 30)).await.unwrap();
    s.create_game(&game("EARLY", 10)).await.unwrap();
    s.create_game(&game("MID", 20)).await.unwrap();
    s.create_game(&game("DONE", 5)).await.unwrap();
    s.create_game(&game("MIDB", 20)).await.unwrap();
    s.start_game("MID", "{}", "{}", 25).await.unwrap();
    s.finish_game("DONE", "{}", 40).await.unwrap();

    let got = s.unfinished_games().await.unwrap();
    assert_eq!(codes(&got), ["EARLY", "MID", "MIDB", "LATE"]);
    assert_eq!(got[1].started_at, Some(25));

    s.finish_game("MID", "{}", 41).await.unwrap();
    let got = s.unfinished_games().await.unwrap();
    assert_eq!(codes(&got), ["EARLY", "MIDB", "LATE"]);
}

/// Abandonment: `active_at` only moves forward; idle lobbies and idle
/// started games are found by their own cutoffs; an abandoned game is
/// finished with no result, leaves the unfinished and idle lists, and is
/// closed once.
async fn games_touched_idle_and_abandoned(s: &dyn Store) {
    // Lobbies active at 100 and 300; started games active at 100 and 300.
    s.create_game(&game("LOBBYOLD", 100)).await.unwrap();
    s.create_game(&game("LOBBYNEW", 300)).await.unwrap();
    s.create_game(&game("PLAYOLD", 50)).await.unwrap();
    s.create_game(&game("PLAYNEW", 60)).await.unwrap();
    s.start_game("PLAYOLD", "{}", "{}", 70).await.unwrap();
    s.start_game("PLAYNEW", "{}", "{}", 70).await.unwrap();
    s.touch_game("PLAYOLD", 100).await.unwrap();
    s.touch_game("PLAYNEW", 300).await.unwrap();
    // Never backwards.
    s.touch_game("PLAYNEW", 200).await.unwrap();
    assert_eq!(s.game("PLAYNEW").await.unwrap().unwrap().active_at, 300);
    assert!(is_not_found(s.touch_game("NONE", 1).await));
    // A finished game is never idle.
    s.create_game(&game("DONE", 10)).await.unwrap();
    s.finish_game("DONE", "{}", 20).await.unwrap();

    // Lobby cutoff 200, started cutoff 150: the old lobby and the old
    // started game; then a wider started cutoff adds the new one.
    assert_eq!(
        s.idle_games(200, 150).await.unwrap(),
        ["LOBBYOLD", "PLAYOLD"]
    );
    assert_eq!(s.idle_games(200, 400).await.unwrap().len(), 3);
    assert_eq!(s.idle_games(0, 0).await.unwrap(), Vec::<String>::new());

    assert!(s.abandon_game("LOBBYOLD", 500).await.unwrap());
    assert!(s.abandon_game("PLAYOLD", 501).await.unwrap());
    let g = s.game("PLAYOLD").await.unwrap().unwrap();
    assert_eq!(g.finished_at, Some(501));
    assert_eq!(g.abandoned_at, Some(501));
    assert_eq!(g.result, None);
    assert_eq!(g.started_at, Some(70));
    // Once only; a played-out game is not abandoned; unknown is an error.
    assert!(!s.abandon_game("PLAYOLD", 600).await.unwrap());
    assert_eq!(
        s.game("PLAYOLD").await.unwrap().unwrap().finished_at,
        Some(501)
    );
    assert!(!s.abandon_game("DONE", 600).await.unwrap());
    assert_eq!(s.game("DONE").await.unwrap().unwrap().abandoned_at, None);
    assert!(is_not_found(s.abandon_game("NONE", 1).await));

    assert_eq!(
        codes(&s.unfinished_games().await.unwrap()),
        ["PLAYNEW", "LOBBYNEW"]
    );
    assert_eq!(s.idle_games(200, 150).await.unwrap(), Vec::<String>::new());
}

async fn games_of_account_newest_first(s: &dyn Store) {
    s.create_game(&game("OLD", 10)).await.unwrap();
    s.create_game(&game("NEW", 30)).await.unwrap();
    s.create_game(&game("MID", 20)).await.unwrap();
    s.create_game(&game("ELSE", 40)).await.unwrap();

    s.link_player("OLD", 0, "acc-ann").await.unwrap();
    s.link_player("NEW", 1, "acc-ann").await.unwrap();
    s.link_player("MID", 0, "acc-ann").await.unwrap();
    // Twice the same link, and two seats of one game: still one entry.
    s.link_player("MID", 0, "acc-ann").await.unwrap();
    s.link_player("MID", 2, "acc-ann").await.unwrap();
    s.link_player("MID", 1, "acc-bob").await.unwrap();
    s.link_player("ELSE", 0, "acc-bob").await.unwrap();

    let ann = s.games_of_account("acc-ann").await.unwrap();
    assert_eq!(codes(&ann), ["NEW", "MID", "OLD"]);
    assert_eq!(ann[0], game("NEW", 30));
    let bob = s.games_of_account("acc-bob").await.unwrap();
    assert_eq!(codes(&bob), ["ELSE", "MID"]);
    assert_eq!(s.games_of_account("acc-nobody").await.unwrap(), vec![]);

    assert!(is_not_found(s.link_player("NONE", 0, "acc-ann").await));

    // Finished games stay listed, with their result.
    s.finish_game("OLD", r#"{"w":1}"#, 99).await.unwrap();
    let ann = s.games_of_account("acc-ann").await.unwrap();
    assert_eq!(ann[2].finished_at, Some(99));
}

async fn accounts_case_insensitive(s: &dyn Store) {
    let ann = account("id-ann", "Ann");
    s.create_account(&ann).await.unwrap();
    assert_eq!(s.account("id-ann").await.unwrap(), Some(ann.clone()));
    assert_eq!(s.account("id-none").await.unwrap(), None);
    assert_eq!(s.account_by_name("Ann").await.unwrap(), Some(ann.clone()));
    assert_eq!(s.account_by_name("aNN").await.unwrap(), Some(ann.clone()));
    assert_eq!(s.account_by_name("Anne").await.unwrap(), None);

    // The name in another case, or the id again, is taken.
    assert!(is_conflict(
        s.create_account(&account("id-ann2", "ANN")).await
    ));
    assert!(is_conflict(
        s.create_account(&account("id-ann", "Someone")).await
    ));
    assert_eq!(s.account_by_name("ann").await.unwrap(), Some(ann), "kept");
    assert_eq!(s.account("id-ann2").await.unwrap(), None);
    assert_eq!(s.account_by_name("someone").await.unwrap(), None);

    // Beyond ASCII.
    let elo = account("id-elo", "Élodie");
    s.create_account(&elo).await.unwrap();
    assert_eq!(s.account_by_name("éLODIE").await.unwrap(), Some(elo));
    assert!(is_conflict(
        s.create_account(&account("id-elo2", "élodie")).await
    ));
}

async fn sessions_create_get_delete(s: &dyn Store) {
    s.create_account(&account("id-ann", "Ann")).await.unwrap();
    let sess = SessionRecord {
        token_hash: "hash-1".to_string(),
        account_id: "id-ann".to_string(),
        created_at: 100,
        expires_at: 200,
    };
    s.create_session(&sess).await.unwrap();
    let other = SessionRecord {
        token_hash: "hash-2".to_string(),
        expires_at: 50, // expired: still returned, the caller checks
        ..sess.clone()
    };
    s.create_session(&other).await.unwrap();
    assert_eq!(s.session("hash-1").await.unwrap(), Some(sess.clone()));
    assert_eq!(s.session("hash-2").await.unwrap(), Some(other));
    assert_eq!(s.session("hash-none").await.unwrap(), None);

    s.delete_session("hash-1").await.unwrap();
    assert_eq!(s.session("hash-1").await.unwrap(), None);
    s.delete_session("hash-1").await.unwrap();
    s.delete_session("hash-none").await.unwrap();
    assert!(s.session("hash-2").await.unwrap().is_some());

    let orphan = SessionRecord {
        token_hash: "hash-3".to_string(),
        account_id: "id-none".to_string(),
        ..sess
    };
    assert!(is_not_found(s.create_session(&orphan).await));
    assert_eq!(s.session("hash-3").await.unwrap(), None);
}

async fn campaigns_create_update_lookup(s: &dyn Store) {
    let c = campaign("camp-1", "INVITE", 10);
    s.create_campaign(&c).await.unwrap();
    assert_eq!(s.campaign("camp-1").await.unwrap(), Some(c.clone()));
    assert_eq!(s.campaign_by_code("INVITE").await.unwrap(), Some(c.clone()));
    assert_eq!(s.campaign("camp-none").await.unwrap(), None);
    assert_eq!(s.campaign_by_code("NOPE").await.unwrap(), None);

    // Code or id taken.
    assert!(is_conflict(
        s.create_campaign(&campaign("camp-2", "INVITE", 11)).await
    ));
    assert!(is_conflict(
        s.create_campaign(&campaign("camp-1", "OTHER", 11)).await
    ));
    assert_eq!(s.campaign("camp-2").await.unwrap(), None);
    assert_eq!(s.campaign_by_code("OTHER").await.unwrap(), None);

    let mut u = c.clone();
    u.state = r#"{"next":1,"standings":[3,1]}"#.to_string();
    u.name = "Renamed".to_string();
    u.finished_at = Some(77);
    // The code and creation time are not the update's business.
    u.code = "IGNORED".to_string();
    u.created_at = 999;
    s.update_campaign(&u).await.unwrap();
    let got = s.campaign("camp-1").await.unwrap().unwrap();
    assert_eq!(got.version, 1);
    assert_eq!(got.state, u.state);
    assert_eq!(got.name, "Renamed");
    assert_eq!(got.finished_at, Some(77));
    assert_eq!(got.code, "INVITE");
    assert_eq!(got.created_at, 10);
    assert_eq!(s.campaign_by_code("INVITE").await.unwrap(), Some(got));

    assert!(is_not_found(
        s.update_campaign(&campaign("camp-none", "X", 1)).await
    ));
}

fn is_stale(r: Result<(), StoreError>) -> bool {
    matches!(r, Err(StoreError::Stale(_)))
}

/// Optimistic concurrency: an update is written only over the version it
/// was read at. Two writers read version 0; the first one's update moves
/// the row to 1, the second's (still at 0) is refused and changes nothing;
/// read again, its update goes through.
async fn campaign_stale_update_refused(s: &dyn Store) {
    s.create_campaign(&campaign("camp-1", "INVITE", 10))
        .await
        .unwrap();
    let mut first = s.campaign("camp-1").await.unwrap().unwrap();
    let mut second = s.campaign_by_code("INVITE").await.unwrap().unwrap();
    assert_eq!((first.version, second.version), (0, 0));

    first.state = r#"{"by":"first"}"#.to_string();
    s.update_campaign(&first).await.unwrap();
    let stored = s.campaign("camp-1").await.unwrap().unwrap();
    assert_eq!(
        (stored.version, stored.state.as_str()),
        (1, first.state.as_str())
    );

    second.state = r#"{"by":"second"}"#.to_string();
    second.name = "Second".to_string();
    second.finished_at = Some(50);
    assert!(is_stale(s.update_campaign(&second).await));
    assert_eq!(s.campaign("camp-1").await.unwrap(), Some(stored.clone()));
    // A version ahead of the row is as wrong as one behind it.
    second.version = 7;
    assert!(is_stale(s.update_campaign(&second).await));
    assert_eq!(s.campaign("camp-1").await.unwrap(), Some(stored));

    // Read again: the update applies over version 1.
    let mut again = s.campaign("camp-1").await.unwrap().unwrap();
    again.state = r#"{"by":"second, again"}"#.to_string();
    s.update_campaign(&again).await.unwrap();
    let got = s.campaign("camp-1").await.unwrap().unwrap();
    assert_eq!((got.version, got.state.as_str()), (2, again.state.as_str()));
    // The same record twice: the second write is stale.
    assert!(is_stale(s.update_campaign(&again).await));
    assert_eq!(s.campaign("camp-1").await.unwrap().unwrap().version, 2);
}

async fn campaign_members_newest_first(s: &dyn Store) {
    s.create_campaign(&campaign("camp-old", "OLD", 10))
        .await
        .unwrap();
    s.create_campaign(&campaign("camp-new", "NEW", 30))
        .await
        .unwrap();
    s.create_campaign(&campaign("camp-bob", "BOB", 20))
        .await
        .unwrap();
    s.link_campaign_member("camp-old", "acc-ann").await.unwrap();
    s.link_campaign_member("camp-new", "acc-ann").await.unwrap();
    s.link_campaign_member("camp-new", "acc-ann").await.unwrap();
    s.link_campaign_member("camp-bob", "acc-bob").await.unwrap();

    let ann = s.campaigns_of_account("acc-ann").await.unwrap();
    let ids: Vec<_> = ann.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["camp-new", "camp-old"]);
    assert_eq!(ann[0], campaign("camp-new", "NEW", 30));
    assert_eq!(s.campaigns_of_account("acc-bob").await.unwrap().len(), 1);
    assert_eq!(s.campaigns_of_account("acc-none").await.unwrap(), vec![]);

    assert!(is_not_found(
        s.link_campaign_member("camp-none", "acc-ann").await
    ));
}

async fn campaign_missions_in_order(s: &dyn Store) {
    s.create_campaign(&campaign("camp-1", "ONE", 10))
        .await
        .unwrap();
    s.create_campaign(&campaign("camp-2", "TWO", 11))
        .await
        .unwrap();
    assert_eq!(s.campaign_missions("camp-1").await.unwrap(), vec![]);

    s.add_campaign_mission(&mission("camp-1", 0)).await.unwrap();
    s.add_campaign_mission(&mission("camp-2", 0)).await.unwrap();
    s.add_campaign_mission(&mission("camp-1", 1)).await.unwrap();
    s.add_campaign_mission(&mission("camp-1", 2)).await.unwrap();

    // Repeated, skipped, not from 0.
    assert!(is_conflict(
        s.add_campaign_mission(&mission("camp-1", 1)).await
    ));
    assert!(is_conflict(
        s.add_campaign_mission(&mission("camp-1", 4)).await
    ));
    assert!(is_conflict(
        s.add_campaign_mission(&mission("camp-2", 2)).await
    ));
    assert!(is_not_found(
        s.add_campaign_mission(&mission("camp-none", 0)).await
    ));

    let want: Vec<_> = (0..3).map(|i| mission("camp-1", i)).collect();
    assert_eq!(s.campaign_missions("camp-1").await.unwrap(), want);
    assert_eq!(
        s.campaign_missions("camp-2").await.unwrap(),
        vec![mission("camp-2", 0)]
    );
    assert_eq!(s.campaign_missions("camp-none").await.unwrap(), vec![]);
}

/// The rules version is stored with the game, read back as written, and
/// changed only by `set_rules_version`.
async fn rules_version_round_trip(s: &dyn Store) {
    let mut g = game("VER", 1);
    g.engine_version = 42;
    g.content_hash = "feedface".into();
    s.create_game(&g).await.unwrap();
    let got = s.game("VER").await.unwrap().unwrap();
    assert_eq!(
        (got.engine_version, got.content_hash.as_str()),
        (42, "feedface")
    );
    assert!(!got.is_legacy());
    s.start_game("VER", "{}", "{}", 2).await.unwrap();
    s.finish_game("VER", "{}", 3).await.unwrap();
    assert_eq!(s.game("VER").await.unwrap().unwrap().engine_version, 42);

    s.set_rules_version("VER", 43, "beef").await.unwrap();
    let got = s.game("VER").await.unwrap().unwrap();
    assert_eq!(
        (got.engine_version, got.content_hash.as_str()),
        (43, "beef")
    );
    assert_eq!(got.finished_at, Some(3), "nothing else changed");
    assert!(is_not_found(s.set_rules_version("NONE", 1, "x").await));

    let mut legacy = game("OLD", 1);
    legacy.engine_version = LEGACY_ENGINE_VERSION;
    legacy.content_hash = LEGACY_CONTENT_HASH.into();
    assert!(legacy.is_legacy());
}

/// A command's checksum (or its absence) comes back as appended, through
/// single appends and a batch of several games.
async fn command_checksums_round_trip(s: &dyn Store) {
    s.create_game(&game("SUMA", 1)).await.unwrap();
    s.create_game(&game("SUMB", 2)).await.unwrap();
    let a: Vec<CommandRecord> = (0..4).map(|i| cmd("SUMA", i)).collect();
    s.append_commands(&a[..1]).await.unwrap();
    let mut batch = a[1..].to_vec();
    batch.extend((0..3).map(|i| cmd("SUMB", i)));
    s.append_commands(&batch).await.unwrap();
    assert_eq!(s.commands("SUMA").await.unwrap(), a);
    let b = s.commands("SUMB").await.unwrap();
    let sums: Vec<Option<&str>> = b.iter().map(|c| c.checksum.as_deref()).collect();
    assert_eq!(sums, [None, None, Some("sum2")]);
}

/// A replay is kept whole, read by pages, replaced whole; none for a game
/// without one; not found for an unknown game.
async fn replays_saved_and_paged(s: &dyn Store) {
    s.create_game(&game("REP", 1)).await.unwrap();
    s.create_game(&game("NOREP", 2)).await.unwrap();
    assert_eq!(s.replay_page("REP", 0, 10).await.unwrap(), None);
    // More steps than one INSERT takes.
    let steps: Vec<String> = (0..1_203).map(|i| format!(r#"{{"index":{i}}}"#)).collect();
    let replay = ReplayRecord {
        header: r#"{"setup":{}}"#.into(),
        steps: steps.clone(),
    };
    s.save_replay("REP", &replay).await.unwrap();
    let page = s.replay_page("REP", 0, 3).await.unwrap().unwrap();
    assert_eq!(page.header, replay.header);
    assert_eq!(page.total_steps, 1_203);
    assert_eq!(page.steps, steps[..3]);
    let page = s.replay_page("REP", 1_200, 500).await.unwrap().unwrap();
    assert_eq!(page.steps, steps[1_200..]);
    let page = s.replay_page("REP", 5_000, 500).await.unwrap().unwrap();
    assert!(page.steps.is_empty());
    assert_eq!(page.total_steps, 1_203);
    let all = s.replay_page("REP", 0, i64::MAX).await.unwrap().unwrap();
    assert_eq!(all.steps, steps);

    let shorter = ReplayRecord {
        header: "{}".into(),
        steps: vec!["{}".into(), "[]".into()],
    };
    s.save_replay("REP", &shorter).await.unwrap();
    let page = s.replay_page("REP", 0, 500).await.unwrap().unwrap();
    assert_eq!((page.header.as_str(), page.total_steps), ("{}", 2));
    assert_eq!(page.steps, shorter.steps);
    assert_eq!(s.replay_page("NOREP", 0, 10).await.unwrap(), None);
    assert!(is_not_found(s.save_replay("NONE", &shorter).await));
    assert_eq!(s.replay_page("NONE", 0, 10).await.unwrap(), None);
}

// ---------------------------------------------------------------------------
// Leases (cluster mode).

async fn leases_acquired_renewed_released(s: &dyn Store) {
    s.create_game(&game("L1", 1)).await.unwrap();
    s.create_game(&game("L2", 2)).await.unwrap();
    // A new game's lease is taken before the game is stored.
    assert!(s.acquire_lease("NEW", "a", 0, 10).await.unwrap());
    s.release_lease("NEW", "a").await.unwrap();
    assert_eq!(s.lease("NEW").await.unwrap(), None);
    assert_eq!(s.lease("L1").await.unwrap(), None);
    // Nobody holds L1: a takes it; b cannot while it runs.
    assert!(s.acquire_lease("L1", "a", 0, 100).await.unwrap());
    assert!(!s.acquire_lease("L1", "b", 50, 150).await.unwrap());
    // a may take it again (a restart of a, or an idempotent retry).
    assert!(s.acquire_lease("L1", "a", 60, 160).await.unwrap());
    let l = s.lease("L1").await.unwrap().unwrap();
    assert_eq!((l.owner.as_str(), l.expires_at), ("a", 160));
    assert!(s.acquire_lease("L2", "b", 0, 100).await.unwrap());
    // Renewal moves only the renewer's leases on.
    assert_eq!(s.renew_leases("a", 300).await.unwrap(), ["L1"]);
    assert_eq!(s.lease("L1").await.unwrap().unwrap().expires_at, 300);
    assert_eq!(s.lease("L2").await.unwrap().unwrap().expires_at, 100);
    // L2 ran out at 100: expired, and a takes it over.
    assert_eq!(s.expired_leases(99).await.unwrap(), Vec::<String>::new());
    assert_eq!(s.expired_leases(100).await.unwrap(), ["L2"]);
    assert!(s.acquire_lease("L2", "a", 100, 400).await.unwrap());
    // b's renewal no longer holds L2: its game must stop.
    assert_eq!(
        s.renew_leases("b", 500).await.unwrap(),
        Vec::<String>::new()
    );
    let mut held = s.renew_leases("a", 600).await.unwrap();
    held.sort();
    assert_eq!(held, ["L1", "L2"]);
    // Release: only by the holder.
    s.release_lease("L1", "b").await.unwrap();
    assert!(s.lease("L1").await.unwrap().is_some());
    s.release_lease("L1", "a").await.unwrap();
    assert_eq!(s.lease("L1").await.unwrap(), None);
    assert!(s.acquire_lease("L1", "b", 0, 10).await.unwrap());
}

async fn lease_race_has_one_winner(s: &dyn Store) {
    s.create_game(&game("RACE", 1)).await.unwrap();
    // Expired lease of a dead node: several nodes race to take it over.
    assert!(s.acquire_lease("RACE", "dead", 0, 10).await.unwrap());
    let tries = (0..8).map(|n| {
        let owner = format!("node{n}");
        async move { s.acquire_lease("RACE", &owner, 20, 1_000).await.unwrap() }
    });
    let won = futures_util::future::join_all(tries).await;
    assert_eq!(won.iter().filter(|w| **w).count(), 1, "{won:?}");
    let l = s.lease("RACE").await.unwrap().unwrap();
    assert_eq!(won.iter().position(|w| *w), l.owner[4..].parse().ok());
}

// ---------------------------------------------------------------------------
// Databases.

/// A database for one test, removed by `cleanup`.
enum Db {
    Sqlite {
        dir: tempfile::TempDir,
    },
    Postgres {
        /// The server, without the schema option.
        base: String,
        schema: String,
    },
}

static SCHEMA_SEQ: AtomicUsize = AtomicUsize::new(0);

impl Db {
    fn sqlite() -> Self {
        Db::Sqlite {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    /// A fresh schema on the test Postgres, or `None` (skip) if it is
    /// unreachable and `CITADEL_REQUIRE_ALL` is not set.
    async fn postgres() -> Option<Self> {
        let base = std::env::var("CITADEL_TEST_DATABASE_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string());
        sqlx::any::install_default_drivers();
        let mut conn = match sqlx::AnyConnection::connect(&base).await {
            Ok(conn) => conn,
            Err(e) => {
                if std::env::var("CITADEL_REQUIRE_ALL").as_deref() == Ok("1") {
                    panic!("Postgres at {base} unreachable and CITADEL_REQUIRE_ALL=1: {e}");
                }
                eprintln!(
                    "SKIPPED: Postgres at {base} unreachable ({e}); set CITADEL_TEST_DATABASE_URL"
                );
                return None;
            }
        };
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let schema = format!(
            "citadel_test_{}_{}_{}",
            std::process::id(),
            SCHEMA_SEQ.fetch_add(1, Ordering::Relaxed),
            nanos
        );
        conn.execute(format!("CREATE SCHEMA {schema}").as_str())
            .await
            .unwrap();
        conn.close().await.unwrap();
        Some(Db::Postgres { base, schema })
    }

    fn url(&self) -> String {
        match self {
            Db::Sqlite { dir } => format!("sqlite://{}", dir.path().join("citadel.db").display()),
            Db::Postgres { base, schema } => {
                let sep = if base.contains('?') { '&' } else { '?' };
                format!("{base}{sep}options=-c%20search_path%3D{schema}")
            }
        }
    }

    async fn open(&self) -> SqlStore {
        SqlStore::connect(&self.url()).await.unwrap()
    }

    async fn cleanup(self) {
        match self {
            Db::Sqlite { dir } => drop(dir),
            Db::Postgres { base, schema } => {
                let mut conn = sqlx::AnyConnection::connect(&base).await.unwrap();
                conn.execute(format!("DROP SCHEMA {schema} CASCADE").as_str())
                    .await
                    .unwrap();
                conn.close().await.unwrap();
            }
        }
    }
}

fn rating(kind: &str, player: &str, rating: f64, deviation: f64, games: i64) -> RatingRecord {
    RatingRecord {
        kind: kind.into(),
        player: player.into(),
        name: player.trim_start_matches("account:").into(),
        rating,
        deviation,
        volatility: 0.06,
        games,
        wins: games,
        draws: 0,
        losses: 0,
        updated_at: games * 100,
    }
}

fn change(from_games: i64, after: RatingRecord) -> RatingChange {
    RatingChange { from_games, after }
}

/// A rated game's changes are applied once per game, all or nothing, and
/// only from the number of games they were computed from.
async fn ratings_applied_once_and_from_what_was_read(s: &dyn Store) {
    let players = vec!["account:a".to_string(), "bot:easy".to_string()];
    assert!(s.ratings("tricks", &players).await.unwrap().is_empty());
    let first = [
        change(0, rating("tricks", "account:a", 1662.3, 290.3, 1)),
        change(0, rating("tricks", "bot:easy", 1337.7, 290.3, 1)),
    ];
    assert_eq!(
        s.rate_game("G1", 100, &first).await.unwrap(),
        Rated::Applied
    );
    // The same end reported again (a restart, another node): nothing moves.
    let again = [change(1, rating("tricks", "account:a", 1800.0, 200.0, 2))];
    assert_eq!(
        s.rate_game("G1", 101, &again).await.unwrap(),
        Rated::AlreadyRated
    );
    let now = s.ratings("tricks", &players).await.unwrap();
    assert_eq!(now, vec![first[0].after.clone(), first[1].after.clone()]);
    // Computed from a stale read (0 games, but a has 1 now), or from a
    // newcomer who is one no longer: refused, and nothing of it written,
    // not even the game's mark (so it can be retried).
    let stale = [
        change(0, rating("tricks", "account:b", 1600.0, 300.0, 1)),
        change(0, rating("tricks", "account:a", 1700.0, 290.0, 1)),
    ];
    assert_eq!(
        s.rate_game("G2", 200, &stale).await.unwrap(),
        Rated::Conflict
    );
    assert!(s
        .ratings("tricks", &["account:b".to_string()])
        .await
        .unwrap()
        .is_empty());
    let retried = [
        change(0, rating("tricks", "account:b", 1600.0, 300.0, 1)),
        change(1, rating("tricks", "account:a", 1700.0, 250.0, 2)),
    ];
    assert_eq!(
        s.rate_game("G2", 200, &retried).await.unwrap(),
        Rated::Applied
    );
    let history = s.rating_history("tricks", "account:a", 10).await.unwrap();
    let codes: Vec<&str> = history.iter().map(|p| p.code.as_str()).collect();
    assert_eq!(codes, ["G1", "G2"]);
    assert_eq!(history[1].rating, 1700.0);
    assert_eq!(
        s.rating_history("tricks", "account:a", 1).await.unwrap()[0].code,
        "G2",
        "the last ones"
    );
    // Another game kind is another rating.
    let other = [change(0, rating("chess", "account:a", 1450.0, 300.0, 1))];
    assert_eq!(
        s.rate_game("G3", 300, &other).await.unwrap(),
        Rated::Applied
    );
    let mine = s.ratings_of_player("account:a").await.unwrap();
    let kinds: Vec<&str> = mine.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(kinds, ["chess", "tricks"]);
}

/// The leaderboard: one game's ratings under a deviation, best first,
/// paged.
async fn leaderboard_best_first_paged(s: &dyn Store) {
    for (k, (player, r, rd)) in [
        ("account:low", 1400.0, 80.0),
        ("account:top", 1900.0, 60.0),
        ("account:mid", 1650.0, 100.0),
        ("account:new", 2100.0, 300.0),
    ]
    .into_iter()
    .enumerate()
    {
        let code = format!("L{k}");
        let c = [change(0, rating("tricks", player, r, rd, 1))];
        assert_eq!(s.rate_game(&code, 10, &c).await.unwrap(), Rated::Applied);
    }
    let other = [change(0, rating("chess", "account:x", 3000.0, 50.0, 1))];
    assert_eq!(s.rate_game("L9", 10, &other).await.unwrap(), Rated::Applied);
    let names = |v: Vec<RatingRecord>| v.into_iter().map(|r| r.name).collect::<Vec<_>>();
    assert_eq!(
        names(s.leaderboard("tricks", 110.0, 10, 0).await.unwrap()),
        ["top", "mid", "low"],
        "provisional (deviation above 110) left out"
    );
    assert_eq!(
        names(s.leaderboard("tricks", 110.0, 1, 1).await.unwrap()),
        ["mid"]
    );
    assert_eq!(
        names(s.leaderboard("tricks", 400.0, 1, 0).await.unwrap()),
        ["new"]
    );
}

/// The lobby's lists: listed games only, open ones (not started) newest
/// first, live ones (started, not ended) most recently active first;
/// finished and abandoned games in neither.
async fn listed_games_open_and_live(s: &dyn Store) {
    let listed = |code: &str, at: i64| GameRecord {
        listed: true,
        ..game(code, at)
    };
    for g in [
        listed("OPEN1", 10),
        listed("OPEN2", 20),
        game("PRIV1", 30),
        listed("LIVE1", 40),
        listed("LIVE2", 50),
        listed("DONE1", 60),
        listed("GONE1", 70),
    ] {
        s.create_game(&g).await.unwrap();
    }
    for code in ["LIVE1", "LIVE2", "DONE1", "GONE1"] {
        s.start_game(code, "{}", r#"{"seats":[]}"#, 100)
            .await
            .unwrap();
    }
    s.finish_game("DONE1", "{}", 200).await.unwrap();
    assert!(s.abandon_game("GONE1", 200).await.unwrap());
    s.touch_game("LIVE1", 300).await.unwrap();
    let codes = |v: Vec<GameRecord>| v.into_iter().map(|g| g.code).collect::<Vec<_>>();
    assert_eq!(
        codes(s.listed_games(false, 10).await.unwrap()),
        ["OPEN2", "OPEN1"]
    );
    assert_eq!(codes(s.listed_games(false, 1).await.unwrap()), ["OPEN2"]);
    assert_eq!(
        codes(s.listed_games(true, 10).await.unwrap()),
        ["LIVE1", "LIVE2"]
    );
    assert!(s.game("OPEN1").await.unwrap().expect("stored").listed);
    assert!(!s.game("PRIV1").await.unwrap().expect("stored").listed);
}

/// Run every behaviour on every store: `mem::NAME`, `sqlite::NAME`,
/// `postgres::NAME`.
macro_rules! suite {
    ($($name:ident),* $(,)?) => {
        mod mem {
            $(
                #[tokio::test]
                async fn $name() {
                    super::$name(&super::MemStore::new()).await;
                }
            )*
        }
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    let db = super::Db::sqlite();
                    let store = db.open().await;
                    super::$name(&store).await;
                    store.close().await;
                    db.cleanup().await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    let Some(db) = super::Db::postgres().await else { return };
                    let store = db.open().await;
                    super::$name(&store).await;
                    store.close().await;
                    db.cleanup().await;
                }
            )*
        }
    };
}

suite!(
    game_create_and_get,
    game_kinds_round_trip,
    game_duplicate_code_conflict,
    game_lobby_start_finish,
    commands_append_in_order,
    commands_batch_across_games,
    commands_duplicate_index_conflict,
    commands_skipped_index_conflict,
    commands_unknown_game_not_found,
    commands_large_batch_all_or_nothing,
    unfinished_games_oldest_first,
    games_touched_idle_and_abandoned,
    games_of_account_newest_first,
    accounts_case_insensitive,
    sessions_create_get_delete,
    campaigns_create_update_lookup,
    campaign_stale_update_refused,
    campaign_members_newest_first,
    campaign_missions_in_order,
    rules_version_round_trip,
    command_checksums_round_trip,
    replays_saved_and_paged,
    leases_acquired_renewed_released,
    lease_race_has_one_winner,
    ratings_applied_once_and_from_what_was_read,
    leaderboard_best_first_paged,
    listed_games_open_and_live,
);

// ---------------------------------------------------------------------------
// What only the SQL stores have: files, connections, migrations.

async fn applied_migrations(store: &SqlStore) -> Vec<i64> {
    sqlx::query("SELECT version FROM _sqlx_migrations ORDER BY version")
        .fetch_all(store.pool())
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get::<i64, _>("version").unwrap())
        .collect()
}

/// Close, reopen: the data is there, the migrations ran once, and the
/// reopened store carries on where the first stopped.
async fn reopen_keeps_data(db: &Db) {
    let store = db.open().await;
    assert_eq!(
        applied_migrations(&store).await,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    );
    store.create_game(&game("KEEP", 10)).await.unwrap();
    store.start_game("KEEP", "{}", "{}", 11).await.unwrap();
    store
        .append_commands(&[cmd("KEEP", 0), cmd("KEEP", 1)])
        .await
        .unwrap();
    store
        .create_account(&account("id-ann", "Ann"))
        .await
        .unwrap();
    store.link_player("KEEP", 0, "id-ann").await.unwrap();
    store
        .create_campaign(&campaign("camp-1", "CAMP", 1))
        .await
        .unwrap();
    store
        .add_campaign_mission(&mission("camp-1", 0))
        .await
        .unwrap();
    store.close().await;

    for round in 0..2 {
        let store = db.open().await;
        assert_eq!(
            applied_migrations(&store).await,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
            "round {round}"
        );
        let g = store.game("KEEP").await.unwrap().unwrap();
        assert_eq!(g.started_at, Some(11));
        assert_eq!(g.seed, game("KEEP", 10).seed);
        assert_eq!(store.commands("KEEP").await.unwrap().len(), 2 + round);
        assert_eq!(codes(&store.unfinished_games().await.unwrap()), ["KEEP"]);
        assert_eq!(
            codes(&store.games_of_account("id-ann").await.unwrap()),
            ["KEEP"]
        );
        assert!(store.account_by_name("ANN").await.unwrap().is_some());
        assert_eq!(store.campaign_missions("camp-1").await.unwrap().len(), 1);
        // Numbering carries on from the stored commands.
        assert!(is_conflict(store.append_commands(&[cmd("KEEP", 1)]).await));
        store
            .append_commands(&[cmd("KEEP", 2 + round as i64)])
            .await
            .unwrap();
        store.close().await;
    }
}

/// A game and a command written as before migration 0005 (without its
/// columns) read back as legacy: engine 0, content "legacy", no checksum.
async fn rows_before_versions_read_as_legacy(db: &Db) {
    let store = db.open().await;
    sqlx::query(
        "INSERT INTO games (code, options, seed, created_at, lobby) \
         VALUES ('PAST', '{}', 1, 2, '{}')",
    )
    .execute(store.writer())
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO commands (code, idx, seat, command, at) VALUES ('PAST', 0, 0, '{}', 3)",
    )
    .execute(store.writer())
    .await
    .unwrap();
    let g = store.game("PAST").await.unwrap().unwrap();
    assert_eq!(g.engine_version, LEGACY_ENGINE_VERSION);
    assert_eq!(g.content_hash, LEGACY_CONTENT_HASH);
    assert!(g.is_legacy());
    // Migration 0009: every game stored before kinds is Siege's.
    assert_eq!(g.kind, "siege");
    assert_eq!(store.commands("PAST").await.unwrap()[0].checksum, None);
    assert_eq!(codes(&store.unfinished_games().await.unwrap()), ["PAST"]);
    // A campaign stored before migration 0006 starts at version 0.
    sqlx::query(
        "INSERT INTO campaigns (id, code, name, state, created_at) \
         VALUES ('camp-past', 'PASTC', 'Past', '{}', 4)",
    )
    .execute(store.writer())
    .await
    .unwrap();
    let mut c = store.campaign("camp-past").await.unwrap().unwrap();
    assert_eq!(c.version, 0);
    assert_eq!(c.kind, "siege");
    c.state = r#"{"next":1}"#.to_string();
    store.update_campaign(&c).await.unwrap();
    assert_eq!(
        store.campaign("camp-past").await.unwrap().unwrap().version,
        1
    );
    store.close().await;
}

/// Migration 0004 on a database made before it: every game gets the last
/// sign of life the tables hold as `active_at` (its last command, else its
/// start, else its creation), and nothing is abandoned.
async fn migration_4_backfills_active_at(db: &Db) {
    // Take the schema back to before 0004.
    let store = db.open().await;
    for sql in [
        "DELETE FROM _sqlx_migrations WHERE version = 4",
        // 0011's indexes read abandoned_at (SQLite keeps a column an index
        // reads): take 0011 back too, and let the reopen apply both.
        "DELETE FROM _sqlx_migrations WHERE version = 11",
        "DROP INDEX games_listed_open",
        "DROP INDEX games_listed_live",
        "ALTER TABLE games DROP COLUMN listed",
        "ALTER TABLE games DROP COLUMN abandoned_at",
        "ALTER TABLE games DROP COLUMN active_at",
        "INSERT INTO games (code, options, seed, created_at, lobby, setup, started_at, \
         finished_at, result, campaign) VALUES \
         ('LOBBY', '{}', 1, 100, '{}', NULL, NULL, NULL, NULL, NULL), \
         ('START', '{}', 2, 100, '{}', '{}', 200, NULL, NULL, NULL), \
         ('PLAY', '{}', 3, 100, '{}', '{}', 200, NULL, NULL, NULL)",
        "INSERT INTO commands (code, idx, seat, command, at) VALUES \
         ('PLAY', 0, 0, '{}', 300), ('PLAY', 1, 1, '{}', 400)",
    ] {
        sqlx::query(sql).execute(store.pool()).await.unwrap();
    }
    store.close().await;

    let store = db.open().await;
    assert_eq!(
        applied_migrations(&store).await,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    );
    for (code, active) in [("LOBBY", 100), ("START", 200), ("PLAY", 400)] {
        let g = store.game(code).await.unwrap().unwrap();
        assert_eq!((code, g.active_at, g.abandoned_at), (code, active, None));
    }
    assert_eq!(store.unfinished_games().await.unwrap().len(), 3);
    store.close().await;
}

#[tokio::test]
async fn sqlite_rows_before_versions_read_as_legacy() {
    let db = Db::sqlite();
    rows_before_versions_read_as_legacy(&db).await;
    db.cleanup().await;
}

/// 0008 keeps the leases 0007 stored, and lets a lease name a game not
/// stored (yet).
async fn migration_8_keeps_leases_and_drops_the_foreign_key(db: &Db) {
    // Take the schema back to 0007's table, with a game and its lease.
    let store = db.open().await;
    for sql in [
        "DELETE FROM _sqlx_migrations WHERE version = 8",
        "DROP TABLE game_leases",
        "CREATE TABLE game_leases (code TEXT PRIMARY KEY REFERENCES games (code) \
         ON DELETE CASCADE, owner TEXT NOT NULL, expires_at BIGINT NOT NULL)",
        "INSERT INTO games (code, options, seed, created_at, lobby) \
         VALUES ('G', '{}', 1, 100, '{}')",
        "INSERT INTO game_leases (code, owner, expires_at) VALUES ('G', 'n', 5)",
    ] {
        sqlx::query(sql).execute(store.pool()).await.unwrap();
    }
    // The foreign key is there before 0008.
    assert!(is_not_found(store.acquire_lease("NEW", "n", 0, 10).await));
    store.close().await;

    let store = db.open().await;
    assert_eq!(
        applied_migrations(&store).await,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    );
    let l = store.lease("G").await.unwrap().unwrap();
    assert_eq!((l.owner.as_str(), l.expires_at), ("n", 5));
    assert!(store.acquire_lease("NEW", "n", 0, 10).await.unwrap());
    assert_eq!(store.expired_leases(5).await.unwrap(), ["G"]);
    store.close().await;
}

#[tokio::test]
async fn sqlite_migration_8_keeps_leases_and_drops_the_foreign_key() {
    let db = Db::sqlite();
    migration_8_keeps_leases_and_drops_the_foreign_key(&db).await;
    db.cleanup().await;
}

#[tokio::test]
async fn postgres_migration_8_keeps_leases_and_drops_the_foreign_key() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    migration_8_keeps_leases_and_drops_the_foreign_key(&db).await;
    db.cleanup().await;
}

#[tokio::test]
async fn sqlite_migration_4_backfills_active_at() {
    let db = Db::sqlite();
    migration_4_backfills_active_at(&db).await;
    db.cleanup().await;
}

#[tokio::test]
async fn postgres_rows_before_versions_read_as_legacy() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    rows_before_versions_read_as_legacy(&db).await;
    db.cleanup().await;
}

#[tokio::test]
async fn postgres_migration_4_backfills_active_at() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    migration_4_backfills_active_at(&db).await;
    db.cleanup().await;
}

/// Many writers at once (several games, one connection pool): no "database
/// is locked", nothing lost.
async fn concurrent_appends(store: Arc<SqlStore>) {
    const GAMES: usize = 6;
    const COMMANDS: i64 = 30;
    for g in 0..GAMES {
        store
            .create_game(&game(&format!("G{g}"), g as i64))
            .await
            .unwrap();
    }
    let tasks: Vec<_> = (0..GAMES)
        .map(|g| {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                let code = format!("G{g}");
                for i in 0..COMMANDS {
                    store.append_commands(&[cmd(&code, i)]).await.unwrap();
                    if i % 5 == 0 {
                        assert_eq!(store.commands(&code).await.unwrap().len() as i64, i + 1);
                    }
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    for g in 0..GAMES {
        let got = store.commands(&format!("G{g}")).await.unwrap();
        assert_eq!(got.len() as i64, COMMANDS);
    }
}

#[tokio::test]
async fn sqlite_reopen_keeps_data() {
    let db = Db::sqlite();
    reopen_keeps_data(&db).await;
    db.cleanup().await;
}

#[tokio::test]
async fn postgres_reopen_keeps_data() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    reopen_keeps_data(&db).await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_concurrent_appends() {
    let db = Db::sqlite();
    let store = Arc::new(db.open().await);
    concurrent_appends(Arc::clone(&store)).await;
    store.close().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_concurrent_appends() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    let store = Arc::new(db.open().await);
    concurrent_appends(Arc::clone(&store)).await;
    store.close().await;
    db.cleanup().await;
}

/// Every pooled SQLite connection runs with the durability settings, and
/// writes go through one connection (writers queue in the pool instead of
/// sleeping on SQLite's busy handler).
#[tokio::test]
async fn sqlite_pragmas() {
    let db = Db::sqlite();
    let store = db.open().await;
    assert_eq!(store.writer().options().get_max_connections(), 1);
    assert!(store.pool().options().get_max_connections() > 1);
    // Hold several connections so more than one gets checked.
    let mut conns = vec![store.writer().acquire().await.unwrap()];
    for _ in 0..3 {
        conns.push(store.pool().acquire().await.unwrap());
    }
    for conn in &mut conns {
        let mode: String = sqlx::query("PRAGMA journal_mode")
            .fetch_one(&mut **conn)
            .await
            .unwrap()
            .try_get(0)
            .unwrap();
        assert_eq!(mode, "wal");
        let pragma = |name: &'static str| format!("PRAGMA {name}");
        for (name, want) in [
            ("synchronous", 2i64),
            ("foreign_keys", 1),
            ("wal_autocheckpoint", 0),
            ("busy_timeout", 10_000),
        ] {
            let got: i64 = sqlx::query(&pragma(name))
                .fetch_one(&mut **conn)
                .await
                .unwrap()
                .try_get(0)
                .unwrap();
            assert_eq!(got, want, "PRAGMA {name}");
        }
    }
    drop(conns);
    store.close().await;
    db.cleanup().await;
}

/// Commits only append to the WAL (no checkpoint inside a commit), and a
/// background task copies the WAL into the database file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_wal_is_checkpointed_in_the_background() {
    let db = Db::sqlite();
    let store = db.open().await;
    let file = match &db {
        Db::Sqlite { dir } => dir.path().join("citadel.db"),
        Db::Postgres { .. } => unreachable!("a SQLite test"),
    };
    store.create_game(&game("G", 1)).await.unwrap();
    let before = std::fs::metadata(&file).unwrap().len();
    let big = "x".repeat(1000);
    for i in 0..400 {
        let mut c = cmd("G", i);
        c.command = format!("\"{big}\"");
        store.append_commands(&[c]).await.unwrap();
    }
    // 400 KB of commands reach the database file within a few seconds.
    let mut grown = 0;
    for _ in 0..50 {
        grown = std::fs::metadata(&file)
            .unwrap()
            .len()
            .saturating_sub(before);
        if grown > 300_000 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        grown > 300_000,
        "the database file grew by only {grown} bytes"
    );
    assert_eq!(store.commands("G").await.unwrap().len(), 400);
    store.close().await;
    db.cleanup().await;
}

/// `sqlite::memory:` works (one connection, private database).
#[tokio::test]
async fn sqlite_in_memory() {
    let store = SqlStore::connect("sqlite::memory:").await.unwrap();
    commands_batch_across_games(&store).await;
    accounts_case_insensitive(&store).await;
    let other = SqlStore::connect("sqlite::memory:").await.unwrap();
    assert_eq!(other.game("AAAA").await.unwrap(), None, "private");
}

/// A file in a directory that does not exist yet, with a relative URL
/// form and no `mode`: both are created.
#[tokio::test]
async fn sqlite_creates_file_and_directory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a").join("b").join("citadel.db");
    let url = format!("sqlite:{}", file.display());
    let store = SqlStore::connect(&url).await.unwrap();
    store.create_game(&game("FILE", 1)).await.unwrap();
    store.close().await;
    assert!(file.exists());
    let store = SqlStore::connect(&url).await.unwrap();
    assert!(store.game("FILE").await.unwrap().is_some());
    store.close().await;
}

/// `open` picks the store from the URL.
#[tokio::test]
async fn open_by_url() {
    let mem = citadel_store::open("memory:").await.unwrap();
    assert!(format!("{mem:?}").starts_with("MemStore"));
    commands_batch_across_games(mem.as_ref()).await;
    let db = Db::sqlite();
    let sql = citadel_store::open(&db.url()).await.unwrap();
    assert!(format!("{sql:?}").starts_with("SqlStore"));
    commands_batch_across_games(sql.as_ref()).await;
    drop(sql);
    db.cleanup().await;
}

#[tokio::test]
async fn bad_url_is_backend_error() {
    assert!(matches!(
        SqlStore::connect("mysql://localhost/x").await,
        Err(StoreError::Backend(_))
    ));
}
