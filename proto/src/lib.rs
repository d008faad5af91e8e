//! Wire types for memval: every type that crosses a stage boundary lives here.
//!
//! The same types travel over in-process channels and over NATS, always encoded with
//! [`codec`] (postcard), so an in-process run exercises the exact bytes a cluster sees.
//! Subjects carry the wire version (`memval.v1.*`) and are named for what was produced.
//!
//! This crate must never do I/O, and must never depend on a transport.
//!
//! Wire types avoid what postcard cannot carry (internally tagged enums, skipped fields); the
//! JSON people read is built separately, in `memval-report`. Postcard has no field tags, so a
//! field is only ever added at the end of a message, and decoding must accept a message that
//! ends before it: `PairBatch::expires_at` is decoded by hand, so a batch of an older
//! reconciler still decodes (with no deadline), and an older judge reads a newer batch by
//! ignoring its last bytes. [`ingest`] is the memory-ingest event's JSON schema and the run an
//! event starts; [`display`] makes untrusted text inert wherever people read it.

mod claim;
pub mod codec;
pub mod display;
pub mod ingest;
mod memory;
mod messages;
mod pairs;
pub mod subjects;
mod time;
pub mod tools;
mod verdict;

pub use claim::{Assertion, Claim, ClaimType, CodeRef, Tier};
pub use memory::{make_ids_unique, Memory, MemoryMeta, Source, FIXTURE_KIND, HISTORY_KIND, VENDORED_KIND};
pub use messages::{
    CheckedMemory, ClaimBatch, ExtractedMemory, LeftOut, MemoryBatch, MemoryScore, Message, RunHeader, ScoreBatch,
    VerdictBatch,
};
pub use pairs::{Judgement, JudgementBatch, Pair, PairBatch, PairVerdict};
pub use subjects::WIRE_VERSION;
pub use time::{rfc3339, unix_millis, UnixMillis, UnixSeconds};
pub use verdict::{Action, ClaimResult, Outcome, Since, Verdict};

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ClaimBatch {
        let memory = Memory {
            id: "42".into(),
            agent: "tech-lead".into(),
            content: "Cache in `internal/cache/lru.go`".into(),
            tier: 0,
            kind: "memory".into(),
            created_at: Some(1_773_568_800),
            updated_at: None,
            source: Source { path: "memories.jsonl".into(), line: Some(3), row: None, format: "jsonl".into() },
            context_dir: None,
            first_line: 1,
        };
        ClaimBatch {
            run: RunHeader {
                run_id: "r1".into(),
                repo: "/repo".into(),
                commit: None,
                started_at: 0,
                expected_memories: 1,
            },
            batch_id: "b1".into(),
            items: vec![ExtractedMemory {
                memory: memory.meta(),
                claims: vec![Claim {
                    claim_type: ClaimType::Configuration,
                    claim_text: "max_conns is 10".into(),
                    line: 1,
                    lines: vec![1, 3],
                    code_refs: vec![CodeRef::path("config.toml")],
                    assertion: Some(Assertion::ConfigValue { key: "max_conns".into(), value: "10".into() }),
                }],
                skip_reason: None,
                left_out: vec![LeftOut { line: 9, reason: "lines 9-12: past the mention budget".into() }],
            }],
        }
    }

    #[test]
    fn wire_round_trip_keeps_every_field() {
        let batch = sample();
        let bytes = codec::encode(&batch).unwrap();
        let back: ClaimBatch = codec::decode(&bytes).unwrap();
        assert_eq!(back, batch);
    }

    #[test]
    fn garbage_is_a_decode_error_not_a_panic() {
        let err = codec::decode::<ClaimBatch>(&[0xff, 0xff, 0x01]).unwrap_err();
        assert!(matches!(err, codec::CodecError::Decode { .. }));
    }

    #[test]
    fn scores_go_to_a_subject_per_run_and_families_span_versions() {
        let mut batch = ScoreBatch {
            run: RunHeader {
                run_id: "20260101T000000Z-ab.c*d>e f".into(),
                repo: ".".into(),
                commit: None,
                started_at: 0,
                expected_memories: 0,
            },
            batch_id: "b".into(),
            items: Vec::new(),
        };
        assert_eq!(batch.subject(), "memval.v1.scores.20260101T000000Z-ab_c_d_e_f");
        batch.run.run_id = String::new();
        assert_eq!(batch.subject(), "memval.v1.scores._");
        assert_eq!(sample().subject(), subjects::CLAIMS);
        assert_eq!(subjects::any_version(subjects::CLAIMS), "memval.*.claims");
        assert_eq!(subjects::any_version(subjects::MEMORY_INGESTED), "memval.*.events.memory_ingested");
    }

    #[test]
    fn unix_millis_counts_from_the_epoch_both_ways() {
        use std::time::{Duration, UNIX_EPOCH};
        assert_eq!(unix_millis(UNIX_EPOCH + Duration::from_millis(1_764_000_000_123)), 1_764_000_000_123);
        assert_eq!(unix_millis(UNIX_EPOCH - Duration::from_millis(1_500)), -1_500);
    }

    #[test]
    fn action_thresholds_follow_spec() {
        let cases = [
            (0, Action::Pass),
            (1, Action::FlagForUser),
            (39, Action::FlagForUser),
            (40, Action::FlagForReview),
            (80, Action::FlagForReview),
            (81, Action::SuggestArchive),
            (100, Action::SuggestArchive),
        ];
        for (score, action) in cases {
            assert_eq!(Action::from_score(score), action, "score {score}");
        }
    }
}
