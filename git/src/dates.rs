//! Last-commit dates from the `git` binary, the docs/contracts.md §6 fallback when a file's front matter
//! has no `updated_at`.
//!
//! One `git log` walk per repository answers every file of a load, and stops as soon as each
//! file has been seen, so a folder of a thousand READMEs costs one process, not a thousand.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use memval_proto::UnixSeconds;

/// Pathspecs per `git log` call, to stay far below the OS argument-length limit.
const PATHS_PER_CALL: usize = 500;

/// Last commit date of each file asked for; files that are untracked, outside a repository,
/// or seen without `git` installed have none.
#[derive(Debug, Default)]
pub struct GitDates {
    dates: HashMap<PathBuf, UnixSeconds>,
}

impl GitDates {
    /// Looks up the last commit date of each of `files` (canonical paths) in the repository
    /// that contains `dir`.
    pub fn lookup(dir: &Path, files: &[PathBuf]) -> GitDates {
        let mut out = GitDates::default();
        if files.is_empty() {
            return out;
        }
        let Some(top) = toplevel(dir) else {
            tracing::debug!(dir = %dir.display(), "not in a git repository, files have no commit dates");
            return out;
        };
        let mut wanted: HashMap<String, PathBuf> = HashMap::new();
        for file in files {
            if let Some(rel) = file.strip_prefix(&top).ok().and_then(to_git_path) {
                wanted.insert(rel, file.clone());
            }
        }
        let rels: Vec<String> = wanted.keys().cloned().collect();
        for chunk in rels.chunks(PATHS_PER_CALL) {
            match last_commits(&top, chunk) {
                Ok(found) => {
                    for (rel, ts) in found {
                        if let Some(file) = wanted.get(&rel) {
                            out.dates.insert(file.clone(), ts);
                        }
                    }
                }
                Err(e) => {
                    tracing::warn!(repo = %top.display(), error = %e, "git log failed, files have no commit dates");
                    break;
                }
            }
        }
        out
    }

    pub fn get(&self, file: &Path) -> Option<UnixSeconds> {
        self.dates.get(file).copied()
    }
}

fn git() -> Command {
    let mut cmd = Command::new("git");
    cmd.stdin(Stdio::null()).stderr(Stdio::null());
    // Never page, never take an optional lock in a repository someone is working in, never
    // reach for a partial clone's remote.
    cmd.env("GIT_PAGER", "cat").env("GIT_OPTIONAL_LOCKS", "0").env("GIT_NO_LAZY_FETCH", "1");
    cmd
}

fn toplevel(dir: &Path) -> Option<PathBuf> {
    let out = git().arg("-C").arg(dir).args(["rev-parse", "--show-toplevel"]).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    std::fs::canonicalize(text.trim_end_matches(['\n', '\r'])).ok()
}

fn to_git_path(rel: &Path) -> Option<String> {
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    let joined = parts?.join("/");
    (!joined.is_empty()).then_some(joined)
}

/// Walks `git log` newest first and records the first (latest) commit date seen for each of
/// `rels`; stops the walk once all are found.
fn last_commits(top: &Path, rels: &[String]) -> std::io::Result<HashMap<String, UnixSeconds>> {
    let mut cmd = git();
    cmd.arg("-C")
        .arg(top)
        .args(["-c", "core.quotepath=off", "log", "--format=%x01%ct", "--name-only", "--no-renames", "-z", "--"])
        .args(rels.iter().map(|r| format!(":(literal){r}")))
        .stdout(Stdio::piped());
    let mut child = cmd.spawn()?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut reader = BufReader::new(stdout);
    let mut pending: HashSet<&str> = rels.iter().map(String::as_str).collect();
    let mut found = HashMap::new();
    let mut current: Option<UnixSeconds> = None;
    let mut token = Vec::new();
    // Output: "\x01<ct>\0\n<path>\0<path>\0\x01<ct>\0\n<path>\0..."
    while !pending.is_empty() {
        token.clear();
        if reader.read_until(0, &mut token)? == 0 {
            break;
        }
        if token.last() == Some(&0) {
            token.pop();
        }
        let text = String::from_utf8_lossy(&token);
        if let Some(ts) = text.strip_prefix('\u{1}') {
            current = ts.trim().parse().ok();
            continue;
        }
        let path = text.trim_start_matches('\n');
        if let (Some(ts), true) = (current, pending.remove(path)) {
            found.insert(path.to_string(), ts);
        }
    }
    // Stopping early leaves git walking the rest of the history: end it (a no-op once it has
    // exited) rather than wait for it.
    let _ = child.kill();
    let _ = child.wait();
    Ok(found)
}
