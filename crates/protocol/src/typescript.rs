//! TypeScript declarations of every wire type, for the browser client:
//! [`typescript`] renders `web-client/protocol.ts` (the protocol crate's
//! `typescript` test keeps that file current). [`Declarations`] is the
//! machinery, shared with the server's HTTP bodies (`web-client/http.ts`).

use crate::{close, ClientMsg, ServerMsg, PROTOCOL_VERSION};
use std::any::TypeId;
use std::collections::{BTreeMap, BTreeSet};
use ts_rs::{Config, TypeVisitor, TS};

/// One declaration: the Rust type it came from and its TypeScript text.
#[derive(Debug)]
struct Decl {
    rust: &'static str,
    id: TypeId,
    text: String,
}

/// TypeScript declarations of Rust types (ts-rs) and of every type they
/// reach, one per type, sorted by name and laid out one member a line.
/// [`typescript`] renders `protocol.ts` from one; the server renders its
/// HTTP bodies (`web-client/http.ts`) from another made by
/// [`Declarations::beside_protocol`], which names the wire types rather
/// than declaring them again.
pub struct Declarations {
    cfg: Config,
    decls: BTreeMap<String, Decl>,
    /// Types declared in another module, by name: referenced, not declared.
    elsewhere: BTreeMap<String, Decl>,
    /// The names of `elsewhere` that a declaration here refers to.
    imports: BTreeSet<String>,
    /// The types without a declaration of their own (`Vec<Goal>`) whose
    /// parts were visited: a recursive type (`Goal` holds `Vec<Goal>`)
    /// reaches them again.
    passed: BTreeSet<TypeId>,
}

impl std::fmt::Debug for Declarations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // ts-rs's `Config` is not `Debug`.
        f.debug_struct("Declarations")
            .field("decls", &self.decls.keys())
            .field("elsewhere", &self.elsewhere.keys())
            .field("imports", &self.imports)
            .finish_non_exhaustive()
    }
}

impl Default for Declarations {
    fn default() -> Self {
        Self::new()
    }
}

impl Declarations {
    /// No declarations yet. 64-bit integers (`seq`, `client_ref`) are
    /// declared as `number`: the server never comes near 2^53.
    pub fn new() -> Self {
        Declarations {
            cfg: Config::new().with_large_int("number"),
            decls: BTreeMap::new(),
            elsewhere: BTreeMap::new(),
            imports: BTreeSet::new(),
            passed: BTreeSet::new(),
        }
    }

    /// No declarations yet, for a module beside `protocol.ts`: a type
    /// `protocol.ts` declares is referenced by name and listed in
    /// [`Declarations::imports`] instead of being declared again.
    pub fn beside_protocol() -> Self {
        let mut d = Self::new();
        d.elsewhere = protocol().decls;
        d
    }

    /// Declare `T` and every type it reaches.
    ///
    /// # Panics
    /// If two Rust types have the same TypeScript name (give one a
    /// `#[ts(rename = "...")]`).
    pub fn add<T: TS + 'static + ?Sized>(&mut self) {
        // Primitives, `Option`, `Vec`, tuples and arrays have no declaration
        // of their own; their parts are visited through `visit_dependencies`.
        if T::output_path().is_none() {
            if self.passed.insert(TypeId::of::<T>()) {
                T::visit_dependencies(self);
            }
            return;
        }
        let name = T::ident(&self.cfg);
        let id = TypeId::of::<T>();
        let same_name = |seen: &Decl| {
            assert!(
                seen.id == id,
                "two Rust types share the TypeScript name {name}: {} and {}",
                seen.rust,
                std::any::type_name::<T>()
            );
        };
        if let Some(seen) = self.elsewhere.get(&name) {
            same_name(seen);
            self.imports.insert(name);
            return;
        }
        if let Some(seen) = self.decls.get(&name) {
            same_name(seen);
            return;
        }
        let mut text = T::docs().unwrap_or_default();
        text.push_str("export ");
        text.push_str(&layout(&T::decl(&self.cfg)));
        self.decls.insert(
            name,
            Decl {
                rust: std::any::type_name::<T>(),
                id,
                text,
            },
        );
        T::visit_dependencies(self);
    }

    /// The names of the types declared elsewhere (`protocol.ts`) that the
    /// declarations here refer to, sorted. (A wrapper such as
    /// `Box<GameView>` visits the parts of what it wraps, so names are
    /// met that no declaration here spells: those are left out.)
    pub fn imports(&self) -> impl Iterator<Item = &str> {
        let used: BTreeSet<&str> = self
            .decls
            .values()
            .flat_map(|d| tokens(&d.text))
            .filter_map(|t| match t {
                Tok::Text(w) => Some(w),
                _ => None,
            })
            .collect();
        self.imports
            .iter()
            .map(String::as_str)
            .filter(move |name| used.contains(name))
    }

    /// Every declaration, sorted by name, each preceded by a blank line.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for decl in self.decls.values() {
            out.push('\n');
            out.push_str(&decl.text);
            out.push('\n');
        }
        out
    }
}

impl TypeVisitor for Declarations {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        self.add::<T>();
    }
}

/// The declarations of `protocol.ts`: every type reachable from
/// [`ClientMsg`] and [`ServerMsg`].
fn protocol() -> Declarations {
    let mut d = Declarations::new();
    d.add::<ClientMsg>();
    d.add::<ServerMsg>();
    d
}

/// `web-client/protocol.ts`: a header, every type reachable from
/// [`ClientMsg`] and [`ServerMsg`] (sorted by name), [`PROTOCOL_VERSION`]
/// and the [`close`] codes.
///
/// 64-bit integers (`seq`, `client_ref`) are declared as `number`: the
/// server never comes near 2^53.
pub fn typescript() -> String {
    let mut out = String::new();
    out.push_str(
        "// Citadel wire protocol: TypeScript declarations.\n\
         // Generated by citadel_protocol::typescript() (ts-rs) from the Rust types; do not edit.\n\
         // Update: CITADEL_UPDATE_TS=1 cargo test -p citadel-protocol --test typescript\n\
         // docs/PROTOCOL.md describes the messages.\n\n",
    );
    out.push_str("/** The protocol version; `hello` must carry it. */\n");
    out.push_str(&format!(
        "export const PROTOCOL_VERSION = {PROTOCOL_VERSION};\n\n"
    ));
    out.push_str("/** WebSocket close codes (4000–4999 are the application's range). */\n");
    out.push_str("export const CloseCode = {\n");
    for (name, code, doc) in close::ALL {
        out.push_str(&format!("  /** {} */\n  {name}: {code},\n", doc.trim()));
    }
    out.push_str("} as const;\n\n");
    out.push_str("/** Any of the close codes. */\n");
    out.push_str("export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];\n");
    out.push_str(&protocol().render());
    out
}

/// `web-client/protocol.js`: [`PROTOCOL_VERSION`] and the [`close`]
/// codes as a plain ES module, so the browser client (which has no build
/// step and cannot import `protocol.ts`) uses the generated values rather
/// than copies.
pub fn javascript() -> String {
    let mut out = String::new();
    out.push_str(
        "// Citadel wire protocol: the constants the browser client imports.\n\
         // Generated by citadel_protocol::javascript() from the Rust constants; do not edit.\n\
         // Update: CITADEL_UPDATE_TS=1 cargo test -p citadel-protocol --test typescript\n\
         // The types are in protocol.ts; docs/PROTOCOL.md describes the messages.\n\n",
    );
    out.push_str("/** The protocol version; `hello` must carry it. */\n");
    out.push_str(&format!(
        "export const PROTOCOL_VERSION = {PROTOCOL_VERSION};\n\n"
    ));
    out.push_str("/** WebSocket close codes (4000–4999 are the application's range). */\n");
    out.push_str("export const CloseCode = Object.freeze({\n");
    for (name, code, doc) in close::ALL {
        out.push_str(&format!("  /** {} */\n  {name}: {code},\n", doc.trim()));
    }
    out.push_str("});\n");
    out
}

/// A token of ts-rs output: a doc comment, a string, one punctuation
/// character, or a run of anything else.
#[derive(Debug, PartialEq)]
enum Tok<'a> {
    Doc(&'a str),
    Punct(char),
    Text(&'a str),
}

fn tokens(src: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("/**") {
            let end = rest.find("*/").map_or(rest.len(), |i| i + 2);
            out.push(Tok::Doc(&rest[..end]));
            rest = &rest[end..];
        } else if c.is_whitespace() {
            rest = rest.trim_start();
        } else if "{}[]<>()|,;=:".contains(c) {
            out.push(Tok::Punct(c));
            rest = &rest[c.len_utf8()..];
        } else {
            // A string literal, or a word up to the next punctuation.
            let end = if c == '"' {
                rest[1..].find('"').map_or(rest.len(), |i| i + 2)
            } else {
                rest.find(|ch: char| ch.is_whitespace() || "{}[]<>()|,;=:\"".contains(ch))
                    .unwrap_or(rest.len())
            };
            out.push(Tok::Text(&rest[..end]));
            rest = &rest[end..];
        }
    }
    out
}

/// One line of tokens, spaced as TypeScript is usually written.
fn inline(toks: &[Tok<'_>]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        let next = toks.get(i + 1);
        if matches!(t, Tok::Text(_)) && i > 0 && matches!(toks[i - 1], Tok::Text(_)) {
            s.push(' ');
        }
        match t {
            Tok::Punct(',') if next == Some(&Tok::Punct('}')) => {}
            Tok::Punct(c @ (',' | ':')) => {
                s.push(*c);
                s.push(' ');
            }
            Tok::Punct(c @ ('|' | '=')) => {
                s.push(' ');
                s.push(*c);
                s.push(' ');
            }
            Tok::Punct('{') => s.push_str("{ "),
            Tok::Punct('}') => s.push_str(" }"),
            Tok::Punct(c) => s.push(*c),
            Tok::Text(w) | Tok::Doc(w) => s.push_str(w),
        }
    }
    s
}

/// The index of the token closing the bracket opened at `open`.
fn closing(toks: &[Tok<'_>], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct('{' | '[' | '<' | '(') => depth += 1,
            Tok::Punct('}' | ']' | '>' | ')') => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    toks.len() - 1
}

const WIDTH: usize = 90;

/// Lay out a declaration (`type X = ...;`) one member per line: unions
/// one variant a line, objects with doc comments or too long for a line
/// one field a line.
fn layout(decl: &str) -> String {
    let toks = tokens(decl);
    let flat = inline(&toks);
    if flat.len() <= WIDTH && !toks.iter().any(|t| matches!(t, Tok::Doc(_))) {
        return flat;
    }
    let mut out = String::new();
    emit(&toks, 0, true, &mut out);
    // Layout only moves whitespace and trailing commas.
    assert_eq!(
        significant(&tokens(&out)),
        significant(&toks),
        "layout changed the declaration {decl}"
    );
    out
}

/// Tokens without trailing commas (`, }`) or a union's leading `|`, doc comments line by line
/// without their indentation.
fn significant(toks: &[Tok<'_>]) -> Vec<String> {
    toks.iter()
        .enumerate()
        .filter(|(i, t)| {
            let trailing_comma =
                **t == Tok::Punct(',') && toks.get(i + 1) == Some(&Tok::Punct('}'));
            let leading_bar = **t == Tok::Punct('|') && *i > 0 && toks[i - 1] == Tok::Punct('=');
            !trailing_comma && !leading_bar
        })
        .map(|(_, t)| match t {
            Tok::Doc(d) => d.lines().map(str::trim).collect::<Vec<_>>().join("\n"),
            Tok::Punct(c) => c.to_string(),
            Tok::Text(w) => (*w).to_string(),
        })
        .collect()
}

fn newline(out: &mut String, indent: usize) {
    while out.ends_with(' ') {
        out.pop();
    }
    out.push('\n');
    out.push_str(&"  ".repeat(indent));
}

fn emit(toks: &[Tok<'_>], indent: usize, top: bool, out: &mut String) {
    let mut i = 0;
    // A top-level union gets one variant a line.
    let union_at_top = top && {
        let mut depth = 0i32;
        toks.iter().any(|t| {
            match t {
                Tok::Punct('{' | '[' | '<' | '(') => depth += 1,
                Tok::Punct('}' | ']' | '>' | ')') => depth -= 1,
                Tok::Punct('|') if depth == 0 => return true,
                _ => {}
            }
            false
        })
    };
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('=') if union_at_top => {
                out.push_str(" =");
                newline(out, indent + 1);
                out.push_str("| ");
            }
            Tok::Punct('=') => out.push_str(" = "),
            Tok::Punct('|') if union_at_top => {
                newline(out, indent + 1);
                out.push_str("| ");
            }
            Tok::Punct('|') => out.push_str(" | "),
            Tok::Punct('{') => {
                let end = closing(toks, i);
                let body = &toks[i..=end];
                let flat = inline(body);
                let has_doc = body.iter().any(|t| matches!(t, Tok::Doc(_)));
                let col = out.len() - out.rfind('\n').map_or(0, |n| n + 1);
                if !has_doc && col + flat.len() <= WIDTH {
                    out.push_str(&flat);
                } else {
                    let inner_indent = indent + if union_at_top { 2 } else { 1 };
                    out.push('{');
                    newline(out, inner_indent);
                    members(&toks[i + 1..end], inner_indent, out);
                    newline(out, inner_indent - 1);
                    out.push('}');
                }
                i = end;
            }
            t => {
                if matches!(t, Tok::Text(_)) && i > 0 && matches!(toks[i - 1], Tok::Text(_)) {
                    out.push(' ');
                }
                out.push_str(&inline(std::slice::from_ref(t)));
            }
        }
        i += 1;
    }
}

/// The members of an object, one a line, each preceded by its doc.
fn members(toks: &[Tok<'_>], indent: usize, out: &mut String) {
    let mut start = 0;
    let mut depth = 0i32;
    let flush = |from: usize, to: usize, out: &mut String| {
        let part = &toks[from..to];
        if part.is_empty() {
            return;
        }
        let mut k = 0;
        while let Some(Tok::Doc(d)) = part.get(k) {
            for line in d.lines() {
                let line = line.trim();
                if !line.starts_with("/**") {
                    out.push(' ');
                }
                out.push_str(line);
                newline(out, indent);
            }
            k += 1;
        }
        let before = out.len();
        emit(&part[k..], indent, false, out);
        if out.len() > before {
            out.push(',');
            newline(out, indent);
        }
    };
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::Punct('{' | '[' | '<' | '(') => depth += 1,
            Tok::Punct('}' | ']' | '>' | ')') => depth -= 1,
            Tok::Punct(',') if depth == 0 => {
                flush(start, i, out);
                start = i + 1;
            }
            _ => {}
        }
    }
    flush(start, toks.len(), out);
    while out.ends_with(' ') || out.ends_with('\n') {
        out.pop();
    }
}

/// Keep a generated file current, for the tests that own one: with
/// `CITADEL_UPDATE_TS` set (not `0`) write `fresh` to `path`; otherwise an
/// `Err` naming the first differing line and `update` (the command that
/// regenerates it) when the file on disk is not `fresh`.
pub fn check_generated(path: &std::path::Path, fresh: &str, update: &str) -> Result<(), String> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    if std::env::var_os("CITADEL_UPDATE_TS").is_some_and(|v| !v.is_empty() && v != "0") {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("mkdir for {name}: {e}"))?;
        }
        return std::fs::write(path, fresh).map_err(|e| format!("write {name}: {e}"));
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    if on_disk == fresh {
        return Ok(());
    }
    let line = on_disk
        .lines()
        .zip(fresh.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| on_disk.lines().count().min(fresh.lines().count()))
        + 1;
    Err(format!(
        "web-client/{name} is stale (first difference at line {line}); run `CITADEL_UPDATE_TS=1 {update}` to update"
    ))
}
