//! The 1993 edition's value hooks (core CONV-6; the table's type is
//! `ruleset/hooks.rs`).

use crate::content::{AttackType, Corporation};
use crate::game::ruleset::hooks::{ExtraActionPool, ForceDeal, FriendlyFire, Hooks, Reveal};

/// The 1993 edition (classic.md).
pub(crate) static HOOKS: Hooks = Hooks {
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
    secondaries: Some(&crate::game::classic::secondary::CLASSIC_SECONDARIES),
    extra_action_pool: Some(ExtraActionPool {
        at_start: |rank| rank.min(6),
        cap: 6,
        per_turn: |corp| u8::from(corp == Corporation::Imperial),
    }),
};
