//! Login throttling (issue 17, item 2): attempts are limited per account
//! name and per client address, with governor's GCRA limiters. A refused
//! attempt is answered `429` with `Retry-After` before the name is looked
//! up, so the answer is the same whether or not the account exists.
//!
//! Every attempt counts, good or bad: a client cannot learn which
//! attempt succeeded from how the limit moved. With the defaults a person
//! who mistypes a few times never meets the limit; a guesser gets a few
//! tries a minute per name, and an address a few dozen.

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

/// Keys kept before forgetting the ones whose limit has fully recovered
/// (a spray of made-up names must not grow memory without end).
const SWEEP_ABOVE: usize = 10_000;

/// The two limiters.
#[derive(Debug)]
pub struct LoginThrottle {
    by_address: DefaultKeyedRateLimiter<IpAddr>,
    by_account: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
    limit_loopback: bool,
}

fn quota(per_minute: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(per_minute.max(1)).unwrap_or(NonZeroU32::MIN))
}

fn check<K: Hash + Eq + Clone>(
    limiter: &DefaultKeyedRateLimiter<K>,
    key: &K,
    clock: &DefaultClock,
) -> Result<(), Duration> {
    if limiter.len() > SWEEP_ABOVE {
        limiter.retain_recent();
    }
    limiter
        .check_key(key)
        .map_err(|not_until| not_until.wait_time_from(clock.now()))
}

impl LoginThrottle {
    /// `per_account` attempts a minute for one name (that many at once,
    /// then one every `60 / per_account` seconds), `per_address` for one
    /// client address. Loopback addresses (a reverse proxy on this host
    /// speaks for every client) are limited per address only with
    /// `limit_loopback`; the per-name limit always applies.
    pub fn new(per_account: u32, per_address: u32, limit_loopback: bool) -> Self {
        LoginThrottle {
            by_address: RateLimiter::keyed(quota(per_address)),
            by_account: RateLimiter::keyed(quota(per_account)),
            clock: DefaultClock::default(),
            limit_loopback,
        }
    }

    fn check_address(&self, address: IpAddr) -> Result<(), Duration> {
        if address.is_loopback() && !self.limit_loopback {
            return Ok(());
        }
        check(&self.by_address, &address, &self.clock)
    }

    /// May `address` try to log in as `name` now? `Err` holds how long to
    /// wait. The name is keyed as the store compares names: trimmed, and
    /// without regard to case.
    pub fn login(&self, address: IpAddr, name: &str) -> Result<(), Duration> {
        self.check_address(address)?;
        let key = name.trim().to_lowercase();
        check(&self.by_account, &key, &self.clock)
    }

    /// May `address` do other password work now (registering)? Counts
    /// against the same per-address limit as logging in.
    pub fn address(&self, address: IpAddr) -> Result<(), Duration> {
        self.check_address(address)
    }
}

/// Whole seconds to wait, at least 1 (what `Retry-After` says).
pub fn retry_after_secs(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_name_is_limited_from_any_address() {
        let t = LoginThrottle::new(3, 100, true);
        for i in 0..3u8 {
            assert!(t.login([10, 0, 0, i].into(), "Mitch").is_ok());
        }
        // Case and spaces do not make a new name.
        let wait = t
            .login([10, 0, 0, 9].into(), " mitch ")
            .expect_err("limited");
        assert!(wait > Duration::from_secs(10) && wait <= Duration::from_secs(20));
        assert!(t.login([10, 0, 0, 9].into(), "Kim").is_ok());
    }

    #[test]
    fn one_address_is_limited_across_names() {
        let t = LoginThrottle::new(100, 2, true);
        let a: IpAddr = [10, 0, 0, 1].into();
        assert!(t.login(a, "a").is_ok());
        assert!(t.address(a).is_ok());
        assert!(t.login(a, "c").is_err());
        assert!(t.login([10, 0, 0, 2].into(), "c").is_ok());
    }

    #[test]
    fn loopback_is_limited_per_address_only_when_asked() {
        let local: IpAddr = [127, 0, 0, 1].into();
        let t = LoginThrottle::new(100, 1, false);
        assert!(t.login(local, "a").is_ok());
        assert!(t.login(local, "b").is_ok());
        let t = LoginThrottle::new(100, 1, true);
        assert!(t.login(local, "a").is_ok());
        assert!(t.login(local, "b").is_err());
    }

    #[test]
    fn retry_after_rounds_up() {
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::from_secs(12)), 12);
        assert_eq!(retry_after_secs(Duration::from_millis(12_001)), 13);
        assert_eq!(retry_after_secs(Duration::ZERO), 1);
    }
}
