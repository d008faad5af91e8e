//! What a load gives back: the format detected, the memories, and what could not be read or
//! was read under another name. Every format's reader uses these types; they use no reader.

use std::path::PathBuf;

use memval_proto::Memory;

/// The format a memories path was detected as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Json,
    Jsonl,
    Sqlite,
    ClaudeCode,
    Gaai,
    Notes,
}

impl Format {
    /// The name used in [`memval_proto::Source::format`].
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Sqlite => "sqlite",
            Format::ClaudeCode => "claude-code",
            Format::Gaai => "gaai",
            Format::Notes => "notes",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A file, line or row that could not be loaded. The rest of the load still goes through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file concerned, below the path given to [`crate::load`].
    pub path: PathBuf,
    /// What is wrong and, for multi-memory files, where (`line 3: ...`, `row 12: ...`).
    pub reason: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

/// A notes file reached again under another name (`CLAUDE.md`, a link to `AGENTS.md`): its
/// memory is loaded once, as `same_as`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The other name, below the path given to [`crate::load`].
    pub path: PathBuf,
    /// The id of the memory loaded from the file.
    pub same_as: String,
}

impl std::fmt::Display for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is the same file as {}, read once under that name", self.path.display(), self.same_as)
    }
}

/// The outcome of [`crate::load`]: what was read, and what could not be.
#[derive(Debug, Clone)]
pub struct LoadReport {
    pub format: Format,
    /// In input order (file order, line order, row id order); ids are unique.
    pub memories: Vec<Memory>,
    pub problems: Vec<Problem>,
    /// Names under which an already loaded file was found again (notes folders only).
    pub links: Vec<Link>,
}
