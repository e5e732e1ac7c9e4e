//! Every rule ID of the spec (and every worked example, as `NSH-T-n`) is
//! listed in `docs/neuroshima/RULES-COVERAGE.md` and carried by the name
//! of at least one test.

use std::fs;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."))
}

fn spec_ids(spec: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let text = spec;
    for (at, _) in text.match_indices("NSH-") {
        let rest = &text[at + 4..];
        let prefix: String = rest
            .chars()
            .take_while(|c| c.is_ascii_uppercase())
            .collect();
        let after = &rest[prefix.len()..];
        let Some(num) = after.strip_prefix('-') else {
            continue;
        };
        let digits: String = num.chars().take_while(char::is_ascii_digit).collect();
        if prefix.is_empty() || digits.is_empty() {
            continue;
        }
        ids.push(format!("NSH-{prefix}-{digits}"));
    }
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("| T") else {
            continue;
        };
        let id: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if id.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            ids.push(format!("NSH-T-{id}"));
        }
    }
    ids.sort();
    ids.dedup();
    ids
}

fn test_names() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).expect("tests dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).expect("read");
            for (at, _) in text.match_indices("fn nsh_") {
                let name: String = text[at + 3..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                names.push(name);
            }
        }
    }
    names
}

#[test]
fn every_rule_id_has_a_test_and_a_line_in_the_coverage_doc() {
    let spec = fs::read_to_string(root().join("docs/neuroshima/neuroshima.md")).expect("spec");
    let doc =
        fs::read_to_string(root().join("docs/neuroshima/RULES-COVERAGE.md")).expect("coverage doc");
    let ids = spec_ids(&spec);
    assert!(ids.len() >= 93 + 26, "{} ids", ids.len());
    let names = test_names();
    let mut missing = Vec::new();
    for id in &ids {
        let prefix = format!("{}_", id.to_lowercase().replace('-', "_"));
        if !names.iter().any(|n| n.starts_with(&prefix)) {
            missing.push(format!("{id}: no test"));
        }
        if !doc.contains(&format!("| {id} |")) {
            missing.push(format!("{id}: not in RULES-COVERAGE.md"));
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}
