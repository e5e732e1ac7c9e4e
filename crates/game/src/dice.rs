//! Chance, as an argument: every game draws from a `&mut dyn Dice`, never
//! from a global generator, so the same setup, seed and commands always
//! give the same game.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use std::fmt;

/// A source of uniform random choices. Every draw goes through `below`,
/// so a script of raw values can force any outcome in a test.
pub trait Dice: fmt::Debug {
    /// A uniform integer in `0..n`. `n` is at least 1.
    fn below(&mut self, n: u32) -> u32;

    /// Stop drawing: later draws return 0 and consume nothing. A game
    /// calls this when it suspends a command whose rest will be replayed
    /// (Siege's reaction windows).
    fn freeze(&mut self) {}

    /// One d6 roll, `1..=6`.
    fn d6(&mut self) -> u8 {
        // below(6) < 6, so the cast cannot truncate.
        (self.below(6) + 1) as u8
    }

    /// Fisher–Yates shuffle, from the last index down.
    fn shuffle<T>(&mut self, items: &mut [T])
    where
        Self: Sized,
    {
        shuffle_with(self, items);
    }
}

/// Fisher–Yates over any `Dice`, usable through `&mut dyn Dice`.
pub fn shuffle_with<T, D: Dice + ?Sized>(dice: &mut D, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = dice.below(i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// The seeded generator used in play. The seed is the whole state a replay
/// needs; `ChaCha20Rng` from `rand_chacha` 0.3.1 (pinned with `=` in the
/// workspace) is specified by its algorithm, and `below` is our own
/// rejection sampling, so an upstream change in `rand`'s distributions
/// cannot alter a replay.
#[derive(Clone, Debug)]
pub struct SeededDice {
    rng: ChaCha20Rng,
}

impl SeededDice {
    /// A generator whose whole stream is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        SeededDice {
            rng: ChaCha20Rng::seed_from_u64(seed),
        }
    }
}

impl Dice for SeededDice {
    fn below(&mut self, n: u32) -> u32 {
        let n = n.max(1);
        // Rejection sampling keeps every value exactly uniform: accept only
        // draws below the largest multiple of n that fits in 2^32.
        let span = 1u64 << 32;
        let bound = span - span % u64::from(n);
        loop {
            let v = u64::from(self.rng.next_u32());
            if v < bound {
                return (v % u64::from(n)) as u32;
            }
        }
    }
}

/// Counts the draws made through it: the conformance suite checks that a
/// rejected command drew nothing.
#[derive(Debug)]
pub struct CountingDice<'a> {
    inner: &'a mut dyn Dice,
    /// Draws so far.
    pub draws: u64,
}

impl<'a> CountingDice<'a> {
    /// Count the draws made from `inner`.
    pub fn new(inner: &'a mut dyn Dice) -> Self {
        CountingDice { inner, draws: 0 }
    }
}

impl Dice for CountingDice<'_> {
    fn below(&mut self, n: u32) -> u32 {
        self.draws += 1;
        self.inner.below(n)
    }

    fn freeze(&mut self) {
        self.inner.freeze();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_dice_are_pinned() {
        // The first draws of seed 7: a change here changes every stored
        // game of every game on the platform.
        let mut d = SeededDice::new(7);
        let got: Vec<u32> = (0..8).map(|_| d.below(6)).collect();
        let mut again = SeededDice::new(7);
        let twice: Vec<u32> = (0..8).map(|_| again.below(6)).collect();
        assert_eq!(got, twice);
        assert!(got.iter().all(|v| *v < 6));
        let mut other = SeededDice::new(8);
        let third: Vec<u32> = (0..8).map(|_| other.below(6)).collect();
        assert_ne!(got, third, "another seed, another stream");
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut d = SeededDice::new(3);
        let mut v: Vec<u32> = (0..20).collect();
        d.shuffle(&mut v);
        assert_ne!(v, (0..20).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn counting_dice_count() {
        let mut s = SeededDice::new(1);
        let mut c = CountingDice::new(&mut s);
        c.d6();
        c.below(3);
        assert_eq!(c.draws, 2);
    }
}
