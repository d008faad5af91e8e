//! `memval pairs --method embed|both` end to end with the real all-MiniLM-L6-v2: paraphrases
//! of two agents that keyword misses are found, the embedding cache in the store makes a
//! second run embed nothing and a changed memory embed alone, `both` keeps each pair's
//! better method, and a missing model is exit 2 with what to pass.
//!
//! Needs the model (`bash scripts/embed-model.sh`, MEMVAL_EMBED_MODEL=DIR). Without it the
//! model tests say they checked nothing, and fail when MEMVAL_REQUIRE_EMBED=1 (scripts/test.sh).

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

#[allow(dead_code)] // not every helper is used here
mod support;

use support::embed::model;

fn memval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memval")).args(args).output().expect("memval runs")
}

const MEMORIES: &[(u32, &str, &str)] = &[
    (1, "backend", "The API server listens on port 8080."),
    (2, "frontend", "Our HTTP backend accepts connections on 8080."),
    (3, "qa", "Use pnpm, not npm, to install the frontend dependencies."),
    (4, "ops", "Tests run with cargo nextest; never use cargo test --workspace on CI."),
    (5, "backend", "Deploys happen on Fridays only."),
    (6, "ops", "Only Fridays: deploys happen on."),
];

fn write_memories(path: &Path, memories: &[(u32, &str, &str)]) {
    let text: String = memories
        .iter()
        .map(|(id, agent, content)| {
            serde_json::json!({"id": id, "agent": agent, "content": content}).to_string() + "\n"
        })
        .collect();
    std::fs::write(path, text).unwrap();
}

fn pairs(out: &Output) -> Vec<(u64, u64, f64, String)> {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            assert_eq!(v.as_object().unwrap().len(), 8, "docs/contracts.md §5 shape: {l}");
            (
                v["id_a"].as_u64().unwrap(),
                v["id_b"].as_u64().unwrap(),
                v["score"].as_f64().unwrap(),
                v["method"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn run(memories: &Path, store: &Path, model: &Path, method: &str) -> Output {
    memval(&[
        "pairs",
        "--memories",
        memories.to_str().unwrap(),
        "--method",
        method,
        "--embed-model",
        model.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
        "--cap",
        "0",
        "--format",
        "jsonl",
    ])
}

#[test]
fn embed_finds_paraphrases_keyword_misses_and_caches_them() {
    let Some(model) = model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (mems, store) = (dir.path().join("m.jsonl"), dir.path().join("store"));
    write_memories(&mems, MEMORIES);
    let before = std::fs::read(&mems).unwrap();

    let keyword = pairs(&run(&mems, &store, &model, "keyword"));
    assert!(!keyword.iter().any(|p| (p.0, p.1) == (1, 2)), "keyword must miss the paraphrase: {keyword:?}");
    assert!(!store.exists(), "keyword never opens the embedding cache");

    let first = run(&mems, &store, &model, "embed");
    let stderr = String::from_utf8_lossy(&first.stderr).into_owned();
    let embed = pairs(&first);
    let para = embed
        .iter()
        .find(|p| (p.0, p.1) == (1, 2))
        .unwrap_or_else(|| panic!("embed must find 1/2: {embed:?} {stderr}"));
    assert!(para.2 >= 0.55 && para.3 == "embed", "{para:?}");
    assert!(embed.iter().all(|p| p.2 >= 0.55 && p.3 == "embed"), "{embed:?}");
    // 1 and 5 are the same agent's: never a pair, however close.
    assert!(!embed.iter().any(|p| (p.0, p.1) == (1, 5)));
    assert!(stderr.contains("6 texts embedded, 0 from the cache"), "{stderr}");

    // Second run: everything from the cache, the same output byte for byte.
    let second = run(&mems, &store, &model, "embed");
    let stderr2 = String::from_utf8_lossy(&second.stderr);
    assert!(stderr2.contains("0 texts embedded, 6 from the cache"), "{stderr2}");
    assert_eq!(second.stdout, first.stdout);

    // One memory changed: only it is embedded.
    let mut changed = MEMORIES.to_vec();
    changed[3].2 = "CI runs the tests with cargo nextest.";
    write_memories(&mems, &changed);
    let third = run(&mems, &store, &model, "embed");
    let stderr3 = String::from_utf8_lossy(&third.stderr);
    assert!(stderr3.contains("1 texts embedded, 5 from the cache"), "{stderr3}");
    write_memories(&mems, MEMORIES);
    assert_eq!(std::fs::read(&mems).unwrap(), before);

    // both: the paraphrase from embed; the reordered sentence (identical word sets,
    // Jaccard 1.0, above its cosine) keeps keyword's score and name.
    let both = pairs(&run(&mems, &store, &model, "both"));
    assert!(both.iter().any(|p| (p.0, p.1) == (1, 2) && p.3 == "embed"), "{both:?}");
    let reordered = both.iter().find(|p| (p.0, p.1) == (5, 6)).unwrap_or_else(|| panic!("{both:?}"));
    assert_eq!((reordered.2, reordered.3.as_str()), (1.0, "keyword"));
    let embed_score = embed.iter().find(|p| (p.0, p.1) == (5, 6)).map(|p| p.2);
    assert!(embed_score.is_some_and(|s| s < 1.0), "{embed_score:?}");
    // Sorted by score, each pair once.
    assert!(both.windows(2).all(|w| w[0].2 >= w[1].2));
    let mut ids: Vec<(u64, u64)> = both.iter().map(|p| (p.0, p.1)).collect();
    ids.dedup();
    assert_eq!(ids.len(), both.len());
}

#[test]
fn missing_model_is_exit_2_with_what_to_pass() {
    let dir = tempfile::tempdir().unwrap();
    let mems = dir.path().join("m.jsonl");
    write_memories(&mems, MEMORIES);
    let base = |method: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_memval"));
        c.args(["pairs", "--memories", mems.to_str().unwrap(), "--method", method, "--format", "jsonl", "--store"])
            .arg(dir.path().join("store"))
            .env_remove("MEMVAL_EMBED_MODEL");
        c
    };
    let out = base("embed").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--embed-model DIR")
            && stderr.contains("MEMVAL_EMBED_MODEL")
            && stderr.contains("scripts/embed-model.sh"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = base("both").arg("--embed-model").arg(&empty).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{}", empty.join("model.safetensors").display())) && stderr.contains("is missing"),
        "{stderr}"
    );

    // keyword never looks for the model, even when told a folder that does not exist.
    let out = base("keyword").arg("--embed-model").arg(dir.path().join("nowhere")).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.path().join("store").exists(), "no store opened for keyword");
}
