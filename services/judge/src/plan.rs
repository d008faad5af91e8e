//! Which candidate pairs a run judges (docs/contracts.md §4, §5): valid pairs of two different agents with
//! `id_a < id_b`, highest score first, each pair once, at most `pair_cap` of them, in batches
//! of `batch_size`, at most `max_batches` batches; the rest is reported, not judged.
//!
//! Candidates are normalised (`id_a < id_b`, numerically when both ids are integers, the sides
//! swapped with them; a pair of one agent or of one id with itself refused), sorted by score (NaN
//! last), de-duplicated (the highest-scored copy kept), capped at `reconcile_pair_cap` (50,
//! clamped to 1-500) and cut into batches of 10, at most 5 batches; the rest is reported as over
//! the cap or deferred.

use std::cmp::Ordering;
use std::collections::HashSet;

use memval_proto::Pair;

/// docs/contracts.md §5: `reconcile_pair_cap` defaults to 50 and is clamped to 1-500.
pub const DEFAULT_PAIR_CAP: u32 = 50;
pub const MAX_PAIR_CAP: u32 = 500;
/// docs/contracts.md §4: 10 pairs per model call, 5 calls per run.
pub const DEFAULT_BATCH_SIZE: usize = 10;
pub const DEFAULT_MAX_BATCHES: usize = 5;

pub fn clamp_pair_cap(cap: i64) -> u32 {
    cap.clamp(1, i64::from(MAX_PAIR_CAP)) as u32
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub pair_cap: u32,
    pub batch_size: usize,
    pub max_batches: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { pair_cap: DEFAULT_PAIR_CAP, batch_size: DEFAULT_BATCH_SIZE, max_batches: DEFAULT_MAX_BATCHES }
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    pub batches: Vec<Vec<Pair>>,
    /// Beyond `pair_cap`: not judged this run.
    pub over_cap: Vec<Pair>,
    /// Within the cap but beyond `max_batches`: judged by a later run.
    pub deferred: Vec<Pair>,
    /// Pairs seen more than once (the highest-scored copy is kept).
    pub duplicates: usize,
}

/// Compare ids numerically when both are integers, as text otherwise.
fn id_order(a: &str, b: &str) -> Ordering {
    match (a.parse::<i64>(), b.parse::<i64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.cmp(b),
    }
}

/// Check a candidate and put its smaller id first (swapping the sides with it).
pub fn normalise(mut pair: Pair) -> Result<Pair, String> {
    pair.id_a = pair.id_a.trim().to_owned();
    pair.id_b = pair.id_b.trim().to_owned();
    if pair.id_a.is_empty() || pair.id_b.is_empty() {
        return Err("id_a and id_b must be non-empty".into());
    }
    if pair.agent_a.trim() == pair.agent_b.trim() {
        return Err(format!(
            "both memories are from agent {:?}; the judge compares memories of different agents",
            pair.agent_a
        ));
    }
    if pair.content_a.trim().is_empty() || pair.content_b.trim().is_empty() {
        return Err("content_a and content_b must be non-empty".into());
    }
    match id_order(&pair.id_a, &pair.id_b) {
        Ordering::Equal => Err(format!("id_a and id_b are the same memory ({})", pair.id_a)),
        Ordering::Less => Ok(pair),
        Ordering::Greater => {
            std::mem::swap(&mut pair.id_a, &mut pair.id_b);
            std::mem::swap(&mut pair.agent_a, &mut pair.agent_b);
            std::mem::swap(&mut pair.content_a, &mut pair.content_b);
            Ok(pair)
        }
    }
}

/// Sort (score descending, NaN last; ties keep input order), de-duplicate, cap and batch.
pub fn plan(mut pairs: Vec<Pair>, limits: Limits) -> Plan {
    pairs.sort_by(|a, b| match (a.score.is_nan(), b.score.is_nan()) {
        (false, false) => b.score.total_cmp(&a.score),
        (x, y) => x.cmp(&y),
    });
    let mut seen = HashSet::new();
    let mut duplicates = 0;
    pairs.retain(|p| {
        let fresh = seen.insert((p.id_a.clone(), p.id_b.clone()));
        duplicates += usize::from(!fresh);
        fresh
    });
    let cap = clamp_pair_cap(i64::from(limits.pair_cap)) as usize;
    let over_cap = if pairs.len() > cap { pairs.split_off(cap) } else { Vec::new() };
    let judged = limits.batch_size.max(1) * limits.max_batches.max(1);
    let deferred = if pairs.len() > judged { pairs.split_off(judged) } else { Vec::new() };
    let batches = pairs.chunks(limits.batch_size.max(1)).map(<[Pair]>::to_vec).collect();
    Plan { batches, over_cap, deferred, duplicates }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: &str, b: &str, score: f64) -> Pair {
        Pair {
            id_a: a.into(),
            agent_a: "x".into(),
            content_a: "a".into(),
            id_b: b.into(),
            agent_b: "y".into(),
            content_b: "b".into(),
            score,
            method: "keyword".into(),
        }
    }

    #[test]
    fn the_cap_is_clamped() {
        for (given, want) in [(0, 1), (-5, 1), (1, 1), (50, 50), (500, 500), (501, 500), (10_000, 500)] {
            assert_eq!(clamp_pair_cap(given), want, "{given}");
        }
    }

    #[test]
    fn candidates_are_normalised_or_refused() {
        let swapped = normalise(pair("34", "12", 0.5)).unwrap();
        assert_eq!((swapped.id_a.as_str(), swapped.agent_a.as_str(), swapped.content_a.as_str()), ("12", "y", "b"));
        assert_eq!(normalise(pair("9", "10", 0.5)).unwrap().id_a, "9", "ids compare as numbers");
        let mut same_agent = pair("1", "2", 0.5);
        same_agent.agent_b = "x".into();
        assert!(normalise(same_agent).unwrap_err().contains("different agents"));
        assert!(normalise(pair("7", "7", 0.5)).unwrap_err().contains("same memory"));
    }

    #[test]
    fn best_pairs_first_each_once_capped_then_batched() {
        let mut pairs: Vec<Pair> =
            (0..30).map(|i| pair(&i.to_string(), &(100 + i).to_string(), f64::from(i) / 100.0)).collect();
        pairs.push(pair("29", "129", 0.01)); // a lower-scored duplicate of the best pair
        pairs.push(pair("x", "y", f64::NAN));
        let plan = plan(pairs, Limits { pair_cap: 25, batch_size: 10, max_batches: 2 });
        assert_eq!(plan.duplicates, 1);
        assert_eq!(plan.batches.iter().map(Vec::len).collect::<Vec<_>>(), vec![10, 10]);
        assert_eq!(plan.batches[0][0].id_a, "29");
        assert_eq!(plan.batches[0][0].score, 0.29);
        assert_eq!(plan.deferred.len(), 5);
        assert_eq!(plan.over_cap.len(), 6);
        assert_eq!(plan.over_cap.last().unwrap().id_a, "x", "NaN scores sort last");
    }
}
