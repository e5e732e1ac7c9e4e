//! Reaction windows (ce.md DTC-CE-3, DTC-CE-4; classic CDT-1) by
//! suspension and replay: the machinery both editions share. Which cards
//! answer a window is each edition's: the CE Doomtrooper cards in
//! `ce/reaction.rs`, the 1993 two-use cards in `classic/two_use.rs`.
//!
//! A window can open deep inside a command: a DL attack's roll, a trap on
//! the third step of a move, a bomb at the start of the DL turn. Rather
//! than make every procedure resumable, the game keeps the state from
//! before the command, records every raw dice draw, and when a window
//! must wait for its owner it goes back to that state and asks. Once the
//! owner answers, the same command runs again from the same state with
//! the recorded draws first, so everything up to the window happens
//! exactly as before, and the answer is applied at the window.
//!
//! Windows open only on public facts (the owner holds at least one card,
//! may still play one, and the roll could matter), so asking reveals
//! nothing about the hand.
//!
//! The state from before the command is not cloned before every command
//! that could open a window (a quarter of a 1993 game's commands, where a
//! clone cost a tenth of the command): windows are rare (13 in 25,272
//! commands of 256 random classic-m1 games, 176 in 35,309 of C1M1), so
//! the game keeps a [`Checkpoint`] — its state some commands back and the
//! runs since, each with its recorded draws and answers — and rebuilds the
//! state from before the command from it only when a window opens. In a
//! debug build that rebuilt state is checked against a real clone.

use super::command::Command;
use super::event::{DieRoll, Event};
use super::ids::{FigureId, Seat};
use super::rejection::Rejection;
use super::state::{Decision, Game, Pending};
use crate::dice::Dice;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt;

/// Runs a checkpoint keeps before the next command takes a fresh one:
/// the cost of a clone spread over this many commands, against replaying
/// up to this many when a window opens.
const CHECKPOINT_RUNS: usize = 64;

/// The state of the game some commands back, and every run of a command
/// since (see the module documentation). Replaying the runs on the state
/// gives the game as it is now; only [`Game::run_command`] changes the
/// game while a checkpoint is kept, and the other changes of a game
/// (`settle`, `scramble_hidden`) drop it. A clone of a game does not
/// carry it, so the clone of a checkpoint is empty.
#[derive(Default)]
pub(crate) struct Checkpoint(Option<Box<CheckpointData>>);

struct CheckpointData {
    state: Game,
    runs: Vec<LoggedRun>,
}

/// One run of a command, as `run_command` ran it.
struct LoggedRun {
    seat: Seat,
    command: Command,
    draws: Vec<u32>,
    answers: Vec<Option<usize>>,
}

impl Checkpoint {
    /// Forget the checkpoint (the game changed outside `run_command`).
    pub(crate) fn drop_it(&mut self) {
        self.0 = None;
    }
}

impl Clone for Checkpoint {
    fn clone(&self) -> Checkpoint {
        Checkpoint(None)
    }
}

impl fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(data) => write!(f, "Checkpoint({} runs)", data.runs.len()),
            None => f.write_str("Checkpoint(none)"),
        }
    }
}

/// Dice for a replay whose draws are all recorded: asked for more, it
/// gives 0 (a debug build's check of the rebuilt state would then fail).
#[derive(Debug)]
struct NoMoreDraws;

impl Dice for NoMoreDraws {
    fn below(&mut self, _n: u32) -> u32 {
        0
    }
}

/// When a reaction may be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// A DL attack on the owner's DT was rolled (Combat Aura; Dud Round
    /// against firearms).
    DlAttackRolled {
        /// The attack was a firearm attack.
        firearm: bool,
    },
    /// Damage would bring the owner's DT to 0 health (Last Stand).
    Lethal,
    /// The owner's own attack was rolled (Heroic Luck).
    OwnAttackRolled,
    /// Classic CDT-1: the player's own attack on a DL figure was rolled
    /// and does not already beat its AF (Heroic Luck, Weak Spot).
    CardOwnAttack,
    /// Classic CDT-1: a firearm attack rolled enough hits to wound a DT
    /// (Dud Round); every player holding a 1993 card is asked in turn.
    CardDtHit,
}

/// A command waiting for a reaction answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suspended {
    /// Who sent it.
    pub seat: Seat,
    /// What.
    pub command: Command,
    /// Raw dice draws of the runs so far, to replay.
    pub draws: Vec<u32>,
    /// Answers given so far, in window order.
    pub answers: Vec<Option<usize>>,
}

/// Window bookkeeping during one run of a command.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ReactionRun {
    answers: Vec<Option<usize>>,
    next: usize,
    waiting: Option<Pending>,
}

impl ReactionRun {
    /// A window of this run waits for its owner.
    pub(crate) fn waiting_for_answer(&self) -> bool {
        self.waiting.is_some()
    }
}

/// Replays recorded draws, then draws fresh ones, recording all.
#[derive(Debug)]
struct ReplayDice<'a> {
    inner: &'a mut dyn Dice,
    replay: VecDeque<u32>,
    log: Vec<u32>,
    frozen: bool,
}

impl Dice for ReplayDice<'_> {
    fn freeze(&mut self) {
        self.frozen = true;
    }

    fn below(&mut self, n: u32) -> u32 {
        if self.frozen {
            return 0;
        }
        let v = match self.replay.pop_front() {
            Some(v) => v.min(n.saturating_sub(1)),
            None => self.inner.below(n),
        };
        self.log.push(v);
        v
    }
}

impl CheckpointData {
    /// The game as it is now: the state, with every run replayed on it
    /// (the same draws, the same answers, so the same game).
    fn rebuild(self) -> Game {
        let mut game = self.state;
        let mut no_more = NoMoreDraws;
        for run in self.runs {
            let mut dice = ReplayDice {
                inner: &mut no_more,
                replay: run.draws.into(),
                log: Vec::new(),
                frozen: false,
            };
            // Each run succeeded once from this very state.
            let _ = game.run_once(
                run.seat,
                run.command,
                &mut dice,
                run.answers,
                &mut Vec::new(),
            );
        }
        game
    }
}

impl Game {
    /// Run a command: check, apply, advance; suspend it if a reaction
    /// window must wait for its owner.
    pub(crate) fn run_command(
        &mut self,
        seat: Seat,
        command: Command,
        dice: &mut dyn Dice,
        draws: Vec<u32>,
        answers: Vec<Option<usize>>,
    ) -> Result<Vec<Event>, Rejection> {
        // Only a game where someone holds a card can open a window; only
        // then is a checkpoint kept.
        let cards_held = self
            .teams
            .iter()
            .any(|t| !t.hand.is_empty() || !t.cards.is_empty());
        if !cards_held {
            self.checkpoint.drop_it();
        } else if self.checkpoint.0.is_none() {
            self.checkpoint.0 = Some(Box::new(CheckpointData {
                state: self.clone(),
                runs: Vec::new(),
            }));
        }
        #[cfg(debug_assertions)]
        let expected_before = cards_held.then(|| self.clone());
        let mut dice = ReplayDice {
            inner: dice,
            replay: draws.into(),
            log: Vec::new(),
            frozen: false,
        };
        let mut events = Vec::new();
        let run = self.run_once(seat, command.clone(), &mut dice, answers, &mut events)?;
        let Some(waiting) = run.waiting else {
            if let Some(data) = &mut self.checkpoint.0 {
                data.runs.push(LoggedRun {
                    seat,
                    command,
                    draws: dice.log,
                    answers: run.answers,
                });
                if data.runs.len() >= CHECKPOINT_RUNS {
                    self.checkpoint.drop_it();
                }
            }
            return Ok(events);
        };
        let Some(data) = self.checkpoint.0.take() else {
            return Ok(events);
        };
        let team = match &waiting.decision {
            Decision::Reaction { team, .. } => *team,
            _ => 0,
        };
        let before = data.rebuild();
        #[cfg(debug_assertions)]
        if let Some(expected) = expected_before {
            // The state as stored (the board included, by its layout
            // changes), the grid of figures and the board itself; not the
            // rules' memos, which a replay of event 11 starts empty.
            let stored = |g: &Game| serde_json::to_string(g).unwrap_or_default();
            assert!(
                stored(&before) == stored(&expected)
                    && before.occupancy == expected.occupancy
                    && before.rules.board == expected.rules.board,
                "the checkpoint's replay differs from the game before the command: \
                 was the game changed outside run_command while a checkpoint was kept?\n\
                 replayed: {}\nexpected: {}",
                stored(&before),
                stored(&expected)
            );
        }
        *self = before;
        self.suspended = Some(Box::new(Suspended {
            seat,
            command,
            draws: dice.log,
            answers: run.answers,
        }));
        self.pending.push_front(waiting);
        Ok(vec![Event::ReactionOffered { team }])
    }

    /// One run of `command`: the command, then the automatic steps after
    /// it. Returns the run's window bookkeeping (waiting, answers used).
    fn run_once(
        &mut self,
        seat: Seat,
        command: Command,
        dice: &mut ReplayDice<'_>,
        answers: Vec<Option<usize>>,
        events: &mut Vec<Event>,
    ) -> Result<ReactionRun, Rejection> {
        self.reaction = ReactionRun {
            answers,
            next: 0,
            waiting: None,
        };
        self.dispatch(seat, command, dice, events)?;
        self.advance(dice, events);
        Ok(std::mem::take(&mut self.reaction))
    }

    /// Answer a reaction window and resume the suspended command.
    pub(crate) fn answer_reaction(
        &mut self,
        seat: Seat,
        command: Command,
        dice: &mut dyn Dice,
    ) -> Result<Vec<Event>, Rejection> {
        let Some(head) = self.pending.front() else {
            return Err(Rejection::NoSuchDecision);
        };
        if head.seat != seat {
            return Err(Rejection::NotYourTurn);
        }
        let options = self.decision_options(&head.decision);
        if !options.contains(&command) {
            return Err(if matches!(command, Command::React { .. }) {
                Rejection::InvalidChoice
            } else {
                Rejection::DecisionPending
            });
        }
        let Command::React { card } = command else {
            return Err(Rejection::DecisionPending);
        };
        let Some(s) = self.suspended.take() else {
            return Err(Rejection::NoSuchDecision);
        };
        self.pending.pop_front();
        let mut answers = s.answers;
        answers.push(card);
        self.run_command(s.seat, s.command, dice, s.draws, answers)
    }

    /// The answer already given to the next window of this run (a hand
    /// index, or `None` for a pass), or `None` when the run must stop and
    /// ask `team`'s player (the run is then marked waiting).
    pub(crate) fn reaction_answer(
        &mut self,
        team: u8,
        figure: FigureId,
        window: Window,
        roll: &[DieRoll],
        dice: &mut dyn Dice,
    ) -> Option<Option<usize>> {
        if self.reaction.waiting.is_some() {
            return None; // This run will be discarded anyway.
        }
        if let Some(a) = self.reaction.answers.get(self.reaction.next) {
            self.reaction.next += 1;
            return Some(*a);
        }
        self.reaction.waiting = Some(Pending {
            seat: self.teams[usize::from(team)].seat,
            decision: Decision::Reaction {
                team,
                figure,
                window,
                dice: roll.to_vec(),
            },
        });
        dice.freeze();
        None
    }

    /// The answers to a reaction window: pass first (CONV-8 declines every
    /// "may"), then each card in hand that fits — a 1993 two-use card for
    /// the 1993 windows, a CE Doomtrooper card for the others.
    pub(crate) fn reaction_options(&self, team: u8, window: Window) -> Vec<Command> {
        let mut v = vec![Command::React { card: None }];
        let fitting = if window.is_two_use() {
            self.two_use_answers(team, window)
        } else {
            self.dt_card_answers(team, window)
        };
        v.extend(
            fitting
                .into_iter()
                .map(|i| Command::React { card: Some(i) }),
        );
        v
    }
}
