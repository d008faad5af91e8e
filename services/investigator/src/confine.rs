//! Keeps every path a memory names inside the repo root.
//!
//! No path from a memory is read unless it stays inside the repo root after normalisation *and*
//! after following symlinks. `..`, absolute paths, `~`, drive letters and NUL are refused before
//! any file system call; a symlink that resolves outside the root is refused. A refused claim is
//! reported as not checked, with the reason. The Tier B tools resolve every path a model names
//! through here as well.

use std::path::{Component, Path, PathBuf};

/// Why a path from a memory was not looked at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("absolute path {0:?} refused: memval only reads inside the repo root")]
    Absolute(String),
    #[error("path {0:?} refused: `..` could leave the repo root")]
    ParentDir(String),
    #[error("path {0:?} refused: it resolves outside the repo root (symlink)")]
    SymlinkEscape(String),
    #[error("path {0:?} refused: not a plain relative path")]
    Malformed(String),
}

/// A canonical repo root that hands out only paths inside itself.
#[derive(Debug, Clone)]
pub struct RepoRoot {
    root: PathBuf,
}

impl RepoRoot {
    pub fn new(root: &Path) -> std::io::Result<RepoRoot> {
        Ok(RepoRoot { root: root.canonicalize()? })
    }

    pub fn path(&self) -> &Path {
        &self.root
    }

    /// Normalise a repo-relative path as a memory wrote it (`./a//b/` → `a/b`), refusing
    /// anything that is absolute or climbs out. Pure: touches no file.
    pub fn normalise(raw: &str) -> Result<String, Refusal> {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.contains('\0') {
            return Err(Refusal::Malformed(raw.to_owned()));
        }
        if trimmed.starts_with('/') || trimmed.starts_with('\\') || trimmed.starts_with('~') || has_drive(trimmed) {
            return Err(Refusal::Absolute(raw.to_owned()));
        }
        let mut parts = Vec::new();
        for component in Path::new(&trimmed.replace('\\', "/")).components() {
            match component {
                Component::Normal(part) => {
                    parts.push(part.to_str().ok_or_else(|| Refusal::Malformed(raw.to_owned()))?.to_owned())
                }
                Component::CurDir => {}
                Component::ParentDir => return Err(Refusal::ParentDir(raw.to_owned())),
                Component::RootDir | Component::Prefix(_) => return Err(Refusal::Absolute(raw.to_owned())),
            }
        }
        Ok(if parts.is_empty() { ".".to_owned() } else { parts.join("/") })
    }

    /// The on-disk path for a normalised relative path, if it exists and stays inside the
    /// root after following symlinks. `Ok(None)` when nothing is there.
    pub fn resolve_existing(&self, rel: &str) -> Result<Option<PathBuf>, Refusal> {
        let rel = RepoRoot::normalise(rel)?;
        let joined = if rel == "." { self.root.clone() } else { self.root.join(&rel) };
        match joined.canonicalize() {
            Ok(real) if real.starts_with(&self.root) => Ok(Some(real)),
            Ok(_) => Err(Refusal::SymlinkEscape(rel)),
            Err(_) => {
                // A dangling symlink still must not be followed; report it as missing.
                Ok(None)
            }
        }
    }
}

fn has_drive(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_cases() {
        let ok =
            [("src/lib.rs", "src/lib.rs"), ("./src//lib.rs", "src/lib.rs"), ("src/cache/", "src/cache"), (".", ".")];
        for (raw, want) in ok {
            assert_eq!(RepoRoot::normalise(raw).unwrap(), want, "{raw}");
        }
        let refused = ["../etc/passwd", "src/../../x", "/etc/passwd", "~/.ssh/id_rsa", "C:\\Windows", "a\0b", ""];
        for raw in refused {
            assert!(RepoRoot::normalise(raw).is_err(), "{raw:?} must be refused");
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlink_out_of_the_root_is_refused() {
        let dir = std::env::temp_dir().join(format!("memval-confine-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("repo/src")).unwrap();
        std::fs::write(dir.join("secret.txt"), "secret").unwrap();
        std::fs::write(dir.join("repo/src/a.rs"), "fn a() {}").unwrap();
        std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("repo/leak.txt")).unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("repo/up")).unwrap();
        let root = RepoRoot::new(&dir.join("repo")).unwrap();
        assert!(root.resolve_existing("src/a.rs").unwrap().is_some());
        assert!(root.resolve_existing("src/missing.rs").unwrap().is_none());
        assert_eq!(root.resolve_existing("leak.txt"), Err(Refusal::SymlinkEscape("leak.txt".into())));
        assert!(matches!(root.resolve_existing("up/secret.txt"), Err(Refusal::SymlinkEscape(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
