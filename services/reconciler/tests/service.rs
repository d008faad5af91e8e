//! The reconciler as a service's work (`Reconciler`), with a fake `PairJudges` in place of the
//! cluster: what it asks the judges, how their answers and silences end up in the report,
//! the dated names of successive reports, and what it refuses at start-up.

use std::path::Path;
use std::sync::Mutex;

use futures::future::BoxFuture;
use memval_proto::{Judgement, JudgementBatch, PairBatch, PairVerdict, RunHeader};
use memval_reconciler::candidates::{Cap, EmbedSetup, Method};
use memval_reconciler::{PairJudges, Reconciler, RepoTarget, Trigger};

/// Answers the first batch it is given and nothing else, and records what it was asked.
#[derive(Default)]
struct FirstBatchOnly {
    asked: Mutex<Vec<PairBatch>>,
}

impl PairJudges for FirstBatchOnly {
    fn judge<'a>(
        &'a self,
        _run: &'a RunHeader,
        batches: Vec<PairBatch>,
    ) -> BoxFuture<'a, Vec<Result<JudgementBatch, String>>> {
        Box::pin(async move {
            self.asked.lock().unwrap().extend(batches.iter().cloned());
            batches
                .into_iter()
                .enumerate()
                .map(|(i, b)| {
                    if i > 0 {
                        return Err("not judged: the test judge only answers the first batch".to_owned());
                    }
                    let judgements = b
                        .pairs
                        .iter()
                        .map(|p| Judgement {
                            id_a: p.id_a.clone(),
                            id_b: p.id_b.clone(),
                            verdict: PairVerdict::Consistent,
                            claim_a: String::new(),
                            claim_b: String::new(),
                            confidence: 77,
                            rationale: "fine".into(),
                            fallback: None,
                        })
                        .collect();
                    Ok(JudgementBatch {
                        run: b.run,
                        batch_id: format!("{}.j", b.batch_id),
                        judgements,
                        notes: Vec::new(),
                        model: "fake/judge".into(),
                    })
                })
                .collect()
        })
    }
}

/// Fifteen memories of three agents that share most of their words: more candidate pairs
/// than the cap of 50.
fn memories(dir: &Path) -> std::path::PathBuf {
    let mut text = String::new();
    for (a, agent) in ["pm", "qa", "ops"].iter().enumerate() {
        for t in 0..5 {
            text.push_str(&format!(
                "{{\"id\": {}, \"agent\": \"{agent}\", \"content\": \"checkout service cache orders database retries nightly deploys item{t}\"}}\n",
                100 + a * 10 + t
            ));
        }
    }
    let path = dir.join("notes.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

fn target(dir: &Path, name: &str) -> RepoTarget {
    RepoTarget {
        name: name.into(),
        repo: dir.to_path_buf(),
        memories: vec![memories(dir)],
        out_dir: Some(dir.join("reports")),
    }
}

#[tokio::test]
async fn answers_and_silences_of_the_judges_end_up_on_every_pair() {
    let dir = tempfile::tempdir().unwrap();
    let judges = std::sync::Arc::new(FirstBatchOnly::default());
    let reconciler =
        Reconciler::new(vec![target(dir.path(), "shop")], Some(judges.clone()), Cap::Default, 200, Method::Keyword)
            .unwrap();
    let shop = reconciler.find("shop").unwrap().clone();
    let notes = std::fs::read(dir.path().join("notes.jsonl")).unwrap();

    let first = reconciler.reconcile(&shop, Trigger::Request, "rec-1").await.unwrap();
    assert_eq!((first.candidates, first.judged, first.not_judged), (50, 10, 40));
    let asked = judges.asked.lock().unwrap().clone();
    assert_eq!(
        asked.iter().map(|b| b.batch_id.as_str()).collect::<Vec<_>>(),
        ["rec-1.p0", "rec-1.p1", "rec-1.p2", "rec-1.p3", "rec-1.p4"]
    );
    assert!(asked.iter().all(|b| b.pairs.len() == 10 && b.run.run_id == "rec-1" && b.run.repo == "shop"));
    let md = std::fs::read_to_string(&first.report).unwrap();
    assert!(md.contains("Candidate pairs (50), judged by fake/judge:"), "{md}");
    assert_eq!(md.matches("| consistent | 77 |").count(), 10, "{md}");
    assert_eq!(md.matches("not judged: the test judge only answers the first batch").count(), 40, "{md}");
    let reply: serde_json::Value = serde_json::from_str(&first.to_json()).unwrap();
    assert_eq!(
        (reply["trigger"].as_str(), reply["judged"].as_u64(), reply["report"].as_str()),
        (Some("request"), Some(10), first.report.to_str())
    );

    // A second run the same day: a new name, the first report untouched.
    let before = std::fs::read(&first.report).unwrap();
    let second = reconciler.reconcile(&shop, Trigger::Schedule, "rec-2").await.unwrap();
    let day = first.report.file_name().unwrap().to_string_lossy().replace(".reconciliation-report.md", "");
    assert_eq!(second.report.file_name().unwrap().to_string_lossy(), format!("{day}-02.reconciliation-report.md"));
    assert_eq!(std::fs::read(&first.report).unwrap(), before);
    assert_eq!(std::fs::read(dir.path().join("notes.jsonl")).unwrap(), notes, "memories are never written");
}

#[tokio::test]
async fn without_judges_candidates_say_no_model_is_configured() {
    let dir = tempfile::tempdir().unwrap();
    let reconciler =
        Reconciler::new(vec![target(dir.path(), "shop")], None, Cap::Given(5), 200, Method::Keyword).unwrap();
    let out = reconciler.reconcile(&reconciler.repos()[0], Trigger::Ingest(3), "rec-1").await.unwrap();
    assert_eq!((out.candidates, out.judged), (5, 0));
    assert_eq!(out.trigger.to_string(), "3 ingest event(s)");
    let md = std::fs::read_to_string(&out.report).unwrap();
    assert_eq!(md.matches("not judged: no model configured").count(), 6, "the heading and five pairs: {md}");
}

#[test]
fn repos_are_checked_at_start_up_and_found_by_name_or_path() {
    let dir = tempfile::tempdir().unwrap();
    let ok = target(dir.path(), "shop");
    let err = |repos: Vec<RepoTarget>| {
        Reconciler::new(repos, None, Cap::Default, 200, Method::Keyword).err().expect("refused").to_string()
    };
    assert!(err(Vec::new()).contains("no repo to reconcile"));
    let mut gone = ok.clone();
    gone.repo = dir.path().join("nope");
    assert!(err(vec![gone]).contains("is not a directory"));
    let mut no_memories = ok.clone();
    no_memories.memories = vec![dir.path().join("missing.jsonl")];
    assert!(err(vec![no_memories]).contains("do not exist"));
    let (mut a, mut b) = (ok.clone(), ok.clone());
    a.name = "web.app".into();
    b.name = "web_app".into();
    assert!(err(vec![a, b]).contains("memval.v1.reconcile.web_app"), "two names, one request subject");
    // The embed method's model is looked for at start-up, not at the first reconciliation.
    let no_model = Method::Embed(EmbedSetup { model_dir: Some(dir.path().join("no-model")), store_dir: None });
    let refused = Reconciler::new(vec![ok.clone()], None, Cap::Default, 200, no_model)
        .err()
        .expect("refused without a model")
        .to_string();
    assert!(refused.contains("no-model"), "{refused}");

    let reconciler = Reconciler::new(vec![ok], None, Cap::Default, 200, Method::Keyword).unwrap();
    assert_eq!(reconciler.find("shop").map(|r| r.name.as_str()), Some("shop"));
    assert_eq!(reconciler.find("/srv/checkouts/shop/").map(|r| r.name.as_str()), Some("shop"));
    assert!(reconciler.find("web").is_none());
}

#[tokio::test]
async fn the_service_proposes_pairs_by_its_method_and_caches_in_the_repos_store() {
    let Some(model) = memval_embed::testing::model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let memories = dir.path().join("paraphrases.jsonl");
    // Keyword misses this paraphrase (few shared words); embed finds it.
    std::fs::write(
        &memories,
        "{\"id\": 1, \"agent\": \"backend\", \"content\": \"The API server listens on port 8080.\"}\n\
         {\"id\": 2, \"agent\": \"frontend\", \"content\": \"Our HTTP backend accepts connections on 8080.\"}\n",
    )
    .unwrap();
    let shop = RepoTarget {
        name: "shop".into(),
        repo: dir.path().to_path_buf(),
        memories: vec![memories],
        out_dir: Some(dir.path().join("reports")),
    };
    let report = |out: &memval_reconciler::stage::Outcome| std::fs::read_to_string(&out.report).unwrap();

    let keyword = Reconciler::new(vec![shop.clone()], None, Cap::Default, 200, Method::Keyword).unwrap();
    let out = keyword.reconcile(&keyword.repos()[0], Trigger::Ingest(1), "rec-k").await.unwrap();
    assert_eq!(out.candidates, 0, "{}", report(&out));

    // No store given: the embeddings are cached in the repo's default store.
    let embed = Method::Embed(EmbedSetup { model_dir: Some(model), store_dir: None });
    let service = Reconciler::new(vec![shop], None, Cap::Default, 200, embed).unwrap();
    let out = service.reconcile(&service.repos()[0], Trigger::Ingest(1), "rec-e1").await.unwrap();
    let md = report(&out);
    assert_eq!(out.candidates, 1, "{md}");
    assert!(md.contains("(embed, cosine >= 0.55)") && md.contains("embed: 2 texts embedded, 0 from the cache"), "{md}");
    assert!(memval_store::default_dir(dir.path()).exists(), "the cache is in REPO/.memval/store");
    let again = service.reconcile(&service.repos()[0], Trigger::Ingest(1), "rec-e2").await.unwrap();
    assert!(report(&again).contains("embed: 0 texts embedded, 2 from the cache"), "{}", report(&again));
}
