//! Readings found on fresh25's repositories, each with real git: a source file deleted in the
//! commit that added files of its language in a folder of its name beside it became that folder
//! of modules (tuff's `box-tool/core-box.ts` → `box-tool/core-box/index.ts`); a folder of its
//! name that only gained a README is no such successor. And a name the memory placed in a
//! file that is gone, defined in several other places (OPC UA's `NodeId` beside a test file's
//! path): the name is there, which one was meant is not known, and the path's own claim
//! reports the path, so the name is not checked; one defined nowhere is still gone. A folder
//! git kept only by a placeholder (m3u-editor's `storage/logs/.gitignore`, deleted when the root
//! `.gitignore` took over) is one the program fills as it runs, not a folder that went. A folder
//! that never was, named in an instruction file kept in the repository (m3u-editor's
//! framework skill naming `tests/Browser`), is a place it proposes or one of another layout.

mod common;

use common::{commit_on_day as commit, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, Outcome, Verdict};

#[test]
fn a_module_deleted_by_the_commit_that_made_a_folder_of_its_name_became_that_folder() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "src/box/core-box.ts", "export function openBox() {\n  return shortcut('E');\n}\n");
        write(r, "src/box/search.ts", "export function search(q: string) {\n  return q;\n}\n");
    });
    // Day 2, after the memory: `core-box.ts` becomes a folder of modules, rewritten on the way;
    // `search.ts` is deleted in a commit that only gives `search/` a README.
    commit(root, 2, |r| {
        std::fs::remove_file(r.join("src/box/core-box.ts")).unwrap();
        write(r, "src/box/core-box/index.ts", "export { CoreBox } from './module';\n");
        write(r, "src/box/core-box/module.ts", "export class CoreBox {\n  keys = ['Ctrl+E'];\n}\n");
    });
    commit(root, 3, |r| {
        std::fs::remove_file(r.join("src/box/search.ts")).unwrap();
        write(r, "src/box/search/README.md", "Search moved to the server.\n");
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    let claims = vec![common::file_claim("src/box/core-box.ts"), common::file_claim("src/box/search.ts")];
    let outcomes = common::check_as_validate(&evidence, memory, claims);
    match &outcomes[0] {
        Outcome::Checked { verdict, successor, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Stale, "{evidence}");
            assert_eq!(successor.as_deref(), Some("src/box/core-box/index.ts"), "{evidence}");
            assert!(evidence.contains("became a folder of modules"), "{evidence}");
        }
        other => panic!("the module made a folder: {other:?}"),
    }
    match &outcomes[1] {
        Outcome::Checked { verdict, successor, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Contradicted, "{evidence}");
            assert_eq!(successor.as_deref(), None, "{evidence}");
        }
        other => panic!("the module whose folder holds only prose: {other:?}"),
    }
}

fn placed(symbol: &str, path: &str) -> Claim {
    Claim {
        claim_type: ClaimType::SymbolReference,
        claim_text: format!("`{symbol}` is defined in {path}"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { symbol: Some(symbol.into()), ..CodeRef::path(path) }],
        assertion: None,
    }
}

#[test]
fn a_name_placed_in_a_gone_file_and_defined_in_several_others_is_not_checked() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "tests/model_test.cs", "class ModelTests {\n  void Maps() { var id = new NodeId(); }\n}\n");
        write(r, "core/a/NodeId.cs", "public class NodeId {\n  int value;\n}\n");
        write(r, "core/b/NodeId.cs", "public struct NodeId {\n  long value;\n}\n");
    });
    commit(root, 2, |r| std::fs::remove_file(r.join("tests/model_test.cs")).unwrap());

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    let claims = vec![placed("NodeId", "tests/model_test.cs"), placed("ModelTests", "tests/model_test.cs")];
    let outcomes = common::check_as_validate(&evidence, memory, claims);
    match &outcomes[0] {
        Outcome::NotChecked { reason } => {
            assert!(reason.contains("more than one other place") && reason.contains("not checked"), "{reason}")
        }
        other => panic!("a name defined in several places: {other:?}"),
    }
    match &outcomes[1] {
        Outcome::Checked { verdict, evidence, .. } => assert_eq!(*verdict, Verdict::Contradicted, "{evidence}"),
        other => panic!("a name gone with its file: {other:?}"),
    }
}

#[test]
fn a_folder_git_kept_only_by_a_placeholder_is_filled_at_run_time() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "storage/logs/.gitignore", "*\n!.gitignore\n");
        write(r, "storage/old/a.php", "<?php\n");
        write(r, "app/Main.php", "<?php\n");
    });
    // Day 2: the placeholder and the old code go; day 3 the root `.gitignore` takes the logs
    // over (a rule younger than the deletion does not make the folder a build output).
    commit(root, 2, |r| std::fs::remove_dir_all(r.join("storage")).unwrap());
    commit(root, 3, |r| write(r, ".gitignore", "/storage/logs\n"));

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    let outcomes = common::check_as_validate(
        &evidence,
        memory,
        vec![common::file_claim("storage/logs/"), common::file_claim("storage/old/")],
    );
    match &outcomes[0] {
        Outcome::NotChecked { reason } => assert!(reason.contains("placeholder"), "{reason}"),
        other => panic!("the log folder: {other:?}"),
    }
    match &outcomes[1] {
        Outcome::Checked { verdict, evidence, .. } => assert_eq!(*verdict, Verdict::Contradicted, "{evidence}"),
        other => panic!("a folder of code that went: {other:?}"),
    }
}

#[test]
fn without_history_too_a_name_in_a_gone_file_defined_in_several_others_is_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "NOTES.md", "notes\n");
    write(root, "pkg/a/x.py", "def helper():\n    pass\n");
    write(root, "pkg/b/y.py", "def helper():\n    pass\n");
    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    match &common::check_as_validate(&evidence, memory, vec![placed("helper", "backend/src/gone.py")])[0] {
        Outcome::NotChecked { reason } => {
            assert!(reason.contains("no git history") && reason.contains("more than one other place"), "{reason}")
        }
        other => panic!("a name defined in several places: {other:?}"),
    }
}

#[test]
fn a_folder_that_never_was_in_an_instruction_file_is_not_checked() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, ".claude/skills/pest/SKILL.md", "skill\n");
        write(r, "tests/Pest.php", "<?php\n");
        write(r, "tests/TestCase.php", "<?php\n");
        write(r, "tests/Feature/ExampleTest.php", "<?php\n");
    });
    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, ".claude/skills/pest/SKILL.md", START + DAY);
    match &common::check_as_validate(&evidence, memory, vec![common::file_claim("tests/Browser")])[0] {
        Outcome::NotChecked { reason } => {
            assert!(reason.contains("instruction file of the repository") && reason.contains("never"), "{reason}")
        }
        other => panic!("a folder the skill names: {other:?}"),
    }
}
