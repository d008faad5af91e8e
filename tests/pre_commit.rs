//! The `memval-validate` hook of `.pre-commit-hooks.yaml` under the real `pre-commit` (from
//! the venv of `scripts/pytools.sh`): a scratch project installs it from a scratch copy of
//! this repository's hook definition and script, exactly as a user's config would reference
//! it, and commits. A memory with a stale reference is blocked with memval's message; a sound
//! one goes through.

#[allow(dead_code)] // not every helper is used here
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::{venv, workspace, GitRepo};

/// PATH with the built `memval` first, as a user who installed it has.
fn path_with_memval() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_memval")).parent().unwrap().to_path_buf();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default())
}

/// A git repo holding this repository's `.pre-commit-hooks.yaml` and `scripts/pre-commit.sh`
/// (what pre-commit clones from a hook repo), committed; returns it and its commit.
fn hook_repo() -> (GitRepo, String) {
    let repo = GitRepo::new();
    for rel in [".pre-commit-hooks.yaml", "scripts/pre-commit.sh"] {
        let text = std::fs::read_to_string(workspace().join(rel)).unwrap();
        repo.write(rel, &text);
    }
    let script = repo.dir.path().join("scripts/pre-commit.sh");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    repo.commit("hooks", "2026-01-01T00:00:00Z");
    let out = Command::new("git").arg("-C").arg(repo.dir.path()).args(["rev-parse", "HEAD"]).output().unwrap();
    (repo, String::from_utf8(out.stdout).unwrap().trim().to_owned())
}

fn git(dir: &Path, args: &[&str], cache: &Path) -> Output {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("PRE_COMMIT_HOME", cache)
        .env("MEMVAL_CACHE_DIR", cache.join("memval"))
        .env("PATH", path_with_memval())
        .output()
        .unwrap()
}

fn both(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn a_commit_with_a_stale_memory_is_blocked_and_a_sound_one_passes() {
    let pre_commit: PathBuf = venv::tool("pre-commit");
    let (hooks, rev) = hook_repo();
    let cache = tempfile::tempdir().unwrap();
    let project = GitRepo::new();
    project.write("src/cache.rs", "pub struct Cache {\n    shards: Vec<u8>,\n}\n");
    project.commit("init", "2026-01-01T00:00:00Z");
    project.git(&["mv", "src/cache.rs", "src/store.rs"]);
    project.commit("move", "2026-03-01T00:00:00Z");
    project.write(
        ".pre-commit-config.yaml",
        &format!(
            "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: memval-validate\n",
            hooks.dir.path().display()
        ),
    );
    let dir = project.dir.path();
    let install = Command::new(&pre_commit)
        .arg("install")
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", cache.path())
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(install.status.success(), "pre-commit install: {}", both(&install));

    // Stale: src/cache.rs moved to src/store.rs.
    project.write("CLAUDE.md", "# Notes\n\nThe cache lives in `src/cache.rs`.\n");
    assert!(git(dir, &["add", "-A"], cache.path()).status.success());
    let blocked = git(dir, &["commit", "-q", "-m", "stale memory"], cache.path());
    let said = both(&blocked);
    assert!(!blocked.status.success(), "the stale commit went through:\n{said}");
    assert!(said.contains("memval validate") && said.contains("Failed"), "{said}");
    assert!(said.contains("src/cache.rs") && said.contains("STALE"), "memval's message is not shown:\n{said}");
    let head = git(dir, &["log", "--format=%s", "-1"], cache.path());
    assert_eq!(String::from_utf8_lossy(&head.stdout).trim(), "move", "nothing was committed");

    // Sound: the same memory, corrected.
    project.write("CLAUDE.md", "# Notes\n\nThe cache lives in `src/store.rs`.\n");
    assert!(git(dir, &["add", "-A"], cache.path()).status.success());
    let passed = git(dir, &["commit", "-q", "-m", "sound memory"], cache.path());
    assert!(passed.status.success(), "the sound commit was blocked:\n{}", both(&passed));
    assert!(both(&passed).contains("Passed"), "{}", both(&passed));
    // Another tool's rules file is a memory too.
    project.write(
        ".cursor/rules/cache.mdc",
        "---\ndescription: the cache\nalwaysApply: true\n---\nThe cache lives in `src/cache.rs`.\n",
    );
    assert!(git(dir, &["add", "-A"], cache.path()).status.success());
    let blocked = git(dir, &["commit", "-q", "-m", "stale rule"], cache.path());
    let said = both(&blocked);
    assert!(
        !blocked.status.success() && said.contains("src/cache.rs") && said.contains("STALE"),
        "a stale Cursor rule went through:\n{said}"
    );
    project.write(
        ".cursor/rules/cache.mdc",
        "---\ndescription: the cache\nalwaysApply: true\n---\nThe cache lives in `src/store.rs`.\n",
    );
    assert!(git(dir, &["add", "-A"], cache.path()).status.success());
    let passed = git(dir, &["commit", "-q", "-m", "sound rule"], cache.path());
    assert!(passed.status.success(), "the sound rule was blocked:\n{}", both(&passed));
    // The check wrote nothing into the repository.
    let status = git(dir, &["status", "--porcelain", "--ignored"], cache.path());
    assert_eq!(String::from_utf8_lossy(&status.stdout), "", "files left behind");
}
