//! What every loader shares: the problem list, repo-relative folders, and path containment.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use memval_proto::Memory;

use crate::loaded::Problem;

/// State of one load.
pub(crate) struct Ctx {
    /// Canonical repo root, for `context_dir`.
    repo_root: PathBuf,
    pub problems: Vec<Problem>,
}

impl Ctx {
    pub fn new(repo_root: PathBuf) -> Self {
        Ctx { repo_root, problems: Vec::new() }
    }

    pub fn problem(&mut self, path: impl Into<PathBuf>, reason: impl Into<String>) {
        let (path, reason) = (path.into(), reason.into());
        // Debug, not warn: problems go back to the caller, who shows them once.
        tracing::debug!(path = %path.display(), reason = %reason, "memory skipped");
        self.problems.push(Problem { path, reason });
    }

    /// The folder of `file` (canonical) relative to the repo root: `""` for the root itself,
    /// `None` when the file is outside the repo.
    /// `path` (canonical) relative to the repo root, `None` when it is outside the repo.
    pub fn repo_relative(&self, path: &Path) -> Option<PathBuf> {
        path.strip_prefix(&self.repo_root).ok().map(Path::to_path_buf)
    }

    pub fn context_dir(&self, file: &Path) -> Option<String> {
        rel_string(&self.repo_root, file.parent()?)
    }
}

/// `path` relative to `base`, with `/` separators; `None` when `path` is not below `base`.
pub(crate) fn rel_string(base: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(base).ok()?;
    let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    Some(parts.join("/"))
}

/// The canonical path of `path` when it stays inside `root` (canonical), symlinks resolved.
/// The error is a Problem reason.
pub(crate) fn inside(root: &Path, path: &Path) -> Result<PathBuf, String> {
    let canon = std::fs::canonicalize(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "the file does not exist".to_string(),
        _ => format!("cannot read: {e}"),
    })?;
    if !canon.starts_with(root) {
        return Err(format!(
            "resolves to {}, outside the memory folder {}; memval does not follow links out of it",
            canon.display(),
            root.display()
        ));
    }
    Ok(canon)
}

/// Joins a relative link target onto `dir` without touching the file system, refusing
/// absolute targets and URLs.
pub(crate) fn join_relative(dir: &Path, target: &str) -> Option<PathBuf> {
    let target = target.trim();
    if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let rel = Path::new(target);
    if rel.is_absolute() || rel.components().any(|c| matches!(c, Component::Prefix(_))) {
        return None;
    }
    Some(dir.join(rel))
}

/// Makes ids unique within a load: the second memory with id `x` becomes `x~2`, the third
/// `x~3`, skipping suffixes already taken. First come keeps its id, so the order of the input
/// decides, and ids of unique memories never change.
pub(crate) fn dedupe_ids(memories: &mut [Memory]) {
    let mut taken: HashMap<String, u32> = HashMap::new();
    for m in memories.iter() {
        taken.entry(m.id.clone()).or_insert(0);
    }
    let mut seen: HashMap<String, u32> = HashMap::new();
    for m in memories.iter_mut() {
        let count = seen.entry(m.id.clone()).or_insert(0);
        *count += 1;
        if *count == 1 {
            continue;
        }
        let mut n = *count;
        let renamed = loop {
            let candidate = format!("{}~{n}", m.id);
            if !taken.contains_key(&candidate) {
                break candidate;
            }
            n += 1;
        };
        *count = n;
        tracing::warn!(id = %m.id, renamed = %renamed, source = %m.source, "duplicate memory id renamed");
        taken.insert(renamed.clone(), 0);
        m.id = renamed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memval_proto::Source;

    fn memory(id: &str) -> Memory {
        Memory {
            id: id.into(),
            agent: "a".into(),
            content: String::new(),
            tier: 0,
            kind: "memory".into(),
            created_at: None,
            updated_at: None,
            source: Source { path: "m.json".into(), line: None, row: None, format: "json".into() },
            context_dir: None,
            first_line: 1,
        }
    }

    #[test]
    fn duplicate_ids_get_a_suffix() {
        let mut ms: Vec<Memory> = ["1", "2", "1", "1~2", "1"].iter().map(|i| memory(i)).collect();
        dedupe_ids(&mut ms);
        let ids: Vec<&str> = ms.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids, ["1", "2", "1~3", "1~2", "1~4"]);
    }

    #[test]
    fn rel_string_uses_slashes() {
        let base = Path::new("/r");
        assert_eq!(rel_string(base, Path::new("/r/a/b")), Some("a/b".into()));
        assert_eq!(rel_string(base, Path::new("/r")), Some(String::new()));
        assert_eq!(rel_string(base, Path::new("/x")), None);
    }

    #[test]
    fn join_relative_refuses_urls_and_absolute_paths() {
        let dir = Path::new("/m");
        assert_eq!(join_relative(dir, "a.md"), Some(PathBuf::from("/m/a.md")));
        assert_eq!(join_relative(dir, "https://x/a.md"), None);
        assert_eq!(join_relative(dir, "/etc/passwd"), None);
    }
}
