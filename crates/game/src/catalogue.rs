//! How a game is listed in a server's catalogue (`GET /api/catalogue`):
//! its id, name, rules and options with their ranges. The catalogue
//! itself — the games a server plays, without their types — is the
//! server's (`citadel_server::table::Games`).

use crate::RulesVersion;
use serde::Serialize;

/// One option of a game, as a lobby shows it and the game checks it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OptionSpec {
    /// Its key in the options' JSON.
    pub name: String,
    /// What players read.
    pub label: String,
    /// Its values.
    #[serde(flatten)]
    pub kind: OptionKind,
    /// A note on the range (what it depends on), or empty.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional, as = "Option<String>"))]
    pub note: String,
}

/// The values an option takes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OptionKind {
    /// A whole number in `min..=max`.
    Integer {
        /// Smallest.
        min: i64,
        /// Largest.
        max: i64,
        /// When left out; `None`: the option must be given.
        default: Option<i64>,
    },
    /// One of a list of values (each a JSON value of the options).
    Choice {
        /// The values, in the order a lobby lists them.
        choices: Vec<OptionChoice>,
        /// The value when left out; `null`: the option must be given.
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        default: serde_json::Value,
    },
}

/// One value of a choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OptionChoice {
    /// The value, as the options' JSON holds it.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub value: serde_json::Value,
    /// What players read.
    pub name: String,
}

/// A game of the catalogue, as `GET /api/catalogue` lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CatalogueGame {
    /// Catalogue id: what the store records and a table names.
    pub id: String,
    /// What players read.
    pub name: String,
    /// The rules this server plays it by.
    pub rules: RulesVersion,
    /// Its options.
    pub options: Vec<OptionSpec>,
    /// It has campaigns (`POST /api/campaigns` with its `kind`).
    #[serde(default)]
    pub campaigns: bool,
}
