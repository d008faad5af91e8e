//! The run report: one stable JSON document, and the table, Markdown and SARIF views of it.
//!
//! The JSON shape is documented in the README and is a public contract: add fields, never
//! rename or remove them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use memval_proto::{rfc3339, ClaimResult, MemoryScore, Outcome, RunHeader, Verdict};
use serde::Serialize;
use serde_json::json;

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
    pub fail_on: String,
    /// Whether a claim at or above `fail_on` was found (the exit code is 1 then).
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
    pub fail_on: Option<Verdict>,
    pub fail_on_name: String,
    pub problems: Vec<Problem>,
}

/// Severity order for `--fail-on`: AMBIGUOUS < STALE < CONTRADICTED.
pub fn severity(v: Verdict) -> u8 {
    match v {
        Verdict::Valid => 0,
        Verdict::Ambiguous => 1,
        Verdict::Stale => 2,
        Verdict::Contradicted => 3,
    }
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
        for result in &score.results {
            claims_total += 1;
            match &result.outcome {
                Outcome::Checked { verdict, confidence, evidence, successor } => {
                    *verdicts.entry(verdict.as_str()).or_default() += 1;
                    failed |= inputs.fail_on.is_some_and(|f| severity(*verdict) >= severity(f));
                    let (lines, source_lines) = claim_lines(score, result);
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
            fail_on: inputs.fail_on_name,
            failed,
        },
        memories,
        not_checked,
        problems: inputs.problems,
        llm: None,
    }
}

/// One line about the model's work, for the table and Markdown views.
fn llm_summary(report: &Report) -> Option<String> {
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

pub fn to_json(report: &Report) -> String {
    memval_proto::display::json_safe(&(serde_json::to_string_pretty(report).expect("report serialises") + "\n"))
}

fn cell(s: &str, width: usize) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() <= width {
        format!("{s:<width$}")
    } else {
        format!("{}…", s.chars().take(width - 1).collect::<String>())
    }
}

pub fn to_table(report: &Report) -> String {
    let mut out = String::new();
    for m in &report.memories {
        let score = m.score.map_or("-".to_owned(), |s| s.to_string());
        let _ = writeln!(out, "{}  [{}]  score {score}  {}", m.source, m.agent, m.action.unwrap_or("not scored"));
        if m.claims.is_empty() {
            let why = m.skip_reason.as_deref().unwrap_or("no claim could be checked without an LLM");
            let _ = writeln!(out, "    ({why})");
        }
        for c in &m.claims {
            let detail = match (&c.successor, c.verdict) {
                (Some(s), _) => format!("→ {s}"),
                _ => c.evidence.clone(),
            };
            let _ = writeln!(
                out,
                "    {} {:>3}  {}  {}",
                cell(c.verdict, 12),
                c.confidence,
                cell(&c.claim_text, 48),
                cell(&detail, 70)
            );
        }
    }
    if !report.not_checked.is_empty() {
        let _ = writeln!(out, "\nnot checked ({}):", report.not_checked.len());
        for n in &report.not_checked {
            let _ = writeln!(out, "    {}  {}  {}", cell(&n.source, 28), cell(&n.claim_text, 48), cell(&n.reason, 70));
        }
    }
    if !report.problems.is_empty() {
        let _ = writeln!(out, "\nunreadable inputs ({}):", report.problems.len());
        for p in &report.problems {
            let _ = writeln!(out, "    {}: {}", p.path, p.reason);
        }
    }
    let v = &report.run.verdicts;
    let _ = writeln!(
        out,
        "\n{} memories, {} claims: {} valid, {} stale, {} contradicted, {} ambiguous, {} not checked",
        report.run.memories,
        report.run.claims,
        v["VALID"],
        v["STALE"],
        v["CONTRADICTED"],
        v["AMBIGUOUS"],
        report.run.not_checked
    );
    if let Some(line) = llm_summary(report) {
        let _ = writeln!(out, "{line}");
    }
    memval_proto::display::terminal_safe(&out)
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

pub fn to_markdown(report: &Report) -> String {
    let r = &report.run;
    let mut out = String::new();
    let _ = writeln!(out, "# memval report\n");
    let _ = writeln!(out, "- repo: `{}`{}", r.repo, r.commit.as_deref().map(|c| format!(" at `{c}`")).unwrap_or_default());
    let _ = writeln!(out, "- memories: `{}` ({})", r.memories_path, r.memories_format);
    let _ = writeln!(out, "- run: `{}`, {} → {}", r.id, r.started_at, r.finished_at);
    let _ = writeln!(
        out,
        "- {} memories, {} claims: **{} valid, {} stale, {} contradicted, {} ambiguous**, {} not checked\n",
        r.memories, r.claims, r.verdicts["VALID"], r.verdicts["STALE"], r.verdicts["CONTRADICTED"], r.verdicts["AMBIGUOUS"], r.not_checked
    );
    if let Some(line) = llm_summary(report) {
        let _ = writeln!(out, "- {line}\n");
    }
    let mut ranked: Vec<&MemoryReport> = report.memories.iter().collect();
    ranked.sort_by_key(|m| std::cmp::Reverse(m.score.map_or(-1, i32::from)));
    let _ = writeln!(out, "## Memories, worst first\n");
    let _ = writeln!(out, "| memory | agent | score | action |\n|---|---|---|---|");
    for m in &ranked {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            md_escape(&m.source),
            md_escape(&m.agent),
            m.score.map_or("-".into(), |s| s.to_string()),
            m.action.unwrap_or("not scored")
        );
    }
    for m in ranked.iter().filter(|m| !m.claims.is_empty()) {
        let _ = writeln!(out, "\n### `{}` ({}, score {})\n", md_escape(&m.source), md_escape(&m.agent), m.score.map_or("-".into(), |s| s.to_string()));
        let _ = writeln!(out, "| line | claim | verdict | confidence | evidence | successor |\n|---|---|---|---|---|---|");
        for c in &m.claims {
            let _ = writeln!(
                out,
                "| {} | {} | **{}** | {} | {} | {} |",
                c.source_line.unwrap_or(c.line),
                md_escape(&c.claim_text),
                c.verdict,
                c.confidence,
                md_escape(&c.evidence),
                c.successor.as_deref().map(|s| format!("`{}`", md_escape(s))).unwrap_or_default()
            );
        }
    }
    if !report.not_checked.is_empty() {
        let _ = writeln!(out, "\n## Not checked\n\nThese claims have no verdict; they are not counted in any score.\n");
        let _ = writeln!(out, "| memory | claim | reason |\n|---|---|---|");
        for n in &report.not_checked {
            let _ = writeln!(out, "| `{}` | {} | {} |", md_escape(&n.source), md_escape(&n.claim_text), md_escape(&n.reason));
        }
    }
    if !report.problems.is_empty() {
        let _ = writeln!(out, "\n## Inputs that could not be read\n");
        for p in &report.problems {
            let _ = writeln!(out, "- `{}`: {}", md_escape(&p.path), md_escape(&p.reason));
        }
    }
    memval_proto::display::terminal_safe(&out)
}

/// SARIF 2.1.0 for code scanning: one result per line of a claim that is not VALID, located
/// at the memory file and each line that makes the claim. `relative` maps a memory source path to a
/// repo-relative URI.
pub fn to_sarif(report: &Report, relative: &dyn Fn(&str) -> String) -> String {
    let rules = [
        ("memval/stale", "STALE", "warning", "Memory refers to code that moved or changed"),
        ("memval/contradicted", "CONTRADICTED", "error", "Memory contradicts the code"),
        ("memval/ambiguous", "AMBIGUOUS", "note", "Memory claim could not be decided"),
    ];
    let mut results = Vec::new();
    for m in &report.memories {
        let path = m.source.rsplit_once(['#']).map(|(p, _)| p).unwrap_or(&m.source);
        let path = match path.rsplit_once(':') {
            Some((p, l)) if l.chars().all(|c| c.is_ascii_digit()) => p,
            _ => path,
        };
        for c in m.claims.iter().filter(|c| c.verdict != "VALID") {
            let Some((id, _, level, _)) = rules.iter().find(|r| r.1 == c.verdict) else { continue };
            let successor = c.successor.as_deref().map(|s| format!(" Successor: {s}.")).unwrap_or_default();
            // A result at every line that makes the claim, so each shows in code review.
            let at: Vec<u32> = if c.source_lines.is_empty() { vec![c.source_line.unwrap_or(1)] } else { c.source_lines.clone() };
            for (k, line) in at.into_iter().enumerate() {
                // The first line keeps the fingerprint a claim has always had.
                let print = if k == 0 {
                    format!("{}|{}|{}", m.id, c.claim_type, c.claim_text)
                } else {
                    format!("{}|{}|{}|{line}", m.id, c.claim_type, c.claim_text)
                };
                results.push(json!({
                    "ruleId": id,
                    "level": level,
                    "message": {"text": format!("{} ({} {}%): {}.{successor} Evidence: {}", c.claim_text, c.verdict, c.confidence, m.id, c.evidence)},
                    "locations": [{
                        "physicalLocation": {
                            "artifactLocation": {"uri": relative(path)},
                            "region": {"startLine": line.max(1)}
                        }
                    }],
                    "partialFingerprints": {"memvalClaim/v1": print},
                    "properties": {"confidence": c.confidence, "claim_type": c.claim_type, "memory_id": m.id, "successor": c.successor}
                }));
            }
        }
    }
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "memval",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|(id, _, level, text)| json!({
                    "id": id,
                    "shortDescription": {"text": text},
                    "defaultConfiguration": {"level": level}
                })).collect::<Vec<_>>()
            }},
            "automationDetails": {"id": format!("memval/{}", report.run.id)},
            "results": results
        }]
    });
    memval_proto::display::json_safe(&(serde_json::to_string_pretty(&doc).expect("sarif serialises") + "\n"))
}
