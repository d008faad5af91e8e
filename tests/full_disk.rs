//! A full disk, for real: a small tmpfs mounted for the test (memval's CI runs as root),
//! filled to the last byte, under the run store and under `-o FILE`. A run that cannot store
//! its results says the disk is full and what to do, prints no report and exits 2; a report
//! that cannot be written leaves neither half a report nor its temporary file behind.

#[allow(dead_code)] // not every helper is used here
mod support;

use std::path::{Path, PathBuf};

use support::tmpfs::Tmpfs;
use support::{memval, GitRepo};

fn repo_and_memories(dir: &Path) -> (GitRepo, PathBuf) {
    let repo = GitRepo::new();
    repo.write("src/main.rs", "fn main() {}\n");
    repo.write("src/lib.rs", "pub fn parse_header() {}\n");
    repo.commit("init", "2026-01-01T00:00:00Z");
    let memories = dir.join("m.jsonl");
    let lines: String = (0..200)
        .map(|i| format!("{{\"id\": \"m{i}\", \"content\": \"The entry point is `src/main.rs` and `parse_header()` is in `src/lib.rs`; the old one was `src/gone{i}.rs`.\"}}\n"))
        .collect();
    std::fs::write(&memories, lines).unwrap();
    (repo, memories)
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_store_on_a_full_disk_says_so_and_nothing_is_reported_as_complete() {
    // Room for a run's store with what it keeps for the next run (verdicts, history): the
    // disk is filled to the byte either way.
    let disk = Tmpfs::mount("16m");
    let work = tempfile::tempdir().unwrap();
    let (repo, memories) = repo_and_memories(work.path());
    let store = disk.path().join("store");
    let run = || {
        memval(&[
            "validate",
            "--repo",
            repo.path(),
            "--memories",
            memories.to_str().unwrap(),
            "--format",
            "json",
            "--fail-on",
            "never",
            "-q",
            "--store",
            store.to_str().unwrap(),
        ])
    };
    // A first run fits, so the store exists and is healthy before the disk fills.
    let first = run();
    assert_eq!(first.status.code(), Some(0), "{}", String::from_utf8_lossy(&first.stderr));
    let filler = disk.fill();
    let out = run();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "a run whose results could not be stored must fail: {err}");
    assert!(
        err.contains("is full") && err.contains("free space") && err.contains("--store"),
        "the error must say the disk is full and what to do: {err}"
    );
    assert!(!err.contains("move it aside"), "a full disk is not a corrupt store: {err}");
    assert!(
        out.stdout.is_empty(),
        "a report was printed for a run that could not be stored:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // With room again, the same store works: the full disk did not corrupt it.
    std::fs::remove_file(filler).unwrap();
    let again = run();
    assert_eq!(again.status.code(), Some(0), "the store after a full disk: {}", String::from_utf8_lossy(&again.stderr));
    let report: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(report["memories"].as_array().map(Vec::len), Some(200));
}

#[test]
fn a_report_onto_a_full_disk_leaves_nothing_behind() {
    let disk = Tmpfs::mount("512k");
    let work = tempfile::tempdir().unwrap();
    let (repo, memories) = repo_and_memories(work.path());
    disk.fill();
    let report = disk.path().join("report.json");
    let out = memval(&[
        "validate",
        "--repo",
        repo.path(),
        "--memories",
        memories.to_str().unwrap(),
        "--format",
        "json",
        "--fail-on",
        "never",
        "-q",
        "--store",
        work.path().join("store").to_str().unwrap(),
        "-o",
        report.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("disk is full") && err.contains("report.json") && err.contains("elsewhere"),
        "the error must name the report, the full disk and what to do: {err}"
    );
    assert!(!err.contains("memval-tmp"), "the error names the temporary file instead of the report: {err}");
    assert_eq!(
        files_in(disk.path()),
        vec!["filler".to_owned()],
        "a full disk left a report or its temporary file behind"
    );
}
