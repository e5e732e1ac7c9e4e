//! The army files: the embedded ones load, broken ones are refused with
//! the file and line at fault.

use citadel_neuroshima::data::{self, parse_army};

const HEADER: &str = "army = \"test\"\nname = \"Test\"\n";

fn hq() -> String {
    "[[tile]]\nkind = \"hq\"\nname = \"HQ\"\ncount = 1\nclass = \"hq\"\ninit = [0]\nhp = 20\nedges = [\"M1\", \"M1\", \"M1\", \"M1\", \"M1\", \"M1\"]\n".into()
}

fn filler(count: u8) -> String {
    format!("[[tile]]\nkind = \"wall\"\nname = \"Wall\"\ncount = {count}\nclass = \"soldier\"\nhp = 1\nedges = [\"A\", \"-\", \"-\", \"-\", \"-\", \"-\"]\n")
}

#[test]
fn nsh_tile_1_embedded_armies_load() {
    let armies = data::armies().expect("embedded data");
    let ids: Vec<&str> = armies.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids, vec!["ddm", "moloch"]);
    assert_eq!(data::content_hash().len(), 32);
}

#[test]
fn a_good_small_army_parses() {
    let text = format!("{HEADER}{}{}", hq(), filler(34));
    let a = parse_army("t.toml", &text).expect("parses");
    assert_eq!(a.total(), 35);
    assert_eq!(a.kinds[0].id, "hq");
}

#[test]
fn an_unknown_edge_code_names_its_line() {
    let bad = filler(34).replace("\"A\"", "\"Q7\"");
    let text = format!("{HEADER}{}{bad}", hq());
    let e = parse_army("t.toml", &text).expect_err("refused");
    // The HQ table starts on line 3 and has 8 lines: the wall starts on 11.
    assert_eq!((e.file.as_str(), e.line), ("t.toml", 11), "{e}");
    assert!(e.to_string().starts_with("t.toml:11: "), "{e}");
    assert!(e.message.contains("Q7"), "{e}");
}

#[test]
fn a_toml_syntax_error_names_its_line() {
    let text = format!("{HEADER}{}count = = 3\n", hq());
    let e = parse_army("s.toml", &text).expect_err("refused");
    assert_eq!(e.line, 11, "{e}");
}

#[test]
fn an_unknown_field_is_refused() {
    let text = format!("{HEADER}{}{}", hq(), filler(34)).replace("hp = 1\n", "hp = 1\nspeed = 3\n");
    let e = parse_army("f.toml", &text).expect_err("refused");
    assert!(e.message.contains("speed"), "{e}");
}

#[test]
fn a_wrong_tile_count_is_refused() {
    let text = format!("{HEADER}{}{}", hq(), filler(30));
    let e = parse_army("c.toml", &text).expect_err("refused");
    assert!(e.message.contains("31 tiles"), "{e}");
}

#[test]
fn a_duplicate_kind_is_refused() {
    let text = format!("{HEADER}{}{}{}", hq(), filler(17), filler(17));
    let e = parse_army("d.toml", &text).expect_err("refused");
    assert!(e.message.contains("twice"), "{e}");
    assert_eq!(e.line, 18, "{e}");
}

#[test]
fn an_attacker_without_initiative_is_refused() {
    let bad = filler(34).replace("\"A\"", "\"R1\"");
    let text = format!("{HEADER}{}{bad}", hq());
    let e = parse_army("i.toml", &text).expect_err("refused");
    assert!(e.message.contains("initiative"), "{e}");
}

#[test]
fn an_instant_with_edges_is_refused() {
    let text = format!(
        "{HEADER}{}{}[[tile]]\nkind = \"boom\"\nname = \"Boom\"\ncount = 1\nclass = \"instant\"\neffect = \"battle\"\nedges = [\"-\", \"-\", \"-\", \"-\", \"-\", \"-\"]\n",
        hq(),
        filler(33)
    );
    let e = parse_army("x.toml", &text).expect_err("refused");
    assert!(e.message.contains("no edges"), "{e}");
}
