//! Which rules made a game, and a checksum of where a game stands.
//!
//! A stored game is its setup, seed and commands; replaying them rebuilds
//! it only if today's engine behaves as the one that recorded them. Two
//! things change that behaviour: the code and the content data. So a
//! [`RulesVersion`] names both — [`ENGINE_VERSION`], bumped by hand, and a
//! hash of the embedded content files, which changes by itself — and the
//! server stores it with every game. When the version a game was made
//! with is not today's, the server replays it and compares
//! [`state_checksum`]s stored along the way (docs/STORAGE.md has the
//! policy).
//!
//! **Bump [`ENGINE_VERSION`]** in the same commit as any change to what
//! `Game::new` or `Game::apply` does for some setup, seed and commands:
//! a rule fix, a new rule, a change in the order dice are rolled or cards
//! drawn. Refactors that keep every game the same need no bump. (A
//! content change needs none either: the content hash sees it.) Forgetting
//! the bump is what makes a live game continue on rules it was not
//! played by, so when in doubt, bump: the cost is one check per live game
//! at the next restart.

use sha2::{Digest, Sha256};

/// The engine's behaviour version: bump it by hand whenever the same
/// setup, seed and commands could give a different game (see the module
/// documentation).
pub const ENGINE_VERSION: u32 = 5;

/// The rules a game was made with: engine code and content data (the
/// platform's type, shared by every game).
pub use citadel_game::RulesVersion;

/// The rules compiled into this build: [`ENGINE_VERSION`] and the hash of
/// the embedded content.
pub fn current_rules() -> RulesVersion {
    RulesVersion {
        engine: ENGINE_VERSION,
        content: crate::Content::embedded_hash().to_string(),
    }
}

/// Hex of the first 128 bits of a SHA-256: plenty to tell two states or
/// two content sets apart, and half the text to store.
fn short_hex(digest: &[u8]) -> String {
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// The hash of a list of `(name, text)` files, in the order given. Each
/// name and text is prefixed by its length, so moving text from one file
/// to the next changes the hash.
pub(crate) fn files_hash(files: &[(&str, &str)]) -> String {
    let mut h = Sha256::new();
    for (name, text) in files {
        for part in [name.as_bytes(), text.as_bytes()] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
    }
    short_hex(&h.finalize())
}

/// A checksum of everything a game is: SHA-256 (first 128 bits, hex) of
/// the JSON of the whole [`crate::game::Game`] — hidden state included
/// (decks, hands, markers), since a divergence there shows only later.
///
/// The JSON is written straight into the hasher, in the order the fields
/// are declared (no map in the state, so nothing else varies): the same
/// build gives the same checksum for the same game on every machine and
/// run, and two builds with the same [`ENGINE_VERSION`] and content and
/// the same state types do too. A build that reorders, renames or
/// regroups state fields gives another checksum for the same game —
/// which is why checksums are only compared across a version change,
/// where a false "diverged" closes a game that could have continued but
/// never lets one continue that cannot. (Going through
/// `serde_json::Value` first would make the order irrelevant, at three
/// to five times the cost, measured.)
/// Cost: docs/BENCHMARKS.md (`state_checksum` in the rules bench).
pub fn state_checksum(game: &crate::game::Game) -> String {
    let mut h = Sha256::new();
    // Serializing a `Game` cannot fail (no maps with non-string keys, no
    // serializer that errors); if it ever did, the error text is hashed,
    // so the checksum still differs from a real state's.
    if let Err(e) = serde_json::to_writer(&mut h, game) {
        h.update(format!("unserializable game: {e}").as_bytes());
    }
    short_hex(&h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Corporation;
    use crate::dice::{Dice, SeededDice};
    use crate::game::{DarkLegionSetup, Game, Setup};

    fn game(seed: u64) -> (Game, SeededDice) {
        let setup = Setup::new(
            "ce-c1m1",
            &[Corporation::Bauhaus, Corporation::Capitol],
            DarkLegionSetup::Drawn,
        )
        .with_seed(seed);
        let mut dice = SeededDice::new(seed);
        let (g, _) = Game::new(setup, &mut dice).expect("setup");
        (g, dice)
    }

    #[test]
    fn the_content_hash_is_stable_and_sees_every_byte() {
        let a = Content::embedded_hash();
        assert_eq!(a.len(), 32);
        assert_eq!(a, crate::Content::embedded_hash());
        let files = [("a", "xy"), ("b", "z")];
        let moved = [("a", "x"), ("b", "yz")];
        assert_ne!(files_hash(&files), files_hash(&moved));
        assert_eq!(files_hash(&files), files_hash(&[("a", "xy"), ("b", "z")]));
        assert_eq!(current_rules().content, a);
        assert_eq!(current_rules().engine, ENGINE_VERSION);
    }

    use crate::Content;

    #[test]
    fn equal_games_have_equal_checksums_and_a_command_changes_it() {
        let (a, _) = game(3);
        let (b, _) = game(3);
        assert_eq!(state_checksum(&a), state_checksum(&b));
        let (c, _) = game(4);
        assert_ne!(state_checksum(&a), state_checksum(&c), "another seed");

        let (mut g, mut dice) = game(3);
        let before = state_checksum(&g);
        let seat = g.seat_to_act().expect("someone acts");
        let legal = g.legal(seat);
        let cmd = legal[dice.below(legal.len() as u32) as usize].clone();
        g.apply(seat, cmd, &mut dice).expect("legal");
        assert_ne!(before, state_checksum(&g));
    }
}
