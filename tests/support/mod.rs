//! Test support: run the real binary, build small git repos with fixed dates, build the
//! bundled example repo once per test process, and draw reproducible random numbers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

pub mod embed;
pub mod nats;
pub mod reconcile;
pub mod rng;
pub mod tmpfs;
pub mod venv;

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

pub fn memval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memval")).args(args).output().expect("memval runs")
}

/// `memval validate --format json`, asserting it completed (exit 0 or 1).
pub fn run_json(repo: &Path, memories: &str, store: &Path) -> Value {
    let out = memval(&[
        "validate",
        "--repo",
        repo.to_str().unwrap(),
        "--memories",
        memories,
        "--store",
        store.to_str().unwrap(),
        "--format",
        "json",
        "--fail-on",
        "never",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(0), "memval failed on {memories}:\n{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("json report")
}

/// The example repo of `examples/make-demo-repo.sh`, built once per test process.
pub fn demo_repo() -> PathBuf {
    static DEMO: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    DEMO.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("demo");
        let out = Command::new("bash")
            .arg(workspace().join("examples/make-demo-repo.sh"))
            .arg(&repo)
            .output()
            .expect("bash runs");
        assert!(out.status.success(), "make-demo-repo.sh failed: {}", String::from_utf8_lossy(&out.stderr));
        (dir, repo)
    })
    .1
    .clone()
}

/// A throwaway git repo whose commits carry the dates a test gives.
pub struct GitRepo {
    pub dir: tempfile::TempDir,
}

impl GitRepo {
    pub fn new() -> GitRepo {
        let repo = GitRepo { dir: tempfile::tempdir().unwrap() };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    pub fn path(&self) -> &str {
        self.dir.path().to_str().unwrap()
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    pub fn git(&self, args: &[&str]) {
        self.git_at(args, "2026-01-01T00:00:00Z");
    }

    fn git_at(&self, args: &[&str], date: &str) {
        let out = Command::new("git")
            .arg("-C")
            .arg(self.dir.path())
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"])
            .args(args)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }

    pub fn commit(&self, message: &str, date: &str) {
        self.git_at(&["add", "-A"], date);
        self.git_at(&["commit", "-q", "-m", message], date);
    }
}
