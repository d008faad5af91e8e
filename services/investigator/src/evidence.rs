//! Everything one run checks claims against (the repo index and its history), and the Tier A
//! pass over a batch: each memory's claims read in the light of its other references, and a
//! bug on one claim kept to that claim.
//!
//! `Evidence::check_batch` checks a batch's claims against the index and history, building one
//! `MemoryContext` per memory from all its claims ([`crate::check`], its `context` module). A panic
//! while checking one claim is caught and that claim is `not_checked` with the panic's message.
//!
//! **Architecture Invariant:** a claim the investigator cannot prove is `not_checked`, never VALID.

use std::path::Path;
use std::sync::Arc;

use memval_git::{Cache, GitRepo, Progress};
use memval_proto::{CheckedMemory, ClaimBatch, ClaimResult, ExtractedMemory, Outcome, VerdictBatch};

use crate::check::{Checker, MemoryContext};
use crate::index::RepoIndex;

/// Everything a run checks claims against.
pub struct Evidence {
    pub index: RepoIndex,
    pub git: Option<GitRepo>,
}

impl Evidence {
    /// Index `repo` and open its history. CPU-bound: call from a blocking thread.
    pub fn open(repo: &Path) -> std::io::Result<Evidence> {
        Evidence::open_keeping(repo, None, None)
    }

    /// [`Evidence::open`], with the history and name log kept in `cache` between runs, and
    /// `progress` told what a long first run is doing.
    pub fn open_keeping(
        repo: &Path,
        cache: Option<Arc<dyn Cache>>,
        progress: Option<Progress>,
    ) -> std::io::Result<Evidence> {
        let started = std::time::Instant::now();
        let mut index = RepoIndex::build(repo)?;
        // Said when it was long enough to wonder about (a large tree, a cold disk).
        if let Some(progress) = progress.as_ref().filter(|_| started.elapsed().as_secs_f64() >= 1.0) {
            let stats = &index.stats;
            progress(&format!(
                "indexed {} files ({} lines) in {:.1}s",
                stats.files,
                stats.lines,
                started.elapsed().as_secs_f64()
            ));
        }
        let mut git = GitRepo::open(index.root.path());
        if let Some(progress) = progress {
            git = git.map(|g| g.with_progress(progress));
        }
        if let Some(cache) = cache {
            crate::kept_defs::forget_other_builds(&*cache);
            index = index.with_cache(cache.clone());
            git = git.map(|g| g.with_cache(cache));
        }
        Ok(Evidence { index, git })
    }

    pub fn checker(&self) -> Checker<'_> {
        Checker { index: &self.index, git: self.git.as_ref(), context: MemoryContext::none() }
    }

    /// Verdicts for every claim of every memory in `batch`.
    pub fn check_batch(&self, batch: ClaimBatch) -> VerdictBatch {
        let items = batch
            .items
            .into_iter()
            .map(|mut item| {
                // Each claim is read in the light of the memory's other references.
                let own_file = self.index.memory_file(&item.memory);
                let context = MemoryContext::of(&item.claims).for_memory(&item.memory).in_file(own_file);
                let checker = Checker { context: &context, ..self.checker() };
                let results = std::mem::take(&mut item.claims)
                    .into_iter()
                    .enumerate()
                    .map(|(i, claim)| {
                        // A bug on one claim is that claim's outcome, not the batch's loss.
                        let outcome = memval_runtime::panics::catch(|| checker.check(&claim, &item.memory))
                            .unwrap_or_else(|panic| {
                                tracing::error!(memory = %item.memory.id, source = %item.memory.source, panic = %panic.escape_debug(), "the investigator failed on a claim");
                                Outcome::NotChecked { reason: format!("{INTERNAL_ERROR_REASON}: {panic}") }
                            });
                        ClaimResult { index: i as u32, claim, outcome }
                    })
                    .collect::<Vec<_>>();
                checked(item, results)
            })
            .collect();
        VerdictBatch { batch_id: format!("{}.v", batch.batch_id), run: batch.run, items }
    }
}

/// A memory with the verdicts of its claims (kept ones: `kept.rs`), as [`Evidence::check_batch`]
/// makes it.
pub(crate) fn checked(item: ExtractedMemory, results: Vec<ClaimResult>) -> CheckedMemory {
    CheckedMemory {
        total_claims: results.len() as u32,
        memory: item.memory,
        results,
        skip_reason: item.skip_reason,
        left_out: item.left_out,
    }
}

/// How the reason of a claim the investigator failed on begins (a bug in memval, kept to
/// that one claim).
pub const INTERNAL_ERROR_REASON: &str =
    "not checked: memval's investigator failed on this claim (a bug; please report it)";
