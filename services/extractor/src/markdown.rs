//! Line-level markdown: fences, headings, list items, code spans, links, sentences and tree
//! diagram lines. Everything works on byte offsets into one line, in linear time, and never
//! fails: malformed markdown (unbalanced backticks, unclosed fences) degrades to plain text.
//!
//! Two shapes are told apart here for the walker: a tree row whose entry is a phrase
//! (`+-- Define a custom tool -> tools/REFERENCE.md`: a word without extension or slash, then one
//! space and a word; [`tree_entry_is_phrase`]) is no entry, and a row of a box drawing
//! (`│ emit_cdc_insns() │`, bordered on both ends) is no tree row ([`is_tree_line`]). The
//! comment a code line ends with (`uv sync  # after editing pyproject.toml`; [`code_comment`])
//! is found here; the walker reads it for paths like prose.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// An open fenced code block.
#[derive(Debug, Clone)]
pub(crate) struct Fence {
    ch: u8,
    len: usize,
    lang: String,
    /// HTML the page shows as it is (`html`, Documenter's `@raw html`, pandoc's `{=html}`).
    html: bool,
}

#[rustfmt::skip]
const SHELL_LANGS: &[&str] = &[
    "sh", "bash", "zsh", "shell", "console", "shellsession", "fish", "powershell", "ps", "ps1",
    "pwsh", "cmd", "bat", "batch", "terminal",
];

/// Fences whose single-token lines are read as a file listing.
#[rustfmt::skip]
const LISTING_LANGS: &[&str] = &[
    "", "text", "txt", "plain", "plaintext", "tree", "none", "output", "ascii",
];

pub(crate) fn fence_open(line: &str) -> Option<Fence> {
    let t = line.trim_start();
    let ch = *t.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = t.bytes().take_while(|&b| b == ch).count();
    if len < 3 {
        return None;
    }
    let info = t[len..].trim();
    if ch == b'`' && info.contains('`') {
        return None;
    }
    let lang = info
        .trim_start_matches(['{', '.'])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+'))
        .take(32)
        .collect::<String>()
        .to_ascii_lowercase();
    let html = info.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w.eq_ignore_ascii_case("html"));
    Some(Fence { ch, len, lang, html })
}

impl Fence {
    pub(crate) fn closes(&self, line: &str) -> bool {
        let t = line.trim();
        t.len() >= self.len && t.bytes().all(|b| b == self.ch)
    }

    pub(crate) fn is_shell(&self) -> bool {
        SHELL_LANGS.contains(&self.lang.as_str())
    }

    /// Whether the block is HTML: what it links to is read from the page it is part of.
    pub(crate) fn is_html(&self) -> bool {
        self.html
    }

    /// A Dockerfile (```` ```dockerfile ````, `containerfile`, `docker`).
    pub(crate) fn is_dockerfile(&self) -> bool {
        matches!(self.lang.as_str(), "dockerfile" | "containerfile" | "docker")
    }

    /// A Mermaid diagram (```` ```mermaid ````).
    pub(crate) fn is_diagram(&self) -> bool {
        self.lang == "mermaid"
    }

    pub(crate) fn is_listing(&self) -> bool {
        LISTING_LANGS.contains(&self.lang.as_str())
    }
}

/// An ATX heading's (`## services/api`) level (the number of `#`s) and text, without the closing `#`s.
pub(crate) fn heading_level(line: &str) -> Option<(usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let t = &line[indent..];
    let hashes = t.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let rest = &t[hashes..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let rest = rest.trim();
    let stripped = rest.trim_end_matches('#');
    if stripped.len() < rest.len() && (stripped.is_empty() || stripped.ends_with([' ', '\t'])) {
        Some((hashes, stripped.trim_end()))
    } else {
        Some((hashes, rest))
    }
}

pub(crate) fn strip_blockquote(line: &str) -> &str {
    let mut t = line;
    loop {
        match t.trim_start().strip_prefix('>') {
            Some(rest) => t = rest.strip_prefix(' ').unwrap_or(rest),
            None => return t,
        }
    }
}

/// Columns of leading whitespace, a tab counting as four.
pub(crate) fn indent_width(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

pub(crate) struct ListItem<'a> {
    /// Column of the bullet.
    pub marker_col: usize,
    /// Column where the item's text starts; nested items sit at or beyond it.
    pub content_col: usize,
    pub content: &'a str,
}

static LIST_ITEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)(?:\[[ xX]\][ \t]+)?").expect("valid regex")
});

pub(crate) fn list_item(line: &str) -> Option<ListItem<'_>> {
    let caps = LIST_ITEM.captures(line)?;
    let whole = caps.get(0)?;
    let ws = caps.get(1)?.as_str();
    let marker_col = indent_width(ws);
    Some(ListItem { marker_col, content_col: marker_col + (whole.end() - ws.len()), content: &line[whole.end()..] })
}

/// A backtick code span: `start..end` includes the backticks, `inner` excludes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CodeSpan {
    pub start: usize,
    pub end: usize,
    pub inner: Range<usize>,
}

/// Code spans of one line: a run of n backticks opens a span closed by the next run of exactly
/// n backticks; an unmatched run is literal text. Linear: each run looks up its partner once.
pub(crate) fn code_spans(line: &str) -> Vec<CodeSpan> {
    let b = line.as_bytes();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'`' {
            let start = i;
            while i < b.len() && b[i] == b'`' {
                i += 1;
            }
            runs.push((start, i - start));
        } else {
            i += 1;
        }
    }
    let mut partner = vec![None; runs.len()];
    let mut next_of_len: HashMap<usize, usize> = HashMap::new();
    for k in (0..runs.len()).rev() {
        partner[k] = next_of_len.insert(runs[k].1, k);
    }
    let mut spans = Vec::new();
    let mut k = 0;
    while k < runs.len() {
        match partner[k] {
            Some(j) => {
                let (start, n) = runs[k];
                let (close, m) = runs[j];
                spans.push(CodeSpan { start, end: close + m, inner: start + n..close });
                k = j + 1;
            }
            None => k += 1,
        }
    }
    spans
}

static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b(?:[a-z][a-z0-9+.-]{1,15}://|www\.)[^\s`<>"']*|\bgit@[^\s`]+|\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"#,
    )
    .expect("valid regex")
});

/// URLs, `git@` remotes and e-mail addresses blanked with spaces (same byte length), so no
/// path or symbol is ever taken from inside one.
pub(crate) fn mask_urls(line: &str) -> Cow<'_, str> {
    // Every match has "://", "www." or "@": most lines have none, and skip the regex.
    let www = line.as_bytes().windows(4).any(|w| w.eq_ignore_ascii_case(b"www."));
    if !www && !line.contains("://") && !line.contains('@') {
        return Cow::Borrowed(line);
    }
    URL.replace_all(line, |c: &regex::Captures<'_>| " ".repeat(c[0].len()))
}

static UNDERSCORE_EMPHASIS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\s(\[*])(__)[^\s_`][^_`]*\s[^_`]*[^\s_`](__)(?:$|[\s.,;:!?)\]*])").expect("valid regex")
});

/// The `__` marks of emphasis written with underscores around words (`__Setup maven__`), so
/// they are not read as part of a name (`maven__`). One word between them (`__init__`) is a
/// name and is left alone.
pub(crate) fn underscore_emphasis(line: &str) -> Vec<Range<usize>> {
    if !line.contains("__") {
        return Vec::new();
    }
    let mut marks = Vec::new();
    for c in UNDERSCORE_EMPHASIS.captures_iter(line) {
        marks.extend([c.get(1), c.get(2)].into_iter().flatten().map(|m| m.range()));
    }
    marks
}

/// A markdown link `[text](target)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Link {
    pub start: usize,
    pub end: usize,
    pub text: Range<usize>,
    pub target: Range<usize>,
}

static LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\[([^\[\]]*)\]\(\s*<?([^()\s<>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)"#).expect("valid regex")
});

/// Links of a line whose target survived URL masking (a masked target is all spaces and
/// does not match).
pub(crate) fn links(masked: &str) -> Vec<Link> {
    if !masked.contains("](") {
        return Vec::new();
    }
    LINK.captures_iter(masked)
        .filter_map(|c| {
            let whole = c.get(0)?;
            Some(Link { start: whole.start(), end: whole.end(), text: c.get(1)?.range(), target: c.get(2)?.range() })
        })
        .collect()
}

#[rustfmt::skip]
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "esp", "fig", "no", "al", "mr", "mrs", "dr",
];

/// Sentence ranges of a line, trimmed: a split after `.`, `!`, `?` or `;` followed by
/// whitespace, outside code spans, and not after an abbreviation.
pub(crate) fn sentences(text: &str, spans: &[CodeSpan]) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let mut next_span = 0;
    while i < b.len() {
        while next_span < spans.len() && spans[next_span].end <= i {
            next_span += 1;
        }
        if let Some(span) = spans.get(next_span) {
            if i >= span.start {
                i = span.end;
                continue;
            }
        }
        let c = b[i];
        let ends = matches!(c, b'.' | b'!' | b'?' | b';')
            && b.get(i + 1).is_none_or(|n| n.is_ascii_whitespace())
            && !(c == b'.' && abbreviation_before(text, i));
        if ends {
            push_trimmed(text, start..i + 1, &mut out);
            start = i + 1;
        }
        i += 1;
    }
    push_trimmed(text, start..b.len(), &mut out);
    out
}

fn abbreviation_before(text: &str, dot: usize) -> bool {
    let b = text.as_bytes();
    let mut s = dot;
    while s > 0 && dot - s < 12 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'.') {
        s -= 1;
    }
    let word = text[s..dot].to_ascii_lowercase();
    ABBREVIATIONS.contains(&word.as_str())
}

fn push_trimmed(text: &str, r: Range<usize>, out: &mut Vec<Range<usize>>) {
    let s = &text[r.clone()];
    let lead = s.len() - s.trim_start().len();
    let trail = s.len() - s.trim_end().len();
    if lead + trail < s.len() {
        out.push(r.start + lead..r.end - trail);
    }
}

const TREE_GLYPHS: &[char] = &['├', '└', '│', '┣', '┗', '┃', '┠', '┖', '┝', '┕', '╰', '╭'];

static ASCII_TREE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[\s|])(?:\||`|\+|\\)--+\s+\S").expect("valid regex"));

/// A line of a `tree` diagram (`├── lru.go`, `|-- lru.go`, `│   └── lru.go`). A row of a box
/// drawing (`│  │ emit_cdc_insns()   │  │`: it starts and ends with a box border) is not one;
/// a markdown table row (`| `├─server/` | ... |`) still is.
pub(crate) fn is_tree_line(line: &str) -> bool {
    let t = line.trim();
    let border = ['│', '┃'];
    let boxed = t.chars().count() > 1 && t.starts_with(border) && t.ends_with(border);
    !boxed && (line.contains(TREE_GLYPHS) || ASCII_TREE.is_match(line))
}

/// The entry of a tree line: the column its name starts at, and the name. `None` for a bare
/// `│` continuation line.
pub(crate) fn tree_entry(line: &str) -> Option<(usize, &str)> {
    let mut col = 0;
    let mut start = line.len();
    for (i, c) in line.char_indices() {
        let skip = c.is_whitespace()
            || TREE_GLYPHS.contains(&c)
            || matches!(c, '─' | '━' | '┬' | '┼' | '┴' | '|' | '`' | '+' | '\\' | '-');
        if !skip {
            start = i;
            break;
        }
        col += 1;
    }
    let rest = &line[start..];
    let name = rest.split(char::is_whitespace).next().unwrap_or("");
    (!name.is_empty()).then_some((col, name))
}

/// Whether the tree entry `name` (from [`tree_entry`] of `line`) begins a phrase rather than
/// naming a file: a word with no extension or slash, then one space and a word
/// (`+-- I want a simple agent`, `+-- Define a custom tool`). A name then a comment, two
/// spaces or a bracket (`src/  # code`, `cmd  binaries`, `agent/ (the Agent class)`) is a name.
pub(crate) fn tree_entry_is_phrase(line: &str, name: &str) -> bool {
    if name.contains(['.', '/']) {
        return false;
    }
    let Some(at) = line.find(name) else { return false };
    let after = &line[at + name.len()..];
    let mut chars = after.chars();
    chars.next() == Some(' ') && chars.next().is_some_and(char::is_alphabetic)
}

/// The one token of a listing line (`src/`, `  lru.go  # the cache`, `pages/ (the pages)`), or
/// `None` when the line holds more than a name and a trailing comment.
pub(crate) fn single_token(line: &str) -> Option<&str> {
    let t = line.trim();
    let t = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")).unwrap_or(t).trim_start();
    let mut end = t.len();
    for marker in [" #", "\t#", " //", " <-", " ←", " —", " --"] {
        if let Some(i) = t.find(marker) {
            end = end.min(i);
        }
    }
    // `pages/ (all .adoc content files)`: a note in brackets closing the line is a comment too
    if t.ends_with(')') {
        if let Some(i) = t.find(" (") {
            end = end.min(i);
        }
    }
    let token = t[..end].trim();
    (!token.is_empty() && !token.contains(char::is_whitespace)).then_some(token)
}

/// The comment a code line ends with (`uv sync  # after editing pyproject.toml`,
/// `frontend/  # see frontend/AGENTS.md`, `// see src/x.ts`), without its marker: a `#` or
/// `//` that starts a word and is followed by a space. `#[derive]`, `#!`, `a#b` and
/// `https://` are not comments. The scan is naive about quotes: a `# ` inside a string counts.
pub(crate) fn code_comment(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    for (i, _) in line.match_indices(['#', '/']) {
        let word_start = i == 0 || bytes[i - 1].is_ascii_whitespace();
        if !word_start {
            continue;
        }
        let marker = if line[i..].starts_with("//") {
            2
        } else if bytes[i] == b'#' {
            1
        } else {
            continue;
        };
        let after = &line[i + marker..];
        if after.starts_with(' ') || after.starts_with('\t') {
            let text = after.trim();
            return (!text.is_empty()).then_some(text);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_line_comment_is_found_and_other_hashes_are_not() {
        let cases: &[(&str, Option<&str>)] = &[
            (
                "# Update dependencies (after editing pyproject.toml)",
                Some("Update dependencies (after editing pyproject.toml)"),
            ),
            (
                "frontend/         # React frontend - see frontend/AGENTS.md",
                Some("React frontend - see frontend/AGENTS.md"),
            ),
            ("uv sync  // then src/x.ts", Some("then src/x.ts")),
            ("#[derive(Debug)]", None),
            ("#!/usr/bin/env bash", None),
            ("curl https://example.com/a#b", None),
            ("let x = a#b;", None),
            ("# ", None),
            ("make test", None),
        ];
        for (line, want) in cases {
            assert_eq!(code_comment(line), *want, "{line}");
        }
    }

    #[test]
    fn code_spans_pair_runs_of_equal_length() {
        let inner = |line: &str| -> Vec<String> {
            code_spans(line).iter().map(|s| line[s.inner.clone()].to_string()).collect()
        };
        assert_eq!(inner("a `b` c `d`"), ["b", "d"]);
        assert_eq!(inner("``a ` b`` c"), ["a ` b"]);
        assert_eq!(inner("unbalanced ` here `x`"), [" here "]);
        assert_eq!(inner("only ` one"), Vec::<String>::new());
        assert_eq!(inner("```"), Vec::<String>::new());
    }

    #[test]
    fn sentences_split_outside_code_and_abbreviations() {
        let text = "Cache in `a.b. c`. It locks, e.g. per shard; done!";
        let got: Vec<&str> = sentences(text, &code_spans(text)).into_iter().map(|r| &text[r]).collect();
        assert_eq!(got, ["Cache in `a.b. c`.", "It locks, e.g. per shard;", "done!"]);
    }

    #[test]
    fn emphasis_with_underscores_is_found_and_dunder_names_are_not() {
        let line = "3. __Setup maven__ - call `__init__` or __init__ here; __bold__ too";
        let marks: Vec<&str> = underscore_emphasis(line).into_iter().map(|r| &line[r]).collect();
        assert_eq!(marks, vec!["__", "__"]);
        assert_eq!(underscore_emphasis(line)[1], 16..18);
        assert!(underscore_emphasis("the __init__ and __main__ modules").is_empty());
    }

    #[test]
    fn urls_and_emails_are_masked_in_place() {
        let line = "see https://x.io/a.rs and bob@ex.com or git@github.com:o/r.git then src/a.rs";
        let masked = mask_urls(line);
        assert_eq!(masked.len(), line.len());
        assert!(!masked.contains("a.rs and"));
        assert!(!masked.contains("ex.com"));
        assert!(!masked.contains("o/r.git"));
        assert!(masked.ends_with("then src/a.rs"));
    }

    #[test]
    fn headings_lists_and_fences() {
        assert_eq!(heading_level("## services/api ##"), Some((2, "services/api")));
        assert_eq!(heading_level("#hashtag"), None);
        assert_eq!(heading_level("    # code"), None);
        let item = list_item("  - [x] `src/` holds code").unwrap();
        assert_eq!((item.marker_col, item.content_col, item.content), (2, 8, "`src/` holds code"));
        assert!(list_item("---").is_none());
        assert!(list_item("**bold**").is_none());
        let f = fence_open("```bash").unwrap();
        assert!(f.is_shell() && !f.is_listing());
        assert!(f.closes("```") && !f.closes("``") && !f.closes("~~~"));
        assert!(fence_open("``` a`b").is_none());
        assert!(fence_open("```").unwrap().is_listing());
    }

    #[test]
    fn tree_entries_have_a_column_and_a_name() {
        assert_eq!(tree_entry("├── cache/"), Some((4, "cache/")));
        assert_eq!(tree_entry("│   └── lru.go   # the LRU"), Some((8, "lru.go")));
        assert_eq!(tree_entry("|   `-- lru.go"), Some((8, "lru.go")));
        assert_eq!(tree_entry("│"), None);
        assert!(is_tree_line("|-- src") && is_tree_line("└── a"));
        assert!(!is_tree_line("| a | b |") && !is_tree_line("|---|---|"));
        assert_eq!(single_token("  lru.go   # cache"), Some("lru.go"));
        assert_eq!(single_token("fn main() {"), None);
        assert_eq!(single_token("      pages/ (all .adoc content files)"), Some("pages/"));
        assert_eq!(single_token("two words (a note)"), None);
    }
}
