//! Multi-mission campaigns (core §14 CMP-1..6) as plain data: the campaign
//! document the server stores as JSON in `CampaignRecord.state`, and the
//! steps between missions. No I/O and no randomness of its own (the rng is
//! an argument), so every rule here is unit-tested.
//!
//! Rules applied here:
//! - CMP-1: the players, each with one corporation for the whole campaign,
//!   the length M and the starting rank R0 are fixed at creation; every
//!   player (and the AI Dark Legion) starts with `10·(R0−1)` PP.
//! - CMP-2 / SET-2: each mission's DL player is drawn at random among the
//!   players who have been DL the fewest times ([`CampaignDoc::choose_dl`]).
//!   With the AI (SET-12) no player is chosen: the AI is DL every mission.
//! - CMP-3 / PRM-1: one PP total per player whichever role they play; the
//!   PP at the end of a mission are the next mission's starting PP
//!   ([`CampaignDoc::setup_for_next`], [`CampaignDoc::apply_result`]), never
//!   below 0.
//! - CMP-1 / CMP-5: a campaign plays Campaign 1, Campaign 2 or both
//!   ([`CampaignChoice`]); its missions come from the mission records in
//!   record order ([`sequence`]) and run in that order whatever the
//!   outcome, restarting from the first when M exceeds the list
//!   ([`CampaignDoc::order`], [`CampaignDoc::next_mission`]). A listed
//!   mission the engine cannot play yet is still the next one: the campaign
//!   waits for it, and never plays another mission in its place.
//! - CMP-3: PP (and so rank) and each mission's outcome carry over
//!   ([`CampaignDoc::outcomes`], [`CampaignDoc::completed`] for C2M5, D40);
//!   equipment, cards and health do not (EQP-6: everything returns after
//!   the mission; every mission is a fresh game).
//! - CMP-6 / SCR-3: after mission M the highest PP wins, ties joint (the AI's
//!   PP track counts in an AI campaign).
//! - RNK-1: rank = `min(12, 1 + floor(PP/10))` (the rules crate's
//!   `rank_for`, like `starting_pp` and the SET-12 player counts: this
//!   module asks the rules rather than restating them).
//!
//! The HTTP side is [`crate::campaign_api`]; storing documents and
//! applying finished games is [`crate::campaign_ledger`].

use crate::outcome::GameSummary;
use citadel_rules::content::Corporation;
use citadel_rules::game::setup::{player_counts, STARTING_RANKS};
use citadel_rules::game::state::starting_pp;
use citadel_rules::game::{DarkLegionSetup, MissionResult, SeatSetup, Setup};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// Which CE campaign a campaign plays (CMP-1: the mission sequence is
/// fixed at creation). The missions of each come from the mission records,
/// in record order: a record `ce-c<N>m<K>` belongs to Campaign N
/// ([`campaign_of`]). Documents stored before this field existed play
/// both, as they did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum CampaignChoice {
    /// Campaign 1, "Second Assault": C1M1..C1M5.
    C1,
    /// Campaign 2: C2M1..C2M5.
    C2,
    /// Campaign 1 then Campaign 2: C1M1..C2M5.
    #[default]
    Both,
}

impl CampaignChoice {
    /// Whether missions of CE campaign `n` (1 or 2) are in this sequence.
    pub fn includes(self, n: u8) -> bool {
        match self {
            CampaignChoice::C1 => n == 1,
            CampaignChoice::C2 => n == 2,
            CampaignChoice::Both => n == 1 || n == 2,
        }
    }
}

/// The CE campaign a mission id belongs to: `ce-c2m4` → 2. `None` for any
/// other id (classic missions, test missions).
pub fn campaign_of(mission: &str) -> Option<u8> {
    let rest = mission.strip_prefix("ce-c")?;
    let (n, k) = rest.split_once('m')?;
    let n: u8 = n.parse().ok()?;
    k.parse::<u8>().ok()?;
    Some(n)
}

/// The mission sequence of `choice` (CMP-1): the ids of `missions` (every
/// mission record, in record order) that belong to its campaigns. Campaign
/// 1's come before Campaign 2's whatever the record order.
pub fn sequence<'a>(choice: CampaignChoice, missions: &[&'a str]) -> Vec<&'a str> {
    let mut seq: Vec<(u8, &str)> = missions
        .iter()
        .filter_map(|m| campaign_of(m).map(|n| (n, *m)))
        .filter(|(n, _)| choice.includes(*n))
        .collect();
    seq.sort_by_key(|(n, _)| *n); // stable: record order within a campaign
    seq.into_iter().map(|(_, m)| m).collect()
}

/// The ids of every mission record, in record order.
pub fn all_mission_ids() -> Vec<&'static str> {
    citadel_rules::Content::embedded()
        .map(|c| c.missions.iter().map(|m| m.id.as_str()).collect())
        .unwrap_or_default()
}

/// Longest campaign accepted.
pub const MAX_MISSIONS: u32 = 100;

/// Who is the Dark Legion in this campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DarkLegionMode {
    /// A player each mission, per CMP-2.
    Rotate,
    /// The AI every mission (SET-12), with its own PP track.
    Ai,
}

/// One player of a campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignPlayer {
    /// Shown name.
    pub name: String,
    /// Fixed for the whole campaign (CMP-1).
    pub corporation: Corporation,
    /// SHA-256 of the player's campaign token (the token is never kept).
    pub token_hash: String,
    /// The player's account, when joined logged in.
    #[serde(default)]
    pub account: Option<String>,
    /// PP now (PRM-1: one total whichever role).
    pub pp: i32,
    /// Missions played as the Dark Legion (CMP-2).
    pub times_dl: u32,
}

/// One player's PP across one mission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PpChange {
    /// At the start.
    pub before: i32,
    /// At the end.
    pub after: i32,
}

/// One finished mission of the campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HistoryEntry {
    /// Mission number in the campaign, from 0.
    pub index: u32,
    /// Mission id.
    pub mission: String,
    /// The game that played it.
    pub game: String,
    /// The DL player (index into the players); `None` with the AI.
    pub dark_legion: Option<usize>,
    /// The mission's result, as the engine reported it.
    #[serde(default)]
    pub result: Option<MissionResult>,
    /// Each player's PP, in player order.
    pub pp: Vec<PpChange>,
    /// The AI Dark Legion's PP (AI campaigns).
    #[serde(default)]
    pub ai_pp: Option<PpChange>,
}

/// The mission in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CurrentGame {
    /// Game code.
    pub game: String,
    /// Mission id.
    pub mission: String,
    /// The DL player; `None` with the AI.
    pub dark_legion: Option<usize>,
}

/// The campaign document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignDoc {
    /// Name.
    pub name: String,
    /// Planned number of players.
    pub planned_players: u8,
    /// Planned number of missions M (CMP-1).
    pub missions: u32,
    /// Starting rank R0 (CMP-1).
    pub starting_rank: u8,
    /// Who plays the Dark Legion.
    pub dark_legion: DarkLegionMode,
    /// Which CE campaign's missions are played (CMP-1).
    #[serde(default)]
    pub campaign: CampaignChoice,
    /// Players in join order (= seat order in every mission).
    pub players: Vec<CampaignPlayer>,
    /// The AI Dark Legion's PP (AI campaigns; SET-12).
    #[serde(default)]
    pub ai_pp: Option<i32>,
    /// Finished missions.
    pub history: Vec<HistoryEntry>,
    /// The mission in play, if any.
    pub current: Option<CurrentGame>,
    /// After mission M (CMP-6).
    pub finished: bool,
    /// The winning players (SCR-3; ties joint).
    pub winners: Vec<usize>,
    /// The AI Dark Legion is among the winners (AI campaigns).
    #[serde(default)]
    pub ai_wins: bool,
}

/// Why a campaign step is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CampaignError {
    /// Bad creation or join parameters.
    #[error("{0}")]
    Invalid(String),
    /// The step does not fit the campaign's state now.
    #[error("{0}")]
    Conflict(String),
}

impl CampaignDoc {
    /// A new campaign with no players yet (CMP-1).
    ///
    /// # Errors
    /// Player counts outside SET-12 (2–5 with a rotating DL, 1–5 with the
    /// AI), M outside 1..=100, R0 outside 1..=12, an empty name.
    pub fn create(
        name: &str,
        players: u8,
        missions: u32,
        starting_rank: u8,
        dark_legion: DarkLegionMode,
        campaign: CampaignChoice,
    ) -> Result<CampaignDoc, CampaignError> {
        let bad = |m: &str| Err(CampaignError::Invalid(m.to_string()));
        let name: String = name
            .trim()
            .chars()
            .filter(|c| !c.is_control())
            .take(64)
            .collect();
        if name.is_empty() {
            return bad("a campaign needs a name");
        }
        if !player_counts(dark_legion == DarkLegionMode::Ai).contains(&players) {
            return bad("players must be 2-5 with a rotating Dark Legion, 1-5 with the AI");
        }
        if !(1..=MAX_MISSIONS).contains(&missions) {
            return bad("missions must be 1-100");
        }
        if !STARTING_RANKS.contains(&starting_rank) {
            return bad("starting rank must be 1-12");
        }
        Ok(CampaignDoc {
            name,
            planned_players: players,
            missions,
            starting_rank,
            dark_legion,
            campaign,
            players: Vec::new(),
            ai_pp: (dark_legion == DarkLegionMode::Ai).then(|| starting_pp(starting_rank)),
            history: Vec::new(),
            current: None,
            finished: false,
            winners: Vec::new(),
            ai_wins: false,
        })
    }

    /// Every planned player has joined.
    pub fn full(&self) -> bool {
        self.players.len() >= usize::from(self.planned_players)
    }

    /// A player joins with a corporation for the whole campaign (CMP-1) and
    /// starts at `10·(R0−1)` PP. Returns the player's index.
    ///
    /// # Errors
    /// The campaign is full or started, or the corporation is taken.
    pub fn join(
        &mut self,
        name: &str,
        corporation: Corporation,
        token_hash: String,
        account: Option<String>,
    ) -> Result<usize, CampaignError> {
        if self.full() {
            return Err(CampaignError::Conflict("the campaign is full".into()));
        }
        if !self.history.is_empty() || self.current.is_some() {
            return Err(CampaignError::Conflict("the campaign has started".into()));
        }
        if self.players.iter().any(|p| p.corporation == corporation) {
            return Err(CampaignError::Conflict(
                "that corporation is taken in this campaign".into(),
            ));
        }
        let name: String = name
            .trim()
            .chars()
            .filter(|c| !c.is_control())
            .take(32)
            .collect();
        self.players.push(CampaignPlayer {
            name: if name.is_empty() {
                "Player".into()
            } else {
                name
            },
            corporation,
            token_hash,
            account,
            pp: starting_pp(self.starting_rank),
            times_dl: 0,
        });
        Ok(self.players.len() - 1)
    }

    /// The player whose campaign token has this hash.
    pub fn player_by_token_hash(&self, hash: &str) -> Option<usize> {
        self.players.iter().position(|p| p.token_hash == hash)
    }

    /// CMP-2: the next mission's DL player, drawn at random among the
    /// players who have been DL the fewest times. `None` with the AI
    /// (SET-12: CMP-2 is skipped) or with no players.
    pub fn choose_dl<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<usize> {
        if self.dark_legion == DarkLegionMode::Ai {
            return None;
        }
        let fewest = self.players.iter().map(|p| p.times_dl).min()?;
        let candidates: Vec<usize> = (0..self.players.len())
            .filter(|&i| self.players[i].times_dl == fewest)
            .collect();
        Some(candidates[rng.gen_range(0..candidates.len())])
    }

    /// The campaign's missions in play order, mission `i` being
    /// `order[i]` (CMP-5: the sequence of [`sequence`], restarting from its
    /// first mission when M exceeds it). `missions` is every mission record
    /// id in record order; empty when the sequence is.
    pub fn order<'a>(&self, missions: &[&'a str]) -> Vec<&'a str> {
        let seq = sequence(self.campaign, missions);
        if seq.is_empty() {
            return Vec::new();
        }
        (0..self.missions as usize)
            .map(|i| seq[i % seq.len()])
            .collect()
    }

    /// CMP-5: the mission the next mission number must be, whatever the
    /// earlier outcomes; `None` once the campaign has played its M missions
    /// (or its sequence is empty). It is the listed mission even when the
    /// engine cannot play it yet: the campaign then waits rather than play
    /// another mission in its place (the API says what the mission needs).
    pub fn next_mission<'a>(&self, missions: &[&'a str]) -> Option<&'a str> {
        if self.finished {
            return None;
        }
        self.order(missions).get(self.history.len()).copied()
    }

    /// Each finished mission and whether it was completed (its primary goal
    /// met), in play order: what later missions read (CMP-3; C2M5 reads
    /// C2M4's, D40).
    pub fn outcomes(&self) -> Vec<(String, bool)> {
        self.history
            .iter()
            .map(|h| (h.mission.clone(), h.result == Some(MissionResult::Success)))
            .collect()
    }

    /// The latest outcome of `mission` in this campaign: `Some(true)` when
    /// its latest play met its primary goal, `Some(false)` when it failed,
    /// `None` when it was not played. This is what a mission setup's
    /// "was C2M4 completed" field takes (`Setup::c2m4_completed`, C2M5's
    /// `nepharite_if_c2m4_failed`; `None` counts as not completed, D40).
    pub fn outcome_of(&self, mission: &str) -> Option<bool> {
        self.history
            .iter()
            .rev()
            .find(|h| h.mission == mission)
            .map(|h| h.result == Some(MissionResult::Success))
    }

    /// D40: `mission` was played in this campaign and its latest play ended
    /// in success. False when it was not played.
    pub fn completed(&self, mission: &str) -> bool {
        self.outcome_of(mission) == Some(true)
    }

    /// Can the next mission start now?
    ///
    /// # Errors
    /// The campaign is finished, a mission is in play, or players are
    /// missing.
    pub fn can_start_next(&self) -> Result<(), CampaignError> {
        if self.finished {
            return Err(CampaignError::Conflict("the campaign is finished".into()));
        }
        if let Some(c) = &self.current {
            return Err(CampaignError::Conflict(format!(
                "mission game {} is in progress",
                c.game
            )));
        }
        if !self.full() {
            return Err(CampaignError::Conflict(
                "not every player has joined yet".into(),
            ));
        }
        Ok(())
    }

    /// The rules setup of the next mission: one seat per player in player
    /// order, each with its corporation and its campaign PP (CMP-3) — the DL
    /// player's seat too (its DTs sit out, SET-2; its PP are the DL's).
    /// Missions that read an earlier one's outcome (CMP-3: C2M5 reads
    /// C2M4's) get it from [`CampaignDoc::outcome_of`]: the setup's
    /// `c2m4_completed` is `self.outcome_of("ce-c2m4")`.
    pub fn setup_for_next(&self, mission: &str, dl: Option<usize>, seed: u64) -> Setup {
        Setup {
            ruleset: Default::default(),
            mission: mission.to_string(),
            seats: self
                .players
                .iter()
                .map(|p| SeatSetup {
                    corporation: p.corporation,
                    doomtroopers: None,
                    pp: Some(p.pp),
                })
                .collect(),
            dark_legion: match dl {
                Some(d) => DarkLegionSetup::Seat(d as u8),
                None => DarkLegionSetup::Ai,
            },
            starting_rank: self.starting_rank,
            seed,
            campaign: true,
            // CMP-3: C2M5 needs to know whether C2M4 was completed.
            c2m4_completed: self.outcome_of("ce-c2m4"),
        }
    }

    /// Record that a mission's game started.
    pub fn begin(&mut self, game: &str, mission: &str, dl: Option<usize>) {
        self.current = Some(CurrentGame {
            game: game.to_string(),
            mission: mission.to_string(),
            dark_legion: dl,
        });
    }

    /// The mission's game was abandoned (nobody played it for too long):
    /// it is no longer in play, leaves no history and changes no PP, and
    /// the next mission may start. Returns false if `game` was not the
    /// mission in play.
    pub fn mission_abandoned(&mut self, game: &str) -> bool {
        if self.current.as_ref().is_some_and(|c| c.game == game) {
            self.current = None;
            true
        } else {
            false
        }
    }

    /// CMP-3/CMP-4: a mission ended (the engine already applied SCR-1 and
    /// CMD-2). Every player's PP becomes their PP at its end — the DL
    /// player's the DL's, a corporation player's their team's — floored at
    /// 0 (PRM-1); the DL's count goes up; the mission joins the history;
    /// then the end check (CMP-6, SCR-3). Returns the new history entry.
    ///
    /// # Errors
    /// `game` is not the mission in play (already applied, or unknown).
    pub fn apply_result(
        &mut self,
        game: &str,
        summary: &GameSummary,
    ) -> Result<HistoryEntry, CampaignError> {
        let Some(current) = self.current.clone().filter(|c| c.game == game) else {
            return Err(CampaignError::Conflict(format!(
                "game {game} is not this campaign's mission in play"
            )));
        };
        let before: Vec<i32> = self.players.iter().map(|p| p.pp).collect();
        for t in &summary.teams {
            if let Some(p) = self.players.get_mut(usize::from(t.seat.0)) {
                p.pp = t.pp.max(0);
            }
        }
        let dl = summary
            .dark_legion_seat
            .map(|s| usize::from(s.0))
            .or(current.dark_legion);
        let mut ai_pp = None;
        match dl {
            Some(d) => {
                if let Some(p) = self.players.get_mut(d) {
                    p.pp = summary.dark_legion_pp.max(0);
                    p.times_dl += 1;
                }
            }
            None => {
                // The engine starts the AI at 10·(R0−1); carry its gain or
                // loss onto the AI's own track.
                let was = self.ai_pp.unwrap_or(starting_pp(self.starting_rank));
                let delta = summary.dark_legion_pp - starting_pp(self.starting_rank);
                let now = (was + delta).max(0);
                self.ai_pp = Some(now);
                ai_pp = Some(PpChange {
                    before: was,
                    after: now,
                });
            }
        }
        let entry = HistoryEntry {
            index: self.history.len() as u32,
            mission: current.mission,
            game: game.to_string(),
            dark_legion: dl,
            result: summary.result,
            pp: before
                .iter()
                .zip(&self.players)
                .map(|(b, p)| PpChange {
                    before: *b,
                    after: p.pp,
                })
                .collect(),
            ai_pp,
        };
        self.history.push(entry.clone());
        self.current = None;
        if self.history.len() >= self.missions as usize {
            self.finish();
        }
        Ok(entry)
    }

    /// CMP-6 / SCR-3: the highest PP wins; ties give a joint win. The AI's
    /// PP track counts in an AI campaign.
    fn finish(&mut self) {
        self.finished = true;
        let best = self
            .players
            .iter()
            .map(|p| p.pp)
            .chain(self.ai_pp)
            .max()
            .unwrap_or(0);
        self.winners = (0..self.players.len())
            .filter(|&i| self.players[i].pp == best)
            .collect();
        self.ai_wins = self.ai_pp == Some(best);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::TeamSummary;
    use citadel_rules::game::state::rank_for as rank;
    use citadel_rules::game::Seat;
    use rand::rngs::mock::StepRng;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    fn campaign(players: &[Corporation], m: u32, r0: u8, mode: DarkLegionMode) -> CampaignDoc {
        let mut c =
            CampaignDoc::create("Test", players.len() as u8, m, r0, mode, Default::default())
                .expect("valid");
        for (i, corp) in players.iter().enumerate() {
            c.join(&format!("P{i}"), *corp, format!("hash{i}"), None)
                .expect("joins");
        }
        c
    }

    const TWO: [Corporation; 2] = [Corporation::Bauhaus, Corporation::Capitol];
    const THREE: [Corporation; 3] = [
        Corporation::Bauhaus,
        Corporation::Capitol,
        Corporation::Mishima,
    ];

    /// A summary: the DL seat and PP, then each corporation seat's PP.
    fn summary(dl: Option<u8>, dl_pp: i32, teams: &[(u8, i32)]) -> GameSummary {
        GameSummary {
            teams: teams
                .iter()
                .map(|&(seat, pp)| TeamSummary {
                    seat: Seat(seat),
                    corporation: Corporation::ALL[usize::from(seat)],
                    pp,
                })
                .collect(),
            dark_legion_seat: dl.map(Seat),
            dark_legion_pp: dl_pp,
            result: Some(MissionResult::Success),
            corporations_won: false,
            dark_legion_won: false,
            outdated: None,
        }
    }

    /// Start the next mission with a given DL and end it with `s`.
    fn play(c: &mut CampaignDoc, game: &str, dl: Option<usize>, s: &GameSummary) {
        c.can_start_next().expect("can start");
        c.begin(game, "ce-c1m1", dl);
        c.apply_result(game, s).expect("applies");
    }

    #[test]
    fn cmp3_c2m5_learns_whether_c2m4_was_completed() {
        let mut c = campaign(&TWO, 3, 1, DarkLegionMode::Ai);
        assert_eq!(c.setup_for_next("ce-c2m5", None, 1).c2m4_completed, None);
        let mut s = summary(None, 0, &[(0, 3), (1, 3)]);
        s.result = Some(MissionResult::Failure);
        c.can_start_next().expect("can start");
        c.begin("G1", "ce-c2m4", None);
        c.apply_result("G1", &s).expect("applies");
        assert_eq!(
            c.setup_for_next("ce-c2m5", None, 1).c2m4_completed,
            Some(false)
        );
    }

    #[test]
    fn cmp1_every_player_starts_at_the_lowest_pp_of_r0() {
        for (r0, pp) in [(1, 0), (2, 10), (5, 40), (12, 110)] {
            let c = campaign(&THREE, 3, r0, DarkLegionMode::Rotate);
            assert!(c.players.iter().all(|p| p.pp == pp), "R0 {r0}");
            assert!(c.players.iter().all(|p| rank(p.pp) == r0), "R0 {r0}");
            let setup = c.setup_for_next("ce-c1m1", Some(1), 7);
            assert!(setup.seats.iter().all(|s| s.pp == Some(pp)));
            assert_eq!(setup.dark_legion, DarkLegionSetup::Seat(1));
            assert_eq!(setup.starting_rank, r0);
        }
    }

    #[test]
    fn cmp1_corporations_are_distinct_and_counts_follow_set12() {
        let mut c = CampaignDoc::create("X", 2, 2, 1, DarkLegionMode::Rotate, CampaignChoice::C1)
            .expect("valid");
        c.join("a", Corporation::Imperial, "h1".into(), None)
            .expect("a");
        assert!(matches!(
            c.join("b", Corporation::Imperial, "h2".into(), None),
            Err(CampaignError::Conflict(_))
        ));
        c.join("b", Corporation::Mishima, "h2".into(), None)
            .expect("b");
        assert!(c.full());
        assert!(c
            .join("c", Corporation::Bauhaus, "h3".into(), None)
            .is_err());
        assert!(
            CampaignDoc::create("X", 1, 2, 1, DarkLegionMode::Rotate, CampaignChoice::C1).is_err()
        );
        assert!(
            CampaignDoc::create("X", 6, 2, 1, DarkLegionMode::Rotate, CampaignChoice::C1).is_err()
        );
        assert!(CampaignDoc::create("X", 1, 2, 1, DarkLegionMode::Ai, CampaignChoice::C1).is_ok());
        assert!(CampaignDoc::create("X", 6, 2, 1, DarkLegionMode::Ai, CampaignChoice::C1).is_err());
        assert!(CampaignDoc::create("X", 2, 0, 1, DarkLegionMode::Ai, CampaignChoice::C1).is_err());
        assert!(
            CampaignDoc::create("X", 2, 2, 13, DarkLegionMode::Ai, CampaignChoice::C1).is_err()
        );
        assert!(CampaignDoc::create(" ", 2, 2, 1, DarkLegionMode::Ai, CampaignChoice::C1).is_err());
    }

    #[test]
    fn cmp2_dl_rotates_among_the_fewest_times_dl() {
        // A scripted rng that always draws the first candidate.
        let mut first = StepRng::new(0, 0);
        let mut c = campaign(&THREE, 6, 1, DarkLegionMode::Rotate);
        let mut dls = Vec::new();
        for m in 0..6 {
            let dl = c.choose_dl(&mut first).expect("a DL");
            dls.push(dl);
            let teams: Vec<(u8, i32)> = (0..3u8)
                .filter(|&s| usize::from(s) != dl)
                .map(|s| (s, 0))
                .collect();
            play(
                &mut c,
                &format!("G{m}"),
                Some(dl),
                &summary(Some(dl as u8), 0, &teams),
            );
        }
        assert_eq!(dls, [0, 1, 2, 0, 1, 2]);
        assert!(c.players.iter().all(|p| p.times_dl == 2));

        // With any rng: after k·n missions everyone was DL exactly k times,
        // and each draw is among the fewest.
        for seed in 0..20 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut c = campaign(&THREE, 9, 1, DarkLegionMode::Rotate);
            for m in 0..9 {
                let fewest = c.players.iter().map(|p| p.times_dl).min();
                let dl = c.choose_dl(&mut rng).expect("a DL");
                assert_eq!(Some(c.players[dl].times_dl), fewest);
                play(
                    &mut c,
                    &format!("G{m}"),
                    Some(dl),
                    &summary(Some(dl as u8), 0, &[]),
                );
                if (m + 1) % 3 == 0 {
                    assert!(c.players.iter().all(|p| p.times_dl == (m + 1) / 3));
                }
            }
        }
    }

    #[test]
    fn cmp3_pp_carry_over_including_the_dl_players() {
        let mut c = campaign(&THREE, 3, 2, DarkLegionMode::Rotate);
        // Mission 1: P1 is DL and ends with 17; P0 with 14, P2 with 9.
        play(
            &mut c,
            "G1",
            Some(1),
            &summary(Some(1), 17, &[(0, 14), (2, 9)]),
        );
        assert_eq!(
            c.players.iter().map(|p| p.pp).collect::<Vec<_>>(),
            [14, 17, 9]
        );
        let h = &c.history[0];
        assert_eq!(h.dark_legion, Some(1));
        assert_eq!(
            h.pp[1],
            PpChange {
                before: 10,
                after: 17
            }
        );
        assert_eq!(
            h.pp[0],
            PpChange {
                before: 10,
                after: 14
            }
        );
        // The next setup carries them, the DL player's seat included.
        let setup = c.setup_for_next("ce-c1m1", Some(0), 1);
        let pps: Vec<Option<i32>> = setup.seats.iter().map(|s| s.pp).collect();
        assert_eq!(pps, [Some(14), Some(17), Some(9)]);
        assert_eq!(setup.dark_legion, DarkLegionSetup::Seat(0));
        // Mission 2: P0 is DL; P1 (a corporation player now) keeps one total.
        play(
            &mut c,
            "G2",
            Some(0),
            &summary(Some(0), 20, &[(1, 25), (2, 3)]),
        );
        assert_eq!(
            c.players.iter().map(|p| p.pp).collect::<Vec<_>>(),
            [20, 25, 3]
        );
        assert_eq!(
            c.history[1].pp[1],
            PpChange {
                before: 17,
                after: 25
            }
        );
        assert_eq!(rank(25), 3);
    }

    #[test]
    fn prm1_pp_never_drop_below_zero() {
        let mut c = campaign(&TWO, 2, 1, DarkLegionMode::Rotate);
        play(&mut c, "G1", Some(0), &summary(Some(0), -4, &[(1, -10)]));
        assert_eq!(c.players[0].pp, 0);
        assert_eq!(c.players[1].pp, 0);
    }

    #[test]
    fn a_result_is_applied_once_and_only_for_the_game_in_play() {
        let mut c = campaign(&TWO, 2, 1, DarkLegionMode::Rotate);
        let s = summary(Some(0), 5, &[(1, 6)]);
        assert!(c.apply_result("G1", &s).is_err());
        c.begin("G1", "ce-c1m1", Some(0));
        assert!(c.can_start_next().is_err());
        assert!(c.apply_result("OTHER", &s).is_err());
        c.apply_result("G1", &s).expect("applies");
        assert!(c.apply_result("G1", &s).is_err());
        assert_eq!(c.history.len(), 1);
        assert_eq!(c.players[0].times_dl, 1);
    }

    #[test]
    fn cmp6_ends_after_m_missions_with_joint_winners_on_ties() {
        let mut c = campaign(&THREE, 2, 1, DarkLegionMode::Rotate);
        play(
            &mut c,
            "G1",
            Some(0),
            &summary(Some(0), 8, &[(1, 12), (2, 4)]),
        );
        assert!(!c.finished);
        assert!(c.winners.is_empty());
        play(
            &mut c,
            "G2",
            Some(2),
            &summary(Some(2), 12, &[(0, 12), (1, 11)]),
        );
        assert!(c.finished);
        // SCR-3: 12, 11, 12 → a joint win for P0 and P2.
        assert_eq!(c.winners, [0, 2]);
        assert!(!c.ai_wins);
        let err = c.can_start_next().expect_err("finished");
        assert_eq!(
            err,
            CampaignError::Conflict("the campaign is finished".into())
        );
    }

    #[test]
    fn set12_ai_campaign_ai_is_dl_every_mission_with_its_own_track() {
        let mut c = campaign(&TWO, 2, 2, DarkLegionMode::Ai);
        assert_eq!(c.ai_pp, Some(10));
        let mut rng = StdRng::seed_from_u64(3);
        assert_eq!(c.choose_dl(&mut rng), None);
        let setup = c.setup_for_next("ce-c1m1", None, 1);
        assert_eq!(setup.dark_legion, DarkLegionSetup::Ai);
        assert_eq!(setup.seats.len(), 2);
        // Mission 1: the engine started the AI at 10 and it ends with 16.
        play(&mut c, "G1", None, &summary(None, 16, &[(0, 13), (1, 11)]));
        assert_eq!(c.ai_pp, Some(16));
        assert_eq!(
            c.history[0].ai_pp,
            Some(PpChange {
                before: 10,
                after: 16
            })
        );
        assert!(c.players.iter().all(|p| p.times_dl == 0));
        // Mission 2: the AI gains 3 over the engine's start: 16 → 19, and
        // its track counts for SCR-3.
        play(&mut c, "G2", None, &summary(None, 13, &[(0, 19), (1, 12)]));
        assert_eq!(c.ai_pp, Some(19));
        assert!(c.finished);
        assert_eq!(c.winners, [0]);
        assert!(c.ai_wins);
        // A single corporation player is allowed with the AI.
        let solo = campaign(&[Corporation::Cybertronic], 1, 1, DarkLegionMode::Ai);
        assert!(solo.can_start_next().is_ok());
    }

    /// Every CE mission record id, in record order.
    const RECORDS: [&str; 10] = [
        "ce-c1m1", "ce-c1m2", "ce-c1m3", "ce-c1m4", "ce-c1m5", "ce-c2m1", "ce-c2m2", "ce-c2m3",
        "ce-c2m4", "ce-c2m5",
    ];

    #[test]
    fn cmp1_a_missions_campaign_comes_from_its_id() {
        assert_eq!(campaign_of("ce-c1m1"), Some(1));
        assert_eq!(campaign_of("ce-c2m5"), Some(2));
        for id in ["classic-m1", "ce-c1", "ce-cxm1", "ce-c1mx", "", "ce-c1m"] {
            assert_eq!(campaign_of(id), None, "{id}");
        }
        // The embedded records: five missions in each campaign.
        let all = all_mission_ids();
        assert_eq!(sequence(CampaignChoice::C1, &all).len(), 5);
        assert_eq!(sequence(CampaignChoice::C2, &all).len(), 5);
        assert_eq!(sequence(CampaignChoice::Both, &all), RECORDS);
    }

    #[test]
    fn cmp1_the_sequence_is_the_chosen_campaigns_in_record_order() {
        assert_eq!(sequence(CampaignChoice::C1, &RECORDS), RECORDS[..5]);
        assert_eq!(sequence(CampaignChoice::C2, &RECORDS), RECORDS[5..]);
        // Record order decides within a campaign; Campaign 1 comes first.
        let shuffled = ["ce-c2m2", "ce-c1m2", "x-other", "ce-c2m1", "ce-c1m1"];
        assert_eq!(
            sequence(CampaignChoice::Both, &shuffled),
            ["ce-c1m2", "ce-c1m1", "ce-c2m2", "ce-c2m1"]
        );
        assert!(sequence(CampaignChoice::C2, &["ce-c1m1"]).is_empty());
    }

    fn campaign_of_kind(choice: CampaignChoice, m: u32) -> CampaignDoc {
        let mut c = CampaignDoc::create("T", 2, m, 1, DarkLegionMode::Rotate, choice).expect("ok");
        for (i, corp) in TWO.iter().enumerate() {
            c.join(&format!("P{i}"), *corp, format!("h{i}"), None)
                .expect("joins");
        }
        c
    }

    /// Start the mission the campaign lists next and end it with `result`.
    fn play_listed(c: &mut CampaignDoc, result: MissionResult) -> String {
        let mission = c
            .next_mission(&RECORDS)
            .expect("a next mission")
            .to_string();
        let game = format!("G{}", c.history.len());
        c.begin(&game, &mission, Some(0));
        let mut s = summary(Some(0), 0, &[(1, 0)]);
        s.result = Some(result);
        c.apply_result(&game, &s).expect("applies");
        mission
    }

    #[test]
    fn cmp5_missions_run_in_order_whatever_the_outcome_and_restart_after_the_list() {
        let mut c = campaign_of_kind(CampaignChoice::C2, 7);
        assert_eq!(
            c.order(&RECORDS),
            ["ce-c2m1", "ce-c2m2", "ce-c2m3", "ce-c2m4", "ce-c2m5", "ce-c2m1", "ce-c2m2"]
        );
        let mut played = Vec::new();
        for i in 0..7 {
            // A failure does not change the order (CMP-5).
            let result = if i % 2 == 0 {
                MissionResult::Failure
            } else {
                MissionResult::Success
            };
            played.push(play_listed(&mut c, result));
        }
        assert_eq!(played, c.order(&RECORDS));
        assert!(c.finished);
        assert_eq!(c.next_mission(&RECORDS), None);
    }

    #[test]
    fn cmp5_the_next_mission_is_the_listed_one_even_when_only_c1m1_can_be_played() {
        // The campaign does not know what is playable: after C1M1 comes
        // C1M2, never C1M1 again in its place (the API refuses to start an
        // unplayable mission and says what it needs).
        let mut c = campaign_of_kind(CampaignChoice::C1, 5);
        assert_eq!(c.next_mission(&RECORDS), Some("ce-c1m1"));
        play_listed(&mut c, MissionResult::Success);
        assert_eq!(c.next_mission(&RECORDS), Some("ce-c1m2"));
        // Both campaigns: C2M1 follows C1M5.
        let mut both = campaign_of_kind(CampaignChoice::Both, 10);
        for _ in 0..5 {
            play_listed(&mut both, MissionResult::Success);
        }
        assert_eq!(both.next_mission(&RECORDS), Some("ce-c2m1"));
        assert_eq!(both.order(&RECORDS), RECORDS);
    }

    #[test]
    fn cmp3_d40_outcomes_are_kept_and_c2m4_completed_means_its_success() {
        let mut c = campaign_of_kind(CampaignChoice::C2, 10);
        assert!(!c.completed("ce-c2m4"), "not played: not completed");
        assert_eq!(c.outcome_of("ce-c2m4"), None);
        for result in [
            MissionResult::Success,
            MissionResult::Failure,
            MissionResult::Success,
        ] {
            play_listed(&mut c, result);
        }
        assert!(!c.completed("ce-c2m4"));
        play_listed(&mut c, MissionResult::Failure); // C2M4 failed
        assert!(!c.completed("ce-c2m4"));
        assert_eq!(c.outcome_of("ce-c2m4"), Some(false));
        assert_eq!(
            c.outcomes(),
            [
                ("ce-c2m1".to_string(), true),
                ("ce-c2m2".to_string(), false),
                ("ce-c2m3".to_string(), true),
                ("ce-c2m4".to_string(), false),
            ]
        );
        // The second time round, C2M4's latest play decides.
        for _ in 0..5 {
            play_listed(&mut c, MissionResult::Success);
        }
        assert!(c.completed("ce-c2m4"));
        assert!(c.completed("ce-c2m1"));
        assert_eq!(c.outcome_of("ce-c2m4"), Some(true));
    }

    #[test]
    fn a_document_stored_before_campaign_choices_plays_both_campaigns() {
        let c = campaign(&TWO, 2, 1, DarkLegionMode::Rotate);
        let mut json = serde_json::to_value(&c).expect("json");
        json.as_object_mut().expect("object").remove("campaign");
        let old: CampaignDoc = serde_json::from_value(json).expect("parses");
        assert_eq!(old.campaign, CampaignChoice::Both);
        assert_eq!(old.next_mission(&RECORDS), Some("ce-c1m1"));
    }

    #[test]
    fn an_abandoned_mission_frees_the_campaign_and_changes_nothing_else() {
        let mut c = campaign(&TWO, 2, 1, DarkLegionMode::Rotate);
        c.begin("G1", "ce-c1m1", Some(0));
        assert!(c.can_start_next().is_err());
        assert!(!c.mission_abandoned("OTHER"));
        let before = c.players.clone();
        assert!(c.mission_abandoned("G1"));
        assert!(c.can_start_next().is_ok());
        assert!(c.history.is_empty());
        assert_eq!(c.players, before);
    }

    #[test]
    fn the_document_round_trips_through_json() {
        let mut c = campaign(&TWO, 2, 1, DarkLegionMode::Rotate);
        play(&mut c, "G1", Some(1), &summary(Some(1), 4, &[(0, 2)]));
        let text = serde_json::to_string(&c).expect("serializes");
        let back: CampaignDoc = serde_json::from_str(&text).expect("parses");
        assert_eq!(back, c);
    }
}
