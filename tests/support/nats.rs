//! A real `nats-server` per test, and `memval serve` processes against it.
//!
//! Each server gets its own store directory and a port the server picks (`-p -1`), read
//! from its log; readiness is polled, never assumed after a sleep. Everything started here
//! is killed on `Drop`, so a failing test leaves no process behind.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long anything here may take to come up before the test fails with its log.
const STARTUP: Duration = Duration::from_secs(30);

fn nats_server_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("NATS_SERVER") {
        return PathBuf::from(bin);
    }
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.join("nats-server")).find(|c| c.is_file()))
        .unwrap_or_default();
    let bin = on_path.unwrap_or_else(|| PathBuf::from("/usr/sbin/nats-server"));
    assert!(bin.is_file(), "nats-server not found: install it (apt-get install -y nats-server) or set NATS_SERVER");
    bin
}

pub struct NatsServer {
    child: Option<Child>,
    pub port: u16,
    store: tempfile::TempDir,
    extra: Vec<String>,
    log: PathBuf,
}

impl NatsServer {
    pub fn start() -> NatsServer {
        NatsServer::start_with(&[])
    }

    /// A server with extra flags (`--auth`, `--user`, `--tlscert`, ...).
    pub fn start_with(extra: &[&str]) -> NatsServer {
        let store = tempfile::tempdir().unwrap();
        let log = store.path().join("nats-server.log");
        let extra: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        let (child, port) = spawn_server(store.path(), None, &extra, &log);
        NatsServer { child: Some(child), port, store, extra, log }
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Stop the server (SIGTERM, as an operator would) and start it again on the same
    /// port with the same store directory.
    pub fn restart(&mut self) {
        self.restart_after(Duration::ZERO);
    }

    /// [`NatsServer::restart`] with the server down for `outage` in between: clients and
    /// services see a broker that is gone, not one that blinked.
    pub fn restart_after(&mut self, outage: Duration) {
        let mut child = self.child.take().unwrap();
        terminate(&mut child, Duration::from_secs(30));
        std::thread::sleep(outage);
        let (child, port) = spawn_server(self.store.path(), Some(self.port), &self.extra, &self.log);
        assert_eq!(port, self.port);
        self.child = Some(child);
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn spawn_server(store: &Path, port: Option<u16>, extra: &[String], log: &Path) -> (Child, u16) {
    let port_arg = port.map_or("-1".to_owned(), |p| p.to_string());
    let mut child = Command::new(nats_server_bin())
        .args(["-a", "127.0.0.1", "-p", &port_arg, "-js", "-sd"])
        .arg(store.join("js"))
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nats-server starts");
    // The server logs to stderr; keep draining it into the log file so it never blocks.
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    let log = log.to_owned();
    std::thread::spawn(move || {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let _ = writeln!(file, "{line}");
            let _ = tx.send(line);
        }
    });
    let deadline = Instant::now() + STARTUP;
    let mut seen = Vec::new();
    let mut port = None;
    while port.is_none() || !seen.iter().any(|l: &String| l.contains("Server is ready")) {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                if let Some(rest) = line.split("Listening for client connections on ").nth(1) {
                    port = rest.trim().rsplit(':').next().and_then(|p| p.parse::<u16>().ok());
                }
                seen.push(line);
            }
            Err(_) => {
                let _ = child.kill();
                panic!("nats-server did not become ready:\n{}", seen.join("\n"));
            }
        }
    }
    let port = port.unwrap();
    // Ready means a client gets the server's INFO line.
    loop {
        if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) {
            stream.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
            let mut buf = [0u8; 4];
            if stream.read_exact(&mut buf).is_ok() && &buf == b"INFO" {
                break;
            }
        }
        assert!(Instant::now() < deadline, "nats-server on port {port} does not answer");
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, port)
}

/// SIGTERM, then wait (SIGKILL after `grace`).
fn terminate(child: &mut Child, grace: Duration) -> Option<ExitStatus> {
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let deadline = Instant::now() + grace;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A `memval serve ROLE` process.
pub struct Service {
    child: Option<Child>,
    pub role: String,
    pub log: PathBuf,
}

impl Service {
    /// Start `memval serve role --nats url args...`, logging to a file in `logs`, and wait
    /// until it says it is serving (its consumer exists).
    pub fn start(role: &str, url: &str, args: &[&str], logs: &Path) -> Service {
        Service::start_env(role, url, args, &[], logs)
    }

    pub fn start_env(role: &str, url: &str, args: &[&str], env: &[(&str, &str)], logs: &Path) -> Service {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let log = logs.join(format!("{role}-{n}.log"));
        let file = std::fs::File::create(&log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_memval"))
            .args(["serve", role, "--nats", url])
            .args(args)
            .envs(env.iter().copied())
            .env("MEMVAL_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .expect("memval serve starts");
        let mut service = Service { child: Some(child), role: role.to_owned(), log };
        service.wait_ready();
        service
    }

    /// Start `memval ARGS...` exactly as given (a compose service's command), with only
    /// `env` (plus PATH and HOME) in its environment, and wait until it is serving.
    pub fn start_command(label: &str, args: &[String], env: &[(String, String)], logs: &Path) -> Service {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let log = logs.join(format!("{label}-cmd{n}.log"));
        let file = std::fs::File::create(&log).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_memval"));
        command.args(args).env_clear();
        for name in ["PATH", "HOME"] {
            if let Some(value) = std::env::var_os(name) {
                command.env(name, value);
            }
        }
        let child = command
            .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .expect("memval starts");
        let mut service = Service { child: Some(child), role: label.to_owned(), log };
        service.wait_ready();
        service
    }

    fn wait_ready(&mut self) {
        let deadline = Instant::now() + STARTUP;
        loop {
            if self.log_text().contains("serving on") {
                return;
            }
            if let Ok(Some(status)) = self.child.as_mut().unwrap().try_wait() {
                panic!("memval serve {} exited with {status}:\n{}", self.role, self.log_text());
            }
            assert!(Instant::now() < deadline, "memval serve {} is not serving:\n{}", self.role, self.log_text());
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The process id (what memval writes into its owner texts, `(pid N)`).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().unwrap().id()
    }

    /// The exit status if the process has exited by itself, `None` while it runs.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.as_mut().unwrap().try_wait().unwrap()
    }

    /// SIGKILL: a crash, no chance to finish or hand anything back.
    pub fn kill(mut self) {
        let mut child = self.child.take().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
    }

    /// Wait up to `limit` for the process to exit by itself (a crash or a fatal error, as its
    /// supervisor would see it); returns the exit code and the log.
    pub fn exits_within(mut self, limit: Duration) -> (Option<i32>, String) {
        let mut child = self.child.take().unwrap();
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return (status.code(), self.log_text());
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("memval serve {} did not exit within {limit:?}:\n{}", self.role, self.log_text());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// SIGTERM and wait for a clean exit; returns the exit code and the log.
    pub fn terminate(mut self) -> (Option<i32>, String) {
        let mut child = self.child.take().unwrap();
        let status = terminate(&mut child, Duration::from_secs(60));
        (status.and_then(|s| s.code()), self.log_text())
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// extractor, `investigators` investigators and a scorer against one server.
pub struct Cluster {
    pub extractor: Service,
    pub investigators: Vec<Service>,
    pub scorer: Service,
    pub store: tempfile::TempDir,
    pub logs: tempfile::TempDir,
    url: String,
    investigator_args: Vec<String>,
}

impl Cluster {
    /// `common` goes to every service (e.g. `--nats-ack-wait 2`).
    pub fn start(url: &str, repo: &Path, investigators: usize, common: &[&str]) -> Cluster {
        let store = tempfile::tempdir().unwrap();
        let logs = tempfile::tempdir().unwrap();
        let extractor = Service::start("extractor", url, common, logs.path());
        let mut investigator_args: Vec<String> = common.iter().map(|s| s.to_string()).collect();
        investigator_args.extend([
            "--repo".to_owned(),
            repo.display().to_string(),
            "--concurrency".to_owned(),
            "2".to_owned(),
        ]);
        let mut scorer_args: Vec<&str> = common.to_vec();
        scorer_args.extend(["--store", store.path().to_str().unwrap()]);
        let scorer = Service::start("scorer", url, &scorer_args, logs.path());
        let mut cluster = Cluster {
            extractor,
            investigators: Vec::new(),
            scorer,
            store,
            logs,
            url: url.to_owned(),
            investigator_args,
        };
        for _ in 0..investigators {
            cluster.add_investigator();
        }
        cluster
    }

    pub fn add_investigator(&mut self) {
        let args: Vec<&str> = self.investigator_args.iter().map(String::as_str).collect();
        self.investigators.push(Service::start("investigator", &self.url, &args, self.logs.path()));
    }

    /// Every service's log, for a failure message.
    pub fn logs(&self) -> String {
        let mut text = String::new();
        for entry in std::fs::read_dir(self.logs.path()).unwrap().flatten() {
            text.push_str(&format!(
                "--- {}\n{}\n",
                entry.file_name().to_string_lossy(),
                std::fs::read_to_string(entry.path()).unwrap_or_default()
            ));
        }
        text
    }

    /// SIGTERM every service, assert each exits 0, and return the scorer's store and how
    /// many batches each investigator processed.
    pub fn stop(self) -> (tempfile::TempDir, Vec<u64>) {
        let Cluster { extractor, investigators, scorer, store, logs, .. } = self;
        let mut processed = Vec::new();
        for service in std::iter::once(extractor).chain(investigators).chain(std::iter::once(scorer)) {
            let role = service.role.clone();
            let (code, log) = service.terminate();
            assert_eq!(code, Some(0), "memval serve {role} did not exit cleanly on SIGTERM:\n{log}");
            let stopped =
                log.lines().find(|l| l.contains(&format!("{role} stopped: "))).unwrap_or_else(|| panic!("{log}"));
            if role == "investigator" {
                let n =
                    stopped.split("stopped: ").nth(1).and_then(|r| r.split(' ').next()).and_then(|n| n.parse().ok());
                processed.push(n.unwrap());
            }
        }
        drop(logs);
        (store, processed)
    }
}

/// `memval validate --format json --fail-on never -q` with extra args, in process (no
/// `--nats`) or against a cluster.
pub fn validate(repo: &Path, memories: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memval"))
        .args(["validate", "--repo", repo.to_str().unwrap(), "--memories", memories.to_str().unwrap()])
        .args(["--format", "json", "--fail-on", "never", "-q"])
        .args(extra)
        .output()
        .expect("memval runs")
}

pub fn report(out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "memval validate failed:\n{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("json report")
}

/// A report without what differs between any two runs (ids, times, where the store is).
pub fn comparable(mut report: Value) -> Value {
    let run = report["run"].as_object_mut().unwrap();
    for key in ["id", "started_at", "finished_at", "store"] {
        run.remove(key);
    }
    report
}

/// `memval history --format json`'s memories of a store, without run ids and times: per
/// memory, the scores and verdicts of every run it was in.
pub fn history(store: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_memval"))
        .args(["history", "--store", store.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let document: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut history = document["memories"].clone();
    for memory in history.as_array_mut().unwrap() {
        for run in memory["runs"].as_array_mut().unwrap() {
            let run = run.as_object_mut().unwrap();
            run.remove("run_id");
            run.remove("started_at");
        }
    }
    history
}

/// `n` memories cycling through the example memories, each with its own id: enough work
/// for a run to last while a test breaks things.
pub fn many_memories(dir: &Path, n: usize) -> PathBuf {
    let examples = std::fs::read_to_string(super::workspace().join("examples/memories/memories.jsonl")).unwrap();
    let templates: Vec<Value> =
        examples.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect();
    let mut out = String::new();
    for i in 0..n {
        let mut m = templates[i % templates.len()].clone();
        m["id"] = Value::String(format!("m{i}"));
        out.push_str(&m.to_string());
        out.push('\n');
    }
    let path = dir.join("many.jsonl");
    std::fs::write(&path, out).unwrap();
    path
}

/// Run `memval` with args and an environment; returns its output.
pub fn memval_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memval")).args(args).envs(env.iter().copied()).output().expect("memval runs")
}

/// Poll `check` until it returns `Some`, failing with `what` after `limit`.
pub fn eventually<T>(limit: Duration, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Publish raw bytes on a subject through JetStream, confirmed, as a foreign client would.
pub fn publish(url: &str, subject: &str, msg_id: &str, payload: Vec<u8>) {
    use memval_transport::jetstream::{ConnectOptions, JetStream, Settings};
    use memval_transport::{Headers, Outbox, Outgoing};
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let js = JetStream::connect(&ConnectOptions::new(url, "memval-test"), Settings::default()).await.unwrap();
        js.outbox()
            .send(Outgoing { subject: subject.to_owned(), msg_id: msg_id.to_owned(), headers: Headers::new(), payload })
            .await
            .unwrap();
    });
}

/// Read messages from a limits stream (e.g. scores) on `subject`, as a foreign client would.
pub fn read_subject(url: &str, stream: &str, subject: &str) -> Vec<Vec<u8>> {
    stored(url, stream).into_iter().filter(|m| m.subject == subject).map(|m| m.payload).collect()
}

/// The headers of the messages on `subject` in a stream, as a foreign client would read them.
pub fn stored_with_headers(url: &str, stream: &str, subject: &str) -> Vec<memval_transport::Headers> {
    stored(url, stream).into_iter().filter(|m| m.subject == subject).map(|m| m.headers).collect()
}

/// Every message of a stream (subject, headers, payload), oldest first, as a foreign client
/// would read them.
pub fn stored(url: &str, stream: &str) -> Vec<memval_transport::jetstream::StoredMessage> {
    use memval_transport::jetstream::{ConnectOptions, JetStream, Settings};
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let js = JetStream::connect(&ConnectOptions::new(url, "memval-test"), Settings::default()).await.unwrap();
        js.stored_messages(stream, 0, 10_000).await.unwrap()
    })
}
