//! Readings found on repositories of the twenty-fifth held-out set, each with real git: a file
//! copied elsewhere before the memory was written, the original deleted after it and the copy
//! renamed since (claude-task-master's `scripts/example_prd.txt`, whose text lives on as
//! `.taskmaster/templates/example_prd.md`), against a deleted file whose name another,
//! different file still has.

mod common;

use common::{commit_on_day as commit, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, Outcome, Verdict};

fn file(path: &str) -> Claim {
    Claim {
        claim_type: ClaimType::FileReference,
        claim_text: format!("`{path}` exists"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef::path(path)],
        assertion: None,
    }
}

/// Prose of some length, different for each `topic`.
fn prd(topic: &str) -> String {
    (0..12).map(|i| format!("Section {i}: {topic}_need{i} with {topic}_goal{i} and {topic}_metric{i}.\n")).collect()
}

#[test]
fn a_deleted_files_text_that_lives_on_in_a_copy_is_its_successor() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "scripts/example_prd.txt", &prd("launcher"));
        write(r, "scripts/notes.txt", &prd("billing"));
    });
    // Day 1: the example is copied to `assets/`, and an unrelated `notes.txt` is added there.
    commit(root, 1, |r| {
        write(r, "assets/example_prd.txt", &prd("launcher"));
        write(r, "assets/notes.txt", &prd("weather"));
    });
    // Day 2, after the memory: the originals go. Day 3: the copy is renamed to Markdown.
    commit(root, 2, |r| {
        std::fs::remove_file(r.join("scripts/example_prd.txt")).unwrap();
        std::fs::remove_file(r.join("scripts/notes.txt")).unwrap();
    });
    commit(root, 3, |r| {
        std::fs::create_dir_all(r.join("templates")).unwrap();
        std::fs::rename(r.join("assets/example_prd.txt"), r.join("templates/example_prd.md")).unwrap();
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY + DAY / 2);
    let outcomes =
        common::check_as_validate(&evidence, memory, vec![file("scripts/example_prd.txt"), file("scripts/notes.txt")]);
    match &outcomes[0] {
        Outcome::Checked { verdict, successor, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Stale, "{evidence}");
            assert_eq!(successor.as_deref(), Some("templates/example_prd.md"), "{evidence}");
            assert!(evidence.contains("lives on"), "{evidence}");
        }
        other => panic!("the copied example: {other:?}"),
    }
    // `assets/notes.txt` has the name but not the text: the original was deleted.
    match &outcomes[1] {
        Outcome::Checked { verdict, successor, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Contradicted, "{evidence}");
            assert_eq!(successor.as_deref(), None, "{evidence}");
        }
        other => panic!("the other notes.txt: {other:?}"),
    }
}
