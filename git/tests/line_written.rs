//! `GitRepo::line_written_at`: when a line of a file at `HEAD` was written, by `git blame`,
//! for the line as a whole (a later line that contains the same text does not count), and
//! git's error when blame fails, never a made-up "no line".

use memval_git::GitRepo;

mod common;
use common::git;

#[test]
fn the_commit_that_wrote_the_line_gives_its_time() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"], "2026-01-01T00:00:00Z");
    std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
    git(root, &["add", "-A"], "2026-01-01T00:00:00Z");
    git(root, &["commit", "-q", "-m", "one"], "2026-01-01T00:00:00Z");
    std::fs::write(root.join(".gitignore"), "target/\nui/\n").unwrap();
    git(root, &["commit", "-qam", "ignore ui"], "2026-03-01T00:00:00Z");
    std::fs::write(root.join(".gitignore"), "target/\nui/\nui/cache/\n").unwrap();
    git(root, &["commit", "-qam", "ignore ui cache"], "2026-04-01T00:00:00Z");
    let repo = GitRepo::open(root).unwrap();
    let at = |s: &str| chrono::DateTime::parse_from_rfc3339(s).unwrap().timestamp();
    assert_eq!(repo.line_written_at(".gitignore", "target/").unwrap(), Some(at("2026-01-01T00:00:00Z")));
    assert_eq!(repo.line_written_at(".gitignore", "ui/").unwrap(), Some(at("2026-03-01T00:00:00Z")));
    assert_eq!(repo.line_written_at(".gitignore", "  ui/cache/ ").unwrap(), Some(at("2026-04-01T00:00:00Z")));
    assert_eq!(repo.line_written_at(".gitignore", "docs").unwrap(), None);
    assert!(repo.line_written_at("no/such/file", "x").is_err(), "blame of a missing file is git's error");
}
