//! `compose.yaml`, checked without a Docker engine.
//!
//! - Every memval service's command and environment go through memval's own parser
//!   (`memval ... --check-config`, which reads flags and MEMVAL_*/OTEL_* variables exactly
//!   as `memval serve` does and refuses a variable memval does not read).
//! - The wiring a container engine would provide is checked where it can be: NATS with
//!   JetStream on a named volume, the repo mounted read-only where investigators look, the
//!   store on a volume, the tracing profile's collector config and Jaeger, the Dockerfile.
//! - The same topology (services, replicas, commands, variables; volumes mapped to local
//!   directories) runs as local processes against a real nats-server and validates a run.

#[allow(dead_code)]
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use serde_yaml_ng::Value;
use support::nats::{comparable, eventually, publish, read_subject, report, validate, NatsServer, Service};
use support::{demo_repo, workspace};

/// Compose's variable interpolation for the forms compose.yaml may use: `$$`, `${NAME}`,
/// `${NAME:-default}` (unset or empty) and `${NAME-default}` (unset). Anything else fails the
/// test, so the file cannot drift into syntax this check does not understand.
fn interpolate(text: &str, vars: &BTreeMap<&str, &str>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        if let Some(after) = rest.strip_prefix('$') {
            out.push('$');
            rest = after;
            continue;
        }
        let body =
            rest.strip_prefix('{').unwrap_or_else(|| panic!("compose.yaml: use ${{NAME}}, not bare $ in {text:?}"));
        let end = body.find('}').unwrap_or_else(|| panic!("compose.yaml: unclosed ${{ in {text:?}"));
        let expr = &body[..end];
        rest = &body[end + 1..];
        let value = if let Some((name, default)) = expr.split_once(":-") {
            vars.get(name).filter(|v| !v.is_empty()).copied().unwrap_or(default).to_owned()
        } else if let Some((name, default)) = expr.split_once('-') {
            vars.get(name).copied().unwrap_or(default).to_owned()
        } else {
            assert!(
                expr.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "compose.yaml: unsupported interpolation ${{{expr}}}"
            );
            vars.get(expr).copied().unwrap_or("").to_owned()
        };
        out.push_str(&value);
    }
    out.push_str(rest);
    out
}

fn interpolate_all(value: &mut Value, vars: &BTreeMap<&str, &str>) {
    match value {
        Value::String(s) => *s = interpolate(s, vars),
        Value::Sequence(items) => items.iter_mut().for_each(|v| interpolate_all(v, vars)),
        Value::Mapping(map) => map.values_mut().for_each(|v| interpolate_all(v, vars)),
        _ => {}
    }
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => String::new(),
        other => panic!("expected a scalar, got {other:?}"),
    }
}

#[derive(Debug, Clone)]
struct Mount {
    source: String,
    target: String,
    read_only: bool,
    /// A named volume (declared under `volumes:`), not a path on the host.
    named: bool,
}

#[derive(Debug, Clone)]
struct ComposeService {
    name: String,
    image: String,
    build: bool,
    command: Vec<String>,
    environment: Vec<(String, String)>,
    mounts: Vec<Mount>,
    replicas: usize,
    profiles: Vec<String>,
    depends_on: Vec<String>,
}

impl ComposeService {
    fn is_memval(&self) -> bool {
        self.build || self.image.starts_with("memval")
    }

    fn env(&self, name: &str) -> Option<&str> {
        self.environment.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

struct Compose {
    services: BTreeMap<String, ComposeService>,
    volumes: BTreeSet<String>,
}

/// compose.yaml as compose would see it with `vars` in the environment: merge keys applied,
/// variables interpolated.
fn load(vars: &[(&str, &str)]) -> Compose {
    let text = std::fs::read_to_string(workspace().join("compose.yaml")).expect("compose.yaml at the repo root");
    let mut root: Value = serde_yaml_ng::from_str(&text).expect("compose.yaml is YAML");
    root.apply_merge().expect("merge keys");
    let vars: BTreeMap<&str, &str> = vars.iter().copied().collect();
    interpolate_all(&mut root, &vars);
    let volumes: BTreeSet<String> =
        root["volumes"].as_mapping().map(|m| m.keys().map(scalar).collect()).unwrap_or_default();
    let mut services = BTreeMap::new();
    for (name, spec) in root["services"].as_mapping().expect("services") {
        let name = scalar(name);
        let command = match &spec["command"] {
            Value::Sequence(items) => items.iter().map(scalar).collect(),
            Value::String(s) => s.split_whitespace().map(str::to_owned).collect(),
            Value::Null => Vec::new(),
            other => panic!("{name}: command {other:?}"),
        };
        let environment = match &spec["environment"] {
            Value::Mapping(map) => map.iter().map(|(k, v)| (scalar(k), scalar(v))).collect(),
            Value::Sequence(items) => items
                .iter()
                .map(|i| {
                    let item = scalar(i);
                    let (k, v) = item.split_once('=').unwrap_or((&item, ""));
                    (k.to_owned(), v.to_owned())
                })
                .collect(),
            Value::Null => Vec::new(),
            other => panic!("{name}: environment {other:?}"),
        };
        let mounts = spec["volumes"]
            .as_sequence()
            .map(|items| {
                items
                    .iter()
                    .map(|m| {
                        let m = scalar(m);
                        let parts: Vec<&str> = m.split(':').collect();
                        assert!((2..=3).contains(&parts.len()), "{name}: volume {m:?} is not SOURCE:TARGET[:MODE]");
                        let named = volumes.contains(parts[0]);
                        Mount {
                            source: parts[0].to_owned(),
                            target: parts[1].to_owned(),
                            read_only: parts.get(2) == Some(&"ro"),
                            named,
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let depends_on = match &spec["depends_on"] {
            Value::Mapping(map) => map.keys().map(scalar).collect(),
            Value::Sequence(items) => items.iter().map(scalar).collect(),
            _ => Vec::new(),
        };
        services.insert(
            name.clone(),
            ComposeService {
                name,
                image: spec["image"].as_str().unwrap_or("").to_owned(),
                build: !spec["build"].is_null(),
                command,
                environment,
                mounts,
                replicas: spec["deploy"]["replicas"].as_u64().unwrap_or(1) as usize,
                profiles: spec["profiles"].as_sequence().map(|p| p.iter().map(scalar).collect()).unwrap_or_default(),
                depends_on,
            },
        );
    }
    Compose { services, volumes }
}

/// `memval ARGS --check-config` with exactly `env` (and PATH) in the environment.
fn check_config(args: &[String], env: &[(String, String)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memval"))
        .args(args)
        .arg("--check-config")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .output()
        .expect("memval runs")
}

fn memval_services(compose: &Compose) -> Vec<&ComposeService> {
    compose.services.values().filter(|s| s.is_memval()).collect()
}

#[test]
fn every_memval_service_runs_a_command_and_environment_memval_accepts() {
    let collector = "http://otel-collector:4318";
    for (vars, traces) in [
        (vec![], "traces:       off".to_owned()),
        (
            vec![("OTEL_EXPORTER_OTLP_ENDPOINT", collector)],
            format!("traces:       {collector}/v1/traces (otlp http/protobuf, service memval-"),
        ),
    ] {
        let compose = load(&vars);
        let mut roles = BTreeMap::new();
        for service in memval_services(&compose) {
            assert_eq!(
                service.command.first().map(String::as_str),
                Some("serve"),
                "{}: runs `memval serve ROLE`",
                service.name
            );
            let out = check_config(&service.command, &service.environment);
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}: memval refuses {:?} with {:?}:\n{}",
                service.name,
                service.command,
                service.environment,
                String::from_utf8_lossy(&out.stderr)
            );
            let role = &service.command[1];
            assert!(stdout.contains(&format!("memval serve {role}: configuration ok")), "{stdout}");
            assert!(stdout.contains("nats:         nats://nats:4222 "), "{}: {stdout}", service.name);
            assert!(stdout.contains(&traces), "{}: {stdout}", service.name);
            assert!(!stdout.contains("note:"), "{}: a setting its role ignores: {stdout}", service.name);
            assert_eq!(service.depends_on, ["nats"], "{} waits for nats", service.name);
            *roles.entry(role.clone()).or_insert(0) += service.replicas;
        }
        let expected: BTreeMap<String, usize> =
            [("extractor", 1), ("investigator", 3), ("scorer", 1), ("ingest", 1), ("judge", 2), ("reconciler", 1)]
                .into_iter()
                .map(|(r, n)| (r.to_owned(), n))
                .collect();
        assert_eq!(
            roles, expected,
            "one extractor, three investigators, one scorer, an ingest service, two judges, a reconciler"
        );
    }
}

#[test]
fn the_check_refuses_what_memval_would_not_read() {
    let compose = load(&[]);
    let investigator = &compose.services["investigator"];
    // A misspelt variable: memval would silently not see it.
    let mut env = investigator.environment.clone();
    env.retain(|(k, _)| k != "MEMVAL_REPO");
    env.push(("MEMVAL_REPOS".to_owned(), "/repo".to_owned()));
    let out = check_config(&investigator.command, &env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("memval does not read MEMVAL_REPOS (did you mean MEMVAL_REPO?)"), "{stderr}");
    assert!(stderr.contains("the investigator needs a checkout"), "{stderr}");
    // An unknown flag, and an OTEL variable with a typo.
    let mut command = investigator.command.clone();
    command.push("--repos".to_owned());
    let out = check_config(&command, &investigator.environment);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--repos"));
    let mut env = investigator.environment.clone();
    env.push(("OTEL_EXPORTER_OTLP_ENDPIONT".to_owned(), "http://otel-collector:4318".to_owned()));
    let out = check_config(&investigator.command, &env);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean OTEL_EXPORTER_OTLP_ENDPOINT?"));
}

fn port_of(address: &str) -> &str {
    address.rsplit(':').next().unwrap().trim_end_matches('/')
}

#[test]
fn the_compose_file_wires_jetstream_storage_the_repo_and_tracing() {
    let compose = load(&[]);
    // NATS with JetStream, its store on a named volume.
    let nats = &compose.services["nats"];
    assert!(nats.image.starts_with("nats:2.1"), "nats 2.10 or later: {}", nats.image);
    assert!(nats.command.iter().any(|a| a == "-js"), "JetStream on: {:?}", nats.command);
    let store_dir = nats.command.iter().position(|a| a == "-sd").map(|i| &nats.command[i + 1]).expect("-sd DIR");
    assert!(
        nats.mounts.iter().any(|m| m.named && &m.target == store_dir),
        "JetStream's store dir {store_dir} is on a named volume: {:?}",
        nats.mounts
    );
    for service in memval_services(&compose) {
        let url = service.env("MEMVAL_NATS_URL").unwrap_or_else(|| panic!("{} has MEMVAL_NATS_URL", service.name));
        assert_eq!(url, "nats://nats:4222", "{} reaches the nats service on its client port", service.name);
        assert!(service.profiles.is_empty(), "{} runs without a profile", service.name);
    }
    // The repo read-only where investigators look; the store on a volume.
    let investigator = &compose.services["investigator"];
    let repo = investigator.env("MEMVAL_REPO").expect("MEMVAL_REPO");
    let mount = investigator.mounts.iter().find(|m| m.target == repo).expect("the repo is mounted at MEMVAL_REPO");
    assert!(mount.read_only && !mount.named, "{mount:?}");
    assert_eq!(mount.source, ".", "REPO defaults to this checkout");
    assert_eq!(
        load(&[("REPO", "/srv/shop")]).services["investigator"].mounts[0].source,
        "/srv/shop",
        "REPO points it elsewhere"
    );
    let scorer = &compose.services["scorer"];
    let store = scorer.env("MEMVAL_STORE").expect("MEMVAL_STORE");
    assert!(
        scorer.mounts.iter().any(|m| m.named && store.starts_with(&m.target)),
        "the store {store} is on a named volume: {:?}",
        scorer.mounts
    );
    assert!(compose.volumes.contains("nats-data") && compose.volumes.contains("memval-store"));

    // The tracing profile: a collector whose config is in the repo, and Jaeger behind it.
    let collector = &compose.services["otel-collector"];
    let jaeger = &compose.services["jaeger"];
    assert_eq!(
        (collector.profiles.as_slice(), jaeger.profiles.as_slice()),
        (&["tracing".to_owned()][..], &["tracing".to_owned()][..])
    );
    let config_path = collector.command.iter().find_map(|a| a.strip_prefix("--config=")).expect("--config=PATH");
    let config_mount = collector
        .mounts
        .iter()
        .find(|m| m.target == config_path)
        .expect("the config is mounted where --config reads it");
    let config_file = workspace().join(&config_mount.source);
    assert!(config_file.is_file(), "{} is committed", config_file.display());
    let config: Value = serde_yaml_ng::from_str(&std::fs::read_to_string(&config_file).unwrap()).unwrap();
    let http = config["receivers"]["otlp"]["protocols"]["http"]["endpoint"].as_str().expect("an OTLP/HTTP receiver");
    // The endpoint services are given with the profile (compose.yaml's header says how).
    let text = std::fs::read_to_string(workspace().join("compose.yaml")).unwrap();
    assert!(
        text.contains(&format!("OTEL_EXPORTER_OTLP_ENDPOINT=http://otel-collector:{}", port_of(http))),
        "the documented endpoint is the receiver's port"
    );
    let pipeline = &config["service"]["pipelines"]["traces"];
    assert!(pipeline["receivers"].as_sequence().unwrap().contains(&Value::from("otlp")));
    let to_jaeger = pipeline["exporters"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|e| config["exporters"][e.as_str().unwrap()]["endpoint"].as_str())
        .any(|endpoint| endpoint.starts_with("jaeger:"));
    assert!(to_jaeger, "the collector forwards to the jaeger service");
    assert_eq!(jaeger.env("COLLECTOR_OTLP_ENABLED"), Some("true"));

    // The image: built from the Dockerfile here, memval as entry point, not root, with git.
    let dockerfile = std::fs::read_to_string(workspace().join("Dockerfile")).expect("a Dockerfile at the repo root");
    assert!(dockerfile.contains("cargo build --release --locked -p memval"), "{dockerfile}");
    let runtime_stage = dockerfile.rsplit("\nFROM ").next().unwrap();
    assert!(runtime_stage.contains("git") && runtime_stage.contains("ENTRYPOINT [\"memval\"]"), "{runtime_stage}");
    let user = runtime_stage.lines().find_map(|l| l.strip_prefix("USER ")).expect("a USER in the runtime stage");
    assert!(user.trim() != "root" && user.trim() != "0", "runs as {user}");
}

/// A value of compose.yaml as seen inside a container, as a local process sees it: the
/// nats service's URL becomes the local server's, a path under a mount target the mount's
/// local directory.
fn localise(value: &str, nats_url: &str, mounts: &[(String, PathBuf)]) -> String {
    if value == "nats://nats:4222" {
        return nats_url.to_owned();
    }
    // NAME=PATH (a --repo-map entry): the path is localised.
    if let Some((name, path)) = value.split_once('=').filter(|(n, p)| !n.contains('/') && p.starts_with('/')) {
        return format!("{name}={}", localise(path, nats_url, mounts));
    }
    for (target, local) in mounts {
        if let Some(rest) = value.strip_prefix(target.as_str()) {
            if rest.is_empty() || rest.starts_with('/') {
                return format!("{}{rest}", local.display());
            }
        }
    }
    value.to_owned()
}

#[test]
fn the_compose_topology_runs_a_validation_as_local_processes() {
    let demo = demo_repo();
    // The demo repo has no GAAI tree: the reconciler reads its notes file instead.
    let compose = load(&[("REPO", demo.to_str().unwrap()), ("RECONCILE_MEMORIES", "CLAUDE.md")]);
    let nats = NatsServer::start();
    let url = nats.url();
    let logs = tempfile::tempdir().unwrap();
    let volumes = tempfile::tempdir().unwrap();
    let mut services: Vec<Service> = Vec::new();
    let mut started = BTreeMap::new();
    for service in memval_services(&compose) {
        let mounts: Vec<(String, PathBuf)> = service
            .mounts
            .iter()
            .map(|m| {
                let local = if m.named { volumes.path().join(&m.source) } else { PathBuf::from(&m.source) };
                std::fs::create_dir_all(&local).unwrap();
                (m.target.clone(), local)
            })
            .collect();
        let env: Vec<(String, String)> =
            service.environment.iter().map(|(k, v)| (k.clone(), localise(v, &url, &mounts))).collect();
        let args: Vec<String> = service.command.iter().map(|a| localise(a, &url, &mounts)).collect();
        for _ in 0..service.replicas {
            services.push(Service::start_command(&service.name, &args, &env, logs.path()));
        }
        started.insert(service.name.clone(), service.replicas);
    }
    assert_eq!(started.values().sum::<usize>(), 9, "{started:?}");
    let all_logs = || {
        std::fs::read_dir(logs.path())
            .unwrap()
            .flatten()
            .map(|e| {
                format!(
                    "--- {}\n{}",
                    e.file_name().to_string_lossy(),
                    std::fs::read_to_string(e.path()).unwrap_or_default()
                )
            })
            .collect::<String>()
    };

    // A validation through the topology gives what the in-process run gives.
    let memories = workspace().join("examples/memories/memories.jsonl");
    let local_store = tempfile::tempdir().unwrap();
    let want = comparable(report(&validate(&demo, &memories, &["--store", local_store.path().to_str().unwrap()])));
    let out = validate(&demo, &memories, &["--nats", &url, "--batch-size", "1"]);
    if out.status.code() != Some(0) {
        panic!("{}\n{}", String::from_utf8_lossy(&out.stderr), all_logs());
    }
    assert_eq!(comparable(report(&out)), want, "the compose topology gives another report than the in-process run");

    // The ingest service starts runs from events; investigators answer any repo name.
    let event = serde_json::json!({"event_id": "compose-1", "repo": "shop",
        "memories": [{"id": 1, "agent": "a", "content": "Old mobile auth lives in `src/legacy_auth.rs`."}]});
    publish(&url, "memval.v1.events.memory_ingested", "compose-1", event.to_string().into_bytes());
    eventually(Duration::from_secs(60), "the ingest run's score", || {
        (!read_subject(&url, "MEMVAL_SCORES", "memval.v1.scores.ingest-compose-1").is_empty()).then_some(())
    });

    // Every replica stops cleanly; the investigators shared the claims.
    let mut processed = Vec::new();
    for service in services {
        let role = service.role.clone();
        let (code, log) = service.terminate();
        assert_eq!(code, Some(0), "{role} did not stop cleanly:\n{log}");
        if role == "investigator" {
            let line = log.lines().find(|l| l.contains("investigator stopped: ")).unwrap_or_else(|| panic!("{log}"));
            processed.push(
                line.split("stopped: ")
                    .nth(1)
                    .and_then(|r| r.split(' ').next())
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap(),
            );
        }
    }
    let memories_in_run = want["memories"].as_array().unwrap().len() as u64;
    assert_eq!(
        processed.iter().sum::<u64>(),
        memories_in_run + 1,
        "one claim batch per memory, plus the event's: {processed:?}"
    );
    assert!(processed.iter().filter(|n| **n > 0).count() >= 2, "replicas share the work: {processed:?}");
    // The scorer's store is where compose puts it, on the store volume.
    assert!(volumes.path().join("memval-store").join("store").is_dir(), "the store is on the memval-store volume");
}
