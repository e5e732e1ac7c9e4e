//! Armies as data: the tile tables of neuroshima.md §12, read from TOML
//! files embedded in the crate and checked on load. Every error names the
//! file and line it comes from.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

/// The embedded army files, `(name, text)`, in catalogue order.
pub const FILES: [(&str, &str); 2] = [
    ("data/ddm.toml", include_str!("../data/ddm.toml")),
    ("data/moloch.toml", include_str!("../data/moloch.toml")),
];

/// Tiles per army (NSH-TILE-1).
pub const TILES_PER_ARMY: usize = 35;

/// A data file that does not make an army: where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct DataError {
    /// The file's name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// What one tile edge carries (NSH-TILE, §12 edge codes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Edge {
    /// Melee strength (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub melee: u8,
    /// Ranged strength (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ranged: u8,
    /// A Gauss icon.
    #[serde(default, skip_serializing_if = "is_false")]
    pub gauss: bool,
    /// Armour.
    #[serde(default, skip_serializing_if = "is_false")]
    pub armour: bool,
    /// A net.
    #[serde(default, skip_serializing_if = "is_false")]
    pub net: bool,
    /// A redirect entry.
    #[serde(default, skip_serializing_if = "is_false")]
    pub entry: bool,
    /// A redirect exit.
    #[serde(default, skip_serializing_if = "is_false")]
    pub exit: bool,
    /// Module link range: 0 none, 1 short, 2 long.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub link: u8,
    /// The Trap's marked side.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trap: bool,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// Kind of tile (NSH-CONV-2, NSH-TILE-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// The headquarters.
    Hq,
    /// A board tile that is neither HQ nor module.
    Soldier,
    /// A module (links, Trap).
    Module,
    /// Used and discarded.
    Instant,
}

/// What an instant tile does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// NSH-TRN-9.
    Battle,
    /// NSH-USE-3.
    Push,
    /// NSH-MOL-4.
    Move,
    /// NSH-DM-12.
    SmallBomb,
    /// NSH-MOL-3.
    AirStrike,
}

/// What a module link gives (NSH-MOD-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Bonus {
    /// +1 to every melee edge.
    Melee,
    /// +1 to every ranged edge.
    Ranged,
    /// +1 to every base initiative slot.
    Initiative,
    /// One extra initiative slot.
    ExtraInitiative,
    /// Cancels one hit (NSH-MOD-6).
    Medic,
}

/// A named effect of one tile that data alone cannot say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// DDM HQ: rotate one friendly tile per turn (NSH-DM-10).
    Rotate,
    /// The Clown may explode (NSH-MOL-2).
    Explode,
}

/// One kind of tile of an army.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Kind {
    /// Kind id (`omega`).
    pub id: String,
    /// What players read.
    pub name: String,
    /// Copies in the army.
    pub count: u8,
    /// Its class.
    pub class: Class,
    /// Printed initiative values (base slots), highest first.
    #[serde(default)]
    pub init: Vec<u8>,
    /// Hit points (0 for instants).
    #[serde(default)]
    pub hp: u8,
    /// Edges 0..5 (all empty for instants).
    #[serde(default)]
    pub edges: [Edge; 6],
    /// What its links give.
    #[serde(default)]
    pub bonus: Vec<Bonus>,
    /// A named ability.
    #[serde(default)]
    pub ability: Option<Ability>,
    /// An instant's effect.
    #[serde(default)]
    pub effect: Option<Effect>,
}

impl Kind {
    /// A board tile (HQ, soldier, module)?
    pub fn is_board(&self) -> bool {
        self.class != Class::Instant
    }
    /// At least one net edge.
    pub fn is_netter(&self) -> bool {
        self.edges.iter().any(|e| e.net)
    }
    /// At least one redirect entry.
    pub fn is_redirector(&self) -> bool {
        self.edges.iter().any(|e| e.entry)
    }
    /// Links that give something.
    pub fn is_linker(&self) -> bool {
        !self.bonus.is_empty() && self.edges.iter().any(|e| e.link > 0)
    }
    /// Has a marked Trap side.
    pub fn is_trap(&self) -> bool {
        self.edges.iter().any(|e| e.trap)
    }
    /// Has any attack icon.
    pub fn attacks(&self) -> bool {
        self.edges
            .iter()
            .any(|e| e.melee > 0 || e.ranged > 0 || e.gauss)
    }
    /// Gives this bonus.
    pub fn gives(&self, b: Bonus) -> bool {
        self.bonus.contains(&b)
    }
}

/// One army: its tile kinds sorted by kind id (NSH-CONV-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Army {
    /// Army id (`ddm`).
    pub id: String,
    /// What players read.
    pub name: String,
    /// Kinds, by id.
    pub kinds: Vec<Kind>,
}

impl Army {
    /// Index of the HQ kind.
    pub fn hq(&self) -> u8 {
        self.kinds
            .iter()
            .position(|k| k.class == Class::Hq)
            .unwrap_or(0) as u8
    }
    /// The kind at an index.
    pub fn kind(&self, i: u8) -> Option<&Kind> {
        self.kinds.get(usize::from(i))
    }
    /// The index of a kind id.
    pub fn kind_index(&self, id: &str) -> Option<u8> {
        self.kinds.iter().position(|k| k.id == id).map(|i| i as u8)
    }
    /// Tiles in all.
    pub fn total(&self) -> usize {
        self.kinds.iter().map(|k| usize::from(k.count)).sum()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmy {
    army: String,
    name: String,
    tile: Vec<toml::Spanned<RawTile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTile {
    kind: String,
    name: String,
    count: u8,
    class: Class,
    #[serde(default)]
    init: Vec<u8>,
    #[serde(default)]
    hp: u8,
    #[serde(default)]
    edges: Option<Vec<String>>,
    #[serde(default)]
    bonus: Vec<Bonus>,
    #[serde(default)]
    ability: Option<Ability>,
    #[serde(default)]
    effect: Option<Effect>,
}

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset.min(text.len()))
        .map(|t| t.matches('\n').count() + 1)
        .unwrap_or(1)
}

/// Parse one edge's codes.
fn parse_edge(code: &str) -> Result<Edge, String> {
    let mut e = Edge::default();
    for tok in code.split([' ', ',']).filter(|t| !t.is_empty()) {
        match tok {
            "-" | "—" => {}
            "G" => e.gauss = true,
            "A" => e.armour = true,
            "N" => e.net = true,
            "in" => e.entry = true,
            "out" => e.exit = true,
            "L" => e.link = 1,
            "LL" => e.link = 2,
            "T" => e.trap = true,
            t if t.len() >= 2 && (t.starts_with('M') || t.starts_with('R')) => {
                let n: u8 = t[1..]
                    .parse()
                    .map_err(|_| format!("bad strength in edge code `{t}`"))?;
                if n == 0 {
                    return Err(format!("strength 0 in edge code `{t}`"));
                }
                if t.starts_with('M') {
                    e.melee = n;
                } else {
                    e.ranged = n;
                }
            }
            t => return Err(format!("unknown edge code `{t}`")),
        }
    }
    if e.entry && e.exit {
        return Err("an edge cannot be both entry and exit".into());
    }
    Ok(e)
}

/// Read one army file.
///
/// # Errors
/// The first problem found, with its file and line.
pub fn parse_army(file: &str, text: &str) -> Result<Army, DataError> {
    let err = |line: usize, message: String| DataError {
        file: file.to_string(),
        line,
        message,
    };
    let raw: RawArmy = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(1);
        err(line, e.message().to_string())
    })?;
    if raw.army.is_empty() {
        return Err(err(1, "empty army id".into()));
    }
    let mut kinds: Vec<Kind> = Vec::new();
    for spanned in &raw.tile {
        let line = line_of(text, spanned.span().start);
        let t = spanned.get_ref();
        if t.kind.is_empty()
            || !t
                .kind
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
        {
            return Err(err(line, format!("bad kind id `{}`", t.kind)));
        }
        if kinds.iter().any(|k| k.id == t.kind) {
            return Err(err(line, format!("kind `{}` listed twice", t.kind)));
        }
        if t.count == 0 {
            return Err(err(line, format!("`{}`: count 0", t.kind)));
        }
        let mut edges = [Edge::default(); 6];
        match (&t.edges, t.class) {
            (Some(_), Class::Instant) => {
                return Err(err(
                    line,
                    format!("`{}`: an instant tile has no edges", t.kind),
                ))
            }
            (None, Class::Instant) => {}
            (None, _) => return Err(err(line, format!("`{}`: edges missing", t.kind))),
            (Some(list), _) => {
                if list.len() != 6 {
                    return Err(err(
                        line,
                        format!("`{}`: {} edges, need 6", t.kind, list.len()),
                    ));
                }
                for (i, code) in list.iter().enumerate() {
                    edges[i] = parse_edge(code)
                        .map_err(|m| err(line, format!("`{}` edge {i}: {m}", t.kind)))?;
                }
            }
        }
        let board = t.class != Class::Instant;
        if board && t.hp == 0 {
            return Err(err(
                line,
                format!("`{}`: a board tile needs hp ≥ 1", t.kind),
            ));
        }
        if !board && (t.hp != 0 || !t.init.is_empty()) {
            return Err(err(
                line,
                format!("`{}`: an instant has no hp or init", t.kind),
            ));
        }
        if board != t.effect.is_none() {
            return Err(err(
                line,
                format!(
                    "`{}`: an effect is for instant tiles only, and they need one",
                    t.kind
                ),
            ));
        }
        let has_links = edges.iter().any(|e| e.link > 0);
        if has_links && t.bonus.is_empty() {
            return Err(err(line, format!("`{}`: links but no bonus", t.kind)));
        }
        if !t.bonus.is_empty() && !has_links {
            return Err(err(line, format!("`{}`: a bonus but no link", t.kind)));
        }
        if !t.bonus.is_empty() && !matches!(t.class, Class::Module | Class::Hq) {
            return Err(err(
                line,
                format!("`{}`: only modules and HQs link", t.kind),
            ));
        }
        let entries = edges.iter().filter(|e| e.entry).count();
        let exits = edges.iter().filter(|e| e.exit).count();
        if (entries == 0) != (exits == 0) {
            return Err(err(
                line,
                format!("`{}`: a redirector needs entries and exits", t.kind),
            ));
        }
        let attacks = edges.iter().any(|e| e.melee > 0 || e.ranged > 0 || e.gauss);
        if attacks && t.init.is_empty() {
            return Err(err(
                line,
                format!("`{}`: attacks need an initiative", t.kind),
            ));
        }
        if t.class == Class::Hq && t.count != 1 {
            return Err(err(line, format!("`{}`: one HQ per army", t.kind)));
        }
        let mut init = t.init.clone();
        init.sort_unstable_by(|a, b| b.cmp(a));
        kinds.push(Kind {
            id: t.kind.clone(),
            name: t.name.clone(),
            count: t.count,
            class: t.class,
            init,
            hp: t.hp,
            edges,
            bonus: t.bonus.clone(),
            ability: t.ability,
            effect: t.effect,
        });
    }
    let hqs = kinds.iter().filter(|k| k.class == Class::Hq).count();
    if hqs != 1 {
        return Err(err(1, format!("{hqs} HQ kinds, need exactly 1")));
    }
    let total: usize = kinds.iter().map(|k| usize::from(k.count)).sum();
    if total != TILES_PER_ARMY {
        return Err(err(
            1,
            format!("{total} tiles, an army has {TILES_PER_ARMY} (NSH-TILE-1)"),
        ));
    }
    kinds.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(Army {
        id: raw.army,
        name: raw.name,
        kinds,
    })
}

/// Every embedded army, loaded once.
///
/// # Errors
/// An embedded file is broken (a test keeps this from shipping).
pub fn armies() -> Result<&'static [Army], &'static DataError> {
    static ARMIES: OnceLock<Result<Vec<Army>, DataError>> = OnceLock::new();
    ARMIES
        .get_or_init(|| FILES.iter().map(|(f, t)| parse_army(f, t)).collect())
        .as_ref()
        .map(Vec::as_slice)
}

/// The embedded army with this id.
pub fn army(id: &str) -> Option<&'static Army> {
    armies().ok()?.iter().find(|a| a.id == id)
}

/// Hash of the embedded data files (the content half of the rules
/// version).
pub fn content_hash() -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for (name, text) in FILES {
        for part in [name.as_bytes(), text.as_bytes()] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
    }
    hex16(&h.finalize())
}

/// Hex of the first 16 bytes.
pub(crate) fn hex16(digest: &[u8]) -> String {
    digest.iter().take(16).fold(String::new(), |mut s, b| {
        use fmt::Write as _;
        let _ = write!(s, "{b:02x}");
        s
    })
}
