//! Why a draft could not be judged: its memory folder, the draft itself, or the transport.

#[derive(Debug, thiserror::Error)]
pub enum DraftError {
    /// The memory folder cannot be used (missing, not a folder, not a memory folder).
    #[error("memory folder {path}: {reason}")]
    MemoryFolder { path: String, reason: String },
    /// The draft cannot be judged (empty, too large, not UTF-8).
    #[error("draft: {0}")]
    Draft(String),
    /// The request/reply service lost or could not reach NATS.
    #[error(transparent)]
    Transport(#[from] memval_transport::TransportError),
}
