//! The search bot (NSH-HID-4: it plays on games re-dealt for its seat,
//! never on the real draw order), its strength against the heuristic
//! bot, and the lobby's bot levels. The full measurement (200 games) is
//! in docs/neuroshima/BOTS.md.

use citadel_game::{Bot, Game, Seat, SeededDice, Seen, Viewer};
use citadel_neuroshima::search::{search_bot, HARD_PLAYOUTS, NORMAL_PLAYOUTS};
use citadel_neuroshima::sim::duel;
use citadel_neuroshima::*;
use citadel_search::Budget;

fn new_game(a: &str, b: &str, options: Options, seed: u64) -> (NeuroshimaGame, SeededDice) {
    let setup =
        NeuroshimaGame::setup(&options, &[Some(a.into()), Some(b.into())], seed).expect("a setup");
    let mut dice = SeededDice::new(seed);
    let (g, _) = NeuroshimaGame::start(&setup, &mut dice).expect("a game");
    (g, dice)
}

/// The same game with every draw pile in another order: what no seat
/// may see.
fn reordered(g: &NeuroshimaGame, seed: u64) -> NeuroshimaGame {
    let mut other = g.clone();
    let mut dice = SeededDice::new(seed);
    for p in &mut other.state.players {
        citadel_game::shuffle_with(&mut dice, &mut p.draw);
    }
    other
}

#[test]
fn nsh_hid_4_the_search_bots_choice_does_not_depend_on_the_draw_order() {
    let mut compared = 0;
    for seed in 0..4u64 {
        let (mut g, mut dice) = new_game("ddm", "moloch", Options::default(), seed);
        let mut heuristic = HeuristicBot::new();
        // Decisions of the first turns (HQ, discards, placements), where
        // the piles are full and their order matters most.
        for step in 0..14 {
            if g.is_finished() {
                break;
            }
            let seat = g.to_act()[0];
            let seen = Seen::of(&g, seat);
            if seen.legal.len() > 1 && step % 2 == 1 {
                let other = reordered(&g, seed ^ 0xd0);
                assert_ne!(other.checksum(), g.checksum(), "the piles differ");
                let other_seen = Seen::of(&other, seat);
                assert_eq!(other_seen.view, seen.view, "the views do not");
                let mut a = search_bot(Budget::Playouts(60), 7);
                let mut b = search_bot(Budget::Playouts(60), 7);
                let (ca, sa) = a.search(&seen).expect("a choice");
                let (cb, sb) = b.search(&other_seen).expect("a choice");
                assert_eq!(ca, cb, "seed {seed} step {step}");
                assert_eq!(sa.chosen_visits, sb.chosen_visits);
                assert_eq!(sa.chosen_value, sb.chosen_value);
                compared += 1;
            }
            let c = heuristic.choose(&seen).expect("a command");
            g.apply(seat, c, &mut dice).expect("legal");
        }
    }
    assert!(compared >= 12, "{compared} positions compared");
}

#[test]
fn nsh_hid_4_a_sample_keeps_the_seats_view_and_legal_commands() {
    let (mut g, mut dice) = new_game("moloch", "ddm", Options::default(), 3);
    let mut heuristic = HeuristicBot::new();
    let mut changed = 0;
    for _ in 0..30 {
        let seat = g.to_act()[0];
        let seen = Seen::of(&g, seat);
        for k in 0..3 {
            let sample = seen.sample(&mut SeededDice::new(k));
            assert_eq!(sample.view(Viewer::Seat(seat)), seen.view);
            assert_eq!(sample.legal(seat), seen.legal);
            if sample.checksum() != g.checksum() {
                changed += 1;
            }
        }
        let c = heuristic.choose(&seen).expect("a command");
        g.apply(seat, c, &mut dice).expect("legal");
    }
    assert!(changed > 60, "samples re-deal the piles: {changed}");
}

/// `games` seeded games of the search bot (`playouts` per decision)
/// against `other`, every pairing, both seats: the search bot's wins.
fn search_wins(games: u64, playouts: u32, other: fn(u64) -> Box<dyn Bot<NeuroshimaGame>>) -> u32 {
    let pairings = [
        ("ddm", "ddm"),
        ("ddm", "moloch"),
        ("moloch", "ddm"),
        ("moloch", "moloch"),
    ];
    let mut wins = 0;
    for seed in 0..games {
        let (a, b) = pairings[(seed % 4) as usize];
        let seat = ((seed / 4) % 2) as u8;
        let mut search = search_bot(Budget::Playouts(playouts), seed);
        let mut other = other(seed);
        let winner = if seat == 0 {
            duel(a, b, [&mut search, other.as_mut()], seed)
        } else {
            duel(a, b, [other.as_mut(), &mut search], seed)
        }
        .expect("a sound game");
        if winner == Some(seat) {
            wins += 1;
        }
    }
    wins
}

#[test]
fn the_search_bot_beats_the_random_bot() {
    // 100 playouts per decision already win every game of 8 here; a
    // search that stopped searching (or played the wrong seat's values)
    // would not.
    let wins = search_wins(8, 100, |seed| Box::new(citadel_game::RandomBot::new(seed)));
    eprintln!("search (100 playouts) vs random: {wins}/8");
    assert!(wins >= 7, "{wins}/8");
}

#[test]
fn the_search_bot_holds_its_own_against_the_heuristic_bot() {
    // The claim (75% of 200 games at about 1 s per decision) is measured
    // by the search-report example (docs/neuroshima/BOTS.md); a test
    // cannot afford it. At 300 playouts, with the heuristic's prior
    // (PUCT), the search won 6 of these 8 seeds when this test was
    // written (without the prior it won 9 to 11 of 16 screening games at
    // 300 playouts, docs/neuroshima/BOTS.md); it must win at least 5.
    let wins = search_wins(8, 300, |_| Box::new(HeuristicBot::new()));
    eprintln!("search (300 playouts) vs heuristic: {wins}/8");
    assert!(wins >= 5, "{wins}/8");
}

#[test]
fn the_lobbys_bot_levels_pick_the_bot() {
    let described = |bots: BotLevel| {
        let options = Options {
            bots,
            ..Options::default()
        };
        let (g, _) = new_game("ddm", "ddm", options, 1);
        format!("{:?}", g.bot(Seat(1), 1))
    };
    assert!(described(BotLevel::Easy).starts_with("HeuristicBot"));
    let normal = described(BotLevel::Normal);
    assert!(normal.starts_with("SearchBot"), "{normal}");
    assert!(
        normal.contains(&format!("Playouts({NORMAL_PLAYOUTS})")),
        "{normal}"
    );
    let hard = described(BotLevel::Hard);
    assert!(
        hard.contains(&format!("Playouts({HARD_PLAYOUTS})")),
        "{hard}"
    );
    const { assert!(HARD_PLAYOUTS > NORMAL_PLAYOUTS) };
}

#[test]
fn a_search_bot_on_a_seat_plays_a_whole_game() {
    // The level's bot, as the platform makes it, against the heuristic:
    // every command it sends is legal and the game ends.
    let options = Options {
        bots: BotLevel::Normal,
        ..Options::default()
    };
    let (g, _) = new_game("moloch", "ddm", options, 5);
    let mut bot = g.bot(Seat(0), 5);
    // A smaller budget than the level's keeps the test short; the level's
    // own budget is checked above.
    let mut quick = search_bot(Budget::Playouts(100), 5);
    let mut heuristic = HeuristicBot::new();
    let first = Seen::of(&g, Seat(0));
    let opening = bot.choose(&first).expect("an HQ placement");
    assert!(first.legal.contains(&opening));
    let result = duel("moloch", "ddm", [&mut quick, &mut heuristic], 5).expect("a sound game");
    assert!(result.is_none_or(|w| w < 2));
    assert!(quick.totals().searches > 10, "{:?}", quick.totals());
}
