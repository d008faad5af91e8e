//! GAAI memory: the `contexts/memory/index.md` registry plus the decision files
//! `contexts/memory/decisions/DEC-*.md`. One memory per registered file and per DEC file.
//!
//! The registry has no fixed grammar: it is a Markdown list or table. An entry is any table
//! row or line naming a `.md` path (link target, backticked, or bare); its category is a
//! `category:` label, a `category`/`type` column, or the heading it sits under; its dates
//! are `updated_at:`/`created_at:` labels, matching columns, or a lone date on the line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use memval_proto::{Memory, Source};
use regex::Regex;

use crate::claude::{front_date, front_tier, CREATED_KEYS, UPDATED_KEYS};
use crate::common::{inside, join_relative, rel_string, Ctx};
use crate::error::SourceError;
use crate::loaded::Format;
use crate::{dates, frontmatter, text};
use memval_git::GitDates;

/// The memory folder of a GAAI project given as `path`: `path/contexts/memory`,
/// `path/memory` when `path` is a `contexts` folder, or `path` itself when it holds
/// `index.md` and either a `decisions/` folder or sits at `contexts/memory`.
pub fn memory_dir(path: &Path) -> Option<PathBuf> {
    let candidates = [path.join("contexts").join("memory"), path.join("memory"), path.to_path_buf()];
    candidates.into_iter().enumerate().find_map(|(i, dir)| {
        let has_index = dir.join("index.md").is_file();
        let ok = match i {
            0 => has_index,
            1 => has_index && path.file_name().is_some_and(|n| n == "contexts"),
            _ => has_index && (dir.join("decisions").is_dir() || dir.ends_with("contexts/memory")),
        };
        ok.then_some(dir)
    })
}

/// One registry entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub line: u32,
    pub path: String,
    pub category: Option<String>,
    pub updated_at: Option<String>,
    pub created_at: Option<String>,
}

struct Found {
    shown: PathBuf,
    entry: Option<Entry>,
    is_decision: bool,
}

/// Loads the GAAI memory under `given` (see [`memory_dir`]).
pub(crate) fn load(given: &Path, ctx: &mut Ctx) -> Result<Vec<Memory>, SourceError> {
    let Some(mem_dir) = memory_dir(given) else {
        return Err(SourceError::Unrecognised {
            path: given.to_path_buf(),
            why: "no contexts/memory/index.md found".into(),
        });
    };
    let root = std::fs::canonicalize(given).map_err(|e| SourceError::io(given, e))?;
    let mem_canon = std::fs::canonicalize(&mem_dir).map_err(|e| SourceError::io(&mem_dir, e))?;
    // The project root, for registry paths written as `contexts/memory/...`.
    let project = mem_dir
        .parent()
        .and_then(Path::parent)
        .filter(|p| !p.as_os_str().is_empty())
        .or_else(|| mem_canon.parent().and_then(Path::parent))
        .map(Path::to_path_buf);
    let index_path = mem_dir.join("index.md");
    let index_canon = mem_canon.join("index.md");
    let mut files: BTreeMap<PathBuf, Found> = BTreeMap::new();

    match text::read_text(&index_path) {
        Ok(index) => {
            for entry in parse_index(&index) {
                let line = entry.line;
                let Some(shown) = resolve(&mem_dir, project.as_deref(), &entry.path) else {
                    continue;
                };
                match inside(&root, &shown) {
                    Ok(canon) if canon == index_canon => {}
                    Ok(canon) if canon.is_dir() => {
                        // A registered folder registers the Markdown files directly in it.
                        for file in md_files(&shown) {
                            if let Ok(c) = inside(&root, &file) {
                                files.entry(c).or_insert(Found {
                                    shown: file,
                                    entry: Some(entry.clone()),
                                    is_decision: false,
                                });
                            }
                        }
                    }
                    Ok(canon) => {
                        files.entry(canon).or_insert(Found { shown, entry: Some(entry), is_decision: false });
                    }
                    Err(why) if why.contains("does not exist") => ctx.problem(
                        &shown,
                        format!("MISSING_FILE: registered in index.md line {line} but the file does not exist"),
                    ),
                    Err(why) => ctx.problem(&shown, format!("registered in index.md line {line}: {why}")),
                }
            }
        }
        Err(reason) => ctx.problem(&index_path, reason),
    }

    let decisions = mem_dir.join("decisions");
    for file in md_files(&decisions) {
        let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if !name.starts_with("DEC-") {
            continue;
        }
        match inside(&root, &file) {
            Ok(canon) => {
                files.entry(canon).and_modify(|f| f.is_decision = true).or_insert(Found {
                    shown: file,
                    entry: None,
                    is_decision: true,
                });
            }
            Err(why) => ctx.problem(&file, why),
        }
    }

    let canon_files: Vec<PathBuf> = files.keys().cloned().collect();
    let git = GitDates::lookup(&mem_canon, &canon_files);
    let mut out = Vec::with_capacity(files.len());
    for (canon, found) in files {
        let id = rel_string(&mem_canon, &canon)
            .or_else(|| rel_string(&root, &canon))
            .unwrap_or_else(|| found.shown.to_string_lossy().into_owned());
        match memory(id, &canon, &found, &git, ctx) {
            Ok(m) => out.push(m),
            Err(reason) => ctx.problem(&found.shown, reason),
        }
    }
    Ok(out)
}

fn memory(id: String, canon: &Path, found: &Found, git: &GitDates, ctx: &Ctx) -> Result<Memory, String> {
    let text = text::read_text(canon)?;
    let fm = frontmatter::split(&text)?;
    let entry = found.entry.as_ref();
    let index_date = |value: Option<&String>, what: &str| -> Result<Option<i64>, String> {
        match value {
            None => Ok(None),
            Some(v) => dates::parse_date(v).map(Some).ok_or_else(|| {
                format!(
                    "index.md line {} gives {what} {v:?}, which is not a date ({})",
                    entry.map_or(0, |e| e.line),
                    dates::DATE_FORMATS
                )
            }),
        }
    };
    let updated_at = match front_date(fm.as_ref(), UPDATED_KEYS)? {
        Some(d) => Some(d),
        None => index_date(entry.and_then(|e| e.updated_at.as_ref()), "updated_at")?.or_else(|| git.get(canon)),
    };
    let created_at = match front_date(fm.as_ref(), CREATED_KEYS)? {
        Some(d) => Some(d),
        None => index_date(entry.and_then(|e| e.created_at.as_ref()), "created_at")?,
    };
    let kind = entry
        .and_then(|e| e.category.clone())
        .or_else(|| fm.as_ref().and_then(|f| f.get(&["category"])).map(str::to_string))
        .or_else(|| found.is_decision.then(|| "decision".to_string()))
        .or_else(|| id.rsplit_once('/').map(|(dir, _)| dir.rsplit('/').next().unwrap_or(dir).to_string()))
        .unwrap_or_else(|| "memory".to_string());
    let (content, first_line) = match &fm {
        Some(f) => (text[f.body_offset..].to_string(), f.body_line),
        None => (text, 1),
    };
    Ok(Memory {
        id,
        agent: "gaai".into(),
        content,
        tier: front_tier(fm.as_ref())?,
        kind,
        created_at,
        updated_at,
        source: Source {
            path: found.shown.to_string_lossy().into_owned(),
            line: None,
            row: None,
            format: Format::Gaai.as_str().into(),
        },
        context_dir: ctx.context_dir(canon),
        first_line,
    })
}

/// Resolves a registry path: relative to the memory folder, or to the project root when it
/// is written from there (`contexts/memory/decisions/DEC-1.md`).
fn resolve(mem_dir: &Path, project: Option<&Path>, target: &str) -> Option<PathBuf> {
    let target = target.trim_start_matches("./");
    let local = join_relative(mem_dir, target)?;
    if local.exists() {
        return Some(local);
    }
    if let Some(project) = project {
        if let Some(p) = join_relative(project, target) {
            if p.exists() || target.starts_with("contexts/") {
                return Some(p);
            }
        }
    }
    Some(local)
}

/// The `.md` files directly in `dir`, sorted; none when it does not exist.
fn md_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("md")))
        .collect();
    out.sort();
    out
}

struct Patterns {
    link: Regex,
    backtick: Regex,
    bare: Regex,
    category: Regex,
    updated: Regex,
    created: Regex,
    date: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let date = r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?";
        Patterns {
            link: Regex::new(r"\]\(\s*<?([^)<>\s]+?\.md)>?(?:#[^)\s]*)?(?:\s+[^)]*)?\)").expect("valid regex"),
            backtick: Regex::new(r"`([^`\s]+\.md)`").expect("valid regex"),
            bare: Regex::new(r"(?:^|[\s(|])([\w./-]+\.md)\b").expect("valid regex"),
            category: Regex::new(r"(?i)\bcategory\**\s*[:=]\s*\**\s*`?([\w-]+)").expect("valid regex"),
            updated: Regex::new(&format!(r"(?i)\b(?:updated_at|updated|last_updated)\**\s*[:=]\s*\**\s*`?({date})"))
                .expect("valid regex"),
            created: Regex::new(&format!(r"(?i)\b(?:created_at|created)\**\s*[:=]\s*\**\s*`?({date})"))
                .expect("valid regex"),
            date: Regex::new(&format!(r"\b({date})\b")).expect("valid regex"),
        }
    })
}

/// The first relative `.md` path a piece of registry text names.
fn md_path(text: &str) -> Option<String> {
    let p = patterns();
    [&p.link, &p.backtick, &p.bare]
        .iter()
        .flat_map(|re| re.captures_iter(text).map(|c| c[1].to_string()).collect::<Vec<_>>())
        .find(|t| !t.contains("://"))
}

/// Parses the registry: every list line or table row that names a `.md` file.
pub fn parse_index(text: &str) -> Vec<Entry> {
    let p = patterns();
    let mut out = Vec::new();
    let mut heading: Option<String> = None;
    let mut in_fence = false;
    let mut table: Option<Vec<String>> = None; // lowercased header cells
    let lines: Vec<&str> = text.lines().collect();
    for (i, raw) in lines.iter().enumerate() {
        let line_no = (i + 1) as u32;
        let line = raw.trim();
        if line.starts_with("```") || line.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if let Some(h) = line.strip_prefix("##") {
            heading = Some(h.trim_start_matches('#').trim().to_ascii_lowercase()).filter(|h| !h.is_empty());
            table = None;
            continue;
        }
        if line.starts_with('|') {
            let cells = table_cells(line);
            if cells.iter().all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' '))) {
                continue; // separator row
            }
            let next_is_separator =
                lines.get(i + 1).map(|l| l.trim().starts_with('|') && l.contains("---")).unwrap_or(false);
            if next_is_separator {
                table = Some(cells.iter().map(|c| c.trim_matches(['*', '`', '_']).to_ascii_lowercase()).collect());
                continue;
            }
            if let Some(entry) = table_entry(line_no, &cells, table.as_deref(), heading.as_deref()) {
                out.push(entry);
            }
            continue;
        }
        table = None;
        let Some(path) = md_path(line) else { continue };
        let updated = p.updated.captures(line).map(|c| c[1].to_string());
        let created = p.created.captures(line).map(|c| c[1].to_string());
        let lone_date = || {
            let all: Vec<String> = p.date.captures_iter(line).map(|c| c[1].to_string()).collect();
            (all.len() == 1).then(|| all[0].clone())
        };
        out.push(Entry {
            line: line_no,
            path,
            category: p.category.captures(line).map(|c| c[1].to_ascii_lowercase()).or_else(|| heading.clone()),
            updated_at: updated.clone().or_else(|| if created.is_none() { lone_date() } else { None }),
            created_at: created,
        });
    }
    out
}

fn table_cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

fn table_entry(line: u32, cells: &[String], header: Option<&[String]>, heading: Option<&str>) -> Option<Entry> {
    let column = |names: &[&str]| -> Option<&String> {
        let header = header?;
        let i = header.iter().position(|h| names.contains(&h.as_str()))?;
        cells.get(i).filter(|c| !c.is_empty() && c.as_str() != "-")
    };
    let path = column(&["path", "file", "file path", "location", "entry", "document", "doc"])
        .and_then(|c| md_path(c))
        .or_else(|| cells.iter().find_map(|c| md_path(c)))?;
    let clean = |s: &String| s.trim_matches(['`', '*', ' ']).to_string();
    let date_in = |s: &String| patterns().date.captures(s).map(|c| c[1].to_string()).or_else(|| Some(clean(s)));
    Some(Entry {
        line,
        path,
        category: column(&["category", "type", "kind"])
            .map(|c| clean(c).to_ascii_lowercase())
            .or_else(|| heading.map(str::to_string)),
        updated_at: column(&["updated_at", "updated at", "updated", "last updated", "last_updated", "modified"])
            .and_then(date_in),
        created_at: column(&["created_at", "created at", "created"]).and_then(date_in),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_entries_with_labels_and_headings() {
        let index = "# Memory index\n\n## Decisions\n\
                     - [DEC-13](decisions/DEC-13.md) LLM stays client-side, updated_at: 2026-01-05\n\
                     ## Project\n\
                     - `project/overview.md` category: strategy created: 2025-12-01\n\
                     - project/roadmap.md (2026-02-01)\n\
                     - no path here 2026-01-01\n\
                     ```\n- `fenced/x.md`\n```\n";
        let entries = parse_index(index);
        assert_eq!(
            entries,
            vec![
                Entry {
                    line: 4,
                    path: "decisions/DEC-13.md".into(),
                    category: Some("decisions".into()),
                    updated_at: Some("2026-01-05".into()),
                    created_at: None,
                },
                Entry {
                    line: 6,
                    path: "project/overview.md".into(),
                    category: Some("strategy".into()),
                    updated_at: None,
                    created_at: Some("2025-12-01".into()),
                },
                Entry {
                    line: 7,
                    path: "project/roadmap.md".into(),
                    category: Some("project".into()),
                    updated_at: Some("2026-02-01".into()),
                    created_at: None,
                },
            ]
        );
    }

    #[test]
    fn table_entries_by_header() {
        let index = "| File | Category | Updated At |\n|---|:---:|---|\n\
                     | [ov](project/overview.md) | Project | 2026-03-01 |\n\
                     | `patterns/retry.md` | patterns | - |\n";
        let entries = parse_index(index);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].path, "project/overview.md");
        assert_eq!(entries[0].category.as_deref(), Some("project"));
        assert_eq!(entries[0].updated_at.as_deref(), Some("2026-03-01"));
        assert_eq!(entries[1].path, "patterns/retry.md");
        assert_eq!(entries[1].updated_at, None);
        assert_eq!(entries[1].line, 4);
    }

    #[test]
    fn table_dates_from_known_headers() {
        let index = "| path | updated_at |\n|---|---|\n| decisions/DEC-2.md | `2026-03-01` |\n";
        let entries = parse_index(index);
        assert_eq!(entries[0].updated_at.as_deref(), Some("2026-03-01"));
        assert_eq!(entries[0].category, None);
    }
}
