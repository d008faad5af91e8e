//! Candidate pairs to the existing pair judge (`memval_judge`), when a model is configured:
//! the judge's own plan (cap, batches of 10, at most 5 calls) and its checked answers. No
//! second judge lives here: this only hands pairs over and files the answers in the report.
//!
//! The same two halves serve both ways of judging: [`ask`] plans what goes to the judge and
//! [`file`] puts what came back (or why nothing did) on every candidate. In one process
//! [`judge`] calls `JudgeStage::judge` per planned batch; in a cluster the reconciler role
//! sends the planned batches to `memval serve judge` replicas (`crate::stage`). Both file
//! answers the same way, so both write the same report.
//!
//! Without a model every candidate says "not judged: no model configured". The judge's notes name
//! batches `p{i}`, not the run, so two runs judging the same pairs write the same bytes.

use std::collections::HashMap;
use std::sync::Arc;

use memval_judge::plan::{self, Limits};
use memval_judge::JudgeStage;
use memval_llm::ChatModel;
use memval_proto::{Judgement, Pair};

use crate::report::Contradictions;

type Key = (String, String);

/// What a reconciliation asks the judge: the planned batches (one model call each), and why
/// every candidate not in them is not asked.
#[derive(Debug, Clone)]
pub struct Asked {
    pub batches: Vec<Vec<Pair>>,
    why: HashMap<Key, String>,
}

/// One planned batch's answer: the checked judgements and the judge's notes, or why there is
/// none (the whole `not judged: …` text shown for each of its pairs).
pub type BatchAnswer = Result<(Vec<Judgement>, Vec<String>), String>;

/// Plan the judging of `c.candidates` with the judge's own plan.
pub fn ask(c: &Contradictions, limits: Limits) -> Asked {
    let pairs: Vec<Pair> = c.candidates.iter().map(|p| p.pair.clone()).collect();
    let plan = plan::plan(pairs, limits);
    let mut why = HashMap::new();
    for p in &plan.over_cap {
        why.insert((p.id_a.clone(), p.id_b.clone()), "not judged: beyond the pair cap".into());
    }
    for p in &plan.deferred {
        why.insert((p.id_a.clone(), p.id_b.clone()), "not judged: deferred, beyond this run's model calls".into());
    }
    Asked { batches: plan.batches, why }
}

/// File `answers` (one per batch of `asked`, in order) on every candidate: each ends with a
/// judgement or the reason it has none. `judged_by` names the model. The judge's notes name
/// batches `{run_id}.p{i}`; the report names them `p{i}`, so the same judging gives the same
/// report whichever process or run asked.
pub fn file(c: &mut Contradictions, asked: Asked, answers: Vec<BatchAnswer>, judged_by: String, run_id: &str) {
    let Asked { batches, mut why } = asked;
    let mut judged = HashMap::new();
    let prefix = format!("{run_id}.p");
    for (batch, answer) in batches.iter().zip(answers) {
        match answer {
            Ok((judgements, notes)) => {
                c.judge_notes.extend(notes.into_iter().map(|n| n.replace(&prefix, "p")));
                for j in judgements {
                    judged.insert((j.id_a.clone(), j.id_b.clone()), j);
                }
            }
            Err(reason) => {
                for p in batch {
                    why.insert((p.id_a.clone(), p.id_b.clone()), reason.clone());
                }
            }
        }
    }
    for cand in &mut c.candidates {
        let key = (cand.pair.id_a.clone(), cand.pair.id_b.clone());
        cand.judgement = judged.remove(&key);
        cand.not_judged = if cand.judgement.is_some() {
            None
        } else {
            // A planned pair with no judgement and no reason: the judge's answer lacked it.
            Some(why.remove(&key).unwrap_or_else(|| "not judged: duplicate pair".into()))
        };
    }
    c.judged_by = Some(judged_by);
}

/// Judges `c.candidates` with `model` in this process; every candidate ends with a judgement
/// or the reason it has none (beyond the cap, deferred, the model gave no answer).
pub async fn judge(c: &mut Contradictions, model: Arc<dyn ChatModel>, limits: Limits, run_id: &str) {
    let asked = ask(c, limits);
    let stage = JudgeStage::new(model.clone()).with_batch_size(limits.batch_size);
    let calls = asked.batches.iter().enumerate().map(|(i, batch)| {
        let stage = &stage;
        async move { stage.judge(&format!("{run_id}.p{i}"), batch).await }
    });
    let answers = futures::future::join_all(calls)
        .await
        .into_iter()
        .map(|r| {
            r.map(|checked| (checked.judgements, checked.notes))
                .map_err(|e| format!("not judged: the model gave no answer ({e})"))
        })
        .collect();
    file(c, asked, answers, model.name(), run_id);
}

#[cfg(test)]
mod tests {
    use memval_proto::PairVerdict;

    use super::*;
    use crate::report::CandidatePair;

    fn candidates(n: u64) -> Contradictions {
        let candidates = (0..n)
            .map(|i| CandidatePair {
                pair: Pair {
                    id_a: (2 * i).to_string(),
                    agent_a: "a".into(),
                    content_a: format!("note {i}"),
                    id_b: (2 * i + 1).to_string(),
                    agent_b: "b".into(),
                    content_b: format!("other {i}"),
                    score: 1.0 - i as f64 / 100.0,
                    method: "keyword".into(),
                },
                judgement: None,
                not_judged: Some("not judged: no model configured".into()),
            })
            .collect();
        Contradictions { candidates, ..Contradictions::default() }
    }

    fn judgement(p: &Pair) -> Judgement {
        Judgement {
            id_a: p.id_a.clone(),
            id_b: p.id_b.clone(),
            verdict: PairVerdict::Unrelated,
            claim_a: String::new(),
            claim_b: String::new(),
            confidence: 80,
            rationale: "r".into(),
            fallback: None,
        }
    }

    #[test]
    fn every_candidate_ends_judged_or_with_its_reason() {
        let mut c = candidates(9);
        let limits = Limits { pair_cap: 8, batch_size: 3, max_batches: 2 };
        let asked = ask(&c, limits);
        assert_eq!(
            asked.batches.iter().map(Vec::len).collect::<Vec<_>>(),
            [3, 3],
            "two calls of three; two deferred, one over the cap"
        );
        let answers = vec![
            Ok((asked.batches[0].iter().map(judgement).collect(), vec!["batch run-7.p0: a note".into()])),
            Err("not judged: no judgement within 5s".into()),
        ];
        file(&mut c, asked, answers, "openai/m".into(), "run-7");
        let reasons: Vec<&str> = c.candidates.iter().map(|p| p.not_judged.as_deref().unwrap_or("judged")).collect();
        assert_eq!(
            reasons,
            [
                "judged",
                "judged",
                "judged",
                "not judged: no judgement within 5s",
                "not judged: no judgement within 5s",
                "not judged: no judgement within 5s",
                "not judged: deferred, beyond this run's model calls",
                "not judged: deferred, beyond this run's model calls",
                "not judged: beyond the pair cap",
            ]
        );
        assert_eq!(c.judge_notes, ["batch p0: a note"], "notes name the batch, not the run");
        assert_eq!(c.judged_by.as_deref(), Some("openai/m"));
    }
}
