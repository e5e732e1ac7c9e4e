//! Identifiers shared by the content tables and the game (core CONV-5).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The ruleset a game runs (core CONV-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edition {
    /// The 1993 original.
    Classic,
    /// The Collectors Edition (2018/2023).
    Ce,
}

/// A corporation, in the cyclic order of core AI-1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Corporation {
    /// Bauhaus.
    Bauhaus,
    /// Capitol.
    Capitol,
    /// Cybertronic.
    Cybertronic,
    /// Imperial.
    Imperial,
    /// Mishima.
    Mishima,
}

impl Corporation {
    /// All five, in id order.
    pub const ALL: [Corporation; 5] = [
        Corporation::Bauhaus,
        Corporation::Capitol,
        Corporation::Cybertronic,
        Corporation::Imperial,
        Corporation::Mishima,
    ];

    /// The stable id (`bauhaus`, ...).
    pub const fn id(self) -> &'static str {
        match self {
            Corporation::Bauhaus => "bauhaus",
            Corporation::Capitol => "capitol",
            Corporation::Cybertronic => "cybertronic",
            Corporation::Imperial => "imperial",
            Corporation::Mishima => "mishima",
        }
    }
}

impl fmt::Display for Corporation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A Doomtrooper's specialty (ce.md COR-3, SPC-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Specialty {
    /// Close combat specialist.
    CloseCombat,
    /// Firearms specialist.
    Firearms,
    /// Tech specialist.
    Tech,
}

/// The three attack types (core ATK-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum AttackType {
    /// Close combat: adjacent target.
    CloseCombat,
    /// Firearm: range and line of sight.
    Firearm,
    /// Tech (CE only).
    Tech,
}

/// Dark Legion creature types, in the pool order of core AI-5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum CreatureKind {
    /// Undead Legionnaire.
    Legionnaire,
    /// Necromutant.
    Necromutant,
    /// Centurion.
    Centurion,
    /// Razide.
    Razide,
    /// Praetorian Stalker (CE).
    PraetorianStalker,
    /// Nepharite.
    Nepharite,
    /// Ezoghoul.
    Ezoghoul,
}

impl CreatureKind {
    /// All kinds in pool order.
    pub const ALL: [CreatureKind; 7] = [
        CreatureKind::Legionnaire,
        CreatureKind::Necromutant,
        CreatureKind::Centurion,
        CreatureKind::Razide,
        CreatureKind::PraetorianStalker,
        CreatureKind::Nepharite,
        CreatureKind::Ezoghoul,
    ];

    /// The stable id used in figure ids (`legionnaire#3`).
    pub const fn id(self) -> &'static str {
        match self {
            CreatureKind::Legionnaire => "legionnaire",
            CreatureKind::Necromutant => "necromutant",
            CreatureKind::Centurion => "centurion",
            CreatureKind::Razide => "razide",
            CreatureKind::PraetorianStalker => "praetorian_stalker",
            CreatureKind::Nepharite => "nepharite",
            CreatureKind::Ezoghoul => "ezoghoul",
        }
    }
}

impl fmt::Display for CreatureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
