//! Claim extraction with a model as well as the rules (docs/contracts.md §2, §4).
//!
//! [`LlmExtractorStage`] runs the rule extractor on every memory, and asks the model for the
//! claims of up to 10 memories per call, at most 10 calls per run; memories beyond that keep
//! their rule claims and are counted as deferred. The model's claims pass [`contract`] and
//! are merged after the rules' (duplicates dropped, at most 8 per memory). A malformed answer
//! is retried once, then the batch is deferred; a call that gets no answer leaves the rules'
//! claims. The model is injected ([`ChatModel`]): this module builds prompts and checks
//! answers, and never reads or writes a file.
//!
//! The merge keeps every rule claim and at most 8 model claims beside them; a model claim with
//! the same text as a kept claim, or the same type and anchors, is a duplicate. The stage impl
//! of [`LlmExtractorStage`] is in `stage.rs`; how model calls are made, cached and budgeted is in
//! `docs/llm.md`.

pub mod contract;
pub mod prompt;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use memval_llm::{cache_key, ChatModel, LlmError, ResultCache};
use memval_proto::{ExtractedMemory, Memory};
use serde::Serialize;

use crate::extract::NO_CLAIMS_REASON;

/// Name the extractor's model usage is counted under.
pub const STAGE: &str = "extractor";
const MAX_NOTES: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LlmExtractorConfig {
    pub memories_per_batch: usize,
    pub batches_per_run: usize,
}

impl Default for LlmExtractorConfig {
    /// docs/contracts.md §4: 10 memories per call, 10 calls per run.
    fn default() -> Self {
        LlmExtractorConfig { memories_per_batch: 10, batches_per_run: 10 }
    }
}

/// What model extraction did in a run, for the report.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ExtractionStats {
    pub batches: usize,
    pub memories_sent: usize,
    /// Model claims that passed the contract.
    pub claims_kept: usize,
    /// Model claims that broke it (type, path, traceability, over 8).
    pub claims_dropped: usize,
    /// Model claims the rules had already found.
    pub duplicates: usize,
    /// Model claims added to the rules' (after duplicates and the cap of 8).
    pub claims_added: usize,
    pub retries: usize,
    /// Batches whose answer was malformed twice (their memories keep the rules' claims).
    pub malformed_batches: usize,
    /// Batches the model never answered.
    pub failed_batches: usize,
    /// Memories beyond the run's calls, left to a later run.
    pub deferred_memories: usize,
    /// Memories answered from the result cache (same text, same model, same prompt).
    pub cache_hits: usize,
    pub notes: Vec<String>,
}

impl ExtractionStats {
    pub(crate) fn note(&mut self, n: String) {
        if self.notes.len() < MAX_NOTES {
            self.notes.push(n);
        }
    }

    pub(crate) fn absorb(&mut self, o: ExtractionStats) {
        self.batches += o.batches;
        self.memories_sent += o.memories_sent;
        self.claims_kept += o.claims_kept;
        self.claims_dropped += o.claims_dropped;
        self.duplicates += o.duplicates;
        self.claims_added += o.claims_added;
        self.retries += o.retries;
        self.malformed_batches += o.malformed_batches;
        self.failed_batches += o.failed_batches;
        self.deferred_memories += o.deferred_memories;
        self.cache_hits += o.cache_hits;
        for n in o.notes {
            self.note(n);
        }
    }
}

pub(crate) struct Inner {
    model: Arc<dyn ChatModel>,
    pub(crate) config: LlmExtractorConfig,
    pub(crate) runs: Mutex<HashMap<String, (usize, ExtractionStats)>>,
    pub(crate) cache: std::sync::OnceLock<Arc<dyn ResultCache>>,
}

/// The extractor stage with a model beside the rules. Clones share their run bookkeeping.
#[derive(Clone)]
pub struct LlmExtractorStage {
    pub(crate) inner: Arc<Inner>,
}

impl LlmExtractorStage {
    pub fn new(model: Arc<dyn ChatModel>, config: LlmExtractorConfig) -> LlmExtractorStage {
        let config = LlmExtractorConfig { memories_per_batch: config.memories_per_batch.max(1), ..config };
        LlmExtractorStage {
            inner: Arc::new(Inner {
                model,
                config,
                runs: Mutex::new(HashMap::new()),
                cache: std::sync::OnceLock::new(),
            }),
        }
    }

    /// Keep the model's checked claims per memory text in `cache`, and use them instead of a
    /// call while text, model and prompt are the same. Set once.
    pub fn set_cache(&self, cache: Arc<dyn ResultCache>) {
        let _ = self.inner.cache.set(cache);
    }

    pub(crate) fn cache_key(&self, memory: &Memory) -> String {
        cache_key(&[STAGE, prompt::PROMPT_VERSION, &self.inner.model.name(), &memory.content])
    }

    /// What model extraction did for `run_id` (and forget it).
    pub fn take_stats(&self, run_id: &str) -> ExtractionStats {
        self.inner.runs.lock().unwrap_or_else(|e| e.into_inner()).remove(run_id).map(|r| r.1).unwrap_or_default()
    }

    pub(crate) fn reserve(&self, run_id: &str) -> bool {
        let mut runs = self.inner.runs.lock().unwrap_or_else(|e| e.into_inner());
        let run = runs.entry(run_id.to_owned()).or_default();
        let ok = run.0 < self.inner.config.batches_per_run;
        run.0 += usize::from(ok);
        ok
    }

    /// The model's claims for `memories` (`None` per memory without usable ones).
    pub(crate) async fn ask(
        &self,
        batch_id: &str,
        memories: &[&Memory],
        stats: &mut ExtractionStats,
    ) -> Vec<Option<Vec<memval_proto::Claim>>> {
        stats.batches += 1;
        stats.memories_sent += memories.len();
        let request = prompt::request(memories);
        for attempt in 1..=2 {
            let answer = match self.inner.model.chat(STAGE, &request).await {
                Ok(a) => a.text,
                Err(LlmError::Malformed(e)) => format!("(malformed envelope: {e})"),
                Err(e @ LlmError::Budget(_)) => {
                    stats.deferred_memories += memories.len();
                    stats.note(format!(
                        "batch {batch_id}: {e}; {} memories deferred to the next run (rules only)",
                        memories.len()
                    ));
                    return vec![None; memories.len()];
                }
                Err(e) => {
                    stats.failed_batches += 1;
                    stats.note(format!("batch {batch_id}: the model gave no answer: {e}; rules only"));
                    return vec![None; memories.len()];
                }
            };
            match contract::enforce(batch_id, memories, &answer) {
                Ok(out) => {
                    stats.claims_kept += out.kept;
                    stats.claims_dropped += out.dropped;
                    for n in out.notes {
                        stats.note(n);
                    }
                    return out.claims;
                }
                Err(reason) if attempt == 1 => {
                    stats.retries += 1;
                    stats.note(format!("batch {batch_id}: {reason}; retrying once"));
                }
                Err(reason) => {
                    stats.malformed_batches += 1;
                    stats.deferred_memories += memories.len();
                    stats.note(format!("batch {batch_id}: {reason} again; deferred to the next run (rules only)"));
                }
            }
        }
        vec![None; memories.len()]
    }
}

pub(crate) fn merge_into(
    item: &mut ExtractedMemory,
    model_claims: Vec<memval_proto::Claim>,
    stats: &mut ExtractionStats,
) {
    let before = item.claims.len();
    let (merged, duplicates) = contract::merge(std::mem::take(&mut item.claims), model_claims);
    stats.duplicates += duplicates;
    stats.claims_added += merged.len() - before;
    item.claims = merged;
    if !item.claims.is_empty() {
        item.skip_reason = None;
    } else if item.skip_reason.is_none() {
        item.skip_reason = Some(NO_CLAIMS_REASON.to_owned());
    }
}
