//! Poison messages over JetStream: a malformed message and a message of an unknown wire
//! version go to the dead-letter stream with their reasons, the stage keeps serving, and
//! `memval dlq list|replay` shows and re-injects them.

#[allow(dead_code)]
mod support;

use std::time::Duration;

use memval_proto::{codec, ClaimBatch, ClaimType, CodeRef, ExtractedMemory, Memory, RunHeader, ScoreBatch, Source};
use serde_json::Value;
use support::nats::{
    comparable, eventually, history, memval_env, publish, read_subject, report, validate, Cluster, NatsServer,
};
use support::{demo_repo, workspace};

fn dlq_list(url: &str) -> Vec<Value> {
    let out = memval_env(&["dlq", "list", "--nats", url, "--format", "json"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<Value>(&out.stdout).unwrap().as_array().unwrap().clone()
}

/// A valid claim batch of one memory claiming a file the demo repo has.
fn claim_batch(repo: &std::path::Path) -> ClaimBatch {
    let memory = Memory {
        id: "future-1".into(),
        agent: "agent".into(),
        content: "`src/main.rs` is the entry point".into(),
        tier: 0,
        kind: "memory".into(),
        created_at: None,
        updated_at: None,
        source: Source { path: "poison.jsonl".into(), line: Some(1), row: None, format: "jsonl".into() },
        context_dir: None,
        first_line: 1,
    };
    ClaimBatch {
        run: RunHeader {
            run_id: "poison-run".into(),
            repo: repo.display().to_string(),
            commit: None,
            started_at: 0,
            expected_memories: 1,
        },
        batch_id: "poison-run.m0.c".into(),
        items: vec![ExtractedMemory {
            memory: memory.meta(),
            claims: vec![memval_proto::Claim {
                claim_type: ClaimType::FileReference,
                claim_text: "`src/main.rs` is the entry point".into(),
                line: 1,
                lines: Vec::new(),
                code_refs: vec![CodeRef::path("src/main.rs")],
                assertion: None,
            }],
            skip_reason: None,
            left_out: Vec::new(),
        }],
    }
}

#[test]
fn poison_is_dead_lettered_the_stage_keeps_serving_and_replay_reinjects_it() {
    let demo = demo_repo();
    let nats = NatsServer::start();
    let url = nats.url();
    let cluster = Cluster::start(&url, &demo, 1, &[]);
    assert!(dlq_list(&url).is_empty());

    publish(&url, "memval.v1.claims", "garbage-1", vec![0xff, 0xfe, 0x00, 0x42]);
    publish(&url, "memval.v9.claims", "future-1", codec::encode(&claim_batch(&demo)).unwrap());
    let letters = eventually(Duration::from_secs(30), "two dead letters", || {
        let list = dlq_list(&url);
        (list.len() == 2).then_some(list)
    });
    let find = |subject: &str| {
        letters.iter().find(|l| l["subject"] == subject).unwrap_or_else(|| panic!("{letters:?}")).clone()
    };
    let garbage = find("memval.v1.claims");
    let future = find("memval.v9.claims");
    assert_eq!((garbage["stage"].as_str(), garbage["msg_id"].as_str()), (Some("investigator"), Some("garbage-1")));
    assert!(garbage["reason"].as_str().unwrap().contains("undecodable memval.v1.claims message"), "{garbage}");
    assert!(future["reason"].as_str().unwrap().contains("unknown wire version \"v9\""), "{future}");
    assert_eq!(
        future["bytes"].as_u64(),
        Some(codec::encode(&claim_batch(&demo)).unwrap().len() as u64),
        "the original payload is kept"
    );

    // The investigator is still serving: a whole run goes through.
    let memories = workspace().join("examples/memories/memories.jsonl");
    let local_store = tempfile::tempdir().unwrap();
    let want = comparable(report(&validate(&demo, &memories, &["--store", local_store.path().to_str().unwrap()])));
    let got = comparable(report(&validate(&demo, &memories, &["--nats", &url])));
    assert_eq!(got, want);

    // Replay the v9 batch as v1 (as if the sender had been fixed): it is processed and scored.
    let seq = future["sequence"].as_u64().unwrap().to_string();
    let out = memval_env(&["dlq", "replay", "--nats", &url, &seq, "--subject", "memval.v1.claims"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("replayed {seq} to memval.v1.claims")));
    // Replaying the garbage as it is fails again: it comes back as a new dead letter.
    let seq = garbage["sequence"].as_u64().unwrap();
    let out = memval_env(&["dlq", "replay", "--nats", &url, &seq.to_string()], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let again = eventually(Duration::from_secs(30), "the replayed garbage back in the dlq", || {
        let list = dlq_list(&url);
        (list.len() == 1 && list[0]["sequence"].as_u64() != Some(seq)).then_some(list)
    });
    assert_eq!(again[0]["msg_id"].as_str(), Some(format!("garbage-1:replay{seq}").as_str()), "{again:?}");
    let out = memval_env(&["dlq", "replay", "--nats", &url, "999999"], &[]);
    assert_eq!(out.status.code(), Some(2), "an unknown sequence is an error");

    // The replayed batch was scored, and its memory is in the scorer's store.
    let scores = eventually(Duration::from_secs(30), "the replayed batch's score", || {
        let found = read_subject(&url, "MEMVAL_SCORES", "memval.v1.scores.poison-run");
        (!found.is_empty()).then_some(found)
    });
    let batch: ScoreBatch = codec::decode(&scores[0]).unwrap();
    assert_eq!(batch.items[0].memory.id, "future-1");
    let (store, _) = cluster.stop();
    let history = history(store.path());
    let replayed = history
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["memory_id"] == "future-1")
        .unwrap_or_else(|| panic!("{history:#}"));
    assert_eq!(replayed["runs"][0]["verdicts"][0]["verdict"], "VALID", "{replayed}");
}
