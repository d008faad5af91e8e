//! The scorer as a pipeline stage: verdict batches in, the scores of memories completed by
//! them out, on the run's own subject.

use memval_proto::{ScoreBatch, VerdictBatch};
use memval_runtime::{Stage, StageError};

use crate::ScorerStage;

impl Stage for ScorerStage {
    type In = VerdictBatch;
    type Out = ScoreBatch;

    fn name(&self) -> &'static str {
        "scorer"
    }

    async fn process(&self, batch: VerdictBatch) -> Result<Vec<ScoreBatch>, StageError> {
        let store = self.store.clone();
        let flush = self.flush_every_batch;
        let scored = tokio::task::spawn_blocking(move || {
            if flush {
                ScorerStage::record(&*store, batch)
            } else {
                ScorerStage::record_unflushed(&*store, batch)
            }
        })
        .await
        .map_err(|e| StageError::Permanent(format!("scoring panicked: {e}")))?
        .map_err(|e| StageError::Retryable(e.to_string()))?;
        Ok(if scored.items.is_empty() { Vec::new() } else { vec![scored] })
    }
}
