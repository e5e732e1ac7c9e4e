//! The browser client is a shell plus game modules (issue 29): the shell's
//! files in `web-client/` know no game, each game's board, words and
//! panels live in `web-client/games/<id>/`, and the shell reaches them only
//! through the registry `web-client/games/index.js`
//! (docs/ARCHITECTURE.md, "The browser client: shell and game modules").
//!
//! This test reads the files: a shell file that uses a word of Siege's
//! (its sides, its pieces, its missions) fails it, and so does a game
//! folder the registry does not list, or a shell file that imports a
//! game's files by path. The generated type files are shell files too:
//! the Rust types they mirror name no game either.

use std::path::{Path, PathBuf};

/// Siege of the Citadel's own words, matched case-insensitively (with
/// `_`, `-` and a space taken as the same).
const SIEGE_WORDS: [&str; 14] = [
    "corporation",
    "doomtrooper",
    "dark legion",
    "mission",
    "bauhaus",
    "capitol",
    "cybertronic",
    "imperial",
    "mishima",
    "creature",
    "force card",
    "nepharite",
    "siege",
    "1993",
];

fn web_client() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web-client")
}

/// The registry: the game modules' scripts and stylesheets, by game id.
const REGISTRY: [&str; 2] = ["games/index.js", "games/index.css"];

/// The shell: every file directly in `web-client/`, and the registry.
fn shell_files() -> Vec<(String, String)> {
    let dir = web_client();
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir)
        .expect("web-client/ is there")
        .flatten()
    {
        let path = entry.path();
        if path.is_file() {
            let name = entry.file_name().to_string_lossy().into_owned();
            out.push((name, std::fs::read_to_string(&path).unwrap_or_default()));
        }
    }
    for name in REGISTRY {
        let text = std::fs::read_to_string(dir.join(name));
        out.push((
            name.to_string(),
            text.unwrap_or_else(|e| panic!("web-client/{name}: {e}")),
        ));
    }
    out.sort();
    out
}

/// The game folders under `web-client/games/`.
fn game_ids() -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(web_client().join("games"))
        .expect("web-client/games/ is there")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids
}

fn normalise(text: &str) -> String {
    text.to_lowercase().replace(['_', '-'], " ")
}

/// Where `word` first starts a word of `text` (so "mission" is found in
/// "missions" and "mission's", not in "permission").
fn word_at(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(at, _)| at).find(|&at| {
        !text[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
    })
}

#[test]
fn a_siege_word_is_found_at_the_start_of_a_word_only() {
    assert_eq!(word_at("the missions", "mission"), Some(4));
    assert_eq!(word_at("notification.permission", "mission"), None);
    assert_eq!(word_at("permission, then a mission", "mission"), Some(19));
}

#[test]
fn the_shell_names_no_siege_word() {
    let mut found = Vec::new();
    for (name, text) in shell_files() {
        let mut text = normalise(&text);
        if REGISTRY.contains(&name.as_str()) {
            // The registry names each game by its id, and nothing else of it.
            for id in game_ids() {
                text = text.replace(&id, "");
            }
        }
        for word in SIEGE_WORDS {
            if let Some(at) = word_at(&text, word) {
                let line = text[..at].matches('\n').count() + 1;
                found.push(format!("web-client/{name}:{line}: \"{word}\""));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the client shell names Siege; move this into web-client/games/siege/ behind the \
         game-module interface (docs/ARCHITECTURE.md):\n{}",
        found.join("\n")
    );
}

#[test]
fn every_game_folder_is_registered_with_its_module() {
    let registry = std::fs::read_to_string(web_client().join("games/index.js")).unwrap_or_default();
    let styles = std::fs::read_to_string(web_client().join("games/index.css")).unwrap_or_default();
    let ids = game_ids();
    assert!(ids.iter().any(|id| id == "siege"), "games/siege/ is there");
    for id in ids {
        let module = web_client().join("games").join(&id).join("game.js");
        assert!(module.is_file(), "web-client/games/{id}/game.js exists");
        let text = std::fs::read_to_string(&module).unwrap_or_default();
        assert!(
            text.contains("export default") && text.contains(&format!("id: \"{id}\"")),
            "web-client/games/{id}/game.js exports its module with id \"{id}\""
        );
        assert!(
            registry.contains(&format!("\"./{id}/game.js\"")),
            "web-client/games/index.js registers games/{id}/game.js"
        );
        if web_client()
            .join("games")
            .join(&id)
            .join("style.css")
            .is_file()
        {
            assert!(
                styles.contains(&format!("\"./{id}/style.css\"")),
                "web-client/games/index.css imports games/{id}/style.css"
            );
        }
    }
}

#[test]
fn the_shell_reaches_games_only_through_the_registry() {
    for (name, text) in shell_files() {
        if REGISTRY.contains(&name.as_str()) {
            continue;
        }
        for id in game_ids() {
            assert!(
                !text.contains(&format!("games/{id}/")),
                "web-client/{name} refers to games/{id}/ directly; go through games/index.js"
            );
        }
    }
}

/// `web-client/games/siege/protocol.ts`: the TypeScript declarations of
/// Siege's own payloads (commands, events, views, the map, rejections),
/// which protocol version 3 carries as the game's JSON and so no longer
/// declares in `web-client/protocol.ts`. Siege's module documents its
/// JSDoc types with them, and `tests/browser/text.test.mjs` builds a
/// sample of every command and event from them.
/// `CITADEL_UPDATE_TS=1` rewrites the file instead of failing.
#[test]
fn siege_payload_types_are_current() {
    use citadel_rules::game::{Command, Event, GameView, Rejection};
    let mut d = citadel_protocol::Declarations::new();
    d.add::<Command>();
    d.add::<Event>();
    d.add::<GameView>();
    d.add::<Rejection>();
    d.add::<citadel_rules::map_data::MapData>();
    // Siege's documents (GET /api/catalogue/siege/{content,missions}).
    d.add::<citadel_rules::documents::content::ContentDoc<'static>>();
    d.add::<citadel_rules::documents::MissionInfo>();
    // Siege's campaign answers (docs/PROTOCOL.md, "Campaigns").
    d.add::<citadel_siege_campaign::service::NextGameAnswer>();
    d.add::<citadel_siege_campaign::service::CreditBought>();
    d.add::<citadel_siege_campaign::service::Standings<'static>>();
    let mut out = String::from(
        "// Siege of the Citadel's payloads in the wire protocol: TypeScript declarations.\n\
         // Generated by crates/citadel/tests/client_shell.rs (ts-rs) from citadel-rules' types; do not edit.\n\
         // Update: CITADEL_UPDATE_TS=1 cargo test -p citadel --test client_shell\n\
         // The envelope they ride in is web-client/protocol.ts.\n",
    );
    out.push_str(&d.render());
    citadel_protocol::check_generated(
        &web_client().join("games/siege/protocol.ts"),
        &out,
        "cargo test -p citadel --test client_shell",
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

/// `web-client/games/neuroshima/protocol.ts`: the TypeScript declarations
/// of Neuroshima Hex's payloads (its table options, commands, events,
/// view, rejections and the static data the board is drawn from), which
/// its module's JSDoc types refer to. `CITADEL_UPDATE_TS=1` rewrites the
/// file instead of failing.
#[test]
fn neuroshima_payload_types_are_current() {
    use citadel_neuroshima::seam::{Static, View};
    use citadel_neuroshima::types::{Command, Event, Options, Rejection};
    let mut d = citadel_protocol::Declarations::new();
    d.add::<Options>();
    d.add::<Command>();
    d.add::<Event>();
    d.add::<View>();
    d.add::<Rejection>();
    d.add::<Static>();
    let mut out = String::from(
        "// Neuroshima Hex's payloads in the wire protocol: TypeScript declarations.\n\
         // Generated by crates/citadel/tests/client_shell.rs (ts-rs) from citadel-neuroshima's types; do not edit.\n\
         // Update: CITADEL_UPDATE_TS=1 cargo test -p citadel --test client_shell\n\
         // The envelope they ride in is web-client/protocol.ts.\n",
    );
    out.push_str(&d.render());
    citadel_protocol::check_generated(
        &web_client().join("games/neuroshima/protocol.ts"),
        &out,
        "cargo test -p citadel --test client_shell",
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

/// Every script of the client (the shell and each game module) speaks
/// protocol 3: Siege's lobby messages of protocol 2 (`take_seat`,
/// `choose_team`) are one `choose` with the whole choice now, and the
/// shell reads `static_data` (protocol 2's `map`) and picks the module by
/// the kind the server names.
#[test]
fn the_client_speaks_protocol_3() {
    let mut scripts = Vec::new();
    let mut dirs = vec![web_client()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "js") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                scripts.push((path, text));
            }
        }
    }
    assert!(scripts.len() >= 5, "the client's scripts are found");
    for (path, text) in &scripts {
        for gone in ["\"take_seat\"", "\"choose_team\""] {
            assert!(
                !text.contains(gone),
                "{} sends {gone}, which protocol 3 replaced by `choose`",
                path.display()
            );
        }
    }
    let app = std::fs::read_to_string(web_client().join("app.js")).unwrap_or_default();
    for needed in [
        "msg.static_data",
        "msg.kind",
        "msg.lobby.kind",
        "gameFor(",
        "hasGame(",
    ] {
        assert!(app.contains(needed), "app.js uses {needed}");
    }
    for gone in ["msg.map", ".map = msg"] {
        assert!(
            !app.contains(gone),
            "app.js still reads protocol 2's map ({gone})"
        );
    }
}
