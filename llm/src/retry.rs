//! How long to wait before the next attempt.

use std::time::Duration;

/// The longest `Retry-After` honoured; a server asking for more is treated as down for this run.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(300);

/// The wait a server asks for: `retry-after-ms` (milliseconds, OpenAI), else `Retry-After` as
/// seconds or as an HTTP date. `now` is the current Unix time in seconds.
pub fn parse_retry_after(retry_after: Option<&str>, retry_after_ms: Option<&str>, now: i64) -> Option<Duration> {
    if let Some(ms) = retry_after_ms.and_then(|v| v.trim().parse::<f64>().ok()).filter(|v| v.is_finite() && *v >= 0.0) {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    let value = retry_after?.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(1e6)));
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?.timestamp();
    Some(Duration::from_secs(at.saturating_sub(now).max(0) as u64))
}

/// Exponential backoff with "equal jitter": half the exponential delay, plus a random part up
/// to the other half, so clients that failed together do not retry together. A `Retry-After`
/// is a floor, with up to 10% jitter on top.
pub fn backoff(attempt: u32, base: Duration, max: Duration, retry_after: Option<Duration>) -> Duration {
    let exp = base.saturating_mul(2u32.saturating_pow(attempt.saturating_sub(1).min(20))).min(max);
    let half = exp / 2;
    let jittered = half + half.mul_f64(fastrand::f64());
    match retry_after {
        Some(asked) => asked.max(jittered) + asked.mul_f64(0.1 * fastrand::f64()),
        None => jittered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_forms() {
        let now = 1_445_412_480; // Wed, 21 Oct 2015 07:28:00 GMT
        let cases: [(Option<&str>, Option<&str>, Option<Duration>); 7] = [
            (Some("2"), None, Some(Duration::from_secs(2))),
            (Some(" 1.5 "), None, Some(Duration::from_millis(1500))),
            (Some("Wed, 21 Oct 2015 07:28:30 GMT"), None, Some(Duration::from_secs(30))),
            (Some("Wed, 21 Oct 2015 07:27:00 GMT"), None, Some(Duration::ZERO)),
            (Some("soon"), None, None),
            (Some("-3"), None, None),
            (Some("9"), Some("250"), Some(Duration::from_millis(250))),
        ];
        for (header, ms, want) in cases {
            assert_eq!(parse_retry_after(header, ms, now), want, "{header:?} {ms:?}");
        }
    }

    #[test]
    fn backoff_doubles_within_jitter_and_honours_retry_after() {
        let base = Duration::from_millis(100);
        let max = Duration::from_secs(2);
        for attempt in 1..8 {
            let exp = (base * 2u32.pow(attempt - 1)).min(max);
            for _ in 0..50 {
                let d = backoff(attempt, base, max, None);
                assert!(d >= exp / 2 && d <= exp, "attempt {attempt}: {d:?} not in [{:?}, {exp:?}]", exp / 2);
            }
        }
        for _ in 0..50 {
            let d = backoff(1, base, max, Some(Duration::from_secs(3)));
            assert!(d >= Duration::from_secs(3) && d <= Duration::from_millis(3300), "{d:?}");
        }
    }
}
