//! A document that disowns itself at its top: "FIXME: This functionality is not available yet,
//! ignore this document.", "> **Deprecated:** ...", "This guide is outdated", or says it is kept
//! as a record of work done: "This document is a historical record", "This page is now the
//! **audit trail**, not a plan", "This page is kept as the record of what was done", a callout
//! heading "> ## ✅ Executed. Steps 0–8 are all complete.", or an index whose links are: "the
//! link text is kept as a historical record of the original audit". Its author tells the reader not to
//! take it as true of today's code, so memval does not either: the memory is skipped with the
//! line that says so. A doc *about* an audit trail ("The service writes an audit trail to
//! ...") speaks of no record of its own. Only the opening counts (the lines before the second
//! heading, a status note's own heading, `## Status`, aside; at most [`OPENING_LINES`]): a
//! sentence deep in a page ("ignore this file when ...") is about something else.

use std::sync::LazyLock;

use regex::Regex;

/// How many lines from the top are the opening a banner sits in.
const OPENING_LINES: usize = 15;

static DISOWNS: LazyLock<Regex> = LazyLock::new(|| {
    let this = r"(?:(?:this|the\s+following)\s+(?:document(?:ation)?|doc|page|file|guide|readme|article|tutorial)|the\s+link\s+text)";
    let not_current = r"(?:now\s+)?(?:outdated|obsolete|deprecated|archived|superseded|out\s+of\s+date|not\s+maintained|unmaintained|no\s+longer\s+(?:maintained|accurate|current|relevant|valid|up[- ]to[- ]date|applies))";
    // Kept as a record of work done: a historical record, an audit trail, the record of it.
    let record = r"(?:now\s+)?(?:kept\s+as\s+)?(?:a|an|the)\s+(?:historical\s+record|audit\s+trail|record\s+of)";
    Regex::new(&format!(
        r"(?i)\b(?:ignore|disregard)\s+{this}(?:[\s.,;:!)*_]|$)|\b{this}\s+(?:is|has\s+been)\s+{not_current}\b|\b{this}\s+is\s+{record}\b|\bread\s+it\s+as\s+a\s+record\b|^[\s>*_#\[!]*(?:deprecated|obsolete|outdated|archived)\b[\s*_\]]*[:!.]|^[\s>]*#{{2,4}}\s*✅\s*(?:done|executed|complete|completed)\b"
    ))
    .expect("valid regex")
});

/// The line (1-based) of the memory's opening that disowns it, and its text.
pub(crate) fn disowned(content: &str) -> Option<(u32, String)> {
    let mut headings = 0;
    let mut fence = false;
    for (i, line) in content.lines().take(OPENING_LINES).enumerate() {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        // A status note under its own heading right after the title is still the opening.
        if t.starts_with('#') && !status_heading(t) {
            headings += 1;
            if headings > 1 {
                return None;
            }
        }
        // Emphasis does not change what a line says (`This page is now the **audit trail**`).
        if DISOWNS.is_match(&t.replace(['*', '_'], "")) {
            return Some((u32::try_from(i + 1).unwrap_or(u32::MAX), t.chars().take(160).collect()));
        }
    }
    None
}

/// A heading that only gives the document's status (`## Status (2026-05-24 cleanup)`,
/// `## Note`).
fn status_heading(line: &str) -> bool {
    let title = line.trim_start_matches('#').trim().to_ascii_lowercase();
    ["status", "note", "notice"]
        .iter()
        .any(|w| title == *w || title.starts_with(&format!("{w} ")) || title.starts_with(&format!("{w}:")))
}

#[cfg(test)]
mod tests {
    use super::disowned;

    #[test]
    fn a_document_that_tells_its_reader_to_ignore_it() {
        let cases: [(&str, Option<u32>); 18] = [
            // Kept as a record of work done.
            ("# Porting\n\n> ## 📕 This document is a historical record — read it for *why*\n", Some(3)),
            ("# Cutover plan\n\n> This page is now the **audit trail**, not a plan.\n", Some(3)),
            ("# Runbook\n\n> ## ✅ Executed. Steps 0–8 are all complete.\n", Some(3)),
            ("# Runbook\n\nThis page is kept as the record of what was done.\n", Some(3)),
            // About an audit trail, not one; a feature list's tick is no callout heading.
            ("# Audit logging\n\nThe service writes an audit trail to `audit/`.\n", None),
            ("# Features\n\n- ✅ Done: sharding in `src/shard.rs`\n", None),
            ("# Fast setup\n\nFIXME: NOTE: **This functionality is not available yet, ignore this document.**\n\nUse `ci-fast.yml`.", Some(3)),
            ("> **Deprecated:** see `docs/new.md`.\n\n# Old API\n", Some(1)),
            ("# Guide\n\n> [!WARNING]\n> This guide is outdated; the build moved to Bazel.\n", Some(4)),
            ("# Notes\n\nThis document is no longer maintained.\n", Some(3)),
            ("**OBSOLETE**: kept for reference.\n", Some(1)),
            // An index whose status note says its links are kept as a record of a past audit.
            ("# Audit index\n\n## Status (2026-05-24 cleanup)\n\nMost links point at deleted files; the link text is kept as a historical record of the audit.\n", Some(5)),
            // A second heading that is no status note ends the opening.
            ("# A\n\n## Setup\n\nThe link text is kept as a historical record.\n", None),
            // Not the opening: a second heading came first.
            ("# A\n\n## B\n\nIgnore this document when running locally.\n", None),
            // Words about other things.
            ("# Cache\n\nDeprecated APIs live in `src/old.rs`.\n", None),
            ("# Cache\n\nThe outdated entries are evicted by `evict()`.\n", None),
            ("# Build\n\n```\n# deprecated: old flag\n```\n", None),
            ("# Tests\n\nRun `make test`; ignore this file's warnings.\n", None),
        ];
        for (text, line) in cases {
            assert_eq!(disowned(text).map(|(l, _)| l), line, "{text:?}");
        }
    }
}
