//! Which paths an integration may read: a path named by an agent (a hook payload's
//! `file_path`, an MCP tool's `memories`) is resolved, symlinks and `..` included, and kept
//! only when it is inside the root the caller was given, or inside that project's Claude Code
//! memory folder (`~/.claude/projects/<project slug>/memory`), which lives outside the repo
//! by design.
//!
//! Never: read, stat beyond existence, or return a path that resolves outside those roots.
//!
//! The project slug is the root's absolute path with every character that is not an ASCII letter
//! or digit written as `-` (`/home/me/app` → `-home-me-app`); Claude Code's home is
//! `$CLAUDE_CONFIG_DIR`, else `$HOME/.claude`. Every path an agent names reaches the file system
//! only through `Roots::resolve`.

use std::path::{Component, Path, PathBuf};

use crate::Error;

/// The folder Claude Code keeps `root`'s auto-memory in: `<claude home>/projects/<slug>/memory`,
/// where the slug is the project's absolute path with every character that is not ASCII
/// alphanumeric written as `-` (`/home/me/app` → `-home-me-app`).
pub fn claude_memory_dir(claude_home: &Path, root: &Path) -> PathBuf {
    let slug: String =
        root.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    claude_home.join("projects").join(slug).join("memory")
}

/// Claude Code's home: `$CLAUDE_CONFIG_DIR`, else `$HOME/.claude`.
pub fn claude_home() -> Option<PathBuf> {
    std::env::var_os("CLAUDE_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".claude")))
}

/// The roots a caller's paths may resolve into.
#[derive(Debug, Clone)]
pub struct Roots {
    /// The project or repo, canonical.
    pub root: PathBuf,
    /// Its Claude Code memory folder, canonical, when it exists.
    pub memory_dir: Option<PathBuf>,
}

impl Roots {
    /// `root` (which must be a folder) and its Claude memory folder under `claude_home`.
    pub fn new(root: &Path, claude_home: Option<&Path>) -> Result<Roots, Error> {
        let canonical = root
            .canonicalize()
            .map_err(|e| Error::BadInput(format!("{} is not a readable folder: {e}", root.display())))?;
        if !canonical.is_dir() {
            return Err(Error::BadInput(format!("{} is not a folder", root.display())));
        }
        // Claude Code names the folder after the path it was started in, which is the
        // canonical path for a plain checkout; both spellings are tried for a symlinked one.
        let memory_dir = claude_home.and_then(|home| {
            [root, canonical.as_path()]
                .iter()
                .filter(|r| r.is_absolute())
                .find_map(|r| claude_memory_dir(home, r).canonicalize().ok())
        });
        Ok(Roots { root: canonical, memory_dir })
    }

    /// `given` (relative paths are relative to the root), resolved, when it exists and lies
    /// inside the root or the memory folder; a refusal naming both otherwise.
    pub fn resolve(&self, given: &Path) -> Result<PathBuf, Error> {
        let joined = if given.is_absolute() { given.to_path_buf() } else { self.root.join(given) };
        let resolved = match joined.canonicalize() {
            Ok(p) => p,
            // A path that does not exist is refused the same way when it cannot be inside
            // the roots even lexically, so the error never hints at what exists outside.
            Err(e) => {
                let lexical = lexical_normal(&joined);
                if !self.contains(&lexical) {
                    return Err(self.refusal(given));
                }
                return Err(Error::BadInput(format!("{} cannot be read: {e}", given.display())));
            }
        };
        if self.contains(&resolved) {
            Ok(resolved)
        } else {
            Err(self.refusal(given))
        }
    }

    /// Whether `path` (already resolved) is inside the root or the memory folder.
    pub fn contains(&self, path: &Path) -> bool {
        path.starts_with(&self.root) || self.memory_dir.as_deref().is_some_and(|m| path.starts_with(m))
    }

    fn refusal(&self, given: &Path) -> Error {
        let also = match &self.memory_dir {
            Some(m) => format!(" or its Claude memory folder {}", m.display()),
            None => String::new(),
        };
        Error::Refused(format!(
            "{} is outside {}{also}; memval reads nothing outside the folder it was given",
            given.display(),
            self.root.display()
        ))
    }
}

/// `path` with `.` and `..` removed without touching the file system.
fn lexical_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slug_is_the_path_with_every_other_character_a_dash() {
        for (root, slug) in [("/home/me/app", "-home-me-app"), ("/srv/my.repo_2", "-srv-my-repo-2")] {
            assert_eq!(
                claude_memory_dir(Path::new("/h/.claude"), Path::new(root)),
                Path::new("/h/.claude/projects").join(slug).join("memory")
            );
        }
    }

    #[test]
    fn paths_resolve_inside_the_roots_or_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let home = dir.path().join("claude");
        std::fs::create_dir_all(repo.join("docs")).unwrap();
        std::fs::write(repo.join("CLAUDE.md"), "x").unwrap();
        std::fs::write(dir.path().join("secret.md"), "x").unwrap();
        let memory = claude_memory_dir(&home, &repo.canonicalize().unwrap());
        std::fs::create_dir_all(&memory).unwrap();
        std::fs::write(memory.join("MEMORY.md"), "x").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret.md"), repo.join("docs/link.md")).unwrap();
        let roots = Roots::new(&repo, Some(&home)).unwrap();
        assert!(roots.resolve(Path::new("CLAUDE.md")).is_ok());
        assert!(roots.resolve(&memory.join("MEMORY.md")).is_ok(), "the project's memory folder is allowed");
        for outside in [
            dir.path().join("secret.md"),
            repo.join("../secret.md"),
            repo.join("docs/link.md"),
            PathBuf::from("/etc/passwd"),
        ] {
            let err = roots.resolve(&outside).unwrap_err();
            assert!(matches!(err, Error::Refused(_)), "{}: {err}", outside.display());
        }
        // Missing but inside: a read error, not a refusal.
        assert!(matches!(roots.resolve(Path::new("nope.md")), Err(Error::BadInput(_))));
        assert!(matches!(roots.resolve(&repo.join("../nope.md")), Err(Error::Refused(_))));
    }
}
