//! What a checkout is right now, as one digest: its `HEAD` commit and every path `git status`
//! reports as differing from it (modified, staged, deleted, or untracked and not ignored), each
//! with a hash of what is on disk. Two checkouts with the same digest have the same tracked
//! files and the same untracked files a `.gitignore`-aware walk sees, so whatever was computed
//! from one holds for the other (memval keys its kept verdicts by it).
//!
//! `git status` runs without optional locks (it never refreshes or writes the index) and with
//! the user's global excludes file switched off, as memval's own walk of the tree reads only
//! the repository's `.gitignore` files and `.git/info/exclude`: a file that only a global
//! exclude hides is still one whose change must show.
//!
//! Not in the digest: replace refs (`refs/replace`), a changed `diff.*.textconv` setting, and the
//! target of a symlink that points outside the repository. A user who changes those should run
//! once with `--no-cache`.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::run::read_only;
use crate::GitError;

/// A checkout's `HEAD` and the digest of its state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorktreeState {
    pub head: String,
    pub digest: String,
}

/// The state of the checkout `dir` is in; an error when git cannot say (not a repository,
/// no commit, a broken index).
pub fn worktree_state(dir: &Path) -> Result<WorktreeState, GitError> {
    let out = String::from_utf8_lossy(&read_only(dir, &["rev-parse", "--show-toplevel", "HEAD"])?).into_owned();
    let mut lines = out.lines();
    let (Some(top), Some(head)) = (lines.next(), lines.next()) else {
        return Err(GitError::Failed {
            command: "rev-parse --show-toplevel HEAD".into(),
            status: "0".into(),
            stderr: "git printed no commit".into(),
        });
    };
    let status = read_only(
        dir,
        &[
            "-c",
            "core.excludesFile=/dev/null",
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--no-renames",
            "--ignore-submodules=none",
        ],
    )?;
    let top = Path::new(top);
    let mut hash = Sha256::new();
    hash.update(head.as_bytes());
    for entry in status.split(|&b| b == 0).filter(|e| e.len() > 3) {
        hash.update([0]);
        hash.update(entry);
        let path = String::from_utf8_lossy(&entry[3..]).into_owned();
        hash.update([0]);
        hash.update(content(&top.join(path)));
    }
    Ok(WorktreeState { head: head.trim().to_owned(), digest: hex(&hash.finalize()) })
}

/// What is at `path` now: a file's bytes (hashed), a link's target, or what kind of thing it is.
fn content(path: &Path) -> Vec<u8> {
    let Ok(meta) = std::fs::symlink_metadata(path) else { return b"absent".to_vec() };
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path).map(|t| t.display().to_string()).unwrap_or_default();
        return [b"link ".as_slice(), target.as_bytes()].concat();
    }
    if !meta.is_file() {
        return b"not a file".to_vec();
    }
    match std::fs::read(path) {
        Ok(bytes) => Sha256::digest(&bytes).to_vec(),
        Err(e) => format!("unreadable {e}").into_bytes(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"])
            .args(args)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }

    #[test]
    fn every_change_a_walk_can_see_changes_the_digest_and_an_ignored_file_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q", "-b", "main"]);
        std::fs::write(root.join(".gitignore"), "build/\n").unwrap();
        std::fs::write(root.join("a.rs"), "fn a() {}\n").unwrap();
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "one"]);
        let clean = worktree_state(root).unwrap();
        assert_eq!(worktree_state(root).unwrap(), clean, "nothing changed");

        std::fs::create_dir_all(root.join("build")).unwrap();
        std::fs::write(root.join("build/out.o"), "x").unwrap();
        assert_eq!(worktree_state(root).unwrap(), clean, "an ignored file is not seen");

        std::fs::write(root.join("a.rs"), "fn b() {}\n").unwrap();
        let edited = worktree_state(root).unwrap();
        assert_ne!(edited, clean);
        std::fs::write(root.join("a.rs"), "fn c() {}\n").unwrap();
        assert_ne!(worktree_state(root).unwrap().digest, edited.digest, "a second edit of a modified file");

        std::fs::write(root.join("a.rs"), "fn a() {}\n").unwrap();
        assert_eq!(worktree_state(root).unwrap(), clean, "back as committed");
        std::fs::write(root.join("new.rs"), "").unwrap();
        assert_ne!(worktree_state(root).unwrap(), clean, "an untracked file");
        std::fs::remove_file(root.join("new.rs")).unwrap();

        git(root, &["commit", "-q", "--allow-empty", "-m", "two"]);
        let next = worktree_state(root).unwrap();
        assert_ne!(next.head, clean.head, "a new commit");
        assert!(worktree_state(&root.join("nothing")).is_err());
    }
}
