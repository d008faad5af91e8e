//! Claude Code memory folder: `MEMORY.md` (an index, one line per memory) plus
//! `feedback_*.md`, `user_*.md`, `project_*.md` and `reference_*.md`, each with YAML front
//! matter (`name`, `description`, `type`). One memory per file.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use memval_proto::{Memory, Source};
use regex::Regex;

use crate::common::{inside, join_relative, rel_string, Ctx};
use crate::error::SourceError;
use crate::loaded::Format;
use crate::{dates, frontmatter, text};
use memval_git::GitDates;

pub(crate) const INDEX: &str = "MEMORY.md";
const KINDS: [&str; 4] = ["feedback", "user", "project", "reference"];
pub(crate) const CREATED_KEYS: &[&str] = &["created_at", "created", "date"];
pub(crate) const UPDATED_KEYS: &[&str] = &["updated_at", "updated", "last_updated", "modified"];

/// Loads the folder `dir` (as the user gave it; paths in sources stay below it).
pub(crate) fn load(dir: &Path, ctx: &mut Ctx) -> Result<Vec<Memory>, SourceError> {
    let root = std::fs::canonicalize(dir).map_err(|e| SourceError::io(dir, e))?;
    // canonical path -> (path as shown, index line)
    let mut files: BTreeMap<PathBuf, (PathBuf, Option<u32>)> = BTreeMap::new();
    // Files the index already named (loaded or reported), so the folder scan adds no twin.
    let mut named: HashSet<PathBuf> = HashSet::new();

    let index_path = dir.join(INDEX);
    match text::read_text(&index_path) {
        Ok(index) => {
            for (line, target) in index_links(&index) {
                let Some(shown) = join_relative(dir, &target) else {
                    continue;
                };
                named.insert(shown.clone());
                match inside(&root, &shown) {
                    Ok(canon) if canon.is_file() => {
                        if canon != root.join(INDEX) {
                            files.entry(canon).or_insert((shown, Some(line)));
                        }
                    }
                    Ok(_) => ctx.problem(&shown, format!("listed in {INDEX} line {line} but is not a file")),
                    Err(why) if why.contains("does not exist") => {
                        ctx.problem(&shown, format!("listed in {INDEX} line {line} but the file does not exist"))
                    }
                    Err(why) => ctx.problem(&shown, format!("listed in {INDEX} line {line}: {why}")),
                }
            }
        }
        Err(reason) => ctx.problem(&index_path, reason),
    }

    let entries = std::fs::read_dir(dir).map_err(|e| SourceError::io(dir, e))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !is_memory_file_name(&name) {
            continue;
        }
        let shown = dir.join(&name);
        if named.contains(&shown) {
            continue;
        }
        match inside(&root, &shown) {
            Ok(canon) if canon.is_file() => {
                files.entry(canon).or_insert((shown, None));
            }
            Ok(_) => {}
            Err(why) => ctx.problem(&shown, why),
        }
    }

    let canon_files: Vec<PathBuf> = files.keys().cloned().collect();
    let git = GitDates::lookup(&root, &canon_files);
    let mut out = Vec::with_capacity(files.len());
    for (canon, (shown, _)) in files {
        match memory(&root, &canon, &shown, &git, ctx) {
            Ok(m) => out.push(m),
            Err(reason) => ctx.problem(&shown, reason),
        }
    }
    Ok(out)
}

fn memory(root: &Path, canon: &Path, shown: &Path, git: &GitDates, ctx: &Ctx) -> Result<Memory, String> {
    let text = text::read_text(canon)?;
    let fm = frontmatter::split(&text)?;
    let stem = canon.file_stem().unwrap_or_default().to_string_lossy().into_owned();
    let kind = match fm.as_ref().and_then(|f| f.get(&["type"])) {
        Some(t) if KINDS.contains(&t.trim().to_ascii_lowercase().as_str()) => t.trim().to_ascii_lowercase(),
        Some(t) => return Err(format!("front matter `type: {t}` is not one of feedback, user, project, reference")),
        // No declared type: the file name prefix says it, as Claude Code names them.
        None => KINDS.iter().find(|k| stem.starts_with(&format!("{k}_"))).map_or("memory", |k| k).to_string(),
    };
    let created_at = front_date(fm.as_ref(), CREATED_KEYS)?;
    let updated_at = front_date(fm.as_ref(), UPDATED_KEYS)?.or_else(|| git.get(canon));
    let tier = front_tier(fm.as_ref())?;
    let (content, first_line) = match &fm {
        Some(f) => (text[f.body_offset..].to_string(), f.body_line),
        None => (text, 1),
    };
    // A nested file keeps its folder in the id so two `notes.md` cannot collide.
    let id = match rel_string(root, canon) {
        Some(rel) if rel.contains('/') => rel.trim_end_matches(".md").to_string(),
        _ => stem,
    };
    Ok(Memory {
        id,
        agent: "claude-code".into(),
        content,
        tier,
        kind,
        created_at,
        updated_at,
        source: Source {
            path: shown.to_string_lossy().into_owned(),
            line: None,
            row: None,
            format: Format::ClaudeCode.as_str().into(),
        },
        context_dir: ctx.context_dir(canon),
        first_line,
    })
}

/// A date from the first of `keys` in the front matter; a value that is not a date is broken
/// front matter.
pub(crate) fn front_date(fm: Option<&frontmatter::FrontMatter>, keys: &[&str]) -> Result<Option<i64>, String> {
    let Some(fm) = fm else { return Ok(None) };
    for key in keys {
        if let Some(v) = fm.get(&[key]) {
            return dates::parse_date(v)
                .map(Some)
                .ok_or_else(|| format!("front matter `{key}: {v}` is not a date ({})", dates::DATE_FORMATS));
        }
    }
    Ok(None)
}

/// `tier` from front matter, 0 when absent.
pub(crate) fn front_tier(fm: Option<&frontmatter::FrontMatter>) -> Result<u8, String> {
    match fm.and_then(|f| f.get(&["tier"])) {
        None => Ok(0),
        Some(t) => match t.trim().parse::<u8>() {
            Ok(t @ 0..=2) => Ok(t),
            _ => Err(format!("front matter `tier: {t}` must be 0, 1 or 2")),
        },
    }
}

fn is_memory_file_name(name: &str) -> bool {
    name.ends_with(".md") && KINDS.iter().any(|k| name.starts_with(&format!("{k}_")))
}

/// `(line, target)` of each relative Markdown link to a `.md` file in the index.
pub(crate) fn index_links(index: &str) -> Vec<(u32, String)> {
    static LINK: OnceLock<Regex> = OnceLock::new();
    let link = LINK.get_or_init(|| Regex::new(r#"\]\(\s*<?([^)<>\s]+?)>?(?:\s+"[^"]*")?\s*\)"#).expect("valid regex"));
    let mut out = Vec::new();
    for (i, line) in index.lines().enumerate() {
        for cap in link.captures_iter(line) {
            let target = cap[1].split('#').next().unwrap_or_default().replace("%20", " ");
            if target.to_ascii_lowercase().ends_with(".md") && !target.contains("://") {
                out.push(((i + 1) as u32, target));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_links_finds_relative_md_targets() {
        let index = "# Memory\n- [No force push](feedback_push.md) — never force\n\
                     - [Site](https://x.io/a.md) and [Who](user_me.md#top \"t\")\n- [Img](a.png)\n";
        assert_eq!(index_links(index), vec![(2, "feedback_push.md".to_string()), (3, "user_me.md".to_string())]);
    }

    #[test]
    fn memory_file_names() {
        assert!(is_memory_file_name("feedback_tests.md"));
        assert!(is_memory_file_name("reference_api.md"));
        assert!(!is_memory_file_name("MEMORY.md"));
        assert!(!is_memory_file_name("feedback_tests.txt"));
        assert!(!is_memory_file_name("notes.md"));
    }
}
