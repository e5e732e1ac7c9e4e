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
//! - Classic (1993) campaigns ([`CampaignChoice::Classic`]): missions
//!   1..10, CRK-1 ranks, credits carried (CEC-1) and passed to each
//!   mission's draft as its limit (CEQ-1), bought with PP (CEC-4,
//!   [`CampaignDoc::buy_credit`]), and changed after each mission in CEC-8
//!   order ([`CampaignDoc::apply_economy`]); the DL band from every
//!   player's rank (CDL-1, [`cdl1_band`]); "first to T PP" (CMP-6) and free
//!   mission choice (CMP-5) as options.
//!
//! The platform's campaign service (the server's `campaign_api` and
//! `campaign_ledger`) stores the documents and applies finished games
//! through [`crate::service::SiegeCampaigns`].

use citadel_rules::content::missions::CreditRewards;
use citadel_rules::content::Corporation;
use citadel_rules::content::Edition;
use citadel_rules::game::setup::{player_counts, starting_ranks};
use citadel_rules::game::state::{rank_for, starting_pp};
use citadel_rules::game::{DarkLegionSetup, MissionResult, SeatSetup, Setup};
use citadel_rules::summary::GameSummary;
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
    /// The 1993 edition's missions 1..10 (CMP-1 classic), played by the
    /// classic rules with credits ([`CampaignDoc::apply_result`]).
    Classic,
}

impl CampaignChoice {
    /// Whether missions of CE campaign `n` (1 or 2) are in this sequence.
    pub fn includes(self, n: u8) -> bool {
        match self {
            CampaignChoice::C1 => n == 1,
            CampaignChoice::C2 => n == 2,
            CampaignChoice::Both => n == 1 || n == 2,
            CampaignChoice::Classic => false,
        }
    }

    /// The edition whose missions and rules the campaign plays.
    pub fn edition(self) -> Edition {
        match self {
            CampaignChoice::Classic => Edition::Classic,
            _ => Edition::Ce,
        }
    }
}

/// The number of a classic campaign mission: `classic-m7` → 7. `None` for
/// any other id (the training mission, CE missions).
pub fn classic_number(mission: &str) -> Option<u8> {
    let n: u8 = mission.strip_prefix("classic-m")?.parse().ok()?;
    (n > 0).then_some(n)
}

pub use citadel_rules::documents::brief::campaign_of;

/// The mission sequence of `choice` (CMP-1): the ids of `missions` (every
/// mission record, in record order) that belong to its campaigns. Campaign
/// 1's come before Campaign 2's whatever the record order.
pub fn sequence<'a>(choice: CampaignChoice, missions: &[&'a str]) -> Vec<&'a str> {
    if choice == CampaignChoice::Classic {
        // CMP-1 classic: missions 1..10, in number order.
        let mut seq: Vec<(u8, &str)> = missions
            .iter()
            .filter_map(|m| classic_number(m).map(|n| (n, *m)))
            .collect();
        seq.sort_by_key(|(n, _)| *n);
        return seq.into_iter().map(|(_, m)| m).collect();
    }
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

/// A classic mission's credit rewards (CEC-2), from its record; none for
/// a mission without them.
pub fn mission_credit_rewards(mission: &str) -> CreditRewards {
    citadel_rules::Content::embedded()
        .ok()
        .and_then(|c| c.mission(mission))
        .and_then(|m| m.rewards.credits)
        .unwrap_or(CreditRewards { dt: 0, dl: 0 })
}

/// Longest campaign accepted. A classic "first to T" campaign in which
/// nobody reaches T also ends after this many missions.
pub const MAX_MISSIONS: u32 = 100;

/// CMP-1 classic: the default T of a "first to T PP" campaign (the top of
/// the CRK-1 track).
pub const DEFAULT_TARGET_PP: i32 = 130;

/// The targets T a "first to T" campaign accepts.
pub const TARGET_PP: std::ops::RangeInclusive<i32> = 1..=1000;

/// CEC-1: the credits every team starts a classic campaign with.
pub const STARTING_CREDITS: i32 = 2;

/// CEC-4: the PP one credit costs.
pub const CREDIT_PRICE_PP: i32 = 5;

/// CEC-3: the PP a team loses per eliminated DT when it has no credit.
pub const LOSS_PP: i32 = 5;

/// How a campaign ends (CMP-6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum CampaignEnd {
    /// After M missions (both editions; classic's mini-campaign is M = 2
    /// or 3).
    #[default]
    Missions,
    /// Classic: after the first mission at whose end somebody has at least
    /// T PP (`target_pp`).
    FirstTo,
}

/// The classic rank (CRK-1) of a PP total, from the rules' table.
pub fn classic_rank(pp: i32) -> u8 {
    citadel_rules::Content::embedded().map_or(1, |c| c.classic.rank_for_pp(pp))
}

/// The classic starting PP of rank R0 (CMP-1, CRK-4: the rank's lowest PP).
pub fn classic_starting_pp(rank: u8) -> i32 {
    citadel_rules::Content::embedded().map_or(0, |c| {
        let i = usize::from(rank.max(1)) - 1;
        c.classic.rank_min_pp.get(i).copied().unwrap_or(0)
    })
}

/// CDL-1: the classic DL band from the ranks of every player's team (the
/// DL player's included): 5 ("5–6") once at least two have rank ≥ 5, 3
/// ("3–4") once at least two have rank ≥ 3, else 1 ("1–2"). Evaluated at
/// each mission start, so it can go down (D45). With a single player (an
/// AI campaign), that player's rank decides, as a single corporation
/// player's does in a game (DLB-1's "or the only one").
pub fn cdl1_band(ranks: &[u8]) -> u8 {
    let need = ranks.len().min(2);
    let at_least = |r: u8| ranks.iter().filter(|&&k| k >= r).count() >= need.max(1);
    if at_least(5) {
        5
    } else if at_least(3) {
        3
    } else {
        1
    }
}

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
    /// Classic credits (CEC-1: a checkout limit carried through the
    /// campaign). 0 in CE campaigns, which have none.
    #[serde(default)]
    pub credits: i32,
    /// The mission number (from 0) for which the player bought a credit
    /// (CEC-4: once per mission).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_bought: Option<u32>,
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
    /// Classic: each player's credits before and after, in player order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub credits: Vec<PpChange>,
    /// Classic: the economy steps applied after the mission, in the order
    /// applied (CEC-8).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub economy: Vec<EconomyStep>,
}

/// What one classic end-of-mission step did to one player (CEC-8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EconomyStep {
    /// Player index.
    pub player: usize,
    /// Which step.
    pub step: EconomyKind,
    /// Credits gained (negative: lost).
    pub credits: i32,
    /// PP gained (negative: lost), after the floor at 0.
    pub pp: i32,
}

/// The classic end-of-mission steps, in CEC-8 order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EconomyKind {
    /// CEC-2: success credits to a primary team with a DT alive or exited.
    PrimarySuccess,
    /// CEC-2: failure credits to the DL player.
    PrimaryFailure,
    /// CSM-2: a team's secondary mission succeeded.
    SecondarySuccess,
    /// CSM-2: a secondary mission failed; the DL player gains.
    SecondaryFailure,
    /// CEC-3: a DT eliminated: a credit, or 5 PP at 0 credits.
    Loss,
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
    /// Which missions are played (CMP-1): a CE campaign's, or the classic
    /// missions.
    #[serde(default)]
    pub campaign: CampaignChoice,
    /// How the campaign ends (CMP-6).
    #[serde(default)]
    pub end: CampaignEnd,
    /// T of a classic "first to T" campaign (CMP-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_pp: Option<i32>,
    /// Classic: the players may choose each mission, replays allowed
    /// (CMP-5).
    #[serde(default)]
    pub free_choice: bool,
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
    /// CEC-4: buying a credit needs 5 PP.
    #[error("a credit costs {price} PP; you have {pp}")]
    NotEnoughPp {
        /// The player's PP.
        pp: i32,
        /// The price.
        price: i32,
    },
    /// CEC-4: a credit was already bought for this mission.
    #[error("you already bought a credit for this mission")]
    CreditAlreadyBought,
    /// CEC-4 is a classic rule: CE campaigns have no credits.
    #[error("only classic campaigns have credits")]
    NoCredits,
}

/// How a campaign is made (CMP-1): [`CampaignDoc::create`]'s choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignTerms {
    /// Name.
    pub name: String,
    /// Number of players.
    pub players: u8,
    /// M (with [`CampaignEnd::Missions`]).
    pub missions: u32,
    /// R0.
    pub starting_rank: u8,
    /// Who is the DL.
    pub dark_legion: DarkLegionMode,
    /// Which missions.
    pub campaign: CampaignChoice,
    /// How it ends.
    pub end: CampaignEnd,
    /// T of a "first to T" campaign.
    pub target_pp: i32,
    /// Classic CMP-5: missions chosen freely.
    pub free_choice: bool,
}

impl CampaignTerms {
    /// A CE-style campaign that ends after `missions` missions, in order.
    pub fn new(
        name: &str,
        players: u8,
        missions: u32,
        starting_rank: u8,
        dark_legion: DarkLegionMode,
        campaign: CampaignChoice,
    ) -> CampaignTerms {
        CampaignTerms {
            name: name.to_string(),
            players,
            missions,
            starting_rank,
            dark_legion,
            campaign,
            end: CampaignEnd::Missions,
            target_pp: DEFAULT_TARGET_PP,
            free_choice: false,
        }
    }
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
        CampaignDoc::create_with(&CampaignTerms::new(
            name,
            players,
            missions,
            starting_rank,
            dark_legion,
            campaign,
        ))
    }

    /// A new campaign with no players yet, with every choice of CMP-1 and
    /// CMP-5 (classic: "first to T", free mission choice).
    ///
    /// # Errors
    /// As [`CampaignDoc::create`], and R0 outside the edition's ranks
    /// (classic 1–6), T outside 1–1000, "first to T" or free choice in a CE
    /// campaign.
    pub fn create_with(terms: &CampaignTerms) -> Result<CampaignDoc, CampaignError> {
        let bad = |m: &str| Err(CampaignError::Invalid(m.to_string()));
        let name: String = terms
            .name
            .trim()
            .chars()
            .filter(|c| !c.is_control())
            .take(64)
            .collect();
        if name.is_empty() {
            return bad("a campaign needs a name");
        }
        let (players, dark_legion) = (terms.players, terms.dark_legion);
        if !player_counts(dark_legion == DarkLegionMode::Ai).contains(&players) {
            return bad("players must be 2-5 with a rotating Dark Legion, 1-5 with the AI");
        }
        let classic = terms.campaign == CampaignChoice::Classic;
        let missions = match terms.end {
            CampaignEnd::Missions if (1..=MAX_MISSIONS).contains(&terms.missions) => terms.missions,
            CampaignEnd::Missions => return bad("missions must be 1-100"),
            // Nobody may reach T: the campaign still ends, after the most
            // missions any campaign may have.
            CampaignEnd::FirstTo if classic => MAX_MISSIONS,
            CampaignEnd::FirstTo => return bad("\"first to T PP\" is a classic campaign (CMP-1)"),
        };
        let target_pp = match terms.end {
            CampaignEnd::FirstTo if TARGET_PP.contains(&terms.target_pp) => Some(terms.target_pp),
            CampaignEnd::FirstTo => return bad("target PP must be 1-1000"),
            CampaignEnd::Missions => None,
        };
        if terms.free_choice && !classic {
            return bad("choosing missions freely is a classic campaign option (CMP-5)");
        }
        if !starting_ranks(terms.campaign.edition()).contains(&terms.starting_rank) {
            return if classic {
                bad("starting rank must be 1-6 in a classic campaign")
            } else {
                bad("starting rank must be 1-12")
            };
        }
        let mut doc = CampaignDoc {
            name,
            planned_players: players,
            missions,
            starting_rank: terms.starting_rank,
            dark_legion,
            campaign: terms.campaign,
            end: terms.end,
            target_pp,
            free_choice: terms.free_choice,
            players: Vec::new(),
            ai_pp: None,
            history: Vec::new(),
            current: None,
            finished: false,
            winners: Vec::new(),
            ai_wins: false,
        };
        doc.ai_pp = (dark_legion == DarkLegionMode::Ai).then(|| doc.start_pp());
        Ok(doc)
    }

    /// A classic (1993) campaign: classic rules, ranks and credits.
    pub fn is_classic(&self) -> bool {
        self.campaign == CampaignChoice::Classic
    }

    /// CMP-1: the PP every side starts the campaign with, the lowest PP of
    /// R0 (CE `10·(R0−1)`, classic CRK-1's table).
    pub fn start_pp(&self) -> i32 {
        if self.is_classic() {
            classic_starting_pp(self.starting_rank)
        } else {
            starting_pp(self.starting_rank)
        }
    }

    /// The rank of a PP total in the campaign's edition (RNK-1, CRK-1).
    pub fn rank_of(&self, pp: i32) -> u8 {
        if self.is_classic() {
            classic_rank(pp)
        } else {
            rank_for(pp)
        }
    }

    /// CDL-1: the DL band of the next classic mission, from every player's
    /// rank now (the DL player's included; the AI's is not a team's).
    /// `None` in CE campaigns, where the engine applies DLB-1.
    pub fn next_band(&self) -> Option<u8> {
        self.is_classic().then(|| {
            let ranks: Vec<u8> = self.players.iter().map(|p| self.rank_of(p.pp)).collect();
            cdl1_band(&ranks)
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
            pp: self.start_pp(),
            times_dl: 0,
            credits: if self.is_classic() {
                STARTING_CREDITS
            } else {
                0
            },
            credit_bought: None,
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

    /// CMP-5 classic: whether `mission` may be played next. In order, only
    /// the listed next mission; with free choice, any mission of the
    /// campaign's sequence (replays allowed) while the campaign goes on.
    pub fn may_play(&self, mission: &str, missions: &[&str]) -> bool {
        if self.free_choice {
            !self.finished && sequence(self.campaign, missions).contains(&mission)
        } else {
            self.next_mission(missions) == Some(mission)
        }
    }

    /// CEC-4: `player` converts 5 PP into 1 credit before the next mission
    /// starts (and so before its rank is set, CRK-2), at most once per
    /// mission. Any player may, the next DL included: the DL is drawn when
    /// the mission starts, and credits stay with the player.
    ///
    /// # Errors
    /// A CE campaign ([`CampaignError::NoCredits`]), a finished campaign or
    /// a mission in play ([`CampaignError::Conflict`]), fewer than 5 PP,
    /// or a credit already bought for this mission.
    pub fn buy_credit(&mut self, player: usize) -> Result<(), CampaignError> {
        if !self.is_classic() {
            return Err(CampaignError::NoCredits);
        }
        self.between_missions(": credits are bought before a mission starts")?;
        let mission = self.history.len() as u32;
        let p = self
            .players
            .get_mut(player)
            .ok_or_else(|| CampaignError::Invalid("no such player".into()))?;
        if p.credit_bought == Some(mission) {
            return Err(CampaignError::CreditAlreadyBought);
        }
        if p.pp < CREDIT_PRICE_PP {
            return Err(CampaignError::NotEnoughPp {
                pp: p.pp,
                price: CREDIT_PRICE_PP,
            });
        }
        p.pp -= CREDIT_PRICE_PP;
        p.credits += 1;
        p.credit_bought = Some(mission);
        Ok(())
    }

    /// Whether `player` bought a credit for the next mission (CEC-4).
    pub fn credit_bought(&self, player: usize) -> bool {
        self.players
            .get(player)
            .is_some_and(|p| p.credit_bought == Some(self.history.len() as u32))
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

    /// Is the campaign between two missions (not finished, no mission
    /// game in play)? `why` ends the in-progress message.
    fn between_missions(&self, why: &str) -> Result<(), CampaignError> {
        if self.finished {
            return Err(CampaignError::Conflict("the campaign is finished".into()));
        }
        if let Some(c) = &self.current {
            return Err(CampaignError::Conflict(format!(
                "mission game {} is in progress{why}",
                c.game
            )));
        }
        Ok(())
    }

    /// Can the next mission start now?
    ///
    /// # Errors
    /// The campaign is finished, a mission is in play, or players are
    /// missing.
    pub fn can_start_next(&self) -> Result<(), CampaignError> {
        self.between_missions("")?;
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
    ///
    /// A classic mission also gets each player's credits (CEC-1, the
    /// draft's checkout limit, CEQ-1) and the DL band of CDL-1
    /// ([`CampaignDoc::next_band`]); its ruleset is the mission's edition's.
    pub fn setup_for_next(&self, mission: &str, dl: Option<usize>, seed: u64) -> Setup {
        let classic = self.is_classic();
        Setup {
            ruleset: Setup::ruleset_for_mission(mission),
            mission: mission.to_string(),
            seats: self
                .players
                .iter()
                .map(|p| SeatSetup {
                    corporation: p.corporation,
                    doomtroopers: None,
                    pp: Some(p.pp),
                    // The engine counts credits in a byte; no campaign
                    // reaches 255, and more could not buy more anyway.
                    credits: classic.then(|| u8::try_from(p.credits.max(0)).unwrap_or(u8::MAX)),
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
            dl_band: self.next_band(),
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
        let credits_before: Vec<i32> = self.players.iter().map(|p| p.credits).collect();
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
                // The engine starts the AI at R0's lowest PP; carry its
                // gain or loss onto the AI's own track.
                let was = self.ai_pp.unwrap_or(self.start_pp());
                let delta = summary.dark_legion_pp - self.start_pp();
                let now = (was + delta).max(0);
                self.ai_pp = Some(now);
                ai_pp = Some(PpChange {
                    before: was,
                    after: now,
                });
            }
        }
        // CMP-4: then the classic economy, in CEC-8 order.
        let economy = if self.is_classic() {
            let rewards = mission_credit_rewards(&current.mission);
            self.apply_economy(summary, rewards, dl)
        } else {
            Vec::new()
        };
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
            credits: if self.is_classic() {
                credits_before
                    .iter()
                    .zip(&self.players)
                    .map(|(b, p)| PpChange {
                        before: *b,
                        after: p.credits,
                    })
                    .collect()
            } else {
                Vec::new()
            },
            economy,
        };
        self.history.push(entry.clone());
        self.current = None;
        if self.ends_now() {
            self.finish();
        }
        Ok(entry)
    }

    /// CMP-6: after mission M; a "first to T" campaign after the first
    /// mission at whose end somebody (the AI's track included, D31) has at
    /// least T PP, or after [`MAX_MISSIONS`].
    fn ends_now(&self) -> bool {
        let played = self.history.len() >= self.missions as usize;
        match (self.end, self.target_pp) {
            (CampaignEnd::FirstTo, Some(t)) => {
                played
                    || self
                        .players
                        .iter()
                        .map(|p| p.pp)
                        .chain(self.ai_pp)
                        .any(|pp| pp >= t)
            }
            _ => played,
        }
    }

    /// CMP-4 classic, in CEC-8 order: primary credits (CEC-2), secondary
    /// rewards (CSM-2, when the result reports them), losses (CEC-3); the
    /// DL's PP per wound (CEC-7) are already in the engine's end PP, which
    /// the players' PP were set to. `rewards` are the mission's credit
    /// rewards, `dl` the DL player (`None`: the AI, which keeps no
    /// credits). Returns the steps applied, in order.
    pub fn apply_economy(
        &mut self,
        summary: &GameSummary,
        rewards: CreditRewards,
        dl: Option<usize>,
    ) -> Vec<EconomyStep> {
        let mut steps = Vec::new();
        // A result stored before teams reported how they ended: one
        // survivor, no loss (only CE games have such results).
        let end_of = |t: &citadel_rules::summary::TeamSummary| {
            t.end.clone().unwrap_or(citadel_rules::summary::TeamEnd {
                eliminated: 0,
                survivors: 1,
                primary: true,
                secondary: None,
            })
        };
        let mut gain = |players: &mut Vec<CampaignPlayer>, player: usize, step, credits: i32| {
            if let Some(p) = players.get_mut(player) {
                if credits != 0 {
                    p.credits = (p.credits + credits).max(0);
                    steps.push(EconomyStep {
                        player,
                        step,
                        credits,
                        pp: 0,
                    });
                }
            }
        };
        // CEC-2.
        match summary.result {
            Some(MissionResult::Success) => {
                for t in &summary.teams {
                    let end = end_of(t);
                    if end.primary && end.survivors > 0 {
                        let credits = i32::from(rewards.dt);
                        gain(
                            &mut self.players,
                            usize::from(t.seat.0),
                            EconomyKind::PrimarySuccess,
                            credits,
                        );
                    }
                }
            }
            Some(MissionResult::Failure) => {
                if let Some(d) = dl {
                    gain(
                        &mut self.players,
                        d,
                        EconomyKind::PrimaryFailure,
                        i32::from(rewards.dl),
                    );
                }
            }
            None => {}
        }
        // CSM-2, as the engine reports it.
        for t in &summary.teams {
            if let Some(sec) = end_of(t).secondary {
                let kind = if sec.completed {
                    EconomyKind::SecondarySuccess
                } else {
                    EconomyKind::SecondaryFailure
                };
                gain(&mut self.players, usize::from(t.seat.0), kind, sec.credits);
                if let Some(d) = dl {
                    gain(&mut self.players, d, kind, sec.dl_credits);
                }
            }
        }
        // CEC-3: one DT at a time, a credit while there is one, else 5 PP.
        for t in &summary.teams {
            let player = usize::from(t.seat.0);
            let Some(p) = self.players.get_mut(player) else {
                continue;
            };
            let (credits_before, pp_before) = (p.credits, p.pp);
            for _ in 0..end_of(t).eliminated {
                if p.credits > 0 {
                    p.credits -= 1;
                } else {
                    p.pp = (p.pp - LOSS_PP).max(0);
                }
            }
            if end_of(t).eliminated > 0 {
                steps.push(EconomyStep {
                    player,
                    step: EconomyKind::Loss,
                    credits: p.credits - credits_before,
                    pp: p.pp - pp_before,
                });
            }
        }
        steps
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
    use citadel_rules::game::state::rank_for as rank;
    use citadel_rules::game::Seat;
    use citadel_rules::summary::TeamSummary;
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
                    end: None,
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

    // ------------------------------------------------------------ classic

    /// A classic campaign of `m` missions at R0 with these players joined.
    fn classic(players: &[Corporation], m: u32, r0: u8, mode: DarkLegionMode) -> CampaignDoc {
        let terms = CampaignTerms::new(
            "Classic",
            players.len() as u8,
            m,
            r0,
            mode,
            CampaignChoice::Classic,
        );
        let mut c = CampaignDoc::create_with(&terms).expect("valid");
        for (i, corp) in players.iter().enumerate() {
            c.join(&format!("P{i}"), *corp, format!("hash{i}"), None)
                .expect("joins");
        }
        c
    }

    /// A classic team's end: seat, PP, DTs eliminated, DTs alive or exited.
    fn team(seat: u8, pp: i32, eliminated: u8, survivors: u8) -> TeamSummary {
        TeamSummary {
            seat: Seat(seat),
            corporation: Corporation::ALL[usize::from(seat)],
            pp,
            end: Some(TeamEnd {
                eliminated,
                survivors,
                primary: true,
                secondary: None,
            }),
        }
    }

    fn classic_summary(
        result: MissionResult,
        dl: Option<u8>,
        dl_pp: i32,
        teams: Vec<TeamSummary>,
    ) -> GameSummary {
        GameSummary {
            teams,
            dark_legion_seat: dl.map(Seat),
            dark_legion_pp: dl_pp,
            result: Some(result),
            corporations_won: false,
            dark_legion_won: false,
            outdated: None,
        }
    }

    fn credits(c: &CampaignDoc) -> Vec<i32> {
        c.players.iter().map(|p| p.credits).collect()
    }

    fn pps(c: &CampaignDoc) -> Vec<i32> {
        c.players.iter().map(|p| p.pp).collect()
    }

    /// Play classic mission `mission` with DL `dl` and end it with `s`.
    fn play_classic(
        c: &mut CampaignDoc,
        mission: &str,
        dl: Option<usize>,
        s: &GameSummary,
    ) -> HistoryEntry {
        c.can_start_next().expect("can start");
        let game = format!("G{}", c.history.len());
        c.begin(&game, mission, dl);
        c.apply_result(&game, s).expect("applies")
    }

    use citadel_rules::summary::{SecondaryEnd, TeamEnd};

    #[test]
    fn cec_1_every_team_starts_a_classic_campaign_with_2_credits_and_crk1_pp() {
        // CRK-1: rank 3 starts at 25 PP (not CE's 20); credits are 2 at
        // any R0 (CEC-1 is the campaign's rule; CRK-4's 2 per rank is a
        // single mission's).
        let c = classic(&THREE, 10, 3, DarkLegionMode::Rotate);
        assert_eq!(pps(&c), [25, 25, 25]);
        assert_eq!(credits(&c), [2, 2, 2]);
        assert!(c.players.iter().all(|p| c.rank_of(p.pp) == 3));
        assert_eq!(c.rank_of(100), 6, "CRK-1 tops out at 6");
        assert_eq!(c.rank_of(24), 2);
        // CE campaigns have no credits, and CE ranks.
        let ce = campaign(&THREE, 2, 3, DarkLegionMode::Rotate);
        assert_eq!(credits(&ce), [0, 0, 0]);
        assert_eq!(ce.rank_of(100), 11);
        // The classic sequence: missions 1..10 in number order.
        let all = all_mission_ids();
        let seq = sequence(CampaignChoice::Classic, &all);
        let want: Vec<String> = (1..=10).map(|n| format!("classic-m{n}")).collect();
        assert_eq!(seq, want);
        assert_eq!(c.next_mission(&all), Some("classic-m1"));
        assert_eq!(classic_number("classic-training"), None);
        assert_eq!(classic_number("classic-m0"), None);
    }

    #[test]
    fn cec_1_the_setup_gives_the_draft_the_campaigns_credits_and_pp() {
        let mut c = classic(&TWO, 10, 2, DarkLegionMode::Rotate);
        c.players[0].credits = 7;
        c.players[1].pp = 30;
        let setup = c.setup_for_next("classic-m1", Some(1), 5);
        assert_eq!(setup.ruleset, citadel_rules::game::RulesetId::Classic);
        assert_eq!(
            setup.seats.iter().map(|s| s.credits).collect::<Vec<_>>(),
            [Some(7), Some(2)]
        );
        assert_eq!(setup.seats[1].pp, Some(30));
        // The engine's team starts with the campaign's credits as its
        // checkout limit (CEQ-1), not the rank's single-mission credits.
        let mut dice = citadel_rules::dice::SeededDice::new(5);
        let (game, _) = citadel_rules::game::Game::new(setup, &mut dice).expect("a classic game");
        let view = game.view(citadel_rules::game::Viewer::Spectator);
        assert_eq!(view.teams.len(), 1);
        assert_eq!(view.teams[0].credits, 7);
        assert_eq!(view.teams[0].pp, 10);
        assert_eq!(view.dark_legion.pp, 30);
        // CDL-1 counts the DL player's rank too: ranks 2 and 3 → band 1-2.
        assert_eq!(view.dark_legion.band, 1);
        // A CE campaign passes no credits and no band.
        let ce = campaign(&TWO, 2, 1, DarkLegionMode::Rotate);
        let setup = ce.setup_for_next("ce-c1m1", Some(0), 1);
        assert!(setup.seats.iter().all(|s| s.credits.is_none()));
        assert_eq!(setup.dl_band, None);
        assert_eq!(setup.ruleset, citadel_rules::game::RulesetId::Ce);
    }

    #[test]
    fn cdl_1_the_band_rises_with_two_teams_ranks_counting_the_dl_player() {
        assert_eq!(cdl1_band(&[1, 1, 1]), 1);
        assert_eq!(cdl1_band(&[3, 2, 1]), 1, "one team at rank 3 is not enough");
        assert_eq!(cdl1_band(&[3, 4, 1]), 3);
        assert_eq!(cdl1_band(&[5, 4, 1]), 3);
        assert_eq!(cdl1_band(&[5, 6, 1]), 5);
        // A single player (AI campaign): their rank decides.
        assert_eq!(cdl1_band(&[3]), 3);
        assert_eq!(cdl1_band(&[]), 1);
        // From the standings, the DL player's included; it goes down with
        // the ranks (D45).
        let mut c = classic(&THREE, 10, 1, DarkLegionMode::Rotate);
        assert_eq!(c.next_band(), Some(1));
        c.players[0].pp = 25;
        c.players[2].pp = 45;
        assert_eq!(c.next_band(), Some(3));
        assert_eq!(c.setup_for_next("classic-m1", Some(2), 1).dl_band, Some(3));
        c.players[0].pp = 24;
        assert_eq!(c.next_band(), Some(1));
        assert_eq!(
            campaign(&TWO, 2, 1, DarkLegionMode::Rotate).next_band(),
            None
        );
    }

    #[test]
    fn cec_2_primary_success_credits_each_primary_team_with_a_dt_alive_or_exited() {
        let mut c = classic(&THREE, 10, 1, DarkLegionMode::Rotate);
        // classic-m3 rewards 2 credits to DTs, 2 to the DL.
        assert_eq!(
            mission_credit_rewards("classic-m3"),
            CreditRewards { dt: 2, dl: 2 }
        );
        let s = classic_summary(
            MissionResult::Success,
            Some(0),
            6,
            vec![team(1, 9, 0, 2), team(2, 4, 2, 0)],
        );
        let h = play_classic(&mut c, "classic-m3", Some(0), &s);
        // P1 has survivors: +2; P2 lost both DTs: no credits, and CEC-3
        // takes 2 credits; the DL player gains none on a success.
        assert_eq!(credits(&c), [2, 4, 0]);
        assert_eq!(pps(&c), [6, 9, 4]);
        assert_eq!(
            h.credits[1],
            PpChange {
                before: 2,
                after: 4
            }
        );
        // A team not assigned the primary mission (CSM-1) gains nothing.
        let mut c = classic(&THREE, 10, 1, DarkLegionMode::Rotate);
        let mut off = team(2, 4, 0, 2);
        if let Some(e) = off.end.as_mut() {
            e.primary = false;
        }
        let s = classic_summary(
            MissionResult::Success,
            Some(0),
            6,
            vec![team(1, 9, 0, 1), off],
        );
        play_classic(&mut c, "classic-m3", Some(0), &s);
        assert_eq!(credits(&c), [2, 4, 2]);
    }

    #[test]
    fn cec_2_failure_gives_the_dl_player_the_dl_credit_reward() {
        let mut c = classic(&TWO, 10, 1, DarkLegionMode::Rotate);
        // classic-m1: DL 2 credits.
        let s = classic_summary(MissionResult::Failure, Some(1), 4, vec![team(0, 3, 0, 2)]);
        let h = play_classic(&mut c, "classic-m1", Some(1), &s);
        assert_eq!(credits(&c), [2, 4]);
        assert_eq!(
            h.economy,
            [EconomyStep {
                player: 1,
                step: EconomyKind::PrimaryFailure,
                credits: 2,
                pp: 0
            }]
        );
        // With the AI as DL nobody gains the DL's credits.
        let mut c = classic(&TWO, 10, 1, DarkLegionMode::Ai);
        let s = classic_summary(
            MissionResult::Failure,
            None,
            4,
            vec![team(0, 3, 0, 2), team(1, 3, 0, 2)],
        );
        play_classic(&mut c, "classic-m1", None, &s);
        assert_eq!(credits(&c), [2, 2]);
    }

    #[test]
    fn cec_3_each_eliminated_dt_costs_a_credit_or_5_pp_at_zero_credits() {
        let mut c = classic(&THREE, 10, 1, DarkLegionMode::Rotate);
        c.players[1].credits = 1;
        c.players[2].credits = 0;
        // P1: 2 DTs lost with 1 credit → the credit, then 5 PP.
        // P2: 1 DT lost at 0 credits with 3 PP → 5 PP, floored at 0.
        let s = classic_summary(
            MissionResult::Failure,
            Some(0),
            7,
            vec![team(1, 12, 2, 0), team(2, 3, 1, 1)],
        );
        let h = play_classic(&mut c, "classic-m2", Some(0), &s);
        assert_eq!(credits(&c), [2 + 1, 0, 0], "m2's DL reward is 1");
        assert_eq!(pps(&c), [7, 7, 0]);
        assert_eq!(
            h.pp[2],
            PpChange {
                before: 0,
                after: 0
            }
        );
        let losses: Vec<&EconomyStep> = h
            .economy
            .iter()
            .filter(|e| e.step == EconomyKind::Loss)
            .collect();
        assert_eq!(losses.len(), 2);
        assert_eq!((losses[0].credits, losses[0].pp), (-1, -5));
        assert_eq!((losses[1].credits, losses[1].pp), (0, -3), "the floor at 0");
    }

    #[test]
    fn cec_4_buy_a_credit_for_5_pp_once_per_mission_before_it_starts() {
        let mut c = classic(&TWO, 10, 2, DarkLegionMode::Rotate);
        assert_eq!(pps(&c), [10, 10]);
        c.buy_credit(0).expect("buys");
        assert_eq!((c.players[0].pp, c.players[0].credits), (5, 3));
        // CRK-2: the rank the mission starts with is after the purchase.
        assert_eq!(c.rank_of(c.players[0].pp), 1);
        assert_eq!(
            c.setup_for_next("classic-m1", Some(1), 1).seats[0].pp,
            Some(5)
        );
        assert!(c.credit_bought(0));
        assert!(!c.credit_bought(1));
        assert_eq!(c.buy_credit(0), Err(CampaignError::CreditAlreadyBought));
        // Not during a mission.
        c.begin("G0", "classic-m1", Some(1));
        assert!(matches!(c.buy_credit(1), Err(CampaignError::Conflict(_))));
        let s = classic_summary(MissionResult::Success, Some(1), 0, vec![team(0, 4, 0, 2)]);
        c.apply_result("G0", &s).expect("applies");
        // The next mission: again, but 4 PP are not enough.
        assert!(!c.credit_bought(0));
        assert_eq!(
            c.buy_credit(0),
            Err(CampaignError::NotEnoughPp { pp: 4, price: 5 })
        );
        assert_eq!((c.players[0].pp, c.players[0].credits), (4, 4));
        assert_eq!(
            c.buy_credit(9),
            Err(CampaignError::Invalid("no such player".into()))
        );
        // CE campaigns have no credits.
        let mut ce = campaign(&TWO, 2, 2, DarkLegionMode::Rotate);
        assert_eq!(ce.buy_credit(0), Err(CampaignError::NoCredits));
    }

    #[test]
    fn cec_8_primary_credits_then_secondary_rewards_then_losses_then_dl_pp() {
        let mut c = classic(
            &[
                Corporation::Bauhaus,
                Corporation::Capitol,
                Corporation::Mishima,
                Corporation::Imperial,
            ],
            10,
            1,
            DarkLegionMode::Rotate,
        );
        c.players[1].credits = 0;
        c.players[2].credits = 0;
        c.players[3].credits = 0;
        // P1 (primary, 0 credits) succeeds with one DT lost: the success
        // credit comes first, so the loss takes it rather than 5 PP.
        // P2 (a secondary mission, synthetic: +2) loses both DTs: the
        // secondary credits come before the losses and pay for them.
        // P3's secondary failed: the DL player gains 1.
        let mut p2 = team(2, 8, 2, 0);
        if let Some(e) = p2.end.as_mut() {
            e.primary = false;
            e.secondary = Some(SecondaryEnd {
                completed: true,
                credits: 2,
                dl_credits: 0,
            });
        }
        let mut p3 = team(3, 6, 0, 2);
        if let Some(e) = p3.end.as_mut() {
            e.primary = false;
            e.secondary = Some(SecondaryEnd {
                completed: false,
                credits: 0,
                dl_credits: 1,
            });
        }
        // The engine's end PP already hold CEC-7's DL PP (9 here).
        let s = classic_summary(
            MissionResult::Success,
            Some(0),
            9,
            vec![team(1, 10, 1, 1), p2, p3],
        );
        let h = play_classic(&mut c, "classic-m1", Some(0), &s);
        assert_eq!(credits(&c), [3, 0, 0, 0]);
        assert_eq!(pps(&c), [9, 10, 8, 6], "no PP lost: credits paid");
        let steps: Vec<(usize, EconomyKind)> =
            h.economy.iter().map(|e| (e.player, e.step)).collect();
        assert_eq!(
            steps,
            [
                (1, EconomyKind::PrimarySuccess),
                (2, EconomyKind::SecondarySuccess),
                (0, EconomyKind::SecondaryFailure),
                (1, EconomyKind::Loss),
                (2, EconomyKind::Loss),
            ]
        );
        // Without secondary results (today's games) the steps skip them.
        let mut c = classic(&TWO, 10, 1, DarkLegionMode::Rotate);
        let s = classic_summary(MissionResult::Success, Some(0), 2, vec![team(1, 5, 1, 1)]);
        let h = play_classic(&mut c, "classic-m1", Some(0), &s);
        assert_eq!(h.economy.len(), 2);
        assert_eq!(credits(&c), [2, 2]);
    }

    #[test]
    fn cmp6_first_to_t_ends_after_the_mission_where_someone_reaches_t() {
        let mut terms = CampaignTerms::new(
            "T",
            2,
            0,
            1,
            DarkLegionMode::Rotate,
            CampaignChoice::Classic,
        );
        terms.end = CampaignEnd::FirstTo;
        terms.target_pp = 30;
        let mut c = CampaignDoc::create_with(&terms).expect("valid");
        assert_eq!(c.missions, MAX_MISSIONS);
        assert_eq!(c.target_pp, Some(30));
        for (i, corp) in TWO.iter().enumerate() {
            c.join(&format!("P{i}"), *corp, format!("h{i}"), None)
                .expect("joins");
        }
        play_classic(
            &mut c,
            "classic-m1",
            Some(0),
            &classic_summary(MissionResult::Failure, Some(0), 29, vec![team(1, 12, 0, 2)]),
        );
        assert!(!c.finished);
        // Missions go on past the tenth record: the sequence restarts.
        let all = all_mission_ids();
        assert_eq!(c.order(&all)[10], "classic-m1");
        play_classic(
            &mut c,
            "classic-m2",
            Some(1),
            &classic_summary(MissionResult::Failure, Some(1), 31, vec![team(0, 31, 0, 2)]),
        );
        assert!(c.finished);
        // Highest PP win, ties joint.
        assert_eq!(c.winners, [0, 1]);
        assert!(c.can_start_next().is_err());
        // The default T is 130.
        let d = CampaignTerms::new(
            "T",
            2,
            0,
            1,
            DarkLegionMode::Rotate,
            CampaignChoice::Classic,
        );
        assert_eq!(d.target_pp, 130);
    }

    #[test]
    fn cmp1_classic_terms_are_checked() {
        let ok = CampaignTerms::new(
            "X",
            2,
            3,
            1,
            DarkLegionMode::Rotate,
            CampaignChoice::Classic,
        );
        assert!(CampaignDoc::create_with(&ok).is_ok(), "a mini-campaign");
        let bad = |f: &dyn Fn(&mut CampaignTerms)| {
            let mut t = ok.clone();
            f(&mut t);
            CampaignDoc::create_with(&t)
        };
        assert!(bad(&|t| t.starting_rank = 7).is_err(), "classic ranks 1-6");
        assert!(bad(&|t| t.starting_rank = 6).is_ok());
        assert!(bad(&|t| t.missions = 0).is_err());
        assert!(bad(&|t| {
            t.end = CampaignEnd::FirstTo;
            t.target_pp = 0;
        })
        .is_err());
        assert!(bad(&|t| {
            t.end = CampaignEnd::FirstTo;
            t.campaign = CampaignChoice::C1;
        })
        .is_err());
        assert!(bad(&|t| {
            t.free_choice = true;
            t.campaign = CampaignChoice::Both;
        })
        .is_err());
        assert!(bad(&|t| t.free_choice = true).is_ok());
    }

    #[test]
    fn cmp5_classic_free_choice_plays_any_campaign_mission_with_replays() {
        let all = all_mission_ids();
        let mut terms = CampaignTerms::new(
            "F",
            2,
            3,
            1,
            DarkLegionMode::Rotate,
            CampaignChoice::Classic,
        );
        terms.free_choice = true;
        let mut c = CampaignDoc::create_with(&terms).expect("valid");
        assert!(c.may_play("classic-m7", &all));
        assert!(c.may_play("classic-m1", &all));
        assert!(!c.may_play("classic-training", &all));
        assert!(!c.may_play("ce-c1m1", &all));
        c.current = None;
        c.history.push(HistoryEntry {
            index: 0,
            mission: "classic-m7".into(),
            game: "G".into(),
            dark_legion: None,
            result: None,
            pp: Vec::new(),
            ai_pp: None,
            credits: Vec::new(),
            economy: Vec::new(),
        });
        assert!(c.may_play("classic-m7", &all), "replays allowed");
        // In order, only the listed one.
        let ordered = classic(&TWO, 3, 1, DarkLegionMode::Rotate);
        assert!(ordered.may_play("classic-m1", &all));
        assert!(!ordered.may_play("classic-m2", &all));
    }

    #[test]
    fn a_ce_document_stored_before_classic_campaigns_loads_unchanged() {
        // A CE document as the previous server version stored it.
        let stored = r#"{"name":"Old","planned_players":2,"missions":2,"starting_rank":1,
            "dark_legion":"rotate","campaign":"c1",
            "players":[{"name":"A","corporation":"bauhaus","token_hash":"h0","account":null,"pp":14,"times_dl":1},
                       {"name":"B","corporation":"capitol","token_hash":"h1","account":null,"pp":6,"times_dl":0}],
            "ai_pp":null,
            "history":[{"index":0,"mission":"ce-c1m1","game":"G1","dark_legion":0,"result":"failure",
                        "pp":[{"before":0,"after":14},{"before":0,"after":6}],"ai_pp":null}],
            "current":null,"finished":false,"winners":[],"ai_wins":false}"#;
        let c: CampaignDoc = serde_json::from_str(stored).expect("parses");
        assert!(!c.is_classic());
        assert_eq!(c.end, CampaignEnd::Missions);
        assert_eq!(c.target_pp, None);
        assert!(!c.free_choice);
        assert_eq!(credits(&c), [0, 0]);
        assert!(c.history[0].credits.is_empty() && c.history[0].economy.is_empty());
        assert_eq!(c.next_mission(&RECORDS), Some("ce-c1m2"));
        assert_eq!(c.rank_of(14), 2);
        // Its fields write back as they were, with the new ones at their
        // defaults; and it round-trips.
        let again = serde_json::to_value(&c).expect("json");
        let before: serde_json::Value = serde_json::from_str(stored).expect("json");
        for (k, v) in before.as_object().expect("object") {
            if k != "players" {
                assert_eq!(&again[k], v, "{k}");
            }
        }
        let back: CampaignDoc = serde_json::from_value(again).expect("parses");
        assert_eq!(back, c);
        // A CE mission result stored before teams reported their end
        // changes nothing but PP in a CE campaign.
        let mut ce = campaign(&TWO, 2, 1, DarkLegionMode::Rotate);
        play(&mut ce, "G1", Some(0), &summary(Some(0), 3, &[(1, 4)]));
        assert_eq!(credits(&ce), [0, 0]);
        assert!(ce.history[0].economy.is_empty());
    }

    #[test]
    fn a_classic_document_round_trips_through_json() {
        let mut c = classic(&TWO, 3, 2, DarkLegionMode::Rotate);
        c.buy_credit(1).expect("buys");
        play_classic(
            &mut c,
            "classic-m1",
            Some(0),
            &classic_summary(MissionResult::Success, Some(0), 5, vec![team(1, 8, 1, 1)]),
        );
        let text = serde_json::to_string(&c).expect("serializes");
        let back: CampaignDoc = serde_json::from_str(&text).expect("parses");
        assert_eq!(back, c);
        assert!(back.is_classic());
    }
}
