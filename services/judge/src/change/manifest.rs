//! `subject-manifest.v1`: the identity of the exact subject a validation judges.
//!
//! A manifest lists every file under the observation root (minus fixed exclusions: version
//! control and build output) with its kind, executable bit and sha256, and carries the sha256
//! of its own canonical JSON. It is derived at the start and at the end of a validation; two
//! manifests that differ mean the subject mutated while it was judged.
//!
//! Deriving a manifest must never follow a symlink (a link is recorded by its target text) and
//! never read outside the root.
//!
//! `subject-manifest.v1`: every file under the root except `.git`, `target`, `node_modules`,
//! `__pycache__`, the `.pytest_cache`/`.mypy_cache`/`.ruff_cache` tool caches and `.memval`; per
//! file its path, kind, executable bit and sha256; a symlink by its target text, never followed; a
//! FIFO or device refuses the subject; the digest is the sha256 of the canonical JSON.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::ChangeError;

pub const SCHEMA: &str = "subject-manifest.v1";

/// Directory names never observed, wherever they occur: version control, build output and
/// tool caches (their contents are produced by the judging itself, e.g. a test run's
/// `target/` or `.pytest_cache/`), and memval's own store.
pub const EXCLUSIONS: [&str; 8] =
    [".git", "target", "node_modules", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".memval"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    File,
    Symlink,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Relative to the root, `/`-separated.
    pub path: String,
    pub kind: Kind,
    pub executable: bool,
    /// Of the file's bytes; of the link's target text for a symlink.
    pub sha256: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema: String,
    pub roots: Vec<String>,
    pub exclusions: Vec<String>,
    pub files: Vec<Entry>,
    /// sha256 of the canonical manifest: this object without `digest`, as compact JSON with
    /// files sorted by path.
    pub digest: String,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(bytes);
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(hex(&h.finalize()))
}

/// Derive the manifest of everything under `root`.
pub fn derive(root: &Path) -> Result<Manifest, ChangeError> {
    let meta = std::fs::metadata(root)
        .map_err(|e| ChangeError::Input(format!("cannot read the subject root {}: {e}", root.display())))?;
    if !meta.is_dir() {
        return Err(ChangeError::Input(format!("the subject root {} is not a directory", root.display())));
    }
    let mut files = Vec::new();
    walk(root, "", &mut files)?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(seal(vec![".".into()], files))
}

fn seal(roots: Vec<String>, files: Vec<Entry>) -> Manifest {
    let mut m = Manifest {
        schema: SCHEMA.into(),
        roots,
        exclusions: EXCLUSIONS.iter().map(|s| s.to_string()).collect(),
        files,
        digest: String::new(),
    };
    m.digest = canonical_digest(&m);
    m
}

/// The digest of `m` as if its `digest` field were absent.
pub fn canonical_digest(m: &Manifest) -> String {
    // serde_json writes struct fields in declaration order and a BTreeMap in key order, so
    // this text is the same for the same manifest on every machine.
    let mut files = m.files.clone();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let canonical = serde_json::json!({
        "exclusions": m.exclusions,
        "files": files,
        "roots": m.roots,
        "schema": m.schema,
    });
    sha256_hex(canonical.to_string().as_bytes())
}

fn walk(dir: &Path, prefix: &str, out: &mut Vec<Entry>) -> Result<(), ChangeError> {
    let read = std::fs::read_dir(dir).map_err(|e| ChangeError::Input(format!("cannot list {}: {e}", dir.display())))?;
    let mut names: Vec<_> = read.filter_map(|e| e.ok()).collect();
    names.sort_by_key(|e| e.file_name());
    for entry in names {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return Err(ChangeError::Input(format!("a file name under {} is not UTF-8: {:?}", dir.display(), name)));
        };
        let rel = if prefix.is_empty() { name.to_owned() } else { format!("{prefix}/{name}") };
        let path = entry.path();
        let meta =
            std::fs::symlink_metadata(&path).map_err(|e| ChangeError::Input(format!("cannot stat {rel}: {e}")))?;
        let ft = meta.file_type();
        if ft.is_dir() {
            if EXCLUSIONS.contains(&name) {
                continue;
            }
            walk(&path, &rel, out)?;
        } else if ft.is_symlink() {
            let target = std::fs::read_link(&path)
                .map_err(|e| ChangeError::Input(format!("cannot read the link {rel}: {e}")))?;
            out.push(Entry {
                path: rel,
                kind: Kind::Symlink,
                executable: false,
                sha256: sha256_hex(target.as_os_str().as_encoded_bytes()),
            });
        } else if ft.is_file() {
            let sha256 = file_sha256(&path).map_err(|e| ChangeError::Input(format!("cannot read {rel}: {e}")))?;
            out.push(Entry { path: rel, kind: Kind::File, executable: meta.permissions().mode() & 0o111 != 0, sha256 });
        } else {
            // A FIFO, socket or device is never opened (reading one can block forever); it
            // cannot be part of a subject's identity, so the subject is refused.
            return Err(ChangeError::Input(format!("{rel} is neither a file, a directory nor a symlink")));
        }
    }
    Ok(())
}

/// Paths added, removed or changed (content, kind or executable bit) between two manifests.
pub fn changed_paths(before: &Manifest, after: &Manifest) -> Vec<String> {
    let a: BTreeMap<&str, &Entry> = before.files.iter().map(|e| (e.path.as_str(), e)).collect();
    let b: BTreeMap<&str, &Entry> = after.files.iter().map(|e| (e.path.as_str(), e)).collect();
    let mut out: Vec<String> = Vec::new();
    for (path, ea) in &a {
        match b.get(path) {
            Some(eb) if eb == ea => {}
            Some(_) => out.push(format!("{path} (changed)")),
            None => out.push(format!("{path} (removed)")),
        }
    }
    for path in b.keys() {
        if !a.contains_key(path) {
            out.push(format!("{path} (added)"));
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, sha: &str) -> Entry {
        Entry { path: path.into(), kind: Kind::File, executable: false, sha256: sha.into() }
    }

    #[test]
    fn the_digest_depends_on_content_not_on_listing_order() {
        let a = seal(vec![".".into()], vec![entry("a", "1"), entry("b", "2")]);
        let b = seal(vec![".".into()], vec![entry("b", "2"), entry("a", "1")]);
        assert_eq!(a.digest, b.digest);
        let c = seal(vec![".".into()], vec![entry("a", "1"), entry("b", "3")]);
        assert_ne!(a.digest, c.digest);
        assert_eq!(canonical_digest(&a), a.digest);
    }

    #[test]
    fn changed_paths_name_each_difference() {
        let before = seal(vec![".".into()], vec![entry("a", "1"), entry("b", "2"), entry("c", "3")]);
        let mut exec = entry("c", "3");
        exec.executable = true;
        let after = seal(vec![".".into()], vec![entry("a", "1"), exec, entry("d", "4")]);
        assert_eq!(changed_paths(&before, &after), vec!["b (removed)", "c (changed)", "d (added)"]);
        assert!(changed_paths(&before, &before).is_empty());
    }

    #[test]
    fn derive_records_kinds_excludes_build_output_and_never_follows_links() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join("target/debug")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join("src/lib.rs"), "fn a() {}\n").unwrap();
        std::fs::write(root.join("run.sh"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(root.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(root.join("target/debug/out"), "x").unwrap();
        std::fs::write(root.join(".git/HEAD"), "x").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", root.join("outside")).unwrap();
        let m = derive(root).unwrap();
        let paths: Vec<&str> = m.files.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, vec!["outside", "run.sh", "src/lib.rs"]);
        assert_eq!(m.files[0].kind, Kind::Symlink);
        assert_eq!(m.files[0].sha256, sha256_hex(b"/etc/passwd"));
        assert!(m.files[1].executable);
        assert_eq!(m.files[2].sha256, sha256_hex(b"fn a() {}\n"));
        assert_eq!(m.schema, SCHEMA);
        std::fs::write(root.join("src/lib.rs"), "fn b() {}\n").unwrap();
        assert_eq!(changed_paths(&m, &derive(root).unwrap()), vec!["src/lib.rs (changed)"]);
    }
}
