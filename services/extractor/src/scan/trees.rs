//! Tree diagrams and listings.
//!
//! A row of a tree diagram (`├── lru.go`, `|-- lru.go`) or an entry of a listing code block is a
//! path made of the names of the open entries to its left, then its own name (at most 64 levels).
//! The lone name on the line just above a tree's first row is its root (`src`, `.`,
//! `myproject/`); so is a first row drawn as the last entry of its level (`└──
//! owner-project/`, as gitingest draws a repository). A root that is not a common folder name
//! may be the project's own name, so its children also get a reading without it, after the
//! reading with it: a tree drawn under the project's name (`strands-agents/src/...`) may mean
//! the path without it; a root that names
//! the notes file's own folder (`deployment/` in `deployment/AGENTS.md`, `dashboard/` in
//! `apps/dashboard/AGENTS.md`; a common name such as `tests/` only when it is the whole folder)
//! is that folder. Backticked names and
//! unmistakable code names beside a row's name (`├── lru.go  # ShardedCache, a mutex per
//! shard`) are that file's symbols; a row whose comment marks it new (`# NEW: Python API`) is
//! what a step makes, no claim. A row whose entry is a phrase (`+-- Define a custom tool ->
//! tools/REFERENCE.md`: a word without extension or slash, one space, another word;
//! `markdown::tree_entry_is_phrase`) is no entry: the line is read as text (for
//! `tools/REFERENCE.md`), the line above it is no root, and its children are read against its
//! parent.

use crate::markdown;
use crate::mentions::{clean_text, FileMention, SymbolMention};
use crate::paths::{self, PathToken, Strength};
use crate::symbols;

use super::doc::{Sentence, MAX_NEST};
use super::walker::{NestEntry, Walker};

/// A lone token that can be a tree's root: path characters, not a label ending in `:`.
pub(super) fn root_candidate(token: &str) -> Option<String> {
    let t = token.trim();
    if t.ends_with(':') || t.contains(char::is_whitespace) {
        return None;
    }
    if t == "." || t == "./" {
        return Some(".".to_string());
    }
    paths::parse(t).filter(|p| !p.unresolvable() && p.line.is_none()).map(|p| {
        if p.dir {
            format!("{}/", p.path)
        } else {
            p.path
        }
    })
}

impl Walker {
    /// Reads a tree row; `false` when it is a phrase the caller reads as text instead.
    pub(super) fn tree_line(&mut self, line: &str, line_no: u32) -> bool {
        let Some((col, name)) = markdown::tree_entry(line) else {
            return true;
        };
        // A decision tree drawn like a file tree (`+-- Define a custom tool -> tools/x.md`):
        // the entry is a phrase, not a name. The line is read as text (for `tools/x.md`), the
        // line above it is no root, and the entry's children are read against its parent.
        if markdown::tree_entry_is_phrase(line, name) && paths::classify(name, Strength::Standalone).is_none() {
            if self.nest.is_empty() {
                self.pending_root = None;
            }
            while self.nest.last().is_some_and(|e| e.col >= col) {
                self.nest.pop();
            }
            self.nest.push(NestEntry { col, name: String::new(), label: false });
            return false;
        }
        // The line above a tree's first entry is its root (`src`, `.`, `myproject/`).
        if let Some(root) = self.pending_root.take().filter(|r| self.nest.is_empty() && r.line + 1 == line_no) {
            if root.emitted {
                let own = self.names_own_folder(&root.name);
                let label = !paths::is_common_dir(&root.name) && !own;
                let name = if own { self.file_dir.clone().unwrap_or(root.name) } else { root.name };
                self.nest.push(NestEntry { col: 0, name, label });
            } else {
                self.nest_entry(0, &root.name, root.line, &root.name, true);
            }
            if let Some(top) = self.nest.last_mut() {
                top.col = 0;
            }
        }
        self.nest_entry(col, name, line_no, line, false);
        true
    }

    /// Whether a tree's root names the notes file's own folder (`deployment/` drawn in
    /// `deployment/AGENTS.md`, `dashboard/` in `apps/dashboard/AGENTS.md`): that folder, not the project's
    /// name, so its rows are read in it and get no reading without it.
    fn names_own_folder(&self, root: &str) -> bool {
        let root = root.trim_end_matches('/');
        // The folder's last name alone counts only when it is no common folder name: `tests/`
        // drawn in `docs/contributing/tests/x.md` is the repository's `tests/`.
        self.file_dir.as_deref().is_some_and(|dir| {
            !root.is_empty()
                && (dir == root
                    || (!paths::is_common_dir(root) && dir.rsplit_once('/').is_some_and(|(_, last)| last == root)))
        })
    }

    /// A tree or listing entry at `col`: its full path is the names of the open entries left
    /// of it, then its own name.
    pub(super) fn nest_entry(&mut self, col: usize, name: &str, line_no: u32, text: &str, root: bool) -> bool {
        let name = name.trim_matches(|c: char| matches!(c, '`' | '*' | '"' | '\''));
        let first_row = self.nest.is_empty();
        while self.nest.last().is_some_and(|e| e.col >= col) {
            self.nest.pop();
        }
        if name == "." || name == "./" {
            self.nest.clear();
            self.nest.push(NestEntry { col, name: String::new(), label: false });
            return true;
        }
        let Some(mut tok) = paths::parse(name) else {
            return false;
        };
        // A root naming the notes file's own folder (`dashboard/` drawn in `apps/dashboard/AGENTS.md`) is it.
        if root && self.nest.is_empty() && self.names_own_folder(&tok.path) {
            tok.path = self.file_dir.clone().unwrap_or(tok.path);
        }
        if tok.unresolvable() || self.nest.len() >= MAX_NEST {
            return false;
        }
        let parents: Vec<&str> = self.nest.iter().map(|e| e.name.as_str()).filter(|n| !n.is_empty()).collect();
        let full = if parents.is_empty() { tok.path.clone() } else { format!("{}/{}", parents.join("/"), tok.path) };
        if full.len() > paths::MAX_PATH_LEN {
            return false;
        }
        let without_root = match self.nest.first() {
            Some(root) if root.label && !parents.is_empty() => {
                full.strip_prefix(root.name.as_str()).map(|s| s.trim_start_matches('/').to_string())
            }
            _ => None,
        };
        // A tree's first row drawn as the last entry of its level (`└── owner-project/`, as
        // gitingest draws a repository) is its root row: it may be the project's own name too.
        let root_row = !root && first_row && {
            let t = text.trim_start();
            t.starts_with('└') || t.starts_with("`--") || t.starts_with("\\--")
        };
        let label = (root || root_row)
            && self.nest.is_empty()
            && paths::folder_like(&tok)
            && !paths::is_common_dir(&tok.path)
            && self.file_dir.as_deref() != Some(tok.path.as_str());
        self.nest.push(NestEntry { col, name: tok.path.clone(), label });

        let full_tok = PathToken { path: full, dir: tok.dir, line: None };
        let folders = self.structure_folders();
        let mut readings = paths::readings(&full_tok, &folders);
        if let Some(short) = without_root.filter(|s| !s.is_empty()) {
            let short_tok = PathToken { path: short, dir: tok.dir, line: None };
            for r in paths::readings(&short_tok, &folders) {
                if !readings.contains(&r) && readings.len() < 5 {
                    readings.push(r);
                }
            }
        }
        // A row marked as one the reader adds (`flashinfer/scale.py  # NEW: Python API`) is what a
        // step makes, not what is there: no claim, nor are its symbols.
        let made = markdown::code_comment(text).is_some_and(marks_new);
        // A row whose comment says it is not in this repository (`examples/  # downloaded,
        // not part of this repository`) claims nothing of it.
        let elsewhere = markdown::code_comment(text).is_some_and(super::negation::said_elsewhere);
        let symbols = if tok.dir || made || elsewhere { Vec::new() } else { row_symbols(text, name) };
        let file = FileMention { raw: tok.path, tok: full_tok, readings, start: 0, end: 0, after: 0 };
        if made && !file.tok.dir {
            super::made::record(&mut self.doc, line_no, &file.tok.path);
        }
        self.push(Sentence {
            line: line_no,
            text: clean_text(text.trim()),
            paragraph: self.paragraph,
            anchor: None,
            files: vec![file],
            symbols,
            configs: Vec::new(),
            line_texts: Vec::new(),
            behaviour: None,
            denied_files: if made || elsewhere { vec![0] } else { Vec::new() },
            versions: Vec::new(),
            snippet_files: Vec::new(),
        });
        true
    }
}

/// Whether a tree row's comment marks the row as one to add: `NEW` as a word in capitals
/// (`# NEW: JIT generator`), or "(new)", "new file", "to create", "to be added" in any case.
fn marks_new(comment: &str) -> bool {
    let lower = comment.to_ascii_lowercase();
    comment.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w == "NEW")
        || ["(new)", "new file", "to create", "to be created", "to add", "to be added", "create this"]
            .iter()
            .any(|cue| lower.contains(cue))
}

/// The symbols a tree or listing row names beside its file (`├── lru.go  # ShardedCache,
/// a mutex per shard`): backticked names, and bare words shaped unmistakably like code
/// (`ShardedCache`, `parse_header()`, `Cache::get`), each tied to the row's file.
fn row_symbols(row: &str, name: &str) -> Vec<SymbolMention> {
    let Some(at) = row.find(name) else { return Vec::new() };
    let rest = &row[at + name.len()..];
    let mut found = Vec::new();
    // Odd pieces between backticks are code spans; the rest is prose.
    for (k, piece) in rest.split('`').enumerate() {
        if k % 2 == 1 {
            found.extend(symbols::from_code_span(piece.trim()));
            continue;
        }
        for word in piece.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '[' | ']' | '#' | '"' | '\'')) {
            let word = word.trim_end_matches(['.', ':', '!', '?', ')']).trim_start_matches('(');
            found.extend(symbols::parse(word).filter(|s| {
                let sh = s.shape;
                (sh.camel || sh.snake || sh.path_sep || sh.call)
                    && !symbols::blocked(&s.name)
                    && !word.contains(['/', '.'])
            }));
        }
    }
    let mut out: Vec<SymbolMention> = Vec::new();
    for sym in found {
        if !out.iter().any(|m| m.name == sym.name) {
            out.push(SymbolMention {
                name: sym.name,
                shape: sym.shape,
                line: None,
                file: Some(0),
                free: false,
                start: 0,
                end: 0,
            });
        }
    }
    out
}
