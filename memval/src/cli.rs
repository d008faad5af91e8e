//! Command-line surface. Every flag here is wired to behaviour; `--help` is the manual.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::anyhow;
use clap::{Parser, Subcommand, ValueEnum};
use memval_pipeline::topology::NatsOptions;
use memval_transport::jetstream::{Auth, Tls};

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
contexts/memory tree, or notes files/folders: every agent tool's instruction files (CLAUDE.md, AGENTS.md, \
GEMINI.md, .cursor/rules/*.mdc, .github/copilot-instructions.md and instructions/, skills' SKILL.md, the commands/, \
agents/ and rules/ of .claude/, .agents/, .windsurf/, .clinerules/, ...), docs/**/*.md and README.md, each memory \
attributed to the tool that reads it. Give the repo itself (--memories .) to check them all.\n\n\
Exit codes: 0 when no claim is at or above --fail-on; 1 when one is; 2 on bad usage or input, or when the run \
could not complete.",
        after_help = "Severity order for --fail-on: ambiguous < stale < contradicted.\n\
Behavioral and architectural claims need an LLM investigator; without one they are listed under not_checked \
(never counted as VALID) unless the code they describe is provably gone or moved."
    )]
    Validate(Box<crate::cmd::validate::ValidateArgs>),
    // History, Pairs and Reconcile carry their help on their Args: a doc comment here would
    // replace the long help there.
    History(crate::cmd::history::HistoryArgs),
    /// Run one pipeline stage as a long-running NATS JetStream service.
    #[command(
        long_about = "Run one stage of the pipeline as a service on NATS JetStream. Start any number of each; \
replicas of a stage share its durable consumer, so more investigators check more claims at once. The service \
creates (or verifies) the streams and its consumer, then serves until SIGTERM or SIGINT: it stops pulling, \
finishes the batches in hand, returns what it fetched but did not start, and exits 0.\n\n\
Roles: extractor (memories -> claims), investigator (claims -> verdicts; needs --repo and/or --repo-map), \
scorer (verdicts -> scores; owns the --store), ingest (memory_ingested events -> runs), judge (with --llm-*: \
candidate pair batches -> judgements, for the reconciler; with --memory: memory-conflict judgements of drafts by \
request/reply on memval.v1.judge.draft; one or both), reconciler (the dated reconciliation report of each \
--repo-map repo on --schedule, on a message on memval.v1.reconcile.<repo>, and after ingest events; candidate pairs \
to the judges with --pair-judges).\n\n\
Exit codes: 0 after a clean shutdown (SIGTERM or SIGINT) or a --check-config that passes; 2 on bad usage, a \
configuration problem (--check-config names each), or a role that cannot start or stops on an error.",
        after_help = "Examples:\n  memval serve extractor --nats nats://127.0.0.1:4222\n  memval serve investigator --nats nats://nats:4222 --repo /srv/shop\n  memval serve investigator --nats nats://nats:4222 --repo-map shop=/srv/shop --repo-map web=/srv/web\n  memval serve scorer --nats nats://nats:4222 --store /var/lib/memval\n  memval serve ingest --nats nats://nats:4222\n  memval serve judge --nats nats://nats:4222 --llm-provider openai --llm-base-url http://127.0.0.1:8080/v1 --llm-model local\n  memval serve reconciler --nats nats://nats:4222 --repo-map shop=/srv/shop --schedule \"0 3 * * *\" --pair-judges"
    )]
    Serve(Box<crate::cmd::serve::ServeArgs>),
    /// List or re-inject the dead letters of a NATS cluster.
    Dlq(crate::cmd::dlq::DlqArgs),
    /// Judges: `pairs` (do memories of different agents contradict?), `draft` (does a draft
    /// contradict saved memory?), `change` (is a finished change proven against its acceptance?).
    Judge(crate::cmd::judge::JudgeArgs),
    Pairs(crate::cmd::pairs::PairsArgs),
    Reconcile(Box<crate::cmd::reconcile::ReconcileArgs>),
    /// Agent hooks: `hook claude` answers Claude Code's PostToolUse and Stop events.
    Hook(crate::cmd::hook::HookArgs),
    /// A Model Context Protocol server on stdio: memval's checks as tools for agents.
    #[command(
        long_about = "A Model Context Protocol server on stdio, for coding agents. Tools: validate_memories {repo, memories, \
fail_on?}, check_memory {repo, text}, judge_draft {memory_dir, draft}, reconcile {repo, memories}; each answers with the JSON \
the matching command prints. Paths outside the repo (or its Claude Code memory folder) are refused. No model is used. Logs go \
to stderr.\n\nExit codes: 0 when the session ends; 2 when it cannot start.",
        after_help = "Claude Code:  claude mcp add memval -- memval mcp\nCursor (.cursor/mcp.json):  {\"mcpServers\": {\"memval\": {\"command\": \"memval\", \"args\": [\"mcp\"]}}}"
    )]
    Mcp(crate::cmd::mcp::McpArgs),
}

/// How to reach NATS. Every flag can also be given in the environment.
#[derive(Debug, Clone, clap::Args)]
pub struct NatsArgs {
    /// User name for user/password auth.
    #[arg(help_heading = "NATS connection", long = "nats-user", env = "MEMVAL_NATS_USER", value_name = "USER")]
    pub user: Option<String>,
    /// Password for user/password auth.
    #[arg(
        help_heading = "NATS connection",
        long = "nats-password",
        env = "MEMVAL_NATS_PASSWORD",
        value_name = "PASSWORD",
        hide_env_values = true
    )]
    pub password: Option<String>,
    /// Token auth.
    #[arg(
        help_heading = "NATS connection",
        long = "nats-token",
        env = "MEMVAL_NATS_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true
    )]
    pub token: Option<String>,
    /// NKey auth: the user's nkey seed (SU...).
    #[arg(
        help_heading = "NATS connection",
        long = "nats-nkey",
        env = "MEMVAL_NATS_NKEY",
        value_name = "SEED",
        hide_env_values = true
    )]
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

impl NatsArgs {
    /// The connection these flags describe, or an error naming the flags that clash.
    pub fn options(&self) -> anyhow::Result<NatsOptions> {
        Ok(NatsOptions {
            auth: auth(self)?,
            tls: Tls {
                ca: self.tls_ca.clone(),
                cert: self.tls_cert.clone(),
                key: self.tls_key.clone(),
                required: self.tls_required,
            },
            ack_wait: Duration::from_secs(self.ack_wait),
            max_ack_pending: i64::from(self.max_ack_pending),
        })
    }
}

pub(crate) fn auth(args: &NatsArgs) -> anyhow::Result<Auth> {
    let mut chosen = Vec::new();
    if args.user.is_some() || args.password.is_some() {
        chosen.push("--nats-user/--nats-password");
    }
    if args.token.is_some() {
        chosen.push("--nats-token");
    }
    if args.nkey.is_some() {
        chosen.push("--nats-nkey");
    }
    if args.creds.is_some() {
        chosen.push("--nats-creds");
    }
    if chosen.len() > 1 {
        return Err(anyhow!("choose one nats auth method, not {}", chosen.join(" and ")));
    }
    Ok(match (&args.user, &args.password, &args.token, &args.nkey, &args.creds) {
        (Some(user), Some(password), ..) => Auth::UserPassword { user: user.clone(), password: password.clone() },
        (Some(_), None, ..) | (None, Some(_), ..) => {
            return Err(anyhow!(
                "--nats-user and --nats-password go together (or MEMVAL_NATS_USER and MEMVAL_NATS_PASSWORD)"
            ))
        }
        (_, _, Some(token), ..) => Auth::Token(token.clone()),
        (_, _, _, Some(seed), _) => Auth::NKeySeed(seed.clone()),
        (_, _, _, _, Some(creds)) => Auth::CredsFile(creds.clone()),
        _ => Auth::None,
    })
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

/// How candidate pairs are proposed (`memval pairs`, `memval reconcile`, `serve reconciler`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PairMethod {
    /// Jaccard >= 0.15 over lowercase alphanumeric tokens of 4 or more characters.
    Keyword,
    /// Cosine >= 0.55 of all-MiniLM-L6-v2 sentence embeddings (needs --embed-model).
    Embed,
    /// Both, merged: a pair found by both keeps the higher score and names its method.
    Both,
}

/// `--method` and `--embed-model`, the same flags wherever candidate pairs are proposed.
#[derive(Debug, Clone, clap::Args)]
pub struct PairMethodArgs {
    /// How candidate pairs are proposed.
    #[arg(long, value_enum, default_value = "keyword")]
    pub method: PairMethod,
    /// all-MiniLM-L6-v2's folder for embed and both (model.safetensors, config.json,
    /// tokenizer.json; `bash scripts/embed-model.sh` fetches them).
    #[arg(long, value_name = "DIR", env = "MEMVAL_EMBED_MODEL")]
    pub embed_model: Option<PathBuf>,
}

impl PairMethodArgs {
    /// The library's method, with embeddings cached in `store_dir` (`None`: the caller's
    /// default, where there is one).
    pub fn method(&self, store_dir: Option<PathBuf>) -> memval_reconciler::candidates::Method {
        use memval_reconciler::candidates::{EmbedSetup, Method};
        let setup = || EmbedSetup { model_dir: self.embed_model.clone(), store_dir: store_dir.clone() };
        match self.method {
            PairMethod::Keyword => Method::Keyword,
            PairMethod::Embed => Method::Embed(setup()),
            PairMethod::Both => Method::Both(setup()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_auth_method_at_a_time() {
        let none = NatsArgs {
            user: None,
            password: None,
            token: None,
            nkey: None,
            creds: None,
            tls_ca: None,
            tls_cert: None,
            tls_key: None,
            tls_required: false,
            ack_wait: 30,
            max_ack_pending: 256,
        };
        assert!(matches!(auth(&none), Ok(Auth::None)));
        let both =
            NatsArgs { token: Some("t".into()), user: Some("u".into()), password: Some("p".into()), ..none.clone() };
        assert!(auth(&both).unwrap_err().to_string().contains("choose one"));
        let half = NatsArgs { user: Some("u".into()), ..none.clone() };
        assert!(auth(&half).unwrap_err().to_string().contains("go together"));
        let token = NatsArgs { token: Some("t".into()), ..none };
        assert!(matches!(auth(&token), Ok(Auth::Token(t)) if t == "t"));
    }
}

#[cfg(test)]
mod help {
    use clap::CommandFactory;

    use super::Cli;

    /// Every command a user runs (a leaf) has a manual in `--help` that ends in its exit
    /// codes. A doc comment on a subcommand's enum variant silently replaces the long help of
    /// the command's own `Args`, which is how `judge draft` and `judge change` lost theirs.
    #[test]
    fn every_command_has_a_long_help_with_its_exit_codes() {
        let mut missing = Vec::new();
        fn walk(cmd: &clap::Command, path: String, missing: &mut Vec<String>) {
            let subs: Vec<_> = cmd.get_subcommands().filter(|s| s.get_name() != "help").collect();
            if subs.is_empty() {
                let long = cmd.get_long_about().map(|s| s.to_string()).unwrap_or_default();
                if !long.contains("Exit codes") {
                    missing.push(path);
                }
                return;
            }
            for s in subs {
                walk(s, format!("{path} {}", s.get_name()), missing);
            }
        }
        walk(&Cli::command(), "memval".into(), &mut missing);
        assert!(missing.is_empty(), "commands without a long help naming their exit codes: {missing:?}");
    }
}
