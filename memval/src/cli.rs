//! Command-line surface. Every flag here is wired to behaviour; `--help` is the manual.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "memval",
    version,
    about = "Finds out which of your coding agents' memories are still true of the code, with proof",
    long_about = "memval reads the notes your coding agents keep (CLAUDE.md, AGENTS.md, Claude Code memory \
folders, GAAI decision records, JSON/JSONL exports, validate-memory's memory.db), extracts the checkable \
claims in them (files, symbols, line numbers, config values), and checks each claim against the repo and its \
git history. Every claim gets VALID, STALE (with its successor), CONTRADICTED or AMBIGUOUS, a confidence and \
file:line evidence; every memory gets a score and a suggested action. memval only reports: it never edits a memory.",
    after_help = "Examples:\n  memval validate --repo . --memories CLAUDE.md\n  memval validate --repo . --memories ~/.claude/projects/x/memory --format md > report.md\n  memval validate --repo . --memories memories.jsonl --format sarif > memval.sarif\n  memval history --repo . lru"
)]
pub struct Cli {
    /// Log verbosity for diagnostics on stderr (error, warn, info, debug, trace).
    #[arg(long, global = true, default_value = "warn", env = "MEMVAL_LOG")]
    pub log: String,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check memories against a repo and report every claim's verdict.
    #[command(
        long_about = "Check memories against a repo. The memory format is detected: a JSON or JSONL file of \
memory objects, a SQLite memory.db (opened read-only), a Claude Code memory folder (MEMORY.md + *.md), a GAAI \
contexts/memory tree, or notes files/folders (CLAUDE.md, AGENTS.md, docs/**/*.md, README.md).\n\n\
Exit codes: 0 when no claim is at or above --fail-on; 1 when one is; 2 on bad usage or input, or when the run \
could not complete.",
        after_help = "Severity order for --fail-on: ambiguous < stale < contradicted.\n\
Behavioral and architectural claims need an LLM investigator; without one they are listed under not_checked \
(never counted as VALID) unless the code they describe is provably gone or moved."
    )]
    Validate(Box<ValidateArgs>),
    /// Show how memories' scores changed over runs.
    History(HistoryArgs),
    /// Run one pipeline stage as a long-running NATS JetStream service.
    #[command(
        long_about = "Run one stage of the pipeline as a service on NATS JetStream. Start any number of each; \
replicas of a stage share its durable consumer, so more investigators check more claims at once. The service \
creates (or verifies) the streams and its consumer, then serves until SIGTERM or SIGINT: it stops pulling, \
finishes the batches in hand, returns what it fetched but did not start, and exits 0.\n\n\
Roles: extractor (memories -> claims), investigator (claims -> verdicts; needs --repo and/or --repo-map), \
scorer (verdicts -> scores; owns the --store), ingest (memory_ingested events -> runs).",
        after_help = "Examples:\n  memval serve extractor --nats nats://127.0.0.1:4222\n  memval serve investigator --nats nats://nats:4222 --repo /srv/shop\n  memval serve investigator --nats nats://nats:4222 --repo-map shop=/srv/shop --repo-map web=/srv/web\n  memval serve scorer --nats nats://nats:4222 --store /var/lib/memval\n  memval serve ingest --nats nats://nats:4222"
    )]
    Serve(Box<ServeArgs>),
    /// List or re-inject the dead letters of a NATS cluster.
    Dlq(DlqArgs),
    /// LLM judges: `judge pairs` decides whether memories of different agents contradict.
    Judge(crate::judge::JudgeArgs),
    /// Candidate pairs of memories of different agents that may contradict each other.
    Pairs(crate::cmd::pairs::PairsArgs),
    /// Reconcile memories with decisions, docs and code: a dated drift report.
    Reconcile(Box<crate::cmd::reconcile::ReconcileArgs>),
}

/// How to reach NATS. Every flag can also be given in the environment.
#[derive(Debug, Clone, clap::Args)]
pub struct NatsArgs {
    /// User name for user/password auth.
    #[arg(help_heading = "NATS connection", long = "nats-user", env = "MEMVAL_NATS_USER", value_name = "USER")]
    pub user: Option<String>,
    /// Password for user/password auth.
    #[arg(help_heading = "NATS connection", long = "nats-password", env = "MEMVAL_NATS_PASSWORD", value_name = "PASSWORD", hide_env_values = true)]
    pub password: Option<String>,
    /// Token auth.
    #[arg(help_heading = "NATS connection", long = "nats-token", env = "MEMVAL_NATS_TOKEN", value_name = "TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// NKey auth: the user's nkey seed (SU...).
    #[arg(help_heading = "NATS connection", long = "nats-nkey", env = "MEMVAL_NATS_NKEY", value_name = "SEED", hide_env_values = true)]
    pub nkey: Option<String>,
    /// JWT auth: a .creds file.
    #[arg(help_heading = "NATS connection", long = "nats-creds", env = "MEMVAL_NATS_CREDS", value_name = "FILE")]
    pub creds: Option<PathBuf>,
    /// PEM file of the CA that signed the server's certificate.
    #[arg(help_heading = "NATS connection", long = "nats-tls-ca", env = "MEMVAL_NATS_TLS_CA", value_name = "PEM")]
    pub tls_ca: Option<PathBuf>,
    /// PEM client certificate, for servers that verify clients (needs --nats-tls-key).
    #[arg(help_heading = "NATS connection", long = "nats-tls-cert", env = "MEMVAL_NATS_TLS_CERT", value_name = "PEM")]
    pub tls_cert: Option<PathBuf>,
    /// PEM key of --nats-tls-cert.
    #[arg(help_heading = "NATS connection", long = "nats-tls-key", env = "MEMVAL_NATS_TLS_KEY", value_name = "PEM")]
    pub tls_key: Option<PathBuf>,
    /// Refuse a server that does not offer TLS.
    #[arg(help_heading = "NATS connection", long = "nats-tls-required", env = "MEMVAL_NATS_TLS_REQUIRED")]
    pub tls_required: bool,
    /// Seconds a delivered batch may go unanswered before another replica gets it (used
    /// when this process creates a consumer; services report progress at a third of it).
    #[arg(help_heading = "NATS connection", long = "nats-ack-wait", env = "MEMVAL_NATS_ACK_WAIT", value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub ack_wait: u64,
    /// Unacknowledged batches a consumer may have out at once, over all its replicas.
    #[arg(help_heading = "NATS connection", long = "nats-max-ack-pending", env = "MEMVAL_NATS_MAX_ACK_PENDING", value_name = "N", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_ack_pending: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Role {
    Extractor,
    Investigator,
    Scorer,
    /// Turns memval.v1.events.memory_ingested events into runs.
    Ingest,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Extractor => "extractor",
            Role::Investigator => "investigator",
            Role::Scorer => "scorer",
            Role::Ingest => "ingest",
        }
    }
}

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
    pub llm: crate::llm_args::ValidateLlmArgs,
    /// Extractor and investigator with a model: a sled store of model results, so a
    /// redelivered batch, a restart or a second run over unchanged code costs no call (one
    /// process per directory). Default: no cache.
    #[arg(help_heading = "LLM", long = "llm-cache", env = "MEMVAL_LLM_CACHE", value_name = "DIR")]
    pub llm_cache: Option<PathBuf>,
    /// Ingest: memories per batch of the runs it starts.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub batch_size: u32,
    /// Check the options and the MEMVAL_*/OTEL_* environment, print the configuration this
    /// service would run with, and exit (0, or 2 saying what to fix) without contacting NATS
    /// or reading the repo.
    #[arg(long)]
    pub check_config: bool,
}

#[derive(Debug, clap::Args)]
pub struct DlqArgs {
    #[command(subcommand)]
    pub command: DlqCommand,
}

#[derive(Debug, Subcommand)]
pub enum DlqCommand {
    /// Show dead letters: sequence, time, stage, reason, original subject and message id.
    List(DlqListArgs),
    /// Publish dead letters again on their original subject (or --subject), then remove
    /// them from the dead-letter stream.
    Replay(DlqReplayArgs),
}

#[derive(Debug, clap::Args)]
pub struct DlqTarget {
    /// NATS server URL(s), comma-separated.
    #[arg(long, env = "MEMVAL_NATS_URL", value_name = "URL")]
    pub nats: String,
    #[command(flatten)]
    pub conn: NatsArgs,
    /// Only dead letters of this stage (extractor, investigator, scorer, ingest).
    #[arg(long, value_name = "STAGE")]
    pub stage: Option<String>,
    /// Only dead letters of this run.
    #[arg(long, value_name = "RUN_ID")]
    pub run: Option<String>,
    /// Look at this many dead letters at most, oldest first.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub limit: u32,
}

#[derive(Debug, clap::Args)]
pub struct DlqListArgs {
    #[command(flatten)]
    pub target: DlqTarget,
    #[arg(long, value_enum, default_value = "table")]
    pub format: HistoryFormat,
}

#[derive(Debug, clap::Args)]
pub struct DlqReplayArgs {
    #[command(flatten)]
    pub target: DlqTarget,
    /// Sequences (from `memval dlq list`) to replay.
    #[arg(value_name = "SEQ", required_unless_present = "all")]
    pub sequences: Vec<u64>,
    /// Replay every dead letter that matches --stage/--run.
    #[arg(long, conflicts_with = "sequences")]
    pub all: bool,
    /// Publish on this subject instead of the original one (e.g. a fixed version).
    #[arg(long, value_name = "SUBJECT")]
    pub subject: Option<String>,
    /// Keep the dead letters after replaying them.
    #[arg(long)]
    pub keep: bool,
}

#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The repository the memories talk about.
    #[arg(long, value_name = "PATH")]
    pub repo: PathBuf,
    /// A memory file or folder, in any supported format.
    #[arg(long, value_name = "PATH")]
    pub memories: PathBuf,
    /// Output format. Default: table on a terminal, json otherwise.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Exit 1 when any claim's verdict is at or above this severity.
    #[arg(long, value_enum, default_value = "stale")]
    pub fail_on: FailOn,
    /// Where scores and verdicts persist (sled). Default: REPO/.memval/store.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Write the report to this file instead of stdout (written whole, or not at all).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Memories per batch handed between stages (one message each on NATS). Bigger batches
    /// cost the broker fewer messages per claim; model calls keep their own sizes
    /// (--llm-memories-per-batch, --llm-claims-per-batch).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub batch_size: u32,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Submit the run to memval services on this NATS cluster instead of running it in
    /// this process (`memval serve ...`); the report and exit code are the same. The
    /// scorer service keeps the store, so --store does not go with it.
    #[arg(long, value_name = "URL", conflicts_with = "store")]
    pub nats: Option<String>,
    /// With --nats: the repo name the run carries, which investigators map to their own
    /// checkout (--repo-map NAME=PATH). Default: the --repo path.
    #[arg(long, value_name = "NAME", requires = "nats")]
    pub repo_name: Option<String>,
    #[command(flatten)]
    pub nats_conn: NatsArgs,
    /// A model for the claims the deterministic checks cannot prove (Tier B).
    #[command(flatten)]
    pub llm: crate::llm_args::ValidateLlmArgs,
}

#[derive(Debug, clap::Args)]
pub struct HistoryArgs {
    /// Only memories whose id or source path contains this text.
    pub filter: Option<String>,
    /// Repository whose default store (REPO/.memval/store) to read.
    #[arg(long, value_name = "PATH", default_value = ".")]
    pub repo: PathBuf,
    /// Read this store instead of the repo's default one.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: HistoryFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Md,
    Sarif,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HistoryFormat {
    Table,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Ambiguous,
    Stale,
    Contradicted,
    /// Never exit 1 for verdicts.
    Never,
}
