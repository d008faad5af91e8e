//! Date parsing shared by every format. Everything becomes Unix seconds, UTC.

use chrono::{DateTime, NaiveDate, NaiveDateTime};
use memval_proto::UnixSeconds;

/// What a bad date error tells the user to write instead.
pub(crate) const DATE_FORMATS: &str = "use RFC 3339, YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or unix seconds";

/// Parses RFC 3339, `YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS` (SQLite's `CURRENT_TIMESTAMP`, also with
/// a `T` and fractional seconds) and unix seconds. Dates without a zone are taken as UTC, the
/// way SQLite writes them.
pub(crate) fn parse_date(text: &str) -> Option<UnixSeconds> {
    let s = text.trim();
    if s.is_empty() {
        return None;
    }
    if let Some(secs) = parse_unix(s) {
        return Some(secs);
    }
    if let Ok(dt) = DateTime::parse_from_rfc3339(s) {
        return Some(dt.timestamp());
    }
    // RFC 3339 with a space separator and a zone, as `git log --format=%ci` and some tools write.
    for fmt in ["%Y-%m-%d %H:%M:%S%.f%:z", "%Y-%m-%d %H:%M:%S%.f %z"] {
        if let Ok(dt) = DateTime::parse_from_str(s, fmt) {
            return Some(dt.timestamp());
        }
    }
    for fmt in ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M"] {
        if let Ok(dt) = NaiveDateTime::parse_from_str(s, fmt) {
            return Some(dt.and_utc().timestamp());
        }
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|dt| dt.and_utc().timestamp())
}

fn parse_unix(s: &str) -> Option<UnixSeconds> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A date held in a JSON value: a string in one of the [`parse_date`] forms or a number of
/// unix seconds. `Ok(None)` for null.
pub(crate) fn from_json(value: &serde_json::Value) -> Result<Option<UnixSeconds>, String> {
    use serde_json::Value;
    match value {
        Value::Null => Ok(None),
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.is_finite()).map(|f| f.floor() as i64))
            .map(Some)
            .ok_or_else(|| format!("{n} is not a date ({DATE_FORMATS})")),
        Value::String(s) if s.trim().is_empty() => Ok(None),
        Value::String(s) => parse_date(s).map(Some).ok_or_else(|| format!("{s:?} is not a date ({DATE_FORMATS})")),
        other => Err(format!("{other} is not a date ({DATE_FORMATS})")),
    }
}

/// A file name that starts with the day it was written (`2026-07-09-hil-design.md`,
/// `2024-03-01_meeting.md`): a dated record, a plan, a design, a meeting's notes or a post,
/// true of its day.
pub(crate) fn dated(stem: &str) -> bool {
    let b = stem.as_bytes();
    let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let dash = |i: usize| matches!(b.get(i), Some(b'-' | b'_'));
    digits(0..4) && dash(4) && digits(5..7) && dash(7) && digits(8..10) && (b.len() == 10 || dash(10))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<i64>) {
        assert_eq!(parse_date(input), expected, "input {input:?}");
    }

    #[test]
    fn accepted_forms() {
        // 2026-03-15T10:00:00Z
        let t = 1_773_568_800;
        check("2026-03-15T10:00:00Z", Some(t));
        check("2026-03-15T12:00:00+02:00", Some(t));
        check("2026-03-15 10:00:00", Some(t));
        check("2026-03-15T10:00:00", Some(t));
        check("2026-03-15T10:00:00.250", Some(t));
        check("2026-03-15 10:00:00 +0000", Some(t));
        check("2026-03-15 10:00", Some(t));
        check("2026-03-15", Some(t - 10 * 3600));
        check("1773568800", Some(t));
        check(" 2026-03-15 ", Some(t - 10 * 3600));
    }

    #[test]
    fn rejected_forms() {
        check("", None);
        check("yesterday", None);
        check("2026-13-01", None);
        check("15/03/2026", None);
        check("12abc", None);
    }

    #[test]
    fn json_values() {
        use serde_json::json;
        assert_eq!(from_json(&json!(null)), Ok(None));
        assert_eq!(from_json(&json!(1_773_568_800)), Ok(Some(1_773_568_800)));
        assert_eq!(from_json(&json!(1_773_568_800.9)), Ok(Some(1_773_568_800)));
        assert_eq!(from_json(&json!("2026-03-15")), Ok(Some(1_773_532_800)));
        assert!(from_json(&json!("soon")).is_err());
        assert!(from_json(&json!(true)).is_err());
    }
}
