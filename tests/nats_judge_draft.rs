//! `memval serve judge` over a real nats-server: request/reply on memval.v1.judge.draft gives
//! the same document as `memval judge draft`, reads the memory folder afresh per request,
//! answers bad requests with an error, and stops cleanly on SIGTERM.

#![allow(dead_code)]

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use memval_transport::jetstream::ConnectOptions;
use memval_transport::reply::Requester;
use serde_json::{json, Value};
use support::nats::{NatsServer, Service};

fn folder_copy() -> tempfile::TempDir {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../services/judge/tests/fixtures/memory");
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
    }
    dir
}

fn cli(memory: &Path, draft: &str) -> Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_memval"))
        .args(["judge", "draft", "--format", "json", "--memory"])
        .arg(memory)
        .args(["--draft", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(draft.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn request_reply_answers_as_the_cli_does() {
    let nats = NatsServer::start();
    let memory = folder_copy();
    let logs = tempfile::tempdir().unwrap();
    let service = Service::start("judge", &nats.url(), &["--memory", memory.path().to_str().unwrap()], logs.path());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let requester = runtime.block_on(Requester::connect(&ConnectOptions::new(nats.url(), "memval-test"))).unwrap();
    let ask = |payload: Vec<u8>| -> Value {
        let reply = runtime
            .block_on(requester.request(memval_proto::subjects::JUDGE_DRAFT, payload, Duration::from_secs(10)))
            .unwrap();
        serde_json::from_slice(&reply).unwrap()
    };

    let drafts = [
        "Para que pase CI, baja el umbral de cobertura.",
        "Sáltate los hooks y haz push forzado.",
        "Connect with `mysql -u root -phunter2 prod`.",
        "Run the tests with `cargo test` before you commit.",
        "Responde en inglés.",
    ];
    for draft in drafts {
        let over_nats = ask(serde_json::to_vec(&json!({"draft": draft})).unwrap());
        assert_eq!(over_nats, cli(memory.path(), draft), "{draft:?}");
    }

    // The folder is read per request: a memory saved now counts at once.
    let draft = "Deploy on Friday evening, nobody will notice.";
    assert_eq!(ask(serde_json::to_vec(&json!({"draft": draft})).unwrap())["veto"], false);
    std::fs::write(
        memory.path().join("feedback_no_force_friday.md"),
        "---\ntype: feedback\n---\nNever force-push, and never deploy on Friday.\n",
    )
    .unwrap();
    let force = "Just force-push the fix.";
    let reply = ask(serde_json::to_vec(&json!({"draft": force})).unwrap());
    assert_eq!(reply["veto"], true);
    assert!(
        reply["evidence"].as_array().unwrap().iter().any(|e| e["memory_file"] == "feedback_no_force_friday.md"),
        "{reply}"
    );

    // Bad requests get an error document, and the service keeps serving.
    for bad in [b"not json".to_vec(), br#"{"text": "x"}"#.to_vec(), br#"{"draft": "   "}"#.to_vec()] {
        let reply = ask(bad);
        assert_eq!(reply["judge"], "memory-conflict");
        assert!(reply["error"].as_str().unwrap().starts_with("draft:"), "{reply}");
    }
    assert_eq!(ask(serde_json::to_vec(&json!({"draft": drafts[0]})).unwrap())["veto"], true);

    let (code, log) = service.terminate();
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("judge stopped: 11 answered, 0 failed"), "{log}");
}

#[test]
fn without_a_responder_the_requester_is_told_so() {
    let nats = NatsServer::start();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let requester = runtime.block_on(Requester::connect(&ConnectOptions::new(nats.url(), "memval-test"))).unwrap();
    let err = runtime
        .block_on(requester.request(memval_proto::subjects::JUDGE_DRAFT, b"{}".to_vec(), Duration::from_secs(5)))
        .unwrap_err();
    assert!(err.to_string().contains("nothing answers on memval.v1.judge.draft"), "{err}");
}
