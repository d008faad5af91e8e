//! What can stop a change validation. A leaf: every part of the change judge, and the model
//! review in `crate::model::change`, returns it without depending on the judge's other parts.

#[derive(Debug, thiserror::Error)]
pub enum ChangeError {
    /// Bad input: an unreadable root or acceptance file, a malformed criterion.
    #[error("{0}")]
    Input(String),
    /// git could not say what changed (no repository, an unknown revision, a failing call).
    #[error(transparent)]
    Git(#[from] memval_git::GitError),
    #[error("internal error: {0}")]
    Internal(String),
}
