//! The pair benchmarks' reference: every pair of memories of different agents with a
//! Jaccard of at least 0.15 (docs/contracts.md §5), by comparing each memory with every
//! other. The benchmark's own tokeniser and Jaccard, not memval's; run on all cores
//! (rayon), its result sorted, so the answer does not depend on the threads.

use std::collections::HashMap;

use rayon::prelude::*;

/// The keyword floor of docs/contracts.md §5.
pub const FLOOR: f64 = 0.15;

/// Lowercase alphanumeric runs of 4+ characters, sorted and distinct (docs/contracts.md §5).
pub fn tokens(text: &str) -> Vec<String> {
    let mut t: Vec<String> =
        text.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 4).map(str::to_lowercase).collect();
    t.sort();
    t.dedup();
    t
}

/// Every pair `(a, b, score)` (`a < b`, indices into `texts` of `(agent, content)`) of
/// different agents with Jaccard >= [`FLOOR`], best first (score, then `a`, then `b`).
pub fn exhaustive(texts: &[(String, String)]) -> Vec<(usize, usize, f64)> {
    let mut vocab: HashMap<String, u32> = HashMap::new();
    let sets: Vec<Vec<u32>> = texts
        .iter()
        .map(|(_, t)| {
            let mut ids: Vec<u32> = tokens(t)
                .into_iter()
                .map(|w| {
                    let n = vocab.len() as u32;
                    *vocab.entry(w).or_insert(n)
                })
                .collect();
            ids.sort_unstable();
            ids
        })
        .collect();
    let mut out: Vec<(usize, usize, f64)> = (0..sets.len())
        .into_par_iter()
        .flat_map_iter(|a| {
            let sets = &sets;
            (a + 1..sets.len()).filter_map(move |b| {
                if texts[a].0 == texts[b].0 {
                    return None;
                }
                let (x, y) = (&sets[a], &sets[b]);
                let (mut i, mut j, mut common) = (0, 0, 0usize);
                while i < x.len() && j < y.len() {
                    match x[i].cmp(&y[j]) {
                        std::cmp::Ordering::Less => i += 1,
                        std::cmp::Ordering::Greater => j += 1,
                        std::cmp::Ordering::Equal => {
                            common += 1;
                            i += 1;
                            j += 1;
                        }
                    }
                }
                let union = x.len() + y.len() - common;
                let score = if union == 0 { 0.0 } else { common as f64 / union as f64 };
                (score >= FLOOR).then_some((a, b, score))
            })
        })
        .collect();
    out.sort_by(|p, q| q.2.total_cmp(&p.2).then(p.0.cmp(&q.0)).then(p.1.cmp(&q.1)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_every_cross_agent_pair_at_or_above_the_floor() {
        let t = |a: &str, c: &str| (a.to_owned(), c.to_owned());
        let texts = [
            t("a", "alpha beta gamma delta"),
            t("b", "alpha beta gamma epsilon"),
            t("a", "alpha beta gamma delta"),
            t("c", "zeta theta iota kappa"),
        ];
        // 0 and 2 share an agent; 3 shares nothing.
        assert_eq!(exhaustive(&texts), [(0, 1, 0.6), (1, 2, 0.6)]);
        assert_eq!(tokens("Use the DB, use POSTGRES"), ["postgres"]);
    }
}
