//! The edition hooks of core CONV-6 that are values, not state: how far a
//! Doomtrooper moves, whether enemies block, what a corporation adds to an
//! attack, how force cards are dealt and revealed, how promotion points
//! and ranks work. Each ruleset names one [`Hooks`] table; the shared core
//! reads the table and never asks which edition it is playing. A third
//! edition is a third table (and, where it needs state, an
//! [`EditionState`](super::EditionState) variant).

use crate::content::tables::EquipmentEffect;
use crate::content::{AttackType, Corporation};
use crate::dice::DieColor;
use crate::game::secondary::SecondaryRules;

/// How force cards are dealt at setup (core FRC-2, the FORCE_DEAL hook).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ForceDeal {
    /// CE FOR-1: as many cards per tile as there are corporation players,
    /// tiles in layout order; the rest is the draw pile.
    PerPlayerPerTile,
    /// Classic CFC-2/3: a few cards removed by player count, one per
    /// sector in layout order, the rest at random onto the Citadel
    /// sectors; no draw pile.
    OnePerSectorRestToCitadel,
}

/// What ends a Move action on a tile turns over (core FRC-4, REVEAL).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reveal {
    /// CE FOR-2: each team's first Move ending there turns one card.
    OnePerTeam,
    /// Classic CFC-4: the first Move of any DT ending there turns them all.
    AllOnFirstEntry,
}

/// How a team is charged for wounding Doomtroopers (friendly fire).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FriendlyFire {
    /// CE PPC-3: a reckless-manoeuvre token per health lost, −3 PP each
    /// at the end of the mission.
    RecklessTokens,
    /// Classic CEC-6: −3 PP at once per wound.
    ThreePpPerWound,
}

/// The value hooks of one ruleset.
#[derive(Debug)]
pub(crate) struct Hooks {
    /// BASE_MOVE: squares of one Move action.
    pub base_move: fn(Corporation) -> usize,
    /// BLOCKING: an adjacent enemy cuts a DT's allowance (MOV-4).
    pub blocking: bool,
    /// Cover gives +1 defense against firearms (LOS-10).
    pub cover: bool,
    /// The tactics of ce.md TAC-1..4: charge, overrun, concentrated fire.
    pub tactics: bool,
    /// RANGES of Dark Legion firearms (`dist`, inclusive).
    pub dl_firearm_range: (i32, i32),
    /// ATTACK_DICE: extra dice of the rank colour and re-rolls a
    /// corporation adds to an attack of its DTs, by rank.
    pub corporation_attack: fn(Corporation, AttackType, u8) -> (u8, u8),
    /// Equipment that adds "a die" adds one of the rank colour (classic
    /// CDI-1) instead of a white one (CE).
    pub bonus_die_of_rank: bool,
    /// DEFENSE: defense (absorb) dice a DT of this corporation rolls.
    pub defense_dice: fn(Corporation) -> u8,
    /// RANK_FN: a rank changes the moment PP cross a threshold (CE RNK-3),
    /// or is fixed for the mission (classic CRK-2).
    pub rank_changes_in_mission: bool,
    /// DL_STATS: the band (an index into a creature's `bands`) for a rank.
    pub band_for_rank: fn(u8) -> u8,
    /// Ranks a corporation adds for the equipment it may pick (CE COR-2:
    /// Capitol picks one rank above its own).
    pub draft_rank_bonus: fn(Corporation) -> u8,
    /// Classic CCO-3: a close combat specialist's weapon needs at least
    /// this many close combat dice.
    pub cc_specialist_min_dice: Option<u8>,
    /// Credits a corporation adds to its rank's credits (CE COR-2 Capitol).
    pub bonus_credits: fn(Corporation, u8) -> u8,
    /// Doomtrooper cards a corporation adds to its rank's (CE Imperial,
    /// classic Capitol).
    pub bonus_dt_cards: fn(Corporation, u8) -> u8,
    /// FORCE_DEAL.
    pub force_deal: ForceDeal,
    /// REVEAL.
    pub reveal: Reveal,
    /// DL-3 step 3: the DL must turn over a face-down card (CE only).
    pub dl_reveals_force_card: bool,
    /// PP_TABLE: the DL's PP when a DT is eliminated (CE PRM-2: 2).
    pub dl_pp_per_dt_eliminated: i32,
    /// PP_TABLE: friendly fire.
    pub friendly_fire: FriendlyFire,
    /// END_SCORING: the mission's success and failure rewards are PP (CE);
    /// classic rewards are credits, kept by the campaign.
    pub pp_rewards: bool,
    /// WPN-7 / CSW-4: the grenade's range (`dist`, inclusive).
    pub grenade_range: (i32, i32),
    /// CDI-2: the grenade's fixed dice; `None`: the carrier's firearm pool.
    pub grenade_dice: Option<[DieColor; 3]>,
    /// WPN-6: how far apart two Nimrod targets may be; `None`: any distance
    /// (CSW-3).
    pub nimrod_spread: Option<i32>,
    /// CSW-3: a lone Nimrod target takes both barrels' dice in one roll
    /// (classic) rather than one roll per barrel (CE WPN-6).
    pub nimrod_one_roll: bool,
    /// How the items both editions share are used (CE EQI, classic CEQ).
    pub items: ItemRules,
    /// How secondary missions are dealt, checked and rewarded where the
    /// mission uses them (CE SEC; classic CSM); `None`: the ruleset has
    /// none.
    pub secondaries: Option<&'static SecondaryRules>,
    /// Dark Teleportation may put its figure anywhere on the board, its own
    /// sector too (classic event 6), not only on another tile (CE event 2).
    pub teleport_within_own_tile: bool,
    /// EXTRA_ACTIONS: each team has a pool of extra actions for the
    /// mission (classic CXA), refilled per turn for these corporations.
    pub extra_action_pool: Option<ExtraActionPool>,
}

/// How an edition uses the equipment cards both editions have.
#[derive(Debug)]
pub(crate) struct ItemRules {
    /// Items whose use costs no action.
    pub free: &'static [EquipmentEffect],
    /// Wounds a Combat Medic Unit heals.
    pub medic_heal: u8,
    /// Command Helmet: kept and usable once every round (classic CXA-4),
    /// or discarded after its one use (CE).
    pub helmet_every_round: bool,
    /// Molecular Phaser: the carrier's whole team phases until the round
    /// ends (classic), or the carrier for its activation (CE).
    pub phaser_team_round: bool,
}

/// Classic CXA: the extra-action pool.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExtraActionPool {
    /// The pool at mission start, by rank (CXA-1).
    pub at_start: fn(u8) -> u8,
    /// The most the pool may hold (CXA-2).
    pub cap: u8,
    /// Added at the start of each of the team's turns (CXA-3).
    pub per_turn: fn(Corporation) -> u8,
}

/// The Collectors Edition (ce.md), and the skirmish ruleset built on it.
pub(crate) static CE: Hooks = Hooks {
    base_move: |_| 3,
    blocking: true,
    cover: true,
    tactics: true,
    dl_firearm_range: (2, 16),
    corporation_attack: ce_corporation_attack,
    bonus_die_of_rank: false,
    defense_dice: |_| 1,
    rank_changes_in_mission: true,
    band_for_rank: |rank| rank.clamp(1, 12).div_ceil(2),
    draft_rank_bonus: |corp| u8::from(corp == Corporation::Capitol),
    cc_specialist_min_dice: None,
    bonus_credits: |corp, rank| {
        if corp == Corporation::Capitol {
            crate::game::state::ability_n(rank)
        } else {
            0
        }
    },
    bonus_dt_cards: |corp, rank| {
        if corp == Corporation::Imperial {
            crate::game::state::ability_n(rank)
        } else {
            0
        }
    },
    force_deal: ForceDeal::PerPlayerPerTile,
    reveal: Reveal::OnePerTeam,
    dl_reveals_force_card: true,
    dl_pp_per_dt_eliminated: 2,
    friendly_fire: FriendlyFire::RecklessTokens,
    pp_rewards: true,
    items: ItemRules {
        free: &[
            EquipmentEffect::CommandHelmet,
            EquipmentEffect::MolecularPhaser,
        ],
        medic_heal: 3,
        helmet_every_round: false,
        phaser_team_round: false,
    },
    grenade_range: (2, 8),
    grenade_dice: None,
    nimrod_spread: Some(4),
    nimrod_one_roll: false,
    secondaries: Some(&crate::game::secondary::CE_SECONDARIES),
    teleport_within_own_tile: false,
    extra_action_pool: None,
};

/// COR-2: Bauhaus firearms, Mishima close combat and Cybertronic tech
/// re-roll N failed dice, N by the current rank.
fn ce_corporation_attack(corp: Corporation, attack: AttackType, rank: u8) -> (u8, u8) {
    match (corp, attack) {
        (Corporation::Bauhaus, AttackType::Firearm)
        | (Corporation::Mishima, AttackType::CloseCombat)
        | (Corporation::Cybertronic, AttackType::Tech) => (0, crate::game::state::ability_n(rank)),
        _ => (0, 0),
    }
}

/// The 1993 edition (classic.md).
pub(crate) static CLASSIC: Hooks = Hooks {
    // CCO-1: Mishima moves 4.
    base_move: |corp| if corp == Corporation::Mishima { 4 } else { 3 },
    // Section 1: the 1993 rules have no blocking and no cover (CDF-4).
    blocking: false,
    cover: false,
    tactics: false,
    // CDI-4.
    dl_firearm_range: (2, 24),
    // CCO-1: Bauhaus +1 die on firearm attacks.
    corporation_attack: |corp, attack, _| {
        if corp == Corporation::Bauhaus && attack == AttackType::Firearm {
            (1, 0)
        } else {
            (0, 0)
        }
    },
    bonus_die_of_rank: true,
    // CDF-2 / CCO-1: Cybertronic rolls 2 absorb dice.
    defense_dice: |corp| {
        if corp == Corporation::Cybertronic {
            2
        } else {
            1
        }
    },
    rank_changes_in_mission: false,
    // The classic creature table lists one row per rank (CDL-3's bands
    // 1–2, 3–4, 5–6 each written twice), so the band is the rank.
    band_for_rank: |rank| rank.clamp(1, 6),
    draft_rank_bonus: |_| 0,
    cc_specialist_min_dice: Some(3),
    bonus_credits: |_, _| 0,
    // CCO-1: Capitol +1 DT card.
    bonus_dt_cards: |corp, _| u8::from(corp == Corporation::Capitol),
    force_deal: ForceDeal::OnePerSectorRestToCitadel,
    reveal: Reveal::AllOnFirstEntry,
    dl_reveals_force_card: false,
    // CEC-7: the DL scores wounds only.
    dl_pp_per_dt_eliminated: 0,
    friendly_fire: FriendlyFire::ThreePpPerWound,
    pp_rewards: false,
    // CEQ: the Auto-Injector, the Medic Unit and the Teleportal are free;
    // the Helmet's extra action and the Phaser cost nothing either.
    items: ItemRules {
        free: &[
            EquipmentEffect::CommandHelmet,
            EquipmentEffect::MolecularPhaser,
            EquipmentEffect::CoagulantAutoinjector,
            EquipmentEffect::CombatMedicUnit,
            EquipmentEffect::Teleportal,
        ],
        medic_heal: 4,
        helmet_every_round: true,
        phaser_team_round: true,
    },
    grenade_range: (2, 24),
    grenade_dice: Some([DieColor::Red; 3]),
    nimrod_spread: None,
    nimrod_one_roll: true,
    secondaries: Some(&super::classic_secondary::CLASSIC_SECONDARIES),
    teleport_within_own_tile: true,
    extra_action_pool: Some(ExtraActionPool {
        at_start: |rank| rank.min(6),
        cap: 6,
        per_turn: |corp| u8::from(corp == Corporation::Imperial),
    }),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ce_bands_pair_the_ranks_and_classic_bands_are_the_rank() {
        let ce: Vec<u8> = (1..=12).map(CE.band_for_rank).collect();
        assert_eq!(ce, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
        let classic: Vec<u8> = (0..=7).map(CLASSIC.band_for_rank).collect();
        assert_eq!(classic, [1, 1, 2, 3, 4, 5, 6, 6]);
    }

    #[test]
    fn corporation_abilities_differ_by_edition() {
        use AttackType::*;
        use Corporation::*;
        // CE: re-rolls, classic: a die.
        assert_eq!((CE.corporation_attack)(Bauhaus, Firearm, 1), (0, 1));
        assert_eq!((CE.corporation_attack)(Bauhaus, Firearm, 7), (0, 2));
        assert_eq!((CLASSIC.corporation_attack)(Bauhaus, Firearm, 1), (1, 0));
        assert_eq!(
            (CLASSIC.corporation_attack)(Bauhaus, CloseCombat, 1),
            (0, 0)
        );
        assert_eq!(
            (CLASSIC.corporation_attack)(Mishima, CloseCombat, 3),
            (0, 0)
        );
        assert_eq!((CLASSIC.base_move)(Mishima), 4);
        assert_eq!((CLASSIC.base_move)(Capitol), 3);
        assert_eq!((CE.base_move)(Mishima), 3);
        assert_eq!((CLASSIC.defense_dice)(Cybertronic), 2);
        // CDF-4 and section 1: no cover, no blocking in 1993.
        assert!(!CLASSIC.cover && !CLASSIC.blocking);
        assert!(CE.cover && CE.blocking);
        // CDI-4: every classic firearm reaches 24; CE DL firearms 16.
        assert_eq!(CLASSIC.dl_firearm_range, (2, 24));
        assert_eq!(CE.dl_firearm_range, (2, 16));
        assert_eq!((CE.defense_dice)(Cybertronic), 1);
    }
}
