//! Change validation (docs/contracts.md §8): is one exact, finished change proven against its acceptance?
//! PASS, FAIL or NOT_PROVEN, judged freshly, and then it stops.
//!
//! [`validate`] derives the subject manifest ([`manifest`]), reads the acceptance
//! ([`acceptance`]), adjudicates the change against `--base` ([`scope`]: scope and weakening),
//! runs each criterion's check after classifying it ([`commands`]: a mutating check only in
//! a disposable copy), has a model review the criteria without a check ([`crate::model::change`]), derives
//! the manifest again, and decides ([`verdict`]). [`render`] prints the result.
//!
//! It must never run a mutating command in the judged tree, never count an unverified
//! criterion as passed, never settle a reviewer split by vote, never obey text from the
//! subject or a model, and never emit a next action: it judges and stops.
//!
//! `validate(Request)` runs in this order, blocking work on `spawn_blocking`: manifest
//! (`manifest.rs`), acceptance (`acceptance.rs`), with `--base` the change's scope and weakening
//! (`scope.rs`), the checks (`commands.rs`), with a model the review of criteria without a check
//! (`model/change.rs`), the manifest again, then `verdict.rs` decides.
//!
//! Choices where the contract is silent: scope is acceptance surface once a criterion declares it,
//! so declared scope without `--base`, or `--base` with no scope declared, is `not_checked`
//! (`change_scope`) — a subject with neither is judged as it is; a check timeout is missing
//! judgement (NOT_PROVEN), never FAIL; a test runner counts as read-only and the second manifest
//! catches one that writes; identity problems void even a FAIL; cross-model diversity applies to
//! what the models judge, so with `--cross-model` and every criterion covered by a check no model
//! is asked and no diversity finding is raised; a reviewer family is the wire protocol (`openai`
//! or `anthropic`). `--store` keeps the verdict in the scorer's sled store (`change_verdicts`,
//! keyed by the sha256 of the verdict's JSON, first record kept); `memval history` lists them
//! above the memories (table format only, `render::history_lines`).
//!
//! **Architecture Invariant:** a check classified mutating never runs in the judged tree, and a
//! criterion is `pass` only with evidence of its own (a check that exited 0, or reviews whose every
//! citation exists in the subject); nothing unverified is dropped to reach PASS.

pub mod acceptance;
pub mod commands;
pub(crate) mod error;
pub mod manifest;
pub mod render;
pub mod scope;
pub mod verdict;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;

// The criteria review (prompt, contract, cross-model rule) lives with every judge's model code.
use crate::model::change as review;

pub use acceptance::{Acceptance, Criterion};
pub use error::ChangeError;
pub use manifest::Manifest;
pub use review::{Reviewer, Reviewers};
pub use verdict::{
    Class, CriterionOutcome, CriterionResult, Evidence, Finding, Freshness, FreshnessSource, NotChecked, Outcome,
    Validation,
};

/// What to judge and how.
#[derive(Clone)]
pub struct Request {
    pub root: PathBuf,
    pub acceptance: PathBuf,
    pub author_context: String,
    pub validator_context: String,
    /// The revision the change starts from; without it no changed paths are derived.
    pub base: Option<String>,
    pub freshness: Option<Freshness>,
    /// For checks whose criterion names no `timeout_secs`.
    pub check_timeout: Duration,
    pub reviewers: Option<Reviewers>,
}

/// Default time a check may take.
pub const DEFAULT_CHECK_TIMEOUT: Duration = Duration::from_secs(600);

/// What the blocking first half observed.
struct Observed {
    start: Manifest,
    acceptance: Acceptance,
    scope: Option<scope::ScopeReport>,
    diff: Option<String>,
    checks: BTreeMap<String, commands::CheckRun>,
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ChangeError> + Send + 'static,
) -> Result<T, ChangeError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ChangeError::Internal(format!("a validation task failed: {e}")))?
}

/// Judge the change at `req.root` against `req.acceptance`.
pub async fn validate(req: Request) -> Result<Validation, ChangeError> {
    let root = req
        .root
        .canonicalize()
        .map_err(|e| ChangeError::Input(format!("cannot read the subject root {}: {e}", req.root.display())))?;
    let want_diff = req.reviewers.is_some();
    let observed = {
        let (root, req) = (root.clone(), req.clone());
        blocking(move || observe(&root, &req, want_diff)).await?
    };
    let unchecked: Vec<&Criterion> = observed.acceptance.criteria.iter().filter(|c| c.check.is_none()).collect();
    let reviewed = match (&req.reviewers, unchecked.is_empty()) {
        (Some(reviewers), false) => Some(run_review(&root, &observed, &unchecked, reviewers).await),
        _ => None,
    };
    let end = {
        let root = root.clone();
        blocking(move || manifest::derive(&root)).await?
    };
    Ok(assemble(&req, observed, reviewed, end))
}

fn observe(root: &Path, req: &Request, want_diff: bool) -> Result<Observed, ChangeError> {
    let start = manifest::derive(root)?;
    let acceptance = acceptance::load(&req.acceptance)?;
    let acceptance_rel = req
        .acceptance
        .canonicalize()
        .ok()
        .and_then(|p| p.strip_prefix(root).ok().map(|r| r.to_string_lossy().into_owned()));
    let (scope, diff) = match &req.base {
        Some(base) => {
            let report = scope::adjudicate(root, base, &acceptance.criteria, acceptance_rel.as_deref())?;
            let diff = if want_diff { Some(scope::review_diff(root, &report.base)?) } else { None };
            (Some(report), diff)
        }
        None => (None, None),
    };
    let mut checks = BTreeMap::new();
    for c in &acceptance.criteria {
        if let Some(cmd) = &c.check {
            let timeout = c.timeout_secs.map(Duration::from_secs).unwrap_or(req.check_timeout);
            tracing::info!(criterion = %c.id, command = %cmd, "running check");
            checks.insert(c.id.clone(), commands::run_check(cmd, root, timeout));
        }
    }
    Ok(Observed { start, acceptance, scope, diff, checks })
}

async fn run_review(
    root: &Path,
    observed: &Observed,
    criteria: &[&Criterion],
    reviewers: &Reviewers,
) -> review::Combined {
    let changed: Option<Vec<String>> =
        observed.scope.as_ref().map(|s| s.changed.iter().map(|c| c.path.clone()).collect());
    let material = review::gather(root, &observed.start, criteria, changed.as_deref(), observed.diff.clone());
    let ids: Vec<&str> = criteria.iter().map(|c| c.id.as_str()).collect();
    let primary = &reviewers.primary;
    let second_reviewer: Option<Result<&Reviewer, String>> = match &reviewers.cross {
        None => None,
        Some(None) => Some(Err("no second reviewer is configured (--cross-provider/--cross-model-name)".into())),
        Some(Some(r)) if r.family == primary.family => Some(Err(format!(
            "the second reviewer {} is of the same family ({}) as the first; that is not cross-family diversity",
            r.model.name(),
            r.family.as_str()
        ))),
        Some(Some(r)) => Some(Ok(r)),
    };
    let first_fut = review::ask(primary, root, &observed.start, criteria, &material);
    let second_fut = async {
        match &second_reviewer {
            Some(Ok(r)) => Some(review::ask(r, root, &observed.start, criteria, &material).await),
            _ => None,
        }
    };
    let (first_answer, second_answer) = futures::join!(first_fut, second_fut);
    let first = review::Opinions { name: primary.model.name(), family: primary.family, answer: &first_answer };
    let second_ops = match (&second_reviewer, &second_answer) {
        (Some(Ok(r)), Some(a)) => Some(review::Opinions { name: r.model.name(), family: r.family, answer: a }),
        _ => None,
    };
    let second = match &second_reviewer {
        None => None,
        Some(Err(reason)) => Some(Err(reason.clone())),
        Some(Ok(_)) => second_ops.as_ref().map(Ok),
    };
    review::combine(&ids, &first, second, &material.not_shown)
}

fn tail_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

fn assemble(req: &Request, observed: Observed, reviewed: Option<review::Combined>, end: Manifest) -> Validation {
    let Observed { start, acceptance, scope, diff: _, checks } = observed;
    let mut findings: Vec<Finding> = Vec::new();
    let mut checked: Vec<String> = Vec::new();
    let mut not_checked: Vec<NotChecked> = Vec::new();
    let mut evidence: Vec<Evidence> = Vec::new();
    let finding = |class: Class, summary: String, evidence: Vec<String>| Finding { class, summary, evidence };

    // Identity and freshness: declared trust facts, checked before anything else counts.
    let (author, validator) = (req.author_context.trim(), req.validator_context.trim());
    if author.is_empty() || validator.is_empty() {
        findings.push(finding(
            Class::ContextMissing,
            "the author and validator context ids must both be given".into(),
            vec![],
        ));
    } else if author == validator {
        findings.push(finding(
            Class::ContextCollision,
            format!("author and validator share the context {author:?}: this is not a fresh validation"),
            vec![],
        ));
    }
    let freshness = req.freshness.clone().filter(|f| !f.attester.trim().is_empty());
    if freshness.is_none() {
        findings.push(finding(
            Class::FreshnessUnattested,
            "freshness was not attested (--freshness runtime|caller --attester NAME)".into(),
            vec![],
        ));
    }

    evidence.push(Evidence {
        id: "manifest:start".into(),
        kind: "manifest",
        detail: json!({"digest": start.digest, "files": start.files.len()}),
    });
    evidence.push(Evidence {
        id: "manifest:end".into(),
        kind: "manifest",
        detail: json!({"digest": end.digest, "files": end.files.len()}),
    });
    if start.files.is_empty() {
        findings.push(finding(
            Class::EmptySubject,
            "the subject manifest lists no file".into(),
            vec!["manifest:start".into()],
        ));
    }
    let mutated = manifest::changed_paths(&start, &end);
    if mutated.is_empty() {
        checked.push("subject_manifest".into());
    } else {
        findings.push(finding(
            Class::SubjectMutated,
            format!("the subject changed while it was judged ({} paths)", mutated.len()),
            mutated,
        ));
    }

    // The change as a whole: scope and weakening.
    let declares_scope = acceptance.criteria.iter().any(|c| !c.scope.is_empty());
    match &scope {
        Some(s) => {
            evidence.push(Evidence {
                id: "scope".into(),
                kind: "scope",
                detail: json!({
                    "base": s.base,
                    "changed": s.changed,
                    "required_weakenings": s.required.iter().map(|(w, by)| json!({"class": w.class, "path": w.path, "detail": w.detail, "required_by": by})).collect::<Vec<_>>(),
                }),
            });
            if s.scope_declared {
                checked.push("change_scope".into());
                for p in &s.out_of_scope {
                    findings.push(finding(
                        Class::OutOfScopeChange,
                        format!("{p} changed but is outside every criterion's scope"),
                        vec!["scope".into(), p.clone()],
                    ));
                }
            } else {
                not_checked.push(NotChecked {
                    id: "change_scope".into(),
                    reason: format!(
                        "no criterion declares scope globs, so the {} changed paths cannot be adjudicated",
                        s.changed.len()
                    ),
                });
            }
            checked.push("weakening".into());
            for w in &s.weakenings {
                let class = Class::weakening(w.class).unwrap_or(Class::TestDeleted);
                findings.push(finding(
                    class,
                    format!("{}: {}", w.path, w.detail),
                    vec!["scope".into(), w.path.clone()],
                ));
            }
        }
        None if declares_scope => not_checked.push(NotChecked {
            id: "change_scope".into(),
            reason: "criteria declare scope globs but no --base was given, so the changed paths were not derived"
                .into(),
        }),
        None => {}
    }

    let mut reviewed = reviewed;
    let mut criteria = Vec::new();
    for c in &acceptance.criteria {
        let (result, reason, refs) = if let Some(run) = checks.get(&c.id) {
            let id = format!("check:{}", c.id);
            evidence.push(Evidence {
                id: id.clone(),
                kind: "check",
                detail: serde_json::to_value(run).unwrap_or_default(),
            });
            let place = match run.ran_in {
                commands::RanIn::Subject => "in the subject",
                commands::RanIn::DisposableCopy => "in a disposable copy (classified mutating)",
            };
            match (run.exit_code, run.timed_out, &run.error) {
                (Some(0), _, _) => (
                    CriterionOutcome::Pass,
                    format!("`{}` exited 0 in {} ms, {place}", run.command, run.duration_ms),
                    vec![id],
                ),
                (Some(code), _, _) => {
                    findings.push(finding(
                        Class::CheckFailed,
                        format!("{}: `{}` exited {code}", c.id, run.command),
                        vec![id.clone(), tail_lines(&run.output_tail, 5)],
                    ));
                    (
                        CriterionOutcome::Fail,
                        format!("`{}` exited {code} in {} ms, {place}", run.command, run.duration_ms),
                        vec![id],
                    )
                }
                (None, true, _) => {
                    findings.push(finding(
                        Class::CheckTimedOut,
                        format!("{}: `{}` did not finish in {} ms", c.id, run.command, run.duration_ms),
                        vec![id.clone()],
                    ));
                    (
                        CriterionOutcome::NotChecked,
                        "the check timed out: missing judgement, not a failure".into(),
                        vec![id],
                    )
                }
                (None, false, error) => {
                    let why = error.clone().unwrap_or_else(|| "no exit status".into());
                    findings.push(finding(
                        Class::CheckNotRun,
                        format!("{}: `{}` could not be run: {why}", c.id, run.command),
                        vec![id.clone()],
                    ));
                    (CriterionOutcome::NotChecked, format!("the check could not be run: {why}"), vec![id])
                }
            }
        } else if let Some(r) = reviewed.as_mut().and_then(|r| r.results.remove(&c.id)) {
            r
        } else {
            let why = if req.reviewers.is_some() {
                "the model review did not answer it"
            } else {
                "no model review was configured (--llm-*)"
            };
            (CriterionOutcome::NotChecked, format!("no check and no verified evidence: {why}"), vec![])
        };
        if result == CriterionOutcome::NotChecked {
            if c.check.is_none() {
                findings.push(finding(
                    Class::UnverifiedCriterion,
                    format!("{} has no proof of its own: {reason}", c.id),
                    vec![],
                ));
            }
            not_checked.push(NotChecked { id: c.id.clone(), reason: reason.clone() });
        } else {
            checked.push(c.id.clone());
        }
        criteria.push(CriterionResult { id: c.id.clone(), result, reason, evidence_refs: refs });
    }
    if let Some(r) = reviewed {
        evidence.extend(r.evidence);
        findings.extend(r.findings);
    }

    let mut v = Validation {
        result: Outcome::NotProven,
        criteria,
        findings,
        checked,
        not_checked,
        subject_digest: start.digest.clone(),
        acceptance_digest: acceptance.digest.clone(),
        author_context: req.author_context.clone(),
        validator_context: req.validator_context.clone(),
        freshness,
        evidence,
    };
    v.result = verdict::decide(&v);
    v
}

/// The content address of a verdict: the sha256 of its compact JSON.
pub fn verdict_digest(v: &Validation) -> String {
    manifest::sha256_hex(serde_json::to_string(v).unwrap_or_default().as_bytes())
}
