//! What a change is, between a base revision and the working tree: the commit a revision
//! names, the paths that differ (committed or not, untracked included), their line changes,
//! and the diff a reviewer reads. The change judge adjudicates these; it does not run git.
//!
//! A git failure is an error, never "no changes": an empty change is only what git says it
//! is. Nothing here writes the repository (see [`crate::run`]).
//!
//! For `judge change --base`: the commit the revision names (one starting with `-` is refused),
//! every path that differs from it in the working tree (renames detected, untracked files that are
//! not ignored included), the `-U0` line changes per file (for weakening) and the `-U3` diff a
//! reviewer reads.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use crate::run::read_only;
use crate::GitError;

/// One changed path, as git names it (relative to the directory asked about).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangedPath {
    /// `A`dded, `M`odified, `D`eleted, `R`enamed, `T`ype changed, `U`ntracked.
    pub status: char,
    pub path: String,
    /// For a rename, where it came from (also part of the change).
    pub old_path: Option<String>,
}

/// Removed and added lines of one file, hunk by hunk.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct FileDiff {
    pub hunks: Vec<(Vec<String>, Vec<String>)>,
}

/// The commit `rev` names in the repository holding `root`. A `rev` that git would read as
/// an option is refused.
pub fn resolve_commit(root: &Path, rev: &str) -> Result<String, GitError> {
    if rev.starts_with('-') {
        return Err(GitError::BadArgument(format!("{rev:?} is not a revision")));
    }
    let out = read_only(root, &["rev-parse", "--verify", "--end-of-options", &format!("{rev}^{{commit}}")])?;
    Ok(String::from_utf8_lossy(&out).trim().to_owned())
}

/// Every path that differs between `base` and the working tree under `root`: tracked changes
/// (committed or not, renames detected) and untracked files that are not ignored, in git's
/// order (tracked first).
pub fn changed_paths(root: &Path, base: &str) -> Result<Vec<ChangedPath>, GitError> {
    let out = read_only(root, &["diff", "--name-status", "-z", "-M", "--relative", "--no-ext-diff", base, "--"])?;
    let mut changed = parse_name_status(&out)?;
    let untracked = read_only(root, &["ls-files", "--others", "--exclude-standard", "-z"])?;
    for path in untracked.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        changed.push(ChangedPath { status: 'U', path: String::from_utf8_lossy(path).into_owned(), old_path: None });
    }
    Ok(changed)
}

/// `git diff --name-status -z` output as changed paths.
fn parse_name_status(out: &[u8]) -> Result<Vec<ChangedPath>, GitError> {
    let ended = || GitError::Unexpected("git diff --name-status ended early".into());
    let mut fields = out.split(|b| *b == 0).map(|f| String::from_utf8_lossy(f).into_owned());
    let mut changed = Vec::new();
    while let Some(status) = fields.next() {
        if status.is_empty() {
            continue;
        }
        let code = status.chars().next().unwrap_or('?');
        let first = fields.next().ok_or_else(ended)?;
        if code == 'R' || code == 'C' {
            let second = fields.next().ok_or_else(ended)?;
            changed.push(ChangedPath {
                status: code,
                path: second,
                old_path: if code == 'R' { Some(first) } else { None },
            });
        } else {
            changed.push(ChangedPath { status: code, path: first, old_path: None });
        }
    }
    Ok(changed)
}

/// The line changes of every tracked file, keyed by its path after the change (a deleted
/// file under its old path).
pub fn line_changes(root: &Path, base: &str) -> Result<BTreeMap<String, FileDiff>, GitError> {
    let out = read_only(root, &["diff", "-U0", "-M", "--relative", "--no-ext-diff", "--no-textconv", base, "--"])?;
    Ok(parse_unified(&String::from_utf8_lossy(&out)))
}

/// The change as a reviewer reads it: a unified diff with 3 lines of context.
pub fn review_diff(root: &Path, base: &str) -> Result<String, GitError> {
    let out = read_only(root, &["diff", "-U3", "-M", "--relative", "--no-ext-diff", "--no-textconv", base, "--"])?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// A unified diff split per file and hunk.
pub fn parse_unified(text: &str) -> BTreeMap<String, FileDiff> {
    let mut files: BTreeMap<String, FileDiff> = BTreeMap::new();
    let mut minus_path = String::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("diff --git ") {
            current = None;
        } else if let Some(p) = line.strip_prefix("--- ") {
            minus_path = strip_side(p, "a/");
        } else if let Some(p) = line.strip_prefix("+++ ") {
            // A deleted file's lines are kept under its old path.
            let plus = strip_side(p, "b/");
            let path = if plus == "/dev/null" { minus_path.clone() } else { plus };
            files.entry(path.clone()).or_default();
            current = Some(path);
        } else if line.starts_with("@@") {
            if let Some(f) = current.as_ref().and_then(|p| files.get_mut(p)) {
                f.hunks.push((Vec::new(), Vec::new()));
            }
        } else if let Some(f) = current.as_ref().and_then(|p| files.get_mut(p)) {
            let Some(h) = f.hunks.last_mut() else { continue };
            if let Some(l) = line.strip_prefix('-') {
                h.0.push(l.to_owned());
            } else if let Some(l) = line.strip_prefix('+') {
                h.1.push(l.to_owned());
            }
        }
    }
    files
}

fn strip_side(p: &str, side: &str) -> String {
    let p = p.trim_end_matches('\t');
    let p = p.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(p);
    p.strip_prefix(side).unwrap_or(p).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_diffs_are_split_per_file_and_hunk() {
        let text = "diff --git a/src/a.rs b/src/a.rs\nindex 1..2 100644\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1 +1 @@\n-old\n+new\n@@ -5,0 +6 @@\n+more\ndiff --git a/gone.rs b/gone.rs\ndeleted file mode 100644\n--- a/gone.rs\n+++ /dev/null\n@@ -1 +0,0 @@\n-#[test]\n";
        let files = parse_unified(text);
        assert_eq!(
            files["src/a.rs"].hunks,
            vec![(vec!["old".to_string()], vec!["new".to_string()]), (vec![], vec!["more".to_string()])]
        );
        assert_eq!(files["gone.rs"].hunks, vec![(vec!["#[test]".to_string()], vec![])]);
    }

    #[test]
    fn name_status_reads_renames_copies_and_plain_changes() {
        let out = b"M\0src/a.rs\0R100\0old name.rs\0new name.rs\0C75\0src/b.rs\0src/c.rs\0D\0gone.rs\0";
        let got = parse_name_status(out).unwrap();
        let want = vec![
            ChangedPath { status: 'M', path: "src/a.rs".into(), old_path: None },
            ChangedPath { status: 'R', path: "new name.rs".into(), old_path: Some("old name.rs".into()) },
            ChangedPath { status: 'C', path: "src/c.rs".into(), old_path: None },
            ChangedPath { status: 'D', path: "gone.rs".into(), old_path: None },
        ];
        assert_eq!(got, want);
        assert_eq!(
            parse_name_status(b"M\0a.rs\0R100\0only-one"),
            Err(GitError::Unexpected("git diff --name-status ended early".into()))
        );
    }
}
