//! `memval reconcile`: the dated reconciliation report (docs/contracts.md §6), in one process. The work is
//! `memval_reconciler`; this file parses, calls it, judges candidates when a model is
//! configured (the existing pair judge), writes the report and sets the exit code.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::ValueEnum;
use memval_judge::plan::Limits;
use memval_llm::ChatModel;
use memval_proto::display::one_line;
use memval_reconciler::candidates::Cap;
use memval_reconciler::{judging, naming, reconcile, report, FailOn, Inputs};

use crate::flags::PairMethodArgs;
use crate::model_flags::LlmArgs;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReconcileFormat {
    /// Write the report file and print its path.
    Md,
    /// Write the report file and print every finding as one JSON document.
    Json,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Reconcile memories with decisions, docs and code: a dated drift report",
    before_help = "Typical use: memval reconcile --repo . --memories contexts/",
    before_long_help = "Reconciles memories with decision records, docs and code (docs/contracts.md §6) and writes \
a dated report: {out-dir}/{YYYY-MM-DD}.reconciliation-report.md, then -02, -03, ... the same day (never overwritten). Sections: \
stale entries, superseded references (every DEC-... reference classified ACTIVE, SUPERSEDED or MISSING), \
contradictions (proven without a model, plus candidate pairs judged by the pair judge when --llm-* is set), new \
knowledge candidates, missing files (MISSING_FILE / UNREADABLE), code-path staleness and documentation & README \
staleness (both through git; without git they are skipped and the report says so).\n\n\
Candidate pairs are proposed as by `memval pairs --method`: keyword (the default, no model), embed (cosine of \
all-MiniLM-L6-v2 sentence embeddings, from --embed-model DIR, cached in --store) or both; the report's \
contradictions section says which method and what the embedding step did.\n\n\
memval only reads: no memory, decision or doc is modified, moved or deleted (embed and both write only their \
embedding cache, in the store).",
    after_help = "Exit codes: 0 when no finding reaches --fail-on; 1 when one does; 2 on bad usage or input, or \
embed/both without the model files.",
    after_long_help = "Examples:\n  memval reconcile --repo . --memories contexts/\n  memval reconcile --repo . --memories contexts/ --memories memory.db --format json \\\n      --fail-on superseded --fail-on missing\n  memval reconcile --repo . --memories memory.db --method both \\\n      --embed-model ~/.cache/memval/models/all-MiniLM-L6-v2"
)]
pub struct ReconcileArgs {
    /// The repository (docs, READMEs and git history are read from it).
    #[arg(long, value_name = "PATH")]
    pub repo: PathBuf,
    /// Memories: a GAAI tree or any format memval reads. Repeat for several.
    #[arg(long, value_name = "PATH", required = true, num_args = 1..)]
    pub memories: Vec<PathBuf>,
    /// Folder of the reports. Default: contexts/artefacts/reconciliation-reports/ beside a GAAI
    /// contexts/ folder, else REPO/.memval/reconciliation-reports/.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// What to print on stdout besides writing the report file.
    #[arg(long, value_enum, default_value = "md")]
    pub format: ReconcileFormat,
    /// Exit 1 when the report has a finding of these kinds (repeatable).
    #[arg(long, default_value = "never", value_parser = crate::flags::reconcile_fail_on())]
    pub fail_on: Vec<FailOn>,
    /// Candidate pairs to list (and judge). Default: reconcile_pair_cap of a memory.db, else 50
    /// (clamped to 1-500); 0 for no cap.
    #[arg(long, value_name = "N")]
    pub pair_cap: Option<u64>,
    /// Memories per agent for candidate pairs (highest tier, then newest); 0 for all.
    #[arg(long, value_name = "N", default_value_t = memval_reconciler::pairs::DEFAULT_PER_AGENT)]
    pub per_agent: usize,
    #[command(flatten)]
    pub method: PairMethodArgs,
    /// Where embed and both cache embeddings (sled, shared with validate's scores and `memval
    /// pairs`). Default: REPO/.memval/store.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    #[command(flatten)]
    pub llm: LlmArgs,
}

pub async fn run(args: ReconcileArgs) -> anyhow::Result<ExitCode> {
    if !args.repo.is_dir() {
        anyhow::bail!("--repo {} is not a directory", args.repo.display());
    }
    for m in &args.memories {
        if !m.exists() {
            anyhow::bail!("--memories {} does not exist", m.display());
        }
    }
    // Model settings are checked before any work: a typo is a usage error, not a late surprise.
    let model: Option<Arc<dyn ChatModel>> = args.llm.client()?.map(|c| Arc::new(c) as Arc<dyn ChatModel>);
    let inputs = Inputs {
        repo: args.repo.clone(),
        memories: args.memories.clone(),
        now: chrono::Utc::now().timestamp(),
        pair_cap: args.pair_cap.map_or(Cap::Default, Cap::Given),
        per_agent: args.per_agent,
        method: args.method.method(Some(args.store.clone().unwrap_or_else(|| memval_store::default_dir(&args.repo)))),
    };
    let (mut report, default_dir) =
        tokio::task::spawn_blocking(move || reconcile(&inputs)).await?.context("memval reconcile")?;
    if let Some(model) = model {
        let limits = Limits { pair_cap: memval_judge::plan::MAX_PAIR_CAP, ..Limits::default() };
        judging::judge(&mut report.contradictions, model, limits, &format!("reconcile-{}", std::process::id())).await;
        report.count();
    }
    let dir = args.out_dir.clone().unwrap_or(default_dir);
    let path = naming::write_new(&dir, &report.front.generated_at, &report::to_markdown(&report))?;
    report.report_path = Some(path.display().to_string());
    let mut out = std::io::stdout().lock();
    match args.format {
        ReconcileFormat::Md => writeln!(
            out,
            "report written: {} ({} findings)",
            one_line(&path.display().to_string()),
            report.front.findings_count
        )?,
        ReconcileFormat::Json => out.write_all(report::to_json(&report).as_bytes())?,
    }
    out.flush()?;
    Ok(if memval_reconciler::reconcile::fails(&report, &args.fail_on) { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
