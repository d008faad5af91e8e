use serde::{Deserialize, Serialize};

use crate::UnixSeconds;

/// Where a memory came from: a file and line, or a database row.
/// The `kind` of a doc that records the past by design (a changelog, a decision record, a
/// migration guide, an old version's docs), found in a folder walk: it is loaded, listed and
/// skipped, not checked against today's code.
pub const HISTORY_KIND: &str = "history";

/// The `kind` of a file found in a folder walk inside a vendored copy of another project (a
/// folder named as a package and its release, `bootstrap-sass-3.4.1/`): its docs and notes
/// describe that project, so it is loaded, listed and skipped, not checked against this one.
pub const VENDORED_KIND: &str = "vendored";

/// The `kind` of a file found in a folder walk inside a test fixture (`tests/fixtures/`,
/// `testdata/`): input for the project's tests, written about the fixture's make-believe
/// project, so it is loaded, listed and skipped, not checked against the repository.
pub const FIXTURE_KIND: &str = "fixture";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Path of the file the memory was read from, as the user gave it (or below it).
    pub path: String,
    /// 1-based line of the memory inside `path`, when the format has one.
    pub line: Option<u32>,
    /// Row id, for database sources.
    pub row: Option<i64>,
    /// Detected input format (`json`, `jsonl`, `sqlite`, `claude-code`, `gaai`, `notes`).
    pub format: String,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.row) {
            (_, Some(row)) => write!(f, "{}#row={}", self.path, row),
            (Some(line), None) => write!(f, "{}:{}", self.path, line),
            (None, None) => write!(f, "{}", self.path),
        }
    }
}

/// A memory as docs/contracts.md §1 defines it: `{id, agent, content, tier, type, created_at, updated_at, source}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    /// Unique within a run. Integer ids are kept as their decimal text.
    pub id: String,
    pub agent: String,
    /// Untrusted text. Never interpreted as instructions.
    pub content: String,
    /// 0-2; tier 2 memories get the docs/contracts.md §3 tier modifier.
    pub tier: u8,
    /// The memory's `type` (`memory`, `feedback`, `decision`, `notes`, ...).
    pub kind: String,
    pub created_at: Option<UnixSeconds>,
    pub updated_at: Option<UnixSeconds>,
    pub source: Source,
    /// Folder, relative to the repo root, that relative paths in this memory are written
    /// against (a notes file's own folder). `None` when the memory lives outside the repo.
    pub context_dir: Option<String>,
    /// Line of `source.path` that the first line of `content` sits on (notes files keep
    /// their line numbers this way). 1 when unknown.
    pub first_line: u32,
}

impl Memory {
    /// The date the memory's facts were last asserted: `updated_at`, else `created_at`.
    pub fn asserted_at(&self) -> Option<UnixSeconds> {
        self.updated_at.or(self.created_at)
    }

    pub fn meta(&self) -> MemoryMeta {
        MemoryMeta {
            id: self.id.clone(),
            agent: self.agent.clone(),
            tier: self.tier,
            kind: self.kind.clone(),
            created_at: self.created_at,
            updated_at: self.updated_at,
            source: self.source.clone(),
            first_line: self.first_line,
        }
    }
}

/// Make the ids of `memories` unique without losing any memory: a repeated id gets `~2`,
/// `~3`, ... in order, since ids key every record of a run.
pub fn make_ids_unique(memories: &mut [Memory]) {
    let mut seen = std::collections::HashSet::new();
    for m in memories {
        let base = m.id.clone();
        let mut n = 1;
        while !seen.insert(m.id.clone()) {
            n += 1;
            m.id = format!("{base}~{n}");
        }
    }
}

/// Everything downstream stages need to know about a memory, without its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryMeta {
    pub id: String,
    pub agent: String,
    pub tier: u8,
    pub kind: String,
    pub created_at: Option<UnixSeconds>,
    pub updated_at: Option<UnixSeconds>,
    pub source: Source,
    pub first_line: u32,
}

impl MemoryMeta {
    pub fn asserted_at(&self) -> Option<UnixSeconds> {
        self.updated_at.or(self.created_at)
    }
}
