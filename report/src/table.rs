//! The terminal view: one line per claim, cut to fit, then the totals. Every field from a
//! memory, the repository or a model is shown through [`one_line`], so no text can add a row.

use std::fmt::Write as _;

use memval_proto::display::one_line;

use crate::model::llm_summary;
use crate::Report;

fn cell(s: &str, width: usize) -> String {
    let s = one_line(s);
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
        let _ = writeln!(
            out,
            "{}  [{}]  score {score}  {}",
            one_line(&m.source),
            one_line(&m.agent),
            m.action.unwrap_or("not scored")
        );
        if m.claims.is_empty() {
            let why = m.skip_reason.as_deref().unwrap_or("no claim could be checked without an LLM");
            let _ = writeln!(out, "    ({})", one_line(why));
        }
        for c in &m.claims {
            let detail = match (&c.successor, &c.since) {
                (Some(s), Some(since)) => format!("→ {s} (since {})", since.short()),
                (Some(s), None) => format!("→ {s}"),
                (None, Some(since)) => format!("since {}: {}", since.short(), c.evidence),
                (None, None) => c.evidence.clone(),
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
            let _ = writeln!(out, "    {}: {}", one_line(&p.path), one_line(&p.reason));
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
        let _ = writeln!(out, "{}", one_line(&line));
    }
    memval_proto::display::terminal_safe(&out)
}
