//! `memval judge draft`: the memory-conflict judge (docs/contracts.md §7) on one draft and one Claude
//! Code memory folder. Parses, calls `memval_judge::draft`, prints, sets the exit code.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::ValueEnum;
use memval_judge::draft::{self, render, DraftJudge};
use memval_llm::ChatModel;

use crate::model_flags::LlmArgs;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Json,
    Table,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Judge whether a draft contradicts the user's saved Claude Code memory",
    before_help = "Typical use: memval judge draft --memory ~/.claude/projects/-home-me-app/memory --draft reply.md",
    before_long_help = "Judges whether a draft recommendation contradicts what the user saved in a Claude Code memory \
folder (docs/contracts.md §7). Output: {judge, score, veto, confidence, evidence: [{memory_file, memory_excerpt, draft_match}], \
reason}, plus not_judged (memories no rule cited and no model judged, or that could not be read) and detail.\n\n\
Veto rules decided without a model (English and Spanish): a draft that bypasses a safety mechanism (--no-verify, \
skipping hooks, force-push, disabling a check) against a feedback memory forbidding it; a shortcut (lowering a \
threshold or coverage, skipping or deleting tests, retrying without investigating, skipping hooks) against a \
root-cause-always memory; credentials in command arguments against a never-credentials memory. With --llm-*, a \
model also reviews the candidate memories; its quotes must be verbatim or its entry is not kept.",
    after_long_help = "Example:\n  memval judge draft --memory ~/.claude/projects/-home-me-app/memory --draft reply.md --format table",
    after_help = "Exit codes: 0 no veto, 1 veto, 2 bad input."
)]
pub struct JudgeDraftArgs {
    /// The Claude Code memory folder (MEMORY.md and feedback_/user_/project_/reference_*.md).
    #[arg(long, value_name = "DIR")]
    pub memory: PathBuf,
    /// The draft recommendation (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub draft: PathBuf,
    /// Output format. Default: table on a terminal, json otherwise.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    #[command(flatten)]
    pub llm: LlmArgs,
}

pub async fn run(args: JudgeDraftArgs) -> anyhow::Result<ExitCode> {
    match judge(&args).await {
        Ok(code) => Ok(code),
        Err(e) => {
            eprintln!("memval: {e:#}");
            Ok(ExitCode::from(2))
        }
    }
}

async fn judge(args: &JudgeDraftArgs) -> anyhow::Result<ExitCode> {
    let model: Option<Arc<dyn ChatModel>> = args.llm.client()?.map(|c| Arc::new(c) as Arc<dyn ChatModel>);
    let mut bytes = Vec::new();
    if args.draft.as_os_str() == "-" {
        std::io::stdin()
            .take(draft::MAX_DRAFT_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .context("cannot read the draft from stdin")?;
    } else {
        let file = std::fs::File::open(&args.draft)
            .with_context(|| format!("cannot read --draft {}", args.draft.display()))?;
        file.take(draft::MAX_DRAFT_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read --draft {}", args.draft.display()))?;
    }
    let text = draft::draft_text(bytes)?;
    let dir = args.memory.clone();
    let folder = tokio::task::spawn_blocking(move || draft::read_folder(&dir)).await??;
    let judgement = DraftJudge::new(model).judge(&folder, &text).await;
    let format = args.format.unwrap_or(if std::io::stdout().is_terminal() { Format::Table } else { Format::Json });
    let out = match format {
        Format::Json => render::json(&judgement),
        Format::Table => render::table(&judgement),
    };
    print!("{out}");
    Ok(ExitCode::from(draft::exit_code(&judgement)))
}
