//! Random playouts and invariant checks, shared by `citadel-sim`, the
//! property tests and the benchmarks.

use crate::dice::{Dice, SeededDice};
use crate::game::{Command, Event, Game, MissionResult, Place, Seat, Setup, Side, Viewer};
use std::collections::HashSet;

/// How one playout went.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Playout {
    /// The final game.
    pub game: Game,
    /// Commands applied.
    pub commands: usize,
    /// Every (seat, command, events) in order.
    pub log: Vec<(Seat, Command, Vec<Event>)>,
    /// Invariant violations found along the way.
    pub violations: Vec<String>,
    /// The game ended within the command budget.
    pub finished: bool,
}

/// Play one game with a uniformly random legal command for whoever must
/// act. The bots' choices use their own generator seeded from `seed`, so
/// a playout is a pure function of `(setup, seed)`.
///
/// # Errors
/// The setup's error, if it is refused.
pub fn random_playout(
    setup: Setup,
    seed: u64,
    max_commands: usize,
    keep_log: bool,
) -> Result<Playout, crate::game::SetupError> {
    let content = crate::content::Content::embedded()
        .map_err(|e| crate::game::SetupError::Content(e.to_string()))?;
    random_playout_with(content, setup, seed, max_commands, keep_log)
}

/// [`random_playout`] with replacement content.
///
/// # Errors
/// The setup's error, if it is refused.
pub fn random_playout_with(
    content: &crate::content::Content,
    setup: Setup,
    seed: u64,
    max_commands: usize,
    keep_log: bool,
) -> Result<Playout, crate::game::SetupError> {
    let mut dice = SeededDice::new(seed);
    let mut bot = SeededDice::new(seed ^ 0x5eed_b075);
    let (mut game, start_events) = Game::with_content(setup.with_seed(seed), content, &mut dice)?;
    let mut violations = Vec::new();
    let mut pp = PpLedger::new(&game);
    pp.record(&start_events);
    let mut log = Vec::new();
    let mut commands = 0;
    while !game.is_finished() && commands < max_commands {
        let Some(seat) = game.seat_to_act() else {
            violations.push("no seat to act in an unfinished game (stuck)".into());
            break;
        };
        let legal = game.legal(seat);
        if legal.is_empty() {
            violations.push(format!("seat {} must act but has no legal command", seat.0));
            break;
        }
        let cmd = legal[bot.below(legal.len() as u32) as usize].clone();
        match game.apply(seat, cmd.clone(), &mut dice) {
            Ok(events) => {
                pp.record(&events);
                if keep_log {
                    log.push((seat, cmd, events));
                }
            }
            Err(r) => {
                violations.push(format!("legal command rejected: {cmd:?} -> {r:?}"));
                break;
            }
        }
        commands += 1;
        if let Err(v) = check_invariants(&game) {
            violations.push(v);
            break;
        }
        if let Err(v) = pp.check(&game) {
            violations.push(v);
            break;
        }
    }
    let finished = game.is_finished();
    Ok(Playout {
        game,
        commands,
        log,
        violations,
        finished,
    })
}

/// Tracks PP from events, to check they match the state.
#[derive(Debug)]
struct PpLedger {
    teams: Vec<i32>,
    dl: i32,
}

impl PpLedger {
    fn new(game: &Game) -> Self {
        let v = game.view(Viewer::Spectator);
        PpLedger {
            teams: v.teams.iter().map(|t| t.pp).collect(),
            dl: v.dark_legion.pp,
        }
    }

    fn record(&mut self, events: &[Event]) {
        for e in events {
            if let Event::PromotionPoints { side, total, .. } = e {
                match side {
                    Side::DarkLegion => self.dl = *total,
                    Side::Team(t) => self.teams[usize::from(*t)] = *total,
                }
            }
        }
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        let v = game.view(Viewer::Spectator);
        let teams: Vec<i32> = v.teams.iter().map(|t| t.pp).collect();
        if teams != self.teams || v.dark_legion.pp != self.dl {
            return Err(format!(
                "PP differ from events: state {teams:?}/{} events {:?}/{}",
                v.dark_legion.pp, self.teams, self.dl
            ));
        }
        Ok(())
    }
}

/// The invariants every reachable state keeps: one figure per square,
/// figures only on passable on-board squares and never on blocking
/// tokens, health in range, at most 4 actions, PP never negative.
///
/// # Errors
/// A description of the first broken invariant.
pub fn check_invariants(game: &Game) -> Result<(), String> {
    let v = game.view(Viewer::Spectator);
    let board = game.board();
    let mut seen = HashSet::new();
    for f in &v.figures {
        if let Place::Board { square } = f.place {
            if !seen.insert(square) {
                return Err(format!("two figures on {square}"));
            }
            if !board.passable(square) {
                return Err(format!("{} on impassable {square}", f.name));
            }
            if game.figure_at(square) != Some(f.id) {
                return Err(format!("occupancy grid disagrees at {square}"));
            }
        }
        let is_dt = matches!(f.kind, crate::game::FigureKind::Doomtrooper { .. });
        if is_dt {
            if f.health > 5 {
                return Err(format!("{} has health {}", f.name, f.health));
            }
            if matches!(f.place, Place::Board { .. } | Place::Waiting { .. }) && f.health == 0 {
                return Err(format!("{} in play with 0 health", f.name));
            }
            if f.actions_used > 4 || f.actions_allowed > 4 {
                return Err(format!(
                    "{} has {} of {} actions",
                    f.name, f.actions_used, f.actions_allowed
                ));
            }
        }
    }
    for t in &v.tokens {
        if let Some(f) = game.figure_at(t.square) {
            if t.kind.blocking() {
                return Err(format!("figure {} on blocking token", f.0));
            }
        }
    }
    if v.teams.iter().any(|t| t.pp < 0) || v.dark_legion.pp < 0 {
        return Err("negative PP".into());
    }
    game.two_use_cards_conserved()
}

/// Who won a finished playout, as `(corporations won, DL won)`.
pub fn winners(events: &[Event]) -> Option<(bool, bool, MissionResult)> {
    events.iter().rev().find_map(|e| match e {
        Event::MissionEnded {
            winners,
            dl_wins,
            result,
        } => Some((!*dl_wins && !winners.is_empty(), *dl_wins, *result)),
        _ => None,
    })
}
