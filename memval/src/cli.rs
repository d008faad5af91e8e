//! Command-line surface. Every flag here is wired to behaviour; `--help` is the manual.
//!
//! `serve ROLE --check-config` refuses `MEMVAL_*`/`OTEL_*` variables memval does not read; the
//! known set is collected from the clap definitions here (`known_env`) plus `telemetry::OTEL_VARS`,
//! and the checks are `memval_pipeline::config`. The flags several commands share (the NATS
//! connection → `NatsOptions`, output formats, `--fail-on`) are in `flags.rs`, which imports no
//! command.

use std::collections::BTreeSet;

use clap::{Parser, Subcommand};

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

impl Command {
    /// The service name spans carry unless `OTEL_SERVICE_NAME` says otherwise.
    pub fn service_name(&self) -> String {
        match self {
            Command::Serve(args) => format!("memval-{}", args.role.as_str()),
            Command::Validate(_) => "memval-validate".to_owned(),
            _ => "memval".to_owned(),
        }
    }
}

/// Every environment variable memval's command line reads (`env = ...` on any flag of any
/// command), plus the OpenTelemetry ones.
pub fn known_env() -> BTreeSet<String> {
    use clap::CommandFactory;
    fn walk(command: &clap::Command, out: &mut BTreeSet<String>) {
        for arg in command.get_arguments() {
            if let Some(name) = arg.get_env() {
                out.insert(name.to_string_lossy().into_owned());
            }
        }
        for sub in command.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut out = BTreeSet::new();
    walk(&Cli::command(), &mut out);
    out.extend(crate::telemetry::OTEL_VARS.iter().map(|v| v.to_string()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_environment_variable_is_known() {
        let known = known_env();
        for name in
            ["MEMVAL_REPO_MAP", "MEMVAL_LOG", "MEMVAL_SCHEDULE", "MEMVAL_MEMORIES", "OTEL_EXPORTER_OTLP_ENDPOINT"]
        {
            assert!(known.contains(name), "{name}");
        }
        assert_eq!(memval_pipeline::config::closest("MEMVAL_REPOMAP", &known), Some("MEMVAL_REPO_MAP"));
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
