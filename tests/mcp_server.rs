//! `memval mcp` under the official MCP Python SDK (`mcp`, from the venv of
//! `scripts/pytools.sh`) as the client, over stdio: `tests/data/mcp/client.py` lists the
//! tools, calls each, sends a malformed call, a path outside the repo and an unknown tool,
//! and prints what came back; this test checks it, and that each tool's JSON is what the
//! matching CLI command prints.

#[allow(dead_code)] // not every helper is used here
mod support;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};
use support::{memval, venv, workspace, GitRepo};

fn project() -> GitRepo {
    let repo = GitRepo::new();
    repo.write("src/cache.rs", "pub struct Cache {\n    shards: Vec<u8>,\n}\n");
    repo.commit("init", "2026-01-01T00:00:00Z");
    repo.git(&["mv", "src/cache.rs", "src/store.rs"]);
    repo.commit("move", "2026-03-01T00:00:00Z");
    repo.write("CLAUDE.md", "# Notes\n\nThe cache lives in `src/cache.rs`.\n\nThe store is `src/store.rs`.\n");
    repo
}

/// The first text block of a tool result, as JSON.
fn json_of(result: &Value) -> Value {
    assert_eq!(result["is_error"], false, "{result}");
    serde_json::from_str(result["texts"][0].as_str().unwrap()).unwrap_or_else(|e| panic!("not JSON ({e}): {result}"))
}

/// A validate report without what differs between two runs of the same check.
fn comparable(mut report: Value) -> Value {
    for key in ["id", "started_at", "finished_at", "store"] {
        report["run"].as_object_mut().unwrap().remove(key);
    }
    report
}

#[test]
fn the_python_sdk_lists_and_calls_every_tool() {
    let repo = project();
    let repo_path = repo.dir.path().canonicalize().unwrap();
    let repo_str = repo_path.to_str().unwrap();
    let claude_home = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("CLAUDE.md"), "The secret lives in `src/secret.rs`.\n").unwrap();
    let memory_dir = workspace().join("services/judge/tests/fixtures/memory");
    let out = Command::new(venv::python())
        .arg(workspace().join("tests/data/mcp/client.py"))
        .args([env!("CARGO_BIN_EXE_memval"), repo_str, memory_dir.to_str().unwrap()])
        .arg(outside.path().join("CLAUDE.md"))
        .arg(claude_home.path())
        .output()
        .expect("python runs");
    assert!(out.status.success(), "the client failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("client output is not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));

    assert_eq!(got["server"]["name"], "memval");
    // Every tool, each with a JSON schema naming its required arguments.
    let tools = got["tools"].as_object().unwrap();
    let mut names: Vec<&str> = tools.keys().map(String::as_str).collect();
    names.sort();
    assert_eq!(names, ["check_memory", "judge_draft", "reconcile", "validate_memories"]);
    for (name, required) in [
        ("validate_memories", json!(["repo", "memories"])),
        ("check_memory", json!(["repo", "text"])),
        ("judge_draft", json!(["memory_dir", "draft"])),
        ("reconcile", json!(["repo", "memories"])),
    ] {
        let schema = &tools[name];
        assert_eq!(schema["type"], "object", "{name}: {schema}");
        let mut want: Vec<Value> = required.as_array().unwrap().clone();
        let mut have: Vec<Value> = schema["required"].as_array().unwrap_or_else(|| panic!("{name}: {schema}")).clone();
        want.sort_by_key(|v| v.to_string());
        have.sort_by_key(|v| v.to_string());
        assert_eq!(have, want, "{name}: {schema}");
    }
    assert!(tools["validate_memories"]["properties"]["fail_on"].is_object(), "{}", tools["validate_memories"]);

    // validate_memories: the CLI's JSON, and progress while it ran.
    let report = json_of(&got["validate_memories"]);
    let store = tempfile::tempdir().unwrap();
    let cli = memval(&[
        "validate",
        "--repo",
        repo_str,
        "--memories",
        repo_path.join("CLAUDE.md").to_str().unwrap(),
        "--store",
        store.path().to_str().unwrap(),
        "--format",
        "json",
        "-q",
    ]);
    assert_eq!(cli.status.code(), Some(1), "{}", String::from_utf8_lossy(&cli.stderr));
    let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
    assert_eq!(comparable(report.clone()), comparable(cli), "the tool and the CLI disagree");
    let verdicts: Vec<&str> =
        report["memories"][0]["claims"].as_array().unwrap().iter().map(|c| c["verdict"].as_str().unwrap()).collect();
    assert!(verdicts.contains(&"STALE") && verdicts.contains(&"VALID"), "{verdicts:?}");
    assert_eq!(report["run"]["failed"], true);
    let progress = got["progress"].as_array().unwrap();
    assert!(progress.len() >= 2, "{progress:?}");
    assert!(
        progress[0]["message"].as_str().unwrap().contains("started")
            && progress.last().unwrap()["message"].as_str().unwrap().contains("done"),
        "{progress:?}"
    );

    // check_memory: the report of the unsaved text, and which claim is already false.
    let check = &got["check_memory"];
    let checked = json_of(check);
    assert_eq!(checked["memories"][0]["claims"][0]["verdict"], "STALE", "{checked}");
    let summary = check["texts"][1].as_str().unwrap();
    assert!(
        summary.contains("1 claim(s)") && summary.contains("src/cache.rs") && summary.contains("src/store.rs"),
        "{summary}"
    );

    // judge_draft: exactly what `memval judge draft --format json` prints.
    let judged = json_of(&got["judge_draft"]);
    assert_eq!(judged["veto"], true, "{judged}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_memval"))
        .args(["judge", "draft", "--memory", memory_dir.to_str().unwrap(), "--draft", "-", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"Just run `git commit --no-verify` and push.").unwrap();
    let cli: Value = serde_json::from_slice(&child.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(judged, cli);

    // reconcile: the findings, and the report file it wrote.
    let reconciled = json_of(&got["reconcile"]);
    let path = reconciled["report_path"].as_str().unwrap();
    assert!(path.starts_with(repo_str) && std::path::Path::new(path).is_file(), "{path}");

    // A call with arguments of the wrong type is refused before any work, as a tool error
    // (what current MCP asks of input validation, so the model can correct its call) that
    // says what is wrong.
    let malformed = &got["malformed"];
    assert_eq!(malformed["is_error"], true, "{malformed}");
    let text = malformed["texts"][0].as_str().unwrap();
    assert!(text.contains("invalid type") && text.contains("expected a string"), "{text}");
    // Paths outside the repo are refused, and nothing of them is read.
    for key in ["outside", "outside_dotdot"] {
        let r = &got[key];
        assert_eq!(r["is_error"], true, "{key}: {r}");
        let text = r["texts"][0].as_str().unwrap();
        assert!(text.starts_with("refused:") && text.contains("outside"), "{key}: {text}");
        assert!(!text.contains("src/secret.rs"), "{key}: {text}");
    }
    assert!(
        got["unknown_tool"]["protocol_error"].is_object() || got["unknown_tool"]["is_error"] == true,
        "{}",
        got["unknown_tool"]
    );
}
