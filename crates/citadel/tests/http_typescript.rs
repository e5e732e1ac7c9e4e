//! `web-client/http.ts` must be what `citadel_server::http_ts::typescript()`
//! renders now. `CITADEL_UPDATE_TS=1` rewrites it instead of failing.
//! (The `ts` feature is on in every test build: the crate's
//! dev-dependency on itself turns it on.)

use citadel_protocol::check_generated;
use std::path::PathBuf;

#[test]
fn http_ts_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web-client/http.ts");
    check_generated(
        &path,
        &citadel_server::http_ts::typescript(),
        "cargo test -p citadel --test http_typescript",
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

/// Every type name http.ts uses is declared in it or imported from
/// `./protocol` (a `#[ts(type = "...")]` names a type by hand, which
/// nothing else checks).
#[test]
fn http_ts_names_only_declared_or_imported_types() {
    let ts = citadel_server::http_ts::typescript();
    // The code without comments and string literals.
    let mut code = String::new();
    let mut rest = ts.as_str();
    while let Some(c) = rest.chars().next() {
        let skip_to = |end: &str, from: usize| {
            rest[from..]
                .find(end)
                .map_or(rest.len(), |i| i + from + end.len())
        };
        let n = if rest.starts_with("/*") {
            skip_to("*/", 2)
        } else if rest.starts_with("//") {
            skip_to("\n", 2)
        } else if c == '"' {
            skip_to("\"", 1)
        } else {
            code.push(c);
            c.len_utf8()
        };
        rest = &rest[n..];
    }
    let words: Vec<&str> = code
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| w.starts_with(|c: char| c.is_ascii_uppercase()))
        .collect();
    let (declared, imported) = (
        code.split("export type ")
            .skip(1)
            .filter_map(|s| s.split([' ', '=']).next())
            .collect::<Vec<_>>(),
        code.split("import type {")
            .nth(1)
            .and_then(|s| s.split('}').next())
            .map(|s| {
                s.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default(),
    );
    assert!(declared.contains(&"Replay") && imported.contains(&"SeqEvent"));
    for w in words {
        assert!(
            declared.contains(&w) || imported.contains(&w) || ["Array", "Omit"].contains(&w),
            "web-client/http.ts uses {w}, which it neither declares nor imports"
        );
    }
}
