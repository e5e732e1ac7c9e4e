//! How the cards both editions print work in each edition: the equipment
//! both have, the grenade, the Nimrod and the event cards whose effect
//! differs. These are facts about single cards, not rule hooks of core
//! CONV-6, so they are not in the [`Hooks`](super::Hooks) table: each
//! edition states its own in its folder (`ce/cards.rs`,
//! `classic/cards.rs`), and the core reads them through
//! [`RulesetId::cards`](super::RulesetId::cards).

use crate::content::tables::EquipmentEffect;
use crate::dice::DieColor;

/// One edition's reading of the cards both editions have.
#[derive(Debug)]
pub(crate) struct CardRules {
    /// How the equipment both editions share is used (CE EQI, classic
    /// CEQ).
    pub items: ItemRules,
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
    /// Dark Teleportation may put its figure anywhere on the board, its own
    /// sector too (classic event 6), not only on another tile (CE event 2).
    pub teleport_within_own_tile: bool,
    /// Nepharite Time Rift gives one Nepharite an extra Move action this
    /// round (classic event 13). The CE card (event 21) does something
    /// else, which no CE mission deals, so it has no effect here.
    pub time_rift_extra_move: bool,
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
