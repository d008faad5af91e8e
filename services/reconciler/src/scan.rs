//! The scan manifest (docs/contracts.md §6): the memory files, then every `**/docs/**/*.md` and
//! `**/README.md` of the repo, each with its `updated_at`, its `depends_on.code_paths`, and
//! its text or why it could not be read.
//!
//! Memory files: a GAAI tree's `index.md` entries plus its decision files (the registry is
//! the manifest's source); any other format memval reads, through `memval_sources::load`:
//! one entry per file, or per record for JSON/JSONL/`memory.db` (a record is what those
//! formats date and attribute); a README or docs page of a notes folder is documentation.
//! Then every decision record the repo keeps ([`crate::records`]), wherever it is, and the
//! docs. Vendored and generated folders are never walked, and neither is a link: every file
//! the walk adds is a regular file under the repo root.
//!
//! Reading only: nothing is opened for writing, and a missing or unreadable file becomes an
//! entry saying so, never an abort.
//!
//! A registry entry whose file is missing is `MISSING_FILE`; one that is not UTF-8, not a file, or
//! not permitted is `UNREADABLE`. Docs are never read under `node_modules`, `.git`, `dist`,
//! `build`, `target`, `vendor`, ... ([`EXCLUDED_DIRS`]). `updated_at`: front matter, else the
//! registry entry, else the last commit.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use memval_proto::tools::DOCS_AGENT;
use memval_sources::Format;

use crate::{records, ReconcileError};

/// Folders never scanned for documentation: vendored, generated, tool state.
pub const EXCLUDED_DIRS: &[&str] = &[
    ".git",
    "node_modules",
    "dist",
    "build",
    "target",
    "vendor",
    "third_party",
    "bower_components",
    ".venv",
    "venv",
    "__pycache__",
    ".next",
    ".nuxt",
    "out",
    "coverage",
    ".memval",
    ".cache",
    ".tox",
    "site-packages",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Memory,
    Documentation,
}

/// What reading a file gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    Text(String),
    /// `MISSING_FILE`: registered, but not on disk.
    Missing,
    /// `UNREADABLE`: there, but could not be read as text (the reason).
    Unreadable(String),
}

/// One file (or record) of the manifest.
#[derive(Debug, Clone)]
pub struct Entry {
    /// As shown in the report: relative to the repo when inside it.
    pub path: String,
    /// On disk, when it is a file (`None` for a database record).
    pub file: Option<PathBuf>,
    pub origin: Origin,
    /// GAAI category (`decisions`, `project`, …) when the registry gives one.
    pub category: Option<String>,
    pub content: Content,
    /// Unix seconds: front matter, else the registry entry / record, else the last commit.
    pub updated_at: Option<i64>,
    /// Where `updated_at` came from (`front matter`, `index.md`, `git`, `record`).
    pub updated_from: Option<&'static str>,
    /// `depends_on.code_paths` of the front matter.
    pub code_paths: Vec<String>,
    /// The registry's `index.md` line, for a GAAI entry.
    pub index_line: Option<u32>,
    /// Why git could not date the file, when it was asked and failed: reported as the reason
    /// its checks were not made, never read as "the file has no date".
    pub date_problem: Option<String>,
}

/// The whole manifest.
#[derive(Debug, Clone, Default)]
pub struct Manifest {
    pub entries: Vec<Entry>,
    /// What the manifest's memory part came from (`contexts/memory/index.md`, or the
    /// memories paths and their formats).
    pub source: String,
    /// GAAI memory folders scanned (for new-knowledge candidates and the default out-dir).
    pub gaai_dirs: Vec<PathBuf>,
    /// Markdown files inside a GAAI memory folder that index.md does not register.
    pub unregistered: Vec<String>,
    /// Lines, rows or files `memval_sources` could not load (they are not in `entries`).
    pub load_problems: Vec<String>,
}

/// Parses a date as memval writes and reads them: `YYYY-MM-DD`, RFC 3339, `YYYY-MM-DD HH:MM:SS`.
pub fn parse_date(s: &str) -> Option<i64> {
    let s = s.trim().trim_matches(['"', '\'']);
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Some(t.timestamp());
    }
    if let Ok(t) = chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S") {
        return Some(t.and_utc().timestamp());
    }
    let day = s.get(..10)?;
    chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc().timestamp())
}

/// Front matter fields reconciliation uses: `updated_at` and `depends_on.code_paths`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Front {
    pub updated_at: Option<i64>,
    pub code_paths: Vec<String>,
    pub status: Option<String>,
}

/// Reads the YAML front matter at the top of `text`, if any. Broken YAML gives nothing (the
/// file is still scanned; its dates then come from git).
pub fn front(text: &str) -> Front {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) else {
        return Front::default();
    };
    let Some(end) = rest.find("\n---").map(|i| i + 1) else { return Front::default() };
    let Ok(v) = serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&rest[..end]) else { return Front::default() };
    let get = |k: &str| v.get(k);
    let date = ["updated_at", "updated", "last_updated", "date"].iter().find_map(|k| match get(k)? {
        serde_yaml_ng::Value::String(s) => parse_date(s),
        serde_yaml_ng::Value::Number(n) => n.as_i64(),
        _ => None,
    });
    let code_paths = get("depends_on")
        .and_then(|d| d.get("code_paths"))
        .map(|c| match c {
            serde_yaml_ng::Value::Sequence(items) => {
                items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect()
            }
            serde_yaml_ng::Value::String(s) => vec![s.clone()],
            _ => Vec::new(),
        })
        .unwrap_or_default();
    let status = get("status").and_then(|s| s.as_str()).map(str::to_owned);
    Front { updated_at: date, code_paths, status }
}

/// Reads `path` as UTF-8 text (refusing what is not a regular file).
pub fn read(path: &Path) -> Content {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Content::Missing,
        Err(e) => Content::Unreadable(e.to_string()),
        Ok(m) if !m.is_file() => {
            Content::Unreadable(if m.is_dir() { "a folder, not a file".into() } else { "not a regular file".into() })
        }
        Ok(_) => match std::fs::read(path) {
            Err(e) => Content::Unreadable(e.to_string()),
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(s) => Content::Text(s),
                Err(_) => Content::Unreadable("not UTF-8 text".into()),
            },
        },
    }
}

fn shown(repo: &Path, p: &Path) -> String {
    p.strip_prefix(repo).map(|r| r.to_string_lossy().into_owned()).unwrap_or_else(|_| p.to_string_lossy().into_owned())
}

/// A file entry with its front matter and text read.
fn file_entry(
    repo: &Path,
    file: PathBuf,
    origin: Origin,
    category: Option<String>,
    index_date: Option<i64>,
    index_line: Option<u32>,
) -> Entry {
    let content = read(&file);
    let f = match &content {
        Content::Text(t) => front(t),
        _ => Front::default(),
    };
    let (updated_at, updated_from) = match (f.updated_at, index_date) {
        (Some(d), _) => (Some(d), Some("front matter")),
        (None, Some(d)) => (Some(d), Some("index.md")),
        _ => (None, None),
    };
    Entry {
        path: shown(repo, &file),
        file: Some(file),
        origin,
        category,
        content,
        updated_at,
        updated_from,
        code_paths: f.code_paths,
        index_line,
        date_problem: None,
    }
}

/// Builds the manifest for `memories` (each a path memval reads) in `repo` (canonical).
pub fn manifest(repo: &Path, memories: &[PathBuf]) -> Result<Manifest, ReconcileError> {
    let mut m = Manifest::default();
    let mut sources = Vec::new();
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    for given in memories {
        if let Some(mem) = memval_sources::gaai_memory_dir(given) {
            let mem = mem.canonicalize().unwrap_or(mem);
            gaai(repo, &mem, &mut m, &mut seen);
            sources.push(shown(repo, &mem.join("index.md")));
            m.gaai_dirs.push(mem);
            continue;
        }
        let loaded = memval_sources::load(given, repo)?;
        sources.push(format!("{} ({})", given.display(), loaded.format));
        for p in &loaded.problems {
            m.load_problems.push(p.to_string());
        }
        let records = matches!(loaded.format, Format::Json | Format::Jsonl | Format::Sqlite);
        for mem in loaded.memories {
            if records {
                m.entries.push(Entry {
                    path: mem.source.to_string(),
                    file: None,
                    origin: Origin::Memory,
                    category: Some(mem.kind.clone()),
                    content: Content::Text(mem.content.clone()),
                    updated_at: mem.updated_at.or(mem.created_at),
                    updated_from: Some("record"),
                    code_paths: Vec::new(),
                    index_line: None,
                    date_problem: None,
                });
                continue;
            }
            let file = PathBuf::from(&mem.source.path);
            let file = file.canonicalize().unwrap_or(file);
            // A README or a docs page a notes folder holds is documentation, whoever reads it.
            let origin = if mem.agent == DOCS_AGENT { Origin::Documentation } else { Origin::Memory };
            if seen.insert(file.clone()) {
                let mut e = file_entry(repo, file, origin, Some(mem.kind.clone()), None, None);
                if e.updated_at.is_none() {
                    (e.updated_at, e.updated_from) = (mem.updated_at, mem.updated_at.map(|_| "git"));
                }
                m.entries.push(e);
            }
        }
    }
    m.source = sources.join(", ");
    let markdown = walk_md(repo);
    decision_records(repo, &markdown, &mut m, &mut seen);
    docs(repo, &markdown, &mut m, &seen);
    Ok(m)
}

fn gaai(repo: &Path, mem: &Path, m: &mut Manifest, seen: &mut BTreeSet<PathBuf>) {
    let index = mem.join("index.md");
    let project = mem.parent().and_then(Path::parent).map(Path::to_path_buf);
    match read(&index) {
        Content::Text(text) => {
            for e in memval_sources::gaai_index(&text) {
                let target = e.path.trim_start_matches("./");
                let local = mem.join(target);
                let file = if local.exists() || !target.starts_with("contexts/") {
                    local
                } else {
                    project.as_ref().map_or(local, |p| p.join(target))
                };
                let file = file.canonicalize().unwrap_or(file);
                if !seen.insert(file.clone()) {
                    continue;
                }
                let date = e.updated_at.as_deref().and_then(parse_date);
                m.entries.push(file_entry(repo, file, Origin::Memory, e.category.clone(), date, Some(e.line)));
            }
        }
        other => m.entries.push(Entry {
            path: shown(repo, &index),
            file: Some(index.clone()),
            origin: Origin::Memory,
            category: None,
            content: other,
            updated_at: None,
            updated_from: None,
            code_paths: Vec::new(),
            index_line: None,
            date_problem: None,
        }),
    }
    // Decision records are memory even when the registry does not list them.
    let mut decisions: Vec<PathBuf> = std::fs::read_dir(mem.join("decisions"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md") && p.is_file())
        .collect();
    decisions.sort();
    for file in decisions {
        let file = file.canonicalize().unwrap_or(file);
        if seen.insert(file.clone()) {
            m.entries.push(file_entry(repo, file, Origin::Memory, Some("decisions".into()), None, None));
        }
    }
    // Knowledge on disk that the registry does not know about.
    for file in walk_md(mem) {
        let file = file.canonicalize().unwrap_or(file);
        if file != index.canonicalize().unwrap_or(index.clone()) && !seen.contains(&file) {
            m.unregistered.push(shown(repo, &file));
        }
    }
}

fn walk_md(root: &Path) -> Vec<PathBuf> {
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .follow_links(false)
        .filter_entry(|e| {
            e.depth() == 0
                || !e.file_type().is_some_and(|t| t.is_dir())
                || !EXCLUDED_DIRS.contains(&e.file_name().to_string_lossy().as_ref())
        })
        .build();
    let mut out: Vec<PathBuf> = walker
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()) && e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| e.into_path())
        .collect();
    out.sort();
    out
}

/// Every decision record kept anywhere under the repo ([`crate::records`]: a GAAI memory's
/// `decisions/`, an ADR folder) that the memories given did not already bring: memory when a
/// GAAI memory folder keeps it, else documentation; category `decisions` either way.
fn decision_records(repo: &Path, markdown: &[PathBuf], m: &mut Manifest, seen: &mut BTreeSet<PathBuf>) {
    for file in markdown {
        let rel = file.strip_prefix(repo).unwrap_or(file);
        if !records::in_decision_folder(rel) {
            continue;
        }
        let canon = file.canonicalize().unwrap_or(file.clone());
        if !seen.insert(canon) {
            continue;
        }
        let origin = if records::in_gaai_memory(rel) { Origin::Memory } else { Origin::Documentation };
        m.entries.push(file_entry(repo, file.clone(), origin, Some("decisions".into()), None, None));
    }
}

/// `**/docs/**/*.md` and `**/README.md` of `markdown` (the repo's Markdown files outside
/// excluded folders), not already in the manifest.
fn docs(repo: &Path, markdown: &[PathBuf], m: &mut Manifest, seen: &BTreeSet<PathBuf>) {
    for file in markdown.iter().cloned() {
        let rel = file.strip_prefix(repo).unwrap_or(&file);
        let is_readme = rel.file_name().is_some_and(|n| n == "README.md");
        let in_docs = rel.parent().is_some_and(|p| p.components().any(|c| c.as_os_str() == "docs"));
        if !(is_readme || in_docs) {
            continue;
        }
        let canon = file.canonicalize().unwrap_or(file.clone());
        if seen.contains(&canon) {
            continue;
        }
        m.entries.push(file_entry(repo, file, Origin::Documentation, None, None, None));
    }
}

/// Fills in `updated_at` from the last commit for files that have none; a git failure is kept
/// on the entry as its `date_problem`.
pub fn git_dates(m: &mut Manifest, repo: &Path, git: &memval_git::Activity) {
    for e in &mut m.entries {
        if e.updated_at.is_some() || e.file.is_none() || !matches!(e.content, Content::Text(_)) {
            continue;
        }
        let Some(file) = &e.file else { continue };
        let Ok(rel) = file.strip_prefix(git.top()).or_else(|_| file.strip_prefix(repo)) else { continue };
        match git.last_commit(&rel.to_string_lossy()) {
            Ok(Some(t)) => {
                e.updated_at = Some(t);
                e.updated_from = Some("git");
            }
            Ok(None) => {}
            Err(err) => e.date_problem = Some(format!("git could not date the file: {err}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(parse_date("1970-01-02"), Some(86_400));
        assert_eq!(parse_date("1970-01-02T00:00:10Z"), Some(86_410));
        assert_eq!(parse_date("'1970-01-02 00:00:10'"), Some(86_410));
        assert_eq!(parse_date("soon"), None);
    }

    #[test]
    fn front_matter_fields() {
        let f = front(
            "---\nupdated_at: 2026-02-01\ndepends_on:\n  code_paths:\n    - src/api.rs\n    - lib/\n---\n# Body\n",
        );
        assert_eq!(f.updated_at, parse_date("2026-02-01"));
        assert_eq!(f.code_paths, ["src/api.rs", "lib/"]);
        let f = front("---\ndepends_on: {code_paths: [a.rs]}\nstatus: superseded\n---\n");
        assert_eq!((f.code_paths.as_slice(), f.status.as_deref()), (&["a.rs".to_owned()][..], Some("superseded")));
        assert_eq!(front("# no front matter\n---\n"), Front::default());
        assert_eq!(front("---\n: [broken\n---\n"), Front::default());
    }
}
