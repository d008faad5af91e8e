//! Words a memory writes in backticks that are not references, and references the extractor
//! paired with the wrong file: found on real, current notes (notes and tree of the same
//! commit), where every claim should be VALID unless the notes rotted. Each case would have
//! been a false STALE or CONTRADICTED before; the guards at the end keep the real defects.

use std::path::Path;
use std::process::Command;

use memval_investigator::Evidence;
use memval_proto::{Assertion, Claim, ClaimType, CodeRef, MemoryMeta, Outcome, Source, Verdict};

fn memory() -> MemoryMeta {
    MemoryMeta {
        id: "m1".into(),
        agent: "notes".into(),
        tier: 0,
        kind: "memory".into(),
        created_at: None,
        updated_at: None,
        source: Source { path: "AGENTS.md".into(), line: None, row: None, format: "notes".into() },
        first_line: 1,
    }
}

fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
}

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), files);
    dir
}

fn git(root: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(root)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A repository whose history is one commit per element of `commits`.
fn repo(commits: &[&[(&str, &str)]]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    for (i, files) in commits.iter().enumerate() {
        write(dir.path(), files);
        git(dir.path(), &["add", "-A"]);
        git(dir.path(), &["commit", "-q", "-m", &format!("c{i}")]);
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

fn config(key: &str, value: &str) -> Claim {
    claim(
        ClaimType::Configuration,
        vec![CodeRef { symbol: Some(key.into()), ..path(".") }],
        Some(Assertion::ConfigValue { key: key.into(), value: value.into() }),
    )
}

enum Want {
    /// The verdict, words the evidence must hold, and words it must not.
    Verdict(Verdict, &'static [&'static str], &'static [&'static str]),
    NotChecked(&'static [&'static str]),
}

fn run(root: &Path, cases: Vec<(&str, Claim, Want)>) {
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    for (name, claim, want) in cases {
        let got = checker.check(&claim, &memory());
        match (&want, &got) {
            (Want::Verdict(v, has, lacks), Outcome::Checked { verdict, evidence, .. }) => {
                assert_eq!(verdict, v, "{name}: {evidence}");
                for w in *has {
                    assert!(evidence.contains(w), "{name}: {w:?} not in {evidence:?}");
                }
                for w in *lacks {
                    assert!(!evidence.contains(w), "{name}: {w:?} in {evidence:?}");
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

#[test]
fn words_and_conventions_are_not_read_as_missing_code() {
    let mut files: Vec<(String, String)> =
        (0..8).map(|i| (format!(".github/workflows/w{i}.yml"), "on: push\n".to_string())).collect();
    files.extend(
        [
            (".gitignore", "dist/\n/target\n*.log\n"),
            ("docs/agent.md", "# Agent\n\nThe `Agent` class runs a model.\n"),
            ("src/agent.py", "class Agent:\n    pass\n"),
            ("src/main.go", "package main\n\nimport \"os\"\n\nfunc main() {\n\tif os.Getenv(\"UPDATE_SNAPS\") == \"true\" {\n\t\tansi.Cut(\"x\", 1)\n\t}\n}\n"),
            ("include/vt/kinds.h", "enum kinds {\n  KIND_A = 0,\n  KIND_MAX_VALUE = ENUM_MAX_VALUE,\n};\n"),
            ("src/parse.test.ts", "test('x', () => {});\n"),
            ("src/render.test.ts", "test('y', () => {});\n"),
            ("tests/test_edge_int.py", "def test_edge():\n    pass\n"),
        ]
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string())),
    );
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = tree(&refs);
    run(
        dir.path(),
        vec![
            (
                "a symbol named beside the doc that describes it is judged by itself",
                claim(ClaimType::SymbolReference, vec![symbol("docs/agent.md", "Agent")], None),
                Want::Verdict(Verdict::Valid, &["src/agent.py:1", "prose or data"], &[]),
            ),
            (
                "a library's name the code uses is not missing code",
                claim(ClaimType::SymbolReference, vec![symbol(".", "ansi.Cut")], None),
                Want::Verdict(Verdict::Valid, &["src/main.go:7", "used by the repo's code"], &[]),
            ),
            (
                "a quoted line of code, given without a file, is found where it is written",
                config("_MAX_VALUE", "ENUM_MAX_VALUE"),
                Want::Verdict(Verdict::Valid, &["include/vt/kinds.h:3"], &[".github"]),
            ),
            (
                "a variable the code reads: how to set it, not a setting in a file",
                config("UPDATE_SNAPS", "true"),
                Want::Verdict(Verdict::Valid, &["src/main.go:6", "still names UPDATE_SNAPS"], &[]),
            ),
            (
                "a key nothing names is CONTRADICTED, without a list of every config file read",
                config("GONE_KNOB", "1"),
                Want::Verdict(Verdict::Contradicted, &["GONE_KNOB", "config files read"], &["w0.yml", "w7.yml"]),
            ),
            (
                "a `path/to/` example is not a file of the repo",
                claim(ClaimType::FileReference, vec![path("path/to/file.ts")], None),
                Want::NotChecked(&["reads as an example", "path/to/"]),
            ),
            (
                "a `my_feature` stand-in is not a file of the repo",
                claim(ClaimType::FileReference, vec![path("tests/specs/my_feature/main.ts")], None),
                Want::NotChecked(&["reads as an example"]),
            ),
            (
                "without history an ignored path may have been tracked once: not skipped",
                claim(ClaimType::FileReference, vec![path("dist/")], None),
                Want::Verdict(Verdict::Contradicted, &["dist"], &[]),
            ),
            (
                "a file-name ending is a convention, checked as one",
                claim(ClaimType::FileReference, vec![path(".test.ts")], None),
                Want::Verdict(Verdict::Valid, &["naming pattern", "parse.test.ts"], &[]),
            ),
            (
                "an affix of names is a convention, checked as one",
                claim(ClaimType::SymbolReference, vec![symbol(".", "_int")], None),
                Want::Verdict(Verdict::Valid, &["naming pattern", "test_edge_int"], &[]),
            ),
            // Guards: real defects stay defects.
            (
                "a missing file that reads like a real path is still CONTRADICTED",
                claim(ClaimType::FileReference, vec![path("src/cache/lru.go")], None),
                Want::Verdict(Verdict::Contradicted, &["src/cache/lru.go"], &[]),
            ),
            (
                "an affix nothing carries is not made VALID",
                claim(ClaimType::SymbolReference, vec![symbol(".", "_nowhere")], None),
                Want::Verdict(Verdict::Contradicted, &["_nowhere"], &["naming pattern"]),
            ),
            (
                "a symbol missing from a code file, defined nowhere, is still CONTRADICTED",
                claim(ClaimType::SymbolReference, vec![symbol("src/agent.py", "Planner")], None),
                Want::Verdict(Verdict::Contradicted, &["Planner"], &[]),
            ),
        ],
    );
}

#[test]
fn with_history_a_file_that_never_defined_the_symbol_does_not_make_it_moved() {
    let list = "package list\n\n// List is a scrolling list.\ntype List struct {\n\titems []string\n}\n";
    let ui = "package model\n\nimport \"example.invalid/ui/list\"\n\ntype Chat struct {\n\tl list.List\n}\n";
    let dir = repo(&[
        &[
            ("ui/list/list.go", list),
            ("ui/model/chat.go", ui),
            ("README.md", "Use `camelCase` for locals.\n"),
            ("ci/test.yml", "env:\n  E2E_TOKEN: ${{ secrets.E2E_TOKEN }}\n"),
            (".gitignore", "dist/\n"),
        ],
        // Foo lived in a.go, then moved to b.go.
        &[("ui/model/a.go", "package model\n\nfunc Foo() int { return 1 }\n")],
        &[("ui/model/a.go", "package model\n"), ("ui/model/b.go", "package model\n\nfunc Foo() int { return 1 }\n")],
    ]);
    run(
        dir.path(),
        vec![
            (
                "`list.List` named beside the file that uses it: VALID where it is defined",
                claim(ClaimType::SymbolReference, vec![symbol("ui/model/chat.go", "list.List")], None),
                Want::Verdict(Verdict::Valid, &["ui/list/list.go:4", "git shows no version of it that did"], &[]),
            ),
            (
                "a symbol that really left its file is still STALE with where it went",
                claim(ClaimType::SymbolReference, vec![symbol("ui/model/a.go", "Foo")], None),
                Want::Verdict(Verdict::Stale, &["ui/model/b.go"], &[]),
            ),
            (
                "a build output git ignores, which history never had, is not expected in a checkout",
                claim(ClaimType::FileReference, vec![path("dist/")], None),
                Want::NotChecked(&["git ignores it", ".gitignore: `dist/`"]),
            ),
            (
                "a term only config names, never the code, is reported, not asserted CONTRADICTED",
                claim(ClaimType::SymbolReference, vec![symbol(".", "E2E_TOKEN")], None),
                Want::Verdict(Verdict::Ambiguous, &["not a name of the repo's code", "config name it"], &[]),
            ),
            (
                "a name only prose has, never in code or its history, stays CONTRADICTED",
                claim(ClaimType::SymbolReference, vec![symbol(".", "camelCase")], None),
                Want::Verdict(Verdict::Contradicted, &["camelCase"], &[]),
            ),
            (
                "a name nothing has at all stays CONTRADICTED",
                claim(ClaimType::SymbolReference, vec![symbol(".", "BeaconFerry")], None),
                Want::Verdict(Verdict::Contradicted, &["BeaconFerry"], &[]),
            ),
        ],
    );
}

/// Past the history-search budget a name's verdict is what it would be had git been asked
/// and found nothing either way: a term that tests, comments, strings or config name is
/// reported, not asserted CONTRADICTED, and the evidence says git was not asked.
#[test]
fn past_the_history_search_budget_a_term_is_reported_not_contradicted() {
    let dir = repo(&[
        &[("src/lib.rs", "pub fn serve() {}\n"), ("ci/test.yml", "env:\n  E2E_TOKEN: ${{ secrets.E2E_TOKEN }}\n")],
        &[("src/lib.rs", "pub fn serve() { let _ = 1; }\n")],
    ]);
    let evidence = Evidence::open(dir.path()).unwrap();
    let checker = evidence.checker();
    for i in 0..memval_git::MAX_NAME_SEARCHES {
        let spent = claim(ClaimType::SymbolReference, vec![symbol(".", &format!("UnknownName{i}"))], None);
        checker.check(&spent, &memory());
    }
    let got = checker.check(&claim(ClaimType::SymbolReference, vec![symbol(".", "E2E_TOKEN")], None), &memory());
    match got {
        Outcome::Checked { verdict, evidence, .. } => {
            assert_eq!(verdict, Verdict::Ambiguous, "{evidence}");
            assert!(
                evidence.contains("history not searched for it") && evidence.contains("is not known"),
                "{evidence}"
            );
        }
        other => panic!("{other:?}"),
    }
    // A name nothing names at all is still CONTRADICTED.
    let got = checker.check(&claim(ClaimType::SymbolReference, vec![symbol(".", "BeaconFerry")], None), &memory());
    assert!(matches!(got, Outcome::Checked { verdict: Verdict::Contradicted, .. }), "{got:?}");
}
