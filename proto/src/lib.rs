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
pub mod tools;
mod verdict;

pub use claim::{Assertion, Claim, ClaimType, CodeRef, Tier};
pub use memory::{make_ids_unique, Memory, MemoryMeta, Source};
pub use messages::{
    CheckedMemory, ClaimBatch, ExtractedMemory, LeftOut, MemoryBatch, MemoryScore, Message, RunHeader, ScoreBatch,
    VerdictBatch,
};
pub use pairs::{Judgement, JudgementBatch, Pair, PairBatch, PairVerdict};
pub use verdict::{Action, ClaimResult, Outcome, Verdict};

/// Version segment of every subject; bump when a message layout changes incompatibly.
pub const WIRE_VERSION: &str = "v1";

/// Subjects, named for what was produced, not for who consumes it.
pub mod subjects {
    /// Memories submitted for validation (input of the extractor).
    pub const MEMORIES: &str = "memval.v1.memories";
    /// Claims extracted from memories (input of the investigator).
    pub const CLAIMS: &str = "memval.v1.claims";
    /// Verdicts for claims (input of the scorer).
    pub const VERDICTS: &str = "memval.v1.verdicts";
    /// Scored memories (what a run waits for), published per run below this subject:
    /// `memval.v1.scores.<run_id>`.
    pub const SCORES: &str = "memval.v1.scores";
    /// Dead letters, per stage below this subject: `memval.v1.dlq.<stage>`.
    pub const DLQ: &str = "memval.v1.dlq";
    /// A memory-ingest event (JSON, schema in the README): starts a run of its memories.
    pub const MEMORY_INGESTED: &str = "memval.v1.events.memory_ingested";
    /// Candidate pairs of memories of different agents (input of the pair judge).
    pub const PAIRS: &str = "memval.v1.pairs";
    /// Judgements of candidate pairs (output of the pair judge), published per run below
    /// this subject: `memval.v1.judgements.<run_id>`.
    pub const JUDGEMENTS: &str = "memval.v1.judgements";
    /// Reconciliation requests, per repo name below this subject:
    /// `memval.v1.reconcile.<repo name>` (core NATS; a reply subject gets the outcome).
    pub const RECONCILE: &str = "memval.v1.reconcile";
    /// Claims of one reconciliation per repo and period, below this subject:
    /// `memval.v1.leases.reconcile.<repo>.<period>`. The first claim of a subject is stored,
    /// every later one refused, so of two reconcilers fired by the same schedule or event
    /// one writes the report.
    pub const RECONCILE_LEASES: &str = "memval.v1.leases.reconcile";
    /// Request/reply: `{"draft": "..."}` in, the memory-conflict judgement (docs/contracts.md §7) out.
    pub const JUDGE_DRAFT: &str = "memval.v1.judge.draft";

    /// `family.<token>`, with `token` made safe as one subject token (no `.`, `*`, `>`,
    /// whitespace or control characters).
    pub fn for_run(family: &str, token: &str) -> String {
        format!("{family}.{}", subject_token(token))
    }

    pub fn subject_token(text: &str) -> String {
        let token: String = text
            .chars()
            .map(|c| if c == '.' || c == '*' || c == '>' || c.is_whitespace() || c.is_control() { '_' } else { c })
            .collect();
        if token.is_empty() {
            "_".to_owned()
        } else {
            token
        }
    }

    /// `memval.v1.claims` → `memval.*.claims`: the family across wire versions, so a
    /// message of an unknown version still reaches its stage and is dead-lettered there
    /// with a reason instead of sitting unread.
    pub fn any_version(subject: &str) -> String {
        let mut parts: Vec<&str> = subject.split('.').collect();
        if parts.len() > 1 {
            parts[1] = "*";
        }
        parts.join(".")
    }
}

/// Seconds since the Unix epoch, UTC. Kept as an integer on the wire so postcard stays compact
/// and nothing depends on a date library's serde format.
pub type UnixSeconds = i64;

/// Milliseconds since the Unix epoch, UTC: for deadlines that seconds would round away.
pub type UnixMillis = i64;

/// `time` as [`UnixMillis`] (negative before 1970, saturating far from it). The caller reads
/// the clock: this crate does no I/O.
pub fn unix_millis(time: std::time::SystemTime) -> UnixMillis {
    match time.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_millis()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_millis()).map_or(i64::MIN, |ms| -ms),
    }
}

/// Format a timestamp as RFC 3339 (`2026-03-15T10:00:00Z`).
pub fn rfc3339(ts: UnixSeconds) -> String {
    chrono::DateTime::<chrono::Utc>::from_timestamp(ts, 0)
        .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_else(|| ts.to_string())
}

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
