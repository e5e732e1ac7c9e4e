//! Seeded random playouts of the token missions (missions.md C1M3, C1M5,
//! C2M3, C2M4) finish with no invariant violation, with an AI or a player
//! Dark Legion. Played from `playable::relaxed` content (no secondary
//! missions, implemented events only, a tile start made an entrance)
//! until those parts land.

use citadel_rules::content::{Content, Corporation};
use citadel_rules::game::playable::relaxed;
use citadel_rules::game::{DarkLegionSetup, Event, Setup};
use citadel_rules::sim::random_playout_with;

#[test]
fn random_playouts_of_the_token_missions_finish_without_violations() {
    let content = relaxed(Content::embedded().expect("content"));
    for mission in ["ce-c1m3", "ce-c1m5", "ce-c2m3", "ce-c2m4"] {
        let mut token_rolls = 0;
        for seed in 0..4u64 {
            let (corps, dl): (&[Corporation], _) = if seed % 2 == 0 {
                (
                    &[Corporation::Cybertronic, Corporation::Bauhaus],
                    DarkLegionSetup::Ai,
                )
            } else {
                (
                    &[
                        Corporation::Cybertronic,
                        Corporation::Bauhaus,
                        Corporation::Capitol,
                    ],
                    DarkLegionSetup::Drawn,
                )
            };
            let setup = Setup::new(mission, corps, dl);
            let p = random_playout_with(&content, setup, seed, 60_000, true)
                .unwrap_or_else(|e| panic!("{mission}: {e}"));
            assert!(
                p.violations.is_empty(),
                "{mission} seed {seed}: {:?}",
                p.violations
            );
            assert!(p.finished, "{mission} seed {seed} did not finish");
            token_rolls += p
                .log
                .iter()
                .flat_map(|(_, _, e)| e)
                .filter(|e| matches!(e, Event::TokenAttackRolled { .. }))
                .count();
        }
        // Random players do reach the tokens now and then.
        println!("{mission}: {token_rolls} token attacks or hacks in 4 games");
    }
}
