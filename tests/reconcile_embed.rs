//! `memval reconcile --method keyword|embed|both` end to end with the real all-MiniLM-L6-v2:
//! the report's candidate pairs are the ones `memval pairs` proposes by the same method (a
//! paraphrase keyword misses is found by embed, `both` keeps each pair's better method), the
//! report says which method and what embedding did, the cache in `--store` makes a second
//! run embed nothing, and the memories are byte-identical after every run. A missing model is
//! exit 2 before any report is written.
//!
//! Needs the model (`bash scripts/embed-model.sh`, MEMVAL_EMBED_MODEL=DIR). Without it the
//! model test says it checked nothing, and fails when MEMVAL_REQUIRE_EMBED=1 (scripts/test.sh).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

#[allow(dead_code)] // not every helper is used here
mod support;

use support::embed::model;

/// Two paraphrases of different agents with few shared words (1, 2), and one sentence
/// reordered (5, 6: identical word sets, so keyword scores it 1.0).
const MEMORIES: &str = r#"{"id": 1, "agent": "backend", "content": "The API server listens on port 8080."}
{"id": 2, "agent": "frontend", "content": "Our HTTP backend accepts connections on 8080."}
{"id": 3, "agent": "qa", "content": "Use pnpm, not npm, to install the frontend dependencies."}
{"id": 4, "agent": "ops", "content": "Tests run with cargo nextest; never use cargo test --workspace on CI."}
{"id": 5, "agent": "backend", "content": "Deploys happen on Fridays only."}
{"id": 6, "agent": "ops", "content": "Only Fridays: deploys happen on."}
"#;

struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("repo")).unwrap();
        std::fs::write(dir.path().join("repo/memories.jsonl"), MEMORIES).unwrap();
        Project { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// `memval reconcile --format json` with the memories, `--store` and `--out-dir` in the
    /// temporary folder, no chat model, and `extra` flags.
    fn reconcile(&self, extra: &[&str]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_memval"));
        for v in [
            "MEMVAL_LLM_PROVIDER",
            "MEMVAL_LLM_MODEL",
            "MEMVAL_LLM_CONFIG",
            "MEMVAL_LLM_BASE_URL",
            "MEMVAL_EMBED_MODEL",
        ] {
            cmd.env_remove(v);
        }
        cmd.arg("reconcile")
            .arg("--repo")
            .arg(self.path("repo"))
            .arg("--memories")
            .arg(self.path("repo/memories.jsonl"))
            .arg("--store")
            .arg(self.path("store"))
            .arg("--out-dir")
            .arg(self.path("reports"))
            .args(["--format", "json", "--pair-cap", "0"])
            .args(extra);
        cmd.output().unwrap()
    }

    fn reports(&self) -> usize {
        std::fs::read_dir(self.path("reports")).map_or(0, |d| d.count())
    }
}

/// A candidate pair of a report: (id_a, id_b, score, method).
type Candidate = (String, String, f64, String);

/// The report's candidate pairs, and its candidate notes.
fn candidates(out: &Output) -> (Vec<Candidate>, Vec<String>) {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &report["contradictions"];
    let pairs = c["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let p = &p["pair"];
            (
                p["id_a"].as_str().unwrap().to_owned(),
                p["id_b"].as_str().unwrap().to_owned(),
                p["score"].as_f64().unwrap(),
                p["method"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let notes = c["candidate_notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_owned()).collect();
    (pairs, notes)
}

fn has(pairs: &[(String, String, f64, String)], a: &str, b: &str) -> Option<(f64, String)> {
    pairs.iter().find(|p| (p.0.as_str(), p.1.as_str()) == (a, b)).map(|p| (p.2, p.3.clone()))
}

/// `memval pairs` over the same memories by `method`, as (id_a, id_b, method).
fn pairs_cli(p: &Project, model: &Path, method: &str) -> Vec<(String, String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_memval"))
        .arg("pairs")
        .arg("--memories")
        .arg(p.path("repo/memories.jsonl"))
        .arg("--repo")
        .arg(p.path("repo"))
        .args(["--method", method, "--cap", "0", "--format", "jsonl", "--store"])
        .arg(p.path("pairs-store"))
        .arg("--embed-model")
        .arg(model)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["id_a"].to_string(), v["id_b"].to_string(), v["method"].as_str().unwrap().to_owned())
        })
        .collect()
}

#[test]
fn the_method_chooses_the_candidate_pairs_as_memval_pairs_does() {
    let Some(model) = model() else { return };
    let p = Project::new();
    let model_arg = model.to_str().unwrap();

    let (keyword, notes) = candidates(&p.reconcile(&[]));
    assert!(has(&keyword, "1", "2").is_none(), "keyword must miss the paraphrase: {keyword:?}");
    assert!(notes.iter().any(|n| n.contains("(keyword, Jaccard >= 0.15)")), "{notes:?}");
    assert!(!p.path("store").exists(), "keyword never opens the embedding cache");

    let first = p.reconcile(&["--method", "embed", "--embed-model", model_arg]);
    let (embed, notes) = candidates(&first);
    let (score, method) = has(&embed, "1", "2").unwrap_or_else(|| panic!("embed must find 1/2: {embed:?}"));
    assert!(score >= 0.55 && method == "embed", "{score} {method}");
    assert!(embed.iter().all(|x| x.2 >= 0.55 && x.3 == "embed"), "{embed:?}");
    assert!(has(&embed, "1", "5").is_none(), "1 and 5 are the same agent's");
    assert!(notes.iter().any(|n| n.contains("(embed, cosine >= 0.55)")), "{notes:?}");
    assert!(
        notes.iter().any(|n| n.contains("embed: 6 texts embedded, 0 from the cache (all-MiniLM-L6-v2@")),
        "{notes:?}"
    );
    let md = std::fs::read_dir(p.path("reports"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect::<String>();
    assert!(md.contains("embed: 6 texts embedded"), "the report file says it too:\n{md}");

    // The same pairs `memval pairs --method embed` proposes.
    let listed: Vec<(String, String, String)> = embed.iter().map(|x| (x.0.clone(), x.1.clone(), x.3.clone())).collect();
    assert_eq!(listed, pairs_cli(&p, &model, "embed"));

    // Second run: every embedding from the cache in --store, the same pairs.
    let (again, notes) = candidates(&p.reconcile(&["--method", "embed", "--embed-model", model_arg]));
    assert!(notes.iter().any(|n| n.contains("embed: 0 texts embedded, 6 from the cache")), "{notes:?}");
    assert_eq!(again, embed);

    // both: the paraphrase from embed, the reordered sentence with keyword's 1.0.
    let (both, _) = candidates(&p.reconcile(&["--method", "both", "--embed-model", model_arg]));
    assert_eq!(has(&both, "1", "2").map(|x| x.1), Some("embed".to_owned()), "{both:?}");
    assert_eq!(has(&both, "5", "6"), Some((1.0, "keyword".to_owned())), "{both:?}");
    let listed: Vec<(String, String, String)> = both.iter().map(|x| (x.0.clone(), x.1.clone(), x.3.clone())).collect();
    assert_eq!(listed, pairs_cli(&p, &model, "both"));

    assert_eq!(std::fs::read_to_string(p.path("repo/memories.jsonl")).unwrap(), MEMORIES, "memories untouched");
    assert_eq!(p.reports(), 4);
}

#[test]
fn embed_without_the_model_is_exit_2_and_writes_no_report() {
    let p = Project::new();
    let out = p.reconcile(&["--method", "embed"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--embed-model DIR") && stderr.contains("MEMVAL_EMBED_MODEL"), "{stderr}");
    let empty = p.path("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = p.reconcile(&["--method", "both", "--embed-model", empty.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("model.safetensors") && stderr.contains("is missing"), "{stderr}");
    assert_eq!(p.reports(), 0, "no report without its candidate pairs");
    assert!(out.stdout.is_empty());
}

/// The embed cache's store held by another process (here the test's own, as a concurrent
/// `memval validate` on the default store would hold it): the run stops with exit 2 and one
/// line naming the store and what to do, before any report is written.
#[test]
fn embed_with_its_store_in_use_says_which_store_and_what_to_pass() {
    let Some(model) = model() else { return };
    let p = Project::new();
    let held = memval_store::open(&p.path("store")).expect("the test holds the store");
    let out = p.reconcile(&["--method", "embed", "--embed-model", model.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let store = p.path("store").display().to_string();
    assert!(stderr.contains(&format!("the store at {store} is in use by another memval process")), "{stderr}");
    assert!(stderr.contains("pass --store DIR"), "{stderr}");
    assert_eq!(stderr.lines().filter(|l| l.starts_with("memval: error:")).count(), 1, "{stderr}");
    assert_eq!(p.reports(), 0, "no report without its candidate pairs");
    drop(held);
    let out = p.reconcile(&["--method", "embed", "--embed-model", model.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "once the store is free the same run works: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
