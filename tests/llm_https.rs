//! The model client over HTTPS, as hosted APIs need: a loopback TLS server with a
//! certificate from a test CA answers both wire formats (OpenAI chat completions and
//! Anthropic Messages). Trusted through `SSL_CERT_FILE`, the call goes through and its
//! verdict is kept; with the system's roots only, the certificate is refused and the claim
//! stays not checked with the reason. Needs `openssl` and `python3` (scripts/test.sh installs
//! openssl; python3 is part of the machine).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use serde_json::{json, Value};

/// An HTTPS server on a free loopback port answering every POST with a verdict in the wire
/// format of the path: `/v1/chat/completions` (OpenAI) or `/v1/messages` (Anthropic).
const SERVER: &str = r#"
import http.server, json, ssl, sys
VERDICT = json.dumps({"verdicts": [{"claim_id": "c1", "verdict": "CONTRADICTED", "confidence": 80,
                                     "evidence": "main.rs:1 `fn main() {}` has no retry loop"}]})
class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        if self.path.endswith("/messages"):
            body = {"id": "m1", "type": "message", "role": "assistant", "model": "t",
                    "content": [{"type": "text", "text": VERDICT}], "stop_reason": "end_turn",
                    "usage": {"input_tokens": 100, "output_tokens": 20}}
        else:
            body = {"id": "c1", "object": "chat.completion", "model": "t",
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": VERDICT}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 20}}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
"#;

struct TlsServer {
    child: Child,
    port: u16,
}

impl TlsServer {
    fn start(cert: &Path, key: &Path) -> TlsServer {
        let mut child = Command::new("python3")
            .args(["-c", SERVER])
            .arg(cert)
            .arg(key)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3 runs the test's TLS server");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line.trim().parse().unwrap_or_else(|_| panic!("the TLS server did not print its port: {line:?}"));
        TlsServer { child, port }
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("openssl runs (scripts/test.sh installs it)");
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A test CA and a certificate for localhost signed by it: (ca.crt, server.crt, server.key).
fn certificates(dir: &Path) {
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
            "ca.crt",
            "-days",
            "2",
            "-subj",
            "/CN=memval test CA",
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
            "/CN=localhost",
        ],
    );
    std::fs::write(dir.join("ext.cnf"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n").unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.crt",
            "-days",
            "2",
            "-extfile",
            "ext.cnf",
        ],
    );
}

fn validate(dir: &Path, store: &str, provider: &str, base_url: &str, trust: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_memval"));
    cmd.current_dir(dir)
        .args([
            "validate",
            "--repo",
            "repo",
            "--memories",
            "memories.jsonl",
            "--store",
            store,
            "--format",
            "json",
            "--fail-on",
            "never",
            "-q",
        ])
        .args([
            "--llm-provider",
            provider,
            "--llm-base-url",
            base_url,
            "--llm-model",
            "t",
            "--llm-max-retries",
            "0",
            "--llm-extract-batches",
            "0",
        ])
        .env_remove("SSL_CERT_FILE")
        .env_remove("SSL_CERT_DIR")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY");
    if let Some(ca) = trust {
        cmd.env("SSL_CERT_FILE", ca);
    }
    cmd.output().expect("memval runs")
}

fn report(out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("a JSON report")
}

#[test]
fn both_wire_formats_work_over_https_and_an_untrusted_certificate_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    certificates(dir.path());
    std::fs::create_dir_all(dir.path().join("repo")).unwrap();
    std::fs::write(dir.path().join("repo/main.rs"), "fn main() {}\n").unwrap();
    let memory = json!({"id": 1, "agent": "a", "content": "The `main` function in `main.rs` retries every request three times."});
    std::fs::write(dir.path().join("memories.jsonl"), format!("{memory}\n")).unwrap();
    let server = TlsServer::start(&dir.path().join("server.crt"), &dir.path().join("server.key"));
    let ca = dir.path().join("ca.crt");

    for (provider, base_url) in [
        ("openai", format!("https://localhost:{}/v1", server.port)),
        ("anthropic", format!("https://localhost:{}", server.port)),
    ] {
        let got = report(&validate(dir.path(), &format!("store-{provider}"), provider, &base_url, Some(&ca)));
        let claim =
            got["memories"][0]["claims"].as_array().unwrap().iter().find(|c| c["claim_type"] == "behavioral").cloned();
        let claim =
            claim.unwrap_or_else(|| panic!("{provider}: the behavioral claim was not checked over HTTPS: {got}"));
        assert_eq!(
            (claim["verdict"].as_str(), claim["confidence"].as_u64()),
            (Some("CONTRADICTED"), Some(80)),
            "{provider}: {claim}"
        );
        assert_eq!(got["llm"]["usage"]["stages"]["investigator"]["calls"], 1, "{provider}");

        // The system's roots do not include the test CA: refused, with the reason.
        let got = report(&validate(dir.path(), &format!("store-{provider}-untrusted"), provider, &base_url, None));
        let not_checked = got["not_checked"].as_array().unwrap();
        assert_eq!(not_checked.len(), 1, "{provider}: {got}");
        let reason = not_checked[0]["reason"].as_str().unwrap();
        assert!(reason.contains("certificate"), "{provider}: {reason}");
    }
}
