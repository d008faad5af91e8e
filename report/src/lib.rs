//! memval's run report: the model of what a run found ([`build`] from the scorer's memory
//! scores) and its views: the JSON document ([`to_json`], a public contract documented in the
//! README: fields are added, never renamed or removed), the terminal table, Markdown, SARIF
//! 2.1.0, the views of `memval history` ([`history`]) and of `memval dlq list` ([`dlq`]).
//! [`FailOn`] is `--fail-on`, whose threshold decides `run.failed` with `--fail-confidence`
//! ([`FAIL_CONFIDENCE`] by default): the one type the CLI and the MCP server convert to, from a
//! flag or a tool call.
//!
//! Rendering is pure: a report in, a string out. Every string that can hold input text (a
//! memory, a path, evidence quoting a file) is made inert for a terminal here, so no caller
//! has to remember to; this crate must never print, and never read a file.
//!
//! The model (`model.rs`) holds runs, memories, claims with every line that makes them, code refs
//! with the reading the investigator found and the text as written, not-checked claims and unread
//! text, and unreadable inputs. One finding is one row: a behavioural or architectural claim
//! decided on another claim's reference and evidence is linked to it (`fold.rs`, the rule) and
//! shown in its row by the table and Markdown (`findings.rs`, the words), while JSON and SARIF
//! keep every claim and scores count both. Each view is one module (`json`, `table`, `markdown`, `sarif`,
//! `history`, `dlq`). The table is sized to the width the caller gives (a terminal's), wrapping
//! rather than cutting, through the leaf `wrap`; without a width it is as wide as its content. `tests/render.rs` renders one fixture, which carries every verdict and
//! hostile text, to every view (and hostile dead letters to the dead-letter views) and compares it
//! with the golden files in `tests/golden/` (`MEMVAL_UPDATE_GOLDEN=1` rewrites them); it also
//! checks that no table or Markdown view lets a field carrying a forged row add a row or line.

mod fail_on;
mod findings;
mod fold;
mod json;
mod markdown;
mod model;
mod sarif;
mod table;
mod wrap;

pub mod dlq;
pub mod history;

pub use fail_on::{severity, FailOn, UnknownFailOn, FAIL_CONFIDENCE};
pub use json::to_json;
pub use markdown::to_markdown;
pub use model::{
    build, ClaimReport, CodeRefReport, Inputs, MemoryReport, NotChecked, Problem, Report, RunInfo, SinceReport,
};
pub use sarif::to_sarif;
pub use table::to_table;
