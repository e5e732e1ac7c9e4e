//! Property tests over random games (core CONV-2, TRN-7, HID-1..3).
//!
//! Each case draws a setup (a playable mission, seed, 1–4 corporations, DL
//! drawn or AI, a starting rank of the mission's edition) and a vector of choice indices; the game is played
//! forward by picking `legal(seat)[choice % len]` for whoever must act, for
//! at most `MAX_STEPS` commands. Case counts are modest so the whole file
//! runs in a few seconds in debug; raise them with `PROPTEST_CASES=1000`.

use citadel_rules::content::{AttackType, Corporation, CreatureKind};
use citadel_rules::dice::{ScriptedDice, SeededDice};
use citadel_rules::game::{
    CardPlay, Command, DarkLegionSetup, Event, FigureId, Game, GameView, Seat, Setup, Side, Viewer,
};
use citadel_rules::geometry::Square;
use citadel_rules::sim::check_invariants;
use proptest::prelude::*;
use serde_json::Value;

/// Commands per case.
const MAX_STEPS: usize = 300;

// ---------------------------------------------------------------- setup

/// A setup drawn by proptest.
#[derive(Clone, Debug)]
struct Spec {
    mission: &'static str,
    seed: u64,
    corporations: Vec<Corporation>,
    ai: bool,
    rank: u8,
}

impl Spec {
    fn setup(&self) -> Setup {
        let dl = if self.ai {
            DarkLegionSetup::Ai
        } else {
            DarkLegionSetup::Drawn
        };
        let mut s = Setup::new(self.mission, &self.corporations, dl).with_seed(self.seed);
        s.starting_rank = self.rank;
        s
    }

    fn start(&self) -> (Game, Vec<Event>, SeededDice) {
        let mut dice = SeededDice::new(self.seed);
        // Unchecked: the missions beyond C1M1 are tested for the rules
        // they implement before they are playable as a whole.
        let (game, events) = Game::new_unchecked(self.setup(), &mut dice).expect("valid setup");
        (game, events, dice)
    }
}

/// Every mission the engine plays (`game::playable`): the properties hold
/// for each, so a mission becomes playable only with them.
fn missions() -> Vec<&'static str> {
    let content = citadel_rules::Content::embedded().expect("embedded content");
    citadel_rules::game::playable::playable_missions(content)
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop::sample::select(missions()),
        any::<u64>(),
        1usize..=4,
        any::<bool>(),
        1u8..=12,
        Just(Corporation::ALL.to_vec()).prop_shuffle(),
    )
        .prop_map(|(mission, seed, n, ai, rank, corps)| {
            // A drawn DL needs at least two players (SET-12): one becomes
            // the DL, so the drawn mode uses 2–4 seats.
            let n = if ai { n } else { n.max(2) };
            // The edition's ranks (CE 1–12, classic 1–6).
            let edition = citadel_rules::Content::embedded()
                .ok()
                .and_then(|c| c.mission(mission))
                .map_or(citadel_rules::content::Edition::Ce, |m| m.edition);
            let top = *citadel_rules::game::setup::starting_ranks(edition).end();
            Spec {
                mission,
                seed,
                corporations: corps[..n].to_vec(),
                ai,
                rank: 1 + (rank - 1) % top,
            }
        })
}

fn choices() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 1..MAX_STEPS)
}

/// One step of a random legal game: the seat to act and the command
/// chosen, or `None` once the game is over or stuck.
fn pick(game: &Game, choice: u16) -> Option<(Seat, Command)> {
    if game.is_finished() {
        return None;
    }
    let seat = game.seat_to_act()?;
    let legal = game.legal(seat);
    if legal.is_empty() {
        return None;
    }
    let cmd = legal[usize::from(choice) % legal.len()].clone();
    Some((seat, cmd))
}

/// Every viewer of the game: each seat, then the spectator.
fn viewers(game: &Game) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = game.seats().into_iter().map(Viewer::Seat).collect();
    v.push(Viewer::Spectator);
    v
}

/// Everything observable of a game: each viewer's view and the internal
/// state as serialized (the side channel the tests use for hidden state).
/// Views are compared as structs: `GameView: PartialEq` compares every
/// field, so equal views serialize to equal `serde_json::Value`s.
fn snapshot(game: &Game) -> (Vec<GameView>, String) {
    let views = viewers(game).into_iter().map(|v| game.view(v)).collect();
    let state = serde_json::to_string(game).expect("game serializes");
    (views, state)
}

// ------------------------------------------------------------- CONV-2

/// Play a game and record every (seat, command, events) and the spectator
/// view after each command.
type Record = (
    Vec<Event>,
    Vec<(Seat, Command, Vec<Event>)>,
    Vec<GameView>,
    Value,
);

fn play_recorded(spec: &Spec, choices: &[u16]) -> Record {
    let (mut game, start, mut dice) = spec.start();
    let mut log = Vec::new();
    let mut views = Vec::new();
    for &c in choices {
        let Some((seat, cmd)) = pick(&game, c) else {
            break;
        };
        let events = game
            .apply(seat, cmd.clone(), &mut dice)
            .expect("legal command accepted");
        log.push((seat, cmd, events));
        views.push(game.view(Viewer::Spectator));
    }
    let state = serde_json::to_value(&game).expect("state");
    (start, log, views, state)
}

// --------------------------------------------------------- rejections

/// Raw numbers from which a (usually illegal) command is built at a given
/// state, so proptest can shrink them.
#[derive(Clone, Debug)]
struct Junk {
    kind: u8,
    seat: u8,
    a: u16,
    b: u16,
    dx: i8,
    dy: i8,
    len: u8,
}

fn junk() -> impl Strategy<Value = Junk> {
    (
        any::<u8>(),
        0u8..8,
        any::<u16>(),
        any::<u16>(),
        -3i8..=3,
        -3i8..=3,
        0u8..8,
    )
        .prop_map(|(kind, seat, a, b, dx, dy, len)| Junk {
            kind,
            seat,
            a,
            b,
            dx,
            dy,
            len,
        })
}

const STRINGS: &[&str] = &[
    "",
    "photograph",
    "smoke_grenade",
    "autoinjector",
    "time_bomb",
    "command_helmet",
    "molecular_phaser",
    "manus_kit",
    "no_such_thing",
    "15N",
];

const ATTACKS: [AttackType; 3] = [
    AttackType::CloseCombat,
    AttackType::Firearm,
    AttackType::Tech,
];

fn nudge(s: Square, j: &Junk) -> Square {
    Square::new(s.x + i32::from(j.dx), s.y + i32::from(j.dy))
}

/// A command built from `j` at `game`: a mutation of a legal command of the
/// seat to act (wrong seat, bent path, other target, out-of-range index),
/// or a wholly random one.
fn junk_command(game: &Game, j: &Junk) -> (Seat, Command) {
    let nfig = u16::try_from(game.view(Viewer::Spectator).figures.len()).unwrap_or(u16::MAX);
    let fig = |x: u16| FigureId(x % (nfig + 3));
    let w = game.board().width();
    let h = game.board().height();
    let sq = |a: u16, b: u16| Square::new(i32::from(a) % (w + 2) - 1, i32::from(b) % (h + 2) - 1);
    let text = |x: u16| STRINGS[usize::from(x) % STRINGS.len()].to_string();
    let seat = Seat(j.seat);
    let to_act = game.seat_to_act();
    let legal = to_act.map(|s| game.legal(s)).unwrap_or_default();
    if j.kind % 2 == 0 && !legal.is_empty() {
        let s = to_act.unwrap_or(seat);
        let base = legal[usize::from(j.a) % legal.len()].clone();
        let mutated = match (j.kind / 2) % 4 {
            // The right command from another seat.
            0 => return (Seat((s.0 + 1 + j.seat % 5) % 6), base),
            _ => match base {
                Command::Move { figure, mut path } => {
                    match j.len % 5 {
                        0 => {
                            if let Some(last) = path.last().copied() {
                                path.push(nudge(last, j));
                            }
                        }
                        1 => {
                            let i = usize::from(j.b) % path.len().max(1);
                            if let Some(p) = path.get_mut(i) {
                                *p = nudge(*p, j);
                            }
                        }
                        2 => path.reverse(),
                        3 => {
                            let first = path.first().copied();
                            if let Some(f) = first {
                                path.extend(std::iter::repeat_n(f, usize::from(j.len)));
                            }
                        }
                        _ => {
                            return (
                                s,
                                Command::Move {
                                    figure: fig(j.b),
                                    path,
                                },
                            )
                        }
                    }
                    Command::Move { figure, path }
                }
                Command::Attack { figure, .. } => Command::Attack {
                    figure,
                    target: fig(j.b),
                    attack: ATTACKS[usize::from(j.len) % 3],
                    barb_die: None,
                },
                Command::PlayCard { card, figure, .. } => Command::PlayCard {
                    card: card + usize::from(j.len % 3) * 7,
                    figure: if j.len % 2 == 0 { fig(j.b) } else { figure },
                    play: CardPlay::Text {
                        target: Some(fig(j.a)),
                        square: Some(sq(j.a, j.b)),
                    },
                },
                Command::ChooseOption { option } => Command::ChooseOption {
                    option: option + 1 + usize::from(j.b % 9),
                },
                Command::ChooseTile { tile } => Command::ChooseTile {
                    tile: tile + 1 + usize::from(j.b % 40),
                },
                Command::Place { kind, square } => Command::Place {
                    kind,
                    square: nudge(square, j),
                },
                Command::PickEquipment { item, .. } => Command::PickEquipment {
                    item,
                    figure: fig(j.b),
                },
                Command::UseItem { figure, item, .. } => Command::UseItem {
                    figure,
                    item,
                    square: Some(sq(j.a, j.b)),
                },
                Command::Special { action, .. } => Command::Special {
                    figure: fig(j.b),
                    action,
                },
                Command::Swing {
                    figure,
                    start,
                    clockwise,
                } => Command::Swing {
                    figure,
                    start: nudge(start, j),
                    clockwise: !clockwise,
                },
                Command::Spray { .. } => Command::Spray {
                    figure: fig(j.b),
                    direction: citadel_grid::Direction::ALL[usize::from(j.len)],
                },
                Command::AttackSquare { figure, square } => Command::AttackSquare {
                    figure,
                    square: nudge(square, j),
                },
                Command::Volley { figure, targets } => Command::Volley {
                    figure,
                    targets: [targets[0], fig(j.b)],
                },
                Command::Hack { figure, token } => Command::Hack {
                    figure: if j.len % 2 == 0 { fig(j.b) } else { figure },
                    token: nudge(token, j),
                },
                Command::AttackToken { figure, token, .. } => Command::AttackToken {
                    figure,
                    token: if j.len % 2 == 0 {
                        nudge(token, j)
                    } else {
                        token
                    },
                    attack: ATTACKS[usize::from(j.len) % 3],
                },
                other => other,
            },
        };
        return (s, mutated);
    }
    let cmd = match j.kind % 19 {
        0 => Command::PickEquipment {
            item: text(j.a),
            figure: fig(j.b),
        },
        1 => Command::PassEquipment,
        2 => Command::ChooseEntrance {
            entrance: format!(
                "{}{}",
                j.a % 20,
                ["N", "S", "E", "W"][usize::from(j.len % 4)]
            ),
        },
        3 => Command::ChooseOption {
            option: usize::from(j.a % 6),
        },
        4 => Command::Place {
            kind: CreatureKind::ALL[usize::from(j.len) % CreatureKind::ALL.len()],
            square: sq(j.a, j.b),
        },
        5 => Command::ChooseTile {
            tile: usize::from(j.a % 40),
        },
        6 => Command::ChooseFigure { figure: fig(j.a) },
        7 => Command::ChooseCorporation {
            corporation: Corporation::ALL[usize::from(j.len) % 5],
        },
        8 => Command::Discard { item: text(j.a) },
        9 | 10 => {
            let start = sq(j.a, j.b);
            let mut path = vec![start];
            for k in 0..j.len {
                let last = *path.last().unwrap_or(&start);
                let step = if k % 2 == 0 {
                    Square::new(last.x + i32::from(j.dx.signum()), last.y)
                } else {
                    Square::new(last.x, last.y + i32::from(j.dy.signum()))
                };
                path.push(step);
            }
            if j.len == 0 && j.kind % 3 == 0 {
                path.clear();
            }
            Command::Move {
                figure: fig(j.a ^ j.b),
                path: path.into(),
            }
        }
        11 | 12 => Command::Attack {
            figure: fig(j.a),
            target: fig(j.b),
            attack: ATTACKS[usize::from(j.len) % 3],
            barb_die: None,
        },
        13 => Command::Special {
            figure: fig(j.a),
            action: text(j.b),
        },
        14 => Command::UseItem {
            figure: fig(j.a),
            item: text(j.b),
            square: (j.len % 2 == 0).then(|| sq(j.b, j.a)),
        },
        15 => Command::Overrun {
            figure: fig(j.a),
            square: (j.len % 2 == 0).then(|| sq(j.b, j.a)),
        },
        16 => Command::PlayCard {
            card: usize::from(j.len),
            figure: fig(j.a),
            play: if j.b % 2 == 0 {
                CardPlay::ExtraAction
            } else {
                CardPlay::Text {
                    target: Some(fig(j.b)),
                    square: Some(sq(j.a, j.b)),
                }
            },
        },
        17 => Command::EndActivation,
        _ => Command::EndTurn,
    };
    (seat, cmd)
}

// ------------------------------------------------------------ secrets

/// True if `needle` (a non-trivial array) occurs anywhere in `hay`.
fn contains_array(hay: &Value, needle: &[Value]) -> bool {
    match hay {
        Value::Array(a) => a.as_slice() == needle || a.iter().any(|v| contains_array(v, needle)),
        Value::Object(o) => o.values().any(|v| contains_array(v, needle)),
        _ => false,
    }
}

/// The hidden collections of the internal state (HID-1, HID-2): deck and
/// pile orders, each tile's face-down cards, each team's hand.
struct Secrets {
    /// Hidden orders that must never appear as arrays in public output.
    orders: Vec<Vec<Value>>,
    /// Each tile's face-down card numbers.
    face_down: Vec<Vec<Value>>,
    /// Each team's hand.
    hands: Vec<Vec<Value>>,
}

fn arr(v: &Value) -> Vec<Value> {
    v.as_array().cloned().unwrap_or_default()
}

fn secrets(state: &Value) -> Secrets {
    let mut orders = Vec::new();
    for key in [
        "force_pile",
        "event_deck",
        "door_deck",
        "dt_deck",
        "markers",
    ] {
        let a = arr(&state[key]);
        // Arrays of 0 or 1 element carry no order, and short ones collide
        // with public lists by chance; count-only fields are checked below.
        if a.len() >= 3 {
            let mut rev = a.clone();
            rev.reverse();
            orders.push(a);
            orders.push(rev);
        }
    }
    let face_down = state["tiles"]
        .as_array()
        .map(|ts| ts.iter().map(|t| arr(&t["face_down"])).collect())
        .unwrap_or_default();
    let hands = state["teams"]
        .as_array()
        .map(|ts| ts.iter().map(|t| arr(&t["hand"])).collect())
        .unwrap_or_default();
    Secrets {
        orders,
        face_down,
        hands,
    }
}

/// The public fields of a tile (FRC-3: face-down cards only as a count).
const TILE_VIEW_KEYS: [&str; 7] = [
    "face_down",
    "id",
    "marked",
    "name",
    "origin",
    "rotation",
    "smoke",
];

/// HID-1: what a spectator sees of the view holds no secret.
fn check_public_view(view: &Value, s: &Secrets, state: &Value) -> Result<(), String> {
    for (i, t) in view["teams"].as_array().into_iter().flatten().enumerate() {
        if !t["hand"].is_null() {
            return Err(format!("spectator sees team {i}'s hand: {}", t["hand"]));
        }
        if t["hand_size"].as_u64() != Some(s.hands[i].len() as u64) {
            return Err(format!("team {i} hand_size wrong"));
        }
    }
    for (i, t) in view["tiles"].as_array().into_iter().flatten().enumerate() {
        match t["face_down"].as_u64() {
            Some(n) if n == s.face_down[i].len() as u64 => {}
            _ => {
                return Err(format!(
                    "tile {i} face_down is not its count: {}",
                    t["face_down"]
                ))
            }
        }
        // A lone card number would collide with `marked` team indices, so
        // the fields are pinned instead: any new tile field needs review.
        let keys: Vec<&str> = t
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        if keys != TILE_VIEW_KEYS {
            return Err(format!("tile view fields changed: {keys:?}"));
        }
        if s.face_down[i].len() >= 2 && contains_array(t, &s.face_down[i]) {
            return Err(format!("tile {i} shows its face-down cards"));
        }
    }
    for key in ["force_pile", "event_deck", "markers_left"] {
        if !view[key].is_u64() {
            return Err(format!("{key} is not a count: {}", view[key]));
        }
    }
    for (key, skey) in [("force_pile", "force_pile"), ("event_deck", "event_deck")] {
        if view[key].as_u64() != Some(arr(&state[skey]).len() as u64) {
            return Err(format!("{key} count wrong"));
        }
    }
    check_no_secret_arrays(view, s)
}

fn check_no_secret_arrays(v: &Value, s: &Secrets) -> Result<(), String> {
    for o in &s.orders {
        if contains_array(v, o) {
            return Err(format!("a hidden order is visible: {o:?}"));
        }
    }
    // Pairs of numbers are everywhere (a team's two figure ids), so only
    // runs of three or more cards are searched for.
    for (i, fd) in s.face_down.iter().enumerate() {
        if fd.len() >= 3 && contains_array(v, fd) {
            return Err(format!("tile {i}'s face-down cards are visible: {fd:?}"));
        }
    }
    Ok(())
}

fn check_public_events(events: &[Event], s: &Secrets) -> Result<(), String> {
    for e in Game::filter_events(events, Viewer::Spectator) {
        if let Event::CardsDealt { cards: Some(c), .. } = &e {
            return Err(format!("spectator sees dealt cards {c:?}"));
        }
        let v = serde_json::to_value(&e).map_err(|x| x.to_string())?;
        check_no_secret_arrays(&v, s)?;
        for h in s.hands.iter().filter(|h| h.len() >= 2) {
            if contains_array(&v, h) {
                return Err(format!("spectator event shows a hand: {e:?}"));
            }
        }
    }
    Ok(())
}

/// Follow `PromotionPoints` events: each total is the previous one plus
/// the delta, and the latest total per side is kept.
fn pp_ledger(events: &[Event], teams: &mut [i32], dl: &mut i32) -> Result<(), String> {
    for e in events {
        if let Event::PromotionPoints {
            side, delta, total, ..
        } = e
        {
            let slot = match side {
                Side::DarkLegion => &mut *dl,
                Side::Team(t) => &mut teams[usize::from(*t)],
            };
            if *slot + delta != *total {
                return Err(format!("{side:?}: {} {delta:+} != {total}", *slot));
            }
            *slot = *total;
        }
    }
    Ok(())
}

// ---------------------------------------------------------- properties

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 32,
        max_shrink_iters: 200,
        ..ProptestConfig::default()
    })]

    /// CONV-2: the same setup, seed and chosen commands give the same game,
    /// and replaying the recorded commands reproduces it too.
    #[test]
    fn conv_2_same_setup_seed_commands_same_game(spec in spec(), choices in choices()) {
        let (start_a, log_a, views_a, state_a) = play_recorded(&spec, &choices);
        let (start_b, log_b, views_b, state_b) = play_recorded(&spec, &choices);
        prop_assert_eq!(&start_a, &start_b);
        prop_assert_eq!(&log_a, &log_b);
        prop_assert_eq!(&views_a, &views_b);
        prop_assert_eq!(&state_a, &state_b);

        // Replay the recorded command list, without the bot's choices.
        let (mut game, start_c, mut dice) = spec.start();
        prop_assert_eq!(&start_c, &start_a);
        for (i, (seat, cmd, events)) in log_a.iter().enumerate() {
            let replayed = game.apply(*seat, cmd.clone(), &mut dice);
            prop_assert_eq!(replayed.as_ref(), Ok(events), "command {}", i);
            prop_assert_eq!(&game.view(Viewer::Spectator), &views_a[i], "view after command {}", i);
        }
        prop_assert_eq!(&serde_json::to_value(&game).expect("state"), &state_a);
    }

    /// TRN-7 (and CONV-4): every command `legal` lists is accepted by
    /// `apply`, checked on a clone at sampled states.
    #[test]
    fn trn_7_every_legal_command_is_accepted(
        spec in spec(),
        choices in prop::collection::vec(any::<u16>(), 1..120),
        every in 5usize..12,
    ) {
        let (mut game, _, mut dice) = spec.start();
        for (step, &c) in choices.iter().enumerate() {
            let Some((seat, cmd)) = pick(&game, c) else { break };
            if step % every == 0 {
                for (k, l) in game.legal(seat).into_iter().enumerate() {
                    let mut g = game.clone();
                    let mut d = SeededDice::new(spec.seed ^ ((step as u64) << 8) ^ k as u64);
                    let r = g.apply(seat, l.clone(), &mut d);
                    prop_assert!(r.is_ok(), "step {}: legal {:?} rejected: {:?}", step, l, r);
                    if let Err(v) = check_invariants(&g) {
                        prop_assert!(false, "step {}: after {:?}: {}", step, l, v);
                    }
                }
            }
            game.apply(seat, cmd, &mut dice).expect("legal command accepted");
        }
    }

    /// A rejected command changes nothing: no viewer's view, not the
    /// internal state, and no die is rolled (the `apply` contract).
    #[test]
    fn rejection_leaves_game_untouched(
        spec in spec(),
        choices in prop::collection::vec(any::<u16>(), 1..80),
        junk in prop::collection::vec(junk(), 1..64),
    ) {
        let (mut game, _, mut dice) = spec.start();
        for (step, &c) in choices.iter().enumerate() {
            let before = snapshot(&game);
            for t in 0..2 {
                let j = &junk[(step * 2 + t) % junk.len()];
                let (seat, cmd) = junk_command(&game, j);
                let mut g = game.clone();
                let mut d = ScriptedDice::raw([]);
                if let Err(r) = g.apply(seat, cmd.clone(), &mut d) {
                    prop_assert_eq!(d.used(), 0, "step {}: {:?} from {:?} -> {:?} rolled dice", step, cmd, seat, r);
                    let after = snapshot(&g);
                    prop_assert!(
                        after == before,
                        "step {}: {:?} from {:?} -> {:?} changed the game", step, cmd, seat, r
                    );
                    if let Err(v) = check_invariants(&g) {
                        prop_assert!(false, "step {}: after rejected {:?}: {}", step, cmd, v);
                    }
                }
            }
            let Some((seat, cmd)) = pick(&game, c) else { break };
            game.apply(seat, cmd, &mut dice).expect("legal command accepted");
        }
    }

    /// Invariants along random legal games (MOV-*, HLT, TRN-7 action cap,
    /// PRM/PPC): one figure per square, on passable board squares, health
    /// in range, at most 4 actions; PP in the views equal the totals of the
    /// `PromotionPoints` events; whoever must act has a legal command and
    /// nobody else does; no panic.
    #[test]
    fn invariants_hold_along_random_games(spec in spec(), choices in choices()) {
        let (mut game, start, mut dice) = spec.start();
        let v0 = game.view(Viewer::Spectator);
        let mut teams: Vec<i32> = v0.teams.iter().map(|t| t.pp).collect();
        let mut dl = v0.dark_legion.pp;
        if let Err(e) = pp_ledger(&start, &mut teams, &mut dl) {
            prop_assert!(false, "setup: {}", e);
        }
        prop_assert!(check_invariants(&game).is_ok());
        for (step, &c) in choices.iter().enumerate() {
            if !game.is_finished() {
                let to_act = game.seat_to_act();
                prop_assert!(to_act.is_some(), "step {}: nobody to act", step);
                for s in game.seats() {
                    let n = game.legal(s).len();
                    if Some(s) == to_act {
                        prop_assert!(n > 0, "step {}: {:?} must act but has no command", step, s);
                    } else {
                        prop_assert_eq!(n, 0, "step {}: {:?} may act out of turn", step, s);
                    }
                }
            }
            let Some((seat, cmd)) = pick(&game, c) else { break };
            let events = game.apply(seat, cmd.clone(), &mut dice);
            prop_assert!(events.is_ok(), "step {}: {:?} rejected: {:?}", step, cmd, events);
            let events = events.unwrap_or_default();
            if let Err(e) = pp_ledger(&events, &mut teams, &mut dl) {
                prop_assert!(false, "step {} {:?}: {}", step, cmd, e);
            }
            if let Err(v) = check_invariants(&game) {
                prop_assert!(false, "step {} after {:?}: {}", step, cmd, v);
            }
            for viewer in viewers(&game) {
                let v = game.view(viewer);
                let pp: Vec<i32> = v.teams.iter().map(|t| t.pp).collect();
                prop_assert_eq!(&pp, &teams, "step {}: team PP differ from events", step);
                prop_assert_eq!(v.dark_legion.pp, dl, "step {}: DL PP differ from events", step);
            }
        }
    }

    /// HID-1: the spectator's view and spectator-filtered events never show
    /// a hand, a face-down force card, or a deck, pile or marker order.
    #[test]
    fn hid_1_spectator_never_sees_secrets(
        spec in spec(),
        choices in prop::collection::vec(any::<u16>(), 1..120),
    ) {
        let (mut game, start, mut dice) = spec.start();
        let state = serde_json::to_value(&game).expect("state");
        let s = secrets(&state);
        if let Err(e) = check_public_events(&start, &s) {
            prop_assert!(false, "setup: {}", e);
        }
        for (step, &c) in choices.iter().enumerate() {
            let Some((seat, cmd)) = pick(&game, c) else { break };
            let events = game.apply(seat, cmd.clone(), &mut dice).expect("legal command accepted");
            let state = serde_json::to_value(&game).expect("state");
            let s = secrets(&state);
            let view = serde_json::to_value(game.view(Viewer::Spectator)).expect("view");
            if let Err(e) = check_public_view(&view, &s, &state) {
                prop_assert!(false, "step {} after {:?}: {}", step, cmd, e);
            }
            if let Err(e) = check_public_events(&events, &s) {
                prop_assert!(false, "step {} after {:?}: {}", step, cmd, e);
            }
        }
    }

    /// HID-2: each seat's view holds its own hand and no other; dealt
    /// cards are shown to their owner only.
    #[test]
    fn hid_2_players_see_only_their_own_hand(
        spec in spec(),
        choices in prop::collection::vec(any::<u16>(), 1..120),
    ) {
        let (mut game, mut events, mut dice) = spec.start();
        for (step, &c) in choices.iter().enumerate() {
            let state = serde_json::to_value(&game).expect("state");
            let s = secrets(&state);
            for seat in game.seats() {
                let view = game.view(Viewer::Seat(seat));
                for (i, t) in view.teams.iter().enumerate() {
                    if t.seat == seat {
                        let own = serde_json::to_value(&t.hand).expect("hand");
                        prop_assert_eq!(arr(&own), s.hands[i].clone(), "step {}: own hand", step);
                        prop_assert!(own.is_array(), "step {}: {:?} does not see its hand", step, seat);
                    } else {
                        prop_assert!(t.hand.is_none(), "step {}: {:?} sees team {}'s hand", step, seat, i);
                    }
                }
                for e in Game::filter_events(&events, Viewer::Seat(seat)) {
                    if let Event::CardsDealt { seat: owner, cards, .. } = e {
                        prop_assert_eq!(cards.is_some(), owner == seat, "step {}: CardsDealt to {:?} seen by {:?}", step, owner, seat);
                    }
                }
            }
            let Some((seat, cmd)) = pick(&game, c) else { break };
            events = game.apply(seat, cmd, &mut dice).expect("legal command accepted");
        }
    }
}

// ---------------------------------------------------------- regressions

/// Play a 3-corporation game with a random bot until a corporation turn
/// waits for its team's actions (no pending decision).
fn corporation_turn(seed: u64) -> (Game, SeededDice, Seat) {
    let spec = Spec {
        mission: "ce-c1m1",
        seed,
        corporations: vec![
            Corporation::Bauhaus,
            Corporation::Capitol,
            Corporation::Mishima,
        ],
        ai: false,
        rank: 1,
    };
    let (mut game, _, mut dice) = spec.start();
    let mut bot = SeededDice::new(seed + 1);
    for _ in 0..10_000 {
        let view = game.view(Viewer::Spectator);
        let seat = game.seat_to_act().expect("someone acts");
        if view.pending.is_none()
            && matches!(
                view.phase,
                citadel_rules::game::view::PhaseView::Corporation { .. }
            )
        {
            return (game, dice, seat);
        }
        let legal = game.legal(seat);
        let cmd = legal[citadel_rules::Dice::below(&mut bot, legal.len() as u32) as usize].clone();
        game.apply(seat, cmd, &mut dice).expect("legal");
    }
    panic!("no corporation turn");
}

/// Found by `rejection_leaves_game_untouched`: `UseItem` with a figure id
/// past the figure table panicked (index out of bounds) instead of being
/// rejected.
#[test]
fn rejection_use_item_unknown_figure_is_rejected() {
    let (game, _, seat) = corporation_turn(7);
    let mut g = game.clone();
    let mut d = ScriptedDice::raw([]);
    let r = g.apply(
        seat,
        Command::UseItem {
            figure: FigureId(9_999),
            item: "smoke_grenade".into(),
            square: None,
        },
        &mut d,
    );
    assert_eq!(r, Err(citadel_rules::game::Rejection::NoSuchFigure));
    assert_eq!(d.used(), 0);
    assert_eq!(snapshot(&g), snapshot(&game));
}
