//! The little git a reconciliation needs, through the `git` binary: a file's last commit
//! date and how many commits touched a path since a date.
//!
//! A git failure is an error carrying git's own message, never "no history": a report that
//! said "no commits" because git could not answer would be a false all-clear. Paths come from
//! memory files (untrusted): each is passed after `--` as a literal pathspec, and anything
//! absolute or climbing out of the repo is refused before git sees it.

use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// A repository git can answer for.
#[derive(Debug, Clone)]
pub struct Git {
    top: PathBuf,
}

fn run(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("git {} failed: {}", args.first().unwrap_or(&""), err.trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `path` as a literal pathspec relative to the repository, or why it is refused.
pub fn pathspec(path: &str) -> Result<String, String> {
    let p = Path::new(path.trim_start_matches("./"));
    if path.trim().is_empty() || p.is_absolute() || p.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        return Err(format!("{path:?} is not a path inside the repository"));
    }
    Ok(format!(":(literal){}", p.to_string_lossy().trim_end_matches('/')))
}

impl Git {
    /// The repository at `repo`, or why git cannot be used there (git missing, not a
    /// repository, no commit yet).
    pub fn open(repo: &Path) -> Result<Git, String> {
        Command::new("git").arg("--version").output().map_err(|_| "git not available".to_owned())?;
        let top = run(repo, &["rev-parse", "--show-toplevel"])?;
        run(repo, &["rev-parse", "--verify", "--quiet", "HEAD"]).map_err(|_| "the repository has no commit yet".to_owned())?;
        Ok(Git { top: PathBuf::from(top.trim()) })
    }

    pub fn top(&self) -> &Path {
        &self.top
    }

    /// Unix time of the last commit touching `path` (relative to the top), `None` if never
    /// committed.
    pub fn last_commit(&self, path: &str) -> Result<Option<i64>, String> {
        let spec = pathspec(path)?;
        let out = run(&self.top, &["log", "-1", "--format=%ct", "HEAD", "--", &spec])?;
        Ok(out.trim().parse().ok())
    }

    /// Commits reachable from HEAD that touched `path` strictly after `since` (unix seconds),
    /// leaving out those that only touched `exclude`.
    pub fn commits_since(&self, path: &str, since: i64, exclude: Option<&str>) -> Result<u32, String> {
        let spec = pathspec(path)?;
        // An ISO date: git reads "@<seconds>" as a timestamp only for large enough numbers.
        let after = match chrono::DateTime::from_timestamp(since + 1, 0) {
            Some(t) => format!("--since={}", t.format("%Y-%m-%dT%H:%M:%S+00:00")),
            None => return Err(format!("{since} is not a usable date")),
        };
        let mut args = vec!["rev-list", "--count", &after, "HEAD", "--", &spec];
        let ex;
        if let Some(x) = exclude {
            ex = format!(":(exclude,literal){}", pathspec(x)?.trim_start_matches(":(literal)"));
            args.push(&ex);
        }
        let out = run(&self.top, &args)?;
        out.trim().parse().map_err(|_| format!("git rev-list gave {:?}, not a count", out.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pathspecs_stay_inside() {
        assert_eq!(pathspec("src/a.rs").unwrap(), ":(literal)src/a.rs");
        assert_eq!(pathspec("./api/").unwrap(), ":(literal)api");
        assert_eq!(pathspec(":(glob)**").unwrap(), ":(literal):(glob)**");
        for bad in ["/etc/passwd", "../x", "a/../../b", ""] {
            assert!(pathspec(bad).is_err(), "{bad}");
        }
    }
}
