//! The conformance suite: what every game on the platform must keep,
//! checked over seeded random games played through the [`Game`] trait
//! alone (OpenSpiel's random-game test, with shakmaty's rejection
//! discipline). A game's own tests call [`Conformance::run`] with its
//! tables; the platform relies on every property checked here.
//!
//! Checked at every step of every game:
//! - a seat that must act has a legal command; a finished game has no
//!   seat to act and no legal command;
//! - sampled legal commands are accepted (each on a copy);
//! - a rejected command leaves the game unchanged (same checksum) and
//!   draws nothing from the dice — rejections are provoked with commands
//!   of other seats and of other moments;
//! - every payload survives its JSON round trip;
//! - each viewer's view is the same in a copy whose hidden state was
//!   re-dealt for that viewer: the view carries nothing that viewer may
//!   not see (with hidden information, the suite also requires that the
//!   re-deal really changed something in some games);
//! - with [`Conformance::redeal_from_view`], a re-deal is a function of
//!   the viewer's view and the dice alone (re-dealing the truth and
//!   re-dealing an earlier re-deal with the same dice give the same
//!   game), and the viewer's own legal commands are the same in a
//!   re-dealt copy: a search bot that plays on re-deals then chooses the
//!   same whatever the hidden state;
//! - redacting an event twice is redacting it once.
//!
//! And per game: the outcome exists and is consistent once it is over,
//! and replaying the setup, seed and commands gives the same checksum.

use crate::{CountingDice, Dice, Game, Outcome, Seat, SeededDice, Viewer};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// A table to play: options and every player seat's choice.
#[derive(Clone, Debug)]
pub struct Table<G: Game> {
    /// The options.
    pub options: G::Options,
    /// One per player seat; `None` lets the game pick.
    pub choices: Vec<Option<G::Choice>>,
}

/// How much to play.
#[derive(Clone, Debug)]
pub struct Conformance<G: Game> {
    /// The tables, played in turn.
    pub tables: Vec<Table<G>>,
    /// Games in all.
    pub games: usize,
    /// Commands per game at most (a random game may never end).
    pub max_commands: usize,
    /// The first seed; game `i` uses `seed + i`.
    pub seed: u64,
    /// Legal commands tried on copies at each step.
    pub accept_samples: usize,
    /// Commands that should be refused (other seats', other moments')
    /// tried on copies at each step.
    pub reject_samples: usize,
    /// Views are compared against re-dealt copies every this many steps
    /// (1: every step).
    pub view_every: usize,
    /// The game has hidden information: re-dealing must change the state
    /// in some game.
    pub hidden_information: bool,
    /// `resample_hidden` depends on the view and the dice only (it deals
    /// from what the viewer knows, not by shuffling the truth), and the
    /// viewer's legal commands survive a re-deal. Off by default: a game
    /// whose re-deal shuffles its real hidden state keeps the view
    /// property but not this one.
    pub redeal_from_view: bool,
}

/// What a run saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games played.
    pub games: usize,
    /// Games that reached their end.
    pub finished: usize,
    /// Commands applied.
    pub commands: usize,
    /// Rejected commands checked to change nothing.
    pub rejections: usize,
    /// Re-deals that changed the hidden state.
    pub redeals_changed: usize,
    /// View comparisons made.
    pub views_checked: usize,
}

impl<G: Game> Conformance<G> {
    /// Defaults: 20 games of at most 2,000 commands from seed 1.
    pub fn new(tables: Vec<Table<G>>) -> Self {
        Conformance {
            tables,
            games: 20,
            max_commands: 2_000,
            seed: 1,
            accept_samples: 2,
            reject_samples: 3,
            view_every: 1,
            hidden_information: true,
            redeal_from_view: false,
        }
    }

    /// Play the games; panics with the game, seed and step at the first
    /// broken property.
    pub fn run(&self) -> Report {
        assert!(!self.tables.is_empty(), "no table to play");
        let mut report = Report::default();
        for i in 0..self.games {
            let table = &self.tables[i % self.tables.len()];
            let seed = self.seed.wrapping_add(i as u64);
            self.play(table, seed, &mut report);
            report.games += 1;
        }
        if self.hidden_information {
            assert!(
                report.redeals_changed > 0,
                "{}: re-dealing hidden state never changed anything; \
                 resample_hidden does not re-deal",
                G::ID
            );
        }
        report
    }

    fn play(&self, table: &Table<G>, seed: u64, report: &mut Report) {
        let id = G::ID;
        let plan = G::seat_plan(&table.options)
            .unwrap_or_else(|e| panic!("{id} seed {seed}: options refused: {e}"));
        let setup = G::setup(&table.options, &table.choices, seed)
            .unwrap_or_else(|e| panic!("{id} seed {seed}: setup refused: {e}"));
        round_trip(&setup, "setup");
        let mut dice = SeededDice::new(seed);
        let (mut game, start_events) = G::start(&setup, &mut dice)
            .unwrap_or_else(|e| panic!("{id} seed {seed}: start refused: {e}"));
        let seats: Vec<Seat> = plan.seats().collect();
        let viewers: Vec<Viewer> = seats
            .iter()
            .map(|s| Viewer::Seat(*s))
            .chain([Viewer::Spectator])
            .collect();
        check_events::<G>(&start_events, &viewers);
        round_trip(&game.static_data(), "static data");
        let mut picker = SeededDice::new(seed ^ 0xc0f0_4a11);
        let mut redealer = SeededDice::new(seed ^ 0x004e_d3a1);
        let mut log: Vec<(Seat, G::Command)> = Vec::new();
        let mut step = 0;
        while !game.is_finished() && log.len() < self.max_commands {
            let at = format!("{id} seed {seed} step {step}");
            let to_act = game.to_act();
            assert!(
                !to_act.is_empty(),
                "{at}: nobody may act in an unfinished game"
            );
            for s in &to_act {
                assert!(seats.contains(s), "{at}: {s} is not a seat of the game");
            }
            let seat = to_act[picker.below(to_act.len() as u32) as usize];
            let legal = game.legal(seat);
            assert!(
                !legal.is_empty(),
                "{at}: {seat} must act but has no legal command"
            );
            if step % self.view_every.max(1) == 0 {
                self.check_views(&game, &viewers, &mut redealer, &at, report);
            }
            self.check_accepts(&game, seat, &legal, &mut picker, &at);
            self.check_rejections(&game, &seats, &to_act, &log, &mut picker, &at, report);
            let command = legal[picker.below(legal.len() as u32) as usize].clone();
            round_trip(&command, "command");
            let events = game
                .apply(seat, command.clone(), &mut dice)
                .unwrap_or_else(|r| panic!("{at}: legal {command:?} for {seat} refused: {r}"));
            check_events::<G>(&events, &viewers);
            log.push((seat, command));
            report.commands += 1;
            step += 1;
        }
        let at = format!("{id} seed {seed} end");
        if game.is_finished() {
            report.finished += 1;
            assert!(
                game.to_act().is_empty(),
                "{at}: a finished game has a seat to act"
            );
            for s in &seats {
                assert!(
                    game.legal(*s).is_empty(),
                    "{at}: {s} may act in a finished game"
                );
            }
            let outcome: Outcome = game
                .outcome()
                .unwrap_or_else(|| panic!("{at}: a finished game has no outcome"));
            assert!(outcome.is_consistent(), "{at}: inconsistent {outcome:?}");
            assert_eq!(
                outcome.placings.len(),
                seats.len(),
                "{at}: a placing per seat"
            );
            round_trip(&game.summary(), "summary");
        }
        // Determinism: the same setup, seed and commands, the same game.
        let mut again_dice = SeededDice::new(seed);
        let (mut again, _) = G::start(&setup, &mut again_dice)
            .unwrap_or_else(|e| panic!("{at}: restart refused: {e}"));
        for (i, (seat, command)) in log.iter().enumerate() {
            again
                .apply(*seat, command.clone(), &mut again_dice)
                .unwrap_or_else(|r| panic!("{at}: replayed command {i} refused: {r}"));
        }
        assert_eq!(
            again.checksum(),
            game.checksum(),
            "{at}: the replay differs"
        );
        assert_eq!(again.is_finished(), game.is_finished(), "{at}: replay end");
    }

    fn check_views(
        &self,
        game: &G,
        viewers: &[Viewer],
        redealer: &mut SeededDice,
        at: &str,
        report: &mut Report,
    ) {
        for viewer in viewers {
            let view = game.view(*viewer);
            round_trip(&view, "view");
            let redealt = game.resample_hidden(*viewer, redealer);
            if redealt.checksum() != game.checksum() {
                report.redeals_changed += 1;
            }
            let seen = redealt.view(*viewer);
            if seen != view {
                panic!(
                    "{at}: {viewer:?}'s view changes when what it may not see is re-dealt: \
                     the view carries hidden information\n real: {}\n re-dealt: {}",
                    json(&view),
                    json(&seen)
                );
            }
            report.views_checked += 1;
            if self.redeal_from_view {
                self.check_redeal_from_view(game, &redealt, *viewer, redealer, at);
            }
        }
    }

    /// Re-dealing the truth and re-dealing a re-deal with the same dice
    /// give the same game; the viewer's legal commands are the truth's.
    fn check_redeal_from_view(
        &self,
        game: &G,
        redealt: &G,
        viewer: Viewer,
        redealer: &mut SeededDice,
        at: &str,
    ) {
        let seed = u64::from(redealer.below(u32::MAX));
        let from_truth = game.resample_hidden(viewer, &mut SeededDice::new(seed));
        let from_belief = redealt.resample_hidden(viewer, &mut SeededDice::new(seed));
        assert_eq!(
            from_truth.checksum(),
            from_belief.checksum(),
            "{at}: {viewer:?}'s re-deal depends on the hidden state it replaces"
        );
        if let Viewer::Seat(seat) = viewer {
            assert_eq!(
                redealt.legal(seat),
                game.legal(seat),
                "{at}: {seat}'s legal commands change when what it may not see is re-dealt"
            );
        }
    }

    fn check_accepts(
        &self,
        game: &G,
        seat: Seat,
        legal: &[G::Command],
        picker: &mut SeededDice,
        at: &str,
    ) {
        for _ in 0..self.accept_samples.min(legal.len()) {
            let command = &legal[picker.below(legal.len() as u32) as usize];
            let mut copy = game.clone();
            let mut dice = SeededDice::new(picker.below(u32::MAX) as u64);
            if let Err(r) = copy.apply(seat, command.clone(), &mut dice) {
                panic!("{at}: legal {command:?} for {seat} refused: {r}");
            }
        }
    }

    /// Provoke rejections: commands legal for a seat that may not act
    /// now, and commands of earlier moments, sent by every seat. Each
    /// that is refused must change nothing and draw nothing.
    #[allow(clippy::too_many_arguments)]
    fn check_rejections(
        &self,
        game: &G,
        seats: &[Seat],
        to_act: &[Seat],
        log: &[(Seat, G::Command)],
        picker: &mut SeededDice,
        at: &str,
        report: &mut Report,
    ) {
        let mut tries: Vec<(Seat, G::Command)> = Vec::new();
        for s in seats.iter().filter(|s| !to_act.contains(s)) {
            // A seat that may not act has no legal command...
            let listed = game.legal(*s);
            assert!(
                listed.is_empty(),
                "{at}: {s} may not act now but has {} legal commands",
                listed.len()
            );
            // ...and another seat's command, sent by it, is refused.
            if let Some((_, c)) = log.last() {
                tries.push((*s, c.clone()));
            }
        }
        for _ in 0..2 {
            if log.is_empty() {
                break;
            }
            let (_, c) = &log[picker.below(log.len() as u32) as usize];
            let s = seats[picker.below(seats.len() as u32) as usize];
            tries.push((s, c.clone()));
        }
        let before = game.checksum();
        for _ in 0..self.reject_samples.min(tries.len()) {
            let (seat, command) = tries.swap_remove(picker.below(tries.len() as u32) as usize);
            let mut copy = game.clone();
            let mut seeded = SeededDice::new(7);
            let mut dice = CountingDice::new(&mut seeded);
            if copy.apply(seat, command.clone(), &mut dice).is_err() {
                report.rejections += 1;
                assert_eq!(
                    dice.draws, 0,
                    "{at}: a refused {command:?} drew from the dice"
                );
                // The checksum covers the whole state, so every view too.
                assert_eq!(
                    copy.checksum(),
                    before,
                    "{at}: a refused {command:?} changed the game"
                );
            }
        }
    }
}

fn check_events<G: Game>(events: &[G::Event], viewers: &[Viewer]) {
    for event in events {
        round_trip(event, "event");
        for viewer in viewers {
            let once = G::redact(event, *viewer);
            round_trip(&once, "redacted event");
            assert_eq!(
                G::redact(&once, *viewer),
                once,
                "redaction is not idempotent"
            );
        }
    }
}

fn json<T: Serialize>(value: T) -> String {
    serde_json::to_string(&value).unwrap_or_else(|e| format!("<unserializable: {e}>"))
}

/// A payload survives JSON: what is stored and sent reads back the same.
fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T, what: &str) {
    let text =
        serde_json::to_string(value).unwrap_or_else(|e| panic!("{what} does not serialize: {e}"));
    let back: T = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{what} does not read back: {e}\n{text}"));
    assert_eq!(
        &back, value,
        "{what} changes in its JSON round trip: {text}"
    );
}
