//! The investigator's pipeline stage for one checkout ([`InvestigatorStage`]); a cluster
//! investigator's several checkouts are picked by [`crate::RepoRouter`].
//!
//! The stage checks every batch against the commit its run names: it re-indexes when the
//! checkout's `HEAD` has moved since it was indexed (a long-running service after a pull), and
//! refuses a batch for another commit (retryable, so another replica may take it; dead-lettered
//! with "run R checks commit X but PATH is at Y" in the end). There are no wrong-commit verdicts.
//! With a model, `with_tier_b` adds the Tier B loop to the stage.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use memval_proto::{ClaimBatch, VerdictBatch};
use memval_runtime::{Stage, StageError};

use memval_git::GitRepo;

use crate::evidence::Evidence;
use crate::model::TierB;

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
        let verdicts = tokio::task::spawn_blocking(move || {
            let started = std::time::Instant::now();
            let claims: usize = batch.items.iter().map(|m| m.claims.len()).sum();
            let verdicts = tier_a.check_batch(batch);
            tracing::debug!(target: "memval::timing", claims, seconds = started.elapsed().as_secs_f64(), "batch checked");
            verdicts
        })
            .await
            .map_err(|e| StageError::Permanent(format!("checking panicked: {e}")))?;
        let verdicts = match &self.tier_b {
            Some(tier_b) => tier_b.refine(evidence, verdicts).await,
            None => verdicts,
        };
        Ok(vec![verdicts])
    }
}
