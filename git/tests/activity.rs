//! `Activity`: a git failure is reported with git's message, never read as "no commits since".

use std::process::Command;

use memval_git::Activity;

fn git(dir: &std::path::Path, args: &[&str], date: &str) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn counts_then_errors_when_history_is_broken() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"], "2026-01-01T00:00:00Z");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/a.rs"), "v1").unwrap();
    git(root, &["add", "-A"], "2026-01-01T00:00:00Z");
    git(root, &["commit", "-q", "-m", "one"], "2026-01-01T00:00:00Z");
    std::fs::write(root.join("src/a.rs"), "v2").unwrap();
    git(root, &["commit", "-qam", "two"], "2026-02-01T00:00:00Z");
    let g = Activity::open(root).unwrap();
    let jan15 = 1_768_435_200; // 2026-01-15T00:00:00Z
    assert_eq!(g.commits_since("src/a.rs", jan15, None).unwrap(), 1);
    assert_eq!(g.commits_since("src", 0, None).unwrap(), 2);
    assert_eq!(g.commits_since("src/nothing.rs", 0, None).unwrap(), 0);
    assert!(g
        .commits_since("../outside", 0, None)
        .unwrap_err()
        .to_string()
        .contains("not a path inside the repository"));
    // History gone: an error with git's words, not 0.
    std::fs::remove_dir_all(root.join(".git/objects")).unwrap();
    std::fs::create_dir_all(root.join(".git/objects")).unwrap();
    let err = g.commits_since("src/a.rs", jan15, None).unwrap_err().to_string();
    assert!(err.starts_with("git rev-list failed"), "{err}");
}

#[test]
fn no_repository_and_no_commit_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    assert!(Activity::open(dir.path()).unwrap_err().to_string().contains("not a git repository"));
    git(dir.path(), &["init", "-q"], "2026-01-01T00:00:00Z");
    assert_eq!(Activity::open(dir.path()).unwrap_err().to_string(), "the repository has no commit yet");
}
