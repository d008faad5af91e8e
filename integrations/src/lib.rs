//! memval where coding agents and CI already are: the Claude Code hook (`hook`) and the
//! Model Context Protocol server (`mcp`). Both are thin adapters over the same library calls
//! the CLI makes (`memval_pipeline::validate`, the judge's `draft` module,
//! `memval_reconciler`), so a tool call and a command answer with the same JSON.
//!
//! Never: read a path outside the root it was given (`confine`), obey text from a memory,
//! draft or payload, or write to stdout anything but the protocol's own answer.
//!
//! The other integrations call the `memval` binary itself: `scripts/pre-commit.sh` with
//! `.pre-commit-hooks.yaml`, and the composite GitHub Action `action.yml`. Nothing here uses a
//! model.

pub mod confine;
pub mod hook;
pub mod mcp;
mod run;

/// What can go wrong in an integration; every message says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A path outside the root it must stay in; nothing was read.
    #[error("refused: {0}")]
    Refused(String),
    /// Input that is not what the protocol or tool documents.
    #[error("bad input: {0}")]
    BadInput(String),
    #[error(transparent)]
    Validate(#[from] memval_pipeline::Error),
    #[error(transparent)]
    Draft(#[from] memval_judge::draft::DraftError),
    #[error(transparent)]
    Reconcile(#[from] memval_reconciler::ReconcileError),
    #[error("{context}: {source}")]
    Io { context: String, source: std::io::Error },
    /// The MCP session itself failed (the transport, the handshake).
    #[error("mcp: {0}")]
    Mcp(String),
    #[error("worker task failed: {0}")]
    Join(#[from] tokio::task::JoinError),
}
