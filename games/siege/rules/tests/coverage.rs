//! Checks `docs/RULES-COVERAGE.md`: every rule ID has a status, every
//! `covered` row lists at least one test, and every listed test exists (a
//! scenario `file::name` in `tests/scenarios/file.toml`, or a `fn name(`
//! in the crate's sources and tests). When the spec is checked out beside
//! the repository (`../shared/rules`), every rule ID of core.md, ce.md and
//! classic.md must also have a row.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

const STATUSES: [&str; 4] = [
    "covered",
    "not used by any CE mission",
    "classic only",
    "gap",
];

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

struct Row {
    id: String,
    status: String,
    body: String,
}

fn rows() -> Vec<Row> {
    let path = crate_dir().join("../../../docs/RULES-COVERAGE.md");
    let text = fs::read_to_string(&path).expect("docs/RULES-COVERAGE.md");
    text.lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            let id = cells.first()?;
            let is_id = id.contains('-')
                && id
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
                && id.ends_with(|c: char| c.is_ascii_digit());
            (is_id && cells.len() == 3).then(|| Row {
                id: id.to_string(),
                status: cells[1].to_string(),
                body: cells[2].to_string(),
            })
        })
        .collect()
}

fn backticked(s: &str) -> Vec<String> {
    s.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, x)| x.to_string())
        .collect()
}

#[test]
fn coverage_map_lists_existing_tests_for_every_covered_rule() {
    let rows = rows();
    assert!(rows.len() > 100, "too few rule rows: {}", rows.len());
    // Rules that only the server applies (campaigns, turn timers) are
    // tested there, so every crate of the workspace is searched.
    let mut sources = Vec::new();
    let repo = crate_dir().join("../../..");
    let mut crates: Vec<std::path::PathBuf> = fs::read_dir(repo.join("crates"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    for game in fs::read_dir(repo.join("games"))
        .into_iter()
        .flatten()
        .flatten()
    {
        crates.extend(
            fs::read_dir(game.path())
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path()),
        );
    }
    for krate in &crates {
        rust_files(&krate.join("src"), &mut sources);
        rust_files(&krate.join("tests"), &mut sources);
    }
    let code: String = sources
        .iter()
        .map(|p| fs::read_to_string(p).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let mut errors = Vec::new();
    let mut seen = BTreeSet::new();
    for r in &rows {
        if !seen.insert(r.id.clone()) {
            errors.push(format!("{}: listed twice", r.id));
        }
        if !STATUSES.contains(&r.status.as_str()) {
            errors.push(format!("{}: unknown status {:?}", r.id, r.status));
            continue;
        }
        let tests = backticked(&r.body);
        if r.status == "covered" && tests.is_empty() {
            errors.push(format!("{}: covered but lists no test", r.id));
        }
        if r.status != "covered" && r.body.is_empty() {
            errors.push(format!("{}: {} needs a reason", r.id, r.status));
        }
        for t in tests {
            let found = match t.split_once("::") {
                Some((file, name)) => {
                    let p = crate_dir().join(format!("tests/scenarios/{file}.toml"));
                    fs::read_to_string(p).is_ok_and(|s| s.contains(&format!("name = \"{name}\"")))
                }
                None => code.contains(&format!("fn {t}(")),
            };
            if !found {
                errors.push(format!("{}: test {t:?} does not exist", r.id));
            }
        }
    }
    let spec = crate_dir().join("../../../../shared/rules");
    for file in ["core.md", "ce.md", "classic.md"] {
        let Ok(text) = fs::read_to_string(spec.join(file)) else {
            continue; // The spec is not checked out beside the repository.
        };
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("| ") else {
                continue;
            };
            let id = rest.split(' ').next().unwrap_or_default();
            let is_id = id.contains('-')
                && id
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
                && id.ends_with(|c: char| c.is_ascii_digit());
            if is_id && !seen.contains(id) {
                errors.push(format!("{id} ({file}) has no row"));
            }
        }
    }
    assert!(
        errors.is_empty(),
        "RULES-COVERAGE.md:\n{}",
        errors.join("\n")
    );
}
