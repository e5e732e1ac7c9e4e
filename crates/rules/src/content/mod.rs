//! Game content as data: tiles, layouts, missions and the edition tables,
//! loaded from text files and validated before any game starts.
//!
//! The files are compiled in with `include_str!`, so the binary needs no
//! data directory; [`Content::load_dir`] reads replacements from disk.

pub mod error;
pub mod ids;
pub mod layout;
pub mod missions;
pub mod tables;
pub mod tables_loader;
pub mod tiles;

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
];

/// All content of both editions, validated.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Content {
    /// CE tiles 1..=16.
    pub ce_tiles: Vec<TileDef>,
    /// Classic tiles 1..=9.
    pub classic_tiles: Vec<TileDef>,
    /// Every mission, both editions.
    pub missions: Vec<MissionDef>,
    /// The CE tables.
    pub ce: CeTables,
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
        let missions =
            missions::parse_missions("missions/ce.missions", get("missions/ce.missions")?)?;
        let tables: Vec<(&str, &str)> = files
            .iter()
            .filter(|(n, _)| n.starts_with("ce/"))
            .copied()
            .collect();
        let ce = tables_loader::load_ce_tables(&tables)?;
        Ok(Content {
            ce_tiles,
            classic_tiles,
            missions,
            ce,
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
