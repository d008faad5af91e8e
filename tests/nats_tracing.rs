//! Tracing across the cluster: with `OTEL_EXPORTER_OTLP_ENDPOINT` set, every service and the
//! `validate --nats` client export spans over OTLP/HTTP, and a run is one trace: its trace
//! context travels in the NATS message headers from the client (or the publisher of an
//! ingest event) through extractor, investigator and scorer. A small OTLP/HTTP receiver on
//! loopback collects what they send (protobuf from the services, JSON from the client).

#[allow(dead_code)]
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::common::v1::KeyValue;
use prost::Message;
use support::demo_repo;
use support::nats::{eventually, read_subject, report, NatsServer, Service};

/// One span as the receiver got it.
#[derive(Debug, Clone)]
struct SpanRecord {
    service: String,
    name: String,
    trace_id: String,
    span_id: String,
    parent_span_id: String,
    attributes: BTreeMap<String, String>,
    /// `application/x-protobuf` or `application/json`.
    encoding: String,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn text(value: &Option<opentelemetry_proto::tonic::common::v1::AnyValue>) -> String {
    match value.as_ref().and_then(|v| v.value.as_ref()) {
        Some(AnyValue::StringValue(s)) => s.clone(),
        Some(AnyValue::IntValue(i)) => i.to_string(),
        Some(AnyValue::BoolValue(b)) => b.to_string(),
        Some(AnyValue::DoubleValue(d)) => d.to_string(),
        other => format!("{other:?}"),
    }
}

fn attributes(list: &[KeyValue]) -> BTreeMap<String, String> {
    list.iter().map(|kv| (kv.key.clone(), text(&kv.value))).collect()
}

/// An OTLP/HTTP trace receiver on loopback: `POST /v1/traces`, protobuf or JSON, HTTP/1.1
/// with keep-alive. Every span it decodes is kept; a request it cannot decode is kept as
/// an error, which the test reports.
struct Receiver {
    port: u16,
    spans: Arc<Mutex<Vec<SpanRecord>>>,
    errors: Arc<Mutex<Vec<String>>>,
}

impl Receiver {
    fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let spans = Arc::new(Mutex::new(Vec::new()));
        let errors = Arc::new(Mutex::new(Vec::new()));
        let (s, e) = (spans.clone(), errors.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (s, e) = (s.clone(), e.clone());
                std::thread::spawn(move || serve_connection(stream, &s, &e));
            }
        });
        Receiver { port, spans, errors }
    }

    fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn spans(&self) -> Vec<SpanRecord> {
        let errors = self.errors.lock().unwrap();
        assert!(errors.is_empty(), "the receiver could not decode requests: {errors:?}");
        self.spans.lock().unwrap().clone()
    }
}

fn serve_connection(stream: TcpStream, spans: &Mutex<Vec<SpanRecord>>, errors: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut length = None;
        let mut content_type = String::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                match name.trim().to_ascii_lowercase().as_str() {
                    "content-length" => length = value.trim().parse::<usize>().ok(),
                    "content-type" => content_type = value.trim().to_ascii_lowercase(),
                    _ => {}
                }
            }
        }
        let Some(length) = length else {
            errors.lock().unwrap().push(format!("{} without a content-length", request_line.trim()));
            return;
        };
        let mut body = vec![0u8; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let decoded = if !request_line.starts_with("POST /v1/traces ") {
            Err(format!("unexpected request {}", request_line.trim()))
        } else if content_type.starts_with("application/x-protobuf") {
            ExportTraceServiceRequest::decode(&body[..]).map_err(|e| format!("bad protobuf: {e}"))
        } else if content_type.starts_with("application/json") {
            serde_json::from_slice::<ExportTraceServiceRequest>(&body).map_err(|e| format!("bad json: {e}"))
        } else {
            Err(format!("unexpected content type {content_type:?}"))
        };
        match decoded {
            Ok(request) => {
                let mut out = spans.lock().unwrap();
                for resource_spans in request.resource_spans {
                    let resource = resource_spans.resource.map(|r| attributes(&r.attributes)).unwrap_or_default();
                    let service = resource.get("service.name").cloned().unwrap_or_default();
                    for scope in resource_spans.scope_spans {
                        for span in scope.spans {
                            out.push(SpanRecord {
                                service: service.clone(),
                                name: span.name.clone(),
                                trace_id: hex(&span.trace_id),
                                span_id: hex(&span.span_id),
                                parent_span_id: hex(&span.parent_span_id),
                                attributes: attributes(&span.attributes),
                                encoding: content_type.clone(),
                            });
                        }
                    }
                }
            }
            Err(e) => errors.lock().unwrap().push(e),
        }
        // An empty ExportTraceServiceResponse is zero bytes in protobuf and `{}` in JSON.
        let (kind, answer) = if content_type.starts_with("application/json") {
            ("application/json", "{}")
        } else {
            ("application/x-protobuf", "")
        };
        let response =
            format!("HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\r\n{answer}", answer.len());
        if writer.write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}

/// Publish raw bytes with headers on a JetStream subject, as an agent's ingest step would.
fn publish_with_headers(url: &str, subject: &str, msg_id: &str, headers: &[(&str, &str)], payload: Vec<u8>) {
    use memval_transport::jetstream::{ConnectOptions, JetStream, Settings};
    use memval_transport::{Headers, Outbox, Outgoing};
    let mut map = Headers::new();
    for (name, value) in headers {
        map.insert(name, value);
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let js = JetStream::connect(&ConnectOptions::new(url, "memval-test"), Settings::default()).await.unwrap();
        js.outbox()
            .send(Outgoing { subject: subject.to_owned(), msg_id: msg_id.to_owned(), headers: map, payload })
            .await
            .unwrap();
    });
}

fn git_head(dir: &std::path::Path) -> String {
    let out = Command::new("git").arg("-C").arg(dir).args(["rev-parse", "HEAD"]).output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The spans of run `run_id` (every batch span carries its run), checked to form one trace
/// whose spans all hang together: each span's parent is the root or another span of the run.
fn one_trace(spans: &[SpanRecord], run_id: &str, root: &SpanRecord) -> Vec<SpanRecord> {
    let of_run: Vec<SpanRecord> =
        spans.iter().filter(|s| s.attributes.get("run").map(String::as_str) == Some(run_id)).cloned().collect();
    let traces: BTreeSet<&str> = of_run.iter().map(|s| s.trace_id.as_str()).collect();
    assert_eq!(traces, BTreeSet::from([root.trace_id.as_str()]), "run {run_id} should be one trace: {of_run:#?}");
    let ids: BTreeSet<&str> = of_run.iter().map(|s| s.span_id.as_str()).collect();
    for span in &of_run {
        if span.span_id != root.span_id {
            assert!(
                ids.contains(span.parent_span_id.as_str()),
                "{} has a parent outside the run: {span:#?}",
                span.name
            );
        }
    }
    let services: BTreeSet<&str> = of_run.iter().map(|s| s.service.as_str()).collect();
    for service in ["memval-extractor", "memval-investigator", "memval-scorer"] {
        assert!(services.contains(service), "no span of run {run_id} from {service}: {services:?}");
    }
    // Each stage's batches continue the previous stage's: the chain is in the parents.
    let by_id: BTreeMap<&str, &SpanRecord> = of_run.iter().map(|s| (s.span_id.as_str(), s)).collect();
    for (stage, upstream) in [("investigator batch", "extractor batch"), ("scorer batch", "investigator batch")] {
        for span in of_run.iter().filter(|s| s.name == stage) {
            assert_eq!(by_id[span.parent_span_id.as_str()].name, upstream, "{span:#?}");
        }
    }
    of_run
}

#[test]
fn a_run_is_one_trace_across_the_client_and_every_service() {
    let receiver = Receiver::start();
    let endpoint = receiver.endpoint();
    let demo = demo_repo();
    let nats = NatsServer::start();
    let url = nats.url();
    let logs = tempfile::tempdir().unwrap();
    let store = tempfile::tempdir().unwrap();
    let env = [("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str())];
    let services = vec![
        Service::start_env("extractor", &url, &[], &env, logs.path()),
        Service::start_env("investigator", &url, &["--repo", demo.to_str().unwrap()], &env, logs.path()),
        Service::start_env("scorer", &url, &["--store", store.path().to_str().unwrap()], &env, logs.path()),
        Service::start_env("ingest", &url, &[], &env, logs.path()),
    ];

    // A run from the client, whose exporter speaks OTLP/JSON (the services protobuf).
    let memories = support::workspace().join("examples/memories/memories.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_memval"))
        .args(["validate", "--repo", demo.to_str().unwrap(), "--memories", memories.to_str().unwrap()])
        .args(["--format", "json", "--fail-on", "never", "-q", "--batch-size", "2", "--nats", &url])
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
        .output()
        .unwrap();
    let validated = report(&out);
    let run_id = validated["run"]["id"].as_str().unwrap().to_owned();
    assert!(validated["run"]["claims"].as_u64().unwrap() > 5, "{validated}");

    // A run started by an ingest event whose publisher is in a trace of its own.
    let (agent_trace, agent_span) = ("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331");
    let event = serde_json::json!({
        "event_id": "traced-1",
        "repo": "demo",
        "commit": git_head(&demo),
        "memories": [
            {"id": 1, "agent": "a", "content": "The entry point is `src/main.rs`."},
            {"id": 2, "agent": "a", "content": "Old mobile auth lives in `src/legacy_auth.rs`."}
        ]
    });
    let traceparent = format!("00-{agent_trace}-{agent_span}-01");
    publish_with_headers(
        &url,
        "memval.v1.events.memory_ingested",
        "traced-1",
        &[("traceparent", &traceparent)],
        event.to_string().into_bytes(),
    );
    eventually(Duration::from_secs(60), "the ingest run's scores", || {
        let scored: usize = read_subject(&url, "MEMVAL_SCORES", "memval.v1.scores.ingest-traced-1")
            .iter()
            .map(|p| memval_proto::codec::decode::<memval_proto::ScoreBatch>(p).unwrap().items.len())
            .sum();
        (scored >= 2).then_some(())
    });

    // A clean stop flushes each service's exporter.
    for service in services {
        let role = service.role.clone();
        let (code, log) = service.terminate();
        assert_eq!(code, Some(0), "memval serve {role}:\n{log}");
    }
    let spans = receiver.spans();

    // The client's run: its root span, exported as JSON, and one trace through every stage.
    let root = spans
        .iter()
        .find(|s| s.name == "memval validate" && s.attributes.get("run") == Some(&run_id))
        .unwrap_or_else(|| panic!("no root span for run {run_id}: {spans:#?}"));
    assert_eq!(root.service, "memval-validate");
    assert!(root.parent_span_id.is_empty(), "the run starts the trace: {root:#?}");
    assert!(root.encoding.starts_with("application/json"), "{root:#?}");
    let run = one_trace(&spans, &run_id, root);
    assert!(run.iter().any(|s| s.service == "memval-scorer" && s.encoding.starts_with("application/x-protobuf")));
    let batches = run.iter().filter(|s| s.name.ends_with(" batch")).count();
    assert!(batches >= 3 * 5, "every batch of every stage is a span ({batches}): {run:#?}");

    // The ingest run continues the publisher's trace.
    let ingest = spans
        .iter()
        .find(|s| s.name == "memval ingest" && s.attributes.get("run").map(String::as_str) == Some("ingest-traced-1"))
        .unwrap_or_else(|| panic!("no ingest span: {spans:#?}"));
    assert_eq!(
        (ingest.service.as_str(), ingest.trace_id.as_str(), ingest.parent_span_id.as_str()),
        ("memval-ingest", agent_trace, agent_span)
    );
    one_trace(&spans, "ingest-traced-1", ingest);
}

#[test]
fn without_an_endpoint_nothing_is_exported_and_headers_pass_through() {
    // No OTEL variables: services run as before and a traceparent sent with a run travels
    // unchanged to its scores, so a traced publisher keeps its context across an untraced
    // cluster.
    let demo = demo_repo();
    let nats = NatsServer::start();
    let url = nats.url();
    let logs = tempfile::tempdir().unwrap();
    let store = tempfile::tempdir().unwrap();
    let _services = [
        Service::start("extractor", &url, &[], logs.path()),
        Service::start("investigator", &url, &["--repo", demo.to_str().unwrap()], logs.path()),
        Service::start("scorer", &url, &["--store", store.path().to_str().unwrap()], logs.path()),
        Service::start("ingest", &url, &[], logs.path()),
    ];
    let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let event = serde_json::json!({"event_id": "plain-1", "repo": "demo", "commit": git_head(&demo),
        "memories": [{"id": 1, "agent": "a", "content": "The entry point is `src/main.rs`."}]});
    publish_with_headers(
        &url,
        "memval.v1.events.memory_ingested",
        "plain-1",
        &[("traceparent", traceparent)],
        event.to_string().into_bytes(),
    );
    let stored = eventually(Duration::from_secs(60), "the run's score", || {
        let js = support::nats::stored_with_headers(&url, "MEMVAL_SCORES", "memval.v1.scores.ingest-plain-1");
        (!js.is_empty()).then_some(js)
    });
    assert_eq!(stored[0].get("traceparent"), Some(traceparent), "{stored:?}");
}
