//! memval's one reader of git history, through the `git` binary: what became of a path or a
//! name since a date (renames, deletions, a folder's fate, the commit that removed a
//! definition), old file versions ([`GitRepo`]), and the last commit date of memory files
//! ([`GitDates`]).
//!
//! History is complete or says it is not; a git error is reported, never read as "nothing
//! happened". This crate must never write to a repository or reach a remote: every call runs
//! with `GIT_NO_LAZY_FETCH=1`, and only read-only commands are run.

mod code;
mod dates;
mod history;

pub use code::{CODE_EXTENSIONS, TEST_PATHSPECS};
pub use dates::GitDates;
pub use history::{Change, ChangeKind, DirFate, GitRepo, Trace, MAX_NAME_SEARCHES, NAME_SEARCH_BUDGET, NAME_SEARCH_TIMEOUT};
