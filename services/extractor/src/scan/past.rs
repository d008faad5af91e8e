//! Sections that record the past inside a current document: a README's "Changelog", a guide's
//! "Breaking changes", "Removed methods from `EntityRepository`", "Migrating from v5", a
//! "Decision log", "Codex reviews" or "Review threads", a plan's "What gets deleted" or "Files
//! to delete", a pull request's review ("PR 1153 Review: ..."), a heading that carries its day
//! ("Cross-check (2026-06-01)"). What
//! such a section names was true then, or is named because it is gone: "`removeAndFlush()`"
//! under "Removed methods" claims nothing exists. A whole file of that kind is skipped before
//! the walk (`sources::notes`, `HISTORY_KIND`); this is the same rule for one section.
//!
//! The section runs from its heading to the next heading of the same or a higher level (its
//! sub-headings, such as a changelog's versions, are inside it). Nothing in it is read, and
//! its lines are reported as not read, with the heading, so nothing is skipped silently.

use std::sync::LazyLock;

use regex::Regex;

use super::walker::{PastSection, Walker};

/// A heading that opens a record of the past. Plain "Migrations" or "Upgrading" (a feature, a
/// how-to) and "Deprecated" (still there) are not: only the words that say a change happened
/// or a list of what went away.
static PAST_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^[^a-z0-9]*(?:
            change\s?log\b | release\s+(?:notes|history) | version\s+history
          | breaking\s+changes? | what'?s\s+changed
          | (?:removed|deleted|dropped|renamed|removals)\b
          | what\s+(?:gets|got|is|was|will\s+be)\s+(?:deleted|removed|dropped)\b
          | (?:files?|code|modules?|functions?|paths?)\s+to\s+(?:be\s+)?(?:delete|deleted|remove|removed)\b
          | (?:pr|pull\s+request|mr)\s*\#?\d+\s+review\b
          | migrat(?:ing|ion)\s+(?:from|to|guide)\b | migration\s+notes
          | upgrad(?:ing|e)\s+(?:from|to|guide|notes)\b
          | decision\s+log\b
          | (?:[\w\#.-]+\s+){0,3}(?:reviews | review\s+(?:threads|notes|comments|findings|log))\b
        )",
    )
    .expect("valid regex")
});

/// A heading that carries the day it records (`Cross-check (2026-06-01)`, `Decision log — May
/// 31, 2026`): what it holds was true that day.
static DATED_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d\b",
    )
    .expect("valid regex")
});

/// Words of a heading about how to keep such a record, not the record itself ("Changelog
/// guidelines", "Updating the changelog", "Release notes format").
static ABOUT_THE_RECORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:guidelines?|conventions?|policy|rules|format|entries|how\s+to|writing|updating)\b")
        .expect("valid regex")
});

/// Whether a heading's title opens a record of the past. "Changelogs" (plural) and "Changelog
/// guidelines" are instructions about records, read as any other section.
pub(super) fn is_past_heading(title: &str) -> bool {
    let title = title.trim();
    (PAST_HEADING.is_match(title) || DATED_HEADING.is_match(title))
        && !ABOUT_THE_RECORD.is_match(title)
        && !THE_PRACTICE.is_match(title)
}

/// Reviews as a practice, not a log of them: "Pull request reviews", "Code reviews", "PR
/// reviews" (how to review, what a reviewer checks), and how to answer them ("Handling PR
/// review comments", "Reply to review comments"), where "Codex reviews" or "Review threads"
/// hold what reviewers said.
static THE_PRACTICE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:pull\s+request|pr|code|peer|design)\s+reviews\b\s*[^\w\s#]*\s*$|^[^a-z0-9]*(?:handling|handle|reply(?:ing)?\s+to|respond(?:ing)?\s+to|address(?:ing)?|resolv(?:e|ing))\b",
    )
    .expect("valid regex")
});

impl Walker {
    /// A heading at `level` on `line_no`: closes an open past section it is not inside, and
    /// opens one if its title records the past. Returns whether the walk is now inside one.
    pub(super) fn past_heading(&mut self, level: usize, title: &str, line_no: u32) -> bool {
        if self.past.as_ref().is_some_and(|p| level <= p.level) {
            self.end_past(line_no.saturating_sub(1));
        }
        if self.past.is_none() && is_past_heading(title) && !self.record_rules.contains(&line_no) {
            let title = crate::mentions::clean_text(title);
            self.past = Some(PastSection { level, from: line_no, title });
        }
        self.past.is_some()
    }

    /// Closes the open past section at `last` (its last line), reporting its lines as not read.
    pub(super) fn end_past(&mut self, last: u32) {
        if let Some(p) = self.past.take() {
            self.doc.past_sections.push((p.from, last.max(p.from), p.title));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_past_heading;

    #[test]
    fn headings_that_record_the_past() {
        for title in [
            "Changelog",
            "CHANGELOG",
            "Change log",
            "Release notes",
            "📝 Release History",
            "Breaking changes in v6",
            "Removed methods from `EntityRepository` interface",
            "Renamed options",
            "Migrating from v5 to v6",
            "Migration guide",
            "Upgrading to 3.0",
            "What's changed",
            "Decision Log — May 31, 2026 working slice",
            "Legacy-vs-unified kernel equivalence (cross-check, 2026-06-01)",
            "Sync notes, Sept 3, 2025",
            "10. Codex Reviews",
            "PR #3093 Review Threads — Reviewer Pass 2",
            "What Gets Deleted",
            "Files to delete",
            "Code to be removed",
            "PR 1153 Review: Sessions V2 & Trace IDs",
        ] {
            assert!(is_past_heading(title), "{title}");
        }
        for title in [
            "Migrations",
            "Running migrations",
            "Upgrading",
            "Deprecated options",
            "History",
            "Recent changes",
            "Making changes",
            "Removing a package",
            "Project structure",
            "Changelogs",
            "Changelog guidelines",
            "Release notes format",
            "Roadmap for 2026",
            "Support until May 2027",
            "Decision making",
            "Code review",
            "Reviewing pull requests",
            "Review guidelines",
            "Pull request reviews",
            "Code reviews",
            "PR reviews:",
            "Handling PR Review Comments",
            "Reply to PR review comments (addressing feedback)",
            "How to remove a plugin",
            "What gets installed",
            "PR review checklist",
        ] {
            assert!(!is_past_heading(title), "{title}");
        }
    }
}
