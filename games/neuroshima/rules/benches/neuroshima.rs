//! `cargo bench -p citadel-neuroshima`: a random playout of a whole game,
//! a battle on a full board, a capped infinity combo with two Triplers
//! looping, and the search bot's playouts (one decision of 1,000
//! playouts in the middle of a game). Numbers and command lines:
//! docs/neuroshima/BENCHMARKS.md.

use citadel_game::{Bot, Game, SeededDice, Seen};
use citadel_hex::HEXES;
use citadel_neuroshima::scenario::Scenario;
use citadel_neuroshima::sim::playout;
use citadel_neuroshima::{search_bot, HeuristicBot, NeuroshimaGame, Options};
use citadel_search::Budget;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

/// Every hex filled: both HQs and 17 soldiers, alternating owners.
pub fn full_board() -> NeuroshimaGame {
    let ddm = [
        "hq", "alpha", "gamma", "delta", "omega", "gauss", "alpha", "omega", "omega", "gauss",
        "omega",
    ];
    let moloch = [
        "hq",
        "hybrid",
        "hunter_killer",
        "armored_hunter",
        "guard",
        "hybrid",
        "hunter_killer",
        "armored_hunter",
    ];
    let mut s = Scenario::new("ddm", "moloch");
    let (mut a, mut b) = (ddm.iter(), moloch.iter());
    for (i, h) in HEXES.iter().enumerate() {
        let rot = (i * 5 % 6) as u8;
        let next = if i % 2 == 0 {
            a.next()
                .map(|k| (0, k))
                .or_else(|| b.next().map(|k| (1, k)))
        } else {
            b.next()
                .map(|k| (1, k))
                .or_else(|| a.next().map(|k| (0, k)))
        };
        if let Some((seat, k)) = next {
            s = s.tile(seat, k, h.q, h.r, rot);
        }
    }
    s.build()
}

/// Two Triplers and two Fireblasts in a loop fed by a Delta (T16 with the
/// DNF replaced by a second Tripler).
pub fn two_tripler_loop() -> NeuroshimaGame {
    Scenario::new("ddm", "moloch")
        .tile(0, "tripler", 0, 0, 0)
        .tile(0, "fireblast", 0, -1, 2)
        .tile(0, "fireblast", 1, -1, 3)
        .tile(0, "tripler", 1, 0, 4)
        .tile(0, "delta", 0, 1, 0)
        .tile(1, "hq", -2, 0, 0)
        .build()
}

fn benches(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function("random playout, ddm vs moloch", |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout("ddm", "moloch", Options::default(), seed, false).ok())
        })
    });
    let board = full_board();
    assert_eq!(board.tile_count(), 19);
    c.bench_function("battle on a full board", |b| {
        b.iter(|| {
            let mut g = board.clone();
            black_box(g.fight())
        })
    });
    let combo = two_tripler_loop();
    c.bench_function("capped infinity combo, two Triplers", |b| {
        b.iter(|| {
            let mut g = combo.clone();
            black_box(g.fight())
        })
    });
}

/// A position of the middle of a game: 24 commands of the heuristic bot
/// on both seats from seed 3, ddm against moloch, at an action step.
fn middle_game() -> NeuroshimaGame {
    let options = Options::default();
    let setup = NeuroshimaGame::setup(&options, &[Some("ddm".into()), Some("moloch".into())], 3)
        .expect("a setup");
    let mut dice = SeededDice::new(3);
    let (mut g, _) = NeuroshimaGame::start(&setup, &mut dice).expect("a game");
    let mut bot = HeuristicBot::new();
    let mut steps = 0;
    while steps < 24 || g.legal(g.to_act()[0]).len() < 20 {
        let seat = g.to_act()[0];
        let c = bot.choose(&Seen::of(&g, seat)).expect("a command");
        g.apply(seat, c, &mut dice).expect("legal");
        steps += 1;
    }
    g
}

fn search(c: &mut Criterion) {
    let g = middle_game();
    let seat = g.to_act()[0];
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("1000 playouts, middle game", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            let mut bot = search_bot(Budget::Playouts(1_000), seed);
            black_box(bot.search(&Seen::of(&g, seat)))
        })
    });
    group.finish();
}

criterion_group!(neuroshima, benches, search);
criterion_main!(neuroshima);
