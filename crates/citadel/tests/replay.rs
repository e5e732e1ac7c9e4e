//! Replays of finished Siege games (`citadel_server::replay`), built from
//! the records a live session leaves, against what its spectator saw.

use citadel_protocol::SeqEvent;
use citadel_protocol::{ClientMsg, Join, ServerMsg, TableOptions};
use citadel_rules::game::{Game as SiegeGame, GameView};
use citadel_server::replay::{from_stored, Check, Page, Replay, ReplayError, Step, MAX_PAGE};
use citadel_server::session::{Input, Output, Session, SessionConfig};
use citadel_server::table::Kind;
use citadel_store::{CommandRecord, GameRecord, ReplayPage, ReplayRecord};
use serde_json::Value;

fn siege() -> &'static dyn Kind {
    citadel::catalogue()
        .get("siege")
        .map(|k| k.as_ref())
        .expect("siege is in the catalogue")
}

fn replay(
    game: &GameRecord,
    commands: &[CommandRecord],
    page: Page,
) -> Result<Replay, ReplayError> {
    citadel_server::replay::replay(siege(), game, commands, page)
}

fn replay_checked(
    game: &GameRecord,
    commands: &[CommandRecord],
    page: Page,
    check: Check,
) -> Result<Replay, ReplayError> {
    citadel_server::replay::replay_checked(siege(), game, commands, page, check)
}

fn record(
    game: &GameRecord,
    commands: &[CommandRecord],
    check: Check,
    outdated: Option<&str>,
) -> Result<ReplayRecord, ReplayError> {
    citadel_server::replay::record(siege(), game, commands, check, outdated)
}

const PLAYER: u64 = 1;
const SPECTATOR: u64 = 2;

/// What a live game left behind: its record, its commands, and what
/// its spectator was sent.
struct Played {
    record: GameRecord,
    commands: Vec<CommandRecord>,
    spectator_events: Vec<SeqEvent>,
    spectator_view: Option<GameView>,
}

/// A 1-seat game against the AI Dark Legion whose player leaves at
/// once, so bots play every seat to the end, with a spectator
/// watching. Records are built from the session's outputs exactly as
/// the server persists them.
fn random_bot_game(seed: u64) -> Played {
    let options: TableOptions = serde_json::from_value(serde_json::json!({
        "mission": "ce-c1m1", "seats": 1, "dark_legion": {"mode": "ai"},
    }))
    .expect("options");
    let config = SessionConfig {
        grace_ms: 0,
        bot_delay_ms: 0,
        max_bot_steps: 100_000,
    };
    let mut s = Session::<SiegeGame>::new("REPLAY".into(), options.clone(), seed, config)
        .expect("options")
        .with_bots(citadel_bots::seat_bot);
    let mut out = Vec::new();
    for (conn, join) in [
        (PLAYER, Join::Player { name: "Ann".into() }),
        (SPECTATOR, Join::Spectator { name: "Eve".into() }),
    ] {
        out.extend(s.handle(
            Input::Hello(citadel_server::session::Hello {
                conn,
                join,
                last_seq: None,
                fresh_token: format!("t{conn}"),
                account: None,
            }),
            0,
        ));
    }
    let ready = ClientMsg::Ready { ready: true };
    for msg in [ready, ClientMsg::Start] {
        out.extend(s.handle(Input::Message { conn: PLAYER, msg }, 0));
    }
    // Ann plays her seat as the heuristic bot would, and stays
    // connected: bots and the AI play only while a player is.
    let mut ann = citadel_bots::HeuristicCorporation::new();
    for now in 1..100_000 {
        let mine = s
            .game()
            .filter(|g| g.seat_to_act() == Some(citadel_rules::game::Seat(0)))
            .and_then(|g| {
                use citadel_bots::Bot;
                ann.choose(&citadel_bots::Seen::of(g, citadel_rules::game::Seat(0)))
            });
        let input = match mine {
            Some(command) => Input::Message {
                conn: PLAYER,
                msg: ClientMsg::Command {
                    client_ref: None,
                    command: citadel_protocol::Json::of(&command),
                },
            },
            None => Input::Tick,
        };
        out.extend(s.handle(input, now));
        if s.game().is_some_and(SiegeGame::is_finished) {
            break;
        }
    }
    assert!(
        s.game().is_some_and(SiegeGame::is_finished),
        "the bots finish"
    );

    let mut record = GameRecord {
        code: "REPLAY".into(),
        options: serde_json::to_string(&options).expect("options"),
        seed,
        created_at: 0,
        lobby: String::new(),
        setup: None,
        started_at: None,
        finished_at: None,
        result: None,
        campaign: None,
        engine_version: 0,
        content_hash: String::new(),
        kind: "siege".into(),
        active_at: 0,
        abandoned_at: None,
        listed: false,
    };
    let mut played = Played {
        record: record.clone(),
        commands: Vec::new(),
        spectator_events: Vec::new(),
        spectator_view: None,
    };
    for o in out {
        match o {
            Output::Started { setup, .. } => record.setup = Some(setup.text().to_string()),
            Output::Finished { result, .. } => {
                record.finished_at = Some(1);
                record.result = Some(result.text().to_string());
            }
            Output::Applied {
                seat,
                command,
                index,
            } => played.commands.push(CommandRecord {
                code: "REPLAY".into(),
                index: index as i64,
                seat,
                command: command.text().to_string(),
                at: 0,
                checksum: None,
            }),
            Output::Checksum { index, checksum } => {
                let last = played.commands.last_mut().expect("a command before");
                assert_eq!(last.index, index as i64, "on the batch's last command");
                last.checksum = Some(checksum);
            }
            Output::Send { to, msg } if to.contains(&SPECTATOR) => match msg {
                ServerMsg::Snapshot { view, .. } => {
                    played.spectator_view = Some(view.parse().expect("a view"))
                }
                ServerMsg::Events {
                    events,
                    view,
                    view_patch,
                    ..
                } => {
                    played.spectator_events.extend(events);
                    match (view, view_patch, played.spectator_view.as_mut()) {
                        (Some(view), _, _) => {
                            played.spectator_view = Some(view.parse().expect("a view"))
                        }
                        (None, Some(patch), Some(held)) => {
                            citadel_protocol::view_patch::apply_to_view(held, &patch)
                                .expect("the patch fits the spectator's last view");
                        }
                        _ => panic!("events with neither a view nor a base to patch"),
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }
    played.record = record;
    played
}

fn all_steps(p: &Played) -> Vec<Step> {
    let mut steps = Vec::new();
    loop {
        let page = Page {
            from: Some(steps.len() as u64),
            count: None,
        };
        let r = replay(&p.record, &p.commands, page).expect("replays");
        assert_eq!(r.total_steps, p.commands.len() as u64 + 1);
        if r.steps.is_empty() {
            return steps;
        }
        assert!(r.steps.len() as u64 <= MAX_PAGE);
        steps.extend(r.steps);
    }
}

#[test]
fn a_replay_ends_in_the_live_spectators_final_view_with_the_same_events() {
    let p = random_bot_game(7);
    let steps = all_steps(&p);
    assert_eq!(steps.len(), p.commands.len() + 1);
    let indexes: Vec<u64> = steps.iter().map(|s| s.index).collect();
    assert!(indexes.iter().enumerate().all(|(i, k)| *k == i as u64));
    assert!(steps[0].command.is_none() && steps[0].seat.is_none());
    assert!(!steps[0].events.is_empty(), "the start has events");

    let last = steps.last().expect("a step");
    let last_view: GameView = last.view.parse().expect("a view");
    assert_eq!(Some(&last_view), p.spectator_view.as_ref());

    // Same events, same seqs, contiguous from 1. (The live spectator
    // got the start's events inside its snapshot, not as events.)
    let events: Vec<SeqEvent> = steps.iter().flat_map(|s| s.events.clone()).collect();
    assert!(events
        .iter()
        .enumerate()
        .all(|(i, e)| e.seq == i as u64 + 1));
    let after_start = steps[0].events.len();
    assert_eq!(events[after_start..], p.spectator_events[..]);
}

#[test]
fn a_replay_shows_no_hidden_information() {
    let p = random_bot_game(8);
    let r = replay(&p.record, &p.commands, Page::default()).expect("replays");
    let json = serde_json::to_value(&r).expect("json");
    assert!(json["setup"].get("seed").is_none(), "the seed is secret");
    let mut dealt = 0;
    for step in json["steps"].as_array().expect("steps") {
        for team in step["view"]["teams"].as_array().expect("teams") {
            assert!(team["hand"].is_null(), "a hand: {team}");
        }
        for e in step["events"].as_array().expect("events") {
            if e["event"]["type"] == "cards_dealt" {
                dealt += 1;
                assert!(e["event"]["cards"].is_null(), "dealt cards: {e}");
            }
        }
    }
    assert!(dealt > 0, "cards were dealt during the game");
}

#[test]
fn pages_are_bounded_and_an_unfinished_or_damaged_game_is_refused() {
    let p = random_bot_game(9);
    let r = replay(
        &p.record,
        &p.commands,
        Page {
            from: Some(2),
            count: Some(3),
        },
    )
    .expect("replays");
    let indexes: Vec<u64> = r.steps.iter().map(|s| s.index).collect();
    assert_eq!(indexes, [2, 3, 4]);
    let big = Page {
        from: None,
        count: Some(100_000),
    };
    let r = replay(&p.record, &p.commands, big).expect("replays");
    assert_eq!(r.steps.len() as u64, r.total_steps.min(MAX_PAGE));

    let mut unfinished = p.record.clone();
    unfinished.finished_at = None;
    assert!(matches!(
        replay(&unfinished, &p.commands, Page::default()),
        Err(ReplayError::NotFinished)
    ));
    let mut gap = p.commands.clone();
    gap.remove(1);
    assert!(matches!(
        replay(&p.record, &gap, Page::default()),
        Err(ReplayError::Corrupt(_))
    ));
}

/// A kept replay, read back by pages, is what the engine replays.
#[test]
fn a_kept_replay_serves_what_the_engine_replays() {
    let p = random_bot_game(10);
    let kept = record(&p.record, &p.commands, Check::SameRules, None).expect("kept");
    assert_eq!(kept.steps.len(), p.commands.len() + 1);
    for (from, count) in [(0, MAX_PAGE), (3, 4), (p.commands.len() as u64, 10)] {
        let page = Page {
            from: Some(from),
            count: Some(count),
        };
        let engine =
            serde_json::to_value(replay(&p.record, &p.commands, page).expect("ok")).expect("json");
        let stored = ReplayPage {
            header: kept.header.clone(),
            total_steps: kept.steps.len() as i64,
            steps: kept
                .steps
                .iter()
                .skip(from as usize)
                .take(count as usize)
                .cloned()
                .collect(),
        };
        let mut served = from_stored("REPLAY", stored, from).expect("parses");
        assert_eq!(served["outdated"], Value::Null);
        served.as_object_mut().expect("object").remove("outdated");
        assert_eq!(served, engine, "page {from}+{count}");
    }
}

/// Checked against the stored checksums, a faithful record replays; a
/// changed checksum or a refused command is "outdated", unchecked it
/// is not noticed (same rules) or corrupt.
#[test]
fn a_checked_replay_finds_a_checksum_that_differs() {
    let p = random_bot_game(11);
    let sums = p.commands.iter().filter(|c| c.checksum.is_some()).count();
    assert!(sums > 0, "batches have checksums");
    let page = Page::default();
    let checked = replay_checked(&p.record, &p.commands, page, Check::AgainstChecksums);
    assert!(checked.is_ok(), "{checked:?}");

    let mut changed = p.commands.clone();
    let k = changed
        .iter()
        .position(|c| c.checksum.is_some())
        .expect("one");
    changed[k].checksum = Some("another state".into());
    assert!(replay(&p.record, &changed, page).is_ok(), "not checked");
    let checked = replay_checked(&p.record, &changed, page, Check::AgainstChecksums);
    match checked {
        Err(ReplayError::Outdated(why)) => assert!(why.contains(&format!("command {k}"))),
        other => panic!("expected outdated, got {other:?}"),
    }
    let kept = record(&p.record, &changed, Check::AgainstChecksums, None);
    assert!(matches!(kept, Err(ReplayError::Outdated(_))));

    let mut refused = p.commands.clone();
    refused.swap(0, 1);
    refused[0].index = 0;
    refused[1].index = 1;
    let checked = replay_checked(&p.record, &refused, page, Check::AgainstChecksums);
    assert!(
        matches!(checked, Err(ReplayError::Outdated(_))),
        "{checked:?}"
    );
}
