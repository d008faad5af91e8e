//! What one sentence mentions: paths, symbols, config keys and line contents, and how its
//! symbols and keys are tied to its files. Sentence-local: scopes that span lines (sections,
//! lists, trees) are the walker's (`scan`).

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::markdown::{self, CodeSpan, Link};
use crate::paths::{self, PathToken, Strength};
use crate::symbols::{self, ProseContext, Shape};
use crate::{behaviour, config, lines};

/// Longest sentence text kept for a claim, in chars.
const MAX_TEXT: usize = 240;

#[derive(Debug, Clone)]
pub(crate) struct FileMention {
    /// The path as written (normalised), for the claim text.
    pub raw: String,
    pub tok: PathToken,
    /// `readings[0]` becomes the code ref's path, the rest its `alt_paths`.
    pub readings: Vec<String>,
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// End of the mention including a line reference after it.
    pub(crate) after: usize,
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
    pub(crate) start: usize,
    pub(crate) end: usize,
}

#[derive(Debug, Clone)]
pub(crate) struct ConfigMention {
    pub key: String,
    pub value: Option<String>,
    pub file: Option<usize>,
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// Written without backticks (`max_connections = 100`).
    pub(crate) prose: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct LineTextMention {
    pub file: usize,
    pub text: String,
}

pub(crate) fn config_mentions(
    line: &Line<'_>,
    range: &Range<usize>,
    cue: bool,
    env_cue: bool,
    config_file: bool,
    cands: &mut [Cand<'_>],
    configs: &mut Vec<ConfigMention>,
) {
    let orig = line.orig;
    // `key` followed by `=`, "defaults to", ...; an env var name in an env sentence may get
    // its value from a phrase further on, so it waits for the next pass.
    let mut env_names = Vec::new();
    for (i, c) in cands.iter_mut().enumerate().filter(|(_, c)| !c.used) {
        let Some(key) = config::key(c.text) else {
            continue;
        };
        let dollar = c.text.trim_start().starts_with('$');
        // "When `x` is true, ...": a condition on the setting, not its value.
        let condition = config::conditional(orig.get(range.start..c.start).unwrap_or(""));
        let value = config::connector(gap(orig, c.end, range.end)).filter(|_| !condition).and_then(|(conn, len)| {
            let v = config::value_at(gap(orig, c.end + len, range.end))?;
            config::accept(conn, key, &v, cue).then_some(v.text)
        });
        if value.is_some() {
            configs.push(ConfigMention {
                key: key.to_string(),
                value,
                file: None,
                start: c.start,
                end: c.end,
                prose: false,
            });
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
        let Some(c) = k.checked_sub(1).and_then(|k| cands.get_mut(k)) else {
            continue;
        };
        let Some(key) = config::key(c.text).filter(|_| !c.used) else {
            continue;
        };
        let Some(v) = config::value_at(gap(orig, range.start + m.end(), range.end)) else {
            continue;
        };
        configs.push(ConfigMention {
            key: key.to_string(),
            value: Some(v.text),
            file: None,
            start: c.start,
            end: c.end,
            prose: false,
        });
        c.used = true;
    }
    for i in env_names {
        let c = &mut cands[i];
        if let (false, Some(key)) = (c.used, config::key(c.text)) {
            configs.push(ConfigMention {
                key: key.to_string(),
                value: None,
                file: None,
                start: c.start,
                end: c.end,
                prose: false,
            });
            c.used = true;
        }
    }
    // `max_connections = 100` without backticks.
    for caps in config::PROSE_ASSIGN.captures_iter(&line.open[range.clone()]) {
        let (Some(k), Some(all)) = (caps.get(1), caps.get(0)) else {
            continue;
        };
        if !config::config_like(k.as_str()) {
            continue;
        }
        let Some(v) = config::value_at(gap(orig, range.start + all.end(), range.end)) else {
            continue;
        };
        configs.push(ConfigMention {
            key: k.as_str().to_string(),
            value: Some(v.text),
            file: None,
            start: range.start + k.start(),
            end: range.start + k.end(),
            prose: true,
        });
    }
    // "settings (config/settings.yaml): timeout_ms: 500, log_level: info".
    for caps in config::PROSE_COLON.captures_iter(&line.open[range.clone()]) {
        let (Some(k), Some(all)) = (caps.get(1), caps.get(0)) else {
            continue;
        };
        let Some(v) = config::value_at(gap(orig, range.start + all.end(), range.end)) else {
            continue;
        };
        if !config::accept_prose_colon(k.as_str(), &v, cue, config_file) {
            continue;
        }
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

/// A code span not (yet) taken as a path.
pub(crate) struct Cand<'a> {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) text: &'a str,
    pub(crate) used: bool,
}

/// "line 45 of X contains `foo`", "X:45 reads `let y = 2`", "`let y = 2` is on line 45 of X".
pub(crate) fn line_contents(
    orig: &str,
    range: &Range<usize>,
    files: &[FileMention],
    cands: &mut [Cand<'_>],
) -> Vec<LineTextMention> {
    let mut out = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        if f.tok.dir || f.tok.line.is_none() {
            continue;
        }
        let k = cands.partition_point(|c| c.start < f.after);
        if let Some(c) = cands.get_mut(k) {
            if !c.used && !lines::a_line_number(c.text) && lines::is_line_text_gap(gap(orig, f.after, c.start)) {
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
        if !f.tok.dir
            && f.tok.line.is_some()
            && !lines::a_line_number(c.text)
            && lines::is_reverse_gap(gap(orig, c.end, f.start))
        {
            out.push(LineTextMention { file: k, text: c.text.to_string() });
            c.used = true;
        }
    }
    out
}

/// Symbols of a sentence: code spans shaped like code, and unmistakable bare names.
pub(crate) fn symbol_mentions(
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
            // `greet` alone is a word; "`greet` in `worker/x.py`", "`x.py` defines `Error`"
            // and "`read` (L25)" are definitions, whatever the word.
            let sym = symbols::from_code_span(c.text).or_else(|| {
                let line = lines::after_symbol(gap(orig, c.end, range.end)).is_some();
                let placed = file_follows(orig, files, c.end) || file_precedes(orig, files, c.start);
                (line || placed)
                    .then(|| symbols::from_placed_span(c.text, &last_word(gap(orig, range.start, c.start)), line))
                    .flatten()
            })?;
            // "packages `serde_json` and `tokio`": a package name, not a symbol
            if dependencies && !sym.shape.call && !sym.shape.declared && !sym.name.contains([':', '.']) {
                return None;
            }
            Some(SymbolMention {
                name: sym.name,
                shape: sym.shape,
                line: None,
                file: None,
                free: false,
                start: c.start,
                end: c.end,
            })
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
        // "tests call Healthcheck in services/admin/handlers.go": a capitalised name placed
        // in a file, not at the start of the sentence or of a clause after a label
        // ("**Mixins**: Located in `src/x/`").
        // "Code Style (from .cursor/rules)": a word with the file's name in brackets after
        // it says where the text came from, not where a name is defined.
        let capital = symbols::is_capital(m.as_str())
            && !opens_clause(&bare[..m.start()])
            && !bare[m.end()..].trim_start().starts_with('(')
            && file_follows(orig, files, range.start + m.end());
        if !symbols::maybe_code(m.as_str()) && !capital {
            continue;
        }
        let before = bare[..m.start()].chars().next_back();
        let after = bare[m.end()..].chars().next();
        // `Schema::V*::Interface`, `Handler*.go`: a pattern over names, not one (an emphasis
        // that closes, `*Cache::get*`, is followed by a space or punctuation instead).
        let mut rest = bare[m.end()..].chars();
        if matches!(rest.next(), Some('*' | '?'))
            && rest.next().is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '*'))
        {
            continue;
        }
        if before
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '/' | '.' | '-' | '@' | '$' | '#' | '\\' | '~'))
            || after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '/' | '-' | '(' | '@'))
        {
            continue;
        }
        let Some(sym) = symbols::parse(m.as_str()) else {
            continue;
        };
        if !sym.shape.is_code() {
            continue;
        }
        let end = range.start + m.end();
        let cx = ProseContext {
            keyword: keyword_near(&bare, m.start(), m.end()),
            file_in_sentence,
            line_after: lines::after_symbol(gap(orig, end, range.end)).is_some(),
        };
        if capital || symbols::accept_prose(&sym, cx) {
            out.push(SymbolMention {
                name: sym.name,
                shape: sym.shape,
                line: None,
                file: None,
                free: false,
                start: range.start + m.start(),
                end,
            });
        }
    }
    out.sort_by_key(|s| s.start);
    for s in out.iter_mut() {
        s.line = lines::after_symbol(gap(orig, s.end, range.end)).map(|(n, _)| n);
    }
    out
}

/// Whether a word right after `before` starts a sentence or a clause: nothing before it, or
/// a label's colon, a dash or a sentence's end, emphasis marks aside ("**Mixins**: Located in").
fn opens_clause(before: &str) -> bool {
    let t = before.trim_end().trim_end_matches(['*', '_']).trim_end();
    t.is_empty() || t.ends_with([':', '—', '–', '.', '!', '?', '|']) || t == "-" || t.ends_with(" -")
}

/// The next file after `end` is the one a name before it sits in ("`greet` in `x.py`",
/// "`read` (L25) in `x.rs`"). Config files hold keys, not definitions, so they do not count.
pub(crate) fn file_follows(orig: &str, files: &[FileMention], end: usize) -> bool {
    let next = files.partition_point(|f| f.start < end);
    files.get(next).is_some_and(|f| {
        let g = gap(orig, end, f.start);
        g.contains(|c: char| c.is_ascii_alphabetic()) && symbol_in_file(g) && !f.tok.has_config_ext()
    })
}

/// The gap between a name and the file after it says the name sits there, once a line
/// reference right after the name is skipped ("`Error` (L16) in `src/error.rs`").
fn symbol_in_file(gap: &str) -> bool {
    lines::symbol_then_file(gap)
        || lines::after_symbol(gap).is_some_and(|(_, len)| {
            gap.get(len..).is_some_and(|rest| !rest.trim().is_empty() && lines::symbol_then_file(rest))
        })
}

/// The file before `start` defines the name after it ("`x.py` defines `greet`").
pub(crate) fn file_precedes(orig: &str, files: &[FileMention], start: usize) -> bool {
    let prev = files.partition_point(|f| f.end <= start);
    prev.checked_sub(1).and_then(|i| files.get(i)).is_some_and(|f| {
        let g = gap(orig, f.after, start);
        g.contains(|c: char| c.is_ascii_alphabetic()) && lines::file_then_symbol(g) && !f.tok.has_config_ext()
    })
}

/// The last word of `text`, lowercased (looked for in its last few bytes only).
pub(crate) fn last_word(text: &str) -> String {
    let t = lines::tail(text, 48).trim_end_matches(|c: char| !c.is_alphanumeric());
    t[lines::after_last(t, |c| !c.is_alphanumeric())..].to_ascii_lowercase()
}

/// A definition keyword right before or after `start..end` ("the `X` struct", "class X").
pub(crate) fn keyword_near(text: &str, start: usize, end: usize) -> bool {
    let prev = text[..start].trim_end();
    let prev = &prev[lines::after_last(prev, |c| !c.is_ascii_alphabetic())..];
    let next = text[end..].trim_start();
    let next = &next[..next.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(next.len())];
    [prev, next].iter().any(|w| symbols::KEYWORDS.contains(&w.to_ascii_lowercase().as_str()))
}

/// Ties a symbol to a file of its sentence: a file right next to it ("`Foo` in `a.rs`",
/// "`a.rs` defines `Foo`"), else the nearest one, unless a relation verb stands between
/// them ("`a.rs` calls `Foo`"): then the symbol is left `free`, to be looked for anywhere.
pub(crate) fn bind(orig: &str, files: &[FileMention], plain: &[usize], folders: &[usize], s: &mut SymbolMention) {
    let next = files.partition_point(|f| f.start < s.end);
    let adjacent = files
        .get(next)
        .filter(|f| symbol_in_file(gap(orig, s.end, f.start)))
        .map(|_| next)
        .or_else(|| {
            let prev = files.partition_point(|f| f.end <= s.start).checked_sub(1)?;
            let f = files.get(prev).filter(|f| f.end <= s.start)?;
            (lines::file_then_symbol(gap(orig, f.after, s.start))).then_some(prev)
        })
        .or_else(|| {
            // a link around the symbol (`` [`Foo`](src/foo.rs) ``)
            let k = files.partition_point(|f| f.start <= s.start);
            k.checked_sub(1).filter(|&i| files[i].end >= s.end)
        });
    if let Some(fi) = adjacent {
        s.file = Some(fi);
        if s.line.is_none() {
            s.line = files[fi].tok.line;
        }
        return;
    }
    let Some(fi) =
        nearest(orig, files, plain, s.start, s.end).or_else(|| nearest(orig, files, folders, s.start, s.end))
    else {
        return;
    };
    let f = &files[fi];
    let between = if f.start >= s.end { gap(orig, s.end, f.start) } else { gap(orig, f.after, s.start) };
    if behaviour::relates(between) {
        s.free = true;
    } else if s.line.is_some() && crosses_clause(between) {
        // A line of its own (`ShardedCache` (L45)) is a line of the file named before it, not
        // of one listed past a comma or a clause ("..., decision records, `CLAUDE.md`"): left
        // untied here, it takes the file an earlier sentence of the paragraph named, else the
        // section's, else it is looked for anywhere at that line (`claims::build`).
    } else {
        s.file = Some(fi);
    }
}

/// The file among `candidates` closest to `start..end`; a tie goes to the file after
/// ("`Foo` in `a.rs`"), a file containing the range (a link around it) wins outright.
pub(crate) fn nearest(
    orig: &str,
    files: &[FileMention],
    candidates: &[usize],
    start: usize,
    end: usize,
) -> Option<usize> {
    let k = candidates.partition_point(|&i| files[i].start < start);
    let window = &candidates[k.saturating_sub(2)..(k + 2).min(candidates.len())];
    // Rank by (crosses a clause, distance): in "`a.go` defines the routes in `Reg`, and
    // `b.go` ..." `Reg` belongs to `a.go` although `b.go` is closer.
    let mut best: Option<((bool, usize), usize)> = None;
    for &i in window {
        let f = &files[i];
        let between = if f.end <= start { gap(orig, f.end, start) } else { gap(orig, end, f.start) };
        let key = (crosses_clause(between), between.len());
        let better = match best {
            None => true,
            Some((bk, bi)) => key < bk || (key == bk && f.start > files[bi].start),
        };
        if better {
            best = Some((key, i));
        }
    }
    best.map(|(_, i)| i)
}

pub(crate) fn crosses_clause(gap: &str) -> bool {
    gap.contains([',', ';']) || CLAUSE.is_match(gap)
}

static CLAUSE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(?:and|but|or|while|whereas|then)\b").expect("valid regex"));

/// The sentence with code spans, paths and symbols replaced by `X`, so verbs inside code
/// (`src/handles.rs`, `` `calls()` ``) are not read as prose.
pub(crate) fn placeholders(
    orig: &str,
    range: &Range<usize>,
    spans: &[CodeSpan],
    files: &[FileMention],
    syms: &[SymbolMention],
) -> String {
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
pub(crate) fn gap(orig: &str, a: usize, b: usize) -> &str {
    orig.get(a..b).unwrap_or("")
}

/// Sentence text for a claim: control characters blanked, capped at [`MAX_TEXT`] chars.
pub(crate) fn clean_text(text: &str) -> String {
    // The usual case, short and without control characters, needs no copy char by char.
    if text.len() <= MAX_TEXT && !text.chars().any(char::is_control) {
        return text.trim().to_owned();
    }
    let mut out: String = text.chars().take(MAX_TEXT).map(|c| if c.is_control() { ' ' } else { c }).collect();
    if text.chars().nth(MAX_TEXT).is_some() {
        out.push('…');
    }
    out.trim().to_string()
}

/// One line of running text, prepared for scanning.
pub(crate) struct Line<'a> {
    pub(crate) orig: &'a str,
    /// URLs and e-mail addresses blanked.
    pub(crate) masked: String,
    /// `masked` with code spans, link targets and path-like link texts blanked too: where
    /// bare tokens are looked for.
    pub(crate) open: String,
    pub(crate) spans: Vec<CodeSpan>,
    pub(crate) links: Vec<Link>,
}

impl<'a> Line<'a> {
    pub(crate) fn new(orig: &'a str) -> Self {
        let masked = markdown::mask_urls(orig).into_owned();
        let spans = markdown::code_spans(&masked);
        let links: Vec<Link> = markdown::links(&masked).into_iter().filter(|l| !in_spans(&spans, l.start)).collect();
        let mut open = masked.clone().into_bytes();
        for s in &spans {
            open[s.start..s.end].fill(b' ');
        }
        for m in markdown::underscore_emphasis(&masked) {
            open[m].fill(b' ');
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

    pub(crate) fn spans_in(&self, range: &Range<usize>) -> &[CodeSpan] {
        let a = self.spans.partition_point(|s| s.start < range.start);
        let b = self.spans.partition_point(|s| s.start < range.end);
        &self.spans[a..b]
    }

    pub(crate) fn links_in(&self, range: &Range<usize>) -> &[Link] {
        let a = self.links.partition_point(|l| l.start < range.start);
        let b = self.links.partition_point(|l| l.start < range.end);
        &self.links[a..b]
    }

    pub(crate) fn in_span(&self, pos: usize) -> bool {
        in_spans(&self.spans, pos)
    }
}

pub(crate) fn in_spans(spans: &[CodeSpan], pos: usize) -> bool {
    let k = spans.partition_point(|s| s.start <= pos);
    k > 0 && spans[k - 1].end > pos
}
