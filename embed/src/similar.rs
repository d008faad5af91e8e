//! The most similar pairs among unit vectors, for the embed method of `memval pairs`.
//!
//! Every pair's cosine is needed to know the top ones exactly, so the work is the upper
//! triangle of the Gram matrix: it is computed as blocked matrix products (rows in blocks of
//! [`ROW_BLOCK`], columns in tiles of [`COL_BLOCK`], candle's multi-threaded gemm), so memory
//! stays at one tile (about 8 MB) whatever the count, and only pairs of different groups
//! (agents) that pass the threshold, and the running `cap`-th best score once the cap is
//! full, reach the top-k heap. Each kept pair's score is recomputed as an f64 dot product, so
//! it does not depend on how the blocks fell. [`all_pairs`] is the plain one-pair-at-a-time
//! reference the search is tested against.
//!
//! This module never reads or writes anything: vectors in, index pairs out.
//!
//! Unit tests compare the blocked search with [`all_pairs`] on odd block sizes. It is still
//! O(n²·d) work: fine for sampled runs (200 memories per agent) and tens of thousands of
//! memories, not for a 100k all-pairs run (`bench/embed` measures it).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use candle_core::{Device, Tensor};

use crate::EmbedError;

/// Rows of the Gram matrix per block.
pub const ROW_BLOCK: usize = 256;
/// Columns per tile: ROW_BLOCK x COL_BLOCK f32 scores are in memory at once.
pub const COL_BLOCK: usize = 8192;
/// A gemm score this far below the threshold is still rescored exactly (f32 rounding).
const SLACK: f32 = 1e-4;

/// A pair of vector indices (`a < b`) and their cosine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found {
    pub a: u32,
    pub b: u32,
    pub score: f64,
}

impl Found {
    /// `Less` means better: higher score, then lower indices.
    fn rank(&self, other: &Found) -> Ordering {
        other.score.total_cmp(&self.score).then(self.a.cmp(&other.a)).then(self.b.cmp(&other.b))
    }
}
impl Eq for Found {}
impl PartialOrd for Found {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
/// Max-heap order = worst on top, the pair to evict.
impl Ord for Found {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank(other)
    }
}

/// What [`top_pairs`] found.
#[derive(Debug, Clone, Default)]
pub struct Search {
    /// Best first (score descending, then `a`, then `b`).
    pub pairs: Vec<Found>,
    /// The cap was reached: more pairs may pass the threshold, none scoring above the last.
    pub capped: bool,
    /// Pairs of different groups at or above the threshold that `skip` removed.
    pub skipped: usize,
    /// Cosines computed (n(n-1)/2 for n vectors: the search is exact, not approximate).
    pub compared: u64,
}

fn exact(x: &[f32], y: &[f32]) -> f64 {
    x.iter().zip(y).map(|(a, b)| f64::from(*a) * f64::from(*b)).sum()
}

/// The pairs of `vectors` (unit length, all the same size) from different `groups` whose
/// cosine is at least `threshold`, best first, at most `cap` of them (`None`: all), leaving
/// out those `skip(a, b)` says are settled. `progress` gets (rows done, rows).
pub fn top_pairs(
    vectors: &[Vec<f32>],
    groups: &[u32],
    threshold: f64,
    cap: Option<usize>,
    skip: impl Fn(u32, u32) -> bool,
    progress: impl FnMut(usize, usize),
) -> Result<Search, EmbedError> {
    top_pairs_blocked(vectors, groups, threshold, cap, skip, progress, ROW_BLOCK, COL_BLOCK)
}

#[allow(clippy::too_many_arguments)]
fn top_pairs_blocked(
    vectors: &[Vec<f32>],
    groups: &[u32],
    threshold: f64,
    cap: Option<usize>,
    skip: impl Fn(u32, u32) -> bool,
    mut progress: impl FnMut(usize, usize),
    row_block: usize,
    col_block: usize,
) -> Result<Search, EmbedError> {
    assert_eq!(vectors.len(), groups.len(), "one group per vector");
    let n = vectors.len();
    let mut search = Search::default();
    if n < 2 {
        return Ok(search);
    }
    let dim = vectors[0].len();
    let flat: Vec<f32> = vectors.iter().flat_map(|v| v.iter().copied()).collect();
    let matrix = Tensor::from_vec(flat, (n, dim), &Device::Cpu)?;
    let cap = cap.map(|c| c.max(1));
    let mut top: BinaryHeap<Found> = BinaryHeap::new();
    let mut all: Vec<Found> = Vec::new();
    let mut floor = threshold;
    for r0 in (0..n).step_by(row_block) {
        let r1 = (r0 + row_block).min(n);
        let rows = matrix.narrow(0, r0, r1 - r0)?;
        // Columns from r0 on: the upper triangle (and the block's own diagonal square).
        for c0 in (r0..n).step_by(col_block) {
            let c1 = (c0 + col_block).min(n);
            let cols = matrix.narrow(0, c0, c1 - c0)?;
            let scores = rows.matmul(&cols.t()?)?.to_vec2::<f32>()?;
            for (di, row) in scores.iter().enumerate() {
                let a = r0 + di;
                let start = (a + 1).max(c0);
                search.compared += c1.saturating_sub(start) as u64;
                for b in start..c1 {
                    let s = row[b - c0];
                    if f64::from(s) < floor - f64::from(SLACK) || groups[a] == groups[b] {
                        continue;
                    }
                    let score = exact(&vectors[a], &vectors[b]);
                    if score < floor {
                        continue;
                    }
                    if skip(a as u32, b as u32) {
                        search.skipped += 1;
                        continue;
                    }
                    let f = Found { a: a as u32, b: b as u32, score };
                    match cap {
                        None => all.push(f),
                        Some(k) => {
                            if top.len() < k {
                                top.push(f);
                            } else if top.peek().is_some_and(|worst| f < *worst) {
                                top.pop();
                                top.push(f);
                            }
                            if top.len() >= k {
                                // Equal scores still compete on indices, so the floor is the
                                // worst kept score itself, not just above it.
                                floor = top.peek().map_or(threshold, |w| w.score.max(threshold));
                            }
                        }
                    }
                }
            }
        }
        progress(r1, n);
    }
    search.capped = cap.is_some_and(|k| top.len() >= k);
    let mut pairs = if cap.is_some() { top.into_vec() } else { all };
    pairs.sort();
    search.pairs = pairs;
    Ok(search)
}

/// Every pair one at a time (quadratic, no blocks, no cap): the reference [`top_pairs`] is
/// checked against.
pub fn all_pairs(vectors: &[Vec<f32>], groups: &[u32], threshold: f64) -> Vec<Found> {
    let mut found = Vec::new();
    for a in 0..vectors.len() {
        for b in a + 1..vectors.len() {
            if groups[a] == groups[b] {
                continue;
            }
            let score = exact(&vectors[a], &vectors[b]);
            if score >= threshold {
                found.push(Found { a: a as u32, b: b as u32, score });
            }
        }
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic unit vectors with some near-duplicates, so many pairs pass 0.55.
    fn vectors(n: usize, dim: usize) -> (Vec<Vec<f32>>, Vec<u32>) {
        let mut state = 0x2545F4914F6CDD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 2000) as f32 / 1000.0 - 1.0
        };
        let bases: Vec<Vec<f32>> = (0..5).map(|_| (0..dim).map(|_| next()).collect()).collect();
        let mut out = Vec::new();
        for i in 0..n {
            let v: Vec<f32> = bases[i % 5].iter().map(|x| x + 0.9 * next()).collect();
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            out.push(v.into_iter().map(|x| x / norm).collect());
        }
        let groups = (0..n as u32).map(|i| i % 7).collect();
        (out, groups)
    }

    #[test]
    fn blocked_search_equals_all_pairs_without_cap() {
        let (v, g) = vectors(150, 24);
        let reference = all_pairs(&v, &g, 0.55);
        assert!(reference.len() > 100, "the data must have pairs to find: {}", reference.len());
        // Blocks that do not divide the count, so edges and diagonal squares are exercised.
        let got = top_pairs_blocked(&v, &g, 0.55, None, |_, _| false, |_, _| {}, 17, 40).unwrap();
        assert_eq!(got.pairs, reference);
        assert_eq!(got.compared, 150 * 149 / 2);
        assert!(!got.capped);
    }

    #[test]
    fn capped_search_is_the_head_of_all_pairs() {
        let (v, g) = vectors(150, 24);
        let reference = all_pairs(&v, &g, 0.55);
        for cap in [1, 10, 77] {
            let got = top_pairs_blocked(&v, &g, 0.55, Some(cap), |_, _| false, |_, _| {}, 13, 29).unwrap();
            assert_eq!(got.pairs, reference[..cap], "cap {cap}");
            assert!(got.capped);
        }
    }

    #[test]
    fn same_group_pairs_are_never_raised_and_skipped_ones_are_counted() {
        let (v, g) = vectors(60, 16);
        let got = top_pairs(&v, &g, 0.55, None, |a, b| (a + b) % 2 == 0, |_, _| {}).unwrap();
        assert!(got.pairs.iter().all(|f| g[f.a as usize] != g[f.b as usize] && (f.a + f.b) % 2 == 1));
        let reference = all_pairs(&v, &g, 0.55);
        assert_eq!(got.pairs.len() + got.skipped, reference.len());
        assert!(got.skipped > 0);
    }

    #[test]
    fn threshold_is_inclusive_and_scores_are_exact() {
        // cos = 0.6 exactly in f64 terms of these f32s' products (0.6 * 1 + 0.8 * 0).
        let v = vec![vec![1.0f32, 0.0], vec![0.6, 0.8], vec![0.0, 1.0]];
        let got = top_pairs(&v, &[0, 1, 2], f64::from(0.6f32), None, |_, _| false, |_, _| {}).unwrap();
        let pairs: Vec<(u32, u32)> = got.pairs.iter().map(|f| (f.a, f.b)).collect();
        assert_eq!(pairs, vec![(1, 2), (0, 1)]);
        assert_eq!(got.pairs[1].score, f64::from(0.6f32));
    }

    #[test]
    fn fewer_than_two_vectors_is_no_pair() {
        assert!(top_pairs(&[vec![1.0]], &[0], 0.5, None, |_, _| false, |_, _| {}).unwrap().pairs.is_empty());
    }
}
