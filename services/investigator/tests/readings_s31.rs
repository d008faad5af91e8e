//! Readings found on repositories of the twenty-fifth held-out set and fresh24, each with real git: a file
//! copied elsewhere before the memory was written, the original deleted after it and the copy
//! renamed since (claude-task-master's `scripts/example_prd.txt`, whose text lives on as
//! `.taskmaster/templates/example_prd.md`), against a deleted file whose name another,
//! different file still has, and one whose text lives on in two copies (no one successor); a
//! bare name whose one file git stopped tracking and ignores where it was (open4goods'
//! `application-devsec.yml`): each developer's own file since; and a name whose removing commit
//! brought in, in the same file, the one definition holding it with an affix (freya's
//! `NativeRouter` → `NativeRouterExt`).

mod common;

use common::{commit_on_day as commit, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, Outcome, Verdict};

fn file(path: &str) -> Claim {
    common::file_claim(path)
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
        write(r, "scripts/guide.txt", &prd("onboarding"));
    });
    // Day 1: the example is copied to `assets/`, and an unrelated `notes.txt` is added there.
    commit(root, 1, |r| {
        write(r, "assets/example_prd.txt", &prd("launcher"));
        write(r, "assets/notes.txt", &prd("weather"));
        write(r, "assets/guide.txt", &prd("onboarding"));
        write(r, "site/guide.md", &prd("onboarding"));
    });
    // Day 2, after the memory: the originals go. Day 3: the copy is renamed to Markdown.
    commit(root, 2, |r| {
        std::fs::remove_file(r.join("scripts/example_prd.txt")).unwrap();
        std::fs::remove_file(r.join("scripts/notes.txt")).unwrap();
        std::fs::remove_file(r.join("scripts/guide.txt")).unwrap();
    });
    commit(root, 3, |r| {
        std::fs::create_dir_all(r.join("templates")).unwrap();
        std::fs::rename(r.join("assets/example_prd.txt"), r.join("templates/example_prd.md")).unwrap();
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY + DAY / 2);
    let claims = vec![file("scripts/example_prd.txt"), file("scripts/notes.txt"), file("scripts/guide.txt")];
    let outcomes = common::check_as_validate(&evidence, memory, claims);
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
    // Two copies: places it may have gone to, none of them its successor.
    match &outcomes[2] {
        Outcome::Checked { verdict, successor, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Ambiguous, "{evidence}");
            assert_eq!(successor.as_deref(), None, "{evidence}");
            assert!(evidence.contains("assets/guide.txt") && evidence.contains("site/guide.md"), "{evidence}");
        }
        other => panic!("the guide copied twice: {other:?}"),
    }
}

#[test]
fn a_bare_name_whose_one_file_was_untracked_and_ignored_is_each_checkouts_own() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "api/src/main/resources/application-devsec.yml", "secret: local\nport: 8081\n");
        write(r, "api/src/main/resources/application.yml", "port: 8080\n");
    });
    // Day 2, after the memory: the developer file stops being tracked and is ignored where it was.
    commit(root, 2, |r| {
        std::fs::remove_file(r.join("api/src/main/resources/application-devsec.yml")).unwrap();
        write(r, "api/src/main/resources/.gitignore", "application-devsec.yml\n");
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    let outcomes = common::check_as_validate(&evidence, memory, vec![file("application-devsec.yml")]);
    match &outcomes[0] {
        Outcome::NotChecked { reason } => assert!(reason.contains("kept by each checkout"), "{reason}"),
        other => panic!("the developer's own file: {other:?}"),
    }
}

#[test]
fn a_name_removed_by_the_commit_that_brought_it_in_with_an_affix_is_renamed() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(
            r,
            "src/router.rs",
            "pub struct NativeRouter {\n    routes: Vec<String>,\n}\n\npub fn helper() -> u32 {\n    7\n}\n",
        );
    });
    // Day 2, after the memory: the component becomes an extension trait in the same file.
    commit(root, 2, |r| {
        write(
            r,
            "src/router.rs",
            "pub trait NativeRouterExt {\n    fn native_router(&self) -> u32;\n}\n\npub fn helper() -> u32 {\n    7\n}\n",
        );
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    let claim = Claim {
        claim_type: ClaimType::SymbolReference,
        claim_text: "`NativeRouter` is defined in the repo".into(),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { symbol: Some("NativeRouter".into()), ..CodeRef::path(".") }],
        assertion: None,
    };
    match &common::check_as_validate(&evidence, memory, vec![claim])[0] {
        Outcome::Checked { verdict, successor, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Stale, "{evidence}");
            assert_eq!(successor.as_deref(), Some("NativeRouterExt"), "{evidence}");
        }
        other => panic!("the reshaped router: {other:?}"),
    }
}
