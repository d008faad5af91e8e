//! A project imported with `git subtree add --squash`: git-subtree writes the other project's
//! tree as one commit from its own root ("Squashed 'backend/' content from commit ...") and
//! merges it in under `backend/`. Its paths are this repository's under `backend/`; read at the
//! root they would be paths this repository had and lost (`bin/recreate_db` "moved" to
//! `backend/bin/recreate_db`).

use memval_git::{ChangeKind, GitRepo};

mod common;
use common::git;

/// Builds the commits `git subtree add --squash --prefix=backend` and a later `git subtree pull
/// --squash` make, with git's plumbing (git-subtree is not on every machine).
#[test]
fn a_squashed_subtree_s_paths_are_under_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let at = "2025-01-01T00:00:00Z";
    git(root, &["init", "-q", "-b", "main"], at);
    std::fs::write(root.join("README.md"), "arena\n").unwrap();
    git(root, &["add", "-A"], at);
    git(root, &["commit", "-q", "-m", "start"], at);
    // The squashed import: the other project's tree from its root, on a line of its own.
    let later = "2025-02-01T00:00:00Z";
    git(root, &["checkout", "-q", "--orphan", "squash"], later);
    git(root, &["rm", "-rq", "--cached", "."], later);
    std::fs::remove_file(root.join("README.md")).unwrap();
    std::fs::create_dir_all(root.join("bin")).unwrap();
    std::fs::write(root.join("bin/recreate_db"), "#!/bin/sh\n").unwrap();
    git(root, &["add", "-A"], later);
    git(root, &["commit", "-q", "-m", "Squashed 'backend/' content from commit 50f2807"], later);
    let squash = git(root, &["rev-parse", "HEAD"], later);
    // A pull: the next squash commit continues the last, still from the subproject's root.
    std::fs::write(root.join("bin/get_token"), "#!/bin/sh\n").unwrap();
    git(root, &["add", "-A"], later);
    git(root, &["commit", "-q", "-m", "Squashed 'backend/' changes from 50f2807..9a1b2c3"], later);
    let pulled = git(root, &["rev-parse", "HEAD"], later);
    std::fs::remove_dir_all(root.join("bin")).unwrap();
    git(root, &["checkout", "-q", "-f", "main"], later);
    for (commit, message) in
        [(&squash, format!("Merge commit '{squash}' as 'backend'")), (&pulled, format!("Merge commit '{pulled}'"))]
    {
        git(root, &["merge", "-q", "-s", "ours", "--no-commit", "--allow-unrelated-histories", commit], later);
        git(root, &["rm", "-rq", "--ignore-unmatch", "backend"], later);
        git(root, &["read-tree", "--prefix=backend/", "-u", commit], later);
        git(root, &["commit", "-q", "-m", &message], later);
    }
    assert!(root.join("backend/bin/recreate_db").is_file());

    let repo = GitRepo::open(root).unwrap();
    let history = repo.history();
    let added: Vec<&str> = history
        .iter()
        .filter_map(|c| match &c.kind {
            ChangeKind::Added { path } => Some(path.as_str()),
            _ => None,
        })
        .collect();
    assert!(added.contains(&"backend/bin/recreate_db"), "{added:?}");
    assert!(added.contains(&"backend/bin/get_token"), "{added:?}");
    assert!(!repo.follow("bin/recreate_db", None).known, "the root path was never this repository's");
    assert!(repo.follow("backend/bin/recreate_db", None).known);
}
