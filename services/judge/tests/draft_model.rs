//! The draft judge with a model, against a scripted model server: what a contract-abiding
//! answer adds (a `user_*` contradiction the rules cannot see), and that every broken answer
//! becomes "not judged" with its reason, never a guess and never a veto on its own.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use memval_judge::draft::memory::MemoryFolder;
use memval_judge::draft::{read_folder, DraftJudge, Judgement};
use memval_llm::testing::{answers, Recorded, Reply, ScriptedServer};
use memval_llm::{ChatModel, LlmClient, LlmConfig, Provider};
use regex::Regex;
use serde_json::{json, Value};

fn fixture() -> MemoryFolder {
    read_folder(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/memory")).unwrap()
}

fn model(server: &ScriptedServer) -> Arc<dyn ChatModel> {
    let mut cfg = LlmConfig::new(Provider::Openai, &format!("{}/v1", server.url()), "scripted");
    cfg.max_retries = 0;
    cfg.backoff_base = Duration::from_millis(5);
    Arc::new(LlmClient::new(cfg).unwrap())
}

/// The memory files a request asks about.
fn asked(req: &Recorded) -> Vec<String> {
    let re = Regex::new(r#"\\?"memory_file\\?":\\?"([^"\\]+)"#).unwrap();
    let mut names: Vec<String> = re.captures_iter(&req.text()).map(|c| c[1].to_owned()).collect();
    names.retain(|n| n != "feedback_example.md");
    names.dedup();
    names
}

/// A server answering null for every file asked about, except `entries` (by memory_file).
fn server(entries: Vec<Value>) -> ScriptedServer {
    ScriptedServer::start(move |req| {
        let mut list: Vec<Value> = asked(req)
            .into_iter()
            .filter(|n| !entries.iter().any(|e| e["memory_file"] == json!(n)))
            .map(|n| json!({"memory_file": n, "score": null, "confidence": 0.9, "memory_excerpt": "", "draft_match": "", "reason": "unrelated"}))
            .collect();
        list.extend(entries.iter().cloned());
        Reply::json(answers::openai_text(&json!({"judgements": list}).to_string()))
    })
}

async fn judge_with(server: &ScriptedServer, draft: &str) -> Judgement {
    DraftJudge::new(Some(model(server))).judge(&fixture(), draft).await
}

const DRAFT_EN: &str =
    "Sure! A commit is a snapshot of your files. Let me explain from the very beginning, in English.";

#[tokio::test]
async fn a_verbatim_user_memory_contradiction_vetoes() {
    let s = server(vec![json!({
        "memory_file": "user_role.md",
        "score": 20,
        "confidence": 0.7,
        "memory_excerpt": "wants answers in Spanish, without beginner explanations",
        "draft_match": "Let me explain from the very beginning, in English.",
        "reason": "explains basics in English to a senior SRE who wants Spanish"
    })]);
    let j = judge_with(&s, DRAFT_EN).await;
    assert!(j.veto, "{j:?}");
    assert_eq!(j.score, Some(20));
    assert_eq!(j.confidence, 0.7);
    assert_eq!(j.evidence.len(), 1);
    assert_eq!(j.evidence[0].memory_file, "user_role.md");
    assert!(j.reason.starts_with("veto: model: user_role.md:"), "{}", j.reason);
    assert!(j.not_judged.is_empty(), "every candidate was judged: {:?}", j.not_judged);
    // The memory and the draft reach the model only as fenced data.
    let body = s.requests()[0].text();
    assert!(body.contains("<<<DRAFT ") && body.contains("<<<NOTES "), "{body}");
    assert!(asked(&s.requests()[0]).contains(&"user_role.md".to_owned()));
}

#[tokio::test]
async fn a_feedback_conflict_vetoes_only_at_confidence_0_8() {
    let entry = |confidence: f64| {
        json!({"memory_file": "project_release_train.md", "score": 30, "confidence": confidence,
               "memory_excerpt": "Releases are cut on Thursdays", "draft_match": "cut the release on Monday", "reason": "wrong day"})
    };
    let draft = "Let's cut the release on Monday, right after the deploy.";
    let j = judge_with(&server(vec![entry(0.6)]), draft).await;
    assert!(!j.veto && j.score == Some(30), "{j:?}");
    let j = judge_with(&server(vec![entry(0.85)]), draft).await;
    assert!(j.veto && j.score == Some(30), "{j:?}");
}

#[tokio::test]
async fn quotes_that_are_not_verbatim_are_not_kept() {
    let cases = [
        ("memory_excerpt", json!("wants answers in spanish"), "is not a verbatim passage of user_role.md"),
        ("draft_match", json!("Let me explain it from the beginning"), "is not a verbatim passage of the draft"),
        ("memory_excerpt", json!(""), "is not a verbatim passage of user_role.md"),
    ];
    for (field, value, why) in cases {
        let mut entry = json!({"memory_file": "user_role.md", "score": 10, "confidence": 0.95,
            "memory_excerpt": "wants answers in Spanish", "draft_match": "in English", "reason": "x"});
        entry[field] = value;
        let j = judge_with(&server(vec![entry]), DRAFT_EN).await;
        assert!(!j.veto && j.score.is_none() && j.evidence.is_empty(), "{field}: {j:?}");
        let nj = j.not_judged.iter().find(|n| n.memory_file == "user_role.md").expect("user_role.md not judged");
        assert!(nj.reason.contains(why), "{field}: {}", nj.reason);
    }
}

#[tokio::test]
async fn broken_fields_are_not_judged_with_the_reason() {
    let base = json!({"memory_file": "user_role.md", "score": 10, "confidence": 0.9,
        "memory_excerpt": "wants answers in Spanish", "draft_match": "in English", "reason": "x"});
    for (field, value, why) in [
        ("score", json!("10"), "is not a whole number or null"),
        ("score", json!(10.5), "is not a whole number from 0 to 100"),
        ("score", json!(101), "is not a whole number from 0 to 100"),
        ("confidence", json!(1.5), "is not between 0.0 and 1.0"),
        ("confidence", json!("high"), "is not a number"),
    ] {
        let mut entry = base.clone();
        entry[field] = value;
        let j = judge_with(&server(vec![entry]), DRAFT_EN).await;
        assert!(!j.veto && j.evidence.is_empty(), "{field}: {j:?}");
        let nj = j.not_judged.iter().find(|n| n.memory_file == "user_role.md").unwrap();
        assert!(nj.reason.contains(why), "{field}: {}", nj.reason);
    }
}

#[tokio::test]
async fn missing_duplicated_and_unknown_entries() {
    let s = ScriptedServer::start(|req| {
        let mut list: Vec<Value> = asked(req)
            .into_iter()
            .filter(|n| n != "user_role.md")
            .map(|n| json!({"memory_file": n, "score": null, "confidence": 0.9}))
            .collect();
        list.push(json!({"memory_file": "feedback_never_skip_hooks.md", "score": null, "confidence": 0.5}));
        list.push(json!({"memory_file": "../../etc/passwd", "score": 0, "confidence": 1.0, "memory_excerpt": "root", "draft_match": "A"}));
        Reply::json(answers::openai_text(&json!({"judgements": list}).to_string()))
    });
    let j = judge_with(&s, DRAFT_EN).await;
    assert!(!j.veto && j.evidence.is_empty(), "{j:?}");
    let reason = |name: &str| j.not_judged.iter().find(|n| n.memory_file == name).map(|n| n.reason.clone());
    assert_eq!(reason("user_role.md").as_deref(), Some("the model's answer has no entry for it"));
    assert!(
        asked(&s.requests()[0]).contains(&"feedback_never_skip_hooks.md".to_owned()),
        "a commit is the hooks memory's domain"
    );
    assert_eq!(reason("feedback_never_skip_hooks.md").as_deref(), Some("the model's answer has 2 entries for it"));
    assert!(j.detail.iter().any(|d| d.contains("../../etc/passwd") && d.contains("dropped")), "{:?}", j.detail);
}

#[tokio::test]
async fn malformed_output_is_a_fallback_and_the_rules_still_veto() {
    let s = ScriptedServer::start(|_| Reply::json(answers::openai_text("Looks fine to me, no conflict!")));
    let j = judge_with(&s, "Commit with `git commit --no-verify` and re-run CI until it passes.").await;
    assert!(j.veto, "the rules decide without the model: {j:?}");
    assert!(j.evidence.iter().all(|e| e.memory_file.starts_with("feedback_")), "{:?}", j.evidence);
    assert!(!j.not_judged.is_empty());
    assert!(j.not_judged.iter().all(|n| n.reason.starts_with("malformed model output")), "{:?}", j.not_judged);

    let s = ScriptedServer::start(|_| Reply::json(answers::openai_text("{\"verdict\": \"fine\"}")));
    let j = judge_with(&s, DRAFT_EN).await;
    assert!(!j.veto && j.score.is_none());
    assert!(j.not_judged.iter().all(|n| n.reason.contains("no \"judgements\" list")), "{:?}", j.not_judged);
}

#[tokio::test]
async fn a_model_that_does_not_answer_leaves_candidates_not_judged() {
    let s = ScriptedServer::start(|_| Reply::raw(500, "{\"error\":\"down\"}"));
    let j = judge_with(&s, DRAFT_EN).await;
    assert!(!j.veto && j.score.is_none());
    assert!(!j.not_judged.is_empty());
    assert!(j.not_judged.iter().all(|n| n.reason.starts_with("the model gave no answer")), "{:?}", j.not_judged);
}
