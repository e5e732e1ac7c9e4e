//! Seeded random playouts and the invariants every game keeps: nobody is
//! stuck, tiles are conserved, HQ HP stays in 0..=20, every game ends.

use crate::data::TILES_PER_ARMY;
use crate::engine::HQ_HP;
use crate::types::Options;
use crate::NeuroshimaGame;
use citadel_game::{Dice, Game, Seat, SeededDice};

/// Commands after which a game counts as stuck.
pub const MAX_COMMANDS: usize = 20_000;

/// What one playout saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playout {
    /// Commands applied.
    pub commands: usize,
    /// Battles fought.
    pub battles: usize,
    /// Winner (None: draw).
    pub winner: Option<u8>,
}

/// A broken invariant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("seed {seed} step {step}: {what}")]
pub struct Broken {
    /// Game seed.
    pub seed: u64,
    /// Command count.
    pub step: usize,
    /// What broke.
    pub what: String,
}

/// Check the invariants of a game state.
pub fn check_invariants(g: &NeuroshimaGame) -> Result<(), String> {
    for s in 0..2u8 {
        let p = &g.state.players[usize::from(s)];
        let board = g
            .state
            .board
            .iter()
            .flatten()
            .filter(|t| t.tile.seat == s)
            .count();
        let hq_off = usize::from(!p.hq_placed);
        let n = p.draw.len() + p.hand.len() + p.discard.len() + board + hq_off;
        if n != TILES_PER_ARMY {
            return Err(format!("seat {s} has {n} tiles"));
        }
        if p.hand.len() > 3 {
            return Err(format!("seat {s} holds {} tiles", p.hand.len()));
        }
    }
    let hp = g.hq_hp();
    if hp.iter().any(|h| *h > HQ_HP) {
        return Err(format!("HQ HP {hp:?}"));
    }
    for p in g.state.board.iter().flatten() {
        if p.damage >= g.kind(p.tile).hp {
            return Err(format!("a destroyed tile {} stays", p.tile));
        }
    }
    if !g.is_finished() {
        let to_act = g.to_act();
        if to_act.is_empty() {
            return Err("nobody may act".into());
        }
        for s in to_act {
            if g.legal(s).is_empty() {
                return Err(format!("{s} must act but has no legal command"));
            }
        }
    } else if g.outcome().is_none() {
        return Err("finished without an outcome".into());
    }
    Ok(())
}

/// One random game of `a` against `b`.
///
/// # Errors
/// The first broken invariant.
pub fn playout(
    a: &str,
    b: &str,
    options: Options,
    seed: u64,
    check: bool,
) -> Result<Playout, Broken> {
    let broken = |step: usize, what: String| Broken { seed, step, what };
    let setup = NeuroshimaGame::setup(&options, &[Some(a.into()), Some(b.into())], seed)
        .map_err(|e| broken(0, e.to_string()))?;
    let mut dice = SeededDice::new(seed);
    let (mut g, _) =
        NeuroshimaGame::start(&setup, &mut dice).map_err(|e| broken(0, e.to_string()))?;
    let mut pick = SeededDice::new(seed ^ 0x5eed);
    let mut out = Playout::default();
    while !g.is_finished() {
        if out.commands >= MAX_COMMANDS {
            return Err(broken(out.commands, "the game did not end".into()));
        }
        if check {
            check_invariants(&g).map_err(|w| broken(out.commands, w))?;
        }
        let to_act = g.to_act();
        let seat = to_act
            .get(pick.below(to_act.len().max(1) as u32) as usize)
            .copied()
            .unwrap_or(Seat(0));
        let legal = g.legal(seat);
        let Some(c) = legal
            .get(pick.below(legal.len().max(1) as u32) as usize)
            .cloned()
        else {
            return Err(broken(out.commands, format!("{seat} has no legal command")));
        };
        let ev = g
            .apply(seat, c.clone(), &mut dice)
            .map_err(|r| broken(out.commands, format!("legal {c:?} refused: {r}")))?;
        out.battles += ev
            .iter()
            .filter(|e| matches!(e, crate::Event::BattleStarted { .. }))
            .count();
        out.commands += 1;
    }
    check_invariants(&g).map_err(|w| broken(out.commands, w))?;
    out.winner = g.state.result.and_then(|r| r.winner);
    Ok(out)
}

/// One game of the heuristic bot (on `bot_seat`) against the random bot;
/// the winner (None: draw).
///
/// # Errors
/// A broken game (a bot's command refused).
pub fn bot_game(a: &str, b: &str, bot_seat: u8, seed: u64) -> Result<Option<u8>, Broken> {
    use citadel_game::{Bot, RandomBot, Seen};
    let broken = |step: usize, what: String| Broken { seed, step, what };
    let setup = NeuroshimaGame::setup(&Options::default(), &[Some(a.into()), Some(b.into())], seed)
        .map_err(|e| broken(0, e.to_string()))?;
    let mut dice = SeededDice::new(seed);
    let (mut g, _) =
        NeuroshimaGame::start(&setup, &mut dice).map_err(|e| broken(0, e.to_string()))?;
    let mut smart = crate::HeuristicBot::new();
    let mut random = RandomBot::new(seed);
    let mut step = 0;
    while !g.is_finished() {
        if step >= MAX_COMMANDS {
            return Err(broken(step, "the game did not end".into()));
        }
        let seat = g.to_act().first().copied().unwrap_or(Seat(0));
        let seen = Seen::of(&g, seat);
        let c = if seat.0 == bot_seat {
            smart.choose(&seen)
        } else {
            Bot::<NeuroshimaGame>::choose(&mut random, &seen)
        };
        let c = c.ok_or_else(|| broken(step, "no command".into()))?;
        g.apply(seat, c, &mut dice)
            .map_err(|r| broken(step, r.to_string()))?;
        step += 1;
    }
    Ok(g.state.result.and_then(|r| r.winner))
}

/// One game of two bots, `bots[s]` on seat `s`, armies `a` and `b`; the
/// winner (None: draw). When both seats must answer at once, seat 0
/// answers first.
///
/// # Errors
/// A broken game (a bot without a command, or a command refused).
pub fn duel(
    a: &str,
    b: &str,
    bots: [&mut dyn citadel_game::Bot<NeuroshimaGame>; 2],
    seed: u64,
) -> Result<Option<u8>, Broken> {
    use citadel_game::Seen;
    let broken = |step: usize, what: String| Broken { seed, step, what };
    let setup = NeuroshimaGame::setup(&Options::default(), &[Some(a.into()), Some(b.into())], seed)
        .map_err(|e| broken(0, e.to_string()))?;
    let mut dice = SeededDice::new(seed);
    let (mut g, _) =
        NeuroshimaGame::start(&setup, &mut dice).map_err(|e| broken(0, e.to_string()))?;
    let [zero, one] = bots;
    let mut step = 0;
    while !g.is_finished() {
        if step >= MAX_COMMANDS {
            return Err(broken(step, "the game did not end".into()));
        }
        let seat = g.to_act().first().copied().unwrap_or(Seat(0));
        let seen = Seen::of(&g, seat);
        let c = if seat.0 == 0 {
            zero.choose(&seen)
        } else {
            one.choose(&seen)
        };
        let c = c.ok_or_else(|| broken(step, format!("{seat} has no command")))?;
        g.apply(seat, c, &mut dice)
            .map_err(|r| broken(step, r.to_string()))?;
        step += 1;
    }
    Ok(g.state.result.and_then(|r| r.winner))
}
