//! Without history: an agent tool's notes file gone where an `AGENTS.md` now stands beside it.
//!
//! Projects that kept notes for one agent tool (`CLAUDE.md`, `GEMINI.md`, `AGENT.md`,
//! `.cursorrules`, `.github/copilot-instructions.md`) rename them to `AGENTS.md`, the name the
//! tools now share. With history, git says so; from the tree alone, a missing notes file of one
//! of those names whose folder (the repository root for `.github/copilot-instructions.md`)
//! holds an `AGENTS.md` is guessed moved there (55, "no history"), as the second look's other
//! guesses are (`tree_only.rs`).

use crate::index::basename;

use super::located::Located;
use super::Checker;

/// Notes files of one agent tool that projects rename to `AGENTS.md`.
const TOOL_NOTES: &[&str] = &["CLAUDE.md", "GEMINI.md", "AGENT.md", ".cursorrules", "copilot-instructions.md"];

impl Checker<'_> {
    /// `Moved` to the `AGENTS.md` beside a missing tool's notes file.
    pub(super) fn notes_became_agents_md(&self, path: &str) -> Option<Located> {
        let name = basename(path);
        if !TOOL_NOTES.contains(&name) {
            return None;
        }
        let mut dir = path.strip_suffix(name)?.trim_end_matches('/');
        if name == "copilot-instructions.md" {
            dir = dir.strip_suffix(".github")?.trim_end_matches('/');
        }
        let agents = if dir.is_empty() { "AGENTS.md".to_owned() } else { format!("{dir}/AGENTS.md") };
        self.index.file(&agents)?;
        Some(Located::Moved {
            to: agents.clone(),
            dir: false,
            confidence: 55,
            evidence: format!(
                "no history; {agents} stands beside where {path} was: agent notes are often renamed to AGENTS.md (unconfirmed)"
            ),
            since: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::check::located::Located;
    use crate::check::{Checker, MemoryContext};
    use crate::index::RepoIndex;

    #[test]
    fn a_tools_notes_file_gone_beside_an_agents_md() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("apps/desktop")).unwrap();
        std::fs::write(dir.path().join("apps/desktop/AGENTS.md"), "notes\n").unwrap();
        std::fs::write(dir.path().join("AGENTS.md"), "notes\n").unwrap();
        let index = RepoIndex::build(dir.path()).unwrap();
        let context = MemoryContext::default();
        let checker = Checker { index: &index, git: None, context: &context };
        let to = |p: &str| match checker.notes_became_agents_md(p) {
            Some(Located::Moved { to, .. }) => Some(to),
            _ => None,
        };
        assert_eq!(to("apps/desktop/CLAUDE.md").as_deref(), Some("apps/desktop/AGENTS.md"));
        assert_eq!(to(".github/copilot-instructions.md").as_deref(), Some("AGENTS.md"));
        assert_eq!(to("apps/mobile/CLAUDE.md"), None, "no AGENTS.md beside it");
        assert_eq!(to("apps/desktop/README.md"), None, "not a tool's notes file");
    }
}
