//! What can go wrong asking git: the caller reports it (a finding not checked, a run that
//! cannot judge), it never reads it as "no history" or "no change".

/// A git question that got no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GitError {
    /// The `git` binary cannot be run at all.
    #[error("git not available")]
    NotAvailable,
    /// The process could not be started.
    #[error("cannot run git: {0}")]
    Spawn(String),
    /// git ran and failed: the command (its arguments after `git`), how it exited, and its
    /// own message, trimmed.
    #[error("git {command} failed ({status}): {stderr}")]
    Failed { command: String, status: String, stderr: String },
    /// The repository exists but has no commit to read history from.
    #[error("the repository has no commit yet")]
    NoCommit,
    /// A path (from untrusted text) that is absolute or climbs out of the repository.
    #[error("{0:?} is not a path inside the repository")]
    OutsideRepository(String),
    /// An argument git cannot be given safely (an option where a revision belongs, a date
    /// out of range).
    #[error("{0}")]
    BadArgument(String),
    /// git answered in a shape it never gives.
    #[error("{0}")]
    Unexpected(String),
}
