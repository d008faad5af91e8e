//! Candidate-pair benchmark (`memval pairs --method keyword`, docs/contracts.md §5), on two corpora of
//! 100,000 memories across 60 agents:
//!
//! - `synthetic`: sentences of common English words around shared project facts (components,
//!   settings, values, choices), each fact told by several agents in their own words, so
//!   near-duplicates and conflicts exist across agents as they do in real memory stores;
//! - `real`: paragraphs of real English text: the Markdown files and `///`/`//!` doc comment
//!   blocks of every crate in the local cargo registry (exact duplicates dropped), one agent
//!   per crate (modulo 60). Used when at least 100,000 blocks are found; else it says so.
//!
//! For each corpus it prints:
//! 1. scale: memval's wall time for `--per-agent 0 --cap 1000` on all 100k memories (median
//!    of --runs; target < 10 s on 2 cores);
//! 2. recall: on a 5k subset, memval's top 500 (`--cap 500`) against this benchmark's own
//!    exhaustive all-pairs pass (its own tokeniser and Jaccard, one thread), with both times
//!    and whether the scores agree;
//! 3. against the seed: memval's time for every pair (`--cap 0`) of 100, 400 and 1,400
//!    memories next to the seed's measured bash loop (25 ms per pair).
//!
//! memval is only ever run as a binary. Usage: pairs [--memval PATH] [--runs N]
//! [--corpus synthetic|real|both] [--memories N] [--keep]
//! Exit status: 0 unless the harness failed (a slow memval is not an error).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use memval_bench::pair_exact::{exhaustive, tokens};
use memval_bench::pair_run::{parse_pairs, run_pairs, write_memories};
use memval_bench::{arg_value, median, memval_binary, registry_src, Rng};

const SEED: u64 = 20_261_201;
const AGENTS: usize = 60;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let memval = memval_binary(&args)?;
    let runs: usize = arg_value(&args, "--runs").map_or(Ok(3), |v| v.parse()).context("--runs")?;
    let n: usize = arg_value(&args, "--memories").map_or(Ok(100_000), |v| v.parse()).context("--memories")?;
    let which = arg_value(&args, "--corpus").unwrap_or_else(|| "both".into());
    let keep = args.iter().any(|a| a == "--keep");
    let dir = tempfile::Builder::new().prefix("memval-pairs-bench").tempdir()?;
    println!("memval: {}", memval.display());
    println!("cores: {}", std::thread::available_parallelism().map_or(0, |n| n.get()));
    if which == "synthetic" || which == "both" {
        let texts = synthetic(n);
        bench("synthetic", &memval, dir.path(), &texts, runs)?;
    }
    if which == "real" || which == "both" {
        let texts = real_text()?;
        if texts.len() < n {
            println!(
                "\nreal: only {} text blocks found in the cargo registry (need {n}); using all of them",
                texts.len()
            );
        }
        let texts: Vec<(String, String)> = texts.into_iter().take(n).collect();
        bench("real", &memval, dir.path(), &texts, runs)?;
    }
    if keep {
        println!("kept: {}", dir.keep().display());
    }
    Ok(())
}

/// Runs the three measurements on `texts` (`(agent, content)`).
fn bench(name: &str, memval: &Path, dir: &Path, texts: &[(String, String)], runs: usize) -> Result<()> {
    let agents: HashSet<&str> = texts.iter().map(|(a, _)| a.as_str()).collect();
    let mean_tokens = texts.iter().map(|(_, t)| tokens(t).len()).sum::<usize>() as f64 / texts.len() as f64;
    println!(
        "\n== {name}: {} memories, {} agents, {mean_tokens:.1} distinct tokens per memory",
        texts.len(),
        agents.len()
    );
    let all = write_memories(dir, &format!("{name}-all.jsonl"), texts)?;

    // 1. Scale.
    let mut times = Vec::new();
    let mut out = Vec::new();
    for _ in 0..runs.max(1) {
        let (secs, stdout) = time_pairs(memval, &all, 1000)?;
        times.push(secs);
        out = stdout;
    }
    let got = parse_pairs(&out)?;
    println!(
        "scale: memval pairs --method keyword --per-agent 0 --cap 1000 on {} memories: {:.2} s (median of {}; runs {:?}); {} pairs, scores {:.3}..{:.3}",
        texts.len(),
        median(times.clone()),
        times.len(),
        times.iter().map(|t| format!("{t:.2}")).collect::<Vec<_>>(),
        got.len(),
        got.first().map_or(0.0, |p| p.2),
        got.last().map_or(0.0, |p| p.2),
    );

    // 2. Recall on a 5k subset (the first 5,000: every agent is in it).
    let sub = &texts[..texts.len().min(5000)];
    let sub_path = write_memories(dir, &format!("{name}-5k.jsonl"), sub)?;
    let (memval_secs, stdout) = time_pairs(memval, &sub_path, 500)?;
    let mine = parse_pairs(&stdout)?;
    let start = Instant::now();
    let exact = exhaustive(sub);
    let exhaustive_secs = start.elapsed().as_secs_f64();
    let top: Vec<&(usize, usize, f64)> = exact.iter().take(500).collect();
    let want: HashSet<(usize, usize)> = top.iter().map(|p| (p.0, p.1)).collect();
    let hit = mine.iter().filter(|p| want.contains(&(p.0, p.1))).count();
    let exact_score: HashMap<(usize, usize), f64> = exact.iter().map(|p| ((p.0, p.1), p.2)).collect();
    // serde_json's default float parser may round the last bit of a 17-digit number, so
    // scores are compared to 1e-12, far below the 1/(union size) steps Jaccard moves in.
    let mismatched: Vec<_> =
        mine.iter().filter(|p| exact_score.get(&(p.0, p.1)).is_none_or(|e| (e - p.2).abs() > 1e-12)).collect();
    let score_mismatch = mismatched.len();
    for p in mismatched.iter().take(3) {
        println!(
            "        score differs: {p:?} exact {:?}: {:?} | {:?}",
            exact_score.get(&(p.0, p.1)),
            sub[p.0].1,
            sub[p.1].1
        );
    }
    println!(
        "recall: 5k subset, {} pairs >= 0.15 in all: top 500 of memval = top 500 of the exhaustive pass: {hit}/{} (recall {:.3}); scores differing from the exact Jaccard: {score_mismatch}",
        exact.len(),
        top.len(),
        hit as f64 / top.len().max(1) as f64
    );
    println!("        memval --cap 500: {memval_secs:.2} s; exhaustive all-pairs ({} pairs, one thread): {exhaustive_secs:.2} s", sub.len() * (sub.len() - 1) / 2);

    // 3. Against the seed's bash loop (25 ms per pair, measured).
    for (size, seed_time) in [(100, "1 min 43 s"), (400, "28 min 38 s"), (1400, "~6 h (estimated)")] {
        let part = &texts[..size.min(texts.len())];
        let path = write_memories(dir, &format!("{name}-{size}.jsonl"), part)?;
        let mut t = Vec::new();
        let mut count = 0;
        for _ in 0..5 {
            let (secs, stdout) = time_pairs(memval, &path, 0)?;
            t.push(secs);
            count = parse_pairs(&stdout)?.len();
        }
        println!("seed: {size:>5} memories: memval {:>7.1} ms (every pair, {count} >= 0.15; median of 5) vs validate-memory {seed_time}", median(t) * 1000.0);
    }
    Ok(())
}

/// Seconds and stdout of `memval pairs` (see [`run_pairs`]).
fn time_pairs(memval: &Path, memories: &Path, cap: usize) -> Result<(f64, Vec<u8>)> {
    run_pairs(memval, memories, cap).map(|r| (r.secs, r.stdout))
}

// ------------------------------------------------------------------------------------------
// Corpora
// ------------------------------------------------------------------------------------------

const COMMON: &[&str] = &[
    "the", "that", "this", "with", "from", "have", "will", "when", "into", "only", "also", "must", "should", "would",
    "there", "their", "which", "about", "after", "before", "every", "other", "some", "more", "than", "then", "them",
    "they", "were", "been", "being", "because", "while", "where", "what", "your", "just", "like", "over", "such",
    "make", "sure", "keep", "always", "never", "still", "already", "again", "once", "each", "both", "same", "used",
    "using", "uses", "need", "needs", "does", "done", "know", "note", "remember", "team", "agreed", "decided", "today",
    "last", "week", "next", "time", "work", "change", "changed", "code", "file", "test", "tests", "run", "runs",
];
const COMPONENTS: &[&str] = &[
    "cache",
    "database",
    "scheduler",
    "gateway",
    "billing",
    "checkout",
    "search",
    "indexer",
    "auth",
    "session",
    "payments",
    "inventory",
    "notifications",
    "mailer",
    "uploader",
    "reports",
    "analytics",
    "webhooks",
    "queue",
    "worker",
    "api",
    "frontend",
    "backend",
    "migrations",
    "logging",
    "metrics",
    "tracing",
    "exporter",
    "importer",
    "catalog",
    "pricing",
    "shipping",
    "orders",
    "accounts",
    "profiles",
    "permissions",
    "audit",
    "storage",
    "cdn",
    "router",
    "parser",
    "renderer",
    "compiler",
    "bundler",
    "linter",
    "formatter",
    "deployer",
    "backup",
    "restore",
];
const SETTINGS: &[&str] = &[
    "timeout",
    "retries",
    "batch_size",
    "pool_size",
    "ttl",
    "max_connections",
    "port",
    "region",
    "replicas",
    "log_level",
    "concurrency",
    "page_size",
    "rate_limit",
    "buffer",
    "shards",
    "threshold",
    "interval",
    "window",
];
const CHOICES: &[&str] = &[
    "postgresql",
    "sqlite",
    "redis",
    "memcached",
    "kafka",
    "rabbitmq",
    "nats",
    "grpc",
    "graphql",
    "rest",
    "react",
    "svelte",
    "vue",
    "tokio",
    "actix",
    "axum",
    "docker",
    "kubernetes",
    "terraform",
    "ansible",
    "jest",
    "vitest",
    "pytest",
    "cargo",
    "bazel",
    "webpack",
    "vite",
    "esbuild",
    "nginx",
    "caddy",
    "stripe",
    "paypal",
    "sentry",
];
const VERBS: &[&str] = &[
    "handles",
    "owns",
    "calls",
    "wraps",
    "validates",
    "retries",
    "batches",
    "caches",
    "logs",
    "emits",
    "reads",
    "writes",
];

/// One project fact, told in different words by different agents.
struct Fact {
    component: &'static str,
    setting: &'static str,
    value: u32,
    choice: &'static str,
    verb: &'static str,
    other: &'static str,
    file: String,
}

fn synthetic(n: usize) -> Vec<(String, String)> {
    let mut rng = Rng::derive(SEED, "pairs-synthetic");
    let facts: Vec<Fact> = (0..n / 4)
        .map(|i| {
            let component = rng.pick(COMPONENTS);
            Fact {
                component,
                setting: rng.pick::<&str>(SETTINGS),
                value: [1, 2, 3, 5, 10, 30, 60, 100, 250, 500, 1000, 8080][rng.below(12)] * (1 + rng.below(4) as u32),
                choice: rng.pick::<&str>(CHOICES),
                verb: rng.pick::<&str>(VERBS),
                other: rng.pick::<&str>(COMPONENTS),
                file: format!("src/{component}/{}_{}.rs", rng.pick(SETTINGS), i % 97),
            }
        })
        .collect();
    // Facts are Zipf-like: a few are told by many agents, most by one or two.
    let pick_fact = |rng: &mut Rng| {
        let r = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        ((facts.len() as f64).powf(r) as usize).saturating_sub(1).min(facts.len() - 1)
    };
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let agent = format!("agent-{:02}", i % AGENTS);
        let mut sentences = Vec::new();
        for _ in 0..rng.range(1, 3) {
            let f = &facts[pick_fact(&mut rng)];
            let value = if rng.chance(0.1) { f.value * 2 } else { f.value };
            let choice = if rng.chance(0.1) { rng.pick(CHOICES) } else { f.choice };
            let s = match rng.below(6) {
                0 => format!("The {} {} the {} and its {} is {value}.", f.component, f.verb, f.other, f.setting),
                1 => format!(
                    "We decided to use {choice} for the {} because it {} the {} requests.",
                    f.component, f.verb, f.other
                ),
                2 => format!(
                    "Remember that {} in {} must stay at {value}; the {} service depends on it.",
                    f.setting, f.file, f.component
                ),
                3 => format!("{} {} {} with {choice}, see {}.", capital(f.component), f.verb, f.other, f.file),
                4 => format!(
                    "Never change the {} {} without asking the team: {} breaks when it is not {value}.",
                    f.component, f.setting, f.other
                ),
                _ => format!("The team rejected {choice} for the {}; {} stays as it is.", f.component, f.other),
            };
            sentences.push(s);
        }
        // Filler: common words around the facts, as people write them.
        let filler: Vec<&str> = (0..rng.range(0, 10)).map(|_| *rng.pick(COMMON)).collect();
        if !filler.is_empty() {
            sentences.push(capital(&filler.join(" ")) + ".");
        }
        rng.shuffle(&mut sentences);
        out.push((agent, sentences.join(" ")));
    }
    out
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// Paragraphs of Markdown and doc-comment blocks from the local cargo registry, one agent per
/// crate (modulo [`AGENTS`]), exact duplicates dropped, in a deterministic shuffled order.
fn real_text() -> Result<Vec<(String, String)>> {
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
        walk(krate, &mut files);
        files.sort();
        for file in files {
            let Ok(text) = std::fs::read_to_string(&file) else { continue };
            let blocks = if file.extension().is_some_and(|e| e == "md") { md_blocks(&text) } else { doc_blocks(&text) };
            for b in blocks {
                if b.len() >= 40 && tokens(&b).len() >= 3 && seen.insert(b.clone()) {
                    out.push((agent.clone(), b));
                }
            }
        }
    }
    let mut rng = Rng::derive(SEED, "pairs-real");
    rng.shuffle(&mut out);
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            walk(&p, out);
        } else if ft.is_file() && p.extension().is_some_and(|x| x == "md" || x == "rs") {
            out.push(p);
        }
    }
}

fn md_blocks(text: &str) -> Vec<String> {
    text.split("\n\n")
        .map(|b| b.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|b| !b.starts_with("```"))
        .collect()
}

fn doc_blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        let doc = t.strip_prefix("///").or_else(|| t.strip_prefix("//!"));
        match doc {
            Some(d) if !d.trim().is_empty() => cur.push(d.trim()),
            _ => {
                if !cur.is_empty() {
                    out.push(cur.join(" "));
                    cur.clear();
                }
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur.join(" "));
    }
    out
}
