//! `docs/PROTOCOL.md` stays true: every ```json block parses as the
//! message its fence names, every message and command type has an example,
//! and the tables list every close code, error code and rejection reason.
//!
//! Fences: ```json client (a `ClientMsg`), ```json server (a `ServerMsg`),
//! ```json command (a `Command`), ```json options (`GameOptions`),
//! ```json http (any JSON: an HTTP body).

use citadel_protocol::{close, ClientMsg, ErrorCode, GameOptions, ServerMsg};
use citadel_rules::game::{Command, Rejection};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn doc() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/PROTOCOL.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `(line, kind, text)` of every ```json block.
fn json_blocks(doc: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    for (i, line) in doc.lines().enumerate() {
        let t = line.trim_start();
        match &mut open {
            None => {
                if let Some(info) = t.strip_prefix("```json") {
                    open = Some((i + 1, info.trim().to_string(), String::new()));
                }
            }
            Some((_, _, text)) => {
                if t.starts_with("```") {
                    out.extend(open.take());
                } else {
                    text.push_str(line);
                    text.push('\n');
                }
            }
        }
    }
    assert!(open.is_none(), "an unclosed ```json block");
    out
}

/// Every key the example writes exists in `full` with the same value
/// (so a misspelt field, which serde would ignore, fails). Keys the
/// example leaves out may take their defaults.
fn covers(example: &Value, full: &Value, at: &str) -> Result<(), String> {
    match (example, full) {
        (Value::Object(e), Value::Object(f)) => {
            for (k, v) in e {
                let Some(fv) = f.get(k) else {
                    return Err(format!("{at}.{k}: not a field of this message"));
                };
                covers(v, fv, &format!("{at}.{k}"))?;
            }
            Ok(())
        }
        (Value::Array(e), Value::Array(f)) if e.len() == f.len() => e
            .iter()
            .zip(f)
            .enumerate()
            .try_for_each(|(i, (a, b))| covers(a, b, &format!("{at}[{i}]"))),
        _ if example == full => Ok(()),
        _ => Err(format!("{at}: {example} reads back as {full}")),
    }
}

fn parse<T: DeserializeOwned + Serialize>(line: usize, text: &str) -> T {
    let v: T = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("PROTOCOL.md line {line}: {e}\n{text}"));
    let example: Value = serde_json::from_str(text).expect("valid JSON");
    let back = serde_json::to_value(&v).expect("serialize");
    if let Err(e) = covers(&example, &back, "") {
        panic!("PROTOCOL.md line {line}: {e}\n{text}");
    }
    v
}

fn tag(v: &impl Serialize, key: &str) -> String {
    serde_json::to_value(v).expect("serialize")[key]
        .as_str()
        .expect("a string tag")
        .to_string()
}

/// Every variant tag of `T`, as serde itself lists them when it meets an
/// unknown one (so the list can never miss a new variant).
fn all_tags<T: DeserializeOwned + std::fmt::Debug>(key: &str) -> BTreeSet<String> {
    let probe = serde_json::json!({ key: "__no_such_variant__" });
    let err = serde_json::from_value::<T>(probe).expect_err("the probe tag is unknown");
    tags_from_error(&err.to_string())
}

fn tags_from_error(msg: &str) -> BTreeSet<String> {
    let list = msg
        .split_once("expected one of ")
        .unwrap_or_else(|| panic!("serde's message changed: {msg}"))
        .1;
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Every unit variant of a plain (string) enum.
fn all_names<T: DeserializeOwned + std::fmt::Debug>() -> BTreeSet<String> {
    let err = serde_json::from_value::<T>(Value::from("__no_such_variant__"))
        .expect_err("the probe name is unknown");
    tags_from_error(&err.to_string())
}

#[test]
fn every_json_example_parses() {
    let doc = doc();
    let blocks = json_blocks(&doc);
    assert!(blocks.len() > 20, "PROTOCOL.md has too few examples");
    for (line, kind, text) in blocks {
        match kind.as_str() {
            "client" => drop(parse::<ClientMsg>(line, &text)),
            "server" => drop(parse::<ServerMsg>(line, &text)),
            "command" => drop(parse::<Command>(line, &text)),
            "options" => drop(parse::<GameOptions>(line, &text)),
            "http" => drop(parse::<Value>(line, &text)),
            other => panic!(
                "PROTOCOL.md line {line}: ```json needs a kind (client, server, command, options, http), got {other:?}"
            ),
        }
    }
}

#[test]
fn every_message_and_command_has_an_example() {
    let doc = doc();
    let (mut client, mut server, mut command) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for (line, kind, text) in json_blocks(&doc) {
        match kind.as_str() {
            "client" => {
                let m: ClientMsg = parse(line, &text);
                if let ClientMsg::Command { command: c, .. } = &m {
                    command.insert(tag(c, "type"));
                }
                client.insert(tag(&m, "type"));
            }
            "server" => {
                let m: ServerMsg = parse(line, &text);
                if let ServerMsg::Snapshot { legal, .. } | ServerMsg::Events { legal, .. } = &m {
                    command.extend(legal.iter().map(|c| tag(c, "type")));
                }
                server.insert(tag(&m, "type"));
            }
            "command" => {
                command.insert(tag(&parse::<Command>(line, &text), "type"));
            }
            _ => {}
        }
    }
    for (what, all, seen) in [
        ("ClientMsg", all_tags::<ClientMsg>("type"), client),
        ("ServerMsg", all_tags::<ServerMsg>("type"), server),
        ("Command", all_tags::<Command>("type"), command),
    ] {
        assert!(all.contains("end_turn") || all.contains("hello") || all.contains("pong"));
        let missing: Vec<_> = all.difference(&seen).collect();
        assert!(
            missing.is_empty(),
            "PROTOCOL.md has no example of {what} {missing:?}"
        );
    }
}

/// Rows of the tables: `| ... |` lines, cells trimmed.
fn table_rows(doc: &str) -> Vec<Vec<String>> {
    doc.lines()
        .filter(|l| l.trim_start().starts_with('|'))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

fn has_row(rows: &[Vec<String>], cells: &[String]) -> bool {
    rows.iter()
        .any(|r| cells.iter().all(|c| r.iter().any(|x| x == c)))
}

#[test]
fn every_rejection_reason_is_listed_with_its_message() {
    let rows = table_rows(&doc());
    let names = all_names::<Rejection>();
    assert!(names.len() > 40);
    for name in names {
        let r: Rejection = serde_json::from_value(Value::from(name.clone())).expect("a reason");
        let cells = [format!("`{name}`"), r.message()];
        assert!(
            has_row(&rows, &cells),
            "PROTOCOL.md: no row | `{name}` | {} |",
            r.message()
        );
    }
}

#[test]
fn every_error_code_is_listed() {
    let rows = table_rows(&doc());
    for name in all_names::<ErrorCode>() {
        assert!(
            has_row(&rows, &[format!("`{name}`")]),
            "PROTOCOL.md: no row for error `{name}`"
        );
    }
}

#[test]
fn every_close_code_is_listed() {
    let rows = table_rows(&doc());
    for (name, code, _) in close::ALL {
        assert!(
            has_row(&rows, &[code.to_string(), format!("`{name}`")]),
            "PROTOCOL.md: no row | {code} | `{name}` |"
        );
    }
}
