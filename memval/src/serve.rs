//! `memval serve ROLE`: one stage as a long-running service on NATS JetStream. The stage
//! code is the code the in-process pipeline runs; only the inbox and outbox differ.
//!
//! The `ingest` role is not a stage but a source: it turns each memory-ingest event (JSON,
//! on `memval.v1.events.memory_ingested`) into a run, publishing its memory batches.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, Context};
use memval_extractor::ExtractorStage;
use memval_investigator::RepoRouter;
use memval_proto::{codec, subjects, Memory, MemoryBatch, Message, RunHeader, Source};
use memval_runtime::{publish_confirmed, run_stage, Inbox, Outbox, Stage, StageConfig, StageStats};
use memval_scorer::{ScoreStore, ScorerStage};
use memval_transport::jetstream::{Auth, JetStream, JetStreamInbox};
use memval_transport::{header, Headers, Outgoing};
use serde::Deserialize;
use tokio::sync::watch;
use tracing::Instrument;

use crate::cli::{Role, ServeArgs};
use crate::cluster;

/// Resolves on SIGTERM or SIGINT.
fn shutdown_signal() -> anyhow::Result<watch::Receiver<bool>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate()).context("cannot listen for SIGTERM")?;
    let mut int = signal(SignalKind::interrupt()).context("cannot listen for SIGINT")?;
    let (tx, rx) = watch::channel(false);
    tokio::spawn(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        let _ = tx.send(true);
    });
    Ok(rx)
}

async fn stopped(mut rx: watch::Receiver<bool>) {
    let _ = rx.wait_for(|stop| *stop).await;
}

pub async fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    if args.check_config {
        return check_config(&args);
    }
    for name in unknown_env(&["MEMVAL_"]) {
        eprintln!("memval: warning: {name} is set but memval does not read it (see `memval serve --help`)");
    }
    let role = args.role;
    let stop = shutdown_signal()?;
    let js = cluster::connect(&args.nats, &args.conn, &format!("memval-{}", role.as_str())).await?;
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let concurrency = args.concurrency.map(|c| c as usize).unwrap_or(match role {
        Role::Investigator | Role::Judge => cores,
        Role::Extractor => 2,
        Role::Scorer | Role::Ingest => 1,
    });
    let llm = model_stages(&args)?;
    let model = llm.as_ref().map(|l| l.model.clone());
    let stats = match role {
        Role::Extractor => match llm.and_then(|l| l.extractor) {
            Some(with_model) => serve_stage(with_model, &js, cluster::MEMORIES, concurrency, &args.nats, stop).await?,
            None => serve_stage(ExtractorStage, &js, cluster::MEMORIES, concurrency, &args.nats, stop).await?,
        },
        Role::Investigator => {
            let router = investigator(&args)?.with_tier_b(llm.and_then(|l| l.tier_b));
            // Index every checkout before taking work, so a bad path fails now, clearly.
            router.prepare().await.map_err(|e| anyhow!("{e}"))?;
            serve_stage(router, &js, cluster::CLAIMS, concurrency, &args.nats, stop).await?
        }
        Role::Scorer => {
            let dir = args.store.clone().unwrap_or_else(|| PathBuf::from(".memval").join("store"));
            let store = Arc::new(crate::open_store(&dir)?);
            let stats = serve_stage(ScorerStage::new(store.clone() as Arc<dyn ScoreStore>), &js, cluster::VERDICTS, concurrency, &args.nats, stop).await?;
            let flushed = store.clone();
            tokio::task::spawn_blocking(move || flushed.flush()).await??;
            stats
        }
        Role::Ingest => serve_ingest(&js, args.batch_size as usize, &args.nats, stop).await?,
        // Request/reply, not a stage: it reports its own summary.
        Role::Judge => return serve_judge(&args, &js, stop).await,
    };
    // Acks and naks are buffered by the client; send them before leaving.
    if let Err(e) = js.flush().await {
        tracing::warn!(error = %e, "could not flush the last acks; those batches will be redelivered");
    }
    eprintln!(
        "memval: {} stopped: {} batches processed, {} published, {} retried, {} dead-lettered",
        role.as_str(),
        stats.processed.load(Ordering::Relaxed),
        stats.published.load(Ordering::Relaxed),
        stats.retried.load(Ordering::Relaxed),
        stats.dead_lettered.load(Ordering::Relaxed),
    );
    if let Some(model) = model {
        let usage = model.usage();
        let t = &usage.total;
        eprintln!(
            "memval: {} model {}: calls {}, failed attempts {}, tokens {} in / {} out{}",
            role.as_str(),
            model.name(),
            t.calls,
            t.failed_attempts,
            t.input_tokens,
            t.output_tokens,
            t.cost_usd.map(|c| format!(", about ${c:.4}")).unwrap_or_default()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `serve judge`: draft judgements by request/reply until SIGTERM or SIGINT (the logic is
/// `memval_judge::draft::service`).
async fn serve_judge(args: &ServeArgs, js: &JetStream, stop: watch::Receiver<bool>) -> anyhow::Result<ExitCode> {
    use memval_judge::draft::{self, service};
    let memory = args.memory.clone().ok_or_else(|| anyhow!("the judge needs --memory DIR (MEMVAL_MEMORY): the memory folder drafts are judged against"))?;
    draft::read_folder(&memory)?;
    let model = args.llm.llm.service_config()?.map(memval_llm::LlmClient::new).transpose()?;
    let model = model.map(|m| Arc::new(m) as Arc<dyn memval_llm::ChatModel>);
    let judge = draft::DraftJudge::new(model);
    let concurrency = args.concurrency.map_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()), |c| c as usize);
    let responder = service::listen(&js.requester(), concurrency).await?;
    eprintln!("memval: judge serving on {} (subject {}, memory {}, {concurrency} at once)", args.nats, subjects::JUDGE_DRAFT, memory.display());
    let stats = service::serve(responder, Arc::new(service::DraftService::new(judge, memory)), stopped(stop)).await?;
    eprintln!(
        "memval: judge stopped: {} answered, {} failed, {} without reply subject",
        stats.answered.load(Ordering::Relaxed),
        stats.failed.load(Ordering::Relaxed),
        stats.no_reply_subject.load(Ordering::Relaxed)
    );
    Ok(ExitCode::SUCCESS)
}

/// The extractor's and the investigator's model stages, when a model is configured, with
/// their result cache when `--llm-cache` names one. Other roles call no model.
fn model_stages(args: &ServeArgs) -> anyhow::Result<Option<crate::llm_args::LlmRun>> {
    if !matches!(args.role, Role::Extractor | Role::Investigator) {
        return Ok(None);
    }
    let Some(run) = args.llm.service_stages()? else { return Ok(None) };
    match &args.llm_cache {
        Some(dir) if !args.llm.no_cache => {
            let store = crate::open_store(dir)?;
            run.use_store(&args.llm, &store)?;
        }
        _ => {}
    }
    eprintln!("memval: {} calls model {} (result cache: {})", args.role.as_str(), run.model.name(), llm_cache_setting(args));
    Ok(Some(run))
}

/// Where a model service keeps its results, as `--check-config` and the start-up line say it.
fn llm_cache_setting(args: &ServeArgs) -> String {
    match &args.llm_cache {
        Some(_) if args.llm.no_cache => "off (--llm-no-cache)".to_owned(),
        Some(dir) => dir.display().to_string(),
        None => "none (--llm-cache DIR keeps paid results)".to_owned(),
    }
}

/// `(name, path)` per `--repo-map` entry, and the `--repo` default.
type Checkouts = (Vec<(String, PathBuf)>, Option<PathBuf>);

/// The investigator's checkouts as configured. Paths are not looked at here.
fn repo_config(args: &ServeArgs) -> anyhow::Result<Checkouts> {
    let mut named = Vec::new();
    for entry in &args.repo_map {
        let (name, path) = entry
            .split_once('=')
            .filter(|(n, p)| !n.is_empty() && !p.is_empty())
            .ok_or_else(|| anyhow!("--repo-map {entry:?} is not NAME=PATH"))?;
        named.push((name.to_owned(), PathBuf::from(path)));
    }
    if named.is_empty() && args.repo.is_none() {
        return Err(anyhow!("the investigator needs a checkout: pass --repo PATH and/or --repo-map NAME=PATH (MEMVAL_REPO, MEMVAL_REPO_MAP)"));
    }
    Ok((named, args.repo.clone()))
}

fn investigator(args: &ServeArgs) -> anyhow::Result<RepoRouter> {
    let (named, default) = repo_config(args)?;
    let named = named.into_iter().map(|(name, path)| Ok((name, checkout(path, "--repo-map")?))).collect::<anyhow::Result<Vec<_>>>()?;
    let default = default.map(|p| checkout(p, "--repo")).transpose()?;
    Ok(RepoRouter::new(named, default))
}

/// Every environment variable memval's command line reads (`env = ...` on any flag of any
/// command), plus the OpenTelemetry ones.
pub fn known_env() -> std::collections::BTreeSet<String> {
    use clap::CommandFactory;
    fn walk(command: &clap::Command, out: &mut std::collections::BTreeSet<String>) {
        for arg in command.get_arguments() {
            if let Some(name) = arg.get_env() {
                out.insert(name.to_string_lossy().into_owned());
            }
        }
        for sub in command.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut out = std::collections::BTreeSet::new();
    walk(&crate::cli::Cli::command(), &mut out);
    out.extend(crate::telemetry::OTEL_VARS.iter().map(|v| v.to_string()));
    out
}

/// Variables in this process's environment with one of `prefixes` that memval does not read.
fn unknown_env(prefixes: &[&str]) -> Vec<String> {
    let known = known_env();
    let mut unknown: Vec<String> = std::env::vars_os()
        .filter_map(|(name, _)| name.into_string().ok())
        .filter(|name| prefixes.iter().any(|p| name.starts_with(p)) && !known.contains(name))
        .collect();
    unknown.sort();
    unknown
}

/// The known name nearest to a misspelt one (at most 3 edits away).
fn closest<'a>(name: &str, known: &'a std::collections::BTreeSet<String>) -> Option<&'a str> {
    fn distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut diagonal = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let above = row[j + 1];
                row[j + 1] = (diagonal + usize::from(ca != *cb)).min(row[j] + 1).min(above + 1);
                diagonal = above;
            }
        }
        row[b.len()]
    }
    known.iter().map(|k| (distance(name, k), k)).filter(|(d, _)| *d <= 3).min().map(|(_, k)| k.as_str())
}

/// `serve --check-config`: what this service would run with, checked as far as it can be
/// without the network or the file system.
fn check_config(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let role = args.role;
    let mut problems = Vec::new();
    let known = known_env();
    for name in unknown_env(&["MEMVAL_", "OTEL_"]) {
        match closest(&name, &known) {
            Some(near) => problems.push(format!("memval does not read {name} (did you mean {near}?)")),
            None => problems.push(format!("memval does not read {name}")),
        }
    }
    if let Err(e) = memval_transport::jetstream::check_url(&args.nats) {
        problems.push(e.to_string());
    }
    let auth = match cluster::auth(&args.conn) {
        Ok(Auth::None) => "none".to_owned(),
        Ok(Auth::UserPassword { user, .. }) => format!("user {user}"),
        Ok(Auth::Token(_)) => "token".to_owned(),
        Ok(Auth::NKeySeed(_)) => "nkey".to_owned(),
        Ok(Auth::CredsFile(path)) => format!("creds {}", path.display()),
        Err(e) => {
            problems.push(e.to_string());
            "invalid".to_owned()
        }
    };
    if args.conn.tls_cert.is_some() != args.conn.tls_key.is_some() {
        problems.push("--nats-tls-cert and --nats-tls-key go together".to_owned());
    }
    let mut lines = vec![format!(
        "nats:         {} (auth {auth}, tls {}, ack wait {}s, max ack pending {})",
        args.nats,
        if args.conn.tls_required || args.conn.tls_ca.is_some() || args.nats.contains("tls://") { "on" } else { "if offered" },
        args.conn.ack_wait,
        args.conn.max_ack_pending
    )];
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let concurrency = args.concurrency.map(|c| c as usize).unwrap_or(match role {
        Role::Investigator | Role::Judge => cores,
        Role::Extractor => 2,
        Role::Scorer | Role::Ingest => 1,
    });
    lines.push(format!("concurrency:  {concurrency}"));
    // Settings another role reads are ignored, as when serving; say so.
    let mut notes = Vec::new();
    let mut unused = |flag: &str, set: bool| {
        if set {
            notes.push(format!("note: {flag} is ignored by the {} role", role.as_str()));
        }
    };
    match role {
        Role::Investigator => match repo_config(args) {
            Ok((named, default)) => {
                if let Some(path) = default {
                    lines.push(format!("repo:         {} (runs of any repo without a --repo-map entry)", path.display()));
                }
                for (name, path) in named {
                    lines.push(format!("repo map:     {name} = {}", path.display()));
                }
            }
            Err(e) => problems.push(e.to_string()),
        },
        Role::Scorer => {
            let dir = args.store.clone().unwrap_or_else(|| PathBuf::from(".memval").join("store"));
            lines.push(format!("store:        {}", dir.display()));
        }
        Role::Ingest => lines.push(format!("batch size:   {} memories", args.batch_size)),
        Role::Judge => match &args.memory {
            Some(dir) => lines.push(format!("memory:       {} (subject {})", dir.display(), subjects::JUDGE_DRAFT)),
            None => problems.push("the judge needs --memory DIR (MEMVAL_MEMORY)".to_owned()),
        },
        Role::Extractor => {}
    }
    if role != Role::Judge {
        unused("--memory (MEMVAL_MEMORY)", args.memory.is_some());
    }
    if role != Role::Investigator {
        unused("--repo (MEMVAL_REPO)", args.repo.is_some());
        unused("--repo-map (MEMVAL_REPO_MAP)", !args.repo_map.is_empty());
    }
    if role != Role::Scorer {
        unused("--store (MEMVAL_STORE)", args.store.is_some());
    }
    if matches!(role, Role::Extractor | Role::Investigator | Role::Judge) {
        match args.llm.llm.service_config() {
            Ok(Some(model)) => {
                lines.push(format!("model:        {}/{} at {}", model.provider.as_str(), model.model, model.base_url));
                lines.push(format!("llm cache:    {}", llm_cache_setting(args)));
            }
            Ok(None) => lines.push(format!(
                "model:        none ({})",
                match role {
                    Role::Investigator => "Tier B claims stay not_checked",
                    Role::Judge => "veto rules only; candidates reported not judged",
                    _ => "rule extraction only",
                }
            )),
            Err(e) => problems.push(e.to_string()),
        }
    } else {
        let configured = args.llm.llm.provider.is_some() || args.llm.llm.model.is_some() || args.llm.llm.config.is_some();
        unused("--llm-*", configured);
        unused("--llm-cache (MEMVAL_LLM_CACHE)", args.llm_cache.is_some());
    }
    match crate::telemetry::trace_config(&format!("memval-{}", role.as_str())) {
        Ok(Some(t)) => lines.push(format!("traces:       {} (otlp {}, service {})", t.url, t.protocol, t.service)),
        Ok(None) => lines.push("traces:       off (OTEL_EXPORTER_OTLP_ENDPOINT is not set)".to_owned()),
        Err(e) => problems.push(e.to_string()),
    }
    if !problems.is_empty() {
        return Err(anyhow!("memval serve {}: {}", role.as_str(), problems.join("; ")));
    }
    println!("memval serve {}: configuration ok (nothing was contacted)", role.as_str());
    for line in lines.iter().chain(&notes) {
        println!("  {line}");
    }
    Ok(ExitCode::SUCCESS)
}

fn checkout(path: PathBuf, flag: &str) -> anyhow::Result<PathBuf> {
    if !path.is_dir() {
        return Err(anyhow!("{flag} {} is not a directory", path.display()));
    }
    path.canonicalize().with_context(|| format!("cannot resolve {}", path.display()))
}

async fn serve_stage<S: Stage>(
    stage: S,
    js: &JetStream,
    stream: &str,
    concurrency: usize,
    url: &str,
    stop: watch::Receiver<bool>,
) -> anyhow::Result<Arc<StageStats>> {
    let name = stage.name();
    let inbox = js.inbox(&cluster::stage_consumer(name, stream), concurrency).await?;
    let ack_wait = inbox.ack_wait();
    let config = StageConfig {
        concurrency,
        progress_every: (ack_wait / 3).max(Duration::from_millis(100)),
        ..StageConfig::default()
    };
    eprintln!("memval: {name} serving on {url} (stream {stream}, consumer {name}, {concurrency} at once, ack wait {}s)", ack_wait.as_secs_f64());
    let stats = run_stage(Arc::new(stage), Arc::new(inbox), Arc::new(js.outbox()), config, stopped(stop))
        .await
        .map_err(|e| anyhow!("{name} stopped: {e}"))?;
    Ok(stats)
}

/// A memory-ingest event (see the README for the schema).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct IngestEvent {
    /// Names the run (`ingest-<event_id>`); the same event id is the same run.
    event_id: Option<String>,
    repo: String,
    commit: Option<String>,
    /// Where the memories live (kept as their source in the store's history).
    source: Option<String>,
    memories: Vec<EventMemory>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventMemory {
    id: IdValue,
    agent: String,
    content: String,
    #[serde(default)]
    tier: u8,
    #[serde(rename = "type", default = "default_kind")]
    kind: String,
    created_at: Option<DateValue>,
    updated_at: Option<DateValue>,
}

fn default_kind() -> String {
    "memory".to_owned()
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum IdValue {
    Int(i64),
    Text(String),
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum DateValue {
    Unix(i64),
    Text(String),
}

fn parse_date(value: &DateValue, field: &str, index: usize) -> Result<i64, String> {
    match value {
        DateValue::Unix(ts) => Ok(*ts),
        DateValue::Text(text) => chrono::DateTime::parse_from_rfc3339(text)
            .map(|d| d.timestamp())
            .or_else(|_| {
                chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
                    .map(|d| d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc().timestamp())
            })
            .map_err(|_| format!("memories[{index}].{field}: {text:?} is neither RFC 3339 nor YYYY-MM-DD")),
    }
}

/// The run an event starts. Its id and start time come from the event (or the message), so
/// a redelivered event republishes identical batches, which the stream de-duplicates.
fn event_run(payload: &[u8], msg_id: Option<&str>, published_at: Option<i64>) -> Result<(RunHeader, Vec<Memory>), String> {
    let event: IngestEvent = serde_json::from_slice(payload).map_err(|e| format!("not a memory_ingested event: {e}"))?;
    if event.repo.trim().is_empty() {
        return Err("repo is empty; name the repo the memories describe".into());
    }
    let key = match (&event.event_id, msg_id) {
        (Some(id), _) => id.clone(),
        (None, Some(id)) => id.to_owned(),
        (None, None) => format!("{:016x}", fnv1a(payload)),
    };
    let run_id = format!("ingest-{}", subjects::subject_token(&key));
    let source = event.source.clone().unwrap_or_else(|| "memory_ingested".to_owned());
    let mut memories = Vec::with_capacity(event.memories.len());
    let mut seen = std::collections::HashSet::new();
    for (index, m) in event.memories.into_iter().enumerate() {
        let base = match m.id {
            IdValue::Int(n) => n.to_string(),
            IdValue::Text(t) => t,
        };
        if m.tier > 2 {
            return Err(format!("memories[{index}].tier is {}; tiers are 0, 1 and 2", m.tier));
        }
        let mut id = base.clone();
        let mut n = 1;
        while !seen.insert(id.clone()) {
            n += 1;
            id = format!("{base}~{n}");
        }
        memories.push(Memory {
            id,
            agent: m.agent,
            content: m.content,
            tier: m.tier,
            kind: m.kind,
            created_at: m.created_at.as_ref().map(|d| parse_date(d, "created_at", index)).transpose()?,
            updated_at: m.updated_at.as_ref().map(|d| parse_date(d, "updated_at", index)).transpose()?,
            source: Source { path: source.clone(), line: None, row: None, format: "event".into() },
            context_dir: None,
            first_line: 1,
        });
    }
    let header = RunHeader {
        run_id,
        repo: event.repo,
        commit: event.commit.filter(|c| !c.trim().is_empty()),
        started_at: published_at.unwrap_or_else(crate::now),
        expected_memories: memories.len() as u32,
    };
    Ok((header, memories))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3))
}

/// Publish a run's memory batches under `{run_id}.m{n}`, confirmed, 16 at a time. They carry
/// the trace context of the caller's span, or else that of `parent` (the headers of what
/// started the run), as the runtime does for a stage's outputs.
pub async fn submit_batches(
    outbox: &dyn Outbox,
    header: &RunHeader,
    memories: &[Memory],
    batch_size: usize,
    config: &StageConfig,
    parent: &Headers,
) -> anyhow::Result<()> {
    use futures::stream::{self, StreamExt, TryStreamExt};
    let mut headers = parent.propagated();
    headers.insert(header::RUN, &header.run_id);
    memval_runtime::trace::inject(&tracing::Span::current(), &mut headers);
    let batches = memories.chunks(batch_size.max(1)).enumerate().map(|(n, chunk)| MemoryBatch {
        run: header.clone(),
        batch_id: format!("{}.m{n}", header.run_id),
        memories: chunk.to_vec(),
    });
    stream::iter(batches)
        .map(|batch| {
            let headers = headers.clone();
            async move {
                let message = Outgoing {
                    subject: batch.subject(),
                    msg_id: batch.batch_id.clone(),
                    headers,
                    payload: codec::encode(&batch)?,
                };
                publish_confirmed(outbox, message, config).await.map_err(|e| anyhow!("submitting {}: {e}", batch.batch_id))
            }
        })
        .buffer_unordered(16)
        .try_collect::<Vec<()>>()
        .await?;
    Ok(())
}

async fn serve_ingest(js: &JetStream, batch_size: usize, url: &str, mut stop: watch::Receiver<bool>) -> anyhow::Result<Arc<StageStats>> {
    let inbox: JetStreamInbox = js.inbox(&cluster::stage_consumer("ingest", cluster::EVENTS), 1).await?;
    let outbox = js.outbox();
    let config = StageConfig::default();
    let stats = Arc::new(StageStats::default());
    eprintln!("memval: ingest serving on {url} (subject {}, consumer ingest)", subjects::MEMORY_INGESTED);
    let mut failures = 0u32;
    loop {
        let next = tokio::select! {
            biased;
            _ = stop.wait_for(|s| *s) => break,
            next = inbox.next() => next,
        };
        let envelope = match next {
            None => break,
            Some(Ok(envelope)) => envelope,
            Some(Err(e)) => {
                failures += 1;
                tracing::warn!(failures, error = %e, "event inbox unavailable");
                let delay = (config.base_backoff * 2u32.saturating_pow(failures.min(5))).min(Duration::from_secs(5));
                tokio::select! {
                    _ = stop.wait_for(|s| *s) => break,
                    _ = tokio::time::sleep(delay) => continue,
                }
            }
        };
        failures = 0;
        if envelope.subject != subjects::MEMORY_INGESTED {
            let reason = format!("unexpected subject {}; ingest consumes {}", envelope.subject, subjects::MEMORY_INGESTED);
            envelope.acker.dead_letter(reason, envelope.payload).await.ok();
            stats.dead_lettered.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        match event_run(&envelope.payload, envelope.msg_id.as_deref(), envelope.published_at) {
            Err(reason) => {
                envelope.acker.dead_letter(format!("ingest: {reason}"), envelope.payload).await.ok();
                stats.dead_lettered.fetch_add(1, Ordering::Relaxed);
            }
            Ok((header, memories)) => {
                // The run's trace continues the event's, when its publisher sent one.
                let span = tracing::info_span!(
                    "ingest",
                    otel.name = "memval ingest",
                    otel.kind = "consumer",
                    run = %header.run_id,
                    repo = %header.repo,
                    memories = memories.len(),
                );
                memval_runtime::trace::continue_from(&span, &envelope.headers);
                let submitted = submit_batches(&outbox, &header, &memories, batch_size, &config, &envelope.headers).instrument(span).await;
                match submitted {
                    Ok(()) => {
                        envelope.acker.ack().await.ok();
                        stats.processed.fetch_add(1, Ordering::Relaxed);
                        stats.published.fetch_add(memories.len().div_ceil(batch_size.max(1)) as u64, Ordering::Relaxed);
                        eprintln!("memval: ingest started run {} ({} memories of {})", header.run_id, memories.len(), header.repo);
                    }
                    Err(e) => {
                        // The event stays; batches already published are de-duplicated when
                        // it is redelivered.
                        tracing::warn!(error = %e, "cannot start the run of an event, will retry");
                        envelope.acker.nak(Duration::from_secs(1)).await.ok();
                        stats.retried.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }
    }
    inbox.close().await;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_becomes_a_deterministic_run() {
        let event = br#"{"event_id": "e-1", "repo": "shop", "commit": "abc",
            "memories": [
                {"id": 7, "agent": "a", "content": "`src/lib.rs` holds it", "tier": 2, "type": "feedback",
                 "created_at": "2026-03-15", "updated_at": "2026-03-16T10:00:00Z"},
                {"id": "7", "agent": "b", "content": "x", "created_at": 1773568800}
            ]}"#;
        let (header, memories) = event_run(event, Some("ignored"), Some(1_800_000_000)).unwrap();
        assert_eq!(header.run_id, "ingest-e-1");
        assert_eq!((header.repo.as_str(), header.commit.as_deref(), header.expected_memories), ("shop", Some("abc"), 2));
        assert_eq!(header.started_at, 1_800_000_000);
        assert_eq!((memories[0].id.as_str(), memories[1].id.as_str()), ("7", "7~2"));
        assert_eq!((memories[0].tier, memories[0].kind.as_str()), (2, "feedback"));
        assert_eq!(memories[0].created_at, Some(1_773_532_800));
        assert_eq!(memories[0].updated_at, Some(1_773_655_200));
        assert_eq!((memories[1].kind.as_str(), memories[1].created_at), ("memory", Some(1_773_568_800)));
        assert_eq!(memories[1].source.path, "memory_ingested");
        // No event id: the message id names the run, else the payload's hash.
        let bare = br#"{"repo": "shop", "memories": []}"#;
        assert_eq!(event_run(bare, Some("m.1"), None).unwrap().0.run_id, "ingest-m_1");
        assert_eq!(event_run(bare, None, None).unwrap().0.run_id, event_run(bare, None, None).unwrap().0.run_id);
    }

    #[test]
    fn a_misspelt_variable_is_matched_to_the_one_meant() {
        let known = known_env();
        assert!(known.contains("MEMVAL_REPO_MAP") && known.contains("MEMVAL_LOG") && known.contains("OTEL_EXPORTER_OTLP_ENDPOINT"));
        assert_eq!(closest("MEMVAL_REPOMAP", &known), Some("MEMVAL_REPO_MAP"));
        assert_eq!(closest("OTEL_EXPORTER_OTLP_ENDPIONT", &known), Some("OTEL_EXPORTER_OTLP_ENDPOINT"));
        assert_eq!(closest("MEMVAL_SOMETHING_ELSE", &known), None);
    }

    #[test]
    fn bad_events_say_what_is_wrong() {
        let cases: [(&[u8], &str); 5] = [
            (b"not json", "not a memory_ingested event"),
            (br#"{"repo": "", "memories": []}"#, "repo is empty"),
            (br#"{"repo": "r", "memories": [{"id": 1, "agent": "a", "content": "c", "tier": 5}]}"#, "tiers are 0, 1 and 2"),
            (br#"{"repo": "r", "memories": [{"id": 1, "agent": "a", "content": "c", "created_at": "yesterday"}]}"#, "memories[0].created_at"),
            (br#"{"repo": "r", "memories": [], "extra": 1}"#, "unknown field"),
        ];
        for (event, want) in cases {
            let err = event_run(event, None, None).unwrap_err();
            assert!(err.contains(want), "{err:?} should mention {want:?}");
        }
    }
}
