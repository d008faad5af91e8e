use serde::{Deserialize, Serialize};

/// The six claim types of docs/contracts.md §2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimType {
    FileReference,
    SymbolReference,
    LineContent,
    Behavioral,
    Architectural,
    Configuration,
}

/// Which checker a claim type belongs to by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// Deterministic: file walk, symbol index, git history.
    A,
    /// Needs judgement (an LLM investigator), unless a deterministic proof exists.
    B,
}

impl ClaimType {
    pub const ALL: [ClaimType; 6] = [
        ClaimType::FileReference,
        ClaimType::SymbolReference,
        ClaimType::LineContent,
        ClaimType::Behavioral,
        ClaimType::Architectural,
        ClaimType::Configuration,
    ];

    pub fn tier(self) -> Tier {
        match self {
            ClaimType::FileReference | ClaimType::SymbolReference => Tier::A,
            _ => Tier::B,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ClaimType::FileReference => "file_reference",
            ClaimType::SymbolReference => "symbol_reference",
            ClaimType::LineContent => "line_content",
            ClaimType::Behavioral => "behavioral",
            ClaimType::Architectural => "architectural",
            ClaimType::Configuration => "configuration",
        }
    }

    pub fn parse(s: &str) -> Option<ClaimType> {
        ClaimType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

impl std::fmt::Display for ClaimType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A place in the code a claim is anchored to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CodeRef {
    /// Repo-relative path as the memory names it (after resolving section and folder
    /// context). `.` means "anywhere in the repo" for a symbol named without a file.
    /// Untrusted: the investigator confines it to the repo root.
    pub path: String,
    pub symbol: Option<String>,
    pub line: Option<u32>,
    /// The reference as the memory wrote it (`../cache/lru.go`, `lru.go` under a section
    /// that names `internal/cache/`), when the extractor resolved it to another `path`.
    pub written: Option<String>,
    /// Other readings of `path` (e.g. relative to the repo root instead of the notes file's
    /// folder), tried in order when `path` does not exist.
    pub alt_paths: Vec<String>,
}

impl CodeRef {
    pub fn path(path: impl Into<String>) -> Self {
        CodeRef { path: path.into(), symbol: None, line: None, written: None, alt_paths: Vec::new() }
    }
}

/// What exactly a claim asserts beyond the existence of its code refs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Assertion {
    /// `key` has `value` (in the code ref's file, or anywhere when the path is `.`).
    ConfigValue { key: String, value: String },
    /// The line of the code ref contains `text`.
    LineText { text: String },
    /// The repository pins `tool` (`node`, `python`, `go`, `rust`, `java`, `scala`, `sbt`,
    /// `gradle`, `ruby`) at `version`, in the files that tool reads its version from.
    ToolVersion { tool: String, version: String },
    /// The code ref is the file a code block of the memory is written for: a comment alone on
    /// a line of the block names it (`// src/main/ipc/feature.ts`, `# 2. app/models.py`). The
    /// block is code to put in that file, so a file the repository never had is the one the
    /// block has its reader make, not a claim that it exists; one it had and lost is drift.
    SnippetFile,
}

/// One checkable assertion extracted from a memory (docs/contracts.md §2).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Claim {
    pub claim_type: ClaimType,
    pub claim_text: String,
    /// 1-based line of the memory's content the claim came from (its first mention).
    pub line: u32,
    /// Every line of the memory's content that makes this same claim, in order, `line`
    /// first. Empty means just `line` (model claims, older producers).
    pub lines: Vec<u32>,
    pub code_refs: Vec<CodeRef>,
    pub assertion: Option<Assertion>,
}
