//! Readings found in session 41. A bare folder name packages keep by convention ("integration
//! tests go in `tests/`") whose namesake at the root was deleted, while crates side by side
//! keep a `tests/` of their own, names the folder each package keeps: the rule holds, the
//! root's loss is not its drift. A folder no package keeps twice, or a root folder that moved,
//! is read as before.

mod common;

use memval_investigator::Evidence;
use memval_proto::{Claim, Outcome, Verdict};

fn dir_claim(path: &str) -> Claim {
    Claim { claim_text: format!("directory `{path}/` exists"), ..common::file_claim(path) }
}

#[test]
fn a_bare_tests_folder_the_root_lost_is_the_one_each_crate_keeps() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "tests/fixtures/a.cue", "a: 1\n");
        common::write(r, "examples/hello/env.cue", "b: 2\n");
        for krate in ["core", "cli", "ci"] {
            common::write(r, &format!("crates/{krate}/tests/it.rs"), "#[test] fn t() {}\n");
        }
        common::write(r, "crates/core/examples/demo.rs", "fn main() {}\n");
        common::write(r, "sdks/java/CLAUDE.md", "# java\n");
        common::write(r, "sdks/java/src/Main.java", "class Main {}\n");
        common::write(r, "NOTES.md", "# notes\n");
    });
    common::commit_on_day(&root, 5, |r| {
        std::fs::remove_dir_all(r.join("tests")).unwrap();
        std::fs::remove_dir_all(r.join("examples")).unwrap();
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(&evidence, memory, vec![dir_claim("tests"), dir_claim("examples")]);
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Valid, confidence, evidence, .. } => {
            assert!(*confidence < 80, "{evidence}");
            assert!(evidence.contains("crates/ci/tests") && evidence.contains("root's tests/ is gone"), "{evidence}");
        }
        other => panic!("each crate's tests/ is what the rule names: {other:?}"),
    }
    // one package keeps an `examples/`: nothing says it is a convention
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Contradicted, .. }), "{:?}", got[1]);
    // notes in a package: their bare `examples/` is that package's, gone from it
    let memory = common::notes_file(&root, "sdks/java/CLAUDE.md", common::START + common::DAY);
    let mut in_package = dir_claim("sdks/java/tests");
    in_package.code_refs[0].alt_paths = vec!["tests".into()];
    let got = common::check_as_validate(&evidence, memory, vec![in_package]);
    assert!(!matches!(&got[0], Outcome::Checked { verdict: Verdict::Valid, .. }), "{:?}", got[0]);
    // a memory laying out the root (`crates/` beside `tests/`) means the root's `tests/`
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(&evidence, memory, vec![dir_claim("crates"), dir_claim("tests")]);
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Contradicted, .. }), "{:?}", got[1]);
}

#[test]
fn a_root_tests_folder_that_moved_is_still_a_move() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "tests/test_api.py", "def test_api():\n    assert True\n");
        for pkg in ["a", "b"] {
            common::write(r, &format!("packages/{pkg}/tests/test_x.py"), "def test_x():\n    pass\n");
        }
        common::write(r, "NOTES.md", "# notes\n");
    });
    common::commit_on_day(&root, 5, |r| {
        std::fs::create_dir_all(r.join("server")).unwrap();
        std::fs::rename(r.join("tests"), r.join("server/tests")).unwrap();
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(&evidence, memory, vec![dir_claim("tests")]);
    assert!(matches!(&got[0], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[0]);
}

#[test]
fn a_pages_snippet_file_the_repository_lost_may_be_the_readers() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, ".github/workflows/ci.yml", "name: CI\non: push\n");
        common::write(r, "app/models/user.rb", "class User\n  def name\n    @name\n  end\nend\n");
        common::write(r, "docs/how-to/nix.md", "# nix\n");
        common::write(r, "NOTES.md", "# notes\n");
    });
    common::commit_on_day(&root, 5, |r| {
        std::fs::rename(r.join(".github/workflows/ci.yml"), r.join(".github/workflows/project-ci.yml")).unwrap();
        std::fs::create_dir_all(r.join("app/models/accounts")).unwrap();
        std::fs::rename(r.join("app/models/user.rb"), r.join("app/models/accounts/user.rb")).unwrap();
    });
    let evidence = Evidence::open(&root).unwrap();
    let snippet = || Claim {
        assertion: Some(memval_proto::Assertion::SnippetFile),
        ..common::file_claim(".github/workflows/ci.yml")
    };
    let page = memval_proto::MemoryMeta {
        agent: memval_proto::tools::DOCS_AGENT.into(),
        ..common::notes_file(&root, "docs/how-to/nix.md", common::START + common::DAY)
    };
    match &common::check_as_validate(&evidence, page, vec![snippet()])[0] {
        Outcome::NotChecked { reason } => {
            assert!(reason.contains("code block") && reason.contains("project-ci.yml"), "{reason}")
        }
        other => panic!("a how-to's workflow block is the reader's workflow: {other:?}"),
    }
    // In an agent's notes the block is for the repository's own file: its move is drift.
    let notes = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(&evidence, notes, vec![snippet()]);
    assert!(matches!(&got[0], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[0]);
    // A doc's block for the project's own code names the repository's file: its move is drift.
    let page = memval_proto::MemoryMeta {
        agent: memval_proto::tools::DOCS_AGENT.into(),
        ..common::notes_file(&root, "docs/how-to/nix.md", common::START + common::DAY)
    };
    let code =
        Claim { assertion: Some(memval_proto::Assertion::SnippetFile), ..common::file_claim("app/models/user.rb") };
    let got = common::check_as_validate(&evidence, page, vec![code]);
    assert!(matches!(&got[0], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[0]);
}

#[test]
fn renamed_then_deleted_where_a_copy_of_its_name_came_in_is_a_move() {
    let (_guard, root) = common::new_repo();
    let text = "object Constants {\n    const val MIN_BOARD_SIZE = 6\n    const val MAX_BOARD_SIZE = 22\n    const val ROBOT_COUNT = 4\n}\n";
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "app/src/roboyard/core/Constants.java", text);
        common::write(r, "app/src/roboyard/core/Gone.java", "class Gone { int alpha; int beta; int gamma; }\n");
        common::write(r, "NOTES.md", "# notes\n");
    });
    common::commit_on_day(&root, 2, |r| {
        for name in ["Constants", "Gone"] {
            let from = format!("app/src/roboyard/core/{name}.java");
            std::fs::rename(r.join(&from), r.join(from.replace(".java", ".kt"))).unwrap();
        }
    });
    common::commit_on_day(&root, 4, |r| common::write(r, "shared/src/kotlin/roboyard/core/Constants.kt", text));
    common::commit_on_day(&root, 5, |r| {
        for name in ["Constants", "Gone"] {
            std::fs::remove_file(r.join(format!("app/src/roboyard/core/{name}.kt"))).unwrap();
        }
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![
            common::file_claim("app/src/roboyard/core/Constants.java"),
            common::file_claim("app/src/roboyard/core/Gone.java"),
        ],
    );
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Stale, successor: Some(to), evidence, .. } => {
            assert_eq!(to, "shared/src/kotlin/roboyard/core/Constants.kt", "{evidence}");
            assert!(evidence.contains("renamed") && evidence.contains("then deleted"), "{evidence}");
        }
        other => panic!("the shared module's copy is where it went: {other:?}"),
    }
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Contradicted, .. }), "{:?}", got[1]);
}

#[test]
fn without_history_a_folders_files_that_all_changed_extension_were_renamed() {
    let dir = tempfile::tempdir().unwrap();
    for path in [
        "NOTES.md",
        "src/xquery/tests/test_axes.tiri",
        "src/xquery/tests/test_core.tiri",
        "src/xquery/xquery.tdl",
        "src/xquery/xquery.cpp",
        "src/xquery/xquery.h",
        "src/xquery/constants.tdl",
        // a style sheet gone beside its component
        "ui/Button.tsx",
        // a .lua file gone while other .lua files stay: not the folder's kind that changed
        "tools/run.sh",
        "tools/other.lua",
    ] {
        common::write(dir.path(), path, "x\n");
    }
    let evidence = Evidence::open(dir.path()).unwrap();
    let memory = common::notes_file(dir.path(), "NOTES.md", common::START);
    let got = common::check_as_validate(
        &evidence,
        memory,
        [
            "src/xquery/tests/test_axes.fluid",
            "src/xquery/xquery.fdl",
            "src/xquery/constants.fdl",
            "ui/Button.css",
            "tools/run.lua",
        ]
        .into_iter()
        .map(common::file_claim)
        .collect(),
    );
    for (i, to) in
        [(0, "src/xquery/tests/test_axes.tiri"), (1, "src/xquery/xquery.tdl"), (2, "src/xquery/constants.tdl")]
    {
        match &got[i] {
            Outcome::Checked { verdict: Verdict::Stale, successor: Some(got_to), confidence, evidence, .. } => {
                assert_eq!(got_to, to, "{evidence}");
                assert!(*confidence <= 50 && evidence.contains("no history"), "{evidence}");
            }
            other => panic!("renamed with its folder's kind of file: {other:?}"),
        }
    }
    for (i, o) in got.iter().enumerate().skip(3) {
        assert!(
            !matches!(o, Outcome::Checked { verdict: Verdict::Stale, .. }),
            "{i}: a companion or a kind still in its folder is no successor: {o:?}"
        );
    }
}

#[test]
fn without_history_notes_left_alone_in_a_folder_set_aside_under_one_more_folder() {
    let dir = tempfile::tempdir().unwrap();
    for path in [
        // the notes were written in verifiers/envs/, whose files went to verifiers/legacy/envs/
        "verifiers/envs/AGENTS.md",
        "verifiers/legacy/envs/python_env.py",
        "verifiers/legacy/envs/sandbox_env.py",
        "verifiers/legacy/envs/experimental/README.md",
        "verifiers/core.py",
        // another place with one folder put in, holding other things
        "verifiers/v1/envs/env.py",
        // namesakes elsewhere: the name alone does not say which
        "examples/python_env.py",
        "docs/experimental/index.md",
    ] {
        common::write(dir.path(), path, "x\n");
    }
    let evidence = Evidence::open(dir.path()).unwrap();
    let memory = common::notes_file(dir.path(), "verifiers/envs/AGENTS.md", common::START);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![
            common::file_claim("verifiers/envs/python_env.py"),
            common::file_claim("verifiers/envs/sandbox_env.py"),
            dir_claim("verifiers/envs/experimental"),
            common::file_claim("verifiers/envs/gone_env.py"),
        ],
    );
    for (i, to) in [
        (0, "verifiers/legacy/envs/python_env.py"),
        (1, "verifiers/legacy/envs/sandbox_env.py"),
        (2, "verifiers/legacy/envs/experimental"),
    ] {
        match &got[i] {
            Outcome::Checked { verdict: Verdict::Stale, successor: Some(got_to), confidence, evidence, .. } => {
                assert_eq!(got_to, to, "{evidence}");
                assert!(*confidence <= 50 && evidence.contains("no history"), "{evidence}");
            }
            other => panic!("set aside under legacy/: {other:?}"),
        }
    }
    // what is at neither place is gone with the folder
    assert!(matches!(&got[3], Outcome::Checked { verdict: Verdict::Contradicted, .. }), "{:?}", got[3]);
}

#[test]
fn without_history_a_skills_page_gone_with_its_folder_became_the_page_named_after_it() {
    let dir = tempfile::tempdir().unwrap();
    for path in ["NOTES.md", "docs/agents/react.md", "docs/agents/schema.md", "docs/schema.md", "packages/ui/x.ts"] {
        common::write(dir.path(), path, "x\n");
    }
    let evidence = Evidence::open(dir.path()).unwrap();
    let memory = common::notes_file(dir.path(), "NOTES.md", common::START);
    let got = common::check_as_validate(
        &evidence,
        memory,
        [".kiro/skills/react/SKILL.md", ".kiro/skills/schema/SKILL.md", "packages/web/README.md"]
            .into_iter()
            .map(common::file_claim)
            .collect(),
    );
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Stale, successor: Some(to), confidence, evidence, .. } => {
            assert_eq!(to, "docs/agents/react.md", "{evidence}");
            assert!(*confidence <= 50 && evidence.contains("no history"), "{evidence}");
        }
        other => panic!("the skill became a page: {other:?}"),
    }
    // two pages named after it: nothing says which; a README is no folder's own page
    assert!(!matches!(&got[1], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[1]);
    assert!(!matches!(&got[2], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[2]);
}

#[test]
fn a_name_only_a_ci_steps_title_has_is_no_term_of_the_project() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(
            r,
            ".github/workflows/ci.yaml",
            "jobs:\n  test:\n    steps:\n    - name: Install Go\n      uses: actions/setup-go@v3\n",
        );
        common::write(r, "config/app.yaml", "mode: FirmwareUpload\n");
        common::write(
            r,
            "firmware.go",
            "package bmclib\n\ntype FirmwareInstaller interface {\n\tFirmwareInstall() error\n}\n",
        );
        common::write(r, "NOTES.md", "# notes\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let symbol = |name: &str| Claim {
        claim_type: memval_proto::ClaimType::SymbolReference,
        claim_text: format!("`{name}` is defined in the repo"),
        code_refs: vec![memval_proto::CodeRef { symbol: Some(name.into()), ..memval_proto::CodeRef::path(".") }],
        ..common::file_claim(".")
    };
    let got = common::check_as_validate(&evidence, memory, vec![symbol("Install"), symbol("FirmwareUpload")]);
    assert!(
        !matches!(&got[0], Outcome::Checked { verdict: Verdict::Valid, .. }),
        "a step's title proves nothing: {:?}",
        got[0]
    );
    // a setting's value that is the name itself is the project's term
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Valid, .. }), "{:?}", got[1]);
}
