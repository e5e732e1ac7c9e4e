//! `docs/PROTOCOL.md` stays true: every ```json block parses as the
//! message its fence names, every message and command type has an example,
//! and the tables list every close code, error code and rejection reason.
//!
//! Fences: ```json client (a `ClientMsg`), ```json server (a `ServerMsg`),
//! ```json command (a `Command`), ```json options (`TableOptions`),
//! ```json http (any JSON: an HTTP body).

use citadel_protocol::{close, ClientMsg, ErrorCode, ServerMsg, TableOptions};
use citadel_rules::game::{Command, Event, Rejection};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The envelope's doc, and Siege's payloads' (whose examples and tables
/// these tests check against Siege's types).
const DOCS: [&str; 2] = ["../../docs/PROTOCOL.md", "../../docs/siege/PROTOCOL.md"];

fn read(relative: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Both docs, one after the other.
fn doc() -> String {
    DOCS.iter().map(|d| read(d)).collect::<Vec<_>>().join("\n")
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
            "options" => {
                let o: TableOptions = parse(line, &text);
                drop(parse::<citadel_rules::seam::SiegeOptions>(
                    line,
                    &o.game_json().to_string(),
                ))
            }
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
                    command.insert(tag(&parse::<Command>(line, c.text()), "type"));
                }
                client.insert(tag(&m, "type"));
            }
            "server" => {
                let m: ServerMsg = parse(line, &text);
                if let ServerMsg::Snapshot { legal, .. } | ServerMsg::Events { legal, .. } = &m {
                    let legal: Vec<Command> = parse(line, legal.text());
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

// ------------------------------------------------------ event reference

/// Where the generated event reference sits in the doc.
const EVENTS_BEGIN: &str = "<!-- BEGIN GENERATED: event reference -->";
const EVENTS_END: &str = "<!-- END GENERATED: event reference -->";

/// The doc comment of an item, its lines joined, intra-doc links made
/// plain (`[`Event::Struck`]` becomes `` `struck` ``) and Rust's `None`
/// said as JSON's `null`.
fn doc_text(attrs: &[syn::Attribute]) -> String {
    let mut lines = Vec::new();
    for a in attrs {
        if !a.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &a.meta {
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                lines.push(s.value().trim().to_string());
            }
        }
    }
    let mut text = lines.join(" ");
    while let Some(start) = text.find("[`") {
        let Some(len) = text[start..].find("`]") else {
            break;
        };
        let inner = &text[start + 2..start + len];
        let plain = match inner.rsplit_once("::") {
            Some(("Event", variant)) => snake(variant),
            _ => inner.to_string(),
        };
        text = format!("{}`{plain}`{}", &text[..start], &text[start + len + 2..]);
    }
    text.replace("`None`", "`null`")
        .replace("(None ", "(`null` ")
        .replace("(None:", "(`null`:")
}

fn snake(ident: &str) -> String {
    let mut out = String::new();
    for (i, c) in ident.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A Rust field type as it looks in JSON, in `web-client/protocol.ts`'s
/// names: numbers, strings, `T | null`, `T[]`; named types by name.
fn wire_type(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => {
            let seg = p.path.segments.last().expect("a type name");
            let name = seg.ident.to_string();
            let args: Vec<String> = match &seg.arguments {
                syn::PathArguments::AngleBracketed(a) => a
                    .args
                    .iter()
                    .filter_map(|g| match g {
                        syn::GenericArgument::Type(t) => Some(wire_type(t)),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            match (name.as_str(), args.as_slice()) {
                ("Option", [t]) => format!("{t} | null"),
                ("Vec", [t]) if t.contains(' ') => format!("({t})[]"),
                ("Vec", [t]) => format!("{t}[]"),
                ("u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64", []) => {
                    "number".into()
                }
                ("bool", []) => "boolean".into(),
                ("String", []) => "string".into(),
                (_, []) => name,
                _ => panic!("teach wire_type about {name}<{args:?}>"),
            }
        }
        syn::Type::Tuple(t) => format!(
            "[{}]",
            t.elems.iter().map(wire_type).collect::<Vec<_>>().join(", ")
        ),
        syn::Type::Array(a) => format!("{}[]", wire_type(&a.elem)),
        _ => panic!("teach wire_type about a field type of event.rs"),
    }
}

/// The container's `#[serde(...)]`: its tag, if any. Only the attributes
/// event.rs uses are understood; any other makes this fail, so the
/// reference never silently differs from the wire.
fn serde_tag(attrs: &[syn::Attribute], what: &str) -> Option<String> {
    let mut tag = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        a.parse_nested_meta(|m| {
            if m.path.is_ident("tag") {
                let s: syn::LitStr = m.value()?.parse()?;
                tag = Some(s.value());
            } else if m.path.is_ident("rename_all") {
                let s: syn::LitStr = m.value()?.parse()?;
                assert_eq!(s.value(), "snake_case", "{what}: rename_all");
            } else {
                panic!(
                    "{what}: teach the reference about #[serde({:?})]",
                    m.path.get_ident()
                );
            }
            Ok(())
        })
        .expect("a serde attribute");
    }
    tag
}

fn no_serde(attrs: &[syn::Attribute], what: &str) {
    assert!(
        !attrs.iter().any(|a| a.path().is_ident("serde")),
        "{what}: teach the reference about its #[serde] attribute"
    );
}

fn fields_md(fields: &syn::Fields, indent: &str, what: &str, out: &mut String) {
    for f in fields {
        let name = f.ident.as_ref().expect("named fields").to_string();
        no_serde(&f.attrs, &format!("{what}.{name}"));
        out.push_str(&format!(
            "{indent}- `{name}` (`{}`): {}\n",
            wire_type(&f.ty),
            doc_text(&f.attrs)
        ));
    }
}

/// The reference: every type of `games/siege/rules/src/game/event.rs` with
/// its fields, their JSON types and meaning, from the source itself.
fn event_reference() -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games/siege/rules/src/game/event.rs");
    let src = std::fs::read_to_string(&path).expect("event.rs");
    let file = syn::parse_file(&src).expect("event.rs parses");
    let mut out = String::new();
    let mut items: Vec<&syn::Item> = file.items.iter().collect();
    // `Event` first, then the types its fields use.
    items.sort_by_key(|i| !matches!(i, syn::Item::Enum(e) if e.ident == "Event"));
    for item in items {
        match item {
            syn::Item::Struct(s) => {
                let name = s.ident.to_string();
                no_serde(&s.attrs, &name);
                out.push_str(&format!("#### `{name}`\n\n{}\n\n", doc_text(&s.attrs)));
                fields_md(&s.fields, "", &name, &mut out);
                out.push('\n');
            }
            syn::Item::Enum(e) => {
                let name = e.ident.to_string();
                let tag = serde_tag(&e.attrs, &name);
                out.push_str(&format!("#### `{name}`\n\n{}", doc_text(&e.attrs)));
                match &tag {
                    Some(tag) => out.push_str(&format!(
                        " An object whose `\"{tag}\"` names the variant, with the variant's fields beside it.\n\n"
                    )),
                    None => out.push_str(" One of these strings.\n\n"),
                }
                for v in &e.variants {
                    let vname = snake(&v.ident.to_string());
                    no_serde(&v.attrs, &format!("{name}::{}", v.ident));
                    assert!(
                        tag.is_some() || v.fields.is_empty(),
                        "{name}: an untagged enum with fields"
                    );
                    out.push_str(&format!("- `{vname}`: {}\n", doc_text(&v.attrs)));
                    fields_md(&v.fields, "  ", &format!("{name}::{}", v.ident), &mut out);
                }
                out.push('\n');
            }
            _ => {}
        }
    }
    out.trim_end().to_string()
}

/// The event reference in docs/PROTOCOL.md is what [`event_reference`]
/// renders from the Rust source now; `CITADEL_UPDATE_DOC=1` rewrites it
/// instead of failing. It names every event serde knows.
#[test]
fn the_event_reference_is_current() {
    let fresh = event_reference();
    for tag in all_tags::<Event>("type") {
        assert!(
            fresh.contains(&format!("\n- `{tag}`: ")),
            "the reference misses event {tag}"
        );
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(DOCS[1]);
    let doc = read(DOCS[1]);
    let (Some(b), Some(e)) = (doc.find(EVENTS_BEGIN), doc.find(EVENTS_END)) else {
        panic!("PROTOCOL.md has no {EVENTS_BEGIN} ... {EVENTS_END}");
    };
    let start = b + EVENTS_BEGIN.len();
    let current = doc[start..e].trim();
    if std::env::var_os("CITADEL_UPDATE_DOC").is_some_and(|v| !v.is_empty() && v != "0") {
        let updated = format!("{}\n\n{fresh}\n\n{}", &doc[..start], &doc[e..]);
        std::fs::write(&path, updated).expect("write PROTOCOL.md");
        return;
    }
    assert!(
        current == fresh,
        "the event reference in PROTOCOL.md is stale; run \
         `CITADEL_UPDATE_DOC=1 cargo test -p citadel --test protocol_doc_examples` to update"
    );
}

/// Every `](#anchor)` link in the doc leads to a heading (GitHub's
/// anchors: lower case, punctuation dropped, spaces as `-`).
#[test]
fn every_link_inside_the_doc_has_its_heading() {
    let (main, siege) = (read(DOCS[0]), read(DOCS[1]));
    // Each doc's own anchors, and the other's as it links to them.
    for (file, doc, prefix, other) in [
        (DOCS[0], &main, "](siege/PROTOCOL.md#", &siege),
        (DOCS[1], &siege, "](../PROTOCOL.md#", &main),
    ] {
        let own = links_lead_to_headings(file, doc, "](#", &anchors(doc));
        let across = links_lead_to_headings(file, doc, prefix, &anchors(other));
        assert!(own + across > 0, "{file}: no links found");
    }
}

/// GitHub's anchors of the doc's headings: lower case, punctuation
/// dropped, spaces as `-`.
fn anchors(doc: &str) -> BTreeSet<String> {
    doc.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| {
            l.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// Every link of `doc` that starts with `prefix` names one of `anchors`;
/// how many there are.
fn links_lead_to_headings(
    file: &str,
    doc: &str,
    prefix: &str,
    anchors: &BTreeSet<String>,
) -> usize {
    let mut links = 0;
    for part in doc.split(prefix).skip(1) {
        let anchor = part.split(')').next().unwrap_or("");
        links += 1;
        assert!(
            anchors.contains(anchor),
            "{file} links to {prefix}{anchor}, which no heading makes"
        );
    }
    links
}
