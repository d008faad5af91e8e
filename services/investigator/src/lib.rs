//! The investigator stage: gives every extracted claim a verdict with `file:line` evidence.
//!
//! Tier A is deterministic: one [`RepoIndex`] per run (a `.gitignore`-aware walk plus
//! tree-sitter symbol definitions) and the repo's git history. Claims that need judgement
//! (behavioral, architectural) get a verdict only where the index proves one; otherwise
//! they are reported as not checked, never as VALID.
//!
//! This crate must never read outside the repo root (see [`confine`]), never write to the
//! repo, and never follow an instruction found in memory text or file contents.

mod check;
pub mod confine;
mod git;
pub mod index;
mod similar;
mod symbols;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use memval_proto::{CheckedMemory, ClaimBatch, ClaimResult, VerdictBatch};
use memval_runtime::{Stage, StageError};
use tokio::sync::OnceCell;

pub use check::{config_assignments, Checker};
pub use git::GitRepo;
pub use index::RepoIndex;

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
                        let outcome = checker.check(&claim, &item.memory);
                        ClaimResult { index: i as u32, claim, outcome }
                    })
                    .collect::<Vec<_>>();
                CheckedMemory { total_claims: results.len() as u32, memory: item.memory, results, skip_reason: item.skip_reason }
            })
            .collect();
        VerdictBatch { batch_id: format!("{}.v", batch.batch_id), run: batch.run, items }
    }
}

/// The Tier A investigator as a pipeline stage.
pub struct InvestigatorStage {
    repo: PathBuf,
    evidence: OnceCell<Arc<Evidence>>,
}

impl InvestigatorStage {
    pub fn new(repo: impl Into<PathBuf>) -> Self {
        InvestigatorStage { repo: repo.into(), evidence: OnceCell::new() }
    }

    /// Build the index now (otherwise the first batch builds it).
    pub async fn prepare(&self) -> Result<Arc<Evidence>, StageError> {
        self.evidence
            .get_or_try_init(|| async {
                let repo = self.repo.clone();
                tokio::task::spawn_blocking(move || Evidence::open(&repo))
                    .await
                    .map_err(|e| StageError::Fatal(format!("indexing panicked: {e}")))?
                    .map(Arc::new)
                    .map_err(|e| StageError::Fatal(format!("cannot index repo {}: {e}", self.repo.display())))
            })
            .await
            .cloned()
    }
}

impl Stage for InvestigatorStage {
    type In = ClaimBatch;
    type Out = VerdictBatch;

    fn name(&self) -> &'static str {
        "investigator"
    }

    async fn process(&self, batch: ClaimBatch) -> Result<Vec<VerdictBatch>, StageError> {
        let evidence = self.prepare().await?;
        let local_head = evidence.git.as_ref().map(|g| g.head.as_str());
        if let (Some(wanted), Some(local)) = (batch.run.commit.as_deref(), local_head) {
            if wanted != local {
                // Checking against other code than the run names would give silently wrong
                // verdicts; refuse instead.
                return Err(StageError::Fatal(format!(
                    "run {} checks commit {wanted} but {} is at {local}; check out that commit or point this investigator at a matching worktree",
                    batch.run.run_id,
                    self.repo.display()
                )));
            }
        }
        let verdicts = tokio::task::spawn_blocking(move || evidence.check_batch(batch))
            .await
            .map_err(|e| StageError::Permanent(format!("checking panicked: {e}")))?;
        Ok(vec![verdicts])
    }
}
