//! Siege behind the game seam: the platform's conformance suite
//! (`citadel_game::conformance`) over seeded random games of both
//! editions, played through the `citadel_game::Game` trait alone.

use citadel_game::conformance::{Conformance, Table};
use citadel_game::Game as _;
use citadel_rules::content::Corporation;
use citadel_rules::game::Game;
use citadel_rules::seam::{DarkLegionChoice, SeatChoice, SiegeOptions};

fn table(mission: &str, seats: u8, dark_legion: DarkLegionChoice) -> Table<Game> {
    Table {
        options: SiegeOptions {
            mission: mission.into(),
            seats,
            dark_legion,
            starting_rank: 1,
        },
        choices: vec![None; usize::from(seats)],
    }
}

#[test]
fn siege_passes_the_conformance_suite() {
    let mut suite = Conformance::new(vec![
        table("ce-c1m1", 3, DarkLegionChoice::Drawn),
        table("classic-m1", 1, DarkLegionChoice::Ai),
        table("classic-training", 4, DarkLegionChoice::Seat(0)),
        table("ce-c1m2", 2, DarkLegionChoice::Ai),
    ]);
    suite.games = 12;
    suite.max_commands = 3_000;
    // A Siege view is large; every fourth step keeps the suite's time in
    // bounds while still comparing thousands of views.
    suite.view_every = 4;
    let report = suite.run();
    eprintln!("{report:?}");
    assert_eq!(report.games, 12);
    assert!(report.finished >= 6, "{report:?}");
    assert!(report.rejections > 1_000, "{report:?}");
    assert!(report.views_checked > 1_000, "{report:?}");
}

#[test]
fn a_lobby_choice_is_checked_against_the_other_seats() {
    let options = SiegeOptions {
        mission: "ce-c1m1".into(),
        seats: 2,
        dark_legion: DarkLegionChoice::Drawn,
        starting_rank: 1,
    };
    let bauhaus = SeatChoice {
        corporation: Some(Corporation::Bauhaus),
        doomtroopers: None,
    };
    let others = [Some(bauhaus.clone()), None];
    assert!(Game::check_choice(&options, citadel_game::Seat(0), &bauhaus, &others).is_ok());
    assert!(Game::check_choice(&options, citadel_game::Seat(1), &bauhaus, &others).is_err());
}
