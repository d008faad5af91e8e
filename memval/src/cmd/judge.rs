//! `memval judge`: the judges. `judge pairs` runs the pair judge (docs/contracts.md §5) on a JSONL file of
//! candidate pairs: [`memval_judge::input`] reads it, [`memval_judge::plan`] selects,
//! [`memval_pipeline::judging`] runs the judge stage over its batches in this process (one
//! worker per batch, at most `--max-batches`), and [`memval_judge::result`] renders.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use memval_judge::input;
use memval_judge::plan::{self, Limits};
use memval_pipeline::judging::{judge_pairs, JudgePairs};
use memval_pipeline::models::StoreCache;

use crate::model_flags::LlmArgs;
use crate::output::emit;

#[derive(Debug, clap::Args)]
#[command(
    about = "Judge pairs of memories, a draft against saved memory, or a finished change",
    before_help = "Typical use: memval judge draft --memory ~/.claude/projects/-home-me-app/memory --draft reply.md",
    before_long_help = "pairs: do memories of different agents contradict each other? draft: does a draft \
recommendation contradict what the user saved? change: is a finished change proven against its acceptance? Each \
command's --help says more.",
    after_help = "Exit codes: those of the command run: judge draft 1 on a veto, judge change 1 on FAIL and 3 \
on NOT_PROVEN; 0 otherwise; 2 on bad usage or input."
)]
pub struct JudgeArgs {
    #[command(subcommand)]
    pub command: JudgeCommand,
}

#[derive(Debug, Subcommand)]
pub enum JudgeCommand {
    /// Judge candidate pairs of memories of different agents with an LLM.
    #[command(
        before_help = "Typical use: memval pairs --memories memory.db | memval judge pairs --input - \
--llm-provider openai --llm-model gpt-4o-mini",
        before_long_help = "Each pair of two different agents' memories (docs/contracts.md §5) is judged \
contradictory, consistent or unrelated, with verbatim quotes for contradictions. The input is JSONL, one candidate \
per line: {id_a, agent_a, content_a, id_b, agent_b, content_b, score, method}. Pairs are sorted by score, \
de-duplicated and capped at --pair-cap, then judged in batches of --batch-size, at most --max-batches batches, in \
parallel.\n\n\
Every judgement the model gives is checked: exactly one per pair, a verdict in the enum, an integer confidence \
0-100, and for a contradiction, claim_a and claim_b quoted verbatim from each side. A judgement that fails is \
replaced by `unrelated` with confidence 0 and the reason (`fallback`, and a line in `detail`). The judge takes \
no side and changes nothing.",
        after_long_help = "Example:\n  memval judge pairs --input pairs.jsonl --llm-provider openai --llm-model gpt-4o-mini --format json",
        after_help = "Exit codes: 0 when every selected pair was judged; 2 on bad usage or input, or when a batch \
got no answer from the model (those pairs are listed under not_judged)."
    )]
    Pairs(JudgePairsArgs),
    // No doc comment here: clap would put it over the long help of the command's own Args.
    Change(crate::cmd::judge_change::JudgeChangeArgs),
    Draft(crate::cmd::judge_draft::JudgeDraftArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum JudgeFormat {
    Table,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct JudgePairsArgs {
    /// JSONL file of candidate pairs (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub input: PathBuf,
    /// Output format. Default: table on a terminal, json otherwise.
    #[arg(long, value_enum)]
    pub format: Option<JudgeFormat>,
    /// Write the result to this file instead of stdout.
    ///
    /// A file is replaced whole or not at all; a device or FIFO (`/dev/null`) is written into,
    /// never replaced; a link's target gets it.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Judge at most this many pairs (reconcile_pair_cap; clamped to 1-500).
    #[arg(
        long,
        env = "MEMVAL_RECONCILE_PAIR_CAP",
        hide_env_values = true,
        default_value_t = 50,
        allow_negative_numbers = true
    )]
    pub pair_cap: i64,
    /// Pairs per model call.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub batch_size: u32,
    /// Model calls per run (in parallel); pairs beyond them are deferred to a later run.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub max_batches: u32,
    /// Cache judgements in this memval store.
    ///
    /// A sled store (e.g. REPO/.memval/store), so the same pair, model and prompt are never paid
    /// for twice.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    #[command(flatten)]
    pub llm: LlmArgs,
}

pub async fn judge(args: JudgeArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        JudgeCommand::Pairs(args) => pairs(args).await,
        JudgeCommand::Change(args) => crate::cmd::judge_change::run(args).await,
        JudgeCommand::Draft(args) => crate::cmd::judge_draft::run(args).await,
    }
}

async fn pairs(args: JudgePairsArgs) -> anyhow::Result<ExitCode> {
    let client = args.llm.require("memval judge pairs")?;
    let input = if args.input.as_os_str() == "-" {
        input::read(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(&args.input)
            .with_context(|| format!("cannot read --input {}", args.input.display()))?;
        input::read(std::io::BufReader::new(file))
    }
    .with_context(|| format!("cannot read --input {}", args.input.display()))?;
    for p in &input.problems {
        eprintln!("memval: warning: {}:{}: skipped: {}", args.input.display(), p.line, p.reason);
    }
    let pair_cap = plan::clamp_pair_cap(args.pair_cap);
    if i64::from(pair_cap) != args.pair_cap {
        eprintln!(
            "memval: warning: --pair-cap {} clamped to {pair_cap} (allowed 1-{})",
            args.pair_cap,
            plan::MAX_PAIR_CAP
        );
    }
    let cache: Option<Arc<dyn memval_llm::ResultCache>> = match &args.store {
        Some(dir) => Some(Arc::new(StoreCache::new(&memval_store::open(dir)?)?)),
        None => None,
    };
    let setup = JudgePairs {
        model: Arc::new(client),
        cache,
        limits: Limits { pair_cap, batch_size: args.batch_size as usize, max_batches: args.max_batches as usize },
        input_name: args.input.display().to_string(),
    };
    let result = judge_pairs(setup, input).await?;
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let text = match args.format.unwrap_or(if to_terminal { JudgeFormat::Table } else { JudgeFormat::Json }) {
        JudgeFormat::Json => result.json_text(),
        JudgeFormat::Table => result.to_table(),
    };
    emit(args.output.as_deref(), &text)?;
    Ok(if result.not_judged().is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) })
}
