//! How recently and how often paths changed: a file's last commit date and the commits that
//! touched a path since a date (the reconciler's staleness and its files' dates).
//!
//! A git failure is an error carrying git's own message, never "no commits": a report that
//! said "nothing changed" because git could not answer would be a false all-clear. Paths
//! come from memory files (untrusted): each goes after `--` as a literal pathspec
//! (`run::pathspec`), and anything absolute or climbing out is refused before git sees it.
//!
//! A file's last commit date, and the commits that touched a path after a date (`git rev-list
//! --count --since`), leaving out a doc's own commits when the reconciler asks about the code near
//! it.

use std::path::{Path, PathBuf};

use crate::run::{available, pathspec, read_only};
use crate::GitError;

/// A repository with at least one commit, whose path activity git can answer for.
#[derive(Debug, Clone)]
pub struct Activity {
    top: PathBuf,
}

fn text(dir: &Path, args: &[&str]) -> Result<String, GitError> {
    match read_only(dir, args) {
        Ok(out) => Ok(String::from_utf8_lossy(&out).into_owned()),
        // A reconciliation report lists this beside the path it was about: the subcommand
        // names what failed, and the row stays one line.
        Err(GitError::Failed { status, stderr, .. }) => {
            Err(GitError::Failed { command: args.first().copied().unwrap_or_default().to_owned(), status, stderr })
        }
        Err(e) => Err(e),
    }
}

impl Activity {
    /// The repository holding `repo`, or why git cannot answer there (git missing, not a
    /// repository, no commit yet).
    pub fn open(repo: &Path) -> Result<Activity, GitError> {
        if !available() {
            return Err(GitError::NotAvailable);
        }
        let top = text(repo, &["rev-parse", "--show-toplevel"])?;
        text(repo, &["rev-parse", "--verify", "--quiet", "HEAD"]).map_err(|_| GitError::NoCommit)?;
        Ok(Activity { top: PathBuf::from(top.trim()) })
    }

    /// The top of the work tree; paths asked about are relative to it.
    pub fn top(&self) -> &Path {
        &self.top
    }

    /// Unix time of the last commit reachable from HEAD that touched `path`, `None` if it
    /// was never committed.
    pub fn last_commit(&self, path: &str) -> Result<Option<i64>, GitError> {
        let spec = pathspec(path)?;
        let out = text(&self.top, &["log", "-1", "--format=%ct", "HEAD", "--", &spec])?;
        Ok(out.trim().parse().ok())
    }

    /// Commits reachable from HEAD that touched `path` strictly after `since` (unix seconds),
    /// leaving out those that only touched `exclude`.
    pub fn commits_since(&self, path: &str, since: i64, exclude: Option<&str>) -> Result<u32, GitError> {
        let spec = pathspec(path)?;
        // An ISO date: git reads "@<seconds>" as a timestamp only for large enough numbers.
        let after = match since.checked_add(1).and_then(|s| chrono::DateTime::from_timestamp(s, 0)) {
            Some(t) => format!("--since={}", t.format("%Y-%m-%dT%H:%M:%S+00:00")),
            None => return Err(GitError::BadArgument(format!("{since} is not a usable date"))),
        };
        let mut args = vec!["rev-list", "--count", &after, "HEAD", "--", &spec];
        let ex;
        if let Some(x) = exclude {
            ex = format!(":(exclude,literal){}", pathspec(x)?.trim_start_matches(":(literal)"));
            args.push(&ex);
        }
        let out = text(&self.top, &args)?;
        out.trim().parse().map_err(|_| GitError::Unexpected(format!("git rev-list gave {:?}, not a count", out.trim())))
    }
}
