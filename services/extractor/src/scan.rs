//! The document walker: reads memory text line by line, follows its markdown structure
//! (sections, paragraphs, list nesting, fences, trees) and collects what each sentence
//! mentions: files, symbols, config keys, line contents.
//!
//! Relative paths are resolved here, because only the walker knows the folders in scope:
//! a folder next to a bare name in the same sentence, the folder of the enclosing list item,
//! the folder a heading or an intro line ("In `services/api/`:") named, the folder named most
//! recently in the section (bare names only), and the notes file's own folder.

use std::ops::Range;
use std::sync::LazyLock;

use memval_proto::ClaimType;
use regex::Regex;

use crate::markdown::{self, CodeSpan, Fence, Link};
use crate::paths::{self, Folder, PathToken, Strength};
use crate::symbols::{self, ProseContext, Shape};
use crate::{behaviour, commands, config, lines};

/// Mentions kept per memory, so hostile text cannot blow up memory or time.
const MAX_MENTIONS: usize = 4096;
/// Deepest tree or listing nesting followed.
const MAX_NEST: usize = 64;
/// Longest code span looked at.
const MAX_SPAN: usize = 512;
/// Longest sentence text kept for a claim, in chars.
const MAX_TEXT: usize = 240;

/// Candidate path tokens of running text.
static TOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"[^\s`()\[\]{}<>"',;|=]+"#).expect("valid regex"));

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Prose,
    Heading,
}

#[derive(Debug, Clone)]
pub(crate) struct FileMention {
    /// The path as written (normalised), for the claim text.
    pub raw: String,
    pub tok: PathToken,
    /// `readings[0]` becomes the code ref's path, the rest its `alt_paths`.
    pub readings: Vec<String>,
    start: usize,
    end: usize,
    /// End of the mention including a line reference after it.
    after: usize,
}

#[derive(Debug, Clone)]
pub(crate) struct SymbolMention {
    pub name: String,
    pub shape: Shape,
    pub line: Option<u32>,
    /// Index of the file of the same sentence the symbol is tied to.
    pub file: Option<usize>,
    /// Related to the sentence's files rather than inside one: not tied to any file.
    pub free: bool,
    start: usize,
    end: usize,
}

#[derive(Debug, Clone)]
pub(crate) struct ConfigMention {
    pub key: String,
    pub value: Option<String>,
    pub file: Option<usize>,
    start: usize,
    end: usize,
    /// Written without backticks (`max_connections = 100`).
    prose: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct LineTextMention {
    pub file: usize,
    pub text: String,
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
}

pub(crate) fn scan(content: &str, context_dir: Option<&str>) -> Doc {
    let mut w = Walker {
        context: context_dir.map(str::to_string),
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
    for (i, raw) in content.split('\n').enumerate() {
        if w.budget == 0 {
            break;
        }
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let line = raw.strip_suffix('\r').unwrap_or(raw);
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
    w.doc
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
    context: Option<String>,
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
    paths::parse(t).filter(|p| !p.unresolvable() && p.line.is_none()).map(|p| if p.dir { format!("{}/", p.path) } else { p.path })
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
        if markdown::is_tree_line(line) {
            self.tree_line(line, line_no);
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
        if content.trim().is_empty() || commands::is_prose_command(content) {
            return;
        }
        self.prose(content, line_no, Kind::Prose, item_col);
    }

    fn code_line(&mut self, line: &str, line_no: u32, fence: &Fence) {
        if markdown::is_tree_line(line) {
            self.tree_line(line, line_no);
            return;
        }
        self.pending_root = markdown::single_token(line)
            .and_then(root_candidate)
            .map(|name| PendingRoot { line: line_no, name, emitted: false });
        if fence.is_shell() || line.trim().is_empty() || commands::is_command(line) {
            return;
        }
        if fence.is_listing() {
            if let Some(token) = markdown::single_token(line) {
                let col = markdown::indent_width(line);
                let listed = !self.nest.is_empty()
                    || token == "."
                    || token == "./"
                    || paths::classify(token, Strength::Standalone).is_some();
                if listed && self.nest_entry(col, token, line_no, line) {
                    self.pending_root = None;
                    return;
                }
            }
        }
        self.code_paths(line, line_no);
    }

    fn tree_line(&mut self, line: &str, line_no: u32) {
        let Some((col, name)) = markdown::tree_entry(line) else { return };
        // The line above a tree's first entry is its root (`src`, `.`, `myproject/`).
        if let Some(root) = self.pending_root.take().filter(|r| self.nest.is_empty() && r.line + 1 == line_no) {
            if root.emitted {
                let label = !paths::is_common_dir(&root.name);
                self.nest.push(NestEntry { col: 0, name: root.name, label });
            } else {
                self.nest_entry(0, &root.name, root.line, &root.name);
            }
            if let Some(top) = self.nest.last_mut() {
                top.col = 0;
            }
        }
        self.nest_entry(col, name, line_no, line);
    }

    /// Folders a path in running text may be written against, most specific first.
    fn folders<'a>(&'a self, near: Option<&'a [String]>) -> Vec<Folder<'a>> {
        let mut v = Vec::with_capacity(5);
        if let Some(r) = near {
            v.push(Folder { readings: r, bare_only: true, fallback: false });
        }
        if let Some(r) = self.list_dir() {
            v.push(Folder { readings: r, bare_only: false, fallback: false });
        }
        if let Some(r) = &self.section_dir {
            v.push(Folder { readings: r, bare_only: false, fallback: false });
        }
        if let Some(c) = &self.context {
            v.push(Folder { readings: std::slice::from_ref(c), bare_only: false, fallback: false });
        }
        if let Some(r) = &self.recent_dir {
            v.push(Folder { readings: r, bare_only: true, fallback: true });
        }
        v
    }

    /// Folders a tree, listing or code block path may be written against.
    fn structure_folders(&self) -> Vec<Folder<'_>> {
        let mut v = Vec::with_capacity(2);
        if let Some(r) = &self.section_dir {
            v.push(Folder { readings: r, bare_only: false, fallback: false });
        }
        if let Some(c) = &self.context {
            v.push(Folder { readings: std::slice::from_ref(c), bare_only: false, fallback: false });
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
        let first = self.doc.sentences.len();
        for range in markdown::sentences(&line.masked, &line.spans) {
            if self.budget == 0 {
                break;
            }
            self.sentence(&line, range, line_no, kind, single);
        }
        self.scopes_after(content, first, kind, item_col, single);
    }

    /// What a prose line opens for the lines after it: a section folder or file (heading or
    /// intro line naming one path), a list scope (item starting with a path), a tree root.
    fn scopes_after(&mut self, content: &str, first: usize, kind: Kind, item_col: Option<usize>, single: bool) {
        self.nest.clear();
        if single {
            self.pending_root = root_candidate(content).map(|name| PendingRoot { line: self.line_no, name, emitted: false });
        }
        let new = &self.doc.sentences[first..];
        let count: usize = new.iter().map(|s| s.files.len()).sum();
        let Some(lead) = new.iter().flat_map(|s| &s.files).next().cloned() else { return };
        let intro = kind == Kind::Heading || content.trim_end().trim_end_matches(['*', '_']).ends_with(':');
        if let Some(col) = item_col {
            let before = content.get(..lead.start).unwrap_or("");
            let at_start = before.trim_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | '[')).is_empty();
            if at_start || (intro && count == 1) {
                let scope = self.scope_of(lead.clone());
                self.list.push(ListScope { col, scope });
            }
        } else if intro && count == 1 {
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

        // Code spans: a command, an assignment, a path, or a candidate symbol / key / line text.
        let mut raw: Vec<(PathToken, usize, usize)> = Vec::new();
        let mut cands: Vec<Cand<'_>> = Vec::new();
        let mut configs: Vec<ConfigMention> = Vec::new();
        for sp in spans {
            let inner = orig[sp.inner.clone()].trim();
            if inner.is_empty() || inner.len() > MAX_SPAN || commands::is_command(inner) {
                continue;
            }
            if let Some(tok) = paths::classify(line.masked[sp.inner.clone()].trim(), Strength::Backtick) {
                raw.push((tok, sp.start, sp.end));
                continue;
            }
            if let Some((key, value)) = config::assignment(inner, cue) {
                configs.push(ConfigMention { key, value: Some(value), file: None, start: sp.start, end: sp.end, prose: false });
                continue;
            }
            cands.push(Cand { start: sp.start, end: sp.end, text: inner, used: false });
        }
        for link in line.links_in(&range) {
            if let Some(tok) = paths::classify(&line.masked[link.target.clone()], Strength::Standalone) {
                raw.push((tok, link.start, link.end));
            }
        }
        let strength = if single { Strength::Standalone } else { Strength::Prose };
        for m in TOKEN.find_iter(&line.open[range.clone()]) {
            if let Some(tok) = paths::classify(m.as_str(), strength) {
                raw.push((tok, range.start + m.start(), range.start + m.end()));
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

        let mut files = self.resolve(orig, raw);
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
            config_mentions(line, &range, cue, env_cue, &mut cands, &mut configs);
        }

        let mut syms = Vec::new();
        if text_kind {
            let taken: Vec<(usize, usize)> = configs.iter().filter(|c| c.prose).map(|c| (c.start, c.end)).collect();
            syms = symbol_mentions(line, &range, &files, &cands, &taken, config::has_dependency_cue(text));
        }

        // Tie symbols and keys to the nearest file of the sentence.
        let plain: Vec<usize> = (0..files.len()).filter(|&i| !paths::folder_like(&files[i].tok)).collect();
        let folders: Vec<usize> = (0..files.len()).filter(|&i| paths::folder_like(&files[i].tok)).collect();
        let conf: Vec<usize> = plain.iter().copied().filter(|&i| files[i].tok.has_config_ext()).collect();
        for s in syms.iter_mut() {
            bind(orig, &files, &plain, &folders, s);
        }
        for c in configs.iter_mut() {
            c.file = nearest(&files, &conf, c.start, c.start).or_else(|| nearest(&files, &plain, c.start, c.start));
        }

        let behaviour = if kind == Kind::Prose && configs.is_empty() && line_texts.is_empty() {
            let mut distinct: Vec<&str> =
                files.iter().map(|f| f.readings[0].as_str()).chain(syms.iter().map(|s| s.name.as_str())).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let prose = placeholders(orig, &range, spans, &files, &syms);
            behaviour::classify(&prose, distinct.len())
        } else {
            None
        };

        if let Some(dir) = files.iter().filter(|f| paths::folder_like(&f.tok)).last() {
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

}

fn config_mentions(
        line: &Line<'_>,
        range: &Range<usize>,
        cue: bool,
        env_cue: bool,
        cands: &mut [Cand<'_>],
        configs: &mut Vec<ConfigMention>,
    ) {
        let orig = line.orig;
        // `key` followed by `=`, "defaults to", ...; an env var name in an env sentence may get
        // its value from a phrase further on, so it waits for the next pass.
        let mut env_names = Vec::new();
        for (i, c) in cands.iter_mut().enumerate().filter(|(_, c)| !c.used) {
            let Some(key) = config::key(c.text) else { continue };
            let dollar = c.text.trim_start().starts_with('$');
            let value = config::connector(gap(orig, c.end, range.end)).and_then(|(conn, len)| {
                let v = config::value_at(gap(orig, c.end + len, range.end))?;
                config::accept(conn, key, &v, cue).then_some(v.text)
            });
            if value.is_some() {
                configs.push(ConfigMention { key: key.to_string(), value, file: None, start: c.start, end: c.end, prose: false });
                c.used = true;
            } else if (env_cue || dollar) && config::is_env_name(key) {
                env_names.push(i);
            }
        }
        // "`retries` in `config.yaml` defaults to 3": the key is the last code span before.
        for m in config::PHRASE.find_iter(&line.masked[range.clone()]) {
            let at = range.start + m.start();
            if line.in_span(at) {
                continue;
            }
            let k = cands.partition_point(|c| c.end <= at);
            let Some(c) = k.checked_sub(1).and_then(|k| cands.get_mut(k)) else { continue };
            let Some(key) = config::key(c.text).filter(|_| !c.used) else { continue };
            let Some(v) = config::value_at(gap(orig, range.start + m.end(), range.end)) else { continue };
            configs.push(ConfigMention { key: key.to_string(), value: Some(v.text), file: None, start: c.start, end: c.end, prose: false });
            c.used = true;
        }
        for i in env_names {
            let c = &mut cands[i];
            if let (false, Some(key)) = (c.used, config::key(c.text)) {
                configs.push(ConfigMention { key: key.to_string(), value: None, file: None, start: c.start, end: c.end, prose: false });
                c.used = true;
            }
        }
        // `max_connections = 100` without backticks.
        for caps in config::PROSE_ASSIGN.captures_iter(&line.open[range.clone()]) {
            let (Some(k), Some(all)) = (caps.get(1), caps.get(0)) else { continue };
            if !config::config_like(k.as_str()) {
                continue;
            }
            let Some(v) = config::value_at(gap(orig, range.start + all.end(), range.end)) else { continue };
            configs.push(ConfigMention {
                key: k.as_str().to_string(),
                value: Some(v.text),
                file: None,
                start: range.start + k.start(),
                end: range.start + k.end(),
                prose: true,
            });
        }
        configs.sort_by_key(|c| c.start);
}

impl Walker {

    /// A tree or listing entry at `col`: its full path is the names of the open entries left
    /// of it, then its own name.
    fn nest_entry(&mut self, col: usize, name: &str, line_no: u32, text: &str) -> bool {
        let name = name.trim_matches(|c: char| matches!(c, '`' | '*' | '"' | '\''));
        while self.nest.last().is_some_and(|e| e.col >= col) {
            self.nest.pop();
        }
        if name == "." || name == "./" {
            self.nest.clear();
            self.nest.push(NestEntry { col, name: String::new(), label: false });
            return true;
        }
        let Some(tok) = paths::parse(name) else { return false };
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
        let label = self.nest.is_empty() && paths::folder_like(&tok) && !paths::is_common_dir(&tok.path);
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
        let file = FileMention { raw: tok.path, tok: full_tok, readings, start: 0, end: 0, after: 0 };
        self.push(Sentence {
            line: line_no,
            text: clean_text(text.trim()),
            paragraph: self.paragraph,
            anchor: None,
            files: vec![file],
            symbols: Vec::new(),
            configs: Vec::new(),
            line_texts: Vec::new(),
            behaviour: None,
        });
        true
    }

    /// Paths in a line of a code block (`include!("src/x.rs")`, `import "./lib/util.js"`).
    fn code_paths(&mut self, line: &str, line_no: u32) {
        let masked = markdown::mask_urls(line);
        let folders = self.structure_folders();
        let files: Vec<FileMention> = TOKEN
            .find_iter(&masked)
            .filter_map(|m| {
                let tok = paths::classify(m.as_str(), Strength::Prose)?;
                let readings = paths::readings(&tok, &folders);
                Some(FileMention { raw: tok.path.clone(), tok, readings, start: m.start(), end: m.end(), after: m.end() })
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

/// A code span not (yet) taken as a path.
struct Cand<'a> {
    start: usize,
    end: usize,
    text: &'a str,
    used: bool,
}

/// "line 45 of X contains `foo`", "X:45 reads `let y = 2`", "`let y = 2` is on line 45 of X".
fn line_contents(orig: &str, range: &Range<usize>, files: &[FileMention], cands: &mut [Cand<'_>]) -> Vec<LineTextMention> {
    let mut out = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        if f.tok.dir || f.tok.line.is_none() {
            continue;
        }
        let k = cands.partition_point(|c| c.start < f.after);
        if let Some(c) = cands.get_mut(k) {
            if !c.used && lines::is_line_text_gap(gap(orig, f.after, c.start)) {
                out.push(LineTextMention { file: fi, text: c.text.to_string() });
                c.used = true;
                continue;
            }
        }
        if let Some(text) = lines::quoted_after(gap(orig, f.after, range.end)) {
            out.push(LineTextMention { file: fi, text });
        }
    }
    for c in cands.iter_mut().filter(|c| !c.used) {
        let k = files.partition_point(|f| f.start < c.end);
        let Some(f) = files.get(k) else { continue };
        if !f.tok.dir && f.tok.line.is_some() && lines::is_reverse_gap(gap(orig, c.end, f.start)) {
            out.push(LineTextMention { file: k, text: c.text.to_string() });
            c.used = true;
        }
    }
    out
}

/// Symbols of a sentence: code spans shaped like code, and unmistakable bare names.
fn symbol_mentions(
    line: &Line<'_>,
    range: &Range<usize>,
    files: &[FileMention],
    cands: &[Cand<'_>],
    taken: &[(usize, usize)],
    dependencies: bool,
) -> Vec<SymbolMention> {
    let orig = line.orig;
    let mut out: Vec<SymbolMention> = cands
        .iter()
        .filter(|c| !c.used)
        .filter_map(|c| {
            let sym = symbols::from_code_span(c.text)?;
            // "packages `serde_json` and `tokio`": a package name, not a symbol
            if dependencies && !sym.shape.call && !sym.shape.declared && !sym.name.contains([':', '.']) {
                return None;
            }
            Some(SymbolMention { name: sym.name, shape: sym.shape, line: None, file: None, free: false, start: c.start, end: c.end })
        })
        .collect();

    // Bare names: outside code spans, links and paths.
    let mut bare = line.open.as_bytes()[range.clone()].to_vec();
    for (start, end) in files.iter().map(|f| (f.start, f.end)).chain(taken.iter().copied()) {
        let (s, e) = (start.max(range.start) - range.start, end.min(range.end).saturating_sub(range.start));
        if s < e {
            bare[s..e].fill(b' ');
        }
    }
    let bare = String::from_utf8(bare).unwrap_or_default();
    let file_in_sentence = files.iter().any(|f| !paths::folder_like(&f.tok));
    for m in symbols::PROSE_SYMBOL.find_iter(&bare) {
        if !symbols::maybe_code(m.as_str()) {
            continue;
        }
        let before = bare[..m.start()].chars().next_back();
        let after = bare[m.end()..].chars().next();
        if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '/' | '.' | '-' | '@' | '$' | '#' | '\\' | '~'))
            || after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '/' | '-' | '(' | '@'))
        {
            continue;
        }
        let Some(sym) = symbols::parse(m.as_str()) else { continue };
        if !sym.shape.is_code() {
            continue;
        }
        let end = range.start + m.end();
        let cx = ProseContext {
            keyword: keyword_near(&bare, m.start(), m.end()),
            file_in_sentence,
            line_after: lines::after_symbol(gap(orig, end, range.end)).is_some(),
        };
        if symbols::accept_prose(&sym, cx) {
            out.push(SymbolMention { name: sym.name, shape: sym.shape, line: None, file: None, free: false, start: range.start + m.start(), end });
        }
    }
    out.sort_by_key(|s| s.start);
    for s in out.iter_mut() {
        s.line = lines::after_symbol(gap(orig, s.end, range.end)).map(|(n, _)| n);
    }
    out
}

/// A definition keyword right before or after `start..end` ("the `X` struct", "class X").
fn keyword_near(text: &str, start: usize, end: usize) -> bool {
    let prev = text[..start].trim_end();
    let prev = &prev[prev.rfind(|c: char| !c.is_ascii_alphabetic()).map_or(0, |i| i + 1)..];
    let next = text[end..].trim_start();
    let next = &next[..next.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(next.len())];
    [prev, next].iter().any(|w| symbols::KEYWORDS.contains(&w.to_ascii_lowercase().as_str()))
}

/// Ties a symbol to a file of its sentence: a file right next to it ("`Foo` in `a.rs`",
/// "`a.rs` defines `Foo`"), else the nearest one, unless a relation verb stands between
/// them ("`a.rs` calls `Foo`"): then the symbol is left `free`, to be looked for anywhere.
fn bind(orig: &str, files: &[FileMention], plain: &[usize], folders: &[usize], s: &mut SymbolMention) {
    let next = files.partition_point(|f| f.start < s.end);
    let adjacent = files
        .get(next)
        .filter(|f| lines::symbol_then_file(gap(orig, s.end, f.start)))
        .map(|_| next)
        .or_else(|| {
            let prev = files.partition_point(|f| f.end <= s.start).checked_sub(1)?;
            let f = files.get(prev).filter(|f| f.end <= s.start)?;
            (lines::file_then_symbol(gap(orig, f.after, s.start))).then_some(prev)
        })
        .or_else(|| files.iter().position(|f| f.start <= s.start && f.end >= s.end));
    if let Some(fi) = adjacent {
        s.file = Some(fi);
        if s.line.is_none() {
            s.line = files[fi].tok.line;
        }
        return;
    }
    let Some(fi) = nearest(files, plain, s.start, s.end).or_else(|| nearest(files, folders, s.start, s.end)) else {
        return;
    };
    let f = &files[fi];
    let between = if f.start >= s.end { gap(orig, s.end, f.start) } else { gap(orig, f.after, s.start) };
    if behaviour::relates(between) {
        s.free = true;
    } else {
        s.file = Some(fi);
    }
}

/// The file among `candidates` closest to `start..end`; a tie goes to the file after
/// ("`Foo` in `a.rs`"), a file containing the range (a link around it) wins outright.
fn nearest(files: &[FileMention], candidates: &[usize], start: usize, end: usize) -> Option<usize> {
    let k = candidates.partition_point(|&i| files[i].start < start);
    let window = &candidates[k.saturating_sub(2)..(k + 2).min(candidates.len())];
    let mut best: Option<(usize, usize)> = None;
    for &i in window {
        let f = &files[i];
        let d = if f.end <= start {
            start - f.end
        } else if f.start >= end {
            f.start - end
        } else {
            0
        };
        let better = match best {
            None => true,
            Some((bd, bi)) => d < bd || (d == bd && f.start > files[bi].start),
        };
        if better {
            best = Some((d, i));
        }
    }
    best.map(|(_, i)| i)
}

/// The sentence with code spans, paths and symbols replaced by `X`, so verbs inside code
/// (`src/handles.rs`, `` `calls()` ``) are not read as prose.
fn placeholders(orig: &str, range: &Range<usize>, spans: &[CodeSpan], files: &[FileMention], syms: &[SymbolMention]) -> String {
    let mut cut: Vec<(usize, usize)> = spans
        .iter()
        .map(|s| (s.start, s.end))
        .chain(files.iter().map(|f| (f.start, f.end)))
        .chain(syms.iter().map(|s| (s.start, s.end)))
        .map(|(s, e)| (s.max(range.start), e.min(range.end)))
        .filter(|(s, e)| s < e)
        .collect();
    cut.sort_unstable();
    let mut out = String::with_capacity(range.len());
    let mut pos = range.start;
    for (s, e) in cut {
        if e <= pos {
            continue;
        }
        if s > pos {
            out.push_str(&orig[pos..s]);
        }
        out.push('X');
        pos = e;
    }
    if pos < range.end {
        out.push_str(&orig[pos..range.end]);
    }
    out
}

/// `orig[a..b]`, or empty when the range is backwards.
fn gap(orig: &str, a: usize, b: usize) -> &str {
    orig.get(a..b).unwrap_or("")
}

/// Sentence text for a claim: control characters blanked, capped at [`MAX_TEXT`] chars.
fn clean_text(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(MAX_TEXT)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().nth(MAX_TEXT).is_some() {
        out.push('…');
    }
    out.trim().to_string()
}

/// One line of running text, prepared for scanning.
struct Line<'a> {
    orig: &'a str,
    /// URLs and e-mail addresses blanked.
    masked: String,
    /// `masked` with code spans, link targets and path-like link texts blanked too: where
    /// bare tokens are looked for.
    open: String,
    spans: Vec<CodeSpan>,
    links: Vec<Link>,
}

impl<'a> Line<'a> {
    fn new(orig: &'a str) -> Self {
        let masked = markdown::mask_urls(orig).into_owned();
        let spans = markdown::code_spans(&masked);
        let links: Vec<Link> = markdown::links(&masked).into_iter().filter(|l| !in_spans(&spans, l.start)).collect();
        let mut open = masked.clone().into_bytes();
        for s in &spans {
            open[s.start..s.end].fill(b' ');
        }
        for l in &links {
            open[l.text.end..l.end].fill(b' ');
            if paths::classify(&masked[l.text.clone()], Strength::Prose).is_some() {
                open[l.text.clone()].fill(b' ');
            }
        }
        // Blanked ranges start and end on char boundaries, so this cannot fail.
        let open = String::from_utf8(open).unwrap_or_else(|_| masked.clone());
        Line { orig, masked, open, spans, links }
    }

    fn spans_in(&self, range: &Range<usize>) -> &[CodeSpan] {
        let a = self.spans.partition_point(|s| s.start < range.start);
        let b = self.spans.partition_point(|s| s.start < range.end);
        &self.spans[a..b]
    }

    fn links_in(&self, range: &Range<usize>) -> &[Link] {
        let a = self.links.partition_point(|l| l.start < range.start);
        let b = self.links.partition_point(|l| l.start < range.end);
        &self.links[a..b]
    }

    fn in_span(&self, pos: usize) -> bool {
        in_spans(&self.spans, pos)
    }
}

fn in_spans(spans: &[CodeSpan], pos: usize) -> bool {
    let k = spans.partition_point(|s| s.start <= pos);
    k > 0 && spans[k - 1].end > pos
}
