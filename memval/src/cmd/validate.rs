//! `memval validate`: flags → [`memval_pipeline::validate`] → one view of the report.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use memval_pipeline::{validate, Validate};
use memval_report::FailOn;

use crate::flags::{Format, NatsArgs};
use crate::output::{check_output_dir, emit, sarif_uri};

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
    /// Exit 1 when any claim's verdict is at or above this severity (at --fail-confidence).
    #[arg(long, value_name = "VERDICT", default_value_t = FailOn::default(), value_parser = crate::flags::validate_fail_on())]
    pub fail_on: FailOn,
    /// Count a verdict toward --fail-on only at this confidence (0-100) or above.
    ///
    /// Below it a verdict is still reported, with its evidence, but does not fail the run. The
    /// default, 80, is where memval's verdicts held up on real repositories' notes and docs;
    /// 0 counts every verdict.
    #[arg(long, value_name = "N", default_value_t = memval_report::FAIL_CONFIDENCE, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub fail_confidence: u8,
    /// Where scores and verdicts persist (sled). Default: REPO/.memval/store.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Write the report to this file instead of stdout.
    ///
    /// A file is replaced whole or not at all; a device or FIFO (`/dev/null`) is written into,
    /// never replaced; a link's target gets it.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Memories per batch handed between stages.
    ///
    /// One message each on NATS. Bigger batches cost the broker fewer messages per claim; model
    /// calls keep their own sizes (--llm-memories-per-batch, --llm-claims-per-batch).
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub batch_size: u32,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Check everything afresh, reusing and keeping nothing in the store.
    ///
    /// Neither reuse nor keep the verdicts, git history, name log and parsed definitions earlier
    /// runs kept in the store. (Kept results are keyed by HEAD, the
    /// content of every changed or untracked file, the memory and memval's own build, so a kept
    /// verdict is never one the current checkout would not give; this flag is for measuring and
    /// for doubt.)
    #[arg(long = "no-cache", id = "no_kept")]
    pub no_kept: bool,
    /// Run on the memval services of this NATS cluster (connection flags: --help).
    ///
    /// The run is submitted to the services (`memval serve ...`) instead of running in this
    /// process; the report and exit code are the same. The scorer service keeps the store, so
    /// --store does not go with it.
    #[arg(long, value_name = "URL", conflicts_with = "store")]
    pub nats: Option<String>,
    /// With --nats: the repo name the run carries. Default: the --repo path.
    ///
    /// Investigators map it to their own checkout (--repo-map NAME=PATH).
    #[arg(long, value_name = "NAME", requires = "nats")]
    pub repo_name: Option<String>,
    #[command(flatten)]
    pub nats_conn: NatsArgs,
    /// A model for the claims the deterministic checks cannot prove (Tier B).
    #[command(flatten)]
    pub llm: crate::model_flags::ValidateLlmArgs,
}

pub async fn run(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    // Before the run, not after it: a report with nowhere to go is a run lost.
    if let Some(out) = &args.output {
        check_output_dir(out)?;
    }
    let models = args.llm.build(args.nats.is_some())?;
    let cluster = match &args.nats {
        Some(url) => Some((url.clone(), args.nats_conn.options()?)),
        None => None,
    };
    let run = Validate {
        repo: args.repo.clone(),
        memories: args.memories.clone(),
        repo_name: args.repo_name.clone(),
        store: args.store.clone(),
        cluster,
        batch_size: args.batch_size as usize,
        progress: !args.quiet,
        models,
        model_cache: !args.llm.no_cache,
        keep: !args.no_kept,
        fail_on: args.fail_on,
        fail_confidence: args.fail_confidence,
    };
    let done = validate(run, &|line: &str| eprintln!("memval: {line}")).await?;
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let format = args.format.unwrap_or(if to_terminal { Format::Table } else { Format::Json });
    let report = &done.report;
    let text = match format {
        Format::Json => memval_report::to_json(report),
        Format::Table => {
            memval_report::to_table(report, args.output.is_none().then(crate::width::table_width).flatten())
        }
        Format::Md => memval_report::to_markdown(report),
        Format::Sarif => memval_report::to_sarif(report, &|p: &str| sarif_uri(&done.repo, p)),
    };
    tracing::debug!(target: "memval::timing", bytes = text.len(), "report rendered");
    emit(args.output.as_deref(), &text)?;
    tracing::debug!(target: "memval::timing", "report written");
    Ok(if report.run.failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
