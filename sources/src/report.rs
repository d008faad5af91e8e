//! A report of its day: a doc named as a report, an audit or an inventory (by its file name or
//! a `reports/` or `audits/` folder) whose top says when or of which commit it was made
//! (`generated at commit 46914ee…`, `Date: 2025-12-22`). What it lists was true of the code it
//! read then (a broken-link inventory before the repair, an audit of that week's components);
//! it is read as a record of the past, not as statements about today's code. An audit without
//! such a date, or one whose date says when it was last updated, may describe the current
//! state, and is read as any doc.

use crate::dates::dated;

/// How many non-empty lines at the top of a doc may carry its date or commit.
const HEAD_LINES: usize = 12;

/// Whether the doc `id` (its path below the folder walked) with text `text` is a dated report.
pub(crate) fn dated_report(id: &str, text: &str) -> bool {
    named_as_report(id)
        && text.lines().map(str::trim).filter(|l| !l.is_empty()).take(HEAD_LINES).any(|l| dated_line(l) && !kept_up(l))
}

/// A line that dates a doc kept up to date ("Last updated: 2026-03-01", "Reviewed 2026-02"): a
/// living document's, not a report's of one day.
fn kept_up(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    ["updated", "reviewed", "revised", "maintained"].iter().any(|w| lower.contains(w))
}

/// A file name with the word `report`, `audit` or `inventory` in it, or a file in a folder
/// named `reports` or `audits`.
fn named_as_report(id: &str) -> bool {
    let lower = id.to_ascii_lowercase();
    let mut parts: Vec<&str> = lower.split('/').collect();
    let Some(file) = parts.pop() else { return false };
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    stem.split(['-', '_', '.', ' ']).any(|w| matches!(w, "report" | "audit" | "inventory"))
        || parts.iter().any(|f| matches!(*f, "reports" | "audits"))
}

/// A line that carries a full date (`2025-12-22`, also opening a timestamp, `2025-12-22T10:00Z`)
/// or a full commit id (40 hex digits).
fn dated_line(line: &str) -> bool {
    line.split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
        .any(|w| w.get(..10).is_some_and(dated) || (w.len() == 40 && w.bytes().all(|b| b.is_ascii_hexdigit())))
}

#[cfg(test)]
mod tests {
    use super::dated_report;

    #[test]
    fn a_report_that_says_when_it_was_made() {
        let commit = "# Broken-link inventory\n\nThis is the before-repair inventory, generated at commit `46914ee9622652330cfe1c98ac6cad7dc00c2d16`.\n";
        let dated = "# Page header audit\n\n**Date:** 2025-12-22\n\n- `TeamHero.vue`\n";
        let stamped = "# Weekly report\n\nGenerated 2025-12-22T10:00:00Z.\n";
        let undated = "# Home assets audit\n\nThe current state of the home page's images.\n";
        let living = "# Service inventory\n\n_Last updated: 2026-03-01_\n\n- `billing/`\n";
        for (id, text, report) in [
            ("docs/engineering/reports/peripheral-docs-broken-link-inventory.md", commit, true),
            ("frontend/docs/page-header-audit-report.md", dated, true),
            ("docs/reports/weekly.md", dated, true),
            ("docs/reports/weekly-stamped.md", stamped, true),
            // No date or commit at its top: it may describe today.
            ("frontend/docs/home-assets-audit.md", undated, false),
            // Dated as kept up to date: a living document.
            ("docs/service-inventory.md", living, false),
            // A date at the top of a doc not named as a report.
            ("docs/guide.md", dated, false),
            // `reporting` and `auditor` are other words.
            ("docs/reporting-api.md", dated, false),
            ("src/auditor/README.md", dated, false),
        ] {
            assert_eq!(dated_report(id, text), report, "{id}");
        }
    }
}
