//! A project whose old line was emptied and then merged with a new, unrelated line: the merge's
//! tree is the new line's, so git's default history simplification would follow only that
//! parent and drop the old line. memval reads the whole history: the old line's files were
//! there, and the commit that emptied it deleted them.

use memval_git::GitRepo;

mod common;
use common::git;

#[test]
fn the_old_line_of_a_merged_project_stays_in_history() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"], "2025-01-01T00:00:00Z");
    std::fs::create_dir_all(root.join("src/agents")).unwrap();
    std::fs::write(root.join("src/agents/agent.py"), "x = 1\n").unwrap();
    std::fs::write(root.join("README.md"), "old\n").unwrap();
    git(root, &["add", "-A"], "2025-01-01T00:00:00Z");
    git(root, &["commit", "-q", "-m", "old line"], "2025-01-01T00:00:00Z");
    // The new line starts from nothing, on its own branch.
    git(root, &["checkout", "-q", "--orphan", "next"], "2025-06-01T00:00:00Z");
    git(root, &["rm", "-rq", "--cached", "."], "2025-06-01T00:00:00Z");
    std::fs::remove_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(root.join("backend")).unwrap();
    std::fs::write(root.join("backend/app.py"), "y = 2\n").unwrap();
    std::fs::write(root.join("README.md"), "new\n").unwrap();
    git(root, &["add", "-A"], "2025-06-01T00:00:00Z");
    git(root, &["commit", "-q", "-m", "new line"], "2025-06-01T00:00:00Z");
    // The old line is emptied, then the new one merged in: the merge's tree is the new line's.
    git(root, &["checkout", "-q", "main"], "2025-07-01T00:00:00Z");
    git(root, &["rm", "-rq", "src"], "2025-07-01T00:00:00Z");
    git(root, &["commit", "-q", "-m", "prepare to merge"], "2025-07-01T00:00:00Z");
    let emptied = git(root, &["rev-parse", "HEAD"], "2025-07-01T00:00:00Z");
    git(
        root,
        &["merge", "-q", "--allow-unrelated-histories", "-X", "theirs", "--no-edit", "next"],
        "2025-07-02T00:00:00Z",
    );
    assert!(!root.join("src").exists());

    let repo = GitRepo::open(root).unwrap();
    let trace = repo.follow("src/agents/agent.py", None);
    assert!(trace.known, "the old line's file is in history");
    assert_eq!(trace.deleted_in.as_deref(), Some(emptied.as_str()));
    assert!(repo.follow("backend/app.py", None).known);
}
