//! Which local checkout answers a run: a cluster's investigators map the repo name a run
//! carries to a path of their own.
//!
//! `RepoRouter` picks the checkout for a run's repo name when one service serves several repos
//! (`--repo-map NAME=PATH`: the exact name, then the last path component; `--repo PATH` for any
//! other name); its `Stage` impl hands the batch to that checkout's [`InvestigatorStage`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use memval_proto::{ClaimBatch, VerdictBatch};
use memval_runtime::{Stage, StageError};

use crate::model::TierB;
use crate::stage::InvestigatorStage;

/// Investigators for several repos, picked by the run's repo name: an exact name first,
/// then the last component of a path-like name (a run submitted as `/home/me/src/shop`
/// matches `shop`), then the default checkout, if any.
pub struct RepoRouter {
    named: BTreeMap<String, InvestigatorStage>,
    default: Option<InvestigatorStage>,
}

impl RepoRouter {
    pub fn new(named: impl IntoIterator<Item = (String, PathBuf)>, default: Option<PathBuf>) -> RepoRouter {
        RepoRouter {
            named: named.into_iter().map(|(name, path)| (name, InvestigatorStage::new(path))).collect(),
            default: default.map(InvestigatorStage::new),
        }
    }

    /// Check the claims Tier A leaves open with `tier_b` in every checkout (`None`: no model).
    pub fn with_tier_b(self, tier_b: Option<Arc<TierB>>) -> RepoRouter {
        RepoRouter {
            named: self.named.into_iter().map(|(name, stage)| (name, stage.with_tier_b(tier_b.clone()))).collect(),
            default: self.default.map(|stage| stage.with_tier_b(tier_b)),
        }
    }

    /// Index every configured checkout now, so a bad path fails at start-up.
    pub async fn prepare(&self) -> Result<(), StageError> {
        for stage in self.named.values().chain(self.default.as_ref()) {
            stage.prepare().await?;
        }
        Ok(())
    }

    pub fn pick(&self, repo: &str) -> Option<&InvestigatorStage> {
        if let Some(stage) = self.named.get(repo) {
            return Some(stage);
        }
        let last = Path::new(repo.trim_end_matches(['/', '\\'])).file_name().and_then(|n| n.to_str());
        last.and_then(|name| self.named.get(name)).or(self.default.as_ref())
    }
}

impl Stage for RepoRouter {
    type In = ClaimBatch;
    type Out = VerdictBatch;

    fn name(&self) -> &'static str {
        "investigator"
    }

    async fn process(&self, batch: ClaimBatch) -> Result<Vec<VerdictBatch>, StageError> {
        match self.pick(&batch.run.repo) {
            Some(stage) => stage.process(batch).await,
            // Retryable for the same reason as a commit mismatch: another replica may
            // serve this repo; if none does, the batch is dead-lettered with this reason.
            None => Err(StageError::Retryable(format!(
                "no checkout of repo {:?} on this investigator; start it with --repo-map {}=PATH",
                batch.run.repo,
                Path::new(&batch.run.repo).file_name().and_then(|n| n.to_str()).unwrap_or(&batch.run.repo)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_exactly_then_by_last_component_then_fall_back() {
        let router = RepoRouter::new([("shop".to_owned(), PathBuf::from("/srv/shop"))], None);
        assert_eq!(router.pick("shop").map(|s| s.repo()), Some(Path::new("/srv/shop")));
        assert_eq!(router.pick("/home/me/src/shop/").map(|s| s.repo()), Some(Path::new("/srv/shop")));
        assert!(router.pick("other").is_none());
        let with_default = RepoRouter::new([], Some(PathBuf::from("/srv/any")));
        assert_eq!(with_default.pick("other").map(|s| s.repo()), Some(Path::new("/srv/any")));
    }
}
