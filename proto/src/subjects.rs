//! Subjects, named for what was produced, not for who consumes it, and the wire version
//! every subject carries.

/// Version segment of every subject; bump when a message layout changes incompatibly.
pub const WIRE_VERSION: &str = "v1";

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
