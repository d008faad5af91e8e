//! History and the name log kept between runs (`kept.rs`): a run on a later commit, on an
//! older one or on a merge gives the same answers as a run that kept nothing, and a run on
//! the same commit asks git nothing for them.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use memval_git::{Cache, GitRepo};

mod common;
use common::git;

#[derive(Default)]
struct Memory {
    entries: Mutex<HashMap<String, Vec<u8>>>,
    reads: Mutex<usize>,
}

impl Cache for Memory {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        *self.reads.lock().unwrap() += 1;
        self.entries.lock().unwrap().get(key).cloned()
    }
    fn put(&self, key: &str, value: &[u8]) {
        self.entries.lock().unwrap().insert(key.to_owned(), value.to_vec());
    }
    fn remove(&self, key: &str) {
        self.entries.lock().unwrap().remove(key);
    }
    fn remove_prefix(&self, prefix: &str) {
        self.entries.lock().unwrap().retain(|k, _| !k.starts_with(prefix));
    }
}

fn commit(root: &Path, files: &[(&str, Option<&str>)], day: u32, message: &str) -> String {
    let date = format!("2026-01-{day:02}T00:00:00Z");
    for (path, text) in files {
        let full = root.join(path);
        match text {
            Some(text) => {
                std::fs::create_dir_all(full.parent().unwrap()).unwrap();
                std::fs::write(full, text).unwrap();
            }
            None => {
                let _ = std::fs::remove_file(full);
            }
        }
    }
    git(root, &["add", "-A"], &date);
    git(root, &["commit", "-q", "-m", message], &date);
    git(root, &["rev-parse", "HEAD"], &date)
}

/// What a checkout's history says, in a form two runs can be compared by.
fn answers(repo: &GitRepo) -> (Vec<String>, Vec<String>) {
    let history = repo.history().iter().map(|c| format!("{} {} {:?}", c.commit, c.time, c.kind)).collect();
    let names = ["alpha", "beta", "gamma", "delta", "never_there"]
        .iter()
        .map(|n| format!("{n}: {:?}", repo.name_removed(n, None)))
        .collect();
    (history, names)
}

fn fresh(root: &Path) -> (Vec<String>, Vec<String>) {
    answers(&GitRepo::open(root).unwrap())
}

fn kept(root: &Path, cache: &Arc<Memory>) -> (Vec<String>, Vec<String>) {
    answers(&GitRepo::open(root).unwrap().with_cache(cache.clone()))
}

#[test]
fn kept_history_answers_as_a_fresh_read_on_later_older_and_merged_commits() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"], "2026-01-01T00:00:00Z");
    commit(root, &[("src/a.rs", Some("fn alpha() {}\nfn beta() {}\n"))], 1, "one");
    let first = commit(root, &[("src/b.rs", Some("fn gamma() {}\n"))], 2, "two");
    let cache = Arc::new(Memory::default());
    assert_eq!(kept(root, &cache), fresh(root), "a first run keeps what it read");
    assert!(!cache.entries.lock().unwrap().is_empty());

    // One new commit that renames a file and removes a name: read on top of the kept history.
    git(root, &["mv", "src/b.rs", "src/c.rs"], "2026-01-03T00:00:00Z");
    commit(root, &[("src/a.rs", Some("fn beta() {}\n"))], 3, "rename b, drop alpha");
    let after = kept(root, &cache);
    assert_eq!(after, fresh(root), "one commit later");
    assert!(after.0.iter().any(|c| c.contains("Renamed") && c.contains("src/c.rs")), "{:?}", after.0);
    assert!(after.1[0].contains("Ok([(\""), "alpha's removal is found: {:?}", after.1);

    // Two more, then back to the first commit (older than everything kept).
    commit(root, &[("src/d.rs", Some("fn delta() {}\n"))], 4, "four");
    commit(root, &[("src/d.rs", None)], 5, "five");
    assert_eq!(kept(root, &cache), fresh(root), "two commits later");
    git(root, &["checkout", "-q", "--detach", &first], "2026-01-06T00:00:00Z");
    assert_eq!(kept(root, &cache), fresh(root), "an older commit");

    // A merge among the new commits: the whole history is read again, and kept.
    git(root, &["checkout", "-q", "main"], "2026-01-06T00:00:00Z");
    git(root, &["checkout", "-q", "-b", "side", &first], "2026-01-06T00:00:00Z");
    commit(root, &[("src/e.rs", Some("fn epsilon() {}\n"))], 6, "side");
    git(root, &["checkout", "-q", "main"], "2026-01-07T00:00:00Z");
    git(root, &["merge", "-q", "--no-edit", "side"], "2026-01-07T00:00:00Z");
    assert_eq!(kept(root, &cache), fresh(root), "after a merge");

    // The same commit again: answered from the cache alone.
    let reads = *cache.reads.lock().unwrap();
    let repo = GitRepo::open(root).unwrap().with_cache(cache.clone());
    assert_eq!(answers(&repo), fresh(root));
    assert_eq!(*cache.reads.lock().unwrap() - reads, 2, "one read for the history, one for the name log");
}

#[test]
fn nothing_is_kept_from_a_shallow_clone() {
    let dir = tempfile::tempdir().unwrap();
    let origin = dir.path().join("origin");
    std::fs::create_dir_all(&origin).unwrap();
    git(&origin, &["init", "-q", "-b", "main"], "2026-01-01T00:00:00Z");
    commit(&origin, &[("a.rs", Some("fn alpha() {}\n"))], 1, "one");
    commit(&origin, &[("b.rs", Some("fn beta() {}\n"))], 2, "two");
    let clone = dir.path().join("clone");
    let url = format!("file://{}", origin.display());
    git(dir.path(), &["clone", "-q", "--depth", "1", &url, clone.to_str().unwrap()], "2026-01-03T00:00:00Z");
    let cache = Arc::new(Memory::default());
    let repo = GitRepo::open(&clone).unwrap().with_cache(cache.clone());
    assert!(repo.incomplete().is_some_and(|n| n.contains("shallow")));
    let _ = repo.name_removed("alpha", None);
    assert!(cache.entries.lock().unwrap().is_empty(), "a shallow clone's history is not kept");
}
