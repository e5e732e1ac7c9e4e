//! The edition hooks of core CONV-6 that are values, not state: how far a
//! Doomtrooper moves, whether enemies block, what a corporation adds to an
//! attack, how force cards are dealt and revealed, how promotion points
//! and ranks work. Each ruleset names one [`Hooks`] table, written in its
//! edition's folder (`ce/hooks.rs`, `classic/hooks.rs`); the shared core
//! reads the table and never asks which edition it is playing. A third
//! edition is a third table (and, where it needs state, an
//! [`EditionState`](super::EditionState) variant).
//!
//! How single cards work in each edition (the grenade, the Nimrod, the
//! shared equipment, a few event cards) is not a rule hook: it is in each
//! edition's [`CardRules`](super::cards::CardRules).

use crate::content::{AttackType, Corporation};
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
    /// How secondary missions are dealt, checked and rewarded where the
    /// mission uses them (CE SEC; classic CSM); `None`: the ruleset has
    /// none.
    pub secondaries: Option<&'static SecondaryRules>,
    /// EXTRA_ACTIONS: each team has a pool of extra actions for the
    /// mission (classic CXA), refilled per turn for these corporations.
    pub extra_action_pool: Option<ExtraActionPool>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ce::HOOKS as CE;
    use crate::game::classic::HOOKS as CLASSIC;

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
