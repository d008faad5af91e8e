//! Readings found on repositories of the twenty-fourth held-out set and fresh23, each with real
//! git: folders written as a namespace (`Terminal.Gui.App/ApplicationImpl.cs`); a folder git
//! deleted and a later `.gitignore` rule keeps out (removed code, not a build output) against
//! one whose rule came with the deletion (a build output since); the reading of a missing
//! folder that git had, reported instead of a reading under a heading that never was a folder;
//! and a name git never had that the memory put among a folder's code, still an invented one.

mod common;

use common::{commit_on_day as commit, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, MemoryMeta, Outcome, Verdict};

fn notes(root: &std::path::Path) -> MemoryMeta {
    common::notes_file(root, "AGENTS.md", START + DAY / 2)
}

fn file(path: &str, alts: &[&str]) -> Claim {
    Claim {
        claim_type: ClaimType::FileReference,
        claim_text: "claim".into(),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { alt_paths: alts.iter().map(|a| a.to_string()).collect(), ..CodeRef::path(path) }],
        assertion: None,
    }
}

#[test]
fn namespace_folders_ignored_leftovers_and_the_reading_git_had() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "AGENTS.md", "notes\n");
        write(r, "Terminal.Gui/App/ApplicationImpl.cs", "class ApplicationImpl {}\n");
        write(r, "ui/flutter/lib/api/client.dart", "class Client {}\n");
        write(r, "site/gen/cli.md", "generated\n");
        write(r, "src/Mixins/AppleUIKit/Mixin.cs", "class Mixin {}\n");
        write(r, "src/Keep.cs", "class Keep {}\n");
        write(r, "vitest.config.ts", "export default {}\n");
        write(r, "tsup.config.ts", "export default {}\n");
        write(r, "lib/findDecorations.ts", "export const find = 1\n");
    });
    // Day 1: the generated page stops being tracked and is ignored in the same commit; the
    // Flutter UI and the mixins are deleted.
    commit(root, 1, |r| {
        std::fs::remove_file(r.join("site/gen/cli.md")).unwrap();
        write(r, ".gitignore", "site/gen/\n");
        std::fs::remove_dir_all(r.join("ui")).unwrap();
        std::fs::remove_dir_all(r.join("src/Mixins")).unwrap();
    });
    // Day 1 too: the packages folder a build fills is untracked; day 20: a rule keeps the UI's
    // leftovers out of `git status`, and the packages folder's rule is written again.
    commit(root, 2, |r| write(r, "local_packages/a.nupkg", "x\n"));
    commit(root, 3, |r| {
        std::fs::remove_dir_all(r.join("local_packages")).unwrap();
        write(r, "build.props", "<Out>local_packages</Out>\n");
    });
    commit(root, 20, |r| write(r, ".gitignore", "site/gen/\nui/\nlocal_packages/\n"));

    let evidence = Evidence::open(root).unwrap();
    let got = common::check_as_validate(
        &evidence,
        notes(root),
        vec![
            file("Tests/Terminal.Gui.App/ApplicationImpl.cs", &["Terminal.Gui.App/ApplicationImpl.cs"]),
            file("ui/flutter/lib/api", &[]),
            file("site/gen/cli.md", &[]),
            file("iOS/macOS/src/Mixins/AppleUIKit", &["src/Mixins/AppleUIKit"]),
            file("lib/addDecoration.ts", &[]),
            file("local_packages", &[]),
        ],
    );
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.starts_with("Terminal.Gui/App/ApplicationImpl.cs"), "{evidence}");
            assert!(evidence.contains("namespace"), "{evidence}");
        }
        other => panic!("namespace folders: {other:?}"),
    }
    match &got[1] {
        Outcome::Checked { verdict: Verdict::Contradicted, .. } => {}
        other => panic!("a folder ignored after its deletion is gone: {other:?}"),
    }
    match &got[2] {
        Outcome::NotChecked { reason } => assert!(reason.contains("made by the build"), "{reason}"),
        other => panic!("a page ignored as it was deleted is a build output: {other:?}"),
    }
    match &got[3] {
        Outcome::Checked { verdict: Verdict::Contradicted, evidence, .. } => {
            assert!(evidence.starts_with("src/Mixins/AppleUIKit"), "the reading git had: {evidence}")
        }
        other => panic!("the reading git had: {other:?}"),
    }
    match &got[4] {
        Outcome::Checked { verdict: Verdict::Contradicted, evidence, .. } => {
            assert!(evidence.contains("wrong or invented name"), "{evidence}")
        }
        other => panic!("a name the memory put among a folder's code is still invented: {other:?}"),
    }
    match &got[5] {
        Outcome::NotChecked { reason } => assert!(reason.contains("made by the build"), "{reason}"),
        other => panic!("a folder a build file names, ignored again later, is a build output: {other:?}"),
    }
}
