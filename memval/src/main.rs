//! `memval`: the one binary. Thin: parse arguments, wire the pipeline, print the report.

mod cli;
mod cmd;
mod cluster;
mod dlq;
mod judge;
mod llm_args;
mod pipeline;
mod remote;
mod report;
mod serve;
mod telemetry;

use std::collections::{HashMap, HashSet};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{anyhow, Context};
use clap::Parser;
use memval_proto::{RunHeader, Verdict};
use memval_scorer::{RunRecord, ScoreStore, SledStore};

use cli::{Cli, Command, FailOn, Format, HistoryArgs, HistoryFormat, ValidateArgs};

/// A user error (bad flags, unreadable input); like every error, it exits with code 2.
fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow!(msg.into())
}

fn main() -> ExitCode {
    // A panic's message can quote input text (a memory, a file): escaped, never raw. Panics
    // on one memory or claim are caught where they happen and reported on it; this line
    // says where, so the bug can be reported.
    std::panic::set_hook(Box::new(|info| {
        let what = memval_runtime::panics::message(info.payload());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("memval: internal error (a bug; please report it){at}: {}", what.escape_debug());
    }));
    let cli = Cli::parse();
    // Logs to stderr; traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (not for a
    // `--check-config`, which only reports what tracing would do).
    let export_traces = !matches!(&cli.command, Command::Serve(args) if args.check_config);
    let telemetry = match telemetry::init(&cli.log, &telemetry::service_name(&cli.command), export_traces) {
        Ok(telemetry) => telemetry,
        Err(e) => {
            eprintln!("memval: error: {e:#}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("memval: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Validate(args) => validate(*args).await,
            Command::History(args) => history(args).map(|()| ExitCode::SUCCESS),
            Command::Serve(args) => serve::serve(*args).await,
            Command::Dlq(args) => dlq::dlq(args).await,
            Command::Judge(args) => judge::judge(args).await,
            Command::Pairs(args) => cmd::pairs::run(args).await,
            Command::Reconcile(args) => cmd::reconcile::run(*args).await,
        }
    });
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            // An error can quote input (a path, a memory's field): never raw to the terminal.
            eprintln!("memval: error: {}", memval_proto::display::terminal_safe(&format!("{e:#}")));
            ExitCode::from(2)
        }
    };
    telemetry.shutdown();
    code
}

fn default_store(repo: &Path) -> PathBuf {
    repo.join(".memval").join("store")
}

fn open_store(dir: &Path) -> anyhow::Result<SledStore> {
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        // The default store sits in the user's repository: it ignores itself, so a run never
        // shows up in `git status`.
        if parent.file_name().is_some_and(|n| n == ".memval") {
            let ignore = parent.join(".gitignore");
            if !ignore.exists() {
                std::fs::write(&ignore, "# memval's run store (memval validate --store); not part of the repository\n*\n")
                    .with_context(|| format!("cannot write {}", ignore.display()))?;
            }
        }
    }
    SledStore::open(dir).map_err(|e| usage(e.to_string()))
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Run ids sort in start order (microseconds), so runs started in the same second still
/// appear in order in `memval history`.
fn new_run_id() -> String {
    let t = chrono::Utc::now();
    format!("{}-{:04x}", t.format("%Y%m%dT%H%M%S%6fZ"), std::process::id() & 0xffff)
}

async fn validate(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    if !args.repo.is_dir() {
        return Err(usage(format!("--repo {} is not a directory; point it at the repository the memories describe", args.repo.display())));
    }
    if !args.memories.exists() {
        return Err(usage(format!("--memories {} does not exist", args.memories.display())));
    }
    // Before the run, not after it: a report with nowhere to go is a run lost.
    if let Some(out) = &args.output {
        check_output_dir(out)?;
    }
    let repo = args.repo.canonicalize().with_context(|| format!("cannot resolve {}", args.repo.display()))?;
    let memories_path = args.memories.clone();
    let repo_for_load = repo.clone();
    let loaded = tokio::task::spawn_blocking(move || memval_sources::load(&memories_path, &repo_for_load))
        .await?
        .map_err(|e| usage(format!("cannot read memories: {e}")))?;
    let mut memories = loaded.memories;
    // Memory ids key every record of a run; make them unique without losing any memory.
    let mut seen = HashSet::new();
    for m in &mut memories {
        let base = m.id.clone();
        let mut n = 1;
        while !seen.insert(m.id.clone()) {
            n += 1;
            m.id = format!("{base}~{n}");
        }
    }
    for p in &loaded.problems {
        eprintln!("memval: warning: skipped {}", memval_proto::display::terminal_safe(&format!("{}: {}", p.path.display(), p.reason)));
    }
    if memories.is_empty() {
        eprintln!("memval: warning: no memories found in {}; nothing was checked", memval_proto::display::terminal_safe(&args.memories.display().to_string()));
    }
    let llm = args.llm.build(args.nats.is_some())?;
    let store_dir = args.store.clone().unwrap_or_else(|| default_store(&repo));
    // In a cluster the scorer service owns the store; this process submits and reads scores.
    let store = match &args.nats {
        None => Some(Arc::new(open_store(&store_dir)?)),
        Some(_) => None,
    };
    let commit = memval_investigator::GitRepo::open(&repo).map(|g| g.head);
    let header = RunHeader {
        run_id: new_run_id(),
        repo: args.repo_name.clone().unwrap_or_else(|| repo.display().to_string()),
        commit,
        started_at: now(),
        expected_memories: memories.len() as u32,
    };
    let order: HashMap<String, usize> = memories.iter().enumerate().map(|(i, m)| (m.id.clone(), i)).collect();
    if let (Some(llm), Some(store)) = (&llm, &store) {
        // What a model budget defers is what is submitted last (SPEC §4 order).
        llm_args::prioritise(&mut memories, &**store)?;
        llm.use_store(&args.llm, store)?;
    }
    let progress = !args.quiet;
    let output = match (&args.nats, &store) {
        (Some(url), _) => {
            remote::run(url, &args.nats_conn, header.clone(), memories, args.batch_size as usize, progress).await?
        }
        (None, Some(store)) => {
            pipeline::run(
                header.clone(),
                memories,
                repo.clone(),
                store.clone() as Arc<dyn ScoreStore>,
                args.batch_size as usize,
                progress,
                llm.clone(),
            )
            .await?
        }
        (None, None) => unreachable!("an in-process run opens its store"),
    };
    for letter in &output.dead_letters {
        eprintln!("memval: batch {} failed: {}", letter.msg_id.as_deref().unwrap_or("?"), letter.reason);
    }
    let mut scores = output.scores;
    if scores.len() != header.expected_memories as usize {
        return Err(anyhow!(
            "run incomplete: {} of {} memories were scored (see the errors above); nothing was reported",
            scores.len(),
            header.expected_memories
        ));
    }
    scores.sort_by_key(|s| order.get(&s.memory.id).copied().unwrap_or(usize::MAX));
    let finished_at = now();
    let (fail_on, fail_on_name) = match args.fail_on {
        FailOn::Ambiguous => (Some(Verdict::Ambiguous), "ambiguous"),
        FailOn::Stale => (Some(Verdict::Stale), "stale"),
        FailOn::Contradicted => (Some(Verdict::Contradicted), "contradicted"),
        FailOn::Never => (None, "never"),
    };
    let mut report = report::build(
        &scores,
        report::Inputs {
            header: &header,
            finished_at,
            memories_path: args.memories.display().to_string(),
            memories_format: loaded.format.as_str(),
            store: match &args.nats {
                None => store_dir.display().to_string(),
                Some(url) => format!("scorer service at {url}"),
            },
            fail_on,
            fail_on_name: fail_on_name.to_owned(),
            problems: loaded
                .problems
                .iter()
                .map(|p| report::Problem { path: p.path.display().to_string(), reason: p.reason.clone() })
                .collect(),
        },
    );
    report.llm = llm.as_ref().map(|l| l.report_section(&header.run_id));
    if let Some(store) = &store {
        store.put_run(&RunRecord {
            header: header.clone(),
            finished_at,
            memories: report.run.memories as u32,
            claims: report.run.claims as u32,
            not_checked: report.run.not_checked as u32,
        })?;
        store.flush()?;
    }
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let format = args.format.unwrap_or(if to_terminal { Format::Table } else { Format::Json });
    let repo_for_uri = repo.clone();
    let text = match format {
        Format::Json => report::to_json(&report),
        Format::Table => report::to_table(&report),
        Format::Md => report::to_markdown(&report),
        Format::Sarif => report::to_sarif(&report, &|p: &str| sarif_uri(&repo_for_uri, p)),
    };
    emit(args.output.as_deref(), &text)?;
    Ok(if report.run.failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// A memory file's path as code scanning wants it: relative to the repo when inside it.
fn sarif_uri(repo: &Path, path: &str) -> String {
    let p = Path::new(path);
    let absolute = if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir().map(|d| d.join(p)).unwrap_or_else(|_| p.to_path_buf()) };
    let absolute = absolute.canonicalize().unwrap_or(absolute);
    match absolute.strip_prefix(repo) {
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => path.replace('\\', "/"),
    }
}

/// Write the report whole: to a temporary file renamed into place, so a failure never
/// leaves half a report behind.
/// The folder `-o FILE` writes into must exist (memval does not create it).
fn check_output_dir(path: &Path) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(usage(format!("-o {}: the folder {} does not exist; create it or write the report elsewhere", path.display(), dir.display())));
    }
    Ok(())
}

fn emit(path: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match path {
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
        Some(path) => {
            check_output_dir(path)?;
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let tmp = dir.join(format!(".{}.memval-tmp", path.file_name().and_then(|n| n.to_str()).unwrap_or("report")));
            std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
            std::fs::rename(&tmp, path).with_context(|| format!("cannot move the report to {}", path.display()))?;
        }
    }
    Ok(())
}

fn history(args: HistoryArgs) -> anyhow::Result<()> {
    let dir = args.store.clone().unwrap_or_else(|| default_store(&args.repo));
    if !dir.exists() {
        return Err(usage(format!("no memval store at {}; run `memval validate` first or pass --store", dir.display())));
    }
    let store = open_store(&dir)?;
    let points = store.history(args.filter.as_deref().unwrap_or(""))?;
    match args.format {
        HistoryFormat::Json => {
            let mut grouped: Vec<serde_json::Value> = Vec::new();
            let mut by_memory: Vec<(String, Vec<&memval_scorer::HistoryPoint>)> = Vec::new();
            for p in &points {
                match by_memory.iter_mut().find(|(k, _)| *k == p.source) {
                    Some((_, list)) => list.push(p),
                    None => by_memory.push((p.source.clone(), vec![p])),
                }
            }
            for (source, list) in by_memory {
                grouped.push(serde_json::json!({
                    "memory_id": list[0].memory_id,
                    "source": source,
                    "runs": list.iter().map(|p| serde_json::json!({
                        "run_id": p.run_id,
                        "started_at": memval_proto::rfc3339(p.started_at),
                        "score": p.score,
                        "verdicts": p.verdicts.iter().map(|(v, c)| serde_json::json!({"verdict": v, "confidence": c})).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                }));
            }
            println!("{}", memval_proto::display::json_safe(&serde_json::to_string_pretty(&grouped)?));
        }
        HistoryFormat::Table => {
            if points.is_empty() {
                println!("no runs recorded{}", memval_proto::display::terminal_safe(&args.filter.map(|f| format!(" for memories matching {f:?}")).unwrap_or_default()));
                return Ok(());
            }
            let mut current = String::new();
            let mut previous: Option<u8> = None;
            for p in &points {
                if p.source != current {
                    println!("{}", memval_proto::display::terminal_safe(&format!("{} ({})", p.source, p.memory_id)));
                    current = p.source.clone();
                    previous = None;
                }
                let score = p.score.map_or("-".to_owned(), |s| s.to_string());
                let change = match (previous, p.score) {
                    (Some(a), Some(b)) if b > a => format!("  (+{})", b - a),
                    (Some(a), Some(b)) if b < a => format!("  (-{})", a - b),
                    _ => String::new(),
                };
                println!("    {}  {:>3}{change}  run {}", memval_proto::rfc3339(p.started_at), score, p.run_id);
                previous = p.score;
            }
        }
    }
    Ok(())
}
