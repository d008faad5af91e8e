//! The scorer as a pipeline stage: verdict batches in, the scores of memories completed by
//! them out, on the run's own subject.
//!
//! A store this process can write no more (a full disk, any failed write:
//! [`StoreError::needs_new_process`]) is fatal: the batch goes back to the queue, not to the
//! dead letters, and the stage stops, saying why, so that its supervisor starts a new scorer
//! that opens the store afresh once there is room. Any other store error is retried.

use memval_proto::{ScoreBatch, VerdictBatch};
use memval_runtime::{Stage, StageError};
use memval_store::StoreError;

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
        .map_err(store_failure)?;
        Ok(if scored.items.is_empty() { Vec::new() } else { vec![scored] })
    }
}

/// What a store error means for the batch: fatal when only a new process can write the store
/// again, a retry otherwise.
fn store_failure(e: StoreError) -> StageError {
    if e.needs_new_process() {
        StageError::Fatal(format!(
            "{e}. The scorer stops: this process cannot write its store again, a new one can once the disk has room (its supervisor restarts it; the batch stays queued)"
        ))
    } else {
        StageError::Retryable(e.to_string())
    }
}
