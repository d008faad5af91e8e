use std::time::Duration;

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::messages::{Message, RunHeader};
use crate::{subjects, UnixMillis};

/// A candidate pair of memories of two different agents (docs/contracts.md §5), `id_a < id_b`.
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

/// docs/contracts.md §5 judgement verdicts.
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
///
/// Decoded by hand (below) so that a batch of an older reconciler, which ends after `pairs`,
/// still decodes, with no deadline. The wire codec has no field tags: a field can only be
/// added at the end, and `skip_serializing_if` would write bytes no decoder can read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairBatch {
    pub run: RunHeader,
    pub batch_id: String,
    pub pairs: Vec<Pair>,
    /// When the reconciler that asked stops waiting for the judgement (Unix milliseconds,
    /// UTC). A judge that receives the batch later acks it without judging: nobody reads the
    /// answer. `None` (in-process runs, older reconcilers): judged whenever it arrives.
    pub expires_at: Option<UnixMillis>,
}

impl PairBatch {
    /// How long ago, at `now` (Unix milliseconds), its reconciler stopped waiting; `None`
    /// while it still waits, and for a batch without a deadline.
    pub fn expired_for(&self, now: UnixMillis) -> Option<Duration> {
        let at = self.expires_at?;
        (now > at).then(|| Duration::from_millis(now.saturating_sub(at).unsigned_abs()))
    }
}

const PAIR_BATCH_FIELDS: &[&str] = &["run", "batch_id", "pairs", "expires_at"];

impl<'de> Deserialize<'de> for PairBatch {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PairBatch, D::Error> {
        deserializer.deserialize_struct("PairBatch", PAIR_BATCH_FIELDS, PairBatchVisitor)
    }
}

struct PairBatchVisitor;

impl<'de> Visitor<'de> for PairBatchVisitor {
    type Value = PairBatch;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a pair batch in the wire codec's layout")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PairBatch, A::Error> {
        let run = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let batch_id = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
        let pairs = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(2, &self))?;
        // An older reconciler's batch ends here, so reading on runs out of input. A deadline
        // that cannot be read is no deadline: the batch is judged, as before, never dropped.
        let expires_at = seq.next_element::<Option<UnixMillis>>().ok().flatten().flatten();
        Ok(PairBatch { run, batch_id, pairs, expires_at })
    }
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
    use crate::codec;

    #[test]
    fn judgements_go_to_their_run_and_pairs_to_the_judges() {
        let run =
            RunHeader { run_id: "rec.1".into(), repo: "r".into(), commit: None, started_at: 0, expected_memories: 0 };
        let out = JudgementBatch {
            run: run.clone(),
            batch_id: "b".into(),
            judgements: Vec::new(),
            notes: Vec::new(),
            model: "m".into(),
        };
        assert_eq!(out.subject(), "memval.v1.judgements.rec_1");
        assert_eq!(
            PairBatch { run, batch_id: "b".into(), pairs: Vec::new(), expires_at: None }.subject(),
            "memval.v1.pairs"
        );
    }

    fn batch(expires_at: Option<UnixMillis>) -> PairBatch {
        let run =
            RunHeader { run_id: "rec.1".into(), repo: "r".into(), commit: None, started_at: 0, expected_memories: 0 };
        let pair = Pair {
            id_a: "1".into(),
            agent_a: "pm".into(),
            content_a: "a".into(),
            id_b: "2".into(),
            agent_b: "qa".into(),
            content_b: "b".into(),
            score: 0.5,
            method: "keyword".into(),
        };
        PairBatch { run, batch_id: "rec.1.p0".into(), pairs: vec![pair], expires_at }
    }

    #[test]
    fn a_batch_is_expired_only_after_its_deadline() {
        let at = 1_764_000_000_000;
        // (deadline, now, how long ago it expired)
        let cases: [(Option<UnixMillis>, UnixMillis, Option<Duration>); 6] = [
            (Some(at), at - 1, None),
            (Some(at), at, None),
            (Some(at), at + 1, Some(Duration::from_millis(1))),
            (Some(at), at + 90_500, Some(Duration::from_millis(90_500))),
            (None, at, None),
            (None, i64::MAX, None),
        ];
        for (deadline, now, want) in cases {
            assert_eq!(batch(deadline).expired_for(now), want, "deadline {deadline:?}, now {now}");
        }
    }

    #[test]
    fn the_deadline_survives_the_wire_and_older_batches_still_decode() {
        for deadline in [Some(1_764_000_000_000), Some(-5), None] {
            let sent = batch(deadline);
            assert_eq!(codec::decode::<PairBatch>(&codec::encode(&sent).unwrap()).unwrap(), sent);
        }
        // The layout before the deadline existed: what an older reconciler publishes.
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Older {
            run: RunHeader,
            batch_id: String,
            pairs: Vec<Pair>,
        }
        let b = batch(None);
        let older =
            postcard::to_stdvec(&Older { run: b.run.clone(), batch_id: b.batch_id.clone(), pairs: b.pairs.clone() })
                .unwrap();
        assert_eq!(codec::decode::<PairBatch>(&older).unwrap(), b);
        // An older judge reads a new batch too (the codec ignores the bytes after its fields),
        // and judges it whenever it arrives.
        let new = codec::encode(&batch(Some(1_764_000_000_000))).unwrap();
        assert_eq!(postcard::from_bytes::<Older>(&new).unwrap(), postcard::from_bytes::<Older>(&older).unwrap());
        // A cut-off batch is still an error, not an empty one.
        assert!(codec::decode::<PairBatch>(&older[..older.len() - 3]).is_err());
    }
}
