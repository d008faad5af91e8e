//! The one loop every stage runs in: pull a batch from an [`Inbox`], decode it with the wire
//! codec, hand it to the [`Stage`], publish its outputs under deterministic message ids, and
//! only then ack.
//!
//! A stage never knows its transport; this crate never knows a concrete stage. It must never
//! ack before the outputs are published, and never run more batches at once than configured.
//!
//! Each batch is handled in a `tracing` span whose parent is the trace context in the
//! message's headers ([`trace`]); whether spans are exported, and where, is the binary's
//! choice. This crate never installs a subscriber or an exporter.

pub mod panics;
mod stage;
pub mod trace;

pub use memval_transport::{Inbox, Outbox};
pub use stage::{publish_confirmed, publish_stored, run_stage, Stage, StageConfig, StageError, StageStats};
