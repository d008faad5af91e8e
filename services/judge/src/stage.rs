//! The pair judge as a pipeline stage: a batch of pairs in, one judgement per pair out, each
//! model answer checked by [`crate::model::contract`] and cached by pair, model and prompt.
//!
//! `JudgeStage` takes a `PairBatch` (`memval.v1.pairs`) and publishes a `JudgementBatch`
//! (`memval.v1.judgements.<run>`) with exactly one judgement per pair, in order, plus notes for
//! the run's detail. Each `JudgementBatch` names the model that judged it, so a report made from
//! judgements received over the broker names it as an in-process one does. A batch received after
//! its `expires_at` (its reconciler stopped waiting) gets no model call and no output: it is acked
//! with a warning naming the batch, its run and how long ago it expired (`pair batch expired Ns
//! ago`). With a `ResultCache` (`judge pairs --store DIR`), a pair whose ids and contents were
//! judged before by the same model and prompt is answered from it.
//!
//! It runs three ways: `memval judge pairs` feeds it through `memval_pipeline::chain::run_batches`
//! (the runtime over in-process channels, so batches are wire-encoded; a batch the model never
//! answered comes back as a dead letter whose own payload says which pairs were not judged);
//! `memval reconcile` calls `JudgeStage::judge` per planned batch (`memval_reconciler::judging`);
//! `memval serve judge` runs it with `run_stage` on the `MEMVAL_PAIRS` stream for the reconciler
//! role.

use std::sync::Arc;

use memval_llm::{cache_key, ChatModel, LlmError, ResultCache};
use memval_proto::display::one_line;
use memval_proto::{unix_millis, JudgementBatch, Pair, PairBatch, UnixMillis};
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
    /// The wall clock a batch's deadline is compared with.
    now: fn() -> UnixMillis,
}

fn system_now() -> UnixMillis {
    unix_millis(std::time::SystemTime::now())
}

impl JudgeStage {
    pub fn new(model: Arc<dyn ChatModel>) -> JudgeStage {
        JudgeStage { model, batch_size: plan::DEFAULT_BATCH_SIZE, cache: None, now: system_now }
    }

    /// Read the time from `now` instead of the system clock (tests).
    pub fn with_clock(mut self, now: fn() -> UnixMillis) -> JudgeStage {
        self.now = now;
        self
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
        let cached: Vec<Option<memval_proto::Judgement>> =
            pairs.iter().map(|p| cache.get(&self.cache_key(p)).and_then(|b| serde_json::from_slice(&b).ok())).collect();
        let missing: Vec<Pair> =
            pairs.iter().zip(&cached).filter(|(_, c)| c.is_none()).map(|(p, _)| p.clone()).collect();
        let mut fresh = self.judge(batch_id, &missing).await?;
        for (p, j) in missing.iter().zip(&fresh.judgements) {
            if let Ok(bytes) = serde_json::to_vec(j) {
                cache.put(&self.cache_key(p), &bytes);
            }
        }
        let hits = pairs.len() - missing.len();
        let mut answered = fresh.judgements.drain(..);
        let judgements =
            cached.into_iter().map(|c| c.or_else(|| answered.next())).collect::<Option<Vec<_>>>().unwrap_or_default();
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
                    tracing::info!(
                        batch_id,
                        fallbacks = checked.fallbacks(),
                        pairs = pairs.len(),
                        "judge answer broke the contract"
                    );
                }
                Ok(checked)
            }
            Err(LlmError::Malformed(reason)) => {
                Ok(contract::all_fallback(batch_id, pairs, &format!("malformed model output ({reason})")))
            }
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
        // Its reconciler has stopped waiting (it reported these pairs `not judged`): an answer
        // now would spend model calls nobody reads. No output, so the batch is acked as done.
        if let Some(late) = batch.expired_for((self.now)()) {
            tracing::warn!(
                run = %one_line(&batch.run.run_id),
                batch_id = %one_line(&batch.batch_id),
                expired_ms = u64::try_from(late.as_millis()).unwrap_or(u64::MAX),
                "pair batch expired {:.1}s ago, its reconciler no longer waits: acked without judging",
                late.as_secs_f64()
            );
            return Ok(Vec::new());
        }
        let calls = batch.pairs.chunks(self.batch_size).enumerate().map(|(i, chunk)| {
            let id = if batch.pairs.len() > self.batch_size {
                format!("{}#{i}", batch.batch_id)
            } else {
                batch.batch_id.clone()
            };
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
        Ok(vec![JudgementBatch {
            batch_id: format!("{}.j", batch.batch_id),
            run: batch.run,
            judgements,
            notes,
            model: self.model.name(),
        }])
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use futures::future::BoxFuture;
    use memval_llm::{ChatRequest, ChatResponse, StopReason, TokenUsage, UsageReport};
    use memval_proto::RunHeader;

    use super::*;

    /// Counts its calls and judges every pair of a one-pair batch consistent.
    #[derive(Default)]
    struct Counting(AtomicUsize);

    impl ChatModel for Counting {
        fn name(&self) -> String {
            "test/counting".into()
        }

        fn chat<'a>(
            &'a self,
            _stage: &'a str,
            _request: &'a ChatRequest,
        ) -> BoxFuture<'a, Result<ChatResponse, LlmError>> {
            self.0.fetch_add(1, Ordering::SeqCst);
            let text = r#"{"judgements": [{"id_a": "1", "id_b": "2", "verdict": "consistent", "claim_a": "", "claim_b": "", "confidence": 70, "rationale": "same"}]}"#;
            Box::pin(async move {
                Ok(ChatResponse {
                    text: text.into(),
                    tool_calls: Vec::new(),
                    usage: TokenUsage::default(),
                    stop: StopReason::EndTurn,
                })
            })
        }

        fn usage(&self) -> UsageReport {
            UsageReport::default()
        }
    }

    const NOW: UnixMillis = 1_764_000_000_000;

    fn batch(expires_at: Option<UnixMillis>) -> PairBatch {
        let pair = Pair {
            id_a: "1".into(),
            agent_a: "pm".into(),
            content_a: "the cache keeps entries five minutes".into(),
            id_b: "2".into(),
            agent_b: "qa".into(),
            content_b: "the cache keeps entries five minutes".into(),
            score: 0.9,
            method: "keyword".into(),
        };
        let run = RunHeader {
            run_id: "reconcile-shop-1".into(),
            repo: "shop".into(),
            commit: None,
            started_at: 0,
            expected_memories: 0,
        };
        PairBatch { run, batch_id: "reconcile-shop-1.p0".into(), pairs: vec![pair], expires_at }
    }

    #[tokio::test]
    async fn a_batch_past_its_deadline_is_answered_with_nothing_and_no_model_call() {
        // (deadline, model calls, judgements published)
        let cases = [
            (Some(NOW - 1), 0, 0),
            (Some(NOW - 3_600_000), 0, 0),
            (Some(NOW), 1, 1),
            (Some(NOW + 1), 1, 1),
            (None, 1, 1),
        ];
        for (expires_at, calls, outputs) in cases {
            let model = Arc::new(Counting::default());
            let stage = JudgeStage::new(model.clone()).with_clock(|| NOW);
            let out = stage.process(batch(expires_at)).await.unwrap();
            assert_eq!((model.0.load(Ordering::SeqCst), out.len()), (calls, outputs), "deadline {expires_at:?}");
            if let Some(judged) = out.first() {
                assert_eq!(judged.judgements.len(), 1);
                assert_eq!(judged.judgements[0].verdict, memval_proto::PairVerdict::Consistent);
            }
        }
    }
}
