//! The heuristic bot: every candidate command is tried on a copy of the
//! game rebuilt from the seat's view (NSH-HID-4), and the position it
//! leads to is scored by material and HQ HP, both as it stands and after
//! the battle that would follow now (simulated on a clone).

use crate::data::{Bonus, Class};
use crate::engine::{idx, NeuroshimaGame};
use crate::types::{Command, Stage};
use citadel_game::{Bot, Game, SeededDice, Seen};
use citadel_hex::{Board19, HEXES};

/// Weight of one HQ hit point against one point of material.
const HQ_WEIGHT: f64 = 3.0;

/// Places, plays and discards by a one-ply static evaluation of the next
/// battle.
#[derive(Debug, Clone, Default)]
pub struct HeuristicBot;

impl HeuristicBot {
    /// A bot.
    pub fn new() -> HeuristicBot {
        HeuristicBot
    }
}

impl NeuroshimaGame {
    /// Answer every pending choice with its default (look-ahead only).
    pub fn settle(&mut self) {
        for _ in 0..64 {
            let seats = self.seats_to_act();
            let pending = matches!(
                self.state.stage,
                Stage::Battle | Stage::Bomb | Stage::PushChoice { .. }
            );
            let Some(seat) = seats.first().copied() else {
                return;
            };
            if !pending {
                return;
            }
            let Some(c) = self.default_command(seat) else {
                return;
            };
            if self
                .apply(citadel_game::Seat(seat), c, &mut SeededDice::new(0))
                .is_err()
            {
                return;
            }
        }
    }

    /// Material and HQ HP from `seat`'s side.
    pub fn material(&self, seat: u8) -> f64 {
        let hp = self.hq_hp();
        let mut score =
            HQ_WEIGHT * (f64::from(hp[usize::from(seat)]) - f64::from(hp[usize::from(1 - seat)]));
        if hp[usize::from(1 - seat)] == 0 {
            score += 1_000.0;
        }
        if hp[usize::from(seat)] == 0 {
            score -= 1_000.0;
        }
        for p in self.state.board.iter().flatten() {
            let k = self.kind(p.tile);
            if k.class == Class::Hq {
                continue;
            }
            let attack: u32 = k
                .edges
                .iter()
                .map(|e| u32::from(e.melee) + u32::from(e.ranged) + 2 * u32::from(e.gauss))
                .sum();
            let init: u32 = k.init.iter().map(|v| u32::from(*v) + 1).sum();
            let support = 2 * k.bonus.len() as u32
                + 3 * u32::from(k.gives(Bonus::Medic))
                + 4 * u32::from(k.is_redirector())
                + 3 * u32::from(k.is_netter());
            let left = f64::from(k.hp.saturating_sub(p.damage)) / f64::from(k.hp.max(1));
            let value = (f64::from(attack) * (1.0 + f64::from(init) / 4.0)
                + f64::from(support)
                + f64::from(k.hp))
                * (0.5 + 0.5 * left);
            if p.tile.seat == seat {
                score += value;
            } else {
                score -= value;
            }
        }
        score
    }

    /// The position's value for `seat`: material now and after a battle
    /// fought now.
    pub fn evaluate(&self, seat: u8, battle_done: bool) -> f64 {
        let now = self.material(seat);
        if battle_done || self.is_finished() {
            return now;
        }
        let mut after = self.clone();
        after.fight();
        0.4 * now + 0.6 * after.material(seat)
    }
}

fn played_battle(c: &Command) -> bool {
    matches!(c, Command::Battle { .. })
}

impl Bot<NeuroshimaGame> for HeuristicBot {
    fn choose(&mut self, seen: &Seen<NeuroshimaGame>) -> Option<Command> {
        let first = seen.legal.first().cloned()?;
        let Some(game) = NeuroshimaGame::from_view(&seen.view) else {
            return Some(first);
        };
        let me = seen.seat.0;
        match &game.state.stage {
            Stage::Hq { .. } => {
                // Near the middle, away from the enemy HQ.
                let enemy = HEXES.iter().copied().find(|h| game.at(*h).is_some());
                seen.legal
                    .iter()
                    .filter(|c| matches!(c, Command::PlaceHq { rotation: 0, .. }))
                    .max_by_key(|c| {
                        let Command::PlaceHq { hex, .. } = c else {
                            return (0, 0);
                        };
                        let room = Board19::neighbours(*hex).count();
                        let far = enemy.map_or(0, |e| e.distance(*hex).min(2));
                        (far, room)
                    })
                    .cloned()
                    .or(Some(first))
            }
            Stage::Battle | Stage::Bomb | Stage::PushChoice { .. } => {
                game.default_command(me).or(Some(first))
            }
            Stage::Discard => {
                // Keep the two tiles whose best use scores highest.
                let mut best: Option<(f64, Command)> = None;
                for c in &seen.legal {
                    let mut g = game.clone();
                    if g.apply(seen.seat, c.clone(), &mut SeededDice::new(0))
                        .is_err()
                    {
                        continue;
                    }
                    let score = best_action(&g, me).map_or(f64::MIN, |(s, _)| s);
                    if best.as_ref().is_none_or(|(b, _)| score > *b) {
                        best = Some((score, c.clone()));
                    }
                }
                best.map(|(_, c)| c).or(Some(first))
            }
            Stage::Action => best_action(&game, me).map(|(_, c)| c).or(Some(first)),
            Stage::Over => None,
        }
    }
}

/// The heuristic's score of each of `legal` for `me`, in `legal`'s
/// order, as [`HeuristicBot`] weighs them: an action by the position it
/// leads to (pending questions answered by default, the next battle
/// fought on a copy), ending the turn or discarding during the action
/// step by the position as it stands, a discard of the discard step by
/// the best action it leaves, a placement on a hex with no neighbour
/// (past the first tiles) and a command that fails far below the rest.
/// `None` outside the discard and action steps.
pub fn command_scores(game: &NeuroshimaGame, me: u8, legal: &[Command]) -> Option<Vec<f64>> {
    match game.state.stage {
        Stage::Discard => Some(
            legal
                .iter()
                .map(|c| {
                    let mut g = game.clone();
                    if g.apply(citadel_game::Seat(me), c.clone(), &mut SeededDice::new(0))
                        .is_err()
                    {
                        return -1e6;
                    }
                    best_action(&g, me).map_or(-1e6, |(s, _)| s)
                })
                .collect(),
        ),
        Stage::Action => {
            let end_score = game.evaluate(me, false);
            let many = game.tile_count() > 2;
            Some(
                legal
                    .iter()
                    .map(|c| {
                        if matches!(c, Command::EndTurn | Command::Discard { .. }) {
                            return end_score;
                        }
                        if let Command::Place { hex, .. } = c {
                            let alone = Board19::neighbours(*hex)
                                .all(|n| idx(n).is_some_and(|i| game.state.board[i].is_none()));
                            if alone && many {
                                return end_score - 50.0;
                            }
                        }
                        let mut g = game.clone();
                        if g.apply(citadel_game::Seat(me), c.clone(), &mut SeededDice::new(0))
                            .is_err()
                        {
                            return -1e6;
                        }
                        g.settle();
                        g.evaluate(me, played_battle(c))
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// The best action of the action step and its score.
fn best_action(game: &NeuroshimaGame, me: u8) -> Option<(f64, Command)> {
    let legal = game.legal_commands(me);
    let end_score = game.evaluate(me, false);
    let mut best: Option<(f64, Command)> = legal
        .iter()
        .find(|c| matches!(c, Command::EndTurn))
        .map(|c| (end_score, c.clone()));
    for c in legal {
        if matches!(c, Command::EndTurn | Command::Discard { .. }) {
            continue;
        }
        // Placing on a hex with no neighbour at all is rarely worth a
        // look: skip the outer hexes far from everything to save time.
        if let Command::Place { hex, .. } = &c {
            let alone = Board19::neighbours(*hex)
                .all(|n| idx(n).is_some_and(|i| game.state.board[i].is_none()));
            if alone && game.tile_count() > 2 {
                continue;
            }
        }
        let mut g = game.clone();
        if g.apply(citadel_game::Seat(me), c.clone(), &mut SeededDice::new(0))
            .is_err()
        {
            continue;
        }
        g.settle();
        let score = g.evaluate(me, played_battle(&c));
        if best.as_ref().is_none_or(|(b, _)| score > *b + 1e-9) {
            best = Some((score, c));
        }
    }
    best
}
