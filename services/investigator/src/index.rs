//! One index of the repo per run: every file the walk sees (honouring `.gitignore`), every
//! directory, and which files mention which identifiers. Claims are answered from it, not by
//! a grep each.
//!
//! Symbol definitions (tree-sitter) are parsed per file on first need and cached: a claim
//! names a file, or a symbol whose candidate files the identifier index narrows down, so a
//! run parses the files its claims touch instead of the whole tree.
//!
//! The index is a snapshot (one run, or one `HEAD` in a service): what it reads from disk
//! for a claim (a file's text, whether a path stays inside the root) is kept for its
//! lifetime, within bounds, since a run asks about the same files again and again.
//!
//! Per run (or per `HEAD` in a service) one `RepoIndex`: a `.gitignore`-aware walk (`ignore`
//! crate; `.git` and `.memval` skipped; symlinks recorded but never followed, a dangling one
//! recorded as such and never VALID; FIFOs, sockets and devices recorded by type and never
//! opened, since opening one can block forever), every directory, line counts, and an identifier
//! index (identifier → files that mention it), built in parallel (rayon). Binary files (a NUL in
//! the first 8 KiB), files over 2 MiB (`MAX_PARSE_BYTES`) and symlinks are indexed by name only;
//! non-UTF-8 text is read lossily. Symbol definitions are parsed per file on first need
//! (`symbols`, Rust skimmed first by `skim`) and cached: a claim names its file, or the identifier
//! index narrows a bare symbol to the files that mention it, so a run parses the files its claims
//! touch, not the whole tree, and claims are answered from the index, not by a grep each. File
//! texts and `realpath` confinement answers are kept for the index's lifetime (bounded), as are
//! old file versions read from git; a symbol missing from a file whose old version is its current
//! text is not parsed again from history. These caches are what make the investigator fast
//! enough for the throughput benchmark (BENCHMARKS.md §3).
//!
//! `unique_def`: since only "exactly one" is an answer, the search of a level (and of the whole
//! repo for a symbol whose file is gone) stops at the second definition; the caller in `check/anywhere.rs`
//! hands it the candidates nearest level first and, within a level, smallest files first (by line
//! count). On
//! the speed benchmark's registry tree these candidate parses were two thirds of all parsing (a
//! name like `default` or `Error` is mentioned by thousands of files and defined in hundreds).
//! `--log memval::parse=debug` logs each file parsed, its size and time.
//!
//! **Architecture Invariant:** the order candidates are parsed in never changes a verdict: a
//! stopped search answers "several" only when two definitions were found, and "one" or "none"
//! only after every candidate of the level was parsed.
//!
//! `ignored_by` reads the `.gitignore` of the root and of each folder on the way down (used to
//! leave git-ignored paths not checked, see `check/search.rs`, "words that are not references").

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use crate::confine::{Refusal, RepoRoot};
pub use crate::names::{basename, identifiers};
use crate::symbols::{definitions, Def, Lang};
use crate::tree_words::{manifest_name, TreeWords, MANIFESTS};

/// Files larger than this are indexed by name only: no symbols, no content checks.
pub const MAX_PARSE_BYTES: u64 = 2 * 1024 * 1024;
/// How much of a file is sniffed for a NUL byte to call it binary.
const SNIFF_BYTES: usize = 8 * 1024;
/// Texts kept per index at most (bytes); when full the cache starts over.
const TEXT_CACHE_BYTES: usize = 64 * 1024 * 1024;
/// Confinement answers kept per index at most; when full the cache starts over.
const RESOLVE_CACHE_ENTRIES: usize = 200_000;

/// What is at `rel` below `root` now, as far as a check can tell: absent, or its kind, size
/// and modification time (a symlink's own and its target's). Refused paths (climbing out, absolute)
/// are never looked at and stamp as such.
pub fn stamp(root: &Path, rel: &str) -> String {
    let Ok(rel) = RepoRoot::normalise(rel) else { return "refused".into() };
    let path = root.join(rel);
    let describe = |m: std::io::Result<std::fs::Metadata>| match m {
        Ok(m) => format!("{:?} {} {:?}", m.file_type(), m.len(), m.modified().ok()),
        Err(e) => format!("{:?}", e.kind()),
    };
    format!("{} / {}", describe(std::fs::symlink_metadata(&path)), describe(std::fs::metadata(&path)))
}

/// What the index has read from disk for claims.
#[derive(Default)]
struct Reads {
    texts: HashMap<String, Option<Arc<str>>>,
    text_bytes: usize,
    resolved: HashMap<String, Result<Option<PathBuf>, Refusal>>,
    /// Paths looked up that the walk did not index (ignored or absent), with their [`stamp`]
    /// when first looked up: what a kept verdict depends on besides the tree (`kept.rs`).
    outside: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Text,
    Binary,
    /// Too large to parse; exists, nothing more is known.
    Huge,
    /// A symlink (never followed by the index) whose target exists.
    Symlink,
    /// A symlink whose target does not exist.
    BrokenSymlink,
    /// A FIFO, socket or device: never opened (reading one can block forever).
    Special,
}

#[derive(Debug)]
pub struct FileInfo {
    pub path: String,
    pub kind: FileKind,
    pub lines: u32,
    /// Definitions, parsed on first use.
    defs: OnceLock<Vec<Def>>,
}

/// What [`RepoIndex::unique_def`] found.
#[derive(Debug)]
pub enum Unique<'a> {
    None,
    One(&'a FileInfo, &'a Def),
    /// Two or more; the search stopped at the second.
    Several,
}

impl FileInfo {
    /// Whether its definitions have been parsed (they are parsed on first need only).
    pub fn is_parsed(&self) -> bool {
        self.defs.get().is_some()
    }
}

#[derive(Debug, Default)]
pub struct IndexStats {
    pub files: usize,
    pub text_files: usize,
    pub identifiers: usize,
    pub lines: u64,
}

pub struct RepoIndex {
    pub root: RepoRoot,
    files: Vec<FileInfo>,
    by_path: HashMap<String, u32>,
    /// Directory → number of files below it.
    dirs: HashMap<String, u32>,
    by_basename: HashMap<String, Vec<u32>>,
    /// File name without its last extension → files (`client.js` and `client.ts` share one).
    by_stem: HashMap<String, Vec<u32>>,
    /// Last segment of a directory → directories with that name.
    dirs_by_name: HashMap<String, Vec<String>>,
    /// Identifier → the text files it occurs in (ascending).
    tokens: HashMap<Box<str>, Vec<u32>>,
    pub stats: IndexStats,
    reads: Mutex<Reads>,
    /// Whether a name is used by the repo's code ([`crate::usage::used_in_code`]), per name
    /// asked (one entry per distinct symbol name of the run's claims).
    pub(crate) used: Mutex<HashMap<Box<str>, bool>>,
    /// Folders by their words and package names by their keys, made on first need (only the
    /// search without history asks; [`TreeWords`]).
    pub(crate) tree_words: OnceLock<TreeWords>,
    /// Each folder's `.gitignore` as read on first need (`None`: the folder has none, or it
    /// could not be read), for [`RepoIndex::ignored_by`].
    ignores: Mutex<HashMap<String, Option<Arc<ignore::gitignore::Gitignore>>>>,
    /// Where parsed definitions are kept between runs, by file content (`kept.rs`).
    kept: Option<Arc<dyn memval_git::Cache>>,
}

impl RepoIndex {
    /// Walk and parse the repo. CPU-bound: call from a blocking thread.
    pub fn build(root: &Path) -> std::io::Result<RepoIndex> {
        let root = RepoRoot::new(root)?;
        let mut entries = Vec::new();
        let walker = ignore::WalkBuilder::new(root.path())
            .hidden(false)
            .git_ignore(true)
            .git_exclude(true)
            .git_global(false)
            .require_git(false)
            .parents(false)
            .follow_links(false)
            .filter_entry(|e| e.file_name() != ".git" && e.file_name() != ".memval")
            .build();
        for entry in walker.flatten() {
            let Some(file_type) = entry.file_type() else { continue };
            if file_type.is_dir() {
                continue;
            }
            let Ok(rel) = entry.path().strip_prefix(root.path()) else { continue };
            let Some(rel) = rel.to_str() else { continue };
            // Refused by type before anything opens it: a FIFO would block the walk.
            let kind = if file_type.is_symlink() {
                Some(if std::fs::metadata(entry.path()).is_ok() { FileKind::Symlink } else { FileKind::BrokenSymlink })
            } else if file_type.is_file() {
                None
            } else {
                Some(FileKind::Special)
            };
            entries.push((rel.replace('\\', "/"), kind));
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let scanned: Vec<(FileInfo, Vec<Box<str>>)> =
            entries.into_par_iter().map(|(rel, kind)| index_file(root.path(), rel, kind)).collect();
        let mut index = RepoIndex {
            root,
            by_path: HashMap::with_capacity(scanned.len()),
            dirs: HashMap::new(),
            by_basename: HashMap::new(),
            by_stem: HashMap::new(),
            dirs_by_name: HashMap::new(),
            tokens: HashMap::new(),
            stats: IndexStats::default(),
            files: Vec::new(),
            reads: Mutex::new(Reads::default()),
            used: Mutex::new(HashMap::new()),
            tree_words: OnceLock::new(),
            ignores: Mutex::new(HashMap::new()),
            kept: None,
        };
        let mut files = Vec::with_capacity(scanned.len());
        for (i, (file, tokens)) in scanned.into_iter().enumerate() {
            for token in tokens {
                index.tokens.entry(token).or_default().push(i as u32);
            }
            files.push(file);
        }
        for (i, file) in files.iter().enumerate() {
            let i = i as u32;
            index.by_path.insert(file.path.clone(), i);
            let mut dir = file.path.as_str();
            while let Some((parent, _)) = dir.rsplit_once('/') {
                *index.dirs.entry(parent.to_owned()).or_default() += 1;
                dir = parent;
            }
            let name = basename(&file.path);
            index.by_basename.entry(name.to_owned()).or_default().push(i);
            if let Some((stem, _)) = name.rsplit_once('.') {
                index.by_stem.entry(stem.to_owned()).or_default().push(i);
            }
            index.stats.lines += u64::from(file.lines);
            index.stats.text_files += usize::from(file.kind == FileKind::Text);
        }
        for dir in index.dirs.keys() {
            index.dirs_by_name.entry(basename(dir).to_owned()).or_default().push(dir.clone());
        }
        for dirs in index.dirs_by_name.values_mut() {
            dirs.sort_unstable();
        }
        index.stats.identifiers = index.tokens.len();
        index.stats.files = files.len();
        index.files = files;
        Ok(index)
    }

    /// The same index, keeping parsed definitions in `cache` between runs.
    pub fn with_cache(mut self, cache: Arc<dyn memval_git::Cache>) -> RepoIndex {
        self.kept = Some(cache);
        self
    }

    /// A memory's own file relative to the repository, when the memory is one file of it whose
    /// lines map one to one (a notes file or doc, not a row of a JSON file).
    pub fn memory_file(&self, memory: &memval_proto::MemoryMeta) -> Option<String> {
        if memory.source.line.is_some() || memory.source.format != "notes" {
            return None;
        }
        let file = Path::new(&memory.source.path).canonicalize().ok()?;
        let rel = file.strip_prefix(self.root.path()).ok()?;
        let rel = rel.components().map(|c| c.as_os_str().to_str()).collect::<Option<Vec<_>>>()?.join("/");
        (!rel.is_empty()).then_some(rel)
    }

    pub fn file(&self, path: &str) -> Option<&FileInfo> {
        self.by_path.get(path).map(|&i| &self.files[i as usize])
    }

    pub fn file_at(&self, i: u32) -> &FileInfo {
        &self.files[i as usize]
    }

    pub fn is_dir(&self, path: &str) -> bool {
        path == "." || self.dirs.contains_key(path)
    }

    /// A file or a folder of the tree is at `path`.
    pub fn has(&self, path: &str) -> bool {
        self.file(path).is_some() || self.is_dir(path)
    }

    pub fn dir_file_count(&self, path: &str) -> u32 {
        if path == "." {
            self.files.len() as u32
        } else {
            self.dirs.get(path).copied().unwrap_or(0)
        }
    }

    pub fn files_named(&self, basename: &str) -> &[u32] {
        self.by_basename.get(basename).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Directories whose last segment is `name`.
    pub fn dirs_named(&self, name: &str) -> Vec<&str> {
        self.dirs_by_name.get(name).into_iter().flatten().map(String::as_str).collect()
    }

    /// Every directory that holds a file (repo-relative, no trailing `/`).
    pub fn dirs(&self) -> impl Iterator<Item = &str> + Clone {
        self.dirs.keys().map(String::as_str)
    }

    /// Files whose name, without its last extension, is `stem`.
    pub fn files_with_stem(&self, stem: &str) -> &[u32] {
        self.by_stem.get(stem).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The names directly inside folder `dir` (`""` or `.` for the root), each with whether it
    /// is a folder, sorted. Walks every file: for the rare path that needs a folder's listing.
    pub fn children(&self, dir: &str) -> Vec<(String, bool)> {
        let prefix =
            if dir.is_empty() || dir == "." { String::new() } else { format!("{}/", dir.trim_end_matches('/')) };
        let mut seen = std::collections::BTreeMap::new();
        for file in &self.files {
            let Some(rest) = file.path.strip_prefix(&prefix) else { continue };
            match rest.split_once('/') {
                Some((folder, _)) => {
                    seen.insert(folder.to_owned(), true);
                }
                None => {
                    seen.entry(rest.to_owned()).or_insert(false);
                }
            }
        }
        seen.into_iter().collect()
    }

    /// The names the project goes by: its folder's name and the title of its root README (a
    /// first-level heading of one word, `# whisper.cpp`).
    pub fn project_names(&self) -> Vec<String> {
        let mut names: Vec<String> =
            self.root.path().file_name().and_then(|n| n.to_str()).map(str::to_owned).into_iter().collect();
        let readme = ["README.md", "README", "readme.md", "Readme.md"].into_iter().find(|r| self.file(r).is_some());
        if let Some(text) = readme.and_then(|r| self.read_text(r)) {
            let title = text.lines().find_map(|l| l.strip_prefix("# ")).map(str::trim);
            if let Some(title) = title.filter(|t| !t.is_empty() && !t.contains(char::is_whitespace)) {
                names.push(title.trim_matches('`').to_owned());
            }
        }
        names
    }

    pub fn files(&self) -> impl Iterator<Item = (u32, &FileInfo)> {
        self.files.iter().enumerate().map(|(i, f)| (i as u32, f))
    }

    /// Definitions in `file` (parsed on first call, then cached).
    pub fn defs<'a>(&'a self, file: &'a FileInfo) -> &'a [Def] {
        file.defs.get_or_init(|| match self.read_text(&file.path) {
            Some(text) => {
                let started = std::time::Instant::now();
                let lang = Lang::of(&file.path);
                let key = self.kept.as_ref().map(|_| crate::kept_defs::defs_key(lang, &text));
                let kept = self.kept.as_ref().zip(key.as_deref()).and_then(|(cache, key)| cache.get(key));
                if let Some(defs) = kept.as_deref().and_then(crate::kept_defs::decode_defs) {
                    return defs;
                }
                let defs = definitions(lang, &text);
                if let (Some(cache), Some(key), Some(bytes)) = (&self.kept, &key, crate::kept_defs::encode_defs(&defs))
                {
                    cache.put(key, &bytes);
                }
                // Which files a run parses, and what each costs (`--log memval::parse=debug`):
                // parsing is most of a large run's time.
                tracing::debug!(
                    target: "memval::parse",
                    path = %memval_proto::display::terminal_safe(&file.path),
                    bytes = text.len(),
                    micros = started.elapsed().as_micros() as u64,
                    defs = defs.len(),
                    "parsed"
                );
                defs
            }
            None => Vec::new(),
        })
    }

    /// Definitions in the file at `path`; empty when there is none.
    pub fn defs_at(&self, path: &str) -> &[Def] {
        self.file(path).map(|f| self.defs(f)).unwrap_or(&[])
    }

    /// Files whose text has `name` as an identifier (whether or not they define it).
    pub fn files_with_token<'a>(&'a self, name: &str) -> impl Iterator<Item = &'a FileInfo> + 'a {
        self.tokens.get(name).into_iter().flatten().map(move |&i| &self.files[i as usize])
    }

    /// Definitions of `name` in `file` (parsed on first need).
    pub fn defs_named_in<'a>(&'a self, file: &'a FileInfo, name: &'a str) -> impl Iterator<Item = &'a Def> + 'a {
        self.defs(file).iter().filter(move |d| &*d.name == name)
    }

    /// Definitions of `name` anywhere in the repo: only files that mention the identifier
    /// are parsed.
    pub fn defs_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = (&'a FileInfo, &'a Def)> + 'a {
        self.files_with_token(name).flat_map(move |file| self.defs_named_in(file, name).map(move |d| (file, d)))
    }

    /// Whether `files` hold no definition of `name` that `keep` accepts, exactly one, or
    /// several. Files are parsed in the order given and the search stops at the second
    /// definition: callers that only need a unique answer do not parse the rest (a common
    /// name is mentioned by thousands of files).
    pub fn unique_def<'a>(
        &'a self,
        files: impl IntoIterator<Item = &'a FileInfo>,
        name: &'a str,
        keep: impl Fn(&FileInfo, &Def) -> bool,
    ) -> Unique<'a> {
        let mut found = None;
        for file in files {
            for def in self.defs_named_in(file, name).filter(|d| keep(file, d)) {
                if found.is_some() {
                    return Unique::Several;
                }
                found = Some((file, def));
            }
        }
        match found {
            Some((file, def)) => Unique::One(file, def),
            None => Unique::None,
        }
    }

    /// [`RepoRoot::resolve_existing`], asked of the file system once per path for the
    /// index's lifetime (each answer is a `realpath`, a `readlink` per path component).
    pub fn resolve_existing(&self, rel: &str) -> Result<Option<PathBuf>, Refusal> {
        if let Some(known) = self.reads.lock().expect("read cache poisoned").resolved.get(rel) {
            return known.clone();
        }
        let answer = self.root.resolve_existing(rel);
        let outside = (self.file(rel).is_none() && !self.is_dir(rel)).then(|| stamp(self.root.path(), rel));
        let mut reads = self.reads.lock().expect("read cache poisoned");
        if let Some(stamp) = outside {
            reads.outside.entry(rel.to_owned()).or_insert(stamp);
        }
        if reads.resolved.len() >= RESOLVE_CACHE_ENTRIES {
            reads.resolved.clear();
        }
        reads.resolved.insert(rel.to_owned(), answer.clone());
        answer
    }

    /// The paths looked up so far that the walk did not index, with their [`stamp`].
    pub fn outside_reads(&self) -> Vec<(String, String)> {
        let reads = self.reads.lock().expect("read cache poisoned");
        reads.outside.iter().map(|(p, s)| (p.clone(), s.clone())).collect()
    }

    /// Read a text file of the repo (confined to the root). `None` for anything that is
    /// missing, binary, huge, a symlink, or outside the root. Read from disk once per index.
    pub fn read_text(&self, path: &str) -> Option<Arc<str>> {
        if let Some(known) = self.reads.lock().expect("read cache poisoned").texts.get(path) {
            return known.clone();
        }
        let text: Option<Arc<str>> = self.read_text_from_disk(path).map(Arc::from);
        let mut reads = self.reads.lock().expect("read cache poisoned");
        let size = text.as_ref().map_or(0, |t| t.len()) + path.len();
        if reads.text_bytes + size > TEXT_CACHE_BYTES {
            reads.texts.clear();
            reads.text_bytes = 0;
        }
        reads.text_bytes += size;
        reads.texts.insert(path.to_owned(), text.clone());
        text
    }

    fn read_text_from_disk(&self, path: &str) -> Option<String> {
        if let Some(info) = self.file(path) {
            if info.kind != FileKind::Text {
                return None;
            }
        }
        // Not indexed (ignored by .gitignore) still reads, confined and size-capped.
        let real = self.resolve_existing(path).ok()??;
        let meta = std::fs::metadata(&real).ok()?;
        if !meta.is_file() || meta.len() > MAX_PARSE_BYTES {
            return None;
        }
        let bytes = std::fs::read(real).ok()?;
        if bytes[..bytes.len().min(SNIFF_BYTES)].contains(&0) {
            return None;
        }
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Every identifier of the repo's text files, in no particular order.
    pub fn tokens(&self) -> impl Iterator<Item = &str> {
        self.tokens.keys().map(|k| &**k)
    }

    /// Whether `token` occurs as an identifier anywhere in the repo's text files.
    pub fn mentions(&self, token: &str) -> bool {
        self.tokens.contains_key(token)
    }

    /// Names that carry `affix` as a part (`_int` in `test_edge_int`, `test_` in
    /// `test_parse`): identifiers of the text files and file names, excluding `affix` itself.
    /// How many there are and the first few (sorted), for a memory that names a convention.
    pub fn names_with_affix(&self, affix: &str, shown: usize) -> (usize, Vec<String>) {
        let carries = |name: &str| name != affix && name.contains(affix);
        let mut found: Vec<&str> = self.tokens.keys().map(|k| &**k).filter(|k| carries(k)).collect();
        found.extend(self.by_basename.keys().map(String::as_str).filter(|k| carries(k)));
        found.sort_unstable();
        found.dedup();
        (found.len(), found.iter().take(shown).map(|s| s.to_string()).collect())
    }

    /// The `.gitignore` (its repo-relative path and the pattern) that makes git ignore `rel`,
    /// a path that is not in the tree: the root's and those of the folders on the way down
    /// that exist, the deepest with a say deciding, as in git. Read through the confined root.
    pub fn ignored_by(&self, rel: &str, is_dir: bool) -> Option<(String, String)> {
        let rel = rel.trim_end_matches('/');
        let segments: Vec<&str> = rel.split('/').collect();
        let mut verdict = None;
        for depth in 0..segments.len() {
            let dir = segments[..depth].join("/");
            if depth > 0 && !self.is_dir(&dir) {
                break;
            }
            let Some(gi) = self.gitignore_of(&dir) else { continue };
            let below = segments[depth..].join("/");
            match gi.matched_path_or_any_parents(Path::new(&below), is_dir) {
                ignore::Match::Ignore(glob) => {
                    let file = if dir.is_empty() { ".gitignore".to_owned() } else { format!("{dir}/.gitignore") };
                    verdict = Some((file, glob.original().to_owned()));
                }
                ignore::Match::Whitelist(_) => verdict = None,
                ignore::Match::None => {}
            }
        }
        verdict
    }

    /// The `.gitignore` rule, if any, that ignores what is put inside the folder `rel`, not the
    /// folder itself (`test/data/reference-output/odr-*/`): the folder is where a build or a
    /// fetch puts its output. Read from the `.gitignore` of `rel`'s folders that exist, with the
    /// rule's path taken from that file's folder; a negated rule does not count. The rule ignores
    /// a kind of thing put there (a wildcard below the folder): one named subfolder ignored
    /// (`mettascope/dist/`) is the build output of a folder of sources, which says nothing of
    /// the folder itself.
    pub fn ignores_inside(&self, rel: &str) -> Option<(String, String)> {
        let rel = rel.trim_end_matches('/');
        let segments: Vec<&str> = rel.split('/').collect();
        for depth in 0..segments.len() {
            let dir = segments[..depth].join("/");
            if depth > 0 && !self.is_dir(&dir) {
                break;
            }
            let file = if dir.is_empty() { ".gitignore".to_owned() } else { format!("{dir}/.gitignore") };
            let Some(text) = self.read_text(&file) else { continue };
            let below = format!("{}/", segments[depth..].join("/"));
            for line in text.lines().map(str::trim) {
                let rule = line.strip_prefix('/').unwrap_or(line);
                let kind_of_thing = rule.get(below.len()..).is_some_and(|rest| rest.contains(['*', '?', '[']));
                if !line.starts_with(['#', '!']) && rule.starts_with(&below) && kind_of_thing {
                    return Some((file, line.to_owned()));
                }
            }
        }
        None
    }

    fn gitignore_of(&self, dir: &str) -> Option<Arc<ignore::gitignore::Gitignore>> {
        let mut known = self.ignores.lock().expect("ignore cache poisoned");
        if let Some(gi) = known.get(dir) {
            return gi.clone();
        }
        let file = if dir.is_empty() { ".gitignore".to_owned() } else { format!("{dir}/.gitignore") };
        let read = match self.root.resolve_existing(&file) {
            Ok(Some(path)) if path.is_file() => {
                // Errors in single lines leave the lines that did parse, as git does.
                let (gi, _bad_lines) = ignore::gitignore::Gitignore::new(&path);
                Some(Arc::new(gi))
            }
            _ => None,
        };
        known.insert(dir.to_owned(), read.clone());
        read
    }
}

/// What the second look without history asks of the whole tree ([`TreeWords`]), computed on
/// first use: every folder's words, and every package's (folder, name) from its manifest.
impl RepoIndex {
    pub(crate) fn tree_words(&self) -> &TreeWords {
        self.tree_words.get_or_init(|| {
            let mut packages = Vec::new();
            for manifest in MANIFESTS {
                for &i in self.files_named(manifest) {
                    let path = &self.file_at(i).path;
                    if let Some(name) = self.read_text(path).and_then(|text| manifest_name(manifest, &text)) {
                        packages.push((path.rsplit_once('/').map_or("", |(d, _)| d).to_owned(), name));
                    }
                }
            }
            TreeWords::new(self.files.iter().map(|f| f.path.as_str()), self.dirs(), packages)
        })
    }
}

/// Identifiers longer than this are not worth indexing (generated data, hashes).
const MAX_TOKEN: usize = 100;

/// `kind` is set for what is never read (symlinks, special files); `None` for a regular file.
fn index_file(root: &Path, rel: String, kind: Option<FileKind>) -> (FileInfo, Vec<Box<str>>) {
    let mut info = FileInfo { path: rel, kind: kind.unwrap_or(FileKind::Symlink), lines: 0, defs: OnceLock::new() };
    if kind.is_some() {
        return (info, Vec::new());
    }
    let full = root.join(&info.path);
    let Ok(mut file) = std::fs::File::open(&full) else {
        info.kind = FileKind::Binary;
        return (info, Vec::new());
    };
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size > MAX_PARSE_BYTES {
        info.kind = FileKind::Huge;
        return (info, Vec::new());
    }
    let mut bytes = Vec::with_capacity(size as usize);
    if file.read_to_end(&mut bytes).is_err() {
        info.kind = FileKind::Binary;
        return (info, Vec::new());
    }
    if bytes[..bytes.len().min(SNIFF_BYTES)].contains(&0) {
        info.kind = FileKind::Binary;
        return (info, Vec::new());
    }
    info.kind = FileKind::Text;
    let text = String::from_utf8_lossy(&bytes);
    info.lines = text.lines().count() as u32;
    let mut seen: HashSet<&str> = HashSet::new();
    let tokens = identifiers(&text)
        .filter(|t| t.len() >= 2 && t.len() <= MAX_TOKEN && seen.insert(t))
        .map(Box::<str>::from)
        .collect();
    (info, tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(files: &[(&str, &str)]) -> (tempfile::TempDir, RepoIndex) {
        let dir = tempfile::tempdir().expect("temp dir");
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
            std::fs::write(full, text).expect("write");
        }
        let index = RepoIndex::build(dir.path()).expect("index");
        (dir, index)
    }

    fn parsed(index: &RepoIndex) -> Vec<&str> {
        index.files().filter(|(_, f)| f.is_parsed()).map(|(_, f)| f.path.as_str()).collect()
    }

    #[test]
    fn unique_def_stops_at_the_second_definition() {
        let (_dir, index) = repo(&[
            ("a.rs", "pub struct Foo;\n"),
            ("b.rs", "fn uses() { let x = Foo; }\n"),
            ("c.rs", "pub fn Foo() {}\n"),
            ("d.rs", "pub enum Foo { A }\n"),
        ]);
        let files: Vec<&FileInfo> = index.files_with_token("Foo").collect();
        assert_eq!(files.len(), 4);
        assert!(matches!(index.unique_def(files, "Foo", |_, _| true), Unique::Several));
        // a.rs and c.rs hold the two definitions; d.rs was never parsed.
        assert_eq!(parsed(&index), ["a.rs", "b.rs", "c.rs"]);
    }

    #[test]
    fn unique_def_reads_every_file_for_one_or_none() {
        let (_dir, index) = repo(&[
            ("a.rs", "fn uses() { Foo::new(); }\n"),
            ("b.rs", "pub struct Foo;\n"),
            ("c.rs", "// Foo was here\n"),
            ("d.rs", "pub struct Bar;\n"),
        ]);
        let files: Vec<&FileInfo> = index.files_with_token("Foo").collect();
        match index.unique_def(files.clone(), "Foo", |_, _| true) {
            Unique::One(f, d) => assert_eq!((f.path.as_str(), d.line, d.kind), ("b.rs", 1, "struct")),
            other => panic!("expected one definition, got {other:?}"),
        }
        assert_eq!(parsed(&index), ["a.rs", "b.rs", "c.rs"]);
        // The filter decides what counts: without the struct there is none.
        assert!(matches!(index.unique_def(files.clone(), "Foo", |_, d| d.kind != "struct"), Unique::None));
        // Two definitions in one file are several too.
        let (_dir2, index2) = repo(&[("x.rs", "struct Foo;\nmod m { fn Foo() {} }\n")]);
        assert!(matches!(index2.unique_def(index2.files_with_token("Foo"), "Foo", |_, _| true), Unique::Several));
    }
}
