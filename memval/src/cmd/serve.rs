//! `memval serve ROLE`: flags → one [`memval_pipeline::service`] role on NATS JetStream,
//! until SIGTERM or SIGINT. `--check-config` says what the role would run with, without
//! contacting anything.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use anyhow::{anyhow, Context};
use clap::ValueEnum;
use memval_investigator::RepoRouter;
use memval_pipeline::models::{ModelStages, StoreCache};
use memval_pipeline::service;
use memval_proto::subjects;
use memval_transport::jetstream::{Auth, JetStream};
use tokio::sync::watch;

use crate::cli::NatsArgs;

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The stage this process runs.
    #[arg(value_enum)]
    pub role: Role,
    /// NATS server URL(s), comma-separated (nats://host:4222, tls://host:4222).
    #[arg(long, env = "MEMVAL_NATS_URL", value_name = "URL")]
    pub nats: String,
    #[command(flatten)]
    pub conn: NatsArgs,
    /// Investigator: the checkout that answers runs of any repo without a --repo-map entry.
    #[arg(long, env = "MEMVAL_REPO", value_name = "PATH")]
    pub repo: Option<PathBuf>,
    /// Investigator: the checkout that answers runs of repo NAME (repeatable, or
    /// comma-separated in MEMVAL_REPO_MAP). A run's repo matches NAME exactly or by its last
    /// path component.
    #[arg(long = "repo-map", env = "MEMVAL_REPO_MAP", value_name = "NAME=PATH", value_delimiter = ',')]
    pub repo_map: Vec<String>,
    /// Scorer: where scores and verdicts persist (sled; one scorer process per store).
    /// Default: ./.memval/store.
    #[arg(long, env = "MEMVAL_STORE", value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Batches this process works on at once. Default: the number of cores for the
    /// investigator, 2 for the extractor, 1 for the scorer and ingest.
    #[arg(long, env = "MEMVAL_CONCURRENCY", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub concurrency: Option<u32>,
    /// Extractor and investigator: the model they call (model extraction; the Tier B
    /// investigator), as for `memval validate --llm-*`. In a service the budget
    /// (--budget-usd, --max-llm-calls) and --llm-run-timeout are the process's, across runs;
    /// the per-run limits (--llm-extract-batches, --llm-investigate-batches) are per run and
    /// per replica.
    #[command(flatten)]
    pub llm: crate::model_flags::ValidateLlmArgs,
    /// Extractor and investigator with a model: a sled store of model results, so a
    /// redelivered batch, a restart or a second run over unchanged code costs no call (one
    /// process per directory). Default: no cache.
    #[arg(help_heading = "LLM", long = "llm-cache", env = "MEMVAL_LLM_CACHE", value_name = "DIR")]
    pub llm_cache: Option<PathBuf>,
    /// Judge: the Claude Code memory folder draft judgements are checked against (read
    /// afresh for every request).
    #[arg(long, env = "MEMVAL_MEMORY", value_name = "DIR")]
    pub memory: Option<PathBuf>,
    /// Ingest: memories per batch of the runs it starts.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub batch_size: u32,
    /// Check the options and the MEMVAL_*/OTEL_* environment, print the configuration this
    /// service would run with, and exit (0, or 2 saying what to fix) without contacting NATS
    /// or reading the repo.
    #[arg(long)]
    pub check_config: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Role {
    Extractor,
    Investigator,
    Scorer,
    /// Turns memval.v1.events.memory_ingested events into runs.
    Ingest,
    /// Answers draft judgements (request/reply on memval.v1.judge.draft) against --memory.
    Judge,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Extractor => "extractor",
            Role::Investigator => "investigator",
            Role::Scorer => "scorer",
            Role::Ingest => "ingest",
            Role::Judge => "judge",
        }
    }
}

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
    let js = memval_pipeline::topology::connect(&args.nats, &format!("memval-{}", role.as_str()), &args.conn.options()?).await?;
    let concurrency = concurrency(args.concurrency, role);
    if role == Role::Judge {
        // Request/reply, not a stage: it reports its own summary.
        return serve_judge(&args, &js, concurrency, stop).await;
    }
    let models = model_stages(&args)?;
    let model = models.as_ref().map(|m| m.model.clone());
    let service = match role {
        Role::Extractor => service::Role::Extractor { models },
        Role::Investigator => service::Role::Investigator { router: investigator(&args)?.with_tier_b(models.and_then(|m| m.tier_b)) },
        Role::Scorer => {
            let dir = args.store.clone().unwrap_or_else(|| PathBuf::from(".memval").join("store"));
            service::Role::Scorer { store: Arc::new(memval_store::open(&dir)?) }
        }
        Role::Ingest => service::Role::Ingest { batch_size: args.batch_size as usize },
        Role::Judge => unreachable!("the judge answered above"),
    };
    let stats = service::serve(service, &js, &args.nats, concurrency, stopped(stop)).await?;
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

/// Batches (or requests) a role handles at once: `--concurrency`, else one per core for the
/// investigator and the judge, two extractors, one scorer or ingest.
fn concurrency(given: Option<u32>, role: Role) -> usize {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    given.map(|c| c as usize).unwrap_or(match role {
        Role::Investigator | Role::Judge => cores,
        Role::Extractor => 2,
        Role::Scorer | Role::Ingest => 1,
    })
}

/// `serve judge`: draft judgements by request/reply until SIGTERM or SIGINT (the logic is
/// `memval_judge::draft::service`).
async fn serve_judge(args: &ServeArgs, js: &JetStream, concurrency: usize, stop: watch::Receiver<bool>) -> anyhow::Result<ExitCode> {
    use memval_judge::draft::{self, service};
    let memory = args.memory.clone().ok_or_else(|| anyhow!("the judge needs --memory DIR (MEMVAL_MEMORY): the memory folder drafts are judged against"))?;
    draft::read_folder(&memory)?;
    let model = args.llm.llm.service_config()?.map(memval_llm::LlmClient::new).transpose()?;
    let model = model.map(|m| Arc::new(m) as Arc<dyn memval_llm::ChatModel>);
    let judge = draft::DraftJudge::new(model);
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
fn model_stages(args: &ServeArgs) -> anyhow::Result<Option<ModelStages>> {
    if !matches!(args.role, Role::Extractor | Role::Investigator) {
        return Ok(None);
    }
    let Some(run) = args.llm.service_stages()? else { return Ok(None) };
    match &args.llm_cache {
        Some(dir) if !args.llm.no_cache => {
            let store = memval_store::open(dir)?;
            run.use_cache(Arc::new(StoreCache::new(&store)?));
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
    let auth = match crate::cli::auth(&args.conn) {
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
    let concurrency = concurrency(args.concurrency, role);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_variable_is_matched_to_the_one_meant() {
        let known = known_env();
        assert!(known.contains("MEMVAL_REPO_MAP") && known.contains("MEMVAL_LOG") && known.contains("OTEL_EXPORTER_OTLP_ENDPOINT"));
        assert_eq!(closest("MEMVAL_REPOMAP", &known), Some("MEMVAL_REPO_MAP"));
        assert_eq!(closest("OTEL_EXPORTER_OTLP_ENDPIONT", &known), Some("OTEL_EXPORTER_OTLP_ENDPOINT"));
        assert_eq!(closest("MEMVAL_SOMETHING_ELSE", &known), None);
    }
}
