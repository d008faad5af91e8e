//! The extractor's pipeline stages: rules only ([`ExtractorStage`]), and rules plus a model
//! ([`LlmExtractorStage`]). Both answer one claim batch per memory batch.

use memval_proto::{ClaimBatch, ExtractedMemory, Memory, MemoryBatch};
use memval_runtime::{Stage, StageError};

use crate::extract::extract;
use crate::model::{merge_into, ExtractionStats, LlmExtractorStage};

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

impl Stage for LlmExtractorStage {
    type In = MemoryBatch;
    type Out = ClaimBatch;

    fn name(&self) -> &'static str {
        "extractor"
    }

    async fn process(&self, batch: MemoryBatch) -> Result<Vec<ClaimBatch>, StageError> {
        let mut items: Vec<ExtractedMemory> = batch.memories.iter().map(extract).collect();
        let mut stats = ExtractionStats::default();
        let cache = self.inner.cache.get().cloned();
        let mut todo = Vec::new();
        for (i, memory) in batch.memories.iter().enumerate() {
            // A record of the past, or another project's vendored doc, is not read for today's
            // claims, by the model either.
            if crate::extract::kind_skip_reason(&memory.kind).is_some() {
                continue;
            }
            let cached = cache
                .as_ref()
                .and_then(|c| c.get(&self.cache_key(memory)))
                .and_then(|bytes| serde_json::from_slice::<Vec<memval_proto::Claim>>(&bytes).ok());
            match cached {
                Some(claims) => {
                    stats.cache_hits += 1;
                    merge_into(&mut items[i], claims, &mut stats);
                }
                None => todo.push(i),
            }
        }
        let chunks: Vec<Vec<usize>> =
            todo.chunks(self.inner.config.memories_per_batch).map(<[usize]>::to_vec).collect();
        let mut granted = Vec::new();
        for chunk in chunks {
            if self.reserve(&batch.run.run_id) {
                granted.push(chunk);
            } else {
                stats.deferred_memories += chunk.len();
            }
        }
        if stats.deferred_memories > 0 {
            stats.note(format!(
                "{} memories deferred to the next run: the run's {} extraction calls are used up (rules only)",
                stats.deferred_memories, self.inner.config.batches_per_run
            ));
        }
        let calls = granted.iter().enumerate().map(|(n, chunk)| {
            let memories: Vec<&Memory> = chunk.iter().map(|&i| &batch.memories[i]).collect();
            let id = format!("{}#x{n}", batch.batch_id);
            async move {
                let mut s = ExtractionStats::default();
                let claims = self.ask(&id, &memories, &mut s).await;
                (claims, s)
            }
        });
        for (chunk, (claims, s)) in granted.iter().zip(futures::future::join_all(calls).await) {
            stats.absorb(s);
            for (&i, model_claims) in chunk.iter().zip(claims) {
                let Some(model_claims) = model_claims else { continue };
                if let (Some(cache), Ok(bytes)) = (&cache, serde_json::to_vec(&model_claims)) {
                    cache.put(&self.cache_key(&batch.memories[i]), &bytes);
                }
                merge_into(&mut items[i], model_claims, &mut stats);
            }
        }
        {
            let mut runs = self.inner.runs.lock().unwrap_or_else(|e| e.into_inner());
            runs.entry(batch.run.run_id.clone()).or_default().1.absorb(stats);
        }
        Ok(vec![ClaimBatch { batch_id: format!("{}.c", batch.batch_id), run: batch.run, items }])
    }
}
