//! What the investigator's tests with real git share: running git at a fixed date, writing a
//! file of the tree.

use std::path::Path;
use std::process::Command;

/// stdout of `git <args>` in `root`, authored and committed at `at` (Unix seconds); panics
/// with git's message when it fails.
pub fn git(root: &Path, args: &[&str], at: i64) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .env("GIT_AUTHOR_DATE", format!("@{at} +0000"))
        .env("GIT_COMMITTER_DATE", format!("@{at} +0000"))
        .current_dir(root)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Writes `text` to `path` under `root`, making its folders.
pub fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}
