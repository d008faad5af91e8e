//! The `git` command the history questions run, and reading what it printed. Every call runs
//! with `GIT_NO_LAZY_FETCH=1`, so a partial clone never reaches for its remote.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::GitError;

/// stdout of a successful run, or git's error with its own first words.
pub(super) fn output_checked(cmd: &mut Command, args: &[&str]) -> Result<String, GitError> {
    let out = cmd.stderr(Stdio::piped()).output().map_err(|e| GitError::Spawn(e.to_string()))?;
    if !out.status.success() {
        return Err(GitError::Failed {
            command: args.join(" "),
            status: out.status.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().chars().take(400).collect(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

pub(super) fn git(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("-C").arg(dir).args(["-c", "core.quotePath=false"]);
    // A partial clone must not reach for its promisor remote (no network, and a fetch per
    // missing blob would stall a run): a missing object is an error we handle.
    cmd.env("GIT_NO_LAZY_FETCH", "1");
    cmd.stdin(Stdio::null()).stderr(Stdio::null());
    cmd
}

pub(super) fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// stdout, or git's own first error line.
pub(super) fn output_or_error(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.stderr(Stdio::piped()).output().map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let first = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message").trim();
    let first: String = first.chars().take(200).collect();
    Err(format!("git log failed ({}): {first}", out.status))
}
