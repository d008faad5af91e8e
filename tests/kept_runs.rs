//! Runs that reuse what earlier runs kept in the store (verdicts, history, parsed definitions)
//! give the report a run on an empty store gives, after a commit that renames the file a
//! memory names, after an edit of the notes, and after a checkout of an older commit; and a run
//! in a state seen before reuses its kept verdicts.

#[allow(dead_code)]
mod support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::GitRepo;

const BEFORE: &str = "2026-01-01T00:00:00Z";
const MEMORY: &str = "2026-02-01T00:00:00Z";
const LATER: &str = "2026-03-01T00:00:00Z";

/// `memval validate` on `notes` with `store` (and `--no-cache` when `fresh`): the report
/// without what differs between any two runs, and how many memories reused kept verdicts.
fn run(repo: &GitRepo, store: &Path, fresh: bool) -> (Value, usize) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_memval"));
    cmd.args(["validate", "--repo", repo.path(), "--memories"])
        .arg(repo.dir.path().join("CLAUDE.md"))
        .arg("--store")
        .arg(store)
        .args(["--format", "json", "--fail-on", "never", "-q"])
        .env("MEMVAL_LOG", "memval::kept=debug");
    if fresh {
        cmd.arg("--no-cache");
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let mut report: Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["id", "started_at", "finished_at", "store"] {
        report["run"].as_object_mut().unwrap().remove(key);
    }
    let reused = stderr
        .lines()
        .filter(|l| l.contains("kept verdicts"))
        .filter_map(|l| l.split("reused=").nth(1)?.split_whitespace().next()?.parse::<usize>().ok())
        .sum();
    (report, reused)
}

/// (path, verdict, successor) of every file claim.
fn files(report: &Value) -> Vec<(String, String, Option<String>)> {
    report["memories"][0]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["claim_type"] == "file_reference")
        .map(|c| {
            (
                c["code_refs"][0]["path"].as_str().unwrap().to_owned(),
                c["verdict"].as_str().unwrap().to_owned(),
                c["successor"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

/// The report a run on `kept` gives equals a fresh run's; returns it and how many memories
/// reused kept verdicts.
fn same_as_fresh(repo: &GitRepo, kept: &Path, what: &str) -> (Value, usize) {
    let (report, reused) = run(repo, kept, false);
    let fresh = tempfile::tempdir().unwrap();
    let (expected, none) = run(repo, fresh.path(), true);
    assert_eq!(none, 0, "{what}: --no-cache reuses nothing");
    assert_eq!(report, expected, "{what}: a run on the kept store and a fresh run differ");
    (report, reused)
}

#[test]
fn kept_answers_never_outlive_a_rename_an_edit_or_a_checkout() {
    let repo = GitRepo::new();
    repo.write("src/main.rs", "mod cache;\nfn main() {}\n");
    repo.write("src/cache.rs", "pub struct ShardedCache {\n    shards: Vec<u8>,\n}\n");
    repo.commit("start", BEFORE);
    repo.write("CLAUDE.md", "# Notes\n\nThe cache lives in `src/cache.rs`; `ShardedCache` has one lock per shard.\n");
    repo.commit("notes", MEMORY);
    let store = tempfile::tempdir().unwrap();
    let kept = store.path().join("store");

    let (first, reused) = same_as_fresh(&repo, &kept, "first run");
    assert_eq!(reused, 0);
    assert_eq!(files(&first), vec![("src/cache.rs".into(), "VALID".into(), None)]);
    let (again, reused) = run(&repo, &kept, false);
    assert_eq!((again, reused), (first.clone(), 1), "nothing changed: the kept verdicts are used");

    // A commit renames the file: the kept VALID must not survive it.
    repo.git(&["mv", "src/cache.rs", "src/store.rs"]);
    repo.write("src/main.rs", "mod store;\nfn main() {}\n");
    repo.commit("rename the cache", LATER);
    let (renamed, reused) = same_as_fresh(&repo, &kept, "after the rename");
    assert_eq!(reused, 0);
    assert_eq!(files(&renamed), vec![("src/cache.rs".into(), "STALE".into(), Some("src/store.rs".into()))]);

    // The notes are edited (not committed): checked again, and right.
    repo.write("CLAUDE.md", "# Notes\n\nThe cache lives in `src/store.rs`; `ShardedCache` has one lock per shard.\n");
    let (edited, reused) = same_as_fresh(&repo, &kept, "after the edit");
    assert_eq!(reused, 0);
    assert_eq!(files(&edited), vec![("src/store.rs".into(), "VALID".into(), None)]);

    // Back to the commit the notes were written at: the first state's verdicts, kept, and right.
    repo.git(&["checkout", "-q", "--", "CLAUDE.md"]);
    repo.git(&["checkout", "-q", "--detach", "HEAD~1"]);
    let (older, reused) = same_as_fresh(&repo, &kept, "an older commit");
    assert_eq!(reused, 1, "the state of the first run was kept");
    assert_eq!(older, first);
}

#[test]
fn a_file_git_ignores_is_looked_at_again() {
    let repo = GitRepo::new();
    repo.write(".gitignore", "local/\n");
    repo.write("src/main.rs", "fn main() {}\n");
    repo.commit("start", BEFORE);
    repo.write("CLAUDE.md", "# Notes\n\nLocal settings go in `local/settings.toml` (git ignores it).\n");
    repo.commit("notes", MEMORY);
    let store = tempfile::tempdir().unwrap();
    let kept = store.path().join("store");
    let (before, _) = same_as_fresh(&repo, &kept, "no local file");
    // `git status` does not see an ignored file: the kept entry lists it, and it changed.
    repo.write("local/settings.toml", "debug = true\n");
    let (after, reused) = same_as_fresh(&repo, &kept, "the local file created");
    assert_eq!(reused, 0, "an ignored path the check looked at changed");
    let (again, reused) = run(&repo, &kept, false);
    assert_eq!((again, reused), (after, 1), "unchanged since: kept");
    let _ = before;
}
