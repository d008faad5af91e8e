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
use memval_bench::memories::{self as gen, Ref, REFS_PER_MEMORY};
use memval_bench::{arg_value, median, memval_binary, registry_src, run_memval, Rng};
use serde_json::Value;

const DEFAULT_SEED: u64 = 20_260_201;
const RARE: &str = "memval-floor-q7Zx3kP9w";

/// The baseline command an agent without memval would run for this claim.
fn baseline(r: &Ref, root: &Path) -> Command {
    let mut c = Command::new("grep");
    match r {
        Ref::Symbol(s, _) | Ref::MissingSymbol(s, _) => {
            c.args(["-rnw", "--", s]).arg(root);
        }
        Ref::Path(p) | Ref::PathLine(p, _) | Ref::MissingPath(p) => {
            c.args(["-rn", "--fixed-strings", "--", base(p)]).arg(root);
        }
    }
    c
}

fn base(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// Run a command with stdout drained through a pipe; seconds elapsed.
fn time_piped(mut cmd: Command) -> Result<f64> {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("spawning baseline command")?;
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
    let mut indexes: Vec<PathBuf> =
        std::fs::read_dir(&src)?.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
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
    let tree = gen::scan(&root)?;
    let (total_lines, total_bytes, text_files, rs_lines) =
        (tree.total_lines, tree.total_bytes, tree.text_files, tree.rs_lines);
    println!("\n(a) tree: {}", root.display());
    println!(
        "    {} files ({} text), {:.1} MB, {} lines of text ({} in .rs files); scanned in {:.1}s",
        tree.all_files,
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
    let mut rng = Rng::new(seed);
    let memories = gen::generate(&tree.files, n_memories, &mut rng);
    let total_refs = memories.len() * REFS_PER_MEMORY;
    let tmp = tempfile::Builder::new().prefix("memval-speed-").tempdir()?;
    let mem_path = tmp.path().join("memories.jsonl");
    let jsonl = gen::to_jsonl(&memories, "speed", &mut rng);
    std::fs::write(&mem_path, &jsonl)?;
    let mut kinds: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in memories.iter().flatten() {
        *kinds.entry(r.kind()).or_default() += 1;
    }
    println!(
        "\n(b) memories: {} memories x {REFS_PER_MEMORY} references = {total_refs} references ({:.1} MB of JSONL)",
        memories.len(),
        jsonl.len() as f64 / 1e6
    );
    println!("    mix: {}", kinds.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", "));

    // --- (c) memval ------------------------------------------------------------------------
    println!(
        "\n(c) memval validate --repo {} --memories {} --format json --fail-on never --store TMP --quiet",
        root.display(),
        mem_path.display()
    );
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
            bail!(
                "memval failed in run {i} ({}): {}",
                run.status,
                run.stderr.lines().take(10).collect::<Vec<_>>().join("\n")
            );
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
        let s = time_piped(baseline(r, &root))?;
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
    println!(
        "\n(e) floor: grep -r -c {RARE} TREE: {:?} -> median {floor_s:.2}s",
        floor.iter().map(|x| format!("{x:.2}")).collect::<Vec<_>>()
    );

    // --- summary ---------------------------------------------------------------------------
    println!("\nsummary ({cores} cores, {total_lines} lines; {total_refs} references written, {claims} claims in memval's report, {checked} of them checked)");
    println!("  memval end to end (median of {runs}):   {memval_s:>10.2} s");
    println!(
        "  grep per claim, extrapolated:           {baseline_s:>10.0} s   -> baseline/memval = {:.0}x (target >= 20x)",
        baseline_s / memval_s
    );
    println!(
        "  same, find for path claims:             {baseline_find_s:>10.0} s   -> {:.0}x",
        baseline_find_s / memval_s
    );
    println!(
        "  floor, one grep -r pass (median of 3):  {floor_s:>10.2} s   -> memval/floor = {:.1}",
        memval_s / floor_s
    );
    println!("  total benchmark time: {:.0}s", started.elapsed().as_secs_f64());
    if keep {
        let p = tmp.keep();
        println!("  work directory kept: {}", p.display());
    }
    Ok(())
}
