//! `memval validate --format sarif` against the official SARIF 2.1.0 JSON schema (shipped in
//! `tests/data/sarif/`, see its README), checked by the Python `jsonschema` package from the
//! venv of `scripts/pytools.sh`. GitHub code scanning rejects an upload that does not
//! validate, so this is what makes the Action's upload step work.

#[allow(dead_code)] // not every helper is used here
mod support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::{demo_repo, memval, venv, workspace};

/// Validates `doc` against the schema with Draft 4 (the schema's own `$schema`) and returns
/// the error messages, empty when it is valid.
fn schema_errors(doc: &Value) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("doc.sarif");
    std::fs::write(&file, serde_json::to_vec(doc).unwrap()).unwrap();
    let schema = workspace().join("tests/data/sarif/sarif-schema-2.1.0.json");
    let check = r#"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.Draft4Validator.check_schema(schema)
v = jsonschema.Draft4Validator(schema)
for e in sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path)):
    print("/".join(map(str, e.absolute_path)) + ": " + e.message)
"#;
    let out = Command::new(venv::python()).arg("-c").arg(check).arg(&schema).arg(&file).output().expect("python runs");
    assert!(out.status.success(), "the schema check itself failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_owned).collect()
}

fn sarif_of(repo: &Path, memories: &Path) -> Value {
    let store = tempfile::tempdir().unwrap();
    let out = memval(&[
        "validate",
        "--repo",
        repo.to_str().unwrap(),
        "--memories",
        memories.to_str().unwrap(),
        "--store",
        store.path().to_str().unwrap(),
        "--format",
        "sarif",
        "--fail-on",
        "never",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("sarif is JSON")
}

#[test]
fn sarif_output_validates_against_the_sarif_2_1_0_schema() {
    let demo = demo_repo();
    // A JSONL export (one file, many memories) and the demo's own notes files (CLAUDE.md,
    // AGENTS.md, docs): both kinds of location the writer produces.
    for memories in [workspace().join("examples/memories/memories.jsonl"), demo.clone()] {
        let sarif = sarif_of(&demo, &memories);
        let results = sarif["runs"][0]["results"].as_array().unwrap();
        let levels: Vec<&str> = results.iter().filter_map(|r| r["level"].as_str()).collect();
        // Not a vacuous pass: there are findings of more than one rule to validate.
        assert!(levels.contains(&"warning") && levels.contains(&"error"), "{}: {levels:?}", memories.display());
        let errors = schema_errors(&sarif);
        assert!(errors.is_empty(), "{} does not validate:\n{}", memories.display(), errors.join("\n"));
    }
}

#[test]
fn the_schema_check_rejects_what_is_not_sarif() {
    // The same check on a broken document must fail, or the test above proves nothing.
    let demo = demo_repo();
    let mut sarif = sarif_of(&demo, &workspace().join("examples/memories/memories.jsonl"));
    sarif["runs"][0]["results"][0]["level"] = Value::from("fatal");
    sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = Value::from(0);
    let errors = schema_errors(&sarif);
    assert!(errors.iter().any(|e| e.contains("level") && e.contains("fatal")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("startLine")), "{errors:?}");
}
