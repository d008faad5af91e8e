//! Files the memory has its reader make: "Create `flashinfer/scale.py`:", a step's "(e.g.,
//! `tests/elementwise/test_scale.py`)". The mention that makes the file is no claim already
//! (`negation::made`); this is what follows it. A later mention of the same file name
//! (`pytest tests/test_scale.py -v`) runs or edits the file the reader made, and a name the
//! text ties to that file through its section or list item ("Create `flashinfer/scale.py`:",
//! a code block, then "Adding the `@flashinfer_api` decorator ...") is about the reader's
//! new code. Neither is a claim about the repository; each made file with such mentions is
//! reported as not checked, with the line that makes it.
//!
//! Only a file name specific enough to be the made file: a name every package has
//! (`__init__.py`, `index.ts`, `utils.py`, `README.md`) is read as usual.

use crate::paths;

use super::doc::{Doc, Made};

/// File stems too common to tie a later mention to the file a step made.
const GENERIC: &[&str] = &[
    "__init__",
    "index",
    "main",
    "mod",
    "lib",
    "utils",
    "util",
    "helpers",
    "types",
    "config",
    "setup",
    "readme",
    "app",
    "server",
    "client",
    "test",
    "tests",
    "conftest",
    "package",
    "cargo",
    "makefile",
    "dockerfile",
];

/// The file name of a path, its folder dropped.
fn file_name(path: &str) -> &str {
    path.trim_end_matches('/').rsplit('/').next().unwrap_or(path)
}

/// Records that line `line` has the reader make the file at `path` (as written).
pub(super) fn record(doc: &mut Doc, line: u32, path: &str) {
    let name = file_name(path);
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    if name.is_empty() || GENERIC.contains(&stem.as_str()) || doc.made.iter().any(|m| m.path == path) {
        return;
    }
    doc.made.push(Made { line, path: path.to_owned(), name: name.to_owned(), mentions: 0 });
}

/// Takes out of the claims, after the line that makes each file: the mentions of its file name,
/// the names tied to those mentions, and the names tied to it as their section's or list
/// item's file. The count is kept per made file (`Doc::made`).
pub(super) fn forget_made(doc: &mut Doc) {
    if doc.made.is_empty() {
        return;
    }
    let Doc { sentences, made, anchors, .. } = doc;
    let anchor_made: Vec<Option<usize>> =
        anchors.iter().map(|a| made.iter().position(|m| m.path == a.tok.path)).collect();
    for s in sentences.iter_mut() {
        let mut newly = Vec::new();
        for (i, f) in s.files.iter().enumerate() {
            if s.denied_files.contains(&i) || paths::folder_like(&f.tok) {
                continue;
            }
            let name = file_name(&f.tok.path);
            if let Some(k) = made.iter().position(|m| s.line > m.line && m.name == name) {
                newly.push((i, k));
            }
        }
        for &(i, k) in &newly {
            s.denied_files.push(i);
            made[k].mentions += 1;
        }
        let of_anchor = s.anchor.and_then(|a| anchor_made.get(a).copied().flatten()).filter(|&k| s.line > made[k].line);
        let before = s.symbols.len();
        let mut to_anchor = 0;
        s.symbols.retain(|sym| match sym.file {
            Some(i) => !newly.iter().any(|(n, _)| *n == i),
            None if !sym.free && of_anchor.is_some() => {
                to_anchor += 1;
                false
            }
            None => true,
        });
        if let Some(k) = of_anchor {
            made[k].mentions += to_anchor;
        }
        let tied = before - s.symbols.len() - to_anchor;
        if let Some(&(_, k)) = newly.first() {
            made[k].mentions += tied;
        }
    }
}
