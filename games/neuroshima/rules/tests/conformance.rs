//! The platform's conformance suite over seeded random games of every
//! pairing, with hidden-information checks on.

use citadel_game::conformance::{Conformance, Table};
use citadel_neuroshima::{InfinityCombo, NeuroshimaGame, Options};

fn table(a: &str, b: &str, options: Options) -> Table<NeuroshimaGame> {
    Table {
        options,
        choices: vec![Some(a.to_string()), Some(b.to_string())],
    }
}

#[test]
fn nsh_hid_2_neuroshima_passes_the_conformance_suite() {
    let unbounded = Options {
        infinity_combo: InfinityCombo::Unbounded,
        first_player: citadel_neuroshima::FirstPlayer::Random,
        ..Options::default()
    };
    let mut suite = Conformance::new(vec![
        table("ddm", "ddm", Options::default()),
        table("ddm", "moloch", Options::default()),
        table("moloch", "moloch", Options::default()),
        table("moloch", "ddm", unbounded),
    ]);
    suite.games = 48;
    suite.max_commands = 3_000;
    suite.view_every = 2;
    suite.hidden_information = true;
    // The re-deal sorts each pile before shuffling it: a function of the
    // view and the dice, as the search bot needs.
    suite.redeal_from_view = true;
    let report = suite.run();
    eprintln!("{report:?}");
    assert_eq!(report.games, 48);
    assert_eq!(report.finished, 48, "{report:?}");
    assert!(report.rejections > 500, "{report:?}");
    assert!(report.redeals_changed > 0, "{report:?}");
}
