//! The search bot on the seam's test game, Tricks: hidden hands, a
//! simultaneous secret bid, two to four seats, shared places.

use citadel_game::{Bot, Game, RandomBot, Seat, SeededDice, Seen};
use citadel_search::{rewards, Budget, Policy, PriorConfig, RandomPolicy, SearchBot, SearchConfig};
use citadel_test_game::{Options, Tricks};
use std::sync::Arc;
use std::time::Duration;

fn start(seats: u8, seed: u64) -> (Tricks, SeededDice) {
    let options = Options { seats, flaw: None };
    let setup = Tricks::setup(&options, &vec![None; usize::from(seats)], seed).expect("a setup");
    let mut dice = SeededDice::new(seed);
    let (game, _) = Tricks::start(&setup, &mut dice).expect("a game");
    (game, dice)
}

fn bot(playouts: u32, seed: u64) -> SearchBot<Tricks> {
    SearchBot::new(
        SearchConfig::new(Budget::Playouts(playouts)),
        Arc::new(RandomPolicy),
        seed,
    )
}

/// One game: `searcher` plays the search bot, every other seat a random
/// bot. The searcher's reward.
fn play(seats: u8, searcher: Seat, playouts: u32, seed: u64) -> f64 {
    let (mut game, mut dice) = start(seats, seed);
    let mut search = bot(playouts, seed ^ 0x5ea2c4);
    let mut random = RandomBot::new(seed ^ 0xa11ce);
    while !game.is_finished() {
        let seat = game.to_act()[0];
        let seen = Seen::of(&game, seat);
        let command = if seat == searcher {
            search.choose(&seen)
        } else {
            Bot::<Tricks>::choose(&mut random, &seen)
        }
        .expect("a seat to act has a command");
        assert!(
            seen.legal.contains(&command),
            "the bot plays a legal command"
        );
        game.apply(seat, command, &mut dice).expect("legal");
    }
    let outcome = game.outcome().expect("an outcome");
    rewards(&outcome)[usize::from(searcher.0)]
}

#[test]
fn the_same_seed_and_playout_budget_make_the_same_choice() {
    for seed in 0..6 {
        let (game, _) = start(3, seed);
        // Bidding: every seat may act at once.
        assert_eq!(game.to_act().len(), 3);
        let seen = Seen::of(&game, Seat(1));
        let mut a = bot(300, 42);
        let mut b = bot(300, 42);
        let (ca, sa) = a.search(&seen).expect("a choice");
        let (cb, sb) = b.search(&seen).expect("a choice");
        assert_eq!(ca, cb, "seed {seed}");
        assert_eq!(sa.playouts, 300);
        // Everything but the wall time, which no seed fixes.
        let mut sb = sb;
        sb.elapsed = sa.elapsed;
        assert_eq!(sa, sb);
        assert!(seen.legal.contains(&ca));
    }
}

#[test]
fn search_beats_random_bots_at_three_seat_tricks() {
    // Against two random seats, a random seat's expected reward is 0.5;
    // the search bot, 200 playouts per decision, must do clearly better.
    let games = 90u64;
    let total: f64 = (0..games)
        .map(|seed| play(3, Seat((seed % 3) as u8), 200, seed))
        .sum();
    let mean = total / games as f64;
    eprintln!("search vs two random seats: mean reward {mean:.3} over {games} games");
    assert!(mean > 0.62, "mean reward {mean:.3}");
}

#[test]
fn a_time_budget_of_zero_still_searches_once() {
    let (game, _) = start(2, 3);
    let seen = Seen::of(&game, Seat(0));
    let mut bot = SearchBot::new(
        SearchConfig::new(Budget::Time(Duration::ZERO)),
        Arc::new(RandomPolicy),
        1,
    );
    let (command, stats) = bot.search(&seen).expect("a choice");
    assert!(seen.legal.contains(&command));
    assert_eq!(stats.playouts, 1);
    let mut timed = SearchBot::new(
        SearchConfig::new(Budget::Time(Duration::from_millis(30))),
        Arc::new(RandomPolicy),
        1,
    );
    let (_, stats) = timed.search(&seen).expect("a choice");
    assert!(stats.elapsed >= Duration::from_millis(30));
    assert!(stats.playouts > 1, "{stats:?}");
}

#[test]
fn a_single_legal_command_or_none_needs_no_search() {
    let (mut game, mut dice) = start(2, 5);
    // Both bid; then seat `leader` leads and the other has nothing to do.
    for seat in [Seat(0), Seat(1)] {
        let command = game.legal(seat)[0].clone();
        game.apply(seat, command, &mut dice).expect("a bid");
    }
    let idle = Seat(1 - game.to_act()[0].0);
    let mut search = bot(50, 1);
    assert_eq!(search.choose(&Seen::of(&game, idle)), None);
    // Play down to a seat's last card: one legal command.
    while !game.is_finished() {
        let seat = game.to_act()[0];
        let legal = game.legal(seat);
        if legal.len() == 1 {
            let seen = Seen::of(&game, seat);
            assert_eq!(search.choose(&seen), Some(legal[0].clone()));
            assert_eq!(search.last_stats(), None, "no search for one command");
        }
        game.apply(seat, legal[0].clone(), &mut dice)
            .expect("legal");
    }
}

#[test]
fn a_full_tree_plays_out_from_its_leaves() {
    let (game, _) = start(4, 8);
    let seen = Seen::of(&game, Seat(2));
    let mut config = SearchConfig::new(Budget::Playouts(100));
    config.max_nodes = 1;
    let mut search = SearchBot::new(config, Arc::new(RandomPolicy), 9);
    let (command, stats) = search.search(&seen).expect("a choice");
    assert!(seen.legal.contains(&command));
    assert_eq!(stats.nodes, 1, "the root only");
    assert_eq!(stats.playouts, 100);
}

/// Values every seat at 0.5 and counts nothing else: a horizon of 0
/// means no playout command is ever played.
#[derive(Debug)]
struct Even;

impl Policy<Tricks> for Even {
    fn evaluate(&self, game: &Tricks) -> Option<Vec<f64>> {
        Some(vec![
            0.5;
            game.view(citadel_game::Viewer::Spectator).tricks.len()
        ])
    }
}

#[test]
fn a_horizon_cuts_playouts_with_the_games_evaluation() {
    let (game, _) = start(3, 11);
    let seen = Seen::of(&game, Seat(0));
    let mut config = SearchConfig::new(Budget::Playouts(60));
    config.horizon = Some(0);
    let mut cut = SearchBot::new(config, Arc::new(Even), 2);
    let (_, stats) = cut.search(&seen).expect("a choice");
    assert_eq!(stats.playout_commands, 0, "{stats:?}");
    let mut full = bot(60, 2);
    let (_, stats) = full.search(&seen).expect("a choice");
    assert!(stats.playout_commands > 60, "{stats:?}");
}

#[test]
fn progressive_widening_grows_a_narrower_deeper_tree() {
    let (game, _) = start(4, 13);
    let seen = Seen::of(&game, Seat(0));
    let mut plain = bot(400, 4);
    let (_, wide) = plain.search(&seen).expect("a choice");
    let mut config = SearchConfig::new(Budget::Playouts(400));
    config.widening = Some((1.0, 0.3));
    let mut narrow = SearchBot::new(config, Arc::new(RandomPolicy), 4);
    let (command, stats) = narrow.search(&seen).expect("a choice");
    assert!(seen.legal.contains(&command));
    assert!(
        stats.depth > wide.depth,
        "widening: depth {}, plain: depth {}",
        stats.depth,
        wide.depth
    );
}

/// Values every seat at 0.5, and puts the whole prior on the last legal
/// command; counts the times it is asked for a prior.
#[derive(Debug, Default)]
struct Favour {
    asked: std::sync::atomic::AtomicUsize,
}

impl Policy<Tricks> for Favour {
    fn evaluate(&self, game: &Tricks) -> Option<Vec<f64>> {
        Even.evaluate(game)
    }

    fn prior(
        &self,
        _game: &Tricks,
        _seat: Seat,
        legal: &[citadel_test_game::Command],
    ) -> Option<Vec<f64>> {
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut weights = vec![0.0; legal.len()];
        *weights.last_mut()? = 1.0;
        Some(weights)
    }
}

#[test]
fn puct_follows_the_prior_and_uct_never_asks_it() {
    let (game, _) = start(3, 21);
    let seen = Seen::of(&game, Seat(1));
    assert!(seen.legal.len() > 2, "{:?}", seen.legal);
    let favoured = seen.legal.last().cloned();
    // UCT (no prior configured): the prior is never asked, and with even
    // values the visits spread over every command.
    let favour = Arc::new(Favour::default());
    let mut config = SearchConfig::new(Budget::Playouts(200));
    config.horizon = Some(0);
    let mut uct = SearchBot::new(config.clone(), favour.clone(), 3);
    let (_, stats) = uct.search(&seen).expect("a choice");
    assert_eq!(favour.asked.load(std::sync::atomic::Ordering::Relaxed), 0);
    assert!(stats.chosen_visits < 150, "{stats:?}");
    // PUCT: with even values the prior decides, and the favoured command
    // takes nearly every visit.
    config.prior = Some(PriorConfig {
        exploration: 1.0,
        after: 10,
    });
    let mut puct = SearchBot::new(config, favour.clone(), 3);
    let (command, stats) = puct.search(&seen).expect("a choice");
    assert!(favour.asked.load(std::sync::atomic::Ordering::Relaxed) >= 1);
    assert_eq!(Some(command), favoured);
    assert!(stats.chosen_visits > 150, "{stats:?}");
}
