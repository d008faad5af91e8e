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
    before_help = "Typical use: memval validate --repo . --memories .",
    before_long_help = "memval reads the notes your coding agents keep (CLAUDE.md, AGENTS.md, Claude Code memory \
folders, GAAI decision records, JSON/JSONL exports, validate-memory's memory.db), extracts the checkable \
claims in them (files, symbols, line numbers, config values), and checks each claim against the repo and its \
git history. Every claim gets VALID, STALE (with its successor), CONTRADICTED or AMBIGUOUS, a confidence and \
file:line evidence; every memory gets a score and a suggested action. memval only reports: it never edits a memory.",
    after_long_help = "Examples:\n  memval validate --repo . --memories CLAUDE.md\n  memval validate --repo . --memories ~/.claude/projects/x/memory --format md > report.md\n  memval validate --repo . --memories memories.jsonl --format sarif > memval.sarif\n  memval history --repo . lru",
    after_help = "Exit codes: 0 on success; 1 when a check fails (a finding at --fail-on, a draft's veto, a \
change's FAIL); 3 when a change is NOT_PROVEN; 2 on bad usage, bad input or an error. Each command's --help \
lists its own."
)]
pub struct Cli {
    /// Log verbosity for diagnostics on stderr (error, warn, info, debug, trace).
    #[arg(long, global = true, default_value = "warn", env = "MEMVAL_LOG", hide_env_values = true)]
    pub log: String,
    #[command(subcommand)]
    pub command: Command,
}

/// The command line as `main` parses it: [`Cli`] with every command's help in the shape of
/// `help.rs` (opening paragraph, flags, exit codes last).
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    crate::help::shape(Cli::command())
}

// The help of each command is in the shape `help.rs` describes: `about` and `before_help` (the
// typical command line) open it, `after_help` (the exit codes) closes it, and the long parts
// are `before_long_help` and `after_long_help`. A command whose flags are an `Args` of its own
// carries its help there: a doc comment on its variant here would replace that `about`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check memories against a repo and report every claim's verdict.
    #[command(
        before_help = "Typical use: memval validate --repo . --memories .",
        before_long_help = "The memory format is detected: a JSON or JSONL file of memory objects, a SQLite \
memory.db (opened read-only), a Claude Code memory folder (MEMORY.md + *.md), a GAAI contexts/memory tree, or notes \
files/folders: every agent tool's instruction files (CLAUDE.md, AGENTS.md, GEMINI.md, .cursor/rules/*.mdc, \
.github/copilot-instructions.md and instructions/, skills' SKILL.md, the commands/, agents/ and rules/ of .claude/, \
.agents/, .windsurf/, .clinerules/, ...), docs/**/*.md and README.md, each memory attributed to the tool that reads \
it. Give the repo itself (--memories .) to check them all.",
        after_long_help = "Severity order for --fail-on: ambiguous < stale < contradicted.\n\
Behavioral and architectural claims need an LLM investigator; without one they are listed under not_checked \
(never counted as VALID) unless the code they describe is provably gone or moved.\n\n\
Examples:\n  memval validate --repo . --memories CLAUDE.md\n  memval validate --repo . --memories . --format md \
> report.md\n  memval validate --repo . --memories memories.jsonl --format sarif > memval.sarif",
        after_help = "Exit codes: 0 when no claim is at or above --fail-on at --fail-confidence or more; 1 when \
one is; 2 on bad usage or input, or when the run could not complete."
    )]
    Validate(Box<crate::cmd::validate::ValidateArgs>),
    History(crate::cmd::history::HistoryArgs),
    /// Run one pipeline stage as a long-running NATS JetStream service.
    #[command(
        before_help = "Typical use: memval serve investigator --nats nats://nats:4222 --repo /srv/shop",
        before_long_help = "Start any number of each role; replicas of a stage share its durable consumer, so \
more investigators check more claims at once. The service creates (or verifies) the streams and its consumer, then \
serves until SIGTERM or SIGINT: it stops pulling, finishes the batches in hand, returns what it fetched but did not \
start, and exits 0.\n\n\
Roles: extractor (memories -> claims), investigator (claims -> verdicts; needs --repo and/or --repo-map), \
scorer (verdicts -> scores; owns the --store), ingest (memory_ingested events -> runs), judge (with --llm-*: \
candidate pair batches -> judgements, for the reconciler; with --memory: memory-conflict judgements of drafts by \
request/reply on memval.v1.judge.draft; one or both), reconciler (the dated reconciliation report of each \
--repo-map repo on --schedule, on a message on memval.v1.reconcile.<repo>, and after ingest events; candidate pairs \
to the judges with --pair-judges).",
        after_long_help = "Examples:\n  memval serve extractor --nats nats://127.0.0.1:4222\n  memval serve investigator --nats nats://nats:4222 --repo /srv/shop\n  memval serve investigator --nats nats://nats:4222 \\\n      --repo-map shop=/srv/shop --repo-map web=/srv/web\n  memval serve scorer --nats nats://nats:4222 --store /var/lib/memval\n  memval serve ingest --nats nats://nats:4222\n  memval serve judge --nats nats://nats:4222 --llm-provider openai \\\n      --llm-base-url http://127.0.0.1:8080/v1 --llm-model local\n  memval serve reconciler --nats nats://nats:4222 --repo-map shop=/srv/shop \\\n      --schedule \"0 3 * * *\" --pair-judges",
        after_help = "Exit codes: 0 after a clean shutdown (SIGTERM or SIGINT) or a --check-config that passes; \
2 on bad usage, a configuration problem (--check-config names each), or a role that cannot start or stops on an \
error."
    )]
    Serve(Box<crate::cmd::serve::ServeArgs>),
    Dlq(crate::cmd::dlq::DlqArgs),
    Judge(crate::cmd::judge::JudgeArgs),
    Pairs(crate::cmd::pairs::PairsArgs),
    Reconcile(Box<crate::cmd::reconcile::ReconcileArgs>),
    Hook(crate::cmd::hook::HookArgs),
    /// A Model Context Protocol server on stdio: memval's checks as tools for agents.
    #[command(
        before_help = "Typical use: claude mcp add memval -- memval mcp (the agent then starts it)",
        before_long_help = "Tools: validate_memories {repo, memories, fail_on?}, check_memory {repo, text}, \
judge_draft {memory_dir, draft}, reconcile {repo, memories}; each answers with the JSON the matching command prints. \
Paths outside the repo (or its Claude Code memory folder) are refused. No model is used. Logs go to stderr.",
        after_long_help = "Claude Code:  claude mcp add memval -- memval mcp\nCursor (.cursor/mcp.json):  \
{\"mcpServers\": {\"memval\": {\"command\": \"memval\", \"args\": [\"mcp\"]}}}",
        after_help = "Exit codes: 0 when the session ends; 2 when it cannot start."
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
    use std::path::PathBuf;

    /// Every command's words after `memval`, groups included: `[]`, `["validate"]`, ...,
    /// `["judge", "change", "manifest"]` (clap's own `help` left out).
    fn commands() -> Vec<Vec<String>> {
        fn walk(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
            out.push(path.clone());
            for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
                let mut path = path.clone();
                path.push(sub.get_name().to_owned());
                walk(sub, path, out);
            }
        }
        let mut out = Vec::new();
        walk(&super::command(), Vec::new(), &mut out);
        out
    }

    /// What `memval PATH... FLAG` prints on a terminal `width` columns wide.
    fn help(path: &[String], flag: &str, width: usize) -> String {
        let args = std::iter::once("memval").chain(path.iter().map(String::as_str)).chain([flag]);
        let err = super::command().term_width(width).try_get_matches_from(args).expect_err("help is an early exit");
        assert_eq!(err.kind(), clap::error::ErrorKind::DisplayHelp);
        err.render().to_string()
    }

    fn paragraphs(text: &str) -> Vec<&str> {
        text.trim_end().split("\n\n").collect()
    }

    /// Every command's `-h` and `--help` at 80 and 120 columns: no line wider than the
    /// terminal; first one short paragraph saying what the command does and the command line
    /// most users run; the exit codes last; `-h` shorter than `--help`, which lists every flag
    /// `-h` does.
    #[test]
    fn every_help_fits_the_terminal_and_keeps_its_shape() {
        let mut wrong = Vec::new();
        for path in commands() {
            let name = format!("memval {}", path.join(" "));
            for width in [80, 120] {
                let short = help(&path, "-h", width);
                let long = help(&path, "--help", width);
                for (flag, text) in [("-h", &short), ("--help", &long)] {
                    let at = format!("{name} {flag} at {width}");
                    if let Some(line) = text.lines().find(|l| l.chars().count() > width) {
                        wrong.push(format!("{at}: a line over {width} columns: {line}"));
                    }
                    let parts = paragraphs(text);
                    let opening: Vec<&str> = parts[0].lines().collect();
                    if opening.len() > 3 || !opening.iter().skip(1).any(|l| l.starts_with("Typical use: ")) {
                        wrong.push(format!(
                            "{at}: the opening is not one short paragraph with the typical use: {opening:?}"
                        ));
                    } else if !parts[0].contains("memval ") {
                        wrong.push(format!("{at}: the opening names no memval command: {opening:?}"));
                    }
                    let last = parts.last().copied().unwrap_or_default();
                    if !last.starts_with("Exit codes") {
                        wrong.push(format!("{at}: the last section is not the exit codes: {last:?}"));
                    }
                }
                if short.lines().count() >= long.lines().count() {
                    wrong.push(format!("{name} at {width}: -h is not shorter than --help"));
                }
                for flag in short.split_whitespace().filter(|w| w.starts_with("--")) {
                    let flag = flag.trim_end_matches([',', ')', '.', '`', ';']);
                    if !long.contains(flag) {
                        wrong.push(format!("{name} at {width}: {flag} is in -h but not in --help"));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "help out of shape:\n{}", wrong.join("\n"));
    }

    /// `long_about` would replace the opening paragraph of `--help` (and a doc comment on a
    /// subcommand's variant would replace the about of its `Args`): the long text goes in
    /// `before_long_help` and `after_long_help`.
    #[test]
    fn no_command_sets_a_long_about() {
        fn walk(cmd: &clap::Command, path: String, out: &mut Vec<String>) {
            if cmd.get_long_about().is_some() || cmd.get_about().is_none() {
                out.push(path.clone());
            }
            for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
                walk(sub, format!("{path} {}", sub.get_name()), out);
            }
        }
        let mut out = Vec::new();
        walk(&super::command(), "memval".into(), &mut out);
        assert!(out.is_empty(), "commands with a long_about, or without an about: {out:?}");
    }

    /// Snapshots of the command most users run, `memval validate -h`, at 80 and 120 columns
    /// (`MEMVAL_UPDATE_GOLDEN=1` rewrites them; read the diff before committing it).
    #[test]
    fn validate_short_help_matches_its_snapshots() {
        for width in [80, 120] {
            let actual = help(&["validate".to_owned()], "-h", width);
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/validate-h-{width}.txt"));
            if std::env::var_os("MEMVAL_UPDATE_GOLDEN").is_some() {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &actual).unwrap();
                continue;
            }
            let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(actual == expected, "validate -h at {width} differs from {}:\n{actual}", path.display());
        }
    }
}
