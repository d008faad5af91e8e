//! What the investigator's tests with real git share: running git at a fixed date, writing a
//! file of the tree.

use std::path::Path;
use std::process::Command;

/// stdout of `git <args>` in `root`, authored and committed at `at` (Unix seconds); panics
/// with git's message when it fails.
pub fn git(root: &Path, args: &[&str], at: i64) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .env("GIT_AUTHOR_DATE", format!("@{at} +0000"))
        .env("GIT_COMMITTER_DATE", format!("@{at} +0000"))
        .current_dir(root)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Writes `text` to `path` under `root`, making its folders.
pub fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

/// The first day of the tests' repositories (2026-01-01, Unix seconds), and one day.
#[allow(dead_code)]
pub const START: i64 = 1_767_225_600;
#[allow(dead_code)]
pub const DAY: i64 = 86_400;

/// A new repository (branch `main`, no commit yet) in a temporary folder: the folder's guard and
/// its canonical path.
#[allow(dead_code)]
pub fn new_repo() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    git(&root, &["init", "-q", "-b", "main"], START);
    (dir, root)
}

/// Makes `change` in `root` and commits everything, `day` days after [`START`].
#[allow(dead_code)]
pub fn commit_on_day(root: &Path, day: i64, change: impl FnOnce(&Path)) {
    change(root);
    git(root, &["add", "-A"], START + day * DAY);
    git(root, &["commit", "-q", "-m", "change"], START + day * DAY);
}

/// The claim, on line 1 of a memory, that the file `path` exists, as the extractor words it.
#[allow(dead_code)]
pub fn file_claim(path: &str) -> memval_proto::Claim {
    memval_proto::Claim {
        claim_type: memval_proto::ClaimType::FileReference,
        claim_text: format!("`{path}` exists"),
        line: 1,
        lines: vec![1],
        code_refs: vec![memval_proto::CodeRef::path(path)],
        assertion: None,
    }
}

/// A notes file at `path` under `root`, as `validate` reads one: last written at `updated_at`
/// (Unix seconds).
#[allow(dead_code)]
pub fn notes_file(root: &Path, path: &str, updated_at: i64) -> memval_proto::MemoryMeta {
    memval_proto::MemoryMeta {
        id: path.into(),
        agent: "notes".into(),
        tier: 0,
        kind: "notes".into(),
        created_at: None,
        updated_at: Some(updated_at),
        source: memval_proto::Source {
            path: root.join(path).to_string_lossy().into_owned(),
            line: None,
            row: None,
            format: "notes".into(),
        },
        first_line: 1,
    }
}

/// The outcomes of `claims`, checked as `validate` checks a memory: in one batch, so the
/// checker knows the memory's own file and its other references.
#[allow(dead_code)]
pub fn check_as_validate(
    evidence: &memval_investigator::Evidence,
    memory: memval_proto::MemoryMeta,
    claims: Vec<memval_proto::Claim>,
) -> Vec<memval_proto::Outcome> {
    let batch = memval_proto::ClaimBatch {
        run: memval_proto::RunHeader {
            run_id: "r".into(),
            repo: "repo".into(),
            commit: None,
            started_at: 0,
            expected_memories: 1,
        },
        batch_id: "b".into(),
        items: vec![memval_proto::ExtractedMemory { memory, claims, skip_reason: None, left_out: Vec::new() }],
    };
    evidence.check_batch(batch).items.remove(0).results.into_iter().map(|r| r.outcome).collect()
}
