//! The session state machine driven by arbitrary bytes, shared by the
//! cargo-fuzz target `client_session` and the regression test that replays
//! every input it ever crashed on (`crates/citadel/tests/fuzz_regressions.rs`).
//!
//! The bytes are read as lines: the first byte of a line picks the
//! connection (two players, a spectator, a stranger that never said hello),
//! the rest is what that socket sent. Text that is not a client message is
//! dropped as the socket tier would drop it (after answering an error);
//! every message that parses goes to the session (`Table::handle`), with time moving
//! on a second per line so timers and bots run too.

use crate::session::{ConnId, Hello, Input, Output, SessionConfig};
use crate::table::Games;
use citadel_protocol::{ClientMsg, Join, TableOptions};

/// Feed one fuzz input to a fresh session of the table `table`, one of
/// `games` (a game's options for two players, which each game's
/// `fuzzing` module supplies).
///
/// # Errors
/// A description of a broken invariant: acknowledged command indices must
/// count up from 0 without gaps or repeats, and nothing may be sent to a
/// connection that never joined.
pub fn session_from_bytes(
    games: &Games,
    table: &serde_json::Value,
    data: &[u8],
) -> Result<(), String> {
    let options: TableOptions = serde_json::from_value(table.clone()).map_err(|e| e.to_string())?;
    let kind = games.of(&options).ok_or("no game in the catalogue")?;
    let config = SessionConfig {
        grace_ms: 5_000,
        bot_delay_ms: 0,
        max_bot_steps: 2_000,
    };
    let mut session = kind
        .new_session("FUZZED".into(), options, 7, config)
        .map_err(|e| e.to_string())?;
    let mut next_index = 0u64;
    let mut now = 0u64;
    let stranger: ConnId = 4;
    let mut check = |out: Vec<Output>| -> Result<(), String> {
        for o in out {
            match o {
                Output::Applied { index, .. } => {
                    if index != next_index {
                        return Err(format!("command index {index}, expected {next_index}"));
                    }
                    next_index += 1;
                }
                Output::Send { to, .. } if to.contains(&stranger) => {
                    return Err("a message went to a connection that never joined".into());
                }
                _ => {}
            }
        }
        Ok(())
    };
    for (conn, name) in [(1, "Ann"), (2, "Bob")] {
        check(session.handle(hello(conn, Join::Player { name: name.into() }), now))?;
    }
    check(session.handle(hello(3, Join::Spectator { name: "Eve".into() }), now))?;
    for line in data.split(|b| *b == b'\n') {
        let Some((&who, text)) = line.split_first() else {
            continue;
        };
        now += 1_000;
        let conn = ConnId::from(who % 4) + 1;
        if let Ok(msg) = serde_json::from_slice::<ClientMsg>(text) {
            if conn == stranger {
                // The socket tier never passes a message from a
                // connection that has not joined; closing it is all.
                check(session.handle(Input::Closed { conn }, now))?;
            } else {
                check(session.handle(Input::Message { conn, msg }, now))?;
            }
        }
        if who & 0x80 != 0 {
            check(session.handle(Input::Closed { conn }, now))?;
        }
        check(session.handle(Input::Tick, now))?;
    }
    Ok(())
}

fn hello(conn: ConnId, join: Join) -> Input {
    Input::Hello(Hello {
        conn,
        join,
        last_seq: None,
        fresh_token: format!("token-{conn}"),
        account: None,
    })
}
