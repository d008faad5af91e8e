//! The reconciliation fixture the cluster tests share: a GAAI project with real git history
//! and sixteen memories of four agents, the scripted pair-judge model, and readers of what a
//! reconciler leaves behind (its report files, its period leases).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use memval_llm::testing::{answers, Recorded, Reply, ScriptedServer};
use serde_json::{json, Value};

use super::nats::{read_subject, stored_with_headers};
use super::GitRepo;

pub const INDEX: &str = "# Memory index\n\n\
## project\n\
- [overview](project/overview.md) — category: project, updated_at: 2026-01-10\n\n\
## decisions\n\
- [log](decisions/_log.md) — category: decisions\n";

pub const LOG: &str = "# Decision log\n\n\
### DEC-2026-01-05-01 — Serve the API from src/api.rs\n\n**Status:** Active\n**Date:** 2026-01-05\n\n\
### DEC-2026-02-01-01 — Store on SQLite\n\n**Status:** Superseded by DEC-2026-03-01-01\n\n\
### DEC-2026-03-01-01 — Store on PostgreSQL\n\n**Status:** Active\n\nSupersedes DEC-2026-02-01-01.\n";

pub const OVERVIEW: &str =
    "---\nupdated_at: 2026-01-10\ndepends_on:\n  code_paths:\n    - src/api.rs\n---\n# Overview\n\n\
The API follows DEC-2026-01-05-01.\n\
We store data on SQLite (DEC-2026-02-01-01), and DEC-99 is the audit rule.\n";

/// Sixteen memories of four agents about the same few things: far more candidate pairs than
/// the default cap of 50, so the judges get five batches of ten.
pub fn agents_jsonl() -> String {
    let agents = ["pm", "tech-lead", "qa", "ops"];
    let topics = [
        "the product pages cache keeps entries for five minutes and the checkout service reads through it",
        "the checkout service stores orders in the primary database and the product pages cache",
        "deploys of the checkout service happen nightly after the product pages cache warms",
        "the primary database holds orders; the checkout service retries writes twice",
    ];
    let mut out = String::new();
    let mut id = 100;
    for (a, agent) in agents.iter().enumerate() {
        for (t, topic) in topics.iter().enumerate() {
            id += 1;
            let line = json!({"id": id, "agent": agent, "content": format!("Note {a}{t} of {agent}: {topic}.")});
            out.push_str(&line.to_string());
            out.push('\n');
        }
    }
    out
}

pub fn project() -> GitRepo {
    let r = GitRepo::new();
    r.write("contexts/memory/index.md", INDEX);
    r.write("contexts/memory/decisions/_log.md", LOG);
    r.write("contexts/memory/project/overview.md", OVERVIEW);
    r.write("agents.jsonl", &agents_jsonl());
    r.write("src/api.rs", "pub fn serve() {}\n");
    r.write("docs/api.md", "---\nupdated_at: 2026-01-12\ndepends_on:\n  code_paths: [src/api.rs]\n---\n# API\n");
    r.commit("start", "2026-01-01T12:00:00Z");
    r.write("src/api.rs", "pub fn serve() { /* v2 */ }\n");
    r.commit("api v2", "2026-02-10T12:00:00Z");
    r
}

/// The ids of every pair a judge request asks about, in order, from the prompt's JSON list.
pub fn asked_pairs(request: &Recorded) -> Vec<(u64, u64)> {
    let body: Value = serde_json::from_str(&request.body).expect("a JSON request");
    let user = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .filter_map(|m| m["content"].as_str())
        .collect::<String>();
    let ids = |key: &str| -> Vec<u64> {
        user.match_indices(&format!("\"{key}\":"))
            .map(|(i, m)| {
                user[i + m.len()..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap()
            })
            .collect()
    };
    ids("id_a").into_iter().zip(ids("id_b")).collect()
}

/// The scripted model: every pair judged, the verdict a function of its ids, so two runs
/// asking the same pairs get the same answers in whatever order the batches come. Each answer
/// also judges a pair it was not asked about, which the judge drops with a note naming the
/// batch: the notes must come out the same in both reports too.
pub fn judge_answer(request: &Recorded) -> Reply {
    let extra = json!({"id_a": 1, "id_b": 2, "verdict": "unrelated", "claim_a": "", "claim_b": "", "confidence": 50, "rationale": "not asked"});
    let judgements: Vec<Value> = asked_pairs(request)
        .into_iter()
        .map(|(a, b)| {
            let verdict = if (a + b) % 3 == 0 { "unrelated" } else { "consistent" };
            json!({"id_a": a, "id_b": b, "verdict": verdict, "claim_a": "", "claim_b": "", "confidence": 60 + (a + b) % 30,
                   "rationale": format!("scripted for {a} and {b}")})
        })
        .chain([extra])
        .collect();
    Reply::json(answers::openai_text(&json!({ "judgements": judgements }).to_string()))
}

pub fn model_args(server: &ScriptedServer) -> Vec<String> {
    ["--llm-provider", "openai", "--llm-base-url", &format!("{}/v1", server.url()), "--llm-model", "scripted"]
        .map(str::to_owned)
        .to_vec()
}

pub fn reports_in(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    found.sort();
    found
}

/// The lease messages of `subject`, oldest first: (state header, owner text).
pub fn lease_messages(url: &str, subject: &str) -> Vec<(String, String)> {
    let states = stored_with_headers(url, "MEMVAL_LEASES", subject);
    let owners = read_subject(url, "MEMVAL_LEASES", subject);
    states
        .iter()
        .zip(owners)
        .map(|(h, o)| (h.get("Memval-Lease").unwrap_or("").to_owned(), String::from_utf8_lossy(&o).into_owned()))
        .collect()
}

pub fn line_with(log: &str, needle: &str) -> Option<String> {
    log.lines().find(|l| l.contains(needle)).map(str::to_owned)
}

/// `memval reconcile` in one process over `project()`'s memories (its `contexts` folder and
/// `agents.jsonl`), judged by `model`, writing into `out_dir`: the report a cluster's
/// reconciliation must equal. Returns its path.
pub fn reconcile_in_process(root: &Path, out_dir: &Path, model: &ScriptedServer) -> PathBuf {
    let mut args: Vec<String> = ["reconcile", "--repo", root.to_str().unwrap()].map(str::to_owned).to_vec();
    for memories in [root.join("contexts"), root.join("agents.jsonl")] {
        args.extend(["--memories".to_owned(), memories.display().to_string()]);
    }
    args.extend(["--out-dir".to_owned(), out_dir.display().to_string()]);
    args.extend(model_args(model));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_memval")).args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let reports = reports_in(out_dir);
    assert_eq!(reports.len(), 1, "{reports:?}");
    reports[0].clone()
}

/// `memval serve reconciler` arguments for `project()` as repo `shop` (its `contexts` folder
/// and `agents.jsonl`) on `schedule`, reports into `out_dir`, then `extra`.
pub fn serve_args(root: &Path, out_dir: &Path, schedule: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "--repo-map".into(),
        format!("shop={}", root.display()),
        "--schedule".into(),
        schedule.into(),
        "--memories".into(),
        "contexts".into(),
        "--memories".into(),
        "agents.jsonl".into(),
        "--out-dir".into(),
        out_dir.display().to_string(),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}
