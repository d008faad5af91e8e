//! `memval pairs` as a library call: load memories (any format memval reads), take the cap
//! and the resolved pairs from a `memory.db` when that is what was given, and produce the
//! keyword, embed or merged candidates. [`Pairer`] is the one place a [`Method`] becomes
//! pairs, shared with `memval reconcile` and the reconciler service.
//!
//! Never writes a memory: the `memory.db` is read through `memval_sources`, read-only. The
//! only write is the embed method's cache in the store.
//!
//! [`Pairer::new`] finds the embed model and opens the cache's store (keyword needs neither);
//! `pairs` runs the method. `memval pairs`, `memval reconcile --method` and the reconciler role's
//! `--method` all pair through it; `reconcile` builds its `Pairer` before scanning, so a missing
//! model fails before any work and no report is written.
//!
//! Must never let two commands propose pairs differently: every command that proposes candidate
//! pairs does so through [`Pairer`] from the same `Options`, so one method gives the same pairs
//! everywhere.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use memval_embed::ModelFiles;
use memval_proto::Memory;
use memval_sources::{Format, Problem};

use crate::embed_pairs::{self, EmbedStats, Progress};
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

/// How pairs are proposed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    Keyword,
    Embed(EmbedSetup),
    /// Keyword and embed, merged ([`embed_pairs::merge`]).
    Both(EmbedSetup),
}

impl Method {
    /// One line for `serve --check-config`: the method, and for embed and both which model
    /// folder and which cache they use.
    pub fn describe(&self) -> String {
        match self {
            Method::Keyword => "keyword (shared words; --method embed|both adds the embedding model)".to_owned(),
            Method::Embed(setup) | Method::Both(setup) => {
                let name = if matches!(self, Method::Embed(_)) { "embed" } else { "both (keyword and embed, merged)" };
                let model = setup
                    .model_dir
                    .as_ref()
                    .map_or(format!("from ${} (unset)", memval_embed::MODEL_ENV), |d| d.display().to_string());
                let cache = setup
                    .store_dir
                    .as_ref()
                    .map_or("each repo's REPO/.memval/store".to_owned(), |d| d.display().to_string());
                memval_proto::display::one_line(&format!("{name}, model {model}, embeddings cached in {cache}"))
            }
        }
    }

    /// For embed and both, that the model's files are where the setup says (keyword needs
    /// none). Opens no store, so a check never takes a running service's store.
    pub fn find_model(&self) -> Result<(), ReconcileError> {
        match self {
            Method::Keyword => Ok(()),
            Method::Embed(setup) | Method::Both(setup) => {
                ModelFiles::from_flag_or_env(setup.model_dir.as_deref()).map(|_| ()).map_err(ReconcileError::Embed)
            }
        }
    }
}

/// What the embed method needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedSetup {
    /// `--embed-model`; `None` reads `MEMVAL_EMBED_MODEL`.
    pub model_dir: Option<PathBuf>,
    /// The store holding the embedding cache; `None` caches nothing.
    pub store_dir: Option<PathBuf>,
}

/// What a `memval pairs` run produced, with what it could not read and where its cap came from.
#[derive(Debug, Clone)]
pub struct PairsRun {
    pub candidates: Candidates,
    pub format: Format,
    /// Files, lines or rows that could not be loaded (the rest was).
    pub problems: Vec<Problem>,
    /// Notes files found again under another name, loaded once (`memval_sources::Link`).
    pub links: Vec<memval_sources::Link>,
    /// Where the cap came from, and any clamping: one line for the user.
    pub cap_note: String,
    /// Settled pairs read from `reconcile_log`.
    pub resolved_read: usize,
    /// What the embed method embedded and found cached (not for `keyword`).
    pub embed: Option<EmbedStats>,
}

/// The cap [`Cap`] resolves to (`None` = no cap), and a line saying why.
pub fn resolve_cap(cap: Cap, config_cap: Option<i64>) -> (Option<usize>, String) {
    use memval_judge::plan::{clamp_pair_cap, DEFAULT_PAIR_CAP, MAX_PAIR_CAP};
    match (cap, config_cap) {
        (Cap::Given(0), _) => (None, "no cap (--cap 0)".into()),
        (Cap::Given(n), _) => (Some(n as usize), format!("cap {n} (--cap)")),
        (Cap::Default, Some(v)) => {
            let c = clamp_pair_cap(v);
            let clamped =
                if i64::from(c) != v { format!(", clamped from {v} to 1-{MAX_PAIR_CAP}") } else { String::new() };
            (Some(c as usize), format!("cap {c} (reconcile_pair_cap in memory.db{clamped})"))
        }
        (Cap::Default, None) => (Some(DEFAULT_PAIR_CAP as usize), format!("cap {DEFAULT_PAIR_CAP} (default)")),
    }
}

/// A [`Method`] ready to pair memories: for embed and both, the model found and the cache's
/// store open. `memval pairs`, `memval reconcile` and the reconciler service all pair through
/// it, so the three propose the same pairs from the same memories.
pub struct Pairer {
    method: Method,
    embed: Option<(ModelFiles, Option<memval_store::SledStore>)>,
}

impl Pairer {
    /// Finds the embed model (or reports its absence) and opens the cache's store; `keyword`
    /// never looks for either. Done before any memory is read, so a missing model is an
    /// error at once, not after a long scan.
    pub fn new(method: &Method) -> Result<Pairer, ReconcileError> {
        let embed = match method {
            Method::Keyword => None,
            Method::Embed(setup) | Method::Both(setup) => {
                let model = ModelFiles::from_flag_or_env(setup.model_dir.as_deref()).map_err(ReconcileError::Embed)?;
                let store =
                    setup.store_dir.as_deref().map(memval_store::open).transpose().map_err(ReconcileError::Store)?;
                Some((model, store))
            }
        };
        Ok(Pairer { method: method.clone(), embed })
    }

    /// The candidates of `memories` under `options`, and what embedding did (`None` for
    /// keyword).
    pub fn pairs(
        &self,
        memories: &[Memory],
        options: &Options,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(Candidates, Option<EmbedStats>), ReconcileError> {
        let Some((model, store)) = &self.embed else {
            return Ok((pairs::keyword_pairs(memories, options), None));
        };
        let table = store.as_ref().map(|s| s.embeddings()).transpose().map_err(ReconcileError::Store)?;
        let (found, stats) = embed_pairs::embed_pairs(memories, options, model, table.as_ref(), progress)?;
        let candidates = if matches!(self.method, Method::Both(_)) {
            embed_pairs::merge(pairs::keyword_pairs(memories, options), found, options.cap)
        } else {
            found
        };
        Ok((candidates, Some(stats)))
    }
}

/// What the embedding step did, as one line for the user (stderr, or a report's notes).
pub fn embed_note(e: &EmbedStats) -> String {
    let corrupt =
        if e.corrupt > 0 { format!(", {} unreadable cache records embedded again", e.corrupt) } else { String::new() };
    format!(
        "embed: {} texts embedded, {} from the cache ({}){corrupt}",
        e.embedded,
        e.cached,
        memval_proto::display::one_line(&e.model_id)
    )
}

/// Loads `memories` (with `repo` as the repository they describe) and pairs them by
/// `method`. `per_agent` 0 turns sampling off. The embed model is found (or its absence
/// reported) before any memory is read; `keyword` never looks for it.
pub fn run(
    memories: &Path,
    repo: &Path,
    cap: Cap,
    per_agent: usize,
    method: &Method,
    progress: &mut dyn FnMut(Progress),
) -> Result<PairsRun, ReconcileError> {
    let pairer = Pairer::new(method)?;
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
    let (candidates, stats) = pairer.pairs(&loaded.memories, &options, progress)?;
    Ok(PairsRun {
        candidates,
        format: loaded.format,
        problems: loaded.problems,
        links: loaded.links,
        cap_note,
        resolved_read,
        embed: stats,
    })
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
