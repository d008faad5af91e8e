//! A full disk under a running `memval serve scorer`, then cleared (issue 27, item 3).
//!
//! The scorer's store sits on a small tmpfs (memval's CI runs as root). A first run fits; then
//! the disk is filled to the byte while a second run goes on. sled takes no write again in a
//! process where one failed, so the scorer must not linger broken, nor dead-letter the run's
//! batches: it exits non-zero saying the disk is full, leaving its batch queued. The test then
//! does what a supervisor does once the disk has room: it starts the scorer again on the same
//! store, and the waiting run completes with every memory scored, nothing dead-lettered.

#[allow(dead_code)]
mod support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::nats::{many_memories, validate, NatsServer, Service};
use support::tmpfs::Tmpfs;
use support::{demo_repo, workspace};

/// Memories of the second run: enough batches that the scorer is still writing when the
/// disk is full.
const MEMORIES: usize = 300;

/// Every service's options: a batch held by a scorer that exited comes back quickly.
const COMMON: [&str; 2] = ["--nats-ack-wait", "2"];

/// `memval validate --nats` running in the background, its report and log in `dir`.
fn start_run(url: &str, memories: &std::path::Path, dir: &std::path::Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_memval"))
        .args(["validate", "--repo", demo_repo().to_str().unwrap(), "--memories", memories.to_str().unwrap()])
        .args(["--format", "json", "--fail-on", "never", "--batch-size", "1", "--nats", url])
        .stdout(std::fs::File::create(dir.join("report.json")).unwrap())
        .stderr(Stdio::from(std::fs::File::create(dir.join("stderr.log")).unwrap()))
        .spawn()
        .unwrap()
}

#[test]
fn a_scorer_whose_disk_filled_exits_saying_so_and_its_restart_finishes_the_run_once_cleared() {
    let disk = Tmpfs::mount("16m");
    let store = disk.path().join("store");
    let work = tempfile::tempdir().unwrap();
    let logs = work.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let nats = NatsServer::start();
    let url = nats.url();
    let repo = demo_repo();
    let mut investigator_args = COMMON.to_vec();
    investigator_args.extend(["--repo", repo.to_str().unwrap()]);
    let mut scorer_args = COMMON.to_vec();
    scorer_args.extend(["--store", store.to_str().unwrap()]);
    let _extractor = Service::start("extractor", &url, &COMMON, &logs);
    let _investigator = Service::start("investigator", &url, &investigator_args, &logs);
    let scorer = Service::start("scorer", &url, &scorer_args, &logs);

    // A first run fits: the store exists and is healthy before the disk fills.
    let examples = workspace().join("examples/memories/memories.jsonl");
    let first = validate(&repo, &examples, &["--nats", &url]);
    assert_eq!(first.status.code(), Some(0), "{}", String::from_utf8_lossy(&first.stderr));

    let filler = disk.fill();
    let memories = many_memories(work.path(), MEMORIES);
    let mut run = start_run(&url, &memories, work.path());

    // The scorer cannot write its store and cannot recover in this process: it exits
    // non-zero, and says why.
    let (code, log) = scorer.exits_within(Duration::from_secs(120));
    assert_eq!(code, Some(2), "{log}");
    assert!(log.contains("is full") && log.contains("free space"), "the scorer must say the disk is full: {log}");
    assert!(log.contains("restarts"), "the scorer must say a restart recovers: {log}");
    assert!(run.try_wait().unwrap().is_none(), "the run gave up while the scorer was away");

    // The disk is cleared, and the supervisor starts the scorer again on the same store.
    std::fs::remove_file(filler).unwrap();
    let restarted = Service::start("scorer", &url, &scorer_args, &logs);
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(status) = run.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the run did not complete after the restart:\n{}", restarted.log_text());
        std::thread::sleep(Duration::from_millis(100));
    };
    let stderr = std::fs::read_to_string(work.path().join("stderr.log")).unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}\n{}", restarted.log_text());
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("report.json")).unwrap()).unwrap();
    assert_eq!(report["memories"].as_array().map(Vec::len), Some(MEMORIES), "{stderr}");
    let (code, log) = restarted.terminate();
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("0 dead-lettered"), "a full disk dead-letters nothing: {log}");
}
