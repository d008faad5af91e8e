//! Where a repository keeps its decision records, decided from a file's path alone.
//!
//! A decision record lives in a folder named for decisions, at any depth below the repo root:
//! GAAI's `contexts/memory/decisions/`, and the folders architecture decision records are kept
//! in by convention (`docs/adr/`, `doc/adr/`, `adr/`, `docs/decisions/`,
//! `architecture/decisions/`, `decision-records/`, ...). The rule is the folder's *name*
//! ([`DECISION_DIRS`], compared without case), never a fixed path, so a monorepo's
//! `services/billing/docs/adr/` is found like a root `adr/`. Which files of such a folder hold
//! which decisions is `crate::decisions`' question (a `DEC-…` file name, else `DEC-…`
//! headings); a file of the folder that holds none is simply no record.
//!
//! A record inside a GAAI memory folder (`…/contexts/memory/decisions/`) is memory, as GAAI's
//! registry makes it; any other is documentation.
//!
//! Pure: paths in, answers out. The walk that finds the files (confined to the repo root, no
//! link followed, vendored and generated folders skipped) is `crate::scan`'s.

use std::path::{Component, Path};

/// Names of the folders decision records are kept in.
pub const DECISION_DIRS: &[&str] = &[
    "decisions",
    "decision-records",
    "decision_records",
    "decision-log",
    "adr",
    "adrs",
    "architecture-decisions",
    "architecture-decision-records",
];

/// The folder names of `rel` (a path relative to the repo root), the file's own name left out.
fn folders(rel: &Path) -> Vec<String> {
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().to_ascii_lowercase()),
            _ => None,
        })
        .collect();
    parts.split_last().map(|(_, dirs)| dirs.to_vec()).unwrap_or_default()
}

/// Whether `name` is the name of a folder decision records are kept in.
pub fn is_decision_dir(name: &str) -> bool {
    DECISION_DIRS.iter().any(|d| d.eq_ignore_ascii_case(name))
}

/// Whether the file at `rel` (relative to the repo root) sits in a decision-record folder,
/// directly or deeper.
pub fn in_decision_folder(rel: &Path) -> bool {
    folders(rel).iter().any(|f| is_decision_dir(f))
}

/// Whether the file at `rel` is in a GAAI memory's decisions folder
/// (`…/contexts/memory/decisions/…`): memory, not documentation.
pub fn in_gaai_memory(rel: &Path) -> bool {
    folders(rel).windows(3).any(|w| w[0] == "contexts" && w[1] == "memory" && w[2] == "decisions")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decision_folders_by_name_at_any_depth() {
        for (rel, want) in [
            ("examples/memories/gaai/contexts/memory/decisions/DEC-1.md", true),
            ("docs/adr/0001-record-architecture-decisions.md", true),
            ("doc/adr/0002-use-sqlite.md", true),
            ("adr/DEC-3.md", true),
            ("docs/decisions/DEC-4.md", true),
            ("architecture/decisions/2024/DEC-5.md", true),
            ("services/billing/docs/ADR/DEC-6.md", true),
            ("docs/architecture-decisions/x.md", true),
            // The file's own name is not a folder.
            ("docs/decisions.md", false),
            ("decisions", false),
            ("README.md", false),
            ("docs/guide.md", false),
            ("docs/adrenaline/x.md", false),
        ] {
            assert_eq!(in_decision_folder(Path::new(rel)), want, "{rel}");
        }
    }

    #[test]
    fn gaai_records_are_memory_others_documentation() {
        assert!(in_gaai_memory(Path::new("a/b/contexts/memory/decisions/DEC-1.md")));
        assert!(in_gaai_memory(Path::new("contexts/memory/decisions/old/_log.md")));
        assert!(!in_gaai_memory(Path::new("docs/decisions/DEC-1.md")));
        assert!(!in_gaai_memory(Path::new("contexts/memory/project/x.md")));
        assert!(!in_gaai_memory(Path::new("contexts/memory/decisions")));
    }
}
