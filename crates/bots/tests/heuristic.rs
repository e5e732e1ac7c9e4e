//! Heuristic bots: legality, determinism, and strength against random play.

use citadel_bots::matchup::{play, tally, CorpBots, DlBot};

#[test]
fn heuristic_bots_only_play_legal_commands_and_finish_30_games() {
    // `play` checks every command against `legal` and errors otherwise.
    for seed in 0..10 {
        for dl in [DlBot::Random, DlBot::Ai, DlBot::Heuristic] {
            let r = play(CorpBots::Heuristic, dl, seed, 20_000)
                .unwrap_or_else(|e| panic!("seed {seed} {dl:?}: {e}"));
            assert!(r.finished, "seed {seed} {dl:?} did not finish");
        }
    }
}

#[test]
fn heuristic_games_are_deterministic() {
    for dl in [DlBot::Random, DlBot::Ai, DlBot::Heuristic] {
        let a = play(CorpBots::Heuristic, dl, 42, 20_000).expect("game");
        let b = play(CorpBots::Heuristic, dl, 42, 20_000).expect("game");
        assert_eq!(a, b);
    }
}

#[test]
fn heuristic_corporations_beat_random_ones_on_mission_success() {
    let random = tally(CorpBots::Random, DlBot::Random, 1000, 100, 20_000).expect("random");
    let heur = tally(CorpBots::Heuristic, DlBot::Random, 1000, 100, 20_000).expect("heuristic");
    println!(
        "vs random DL over 100 games: mission success random {:.2} heuristic {:.2}; corp win random {:.2} heuristic {:.2}",
        random.success_rate(),
        heur.success_rate(),
        random.corp_rate(),
        heur.corp_rate()
    );
    assert!(heur.corp_rate() >= random.corp_rate() + 0.30);
    assert!(
        heur.success_rate() >= random.success_rate() + 0.04,
        "heuristic {:.2} vs random {:.2}",
        heur.success_rate(),
        random.success_rate()
    );
}
