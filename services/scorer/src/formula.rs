//! docs/contracts.md §3: the composite score of a memory and its suggested action.

use memval_proto::{Action, ClaimResult, Outcome, UnixSeconds};

const DAY: i64 = 86_400;

/// Age modifier: 0 below 30 days, rising linearly to 5 at 180 days and beyond.
pub fn age_modifier(age_days: f64) -> f64 {
    if age_days < 30.0 {
        0.0
    } else if age_days >= 180.0 {
        5.0
    } else {
        5.0 * (age_days - 30.0) / 150.0
    }
}

/// Score from `(points, confidence)` of each checked claim. `None` when nothing was
/// checked: an unchecked claim is never counted as VALID, so it is not in the average.
pub fn score(verdicts: &[(u32, u8)], tier: u8, age_days: Option<f64>) -> Option<u8> {
    if verdicts.is_empty() {
        return None;
    }
    let weighted: f64 =
        verdicts.iter().map(|&(points, conf)| f64::from(points) * f64::from(conf.min(100)) / 100.0).sum();
    let raw = weighted / verdicts.len() as f64;
    let age_mod = age_days.map_or(0.0, age_modifier);
    let tier_mod = if tier == 2 { -5.0 } else { 0.0 };
    Some((raw + age_mod + tier_mod).floor().clamp(0.0, 100.0) as u8)
}

/// Age in days of a memory asserted at `asserted_at`, as of `now`. The timestamp is the
/// memory's own (untrusted): any `i64` gives an age, never an overflow.
pub fn age_days(asserted_at: Option<UnixSeconds>, now: UnixSeconds) -> Option<f64> {
    asserted_at.map(|t| (now.saturating_sub(t).max(0) as f64) / DAY as f64)
}

/// Score and action for a memory's claim results.
pub fn score_results(results: &[ClaimResult], tier: u8, age_days: Option<f64>) -> (Option<u8>, Option<Action>) {
    let verdicts: Vec<(u32, u8)> = results
        .iter()
        .filter_map(|r| match &r.outcome {
            Outcome::Checked { verdict, confidence, .. } => Some((verdict.points(), *confidence)),
            Outcome::NotChecked { .. } => None,
        })
        .collect();
    let s = score(&verdicts, tier, age_days);
    (s, s.map(Action::from_score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use memval_proto::Verdict::*;

    fn check(verdicts: &[(memval_proto::Verdict, u8)], tier: u8, age: Option<f64>, want: Option<u8>) {
        let v: Vec<(u32, u8)> = verdicts.iter().map(|(v, c)| (v.points(), *c)).collect();
        assert_eq!(score(&v, tier, age), want, "{verdicts:?} tier {tier} age {age:?}");
    }

    #[test]
    fn any_timestamp_gives_an_age() {
        assert_eq!(age_days(Some(i64::MIN), 1_764_000_000), Some(i64::MAX as f64 / DAY as f64));
        assert_eq!(age_days(Some(i64::MAX), 1_764_000_000), Some(0.0));
        assert_eq!(age_days(Some(1_764_000_000 - DAY), 1_764_000_000), Some(1.0));
    }

    #[test]
    fn formula_edge_cases() {
        check(&[], 0, None, None);
        check(&[(Valid, 100)], 0, None, Some(0));
        check(&[(Contradicted, 100)], 0, None, Some(40));
        check(&[(Stale, 100)], 0, None, Some(25));
        check(&[(Ambiguous, 100)], 0, None, Some(10));
        // Confidence weights the points: 25 * 0.5 = 12.5 → 12.
        check(&[(Stale, 50)], 0, None, Some(12));
        // The contract's own example (docs/contracts.md §3): 5 VALID + 1 STALE averages to ~4.
        check(&[(Valid, 100), (Valid, 100), (Valid, 100), (Valid, 100), (Valid, 100), (Stale, 100)], 0, None, Some(4));
        // Floor, not round: 40*0.99 = 39.6 → 39.
        check(&[(Contradicted, 99)], 0, None, Some(39));
        // Tier 2 takes 5 off and never goes below 0.
        check(&[(Stale, 100)], 2, None, Some(20));
        check(&[(Valid, 100)], 2, None, Some(0));
        check(&[(Ambiguous, 30)], 2, None, Some(0));
        // Age: nothing under 30 days, 5 at 180 and beyond, linear between.
        check(&[(Valid, 100)], 0, Some(29.9), Some(0));
        check(&[(Valid, 100)], 0, Some(30.0), Some(0));
        check(&[(Valid, 100)], 0, Some(105.0), Some(2));
        check(&[(Valid, 100)], 0, Some(180.0), Some(5));
        check(&[(Valid, 100)], 0, Some(4000.0), Some(5));
        check(&[(Contradicted, 100)], 0, Some(180.0), Some(45));
        // Confidence above 100 is clamped, not amplified.
        check(&[(Contradicted, 250)], 0, None, Some(40));
    }

    #[test]
    fn age_is_measured_in_days() {
        assert_eq!(age_days(Some(0), 86_400 * 45), Some(45.0));
        assert_eq!(age_days(Some(100), 50), Some(0.0));
        assert_eq!(age_days(None, 50), None);
    }
}
