//! What `git blame` says of one line: the types the blame reader (`blame.rs`) fills and the
//! repository handle (`history.rs`) keeps per checkout. A leaf, so both import it and neither
//! imports the other.

use std::sync::Arc;

use memval_proto::UnixSeconds;

/// Which commit last wrote a line, as `git blame` of the work tree's file says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineWritten {
    /// The line as it is was committed in `commit`, at committer time `time`.
    Committed { commit: String, time: UnixSeconds },
    /// The line differs from every committed version (written since the last commit).
    Uncommitted,
}

/// Every line's [`LineWritten`], index 0 for line 1.
pub(crate) type FileLines = Arc<Vec<LineWritten>>;
