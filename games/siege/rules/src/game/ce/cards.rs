//! How the Collectors Edition reads the cards both editions print (see
//! `ruleset/cards.rs`).

use crate::content::tables::EquipmentEffect;
use crate::game::ruleset::cards::{CardRules, ItemRules};

/// The Collectors Edition's cards (ce.md EQI, WPN-6, WPN-7, EVT).
pub(crate) static CARDS: CardRules = CardRules {
    // EQI: only the Helmet and the Phaser cost no action.
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
    teleport_within_own_tile: false,
    time_rift_extra_move: false,
};
