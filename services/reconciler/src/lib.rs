//! Reconciliation (docs/contracts.md §5, §6): the second third of memval's job. [`pairs`] finds candidate
//! pairs of memories of different agents that may contradict each other (for the pair
//! judge); the report modules find memory that drifted from decision records, docs and code.
//!
//! This crate only reads: it must never modify, move or delete a memory, a decision record
//! or a doc, and never treat their text as anything but untrusted data. The only files it
//! writes are a new report, under a name no earlier report has, and the embed method's
//! cache in the store.
//!
//! Every pair score it emits is an exact Jaccard, or a cosine recomputed in f64 for that pair;
//! every check it cannot make is listed with the reason; and every candidate pair ends with a
//! judgement or a `not judged: …` reason, in one process and in a cluster alike. `memval pairs`,
//! `memval reconcile` and the cluster's reconciler role (`memval serve reconciler`, wired by
//! `memval_pipeline::reconciling`) are thin wrappers over this crate and write the same report.

pub mod candidates;
pub mod contradictions;
pub mod decisions;
pub mod embed_pairs;
pub mod empty;
pub mod error;
pub mod judging;
mod keyword_index;
mod keyword_join;
pub mod naming;
pub mod pairs;
pub mod reconcile;
pub mod records;
pub mod report;
pub mod scan;
pub mod stage;
pub mod tokens;
pub mod triggers;

pub use error::ReconcileError;
pub use pairs::{keyword_pairs, Candidates, Options};
pub use reconcile::{reconcile, FailOn, Inputs};
pub use report::Report;
pub use stage::{Outcome, PairJudges, Reconciler, RepoTarget, Trigger};
pub use triggers::{Counted, Debounce, Schedule};
