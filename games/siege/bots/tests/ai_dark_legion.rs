//! The AI Dark Legion (core AI-*) against random corporations in C1M1.

use citadel_bots::AiDarkLegion;
use citadel_bots::{Bot, RandomBot, Seen};
use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::ai_deck::AiCard;
use citadel_rules::game::{Command, DarkLegionSetup, FigureKind, Game, Place, Setup, Viewer};

fn game(seed: u64) -> Game {
    let setup = Setup::new(
        "ce-c1m1",
        &[Corporation::Bauhaus, Corporation::Imperial],
        DarkLegionSetup::Ai,
    )
    .with_seed(seed);
    let mut dice = SeededDice::new(seed);
    match Game::new(setup, &mut dice) {
        Ok((g, _)) => g,
        Err(e) => panic!("setup: {e}"),
    }
}

struct Outcome {
    commands: Vec<Command>,
    dl_won: bool,
    /// Sum and count of "DL figure to nearest DT" `dist` after DL turns.
    dist: (u64, u64),
}

/// Each on-board DL figure's `dist` to the nearest on-board DT.
fn dl_distances(g: &Game) -> Vec<u64> {
    let v = g.view(Viewer::Spectator);
    let on = |f: &citadel_rules::game::view::FigureView| match f.place {
        Place::Board { square } => Some(square),
        _ => None,
    };
    let dts: Vec<_> = v
        .figures
        .iter()
        .filter(|f| matches!(f.kind, FigureKind::Doomtrooper { .. }))
        .filter_map(on)
        .collect();
    v.figures
        .iter()
        .filter(|f| matches!(f.kind, FigureKind::Creature { .. }))
        .filter_map(on)
        .filter_map(|s| dts.iter().map(|d| d.dist(s) as u64).min())
        .collect()
}

/// Play one game; `ai` picks the DL bot. Every command must be legal.
fn play(seed: u64, ai: bool) -> Outcome {
    let mut g = game(seed);
    let mut dice = SeededDice::new(seed ^ 0x5eed);
    let dl = g.dark_legion_seat();
    let mut corps: Vec<RandomBot> = (0..8).map(|i| RandomBot::new(seed * 31 + i)).collect();
    let mut dl_bot: Box<dyn Bot> = if ai {
        Box::new(AiDarkLegion::new())
    } else {
        Box::new(RandomBot::new(seed * 31 + 99))
    };
    let mut commands = Vec::new();
    let mut dist = (0, 0);
    while !g.is_finished() {
        let seat = g.seat_to_act().expect("someone must act");
        let cmd = if seat == dl {
            dl_bot.choose(&Seen::of(&g, seat))
        } else {
            corps[usize::from(seat.0)].choose(&Seen::of(&g, seat))
        }
        .expect("a command");
        assert!(g.legal(seat).contains(&cmd), "seed {seed}: illegal {cmd:?}");
        if let Err(e) = g.apply(seat, cmd.clone(), &mut dice) {
            panic!("seed {seed}: {cmd:?} rejected: {e}");
        }
        if seat == dl && cmd == Command::EndTurn {
            for d in dl_distances(&g) {
                dist.0 += d;
                dist.1 += 1;
            }
        }
        commands.push(cmd);
        assert!(commands.len() < 100_000, "seed {seed}: game stuck");
    }
    let dl_won = g.outcome().is_some_and(|(_, dl, _)| dl);
    Outcome {
        commands,
        dl_won,
        dist,
    }
}

#[test]
fn ai_1_card_spot_checks() {
    let c = AiCard::new(53);
    assert_eq!(c.k, 53);
    assert_eq!(c.matrix, (7, 7));
}

#[test]
fn ai_dl_is_deterministic() {
    for seed in [1, 2, 3] {
        assert_eq!(play(seed, true).commands, play(seed, true).commands);
    }
}

#[test]
fn ai_dl_finishes_200_games_legally_wins_as_often_and_closes_in() {
    let n = 200u64;
    let (mut ai, mut random) = (0u32, 0u32);
    let (mut ai_d, mut random_d) = ((0u64, 0u64), (0u64, 0u64));
    for seed in 0..n {
        let a = play(1000 + seed, true);
        let r = play(1000 + seed, false);
        ai += u32::from(a.dl_won);
        random += u32::from(r.dl_won);
        ai_d = (ai_d.0 + a.dist.0, ai_d.1 + a.dist.1);
        random_d = (random_d.0 + r.dist.0, random_d.1 + r.dist.1);
    }
    let ai_rate = f64::from(ai) / n as f64;
    let random_rate = f64::from(random) / n as f64;
    let ai_mean = ai_d.0 as f64 / ai_d.1.max(1) as f64;
    let random_mean = random_d.0 as f64 / random_d.1.max(1) as f64;
    println!(
        "C1M1, {n} games vs random corporations: DL win rate AI {ai_rate:.3}, random {random_rate:.3}; \
         mean dist DL figure -> nearest DT after DL turns: AI {ai_mean:.2}, random {random_mean:.2}"
    );
    assert!(
        ai_rate + 0.05 >= random_rate,
        "AI DL {ai_rate} vs random DL {random_rate}"
    );
    assert!(
        ai_mean < random_mean,
        "AI DL should close in: {ai_mean} vs {random_mean}"
    );
}

/// Let the AI DL answer the pending decision (revealing cards as it asks);
/// returns its answer and the AI cards revealed for it.
fn ai_answer(g: &mut Game, dice: &mut SeededDice) -> (Command, Vec<u8>) {
    let seat = g.dark_legion_seat();
    let mut bot = AiDarkLegion::new();
    let mut revealed = Vec::new();
    for _ in 0..10 {
        let cmd = bot.choose(&Seen::of(g, seat)).expect("a command");
        assert!(g.legal(seat).contains(&cmd), "{cmd:?} is legal");
        let events = g.apply(seat, cmd.clone(), dice).expect("legal");
        if cmd != Command::RevealAiCard {
            return (cmd, revealed);
        }
        for e in events {
            if let citadel_rules::game::Event::AiCardRevealed { card, .. } = e {
                revealed.push(card);
            }
        }
    }
    panic!("the AI never answered");
}

fn event_position(seed: u64, corps: &[Corporation], json: serde_json::Value) -> (Game, SeededDice) {
    let setup = Setup::new("ce-c1m1", corps, DarkLegionSetup::Ai);
    let p: citadel_rules::game::position::Position =
        serde_json::from_value(json).expect("position");
    let mut dice = SeededDice::new(seed);
    let mut g = Game::scenario(setup, &p, &mut dice).expect("position");
    g.settle(&mut dice);
    (g, dice)
}

/// AI-12 / AI-3 for events 16 and 17 (ce.md EVE): the corporation of a new
/// card if it is in the marker pool, else the next one in the AI-1 order.
#[test]
fn ai_3_events_16_and_17_name_a_corporation_by_the_card() {
    use citadel_rules::game::ai_deck::AI_CORPORATIONS;
    let mut seen = Vec::new();
    for card in [16, 17] {
        for seed in 0..6u64 {
            let (mut g, mut dice) = event_position(
                seed,
                &[Corporation::Bauhaus, Corporation::Mishima],
                serde_json::json!({
                    "turn": "dark_legion_start",
                    "face_down": { "0": [], "1": [], "2": [], "3": [] },
                    "event_deck": [18, card],
                    "force_pile": [],
                    "figures": [
                        { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } },
                        { "name": "mishima-tatsu", "at": { "x": 20, "y": 3 } },
                    ],
                }),
            );
            let (cmd, revealed) = ai_answer(&mut g, &mut dice);
            let k = *revealed.last().expect("AI-12: a new card");
            let start = AI_CORPORATIONS
                .iter()
                .position(|c| *c == AiCard::new(k).corp)
                .expect("a corporation");
            seen.push(k);
            let want = (0..5)
                .map(|i| AI_CORPORATIONS[(start + i) % 5])
                .find(|c| matches!(c, Corporation::Bauhaus | Corporation::Mishima))
                .expect("one is in the pool");
            assert_eq!(cmd, Command::ChooseCorporation { corporation: want });
        }
    }
    seen.sort_unstable();
    seen.dedup();
    assert!(seen.len() > 1, "the seeds gave different AI cards");
}

/// AI-12 for event 26 (ce.md EVE): the eligible figure (Centurion or
/// Necromutant) nearest a DT, never a Legionnaire even if it is nearer.
#[test]
fn ai_12_event_26_berserk_picks_the_eligible_figure_nearest_a_dt() {
    let (mut g, mut dice) = event_position(
        3,
        &[Corporation::Bauhaus],
        serde_json::json!({
            "turn": "dark_legion_start",
            "face_down": { "0": [], "1": [], "2": [], "3": [] },
            "event_deck": [18, 26],
            "force_pile": [],
            "figures": [
                { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } },
                { "creature": "legionnaire", "at": { "x": 4, "y": 3 } },
                { "creature": "necromutant", "at": { "x": 1, "y": 1 } },
                { "creature": "centurion", "at": { "x": 12, "y": 12 } },
            ],
        }),
    );
    let (cmd, _) = ai_answer(&mut g, &mut dice);
    let necro = g.figure_id("necromutant#1").expect("necromutant");
    assert_eq!(cmd, Command::ChooseFigure { figure: necro });
}

// ---------------------------------------------------------------------
// One test (or more) per AI rule, AI-3..AI-13. The AI answers from its
// seat's `Seen`; these tests state the AI cards of the decision by
// setting the view's revealed cards (`AiDeckView::revealed`), and where a
// decision is hard to reach in C1M1 they state the pending decision and
// its legal answers too. C1M1 board: tiles 0 (origin 0,0), 1 (8,0),
// 2 (16,0) and 3 (8,8, the War Room behind the closed door); red
// entrances 15W (0,3),(0,4) and 14E (23,3),(23,4); white entrances 15N
// (3,0),(4,0) and 14N (19,0),(20,0).
// ---------------------------------------------------------------------

use citadel_rules::content::{AttackType, CreatureKind};
use citadel_rules::game::{Decision, FigureId};
use citadel_rules::geometry::Square;

fn sq(x: i32, y: i32) -> Square {
    Square::new(x, y)
}

/// A C1M1 position with Bauhaus and Capitol against the AI DL.
fn position(turn: &str, figures: serde_json::Value) -> Game {
    event_position(
        1,
        &[Corporation::Bauhaus, Corporation::Capitol],
        serde_json::json!({
            "turn": turn,
            "face_down": { "0": [], "1": [], "2": [], "3": [] },
            "force_pile": [],
            "figures": figures,
        }),
    )
    .0
}

/// What the DL seat sees of `g`.
fn dl_seen(g: &Game) -> Seen {
    Seen::of(g, g.dark_legion_seat())
}

/// `seen` with the pending decision `d` and its legal answers `legal`
/// (plus `RevealAiCard`, always legal for the AI seat).
fn asked(g: &Game, d: Decision, mut legal: Vec<Command>) -> Seen {
    let mut s = dl_seen(g);
    s.view.pending = Some(d);
    legal.push(Command::RevealAiCard);
    s.legal = legal;
    s
}

/// The AI's answer to `seen` when the decision's revealed cards are `cards`.
fn pick(seen: &Seen, cards: &[u8]) -> Command {
    let mut s = seen.clone();
    s.view.ai_deck.as_mut().expect("an AI deck").revealed = cards.to_vec();
    let cmd = AiDarkLegion::new().choose(&s).expect("a command");
    assert!(s.legal.contains(&cmd), "{cmd:?} is legal");
    cmd
}

/// `pick` in step 4 with the tie-breaker card `tb`.
fn pick_tb(seen: &Seen, tb: u8, cards: &[u8]) -> Command {
    let mut s = seen.clone();
    s.view.ai_deck.as_mut().expect("an AI deck").tie_breaker = Some(tb);
    pick(&s, cards)
}

fn fig(g: &Game, name: &str) -> FigureId {
    g.figure_id(name)
        .unwrap_or_else(|| panic!("no figure {name}"))
}

fn move_end(cmd: &Command) -> Square {
    match cmd {
        Command::Move { path, .. } => *path.last().expect("a path"),
        other => panic!("expected a move, got {other:?}"),
    }
}

fn place_at(kind: CreatureKind, squares: &[Square]) -> Vec<Command> {
    squares
        .iter()
        .map(|&square| Command::Place { kind, square })
        .collect()
}

fn attack(figure: FigureId, target: FigureId, attack: AttackType) -> Command {
    Command::Attack {
        figure,
        target,
        attack,
        barb_die: None,
    }
}

/// AI-3 (through event 11, Combat Neurosis): the card's corporation when it
/// is in the marker pool, otherwise the next one in the cyclic order
/// Bauhaus, Capitol, Cybertronic, Imperial, Mishima (wrapping around).
#[test]
fn ai_3_corporation_is_the_cards_or_the_next_in_the_pool_in_cyclic_order() {
    let (g, _) = event_position(
        1,
        &[Corporation::Capitol, Corporation::Imperial],
        serde_json::json!({
            "turn": "dark_legion_start",
            "face_down": { "0": [], "1": [], "2": [], "3": [] },
            "event_deck": [18, 11],
            "force_pile": [],
            "figures": [
                { "name": "capitol-big_bob_watts", "at": { "x": 3, "y": 3 } },
            ],
        }),
    );
    let s = dl_seen(&g);
    assert!(
        matches!(
            s.view.pending,
            Some(Decision::EventCorporation { card: 11 })
        ),
        "{:?}",
        s.view.pending
    );
    // No card yet: the AI reveals one first (AI-12 "on a new card").
    assert_eq!(pick(&s, &[]), Command::RevealAiCard);
    let corp = |c| Command::ChooseCorporation { corporation: c };
    // k mod 5: 0 Bauhaus, 1 Capitol, 2 Cybertronic, 3 Imperial, 4 Mishima.
    assert_eq!(pick(&s, &[1]), corp(Corporation::Capitol));
    assert_eq!(pick(&s, &[3]), corp(Corporation::Imperial));
    assert_eq!(pick(&s, &[0]), corp(Corporation::Capitol));
    assert_eq!(pick(&s, &[2]), corp(Corporation::Imperial));
    // Mishima wraps around past Bauhaus to Capitol.
    assert_eq!(pick(&s, &[4]), corp(Corporation::Capitol));
}

/// AI-4: the matrix square `(ox+mx, oy+my)` of the tile when it is legal.
#[test]
fn ai_4_places_on_the_matrix_square_of_the_tile() {
    let g = position("dark_legion", serde_json::json!([]));
    let d = Decision::PlaceFigures {
        tile: 1,
        kinds: vec![CreatureKind::Legionnaire],
    };
    let legal = place_at(CreatureKind::Legionnaire, &[sq(9, 1), sq(12, 4), sq(11, 5)]);
    let s = asked(&g, d, legal);
    assert_eq!(pick(&s, &[]), Command::RevealAiCard);
    // k=4: matrix (4,4) -> (12,4) on tile 1 (origin 8,0).
    assert_eq!(
        pick(&s, &[4]),
        Command::Place {
            kind: CreatureKind::Legionnaire,
            square: sq(12, 4)
        }
    );
    // k=1: matrix (3,5) -> (11,5).
    assert_eq!(
        pick(&s, &[1]),
        Command::Place {
            kind: CreatureKind::Legionnaire,
            square: sq(11, 5)
        }
    );
}

/// AI-4: an illegal matrix square reveals another card, up to 3 extra
/// cards; then the legal square with the smallest `dist` to the (first)
/// matrix square, ties by lowest (y,x). A fifth card is never used.
#[test]
fn ai_4_retries_up_to_3_extra_cards_then_takes_the_closest_legal_square() {
    let g = position("dark_legion", serde_json::json!([]));
    let d = Decision::PlaceFigures {
        tile: 1,
        kinds: vec![CreatureKind::Legionnaire],
    };
    // Matrix squares of k=4,0,2,3: (12,4), (8,0), (14,2), (9,7): all illegal.
    // k=1 would give (11,5), which is legal.
    let legal = place_at(
        CreatureKind::Legionnaire,
        &[sq(14, 6), sq(11, 2), sq(10, 2), sq(11, 5)],
    );
    let s = asked(&g, d.clone(), legal);
    assert_eq!(pick(&s, &[4]), Command::RevealAiCard);
    assert_eq!(pick(&s, &[4, 0]), Command::RevealAiCard);
    assert_eq!(pick(&s, &[4, 0, 2]), Command::RevealAiCard);
    // The 2nd card's square is legal: take it.
    assert_eq!(
        pick(&s, &[4, 1]),
        Command::Place {
            kind: CreatureKind::Legionnaire,
            square: sq(11, 5)
        }
    );
    // 4 cards, all illegal: fall back, no 5th card. dist to (12,4):
    // (11,5) 1 is the closest.
    assert_eq!(
        pick(&s, &[4, 0, 2, 3]),
        Command::Place {
            kind: CreatureKind::Legionnaire,
            square: sq(11, 5)
        }
    );
    assert_eq!(
        pick(&s, &[4, 0, 2, 3, 1]),
        Command::Place {
            kind: CreatureKind::Legionnaire,
            square: sq(11, 5)
        }
    );
    // Without (11,5): (14,6), (11,2) and (10,2) all at dist 2 from (12,4);
    // the lowest (y,x) is (10,2).
    let legal = place_at(
        CreatureKind::Legionnaire,
        &[sq(14, 6), sq(11, 2), sq(10, 2)],
    );
    let s = asked(&g, d, legal);
    assert_eq!(
        pick(&s, &[4, 0, 2, 3]),
        Command::Place {
            kind: CreatureKind::Legionnaire,
            square: sq(10, 2)
        }
    );
}

/// AI-5: the red entrance by compass on a new card per figure (15W mean
/// (0,3.5), 14E mean (23,3.5)).
#[test]
fn ai_5_red_entrance_by_compass_on_a_new_card() {
    let g = position("dark_legion", serde_json::json!([]));
    let e = |id: &str| Command::ChooseEntrance {
        entrance: id.to_string(),
    };
    let s = asked(
        &g,
        Decision::RedEntrance {
            kind: CreatureKind::Legionnaire,
        },
        vec![e("15W"), e("14E")],
    );
    assert_eq!(pick(&s, &[]), Command::RevealAiCard);
    assert_eq!(pick(&s, &[1]), e("14E"), "k=1 primary E");
    assert_eq!(pick(&s, &[3]), e("15W"), "k=3 primary W");
    // Primary N and S tie (same y): the secondary decides.
    assert_eq!(pick(&s, &[0]), e("14E"), "k=0 N then E");
    assert_eq!(pick(&s, &[4]), e("15W"), "k=4 N then W");
    assert_eq!(pick(&s, &[2]), e("15W"), "k=2 S then W");
}

/// AI-5: reinforcements go one by one in pool order (Legionnaire,
/// Necromutant, Centurion, ...), each with one new card choosing its red
/// entrance by compass. Event 15 (Legion Charge) with one corporation
/// player brings 1 Centurion, 1 Necromutant and 2 Legionnaires.
#[test]
fn ai_5_reinforcements_in_pool_order_one_new_card_each() {
    use citadel_rules::game::ai_deck::compass;
    let (mut g, mut dice) = event_position(
        2,
        &[Corporation::Bauhaus],
        serde_json::json!({
            "turn": "dark_legion_start",
            "face_down": { "0": [], "1": [], "2": [], "3": [] },
            "event_deck": [18, 15],
            "force_pile": [],
            "figures": [
                { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } },
            ],
        }),
    );
    let red = g.rules().red.clone();
    let mut kinds = Vec::new();
    while let Some(Decision::RedEntrance { kind }) = dl_seen(&g).view.pending {
        let (cmd, revealed) = ai_answer(&mut g, &mut dice);
        assert_eq!(revealed.len(), 1, "one new card per figure");
        let cands: Vec<(usize, (f64, f64))> = red
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let n = e.squares.len() as f64;
                let x = e.squares.iter().map(|s| f64::from(s.x)).sum::<f64>() / n;
                let y = e.squares.iter().map(|s| f64::from(s.y)).sum::<f64>() / n;
                (i, (x, y))
            })
            .collect();
        let want = compass(&AiCard::new(revealed[0]), &cands).expect("an entrance");
        assert_eq!(
            cmd,
            Command::ChooseEntrance {
                entrance: red[want].id.clone()
            }
        );
        kinds.push(kind);
        assert!(kinds.len() < 10);
    }
    assert_eq!(
        kinds,
        vec![
            CreatureKind::Legionnaire,
            CreatureKind::Legionnaire,
            CreatureKind::Necromutant,
            CreatureKind::Centurion
        ]
    );
}

fn tiles(ts: &[usize]) -> Vec<Command> {
    ts.iter()
        .map(|&tile| Command::ChooseTile { tile })
        .collect()
}

/// AI-6: the tile whose squares come nearest (`dist`) to an on-board DT
/// (0 when the DT stands on it), with no card when nothing ties.
#[test]
fn ai_6_reveal_tile_nearest_a_dt() {
    // DT on tile 1.
    let g = position(
        "dark_legion",
        serde_json::json!([{ "name": "bauhaus-max_steiner", "at": { "x": 12, "y": 4 } }]),
    );
    let s = asked(&g, Decision::RevealTile, tiles(&[0, 1, 2, 3]));
    assert_eq!(pick(&s, &[]), Command::ChooseTile { tile: 1 });
    // Tile 1 not offered: from (12,4), tile 3 is dist 4 (12,8), tile 2
    // dist 4 (16,4) and tile 0 dist 5 (7,4).
    let s = asked(&g, Decision::RevealTile, tiles(&[0, 3]));
    assert_eq!(pick(&s, &[]), Command::ChooseTile { tile: 3 });
    let s = asked(&g, Decision::RevealTile, tiles(&[0, 2]));
    assert_eq!(pick(&s, &[]), Command::ChooseTile { tile: 2 });
}

/// AI-6: ties go to compass (tile centres) on a new card.
#[test]
fn ai_6_ties_go_to_compass_on_a_new_card() {
    // (10,3) is dist 3 from tile 0, (13,3) dist 3 from tile 2.
    let g = position(
        "dark_legion",
        serde_json::json!([
            { "name": "bauhaus-max_steiner", "at": { "x": 10, "y": 3 } },
            { "name": "capitol-big_bob_watts", "at": { "x": 13, "y": 3 } },
        ]),
    );
    let s = asked(&g, Decision::RevealTile, tiles(&[0, 2]));
    assert_eq!(pick(&s, &[]), Command::RevealAiCard);
    assert_eq!(pick(&s, &[1]), Command::ChooseTile { tile: 2 }, "E");
    assert_eq!(pick(&s, &[3]), Command::ChooseTile { tile: 0 }, "W");
}

/// AI-6: with no DT on the board, distances are from the white entrances'
/// entry squares (15N (3,0),(4,0); 14N (19,0),(20,0)).
#[test]
fn ai_6_without_an_on_board_dt_measures_from_the_white_entrances() {
    let g = position("dark_legion", serde_json::json!([]));
    assert!(dl_seen(&g)
        .view
        .figures
        .iter()
        .filter(|f| matches!(f.kind, FigureKind::Doomtrooper { .. }))
        .all(|f| !matches!(f.place, Place::Board { .. })));
    // Tile 1 is dist 4 from (4,0), tile 3 dist 8.
    let s = asked(&g, Decision::RevealTile, tiles(&[1, 3]));
    assert_eq!(pick(&s, &[]), Command::ChooseTile { tile: 1 });
    // Tiles 0 and 2 both hold an entry square: compass.
    let s = asked(&g, Decision::RevealTile, tiles(&[0, 1, 2, 3]));
    assert_eq!(pick(&s, &[]), Command::RevealAiCard);
    assert_eq!(pick(&s, &[1]), Command::ChooseTile { tile: 2 });
    assert_eq!(pick(&s, &[3]), Command::ChooseTile { tile: 0 });
}

fn option(i: usize) -> Command {
    Command::ChooseOption { option: i }
}

fn force_choice(g: &Game, card: u32) -> Seen {
    asked(
        g,
        Decision::ForceOption {
            card,
            tile: Some(1),
        },
        vec![option(0), option(1)],
    )
}

/// AI-7: a choice card takes the option with more figures the pool can
/// supply; on a tie the first listed. No AI card is needed.
#[test]
fn ai_7_choice_card_takes_the_option_with_more_figures() {
    let g = position("dark_legion", serde_json::json!([]));
    // 40: 1 Centurion or 2 Legionnaires.
    assert_eq!(pick(&force_choice(&g, 40), &[]), option(1));
    // 38: 1 Centurion or 1 Necromutant: tie, the first.
    assert_eq!(pick(&force_choice(&g, 38), &[]), option(0));
    // 44: 1 Razide or 1 Centurion + 1 Necromutant.
    assert_eq!(pick(&force_choice(&g, 44), &[]), option(1));
    // 42: 1 Razide or 1 Centurion: tie, the first.
    assert_eq!(pick(&force_choice(&g, 42), &[]), option(0));
}

/// AI-7: what the pool can supply counts, not what the card lists.
#[test]
fn ai_7_counts_only_figures_the_pool_can_supply() {
    // 11 of the 12 Legionnaires on the board: card 40's second option can
    // supply 1, as many as the first: the first listed.
    let legionnaires: Vec<serde_json::Value> = (0..11)
        .map(|x| serde_json::json!({ "creature": "legionnaire", "at": { "x": x % 8, "y": 5 + x / 8 } }))
        .collect();
    let g = position("dark_legion", serde_json::Value::Array(legionnaires));
    assert_eq!(pick(&force_choice(&g, 40), &[]), option(0));
    // All 3 Centurions on the board: card 44's second option supplies 1
    // (the Necromutant), the first 1 Razide: the first listed; and card 40
    // now supplies 0 against 1: the second.
    let g = position(
        "dark_legion",
        serde_json::json!([
            { "creature": "centurion", "at": { "x": 1, "y": 5 } },
            { "creature": "centurion", "at": { "x": 2, "y": 5 } },
            { "creature": "centurion", "at": { "x": 3, "y": 5 } },
        ]),
    );
    assert_eq!(pick(&force_choice(&g, 44), &[]), option(0));
    assert_eq!(pick(&force_choice(&g, 40), &[]), option(1));
}

/// A DL step-4 position: `figures` as in a JSON position.
fn step4(figures: serde_json::Value) -> (Game, Seen) {
    let g = position("dark_legion", figures);
    let s = dl_seen(&g);
    assert!(s.view.pending.is_none());
    (g, s)
}

/// `seen` without the legal commands `drop` rejects.
fn without(seen: &Seen, drop: impl Fn(&Command) -> bool) -> Seen {
    let mut s = seen.clone();
    s.legal.retain(|c| !drop(c));
    s
}

fn is_attack(c: &Command) -> bool {
    matches!(c, Command::Attack { .. })
}

fn is_fa(c: &Command) -> bool {
    matches!(
        c,
        Command::Attack {
            attack: AttackType::Firearm,
            ..
        }
    )
}

fn is_move(c: &Command) -> bool {
    matches!(c, Command::Move { .. })
}

// Template cards (AI-1, k mod 6): T1 k=0 (N/E), 6 (S/E); T2 k=1; T3 k=2
// (S/W); T4 k=3 (W/N); T5 k=4 (N/W); T6 k=5 (E/N).

/// AI-9: the nearest DT is by `pdist` (path around walls and closed doors),
/// not by `dist`: a DT behind the War Room's closed door is nearer by
/// `dist` but the figure moves toward the one it can reach.
#[test]
fn ai_9_nearest_dt_is_by_path_distance_not_dist() {
    let (g, s) = step4(serde_json::json!([
        { "name": "capitol-big_bob_watts", "at": { "x": 11, "y": 10 } },
        { "name": "bauhaus-max_steiner", "at": { "x": 4, "y": 5 } },
        { "creature": "legionnaire", "at": { "x": 11, "y": 5 } },
    ]));
    let l = fig(&g, "legionnaire#1");
    let cmd = pick_tb(&s, 1, &[0]);
    assert!(matches!(cmd, Command::Move { figure, .. } if figure == l));
    // T1 (k=0): move toward, compass N then E among the best squares.
    assert_eq!(move_end(&cmd), sq(8, 3), "west, toward (4,5)");
}

/// AI-9: DTs at the same `pdist` go to compass on the tie-breaker card
/// (not the action card).
#[test]
fn ai_9_pdist_ties_go_to_the_tie_breaker_card() {
    let (_, s) = step4(serde_json::json!([
        { "name": "bauhaus-max_steiner", "at": { "x": 5, "y": 4 } },
        { "name": "capitol-big_bob_watts", "at": { "x": 17, "y": 4 } },
        { "creature": "legionnaire", "at": { "x": 11, "y": 4 } },
    ]));
    // Tie-breaker E: toward (17,4); W: toward (5,4). Same action card.
    let east = move_end(&pick_tb(&s, 1, &[0]));
    let west = move_end(&pick_tb(&s, 3, &[0]));
    assert_eq!((east, west), (sq(14, 2), sq(8, 3)));
}

/// AI-9 attack target: the legal target with the smallest `dist`, ties by
/// compass on the tie-breaker card.
#[test]
fn ai_9_attack_target_smallest_dist_then_tie_breaker() {
    let (g, s) = step4(serde_json::json!([
        { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } },
        { "name": "capitol-big_bob_watts", "at": { "x": 10, "y": 4 } },
        { "name": "bauhaus-valerie_duval", "at": { "x": 9, "y": 3 } },
        { "creature": "necromutant", "at": { "x": 6, "y": 3 } },
    ]));
    let n = fig(&g, "necromutant#1");
    let steiner = fig(&g, "bauhaus-max_steiner");
    let duval = fig(&g, "bauhaus-valerie_duval");
    let bob = fig(&g, "capitol-big_bob_watts");
    assert!(s.legal.contains(&attack(n, bob, AttackType::Firearm)));
    // T2 (k=1): firearm first. (3,3) and (9,3) are dist 3, (10,4) dist 4.
    assert_eq!(pick_tb(&s, 1, &[1]), attack(n, duval, AttackType::Firearm));
    assert_eq!(
        pick_tb(&s, 3, &[1]),
        attack(n, steiner, AttackType::Firearm)
    );
}

/// The AI-10 position "DT in range": a Necromutant (CC and FA dice) at
/// (6,3), 3 squares east of a DT at (3,3) with a clear line of fire.
fn in_range() -> (FigureId, FigureId, Seen) {
    let (g, s) = step4(serde_json::json!([
        { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } },
        { "creature": "necromutant", "at": { "x": 6, "y": 3 } },
    ]));
    let n = fig(&g, "necromutant#1");
    let dt = fig(&g, "bauhaus-max_steiner");
    assert!(s.legal.contains(&attack(n, dt, AttackType::Firearm)));
    assert!(!s.legal.contains(&attack(n, dt, AttackType::CloseCombat)));
    (n, dt, s)
}

/// The AI-10 position "DT adjacent": the Necromutant at (4,3).
fn adjacent() -> (FigureId, FigureId, Seen) {
    let (g, s) = step4(serde_json::json!([
        { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } },
        { "creature": "necromutant", "at": { "x": 4, "y": 3 } },
    ]));
    let n = fig(&g, "necromutant#1");
    let dt = fig(&g, "bauhaus-max_steiner");
    assert!(s.legal.contains(&attack(n, dt, AttackType::CloseCombat)));
    (n, dt, s)
}

/// AI-10 T1 Close in: CC if possible, else move toward, else FA.
#[test]
fn ai_10_t1_close_in() {
    let (n, dt, s) = adjacent();
    assert_eq!(pick_tb(&s, 0, &[0]), attack(n, dt, AttackType::CloseCombat));
    let (n, dt, s) = in_range();
    // Move toward (not the FA it could make): onto a square adjacent to
    // the DT, compass N then E: (4,2).
    assert_eq!(move_end(&pick_tb(&s, 0, &[0])), sq(4, 2));
    // No move possible: FA.
    let s = without(&s, is_move);
    assert_eq!(pick_tb(&s, 0, &[0]), attack(n, dt, AttackType::Firearm));
}

/// AI-10 T2 Gun line: FA if possible, else CC, else move toward.
#[test]
fn ai_10_t2_gun_line() {
    let (n, dt, s) = in_range();
    assert_eq!(pick_tb(&s, 0, &[1]), attack(n, dt, AttackType::Firearm));
    let s = without(&s, is_fa);
    // k=1: E then S. From (6,3) toward (3,3): the best squares are the
    // DT's adjacent ones; E: x=4, then S: (4,4).
    assert_eq!(move_end(&pick_tb(&s, 0, &[1])), sq(4, 4));
    let (n, dt, s) = adjacent();
    let s = without(&s, is_fa);
    assert_eq!(pick_tb(&s, 0, &[1]), attack(n, dt, AttackType::CloseCombat));
}

/// AI-10 T3 Flank: move to a square with a line of fire to the nearest DT
/// at `dist` ≥ 2, the one farthest from all DTs (then compass), before
/// any attack.
#[test]
fn ai_10_t3_flank() {
    let (n, dt, s) = in_range();
    let cmd = pick_tb(&s, 0, &[2]);
    let end = move_end(&cmd);
    // The farthest end squares are at dist 6 (x=9); (9,5) has no line of
    // fire past tile 2's west wall; k=2 S then W: (9,4).
    assert_eq!(end, sq(9, 4));
    let far = s
        .legal
        .iter()
        .filter(|c| is_move(c))
        .map(|c| move_end(c).dist(sq(3, 3)))
        .max()
        .expect("moves");
    assert_eq!(end.dist(sq(3, 3)), far, "{end:?}");
    // No move: FA, then CC.
    let s = without(&s, is_move);
    assert_eq!(pick_tb(&s, 0, &[2]), attack(n, dt, AttackType::Firearm));
    let (n, dt, s) = adjacent();
    let s = without(&s, |c| is_move(c) || is_fa(c));
    assert_eq!(pick_tb(&s, 0, &[2]), attack(n, dt, AttackType::CloseCombat));
}

/// AI-10 T4 Swarm: CC, else a move onto a square adjacent to the nearest
/// DT, else FA, else move toward.
#[test]
fn ai_10_t4_swarm() {
    let (n, dt, s) = adjacent();
    assert_eq!(pick_tb(&s, 0, &[3]), attack(n, dt, AttackType::CloseCombat));
    let (n, dt, s) = in_range();
    // k=3: W then N among the reachable adjacent squares.
    assert_eq!(move_end(&pick_tb(&s, 0, &[3])), sq(3, 2));
    // No adjacent square reachable: FA before any other move.
    let s = without(&s, |c| is_move(c) && move_end(c).dist(sq(3, 3)) == 1);
    assert_eq!(pick_tb(&s, 0, &[3]), attack(n, dt, AttackType::Firearm));
    // Nor FA: move toward.
    let s = without(&s, is_fa);
    assert_eq!(move_end(&pick_tb(&s, 0, &[3])).dist(sq(3, 3)), 2);
}

/// AI-10 T5 Hold: CC, else FA, else end the activation if a DT is within
/// `dist` 6 (the figure does not move), otherwise move toward.
#[test]
fn ai_10_t5_hold() {
    let (n, dt, s) = adjacent();
    assert_eq!(pick_tb(&s, 0, &[4]), attack(n, dt, AttackType::CloseCombat));
    let (n, dt, s) = in_range();
    assert_eq!(pick_tb(&s, 0, &[4]), attack(n, dt, AttackType::Firearm));
    // DT at dist 3, no attack: hold (the only figure: the turn ends).
    let held = without(&s, is_attack);
    assert_eq!(pick_tb(&held, 0, &[4]), Command::EndTurn);
    // DT at dist 14: move toward.
    let (_, far) = step4(serde_json::json!([
        { "name": "bauhaus-max_steiner", "at": { "x": 20, "y": 3 } },
        { "creature": "necromutant", "at": { "x": 6, "y": 3 } },
    ]));
    let far = without(&far, is_attack);
    assert!(move_end(&pick_tb(&far, 0, &[4])).x > 6);
}

/// AI-10 T6 Berserk: CC, else move toward, else CC; never a firearm.
#[test]
fn ai_10_t6_berserk() {
    let (n, dt, s) = adjacent();
    assert_eq!(pick_tb(&s, 0, &[5]), attack(n, dt, AttackType::CloseCombat));
    let (_, _, s) = in_range();
    assert_eq!(move_end(&pick_tb(&s, 0, &[5])).dist(sq(3, 3)), 1);
    // No move: T6 has no FA line, the figure does not act (T1 would fire).
    let s = without(&s, is_move);
    assert_eq!(pick_tb(&s, 0, &[5]), Command::EndTurn);
}

/// AI-11: among all legal end squares, the smallest `pdist` to the nearest
/// DT's adjacent squares; then compass on the action's card.
#[test]
fn ai_11_move_toward_minimises_pdist_then_action_card_compass() {
    let (_, s) = step4(serde_json::json!([
        { "name": "bauhaus-max_steiner", "at": { "x": 20, "y": 3 } },
        { "creature": "necromutant", "at": { "x": 6, "y": 3 } },
    ]));
    // T1 cards: k=0 N/E, k=6 S/E, k=12 N/W, k=18 S/W. The same
    // tie-breaker card each time.
    // The best reachable squares are (9,2)..(9,5) (through the opening
    // at y 3-4 of tile 2's west side), all 10 steps from (19,y).
    assert_eq!(move_end(&pick_tb(&s, 1, &[0])), sq(9, 2));
    assert_eq!(move_end(&pick_tb(&s, 1, &[6])), sq(9, 5));
    assert_eq!(move_end(&pick_tb(&s, 1, &[12])), sq(9, 2));
    assert_eq!(move_end(&pick_tb(&s, 1, &[18])), sq(9, 5));
    // The tie-breaker card does not choose the square.
    assert_eq!(move_end(&pick_tb(&s, 3, &[6])), sq(9, 5));
}

/// AI-11: a figure waiting off-board enters first (MOV-11): its move starts
/// on its red entrance's entry squares.
#[test]
fn ai_11_a_waiting_figure_enters_first() {
    let (g, s) = step4(serde_json::json!([
        { "name": "bauhaus-max_steiner", "at": { "x": 5, "y": 4 } },
        { "creature": "legionnaire", "waiting": "15W" },
    ]));
    let l = fig(&g, "legionnaire#1");
    let cmd = pick_tb(&s, 0, &[0]);
    let Command::Move { figure, path } = &cmd else {
        panic!("a move: {cmd:?}");
    };
    assert_eq!(*figure, l);
    assert!([sq(0, 3), sq(0, 4)].contains(&path[0]), "{path:?}");
    // 3 steps counting the entry step; pdist 2 to a square adjacent to
    // (5,4); k=0 N then E: (2,1).
    assert_eq!(path.last(), Some(&sq(2, 1)));
}

fn figures(ids: &[FigureId]) -> Vec<Command> {
    ids.iter()
        .map(|&figure| Command::ChooseFigure { figure })
        .collect()
}

/// AI-12 "target a tile", event 10 (Magnetic Restraints): the tile with
/// the most DTs, on a new card; ties by compass over the tile centres.
#[test]
fn ai_12_event_10_tile_with_the_most_dts_ties_by_compass() {
    let g = position(
        "dark_legion",
        serde_json::json!([
            { "name": "bauhaus-max_steiner", "at": { "x": 12, "y": 4 } },
            { "name": "bauhaus-valerie_duval", "at": { "x": 13, "y": 4 } },
            { "name": "capitol-big_bob_watts", "at": { "x": 19, "y": 3 } },
        ]),
    );
    let d = Decision::EventTile {
        card: 10,
        figure: None,
    };
    let s = asked(&g, d.clone(), tiles(&[0, 1, 2, 3]));
    assert_eq!(pick(&s, &[]), Command::RevealAiCard);
    // Tile 1 holds 2 DTs: whatever the card says.
    assert_eq!(pick(&s, &[1]), Command::ChooseTile { tile: 1 });
    assert_eq!(pick(&s, &[3]), Command::ChooseTile { tile: 1 });
    // Tile 1 not offered: tile 2 (1 DT) against tiles 0 and 3 (none).
    let s = asked(&g, d.clone(), tiles(&[0, 2, 3]));
    assert_eq!(pick(&s, &[3]), Command::ChooseTile { tile: 2 });
    // Tiles 0 and 3 tie at 0: compass. k=3 W: tile 0 (centre 3.5);
    // k=2 S: tile 3 (centre y 11.5).
    let s = asked(&g, d, tiles(&[0, 3]));
    assert_eq!(pick(&s, &[3]), Command::ChooseTile { tile: 0 });
    assert_eq!(pick(&s, &[2]), Command::ChooseTile { tile: 3 });
}

/// AI-12 "target a DT", event 3 (Temporary Defensive System): the DT with
/// the lowest health; ties by compass on a new card.
#[test]
fn ai_12_event_3_targets_the_dt_with_the_lowest_health() {
    let g = position(
        "dark_legion",
        serde_json::json!([
            { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 }, "health": 1 },
            { "name": "capitol-big_bob_watts", "at": { "x": 19, "y": 3 } },
            { "name": "bauhaus-valerie_duval", "at": { "x": 12, "y": 2 }, "health": 1 },
        ]),
    );
    let steiner = fig(&g, "bauhaus-max_steiner");
    let bob = fig(&g, "capitol-big_bob_watts");
    let duval = fig(&g, "bauhaus-valerie_duval");
    let s = asked(
        &g,
        Decision::EventFigure { card: 3 },
        figures(&[steiner, bob, duval]),
    );
    assert_eq!(pick(&s, &[]), Command::RevealAiCard);
    // k=1 E: Bob is farthest east but healthier; of the two at health 1,
    // Duval (x=12).
    assert_eq!(pick(&s, &[1]), Command::ChooseFigure { figure: duval });
    assert_eq!(pick(&s, &[3]), Command::ChooseFigure { figure: steiner });
}

/// AI-12 "target a DT", event 8 (Intercepted Orders): compass over the
/// on-board DTs on a new card.
#[test]
fn ai_12_event_8_compass_over_the_dts_on_a_new_card() {
    let g = position(
        "dark_legion",
        serde_json::json!([
            { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } },
            { "name": "capitol-big_bob_watts", "at": { "x": 19, "y": 5 } },
        ]),
    );
    let steiner = fig(&g, "bauhaus-max_steiner");
    let bob = fig(&g, "capitol-big_bob_watts");
    let s = asked(
        &g,
        Decision::EventFigure { card: 8 },
        figures(&[steiner, bob]),
    );
    assert_eq!(pick(&s, &[]), Command::RevealAiCard);
    assert_eq!(pick(&s, &[1]), Command::ChooseFigure { figure: bob }, "E");
    assert_eq!(
        pick(&s, &[3]),
        Command::ChooseFigure { figure: steiner },
        "W"
    );
    assert_eq!(
        pick(&s, &[0]),
        Command::ChooseFigure { figure: steiner },
        "N"
    );
    assert_eq!(pick(&s, &[2]), Command::ChooseFigure { figure: bob }, "S");
}

/// AI-12 event 2 (Dark Teleportation): the figure by compass over the DL
/// figures not adjacent to a DT; the tile over the other tiles holding a
/// DT; the square by compass over the legal squares adjacent to a DT, or
/// by matrix (AI-4) if there is none.
#[test]
fn ai_12_event_2_teleport_figure_tile_and_square() {
    let g = position(
        "dark_legion",
        serde_json::json!([
            { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } },
            { "name": "capitol-big_bob_watts", "at": { "x": 19, "y": 5 } },
            { "creature": "legionnaire", "at": { "x": 2, "y": 3 } },
            { "creature": "necromutant", "at": { "x": 12, "y": 3 } },
        ]),
    );
    let l = fig(&g, "legionnaire#1");
    let n = fig(&g, "necromutant#1");
    let s = asked(&g, Decision::EventFigure { card: 2 }, figures(&[l, n]));
    // W would pick the Legionnaire, but it is next to a DT.
    assert_eq!(pick(&s, &[3]), Command::ChooseFigure { figure: n });
    // Tile: the other tiles holding a DT (0 and 2), compass.
    let d = Decision::EventTile {
        card: 2,
        figure: Some(n),
    };
    let s = asked(&g, d, tiles(&[0, 2, 3]));
    assert_eq!(pick(&s, &[1]), Command::ChooseTile { tile: 2 });
    assert_eq!(pick(&s, &[3]), Command::ChooseTile { tile: 0 });
    assert_eq!(
        pick(&s, &[2]),
        Command::ChooseTile { tile: 0 },
        "S, no DT on 3"
    );
    // Square on tile 2: those adjacent to Bob, compass (k=1 E then S).
    let d = Decision::EventSquare {
        card: 2,
        figure: n,
        tile: 2,
    };
    let legal = place_at(
        CreatureKind::Necromutant,
        &[sq(18, 4), sq(20, 4), sq(20, 6), sq(23, 7)],
    );
    let s = asked(&g, d.clone(), legal);
    assert_eq!(pick(&s, &[]), Command::RevealAiCard);
    let at = |square| Command::Place {
        kind: CreatureKind::Necromutant,
        square,
    };
    assert_eq!(pick(&s, &[1]), at(sq(20, 6)));
    assert_eq!(pick(&s, &[3]), at(sq(18, 4)));
    // None adjacent to a DT: the matrix square (k=4: (4,4) -> (20,4)).
    let legal = place_at(
        CreatureKind::Necromutant,
        &[sq(17, 1), sq(20, 4), sq(23, 7)],
    );
    let s = asked(&g, d, legal);
    assert_eq!(pick(&s, &[4]), at(sq(20, 4)));
}

/// AI-13: optional re-rolls are always taken. Under event 4 (Close Combat
/// Frenzy) every CC attack the AI DL makes re-rolls its first failed die.
#[test]
fn ai_13_the_ai_dl_always_rerolls_a_failed_die_it_may() {
    let mut failed = 0;
    for seed in 0..12u64 {
        let (mut g, mut dice) = event_position(
            seed,
            &[Corporation::Bauhaus],
            serde_json::json!({
                "turn": "dark_legion_start",
                "face_down": { "0": [], "1": [], "2": [], "3": [] },
                "event_deck": [18, 4],
                "force_pile": [],
                "figures": [
                    { "name": "bauhaus-max_steiner", "at": { "x": 3, "y": 3 } },
                    { "creature": "legionnaire", "at": { "x": 4, "y": 3 } },
                ],
            }),
        );
        let dl = g.dark_legion_seat();
        let mut bot = AiDarkLegion::new();
        let mut rolls = None;
        for _ in 0..40 {
            if g.is_finished() || g.seat_to_act() != Some(dl) {
                break;
            }
            let cmd = bot.choose(&Seen::of(&g, dl)).expect("a command");
            let events = g.apply(dl, cmd.clone(), &mut dice).expect("legal");
            for e in events {
                if let citadel_rules::game::Event::AttackRolled {
                    attack: Some(AttackType::CloseCombat),
                    dice,
                    ..
                } = e
                {
                    rolls.get_or_insert(dice);
                }
            }
            if rolls.is_some() {
                break;
            }
        }
        let rolls = rolls.expect("the AI makes its close combat attack");
        let first_fail = rolls.iter().position(|r| !r.reroll && r.hits == 0);
        match first_fail {
            Some(i) => {
                failed += 1;
                assert!(rolls.get(i + 1).is_some_and(|r| r.reroll), "{rolls:?}");
                assert_eq!(rolls.iter().filter(|r| r.reroll).count(), 1);
            }
            None => assert!(rolls.iter().all(|r| !r.reroll)),
        }
    }
    assert!(failed > 0, "some seed rolled a failed die");
}

/// AI-13: a DL figure's actions are optional ("may"), and the AI takes one
/// whenever a template line applies: next to a DT it attacks with every
/// template card, it never passes.
#[test]
fn ai_13_the_ai_dl_takes_every_optional_action_it_can() {
    let (n, dt, s) = adjacent();
    for k in 0..12u8 {
        let cmd = pick_tb(&s, 0, &[k]);
        match cmd {
            Command::Attack { figure, target, .. } => assert_eq!((figure, target), (n, dt)),
            Command::Move { figure, .. } => assert_eq!(figure, n, "T3 flank moves first"),
            other => panic!("card {k}: the AI passed with {other:?}"),
        }
    }
}

/// AI-8: the DL figures act in compass order of the tie-breaker card; the
/// action's card is a new one (here T1: move toward).
#[test]
fn ai_8_figures_act_in_compass_order_of_the_tie_breaker() {
    let (g, s) = step4(serde_json::json!([
        { "name": "bauhaus-max_steiner", "at": { "x": 12, "y": 3 } },
        { "creature": "legionnaire", "at": { "x": 3, "y": 3 } },
        { "creature": "necromutant", "at": { "x": 20, "y": 5 } },
    ]));
    let l = fig(&g, "legionnaire#1");
    let n = fig(&g, "necromutant#1");
    let actor = |c: Command| match c {
        Command::Move { figure, .. } | Command::Attack { figure, .. } => figure,
        other => panic!("expected an action, got {other:?}"),
    };
    assert_eq!(pick_tb(&s, 3, &[]), Command::RevealAiCard);
    assert_eq!(actor(pick_tb(&s, 3, &[0])), l, "W: the Legionnaire");
    assert_eq!(actor(pick_tb(&s, 1, &[0])), n, "E: the Necromutant");
    assert_eq!(actor(pick_tb(&s, 2, &[0])), n, "S: the Necromutant");
    assert_eq!(actor(pick_tb(&s, 0, &[0])), l, "N: the Legionnaire");
}
