//! Notes that outlived what they describe: a folder whose one file is the notes file itself
//! (`deployment/` holding only `deployment/AGENTS.md`) is not the folder the notes describe.
//! With history, its deletion is found; without, it is gone like any missing folder. A folder
//! that holds anything else is there.

mod common;

use common::{commit_on_day as commit, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, MemoryMeta, Outcome, Verdict};

fn notes(root: &std::path::Path, path: &str) -> MemoryMeta {
    common::notes_file(root, path, START + DAY / 2)
}

fn folder(path: &str) -> Claim {
    Claim {
        claim_type: ClaimType::FileReference,
        claim_text: format!("directory `{path}/` exists"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef::path(path)],
        assertion: None,
    }
}

fn verdict(o: &Outcome) -> (Verdict, String) {
    match o {
        Outcome::Checked { verdict, evidence, .. } => (*verdict, evidence.clone()),
        other => panic!("not checked: {other:?}"),
    }
}

fn check(root: &std::path::Path, memory: &str, claims: Vec<Claim>) -> Vec<Outcome> {
    common::check_as_validate(&Evidence::open(root).unwrap(), notes(root, memory), claims)
}

#[test]
fn without_history_a_folder_holding_only_the_notes_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "deployment/AGENTS.md", "# deployment\n");
    write(&root, "charts/AGENTS.md", "# charts\n");
    write(&root, "charts/mcp-stack/values.yaml", "replicas: 1\n");
    let got = check(&root, "deployment/AGENTS.md", vec![folder("deployment"), folder("charts")]);
    let (v, evidence) = verdict(&got[0]);
    assert_eq!(v, Verdict::Contradicted, "{evidence}");
    // Another notes file's folder that holds more than it is there.
    assert_eq!(verdict(&got[1]).0, Verdict::Valid, "{:?}", got[1]);
}

#[test]
fn with_history_the_folder_the_notes_outlived_was_deleted() {
    let (_dir, root) = new_repo();
    commit(&root, 0, |r| {
        write(r, "deployment/k8s/app.yaml", "kind: Deployment\n");
        write(r, "deployment/AGENTS.md", "# deployment\n");
        write(r, "src/main.rs", "fn main() {}\n");
    });
    commit(&root, 1, |r| std::fs::remove_dir_all(r.join("deployment/k8s")).unwrap());
    let got = check(&root, "deployment/AGENTS.md", vec![folder("deployment"), folder("src")]);
    let (v, evidence) = verdict(&got[0]);
    assert_ne!(v, Verdict::Valid, "{evidence}");
    assert!(evidence.contains("deleted") || evidence.contains("gone") || evidence.contains("removed"), "{evidence}");
    assert_eq!(verdict(&got[1]).0, Verdict::Valid);
}
