//! Which server each socket goes to when `--url` names several nodes of
//! a cluster.
//!
//! Every socket takes the next *position* of one run-wide sequence and
//! goes to URL `position % n`. A game reserves its sockets' positions as
//! one block (players, then spectators), so however many games are set
//! up at once, a game's consecutive sockets go to consecutive URLs and
//! its players land on different nodes. Games are created through the
//! lobby of the first URL, so with a cluster that node owns them, and the
//! sockets on the other URLs are the forwarded ones: per-URL latency is
//! the cost of forwarding.

use crate::wire;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One server (node) of the run.
#[derive(Debug)]
pub struct Target {
    /// Its base URL, without a trailing `/`.
    pub base: String,
    /// Its WebSocket URL.
    pub ws_url: String,
}

/// The servers of a run, and where the next socket goes.
#[derive(Debug)]
pub struct Spread {
    targets: Vec<Target>,
    next_position: AtomicUsize,
    /// Per target: sockets that connected there.
    opened: Vec<AtomicUsize>,
}

impl Spread {
    /// The targets for `urls` (each may itself be a comma-separated list;
    /// empty entries are ignored), positions counted from `first`.
    ///
    /// # Errors
    /// If no URL is left.
    pub fn new(urls: &[String], first: usize) -> anyhow::Result<Spread> {
        let targets: Vec<Target> = urls
            .iter()
            .flat_map(|u| u.split(','))
            .map(|u| u.trim().trim_end_matches('/'))
            .filter(|u| !u.is_empty())
            .map(|base| Target {
                base: base.to_string(),
                ws_url: wire::ws_url(base),
            })
            .collect();
        anyhow::ensure!(!targets.is_empty(), "--url names no server");
        let opened = targets.iter().map(|_| AtomicUsize::new(0)).collect();
        Ok(Spread {
            targets,
            next_position: AtomicUsize::new(first),
            opened,
        })
    }

    /// Every target, in `--url` order.
    pub fn targets(&self) -> &[Target] {
        &self.targets
    }

    /// The server whose lobby creates the games (the first URL).
    pub fn lobby(&self) -> &Target {
        // `new` refuses an empty list.
        &self.targets[0]
    }

    /// Reserve `count` consecutive positions; returns the first.
    pub fn reserve(&self, count: usize) -> usize {
        self.next_position.fetch_add(count, Ordering::Relaxed)
    }

    /// The target index for a position.
    pub fn index(&self, position: usize) -> usize {
        position % self.targets.len()
    }

    /// The target for a position, with its index.
    pub fn at(&self, position: usize) -> (usize, &Target) {
        let i = self.index(position);
        (i, &self.targets[i])
    }

    /// Count a socket that connected to target `index`.
    pub fn opened(&self, index: usize) {
        if let Some(n) = self.opened.get(index) {
            n.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Sockets that connected, per target.
    pub fn opened_counts(&self) -> Vec<usize> {
        self.opened
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn repeated_and_comma_separated_urls_make_one_list_in_order() {
        let s = Spread::new(&urls(&["http://a:1/", "http://b:2, http://c:3", ""]), 0)
            .expect("three URLs");
        let bases: Vec<&str> = s.targets().iter().map(|t| t.base.as_str()).collect();
        assert_eq!(bases, ["http://a:1", "http://b:2", "http://c:3"]);
        assert_eq!(s.lobby().ws_url, "ws://a:1/ws");
        assert!(Spread::new(&urls(&[" , "]), 0).is_err());
    }

    #[test]
    fn one_url_takes_every_socket() {
        let s = Spread::new(&urls(&["http://127.0.0.1:8080"]), 0).expect("one URL");
        for _ in 0..10 {
            let first = s.reserve(6);
            assert!((first..first + 6).all(|p| s.index(p) == 0));
        }
    }

    /// Games set up at once, in any order: each game's players sit on
    /// different nodes, and the nodes get equal shares.
    #[test]
    fn games_reserving_blocks_spread_their_players_over_every_node() {
        let s = Spread::new(&urls(&["http://a", "http://b", "http://c"]), 0).expect("URLs");
        let (players, spectators) = (4, 2);
        let mut per_node = [0usize; 3];
        for _ in 0..300 {
            let first = s.reserve(players + spectators);
            let nodes: Vec<usize> = (first..first + players + spectators)
                .map(|p| s.index(p))
                .collect();
            for &n in &nodes {
                per_node[n] += 1;
            }
            let mut player_nodes = nodes[..players].to_vec();
            player_nodes.sort_unstable();
            player_nodes.dedup();
            assert_eq!(player_nodes.len(), 3, "a game's 4 players on all 3 nodes");
        }
        assert_eq!(per_node, [600, 600, 600]);
        // Idle spectators after the games go on round robin.
        let idle: Vec<usize> = (0..4).map(|_| s.index(s.reserve(1))).collect();
        assert_eq!(idle, [0, 1, 2, 0]);
    }

    /// A worker continues the parent's sequence where it was told.
    #[test]
    fn a_worker_starts_at_the_position_it_was_given() {
        let s = Spread::new(&urls(&["http://a", "http://b"]), 7).expect("URLs");
        assert_eq!(s.at(s.reserve(1)).1.base, "http://b");
        assert_eq!(s.at(s.reserve(1)).1.base, "http://a");
        s.opened(1);
        s.opened(1);
        s.opened(9); // no such target: ignored
        assert_eq!(s.opened_counts(), [0, 2]);
    }
}
