//! Readings found in session 39, with history. A folder the memory names (`mettagrid/`) where
//! the tree now has a file of that name (a placeholder left when the folder moved) is not that
//! folder: what history says of the folder decides. A folder of sources deleted from git whose
//! build output subfolder git ignores (`mettascope/dist/`) is checked like any deleted folder;
//! only a rule that ignores a kind of thing put in it (`reference-output/odr-*/`) makes the
//! folder one a build fills. A tool's version the notes give ("SBT 1.12.11") is checked against
//! the files that pin it (`project/build.properties`), wherever they are.

mod common;

use memval_investigator::Evidence;
use memval_proto::{Assertion, Claim, ClaimType, CodeRef, Outcome, Verdict};

/// The claim the extractor makes of a path written as a folder (`mettagrid/`).
fn folder_claim(path: &str) -> Claim {
    Claim { claim_text: format!("directory `{path}/` exists"), ..common::file_claim(path) }
}

fn sources(r: &std::path::Path, dir: &str) {
    for i in 0..4 {
        common::write(r, &format!("{dir}/src/part{i}.py"), &format!("def part_{i}():\n    return {i}\n"));
    }
}

#[test]
fn a_placeholder_file_where_a_folder_was_is_not_the_folder() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        sources(r, "mettagrid");
        common::write(r, "NOTES.md", "# notes\n");
    });
    std::fs::create_dir_all(root.join("packages")).unwrap();
    common::git(&root, &["mv", "mettagrid", "packages/mettagrid"], common::START + 5 * common::DAY);
    common::commit_on_day(&root, 5, |r| {
        common::write(r, "mettagrid", "A placeholder: the mettagrid dir is now in packages/mettagrid\n")
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got =
        common::check_as_validate(&evidence, memory, vec![folder_claim("mettagrid"), common::file_claim("mettagrid")]);
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Stale, successor: Some(to), .. } => assert_eq!(to, "packages/mettagrid"),
        other => panic!("the folder moved; the file left in its place is not it: {other:?}"),
    }
    // The same name written as a file is the file.
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Valid, .. }), "{:?}", got[1]);
}

#[test]
fn a_script_drawn_as_a_folder_that_was_only_ever_a_file_is_that_file() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "etc/ecal", "#!/usr/bin/env python\nprint('calendar')\n");
        common::write(r, "NOTES.md", "# notes\n");
    });
    common::commit_on_day(&root, 3, |r| common::write(r, "etc/ecal", "#!/usr/bin/env python\nprint('calendars')\n"));
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(&evidence, memory, vec![folder_claim("etc/ecal")]);
    assert!(matches!(&got[0], Outcome::Checked { verdict: Verdict::Valid, .. }), "{:?}", got[0]);
}

#[test]
fn a_file_of_the_folders_name_elsewhere_says_nothing_of_the_folder() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "clients/test/assets/fake-linux/slang-server", "#!/bin/sh\necho fake\n");
        common::write(r, "docs/start/building.md", "# building\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "docs/start/building.md", common::START + common::DAY);
    let mut claim = folder_claim("docs/start/slang-server");
    claim.code_refs[0].written = Some("slang-server/".into());
    let got = common::check_as_validate(&evidence, memory, vec![claim]);
    assert!(
        !matches!(&got[0], Outcome::Checked { verdict: Verdict::Contradicted | Verdict::Stale, .. }),
        "the clone's folder is no drift because a test asset has its name: {:?}",
        got[0]
    );
}

#[test]
fn a_folder_of_sources_whose_build_output_git_ignores_is_checked_when_deleted() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        sources(r, "mettascope");
        sources(r, "reports");
        common::write(r, "NOTES.md", "# notes\n");
    });
    common::commit_on_day(&root, 5, |r| {
        std::fs::remove_dir_all(r.join("mettascope")).unwrap();
        std::fs::remove_dir_all(r.join("reports")).unwrap();
        common::write(r, ".gitignore", "/mettascope/dist/\nreports/run-*/\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(&evidence, memory, vec![folder_claim("mettascope"), folder_claim("reports")]);
    assert!(
        matches!(&got[0], Outcome::Checked { verdict: Verdict::Contradicted, .. }),
        "one ignored output subfolder says nothing of the deleted folder: {:?}",
        got[0]
    );
    match &got[1] {
        Outcome::NotChecked { reason } => assert!(reason.contains("ignores what is put in it"), "{reason}"),
        other => panic!("a folder whose runs git ignores is where a run writes: {other:?}"),
    }
}

/// The claim the extractor makes of "SBT 1.12.11".
fn version_claim(tool: &str, version: &str) -> Claim {
    Claim {
        claim_type: ClaimType::Configuration,
        claim_text: format!("{tool} {version} is the version the repository pins"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef::path(".")],
        assertion: Some(Assertion::ToolVersion { tool: tool.into(), version: version.into() }),
    }
}

#[test]
fn a_tools_version_is_checked_against_the_files_that_pin_it() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "project/build.properties", "sbt.version=1.12.15\n");
        common::write(
            r,
            "build.sbt",
            "lazy val root = project\n  .settings(\n    scalaVersion := \"3.6.4\", // keep in step\n  )\n",
        );
        common::write(r, "web/.nvmrc", "v22.18.0\n");
        // Another tool's file of the same name pins nothing of sbt.
        common::write(r, "legacy/build.properties", "version=1.0.0\n");
        common::write(r, "NOTES.md", "# notes\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let claims = vec![
        version_claim("sbt", "1.12.11"),
        version_claim("scala", "3.6.4"),
        version_claim("node", "22.18.0"),
        version_claim("node", "22"),
        version_claim("python", "3.11"),
        version_claim("go", "1.22"),
    ];
    let got = common::check_as_validate(&evidence, memory, claims);
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Stale, evidence, .. } => {
            assert!(evidence.contains("project/build.properties:1") && evidence.contains("1.12.15"), "{evidence}")
        }
        other => panic!("the project moved on to sbt 1.12.15: {other:?}"),
    }
    for (i, what) in [(1, "scala"), (2, "node in a folder of its own"), (3, "node's major version")] {
        assert!(matches!(&got[i], Outcome::Checked { verdict: Verdict::Valid, .. }), "{what}: {:?}", got[i]);
    }
    match &got[4] {
        Outcome::NotChecked { reason } => assert!(reason.contains("no file of the repository pins python"), "{reason}"),
        other => panic!("nothing pins python: {other:?}"),
    }
    match &got[5] {
        Outcome::NotChecked { reason } => assert_eq!(reason.matches("go.mod").count(), 1, "{reason}"),
        other => panic!("nothing pins go: {other:?}"),
    }
}
