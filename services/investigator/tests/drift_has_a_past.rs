//! Drift needs a past, measured where the memory says it: a change made before the memory's line
//! was written is not drift, and a setting a file never had is not one that changed.
//!
//! Real git, a real notes file committed in the repository; each case says what the memory
//! claims and what memval must answer.

use std::path::Path;

mod common;

use common::{commit_on_day as commit, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Assertion, Claim, ClaimType, CodeRef, MemoryMeta, Outcome, Source, Verdict};

/// The notes file `NOTES.md` of the repository at `root`, as `validate` loads it (its path as
/// the user gave it, here absolute), dated by its last commit.
fn notes(root: &Path, last_commit_day: i64) -> MemoryMeta {
    common::notes_file(root, "NOTES.md", START + last_commit_day * DAY)
}

fn claim(line: u32, claim_type: ClaimType, code_ref: CodeRef, assertion: Option<Assertion>) -> Claim {
    Claim { claim_type, claim_text: "claim".into(), line, lines: vec![line], code_refs: vec![code_ref], assertion }
}

fn symbol(line: u32, s: &str) -> Claim {
    claim(line, ClaimType::SymbolReference, CodeRef { symbol: Some(s.into()), ..CodeRef::path(".") }, None)
}

fn file(line: u32, p: &str) -> Claim {
    claim(line, ClaimType::FileReference, CodeRef::path(p), None)
}

fn setting(line: u32, p: &str, key: &str, value: &str) -> Claim {
    claim(
        line,
        ClaimType::Configuration,
        CodeRef { symbol: Some(key.into()), ..CodeRef::path(p) },
        Some(Assertion::ConfigValue { key: key.into(), value: value.into() }),
    )
}

/// What a case expects: a verdict, or not checked with words of its reason.
#[derive(Debug)]
enum Want {
    Verdict(Verdict),
    NotChecked(&'static str),
}

fn assert_case(name: &str, got: Outcome, want: &Want) {
    match (want, &got) {
        (Want::Verdict(v), Outcome::Checked { verdict, .. }) if verdict == v => {}
        (Want::NotChecked(words), Outcome::NotChecked { reason }) if reason.contains(words) => {}
        _ => panic!("{name}: wanted {want:?}, got {got:?}"),
    }
}

#[test]
fn a_change_made_before_the_line_was_written_is_not_drift() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "src/engine.rs", "pub struct Widget;\npub struct Gadget;\n");
        write(r, "src/old.rs", "pub fn old() {}\n");
        write(r, "docs/GUIDE.md", "# Guide\n\nHow to contribute.\n");
        write(r, "NOTES.md", "`Gadget` is the engine's second type.\nSee `src/old.rs`.\n");
    });
    // Day 1: `Widget` and `src/old.rs` go, `docs/GUIDE.md` moves to the root. Day 2: lines
    // naming them are added to the notes.
    commit(root, 1, |r| {
        write(r, "src/engine.rs", "pub struct Gadget;\n");
        std::fs::remove_file(r.join("src/old.rs")).unwrap();
        std::fs::rename(r.join("docs/GUIDE.md"), r.join("GUIDE.md")).unwrap();
    });
    commit(root, 2, |r| {
        write(
            r,
            "NOTES.md",
            "`Gadget` is the engine's second type.\nSee `src/old.rs`.\n`Widget` was folded into `Gadget`.\n`src/old.rs` is gone.\nRead [GUIDE.md](docs/GUIDE.md) first.\n`docs/GUIDE.md` moved to `GUIDE.md`.\nThe design: [old](src/old.rs).\n",
        );
    });
    // Day 3: `Gadget` goes, after every line naming it was written.
    commit(root, 3, |r| write(r, "src/engine.rs", "pub fn start(speed: u64) -> u64 {\n    speed * 3\n}\n"));
    // Not committed: a line an agent just added to the notes.
    write(
        root,
        "NOTES.md",
        "`Gadget` is the engine's second type.\nSee `src/old.rs`.\n`Widget` was folded into `Gadget`.\n`src/old.rs` is gone.\nRead [GUIDE.md](docs/GUIDE.md) first.\n`docs/GUIDE.md` moved to `GUIDE.md`.\nThe design: [old](src/old.rs).\nUse `Widget` for tests.\n",
    );

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 2);
    let cases = [
        ("a symbol removed after the line was written", symbol(1, "Gadget"), Want::Verdict(Verdict::Contradicted)),
        ("a file deleted after the line was written", file(2, "src/old.rs"), Want::Verdict(Verdict::Contradicted)),
        (
            "a symbol removed before the line was written",
            symbol(3, "Widget"),
            Want::NotChecked("with the change already made"),
        ),
        (
            "a file deleted before the line was written",
            file(4, "src/old.rs"),
            Want::NotChecked("with the change already made"),
        ),
        (
            "a file moved before the line was written, the line naming only its old place",
            file(5, "docs/GUIDE.md"),
            Want::Verdict(Verdict::Stale),
        ),
        (
            "a file moved before the line was written, the line naming its new place too",
            file(6, "docs/GUIDE.md"),
            Want::NotChecked("with the change already made"),
        ),
        (
            "a link written after its target was deleted is broken",
            file(7, "src/old.rs"),
            Want::Verdict(Verdict::Contradicted),
        ),
        (
            "a name said to be in a linked file deleted before the line was written",
            claim(
                7,
                ClaimType::SymbolReference,
                CodeRef { symbol: Some("old".into()), ..CodeRef::path("src/old.rs") },
                None,
            ),
            Want::NotChecked("with the change already made"),
        ),
        ("a line not committed yet is checked as before", symbol(8, "Widget"), Want::Verdict(Verdict::Contradicted)),
    ];
    for (name, claim, want) in cases {
        assert_case(name, checker.check(&claim, &memory), &want);
    }

    // A memory outside the repository (its path does not lead into it) is checked as before.
    let outside =
        MemoryMeta { source: Source { path: "elsewhere/NOTES.md".into(), ..memory.source.clone() }, ..memory.clone() };
    assert_case(
        "a memory outside the repository",
        checker.check(&symbol(3, "Widget"), &outside),
        &Want::Verdict(Verdict::Contradicted),
    );
}

#[test]
fn a_setting_is_drift_only_when_the_file_once_had_the_memorys_value() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "app.toml", "mode = \"fast\"\nretries = 3\n");
        write(r, "sample.ini", "# level = 5\nname = demo\n");
        write(r, "src/status.cs", "enum Status : byte\n{\n    Invited = 0,\n}\n");
        write(r, "src/settings.py", "TIMEOUT = LOGIN_TIMEOUT\n");
        write(r, "src/pins.h", "#define DT_PIN 18\n");
        write(r, "evals.json", "{\"text\": \"use data-icon=\\\"inline-start\\\" here\"}\n");
        write(r, ".circleci/config.yml", "env:\n  INCLUDE_DEPS: << parameters.include_deps >>\n");
        write(r, "chart/values.yaml", "replicas: 1\n");
        write(r, "tools/values.yaml", "name: tools\n");
        write(r, "NOTES.md", "notes\n");
    });
    commit(root, 1, |r| {
        write(r, "app.toml", "mode = \"fast\"\nretries = 5\n");
        write(r, "chart/values.yaml", "replicas: 3\n");
    });

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 0);
    let cases = [
        ("a value the file once had", setting(1, "app.toml", "retries", "3"), Want::Verdict(Verdict::Stale)),
        (
            "a value the file never had",
            setting(1, "app.toml", "mode", "slow"),
            Want::NotChecked("no version of app.toml"),
        ),
        (
            "a key only a commented line names",
            setting(1, "sample.ini", "level", "3"),
            Want::NotChecked("no version in git history set it"),
        ),
        ("an enum's base type is no value", setting(1, ".", "Status", "Invited"), Want::NotChecked("")),
        ("another name in code is no value", setting(1, ".", "TIMEOUT", "30"), Want::NotChecked("another name")),
        ("a C macro is a setting", setting(1, ".", "DT_PIN", "18"), Want::Verdict(Verdict::Valid)),
        (
            "quotes escaped inside a JSON string",
            setting(1, ".", "data-icon", "inline-start"),
            Want::Verdict(Verdict::Valid),
        ),
        (
            "a template filled in when the job runs is no value",
            setting(1, ".circleci/config.yml", "INCLUDE_DEPS", "false"),
            Want::NotChecked("a template"),
        ),
        (
            "another value in one of several files of the name the memory gave",
            setting(1, "values.yaml", "replicas", "1"),
            Want::NotChecked("which file the memory means is not known"),
        ),
        (
            "the same file, named by its path",
            setting(1, "chart/values.yaml", "replicas", "1"),
            Want::Verdict(Verdict::Stale),
        ),
    ];
    for (name, claim, want) in cases {
        assert_case(name, checker.check(&claim, &memory), &want);
    }
}

#[test]
fn a_line_the_file_never_reached_is_another_files() {
    let (_dir, root) = new_repo();
    let root = &root;
    let lines = |n: usize| (1..=n).map(|i| format!("int f{i}(void);\n")).collect::<String>();
    commit(root, 0, |r| {
        write(r, "src/hub.c", &lines(40));
        write(r, "src/long.c", &lines(60));
        write(r, "NOTES.md", "See `hub.c` line 3149.\nSee `src/long.c:50`.\n");
    });
    commit(root, 1, |r| write(r, "src/long.c", &lines(30)));
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 0);
    let at = |line: u32, p: &str, n: u32| {
        claim(line, ClaimType::FileReference, CodeRef { line: Some(n), ..CodeRef::path(p) }, None)
    };
    assert_case(
        "a line past every version of the file",
        checker.check(&at(1, "src/hub.c", 3149), &memory),
        &Want::NotChecked("no version of it in git history had a line 3149"),
    );
    assert_case(
        "a line the file had and lost",
        checker.check(&at(2, "src/long.c", 50), &memory),
        &Want::Verdict(Verdict::Stale),
    );
}

#[test]
fn a_removed_one_line_definition_is_not_renamed_to_a_neighbour_of_its_shape() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(
            r,
            "internal/config/config.go",
            "package config\n\ntype SQL struct {\n\tEngine string `json:\"engine\" yaml:\"engine\"`\n\tEmitSyncQuerier bool `json:\"emit_sync_querier\" yaml:\"emit_sync_querier\"`\n\tDatabase *Database `json:\"database\" yaml:\"database\"`\n}\n\ntype Database struct{}\n",
        );
        write(r, "NOTES.md", "Set `emit_sync_querier` to get a sync querier.\n");
    });
    commit(root, 1, |r| {
        write(
            r,
            "internal/config/config.go",
            "package config\n\ntype SQL struct {\n\tEngine string `json:\"engine\" yaml:\"engine\"`\n\tEmitExactTableNames bool `json:\"emit_exact_table_names\" yaml:\"emit_exact_table_names\"`\n\tDatabase *Database `json:\"database\" yaml:\"database\"`\n}\n\ntype Database struct{}\n",
        );
    });
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let claim = claim(
        1,
        ClaimType::SymbolReference,
        CodeRef { symbol: Some("emit_sync_querier".into()), ..CodeRef::path("internal/config/config.go") },
        None,
    );
    match checker.check(&claim, &notes(root, 0)) {
        Outcome::Checked { verdict: Verdict::Contradicted, .. } => {}
        other => panic!("a removed struct tag is removed, not renamed to the next field's: {other:?}"),
    }
}

#[test]
fn a_line_committed_after_the_change_but_dated_before_it_keeps_its_verdict() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| write(r, "src/old.rs", "pub fn old() {}\n"));
    commit(root, 2, |r| std::fs::remove_file(r.join("src/old.rs")).unwrap());
    // Notes written on day 1, before the deletion, committed on top of it with their own date
    // (a replayed or restored memory, as the real-history benchmark places old notes).
    commit(root, 1, |r| write(r, "NOTES.md", "See `src/old.rs`.\n"));
    let evidence = Evidence::open(root).unwrap();
    assert_case(
        "a line dated before the change",
        evidence.checker().check(&file(1, "src/old.rs"), &notes(root, 1)),
        &Want::Verdict(Verdict::Contradicted),
    );
}

#[test]
fn a_member_under_another_type_moved_only_if_git_saw_it_in_the_first() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "src/Assert.cs", "public static class Assert\n{\n    public static void IsTrue(bool c) {}\n    public static void Flush() {}\n}\n");
        write(r, "src/Telemetry.cs", "public static class Telemetry\n{\n    public const string True = \"true\";\n}\n");
        write(r, "NOTES.md", "Use `Assert.IsTrue`, not xUnit's `Assert.True`; `Assert.Flush` flushes.\n");
    });
    // `Flush` leaves `Assert` for `Buffer`: a move git saw.
    commit(root, 1, |r| {
        // `Assert` starts to use `Telemetry.True`: the name changes in its file, undefined there.
        write(
            r,
            "src/Assert.cs",
            "public static class Assert\n{\n    public static void IsTrue(bool c) {}\n    static string T => Telemetry.True;\n}\n",
        );
        write(r, "src/Buffer.cs", "public static class Buffer\n{\n    public static void Flush() {}\n}\n");
    });
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    assert_case(
        "a member that left its type",
        checker.check(&symbol(1, "Assert.Flush"), &notes(root, 0)),
        &Want::Verdict(Verdict::Stale),
    );
    // `True` was never a member of `Assert` here (xUnit's): `Telemetry::True` is no successor.
    assert_case(
        "another library's member",
        checker.check(&symbol(1, "Assert.True"), &notes(root, 0)),
        &Want::NotChecked("git never saw True defined under Assert"),
    );
}

#[test]
fn a_name_the_code_used_and_stopped_using_is_said_as_such() {
    let (_dir, root) = new_repo();
    let root = &root;
    // `loop_blocks` is a local of the code, never defined as an item; `NOTES.md` names it on day 0.
    commit(root, 0, |r| {
        write(
            r,
            "src/engine.rs",
            "pub fn run(blocks: Vec<u32>) -> u32 {\n    let loop_blocks = blocks.len() as u32;\n    loop_blocks * 2\n}\n",
        );
        write(r, "NOTES.md", "`run` keeps the blocks in `loop_blocks`.\n`LedgerQuartz` holds the totals.\n");
    });
    // Day 2: a refactor takes the local away.
    commit(root, 2, |r| {
        write(r, "src/engine.rs", "pub fn run(blocks: Vec<u32>) -> u32 {\n    blocks.len() as u32 * 2\n}\n")
    });

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 0);
    // Prose still names it (these notes): code that builds the name, or a refactor that moved it
    // out of sight, is as likely as drift: not checked, and the reason says what history shows.
    match checker.check(&symbol(1, "loop_blocks"), &memory) {
        Outcome::NotChecked { reason } => {
            assert!(reason.contains("no longer names it"), "{reason}");
            assert!(!reason.contains("never been a name"), "{reason}");
        }
        other => panic!("a local the code stopped using, named in the notes: wanted not checked, got {other:?}"),
    }
    // A memory kept elsewhere, whose name nothing in the repository has now: drift, since the
    // commit that took its last use, under the gate.
    let outside =
        MemoryMeta { source: Source { path: "elsewhere/NOTES.md".into(), ..memory.source.clone() }, ..memory.clone() };
    std::fs::write(root.join("NOTES.md"), "notes\n").unwrap();
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    match checker.check(&symbol(1, "loop_blocks"), &outside) {
        Outcome::Checked { verdict: Verdict::Contradicted, confidence, evidence, since, .. } => {
            assert!(evidence.contains("no longer named by the repo's code"), "{evidence}");
            assert!(confidence < 80, "a local's removal stays under the gate: {confidence}");
            assert_eq!(since.map(|s| s.date), Some(START + 2 * DAY), "since: the commit that took its last use");
        }
        other => panic!("a local the code stopped using: wanted CONTRADICTED, got {other:?}"),
    }
    // A name the code never had is still one it never had.
    match checker.check(&symbol(2, "LedgerQuartz"), &outside) {
        Outcome::Checked { verdict: Verdict::Contradicted, evidence, since: None, .. } => {
            assert!(evidence.contains("not a name of this repository"), "{evidence}")
        }
        other => panic!("a name no code ever had: wanted CONTRADICTED without since, got {other:?}"),
    }
}

#[test]
fn a_definition_that_left_with_a_vendored_dependency_is_the_dependencys() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(
            r,
            "vendor/github.com/acme/check/assert.go",
            "package check\n\nfunc NotNil(v any) bool {\n\treturn v != nil\n}\n\nfunc Eventually(f func() bool) bool {\n\treturn f()\n}\n",
        );
        write(r, "engine.go", "package engine\n\nfunc Start() int {\n\treturn 1\n}\n");
        write(r, "engine_test.go", "package engine\n\nfunc TestStart(t *testing.T) {\n\tcheck.NotNil(Start())\n}\n");
        write(r, "NOTES.md", "Tests assert with `check.NotNil`.\nWait with `check.Eventually`.\n");
    });
    // Day 2: the vendored copy goes; the module cache serves the dependency from now on.
    commit(root, 2, |r| std::fs::remove_dir_all(r.join("vendor")).unwrap());

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 0);
    match checker.check(&symbol(1, "check.NotNil"), &memory) {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("engine_test.go:4"), "{evidence}");
            assert!(evidence.contains("vendored copy"), "{evidence}");
        }
        other => panic!("a dependency's name the tests still use: wanted VALID, got {other:?}"),
    }
    assert_case(
        "a dependency's name nothing names any more",
        checker.check(&symbol(2, "check.Eventually"), &memory),
        &Want::NotChecked("vendored copy"),
    );
}

#[test]
fn a_one_line_definition_is_renamed_only_to_a_name_its_removing_commit_brought() {
    let (_dir, root) = new_repo();
    let root = &root;
    let options = |fields: &str| format!("export interface Options {{\n{fields}  logger: (m: string) => void;\n}}\n");
    commit(root, 0, |r| {
        write(r, "src/options.ts", &options("  propagate: boolean;\n  mergeObjects?: boolean;\n"));
        write(r, "NOTES.md", "`propagate` and `mergeObjects` are options.\n");
    });
    // Day 1: a field of the same shape is added. Day 2: `propagate` goes, and `mergeObjects` is
    // renamed in the same commit.
    commit(root, 1, |r| {
        write(r, "src/options.ts", &options("  propagate: boolean;\n  mergeObjects?: boolean;\n  colors: boolean;\n"))
    });
    commit(root, 2, |r| write(r, "src/options.ts", &options("  mergeEmbedded?: boolean;\n  colors: boolean;\n")));

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 0);
    let placed = |name: &str| {
        claim(
            1,
            ClaimType::SymbolReference,
            CodeRef { symbol: Some(name.into()), ..CodeRef::path("src/options.ts") },
            None,
        )
    };
    match checker.check(&placed("propagate"), &memory) {
        Outcome::Checked { verdict: Verdict::Contradicted, .. } => {}
        other => panic!("a field removed is not renamed to one added a day before: {other:?}"),
    }
    match checker.check(&placed("mergeObjects"), &memory) {
        Outcome::Checked { verdict: Verdict::Stale, successor: Some(s), .. } => assert_eq!(s, "mergeEmbedded"),
        other => panic!("a field renamed in one commit: wanted STALE -> mergeEmbedded, got {other:?}"),
    }
}

/// A bare folder name that two folders side by side have now (`tools/docs`, `website/docs`)
/// names each package's own only when the root had none when the memory was written: a root
/// `docs/` of the memory's day, deleted since, is the one it named (a tree diagram's top row);
/// so is a root folder named like the project itself.
#[test]
fn a_root_folder_of_the_memorys_day_is_the_one_a_bare_name_meant() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "docs/index.md", "# Docs\n");
        write(r, "docs/guide.md", "# Guide\n");
        write(r, "tools/docs/gen.py", "print(1)\n");
        write(r, "website/docs/intro.mdx", "# Intro\n");
        write(r, "README.md", "# toolkit\n\nA toolkit.\n");
        write(r, "toolkit/core.py", "x = 1\n");
        write(r, "NOTES.md", "```\nsrc/\ndocs/    # the site\ntoolkit/ # the library\n```\n");
    });
    commit(root, 1, |r| {
        std::fs::remove_dir_all(r.join("docs")).unwrap();
        std::fs::remove_dir_all(r.join("toolkit")).unwrap();
        write(r, "website/docs/other.mdx", "# Other\n");
    });
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    assert_case(
        "a root folder deleted after the memory was written",
        checker.check(&file(2, "docs"), &notes(root, 0)),
        &Want::Verdict(Verdict::Contradicted),
    );
    // The project's own name is no file, unless the root had one of that name on the day.
    assert_case(
        "a root folder named like the project, deleted after the memory was written",
        checker.check(&file(3, "toolkit"), &notes(root, 0)),
        &Want::Verdict(Verdict::Contradicted),
    );
}

/// A file git saw added and deleted again round after round (a `RELEASE.md` each change adds and
/// the release removes) is made per change: naming it is no claim that it stays. A file deleted
/// once is still gone.
#[test]
fn a_file_made_for_each_change_and_removed_is_not_gone() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "src/lib.py", "x = 1\n");
        write(r, "OLD.md", "# old\n");
        write(r, "NOTES.md", "Add a `RELEASE.md` to every change.\nSee `OLD.md`.\n");
    });
    for round in 0..3 {
        commit(root, 1 + 2 * round, |r| write(r, "RELEASE.md", &format!("Release type: patch\n\nFix {round}.\n")));
        commit(root, 2 + 2 * round, |r| std::fs::remove_file(r.join("RELEASE.md")).unwrap());
    }
    commit(root, 8, |r| std::fs::remove_file(r.join("OLD.md")).unwrap());
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    assert_case(
        "a file added and deleted three times",
        checker.check(&file(1, "RELEASE.md"), &notes(root, 0)),
        &Want::NotChecked("added it and deleted it again 3 times"),
    );
    assert_case(
        "a file deleted once",
        checker.check(&file(2, "OLD.md"), &notes(root, 0)),
        &Want::Verdict(Verdict::Contradicted),
    );
}

#[test]
fn a_definition_renamed_in_code_that_still_gives_the_old_name_is_valid() {
    let (_dir, root) = new_repo();
    let root = &root;
    let scalars = |time: &str, date: &str| {
        format!(
            "{time} = ScalarDefinition(\n    name=\"Time\",\n    description=\"Time (isoformat)\",\n    serialize=datetime.time.isoformat,\n    parse_value=wrap_parser(datetime.time.fromisoformat, \"Time\"),\n)\n\n{date} = ScalarDefinition(\n    name=\"Date\",\n    description=\"Date (isoformat)\",\n    serialize=datetime.date.isoformat,\n    parse_value=wrap_parser(datetime.date.fromisoformat, \"Date\"),\n)\n"
        )
    };
    commit(root, 0, |r| {
        write(r, "pkg/scalars.py", &scalars("Time", "Date"));
        write(r, "NOTES.md", "`Time` and `Date` are scalars.\n");
    });
    // Day 1: both are renamed in code; `Time` keeps its registered name, `Date` is made `Day`.
    commit(root, 1, |r| {
        let renamed = scalars("TimeDefinition", "DayDefinition").replace("name=\"Date\"", "name=\"Day\"");
        write(r, "pkg/scalars.py", &renamed.replace("fromisoformat, \"Date\"", "fromisoformat, \"Day\""));
    });

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 0);
    match checker.check(&symbol(1, "Time"), &memory) {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("pkg/scalars.py:2"), "{evidence}");
            assert!(evidence.contains("TimeDefinition"), "{evidence}");
        }
        other => panic!("a scalar still registered as \"Time\": wanted VALID, got {other:?}"),
    }
    match checker.check(&symbol(1, "Date"), &memory) {
        Outcome::Checked { verdict: Verdict::Stale, successor, .. } => {
            assert_eq!(successor.as_deref(), Some("DayDefinition"));
        }
        other => panic!("a scalar renamed in code and by name: wanted STALE, got {other:?}"),
    }
}

#[test]
fn a_file_now_made_from_a_template_is_not_gone_and_an_affixed_name_is_its_successor() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "doc/Makefile", "all:\n\tsphinx-build . _build\n");
        write(r, "util/run_tests_e2e", "#!/bin/sh\nset -e\ndocker compose up -d\ndart test e2e\n");
        write(r, "util/gone_script", "#!/bin/sh\necho gone\n");
        write(r, "src/config.h", "#define VERSION \"1.0\"\n#define HAVE_ZLIB 1\n");
        write(
            r,
            "docs/reference/configuration.md",
            "# Configuration\n\n| key | default |\n|---|---|\n| venv.with_pip | false |\n",
        );
        write(r, "NOTES.md", "Run `make -C doc`, see `doc/Makefile`.\nRun `util/run_tests_e2e`.\nRun `util/gone_script`.\nSee `src/config.h`.\nSee `docs/reference/configuration.md`.\n");
    });
    commit(root, 1, |r| {
        std::fs::remove_file(r.join("doc/Makefile")).unwrap();
        write(r, "doc/Makefile.am", "html-local:\n\tsphinx-build . _build\n");
        std::fs::remove_file(r.join("util/run_tests_e2e")).unwrap();
        write(r, "util/run_tests_e2e_host", "#!/bin/bash\n# was: run_tests_e2e\nexec ./tool e2e --host\n");
        std::fs::remove_file(r.join("util/gone_script")).unwrap();
        write(r, "util/other", "#!/bin/sh\necho other\n");
        std::fs::remove_file(r.join("src/config.h")).unwrap();
        write(
            r,
            "src/config.h.in",
            "/* Filled in by configure. */\n#undef PACKAGE_STRING\n#undef ENABLE_NLS\n#undef SIZEOF_LONG\n",
        );
        std::fs::remove_file(r.join("docs/reference/configuration.md")).unwrap();
        write(r, "tasks/doc_templates/configuration.md.in", "# Configuration\n\n{{ table }}\n");
    });
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 0);
    assert_case(
        "a Makefile whose Makefile.am came in",
        checker.check(&file(1, "doc/Makefile"), &memory),
        &Want::NotChecked("configure step"),
    );
    assert_case(
        "a header deleted when its configure template came in",
        checker.check(&file(4, "src/config.h"), &memory),
        &Want::NotChecked("configure step"),
    );
    assert_case(
        "a doc page the docs build now makes from a template in another folder",
        checker.check(&file(5, "docs/reference/configuration.md"), &memory),
        &Want::NotChecked("configuration.md.in"),
    );
    match checker.check(&file(2, "util/run_tests_e2e"), &memory) {
        Outcome::Checked { verdict: Verdict::Stale, successor, .. } => {
            assert_eq!(successor.as_deref(), Some("util/run_tests_e2e_host"));
        }
        other => panic!("a script renamed with a suffix and rewritten: wanted STALE, got {other:?}"),
    }
    assert_case(
        "a script deleted next to an unrelated new one",
        checker.check(&file(3, "util/gone_script"), &memory),
        &Want::Verdict(Verdict::Contradicted),
    );
}

#[test]
fn a_folder_whose_last_files_moved_together_moved_there() {
    let (_dir, root) = new_repo();
    let root = &root;
    let module =
        |name: &str| format!("defmodule Web.{name} do\n  def call(conn), do: conn\n  def name, do: \"{name}\"\nend\n");
    commit(root, 0, |r| {
        for name in ["a", "b", "c", "d", "e", "f", "g"] {
            write(r, &format!("lib/web/{name}.ex"), &module(name));
        }
        write(r, "mix.exs", "defmodule App.MixProject do\nend\n");
        write(r, "NOTES.md", "Controllers live in `lib/web/`.\n");
    });
    // Over the years most files of the folder are deleted ...
    commit(root, 1, |r| {
        for name in ["a", "b", "c", "d"] {
            std::fs::remove_file(r.join(format!("lib/web/{name}.ex"))).unwrap();
        }
    });
    // ... then everything moves under `app/`.
    commit(root, 2, |r| {
        std::fs::create_dir_all(r.join("app")).unwrap();
        std::fs::rename(r.join("lib"), r.join("app/lib")).unwrap();
        std::fs::rename(r.join("mix.exs"), r.join("app/mix.exs")).unwrap();
    });
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    match checker.check(&file(1, "lib/web/"), &notes(root, 0)) {
        Outcome::Checked { verdict: Verdict::Stale, successor, evidence, .. } => {
            assert_eq!(successor.as_deref(), Some("app/lib/web"), "{evidence}");
            assert!(evidence.contains("last 3 files"), "{evidence}");
        }
        other => panic!("a folder whose last files moved under app/: wanted STALE, got {other:?}"),
    }
}

#[test]
fn a_name_defined_in_several_places_none_at_the_memorys_line_is_ambiguous() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "src/view.py", "class ImageView:\n    pass\n");
        write(r, "tests/fakes.py", "import os\n\nclass ImageView:\n    pass\n");
        write(r, "NOTES.md", "A note in `ImageView` (line 50).\n");
    });
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let at = |line: u32| {
        claim(
            1,
            ClaimType::SymbolReference,
            CodeRef { symbol: Some("ImageView".into()), line: Some(line), ..CodeRef::path(".") },
            None,
        )
    };
    match checker.check(&at(50), &notes(root, 0)) {
        Outcome::Checked { verdict: Verdict::Ambiguous, evidence, .. } => {
            assert!(evidence.contains("none at line 50"), "{evidence}")
        }
        other => panic!("two definitions, neither at the line: wanted AMBIGUOUS, got {other:?}"),
    }
    match checker.check(&at(3), &notes(root, 0)) {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("tests/fakes.py:3"), "{evidence}")
        }
        other => panic!("one of them at the line: wanted VALID, got {other:?}"),
    }
}

#[test]
fn a_definition_that_left_for_a_package_of_its_own_is_not_a_removal() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        // A package the monorepo will split out, a package whose file will re-export a new
        // dependency, and a class that is simply removed.
        write(r, "ui/core/package.json", "{\n  \"name\": \"@acme/core\",\n  \"version\": \"0.1.0\"\n}\n");
        write(r, "ui/core/src/time.ts", "export class TimeRangeProvider {\n  start = 0;\n}\n");
        write(
            r,
            "ui/app/package.json",
            "{\n  \"name\": \"@acme/app\",\n  \"dependencies\": {\n    \"react\": \"^18.0.0\"\n  }\n}\n",
        );
        write(r, "shared/pubspec.yaml", "name: shared\ndependencies:\n  path: ^1.8.0\n");
        write(r, "shared/lib/log.dart", "class SpinnerLogWriter {\n  void log() {}\n}\n");
        write(r, "shared/lib/cache.dart", "class OldCache {\n  void get() {}\n}\n\nclass Keys {}\n");
        write(
            r,
            "NOTES.md",
            "`TimeRangeProvider` keeps the range.\n`SpinnerLogWriter` draws a spinner.\n`OldCache` caches.\n",
        );
    });
    // Day 2: `ui/core` leaves for its own repository (the app depends on it from the registry),
    // and the log writers go into the `acme_logging` package, which `log.dart` re-exports;
    // `OldCache` is deleted in the same commit from a file that names no new package.
    commit(root, 2, |r| {
        std::fs::remove_dir_all(r.join("ui/core")).unwrap();
        write(
            r,
            "ui/app/package.json",
            "{\n  \"name\": \"@acme/app\",\n  \"dependencies\": {\n    \"@acme/core\": \"^0.1.0\",\n    \"react\": \"^18.0.0\"\n  }\n}\n",
        );
        write(r, "shared/pubspec.yaml", "name: shared\ndependencies:\n  path: ^1.8.0\n  acme_logging: ^0.1.0\n");
        write(r, "shared/lib/log.dart", "export 'package:acme_logging/acme_logging.dart';\n");
        write(r, "shared/lib/cache.dart", "class Keys {}\n");
    });

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 0);
    assert_case(
        "a class whose whole package left and is a dependency now",
        checker.check(&symbol(1, "TimeRangeProvider"), &memory),
        &Want::NotChecked("with its package @acme/core"),
    );
    assert_case(
        "a class moved into a dependency its file now re-exports",
        checker.check(&symbol(2, "SpinnerLogWriter"), &memory),
        &Want::NotChecked("depend on acme_logging"),
    );
    match checker.check(&symbol(3, "OldCache"), &memory) {
        Outcome::Checked { verdict: Verdict::Contradicted, .. } => {}
        other => panic!("a class removed while the file names no new package: wanted CONTRADICTED, got {other:?}"),
    }
}

#[test]
fn a_path_the_root_did_not_have_is_read_at_the_end_of_a_packages_paths() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "modules/codec/src/main/scala/Codec.scala", "object Codec\n");
        write(r, "modules/log/src/main/scala/Log.scala", "object Log\n");
        write(r, "packages/cli/lib/plugins/aws/deploy.js", "module.exports = 1;\n");
        write(r, "src/legacy/old.js", "module.exports = 2;\n");
        write(r, "NOTES.md", "Sources: `src/main/scala`.\nAWS: `lib/plugins/aws/`.\nOld: `src/legacy/`.\n");
    });
    // Day 2, after the notes: the root's `src/legacy/` moves into a package.
    commit(root, 2, |r| {
        std::fs::create_dir_all(r.join("packages/cli/src")).unwrap();
        std::fs::rename(r.join("src/legacy"), r.join("packages/cli/src/legacy")).unwrap();
    });

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 1);
    match checker.check(&file(1, "src/main/scala"), &memory) {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("each of 2 packages"), "{evidence}")
        }
        other => panic!("a folder every module has: wanted VALID, got {other:?}"),
    }
    match checker.check(&file(2, "lib/plugins/aws"), &memory) {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("packages/cli/lib/plugins/aws"), "{evidence}")
        }
        other => panic!("a path written from its one package: wanted VALID, got {other:?}"),
    }
    match checker.check(&file(3, "src/legacy"), &memory) {
        Outcome::Checked { verdict: Verdict::Stale, successor: Some(to), .. } => {
            assert_eq!(to, "packages/cli/src/legacy")
        }
        other => panic!("the root had it when the memory was written, and it moved: wanted STALE, got {other:?}"),
    }
}

#[test]
fn a_bare_file_name_the_code_handles_is_the_users_file() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "btw.md", "# the project's own copy\n");
        write(r, "notes.md", "# scratch\n");
        write(r, "R/config.R", "config_path <- function(dir) {\n  file.path(dir, \"btw.md\")\n}\n");
        write(r, "test/cuda/LocalPreferences.toml", "[Pkg]\nprecompile = false\n");
        write(r, "GitVersion.yml", "mode: ContinuousDelivery\n");
        write(r, "src/Locator.cs", "class Locator {\n  public const string DefaultFileName = \"GitVersion.yml\";\n}\n");
        write(r, "Setup.yml", "steps: []\n");
        write(r, "build.gradle", "plugins {}\n");
        write(r, "plugin/src/test/java/FixtureTest.java", "class FixtureTest {\n  String f = \"build.gradle\";\n}\n");
        write(
            r,
            "NOTES.md",
            "Each project keeps `btw.md`.\nSee `notes.md`.\nDrop a `LocalPreferences.toml` in the root.\n",
        );
    });
    commit(root, 2, |r| {
        std::fs::remove_file(r.join("btw.md")).unwrap();
        std::fs::remove_file(r.join("notes.md")).unwrap();
        std::fs::remove_file(r.join("test/cuda/LocalPreferences.toml")).unwrap();
        write(r, ".gitignore", "/LocalPreferences.toml\n");
        std::fs::rename(r.join("GitVersion.yml"), r.join(".gitversion.yml")).unwrap();
        std::fs::rename(r.join("Setup.yml"), r.join(".setup.yml")).unwrap();
        std::fs::rename(r.join("build.gradle"), r.join("build.gradle.kts")).unwrap();
    });

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 1);
    assert_case(
        "a file name the code reads from its user's project",
        checker.check(&file(1, "btw.md"), &memory),
        &Want::NotChecked("R/config.R:2"),
    );
    assert_case(
        "a file nothing handles by name, deleted",
        checker.check(&file(2, "notes.md"), &memory),
        &Want::Verdict(Verdict::Contradicted),
    );
    assert_case(
        "a file name the code reads from its user's project, the repo's own copy renamed",
        checker.check(&file(1, "GitVersion.yml"), &memory),
        &Want::NotChecked("src/Locator.cs:2"),
    );
    assert_case(
        "a file renamed that only a test names as a string: the repo's own, renamed",
        checker.check(&file(1, "build.gradle"), &memory),
        &Want::Verdict(Verdict::Stale),
    );
    assert_case(
        "a file nothing handles by name, renamed",
        checker.check(&file(1, "Setup.yml"), &memory),
        &Want::Verdict(Verdict::Stale),
    );
    assert_case(
        "a file name git ignores at the root, a copy once elsewhere deleted",
        checker.check(&file(3, "LocalPreferences.toml"), &memory),
        &Want::NotChecked("git ignores it (.gitignore: `/LocalPreferences.toml`)"),
    );
}

#[test]
fn a_member_given_with_a_line_and_no_file_may_be_cited_at_its_use() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "Sources/Manager.swift", "class Manager {\n  func loadImage() {}\n}\n");
        write(
            r,
            "Sources/Cache.swift",
            "class ShardedCache {\n  func get() {\n    let m = Manager()\n    m.start()\n    m.loadImage()\n  }\n}\n",
        );
        write(r, "NOTES.md", "`loadImage` (line 5) loads.\n`loadImage` (line 40) too.\n`ShardedCache` (line 9).\n");
    });
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = notes(root, 1);
    let at = |line: u32, name: &str, at: u32| {
        claim(
            line,
            ClaimType::SymbolReference,
            CodeRef { symbol: Some(name.into()), line: Some(at), ..CodeRef::path(".") },
            None,
        )
    };
    match checker.check(&at(1, "loadImage", 5), &memory) {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("Sources/Cache.swift:5"), "{evidence}")
        }
        other => panic!("the line of a call: wanted VALID, got {other:?}"),
    }
    assert_case(
        "a line that holds neither its definition nor a use",
        checker.check(&at(2, "loadImage", 40), &memory),
        &Want::NotChecked("not at line 40"),
    );
    assert_case(
        "a type's name at a line not its definition's",
        checker.check(&at(3, "ShardedCache", 9), &memory),
        &Want::Verdict(Verdict::Stale),
    );
}

#[test]
fn a_path_the_root_had_when_the_notes_began_moved_with_it() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "lib/web/router.ex", "defmodule Router do\nend\n");
        write(r, "NOTES.md", "The web layer is `lib/web`.\n");
    });
    // Day 1: the app moves under `app/`; day 2: the notes are edited elsewhere, after the move.
    commit(root, 1, |r| {
        std::fs::create_dir_all(r.join("app")).unwrap();
        std::fs::rename(r.join("lib"), r.join("app/lib")).unwrap();
    });
    commit(root, 2, |r| write(r, "NOTES.md", "The web layer is `lib/web`.\n\nMore notes.\n"));

    // Checked as `validate` checks a memory: with its own file known.
    let evidence = Evidence::open(root).unwrap();
    match common::check_as_validate(&evidence, notes(root, 2), vec![file(1, "lib/web")]).remove(0) {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            panic!("the root had lib/web when the notes began, so it is not read from a package: {evidence}")
        }
        Outcome::Checked { .. } | Outcome::NotChecked { .. } => {}
    }
}

/// A name shaped like a stand-in (`new-image-release.md`) that git had is the repository's file:
/// deleted, it is drift. One git never had stays an example.
#[test]
fn a_placeholder_shaped_name_git_had_is_the_repositorys() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "src/lib.py", "x = 1\n");
        write(r, "templates/new-image-release.md", "# New image\n");
        write(r, "NOTES.md", "Use `templates/new-image-release.md`; or `templates/new-thing.md`.\n");
    });
    commit(root, 3, |r| std::fs::remove_file(r.join("templates/new-image-release.md")).unwrap());
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    assert_case(
        "a new-... file git had, deleted since",
        checker.check(&file(1, "templates/new-image-release.md"), &notes(root, 0)),
        &Want::Verdict(Verdict::Contradicted),
    );
    assert_case(
        "a new-... file git never had",
        checker.check(&file(1, "templates/new-thing.md"), &notes(root, 0)),
        &Want::NotChecked("reads as an example"),
    );
}

#[test]
fn a_file_of_the_name_added_before_the_old_one_is_no_successor() {
    let (_dir, root) = new_repo();
    let root = &root;
    let layout = |app: &str| {
        format!("export function Layout({{ children }}) {{\n  return <div className=\"{app}\">\n    <SideBar />\n    {{children}}\n  </div>;\n}}\n")
    };
    // Day 0: another app has a layout of its own. Day 10: the support app and its notes come.
    commit(root, 0, |r| write(r, "apps/dashboard/src/Layout.tsx", &layout("dashboard")));
    commit(root, 10, |r| {
        write(r, "apps/support/src/Layout.tsx", &layout("support"));
        write(r, "apps/support/src/Nav.tsx", &layout("nav"));
        write(r, "NOTES.md", "See `apps/support/src/Layout.tsx`.\nSee `apps/support/src/Nav.tsx`.\n");
    });
    // Day 40: a copy of `Nav.tsx` goes to the shared package; day 100: both old files go.
    commit(root, 40, |r| write(r, "packages/ui/Nav.tsx", &layout("nav")));
    commit(root, 100, |r| {
        std::fs::remove_file(r.join("apps/support/src/Layout.tsx")).unwrap();
        std::fs::remove_file(r.join("apps/support/src/Nav.tsx")).unwrap();
    });
    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = MemoryMeta { updated_at: None, ..notes(root, 10) };
    assert_case(
        "another app's file of the name, there all along",
        checker.check(&file(1, "apps/support/src/Layout.tsx"), &memory),
        &Want::Verdict(Verdict::Contradicted),
    );
    match checker.check(&file(2, "apps/support/src/Nav.tsx"), &memory) {
        Outcome::Checked { verdict: Verdict::Stale, successor, .. } => {
            assert_eq!(successor.as_deref(), Some("packages/ui/Nav.tsx"))
        }
        other => panic!("a copy made two months before the deletion: wanted STALE, got {other:?}"),
    }
}

/// A name history shows removed as a definition (a field `token_exchange` renamed to
/// `tokenExchange`) while the code keeps it as a string value (`StrategyTypeTokenExchange =
/// "token_exchange"`) is the code's: VALID at that line. Without that string, the same history
/// makes it drift.
#[test]
fn a_name_the_code_keeps_as_a_string_value_is_not_drift() {
    let run = |keep: bool| {
        let (_dir, root) = new_repo();
        let root = &root;
        commit(root, 0, |r| {
            write(r, "api/types.py", "class Config:\n    token_exchange: str = \"\"\n    other: int = 0\n");
            write(r, "auth/strategy.py", "class Strategy:\n    pass\n");
            write(r, "NOTES.md", "The `token_exchange` strategy.\n");
        });
        commit(root, 1, |r| {
            write(r, "api/types.py", "class Config:\n    tokenExchange: str = \"\"\n    other: int = 0\n");
            if keep {
                write(
                    r,
                    "auth/strategy.py",
                    "class Strategy:\n    pass\n\nSTRATEGY_TOKEN_EXCHANGE = \"token_exchange\"\n",
                );
            }
        });
        let evidence = Evidence::open(root).unwrap();
        evidence.checker().check(&symbol(1, "token_exchange"), &notes(root, 0))
    };
    match run(true) {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("auth/strategy.py:4"), "{evidence}");
            assert!(evidence.contains("as a string value"), "{evidence}");
        }
        other => panic!("kept as a string: wanted VALID, got {other:?}"),
    }
    match run(false) {
        Outcome::Checked { verdict, .. } => assert_ne!(verdict, Verdict::Valid),
        Outcome::NotChecked { reason } => panic!("renamed, no string kept: wanted a verdict, got {reason}"),
    }
}
