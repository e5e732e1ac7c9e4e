//! The session state machine, driven without sockets or clocks.

use citadel_protocol::{
    close, view_patch, ChatRole, ClientMsg, Controller, ErrorCode, Join, ServerMsg,
};
use citadel_rules::content::Corporation;
use citadel_rules::game::{Command, Event, GameView, Rejection, Seat, Setup, Viewer};
use citadel_rules::seam::DarkLegionChoice;
use citadel_server::session::{
    ConnId, Hello, Input, LobbyDoc, Output, ReservedSeat, SessionConfig, SessionError, StoredGame,
};

mod common;
use common::GameOptions;

/// Siege's session, with Siege's bots (as the catalogue makes it).
type Session = citadel_server::session::Session<citadel_rules::game::Game>;

fn new_session(code: String, options: GameOptions, seed: u64, config: SessionConfig) -> Session {
    Session::new(code, options.table(), seed, config)
        .expect("Siege options")
        .with_bots(citadel_bots::seat_bot)
}

/// [`Session::restore_checked`] without checksums, from typed documents.
#[allow(clippy::too_many_arguments)]
fn restore(
    code: &str,
    options: GameOptions,
    seed: u64,
    lobby: &LobbyDoc,
    setup: Option<&Setup>,
    commands: &[(u8, Command)],
    now: u64,
    config: SessionConfig,
) -> Result<Session, SessionError> {
    let table = options.table();
    let setup = setup.map(|s| serde_json::to_string(s).expect("setup"));
    let commands: Vec<(u8, String)> = commands
        .iter()
        .map(|(seat, c)| (*seat, serde_json::to_string(c).expect("command")))
        .collect();
    Session::restore_checked(
        StoredGame {
            code,
            options: &table,
            seed,
            lobby,
            setup: setup.as_deref(),
            commands: &commands,
            checksums: None,
        },
        now,
        config,
    )
    .map(|s| s.with_bots(citadel_bots::seat_bot))
}

/// [`Session::reserved`] from Siege's options and setup.
fn reserved(
    code: &str,
    options: GameOptions,
    config: SessionConfig,
    seats: Vec<ReservedSeat>,
    setup: Setup,
    now: u64,
) -> Result<(Session, Vec<Output>), SessionError> {
    let seed = setup.seed;
    Session::reserved(
        code.into(),
        options.table(),
        config,
        seats,
        &setup,
        seed,
        now,
    )
    .map(|(s, out)| (s.with_bots(citadel_bots::seat_bot), out))
}

fn reserved_seat(name: &str, corporation: Corporation, secret: &str) -> ReservedSeat {
    ReservedSeat {
        name: name.into(),
        choice: Some(citadel_protocol::Json::of(
            &citadel_rules::seam::SeatChoice {
                corporation: Some(corporation),
                doomtroopers: None,
            },
        )),
        token_hash: citadel_server::session::token_hash(secret),
        account: None,
    }
}

fn cmd(command: &Command) -> citadel_protocol::Json {
    citadel_protocol::Json::of(command)
}

fn take_seat(corporation: Corporation) -> ClientMsg {
    ClientMsg::Choose {
        choice: citadel_protocol::Json::of(&citadel_rules::seam::SeatChoice {
            corporation: Some(corporation),
            doomtroopers: None,
        }),
    }
}
use std::collections::BTreeMap;

fn options(seats: u8, dl: DarkLegionChoice) -> GameOptions {
    GameOptions {
        mission: "ce-c1m1".into(),
        seats,
        dark_legion: dl,
        starting_rank: 1,
        turn_seconds: None,
    }
}

fn config() -> SessionConfig {
    SessionConfig {
        grace_ms: 5_000,
        bot_delay_ms: 0,
        max_bot_steps: 100_000,
    }
}

fn sent(out: &[Output], conn: ConnId) -> Vec<ServerMsg> {
    out.iter()
        .filter_map(|o| match o {
            Output::Send { to, msg } if to.contains(&conn) => Some(msg.clone()),
            _ => None,
        })
        .collect()
}

fn hello(s: &mut Session, conn: ConnId, join: Join, now: u64) -> Vec<Output> {
    s.handle(
        Input::Hello(Hello {
            conn,
            join,
            last_seq: None,
            fresh_token: format!("token-{conn}"),
            account: None,
        }),
        now,
    )
}

fn msg(s: &mut Session, conn: ConnId, m: ClientMsg, now: u64) -> Vec<Output> {
    s.handle(Input::Message { conn, msg: m }, now)
}

fn player(name: &str) -> Join {
    Join::Player { name: name.into() }
}

/// Two humans (seat 0 host, seat 1) and a spectator (conn 9); the DL is
/// seat 1 so seat 0 plays Bauhaus against a human Dark Legion.
fn started_game() -> (Session, Vec<Output>) {
    started_game_with(options(2, DarkLegionChoice::Seat(1)))
}

/// [`started_game`] with these options.
fn started_game_with(options: GameOptions) -> (Session, Vec<Output>) {
    let mut s = new_session("ABCDEF".into(), options, 11, config());
    hello(&mut s, 1, player("Ann"), 0);
    hello(&mut s, 2, player("Bob"), 0);
    hello(&mut s, 9, Join::Spectator { name: "Eve".into() }, 0);
    msg(&mut s, 1, take_seat(Corporation::Bauhaus), 0);
    msg(&mut s, 2, take_seat(Corporation::Capitol), 0);
    msg(&mut s, 1, ClientMsg::Ready { ready: true }, 0);
    msg(&mut s, 2, ClientMsg::Ready { ready: true }, 0);
    let out = msg(&mut s, 1, ClientMsg::Start, 0);
    (s, out)
}

#[test]
fn lobby_start_sends_every_viewer_a_snapshot() {
    let (s, out) = started_game();
    assert!(s.game().is_some());
    for conn in [1, 2, 9] {
        assert!(
            sent(&out, conn)
                .iter()
                .any(|m| matches!(m, ServerMsg::Snapshot { .. })),
            "conn {conn} got no snapshot"
        );
    }
}

#[test]
fn only_the_host_starts_and_only_when_all_are_ready() {
    let mut s = new_session("C".into(), options(2, DarkLegionChoice::Drawn), 1, config());
    hello(&mut s, 1, player("Ann"), 0);
    hello(&mut s, 2, player("Bob"), 0);
    let out = msg(&mut s, 2, ClientMsg::Start, 0);
    assert!(matches!(
        sent(&out, 2)[..],
        [ServerMsg::Error {
            code: ErrorCode::NotHost,
            ..
        }]
    ));
    let out = msg(&mut s, 1, ClientMsg::Start, 0);
    assert!(matches!(
        sent(&out, 1)[..],
        [ServerMsg::Error {
            code: ErrorCode::LobbyRefused,
            ..
        }]
    ));
    assert!(s.game().is_none());
}

#[test]
fn a_corporation_cannot_be_taken_twice() {
    let mut s = new_session("C".into(), options(2, DarkLegionChoice::Drawn), 1, config());
    hello(&mut s, 1, player("Ann"), 0);
    hello(&mut s, 2, player("Bob"), 0);
    msg(&mut s, 1, take_seat(Corporation::Mishima), 0);
    let out = msg(&mut s, 2, take_seat(Corporation::Mishima), 0);
    assert!(matches!(
        sent(&out, 2)[..],
        [ServerMsg::Error {
            code: ErrorCode::LobbyRefused,
            ..
        }]
    ));
}

#[test]
fn a_full_game_closes_new_players_with_game_full() {
    let mut s = new_session("C".into(), options(1, DarkLegionChoice::Ai), 1, config());
    hello(&mut s, 1, player("Ann"), 0);
    let out = hello(&mut s, 2, player("Bob"), 0);
    assert!(out
        .iter()
        .any(|o| matches!(o, Output::Close { conn: 2, code, .. } if *code == close::GAME_FULL)));
}

#[test]
fn spectators_and_early_commands_get_typed_errors() {
    let mut s = new_session("C".into(), options(2, DarkLegionChoice::Drawn), 1, config());
    hello(&mut s, 1, player("Ann"), 0);
    let out = msg(
        &mut s,
        1,
        ClientMsg::Command {
            client_ref: Some(1),
            command: cmd(&Command::EndTurn),
        },
        0,
    );
    assert!(matches!(
        sent(&out, 1)[..],
        [ServerMsg::Error {
            code: ErrorCode::NotStarted,
            ..
        }]
    ));
    let (mut s, _) = started_game();
    let out = msg(
        &mut s,
        9,
        ClientMsg::Command {
            client_ref: None,
            command: cmd(&Command::EndTurn),
        },
        0,
    );
    assert!(matches!(
        sent(&out, 9)[..],
        [ServerMsg::Error {
            code: ErrorCode::NotAPlayer,
            ..
        }]
    ));
}

#[test]
fn a_command_out_of_turn_is_rejected_with_its_reason_and_nothing_changes() {
    let (mut s, _) = started_game();
    let game = s.game().expect("started");
    let to_act = game.seat_to_act().expect("someone acts");
    let other: ConnId = if to_act.0 == 0 { 2 } else { 1 };
    let before = s.event_count();
    let out = msg(
        &mut s,
        other,
        ClientMsg::Command {
            client_ref: Some(7),
            command: cmd(&Command::PassEquipment),
        },
        0,
    );
    match &sent(&out, other)[..] {
        [ServerMsg::Rejected {
            client_ref: Some(7),
            reason,
            ..
        }] => {
            assert_eq!(
                reason.parse::<Rejection>().ok(),
                Some(Rejection::NotYourTurn)
            )
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
    assert_eq!(s.event_count(), before);
}

#[test]
fn an_accepted_command_is_acked_and_broadcast_with_contiguous_seqs() {
    let (mut s, _) = started_game();
    let seat = s.game().and_then(|g| g.seat_to_act()).expect("seat");
    let conn = ConnId::from(seat.0) + 1;
    let before = s.event_count();
    let out = msg(
        &mut s,
        conn,
        ClientMsg::Command {
            client_ref: Some(3),
            command: cmd(&Command::PassEquipment),
        },
        0,
    );
    let mine = sent(&out, conn);
    let after = s.event_count();
    assert!(after > before);
    assert!(matches!(mine[0], ServerMsg::Ack { client_ref: Some(3), seq } if seq == after));
    for c in [1, 2, 9] {
        let seqs: Vec<u64> = sent(&out, c)
            .iter()
            .flat_map(|m| match m {
                ServerMsg::Events { events, .. } => events.iter().map(|e| e.seq).collect(),
                _ => Vec::new(),
            })
            .collect();
        assert_eq!(seqs.first(), Some(&(before + 1)), "conn {c}");
        assert!(
            seqs.windows(2).all(|w| w[1] == w[0] + 1),
            "conn {c}: {seqs:?}"
        );
    }
}

/// Play the game to its end: the humans' seats pass everything they can,
/// or take the first legal command.
fn play_out(s: &mut Session, now: u64) -> Vec<Output> {
    let mut all = Vec::new();
    for _ in 0..20_000 {
        let Some(g) = s.game() else { break };
        if g.is_finished() {
            break;
        }
        let seat = g.seat_to_act().expect("someone acts");
        let legal = g.legal(seat);
        let cmd = if legal.contains(&Command::EndTurn) {
            Command::EndTurn
        } else {
            legal[0].clone()
        };
        all.extend(msg(
            s,
            ConnId::from(seat.0) + 1,
            ClientMsg::Command {
                client_ref: None,
                command: citadel_protocol::Json::of(&cmd),
            },
            now,
        ));
    }
    all
}

/// The views each connection holds along `out`, message by message, as
/// a client rebuilds them: a snapshot's or catch-up's whole view, or the
/// last view with an `events` message's patch applied. Panics if a patch
/// does not fit the view its connection holds.
fn views_held(out: &[Output]) -> BTreeMap<ConnId, Vec<GameView>> {
    let mut held: BTreeMap<ConnId, Vec<GameView>> = BTreeMap::new();
    for o in out {
        let Output::Send { to, msg } = o else {
            continue;
        };
        for conn in to {
            let views = held.entry(*conn).or_default();
            let next = match msg {
                ServerMsg::Snapshot { view, .. } => view.parse().expect("a view"),
                ServerMsg::Events {
                    view, view_patch, ..
                } => view_patch::next_view(
                    views.last(),
                    view.as_ref()
                        .map(|v| v.parse::<GameView>().expect("a view"))
                        .as_ref(),
                    view_patch.as_ref(),
                )
                .unwrap_or_else(|e| panic!("conn {conn}: {e}")),
                _ => continue,
            };
            views.push(next);
        }
    }
    held
}

#[test]
fn hid_no_message_to_a_spectator_or_opponent_carries_a_hand() {
    let (mut s, mut out) = started_game();
    out.extend(play_out(&mut s, 0));
    assert!(s.game().is_some_and(|g| g.is_finished()));
    // Seat 0 is the only corporation (seat 1 is the DL): its hand must
    // reach conn 1 only, in whole views and in patches alike.
    let mut own_hand_seen = false;
    for (conn, views) in views_held(&out) {
        for view in views {
            for team in &view.teams {
                if conn == 1 && team.seat == Seat(0) {
                    own_hand_seen |= team.hand.is_some();
                } else {
                    assert!(team.hand.is_none(), "conn {conn} saw a hand");
                }
            }
        }
    }
    for o in &out {
        let Output::Send { to, msg } = o else {
            continue;
        };
        // A message shared by several connections carries no secret.
        let owner_only = to.as_slice() == [1];
        if !owner_only {
            let text = serde_json::to_string(msg).expect("json");
            assert!(!text.contains("\"hand\":["), "{to:?} got a hand: {text}");
        }
        if let ServerMsg::Events { events, .. } = msg {
            for e in events {
                if let Ok(Event::CardsDealt { seat, cards, .. }) = e.event.parse::<Event>() {
                    assert!(
                        cards.is_none() || (owner_only && seat.0 == 0),
                        "{to:?} saw dealt cards"
                    );
                }
            }
        }
    }
    assert!(own_hand_seen, "the owner never saw its own hand");
}

#[test]
fn bots_fill_every_seat_and_finish_the_game() {
    let mut s = new_session("C".into(), options(2, DarkLegionChoice::Ai), 5, config());
    hello(&mut s, 1, player("Ann"), 0);
    msg(&mut s, 1, ClientMsg::SetBot { seat: 1, bot: true }, 0);
    msg(&mut s, 1, ClientMsg::Ready { ready: true }, 0);
    // Seat 0 leaves: with nobody left to play, the bot seat and the AI
    // DL wait too, however long (the game is paused, not played out).
    msg(&mut s, 1, ClientMsg::Start, 0);
    let out = s.handle(Input::Closed { conn: 1 }, 10);
    assert!(
        out.is_empty()
            || !out
                .iter()
                .any(|o| matches!(o, Output::Send { to, .. } if to.contains(&1)))
    );
    let out = s.handle(Input::Tick, DAY);
    assert!(applied(&out).is_empty(), "bots played a paused game");
    assert!(!s.game().is_some_and(|g| g.is_finished()));
    // Back, Ann plays her seat; the bot seat and the AI DL play theirs
    // to the end.
    resume(&mut s, 5, "token-1", DAY + 1);
    ann_plays_like_a_bot(&mut s, 5, DAY + 1);
    assert!(
        s.game().is_some_and(|g| g.is_finished()),
        "bots did not finish the game"
    );
}

const DAY: u64 = 24 * 60 * 60 * 1000;

/// Connection `conn` resumes the seat of `token`.
fn resume(s: &mut Session, conn: ConnId, token: &str, now: u64) -> Vec<Output> {
    s.handle(
        Input::Hello(Hello {
            conn,
            join: Join::Resume {
                token: token.into(),
            },
            last_seq: None,
            fresh_token: "unused".into(),
            account: None,
        }),
        now,
    )
}

/// Ann (seat 0, on `conn`) plays her seat with the heuristic corporation
/// bot, ticking when another seat is to act, until the game ends or
/// nothing moves. Returns every output.
fn ann_plays_like_a_bot(s: &mut Session, conn: ConnId, now: u64) -> Vec<Output> {
    use citadel_bots::{Bot, HeuristicCorporation, Seen};
    use citadel_rules::game::Seat;
    let mut bot = HeuristicCorporation::new();
    let mut all = Vec::new();
    for _ in 0..20_000 {
        let Some(g) = s.game() else { break };
        if g.is_finished() {
            break;
        }
        let out = if g.seat_to_act() == Some(Seat(0)) {
            let Some(command) = bot.choose(&Seen::of(g, Seat(0))) else {
                break;
            };
            let m = ClientMsg::Command {
                client_ref: None,
                command: citadel_protocol::Json::of(&command),
            };
            msg(s, conn, m, now)
        } else {
            s.handle(Input::Tick, now)
        };
        if applied(&out).is_empty() {
            break;
        }
        all.extend(out);
    }
    all
}

/// Is `seat` shown as played by a bot in a lobby message to `conn`?
fn shown_bot_playing(out: &[Output], conn: ConnId, seat: usize) -> Option<bool> {
    sent(out, conn).iter().rev().find_map(|m| match m {
        ServerMsg::Lobby { lobby } => Some(lobby.seats[seat].bot_playing),
        _ => None,
    })
}

#[test]
fn a_game_every_player_left_pauses_until_one_comes_back() {
    let mut o = options(2, DarkLegionChoice::Seat(1));
    o.turn_seconds = Some(60);
    let (mut s, _) = started_game_with(o);
    let before = s.event_count();
    // Ann (seat 0) acts first: her turn timer is the one that runs.
    assert_eq!(s.game().and_then(|g| g.seat_to_act()), Some(Seat(0)));
    s.handle(Input::Closed { conn: 1 }, 100);
    s.handle(Input::Closed { conn: 2 }, 100);
    // The spectator (conn 9) stays: watching is not playing. Far past
    // the grace period and the turn limit, nothing is played.
    for t in [5_100, 60_100, 3_600_000, DAY] {
        let out = s.handle(Input::Tick, t);
        assert!(applied(&out).is_empty(), "a command was applied at {t}");
        assert_eq!(shown_bot_playing(&out, 9, 0), None, "a bot took a seat");
        assert_eq!(s.next_wake(), None, "a paused game needs no tick");
    }
    assert_eq!(s.event_count(), before);

    // Ann comes back a day later. Bob gets the whole grace period from
    // then, and Ann's turn timer starts again.
    let back = DAY + 1_000;
    let out = resume(&mut s, 5, "token-1", back);
    assert!(applied(&out).is_empty());
    let out = s.handle(Input::Tick, back + 4_999);
    assert!(applied(&out).is_empty());
    assert_eq!(shown_bot_playing(&out, 5, 1), None, "Bob's bot came early");
    let out = s.handle(Input::Tick, back + 5_000);
    assert_eq!(shown_bot_playing(&out, 5, 1), Some(true), "no bot for Bob");
    let out = s.handle(Input::Tick, back + 59_999);
    assert!(applied(&out).is_empty(), "the turn timer did not restart");
    // Play goes on: Ann's turn times out, and Bob's bot plays his seat.
    let out = s.handle(Input::Tick, back + 60_000);
    let seats: Vec<u8> = applied(&out).iter().map(|(seat, _)| *seat).collect();
    assert_eq!(seats.first(), Some(&0), "Ann's turn did not time out");
    let mut more = out;
    more.extend(ann_plays_like_a_bot(&mut s, 5, back + 60_000));
    assert!(
        applied(&more).iter().any(|(seat, _)| *seat == 1),
        "no bot played Bob's seat"
    );
}

#[test]
fn a_leavers_bot_plays_only_while_another_player_is_connected() {
    let (mut s, _) = started_game();
    // Ann leaves; Bob stays: after the grace period a bot plays Ann's
    // seat (it is Ann's turn).
    assert_eq!(s.game().and_then(|g| g.seat_to_act()), Some(Seat(0)));
    s.handle(Input::Closed { conn: 1 }, 100);
    let out = s.handle(Input::Tick, 5_099);
    assert!(applied(&out).is_empty(), "the bot came before the grace");
    let out = s.handle(Input::Tick, 5_100);
    assert_eq!(shown_bot_playing(&out, 2, 0), Some(true));
    assert!(
        applied(&out).iter().any(|(seat, _)| *seat == 0),
        "no bot played Ann's seat"
    );
    // Bob leaves too: the bot standing in for Ann stops, and none
    // comes for Bob.
    s.handle(Input::Closed { conn: 2 }, 7_000);
    let before = s.event_count();
    let out = s.handle(Input::Tick, DAY);
    assert!(applied(&out).is_empty(), "a bot played with nobody there");
    assert_eq!(s.event_count(), before);
}

#[test]
fn a_restored_game_waits_for_a_player_however_long_it_ticks() {
    // Before the restart: Ann left long ago, so her seat is stored as
    // played by a bot; Bob was playing.
    let (mut s, start) = started_game();
    let setup = start
        .iter()
        .find_map(|o| match o {
            Output::Started { setup, .. } => Some(setup.parse::<Setup>().expect("setup")),
            _ => None,
        })
        .expect("started");
    let mut out = s.handle(Input::Closed { conn: 1 }, 100);
    out.extend(s.handle(Input::Tick, 5_100));
    let commands = applied(&out);
    assert!(!commands.is_empty(), "Ann's bot did not play");
    let mut r = restore(
        "ABCDEF",
        options(2, DarkLegionChoice::Seat(1)),
        11,
        &s.lobby_document(),
        Some(&setup),
        &commands,
        0,
        config(),
    )
    .expect("restore");
    let before = r.event_count();
    for t in [0, 5_000, 60_000, DAY, 30 * DAY] {
        let out = r.handle(Input::Tick, t);
        assert!(applied(&out).is_empty(), "a command was applied at {t}");
        assert_eq!(r.next_wake(), None, "a paused game needs no tick");
    }
    assert_eq!(r.event_count(), before);
}

#[test]
fn a_leaver_is_marked_bot_played_and_resumes_with_the_gap() {
    let (mut s, _) = started_game();
    // Ann (seat 0) drops; Bob keeps playing; Ann resumes with her token.
    let seen = s.event_count();
    s.handle(Input::Closed { conn: 1 }, 100);
    let out = s.handle(Input::Tick, 100 + 5_000);
    let marked = sent(&out, 2).iter().any(|m| match m {
        ServerMsg::Lobby { lobby } => lobby.seats[0].bot_playing,
        _ => false,
    });
    assert!(marked, "the seat was not marked as bot-played");
    let now_count = s.event_count();
    assert!(now_count > seen, "the bot did not play for the leaver");
    let out = s.handle(
        Input::Hello(Hello {
            conn: 5,
            join: Join::Resume {
                token: "token-1".into(),
            },
            last_seq: Some(seen),
            fresh_token: "unused".into(),
            account: None,
        }),
        10_000,
    );
    let msgs = sent(&out, 5);
    assert!(matches!(msgs[0], ServerMsg::Welcome { seat: Some(0), .. }));
    let gap: Vec<u64> = msgs
        .iter()
        .flat_map(|m| match m {
            ServerMsg::Events { events, .. } => events.iter().map(|e| e.seq).collect(),
            _ => Vec::new(),
        })
        .collect();
    let expected: Vec<u64> = (seen + 1..=s.event_count()).collect();
    assert_eq!(gap, expected);
}

#[test]
fn a_bad_token_is_closed_and_a_second_connection_replaces_the_first() {
    let (mut s, _) = started_game();
    let out = s.handle(
        Input::Hello(Hello {
            conn: 6,
            join: Join::Resume {
                token: "nope".into(),
            },
            last_seq: None,
            fresh_token: String::new(),
            account: None,
        }),
        0,
    );
    assert!(out
        .iter()
        .any(|o| matches!(o, Output::Close { conn: 6, code, .. } if *code == close::BAD_TOKEN)));
    let out = s.handle(
        Input::Hello(Hello {
            conn: 7,
            join: Join::Resume {
                token: "token-2".into(),
            },
            last_seq: None,
            fresh_token: String::new(),
            account: None,
        }),
        0,
    );
    assert!(out
        .iter()
        .any(|o| matches!(o, Output::Close { conn: 2, code, .. } if *code == close::REPLACED)));
    assert!(sent(&out, 7)
        .iter()
        .any(|m| matches!(m, ServerMsg::Snapshot { .. })));
}

#[test]
fn trn_11_an_expired_turn_timer_passes_the_turn() {
    let mut o = options(2, DarkLegionChoice::Seat(1));
    o.turn_seconds = Some(60);
    let mut s = new_session("T".into(), o, 11, config());
    hello(&mut s, 1, player("Ann"), 0);
    hello(&mut s, 2, player("Bob"), 0);
    msg(&mut s, 1, ClientMsg::Ready { ready: true }, 0);
    msg(&mut s, 2, ClientMsg::Ready { ready: true }, 0);
    msg(&mut s, 1, ClientMsg::Start, 0);
    let waiting = s.game().and_then(|g| g.seat_to_act());
    let before = s.event_count();
    s.handle(Input::Tick, 59_000);
    assert_eq!(s.event_count(), before, "acted before the limit");
    let out = s.handle(Input::Tick, 60_000);
    assert!(s.event_count() > before, "the timer did nothing");
    // Everyone is told the seat timed out, before the events of the answer.
    for conn in [1, 2] {
        let msgs = sent(&out, conn);
        let told = msgs.iter().position(|m| {
            matches!(m, ServerMsg::TimedOut { seat, seq } if Some(*seat) == waiting.map(|w| w.0) && *seq == before)
        });
        let events = msgs
            .iter()
            .position(|m| matches!(m, ServerMsg::Events { .. }));
        assert!(
            told.is_some(),
            "connection {conn} is told about the timeout"
        );
        assert!(told < events, "the notice comes before the events");
    }
    assert_ne!(
        s.game().and_then(|g| g.seat_to_act()),
        waiting.filter(|_| false)
    );
}

#[test]
fn the_host_can_seat_and_unseat_bots_in_the_lobby() {
    let mut s = new_session("C".into(), options(3, DarkLegionChoice::Drawn), 1, config());
    hello(&mut s, 1, player("Ann"), 0);
    let out = msg(&mut s, 1, ClientMsg::SetBot { seat: 2, bot: true }, 0);
    let lobby = sent(&out, 1).into_iter().find_map(|m| match m {
        ServerMsg::Lobby { lobby } => Some(lobby),
        _ => None,
    });
    let lobby = lobby.expect("lobby update");
    assert_eq!(lobby.seats[2].controller, Controller::Bot);
    let choice = lobby.seats[2].choice.as_ref().expect("a bot's choice");
    assert!(choice
        .parse::<citadel_rules::seam::SeatChoice>()
        .is_ok_and(|c| c.corporation.is_some()));
    let out = msg(
        &mut s,
        1,
        ClientMsg::SetBot {
            seat: 2,
            bot: false,
        },
        0,
    );
    assert!(sent(&out, 1).iter().any(
        |m| matches!(m, ServerMsg::Lobby { lobby } if lobby.seats[2].controller == Controller::Open)
    ));
}

#[test]
fn chat_reaches_everyone_trimmed_and_bounded() {
    let (mut s, _) = started_game();
    let long = format!("  {}  ", "x".repeat(900));
    let out = msg(&mut s, 9, ClientMsg::Chat { text: long }, 0);
    for c in [1, 2, 9] {
        match &sent(&out, c)[..] {
            [ServerMsg::Chat {
                from,
                role,
                seat,
                text,
            }] => {
                assert_eq!(from, "Eve");
                assert_eq!(*role, ChatRole::Spectator);
                assert_eq!(*seat, None);
                assert_eq!(text.len(), 500);
            }
            other => panic!("conn {c}: {other:?}"),
        }
    }
}

/// A spectator named like a player cannot pass for them: every line says
/// the sender's role and seat, set by the server.
#[test]
fn chat_says_who_sent_it_so_a_spectator_cannot_pose_as_a_player() {
    let (mut s, _) = started_game();
    hello(&mut s, 8, Join::Spectator { name: "Bob".into() }, 0);
    let from_spectator = msg(
        &mut s,
        8,
        ClientMsg::Chat {
            text: "gg, I resign".into(),
        },
        0,
    );
    let from_player = msg(&mut s, 2, ClientMsg::Chat { text: "gg".into() }, 0);
    let line = |out: &Vec<Output>| match &sent(out, 1)[..] {
        [ServerMsg::Chat {
            from, role, seat, ..
        }] => (from.clone(), *role, *seat),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        line(&from_spectator),
        ("Bob".to_string(), ChatRole::Spectator, None)
    );
    assert_eq!(
        line(&from_player),
        ("Bob".to_string(), ChatRole::Player, Some(1))
    );
}

/// Chat loses control characters (NUL, ESC sequences, newlines) and
/// direction overrides, as names do; a line of nothing else is dropped.
#[test]
fn chat_strips_control_characters() {
    let (mut s, _) = started_game();
    let out = msg(
        &mut s,
        1,
        ClientMsg::Chat {
            text: "\0\u{1b}[2Jhi\r\nthere\u{202e}\u{7}".into(),
        },
        0,
    );
    match &sent(&out, 2)[..] {
        [ServerMsg::Chat { text, .. }] => assert_eq!(text, "[2Jhithere"),
        other => panic!("{other:?}"),
    }
    let out = msg(
        &mut s,
        1,
        ClientMsg::Chat {
            text: " \0\u{1b} ".into(),
        },
        0,
    );
    assert!(sent(&out, 2).is_empty());
}

#[test]
fn a_command_without_events_is_acked_with_the_seq_the_client_has() {
    let (mut s, _) = started_game();
    let before = s.event_count();
    let out = msg(
        &mut s,
        1,
        ClientMsg::Command {
            client_ref: Some(4),
            command: cmd(&Command::SetAllowPass { allow: false }),
        },
        0,
    );
    assert_eq!(s.event_count(), before);
    let to_sender = sent(&out, 1);
    assert!(matches!(to_sender[0], ServerMsg::Ack { client_ref: Some(4), seq } if seq == before));
    // Then an `events` message with no events, the view as a patch and
    // the legal list (docs/PROTOCOL.md, `ack`).
    assert!(
        matches!(
            &to_sender[1],
            ServerMsg::Events { events, view: None, view_patch: Some(_), .. } if events.is_empty()
        ),
        "{:?}",
        to_sender[1]
    );
}

/// A campaign mission: seats reserved for known players with their token
/// hashes and campaign PP, started at once; players resume with their
/// tokens, and the stored lobby and setup restore it.
#[test]
fn a_reserved_game_starts_at_once_and_players_resume_with_their_tokens() {
    use citadel_rules::game::{DarkLegionSetup, SeatSetup, Setup, Viewer};
    let setup = Setup {
        ruleset: Default::default(),
        mission: "ce-c1m1".into(),
        seats: vec![
            SeatSetup {
                corporation: Corporation::Capitol,
                doomtroopers: None,
                pp: Some(23),
                credits: None,
            },
            SeatSetup {
                corporation: Corporation::Mishima,
                doomtroopers: None,
                pp: Some(7),
                credits: None,
            },
        ],
        dark_legion: DarkLegionSetup::Seat(1),
        starting_rank: 1,
        seed: 5,
        campaign: true,
        c2m4_completed: None,
        dl_band: None,
    };
    let seats = vec![
        reserved_seat("Ann", Corporation::Capitol, "ann-secret"),
        reserved_seat("Bob", Corporation::Mishima, "bob-secret"),
    ];
    let (mut s, out) = reserved(
        "CAMP01",
        options(2, DarkLegionChoice::Seat(1)),
        config(),
        seats.clone(),
        setup.clone(),
        0,
    )
    .expect("starts");
    let (stored_setup, stored_lobby) = out
        .iter()
        .find_map(|o| match o {
            Output::Started { setup, lobby } => {
                Some((setup.parse::<Setup>().expect("setup"), lobby.clone()))
            }
            _ => None,
        })
        .expect("started");
    let game = s.game().expect("started at once");
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.teams.len(), 1);
    assert_eq!(view.teams[0].pp, 23);
    assert_eq!(view.dark_legion.pp, 7);

    // A stranger cannot join; the players resume with their tokens.
    let out = hello(&mut s, 3, player("Mallory"), 10);
    assert!(out
        .iter()
        .any(|o| matches!(o, Output::Close { conn: 3, code, .. } if *code == close::GAME_FULL)));
    for (conn, token, seat) in [(1, "ann-secret", 0), (2, "bob-secret", 1)] {
        let out = hello(
            &mut s,
            conn,
            Join::Resume {
                token: token.into(),
            },
            10,
        );
        let msgs = sent(&out, conn);
        assert!(
            matches!(msgs[0], ServerMsg::Welcome { seat: Some(k), .. } if k == seat),
            "{msgs:?}"
        );
        assert!(msgs.iter().any(|m| matches!(m, ServerMsg::Snapshot { .. })));
    }

    // The stored documents bring it back after a restart.
    let back = restore(
        "CAMP01",
        options(2, DarkLegionChoice::Seat(1)),
        5,
        &stored_lobby,
        Some(&stored_setup),
        &[],
        0,
        config(),
    )
    .expect("restores");
    let view = back.game().expect("started").view(Viewer::Spectator);
    assert_eq!(view.teams[0].pp, 23);
    assert_eq!(view.dark_legion.pp, 7);

    // Seats and setup must agree.
    assert!(reserved(
        "CAMP02",
        options(3, DarkLegionChoice::Seat(1)),
        config(),
        seats,
        setup,
        0,
    )
    .is_err());
}

/// Every command the session applied, in order.
fn applied(out: &[Output]) -> Vec<(u8, Command)> {
    out.iter()
        .filter_map(|o| match o {
            Output::Applied { seat, command, .. } => {
                Some((*seat, command.parse::<Command>().expect("a command")))
            }
            _ => None,
        })
        .collect()
}

/// Replay `commands` from `setup` and check that each is what a fresh bot
/// of its seat chooses there: the AI DL's seat plays `AiDarkLegion` (core
/// AI-*), every other seat (bot seats, leavers) `HeuristicCorporation`.
/// Returns how many commands the AI DL gave.
fn assert_bots_played(setup: &Setup, seed: u64, commands: &[(u8, Command)]) -> usize {
    use citadel_bots::{AiDarkLegion, Bot, HeuristicCorporation, Seen};
    use citadel_rules::dice::SeededDice;
    use citadel_rules::game::{Game, Seat};
    let mut dice = SeededDice::new(seed);
    let (mut game, _) = Game::new(setup.clone(), &mut dice).expect("game");
    let dl = game.dark_legion_seat();
    let mut ai = AiDarkLegion::new();
    let mut corporation = HeuristicCorporation::new();
    let mut n = 0;
    for (i, (seat, command)) in commands.iter().enumerate() {
        let expected = if Seat(*seat) == dl {
            n += 1;
            ai.choose(&Seen::of(&game, dl))
        } else {
            corporation.choose(&Seen::of(&game, Seat(*seat)))
        };
        assert_eq!(
            expected.as_ref(),
            Some(command),
            "command {i} (seat {seat})"
        );
        game.apply(Seat(*seat), command.clone(), &mut dice)
            .expect("replay");
    }
    n
}

#[test]
fn ai_the_ai_dark_legion_and_heuristic_bots_play_their_seats_also_after_a_restore() {
    let seed = 11;
    let mut s = new_session("C".into(), options(2, DarkLegionChoice::Ai), seed, config());
    let mut out = hello(&mut s, 1, player("Ann"), 0);
    out.extend(msg(&mut s, 1, ClientMsg::SetBot { seat: 1, bot: true }, 0));
    out.extend(msg(&mut s, 1, ClientMsg::Ready { ready: true }, 0));
    out.extend(msg(&mut s, 1, ClientMsg::Start, 0));
    // Ann plays her seat as the heuristic bot would (bots play only while
    // a player is connected).
    out.extend(ann_plays_like_a_bot(&mut s, 1, 10));
    assert!(s.game().is_some_and(|g| g.is_finished()), "not finished");
    let setup = out
        .iter()
        .find_map(|o| match o {
            Output::Started { setup, .. } => Some(setup.parse::<Setup>().expect("setup")),
            _ => None,
        })
        .expect("started");
    let commands = applied(&out);
    assert!(
        assert_bots_played(&setup, seed, &commands) > 0,
        "the AI never acted"
    );

    // Restore from the first half of the commands and let the bots finish.
    let half = commands.len() / 2;
    let mut r = restore(
        "C",
        options(2, DarkLegionChoice::Ai),
        seed,
        &s.lobby_document(),
        Some(&setup),
        &commands[..half],
        20_000,
        config(),
    )
    .expect("restore");
    // Nothing plays until Ann is back.
    let idle = r.handle(Input::Tick, 30_000);
    assert!(applied(&idle).is_empty(), "bots played a restored game");
    // Ann back, the bots play on at once (their answer comes with hers).
    let mut more = resume(&mut r, 5, "token-1", 30_000);
    more.extend(ann_plays_like_a_bot(&mut r, 5, 30_000));
    assert!(
        r.game().is_some_and(|g| g.is_finished()),
        "restored game not finished"
    );
    let mut all = commands[..half].to_vec();
    all.extend(applied(&more));
    assert!(all.len() > half);
    assert_bots_played(&setup, seed, &all);
}

fn lobby_writes(out: &[Output]) -> Vec<LobbyDoc> {
    out.iter()
        .filter_map(|o| match o {
            Output::LobbyChanged { lobby } => Some(lobby.clone()),
            _ => None,
        })
        .collect()
}

/// The stored lobby is written when what it holds changes (a seat taken,
/// a ready), not when viewers come and go: those are shown in the lobby
/// but not stored, and a busy game's spectators would write for nothing.
#[test]
fn the_lobby_is_stored_only_when_its_document_changes() {
    let mut s = new_session(
        "ABCDEF".into(),
        options(2, DarkLegionChoice::Seat(1)),
        11,
        config(),
    );
    let created = s.lobby_document();
    // A player joining takes a seat: stored, and it differs from creation.
    let out = hello(&mut s, 1, player("Ann"), 0);
    let joined = lobby_writes(&out);
    assert_eq!(joined.len(), 1, "{out:?}");
    assert_ne!(joined[0], created);
    // Spectators arriving and leaving change the lobby everyone sees ...
    let out = hello(&mut s, 9, Join::Spectator { name: "Eve".into() }, 0);
    assert!(sent(&out, 1)
        .iter()
        .any(|m| matches!(m, ServerMsg::Lobby { .. })));
    assert_eq!(lobby_writes(&out), Vec::<LobbyDoc>::new());
    let out = s.handle(Input::Closed { conn: 9 }, 0);
    assert!(sent(&out, 1)
        .iter()
        .any(|m| matches!(m, ServerMsg::Lobby { .. })));
    // ... but not the stored document.
    assert_eq!(lobby_writes(&out), Vec::<LobbyDoc>::new());
    // A choice is stored.
    let out = msg(&mut s, 1, take_seat(Corporation::Bauhaus), 0);
    assert_eq!(lobby_writes(&out), vec![s.lobby_document()]);
    let out = msg(&mut s, 1, ClientMsg::Ready { ready: true }, 0);
    assert_eq!(lobby_writes(&out).len(), 1);
    // Readying again changes nothing.
    let out = msg(&mut s, 1, ClientMsg::Ready { ready: true }, 0);
    assert_eq!(lobby_writes(&out), Vec::<LobbyDoc>::new());
}

/// Each batch is built once per kind of viewer: every spectator shares
/// one message (the shell serializes it once), each seat has its own.
#[test]
fn spectators_share_one_message_and_each_seat_gets_its_own() {
    let (mut s, _) = started_game();
    hello(&mut s, 10, Join::Spectator { name: "Sam".into() }, 0);
    let spectator_before = s.game().expect("started").view(Viewer::Spectator);
    let seat = s.game().and_then(|g| g.seat_to_act()).expect("seat");
    let conn = ConnId::from(seat.0) + 1;
    let out = msg(
        &mut s,
        conn,
        ClientMsg::Command {
            client_ref: None,
            command: cmd(&Command::PassEquipment),
        },
        0,
    );
    let events_to: Vec<Vec<ConnId>> = out
        .iter()
        .filter_map(|o| match o {
            Output::Send {
                to,
                msg: ServerMsg::Events {
                    view, view_patch, ..
                },
            } => {
                let mut to = to.clone();
                to.sort_unstable();
                // A shared message is the spectators' view.
                if to.len() > 1 {
                    let view = view_patch::next_view(
                        Some(&spectator_before),
                        view.as_ref()
                            .map(|v| v.parse::<GameView>().expect("a view"))
                            .as_ref(),
                        view_patch.as_ref(),
                    )
                    .expect("fits");
                    assert_eq!(view, s.game().expect("started").view(Viewer::Spectator));
                }
                Some(to)
            }
            _ => None,
        })
        .collect();
    assert_eq!(events_to.len(), 3, "{events_to:?}");
    for want in [vec![1], vec![2], vec![9, 10]] {
        assert!(events_to.contains(&want), "{events_to:?}");
    }
}

#[test]
fn ai_card_reveals_do_not_wait_for_the_bot_delay() {
    use citadel_bots::{Bot, HeuristicCorporation, Seen};
    let delay = 1_000;
    let cfg = SessionConfig {
        bot_delay_ms: delay,
        ..config()
    };
    let mut s = new_session("C".into(), options(2, DarkLegionChoice::Ai), 11, cfg);
    let _ = hello(&mut s, 1, player("Ann"), 0);
    let _ = msg(&mut s, 1, ClientMsg::SetBot { seat: 1, bot: true }, 0);
    let _ = msg(&mut s, 1, ClientMsg::Ready { ready: true }, 0);
    let _ = msg(&mut s, 1, ClientMsg::Start, 0);
    let mut reveals = 0;
    let mut now = 6_000;
    let mut ann = HeuristicCorporation::new();
    while !s.game().is_some_and(|g| g.is_finished()) && now < 5_000_000 {
        // Ann (still connected) plays her seat when it is her turn.
        let mine = s
            .game()
            .filter(|g| g.seat_to_act() == Some(Seat(0)))
            .and_then(|g| ann.choose(&Seen::of(g, Seat(0))));
        let out = match mine {
            Some(command) => {
                let m = ClientMsg::Command {
                    client_ref: None,
                    command: citadel_protocol::Json::of(&command),
                };
                msg(&mut s, 1, m, now)
            }
            None => s.handle(Input::Tick, now),
        };
        let cmds: Vec<_> = applied(&out)
            .into_iter()
            .filter(|(seat, _)| *seat != 0)
            .collect();
        // One paced command per delay; a reveal goes straight on to the
        // AI's answer, so it never ends a batch.
        let paced = cmds
            .iter()
            .filter(|(_, c)| *c != Command::RevealAiCard)
            .count();
        assert!(paced <= 1, "at {now}: {cmds:?}");
        assert_ne!(cmds.last().map(|(_, c)| c), Some(&Command::RevealAiCard));
        reveals += cmds.len() - paced;
        now += delay;
    }
    assert!(reveals > 0, "the AI never revealed a card");
}

/// Views as patches: after the snapshot at the start, every `events`
/// batch carries a patch against the view each connection was last sent,
/// and each connection's rebuilt view is exactly its viewer's view; a
/// connection that comes back (by seq or with a `resync`) gets the whole
/// view again, and the patches after it fit that view.
#[test]
fn events_carry_patches_against_each_connections_last_view() {
    let (mut s, mut out) = started_game();
    // Two commands, then a spectator comes back by seq and Eve resyncs,
    // then the game is played out.
    for _ in 0..2 {
        let seat = s.game().and_then(|g| g.seat_to_act()).expect("seat");
        let command = s.game().expect("game").legal(seat)[0].clone();
        out.extend(msg(
            &mut s,
            ConnId::from(seat.0) + 1,
            ClientMsg::Command {
                client_ref: None,
                command: citadel_protocol::Json::of(&command),
            },
            0,
        ));
    }
    // A spectator who saw everything up to `seq` comes back.
    let seq = s.event_count();
    let back = s.handle(
        Input::Hello(Hello {
            conn: 22,
            join: Join::Spectator { name: "Sam".into() },
            last_seq: Some(seq),
            fresh_token: "x".into(),
            account: None,
        }),
        0,
    );
    let catch_up: Vec<ServerMsg> = sent(&back, 22);
    assert!(
        catch_up.iter().any(|m| matches!(
            m,
            ServerMsg::Events {
                view: Some(_),
                view_patch: None,
                ..
            }
        )),
        "a connection that comes back by seq gets the whole view: {catch_up:?}"
    );
    out.extend(back);
    let resync = msg(&mut s, 9, ClientMsg::Resync, 0);
    assert!(sent(&resync, 9)
        .iter()
        .any(|m| matches!(m, ServerMsg::Snapshot { .. })));
    out.extend(resync);
    let start = out.len();
    out.extend(play_out(&mut s, 0));
    let game = s.game().expect("game");
    assert!(game.is_finished());
    let mut patched = 0;
    for o in &out[start..] {
        if let Output::Send {
            msg: ServerMsg::Events {
                view, view_patch, ..
            },
            ..
        } = o
        {
            assert!(
                view.is_none() && view_patch.is_some(),
                "live batches are patches"
            );
            patched += 1;
        }
    }
    assert!(patched > 10, "{patched} patched batches");
    let held = views_held(&out);
    for (conn, viewer) in [
        (1, Viewer::Seat(Seat(0))),
        (9, Viewer::Spectator),
        (22, Viewer::Spectator),
    ] {
        assert_eq!(
            held[&conn].last(),
            Some(&game.view(viewer)),
            "conn {conn} rebuilt its view"
        );
    }
}

/// 1993 event 11 changes the board mid-game: the `events` message that
/// carries `sectors_altered` carries the new map too (its tiles where the
/// game now has them), for players and spectators alike; no other
/// `events` message carries a map. Plays 1993 mission 1 with a bot seat
/// and the AI Dark Legion over seeds until the AI turns a sector.
#[test]
fn cev_1_the_events_message_of_an_altered_board_carries_the_new_map() {
    for seed in 1..40 {
        let mut o = options(2, DarkLegionChoice::Ai);
        o.mission = "classic-m1".into();
        let mut s = new_session("C".into(), o, seed, config());
        hello(&mut s, 1, player("Ann"), 0);
        hello(&mut s, 9, Join::Spectator { name: "Eve".into() }, 0);
        msg(&mut s, 1, ClientMsg::SetBot { seat: 1, bot: true }, 0);
        msg(&mut s, 1, ClientMsg::Ready { ready: true }, 0);
        msg(&mut s, 1, ClientMsg::Start, 0);
        let out = ann_plays_like_a_bot(&mut s, 1, 1);
        let mut altered = 0;
        for conn in [1, 9] {
            let mut last_map = None;
            for m in sent(&out, conn) {
                let ServerMsg::Events {
                    events,
                    static_data: map,
                    ..
                } = m
                else {
                    continue;
                };
                let alters = events
                    .iter()
                    .any(|e| matches!(e.event.parse::<Event>(), Ok(Event::SectorsAltered { .. })));
                assert_eq!(alters, map.is_some(), "seed {seed}: map iff altered");
                if map.is_some() {
                    altered += 1;
                    last_map = map;
                }
            }
            if let (Some(map), Some(g)) = (last_map, s.game()) {
                // (A turn may leave a symmetric sector looking the same, so
                // the map is compared with the board, not with the start.)
                assert_eq!(
                    map.parse::<citadel_rules::map_data::MapData>().ok(),
                    Some(citadel_rules::map_data::MapData::of(g)),
                    "seed {seed}: the board now"
                );
            }
        }
        if altered > 0 {
            return;
        }
    }
    panic!("no game of 39 turned or swapped a sector");
}

/// Issue 31, item 2: a seat belongs to its account. The account's player
/// joining as a player again — from another device, with no token — gets
/// its own seat back (the other connection is replaced) and catches up;
/// the token the new device is given resumes it afterwards. A guest's
/// second join is a new player (here: no seat left).
#[test]
fn an_accounts_player_takes_its_own_seat_back_from_another_device() {
    let account_hello = |s: &mut Session, conn: ConnId, fresh: &str| {
        s.handle(
            Input::Hello(Hello {
                conn,
                join: player("Ann"),
                last_seq: None,
                fresh_token: fresh.into(),
                account: Some("acc-ann".into()),
            }),
            0,
        )
    };
    let mut s = new_session(
        "ABCDEF".into(),
        options(2, DarkLegionChoice::Seat(1)),
        11,
        config(),
    );
    let out = account_hello(&mut s, 1, "laptop");
    assert!(out
        .iter()
        .any(|o| matches!(o, Output::PlayerLinked { seat: 0, account } if account == "acc-ann")));
    hello(&mut s, 2, player("Bob"), 0);
    msg(&mut s, 1, take_seat(Corporation::Bauhaus), 0);
    msg(&mut s, 2, take_seat(Corporation::Capitol), 0);
    msg(&mut s, 1, ClientMsg::Ready { ready: true }, 0);
    msg(&mut s, 2, ClientMsg::Ready { ready: true }, 0);
    msg(&mut s, 1, ClientMsg::Start, 0);

    // The phone: same account, no token.
    let out = account_hello(&mut s, 3, "phone");
    let welcome = sent(&out, 3)
        .into_iter()
        .find_map(|m| match m {
            ServerMsg::Welcome { seat, token, .. } => Some((seat, token)),
            _ => None,
        })
        .expect("welcomed");
    assert_eq!(
        welcome,
        (Some(0), Some("phone".to_string())),
        "its own seat"
    );
    assert!(
        out.iter()
            .any(|o| matches!(o, Output::Close { conn: 1, code, .. } if *code == close::REPLACED)),
        "the laptop's connection is replaced"
    );
    assert!(
        sent(&out, 3)
            .iter()
            .any(|m| matches!(m, ServerMsg::Snapshot { .. } | ServerMsg::Events { .. })),
        "the phone catches up with the game"
    );
    // The phone's token is the seat's now; the laptop's is not.
    let back = resume(&mut s, 4, "phone", 0);
    assert!(sent(&back, 4)
        .iter()
        .any(|m| matches!(m, ServerMsg::Welcome { seat: Some(0), .. })));
    let stale = resume(&mut s, 5, "laptop", 0);
    assert!(stale
        .iter()
        .any(|o| matches!(o, Output::Close { conn: 5, code, .. } if *code == close::BAD_TOKEN)));
    // A guest joining again is someone else: the game is full.
    let guest = hello(&mut s, 6, player("Ann"), 0);
    assert!(guest
        .iter()
        .any(|o| matches!(o, Output::Close { conn: 6, code, .. } if *code == close::GAME_FULL)));
}

/// Issue 31, item 2: the recent chat survives a reload. Whoever joins —
/// a returning player, a new spectator — gets the last lines (at most
/// `CHAT_KEPT`, oldest first) right after its welcome.
#[test]
fn the_recent_chat_is_sent_to_whoever_joins() {
    let (mut s, _) = started_game();
    let total = citadel_server::session::CHAT_KEPT + 5;
    for k in 0..total {
        msg(
            &mut s,
            1 + (k % 2) as u64,
            ClientMsg::Chat {
                text: format!("line {k}"),
            },
            0,
        );
    }
    let lines = |out: &[Output], conn| -> Vec<String> {
        sent(out, conn)
            .into_iter()
            .filter_map(|m| match m {
                ServerMsg::Chat { text, .. } => Some(text),
                _ => None,
            })
            .collect()
    };
    let late = hello(
        &mut s,
        20,
        Join::Spectator {
            name: "Late".into(),
        },
        0,
    );
    let got = lines(&late, 20);
    assert_eq!(got.len(), citadel_server::session::CHAT_KEPT);
    assert_eq!(got.first().map(String::as_str), Some("line 5"));
    assert_eq!(
        got.last().map(String::as_str),
        Some(format!("line {}", total - 1).as_str())
    );
    // A player's reload (a resume with its token) gets them too.
    let back = resume(&mut s, 21, "token-1", 0);
    assert_eq!(lines(&back, 21), got);
}

/// Issue 31, item 5: once the game has ended, a player offers a rematch
/// at a new table's code and everyone in the game is told; before the
/// end, from a spectator or with something that is not a code, it is
/// refused.
#[test]
fn a_rematch_is_offered_by_a_player_once_the_game_has_ended() {
    let (mut s, _) = started_game();
    let error_to = |out: &[Output], conn| {
        sent(out, conn).into_iter().find_map(|m| match m {
            ServerMsg::Error { code, .. } => Some(code),
            _ => None,
        })
    };
    let offer = |code: &str| ClientMsg::Rematch { code: code.into() };
    let early = msg(&mut s, 1, offer("Q8PKMA"), 0);
    assert_eq!(error_to(&early, 1), Some(ErrorCode::LobbyRefused));
    play_out(&mut s, 1);
    assert!(s.game().is_some_and(|g| g.is_finished()), "the game ended");
    let watcher = msg(&mut s, 9, offer("Q8PKMA"), 2);
    assert_eq!(error_to(&watcher, 9), Some(ErrorCode::LobbyRefused));
    let junk = msg(&mut s, 1, offer("not a code"), 2);
    assert_eq!(error_to(&junk, 1), Some(ErrorCode::Malformed));
    let out = msg(&mut s, 1, offer(" q8pkma "), 2);
    for conn in [1, 2, 9] {
        let told = sent(&out, conn).into_iter().any(|m| {
            matches!(m, ServerMsg::Rematch { ref code, ref from, seat: 0 } if code == "Q8PKMA" && from == "Ann")
        });
        assert!(told, "connection {conn} is told: {:?}", sent(&out, conn));
    }
}
