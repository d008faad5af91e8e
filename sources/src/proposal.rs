//! A doc that says, at its top, where it stands as a proposal: `Status: proposal · 2026-08-04`,
//! `- Status: design for review`, `**Status:** Implemented`, `status: accepted` in its front
//! matter, or a `## Status` section whose first line is `Accepted`. Design docs, RFCs and
//! decision records written this way describe the code as it was when they were written (their
//! background) and as it was to become (their plan), wherever they are kept; so a doc whose
//! status is one of a proposal's stages is a record of its day, like a changelog, and is not
//! checked against today's code (see `notes::past_record`, which decides by the file's name).
//!
//! Only the stages of a proposal count. A project's own status (`Status: beta`, `stable`,
//! `experimental`, `active`, `deprecated`) says nothing of when the text was true, and a README
//! is never read this way: it describes the project as it is.

/// The stages a proposal goes through, as its status line names them (lower case; the line's
/// value must start with one).
const STAGES: &[&str] = &[
    "proposal",
    "proposed",
    "draft",
    "design",
    "rfc",
    "for review",
    "in review",
    "under review",
    "under discussion",
    "accepted",
    "approved",
    "agreed",
    "decided",
    "implemented",
    "implementing",
    "in progress",
    "planned",
    "superseded",
    "rejected",
    "withdrawn",
    "deferred",
    "postponed",
    "abandoned",
    "done",
    "complete",
    "completed",
    "shipped",
];

/// How many lines from the top (after front matter) a status line may sit at: a title, a
/// metadata block (authors, dates, tickets), never the body.
const HEAD_LINES: usize = 12;

/// Whether `text` (a whole doc) gives a proposal's stage as its status at its top.
pub(crate) fn states_a_proposal(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).peekable();
    // Front matter: `status: accepted` among its keys.
    if lines.peek() == Some(&"---") {
        lines.next();
        for line in lines.by_ref() {
            if line == "---" {
                break;
            }
            if status_value(line).is_some_and(is_stage) {
                return true;
            }
        }
    }
    let head: Vec<&str> = lines.filter(|l| !l.is_empty()).take(HEAD_LINES).collect();
    for (i, line) in head.iter().enumerate() {
        // `## Status` then its first line.
        if let Some(title) = line.strip_prefix('#') {
            if plain(title.trim_start_matches('#')).eq_ignore_ascii_case("status") {
                return head.get(i + 1).is_some_and(|next| !next.starts_with('#') && is_stage(plain(next)));
            }
            if i > 0 && line.starts_with("##") {
                break; // the body has started
            }
            continue;
        }
        if status_value(line).is_some_and(is_stage) {
            return true;
        }
    }
    false
}

/// The value of a `Status: x` line in any of the ways a doc writes one (a list item, a quote,
/// bold or a table row `| Status | x |`), or `None`.
fn status_value(line: &str) -> Option<&str> {
    let line = line.trim_start_matches(['-', '*', '>', '|', ' ']);
    let line = line.trim_start_matches(['*', '_']);
    let rest = line.get(..6).filter(|w| w.eq_ignore_ascii_case("status")).map(|_| &line[6..])?;
    let rest = rest.trim_start_matches(['*', '_']).trim_start();
    let rest = rest.strip_prefix(':').or_else(|| rest.strip_prefix('|'))?;
    Some(plain(rest))
}

/// Text without the Markdown around it (`**`, `` ` ``, `_`, a table's `|`, spaces).
fn plain(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | '`' | '|' | ':'))
}

/// Whether a status value starts with a proposal's stage (`proposal · 2026-08-04`,
/// `Design for review: decision pending`, `✅ Complete`), as a whole word.
fn is_stage(value: &str) -> bool {
    // A mark before the word (`✅ Complete`, `🚧 In progress`) says the same.
    let value = value.trim_start_matches(|c: char| !c.is_alphanumeric()).to_ascii_lowercase();
    STAGES.iter().any(|stage| {
        value.strip_prefix(stage).is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric()))
    })
}

#[cfg(test)]
mod tests {
    use super::states_a_proposal;

    #[test]
    fn a_status_line_of_a_proposal_stage_makes_a_record() {
        let records: &[&str] = &[
            "# Audit payload redaction\n\nStatus: implemented · 2026-08-21 · addresses BYT-1\n\n## Background\n",
            "# Retire the export workflow\n\n- Status: design for review — decision: full purge\n- Owner: x\n",
            "# Token handling\nStatus: proposal · 2026-08-04\n",
            "# RFC 12\n\n**Status:** Accepted\n\n## Context\n",
            "# Cache\n\n**Status**: superseded by RFC 14\n",
            "> Status: Draft\n\n# Title\n",
            "| Field | Value |\n|---|---|\n| Status | Approved |\n| Date | 2025-01-02 |\n",
            "---\ntitle: Queue design\nstatus: accepted\n---\n# Queue design\n",
            "# 7. Use sled for the store\n\nDate: 2025-02-01\n\n## Status\n\nAccepted\n\n## Context\n",
            "# Plan\n\nSTATUS: In Progress\n",
            "# Quiz session consolidation\n**Date**: December 13, 2025\n**Status**: ✅ Complete\n\n## Overview\n",
            "# Fuzzy matching\n\n**Status**: ✅ COMPLETE\n",
        ];
        for text in records {
            assert!(states_a_proposal(text), "{text}");
        }
    }

    #[test]
    fn other_statuses_and_later_lines_do_not() {
        let current: &[&str] = &[
            // a project's own status
            "# Tool\n\nStatus: beta\n",
            "# Tool\n\n**Status:** stable, used in production\n",
            "# Tool\n\nStatus: experimental\n",
            "# Tool\n\nStatus: deprecated, use `x` instead\n",
            // a word that starts like a stage
            "# Tool\n\nStatus: designated maintainers only\n",
            // no status line
            "# Design of the cache\n\nThe cache is a sharded LRU.\n",
            // a status line in the body, after the first section
            "# Guide\n\nIntro.\n\n## Setup\n\nStatus: done\n",
            // a `## Status` section about something else
            "# Ops\n\n## Status\n\nRun `x status` to see the service's health.\n",
            // the word in prose
            "# Notes\n\nThe status of a job is accepted by the API.\n",
        ];
        for text in current {
            assert!(!states_a_proposal(text), "{text}");
        }
    }
}
