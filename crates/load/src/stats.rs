//! What a run measured: latency histograms (hdrhistogram, microseconds)
//! and counters, kept per game task and merged at the end.

use hdrhistogram::Histogram;
use std::time::Duration;

/// Latencies are recorded in microseconds with 3 significant figures. The
/// histogram starts small and grows to the largest value recorded: a
/// fixed 1 µs–60 s range costs 400 KB, times two per game.
fn histogram() -> Histogram<u64> {
    let mut h = Histogram::new(3).expect("3 significant figures are valid");
    h.auto(true);
    h
}

/// Counters and histograms of one game task, or of the whole run.
#[derive(Debug, Clone)]
pub struct Stats {
    /// Command sent → its `ack` arrived.
    pub ack: Histogram<u64>,
    /// Command sent → one viewer (player or spectator, the sender too)
    /// received the events it caused; one sample per viewer.
    pub broadcast: Histogram<u64>,
    /// Commands acknowledged inside the measured window.
    pub commands: u64,
    /// Games played to their end.
    pub games_finished: u64,
    /// Games started (replacements included).
    pub games_started: u64,
    /// Everything that went wrong, by kind.
    pub errors: Vec<String>,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            ack: histogram(),
            broadcast: histogram(),
            commands: 0,
            games_finished: 0,
            games_started: 0,
            errors: Vec::new(),
        }
    }
}

/// At most this many error texts are kept (the count is exact).
const KEEP_ERRORS: usize = 20;

impl Stats {
    /// Record an ack latency.
    pub fn ack(&mut self, d: Duration) {
        record(&mut self.ack, d);
    }

    /// Record a broadcast latency.
    pub fn broadcast(&mut self, d: Duration) {
        record(&mut self.broadcast, d);
    }

    /// Record an error.
    pub fn error(&mut self, what: impl Into<String>) {
        self.errors.push(what.into());
    }

    /// Add another task's numbers.
    pub fn merge(&mut self, other: Stats) {
        // Same bounds on both sides, so adding cannot fail.
        let _ = self.ack.add(&other.ack);
        let _ = self.broadcast.add(&other.broadcast);
        self.commands += other.commands;
        self.games_finished += other.games_finished;
        self.games_started += other.games_started;
        self.errors.extend(other.errors);
    }

    /// A few error texts, for the report.
    pub fn sample_errors(&self) -> &[String] {
        &self.errors[..self.errors.len().min(KEEP_ERRORS)]
    }
}

/// Record (growing the histogram; `saturating_record` would clamp to
/// its current top instead).
fn record(h: &mut Histogram<u64>, d: Duration) {
    let v = micros(d);
    if h.record(v).is_err() {
        h.saturating_record(v);
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX).max(1)
}

/// A quantile of a histogram in milliseconds (0 when empty).
pub fn quantile_ms(h: &Histogram<u64>, q: f64) -> f64 {
    if h.is_empty() {
        0.0
    } else {
        h.value_at_quantile(q) as f64 / 1000.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_stats_add_counts_and_samples() {
        let mut a = Stats {
            commands: 1,
            ..Stats::default()
        };
        a.ack(Duration::from_millis(2));
        let mut b = Stats {
            commands: 2,
            ..Stats::default()
        };
        for ms in 1..=100 {
            b.broadcast(Duration::from_millis(ms));
        }
        b.error("closed");
        a.merge(b);
        assert_eq!(a.commands, 3);
        assert_eq!(a.broadcast.len(), 100);
        assert_eq!(a.errors, vec!["closed".to_string()]);
        let p99 = quantile_ms(&a.broadcast, 0.99);
        assert!((98.0..=100.0).contains(&p99), "p99 {p99}");
        assert_eq!(quantile_ms(&Stats::default().ack, 0.5), 0.0);
    }
}
