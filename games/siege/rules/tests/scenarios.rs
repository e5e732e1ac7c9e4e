//! Scenario tests: data files in `tests/scenarios/*.toml`, one test per
//! scenario, named `<file>::<scenario name>` (the name carries the rule
//! IDs). The format is documented in `docs/SCENARIOS.md`.

use citadel_rules::content::{Content, Corporation, Specialty};
use citadel_rules::dice::ScriptedDice;
use citadel_rules::game::position::Position;
use citadel_rules::game::{Command, DarkLegionSetup, Event, Game, Seat, SeatSetup, Setup, Viewer};
use libtest_mimic::{Arguments, Failed, Trial};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One data file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    scenario: Vec<Scenario>,
}

/// One scenario.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    #[serde(default = "default_mission")]
    mission: String,
    /// Corporations in seat order (default: Bauhaus alone).
    #[serde(default)]
    corporations: Vec<Corporation>,
    /// Team choice per corporation (SET-8), e.g. `{ bauhaus = ["tech", "firearms"] }`.
    #[serde(default)]
    doomtroopers: BTreeMap<Corporation, [Specialty; 2]>,
    /// Starting PP per corporation.
    #[serde(default)]
    start_pp: BTreeMap<Corporation, i32>,
    /// `"ai"` (default), `"drawn"`, or a seat number.
    #[serde(default)]
    dark_legion: Option<Value>,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    starting_rank: Option<u8>,
    /// Play the mission with secondary missions (SET-10), as if its record
    /// said `SECONDARY yes`.
    #[serde(default)]
    secondary: bool,
    /// `Setup::c2m4_completed` (C2M5).
    #[serde(default)]
    c2m4_completed: Option<bool>,
    /// A stated position (`Game::scenario`); without it the game starts
    /// fresh with `Game::new` (setup and draft).
    #[serde(default)]
    position: Option<Value>,
    /// Dice and expectations for the start (`Game::new` / `Game::scenario`).
    #[serde(default)]
    start: Option<Step>,
    #[serde(default, rename = "step")]
    steps: Vec<Step>,
    /// Play the mission as `playable::relaxed` content has it (no
    /// secondary missions, unimplemented events dropped, a tile start made
    /// an entrance), for missions that are unplayable only for those.
    #[serde(default)]
    relax: bool,
}

fn default_mission() -> String {
    "ce-c1m1".into()
}

/// One step: a command (or `settle = true`) and what must follow.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    /// Seat: a corporation id, `dark_legion`, or a number. Default: the
    /// seat the game waits for.
    #[serde(default)]
    seat: Option<Value>,
    /// Forced d6 faces, in call order (a `below(n)` draw takes face − 1).
    #[serde(default)]
    dice: Vec<u8>,
    /// Allow scripted dice to be left over.
    #[serde(default)]
    dice_left_ok: bool,
    /// The command (Command JSON; figures may be written by name).
    #[serde(default)]
    command: Option<Value>,
    /// Run the automatic parts of the game instead of a command.
    #[serde(default)]
    settle: bool,
    /// The expected rejection (snake_case).
    #[serde(default)]
    reject: Option<String>,
    /// Expected events, an ordered subsequence of partial objects.
    #[serde(default)]
    events: Vec<Value>,
    /// Events that must not occur in this step (partial objects).
    #[serde(default)]
    absent: Vec<Value>,
    /// Filter the step's events for this viewer first (`Event::for_viewer`).
    #[serde(default)]
    events_viewer: Option<Value>,
    #[serde(default)]
    figures: BTreeMap<String, FigureCheck>,
    #[serde(default)]
    teams: BTreeMap<Corporation, TeamCheck>,
    #[serde(default)]
    dl_pp: Option<i32>,
    /// Phase tag: `equipment`, `corporation`, `dark_legion`, `finished`.
    #[serde(default)]
    phase: Option<String>,
    /// Seat the game waits for, or `none`.
    #[serde(default)]
    to_act: Option<Value>,
    /// Pending decision kind, or `none`.
    #[serde(default)]
    pending: Option<String>,
    /// Face-down counts per tile index.
    #[serde(default)]
    face_down: BTreeMap<usize, usize>,
    /// Door group states in order (`closed`, `open`, `removed`).
    #[serde(default)]
    doors: Option<Vec<String>>,
    #[serde(default)]
    round: Option<u32>,
    /// `success` / `failure`.
    #[serde(default)]
    result: Option<String>,
    /// JSON-pointer checks on the spectator view.
    #[serde(default)]
    view: BTreeMap<String, Value>,
    /// JSON-pointer checks on another viewer's view.
    #[serde(default)]
    views: Vec<ViewCheck>,
    /// JSON-pointer checks on the serialized game state (hidden parts too).
    #[serde(default)]
    state: BTreeMap<String, Value>,
    /// Rejected commands to try after this step (each must be rejected with
    /// the given reason and change nothing): `[[cmd, "reason"], ...]`.
    #[serde(default)]
    also_rejects: Vec<(Value, String)>,
    /// Partial commands that `legal()` of the seat the game waits for must
    /// each list (a command matching as a subset; names translated).
    #[serde(default)]
    legal: Vec<Value>,
    /// Partial commands that `legal()` of the seat the game waits for
    /// must not list (no listed command matches as a subset).
    #[serde(default)]
    not_legal: Vec<Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FigureCheck {
    #[serde(default)]
    at: Option<Value>,
    #[serde(default)]
    health: Option<u8>,
    /// `board`, `waiting`, `reserve`, `eliminated`, `exited`.
    #[serde(default)]
    place: Option<String>,
    #[serde(default)]
    items: Option<Vec<String>>,
    #[serde(default)]
    weapon: Option<String>,
    #[serde(default)]
    actions_used: Option<u8>,
    #[serde(default)]
    actions_allowed: Option<u8>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TeamCheck {
    #[serde(default)]
    pp: Option<i32>,
    #[serde(default)]
    rank: Option<u8>,
    #[serde(default)]
    reckless: Option<u8>,
    #[serde(default)]
    hand_size: Option<usize>,
    #[serde(default)]
    commander: Option<bool>,
    #[serde(default)]
    credits: Option<u8>,
    #[serde(default)]
    entrance: Option<String>,
    /// Classic CXA: the team's extra-action pool.
    #[serde(default)]
    extra_actions: Option<u8>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ViewCheck {
    viewer: Value,
    pointer: String,
    equals: Value,
}

const NAME_KEYS: [&str; 5] = ["figure", "attacker", "target", "owner", "to"];

/// Replace figure names by ids under the keys that hold figures, and the
/// string `"<null>"` (TOML has no null) by JSON null.
fn translate(game: &Game, v: &mut Value) -> Result<(), String> {
    if v == "<null>" {
        *v = Value::Null;
        return Ok(());
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if NAME_KEYS.contains(&k.as_str()) {
                    if let Value::String(name) = x.clone() {
                        if name == "<null>" {
                            *x = Value::Null;
                            continue;
                        }
                        let id = game
                            .figure_id(&name)
                            .ok_or_else(|| format!("no figure named {name}"))?;
                        *x = json!(id.0);
                        continue;
                    }
                }
                if k == "targets" {
                    // A list of figures (Nimrod volley, WPN-6).
                    if let Value::Array(names) = x {
                        for n in names.iter_mut() {
                            if let Value::String(name) = n.clone() {
                                let id = game
                                    .figure_id(&name)
                                    .ok_or_else(|| format!("no figure named {name}"))?;
                                *n = json!(id.0);
                            }
                        }
                        continue;
                    }
                }
                translate(game, x)?;
            }
        }
        Value::Array(a) => {
            for x in a {
                translate(game, x)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// `expected` is a subset of `actual`: objects by key, arrays element-wise
/// with equal length, scalars equal.
fn subset(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => e
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|x| subset(v, x))),
        (Value::Array(e), Value::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(x, y)| subset(x, y))
        }
        _ => expected == actual,
    }
}

fn seat_of(game: &Game, v: &Value) -> Result<Seat, String> {
    match v {
        Value::Number(n) => Ok(Seat(n.as_u64().ok_or("bad seat")? as u8)),
        Value::String(s) if s == "dark_legion" => Ok(game.dark_legion_seat()),
        Value::String(s) => {
            let corp: Corporation =
                serde_json::from_value(json!(s)).map_err(|e| format!("seat {s}: {e}"))?;
            game.seat_of(corp)
                .ok_or_else(|| format!("{s} has no seat in this game"))
        }
        _ => Err(format!("bad seat {v}")),
    }
}

fn viewer_of(game: &Game, v: &Value) -> Result<Viewer, String> {
    if v == "spectator" {
        Ok(Viewer::Spectator)
    } else {
        Ok(Viewer::Seat(seat_of(game, v)?))
    }
}

fn spectator(game: &Game) -> Value {
    serde_json::to_value(game.view(Viewer::Spectator)).expect("view serializes")
}

fn pointer_check(what: &str, root: &Value, ptr: &str, want: &Value, errs: &mut Vec<String>) {
    match root.pointer(ptr) {
        None if want == "<absent>" => {}
        Some(got) if got == want => {}
        got => errs.push(format!("{what} {ptr}: expected {want}, got {got:?}")),
    }
}

fn build_setup(s: &Scenario) -> Result<Setup, String> {
    let corps = if s.corporations.is_empty() {
        vec![Corporation::Bauhaus]
    } else {
        s.corporations.clone()
    };
    let dl = match &s.dark_legion {
        None => DarkLegionSetup::Ai,
        Some(Value::String(x)) if x == "ai" => DarkLegionSetup::Ai,
        Some(Value::String(x)) if x == "drawn" => DarkLegionSetup::Drawn,
        Some(Value::Number(n)) => DarkLegionSetup::Seat(n.as_u64().ok_or("bad seat")? as u8),
        Some(v) => return Err(format!("bad dark_legion {v}")),
    };
    let mut setup = Setup::new(&s.mission, &corps, dl).with_seed(s.seed);
    setup.seats = corps
        .iter()
        .map(|c| SeatSetup {
            corporation: *c,
            doomtroopers: s.doomtroopers.get(c).copied(),
            pp: s.start_pp.get(c).copied(),
            credits: None,
        })
        .collect();
    if let Some(r) = s.starting_rank {
        setup.starting_rank = r;
    }
    setup.c2m4_completed = s.c2m4_completed;
    Ok(setup)
}

/// Traps may be written `{ at = {x, y}, owner = "name" }`.
fn normalise_position(mut p: Value) -> Value {
    if let Some(Value::Array(traps)) = p.get_mut("traps") {
        for t in traps.iter_mut() {
            if let Value::Object(m) = t {
                let at = m.get("at").cloned().unwrap_or(Value::Null);
                let owner = m.get("owner").cloned().unwrap_or(Value::Null);
                *t = json!([at, owner]);
            }
        }
    }
    p
}

/// Check a step's events and state; returns the differences.
fn check(game: &Game, step: &Step, events: &[Event]) -> Result<Vec<String>, String> {
    let mut errs = Vec::new();
    let events: Vec<Event> = match &step.events_viewer {
        Some(v) => {
            let viewer = viewer_of(game, v)?;
            events.iter().map(|e| e.for_viewer(viewer)).collect()
        }
        None => events.to_vec(),
    };
    let actual: Vec<Value> = events
        .iter()
        .map(|e| serde_json::to_value(e).expect("event serializes"))
        .collect();
    let mut i = 0;
    for (n, exp) in step.events.iter().enumerate() {
        let mut exp = exp.clone();
        translate(game, &mut exp)?;
        match actual[i..].iter().position(|a| subset(&exp, a)) {
            Some(j) => i += j + 1,
            None => {
                errs.push(format!(
                    "expected event #{n} {exp} not found (in order) after event index {i}"
                ));
                break;
            }
        }
    }
    for exp in &step.absent {
        let mut exp = exp.clone();
        translate(game, &mut exp)?;
        if let Some(a) = actual.iter().find(|a| subset(&exp, a)) {
            errs.push(format!("event {exp} must not occur, but got {a}"));
        }
    }
    if !step.legal.is_empty() || !step.not_legal.is_empty() {
        let listed: Vec<Value> = match game.seat_to_act() {
            Some(seat) => game
                .legal(seat)
                .iter()
                .map(|c| serde_json::to_value(c).expect("command serializes"))
                .collect(),
            None => Vec::new(),
        };
        for exp in &step.legal {
            let mut exp = exp.clone();
            translate(game, &mut exp)?;
            if !listed.iter().any(|c| subset(&exp, c)) {
                errs.push(format!("legal() does not list {exp}"));
            }
        }
        for exp in &step.not_legal {
            let mut exp = exp.clone();
            translate(game, &mut exp)?;
            if let Some(c) = listed.iter().find(|c| subset(&exp, c)) {
                errs.push(format!("legal() must not list {exp}, but lists {c}"));
            }
        }
    }
    let view = spectator(game);
    for (name, fc) in &step.figures {
        let id = game
            .figure_id(name)
            .ok_or_else(|| format!("no figure named {name}"))?;
        let fv = &view["figures"][usize::from(id.0)];
        if let Some(at) = &fc.at {
            let want = json!({"at": "board", "square": at});
            if fv["place"] != want {
                errs.push(format!(
                    "{name}: expected at {at}, place is {}",
                    fv["place"]
                ));
            }
        }
        if let Some(p) = &fc.place {
            if fv["place"]["at"] != json!(p) {
                errs.push(format!("{name}: expected place {p}, got {}", fv["place"]));
            }
        }
        if let Some(h) = fc.health {
            if fv["health"] != json!(h) {
                errs.push(format!("{name}: expected health {h}, got {}", fv["health"]));
            }
        }
        if let Some(items) = &fc.items {
            if fv["items"] != json!(items) {
                errs.push(format!(
                    "{name}: expected items {items:?}, got {}",
                    fv["items"]
                ));
            }
        }
        if let Some(w) = &fc.weapon {
            if fv["weapon"] != json!(w) {
                errs.push(format!("{name}: expected weapon {w}, got {}", fv["weapon"]));
            }
        }
        for (key, want) in [
            ("actions_used", fc.actions_used),
            ("actions_allowed", fc.actions_allowed),
        ] {
            if let Some(w) = want {
                if fv[key] != json!(w) {
                    errs.push(format!("{name}: expected {key} {w}, got {}", fv[key]));
                }
            }
        }
    }
    for (corp, tc) in &step.teams {
        let tv = view["teams"]
            .as_array()
            .and_then(|ts| ts.iter().find(|t| t["corporation"] == json!(corp)))
            .ok_or_else(|| format!("no team {corp}"))?;
        let checks: [(&str, Option<Value>); 8] = [
            ("pp", tc.pp.map(|x| json!(x))),
            ("rank", tc.rank.map(|x| json!(x))),
            ("reckless", tc.reckless.map(|x| json!(x))),
            ("hand_size", tc.hand_size.map(|x| json!(x))),
            ("commander", tc.commander.map(|x| json!(x))),
            ("credits", tc.credits.map(|x| json!(x))),
            ("entrance", tc.entrance.as_ref().map(|x| json!(x))),
            ("extra_actions", tc.extra_actions.map(|x| json!(x))),
        ];
        for (key, want) in checks {
            if let Some(w) = want {
                if tv[key] != w {
                    errs.push(format!("team {corp}: expected {key} {w}, got {}", tv[key]));
                }
            }
        }
    }
    if let Some(pp) = step.dl_pp {
        pointer_check("view", &view, "/dark_legion/pp", &json!(pp), &mut errs);
    }
    if let Some(p) = &step.phase {
        pointer_check("view", &view, "/phase/phase", &json!(p), &mut errs);
    }
    if let Some(r) = step.round {
        pointer_check("view", &view, "/round", &json!(r), &mut errs);
    }
    if let Some(r) = &step.result {
        pointer_check("view", &view, "/phase/result", &json!(r), &mut errs);
    }
    if let Some(t) = &step.to_act {
        let want = if t == "none" {
            Value::Null
        } else {
            json!(seat_of(game, t)?.0)
        };
        pointer_check("view", &view, "/to_act", &want, &mut errs);
    }
    if let Some(p) = &step.pending {
        let got = &view["pending"];
        let ok = if p == "none" {
            got.is_null()
        } else {
            got["decision"] == json!(p)
        };
        if !ok {
            errs.push(format!("expected pending {p}, got {got}"));
        }
    }
    for (tile, n) in &step.face_down {
        pointer_check(
            "view",
            &view,
            &format!("/tiles/{tile}/face_down"),
            &json!(n),
            &mut errs,
        );
    }
    if let Some(doors) = &step.doors {
        let got: Vec<Value> = view["doors"]
            .as_array()
            .map(|d| d.iter().map(|x| x["state"].clone()).collect())
            .unwrap_or_default();
        if json!(got) != json!(doors) {
            errs.push(format!("expected doors {doors:?}, got {got:?}"));
        }
    }
    for (ptr, want) in &step.view {
        let mut want = want.clone();
        translate(game, &mut want)?;
        pointer_check("view", &view, ptr, &want, &mut errs);
    }
    for vc in &step.views {
        let mut want = vc.equals.clone();
        translate(game, &mut want)?;
        let viewer = viewer_of(game, &vc.viewer)?;
        let v = serde_json::to_value(game.view(viewer)).expect("view serializes");
        pointer_check(
            &format!("view of {}", vc.viewer),
            &v,
            &vc.pointer,
            &want,
            &mut errs,
        );
    }
    if !step.state.is_empty() {
        let st = serde_json::to_value(game).expect("game serializes");
        for (ptr, want) in &step.state {
            pointer_check("state", &st, ptr, want, &mut errs);
        }
    }
    Ok(errs)
}

fn dump(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| {
            format!(
                "    {}",
                serde_json::to_string(e).expect("event serializes")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Apply a command that must be rejected with `reason` and change nothing.
fn expect_rejection(
    game: &mut Game,
    seat: Seat,
    command: Command,
    reason: &str,
) -> Result<(), String> {
    let before = spectator(game);
    let mut dice = ScriptedDice::faces([]).strict();
    match game.apply(seat, command, &mut dice) {
        Ok(events) => Err(format!(
            "expected rejection {reason}, but it was accepted:\n{}",
            dump(&events)
        )),
        Err(r) => {
            let got = serde_json::to_value(r).expect("rejection serializes");
            if got != json!(reason) {
                return Err(format!("expected rejection {reason}, got {got}"));
            }
            if spectator(game) != before {
                return Err("the game changed on a rejected command".into());
            }
            if dice.used() != 0 {
                return Err("a rejected command used dice".into());
            }
            Ok(())
        }
    }
}

fn parse_command(game: &Game, v: &Value) -> Result<Command, String> {
    let mut v = v.clone();
    translate(game, &mut v)?;
    serde_json::from_value(v.clone()).map_err(|e| format!("bad command {v}: {e}"))
}

/// The embedded content, or its relaxed copy (made once).
fn content(relax: bool) -> Result<&'static Content, String> {
    static RELAXED: std::sync::OnceLock<Content> = std::sync::OnceLock::new();
    let c = Content::embedded().map_err(|e| e.to_string())?;
    Ok(if relax {
        RELAXED.get_or_init(|| citadel_rules::game::playable::relaxed(c))
    } else {
        c
    })
}

fn run(s: &Scenario) -> Result<(), String> {
    let setup = build_setup(s)?;
    let start = s.start.clone().unwrap_or_default();
    let mut dice = ScriptedDice::faces(start.dice.iter().copied());
    let embedded = content(s.relax)?;
    let flipped;
    let content: &Content = if s.secondary {
        let mut c = embedded.clone();
        for m in c.missions.iter_mut().filter(|m| m.id == s.mission) {
            m.secondary = true;
        }
        flipped = c;
        &flipped
    } else {
        embedded
    };
    let (mut game, events) = match &s.position {
        Some(p) => {
            let p: Position = serde_json::from_value(normalise_position(p.clone()))
                .map_err(|e| format!("bad position: {e}"))?;
            let g = Game::scenario_with_content(setup, content, &p, &mut dice)?;
            (g, Vec::new())
        }
        // Unchecked: a scenario may test the implemented rules of a
        // mission that is not playable as a whole yet.
        None => Game::with_content_unchecked(setup, content, &mut dice)
            .map_err(|e| format!("setup: {e}"))?,
    };
    let errs = check(&game, &start, &events)?;
    if !errs.is_empty() {
        return Err(format!(
            "start: {}\n  events:\n{}",
            errs.join("\n  "),
            dump(&events)
        ));
    }
    for (n, step) in s.steps.iter().enumerate() {
        let fail = |msg: String| format!("step {n}: {msg}");
        let seat = match (&step.seat, &step.command) {
            (Some(v), _) => seat_of(&game, v).map_err(fail)?,
            (None, None) => Seat(0),
            (None, Some(_)) => game
                .seat_to_act()
                .ok_or_else(|| fail("no seat to act; give `seat`".into()))?,
        };
        let mut dice = ScriptedDice::faces(step.dice.iter().copied());
        let events = match (&step.command, step.settle) {
            (Some(c), false) => {
                let cmd = parse_command(&game, c).map_err(fail)?;
                if let Some(reason) = &step.reject {
                    if !step.dice.is_empty() {
                        return Err(fail("a rejected step takes no dice".into()));
                    }
                    expect_rejection(&mut game, seat, cmd, reason).map_err(fail)?;
                    Vec::new()
                } else {
                    game.apply(seat, cmd.clone(), &mut dice).map_err(|r| {
                        fail(format!(
                            "command {} rejected: {}",
                            serde_json::to_string(&cmd).unwrap_or_default(),
                            serde_json::to_value(r).unwrap_or_default()
                        ))
                    })?
                }
            }
            (None, true) => game.settle(&mut dice),
            _ => {
                return Err(fail(
                    "a step needs exactly one of command and settle".into(),
                ))
            }
        };
        if dice.remaining() > 0 && !step.dice_left_ok {
            return Err(fail(format!(
                "{} scripted dice were not used\n  events:\n{}",
                dice.remaining(),
                dump(&events)
            )));
        }
        let errs = check(&game, step, &events).map_err(fail)?;
        if !errs.is_empty() {
            return Err(fail(format!(
                "{}\n  events:\n{}",
                errs.join("\n  "),
                dump(&events)
            )));
        }
        for (c, reason) in &step.also_rejects {
            let cmd = parse_command(&game, c).map_err(fail)?;
            expect_rejection(&mut game, seat, cmd, reason)
                .map_err(|e| fail(format!("also_rejects {c}: {e}")))?;
        }
    }
    Ok(())
}

fn load(dir: &Path) -> Result<Vec<(String, Scenario)>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        let t: toml::Value = toml::from_str(&text).map_err(|e| format!("{}: {e}", f.display()))?;
        let j = serde_json::to_value(t).map_err(|e| e.to_string())?;
        let file: ScenarioFile =
            serde_json::from_value(j).map_err(|e| format!("{}: {e}", f.display()))?;
        let stem = f
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        for s in file.scenario {
            out.push((format!("{stem}::{}", s.name), s));
        }
    }
    Ok(out)
}

fn main() {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let scenarios = match load(&dir) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("scenario files: {e}");
            std::process::exit(2);
        }
    };
    let mut names = std::collections::BTreeSet::new();
    let trials: Vec<Trial> = scenarios
        .into_iter()
        .map(|(name, s)| {
            assert!(names.insert(name.clone()), "duplicate scenario {name}");
            Trial::test(name.clone(), move || {
                run(&s).map_err(|e| Failed::from(format!("scenario \"{name}\"\n  {e}")))
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
