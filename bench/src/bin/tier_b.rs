//! Tier B accuracy benchmark: the labelled set of the accuracy benchmark plus Tier B
//! sentences (behavioral, architectural, configuration; `memval_bench::labelled::tier_b`),
//! run twice per tree: rules only, and with a model (`--llm-*` flags passed through to
//! `memval validate`). Prints both side by side: accuracy and coverage per claim type,
//! precision / recall / F1 per verdict, and what the model cost (calls and tokens per claim,
//! contract-violation fallbacks, evidence downgrades, wall time).
//!
//! Without `--llm-base-url` / `--llm-provider` / `--llm-config` (or their `MEMVAL_LLM_*`
//! variables), a private llama-server with SmolLM2-135M-Instruct is started on a free
//! loopback port (`bash scripts/llama.sh build` makes both) and stopped at the end.
//!
//! Usage: tier_b [--memval PATH] [--seed N] [--tier-b N] [--only TREE] [--keep] [--json FILE]
//!               [--llama-threads N] [--llama-ctx N] [--local-max-tokens N] [--llm-* ...]
//! Exit status: 0 unless the harness itself failed (low scores are not an error).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use memval_bench::labelled::{
    parse_report, prepare, prf, ratio, report_of, score_tree, select_trees, Outcome, BASE_DATE, DEFAULT_SEED,
    MEMORY_DATE, V,
};
use memval_bench::llama::{llama_paths, LlamaServer, LOCAL_MODEL_NAME};
use memval_bench::{arg_value, memval_binary, run_memval_with};
use serde_json::{json, Value};

const DEFAULT_TIER_B: usize = 60;
/// Flags of this harness that take a value (everything else starting `--llm-` goes to memval).
const OWN_FLAGS: [&str; 8] =
    ["--memval", "--seed", "--tier-b", "--only", "--json", "--llama-threads", "--llama-ctx", "--local-max-tokens"];

fn main() {
    if let Err(e) = run() {
        eprintln!("tier_b: harness error: {e:#}");
        std::process::exit(2);
    }
}

/// What the model did in the runs (sums over trees), from each report's `llm` section.
#[derive(Default)]
struct Usage {
    model: String,
    calls: u64,
    failed_attempts: u64,
    input_tokens: u64,
    output_tokens: u64,
    cost_usd: Option<f64>,
    batches: u64,
    claims_sent: u64,
    verdicts_kept: u64,
    contract_violations: u64,
    evidence_downgrades: u64,
    tool_calls: u64,
    tool_refusals: u64,
    tool_errors: u64,
    failed_batches: u64,
    deferred_claims: u64,
    notes: Vec<String>,
}

impl Usage {
    fn add(&mut self, report: &Value) {
        let llm = &report["llm"];
        if llm.is_null() {
            return;
        }
        if let Some(m) = llm["model"].as_str() {
            self.model = m.to_owned();
        }
        let n = |v: &Value| v.as_u64().unwrap_or(0);
        let stage = &llm["usage"]["stages"]["investigator"];
        self.calls += n(&stage["calls"]);
        self.failed_attempts += n(&stage["failed_attempts"]);
        self.input_tokens += n(&stage["input_tokens"]);
        self.output_tokens += n(&stage["output_tokens"]);
        if let Some(c) = stage["cost_usd"].as_f64() {
            self.cost_usd = Some(self.cost_usd.unwrap_or(0.0) + c);
        }
        let inv = &llm["investigator"];
        self.batches += n(&inv["batches"]);
        self.claims_sent += n(&inv["claims_sent"]);
        self.verdicts_kept += n(&inv["verdicts_kept"]);
        self.contract_violations += n(&inv["contract_violations"]);
        self.evidence_downgrades += n(&inv["evidence_downgrades"]);
        self.tool_calls += n(&inv["tool_calls"]);
        self.tool_refusals += n(&inv["tool_refusals"]);
        self.tool_errors += n(&inv["tool_errors"]);
        self.failed_batches += n(&inv["failed_batches"]);
        self.deferred_claims += n(&inv["deferred_claims"]);
        for note in inv["notes"].as_array().into_iter().flatten() {
            if let Some(s) = note.as_str() {
                self.notes.push(s.to_owned());
            }
        }
    }
}

/// One way of running memval over every tree.
#[derive(Default)]
struct Mode {
    outcomes: Vec<Outcome>,
    secs: f64,
    claims: usize,
    not_checked: usize,
    usage: Usage,
}

/// The `--llm-*` (and budget) arguments meant for memval, as given.
fn passthrough(args: &[String]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        if OWN_FLAGS.contains(&a.as_str()) {
            i += 2;
            continue;
        }
        let ours = a.starts_with("--llm-") || a.starts_with("--budget-usd") || a.starts_with("--max-llm-calls");
        if ours {
            out.push(a.clone());
            if !a.contains('=') && a != "--llm-no-cache" {
                out.push(args.get(i + 1).with_context(|| format!("{a} needs a value"))?.clone());
                i += 1;
            }
        }
        i += 1;
    }
    Ok(out)
}

fn has_flag(flags: &[String], name: &str) -> bool {
    flags.iter().any(|f| f == name || f.starts_with(&format!("{name}=")))
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("usage: tier_b [--memval PATH] [--seed N] [--tier-b N] [--only TREE] [--keep] [--json FILE]");
        println!("              [--llama-threads N] [--llama-ctx N] [--local-max-tokens N] [--llm-* ...]");
        println!("Every --llm-* flag (and --budget-usd, --max-llm-calls) goes to `memval validate` for the model run.");
        println!(
            "Without --llm-base-url/--llm-provider/--llm-config, a local llama-server (scripts/llama.sh) is started."
        );
        return Ok(());
    }
    let memval = memval_binary(&args)?;
    let seed: u64 = arg_value(&args, "--seed").map(|s| s.parse()).transpose()?.unwrap_or(DEFAULT_SEED);
    let tier_b: usize = arg_value(&args, "--tier-b").map(|s| s.parse()).transpose()?.unwrap_or(DEFAULT_TIER_B);
    let keep = args.iter().any(|a| a == "--keep");
    let only = arg_value(&args, "--only");
    let json_out = arg_value(&args, "--json");
    let threads: u32 = arg_value(&args, "--llama-threads").map(|s| s.parse()).transpose()?.unwrap_or(1);
    let ctx: u32 = arg_value(&args, "--llama-ctx").map(|s| s.parse()).transpose()?.unwrap_or(8192);
    let max_tokens: u32 = arg_value(&args, "--local-max-tokens").map(|s| s.parse()).transpose()?.unwrap_or(1024);
    let started = Instant::now();
    let tmp = tempfile::Builder::new().prefix("memval-tier-b-").tempdir()?;
    let work = tmp.path().to_path_buf();
    // A run takes minutes with a local model: run a copy, so a rebuild of the shared target
    // directory in the meantime cannot change memval halfway through.
    let built = memval;
    let memval = work.join("memval");
    std::fs::copy(&built, &memval).with_context(|| format!("copying {}", built.display()))?;

    // --- The model -----------------------------------------------------------------------
    let mut llm = passthrough(&args)?;
    let env_set = ["MEMVAL_LLM_BASE_URL", "MEMVAL_LLM_PROVIDER", "MEMVAL_LLM_CONFIG"]
        .iter()
        .any(|v| std::env::var_os(v).is_some());
    let external = env_set || ["--llm-base-url", "--llm-provider", "--llm-config"].iter().any(|f| has_flag(&llm, f));
    let mut server: Option<LlamaServer> = None;
    if !external {
        let (bin, model) = llama_paths()?;
        let log = work.join("llama-server.log");
        let t0 = Instant::now();
        let s = LlamaServer::start(&bin, &model, threads, ctx, &log)?;
        println!(
            "llama-server ready on port {} in {:.1}s ({}, {threads} thread(s), context {ctx})",
            s.port,
            t0.elapsed().as_secs_f64(),
            model.display()
        );
        let config = work.join("llm-local.json");
        std::fs::write(&config, json!({ "max_output_tokens": max_tokens }).to_string())?;
        // The settings of tests/llm_local.rs (one request at a time for the one slot, long
        // timeouts, 4 tool calls per batch), each unless given.
        let base_url = s.base_url();
        let config = config.to_string_lossy().into_owned();
        let defaults: [(&str, &str); 9] = [
            ("--llm-provider", "openai"),
            ("--llm-base-url", &base_url),
            ("--llm-model", LOCAL_MODEL_NAME),
            ("--llm-concurrency", "1"),
            ("--llm-timeout", "240"),
            ("--llm-run-timeout", "3600"),
            ("--llm-max-retries", "1"),
            ("--llm-config", &config),
            ("--llm-tool-budget", "4"),
        ];
        let mut local: Vec<String> = Vec::new();
        for (flag, value) in defaults {
            if !has_flag(&llm, flag) {
                local.extend([flag.to_owned(), value.to_owned()]);
            }
        }
        local.append(&mut llm);
        llm = local;
        server = Some(s);
    }
    // Measure the investigator: no model extraction (both runs then check the same claims),
    // and no per-run batch cap (claims beyond it would be deferred, not judged).
    if !has_flag(&llm, "--llm-extract-batches") {
        llm.extend(["--llm-extract-batches".to_owned(), "0".to_owned()]);
    }
    if !has_flag(&llm, "--llm-investigate-batches") {
        llm.extend(["--llm-investigate-batches".to_owned(), "100".to_owned()]);
    }

    println!("memval Tier B accuracy benchmark");
    println!("  memval:    {} (run from a copy)", built.display());
    println!("  seed:      {seed}");
    println!("  date:      {}", chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"));
    println!("  history:   base commit {BASE_DATE}, memories {MEMORY_DATE}, refactors 2026-03-15");
    println!("  Tier B:    {tier_b} labels wanted");
    println!("  model run: memval validate ... {}", shown(&llm));

    // --- Trees ---------------------------------------------------------------------------
    let trees: Vec<_> = select_trees()?.into_iter().filter(|t| only.as_deref().is_none_or(|o| o == t.name)).collect();
    if trees.is_empty() {
        bail!("no tree selected");
    }
    let mut rules = Mode::default();
    let mut model = Mode::default();
    let mut assigned = 0usize;
    println!(
        "\n{:<14} {:>7} {:>7} {:>9} {:>9} {:>9} {:>9} {:>6}",
        "tree", "tier A", "tier B", "rules ok", "model ok", "rules s", "model s", "calls"
    );
    for (i, t) in trees.iter().enumerate() {
        let quota = (tier_b - assigned.min(tier_b)).div_ceil(trees.len() - i);
        let prepared = prepare(t, &work, seed, quota, assigned)?;
        let b = prepared.memories.iter().flat_map(|m| &m.labels).filter(|l| l.kind.tier_b()).count();
        assigned += b;
        let a = prepared.memories.iter().map(|m| m.labels.len()).sum::<usize>() - b;
        let mut line_ok = [0usize; 2];
        let mut line_secs = [0f64; 2];
        let calls_before = model.usage.calls;
        for (k, (mode, extra)) in [(&mut rules, Vec::new()), (&mut model, llm.clone())].into_iter().enumerate() {
            let store = work.join(format!("store-{}-{}", t.name, if k == 0 { "rules" } else { "model" }));
            let run = run_memval_with(&memval, &prepared.repo, &prepared.memories_path, &store, false, &extra)?;
            let report = report_of(&t.name, &run);
            mode.secs += run.elapsed.as_secs_f64();
            mode.claims += report["run"]["claims"].as_u64().unwrap_or(0) as usize;
            mode.not_checked += report["run"]["not_checked"].as_u64().unwrap_or(0) as usize;
            mode.usage.add(&report);
            if keep {
                std::fs::write(
                    work.join(format!("report-{}-{}.json", t.name, if k == 0 { "rules" } else { "model" })),
                    &run.stdout,
                )?;
            }
            let outcomes = score_tree(&prepared.memories, &parse_report(&report));
            line_ok[k] = outcomes.iter().filter(|o| o.got == o.label.expected.as_str()).count();
            line_secs[k] = run.elapsed.as_secs_f64();
            mode.outcomes.extend(outcomes);
        }
        println!(
            "{:<14} {:>7} {:>7} {:>9} {:>9} {:>9.1} {:>9.1} {:>6}",
            t.name,
            a,
            b,
            line_ok[0],
            line_ok[1],
            line_secs[0],
            line_secs[1],
            model.usage.calls - calls_before
        );
    }
    drop(server);

    report(&rules, &model, &llm);
    println!("\ntotal time {:.1}s", started.elapsed().as_secs_f64());

    if let Some(path) = json_out {
        write_json(&path, seed, &rules, &model, &llm)?;
        println!("results written to {path}");
    }
    if keep {
        let p: PathBuf = tmp.keep();
        println!("work directory kept: {}", p.display());
    }
    Ok(())
}

/// The model flags as a command line (file paths of the harness's own config shortened).
fn shown(flags: &[String]) -> String {
    flags
        .iter()
        .map(|f| if f.ends_with("llm-local.json") { "<max_output_tokens config>".to_owned() } else { f.clone() })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Outcomes in one group of rows.
fn group<'a>(mode: &'a Mode, pred: &'a dyn Fn(&Outcome) -> bool) -> Vec<&'a Outcome> {
    mode.outcomes.iter().filter(|o| pred(o)).collect()
}

fn correct(os: &[&Outcome]) -> usize {
    os.iter().filter(|o| o.got == o.label.expected.as_str()).count()
}

/// Labels that got a verdict (not NOT_CHECKED, not MISSING).
fn checked(os: &[&Outcome]) -> usize {
    os.iter().filter(|o| o.got != "NOT_CHECKED" && o.got != "MISSING").count()
}

/// A model verdict memval kept: its evidence ends with " [llm]".
fn from_model(o: &Outcome) -> bool {
    o.got_claim.as_ref().is_some_and(|g| g.evidence.ends_with("[llm]"))
}

/// The LLM investigator's fallback: AMBIGUOUS 0 with the reason the answer was discarded.
fn fallback(o: &Outcome) -> bool {
    o.got_claim.as_ref().is_some_and(|g| {
        g.verdict == "AMBIGUOUS" && g.confidence == 0 && !g.evidence.ends_with("[llm]") && g.evidence.contains("llm")
    })
}

/// Why a fallback happened, in a few words (from memval's evidence text).
fn fallback_reason(evidence: &str) -> &'static str {
    const REASONS: [(&str, &str); 11] = [
        ("the answer is not JSON", "answer is not JSON"),
        ("no \"verdicts\" list", "JSON without a verdicts list"),
        ("gave no verdict for this claim", "no entry for the claim"),
        ("verdicts for this claim", "several entries for the claim"),
        ("is not VALID, STALE, CONTRADICTED or AMBIGUOUS", "verdict missing or not in the enum"),
        ("is not an integer from 0 to 100", "confidence not an integer 0-100"),
        ("is not a non-empty text", "evidence missing or empty"),
        ("cites no path:line", "evidence cites no path:line"),
        ("evidence cites", "cited path:line does not exist (downgrade)"),
        ("evidence quotes", "quote not at the cited place (downgrade)"),
        ("kept calling tools", "kept calling tools past the budget"),
    ];
    REASONS.iter().find(|(needle, _)| evidence.contains(needle)).map_or("other", |(_, r)| r)
}

/// Right about whether the claim still holds: STALE and CONTRADICTED taken as one "no longer
/// true" answer (the model sees the tree as it is now, not its history).
fn holds_correct(os: &[&Outcome]) -> usize {
    let false_now = |s: &str| s == "STALE" || s == "CONTRADICTED";
    os.iter()
        .filter(|o| {
            let e = o.label.expected.as_str();
            o.got == e || (false_now(e) && false_now(&o.got))
        })
        .count()
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".to_owned()
    } else {
        format!("{:.3}", a as f64 / b as f64)
    }
}

fn macro_f1(os: &[&Outcome]) -> f64 {
    let present: Vec<V> = V::ALL.iter().copied().filter(|v| os.iter().any(|o| o.label.expected == *v)).collect();
    if present.is_empty() {
        return 0.0;
    }
    present.iter().map(|v| prf(os.iter().copied(), *v).2).sum::<f64>() / present.len() as f64
}

const ROWS: [&str; 7] = [
    "file_reference",
    "symbol_reference",
    "line reference",
    "configuration (key = value)",
    "configuration (free text)",
    "behavioral",
    "architectural",
];

fn report(rules: &Mode, model: &Mode, llm: &[String]) {
    let tier_a = |o: &Outcome| !o.label.kind.tier_b();
    let tier_b = |o: &Outcome| o.label.kind.tier_b();
    let any = |_: &Outcome| true;
    let n_b = rules.outcomes.iter().filter(|o| tier_b(o)).count();
    println!("\nlabels: {} (Tier A {}, Tier B {})", rules.outcomes.len(), rules.outcomes.len() - n_b, n_b);
    for v in V::ALL {
        let c = rules.outcomes.iter().filter(|o| tier_b(o) && o.label.expected == v).count();
        println!("  Tier B {:<13} {:>4}", v.as_str(), c);
    }

    // Per claim type, then the two sets and everything.
    println!("\nper claim type (claim type the label's sentence was written as)");
    println!(
        "  {:<30} {:>6} | {:>8} {:>8} | {:>8} {:>8} {:>8} {:>8} | {:>8} {:>8}",
        "", "labels", "acc rule", "acc llm", "cov rule", "cov llm", "llm kept", "llm fb", "hold rul", "hold llm"
    );
    let row = |name: &str, pred: &dyn Fn(&Outcome) -> bool| {
        let r = group(rules, pred);
        let m = group(model, pred);
        if r.is_empty() {
            return;
        }
        println!(
            "  {:<30} {:>6} | {:>8} {:>8} | {:>8} {:>8} {:>8} {:>8} | {:>8} {:>8}",
            name,
            r.len(),
            pct(correct(&r), r.len()),
            pct(correct(&m), m.len()),
            pct(checked(&r), r.len()),
            pct(checked(&m), m.len()),
            pct(m.iter().filter(|o| from_model(o)).count(), m.len()),
            pct(m.iter().filter(|o| fallback(o)).count(), m.len()),
            pct(holds_correct(&r), r.len()),
            pct(holds_correct(&m), m.len()),
        );
    };
    for name in ROWS {
        row(name, &|o: &Outcome| o.label.kind.claim_type() == name);
    }
    row("Tier A set (accuracy labels)", &tier_a);
    row("Tier B set", &tier_b);
    row("all", &any);
    println!("  (acc: verdict = label; cov: labels given a verdict, not NOT_CHECKED/MISSING; llm kept: the");
    println!("   model's verdict was kept; llm fb: its answer was discarded, AMBIGUOUS 0 (counted as a verdict);");
    println!("   hold: right about whether the claim still holds, STALE and CONTRADICTED as one)");

    // Per verdict.
    for (title, pred) in [("Tier B set", &tier_b as &dyn Fn(&Outcome) -> bool), ("all labels", &any)] {
        let r = group(rules, pred);
        let m = group(model, pred);
        println!(
            "\nper verdict, {title}        rules only: P      R      F1  |  with model: P      R      F1   support"
        );
        for v in V::ALL {
            let (rp, rr, rf, sup, _) = prf(r.iter().copied(), v);
            let (mp, mr, mf, _, _) = prf(m.iter().copied(), v);
            if sup == 0 && !m.iter().any(|o| o.got == v.as_str()) && !r.iter().any(|o| o.got == v.as_str()) {
                continue;
            }
            println!(
                "  {:<32} {:>6.3} {:>6.3} {:>6.3}  |  {:>12.3} {:>6.3} {:>6.3} {:>8}",
                v.as_str(),
                rp,
                rr,
                rf,
                mp,
                mr,
                mf,
                sup
            );
        }
        println!("  {:<32} {:>20.3}  |  {:>26.3}", "macro-F1", macro_f1(&r), macro_f1(&m));
        println!("  {:<32} {:>20}  |  {:>26}", "accuracy", pct(correct(&r), r.len()), pct(correct(&m), m.len()));
    }

    // Confusion matrices of the Tier B set.
    let cols = ["VALID", "STALE", "CONTRADICTED", "AMBIGUOUS", "NOT_CHECKED", "MISSING"];
    for (title, mode) in [("rules only", rules), ("with model", model)] {
        println!("\nTier B confusion matrix, {title} (rows: expected, columns: memval)");
        print!("{:<14}", "");
        for c in cols {
            print!("{c:>13}");
        }
        println!();
        for v in V::ALL {
            let rowv: Vec<&Outcome> = mode.outcomes.iter().filter(|o| tier_b(o) && o.label.expected == v).collect();
            if rowv.is_empty() {
                continue;
            }
            print!("{:<14}", v.as_str());
            for c in cols {
                print!("{:>13}", rowv.iter().filter(|o| o.got == c).count());
            }
            println!();
        }
    }

    // Per construction.
    println!("\nTier B by construction             labels  rules ok  model ok  rules checked  model checked");
    let mut by: BTreeMap<(&str, &str, &str), [usize; 5]> = BTreeMap::new();
    for (r, m) in rules.outcomes.iter().zip(model.outcomes.iter()).filter(|(r, _)| tier_b(r)) {
        let e = by.entry((r.label.kind.as_str(), r.label.style, r.label.expected.as_str())).or_default();
        e[0] += 1;
        e[1] += usize::from(r.got == r.label.expected.as_str());
        e[2] += usize::from(m.got == m.label.expected.as_str());
        e[3] += usize::from(r.got != "NOT_CHECKED" && r.got != "MISSING");
        e[4] += usize::from(m.got != "NOT_CHECKED" && m.got != "MISSING");
    }
    for ((k, s, e), c) in &by {
        println!("  {:<8} {:<13} {:<12} {:>6} {:>9} {:>9} {:>14} {:>14}", k, s, e, c[0], c[1], c[2], c[3], c[4]);
    }

    // Where the model run's Tier B verdicts came from.
    let mb: Vec<&Outcome> = model.outcomes.iter().filter(|o| tier_b(o)).collect();
    let kept = mb.iter().filter(|o| from_model(o)).count();
    let fell = mb.iter().filter(|o| fallback(o)).count();
    let kept_ok = mb.iter().filter(|o| from_model(o) && o.got == o.label.expected.as_str()).count();
    let nc = mb.iter().filter(|o| o.got == "NOT_CHECKED").count();
    let missing = mb.iter().filter(|o| o.got == "MISSING").count();
    println!(
        "\nmodel run, Tier B labels: {} model verdicts kept ({} right), {} fallbacks to AMBIGUOUS 0, {} decided by the rules, {} not checked, {} missing",
        kept,
        kept_ok,
        fell,
        mb.len() - kept - fell - nc - missing,
        nc,
        missing
    );
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for o in mb.iter().filter(|o| fallback(o)) {
        *reasons.entry(fallback_reason(&o.got_claim.as_ref().unwrap().evidence)).or_default() += 1;
    }
    let mut reasons: Vec<(&str, usize)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (r, n) in reasons {
        println!("  {n:>4}  fallback: {r}");
    }

    // Tier A must not move: it is deterministic.
    let moved: Vec<(&Outcome, &Outcome)> =
        rules.outcomes.iter().zip(model.outcomes.iter()).filter(|(r, m)| tier_a(r) && r.got != m.got).collect();
    println!("Tier A labels whose verdict differs between the runs: {}", moved.len());
    for (r, m) in moved.iter().take(10) {
        println!(
            "  - [{}] {} ({}): rules {} / model {}",
            r.label.mem,
            r.label.target(),
            r.label.kind.as_str(),
            r.got,
            m.got
        );
    }

    // Cost.
    let u = &model.usage;
    let per =
        |x: u64| if u.claims_sent == 0 { "-".to_owned() } else { format!("{:.2}", x as f64 / u.claims_sent as f64) };
    println!(
        "\nLLM investigator ({}; {})",
        if u.model.is_empty() { "no model section in the reports" } else { &u.model },
        shown(llm)
    );
    let b_open = rules.outcomes.iter().filter(|o| tier_b(o) && o.got == "NOT_CHECKED").count();
    println!(
        "  claims sent to the model         {:>10}  ({b_open} of the {n_b} Tier B labels, the ones the rules left not checked; the rest: sentences of the Tier A memories)",
        u.claims_sent
    );
    println!(
        "  batches / model calls            {:>10}  / {} (+{} failed attempts)",
        u.batches, u.calls, u.failed_attempts
    );
    println!("  tool calls (refused, errors)     {:>10}  ({}, {})", u.tool_calls, u.tool_refusals, u.tool_errors);
    println!("  input / output tokens            {:>10}  / {}", u.input_tokens, u.output_tokens);
    println!("  per claim sent: calls            {:>10}", per(u.calls));
    println!("  per claim sent: input tokens     {:>10}", per(u.input_tokens));
    println!("  per claim sent: output tokens    {:>10}", per(u.output_tokens));
    println!("  verdicts kept                    {:>10}", u.verdicts_kept);
    println!("  contract-violation fallbacks     {:>10}", u.contract_violations);
    println!(
        "  evidence downgrades              {:>10}  (cited place or quote not in the repo)",
        u.evidence_downgrades
    );
    println!("  batches with no answer           {:>10}", u.failed_batches);
    println!("  claims deferred (budget)         {:>10}", u.deferred_claims);
    println!(
        "  estimated cost                   {:>10}",
        u.cost_usd.map_or("n/a (unpriced)".to_owned(), |c| format!("${c:.4}"))
    );
    println!("  wall time, all trees: rules {:.1}s, with model {:.1}s", rules.secs, model.secs);
    if u.claims_sent > 0 {
        println!(
            "  model time per claim sent        {:>9.1}s  (model run minus rules run)",
            (model.secs - rules.secs) / u.claims_sent as f64
        );
    }
    println!(
        "  claims in memval's reports: rules {} ({} not checked), with model {} ({} not checked)",
        rules.claims, rules.not_checked, model.claims, model.not_checked
    );
    if !u.notes.is_empty() {
        println!("  first notes of the investigator:");
        for n in u.notes.iter().take(6) {
            let n: String = n.chars().take(220).collect();
            println!("    - {n}");
        }
    }

    // Tier B mismatches of the model run.
    println!("\nTier B labels the model run got wrong (up to 16):");
    for (r, m) in rules
        .outcomes
        .iter()
        .zip(model.outcomes.iter())
        .filter(|(r, m)| tier_b(r) && m.got != m.label.expected.as_str())
        .take(16)
    {
        println!(
            "- [{}] {} ({}/{}): expected {}, rules {}, model {}",
            m.label.mem,
            m.label.target(),
            m.label.kind.as_str(),
            m.label.style,
            m.label.expected.as_str(),
            r.got,
            m.got
        );
        println!("    done to the code: {}", m.label.why);
        println!("    memory: {}", m.memory_text.replace('\n', "\\n"));
        if let Some(g) = &m.got_claim {
            let ev: String = g.evidence.chars().take(240).collect();
            println!("    evidence: {ev}");
        }
    }
}

fn write_json(path: &str, seed: u64, rules: &Mode, model: &Mode, llm: &[String]) -> Result<()> {
    let results: Vec<Value> = rules
        .outcomes
        .iter()
        .zip(model.outcomes.iter())
        .map(|(r, m)| {
            json!({
                "tree": r.label.tree, "memory": r.label.mem, "kind": r.label.kind.as_str(), "style": r.label.style,
                "claim_type": r.label.kind.claim_type(), "tier_b": r.label.kind.tier_b(),
                "target": r.label.target(), "expected": r.label.expected.as_str(), "why": r.label.why,
                "rules": r.got, "model": m.got,
                "rules_evidence": r.got_claim.as_ref().map(|g| g.evidence.clone()),
                "model_evidence": m.got_claim.as_ref().map(|g| g.evidence.clone()),
            })
        })
        .collect();
    let summary = |mode: &Mode| {
        let all: Vec<&Outcome> = mode.outcomes.iter().collect();
        let b: Vec<&Outcome> = mode.outcomes.iter().filter(|o| o.label.kind.tier_b()).collect();
        json!({
            "accuracy": ratio(correct(&all), all.len()), "tier_b_accuracy": ratio(correct(&b), b.len()),
            "tier_b_macro_f1": macro_f1(&b), "tier_b_coverage": ratio(checked(&b), b.len()), "wall_secs": mode.secs,
            "tier_b_model_verdicts_kept": b.iter().filter(|o| from_model(o)).count(),
            "tier_b_fallbacks": b.iter().filter(|o| fallback(o)).count(),
        })
    };
    let u = &model.usage;
    let doc = json!({
        "seed": seed, "labels": rules.outcomes.len(), "model_flags": llm,
        "rules": summary(rules), "model": summary(model),
        "llm": {
            "model": u.model, "calls": u.calls, "failed_attempts": u.failed_attempts, "input_tokens": u.input_tokens,
            "output_tokens": u.output_tokens, "cost_usd": u.cost_usd, "claims_sent": u.claims_sent, "batches": u.batches,
            "verdicts_kept": u.verdicts_kept, "contract_violations": u.contract_violations,
            "evidence_downgrades": u.evidence_downgrades, "tool_calls": u.tool_calls, "failed_batches": u.failed_batches,
            "deferred_claims": u.deferred_claims,
        },
        "results": results,
    });
    std::fs::write(path, serde_json::to_string_pretty(&doc)?)?;
    Ok(())
}
