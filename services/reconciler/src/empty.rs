//! Why a section of the reconciliation report is empty, and what would change it.
//!
//! "Nothing found" is only useful when it says whether there was nothing to find or nothing
//! to look at: no decision record, one agent's memories only, no model, no declared code
//! path, no doc. Each function here takes the counts the report holds (never the disk) and
//! returns the sentence its section prints when it has no finding, naming the input or flag
//! (`--repo`, `--memories`, `--llm-*`, `depends_on.code_paths`) that would give it something
//! to check. Pure and a leaf: counts in, a sentence out; `crate::report` calls it, and the
//! rendered sections are tested in `tests/empty_sections.rs`.

use memval_proto::display::one_line;

/// Where decision records are looked for, as the report tells it.
pub const WHERE_DECISIONS: &str =
    "decision records are read from `DEC-….md` files and `DEC-…` headings in a decisions \
folder anywhere under --repo (a GAAI `contexts/memory/decisions/`, `docs/adr/`, `adr/`, `docs/decisions/`, \
`architecture/decisions/`, …) and from the memories given with --memories";

/// Section 7 when no doc was scanned.
pub const NO_DOCS: &str =
    "No documentation or README file was scanned: none under --repo matches `**/docs/**/*.md` or \
`**/README.md` outside vendored and generated folders, so no doc was checked against the code near it.";

/// Section 1 without a stale entry: `recorded` decisions, `cited` references to them made
/// outside decision records.
pub fn stale_entries(recorded: usize, cited: usize) -> String {
    if recorded == 0 {
        return format!("No decision record was found, so no file can be older than one: {WHERE_DECISIONS}.");
    }
    if cited == 0 {
        return format!(
            "No file is older than a decision it references: {recorded} decision(s) recorded, but no file other than a \
decision record references one."
        );
    }
    format!("No file is older than a decision it references ({cited} reference(s) to {recorded} recorded decision(s) checked).")
}

/// Section 2's opening when `references` is 0 (`None` otherwise: the section's counts say
/// it), of `files` scanned and `recorded` decisions.
pub fn dec_references(references: usize, files: usize, recorded: usize) -> Option<String> {
    if references > 0 {
        return None;
    }
    let records = if recorded == 0 {
        format!(" No decision record was found either: {WHERE_DECISIONS}.")
    } else {
        format!(" {recorded} decision(s) are recorded, and nothing cites them.")
    };
    Some(format!("No `DEC-…` reference in the {files} file(s) scanned, so there is nothing to classify.{records}"))
}

/// Section 3's "proven without a model" when nothing was proven, of `memories` by `agents`.
pub fn proven(memories: usize, agents: &[String]) -> String {
    match agents {
        [] => "none: no memory was read from --memories, so there is nothing to compare.".into(),
        [only] => format!(
            "none: all {memories} memories belong to one agent ({}), and a contradiction is only proven between two \
agents' memories; pass another agent's memories as well (another --memories, or a folder holding two tools' notes \
files).",
            one_line(only)
        ),
        agents => format!(
            "none: no configuration key has two values, and no choice taken by one agent is rejected by another, among \
the {memories} memories of {} agents.",
            agents.len()
        ),
    }
}

/// Section 3's candidate pairs when there is none (the candidate notes under it give the
/// method's numbers).
pub fn candidates(agents: &[String]) -> String {
    match agents {
        [] => "no memory was read from --memories".into(),
        [only] => format!(
            "all memories belong to one agent ({}); pairs are only made between two agents' memories, so pass another \
agent's memories as well",
            one_line(only)
        ),
        _ => "no pair of two agents' memories reached the method's threshold; the notes below say which".into(),
    }
}

/// Section 6 without a finding: `checked` code paths git answered for, `not_checked` it
/// could not.
pub fn code_paths(checked: usize, not_checked: usize) -> String {
    if checked == 0 && not_checked == 0 {
        return "No memory file declares `depends_on.code_paths` in its front matter, so no code path was checked; declare \
the code a memory describes there to have it checked."
            .into();
    }
    format!("No declared code path changed since its file's updated_at ({checked} checked).")
}

/// Section 7 without a finding, when `docs` docs were scanned and `checked` checks made.
pub fn docs(docs: usize, checked: usize) -> String {
    format!("No documentation file is older than the code near it ({docs} doc(s) scanned, {checked} check(s) made).")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_empty_section_names_what_would_change_it() {
        assert!(stale_entries(0, 0).contains("No decision record was found") && stale_entries(0, 0).contains("--repo"));
        assert!(stale_entries(2, 0).contains("2 decision(s) recorded, but no file"));
        assert!(stale_entries(2, 3).contains("(3 reference(s) to 2 recorded decision(s) checked)"));
        assert_eq!(dec_references(1, 4, 0), None);
        assert!(dec_references(0, 4, 0).unwrap().contains("No decision record was found either"));
        assert!(proven(3, &["docs".into()]).contains("all 3 memories belong to one agent (docs)"));
        assert!(proven(3, &["docs".into()]).contains("another --memories"));
        assert!(proven(0, &[]).contains("no memory was read from --memories"));
        assert!(candidates(&["a".into(), "b".into()]).contains("threshold"));
        assert!(code_paths(0, 0).contains("`depends_on.code_paths`"));
        assert!(code_paths(0, 1).contains("(0 checked)"));
        assert!(docs(4, 2).contains("(4 doc(s) scanned, 2 check(s) made)"));
    }
}
