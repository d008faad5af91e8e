//! The model stages of a run (model extraction, the Tier B investigator) from a configured
//! model, their result cache in the store, and the docs/contracts.md §4 order that decides what a model
//! budget defers.

use std::collections::HashMap;
use std::sync::Arc;

use memval_llm::{ChatModel, LlmClient, LlmConfig, ResultCache};
use memval_proto::Memory;
use memval_store::{KvTable, ScoreStore, SledStore, StoreError};

use crate::Error;

/// Per-stage limits of model work (docs/contracts.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageLimits {
    /// Memories per extraction call.
    pub memories_per_batch: usize,
    /// Extraction calls per run; 0: no model extraction.
    pub extract_batches: usize,
    /// Claims per investigator call.
    pub claims_per_batch: usize,
    /// Investigator calls per run; 0: no LLM investigator.
    pub investigate_batches: usize,
    /// Tool calls the investigator may make per batch.
    pub tool_budget: usize,
}

/// The model stages of one run, or of one long-running service (whose budget and spending
/// are then the process's, across runs).
#[derive(Clone)]
pub struct ModelStages {
    pub model: Arc<dyn ChatModel>,
    pub extractor: Option<memval_extractor::LlmExtractorStage>,
    pub tier_b: Option<Arc<memval_investigator::TierB>>,
}

impl ModelStages {
    /// The stages `limits` ask for, calling the model `config` describes.
    pub fn new(config: LlmConfig, limits: StageLimits) -> Result<ModelStages, Error> {
        let client = LlmClient::new(config)?;
        let model: Arc<dyn ChatModel> = Arc::new(client);
        let extractor = (limits.extract_batches > 0).then(|| {
            memval_extractor::LlmExtractorStage::new(
                model.clone(),
                memval_extractor::LlmExtractorConfig {
                    memories_per_batch: limits.memories_per_batch,
                    batches_per_run: limits.extract_batches,
                },
            )
        });
        let tier_b = (limits.investigate_batches > 0).then(|| {
            Arc::new(memval_investigator::TierB::new(
                model.clone(),
                memval_investigator::TierBConfig {
                    claims_per_batch: limits.claims_per_batch,
                    batches_per_run: limits.investigate_batches,
                    tool_budget: limits.tool_budget,
                },
            ))
        });
        Ok(ModelStages { model, extractor, tier_b })
    }

    /// Keep the stages' results in `cache` (the same input, model and prompt version is
    /// never paid for twice).
    pub fn use_cache(&self, cache: Arc<dyn ResultCache>) {
        if let Some(e) = &self.extractor {
            e.set_cache(cache.clone());
        }
        if let Some(t) = &self.tier_b {
            t.set_cache(cache);
        }
    }

    /// The report's `llm` section: the model, its spending per stage, and what each model
    /// stage did (including how often its output was discarded).
    pub fn report_section(&self, run_id: &str) -> serde_json::Value {
        serde_json::json!({
            "model": self.model.name(),
            "prompt_versions": {
                "extractor": memval_extractor::model::prompt::PROMPT_VERSION,
                "investigator": memval_investigator::model::prompt::PROMPT_VERSION,
            },
            "usage": self.model.usage(),
            "extractor": self.extractor.as_ref().map(|e| e.take_stats(run_id)),
            "investigator": self.tier_b.as_ref().map(|t| t.take_stats(run_id)),
        })
    }
}

/// The store's `llm_cache` table as the model stages' result cache.
pub struct StoreCache(KvTable);

impl StoreCache {
    pub fn new(store: &SledStore) -> Result<StoreCache, StoreError> {
        Ok(StoreCache(store.table("llm_cache")?))
    }
}

impl ResultCache for StoreCache {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.0.get(key.as_bytes()).unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot read the llm cache");
            None
        })
    }

    fn put(&self, key: &str, value: &[u8]) {
        if let Err(e) = self.0.put(key.as_bytes(), value) {
            tracing::warn!(error = %e, "cannot write the llm cache");
        }
    }
}

/// docs/contracts.md §4 order for work a budget may defer: memories this store never validated first, then
/// the longest since validated. A stable sort, so ties keep the input's order. With batches
/// running in parallel the cut-off is approximate, one batch either way.
pub fn prioritise(memories: &mut [Memory], store: &dyn ScoreStore) -> Result<(), StoreError> {
    let mut last: HashMap<(String, String), i64> = HashMap::new();
    for point in store.history("")? {
        let at = last.entry((point.memory_id, point.source)).or_insert(point.started_at);
        *at = (*at).max(point.started_at);
    }
    memories.sort_by_key(|m| match last.get(&(m.id.clone(), m.source.to_string())) {
        None => (0, 0),
        Some(&at) => (1, at),
    });
    Ok(())
}
