//! Running `memval pairs --method keyword` from a pair benchmark: corpora written as JSONL,
//! the binary timed (wall clock) with its peak resident memory (`/usr/bin/time -f %M`, when
//! present), and its JSONL read back as `(id_a, id_b, score)`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

/// One run of `memval pairs`.
pub struct PairsRun {
    pub secs: f64,
    /// Peak resident set size in KiB, when `/usr/bin/time` could measure it.
    pub peak_kib: Option<u64>,
    pub stdout: Vec<u8>,
}

/// `memval pairs --method keyword --per-agent 0 --cap CAP --format jsonl --memories FILE`,
/// timed; its peak RSS measured through `/usr/bin/time` when that exists.
pub fn run_pairs(memval: &Path, memories: &Path, cap: usize) -> Result<PairsRun> {
    let time = Path::new("/usr/bin/time");
    let report = tempfile::NamedTempFile::new()?;
    let mut cmd = if time.is_file() {
        let mut c = Command::new(time);
        c.args(["-f", "%M", "-o"]).arg(report.path()).arg(memval);
        c
    } else {
        Command::new(memval)
    };
    cmd.args(["pairs", "--method", "keyword", "--per-agent", "0", "--format", "jsonl", "--cap", &cap.to_string()])
        .arg("--memories")
        .arg(memories)
        .stdin(Stdio::null());
    let start = Instant::now();
    let out = cmd.output().context("running memval pairs")?;
    let secs = start.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!("memval pairs failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let peak_kib = std::fs::read_to_string(report.path()).ok().and_then(|s| s.trim().lines().last()?.parse().ok());
    Ok(PairsRun { secs, peak_kib, stdout: out.stdout })
}

/// `(id_a, id_b, score)` of memval's JSONL.
pub fn parse_pairs(stdout: &[u8]) -> Result<Vec<(usize, usize, f64)>> {
    let text = std::str::from_utf8(stdout)?;
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l)?;
            let id = |k: &str| v[k].as_u64().map(|x| x as usize).with_context(|| format!("{k} in {l}"));
            Ok((id("id_a")?, id("id_b")?, v["score"].as_f64().context("score")?))
        })
        .collect()
}

/// `texts` (`(agent, content)`) as a JSONL memory file `dir/name`, ids `0..`.
pub fn write_memories(dir: &Path, name: &str, texts: &[(String, String)]) -> Result<PathBuf> {
    let path = dir.join(name);
    let mut s = String::new();
    for (i, (agent, content)) in texts.iter().enumerate() {
        s.push_str(&json!({"id": i, "agent": agent, "content": content, "tier": i % 3, "type": "memory", "created_at": "2026-11-01T00:00:00Z"}).to_string());
        s.push('\n');
    }
    std::fs::write(&path, s)?;
    Ok(path)
}
