//! The service roles driven as library calls, in this process, against a real nats-server:
//! each role runs until its injected shutdown future resolves (as a signal would end it), a
//! run submitted through the library client is scored exactly as the in-process pipeline
//! scores it, and every role reports what it did when it stops.

#[allow(dead_code)]
mod support;

use std::sync::Arc;
use std::time::Duration;

use memval_pipeline::local::{self, LocalRun};
use memval_pipeline::service::{self, Role};
use memval_pipeline::topology::{self, NatsOptions};
use memval_proto::{MemoryScore, Outcome, RunHeader};
use memval_transport::jetstream::{Auth, Tls};
use support::demo_repo;
use support::nats::NatsServer;
use tokio::sync::oneshot;

fn options() -> NatsOptions {
    NatsOptions { auth: Auth::None, tls: Tls::default(), ack_wait: Duration::from_secs(30), max_ack_pending: 256 }
}

fn header(run_id: &str, repo: &std::path::Path, n: usize) -> RunHeader {
    RunHeader {
        run_id: run_id.into(),
        repo: repo.display().to_string(),
        commit: None,
        started_at: 1_764_590_400,
        expected_memories: n as u32,
    }
}

/// Verdicts per memory, in a form two runs can be compared by.
fn verdicts(mut scores: Vec<MemoryScore>) -> Vec<(String, Option<u8>, Vec<String>)> {
    scores.sort_by(|a, b| a.memory.id.cmp(&b.memory.id));
    scores
        .into_iter()
        .map(|s| {
            let outcomes = s
                .results
                .iter()
                .map(|r| match &r.outcome {
                    Outcome::Checked { verdict, confidence, successor, .. } => {
                        format!("{} {verdict:?} {confidence} {successor:?}", r.claim.claim_text)
                    }
                    Outcome::NotChecked { reason } => format!("{} not checked: {reason}", r.claim.claim_text),
                })
                .collect();
            (s.memory.id, s.score, outcomes)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roles_run_in_process_until_their_shutdown_and_score_as_the_local_pipeline_does() {
    let demo = demo_repo();
    let examples = support::workspace().join("examples/memories/memories.jsonl");
    let memories = memval_sources::load(&examples, &demo).unwrap().memories;
    assert!(memories.len() > 5, "the example should have memories: {}", memories.len());

    let local_store = tempfile::tempdir().unwrap();
    let store: Arc<dyn memval_scorer::ScoreStore> =
        Arc::new(memval_store::open(&local_store.path().join("store")).unwrap());
    let setup = LocalRun { repo: demo.clone(), store, batch_size: 2, progress: false, models: None, kept: None };
    let want = local::run(header("local", &demo, memories.len()), memories.clone(), setup).await.unwrap();
    assert!(want.dead_letters.is_empty());

    let nats = NatsServer::start();
    let url = nats.url();
    let js = topology::connect(&url, "test-roles", &options()).await.unwrap();
    let cluster_store = tempfile::tempdir().unwrap();
    let roles = vec![
        Role::Extractor { models: None },
        Role::Investigator { router: memval_investigator::RepoRouter::new([], Some(demo.clone())) },
        Role::Scorer { store: Arc::new(memval_store::open(&cluster_store.path().join("store")).unwrap()) },
        Role::Ingest { batch_size: 50 },
    ];
    let mut stops = Vec::new();
    let mut running = Vec::new();
    for role in roles {
        let (stop, stopped) = oneshot::channel::<()>();
        let (js, url) = (js.clone(), url.clone());
        let name = role.name();
        running.push((
            name,
            tokio::spawn(async move {
                service::serve(role, &js, &url, 2, async move {
                    let _ = stopped.await;
                })
                .await
            }),
        ));
        stops.push(stop);
    }

    let got = memval_pipeline::client::run(
        &url,
        &options(),
        header("cluster", &demo, memories.len()),
        memories.clone(),
        2,
        false,
    )
    .await
    .unwrap();
    assert_eq!(verdicts(got.scores), verdicts(want.scores), "the roles score the run as the in-process pipeline does");

    for stop in stops {
        stop.send(()).unwrap();
    }
    for (name, role) in running {
        let stats = tokio::time::timeout(Duration::from_secs(30), role)
            .await
            .unwrap_or_else(|_| panic!("{name} did not stop after its shutdown resolved"))
            .unwrap()
            .unwrap_or_else(|e| panic!("{name} failed: {e}"));
        let processed = stats.processed.load(std::sync::atomic::Ordering::Relaxed);
        let batches = memories.len().div_ceil(2) as u64;
        match name {
            // No ingest event was published: the ingest role had nothing to do.
            "ingest" => assert_eq!(processed, 0),
            _ => assert_eq!(processed, batches, "{name} processes every batch of the run once"),
        }
    }
}
