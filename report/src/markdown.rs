//! The Markdown view: memories worst first, a table of claims per memory, one row per finding (a
//! claim folded into another's row, `fold.rs`, is named in that row's claim cell). Every field
//! from a memory, the repository or a model goes through [`md_escape`]: a newline in a table
//! cell would end the table (and could start a forged row), so cells are made one line.

use std::fmt::Write as _;

use memval_proto::display::one_line;

use crate::findings::{also_read_as, claims_counted, counted, folded_under};
use crate::model::{gate_summary, llm_summary};
use crate::{MemoryReport, Report};

fn md_escape(s: &str) -> String {
    one_line(s).replace('|', "\\|")
}

pub fn to_markdown(report: &Report) -> String {
    let r = &report.run;
    let mut out = String::new();
    let _ = writeln!(out, "# memval report\n");
    let _ = writeln!(
        out,
        "- repo: `{}`{}",
        md_escape(&r.repo),
        r.commit.as_deref().map(|c| format!(" at `{}`", md_escape(c))).unwrap_or_default()
    );
    let _ = writeln!(out, "- memories: `{}` ({})", md_escape(&r.memories_path), md_escape(&r.memories_format));
    let _ = writeln!(out, "- run: `{}`, {} → {}", md_escape(&r.id), r.started_at, r.finished_at);
    let _ = writeln!(
        out,
        "- {}, {}: **{} valid, {} stale, {} contradicted, {} ambiguous**, {} not checked\n",
        counted(r.memories, "memory", "memories"),
        md_escape(&claims_counted(report)),
        r.verdicts["VALID"],
        r.verdicts["STALE"],
        r.verdicts["CONTRADICTED"],
        r.verdicts["AMBIGUOUS"],
        r.not_checked
    );
    if let Some(line) = gate_summary(report) {
        let _ = writeln!(out, "- {}\n", md_escape(&line));
    }
    if let Some(line) = llm_summary(report) {
        let _ = writeln!(out, "- {}\n", md_escape(&line));
    }
    let mut ranked: Vec<&MemoryReport> = report.memories.iter().collect();
    // Worst first: the lowest score leads; a memory with no score (nothing checked) goes last.
    ranked.sort_by_key(|m| m.score.map_or(i32::MAX, i32::from));
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
        let _ = writeln!(
            out,
            "\n### `{}` ({}, score {})\n",
            md_escape(&m.source),
            md_escape(&m.agent),
            m.score.map_or("-".into(), |s| s.to_string())
        );
        let _ = writeln!(
            out,
            "| line | claim | verdict | confidence | evidence | successor | since |\n|---|---|---|---|---|---|---|"
        );
        for (c, folded) in m.claims.iter().zip(folded_under(m)) {
            if c.folded_into.is_some() {
                continue;
            }
            let mut claim = md_escape(&c.claim_text);
            for other in folded {
                claim.push_str(&format!(" ({})", md_escape(&also_read_as(other))));
            }
            let _ = writeln!(
                out,
                "| {} | {} | **{}** | {} | {} | {} | {} |",
                c.source_line.unwrap_or(c.line),
                claim,
                c.verdict,
                c.confidence,
                md_escape(&c.evidence),
                c.successor.as_deref().map(|s| format!("`{}`", md_escape(s))).unwrap_or_default(),
                c.since.as_ref().map(|s| md_escape(&s.short())).unwrap_or_default()
            );
        }
    }
    if !report.not_checked.is_empty() {
        let _ = writeln!(out, "\n## Not checked\n\nThese claims have no verdict; they are not counted in any score.\n");
        let _ = writeln!(out, "| memory | claim | reason |\n|---|---|---|");
        for n in &report.not_checked {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} |",
                md_escape(&n.source),
                md_escape(&n.claim_text),
                md_escape(&n.reason)
            );
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
