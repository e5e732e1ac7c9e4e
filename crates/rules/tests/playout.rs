//! Whole games with random legal bots.

use citadel_rules::content::Corporation;
use citadel_rules::game::{DarkLegionSetup, Setup};
use citadel_rules::sim::random_playout;

#[test]
fn trn_1_random_c1m1_games_finish_without_violations() {
    for seed in 0..20 {
        let setup = Setup::new(
            "ce-c1m1",
            &[
                Corporation::Bauhaus,
                Corporation::Capitol,
                Corporation::Mishima,
            ],
            DarkLegionSetup::Drawn,
        );
        let p = random_playout(setup, seed, 20_000, false).expect("setup");
        assert!(p.violations.is_empty(), "seed {seed}: {:?}", p.violations);
        assert!(
            p.finished,
            "seed {seed}: not finished after {} commands",
            p.commands
        );
    }
}
