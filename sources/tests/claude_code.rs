mod support;

use memval_sources::{detect, load, Format};
use support::{commit, git_init, ts, write};

const INDEX: &str = "# Memory index\n\
- [No force push](feedback_push.md) — never force-push main\n\
- [Who I am](user_role.md) — backend engineer\n\
- [Broken](project_broken.md) — front matter never closed\n\
- [Gone](feedback_gone.md) — deleted file\n\
- [Docs](https://example.com/x.md)\n";

const PUSH: &str = "---\nname: No force push\ndescription: never force-push main\ntype: feedback\n\
created: 2026-01-10\nupdated_at: 2026-02-01T09:00:00Z\n---\n\
Never run `git push --force` on main.\nSee scripts/release.sh line 4.\n";

/// A repo holding a Claude Code memory folder at `.claude/memory`, committed at a fixed date.
fn fixture() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    git_init(root);
    write(root, "mem/MEMORY.md", INDEX);
    write(root, "mem/feedback_push.md", PUSH);
    write(root, "mem/user_role.md", "---\nname: Role\ntype: user\n---\nI work on the API in src/api.\n");
    write(root, "mem/project_broken.md", "---\nname: Broken\ntype: project\nThe body never starts.\n");
    write(root, "mem/reference_grafana.md", "---\ntype: reference\n---\nDashboards live in ops/grafana/.\n");
    write(root, "mem/feedback_kind.md", "---\ntype: opinion\n---\nNot a Claude Code type.\n");
    write(root, "mem/notes.txt", "not a memory file");
    commit(root, &["mem"], "2026-03-01T12:00:00Z");
    // Committed later, but its front matter date wins.
    write(root, "mem/feedback_push.md", PUSH.replace("main.", "main, ever."));
    commit(root, &["mem"], "2026-03-05T12:00:00Z");
    repo
}

#[test]
fn claude_code_folder_one_memory_per_file() {
    let repo = fixture();
    let mem = repo.path().join("mem");
    assert_eq!(detect(&mem).unwrap(), Format::ClaudeCode);

    let report = load(&mem, repo.path()).unwrap();
    assert_eq!(report.format, Format::ClaudeCode);
    let ids: Vec<&str> = report.memories.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["feedback_push", "reference_grafana", "user_role"]);

    let push = &report.memories[0];
    assert_eq!(push.agent, "claude-code");
    assert_eq!(push.kind, "feedback");
    assert_eq!(push.content, "Never run `git push --force` on main, ever.\nSee scripts/release.sh line 4.\n");
    assert_eq!(push.first_line, 8, "content starts after the 7 front matter lines");
    assert_eq!(push.created_at, Some(ts("2026-01-10T00:00:00Z")));
    assert_eq!(push.updated_at, Some(ts("2026-02-01T09:00:00Z")), "front matter beats git");
    assert_eq!(push.source.path, mem.join("feedback_push.md").to_string_lossy());
    assert_eq!(push.source.format, "claude-code");
    assert_eq!(push.context_dir.as_deref(), Some("mem"));

    let grafana = &report.memories[1];
    assert_eq!(grafana.kind, "reference", "loaded though MEMORY.md does not list it");
    assert_eq!(grafana.first_line, 4);

    let role = &report.memories[2];
    assert_eq!(role.kind, "user");
    assert_eq!(role.created_at, None);
    assert_eq!(role.updated_at, Some(ts("2026-03-01T12:00:00Z")), "falls back to the last commit");

    let mut problems: Vec<(String, &str)> = report
        .problems
        .iter()
        .map(|p| (p.path.file_name().unwrap().to_string_lossy().into_owned(), p.reason.as_str()))
        .collect();
    problems.sort();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert_eq!(problems[0].0, "feedback_gone.md");
    assert!(
        problems[0].1.contains("MEMORY.md line 5") && problems[0].1.contains("does not exist"),
        "{}",
        problems[0].1
    );
    assert_eq!(problems[1].0, "feedback_kind.md");
    assert!(problems[1].1.contains("type: opinion"), "{}", problems[1].1);
    assert_eq!(problems[2].0, "project_broken.md");
    assert!(problems[2].1.contains("never closed"), "{}", problems[2].1);
}

#[test]
fn claude_code_folder_outside_the_repo_and_without_git() {
    let mem = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    write(mem.path(), "MEMORY.md", "- [Role](user_role.md)\n");
    write(mem.path(), "user_role.md", "Plain text, no front matter.\n");

    // MEMORY.md given directly stands for its folder.
    let index = mem.path().join("MEMORY.md");
    assert_eq!(detect(&index).unwrap(), Format::ClaudeCode);
    let report = load(&index, repo.path()).unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let m = &report.memories[0];
    assert_eq!((m.id.as_str(), m.kind.as_str(), m.first_line), ("user_role", "user", 1));
    assert_eq!(m.content, "Plain text, no front matter.\n");
    assert_eq!(m.context_dir, None, "outside the repo");
    assert_eq!(m.updated_at, None, "no front matter date and no git history");
}

#[cfg(unix)]
#[test]
fn claude_code_index_links_do_not_escape_the_folder() {
    let base = tempfile::tempdir().unwrap();
    let secret = write(base.path(), "outside/secret.md", "secret");
    let mem = base.path().join("mem");
    write(&mem, "MEMORY.md", "- [Up](../outside/secret.md)\n- [Link](feedback_link.md)\n");
    std::os::unix::fs::symlink(&secret, mem.join("feedback_link.md")).unwrap();

    let report = load(&mem, base.path()).unwrap();
    assert!(report.memories.is_empty(), "{:?}", report.memories);
    assert_eq!(report.problems.len(), 2, "{:?}", report.problems);
    for p in &report.problems {
        assert!(p.reason.contains("outside the memory folder"), "{p}");
    }
}
