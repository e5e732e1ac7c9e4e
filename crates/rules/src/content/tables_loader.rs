//! Loads `data/ce/*.toml` into [`super::tables::CeTables`] and validates it.

use super::error::ContentError;
use super::tables::CeTables;

/// The CE table files, as `(file name, text)`.
pub type TableFiles<'a> = [(&'a str, &'a str)];

/// Parse and validate every CE table.
///
/// # Errors
/// The first problem, naming its file and line.
pub fn load_ce_tables(_files: &TableFiles<'_>) -> Result<CeTables, ContentError> {
    unimplemented!("tables helper")
}
