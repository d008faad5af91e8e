//! What is decided once per memory, before the walk.
//!
//! The notes file's folder: tool folders, docs and skills. Which folder a notes file's paths
//! are read against besides the root is decided once per memory (`context_of`; the sources pass
//! the file's real folder). Notes kept in an agent tool's folder at the repo root
//! (`.github/copilot-instructions.md`, `.claude/`, `.cursor/rules/`; `memval_proto::tools`)
//! describe the repository from its root, as the tool reads them: their paths are read from the
//! repo root, and only their `./x` and `../x` links from their own folder. A notes file in a docs
//! folder reads paths under well-known top folders from the root first (`Demote::Roots`). A
//! skill (`<tool folder>/skills/<name>/`, at any depth) reads its paths of several segments from
//! the root first unless they start with a folder a skill bundles (`Demote::SkillRoots`, see
//! `paths`), and looks for its bare names in the skill's folder and its `scripts/`,
//! `references/`, `assets/` (`SKILL_BUNDLE_DIRS`) before the root.
//!
//! Named roots (two-segment spans of plain words). Before the walk, the first folders of every
//! path the memory's code spans name are collected (`named_roots`), so a span on line 3 can lean
//! on a path on line 90. A two-segment code span or bold word of plain lowercase words
//! (`tasks/coverage`, `**internal-packages/redis**`) is a path only when the same memory names
//! its first folder as a path elsewhere in a code span (`tasks/coverage/misc/pass`, `tasks/`) or
//! as an unindented `name/` line of a code block listing folders (`native-yield-operations/
//! Native yield services`);
//! otherwise repository slugs and word pairs (`tokio-rs/tokio`, `and/or`) stay text
//! (`paths::under_named_root`).

use std::collections::HashSet;

use crate::markdown;
use crate::paths::{self, Strength};

use super::doc::MAX_SPAN;

/// Where a skill keeps the files its SKILL.md names by bare name.
pub(super) const SKILL_BUNDLE_DIRS: &[&str] = &["scripts", "references", "assets"];

/// The folder a notes file's paths are read against besides the repo root (`file_dir`: its
/// folder, repo-relative). A skill's files name the skill's own files from its folder
/// (`scripts/bump.sh` in `.claude/skills/release/`); other notes in an agent tool's folder at
/// the repo root (`.github/copilot-instructions.md`, `.cursor/rules/*.mdc`, `.claude/commands/`,
/// `memval_proto::tools::TOOL_DIRS`) describe the repository from its root, as the tool reads
/// them, so only their relative links (`./x`, `../x`) are read from their own folder, as a
/// markdown renderer reads them; any other notes file's folder is read first.
pub(super) fn context_of(file_dir: Option<&str>, skill: Option<&str>) -> Option<String> {
    let dir = file_dir?;
    if let Some(skill) = skill {
        return Some(skill.to_owned());
    }
    let tool = memval_proto::tools::tool_agent(dir.split('/').next().unwrap_or("")).is_some();
    (!tool).then(|| dir.to_string())
}

/// The names of the files the memory writes under the reader's home folder (`~/x.sh`,
/// `$HOME/x.sh`), with an extension: a bare `x.sh` elsewhere in it is the same file, on the
/// reader's machine ("Both `IDF_PATH` and the `esp-idf-env.sh` path are host-specific").
pub(super) fn home_names(content: &str) -> HashSet<String> {
    let mut names = HashSet::new();
    for word in content.split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '(' | ')')) {
        let Some(rest) = word.strip_prefix("~/").or_else(|| word.strip_prefix("$HOME/")) else { continue };
        let name = rest.trim_end_matches(['.', ',', ';', ':']).rsplit('/').next().unwrap_or("");
        if name.len() > 2 && name.contains('.') && !name.starts_with('.') && paths::has_known_ext(name) {
            names.insert(name.to_string());
        }
    }
    names
}

/// The column a table's header calls a path (`| Path | Crate |`, `| Directory | Purpose |`),
/// kept while the table's rows go on (`current`); `None` once a line is no table row.
fn table_path_column(line: &str, current: Option<usize>) -> Option<usize> {
    if !line.starts_with('|') {
        return None;
    }
    if current.is_some() {
        return current;
    }
    let cells: Vec<String> = line.trim_matches('|').split('|').map(|c| c.trim().to_ascii_lowercase()).collect();
    cells.iter().position(|c| {
        matches!(
            c.as_str(),
            "path" | "paths" | "directory" | "dir" | "folder" | "location" | "crate path" | "package path"
        )
    })
}

/// The first folders of the paths the memory's code spans name ([`paths::named_root`]),
/// read before the walk so a span on line 3 can lean on a path on line 90, and those of the
/// code spans in a table's column headed "Path" ([`table_path_column`]).
pub(super) fn named_roots(content: &str) -> HashSet<String> {
    let mut roots = HashSet::new();
    let mut fence = false;
    // The column of a table whose header calls it a path (`| Path | Crate | Role |`).
    let mut path_column: Option<usize> = None;
    for line in content.split('\n') {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if !fence {
            path_column = table_path_column(t, path_column);
            // Every cell of a column headed "Path" is a path: `libraries/core` under it names
            // its first folder as surely as a longer path would.
            if let Some(cell) = path_column.and_then(|c| t.split('|').nth(c + 1)) {
                let inner = cell.trim().trim_matches('`').trim();
                if let Some(root) = inner.split_once('/').map(|(r, _)| r).filter(|r| paths::plain_segment(r)) {
                    if cell.trim().starts_with('`') && !inner.contains(char::is_whitespace) {
                        roots.insert(root.to_string());
                    }
                }
            }
        }
        // A code block listing the repository's top folders, one per line with what it holds
        // (`native-yield-operations/ Native yield services`): each names its folder.
        if fence && !line.starts_with(char::is_whitespace) {
            let first = line.split_whitespace().next().unwrap_or("");
            let folder = first.strip_suffix('/').filter(|f| !f.is_empty() && !f.contains('/'));
            if let Some(tok) = folder.and_then(|_| paths::classify(first, Strength::Backtick)) {
                if let Some(root) = paths::named_root(&tok) {
                    roots.insert(root.to_string());
                }
            }
            continue;
        }
        for sp in markdown::code_spans(line) {
            let inner = line[sp.inner].trim();
            if inner.is_empty() || inner.len() > MAX_SPAN || inner.contains(char::is_whitespace) {
                continue;
            }
            if let Some(tok) = paths::classify(inner, Strength::Backtick).or_else(|| paths::pattern_folder(inner)) {
                if let Some(root) = paths::named_root(&tok) {
                    roots.insert(root.to_string());
                }
            }
        }
    }
    roots
}
