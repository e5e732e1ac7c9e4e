//! The search bot: `citadel-search`'s information-set MCTS, with the
//! draw order re-dealt for the searching seat in every iteration (the
//! only hidden information, NSH-HID-2: `resample_hidden` through
//! `Seen::sample`) and the heuristic bot's evaluation at the playout
//! horizon, which is the node just added ([`HORIZON`] = 0). The cheap
//! playout policy (battle questions answered by their defaults, other
//! commands uniform) plays when a longer horizon is configured.
//!
//! The tree selects by PUCT with the heuristic's one-ply scores as the
//! prior ([`NeuroshimaPolicy`]'s `prior`): at the root, and at every node
//! visited [`PRIOR_AFTER`] times, each legal command is scored as the
//! heuristic bot would score it, and the softmax of those scores (at
//! [`PRIOR_TEMPERATURE`]) steers the iterations to the few placements
//! worth reading out of the ~200 legal ones. Without it the search won
//! 63% of games against the heuristic at 4,000 playouts; with it, about
//! 80% at 2,000 (docs/neuroshima/BOTS.md).

use crate::engine::NeuroshimaGame;
use crate::types::{Command, Stage};
use citadel_game::{Dice, Seat};
use citadel_search::{Budget, Policy, PriorConfig, SearchBot, SearchConfig};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Playout commands before the position is evaluated: none. Each
/// iteration evaluates the node it adds with the heuristic's evaluation
/// (the battle that would follow now, fought on a copy); depth comes from
/// the tree. Measured against horizons of 2, 4 and 8 random commands
/// (docs/neuroshima/BOTS.md), it won the most games against the
/// heuristic bot at 300 and 1,000 playouts, and runs about 1.7 times as
/// many iterations per second.
pub const HORIZON: u32 = 0;

/// Material (in the heuristic's points) that makes a position worth
/// about 0.73 to the side ahead: `value = 1 / (1 + e^(-material / SCALE))`.
pub const SCALE: f64 = 20.0;

/// The `normal` level's playouts per decision (about 15 ms here on a
/// quiet core with the prior; several times that under load).
pub const NORMAL_PLAYOUTS: u32 = 300;

/// The `hard` level's playouts per decision (about 35 ms on a quiet
/// core with the prior; several times that under load). Bots think on the game's task today, and
/// the server's runtime has as many workers as cores: a longer budget
/// would hold one of them from every other game. Once thinking moves to
/// a worker pool (issue 33), `hard` should become a time budget of
/// about 1 s.
pub const HARD_PLAYOUTS: u32 = 1_000;

/// UCT's exploration constant for Neuroshima (at nodes that have not
/// asked the prior yet): small, because the
/// evaluations of a node's children lie close together (a few points of
/// material apart, a few hundredths of value); 0.15 beat 0.3 and 0.7 in
/// the measurements of docs/neuroshima/BOTS.md.
pub const EXPLORATION: f64 = 0.15;

/// The prior's temperature, in the heuristic's points of material: a
/// command's prior weight is `e^((score - best) / PRIOR_TEMPERATURE)`
/// (the heuristic's one-ply score, [`crate::bot::command_scores`]).
pub const PRIOR_TEMPERATURE: f64 = 3.0;

/// A battle question's answers other than the default (NSH-CONV-4) get
/// this weight against the default's 1.
pub const QUESTION_PRIOR: f64 = 0.1;

/// PUCT's exploration constant (with the prior): 1 won 26 of 32
/// screening games at 2,000 playouts, 0.3 won 24 and 3 won 21 (the same
/// seeds; docs/neuroshima/BOTS.md).
pub const PRIOR_EXPLORATION: f64 = 1.0;

/// Visits before a node below the root asks the prior (it scores every
/// legal command, each on a copy with a battle fought): with 20, 26 of 32 screening games at
/// 2,000 playouts; with the prior at the root only, 22 of 32, at half
/// the cost per playout.
pub const PRIOR_AFTER: u32 = 20;

/// How the search plays Neuroshima: commands keyed by their `Hash`;
/// the prior is the heuristic's one-ply score of each command, softmax at
/// `temperature`, and the default answer of a battle question;
/// playouts answer every battle question with its default (NSH-CONV-4)
/// and pick other commands uniformly; the horizon's value is the
/// heuristic's material after the battle that would follow now.
#[derive(Clone, Copy, Debug)]
pub struct NeuroshimaPolicy {
    /// The prior's temperature ([`PRIOR_TEMPERATURE`] by default).
    pub temperature: f64,
}

impl Default for NeuroshimaPolicy {
    fn default() -> Self {
        NeuroshimaPolicy {
            temperature: PRIOR_TEMPERATURE,
        }
    }
}

impl Policy<NeuroshimaGame> for NeuroshimaPolicy {
    fn key(&self, command: &Command) -> u64 {
        let mut h = Fx(0);
        command.hash(&mut h);
        h.finish()
    }

    fn playout(&self, game: &NeuroshimaGame, seat: Seat, dice: &mut dyn Dice) -> Option<Command> {
        if matches!(
            game.state.stage,
            Stage::Battle | Stage::Bomb | Stage::PushChoice { .. }
        ) {
            return game.default_command(seat.0);
        }
        let mut legal = game.legal_commands(seat.0);
        if legal.is_empty() {
            return None;
        }
        let i = dice.below(legal.len() as u32) as usize;
        Some(legal.swap_remove(i))
    }

    fn prior(&self, game: &NeuroshimaGame, seat: Seat, legal: &[Command]) -> Option<Vec<f64>> {
        if matches!(
            game.state.stage,
            Stage::Battle | Stage::Bomb | Stage::PushChoice { .. }
        ) {
            let default = game.default_command(seat.0)?;
            return Some(
                legal
                    .iter()
                    .map(|c| if *c == default { 1.0 } else { QUESTION_PRIOR })
                    .collect(),
            );
        }
        let scores = crate::bot::command_scores(game, seat.0, legal)?;
        let best = scores.iter().copied().fold(f64::MIN, f64::max);
        Some(
            scores
                .iter()
                .map(|s| ((s - best) / self.temperature).exp())
                .collect(),
        )
    }

    fn evaluate(&self, game: &NeuroshimaGame) -> Option<Vec<f64>> {
        let mut g = game.clone();
        g.settle();
        let material = g.evaluate(0, false);
        let zero = 1.0 / (1.0 + (-material / SCALE).exp());
        Some(vec![zero, 1.0 - zero])
    }
}

/// A fast hash for command keys (rustc's Fx): the tree hashes every
/// legal command at every node it walks through, and SipHash's
/// resistance to chosen inputs buys nothing here.
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        // A final mix, so that keys differ in their high bits too.
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^ (x >> 33)
    }
}

/// The search settings for Neuroshima with `budget`.
pub fn search_config(budget: Budget) -> SearchConfig {
    let mut config = SearchConfig::new(budget);
    config.exploration = EXPLORATION;
    config.horizon = Some(HORIZON);
    config.prior = Some(PriorConfig {
        exploration: PRIOR_EXPLORATION,
        after: PRIOR_AFTER,
    });
    config
}

/// A search bot for any seat, its deals and playouts drawn from `seed`.
pub fn search_bot(budget: Budget, seed: u64) -> SearchBot<NeuroshimaGame> {
    SearchBot::new(
        search_config(budget),
        Arc::new(NeuroshimaPolicy::default()),
        seed,
    )
}
