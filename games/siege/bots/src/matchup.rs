//! Seeded games between kinds of bots (C1M1 by default, any mission with
//! [`play_on`]), for the win-rate report and the tests.

use crate::{AiDarkLegion, Bot, HeuristicCorporation, HeuristicDarkLegion, RandomBot, Seen};
use citadel_rules::content::{Content, Corporation};
use citadel_rules::dice::SeededDice;
use citadel_rules::game::{Command, DarkLegionSetup, Game, MissionResult, Seat, Setup};

/// Who plays the corporation seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorpBots {
    /// [`RandomBot`]s.
    Random,
    /// [`HeuristicCorporation`]s.
    Heuristic,
}

/// Who plays the Dark Legion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DlBot {
    /// A [`RandomBot`] on a player's DL seat.
    Random,
    /// [`AiDarkLegion`] on the AI seat (`DarkLegionSetup::Ai`).
    Ai,
    /// [`HeuristicDarkLegion`] on a player's DL seat.
    Heuristic,
}

/// How one game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Commands applied, not counting the AI's card reveals (so the
    /// number compares across kinds of Dark Legion).
    pub commands: usize,
    /// The game ended within the budget.
    pub finished: bool,
    /// The corporations won (a corporation has more PP than the DL).
    pub corp_win: bool,
    /// The Dark Legion won.
    pub dl_win: bool,
    /// The mission goal was met.
    pub success: bool,
}

/// The setup of `mission` with 2 corporations (plus a DL player unless AI).
pub fn setup(mission: &str, dl: DlBot, seed: u64) -> Setup {
    let (corps, dls): (&[Corporation], _) = match dl {
        DlBot::Ai => (
            &[Corporation::Bauhaus, Corporation::Imperial],
            DarkLegionSetup::Ai,
        ),
        DlBot::Random | DlBot::Heuristic => (
            &[
                Corporation::Bauhaus,
                Corporation::Imperial,
                Corporation::Capitol,
            ],
            DarkLegionSetup::Seat(2),
        ),
    };
    Setup::new(mission, corps, dls).with_seed(seed)
}

/// Play one seeded game; every command must be legal.
///
/// # Errors
/// A refused setup, a bot with no command, or a command not in `legal`.
pub fn play(
    mission: &str,
    corps: CorpBots,
    dl: DlBot,
    seed: u64,
    max: usize,
) -> Result<GameResult, String> {
    let content = Content::embedded().map_err(|e| format!("{e}"))?;
    play_on(content, (mission, 1), corps, dl, seed, max)
}

/// [`play`] of `mission` from `content` (e.g. `playable::relaxed`) at
/// starting rank `rank`.
///
/// # Errors
/// As [`play`].
pub fn play_on(
    content: &Content,
    (mission, rank): (&str, u8),
    corps: CorpBots,
    dl: DlBot,
    seed: u64,
    max: usize,
) -> Result<GameResult, String> {
    let mut dice = SeededDice::new(seed);
    let mut game_setup = setup(mission, dl, seed);
    game_setup.starting_rank = rank;
    let (mut game, _) =
        Game::with_content(game_setup, content, &mut dice).map_err(|e| format!("{e}"))?;
    let dl_seat = game.dark_legion_seat();
    let mut dl_bot: Box<dyn Bot> = match dl {
        DlBot::Random => Box::new(RandomBot::new(seed ^ 0xD1)),
        DlBot::Ai => Box::new(AiDarkLegion::new()),
        DlBot::Heuristic => Box::new(HeuristicDarkLegion::new()),
    };
    let mut corp_bots: Vec<Box<dyn Bot>> = (0..4u64)
        .map(|i| -> Box<dyn Bot> {
            match corps {
                CorpBots::Random => Box::new(RandomBot::new(seed.wrapping_mul(31) ^ i)),
                CorpBots::Heuristic => Box::new(HeuristicCorporation::new()),
            }
        })
        .collect();
    let mut commands = 0;
    let mut applied = 0;
    while !game.is_finished() && applied < max {
        let seat: Seat = game.seat_to_act().ok_or("no seat to act")?;
        let bot = if seat == dl_seat {
            &mut dl_bot
        } else {
            corp_bots
                .get_mut(usize::from(seat.0))
                .ok_or("seat out of range")?
        };
        let cmd = bot
            .choose(&Seen::of(&game, seat))
            .ok_or_else(|| format!("seat {} has no command", seat.0))?;
        if !game.legal(seat).contains(&cmd) {
            return Err(format!("illegal command {cmd:?}"));
        }
        game.apply(seat, cmd.clone(), &mut dice)
            .map_err(|r| format!("{cmd:?} rejected: {r:?}"))?;
        applied += 1;
        commands += usize::from(cmd != Command::RevealAiCard);
    }
    let (corp_win, dl_win, result) = game
        .outcome()
        .map_or((false, false, None), |(c, d, r)| (c, d, Some(r)));
    Ok(GameResult {
        commands,
        finished: game.is_finished(),
        corp_win,
        dl_win,
        success: result == Some(MissionResult::Success),
    })
}

/// Totals over many games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games played.
    pub games: usize,
    /// Corporation wins.
    pub corp_wins: usize,
    /// DL wins.
    pub dl_wins: usize,
    /// Mission successes.
    pub successes: usize,
    /// Games not finished within the budget.
    pub unfinished: usize,
    /// Commands over all games.
    pub commands: usize,
}

impl Tally {
    /// Add one game.
    pub fn add(&mut self, r: &GameResult) {
        self.games += 1;
        self.corp_wins += usize::from(r.corp_win);
        self.dl_wins += usize::from(r.dl_win);
        self.successes += usize::from(r.success);
        self.unfinished += usize::from(!r.finished);
        self.commands += r.commands;
    }

    fn rate(&self, n: usize) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            n as f64 / self.games as f64
        }
    }

    /// Corporation win rate.
    pub fn corp_rate(&self) -> f64 {
        self.rate(self.corp_wins)
    }
    /// DL win rate.
    pub fn dl_rate(&self) -> f64 {
        self.rate(self.dl_wins)
    }
    /// Mission success rate.
    pub fn success_rate(&self) -> f64 {
        self.rate(self.successes)
    }
    /// Mean commands per game.
    pub fn mean_commands(&self) -> f64 {
        self.rate(self.commands)
    }
}

/// [`tally`] of `mission` from `content`.
///
/// # Errors
/// The first failing game's error.
pub fn tally_on(
    content: &Content,
    mission: (&str, u8),
    corps: CorpBots,
    dl: DlBot,
    (seed, games): (u64, u64),
    max: usize,
) -> Result<Tally, String> {
    let mut t = Tally::default();
    for i in 0..games {
        let s = seed.wrapping_add(i);
        let r =
            play_on(content, mission, corps, dl, s, max).map_err(|e| format!("seed {s}: {e}"))?;
        t.add(&r);
    }
    Ok(t)
}

/// Play `games` games of `mission` with seeds `seed..seed+games`.
///
/// # Errors
/// The first failing game's error.
pub fn tally(
    mission: &str,
    corps: CorpBots,
    dl: DlBot,
    seed: u64,
    games: u64,
    max: usize,
) -> Result<Tally, String> {
    let mut t = Tally::default();
    for i in 0..games {
        let s = seed.wrapping_add(i);
        let r = play(mission, corps, dl, s, max).map_err(|e| format!("seed {s}: {e}"))?;
        t.add(&r);
    }
    Ok(t)
}
