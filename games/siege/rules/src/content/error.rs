//! Content loading errors: always name the file and the line.

use std::fmt;

/// A content file failed to load or validate.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, thiserror::Error)]
pub struct ContentError {
    /// File name as given to the loader (e.g. `data/tiles/ce.tiles`).
    pub file: String,
    /// 1-based line; 0 when the problem is not tied to one line.
    pub line: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl ContentError {
    /// An error at `file:line`.
    pub fn new(file: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        ContentError {
            file: file.into(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}
