//! The reconciliation report (docs/contracts.md §6): the model every finding goes into, and its two
//! renderings, Markdown (the dated file, front matter first) and JSON (`--format json`).
//!
//! Rendering never decides anything: counts in the front matter are computed from the lists
//! they count. Memory text and paths are untrusted: Markdown output escapes what a terminal
//! or a renderer would act on, and JSON is escaped for a terminal.
//!
//! The front matter is exactly docs/contracts.md §6's, with counts computed from the lists.

use std::fmt::Write;

use memval_proto::display::{json_safe, one_line};
use memval_proto::{Judgement, Pair};
use serde::Serialize;

use crate::contradictions::{Kind, Proven};
use crate::empty;
use crate::scan::Origin;

/// The `skill` the front matter names: the report is the seed's `memory-reconcile` report.
pub const SKILL: &str = "memory-reconcile";

#[derive(Debug, Clone, Serialize)]
pub struct FrontMatter {
    pub skill: String,
    pub generated_at: String,
    pub scan_manifest_source: String,
    pub files_scanned: usize,
    pub memory_files_scanned: usize,
    pub doc_files_scanned: usize,
    pub findings_count: usize,
    pub code_path_findings_count: usize,
    pub doc_staleness_findings_count: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct StaleEntry {
    pub file: String,
    pub dec: String,
    pub file_updated_at: String,
    pub dec_updated_at: String,
    pub delta_days: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum DecStatus {
    Active,
    Superseded,
    Missing,
}

#[derive(Debug, Clone, Serialize)]
pub struct DecReference {
    pub file: String,
    pub line: u32,
    pub dec: String,
    pub status: DecStatus,
    /// SUPERSEDED, RETRACTED or OBSOLETE, when superseded.
    pub marker: Option<String>,
    /// The decision's line carrying the marker, verbatim.
    pub marker_text: Option<String>,
    /// Where the decision is recorded (`file:line`), when it is.
    pub decision: Option<String>,
    /// The reference is made by a decision record ("Supersedes DEC-3"): classified like any
    /// other, but a record of a supersession is not drift, so never a finding.
    pub from_decision: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct CandidatePair {
    pub pair: Pair,
    /// The pair judge's answer, when a model judged it.
    pub judgement: Option<Judgement>,
    /// Why it has no judgement (`not judged: no model configured`, a model error, …).
    pub not_judged: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Contradictions {
    /// Proven without a model.
    pub proven: Vec<Proven>,
    /// Keyword candidate pairs, judged or not.
    pub candidates: Vec<CandidatePair>,
    /// The model that judged them, if any.
    pub judged_by: Option<String>,
    /// What candidate generation left out (sampling, cap, resolved pairs).
    pub candidate_notes: Vec<String>,
    /// Judge run notes (fallbacks, cache hits).
    pub judge_notes: Vec<String>,
    /// Memories compared, and their agents (sorted, each once): with fewer than two agents
    /// nothing can be proven or paired, and the report says so.
    pub memories: usize,
    pub agents: Vec<String>,
}

impl Contradictions {
    /// Judged contradictory by the model.
    pub fn judged_contradictory(&self) -> impl Iterator<Item = &CandidatePair> {
        self.candidates
            .iter()
            .filter(|c| c.judgement.as_ref().is_some_and(|j| j.verdict == memval_proto::PairVerdict::Contradictory))
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct NewKnowledge {
    pub description: String,
    pub category: String,
    /// Where it was found (`file:line`, or the file itself).
    pub sources: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MissingFile {
    pub path: String,
    /// `MISSING_FILE` or `UNREADABLE`.
    pub class: String,
    pub reason: String,
    /// The index.md line registering it, when it is a registry entry.
    pub index_line: Option<u32>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CodePathFinding {
    pub file: String,
    pub code_path: String,
    pub commits: u32,
    pub days_stale: i64,
}

#[derive(Debug, Clone, Serialize)]
pub struct DocFinding {
    pub file: String,
    /// `depends_on` or `proximity`.
    pub source: String,
    pub reference: String,
    pub commits: u32,
    pub days_stale: i64,
}

/// A check that could not be made, and why (never silently dropped).
#[derive(Debug, Clone, Serialize)]
pub struct NotChecked {
    pub file: String,
    pub what: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct GitSection<T> {
    /// The whole check was skipped (git not available, not a repository).
    pub skipped: Option<String>,
    pub findings: Vec<T>,
    pub not_checked: Vec<NotChecked>,
    /// Checks git answered (a finding or no commit since): with none and nothing not checked,
    /// the section says there was nothing to check, and why.
    pub checked: usize,
}

impl<T> Default for GitSection<T> {
    fn default() -> Self {
        GitSection { skipped: None, findings: Vec::new(), not_checked: Vec::new(), checked: 0 }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ManifestEntry {
    pub path: String,
    pub origin: Origin,
    pub category: Option<String>,
    pub updated_at: Option<String>,
    pub updated_from: Option<String>,
    pub read: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub front: FrontMatter,
    pub stale_entries: Vec<StaleEntry>,
    pub dec_references: Vec<DecReference>,
    /// Decisions recorded in the files scanned (distinct ids).
    pub decisions_recorded: usize,
    pub contradictions: Contradictions,
    pub new_knowledge: Vec<NewKnowledge>,
    pub missing_files: Vec<MissingFile>,
    pub code_paths: GitSection<CodePathFinding>,
    pub docs: GitSection<DocFinding>,
    /// Memories `memval_sources` could not load (lines, rows, files).
    pub not_loaded: Vec<String>,
    pub manifest: Vec<ManifestEntry>,
    /// Set when the report file was written.
    pub report_path: Option<String>,
}

impl Report {
    /// Superseded references that are findings (made outside decision records).
    pub fn superseded(&self) -> impl Iterator<Item = &DecReference> {
        self.dec_references.iter().filter(|r| r.status == DecStatus::Superseded && !r.from_decision)
    }

    /// Recomputes the front matter counts from the lists.
    pub fn count(&mut self) {
        let contradictions = self.contradictions.proven.len() + self.contradictions.judged_contradictory().count();
        let superseded = self.superseded().count();
        let f = &mut self.front;
        f.code_path_findings_count = self.code_paths.findings.len();
        f.doc_staleness_findings_count = self.docs.findings.len();
        f.findings_count = self.stale_entries.len()
            + superseded
            + contradictions
            + self.new_knowledge.len()
            + self.missing_files.len()
            + f.code_path_findings_count
            + f.doc_staleness_findings_count;
    }
}

/// Markdown table cell: one line (runs of whitespace, line breaks included, become one space;
/// any other line-breaking or active character is escaped by [`one_line`]), pipes escaped.
fn cell(s: &str) -> String {
    one_line(&s.split_whitespace().collect::<Vec<_>>().join(" ")).replace('|', "\\|")
}

fn quote(s: &str) -> String {
    format!("\"{}\"", cell(s).replace('"', "\\\""))
}

/// A YAML double-quoted scalar (JSON's syntax, which YAML reads). serde_json leaves the
/// Unicode line and paragraph separators raw, and some viewers break the front matter's line
/// at them, so they are escaped too.
fn yaml_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default().replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

/// The report file: docs/contracts.md §6 front matter, then the seven sections in order.
pub fn to_markdown(r: &Report) -> String {
    let mut o = String::new();
    let f = &r.front;
    let _ = writeln!(o, "---");
    let _ = writeln!(o, "skill: {}", f.skill);
    let _ = writeln!(o, "generated_at: {}", f.generated_at);
    let _ = writeln!(o, "scan_manifest_source: {}", json_safe(&yaml_str(&f.scan_manifest_source)));
    let _ = writeln!(o, "files_scanned: {}", f.files_scanned);
    let _ = writeln!(o, "memory_files_scanned: {}", f.memory_files_scanned);
    let _ = writeln!(o, "doc_files_scanned: {}", f.doc_files_scanned);
    let _ = writeln!(o, "findings_count: {}", f.findings_count);
    let _ = writeln!(o, "code_path_findings_count: {}", f.code_path_findings_count);
    let _ = writeln!(o, "doc_staleness_findings_count: {}", f.doc_staleness_findings_count);
    let _ = writeln!(o, "---\n");
    let _ = writeln!(o, "# Reconciliation report, {}\n", f.generated_at);
    let _ = writeln!(o, "memval reports drift; it changed no memory, decision or doc.\n");

    let _ = writeln!(o, "## 1. Stale Entries\n");
    if r.stale_entries.is_empty() {
        let cited = r.dec_references.iter().filter(|x| x.status != DecStatus::Missing && !x.from_decision).count();
        let _ = writeln!(o, "{}\n", empty::stale_entries(r.decisions_recorded, cited));
    } else {
        let _ = writeln!(o, "| File | DEC | File updated_at | DEC updated_at | Delta (days) |\n|---|---|---|---|---|");
        for s in &r.stale_entries {
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} |",
                cell(&s.file),
                cell(&s.dec),
                s.file_updated_at,
                s.dec_updated_at,
                s.delta_days
            );
        }
        o.push('\n');
    }

    let _ = writeln!(o, "## 2. Superseded References\n");
    if let Some(why) = empty::dec_references(r.dec_references.len(), f.files_scanned, r.decisions_recorded) {
        let _ = writeln!(o, "{why}\n");
    }
    let count = |s: DecStatus| r.dec_references.iter().filter(|x| x.status == s).count();
    let in_records = count(DecStatus::Superseded) - r.superseded().count();
    let _ = writeln!(
        o,
        "{} DEC references checked: {} ACTIVE, {} SUPERSEDED, {} MISSING (missing decisions are under New Knowledge Candidates).{}\n",
        r.dec_references.len(),
        count(DecStatus::Active),
        count(DecStatus::Superseded),
        count(DecStatus::Missing),
        if in_records > 0 {
            format!(" {in_records} SUPERSEDED reference(s) are made by decision records themselves (recording the supersession), so they are not listed as findings.")
        } else {
            String::new()
        }
    );
    if r.superseded().next().is_some() {
        let _ =
            writeln!(o, "| Source file | Line | DEC | Marker | Marker text | Decision |\n|---|---|---|---|---|---|");
        for s in r.superseded() {
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} | {} |",
                cell(&s.file),
                s.line,
                cell(&s.dec),
                cell(s.marker.as_deref().unwrap_or("")),
                quote(s.marker_text.as_deref().unwrap_or("")),
                cell(s.decision.as_deref().unwrap_or(""))
            );
        }
        o.push('\n');
    }

    let _ = writeln!(o, "## 3. Contradictions\n");
    let c = &r.contradictions;
    if c.proven.is_empty() {
        let _ = writeln!(o, "Proven without a model: {}\n", empty::proven(c.memories, &c.agents));
    } else {
        let _ = writeln!(o, "Proven without a model ({}):\n", c.proven.len());
        let _ = writeln!(
            o,
            "| Kind | Subject | File A (agent) | Quote A | File B (agent) | Quote B |\n|---|---|---|---|---|---|"
        );
        for p in &c.proven {
            let kind = match p.kind {
                Kind::ConfigValue => "config value",
                Kind::Choice => "choice taken / rejected",
            };
            let _ = writeln!(
                o,
                "| {kind} | {} | {} ({}) | {} | {} ({}) | {} |",
                cell(&p.subject),
                cell(&p.a.source),
                cell(&p.a.agent),
                quote(&p.a.quote),
                cell(&p.b.source),
                cell(&p.b.agent),
                quote(&p.b.quote)
            );
        }
        o.push('\n');
    }
    match &c.judged_by {
        _ if c.candidates.is_empty() => {
            let _ = writeln!(o, "Candidate pairs: none ({}).\n", empty::candidates(&c.agents));
        }
        Some(model) => {
            let _ = writeln!(o, "Candidate pairs ({}), judged by {}:\n", c.candidates.len(), cell(model));
        }
        None => {
            let _ = writeln!(
                o,
                "Candidate pairs ({}), not judged: no model configured (pass --llm-* to judge them):\n",
                c.candidates.len()
            );
        }
    }
    if !c.candidates.is_empty() {
        let _ = writeln!(o, "| Score | A (agent:id) | B (agent:id) | Verdict | Confidence | Claim A | Claim B | Rationale |\n|---|---|---|---|---|---|---|---|");
        for p in &c.candidates {
            let (verdict, conf, ca, cb, why) = match (&p.judgement, &p.not_judged) {
                (Some(j), _) => (
                    j.verdict.as_str().to_owned(),
                    j.confidence.to_string(),
                    quote(&j.claim_a),
                    quote(&j.claim_b),
                    cell(&j.rationale),
                ),
                (None, Some(reason)) => (cell(reason), String::new(), String::new(), String::new(), String::new()),
                (None, None) => ("not judged".to_owned(), String::new(), String::new(), String::new(), String::new()),
            };
            let _ = writeln!(
                o,
                "| {:.3} | {}:{} | {}:{} | {verdict} | {conf} | {ca} | {cb} | {why} |",
                p.pair.score,
                cell(&p.pair.agent_a),
                cell(&p.pair.id_a),
                cell(&p.pair.agent_b),
                cell(&p.pair.id_b)
            );
        }
        o.push('\n');
    }
    for n in c.candidate_notes.iter().chain(&c.judge_notes) {
        let _ = writeln!(o, "- {}", cell(n));
    }
    if !c.candidate_notes.is_empty() || !c.judge_notes.is_empty() {
        o.push('\n');
    }

    let _ = writeln!(o, "## 4. New Knowledge Candidates\n");
    if r.new_knowledge.is_empty() {
        let _ = writeln!(o, "None: every referenced decision is recorded and every memory file is registered.\n");
    } else {
        let _ = writeln!(o, "| Candidate | Suggested category | Source |\n|---|---|---|");
        for k in &r.new_knowledge {
            let _ =
                writeln!(o, "| {} | {} | {} |", cell(&k.description), cell(&k.category), cell(&k.sources.join(", ")));
        }
        o.push('\n');
    }

    let _ = writeln!(o, "## 5. Missing Files\n");
    if r.missing_files.is_empty() && r.not_loaded.is_empty() {
        let _ = writeln!(o, "None: every registered file was read.\n");
    } else {
        if !r.missing_files.is_empty() {
            let _ = writeln!(o, "| Path | Error class | Detail |\n|---|---|---|");
            for m in &r.missing_files {
                let at = m.index_line.map(|l| format!(" (index.md line {l})")).unwrap_or_default();
                let _ = writeln!(o, "| {} | {} | {}{at} |", cell(&m.path), m.class, cell(&m.reason));
            }
            o.push('\n');
        }
        for p in &r.not_loaded {
            let _ = writeln!(o, "- not loaded: {}", cell(p));
        }
        if !r.not_loaded.is_empty() {
            o.push('\n');
        }
    }

    let _ = writeln!(o, "## 6. Code-Path Staleness\n");
    git_section(
        &mut o,
        &r.code_paths,
        "Code-path freshness check skipped",
        &empty::code_paths(r.code_paths.checked, r.code_paths.not_checked.len()),
        |o, x| {
            let _ = writeln!(o, "| {} | {} | {} | {} |", cell(&x.file), cell(&x.code_path), x.commits, x.days_stale);
        },
        "| File | code_path | Commits since updated_at | Days stale |\n|---|---|---|---|",
    );

    let _ = writeln!(o, "## 7. Documentation & README Staleness\n");
    if r.front.doc_files_scanned == 0 && r.docs.findings.is_empty() {
        let _ = writeln!(o, "{}\n", empty::NO_DOCS);
    } else {
        git_section(
            &mut o,
            &r.docs,
            "Documentation staleness check skipped",
            &empty::docs(r.front.doc_files_scanned, r.docs.checked),
            |o, x| {
                let _ = writeln!(
                    o,
                    "| {} | {} | {} | {} | {} |",
                    cell(&x.file),
                    x.source,
                    cell(&x.reference),
                    x.commits,
                    x.days_stale
                );
            },
            "| File | Source | Reference | Commits since updated_at | Days stale |\n|---|---|---|---|---|",
        );
    }
    o
}

fn git_section<T>(
    o: &mut String,
    s: &GitSection<T>,
    skipped: &str,
    none: &str,
    row: impl Fn(&mut String, &T),
    header: &str,
) {
    if let Some(why) = &s.skipped {
        let _ = writeln!(o, "{skipped}: {}.\n", cell(why));
        return;
    }
    if s.findings.is_empty() {
        let _ = writeln!(o, "{none}\n");
    } else {
        let _ = writeln!(o, "{header}");
        for x in &s.findings {
            row(o, x);
        }
        o.push('\n');
    }
    if !s.not_checked.is_empty() {
        let _ = writeln!(o, "Not checked:\n");
        for n in &s.not_checked {
            let _ = writeln!(o, "- {}: {}: {}", cell(&n.file), cell(&n.what), cell(&n.reason));
        }
        o.push('\n');
    }
}

/// Every finding as one JSON document (shape in the README).
pub fn to_json(r: &Report) -> String {
    json_safe(&format!("{}\n", serde_json::to_string_pretty(r).unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contradictions::Side;

    /// A report with every section filled, every field from a memory, a file or a model
    /// holding `t`.
    fn report_of(t: &str) -> Report {
        let f = |s: &str| format!("{s}{t}");
        let side = |id: &str| Side { id: f(id), agent: f("claude"), source: f("CLAUDE.md:3"), quote: f("port 8080") };
        let pair = Pair {
            id_a: f("1"),
            agent_a: f("claude"),
            content_a: f("use port 8080"),
            id_b: f("2"),
            agent_b: f("codex"),
            content_b: f("use port 9090"),
            score: 0.5,
            method: "keyword".into(),
        };
        let judgement = Judgement {
            id_a: f("1"),
            id_b: f("2"),
            verdict: memval_proto::PairVerdict::Contradictory,
            claim_a: f("port 8080"),
            claim_b: f("port 9090"),
            confidence: 90,
            rationale: f("different ports"),
            fallback: None,
        };
        let not_checked = vec![NotChecked { file: f("a.md"), what: f("code_path"), reason: f("git failed") }];
        let mut r = Report {
            front: FrontMatter {
                skill: SKILL.into(),
                generated_at: "2026-12-02T00:00:00Z".into(),
                scan_manifest_source: f("index.md"),
                files_scanned: 3,
                memory_files_scanned: 2,
                doc_files_scanned: 1,
                findings_count: 0,
                code_path_findings_count: 0,
                doc_staleness_findings_count: 0,
            },
            stale_entries: vec![StaleEntry {
                file: f("a.md"),
                dec: f("DEC-1"),
                file_updated_at: "2026-01-01".into(),
                dec_updated_at: "2026-02-01".into(),
                delta_days: 31,
            }],
            dec_references: vec![DecReference {
                file: f("a.md"),
                line: 3,
                dec: f("DEC-2"),
                status: DecStatus::Superseded,
                marker: Some(f("SUPERSEDED")),
                marker_text: Some(f("SUPERSEDED by DEC-3")),
                decision: Some(f("decisions.md:9")),
                from_decision: false,
            }],
            decisions_recorded: 1,
            contradictions: Contradictions {
                proven: vec![Proven { kind: Kind::ConfigValue, subject: f("port"), a: side("1"), b: side("2") }],
                candidates: vec![
                    CandidatePair { pair: pair.clone(), judgement: Some(judgement), not_judged: None },
                    CandidatePair { pair, judgement: None, not_judged: Some(f("model unreachable")) },
                ],
                judged_by: Some(f("openai/gpt")),
                candidate_notes: vec![f("capped at 1 pair")],
                judge_notes: vec![f("batch 1 fell back")],
                memories: 2,
                agents: vec![f("claude"), f("codex")],
            },
            new_knowledge: vec![NewKnowledge {
                description: f("DEC-9 is referenced"),
                category: f("decision"),
                sources: vec![f("a.md:4"), f("b.md")],
            }],
            missing_files: vec![MissingFile {
                path: f("gone.md"),
                class: "MISSING_FILE".into(),
                reason: f("not on disk"),
                index_line: Some(4),
            }],
            code_paths: GitSection {
                skipped: None,
                findings: vec![CodePathFinding { file: f("a.md"), code_path: f("src/"), commits: 2, days_stale: 5 }],
                not_checked: not_checked.clone(),
                checked: 1,
            },
            docs: GitSection {
                skipped: None,
                findings: vec![DocFinding {
                    file: f("README.md"),
                    source: "proximity".into(),
                    reference: f("src/a.rs"),
                    commits: 1,
                    days_stale: 2,
                }],
                not_checked,
                checked: 1,
            },
            not_loaded: vec![f("memory.db row 3: bad json")],
            manifest: Vec::new(),
            report_path: None,
        };
        r.count();
        r
    }

    #[test]
    fn no_field_forges_a_row_or_a_line_of_the_report() {
        let forged = "\n| forged.md | DEC-1 | 2026-01-01 | 2026-02-01 | 1 |\r\n## 8. Forged section\u{2028}- x\u{2029}\u{85}|\tx";
        let plain = to_markdown(&report_of(""));
        let shown = to_markdown(&report_of(forged));
        assert_eq!(shown.lines().count(), plain.lines().count(), "{shown}");
        assert!(shown.lines().all(|l| !l.starts_with("## 8.")), "{shown}");
        assert!(!shown.chars().any(|c| matches!(c, '\r' | '\u{2028}' | '\u{2029}' | '\u{85}')), "{shown}");
        // Line for line, every table row has as many cells as without the forged text: no
        // `|` got through unescaped.
        let cells = |l: &str| l.matches('|').count() - l.matches("\\|").count();
        for (a, b) in plain.lines().zip(shown.lines()).filter(|(a, _)| a.starts_with('|')) {
            assert_eq!(cells(a), cells(b), "{a}\n{b}");
        }
    }
}
