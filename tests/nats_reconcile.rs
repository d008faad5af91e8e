//! Reconciliation in a cluster: `memval serve reconciler` and two `memval serve judge`
//! replicas on a real nats-server, with a scripted OpenAI-compatible model, over a GAAI project
//! with real git history.
//!
//! - A scheduled reconciliation (a cron every second) sends its candidate pairs as batches to
//!   the judges; one judge replica is SIGKILLed while it holds a batch, and the report still
//!   has every pair judged and is byte-identical (modulo its file name) to `memval reconcile`
//!   in one process with the same model.
//! - A request on `memval.v1.reconcile.<repo>` is answered with the report path and counts.
//! - Memory-ingest events trigger a reconciliation after N events (an event published twice
//!   counts once), and after T seconds of quiet.
//! - Two reconcilers serving one repo on one schedule write one report per firing: the one
//!   that claims the firing first writes, the other says who has it and writes nothing.
//! - A period whose winner died after claiming it (a claim with no heartbeat, or a winner
//!   SIGKILLed mid-reconciliation) is taken over after the lease ttl and gets its one report;
//!   a finished period is left to its holder; a live holder, beating, is never taken over.
//! - Memory files, decision records and docs are byte-identical after everything.
//! - A pair batch that reaches a judge after its reconciler stopped waiting is acked without a
//!   model call and without a judgement; one still waited for is judged. A reconciler that
//!   stops waiting deletes its unanswered batches from the queue.

// The shared support module has helpers this test does not use.
#![allow(dead_code)]

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use memval_llm::testing::ScriptedServer;
use memval_proto::{codec, subjects, unix_millis, Pair, PairBatch, RunHeader, UnixMillis};
use serde_json::{json, Value};
use support::nats::{eventually, publish, read_subject, stored_with_headers, NatsServer, Service};
use support::reconcile::{
    asked_pairs, judge_answer, lease_messages, line_with, model_args, project, reconcile_in_process, reports_in,
};

/// Every file's bytes except `.git`.
fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if rel == ".git" {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn try_request(url: &str, subject: &str, timeout: Duration) -> Result<Value, String> {
    use memval_transport::jetstream::ConnectOptions;
    use memval_transport::reply::Requester;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let requester = Requester::connect(&ConnectOptions::new(url, "memval-test")).await.unwrap();
        let answer = requester.request(subject, Vec::new(), timeout).await.map_err(|e| e.to_string())?;
        Ok(serde_json::from_slice(&answer).unwrap())
    })
}

fn request(url: &str, subject: &str, timeout: Duration) -> Value {
    try_request(url, subject, timeout).unwrap()
}

fn ingest_event(n: usize, repo: &str) -> Vec<u8> {
    json!({"event_id": format!("ev-{n}"), "repo": repo, "memories": [{"id": n, "agent": "ops", "content": "The checkout service retries writes twice."}]})
        .to_string()
        .into_bytes()
}

#[test]
fn a_scheduled_reconciliation_over_two_judges_matches_the_in_process_report_and_survives_a_killed_judge() {
    let r = project();
    let root = r.dir.path().canonicalize().unwrap();
    let before = snapshot(&root);
    let work = tempfile::tempdir().unwrap();
    let (local_out, cluster_out, logs) =
        (work.path().join("local"), work.path().join("cluster"), work.path().join("logs"));
    std::fs::create_dir_all(&logs).unwrap();

    // In one process, with the scripted model.
    let local_model = ScriptedServer::start(judge_answer);
    let local_report = reconcile_in_process(&root, &local_out, &local_model);
    let want = std::fs::read(&local_report).unwrap();
    // The name of the day's first report; the cluster's reports go to another folder.
    let first_name = local_report.file_name().unwrap().to_string_lossy().into_owned();
    let day = first_name.strip_suffix(".reconciliation-report.md").unwrap().to_owned();
    let want_text = String::from_utf8_lossy(&want).into_owned();
    let batches = local_model.requests().len();
    assert_eq!(batches, 5, "50 candidate pairs, five model calls of ten");
    assert!(!want_text.contains("not judged"), "{want_text}");
    assert!(want_text.contains("- batch p4: extra judgement for (1, 2)"), "{want_text}");

    // The cluster. The first model call is held for 4 s: the only judge running then holds
    // that batch when it is killed, so the batch must come back by redelivery.
    let nats = NatsServer::start();
    let url = nats.url();
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let model = ScriptedServer::start(move |request| {
        if seen.fetch_add(1, Ordering::SeqCst) == 0 {
            std::thread::sleep(Duration::from_secs(4));
        }
        judge_answer(request)
    });
    let mut judge_args: Vec<String> = ["--concurrency", "1", "--nats-ack-wait", "2"].map(str::to_owned).to_vec();
    judge_args.extend(model_args(&model));
    let judge_args: Vec<&str> = judge_args.iter().map(String::as_str).collect();
    let first_judge = Service::start("judge", &url, &judge_args, &logs);
    let repo_map = format!("shop={}", root.display());
    let reconciler = Service::start(
        "reconciler",
        &url,
        &[
            "--repo-map",
            &repo_map,
            "--schedule",
            "* * * * * *",
            "--memories",
            "contexts",
            "--memories",
            "agents.jsonl",
            "--out-dir",
            cluster_out.to_str().unwrap(),
            "--pair-judges",
            "--judge-timeout",
            "120",
        ],
        &logs,
    );
    eventually(Duration::from_secs(60), "the first judge's first model call", || {
        (calls.load(Ordering::SeqCst) >= 1).then_some(())
    });
    first_judge.kill();
    let second_judge = Service::start("judge", &url, &judge_args, &logs);
    let third_judge = Service::start("judge", &url, &judge_args, &logs);
    // The report file is complete once the reconciler logs it; the day's first report has
    // the day's first name.
    eventually(Duration::from_secs(120), "the scheduled report", || {
        reconciler.log_text().contains("shop (schedule): report").then_some(())
    });
    let first_report = cluster_out.join(&first_name);
    let asked = model.requests();
    let got = std::fs::read(&first_report).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&got),
        want_text,
        "the cluster's report differs from the in-process one\n{}",
        reconciler.log_text()
    );
    // The killed judge's batch was asked again by another replica.
    let held = asked_pairs(&asked[0]);
    assert_eq!(held.len(), 10);
    assert!(asked.iter().skip(1).any(|r| asked_pairs(r) == held), "the batch the killed judge held was judged again");

    // The schedule keeps firing: later reports get -02, -03, ... and never overwrite.
    let second = cluster_out.join(format!("{day}-02.reconciliation-report.md"));
    eventually(Duration::from_secs(60), "a second scheduled report", || second.is_file().then_some(()));
    assert_eq!(std::fs::read(&first_report).unwrap(), got, "the first report is never rewritten");

    let (code, log) = reconciler.terminate();
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("reconciler stopped: "), "{log}");
    // Each judge says what its model cost when it stops, like the other model stages; the
    // surviving judges made every call but the killed one's first.
    let mut judged_calls = 0;
    for judge in [second_judge, third_judge] {
        let (code, log) = judge.terminate();
        assert_eq!(code, Some(0), "{log}");
        let calls = log
            .split("judge model openai/scripted: calls ")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or_else(|| panic!("the judge printed no model usage when it stopped: {log}"));
        judged_calls += calls;
    }
    assert!(judged_calls >= 1 && judged_calls < model.requests().len(), "{judged_calls} calls counted");
    assert_eq!(snapshot(&root), before, "memory files, decision records and docs are untouched");
}

#[test]
fn a_request_is_answered_and_ingest_events_are_debounced() {
    let r = project();
    let root = r.dir.path().canonicalize().unwrap();
    let before = snapshot(&root);
    let work = tempfile::tempdir().unwrap();
    let (out_dir, logs) = (work.path().join("reports"), work.path().join("logs"));
    std::fs::create_dir_all(&logs).unwrap();
    let nats = NatsServer::start();
    let url = nats.url();
    let repo_map = format!("shop={}", root.display());
    // A schedule that does not fire during the test (once a year), no pair judges.
    let reconciler = Service::start(
        "reconciler",
        &url,
        &[
            "--repo-map",
            &repo_map,
            "--schedule",
            "0 0 0 1 1 *",
            "--memories",
            "contexts",
            "--memories",
            "agents.jsonl",
            "--out-dir",
            out_dir.to_str().unwrap(),
            "--debounce-events",
            "3",
            "--debounce-quiet",
            "2",
        ],
        &logs,
    );

    // On request: the reply names the report and its counts.
    let answer = request(&url, "memval.v1.reconcile.shop", Duration::from_secs(60));
    assert_eq!(answer["repo"], "shop", "{answer}");
    assert_eq!(answer["trigger"], "request");
    let path = PathBuf::from(answer["report"].as_str().unwrap());
    let md = std::fs::read_to_string(&path).unwrap();
    assert!(md.contains(&format!("findings_count: {}", answer["findings_count"])), "{answer}\n{md}");
    assert!(answer["candidate_pairs"].as_u64().unwrap() > 0 && answer["judged"] == 0, "{answer}");
    assert!(md.contains("not judged: no model configured"), "without pair judges the candidates say so: {md}");
    // A repo nobody serves: no responders, at once (not a wait for a timeout).
    let other = try_request(&url, "memval.v1.reconcile.web", Duration::from_secs(10)).unwrap_err();
    assert!(other.contains("nothing answers on memval.v1.reconcile.web"), "{other}");

    // Three events of the repo (by path: the last component names it): one reconciliation at
    // once. The first two are published twice (a client's retry: same event id, same message
    // id): four deliveries of two events, so it is the third event that triggers, not the
    // third delivery.
    for n in [1, 1, 2, 2, 3] {
        publish(&url, "memval.v1.events.memory_ingested", &format!("ev-{n}"), ingest_event(n, "/srv/checkouts/shop"));
    }
    // An event of another repo does not count.
    publish(&url, "memval.v1.events.memory_ingested", "ev-web", ingest_event(9, "web"));
    eventually(Duration::from_secs(30), "the reconciliation after three events", || {
        reconciler.log_text().contains("shop (3 ingest event(s)): report").then_some(())
    });
    // One event, then two seconds of quiet.
    publish(&url, "memval.v1.events.memory_ingested", "ev-4", ingest_event(4, "shop"));
    eventually(Duration::from_secs(30), "the reconciliation after quiet", || {
        reconciler.log_text().contains("shop (1 ingest event(s)): report").then_some(())
    });
    let reports = reports_in(&out_dir);
    assert_eq!(reports.len(), 3, "request, three events, quiet: {reports:?}");
    let (code, log) = reconciler.terminate();
    assert_eq!(code, Some(0), "{log}");
    assert!(!log.contains("shop (2 ingest event(s))"), "a repeated delivery never counts: {log}");
    assert!(
        log.contains("reconciler stopped: 3 reports, 0 failed, 1 requests, 7 ingest events (2 repeated), 1 ignored"),
        "{log}"
    );
    assert_eq!(snapshot(&root), before, "memory files, decision records and docs are untouched");
}

#[test]
fn a_bad_schedule_stops_the_reconciler_at_start_up() {
    let r = project();
    let out = support::memval(&[
        "serve",
        "reconciler",
        "--nats",
        "nats://127.0.0.1:1",
        "--repo-map",
        &format!("shop={}", r.path()),
        "--schedule",
        "every day",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad --schedule \"every day\""), "{stderr}");
}

#[test]
fn pairs_nobody_judges_are_listed_not_judged_with_the_reason() {
    let r = project();
    let root = r.dir.path().canonicalize().unwrap();
    let work = tempfile::tempdir().unwrap();
    let (out_dir, logs) = (work.path().join("reports"), work.path().join("logs"));
    std::fs::create_dir_all(&logs).unwrap();
    let nats = NatsServer::start();
    let url = nats.url();
    let repo_map = format!("shop={}", root.display());
    // Pair judges asked for, none running: every candidate waits 2 s, then says why.
    let reconciler = Service::start(
        "reconciler",
        &url,
        &[
            "--repo-map",
            &repo_map,
            "--schedule",
            "0 0 0 1 1 *",
            "--memories",
            "contexts",
            "--memories",
            "agents.jsonl",
            "--out-dir",
            out_dir.to_str().unwrap(),
            "--pair-judges",
            "--judge-timeout",
            "2",
        ],
        &logs,
    );
    let answer = request(&url, "memval.v1.reconcile.shop", Duration::from_secs(60));
    assert_eq!(
        (answer["candidate_pairs"].as_u64(), answer["judged"].as_u64(), answer["not_judged"].as_u64()),
        (Some(50), Some(0), Some(50)),
        "{answer}"
    );
    let md = std::fs::read_to_string(answer["report"].as_str().unwrap()).unwrap();
    let reason = "not judged: no judgement within 2s (is a `memval serve judge` with a model running on this NATS?)";
    assert_eq!(md.matches(reason).count(), 50, "every pair says why: {md}");
    assert!(md.contains("judged by the pair judges (no batch was answered)"), "{md}");
    // The batches given up on were deleted: a judge started later gets none of them.
    assert_eq!(stored_with_headers(&url, "MEMVAL_PAIRS", "memval.v1.pairs").len(), 0, "batches left in the queue");
    let (code, log) = reconciler.terminate();
    assert_eq!(code, Some(0), "{log}");
}

/// The periods a reconciler's log says it wrote a report for, and those it left to another.
fn periods(log: &str) -> (Vec<String>, Vec<String>) {
    let period_after = |line: &str, marker: &str| {
        line.split(marker).nth(1).map(|rest| rest.split([')', ' ']).next().unwrap_or("").to_owned())
    };
    let mut written = Vec::new();
    let mut left = Vec::new();
    for line in log.lines() {
        if line.contains("(schedule): report ") {
            written.push(period_after(line, "; period ").expect(line));
        } else if line.contains("(schedule): no report here; period ") {
            left.push(period_after(line, "no report here; period ").expect(line));
        }
    }
    (written, left)
}

#[test]
fn two_reconcilers_on_one_repo_write_one_report_per_firing() {
    let r = project();
    let root = r.dir.path().canonicalize().unwrap();
    let work = tempfile::tempdir().unwrap();
    let (out_dir, logs) = (work.path().join("reports"), work.path().join("logs"));
    std::fs::create_dir_all(&logs).unwrap();
    let nats = NatsServer::start();
    let url = nats.url();
    let repo_map = format!("shop={}", root.display());
    // Both replicas on the same repo, schedule and report folder: every two seconds. The
    // replica that loses a firing learns that it was written when it next reads the lease,
    // a lease ttl later: 3 s here, not the default minute.
    let args = [
        "--repo-map",
        &repo_map,
        "--schedule",
        "*/2 * * * * *",
        "--memories",
        "contexts",
        "--memories",
        "agents.jsonl",
        "--out-dir",
        out_dir.to_str().unwrap(),
        "--lease-ttl",
        "3",
    ];
    let first = Service::start("reconciler", &url, &args, &logs);
    let second = Service::start("reconciler", &url, &args, &logs);
    // Until each replica has left at least one firing to the other (both raced for them).
    eventually(Duration::from_secs(90), "each replica leaving a firing to the other", || {
        (!periods(&first.log_text()).1.is_empty() && !periods(&second.log_text()).1.is_empty()).then_some(())
    });
    let (code, first_log) = first.terminate();
    assert_eq!(code, Some(0), "{first_log}");
    let (code, second_log) = second.terminate();
    assert_eq!(code, Some(0), "{second_log}");

    let (first_written, first_left) = periods(&first_log);
    let (second_written, second_left) = periods(&second_log);
    let mut written: Vec<&String> = first_written.iter().chain(&second_written).collect();
    written.sort();
    let before = written.len();
    written.dedup();
    assert_eq!(written.len(), before, "a firing reported twice:\n{first_log}\n{second_log}");
    // What one left, the other wrote (the writer finishes before it stops).
    for p in &first_left {
        assert!(second_written.contains(p), "{p} left by the first, not written by the second:\n{second_log}");
    }
    for p in &second_left {
        assert!(first_written.contains(p), "{p} left by the second, not written by the first:\n{first_log}");
    }
    // One file per written firing, none more.
    assert_eq!(reports_in(&out_dir).len(), written.len(), "{:?}", reports_in(&out_dir));
    // The stop line counts what each left to the other.
    for (log, left) in [(&first_log, &first_left), (&second_log, &second_left)] {
        assert!(log.contains(&format!(", {} left to another reconciler", left.len())), "{log}");
    }
}

/// One batch of two pairs of the run `run`, as a reconciler publishes it, with the deadline
/// `expires_at`.
fn pair_batch(run: &str, expires_at: Option<UnixMillis>) -> PairBatch {
    let pair = |a: u64, b: u64| Pair {
        id_a: a.to_string(),
        agent_a: "pm".into(),
        content_a: format!("Note {a}: the checkout service retries writes twice."),
        id_b: b.to_string(),
        agent_b: "ops".into(),
        content_b: format!("Note {b}: the checkout service retries writes three times."),
        score: 0.8,
        method: "keyword".into(),
    };
    let header =
        RunHeader { run_id: run.into(), repo: "shop".into(), commit: None, started_at: 0, expected_memories: 0 };
    PairBatch { run: header, batch_id: format!("{run}.p0"), pairs: vec![pair(101, 102), pair(103, 104)], expires_at }
}

#[test]
fn a_pair_batch_its_reconciler_stopped_waiting_for_is_acked_without_a_model_call() {
    let work = tempfile::tempdir().unwrap();
    let logs = work.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let nats = NatsServer::start();
    let url = nats.url();
    let model = ScriptedServer::start(judge_answer);
    let mut judge_args: Vec<String> = ["--concurrency", "1"].map(str::to_owned).to_vec();
    judge_args.extend(model_args(&model));
    let judge_args: Vec<&str> = judge_args.iter().map(String::as_str).collect();
    let judge = Service::start("judge", &url, &judge_args, &logs);
    let judgements_of =
        |run: &str| read_subject(&url, "MEMVAL_JUDGEMENTS", &subjects::for_run(subjects::JUDGEMENTS, run));
    let queued = || stored_with_headers(&url, "MEMVAL_PAIRS", subjects::PAIRS).len();
    let now = unix_millis(std::time::SystemTime::now());

    // Its reconciler gave up a minute ago: acked (gone from the work queue), nothing asked.
    let late = pair_batch("reconcile-shop-late", Some(now - 60_000));
    publish(&url, subjects::PAIRS, &late.batch_id, codec::encode(&late).unwrap());
    eventually(Duration::from_secs(30), "the expired batch acked", || (queued() == 0).then_some(()));
    assert!(model.requests().is_empty(), "no model call for an expired batch");
    assert!(judgements_of(&late.run.run_id).is_empty(), "no judgement for an expired batch");
    // The judge says so (before acking) on one line: which batch of which run, how late.
    let log = judge.log_text();
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("pair batch expired")).collect();
    assert_eq!(lines.len(), 1, "{log}");
    let line = lines[0];
    assert!(
        line.contains("batch_id=reconcile-shop-late.p0") && line.contains("run=reconcile-shop-late"),
        "names its batch and run: {line}"
    );
    let ago: f64 = line
        .split("pair batch expired ")
        .nth(1)
        .and_then(|r| r.split('s').next())
        .and_then(|n| n.parse().ok())
        .expect(line);
    assert!((60.0..600.0).contains(&ago), "says by how long: {line}");

    // Still waited for (ten minutes left), and one without a deadline (an older reconciler):
    // both judged, in order after the expired one.
    for batch in [pair_batch("reconcile-shop-waiting", Some(now + 600_000)), pair_batch("reconcile-shop-older", None)] {
        publish(&url, subjects::PAIRS, &batch.batch_id, codec::encode(&batch).unwrap());
        let got = eventually(Duration::from_secs(60), "the judgement of a batch still waited for", || {
            judgements_of(&batch.run.run_id).pop()
        });
        let got: memval_proto::JudgementBatch = codec::decode(&got).unwrap();
        assert_eq!(got.batch_id, format!("{}.j", batch.batch_id));
        assert_eq!(
            got.judgements.iter().map(|j| (j.id_a.as_str(), j.id_b.as_str())).collect::<Vec<_>>(),
            [("101", "102"), ("103", "104")]
        );
    }
    assert_eq!(model.requests().len(), 2, "one model call per batch judged, none for the expired one");
    assert!(judgements_of(&late.run.run_id).is_empty());
    let (code, log) = judge.terminate();
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("3 batches processed, 2 published"), "{log}");
}

/// The lease subject of the period an ingest event with id `ev-{n}` of repo `shop` makes due,
/// and the period.
fn ingest_lease(n: usize) -> (String, String) {
    let period = format!("ingest-ingest-ev-{n}");
    (format!("memval.v1.leases.reconcile.shop.{period}"), period)
}

/// Store a lease message as a reconciler does: its owner text as the payload and its state
/// in the `Memval-Lease` header.
fn store_lease(url: &str, subject: &str, owner: &str, state: &str) {
    use memval_transport::jetstream::{ConnectOptions, JetStream, Settings};
    use memval_transport::{Headers, Outbox, Outgoing};
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let js = JetStream::connect(&ConnectOptions::new(url, "memval-test"), Settings::default()).await.unwrap();
        let mut headers = Headers::new();
        headers.insert("Memval-Lease", state);
        let message = Outgoing {
            subject: subject.to_owned(),
            msg_id: format!("test:{subject}:{state}"),
            headers,
            payload: owner.as_bytes().to_vec(),
        };
        js.outbox().send(message).await.unwrap();
    });
}

/// `serve reconciler` arguments for the lease tests: ingest events only (the schedule does
/// not fire), a reconciliation per event, a lease ttl of 2 s, and `extra`.
fn lease_args<'a>(repo_map: &'a str, out_dir: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "--repo-map",
        repo_map,
        "--schedule",
        "0 0 0 1 1 *",
        "--memories",
        "contexts",
        "--memories",
        "agents.jsonl",
        "--out-dir",
        out_dir.to_str().unwrap(),
        "--debounce-events",
        "1",
        "--lease-ttl",
        "2",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_period_whose_winner_died_after_claiming_is_taken_over_and_a_finished_one_is_left_alone() {
    let r = project();
    let root = r.dir.path().canonicalize().unwrap();
    let work = tempfile::tempdir().unwrap();
    let (out_dir, logs) = (work.path().join("reports"), work.path().join("logs"));
    std::fs::create_dir_all(&logs).unwrap();
    let nats = NatsServer::start();
    let url = nats.url();
    let repo_map = format!("shop={}", root.display());
    let reconciler = Service::start("reconciler", &url, &lease_args(&repo_map, &out_dir, &[]), &logs);

    // A period another reconciler has finished: nothing written here, its holder named.
    let (finished, finished_period) = ingest_lease(21);
    store_lease(&url, &finished, "reconcile-shop-earlier (pid 4242)", "done");
    publish(&url, subjects::MEMORY_INGESTED, "ev-21", ingest_event(21, "shop"));
    let left = format!("shop (1 ingest event(s)): no report here; period {finished_period} is reconciled by reconcile-shop-earlier (pid 4242)");
    eventually(Duration::from_secs(30), "the finished period left to its holder", || {
        reconciler.log_text().contains(&left).then_some(())
    });

    // What a winner that died right after claiming leaves: its running claim, no heartbeat.
    let (crashed, crashed_period) = ingest_lease(22);
    store_lease(&url, &crashed, "reconcile-shop-crashed (pid 4243)", "running");
    publish(&url, subjects::MEMORY_INGESTED, "ev-22", ingest_event(22, "shop"));
    let took = eventually(Duration::from_secs(30), "the takeover", || {
        line_with(&reconciler.log_text(), &format!("took over period {crashed_period}"))
    });
    assert!(took.starts_with("memval: reconciler: shop (1 ingest event(s)): took over period"), "{took}");
    let silent: u64 =
        took.split("silent for ").nth(1).and_then(|r| r.strip_suffix('s')).and_then(|n| n.parse().ok()).expect(&took);
    assert!(
        took.contains("from reconcile-shop-crashed (pid 4243), silent for") && silent >= 2,
        "a whole ttl of silence: {took}"
    );
    let report = format!("; period {crashed_period})");
    eventually(Duration::from_secs(60), "the report of the period taken over", || {
        line_with(&reconciler.log_text(), &report)
    });
    assert_eq!(
        reports_in(&out_dir).len(),
        1,
        "one report, for the crashed winner's period: {:?}",
        reports_in(&out_dir)
    );

    // The lease now names the replica that took over, and says it is done.
    let messages = lease_messages(&url, &crashed);
    let (state, owner) = messages.last().unwrap();
    assert_eq!(state, "done", "{messages:?}");
    assert!(
        owner.contains(&format!(
            "(took over period {crashed_period} from reconcile-shop-crashed (pid 4243), silent for"
        )),
        "{messages:?}"
    );
    assert_eq!(lease_messages(&url, &finished).len(), 1, "a finished lease is not touched");

    let (code, log) = reconciler.terminate();
    assert_eq!(code, Some(0), "{log}");
    assert!(
        log.contains("reconciler stopped: 1 reports, 0 failed, 0 requests, 2 ingest events (0 repeated), 0 ignored, 1 left to another reconciler, 1 taken over from a silent one"),
        "{log}"
    );
}

#[test]
fn a_live_holder_is_not_taken_over_while_it_renews_its_lease() {
    let r = project();
    let root = r.dir.path().canonicalize().unwrap();
    let work = tempfile::tempdir().unwrap();
    let (out_dir, logs) = (work.path().join("reports"), work.path().join("logs"));
    std::fs::create_dir_all(&logs).unwrap();
    let nats = NatsServer::start();
    let url = nats.url();
    let repo_map = format!("shop={}", root.display());
    // Pair judges asked for, none running: the winner's reconciliation waits 6 s for
    // judgements, three lease ttls, beating all along.
    let args = lease_args(&repo_map, &out_dir, &["--pair-judges", "--judge-timeout", "6"]);
    let first = Service::start("reconciler", &url, &args, &logs);
    let second = Service::start("reconciler", &url, &args, &logs);
    let (lease, period) = ingest_lease(31);
    publish(&url, subjects::MEMORY_INGESTED, "ev-31", ingest_event(31, "shop"));
    let report = format!("; period {period})");
    let left = format!("no report here; period {period} is reconciled by ");
    // The watcher says who reconciled the period once it reads the finished lease (or, if
    // the bug is back, takes it over: checked below).
    eventually(Duration::from_secs(60), "the report and the watcher naming its writer", || {
        let (a, b) = (first.log_text(), second.log_text());
        let settled = (a.contains(&report) && b.contains(&left)) || (b.contains(&report) && a.contains(&left));
        (settled || a.contains("took over") || b.contains("took over")).then_some(())
    });
    let (first_pid, second_pid) = (first.pid(), second.pid());
    let (code, first_log) = first.terminate();
    assert_eq!(code, Some(0), "{first_log}");
    let (code, second_log) = second.terminate();
    assert_eq!(code, Some(0), "{second_log}");

    let both = format!("{first_log}\n{second_log}");
    assert!(!both.contains("took over"), "a live holder was taken over:\n{both}");
    assert_eq!(reports_in(&out_dir).len(), 1, "{:?}\n{both}", reports_in(&out_dir));
    let (winner_log, winner_pid, watcher_log) = if first_log.contains(&report) {
        (&first_log, first_pid, &second_log)
    } else {
        (&second_log, second_pid, &first_log)
    };
    let named = line_with(watcher_log, &left).unwrap();
    assert!(named.ends_with(&format!("(pid {winner_pid})")), "the watcher names the winner: {named}");
    assert!(
        winner_log.contains("stopped: 1 reports") && winner_log.contains("0 left to another reconciler, 0 taken over"),
        "{winner_log}"
    );
    assert!(
        watcher_log.contains("stopped: 0 reports")
            && watcher_log.contains("1 left to another reconciler, 0 taken over"),
        "{watcher_log}"
    );
    // The claim, the heartbeats of a 6 s reconciliation (one every 0.5 s), the end: done.
    let messages = lease_messages(&url, &lease);
    assert!(messages.len() >= 5, "the holder renewed its lease while it reconciled: {messages:?}");
    assert!(messages[..messages.len() - 1].iter().all(|(state, _)| state == "running"), "{messages:?}");
    assert_eq!(messages.last().unwrap().0, "done", "{messages:?}");
    assert!(
        messages.iter().all(|(_, owner)| owner.ends_with(&format!("(pid {winner_pid})"))),
        "one holder all along: {messages:?}"
    );
}

#[test]
fn a_winner_killed_mid_reconciliation_is_taken_over_by_the_other_replica() {
    let r = project();
    let root = r.dir.path().canonicalize().unwrap();
    let work = tempfile::tempdir().unwrap();
    let (out_dir, logs) = (work.path().join("reports"), work.path().join("logs"));
    std::fs::create_dir_all(&logs).unwrap();
    let nats = NatsServer::start();
    let url = nats.url();
    let repo_map = format!("shop={}", root.display());
    // The same slow reconciliation: 6 s waiting for judgements nobody gives.
    let args = lease_args(&repo_map, &out_dir, &["--pair-judges", "--judge-timeout", "6"]);
    let first = Service::start("reconciler", &url, &args, &logs);
    let second = Service::start("reconciler", &url, &args, &logs);
    let (lease, period) = ingest_lease(41);
    publish(&url, subjects::MEMORY_INGESTED, "ev-41", ingest_event(41, "shop"));
    // The winner is reconciling once its claim has a heartbeat after it.
    let messages = eventually(Duration::from_secs(30), "the winner's first heartbeat", || {
        let m = lease_messages(&url, &lease);
        (m.len() >= 2).then_some(m)
    });
    let winner_owner = messages[0].1.clone();
    let (winner, survivor) =
        if winner_owner.ends_with(&format!("(pid {})", first.pid())) { (first, second) } else { (second, first) };
    assert!(winner_owner.ends_with(&format!("(pid {})", winner.pid())), "{winner_owner}");
    winner.kill();

    let took = eventually(Duration::from_secs(30), "the takeover", || {
        line_with(&survivor.log_text(), &format!("took over period {period}"))
    });
    assert!(took.contains(&format!("from {winner_owner}, silent for")), "{took}");
    let report = format!("; period {period})");
    eventually(Duration::from_secs(60), "the survivor's report", || line_with(&survivor.log_text(), &report));
    assert_eq!(
        reports_in(&out_dir).len(),
        1,
        "the killed winner wrote nothing, the survivor once: {:?}",
        reports_in(&out_dir)
    );
    let messages = lease_messages(&url, &lease);
    let (state, owner) = messages.last().unwrap();
    assert_eq!(state, "done", "{messages:?}");
    assert!(owner.contains(&format!("(took over period {period} from {winner_owner}")), "{messages:?}");
    let (code, log) = survivor.terminate();
    assert_eq!(code, Some(0), "{log}");
    assert!(
        log.contains("stopped: 1 reports")
            && log.contains("0 left to another reconciler, 1 taken over from a silent one"),
        "{log}"
    );
}
