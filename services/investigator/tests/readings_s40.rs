//! Readings found in session 40. Without history, a file gone from a folder that still holds
//! exactly one file whose name grows the old one by an affix (`client.rs` → `node_client.rs`)
//! was renamed to it, however many other folders have a file of the old name. A file a code
//! block of the notes is written for (`// 1. src/main/ipc/feature.ts` over a recipe) that the
//! repository never had is the one the block makes, not an invented name; one it had and lost
//! is drift as any file is. A path written climbing from the memory's folder (`../common/`)
//! that was never where it leads names no folder of its own: a folder of its name deeper under
//! the folders it climbed to is no place it went. A test named for a kind of thing alone
//! (`spec/file_spec.rb:123` in a command's usage) is an example, even where a file of that name
//! sits deeper. Where the memory first put a path, a path git ignores and never had is what a
//! build makes there, whatever another reading's history says. A bare name the code handles
//! (`"cargo.sh"` in a string) whose repo copy git moved under the same name is that copy, moved.
//! A file deleted from git and ignored only later is gone, unless a script beside its folder
//! writes that folder (`generate.java` resolving `"output"`).

mod common;

use memval_investigator::Evidence;
use memval_proto::{Assertion, Claim, CodeRef, Outcome, Verdict};

#[test]
fn without_history_a_file_renamed_by_an_affix_outranks_namesakes_in_other_folders() {
    let dir = tempfile::tempdir().unwrap();
    for path in [
        "NOTES.md",
        "crates/sdk/src/node_client.rs",
        "crates/sdk/src/config.rs",
        "crates/service/src/client.rs",
        "crates/sui/src/client.rs",
        "crates/orchestrator/src/client.rs",
        // two files that grow the name: nothing says which one it became
        "crates/two/src/node_client.rs",
        "crates/two/src/http_client.rs",
    ] {
        common::write(dir.path(), path, "x\n");
    }
    let evidence = Evidence::open(dir.path()).unwrap();
    let memory = common::notes_file(dir.path(), "NOTES.md", common::START);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![common::file_claim("crates/sdk/src/client.rs"), common::file_claim("crates/two/src/client.rs")],
    );
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Stale, successor: Some(to), confidence, evidence, .. } => {
            assert_eq!(to, "crates/sdk/src/node_client.rs", "{evidence}");
            assert!(*confidence <= 50 && evidence.contains("no history"), "{evidence}");
        }
        other => panic!("the one file beside it that grows its name is the guess: {other:?}"),
    }
    assert!(!matches!(&got[1], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[1]);
}

#[test]
fn a_snippets_file_never_in_the_repository_is_the_one_its_block_makes() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        for name in ["window.ts", "updates.ts", "files.ts"] {
            common::write(r, &format!("src/main/ipc/{name}"), "export const x = 1;\n");
        }
        common::write(r, "src/main/ipc/legacy.ts", "export const y = 2;\n");
        common::write(r, "NOTES.md", "# notes\n");
    });
    common::commit_on_day(&root, 3, |r| std::fs::remove_file(r.join("src/main/ipc/legacy.ts")).unwrap());
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let snippet = |path: &str| Claim { assertion: Some(Assertion::SnippetFile), ..common::file_claim(path) };
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![
            snippet("src/main/ipc/feature.ts"),
            common::file_claim("src/main/ipc/invented.ts"),
            snippet("src/main/ipc/legacy.ts"),
            snippet("src/main/ipc/window.ts"),
        ],
    );
    match &got[0] {
        Outcome::NotChecked { reason } => assert!(reason.contains("code block"), "{reason}"),
        other => panic!("the recipe's new file is not a wrong name: {other:?}"),
    }
    // named in prose, the same kind of name is an invented one
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Contradicted, .. }), "{:?}", got[1]);
    // a snippet's file that was there and was deleted is drift
    assert!(matches!(&got[2], Outcome::Checked { verdict: Verdict::Contradicted, .. }), "{:?}", got[2]);
    assert!(matches!(&got[3], Outcome::Checked { verdict: Verdict::Valid, .. }), "{:?}", got[3]);
}

#[test]
fn a_climbing_path_never_where_it_leads_is_not_found_deeper() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "tests/assets/plugin/README.md", "# assets\n");
        common::write(r, "tests/assets/plugin/tiles/classic/common/Base.csv", "a,b\n");
        common::write(r, "gui/src/pages/home.ts", "export {};\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "tests/assets/plugin/README.md", common::START + common::DAY);
    let folder = |path: &str, written: &str| Claim {
        claim_text: format!("directory `{written}` exists at {path}"),
        code_refs: vec![CodeRef { written: Some(written.into()), ..CodeRef::path(path) }],
        ..common::file_claim(path)
    };
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![folder("tests/assets/common", "../common/"), folder("gui/pages/home.ts", "gui/pages/home.ts")],
    );
    assert!(!matches!(&got[0], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[0]);
    // written with its folders, the place is right and the file deeper
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[1]);
}

#[test]
fn a_test_named_for_a_kind_alone_is_an_example_whatever_lies_deeper() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "spec/models/better_together/file_spec.rb", "describe File do\nend\n");
        common::write(r, "spec/models/better_together/user_spec.rb", "describe User do\nend\n");
        common::write(r, "AGENTS.md", "# notes\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "AGENTS.md", common::START + common::DAY);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![common::file_claim("spec/file_spec.rb"), common::file_claim("spec/models/user_spec.rb")],
    );
    match &got[0] {
        Outcome::NotChecked { reason } => assert!(reason.contains("example"), "{reason}"),
        other => panic!("a usage's `spec/file_spec.rb` is no file that went deeper: {other:?}"),
    }
    // a test named for a thing of the project is read as before: the place right, the file deeper
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[1]);
}

#[test]
fn where_the_memory_put_it_an_ignored_path_is_a_build_output_whatever_the_roots_history() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "output/index.html", "<html></html>\n");
        common::write(r, "docs/video/readme.md", "# videos\n");
        common::write(r, "docs/video/generate.java", "class Generate {}\n");
    });
    common::commit_on_day(&root, 2, |r| {
        std::fs::remove_file(r.join("output/index.html")).unwrap();
        common::write(r, ".gitignore", "docs/video/output\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "docs/video/readme.md", common::START + common::DAY);
    let claim = Claim {
        code_refs: vec![CodeRef {
            written: Some("output/index.html".into()),
            alt_paths: vec!["output/index.html".into()],
            ..CodeRef::path("docs/video/output/index.html")
        }],
        ..common::file_claim("docs/video/output/index.html")
    };
    let got = common::check_as_validate(&evidence, memory, vec![claim]);
    match &got[0] {
        Outcome::NotChecked { reason } => assert!(reason.contains("git ignores it"), "{reason}"),
        other => panic!("the page the script writes beside the notes is no deleted root file: {other:?}"),
    }
}

#[test]
fn a_file_the_code_names_moved_under_its_own_name_is_the_repos_copy() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "cargo.sh", "#!/bin/sh\ncargo +nightly \"$@\"\n");
        common::write(r, "src/lib.rs", "//! Run `./cargo.sh test`.\npub const RUNNER: &str = \"cargo.sh\";\n");
        common::write(r, "AGENTS.md", "# notes\n");
    });
    std::fs::create_dir_all(root.join("crate")).unwrap();
    common::git(&root, &["mv", "cargo.sh", "crate/cargo.sh"], common::START + 5 * common::DAY);
    common::commit_on_day(&root, 5, |_| {});
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "AGENTS.md", common::START + common::DAY);
    let got = common::check_as_validate(&evidence, memory, vec![common::file_claim("cargo.sh")]);
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Stale, successor: Some(to), .. } => assert_eq!(to, "crate/cargo.sh"),
        other => panic!("the repo's own script moved; the code naming it makes it no user's file: {other:?}"),
    }
}

#[test]
fn a_folder_ignored_after_its_files_went_is_a_build_output_when_a_script_beside_it_writes_it() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        for kind in ["video", "audio"] {
            common::write(r, &format!("docs/{kind}/output/index.html"), "<html></html>\n");
            common::write(r, &format!("docs/{kind}/readme.md"), "# media\n");
        }
        common::write(r, "docs/video/generate.java", "Path out = dir.resolve(\"output\");\n");
        common::write(r, "docs/audio/notes.java", "class Notes {}\n");
    });
    common::commit_on_day(&root, 2, |r| {
        std::fs::remove_file(r.join("docs/video/output/index.html")).unwrap();
        std::fs::remove_file(r.join("docs/audio/output/index.html")).unwrap();
    });
    common::commit_on_day(&root, 4, |r| common::write(r, ".gitignore", "docs/video/output\ndocs/audio/output\n"));
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "docs/video/readme.md", common::START + common::DAY);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![common::file_claim("docs/video/output/index.html"), common::file_claim("docs/audio/output/index.html")],
    );
    match &got[0] {
        Outcome::NotChecked { reason } => assert!(reason.contains("git ignores"), "{reason}"),
        other => panic!("the page generate.java writes is a build output: {other:?}"),
    }
    // nothing beside it writes the folder: removed, and ignored after
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Contradicted, .. }), "{:?}", got[1]);
}
