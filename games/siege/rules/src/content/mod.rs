//! Game content as data: tiles, layouts, missions and the edition tables,
//! loaded from text files and validated before any game starts.
//!
//! The files are compiled in with `include_str!`, so the binary needs no
//! data directory; [`Content::load_dir`] reads replacements from disk.

pub mod board;
pub mod classic_tables;
pub mod error;
pub mod ids;
pub mod layout;
pub mod missions;
pub mod tables;
pub mod tables_loader;
pub mod tiles;

pub use classic_tables::ClassicTables;
pub use error::ContentError;
pub use ids::{AttackType, Corporation, CreatureKind, Edition, Specialty};
pub use missions::MissionDef;
pub use tables::CeTables;
pub use tiles::TileDef;

use std::path::Path;
use std::sync::OnceLock;

/// Every content file compiled into the crate, as `(name, text)`.
/// Names are relative to the crate's `data/` directory.
const EMBEDDED: &[(&str, &str)] = &[
    ("tiles/ce.tiles", include_str!("../../data/tiles/ce.tiles")),
    (
        "tiles/classic.tiles",
        include_str!("../../data/tiles/classic.tiles"),
    ),
    (
        "missions/ce.missions",
        include_str!("../../data/missions/ce.missions"),
    ),
    ("ce/dice.toml", include_str!("../../data/ce/dice.toml")),
    ("ce/ranks.toml", include_str!("../../data/ce/ranks.toml")),
    (
        "ce/corporations.toml",
        include_str!("../../data/ce/corporations.toml"),
    ),
    (
        "ce/weapons.toml",
        include_str!("../../data/ce/weapons.toml"),
    ),
    (
        "ce/equipment.toml",
        include_str!("../../data/ce/equipment.toml"),
    ),
    (
        "ce/creatures.toml",
        include_str!("../../data/ce/creatures.toml"),
    ),
    (
        "ce/terrain.toml",
        include_str!("../../data/ce/terrain.toml"),
    ),
    (
        "ce/force_cards.toml",
        include_str!("../../data/ce/force_cards.toml"),
    ),
    ("ce/events.toml", include_str!("../../data/ce/events.toml")),
    (
        "ce/dt_cards.toml",
        include_str!("../../data/ce/dt_cards.toml"),
    ),
    (
        "ce/door_cards.toml",
        include_str!("../../data/ce/door_cards.toml"),
    ),
    (
        "ce/secondary.toml",
        include_str!("../../data/ce/secondary.toml"),
    ),
    (
        "classic/dice.toml",
        include_str!("../../data/classic/dice.toml"),
    ),
    (
        "classic/ranks.toml",
        include_str!("../../data/classic/ranks.toml"),
    ),
    (
        "classic/corporations.toml",
        include_str!("../../data/classic/corporations.toml"),
    ),
    (
        "classic/weapons.toml",
        include_str!("../../data/classic/weapons.toml"),
    ),
    (
        "classic/equipment.toml",
        include_str!("../../data/classic/equipment.toml"),
    ),
    (
        "classic/creatures.toml",
        include_str!("../../data/classic/creatures.toml"),
    ),
    (
        "classic/terrain.toml",
        include_str!("../../data/classic/terrain.toml"),
    ),
    (
        "classic/force_cards.toml",
        include_str!("../../data/classic/force_cards.toml"),
    ),
    (
        "classic/events.toml",
        include_str!("../../data/classic/events.toml"),
    ),
    (
        "classic/dt_cards.toml",
        include_str!("../../data/classic/dt_cards.toml"),
    ),
    (
        "classic/secondary.toml",
        include_str!("../../data/classic/secondary.toml"),
    ),
    (
        "missions/classic.missions",
        include_str!("../../data/missions/classic.missions"),
    ),
];

/// All content of both editions, validated.
///
/// Serialize only: content comes from its files through the loaders, which
/// validate it and index its ids ([`tables::ItemIndex`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Content {
    /// CE tiles 1..=16.
    pub ce_tiles: Vec<TileDef>,
    /// Classic tiles 1..=9.
    pub classic_tiles: Vec<TileDef>,
    /// Every mission, both editions.
    pub missions: Vec<MissionDef>,
    /// The CE tables.
    pub ce: CeTables,
    /// The classic (1993) tables.
    pub classic: ClassicTables,
}

impl Content {
    /// The content compiled into the crate. Loaded once; the tests prove
    /// it loads, so an error here is a build defect, reported as such.
    ///
    /// # Errors
    /// The first problem in the embedded files.
    pub fn embedded() -> Result<&'static Content, ContentError> {
        static CONTENT: OnceLock<Result<Content, ContentError>> = OnceLock::new();
        CONTENT
            .get_or_init(|| Content::from_files(EMBEDDED))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// A stable hash of the content files compiled into the crate (hex,
    /// 128 bits of SHA-256 over every file's name and text, in the fixed
    /// order of the list). It changes exactly when a data file changes,
    /// so a stored game can tell whether it was made with other content
    /// (see [`crate::version`]).
    pub fn embedded_hash() -> &'static str {
        static HASH: OnceLock<String> = OnceLock::new();
        HASH.get_or_init(|| crate::version::files_hash(EMBEDDED))
    }

    /// Load replacement content from a directory laid out like `data/`.
    ///
    /// # Errors
    /// A missing file, or the first problem in one, with its name and line.
    pub fn load_dir(dir: &Path) -> Result<Content, ContentError> {
        let mut texts = Vec::new();
        for (name, _) in EMBEDDED {
            let text = std::fs::read_to_string(dir.join(name))
                .map_err(|e| ContentError::new(*name, 0, format!("cannot read: {e}")))?;
            texts.push((*name, text));
        }
        let files: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (*n, t.as_str())).collect();
        Content::from_files(&files)
    }

    /// The data files compiled into the binary, as (name, text).
    pub fn embedded_files() -> &'static [(&'static str, &'static str)] {
        EMBEDDED
    }

    /// Parse and validate a full set of files (names as in `EMBEDDED`).
    ///
    /// # Errors
    /// The first problem, with file and line.
    pub fn from_files(files: &[(&str, &str)]) -> Result<Content, ContentError> {
        let get = |name: &str| {
            files
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| *t)
                .ok_or_else(|| ContentError::new(name, 0, "file missing"))
        };
        let ce_tiles = tiles::parse_tiles("tiles/ce.tiles", get("tiles/ce.tiles")?)?;
        let classic_tiles = tiles::parse_tiles("tiles/classic.tiles", get("tiles/classic.tiles")?)?;
        let in_dir = |dir: &str| -> Vec<(&str, &str)> {
            files
                .iter()
                .filter(|(n, _)| n.strip_prefix(dir).is_some_and(|r| r.starts_with('/')))
                .copied()
                .collect()
        };
        let ce = tables_loader::load_ce_tables(&in_dir("ce"))?;
        let classic = tables_loader::load_classic_tables(&in_dir("classic"))?;
        let mut missions = Vec::new();
        for file in ["missions/ce.missions", "missions/classic.missions"] {
            for m in missions::parse_missions(file, get(file)?)? {
                let tables = match m.edition {
                    Edition::Ce => &ce,
                    Edition::Classic => &classic.base,
                };
                check_mission_figures(&m, tables)
                    .map_err(|e| ContentError::new(file, m.line, e))?;
                if missions.iter().any(|o: &MissionDef| o.id == m.id) {
                    return Err(ContentError::new(
                        file,
                        m.line,
                        format!("mission id `{}` is already used", m.id),
                    ));
                }
                missions.push(m);
            }
        }
        Ok(Content {
            ce_tiles,
            classic_tiles,
            missions,
            ce,
            classic,
        })
    }

    /// A mission by id (`ce-c1m1`).
    pub fn mission(&self, id: &str) -> Option<&MissionDef> {
        self.missions.iter().find(|m| m.id == id)
    }

    /// The tile set of an edition.
    pub fn tiles(&self, edition: Edition) -> &[TileDef] {
        match edition {
            Edition::Ce => &self.ce_tiles,
            Edition::Classic => &self.classic_tiles,
        }
    }
}

/// A mission's `FIGURE` and `POOL` lines against its edition's creature
/// table: every creature exists there, and the pool holds every `FIGURE`
/// figure of a kind (core DL-1).
fn check_mission_figures(m: &MissionDef, tables: &CeTables) -> Result<(), String> {
    let kinds = m
        .figures
        .iter()
        .map(|f| f.kind)
        .chain(m.pool.iter().map(|p| p.0));
    for kind in kinds {
        let def = tables.creature(kind).ok_or_else(|| {
            format!(
                "mission {}: the {:?} tables have no creature `{kind}`",
                m.id, m.edition
            )
        })?;
        let placed = m.figures.iter().filter(|f| f.kind == kind).count();
        if usize::from(m.pool_size(kind, def.pool)) < placed {
            return Err(format!(
                "mission {}: {placed} FIGURE {kind} but the pool holds {} (core DL-1)",
                m.id,
                m.pool_size(kind, def.pool)
            ));
        }
    }
    Ok(())
}
