//! The pair judge over a run's candidates in this process (`memval judge pairs`): plan what
//! the run judges, run the judge stage over its batches, and account for every selected pair
//! (judged, or why not).

use std::collections::BTreeMap;
use std::sync::Arc;

use memval_judge::input::Input;
use memval_judge::plan::{self, Limits};
use memval_judge::result::PairsResult;
use memval_judge::JudgeStage;
use memval_llm::{ChatModel, ResultCache};
use memval_proto::{Judgement, Pair, PairBatch, RunHeader};

use crate::chain::run_batches;
use crate::{new_run_id, Error};

/// How a run of the pair judge is set up.
pub struct JudgePairs {
    pub model: Arc<dyn ChatModel>,
    /// Judgements of the same pair, model and prompt are taken from here when present.
    pub cache: Option<Arc<dyn ResultCache>>,
    pub limits: Limits,
    /// Where the candidates came from, for the result.
    pub input_name: String,
}

/// Judge `input`'s candidates as `setup` says. A batch the model never answered is not an
/// error: its pairs are listed as not judged, with the reason.
pub async fn judge_pairs(setup: JudgePairs, input: Input) -> Result<PairsResult, Error> {
    let Input { pairs, problems, text_ids } = input;
    let read = pairs.len();
    let plan = plan::plan(pairs, setup.limits);
    let header = RunHeader {
        run_id: new_run_id(),
        repo: String::new(),
        commit: None,
        started_at: chrono::Utc::now().timestamp(),
        expected_memories: 0,
    };
    let stage = JudgeStage::new(setup.model.clone()).with_batch_size(setup.limits.batch_size).with_cache(setup.cache);
    let selected: Vec<Pair> = plan.batches.iter().flatten().cloned().collect();
    let batches: Vec<PairBatch> = plan
        .batches
        .iter()
        .enumerate()
        .map(|(i, pairs)| PairBatch {
            run: header.clone(),
            batch_id: format!("{}.p{i}", header.run_id),
            pairs: pairs.clone(),
            expires_at: None,
        })
        .collect();
    let run = run_batches(stage, batches, setup.limits.max_batches).await?;

    let mut judged: BTreeMap<(String, String), Judgement> = BTreeMap::new();
    let mut detail = Vec::new();
    for batch in run.outputs {
        detail.extend(batch.notes);
        for j in batch.judgements {
            judged.insert((j.id_a.clone(), j.id_b.clone()), j);
        }
    }
    // Why the pairs of a batch without an answer were not judged: the batch comes back whole
    // in its dead letter.
    let mut unanswered: BTreeMap<(String, String), String> = BTreeMap::new();
    for (batch, letter) in &run.failed {
        let id = letter.msg_id.as_deref().unwrap_or("?");
        detail.push(format!("batch {id} got no answer: {}", letter.reason));
        let reason = if letter.reason.contains("llm budget exhausted") {
            "deferred: the run's llm budget is used up (see detail)"
        } else {
            "the model gave no answer for its batch (see detail)"
        };
        for p in batch.iter().flat_map(|b| &b.pairs) {
            unanswered.insert((p.id_a.clone(), p.id_b.clone()), reason.to_owned());
        }
    }
    Ok(PairsResult {
        header,
        finished_at: chrono::Utc::now().timestamp(),
        input: setup.input_name,
        model: setup.model.name(),
        read,
        problems,
        selected,
        judged,
        plan_over_cap: plan.over_cap,
        plan_deferred: plan.deferred,
        duplicates: plan.duplicates,
        pair_cap: setup.limits.pair_cap,
        detail,
        usage: setup.model.usage(),
        text_ids,
        unanswered,
    })
}
