//! Loads `data/ce/*.toml` into [`super::tables::CeTables`] and validates it.
//!
//! Every file is TOML (formats: `docs/CONTENT-TABLES.md`). Dice and figure
//! cells use the spec's own notation (`"2W 1R"`, `"3+1R"`,
//! `"2R / 2W / 0+W / 1"`, `"1 Centurion + 1 Necromutant"`) and are parsed
//! here. Every error, syntactic or semantic, names the file and the 1-based
//! line, taken from the TOML spans.

use super::classic_tables::{ClassicDtCardDef, ClassicDtUse, ClassicTables};
use super::error::ContentError;
use super::ids::{AttackType, Corporation, CreatureKind, Specialty};
use super::tables::{
    CeTables, CorporationDef, CreatureDef, CreatureStats, DiceFaces, DoorCardDef, DoorCardKind,
    DtCardDef, DtCardKind, EquipmentDef, EquipmentEffect, EventDef, EventDuration, EventEffect,
    EventReinforcement, FirearmProfile, ForceCardDef, Item, ItemIndex, RankCard, RosterEntry,
    SecondaryDef, TechProfile, TerrainBand, WeaponDef, WeaponDice, WeaponId, BASE_WEAPON_IDS,
};
use crate::dice::DieColor;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The table files of one edition, as `(file name, text)`.
pub type TableFiles<'a> = [(&'a str, &'a str)];

/// Number of DL bands (DLB-1; classic CDL-1 also has 6 band levels).
const BANDS: usize = 6;
/// Doomtrooper deck size (DTC-CE-2).
const DT_DECK: u32 = 22;
/// Door deck size (DOR).
const DOOR_DECK: u32 = 6;

/// What differs between the CE and the classic tables in the shared shape:
/// the counts the loader checks and a few value limits.
#[derive(Debug)]
struct Limits {
    /// The files' directory under `data/`: `ce` or `classic`.
    dir: &'static str,
    /// Rank cards 1..=ranks (CE RNK-2: 12; classic CRK-1: 6).
    ranks: usize,
    /// Classic CRK-1: each rank row carries its `min_pp`.
    rank_min_pp: bool,
    /// Largest `rank_dice` of a weapon (CE: 3 of the rank card; classic:
    /// the printed count, up to 9).
    max_rank_dice: u8,
    /// The roster columns, in file order (CE: fa, cc, te; classic: fa, cc).
    roster: &'static [Specialty],
    /// The creature rows, in order (classic has no Praetorian Stalker).
    creatures: &'static [CreatureKind],
    /// Band cells per creature row: 6 (CE), or 3 columns of 2 bands each
    /// (classic CDL-3), expanded to 6.
    band_cells: usize,
    /// Force cards 1..=n.
    force_cards: u32,
    /// Events 1..=n.
    events: u32,
    /// Secondary missions 1..=n.
    secondary: u32,
    /// Secondary `failure` is a PP loss (< 0, CE) or the DL's credit
    /// gain (> 0, classic CSM-2).
    secondary_failure_negative: bool,
    /// Exact weapon card count, when fixed (classic CEQ: 8).
    weapons: Option<usize>,
    /// Exact equipment card count, when fixed (classic CEQ: 11).
    equipment: Option<usize>,
    /// The base weapon ids (EQP-3), in [`BASE_WEAPON_IDS`] specialty order.
    base_weapons: [&'static str; 3],
    /// The edition has Doomtrooper cards of the CE kind and door cards.
    dt_and_door_cards: bool,
}

/// The CE limits.
const CE: Limits = Limits {
    dir: "ce",
    ranks: 12,
    rank_min_pp: false,
    max_rank_dice: 3,
    roster: &[Specialty::Firearms, Specialty::CloseCombat, Specialty::Tech],
    creatures: &CreatureKind::ALL,
    band_cells: 6,
    force_cards: 44,
    events: 30,
    secondary: 18,
    secondary_failure_negative: true,
    weapons: None,
    equipment: None,
    base_weapons: [
        BASE_WEAPON_IDS[0].1,
        BASE_WEAPON_IDS[1].1,
        BASE_WEAPON_IDS[2].1,
    ],
    dt_and_door_cards: true,
};

/// The classic limits (classic.md).
const CLASSIC: Limits = Limits {
    dir: "classic",
    ranks: 6,
    rank_min_pp: true,
    max_rank_dice: 9,
    roster: &[Specialty::Firearms, Specialty::CloseCombat],
    creatures: &[
        CreatureKind::Legionnaire,
        CreatureKind::Necromutant,
        CreatureKind::Centurion,
        CreatureKind::Razide,
        CreatureKind::Nepharite,
        CreatureKind::Ezoghoul,
    ],
    band_cells: 3,
    force_cards: 12,
    events: 13,
    secondary: 10,
    secondary_failure_negative: false,
    weapons: Some(8),
    equipment: Some(11),
    // Classic has no Tech Specialists: the Tech slot names the carbine.
    base_weapons: ["punisher_short_sword", "plasma_carbine", "plasma_carbine"],
    dt_and_door_cards: false,
};

/// Parse and validate every CE table.
///
/// # Errors
/// The first problem, naming its file and line.
pub fn load_ce_tables(files: &TableFiles<'_>) -> Result<CeTables, ContentError> {
    Ok(load_tables(files, &CE)?.0)
}

/// Parse and validate every classic table (`data/classic/*.toml`).
///
/// # Errors
/// The first problem, naming its file and line.
pub fn load_classic_tables(files: &TableFiles<'_>) -> Result<ClassicTables, ContentError> {
    let (base, rank_min_pp) = load_tables(files, &CLASSIC)?;
    let dt_cards = load_classic_dt_cards(src_of(files, "classic/dt_cards.toml")?)?;
    Ok(ClassicTables {
        base,
        rank_min_pp,
        dt_cards,
    })
}

/// The file `name` of `files`.
fn src_of<'a>(files: &TableFiles<'a>, name: &str) -> Result<Src<'a>, ContentError> {
    files
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(file, text)| Src { file, text })
        .ok_or_else(|| ContentError::new(name, 0, "file missing"))
}

/// The shared-shape tables of one edition, with the classic rank PP
/// minimums (empty for CE).
fn load_tables(files: &TableFiles<'_>, lim: &Limits) -> Result<(CeTables, Vec<i32>), ContentError> {
    let get = |name: &str| src_of(files, &format!("{}/{name}", lim.dir));
    let weapons_src = get("weapons.toml")?;
    let weapons = load_weapons(weapons_src, lim)?;
    let equipment_src = get("equipment.toml")?;
    let equipment = load_equipment(equipment_src, &weapons)?;
    if let Some(n) = lim.weapons.filter(|&n| n != weapons.len()) {
        return Err(weapons_src.at_end(format!("{} weapons; there must be {n}", weapons.len())));
    }
    if let Some(n) = lim.equipment.filter(|&n| n != equipment.len()) {
        return Err(equipment_src.at_end(format!(
            "{} equipment cards; there must be {n}",
            equipment.len()
        )));
    }
    let items = ItemIndex::new(&weapons, &equipment).map_err(|m| equipment_src.at_end(m))?;
    let mut base_weapons = Vec::with_capacity(BASE_WEAPON_IDS.len());
    for ((specialty, _), id) in BASE_WEAPON_IDS.into_iter().zip(lim.base_weapons) {
        match items.get(id) {
            Some(Item::Weapon(w)) => base_weapons.push(w),
            _ => {
                return Err(weapons_src.at_end(format!(
                    "no weapon `{id}`: it is the {specialty:?} base weapon (EQP-3)"
                )))
            }
        }
    }
    let base_weapons: [WeaponId; 3] = base_weapons
        .try_into()
        .map_err(|_| weapons_src.at_end("base weapons"))?;
    let (ranks, rank_min_pp) = load_ranks(get("ranks.toml")?, lim)?;
    let (dt_cards, door_cards) = if lim.dt_and_door_cards {
        (
            load_dt_cards(get("dt_cards.toml")?)?,
            load_door_cards(get("door_cards.toml")?)?,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let tables = CeTables {
        dice: load_dice(get("dice.toml")?)?,
        ranks,
        corporations: load_corporations(get("corporations.toml")?, lim)?,
        weapons,
        equipment,
        creatures: load_creatures(get("creatures.toml")?, lim)?,
        terrain: load_terrain(get("terrain.toml")?)?,
        force_cards: load_force_cards(get("force_cards.toml")?, lim.force_cards)?,
        events: load_events(get("events.toml")?, lim.events)?,
        dt_cards,
        door_cards,
        secondary: load_secondary(get("secondary.toml")?, lim)?,
        base_weapons,
        items,
    };
    Ok((tables, rank_min_pp))
}

// ---------------------------------------------------------------------------
// Source files and line numbers

/// One file being loaded: its name and text, to turn byte offsets into lines.
#[derive(Clone, Copy, Debug)]
struct Src<'a> {
    file: &'a str,
    text: &'a str,
}

impl Src<'_> {
    /// 1-based line of a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let end = offset.min(bytes.len());
        1 + bytes[..end].iter().filter(|&&b| b == b'\n').count()
    }

    /// An error at the line holding `offset`.
    fn err(&self, offset: usize, message: impl Into<String>) -> ContentError {
        ContentError::new(self.file, self.line_of(offset), message)
    }

    /// An error at the line where a spanned value starts.
    fn at<T>(&self, value: &Spanned<T>, message: impl Into<String>) -> ContentError {
        self.err(value.span().start, message)
    }

    /// An error about the file as a whole (a missing entry, a wrong total):
    /// reported at its last non-blank line, where an entry would be added.
    fn at_end(&self, message: impl Into<String>) -> ContentError {
        self.err(self.text.trim_end().len(), message)
    }

    /// Deserialize the whole file; TOML and shape errors carry their line.
    fn parse<T: DeserializeOwned>(&self) -> Result<T, ContentError> {
        toml::from_str(self.text).map_err(|e| {
            let line = e.span().map_or(1, |s| self.line_of(s.start));
            // The TOML parser leaves the message empty for some inputs
            // (control characters): a load error must still say something.
            let message = match e.message().trim() {
                "" => "not valid TOML".to_string(),
                m => m.to_string(),
            };
            ContentError::new(self.file, line, message)
        })
    }
}

/// Wrap a parse result's message with the value's line.
fn cell<T, U>(src: Src<'_>, value: &Spanned<T>, r: Result<U, String>) -> Result<U, ContentError> {
    r.map_err(|m| src.at(value, m))
}

// ---------------------------------------------------------------------------
// Notation parsers (the spec's own cell formats)

/// A die colour letter: `W`, `R` or `B`.
fn parse_color(c: char) -> Option<DieColor> {
    match c.to_ascii_uppercase() {
        'W' => Some(DieColor::White),
        'R' => Some(DieColor::Red),
        'B' => Some(DieColor::Black),
        _ => None,
    }
}

/// True for the "none" marks of a table cell.
fn is_dash(s: &str) -> bool {
    matches!(s.trim(), "—" | "–" | "-")
}

/// A dice pool: groups like `2W 1R` or single letters like `W W R`;
/// `—` (or `-`) is the empty pool.
pub(crate) fn parse_dice(s: &str) -> Result<Vec<DieColor>, String> {
    if is_dash(s) {
        return Ok(Vec::new());
    }
    let bad = || format!("bad dice `{s}`: expected groups like `2W 1R` (colours W, R, B) or `—`");
    let mut dice = Vec::new();
    for token in s.split_whitespace() {
        let mut chars = token.chars();
        let color = chars.next_back().and_then(parse_color).ok_or_else(bad)?;
        let count = chars.as_str();
        let n: u8 = if count.is_empty() {
            1
        } else {
            count.parse().map_err(|_| bad())?
        };
        if n == 0 || n > 9 {
            return Err(bad());
        }
        dice.extend(std::iter::repeat_n(color, usize::from(n)));
    }
    if dice.is_empty() {
        return Err(bad());
    }
    Ok(dice)
}

/// Weapon dice (DICE-2): `3`, `1`, `0`, `3+1R`. `None` for `0` or `—`.
/// `max` is the largest rank-dice count (3 in CE; classic weapons print
/// their own count, CDI-1).
fn parse_weapon_dice(s: &str, max: u8) -> Result<Option<WeaponDice>, String> {
    if is_dash(s) {
        return Ok(None);
    }
    let bad = || {
        format!(
            "bad weapon dice `{s}`: expected rank dice 0..={max}, optionally `+` extras, like `3+1R`"
        )
    };
    let (rank, extra) = match s.split_once('+') {
        Some((r, e)) => (r.trim(), Some(e.trim())),
        None => (s.trim(), None),
    };
    let rank_dice: u8 = rank.parse().map_err(|_| bad())?;
    if rank_dice > max {
        return Err(bad());
    }
    let extra = match extra {
        Some(e) => parse_dice(e)
            .ok()
            .filter(|d| !d.is_empty())
            .ok_or_else(bad)?,
        None => Vec::new(),
    };
    if rank_dice == 0 && extra.is_empty() {
        return Ok(None);
    }
    Ok(Some(WeaponDice { rank_dice, extra }))
}

/// A creature name as printed, singular or plural, any case.
fn parse_creature_name(s: &str) -> Result<CreatureKind, String> {
    let norm = s.trim().to_ascii_lowercase().replace(['_', '-'], " ");
    let singular = norm.strip_suffix('s').unwrap_or(&norm);
    CreatureKind::ALL
        .into_iter()
        .find(|k| {
            let id = k.id().replace('_', " ");
            id == norm || id == singular
        })
        .ok_or_else(|| {
            format!(
                "unknown creature `{}` (expected Legionnaire, Necromutant, Centurion, Razide, \
                 Praetorian Stalker, Nepharite or Ezoghoul)",
                s.trim()
            )
        })
}

/// One figure group: `2 Legionnaires`.
fn parse_group(s: &str) -> Result<(CreatureKind, u8), String> {
    let s = s.trim();
    let (count, name) = s.split_once(char::is_whitespace).ok_or_else(|| {
        format!("bad figures `{s}`: expected a count and a creature, like `2 Legionnaires`")
    })?;
    let count: u8 = count
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("bad figure count in `{s}`"))?;
    Ok((parse_creature_name(name)?, count))
}

/// A force card option: `1 Centurion + 1 Necromutant`, or `none`.
fn parse_option(s: &str) -> Result<Vec<CreatureKind>, String> {
    if s.trim().eq_ignore_ascii_case("none") || is_dash(s) {
        return Ok(Vec::new());
    }
    let mut figures = Vec::new();
    for part in s.split('+') {
        let (kind, n) = parse_group(part)?;
        figures.extend(std::iter::repeat_n(kind, usize::from(n)));
    }
    Ok(figures)
}

/// Card numbers: `1-3, 15-17`, `24`.
fn parse_numbers(s: &str) -> Result<Vec<u32>, String> {
    let bad = || format!("bad card numbers `{s}`: expected numbers and ranges like `1-3, 15-17`");
    let mut out = Vec::new();
    for part in s.split(',') {
        let part = part.trim();
        let (a, b) = match part.split_once(['-', '–']) {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (part, part),
        };
        let a: u32 = a.parse().map_err(|_| bad())?;
        let b: u32 = b.parse().map_err(|_| bad())?;
        if a > b {
            return Err(bad());
        }
        out.extend(a..=b);
    }
    Ok(out)
}

/// A specialty icon: `CC`, `FA`, `TE`.
fn parse_specialty(s: &str) -> Result<Specialty, String> {
    match s.trim() {
        "CC" => Ok(Specialty::CloseCombat),
        "FA" => Ok(Specialty::Firearms),
        "TE" => Ok(Specialty::Tech),
        other => Err(format!(
            "unknown specialty icon `{other}` (expected CC, FA or TE)"
        )),
    }
}

/// An attack type: `CC`, `FA`, `TE`.
fn parse_attack_type(s: &str) -> Result<AttackType, String> {
    match s.trim() {
        "CC" => Ok(AttackType::CloseCombat),
        "FA" => Ok(AttackType::Firearm),
        "TE" => Ok(AttackType::Tech),
        other => Err(format!(
            "unknown attack type `{other}` (expected CC, FA or TE)"
        )),
    }
}

/// A DLB-2 cell: `CC / FA / DV(+die) / PP`, e.g. `2R / 2W / 0+W / 1`.
fn parse_creature_cell(s: &str) -> Result<CreatureStats, String> {
    let parts: Vec<&str> = s.split('/').map(str::trim).collect();
    let [cc, fa, def, pp] = parts[..] else {
        return Err(format!(
            "bad creature cell `{s}`: expected `CC / FA / DV+die / PP`, like `2R / 2W / 0+W / 1`"
        ));
    };
    let cc = parse_dice(cc)?;
    let fa = parse_dice(fa)?;
    let (dv, die) = match def.split_once('+') {
        Some((dv, die)) => (dv.trim(), Some(die.trim())),
        None => (def, None),
    };
    let dv: u8 = dv
        .parse()
        .map_err(|_| format!("bad defense value `{def}` in `{s}`: expected like `1` or `1+W`"))?;
    let defense_die = match die {
        Some(d) => {
            let dice = parse_dice(d)?;
            let [one] = dice[..] else {
                return Err(format!("defense die in `{s}` must be a single die"));
            };
            Some(one)
        }
        None => None,
    };
    let pp: u8 = pp
        .parse()
        .map_err(|_| format!("bad PP `{pp}` in `{s}`: expected a number"))?;
    if cc.is_empty() && fa.is_empty() {
        return Err(format!("creature cell `{s}` has no attack"));
    }
    Ok(CreatureStats {
        cc,
        fa,
        dv,
        defense_die,
        pp,
    })
}

// ---------------------------------------------------------------------------
// Shared checks

/// Checks that `numbers` (each with the span it came from) are exactly
/// `1..=max`, each once, and returns nothing; errors name the line.
fn check_numbering(
    src: Src<'_>,
    numbers: &[(u32, usize)],
    max: u32,
    what: &str,
) -> Result<(), ContentError> {
    let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
    for &(n, at) in numbers {
        if n == 0 || n > max {
            return Err(src.err(
                at,
                format!("{what} {n} is out of range: numbers must be 1..={max}"),
            ));
        }
        if let Some(&first) = seen.get(&n) {
            return Err(src.err(
                at,
                format!(
                    "duplicate {what} {n} (already on line {})",
                    src.line_of(first)
                ),
            ));
        }
        seen.insert(n, at);
    }
    if let Some(missing) = (1..=max).find(|n| !seen.contains_key(n)) {
        return Err(src.at_end(format!(
            "{what} {missing} is missing: numbers must be exactly 1..={max}"
        )));
    }
    Ok(())
}

/// Checks a deck total.
fn check_total(src: Src<'_>, total: u32, want: u32, what: &str) -> Result<(), ContentError> {
    if total == want {
        Ok(())
    } else {
        Err(src.at_end(format!("{what} totals {total} cards; it must total {want}")))
    }
}

/// Checks a rank requirement 1..=12.
fn check_rank(src: Src<'_>, rank: &Spanned<u8>) -> Result<u8, ContentError> {
    let r = *rank.get_ref();
    if (1..=12).contains(&r) {
        Ok(r)
    } else {
        Err(src.at(rank, format!("rank requirement {r} must be 1..=12")))
    }
}

// ---------------------------------------------------------------------------
// dice.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiceFile {
    white: Vec<Spanned<u8>>,
    red: Vec<Spanned<u8>>,
    black: Vec<Spanned<u8>>,
}

fn load_dice(src: Src<'_>) -> Result<DiceFaces, ContentError> {
    let raw: DiceFile = src.parse()?;
    let faces = |list: Vec<Spanned<u8>>, color: &str| -> Result<Vec<u8>, ContentError> {
        let mut out: Vec<u8> = Vec::new();
        for f in &list {
            let v = *f.get_ref();
            if !(1..=6).contains(&v) {
                return Err(src.at(f, format!("{color} face {v} is not a d6 face 1..=6")));
            }
            if out.contains(&v) {
                return Err(src.at(f, format!("{color} face {v} listed twice")));
            }
            out.push(v);
        }
        out.sort_unstable();
        Ok(out)
    };
    Ok(DiceFaces {
        white: faces(raw.white, "white")?,
        red: faces(raw.red, "red")?,
        black: faces(raw.black, "black")?,
    })
}

// ---------------------------------------------------------------------------
// ranks.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RanksFile {
    rank: Vec<RankRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RankRow {
    rank: Spanned<u8>,
    combat: Spanned<String>,
    defense: Spanned<String>,
    credits: u8,
    dt_cards: u8,
    /// Classic CRK-1 only: the least PP of this rank.
    min_pp: Option<Spanned<i32>>,
}

fn load_ranks(src: Src<'_>, lim: &Limits) -> Result<(Vec<RankCard>, Vec<i32>), ContentError> {
    let n_ranks = lim.ranks;
    let raw: RanksFile = src.parse()?;
    let mut out = Vec::new();
    let mut min_pp: Vec<i32> = Vec::new();
    for (i, row) in raw.rank.into_iter().enumerate() {
        let want = i + 1;
        if want > n_ranks {
            return Err(src.at(&row.rank, format!("more than {n_ranks} rank cards")));
        }
        if usize::from(*row.rank.get_ref()) != want {
            return Err(src.at(
                &row.rank,
                format!(
                    "rank cards must be 1..={n_ranks} in order: expected rank {want}, found {}",
                    row.rank.get_ref()
                ),
            ));
        }
        let combat = cell(src, &row.combat, parse_dice(row.combat.get_ref()))?;
        let [a, b, c] = combat[..] else {
            return Err(src.at(&row.combat, "a rank card has exactly 3 combat dice"));
        };
        let defense = cell(src, &row.defense, parse_dice(row.defense.get_ref()))?;
        let [d] = defense[..] else {
            return Err(src.at(&row.defense, "a rank card has exactly 1 defense die"));
        };
        match (&row.min_pp, lim.rank_min_pp) {
            (Some(p), true) => {
                let v = *p.get_ref();
                let first = min_pp.is_empty();
                if (first && v != 0) || min_pp.last().is_some_and(|&prev| v <= prev) {
                    return Err(src.at(
                        p,
                        "min_pp must be 0 for rank 1 and rise with every rank (CRK-1)",
                    ));
                }
                min_pp.push(v);
            }
            (None, true) => {
                return Err(src.at(&row.rank, "a classic rank needs `min_pp` (CRK-1)"));
            }
            (Some(p), false) => {
                return Err(src.at(p, "`min_pp` is a classic field (CRK-1)"));
            }
            (None, false) => {}
        }
        out.push(RankCard {
            rank: *row.rank.get_ref(),
            combat: [a, b, c],
            defense: d,
            credits: row.credits,
            dt_cards: row.dt_cards,
        });
    }
    if out.len() != n_ranks {
        return Err(src.at_end(format!(
            "{} rank cards; there must be {n_ranks} (ranks 1..={n_ranks})",
            out.len()
        )));
    }
    Ok((out, min_pp))
}

// ---------------------------------------------------------------------------
// corporations.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CorporationsFile {
    corporation: Vec<CorporationRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CorporationRow {
    id: Spanned<Corporation>,
    name: String,
    fa: Option<Spanned<String>>,
    cc: Option<Spanned<String>>,
    te: Option<Spanned<String>>,
}

fn load_corporations(src: Src<'_>, lim: &Limits) -> Result<Vec<CorporationDef>, ContentError> {
    let raw: CorporationsFile = src.parse()?;
    let mut out = Vec::new();
    for (i, row) in raw.corporation.into_iter().enumerate() {
        let id = *row.id.get_ref();
        match Corporation::ALL.get(i) {
            Some(&want) if want == id => {}
            Some(&want) => {
                return Err(src.at(
                    &row.id,
                    format!("corporations must be in the order bauhaus, capitol, cybertronic, imperial, mishima: expected `{want}`, found `{id}`"),
                ))
            }
            None => return Err(src.at(&row.id, "more than 5 corporations")),
        }
        let mut roster = Vec::new();
        for (name, specialty, key) in [
            (row.fa, Specialty::Firearms, "fa"),
            (row.cc, Specialty::CloseCombat, "cc"),
            (row.te, Specialty::Tech, "te"),
        ] {
            let wanted = lim.roster.contains(&specialty);
            let name = match (name, wanted) {
                (Some(n), true) => n,
                (None, false) => continue,
                (None, true) => {
                    return Err(src.at(&row.id, format!("corporation `{id}` needs `{key}`")))
                }
                (Some(n), false) => {
                    return Err(src.at(
                        &n,
                        format!("`{key}` is not a roster column of the {} tables", lim.dir),
                    ))
                }
            };
            if name.get_ref().trim().is_empty() {
                return Err(src.at(&name, "empty Doomtrooper name"));
            }
            roster.push(RosterEntry {
                name: name.into_inner(),
                specialty,
            });
        }
        out.push(CorporationDef {
            id,
            name: row.name,
            roster,
        });
    }
    if out.len() != Corporation::ALL.len() {
        return Err(src.at_end(format!("{} corporations; there must be 5", out.len())));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// weapons.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WeaponsFile {
    weapon: Vec<WeaponRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WeaponRow {
    id: Spanned<String>,
    name: String,
    text: Spanned<String>,
    icons: Vec<Spanned<String>>,
    rank: Spanned<u8>,
    cost: u8,
    copies: Spanned<toml::Value>,
    cc: Option<Spanned<String>>,
    #[serde(default)]
    swing: bool,
    fa: Option<FaRow>,
    te: Option<TeRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FaRow {
    dice: Spanned<String>,
    range: Option<Spanned<String>>,
    line: Option<Spanned<u8>>,
    barrels: Option<Spanned<u8>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TeRow {
    dice: Spanned<String>,
    #[serde(default)]
    trap: bool,
    #[serde(default)]
    barbs: bool,
}

/// A card's `text` for players: required, one line, not blank.
fn card_text(src: Src<'_>, text: Spanned<String>) -> Result<String, ContentError> {
    let t = text.get_ref().trim();
    if t.is_empty() || t.contains('\n') {
        return Err(src.at(&text, "a card's `text` must be one line of words"));
    }
    Ok(t.to_string())
}

/// `min-max` range.
fn parse_range(s: &str) -> Result<(u8, u8), String> {
    let bad = || format!("bad range `{s}`: expected `min-max`, like `2-16`");
    let (a, b) = s.split_once(['-', '–']).ok_or_else(bad)?;
    let a: u8 = a.trim().parse().map_err(|_| bad())?;
    let b: u8 = b.trim().parse().map_err(|_| bad())?;
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok((a, b))
}

fn load_weapons(src: Src<'_>, lim: &Limits) -> Result<Vec<WeaponDef>, ContentError> {
    let raw: WeaponsFile = src.parse()?;
    let mut out: Vec<WeaponDef> = Vec::new();
    for row in raw.weapon {
        let id = row.id.get_ref().clone();
        if id.is_empty() || out.iter().any(|w| w.id == id) {
            return Err(src.at(&row.id, format!("duplicate or empty weapon id `{id}`")));
        }
        let mut icons = Vec::new();
        for icon in &row.icons {
            let s = cell(src, icon, parse_specialty(icon.get_ref()))?;
            if icons.contains(&s) {
                return Err(src.at(icon, "specialty icon listed twice"));
            }
            icons.push(s);
        }
        if icons.is_empty() {
            return Err(src.at(&row.id, format!("weapon `{id}` has no specialty icon")));
        }
        let rank = check_rank(src, &row.rank)?;
        let copies = match row.copies.get_ref() {
            toml::Value::String(s) if s == "unlimited" || s == "∞" => None,
            toml::Value::Integer(n) if (1..=99).contains(n) => u8::try_from(*n).ok(),
            _ => {
                return Err(src.at(
                    &row.copies,
                    "copies must be a number 1..=99 or \"unlimited\"",
                ))
            }
        };
        let cc = match &row.cc {
            Some(c) => cell(src, c, parse_weapon_dice(c.get_ref(), lim.max_rank_dice))?,
            None => None,
        };
        if row.swing && cc.is_none() {
            return Err(src.at(
                &row.id,
                format!("weapon `{id}` has a swing but no close combat dice"),
            ));
        }
        let fa = match &row.fa {
            Some(fa) => {
                let dice = cell(
                    src,
                    &fa.dice,
                    parse_weapon_dice(fa.dice.get_ref(), lim.max_rank_dice),
                )?
                .ok_or_else(|| src.at(&fa.dice, "a firearm profile needs dice"))?;
                let (min_range, max_range, line) = match (&fa.range, &fa.line) {
                    (Some(r), None) => {
                        let (a, b) = cell(src, r, parse_range(r.get_ref()))?;
                        (a, b, None)
                    }
                    (None, Some(l)) if *l.get_ref() > 0 => (1, *l.get_ref(), Some(*l.get_ref())),
                    _ => {
                        return Err(src.at(
                            &fa.dice,
                            "a firearm profile needs exactly one of `range = \"min-max\"` or `line = N` (N > 0)",
                        ))
                    }
                };
                let barrels = match &fa.barrels {
                    Some(b) if (1..=2).contains(b.get_ref()) => *b.get_ref(),
                    Some(b) => return Err(src.at(b, "barrels must be 1 or 2")),
                    None => 1,
                };
                Some(FirearmProfile {
                    dice,
                    min_range,
                    max_range,
                    barrels,
                    line,
                })
            }
            None => None,
        };
        let te = match &row.te {
            Some(te) => {
                let dice = cell(
                    src,
                    &te.dice,
                    parse_weapon_dice(te.dice.get_ref(), lim.max_rank_dice),
                )?
                .ok_or_else(|| src.at(&te.dice, "a tech profile needs dice"))?;
                if te.barbs && !te.trap {
                    return Err(src.at(&te.dice, "barbs need trap tech attacks (WPN-2)"));
                }
                Some(TechProfile {
                    dice,
                    trap: te.trap,
                    barbs: te.barbs,
                })
            }
            None => None,
        };
        if cc.is_none() && fa.is_none() && te.is_none() {
            return Err(src.at(&row.id, format!("weapon `{id}` has no attack")));
        }
        out.push(WeaponDef {
            id,
            name: row.name,
            icons,
            rank,
            cost: row.cost,
            copies,
            cc,
            swing: row.swing,
            fa,
            te,
            text: card_text(src, row.text)?,
        });
    }
    if out.is_empty() {
        return Err(src.at_end("no weapons"));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// equipment.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EquipmentFile {
    equipment: Vec<EquipmentRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EquipmentRow {
    id: Spanned<String>,
    name: String,
    rank: Spanned<u8>,
    cost: u8,
    copies: Spanned<u8>,
    augment: Option<Spanned<String>>,
    effect: EquipmentEffect,
    text: Spanned<String>,
}

/// `weapons` are the loaded weapon cards: a pick names either kind by id,
/// so an equipment id may not repeat a weapon id.
fn load_equipment(src: Src<'_>, weapons: &[WeaponDef]) -> Result<Vec<EquipmentDef>, ContentError> {
    let raw: EquipmentFile = src.parse()?;
    let mut out: Vec<EquipmentDef> = Vec::new();
    for row in raw.equipment {
        let id = row.id.get_ref().clone();
        if id.is_empty() || out.iter().any(|e| e.id == id) {
            return Err(src.at(&row.id, format!("duplicate or empty equipment id `{id}`")));
        }
        if weapons.iter().any(|w| w.id == id) {
            return Err(src.at(
                &row.id,
                format!("equipment id `{id}` is also a weapon id (EQP-2 picks name either)"),
            ));
        }
        let rank = check_rank(src, &row.rank)?;
        if *row.copies.get_ref() == 0 {
            return Err(src.at(&row.copies, "copies must be at least 1"));
        }
        let augment = match &row.augment {
            Some(a) => Some(cell(src, a, parse_attack_type(a.get_ref()))?),
            None => None,
        };
        out.push(EquipmentDef {
            id,
            name: row.name,
            rank,
            cost: row.cost,
            copies: *row.copies.get_ref(),
            augment,
            effect: row.effect,
            text: card_text(src, row.text)?,
        });
    }
    if out.is_empty() {
        return Err(src.at_end("no equipment"));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// creatures.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreaturesFile {
    creature: Vec<CreatureRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreatureRow {
    kind: Spanned<String>,
    name: String,
    actions: Spanned<u8>,
    pool: u8,
    bands: Spanned<Vec<Spanned<String>>>,
}

fn load_creatures(src: Src<'_>, lim: &Limits) -> Result<Vec<CreatureDef>, ContentError> {
    let raw: CreaturesFile = src.parse()?;
    let mut out = Vec::new();
    for (i, row) in raw.creature.into_iter().enumerate() {
        let kind = cell(src, &row.kind, parse_creature_name(row.kind.get_ref()))?;
        match lim.creatures.get(i) {
            Some(&want) if want == kind => {}
            Some(&want) => {
                return Err(src.at(
                    &row.kind,
                    format!("creatures must be in pool order: expected `{want}`, found `{kind}`"),
                ))
            }
            None => {
                return Err(src.at(
                    &row.kind,
                    format!("more than {} creatures", lim.creatures.len()),
                ))
            }
        }
        if *row.actions.get_ref() == 0 {
            return Err(src.at(&row.actions, "a creature needs at least 1 action"));
        }
        let cells = row.bands.get_ref();
        if cells.len() != lim.band_cells {
            return Err(src.at(
                &row.bands,
                format!(
                    "creature `{kind}` has {} band cells; it needs exactly {}",
                    cells.len(),
                    lim.band_cells
                ),
            ));
        }
        // Each cell covers BANDS / band_cells bands (classic: 1-2, 3-4, 5-6).
        let per_cell = BANDS / lim.band_cells;
        let mut bands = Vec::new();
        for c in cells {
            let stats = cell(src, c, parse_creature_cell(c.get_ref()))?;
            bands.extend(std::iter::repeat_n(stats, per_cell));
        }
        out.push(CreatureDef {
            kind,
            name: row.name,
            actions: *row.actions.get_ref(),
            pool: row.pool,
            bands,
        });
    }
    if out.len() != lim.creatures.len() {
        return Err(src.at_end(format!(
            "{} creatures; there must be {} (every creature kind, in pool order)",
            out.len(),
            lim.creatures.len()
        )));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// terrain.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    band: Vec<TerrainRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainRow {
    band: Spanned<u8>,
    trap_dice: Spanned<String>,
    terminal_dv: u8,
    turret_dv: u8,
    trap_dv: u8,
    portal_dv: u8,
    pp_terminal: u8,
    pp_turret: u8,
    pp_trap: u8,
    pp_portal: u8,
}

fn load_terrain(src: Src<'_>) -> Result<Vec<TerrainBand>, ContentError> {
    let raw: TerrainFile = src.parse()?;
    let mut out = Vec::new();
    for (i, row) in raw.band.into_iter().enumerate() {
        if usize::from(*row.band.get_ref()) != i + 1 || i >= BANDS {
            return Err(src.at(
                &row.band,
                format!(
                    "terrain bands must be 1..={BANDS} in order: found {} at position {}",
                    row.band.get_ref(),
                    i + 1
                ),
            ));
        }
        let trap_dice = cell(src, &row.trap_dice, parse_dice(row.trap_dice.get_ref()))?;
        if trap_dice.is_empty() {
            return Err(src.at(&row.trap_dice, "a trap attack needs dice"));
        }
        out.push(TerrainBand {
            band: *row.band.get_ref(),
            trap_dice,
            terminal_dv: row.terminal_dv,
            turret_dv: row.turret_dv,
            trap_dv: row.trap_dv,
            portal_dv: row.portal_dv,
            pp_terminal: row.pp_terminal,
            pp_turret: row.pp_turret,
            pp_trap: row.pp_trap,
            pp_portal: row.pp_portal,
        });
    }
    if out.len() != BANDS {
        return Err(src.at_end(format!(
            "{} terrain bands; there must be {BANDS}",
            out.len()
        )));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// force_cards.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ForceFile {
    card: Vec<ForceRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ForceRow {
    numbers: Spanned<String>,
    name: String,
    figures: Option<Spanned<String>>,
    choice: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    flags: Vec<Spanned<String>>,
}

fn load_force_cards(src: Src<'_>, count: u32) -> Result<Vec<ForceCardDef>, ContentError> {
    let raw: ForceFile = src.parse()?;
    let mut numbers = Vec::new();
    let mut cards = Vec::new();
    for row in raw.card {
        let nums = cell(src, &row.numbers, parse_numbers(row.numbers.get_ref()))?;
        let options = match (&row.figures, &row.choice) {
            (Some(f), None) => vec![cell(src, f, parse_option(f.get_ref()))?],
            (None, Some(choice)) if choice.len() >= 2 => {
                let mut opts = Vec::new();
                for c in choice {
                    let opt = cell(src, c, parse_option(c.get_ref()))?;
                    if opt.is_empty() {
                        return Err(src.at(c, "a choice option must place figures"));
                    }
                    opts.push(opt);
                }
                opts
            }
            _ => return Err(src.at(
                &row.numbers,
                "a force card needs either `figures = \"...\"` or `choice = [two or more options]`",
            )),
        };
        let (mut draw_one_more, mut stop, mut remove) = (false, false, false);
        for flag in &row.flags {
            let slot = match flag.get_ref().as_str() {
                "draw_one_more" => &mut draw_one_more,
                "stop" => &mut stop,
                "remove" => &mut remove,
                other => {
                    return Err(src.at(
                        flag,
                        format!("unknown flag `{other}` (expected draw_one_more, stop or remove)"),
                    ))
                }
            };
            if *slot {
                return Err(src.at(flag, "flag listed twice"));
            }
            *slot = true;
        }
        for n in nums {
            numbers.push((n, row.numbers.span().start));
            cards.push(ForceCardDef {
                number: n,
                name: row.name.clone(),
                options: options.clone(),
                draw_one_more,
                stop,
                remove,
            });
        }
    }
    check_numbering(src, &numbers, count, "force card")?;
    cards.sort_by_key(|c| c.number);
    Ok(cards)
}

// ---------------------------------------------------------------------------
// events.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventsFile {
    event: Vec<EventRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventRow {
    number: Spanned<u32>,
    name: String,
    reinf: Spanned<String>,
    effect: EventEffect,
    duration: Option<EventDuration>,
    text: Spanned<String>,
}

/// The "Reinf." column: `F`, `1 Centurion + F`,
/// `1 Centurion, 2 Legionnaires per corporation player`, `—`.
fn parse_reinf(s: &str) -> Result<(Vec<EventReinforcement>, bool), String> {
    let mut groups = Vec::new();
    let mut force = false;
    if is_dash(s) {
        return Ok((groups, force));
    }
    for part in s.split([',', '+']) {
        let part = part.trim();
        if part == "F" {
            if force {
                return Err(format!("`F` listed twice in `{s}`"));
            }
            force = true;
            continue;
        }
        let (part, per_corporation) = match part.strip_suffix("per corporation player") {
            Some(p) => (p.trim(), true),
            None => (part, false),
        };
        let (kind, count) = parse_group(part)?;
        groups.push(EventReinforcement {
            kind,
            count,
            per_corporation,
        });
    }
    Ok((groups, force))
}

fn load_events(src: Src<'_>, count: u32) -> Result<Vec<EventDef>, ContentError> {
    let raw: EventsFile = src.parse()?;
    let mut numbers = Vec::new();
    let mut events = Vec::new();
    for row in raw.event {
        let (reinforcements, force_draw) = cell(src, &row.reinf, parse_reinf(row.reinf.get_ref()))?;
        let duration = match (row.duration, row.effect) {
            (Some(d), _) => d,
            (None, EventEffect::None) => EventDuration::Instant,
            (None, _) => {
                return Err(src.at(&row.number, "an event with an effect needs a `duration`"));
            }
        };
        if reinforcements.is_empty() && !force_draw && row.effect == EventEffect::None {
            return Err(src.at(
                &row.number,
                "an event must place figures, draw (F) or have an effect",
            ));
        }
        numbers.push((*row.number.get_ref(), row.number.span().start));
        events.push(EventDef {
            number: *row.number.get_ref(),
            name: row.name,
            reinforcements,
            force_draw,
            effect: row.effect,
            duration,
            text: card_text(src, row.text)?,
        });
    }
    check_numbering(src, &numbers, count, "event")?;
    events.sort_by_key(|e| e.number);
    Ok(events)
}

// ---------------------------------------------------------------------------
// dt_cards.toml, door_cards.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DtFile {
    card: Vec<DtRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DtRow {
    kind: Spanned<DtCardKind>,
    name: String,
    copies: Spanned<u8>,
    #[serde(default)]
    reaction: bool,
    text: Spanned<String>,
}

fn load_dt_cards(src: Src<'_>) -> Result<Vec<DtCardDef>, ContentError> {
    let raw: DtFile = src.parse()?;
    let mut out: Vec<DtCardDef> = Vec::new();
    for row in raw.card {
        let kind = *row.kind.get_ref();
        if out.iter().any(|c| c.kind == kind) {
            return Err(src.at(&row.kind, "card kind listed twice"));
        }
        if *row.copies.get_ref() == 0 {
            return Err(src.at(&row.copies, "copies must be at least 1"));
        }
        out.push(DtCardDef {
            kind,
            name: row.name,
            copies: *row.copies.get_ref(),
            reaction: row.reaction,
            text: card_text(src, row.text)?,
        });
    }
    let total = out.iter().map(|c| u32::from(c.copies)).sum();
    check_total(src, total, DT_DECK, "the Doomtrooper deck")?;
    Ok(out)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DoorFile {
    card: Vec<DoorRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DoorRow {
    kind: Spanned<DoorCardKind>,
    name: String,
    copies: Spanned<u8>,
    text: Spanned<String>,
}

fn load_door_cards(src: Src<'_>) -> Result<Vec<DoorCardDef>, ContentError> {
    let raw: DoorFile = src.parse()?;
    let mut out: Vec<DoorCardDef> = Vec::new();
    for row in raw.card {
        let kind = *row.kind.get_ref();
        if out.iter().any(|c| c.kind == kind) {
            return Err(src.at(&row.kind, "card kind listed twice"));
        }
        if *row.copies.get_ref() == 0 {
            return Err(src.at(&row.copies, "copies must be at least 1"));
        }
        out.push(DoorCardDef {
            kind,
            name: row.name,
            copies: *row.copies.get_ref(),
            text: card_text(src, row.text)?,
        });
    }
    let total = out.iter().map(|c| u32::from(c.copies)).sum();
    check_total(src, total, DOOR_DECK, "the door deck")?;
    Ok(out)
}

// ---------------------------------------------------------------------------
// secondary.toml

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SecondaryFile {
    mission: Vec<SecondaryRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SecondaryRow {
    number: Spanned<u32>,
    name: String,
    success: Spanned<i32>,
    failure: Spanned<i32>,
    commander_penalty: Spanned<i32>,
    text: Spanned<String>,
}

fn load_secondary(src: Src<'_>, lim: &Limits) -> Result<Vec<SecondaryDef>, ContentError> {
    let count = lim.secondary;
    let raw: SecondaryFile = src.parse()?;
    let mut out = Vec::new();
    for (i, row) in raw.mission.into_iter().enumerate() {
        let n = *row.number.get_ref();
        if usize::try_from(n).ok() != Some(i + 1) || n > count {
            return Err(src.at(
                &row.number,
                format!(
                    "secondary missions must be 1..={count} in order: found {n} at position {}",
                    i + 1
                ),
            ));
        }
        if *row.success.get_ref() <= 0 {
            return Err(src.at(&row.success, "success PP must be positive"));
        }
        if lim.secondary_failure_negative && *row.failure.get_ref() >= 0 {
            return Err(src.at(&row.failure, "failure PP must be negative"));
        }
        if !lim.secondary_failure_negative && *row.failure.get_ref() <= 0 {
            return Err(src.at(
                &row.failure,
                "failure is the DL player's credit gain (CSM-2): it must be positive",
            ));
        }
        if *row.commander_penalty.get_ref() > 0 {
            return Err(src.at(
                &row.commander_penalty,
                "commander penalty must be 0 or negative",
            ));
        }
        out.push(SecondaryDef {
            number: n,
            name: row.name,
            success: *row.success.get_ref(),
            failure: *row.failure.get_ref(),
            commander_penalty: *row.commander_penalty.get_ref(),
            text: card_text(src, row.text)?,
        });
    }
    if out.len() != count as usize {
        return Err(src.at_end(format!(
            "{} secondary missions; there must be {count}",
            out.len()
        )));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// classic/dt_cards.toml

/// CDT: the classic deck holds 13 two-use cards.
const CLASSIC_DT_CARDS: u32 = 13;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassicDtFile {
    card: Vec<ClassicDtRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassicDtRow {
    number: Spanned<u32>,
    boon: Spanned<ClassicDtUse>,
    boon_name: String,
    boon_text: Spanned<String>,
    sabotage: Spanned<ClassicDtUse>,
    sabotage_name: String,
    sabotage_text: Spanned<String>,
}

fn load_classic_dt_cards(src: Src<'_>) -> Result<Vec<ClassicDtCardDef>, ContentError> {
    let raw: ClassicDtFile = src.parse()?;
    let mut numbers = Vec::new();
    let mut out: Vec<ClassicDtCardDef> = Vec::new();
    for row in raw.card {
        if row.boon.get_ref() == row.sabotage.get_ref() {
            return Err(src.at(&row.sabotage, "a card use is listed twice"));
        }
        for u in [&row.boon, &row.sabotage] {
            let use_id = *u.get_ref();
            if out.iter().any(|c| c.boon == use_id || c.sabotage == use_id) {
                return Err(src.at(u, "a card use is listed twice"));
            }
        }
        for name in [&row.boon_name, &row.sabotage_name] {
            if name.trim().is_empty() {
                return Err(src.at(&row.number, "a card use needs a name"));
            }
        }
        numbers.push((*row.number.get_ref(), row.number.span().start));
        out.push(ClassicDtCardDef {
            number: *row.number.get_ref(),
            boon: *row.boon.get_ref(),
            sabotage: *row.sabotage.get_ref(),
            boon_name: row.boon_name,
            sabotage_name: row.sabotage_name,
            boon_text: card_text(src, row.boon_text)?,
            sabotage_text: card_text(src, row.sabotage_text)?,
        });
    }
    check_numbering(src, &numbers, CLASSIC_DT_CARDS, "Doomtrooper card")?;
    out.sort_by_key(|c| c.number);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use DieColor::{Black as B, Red as R, White as W};

    #[test]
    fn dice_1_pool_notation() {
        assert_eq!(parse_dice("2W 1R"), Ok(vec![W, W, R]));
        assert_eq!(parse_dice("W W R"), Ok(vec![W, W, R]));
        assert_eq!(parse_dice("1R 2B"), Ok(vec![R, B, B]));
        assert_eq!(parse_dice("—"), Ok(vec![]));
        assert_eq!(parse_dice("-"), Ok(vec![]));
        for bad in ["", "2X", "0W", "W2", "2 W", "1.5R"] {
            let e = parse_dice(bad).expect_err(bad);
            assert!(e.starts_with("bad dice"), "{bad}: {e}");
        }
    }

    #[test]
    fn dice_2_weapon_dice_notation() {
        let wd = |rank_dice, extra: &[DieColor]| {
            Some(WeaponDice {
                rank_dice,
                extra: extra.to_vec(),
            })
        };
        assert_eq!(parse_weapon_dice("3", 3), Ok(wd(3, &[])));
        assert_eq!(parse_weapon_dice("1", 3), Ok(wd(1, &[])));
        assert_eq!(parse_weapon_dice("3+1R", 3), Ok(wd(3, &[R])));
        assert_eq!(parse_weapon_dice("3 + 1W", 3), Ok(wd(3, &[W])));
        assert_eq!(parse_weapon_dice("0", 3), Ok(None));
        assert_eq!(parse_weapon_dice("—", 3), Ok(None));
        for bad in ["4", "3+", "3+1X", "x", "3+—"] {
            assert!(parse_weapon_dice(bad, 3).is_err(), "{bad}");
        }
    }

    #[test]
    fn dlb_2_cell_notation() {
        let c = parse_creature_cell("2R / 2W / 0+W / 1").expect("cell");
        assert_eq!(
            (c.cc, c.fa, c.dv, c.defense_die, c.pp),
            (vec![R, R], vec![W, W], 0, Some(W), 1)
        );
        let c = parse_creature_cell("5R / — / 2+R / 8").expect("cell");
        assert!(c.fa.is_empty());
        let c = parse_creature_cell("3W / 4W / 1 / 3").expect("cell");
        assert_eq!((c.dv, c.defense_die), (1, None));
        assert!(parse_creature_cell("3W / 4W / 1").is_err());
        assert!(parse_creature_cell("3W / 4W / 1+WW / 3").is_err());
        assert!(parse_creature_cell("— / — / 1 / 3").is_err());
        assert!(parse_creature_cell("3W / 4W / x / 3").is_err());
    }

    #[test]
    fn for_card_numbers_and_figures_notation() {
        assert_eq!(parse_numbers("1-3, 15-17"), Ok(vec![1, 2, 3, 15, 16, 17]));
        assert_eq!(parse_numbers("24"), Ok(vec![24]));
        assert_eq!(parse_numbers("7–8"), Ok(vec![7, 8]));
        assert!(parse_numbers("3-1").is_err());
        assert!(parse_numbers("a").is_err());
        use CreatureKind::{Centurion, Legionnaire, Necromutant, PraetorianStalker};
        assert_eq!(
            parse_option("2 Legionnaires"),
            Ok(vec![Legionnaire, Legionnaire])
        );
        assert_eq!(
            parse_option("1 Centurion + 1 Necromutant"),
            Ok(vec![Centurion, Necromutant])
        );
        assert_eq!(
            parse_option("1 Praetorian Stalker"),
            Ok(vec![PraetorianStalker])
        );
        assert_eq!(parse_option("none"), Ok(vec![]));
        let e = parse_option("1 Goblin").expect_err("goblin");
        assert!(e.contains("unknown creature `Goblin`"), "{e}");
        assert!(parse_option("Legionnaire").is_err());
        assert!(parse_option("0 Legionnaires").is_err());
    }

    #[test]
    fn eve_reinf_notation() {
        let (g, f) = parse_reinf("F").expect("F");
        assert!(g.is_empty() && f);
        let (g, f) = parse_reinf("1 Centurion + F").expect("+F");
        assert!(f);
        assert_eq!((g[0].kind, g[0].count), (CreatureKind::Centurion, 1));
        let (g, f) =
            parse_reinf("1 Centurion, 1 Necromutant, 2 Legionnaires per corporation player")
                .expect("15");
        assert!(!f);
        let scaled: Vec<bool> = g.iter().map(|r| r.per_corporation).collect();
        assert_eq!(scaled, vec![false, false, true]);
        assert!(parse_reinf("F + F").is_err());
    }

    #[test]
    fn content_error_lines_from_offsets() {
        let src = Src {
            file: "x.toml",
            text: "a = 1\nb = 2\n\nc = [\n",
        };
        assert_eq!(src.line_of(0), 1);
        assert_eq!(src.line_of(6), 2);
        assert_eq!(src.line_of(999), 5);
        let e = src.parse::<toml::Value>().expect_err("syntax");
        assert_eq!((e.file.as_str(), e.line), ("x.toml", 5), "{e}");
        let src = Src {
            file: "ce/dice.toml",
            text: "# c\nwhite = [1, 4]\nred = [1, 4, 6]\nblack = [1, 2, 9]\n",
        };
        let e = load_dice(src).expect_err("face 9");
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("face 9"), "{e}");
    }

    #[test]
    fn for_1_missing_card_reported_at_end() {
        let src = Src {
            file: "ce/force_cards.toml",
            text: "card = [\n  { numbers = \"1-43\", name = \"X\", figures = \"1 Legionnaire\" },\n]\n",
        };
        let e = load_force_cards(src, 44).expect_err("44 missing");
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("force card 44 is missing"), "{e}");
    }
}
