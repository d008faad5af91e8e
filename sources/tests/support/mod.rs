//! Fixture helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes `content` at `dir/rel`, creating parent folders.
pub fn write(dir: &Path, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, content).unwrap();
    path
}

/// Runs git in `dir` with a fixed identity and dates, isolated from the machine's config.
pub fn git(dir: &Path, args: &[&str], date: &str) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .output()
        .expect("git is installed");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

pub fn git_init(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"], "2020-01-01T00:00:00Z");
}

/// Stages `paths` and commits them at `date` (RFC 3339).
pub fn commit(dir: &Path, paths: &[&str], date: &str) {
    let mut args = vec!["add", "--"];
    args.extend_from_slice(paths);
    git(dir, &args, date);
    git(dir, &["commit", "-q", "-m", "fixture"], date);
}

/// Unix seconds of an RFC 3339 date.
pub fn ts(rfc3339: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(rfc3339).unwrap().timestamp()
}

/// File names, sizes and a content hash in `dir`, sorted, to prove a load changed nothing
/// (hashes keep a failure message readable).
pub fn snapshot(dir: &Path) -> Vec<(String, u64, u64)> {
    use std::hash::{Hash, Hasher};
    let mut out: Vec<(String, u64, u64)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let bytes = std::fs::read(e.path()).unwrap_or_default();
            let mut h = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut h);
            (e.file_name().to_string_lossy().into_owned(), bytes.len() as u64, h.finish())
        })
        .collect();
    out.sort();
    out
}
