//! Corpora for the candidate-pair benchmark whose score distribution is chosen
//! (`pairs_tail`): memories of 50 agents drawn from a Zipf vocabulary, with pairs planted
//! across agents at known Jaccard similarities.
//!
//! - [`Dist::Planted`]: 500 planted triples (one memory retold by two other agents, each
//!   retelling keeping 60-100% of the words), 1,500 cross-agent pairs scoring well above the
//!   rest, so the top 1,000 all score high;
//! - [`Dist::Tail`]: 500 planted pairs (Jaccard 0.5-1.0) and `n / 20` pairs planted just
//!   above the 0.15 floor (Jaccard 0.15-0.19), so the 1,000th best pair scores near 0.19, as
//!   in a real store where many memories share a few words.
//!
//! The background memories are 12-30 draws from a Zipf vocabulary (exponent [`ZIPF_S`] over
//! [`VOCAB`] pseudo-words of 4+ letters; 20.7 distinct words per memory): the commonest word is
//! in 40% of memories, most words are rare, so nearly every pair of memories shares a word
//! and about 2 in a million pairs of the background alone reach 0.15. (A steeper exponent
//! makes the background itself the dense tail: at 1.0 one pair in 160 reaches 0.15, and the
//! 1,000th best of 100k memories scores far above the floor.) Deterministic for a given size
//! and seed; no memval code is used.

use std::collections::HashSet;

use crate::Rng;

/// Agents the memories belong to (memory `i` of the background is agent `i % AGENTS`).
pub const AGENTS: usize = 50;
/// Words in the vocabulary.
pub const VOCAB: usize = 100_000;
/// Zipf exponent of word frequencies.
pub const ZIPF_S: f64 = 0.8;

/// Which score distribution to plant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dist {
    Planted,
    Tail,
}

impl Dist {
    pub fn name(self) -> &'static str {
        match self {
            Dist::Planted => "planted-only",
            Dist::Tail => "dense tail",
        }
    }
}

/// A word for each vocabulary rank: 4+ lowercase letters; distinct but for 26 short ranks
/// that the padding spells like a longer one (99,974 words in all).
fn word(rank: usize) -> String {
    let mut s = String::from("zq");
    let mut r = rank;
    loop {
        s.push((b'a' + (r % 26) as u8) as char);
        r /= 26;
        if r == 0 {
            break;
        }
    }
    while s.len() < 4 {
        s.push('x');
    }
    s
}

/// Samples vocabulary ranks with probability proportional to `1 / (rank + 1)^s`.
struct Zipf {
    cdf: Vec<f64>,
}

impl Zipf {
    fn new(n: usize, s: f64) -> Zipf {
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = (0..n)
            .map(|r| {
                acc += 1.0 / ((r + 1) as f64).powf(s);
                acc
            })
            .collect();
        for c in &mut cdf {
            *c /= acc;
        }
        Zipf { cdf }
    }

    fn draw(&self, rng: &mut Rng) -> usize {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        self.cdf.partition_point(|&c| c < u).min(self.cdf.len() - 1)
    }
}

/// A memory's distinct word ranks, in draw order.
fn background(zipf: &Zipf, rng: &mut Rng) -> Vec<usize> {
    let mut seen = HashSet::new();
    (0..rng.range(12, 30)).map(|_| zipf.draw(rng)).filter(|w| seen.insert(*w)).collect()
}

/// A memory sharing `shared` words of `a` (chosen at random) and `size - shared` words `a`
/// does not have.
fn retelling(a: &[usize], shared: usize, size: usize, zipf: &Zipf, rng: &mut Rng) -> Vec<usize> {
    let mut keep = a.to_vec();
    rng.shuffle(&mut keep);
    keep.truncate(shared);
    let mut seen: HashSet<usize> = a.iter().copied().collect();
    while keep.len() < size {
        let w = zipf.draw(rng);
        if seen.insert(w) {
            keep.push(w);
        }
    }
    rng.shuffle(&mut keep);
    keep
}

/// `n` memories as `(agent, content)`, with the pairs of `dist` planted.
pub fn corpus(n: usize, dist: Dist, seed: u64) -> Vec<(String, String)> {
    let mut rng = Rng::derive(seed, dist.name());
    let zipf = Zipf::new(VOCAB, ZIPF_S);
    let mut sets: Vec<Vec<usize>> = (0..n).map(|_| background(&zipf, &mut rng)).collect();
    // Slots not yet used by a planted memory, shuffled: planted memories land anywhere.
    let mut free: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut free);
    // A free slot whose agent differs from every agent in `taken`.
    let mut slot = |taken: &[usize], rng: &mut Rng| loop {
        let s = free.pop().expect("corpus too small for its planted pairs");
        if taken.iter().all(|&t| t % AGENTS != s % AGENTS) {
            return s;
        }
        let k = rng.below(free.len() + 1);
        free.insert(k, s);
    };
    let high = |a: &[usize], rng: &mut Rng| {
        // Keep 60-100% of the words, and replace the rest: Jaccard (m - r) / (m + r).
        let m = a.len();
        let r = rng.below(m * 2 / 5 + 1);
        (m - r, m)
    };
    match dist {
        Dist::Planted => {
            for _ in 0..500 {
                let a = slot(&[], &mut rng);
                let b = slot(&[a], &mut rng);
                let c = slot(&[a, b], &mut rng);
                for x in [b, c] {
                    let (shared, size) = high(&sets[a], &mut rng);
                    sets[x] = retelling(&sets[a].clone(), shared, size, &zipf, &mut rng);
                }
            }
        }
        Dist::Tail => {
            for _ in 0..500 {
                let a = slot(&[], &mut rng);
                let b = slot(&[a], &mut rng);
                let (shared, size) = high(&sets[a], &mut rng);
                sets[b] = retelling(&sets[a].clone(), shared, size, &zipf, &mut rng);
            }
            let mut planted = 0;
            while planted < n / 20 {
                let a = slot(&[], &mut rng);
                let b = slot(&[a], &mut rng);
                let target = 0.15 + 0.04 * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let m = sets[a].len();
                // Sizes near `a`'s, and the fewest shared words reaching the target.
                let size = rng.range(m.saturating_sub(4).max(6), m + 4);
                let shared = ((target * (m + size) as f64) / (1.0 + target)).ceil() as usize;
                if shared > m.min(size) {
                    continue;
                }
                sets[b] = retelling(&sets[a].clone(), shared, size, &zipf, &mut rng);
                planted += 1;
            }
        }
    }
    sets.iter()
        .enumerate()
        .map(|(i, words)| {
            let text: Vec<String> = words.iter().map(|&w| word(w)).collect();
            (format!("agent-{:02}", i % AGENTS), text.join(" "))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_long_enough_and_nearly_all_distinct() {
        // The padding makes 26 short spellings twice (rank 0, "zqax", is also rank 598): the
        // numbers in BENCHMARKS.md were measured with these words, so they stay.
        let words: HashSet<String> = (0..VOCAB).map(word).collect();
        assert_eq!(words.len(), VOCAB - 26);
        assert!(words.iter().all(|w| w.len() >= 4 && w.chars().all(|c| c.is_ascii_lowercase())));
    }

    #[test]
    fn corpora_are_deterministic_and_planted_across_agents() {
        for dist in [Dist::Planted, Dist::Tail] {
            let a = corpus(4000, dist, 7);
            assert_eq!(a, corpus(4000, dist, 7));
            assert_eq!(a.len(), 4000);
        }
    }
}
