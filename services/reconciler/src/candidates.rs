//! `memval pairs` as a library call: load memories (any format memval reads), take the cap
//! and the resolved pairs from a `memory.db` when that is what was given, and produce the
//! keyword candidates.
//!
//! Never writes anything: the `memory.db` is read through `memval_sources`, read-only.

use std::collections::HashSet;
use std::path::Path;

use memval_sources::{Format, Problem};

use crate::pairs::{self, normalised_ids, Candidates, Options};
use crate::ReconcileError;

/// How many pairs to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    /// `--cap N` as given; 0 means no cap.
    Given(u64),
    /// No `--cap`: `reconcile_pair_cap` from the `memory.db`, else 50, clamped to 1-500.
    Default,
}

/// What a `memval pairs` run produced, with what it could not read and where its cap came from.
#[derive(Debug, Clone)]
pub struct PairsRun {
    pub candidates: Candidates,
    pub format: Format,
    /// Files, lines or rows that could not be loaded (the rest was).
    pub problems: Vec<Problem>,
    /// Where the cap came from, and any clamping: one line for the user.
    pub cap_note: String,
    /// Settled pairs read from `reconcile_log`.
    pub resolved_read: usize,
}

/// The cap [`Cap`] resolves to (`None` = no cap), and a line saying why.
pub fn resolve_cap(cap: Cap, config_cap: Option<i64>) -> (Option<usize>, String) {
    use memval_judge::plan::{clamp_pair_cap, DEFAULT_PAIR_CAP, MAX_PAIR_CAP};
    match (cap, config_cap) {
        (Cap::Given(0), _) => (None, "no cap (--cap 0)".into()),
        (Cap::Given(n), _) => (Some(n as usize), format!("cap {n} (--cap)")),
        (Cap::Default, Some(v)) => {
            let c = clamp_pair_cap(v);
            let clamped = if i64::from(c) != v { format!(", clamped from {v} to 1-{MAX_PAIR_CAP}") } else { String::new() };
            (Some(c as usize), format!("cap {c} (reconcile_pair_cap in memory.db{clamped})"))
        }
        (Cap::Default, None) => (Some(DEFAULT_PAIR_CAP as usize), format!("cap {DEFAULT_PAIR_CAP} (default)")),
    }
}

/// Loads `memories` (with `repo` as the repository they describe) and pairs them.
/// `per_agent` 0 turns sampling off.
pub fn run(memories: &Path, repo: &Path, cap: Cap, per_agent: usize) -> Result<PairsRun, ReconcileError> {
    let loaded = memval_sources::load(memories, repo)?;
    let (config_cap, resolved) = if loaded.format == Format::Sqlite {
        let config = memval_sources::sqlite_config(memories)?;
        let log = memval_sources::reconcile_log(memories)?;
        let resolved: HashSet<(String, String)> = log.iter().map(|r| normalised_ids(&r.id_a, &r.id_b)).collect();
        (config.reconcile_pair_cap, resolved)
    } else {
        (None, HashSet::new())
    };
    let (cap, cap_note) = resolve_cap(cap, config_cap);
    let options = Options { cap, per_agent: (per_agent > 0).then_some(per_agent), resolved };
    let resolved_read = options.resolved.len();
    let candidates = pairs::keyword_pairs(&loaded.memories, &options);
    Ok(PairsRun { candidates, format: loaded.format, problems: loaded.problems, cap_note, resolved_read })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_sources_and_clamping() {
        assert_eq!(resolve_cap(Cap::Given(0), Some(10)).0, None);
        assert_eq!(resolve_cap(Cap::Given(1000), Some(10)).0, Some(1000));
        assert_eq!(resolve_cap(Cap::Default, Some(10)).0, Some(10));
        let (cap, note) = resolve_cap(Cap::Default, Some(9999));
        assert_eq!(cap, Some(500));
        assert!(note.contains("clamped from 9999"), "{note}");
        assert_eq!(resolve_cap(Cap::Default, Some(0)).0, Some(1));
        assert_eq!(resolve_cap(Cap::Default, None).0, Some(50));
    }
}
