use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::{subjects, Action, Claim, ClaimResult, Memory, MemoryMeta, UnixSeconds};

/// A type that travels between stages as one batch.
pub trait Message: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// Subject family of the message: what a stage consuming it subscribes to.
    const SUBJECT: &'static str;
    /// Subject this message is published on: [`Message::SUBJECT`], or below it for messages
    /// addressed to one run (scores go to `memval.v1.scores.<run_id>`).
    fn subject(&self) -> String {
        Self::SUBJECT.to_owned()
    }
    fn run(&self) -> &RunHeader;
    /// Unique per batch; outputs derive their message ids from it.
    fn batch_id(&self) -> &str;
    /// Memories this batch accounts for (for run bookkeeping and progress).
    fn memory_count(&self) -> usize;
}

/// Identifies a run and what it must produce to be complete.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunHeader {
    pub run_id: String,
    /// Repo as the submitter named it (path or name).
    pub repo: String,
    /// `HEAD` commit the run checks against, when the repo is a git repo.
    pub commit: Option<String>,
    pub started_at: UnixSeconds,
    /// The run is complete when this many memories have been scored.
    pub expected_memories: u32,
}

/// Input of the extractor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryBatch {
    pub run: RunHeader,
    pub batch_id: String,
    pub memories: Vec<Memory>,
}

/// A memory and the claims extracted from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtractedMemory {
    pub memory: MemoryMeta,
    pub claims: Vec<Claim>,
    /// Set when `claims` is empty (docs/contracts.md §2 rule 4).
    pub skip_reason: Option<String>,
    /// What of the memory was not turned into claims, and why (a limit reached): reported
    /// under `not_checked`, never dropped silently.
    pub left_out: Vec<LeftOut>,
}

/// A part of a memory the extractor did not turn into claims.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftOut {
    /// First line of the memory's text left out.
    pub line: u32,
    pub reason: String,
}

/// Output of the extractor, input of the investigator. Carries whole memories, so a
/// memory's claims are never split across batches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimBatch {
    pub run: RunHeader,
    pub batch_id: String,
    pub items: Vec<ExtractedMemory>,
}

/// A memory with outcomes for (some of) its claims.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckedMemory {
    pub memory: MemoryMeta,
    /// How many claims the memory has in all; the scorer waits for this many results.
    pub total_claims: u32,
    pub results: Vec<ClaimResult>,
    pub skip_reason: Option<String>,
    /// The extractor's [`ExtractedMemory::left_out`], carried to the report.
    pub left_out: Vec<LeftOut>,
}

/// Output of the investigator, input of the scorer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictBatch {
    pub run: RunHeader,
    pub batch_id: String,
    pub items: Vec<CheckedMemory>,
}

/// A fully checked memory with its docs/contracts.md §3 score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryScore {
    pub memory: MemoryMeta,
    /// `None` when no claim of the memory was checked (nothing to score).
    pub score: Option<u8>,
    pub action: Option<Action>,
    pub results: Vec<ClaimResult>,
    pub skip_reason: Option<String>,
    /// The extractor's [`ExtractedMemory::left_out`], carried to the report.
    pub left_out: Vec<LeftOut>,
}

/// Output of the scorer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreBatch {
    pub run: RunHeader,
    pub batch_id: String,
    pub items: Vec<MemoryScore>,
}

macro_rules! message {
    (@impl $ty:ty, $subject:expr, $items:ident, { $($extra:tt)* }) => {
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
    ($ty:ty, $subject:expr, $items:ident) => {
        message!(@impl $ty, $subject, $items, {});
    };
    ($ty:ty, $subject:expr, $items:ident, per_run) => {
        message!(@impl $ty, $subject, $items, {
            fn subject(&self) -> String {
                subjects::for_run(Self::SUBJECT, &self.run.run_id)
            }
        });
    };
}

message!(MemoryBatch, subjects::MEMORIES, memories);
message!(ClaimBatch, subjects::CLAIMS, items);
message!(VerdictBatch, subjects::VERDICTS, items);
// Several runs can be in flight on one cluster; each client reads only its own scores.
message!(ScoreBatch, subjects::SCORES, items, per_run);
