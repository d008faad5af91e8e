//! `memval validate --llm-*` end to end: the real binary sends the claims Tier A cannot prove
//! to a scripted model server and reports what survives the contract and the evidence check.

#![allow(dead_code)]

mod support;

use std::path::Path;
use std::process::{Command, Output};

use std::sync::atomic::{AtomicUsize, Ordering};

use memval_llm::testing::{answers, Recorded, Reply, ScriptedServer};
use serde_json::{json, Value};

const LRU: &str = "package cache\n\nimport \"sync\"\n\ntype shard struct {\n\tmu    sync.Mutex\n\titems map[string]*entry\n}\n\n// ShardedCache spreads keys over shards.\ntype ShardedCache struct {\n\tshards []shard\n}\n";

fn setup(dir: &Path) -> (String, String) {
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("cache")).unwrap();
    std::fs::write(repo.join("cache/lru.go"), LRU).unwrap();
    let memories = dir.join("memories.jsonl");
    let lines = [
        json!({"id": 1, "agent": "tech-lead", "content": "The `ShardedCache` struct in `cache/lru.go` has a mutex per shard.", "tier": 0, "type": "memory", "created_at": "2026-03-15T10:00:00Z"}),
        json!({"id": 2, "agent": "tech-lead", "content": "Cache code lives in `cache/lru.go`.", "tier": 0, "type": "memory", "created_at": "2026-03-15T10:00:00Z"}),
    ];
    std::fs::write(&memories, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    (repo.display().to_string(), memories.display().to_string())
}

fn validate(dir: &Path, extra: &[&str]) -> Output {
    let (repo, memories) = setup(dir);
    let store = dir.join("store");
    Command::new(env!("CARGO_BIN_EXE_memval"))
        .args([
            "validate",
            "--repo",
            &repo,
            "--memories",
            &memories,
            "--store",
            store.to_str().unwrap(),
            "--format",
            "json",
            "--fail-on",
            "never",
            "-q",
        ])
        .args(extra)
        .env_remove("MEMVAL_LLM_PROVIDER")
        .env_remove("MEMVAL_LLM_MODEL")
        .env_remove("OPENAI_API_KEY")
        .output()
        .expect("memval runs")
}

fn llm_flags(server: &ScriptedServer) -> Vec<String> {
    ["--llm-provider", "openai", "--llm-base-url", &format!("{}/v1", server.url()), "--llm-model", "scripted"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn report(out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("json report")
}

fn behavioral(report: &Value) -> Option<&Value> {
    report["memories"][0]["claims"].as_array().unwrap().iter().find(|c| c["claim_type"] == "behavioral")
}

/// Whether a request is an extraction call (its prompt asks for `extractions`).
fn is_extraction(req: &Recorded) -> bool {
    req.text().contains("\"extractions\"")
}

/// A model that answers extraction calls with `extraction` and investigator calls with
/// `investigation`, in order.
fn routed(extraction: Value, investigation: Vec<Reply>) -> ScriptedServer {
    let seen = AtomicUsize::new(0);
    ScriptedServer::start(move |req| {
        if is_extraction(req) {
            return Reply::json(answers::openai_text(&json!({"extractions": extraction}).to_string()));
        }
        let n = seen.fetch_add(1, Ordering::SeqCst);
        investigation.get(n).cloned().unwrap_or_else(|| Reply::raw(500, "{\"error\":\"script exhausted\"}"))
    })
}

/// Nothing new from extraction, for tests about the investigator.
fn nothing_new() -> Value {
    json!([{"memory_id": 1, "claims": [], "skip_reason": "nothing new"}, {"memory_id": 2, "claims": [], "skip_reason": "nothing new"}])
}

fn run_with(answer_verdicts: Value) -> (Value, ScriptedServer) {
    let dir = tempfile::tempdir().unwrap();
    let server = routed(
        nothing_new(),
        vec![
            Reply::json(answers::openai_tools(&[("t1", "read_file", json!({"path": "cache/lru.go"}))])),
            Reply::json(answers::openai_text(&json!({"verdicts": answer_verdicts}).to_string())),
        ],
    );
    let flags = llm_flags(&server);
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let out = validate(dir.path(), &flags);
    (report(&out), server)
}

#[test]
fn tier_b_claims_get_verified_llm_verdicts_and_the_run_reports_its_spending() {
    let (report, server) = run_with(
        json!([{"claim_id": "c1", "verdict": "VALID", "confidence": 92, "evidence": "cache/lru.go:6 `mu    sync.Mutex` in every shard"}]),
    );
    let claim = behavioral(&report).expect("the behavioral claim is checked now");
    assert_eq!((claim["verdict"].as_str(), claim["confidence"].as_u64()), (Some("VALID"), Some(92)));
    assert!(claim["evidence"].as_str().unwrap().ends_with("[llm]"));
    assert_eq!(report["run"]["not_checked"], 0);
    let llm = &report["llm"];
    assert_eq!(llm["model"], "openai/scripted");
    assert_eq!(llm["usage"]["stages"]["investigator"]["calls"], 2);
    assert_eq!(llm["usage"]["stages"]["extractor"]["calls"], 1, "two memories, one extraction call");
    assert_eq!(llm["usage"]["total"]["input_tokens"], 300);
    assert_eq!(llm["investigator"]["verdicts_kept"], 1);
    assert_eq!(llm["investigator"]["tool_calls"], 1);
    // Only the claim Tier A could not prove was sent to the investigator.
    let sent = server.requests().into_iter().find(|r| !is_extraction(r)).unwrap().text();
    assert!(sent.contains("has a mutex per shard") && !sent.contains("Cache code lives"), "{sent}");
}

#[test]
fn a_hallucinated_citation_is_downgraded_and_counted() {
    let (report, _server) = run_with(
        json!([{"claim_id": "c1", "verdict": "VALID", "confidence": 99, "evidence": "cache/lru.go:120 `mu sync.Mutex`"}]),
    );
    let claim = behavioral(&report).unwrap();
    assert_eq!((claim["verdict"].as_str(), claim["confidence"].as_u64()), (Some("AMBIGUOUS"), Some(0)));
    assert!(claim["evidence"].as_str().unwrap().contains("cache/lru.go has 13 lines"), "{claim}");
    assert_eq!(report["llm"]["investigator"]["evidence_downgrades"], 1);
    assert_eq!(report["llm"]["investigator"]["verdicts_kept"], 0);
    assert!(report["llm"]["investigator"]["notes"][0].as_str().unwrap().contains("cites cache/lru.go:120"));
}

#[test]
fn without_a_model_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let report = report(&validate(dir.path(), &[]));
    assert!(report.get("llm").is_none(), "no llm section without a model");
    assert!(behavioral(&report).is_none());
    let not_checked = report["not_checked"].as_array().unwrap();
    assert_eq!(not_checked.len(), 1);
    assert!(not_checked[0]["reason"].as_str().unwrap().contains("needs an LLM investigator"));
}

#[test]
fn an_unreachable_model_leaves_the_claim_not_checked_and_the_run_completes() {
    let dir = tempfile::tempdir().unwrap();
    let server = ScriptedServer::start(|_| Reply::raw(503, "{\"error\":\"down\"}"));
    let flags = llm_flags(&server);
    let mut flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    flags.extend(["--llm-max-retries", "0"]);
    let report = report(&validate(dir.path(), &flags));
    let not_checked = report["not_checked"].as_array().unwrap();
    assert_eq!(not_checked.len(), 1);
    assert!(not_checked[0]["reason"].as_str().unwrap().starts_with("llm investigator failed"), "{not_checked:?}");
    assert_eq!(report["llm"]["investigator"]["failed_batches"], 1);
}

#[test]
fn an_incomplete_model_config_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = validate(dir.path(), &["--llm-provider", "openai"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--llm-model"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = validate(
        dir.path(),
        &["--llm-provider", "openai", "--llm-model", "m", "--llm-api-key-env", "MEMVAL_TEST_NO_SUCH_VAR"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("MEMVAL_TEST_NO_SUCH_VAR is not set"));
}

#[test]
fn a_config_file_configures_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let server = routed(
        nothing_new(),
        vec![Reply::json(answers::openai_text(
            &json!({"verdicts": [{"claim_id": "c1", "verdict": "CONTRADICTED", "confidence": 80, "evidence": "cache/lru.go:11-13 `shards []shard` holds no lock itself"}]}).to_string(),
        ))],
    );
    let config = dir.path().join("llm.json");
    std::fs::write(
        &config,
        json!({"provider": "openai", "base_url": format!("{}/v1", server.url()), "model": "from-file"}).to_string(),
    )
    .unwrap();
    let report = report(&validate(dir.path(), &["--llm-config", config.to_str().unwrap()]));
    assert_eq!(report["llm"]["model"], "openai/from-file");
    assert_eq!(behavioral(&report).unwrap()["verdict"], "CONTRADICTED");
}

#[test]
fn model_extraction_adds_claims_the_rules_miss_and_the_investigator_checks_them() {
    let dir = tempfile::tempdir().unwrap();
    // Memory 2 only names the file; the model reads a behavioral claim into it, and invents
    // one about a file the memory never mentions (dropped by the contract).
    let extraction = json!([
        {"memory_id": 1, "claims": [], "skip_reason": "the rules have it"},
        {"memory_id": 2, "claims": [
            {"claim_type": "architectural", "claim_text": "cache code lives in cache/lru.go", "code_refs": [{"path": "cache/lru.go"}]},
            {"claim_type": "behavioral", "claim_text": "the cache evicts with LRU", "code_refs": [{"path": "cache/evict.go"}]}
        ]}
    ]);
    let server = routed(
        extraction,
        vec![Reply::json(answers::openai_text(
            &json!({"verdicts": [
                {"claim_id": "c1", "verdict": "VALID", "confidence": 90, "evidence": "cache/lru.go:6 `mu    sync.Mutex`"},
                {"claim_id": "c2", "verdict": "VALID", "confidence": 85, "evidence": "cache/lru.go:1 `package cache`"}
            ]})
            .to_string(),
        ))],
    );
    let flags = llm_flags(&server);
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let report = report(&validate(dir.path(), &flags));
    let m2 = &report["memories"][1];
    let added = m2["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim_text"] == "cache code lives in cache/lru.go")
        .expect("the model's claim");
    assert_eq!((added["claim_type"].as_str(), added["verdict"].as_str()), (Some("architectural"), Some("VALID")));
    let x = &report["llm"]["extractor"];
    assert_eq!((x["claims_added"].as_u64(), x["claims_dropped"].as_u64()), (Some(1), Some(1)), "{x:#}");
    assert!(x["notes"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().contains("cache/evict.go")));
}

#[test]
fn extraction_can_be_turned_off() {
    let dir = tempfile::tempdir().unwrap();
    let server = routed(nothing_new(), vec![Reply::json(answers::openai_text(
        &json!({"verdicts": [{"claim_id": "c1", "verdict": "VALID", "confidence": 90, "evidence": "cache/lru.go:6 `mu    sync.Mutex`"}]}).to_string(),
    ))]);
    let flags = llm_flags(&server);
    let mut flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    flags.extend(["--llm-extract-batches", "0"]);
    let report = report(&validate(dir.path(), &flags));
    assert!(server.requests().iter().all(|r| !is_extraction(r)));
    assert!(report["llm"]["extractor"].is_null());
    assert_eq!(report["llm"]["investigator"]["verdicts_kept"], 1);
}

#[test]
fn a_call_budget_defers_the_rest_never_validated_memories_first() {
    let dir = tempfile::tempdir().unwrap();
    // First run, no model: memories 1 and 2 are validated and recorded in the store.
    let out = validate(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0));
    // A third memory, never validated, with its own behavioral claim.
    let memories = dir.path().join("memories.jsonl");
    let mut text = std::fs::read_to_string(&memories).unwrap();
    let third = json!({"id": 3, "agent": "pm", "content": "The `ShardedCache` struct in `cache/lru.go` uses one lock per shard.", "tier": 0, "type": "memory", "created_at": "2026-03-15T10:00:00Z"});
    text.push_str(&format!("{third}\n"));
    let server = ScriptedServer::start(|_| {
        Reply::json(answers::openai_text(&json!({"verdicts": [{"claim_id": "c1", "verdict": "VALID", "confidence": 90, "evidence": "cache/lru.go:6 `mu    sync.Mutex`"}]}).to_string()))
    });
    let flags = llm_flags(&server);
    let mut args: Vec<&str> = flags.iter().map(String::as_str).collect();
    args.extend(["--llm-extract-batches", "0", "--llm-claims-per-batch", "1", "--max-llm-calls", "1"]);
    let repo = dir.path().join("repo");
    let store = dir.path().join("store");
    std::fs::write(&memories, &text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_memval"))
        .args([
            "validate",
            "--repo",
            repo.to_str().unwrap(),
            "--memories",
            memories.to_str().unwrap(),
            "--store",
            store.to_str().unwrap(),
        ])
        .args(["--format", "json", "--fail-on", "never", "-q"])
        .args(&args)
        .output()
        .unwrap();
    let report = report(&out);
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "one call allowed");
    assert!(requests[0].text().contains("uses one lock per shard"), "the never-validated memory goes first");
    let deferred: Vec<&Value> = report["not_checked"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["reason"].as_str().unwrap().starts_with("deferred to the next run"))
        .collect();
    assert_eq!(deferred.len(), 1, "{:#}", report["not_checked"]);
    assert_eq!(deferred[0]["memory_id"], "1");
    assert!(deferred[0]["reason"].as_str().unwrap().contains("all 1 model calls"));
    let budget = &report["llm"]["usage"]["budget"];
    assert_eq!((budget["exhausted"].as_bool(), budget["max_calls"].as_u64()), (Some(true), Some(1)));
    assert_eq!(report["llm"]["investigator"]["deferred_claims"], 1);
    // The report keeps the input order.
    let ids: Vec<&str> = report["memories"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["1", "2", "3"]);
}

#[test]
fn a_second_run_over_unchanged_code_costs_zero_calls() {
    let dir = tempfile::tempdir().unwrap();
    let extraction = json!([
        {"memory_id": 1, "claims": [], "skip_reason": "the rules have it"},
        {"memory_id": 2, "claims": [{"claim_type": "architectural", "claim_text": "cache code lives in cache/lru.go", "code_refs": [{"path": "cache/lru.go"}]}]}
    ]);
    let verdicts = json!({"verdicts": [
        {"claim_id": "c1", "verdict": "VALID", "confidence": 90, "evidence": "cache/lru.go:6 `mu    sync.Mutex`"},
        {"claim_id": "c2", "verdict": "VALID", "confidence": 85, "evidence": "cache/lru.go:1 `package cache`"}
    ]});
    let server =
        routed(extraction, (0..10).map(|_| Reply::json(answers::openai_text(&verdicts.to_string()))).collect());
    let flags = llm_flags(&server);
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let first = report(&validate(dir.path(), &flags));
    let calls = server.requests().len();
    assert_eq!(calls, 2, "one extraction and one investigation call");
    let second = report(&validate(dir.path(), &flags));
    assert_eq!(server.requests().len(), calls, "the second run made no call");
    assert_eq!(second["llm"]["usage"]["total"]["calls"], 0);
    assert_eq!(second["llm"]["extractor"]["cache_hits"], 2);
    assert_eq!(second["llm"]["investigator"]["cache_hits"], 2);
    let verdicts_of = |r: &Value| -> Vec<(String, String)> {
        r["memories"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| {
                m["claims"].as_array().unwrap().iter().map(|c| (c["claim_text"].to_string(), c["verdict"].to_string()))
            })
            .collect()
    };
    assert_eq!(verdicts_of(&first), verdicts_of(&second));

    // --llm-no-cache pays again.
    let mut fresh = flags.clone();
    fresh.push("--llm-no-cache");
    report(&validate(dir.path(), &fresh));
    assert_eq!(server.requests().len(), calls + 2);
}
