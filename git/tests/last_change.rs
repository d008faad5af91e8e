//! `GitRepo::last_change_of`: the same answer as `git log -n 1 -S<needle> HEAD -- <path>`
//! whether or not it ran that search (a name no version of the file ever contained is ruled
//! out from the file's versions), kept per (path, needle), and a failing search is git's
//! error, every time it is asked, never a kept "no commit".

use std::path::Path;

use memval_git::GitRepo;

mod common;
use common::git;

/// What git's own search answers, for comparison.
fn pickaxe(dir: &Path, path: &str, needle: &str) -> Option<String> {
    let found = git(
        dir,
        &["log", "-n", "1", "--format=%H", &format!("-S{needle}"), "HEAD", "--", path],
        "2026-01-01T00:00:00Z",
    );
    (!found.is_empty()).then_some(found)
}

/// src/a.rs: `old_name` renamed to `new_name`, a helper added then removed, a merge of a
/// side branch that edits the file; src/b.rs untouched after its first commit.
fn history(root: &Path) -> Vec<String> {
    git(root, &["init", "-q", "-b", "main"], "2026-01-01T00:00:00Z");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/a.rs"), "fn old_name() {}\n").unwrap();
    std::fs::write(root.join("src/b.rs"), "fn stays() {}\n").unwrap();
    git(root, &["add", "-A"], "2026-01-01T00:00:00Z");
    git(root, &["commit", "-q", "-m", "one"], "2026-01-01T00:00:00Z");
    let one = git(root, &["rev-parse", "HEAD"], "2026-01-01T00:00:00Z");
    std::fs::write(root.join("src/a.rs"), "fn new_name() {}\nfn helper() {}\n").unwrap();
    git(root, &["commit", "-qam", "rename"], "2026-02-01T00:00:00Z");
    let two = git(root, &["rev-parse", "HEAD"], "2026-02-01T00:00:00Z");
    git(root, &["checkout", "-q", "-b", "side"], "2026-02-02T00:00:00Z");
    std::fs::write(root.join("src/a.rs"), "fn new_name() {}\nfn helper() {}\nfn side_only() {}\n").unwrap();
    git(root, &["commit", "-qam", "side"], "2026-02-03T00:00:00Z");
    git(root, &["checkout", "-q", "main"], "2026-02-04T00:00:00Z");
    std::fs::write(root.join("src/c.rs"), "fn c() {}\n").unwrap();
    git(root, &["add", "-A"], "2026-02-04T00:00:00Z");
    git(root, &["commit", "-q", "-m", "c"], "2026-02-04T00:00:00Z");
    git(root, &["merge", "-q", "--no-edit", "side"], "2026-02-05T00:00:00Z");
    std::fs::write(root.join("src/a.rs"), "fn new_name() {}\nfn side_only() {}\n").unwrap();
    git(root, &["commit", "-qam", "drop helper"], "2026-03-01T00:00:00Z");
    let three = git(root, &["rev-parse", "HEAD"], "2026-03-01T00:00:00Z");
    vec![one, two, three]
}

#[test]
fn answers_what_git_log_s_answers_and_rules_out_names_no_version_had() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let commits = history(root);
    let repo = GitRepo::open(root).unwrap();
    let cases = [
        ("src/a.rs", "old_name", Some(&commits[1])),
        ("src/a.rs", "new_name", Some(&commits[1])),
        ("src/a.rs", "helper", Some(&commits[2])),
        ("src/a.rs", "NeverThere", None),
        ("src/b.rs", "stays", Some(&commits[0])),
        ("src/b.rs", "old_name", None),
        ("src/gone.rs", "anything", None),
    ];
    for (path, needle, expected) in cases {
        let git_says = pickaxe(root, path, needle);
        assert_eq!(git_says.as_ref(), expected, "the case itself: {path} {needle}");
        // Twice: the second answer comes from the cache and must be the same.
        for round in 0..2 {
            assert_eq!(repo.last_change_of(path, needle).unwrap(), git_says, "{path} {needle}, round {round}");
        }
    }
    // The side branch's commit, diffed like git diffs it (`-S` sees the side commit).
    let side_only = pickaxe(root, "src/a.rs", "side_only");
    assert!(side_only.is_some());
    assert_eq!(repo.last_change_of("src/a.rs", "side_only").unwrap(), side_only);
    // Names that would read as options or magic pathspecs never reach git.
    assert_eq!(repo.last_change_of("src/a.rs", "--all").unwrap(), None);
    assert_eq!(repo.last_change_of(":(glob)**", "old_name").unwrap(), None);
}

#[test]
fn a_failing_search_is_an_error_each_time_not_a_kept_none() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let commits = history(root);
    let repo = GitRepo::open(root).unwrap();
    // The blob of the first version of src/a.rs is lost: listing versions still works, but
    // neither memval nor `git log -S` can read that version.
    let lost = git(root, &["rev-parse", &format!("{}:src/a.rs", commits[0])], "2026-01-01T00:00:00Z");
    let lost_path = root.join(".git/objects").join(&lost[..2]).join(&lost[2..]);
    std::fs::remove_file(&lost_path).unwrap();
    for round in 0..2 {
        let err = repo.last_change_of("src/a.rs", "NeverThere").unwrap_err().to_string();
        assert!(
            err.starts_with("git log -n 1 --format=%H -SNeverThere HEAD -- src/a.rs failed"),
            "round {round}: {err}"
        );
    }
    // Another file's answer is still given.
    assert_eq!(repo.last_change_of("src/b.rs", "NeverThere").unwrap(), None);
    // All objects gone: the search fails, it does not answer "never changed".
    std::fs::remove_dir_all(root.join(".git/objects")).unwrap();
    std::fs::create_dir_all(root.join(".git/objects")).unwrap();
    assert!(repo.last_change_of("src/c.rs", "c").unwrap_err().to_string().contains("failed"));
}
