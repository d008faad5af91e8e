//! A file git cannot date (its history is unreadable) says why its checks were not made:
//! git's own error, never "the file has no date" as if history had nothing to say.

use std::path::Path;
use std::process::Command;

use memval_reconciler::{reconcile, Inputs};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn inputs(repo: &Path) -> Inputs {
    Inputs {
        repo: repo.to_path_buf(),
        memories: vec![repo.join("CLAUDE.md")],
        now: 1_800_000_000,
        pair_cap: memval_reconciler::candidates::Cap::Default,
        per_agent: 200,
        method: memval_reconciler::candidates::Method::Keyword,
    }
}

fn guide_reason(repo: &Path) -> String {
    let (report, _) = reconcile(&inputs(repo)).expect("reconciles");
    let found: Vec<_> = report.docs.not_checked.iter().filter(|n| n.file == "docs/guide.md").collect();
    assert_eq!(found.len(), 1, "one not-checked entry for the guide: {:?}", report.docs.not_checked);
    found[0].reason.clone()
}

#[test]
fn an_unreadable_history_is_the_reason_not_a_missing_date() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path();
    git(repo, &["init", "-q", "-b", "main"]);
    // The guide declares the code it depends on but carries no date of its own: its date can
    // only come from git.
    write(repo, "docs/guide.md", "---\ndepends_on:\n  code_paths:\n    - src/a.rs\n---\n# Guide\n");
    write(repo, "src/a.rs", "pub fn a() {}\n");
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "first"]);
    write(repo, "CLAUDE.md", "# Notes\n\nThe entry point is `src/a.rs`.\n");
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "second"]);

    // Sound history first: the guide is dated by git and its code path is checked.
    let (report, _) = reconcile(&inputs(repo)).expect("reconciles");
    assert!(report.docs.not_checked.iter().all(|n| n.file != "docs/guide.md"), "{:?}", report.docs.not_checked);

    // Now lose the first commit's object, as a damaged or partial clone does: HEAD is still
    // there, but the guide's last commit can no longer be read.
    let first = git(repo, &["rev-parse", "HEAD~1"]);
    let first = first.trim();
    std::fs::remove_file(repo.join(".git/objects").join(&first[..2]).join(&first[2..])).unwrap();
    let reason = guide_reason(repo);
    assert!(reason.contains("git could not date the file"), "{reason}");
    assert!(!reason.contains("no front matter date"), "{reason}");
}
