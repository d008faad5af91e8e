//! The notes of one piece of work, named as such: its plan (`plan.md`,
//! `help-viewer-rewrite-plan.md`), its research and findings (`research.md`,
//! `derisk-findings.md`, `cr.findings.md`), a spike, an investigation, a gap analysis, an
//! assessment, a handoff. They are written while the work is under way: they say what the code
//! was when someone read it (research, findings) and what it was to become (a plan), and the
//! work moves the code on from both. So such a doc is a record of its day, like a proposal
//! (`proposal.rs`) or a dated report (`report.rs`), and is not checked against today's code.
//!
//! Only the name decides, and only names no current-state doc takes: `design.md`,
//! `architecture.md`, `status.md` or `notes.md` describe the code as it is as often as not, so
//! they are read as any doc (a design doc kept as built, like an engine's `MoE_EP_impl.md`,
//! stays checked). A README is never a work note.

/// Names of a piece of work's notes. Each counts as the whole name, or as its last part
/// (`routes-consolidation-plan`, `runner-spike`).
const WORK: &[&str] = &[
    "plan",
    "research",
    "findings",
    "spike",
    "investigation",
    "gap-analysis",
    "assessment",
    "handoff",
    "exploration",
    "brainstorm",
    "retrospective",
];

/// Of [`WORK`], the names that also count as a name's first part (`findings.old`,
/// `gap-analysis-testset`, `spike-runner`). `plan` and `research` do not: `plan-your-deployment`
/// and `research-directions` are guides.
const LEADING: &[&str] = &["findings", "spike", "investigation", "gap-analysis", "assessment", "handoff"];

/// Whether the doc `id` (its path below the folder walked) is named as a piece of work's notes.
pub(crate) fn work_notes(id: &str) -> bool {
    let file = id.rsplit('/').next().unwrap_or(id).to_ascii_lowercase();
    if file.starts_with("readme") {
        return false;
    }
    let stem = file.rsplit_once('.').map_or(file.as_str(), |(stem, _)| stem);
    let sep = |c: Option<char>| matches!(c, Some('-' | '_' | '.'));
    let last = |name: &str| stem.strip_suffix(name).is_some_and(|rest| sep(rest.chars().last()));
    let first = |name: &str| stem.strip_prefix(name).is_some_and(|rest| sep(rest.chars().next()));
    WORK.iter()
        .any(|name| stem == *name || stem == name.replace('-', "_") || last(name) || last(&name.replace('-', "_")))
        || LEADING.iter().any(|name| first(name) || first(&name.replace('-', "_")))
}

#[cfg(test)]
mod tests {
    use super::work_notes;

    #[test]
    fn a_piece_of_works_notes_by_their_names() {
        for id in [
            "docs/design/ai-actions/plan.md",
            "docs/design/ai-actions/research.md",
            "docs/development/help-viewer-rewrite-plan.md",
            "docs/routes-consolidation-plan.md",
            "docs/design/x/cr.findings.md",
            "docs/design/x/findings.old.md",
            "docs/design/x/derisk-findings.md",
            "docs/design/x/runner-spike.md",
            "docs/overview-scroll-stutter-investigation.md",
            "docs/design/x/gap-analysis-testset.md",
            "docs/design/x/route-gap-analysis.md",
            "docs/design/x/route_gap_analysis.md",
            "docs/design/x/handoff.md",
            "docs/design/x/assessment-a-oss-multi-org.md",
            "PLAN.md",
        ] {
            assert!(work_notes(id), "{id} is a piece of work's notes");
        }
    }

    #[test]
    fn current_docs_and_guides_are_not() {
        for id in [
            "docs/design/x/design.md",
            "docs/design/x/status.md",
            "docs/architecture.md",
            "docs/design_docs/MoE_EP_impl.md",
            "docs/plan-your-deployment.md",
            "docs/research-directions.md",
            "docs/planning.md",
            "docs/floorplan.md",
            "docs/explanation.md",
            "research/README.md",
            "docs/plans-overview/README.md",
            "docs/researcher.md",
        ] {
            assert!(!work_notes(id), "{id} is read as any doc");
        }
    }
}
