//! The keyword method's exact top-k join (docs/contracts.md §5): the `cap` best pairs of
//! token sets of different agents by Jaccard, at or above a floor, each with its exact score,
//! ties broken on ids, in time that depends on the corpus far more than on where the
//! `cap`-th score falls.
//!
//! It is an all-pairs set-similarity join with prefix, size and positional filtering and
//! overlap counting (Bayardo et al.'s AllPairs, Xiao et al.'s PPJoin), run at a threshold that
//! only rises:
//!
//! - tokens are ranked rarest first and each list is sorted by rank; records are visited by
//!   size, smallest first, so every pair is met from its larger (or later) side;
//! - a pair with Jaccard >= t shares a token among the first `|x| - ⌈t·|x|⌉ + 1` tokens of
//!   the larger side `x` and among the first `|y| - α(y, y) + 1` tokens of `y` (α being the
//!   overlap Jaccard t needs), so only those prefixes are probed and indexed; a smaller side
//!   below `t·|x|` tokens cannot reach t (size filter);
//! - probing adds one to an overlap count per shared prefix token; a pair whose count plus
//!   the tokens left after the shared one cannot reach α is dropped (positional filter). A
//!   token at position `i` of `x` only probes records small enough for α to fit in the
//!   `|x| - i` tokens left, so the common tokens at the end of a prefix only meet small
//!   records. Tokens are in the same order in both lists, so every shared token up to the
//!   last one counted was counted, and verifying a survivor merges only what follows it,
//!   stopping as soon as α is out of reach;
//! - near a low threshold a prefix is most of a record, and the lists of the mid-frequency
//!   tokens at its end grow with the corpus: reading them is work that grows with its square.
//!   So the tokens from some rank on are frequent (`keyword_index`): a frequent token is
//!   indexed and probed only together with a second frequent token of the same 2-prefix
//!   (the first `|x| - α + 2` tokens, which hold the two smallest shared tokens of any pair
//!   sharing α), in a hash index of token pairs whose lists hold only the records with both.
//!   The split is where the estimated work (lists read against pairs made) is least. A
//!   record met only by a pair has nothing counted and is verified by a full merge. Records
//!   so small that one shared token can be enough index every prefix token singly instead;
//! - the threshold is the `cap`-th best score found so far (never below the floor). It starts
//!   from a seed: a first pass that only indexes and probes each record's two rarest tokens
//!   finds most strongly related pairs for little work, and the `cap`-th best of those is a
//!   score the final `cap`-th pair reaches. The full pass then indexes at that seed, so a dense
//!   tail of pairs just above the floor costs a join at the seed, not at the floor.
//!
//! Every filter keeps a pair whose score equals the threshold (it may still win on ids), and
//! every bound is computed with the same f64 arithmetic as the score, so the result is the
//! all-pairs scan's prefix exactly, whatever the order pairs are met in. That is what lets the
//! full pass run on every core: threads take records in chunks and share the threshold, and
//! the output is the same under any load (the count of verified pairs is the only figure that
//! depends on scheduling).
//!
//! Exact rather than MinHash LSH: near a threshold of 0.2, LSH needs hundreds of bands of two
//! or three hashes to find 95% of the pairs there, and since text shares common words, pairs of
//! unrelated memories (Jaccard 0.05-0.1) would become candidates by the hundred million.
//!
//! Pure: records in, scored pairs out; no I/O.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering as Atomic};

use crate::keyword_index::{frequent_from, Index, Lists, PairIndex};
use crate::tokens::jaccard_of;

/// A memory ready for the join: its token ranks, rarest first.
pub(crate) struct Record {
    /// Index of the memory in the caller's list.
    pub memory: usize,
    pub agent: u32,
    /// Position of the memory's id in id order: the tie-break between equal scores.
    pub id_rank: u32,
    /// Token ranks (0 = rarest), sorted, distinct, never empty.
    pub tokens: Vec<u32>,
}

/// A scored pair of records, ordered best first by `Ord` (higher score, then lower ids).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scored {
    pub score: f64,
    /// `id_rank`s, smaller first.
    pub lo: u32,
    pub hi: u32,
    /// Record indices, `a` the one with the smaller id.
    pub a: u32,
    pub b: u32,
}

impl Scored {
    pub fn new(score: f64, records: &[Record], a: u32, b: u32) -> Scored {
        let (ra, rb) = (records[a as usize].id_rank, records[b as usize].id_rank);
        let (lo, hi, a, b) = if ra < rb { (ra, rb, a, b) } else { (rb, ra, b, a) };
        Scored { score, lo, hi, a, b }
    }
    /// `Less` means better.
    fn rank(&self, other: &Scored) -> Ordering {
        other.score.total_cmp(&self.score).then(self.lo.cmp(&other.lo)).then(self.hi.cmp(&other.hi))
    }
}
impl PartialEq for Scored {
    fn eq(&self, other: &Self) -> bool {
        self.rank(other) == Ordering::Equal
    }
}
impl Eq for Scored {}
impl PartialOrd for Scored {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
/// Max-heap order = worst first, so a heap's top is the pair to evict.
impl Ord for Scored {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank(other)
    }
}

/// What [`join`] found.
pub(crate) struct Found {
    /// Best first; at most `cap`.
    pub pairs: Vec<Scored>,
    /// At least `cap` pairs reached the floor.
    pub capped: bool,
    /// Pairs whose overlap was computed by a merge.
    pub verified: u64,
}

/// Tokens each record indexes and probes in the seeding pass.
const SEED_PREFIX: usize = 2;
/// Records a thread takes at a time.
const CHUNK: usize = 64;
/// Below this many records one thread does it all.
const PARALLEL_FROM: usize = 4096;

/// The smallest overlap two sets of `a` and `b` tokens need for a Jaccard of at least `t`,
/// in the score's own arithmetic; `min(a, b) + 1` when none is enough.
pub(crate) fn min_overlap(a: usize, b: usize, t: f64) -> usize {
    let most = a.min(b);
    let mut o = ((t * (a + b) as f64 / (1.0 + t)).floor() as usize).saturating_sub(1).min(most);
    while o <= most && jaccard_of(a, b, o) < t {
        o += 1;
    }
    o
}

/// The fewest tokens `x` (of `a` tokens) must share with any set for a Jaccard of at least
/// `t`: `o / a >= t`, the score of `o` shared tokens when the other set is just those. Also
/// the fewest tokens a smaller set needs to reach `t` at all (size filter).
pub(crate) fn min_shared(a: usize, t: f64) -> usize {
    let mut o = ((t * a as f64).floor() as usize).saturating_sub(1).max(1);
    while o <= a && jaccard_of(a, o, o) < t {
        o += 1;
    }
    o
}

/// `have` plus the overlap of the sorted lists `x` and `y`, or `None` as soon as it cannot
/// reach `need`.
fn overlap_reaching(x: &[u32], y: &[u32], have: usize, need: usize) -> Option<usize> {
    let (mut i, mut j, mut n) = (0, 0, have);
    while i < x.len() && j < y.len() {
        if n + (x.len() - i).min(y.len() - j) < need {
            return None;
        }
        match x[i].cmp(&y[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (n >= need).then_some(n)
}

/// 256 bits, one set for each token of a record (by a hash): the symmetric difference of two
/// records has at least as many tokens as their signatures have differing bits, which bounds
/// the overlap without reading either token list.
#[derive(Clone, Copy, Default)]
#[repr(align(32))]
struct Signature([u64; 4]);

impl Signature {
    fn of(tokens: &[u32]) -> Signature {
        let mut s = Signature::default();
        for &t in tokens {
            let bit = (t.wrapping_mul(0x9e37_79b1) >> 24) as usize;
            s.0[bit >> 6] |= 1 << (bit & 63);
        }
        s
    }
    /// The most tokens sets of `a` and `b` tokens with these signatures can share.
    fn most_shared(&self, other: &Signature, a: usize, b: usize) -> usize {
        let differ: u32 = self.0.iter().zip(&other.0).map(|(x, y)| (x ^ y).count_ones()).sum();
        (a + b).saturating_sub(differ as usize) / 2
    }
}

/// The records in visiting order (size, then id), with what probing and verifying read,
/// each in an array of its own so a probe touches little memory.
struct Order {
    /// `by[i]`: the record visited `i`-th.
    by: Vec<u32>,
    size: Vec<u32>,
    agent: Vec<u32>,
    id_rank: Vec<u32>,
    signature: Vec<Signature>,
    /// The token lists one after another, and where each starts.
    tokens: Vec<u32>,
    start: Vec<usize>,
    /// `from_size[s]`: the first visit index whose record has at least `s` tokens.
    from_size: Vec<u32>,
}

impl Order {
    fn new(records: &[Record]) -> Order {
        let mut by: Vec<u32> = (0..records.len() as u32).collect();
        by.sort_by_key(|&r| (records[r as usize].tokens.len(), records[r as usize].id_rank));
        let of = |r: &u32| &records[*r as usize];
        let size: Vec<u32> = by.iter().map(|r| of(r).tokens.len() as u32).collect();
        let longest = size.last().map_or(0, |&s| s as usize);
        let from_size = (0..=longest + 1).map(|s| size.partition_point(|&z| (z as usize) < s) as u32).collect();
        let mut start = Vec::with_capacity(by.len() + 1);
        let mut tokens = Vec::new();
        for r in &by {
            start.push(tokens.len());
            tokens.extend_from_slice(&of(r).tokens);
        }
        start.push(tokens.len());
        Order {
            agent: by.iter().map(|r| of(r).agent).collect(),
            id_rank: by.iter().map(|r| of(r).id_rank).collect(),
            signature: by.iter().map(|r| Signature::of(&of(r).tokens)).collect(),
            by,
            size,
            tokens,
            start,
            from_size,
        }
    }
    fn lists(&self) -> Lists<'_> {
        Lists { tokens: &self.tokens, start: &self.start }
    }
    fn tokens(&self, v: u32) -> &[u32] {
        self.lists().get(v)
    }
    fn len(&self) -> usize {
        self.by.len()
    }
    /// The pair of visit indices `x` and `y` with `score`.
    fn scored(&self, score: f64, x: u32, y: u32) -> Scored {
        let (ix, iy) = (self.id_rank[x as usize], self.id_rank[y as usize]);
        let (rx, ry) = (self.by[x as usize], self.by[y as usize]);
        if ix < iy {
            Scored { score, lo: ix, hi: iy, a: rx, b: ry }
        } else {
            Scored { score, lo: iy, hi: ix, a: ry, b: rx }
        }
    }
}

/// What every pass of one join shares.
#[derive(Clone, Copy)]
struct Setup<'a> {
    order: &'a Order,
    floor: f64,
    cap: Option<usize>,
    resolved: &'a HashSet<(u32, u32)>,
}

/// A pass of the join: which indexes, how many tokens a record probes (at threshold `t`),
/// and the threshold, starting where the pass is told.
struct Pass<'a> {
    setup: Setup<'a>,
    index: &'a Index,
    probe: &'a (dyn Fn(usize, f64) -> usize + Sync),
    pairs: Option<Pairs<'a>>,
    /// The best lower bound on the final threshold any thread has found (f64 bits).
    shared: AtomicU64,
    next: AtomicUsize,
}

/// The pair index of a pass and how the vocabulary is split for it (`keyword_index`).
#[derive(Clone, Copy)]
struct Pairs<'a> {
    index: &'a PairIndex,
    /// Tokens of this rank or above are frequent: the single-token index holds them only for
    /// small records, the pair index for the others.
    frequent_from: u32,
    /// Records visited before this are small: one shared token can be enough for them (at
    /// the seed), so they index every prefix token on its own and no pair.
    small_to: u32,
}

/// How a record probing met another: the shared tokens counted (0 before the first,
/// [`PRUNED`] once the pair cannot reach the threshold, [`FRESH`] when it was only met by a
/// pair of frequent tokens), and the positions of the last one counted in the prober (`i`)
/// and in the other (`j`).
#[derive(Clone, Copy, Default)]
struct Meet {
    count: u32,
    i: u32,
    j: u32,
}

/// One thread's work: how each record met the one probing, the pairs it kept, and what it
/// verified.
struct Worker {
    /// Per visit index.
    count: Vec<Meet>,
    touched: Vec<u32>,
    top: BinaryHeap<Scored>,
    all: Vec<Scored>,
    verified: u64,
    alpha: Vec<u32>,
}

const PRUNED: u32 = u32::MAX;
/// Met by a token pair, nothing counted: verifying merges both lists from the start.
const FRESH: u32 = u32::MAX - 1;

impl<'a> Pass<'a> {
    fn new(
        setup: Setup<'a>,
        index: &'a Index,
        probe: &'a (dyn Fn(usize, f64) -> usize + Sync),
        pairs: Option<Pairs<'a>>,
        start: f64,
    ) -> Self {
        Pass { setup, index, probe, pairs, shared: AtomicU64::new(start.to_bits()), next: AtomicUsize::new(0) }
    }

    fn threshold(&self, w: &Worker) -> f64 {
        let mine = match self.setup.cap {
            Some(k) if w.top.len() >= k => w.top.peek().map_or(self.setup.floor, |s| s.score),
            _ => self.setup.floor,
        };
        mine.max(self.setup.floor).max(f64::from_bits(self.shared.load(Atomic::Relaxed)))
    }

    fn run(&self, threads: usize) -> (Vec<Scored>, u64) {
        let work = || {
            let mut w = Worker {
                count: vec![Meet::default(); self.setup.order.len()],
                touched: Vec::new(),
                top: BinaryHeap::new(),
                all: Vec::new(),
                verified: 0,
                alpha: Vec::new(),
            };
            loop {
                let from = self.next.fetch_add(CHUNK, Atomic::Relaxed);
                if from >= self.setup.order.len() {
                    break;
                }
                for v in from..(from + CHUNK).min(self.setup.order.len()) {
                    self.visit(v as u32, &mut w);
                }
            }
            w
        };
        let workers: Vec<Worker> = if threads <= 1 {
            vec![work()]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
                handles.into_iter().map(|h| h.join().expect("join worker panicked")).collect()
            })
        };
        let verified = workers.iter().map(|w| w.verified).sum();
        let mut found: Vec<Scored> =
            workers.into_iter().flat_map(|w| w.top.into_vec().into_iter().chain(w.all)).collect();
        found.sort();
        if let Some(k) = self.setup.cap {
            found.truncate(k);
        }
        (found, verified)
    }

    /// Meets record `x` (visit index) with every record visited before it.
    fn visit(&self, x: u32, w: &mut Worker) {
        let t = self.threshold(w);
        let xt = self.setup.order.tokens(x);
        let a = xt.len();
        let smallest = min_shared(a, t);
        if smallest > a {
            return;
        }
        let from = self.setup.order.from_size[smallest];
        // α for each size a record met here can have.
        w.alpha.clear();
        w.alpha.extend((smallest..=a).map(|b| min_overlap(a, b, t) as u32));
        // The largest size a record first sharing the token at `i` can have: α must fit in
        // the `a - i` tokens left. It only falls as `i` grows.
        let mut largest = a;
        let (frequent_from, small_to) = self.pairs.map_or((u32::MAX, u32::MAX), |p| (p.frequent_from, p.small_to));
        for (i, &token) in xt[..(self.probe)(a, t).min(a)].iter().enumerate() {
            while largest >= smallest && w.alpha[largest - smallest] as usize > a - i {
                largest -= 1;
            }
            if largest < smallest {
                break;
            }
            let mut to = x.min(self.setup.order.from_size[largest + 1]);
            if token >= frequent_from {
                to = to.min(small_to);
            }
            for &(y, j) in self.index.list(token, from, to) {
                let m = &mut w.count[y as usize];
                if m.count == PRUNED {
                    continue;
                }
                if m.count == 0 {
                    w.touched.push(y);
                }
                let b = self.setup.order.size[y as usize] as usize;
                let counted = m.count + 1;
                let most = counted as usize + (a - i - 1).min(b - j as usize - 1);
                *m = if most < w.alpha[b - smallest] as usize {
                    Meet { count: PRUNED, i: 0, j: 0 }
                } else {
                    Meet { count: counted, i: i as u32, j }
                };
            }
        }
        if let Some(pairs) = self.pairs {
            self.visit_pairs(x, t, smallest, pairs, w);
        }
        let touched = std::mem::take(&mut w.touched);
        for &y in &touched {
            let m = std::mem::take(&mut w.count[y as usize]);
            if m.count != PRUNED {
                self.verify(x, y, m, w);
            }
        }
        w.touched = touched;
        w.touched.clear();
    }

    /// Meets record `x` (visit index) with the records of more than one token visited before
    /// it whose two smallest shared tokens are frequent: through the pairs of frequent tokens
    /// of its 2-prefix (`keyword_index`). Records already met are left as they are.
    fn visit_pairs(&self, x: u32, t: f64, smallest: usize, pairs: Pairs<'_>, w: &mut Worker) {
        let order = self.setup.order;
        let xt = order.tokens(x);
        let a = xt.len();
        let first = xt.partition_point(|&token| token < pairs.frequent_from);
        let end = (a + 2 - min_shared(a, t)).min(a);
        let from = order.from_size[smallest].max(pairs.small_to);
        let mut largest = a;
        for i2 in first + 1..end {
            // The first shared token is before `i2`, the rest from `i2` on.
            while largest >= smallest && w.alpha[largest - smallest] as usize > a - i2 + 1 {
                largest -= 1;
            }
            let to = if largest < smallest { 0 } else { x.min(order.from_size[largest + 1]) };
            if to <= from {
                break;
            }
            for &u in &xt[first..i2] {
                for y in pairs.index.records(u, xt[i2], from, to) {
                    let m = &mut w.count[y as usize];
                    if m.count == 0 {
                        w.touched.push(y);
                        m.count = FRESH;
                    }
                }
            }
        }
    }

    /// Scores `x` and `y` (visit indices) if they can still make the list, and keeps them.
    fn verify(&self, x: u32, y: u32, m: Meet, w: &mut Worker) {
        let order = self.setup.order;
        let (a, b) = (order.size[x as usize] as usize, order.size[y as usize] as usize);
        // Where the merge resumes, after the last token counted.
        let (count, i, j) =
            if m.count == FRESH { (0, 0, 0) } else { (m.count as usize, m.i as usize + 1, m.j as usize + 1) };
        let t = self.threshold(w);
        let most = count + (a - i).min(b - j);
        let bound = jaccard_of(a, b, most);
        if bound < t {
            return;
        }
        // A pair that cannot beat the worst kept one even at its bound (a tie it would lose
        // on ids) is not worth a merge.
        if let (Some(k), Some(worst)) = (self.setup.cap, w.top.peek()) {
            if w.top.len() >= k && order.scored(bound, x, y) >= *worst {
                return;
            }
        }
        if order.agent[x as usize] == order.agent[y as usize] {
            return;
        }
        let need = min_overlap(a, b, t);
        if order.signature[x as usize].most_shared(&order.signature[y as usize], a, b) < need {
            return;
        }
        w.verified += 1;
        // Every shared token up to the last one counted was counted (module doc).
        let (xt, yt) = (order.tokens(x), order.tokens(y));
        let Some(overlap) = overlap_reaching(&xt[i..], &yt[j..], count, need) else { return };
        let score = jaccard_of(a, b, overlap);
        let (rx, ry) = (order.by[x as usize], order.by[y as usize]);
        if score < t || self.setup.resolved.contains(&(rx.min(ry), rx.max(ry))) {
            return;
        }
        let s = order.scored(score, x, y);
        let Some(k) = self.setup.cap else {
            w.all.push(s);
            return;
        };
        if w.top.len() < k {
            w.top.push(s);
        } else if w.top.peek().is_some_and(|worst| s < *worst) {
            w.top.pop();
            w.top.push(s);
        } else {
            return;
        }
        if w.top.len() >= k {
            let kth = w.top.peek().map_or(self.setup.floor, |s| s.score);
            self.shared.fetch_max(kth.to_bits(), Atomic::Relaxed);
        }
    }
}

/// The best `cap` pairs (every pair with `None`) of `records` of different agents scoring at
/// least `floor`, leaving out `resolved` record pairs (smaller index first).
pub(crate) fn join(records: &[Record], floor: f64, cap: Option<usize>, resolved: &HashSet<(u32, u32)>) -> Found {
    let threads =
        if records.len() >= PARALLEL_FROM { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { 1 };
    join_on(records, floor, cap, resolved, threads, None)
}

/// [`join`] on `threads` threads, with tokens in at least `frequent` records indexed by pairs
/// (`None`: where the work is least, `keyword_index::frequent_from`).
fn join_on(
    records: &[Record],
    floor: f64,
    cap: Option<usize>,
    resolved: &HashSet<(u32, u32)>,
    threads: usize,
    frequent: Option<usize>,
) -> Found {
    let cap = cap.map(|k| k.max(1));
    let order = Order::new(records);
    let vocab = records.iter().flat_map(|r| r.tokens.last()).max().map_or(0, |&t| t as usize + 1);
    let setup = Setup { order: &order, floor, cap, resolved };
    // The seed: the cap-th best score among pairs sharing one of their two rarest tokens.
    let mut seed = floor;
    if let Some(k) = cap {
        let index = Index::new(order.lists(), vocab, |_| SEED_PREFIX, |_, _| true);
        let probe = |a: usize, _: f64| a.min(SEED_PREFIX);
        let (found, _) = Pass::new(setup, &index, &probe, None, floor).run(threads);
        if found.len() >= k {
            seed = found[k - 1].score.max(floor);
        }
    }
    // Small records: one shared token can reach the seed with a record of their size.
    let longest = order.from_size.len() - 2;
    let small = (1..=longest).take_while(|&b| min_overlap(b, b, seed) <= 1).last().unwrap_or(0);
    let small_to = order.from_size[small + 1];
    let prefix = |s: usize| s + 1 - min_overlap(s, s, seed).min(s);
    let prefix2 = |s: usize| (s + 2).saturating_sub(min_overlap(s, s, seed));
    let frequent_from = match frequent {
        None => frequent_from(order.lists(), vocab, small_to, prefix, prefix2),
        Some(n) => {
            // Ranks are rarest first: the frequent tokens are the ranks from the first one in
            // `n` records on.
            let mut df = vec![0usize; vocab];
            for t in records.iter().flat_map(|r| &r.tokens) {
                df[*t as usize] += 1;
            }
            df.iter().position(|&d| d >= n).unwrap_or(vocab) as u32
        }
    };
    let index = Index::new(order.lists(), vocab, prefix, |v, t| t < frequent_from || v < small_to);
    let pair_index = PairIndex::new(order.lists(), small_to, frequent_from, prefix2);
    let pairs = Pairs { index: &pair_index, frequent_from, small_to };
    let probe = |a: usize, t: f64| a + 1 - min_shared(a, t).min(a);
    let (pairs, verified) = Pass::new(setup, &index, &probe, Some(pairs), seed).run(threads);
    let capped = cap.is_some_and(|k| pairs.len() >= k);
    Found { pairs, capped, verified }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain scan: every pair of different agents at or above `floor`, not resolved, best first.
    fn scan(records: &[Record], floor: f64, cap: Option<usize>, resolved: &HashSet<(u32, u32)>) -> Vec<Scored> {
        let mut all = Vec::new();
        for x in 0..records.len() {
            for y in x + 1..records.len() {
                let score = crate::tokens::jaccard(&records[x].tokens, &records[y].tokens);
                if records[x].agent != records[y].agent && score >= floor && !resolved.contains(&(x as u32, y as u32)) {
                    all.push(Scored::new(score, records, x as u32, y as u32));
                }
            }
        }
        all.sort();
        all.truncate(cap.unwrap_or(usize::MAX));
        all
    }

    fn record(i: usize, agent: u32, tokens: &[u32]) -> Record {
        let mut tokens = tokens.to_vec();
        tokens.sort_unstable();
        tokens.dedup();
        Record { memory: i, agent, id_rank: i as u32, tokens }
    }

    fn key(s: &[Scored]) -> Vec<(u32, u32, f64)> {
        s.iter().map(|p| (p.a, p.b, p.score)).collect()
    }

    /// The join on one and on three threads, with and without the resolved pairs, against the scan.
    fn check(records: &[Record], floor: f64, cap: Option<usize>, resolved: &HashSet<(u32, u32)>, what: &str) {
        let want = key(&scan(records, floor, cap, resolved));
        // Every token frequent, the commoner ones, none.
        for (threads, frequent) in
            [(1, Some(1)), (3, Some(1)), (1, Some(4)), (3, Some(12)), (1, Some(usize::MAX)), (3, None)]
        {
            let got = join_on(records, floor, cap, resolved, threads, frequent);
            assert_eq!(key(&got.pairs), want, "{what}, cap {cap:?}, {threads} threads, frequent from {frequent:?}");
            let all = scan(records, floor, None, resolved).len();
            assert_eq!(got.capped, cap.is_some_and(|k| all >= k), "{what}, cap {cap:?}");
        }
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    #[test]
    fn bounds_are_the_smallest_overlaps_the_score_allows() {
        for t in [0.15, 0.2, 0.25, 1.0 / 3.0, 0.4, 3.0 / 7.0, 0.5, 0.9, 1.0] {
            for a in 1..60 {
                let shared = (1..=a + 1).find(|&o| o > a || jaccard_of(a, o, o) >= t).unwrap();
                assert_eq!(min_shared(a, t), shared, "a {a}, t {t}");
                for b in 1..60 {
                    let least = (0..=a.min(b) + 1).find(|&o| o > a.min(b) || jaccard_of(a, b, o) >= t).unwrap();
                    assert_eq!(min_overlap(a, b, t), least, "a {a}, b {b}, t {t}");
                }
            }
        }
    }

    #[test]
    fn equals_the_scan_on_skewed_random_sets() {
        for seed in 1..=10u64 {
            let mut r = Rng(seed * 7919);
            let records: Vec<Record> = (0..300)
                .map(|i| {
                    let len = 1 + r.below(20);
                    // Skewed: low ranks are common; a few sets repeat another's exactly.
                    let toks: Vec<u32> = (0..len)
                        .map(|_| {
                            let top = 1 + r.below(80);
                            r.below(top) as u32
                        })
                        .collect();
                    record(i, r.below(6) as u32, &toks)
                })
                .collect();
            let resolved: HashSet<(u32, u32)> = (0..40).map(|i| (i, i + 1 + r.below(50) as u32)).collect();
            for cap in [Some(1), Some(7), Some(50), Some(1000), None] {
                check(&records, 0.15, cap, &HashSet::new(), &format!("seed {seed}"));
                check(&records, 0.15, cap, &resolved, &format!("seed {seed}, resolved"));
            }
        }
    }

    #[test]
    fn ties_at_the_cap_go_to_the_smaller_ids() {
        // Every pair scores 1.0: the cap keeps the pairs of the smallest ids, in id order.
        let records: Vec<Record> = (0..12).map(|i| record(i, i as u32 % 4, &[1, 2, 3])).collect();
        for cap in [1, 2, 5, 17, 54, 60] {
            check(&records, 0.15, Some(cap), &HashSet::new(), "all equal");
        }
        let got = join_on(&records, 0.15, Some(3), &HashSet::new(), 2, Some(1));
        assert_eq!(key(&got.pairs), [(0, 1, 1.0), (0, 2, 1.0), (0, 3, 1.0)]);
        // id order, not record order, breaks the tie.
        let mut reversed: Vec<Record> = (0..4).map(|i| record(i, i as u32, &[1, 2, 3])).collect();
        for (i, r) in reversed.iter_mut().enumerate() {
            r.id_rank = 3 - i as u32;
        }
        let got = join_on(&reversed, 0.15, Some(1), &HashSet::new(), 1, Some(1));
        assert_eq!((got.pairs[0].a, got.pairs[0].b), (3, 2));
    }

    #[test]
    fn a_pair_exactly_at_the_floor_is_kept_and_one_just_below_is_not() {
        // 3 shared of 10 and 13 tokens: 3 / 20 = 0.15 exactly. 3 of 10 and 14: 3 / 21.
        let x: Vec<u32> = (0..10).collect();
        let at: Vec<u32> = (7..20).collect();
        let below: Vec<u32> = (7..10).chain(100..111).collect();
        assert_eq!(crate::tokens::jaccard(&x, &at), 0.15);
        let records = vec![record(0, 0, &x), record(1, 1, &at), record(2, 2, &below)];
        assert!(crate::tokens::jaccard(&records[0].tokens, &records[2].tokens) < 0.15);
        for cap in [Some(1), Some(5), None] {
            let got = join_on(&records, 0.15, cap, &HashSet::new(), 1, Some(1));
            assert_eq!(key(&got.pairs), [(0, 1, 0.15)], "cap {cap:?}");
            check(&records, 0.15, cap, &HashSet::new(), "at the floor");
        }
    }

    #[test]
    fn pairs_of_one_agent_are_never_made() {
        let records: Vec<Record> = (0..6).map(|i| record(i, 0, &[1, 2, 3, 4])).collect();
        for cap in [Some(1), None] {
            assert!(join_on(&records, 0.15, cap, &HashSet::new(), 2, Some(1)).pairs.is_empty());
        }
        let mut two = records;
        two.push(record(6, 1, &[1, 2, 3, 4]));
        let got = join_on(&two, 0.15, None, &HashSet::new(), 1, Some(1));
        assert_eq!(got.pairs.len(), 6);
        assert!(got.pairs.iter().all(|p| p.b == 6));
    }

    #[test]
    fn no_records_and_one_token_sets() {
        assert!(join_on(&[], 0.15, Some(3), &HashSet::new(), 2, Some(1)).pairs.is_empty());
        let records = vec![record(0, 0, &[5]), record(1, 1, &[5]), record(2, 2, &[6]), record(3, 3, &[5, 6])];
        check(&records, 0.15, Some(2), &HashSet::new(), "one token");
        check(&records, 0.15, None, &HashSet::new(), "one token");
    }
}
