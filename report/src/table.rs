//! The terminal view: each memory, one row per finding (verdict, confidence, the claim, and the
//! evidence or successor; a claim folded into another's row, `fold.rs`, on a line of its own
//! under that row), the claims not checked under the memory they come from, then the totals.
//! Every field from a memory, the repository or a model is shown through [`one_line`], so no
//! text can add a row.
//!
//! Sizing, the contract: given a width (the terminal's), no line is longer than it, as long as
//! it leaves the claim ten columns. The claim and the evidence share what the verdict and
//! confidence leave: each as wide as its widest entry when both fit; else, with 90 columns or
//! more for the two, side by side with the claim given at least half; else the evidence goes on
//! lines of its own under the claim. Text longer than its column wraps onto further lines
//! (`wrap.rs`), so no path, symbol, line number or value is ever cut off. Without a width (a
//! pipe, a file), columns are as wide as their content and nothing wraps. No line ends in a
//! space.

use memval_proto::display::one_line;

use crate::findings::{also_read_as, claims_counted, counted, folded_under};
use crate::model::{gate_summary, llm_summary};
use crate::wrap::{paragraph, row, width as columns, Cell};
use crate::Report;

/// Indent of a claim row; `VERDICT` padded to 12, a space, the confidence right-aligned in 3.
const ROW_INDENT: usize = 4;
const VERDICT_CELL: usize = 16;
/// Indent of a not-checked row, under its memory's line.
const NOT_CHECKED_INDENT: usize = 6;
/// Room for the claim and its evidence together below which the evidence goes under the claim:
/// narrower columns side by side would wrap most rows into many short lines.
const SIDE_BY_SIDE: usize = 90;

/// The report as a table for a person; `width` is the terminal's, `None` when the output is
/// not a terminal (see the module doc).
pub fn to_table(report: &Report, width: Option<usize>) -> String {
    let mut out: Vec<String> = Vec::new();
    let claims: Vec<(String, String)> = report
        .memories
        .iter()
        .flat_map(|m| m.claims.iter())
        .filter(|c| c.folded_into.is_none())
        .map(|c| {
            let detail = match (&c.successor, &c.since) {
                (Some(s), Some(since)) => format!("→ {s} (since {})", since.short()),
                (Some(s), None) => format!("→ {s}"),
                (None, Some(since)) => format!("since {}: {}", since.short(), c.evidence),
                (None, None) => c.evidence.clone(),
            };
            (one_line(&c.claim_text), one_line(&detail))
        })
        .collect();
    let layout = Layout::new(&claims, width.map(|w| w.saturating_sub(ROW_INDENT + VERDICT_CELL + 2)));
    let mut claims = claims.iter();
    for m in &report.memories {
        let score = m.score.map_or("-".to_owned(), |s| s.to_string());
        let head = format!(
            "{}  [{}]  score {score}  {}",
            one_line(&m.source),
            one_line(&m.agent),
            m.action.unwrap_or("not scored")
        );
        out.extend(paragraph(&head, width, 0, ROW_INDENT));
        if m.claims.is_empty() {
            let why = m.skip_reason.as_deref().unwrap_or("no claim could be checked without an LLM");
            out.extend(paragraph(&format!("({})", one_line(why)), width, ROW_INDENT, ROW_INDENT + 1));
        }
        for (c, folded) in m.claims.iter().zip(folded_under(m)) {
            if c.folded_into.is_some() {
                continue;
            }
            let (text, detail) = claims.next().expect("one entry per row");
            let verdict = format!("{:<12} {:>3}", c.verdict, c.confidence);
            out.extend(layout.row(ROW_INDENT, Some(&verdict), text, detail));
            // A second reading of the row's sentence, under the claim, from the claim's column.
            let column = ROW_INDENT + VERDICT_CELL + 2;
            for other in folded {
                out.extend(paragraph(&one_line(&also_read_as(other)), width, column, column + 2));
            }
        }
    }
    if !report.not_checked.is_empty() {
        out.push(String::new());
        out.push(format!("not checked ({}):", report.not_checked.len()));
        let rows: Vec<(String, String)> =
            report.not_checked.iter().map(|n| (one_line(&n.claim_text), one_line(&n.reason))).collect();
        let layout = Layout::new(&rows, width.map(|w| w.saturating_sub(NOT_CHECKED_INDENT)));
        let mut source = None;
        for (n, (text, reason)) in report.not_checked.iter().zip(&rows) {
            if source != Some(&n.source) {
                out.extend(paragraph(&one_line(&n.source), width, ROW_INDENT, NOT_CHECKED_INDENT));
                source = Some(&n.source);
            }
            out.extend(layout.row(NOT_CHECKED_INDENT, None, text, reason));
        }
    }
    if !report.problems.is_empty() {
        out.push(String::new());
        out.push(format!("unreadable inputs ({}):", report.problems.len()));
        for p in &report.problems {
            let line = format!("{}: {}", one_line(&p.path), one_line(&p.reason));
            out.extend(paragraph(&line, width, ROW_INDENT, ROW_INDENT + 4));
        }
    }
    let v = &report.run.verdicts;
    let totals = format!(
        "{}, {}: {} valid, {} stale, {} contradicted, {} ambiguous, {} not checked",
        counted(report.run.memories, "memory", "memories"),
        claims_counted(report),
        v["VALID"],
        v["STALE"],
        v["CONTRADICTED"],
        v["AMBIGUOUS"],
        report.run.not_checked
    );
    out.push(String::new());
    out.extend(paragraph(&totals, width, 0, 2));
    if let Some(line) = gate_summary(report) {
        out.extend(paragraph(&line, width, 0, 2));
    }
    if let Some(line) = llm_summary(report) {
        out.extend(paragraph(&one_line(&line), width, 0, 2));
    }
    let mut text = out.join("\n");
    text.push('\n');
    memval_proto::display::terminal_safe(&text)
}

/// How a block's two text columns (a claim, then its evidence or reason) share the room.
enum Layout {
    /// Side by side: the claim column's width and the detail's (`None`: not wrapped).
    Columns { claim: usize, detail: Option<usize> },
    /// The claim on the row, wrapped to `width`; the detail on lines under it, wrapped to the
    /// same width, from the claim's column (two further in, without a verdict to tell them
    /// apart).
    Stacked { width: usize },
}

impl Layout {
    /// `room` is what the row leaves for the two columns and the gap between them (`None`: no
    /// terminal, no limit).
    fn new(rows: &[(String, String)], room: Option<usize>) -> Layout {
        let claim_max = rows.iter().map(|(c, _)| columns(c)).max().unwrap_or(0);
        let detail_max = rows.iter().map(|(_, d)| columns(d)).max().unwrap_or(0);
        match room {
            None => Layout::Columns { claim: claim_max, detail: None },
            Some(room) if claim_max + 2 + detail_max <= room => Layout::Columns { claim: claim_max, detail: None },
            Some(room) if room >= SIDE_BY_SIDE => {
                let room = room - 2;
                let claim = claim_max.min((room / 2).max(room.saturating_sub(detail_max)));
                Layout::Columns { claim, detail: Some(room - claim) }
            }
            Some(room) => Layout::Stacked { width: room.max(10) },
        }
    }

    /// The lines of one row: `lead` (the verdict cell) when there is one, then the claim and
    /// its detail.
    fn row(&self, indent: usize, lead: Option<&str>, claim: &str, detail: &str) -> Vec<String> {
        let mut cells: Vec<Cell<'_>> = lead.map(|text| Cell { text, width: Some(VERDICT_CELL) }).into_iter().collect();
        match *self {
            Layout::Columns { claim: width, detail: detail_width } => {
                cells.push(Cell { text: claim, width: Some(width) });
                cells.push(Cell { text: detail, width: detail_width });
                row(indent, &cells)
            }
            Layout::Stacked { width } => {
                cells.push(Cell { text: claim, width: Some(width) });
                let mut lines = row(indent, &cells);
                if !detail.is_empty() {
                    let column = indent + lead.map_or(0, |_| VERDICT_CELL + 2);
                    let at = column + if lead.is_none() { 2 } else { 0 };
                    lines.extend(paragraph(detail, Some(column + width), at, at));
                }
                lines
            }
        }
    }
}
