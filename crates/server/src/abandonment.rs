//! When a game nobody plays is closed as abandoned.
//!
//! A game with no player connected (spectators do not count) for longer
//! than its limit — one for lobbies that never started, a longer one for
//! started games — is closed in the store as abandoned, and a restart
//! does not bring it back. The clock is the store's `active_at`, when a
//! player was last connected: a game's task writes it when its last
//! player leaves and every [`AbandonLimits::touch_every`] while players
//! are connected, so it survives restarts and unloading.
//!
//! Two places apply the limits: a game's own task, for a game in memory
//! (it knows to the moment when its players left), and the registry's
//! sweep of the store, at start and every [`AbandonLimits::sweep_every`],
//! for games that are not in memory.

use std::time::Duration;

/// The abandonment limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbandonLimits {
    /// For a lobby that never started.
    pub lobby: Duration,
    /// For a started game.
    pub started: Duration,
}

/// The most often a game records that players are connected, or the
/// store is swept: a limit of minutes still needs no more.
const MIN_PERIOD: Duration = Duration::from_secs(1);
/// The least often: a limit of days needs no more.
const MAX_PERIOD: Duration = Duration::from_secs(60 * 60);

impl Default for AbandonLimits {
    /// A week for a started game, half a day for a lobby.
    fn default() -> Self {
        AbandonLimits {
            lobby: Duration::from_secs(12 * 60 * 60),
            started: Duration::from_secs(7 * 24 * 60 * 60),
        }
    }
}

impl AbandonLimits {
    /// The limit of a game.
    pub fn for_game(&self, started: bool) -> Duration {
        if started {
            self.started
        } else {
            self.lobby
        }
    }

    /// A quarter of the shorter limit, between a second and an hour: how
    /// often a game with players connected writes so to the store. The
    /// stored time is then never more than a quarter of a limit behind,
    /// so a sweep cannot mistake a game being played for an idle one.
    pub fn touch_every(&self) -> Duration {
        (self.lobby.min(self.started) / 4).clamp(MIN_PERIOD, MAX_PERIOD)
    }

    /// How often the registry sweeps the store: as often as games touch
    /// it, so a game not in memory is closed at most that late.
    pub fn sweep_every(&self) -> Duration {
        self.touch_every()
    }

    /// The store's cutoffs at wall-clock time `now_ms`: lobbies last
    /// active before the first, started games before the second, are
    /// abandoned.
    pub fn cutoffs(&self, now_ms: i64) -> (i64, i64) {
        let before =
            |d: Duration| now_ms.saturating_sub(i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        (before(self.lobby), before(self.started))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_follow_the_shorter_limit_within_bounds() {
        let days = AbandonLimits::default();
        assert_eq!(days.touch_every(), MAX_PERIOD);
        let short = AbandonLimits {
            lobby: Duration::from_secs(40),
            started: Duration::from_secs(400),
        };
        assert_eq!(short.touch_every(), Duration::from_secs(10));
        let tiny = AbandonLimits {
            lobby: Duration::from_millis(100),
            started: Duration::from_millis(100),
        };
        assert_eq!(tiny.sweep_every(), MIN_PERIOD);
        assert_eq!(short.cutoffs(1_000_000), (960_000, 600_000));
        assert_eq!(short.for_game(false), Duration::from_secs(40));
        assert_eq!(short.for_game(true), Duration::from_secs(400));
    }
}
