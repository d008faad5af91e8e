use serde::{Deserialize, Serialize};

use crate::messages::{Message, RunHeader};
use crate::subjects;

/// A candidate pair of memories of two different agents (SPEC §5), `id_a < id_b`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    pub id_a: String,
    pub agent_a: String,
    /// Untrusted text; the judge quotes from it, never obeys it.
    pub content_a: String,
    pub id_b: String,
    pub agent_b: String,
    pub content_b: String,
    /// Cosine similarity (`embed`) or Jaccard (`keyword`) that proposed the pair.
    pub score: f64,
    /// `embed` or `keyword`.
    pub method: String,
}

/// SPEC §5 judgement verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairVerdict {
    Contradictory,
    Consistent,
    Unrelated,
}

impl PairVerdict {
    pub const ALL: [PairVerdict; 3] = [PairVerdict::Contradictory, PairVerdict::Consistent, PairVerdict::Unrelated];

    pub fn as_str(self) -> &'static str {
        match self {
            PairVerdict::Contradictory => "contradictory",
            PairVerdict::Consistent => "consistent",
            PairVerdict::Unrelated => "unrelated",
        }
    }

    pub fn parse(s: &str) -> Option<PairVerdict> {
        PairVerdict::ALL.into_iter().find(|v| v.as_str().eq_ignore_ascii_case(s.trim()))
    }
}

impl std::fmt::Display for PairVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The judge's answer for one pair. When `verdict` is contradictory, `claim_a` and `claim_b`
/// are verbatim substrings of each side's content (checked, never trusted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judgement {
    pub id_a: String,
    pub id_b: String,
    pub verdict: PairVerdict,
    pub claim_a: String,
    pub claim_b: String,
    /// 0-100.
    pub confidence: u8,
    pub rationale: String,
    /// Set when the model's answer broke the contract and this judgement is the fallback
    /// (`unrelated`, confidence 0): why.
    pub fallback: Option<String>,
}

/// Input of the pair judge: the pairs of one model call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairBatch {
    pub run: RunHeader,
    pub batch_id: String,
    pub pairs: Vec<Pair>,
}

/// Output of the pair judge: exactly one judgement per input pair, in input order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgementBatch {
    pub run: RunHeader,
    pub batch_id: String,
    pub judgements: Vec<Judgement>,
    /// What went wrong with the model's answer, for the run detail.
    pub notes: Vec<String>,
    /// The model that judged them (`provider/model`), so a report made from judgements
    /// received over a broker names it as an in-process run does.
    pub model: String,
}

macro_rules! pair_message {
    ($ty:ty, $subject:expr, $items:ident; $($extra:tt)*) => {
        impl Message for $ty {
            const SUBJECT: &'static str = $subject;
            $($extra)*
            fn run(&self) -> &RunHeader {
                &self.run
            }
            fn batch_id(&self) -> &str {
                &self.batch_id
            }
            fn memory_count(&self) -> usize {
                self.$items.len()
            }
        }
    };
}

pair_message!(PairBatch, subjects::PAIRS, pairs;);
// Judgements go back to the one run that asked (`memval.v1.judgements.<run id>`), as scores do.
pair_message!(JudgementBatch, subjects::JUDGEMENTS, judgements; fn subject(&self) -> String {
    subjects::for_run(Self::SUBJECT, &self.run.run_id)
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judgements_go_to_their_run_and_pairs_to_the_judges() {
        let run = RunHeader { run_id: "rec.1".into(), repo: "r".into(), commit: None, started_at: 0, expected_memories: 0 };
        let out = JudgementBatch { run: run.clone(), batch_id: "b".into(), judgements: Vec::new(), notes: Vec::new(), model: "m".into() };
        assert_eq!(out.subject(), "memval.v1.judgements.rec_1");
        assert_eq!(PairBatch { run, batch_id: "b".into(), pairs: Vec::new() }.subject(), "memval.v1.pairs");
    }
}
