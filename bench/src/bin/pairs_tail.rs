//! Candidate pairs whatever the score distribution (`memval pairs --method keyword`,
//! docs/contracts.md §5): two corpora of the same Zipf background
//! (`memval_bench::pair_corpus`), one whose top 1,000 pairs are all planted high scores
//! (`planted-only`) and one whose 1,000th pair scores near 0.19 because many pairs sit just
//! above the 0.15 floor (`dense tail`). For each it prints:
//!
//! 1. scale: wall time (median of --runs) and peak RSS of `--per-agent 0 --cap 1000` on
//!    --memories memories, for memval and, with --baseline, another memval binary (the
//!    code before a change), with whether the two printed the same pairs;
//! 2. recall: on a --sample corpus of the same distribution, memval's top 1,000 against
//!    this benchmark's own exhaustive all-pairs pass (`memval_bench::pair_exact`), the
//!    scores compared, and the exhaustive pass's time over memval's.
//!
//! memval is only ever run as a binary. Usage: pairs_tail [--memval PATH] [--baseline PATH]
//! [--memories N] [--runs N] [--sample N] [--dist planted|tail|both] [--no-recall] [--keep]
//! Exit status: 0 unless the harness failed (a slow memval is not an error).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use memval_bench::pair_corpus::{corpus, Dist};
use memval_bench::pair_exact::{exhaustive, tokens};
use memval_bench::pair_run::{parse_pairs, run_pairs, write_memories, PairsRun};
use memval_bench::{arg_value, median, memval_binary};

const SEED: u64 = 20_261_203;
const CAP: usize = 1000;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let memval = memval_binary(&args)?;
    let baseline = arg_value(&args, "--baseline").map(PathBuf::from);
    let num = |name: &str, default: usize| -> Result<usize> {
        arg_value(&args, name).map_or(Ok(default), |v| v.parse()).with_context(|| name.to_owned())
    };
    let (n, runs, sample) = (num("--memories", 100_000)?, num("--runs", 3)?.max(1), num("--sample", 20_000)?);
    let dists = match arg_value(&args, "--dist").as_deref() {
        Some("planted") => vec![Dist::Planted],
        Some("tail") => vec![Dist::Tail],
        _ => vec![Dist::Planted, Dist::Tail],
    };
    let dir = tempfile::Builder::new().prefix("memval-pairs-tail").tempdir()?;
    println!("memval: {}", memval.display());
    if let Some(b) = &baseline {
        println!("baseline: {}", b.display());
    }
    println!("cores: {}", std::thread::available_parallelism().map_or(0, |n| n.get()));
    let mut binaries: Vec<(&str, &Path)> = Vec::new();
    if let Some(b) = &baseline {
        binaries.push(("baseline", b.as_path()));
    }
    binaries.push(("memval", memval.as_path()));
    for dist in dists {
        let texts = corpus(n, dist, SEED);
        describe(dist, &texts);
        let path = write_memories(dir.path(), &format!("{}-{n}.jsonl", dist.name().replace(' ', "-")), &texts)?;
        drop(texts);
        let mut outputs = Vec::new();
        for (name, bin) in &binaries {
            let (secs, out) = timed(bin, &path, runs)?;
            print_scale(name, n, &secs, &out)?;
            outputs.push(out.stdout);
        }
        if outputs.len() == 2 {
            println!("  same pairs, order and scores as the baseline: {}", outputs[0] == outputs[1]);
        }
        if !args.iter().any(|a| a == "--no-recall") {
            recall(dist, dir.path(), sample, runs, &binaries)?;
        }
    }
    if args.iter().any(|a| a == "--keep") {
        println!("kept: {}", dir.keep().display());
    }
    Ok(())
}

fn describe(dist: Dist, texts: &[(String, String)]) {
    let agents: HashSet<&str> = texts.iter().map(|(a, _)| a.as_str()).collect();
    let mean = texts.iter().map(|(_, t)| tokens(t).len()).sum::<usize>() as f64 / texts.len() as f64;
    println!(
        "\n== {}: {} memories, {} agents, {mean:.1} distinct tokens per memory",
        dist.name(),
        texts.len(),
        agents.len()
    );
}

/// `runs` runs of `--cap 1000`: each run's seconds, and the last run (its peak RSS the
/// highest of all runs).
fn timed(bin: &Path, path: &Path, runs: usize) -> Result<(Vec<f64>, PairsRun)> {
    let mut secs = Vec::new();
    let mut peak = None;
    let mut last = None;
    for _ in 0..runs {
        let r = run_pairs(bin, path, CAP)?;
        secs.push(r.secs);
        peak = peak.max(r.peak_kib);
        last = Some(r);
    }
    let mut last = last.context("no run")?;
    last.peak_kib = peak;
    Ok((secs, last))
}

fn print_scale(name: &str, n: usize, secs: &[f64], out: &PairsRun) -> Result<()> {
    let got = parse_pairs(&out.stdout)?;
    println!(
        "  {name}: --per-agent 0 --cap {CAP} on {n}: {:.2} s (median of {}; runs {}), peak RSS {}; {} pairs, scores {:.3}..{:.3}",
        median(secs.to_vec()),
        secs.len(),
        secs.iter().map(|t| format!("{t:.2}")).collect::<Vec<_>>().join(", "),
        out.peak_kib.map_or("not measured".to_owned(), |k| format!("{:.0} MiB", k as f64 / 1024.0)),
        got.len(),
        got.first().map_or(0.0, |p| p.2),
        got.last().map_or(0.0, |p| p.2),
    );
    Ok(())
}

/// memval's top 1,000 on a `sample`-memory corpus of `dist` against the exhaustive pass.
fn recall(dist: Dist, dir: &Path, sample: usize, runs: usize, binaries: &[(&str, &Path)]) -> Result<()> {
    let texts = corpus(sample, dist, SEED);
    let path = write_memories(dir, &format!("{}-{sample}.jsonl", dist.name().replace(' ', "-")), &texts)?;
    let start = Instant::now();
    let exact = exhaustive(&texts);
    let exhaustive_secs = start.elapsed().as_secs_f64();
    let top = &exact[..exact.len().min(CAP)];
    println!(
        "  recall on {sample} memories: exhaustive pass {exhaustive_secs:.2} s ({} threads, {} pairs >= 0.15; its {}th scores {:.3})",
        rayon::current_num_threads(),
        exact.len(),
        top.len(),
        top.last().map_or(0.0, |p| p.2)
    );
    let counts: Vec<String> = [0.15, 0.17, 0.19, 0.21, 0.25, 0.3, 0.4]
        .iter()
        .map(|&th| format!(">= {th}: {}", exact.iter().filter(|p| p.2 >= th).count()))
        .collect();
    println!("    pairs by score: {}", counts.join(", "));
    let want: HashSet<(usize, usize)> = top.iter().map(|p| (p.0, p.1)).collect();
    let score: HashMap<(usize, usize), f64> = exact.iter().map(|p| ((p.0, p.1), p.2)).collect();
    for (name, bin) in binaries {
        let (secs, out) = timed(bin, &path, runs)?;
        let mine = parse_pairs(&out.stdout)?;
        let hit = mine.iter().filter(|p| want.contains(&(p.0, p.1))).count();
        // serde_json may round the last bit of a 17-digit float: compare to 1e-12.
        let differ = mine.iter().filter(|p| score.get(&(p.0, p.1)).is_none_or(|e| (e - p.2).abs() > 1e-12)).count();
        let same_order = mine.len() == top.len()
            && mine.iter().zip(top).all(|(m, e)| (m.0, m.1) == (e.0, e.1) && (m.2 - e.2).abs() <= 1e-12);
        let t = median(secs);
        println!(
            "    {name}: {t:.2} s (median of {runs}), exhaustive / memval = {:.1}x; recall {hit}/{} = {:.3}; scores differing: {differ}; same order as the exhaustive top {}: {same_order}",
            exhaustive_secs / t,
            top.len(),
            hit as f64 / top.len().max(1) as f64,
            top.len()
        );
    }
    Ok(())
}
