mod support;

use memval_sources::{detect, load, Format};
use support::{commit, git_init, ts, write};

fn fixture() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    git_init(root);
    write(root, "CLAUDE.md", "# Project\n\nBuild with `make build`.\nTests live in tests/.\n");
    write(root, "AGENTS.md", "Use src/main.rs as the entry point.\n");
    write(root, ".cursorrules", "Prefer small functions.\n");
    write(root, ".github/copilot-instructions.md", "Format with rustfmt.\n");
    write(root, "docs/guide/setup.md", "---\ntitle: Setup\nupdated_at: 2025-11-02\n---\nRun ./setup.sh\n");
    write(root, "services/api/README.md", "The API lives here.\n");
    write(root, "src/notes.md", "not a notes pattern\n");
    write(root, "node_modules/pkg/README.md", "vendored\n");
    write(root, "build/docs/out.md", "generated\n");
    write(root, "ignored/README.md", "ignored by .gitignore\n");
    write(root, ".gitignore", "ignored/\n");
    commit(root, &["."], "2026-02-14T08:00:00Z");
    write(root, "AGENTS.md", "Use src/lib.rs as the entry point.\n");
    commit(root, &["AGENTS.md"], "2026-03-01T09:30:00Z");
    // Written after the commit: no history, so no date.
    write(root, "fresh/README.md", "Untracked readme.\n");
    repo
}

#[test]
fn notes_folder_one_memory_per_file_with_line_numbers_and_dates() {
    let repo = fixture();
    assert_eq!(detect(repo.path()).unwrap(), Format::Notes);
    let report = load(repo.path(), repo.path()).unwrap();
    assert_eq!(report.format, Format::Notes);
    assert!(report.problems.is_empty(), "{:?}", report.problems);

    let mut ids: Vec<&str> = report.memories.iter().map(|m| m.id.as_str()).collect();
    ids.sort();
    assert_eq!(
        ids,
        [
            ".cursorrules",
            ".github/copilot-instructions.md",
            "AGENTS.md",
            "CLAUDE.md",
            "docs/guide/setup.md",
            "fresh/README.md",
            "services/api/README.md",
        ]
    );
    let by_id = |id: &str| report.memories.iter().find(|m| m.id == id).unwrap();

    let claude = by_id("CLAUDE.md");
    assert_eq!((claude.agent.as_str(), claude.kind.as_str(), claude.tier), ("claude-code", "notes", 0));
    assert_eq!(claude.content, "# Project\n\nBuild with `make build`.\nTests live in tests/.\n", "the whole file");
    assert_eq!(claude.first_line, 1);
    assert_eq!(claude.context_dir.as_deref(), Some(""), "the repo root itself");
    assert_eq!(claude.updated_at, Some(ts("2026-02-14T08:00:00Z")));
    assert_eq!(by_id("AGENTS.md").updated_at, Some(ts("2026-03-01T09:30:00Z")), "the latest commit touching the file");
    assert_eq!(claude.source.format, "notes");
    assert_eq!(claude.source.path, repo.path().join("CLAUDE.md").to_string_lossy());

    let setup = by_id("docs/guide/setup.md");
    assert!(setup.content.starts_with("---\ntitle: Setup"), "front matter is kept so lines stay true");
    assert_eq!(setup.first_line, 1);
    assert_eq!(setup.updated_at, Some(ts("2025-11-02T00:00:00Z")), "front matter beats git");
    assert_eq!(setup.context_dir.as_deref(), Some("docs/guide"));

    assert_eq!(by_id("services/api/README.md").context_dir.as_deref(), Some("services/api"));
    assert_eq!(by_id("fresh/README.md").updated_at, None, "untracked file has no date");
}

/// An agent tool's notes file at the folder given is read even when `.gitignore` names it
/// (a personal `CLAUDE.md`, `CLAUDE.local.md`): those are memories too. Deeper ones, and docs,
/// still follow `.gitignore`.
#[test]
fn ignored_notes_at_the_folder_given_are_read() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    git_init(root);
    write(root, ".gitignore", "/CLAUDE.md\nCLAUDE.local.md\nlocal/\n");
    write(root, "CLAUDE.md", "Build with `make`.\n");
    write(root, "CLAUDE.local.md", "My own notes on src/main.rs.\n");
    write(root, "README.md", "A project.\n");
    write(root, "local/CLAUDE.md", "ignored with its folder\n");
    let report = load(root, root).unwrap();
    let mut ids: Vec<&str> = report.memories.iter().map(|m| m.id.as_str()).collect();
    ids.sort();
    assert_eq!(ids, ["CLAUDE.local.md", "CLAUDE.md", "README.md"]);
    // A folder whose only notes file is ignored is still a notes folder.
    let only = tempfile::tempdir().unwrap();
    git_init(only.path());
    write(only.path(), ".gitignore", "AGENTS.md\n");
    write(only.path(), "AGENTS.md", "Use src/lib.rs.\n");
    assert_eq!(detect(only.path()).unwrap(), Format::Notes);
    assert_eq!(load(only.path(), only.path()).unwrap().memories.len(), 1);
}

#[test]
fn notes_subfolder_ids_are_relative_to_the_folder_given() {
    let repo = fixture();
    let report = load(&repo.path().join("services"), repo.path()).unwrap();
    assert_eq!(report.memories.len(), 1);
    assert_eq!(report.memories[0].id, "api/README.md");
    assert_eq!(report.memories[0].context_dir.as_deref(), Some("services/api"));
}

#[test]
fn single_notes_file() {
    let repo = fixture();
    let path = repo.path().join("docs/guide/setup.md");
    assert_eq!(detect(&path).unwrap(), Format::Notes);
    let report = load(&path, repo.path()).unwrap();
    assert_eq!(report.memories.len(), 1);
    let m = &report.memories[0];
    assert_eq!(m.id, "setup.md");
    assert_eq!(m.context_dir.as_deref(), Some("docs/guide"));

    let outside = tempfile::tempdir().unwrap();
    let rules = write(outside.path(), ".cursorrules", "rules\n");
    let report = load(&rules, repo.path()).unwrap();
    let m = &report.memories[0];
    assert_eq!((m.id.as_str(), m.context_dir.as_deref(), m.updated_at), (".cursorrules", None, None));
}

#[test]
fn binary_non_utf8_and_huge_notes_are_problems() {
    let repo = fixture();
    write(repo.path(), "docs/logo.md", b"\x89PNG\r\n\x1a\n\0\0\0");
    write(repo.path(), "docs/latin1.md", b"caf\xe9\n");
    write(repo.path(), "docs/huge.md", vec![b'a'; 4 * 1024 * 1024 + 1]);
    let report = load(repo.path(), repo.path()).unwrap();
    assert_eq!(report.memories.len(), 7, "the other files still load");
    let mut reasons: Vec<(String, &str)> = report
        .problems
        .iter()
        .map(|p| (p.path.file_name().unwrap().to_string_lossy().into_owned(), p.reason.as_str()))
        .collect();
    reasons.sort();
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert!(reasons[0].0 == "huge.md" && reasons[0].1.contains("too large"), "{reasons:?}");
    assert!(reasons[1].0 == "latin1.md" && reasons[1].1.contains("UTF-8"), "{reasons:?}");
    assert!(reasons[2].0 == "logo.md" && reasons[2].1.contains("binary"), "{reasons:?}");
}

#[cfg(unix)]
#[test]
fn notes_symlinks_out_of_the_folder_are_not_followed() {
    let base = tempfile::tempdir().unwrap();
    let secret = write(base.path(), "outside/secret.md", "secret\n");
    let notes = base.path().join("notes");
    write(&notes, "CLAUDE.md", "inside\n");
    std::fs::create_dir_all(notes.join("docs")).unwrap();
    std::os::unix::fs::symlink(&secret, notes.join("docs/leak.md")).unwrap();
    std::os::unix::fs::symlink(base.path().join("outside"), notes.join("docs/linked")).unwrap();

    let report = load(&notes, base.path()).unwrap();
    let ids: Vec<&str> = report.memories.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["CLAUDE.md"]);
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(report.problems[0].reason.contains("outside the memory folder"));
}

#[test]
fn every_agent_tools_instruction_files_are_found_and_attributed() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    git_init(root);
    for (path, text) in [
        ("CLAUDE.md", "Claude's notes.\n"),
        ("GEMINI.md", "Gemini's notes.\n"),
        (".cursor/rules/api.mdc", "---\ndescription: API rules\nglobs: src/api/**\n---\nHandlers live in src/api/.\n"),
        (".github/instructions/rust.instructions.md", "---\napplyTo: \"**/*.rs\"\n---\nUse anyhow.\n"),
        (".claude/skills/release/SKILL.md", "---\nname: release\n---\nRun scripts/bump.sh.\n"),
        (".claude/skills/release/scripts/notes.md", "not an instruction file\n"),
        (".claude/commands/ship.md", "Ship it.\n"),
        (".claude/settings.local.md", "not an instruction file\n"),
        (".clinerules/style.md", "Small functions.\n"),
        (".vscode/notes.md", "an editor folder\n"),
        (".idea/README.md", "an editor folder\n"),
    ] {
        write(root, path, text);
    }
    commit(root, &["."], "2026-02-14T08:00:00Z");
    let report = load(root, root).unwrap();
    let got: Vec<(&str, &str)> = report.memories.iter().map(|m| (m.id.as_str(), m.agent.as_str())).collect();
    assert_eq!(
        got,
        [
            (".claude/commands/ship.md", "claude-code"),
            (".claude/skills/release/SKILL.md", "claude-code"),
            (".clinerules/style.md", "cline"),
            (".cursor/rules/api.mdc", "cursor"),
            (".github/instructions/rust.instructions.md", "copilot"),
            ("CLAUDE.md", "claude-code"),
            ("GEMINI.md", "gemini"),
        ]
    );
    let skill = report.memories.iter().find(|m| m.id.ends_with("SKILL.md")).unwrap();
    assert_eq!(skill.context_dir.as_deref(), Some(".claude/skills/release"));
    assert_eq!(skill.updated_at, Some(ts("2026-02-14T08:00:00Z")));
    assert!(report.links.is_empty());
}

#[test]
fn a_tool_folder_given_directly_is_read_with_its_agent() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    git_init(root);
    write(root, ".claude/commands/ship.md", "Ship it.\n");
    write(root, ".claude/skills/x/SKILL.md", "Do x.\n");
    commit(root, &["."], "2026-02-14T08:00:00Z");
    let report = load(&root.join(".claude"), root).unwrap();
    let got: Vec<(&str, &str)> = report.memories.iter().map(|m| (m.id.as_str(), m.agent.as_str())).collect();
    assert_eq!(got, [("commands/ship.md", "claude-code"), ("skills/x/SKILL.md", "claude-code")]);
    let single = load(&root.join(".claude/commands/ship.md"), root).unwrap();
    assert_eq!(single.memories[0].agent, "claude-code");
}

#[cfg(unix)]
#[test]
fn a_file_reached_by_several_names_is_one_memory_named_by_the_file_itself() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    git_init(root);
    write(root, "AGENTS.md", "Use pnpm.\n");
    write(root, ".agents/skills/x/SKILL.md", "Do x.\n");
    // CLAUDE.md -> AGENTS.md (the common layout), and the real file sorts after its link here.
    std::os::unix::fs::symlink("AGENTS.md", root.join("CLAUDE.md")).unwrap();
    write(root, "web/CLAUDE.md", "Web notes.\n");
    std::os::unix::fs::symlink("CLAUDE.md", root.join("web/AGENTS.md")).unwrap();
    std::fs::create_dir_all(root.join(".github")).unwrap();
    std::os::unix::fs::symlink("../AGENTS.md", root.join(".github/copilot-instructions.md")).unwrap();
    // A linked folder is not walked: its skills are read where they really are.
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    std::os::unix::fs::symlink("../.agents/skills", root.join(".claude/skills")).unwrap();
    commit(root, &["."], "2026-02-14T08:00:00Z");

    let report = load(root, root).unwrap();
    let got: Vec<(&str, &str)> = report.memories.iter().map(|m| (m.id.as_str(), m.agent.as_str())).collect();
    assert_eq!(
        got,
        [(".agents/skills/x/SKILL.md", "agents"), ("AGENTS.md", "agents"), ("web/CLAUDE.md", "claude-code")]
    );
    let mut links: Vec<(String, &str)> = report
        .links
        .iter()
        .map(|l| (l.path.strip_prefix(root).unwrap().to_string_lossy().into_owned(), l.same_as.as_str()))
        .collect();
    links.sort();
    assert_eq!(
        links,
        [
            (".github/copilot-instructions.md".to_owned(), "AGENTS.md"),
            ("CLAUDE.md".to_owned(), "AGENTS.md"),
            ("web/AGENTS.md".to_owned(), "web/CLAUDE.md"),
        ]
    );
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    // Given directly, a link is read under its own name and folder.
    let single = load(&root.join(".github/copilot-instructions.md"), root).unwrap();
    assert_eq!(single.memories[0].agent, "copilot");
    assert_eq!(single.memories[0].content, "Use pnpm.\n");
}
