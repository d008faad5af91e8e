//! A report of finished work: the write-up an agent or a developer leaves when a task is done
//! (`PHASE1_COMPLETE.md`, `IMPLEMENTATION_SUMMARY.md`, `translation-fixes-summary.md`, "# Page
//! Performance Optimization — After-Action Report"). It tells what was changed then: the files
//! it names as "modified" or "created" and the members it names as "added" were so on that day,
//! and the code has gone on since. Such a doc is a record of its day, like a changelog
//! (`notes::past_record`), a proposal with a status (`proposal.rs`) or a dated report
//! (`report.rs`), and is not checked against today's code.
//!
//! Decided by the doc's name or its title (its first `#` heading), by words no current-state
//! document is named with:
//! - a last word that says the work is done: `MIGRATION_COMPLETE`, `phase-2-completed`
//!   (only the last word: `complete-guide.md` is a guide);
//! - `summary` with a word for a piece of work: `IMPLEMENTATION_SUMMARY`, `fixes-summary`,
//!   `refactor_summary`, "Changes Summary" (a bare `SUMMARY.md` is an mdBook's contents);
//! - `after-action` ("After-Action Report");
//! - `findings` (`pr-1153-review-findings.md`, an investigation's `findings.md`): what was found
//!   in the code of that day;
//! - a pull request's number (`pr-1153-review.md`, `PR1153_NOTES.md`): a write-up of one change;
//! - `report` as the last word, with a word for a piece of work (`provider-migration-phase-report`,
//!   "Refactoring Report"): what was done then;
//! - `plan` as the last word, with a word for a piece of work (`posthog-cms-implementation-plan`,
//!   "Migration Plan"): what the code was before the work and what it was to become, a record of
//!   its day as a proposal is.
//!
//! A README is never read this way: it describes the project as it is.

/// Words that, with `summary`, name a piece of finished work.
const WORK: &[&str] = &[
    "implementation",
    "fix",
    "fixes",
    "bugfix",
    "bugfixes",
    "changes",
    "change",
    "refactor",
    "refactoring",
    "migration",
    "cleanup",
    "work",
    "session",
    "sprint",
    "phase",
    "pr",
    "optimization",
    "optimisation",
    "improvements",
    "upgrade",
];

/// Whether the doc `id` (its path below the folder walked) with text `text` reports work
/// finished on its day.
pub(crate) fn reports_finished_work(id: &str, text: &str) -> bool {
    let file = id.rsplit('/').next().unwrap_or(id).to_ascii_lowercase();
    if file.starts_with("readme") {
        return false;
    }
    let stem = file.rsplit_once('.').map_or(file.as_str(), |(stem, _)| stem);
    named_as_finished(stem) || title(text).is_some_and(|t| named_as_finished(&t.to_ascii_lowercase()))
}

/// The doc's first `#` heading, past any front matter and blank lines (within its first lines).
fn title(text: &str) -> Option<&str> {
    text.lines().take(20).map(str::trim).find_map(|l| l.strip_prefix("# ")).map(str::trim)
}

/// A lower-case name or title in words no current-state document is named with.
fn named_as_finished(name: &str) -> bool {
    let words: Vec<&str> = name.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let done = words.last().is_some_and(|w| matches!(*w, "complete" | "completed"));
    let summary = words.contains(&"summary") && words.iter().any(|w| WORK.contains(w));
    let after_action = name.contains("after-action") || words.windows(2).any(|w| w == ["after", "action"]);
    // What a review or an investigation found in the code of its day (`review-findings`), or a
    // write-up of one pull request (`pr-1153-review`).
    let findings = words.contains(&"findings");
    let pull_request = words.windows(2).any(|w| w[0] == "pr" && w[1].bytes().all(|b| b.is_ascii_digit()))
        || words
            .iter()
            .any(|w| w.strip_prefix("pr").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())));
    // The report or the plan of one piece of work (`migration-phase-report`,
    // `implementation-plan`); a bare `report.md` or `plan.md` may be anything.
    let of_work = |last: &str| words.last() == Some(&last) && words.iter().any(|w| WORK.contains(w));
    done || summary || after_action || findings || pull_request || of_work("report") || of_work("plan")
}

#[cfg(test)]
mod tests {
    use super::reports_finished_work;

    #[test]
    fn write_ups_of_finished_work() {
        let cases = [
            ("docs/AUDIO_PLAYBACK_PHASE1_COMPLETE.md", "# Phase 1 Implementation: Audio Preview\n"),
            ("docs/translation-fixes-summary.md", "# Translation Activity Fixes Summary\n"),
            ("docs/implementation-summary-fuzzy-matching.md", "# Fuzzy Text Matching\n"),
            ("IMPLEMENTATION_SUMMARY.md", "# Summary\n"),
            ("docs/migration-completed.md", "# Migration\n"),
            (
                "docs/learning-resources-perf-optimization.md",
                "# ListLearningResourcesPage Performance Optimization — After-Action Report\n**Date:** 2026-02-09\n",
            ),
            ("docs/notes.md", "---\ntitle: x\n---\n\n# Refactoring Summary\n"),
            ("docs/pr-1153-review-findings.md", "# PR 1153 Review: Sessions V2\n"),
            ("docs/design/auth/findings.md", "# Findings\n"),
            ("notes/PR1153_NOTES.md", "# Notes\n"),
            ("docs/refactoring/provider-migration-phase-report.md", "# Provider移行 - 作業報告書\n"),
            ("docs/posthog-cms-implementation-plan.md", "# PostHog Capture — Implementation Plan\n"),
            ("docs/notes.md", "# Auth Migration Plan\n"),
        ];
        for (id, text) in cases {
            assert!(reports_finished_work(id, text), "{id}");
        }
    }

    #[test]
    fn current_docs_are_not() {
        let cases = [
            ("docs/SUMMARY.md", "# Summary\n\n- [Intro](intro.md)\n"),
            ("docs/complete-guide.md", "# The complete guide\n"),
            ("docs/architecture.md", "# Architecture\n\n## Summary\n"),
            ("docs/code-completion.md", "# Code completion\n"),
            ("README_COMPLETE.md", "# Project\n"),
            ("docs/summary.md", "# Project summary\n"),
            ("docs/definition-of-done.md", "# Definition of done\n"),
            ("docs/spec-shadowing-activity.md", "# Shadowing Activity Specification\n\n### Implemented Features\n"),
            ("docs/pr-guidelines.md", "# Pull requests\n"),
            ("docs/prisma.md", "# Prisma\n"),
            ("docs/report.md", "# Report\n"),
            ("docs/test-plan.md", "# Test plan\n"),
            ("docs/reporting.md", "# Reporting\n"),
        ];
        for (id, text) in cases {
            assert!(!reports_finished_work(id, text), "{id}");
        }
    }
}
