//! Candidate pairs to the existing pair judge (`memval_judge`), when a model is configured:
//! the judge's own plan (cap, batches of 10, at most 5 calls) and its checked answers. No
//! second judge lives here: this only hands pairs over and files the answers in the report.

use std::collections::HashMap;
use std::sync::Arc;

use memval_judge::plan::{self, Limits};
use memval_judge::JudgeStage;
use memval_llm::ChatModel;

use crate::report::Contradictions;

/// Judges `c.candidates` with `model`; every candidate ends with a judgement or the reason it
/// has none (beyond the cap, deferred, the model gave no answer).
pub async fn judge(c: &mut Contradictions, model: Arc<dyn ChatModel>, limits: Limits, run_id: &str) {
    let pairs: Vec<memval_proto::Pair> = c.candidates.iter().map(|p| p.pair.clone()).collect();
    let plan = plan::plan(pairs, limits);
    let stage = JudgeStage::new(model.clone()).with_batch_size(limits.batch_size);
    let calls = plan.batches.iter().enumerate().map(|(i, batch)| {
        let stage = &stage;
        async move { (i, stage.judge(&format!("{run_id}.p{i}"), batch).await) }
    });
    let mut answers = HashMap::new();
    let mut why: HashMap<(String, String), String> = HashMap::new();
    for (i, result) in futures::future::join_all(calls).await {
        match result {
            Ok(checked) => {
                c.judge_notes.extend(checked.notes);
                for j in checked.judgements {
                    answers.insert((j.id_a.clone(), j.id_b.clone()), j);
                }
            }
            Err(e) => {
                for p in &plan.batches[i] {
                    why.insert((p.id_a.clone(), p.id_b.clone()), format!("not judged: the model gave no answer ({e})"));
                }
            }
        }
    }
    for p in &plan.over_cap {
        why.insert((p.id_a.clone(), p.id_b.clone()), "not judged: beyond the pair cap".into());
    }
    for p in &plan.deferred {
        why.insert((p.id_a.clone(), p.id_b.clone()), "not judged: deferred, beyond this run's model calls".into());
    }
    for cand in &mut c.candidates {
        let key = (cand.pair.id_a.clone(), cand.pair.id_b.clone());
        cand.judgement = answers.remove(&key);
        cand.not_judged = if cand.judgement.is_some() { None } else { Some(why.remove(&key).unwrap_or_else(|| "not judged: duplicate pair".into())) };
    }
    c.judged_by = Some(model.name());
}
