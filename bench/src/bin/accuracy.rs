//! Accuracy benchmark: labelled-by-construction memories about real code, rules only.
//!
//! The labelled set (trees, memories, refactors in git, labels) is built by
//! `memval_bench::labelled`; memval is then run on each repo and its verdicts are scored
//! against the labels. `tier_b` runs the same set with Tier B sentences added, with and
//! without a model.
//!
//! Usage: accuracy [--memval PATH] [--seed N] [--keep] [--json FILE] [--only TREE]
//! Exit status: 0 unless the harness itself failed (low scores are not an error).

use std::collections::{BTreeMap, HashMap};

use anyhow::{bail, Result};
use memval_bench::labelled::{
    parse_report, prepare, prf, ratio, report_of, score_tree, select_trees, Kind, Outcome, BASE_DATE, DEFAULT_SEED,
    MEMORY_DATE, V,
};
use memval_bench::{arg_value, memval_binary, run_memval};
use serde_json::{json, Value};

fn main() {
    match run() {
        Ok(()) => {}
        Err(e) => {
            eprintln!("accuracy: harness error: {e:#}");
            std::process::exit(2);
        }
    }
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("usage: accuracy [--memval PATH] [--seed N] [--keep] [--json FILE] [--only TREE]");
        return Ok(());
    }
    let memval = memval_binary(&args)?;
    let seed: u64 = arg_value(&args, "--seed").map(|s| s.parse()).transpose()?.unwrap_or(DEFAULT_SEED);
    let keep = args.iter().any(|a| a == "--keep");
    let only = arg_value(&args, "--only");
    let json_out = arg_value(&args, "--json");
    let started = std::time::Instant::now();
    let tmp = tempfile::Builder::new().prefix("memval-accuracy-").tempdir()?;
    let work = tmp.path().to_path_buf();

    println!("memval accuracy benchmark");
    println!("  memval:   {}", memval.display());
    println!("  seed:     {seed}");
    println!("  date:     {}", chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"));
    println!("  history:  base commit {BASE_DATE}, memories {MEMORY_DATE}, refactors 2026-03-15");
    let trees = select_trees()?;
    let mut all: Vec<Outcome> = Vec::new();
    let mut total_claims_out = 0usize;
    let mut total_memories = 0usize;
    println!(
        "\n{:<14} {:>6} {:>7} {:>9} {:>7} {:>8} {:>7}  source",
        "tree", "files", "labels", "memories", "claims", "correct", "secs"
    );
    for t in &trees {
        if only.as_deref().is_some_and(|o| o != t.name) {
            continue;
        }
        let t0 = std::time::Instant::now();
        let prepared = prepare(t, &work, seed, 0, 0)?;
        let memories = prepared.memories;
        let store = work.join(format!("store-{}", t.name));
        let run = run_memval(&memval, &prepared.repo, &prepared.memories_path, &store, false)?;
        let report = report_of(&t.name, &run);
        let claims_out = report["run"]["claims"].as_u64().unwrap_or(0) as usize;
        total_claims_out += claims_out;
        total_memories += memories.len();
        let parsed = parse_report(&report);
        let outcomes = score_tree(&memories, &parsed);
        let correct = outcomes.iter().filter(|o| o.got == o.label.expected.as_str()).count();
        let nfiles = memval_bench::walk_files(&prepared.repo).map(|f| f.len()).unwrap_or(0);
        println!(
            "{:<14} {:>6} {:>7} {:>9} {:>7} {:>8} {:>7.1}  {}",
            t.name,
            nfiles,
            outcomes.len(),
            memories.len(),
            claims_out,
            correct,
            t0.elapsed().as_secs_f64(),
            t.dir.display()
        );
        all.extend(outcomes);
    }
    if all.is_empty() {
        bail!("no labels were produced");
    }

    // --- Metrics -------------------------------------------------------------------------
    let cols = ["VALID", "STALE", "CONTRADICTED", "AMBIGUOUS", "NOT_CHECKED", "MISSING"];
    let mut conf: BTreeMap<(V, String), usize> = BTreeMap::new();
    for o in &all {
        *conf.entry((o.label.expected, o.got.clone())).or_default() += 1;
    }
    let present: Vec<V> = V::ALL.iter().copied().filter(|v| all.iter().any(|o| o.label.expected == *v)).collect();
    let n = all.len();
    let correct = all.iter().filter(|o| o.got == o.label.expected.as_str()).count();
    println!("\nlabels: {n} ({} memories, {} claims in memval's output)", total_memories, total_claims_out);
    for v in V::ALL {
        let c = all.iter().filter(|o| o.label.expected == v).count();
        println!("  {:<13} {:>4}  ({:.0}%)", v.as_str(), c, 100.0 * c as f64 / n as f64);
    }
    println!("\nconfusion matrix (rows: expected, columns: memval)");
    print!("{:<14}", "");
    for c in cols {
        print!("{:>13}", c);
    }
    println!();
    for v in V::ALL {
        if !present.contains(&v) {
            continue;
        }
        print!("{:<14}", v.as_str());
        for c in cols {
            print!("{:>13}", conf.get(&(v, c.to_owned())).copied().unwrap_or(0));
        }
        println!();
    }
    println!("\nper verdict            precision   recall      F1   support");
    let mut f1s = Vec::new();
    let mut metrics = serde_json::Map::new();
    for v in V::ALL {
        let (p, r, f1, sup, pred) = prf(all.iter(), v);
        if present.contains(&v) {
            f1s.push(f1);
        }
        println!("  {:<18} {:>10.3} {:>8.3} {:>7.3} {:>9}", v.as_str(), p, r, f1, sup);
        metrics.insert(
            v.as_str().into(),
            json!({"precision": p, "recall": r, "f1": f1, "support": sup, "predicted": pred}),
        );
    }
    let macro_f1 = f1s.iter().sum::<f64>() / f1s.len() as f64;
    let stale: Vec<&Outcome> = all.iter().filter(|o| o.label.expected == V::Stale).collect();
    let stale_hit = stale.iter().filter(|o| o.got == "STALE").count();
    let stale_succ = stale.iter().filter(|o| o.got == "STALE" && o.successor_ok).count();
    let missing = all.iter().filter(|o| o.got == "MISSING").count();
    let not_checked = all.iter().filter(|o| o.got == "NOT_CHECKED").count();
    println!("\nmacro-F1 over {} verdict classes:      {:.3}", present.len(), macro_f1);
    println!("accuracy:                              {:.3} ({correct}/{n})", correct as f64 / n as f64);
    println!(
        "STALE recall:                          {:.3} ({stale_hit}/{})",
        ratio(stale_hit, stale.len()),
        stale.len()
    );
    println!(
        "STALE recall with correct successor:   {:.3} ({stale_succ}/{})",
        ratio(stale_succ, stale.len()),
        stale.len()
    );
    println!("labels with no matching claim (MISSING): {missing}; not checked: {not_checked}");

    // Per kind and style.
    println!("\nby reference kind / style       labels  correct  missing");
    let mut by: BTreeMap<(Kind, &'static str), (usize, usize, usize)> = BTreeMap::new();
    for o in &all {
        let e = by.entry((o.label.kind, o.label.style)).or_default();
        e.0 += 1;
        if o.got == o.label.expected.as_str() {
            e.1 += 1;
        }
        if o.got == "MISSING" {
            e.2 += 1;
        }
    }
    for ((k, s), (t, c, m)) in &by {
        println!("  {:<12} {:<16} {:>6} {:>8} {:>8}", k.as_str(), s, t, c, m);
    }

    // Mismatch patterns and examples.
    let wrong: Vec<&Outcome> = all
        .iter()
        .filter(|o| o.got != o.label.expected.as_str() || (o.label.expected == V::Stale && !o.successor_ok))
        .collect();
    let mut patterns: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for o in &wrong {
        let got = if o.got == "STALE" && o.label.expected == V::Stale {
            "STALE (wrong successor)".to_owned()
        } else {
            o.got.clone()
        };
        *patterns
            .entry((format!("{}/{}", o.label.kind.as_str(), o.label.style), o.label.expected.as_str().to_owned(), got))
            .or_default() += 1;
    }
    let mut pv: Vec<_> = patterns.into_iter().collect();
    pv.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!("\nmismatch patterns ({} labels wrong or with a wrong successor)", wrong.len());
    for ((kind, exp, got), c) in pv.iter().take(25) {
        println!("  {c:>4}  {kind:<28} expected {exp:<13} got {got}");
    }
    println!("\nfirst mismatches (up to 2 per pattern, 24 in all):");
    let mut shown: HashMap<String, usize> = HashMap::new();
    let mut k = 0;
    for o in &wrong {
        let key = format!("{}/{}/{}/{}", o.label.kind.as_str(), o.label.style, o.label.expected.as_str(), o.got);
        let c = shown.entry(key).or_default();
        if *c >= 2 || k >= 24 {
            continue;
        }
        *c += 1;
        k += 1;
        let exp_s = o.label.successor.as_deref().map(|s| format!(" -> {s}")).unwrap_or_default();
        println!(
            "- [{}] {} ({}, {}): expected {}{exp_s}",
            o.label.mem,
            o.label.target(),
            o.label.kind.as_str(),
            o.label.style,
            o.label.expected.as_str()
        );
        println!("    done to the code: {}", o.label.why);
        let mem: String = o.memory_text.replace('\n', "\\n");
        let mem =
            if mem.chars().count() > 260 { format!("{}…", mem.chars().take(260).collect::<String>()) } else { mem };
        println!("    memory: {mem}");
        match &o.got_claim {
            Some(g) => {
                let refs: Vec<String> = g
                    .refs
                    .iter()
                    .map(|(p, s, l)| {
                        format!(
                            "{p}{}{}",
                            s.as_deref().map(|s| format!("#{s}")).unwrap_or_default(),
                            l.map(|l| format!(":{l}")).unwrap_or_default()
                        )
                    })
                    .collect();
                println!(
                    "    got: {} {} conf {} successor {:?}; claim {:?} refs [{}]",
                    g.verdict,
                    g.claim_type,
                    g.confidence,
                    g.successor,
                    g.claim_text,
                    refs.join(", ")
                );
                println!("    evidence: {}", g.evidence);
            }
            None => println!("    got: no claim for this reference"),
        }
    }
    println!("\ntotal time {:.1}s", started.elapsed().as_secs_f64());

    if let Some(path) = json_out {
        let labels: Vec<Value> = all
            .iter()
            .map(|o| {
                json!({
                    "tree": o.label.tree, "memory": o.label.mem, "kind": o.label.kind.as_str(), "style": o.label.style,
                    "target": o.label.target(), "expected": o.label.expected.as_str(), "expected_successor": o.label.successor,
                    "got": o.got, "got_successor": o.got_claim.as_ref().and_then(|g| g.successor.clone()),
                    "successor_ok": o.successor_ok, "why": o.label.why,
                    "evidence": o.got_claim.as_ref().map(|g| g.evidence.clone()),
                })
            })
            .collect();
        let doc = json!({
            "seed": seed, "labels": n, "accuracy": correct as f64 / n as f64, "macro_f1": macro_f1,
            "stale_recall": ratio(stale_hit, stale.len()), "stale_recall_successor": ratio(stale_succ, stale.len()),
            "per_verdict": metrics, "results": labels,
        });
        std::fs::write(&path, serde_json::to_string_pretty(&doc)?)?;
        println!("results written to {path}");
    }
    if keep {
        let p = tmp.keep();
        println!("work directory kept: {}", p.display());
    }
    Ok(())
}
