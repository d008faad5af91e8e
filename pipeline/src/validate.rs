//! `memval validate` as a library call: load the memories, run them through the pipeline
//! (in this process, or on a cluster), record the run in the store and build its report.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use memval_proto::{display::one_line, RunHeader};
use memval_report::{FailOn, Report};
use memval_scorer::{RunRecord, ScoreStore};

use crate::kept::StoreKept;
use crate::local::{self, LocalRun};
use crate::models::{prioritise, ModelStages, StoreCache};
use crate::topology::NatsOptions;
use crate::{client, Error};

/// One validation run, as the user asked for it.
pub struct Validate {
    pub repo: PathBuf,
    pub memories: PathBuf,
    /// What the report calls the repo (default: its path).
    pub repo_name: Option<String>,
    /// The store of an in-process run (default: [`memval_store::default_dir`] of the repo).
    pub store: Option<PathBuf>,
    /// Submit the run to the services on this NATS server instead of running it here.
    pub cluster: Option<(String, NatsOptions)>,
    pub batch_size: usize,
    /// Progress lines on stderr.
    pub progress: bool,
    /// The model stages of an in-process run.
    pub models: Option<ModelStages>,
    /// Answer model calls from the store's cache where it can.
    pub model_cache: bool,
    /// Reuse and keep Tier A verdicts, git history and the name log in the store
    /// (`pipeline/src/kept.rs`); off, everything is checked afresh and nothing is kept.
    pub keep: bool,
    /// The verdict at or above which the run counts as failed (`--fail-on`).
    pub fail_on: FailOn,
    /// The confidence from which a verdict counts toward `fail_on` (`--fail-confidence`).
    pub fail_confidence: u8,
}

/// A completed run: its report, and the repo as resolved (for relative paths in views).
pub struct Validated {
    pub report: Report,
    pub repo: PathBuf,
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Run ids sort in start order (microseconds), so runs started in the same second still
/// appear in order in `memval history`.
pub fn new_run_id() -> String {
    let t = chrono::Utc::now();
    format!("{}-{:04x}", t.format("%Y%m%dT%H%M%S%6fZ"), std::process::id() & 0xffff)
}

/// Run `v` to completion. `warn` hears, one line each, what the user should know but does not
/// stop the run (`warning: ...` for inputs skipped or no memories; `note: ...` for a notes file
/// found again under another name; `batch ... failed: ...`). A run that cannot score every memory is an
/// error, and nothing of it is recorded as complete.
pub async fn validate(v: Validate, warn: &(dyn Fn(&str) + Sync)) -> Result<Validated, Error> {
    if !v.repo.is_dir() {
        return Err(Error::Usage(format!(
            "--repo {} is not a directory; point it at the repository the memories describe",
            v.repo.display()
        )));
    }
    if !v.memories.exists() {
        return Err(Error::Usage(format!("--memories {} does not exist", v.memories.display())));
    }
    let repo = v.repo.canonicalize().map_err(|e| Error::Usage(format!("cannot resolve {}: {e}", v.repo.display())))?;
    let (memories_path, repo_for_load) = (v.memories.clone(), repo.clone());
    let loaded = tokio::task::spawn_blocking(move || memval_sources::load(&memories_path, &repo_for_load))
        .await?
        .map_err(|e| Error::Usage(format!("cannot read memories: {e}")))?;
    let mut memories = loaded.memories;
    // Memory ids key every record of a run; make them unique without losing any memory.
    memval_proto::make_ids_unique(&mut memories);
    for p in &loaded.problems {
        warn(&format!("warning: skipped {}: {}", one_line(&p.path.display().to_string()), one_line(&p.reason)));
    }
    for link in &loaded.links {
        warn(&format!("note: {}", one_line(&link.to_string())));
    }
    if memories.is_empty() {
        warn(&format!(
            "warning: no memories found in {}; nothing was checked",
            one_line(&v.memories.display().to_string())
        ));
    }
    let store_dir = v.store.clone().unwrap_or_else(|| memval_store::default_dir(&repo));
    // In a cluster the scorer service owns the store; this process submits and reads scores.
    let store = match &v.cluster {
        None => Some(Arc::new(memval_store::open(&store_dir)?)),
        Some(_) => None,
    };
    let commit = memval_investigator::GitRepo::open(&repo).map(|g| g.head);
    let header = RunHeader {
        run_id: new_run_id(),
        repo: v.repo_name.clone().unwrap_or_else(|| repo.display().to_string()),
        commit,
        started_at: now(),
        expected_memories: memories.len() as u32,
    };
    let order: HashMap<String, usize> = memories.iter().enumerate().map(|(i, m)| (m.id.clone(), i)).collect();
    if let (Some(models), Some(store)) = (&v.models, &store) {
        // What a model budget defers is what is submitted last (docs/contracts.md §4 order).
        prioritise(&mut memories, &**store)?;
        if v.model_cache {
            models.use_cache(Arc::new(StoreCache::new(store)?));
        }
    }
    let pipeline_started = std::time::Instant::now();
    let output = match (&v.cluster, &store) {
        (Some((url, nats)), _) => client::run(url, nats, header.clone(), memories, v.batch_size, v.progress).await?,
        (None, Some(store)) => {
            let setup = LocalRun {
                repo: repo.clone(),
                store: store.clone() as Arc<dyn ScoreStore>,
                batch_size: v.batch_size,
                progress: v.progress,
                models: v.models.clone(),
                kept: match v.keep {
                    true => Some(Arc::new(StoreKept::new(store)?) as Arc<dyn memval_investigator::Cache>),
                    false => None,
                },
            };
            local::run(header.clone(), memories, setup).await?
        }
        (None, None) => unreachable!("an in-process run opens its store"),
    };
    for letter in &output.dead_letters {
        warn(&format!("batch {} failed: {}", letter.msg_id.as_deref().unwrap_or("?"), letter.reason));
    }
    let mut scores = output.scores;
    if scores.len() != header.expected_memories as usize {
        return Err(Error::Incomplete(format!(
            "run incomplete: {} of {} memories were scored (see the errors above); nothing was reported",
            scores.len(),
            header.expected_memories
        )));
    }
    scores.sort_by_key(|s| order.get(&s.memory.id).copied().unwrap_or(usize::MAX));
    let finished_at = now();
    tracing::debug!(target: "memval::timing", seconds = pipeline_started.elapsed().as_secs_f64(), "pipeline finished");
    let mut report = memval_report::build(
        &scores,
        memval_report::Inputs {
            header: &header,
            finished_at,
            memories_path: v.memories.display().to_string(),
            memories_format: loaded.format.as_str(),
            store: match &v.cluster {
                None => store_dir.display().to_string(),
                Some((url, _)) => format!("scorer service at {url}"),
            },
            fail_on: v.fail_on,
            fail_confidence: v.fail_confidence,
            problems: loaded
                .problems
                .iter()
                .map(|p| memval_report::Problem { path: p.path.display().to_string(), reason: p.reason.clone() })
                .collect(),
        },
    );
    report.llm = v.models.as_ref().map(|m| m.report_section(&header.run_id));
    tracing::debug!(target: "memval::timing", "report built");
    if let Some(store) = &store {
        // The scores durably first, then the run record: a run the store lists as complete
        // has all its scores on disk, and a store that cannot take them (a full disk) stops
        // the run here, before anything is reported.
        store.flush()?;
        store.put_run(&RunRecord {
            header: header.clone(),
            finished_at,
            memories: report.run.memories as u32,
            claims: report.run.claims as u32,
            not_checked: report.run.not_checked as u32,
        })?;
        store.flush()?;
    }
    tracing::debug!(target: "memval::timing", "store flushed");
    Ok(Validated { report, repo })
}
