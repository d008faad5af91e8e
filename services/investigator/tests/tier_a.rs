//! Tier A rules through the public checker, on small trees without history: every
//! reference of a claim is checked, and without history a verdict says so.

use memval_investigator::Evidence;
use memval_proto::{Assertion, Claim, ClaimType, CodeRef, MemoryMeta, Outcome, Source, Verdict};

const LRU: &str = "package cache\n\n// ShardedCache spreads keys over shards.\ntype ShardedCache struct {\n\tshards []int\n}\n\nconst MaxShards = 16\n";

fn memory() -> MemoryMeta {
    MemoryMeta {
        id: "m1".into(),
        agent: "notes".into(),
        tier: 0,
        kind: "memory".into(),
        created_at: None,
        updated_at: None,
        source: Source { path: "CLAUDE.md".into(), line: None, row: None, format: "notes".into() },
        first_line: 1,
    }
}

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    dir
}

fn path(p: &str) -> CodeRef {
    CodeRef::path(p)
}

fn symbol(p: &str, s: &str) -> CodeRef {
    CodeRef { symbol: Some(s.into()), ..CodeRef::path(p) }
}

fn claim(claim_type: ClaimType, refs: Vec<CodeRef>, assertion: Option<Assertion>) -> Claim {
    Claim { claim_type, claim_text: "claim".into(), line: 1, lines: vec![1], code_refs: refs, assertion }
}

/// What a case expects: a verdict, or not checked; and words the evidence or reason must hold.
enum Want {
    Verdict(Verdict, &'static [&'static str]),
    NotChecked(&'static [&'static str]),
}

#[test]
fn every_reference_of_a_claim_is_checked() {
    let dir = tree(&[
        ("cache/lru.go", LRU),
        ("main.go", "package main\n\nfunc main() {}\n"),
        ("config.toml", "max_shards = 16\n"),
    ]);
    let evidence = Evidence::open(dir.path()).unwrap();
    let checker = evidence.checker();
    let cases: Vec<(&str, Claim, Want)> = vec![
        (
            "a file claim whose second path is gone is not VALID on its first",
            claim(ClaimType::FileReference, vec![path("main.go"), path("cache/gone.go")], None),
            Want::Verdict(Verdict::Contradicted, &["cache/gone.go", "other references: VALID: main.go"]),
        ),
        (
            "every path present: VALID, and each is named",
            claim(ClaimType::FileReference, vec![path("main.go"), path("cache/lru.go")], None),
            Want::Verdict(Verdict::Valid, &["main.go", "cache/lru.go"]),
        ),
        (
            "a symbol claim whose second symbol is not defined",
            claim(
                ClaimType::SymbolReference,
                vec![symbol("cache/lru.go", "ShardedCache"), symbol("cache/lru.go", "NoSuchThing")],
                None,
            ),
            Want::Verdict(Verdict::Contradicted, &["NoSuchThing"]),
        ),
        (
            "a reference that cannot be checked (outside the repo) keeps the claim from VALID",
            claim(ClaimType::FileReference, vec![path("."), path("/etc/passwd")], None),
            Want::NotChecked(&["not checked: /etc/passwd", "checked: VALID"]),
        ),
        (
            "a proven defect stands, and the reference left unchecked is named",
            claim(ClaimType::FileReference, vec![path("gone.go"), path("../outside.txt")], None),
            Want::Verdict(Verdict::Contradicted, &["gone.go", "not checked: ../outside.txt"]),
        ),
        (
            "a config value is asserted of the first file; the second reference is checked too",
            claim(
                ClaimType::Configuration,
                vec![CodeRef { symbol: Some("max_shards".into()), ..path("config.toml") }, path("docs/tuning.md")],
                Some(Assertion::ConfigValue { key: "max_shards".into(), value: "16".into() }),
            ),
            Want::Verdict(Verdict::Contradicted, &["docs/tuning.md"]),
        ),
        (
            "a behavioural claim with its second anchor gone is CONTRADICTED, not held back by the first",
            claim(ClaimType::Behavioral, vec![path("main.go"), path("cache/gone.go")], None),
            Want::Verdict(Verdict::Contradicted, &["cache/gone.go", "is gone"]),
        ),
        (
            "a behavioural claim whose anchors all exist still needs a model, and lists every anchor",
            claim(ClaimType::Behavioral, vec![path("main.go"), path("cache/lru.go")], None),
            Want::NotChecked(&["needs an LLM investigator", "main.go", "cache/lru.go"]),
        ),
    ];
    for (name, claim, want) in cases {
        let got = checker.check(&claim, &memory());
        match (&want, &got) {
            (Want::Verdict(v, words), Outcome::Checked { verdict, evidence, .. }) => {
                assert_eq!(verdict, v, "{name}: {evidence}");
                for w in *words {
                    assert!(evidence.contains(w), "{name}: {w:?} not in {evidence:?}");
                }
            }
            (Want::NotChecked(words), Outcome::NotChecked { reason }) => {
                for w in *words {
                    assert!(reason.contains(w), "{name}: {w:?} not in {reason:?}");
                }
            }
            _ => panic!("{name}: got {got:?}"),
        }
    }
}

/// Check the file claims of one memory (each claim one path) against `files`, without
/// history, the way a batch does: each claim in the light of the memory's other references.
fn check_memory(files: &[(&str, &str)], refs: &[CodeRef]) -> Vec<Outcome> {
    let dir = tree(files);
    let evidence = Evidence::open(dir.path()).unwrap();
    let claims: Vec<Claim> = refs
        .iter()
        .map(|r| match &r.symbol {
            Some(_) => claim(ClaimType::SymbolReference, vec![r.clone()], None),
            None => claim(ClaimType::FileReference, vec![r.clone()], None),
        })
        .collect();
    let batch = memval_proto::ClaimBatch {
        run: memval_proto::RunHeader {
            run_id: "r".into(),
            repo: "repo".into(),
            commit: None,
            started_at: 0,
            expected_memories: 1,
        },
        batch_id: "b".into(),
        items: vec![memval_proto::ExtractedMemory {
            memory: memory(),
            claims,
            skip_reason: None,
            left_out: Vec::new(),
        }],
    };
    evidence.check_batch(batch).items.remove(0).results.into_iter().map(|r| r.outcome).collect()
}

#[test]
fn without_history_a_reading_needs_the_memory_to_back_it() {
    const TS: &str = "export function parse(input: string) { return input; }\n";
    // (name, files now, the memory's references, the first reference's verdict, its
    // successor, words its evidence holds)
    type Case = (
        &'static str,
        Vec<(&'static str, &'static str)>,
        Vec<CodeRef>,
        Verdict,
        Option<&'static str>,
        &'static [&'static str],
    );
    let cases: Vec<Case> = vec![
        (
            "a path whose first folder left the root, found only under a prefix the memory never names: moved",
            vec![("apps/vscode/webview-ui/src/App.tsx", TS), ("README.md", "x\n")],
            vec![path("webview-ui/src/App.tsx"), path("README.md")],
            Verdict::Stale,
            Some("apps/vscode/webview-ui/src/App.tsx"),
            &["no history", "unconfirmed"],
        ),
        (
            "the same, when the memory names that prefix: written relative to it",
            vec![("apps/vscode/webview-ui/src/App.tsx", TS), ("apps/vscode/package.json", "{}\n")],
            vec![path("webview-ui/src/App.tsx"), path("apps/vscode/package.json")],
            Verdict::Valid,
            None,
            &["a folder the memory names"],
        ),
        (
            "a path whose first folder is still at the root is an abbreviation inside it",
            vec![("src/app/core/task.ts", TS), ("src/index.ts", TS)],
            vec![path("core/task.ts"), path("src/index.ts")],
            Verdict::Valid,
            None,
            &["a folder the memory names (src/index.ts)"],
        ),
        (
            "a bare folder in several places, one of which holds the memory's other (moved) paths",
            vec![
                ("apps/vscode/src/core/api.ts", TS),
                ("apps/vscode/src/shared/tools.ts", TS),
                ("docs/src/intro.md", "x\n"),
            ],
            vec![path("src"), path("src/core/api.ts"), path("src/shared/tools.ts")],
            Verdict::Stale,
            Some("apps/vscode/src"),
            &["as are 2 other paths the memory names"],
        ),
        (
            "a bare folder gone from the root, several deeper and nothing the memory says ties one to it: gone",
            vec![("a/parser/x.rs", "fn x() {}\n"), ("b/parser/y.rs", "fn y() {}\n")],
            vec![path("parser")],
            Verdict::Contradicted,
            None,
            &[
                "no history",
                "nothing the memory names ties it to the 2 folders of that name deeper (a/parser, b/parser)",
            ],
        ),
        (
            "a bare folder in several places, one holding the package named like it (less the project's prefix): moved",
            vec![
                ("sqlite/parser/Cargo.toml", "[package]\nname = \"tur_parser\"\n"),
                ("postgres/parser/Cargo.toml", "[package]\nname = \"tur_pg_parser\"\n"),
                ("core/Cargo.toml", "[package]\nname = \"tur_core\"\n"),
                ("testing/src/parser/mod.rs", "fn p() {}\n"),
            ],
            vec![path("parser")],
            Verdict::Stale,
            Some("sqlite/parser"),
            &["no history", "named tur_parser", "unconfirmed"],
        ),
        (
            "a folder whose package (by its manifest's name) is now in another folder: moved",
            vec![
                ("internal/standard-tests/package.json", "{\n  \"name\": \"@lc/standard-tests\"\n}\n"),
                ("libs/lc-core/package.json", "{\"name\": \"@lc/core\"}\n"),
                ("libs/lc-openai/package.json", "{\"name\": \"@lc/openai\"}\n"),
            ],
            vec![path("libs/lc-standard-tests")],
            Verdict::Stale,
            Some("internal/standard-tests"),
            &["no history", "named @lc/standard-tests"],
        ),
        (
            "a folder whose words are now reordered, numbered and plural: moved",
            vec![
                ("packages/3-targets/6-adapters/postgres/index.ts", TS),
                ("packages/3-targets/3-targets/postgres/index.ts", TS),
            ],
            vec![path("packages/targets/postgres-adapter")],
            Verdict::Stale,
            Some("packages/3-targets/6-adapters/postgres"),
            &["no history", "same words"],
        ),
        (
            "a path whose first folder is at the root, where the memory's other paths in it are, found only deeper: moved",
            vec![("docs/adr/001-x.md", "x\n"), ("dev/docs/CODING_STANDARDS.md", "x\n"), ("README.md", "x\n")],
            vec![path("docs/CODING_STANDARDS.md"), path("docs/adr"), path("README.md")],
            Verdict::Stale,
            Some("dev/docs/CODING_STANDARDS.md"),
            &["no history", "docs/ at the root, where the memory's other paths in it are, does not hold it"],
        ),
        (
            "the same when the memory names nothing else in that root folder: an abbreviation inside another",
            vec![("docs/adr/001-x.md", "x\n"), ("dev/docs/CODING_STANDARDS.md", "x\n"), ("README.md", "x\n")],
            vec![path("docs/CODING_STANDARDS.md"), path("README.md")],
            Verdict::Valid,
            None,
            &["written relative to a folder"],
        ),
        (
            "a Cursor rule (`.mdc`) gone where one Markdown page of its stem now is: moved and converted",
            vec![("docs/contributing/adding-tools.md", "x\n"), ("docs/contributing/other.md", "x\n")],
            vec![path("docs/adding-tools.mdc")],
            Verdict::Stale,
            Some("docs/contributing/adding-tools.md"),
            &["no history", "same stem with another extension"],
        ),
        (
            "a path that differs only in letter case: renamed in case",
            vec![("docs/guide.md", "x\n"), ("docs/Other.md", "x\n")],
            vec![path("Docs/Guide.md")],
            Verdict::Stale,
            Some("docs/guide.md"),
            &["no history", "other letter case"],
        ),
        (
            "a folder gone where one sibling is its name with a word added: renamed",
            vec![
                ("packages/browser-rum/index.ts", TS),
                ("packages/browser-rum-core/index.ts", TS),
                ("packages/browser-core/index.ts", TS),
            ],
            vec![path("packages/rum"), path("packages/rum-core"), path("packages/core")],
            Verdict::Stale,
            Some("packages/browser-rum"),
            &["no history", "with one word added"],
        ),
        (
            "a first folder gone whose contents the memory's paths find at the root: moved up",
            vec![("pyproject.toml", "x\n"), ("tests/test_a.py", "x\n"), ("src/pkg/a.py", "x\n")],
            vec![path("sub/tests"), path("sub/pyproject.toml")],
            Verdict::Stale,
            Some("tests"),
            &["no history", "moved up"],
        ),
        (
            "one path alone found at the root proves nothing",
            vec![("tests/test_a.py", "x\n"), ("src/pkg/a.py", "x\n")],
            vec![path("sub/tests")],
            Verdict::Contradicted,
            None,
            &["share only its name"],
        ),
        (
            "a page gone where a folder of its stem holds SKILL.md: that page",
            vec![(".claude/skills/review/SKILL.md", "x\n"), (".claude/skills/other.md", "x\n")],
            vec![path(".claude/skills/review.md")],
            Verdict::Stale,
            Some(".claude/skills/review/SKILL.md"),
            &["no history", "is its page"],
        ),
        (
            "a file whose words are now in another style, the only one: renamed",
            vec![("scripts/publish_local.sh", "x\n"), ("scripts/run.sh", "x\n")],
            vec![path("publishLocal.sh")],
            Verdict::Stale,
            Some("scripts/publish_local.sh"),
            &["no history", "same words"],
        ),
        (
            "two siblings with a word added say nothing",
            vec![("androidApp/build.gradle.kts", "x\n"), ("desktopApp/build.gradle.kts", "x\n")],
            vec![path("app")],
            Verdict::Contradicted,
            None,
            &["not in the tree"],
        ),
        (
            "a folder whose named children went to different folders: split",
            vec![
                ("packages/3-targets/3-targets/postgres/index.ts", TS),
                ("packages/3-targets/6-adapters/postgres/index.ts", TS),
                ("packages/3-targets/7-drivers/postgres/index.ts", TS),
            ],
            vec![
                path("packages/targets"),
                path("packages/targets/postgres"),
                path("packages/targets/postgres-adapter"),
                path("packages/targets/postgres-driver"),
            ],
            Verdict::Ambiguous,
            None,
            &["packages/3-targets/3-targets", "packages/3-targets/6-adapters"],
        ),
        (
            "a folder whose named children all went to one folder (by their packages' names): moved there",
            vec![
                ("modules/alpha/package.json", "{\"name\": \"@p/alpha\"}\n"),
                ("modules/beta/package.json", "{\"name\": \"@p/beta\"}\n"),
                ("modules/gamma/package.json", "{\"name\": \"@p/gamma\"}\n"),
            ],
            vec![path("plugins"), path("plugins/alpha"), path("plugins/beta")],
            Verdict::Stale,
            Some("modules"),
            &["no history", "the 2 paths the memory names in plugins/ are all found under modules/"],
        ),
        (
            "a bare manifest gone from the root is the project's own, not a sub-project's: gone",
            vec![("examples/demo/requirements.txt", "x\n"), ("src/main.py", "x = 1\n")],
            vec![path("requirements.txt"), path("src/main.py")],
            Verdict::Contradicted,
            None,
            &["no history", "project's own", "examples/demo/requirements.txt"],
        ),
        (
            "a folder whose siblings in the memory moved to one folder, where an entry has a like name: moved",
            vec![
                ("packages/core-internal/src/shared/protocol.ts", TS),
                ("packages/core-internal/src/types/types.ts", TS),
                ("packages/core-internal/src/validators/ajv.ts", TS),
                ("packages/core/src/index.ts", TS),
            ],
            vec![
                path("packages/core/src/validation"),
                path("packages/core/src/shared/protocol.ts"),
                path("packages/core/src/types/types.ts"),
            ],
            Verdict::Stale,
            Some("packages/core-internal/src/validators"),
            &["no history", "found under packages/core-internal/src/"],
        ),
        (
            "a same-named folder the memory itself names as it is: not the successor",
            vec![("packages/client/src/client.ts", TS), ("examples/server/src/x.ts", TS)],
            vec![path("examples/client/src"), path("packages/client/src/client.ts")],
            Verdict::Contradicted,
            None,
            &["no history"],
        ),
        (
            "a file of a common name elsewhere, not in a folder of its old folder's name: gone",
            vec![
                ("internal/tests/src/base.ts", TS),
                ("a/base.ts", TS),
                ("b/base.ts", TS),
                ("internal/tests/package.json", "{}\n"),
            ],
            vec![path("internal/eslint/src/configs/base.ts"), path("internal/tests/package.json")],
            Verdict::Contradicted,
            None,
            &["no history", "3 files are named base.ts"],
        ),
        (
            "a bare folder in several places, none holding what the memory names in it: gone",
            vec![("a/cli/main.go", "package main\n"), ("b/cli/run.go", "package cli\n")],
            vec![path("cli"), path("cli/src/picker.tsx")],
            Verdict::Contradicted,
            None,
            &["no history", "holds what the memory names in it (cli/src/picker.tsx)"],
        ),
        (
            "a same-named file in an unrelated folder, nothing tying it to the memory: gone",
            vec![("tools/build/commands.ts", TS), ("src/main.ts", TS)],
            vec![path("src/core/prompts/commands.ts"), path("src/main.ts")],
            Verdict::Contradicted,
            None,
            &["no history", "share only its name"],
        ),
        (
            "a same-named file under a folder of the same name: moved",
            vec![(".agents/rules/style.mdc", "x\n")],
            vec![path(".cursor/rules/style.mdc")],
            Verdict::Stale,
            Some(".agents/rules/style.mdc"),
            &["close match by name"],
        ),
        (
            "a same-named file that defines the symbol the memory places in it: moved",
            vec![("lib/text/parse.ts", TS)],
            vec![path("src/utils/parse.ts"), symbol("src/utils/parse.ts", "parse")],
            Verdict::Stale,
            Some("lib/text/parse.ts"),
            &["close match by name"],
        ),
        (
            "of several same-named files, the one defining most of what the memory places in it: moved",
            vec![
                ("pkg/harness/flow/client.py", "class StreamEvent:\n    pass\n\ndef chat():\n    pass\n\ndef stream():\n    pass\n"),
                ("pkg/harness/flow/mcp/client.py", "def connect():\n    pass\n"),
                ("pkg/harness/flow/memory/client.py", "def chat():\n    pass\n"),
            ],
            vec![
                path("backend/src/client.py"),
                symbol("backend/src/client.py", "chat"),
                symbol("backend/src/client.py", "stream"),
                symbol("backend/src/client.py", "StreamEvent"),
            ],
            Verdict::Stale,
            Some("pkg/harness/flow/client.py"),
            &["no history", "defines 3 of the 3 names"],
        ),
        (
            "of several same-named files, two defining as much of what the memory places in it: gone",
            vec![
                ("pkg/a/client.py", "def chat():\n    pass\n\ndef stream():\n    pass\n"),
                ("pkg/b/client.py", "def chat():\n    pass\n\ndef stream():\n    pass\n"),
            ],
            vec![path("backend/src/client.py"), symbol("backend/src/client.py", "chat"), symbol("backend/src/client.py", "stream")],
            Verdict::Contradicted,
            None,
            &["no path ends with"],
        ),
        (
            "a same-named folder where the memory's other paths moved too (by suffix): moved",
            vec![("crates/node/index.ts", TS), ("crates/core/tests/compose.yml", "x\n")],
            vec![path("internal/node"), path("core/tests/compose.yml")],
            Verdict::Stale,
            Some("crates/node"),
            &["close match by name"],
        ),
        (
            "a same-named file whose old folder's other files are in the new folder: moved",
            vec![("docs/engineering/adr.md", "x\n"), ("docs/engineering/guide.md", "x\n")],
            vec![path("docs/architecture/adr.md"), path("docs/architecture/guide.md")],
            Verdict::Stale,
            Some("docs/engineering/adr.md"),
            &["close match by name"],
        ),
        (
            "a folder found only under a prefix that holds none of what the memory names in it: gone",
            vec![("clients/cli/main.ts", TS)],
            vec![path("cli"), path("cli/src/index.ts")],
            Verdict::Contradicted,
            None,
            &["holds none of what the memory names in it (cli/src/index.ts)"],
        ),
        (
            "a one-word folder whose plural now holds several packages, nothing else tying them: gone",
            vec![
                ("clients/web/package.json", "{\"name\": \"@i/web\"}\n"),
                ("clients/cli/package.json", "{\"name\": \"@i/cli\"}\n"),
                ("README.md", "x\n"),
            ],
            vec![path("client"), path("README.md")],
            Verdict::Contradicted,
            None,
            &["no git history"],
        ),
        (
            "a plural folder that holds what the memory names in the singular one: moved",
            vec![("examples/basic/main.py", "x = 1\n"), ("README.md", "x\n")],
            vec![path("example"), path("example/basic/main.py")],
            Verdict::Stale,
            Some("examples"),
            &["no history"],
        ),
        (
            "a package named like a deleted folder that holds none of what the memory names in it: gone",
            vec![("apps/cli/package.json", "{\"name\": \"@c/cli\"}\n"), ("apps/cli/src/index.ts", TS)],
            vec![path("cli"), path("cli/src/components/ModelPicker.tsx")],
            Verdict::Contradicted,
            None,
            &["no history"],
        ),
        (
            "a package named like the folder that holds what the memory names in it: moved",
            vec![("apps/cli/package.json", "{\"name\": \"@c/cli\"}\n"), ("apps/cli/src/components/Picker.tsx", TS)],
            vec![path("cli"), path("cli/src/components/Picker.tsx")],
            Verdict::Stale,
            Some("apps/cli"),
            &["no history"],
        ),
        (
            "the folder with the same words wins over a package that shares only the last name",
            vec![
                ("packages/3-targets/3-targets/postgres/index.ts", TS),
                ("packages/3-extensions/postgres/package.json", "{\"name\": \"@x/postgres\"}\n"),
                ("packages/3-extensions/sqlite/package.json", "{\"name\": \"@x/sqlite\"}\n"),
                ("packages/3-extensions/mongo/package.json", "{\"name\": \"@x/mongo\"}\n"),
            ],
            vec![path("packages/targets/postgres")],
            Verdict::Stale,
            Some("packages/3-targets/3-targets/postgres"),
            &["no history", "same words"],
        ),
        (
            "a folder gone with its parent, a like-named package elsewhere sharing nothing else of the path: gone",
            vec![
                ("packages/cli/e2e/fixtures/hello-world/package.json", "{\"name\": \"hello-world\"}\n"),
                ("packages/cli/package.json", "{\"name\": \"cli\"}\n"),
            ],
            vec![path("references/hello-world"), path("packages/cli/package.json")],
            Verdict::Contradicted,
            None,
            &["no history"],
        ),
        (
            "a tree drawn under the project's name: a missing row is reported at the reading whose folder is there",
            vec![("src/pkg/tools/other.py", "x = 1\n")],
            vec![CodeRef { alt_paths: vec!["src/pkg/tools/gone.py".into()], ..path("proj/src/pkg/tools/gone.py") }],
            Verdict::Contradicted,
            None,
            &["src/pkg/tools/gone.py — "],
        ),
        (
            "a bare name listed under a folder gone as a whole: reported at that folder, not the root",
            vec![("src/main.cpp", "int main() {}\n")],
            vec![CodeRef {
                alt_paths: vec!["Flags.cmake".into()],
                written: Some("Flags.cmake".into()),
                ..path("tests/cmake/Flags.cmake")
            }],
            Verdict::Contradicted,
            None,
            &["tests/cmake/Flags.cmake — "],
        ),
        (
            "a same-named file beside another path the memory names: moved",
            vec![("pkg/io/reader.go", "package io\n"), ("pkg/io/writer.go", "package io\n")],
            vec![path("internal/reader.go"), path("pkg/io/writer.go")],
            Verdict::Stale,
            Some("pkg/io/reader.go"),
            &["close match by name"],
        ),
        (
            "a numbered folder renumbered in its own folder, the file the memory names in it gone: moved",
            vec![("cookbook/08_learning/basic.py", "x = 1\n"), ("cookbook/09_evals/run.py", "x = 1\n")],
            vec![path("cookbook/15_learning"), path("cookbook/15_learning/CLAUDE.md")],
            Verdict::Stale,
            Some("cookbook/08_learning"),
            &["no history", "same words"],
        ),
        (
            "a folder with the same words in another folder, the file the memory names in it gone: gone",
            vec![("examples/08_learning/basic.py", "x = 1\n"), ("cookbook/09_evals/run.py", "x = 1\n")],
            vec![path("cookbook/15_learning"), path("cookbook/15_learning/CLAUDE.md")],
            Verdict::Contradicted,
            None,
            &["no git history"],
        ),
        (
            "the one file beside it whose name grows the old one by a suffix: moved",
            vec![("src/wasm/ui.cpp.hpp", "x\n"), ("src/wasm/js.cpp", "x\n")],
            vec![path("src/wasm/ui.cpp")],
            Verdict::Stale,
            Some("src/wasm/ui.cpp.hpp"),
            &["no history", "grows ui.cpp by an affix"],
        ),
        (
            "the one file beside it whose name grows the old one by a prefix: moved",
            vec![(".archon/commands/archon-create-pr.md", "x\n"), (".archon/commands/review.md", "x\n")],
            vec![path(".archon/commands/create-pr.md")],
            Verdict::Stale,
            Some(".archon/commands/archon-create-pr.md"),
            &["no history", "grows create-pr.md by an affix"],
        ),
        (
            "a file beside it that grows the old name, and the old name in an unrelated folder: moved beside",
            vec![("src/wasm/ui.cpp.hpp", "x\n"), ("src/wasm/js.cpp", "x\n"), ("tests/fl/ui/ui.cpp", "x\n")],
            vec![path("src/wasm/ui.cpp")],
            Verdict::Stale,
            Some("src/wasm/ui.cpp.hpp"),
            &["no history", "grows ui.cpp by an affix"],
        ),
        (
            "two files beside it grow the old name: gone, neither chosen",
            vec![("src/wasm/ui.cpp.hpp", "x\n"), ("src/wasm/ui.cpp.bak", "x\n")],
            vec![path("src/wasm/ui.cpp")],
            Verdict::Contradicted,
            None,
            &["no git history"],
        ),
        (
            "a bare name with a file at the root that grows it: gone, a bare name has no place",
            vec![("vite-config.ts", "x\n"), ("src/a.ts", "x\n")],
            vec![path("config.ts")],
            Verdict::Contradicted,
            None,
            &["no git history"],
        ),
        (
            "the only file of its name, now in a folder above its old one: moved up",
            vec![("CONTRIBUTING.md", "x\n"), ("docs/TESTING.md", "x\n")],
            vec![path("docs/CONTRIBUTING.md")],
            Verdict::Stale,
            Some("CONTRIBUTING.md"),
            &["no history", "close match by name"],
        ),
        (
            "the only file of its name but for vendored copies, now in a folder above its old one: moved up",
            vec![
                ("CONTRIBUTING.md", "x\n"),
                ("api/vendor/github.com/a/b/CONTRIBUTING.md", "x\n"),
                ("api/vendor/github.com/c/d/CONTRIBUTING.md", "x\n"),
                ("hack/vendor/e/CONTRIBUTING.md", "x\n"),
                (".github/workflows/ci.yml", "x\n"),
            ],
            vec![path(".github/CONTRIBUTING.md")],
            Verdict::Stale,
            Some("CONTRIBUTING.md"),
            &["no history", "close match by name"],
        ),
        (
            "the only file of its name, now in a subfolder of its old one: moved down",
            vec![(".github/scripts/labeling/labeler.json", "{}\n"), (".github/scripts/run.sh", "x\n")],
            vec![path(".github/scripts/labeler.json")],
            Verdict::Stale,
            Some(".github/scripts/labeling/labeler.json"),
            &["no history", "close match by name"],
        ),
        (
            "of two files of its name, the one in a subfolder of its old one: moved down",
            vec![
                ("backend/app/sample/hello.py", "x = 1\n"),
                ("backend/app/main.py", "x = 1\n"),
                ("cypress/fixtures/hello.py", "x = 1\n"),
            ],
            vec![path("backend/app/hello.py")],
            Verdict::Stale,
            Some("backend/app/sample/hello.py"),
            &["no history", "close match by name"],
        ),
        (
            "of two files of its name, both in subfolders of its old one: not shown moved",
            vec![
                ("backend/app/sample/hello.py", "x = 1\n"),
                ("backend/app/demo/hello.py", "x = 1\n"),
                ("backend/app/main.py", "x = 1\n"),
            ],
            vec![path("backend/app/hello.py")],
            Verdict::Contradicted,
            None,
            &["2 other places have its name"],
        ),
        (
            "a name many files share, in a subfolder of its old folder that is still there: that subfolder's own",
            vec![
                ("skills/clickhouse/README.md", "x\n"),
                ("skills/other.md", "x\n"),
                ("docs/README.md", "x\n"),
                ("README.md", "x\n"),
            ],
            vec![path("skills/README.md")],
            Verdict::Contradicted,
            None,
            &["no history", "a subfolder's own"],
        ),
        (
            "the only file of its name, in a folder beside its old one: not shown moved",
            vec![("guides/CONTRIBUTING.md", "x\n"), ("docs/TESTING.md", "x\n")],
            vec![path("docs/CONTRIBUTING.md")],
            Verdict::Contradicted,
            None,
            &["no history", "share only its name"],
        ),
        (
            "the only file of its name, in another folder of its old folder's parent: moved",
            vec![("test/test_common/normalization.jl", "x\n"), ("test/runtests.jl", "x\n")],
            vec![path("test/testsuite/normalization.jl")],
            Verdict::Stale,
            Some("test/test_common/normalization.jl"),
            &["no history"],
        ),
        (
            "a Rust module file gone, a folder of its name holding Rust files beside it: moved into the folder",
            vec![("crates/ra/src/handlers/request.rs", "fn a() {}\n"), ("crates/ra/src/main.rs", "fn main() {}\n")],
            vec![path("crates/ra/src/handlers.rs")],
            Verdict::Stale,
            Some("crates/ra/src/handlers"),
            &["no history", "a module that became a folder"],
        ),
        (
            "a Python module gone, a package of its name beside it: its __init__.py",
            vec![("src/cli/presets/__init__.py", "x = 1\n"), ("src/cli/presets/catalog.py", "x = 1\n")],
            vec![path("src/cli/presets.py")],
            Verdict::Stale,
            Some("src/cli/presets/__init__.py"),
            &["no history", "a module that became a folder"],
        ),
        (
            "the same stem in another language is not the file renamed: gone",
            vec![("lib/download_queue.rb", "x = 1\n"), ("lib/main.rb", "x = 1\n")],
            vec![path("rust/src/download_queue.rs")],
            Verdict::Contradicted,
            None,
            &["no git history"],
        ),
        (
            "the same stem, JavaScript turned TypeScript: moved",
            vec![("src/client.ts", "export const a = 1;\n"), ("src/main.ts", "export const b = 1;\n")],
            vec![path("src/client.js")],
            Verdict::Stale,
            Some("src/client.ts"),
            &["no history", "same stem with another extension"],
        ),
        (
            "a JavaScript module gone, a TypeScript folder of its name beside it: its index.ts",
            vec![("src/client/index.ts", "export const a = 1;\n"), ("src/client/http.ts", "export const b = 1;\n")],
            vec![path("src/client.js")],
            Verdict::Stale,
            Some("src/client/index.ts"),
            &["no history", "a module that became a folder"],
        ),
        (
            "a source file gone, a folder of its name holding no file of its language: gone",
            vec![("docs/guide/index.md", "x\n"), ("main.py", "x = 1\n")],
            vec![path("docs/guide.py")],
            Verdict::Contradicted,
            None,
            &["no git history"],
        ),
    ];
    for (name, files, refs, verdict, successor, words) in cases {
        let got = check_memory(&files, &refs);
        match &got[0] {
            Outcome::Checked { verdict: v, evidence, successor: s, confidence, since } => {
                assert_eq!((*v, s.as_deref()), (verdict, successor), "{name}: {evidence}");
                assert_eq!(*since, None, "{name}: without history nothing says since when");
                assert!(*confidence < 100, "{name}: without history no reading is certain ({confidence})");
                for w in words {
                    assert!(evidence.contains(w), "{name}: {w:?} not in {evidence:?}");
                }
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// `build.proj` in backticks reads as a member `proj` of `build`; a file of that name in the
/// repository is what it names (an extension memval does not know), not a missing symbol.
#[test]
fn a_dotted_name_that_is_a_file_of_the_repo_names_the_file() {
    let sym = |s: &str| CodeRef { symbol: Some(s.into()), ..CodeRef::path(".") };
    let got = check_memory(
        &[("build.proj", "<Project />\n"), ("src/build.rs", "pub fn run() {}\n")],
        &[sym("build.proj"), sym("build.nothing")],
    );
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("build.proj — a file of that name exists"), "{evidence}")
        }
        other => panic!("{other:?}"),
    }
    assert!(!matches!(&got[1], Outcome::Checked { verdict: Verdict::Valid, .. }), "{:?}", got[1]);
}
