//! The folders agent tools keep a repository's instructions in. The sources crate finds notes
//! files in them and names each memory's agent after the folder; the extractor reads the
//! paths those notes mention from the repository root, as the tools do, except inside a
//! skill's own folder ([`skill_dir`]).

/// Each tool folder, and the agent a memory found in it is attributed to. `.agents` and
/// `.agent` are shared by several tools.
#[rustfmt::skip]
pub const TOOL_DIRS: &[(&str, &str)] = &[
    (".claude", "claude-code"), (".agents", "agents"), (".agent", "agents"), (".github", "copilot"),
    (".cursor", "cursor"), (".gemini", "gemini"), (".codex", "codex"), (".opencode", "opencode"),
    (".cline", "cline"), (".clinerules", "cline"), (".windsurf", "windsurf"), (".kiro", "kiro"),
    (".junie", "junie"), (".roo", "roo-code"), (".amazonq", "amazon-q"), (".continue", "continue"),
    (".openhands", "openhands"), (".augment", "augment"),
];

/// Files at any depth that are one tool's instructions by their name alone.
#[rustfmt::skip]
pub const TOOL_FILES: &[(&str, &str)] = &[
    ("CLAUDE.md", "claude-code"), ("CLAUDE.local.md", "claude-code"), ("AGENTS.md", "agents"),
    ("AGENTS.override.md", "agents"), ("GEMINI.md", "gemini"), (".cursorrules", "cursor"),
    (".windsurfrules", "windsurf"), (".clinerules", "cline"), (".roorules", "roo-code"),
    ("CONVENTIONS.md", "aider"),
];

/// Sub-folders of a tool folder whose markdown files are instructions (commands, sub-agents,
/// rules, steering, workflows). `.github/workflows` holds CI, not instructions.
pub const INSTRUCTION_DIRS: &[&str] =
    &["commands", "agents", "agent", "rules", "steering", "workflows", "microagents", "prompts"];

/// The agent whose instructions a notes file is, from its path's components (repo-relative
/// where known): by name anywhere ([`TOOL_FILES`]), by place in a tool folder (a skill's
/// SKILL.md, the markdown of its [`INSTRUCTION_DIRS`], the tools' own names in `.github`,
/// `.junie`, `.gemini`, `.clinerules`, `.roo`), `docs` for a README or a file in a docs
/// folder, `None` for any other file.
pub fn notes_agent(parts: &[&str]) -> Option<&'static str> {
    let (&name, dirs) = parts.split_last()?;
    let ext = name.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()).map(|(_, e)| e.to_ascii_lowercase());
    let is_md = ext.as_deref() == Some("md");
    if let Some((_, tool)) = TOOL_FILES.iter().find(|(n, _)| *n == name) {
        return Some(tool);
    }
    // The innermost tool folder decides (`.github/` of a package inside the repo too).
    if let Some((i, tool)) =
        dirs.iter().enumerate().rev().find_map(|(i, d)| tool_agent(d).map(|agent| (i, (*d, agent))))
    {
        let (folder, agent) = tool;
        let sub = &dirs[i + 1..];
        let first = sub.first().copied();
        let found = match folder {
            ".github" => {
                (first.is_none() && name == "copilot-instructions.md")
                    || (first == Some("instructions") && name.ends_with(".instructions.md"))
                    || (first == Some("prompts") && name.ends_with(".prompt.md"))
                    || (first == Some("agents") && is_md)
                    || (first == Some("skills") && name == "SKILL.md")
            }
            ".clinerules" => is_md,
            ".junie" => name == "guidelines.md",
            ".gemini" if first.is_none() => name == "styleguide.md",
            ".roo" if first.is_some_and(|f| f.starts_with("rules")) => is_md,
            _ => {
                (first == Some("skills") && name == "SKILL.md")
                    || (first.is_some_and(|f| INSTRUCTION_DIRS.contains(&f))
                        && (is_md || (folder == ".cursor" && ext.as_deref() == Some("mdc"))))
            }
        };
        if found {
            return Some(agent);
        }
    }
    (name.eq_ignore_ascii_case("README.md") || (is_md && dirs.contains(&"docs"))).then_some(DOCS_AGENT)
}

/// The agent of READMEs and docs: documents written for people, not an agent tool's notes.
pub const DOCS_AGENT: &str = "docs";

/// The agent of a tool folder's name (`.cursor` -> `cursor`).
pub fn tool_agent(dir: &str) -> Option<&'static str> {
    TOOL_DIRS.iter().find(|(d, _)| *d == dir).map(|(_, agent)| *agent)
}

/// The skill folder `dir` (a repo-relative folder, `/`-separated) is in or is:
/// `.claude/skills/release/scripts` -> `.claude/skills/release`. A skill bundles its own files
/// and its SKILL.md names them from its folder (`scripts/bump.sh`).
pub fn skill_dir(dir: &str) -> Option<String> {
    let segments: Vec<&str> = dir.split('/').collect();
    let i = segments.windows(3).position(|w| tool_agent(w[0]).is_some() && w[1] == "skills" && !w[2].is_empty())?;
    Some(segments[..i + 3].join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tools_instruction_files_with_their_agent() {
        for (path, agent) in [
            ("CLAUDE.md", Some("claude-code")),
            ("web/CLAUDE.local.md", Some("claude-code")),
            (".claude/commands/release.md", Some("claude-code")),
            (".claude/agents/reviewer.md", Some("claude-code")),
            (".claude/rules/testing.md", Some("claude-code")),
            (".claude/skills/pdf/SKILL.md", Some("claude-code")),
            (".claude/skills/pdf/reference.md", None),
            (".claude/settings.json", None),
            ("AGENTS.md", Some("agents")),
            ("codex-rs/AGENTS.override.md", Some("agents")),
            (".agents/skills/triage/SKILL.md", Some("agents")),
            (".agents/rules/style.md", Some("agents")),
            ("GEMINI.md", Some("gemini")),
            (".gemini/styleguide.md", Some("gemini")),
            (".gemini/skills/x/SKILL.md", Some("gemini")),
            (".cursorrules", Some("cursor")),
            (".cursor/rules/api.mdc", Some("cursor")),
            (".cursor/rules/nested/db.md", Some("cursor")),
            (".cursor/commands/ship.md", Some("cursor")),
            (".github/copilot-instructions.md", Some("copilot")),
            (".github/instructions/rust.instructions.md", Some("copilot")),
            (".github/instructions/notes.md", None),
            (".github/prompts/plan.prompt.md", Some("copilot")),
            (".github/agents/triage.agent.md", Some("copilot")),
            (".github/skills/x/SKILL.md", Some("copilot")),
            (".github/workflows/ci.md", None),
            (".github/ISSUE_TEMPLATE/bug.md", None),
            (".github/PULL_REQUEST_TEMPLATE.md", None),
            (".windsurfrules", Some("windsurf")),
            (".windsurf/rules/go.md", Some("windsurf")),
            (".windsurf/workflows/deploy.md", Some("windsurf")),
            (".clinerules", Some("cline")),
            (".clinerules/coding.md", Some("cline")),
            (".clinerules/workflows/pr.md", Some("cline")),
            (".cline/skills/x/SKILL.md", Some("cline")),
            (".kiro/steering/product.md", Some("kiro")),
            (".junie/guidelines.md", Some("junie")),
            (".roo/rules/a.md", Some("roo-code")),
            (".roo/rules-code/b.md", Some("roo-code")),
            (".roorules", Some("roo-code")),
            (".amazonq/rules/c.md", Some("amazon-q")),
            (".opencode/command/x.md", None),
            (".opencode/commands/x.md", Some("opencode")),
            (".opencode/agent/x.md", Some("opencode")),
            (".openhands/microagents/repo.md", Some("openhands")),
            ("CONVENTIONS.md", Some("aider")),
            // The innermost tool folder decides; a docs folder inside one is docs.
            ("packages/web/.cursor/rules/ui.mdc", Some("cursor")),
            (".claude/skills/x/docs/usage.md", Some("docs")),
            ("README.md", Some("docs")),
            ("docs/a.md", Some("docs")),
            ("src/notes.md", None),
            (".vscode/README.md", Some("docs")),
        ] {
            assert_eq!(notes_agent(&path.split('/').collect::<Vec<_>>()), agent, "{path}");
        }
    }

    #[test]
    fn a_skill_folder_is_found_at_any_depth() {
        assert_eq!(skill_dir(".claude/skills/release").as_deref(), Some(".claude/skills/release"));
        assert_eq!(skill_dir(".claude/skills/release/scripts/py").as_deref(), Some(".claude/skills/release"));
        assert_eq!(skill_dir("web/.agents/skills/x").as_deref(), Some("web/.agents/skills/x"));
        assert_eq!(skill_dir(".claude/skills"), None);
        assert_eq!(skill_dir(".claude/commands"), None);
        assert_eq!(skill_dir("skills/release"), None);
        assert_eq!(skill_dir(""), None);
    }
}
