//! `memval pairs` end to end: JSONL in the docs/contracts.md §5 shape, the cap and resolved pairs of a
//! `memory.db` (opened read-only, left byte-identical), `--cap`, `--per-agent`.

// The shared support module has helpers this test does not use.
#![allow(dead_code)]

mod support;

use serde_json::Value;
use support::memval;

fn lines(out: &std::process::Output) -> Vec<Value> {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn memory_db(dir: &std::path::Path, cap: i64) -> std::path::PathBuf {
    let db = dir.join("memory.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TABLE memories (id INTEGER PRIMARY KEY, agent TEXT, type TEXT, content TEXT, metadata_json TEXT, created_at TEXT, updated_at TEXT, tier INTEGER, archived INTEGER DEFAULT 0, distilled_from TEXT, validated_at TEXT, archive_reason TEXT);
         CREATE TABLE config (key TEXT PRIMARY KEY, value TEXT);
         CREATE TABLE reconcile_log (id INTEGER PRIMARY KEY, id_a INTEGER, id_b INTEGER, resolution TEXT, resolved_at TEXT);",
    )
    .unwrap();
    let rows = [
        (1, "pm", "We decided to use PostgreSQL as the primary database."),
        (2, "tech-lead", "We rejected PostgreSQL; the primary database stays on SQLite."),
        (3, "qa", "The primary database is PostgreSQL in staging too."),
        (4, "pm", "Flaky tests retry twice in continuous integration."),
        (5, "ops", "Flaky tests retry twice in continuous integration runs."),
    ];
    for (id, agent, content) in rows {
        conn.execute("INSERT INTO memories (id, agent, type, content, created_at, tier) VALUES (?1, ?2, 'memory', ?3, '2026-11-01', 0)", rusqlite::params![id, agent, content]).unwrap();
    }
    conn.execute("INSERT INTO config VALUES ('reconcile_pair_cap', ?1)", [cap.to_string()]).unwrap();
    // 4/5 settled, 1/2 only skipped (raised again).
    conn.execute_batch("INSERT INTO reconcile_log (id_a, id_b, resolution) VALUES (5, 4, 'merge'), (1, 2, 'skip');")
        .unwrap();
    drop(conn);
    db
}

#[test]
fn pairs_from_a_memory_db() {
    let dir = tempfile::tempdir().unwrap();
    let db = memory_db(dir.path(), 2);
    let before = std::fs::read(&db).unwrap();
    let out = memval(&["pairs", "--memories", db.to_str().unwrap(), "--format", "jsonl"]);
    let got = lines(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // reconcile_pair_cap = 2: the two best pairs of different agents; 4/5 was merged.
    let ids: Vec<(u64, u64)> = got.iter().map(|v| (v["id_a"].as_u64().unwrap(), v["id_b"].as_u64().unwrap())).collect();
    assert_eq!(ids, [(1, 3), (1, 2)], "{stderr}");
    for v in &got {
        assert_eq!(v.as_object().unwrap().len(), 8);
        assert_eq!(v["method"], "keyword");
        assert!(v["score"].as_f64().unwrap() >= 0.15);
        assert_ne!(v["agent_a"], v["agent_b"]);
    }
    assert!(stderr.contains("cap 2 (reconcile_pair_cap in memory.db)"), "{stderr}");
    assert!(stderr.contains("1 pairs not raised: already resolved in reconcile_log"), "{stderr}");
    assert!(stderr.contains("capped at 2 pairs"), "{stderr}");
    // --cap 0: every pair above the floor; the merged pair still never comes back.
    let all = lines(&memval(&["pairs", "--memories", db.to_str().unwrap(), "--cap", "0", "--format", "jsonl"]));
    assert_eq!(all.len(), 3);
    assert!(all.iter().all(|v| !(v["id_a"] == 4 && v["id_b"] == 5)));
    assert_eq!(std::fs::read(&db).unwrap(), before, "memory.db is byte-identical");
    let names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["memory.db"], "nothing written beside it");
}

#[test]
fn per_agent_sampling_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.jsonl");
    let mut text = String::new();
    for i in 0..5 {
        text.push_str(&format!(
            "{{\"id\": {i}, \"agent\": \"pm\", \"content\": \"cache entries expire after {i} minutes\"}}\n"
        ));
    }
    text.push_str("{\"id\": 9, \"agent\": \"qa\", \"content\": \"cache entries expire after some minutes\"}\n");
    std::fs::write(&path, text).unwrap();
    let out = memval(&["pairs", "--memories", path.to_str().unwrap(), "--per-agent", "2", "--format", "jsonl"]);
    assert_eq!(lines(&out).len(), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("agent pm: 2 of 5 memories compared"));
    let out = memval(&["pairs", "--memories", path.to_str().unwrap(), "--per-agent", "0", "--format", "jsonl"]);
    assert_eq!(lines(&out).len(), 5);
    let table = memval(&["pairs", "--memories", path.to_str().unwrap(), "--format", "table", "--cap", "1"]);
    assert!(String::from_utf8_lossy(&table.stdout).contains("score"));
}

#[test]
fn missing_input_exits_2() {
    let out = memval(&["pairs", "--memories", "/nonexistent/memval/m.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A repository's agent tools each keep their own notes; two that disagree are a pair to judge,
/// and a notes file that is only a link to another is one memory, said on stderr.
#[cfg(unix)]
#[test]
fn the_notes_of_different_agent_tools_in_one_repository_are_paired() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("CLAUDE.md", "# Claude\n\nAlways install dependencies with pnpm; run tests with pnpm test.\n");
    write(
        "AGENTS.md",
        "# Agents\n\nNever install dependencies with pnpm; always use npm and run tests with npm test.\n",
    );
    write(".cursor/rules/deps.mdc", "---\ndescription: dependencies\nalwaysApply: true\n---\nInstall dependencies with yarn; run tests with yarn test.\n");
    std::fs::create_dir_all(root.join(".github")).unwrap();
    std::os::unix::fs::symlink("../AGENTS.md", root.join(".github/copilot-instructions.md")).unwrap();

    let out =
        memval(&["pairs", "--memories", root.to_str().unwrap(), "--repo", root.to_str().unwrap(), "--format", "jsonl"]);
    let got = lines(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Each pair as its two sides, `agent:id`, in sorted order.
    let side = |v: &Value, s: &str| {
        format!("{}:{}", v[format!("agent_{s}")].as_str().unwrap(), v[format!("id_{s}")].as_str().unwrap())
    };
    let mut pairs: Vec<[String; 2]> = got
        .iter()
        .map(|v| {
            let mut p = [side(v, "a"), side(v, "b")];
            p.sort();
            p
        })
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        [
            ["agents:AGENTS.md", "claude-code:CLAUDE.md"],
            ["agents:AGENTS.md", "cursor:.cursor/rules/deps.mdc"],
            ["claude-code:CLAUDE.md", "cursor:.cursor/rules/deps.mdc"],
        ]
        .map(|p| p.map(str::to_owned)),
        "{stderr}"
    );
    assert!(
        stderr.contains(".github/copilot-instructions.md is the same file as AGENTS.md, read once under that name"),
        "{stderr}"
    );
}
