mod support;

use memval_sources::{detect, load, Format};
use support::{commit, git_init, ts, write};

const INDEX: &str = "# Memory index\n\n\
## Decisions\n\
- [DEC-1](decisions/DEC-1.md) — LLM stays client-side\n\
- [DEC-2](decisions/DEC-2.md) — updated_at: 2026-02-10\n\n\
## Registry\n\n\
| path | category | updated_at |\n\
|------|----------|------------|\n\
| `project/overview.md` | project | 2026-01-20 |\n\
| `contexts/memory/patterns/retry.md` | patterns | - |\n\
| `project/roadmap.md` | strategy | 2026-01-01 |\n";

fn fixture() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    git_init(root);
    let m = "contexts/memory";
    write(root, &format!("{m}/index.md"), INDEX);
    write(
        root,
        &format!("{m}/decisions/DEC-1.md"),
        "---\nid: DEC-1\nupdated_at: 2026-01-05\ncreated_at: 2025-12-01\n---\n# DEC-1\nThe LLM runs client-side (src/llm/client.rs).\n",
    );
    write(root, &format!("{m}/decisions/DEC-2.md"), "# DEC-2\nSUPERSEDED by DEC-3\n");
    write(root, &format!("{m}/decisions/DEC-3.md"), "# DEC-3\nNot registered, still a decision.\n");
    write(root, &format!("{m}/decisions/notes.md"), "not a DEC file and not registered\n");
    write(root, &format!("{m}/project/overview.md"), "Overview cites DEC-1.\n");
    write(root, &format!("{m}/patterns/retry.md"), "---\ntitle: retry\n---\nRetry with backoff.\n");
    commit(root, &["contexts"], "2026-03-01T00:00:00Z");
    repo
}

#[test]
fn gaai_registry_and_decisions() {
    let repo = fixture();
    assert_eq!(detect(repo.path()).unwrap(), Format::Gaai);
    let report = load(repo.path(), repo.path()).unwrap();
    assert_eq!(report.format, Format::Gaai);

    let ids: Vec<&str> = report.memories.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(
        ids,
        ["decisions/DEC-1.md", "decisions/DEC-2.md", "decisions/DEC-3.md", "patterns/retry.md", "project/overview.md"]
    );
    let by_id = |id: &str| report.memories.iter().find(|m| m.id == id).unwrap();

    let dec1 = by_id("decisions/DEC-1.md");
    assert_eq!(dec1.agent, "gaai");
    assert_eq!(dec1.kind, "decisions", "the index heading is its category");
    assert_eq!(dec1.updated_at, Some(ts("2026-01-05T00:00:00Z")), "front matter first");
    assert_eq!(dec1.created_at, Some(ts("2025-12-01T00:00:00Z")));
    assert_eq!(dec1.first_line, 6);
    assert!(dec1.content.starts_with("# DEC-1\n"));
    assert_eq!(dec1.context_dir.as_deref(), Some("contexts/memory/decisions"));
    assert_eq!(dec1.source.format, "gaai");
    assert_eq!(dec1.source.path, repo.path().join("contexts/memory/decisions/DEC-1.md").to_string_lossy());

    let dec2 = by_id("decisions/DEC-2.md");
    assert_eq!(dec2.updated_at, Some(ts("2026-02-10T00:00:00Z")), "then the index entry");
    assert_eq!(dec2.first_line, 1);

    let dec3 = by_id("decisions/DEC-3.md");
    assert_eq!(dec3.kind, "decision");
    assert_eq!(dec3.updated_at, Some(ts("2026-03-01T00:00:00Z")), "then the last commit");

    let overview = by_id("project/overview.md");
    assert_eq!(overview.kind, "project");
    assert_eq!(overview.updated_at, Some(ts("2026-01-20T00:00:00Z")));

    let retry = by_id("patterns/retry.md");
    assert_eq!(retry.kind, "patterns");
    assert_eq!(retry.updated_at, Some(ts("2026-03-01T00:00:00Z")), "a `-` cell is no date");
    assert_eq!(retry.content, "Retry with backoff.\n");

    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    let missing = &report.problems[0];
    assert!(missing.path.ends_with("contexts/memory/project/roadmap.md"), "{missing}");
    assert!(missing.reason.contains("index.md line 13") && missing.reason.contains("does not exist"), "{missing}");
}

#[test]
fn gaai_memory_folder_given_directly() {
    let repo = fixture();
    let mem = repo.path().join("contexts/memory");
    assert_eq!(detect(&mem).unwrap(), Format::Gaai);
    assert_eq!(detect(&mem.join("index.md")).unwrap(), Format::Gaai);
    let report = load(&mem, repo.path()).unwrap();
    assert_eq!(report.memories.len(), 5);
    assert!(report.memories.iter().any(|m| m.id == "decisions/DEC-3.md"));
}

#[test]
fn gaai_broken_front_matter_is_a_problem() {
    let repo = fixture();
    write(repo.path(), "contexts/memory/decisions/DEC-4.md", "---\nupdated_at: next tuesday\n---\nbody\n");
    let report = load(repo.path(), repo.path()).unwrap();
    assert_eq!(report.memories.len(), 5);
    let p = report.problems.iter().find(|p| p.path.ends_with("DEC-4.md")).expect("DEC-4 reported");
    assert!(p.reason.contains("updated_at: next tuesday") && p.reason.contains("not a date"), "{p}");
}
