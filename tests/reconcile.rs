//! `memval reconcile` end to end on a GAAI project with real git history: every report
//! section, the JSON document, `--fail-on`, a second run the same day (`-02`), no git, and
//! memory files and docs byte-identical after every run.

// The shared support module has helpers this test does not use.
#![allow(dead_code)]

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use support::{memval, GitRepo};

const INDEX: &str = "# Memory index\n\n\
## project\n\
- [overview](project/overview.md) — category: project, updated_at: 2026-01-10\n\
- [gone](project/gone.md) — category: project, updated_at: 2026-01-02\n\
- [binary](project/binary.md) — category: project, updated_at: 2026-01-02\n\n\
## patterns\n\
- [cache](patterns/cache.md) — category: patterns, updated_at: 2026-03-05\n\n\
## decisions\n\
- [log](decisions/_log.md) — category: decisions\n";

const LOG: &str = "# Decision log\n\n\
### DEC-2026-01-05-01 — Serve the API from src/api.rs\n\n**Status:** Active\n**Date:** 2026-01-05\n\n\
### DEC-2026-02-01-01 — Store on SQLite\n\n**Status:** Superseded by DEC-2026-03-01-01\n\n\
### DEC-2026-02-15-01 — Nightly cache flush\n\n> RETRACTED: the flush lost data.\n\n\
### DEC-2026-03-01-01 — Store on PostgreSQL\n\n**Status:** Active\n\nSupersedes DEC-2026-02-01-01.\n";

const DEC7: &str =
    "---\nupdated_at: 2026-01-01\n---\n# DEC-7 — Old export format\n\n> OBSOLETE: nobody reads CSV exports any more.\n";

const OVERVIEW: &str = "---\nupdated_at: 2026-01-10\ndepends_on:\n  code_paths:\n    - src/api.rs\n---\n# Overview\n\n\
The API follows DEC-2026-01-05-01.\n\
We store data on SQLite (DEC-2026-02-01-01), see also DEC-2026-03-01-01.\n\
Exports follow DEC-7 and the audit rule DEC-99.\n";

const CACHE: &str =
    "---\nupdated_at: 2026-03-05\n---\n# Cache\n\nThe nightly flush (DEC-2026-02-15-01) empties the cache.\n";

const AGENTS: &str = "{\"id\": 101, \"agent\": \"pm\", \"content\": \"We decided to use PostgreSQL as the primary database. Keep cache_ttl = 300 for product pages.\"}\n\
{\"id\": 102, \"agent\": \"tech-lead\", \"content\": \"We rejected PostgreSQL; the primary database stays on SQLite. Keep cache_ttl = 60 for product pages.\"}\n";

/// A GAAI project with four commits at fixed dates.
fn project() -> GitRepo {
    let r = GitRepo::new();
    r.write("contexts/memory/index.md", INDEX);
    r.write("contexts/memory/decisions/_log.md", LOG);
    r.write("contexts/memory/decisions/DEC-7.md", DEC7);
    r.write("contexts/memory/project/overview.md", OVERVIEW);
    r.write("contexts/memory/patterns/cache.md", CACHE);
    r.write("contexts/memory/patterns/unregistered.md", "# Retry policy\n\nRetries back off exponentially.\n");
    std::fs::write(r.dir.path().join("contexts/memory/project/binary.md"), b"# bin\n\xff\xfe not text\n").unwrap();
    r.write("agents.jsonl", AGENTS);
    r.write("src/api.rs", "pub fn serve() {}\n");
    r.write("lib/x.rs", "pub fn x() {}\n");
    r.write("lib/README.md", "# lib\n\nThe x helper.\n");
    r.write("docs/guide.md", "# Guide\n\nStart the server.\n");
    r.write("docs/api.md", "---\nupdated_at: 2026-01-12\ndepends_on:\n  code_paths: [src/api.rs]\n---\n# API\n");
    r.write("node_modules/pkg/README.md", "# vendored, never scanned DEC-1234\n");
    r.commit("start", "2026-01-01T12:00:00Z");
    r.write("src/api.rs", "pub fn serve() { /* v2 */ }\n");
    r.commit("api v2", "2026-02-10T12:00:00Z");
    r.write("lib/x.rs", "pub fn x() { /* v2 */ }\n");
    r.commit("x v2", "2026-02-20T12:00:00Z");
    r.write("README.md", "# Project\n");
    r.commit("readme", "2026-02-25T12:00:00Z");
    r
}

/// Every file's bytes, outside the reports folder and .git.
fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if rel == ".git" || rel == "contexts/artefacts" {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn reconcile(repo: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["reconcile", "--repo", repo.to_str().unwrap(), "--memories"];
    let gaai = repo.join("contexts");
    let agents = repo.join("agents.jsonl");
    args.push(gaai.to_str().unwrap());
    args.push("--memories");
    args.push(agents.to_str().unwrap());
    args.extend_from_slice(extra);
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_memval"));
    // No model, whatever the environment says.
    for v in ["MEMVAL_LLM_PROVIDER", "MEMVAL_LLM_MODEL", "MEMVAL_LLM_CONFIG", "MEMVAL_LLM_BASE_URL"] {
        cmd.env_remove(v);
    }
    cmd.args(&args).output().unwrap()
}

fn section<'a>(md: &'a str, title: &str) -> &'a str {
    let start = md.find(&format!("## {title}")).unwrap_or_else(|| panic!("no section {title}"));
    let rest = &md[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

#[test]
fn every_section_of_a_gaai_project_with_git_history() {
    let r = project();
    let root = r.dir.path();
    let before = snapshot(root);

    let out = reconcile(root, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let reports = root.join("contexts/artefacts/reconciliation-reports");
    let first = reports.join(format!("{today}.reconciliation-report.md"));
    assert!(String::from_utf8_lossy(&out.stdout).contains(first.to_str().unwrap()), "stdout names the report");
    let md = std::fs::read_to_string(&first).unwrap();

    // Front matter: the docs/contracts.md §6 keys, in order, with true counts.
    let front: Vec<&str> = md.lines().skip(1).take_while(|l| *l != "---").collect();
    let keys: Vec<&str> = front.iter().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "skill",
            "generated_at",
            "scan_manifest_source",
            "files_scanned",
            "memory_files_scanned",
            "doc_files_scanned",
            "findings_count",
            "code_path_findings_count",
            "doc_staleness_findings_count"
        ]
    );
    let value = |k: &str| {
        front.iter().find(|l| l.starts_with(&format!("{k}:"))).unwrap().split_once(": ").unwrap().1.to_owned()
    };
    assert_eq!(value("generated_at"), today);
    // Memory: overview, cache, _log, DEC-7 (read; gone and binary are not) + 2 JSONL records.
    assert_eq!(value("memory_files_scanned"), "6", "{md}");
    // Docs: README.md, lib/README.md, docs/guide.md, docs/api.md (node_modules excluded).
    assert_eq!(value("doc_files_scanned"), "4");
    assert_eq!(value("files_scanned"), "10");
    assert_eq!(value("code_path_findings_count"), "1");
    assert_eq!(value("doc_staleness_findings_count"), "3");
    // 2 stale + 3 superseded + 2 proven contradictions + 2 new knowledge + 2 missing + 1 + 3.
    assert_eq!(value("findings_count"), "15", "{md}");

    let s1 = section(&md, "1. Stale Entries");
    assert!(
        s1.contains("| project/overview.md | DEC-2026-02-01-01 | 2026-01-10 | 2026-02-01 | 22 |")
            || s1.contains("contexts/memory/project/overview.md | DEC-2026-02-01-01 | 2026-01-10 | 2026-02-01 | 22 |"),
        "{s1}"
    );
    assert!(s1.contains("| DEC-2026-03-01-01 | 2026-01-10 | 2026-03-01 | 50 |"), "{s1}");
    assert!(!s1.contains("cache.md"), "cache.md is newer than the decision it cites: {s1}");

    let s2 = section(&md, "2. Superseded References");
    assert!(s2.contains("8 DEC references checked: 3 ACTIVE, 4 SUPERSEDED, 1 MISSING"), "{s2}");
    // "Supersedes DEC-2026-02-01-01" in the log records the supersession: classified, not a finding.
    assert!(s2.contains("1 SUPERSEDED reference(s) are made by decision records themselves"), "{s2}");
    assert!(!s2.contains("| contexts/memory/decisions/_log.md | 20 |"), "{s2}");
    assert!(s2.contains("contexts/memory/project/overview.md | 10 | DEC-2026-02-01-01 | SUPERSEDED | \"**Status:** Superseded by DEC-2026-03-01-01\""), "{s2}");
    assert!(s2.contains("contexts/memory/project/overview.md | 11 | DEC-7 | OBSOLETE | \"> OBSOLETE: nobody reads CSV exports any more.\""), "{s2}");
    assert!(s2.contains("contexts/memory/patterns/cache.md | 6 | DEC-2026-02-15-01 | RETRACTED"), "{s2}");

    let s3 = section(&md, "3. Contradictions");
    assert!(s3.contains("config value | cache_ttl |"), "{s3}");
    assert!(s3.contains("\"cache_ttl = 300\"") && s3.contains("\"cache_ttl = 60\""), "{s3}");
    assert!(s3.contains("choice taken / rejected | postgresql |") && s3.contains("\"rejected PostgreSQL\""), "{s3}");
    assert!(s3.contains("not judged: no model configured"), "{s3}");
    assert!(s3.contains("| pm:101 | tech-lead:102 |"), "the JSONL pair is a candidate: {s3}");

    let s4 = section(&md, "4. New Knowledge Candidates");
    assert!(
        s4.contains(
            "DEC-99 is referenced but no decision record holds it | decisions | contexts/memory/project/overview.md:11"
        ),
        "{s4}"
    );
    assert!(
        s4.contains("memory file not registered in index.md | patterns | contexts/memory/patterns/unregistered.md"),
        "{s4}"
    );

    let s5 = section(&md, "5. Missing Files");
    assert!(s5.contains("| contexts/memory/project/gone.md | MISSING_FILE |"), "{s5}");
    assert!(s5.contains("| contexts/memory/project/binary.md | UNREADABLE | not UTF-8 text"), "{s5}");

    let s6 = section(&md, "6. Code-Path Staleness");
    assert!(s6.contains("| contexts/memory/project/overview.md | src/api.rs | 1 |"), "{s6}");

    let s7 = section(&md, "7. Documentation & README Staleness");
    assert!(s7.contains("| docs/api.md | depends_on | src/api.rs | 1 |"), "{s7}");
    assert!(s7.contains("| docs/guide.md | proximity | src | 1 |"), "{s7}");
    assert!(s7.contains("| lib/README.md | proximity | lib | 1 |"), "{s7}");
    assert!(!s7.contains("| README.md |"), "the root README is newer than every commit but its own: {s7}");
    assert!(!md.contains("DEC-1234"), "vendored folders are never scanned");

    // JSON: every finding, and a second report the same day that leaves the first alone.
    let out = reconcile(root, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let second = reports.join(format!("{today}-02.reconciliation-report.md"));
    assert_eq!(v["report_path"], second.to_str().unwrap());
    assert!(second.is_file());
    assert_eq!(std::fs::read_to_string(&first).unwrap(), md, "the first report is never rewritten");
    assert_eq!(v["front"]["findings_count"], 15);
    assert_eq!(v["dec_references"].as_array().unwrap().len(), 8);
    let missing: Vec<&str> = v["dec_references"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "MISSING")
        .map(|r| r["dec"].as_str().unwrap())
        .collect();
    assert_eq!(missing, ["DEC-99"]);
    assert_eq!(v["code_paths"]["findings"][0]["commits"], 1);
    assert_eq!(v["contradictions"]["proven"].as_array().unwrap().len(), 2);

    // --fail-on: a kind present exits 1 (and still writes -03); a kind absent exits 0.
    assert_eq!(reconcile(root, &["--fail-on", "superseded"]).status.code(), Some(1));
    assert!(reports.join(format!("{today}-03.reconciliation-report.md")).is_file());
    assert_eq!(
        reconcile(root, &["--fail-on", "never", "--out-dir", root.join("contexts/artefacts/other").to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );

    assert_eq!(snapshot(root), before, "memory files and docs are byte-identical");
}

#[test]
fn without_git_the_code_path_checks_say_they_were_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (rel, text) in [
        ("contexts/memory/index.md", INDEX),
        ("contexts/memory/project/overview.md", OVERVIEW),
        ("contexts/memory/decisions/_log.md", LOG),
        ("docs/guide.md", "# Guide\n"),
    ] {
        std::fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
        std::fs::write(root.join(rel), text).unwrap();
    }
    std::fs::write(root.join("agents.jsonl"), AGENTS).unwrap();
    let before = snapshot(root);
    let out = reconcile(root, &["--out-dir", root.join("reports").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let md = std::fs::read_to_string(root.join(format!("reports/{today}.reconciliation-report.md"))).unwrap();
    let s6 = section(&md, "6. Code-Path Staleness");
    assert!(s6.starts_with("## 6. Code-Path Staleness\n\nCode-path freshness check skipped: "), "{s6}");
    assert!(s6.contains("not a git repository"), "{s6}");
    assert!(section(&md, "7. Documentation & README Staleness").contains("Documentation staleness check skipped"));
    // The other sections still run.
    assert!(section(&md, "2. Superseded References").contains("SUPERSEDED"));
    let mut after = snapshot(root);
    after.retain(|k, _| !k.starts_with("reports/"));
    assert_eq!(after, before);
}

#[test]
fn bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = memval(&[
        "reconcile",
        "--repo",
        dir.path().to_str().unwrap(),
        "--memories",
        dir.path().join("nope").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
}

#[test]
fn candidates_are_judged_by_the_pair_judge_when_a_model_is_configured() {
    use memval_llm::testing::{answers, Reply, ScriptedServer};
    let r = project();
    let root = r.dir.path();
    let answer = serde_json::json!({"judgements": [{
        "id_a": 101, "id_b": 102, "verdict": "contradictory",
        "claim_a": "We decided to use PostgreSQL as the primary database.",
        "claim_b": "We rejected PostgreSQL; the primary database stays on SQLite.",
        "confidence": 92, "rationale": "one chose PostgreSQL, the other rejected it"
    }]});
    let server = ScriptedServer::start(move |_| Reply::json(answers::openai_text(&answer.to_string())));
    let url = format!("{}/v1", server.url());
    let out = reconcile(
        root,
        &[
            "--format",
            "json",
            "--fail-on",
            "contradictions",
            "--llm-provider",
            "openai",
            "--llm-base-url",
            &url,
            "--llm-model",
            "scripted",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "a contradiction was found: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &v["contradictions"];
    assert!(c["judged_by"].as_str().unwrap().contains("scripted"), "{c}");
    assert_eq!(c["candidates"][0]["judgement"]["verdict"], "contradictory");
    assert_eq!(c["candidates"][0]["judgement"]["confidence"], 92);
    assert!(c["candidates"][0]["not_judged"].is_null());
    // 15 without the model, plus the judged contradiction.
    assert_eq!(v["front"]["findings_count"], 16);
    let md = std::fs::read_to_string(v["report_path"].as_str().unwrap()).unwrap();
    assert!(md.contains("| contradictory | 92 | \"We decided to use PostgreSQL as the primary database.\""), "{md}");
}

/// The commonest contradiction in a real repository: two agent tools' instruction files that
/// disagree. Each is its tool's memory, so the two are compared; neither file is touched.
#[test]
fn two_agent_tools_notes_that_disagree_are_a_proven_contradiction() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (rel, text) in [
        ("CLAUDE.md", "# Notes\n\n- Always use pnpm to install dependencies.\n- Run the tests with `pnpm test`.\n"),
        (
            "AGENTS.md",
            "# Notes\n\n- Never use pnpm; install dependencies with npm.\n- Run the tests with `npm test`.\n",
        ),
        (".cursor/rules/style.mdc", "---\nalwaysApply: true\n---\nKeep functions small.\n"),
    ] {
        std::fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
        std::fs::write(root.join(rel), text).unwrap();
    }
    let before = snapshot(root);
    let out_dir = root.join("reports");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_memval"));
    for v in ["MEMVAL_LLM_PROVIDER", "MEMVAL_LLM_MODEL", "MEMVAL_LLM_CONFIG", "MEMVAL_LLM_BASE_URL"] {
        cmd.env_remove(v);
    }
    let out = cmd
        .args([
            "reconcile",
            "--repo",
            root.to_str().unwrap(),
            "--memories",
            root.to_str().unwrap(),
            "--out-dir",
            out_dir.to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let md = std::fs::read_to_string(out_dir.join(format!("{today}.reconciliation-report.md"))).unwrap();
    let s3 = section(&md, "3. Contradictions");
    let r = root.display();
    assert!(s3.contains(&format!("| choice taken / rejected | pnpm | {r}/CLAUDE.md (claude-code) | \"use pnpm\" | {r}/AGENTS.md (agents) | \"Never use pnpm\" |")), "{s3}");
    assert!(s3.contains("| agents:AGENTS.md | claude-code:CLAUDE.md | not judged: no model configured"), "{s3}");
    let mut after = snapshot(root);
    after.retain(|k, _| !k.starts_with("reports/"));
    assert_eq!(after, before);
}

/// A repository whose only notes are its READMEs and docs, reconciled as `--memories .`, with
/// its decision records kept deep in the tree (memval's own layout): the records are found, the
/// READMEs and docs are counted as docs, and every empty section says why it is empty.
#[test]
fn memories_dot_finds_nested_decision_records_and_counts_its_docs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (rel, text) in [
        ("README.md", "# Shop\n\nSee the examples.\n"),
        ("docs/guide.md", "# Guide\n\nStart the server.\n"),
        ("examples/README.md", "Decisions DEC-1 and DEC-2 are kept under `memories/`.\n"),
        (
            "examples/memories/gaai/contexts/memory/decisions/DEC-1.md",
            "---\nid: DEC-1\nstatus: active\n---\n# DEC-1: Throttle jobs\n",
        ),
        ("examples/memories/gaai/contexts/memory/decisions/DEC-2.md", "# DEC-2: Cap connections\n"),
    ] {
        std::fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
        std::fs::write(root.join(rel), text).unwrap();
    }
    let out_dir = root.join("reports");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_memval"));
    for v in ["MEMVAL_LLM_PROVIDER", "MEMVAL_LLM_MODEL", "MEMVAL_LLM_CONFIG", "MEMVAL_LLM_BASE_URL"] {
        cmd.env_remove(v);
    }
    let root_arg = root.to_str().unwrap();
    let out = cmd
        .args(["reconcile", "--repo", root_arg, "--memories", root_arg, "--out-dir", out_dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let md = std::fs::read_to_string(out_dir.join(format!("{today}.reconciliation-report.md"))).unwrap();
    assert!(md.contains("\nmemory_files_scanned: 2\ndoc_files_scanned: 3\n"), "{md}");
    assert!(!md.contains("no decision record holds it"), "{md}");
    assert!(section(&md, "2. Superseded References").contains("2 DEC references checked: 2 ACTIVE"), "{md}");
    let s3 = section(&md, "3. Contradictions");
    assert!(s3.contains("all 3 memories belong to one agent (docs)") && s3.contains("--memories"), "{s3}");
    assert!(section(&md, "1. Stale Entries").contains("2 recorded decision(s)"), "{md}");
    let s7 = section(&md, "7. Documentation & README Staleness");
    assert!(!s7.contains("No documentation or README file"), "{s7}");
    assert!(s7.contains("Documentation staleness check skipped"), "no git here, and the section says so: {s7}");
}
