//! Time on the wire: whole seconds and milliseconds since the Unix epoch, and their text form.

/// Seconds since the Unix epoch, UTC. Kept as an integer on the wire so postcard stays compact
/// and nothing depends on a date library's serde format.
pub type UnixSeconds = i64;

/// Milliseconds since the Unix epoch, UTC: for deadlines that seconds would round away.
pub type UnixMillis = i64;

/// `time` as [`UnixMillis`] (negative before 1970, saturating far from it). The caller reads
/// the clock: this crate does no I/O.
pub fn unix_millis(time: std::time::SystemTime) -> UnixMillis {
    match time.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_millis()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_millis()).map_or(i64::MIN, |ms| -ms),
    }
}

/// Format a timestamp as RFC 3339 (`2026-03-15T10:00:00Z`).
pub fn rfc3339(ts: UnixSeconds) -> String {
    chrono::DateTime::<chrono::Utc>::from_timestamp(ts, 0)
        .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_else(|| ts.to_string())
}
