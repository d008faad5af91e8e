//! What can stop a reconciliation. A single unreadable file is a finding, not an error: only
//! what makes the whole run meaningless is here.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ReconcileError {
    #[error("cannot read memories: {0}")]
    Memories(#[from] memval_sources::SourceError),
    #[error("{path}: {reason}")]
    Input { path: PathBuf, reason: String },
    #[error("bad --schedule {expression:?}: {reason}")]
    Schedule { expression: String, reason: String },
    #[error(transparent)]
    Embed(memval_embed::EmbedError),
    #[error(transparent)]
    Store(memval_store::StoreError),
    #[error("cannot write the report in {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
}
