//! Loads AI agents' memories from every docs/contracts.md §1 format into [`memval_proto::Memory`] values,
//! detecting the format itself: JSON, JSONL, validate-memory's SQLite `memory.db`, a Claude
//! Code memory folder, a GAAI memory registry, and notes files (CLAUDE.md, AGENTS.md,
//! `.cursorrules`, Copilot instructions, docs and READMEs).
//!
//! [`load`] fails only when nothing can be loaded (a missing path, an unrecognised format, an
//! unreadable top-level file). A single bad memory, line or file becomes a [`Problem`] and the
//! rest still load, so one typo never hides a hundred good memories.
//!
//! This crate must never write to, lock, or create files next to the memories it reads: the
//! SQLite database is opened read-only without leaving `-wal`/`-journal` files, and nothing
//! else is opened for writing. It must never follow a symlink out of the folder it was given,
//! and never treat memory content as anything but untrusted text.
//!
//! Dates follow docs/contracts.md §6: a file's `updated_at` comes from its front matter, else from its
//! last commit date (`git log`), else it has none.

mod claude;
mod common;
mod dates;
mod error;
mod finished;
mod frontmatter;
mod gaai;
mod json;
mod loaded;
mod notes;
mod proposal;
mod report;
mod snapshot;
mod sqlite;
mod text;

use std::io::Read;
use std::path::{Path, PathBuf};

pub use error::SourceError;
/// The GAAI registry, for tools that reason about its files (reconciliation) rather than load them.
pub use gaai::{memory_dir as gaai_memory_dir, parse_index as gaai_index, Entry as GaaiEntry};
pub use loaded::{Format, Link, LoadReport, Problem};
pub use sqlite::{reconcile_log, sqlite_config, ResolvedPair, SqliteConfig, SETTLED_RESOLUTIONS};

/// Loads every memory at `memories` (a file or a folder), detecting its format.
///
/// `repo_root` is the repository the memories describe: each file-based memory inside it
/// gets its folder relative to the root as `context_dir`.
///
/// Ids are unique within the report: a repeated id gets a `~2`, `~3`, ... suffix (first
/// come keeps the plain id), and the rename is logged.
pub fn load(memories: &Path, repo_root: &Path) -> Result<LoadReport, SourceError> {
    let repo = std::fs::canonicalize(repo_root)
        .map_err(|_| SourceError::RepoRootNotFound { path: repo_root.to_path_buf() })?;
    let plan = plan(memories)?;
    let mut ctx = common::Ctx::new(repo);
    let mut links = Vec::new();
    let path = plan.path.as_path();
    let mut loaded = match plan.format {
        Format::Json => json::load_json(path, &mut ctx)?,
        Format::Jsonl => json::load_jsonl(path, &mut ctx)?,
        Format::Sqlite => sqlite::load(path, &mut ctx)?,
        Format::ClaudeCode => claude::load(path, &mut ctx)?,
        Format::Gaai => gaai::load(path, &mut ctx)?,
        Format::Notes if plan.is_dir => notes::load_dir(path, &mut ctx, &mut links)?,
        Format::Notes => notes::load_file(path, &mut ctx)?,
    };
    common::dedupe_ids(&mut loaded);
    tracing::info!(
        path = %memories.display(),
        format = %plan.format,
        memories = loaded.len(),
        problems = ctx.problems.len(),
        "memories loaded"
    );
    Ok(LoadReport { format: plan.format, memories: loaded, problems: ctx.problems, links })
}

/// Detects the format of `memories` without loading it.
///
/// A file: SQLite header, then `.jsonl`/`.ndjson`, `.json`, notes names and `.md`/`.txt`,
/// then the content (`[` or `{` is JSON or JSONL, other text is notes). `MEMORY.md` and a
/// GAAI `index.md` given directly stand for their folder. A folder: `MEMORY.md` is Claude
/// Code, `contexts/memory/index.md` (or `index.md` with `decisions/`) is GAAI, anything
/// holding notes files is notes.
pub fn detect(memories: &Path) -> Result<Format, SourceError> {
    plan(memories).map(|p| p.format)
}

/// What to load: the format, and the file or folder its loader reads.
struct Plan {
    format: Format,
    path: PathBuf,
    is_dir: bool,
}

/// Bytes of a file looked at to detect its format.
const SNIFF_BYTES: u64 = 8 * 1024;

fn plan(memories: &Path) -> Result<Plan, SourceError> {
    let meta = std::fs::metadata(memories).map_err(|e| SourceError::io(memories, e))?;
    if meta.is_dir() {
        let format = if memories.join(claude::INDEX).is_file() {
            Format::ClaudeCode
        } else if gaai::memory_dir(memories).is_some() {
            Format::Gaai
        } else if notes::any_in(memories) {
            Format::Notes
        } else {
            return Err(SourceError::Unrecognised {
                path: memories.to_path_buf(),
                why: "the folder has no MEMORY.md, no contexts/memory/index.md and no notes files".into(),
            });
        };
        return Ok(Plan { format, path: memories.to_path_buf(), is_dir: true });
    }
    let file = |format| Ok(Plan { format, path: memories.to_path_buf(), is_dir: false });
    let mut head = Vec::new();
    text::open_regular(memories)
        .and_then(|f| f.take(SNIFF_BYTES).read_to_end(&mut head))
        .map_err(|e| SourceError::io(memories, e))?;
    if head.starts_with(sqlite::MAGIC) {
        return file(Format::Sqlite);
    }
    let name = memories.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let parent = memories.parent().map(|p| if p.as_os_str().is_empty() { Path::new(".") } else { p });
    // The index of a memory folder stands for the folder.
    if let Some(parent) = parent {
        let folder = |format| Ok(Plan { format, path: parent.to_path_buf(), is_dir: true });
        if name == claude::INDEX {
            return folder(Format::ClaudeCode);
        }
        if name == "index.md" && gaai::memory_dir(parent).is_some_and(|d| d == parent) {
            return folder(Format::Gaai);
        }
    }
    let ext = Path::new(&name).extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "jsonl" | "ndjson" => return file(Format::Jsonl),
        "json" => return file(Format::Json),
        "db" | "sqlite" | "sqlite3" => {
            return Err(SourceError::Unrecognised {
                path: memories.to_path_buf(),
                why: format!("it has a .{ext} extension but no SQLite header"),
            })
        }
        _ => {}
    }
    if let Err(why) = looks_like_text(&head) {
        return Err(SourceError::Unrecognised { path: memories.to_path_buf(), why });
    }
    if matches!(ext.as_str(), "md" | "markdown" | "mdc" | "txt") || name == ".cursorrules" {
        return file(Format::Notes);
    }
    let text = String::from_utf8_lossy(&head);
    let text = text.trim_start_matches('\u{feff}');
    match text.trim_start().chars().next() {
        Some('[') => file(Format::Json),
        Some('{') => file(sniff_object_file(text)),
        _ => file(Format::Notes),
    }
}

/// `{` starts either one JSON document or JSONL: it is JSONL when the first line is a whole
/// object on its own (and not a `{"memories": [...]}` wrapper).
fn sniff_object_file(head: &str) -> Format {
    let first = head.lines().find(|l| !l.trim().is_empty()).unwrap_or_default();
    match serde_json::from_str::<serde_json::Value>(first) {
        Ok(serde_json::Value::Object(obj)) if !obj.contains_key("memories") => Format::Jsonl,
        _ => Format::Json,
    }
}

/// Rejects binary content in the first bytes of a file (a cut multi-byte character at the
/// end of the sample is fine).
fn looks_like_text(head: &[u8]) -> Result<(), String> {
    if head.contains(&0) {
        return Err("it is a binary file".into());
    }
    match std::str::from_utf8(head) {
        Ok(_) => Ok(()),
        Err(e) if e.error_len().is_none() => Ok(()),
        Err(_) => Err("it is not UTF-8 text".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_files_are_json_or_jsonl() {
        assert_eq!(sniff_object_file("{\"id\": 1, \"content\": \"a\"}\n{\"id\": 2}"), Format::Jsonl);
        assert_eq!(sniff_object_file("{\n  \"memories\": []\n}"), Format::Json);
        assert_eq!(sniff_object_file("{\"memories\": [{\"id\": 1}]}"), Format::Json);
    }

    #[test]
    fn text_sniffing() {
        assert!(looks_like_text(b"hello \xc3").is_ok());
        assert!(looks_like_text(b"a\0b").is_err());
        assert!(looks_like_text(b"\xff\xfe abc").is_err());
    }
}
