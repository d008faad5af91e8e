//! The pipeline as NATS services: the same run gives the same verdicts and scores in
//! process and over JetStream, whatever the number of investigators; runs started by
//! ingest events; a run at a commit no investigator has fails with the reason; auth and
//! TLS settings reach the server. Each test starts its own nats-server.

#[allow(dead_code)]
mod support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use memval_proto::{codec, ScoreBatch};
use serde_json::Value;
use support::nats::{
    comparable, eventually, history, memval_env, publish, read_subject, report, validate, Cluster, NatsServer, Service,
};
use support::{demo_repo, workspace};

fn inputs() -> Vec<std::path::PathBuf> {
    let examples = workspace().join("examples/memories");
    vec![examples.join("memories.jsonl"), examples.join("claude-code"), examples.join("memory.db")]
}

#[test]
fn the_same_run_gives_the_same_verdicts_in_process_and_with_one_or_three_investigators() {
    let demo = demo_repo();
    let local_store = tempfile::tempdir().unwrap();
    let local: Vec<Value> = inputs()
        .iter()
        .map(|input| comparable(report(&validate(&demo, input, &["--store", local_store.path().to_str().unwrap()]))))
        .collect();
    let local_history = history(local_store.path());
    let memories: usize = local.iter().map(|r| r["memories"].as_array().unwrap().len()).sum();
    assert!(memories > 20, "the example should have enough memories to spread: {memories}");
    for investigators in [1, 3] {
        let nats = NatsServer::start();
        let cluster = Cluster::start(&nats.url(), &demo, investigators, &[]);
        for (input, want) in inputs().iter().zip(&local) {
            // One memory per batch, so the investigators share the run.
            let out = validate(&demo, input, &["--nats", &nats.url(), "--batch-size", "1"]);
            if out.status.code() != Some(0) {
                panic!("{}\n{}", String::from_utf8_lossy(&out.stderr), cluster.logs());
            }
            let got = comparable(report(&out));
            assert_eq!(
                &got,
                want,
                "{} with {investigators} investigator(s) differs from the in-process run",
                input.display()
            );
        }
        let (store, processed) = cluster.stop();
        assert_eq!(
            processed.iter().sum::<u64>(),
            memories as u64,
            "one claim batch per memory, each processed once: {processed:?}"
        );
        if investigators == 3 {
            assert!(processed.iter().filter(|n| **n > 0).count() >= 2, "replicas should share the work: {processed:?}");
        }
        // The scorer service's store holds what the in-process store holds.
        assert_eq!(history(store.path()), local_history, "stores differ with {investigators} investigator(s)");
    }
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

#[test]
fn a_run_at_a_commit_no_investigator_has_fails_with_the_reason() {
    let demo = demo_repo();
    // The investigator's checkout is one commit ahead of the run's.
    let ahead = tempfile::tempdir().unwrap();
    let clone = ahead.path().join("demo");
    git(ahead.path(), &["clone", "-q", demo.to_str().unwrap(), clone.to_str().unwrap()]);
    std::fs::write(clone.join("NEW.md"), "new\n").unwrap();
    git(&clone, &["add", "-A"]);
    git(&clone, &["commit", "-q", "-m", "ahead"]);
    let nats = NatsServer::start();
    let cluster = Cluster::start(&nats.url(), &clone, 1, &[]);
    let memories = workspace().join("examples/memories/memories.jsonl");
    let out = validate(&demo, &memories, &["--nats", &nats.url()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}\n{}", cluster.logs());
    let head = git(&demo, &["rev-parse", "HEAD"]);
    assert!(stderr.contains(&format!("checks commit {head}")) && stderr.contains("check out that commit"), "{stderr}");
    assert!(stderr.contains("dead-lettered"), "{stderr}");
    assert!(out.stdout.is_empty(), "no report for an incomplete run");
    // The investigator refused without crashing.
    cluster.stop();
}

#[test]
fn an_ingest_event_validates_just_its_memories() {
    let demo = demo_repo();
    let nats = NatsServer::start();
    let cluster = Cluster::start(&nats.url(), &demo, 1, &[]);
    let ingest = Service::start("ingest", &nats.url(), &[], cluster.logs.path());
    let head = git(&demo, &["rev-parse", "HEAD"]);
    let event = serde_json::json!({
        "event_id": "agent-7-42",
        "repo": "demo",
        "commit": head,
        "source": "agent-7/memory.db",
        "memories": [
            {"id": 1, "agent": "agent-7", "content": "The entry point is `src/main.rs`.", "created_at": "2026-02-01T09:00:00Z"},
            {"id": 2, "agent": "agent-7", "content": "Old mobile auth lives in `src/legacy_auth.rs`.", "tier": 1, "type": "feedback", "created_at": 1769936400},
            {"id": 3, "agent": "agent-7", "content": "Prefer small pull requests."}
        ]
    });
    publish(&nats.url(), "memval.v1.events.memory_ingested", "evt-1", event.to_string().into_bytes());
    publish(&nats.url(), "memval.v1.events.memory_ingested", "evt-bad", b"{\"repo\": 5}".to_vec());
    let scores: Vec<ScoreBatch> = eventually(Duration::from_secs(60), "the ingest run's scores", || {
        let batches: Vec<ScoreBatch> = read_subject(&nats.url(), "MEMVAL_SCORES", "memval.v1.scores.ingest-agent-7-42")
            .iter()
            .map(|p| codec::decode(p).unwrap())
            .collect();
        (batches.iter().map(|b| b.items.len()).sum::<usize>() >= 3).then_some(batches)
    });
    let run = &scores[0].run;
    assert_eq!((run.repo.as_str(), run.commit.as_deref(), run.expected_memories), ("demo", Some(head.as_str()), 3));
    let verdict_of = |id: &str| -> Vec<String> {
        let item = scores.iter().flat_map(|b| &b.items).find(|i| i.memory.id == id).unwrap();
        assert_eq!(item.memory.source.path, "agent-7/memory.db");
        item.results
            .iter()
            .filter_map(|r| match &r.outcome {
                memval_proto::Outcome::Checked { verdict, .. } => Some(verdict.as_str().to_owned()),
                memval_proto::Outcome::NotChecked { .. } => None,
            })
            .collect()
    };
    assert_eq!(verdict_of("1"), ["VALID"]);
    assert_eq!(verdict_of("2"), ["CONTRADICTED"], "src/legacy_auth.rs was deleted in the demo history");
    assert!(verdict_of("3").is_empty(), "nothing checkable in memory 3");
    // The malformed event is dead-lettered with a reason, and ingest keeps serving.
    let listed = eventually(Duration::from_secs(30), "the bad event in the dlq", || {
        let out = memval_env(&["dlq", "list", "--nats", &nats.url(), "--stage", "ingest", "--format", "json"], &[]);
        let list: Value = serde_json::from_slice(&out.stdout).ok()?;
        (list.as_array()?.len() == 1).then_some(list)
    });
    assert!(listed[0]["reason"].as_str().unwrap().contains("not a memory_ingested event"), "{listed}");
    let (code, log) = ingest.terminate();
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("ingest stopped: 1 batches processed") && log.contains("1 dead-lettered"), "{log}");
    cluster.stop();
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl").current_dir(dir).args(args).output().expect("openssl runs");
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn auth_and_tls_settings_reach_the_server() {
    // Token: refused without it (a clear error, exit 2), accepted from the environment.
    let nats = NatsServer::start_with(&["--auth", "s3cret-token"]);
    let list = ["dlq", "list", "--nats", &nats.url()];
    let out = memval_env(&list, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot connect to nats") && stderr.to_lowercase().contains("authorization"), "{stderr}");
    let out = memval_env(&list, &[("MEMVAL_NATS_TOKEN", "s3cret-token")]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    drop(nats);

    // User and password, as flags.
    let nats = NatsServer::start_with(&["--user", "memval", "--pass", "pw-42"]);
    let url = nats.url();
    let out = memval_env(&["dlq", "list", "--nats", &url, "--nats-user", "memval", "--nats-password", "wrong"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let out = memval_env(&["dlq", "list", "--nats", &url, "--nats-user", "memval", "--nats-password", "pw-42"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    drop(nats);

    // TLS with a private CA; a service works through it.
    let certs = tempfile::tempdir().unwrap();
    let dir = certs.path();
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=memval test ca",
        ],
    );
    openssl(
        dir,
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=127.0.0.1",
        ],
    );
    std::fs::write(dir.join("san.ext"), "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n").unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "2",
            "-extfile",
            "san.ext",
        ],
    );
    let (cert, key, ca) = (dir.join("server.pem"), dir.join("server.key"), dir.join("ca.pem"));
    let nats =
        NatsServer::start_with(&["--tls", "--tlscert", cert.to_str().unwrap(), "--tlskey", key.to_str().unwrap()]);
    let url = format!("tls://127.0.0.1:{}", nats.port);
    let out = memval_env(&["dlq", "list", "--nats", &url], &[]);
    assert_eq!(out.status.code(), Some(2), "an unknown CA must be refused");
    let tls_env = [("MEMVAL_NATS_TLS_CA", ca.to_str().unwrap()), ("MEMVAL_NATS_TLS_REQUIRED", "true")];
    let logs = tempfile::tempdir().unwrap();
    let service = Service::start_env("extractor", &url, &[], &tls_env, logs.path());
    let (code, log) = service.terminate();
    assert_eq!(code, Some(0), "{log}");
}
