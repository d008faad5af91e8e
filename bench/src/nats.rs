//! A private `nats-server` for a benchmark: its own port (`-p -1`, read from its log) and
//! store directory, killed on drop. Readiness is the server's own "Server is ready" line.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// `$NATS_SERVER`, else `nats-server` on PATH, else Debian's `/usr/sbin/nats-server`.
pub fn nats_server_bin() -> Result<PathBuf> {
    if let Some(bin) = std::env::var_os("NATS_SERVER") {
        return Ok(PathBuf::from(bin));
    }
    let on_path = std::env::var_os("PATH")
        .and_then(|p| std::env::split_paths(&p).map(|d| d.join("nats-server")).find(|c| c.is_file()));
    let bin = on_path.unwrap_or_else(|| PathBuf::from("/usr/sbin/nats-server"));
    if !bin.is_file() {
        bail!("nats-server not found: install it (apt-get install -y nats-server) or set NATS_SERVER");
    }
    Ok(bin)
}

pub struct NatsServer {
    child: Child,
    pub port: u16,
    pub version: String,
}

impl NatsServer {
    /// Start a JetStream server on loopback with its store under `dir`.
    pub fn start(dir: &Path) -> Result<NatsServer> {
        let bin = nats_server_bin()?;
        let mut child = Command::new(&bin)
            .args(["-a", "127.0.0.1", "-p", "-1", "-js", "-sd"])
            .arg(dir.join("js"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", bin.display()))?;
        let stderr = child.stderr.take().context("nats-server stderr")?;
        let (tx, rx) = mpsc::channel::<String>();
        let log = dir.join("nats-server.log");
        std::thread::spawn(move || {
            use std::io::Write;
            let mut file = std::fs::File::create(log).ok();
            for line in BufReader::new(stderr).lines().map_while(|l| l.ok()) {
                if let Some(f) = file.as_mut() {
                    let _ = writeln!(f, "{line}");
                }
                let _ = tx.send(line);
            }
        });
        let deadline = Instant::now() + Duration::from_secs(30);
        let (mut port, mut version, mut ready) = (None, String::new(), false);
        let mut seen = Vec::new();
        while port.is_none() || !ready {
            let line = match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => line,
                Err(_) => {
                    let _ = child.kill();
                    bail!("nats-server did not become ready:\n{}", seen.join("\n"));
                }
            };
            if let Some(rest) = line.split("Listening for client connections on ").nth(1) {
                port = rest.trim().rsplit(':').next().and_then(|p| p.parse::<u16>().ok());
            }
            if let Some(rest) = line.split("Version:").nth(1) {
                version = rest.trim().to_owned();
            }
            ready |= line.contains("Server is ready");
            seen.push(line);
        }
        Ok(NatsServer { child, port: port.unwrap(), version })
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
