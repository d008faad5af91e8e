//! A private llama.cpp `llama-server` for a benchmark: a free loopback port, ready when
//! `/health` answers 200 (the model is loaded), killed on drop. Built by
//! `bash scripts/llama.sh build`; started with the settings `tests/llm_local.rs` uses.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// The model name memval sends (llama-server serves whatever it loaded, whatever the name).
pub const LOCAL_MODEL_NAME: &str = "smollm2-135m";

/// `$MEMVAL_LLAMA_SERVER` and `$MEMVAL_LLAMA_MODEL`, else where `scripts/llama.sh` puts them
/// (`$MEMVAL_LLAMA_CACHE`, default `~/.cache/memval/llama`).
pub fn llama_paths() -> Result<(PathBuf, PathBuf)> {
    let cache = match std::env::var_os("MEMVAL_LLAMA_CACHE") {
        Some(c) => PathBuf::from(c),
        None => PathBuf::from(std::env::var_os("HOME").context("HOME is not set")?).join(".cache/memval/llama"),
    };
    let server =
        std::env::var_os("MEMVAL_LLAMA_SERVER").map(PathBuf::from).unwrap_or_else(|| cache.join("bin/llama-server"));
    let model = std::env::var_os("MEMVAL_LLAMA_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| cache.join("models/SmolLM2-135M-Instruct.Q4_1.gguf"));
    if !server.is_file() || !model.is_file() {
        bail!(
            "no local model: {} or {} is missing; run `bash scripts/llama.sh build`, or pass --llm-base-url (and --llm-provider, --llm-model) for another endpoint",
            server.display(),
            model.display()
        );
    }
    Ok((server, model))
}

pub struct LlamaServer {
    child: Child,
    pub port: u16,
    pub model: PathBuf,
}

impl LlamaServer {
    /// Start `server` with `model` on a free loopback port (`threads` CPU threads, a context
    /// of `ctx` tokens, one slot), logging to `log`, and wait up to 3 minutes for `/health`.
    pub fn start(server: &Path, model: &Path, threads: u32, ctx: u32, log: &Path) -> Result<LlamaServer> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let log_file = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
        let child = Command::new(server)
            .arg("-m")
            .arg(model)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--jinja", "-c", &ctx.to_string(), "-np", "1", "-t", &threads.to_string(), "--no-warmup"])
            .stdin(Stdio::null())
            .stdout(Stdio::from(log_file.try_clone()?))
            .stderr(Stdio::from(log_file))
            .spawn()
            .with_context(|| format!("starting {}", server.display()))?;
        let mut me = LlamaServer { child, port, model: model.to_owned() };
        let deadline = Instant::now() + Duration::from_secs(180);
        loop {
            if let Some(status) = me.child.try_wait()? {
                bail!("llama-server exited with {status}: {}", tail(log));
            }
            if health(port) {
                return Ok(me);
            }
            if Instant::now() > deadline {
                bail!("llama-server not ready after 180 s: {}", tail(log));
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// The OpenAI-compatible base URL memval takes (`--llm-base-url`).
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `GET /health` answers 200 once the model is loaded (503 while loading).
fn health(port: u16) -> bool {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else { return false };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    if s.write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").is_err() {
        return false;
    }
    let mut buf = String::new();
    let _ = s.read_to_string(&mut buf);
    buf.starts_with("HTTP/1.1 200")
}

fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}
