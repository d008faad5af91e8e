//! `diff`: what a change is against a base, read from a real repository; a revision git does
//! not know is an error with git's words, never an empty change.

use std::path::Path;
use std::process::Command;

use memval_git::diff::{changed_paths, line_changes, resolve_commit, review_diff, ChangedPath};
use memval_git::GitError;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

#[test]
fn a_change_is_every_path_git_sees_differ() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join("keep.rs"), "fn a() {}\nlet tolerance = 0.1;\n").unwrap();
    std::fs::write(root.join("gone.rs"), "#[test]\nfn t() {}\n").unwrap();
    std::fs::write(root.join("old name.rs"), "one\ntwo\nthree\nfour\nfive\n").unwrap();
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    let base = git(root, &["rev-parse", "HEAD"]);

    std::fs::write(root.join("keep.rs"), "fn a() {}\nlet tolerance = 0.5;\n").unwrap();
    git(root, &["rm", "-q", "gone.rs"]);
    git(root, &["mv", "old name.rs", "new name.rs"]);
    git(root, &["commit", "-q", "-m", "committed part"]);
    std::fs::write(root.join("untracked.txt"), "new\n").unwrap();

    assert_eq!(resolve_commit(root, "main~1").unwrap(), base);
    let mut changed = changed_paths(root, &base).unwrap();
    changed.sort_by(|a, b| a.path.cmp(&b.path));
    let want = vec![
        ChangedPath { status: 'D', path: "gone.rs".into(), old_path: None },
        ChangedPath { status: 'M', path: "keep.rs".into(), old_path: None },
        ChangedPath { status: 'R', path: "new name.rs".into(), old_path: Some("old name.rs".into()) },
        ChangedPath { status: 'U', path: "untracked.txt".into(), old_path: None },
    ];
    assert_eq!(changed, want);
    let lines = line_changes(root, &base).unwrap();
    assert_eq!(
        lines["keep.rs"].hunks,
        vec![(vec!["let tolerance = 0.1;".to_string()], vec!["let tolerance = 0.5;".to_string()])]
    );
    assert_eq!(lines["gone.rs"].hunks, vec![(vec!["#[test]".to_string(), "fn t() {}".to_string()], vec![])]);
    assert!(review_diff(root, &base).unwrap().contains("-let tolerance = 0.1;\n+let tolerance = 0.5;"));
}

#[test]
fn unknown_revisions_and_options_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join("a"), "a").unwrap();
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "one"]);
    match resolve_commit(root, "no-such-branch") {
        Err(GitError::Failed { command, stderr, .. }) => {
            assert!(command.starts_with("rev-parse") && command.contains("no-such-branch"), "{command}");
            assert!(!stderr.is_empty());
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(resolve_commit(root, "--output=/tmp/x"), Err(GitError::BadArgument(_))));
    let err = changed_paths(root, "0000000000000000000000000000000000000000").unwrap_err();
    assert!(err.to_string().starts_with("git diff --name-status"), "{err}");
    let outside = tempfile::tempdir().unwrap();
    assert!(resolve_commit(outside.path(), "HEAD").unwrap_err().to_string().contains("not a git repository"));
}
