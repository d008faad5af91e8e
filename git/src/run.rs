//! The one way the questions of [`crate::Activity`] and [`crate::diff`] run git: read-only,
//! with git's failure as an error carrying its own words.
//!
//! Must never write to the repository (`--no-optional-locks`: not even an index refresh),
//! reach a remote (`GIT_NO_LAZY_FETCH`), run a configured external diff or textconv, or
//! obey a `GIT_DIR`/`GIT_WORK_TREE` from the environment over the directory it is given.

use std::path::{Component, Path};
use std::process::{Command, Stdio};

use crate::GitError;

/// `git -C dir <args>` run read-only, to its end.
fn run(dir: &Path, args: &[&str]) -> Result<std::process::Output, GitError> {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .arg("--no-optional-locks")
        .args(["-c", "core.quotepath=off", "-c", "diff.external=", "-c", "color.ui=false"])
        .args(args)
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| GitError::Spawn(e.to_string()))
}

/// stdout of `git -C dir <args>`, or git's error.
pub(crate) fn read_only(dir: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    let out = run(dir, args)?;
    if !out.status.success() {
        return Err(GitError::Failed {
            command: args.join(" "),
            status: out.status.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        });
    }
    Ok(out.stdout)
}

/// Whether `git -C dir <args>` exits 0 (`true`) or 1 (`false`), for the questions git answers
/// with its exit status (`merge-base --is-ancestor`); any other exit is git's error.
pub(crate) fn status(dir: &Path, args: &[&str]) -> Result<bool, GitError> {
    let out = run(dir, args)?;
    match out.status.code() {
        Some(0) => Ok(true),
        Some(1) => Ok(false),
        _ => Err(GitError::Failed {
            command: args.join(" "),
            status: out.status.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        }),
    }
}

/// Whether the `git` binary can be run here.
pub(crate) fn available() -> bool {
    Command::new("git").arg("--version").stdin(Stdio::null()).output().is_ok_and(|o| o.status.success())
}

/// `path` (relative to the repository's top, from untrusted text) as a literal pathspec, or
/// why it is refused: absolute paths and `..` never reach git.
pub(crate) fn pathspec(path: &str) -> Result<String, GitError> {
    let p = Path::new(path.trim_start_matches("./"));
    if path.trim().is_empty()
        || p.is_absolute()
        || p.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(GitError::OutsideRepository(path.to_owned()));
    }
    Ok(format!(":(literal){}", p.to_string_lossy().trim_end_matches('/')))
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
            assert_eq!(pathspec(bad), Err(GitError::OutsideRepository(bad.to_owned())), "{bad}");
        }
    }
}
