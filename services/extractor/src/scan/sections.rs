//! Headings, list items and intro lines: what a line of running text opens or closes for
//! the lines after it.
//!
//! Headings, sections and intro lines. A heading closes the section: its folder, its file
//! anchor, the most recent folder, the open list scopes and any tree nesting are forgotten. A
//! heading or an intro line that names one path ("In `services/api/`:", "**Under** `src/`:", a
//! line ending in `:`) opens a section on that folder (or file anchor) for the lines that
//! follow. A heading or intro line that puts what follows *outside* the folder ("Repository
//! structure (outside `src/`)": `outside`, `except`, `excluding`, `besides`, `other than`,
//! `not in`, `not under`; `EXCLUDES`) opens no section there.
//!
//! Lists. A list item that starts with a path (or an intro item naming exactly one path) opens
//! a list scope for the deeper items: a folder they are read in, or the file their symbols
//! belong to. A list item closes the scopes whose content column is right of its marker (those
//! of the items at its level or deeper); a line that is no list item closes those right of its
//! indent.
//!
//! A line that is a single path-like token may be the root of a tree drawn right below it
//! (see `trees`).

use std::sync::LazyLock;

use regex::Regex;

use crate::markdown;
use crate::mentions::{FileMention, Line};
use crate::paths::{self, Strength};

use super::doc::Kind;
use super::elsewhere;
use super::trees::root_candidate;
use super::walker::{ListScope, PendingRoot, Scope, Walker};

/// Words before a heading's or intro line's folder that put what follows outside it
/// ("Repository structure (outside `src/`)"): the folder opens no section.
static EXCLUDES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:outside|except|excluding|besides|other than|not (?:in|under))\b").expect("valid regex")
});

/// "In `services/api/`:" / "**Under** `src/`:" at the start of a line.
static INTRO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*[*_]{0,2}(?:in|under|inside|within|for)\s+`?([^\s`:]+)`?\s*[*_]{0,2}\s*:(?:\s|$)")
        .expect("valid regex")
});

impl Walker {
    /// A heading: a new paragraph, and the section's folder and file, the most recent folder,
    /// the list scopes and the tree nesting are forgotten.
    pub(super) fn close_section(&mut self) {
        self.paragraph += 1;
        self.example = false;
        self.section_dir = None;
        self.section_anchor = None;
        self.recent_dir = None;
        self.list.clear();
        self.nest.clear();
    }

    /// Where a line of text sits in the list nesting: the list scopes it is outside of are
    /// closed (those right of a list item's marker, or of a plain line's indent). Returns the
    /// line's content and, for a list item, the column its content starts at.
    pub(super) fn list_item<'l>(&mut self, line: &'l str) -> (&'l str, Option<usize>) {
        match markdown::list_item(line) {
            Some(item) => {
                self.paragraph += 1;
                self.list.retain(|s| s.col <= item.marker_col);
                (item.content, Some(item.content_col))
            }
            None => {
                let indent = markdown::indent_width(line);
                self.list.retain(|s| s.col <= indent);
                (line.trim_start(), None)
            }
        }
    }

    /// The scope a path opens: a folder (its readings), or a file (kept as an anchor).
    fn scope_of(&mut self, f: FileMention) -> Scope {
        if paths::folder_like(&f.tok) {
            Scope::Dir(f.readings)
        } else {
            self.doc.anchors.push(f);
            Scope::File(self.doc.anchors.len() - 1)
        }
    }

    /// "In `services/api/`: ..." opens a scope for the rest of the line and what follows,
    /// before any of the line's own paths are read. Returns whether it did.
    pub(super) fn intro_prefix(&mut self, line: &Line<'_>, kind: Kind, item_col: Option<usize>) -> bool {
        if kind == Kind::Heading {
            return false;
        }
        let Some(c) = INTRO.captures(&line.masked) else {
            return false;
        };
        let Some(tok) = c.get(1).and_then(|m| paths::classify(m.as_str(), Strength::Backtick)) else {
            return false;
        };
        let folders = self.folders(None);
        let readings = paths::readings(&tok, &folders);
        drop(folders);
        let file = FileMention { raw: tok.path.clone(), tok, readings, start: 0, end: 0, after: 0 };
        let scope = self.scope_of(file);
        match (item_col, scope) {
            (Some(col), scope) => self.list.push(ListScope { col, scope }),
            (None, Scope::Dir(r)) => self.section_dir = Some(r),
            (None, Scope::File(a)) => self.section_anchor = Some(a),
            (None, Scope::Elsewhere(_)) => {}
        }
        true
    }

    /// The first sentence under a heading that names the folder the heading is about ("###
    /// App Directory", then "The `app/` directory contains the main application code"): the
    /// section is on that folder, and so are its sub-sections (`outer_dirs`). Only one folder
    /// in the line, and its name among the heading's words.
    pub(super) fn subject_folder(&mut self, heading: &(usize, String), first: usize) {
        let new = &self.doc.sentences[first..];
        let mut files = new.iter().flat_map(|s| &s.files);
        let (Some(only), None) = (files.next(), files.next()) else { return };
        if !paths::folder_like(&only.tok) || self.section_dir.is_some() {
            return;
        }
        let name = only.tok.path.trim_end_matches('/').rsplit('/').next().unwrap_or("").to_lowercase();
        let named = heading.1.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '-').any(|w| w == name);
        if name.len() < 2 || !named {
            return;
        }
        let readings = only.readings.clone();
        self.outer_dirs.push((heading.0, readings.clone()));
        self.section_dir = Some(readings);
    }

    /// What a prose line opens for the lines after it: a section folder or file (heading or
    /// intro line naming one path), a list scope (item starting with a path), a tree root.
    /// `last_sentence` is where the line's last sentence starts.
    pub(super) fn scopes_after(
        &mut self,
        content: &str,
        first: usize,
        kind: Kind,
        item_col: Option<usize>,
        (single, opened): (bool, bool),
        last_sentence: usize,
    ) {
        self.nest.clear();
        if single {
            self.pending_root =
                root_candidate(content).map(|name| PendingRoot { line: self.line_no, name, emitted: false });
        }
        // "**Common**: https://github.com/org/common — Contains:": the items under it are of
        // that repository.
        if let (Some(col), Some(repository)) = (item_col, elsewhere::other_repository(content)) {
            let k = elsewhere::record(&mut self.doc, self.line_no, repository);
            self.list.push(ListScope { col, scope: Scope::Elsewhere(k) });
            return;
        }
        let new = &self.doc.sentences[first..];
        let count: usize = new.iter().map(|s| s.files.len()).sum();
        let Some(lead) = new.iter().flat_map(|s| &s.files).next().cloned() else {
            return;
        };
        if opened {
            return;
        }
        // A line ending with a colon introduces what follows; the one path it names is the
        // subject of the items or lines under it only when the sentence that introduces them
        // names it ("The preset (`presets.rs`) extracts paths. There are 3 kinds of
        // checkpoints:" lists kinds, not parts of `presets.rs`).
        let introducing = lead.start >= last_sentence;
        let intro =
            kind == Kind::Heading || (introducing && content.trim_end().trim_end_matches(['*', '_']).ends_with(':'));
        if let Some(col) = item_col {
            let before = content.get(..lead.start).unwrap_or("");
            let at_start = before.trim_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | '[')).is_empty();
            if at_start || (intro && count == 1) {
                let scope = self.scope_of(lead.clone());
                self.list.push(ListScope { col, scope });
            }
        } else if intro && count == 1 && !EXCLUDES.is_match(content.get(..lead.start).unwrap_or("")) {
            match self.scope_of(lead.clone()) {
                Scope::Dir(r) => self.section_dir = Some(r),
                Scope::File(a) => self.section_anchor = Some(a),
                Scope::Elsewhere(_) => {}
            }
        }
        if single && count == 1 && paths::folder_like(&lead.tok) {
            self.pending_root = Some(PendingRoot { line: self.line_no, name: lead.tok.path, emitted: true });
        }
    }
}
