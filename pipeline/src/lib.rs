//! memval's stage wiring, the one place that decides where stages run and how their batches
//! travel: a whole run in one process over bounded channels ([`local`]), the cluster's
//! JetStream topology ([`topology`]), the long-running service roles ([`service`]), how a run
//! is cut into batches and submitted ([`submit`]), a run on a cluster ([`client`]), dead
//! letters ([`dlq`]), the model stages ([`models`]), the pair judge over a run's candidates
//! ([`judging`]), the reconciler role ([`reconciling`]) and its leases on periods, and `validate` as one call
//! ([`validate()`]).
//!
//! Stages never know their transport; this crate gives them one. It must never decide a
//! verdict or render a view: that is the stages' and the report's work.
//!
//! Must never let a stage or the binary build a channel or a consumer itself: only this crate
//! wires stages to transports.

mod error;

pub mod chain;
pub mod client;
pub mod config;
pub mod dlq;
pub mod judging;
pub mod kept;
mod lease;
pub mod local;
pub mod models;
pub mod reconciling;
pub mod service;
pub mod submit;
pub mod topology;
mod validate;

pub use error::Error;
pub use validate::{new_run_id, validate, Validate, Validated};
