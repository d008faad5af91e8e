use std::path::PathBuf;

/// What memval accepts, quoted in every "not a recognised format" error so the user knows
/// what to pass instead.
pub(crate) const ACCEPTED: &str = "a JSON file (.json), a JSONL file (.jsonl), a SQLite memory.db, \
a Claude Code memory folder (with MEMORY.md), a GAAI folder (with contexts/memory/index.md), \
or notes (CLAUDE.md, AGENTS.md, .cursorrules, a .md or .txt file, or a folder holding them)";

/// A fatal input error: nothing could be loaded. Per-file trouble is a [`crate::Problem`]
/// instead, and the rest still loads.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("memories path {} does not exist: pass an existing memory file or folder", path.display())]
    NotFound { path: PathBuf },

    #[error("repo root {} does not exist: pass the folder of the repository the memories describe", path.display())]
    RepoRootNotFound { path: PathBuf },

    #[error("{} is not a recognised memory format ({why}): pass {ACCEPTED}", path.display())]
    Unrecognised { path: PathBuf, why: String },

    #[error("cannot read {}: {source}; check the path and its permissions", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("{} is not a valid {format} memory file: {reason}", path.display())]
    Malformed { path: PathBuf, format: &'static str, reason: String },

    #[error("cannot read sqlite database {}: {reason}", path.display())]
    Sqlite { path: PathBuf, reason: String },
}

impl SourceError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        let path = path.into();
        if source.kind() == std::io::ErrorKind::NotFound {
            return SourceError::NotFound { path };
        }
        SourceError::Io { path, source }
    }
}
