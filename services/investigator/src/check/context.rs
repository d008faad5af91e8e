//! What the rest of a memory names, used to read one of its references.
//!
//! Without history, a memory's references are read together (`MemoryContext`, built per memory in
//! `Evidence::check_batch` from all its claims' paths and the symbols it places in files). It only
//! breaks ties the tree leaves open: which of several places a path means, and whether a
//! same-named file or a path found under a new prefix is the one the memory meant. It never turns
//! an exact match into anything else and is used only when there is no history; a move or
//! deletion it reads says "no history" and is at most 60 confident; a relative reading it backs
//! keeps a suffix match's 85 (70 when chosen among several places).
//!
//! **Architecture Invariant:** a move or deletion read from the memory's context without history
//! never claims more than 60 confidence, and its evidence says "no history".

use memval_proto::{Claim, MemoryMeta};

use crate::index::{basename, RepoIndex};

/// What the rest of a memory names, to read one of its references when the tree alone
/// leaves several readings (no history): the paths of all its claims, and the symbols it
/// places in each. Only ever compared with the tree; never read as an instruction.
#[derive(Debug, Default, Clone)]
pub struct MemoryContext {
    /// (path as the extractor resolved it, its other readings) for every reference.
    paths: Vec<(String, Vec<String>)>,
    /// (path, symbol) for every symbol the memory names in a file.
    symbols: Vec<(String, String)>,
    /// The file-less names this memory had history searched for, when it has a budget (a
    /// claim checked on its own has none).
    searches: Option<NameSearches>,
    /// The memory is a README or a doc, written for people, not an agent tool's notes.
    for_people: bool,
    /// Every reading of each file a code block of the memory is written for
    /// (`Assertion::SnippetFile`).
    snippet_files: Vec<String>,
    /// The memory's own file, relative to the repo root, when it is a file of the repository
    /// (`plugins/x/docs/guide.md`).
    own_file: Option<String>,
    /// Every path the memory writes climbing out of the repository (`../wdbx/crates/x`), as
    /// written, whatever folder the extractor read it from.
    outside: Vec<String>,
    /// (path, line) of every line the memory says holds a definition written out with its
    /// keyword ("`fn main` is on line 12 of `src/main.rs`"): there the line is the definition's.
    declared_lines: Vec<(String, u32)>,
    /// (path, line) of every line the memory cites on a file (`auth/sharing.py:76`), not on a
    /// name (`parse_mantissa` (L22)).
    file_lines: Vec<(String, u32)>,
}

/// Words that open a definition in the languages memval reads.
const DEFINING: &[&str] = &["fn", "def", "class", "func", "function", "struct", "enum", "trait", "interface", "type"];

/// Distinct names one memory may have history searched for ([`MemoryContext::take_search`]).
/// A budget per memory, counted in names in the memory's own order, so which names are
/// searched never depends on what other memories, or other workers, asked before.
pub const NAME_SEARCHES_PER_MEMORY: usize = 48;

#[derive(Debug, Default)]
struct NameSearches(std::sync::Mutex<std::collections::BTreeSet<String>>);

impl Clone for NameSearches {
    fn clone(&self) -> Self {
        NameSearches(std::sync::Mutex::new(self.0.lock().expect("search budget poisoned").clone()))
    }
}

pub(super) static NO_CONTEXT: MemoryContext = MemoryContext {
    paths: Vec::new(),
    symbols: Vec::new(),
    searches: None,
    for_people: false,
    snippet_files: Vec::new(),
    own_file: None,
    outside: Vec::new(),
    declared_lines: Vec::new(),
    file_lines: Vec::new(),
};

impl MemoryContext {
    /// The context of a claim checked on its own.
    pub fn none() -> &'static MemoryContext {
        &NO_CONTEXT
    }

    /// A path the memory names that exists at or under `prefix` (verbatim): the memory
    /// writes paths relative to that folder, or knows it.
    /// `prefix` or a folder above it counts (`src/index.ts` for `core/task.ts` found at
    /// `src/app/core/task.ts`: the memory knows `src/` and abbreviates inside it).
    pub(super) fn names_under(&self, index: &RepoIndex, prefix: &str) -> Option<String> {
        let mut folder = prefix;
        while !folder.is_empty() {
            let under = format!("{folder}/");
            if let Some(p) =
                self.paths.iter().map(|(p, _)| p).find(|p| (**p == folder || p.starts_with(&under)) && index.has(p))
            {
                return Some(p.clone());
            }
            folder = folder.rsplit_once('/').map_or("", |(up, _)| up);
        }
        None
    }

    /// Whether the memory names `path` itself, as written (trailing `/` aside).
    pub(super) fn names_exactly(&self, path: &str) -> bool {
        self.paths.iter().any(|(p, _)| p == path)
    }

    /// Whether the memory names `folder` itself, as a folder of the repository (a section
    /// heading `## src/x/`, a path written with a trailing slash).
    pub(super) fn names_folder(&self, index: &RepoIndex, folder: &str) -> bool {
        !folder.is_empty() && index.is_dir(folder) && self.paths.iter().any(|(p, _)| p == folder)
    }

    /// How many of the memory's other paths (not `except`, not there as written) exist under
    /// `prefix/`: references that went, or are written relative to, the same place.
    pub(super) fn found_under(&self, index: &RepoIndex, prefix: &str, except: &str) -> usize {
        if prefix.is_empty() {
            return 0;
        }
        self.paths
            .iter()
            .filter(|(p, _)| p != except && !index.has(p))
            .filter(|(p, _)| {
                let moved = format!("{prefix}/{p}");
                index.has(&moved)
            })
            .count()
    }

    /// Whether another path of the memory in `old/` (not there as written, not `except`)
    /// is found in `new/` with the rest of its path kept: the folder moved.
    pub(super) fn moved_along(&self, index: &RepoIndex, old: &str, new: &str, except: &str) -> bool {
        let under = format!("{old}/");
        self.paths.iter().any(|(p, _)| {
            p != except
                && index.file(p).is_none()
                && !index.is_dir(p)
                && p.strip_prefix(&under).is_some_and(|rest| {
                    let there = format!("{new}/{rest}");
                    index.has(&there)
                })
        })
    }

    /// The memory's paths inside `folder/` that are not there as written.
    pub(crate) fn inside(&self, index: &RepoIndex, folder: &str) -> Vec<String> {
        let under = format!("{folder}/");
        self.paths.iter().map(|(p, _)| p).filter(|p| p.starts_with(&under) && !index.has(p)).cloned().collect()
    }

    /// How many of the memory's paths are bare folder names (`tools/`, `ci/`) of folders at the
    /// root now, other than `except`: a memory listing such folders lays out the root.
    pub(crate) fn root_folders_named(&self, index: &RepoIndex, except: &str) -> usize {
        self.paths.iter().filter(|(p, _)| !p.contains('/') && p != except && index.is_dir(p)).count()
    }

    /// The memory's paths that climb out of the repository, as written (`../wdbx/crates/x`).
    pub(crate) fn outside_paths(&self) -> impl Iterator<Item = &str> {
        self.outside.iter().map(String::as_str)
    }

    /// The memory's paths the tree does not have as written, other than `except`.
    pub(crate) fn missing<'a>(&'a self, index: &'a RepoIndex, except: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.paths.iter().map(|(p, _)| p.trim_end_matches('/')).filter(move |p| *p != except && !index.has(p))
    }

    /// Whether the memory names any path inside `folder/`.
    pub(crate) fn has_inside(&self, folder: &str) -> bool {
        let under = format!("{folder}/");
        self.paths.iter().any(|(p, _)| p.starts_with(&under))
    }

    /// Whether the memory names `place`, or a path inside it, that exists as written (not
    /// `except`): it knew that place as it is, so it is not where another of its references went.
    pub(crate) fn knew(&self, index: &RepoIndex, place: &str, except: &str) -> bool {
        let under = format!("{place}/");
        self.paths.iter().any(|(p, _)| p != except && (p == place || p.starts_with(&under)) && index.has(p))
    }

    /// Where the memory's other paths in `old/` (not `except`, not there as written) are found
    /// with the rest of their path kept: the one folder that holds at least two of them and
    /// more than any other, or `None`.
    pub(crate) fn moved_to(&self, index: &RepoIndex, old: &str, except: &str) -> Option<String> {
        let under = format!("{old}/");
        let mut votes: Vec<(String, usize)> = Vec::new();
        for (p, _) in &self.paths {
            if p == except || index.has(p) {
                continue;
            }
            let Some(rest) = p.strip_prefix(&under) else { continue };
            let suffix = format!("/{rest}");
            let name = basename(rest);
            let mut places: Vec<String> = index
                .files_named(name)
                .iter()
                .map(|&i| index.file_at(i).path.as_str())
                .chain(index.dirs_named(name))
                .filter_map(|q| q.strip_suffix(&suffix))
                .filter(|prefix| *prefix != old)
                .map(str::to_owned)
                .collect();
            places.sort();
            places.dedup();
            for place in places {
                match votes.iter_mut().find(|(v, _)| *v == place) {
                    Some((_, n)) => *n += 1,
                    None => votes.push((place, 1)),
                }
            }
        }
        votes.sort_by_key(|v| std::cmp::Reverse(v.1));
        match votes.as_slice() {
            [(best, n), rest @ ..] if *n >= 2 && rest.first().is_none_or(|(_, m)| m < n) => Some(best.clone()),
            _ => None,
        }
    }

    /// Whether another path of the memory (not `except`) exists in `folder` itself.
    pub(super) fn existing_in(&self, index: &RepoIndex, folder: &str, except: &str) -> bool {
        self.paths.iter().any(|(p, alts)| {
            p != except && std::iter::once(p).chain(alts).any(|q| crate::names::folder(q) == folder && (index.has(q)))
        })
    }

    /// Whether `name` may have its history searched: a name already searched for this memory
    /// always may; a new one while fewer than [`NAME_SEARCHES_PER_MEMORY`] names were.
    pub(super) fn take_search(&self, name: &str) -> bool {
        let Some(searches) = &self.searches else { return true };
        let mut searched = searches.0.lock().expect("search budget poisoned");
        if searched.contains(name) {
            return true;
        }
        if searched.len() >= NAME_SEARCHES_PER_MEMORY {
            return false;
        }
        searched.insert(name.to_owned());
        true
    }

    /// The symbols the memory places in `path`.
    pub(super) fn symbols_in(&self, path: &str) -> Vec<String> {
        let mut out: Vec<String> = self.symbols.iter().filter(|(p, _)| p == path).map(|(_, s)| s.clone()).collect();
        out.dedup();
        out
    }

    /// The same context, for the memory `memory` (whose kind of document it is).
    pub fn for_memory(mut self, memory: &MemoryMeta) -> MemoryContext {
        self.for_people = memory.agent == memval_proto::tools::DOCS_AGENT;
        self
    }

    /// The same context, for a memory that is the file `file` of the repository.
    pub fn in_file(mut self, file: Option<String>) -> MemoryContext {
        self.own_file = file.filter(|f| !f.is_empty());
        self
    }

    /// The memory's own file in the repository.
    pub(super) fn own_file(&self) -> Option<&str> {
        self.own_file.as_deref()
    }

    /// Whether the memory is a README or a doc (written for people), not an agent's notes.
    pub(super) fn for_people(&self) -> bool {
        self.for_people
    }

    /// Whether the memory says line `line` of `path` holds a definition written with its keyword
    /// (`fn main`, `def run`, `class Cache`).
    pub(super) fn declared_at(&self, path: &str, line: u32) -> bool {
        self.declared_lines.iter().any(|(p, l)| p == path && *l == line)
    }

    /// Whether the memory cites line `line` of the file at `path` as a place in that file
    /// (`auth/sharing.py:76`), a path as written or a tail of it.
    pub(super) fn file_line_at(&self, path: &str, line: u32) -> bool {
        self.file_lines.iter().any(|(p, l)| *l == line && (p == path || path.ends_with(&format!("/{p}"))))
    }

    /// Whether one of `readings` is a file a code block of the memory is written for.
    pub(super) fn snippet_file(&self, readings: &[&str]) -> bool {
        readings.iter().any(|r| self.snippet_files.iter().any(|s| s == r.trim_end_matches('/')))
    }

    pub fn of(claims: &[Claim]) -> MemoryContext {
        let mut ctx = MemoryContext { searches: Some(NameSearches::default()), ..MemoryContext::default() };
        for c in claims {
            ctx.note_lines_and_snippets(c);
            for r in &c.code_refs {
                let path = r.path.trim().trim_start_matches("./").trim_end_matches('/');
                if path.is_empty() || path == "." {
                    continue;
                }
                if !ctx.paths.iter().any(|(p, _)| p == path) {
                    ctx.paths.push((path.to_owned(), r.alt_paths.clone()));
                }
                let written = r.written.as_deref().unwrap_or(path).trim();
                if written.starts_with("../") && !ctx.outside.iter().any(|o| o == written) {
                    ctx.outside.push(written.to_owned());
                }
                if let Some(symbol) = &r.symbol {
                    ctx.symbols.push((path.to_owned(), symbol.clone()));
                }
            }
        }
        ctx
    }

    /// What one claim adds to the lines and code blocks of the memory: a line cited on a file,
    /// a line said to hold a definition written out with its keyword, the files a code block is
    /// written for.
    fn note_lines_and_snippets(&mut self, c: &Claim) {
        let clean = |p: &str| p.trim().trim_start_matches("./").to_owned();
        match &c.assertion {
            None if c.claim_type == memval_proto::ClaimType::FileReference => {
                for r in c.code_refs.iter().filter(|r| r.symbol.is_none()) {
                    if let Some(line) = r.line {
                        let readings = std::iter::once(&r.path).chain(&r.alt_paths);
                        self.file_lines.extend(readings.map(|p| (clean(p), line)));
                    }
                }
            }
            Some(memval_proto::Assertion::LineText { text })
                if text.split_whitespace().any(|w| DEFINING.contains(&w)) =>
            {
                for r in &c.code_refs {
                    if let Some(line) = r.line {
                        self.declared_lines.push((clean(&r.path), line));
                    }
                }
            }
            Some(memval_proto::Assertion::SnippetFile) => {
                for r in &c.code_refs {
                    let readings = std::iter::once(&r.path).chain(&r.alt_paths);
                    self.snippet_files.extend(readings.map(|p| clean(p).trim_end_matches('/').to_owned()));
                }
            }
            _ => {}
        }
    }
}
