//! Readings found on the twenty-ninth held-out set, without history (a tree alone): a tree
//! drawn under a root folder that was renamed and moved (`extensions/` →
//! `submitqueue/extension/`), a folder moved whole with one of its named subfolders also found,
//! by name, in an unrelated place (`tests/shared` → `tests/odyssey`), and a file of one agent
//! tool's folder moved to another's (`.claude/criteria.md` → `.agents/criteria.md`). And one
//! from fresh28, with history: a folder a fetch fills, whose contents git ignores since the
//! commit that deleted what was vendored there.

mod common;

use memval_investigator::{Checker, Evidence, MemoryContext};
use memval_proto::{Claim, ClaimType, CodeRef, Outcome, Verdict};

fn tree(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for path in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, "x\n").unwrap();
    }
    dir
}

/// A file or folder reference to `path`, with other readings `alts` (a tree row's own name).
fn reference(path: &str, alts: &[&str]) -> Claim {
    Claim {
        claim_type: ClaimType::FileReference,
        claim_text: format!("`{path}` exists"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { alt_paths: alts.iter().map(|a| a.to_string()).collect(), ..CodeRef::path(path) }],
        assertion: None,
    }
}

/// The outcome of each claim, checked with the others as the memory's context.
fn check_all(dir: &tempfile::TempDir, claims: &[Claim]) -> Vec<Outcome> {
    let evidence = Evidence::open(dir.path()).unwrap();
    let context = MemoryContext::of(claims);
    let checker = Checker { context: &context, ..evidence.checker() };
    let memory = common::notes_file(dir.path(), "CLAUDE.md", common::START);
    claims.iter().map(|c| checker.check(c, &memory)).collect()
}

fn assert_stale_to(outcome: &Outcome, successor: &str, what: &str) {
    match outcome {
        Outcome::Checked { verdict, successor: got, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Stale, "{what}: {evidence}");
            assert_eq!(got.as_deref(), Some(successor), "{what}: {evidence}");
            assert!(evidence.contains("no history"), "{what}: {evidence}");
        }
        other => panic!("{what}: {other:?}"),
    }
}

#[test]
fn a_tree_whose_root_was_renamed_and_moved_is_stale_not_valid() {
    let dir = tree(&[
        "submitqueue/extension/storage/request_store.go",
        "submitqueue/extension/storage/mysql/request_store.go",
        "stovepipe/extension/storage/store.go",
        "go.mod",
    ]);
    // Rows of a tree drawn under `extensions/`, each with its own name as another reading.
    let claims = vec![
        reference("extensions/storage", &["storage"]),
        reference("extensions/storage/request_store.go", &["storage/request_store.go"]),
        reference("submitqueue/extension/storage/mysql", &[]),
    ];
    let got = check_all(&dir, &claims);
    assert_stale_to(&got[0], "submitqueue/extension/storage", "the tree's row");
    assert_stale_to(&got[1], "submitqueue/extension/storage/request_store.go", "a file of the row");
    // What is still where the memory says is VALID.
    assert!(matches!(&got[2], Outcome::Checked { verdict: Verdict::Valid, .. }), "{:?}", got[2]);
}

#[test]
fn a_folder_moved_whole_is_stale_though_one_named_child_is_found_elsewhere() {
    let dir = tree(&[
        "tests/odyssey/core/test_tensors.mojo",
        "tests/odyssey/autograd/test_grad.mojo",
        "tests/odyssey/benchmarking/test_bench.mojo",
        "tests/odyssey/integration/test_all.mojo",
        "shared/data/loader.mojo",
        "tests/agents/test_loading.py",
    ]);
    let claims = vec![
        reference("tests/shared", &[]),
        reference("tests/shared/core", &[]),
        reference("tests/shared/autograd", &[]),
        reference("tests/shared/benchmarking", &[]),
        reference("tests/shared/integration", &[]),
        reference("tests/shared/data", &[]),
        reference("tests/agents/test_loading.py", &[]),
    ];
    let got = check_all(&dir, &claims);
    assert_stale_to(&got[0], "tests/odyssey", "the folder");
    match &got[0] {
        Outcome::Checked { evidence, .. } => assert!(evidence.contains("shared"), "the stray is named: {evidence}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_file_of_one_agent_tools_folder_moved_to_anothers_is_stale() {
    let dir = tree(&[".agents/criteria-for-adding-units.md", "AGENTS.md", "docs/criteria-for-adding-units.md"]);
    let claims = vec![reference(".claude/criteria-for-adding-units.md", &[])];
    let got = check_all(&dir, &claims);
    assert_stale_to(&got[0], ".agents/criteria-for-adding-units.md", "the tool's file");
}

/// From fresh28 (OpenDocument.core): test data vendored as submodules under
/// `test/data/reference-output/` became a fetch in one commit, which deleted them and had git
/// ignore what the fetch puts there (`test/data/reference-output/odr-*/`). The folder is where
/// the build puts its data: not checked, not gone. The same folder deleted long before a rule
/// was written for what is put in it is gone.
#[test]
fn a_folder_whose_contents_git_ignores_since_its_deletion_is_the_builds_not_gone() {
    use common::{commit_on_day as commit, new_repo, write, DAY, START};
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "test/data/reference-output/odr-public/a.html", "<p>a</p>\n");
        write(r, "old/out/x.txt", "x\n");
        write(r, "src/main.cpp", "int main() {}\n");
    });
    commit(root, 2, |r| {
        std::fs::remove_dir_all(r.join("test")).unwrap();
        std::fs::remove_dir_all(r.join("old")).unwrap();
        write(r, ".gitignore", "test/data/reference-output/odr-*/\n");
    });
    commit(root, 40, |r| write(r, ".gitignore", "test/data/reference-output/odr-*/\nold/out/cache-*/\n"));
    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![common::file_claim("test/data/reference-output"), common::file_claim("old/out")],
    );
    match &got[0] {
        Outcome::NotChecked { reason } => assert!(reason.contains("ignores what is put in it"), "{reason}"),
        other => panic!("the fetched folder: {other:?}"),
    }
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Contradicted, .. }), "the old folder: {:?}", got[1]);
}
