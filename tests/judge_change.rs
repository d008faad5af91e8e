//! `memval judge change` end to end (issue 12, docs/contracts.md §8): the real binary on small git repos
//! built with the real `git`, a Python project whose checks run with the standard library's
//! unittest, and scripted model servers in both wire formats for the model review.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use memval_llm::testing::{answers, Recorded, Reply, ScriptedServer};
use serde_json::{json, Value};

const CALC_BASE: &str = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n";
const CALC_FIXED: &str = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n";
const TESTS_BASE: &str = "import unittest\n\nfrom src.calc import sub\n\n\nclass Sub(unittest.TestCase):\n    def test_sub(self):\n        self.assertEqual(sub(3, 1), 2)\n";
const TESTS_CHANGED: &str = "import unittest\n\nfrom src.calc import add, sub\n\n\nclass Sub(unittest.TestCase):\n    def test_sub(self):\n        self.assertEqual(sub(3, 1), 2)\n\n\nclass Add(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n";
const UNITTEST: &str = "python3 -m unittest discover -s tests -t . -q";

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn write(dir: &Path, path: &str, text: &str) {
    let p = dir.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A repo at its base commit (tagged `base`), with the change applied on top: `add` fixed
/// and committed, the new test left uncommitted (the change is both).
struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    /// Outside the subject.
    acceptance: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("subject");
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "-q"]);
    write(&root, "src/__init__.py", "");
    write(&root, "src/calc.py", CALC_BASE);
    write(&root, "tests/__init__.py", "");
    write(&root, "tests/test_calc.py", TESTS_BASE);
    write(&root, "docs/notes.md", "# Notes\n");
    write(&root, ".gitignore", "__pycache__/\n");
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "base"]);
    git(&root, &["tag", "base"]);
    write(&root, "src/calc.py", CALC_FIXED);
    git(&root, &["commit", "-qam", "fix add"]);
    write(&root, "tests/test_calc.py", TESTS_CHANGED);
    let acceptance = dir.path().join("acceptance.json");
    Fixture { _dir: dir, root, acceptance }
}

impl Fixture {
    fn acceptance(&self, criteria: Value) {
        std::fs::write(&self.acceptance, json!({ "criteria": criteria }).to_string()).unwrap();
    }

    fn standard(&self) {
        self.acceptance(json!([
            {"id": "AC1", "text": "add returns the sum of its arguments", "check": UNITTEST, "scope": ["src/**", "tests/**"]},
            {"id": "AC2", "text": "sub is unchanged", "check": "grep -q 'return a - b' src/calc.py", "scope": ["src/calc.py"]}
        ]));
    }

    fn run(&self, extra: &[&str]) -> (Value, Output) {
        let root = self.root.display().to_string();
        let acceptance = self.acceptance.display().to_string();
        let mut args = vec![
            "judge",
            "change",
            "--root",
            &root,
            "--acceptance",
            &acceptance,
            "--author-context",
            "ctx-author",
            "--base",
            "base",
            "--format",
            "json",
        ];
        if !extra.contains(&"--validator-context") {
            args.extend(["--validator-context", "ctx-validator"]);
        }
        if !extra.contains(&"--no-freshness") {
            args.extend(["--freshness", "runtime", "--attester", "e2e"]);
        }
        args.extend(extra.iter().filter(|a| **a != "--no-freshness"));
        let out = memval(&args);
        let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "not json ({e}): {}\nstderr: {}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (v, out)
    }
}

fn memval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memval"))
        .args(args)
        .env_remove("MEMVAL_LLM_PROVIDER")
        .env_remove("MEMVAL_LLM_MODEL")
        .env_remove("MEMVAL_LLM_BASE_URL")
        .env_remove("MEMVAL_LLM_CONFIG")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("memval runs")
}

fn classes(v: &Value) -> Vec<String> {
    v["findings"].as_array().unwrap().iter().map(|f| f["class"].as_str().unwrap().to_owned()).collect()
}

fn criterion<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no criterion {id}: {v:#}"))
}

fn evidence<'a>(v: &'a Value, id: &str) -> &'a Value {
    &v["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .unwrap_or_else(|| panic!("no evidence {id}: {v:#}"))["detail"]
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

#[test]
fn a_real_passing_change_is_pass_with_its_evidence() {
    let f = fixture();
    f.standard();
    let (v, out) = f.run(&[]);
    assert_eq!(v["result"], "PASS", "{v:#}");
    assert_eq!(code(&out), 0);
    assert_eq!(criterion(&v, "AC1")["result"], "pass");
    assert_eq!(criterion(&v, "AC1")["evidence_refs"], json!(["check:AC1"]));
    let run = evidence(&v, "check:AC1");
    assert_eq!(run["exit_code"], 0);
    assert_eq!(run["ran_in"], "subject");
    assert!(run["output_tail"].as_str().unwrap().contains("Ran 2 tests"), "{run:#}");
    assert!(v["not_checked"].as_array().unwrap().is_empty());
    for item in ["AC1", "AC2", "change_scope", "weakening", "subject_manifest"] {
        assert!(v["checked"].as_array().unwrap().contains(&json!(item)), "{item}: {v:#}");
    }
    // The change is the committed fix and the uncommitted test, both from git.
    let changed: Vec<&str> =
        evidence(&v, "scope")["changed"].as_array().unwrap().iter().map(|c| c["path"].as_str().unwrap()).collect();
    assert_eq!(changed, vec!["src/calc.py", "tests/test_calc.py"]);
    assert_eq!(v["freshness"], json!({"source": "runtime", "attester": "e2e"}));
    assert_eq!(v["author_context"], "ctx-author");
    let acceptance_bytes = std::fs::read(&f.acceptance).unwrap();
    assert_eq!(v["acceptance_digest"].as_str().unwrap().len(), 64);
    assert_ne!(v["acceptance_digest"], v["subject_digest"]);
    assert!(!acceptance_bytes.is_empty());
    // The manifest sub-action prints the same subject identity.
    let m = memval(&["judge", "change", "manifest", "--root", &f.root.display().to_string()]);
    assert_eq!(code(&m), 0);
    let manifest: Value = serde_json::from_slice(&m.stdout).unwrap();
    assert_eq!(manifest["schema"], "subject-manifest.v1");
    assert_eq!(manifest["digest"], v["subject_digest"]);
    let paths: Vec<&str> = manifest["files"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
    assert!(paths.contains(&"src/calc.py") && !paths.iter().any(|p| p.starts_with(".git/")), "{paths:?}");
}

#[test]
fn a_failing_check_is_fail_with_its_exit_code_and_output() {
    let f = fixture();
    f.standard();
    write(&f.root, "src/calc.py", &CALC_FIXED.replace("a + b", "a * b"));
    let (v, out) = f.run(&[]);
    assert_eq!(v["result"], "FAIL", "{v:#}");
    assert_eq!(code(&out), 1);
    assert_eq!(criterion(&v, "AC1")["result"], "fail");
    assert_eq!(criterion(&v, "AC2")["result"], "pass");
    assert_eq!(classes(&v), vec!["check_failed"]);
    assert_eq!(evidence(&v, "check:AC1")["exit_code"], 1);
    let f0 = &v["findings"][0];
    assert!(f0["evidence"].to_string().contains("FAILED"), "{f0:#}");
}

#[test]
fn a_skipped_test_is_fail_and_named_unless_a_criterion_requires_it() {
    let f = fixture();
    f.standard();
    let skipped =
        TESTS_CHANGED.replace("    def test_sub(self):", "    @unittest.skip(\"flaky\")\n    def test_sub(self):");
    write(&f.root, "tests/test_calc.py", &skipped);
    let (v, out) = f.run(&[]);
    assert_eq!(v["result"], "FAIL", "{v:#}");
    assert_eq!(code(&out), 1);
    // Every check is green: the FAIL comes from the weakening alone.
    assert_eq!(criterion(&v, "AC1")["result"], "pass");
    assert_eq!(classes(&v), vec!["test_skipped"]);
    assert!(v["findings"][0]["summary"].as_str().unwrap().starts_with("tests/test_calc.py:"), "{v:#}");

    // A criterion that requires the skip, in its scope, makes it part of the change.
    f.acceptance(json!([
        {"id": "AC1", "text": "add returns the sum", "check": UNITTEST, "scope": ["src/**", "tests/**"]},
        {"id": "AC2", "text": "the flaky sub test is skipped until its fix", "check": "grep -q 'unittest.skip' tests/test_calc.py", "scope": ["tests/**"], "allows": ["test_skipped"]}
    ]));
    let (v, out) = f.run(&[]);
    assert_eq!(v["result"], "PASS", "{v:#}");
    assert_eq!(code(&out), 0);
    assert_eq!(evidence(&v, "scope")["required_weakenings"][0]["required_by"], "AC2");
}

#[test]
fn a_deleted_test_file_is_fail() {
    let f = fixture();
    f.standard();
    std::fs::remove_file(f.root.join("tests/test_calc.py")).unwrap();
    let (v, out) = f.run(&[]);
    assert_eq!(code(&out), 1, "{v:#}");
    assert!(classes(&v).contains(&"test_deleted".to_owned()), "{v:#}");
}

#[test]
fn an_out_of_scope_file_is_fail() {
    let f = fixture();
    f.standard();
    write(&f.root, "docs/notes.md", "# Notes\n\nAlso rewrote the docs.\n");
    write(&f.root, "scripts/new.sh", "echo untracked\n");
    let (v, out) = f.run(&[]);
    assert_eq!(v["result"], "FAIL", "{v:#}");
    assert_eq!(code(&out), 1);
    assert_eq!(classes(&v), vec!["out_of_scope_change", "out_of_scope_change"]);
    let summaries = v["findings"].to_string();
    assert!(summaries.contains("docs/notes.md") && summaries.contains("scripts/new.sh"), "{summaries}");
}

#[test]
fn a_criterion_without_a_check_is_not_proven() {
    let f = fixture();
    f.acceptance(json!([
        {"id": "AC1", "text": "add returns the sum", "check": UNITTEST, "scope": ["src/**", "tests/**"]},
        {"id": "AC2", "text": "add is fast enough for the hot loop", "scope": ["src/**"]}
    ]));
    let (v, out) = f.run(&[]);
    assert_eq!(v["result"], "NOT_PROVEN", "{v:#}");
    assert_eq!(code(&out), 3);
    assert_eq!(criterion(&v, "AC1")["result"], "pass");
    assert_eq!(criterion(&v, "AC2")["result"], "not_checked");
    assert_eq!(criterion(&v, "AC2")["evidence_refs"], json!([]));
    assert_eq!(v["not_checked"][0]["id"], "AC2");
    assert_eq!(classes(&v), vec!["unverified_criterion"]);
}

#[test]
fn a_mutating_check_runs_in_a_copy_and_the_judged_tree_is_unchanged() {
    let f = fixture();
    f.acceptance(json!([
        {"id": "AC1", "text": "add still passes after regenerating", "check": "sed -i 's/a + b/b + a/' src/calc.py && grep -q 'b + a' src/calc.py && python3 -m unittest discover -s tests -t . -q", "scope": ["src/**", "tests/**"]}
    ]));
    let before = std::fs::read(f.root.join("src/calc.py")).unwrap();
    let (v, out) = f.run(&[]);
    assert_eq!(v["result"], "PASS", "{v:#}");
    assert_eq!(code(&out), 0);
    let run = evidence(&v, "check:AC1");
    assert_eq!(run["ran_in"], "disposable_copy");
    assert_eq!(run["classification"]["mutating"], true);
    assert_eq!(run["exit_code"], 0, "the edit happened, in the copy: {run:#}");
    assert_eq!(std::fs::read(f.root.join("src/calc.py")).unwrap(), before);
    assert_eq!(evidence(&v, "manifest:start")["digest"], evidence(&v, "manifest:end")["digest"]);
}

#[test]
fn a_subject_mutated_during_judging_is_not_proven() {
    let f = fixture();
    f.standard();
    // A test the read-only test runner runs writes into the tree: only the second manifest
    // can see it.
    let writer = format!("{TESTS_CHANGED}\n\nclass Writer(unittest.TestCase):\n    def test_writes(self):\n        open('src/generated.txt', 'w').write('x')\n");
    write(&f.root, "tests/test_calc.py", &writer);
    let (v, out) = f.run(&[]);
    assert_eq!(v["result"], "NOT_PROVEN", "{v:#}");
    assert_eq!(code(&out), 3);
    assert_eq!(evidence(&v, "check:AC1")["ran_in"], "subject");
    let mutated = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["class"] == "subject_mutated")
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(mutated["evidence"], json!(["src/generated.txt (added)"]));
    assert!(!v["checked"].as_array().unwrap().contains(&json!("subject_manifest")));
}

#[test]
fn equal_author_and_validator_contexts_are_not_proven() {
    let f = fixture();
    f.standard();
    let (v, out) = f.run(&["--validator-context", "ctx-author"]);
    assert_eq!(v["result"], "NOT_PROVEN", "{v:#}");
    assert_eq!(code(&out), 3);
    assert_eq!(classes(&v), vec!["context_collision"]);
    // Everything else passed: only the identity stands between this and PASS.
    assert_eq!(criterion(&v, "AC1")["result"], "pass");

    let (v, out) = f.run(&["--no-freshness"]);
    assert_eq!(code(&out), 3, "{v:#}");
    assert_eq!(classes(&v), vec!["freshness_unattested"]);
    assert_eq!(v["freshness"], Value::Null);
}

#[test]
fn bad_input_exits_2_and_a_git_error_is_never_no_changes() {
    let f = fixture();
    f.standard();
    let (root, acc) = (f.root.display().to_string(), f.acceptance.display().to_string());
    let base =
        ["judge", "change", "--root", &root, "--acceptance", &acc, "--author-context", "a", "--validator-context", "b"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--base", "no-such-rev"], "no-such-rev"),
        (vec!["--acceptance", "/nonexistent/acceptance.json"], "cannot read the acceptance file"),
        (vec!["--freshness", "runtime"], "--attester"),
    ];
    for (extra, want) in cases {
        let mut args = base.to_vec();
        if extra[0] == "--acceptance" {
            args[5] = extra[1];
        } else {
            args.extend(extra);
        }
        let out = memval(&args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(want),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "no verdict is printed on bad input");
    }
    // Not a git repository: --base cannot be answered, and that is an error.
    let plain = tempfile::tempdir().unwrap();
    write(plain.path(), "a.txt", "x\n");
    let p = plain.path().display().to_string();
    let out = memval(&[
        "judge",
        "change",
        "--root",
        &p,
        "--acceptance",
        &acc,
        "--author-context",
        "a",
        "--validator-context",
        "b",
        "--base",
        "HEAD",
    ]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("git"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_stored_verdict_is_content_addressed_and_listed_by_history() {
    let f = fixture();
    f.standard();
    let store = f.root.parent().unwrap().join("store");
    let s = store.display().to_string();
    let (v, out) = f.run(&["--store", &s]);
    assert_eq!(code(&out), 0, "{v:#}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let digest = stderr
        .split("verdict ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{stderr}"))
        .to_owned();
    assert!(digest.len() == 64 && digest.chars().all(|c| c.is_ascii_hexdigit()), "{digest}");
    let h = memval(&["history", "--store", &s]);
    assert_eq!(code(&h), 0, "{}", String::from_utf8_lossy(&h.stderr));
    let text = String::from_utf8_lossy(&h.stdout);
    assert!(text.contains("change verdicts (1)"), "{text}");
    assert!(text.contains("PASS") && text.contains(&digest[..12]) && text.contains("ctx-validator"), "{text}");
    // The JSON view carries the same verdict, digest in full.
    let h = memval(&["history", "--store", &s, "--format", "json"]);
    assert_eq!(code(&h), 0, "{}", String::from_utf8_lossy(&h.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&h.stdout).unwrap();
    let verdicts = doc["change_verdicts"].as_array().unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(verdicts.len(), 1, "{doc:#}");
    assert_eq!(
        (verdicts[0]["digest"].as_str(), verdicts[0]["result"].as_str()),
        (Some(digest.as_str()), Some("PASS")),
        "{doc:#}"
    );
    assert!(verdicts[0]["validator_context"].as_str().is_some_and(|c| c.contains("ctx-validator")), "{doc:#}");
    assert!(verdicts[0]["stored_at"].as_str().is_some_and(|t| text.contains(t)), "the table's time: {doc:#}");
    assert_eq!(doc["memories"], serde_json::json!([]), "{doc:#}");
}

#[test]
fn markdown_output_carries_the_result_and_the_finding_classes() {
    let f = fixture();
    f.standard();
    write(&f.root, "docs/notes.md", "changed\n");
    let (root, acc) = (f.root.display().to_string(), f.acceptance.display().to_string());
    let out = memval(&[
        "judge",
        "change",
        "--root",
        &root,
        "--acceptance",
        &acc,
        "--author-context",
        "a",
        "--validator-context",
        "b",
        "--base",
        "base",
        "--freshness",
        "caller",
        "--attester",
        "me",
        "--format",
        "md",
    ]);
    assert_eq!(code(&out), 1);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("# Change validation: FAIL"), "{text}");
    assert!(text.contains("**out_of_scope_change**: docs/notes.md"), "{text}");
}

// --- model review -----------------------------------------------------------------------

/// The criterion only a reviewer can judge.
fn review_acceptance(f: &Fixture) {
    f.acceptance(json!([
        {"id": "AC1", "text": "the tests pass", "check": UNITTEST, "scope": ["src/**", "tests/**"]},
        {"id": "AC2", "text": "add returns a + b, not a difference", "scope": ["src/**", "tests/**"]}
    ]));
}

fn opinion(result: &str, cite: &str) -> String {
    json!({"criteria": [{"id": "AC2", "result": result, "reason": format!("line says so ({result})"), "evidence": [cite]}]}).to_string()
}

fn openai_server(answer: String) -> ScriptedServer {
    ScriptedServer::start(move |_: &Recorded| Reply::json(answers::openai_text(&answer)))
}

fn anthropic_server(answer: String) -> ScriptedServer {
    ScriptedServer::start(move |_: &Recorded| Reply::json(answers::anthropic_text(&answer)))
}

fn openai_flags(s: &ScriptedServer) -> Vec<String> {
    [
        "--llm-provider",
        "openai",
        "--llm-model",
        "gpt-scripted",
        "--llm-base-url",
        &format!("{}/v1", s.url()),
        "--llm-max-retries",
        "0",
    ]
    .map(str::to_owned)
    .to_vec()
}

fn cross_flags(s: &ScriptedServer) -> Vec<String> {
    [
        "--cross-model",
        "--cross-provider",
        "anthropic",
        "--cross-model-name",
        "claude-scripted",
        "--cross-base-url",
        &s.url(),
    ]
    .map(str::to_owned)
    .to_vec()
}

fn run_with(f: &Fixture, flags: Vec<String>) -> (Value, Output) {
    let refs: Vec<&str> = flags.iter().map(String::as_str).collect();
    f.run(&refs)
}

#[test]
fn cross_model_agreement_is_pass_and_both_verdicts_are_kept() {
    let f = fixture();
    review_acceptance(&f);
    let a = openai_server(opinion("pass", "src/calc.py:2"));
    let b = anthropic_server(opinion("pass", "src/calc.py:1-2"));
    let (v, out) = run_with(&f, [openai_flags(&a), cross_flags(&b)].concat());
    assert_eq!(v["result"], "PASS", "{v:#}");
    assert_eq!(code(&out), 0);
    let ac2 = criterion(&v, "AC2");
    assert_eq!(ac2["result"], "pass");
    assert_eq!(ac2["evidence_refs"], json!(["review:openai/gpt-scripted:AC2", "review:anthropic/claude-scripted:AC2"]));
    assert_eq!(evidence(&v, "review:anthropic/claude-scripted:AC2")["citations"], json!(["src/calc.py:1-2"]));
    // Each reviewer got the criterion, the actual diff and the numbered file, once; the
    // criterion with a check was not sent.
    for (server, body) in [(&a, a.requests()), (&b, b.requests())] {
        assert_eq!(body.len(), 1, "{}", server.url());
        let text = body[0].text();
        assert!(text.contains("add returns a + b") && !text.contains("the tests pass"), "{text}");
        assert!(text.contains("-    return a - b") && text.contains("+    return a + b"), "the diff is shown: {text}");
        assert!(text.contains("2:     return a + b"), "numbered lines are shown: {text}");
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("review by openai/gpt-scripted: 1 calls")
            && stderr.contains("review by anthropic/claude-scripted: 1 calls"),
        "{stderr}"
    );
    assert!(a.requests()[0].path.ends_with("/v1/chat/completions"));
    assert!(b.requests()[0].path.ends_with("/v1/messages"));
}

#[test]
fn a_cross_model_split_keeps_both_and_the_delivered_fail_stands() {
    let f = fixture();
    review_acceptance(&f);
    let a = openai_server(opinion("pass", "src/calc.py:2"));
    let b = anthropic_server(opinion("fail", "src/calc.py:6"));
    let (v, out) = run_with(&f, [openai_flags(&a), cross_flags(&b)].concat());
    assert_eq!(v["result"], "FAIL", "{v:#}");
    assert_eq!(code(&out), 1);
    assert_eq!(criterion(&v, "AC2")["result"], "fail");
    assert_eq!(criterion(&v, "AC2")["evidence_refs"].as_array().unwrap().len(), 2);
    assert_eq!(classes(&v), vec!["review_failed", "reviewer_split"]);
    assert_eq!(evidence(&v, "review:openai/gpt-scripted:AC2")["result"], "pass");
    assert_eq!(evidence(&v, "review:anthropic/claude-scripted:AC2")["result"], "fail");
}

#[test]
fn a_missing_second_verdict_is_not_proven_with_diversity_unsatisfied() {
    let f = fixture();
    review_acceptance(&f);
    let a = openai_server(opinion("pass", "src/calc.py:2"));
    let b = ScriptedServer::start(|_: &Recorded| {
        Reply::raw(400, r#"{"type":"error","error":{"type":"invalid_request_error","message":"model not available"}}"#)
    });
    let (v, out) = run_with(&f, [openai_flags(&a), cross_flags(&b)].concat());
    assert_eq!(v["result"], "NOT_PROVEN", "{v:#}");
    assert_eq!(code(&out), 3);
    assert_eq!(criterion(&v, "AC2")["result"], "not_checked");
    let got = classes(&v);
    assert!(
        got.contains(&"diversity_unsatisfied".to_owned()) && got.contains(&"review_unavailable".to_owned()),
        "{got:?}"
    );
    // The first reviewer's pass is still there to see.
    assert_eq!(evidence(&v, "review:openai/gpt-scripted:AC2")["result"], "pass");

    // No second reviewer configured at all, or one of the same family: the same answer.
    let (v, out) = run_with(&f, [openai_flags(&a), vec!["--cross-model".to_owned()]].concat());
    assert_eq!(code(&out), 3, "{v:#}");
    assert!(classes(&v).contains(&"diversity_unsatisfied".to_owned()));
    let same = openai_server(opinion("pass", "src/calc.py:2"));
    let same_family = [
        "--cross-model",
        "--cross-provider",
        "openai",
        "--cross-model-name",
        "other",
        "--cross-base-url",
        &format!("{}/v1", same.url()),
    ]
    .map(str::to_owned)
    .to_vec();
    let (v, out) = run_with(&f, [openai_flags(&a), same_family].concat());
    assert_eq!(code(&out), 3, "{v:#}");
    assert!(v["findings"].to_string().contains("same family"), "{v:#}");
    assert!(same.requests().is_empty(), "a same-family reviewer is not asked");
}

#[test]
fn a_fabricated_citation_leaves_the_criterion_not_checked() {
    let f = fixture();
    review_acceptance(&f);
    let a = openai_server(opinion("pass", "src/calc.py:99"));
    let (v, out) = run_with(&f, openai_flags(&a));
    assert_eq!(v["result"], "NOT_PROVEN", "{v:#}");
    assert_eq!(code(&out), 3);
    assert_eq!(criterion(&v, "AC2")["result"], "not_checked");
    assert_eq!(criterion(&v, "AC2")["evidence_refs"], json!([]));
    assert_eq!(classes(&v), vec!["unverified_criterion", "fabricated_citation"]);
    assert!(v["findings"].to_string().contains("src/calc.py has 6 lines"), "{v:#}");

    // A citation of a file outside the subject is refused the same way.
    let b = openai_server(opinion("pass", "../acceptance.json:1"));
    let (v, _) = run_with(&f, openai_flags(&b));
    assert_eq!(criterion(&v, "AC2")["result"], "not_checked", "{v:#}");
    assert!(classes(&v).contains(&"fabricated_citation".to_owned()));

    // The same reviewer citing a real line passes the criterion.
    let c = openai_server(opinion("pass", "src/calc.py:2"));
    let (v, out) = run_with(&f, openai_flags(&c));
    assert_eq!(v["result"], "PASS", "{v:#}");
    assert_eq!(code(&out), 0);
}
