//! The 1993 ("classic") edition tables (classic.md) as typed data.
//!
//! Most classic tables have the CE shape and live in [`ClassicTables::base`]
//! (a [`CeTables`] holding classic values). Two have no CE counterpart: the
//! PP rank track (CRK-1) and the two-use Doomtrooper cards (CDT). The values
//! live in `data/classic/*.toml`, loaded and validated by
//! [`super::tables_loader::load_classic_tables`].

use super::tables::CeTables;
use serde::{Deserialize, Serialize};

/// Every classic table, loaded and validated.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClassicTables {
    /// The tables in the shared shape the engine reads (CeTables type):
    /// classic values.
    pub base: CeTables,
    /// CRK-1: minimum PP of ranks 1..=6, i.e. [0, 10, 25, 45, 70, 100].
    pub rank_min_pp: Vec<i32>,
    /// CDT: the 13 two-use Doomtrooper cards.
    pub dt_cards: Vec<ClassicDtCardDef>,
}

impl ClassicTables {
    /// CRK-1: the rank of a PP total (1..=6; below 0 PP is rank 1).
    pub fn rank_for_pp(&self, pp: i32) -> u8 {
        let n = self.rank_min_pp.iter().filter(|&&min| pp >= min).count();
        u8::try_from(n.max(1)).unwrap_or(u8::MAX)
    }

    /// A classic Doomtrooper card by number (1..=13).
    pub fn dt_card(&self, number: u32) -> Option<&ClassicDtCardDef> {
        self.dt_cards.iter().find(|c| c.number == number)
    }
}

/// One classic Doomtrooper card (CDT-1): two uses, of which the player
/// picks one when playing it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClassicDtCardDef {
    /// 1..=13, in the order of the classic.md CDT table.
    pub number: u32,
    /// Use 1, the boon for the player's own side.
    pub boon: ClassicDtUse,
    /// Use 2, the sabotage against a chosen player.
    pub sabotage: ClassicDtUse,
    /// Printed name of the boon.
    pub boon_name: String,
    /// Printed name of the sabotage.
    pub sabotage_name: String,
    /// What the boon does, for players, in our own words.
    pub boon_text: String,
    /// What the sabotage does, for players, in our own words.
    pub sabotage_text: String,
}

/// One use of a classic Doomtrooper card (classic.md CDT table); the game
/// implements each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ClassicDtUse {
    /// The DL may not attack the player's DTs for the rest of the round.
    CombatAura,
    /// The chosen team may not CC-attack Legionnaires for the mission.
    LegionnaireFear,
    /// Take control of a DL figure for 2 actions.
    CommandingVoice,
    /// Take a random DT card from the chosen player.
    StealInitiative,
    /// 3 black dice at a DL figure, no LoS.
    ControlDefenseSystem,
    /// Place a door in a 1-wide corridor.
    RemoteControlledDoor,
    /// +2 team extra actions this round.
    CombatFrenzy,
    /// Take 5 PP from the chosen player.
    CombatReport,
    /// Re-roll 1 die in each own attack this round.
    HeroicLuck,
    /// The chosen team may not CC-attack Necromutants for the mission.
    Necrofear,
    /// Move a face-down force card to a side-adjacent sector.
    CommandInterference,
    /// The chosen DT's first Move each round has −1 allowance.
    HurtLeg,
    /// Relocate an own DT to a side-adjacent sector.
    LimitedTeleportation,
    /// Reaction: cancel a successful firearm attack on a DT.
    DudRound,
    /// Heal 2 wounds on an own DT.
    Medic,
    /// The chosen DT's firearm dice use the colour of its rank − 2.
    UncalibratedTargeter,
    /// Heal 2 wounds on an own DT.
    MedicineInjector,
    /// The chosen team's DTs take at most 1 action this round.
    CombatNeurosis,
    /// Each own DT may make one free Move now.
    MovementBoost,
    /// Relocate the chosen DT to another sector.
    FaultyTeleportation,
    /// Own DTs phase for the rest of the round.
    MolecularPhasing,
    /// The chosen team loses 2 from its extra-action pool.
    CoordinatingError,
    /// No attacks against the player's DTs for the rest of the round.
    SpectralDisplacement,
    /// Make two Move actions with another team's DTs.
    FalseOrders,
    /// A DL figure's AF is −1 against the player's attacks this round.
    WeakSpot,
    /// Discard a random DT card of the chosen player.
    LostInitiative,
}
