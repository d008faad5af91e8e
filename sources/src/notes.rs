//! Notes files: CLAUDE.md, AGENTS.md, `.cursorrules`, `.github/copilot-instructions.md`,
//! `**/docs/**/*.md` and `**/README.md`. Each file is one memory holding the whole file, so
//! a claim's line number is the file's line number.

use std::path::{Path, PathBuf};

use ignore::WalkBuilder;
use memval_proto::{Memory, Source};

use crate::claude::{CREATED_KEYS, UPDATED_KEYS};
use crate::common::{inside, rel_string, Ctx};
use memval_git::GitDates;
use crate::{dates, frontmatter, text, Format, SourceError};

/// Vendored, generated and tool folders never scanned. Hidden folders are skipped too,
/// except `.github` (Copilot instructions) and `.claude` (Claude Code's project CLAUDE.md).
const SKIPPED_DIRS: &[&str] = &[
    "node_modules",
    "target",
    "dist",
    "build",
    "vendor",
    "third_party",
    "bower_components",
    "venv",
    "__pycache__",
];

/// Loads one notes file given directly.
pub(crate) fn load_file(path: &Path, ctx: &mut Ctx) -> Result<Vec<Memory>, SourceError> {
    let canon = std::fs::canonicalize(path).map_err(|e| SourceError::io(path, e))?;
    let dir = canon.parent().unwrap_or(Path::new("/")).to_path_buf();
    let git = GitDates::lookup(&dir, std::slice::from_ref(&canon));
    let id = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string_lossy().into_owned());
    match memory(id, &canon, path, &git, ctx) {
        Ok(m) => Ok(vec![m]),
        Err(reason) => {
            ctx.problem(path, reason);
            Ok(Vec::new())
        }
    }
}

/// Loads every notes file under `dir`, honouring `.gitignore`. A folder with none is not a
/// notes folder: that is an error, so a mistyped path does not look like a clean run.
pub(crate) fn load_dir(dir: &Path, ctx: &mut Ctx) -> Result<Vec<Memory>, SourceError> {
    let root = std::fs::canonicalize(dir).map_err(|e| SourceError::io(dir, e))?;
    let mut files: Vec<(PathBuf, PathBuf, String)> = Vec::new(); // (canonical, shown, id)
    for found in walk(dir) {
        let shown = dir.join(&found);
        match inside(&root, &shown) {
            Ok(canon) if canon.is_file() => {
                let id = rel_string(Path::new(""), &found).unwrap_or_default();
                files.push((canon, shown, id));
            }
            Ok(_) => {}
            Err(why) => ctx.problem(&shown, why),
        }
    }
    if files.is_empty() && ctx.problems.is_empty() {
        return Err(SourceError::Unrecognised {
            path: dir.to_path_buf(),
            why: "the folder has no MEMORY.md, no contexts/memory/index.md and no notes files"
                .into(),
        });
    }
    let canon: Vec<PathBuf> = files.iter().map(|(c, _, _)| c.clone()).collect();
    let git = GitDates::lookup(&root, &canon);
    let mut out = Vec::with_capacity(files.len());
    for (canon, shown, id) in files {
        match memory(id, &canon, &shown, &git, ctx) {
            Ok(m) => out.push(m),
            Err(reason) => ctx.problem(&shown, reason),
        }
    }
    Ok(out)
}

/// Whether `dir` holds at least one notes file (used by detection).
pub(crate) fn any_in(dir: &Path) -> bool {
    walk(dir).next().is_some()
}

/// Notes files under `dir`, as paths relative to it, sorted for a stable load order.
fn walk(dir: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    let mut builder = WalkBuilder::new(dir);
    builder
        .hidden(false)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|e| {
            e.depth() == 0
                || !e.file_type().is_some_and(|t| t.is_dir())
                || !skipped_dir(&e.file_name().to_string_lossy())
        });
    builder.build().filter_map(move |entry| {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!(error = %e, "skipping an entry the folder walk could not read");
                return None;
            }
        };
        let ty = entry.file_type()?;
        if ty.is_dir() {
            return None;
        }
        let rel = entry.path().strip_prefix(dir).ok()?.to_path_buf();
        is_notes_file(&rel).then_some(rel)
    })
}

fn skipped_dir(name: &str) -> bool {
    SKIPPED_DIRS.contains(&name)
        || (name.starts_with('.') && !matches!(name, ".github" | ".claude"))
}

/// Whether a path relative to the scanned folder is one of the notes patterns.
pub(crate) fn is_notes_file(rel: &Path) -> bool {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let Some((name, dirs)) = parts.split_last() else {
        return false;
    };
    let is_md = Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md"));
    matches!(name.as_str(), "CLAUDE.md" | "AGENTS.md" | ".cursorrules")
        || (name == "copilot-instructions.md" && dirs.last().is_some_and(|d| d == ".github"))
        || name.eq_ignore_ascii_case("README.md")
        || (is_md && dirs.iter().any(|d| d == "docs"))
}

fn memory(
    id: String,
    canon: &Path,
    shown: &Path,
    git: &GitDates,
    ctx: &Ctx,
) -> Result<Memory, String> {
    let text = text::read_text(canon)?;
    // Front matter in a notes file is someone else's: a malformed block or date is not a
    // reason to skip the file, only to fall back to the commit date.
    let fm = frontmatter::split(&text).unwrap_or_else(|why| {
        tracing::debug!(path = %shown.display(), why = %why, "front matter ignored");
        None
    });
    let front = |keys: &[&str]| {
        let fm = fm.as_ref()?;
        let (key, value) = keys.iter().find_map(|k| fm.get(&[k]).map(|v| (*k, v)))?;
        let date = dates::parse_date(value);
        if date.is_none() {
            tracing::warn!(path = %shown.display(), key, value, "front matter date ignored, not a date");
        }
        date
    };
    let updated_at = front(UPDATED_KEYS).or_else(|| git.get(canon));
    let created_at = front(CREATED_KEYS);
    Ok(Memory {
        id,
        agent: "notes".into(),
        content: text,
        tier: 0,
        kind: "notes".into(),
        created_at,
        updated_at,
        source: Source {
            path: shown.to_string_lossy().into_owned(),
            line: None,
            row: None,
            format: Format::Notes.as_str().into(),
        },
        context_dir: ctx.context_dir(canon),
        first_line: 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(path: &str, expected: bool) {
        assert_eq!(is_notes_file(Path::new(path)), expected, "{path}");
    }

    #[test]
    fn notes_patterns() {
        check("CLAUDE.md", true);
        check(".claude/CLAUDE.md", true);
        check("services/api/AGENTS.md", true);
        check(".cursorrules", true);
        check(".github/copilot-instructions.md", true);
        check("copilot-instructions.md", false);
        check("README.md", true);
        check("pkg/readme.md", true);
        check("docs/guide/setup.md", true);
        check("api/docs/x.md", true);
        check("docs/diagram.png", false);
        check("notes/todo.md", false);
        check("CHANGELOG.md", false);
    }

    #[test]
    fn skipped_dirs() {
        assert!(skipped_dir("node_modules"));
        assert!(skipped_dir(".git"));
        assert!(skipped_dir(".venv"));
        assert!(!skipped_dir(".github"));
        assert!(!skipped_dir(".claude"));
        assert!(!skipped_dir("docs"));
    }
}

