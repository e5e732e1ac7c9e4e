//! The Collectors Edition's value hooks (core CONV-6; the table's type is
//! `ruleset/hooks.rs`).

use crate::content::{AttackType, Corporation};
use crate::game::ruleset::hooks::{ForceDeal, FriendlyFire, Hooks, Reveal};

/// The Collectors Edition (ce.md), and the skirmish ruleset built on it.
pub(crate) static HOOKS: Hooks = Hooks {
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
    secondaries: Some(&super::secondary::CE_SECONDARIES),
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
