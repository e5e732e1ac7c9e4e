//! Who runs a game: one node alone, or the node holding the game's lease.
//!
//! A single server ([`Ownership::Solo`], the default) owns every game it
//! has; nothing is written for it. In cluster mode ([`Ownership::Cluster`])
//! several nodes share one Postgres, and a node runs a game only while it
//! holds the game's lease in the store (`game_leases`, migrations 0007 and 0008):
//! it takes the lease before it creates or restores the game, renews all
//! its leases every [`LeaseConfig::renew_every`] with one write, stops a
//! game whose lease another node took (without writing anything more for
//! it), and deletes a lease when its game leaves memory. Leases of a node
//! that died run out after [`LeaseConfig::ttl`]; the other nodes' scans
//! find them and take the games over, restoring each from its commands.
//!
//! The lease is the guard against two nodes running one game; a second
//! guard sits under it: both would append the same command numbers, and
//! the store refuses a repeated number, so the slower node's write fails
//! and that node closes the game. docs/SCALING.md has the failure cases.

use crate::clock::wall_clock_ms;
use citadel_store::{Store, StoreError};
use std::time::Duration;

/// How a cluster node holds its games.
#[derive(Clone, Debug)]
pub struct LeaseConfig {
    /// This node's id (`--node-id`): the lease owner's name.
    pub node_id: String,
    /// How long a lease lasts unless renewed: how long a dead node's
    /// games wait before another node takes them over.
    pub ttl: Duration,
    /// How often a node renews its leases and looks for expired ones.
    pub renew_every: Duration,
}

/// Who owns the games this server runs.
#[derive(Clone, Debug, Default)]
pub enum Ownership {
    /// One server: it owns every game it has, and writes no lease.
    #[default]
    Solo,
    /// One node of several: a game runs here only under its lease.
    Cluster(LeaseConfig),
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Ownership {
    /// The node id in cluster mode.
    pub fn node_id(&self) -> Option<&str> {
        match self {
            Ownership::Solo => None,
            Ownership::Cluster(c) => Some(&c.node_id),
        }
    }

    /// The lease settings in cluster mode.
    pub fn cluster(&self) -> Option<&LeaseConfig> {
        match self {
            Ownership::Solo => None,
            Ownership::Cluster(c) => Some(c),
        }
    }

    /// Take (or keep) the lease on a game. Always true for a lone node.
    ///
    /// # Errors
    /// A store failure, or a game that is not in the store.
    pub async fn acquire(&self, store: &dyn Store, code: &str) -> Result<bool, StoreError> {
        match self {
            Ownership::Solo => Ok(true),
            Ownership::Cluster(c) => {
                let now = wall_clock_ms();
                store
                    .acquire_lease(code, &c.node_id, now, now.saturating_add(millis(c.ttl)))
                    .await
            }
        }
    }

    /// Give a game's lease back (nothing for a lone node). Best effort: a
    /// lease left behind runs out by itself.
    pub async fn release(&self, store: &dyn Store, code: &str) {
        if let Ownership::Cluster(c) = self {
            if let Err(e) = store.release_lease(code, &c.node_id).await {
                tracing::warn!(code, error = %e, "cannot release a game's lease");
            }
        }
    }

    /// Renew every lease this node holds. Returns the codes it still holds.
    ///
    /// # Errors
    /// A store failure.
    pub async fn renew(&self, store: &dyn Store) -> Result<Vec<String>, StoreError> {
        match self {
            Ownership::Solo => Ok(Vec::new()),
            Ownership::Cluster(c) => {
                let until = wall_clock_ms().saturating_add(millis(c.ttl));
                store.renew_leases(&c.node_id, until).await
            }
        }
    }
}
