//! How the 1993 edition reads the cards both editions print (see
//! `ruleset/cards.rs`).

use crate::content::tables::EquipmentEffect;
use crate::dice::DieColor;
use crate::game::ruleset::cards::{CardRules, ItemRules};

/// The 1993 edition's cards (classic.md CEQ, CSW-3, CSW-4, CDI-2, CEV-1).
pub(crate) static CARDS: CardRules = CardRules {
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
    teleport_within_own_tile: true,
    time_rift_extra_move: true,
};
