//! The document walker: reads memory text line by line, follows its markdown structure
//! (sections, paragraphs, list nesting, fences, trees) and collects what each sentence
//! mentions: files, symbols, config keys, line contents.
//!
//! Relative paths are resolved here, because only the walker knows the folders in scope. A
//! path's readings, most likely first: joined onto a folder next to a bare name in the same
//! sentence ("`lru.go` in `internal/cache/`"), onto the folder of the enclosing list item,
//! onto the folder a heading or an intro line ("In `services/api/`:") named, onto the notes
//! file's own folder, then the path as written, then (bare names only) joined onto the folder
//! named most recently in the section. See `paths::readings` for the exceptions.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::LazyLock;

use memval_proto::ClaimType;
use regex::Regex;

use crate::markdown::{self, Fence};
use crate::mentions::{
    bind, clean_text, config_mentions, gap, line_contents, nearest, placeholders, symbol_mentions, Cand, ConfigMention,
    FileMention, Line, LineTextMention, SymbolMention,
};
use crate::paths::{self, Demote, Folder, PathToken, Strength};
use crate::{behaviour, commands, config, lines, symbols};

/// Mentions kept per memory, so hostile text cannot blow up memory or time.
pub(crate) const MAX_MENTIONS: usize = 4096;
/// Deepest tree or listing nesting followed.
const MAX_NEST: usize = 64;
/// Longest code span looked at.
const MAX_SPAN: usize = 512;

/// Candidate path tokens of running text.
static TOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"[^\s\x00-\x1f\x7f`()\[\]{}<>"',;|=]+"#).expect("valid regex"));

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Prose,
    Heading,
}

/// A sentence (or a tree/code line) that mentions something.
#[derive(Debug, Clone)]
pub(crate) struct Sentence {
    pub line: u32,
    pub text: String,
    pub paragraph: u32,
    /// The file the enclosing section or list item is about (index into [`Doc::anchors`]).
    pub anchor: Option<usize>,
    pub files: Vec<FileMention>,
    pub symbols: Vec<SymbolMention>,
    pub configs: Vec<ConfigMention>,
    pub line_texts: Vec<LineTextMention>,
    pub behaviour: Option<ClaimType>,
}

#[derive(Debug, Default)]
pub(crate) struct Doc {
    pub sentences: Vec<Sentence>,
    pub anchors: Vec<FileMention>,
    /// When the memory names more than [`MAX_MENTIONS`] things: the line the scan stopped
    /// on and the memory's last line. What lies between is reported as not read.
    pub unread: Option<(u32, u32)>,
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

/// The script a command runs, as a path: `./gradlew` and `./mvnw` name a file of the
/// current folder even without an extension.
fn program_token(program: &str) -> Option<PathToken> {
    paths::classify(program, Strength::Backtick).or_else(|| {
        let name = program.strip_prefix("./")?;
        (!name.is_empty() && !name.contains('/')).then(|| paths::parse(name)).flatten().filter(|t| !t.dir)
    })
}

/// The path arguments of a command line ([`commands::path_args`]) that are shaped like
/// paths, with the word each came from. A file name of an extension no list knows counts
/// only as the argument of a program of the repo ([`commands::repo_program_files`]).
fn command_arg_tokens(line: &str) -> Vec<(PathToken, &str)> {
    let own_files = commands::repo_program_files(line);
    commands::path_args(line)
        .into_iter()
        .filter_map(|(w, folder)| {
            let w = w.trim_end_matches([',', ';']);
            let tok = if folder && !w.ends_with('/') {
                paths::classify(&format!("{w}/"), Strength::Backtick)
            } else {
                paths::classify(w, Strength::Backtick)
                    .or_else(|| own_files.contains(&w).then(|| paths::parse(w)).flatten().filter(|t| !t.dir))
            }?;
            (!tok.unresolvable()).then_some((tok, w))
        })
        .collect()
}

/// Whether the sentence `orig[range]` talks about dependencies ("the `serde` crate"), not
/// counting the words inside the paths it names: `crates/core/src/lib.rs` and
/// `packages/cli/` are folders of a monorepo, not talk of packages.
fn dependency_cue(orig: &str, range: &std::ops::Range<usize>, files: &[FileMention]) -> bool {
    let mut text = orig[range.clone()].to_string();
    for f in files.iter().filter(|f| f.tok.path.contains('/')) {
        let (a, b) = (f.start.max(range.start) - range.start, f.end.min(range.end).saturating_sub(range.start));
        if a < b && text.is_char_boundary(a) && text.is_char_boundary(b) {
            text.replace_range(a..b, &" ".repeat(b - a));
        }
    }
    config::has_dependency_cue(&text)
}

/// Front matter keys that configure the agent tool, not the repository: the tools a sub-agent
/// may call (`tools: [playwright-test/browser_click]`), its MCP servers and model. Their values
/// name no file of the repo. (`globs`, `applyTo`, `description` are read, and so is
/// `allowed-tools`, whose `Bash(./scripts/release.sh:*)` names a script of the repo.)
const TOOL_KEYS: &[&str] = &["tools", "mcp-servers", "mcpServers", "mcp_servers", "model", "color", "argument-hint"];

/// The YAML front matter at the top of a notes file (`---` to `---`), line by line: which
/// lines belong to one of the [`TOOL_KEYS`] (the key's line and its indented continuation).
#[derive(Default)]
struct FrontMatter {
    /// Inside the block.
    open: bool,
    /// The block has ended (or there is none): nothing more is skipped.
    done: bool,
    /// The current top-level key is a tool key.
    in_tool_key: bool,
}

impl FrontMatter {
    /// Whether line `i` (0-based) is to be skipped.
    fn skips(&mut self, i: usize, line: &str) -> bool {
        if self.done {
            return false;
        }
        if !self.open {
            if i == 0 && line.trim_end() == "---" {
                self.open = true;
            } else {
                self.done = true;
            }
            return false;
        }
        if matches!(line.trim_end(), "---" | "...") {
            self.done = true;
            return false;
        }
        let continued = line.starts_with([' ', '\t', '-']) || line.trim().is_empty();
        if !continued {
            let key = line.split(':').next().unwrap_or("").trim().trim_matches(['"', '\'']);
            self.in_tool_key = TOOL_KEYS.contains(&key);
        }
        self.in_tool_key
    }
}

/// Where a skill keeps the files its SKILL.md names by bare name.
const SKILL_BUNDLE_DIRS: &[&str] = &["scripts", "references", "assets"];

/// The folder a notes file's paths are read against besides the repo root (`file_dir`: its
/// folder, repo-relative). A skill's files name the skill's own files from its folder
/// (`scripts/bump.sh` in `.claude/skills/release/`); other notes in an agent tool's folder at
/// the repo root (`.github/copilot-instructions.md`, `.cursor/rules/*.mdc`, `.claude/commands/`,
/// `memval_proto::tools::TOOL_DIRS`) describe the repository from its root, as the tool reads
/// them, so only their relative links (`./x`, `../x`) are read from their own folder, as a
/// markdown renderer reads them; any other notes file's folder is read first.
fn context_of(file_dir: Option<&str>, skill: Option<&str>) -> Option<String> {
    let dir = file_dir?;
    if let Some(skill) = skill {
        return Some(skill.to_owned());
    }
    let tool = memval_proto::tools::tool_agent(dir.split('/').next().unwrap_or("")).is_some();
    (!tool).then(|| dir.to_string())
}

/// `file_dir`: the notes file's folder, repo-relative (`None` at the root or outside the repo).
pub(crate) fn scan(content: &str, file_dir: Option<&str>) -> Doc {
    let skill = file_dir.and_then(memval_proto::tools::skill_dir);
    let context = context_of(file_dir, skill.as_deref());
    let mut w = Walker {
        roots: named_roots(content),
        context_demote: match (&skill, &context) {
            (Some(_), _) => Demote::SkillRoots,
            (None, Some(c)) if paths::is_docs_dir(c) => Demote::Roots,
            _ => Demote::No,
        },
        skill_bundle: skill
            .map(|skill| SKILL_BUNDLE_DIRS.iter().map(|d| format!("{skill}/{d}")).collect())
            .unwrap_or_default(),
        context,
        file_dir: file_dir.map(str::to_string),
        doc: Doc::default(),
        paragraph: 0,
        section_dir: None,
        section_anchor: None,
        recent_dir: None,
        list: Vec::new(),
        nest: Vec::new(),
        pending_root: None,
        line_no: 0,
        budget: MAX_MENTIONS,
    };
    let mut fence: Option<Fence> = None;
    let mut last_read = 0;
    let mut front = FrontMatter::default();
    for (i, raw) in content.split('\n').enumerate() {
        if w.budget == 0 {
            break;
        }
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        last_read = line_no;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if front.skips(i, line) {
            continue;
        }
        match fence.take() {
            Some(f) if f.closes(line) => w.block_break(),
            Some(f) => {
                w.code_line(line, line_no, &f);
                fence = Some(f);
            }
            None => match markdown::fence_open(line) {
                Some(f) => {
                    w.block_break();
                    fence = Some(f);
                }
                None => w.text_line(line, line_no),
            },
        }
    }
    if w.budget == 0 {
        let last = u32::try_from(content.split('\n').count()).unwrap_or(u32::MAX);
        w.doc.unread = Some((last_read, last));
    }
    w.doc
}

/// The first folders of the paths the memory's code spans name ([`paths::named_root`]),
/// read before the walk so a span on line 3 can lean on a path on line 90.
fn named_roots(content: &str) -> HashSet<String> {
    let mut roots = HashSet::new();
    for line in content.split('\n') {
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

enum Scope {
    Dir(Vec<String>),
    File(usize),
}

struct ListScope {
    /// Content column of the item that opened the scope; deeper items are inside it.
    col: usize,
    scope: Scope,
}

struct NestEntry {
    col: usize,
    name: String,
    /// A root that may be the project's own name: children also get a reading without it.
    label: bool,
}

struct Walker {
    /// Folders the memory names as the first segment of a path ([`named_roots`]).
    roots: HashSet<String>,
    /// The folder paths are read against besides the repo root (the notes file's, unless it
    /// is a tool folder or a skill: [`context_of`]).
    context: Option<String>,
    /// Which paths are read from the repo root before `context` (decided once per memory).
    context_demote: Demote,
    /// In a skill, the folders it bundles its files in: a bare name (`review.py`) is looked
    /// for there too, after the skill's own folder.
    skill_bundle: Vec<String>,
    /// The notes file's own folder: where its relative links point.
    file_dir: Option<String>,
    doc: Doc,
    paragraph: u32,
    section_dir: Option<Vec<String>>,
    section_anchor: Option<usize>,
    recent_dir: Option<Vec<String>>,
    list: Vec<ListScope>,
    nest: Vec<NestEntry>,
    /// A lone name on the previous line: the root of a tree, should one follow.
    pending_root: Option<PendingRoot>,
    /// The line being read.
    line_no: u32,
    budget: usize,
}

struct PendingRoot {
    line: u32,
    name: String,
    /// Already claimed as a path by the line itself.
    emitted: bool,
}

/// A lone token that can be a tree's root: path characters, not a label ending in `:`.
fn root_candidate(token: &str) -> Option<String> {
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
    fn block_break(&mut self) {
        self.paragraph += 1;
        self.nest.clear();
    }

    fn text_line(&mut self, line: &str, line_no: u32) {
        let line = markdown::strip_blockquote(line);
        if line.trim().is_empty() {
            self.block_break();
            return;
        }
        if let Some(text) = markdown::heading(line) {
            self.paragraph += 1;
            self.section_dir = None;
            self.section_anchor = None;
            self.recent_dir = None;
            self.list.clear();
            self.nest.clear();
            if !text.is_empty() {
                self.prose(text, line_no, Kind::Heading, None);
            }
            return;
        }
        if markdown::is_tree_line(line) && self.tree_line(line, line_no) {
            return;
        }
        let (content, item_col) = match markdown::list_item(line) {
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
        };
        if content.trim().is_empty() {
            return;
        }
        if commands::is_prose_command(content) {
            self.command_program(content, line_no);
            return;
        }
        self.prose(content, line_no, Kind::Prose, item_col);
    }

    fn code_line(&mut self, line: &str, line_no: u32, fence: &Fence) {
        if !self.code_structure(line, line_no, fence) {
            return;
        }
        // A tree row, a listing entry or a command is read for its structure; a comment at
        // its end is prose written in the code block (`uv sync  # after editing
        // pyproject.toml`, `frontend/  # see frontend/AGENTS.md`), so the paths it names
        // are read too. Other code lines were read whole already.
        if let Some(comment) = markdown::code_comment(line) {
            self.code_paths(comment, line_no);
        }
    }

    /// Reads a code line; `true` when only its structure was read (a tree row, a listing
    /// entry, a command), `false` when the whole line was scanned for paths.
    fn code_structure(&mut self, line: &str, line_no: u32, fence: &Fence) -> bool {
        if markdown::is_tree_line(line) && self.tree_line(line, line_no) {
            return true;
        }
        self.pending_root = markdown::single_token(line).and_then(root_candidate).map(|name| PendingRoot {
            line: line_no,
            name,
            emitted: false,
        });
        if fence.is_shell() || line.trim().is_empty() || commands::is_command(line) {
            self.command_program(line, line_no);
            return true;
        }
        if fence.is_listing() {
            if let Some(token) = markdown::single_token(line) {
                let col = markdown::indent_width(line);
                let listed = !self.nest.is_empty()
                    || token == "."
                    || token == "./"
                    || paths::classify(token, Strength::Standalone).is_some();
                let root = self.nest.is_empty();
                if listed && self.nest_entry(col, token, line_no, line, root) {
                    self.pending_root = None;
                    return true;
                }
            }
        }
        self.code_paths(line, line_no);
        false
    }

    /// Reads a tree row; `false` when it is a phrase the caller reads as text instead.
    fn tree_line(&mut self, line: &str, line_no: u32) -> bool {
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
                let label = !paths::is_common_dir(&root.name);
                self.nest.push(NestEntry { col: 0, name: root.name, label });
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

    /// Folders a path in running text may be written against, most specific first.
    fn folders<'a>(&'a self, near: Option<&'a [String]>) -> Vec<Folder<'a>> {
        let mut v = Vec::with_capacity(5);
        let folder =
            |readings, bare_only, fallback| Folder { readings, bare_only, fallback, demote: Demote::No, own: false };
        if let Some(r) = near {
            v.push(folder(r, true, false));
        }
        if let Some(r) = self.list_dir() {
            v.push(folder(r, false, false));
        }
        if let Some(r) = &self.section_dir {
            v.push(folder(r, false, false));
        }
        if let Some(c) = self.context_folder() {
            v.push(c);
        }
        if !self.skill_bundle.is_empty() {
            v.push(folder(&self.skill_bundle, true, false));
        }
        if let Some(r) = &self.recent_dir {
            v.push(folder(r, true, true));
        }
        v
    }

    /// The notes file's folder; in a docs folder or a skill, paths under well-known top
    /// folders are read from the repo root first ([`Demote`]).
    fn context_folder(&self) -> Option<Folder<'_>> {
        let c = self.context.as_ref()?;
        Some(Folder {
            readings: std::slice::from_ref(c),
            bare_only: false,
            fallback: false,
            demote: self.context_demote,
            own: true,
        })
    }

    /// Folders a tree, listing or code block path may be written against.
    fn structure_folders(&self) -> Vec<Folder<'_>> {
        let mut v = Vec::with_capacity(2);
        if let Some(r) = &self.section_dir {
            v.push(Folder { readings: r, bare_only: false, fallback: false, demote: Demote::No, own: false });
        }
        if let Some(c) = self.context_folder() {
            v.push(c);
        }
        v
    }

    fn list_dir(&self) -> Option<&[String]> {
        self.list.iter().rev().find_map(|s| match &s.scope {
            Scope::Dir(r) => Some(r.as_slice()),
            Scope::File(_) => None,
        })
    }

    fn anchor(&self) -> Option<usize> {
        self.list
            .iter()
            .rev()
            .find_map(|s| match s.scope {
                Scope::File(a) => Some(a),
                Scope::Dir(_) => None,
            })
            .or(self.section_anchor)
    }

    fn scope_of(&mut self, f: FileMention) -> Scope {
        if paths::folder_like(&f.tok) {
            Scope::Dir(f.readings)
        } else {
            self.doc.anchors.push(f);
            Scope::File(self.doc.anchors.len() - 1)
        }
    }

    fn push(&mut self, mut sentence: Sentence) {
        // A sentence's mentions refer to each other by index, so only whole lists are cut;
        // past the budget the memory is hostile and the rest of it is ignored anyway.
        if sentence.files.len() + sentence.symbols.len() + sentence.configs.len() > self.budget {
            sentence.symbols.clear();
            sentence.configs.clear();
            sentence.line_texts.clear();
            sentence.behaviour = None;
            sentence.files.truncate(self.budget);
        }
        let n = sentence.files.len() + sentence.symbols.len() + sentence.configs.len() + sentence.line_texts.len();
        if n > 0 {
            self.budget = self.budget.saturating_sub(n);
            self.doc.sentences.push(sentence);
        }
    }

    fn prose(&mut self, content: &str, line_no: u32, kind: Kind, item_col: Option<usize>) {
        self.line_no = line_no;
        let line = Line::new(content);
        let single = !content.trim().contains(char::is_whitespace);
        let opened = self.intro_prefix(&line, kind, item_col);
        let first = self.doc.sentences.len();
        for range in markdown::sentences(&line.masked, &line.spans) {
            if self.budget == 0 {
                break;
            }
            self.sentence(&line, range, line_no, kind, single);
        }
        self.scopes_after(content, first, kind, item_col, single, opened);
    }

    /// "In `services/api/`: ..." opens a scope for the rest of the line and what follows,
    /// before any of the line's own paths are read. Returns whether it did.
    fn intro_prefix(&mut self, line: &Line<'_>, kind: Kind, item_col: Option<usize>) -> bool {
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
        }
        true
    }

    /// What a prose line opens for the lines after it: a section folder or file (heading or
    /// intro line naming one path), a list scope (item starting with a path), a tree root.
    fn scopes_after(
        &mut self,
        content: &str,
        first: usize,
        kind: Kind,
        item_col: Option<usize>,
        single: bool,
        opened: bool,
    ) {
        self.nest.clear();
        if single {
            self.pending_root =
                root_candidate(content).map(|name| PendingRoot { line: self.line_no, name, emitted: false });
        }
        let new = &self.doc.sentences[first..];
        let count: usize = new.iter().map(|s| s.files.len()).sum();
        let Some(lead) = new.iter().flat_map(|s| &s.files).next().cloned() else {
            return;
        };
        if opened {
            return;
        }
        let intro = kind == Kind::Heading || content.trim_end().trim_end_matches(['*', '_']).ends_with(':');
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
            }
        }
        if single && count == 1 && paths::folder_like(&lead.tok) {
            self.pending_root = Some(PendingRoot { line: self.line_no, name: lead.tok.path, emitted: true });
        }
    }

    fn sentence(&mut self, line: &Line<'_>, range: Range<usize>, line_no: u32, kind: Kind, single: bool) {
        let orig = line.orig;
        let text = &orig[range.clone()];
        let cue = config::has_cue(text);
        let env_cue = config::has_env_cue(text);
        let spans = line.spans_in(&range);
        // A heading made only of code spans (`### `editors/code``, `### `crates/a`, `crates/b``)
        // names each as a path as deliberately as a line of its own would.
        let spans_heading = kind == Kind::Heading
            && !spans.is_empty()
            && line.open[range.clone()]
                .split(|c: char| c.is_whitespace() || c == ',' || c == '&')
                .all(|w| w.is_empty() || w == "and");
        let span_strength = if spans_heading { Strength::Standalone } else { Strength::Backtick };

        // Code spans: a command, an assignment, a path, or a candidate symbol / key / line text.
        let mut raw: Vec<(PathToken, usize, usize)> = Vec::new();
        let mut cands: Vec<Cand<'_>> = Vec::new();
        let mut configs: Vec<ConfigMention> = Vec::new();
        let mut assignments = Vec::new();
        for sp in spans {
            let inner = orig[sp.inner.clone()].trim();
            if inner.is_empty() || inner.len() > MAX_SPAN {
                continue;
            }
            if inner.contains(char::is_whitespace) {
                // A command: the program it runs and the paths it is given, each at its
                // own place in the span.
                let at = |w: &str| {
                    let start = w.as_ptr() as usize - orig.as_ptr() as usize;
                    (start, start + w.len())
                };
                let program = commands::program(inner).and_then(|p| Some((program_token(p)?, at(p))));
                let program_found = program.is_some();
                if let Some((tok, (a, b))) = program {
                    raw.push((tok, a, b));
                }
                let args = command_arg_tokens(inner);
                let args_found = !args.is_empty();
                for (tok, w) in args {
                    let (a, b) = at(w);
                    raw.push((tok, a, b));
                }
                if program_found || args_found {
                    continue;
                }
            }
            if commands::is_command(inner) {
                continue;
            }
            if let Some(tok) = paths::classify(line.masked[sp.inner.clone()].trim(), span_strength)
                .or_else(|| paths::pattern_folder(line.masked[sp.inner.clone()].trim()))
                .or_else(|| program_token(line.masked[sp.inner.clone()].trim()).filter(|_| inner.starts_with("./")))
                .or_else(|| paths::under_named_root(line.masked[sp.inner.clone()].trim(), &self.roots))
            {
                raw.push((tok, sp.start, sp.end));
                continue;
            }
            if let Some(a) = config::assignment(inner) {
                assignments.push((a, sp.start, sp.end));
                continue;
            }
            cands.push(Cand { start: sp.start, end: sp.end, text: inner, used: false });
        }
        // A link written `./x` or `../x` is relative to the notes file, as a markdown
        // renderer reads it, whatever section folder the text is under.
        let mut own_relative = Vec::new();
        for link in line.links_in(&range) {
            let target = &line.masked[link.target.clone()];
            if let Some(tok) = paths::classify(target, Strength::Standalone) {
                if target.trim_start().starts_with("./") || target.trim_start().starts_with("../") {
                    own_relative.push((link.start, link.end));
                }
                raw.push((tok, link.start, link.end));
            }
        }
        let strength = if single { Strength::Standalone } else { Strength::Prose };
        for m in TOKEN.find_iter(&line.open[range.clone()]) {
            // Bold two-segment words (`**internal-packages/redis**`) are paths on the same
            // terms as code spans: under a folder the memory names as a path elsewhere, which
            // keeps a bold `owner/repo` out.
            let bold = |t: &str| t.starts_with("**") && t.trim_end_matches(['.', ',', ':', ';']).ends_with("**");
            if let Some(tok) = paths::classify(m.as_str(), strength)
                .or_else(|| bold(m.as_str()).then(|| paths::under_named_root(m.as_str(), &self.roots)).flatten())
            {
                raw.push((tok, range.start + m.start(), range.start + m.end()));
            }
        }
        // `edition = "2021"` is a setting next to `Cargo.toml`, `tokio = "1"` is not.
        let config_file = raw.iter().any(|r| r.0.has_config_ext());
        for (a, start, end) in assignments {
            if a.accept(cue, config_file) {
                configs.push(ConfigMention { key: a.key, value: Some(a.value), file: None, start, end, prose: false });
            }
        }
        // A code span inside a link (`` [`a.rs`](a.rs) ``) is the same mention as the link.
        raw.sort_by_key(|r| (r.1, std::cmp::Reverse(r.2)));
        let mut reach = 0;
        raw.retain(|r| {
            let keep = r.2 > reach;
            reach = reach.max(r.2);
            keep
        });

        // Past the memory's mention budget the text is hostile: stop doing work for it.
        raw.truncate(self.budget);
        cands.truncate(self.budget);
        let mut files = self.resolve(orig, raw);
        if let Some(own) = self.file_dir.as_ref().filter(|_| !own_relative.is_empty()) {
            let own = [Folder {
                readings: std::slice::from_ref(own),
                bare_only: false,
                fallback: false,
                demote: Demote::No,
                own: true,
            }];
            for f in files.iter_mut().filter(|f| own_relative.contains(&(f.start, f.end))) {
                f.readings = paths::readings(&f.tok, &own);
            }
        }
        for f in files.iter_mut() {
            if f.tok.dir {
                f.tok.line = None;
            } else if f.tok.line.is_none() {
                if let Some((n, len)) = lines::after_file(gap(orig, f.end, range.end)) {
                    f.tok.line = Some(n);
                    f.after = f.end + len;
                } else {
                    f.tok.line = lines::before_file(gap(orig, range.start, f.start));
                }
            }
        }

        let text_kind = matches!(kind, Kind::Prose | Kind::Heading);
        let mut line_texts = Vec::new();
        if text_kind {
            line_texts = line_contents(orig, &range, &files, &mut cands);
            config_mentions(line, &range, cue, env_cue, config_file, &mut cands, &mut configs);
        }

        let mut syms = Vec::new();
        if text_kind {
            let taken: Vec<(usize, usize)> = configs.iter().filter(|c| c.prose).map(|c| (c.start, c.end)).collect();
            syms = symbol_mentions(line, &range, &files, &cands, &taken, dependency_cue(orig, &range, &files));
        }

        // Tie symbols and keys to the nearest file of the sentence.
        let plain: Vec<usize> = (0..files.len()).filter(|&i| !paths::folder_like(&files[i].tok)).collect();
        let folders: Vec<usize> = (0..files.len()).filter(|&i| paths::folder_like(&files[i].tok)).collect();
        let conf: Vec<usize> = plain.iter().copied().filter(|&i| files[i].tok.has_config_ext()).collect();
        for s in syms.iter_mut() {
            bind(orig, &files, &plain, &folders, s);
        }
        // "line 12 of `src/main.rs` holds `fn main`": the declared name sits on that line.
        for lt in &line_texts {
            let f = &files[lt.file];
            if let Some(sym) = symbols::parse(&lt.text).filter(|s| s.shape.is_code() && !symbols::blocked(&s.name)) {
                syms.push(SymbolMention {
                    name: sym.name,
                    shape: sym.shape,
                    line: f.tok.line,
                    file: Some(lt.file),
                    free: false,
                    start: f.start,
                    end: f.end,
                });
            }
        }
        for c in configs.iter_mut() {
            c.file = nearest(orig, &files, &conf, c.start, c.start)
                .or_else(|| nearest(orig, &files, &plain, c.start, c.start));
        }

        let behaviour = if kind == Kind::Prose && configs.is_empty() && line_texts.is_empty() {
            // Places, not names: a symbol and its own file are one place.
            let mut distinct: Vec<&str> = files
                .iter()
                .map(|f| f.readings[0].as_str())
                .chain(syms.iter().map(|s| s.file.map_or(s.name.as_str(), |i| files[i].readings[0].as_str())))
                .collect();
            distinct.sort_unstable();
            distinct.dedup();
            let prose = placeholders(orig, &range, spans, &files, &syms);
            behaviour::classify(&prose, distinct.len())
        } else {
            None
        };

        if let Some(dir) = files.iter().rfind(|f| paths::folder_like(&f.tok)) {
            self.recent_dir = Some(dir.readings.clone());
        }
        let has_mentions = !(files.is_empty() && syms.is_empty() && configs.is_empty());
        let sentence = Sentence {
            line: line_no,
            text: if has_mentions { clean_text(text) } else { String::new() },
            paragraph: self.paragraph,
            anchor: self.anchor(),
            files,
            symbols: syms,
            configs,
            line_texts,
            behaviour,
        };
        self.push(sentence);
    }

    /// Readings of each path of a sentence. A bare name right next to a folder of the same
    /// sentence is read inside that folder first.
    fn resolve(&self, orig: &str, raw: Vec<(PathToken, usize, usize)>) -> Vec<FileMention> {
        let folders = self.folders(None);
        let mut files: Vec<FileMention> = raw
            .into_iter()
            .map(|(tok, start, end)| FileMention {
                raw: tok.path.clone(),
                readings: paths::readings(&tok, &folders),
                tok,
                start,
                end,
                after: end,
            })
            .collect();
        for i in 0..files.len() {
            let f = &files[i];
            if f.tok.path.contains('/') || f.tok.dir || f.tok.unresolvable() {
                continue;
            }
            let next = files
                .get(i + 1)
                .filter(|d| paths::folder_like(&d.tok) && paths::name_in_folder(gap(orig, f.end, d.start)));
            let prev = i
                .checked_sub(1)
                .and_then(|j| files.get(j))
                .filter(|d| paths::folder_like(&d.tok) && paths::folder_then_name(gap(orig, d.end, f.start)));
            if let Some(dir) = next.or(prev).map(|d| d.readings.clone()) {
                files[i].readings = paths::readings(&files[i].tok, &self.folders(Some(&dir)));
            }
        }
        files
    }

    /// A tree or listing entry at `col`: its full path is the names of the open entries left
    /// of it, then its own name.
    fn nest_entry(&mut self, col: usize, name: &str, line_no: u32, text: &str, root: bool) -> bool {
        let name = name.trim_matches(|c: char| matches!(c, '`' | '*' | '"' | '\''));
        while self.nest.last().is_some_and(|e| e.col >= col) {
            self.nest.pop();
        }
        if name == "." || name == "./" {
            self.nest.clear();
            self.nest.push(NestEntry { col, name: String::new(), label: false });
            return true;
        }
        let Some(tok) = paths::parse(name) else {
            return false;
        };
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
        let label = root && self.nest.is_empty() && paths::folder_like(&tok) && !paths::is_common_dir(&tok.path);
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
        let symbols = if tok.dir { Vec::new() } else { row_symbols(text, name) };
        let file = FileMention { raw: tok.path, tok: full_tok, readings, start: 0, end: 0, after: 0 };
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
        });
        true
    }

    /// A command line of a code block: the program it runs (`./scripts/run.sh`,
    /// `python tools/gen.py`) and the paths given to it (`bun test src/x.test.ts`,
    /// `make -C dir`, `-f docker-compose.yml`).
    fn command_program(&mut self, line: &str, line_no: u32) {
        let folders = self.structure_folders();
        let program = commands::program(line).and_then(program_token);
        let files: Vec<FileMention> = program
            .into_iter()
            .chain(command_arg_tokens(line).into_iter().map(|(tok, _)| tok))
            .map(|tok| FileMention {
                raw: tok.path.clone(),
                readings: paths::readings(&tok, &folders),
                tok,
                start: 0,
                end: 0,
                after: 0,
            })
            .collect();
        if files.is_empty() {
            return;
        }
        self.push(Sentence {
            line: line_no,
            text: clean_text(line.trim()),
            paragraph: self.paragraph,
            anchor: None,
            files,
            symbols: Vec::new(),
            configs: Vec::new(),
            line_texts: Vec::new(),
            behaviour: None,
        });
    }

    /// Paths in a line of a code block (`include!("src/x.rs")`, `import "./lib/util.js"`).
    fn code_paths(&mut self, line: &str, line_no: u32) {
        let masked = markdown::mask_urls(line);
        let folders = self.structure_folders();
        let files: Vec<FileMention> = TOKEN
            .find_iter(&masked)
            .filter_map(|m| {
                let tok = paths::classify(m.as_str(), Strength::Prose)
                    .or_else(|| code_literal(&masked, m.start(), m.end()))?;
                let readings = paths::readings(&tok, &folders);
                Some(FileMention {
                    raw: tok.path.clone(),
                    tok,
                    readings,
                    start: m.start(),
                    end: m.end(),
                    after: m.end(),
                })
            })
            .take(self.budget)
            .collect();
        drop(folders);
        self.push(Sentence {
            line: line_no,
            text: clean_text(line.trim()),
            paragraph: self.paragraph,
            anchor: None,
            files,
            symbols: Vec::new(),
            configs: Vec::new(),
            line_texts: Vec::new(),
            behaviour: None,
        });
    }
}

/// A word of a code line that plain reading did not take as a path, taken anyway when the
/// code writes it deliberately: a quoted string literal (`paths: ["Sources/**"]`,
/// `pushd 'tools/azsdk'`) reads as a code span does, and a folder glob (`- Tests/**`, quoted
/// or not) names its folder. A file pattern (`src/**/*.ts`) names no folder.
fn code_literal(line: &str, start: usize, end: usize) -> Option<PathToken> {
    let word = &line[start..end];
    let before = line[..start].chars().next_back();
    let quoted = matches!(before, Some('"' | '\'')) && line[end..].starts_with(before?);
    if quoted {
        paths::classify(word, Strength::Backtick).or_else(|| paths::pattern_folder(word))
    } else {
        paths::pattern_folder(word).filter(|_| word.contains('*'))
    }
}

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
