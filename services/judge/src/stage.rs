//! The pair judge as a pipeline stage: a batch of pairs in, one judgement per pair out, each
//! model answer checked by [`crate::model::contract`] and cached by pair, model and prompt.

use std::sync::Arc;

use memval_llm::{cache_key, ChatModel, LlmError, ResultCache};
use memval_proto::{JudgementBatch, Pair, PairBatch};
use memval_runtime::{Stage, StageError};

use crate::model::{contract, prompt};
use crate::{plan, Checked};

/// Name the judge's model usage is counted under.
pub const STAGE: &str = "judge";

/// The pair judge as a pipeline stage: a batch of pairs in, one judgement per pair out.
pub struct JudgeStage {
    model: Arc<dyn ChatModel>,
    batch_size: usize,
    cache: Option<Arc<dyn ResultCache>>,
}

impl JudgeStage {
    pub fn new(model: Arc<dyn ChatModel>) -> JudgeStage {
        JudgeStage { model, batch_size: plan::DEFAULT_BATCH_SIZE, cache: None }
    }

    /// Pairs per model call (a larger input batch is split).
    pub fn with_batch_size(mut self, n: usize) -> JudgeStage {
        self.batch_size = n.max(1);
        self
    }

    /// Keep judgements in `cache` and reuse them for the same pair (ids and contents), model
    /// and prompt version.
    pub fn with_cache(mut self, cache: Option<Arc<dyn ResultCache>>) -> JudgeStage {
        self.cache = cache;
        self
    }

    fn cache_key(&self, p: &Pair) -> String {
        cache_key(&[STAGE, prompt::PROMPT_VERSION, &self.model.name(), &p.id_a, &p.content_a, &p.id_b, &p.content_b])
    }

    /// Judge `pairs`, answering from the cache where it can and asking the model for the
    /// rest (one call). Cached judgements carry a note in the run detail.
    pub async fn judge_cached(&self, batch_id: &str, pairs: &[Pair]) -> Result<Checked, LlmError> {
        let Some(cache) = &self.cache else { return self.judge(batch_id, pairs).await };
        let cached: Vec<Option<memval_proto::Judgement>> = pairs
            .iter()
            .map(|p| cache.get(&self.cache_key(p)).and_then(|b| serde_json::from_slice(&b).ok()))
            .collect();
        let missing: Vec<Pair> = pairs.iter().zip(&cached).filter(|(_, c)| c.is_none()).map(|(p, _)| p.clone()).collect();
        let mut fresh = self.judge(batch_id, &missing).await?;
        for (p, j) in missing.iter().zip(&fresh.judgements) {
            if let Ok(bytes) = serde_json::to_vec(j) {
                cache.put(&self.cache_key(p), &bytes);
            }
        }
        let hits = pairs.len() - missing.len();
        let mut answered = fresh.judgements.drain(..);
        let judgements = cached.into_iter().map(|c| c.or_else(|| answered.next())).collect::<Option<Vec<_>>>().unwrap_or_default();
        if hits > 0 {
            fresh.notes.push(format!("batch {batch_id}: {hits} of {} pairs answered from the cache", pairs.len()));
        }
        Ok(Checked { judgements, notes: fresh.notes })
    }

    /// Judge one model call's worth of pairs. A malformed answer (or a malformed envelope
    /// from the server) is a result: every pair gets the fallback. Only a call that got no
    /// answer at all is an error.
    pub async fn judge(&self, batch_id: &str, pairs: &[Pair]) -> Result<Checked, LlmError> {
        if pairs.is_empty() {
            return Ok(Checked { judgements: Vec::new(), notes: Vec::new() });
        }
        let request = prompt::request(pairs);
        match self.model.chat(STAGE, &request).await {
            Ok(answer) => {
                let checked = contract::enforce(batch_id, pairs, &answer.text);
                if checked.fallbacks() > 0 {
                    tracing::info!(batch_id, fallbacks = checked.fallbacks(), pairs = pairs.len(), "judge answer broke the contract");
                }
                Ok(checked)
            }
            Err(LlmError::Malformed(reason)) => Ok(contract::all_fallback(batch_id, pairs, &format!("malformed model output ({reason})"))),
            Err(e) => Err(e),
        }
    }
}

impl Stage for JudgeStage {
    type In = PairBatch;
    type Out = JudgementBatch;

    fn name(&self) -> &'static str {
        STAGE
    }

    async fn process(&self, batch: PairBatch) -> Result<Vec<JudgementBatch>, StageError> {
        let calls = batch.pairs.chunks(self.batch_size).enumerate().map(|(i, chunk)| {
            let id = if batch.pairs.len() > self.batch_size { format!("{}#{i}", batch.batch_id) } else { batch.batch_id.clone() };
            async move { self.judge_cached(&id, chunk).await }
        });
        let mut judgements = Vec::with_capacity(batch.pairs.len());
        let mut notes = Vec::new();
        for result in futures::future::join_all(calls).await {
            match result {
                Ok(checked) => {
                    judgements.extend(checked.judgements);
                    notes.extend(checked.notes);
                }
                Err(e) if e.is_retryable() => return Err(StageError::Retryable(e.to_string())),
                Err(e) => return Err(StageError::Permanent(e.to_string())),
            }
        }
        Ok(vec![JudgementBatch { batch_id: format!("{}.j", batch.batch_id), run: batch.run, judgements, notes, model: self.model.name() }])
    }
}
