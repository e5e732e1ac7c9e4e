//! The unchecked description of a game, validated into a [`super::Game`].

use super::ruleset::RulesetId;
use crate::content::{Corporation, Specialty};
use serde::{Deserialize, Serialize};

/// One player's seat (core CONV-7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatSetup {
    /// The corporation this player plays (ce.md COR-1).
    pub corporation: Corporation,
    /// The two Doomtroopers of the team, by specialty (SET-8). Default: the
    /// FA and CC Specialists (SET-13).
    #[serde(default)]
    pub doomtroopers: Option<[Specialty; 2]>,
    /// Starting PP, for campaigns (CMP-3). Default: `10·(R0−1)` (RNK-4).
    #[serde(default)]
    pub pp: Option<i32>,
    /// Credits the team may check out in the draft, for classic campaigns
    /// (CEC-1: the campaign carries them; CEQ-1: a checkout limit). In
    /// place of the rank's credits. Default: the rank's (CRK-4, EQP-2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credits: Option<u8>,
}

/// Who commands the Dark Legion (SET-2, SET-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case", tag = "mode", content = "seat")]
pub enum DarkLegionSetup {
    /// Drawn at random from all players (core CMP-2, single mission).
    Drawn,
    /// This seat, chosen by the host or by the campaign.
    Seat(u8),
    /// The AI (core AI-*); every seat plays a corporation.
    Ai,
}

/// Everything needed to start a game. With the same setup, seed and
/// commands, a game always replays identically.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Setup {
    /// The ruleset the game is played by. Records stored before rulesets
    /// existed have no field and are Collectors Edition games.
    #[serde(default)]
    pub ruleset: RulesetId,
    /// Mission id, e.g. `ce-c1m1`.
    pub mission: String,
    /// Seats in seat order.
    pub seats: Vec<SeatSetup>,
    /// The Dark Legion.
    pub dark_legion: DarkLegionSetup,
    /// The agreed starting rank R0 (RNK-4), 1..=12.
    #[serde(default = "default_rank")]
    pub starting_rank: u8,
    /// The seed of the game's dice.
    pub seed: u64,
    /// A mission of a campaign (EQP-5: the equipment draft starts with the
    /// lowest PP, ties at random). Absent in single missions and in
    /// records stored before campaigns said so.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub campaign: bool,
    /// In a campaign: whether C2M4 was completed (CMP-3), for C2M5's
    /// `nepharite_if_c2m4_failed`. `None`: not played, which counts as not
    /// completed. Records stored before the field existed have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c2m4_completed: Option<bool>,
    /// The DL band fixed by a campaign (classic CDL-1, which counts every
    /// player's rank, the DL player's included; the campaign knows them
    /// all). `None`: from the corporation teams' PP (DLB-1, CDL-1 in a
    /// single mission).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dl_band: Option<u8>,
}

fn default_rank() -> u8 {
    1
}

/// SET-12: how many players a game may seat — 1 to 5 against the AI
/// Dark Legion, 2 to 5 when a player commands it. The one home of this
/// rule: the server's option checks and campaigns ask here.
pub fn player_counts(ai_dark_legion: bool) -> std::ops::RangeInclusive<u8> {
    if ai_dark_legion {
        1..=5
    } else {
        2..=5
    }
}

/// RNK-4: the starting ranks R0 a game or campaign may agree on.
pub const STARTING_RANKS: std::ops::RangeInclusive<u8> = 1..=12;

/// RNK-4 / CRK-4: the starting ranks of an edition (CE 1–12, classic 1–6).
pub fn starting_ranks(edition: crate::content::Edition) -> std::ops::RangeInclusive<u8> {
    match edition {
        crate::content::Edition::Ce => STARTING_RANKS,
        crate::content::Edition::Classic => 1..=6,
    }
}

impl Setup {
    /// A single mission with default choices, played by the ruleset of
    /// the mission's edition.
    pub fn new(mission: &str, corporations: &[Corporation], dark_legion: DarkLegionSetup) -> Self {
        Setup {
            ruleset: Setup::ruleset_for_mission(mission),
            mission: mission.to_string(),
            seats: corporations
                .iter()
                .map(|c| SeatSetup {
                    corporation: *c,
                    doomtroopers: None,
                    pp: None,
                    credits: None,
                })
                .collect(),
            dark_legion,
            starting_rank: 1,
            seed: 0,
            campaign: false,
            c2m4_completed: None,
            dl_band: None,
        }
    }

    /// The ruleset that plays mission `id` (by its edition; CE when the
    /// mission is unknown, which setup then refuses).
    pub fn ruleset_for_mission(id: &str) -> RulesetId {
        crate::content::Content::embedded()
            .ok()
            .and_then(|c| c.mission(id))
            .map_or(RulesetId::Ce, |m| RulesetId::for_edition(m.edition))
    }

    /// The same setup under another ruleset.
    pub fn with_ruleset(mut self, ruleset: RulesetId) -> Self {
        self.ruleset = ruleset;
        self
    }

    /// The same setup with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
}

/// Why a setup was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "error", content = "detail")]
pub enum SetupError {
    /// The content failed to load (a build defect).
    #[error("content: {0}")]
    Content(String),
    /// No mission with that id.
    #[error("unknown mission {0}")]
    UnknownMission(String),
    /// The mission's edition is not playable yet.
    #[error("mission {0} is not playable yet")]
    MissionNotPlayable(String),
    /// Player counts (SET-12).
    #[error("a game needs 2-5 players with a Dark Legion player, or 1-5 with the AI")]
    PlayerCount,
    /// Two seats picked the same corporation (COR-1).
    #[error("each player needs a different corporation")]
    DuplicateCorporation,
    /// The DL seat is not a seat.
    #[error("the Dark Legion seat does not exist")]
    BadDarkLegionSeat,
    /// R0 out of 1..=12.
    #[error("the starting rank must be 1-12")]
    BadRank,
    /// Two DTs of the same specialty.
    #[error("a team is two different Doomtroopers")]
    BadTeam,
    /// The board or mission data is invalid.
    #[error("mission data: {0}")]
    BadMission(String),
}
