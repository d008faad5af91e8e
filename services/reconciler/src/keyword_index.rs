//! The inverted indexes of the keyword join (`keyword_join`): records' prefixes indexed by
//! single tokens, and by pairs of frequent tokens.
//!
//! Both are built once per pass over the records in visiting order (size, then id), so every
//! list is in visit order and a probe can cut it to the records of the sizes it may meet.
//!
//! The pair index is the join's answer to frequent tokens (k-wise signatures, as in Wang et
//! al.'s pkwise, with k = 2 and one split of the vocabulary): two sets sharing at least `α`
//! tokens share their `k` smallest shared tokens, and those lie in the first `|x| - α + k`
//! tokens of each set (the `k`-prefix). A rare token's list is short, so a rare token is a
//! signature on its own; a frequent token's list holds a good share of the corpus, so a
//! frequent token is only a signature together with a second frequent token of the same
//! 2-prefix, and the pair's list holds only records that have both. Tokens are ranked rarest
//! first, so the frequent tokens are the tail of every list, and when the smallest shared
//! token of two records is frequent, so is the second smallest.

/// The records' token lists in visiting order, one after another, and where each starts (one
/// more start than there are records).
#[derive(Clone, Copy)]
pub(crate) struct Lists<'a> {
    pub tokens: &'a [u32],
    pub start: &'a [usize],
}

impl<'a> Lists<'a> {
    /// The tokens of the record visited `v`-th.
    pub fn get(&self, v: u32) -> &'a [u32] {
        &self.tokens[self.start[v as usize]..self.start[v as usize + 1]]
    }
    pub fn len(&self) -> usize {
        self.start.len() - 1
    }
}

/// What indexing and probing one token pair costs, in list entries a probe by a single token
/// reads (both are a random memory access; a pair is read twice, hashed and filtered). Measured
/// on the 1M dense tail of `bench/src/bin/pairs_tail.rs`: 2 to 4.
const PAIR_COST: u128 = 4;

/// The rank from which tokens are frequent, chosen where the estimated work of the pass is
/// least: a token kept single costs a probe of its list by every record holding it (`d²/2`
/// entries read, `d` the records that index it among their first `prefix(size)`); a token
/// made frequent costs a pair signature with every later token of a 2-prefix (the first
/// `prefix2(size)`), for each record from visit index `first` on.
pub(crate) fn frequent_from(
    order: Lists<'_>,
    vocab: usize,
    first: u32,
    prefix: impl Fn(usize) -> usize,
    prefix2: impl Fn(usize) -> usize,
) -> u32 {
    let mut listed = vec![0u128; vocab];
    let mut paired = vec![0u128; vocab];
    for v in 0..order.len() as u32 {
        let toks = order.get(v);
        for &t in &toks[..prefix(toks.len()).min(toks.len())] {
            listed[t as usize] += 1;
        }
        if v >= first {
            let end = prefix2(toks.len()).min(toks.len());
            for (i, &t) in toks[..end].iter().enumerate() {
                paired[t as usize] += (end - 1 - i) as u128;
            }
        }
    }
    // All frequent, then one more token single at each step.
    let (mut single, mut pairs) = (0u128, PAIR_COST * paired.iter().sum::<u128>());
    let (mut best, mut from) = (pairs, 0);
    for t in 0..vocab {
        single += listed[t] * listed[t] / 2;
        pairs -= PAIR_COST * paired[t];
        if single + pairs < best {
            (best, from) = (single + pairs, t + 1);
        }
    }
    from as u32
}

/// Entries grouped by key (a counting sort): `each` yields `(key, entry)` pairs, the same ones
/// each time it is called (once to count, once to place); within a key, entries stay in the
/// order they came. Returns where each key's entries start (one more start than keys) and the
/// entries.
fn grouped(keys: usize, each: impl Fn(&mut dyn FnMut(usize, (u32, u32)))) -> (Vec<usize>, Vec<(u32, u32)>) {
    // Counted into `start[k + 2]`, so that after the sums `start[k + 1]` is where key `k`
    // begins: placing moves it on to where the key ends, which is where the next one begins.
    let mut start = vec![0usize; keys + 2];
    each(&mut |k, _| start[k + 2] += 1);
    for k in 0..keys {
        start[k + 2] += start[k + 1];
    }
    let mut entries = vec![(0u32, 0u32); start[keys + 1]];
    each(&mut |k, entry| {
        entries[start[k + 1]] = entry;
        start[k + 1] += 1;
    });
    start.pop();
    (start, entries)
}

/// The part of `entries` (in visit order, `visit` of each) visited in `from..to`.
fn visited_in<T>(entries: &[T], visit: impl Fn(&T) -> u32, from: u32, to: u32) -> &[T] {
    let lo = entries.partition_point(|e| visit(e) < from);
    let hi = lo + entries[lo..].partition_point(|e| visit(e) < to);
    &entries[lo..hi]
}

/// An inverted index of record prefixes by single tokens: for each token, `(visit index,
/// position)` of every indexed prefix holding it, by visit index.
pub(crate) struct Index {
    start: Vec<usize>,
    entries: Vec<(u32, u32)>,
}

impl Index {
    /// Indexes, for every record, the tokens of its first `prefix(size)` that `keep(visit
    /// index, token)` accepts.
    pub fn new(
        order: Lists<'_>,
        vocab: usize,
        prefix: impl Fn(usize) -> usize,
        keep: impl Fn(u32, u32) -> bool,
    ) -> Index {
        let keep = &keep;
        let indexed = |v: u32| {
            let toks = order.get(v);
            toks[..prefix(toks.len()).min(toks.len())].iter().enumerate().filter(move |&(_, &t)| keep(v, t))
        };
        let (start, entries) = grouped(vocab, |put| {
            for v in 0..order.len() as u32 {
                for (j, &t) in indexed(v) {
                    put(t as usize, (v, j as u32));
                }
            }
        });
        Index { start, entries }
    }

    /// The entries of `token` visited in `from..to`.
    pub fn list(&self, token: u32, from: u32, to: u32) -> &[(u32, u32)] {
        visited_in(&self.entries[self.start[token as usize]..self.start[token as usize + 1]], |e| e.0, from, to)
    }
}

/// Records indexed by pairs of frequent tokens: a hash table of buckets, each bucket's
/// entries `(fingerprint of the pair, visit index)` by visit index. Two pairs can share a
/// bucket and, rarely, a fingerprint too: a probe may then meet a record that does not hold
/// its pair, which costs the join a verification (it merges the two token lists) and never a
/// wrong score.
pub(crate) struct PairIndex {
    /// `64 - log2(buckets)`.
    shift: u32,
    start: Vec<usize>,
    entries: Vec<(u32, u32)>,
}

/// The bucket-choosing hash and the fingerprint of the token pair `(u, v)`.
fn hash(u: u32, v: u32) -> (u64, u32) {
    let key = (u64::from(u) << 32 | u64::from(v)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let key = key ^ (key >> 29);
    (key.wrapping_mul(0xbf58_476d_1ce4_e5b9), (key >> 32) as u32 ^ key as u32)
}

impl PairIndex {
    /// Indexes, for every record from visit index `first` on, every pair of its frequent
    /// tokens (rank `frequent_from` or above) among its first `prefix(size)`.
    pub fn new(order: Lists<'_>, first: u32, frequent_from: u32, prefix: impl Fn(usize) -> usize) -> PairIndex {
        let frequent = |v: u32| {
            let toks = order.get(v);
            let end = prefix(toks.len()).min(toks.len());
            let from = toks[..end].partition_point(|&t| t < frequent_from);
            &toks[from..end]
        };
        let pairs = |n: usize| n * n.saturating_sub(1) / 2;
        let total: usize = (first..order.len() as u32).map(|v| pairs(frequent(v).len())).sum();
        // About four entries a bucket.
        let bits = (total / 4).max(2).next_power_of_two().trailing_zeros();
        let shift = 64 - bits;
        let (start, entries) = grouped(1usize << bits, |put| {
            for v in first..order.len() as u32 {
                let toks = frequent(v);
                for (k, &t2) in toks.iter().enumerate() {
                    for &t1 in &toks[..k] {
                        let (h, print) = hash(t1, t2);
                        put((h >> shift) as usize, (print, v));
                    }
                }
            }
        });
        PairIndex { shift, start, entries }
    }

    /// The records visited in `from..to` indexed under the pair `(u, v)` (`u` before `v`),
    /// and, rarely, a record of another pair with the same fingerprint.
    pub fn records(&self, u: u32, v: u32, from: u32, to: u32) -> impl Iterator<Item = u32> + '_ {
        let (h, print) = hash(u, v);
        let b = (h >> self.shift) as usize;
        visited_in(&self.entries[self.start[b]..self.start[b + 1]], |e| e.1, from, to)
            .iter()
            .filter(move |e| e.0 == print)
            .map(|e| e.1)
    }

    #[cfg(test)]
    fn entries(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sets` in the order given, as the visiting order.
    fn lists(sets: &[&[u32]]) -> (Vec<u32>, Vec<usize>) {
        let mut start = vec![0];
        for set in sets {
            start.push(start.last().unwrap() + set.len());
        }
        (sets.concat(), start)
    }

    #[test]
    fn a_pair_lists_the_records_holding_both_tokens_in_their_prefix() {
        let (tokens, start) = lists(&[&[1, 3], &[1, 2, 3], &[1, 2, 3], &[2, 3, 4, 5]]);
        let o = Lists { tokens: &tokens, start: &start };
        let all = PairIndex::new(o, 0, 0, |s| s);
        let got = |u, v, from, to| all.records(u, v, from, to).collect::<Vec<u32>>();
        assert_eq!(got(1, 3, 0, 4), [0, 1, 2]);
        assert_eq!(got(1, 3, 1, 4), [1, 2]);
        assert_eq!(got(2, 3, 0, 4), [1, 2, 3]);
        assert_eq!(got(4, 5, 0, 4), [3]);
        assert_eq!(got(1, 4, 0, 4), Vec::<u32>::new());
        assert_eq!(all.entries(), 1 + 3 + 3 + 6);
        // Only the frequent tokens (rank 3 and above), only the first two tokens of a prefix,
        // only from the second record visited on.
        let some = PairIndex::new(o, 1, 3, |s| s.min(3));
        assert_eq!(some.records(3, 4, 0, 4).collect::<Vec<u32>>(), [3]);
        assert_eq!(some.records(1, 3, 0, 4).count(), 0);
        assert_eq!(some.entries(), 1);
    }

    #[test]
    fn the_split_keeps_rare_tokens_single_and_pairs_the_tokens_every_record_has() {
        // Each record: three tokens of its own, then tokens 1999 and 2000, which all 400 hold.
        let sets: Vec<Vec<u32>> = (0..400u32).map(|i| vec![3 * i, 3 * i + 1, 3 * i + 2, 1999, 2000]).collect();
        let refs: Vec<&[u32]> = sets.iter().map(Vec::as_slice).collect();
        let (tokens, start) = lists(&refs);
        let o = Lists { tokens: &tokens, start: &start };
        let from = frequent_from(o, 2001, 0, |s| s, |s| s);
        assert_eq!(from, 1200);
        assert_eq!(PairIndex::new(o, 0, from, |s| s).entries(), 400);
        // Three records: reading three entries of each common token costs less than pairing.
        let (tokens, start) = lists(&refs[..3]);
        let from = frequent_from(Lists { tokens: &tokens, start: &start }, 2001, 0, |s| s, |s| s);
        assert!(from >= 2000, "{from}");
    }
}
