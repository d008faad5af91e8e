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

use memval_proto::{ClaimBatch, ClaimResult, ExtractedMemory, VerdictBatch};
use memval_runtime::{Stage, StageError};

use memval_git::{Cache, GitRepo, Progress};

use crate::evidence::{checked, Evidence};
use crate::kept::KeptVerdicts;
use crate::model::TierB;

/// The Tier A investigator as a pipeline stage.
pub struct InvestigatorStage {
    repo: PathBuf,
    /// Where verdicts, history and the name log are kept between runs (`kept.rs`), if anywhere.
    cache: Option<Arc<dyn Cache>>,
    /// The kept verdicts of the checkout's state, looked up once (`None`: nothing is kept).
    kept: tokio::sync::OnceCell<Option<Arc<KeptVerdicts>>>,
    /// Told what indexing and a first read of history are doing.
    progress: Option<Progress>,
    /// Built on first need; rebuilt when the checkout's HEAD has moved (a long-running
    /// service whose repo was updated).
    evidence: tokio::sync::Mutex<Option<Arc<Evidence>>>,
    /// The LLM investigator for claims Tier A cannot prove; `None` keeps them not checked.
    tier_b: Option<Arc<TierB>>,
}

impl InvestigatorStage {
    pub fn new(repo: impl Into<PathBuf>) -> Self {
        InvestigatorStage {
            repo: repo.into(),
            cache: None,
            kept: tokio::sync::OnceCell::new(),
            progress: None,
            evidence: tokio::sync::Mutex::new(None),
            tier_b: None,
        }
    }

    /// Tell `progress`, a line each, what indexing and a first read of history are doing.
    pub fn with_progress(mut self, progress: Progress) -> Self {
        self.progress = Some(progress);
        self
    }

    /// Keep verdicts, history and the name log in `cache`, and answer from what earlier runs
    /// kept there. For a stage that lives for one run: the checkout's state is read once.
    pub fn with_cache(mut self, cache: Arc<dyn Cache>) -> Self {
        self.cache = Some(cache);
        self
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
        let cache = self.cache.clone();
        let progress = self.progress.clone();
        tokio::task::spawn_blocking(move || {
            let started = std::time::Instant::now();
            let evidence = Evidence::open_keeping(&repo, cache, progress)?;
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
        let (run_id, commit) = (batch.run.run_id.clone(), batch.run.commit.clone());
        let (verdicts, evidence) = match self.kept_verdicts(commit.as_deref()).await {
            Some(kept) => self.check_keeping(batch, kept).await?,
            None => {
                let evidence = self.evidence_at(&run_id, commit.as_deref()).await?;
                (check(evidence.clone(), batch).await?, Some(evidence))
            }
        };
        let verdicts = match &self.tier_b {
            Some(tier_b) => {
                let evidence = match evidence {
                    Some(evidence) => evidence,
                    None => self.evidence_at(&run_id, commit.as_deref()).await?,
                };
                tier_b.refine(evidence, verdicts).await
            }
            None => verdicts,
        };
        Ok(vec![verdicts])
    }
}

impl InvestigatorStage {
    /// The verdicts kept for the checkout's current state, when there is a cache, git can
    /// say what the state is, and it is at the commit the run checks.
    async fn kept_verdicts(&self, commit: Option<&str>) -> Option<Arc<KeptVerdicts>> {
        let cache = self.cache.clone()?;
        let repo = self.repo.clone();
        let kept = self.kept.get_or_init(|| async move {
            match tokio::task::spawn_blocking(move || memval_git::worktree_state(&repo)).await {
                Ok(Ok(state)) => Some(Arc::new(KeptVerdicts::new(cache, &state.head, &state.digest))),
                Ok(Err(e)) => {
                    tracing::info!(error = %e, "the checkout's state is unknown; no verdict is kept");
                    None
                }
                Err(_) => None,
            }
        });
        kept.await.clone().filter(|k| commit.is_none_or(|c| k.head() == c))
    }

    /// Verdicts of `batch`: those kept for its memories, and the rest checked (and kept).
    async fn check_keeping(
        &self,
        batch: ClaimBatch,
        kept: Arc<KeptVerdicts>,
    ) -> Result<(VerdictBatch, Option<Arc<Evidence>>), StageError> {
        let root = self.repo.clone();
        let lookup = kept.clone();
        let items = batch.items;
        let (items, found) = tokio::task::spawn_blocking(move || {
            let found: Vec<(Option<String>, Option<Vec<ClaimResult>>)> = items
                .iter()
                .map(|item| {
                    let key = lookup.key(item);
                    let results = key.as_deref().and_then(|k| lookup.get(k, &root));
                    (key, results)
                })
                .collect();
            (items, found)
        })
        .await
        .map_err(|e| StageError::Permanent(format!("reading kept verdicts panicked: {e}")))?;
        let (mut done, mut missing, mut keys) = (Vec::new(), Vec::new(), Vec::new());
        for (i, (item, (key, results))) in items.into_iter().zip(found).enumerate() {
            match results {
                Some(results) => done.push((i, checked(item, results))),
                None => {
                    keys.push(key);
                    missing.push((i, item));
                }
            }
        }
        let run = batch.run;
        let batch_id = batch.batch_id;
        tracing::debug!(target: "memval::kept", batch = %batch_id, reused = done.len(), checked = missing.len(), "kept verdicts");
        let mut evidence = None;
        if !missing.is_empty() {
            let ready = self.evidence_at(&run.run_id, run.commit.as_deref()).await?;
            let (order, items): (Vec<usize>, Vec<ExtractedMemory>) = missing.into_iter().unzip();
            let sub = ClaimBatch { run: run.clone(), batch_id: batch_id.clone(), items };
            let checked = check(ready.clone(), sub).await?;
            let outside = ready.index.outside_reads();
            for (key, item) in keys.iter().zip(&checked.items) {
                if let Some(key) = key {
                    kept.put(key, &item.results, outside.clone());
                }
            }
            done.extend(order.into_iter().zip(checked.items));
            evidence = Some(ready);
        }
        done.sort_by_key(|(i, _)| *i);
        let items = done.into_iter().map(|(_, item)| item).collect();
        Ok((VerdictBatch { batch_id: format!("{batch_id}.v"), run, items }, evidence))
    }
}

/// Tier A verdicts of every claim of `batch`, on a blocking thread.
async fn check(evidence: Arc<Evidence>, batch: ClaimBatch) -> Result<VerdictBatch, StageError> {
    tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        let claims: usize = batch.items.iter().map(|m| m.claims.len()).sum();
        let verdicts = evidence.check_batch(batch);
        tracing::debug!(target: "memval::timing", claims, seconds = started.elapsed().as_secs_f64(), "batch checked");
        verdicts
    })
    .await
    .map_err(|e| StageError::Permanent(format!("checking panicked: {e}")))
}
