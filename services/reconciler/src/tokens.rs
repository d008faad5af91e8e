//! The keyword method's tokens and similarity (docs/contracts.md §5): lowercase alphanumeric runs of at
//! least four characters, compared as sets with Jaccard.
//!
//! Common words (`with`, `that`, `this`) are kept on purpose: the seed keeps them, and
//! dropping them would change which pairs pass 0.15. Scores are exact, never estimated.

/// Shortest token the keyword method keeps (docs/contracts.md §5).
pub const MIN_TOKEN_CHARS: usize = 4;

/// The distinct tokens of `text`, sorted: runs of alphanumeric characters (Unicode letters
/// and digits, so `größe` and `日本語です` are words too), lowercased, of at least
/// [`MIN_TOKEN_CHARS`] characters. Anything else separates tokens (`foo_bar` is two).
pub fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= MIN_TOKEN_CHARS)
        .map(str::to_lowercase)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Size of the intersection of two sorted, de-duplicated slices.
pub fn overlap<T: Ord>(a: &[T], b: &[T]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// Jaccard of two token sets given their sizes and overlap. Two empty sets score 0: a
/// memory without a single token says nothing the keyword method can compare.
pub fn jaccard_of(len_a: usize, len_b: usize, overlap: usize) -> f64 {
    let union = len_a + len_b - overlap;
    if union == 0 {
        0.0
    } else {
        overlap as f64 / union as f64
    }
}

/// Exact Jaccard of two sorted, de-duplicated token lists.
pub fn jaccard<T: Ord>(a: &[T], b: &[T]) -> f64 {
    jaccard_of(a.len(), b.len(), overlap(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: &[&str]) {
        assert_eq!(tokens(text), expected, "{text:?}");
    }

    #[test]
    fn tokeniser() {
        check("", &[]);
        check("a bb ccc", &[]);
        check("Use PostgreSQL with the DB", &["postgresql", "with"]);
        check("with WITH With", &["with"]);
        check("cache_ttl=300s; port 80", &["300s", "cache", "port"]);
        check("src/store/lru.rs:45 ShardedCache", &["shardedcache", "store"]);
        check("Größe des Caches", &["caches", "größe"]);
        check("x1y2 v2.0.10", &["x1y2"]);
    }

    #[test]
    fn jaccard_is_exact() {
        let a = tokens("we decided to use postgresql as the primary database");
        let b = tokens("we rejected postgresql; product store stays on sqlite");
        // a: decided, postgresql, primary, database; b: rejected, postgresql, product, store, stays, sqlite
        assert_eq!(overlap(&a, &b), 1);
        assert_eq!(jaccard(&a, &b), 1.0 / 9.0);
        assert_eq!(jaccard(&a, &a), 1.0);
        assert_eq!(jaccard::<String>(&[], &[]), 0.0);
        assert_eq!(jaccard(&[1, 2, 3, 4], &[3, 4, 5]), 2.0 / 5.0);
        assert_eq!(jaccard(&[1, 2], &[3, 4]), 0.0);
    }
}
