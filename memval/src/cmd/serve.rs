//! `memval serve ROLE`: flags → one [`memval_pipeline::service`] role on NATS JetStream,
//! until SIGTERM or SIGINT. `--check-config` says what the role would run with, without
//! contacting anything (the checks are `memval_pipeline::config`).
//!
//! `--check-config` parses flags and environment exactly as `serve` does, refuses `MEMVAL_*` and
//! `OTEL_*` variables memval does not read (the known set is collected from the clap definitions
//! here plus `telemetry::OTEL_VARS`), prints the resolved configuration and exits.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, Context};
use clap::ValueEnum;
use memval_investigator::RepoRouter;
use memval_pipeline::config::{self, RoleKind};
use memval_pipeline::models::{ModelStages, StoreCache};
use memval_pipeline::{reconciling, service};
use memval_reconciler::candidates::Cap;
use memval_transport::jetstream::JetStream;
use tokio::sync::watch;

use crate::flags::NatsArgs;

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The stage this process runs.
    #[arg(value_enum)]
    pub role: Role,
    /// NATS server URL(s), comma-separated (nats://host:4222, tls://host:4222).
    #[arg(long, env = "MEMVAL_NATS_URL", hide_env_values = true, value_name = "URL")]
    pub nats: String,
    #[command(flatten)]
    pub conn: NatsArgs,
    /// Investigator: the checkout that answers runs of any repo without a --repo-map entry.
    #[arg(long, env = "MEMVAL_REPO", hide_env_values = true, value_name = "PATH")]
    pub repo: Option<PathBuf>,
    /// Investigator: the checkout that answers runs of repo NAME (repeatable).
    ///
    /// Comma-separated in MEMVAL_REPO_MAP. A run's repo matches NAME exactly or by its last
    /// path component.
    #[arg(
        long = "repo-map",
        env = "MEMVAL_REPO_MAP",
        hide_env_values = true,
        value_name = "NAME=PATH",
        value_delimiter = ','
    )]
    pub repo_map: Vec<String>,
    /// Scorer: where scores and verdicts persist. Default: ./.memval/store.
    ///
    /// A sled store; one scorer process per store. Reconciler with --method embed|both: where
    /// embeddings are cached; default: each repo's REPO/.memval/store.
    #[arg(long, env = "MEMVAL_STORE", hide_env_values = true, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Batches this process works on at once.
    ///
    /// Default: the number of cores for the investigator, 2 for the extractor, 1 for the scorer
    /// and ingest.
    #[arg(long, env = "MEMVAL_CONCURRENCY", hide_env_values = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub concurrency: Option<u32>,
    /// Extractor and investigator: the model they call (model extraction; the Tier B
    /// investigator), as for `memval validate --llm-*`. In a service the budget
    /// (--budget-usd, --max-llm-calls) and --llm-run-timeout are the process's, across runs;
    /// the per-run limits (--llm-extract-batches, --llm-investigate-batches) are per run and
    /// per replica.
    #[command(flatten)]
    pub llm: crate::model_flags::ValidateLlmArgs,
    /// Extractor and investigator with a model: a store of model results. Default: no cache.
    ///
    /// A sled store, so a redelivered batch, a restart or a second run over unchanged code costs
    /// no call (one process per directory).
    #[arg(
        help_heading = "LLM",
        hide_short_help = true,
        long = "llm-cache",
        env = "MEMVAL_LLM_CACHE",
        hide_env_values = true,
        value_name = "DIR"
    )]
    pub llm_cache: Option<PathBuf>,
    /// Judge: the Claude Code memory folder draft judgements are checked against.
    ///
    /// Read afresh for every request. With a model (--llm-*) the judge also judges pair batches
    /// from the MEMVAL_PAIRS stream; it needs one or both.
    #[arg(long, env = "MEMVAL_MEMORY", hide_env_values = true, value_name = "DIR")]
    pub memory: Option<PathBuf>,
    /// Reconciler: when to reconcile every repo of --repo-map, a cron expression.
    ///
    /// 5 fields, crontab's; or 6-7 with seconds first. Checked at start-up.
    #[arg(long, env = "MEMVAL_SCHEDULE", hide_env_values = true, value_name = "CRON")]
    pub schedule: Option<String>,
    /// Reconciler: the memories of each repo (repeatable). Default: contexts (a GAAI tree).
    ///
    /// Inside the repo unless absolute.
    #[arg(long, env = "MEMVAL_MEMORIES", hide_env_values = true, value_name = "PATH", value_delimiter = ',')]
    pub memories: Vec<PathBuf>,
    /// Reconciler: folder of the reports. Default: as `memval reconcile`, per repo.
    ///
    /// One folder per repo name below it when several repos are served.
    #[arg(long, env = "MEMVAL_OUT_DIR", hide_env_values = true, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Reconciler: reconcile a repo after this many memory-ingest events of it...
    #[arg(long, hide_short_help = true, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub debounce_events: u32,
    /// Reconciler: ...or this many seconds after its last event.
    #[arg(long, hide_short_help = true, value_name = "SECS", default_value_t = 60)]
    pub debounce_quiet: u64,
    /// Reconciler: send candidate pairs to `memval serve judge` replicas with a model.
    ///
    /// As batches on the MEMVAL_PAIRS stream. Without it they are listed "not judged: no model
    /// configured".
    #[arg(long, env = "MEMVAL_PAIR_JUDGES", hide_env_values = true)]
    pub pair_judges: bool,
    /// Reconciler: how long to wait for the judges' judgements of a reconciliation.
    ///
    /// From when its first batch is sent; pairs without one are listed "not judged" with the
    /// reason, and a judge that gets their batch later skips it. At most 3600: the pairs
    /// stream drops batches older than that.
    #[arg(long, hide_short_help = true, value_name = "SECS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub judge_timeout: u64,
    /// Reconciler: how long a replica may hold a period without renewing its lease.
    ///
    /// A replica that claimed a period (schedule firing or ingest event) may go this long
    /// without renewing its lease before another replica of the repo takes the period
    /// over and writes its report; the holder renews every quarter of it. Longer: fewer
    /// renewals, and a crashed replica's period waits longer. At most 86400.
    #[arg(long, hide_short_help = true, value_name = "SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub lease_ttl: u64,
    /// Ingest: memories per batch of the runs it starts.
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub batch_size: u32,
    /// Check the options and environment, print the configuration, and exit.
    ///
    /// Checks the options and the MEMVAL_*/OTEL_* environment, prints the configuration this
    /// service would run with, and exits (0, or 2 saying what to fix) without contacting NATS
    /// or reading the repo.
    #[arg(long)]
    pub check_config: bool,
    // Last: `next_help_heading` puts every flag after it under its heading.
    /// Reconciler: how candidate pairs are proposed, as `memval reconcile --method`; with
    /// embed or both the model is found at start-up.
    #[command(flatten, next_help_heading = "Reconciler pairs")]
    pub pair_method: crate::flags::PairMethodArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Role {
    Extractor,
    Investigator,
    Scorer,
    /// Turns memval.v1.events.memory_ingested events into runs.
    Ingest,
    /// Judges pair batches (with a model) and answers draft judgements (request/reply on
    /// memval.v1.judge.draft, with --memory).
    Judge,
    /// Writes reconciliation reports on a schedule, on request and after ingest events.
    Reconciler,
}

impl Role {
    pub fn kind(self) -> RoleKind {
        match self {
            Role::Extractor => RoleKind::Extractor,
            Role::Investigator => RoleKind::Investigator,
            Role::Scorer => RoleKind::Scorer,
            Role::Ingest => RoleKind::Ingest,
            Role::Judge => RoleKind::Judge,
            Role::Reconciler => RoleKind::Reconciler,
        }
    }

    pub fn as_str(self) -> &'static str {
        self.kind().as_str()
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

/// Runs the role until SIGTERM or SIGINT. `known_env`: every variable memval's command line
/// reads (`cli::known_env`), to warn about one that is set but read by nothing.
pub async fn serve(args: ServeArgs, known_env: &BTreeSet<String>) -> anyhow::Result<ExitCode> {
    if args.check_config {
        return check_config(&args, known_env);
    }
    for name in unknown_env(known_env, &["MEMVAL_"]) {
        eprintln!("memval: warning: {name} is set but memval does not read it (see `memval serve --help`)");
    }
    let role = args.role;
    // A schedule that cannot fire is a start-up error, before anything is contacted.
    let schedule = match (role, &args.schedule) {
        (Role::Reconciler, Some(cron)) => Some(memval_reconciler::Schedule::parse(cron)?),
        (Role::Reconciler, None) => return Err(anyhow!("the reconciler needs --schedule \"CRON\" (MEMVAL_SCHEDULE)")),
        _ => None,
    };
    let stop = shutdown_signal()?;
    let js =
        memval_pipeline::topology::connect(&args.nats, &format!("memval-{}", role.as_str()), &args.conn.options()?)
            .await?;
    let concurrency = config::concurrency(args.concurrency, role.kind());
    let models = model_stages(&args)?;
    // The model whose usage is printed when the role stops: the model stages', or the judge's.
    let mut model = models.as_ref().map(|m| m.model.clone());
    let service = match role {
        Role::Extractor => service::Role::Extractor { models },
        Role::Investigator => {
            service::Role::Investigator { router: investigator(&args)?.with_tier_b(models.and_then(|m| m.tier_b)) }
        }
        Role::Scorer => {
            let dir = args.store.clone().unwrap_or_else(|| PathBuf::from(".memval").join("store"));
            service::Role::Scorer { store: Arc::new(memval_store::open(&dir)?) }
        }
        Role::Ingest => service::Role::Ingest { batch_size: args.batch_size as usize },
        Role::Judge => {
            let (judge, judge_model) = judge(&args)?;
            model = judge_model;
            judge
        }
        Role::Reconciler => reconciler(&args, schedule.expect("parsed above"), &js)?,
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
    eprintln!(
        "memval: {} calls model {} (result cache: {})",
        args.role.as_str(),
        run.model.name(),
        llm_cache_setting(args)
    );
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

fn investigator(args: &ServeArgs) -> anyhow::Result<RepoRouter> {
    let named = config::repo_map(&args.repo_map).map_err(|e| anyhow!(e))?;
    if named.is_empty() && args.repo.is_none() {
        return Err(anyhow!("the investigator needs a checkout: pass --repo PATH and/or --repo-map NAME=PATH (MEMVAL_REPO, MEMVAL_REPO_MAP)"));
    }
    let named = named
        .into_iter()
        .map(|(name, path)| Ok((name, checkout(path, "--repo-map")?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let default = args.repo.clone().map(|p| checkout(p, "--repo")).transpose()?;
    Ok(RepoRouter::new(named, default))
}

/// The judge: pair batches with a model, draft judgements with a memory folder; and the model
/// both call, if any, whose usage is printed when the judge stops.
fn judge(args: &ServeArgs) -> anyhow::Result<(service::Role, Option<Arc<dyn memval_llm::ChatModel>>)> {
    use memval_judge::draft;
    let model = args.llm.llm.service_config()?.map(memval_llm::LlmClient::new).transpose()?;
    let model = model.map(|m| Arc::new(m) as Arc<dyn memval_llm::ChatModel>);
    let drafts = match &args.memory {
        Some(memory) => {
            draft::read_folder(memory)?;
            Some(draft::service::DraftService::new(draft::DraftJudge::new(model.clone()), memory.clone()))
        }
        None => None,
    };
    let pairs = match &model {
        Some(model) => {
            let cache = match &args.llm_cache {
                Some(dir) if !args.llm.no_cache => {
                    Some(Arc::new(StoreCache::new(&memval_store::open(dir)?)?) as Arc<dyn memval_llm::ResultCache>)
                }
                _ => None,
            };
            eprintln!(
                "memval: judge calls model {} for pair batches (result cache: {})",
                model.name(),
                llm_cache_setting(args)
            );
            Some(memval_judge::JudgeStage::new(model.clone()).with_cache(cache))
        }
        None => None,
    };
    Ok((service::Role::Judge { pairs, drafts }, model))
}

/// The reconciler: its repos, schedule and triggers; pair judges over `js` with --pair-judges.
fn reconciler(
    args: &ServeArgs,
    schedule: memval_reconciler::Schedule,
    js: &JetStream,
) -> anyhow::Result<service::Role> {
    let named = config::repo_map(&args.repo_map).map_err(|e| anyhow!(e))?;
    if named.is_empty() {
        return Err(anyhow!("the reconciler needs --repo-map NAME=PATH (MEMVAL_REPO_MAP): the repos it reconciles"));
    }
    let named = named
        .into_iter()
        .map(|(name, path)| Ok((name, checkout(path, "--repo-map")?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let targets = reconciling::targets(named, &args.memories, args.out_dir.clone());
    let judges = args.pair_judges.then(|| {
        Arc::new(reconciling::JetStreamJudges::new(js.clone(), Duration::from_secs(args.judge_timeout)))
            as Arc<dyn memval_reconciler::PairJudges>
    });
    let method = args.pair_method.method(args.store.clone());
    let reconciler = memval_reconciler::Reconciler::new(
        targets,
        judges,
        Cap::Default,
        memval_reconciler::pairs::DEFAULT_PER_AGENT,
        method,
    )?;
    let triggers = reconciling::Triggers {
        schedule,
        debounce_events: args.debounce_events,
        debounce_quiet: Duration::from_secs(args.debounce_quiet),
        lease_ttl: Duration::from_secs(args.lease_ttl),
    };
    Ok(service::Role::Reconciler { reconciler: Arc::new(reconciler), triggers })
}

fn unknown_env(known_env: &BTreeSet<String>, prefixes: &[&str]) -> Vec<String> {
    config::unknown_env(known_env, std::env::vars_os().filter_map(|(name, _)| name.into_string().ok()), prefixes)
}

/// `serve --check-config`: the flags as [`config::ServeSettings`], judged by
/// [`config::check`]; nothing is contacted.
fn check_config(args: &ServeArgs, known_env: &BTreeSet<String>) -> anyhow::Result<ExitCode> {
    let role = args.role.kind();
    let llm = &args.llm.llm;
    let settings = config::ServeSettings {
        role,
        nats: args.nats.clone(),
        nats_url: memval_transport::jetstream::check_url(&args.nats).map_err(|e| e.to_string()),
        auth: crate::flags::auth(&args.conn).map_err(|e| e.to_string()),
        tls_on: args.conn.tls_required || args.conn.tls_ca.is_some() || args.nats.contains("tls://"),
        tls_half_pair: args.conn.tls_cert.is_some() != args.conn.tls_key.is_some(),
        ack_wait_secs: args.conn.ack_wait,
        max_ack_pending: i64::from(args.conn.max_ack_pending),
        concurrency: args.concurrency,
        repo: args.repo.clone(),
        repo_map: args.repo_map.clone(),
        store: args.store.clone(),
        memory: args.memory.clone(),
        batch_size: args.batch_size,
        model: llm
            .service_config()
            .map(|m| m.map(|m| format!("{}/{} at {}", m.provider.as_str(), m.model, m.base_url)))
            .map_err(|e| e.to_string()),
        llm_given: llm.provider.is_some() || llm.model.is_some() || llm.config.is_some(),
        llm_cache: llm_cache_setting(args),
        llm_cache_given: args.llm_cache.is_some(),
        schedule: args.schedule.clone(),
        memories: args.memories.clone(),
        out_dir: args.out_dir.clone(),
        debounce_events: args.debounce_events,
        debounce_quiet_secs: args.debounce_quiet,
        pair_judges: args.pair_judges,
        judge_timeout_secs: args.judge_timeout,
        lease_ttl_secs: args.lease_ttl,
        pair_method: args.pair_method.method(args.store.clone()),
        traces: match crate::telemetry::trace_config(&format!("memval-{}", role.as_str())) {
            Ok(Some(t)) => Ok(format!("{} (otlp {}, service {})", t.url, t.protocol, t.service)),
            Ok(None) => Ok("off (OTEL_EXPORTER_OTLP_ENDPOINT is not set)".to_owned()),
            Err(e) => Err(e.to_string()),
        },
        unknown_env: unknown_env(known_env, &["MEMVAL_", "OTEL_"]),
    };
    match config::check(&settings, known_env) {
        Ok(lines) => {
            println!("memval serve {}: configuration ok (nothing was contacted)", role.as_str());
            for line in lines {
                println!("  {line}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(problems) => Err(anyhow!("memval serve {}: {}", role.as_str(), problems.join("; "))),
    }
}

fn checkout(path: PathBuf, flag: &str) -> anyhow::Result<PathBuf> {
    if !path.is_dir() {
        return Err(anyhow!("{flag} {} is not a directory", path.display()));
    }
    path.canonicalize().with_context(|| format!("cannot resolve {}", path.display()))
}
