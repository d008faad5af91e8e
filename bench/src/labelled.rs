//! The labelled-by-construction set of the accuracy benchmarks (`accuracy`, `tier_b`).
//!
//! For each source tree (crates from the local cargo registry, one Python package from the
//! local site-packages): copy it, commit it on 2026-01-05, write memories dated 2026-02-01
//! that mention its files, symbols, lines, folders and config values, then apply real
//! refactors in git on 2026-03-15 (file renames and moves, a rename chain, deletions,
//! symbol renames, symbol moves to another file, symbol deletions, lines inserted at the
//! top of files, config edits). The expected verdict of every reference follows from what
//! was done. With a Tier B quota, [`tier_b`] adds behavioral, architectural and
//! configuration sentences about code the Tier A labels leave alone, and refactors of its own.
//!
//! Labels never come from memval's code: symbols are picked with this crate's own regexes
//! (see [`crate::rust_defs`] / [`crate::python_defs`]), and memval is only run as a binary.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::{copy_tree, crate_name, defs_for, git, read_text, registry_crates, words, Def, Lang, Rng};
use anyhow::{bail, Context, Result};
use regex::Regex;
use serde_json::{json, Value};

mod tier_b;

pub const BASE_DATE: &str = "2026-01-05T12:00:00+00:00";
pub const MEMORY_DATE: &str = "2026-02-01T00:00:00Z";
pub const DEFAULT_SEED: u64 = 20_260_201;

/// Crates tried first, in this order (a mix of sizes); the rest are filled from the sorted
/// registry when some are missing.
const PREFERRED_CRATES: [&str; 8] =
    ["anyhow", "bytes", "serde_json", "sled", "clap_builder", "rayon", "regex-syntax", "tokio"];
const WANT_CRATES: usize = 8;

fn refactor_date(hour: u32) -> String {
    format!("2026-03-15T{hour:02}:00:00+00:00")
}

// ---------------------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum V {
    Valid,
    Stale,
    Contradicted,
    Ambiguous,
}

impl V {
    pub const ALL: [V; 4] = [V::Valid, V::Stale, V::Contradicted, V::Ambiguous];
    pub fn as_str(self) -> &'static str {
        match self {
            V::Valid => "VALID",
            V::Stale => "STALE",
            V::Contradicted => "CONTRADICTED",
            V::Ambiguous => "AMBIGUOUS",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    File,
    Dir,
    Symbol,
    Method,
    Line,
    SymLine,
    Config,
    // Tier B (see `tier_b`): one sentence each, in a memory of its own.
    /// "`X` in `a` calls `Y`" (architectural).
    Calls,
    /// "The `S` struct in `a` has a field `f`" (behavioral).
    Field,
    /// "`X` in `a` is async / synchronous" (behavioral).
    Async,
    /// "`Cargo.toml` enables the `f` feature by default" (configuration, free text).
    Feature,
    /// "`NAME` in `a` defaults to V" (configuration, key and value).
    Const,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Dir => "dir",
            Kind::Symbol => "symbol",
            Kind::Method => "method",
            Kind::Line => "line",
            Kind::SymLine => "symbol+line",
            Kind::Config => "config",
            Kind::Calls => "calls",
            Kind::Field => "field",
            Kind::Async => "async",
            Kind::Feature => "feature",
            Kind::Const => "const",
        }
    }

    /// Labels of the Tier B set (sentences the LLM investigator is for).
    pub fn tier_b(self) -> bool {
        matches!(self, Kind::Calls | Kind::Field | Kind::Async | Kind::Feature | Kind::Const)
    }

    /// The docs/contracts.md §2 claim type the construction writes (a line reference is a file or symbol
    /// reference with a line).
    pub fn claim_type(self) -> &'static str {
        match self {
            Kind::File | Kind::Dir => "file_reference",
            Kind::Symbol | Kind::Method => "symbol_reference",
            Kind::Line | Kind::SymLine => "line reference",
            Kind::Config | Kind::Const => "configuration (key = value)",
            Kind::Feature => "configuration (free text)",
            Kind::Field | Kind::Async => "behavioral",
            Kind::Calls => "architectural",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Label {
    pub tree: String,
    pub mem: String,
    pub kind: Kind,
    /// How the reference is written in the memory (backtick, plain, link, ...).
    pub style: &'static str,
    pub path: Option<String>,
    pub symbol: Option<String>,
    pub line: Option<u32>,
    pub key: Option<String>,
    pub expected: V,
    pub successor: Option<String>,
    /// What was done to the code (for the mismatch listing).
    pub why: String,
}

impl Label {
    fn new(kind: Kind, expected: V, why: impl Into<String>) -> Label {
        Label {
            tree: String::new(),
            mem: String::new(),
            kind,
            style: "",
            path: None,
            symbol: None,
            line: None,
            key: None,
            expected,
            successor: None,
            why: why.into(),
        }
    }
    fn path(mut self, p: &str) -> Label {
        self.path = Some(p.to_owned());
        self
    }
    fn symbol(mut self, s: &str) -> Label {
        self.symbol = Some(s.to_owned());
        self
    }
    fn line(mut self, l: u32) -> Label {
        self.line = Some(l);
        self
    }
    fn succ(mut self, s: impl Into<String>) -> Label {
        self.successor = Some(s.into());
        self
    }
    fn key(mut self, k: &str) -> Label {
        self.key = Some(k.to_owned());
        self
    }
    pub fn target(&self) -> String {
        let mut s = String::new();
        if let Some(sym) = &self.symbol {
            s.push_str(sym);
        }
        match (&self.symbol, &self.key) {
            (Some(_), Some(k)) => {
                let _ = write!(s, " [{k}]");
            }
            (None, Some(k)) => s.push_str(k),
            _ => {}
        }
        if let Some(p) = &self.path {
            if !s.is_empty() {
                s.push_str(" @ ");
            }
            s.push_str(p);
        }
        if let Some(l) = self.line {
            let _ = write!(s, ":{l}");
        }
        s
    }
}

/// A piece of memory text and the labels of the references it contains.
pub struct Fragment {
    text: String,
    labels: Vec<Label>,
    /// Multi-line fragments (sections, trees, code blocks) make a memory of their own.
    alone: bool,
}

fn frag(text: String, mut label: Label, style: &'static str) -> Fragment {
    label.style = style;
    Fragment { text, labels: vec![label], alone: false }
}

const DESCS: [&str; 10] = [
    "is where most of the logic lives",
    "was the hot spot in the last profiling session",
    "has to stay in sync with the docs",
    "is the first place to look when a test fails",
    "should not grow any further",
    "was reviewed during the last refactor",
    "handles the edge cases we keep hitting",
    "is safe to change without touching callers",
    "is what the integration tests exercise",
    "needs a second reviewer for any change",
];

const FAB_A: [&str; 16] = [
    "shard",
    "tombstone",
    "replica",
    "quorum",
    "gossip",
    "lease",
    "ledger",
    "beacon",
    "backfill",
    "spillover",
    "throttle",
    "lantern",
    "orchid",
    "watermark",
    "heartbeat",
    "eviction",
];
const FAB_B: [&str; 12] = [
    "planner",
    "coordinator",
    "tracker",
    "broker",
    "harvester",
    "sweeper",
    "governor",
    "janitor",
    "splicer",
    "warden",
    "ferry",
    "auditor",
];

fn camel(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

// ---------------------------------------------------------------------------------------
// Source trees
// ---------------------------------------------------------------------------------------

pub struct SourceTree {
    pub name: String,
    pub dir: PathBuf,
    pub lang: Lang,
    pub is_crate: bool,
}

pub fn select_trees() -> Result<Vec<SourceTree>> {
    let crates = registry_crates()?;
    let mut by_name: BTreeMap<String, PathBuf> = BTreeMap::new();
    for c in &crates {
        by_name.insert(crate_name(c), c.clone()); // sorted: the last (highest) version wins
    }
    let mut out: Vec<SourceTree> = Vec::new();
    for name in PREFERRED_CRATES {
        if let Some(dir) = by_name.get(name) {
            out.push(SourceTree { name: name.to_owned(), dir: dir.clone(), lang: Lang::Rust, is_crate: true });
        }
    }
    if out.len() < WANT_CRATES {
        for (name, dir) in &by_name {
            if out.len() >= WANT_CRATES {
                break;
            }
            if out.iter().any(|t| &t.name == name) {
                continue;
            }
            let rs = crate::walk_files(dir)?.iter().filter(|f| f.ends_with(".rs")).count();
            if rs >= 15 {
                out.push(SourceTree { name: name.clone(), dir: dir.clone(), lang: Lang::Rust, is_crate: true });
            }
        }
    }
    if out.len() < 6 {
        bail!("only {} usable crates in the cargo registry (need 6)", out.len());
    }
    match Command::new("python3").args(["-c", "import pip,os;print(os.path.dirname(pip.__file__))"]).output() {
        Ok(o) if o.status.success() => {
            let dir = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
            if dir.is_dir() {
                out.push(SourceTree { name: "pip".into(), dir, lang: Lang::Python, is_crate: false });
            }
        }
        _ => eprintln!("warning: python3 with pip not found; the Python tree is skipped"),
    }
    if !out.iter().any(|t| t.lang == Lang::Python) {
        eprintln!("warning: no Python package found; the benchmark covers Rust only");
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Definition extents (by brace / indent matching)
// ---------------------------------------------------------------------------------------

/// 0-based inclusive line range of a top-level Rust item, doc comments and attributes
/// included; `None` when the braces cannot be matched with confidence.
fn rust_extent(lines: &[&str], def0: usize) -> Option<(usize, usize)> {
    let mut start = def0;
    while start > 0 {
        let t = lines[start - 1].trim();
        if (t.starts_with("///") || t.starts_with("#[")) && lines[start - 1].starts_with(['/', '#']) {
            start -= 1;
            continue;
        }
        if t.ends_with(']') && !t.starts_with("//") {
            // The tail of a multi-line attribute: find its `#[` at column 0.
            let lo = start.saturating_sub(10);
            if let Some(k) = (lo..start - 1).rev().find(|&k| lines[k].starts_with("#[")) {
                start = k;
                continue;
            }
        }
        break;
    }
    let text: String = lines[def0..lines.len().min(def0 + 600)].join("\n");
    let b = text.as_bytes();
    let (mut i, mut line) = (0usize, def0);
    let (mut brace, mut paren, mut seen) = (0i32, 0i32, false);
    let mut end = None;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => line += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 1;
                i += 2;
                while i < b.len() && depth > 0 {
                    if b[i] == b'\n' {
                        line += 1;
                    }
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 1;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 1;
                    }
                    i += 1;
                }
                continue;
            }
            b'r' if (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
                && matches!(b.get(i + 1), Some(b'"') | Some(b'#')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) == Some(&b'"') {
                    j += 1;
                    loop {
                        if j >= b.len() {
                            return None;
                        }
                        if b[j] == b'\n' {
                            line += 1;
                        }
                        if b[j] == b'"' && b[j + 1..].iter().take(hashes).filter(|&&h| h == b'#').count() == hashes {
                            j += 1 + hashes;
                            break;
                        }
                        j += 1;
                    }
                    i = j;
                    continue;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    if i < b.len() && b[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
            b'\'' => {
                if b.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < b.len() && b[i] != b'\'' && b[i] != b'\n' {
                        i += 1;
                    }
                } else if b.get(i + 2) == Some(&b'\'') {
                    i += 2;
                } else if b.get(i + 1).is_some_and(|c| *c >= 0x80) {
                    // A multi-byte char literal.
                    let mut j = i + 1;
                    while j < b.len() && j < i + 6 && b[j] != b'\'' {
                        j += 1;
                    }
                    if b.get(j) == Some(&b'\'') {
                        i = j;
                    }
                }
            }
            b'(' | b'[' => paren += 1,
            b')' | b']' => paren -= 1,
            b'{' => {
                brace += 1;
                seen = true;
            }
            b'}' => {
                brace -= 1;
                if brace == 0 && seen {
                    end = Some((line, i));
                    break;
                }
            }
            b';' if !seen && paren == 0 && brace == 0 => {
                end = Some((line, i));
                break;
            }
            _ => {}
        }
        i += 1;
    }
    let (end_line, pos) = end?;
    if brace < 0 || paren < 0 {
        return None;
    }
    // Nothing but a comment may follow the closing character on its line.
    let rest: String = text[pos + 1..].chars().take_while(|&c| c != '\n').collect();
    let rest = rest.trim();
    if !(rest.is_empty() || rest.starts_with("//")) {
        return None;
    }
    if end_line != def0 && indent(lines[end_line]) != 0 {
        return None;
    }
    Some((start, end_line))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// 0-based inclusive line range of a Python definition at `def0`, decorators included.
fn py_extent(lines: &[&str], def0: usize) -> Option<(usize, usize)> {
    let ind = indent(lines[def0]);
    let mut start = def0;
    while start > 0 && indent(lines[start - 1]) == ind && lines[start - 1].trim_start().starts_with('@') {
        start -= 1;
    }
    let mut state = PyScan::default();
    state.feed(lines[def0]);
    let mut end = def0;
    for (j, l) in lines.iter().enumerate().skip(def0 + 1) {
        let continuing = state.open();
        if !continuing {
            if l.trim().is_empty() {
                state.feed(l);
                continue;
            }
            if indent(l) <= ind {
                break;
            }
        }
        state.feed(l);
        if !l.trim().is_empty() {
            end = j;
        }
    }
    if state.open() {
        return None;
    }
    Some((start, end))
}

/// Bracket and long-string state across Python lines.
#[derive(Default)]
struct PyScan {
    depth: i32,
    long: Option<&'static str>,
}

impl PyScan {
    fn open(&self) -> bool {
        self.depth > 0 || self.long.is_some()
    }
    fn feed(&mut self, line: &str) {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if let Some(q) = self.long {
                if b[i..].starts_with(q.as_bytes()) {
                    self.long = None;
                    i += 3;
                } else {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                continue;
            }
            match b[i] {
                b'#' => return,
                b'"' | b'\'' => {
                    let q = if b[i] == b'"' { "\"\"\"" } else { "'''" };
                    if b[i..].starts_with(q.as_bytes()) {
                        self.long = Some(q);
                        i += 3;
                        continue;
                    }
                    let quote = b[i];
                    i += 1;
                    while i < b.len() && b[i] != quote {
                        if b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                }
                b'(' | b'[' | b'{' => self.depth += 1,
                b')' | b']' | b'}' => self.depth -= 1,
                _ => {}
            }
            i += 1;
        }
    }
}

/// Ask python3 whether each (file, start, end) cut leaves valid Python on both sides.
fn python_cuts_ok(root: &Path, cuts: &[(String, usize, usize)]) -> Result<Vec<bool>> {
    if cuts.is_empty() {
        return Ok(Vec::new());
    }
    const SCRIPT: &str = r#"
import sys, json, textwrap
items = json.load(sys.stdin)
cache = {}
out = []
for it in items:
    p = it["abs"]
    if p not in cache:
        cache[p] = open(p, encoding="utf-8", errors="replace").read().split("\n")
    lines = cache[p]
    s, e = it["start"], it["end"] + 1
    ok = True
    try:
        compile("\n".join(lines), "orig", "exec")
        compile("\n".join(lines[:s] + lines[e:]), "rest", "exec")
        compile(textwrap.dedent("\n".join(lines[s:e])), "body", "exec")
    except Exception:
        ok = False
    out.append(ok)
print(json.dumps(out))
"#;
    let input: Vec<Value> =
        cuts.iter().map(|(p, s, e)| json!({"abs": root.join(p).to_string_lossy(), "start": s, "end": e})).collect();
    let mut child = Command::new("python3")
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("running python3 to check definition extents")?;
    child.stdin.take().unwrap().write_all(serde_json::to_string(&input)?.as_bytes())?;
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!("python3 extent check failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(serde_json::from_slice(&out.stdout)?)
}

// ---------------------------------------------------------------------------------------
// One repo: copy, commit, refactor, label
// ---------------------------------------------------------------------------------------

struct FileData {
    path: String,
    text: String,
    defs: Vec<Def>,
}

impl FileData {
    fn lines(&self) -> Vec<&str> {
        self.text.split('\n').collect()
    }
}

#[derive(Default, Clone, Copy)]
struct WordStat {
    count: u32,
    file: u32,
    multi_file: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum Role {
    Deleted,
    Renamed(String),
    Chain(String, String),
    Shifted(u32),
    Host,
    Dst,
}

fn dir_of(p: &str) -> &str {
    p.rfind('/').map_or("", |i| &p[..i])
}
fn base_of(p: &str) -> &str {
    p.rfind('/').map_or(p, |i| &p[i + 1..])
}
fn stem_of(p: &str) -> &str {
    let b = base_of(p);
    b.find('.').map_or(b, |i| &b[..i])
}
fn join(dir: &str, base: &str) -> String {
    if dir.is_empty() {
        base.to_owned()
    } else {
        format!("{dir}/{base}")
    }
}

const SPECIAL: [&str; 9] =
    ["lib.rs", "mod.rs", "main.rs", "build.rs", "__init__.py", "__main__.py", "conftest.py", "setup.py", "tests.rs"];
const COMMON_NAMES: [&str; 16] = [
    "main", "new", "default", "from", "into", "fmt", "drop", "clone", "next", "test", "run", "get", "set", "len",
    "init", "setup",
];

pub struct Built {
    pub repo: PathBuf,
    pub fragments: Vec<Fragment>,
    /// Tier B sentences, one memory each (packed after the Tier A memories).
    pub tier_b: Vec<Fragment>,
    pub notes: Vec<String>,
}

struct Op {
    file: String,
    name: String,
    start: usize,
    end: usize,
    kind: OpKind,
}

enum OpKind {
    Rename(String),
    Move(String),
    Delete,
}

/// Copy, commit, refactor and label one tree. `tier_b` Tier B labels are added (from the
/// cycle of constructions at `tier_b_offset`) about code the Tier A labels leave alone; with
/// 0, the tree is exactly what the `accuracy` benchmark has always built.
pub fn build_tree(src: &SourceTree, work: &Path, seed: u64, tier_b: usize, tier_b_offset: usize) -> Result<Built> {
    let mut rng = Rng::derive(seed, &src.name);
    let root = work.join("repos").join(&src.name);
    copy_tree(&src.dir, &root)?;
    git(&root, &["init", "-q"], None)?;
    git(&root, &["add", "-A"], None)?;
    git(&root, &["commit", "-q", "--no-verify", "-m", &format!("import {}", src.name)], Some(BASE_DATE))?;
    let tracked: Vec<String> =
        git(&root, &["ls-files", "-z"], None)?.split('\0').filter(|s| !s.is_empty()).map(str::to_owned).collect();

    // --- Load the tree -------------------------------------------------------------------
    let ext = if src.lang == Lang::Rust { ".rs" } else { ".py" };
    let mut files: Vec<FileData> = Vec::new();
    let mut wordstat: HashMap<String, WordStat> = HashMap::new();
    let mut content_count: HashMap<u64, usize> = HashMap::new();
    for (fi, f) in tracked.iter().enumerate() {
        let Some(text) = read_text(&root.join(f), 2 << 20) else { continue };
        for w in words(&text) {
            let e = wordstat.entry(w.to_owned()).or_insert(WordStat { count: 0, file: fi as u32, multi_file: false });
            e.count += 1;
            if e.file != fi as u32 {
                e.multi_file = true;
            }
        }
        if f.ends_with(ext) {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in text.bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
            *content_count.entry(h).or_default() += 1;
            let defs = defs_for(f, &text);
            files.push(FileData { path: f.clone(), text, defs });
        }
    }
    let lower_words: HashSet<String> = wordstat.keys().map(|w| w.to_ascii_lowercase()).collect();
    let mut def_count: HashMap<String, usize> = HashMap::new();
    for f in &files {
        for d in &f.defs {
            *def_count.entry(d.name.clone()).or_default() += 1;
        }
    }
    let mut base_count: HashMap<String, usize> = HashMap::new();
    let mut stem_count: HashMap<String, usize> = HashMap::new();
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    for f in &tracked {
        *base_count.entry(base_of(f).to_owned()).or_default() += 1;
        *stem_count.entry(stem_of(f).to_ascii_lowercase()).or_default() += 1;
        let mut d = dir_of(f);
        while !d.is_empty() {
            dirs.insert(d.to_owned());
            d = dir_of(d);
        }
    }
    let dir_bases: HashSet<String> = dirs.iter().map(|d| base_of(d).to_ascii_lowercase()).collect();
    let src_dirs: Vec<String> = {
        let s: BTreeSet<String> = files.iter().map(|f| dir_of(&f.path).to_owned()).collect();
        s.into_iter().collect()
    };
    let hash_of = |t: &str| {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in t.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        h
    };

    // --- Roles of files -----------------------------------------------------------------
    let mut roles: HashMap<String, Role> = HashMap::new();
    let mut cands: Vec<usize> = (0..files.len())
        .filter(|&i| {
            let f = &files[i];
            let b = base_of(&f.path);
            f.text.lines().count() >= 20
                && base_count[b] == 1
                && stem_count[&stem_of(&f.path).to_ascii_lowercase()] == 1
                && !SPECIAL.contains(&b)
                && content_count[&hash_of(&f.text)] == 1
                && !f.path.contains(' ')
        })
        .collect();
    rng.shuffle(&mut cands);
    let unique_line = |f: &FileData, l: u32| {
        let lines = f.lines();
        let t = lines[l as usize - 1];
        lines.iter().filter(|x| **x == t).count() == 1
    };
    let take = |pred: &dyn Fn(&FileData) -> bool, n: usize, roles: &HashMap<String, Role>| -> Vec<usize> {
        let mut got = Vec::new();
        for &i in &cands {
            if got.len() >= n {
                break;
            }
            if !roles.contains_key(&files[i].path) && pred(&files[i]) {
                got.push(i);
            }
        }
        got
    };
    let shifted = take(&|f: &FileData| f.defs.iter().filter(|d| unique_line(f, d.line)).count() >= 3, 2, &roles);
    for &i in &shifted {
        let k = rng.range(3, 9) as u32;
        roles.insert(files[i].path.clone(), Role::Shifted(k));
    }
    let deleted = take(&|_| true, 3, &roles);
    for &i in &deleted {
        roles.insert(files[i].path.clone(), Role::Deleted);
    }
    let has_unique_def = |f: &FileData| f.defs.iter().any(|d| d.indent == 0 && def_count[&d.name] == 1);
    let renamed = take(&has_unique_def, 5, &roles);
    let suffixes = ["_impl", "_core", "_legacy", "_v2", "_util", "_old"];
    let taken_new: std::cell::RefCell<HashSet<String>> = Default::default();
    let new_within = |p: &str, rng: &mut Rng| -> Option<String> {
        for _ in 0..12 {
            let suf = rng.pick(&suffixes);
            let stem = stem_of(p);
            let new_base = format!("{stem}{suf}{}", &base_of(p)[stem.len()..]);
            let new_stem = format!("{stem}{suf}").to_ascii_lowercase();
            if !stem_count.contains_key(&new_stem) && !taken_new.borrow().contains(&new_stem) {
                taken_new.borrow_mut().insert(new_stem);
                return Some(join(dir_of(p), &new_base));
            }
        }
        None
    };
    let new_cross = |p: &str, rng: &mut Rng| -> Option<String> {
        let others: Vec<&String> = src_dirs.iter().filter(|d| d.as_str() != dir_of(p)).collect();
        if others.is_empty() {
            return None;
        }
        Some(join(others[rng.below(others.len())], base_of(p)))
    };
    // Two renames within their folder, two into another folder, one chain A -> B -> C.
    for (n, &i) in renamed.iter().enumerate() {
        let p = files[i].path.clone();
        let role = match n {
            0 | 1 => new_within(&p, &mut rng).map(Role::Renamed),
            2 | 3 => new_cross(&p, &mut rng).map(Role::Renamed),
            _ => new_within(&p, &mut rng).and_then(|b| new_cross(&b, &mut rng).map(|c| Role::Chain(b, c))),
        };
        if let Some(r) = role {
            roles.insert(p, r);
        }
    }

    // --- Symbol operations ---------------------------------------------------------------
    struct Cand {
        fi: usize,
        di: usize,
        start: usize,
        end: usize,
    }
    let mut sym_cands: Vec<Cand> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        if roles.contains_key(&f.path) {
            continue;
        }
        let lines = f.lines();
        for (di, d) in f.defs.iter().enumerate() {
            if d.indent != 0
                || def_count[&d.name] != 1
                || d.name.len() < 5
                || d.name.starts_with("test")
                || d.name.starts_with('_') && src.lang == Lang::Python && d.name.starts_with("__")
                || COMMON_NAMES.contains(&d.name.as_str())
            {
                continue;
            }
            let ext = match src.lang {
                Lang::Rust => rust_extent(&lines, d.line as usize - 1),
                Lang::Python => py_extent(&lines, d.line as usize - 1),
            };
            if let Some((s, e)) = ext {
                if e - s < 300 {
                    sym_cands.push(Cand { fi, di, start: s, end: e });
                }
            }
        }
    }
    rng.shuffle(&mut sym_cands);
    if src.lang == Lang::Python {
        // Checking every candidate with python3 is slow on big packages: check a sample.
        sym_cands.truncate(150);
        let cuts: Vec<(String, usize, usize)> =
            sym_cands.iter().map(|c| (files[c.fi].path.clone(), c.start, c.end)).collect();
        let ok = python_cuts_ok(&root, &cuts)?;
        let mut it = ok.into_iter();
        sym_cands.retain(|_| it.next().unwrap_or(false));
    }
    let mut ops: Vec<Op> = Vec::new();
    let mut used_files: HashSet<usize> = HashSet::new();
    let untouched_dsts: Vec<usize> = (0..files.len()).filter(|&i| !roles.contains_key(&files[i].path)).collect();
    for want in ["rename", "move", "delete"] {
        let mut n = 0;
        for c in &sym_cands {
            if n >= 3 {
                break;
            }
            if used_files.contains(&c.fi) {
                continue;
            }
            let f = &files[c.fi];
            let d = &f.defs[c.di];
            let ws = wordstat.get(&d.name).copied().unwrap_or_default();
            let kind = match want {
                "rename" => {
                    if c.end - c.start < 2 || ws.multi_file {
                        continue;
                    }
                    let snake = !d.name.chars().any(|c| c.is_ascii_uppercase());
                    let opts: Vec<String> = if snake {
                        vec![
                            format!("{}_inner", d.name),
                            format!("{}_impl", d.name),
                            format!("do_{}", d.name),
                            format!("{}_checked", d.name),
                        ]
                    } else {
                        vec![
                            format!("{}Inner", d.name),
                            format!("Raw{}", d.name),
                            format!("{}Impl", d.name),
                            format!("Base{}", d.name),
                        ]
                    };
                    let new = opts[rng.below(opts.len())].clone();
                    if wordstat.contains_key(&new) {
                        continue;
                    }
                    OpKind::Rename(new)
                }
                "move" => {
                    let dsts: Vec<usize> = untouched_dsts
                        .iter()
                        .copied()
                        .filter(|&j| j != c.fi && !used_files.contains(&j) && dir_of(&files[j].path) != dir_of(&f.path))
                        .collect();
                    let dsts = if dsts.is_empty() {
                        untouched_dsts.iter().copied().filter(|&j| j != c.fi && !used_files.contains(&j)).collect()
                    } else {
                        dsts
                    };
                    if dsts.is_empty() {
                        continue;
                    }
                    let j = dsts[rng.below(dsts.len())];
                    used_files.insert(j);
                    roles.insert(files[j].path.clone(), Role::Dst);
                    OpKind::Move(files[j].path.clone())
                }
                _ => {
                    // Only symbols mentioned nowhere outside their own definition, so the
                    // deletion leaves no dangling mention.
                    let lines = f.lines();
                    let body = lines[c.start..=c.end].join("\n");
                    let inside = words(&body).filter(|w| *w == d.name).count() as u32;
                    if ws.count != inside {
                        continue;
                    }
                    OpKind::Delete
                }
            };
            used_files.insert(c.fi);
            roles.insert(f.path.clone(), Role::Host);
            ops.push(Op { file: f.path.clone(), name: d.name.clone(), start: c.start, end: c.end, kind });
            n += 1;
        }
    }

    // --- Apply the refactors in git ------------------------------------------------------
    let commit = |msg: &str, hour: u32| -> Result<()> {
        git(&root, &["add", "-A"], None)?;
        if !git(&root, &["status", "--porcelain"], None)?.trim().is_empty() {
            git(&root, &["commit", "-q", "--no-verify", "-m", msg], Some(&refactor_date(hour)))?;
        }
        Ok(())
    };
    let mut notes = Vec::new();
    let mut sorted_roles: Vec<(&String, &Role)> = roles.iter().collect();
    sorted_roles.sort_by(|a, b| a.0.cmp(b.0));
    for (p, r) in &sorted_roles {
        match r {
            Role::Renamed(new) | Role::Chain(new, _) => {
                if let Some(parent) = root.join(new.as_str()).parent() {
                    std::fs::create_dir_all(parent)?;
                }
                git(&root, &["mv", p.as_str(), new.as_str()], None)?;
                notes.push(format!("git mv {p} {new}"));
            }
            _ => {}
        }
    }
    commit("reorganise modules", 9)?;
    for (p, r) in &sorted_roles {
        if **r == Role::Deleted {
            git(&root, &["rm", "-q", p.as_str()], None)?;
            notes.push(format!("git rm {p}"));
        }
    }
    commit("remove dead modules", 10)?;
    let mut appended: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for op in &ops {
        let path = root.join(&op.file);
        let text = std::fs::read_to_string(&path)?;
        let lines: Vec<&str> = text.split('\n').collect();
        match &op.kind {
            OpKind::Rename(new) => {
                let re = Regex::new(&format!(r"\b{}\b", regex::escape(&op.name)))?;
                std::fs::write(&path, re.replace_all(&text, new.as_str()).as_bytes())?;
                notes.push(format!("rename {} -> {new} in {}", op.name, op.file));
            }
            OpKind::Move(_) | OpKind::Delete => {
                let cut = lines[op.start..=op.end].join("\n");
                let mut rest: Vec<&str> = lines[..op.start].to_vec();
                let mut after = op.end + 1;
                if after < lines.len()
                    && lines[after].trim().is_empty()
                    && (op.start == 0 || lines[op.start - 1].trim().is_empty())
                {
                    after += 1;
                }
                rest.extend_from_slice(&lines[after..]);
                std::fs::write(&path, rest.join("\n"))?;
                if let OpKind::Move(_) = op.kind {
                    appended.entry(dst_of(&op.kind)).or_default().push(cut);
                    notes.push(format!("move {} from {} to {}", op.name, op.file, dst_of(&op.kind)));
                } else {
                    notes.push(format!("delete {} from {}", op.name, op.file));
                }
            }
        }
    }
    for (dst, cuts) in &appended {
        let path = root.join(dst);
        let mut text = std::fs::read_to_string(&path)?;
        for c in cuts {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push('\n');
            text.push_str(c);
            text.push('\n');
        }
        std::fs::write(&path, text)?;
    }
    commit("split and tidy modules", 11)?;
    const HEADER: [&str; 9] = [
        "Copyright 2026 The Project Developers.",
        "",
        "Licensed under the Apache License, Version 2.0 or the MIT license,",
        "at your option. This file may not be copied, modified, or distributed",
        "except according to those terms.",
        "",
        "Maintained by the platform team; see CONTRIBUTING for the review process.",
        "Do not add new public items here without a design note.",
        "",
    ];
    let cmt = if src.lang == Lang::Rust { "//" } else { "#" };
    for (p, r) in &sorted_roles {
        if let Role::Shifted(k) = r {
            let path = root.join(p.as_str());
            let text = std::fs::read_to_string(&path)?;
            let mut head = String::new();
            for l in HEADER.iter().take(*k as usize) {
                if l.is_empty() {
                    let _ = writeln!(head, "{cmt}");
                } else {
                    let _ = writeln!(head, "{cmt} {l}");
                }
            }
            std::fs::write(&path, head + &text)?;
            notes.push(format!("insert {k} header lines at the top of {p}"));
        }
    }
    commit("add license headers", 12)?;
    for (p, r) in &sorted_roles {
        if let Role::Chain(b, c) = r {
            if let Some(parent) = root.join(c.as_str()).parent() {
                std::fs::create_dir_all(parent)?;
            }
            git(&root, &["mv", b.as_str(), c.as_str()], None)?;
            notes.push(format!("git mv {b} {c} (chain from {p})"));
        }
    }
    commit("move module again", 13)?;

    // Config edits (Cargo.toml of crates).
    let mut config_frags: Vec<Fragment> = Vec::new();
    if src.is_crate {
        config_frags = config_refactor(&root, &mut rng, &mut notes)?;
        commit("bump manifest", 14)?;
    }

    // --- Labels ---------------------------------------------------------------------------
    let final_files: Vec<String> =
        git(&root, &["ls-files", "-z"], None)?.split('\0').filter(|s| !s.is_empty()).map(str::to_owned).collect();
    let final_set: HashSet<&str> = final_files.iter().map(String::as_str).collect();
    let mut final_dirs: BTreeSet<String> = BTreeSet::new();
    let mut final_base: HashMap<&str, usize> = HashMap::new();
    for f in &final_files {
        *final_base.entry(base_of(f)).or_default() += 1;
        let mut d = dir_of(f);
        while !d.is_empty() {
            final_dirs.insert(d.to_owned());
            d = dir_of(d);
        }
    }
    let op_names: HashSet<&str> = ops.iter().map(|o| o.name.as_str()).collect();
    let role_of = |p: &str| roles.get(p).cloned();
    let desc = |rng: &mut Rng| *rng.pick(&DESCS);

    let mut fragments: Vec<Fragment> = config_frags;

    // File references.
    let mut file_labels: Vec<Label> = Vec::new();
    let mut untouched_src: Vec<usize> = (0..files.len())
        .filter(|&i| !matches!(role_of(&files[i].path), Some(Role::Deleted | Role::Renamed(_) | Role::Chain(..))))
        .collect();
    rng.shuffle(&mut untouched_src);
    for &i in untouched_src.iter().take(8) {
        let p = &files[i].path;
        file_labels.push(Label::new(Kind::File, V::Valid, "untouched").path(p));
    }
    // One file of another type (README, manifest, data) when there is one with a unique name.
    let mut others: Vec<&String> = tracked
        .iter()
        .filter(|f| {
            !f.ends_with(ext)
                && final_set.contains(f.as_str())
                && base_count[base_of(f)] == 1
                && !base_of(f).starts_with('.')
                && !f.contains(' ')
        })
        .filter(|f| !f.ends_with(".orig") && !f.ends_with(".json") || f.ends_with("vendor.txt"))
        // Without a folder or an extension a name is not recognisably a path (`LICENSE-MIT`).
        .filter(|f| f.contains('/') || base_of(f).contains('.'))
        .collect();
    rng.shuffle(&mut others);
    for f in others.iter().take(1) {
        file_labels.push(Label::new(Kind::File, V::Valid, "untouched (not source)").path(f));
    }
    for (p, r) in &sorted_roles {
        match r {
            Role::Renamed(new) => file_labels
                .push(Label::new(Kind::File, V::Stale, format!("git mv {p} {new}")).path(p).succ(new.clone())),
            Role::Chain(b, c) => file_labels.push(
                Label::new(Kind::File, V::Stale, format!("git mv {p} {b}; git mv {b} {c}")).path(p).succ(c.clone()),
            ),
            Role::Deleted => file_labels.push(Label::new(Kind::File, V::Contradicted, format!("git rm {p}")).path(p)),
            _ => {}
        }
    }
    let fab = |rng: &mut Rng, snake: bool| -> Option<String> {
        for _ in 0..50 {
            let a = rng.pick(&FAB_A);
            let b = rng.pick(&FAB_B);
            let name = if snake { format!("{a}_{b}") } else { format!("{}{}", camel(a), camel(b)) };
            if !lower_words.contains(&name.to_ascii_lowercase())
                && !lower_words.contains(*a)
                && !stem_count.contains_key(&name.to_ascii_lowercase())
            {
                return Some(name);
            }
        }
        None
    };
    for _ in 0..2 {
        if let Some(name) = fab(&mut rng, true) {
            let d = rng.pick(&src_dirs).clone();
            let p = join(&d, &format!("{name}{ext}"));
            file_labels.push(Label::new(Kind::File, V::Contradicted, "never existed").path(&p));
        }
    }
    // Bare file names: unique -> VALID; several places -> VALID too (the memory says such a
    // file exists, which holds in each; until 2026-12-03 memval called this AMBIGUOUS, a
    // verdict that asks a user to look at a line that is not wrong).
    let touched_bases: HashSet<&str> = roles
        .iter()
        .filter(|(_, r)| matches!(r, Role::Deleted | Role::Renamed(_) | Role::Chain(..)))
        .flat_map(|(p, r)| {
            let mut v = vec![base_of(p)];
            match r {
                Role::Renamed(n) => v.push(base_of(n)),
                Role::Chain(b, c) => {
                    v.push(base_of(b));
                    v.push(base_of(c))
                }
                _ => {}
            }
            v
        })
        .collect();
    let mut bare: Vec<Fragment> = Vec::new();
    {
        let mut multi: Vec<(&str, usize)> = final_base
            .iter()
            .filter(|(b, n)| {
                **n >= 2 && b.ends_with(ext) && !touched_bases.contains(**b) && base_count.get(**b) == Some(*n)
            })
            // A file of that name at the root is a verbatim match, not an ambiguity.
            .filter(|(b, _)| !final_set.contains(**b))
            .map(|(b, n)| (*b, *n))
            .collect();
        multi.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        for (b, n) in multi.iter().take(2) {
            let l = Label::new(Kind::File, V::Valid, format!("{n} files are named {b}")).path(b);
            // Alone in its memory: a folder named elsewhere in the memory would be a context.
            let mut f = frag(format!("Check `{b}` before adding a new module; it {}.", desc(&mut rng)), l, "bare-name");
            f.alone = true;
            bare.push(f);
        }
        let uniq: Vec<&usize> = untouched_src
            .iter()
            .skip(8)
            .filter(|&&i| {
                !SPECIAL.contains(&base_of(&files[i].path))
                    && final_base.get(base_of(&files[i].path)) == Some(&1)
                    && base_count[base_of(&files[i].path)] == 1
            })
            .collect();
        if let Some(&&i) = uniq.first() {
            let p = &files[i].path;
            let b = base_of(p);
            let l = Label::new(Kind::File, V::Valid, format!("unique name, at {p}")).path(b);
            let mut f = frag(format!("The code in `{b}` {}.", desc(&mut rng)), l, "bare-name");
            f.alone = true;
            bare.push(f);
        }
    }
    fragments.extend(bare);

    // Render file references in mixed styles. The two folders with the most references get
    // an ascii tree and a section whose entries are relative to the folder heading.
    let mut by_dir: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, l) in file_labels.iter().enumerate() {
        let p = l.path.as_deref().unwrap();
        if p.contains('/') {
            by_dir.entry(dir_of(p).to_owned()).or_default().push(i);
        }
    }
    let mut dir_rank: Vec<(String, Vec<usize>)> = by_dir.into_iter().filter(|(_, v)| v.len() >= 2).collect();
    dir_rank.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let mut in_group: HashSet<usize> = HashSet::new();
    let mut groups: Vec<(String, &'static str, Vec<Label>)> = Vec::new();
    for (k, (dir, idx)) in dir_rank.iter().take(2).enumerate() {
        let style = if k == 0 { "tree" } else { "section" };
        let mut idx = idx.clone();
        rng.shuffle(&mut idx);
        idx.truncate(4);
        in_group.extend(idx.iter().copied());
        groups.push((dir.clone(), style, idx.iter().map(|&i| file_labels[i].clone()).collect()));
    }
    let mut codeblock: Vec<Label> = Vec::new();
    for (i, l) in file_labels.into_iter().enumerate() {
        if in_group.contains(&i) {
            continue;
        }
        let has_dir = l.path.as_deref().unwrap().contains('/');
        let style = match rng.below(100) {
            0..=39 => "backtick",
            40..=64 if has_dir => "plain",
            40..=64 => "backtick",
            65..=84 => "link",
            _ => "codeblock",
        };
        if style == "codeblock" {
            codeblock.push(l);
        } else {
            fragments.push(render_file(l, style, &mut rng));
        }
    }
    for (dir, style, mut ls) in groups {
        let mut text = String::new();
        if style == "section" {
            let _ = writeln!(text, "## `{dir}/`\n");
            for l in &ls {
                let _ = writeln!(text, "- `{}` {}.", base_of(l.path.as_deref().unwrap()), desc(&mut rng));
            }
        } else {
            let _ = writeln!(text, "Layout of the folder:\n\n```\n{dir}/");
            for (k, l) in ls.iter().enumerate() {
                let branch = if k + 1 == ls.len() { "└──" } else { "├──" };
                let _ = writeln!(text, "{branch} {}", base_of(l.path.as_deref().unwrap()));
            }
            let _ = writeln!(text, "```");
        }
        for l in &mut ls {
            l.style = style;
        }
        fragments.push(Fragment { text: text.trim_end().to_owned(), labels: ls, alone: true });
    }
    for chunk in codeblock.chunks(3) {
        let mut text = String::from("Files touched by the last incident fix:\n\n```\n");
        let mut ls = Vec::new();
        for l in chunk {
            let _ = writeln!(text, "{}", l.path.as_deref().unwrap());
            let mut l = l.clone();
            l.style = "codeblock";
            ls.push(l);
        }
        text.push_str("```");
        fragments.push(Fragment { text, labels: ls, alone: true });
    }

    // Directories.
    let mut dir_list: Vec<&String> = final_dirs.iter().filter(|d| dirs.contains(*d)).collect();
    rng.shuffle(&mut dir_list);
    for d in dir_list.iter().take(2) {
        let l = Label::new(Kind::Dir, V::Valid, "folder exists").path(&format!("{d}/"));
        let text = if rng.chance(0.5) {
            format!("The `{d}/` folder {}.", desc(&mut rng))
        } else {
            format!("Everything under {d}/ {}.", desc(&mut rng))
        };
        fragments.push(frag(text, l, "dir"));
    }
    for _ in 0..1 {
        for _ in 0..20 {
            let a = rng.pick(&FAB_A).to_string();
            if dir_bases.contains(&a) || stem_count.contains_key(&a) || lower_words.contains(&a) {
                continue;
            }
            let parent = if src_dirs.is_empty() { String::new() } else { rng.pick(&src_dirs).clone() };
            let d = join(&parent, &a);
            let l = Label::new(Kind::Dir, V::Contradicted, "folder never existed").path(&format!("{d}/"));
            fragments.push(frag(format!("The `{d}/` folder {}.", desc(&mut rng)), l, "dir"));
            break;
        }
    }

    // Symbols.
    let sym_text = |rng: &mut Rng, sym: &str, path: &str| -> String {
        match rng.below(3) {
            0 => format!("`{sym}` in `{path}` {}.", rng.pick(&DESCS)),
            1 => format!("`{path}` defines `{sym}`, which {}.", rng.pick(&DESCS)),
            _ => format!("Remember that `{sym}` (in `{path}`) {}.", rng.pick(&DESCS)),
        }
    };
    let valid_sym_files: Vec<usize> = (0..files.len())
        .filter(|&i| {
            matches!(role_of(&files[i].path), None | Some(Role::Shifted(_)) | Some(Role::Host) | Some(Role::Dst))
        })
        .collect();
    let mut sym_pool: Vec<(usize, usize)> = Vec::new();
    for &fi in &valid_sym_files {
        for (di, d) in files[fi].defs.iter().enumerate() {
            if d.indent == 0
                && def_count[&d.name] == 1
                && d.name.len() >= 5
                && !op_names.contains(d.name.as_str())
                && !COMMON_NAMES.contains(&d.name.as_str())
            {
                sym_pool.push((fi, di));
            }
        }
    }
    rng.shuffle(&mut sym_pool);
    let mut used_syms: HashSet<String> = HashSet::new();
    let mut n_with = 0;
    let mut n_without = 0;
    for &(fi, di) in &sym_pool {
        let d = &files[fi].defs[di];
        if used_syms.contains(&d.name) {
            continue;
        }
        if n_with < 5 {
            let p = &files[fi].path;
            let l = Label::new(Kind::Symbol, V::Valid, format!("{} {} defined at {p}:{}", d.kind, d.name, d.line))
                .path(p)
                .symbol(&d.name);
            fragments.push(frag(sym_text(&mut rng, &d.name, p), l, "symbol+file"));
            n_with += 1;
        } else if n_without < 2 && d.name.len() >= 7 {
            let l = Label::new(
                Kind::Symbol,
                V::Valid,
                format!("{} {} defined at {}:{}", d.kind, d.name, files[fi].path, d.line),
            )
            .symbol(&d.name);
            fragments.push(frag(format!("`{}` {}.", d.name, desc(&mut rng)), l, "symbol"));
            n_without += 1;
        } else {
            continue;
        }
        used_syms.insert(d.name.clone());
    }
    // Methods: `Type::method` / `Class.method`, inherent, unique pair, in untouched files.
    let sep = if src.lang == Lang::Rust { "::" } else { "." };
    let mut pair_count: HashMap<(String, String), usize> = HashMap::new();
    for f in &files {
        for d in &f.defs {
            if let Some(c) = &d.container {
                *pair_count.entry((c.clone(), d.name.clone())).or_default() += 1;
            }
        }
    }
    let mut methods: Vec<(usize, usize)> = Vec::new();
    for &fi in &valid_sym_files {
        let f = &files[fi];
        for (di, d) in f.defs.iter().enumerate() {
            if let Some(c) = &d.container {
                let name_in_file = f.defs.iter().filter(|x| x.name == d.name).count();
                if pair_count[&(c.clone(), d.name.clone())] == 1
                    && name_in_file == 1
                    && def_count.contains_key(c)
                    && d.name.len() >= 4
                    && !d.name.starts_with("__")
                    && !op_names.contains(c.as_str())
                {
                    methods.push((fi, di));
                }
            }
        }
    }
    rng.shuffle(&mut methods);
    for &(fi, di) in methods.iter().take(2) {
        let f = &files[fi];
        let d = &f.defs[di];
        let sym = format!("{}{sep}{}", d.container.as_deref().unwrap(), d.name);
        let l = Label::new(Kind::Method, V::Valid, format!("method defined at {}:{}", f.path, d.line))
            .path(&f.path)
            .symbol(&sym);
        fragments.push(frag(sym_text(&mut rng, &sym, &f.path), l, "method"));
    }
    // Fabricated method on a real type.
    if let Some(&(fi, di)) = methods.get(2) {
        let f = &files[fi];
        let c = f.defs[di].container.clone().unwrap();
        if let Some(m) = fab(&mut rng, true) {
            let sym = format!("{c}{sep}{m}");
            let l = Label::new(Kind::Method, V::Contradicted, "method never existed").path(&f.path).symbol(&sym);
            fragments.push(frag(sym_text(&mut rng, &sym, &f.path), l, "method"));
        }
    }
    // Symbol operations.
    for op in &ops {
        let (l, style) = match &op.kind {
            OpKind::Rename(new) => (
                Label::new(Kind::Symbol, V::Stale, format!("renamed {} -> {new} in {}", op.name, op.file))
                    .path(&op.file)
                    .symbol(&op.name)
                    .succ(new.clone()),
                "symbol+file",
            ),
            OpKind::Move(dst) => (
                Label::new(Kind::Symbol, V::Stale, format!("moved {} from {} to {dst}", op.name, op.file))
                    .path(&op.file)
                    .symbol(&op.name)
                    .succ(dst.clone()),
                "symbol+file",
            ),
            OpKind::Delete => (
                Label::new(
                    Kind::Symbol,
                    V::Contradicted,
                    format!("definition of {} deleted from {}", op.name, op.file),
                )
                .path(&op.file)
                .symbol(&op.name),
                "symbol+file",
            ),
        };
        fragments.push(frag(sym_text(&mut rng, &op.name, &op.file), l, style));
    }
    // A symbol in a file that was renamed.
    'outer: for (p, r) in &sorted_roles {
        let new = match r {
            Role::Renamed(n) => n,
            Role::Chain(_, c) => c,
            _ => continue,
        };
        if let Some(f) = files.iter().find(|f| &f.path == *p) {
            for d in &f.defs {
                if d.indent == 0
                    && def_count[&d.name] == 1
                    && d.name.len() >= 5
                    && !COMMON_NAMES.contains(&d.name.as_str())
                {
                    // The symbol is still defined where the memory's file went: the claim about
                    // the symbol holds (issue 9, item 6); the file claim carries the move.
                    let l = Label::new(
                        Kind::Symbol,
                        V::Valid,
                        format!("{} stays in {p}, which was renamed to {new}", d.name),
                    )
                    .path(p)
                    .symbol(&d.name);
                    fragments.push(frag(sym_text(&mut rng, &d.name, p), l, "symbol+file"));
                    break 'outer;
                }
            }
        }
    }
    // Fabricated symbols: one with a real file, one without a file.
    let snake = src.lang == Lang::Python || rng.chance(0.5);
    if let (Some(name), Some(&fi)) = (fab(&mut rng, snake), valid_sym_files.first()) {
        let p = &files[fi].path;
        let l = Label::new(Kind::Symbol, V::Contradicted, "never existed").path(p).symbol(&name);
        fragments.push(frag(sym_text(&mut rng, &name, p), l, "symbol+file"));
    }
    if let Some(name) = fab(&mut rng, false) {
        let l = Label::new(Kind::Symbol, V::Contradicted, "never existed, mentioned nowhere").symbol(&name);
        fragments.push(frag(format!("`{name}` {}.", desc(&mut rng)), l, "symbol"));
    }

    // Line references.
    let line_frag = |rng: &mut Rng, style: &'static str, f: &FileData, d: &Def, l: Label| -> Fragment {
        let p = &f.path;
        let n = d.line;
        match style {
            "path:line" => {
                if rng.chance(0.5) {
                    frag(format!("`{p}:{n}` {}.", rng.pick(&DESCS)), l, style)
                } else {
                    frag(format!("The check at {p}:{n} {}.", rng.pick(&DESCS)), l, style)
                }
            }
            "line-of" => frag(format!("Line {n} of `{p}` {}.", rng.pick(&DESCS)), l, style),
            _ => frag(format!("`{}` (L{n}) in `{p}` {}.", d.name, rng.pick(&DESCS)), l, style),
        }
    };
    let styles: [&'static str; 4] = ["path:line", "symbol(Lnn)", "line-of", "path:line"];
    let line_ok = |f: &FileData, d: &Def| {
        unique_line(f, d.line) && f.defs.iter().filter(|x| x.name == d.name).count() == 1 && d.name.len() >= 4
    };
    // VALID: untouched files.
    let mut pool: Vec<(usize, usize)> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        if matches!(role_of(&f.path), None | Some(Role::Dst)) {
            for (di, d) in f.defs.iter().enumerate() {
                if line_ok(f, d) && !used_syms.contains(&d.name) {
                    pool.push((fi, di));
                }
            }
        }
    }
    rng.shuffle(&mut pool);
    let mut used_files_l: HashSet<usize> = HashSet::new();
    let mut k = 0;
    for &(fi, di) in &pool {
        if k >= 4 {
            break;
        }
        if !used_files_l.insert(fi) {
            continue;
        }
        let f = &files[fi];
        let d = &f.defs[di];
        let style = styles[k];
        let l = if style == "symbol(Lnn)" {
            Label::new(Kind::SymLine, V::Valid, format!("{} still at line {}", d.name, d.line))
                .path(&f.path)
                .symbol(&d.name)
                .line(d.line)
        } else {
            Label::new(Kind::Line, V::Valid, format!("line {} unchanged ({})", d.line, d.name))
                .path(&f.path)
                .line(d.line)
        };
        fragments.push(line_frag(&mut rng, style, f, d, l));
        k += 1;
    }
    // STALE: lines shifted by the inserted header.
    let mut k = 0;
    for &fi in &shifted {
        let f = &files[fi];
        let Some(Role::Shifted(shift)) = role_of(&f.path) else { continue };
        let mut ds: Vec<&Def> = f.defs.iter().filter(|d| line_ok(f, d)).collect();
        rng.shuffle(&mut ds);
        for d in ds.into_iter().take(2) {
            let style = styles[k % 4];
            let new = format!("{}:{}", f.path, d.line + shift);
            let l = if style == "symbol(Lnn)" {
                Label::new(Kind::SymLine, V::Stale, format!("{shift} lines inserted above {}", d.name))
                    .path(&f.path)
                    .symbol(&d.name)
                    .line(d.line)
                    .succ(new)
            } else {
                Label::new(Kind::Line, V::Stale, format!("{shift} lines inserted at the top"))
                    .path(&f.path)
                    .line(d.line)
                    .succ(new)
            };
            fragments.push(line_frag(&mut rng, style, f, d, l));
            k += 1;
        }
    }
    // CONTRADICTED: a line of a deleted file.
    if let Some(&fi) = deleted.first() {
        let f = &files[fi];
        if let Some(d) = f.defs.first() {
            let l =
                Label::new(Kind::Line, V::Contradicted, format!("{} was deleted", f.path)).path(&f.path).line(d.line);
            fragments.push(line_frag(&mut rng, "path:line", f, d, l));
        }
    }

    let mut tier_b_frags = Vec::new();
    if tier_b > 0 {
        // What Tier A relies on stays as it is: files it names or changed, names it uses.
        let mut changed_files: HashSet<String> = HashSet::new();
        for (p, r) in &roles {
            changed_files.insert(p.clone());
            match r {
                Role::Renamed(n) => {
                    changed_files.insert(n.clone());
                }
                Role::Chain(b, c) => {
                    changed_files.insert(b.clone());
                    changed_files.insert(c.clone());
                }
                _ => {}
            }
        }
        let mut busy_files = changed_files.clone();
        let mut busy_names: HashSet<String> = HashSet::new();
        for op in &ops {
            busy_names.insert(op.name.clone());
            if let OpKind::Rename(n) = &op.kind {
                busy_names.insert(n.clone());
            }
        }
        for f in &fragments {
            for l in &f.labels {
                if let Some(p) = &l.path {
                    busy_files.insert(norm_path(p).to_owned());
                }
                if let Some(s) = &l.symbol {
                    for part in s.split("::").flat_map(|x| x.split('.')) {
                        busy_names.insert(part.to_owned());
                    }
                }
                if let Some(s) = &l.successor {
                    busy_names.insert(s.clone());
                }
            }
        }
        let input = tier_b::Input {
            root: &root,
            lang: src.lang.clone(),
            is_crate: src.is_crate,
            files: &files,
            wordstat: &wordstat,
            busy_files: &busy_files,
            changed_files: &changed_files,
            busy_names: &busy_names,
            quota: tier_b,
            offset: tier_b_offset,
        };
        let mut trng = Rng::derive(seed, &format!("tier-b/{}", src.name));
        tier_b_frags = tier_b::build(&input, &mut trng, &mut notes)?;
    }

    Ok(Built { repo: root, fragments, tier_b: tier_b_frags, notes })
}

fn dst_of(k: &OpKind) -> String {
    match k {
        OpKind::Move(d) => d.clone(),
        _ => String::new(),
    }
}

fn render_file(mut l: Label, style: &'static str, rng: &mut Rng) -> Fragment {
    let p = l.path.clone().unwrap();
    let d = rng.pick(&DESCS);
    l.style = style;
    let text = match style {
        "plain" => format!("See {p} for the details; it {d}."),
        "link" => format!("[{}]({p}) {d}.", base_of(&p)),
        _ => {
            if rng.chance(0.5) {
                format!("`{p}` {d}.")
            } else {
                format!("The code in `{p}` {d}.")
            }
        }
    };
    Fragment { text, labels: vec![l], alone: false }
}

/// Edit `Cargo.toml`: keep one key (VALID), change one (STALE with the new value), remove one
/// (CONTRADICTED). Only keys set exactly once in the file are used.
fn config_refactor(root: &Path, rng: &mut Rng, notes: &mut Vec<String>) -> Result<Vec<Fragment>> {
    let path = root.join("Cargo.toml");
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(Vec::new()) };
    let re = Regex::new(r#"^([A-Za-z][A-Za-z0-9_-]*)\s*=\s*(".*"|\d+|true|false)\s*$"#)?;
    let mut keys: HashMap<String, (usize, String)> = HashMap::new();
    let mut count: HashMap<String, usize> = HashMap::new();
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, l) in lines.iter().enumerate() {
        if let Some(c) = re.captures(l) {
            *count.entry(c[1].to_owned()).or_default() += 1;
            keys.insert(c[1].to_owned(), (i, c[2].to_owned()));
        }
    }
    let once = |k: &str| count.get(k) == Some(&1);
    let mut out = Vec::new();
    let mut new_lines: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    let mut remove: Option<usize> = None;
    let mut frag_for = |key: &str, value: &str, l: Label, rng: &mut Rng| {
        let text = if rng.chance(0.5) {
            format!("`{key} = {value}` in `Cargo.toml`; the release checklist depends on it.")
        } else {
            format!("The manifest sets `{key} = {value}` in `Cargo.toml`.")
        };
        let mut l = l;
        l.key = Some(key.to_owned());
        l.path = Some("Cargo.toml".into());
        out.push(frag(text, l, "key = value"));
    };
    // STALE: edition or rust-version changes.
    let mut changed = None;
    if once("edition") {
        let (i, v) = keys["edition"].clone();
        let new = match v.trim_matches('"') {
            "2015" => "2018",
            "2018" => "2021",
            "2021" => "2024",
            _ => "2021",
        };
        new_lines[i] = format!("edition = \"{new}\"");
        notes.push(format!("Cargo.toml: edition {v} -> \"{new}\""));
        frag_for("edition", &v, Label::new(Kind::Config, V::Stale, format!("edition changed to {new}")).succ(new), rng);
        changed = Some("edition");
    } else if once("rust-version") {
        let (i, v) = keys["rust-version"].clone();
        new_lines[i] = "rust-version = \"1.85\"".into();
        frag_for(
            "rust-version",
            &v,
            Label::new(Kind::Config, V::Stale, "rust-version changed to 1.85").succ("1.85"),
            rng,
        );
        changed = Some("rust-version");
    }
    // VALID.
    for k in ["license", "repository", "rust-version", "edition"] {
        if Some(k) != changed && once(k) {
            let (_, v) = keys[k].clone();
            frag_for(k, &v, Label::new(Kind::Config, V::Valid, "unchanged"), rng);
            break;
        }
    }
    // CONTRADICTED: the key is removed.
    for k in ["documentation", "homepage", "readme"] {
        if once(k) {
            let (i, v) = keys[k].clone();
            remove = Some(i);
            notes.push(format!("Cargo.toml: removed {k}"));
            frag_for(k, &v, Label::new(Kind::Config, V::Contradicted, format!("{k} removed from Cargo.toml")), rng);
            break;
        }
    }
    if let Some(i) = remove {
        new_lines.remove(i);
    }
    std::fs::write(&path, new_lines.join("\n"))?;
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Memories
// ---------------------------------------------------------------------------------------

pub struct MemoryOut {
    pub id: String,
    pub content: String,
    pub labels: Vec<Label>,
}

pub fn pack(tree: &str, mut fragments: Vec<Fragment>, rng: &mut Rng) -> Vec<MemoryOut> {
    rng.shuffle(&mut fragments);
    let agents = ["claude", "codex", "cursor"];
    let mut out: Vec<MemoryOut> = Vec::new();
    let mut cur: Vec<Fragment> = Vec::new();
    let mut cap = rng.range(2, 4);
    let flush = |cur: &mut Vec<Fragment>, out: &mut Vec<MemoryOut>| {
        if cur.is_empty() {
            return;
        }
        let id = format!("{tree}-m{:03}", out.len() + 1);
        let sep = if cur.iter().any(|f| f.alone) { "\n\n" } else { " " };
        let content = cur.iter().map(|f| f.text.as_str()).collect::<Vec<_>>().join(sep);
        let mut labels = Vec::new();
        for f in cur.drain(..) {
            for mut l in f.labels {
                l.mem = id.clone();
                l.tree = tree.to_owned();
                labels.push(l);
            }
        }
        out.push(MemoryOut { id, content, labels });
    };
    for f in fragments {
        if f.alone {
            let mut one = vec![f];
            flush(&mut one, &mut out);
            continue;
        }
        let n: usize = cur.iter().map(|f| f.labels.len()).sum();
        if n + f.labels.len() > cap {
            flush(&mut cur, &mut out);
            cap = rng.range(1, 4);
        }
        cur.push(f);
    }
    flush(&mut cur, &mut out);
    let _ = agents;
    out
}

/// One tree ready for memval: the repo with its history, and its memories (also written as
/// JSONL to `memories_path`).
pub struct Prepared {
    pub repo: PathBuf,
    pub memories: Vec<MemoryOut>,
    pub memories_path: PathBuf,
}

/// Build one tree (see [`build_tree`]), pack its memories and write them, and the refactors
/// that were done, into `work`. Tier B sentences come after the Tier A memories, one memory
/// each (`{tree}-b001`, ...), so the Tier A memories are the same with or without them.
pub fn prepare(t: &SourceTree, work: &Path, seed: u64, tier_b: usize, tier_b_offset: usize) -> Result<Prepared> {
    let built =
        build_tree(t, work, seed, tier_b, tier_b_offset).with_context(|| format!("building the {} repo", t.name))?;
    let mut rng = Rng::derive(seed ^ 0x5eed, &t.name);
    let mut memories = pack(&t.name, built.fragments, &mut rng);
    for (i, f) in built.tier_b.into_iter().enumerate() {
        let id = format!("{}-b{:03}", t.name, i + 1);
        let labels = f
            .labels
            .into_iter()
            .map(|mut l| {
                l.mem = id.clone();
                l.tree = t.name.clone();
                l
            })
            .collect();
        memories.push(MemoryOut { id, content: f.text, labels });
    }
    let memories_path = work.join(format!("{}.memories.jsonl", t.name));
    let agents = ["claude", "codex", "cursor"];
    let mut jsonl = String::new();
    for (i, m) in memories.iter().enumerate() {
        let line = json!({
            "id": m.id,
            "agent": agents[i % agents.len()],
            "content": m.content,
            "tier": (i % 2) as u8,
            "type": "memory",
            "created_at": MEMORY_DATE,
        });
        jsonl.push_str(&line.to_string());
        jsonl.push('\n');
    }
    std::fs::write(&memories_path, &jsonl)?;
    std::fs::write(work.join(format!("{}.refactors.txt", t.name)), built.notes.join("\n") + "\n")?;
    Ok(Prepared { repo: built.repo, memories, memories_path })
}

/// memval's JSON report of a run on `tree`; `Value::Null` (every label then counts as
/// MISSING), with a line saying why, when memval failed or printed no JSON.
pub fn report_of(tree: &str, run: &crate::MemvalRun) -> Value {
    if run.status.code() == Some(0) || run.status.code() == Some(1) {
        match serde_json::from_slice::<Value>(&run.stdout) {
            Ok(v) => v,
            Err(e) => {
                println!("  !! {tree}: memval output is not JSON ({e}); every label counts as MISSING");
                Value::Null
            }
        }
    } else {
        println!(
            "  !! {tree}: memval exited with {} ; every label counts as MISSING\n     stderr: {}",
            run.status,
            run.stderr.lines().take(5).collect::<Vec<_>>().join("\n             ")
        );
        Value::Null
    }
}

/// Precision, recall, F1, support and predicted count of verdict `v` over `outcomes`.
pub fn prf<'a>(outcomes: impl Iterator<Item = &'a Outcome> + Clone, v: V) -> (f64, f64, f64, usize, usize) {
    let tp = outcomes.clone().filter(|o| o.label.expected == v && o.got == v.as_str()).count();
    let pred = outcomes.clone().filter(|o| o.got == v.as_str()).count();
    let sup = outcomes.filter(|o| o.label.expected == v).count();
    let p = if pred > 0 { tp as f64 / pred as f64 } else { 0.0 };
    let r = if sup > 0 { tp as f64 / sup as f64 } else { 0.0 };
    let f1 = if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 };
    (p, r, f1, sup, pred)
}

pub fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

// ---------------------------------------------------------------------------------------
// Matching and scoring
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
pub struct Got {
    pub claim_type: String,
    pub claim_text: String,
    pub refs: Vec<(String, Option<String>, Option<u32>)>,
    pub verdict: String,
    pub confidence: i64,
    pub evidence: String,
    pub successor: Option<String>,
}

pub fn parse_report(v: &Value) -> HashMap<String, Vec<Got>> {
    let mut out: HashMap<String, Vec<Got>> = HashMap::new();
    let refs = |c: &Value| -> Vec<(String, Option<String>, Option<u32>)> {
        c["code_refs"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|r| {
                        (
                            r["path"].as_str().unwrap_or("").to_owned(),
                            r["symbol"].as_str().map(str::to_owned),
                            r["line"].as_u64().map(|l| l as u32),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    for m in v["memories"].as_array().into_iter().flatten() {
        let id = m["id"].as_str().unwrap_or("").to_owned();
        for c in m["claims"].as_array().into_iter().flatten() {
            out.entry(id.clone()).or_default().push(Got {
                claim_type: c["claim_type"].as_str().unwrap_or("").into(),
                claim_text: c["claim_text"].as_str().unwrap_or("").into(),
                refs: refs(c),
                verdict: c["verdict"].as_str().unwrap_or("?").into(),
                confidence: c["confidence"].as_i64().unwrap_or(-1),
                evidence: c["evidence"].as_str().unwrap_or("").into(),
                successor: c["successor"].as_str().map(str::to_owned),
            });
        }
    }
    for n in v["not_checked"].as_array().into_iter().flatten() {
        let id = n["memory_id"].as_str().unwrap_or("").to_owned();
        out.entry(id).or_default().push(Got {
            claim_type: n["claim_type"].as_str().unwrap_or("").into(),
            claim_text: n["claim_text"].as_str().unwrap_or("").into(),
            refs: refs(n),
            verdict: "NOT_CHECKED".into(),
            confidence: -1,
            evidence: n["reason"].as_str().unwrap_or("").into(),
            successor: None,
        });
    }
    out
}

fn norm_path(p: &str) -> &str {
    let p = p.trim().trim_matches('`');
    let p = p.strip_prefix("./").unwrap_or(p);
    p.trim_end_matches('/')
}

/// Equal, or one is a `/`-suffix of the other.
fn path_eq(a: &str, b: &str) -> bool {
    let (a, b) = (norm_path(a), norm_path(b));
    if a.is_empty() || b.is_empty() {
        return false;
    }
    a == b || a.ends_with(&format!("/{b}")) || b.ends_with(&format!("/{a}"))
}

fn last_segment(s: &str) -> &str {
    let s = s.trim().trim_matches('`').trim_end_matches("()");
    let s = s.rsplit("::").next().unwrap_or(s);
    s.rsplit('.').next().unwrap_or(s)
}

fn sym_eq(label: &str, got: &str) -> bool {
    let g = got.trim().trim_matches('`').trim_end_matches("()");
    label == g || last_segment(label) == last_segment(g)
}

/// Does claim `g` answer label `l` at matching strictness `tier` (1 strict .. 3 loose)?
fn matches(l: &Label, g: &Got, tier: u8) -> bool {
    let lp = l.path.as_deref().unwrap_or("");
    match l.kind {
        Kind::File | Kind::Dir => g.refs.iter().any(|(p, s, line)| match tier {
            1 => norm_path(p) == norm_path(lp) && s.is_none() && line.is_none(),
            2 => path_eq(p, lp) && s.is_none() && line.is_none(),
            _ => path_eq(p, lp) && s.is_none(),
        }),
        Kind::Symbol | Kind::Method => {
            let ls = l.symbol.as_deref().unwrap();
            g.refs.iter().any(|(p, s, _)| {
                let Some(s) = s else { return false };
                match tier {
                    1 => s.trim_matches('`') == ls && (l.path.is_none() || path_eq(p, lp)),
                    2 => sym_eq(ls, s) && (l.path.is_none() || path_eq(p, lp) || p == "."),
                    _ => sym_eq(ls, s),
                }
            })
        }
        Kind::Line => g.refs.iter().any(|(p, s, line)| match tier {
            1 => path_eq(p, lp) && *line == l.line && s.is_none(),
            2 => path_eq(p, lp) && *line == l.line,
            _ => {
                path_eq(p, lp)
                    && (g.claim_text.contains(&format!(":{}", l.line.unwrap()))
                        || g.claim_text.contains(&format!("{}", l.line.unwrap())))
            }
        }),
        Kind::SymLine => {
            let ls = l.symbol.as_deref().unwrap();
            g.refs.iter().any(|(p, s, line)| match tier {
                1 => s.as_deref().is_some_and(|s| sym_eq(ls, s)) && *line == l.line,
                2 => s.as_deref().is_some_and(|s| sym_eq(ls, s)) && (path_eq(p, lp) || p == "."),
                _ => path_eq(p, lp) && *line == l.line,
            })
        }
        // One sentence in a memory of its own: the claim memval made of the sentence (not of
        // a file or symbol in it), by subject and object, whichever Tier B type it was given.
        Kind::Calls | Kind::Field | Kind::Async | Kind::Feature => {
            let sentence = matches!(g.claim_type.as_str(), "behavioral" | "architectural" | "configuration");
            let subject = l.symbol.as_deref().unwrap();
            let object = l.key.as_deref().unwrap();
            sentence && g.claim_text.contains(subject) && g.claim_text.contains(object)
        }
        Kind::Config | Kind::Const => {
            let key = l.key.as_deref().unwrap();
            let in_file = g.refs.iter().any(|(p, _, _)| path_eq(p, lp));
            match tier {
                1 => g.claim_type == "configuration" && in_file && g.claim_text.contains(key),
                2 => g.claim_type == "configuration" && g.claim_text.contains(key),
                _ => g.claim_text.contains(key) && in_file,
            }
        }
    }
}

fn norm_value(s: &str) -> &str {
    s.trim().trim_matches('`').trim_matches('"').trim_matches('\'')
}

fn successor_ok(l: &Label, got: Option<&str>) -> bool {
    let (Some(e), Some(g)) = (l.successor.as_deref(), got) else { return false };
    let (e, g) = (norm_value(e), norm_value(g));
    if e == g {
        return true;
    }
    let split = |s: &str| -> Option<(String, u32)> {
        let (p, n) = s.rsplit_once(':')?;
        Some((p.to_owned(), n.parse().ok()?))
    };
    match l.kind {
        Kind::Line | Kind::SymLine => match (split(e), split(g)) {
            (Some((ep, en)), Some((gp, gn))) => en == gn && path_eq(&ep, &gp),
            _ => false,
        },
        Kind::Symbol | Kind::Method if !e.contains('/') && !e.contains('.') => last_segment(e) == last_segment(g),
        Kind::Config | Kind::Const => false,
        Kind::Calls | Kind::Field | Kind::Async | Kind::Feature => false,
        _ => path_eq(e, g),
    }
}

pub struct Outcome {
    pub label: Label,
    pub got: String,
    pub got_claim: Option<Got>,
    pub successor_ok: bool,
    pub memory_text: String,
}

pub fn score_tree(memories: &[MemoryOut], report: &HashMap<String, Vec<Got>>) -> Vec<Outcome> {
    let mut out = Vec::new();
    for m in memories {
        let mut gots: Vec<(Got, bool)> =
            report.get(&m.id).cloned().unwrap_or_default().into_iter().map(|g| (g, false)).collect();
        let mut found: Vec<Option<usize>> = vec![None; m.labels.len()];
        for tier in 1..=3u8 {
            for (li, l) in m.labels.iter().enumerate() {
                if found[li].is_some() {
                    continue;
                }
                if let Some(gi) = gots.iter().position(|(g, used)| !used && matches(l, g, tier)) {
                    gots[gi].1 = true;
                    found[li] = Some(gi);
                }
            }
        }
        for (li, l) in m.labels.iter().enumerate() {
            let (got, claim) = match found[li] {
                Some(gi) => (gots[gi].0.verdict.clone(), Some(gots[gi].0.clone())),
                None => ("MISSING".to_owned(), None),
            };
            let sok = claim.as_ref().is_some_and(|c| c.verdict == "STALE" && successor_ok(l, c.successor.as_deref()));
            out.push(Outcome {
                label: l.clone(),
                got,
                got_claim: claim,
                successor_ok: sok,
                memory_text: m.content.clone(),
            });
        }
    }
    out
}
