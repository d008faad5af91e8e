//! memval's one reader of git history, through the `git` binary: what became of a path or a
//! name since a date (renames, deletions, a folder's fate, the commit that removed a
//! definition), old file versions ([`GitRepo`]), the last commit date of memory files
//! ([`GitDates`]), how often paths changed since a date ([`Activity`]), what a change
//! is against a base revision ([`diff`]), which name took another's place in a commit
//! (`substitution.rs`), which manifests a commit deleted or gave a new dependency
//! (`manifests.rs`), and which commit wrote a line of a tracked file (`blame.rs`). No other memval crate runs git.
//!
//! History is complete or says it is not; a git error is reported, never read as "nothing
//! happened". This crate must never write to a repository or reach a remote: every call runs
//! with `GIT_NO_LAZY_FETCH=1`, and only read-only commands are run.
//!
//! [`Activity`] and [`diff`] run git through one runner (`run.rs`: `--no-optional-locks`,
//! `GIT_OPTIONAL_LOCKS=0`, no external diff or textconv, `GIT_DIR`/`GIT_WORK_TREE` from the
//! environment ignored) that turns a failure into a [`GitError`] carrying git's own message.
//! Paths from memory text become `:(literal)` pathspecs after `--`, absolute or climbing ones
//! refused before git sees them; a revision that starts with `-` is refused. `code.rs` lists
//! which files are code and which are tests, for the history searches. No other crate's library
//! or binary code spawns `git`; tests, and the benchmark's fixture builder in `bench/`, run it to
//! build repositories.

mod activity;
mod blame;
mod code;
mod dates;
pub mod diff;
mod error;
mod history;
mod kept;
mod manifests;
mod name_log;

/// Whether a history search for `name` is a lookup in the one patch walk a checkout reads
/// (an identifier), rather than a `git log -S` of its own.
pub fn name_search_is_logged(name: &str) -> bool {
    name_log::is_identifier(name)
}
mod run;
mod state;
mod substitution;
mod written;

pub use activity::Activity;
pub use code::{CODE_EXTENSIONS, TEST_PATHSPECS};
pub use dates::GitDates;
pub use error::GitError;
pub use history::{ere_literal, Change, ChangeKind, DirFate, GitRepo, Progress, Trace, NAME_SEARCH_COMMITS};
pub use kept::{newest_first, Cache};
pub use manifests::{is_manifest, names_package, ManifestChange, MANIFEST_NAMES};
pub use state::{worktree_state, WorktreeState};
pub use substitution::Substitution;
pub use written::LineWritten;
