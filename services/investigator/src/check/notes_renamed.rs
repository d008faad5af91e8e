//! Without history: an agent tool's notes file gone where an `AGENTS.md` now stands beside it.
//!
//! Projects that kept notes for one agent tool (`CLAUDE.md`, `GEMINI.md`, `AGENT.md`,
//! `.cursorrules`, `.github/copilot-instructions.md`) rename them to `AGENTS.md`, the name the
//! tools now share. With history, git says so; from the tree alone, a missing notes file of one
//! of those names whose folder (the repository root for `.github/copilot-instructions.md`)
//! holds an `AGENTS.md` is guessed moved there (55, "no history"), as the second look's other
//! guesses are (`tree_only.rs`).
//!
//! The same goes for what such a tool keeps in its own folder: a file or folder under one
//! agent tool's folder (`.claude/criteria.md`, `.cursor/rules/`), gone, whose rest of the path
//! stands under the one other tool folder that has it (`.agents/criteria.md`) was moved with
//! the project's move to the shared folder (55, "no history").

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

/// The folders agent tools keep their notes, skills, rules and commands in, at a project's root.
const TOOL_FOLDERS: &[&str] =
    &[".claude", ".agents", ".agent", ".cursor", ".gemini", ".codex", ".windsurf", ".opencode", ".clinerules"];

impl Checker<'_> {
    /// `Moved` to the same rest of the path under the one other agent tool folder that has it:
    /// `.claude/criteria.md` gone, `.agents/criteria.md` there.
    pub(super) fn tool_folder_moved(&self, path: &str) -> Option<Located> {
        let (tool, rest) = path.trim_end_matches('/').split_once('/')?;
        if !TOOL_FOLDERS.contains(&tool) || rest.is_empty() {
            return None;
        }
        let mut found = TOOL_FOLDERS
            .iter()
            .filter(|other| **other != tool)
            .map(|other| format!("{other}/{rest}"))
            .filter(|p| self.index.has(p));
        let to = found.next()?;
        if found.next().is_some() {
            return None;
        }
        // A folder moved takes its contents along: of what the memory names inside it, something
        // must be there with the rest of its path (a skill folder of the same name, not just
        // another `SKILL.md`).
        let old = path.trim_end_matches('/');
        let inside = self.context.inside(self.index, old);
        let kept = |child: &String| {
            let moved = format!("{to}/{}", &child[old.len() + 1..]);
            self.index.has(&moved)
        };
        if !inside.is_empty() && !inside.iter().any(kept) {
            return None;
        }
        Some(Located::Moved {
            dir: self.index.is_dir(&to),
            evidence: format!(
                "no history; {to} holds what {path} named: projects move an agent tool's folder to another's (unconfirmed)"
            ),
            to,
            confidence: 55,
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

    #[test]
    fn a_file_of_one_tools_folder_found_under_anothers() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".agents/skills/release")).unwrap();
        std::fs::write(dir.path().join(".agents/criteria.md"), "rules\n").unwrap();
        std::fs::write(dir.path().join(".agents/skills/release/SKILL.md"), "skill\n").unwrap();
        std::fs::create_dir_all(dir.path().join("docs")).unwrap();
        std::fs::write(dir.path().join("docs/criteria.md"), "other\n").unwrap();
        let index = RepoIndex::build(dir.path()).unwrap();
        let context = MemoryContext::default();
        let checker = Checker { index: &index, git: None, context: &context };
        let to = |p: &str| match checker.tool_folder_moved(p) {
            Some(Located::Moved { to, .. }) => Some(to),
            _ => None,
        };
        assert_eq!(to(".claude/criteria.md").as_deref(), Some(".agents/criteria.md"));
        assert_eq!(to(".claude/skills/release").as_deref(), Some(".agents/skills/release"));
        assert_eq!(to(".claude/other.md"), None, "nothing of that rest under another tool's folder");
        assert_eq!(to("notes/criteria.md"), None, "not a tool's folder");
        let named = memval_proto::Claim {
            claim_type: memval_proto::ClaimType::FileReference,
            claim_text: "the skill".into(),
            line: 1,
            lines: vec![1],
            code_refs: vec![memval_proto::CodeRef {
                path: ".claude/skills/old-skill/SKILL.md".into(),
                symbol: None,
                line: None,
                written: None,
                alt_paths: Vec::new(),
            }],
            assertion: None,
        };
        let context = MemoryContext::of(&[named]);
        let checker = Checker { index: &index, git: None, context: &context };
        assert!(checker.tool_folder_moved(".claude/skills").is_none(), "what the memory named inside is not there");
    }
}
