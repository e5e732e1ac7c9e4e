//! The search: information-set UCT over determinizations.
//!
//! One tree for the searching seat's information set (OpenSpiel's
//! `is_mcts.h` with a single tree): a node is a sequence of commands from
//! now, not a game state, since the games dealt in different iterations
//! differ in what the seat cannot see. A node's children are filed by
//! the acting seat and the command's key ([`Policy::key`]); in each
//! iteration only the children whose command is legal in that
//! iteration's deal are candidates, and UCT counts, for each child, the
//! visits of its parent in which it was available (ISMCTS's
//! "availability" counts) instead of all of the parent's visits.
//!
//! Several seats may act at once (`to_act` lists more than one): the
//! tree lets them act in turn, the searching seat first at the root and
//! `to_act`'s first seat below. A seat deeper in the tree may thus react
//! to a simultaneous command it would not see; that is the usual
//! simplification of ISMCTS and costs only accuracy.

use crate::policy::Policy;
use crate::reward::rewards;
use citadel_game::{Dice, Game, Seat, SeededDice, Seen};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long to think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations (one deal, one walk down, one playout
    /// each): the same choice for the same seed, whatever the machine.
    Playouts(u32),
    /// Iterate until this much wall time has passed (at least one
    /// iteration), then play the best so far.
    Time(Duration),
}

/// The search's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// How long to think.
    pub budget: Budget,
    /// UCT's exploration constant `c` in `mean + c √(ln n / nᵢ)`, for
    /// rewards in `[0, 1]`.
    pub exploration: f64,
    /// Playout commands after which the game's evaluation
    /// ([`Policy::evaluate`]) is asked; `None` plays out to the end.
    pub horizon: Option<u32>,
    /// Playout commands after which a game that has not ended counts as
    /// even (a game whose random playouts may not end).
    pub max_playout: u32,
    /// Nodes at most; past it the tree stops growing and iterations
    /// play out from its leaves.
    pub max_nodes: usize,
    /// Progressive widening below the root, `(k, a)`: a node visited `n`
    /// times grows a new child only while it has fewer than `k (n+1)^a`
    /// children, and otherwise chooses among the children it has that
    /// are legal in this deal. Where every deal brings new commands (an
    /// opponent's freshly drawn tiles), plain expansion adds a child at
    /// every visit and the node's value becomes the mean over untried
    /// replies instead of the best one. `None`: expand whenever a legal
    /// command has no child (plain ISMCTS).
    pub widening: Option<(f64, f64)>,
    /// Select by PUCT with the game's prior ([`Policy::prior`]) instead
    /// of UCT, at the root and at every node visited at least
    /// [`PriorConfig::after`] times. `None`: UCT everywhere (and the
    /// prior is never asked).
    pub prior: Option<PriorConfig>,
}

/// PUCT with the game's prior: a node whose prior is known gives every
/// command legal in the deal a child at once, and selects the child with
/// the largest `Q + c P √n / (1 + nᵢ)`, where `P` is the command's
/// normalized prior, `n` the visits of the node in which the child was
/// available, and `Q` the child's mean reward for its mover (for a child
/// not yet visited, the mean of its visited siblings, or ½). The first
/// visit of a child is the iteration's new node. Commands a later deal
/// brings (an opponent's new tiles) get an even share, `1 / legal`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PriorConfig {
    /// PUCT's `c`, for rewards in `[0, 1]`.
    pub exploration: f64,
    /// Visits a node other than the root needs before its prior is asked
    /// (the prior may cost as much as many iterations); before, it
    /// selects by UCT and expands at random.
    pub after: u32,
}

impl SearchConfig {
    /// `budget` with the defaults: `c` = 1.0, no horizon, playouts cut
    /// at 10,000 commands, a million nodes.
    pub fn new(budget: Budget) -> Self {
        SearchConfig {
            budget,
            exploration: 1.0,
            horizon: None,
            max_playout: 10_000,
            max_nodes: 1_000_000,
            widening: None,
            prior: None,
        }
    }
}

/// What the last search did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Iterations (playouts) run.
    pub playouts: u32,
    /// Commands applied in playouts (below the tree).
    pub playout_commands: u64,
    /// Nodes in the tree at the end.
    pub nodes: usize,
    /// Commands on the longest walk down the tree (the new node's
    /// included).
    pub depth: u32,
    /// Wall time spent.
    pub elapsed: Duration,
    /// Visits of the command chosen.
    pub chosen_visits: u32,
    /// Its mean reward for the searching seat.
    pub chosen_value: f64,
}

#[derive(Clone, Debug)]
struct Node {
    /// The seat whose command leads here.
    mover: Seat,
    /// Visits through this node.
    visits: u32,
    /// Sum of the mover's rewards over those visits.
    total: f64,
    /// Visits of the parent in which this node's command was legal.
    available: u32,
    /// `(mover, key, node)`, sorted by `(mover, key)`.
    children: Vec<(u8, u64, u32)>,
    /// This node's prior as its parent's child (normalized); negative
    /// until the parent asks the prior (an even share meanwhile).
    prior: f64,
    /// Whether this node asked the prior: it then selects by PUCT.
    priored: bool,
    /// The children of the last list of commands looked up here, in its
    /// order ([`NO_CHILD`] for none), and that list's fingerprint (0:
    /// none): the next deal usually allows the same commands.
    slots: Vec<u32>,
    slots_of: u64,
}

const NO_CHILD: u32 = u32::MAX;

/// A fingerprint of a seat's list of command keys, never 0.
fn fingerprint(seat: Seat, keys: &[u64]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(seat.0);
    for k in keys {
        h = (h.rotate_left(23) ^ k).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^ keys.len() as u64 | 1
}

impl Node {
    fn new(mover: Seat) -> Node {
        Node {
            mover,
            visits: 0,
            total: 0.0,
            available: 0,
            children: Vec::new(),
            prior: -1.0,
            priored: false,
            slots: Vec::new(),
            slots_of: 0,
        }
    }

    fn insert(&mut self, mover: Seat, key: u64, id: u32) {
        let pos = self
            .children
            .binary_search_by(|(m, k, _)| (*m, *k).cmp(&(mover.0, key)))
            .unwrap_or_else(|p| p);
        self.children.insert(pos, (mover.0, key, id));
        self.slots_of = 0;
    }

    /// File in `slots` the children of `keys` (the commands `mover` may
    /// play), in their order.
    fn lookup(&mut self, mover: Seat, keys: &[u64]) {
        let of = fingerprint(mover, keys);
        if self.slots_of != of {
            let mut slots = std::mem::take(&mut self.slots);
            slots.clear();
            slots.extend(
                keys.iter()
                    .map(|k| self.child(mover, *k).unwrap_or(NO_CHILD)),
            );
            self.slots = slots;
            self.slots_of = of;
        }
    }

    fn child(&self, mover: Seat, key: u64) -> Option<u32> {
        self.children
            .binary_search_by(|(m, k, _)| (*m, *k).cmp(&(mover.0, key)))
            .ok()
            .map(|i| self.children[i].2)
    }
}

/// The search bot: the same for every game, given the game's
/// [`Policy`].
pub struct SearchBot<G: Game> {
    config: SearchConfig,
    policy: Arc<dyn Policy<G>>,
    rng: SeededDice,
    last: Option<SearchStats>,
    totals: SearchTotals,
}

/// What all of a bot's searches did: for reports of playouts per
/// second.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchTotals {
    /// Searches run (choices with two or more legal commands).
    pub searches: u64,
    /// Playouts over all of them.
    pub playouts: u64,
    /// Wall time over all of them.
    pub elapsed: Duration,
}

impl SearchTotals {
    /// Playouts per second of search, 0 before any.
    pub fn playouts_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.playouts as f64 / secs
        } else {
            0.0
        }
    }
}

impl<G: Game> fmt::Debug for SearchBot<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchBot")
            .field("config", &self.config)
            .field("policy", &self.policy)
            .field("last", &self.last)
            .field("totals", &self.totals)
            .finish_non_exhaustive()
    }
}

impl<G: Game> SearchBot<G> {
    /// A bot that searches with `config` and `policy`, its deals and
    /// playouts drawn from `seed`.
    pub fn new(config: SearchConfig, policy: Arc<dyn Policy<G>>, seed: u64) -> Self {
        SearchBot {
            config,
            policy,
            rng: SeededDice::new(seed),
            last: None,
            totals: SearchTotals::default(),
        }
    }

    /// The settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// What the last search did (`None` before the first, or when the
    /// last choice needed none: a single legal command).
    pub fn last_stats(&self) -> Option<SearchStats> {
        self.last
    }

    /// What all searches so far did.
    pub fn totals(&self) -> SearchTotals {
        self.totals
    }

    /// Search from what `seen` shows and return the command to play with
    /// what the search did; `None` when the seat has no legal command.
    pub fn search(&mut self, seen: &Seen<'_, G>) -> Option<(G::Command, SearchStats)> {
        let start = Instant::now();
        let first = seen.legal.first()?;
        if seen.legal.len() == 1 {
            return Some((first.clone(), SearchStats::default()));
        }
        let root_keys: Vec<u64> = seen.legal.iter().map(|c| self.policy.key(c)).collect();
        let mut nodes = vec![Node::new(seen.seat)];
        let mut stats = SearchStats::default();
        loop {
            let done = match self.config.budget {
                Budget::Playouts(n) => stats.playouts >= n.max(1),
                Budget::Time(t) => stats.playouts > 0 && start.elapsed() >= t,
            };
            if done {
                break;
            }
            let game = seen.sample(&mut self.rng);
            let (commands, depth) = self.iterate(&mut nodes, game, seen, &root_keys);
            stats.playout_commands += commands;
            stats.depth = stats.depth.max(depth);
            stats.playouts += 1;
        }
        stats.nodes = nodes.len();
        stats.elapsed = start.elapsed();
        self.totals.searches += 1;
        self.totals.playouts += u64::from(stats.playouts);
        self.totals.elapsed += stats.elapsed;
        // The most visited root command; ties go to the better mean, then
        // to the earlier legal command.
        let mut best: Option<(usize, u32, f64)> = None;
        for (i, key) in root_keys.iter().enumerate() {
            let Some(c) = nodes[0].child(seen.seat, *key) else {
                continue;
            };
            let n = &nodes[c as usize];
            let mean = if n.visits > 0 {
                n.total / f64::from(n.visits)
            } else {
                0.0
            };
            if best.is_none_or(|(_, v, m)| n.visits > v || (n.visits == v && mean > m)) {
                best = Some((i, n.visits, mean));
            }
        }
        let (i, visits, value) = best.unwrap_or((0, 0, 0.0));
        stats.chosen_visits = visits;
        stats.chosen_value = value;
        seen.legal.get(i).map(|c| (c.clone(), stats))
    }

    /// One iteration on the deal `game`: down the tree, one new node, a
    /// playout, rewards backed up. Returns the playout's commands and
    /// the walk's length.
    fn iterate(
        &mut self,
        nodes: &mut Vec<Node>,
        mut game: G,
        seen: &Seen<'_, G>,
        root_keys: &[u64],
    ) -> (u64, u32) {
        let mut path: Vec<u32> = vec![0];
        let mut at = 0usize;
        let mut candidates: Vec<(usize, u32)> = Vec::new();
        let mut untried: Vec<usize> = Vec::new();
        loop {
            if game.is_finished() {
                break;
            }
            let (seat, owned, keys): (Seat, Vec<G::Command>, Vec<u64>) = if at == 0 {
                (seen.seat, Vec::new(), Vec::new())
            } else {
                let Some(seat) = game.to_act().first().copied() else {
                    break;
                };
                let legal = game.legal(seat);
                let keys = legal.iter().map(|c| self.policy.key(c)).collect();
                (seat, legal, keys)
            };
            let (legal, keys) = if at == 0 {
                (seen.legal.as_slice(), root_keys)
            } else {
                (owned.as_slice(), keys.as_slice())
            };
            if legal.is_empty() {
                break;
            }
            if let Some(prior) = self.config.prior {
                self.prepare_prior(nodes, at, &game, seat, legal, keys, prior.after);
            }
            candidates.clear();
            untried.clear();
            nodes[at].lookup(seat, keys);
            let slots = std::mem::take(&mut nodes[at].slots);
            for (i, c) in slots.iter().enumerate() {
                if *c == NO_CHILD {
                    untried.push(i);
                } else {
                    nodes[*c as usize].available += 1;
                    candidates.push((i, *c));
                }
            }
            nodes[at].slots = slots;
            let room = match self.config.widening {
                Some((k, a)) if at != 0 && !candidates.is_empty() => {
                    let node = &nodes[at];
                    (node.children.len() as f64) < k * (f64::from(node.visits) + 1.0).powf(a)
                }
                _ => true,
            };
            let puct = self.config.prior.filter(|_| nodes[at].priored);
            if let Some(prior) = puct {
                // PUCT over every available child (the new node is the
                // first visit of one).
                let mut sum = 0.0;
                let mut seen_children = 0u32;
                for (_, id) in &candidates {
                    let n = &nodes[*id as usize];
                    if n.visits > 0 {
                        sum += n.total / f64::from(n.visits);
                        seen_children += 1;
                    }
                }
                let fpu = if seen_children > 0 {
                    sum / f64::from(seen_children)
                } else {
                    0.5
                };
                let share = 1.0 / legal.len() as f64;
                let mut pick: Option<(usize, u32, f64)> = None;
                for (i, id) in &candidates {
                    let n = &nodes[*id as usize];
                    let q = if n.visits > 0 {
                        n.total / f64::from(n.visits)
                    } else {
                        fpu
                    };
                    let p = if n.prior >= 0.0 { n.prior } else { share };
                    let score = q + prior.exploration * p * f64::from(n.available).sqrt()
                        / (1.0 + f64::from(n.visits));
                    if pick.is_none_or(|(_, _, s)| score > s) {
                        pick = Some((*i, *id, score));
                    }
                }
                let Some((i, id, _)) = pick else {
                    break;
                };
                if game.apply(seat, legal[i].clone(), &mut self.rng).is_err() {
                    break;
                }
                path.push(id);
                if nodes[id as usize].visits == 0 {
                    break;
                }
                at = id as usize;
                continue;
            }
            if !untried.is_empty() && room && nodes.len() < self.config.max_nodes {
                // Expand: one untried command, at random.
                let i = untried[self.rng.below(untried.len() as u32) as usize];
                if game.apply(seat, legal[i].clone(), &mut self.rng).is_err() {
                    break;
                }
                let id = nodes.len() as u32;
                let mut node = Node::new(seat);
                node.available = 1;
                nodes.push(node);
                nodes[at].insert(seat, keys[i], id);
                path.push(id);
                break;
            }
            // Select by UCT over the available children.
            let c = self.config.exploration;
            let mut pick: Option<(usize, u32, f64)> = None;
            for (i, id) in &candidates {
                let n = &nodes[*id as usize];
                let score = if n.visits == 0 {
                    f64::INFINITY
                } else {
                    let visits = f64::from(n.visits);
                    n.total / visits + c * (f64::from(n.available.max(1)).ln() / visits).sqrt()
                };
                if pick.is_none_or(|(_, _, s)| score > s) {
                    pick = Some((*i, *id, score));
                }
            }
            let Some((i, id, _)) = pick else {
                break;
            };
            if game.apply(seat, legal[i].clone(), &mut self.rng).is_err() {
                break;
            }
            path.push(id);
            at = id as usize;
        }
        let (reward, commands) = self.playout(&mut game);
        let depth = (path.len() - 1) as u32;
        for id in path {
            let n = &mut nodes[id as usize];
            n.visits += 1;
            n.total += reward.get(usize::from(n.mover.0)).copied().unwrap_or(0.5);
        }
        (commands, depth)
    }

    /// At a node that selects by PUCT (or is about to: the root, or a node
    /// visited `after` times), make sure every command legal in this deal
    /// has a child; ask the prior the first time and file it on the
    /// children.
    #[allow(clippy::too_many_arguments)]
    fn prepare_prior(
        &self,
        nodes: &mut Vec<Node>,
        at: usize,
        game: &G,
        seat: Seat,
        legal: &[G::Command],
        keys: &[u64],
        after: u32,
    ) {
        if !nodes[at].priored {
            if at != 0 && nodes[at].visits < after {
                return;
            }
            let Some(weights) = self.policy.prior(game, seat, legal) else {
                return;
            };
            if weights.len() != legal.len() {
                return;
            }
            let total: f64 = weights.iter().map(|w| w.max(0.0)).sum();
            if !(total > 0.0 && total.is_finite()) {
                return;
            }
            nodes[at].priored = true;
            for (key, w) in keys.iter().zip(&weights) {
                let p = w.max(0.0) / total;
                match nodes[at].child(seat, *key) {
                    Some(c) => nodes[c as usize].prior = p,
                    None if nodes.len() < self.config.max_nodes => {
                        let id = nodes.len() as u32;
                        let mut node = Node::new(seat);
                        node.prior = p;
                        nodes.push(node);
                        nodes[at].insert(seat, *key, id);
                    }
                    None => {}
                }
            }
            return;
        }
        // Commands this deal brings: an even share.
        for key in keys {
            if nodes[at].child(seat, *key).is_none() && nodes.len() < self.config.max_nodes {
                let id = nodes.len() as u32;
                nodes.push(Node::new(seat));
                nodes[at].insert(seat, *key, id);
            }
        }
    }

    /// Play `game` on with the policy to its end or the horizon: every
    /// seat's reward, and the commands played.
    fn playout(&mut self, game: &mut G) -> (Vec<f64>, u64) {
        let mut steps: u32 = 0;
        loop {
            if game.is_finished() {
                let r = game.outcome().map(|o| rewards(&o)).unwrap_or_default();
                return (r, u64::from(steps));
            }
            if self.config.horizon.is_some_and(|h| steps >= h) {
                if let Some(values) = self.policy.evaluate(game) {
                    return (values, u64::from(steps));
                }
            }
            if steps >= self.config.max_playout {
                break;
            }
            let Some(seat) = game.to_act().first().copied() else {
                break;
            };
            let Some(command) = self.policy.playout(game, seat, &mut self.rng) else {
                break;
            };
            if game.apply(seat, command, &mut self.rng).is_err() {
                break;
            }
            steps += 1;
        }
        // No end and no evaluation: even for everyone (an empty reward
        // list reads as 0.5 for every seat).
        (Vec::new(), u64::from(steps))
    }
}

impl<G: Game> citadel_game::Bot<G> for SearchBot<G> {
    fn choose(&mut self, seen: &Seen<'_, G>) -> Option<G::Command> {
        let (command, stats) = self.search(seen)?;
        self.last = (stats.playouts > 0).then_some(stats);
        Some(command)
    }
}
