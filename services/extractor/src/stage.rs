use memval_proto::{ClaimBatch, MemoryBatch};
use memval_runtime::{Stage, StageError};

use crate::extract;

/// The rule-based extractor as a pipeline stage: one claim batch per memory batch, whole
/// memories only, so the scorer can tell when a memory is complete.
#[derive(Debug, Default, Clone, Copy)]
pub struct ExtractorStage;

impl Stage for ExtractorStage {
    type In = MemoryBatch;
    type Out = ClaimBatch;

    fn name(&self) -> &'static str {
        "extractor"
    }

    async fn process(&self, batch: MemoryBatch) -> Result<Vec<ClaimBatch>, StageError> {
        let items = batch.memories.iter().map(extract).collect();
        Ok(vec![ClaimBatch { batch_id: format!("{}.c", batch.batch_id), run: batch.run, items }])
    }
}
