//! The ways repositories move that issue 26 names, each a small repository built with the real
//! `git` and checked by the real `memval` from a notes file committed in it (so the memory's
//! date is its commit's): notes in a sub-package's docs, a file moved into a new package and
//! found by its name, trees with route groups and dynamic segments, a tree whose folder moved
//! whole, a file renamed with a prefix in a commit of its own, a doc moved and re-indented in one
//! commit, a near copy deleted beside a rename (gone, not moved into the renamed file), and a
//! file extracted into a new
//! package.

#[allow(dead_code)]
mod support;

use serde_json::Value;
use support::{run_json, GitRepo};

const BEFORE: &str = "2026-01-01T00:00:00Z";
const MEMORY: &str = "2026-02-01T00:00:00Z";
const LATER: &str = "2026-03-01T00:00:00Z";
const LATEST: &str = "2026-04-01T00:00:00Z";

/// A body of `n` distinct lines in a language's shape, `tag` making it unlike other bodies.
fn body(tag: &str, n: usize) -> String {
    (0..n)
        .map(|i| {
            format!("export function {tag}Step{i}(input: number): number {{ return input * {i} + {}; }}\n", tag.len())
        })
        .collect()
}

/// Every file claim of the report, by the path it names: (verdict, successor).
fn file_claims(report: &Value) -> Vec<(String, String, Option<String>)> {
    report["memories"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["claims"].as_array().unwrap())
        .filter(|c| c["claim_type"] == "file_reference")
        .map(|c| {
            (
                c["code_refs"][0]["path"].as_str().unwrap().trim_end_matches('/').to_owned(),
                c["verdict"].as_str().unwrap().to_owned(),
                c["successor"].as_str().map(|s| s.trim_end_matches('/').to_owned()),
            )
        })
        .collect()
}

/// Runs memval on `notes` of `repo` and checks each (path, verdict, successor).
fn expect(name: &str, repo: &GitRepo, notes: &str, want: &[(&str, &str, Option<&str>)]) {
    let tmp = tempfile::tempdir().unwrap();
    let report =
        run_json(repo.dir.path(), &repo.dir.path().join(notes).display().to_string(), &tmp.path().join("store"));
    let got = file_claims(&report);
    for (path, verdict, successor) in want {
        let found = got
            .iter()
            .find(|(p, _, _)| p == path || p.ends_with(&format!("/{path}")))
            .unwrap_or_else(|| panic!("{name}: no file claim for {path}; claims: {got:?}"));
        assert_eq!(
            (found.1.as_str(), found.2.as_deref()),
            (*verdict, *successor),
            "{name}: {path} (claim path {}); all: {got:?}",
            found.0
        );
    }
}

#[test]
fn notes_in_a_sub_packages_docs_read_paths_from_the_package() {
    let repo = GitRepo::new();
    repo.write("Cargo.toml", "[workspace]\n");
    repo.write("src/main.rs", "fn main() {}\n");
    repo.write("web/package.json", "{\"name\": \"web\"}\n");
    repo.write("web/src/lib/daemon/types.ts", &body("types", 12));
    repo.write("web/server/index.ts", &body("server", 12));
    repo.write("web/src/old-store.ts", &body("store", 20));
    repo.commit("start", BEFORE);
    repo.write(
        "web/docs/ARCHITECTURE.md",
        "# Web\n\n- Types: `src/lib/daemon/types.ts`\n- Server entry: `server/index.ts`\n- State: `src/old-store.ts`\n",
    );
    repo.commit("docs", MEMORY);
    repo.git(&["mv", "web/src/old-store.ts", "web/src/state.ts"]);
    repo.commit("rename the store", LATER);
    expect(
        "sub-package docs",
        &repo,
        "web/docs/ARCHITECTURE.md",
        &[
            ("src/lib/daemon/types.ts", "VALID", None),
            ("server/index.ts", "VALID", None),
            ("src/old-store.ts", "STALE", Some("web/src/state.ts")),
        ],
    );
}

#[test]
fn a_file_moved_into_a_new_package_is_stale_not_valid_by_its_name() {
    let repo = GitRepo::new();
    repo.write("cli/commands.py", &body("commands", 30).replace("export function", "def"));
    repo.write("cli/config.py", &body("config", 30).replace("export function", "def"));
    repo.write("README.md", "# tool\n");
    repo.commit("start", BEFORE);
    repo.write("AGENTS.md", "# Notes\n\nCommands are in `cli/commands.py`, settings in `cli/config.py`.\n");
    repo.commit("notes", MEMORY);
    // Moved under a new package folder and edited beyond what git calls a rename.
    std::fs::remove_dir_all(repo.dir.path().join("cli")).unwrap();
    repo.write(
        "src/tool/cli/commands.py",
        &body("commands", 30).replace("export function", "def").replace("input", "arg"),
    );
    repo.write("src/tool/cli/config.py", &body("config", 30).replace("export function", "def"));
    repo.commit("move the cli into the package", LATER);
    expect(
        "moved into a package",
        &repo,
        "AGENTS.md",
        &[
            ("cli/commands.py", "STALE", Some("src/tool/cli/commands.py")),
            ("cli/config.py", "STALE", Some("src/tool/cli/config.py")),
        ],
    );
}

#[test]
fn route_groups_and_dynamic_segments_in_a_tree_are_paths() {
    let repo = GitRepo::new();
    repo.write("app/(marketing)/page.tsx", &body("marketing", 8));
    repo.write("app/[id]/page.tsx", &body("item", 8));
    repo.write("app/layout.tsx", &body("layout", 8));
    repo.commit("start", BEFORE);
    repo.write(
        "AGENTS.md",
        "# Routes\n\n```\napp/\n├── (marketing)/\n│   └── page.tsx\n├── [id]/\n│   └── page.tsx\n└── layout.tsx\n```\n",
    );
    repo.commit("notes", MEMORY);
    expect(
        "route groups",
        &repo,
        "AGENTS.md",
        &[
            ("app/(marketing)/page.tsx", "VALID", None),
            ("app/[id]/page.tsx", "VALID", None),
            ("app/layout.tsx", "VALID", None),
        ],
    );
}

#[test]
fn every_row_of_a_tree_whose_folder_moved_is_stale_with_its_moved_path() {
    let repo = GitRepo::new();
    repo.write("internal/cache/lru.go", &body("lru", 20));
    repo.write("internal/cache/shard.go", &body("shard", 20));
    repo.write("go.mod", "module x\n");
    repo.commit("start", BEFORE);
    repo.write("AGENTS.md", "# Layout\n\n```\ninternal/cache/\n├── lru.go\n└── shard.go\n```\n");
    repo.commit("notes", MEMORY);
    std::fs::create_dir_all(repo.dir.path().join("core")).unwrap();
    repo.git(&["mv", "internal", "core/internal"]);
    repo.commit("move internal under core", LATER);
    expect(
        "moved tree",
        &repo,
        "AGENTS.md",
        &[
            ("internal/cache", "STALE", Some("core/internal/cache")),
            ("internal/cache/lru.go", "STALE", Some("core/internal/cache/lru.go")),
            ("internal/cache/shard.go", "STALE", Some("core/internal/cache/shard.go")),
        ],
    );
}

#[test]
fn a_file_renamed_with_a_prefix_in_commits_of_its_own_is_stale() {
    let repo = GitRepo::new();
    repo.write("prompts/create-pr.md", &body("createPr", 20));
    repo.write("prompts/review.md", &body("review", 20));
    repo.commit("start", BEFORE);
    repo.write("AGENTS.md", "# Prompts\n\nThe PR prompt is `prompts/create-pr.md`.\n");
    repo.commit("notes", MEMORY);
    // Added under the new name in one commit, the old one deleted in the next: git never
    // pairs them.
    repo.write("prompts/archon-create-pr.md", &(body("createPr", 20) + "one more line\n"));
    repo.commit("add the archon prompt", LATER);
    std::fs::remove_file(repo.dir.path().join("prompts/create-pr.md")).unwrap();
    repo.commit("drop the old prompt", LATEST);
    expect(
        "prefix rename",
        &repo,
        "AGENTS.md",
        &[("prompts/create-pr.md", "STALE", Some("prompts/archon-create-pr.md"))],
    );
}

#[test]
fn a_file_extracted_into_a_new_package_is_stale_with_where_most_of_it_went() {
    let repo = GitRepo::new();
    let old = body("runner", 40);
    repo.write("src/testing/runner.ts", &old);
    repo.write("src/index.ts", &body("index", 10));
    repo.commit("start", BEFORE);
    repo.write("AGENTS.md", "# Notes\n\nThe test runner is `src/testing/runner.ts`.\n");
    repo.commit("notes", MEMORY);
    // Split in one commit: most of its lines go to a new package's file, the rest elsewhere;
    // no file keeps half of it, so git records a deletion.
    let lines: Vec<&str> = old.lines().collect();
    repo.write("packages/sqltest/src/run.ts", &(lines[..26].join("\n") + "\n" + &body("extra", 30)));
    repo.write("src/helpers.ts", &(lines[26..].join("\n") + "\n" + &body("helpers", 20)));
    std::fs::remove_file(repo.dir.path().join("src/testing/runner.ts")).unwrap();
    repo.commit("extract the runner into packages/sqltest", LATER);
    expect(
        "extraction",
        &repo,
        "AGENTS.md",
        &[("src/testing/runner.ts", "STALE", Some("packages/sqltest/src/run.ts"))],
    );
}

#[test]
fn a_doc_moved_and_reindented_in_one_commit_is_stale_with_where_it_went() {
    let repo = GitRepo::new();
    let old: String =
        (0..12).map(|i| format!("- Commit rule number {i} of the project\n  continued here {i}\n")).collect();
    repo.write("doc/git-commit-instructions.md", &format!("# Instructions for Git Commits\n\n{old}"));
    repo.write("src/index.ts", &body("index", 10));
    repo.commit("start", BEFORE);
    repo.write("AGENTS.md", "# Notes\n\nCommit messages follow `doc/git-commit-instructions.md`.\n");
    repo.commit("notes", MEMORY);
    // Moved and re-indented in one commit: every line differs in its spaces, so git records a
    // deletion and an addition, not a rename.
    let new: String = (0..12).map(|i| format!("-   Commit rule number {i} of the project\n")).collect();
    repo.write(".github/instructions/git-commit.instructions.md", &format!("# Instructions for Git Commits\n\n{new}"));
    std::fs::remove_file(repo.dir.path().join("doc/git-commit-instructions.md")).unwrap();
    repo.commit("reorganise the instructions", LATER);
    expect(
        "moved and re-indented",
        &repo,
        "AGENTS.md",
        &[("doc/git-commit-instructions.md", "STALE", Some(".github/instructions/git-commit.instructions.md"))],
    );
}

#[test]
fn a_near_copy_deleted_beside_a_rename_is_gone_not_moved_into_the_renamed_file() {
    let repo = GitRepo::new();
    let v1 = body("engine", 30);
    let v2 = v1.replace("Step29", "StepLast");
    repo.write("src/execution/v1.ts", &v1);
    repo.write("src/execution/v2.ts", &v2);
    repo.commit("start", BEFORE);
    repo.write("AGENTS.md", "# Notes\n\nThe engines are `src/execution/v1.ts` and `src/execution/v2.ts`.\n");
    repo.commit("notes", MEMORY);
    // One commit renames v1.ts to engine.ts and deletes v2.ts, most of whose lines engine.ts
    // holds too: engine.ts is v1.ts's successor, and v2.ts is gone.
    repo.write("src/execution/engine.ts", &v1);
    std::fs::remove_file(repo.dir.path().join("src/execution/v1.ts")).unwrap();
    std::fs::remove_file(repo.dir.path().join("src/execution/v2.ts")).unwrap();
    repo.commit("one engine", LATER);
    expect(
        "near copy",
        &repo,
        "AGENTS.md",
        &[
            ("src/execution/v1.ts", "STALE", Some("src/execution/engine.ts")),
            ("src/execution/v2.ts", "CONTRADICTED", None),
        ],
    );
}

#[test]
fn a_bare_name_whose_root_namesake_went_before_the_memory_names_what_has_it_now() {
    let repo = GitRepo::new();
    repo.write("runtime/old.js", &body("old", 5));
    repo.write("packages/core/src/runtime/index.ts", &body("runtime", 10));
    repo.write("packages/core/src/server/index.ts", &body("server", 10));
    repo.commit("start", BEFORE);
    std::fs::remove_dir_all(repo.dir.path().join("runtime")).unwrap();
    repo.commit("drop the old runtime", LATER);
    repo.write("AGENTS.md", "# Notes\n\nCode in `runtime/` must not import Node APIs; `server/` may.\n");
    repo.commit("notes", LATEST);
    expect("bare name", &repo, "AGENTS.md", &[("runtime", "VALID", None), ("server", "VALID", None)]);
}

#[test]
fn a_symbol_renamed_by_substitution_names_what_took_its_place() {
    let repo = GitRepo::new();
    repo.write(
        "src/client.ts",
        "export interface IAssistantClient {\n  send(text: string): void;\n  reset(): void;\n}\n",
    );
    repo.write(
        "src/app.ts",
        "import { IAssistantClient } from './client';\nconst client: IAssistantClient = make();\nfunction use(c: IAssistantClient) { return c; }\n",
    );
    repo.commit("start", BEFORE);
    repo.write(
        "AGENTS.md",
        "# Notes\n\n`IAssistantClient` in `src/client.ts` is the model client every caller uses.\n",
    );
    repo.commit("notes", MEMORY);
    // One commit renames it everywhere and rewrites its members: no body left to match.
    repo.write(
        "src/client.ts",
        "export interface IAgentProvider {\n  stream(prompt: string, signal: AbortSignal): AsyncIterable<string>;\n  close(): Promise<void>;\n  readonly id: string;\n}\n",
    );
    repo.write(
        "src/app.ts",
        "import { IAgentProvider } from './client';\nconst client: IAgentProvider = make();\nfunction use(c: IAgentProvider) { return c; }\n",
    );
    repo.commit("IAssistantClient becomes IAgentProvider", LATER);
    let tmp = tempfile::tempdir().unwrap();
    let report =
        run_json(repo.dir.path(), &repo.dir.path().join("AGENTS.md").display().to_string(), &tmp.path().join("store"));
    let claim = report["memories"][0]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code_refs"][0]["symbol"].as_str().is_some_and(|s| s.starts_with("IAssistantClient")))
        .unwrap_or_else(|| panic!("no claim for IAssistantClient: {report:#}"))
        .clone();
    assert_eq!(claim["verdict"], "STALE", "{claim:#}");
    assert_eq!(claim["successor"], "IAgentProvider", "{claim:#}");
    assert!(claim["since"]["commit"].is_string(), "{claim:#}");
}
