//! The reconciler as a long-running service's work (`memval serve reconciler`): the repos it
//! serves, one reconciliation of a named repo on whatever triggered it, candidate pairs handed
//! to the pair judges through [`PairJudges`] (the cluster's `memval serve judge` replicas; the
//! transport is the caller's), and the dated report written exactly as `memval reconcile`
//! writes it.
//!
//! It is not a `memval_runtime::Stage`: a reconciliation is not a batch in and a batch out,
//! it is a trigger in and a report file out. The pair judging it asks for *is* the judge stage,
//! run by the runtime on the judges' consumer. It must never edit a memory, a decision record
//! or a doc (the report is the one file written, under a new name), and it never lets a pair
//! go missing: a pair without an answer is listed "not judged: …" with the reason.
//!
//! [`Reconciler`] holds the served repos ([`RepoTarget`]: name, checkout, memories, report folder;
//! checked at start-up), the pair `Method` (its embed model found at start-up; without a store it
//! caches in each repo's `REPO/.memval/store`) and an optional [`PairJudges`] (the caller's way
//! to send `PairBatch`es and get back one `JudgementBatch` or a reason per batch).
//! `Reconciler::reconcile(target, trigger, run_id)` runs `reconcile`, judges through
//! `PairJudges` with the in-process plan, writes the report with `naming::write_new` (a
//! cluster's period with `naming::write_period`, `Reconciler::reconcile_period`) and returns
//! an `Outcome` (report path, front-matter counts, pairs judged or not; its JSON is the reply to a
//! request).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures::future::BoxFuture;
use memval_judge::plan::Limits;
use memval_proto::{subjects, JudgementBatch, PairBatch, RunHeader};
use serde_json::json;

use crate::candidates::{Cap, EmbedSetup, Method};
use crate::{judging, naming, reconcile, report, Inputs, ReconcileError};

/// Where candidate pairs are judged: the caller sends each batch to the judges and gives
/// back, per batch and in order, the judges' answer or the whole `not judged: …` reason.
pub trait PairJudges: Send + Sync {
    fn judge<'a>(
        &'a self,
        run: &'a RunHeader,
        batches: Vec<PairBatch>,
    ) -> BoxFuture<'a, Vec<Result<JudgementBatch, String>>>;
}

/// One repo a reconciler serves.
#[derive(Debug, Clone)]
pub struct RepoTarget {
    /// The name requests and ingest events use (`memval.v1.reconcile.<name>`).
    pub name: String,
    pub repo: PathBuf,
    pub memories: Vec<PathBuf>,
    /// Where its reports go; `None` for the default beside its GAAI `contexts/` folder.
    pub out_dir: Option<PathBuf>,
}

impl RepoTarget {
    /// The subject that asks for a reconciliation of this repo.
    pub fn request_subject(&self) -> String {
        subjects::for_run(subjects::RECONCILE, &self.name)
    }
}

/// What started a reconciliation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    Schedule,
    Request,
    /// After this many memory-ingest events (debounced).
    Ingest(u32),
}

impl std::fmt::Display for Trigger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Trigger::Schedule => f.write_str("schedule"),
            Trigger::Request => f.write_str("request"),
            Trigger::Ingest(n) => write!(f, "{n} ingest event(s)"),
        }
    }
}

/// What one reconciliation produced (the reply to a request, and the service's log line).
#[derive(Debug, Clone)]
pub struct Outcome {
    pub repo: String,
    pub run_id: String,
    pub trigger: Trigger,
    pub report: PathBuf,
    pub front: report::FrontMatter,
    pub candidates: usize,
    pub judged: usize,
    pub not_judged: usize,
    /// The report of the period was found written by the holder this reconciliation took the
    /// period over from (`naming::write_period`): `report` is that one, nothing was written.
    pub written_before: bool,
}

impl Outcome {
    /// The reply to a `memval.v1.reconcile.<repo>` request.
    pub fn to_json(&self) -> String {
        json!({
            "repo": self.repo,
            "run": self.run_id,
            "trigger": self.trigger.to_string(),
            "report": self.report.display().to_string(),
            "findings_count": self.front.findings_count,
            "code_path_findings_count": self.front.code_path_findings_count,
            "doc_staleness_findings_count": self.front.doc_staleness_findings_count,
            "files_scanned": self.front.files_scanned,
            "candidate_pairs": self.candidates,
            "judged": self.judged,
            "not_judged": self.not_judged,
        })
        .to_string()
    }
}

/// The reply to a request that could not be served.
pub fn error_reply(repo: &str, error: &str) -> String {
    json!({ "repo": repo, "error": error }).to_string()
}

/// `method` for one repo: an embed setup without a store caches in `repo`'s default store.
fn method_for(method: &Method, repo: &Path) -> Method {
    let with_store = |s: &EmbedSetup| EmbedSetup {
        model_dir: s.model_dir.clone(),
        store_dir: Some(s.store_dir.clone().unwrap_or_else(|| memval_store::default_dir(repo))),
    };
    match method {
        Method::Keyword => Method::Keyword,
        Method::Embed(s) => Method::Embed(with_store(s)),
        Method::Both(s) => Method::Both(with_store(s)),
    }
}

/// The repos a reconciler serves and how it judges their candidate pairs.
pub struct Reconciler {
    repos: Vec<RepoTarget>,
    judges: Option<Arc<dyn PairJudges>>,
    pair_cap: Cap,
    per_agent: usize,
    method: Method,
}

impl Reconciler {
    /// Checks every repo is a folder and every memories path exists, so a typo stops the
    /// service at start-up. `judges` is `None` when no model is configured: candidates are then
    /// listed "not judged: no model configured", as in one process. `method` proposes the
    /// candidate pairs as `memval reconcile --method` does; its embed model is found here, so a
    /// missing one stops the service at start-up too. An embed setup without a store caches
    /// embeddings in each repo's default store (REPO/.memval/store), as `memval reconcile` does.
    pub fn new(
        repos: Vec<RepoTarget>,
        judges: Option<Arc<dyn PairJudges>>,
        pair_cap: Cap,
        per_agent: usize,
        method: Method,
    ) -> Result<Reconciler, ReconcileError> {
        if repos.is_empty() {
            return Err(ReconcileError::Input {
                path: PathBuf::new(),
                reason: "no repo to reconcile (--repo-map NAME=PATH)".into(),
            });
        }
        let mut subjects = std::collections::BTreeSet::new();
        for r in &repos {
            if !subjects.insert(r.request_subject()) {
                return Err(ReconcileError::Input {
                    path: r.repo.clone(),
                    reason: format!(
                        "repo name {:?} is served twice (or as another name with the same subject {})",
                        r.name,
                        r.request_subject()
                    ),
                });
            }
            if !r.repo.is_dir() {
                return Err(ReconcileError::Input {
                    path: r.repo.clone(),
                    reason: format!("repo {:?} is not a directory", r.name),
                });
            }
            if r.memories.is_empty() {
                return Err(ReconcileError::Input {
                    path: r.repo.clone(),
                    reason: format!("repo {:?} has no memories to reconcile", r.name),
                });
            }
            for m in &r.memories {
                if !m.exists() {
                    return Err(ReconcileError::Input {
                        path: m.clone(),
                        reason: format!("memories of repo {:?} do not exist", r.name),
                    });
                }
            }
        }
        if let Method::Embed(setup) | Method::Both(setup) = &method {
            memval_embed::ModelFiles::from_flag_or_env(setup.model_dir.as_deref()).map_err(ReconcileError::Embed)?;
        }
        Ok(Reconciler { repos, judges, pair_cap, per_agent, method })
    }

    pub fn repos(&self) -> &[RepoTarget] {
        &self.repos
    }

    pub fn judges(&self) -> bool {
        self.judges.is_some()
    }

    /// The repo `name` names: exactly, else by the last component of its path (as the
    /// investigator maps run repos to checkouts).
    pub fn find(&self, name: &str) -> Option<&RepoTarget> {
        self.repos.iter().find(|r| r.name == name).or_else(|| {
            let last = Path::new(name.trim_end_matches('/')).file_name()?.to_string_lossy().into_owned();
            self.repos.iter().find(|r| r.name == last)
        })
    }

    /// Reconcile `target` now (its date is today's), judge its candidate pairs when judges are
    /// configured, and write the report under a new dated name.
    pub async fn reconcile(
        &self,
        target: &RepoTarget,
        trigger: Trigger,
        run_id: &str,
    ) -> Result<Outcome, ReconcileError> {
        self.reconcile_period(target, trigger, run_id, None).await
    }

    /// [`Reconciler::reconcile`] for a cluster's `period`: the report is written by
    /// `naming::write_period`, so a report of the period already written by a holder that then
    /// fell silent is found and not written again (`Outcome::written_before`).
    pub async fn reconcile_period(
        &self,
        target: &RepoTarget,
        trigger: Trigger,
        run_id: &str,
        period: Option<&str>,
    ) -> Result<Outcome, ReconcileError> {
        let now = chrono::Utc::now().timestamp();
        let inputs = Inputs {
            repo: target.repo.clone(),
            memories: target.memories.clone(),
            now,
            pair_cap: self.pair_cap,
            per_agent: self.per_agent,
            method: method_for(&self.method, &target.repo),
        };
        let (mut report, default_dir) =
            tokio::task::spawn_blocking(move || reconcile(&inputs)).await.map_err(|e| ReconcileError::Input {
                path: target.repo.clone(),
                reason: format!("the reconciliation failed: {e}"),
            })??;
        if let Some(judges) = &self.judges {
            // The same plan as `memval reconcile` with a model (every batch of 10, at most 5).
            let limits = Limits { pair_cap: memval_judge::plan::MAX_PAIR_CAP, ..Limits::default() };
            let asked = judging::ask(&report.contradictions, limits);
            let header = RunHeader {
                run_id: run_id.to_owned(),
                repo: target.name.clone(),
                commit: None,
                started_at: now,
                expected_memories: 0,
            };
            // No deadline here: `PairJudges` sets the one it waits until when it sends them.
            let batches: Vec<PairBatch> = asked
                .batches
                .iter()
                .enumerate()
                .map(|(i, pairs)| PairBatch {
                    run: header.clone(),
                    batch_id: format!("{run_id}.p{i}"),
                    pairs: pairs.clone(),
                    expires_at: None,
                })
                .collect();
            let asked_any = !batches.is_empty();
            let answers = if asked_any { judges.judge(&header, batches).await } else { Vec::new() };
            let model = answers.iter().find_map(|a| a.as_ref().ok().map(|b| b.model.clone())).unwrap_or_else(|| {
                if asked_any { "the pair judges (no batch was answered)" } else { "the pair judges (no pair to judge)" }
                    .to_owned()
            });
            let answers = answers.into_iter().map(|a| a.map(|b| (b.judgements, b.notes))).collect();
            judging::file(&mut report.contradictions, asked, answers, model, run_id);
            report.count();
        }
        let dir = target.out_dir.clone().unwrap_or(default_dir);
        let (date, text) = (&report.front.generated_at, report::to_markdown(&report));
        let (path, written_before) = match period {
            None => (naming::write_new(&dir, date, &text)?, false),
            Some(period) => match naming::write_period(&dir, date, &text, period, run_id)? {
                naming::Written::New(path) => (path, false),
                naming::Written::Before(path) => (path, true),
            },
        };
        let c = &report.contradictions.candidates;
        let judged = c.iter().filter(|p| p.judgement.is_some()).count();
        Ok(Outcome {
            repo: target.name.clone(),
            run_id: run_id.to_owned(),
            trigger,
            report: path,
            front: report.front.clone(),
            candidates: c.len(),
            judged,
            not_judged: c.len() - judged,
            written_before,
        })
    }
}
