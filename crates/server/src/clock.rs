//! Wall-clock time for records (created, started, finished, last active).
//! Game logic never reads it: sessions get `now` from their task.

/// Milliseconds since the Unix epoch.
pub fn wall_clock_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
