//! The Collectors Edition tables (ce.md) as typed data.
//!
//! These types are what the game reads; the values live in `data/ce/*.toml`
//! and are loaded and validated by [`super::tables_loader`]. Card *effects*
//! are code keyed by an effect id, so a later edition can remap a card to an
//! existing effect by editing data alone.

use super::ids::{AttackType, Corporation, CreatureKind, Specialty};
use crate::dice::DieColor;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A weapon card of the loaded tables: an index into [`CeTables::weapons`].
///
/// The data files define which weapons exist, so this is an interned index
/// rather than an enum. It is valid only for the tables that issued it
/// ([`CeTables::item`]); a game keeps its tables for its whole life, so its
/// figures' ids stay valid. On the wire a weapon is always its string id
/// (`plasma_carbine`): commands, events and views convert at the edge with
/// [`CeTables::weapon_def`] and [`CeTables::item`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(transparent)]
pub struct WeaponId(u16);

/// A non-weapon equipment card of the loaded tables: an index into
/// [`CeTables::equipment`], with the same rules as [`WeaponId`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(transparent)]
pub struct EquipmentId(u16);

impl WeaponId {
    /// Position in [`CeTables::weapons`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl EquipmentId {
    /// Position in [`CeTables::equipment`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// An equipment card of either kind, as a pick (EQP-2) names it: weapon and
/// equipment ids share one namespace, which the loader checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Item {
    /// A weapon card.
    Weapon(WeaponId),
    /// A non-weapon equipment card.
    Equipment(EquipmentId),
}

/// String id → [`Item`], built once when the tables load, so resolving a
/// command's or a position's string is one hash lookup.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ItemIndex {
    by_id: HashMap<String, Item>,
}

impl ItemIndex {
    /// Index `weapons` then `equipment` by id.
    ///
    /// # Errors
    /// The first id used twice (within or across the two tables), or a
    /// table longer than an id can count.
    pub fn new(weapons: &[WeaponDef], equipment: &[EquipmentDef]) -> Result<ItemIndex, String> {
        let mut by_id = HashMap::with_capacity(weapons.len() + equipment.len());
        let too_many = |what: &str| format!("more than {} {what} cards", u16::MAX);
        for (i, w) in weapons.iter().enumerate() {
            let id = Item::Weapon(WeaponId(u16::try_from(i).map_err(|_| too_many("weapon"))?));
            if by_id.insert(w.id.clone(), id).is_some() {
                return Err(format!("duplicate weapon id `{}`", w.id));
            }
        }
        for (i, e) in equipment.iter().enumerate() {
            let id = EquipmentId(u16::try_from(i).map_err(|_| too_many("equipment"))?);
            if by_id.insert(e.id.clone(), Item::Equipment(id)).is_some() {
                return Err(format!(
                    "equipment id `{}` is already a weapon or equipment id",
                    e.id
                ));
            }
        }
        Ok(ItemIndex { by_id })
    }

    /// The item with this string id.
    pub fn get(&self, id: &str) -> Option<Item> {
        self.by_id.get(id).copied()
    }
}

/// EQP-3: the string ids of the base weapons, in [`CeTables::base_weapons`]
/// order. The engine hands these out at setup, so the weapons file must
/// define them.
pub const BASE_WEAPON_IDS: [(Specialty, &str); 3] = [
    (Specialty::CloseCombat, "punisher_short_sword"),
    (Specialty::Firearms, "plasma_carbine"),
    (Specialty::Tech, "tentacle_kit"),
];

/// Which d6 faces of each colour show a hit (DICE_FACES hook, ce.md DICE-1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DiceFaces {
    /// Hit faces of the white die.
    pub white: Vec<u8>,
    /// Hit faces of the red die.
    pub red: Vec<u8>,
    /// Hit faces of the black die.
    pub black: Vec<u8>,
}

impl DiceFaces {
    /// Hits shown by `face` (1..=6) on a die of `color`: 0 or 1.
    pub fn hits(&self, color: DieColor, face: u8) -> u8 {
        let faces = match color {
            DieColor::White => &self.white,
            DieColor::Red => &self.red,
            DieColor::Black => &self.black,
        };
        u8::from(faces.contains(&face))
    }
}

/// One rank card (ce.md RNK-2 table).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RankCard {
    /// 1..=12.
    pub rank: u8,
    /// The 3 combat dice.
    pub combat: [DieColor; 3],
    /// The armor (defense) die.
    pub defense: DieColor,
    /// Credits for equipment (EQP-2).
    pub credits: u8,
    /// Doomtrooper cards dealt (SET-11).
    pub dt_cards: u8,
}

/// One Doomtrooper of a roster (ce.md COR-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RosterEntry {
    /// Printed name, e.g. "Max Steiner".
    pub name: String,
    /// Specialty.
    pub specialty: Specialty,
}

/// A corporation and its roster (ce.md COR-2, COR-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CorporationDef {
    /// Which corporation.
    pub id: Corporation,
    /// Display name.
    pub name: String,
    /// The 3 Doomtroopers, one per specialty.
    pub roster: Vec<RosterEntry>,
}

/// Dice of one attack type on a weapon card: "3" is the 3 rank dice,
/// "1" one chosen from them, "3+1R" the rank dice plus a red (DICE-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WeaponDice {
    /// How many of the 3 rank dice (0..=3).
    pub rank_dice: u8,
    /// Extra dice printed on the weapon.
    pub extra: Vec<DieColor>,
}

/// The firearm part of a weapon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FirearmProfile {
    /// Dice.
    pub dice: WeaponDice,
    /// Minimum range (`dist`); ATK-5 raises it to at least 2.
    pub min_range: u8,
    /// Maximum range.
    pub max_range: u8,
    /// Nimrod: 2 barrels (WPN-6); 1 otherwise.
    pub barrels: u8,
    /// Gehenna Puker: a line of this many squares instead of a target (WPN-5).
    pub line: Option<u8>,
}

/// The tech part of a weapon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TechProfile {
    /// Dice.
    pub dice: WeaponDice,
    /// Can make trap tech attacks (WPN-1).
    pub trap: bool,
    /// Barbs after a successful trap attack (WPN-2).
    pub barbs: bool,
}

/// A weapon card (ce.md WPN table).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WeaponDef {
    /// Stable id, e.g. `plasma_carbine`.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Specialty icons (SPC-1): who may equip it.
    pub icons: Vec<Specialty>,
    /// Rank requirement.
    pub rank: u8,
    /// Cost in credits.
    pub cost: u8,
    /// Copies in the bunker; `None` = unlimited (EQP-3).
    pub copies: Option<u8>,
    /// Close combat dice; `rank_dice = 0` and no extras means none.
    pub cc: Option<WeaponDice>,
    /// Violator swing available (WPN-4).
    pub swing: bool,
    /// Firearm profile.
    pub fa: Option<FirearmProfile>,
    /// Tech profile.
    pub te: Option<TechProfile>,
    /// What the card does, for players, in words (the data's `text`; no
    /// rule reads it).
    #[serde(default)]
    pub text: String,
}

/// What a non-weapon equipment card does; the game implements each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EquipmentEffect {
    /// Special action: roll 3 red, heal 1 per hit.
    CoagulantAutoinjector,
    /// Once per mission: +1 action.
    CommandHelmet,
    /// Special action: smoke on the carrier's tile.
    SmokeGrenade,
    /// Special action: place a bomb that explodes next DL turn.
    TimeBomb,
    /// Free at the start of a Move: phase for the activation.
    MolecularPhaser,
    /// Augment: +1 white die.
    ExtraDie,
    /// Augment: re-roll 1 failed die.
    RerollOne,
    /// Augment TE: hacks +1W and at range 3 with LoS.
    GlyphDecrypter,
    /// Door hacks as a TE Specialist.
    SecurityDownload,
    /// Special action: relocate up to dist 6.
    DarkEnergyShift,
    /// Special action: heal 3.
    CombatMedicUnit,
    /// Augment: targets roll no defense die.
    NoDefenseDie,
    /// Augment on a Plasma Carbine: WPN-7.
    GrenadeLauncher,
    /// Classic CEQ: +1 CC die and re-roll 1 die in each CC attack.
    CyberneticPowerArm,
    /// Classic CEQ, CDF-3: the target's AF is 1 lower against the
    /// carrier's firearm attacks.
    Disruptor,
    /// Classic CEQ: re-roll 2 dice in each firearm attack.
    TargetingEye,
    /// Classic CEQ: free on the owner's turn, relocate one own DT to an
    /// empty passable square of any sector, not next to a DL figure.
    Teleportal,
}

/// A non-weapon equipment card (ce.md EQI table).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EquipmentDef {
    /// Stable id, e.g. `smoke_grenade`.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Rank requirement.
    pub rank: u8,
    /// Cost.
    pub cost: u8,
    /// Copies.
    pub copies: u8,
    /// `Some(type)` if it is an augment for that attack type (EQP-1).
    pub augment: Option<AttackType>,
    /// What it does.
    pub effect: EquipmentEffect,
    /// What the card does, for players, in words (the data's `text`; no
    /// rule reads it).
    #[serde(default)]
    pub text: String,
}

/// One creature's stats at one band (ce.md DLB-2 cell).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CreatureStats {
    /// Close combat dice (empty = cannot).
    pub cc: Vec<DieColor>,
    /// Firearm dice (empty = cannot).
    pub fa: Vec<DieColor>,
    /// Defense value.
    pub dv: u8,
    /// Defense die, if any.
    pub defense_die: Option<DieColor>,
    /// PP for eliminating it.
    pub pp: u8,
}

/// A creature row of the DL board (ce.md DLB-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CreatureDef {
    /// Which creature.
    pub kind: CreatureKind,
    /// Display name.
    pub name: String,
    /// Actions per activation.
    pub actions: u8,
    /// Number in the DL pool (core DL-1).
    pub pool: u8,
    /// Stats for bands 1..=6 (index 0 = band 1).
    pub bands: Vec<CreatureStats>,
}

/// The terrain row of one band (ce.md DLB-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TerrainBand {
    /// 1..=6.
    pub band: u8,
    /// Dice of a trap attack (TRP-1).
    pub trap_dice: Vec<DieColor>,
    /// Terminal DV (hack and destroy).
    pub terminal_dv: u8,
    /// Turret DV.
    pub turret_dv: u8,
    /// Trap DV.
    pub trap_dv: u8,
    /// Dark portal DV.
    pub portal_dv: u8,
    /// PP for a terminal.
    pub pp_terminal: u8,
    /// PP for a turret.
    pub pp_turret: u8,
    /// PP for a trap.
    pub pp_trap: u8,
    /// PP for a portal.
    pub pp_portal: u8,
}

/// A force card (ce.md FOR table).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ForceCardDef {
    /// Printed number, 1..=44.
    pub number: u32,
    /// Name.
    pub name: String,
    /// The options; one option unless it is a choice card. An option may be
    /// empty (Diversion Cohort).
    pub options: Vec<Vec<CreatureKind>>,
    /// *Draw one more* (FOR-3).
    pub draw_one_more: bool,
    /// *Stop*.
    pub stop: bool,
    /// *Remove*.
    pub remove: bool,
}

/// Which event effect a card has; the game implements each (ce.md EVE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EventEffect {
    /// No effect beyond reinforcements.
    None,
    /// #1: DTs may not make CC attacks.
    CloseCombatPhobia,
    /// #2: relocate a DL figure to another tile.
    DarkTeleportation,
    /// #3: 3 black dice at a DT.
    TemporaryDefensiveSystem,
    /// #4: DL CC attacks re-roll 1.
    CloseCombatFrenzy,
    /// #5: DTs may not make firearm attacks.
    MentalBlock,
    /// #6: Necromutants and Centurions +1 action.
    Necrofrenzy,
    /// #7: DL firearm attacks re-roll 1.
    DarkEnergyWave,
    /// #8: a DT has 1 base action next turn.
    InterceptedOrders,
    /// #9: +2 single DL actions.
    DarkInfluence,
    /// #10: DTs on a tile are blocked.
    MagneticRestraints,
    /// #11: a corporation may not use DT cards next turn.
    CombatNeurosis,
    /// #12: a DT discards a non-weapon card.
    CorruptedEquipment,
    /// #13: no tech attacks or hacks.
    SecurityEncryption,
    /// #14: trap attacks on wall-adjacent tech DTs.
    DefensiveSpike,
    /// #16: no CC against Centurions for a corporation.
    FallenFriend,
    /// #17: no CC against Razides for a corporation.
    RazideFear,
    /// #21: Nepharites phase.
    NephariteTimeRift,
    /// #22: the Ezoghoul may wait at any entrance.
    EzoghoulAttack,
    /// #23: Legionnaires +1 action.
    LegionnaireFrenzy,
    /// #24: Razides +1W.
    RazideFury,
    /// #25: copy a DL figure.
    Mitosis,
    /// #26: no defense die against one figure.
    Berserk,
    /// #27: Necromutants become Centurions.
    UnholyTransformation,
    /// #28: reinforcements at tile openings.
    Surrounded,
    /// #29: the DL forces a re-roll on TE attacks.
    DefensiveUpload,
    /// Classic: DL figures re-roll 1 failed die in every attack, close
    /// combat or firearm (the CE card is firearm-only).
    DarkEnergyWaveAny,
    /// Classic: the Legionnaires of this call may enter by any white or
    /// red entrance.
    LegionnairesCharge,
    /// Classic: the chosen team's two DTs have 2 base actions in total
    /// next round.
    MisinterpretedOrders,
    /// Classic: rotate one sector 90° or swap two sectors (never sector 7).
    NephariteAlteredReality,
}

/// How long an event lasts (core EVT-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EventDuration {
    /// Resolved at once.
    Instant,
    /// Until DL step 5.
    DlTurn,
    /// Until the end of the round.
    RestOfRound,
    /// Until the end of the target's next turn.
    TargetsNextTurn,
    /// Only during DL step 2.
    DlStep2,
    /// Classic CEV-1: the whole of the following round (nothing if there
    /// is none).
    NextRound,
}

/// Fixed reinforcements printed on an event (ce.md EVE "Reinf." column).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EventReinforcement {
    /// Creature.
    pub kind: CreatureKind,
    /// How many.
    pub count: u8,
    /// Multiply by the corporation players in the pool (event #15).
    pub per_corporation: bool,
}

/// An event card (ce.md EVE table).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EventDef {
    /// Printed number, 1..=30.
    pub number: u32,
    /// Name.
    pub name: String,
    /// Fixed reinforcements.
    pub reinforcements: Vec<EventReinforcement>,
    /// `F`: draw force cards per FOR-3.
    pub force_draw: bool,
    /// Effect.
    pub effect: EventEffect,
    /// Duration.
    pub duration: EventDuration,
    /// What the card does, for players, in words (the data's `text`; no
    /// rule reads it).
    #[serde(default)]
    pub text: String,
}

/// Doomtrooper card kinds (ce.md DTC-CE-2 table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DtCardKind {
    /// Re-roll up to 2 failed dice.
    HeroicLuck,
    /// Heal 2.
    Medic,
    /// Reaction: stay at 1 health.
    LastStand,
    /// Reaction: DV +2 against a DL attack.
    CombatAura,
    /// Reaction: a DL firearm attack deals no damage.
    DudRound,
    /// Next attack: DV −1 and no defense die.
    WeakSpot,
    /// Next Move: allowance 5, ignores blocking.
    MovementBoost,
    /// A DL figure skips its next activation.
    CommandingVoice,
    /// Relocate to an adjacent tile.
    LimitedTeleportation,
    /// 3 black dice at any DL figure.
    ControlDefenseSystem,
    /// Next FA or TE attack +1R.
    RapidReload,
}

/// A Doomtrooper card kind with its copies (ce.md DTC-CE-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DtCardDef {
    /// Kind.
    pub kind: DtCardKind,
    /// Name.
    pub name: String,
    /// Copies in the deck.
    pub copies: u8,
    /// A ⚡ reaction card (DTC-CE-3).
    pub reaction: bool,
    /// What the card does, for players, in words (the data's `text`; no
    /// rule reads it).
    #[serde(default)]
    pub text: String,
}

/// Door card kinds (ce.md DOR).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DoorCardKind {
    /// No effect.
    AllClear,
    /// Unowned trap attack on the DT.
    ShockTrap,
    /// One reinforcement force card.
    Alarm,
    /// The move ends.
    JammedLock,
}

/// A door card kind with its copies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DoorCardDef {
    /// Kind.
    pub kind: DoorCardKind,
    /// Name.
    pub name: String,
    /// Copies.
    pub copies: u8,
    /// What the card does, for players, in words (the data's `text`; no
    /// rule reads it).
    #[serde(default)]
    pub text: String,
}

/// A secondary mission card (ce.md SEC table). The condition is code keyed
/// by `number`; the values are data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SecondaryDef {
    /// 1..=18.
    pub number: u32,
    /// Name.
    pub name: String,
    /// PP on success.
    pub success: i32,
    /// PP on failure (negative).
    pub failure: i32,
    /// Extra commander penalty on failure (CMD-3, negative).
    pub commander_penalty: i32,
    /// What the card asks of the team, for players, in words (the data's
    /// `text`; the condition itself is code in `game::secondary`).
    #[serde(default)]
    pub text: String,
}

/// Every CE table, loaded and validated.
///
/// Built only by the loader ([`super::tables_loader::load_ce_tables`]),
/// which also builds the id index and checks the ids the engine needs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CeTables {
    /// DICE-1.
    pub dice: DiceFaces,
    /// RNK-2, ranks 1..=12 in order.
    pub ranks: Vec<RankCard>,
    /// COR-2/3, in `Corporation::ALL` order.
    pub corporations: Vec<CorporationDef>,
    /// WPN.
    pub weapons: Vec<WeaponDef>,
    /// EQI.
    pub equipment: Vec<EquipmentDef>,
    /// DLB-2, in `CreatureKind::ALL` order.
    pub creatures: Vec<CreatureDef>,
    /// DLB-3, bands 1..=6 in order.
    pub terrain: Vec<TerrainBand>,
    /// FOR, cards 1..=44 in order.
    pub force_cards: Vec<ForceCardDef>,
    /// EVE, cards 1..=30 in order.
    pub events: Vec<EventDef>,
    /// DTC-CE-2.
    pub dt_cards: Vec<DtCardDef>,
    /// DOR.
    pub door_cards: Vec<DoorCardDef>,
    /// SEC.
    pub secondary: Vec<SecondaryDef>,
    /// EQP-3: the base weapon of each specialty, in [`BASE_WEAPON_IDS`]
    /// order.
    pub base_weapons: [WeaponId; 3],
    /// Weapon and equipment ids by string.
    #[serde(skip)]
    pub(crate) items: ItemIndex,
}

impl DiceFaces {
    /// The hit faces of a colour.
    pub fn hit_faces(&self, color: DieColor) -> &[u8] {
        match color {
            DieColor::White => &self.white,
            DieColor::Red => &self.red,
            DieColor::Black => &self.black,
        }
    }
}

impl CeTables {
    /// The DL band of a rank (DLB-1): `ceil(rank / 2)`, clamped to 1..=6.
    pub const fn band_for_rank(rank: u8) -> u8 {
        let r = if rank < 1 {
            1
        } else if rank > 12 {
            12
        } else {
            rank
        };
        r.div_ceil(2)
    }

    /// The rank card of `rank` (1..=12).
    pub fn rank(&self, rank: u8) -> Option<&RankCard> {
        self.ranks.iter().find(|r| r.rank == rank)
    }

    /// A corporation and its roster.
    pub fn corporation(&self, id: Corporation) -> Option<&CorporationDef> {
        self.corporations.iter().find(|c| c.id == id)
    }

    /// A weapon by string id (`plasma_carbine`).
    pub fn weapon(&self, id: &str) -> Option<&WeaponDef> {
        match self.item(id)? {
            Item::Weapon(w) => Some(self.weapon_def(w)),
            Item::Equipment(_) => None,
        }
    }

    /// A non-weapon equipment card by string id (`smoke_grenade`).
    pub fn equipment(&self, id: &str) -> Option<&EquipmentDef> {
        match self.item(id)? {
            Item::Equipment(e) => Some(self.equipment_def(e)),
            Item::Weapon(_) => None,
        }
    }

    /// The typed id of a weapon or equipment string id: one hash lookup.
    pub fn item(&self, id: &str) -> Option<Item> {
        self.items.get(id)
    }

    /// The card of a weapon id.
    ///
    /// # Panics
    /// If `id` came from other tables with fewer weapons (ids are only
    /// issued by these tables, see [`WeaponId`]).
    pub fn weapon_def(&self, id: WeaponId) -> &WeaponDef {
        &self.weapons[id.index()]
    }

    /// The card of an equipment id.
    ///
    /// # Panics
    /// As [`CeTables::weapon_def`].
    pub fn equipment_def(&self, id: EquipmentId) -> &EquipmentDef {
        &self.equipment[id.index()]
    }

    /// Every weapon then every equipment, typed and with its string id, in
    /// table order (the order of [`Self::item_ids`]).
    pub fn items(&self) -> impl Iterator<Item = (Item, &str)> {
        // The index checked at load that every position fits an id.
        let weapons = self
            .weapons
            .iter()
            .enumerate()
            .map(|(i, w)| (Item::Weapon(WeaponId(i as u16)), w.id.as_str()));
        let equipment = self
            .equipment
            .iter()
            .enumerate()
            .map(|(i, e)| (Item::Equipment(EquipmentId(i as u16)), e.id.as_str()));
        weapons.chain(equipment)
    }

    /// Every weapon then every equipment string id, in table order.
    pub fn item_ids(&self) -> impl Iterator<Item = &str> {
        self.items().map(|(_, id)| id)
    }

    /// The string id of an item, as the wire names it.
    pub fn item_name(&self, item: Item) -> &str {
        match item {
            Item::Weapon(w) => &self.weapon_def(w).id,
            Item::Equipment(e) => &self.equipment_def(e).id,
        }
    }

    /// EQP-3: the base weapon of a specialty.
    pub fn base_weapon(&self, specialty: Specialty) -> WeaponId {
        self.base_weapons[match specialty {
            Specialty::CloseCombat => 0,
            Specialty::Firearms => 1,
            Specialty::Tech => 2,
        }]
    }

    /// A creature row of the DL board.
    pub fn creature(&self, kind: CreatureKind) -> Option<&CreatureDef> {
        self.creatures.iter().find(|c| c.kind == kind)
    }

    /// A creature's stats at `band` (1..=6).
    pub fn creature_stats(&self, kind: CreatureKind, band: u8) -> Option<&CreatureStats> {
        let i = usize::from(band).checked_sub(1)?;
        self.creature(kind)?.bands.get(i)
    }

    /// The terrain row of `band` (1..=6).
    pub fn terrain(&self, band: u8) -> Option<&TerrainBand> {
        self.terrain.iter().find(|t| t.band == band)
    }

    /// A force card by printed number (1..=44). The loader keeps the cards
    /// sorted and numbered exactly `1..=44`, so this is an index.
    pub fn force_card(&self, number: u32) -> Option<&ForceCardDef> {
        let c = self
            .force_cards
            .get(usize::try_from(number).ok()?.checked_sub(1)?)?;
        (c.number == number).then_some(c)
    }

    /// An event by printed number (1..=30); an index, as for
    /// [`CeTables::force_card`].
    pub fn event(&self, number: u32) -> Option<&EventDef> {
        let e = self
            .events
            .get(usize::try_from(number).ok()?.checked_sub(1)?)?;
        (e.number == number).then_some(e)
    }

    /// A secondary mission by number (1..=18).
    pub fn secondary(&self, number: u32) -> Option<&SecondaryDef> {
        self.secondary.iter().find(|s| s.number == number)
    }

    /// The Doomtrooper deck, one entry per physical card, in table order.
    pub fn dt_deck(&self) -> Vec<DtCardKind> {
        self.dt_cards
            .iter()
            .flat_map(|c| std::iter::repeat_n(c.kind, usize::from(c.copies)))
            .collect()
    }

    /// The door deck, one entry per physical card, in table order.
    pub fn door_deck(&self) -> Vec<DoorCardKind> {
        self.door_cards
            .iter()
            .flat_map(|c| std::iter::repeat_n(c.kind, usize::from(c.copies)))
            .collect()
    }
}
