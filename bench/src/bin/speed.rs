//! Speed benchmark: memval end to end on every crate source in the local cargo registry
//! (`~/.cargo/registry/src`, over a million lines), with more than 100,000 claims, against a
//! grep-per-claim baseline and a single-grep floor.
//!
//! 1. Count the tree's lines (must be at least 1,000,000).
//! 2. Generate memories (8 references each, one per bullet) from the tree itself: existing
//!    paths, `path:line` references, backticked symbols with their file, and a fraction of
//!    paths and symbols that do not exist. Symbols are found with the benchmark's own
//!    regexes, not with memval.
//! 3. Run `memval validate --format json` once to read how many claims it checked (and to
//!    warm the page cache), then 3 timed runs with stdout to /dev/null; report the median.
//! 4. Baseline: one `grep` per claim on a random sample of claims (`grep -rnw SYMBOL TREE`
//!    for symbols, `grep -rn --fixed-strings BASENAME TREE` for paths), median per claim,
//!    extrapolated linearly to the full claim count. grep's output is read through a pipe
//!    (GNU grep stops at the first match when its stdout is /dev/null).
//! 5. Floor: one `grep -r -c RARE_STRING TREE` pass, median of 3.
//!
//! Usage: speed [--memval PATH] [--seed N] [--memories N] [--runs N] [--sample N] [--keep]
//! Exit status: 0 unless the harness failed (a slow memval is not an error).

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use memval_bench::{arg_value, defs_for, median, memval_binary, registry_src, run_memval, walk_files, Lang, Rng};
use rayon::prelude::*;
use serde_json::{json, Value};

const DEFAULT_SEED: u64 = 20_260_201;
const REFS_PER_MEMORY: usize = 8;
const RARE: &str = "memval-floor-q7Zx3kP9w";

const DESCS: [&str; 8] = [
    "is where the work happens",
    "was touched in the last refactor",
    "must stay in sync with the docs",
    "is the first place to look when tests fail",
    "is on the hot path",
    "has tricky edge cases",
    "was reviewed twice",
    "is covered by the integration tests",
];
const FAB_A: [&str; 10] = ["shard", "tombstone", "quorum", "gossip", "lease", "beacon", "spillover", "lantern", "orchid", "watermark"];
const FAB_B: [&str; 8] = ["planner", "tracker", "broker", "harvester", "sweeper", "governor", "janitor", "warden"];

struct FileInfo {
    path: String,
    lines: usize,
    defs: Vec<(String, u32)>,
}

#[derive(Clone)]
enum Ref {
    Path(String),
    PathLine(String, usize),
    Symbol(String, String),
    MissingPath(String),
    MissingSymbol(String, String),
}

impl Ref {
    fn kind(&self) -> &'static str {
        match self {
            Ref::Path(_) => "path",
            Ref::PathLine(..) => "path:line",
            Ref::Symbol(..) => "symbol",
            Ref::MissingPath(_) => "missing path",
            Ref::MissingSymbol(..) => "missing symbol",
        }
    }
    fn render(&self, rng: &mut Rng) -> String {
        let d = rng.pick(&DESCS);
        match self {
            Ref::Path(p) | Ref::MissingPath(p) => format!("`{p}` {d}"),
            Ref::PathLine(p, n) => format!("`{p}:{n}` {d}"),
            Ref::Symbol(s, p) | Ref::MissingSymbol(s, p) => format!("`{s}` in `{p}` {d}"),
        }
    }
    /// The baseline command an agent without memval would run for this claim.
    fn baseline(&self, root: &Path) -> Command {
        let mut c = Command::new("grep");
        match self {
            Ref::Symbol(s, _) | Ref::MissingSymbol(s, _) => {
                c.args(["-rnw", "--", s]).arg(root);
            }
            Ref::Path(p) | Ref::PathLine(p, _) | Ref::MissingPath(p) => {
                c.args(["-rn", "--fixed-strings", "--", base(p)]).arg(root);
            }
        }
        c
    }
    fn path(&self) -> Option<&str> {
        match self {
            Ref::Path(p) | Ref::PathLine(p, _) | Ref::MissingPath(p) => Some(p),
            _ => None,
        }
    }
}

fn base(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// Run a command with stdout drained through a pipe; seconds elapsed.
fn time_piped(mut cmd: Command) -> Result<f64> {
    let start = Instant::now();
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().context("spawning baseline command")?;
    let mut sink = Vec::new();
    let mut out = child.stdout.take().unwrap();
    let mut buf = [0u8; 1 << 16];
    loop {
        let n = out.read(&mut buf)?;
        if n == 0 {
            break;
        }
        if sink.len() < (1 << 20) {
            sink.extend_from_slice(&buf[..n]);
        }
    }
    child.wait()?;
    Ok(start.elapsed().as_secs_f64())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("speed: harness error: {e:#}");
        std::process::exit(2);
    }
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("usage: speed [--memval PATH] [--seed N] [--memories N] [--runs N] [--sample N] [--keep]");
        return Ok(());
    }
    let memval = memval_binary(&args)?;
    let seed: u64 = arg_value(&args, "--seed").map(|s| s.parse()).transpose()?.unwrap_or(DEFAULT_SEED);
    let n_memories: usize = arg_value(&args, "--memories").map(|s| s.parse()).transpose()?.unwrap_or(12_800);
    let runs: usize = arg_value(&args, "--runs").map(|s| s.parse()).transpose()?.unwrap_or(3);
    let sample: usize = arg_value(&args, "--sample").map(|s| s.parse()).transpose()?.unwrap_or(40);
    let keep = args.iter().any(|a| a == "--keep");
    let started = Instant::now();
    // The tree is every crate source of the registry: `~/.cargo/registry/src/*/`. With a
    // single registry index (the usual case) that folder itself is the repo root, so paths
    // read `tokio-1.54.1/src/lib.rs`; with several, their parent is.
    let src = registry_src()?;
    let mut indexes: Vec<PathBuf> = std::fs::read_dir(&src)?.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    indexes.sort();
    let root: PathBuf = if indexes.len() == 1 { indexes.remove(0) } else { src };
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);

    println!("memval speed benchmark");
    println!("  memval:  {}", memval.display());
    println!("  date:    {}", chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"));
    println!("  cores:   {cores}");
    println!("  seed:    {seed}");

    // --- (a) the tree ----------------------------------------------------------------------
    let t0 = Instant::now();
    let all = walk_files(&root)?;
    let infos: Vec<(String, Option<usize>, u64, Vec<(String, u32)>)> = all
        .par_iter()
        .map(|rel| {
            let full = root.join(rel);
            let bytes = std::fs::read(&full).unwrap_or_default();
            let size = bytes.len() as u64;
            if bytes[..bytes.len().min(8192)].contains(&0) {
                return (rel.clone(), None, size, Vec::new());
            }
            let lines = bytes.iter().filter(|&&b| b == b'\n').count() + usize::from(!bytes.is_empty() && !bytes.ends_with(b"\n"));
            let defs = if Lang::of(rel).is_some() && size <= 2 << 20 {
                let text = String::from_utf8_lossy(&bytes);
                defs_for(rel, &text).into_iter().map(|d| (d.name, d.line)).collect()
            } else {
                Vec::new()
            };
            (rel.clone(), Some(lines), size, defs)
        })
        .collect();
    let total_lines: usize = infos.iter().filter_map(|i| i.1).sum();
    let total_bytes: u64 = infos.iter().map(|i| i.2).sum();
    let text_files = infos.iter().filter(|i| i.1.is_some()).count();
    let rs_lines: usize = infos.iter().filter(|i| i.0.ends_with(".rs")).filter_map(|i| i.1).sum();
    println!("\n(a) tree: {}", root.display());
    println!(
        "    {} files ({} text), {:.1} MB, {} lines of text ({} in .rs files); scanned in {:.1}s",
        all.len(),
        text_files,
        total_bytes as f64 / 1e6,
        total_lines,
        rs_lines,
        t0.elapsed().as_secs_f64()
    );
    if total_lines < 1_000_000 {
        bail!("the tree has {total_lines} lines; the benchmark needs at least 1,000,000");
    }

    // --- (b) memories ----------------------------------------------------------------------
    // Files memval indexes by default: no hidden path component.
    let visible = |p: &str| !p.split('/').any(|c| c.starts_with('.')) && !p.contains(' ') && !p.contains('`');
    let files: Vec<FileInfo> = infos
        .into_iter()
        .filter(|i| i.1.is_some_and(|l| l > 0) && visible(&i.0) && i.2 <= 2 << 20)
        .map(|(path, lines, _, defs)| FileInfo { path, lines: lines.unwrap(), defs })
        .collect();
    let with_defs: Vec<usize> = (0..files.len()).filter(|&i| files[i].defs.iter().any(|d| d.0.len() >= 4)).collect();
    let dirs: Vec<String> = {
        let mut d: Vec<String> = files.iter().filter_map(|f| f.path.rsplit_once('/').map(|x| x.0.to_owned())).collect();
        d.sort();
        d.dedup();
        d
    };
    let mut rng = Rng::new(seed);
    let mut memories: Vec<Vec<Ref>> = Vec::with_capacity(n_memories);
    for _ in 0..n_memories {
        let mut refs = Vec::with_capacity(REFS_PER_MEMORY);
        while refs.len() < REFS_PER_MEMORY {
            let r = rng.below(100);
            let f = &files[rng.below(files.len())];
            let fab = format!("{}_{}", rng.pick(&FAB_A), rng.pick(&FAB_B));
            let rf = match r {
                0..=29 => Ref::Path(f.path.clone()),
                30..=54 => Ref::PathLine(f.path.clone(), rng.range(1, f.lines)),
                55..=84 => {
                    let g = &files[with_defs[rng.below(with_defs.len())]];
                    let defs: Vec<&(String, u32)> = g.defs.iter().filter(|d| d.0.len() >= 4).collect();
                    let d = defs[rng.below(defs.len())];
                    Ref::Symbol(d.0.clone(), g.path.clone())
                }
                85..=92 => Ref::MissingPath(format!("{}/{fab}.rs", rng.pick(&dirs))),
                _ => {
                    let g = &files[with_defs[rng.below(with_defs.len())]];
                    let camel: String = fab.split('_').map(|w| w[..1].to_ascii_uppercase() + &w[1..]).collect();
                    Ref::MissingSymbol(camel, g.path.clone())
                }
            };
            // One reference per file per memory, so no two claims of a memory collapse.
            if refs.iter().any(|x: &Ref| ref_file(x) == ref_file(&rf)) {
                continue;
            }
            refs.push(rf);
        }
        memories.push(refs);
    }
    let total_refs = memories.len() * REFS_PER_MEMORY;
    let tmp = tempfile::Builder::new().prefix("memval-speed-").tempdir()?;
    let mem_path = tmp.path().join("memories.jsonl");
    let mut jsonl = String::with_capacity(total_refs * 120);
    let agents = ["claude", "codex", "cursor", "aider"];
    for (i, refs) in memories.iter().enumerate() {
        let mut content = String::from("Notes from the last session:");
        for r in refs {
            content.push_str("\n- ");
            content.push_str(&r.render(&mut rng));
        }
        let line = json!({
            "id": format!("speed-{:05}", i + 1),
            "agent": agents[i % agents.len()],
            "content": content,
            "tier": (i % 3) as u8,
            "type": "memory",
            "created_at": "2026-02-01T00:00:00Z",
        });
        jsonl.push_str(&line.to_string());
        jsonl.push('\n');
    }
    std::fs::write(&mem_path, &jsonl)?;
    let mut kinds: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in memories.iter().flatten() {
        *kinds.entry(r.kind()).or_default() += 1;
    }
    println!("\n(b) memories: {} memories x {REFS_PER_MEMORY} references = {total_refs} references ({:.1} MB of JSONL)", memories.len(), jsonl.len() as f64 / 1e6);
    println!("    mix: {}", kinds.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", "));

    // --- (c) memval ------------------------------------------------------------------------
    println!("\n(c) memval validate --repo {} --memories {} --format json --fail-on never --store TMP --quiet", root.display(), mem_path.display());
    let store0 = tmp.path().join("store-0");
    let first = run_memval(&memval, &root, &mem_path, &store0, false)?;
    if !matches!(first.status.code(), Some(0 | 1)) {
        bail!("memval failed ({}): {}", first.status, first.stderr.lines().take(10).collect::<Vec<_>>().join("\n"));
    }
    let report: Value = serde_json::from_slice(&first.stdout).context("memval's output is not JSON")?;
    let r = &report["run"];
    let claims = r["claims"].as_u64().unwrap_or(0) as usize;
    let checked = r["checked"].as_u64().unwrap_or(0) as usize;
    let not_checked = r["not_checked"].as_u64().unwrap_or(0) as usize;
    let scored_memories = r["memories"].as_u64().unwrap_or(0);
    println!(
        "    run 0 (reads the report; not in the median): {:.2}s; {} memories, {} claims ({} checked, {} not checked); verdicts {}",
        first.elapsed.as_secs_f64(),
        scored_memories,
        claims,
        checked,
        not_checked,
        r["verdicts"]
    );
    drop(report);
    let mut times = Vec::new();
    for i in 1..=runs {
        let store = tmp.path().join(format!("store-{i}"));
        let run = run_memval(&memval, &root, &mem_path, &store, true)?;
        if !matches!(run.status.code(), Some(0 | 1)) {
            bail!("memval failed in run {i} ({}): {}", run.status, run.stderr.lines().take(10).collect::<Vec<_>>().join("\n"));
        }
        println!("    run {i}: {:.2}s", run.elapsed.as_secs_f64());
        times.push(run.elapsed.as_secs_f64());
        let _ = std::fs::remove_dir_all(&store);
    }
    let memval_s = median(times.clone());
    println!("    median of {runs}: {memval_s:.2}s ({:.0} claims/s)", claims as f64 / memval_s);

    // --- (d) baseline: a grep per claim ------------------------------------------------------
    let flat: Vec<&Ref> = memories.iter().flatten().collect();
    let mut srng = Rng::derive(seed, "baseline-sample");
    let mut picks: Vec<usize> = (0..flat.len()).collect();
    srng.shuffle(&mut picks);
    picks.truncate(sample);
    println!("\n(d) baseline: one grep per claim on {} sampled claims", picks.len());
    println!("    symbol: grep -rnw SYMBOL TREE; path, path:line: grep -rn --fixed-strings BASENAME TREE (output read through a pipe)");
    let mut per = Vec::new();
    let mut per_find = Vec::new();
    let mut by_kind: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    for &i in &picks {
        let r = flat[i];
        let s = time_piped(r.baseline(&root))?;
        by_kind.entry(r.kind()).or_default().push(s);
        per.push(s);
        // Conservative variant: `find TREE -name BASENAME` for path claims.
        if let Some(p) = r.path() {
            let mut c = Command::new("find");
            c.arg(&root).args(["-name", base(p)]);
            per_find.push(time_piped(c)?);
        } else {
            per_find.push(s);
        }
    }
    for (k, v) in &by_kind {
        println!("    {k:<15} {:>3} claims, median {:.3}s", v.len(), median(v.clone()));
    }
    let per_claim = median(per.clone());
    let mean = per.iter().sum::<f64>() / per.len().max(1) as f64;
    let basis = if claims > 0 { claims } else { total_refs };
    let baseline_s = per_claim * basis as f64;
    let per_claim_find = median(per_find.clone());
    let baseline_find_s = per_claim_find * basis as f64;
    println!("    median {per_claim:.3}s per claim (mean {mean:.3}s)");
    println!(
        "    extrapolated linearly to {basis} claims: {baseline_s:.0}s ({:.1} h)  [estimate: {} greps were run, not {basis}]",
        baseline_s / 3600.0,
        picks.len()
    );
    println!("    conservative variant (find -name for path claims): median {per_claim_find:.3}s per claim, {baseline_find_s:.0}s extrapolated");

    // --- (e) floor: one grep over the tree ----------------------------------------------------
    let mut floor = Vec::new();
    for _ in 0..3 {
        let mut c = Command::new("grep");
        c.args(["-r", "-c", RARE]).arg(&root);
        floor.push(time_piped(c)?);
    }
    let floor_s = median(floor.clone());
    println!("\n(e) floor: grep -r -c {RARE} TREE: {:?} -> median {floor_s:.2}s", floor.iter().map(|x| format!("{x:.2}")).collect::<Vec<_>>());

    // --- summary ---------------------------------------------------------------------------
    println!("\nsummary ({cores} cores, {total_lines} lines; {total_refs} references written, {claims} claims in memval's report, {checked} of them checked)");
    println!("  memval end to end (median of {runs}):   {memval_s:>10.2} s");
    println!("  grep per claim, extrapolated:           {baseline_s:>10.0} s   -> baseline/memval = {:.0}x (target >= 20x)", baseline_s / memval_s);
    println!("  same, find for path claims:             {baseline_find_s:>10.0} s   -> {:.0}x", baseline_find_s / memval_s);
    println!("  floor, one grep -r pass (median of 3):  {floor_s:>10.2} s   -> memval/floor = {:.1}", memval_s / floor_s);
    println!("  total benchmark time: {:.0}s", started.elapsed().as_secs_f64());
    if keep {
        let p = tmp.keep();
        println!("  work directory kept: {}", p.display());
    }
    Ok(())
}

fn ref_file(r: &Ref) -> &str {
    match r {
        Ref::Path(p) | Ref::PathLine(p, _) | Ref::MissingPath(p) => p,
        Ref::Symbol(_, p) | Ref::MissingSymbol(_, p) => p,
    }
}
