//! The model stages as NATS services: `memval serve extractor|investigator --llm-*` call the
//! model for a cluster run the way `memval validate --llm-*` does in one process, with the
//! same contract checks, and a second run over unchanged code is answered from the
//! services' caches. The model is a scripted OpenAI-compatible server; each test starts its
//! own nats-server.

#[allow(dead_code)]
mod support;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use memval_llm::testing::{answers, Recorded, Reply, ScriptedServer};
use serde_json::{json, Value};
use support::nats::{report, validate, NatsServer, Service};

const LRU: &str = "package cache\n\nimport \"sync\"\n\ntype shard struct {\n\tmu    sync.Mutex\n\titems map[string]*entry\n}\n\n// ShardedCache spreads keys over shards.\ntype ShardedCache struct {\n\tshards []shard\n}\n";

fn setup(dir: &Path) -> (PathBuf, PathBuf) {
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("cache")).unwrap();
    std::fs::write(repo.join("cache/lru.go"), LRU).unwrap();
    let memories = dir.join("memories.jsonl");
    let lines = [
        json!({"id": 1, "agent": "tech-lead", "content": "The `ShardedCache` struct in `cache/lru.go` has a mutex per shard.", "created_at": "2026-03-15T10:00:00Z"}),
        json!({"id": 2, "agent": "tech-lead", "content": "Cache code lives in `cache/lru.go`.", "created_at": "2026-03-15T10:00:00Z"}),
    ];
    std::fs::write(&memories, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    (repo, memories)
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn is_extraction(req: &Recorded) -> bool {
    req.text().contains("\"extractions\"")
}

/// Extraction finds nothing new; the investigator reads the file, then answers `verdict`.
fn model(verdict: Value) -> ScriptedServer {
    let investigations = AtomicUsize::new(0);
    ScriptedServer::start(move |req| {
        if is_extraction(req) {
            let nothing = json!([{"memory_id": 1, "claims": [], "skip_reason": "nothing new"}, {"memory_id": 2, "claims": [], "skip_reason": "nothing new"}]);
            return Reply::json(answers::openai_text(&json!({"extractions": nothing}).to_string()));
        }
        match investigations.fetch_add(1, Ordering::SeqCst) {
            0 => Reply::json(answers::openai_tools(&[("t1", "read_file", json!({"path": "cache/lru.go"}))])),
            1 => Reply::json(answers::openai_text(&json!({"verdicts": [verdict.clone()]}).to_string())),
            _ => Reply::raw(500, "{\"error\":\"script exhausted\"}"),
        }
    })
}

fn behavioral(report: &Value) -> &Value {
    report["memories"][0]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim_type"] == "behavioral")
        .expect("the behavioral claim is checked")
}

struct LlmCluster {
    services: Vec<Service>,
    _dirs: Vec<tempfile::TempDir>,
}

impl LlmCluster {
    fn start(url: &str, repo: &Path, server: &ScriptedServer) -> LlmCluster {
        let (logs, store, extractor_cache, investigator_cache) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        let base = format!("{}/v1", server.url());
        let llm = ["--llm-provider", "openai", "--llm-base-url", base.as_str(), "--llm-model", "scripted"];
        let with = |extra: &[&str]| -> Vec<String> { llm.iter().chain(extra).map(|s| s.to_string()).collect() };
        let extractor = with(&["--llm-cache", extractor_cache.path().to_str().unwrap()]);
        let investigator =
            with(&["--repo", repo.to_str().unwrap(), "--llm-cache", investigator_cache.path().to_str().unwrap()]);
        let services = vec![
            Service::start("extractor", url, &args(&extractor), logs.path()),
            Service::start("investigator", url, &args(&investigator), logs.path()),
            Service::start("scorer", url, &["--store", store.path().to_str().unwrap()], logs.path()),
        ];
        LlmCluster { services, _dirs: vec![logs, store, extractor_cache, investigator_cache] }
    }

    /// SIGTERM every service; each must exit 0. Their logs, by role.
    fn stop(self) -> Vec<(String, String)> {
        self.services
            .into_iter()
            .map(|s| {
                let role = s.role.clone();
                let (code, log) = s.terminate();
                assert_eq!(code, Some(0), "{role} did not stop cleanly:\n{log}");
                (role, log)
            })
            .collect()
    }
}

#[test]
fn a_cluster_run_checks_tier_b_claims_with_the_model_the_services_are_given() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, memories) = setup(dir.path());
    let server = model(
        json!({"claim_id": "c1", "verdict": "VALID", "confidence": 92, "evidence": "cache/lru.go:6 `mu    sync.Mutex` in every shard"}),
    );
    let nats = NatsServer::start();
    let cluster = LlmCluster::start(&nats.url(), &repo, &server);

    let first = report(&validate(&repo, &memories, &["--nats", &nats.url()]));
    let claim = behavioral(&first);
    assert_eq!((claim["verdict"].as_str(), claim["confidence"].as_u64()), (Some("VALID"), Some(92)), "{claim}");
    assert!(claim["evidence"].as_str().unwrap().ends_with("[llm]"), "{claim}");
    assert_eq!(first["run"]["not_checked"], 0);
    let calls = server.requests().len();
    assert_eq!(calls, 3, "one extraction call, then the investigator's tool call and its answer");

    // The same memories over unchanged code: every answer comes from the services' caches.
    let second = report(&validate(&repo, &memories, &["--nats", &nats.url()]));
    assert_eq!(behavioral(&second)["verdict"], "VALID");
    assert_eq!(server.requests().len(), calls, "a second run over unchanged code costs no call");

    // Each model service says what it spent when it stops.
    let logs = cluster.stop();
    let log = |role: &str| logs.iter().find(|(r, _)| r == role).map(|(_, l)| l.clone()).unwrap();
    assert!(log("investigator").contains("model openai/scripted: calls 2,"), "{}", log("investigator"));
    assert!(log("extractor").contains("model openai/scripted: calls 1,"), "{}", log("extractor"));
    assert!(!log("scorer").contains("model "), "the scorer calls no model");
}

#[test]
fn a_hallucinated_citation_from_a_service_is_downgraded_like_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, memories) = setup(dir.path());
    let server = model(
        json!({"claim_id": "c1", "verdict": "VALID", "confidence": 99, "evidence": "cache/lru.go:120 `mu sync.Mutex`"}),
    );
    let nats = NatsServer::start();
    let cluster = LlmCluster::start(&nats.url(), &repo, &server);
    let got = report(&validate(&repo, &memories, &["--nats", &nats.url()]));
    let claim = behavioral(&got);
    assert_eq!((claim["verdict"].as_str(), claim["confidence"].as_u64()), (Some("AMBIGUOUS"), Some(0)), "{claim}");
    assert!(claim["evidence"].as_str().unwrap().contains("cache/lru.go has 13 lines"), "{claim}");
    cluster.stop();
}

#[test]
fn model_flags_on_the_client_of_a_cluster_run_are_refused_with_where_they_go() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, memories) = setup(dir.path());
    let out =
        validate(&repo, &memories, &["--nats", "nats://127.0.0.1:1", "--llm-provider", "openai", "--llm-model", "m"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("memval serve extractor|investigator --llm-"), "{stderr}");
}

/// `memval ARGS` with none of this process's MEMVAL_*/OTEL_* variables (the test runner's own
/// would be reported as settings memval does not read).
fn memval_clean(args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_memval"));
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy().into_owned();
        if name.starts_with("MEMVAL_") || name.starts_with("OTEL_") {
            cmd.env_remove(&name);
        }
    }
    cmd.args(args).output().expect("memval runs")
}

#[test]
fn check_config_shows_the_model_of_a_model_stage_and_flags_it_elsewhere() {
    let out = memval_clean(&[
        "serve",
        "investigator",
        "--nats",
        "nats://127.0.0.1:4222",
        "--repo",
        ".",
        "--llm-provider",
        "openai",
        "--llm-base-url",
        "http://127.0.0.1:9/v1",
        "--llm-model",
        "m",
        "--check-config",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("model:        openai/m at http://127.0.0.1:9/v1"), "{text}");
    assert!(text.contains("llm cache:    none"), "{text}");

    let out = memval_clean(&[
        "serve",
        "scorer",
        "--nats",
        "nats://127.0.0.1:4222",
        "--llm-provider",
        "openai",
        "--llm-model",
        "m",
        "--check-config",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("note: --llm-* is ignored by the scorer role"));

    let out = memval_clean(&[
        "serve",
        "extractor",
        "--nats",
        "nats://127.0.0.1:4222",
        "--llm-provider",
        "openai",
        "--check-config",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--llm-model"), "{}", String::from_utf8_lossy(&out.stderr));
}
