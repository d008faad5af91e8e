//! Embed benchmark (`memval pairs --method embed`, issue 10): how fast memories are embedded
//! on this machine, and what the embedding cache saves on the next run.
//!
//! Memories are real English sentences: the first sentence (40-300 characters) of every
//! `///`/`//!` doc comment block in the local cargo registry, exact duplicates dropped, one
//! agent per crate (modulo 50), in a deterministic shuffled order. It prints:
//! 1. cold: `memval pairs --method embed --per-agent 0 --cap 1000` with an empty store:
//!    wall time, texts embedded, memories per second (model load and pair search included);
//! 2. warm: the same run again (median of --runs): every embedding from the cache;
//! 3. 1% changed: the same memories with 1% of the texts edited: only those are embedded;
//! 4. search: the cosine top-k alone ([`memval_embed::similar::top_pairs`], in this process)
//!    on random 384-d unit vectors of 5k, 10k and 20k memories, to show how the quadratic
//!    search grows (the cache removes the embedding cost, not this one).
//!
//! Usage: embed [--memval PATH] [--embed-model DIR] [--memories N] [--runs N] [--keep]
//! (the model defaults to MEMVAL_EMBED_MODEL). Exit status: 0 unless the harness failed.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use memval_bench::{arg_value, median, memval_binary, registry_src, Rng};
use serde_json::json;

const SEED: u64 = 20_261_202;
const AGENTS: usize = 50;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let memval = memval_binary(&args)?;
    let n: usize = arg_value(&args, "--memories").map_or(Ok(2000), |v| v.parse()).context("--memories")?;
    let runs: usize = arg_value(&args, "--runs").map_or(Ok(3), |v| v.parse()).context("--runs")?;
    let model = arg_value(&args, "--embed-model")
        .or_else(|| std::env::var("MEMVAL_EMBED_MODEL").ok())
        .context("pass --embed-model DIR or set MEMVAL_EMBED_MODEL (bash scripts/embed-model.sh prints the folder)")?;
    let dir = tempfile::Builder::new().prefix("memval-embed-bench").tempdir()?;
    println!("memval: {}", memval.display());
    println!("cores: {}", std::thread::available_parallelism().map_or(0, |n| n.get()));
    let mut texts = sentences()?;
    if texts.len() < n {
        println!("only {} sentences found in the cargo registry (asked for {n}); using all of them", texts.len());
    }
    texts.truncate(n);
    let agents: HashSet<&str> = texts.iter().map(|(a, _)| a.as_str()).collect();
    let chars = texts.iter().map(|(_, t)| t.chars().count()).sum::<usize>() as f64 / texts.len().max(1) as f64;
    println!("\n== {} memories, {} agents, {chars:.0} characters per memory on average", texts.len(), agents.len());
    let memories = write(dir.path(), "memories.jsonl", &texts)?;
    let store = dir.path().join("store");

    let cold = run(&memval, &memories, &store, &model)?;
    println!(
        "cold:  {:.2} s, {} texts embedded, {} from the cache: {:.1} memories/s (model load and pair search included); {} pairs",
        cold.secs,
        cold.embedded,
        cold.cached,
        cold.embedded as f64 / cold.secs,
        cold.pairs
    );
    if cold.cached != 0 {
        bail!("the cold run found a warm cache: {}", cold.stderr);
    }
    let mut warm = Vec::new();
    for _ in 0..runs.max(1) {
        let w = run(&memval, &memories, &store, &model)?;
        if w.embedded != 0 || w.pairs != cold.pairs {
            bail!(
                "the warm run embedded {} texts / gave {} pairs (cold {}): {}",
                w.embedded,
                w.pairs,
                cold.pairs,
                w.stderr
            );
        }
        warm.push(w.secs);
    }
    let warm_median = median(warm.clone());
    println!(
        "warm:  {warm_median:.2} s (median of {}; runs {:?}): 0 embedded, {} from the cache; {:.1}x faster than cold",
        warm.len(),
        warm.iter().map(|t| format!("{t:.2}")).collect::<Vec<_>>(),
        cold.cached.max(cold.embedded),
        cold.secs / warm_median
    );
    let mut changed = texts.clone();
    let step = 100;
    for (i, t) in changed.iter_mut().enumerate().filter(|(i, _)| i % step == 0) {
        t.1 = format!("{} (revised {i})", t.1);
    }
    let edited = write(dir.path(), "memories-edited.jsonl", &changed)?;
    let e = run(&memval, &edited, &store, &model)?;
    println!("1% changed: {:.2} s, {} texts embedded, {} from the cache", e.secs, e.embedded, e.cached);

    for size in [5_000usize, 10_000, 20_000] {
        let mut rng = Rng::derive(SEED, "vectors");
        let vectors: Vec<Vec<f32>> = (0..size)
            .map(|_| {
                let v: Vec<f32> = (0..memval_embed::DIMENSION).map(|_| rng.below(2001) as f32 / 1000.0 - 1.0).collect();
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                v.into_iter().map(|x| x / norm).collect()
            })
            .collect();
        let groups: Vec<u32> = (0..size as u32).map(|i| i % AGENTS as u32).collect();
        let start = Instant::now();
        let found = memval_embed::similar::top_pairs(&vectors, &groups, 0.55, Some(1000), |_, _| false, |_, _| {})?;
        println!(
            "search: {size:>6} vectors: {:.2} s for {} cosines ({:.0} M/s), {} pairs >= 0.55",
            start.elapsed().as_secs_f64(),
            found.compared,
            found.compared as f64 / start.elapsed().as_secs_f64() / 1e6,
            found.pairs.len()
        );
    }
    if args.iter().any(|a| a == "--keep") {
        println!("kept: {}", dir.keep().display());
    }
    Ok(())
}

struct Run {
    secs: f64,
    embedded: usize,
    cached: usize,
    pairs: usize,
    stderr: String,
}

fn run(memval: &Path, memories: &Path, store: &Path, model: &str) -> Result<Run> {
    let start = Instant::now();
    let out = Command::new(memval)
        .args([
            "pairs",
            "--method",
            "embed",
            "--per-agent",
            "0",
            "--cap",
            "1000",
            "--format",
            "jsonl",
            "--embed-model",
            model,
            "--memories",
        ])
        .arg(memories)
        .arg("--store")
        .arg(store)
        .stdin(Stdio::null())
        .output()
        .context("running memval pairs")?;
    let secs = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        bail!("memval pairs failed: {stderr}");
    }
    // "memval: embed: N texts embedded, M from the cache (...)"
    let line = stderr
        .lines()
        .find(|l| l.starts_with("memval: embed: "))
        .with_context(|| format!("no embed line in: {stderr}"))?;
    let nums: Vec<usize> = line.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).take(2).collect();
    let [embedded, cached] = nums[..] else { bail!("cannot read {line}") };
    Ok(Run { secs, embedded, cached, pairs: out.stdout.iter().filter(|b| **b == b'\n').count(), stderr })
}

fn write(dir: &Path, name: &str, texts: &[(String, String)]) -> Result<PathBuf> {
    let path = dir.join(name);
    let mut s = String::new();
    for (i, (agent, content)) in texts.iter().enumerate() {
        s.push_str(&json!({"id": i, "agent": agent, "content": content}).to_string());
        s.push('\n');
    }
    std::fs::write(&path, s)?;
    Ok(path)
}

/// The first sentence of each doc comment block in the cargo registry, as `(agent, text)`.
fn sentences() -> Result<Vec<(String, String)>> {
    let root = registry_src()?;
    let mut crates: Vec<PathBuf> = Vec::new();
    for index in std::fs::read_dir(&root)? {
        for krate in std::fs::read_dir(index?.path())? {
            crates.push(krate?.path());
        }
    }
    crates.sort();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (k, krate) in crates.iter().enumerate() {
        let agent = format!("crate-agent-{:02}", k % AGENTS);
        let mut files = Vec::new();
        rust_files(krate, &mut files);
        files.sort();
        for file in files {
            let Ok(text) = std::fs::read_to_string(&file) else { continue };
            let mut block: Vec<&str> = Vec::new();
            for line in text.lines().chain(std::iter::once("")) {
                let t = line.trim_start();
                match t.strip_prefix("///").or_else(|| t.strip_prefix("//!")).map(str::trim) {
                    Some(d) if !d.is_empty() => block.push(d),
                    _ if !block.is_empty() => {
                        let joined = block.join(" ");
                        block.clear();
                        let first = joined.split_inclusive(". ").next().unwrap_or("").trim().to_owned();
                        if (40..=300).contains(&first.len()) && seen.insert(first.clone()) {
                            out.push((agent.clone(), first));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let mut rng = Rng::derive(SEED, "embed-sentences");
    rng.shuffle(&mut out);
    Ok(out)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            rust_files(&p, out);
        } else if ft.is_file() && p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}
