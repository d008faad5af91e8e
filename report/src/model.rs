//! The report model: what a run found, built from the scorer's memory scores.

use std::collections::BTreeMap;

use memval_proto::{rfc3339, ClaimResult, MemoryScore, Outcome, RunHeader, Verdict};
use serde::Serialize;

use crate::fail_on::FailOn;
use crate::fold::folded_into;

#[derive(Debug, Serialize)]
pub struct Report {
    pub run: RunInfo,
    pub memories: Vec<MemoryReport>,
    pub not_checked: Vec<NotChecked>,
    pub problems: Vec<Problem>,
    /// With a model configured: the model, its spending per stage (calls, tokens, estimated
    /// cost) and what the LLM investigator did, including how often its output was discarded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm: Option<serde_json::Value>,
}

#[derive(Debug, Serialize)]
pub struct RunInfo {
    pub id: String,
    pub repo: String,
    pub commit: Option<String>,
    pub started_at: String,
    pub finished_at: String,
    pub memories_path: String,
    pub memories_format: String,
    pub store: String,
    pub memories: usize,
    pub claims: usize,
    pub checked: usize,
    pub not_checked: usize,
    pub verdicts: BTreeMap<&'static str, usize>,
    pub fail_on: FailOn,
    /// The confidence from which a verdict counts toward `fail_on` (`--fail-confidence`).
    pub fail_confidence: u8,
    /// Whether a claim at or above `fail_on`, at `fail_confidence` or above, was found (the exit
    /// code is 1 then).
    pub failed: bool,
}

#[derive(Debug, Serialize)]
pub struct MemoryReport {
    pub id: String,
    pub agent: String,
    pub source: String,
    pub format: String,
    pub tier: u8,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    pub score: Option<u8>,
    pub action: Option<&'static str>,
    pub skip_reason: Option<String>,
    pub claims: Vec<ClaimReport>,
}

#[derive(Debug, Serialize)]
pub struct CodeRefReport {
    /// The repo-relative path the memory meant (after resolving trees, sections and the
    /// notes file's folder); `.` for a name given without a file.
    pub path: String,
    /// The reference as the memory wrote it, when that differs from `path`.
    pub written: Option<String>,
    pub symbol: Option<String>,
    pub line: Option<u32>,
}

#[derive(Debug, Serialize)]
pub struct ClaimReport {
    pub claim_type: &'static str,
    pub claim_text: String,
    /// Line of the memory's text the claim came from (1-based).
    pub line: u32,
    /// Line of the memory's source file the claim came from, when known.
    pub source_line: Option<u32>,
    /// Every line of the memory's text that makes this claim (`line` first).
    pub lines: Vec<u32>,
    /// The same lines in the memory's source file, when known.
    pub source_lines: Vec<u32>,
    pub code_refs: Vec<CodeRefReport>,
    pub verdict: &'static str,
    pub confidence: u8,
    pub evidence: String,
    pub successor: Option<String>,
    /// When the claim became false, for a verdict git history decided.
    pub since: Option<SinceReport>,
    /// The position, in this memory's `claims`, of the claim whose row shows this one: a
    /// behavioural or architectural reading of the same sentence, decided on that claim's
    /// reference and evidence (`fold.rs`). `None` when the claim has a row of its own. The
    /// table and Markdown show one row for both; scores and verdict counts count both.
    pub folded_into: Option<usize>,
}

/// The commit that moved, renamed, removed or changed what a claim names.
#[derive(Debug, Clone, Serialize)]
pub struct SinceReport {
    pub commit: String,
    /// Committer date, RFC 3339 (UTC).
    pub date: String,
}

impl SinceReport {
    /// `1a2b3c4 2026-01-05`: the short commit id and the day.
    pub fn short(&self) -> String {
        let commit: String = self.commit.chars().take(7).collect();
        format!("{commit} {}", self.date.get(..10).unwrap_or(&self.date))
    }
}

#[derive(Debug, Serialize)]
pub struct NotChecked {
    pub memory_id: String,
    pub source: String,
    pub claim_type: &'static str,
    pub claim_text: String,
    pub line: u32,
    pub code_refs: Vec<CodeRefReport>,
    pub reason: String,
}

#[derive(Debug, Serialize)]
pub struct Problem {
    pub path: String,
    pub reason: String,
}

fn refs(result: &ClaimResult) -> Vec<CodeRefReport> {
    // The investigator tries a path's other readings (the repo root instead of a section's
    // folder, ...) when the first does not exist; its evidence starts with the reading it
    // found. That reading is the path the memory meant.
    let found = match &result.outcome {
        Outcome::Checked { evidence, .. } => evidence.split([' ', ':']).next().map(|f| f.trim_end_matches('/')),
        Outcome::NotChecked { .. } => None,
    };
    result
        .claim
        .code_refs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let path = match found {
                Some(f) if i == 0 && f != r.path && r.alt_paths.iter().any(|a| a == f) => f.to_owned(),
                _ => r.path.clone(),
            };
            let written = r.written.clone().or_else(|| (path != r.path).then(|| r.path.clone()));
            CodeRefReport { path, written, symbol: r.symbol.clone(), line: r.line }
        })
        .collect()
}

/// The claim's lines in the memory's text, and in its source file when known.
fn claim_lines(score: &MemoryScore, result: &ClaimResult) -> (Vec<u32>, Vec<u32>) {
    let claim = &result.claim;
    let text = if claim.lines.is_empty() { vec![claim.line] } else { claim.lines.clone() };
    let source = text.iter().filter_map(|&l| source_line(score, l)).collect();
    (text, source)
}

/// Line in the memory's source file for a claim on line `line` of its text.
fn source_line(score: &MemoryScore, line: u32) -> Option<u32> {
    match (score.memory.source.line, score.memory.source.format.as_str()) {
        // One memory per file: the content starts at `first_line` of the file.
        (None, "notes" | "claude-code" | "gaai") => Some(score.memory.first_line + line.saturating_sub(1)),
        (Some(l), _) => Some(l),
        (None, _) => None,
    }
}

pub struct Inputs<'a> {
    pub header: &'a RunHeader,
    pub finished_at: i64,
    pub memories_path: String,
    pub memories_format: &'a str,
    pub store: String,
    pub fail_on: FailOn,
    pub fail_confidence: u8,
    pub problems: Vec<Problem>,
}

pub fn build(scores: &[MemoryScore], inputs: Inputs<'_>) -> Report {
    let mut memories = Vec::new();
    let mut not_checked = Vec::new();
    let mut verdicts: BTreeMap<&'static str, usize> = Verdict::ALL.iter().map(|v| (v.as_str(), 0)).collect();
    let mut claims_total = 0;
    let mut unread = 0;
    let mut failed = false;
    for score in scores {
        let mut claims = Vec::new();
        let mut checked_results = Vec::new();
        for result in &score.results {
            claims_total += 1;
            match &result.outcome {
                Outcome::Checked { verdict, confidence, evidence, successor, since } => {
                    *verdicts.entry(verdict.as_str()).or_default() += 1;
                    failed |= inputs.fail_on.failed_by(*verdict, *confidence, inputs.fail_confidence);
                    let (lines, source_lines) = claim_lines(score, result);
                    checked_results.push(result);
                    claims.push(ClaimReport {
                        claim_type: result.claim.claim_type.as_str(),
                        claim_text: result.claim.claim_text.clone(),
                        line: result.claim.line,
                        source_line: source_line(score, result.claim.line),
                        lines,
                        source_lines,
                        code_refs: refs(result),
                        verdict: verdict.as_str(),
                        confidence: *confidence,
                        evidence: evidence.clone(),
                        successor: successor.clone(),
                        since: since.as_ref().map(|s| SinceReport { commit: s.commit.clone(), date: rfc3339(s.date) }),
                        folded_into: None,
                    });
                }
                Outcome::NotChecked { reason } => not_checked.push(NotChecked {
                    memory_id: score.memory.id.clone(),
                    source: score.memory.source.to_string(),
                    claim_type: result.claim.claim_type.as_str(),
                    claim_text: result.claim.claim_text.clone(),
                    line: result.claim.line,
                    code_refs: refs(result),
                    reason: reason.clone(),
                }),
            }
        }
        for (claim, into) in claims.iter_mut().zip(folded_into(&checked_results)) {
            claim.folded_into = into;
        }
        // What the extractor did not read (a limit reached) is listed, never dropped.
        for left in &score.left_out {
            not_checked.push(NotChecked {
                memory_id: score.memory.id.clone(),
                source: score.memory.source.to_string(),
                claim_type: "unread_text",
                claim_text: String::new(),
                line: left.line,
                code_refs: Vec::new(),
                reason: left.reason.clone(),
            });
            unread += 1;
        }
        memories.push(MemoryReport {
            id: score.memory.id.clone(),
            agent: score.memory.agent.clone(),
            source: score.memory.source.to_string(),
            format: score.memory.source.format.clone(),
            tier: score.memory.tier,
            created_at: score.memory.created_at.map(rfc3339),
            updated_at: score.memory.updated_at.map(rfc3339),
            score: score.score,
            action: score.action.map(|a| a.as_str()),
            skip_reason: score.skip_reason.clone(),
            claims,
        });
    }
    let checked = claims_total - (not_checked.len() - unread);
    Report {
        run: RunInfo {
            id: inputs.header.run_id.clone(),
            repo: inputs.header.repo.clone(),
            commit: inputs.header.commit.clone(),
            started_at: rfc3339(inputs.header.started_at),
            finished_at: rfc3339(inputs.finished_at),
            memories_path: inputs.memories_path,
            memories_format: inputs.memories_format.to_owned(),
            store: inputs.store,
            memories: scores.len(),
            claims: claims_total,
            checked,
            not_checked: not_checked.len(),
            verdicts,
            fail_on: inputs.fail_on,
            fail_confidence: inputs.fail_confidence,
            failed,
        },
        memories,
        not_checked,
        problems: inputs.problems,
        llm: None,
    }
}

/// One line about the model's work, for the table and Markdown views.
pub(crate) fn llm_summary(report: &Report) -> Option<String> {
    let llm = report.llm.as_ref()?;
    let total = &llm["usage"]["total"];
    let cost = total["cost_usd"].as_f64().map(|c| format!(", ~${c:.4}")).unwrap_or_default();
    let mut line = format!(
        "llm {}: {} calls, {} in / {} out tokens{cost}",
        llm["model"].as_str().unwrap_or("?"),
        total["calls"],
        total["input_tokens"],
        total["output_tokens"]
    );
    let x = &llm["extractor"];
    if !x.is_null() {
        line.push_str(&format!(
            "; extraction added {} claims ({} dropped by the contract, {} duplicates), {} memories deferred",
            x["claims_added"], x["claims_dropped"], x["duplicates"], x["deferred_memories"]
        ));
    }
    let inv = &llm["investigator"];
    if !inv.is_null() {
        line.push_str(&format!(
            "; investigator kept {} of {} verdicts ({} broke the contract, {} had evidence that did not check out), {} tool calls ({} refused), {} claims deferred",
            inv["verdicts_kept"], inv["claims_sent"], inv["contract_violations"], inv["evidence_downgrades"],
            inv["tool_calls"], inv["tool_refusals"], inv["deferred_claims"],
        ));
    }
    Some(line)
}

/// One line, for the table and Markdown views, when verdicts that reach `--fail-on` were left
/// out of the exit code by `--fail-confidence`: how many, so an exit 0 next to STALE rows is
/// not a surprise.
pub(crate) fn gate_summary(report: &Report) -> Option<String> {
    let run = &report.run;
    let threshold = run.fail_on.threshold()?;
    let under = report
        .memories
        .iter()
        .flat_map(|m| &m.claims)
        .filter(|c| c.confidence < run.fail_confidence)
        .filter(|c| Verdict::parse(c.verdict).is_some_and(|v| run.fail_on.reached_by(v)))
        .count();
    (under > 0).then(|| {
        let (noun, verb) = if under == 1 { ("verdict", "has") } else { ("verdicts", "have") };
        format!(
            "{under} {noun} at or above {} {verb} a confidence under {} (--fail-confidence): shown, not failing the run",
            threshold.as_str().to_lowercase(),
            run.fail_confidence
        )
    })
}
