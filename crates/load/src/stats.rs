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
    /// The same latencies per `--url` (by index): the sockets on the node
    /// that owns a game against those forwarded through another node.
    pub per_url: Vec<UrlLatency>,
}

/// Ack and broadcast latency of the sockets on one `--url`.
#[derive(Debug, Clone)]
pub struct UrlLatency {
    /// Ack latency of the players there.
    pub ack: Histogram<u64>,
    /// Broadcast latency of the viewers there.
    pub broadcast: Histogram<u64>,
}

impl Default for UrlLatency {
    fn default() -> Self {
        UrlLatency {
            ack: histogram(),
            broadcast: histogram(),
        }
    }
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
            per_url: Vec::new(),
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

    /// Record an ack latency of a player on `--url` number `url`.
    pub fn ack_on(&mut self, url: usize, d: Duration) {
        self.ack(d);
        record(&mut self.url(url).ack, d);
    }

    /// Record a broadcast latency of a viewer on `--url` number `url`.
    pub fn broadcast_on(&mut self, url: usize, d: Duration) {
        self.broadcast(d);
        record(&mut self.url(url).broadcast, d);
    }

    fn url(&mut self, url: usize) -> &mut UrlLatency {
        if self.per_url.len() <= url {
            self.per_url.resize_with(url + 1, UrlLatency::default);
        }
        &mut self.per_url[url]
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
        for (i, u) in other.per_url.into_iter().enumerate() {
            let mine = self.url(i);
            let _ = mine.ack.add(&u.ack);
            let _ = mine.broadcast.add(&u.broadcast);
        }
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

    #[test]
    fn per_url_samples_are_kept_apart_and_in_the_totals() {
        let mut a = Stats::default();
        a.ack_on(0, Duration::from_millis(1));
        let mut b = Stats::default();
        b.ack_on(2, Duration::from_millis(9));
        b.broadcast_on(2, Duration::from_millis(9));
        b.broadcast_on(2, Duration::from_millis(9));
        a.merge(b);
        assert_eq!(a.per_url.len(), 3);
        assert_eq!(a.ack.len(), 2);
        assert_eq!(a.broadcast.len(), 2);
        let lens: Vec<(u64, u64)> = a
            .per_url
            .iter()
            .map(|u| (u.ack.len(), u.broadcast.len()))
            .collect();
        assert_eq!(lens, [(1, 0), (0, 0), (1, 2)]);
        let p50 = quantile_ms(&a.per_url[2].ack, 0.5);
        assert!((9.0..9.1).contains(&p50), "p50 {p50}");
    }
}
