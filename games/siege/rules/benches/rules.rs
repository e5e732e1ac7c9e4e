//! Criterion benchmarks of the rules engine (see docs/BENCHMARKS.md).
//!
//! ```text
//! cargo bench -p citadel-rules --bench rules -- --measurement-time 3 --warm-up-time 1
//! ```

use citadel_rules::content::Corporation;
use citadel_rules::dice::{Dice, SeededDice};
use citadel_rules::game::{Command, DarkLegionSetup, FigureKind, Game, Place, Seat, Setup, Viewer};
use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};

/// The allocator the server runs the engine with (crates/citadel/src/main.rs):
/// `legal()` allocates one path per move, so the allocator is part of what
/// a player waits for, and measuring with another would mislead.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn setup(mission: &str, seed: u64) -> Setup {
    Setup::new(
        mission,
        &[
            Corporation::Bauhaus,
            Corporation::Capitol,
            Corporation::Mishima,
        ],
        DarkLegionSetup::Drawn,
    )
    .with_seed(seed)
}

/// Play seeded random games forward until `want` accepts one of the
/// commands legal for the seat to act; return that position.
fn find_position(want: impl Fn(&Game, &Command) -> bool) -> (Game, Seat, Command) {
    for seed in 0..200 {
        let mut dice = SeededDice::new(seed);
        let mut bot = SeededDice::new(seed ^ 0x5eed_b075);
        let (mut game, _) = Game::new(setup("ce-c1m1", seed), &mut dice).expect("setup");
        for _ in 0..5_000 {
            if game.is_finished() {
                break;
            }
            let Some(seat) = game.seat_to_act() else {
                break;
            };
            let legal = game.legal(seat);
            if let Some(c) = legal.iter().find(|c| want(&game, c)) {
                return (game, seat, c.clone());
            }
            let cmd = legal[bot.below(legal.len() as u32) as usize].clone();
            game.apply(seat, cmd, &mut dice).expect("legal");
        }
    }
    panic!("no position found");
}

fn is_dt_on_board(game: &Game, f: citadel_rules::game::FigureId) -> bool {
    game.view(Viewer::Spectator).figures.iter().any(|v| {
        v.id == f
            && matches!(v.kind, FigureKind::Doomtrooper { .. })
            && matches!(v.place, Place::Board { .. })
    })
}

/// A lean random playout: no invariant checks, no log.
fn playout(content: &citadel_rules::Content, mission: &str, seed: u64) -> usize {
    let mut dice = SeededDice::new(seed);
    let mut bot = SeededDice::new(seed ^ 0x5eed_b075);
    let (mut game, _) =
        Game::with_content(setup(mission, seed), content, &mut dice).expect("setup");
    let mut n = 0;
    while !game.is_finished() && n < 20_000 {
        let Some(seat) = game.seat_to_act() else {
            break;
        };
        let legal = game.legal(seat);
        let cmd = legal[bot.below(legal.len() as u32) as usize].clone();
        game.apply(seat, cmd, &mut dice).expect("legal");
        n += 1;
    }
    n
}

fn benches(c: &mut Criterion) {
    // A DT on the board with a multi-step Move available.
    let (moving, move_seat, move_cmd) = find_position(|g, c| match c {
        Command::Move { figure, path } => path.len() >= 2 && is_dt_on_board(g, *figure),
        _ => false,
    });
    // A DT on the board with an Attack available.
    let (attacking, attack_seat, attack_cmd) = find_position(|g, c| match c {
        Command::Attack { figure, .. } => is_dt_on_board(g, *figure),
        _ => false,
    });

    c.bench_function("apply_move", |b| {
        b.iter_batched(
            || (moving.clone(), move_cmd.clone(), SeededDice::new(1)),
            |(mut g, cmd, mut d)| black_box(g.apply(move_seat, cmd, &mut d)),
            BatchSize::SmallInput,
        );
    });
    c.bench_function("apply_attack", |b| {
        b.iter_batched(
            || (attacking.clone(), attack_cmd.clone(), SeededDice::new(1)),
            |(mut g, cmd, mut d)| black_box(g.apply(attack_seat, cmd, &mut d)),
            BatchSize::SmallInput,
        );
    });
    c.bench_function("clone_game", |b| b.iter(|| black_box(moving.clone())));
    c.bench_function("legal_mid_game", |b| {
        b.iter(|| black_box(moving.legal(move_seat)));
    });
    c.bench_function("legal_attack_position", |b| {
        b.iter(|| black_box(attacking.legal(attack_seat)));
    });
    c.bench_function("view_spectator", |b| {
        b.iter(|| black_box(moving.view(Viewer::Spectator)));
    });
    // The checksum the server stores with each command batch.
    c.bench_function("state_checksum", |b| {
        b.iter(|| black_box(citadel_rules::state_checksum(&moving)));
    });
    // One random playout benchmark per playable mission
    // (`playout_c1m1_random`, ...), each cycling over 16 seeds so one short
    // or long game does not skew it.
    let content = citadel_rules::Content::embedded().expect("content");
    for mission in citadel_rules::game::playable::playable_missions(content) {
        let name = format!("playout_{}_random", mission.trim_start_matches("ce-"));
        let mut seed = 0u64;
        c.bench_function(&name, |b| {
            b.iter(|| {
                seed = (seed + 1) % 16;
                black_box(playout(content, mission, seed))
            });
        });
    }
    // The 1993 missions still waiting on an event card, played from the
    // relaxed content (the card leaves the deck): `playout_classic-m1_relaxed`.
    let relaxed = citadel_rules::game::playable::relaxed(content);
    let playable = citadel_rules::game::playable::playable_missions(content);
    for mission in citadel_rules::game::playable::playable_missions(&relaxed) {
        if playable.contains(&mission) {
            continue;
        }
        let name = format!("playout_{mission}_relaxed");
        let mut seed = 0u64;
        c.bench_function(&name, |b| {
            b.iter(|| {
                seed = (seed + 1) % 16;
                black_box(playout(&relaxed, mission, seed))
            });
        });
    }
}

criterion_group! {
    name = rules;
    config = Criterion::default();
    targets = benches
}
criterion_main!(rules);
