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
