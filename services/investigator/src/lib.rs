//! The investigator stage: gives every extracted claim a verdict with `file:line` evidence.
//!
//! Tier A is deterministic: one [`RepoIndex`] per run (a `.gitignore`-aware walk plus
//! tree-sitter symbol definitions) and the repo's git history. Claims that need judgement
//! (behavioral, architectural) get a verdict only where the index proves one; otherwise
//! they are reported as not checked, never as VALID — unless a Tier B investigator (an LLM
//! agent loop with read-only, repo-confined tools, [`tier_b`]) is configured, whose verdicts
//! are kept only when they pass the output contract and their `file:line` evidence checks out.
//!
//! This crate must never read outside the repo root (see [`confine`]), never write to the
//! repo, and never follow an instruction found in memory text or file contents.

mod check;
pub mod confine;
mod git;
pub mod index;
mod repos;
mod similar;
mod symbols;
mod usage;
pub mod tier_b;
pub mod tools;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use memval_proto::{CheckedMemory, ClaimBatch, ClaimResult, Outcome, VerdictBatch};
use memval_runtime::{Stage, StageError};

pub use check::{config_assignments, Checker};
pub use git::GitRepo;
pub use index::RepoIndex;
pub use repos::RepoRouter;
pub use tier_b::{TierB, TierBConfig, TierBStats};

/// Everything a run checks claims against.
pub struct Evidence {
    pub index: RepoIndex,
    pub git: Option<GitRepo>,
}

impl Evidence {
    /// Index `repo` and open its history. CPU-bound: call from a blocking thread.
    pub fn open(repo: &Path) -> std::io::Result<Evidence> {
        let index = RepoIndex::build(repo)?;
        let git = GitRepo::open(index.root.path());
        Ok(Evidence { index, git })
    }

    pub fn checker(&self) -> Checker<'_> {
        Checker { index: &self.index, git: self.git.as_ref() }
    }

    /// Verdicts for every claim of every memory in `batch`.
    pub fn check_batch(&self, batch: ClaimBatch) -> VerdictBatch {
        let checker = self.checker();
        let items = batch
            .items
            .into_iter()
            .map(|item| {
                let results = item
                    .claims
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
                CheckedMemory { total_claims: results.len() as u32, memory: item.memory, results, skip_reason: item.skip_reason, left_out: item.left_out }
            })
            .collect();
        VerdictBatch { batch_id: format!("{}.v", batch.batch_id), run: batch.run, items }
    }
}

/// How the reason of a claim the investigator failed on begins (a bug in memval, kept to
/// that one claim).
pub const INTERNAL_ERROR_REASON: &str = "not checked: memval's investigator failed on this claim (a bug; please report it)";

/// The Tier A investigator as a pipeline stage.
pub struct InvestigatorStage {
    repo: PathBuf,
    /// Built on first need; rebuilt when the checkout's HEAD has moved (a long-running
    /// service whose repo was updated).
    evidence: tokio::sync::Mutex<Option<Arc<Evidence>>>,
    /// The LLM investigator for claims Tier A cannot prove; `None` keeps them not checked.
    tier_b: Option<Arc<TierB>>,
}

impl InvestigatorStage {
    pub fn new(repo: impl Into<PathBuf>) -> Self {
        InvestigatorStage { repo: repo.into(), evidence: tokio::sync::Mutex::new(None), tier_b: None }
    }

    /// Send the claims Tier A leaves not checked to an LLM investigator.
    pub fn with_tier_b(mut self, tier_b: Option<Arc<TierB>>) -> Self {
        self.tier_b = tier_b;
        self
    }

    pub fn repo(&self) -> &Path {
        &self.repo
    }

    /// Build the index now (otherwise the first batch builds it).
    pub async fn prepare(&self) -> Result<Arc<Evidence>, StageError> {
        let mut slot = self.evidence.lock().await;
        match &*slot {
            Some(evidence) => Ok(evidence.clone()),
            None => {
                let evidence = self.build().await?;
                *slot = Some(evidence.clone());
                Ok(evidence)
            }
        }
    }

    async fn build(&self) -> Result<Arc<Evidence>, StageError> {
        let repo = self.repo.clone();
        tokio::task::spawn_blocking(move || {
            let started = std::time::Instant::now();
            let evidence = Evidence::open(&repo)?;
            let stats = &evidence.index.stats;
            tracing::info!(
                repo = %repo.display(),
                files = stats.files,
                text_files = stats.text_files,
                lines = stats.lines,
                identifiers = stats.identifiers,
                git = evidence.git.is_some(),
                seconds = started.elapsed().as_secs_f64(),
                "repo indexed"
            );
            Ok::<_, std::io::Error>(evidence)
        })
        .await
            .map_err(|e| StageError::Fatal(format!("indexing panicked: {e}")))?
            .map(Arc::new)
            .map_err(|e| StageError::Fatal(format!("cannot index repo {}: {e}", self.repo.display())))
    }

    /// The evidence for a run that checks `wanted`. Checking other code than the run names
    /// would give silently wrong verdicts, so a checkout at another commit is refused. The
    /// refusal is retryable: another replica may hold the right commit; once the runtime
    /// has tried often enough it dead-letters the batch with this reason, which the
    /// submitting client reports.
    async fn evidence_at(&self, run_id: &str, wanted: Option<&str>) -> Result<Arc<Evidence>, StageError> {
        let evidence = self.prepare().await?;
        let indexed = evidence.git.as_ref().map(|g| g.head.clone());
        let (Some(wanted), Some(indexed)) = (wanted, indexed) else { return Ok(evidence) };
        if wanted == indexed {
            return Ok(evidence);
        }
        let mut slot = self.evidence.lock().await;
        let repo = self.repo.clone();
        let current = tokio::task::spawn_blocking(move || GitRepo::open(&repo).map(|g| g.head))
            .await
            .map_err(|e| StageError::Retryable(format!("reading HEAD panicked: {e}")))?;
        if current.as_deref() == Some(wanted) {
            if let Some(ready) = slot.as_ref().filter(|e| e.git.as_ref().map(|g| g.head.as_str()) == Some(wanted)) {
                return Ok(ready.clone());
            }
            tracing::info!(repo = %self.repo.display(), head = wanted, "repo moved to a new commit, re-indexing");
            let rebuilt = self.build().await?;
            *slot = Some(rebuilt.clone());
            return Ok(rebuilt);
        }
        Err(StageError::Retryable(format!(
            "run {run_id} checks commit {wanted} but {} is at {}; check out that commit or point this investigator at a matching worktree",
            self.repo.display(),
            current.as_deref().unwrap_or(&indexed)
        )))
    }
}

impl Stage for InvestigatorStage {
    type In = ClaimBatch;
    type Out = VerdictBatch;

    fn name(&self) -> &'static str {
        "investigator"
    }

    async fn process(&self, batch: ClaimBatch) -> Result<Vec<VerdictBatch>, StageError> {
        let evidence = self.evidence_at(&batch.run.run_id, batch.run.commit.as_deref()).await?;
        let tier_a = evidence.clone();
        let verdicts = tokio::task::spawn_blocking(move || tier_a.check_batch(batch))
            .await
            .map_err(|e| StageError::Permanent(format!("checking panicked: {e}")))?;
        let verdicts = match &self.tier_b {
            Some(tier_b) => tier_b.refine(evidence, verdicts).await,
            None => verdicts,
        };
        Ok(vec![verdicts])
    }
}
