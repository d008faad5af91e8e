//! `GitRepo::name_removed`: a search for a name given without a file reads a fixed number of
//! the newest commits (work, not seconds), so its answer is the same on any machine; when the
//! commits it may read hold no change and history goes further back, it says the older history
//! was not searched instead of answering "never in the code".

use std::path::Path;

use memval_git::GitRepo;

mod common;
use common::git;

/// `gone_name` defined in the first commit and removed in the second; five more commits that
/// touch only another file. Returns the removing commit.
fn history(root: &Path) -> String {
    git(root, &["init", "-q", "-b", "main"], "2026-01-01T00:00:00Z");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/a.rs"), "fn gone_name() {}\nfn kept() {}\n").unwrap();
    git(root, &["add", "-A"], "2026-01-01T00:00:00Z");
    git(root, &["commit", "-q", "-m", "one"], "2026-01-01T00:00:00Z");
    std::fs::write(root.join("src/a.rs"), "fn kept() {}\n").unwrap();
    git(root, &["commit", "-qam", "remove"], "2026-01-02T00:00:00Z");
    let removed = git(root, &["rev-parse", "HEAD"], "2026-01-02T00:00:00Z");
    for day in 3..8 {
        let date = format!("2026-01-0{day}T00:00:00Z");
        std::fs::write(root.join("src/b.rs"), format!("fn b{day}() {{}}\n")).unwrap();
        git(root, &["add", "-A"], &date);
        git(root, &["commit", "-q", "-m", &format!("b{day}")], &date);
    }
    removed
}

#[test]
fn a_search_reads_a_fixed_window_of_commits_and_says_when_older_history_was_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let removed = history(dir.path());

    // The whole history fits: the removing commit is found, the same every time.
    let wide = GitRepo::open(dir.path()).unwrap().with_name_search_commits(10);
    let found = wide.name_removed("gone_name", None).unwrap();
    assert_eq!(found.iter().map(|(c, _, _)| c.as_str()).collect::<Vec<_>>(), vec![removed.as_str()]);
    assert_eq!(wide.name_removed("gone_name", None).unwrap(), found);
    // A name no commit ever had: no change, a complete answer.
    assert!(wide.name_removed("never_there", None).unwrap().is_empty());

    // Three commits: the removal is older than the window, so neither name gets an answer.
    let narrow = GitRepo::open(dir.path()).unwrap().with_name_search_commits(3);
    for name in ["gone_name", "never_there"] {
        let why = narrow.name_removed(name, None).unwrap_err();
        assert!(why.contains("not searched") && why.contains("newest 3 commits"), "{why}");
        // An unanswered search is kept as unanswered, never turned into "no change".
        assert_eq!(narrow.name_removed(name, None).unwrap_err(), why);
    }

    // Since a date after the removal the range is five commits; a window of five covers it
    // all, and nothing in it changed the name.
    let since = 1_767_312_000 + 12 * 3600; // 2026-01-02T12:00:00Z
    let exact = GitRepo::open(dir.path()).unwrap().with_name_search_commits(5);
    assert!(exact.name_removed("gone_name", Some(since)).unwrap().is_empty());
}
