//! Nothing is lost and nothing counts twice when things break mid-run: investigators
//! stopped (SIGTERM once, then SIGKILL) at random points, and the NATS server restarted. The run completes with the
//! verdicts and scores of an undisturbed in-process run, each memory scored exactly once.

#[allow(dead_code)]
mod support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::demo_repo;
use support::nats::{comparable, history, many_memories, validate, Cluster, NatsServer};
use support::rng::Rng;

/// Enough memories (one per batch) for a run to last while the test breaks things.
const MEMORIES: usize = 1500;
/// Short, so work held by a killed investigator comes back quickly.
const ACK_WAIT: &str = "2";

struct Client {
    child: Child,
    stdout: std::path::PathBuf,
    stderr: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Client {
    fn start(url: &str, repo: &std::path::Path, memories: &std::path::Path) -> Client {
        let dir = tempfile::tempdir().unwrap();
        let (stdout, stderr) = (dir.path().join("report.json"), dir.path().join("stderr.log"));
        let child = Command::new(env!("CARGO_BIN_EXE_memval"))
            .args(["validate", "--repo", repo.to_str().unwrap(), "--memories", memories.to_str().unwrap()])
            .args(["--format", "json", "--fail-on", "never", "--batch-size", "1", "--nats", url])
            .stdout(std::fs::File::create(&stdout).unwrap())
            .stderr(Stdio::from(std::fs::File::create(&stderr).unwrap()))
            .spawn()
            .unwrap();
        Client { child, stdout, stderr, _dir: dir }
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    fn finish(mut self, cluster: &Cluster) -> Value {
        let deadline = Instant::now() + Duration::from_secs(600);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "the run did not complete:\n{}\n{}",
                    std::fs::read_to_string(&self.stderr).unwrap(),
                    cluster.logs()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let stderr = std::fs::read_to_string(&self.stderr).unwrap();
        assert_eq!(status.code(), Some(0), "{stderr}\n{}", cluster.logs());
        serde_json::from_str(&std::fs::read_to_string(&self.stdout).unwrap()).unwrap()
    }

    /// Wait until the client has reported some progress, so the run is under way.
    fn wait_for_progress(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while !std::fs::read_to_string(&self.stderr).unwrap().contains("memories checked") {
            assert!(self.running(), "the run ended before the test could disturb it");
            assert!(Instant::now() < deadline, "no progress: {}", std::fs::read_to_string(&self.stderr).unwrap());
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn baseline(memories: &std::path::Path) -> (Value, Value, tempfile::TempDir) {
    let store = tempfile::tempdir().unwrap();
    let out = validate(&demo_repo(), memories, &["--store", store.path().to_str().unwrap()]);
    let report = support::nats::report(&out);
    (comparable(report), history(store.path()), store)
}

/// Each memory has exactly one score in the store, and the store matches the baseline's.
fn assert_scored_once(store: &std::path::Path, want: &Value) {
    let got = history(store);
    for memory in got.as_array().unwrap() {
        assert_eq!(memory["runs"].as_array().unwrap().len(), 1, "scored more than once: {memory}");
    }
    assert_eq!(got.as_array().unwrap().len(), MEMORIES);
    assert_eq!(&got, want, "the cluster's store differs from the undisturbed run's");
}

#[test]
fn investigators_killed_mid_run_lose_and_double_count_nothing() {
    let demo = demo_repo();
    let dir = tempfile::tempdir().unwrap();
    let memories = many_memories(dir.path(), MEMORIES);
    let (want_report, want_history, _store) = baseline(&memories);
    let nats = NatsServer::start();
    let common = ["--nats-ack-wait", ACK_WAIT];
    let mut cluster = Cluster::start(&nats.url(), &demo, 2, &common);
    let mut client = Client::start(&nats.url(), &demo, &memories);
    client.wait_for_progress();
    let mut rng = Rng::from_clock();
    let mut kills = 0;
    for _ in 0..4 {
        std::thread::sleep(Duration::from_millis(100 + rng.below(600)));
        if !client.running() {
            break;
        }
        let victim = rng.below(cluster.investigators.len() as u64) as usize;
        let victim_service = cluster.investigators.remove(victim);
        if kills == 0 {
            // A clean stop mid-run first: it finishes or hands back what it holds, exits 0.
            let (code, log) = victim_service.terminate();
            assert_eq!(code, Some(0), "SIGTERM mid-run must exit cleanly:\n{log}");
        } else {
            // Then crashes: SIGKILL, no chance to finish or hand anything back.
            victim_service.kill();
        }
        kills += 1;
        eprintln!("stopped investigator {victim} ({kills})");
        cluster.add_investigator();
    }
    assert!(
        kills >= 2,
        "the run finished before the test could kill investigators mid-run ({kills} kills); make it longer"
    );
    let got = comparable(client.finish(&cluster));
    assert_eq!(got, want_report, "the report differs from the undisturbed run's");
    let (store, _) = cluster.stop();
    assert_scored_once(store.path(), &want_history);
}

#[test]
fn restarting_nats_mid_run_loses_nothing() {
    let demo = demo_repo();
    let dir = tempfile::tempdir().unwrap();
    let memories = many_memories(dir.path(), MEMORIES);
    let (want_report, want_history, _store) = baseline(&memories);
    let mut nats = NatsServer::start();
    let cluster = Cluster::start(&nats.url(), &demo, 2, &["--nats-ack-wait", ACK_WAIT]);
    let mut client = Client::start(&nats.url(), &demo, &memories);
    client.wait_for_progress();
    let mut rng = Rng::from_clock();
    std::thread::sleep(Duration::from_millis(rng.below(500)));
    assert!(client.running(), "the run finished before the restart; make it longer");
    nats.restart();
    eprintln!("nats-server restarted");
    let got = comparable(client.finish(&cluster));
    assert_eq!(got, want_report, "the report differs from the undisturbed run's");
    let (store, _) = cluster.stop();
    assert_scored_once(store.path(), &want_history);
}

#[test]
fn a_30_second_broker_outage_mid_run_loses_nothing() {
    let demo = demo_repo();
    let dir = tempfile::tempdir().unwrap();
    let memories = many_memories(dir.path(), MEMORIES);
    let (want_report, want_history, _store) = baseline(&memories);
    let mut nats = NatsServer::start();
    let cluster = Cluster::start(&nats.url(), &demo, 2, &["--nats-ack-wait", ACK_WAIT]);
    let mut client = Client::start(&nats.url(), &demo, &memories);
    client.wait_for_progress();
    assert!(client.running(), "the run finished before the outage; make it longer");
    // Same port and store directory after the outage, as an operator's restart would give.
    nats.restart_after(Duration::from_secs(30));
    eprintln!("nats-server back after a 30 s outage");
    let got = comparable(client.finish(&cluster));
    assert_eq!(got, want_report, "the report differs from the undisturbed run's");
    let (store, _) = cluster.stop();
    assert_scored_once(store.path(), &want_history);
}
