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
    Validate(ValidateArgs),
    /// Show how memories' scores changed over runs.
    History(HistoryArgs),
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
    /// Memories per batch handed between stages.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub batch_size: u32,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
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
