//! Small similarity measures for successor search.
//!
//! The measures successor search uses. `body_similarity`: the Jaccard of two texts' identifier
//! sets, leaving out the definition's own name (a rename changes it by design); with fewer than
//! three identifiers, texts that are the same once the names are blanked out count as 1. `check`
//! takes a symbol whose body scores *s* ≥ 0.5 as a rename (confidence 60 + 35·*s*), and a re-added
//! file whose text scores ≥ 0.5 against the deleted one as its successor (as git's rename
//! detection wants half the content). `name_similarity`: a normalised, case-insensitive
//! Levenshtein similarity of two names (a close symbol name without history). `shared_dirs`: the
//! leading folders two paths share ("moved to another file" among several definitions).

use std::collections::HashSet;

use crate::names::identifiers;

/// Jaccard similarity of the identifier sets of two code fragments, ignoring `skip`
/// (the definition's own name, which a rename changes by design).
pub fn body_similarity(a: &str, b: &str, skip: &[&str]) -> f64 {
    let set = |text: &str| -> HashSet<String> {
        identifiers(text).filter(|t| !skip.contains(t)).map(str::to_owned).collect()
    };
    let (sa, sb) = (set(a), set(b));
    if sa.len() < 3 || sb.len() < 3 {
        // Too few identifiers for a set measure (`struct Width(usize);`): the same text once
        // the names are blanked out is the same item.
        let blank = |text: &str| -> String {
            let mut names: Vec<&&str> = skip.iter().filter(|n| !n.is_empty()).collect();
            names.sort_by_key(|n| std::cmp::Reverse(n.len()));
            let mut t = text.to_owned();
            for name in names {
                t = t.replace(*name, "_");
            }
            t.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        return if !a.trim().is_empty() && blank(a) == blank(b) { 1.0 } else { 0.0 };
    }
    let (a, b) = (sa, sb);
    let inter = a.intersection(&b).count() as f64;
    inter / a.union(&b).count() as f64
}

/// Normalised Levenshtein similarity of two names (1.0 = equal), case-insensitive.
pub fn name_similarity(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let longest = a.len().max(b.len());
    if longest == 0 {
        return 1.0;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    1.0 - prev[b.len()] as f64 / longest as f64
}

/// Number of leading path segments two paths share.
pub fn shared_dirs(a: &str, b: &str) -> usize {
    a.split('/').zip(b.split('/')).take_while(|(x, y)| x == y).count()
}

/// Whether `a` is at most `edits` insertions, deletions or substitutions away from `b`
/// (Levenshtein, stopping early once every path is over); the same letters in another case are
/// zero edits.
pub fn within_edits(a: &str, b: &str, edits: usize) -> bool {
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        if cur.iter().min().is_some_and(|&m| m > edits) {
            return false;
        }
        prev = cur;
    }
    prev[b.len()] <= edits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_similarity_ignores_the_renamed_name() {
        let old = "fn parse_header(buf: &[u8]) -> Header { let n = buf.len(); Header::new(n) }";
        let new = "fn parse_head(buf: &[u8]) -> Header { let n = buf.len(); Header::new(n) }";
        assert!(body_similarity(old, new, &["parse_header", "parse_head"]) > 0.99);
        let other = "fn render(out: &mut String) { out.push_str(\"x\") }";
        assert!(body_similarity(old, other, &["parse_header", "render"]) < 0.2);
        assert_eq!(body_similarity("a", "b", &[]), 0.0);
        assert_eq!(
            body_similarity(
                "struct MaxTermWidth(usize);",
                "struct BaseMaxTermWidth(usize);",
                &["MaxTermWidth", "BaseMaxTermWidth"]
            ),
            1.0
        );
    }

    #[test]
    fn name_similarity_cases() {
        assert_eq!(name_similarity("abc", "abc"), 1.0);
        assert!(name_similarity("parse_header", "parse_head") > 0.8);
        assert!(name_similarity("TokenBucket", "RateLimiter") < 0.3);
        assert_eq!(shared_dirs("src/a/b.rs", "src/a/c.rs"), 2);
    }
}
