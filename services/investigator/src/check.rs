//! Deterministic (Tier A) verdicts: what the repo index and git history prove about a claim.
//!
//! Confidence is the strength of the evidence chain, from a fixed scale documented in
//! ARCHITECTURE.md: 100 for an exact match in the current tree, 95 for a rename or deletion
//! git recorded, lower for successors found only by similarity.

use std::sync::Arc;

use memval_proto::{Assertion, Claim, ClaimType, CodeRef, MemoryMeta, Outcome, UnixSeconds, Verdict};

use crate::confine::{Refusal, RepoRoot};
use crate::index::{basename, FileInfo, FileKind, RepoIndex, Unique};
use crate::similar::{body_similarity, name_similarity, shared_dirs};
use crate::symbols::{definitions, Def, Lang};
use crate::usage;
use memval_git::GitRepo;

/// Largest number of candidates quoted in an AMBIGUOUS verdict's evidence.
const MAX_LISTED: usize = 4;

pub struct Checker<'a> {
    pub index: &'a RepoIndex,
    pub git: Option<&'a GitRepo>,
    /// The memory the checked claims come from: its other references.
    pub context: &'a MemoryContext,
}

/// What the rest of a memory names, to read one of its references when the tree alone
/// leaves several readings (no history): the paths of all its claims, and the symbols it
/// places in each. Only ever compared with the tree; never read as an instruction.
#[derive(Debug, Default, Clone)]
pub struct MemoryContext {
    /// (path as the extractor resolved it, its other readings) for every reference.
    paths: Vec<(String, Vec<String>)>,
    /// (path, symbol) for every symbol the memory names in a file.
    symbols: Vec<(String, String)>,
}

static NO_CONTEXT: MemoryContext = MemoryContext { paths: Vec::new(), symbols: Vec::new() };

impl MemoryContext {
    /// The context of a claim checked on its own.
    pub fn none() -> &'static MemoryContext {
        &NO_CONTEXT
    }

    /// A path the memory names that exists at or under `prefix` (verbatim): the memory
    /// writes paths relative to that folder, or knows it.
    /// `prefix` or a folder above it counts (`src/index.ts` for `core/task.ts` found at
    /// `src/app/core/task.ts`: the memory knows `src/` and abbreviates inside it).
    fn names_under(&self, index: &RepoIndex, prefix: &str) -> Option<String> {
        let mut folder = prefix;
        while !folder.is_empty() {
            let under = format!("{folder}/");
            if let Some(p) = self
                .paths
                .iter()
                .map(|(p, _)| p)
                .find(|p| (**p == folder || p.starts_with(&under)) && (index.file(p).is_some() || index.is_dir(p)))
            {
                return Some(p.clone());
            }
            folder = folder.rsplit_once('/').map_or("", |(up, _)| up);
        }
        None
    }

    /// How many of the memory's other paths (not `except`, not there as written) exist under
    /// `prefix/`: references that went, or are written relative to, the same place.
    fn found_under(&self, index: &RepoIndex, prefix: &str, except: &str) -> usize {
        if prefix.is_empty() {
            return 0;
        }
        self.paths
            .iter()
            .filter(|(p, _)| p != except && index.file(p).is_none() && !index.is_dir(p))
            .filter(|(p, _)| {
                let moved = format!("{prefix}/{p}");
                index.file(&moved).is_some() || index.is_dir(&moved)
            })
            .count()
    }

    /// Whether another path of the memory in `old/` (not there as written, not `except`)
    /// is found in `new/` with the rest of its path kept: the folder moved.
    fn moved_along(&self, index: &RepoIndex, old: &str, new: &str, except: &str) -> bool {
        let under = format!("{old}/");
        self.paths.iter().any(|(p, _)| {
            p != except
                && index.file(p).is_none()
                && !index.is_dir(p)
                && p.strip_prefix(&under).is_some_and(|rest| {
                    let there = format!("{new}/{rest}");
                    index.file(&there).is_some() || index.is_dir(&there)
                })
        })
    }

    /// The memory's paths inside `folder/` that are not there as written.
    pub(crate) fn inside(&self, index: &RepoIndex, folder: &str) -> Vec<String> {
        let under = format!("{folder}/");
        self.paths
            .iter()
            .map(|(p, _)| p)
            .filter(|p| p.starts_with(&under) && index.file(p).is_none() && !index.is_dir(p))
            .cloned()
            .collect()
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
        self.paths.iter().any(|(p, _)| {
            p != except && (p == place || p.starts_with(&under)) && (index.file(p).is_some() || index.is_dir(p))
        })
    }

    /// Where the memory's other paths in `old/` (not `except`, not there as written) are found
    /// with the rest of their path kept: the one folder that holds at least two of them and
    /// more than any other, or `None`.
    pub(crate) fn moved_to(&self, index: &RepoIndex, old: &str, except: &str) -> Option<String> {
        let under = format!("{old}/");
        let mut votes: Vec<(String, usize)> = Vec::new();
        for (p, _) in &self.paths {
            if p == except || index.file(p).is_some() || index.is_dir(p) {
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
        votes.sort_by(|a, b| b.1.cmp(&a.1));
        match votes.as_slice() {
            [(best, n), rest @ ..] if *n >= 2 && rest.first().is_none_or(|(_, m)| m < n) => Some(best.clone()),
            _ => None,
        }
    }

    /// Whether another path of the memory (not `except`) exists in `folder` itself.
    fn existing_in(&self, index: &RepoIndex, folder: &str, except: &str) -> bool {
        self.paths.iter().any(|(p, alts)| {
            p != except
                && std::iter::once(p).chain(alts).any(|q| {
                    q.rsplit_once('/').map_or("", |(d, _)| d) == folder && (index.file(q).is_some() || index.is_dir(q))
                })
        })
    }

    /// The symbols the memory places in `path`.
    fn symbols_in(&self, path: &str) -> Vec<String> {
        let mut out: Vec<String> = self.symbols.iter().filter(|(p, _)| p == path).map(|(_, s)| s.clone()).collect();
        out.dedup();
        out
    }

    pub fn of(claims: &[Claim]) -> MemoryContext {
        let mut ctx = MemoryContext::default();
        for r in claims.iter().flat_map(|c| &c.code_refs) {
            let path = r.path.trim().trim_start_matches("./").trim_end_matches('/');
            if path.is_empty() || path == "." {
                continue;
            }
            if !ctx.paths.iter().any(|(p, _)| p == path) {
                ctx.paths.push((path.to_owned(), r.alt_paths.clone()));
            }
            if let Some(symbol) = &r.symbol {
                ctx.symbols.push((path.to_owned(), symbol.clone()));
            }
        }
        ctx
    }
}

/// Where a path named by a memory is now.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Located {
    /// Exists now at `path`; `note` says how it was found when not verbatim.
    Here {
        path: String,
        dir: bool,
        confidence: u8,
        note: Option<String>,
    },
    /// Gone from the named place; its successor exists at `to`.
    Moved {
        to: String,
        dir: bool,
        confidence: u8,
        evidence: String,
    },
    /// Gone, and nothing took its place.
    Gone {
        confidence: u8,
        evidence: String,
    },
    /// Several places could be meant.
    Unclear {
        candidates: Vec<String>,
    },
    /// A folder whose files history shows going to several places with no majority, and not
    /// gone (mostly deleted with no folder taking a quarter): no one successor. `candidates`:
    /// the folders its files went to, most first.
    Split {
        candidates: Vec<String>,
        evidence: String,
    },
    Refused(Refusal),
    /// Nothing of that name is or was in the repo, and the path says why it never was one of
    /// its files: an example (`path/to/file.ts`) or what git ignores (`dist/`). Not checked.
    NotInRepo(String),
}

/// Folders that conventionally sit at a repository's root: a path written starting with one
/// is written from the root.
const ROOT_FOLDERS: &[&str] = &[
    "src", "lib", "libs", "pkg", "cmd", "internal", "app", "apps", "packages", "crates", "proto", "tests", "test",
    "docs", "scripts", "bin",
];

fn checked(verdict: Verdict, confidence: u8, evidence: String, successor: Option<String>) -> Outcome {
    Outcome::Checked { verdict, confidence, evidence, successor }
}

/// Why a path is written as an example rather than a reference: the `path/to/` of
/// instructions, the `foo`/`bar` of examples, a `my_feature`/`your-app` stand-in. `None` for
/// anything else (the caller asks only about paths nothing in the repo is named like).
pub(crate) fn placeholder_path(path: &str) -> Option<&'static str> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segments.windows(2).any(|w| w[0].eq_ignore_ascii_case("path") && w[1].eq_ignore_ascii_case("to")) {
        return Some("`path/to/` stands for any path");
    }
    for segment in &segments {
        let lower = segment.to_ascii_lowercase();
        let stem = lower.split('.').next().unwrap_or(&lower);
        if stem.split(['_', '-']).any(|w| matches!(w, "foo" | "bar" | "baz" | "qux" | "quux" | "xxx" | "yyy" | "zzz")) {
            return Some("`foo`, `bar` and the like are example names");
        }
        if ["my_", "my-", "your_", "your-", "some_", "some-"].iter().any(|p| stem.starts_with(p)) {
            return Some("a `my_...`/`your_...` name stands for the reader's own");
        }
    }
    None
}

/// Whether two extensions are one kind of file, so a file can be renamed from one to the
/// other and stay the same file: one language's variants (`js`/`ts`/`tsx`, `c`/`cpp`/`h`),
/// spellings (`yml`/`yaml`), doc formats. Compared without case.
pub(crate) fn same_kind_of_file(a: &str, b: &str) -> bool {
    const KINDS: &[&[&str]] = &[
        &["js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts"],
        &["py", "pyi", "pyx"],
        &["c", "h", "cc", "hh", "cpp", "hpp", "cxx", "hxx"],
        &["java", "kt", "kts", "scala", "groovy"],
        &["sh", "bash", "zsh"],
        &["yml", "yaml"],
        &["json", "jsonc", "json5"],
        &["md", "mdx", "markdown", "rst", "adoc", "txt"],
        &["html", "htm"],
        &["css", "scss", "sass", "less"],
        &["ex", "exs"],
        &["toml", "ini", "cfg", "conf"],
    ];
    let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
    a == b || KINDS.iter().any(|kind| kind.contains(&a.as_str()) && kind.contains(&b.as_str()))
}

/// Prose (Markdown, text, HTML): it describes code and settings, it proves nothing of them.
fn is_prose(path: &str) -> bool {
    let ext = basename(path).rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    matches!(ext.as_deref(), Some("md" | "markdown" | "mdx" | "txt" | "rst" | "adoc" | "html" | "htm"))
}

pub(crate) fn list(candidates: &[String]) -> String {
    let mut shown: Vec<&str> = candidates.iter().take(MAX_LISTED).map(String::as_str).collect();
    if candidates.len() > MAX_LISTED {
        shown.push("...");
    }
    shown.join(", ")
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(10)]
}

/// A symbol as a memory writes it: `Type::method`, `Class.method`, `name()`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SymbolName {
    name: String,
    qualifier: Option<String>,
}

impl SymbolName {
    fn parse(raw: &str) -> SymbolName {
        let raw = raw.trim().trim_end_matches("()").trim_end_matches('!');
        let raw = raw.split(['(', '<', ' ']).next().unwrap_or(raw);
        let parts: Vec<&str> = raw.split("::").flat_map(|p| p.split('.')).filter(|p| !p.is_empty()).collect();
        match parts.as_slice() {
            [] => SymbolName { name: raw.to_owned(), qualifier: None },
            [one] => SymbolName { name: (*one).to_owned(), qualifier: None },
            [.., q, n] => SymbolName { name: (*n).to_owned(), qualifier: Some((*q).to_owned()) },
        }
    }

    /// Does `def` in `path` answer to this name? A qualifier matches the enclosing type, or
    /// a module (a path segment or file stem).
    fn matches(&self, path: &str, def: &Def) -> bool {
        if *def.name != *self.name {
            return false;
        }
        match &self.qualifier {
            None => true,
            Some(q) => {
                def.container.as_deref() == Some(q.as_str())
                    || path.split('/').any(|seg| seg == q || seg.split('.').next() == Some(q.as_str()))
                    || matches!(q.as_str(), "self" | "Self" | "crate" | "super" | "this")
            }
        }
    }

    fn display(&self) -> String {
        match &self.qualifier {
            Some(q) => format!("{q}::{}", self.name),
            None => self.name.clone(),
        }
    }
}

impl Checker<'_> {
    /// The verdict for one claim of `memory`.
    pub fn check(&self, claim: &Claim, memory: &MemoryMeta) -> Outcome {
        let since = memory.asserted_at();
        let mut refs = claim.code_refs.iter().filter(|r| !r.path.trim().is_empty());
        let Some(primary) = refs.next() else {
            return Outcome::NotChecked { reason: "claim has no code reference with a path".into() };
        };
        let first = match (&claim.assertion, claim.claim_type) {
            (Some(Assertion::ConfigValue { key, value }), _) => self.check_config(primary, key, value, since),
            (Some(Assertion::LineText { text }), _) => self.check_line_text(primary, text, since),
            (None, ClaimType::FileReference) => self.check_file(primary, since),
            (None, ClaimType::SymbolReference) => self.check_ref(primary, since),
            (None, tier_b) => return self.check_anchors(tier_b, &claim.code_refs, since),
        };
        // The assertion is about the first reference; every other one the claim names is
        // checked too (it exists, or where it went), so no reference goes unchecked.
        let rest: Vec<(&CodeRef, Outcome)> = refs.map(|r| (r, self.check_ref(r, since))).collect();
        if rest.is_empty() {
            return first;
        }
        combine(std::iter::once((primary, first)).chain(rest).collect())
    }

    /// Existence (and fate) of one reference: its symbol when it names one, else its path.
    fn check_ref(&self, r: &CodeRef, since: Option<UnixSeconds>) -> Outcome {
        match &r.symbol {
            Some(symbol) => self.check_symbol(r, symbol, since),
            None => self.check_file(r, since),
        }
    }

    fn locate(&self, raw: &str, alts: &[String], since: Option<UnixSeconds>) -> Located {
        let path = match RepoRoot::normalise(raw) {
            Ok(p) => p,
            Err(refusal) => return Located::Refused(refusal),
        };
        if let Some(here) = self.exists(&path, 100, None) {
            return here;
        }
        if let Err(refusal) = self.index.resolve_existing(&path) {
            return Located::Refused(refusal);
        }
        // What history says of the path as written comes before other readings of it: a
        // file moved to where another reading points is a move, not a match.
        if let (Some(git), Some(since)) = (self.git, since) {
            if let Some(found) = self.follow_history(git, &path, Some(since), 0) {
                return found;
            }
        }
        // Other readings of the path (e.g. relative to the repo root instead of the notes
        // file's folder), confined like the first.
        let alts: Vec<String> =
            alts.iter().filter_map(|a| RepoRoot::normalise(a).ok()).filter(|a| *a != path).collect();
        for alt in &alts {
            if self.index.resolve_existing(alt).is_err() {
                continue;
            }
            if let Some(here) = self.exists(alt, 95, Some(format!("read as {alt}"))) {
                return here;
            }
        }
        let readings: Vec<&str> = std::iter::once(path.as_str()).chain(alts.iter().map(String::as_str)).collect();
        if self.git.is_none() {
            if let Some(gone) = self.bare_project_file(&readings) {
                return gone;
            }
        }
        if let Some(git) = self.git {
            for (window, penalty) in [(since, 0u8), (None, 15u8)] {
                if window.is_none() && since.is_none() && penalty > 0 {
                    break;
                }
                for reading in &readings {
                    if let Some(found) = self.follow_history(git, reading, window, penalty) {
                        return found;
                    }
                }
            }
        }
        let mut first = None;
        for reading in &readings {
            match self.search_tree_at(reading, since) {
                gone @ Located::Gone { .. } => {
                    first.get_or_insert(gone);
                }
                found => return self.second_look(reading, found),
            }
        }
        let found = first.unwrap_or_else(|| self.search_tree(&path));
        self.second_look(&path, found)
    }

    /// Without history, a path the tree search found gone or could not place gets a second
    /// look ([`Checker::guess_without_history`]); anything else is kept.
    fn second_look(&self, path: &str, found: Located) -> Located {
        if self.git.is_some() {
            return found;
        }
        self.guess_without_history(path, &found).unwrap_or(found)
    }

    /// `Here` when `path` is a file or directory of the repo now.
    fn exists(&self, path: &str, confidence: u8, note: Option<String>) -> Option<Located> {
        if self.index.file(path).is_some() {
            if self.index.resolve_existing(path).is_err() {
                return None;
            }
            return Some(Located::Here { path: path.to_owned(), dir: false, confidence, note });
        }
        if self.index.is_dir(path) {
            return Some(Located::Here { path: path.to_owned(), dir: true, confidence, note });
        }
        // Ignored by `.gitignore` but present on disk.
        match self.index.resolve_existing(path) {
            Ok(Some(real)) => Some(Located::Here {
                path: path.to_owned(),
                dir: real.is_dir(),
                confidence: confidence.min(90),
                note: Some(note.unwrap_or_else(|| "present on disk but ignored by .gitignore".into())),
            }),
            _ => None,
        }
    }

    fn follow_history(&self, git: &GitRepo, path: &str, since: Option<UnixSeconds>, penalty: u8) -> Option<Located> {
        let trace = git.follow(path, since);
        if let Some(last) = trace.renames.last().map(|r| r.2.clone()) {
            let chain: Vec<String> =
                trace.renames.iter().map(|(commit, from, to)| format!("{from} → {to} in {}", short(commit))).collect();
            if trace.deleted_in.is_none() {
                if let Some(Located::Here { dir, .. }) = self.exists(&last, 100, None) {
                    return Some(Located::Moved {
                        to: last,
                        dir,
                        confidence: 95 - penalty,
                        evidence: self.with_history_note(git, format!("git: renamed {}", chain.join(", "))),
                    });
                }
            }
            let deleted = trace.deleted_in.as_deref().map(short).unwrap_or("a later commit");
            return Some(Located::Gone {
                confidence: 90 - penalty,
                evidence: self
                    .with_history_note(git, format!("git: renamed {}, then deleted in {deleted}", chain.join(", "))),
            });
        }
        // A folder: where most of its files went; gone when most were deleted and no folder
        // took a quarter of them; otherwise split, with no successor to name.
        if let Some(fate) = git.dir_fate(path, since) {
            let n = fate.files;
            let live: Vec<&(String, usize)> = fate.moved.iter().filter(|(d, _)| self.index.is_dir(d)).collect();
            let top = live.first().map_or(0, |(_, c)| *c);
            if let Some((dir, c)) = live.first().filter(|(_, c)| c * 2 > n) {
                return Some(Located::Moved {
                    to: dir.clone(),
                    dir: true,
                    confidence: 90 - penalty,
                    evidence: self.with_history_note(
                        git,
                        format!("git: {c} of the {n} files of {path}/ that changed were moved into it"),
                    ),
                });
            }
            if fate.deleted * 2 > n && top * 4 < n {
                let last = fate.last_deletion.as_deref().map(short).unwrap_or("a later commit");
                let (confidence, evidence) = self.history_confidence(
                    git,
                    90 - penalty,
                    format!(
                        "git: {} of the {n} files of {path}/ that changed were deleted (the last in {last})",
                        fate.deleted
                    ),
                );
                return Some(Located::Gone { confidence, evidence });
            }
            if !live.is_empty() {
                let went: Vec<String> = live.iter().take(MAX_LISTED).map(|(d, c)| format!("{c} to {d}/")).collect();
                let rest = n.saturating_sub(live.iter().map(|(_, c)| c).sum::<usize>() + fate.deleted);
                let evidence = format!(
                    "git: the {n} files of {path}/ that changed went apart ({}{}{}), no folder took most of them",
                    went.join(", "),
                    if rest > 0 { format!(", {rest} elsewhere") } else { String::new() },
                    if fate.deleted > 0 { format!(", {} deleted", fate.deleted) } else { String::new() },
                );
                return Some(Located::Split {
                    candidates: live.iter().map(|(d, _)| d.clone()).collect(),
                    evidence: self.with_history_note(git, evidence),
                });
            }
        }
        if let Some(commit) = trace.deleted_in {
            // A move spread over commits (copied then deleted, or deleted then added
            // elsewhere): a file of the same name that history shows added after the memory
            // and that exists now. A name match alone, without history saying it was added
            // then, is not a successor: the file was deleted.
            let name = basename(&trace.last);
            let mut readded: Vec<(String, String)> = git
                .added_named(name, since)
                .into_iter()
                .filter(|(p, _, _)| *p != trace.last && self.index.file(p).is_some())
                .map(|(p, c, _)| (p, c))
                .collect();
            readded.sort();
            readded.dedup_by(|a, b| a.0 == b.0);
            // A name alone is no successor: git's own rename detection wants half the content
            // kept, and so does this. The file as it was just before its deletion must resemble
            // the one that took its name now; an empty file resembles nothing. When history
            // no longer has the old text (a partial clone), the name is all there is to go on.
            if let Some(old) = git.show(&format!("{commit}^"), &trace.last) {
                readded.retain(|(p, _)| {
                    self.index.read_text(p).is_some_and(|now| body_similarity(&old, &now, &[]) >= 0.5)
                });
            }
            // A common name (`index.ts`, `base.ts`) is added all over a busy repo: with
            // several, only those added by the deleting commit, else those in a folder of
            // the same name, count.
            if readded.len() > 1 {
                let same_commit: Vec<_> = readded.iter().filter(|(_, c)| *c == commit).cloned().collect();
                let parent = |p: &str| p.rsplit('/').nth(1).map(str::to_owned);
                let same_parent: Vec<_> =
                    readded.iter().filter(|(p, _)| parent(p) == parent(&trace.last)).cloned().collect();
                readded = if !same_commit.is_empty() { same_commit } else { same_parent };
            }
            match readded.as_slice() {
                [(to, added_in)] => {
                    return Some(Located::Moved {
                        to: to.clone(),
                        dir: false,
                        confidence: 80 - penalty,
                        evidence: self.with_history_note(
                            git,
                            format!(
                                "git: deleted in {}; the same file name was added as {to} in {}",
                                short(&commit),
                                short(added_in)
                            ),
                        ),
                    })
                }
                [] => {}
                several => {
                    return Some(Located::Unclear { candidates: several.iter().map(|(p, _)| p.clone()).collect() })
                }
            }
            let (confidence, evidence) = self.history_confidence(
                git,
                95 - penalty,
                format!("git: deleted in {} and nothing took its place", short(&commit)),
            );
            return Some(Located::Gone { confidence, evidence });
        }
        None
    }

    /// `evidence`, with a note when the history it comes from is incomplete.
    fn with_history_note(&self, git: &GitRepo, evidence: String) -> String {
        match git.incomplete() {
            Some(why) => format!("{evidence} (history incomplete: {why})"),
            None => evidence,
        }
    }

    /// A verdict that rests on history not showing something: at most 70 when the history
    /// is incomplete, and the evidence says why.
    fn history_confidence(&self, git: &GitRepo, confidence: u8, evidence: String) -> (u8, String) {
        match git.incomplete() {
            Some(_) => (confidence.min(70), self.with_history_note(git, evidence)),
            None => (confidence, evidence),
        }
    }

    /// Successor search without history: the same path under a deeper folder, the same file
    /// name elsewhere, the same stem with another extension. With history and a date, a
    /// suffix that matches one place today is a move when the path as written existed
    /// itself; one that matches several places today is read against the tree at the
    /// memory's date, where it may have meant one.
    fn search_tree(&self, path: &str) -> Located {
        self.search_tree_at(path, None)
    }

    fn search_tree_at(&self, path: &str, since: Option<UnixSeconds>) -> Located {
        let name = basename(path);
        let suffix = format!("/{path}");
        let mut by_suffix: Vec<String> = self
            .index
            .files_named(name)
            .iter()
            .map(|&i| self.index.file_at(i).path.clone())
            .filter(|p| p.ends_with(&suffix))
            .collect();
        by_suffix.extend(self.index.dirs_named(name).into_iter().filter(|d| d.ends_with(&suffix)).map(str::to_owned));
        match by_suffix.len() {
            1 => {
                let found = by_suffix.remove(0);
                let dir = self.index.is_dir(&found);
                // The path as written was a real path once: the memory meant it, and it moved.
                if let Some(git) = self.git.filter(|g| g.follow(path, None).known) {
                    return Located::Moved {
                        evidence: self
                            .with_history_note(git, format!("git: {path} existed; today only {found} ends with it")),
                        to: found,
                        dir,
                        confidence: 80,
                    };
                }
                // Without history: a path that starts at a conventional top-level folder
                // (`src/`, `packages/`, ...) was written from the root; found only deeper,
                // the tree moved under a new folder (a monorepo move), it is not an
                // abbreviation.
                if self.git.is_none()
                    && ROOT_FOLDERS.contains(&path.split('/').next().unwrap_or(""))
                    && !self.index.is_dir(path.split('/').next().unwrap_or(""))
                {
                    let prefix = found.strip_suffix(&suffix).unwrap_or("");
                    return Located::Moved {
                        evidence: format!("no history; {path} starts at a top-level folder that is gone from the root, and only {found} ends with it (moved under {prefix}/)"),
                        to: found,
                        dir,
                        confidence: 60,
                    };
                }
                if self.git.is_none() {
                    return self.prefix_reading(path, &found, dir, 1);
                }
                return Located::Here {
                    note: Some(format!("{path} is written relative to a folder; full path {found}")),
                    path: found,
                    dir,
                    confidence: 85,
                };
            }
            n if n > 1 && self.git.is_none() => {
                // Without history: the place under which the memory's other references are
                // found too (they moved, or are written relative to it, together); with no
                // such place, or several, the evidence is split and says so.
                return match self.supported_prefix(path, &by_suffix) {
                    Some(found) => {
                        let dir = self.index.is_dir(&found);
                        self.prefix_reading(path, &found, dir, by_suffix.len())
                    }
                    None => match self.context.inside(self.index, path).first() {
                        // The memory's own paths inside it say what it held; no place of that
                        // name holds them (else it would have support): that folder is gone.
                        Some(inside) => Located::Gone {
                            confidence: 50,
                            evidence: format!(
                                "no history; nothing at {path}, and none of the {} places named {name} ({}) holds what the memory names in it ({inside})",
                                by_suffix.len(),
                                list(&by_suffix)
                            ),
                        },
                        None => Located::Unclear { candidates: by_suffix },
                    },
                };
            }
            n if n > 1 => {
                // Several places end with it today; at the memory's date, maybe one did.
                if let (Some(git), Some(since)) = (self.git, since) {
                    if let Some(then) = git.rev_at(since).and_then(|rev| git.files_at(&rev)) {
                        let meant: Vec<&String> = then.iter().filter(|p| p.ends_with(&suffix)).collect();
                        if let [meant] = meant.as_slice() {
                            let meant = (*meant).clone();
                            if self.index.file(&meant).is_some() {
                                return Located::Here {
                                    note: Some(format!("{path} is written relative to a folder; at the memory's date only {meant} ended with it")),
                                    path: meant,
                                    dir: false,
                                    confidence: 85,
                                };
                            }
                            if let Some(found) = self.follow_history(git, &meant, Some(since), 0) {
                                return found;
                            }
                        }
                    }
                }
                return Located::Unclear { candidates: by_suffix };
            }
            _ => {}
        }
        // Nothing ends with the path (and, with git, history never had it): an example path
        // or one git ignores was never meant as a file of this checkout, whatever else shares
        // its name.
        if let Some(why) = placeholder_path(path) {
            return Located::NotInRepo(format!(
                "{path} reads as an example, not a path of the repo ({why}); no path of the tree ends with it"
            ));
        }
        // Only with history: without it, a tracked path that moved away and is ignored now
        // (`.cursor/` moved to `.agents/`, then ignored) looks the same as a build output.
        if let Some((file, pattern)) =
            self.git.and_then(|_| self.index.ignored_by(path, false).or_else(|| self.index.ignored_by(path, true)))
        {
            return Located::NotInRepo(format!(
                "{path} is not in the tree and git ignores it ({file}: `{pattern}`): a build output or local file, which a checkout does not have"
            ));
        }
        let same_name: Vec<String> =
            self.index.files_named(name).iter().map(|&i| self.index.file_at(i).path.clone()).collect();
        let same_dir_name: Vec<String> = self.index.dirs_named(name).into_iter().map(str::to_owned).collect();
        let mut candidates = if same_name.is_empty() { same_dir_name } else { same_name };
        if self.git.is_none() {
            // A place the memory itself names as it is was known to it as something else.
            candidates.retain(|c| !self.context.knew(self.index, c, path));
        }
        if let Some(best) = best_candidate(path, &candidates) {
            let dir = self.index.is_dir(&best);
            if self.git.is_none() {
                if let Some(why) = self.uncorroborated(path, &best) {
                    return Located::Gone {
                        confidence: 50,
                        evidence: format!(
                            "no history; nothing at {path}, and {} ({}) share only its name: {why}",
                            list(&candidates),
                            candidates.len()
                        ),
                    };
                }
            }
            return Located::Moved {
                confidence: if candidates.len() == 1 { 65 } else { 55 },
                evidence: format!("no history; the only close match by name is {best}"),
                to: best,
                dir,
            };
        }
        if candidates.len() > 1 {
            // A path with folders that nothing ends with: the place it names is gone;
            // files of the same name elsewhere are listed, not chosen. A bare name in
            // several folders stays undecided.
            if path.contains('/') {
                return Located::Gone {
                    confidence: 55,
                    evidence: format!(
                        "no path ends with {path}; {} other places have its name: {}",
                        candidates.len(),
                        list(&candidates)
                    ),
                };
            }
            return Located::Unclear { candidates };
        }
        // Same stem, another extension of the same kind of file (`client.js` → `client.ts`,
        // `ci.yml` → `ci.yaml`); a Rust file is not renamed to a Ruby one.
        // A dotfile or dot-folder (`web/.next`) has no stem to share.
        if let Some((stem, ext)) = path.rsplit_once('.').filter(|(stem, _)| !basename(stem).is_empty()) {
            let stem_name = basename(stem);
            let mut relatives: Vec<String> = self
                .index
                .files_with_stem(stem_name)
                .iter()
                .map(|&i| self.index.file_at(i).path.clone())
                .filter(|p| basename(p) != name)
                .filter(|p| p.rsplit_once('.').is_some_and(|(_, other)| same_kind_of_file(ext, other)))
                .collect();
            relatives.sort();
            if let Some(best) = best_candidate(path, &relatives) {
                return Located::Moved {
                    to: best.clone(),
                    dir: false,
                    confidence: 50,
                    evidence: format!("no history; {best} has the same stem with another extension"),
                };
            }
        }
        match self.git {
            Some(git) => {
                let (confidence, evidence) = self.history_confidence(
                    git,
                    85,
                    "not in the tree, never recorded in git history, and no file of that name exists".into(),
                );
                Located::Gone { confidence, evidence }
            }
            None => Located::Gone {
                confidence: 70,
                evidence: "not in the tree and no file of that name exists (no git history to consult)".into(),
            },
        }
    }

    /// Without history, a path found only under a prefix (`apps/vscode/src/x.ts` for
    /// `src/x.ts`). When the memory itself names that folder or something in it, the path is
    /// written relative to it: VALID. When its first folder is still at the root, notes
    /// abbreviate inside it: VALID. A bare file name is how notes abbreviate: VALID. Else the
    /// path was written from the root and is no longer there: moved under the prefix, at the
    /// confidence of a guess (no history can confirm it), saying so.
    fn prefix_reading(&self, path: &str, found: &str, dir: bool, places: usize) -> Located {
        let prefix = found.strip_suffix(&format!("/{path}")).unwrap_or("");
        let first = path.split('/').next().unwrap_or(path);
        let relative = |note: String| Located::Here {
            note: Some(note),
            path: found.to_owned(),
            dir,
            confidence: if places > 1 { 70 } else { 85 },
        };
        if let Some(named) = self.context.names_under(self.index, prefix) {
            return relative(format!(
                "{path} is written relative to {prefix}/, a folder the memory names ({named}); full path {found}"
            ));
        }
        if (!path.contains('/') && !dir) || self.index.is_dir(first) || self.index.file(first).is_some() {
            return relative(format!("{path} is written relative to a folder; full path {found}"));
        }
        // What the memory names inside it is not in the place found: not the same folder.
        let inside = self.context.inside(self.index, path);
        if dir
            && !inside.is_empty()
            && !inside.iter().any(|p| {
                let there = format!("{prefix}/{p}");
                self.index.file(&there).is_some() || self.index.is_dir(&there)
            })
        {
            return Located::Gone {
                confidence: 50,
                evidence: format!(
                    "no history; nothing at {path}, and {found} holds none of what the memory names in it ({})",
                    list(&inside)
                ),
            };
        }
        let siblings = self.context.found_under(self.index, prefix, path);
        let why =
            if siblings > 0 { format!(", as are {siblings} other paths the memory names") } else { String::new() };
        Located::Moved {
            to: found.to_owned(),
            dir,
            confidence: if places > 1 { 50 } else { 60 },
            evidence: format!(
                "no history; {first} is not at the root and the memory names nothing under {prefix}/; {found} ends with {path}{why} (read as moved under {prefix}/, unconfirmed)"
            ),
        }
    }

    /// Among several places ending with `path`, the one under whose prefix most of the
    /// memory's other references are found as well; `None` when none or a tie.
    fn supported_prefix(&self, path: &str, places: &[String]) -> Option<String> {
        let suffix = format!("/{path}");
        let scored: Vec<(usize, &String)> = places
            .iter()
            .map(|p| {
                let prefix = p.strip_suffix(&suffix).unwrap_or("");
                let named = self.context.names_under(self.index, prefix).map_or(0, |_| 1);
                (named + self.context.found_under(self.index, prefix, path), p)
            })
            .collect();
        let best = scored.iter().map(|s| s.0).max().filter(|&n| n > 0)?;
        let mut top = scored.iter().filter(|s| s.0 == best);
        let first = top.next()?.1.clone();
        top.next().is_none().then_some(first)
    }

    /// Why a same-named `candidate` is not shown to be `path` moved, or `None` when something
    /// ties them: the same parent folder name (`rules/x.mdc` → `.agents/rules/x.mdc`), a
    /// symbol the memory places in `path` defined or used in the candidate, or another
    /// reference of the memory found beside it, or the only file of its name in a folder
    /// above or below the old one. A name three or more files share, found in a subfolder of
    /// its old folder that is still there, is that subfolder's own file, not the old one moved.
    fn uncorroborated(&self, path: &str, candidate: &str) -> Option<String> {
        let parent = |p: &str| p.rsplit('/').nth(1).map(str::to_owned);
        if parent(path).is_some() && parent(path) == parent(candidate) {
            return None;
        }
        let symbols = self.context.symbols_in(path);
        if let Some(text) = self.index.read_text(candidate) {
            if symbols.iter().any(|s| identifiers_contain(&text, &SymbolName::parse(s).name)) {
                return None;
            }
        }
        // A name many files share (`base.ts`, `index.ts`) says nothing by itself; what is left
        // is the folder: the old file's folder name must be somewhere in the candidate's path.
        let same_named = self.index.files_named(basename(path)).len();
        // Its folder still there, a name many files share inside a subfolder of it is that
        // subfolder's own file (`skills/x/README.md` is not `skills/README.md` moved).
        let old_folder = path.rsplit_once('/').map_or("", |(d, _)| d);
        if same_named >= 3
            && !old_folder.is_empty()
            && self.index.is_dir(old_folder)
            && candidate.starts_with(&format!("{old_folder}/"))
        {
            return Some(format!(
                "{old_folder} is still there, {same_named} files are named {}, and {candidate} is a subfolder's own",
                basename(path)
            ));
        }
        if let Some(old_parent) = parent(path).filter(|_| same_named >= 3) {
            if !candidate.split('/').any(|seg| seg == old_parent) {
                return Some(format!(
                    "{same_named} files are named {}, and {candidate} is not in a folder named {old_parent}",
                    basename(path)
                ));
            }
        }
        let folder = candidate.rsplit_once('/').map_or("", |(d, _)| d);
        // The only file of its name, in a folder above or below its old one
        // (`docs/CONTRIBUTING.md` → `CONTRIBUTING.md`, `scripts/x.json` → `scripts/labeling/x.json`):
        // a folder flattened or sorted into subfolders.
        let above = folder.is_empty() || old_folder.starts_with(&format!("{folder}/"));
        if same_named == 1 && !old_folder.is_empty() && (above || folder.starts_with(&format!("{old_folder}/"))) {
            return None;
        }
        // A folder other than the root: every memory names something at the root.
        if !folder.is_empty() && self.context.existing_in(self.index, folder, path) {
            return None;
        }
        // The memory's other paths moved the same way: found under the candidate's folder
        // (`tensorzero-core/x` at `crates/tensorzero-core/x` beside `crates/tensorzero-node`),
        // or, for those in the same old folder, in the candidate's folder with the rest of
        // their path kept.
        if self.context.found_under(self.index, folder, path) > 0 {
            return None;
        }
        if !old_folder.is_empty()
            && !folder.is_empty()
            && self.context.moved_along(self.index, old_folder, folder, path)
        {
            return None;
        }
        let mut why = format!("its folder is {}", parent(candidate).unwrap_or_else(|| "the root".into()));
        if !symbols.is_empty() {
            why.push_str(&format!(", it has none of {}", symbols.join(", ")));
        }
        why.push_str(", and no other path of the memory is beside it");
        Some(why)
    }

    /// Of a missing path's readings, the one the memory meant: the first whose folder is
    /// still in the tree when the path as written has none (a tree drawn under the project's
    /// name, `myproject/src/x/gone.py`, means `src/x/gone.py` once `src/x/` is there); else the
    /// path as written. The report names this reading as the claim's path.
    fn meant<'r>(&self, raw: &'r str, alts: &'r [String]) -> &'r str {
        let folder_there = |p: &str| match p.trim_end_matches('/').rsplit_once('/') {
            Some((up, _)) => self.index.is_dir(up),
            None => true,
        };
        if folder_there(raw) {
            return raw;
        }
        alts.iter().map(String::as_str).find(|a| folder_there(a) && RepoRoot::normalise(a).is_ok()).unwrap_or(raw)
    }

    fn check_file(&self, r: &CodeRef, since: Option<UnixSeconds>) -> Outcome {
        let written = r.path.trim();
        let raw = self.meant(written, &r.alt_paths);
        let found = self.locate(written, &r.alt_paths, since);
        // `.test.ts`: a file-name ending the memory names as a convention, not a file.
        if matches!(found, Located::Gone { .. } | Located::NotInRepo(_)) && !written.contains('/') {
            if let Some(pattern) = self.naming_pattern(written) {
                return pattern;
            }
        }
        match found {
            Located::Refused(refusal) => Outcome::NotChecked { reason: refusal.to_string() },
            Located::NotInRepo(reason) => Outcome::NotChecked { reason },
            Located::Here { path, dir, confidence, note } => {
                if self.index.file(&path).is_some_and(|f| f.kind == FileKind::BrokenSymlink) {
                    return checked(
                        Verdict::Contradicted,
                        confidence.min(70),
                        format!("{path} — a symlink whose target does not exist"),
                        None,
                    );
                }
                if let (Some(line), false) = (r.line, dir) {
                    return self.check_line_number(&path, written, line, since, confidence);
                }
                let what = if dir {
                    format!("{path}/ — directory exists ({} files)", self.index.dir_file_count(&path))
                } else {
                    match self.index.file(&path).map(|f| (f.kind, f.lines)) {
                        Some((FileKind::Text, lines)) => format!("{path}:1 — file exists ({lines} lines)"),
                        Some((kind, _)) => format!("{path} — {} exists", kind_name(kind)),
                        None => format!("{path} — exists"),
                    }
                };
                let evidence = match note {
                    Some(note) => format!("{what}; {note}"),
                    None => what,
                };
                checked(Verdict::Valid, confidence, evidence, None)
            }
            Located::Moved { to, dir, confidence, evidence } => {
                let shown = if dir { format!("{to}/") } else { to.clone() };
                checked(Verdict::Stale, confidence, format!("{raw} — now at {shown}; {evidence}"), Some(to))
            }
            Located::Gone { confidence, evidence } => {
                checked(Verdict::Contradicted, confidence, format!("{raw} — {evidence}"), None)
            }
            Located::Unclear { candidates } => checked(
                Verdict::Ambiguous,
                40,
                format!("{raw} — {} places match: {}", candidates.len(), list(&candidates)),
                None,
            ),
            Located::Split { evidence, .. } => checked(Verdict::Ambiguous, 50, format!("{raw} — {evidence}"), None),
        }
    }

    /// `file:45` with no symbol: is line 45 still the line the memory saw?
    fn check_line_number(&self, path: &str, raw: &str, line: u32, since: Option<UnixSeconds>, base: u8) -> Outcome {
        let Some(current) = self.index.read_text(path) else {
            // The file is there but its lines cannot be read: the claim is about a line.
            let kind = self.index.file(path).map_or(FileKind::Huge, |f| f.kind);
            return Outcome::NotChecked {
                reason: format!("{path} is a {}; its line {line} cannot be read", kind_name(kind)),
            };
        };
        let old_line = self
            .old_text(raw, since)
            .and_then(|text| text.lines().nth((line as usize).saturating_sub(1)).map(str::trim).map(str::to_owned));
        let line_now = (line > 0).then(|| current.lines().nth(line as usize - 1)).flatten();
        match old_line {
            Some(old) if old.len() >= 4 => {
                if line_now.map(str::trim) == Some(old.as_str()) {
                    return checked(
                        Verdict::Valid,
                        base.min(95),
                        format!("{path}:{line} — still reads `{}`", clip(&old)),
                        None,
                    );
                }
                let now: Vec<&str> = current.lines().collect();
                if let Some(found) = nearest_line(&now, &old, line) {
                    return checked(
                        Verdict::Stale,
                        base.min(90),
                        format!(
                            "{path}:{found} — the line the memory cited at {line} (`{}`) is now at {found}",
                            clip(&old)
                        ),
                        Some(format!("{path}:{found}")),
                    );
                }
                checked(
                    Verdict::Stale,
                    base.min(60),
                    format!("{path}:{line} — line {line} changed since the memory (`{}` is gone)", clip(&old)),
                    None,
                )
            }
            _ if line_now.is_none() => {
                let lines = current.lines().count();
                checked(
                    Verdict::Stale,
                    base.min(60),
                    format!("{path}:{lines} — the file has {lines} lines now; line {line} does not exist"),
                    None,
                )
            }
            _ => checked(
                Verdict::Valid,
                base.min(80),
                format!("{path}:{line} — file exists and has that line (no earlier version to compare)"),
                None,
            ),
        }
    }

    /// Text of the file the memory named, as it was when the memory was written.
    fn old_text(&self, raw: &str, since: Option<UnixSeconds>) -> Option<Arc<str>> {
        let git = self.git?;
        let rev = git.rev_at(since?)?;
        let path = RepoRoot::normalise(raw).ok()?;
        git.show(&rev, &path)
    }

    /// [`Self::old_text`] of `raw`, unless it is the text `path` has now, in the same
    /// language: then it has the definitions `path` has now, so a symbol missing now was
    /// missing then too, and parsing it again (per claim, uncached) would only find that out
    /// slowly. This is the common case of a symbol that never existed in an unchanged file.
    fn changed_old_text(&self, raw: &str, path: &str, since: Option<UnixSeconds>) -> Option<Arc<str>> {
        let old = self.old_text(raw, since)?;
        let unchanged = Lang::of(raw) == Lang::of(path)
            && self.index.read_text(path).is_some_and(|now| Arc::ptr_eq(&now, &old) || now == old);
        (!unchanged).then_some(old)
    }

    /// The file's old text that still defined `sym`: as of the memory's date when that
    /// version has the definition; otherwise (a memory without a date, or one written after
    /// the change) the version just before the last commit that changed how often the name
    /// occurs in the file (`git log -S`), which is the commit that removed or renamed it.
    fn old_text_defining(
        &self,
        sym: &SymbolName,
        raw: &str,
        path: &str,
        since: Option<UnixSeconds>,
    ) -> Option<Arc<str>> {
        let defines = |text: &str| definitions(Lang::of(raw), text).iter().any(|d| sym.matches(raw, d));
        if let Some(old) = self.changed_old_text(raw, path, since).filter(|t| defines(t)) {
            return Some(old);
        }
        let git = self.git?;
        let file = RepoRoot::normalise(raw).ok()?;
        // A failed search is said where the verdict is made ([`Self::history_search_failure`]).
        let commit = git.last_change_of(&file, &sym.name).ok()??;
        let old = git.show(&format!("{commit}^"), &file)?;
        let unchanged = self.index.read_text(path).is_some_and(|now| now == old);
        (!unchanged && defines(&old)).then_some(old)
    }

    /// Why the history search for `sym` in the memory's file failed, when it did (the answer
    /// is kept by [`GitRepo::last_change_of`], so asking again costs nothing when it worked).
    fn history_search_failure(&self, sym: &SymbolName, raw: &str) -> Option<String> {
        let file = RepoRoot::normalise(raw).ok()?;
        self.git?.last_change_of(&file, &sym.name).err().map(|e| e.to_string())
    }

    /// A symbol claim; one whose name is not defined, but which is written as an affix
    /// (`_int`, `test_`, `_test.go`), is read as the naming convention it is.
    fn check_symbol(&self, r: &CodeRef, symbol: &str, since: Option<UnixSeconds>) -> Outcome {
        let out = self.check_symbol_named(r, symbol, since);
        // Only a verdict resting on absence gives way: a STALE found the name's successor.
        match out {
            Outcome::Checked { verdict: Verdict::Contradicted | Verdict::Ambiguous, .. } => {
                self.naming_pattern(symbol).unwrap_or(out)
            }
            _ => out,
        }
    }

    /// `_int`, `test_`, `.test.ts`, `_test.go`: an affix the memory names as a convention
    /// ("integration tests end in `_int`"), not a name. VALID when names or file names of the
    /// repo carry it, with how many and the first few; `None` when the text is no affix or
    /// nothing carries it (the caller's verdict stands).
    fn naming_pattern(&self, written: &str) -> Option<Outcome> {
        let w = written.trim();
        let affix = w.len() >= 3
            && !w.contains(['/', ' ', '(', ':'])
            && !w.starts_with("__")
            && !self.index.mentions(w)
            && (w.starts_with('_') || w.ends_with('_') || (w.starts_with('.') && w[1..].contains('.')));
        if !affix {
            return None;
        }
        let (n, shown) = self.index.names_with_affix(w, MAX_LISTED);
        if n == 0 {
            return None;
        }
        let more = if n > shown.len() { ", ..." } else { "" };
        Some(checked(
            Verdict::Valid,
            65,
            format!(
                ". — `{w}` is a naming pattern, not a name: {n} names in the repo carry it ({}{more})",
                shown.join(", ")
            ),
            None,
        ))
    }

    fn check_symbol_named(&self, r: &CodeRef, symbol: &str, since: Option<UnixSeconds>) -> Outcome {
        let sym = SymbolName::parse(symbol);
        if sym.name.is_empty() {
            return Outcome::NotChecked { reason: format!("cannot read a symbol name from {symbol:?}") };
        }
        let raw = r.path.trim();
        if raw == "." {
            return self.check_symbol_anywhere(&sym, r.line, since);
        }
        match self.locate(raw, &r.alt_paths, since) {
            Located::Refused(refusal) => Outcome::NotChecked { reason: refusal.to_string() },
            Located::NotInRepo(reason) => Outcome::NotChecked { reason },
            Located::Here { path, dir: true, .. } => self.check_symbol_in_dir(&sym, &path),
            Located::Here { path, confidence, .. } => {
                self.check_symbol_in_file(&sym, raw, &path, None, r.line, since, confidence)
            }
            Located::Moved { to, dir: true, .. } => self.check_symbol_in_dir(&sym, &to),
            Located::Moved { to, confidence, evidence, .. } => {
                self.check_symbol_in_file(&sym, raw, &to, Some(evidence), r.line, since, confidence)
            }
            Located::Gone { confidence, evidence } => match self.unique_def_elsewhere(&sym, None) {
                Some((path, line)) => checked(
                    Verdict::Stale,
                    75,
                    format!("{path}:{line} — {} is defined here; {raw} is gone ({evidence})", sym.display()),
                    Some(path),
                ),
                None => checked(
                    Verdict::Contradicted,
                    confidence,
                    format!("{raw} — {evidence}; {} is not defined anywhere in the repo", sym.display()),
                    None,
                ),
            },
            Located::Unclear { candidates } | Located::Split { candidates, .. } => {
                let defining: Vec<&String> =
                    candidates.iter().filter(|c| self.defs_in(c).iter().any(|d| sym.matches(c, d))).collect();
                match defining.as_slice() {
                    [only] => self.check_symbol_in_file(&sym, raw, only, None, r.line, since, 80),
                    _ => checked(
                        Verdict::Ambiguous,
                        40,
                        format!("{raw} — {} places match: {}", candidates.len(), list(&candidates)),
                        None,
                    ),
                }
            }
        }
    }

    fn defs_in(&self, path: &str) -> &[Def] {
        self.index.defs_at(path)
    }

    /// A symbol named without a file; `line`, when the memory gave one, must match too.
    fn check_symbol_anywhere(&self, sym: &SymbolName, line: Option<u32>, since: Option<UnixSeconds>) -> Outcome {
        let found: Vec<(String, u32)> = self
            .index
            .defs_named(&sym.name)
            .filter(|(f, d)| sym.matches(&f.path, d))
            .map(|(f, d)| (f.path.clone(), d.line))
            .collect();
        if let Some(want) = line {
            if let Some((path, at)) = found.iter().find(|(_, l)| *l == want) {
                return checked(Verdict::Valid, 90, format!("{path}:{at} — {} is defined here", sym.display()), None);
            }
            if let [(path, at)] = found.as_slice() {
                return checked(
                    Verdict::Stale,
                    80,
                    format!("{path}:{at} — {} is defined here, not at line {want}", sym.display()),
                    Some(format!("{path}:{at}")),
                );
            }
        }
        match found.as_slice() {
            [(path, line)] => {
                checked(Verdict::Valid, 95, format!("{path}:{line} — {} is defined here", sym.display()), None)
            }
            [(path, line), ..] => checked(
                Verdict::Valid,
                80,
                format!(
                    "{path}:{line} — {} is defined in {} places: {}",
                    sym.display(),
                    found.len(),
                    list(&found.iter().map(|(p, l)| format!("{p}:{l}")).collect::<Vec<_>>())
                ),
                None,
            ),
            [] => {
                if sym.qualifier.is_some() {
                    let other: Vec<String> = self
                        .index
                        .defs_named(&sym.name)
                        .filter_map(|(_, d)| d.container.as_deref().map(|c| format!("{c}::{}", sym.name)))
                        .collect();
                    if let [only] = other.as_slice() {
                        return checked(
                            Verdict::Stale,
                            60,
                            format!(". — {} is not defined; {only} is", sym.display()),
                            Some(only.clone()),
                        );
                    }
                }
                // History: the commit that removed its last definition, and what replaced it.
                let mut removed_note = None;
                // Git searched and no commit since the memory's date (or ever, for a memory
                // without one) changed how often the repo's code names it: it was not a name
                // of the code when the memory was written either.
                let mut never_in_code = false;
                // Git was not asked (its budget for such searches is spent): whether the name
                // was ever the code's is not known, so its absence now is not a contradiction
                // either, and a run's verdict does not depend on how many names came before.
                let mut unsearched = false;
                // Only names the repo's code no longer uses (a name still used is more often a
                // library's than a removed one of the repo's own). Docs, tests, comments,
                // strings and the notes file itself do not count as use.
                let used = usage::used_in_code(self.index, &sym.name);
                if let Some(git) = self.git.filter(|_| !used) {
                    match git.name_removed(&sym.name, since) {
                        Ok(changes) => {
                            never_in_code = changes.is_empty();
                            // Newest first: the first commit whose parent defined the name in a
                            // file it changed removed (or renamed) its last definition; later
                            // ones only touched uses of it.
                            for (commit, before, files) in &changes {
                                let defined_before = files.iter().any(|f| {
                                    git.show(&format!("{commit}^"), f)
                                        .is_some_and(|t| definitions(Lang::of(f), &t).iter().any(|d| sym.matches(f, d)))
                                });
                                if !defined_before {
                                    continue;
                                }
                                for file in files.iter().filter(|f| self.index.file(f).is_some()) {
                                    if let Some(found @ Outcome::Checked { verdict: Verdict::Stale, .. }) =
                                        self.find_rename(sym, file, file, Some(*before))
                                    {
                                        return found;
                                    }
                                }
                                return checked(
                                    Verdict::Contradicted,
                                    85,
                                    self.with_history_note(git, format!(". — {} is not defined anywhere; git: its last definition was removed in {}", sym.display(), short(commit))),
                                    None,
                                );
                            }
                        }
                        Err(why) => {
                            removed_note = Some(why);
                            unsearched = true;
                        }
                    }
                }
                let note = removed_note.map(|n| format!(" ({n})")).unwrap_or_default();
                if used {
                    // The code still uses the name; what defines it is outside the repo (a
                    // dependency, the language, a generated file). The memory's point, that
                    // this is a name the code works with, holds.
                    let at = usage::first_use_in_code(self.index, &sym.name)
                        .map(|(path, line)| format!("{path}:{line}"))
                        .unwrap_or_else(|| ".".into());
                    checked(
                        Verdict::Valid,
                        70,
                        format!("{at} — {} is used by the repo's code; its definition is not in the repo (a dependency's or the language's){note}", sym.display()),
                        None,
                    )
                } else if unsearched && self.named_outside_prose(&sym.name) {
                    checked(
                        Verdict::Ambiguous,
                        30,
                        format!(
                            ". — {} is not a name of the repo's code now: not defined or used (only tests, comments, strings or config name it){note}, so whether it was when the memory was written is not known; the memory may use it as a word",
                            sym.display()
                        ),
                        None,
                    )
                } else if never_in_code && self.named_outside_prose(&sym.name) {
                    // Neither defined nor used by the code, now or when the memory was written,
                    // but the project names it in tests, comments, strings or config (an env
                    // var read from a string, a test marker): a term of the project, more often
                    // than a name the memory got wrong. Reported, not asserted. A name only
                    // prose (or nothing) has stays CONTRADICTED below.
                    let named = "only tests, comments, strings or config name it";
                    checked(
                        Verdict::Ambiguous,
                        30,
                        format!(
                            ". — {} is not a name of the repo's code: not defined or used now, and git shows no commit since the memory was written that added or removed it in code ({named}); the memory may use it as a word",
                            sym.display()
                        ),
                        None,
                    )
                } else if self.index.mentions(&sym.name) {
                    checked(
                        Verdict::Contradicted,
                        70,
                        format!(". — {} is not defined and no code uses it (only docs, tests, comments or strings name it){note}", sym.display()),
                        None,
                    )
                } else {
                    checked(
                        Verdict::Contradicted,
                        75,
                        format!(". — {} is neither defined nor mentioned anywhere in the repo", sym.display()),
                        None,
                    )
                }
            }
        }
    }

    fn check_symbol_in_dir(&self, sym: &SymbolName, dir: &str) -> Outcome {
        let prefix = format!("{dir}/");
        let found: Vec<(String, u32)> = self
            .index
            .defs_named(&sym.name)
            .filter(|(f, d)| (dir == "." || f.path.starts_with(&prefix)) && sym.matches(&f.path, d))
            .map(|(f, d)| (f.path.clone(), d.line))
            .collect();
        match found.first() {
            Some((path, line)) => {
                checked(Verdict::Valid, 90, format!("{path}:{line} — {} is defined under {dir}/", sym.display()), None)
            }
            None => self.check_symbol_anywhere(sym, None, None),
        }
    }

    /// The one definition of `sym` outside `except`, or the best one in `near`'s folder.
    fn unique_def_elsewhere(&self, sym: &SymbolName, except: Option<&str>) -> Option<(String, u32)> {
        if let Some(near) = except {
            return self.nearest_unique_def(sym, near);
        }
        // Only "exactly one definition" is an answer, so the search stops at the second one
        // (a common name would otherwise parse every file that mentions it); smaller files
        // first, since which two are found does not change the answer.
        let mut files: Vec<&FileInfo> = self.index.files_with_token(&sym.name).collect();
        files.sort_by_key(|f| f.lines);
        match self.index.unique_def(files, &sym.name, |f, d| sym.matches(&f.path, d)) {
            Unique::One(f, d) => Some((f.path.clone(), d.line)),
            Unique::None | Unique::Several => None,
        }
    }

    /// [`Self::unique_def_elsewhere`] of a symbol missing from `near`: the only definition
    /// elsewhere, or among several the only one sharing the most leading folders with `near`
    /// (at least one). The candidate files are parsed nearest first, and the first level with
    /// a definition decides, so a common name does not parse every file that mentions it;
    /// within that level a second definition ends the search (smaller files first).
    fn nearest_unique_def(&self, sym: &SymbolName, near: &str) -> Option<(String, u32)> {
        let mut files: Vec<(usize, &FileInfo)> = self
            .index
            .files_with_token(&sym.name)
            .filter(|f| f.path != near)
            .map(|f| (shared_dirs(&f.path, near), f))
            .collect();
        files.sort_by_key(|(level, f)| (std::cmp::Reverse(*level), f.lines));
        for group in files.chunk_by(|a, b| a.0 == b.0) {
            match self.index.unique_def(group.iter().map(|(_, f)| *f), &sym.name, |f, d| sym.matches(&f.path, d)) {
                Unique::None => continue,
                // One at the nearest level with any: it, whatever lies further away (at
                // level 0 there is nothing further away, so it is the only one).
                Unique::One(f, d) => return Some((f.path.clone(), d.line)),
                Unique::Several => return None,
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    fn check_symbol_in_file(
        &self,
        sym: &SymbolName,
        raw: &str,
        path: &str,
        moved: Option<String>,
        line: Option<u32>,
        since: Option<UnixSeconds>,
        base: u8,
    ) -> Outcome {
        let defs: Vec<&Def> = self.defs_in(path).iter().filter(|d| sym.matches(path, d)).collect();
        let at_line = line.and_then(|l| defs.iter().find(|d| d.line == l));
        if let Some(def) = at_line.or(defs.first()) {
            let here = format!("{path}:{} — {} {} is defined here", def.line, def.kind, sym.display());
            if let Some(line) = line.filter(|&l| l != def.line) {
                return checked(
                    Verdict::Stale,
                    base.min(90),
                    format!("{here}, not at line {line}{}", moved.map(|m| format!("; {m}")).unwrap_or_default()),
                    Some(format!("{path}:{}", def.line)),
                );
            }
            // Defined in the file's successor: the symbol is where the memory's file went, so
            // the claim about the symbol holds; the file claim carries the move.
            return match moved {
                Some(evidence) => checked(
                    Verdict::Valid,
                    base,
                    format!("{here}; note: the file moved, the file claim carries it ({evidence})"),
                    None,
                ),
                None => checked(Verdict::Valid, base, here, None),
            };
        }
        // Not defined in the file: moved to another file? The old definition (from git)
        // tells which of several same-named definitions is the moved one.
        let old = self.old_definition(sym, raw, path, since);
        // The file never was the symbol's home: the memory named the symbol beside a file that
        // documents or uses it. The claim is about the symbol, so it is judged by itself.
        // A code file's parse does not see every definition (one nested in a function body):
        // there the symbol must be defined elsewhere, not merely used, to be judged by itself.
        // `never_defined_in` first: without history it answers for a code file at once, and
        // the search for a definition elsewhere parses every file that names the symbol.
        if let Some(why) = old.is_none().then(|| self.never_defined_in(sym, raw, path)).flatten() {
            let defined_elsewhere = || self.index.defs_named(&sym.name).any(|(f, d)| sym.matches(&f.path, d));
            if Lang::of(path) == Lang::Doc || defined_elsewhere() {
                if let Outcome::Checked { verdict: Verdict::Valid, confidence, evidence, .. } =
                    self.check_symbol_anywhere(sym, None, since)
                {
                    return checked(
                        Verdict::Valid,
                        confidence.min(base).min(80),
                        format!("{evidence}; {path} {why}"),
                        None,
                    );
                }
            }
        }
        if let Some((other, def_line)) = self.moved_definition(sym, path, old.as_ref()) {
            return checked(
                Verdict::Stale,
                base.min(85),
                format!("{other}:{def_line} — {} moved here; it is no longer defined in {path}", sym.display()),
                Some(other),
            );
        }
        // Renamed? Compare the old definition's body with the file's new definitions.
        if let Some(outcome) = self.find_rename(sym, raw, path, since) {
            return outcome;
        }
        // A history search that failed is not "it was never here": said, and trusted less.
        let failed = self.history_search_failure(sym, raw);
        let note = failed.as_ref().map(|e| format!(" (history not searched: {e})")).unwrap_or_default();
        // Mentioned as code, not in a comment or a string (which say nothing of the code).
        let text = self.index.read_text(path);
        let mention = text.as_deref().and_then(|t| usage::first_use(path, t, &sym.name));
        if let Some(at) = mention {
            return checked(
                Verdict::Ambiguous,
                40,
                format!("{path}:{at} — {} is mentioned here but no definition of it was found{note}", sym.display()),
                None,
            );
        }
        checked(
            Verdict::Contradicted,
            match (self.git.is_some(), failed.is_some()) {
                (true, false) => 85,
                (true, true) => 70,
                (false, _) => 75,
            },
            format!("{path} — {} is not defined in this file, nor anywhere else in the repo{note}", sym.display()),
            None,
        )
    }

    /// Whether a file other than prose (Markdown, text, HTML) has `name` as a word: code (in
    /// comments and strings too), tests, config.
    fn named_outside_prose(&self, name: &str) -> bool {
        self.index.files_with_token(name).any(|f| !is_prose(&f.path))
    }

    /// Why `path` (the file the memory named `sym` beside) never defined it, when that is
    /// known: prose and data define nothing; with history, git shows no version of the file
    /// that defined it (no commit ever changed how often the file names it, or the version
    /// before the last such commit did not define it, see [`Self::old_definition`]). `None`
    /// without history for code files, and when the history search failed: a symbol that left
    /// the file then is still read as moved.
    fn never_defined_in(&self, sym: &SymbolName, raw: &str, path: &str) -> Option<&'static str> {
        if Lang::of(path) == Lang::Doc {
            return Some("is prose or data, which defines nothing (it only names it)");
        }
        let file = RepoRoot::normalise(raw).ok()?;
        self.git?
            .last_change_of(&file, &sym.name)
            .ok()
            .map(|_| "does not define it, and git shows no version of it that did")
    }

    /// The definition of `sym` in the file the memory named, as it was at the memory's date,
    /// with its text.
    fn old_definition(
        &self,
        sym: &SymbolName,
        raw: &str,
        path: &str,
        since: Option<UnixSeconds>,
    ) -> Option<(Def, String)> {
        let text = self.old_text_defining(sym, raw, path, since)?;
        let def = definitions(Lang::of(raw), &text).into_iter().find(|d| sym.matches(raw, d))?;
        let body = slice_lines(&text, def.line, def.end_line);
        Some((def, body))
    }

    /// Where `sym` went when it is no longer in `path`: the same-named definition elsewhere
    /// of the same kind whose body is most like the old one (or the only candidate).
    fn moved_definition(&self, sym: &SymbolName, path: &str, old: Option<&(Def, String)>) -> Option<(String, u32)> {
        let Some((old_def, old_body)) = old else {
            return self.unique_def_elsewhere(sym, Some(path));
        };
        let mut scored: Vec<(f64, String, u32)> = self
            .index
            .defs_named(&sym.name)
            .filter(|(f, d)| f.path != path && sym.matches(&f.path, d) && d.kind == old_def.kind)
            .map(|(f, d)| {
                let body =
                    self.index.read_text(&f.path).map(|t| slice_lines(&t, d.line, d.end_line)).unwrap_or_default();
                (body_similarity(old_body, &body, &[&sym.name]), f.path.clone(), d.line)
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        match scored.as_slice() {
            [] => None,
            [(_, p, l)] => Some((p.clone(), *l)),
            [(best, p, l), (second, ..), ..] if best > second => Some((p.clone(), *l)),
            _ => self.unique_def_elsewhere(sym, Some(path)),
        }
    }

    fn find_rename(&self, sym: &SymbolName, raw: &str, path: &str, since: Option<UnixSeconds>) -> Option<Outcome> {
        let current = self.index.read_text(path)?;
        let now_defs = self.defs_in(path);
        if let Some(old_text) = self.old_text_defining(sym, raw, path, since) {
            let lang = Lang::of(raw);
            let old_defs = definitions(lang, &old_text);
            let old = old_defs.iter().find(|d| sym.matches(raw, d))?;
            let old_body = slice_lines(&old_text, old.line, old.end_line);
            let old_names: Vec<&str> = old_defs.iter().map(|d| &*d.name).collect();
            let best = now_defs
                .iter()
                .filter(|d| !old_names.contains(&&*d.name) && d.kind == old.kind)
                .map(|d| {
                    let body = slice_lines(&current, d.line, d.end_line);
                    (body_similarity(&old_body, &body, &[&sym.name, &d.name]), d)
                })
                .max_by(|a, b| a.0.total_cmp(&b.0));
            return Some(match best {
                Some((similarity, def)) if similarity >= 0.5 => checked(
                    Verdict::Stale,
                    (60.0 + 35.0 * similarity).round() as u8,
                    format!(
                        "{path}:{} — {} was renamed to {} (same body, {:.0}% alike; git: defined at {raw}:{} when the memory was written)",
                        def.line,
                        sym.display(),
                        def.name,
                        similarity * 100.0,
                        old.line
                    ),
                    Some(def.name.to_string()),
                ),
                _ => checked(
                    Verdict::Contradicted,
                    90,
                    format!("{path} — {} was defined at {raw}:{} when the memory was written and has been removed", sym.display(), old.line),
                    None,
                ),
            });
        }
        if self.git.is_some() {
            return None;
        }
        // No history: a close name of the same kind in the same file.
        let best = now_defs
            .iter()
            .map(|d| (name_similarity(&sym.name, &d.name), d))
            .filter(|(s, _)| *s >= 0.7)
            .max_by(|a, b| a.0.total_cmp(&b.0))?;
        Some(checked(
            Verdict::Stale,
            50,
            format!(
                "{path}:{} — no {} here; {} has a close name (no history to confirm a rename)",
                best.1.line,
                sym.display(),
                best.1.name
            ),
            Some(best.1.name.to_string()),
        ))
    }

    fn check_config(&self, r: &CodeRef, key: &str, value: &str, since: Option<UnixSeconds>) -> Outcome {
        let raw = r.path.trim();
        let leaf = key.rsplit(['.', ':']).next().unwrap_or(key).trim();
        if leaf.is_empty() {
            return Outcome::NotChecked { reason: format!("cannot read a config key from {key:?}") };
        }
        let (files, moved) = if raw == "." {
            (self.config_files_defining(leaf), None)
        } else {
            match self.locate(raw, &r.alt_paths, since) {
                Located::Refused(refusal) => return Outcome::NotChecked { reason: refusal.to_string() },
                Located::NotInRepo(reason) => return Outcome::NotChecked { reason },
                Located::Here { path, dir: false, .. } => (vec![path], None),
                Located::Moved { to, dir: false, evidence, .. } => (vec![to], Some(evidence)),
                Located::Here { path: dir, dir: true, .. } | Located::Moved { to: dir, dir: true, .. } => {
                    let prefix = format!("{dir}/");
                    let files =
                        self.config_files_defining(leaf).into_iter().filter(|f| f.starts_with(&prefix)).collect();
                    (files, None)
                }
                Located::Gone { confidence, evidence } => {
                    return checked(Verdict::Contradicted, confidence, format!("{raw} — {evidence}"), None)
                }
                Located::Unclear { candidates } | Located::Split { candidates, .. } => (candidates, None),
            }
        };
        let mut seen = Vec::new();
        for file in &files {
            let Some(text) = self.index.read_text(file) else { continue };
            for (line, found) in config_assignments(&text, leaf) {
                if same_value(&found, value) {
                    let evidence = format!("{file}:{line} — {key} = {found}");
                    return match &moved {
                        Some(m) => checked(Verdict::Stale, 85, format!("{evidence}; {m}"), Some(file.clone())),
                        None => checked(Verdict::Valid, 95, evidence, None),
                    };
                }
                seen.push((file.clone(), line, found));
            }
        }
        match seen.first() {
            Some((file, line, found)) => checked(
                Verdict::Stale,
                85,
                format!("{file}:{line} — {key} is {found} now, not {value}"),
                Some(found.clone()),
            ),
            None if raw == "." => self.config_key_elsewhere(key, leaf, value, &files),
            None if files.is_empty() => {
                checked(Verdict::Contradicted, 70, format!("{raw} — no config file sets {key}"), None)
            }
            None => {
                checked(Verdict::Contradicted, 75, format!("{} — {key} is not set there any more", list(&files)), None)
            }
        }
    }

    /// A setting the memory gave without a file, which no config file sets: the memory may
    /// quote code (`_MAX_VALUE = GHOSTTY_ENUM_MAX_VALUE`, the suffix every enum ends with), or
    /// tell how to set a variable the code reads (`UPDATE_SNAPSHOTS=true`). So the rest of the
    /// repo's non-prose files are read: the assignment written there is VALID; the key still
    /// named (read) there is VALID with the value unverified; only a key nothing names any more
    /// is CONTRADICTED. Prose (the notes themselves, docs) proves nothing either way.
    fn config_key_elsewhere(&self, key: &str, leaf: &str, value: &str, config_files: &[String]) -> Outcome {
        // A key written as an affix (`_MAX_VALUE`) is part of longer names: its files are
        // found by the value's word instead.
        let affix = leaf.starts_with('_') || leaf.ends_with('_');
        let word = if affix { value.trim_matches(|c| c == '"' || c == '\'' || c == '`') } else { leaf };
        let mut candidates: Vec<&str> = self
            .index
            .files_with_token(word)
            .map(|f| f.path.as_str())
            .filter(|p| !is_prose(p) && !config_files.iter().any(|c| c == p))
            .collect();
        candidates.sort_unstable();
        let literal: String = format!("{key}={value}").split_whitespace().collect();
        let mut named = None;
        for path in &candidates {
            let Some(text) = self.index.read_text(path) else { continue };
            if !affix {
                if let Some((line, found)) =
                    config_assignments(&text, leaf).into_iter().find(|(_, f)| same_value(f, value))
                {
                    return checked(Verdict::Valid, 85, format!("{path}:{line} — {key} = {found}"), None);
                }
            }
            for (i, line) in text.lines().enumerate().filter(|(_, l)| l.len() <= 2000) {
                let bare: String = line.split_whitespace().collect();
                if bare.contains(&literal) {
                    return checked(Verdict::Valid, 85, format!("{path}:{} — contains `{}`", i + 1, clip(line)), None);
                }
                if named.is_none() && !affix && crate::index::identifiers(line).any(|t| t == leaf) {
                    named = Some(format!("{path}:{}", i + 1));
                }
            }
        }
        let read = format!("{} config files read", config_files.len());
        match named {
            Some(at) => checked(
                Verdict::Valid,
                60,
                format!("{at} — the repo still names {key}; no file sets it to {value} (a value given when running, not checked; {read})"),
                None,
            ),
            None => checked(
                Verdict::Contradicted,
                70,
                format!(". — no file of the repo sets {key} = {value} or names {key}, outside prose ({read})"),
                None,
            ),
        }
    }

    /// Text files that could set `leaf`: config files, plus files defining it as a constant.
    fn config_files_defining(&self, leaf: &str) -> Vec<String> {
        const CONFIG_EXT: [&str; 11] =
            ["toml", "yaml", "yml", "json", "ini", "cfg", "conf", "env", "properties", "config", "editorconfig"];
        let mut files: Vec<String> = self
            .index
            .files()
            .filter(|(_, f)| f.kind == FileKind::Text)
            .filter(|(_, f)| {
                let name = basename(&f.path);
                let ext = name.rsplit('.').next().unwrap_or("");
                CONFIG_EXT.contains(&ext) || name.starts_with(".env")
            })
            .map(|(_, f)| f.path.clone())
            .collect();
        for (f, _) in self.index.defs_named(leaf) {
            if !files.contains(&f.path) {
                files.push(f.path.clone());
            }
        }
        files
    }

    fn check_line_text(&self, r: &CodeRef, text: &str, since: Option<UnixSeconds>) -> Outcome {
        let raw = r.path.trim();
        let path = match self.locate(raw, &r.alt_paths, since) {
            Located::Refused(refusal) => return Outcome::NotChecked { reason: refusal.to_string() },
            Located::NotInRepo(reason) => return Outcome::NotChecked { reason },
            Located::Here { path, dir: false, .. } | Located::Moved { to: path, dir: false, .. } => path,
            Located::Gone { confidence, evidence } => {
                return checked(Verdict::Contradicted, confidence, format!("{raw} — {evidence}"), None)
            }
            _ => {
                return Outcome::NotChecked { reason: format!("{raw} is not a single file; cannot check a line of it") }
            }
        };
        let Some(content) = self.index.read_text(&path) else {
            return Outcome::NotChecked { reason: format!("{path} is binary, too large or unreadable") };
        };
        let needle = squash(text);
        if needle.is_empty() {
            return Outcome::NotChecked { reason: "no text to look for".into() };
        }
        let lines: Vec<&str> = content.lines().collect();
        let hit = |l: &str| squash(l).contains(&needle);
        let want = r.line.unwrap_or(0);
        if want > 0 && lines.get(want as usize - 1).is_some_and(|l| hit(l)) {
            return checked(Verdict::Valid, 95, format!("{path}:{want} — contains `{}`", clip(text)), None);
        }
        let found: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| hit(l)).map(|(i, _)| i + 1).collect();
        let nearest = found.iter().copied().min_by_key(|&l| (l as i64 - i64::from(want)).abs());
        match (nearest, want) {
            (Some(at), 0) => checked(Verdict::Valid, 90, format!("{path}:{at} — contains `{}`", clip(text)), None),
            (Some(at), _) => checked(
                Verdict::Stale,
                85,
                format!("{path}:{at} — `{}` is here now, not at line {want}", clip(text)),
                Some(format!("{path}:{at}")),
            ),
            (None, _) => checked(
                Verdict::Contradicted,
                70,
                format!("{path}:{} — `{}` does not occur in the file", want.max(1), clip(text)),
                None,
            ),
        }
    }

    /// Tier B claims (behavioral, architectural) without an investigator: a verdict only
    /// where the anchors alone prove one (the code they describe is gone or moved).
    fn check_anchors(&self, claim_type: ClaimType, refs: &[CodeRef], since: Option<UnixSeconds>) -> Outcome {
        let outcomes: Vec<(&CodeRef, Outcome)> =
            refs.iter().filter(|r| !r.path.trim().is_empty()).map(|r| (r, self.check_ref(r, since))).collect();
        match combine(outcomes) {
            Outcome::Checked { verdict: Verdict::Contradicted, confidence, evidence, .. } => checked(
                Verdict::Contradicted,
                confidence.min(80),
                format!("{evidence} — the code this {claim_type} claim describes is gone"),
                None,
            ),
            Outcome::Checked { verdict: Verdict::Stale, confidence, evidence, successor } => checked(
                Verdict::Stale,
                confidence.min(60),
                format!(
                    "{evidence} — the code this {claim_type} claim describes has moved; its behaviour is unchecked"
                ),
                successor,
            ),
            // Every anchor is there (or undecided): what the claim says of them needs judgement.
            Outcome::Checked { evidence, .. } => Outcome::NotChecked {
                reason: format!(
                    "{claim_type} claim needs an LLM investigator (none configured); its anchors: {evidence}"
                ),
            },
            not_checked @ Outcome::NotChecked { .. } => not_checked,
        }
    }
}

/// One outcome for a claim from the outcomes of each of its references (the first carries
/// the claim's own assertion). The most severe proven verdict decides, with the evidence of
/// every reference, so a defect found in the second reference is not hidden by the first.
/// A reference that could not be checked is named in the evidence; and when nothing else
/// proves a defect, the claim is not checked (it cannot be VALID with a part unproven).
fn combine(outcomes: Vec<(&CodeRef, Outcome)>) -> Outcome {
    if outcomes.len() == 1 {
        return outcomes
            .into_iter()
            .next()
            .map(|(_, o)| o)
            .unwrap_or(Outcome::NotChecked { reason: "claim has no code reference with a path".into() });
    }
    let name = |r: &CodeRef| match &r.symbol {
        Some(s) => format!("{}#{s}", r.path),
        None => r.path.clone(),
    };
    let mut unchecked = Vec::new();
    let mut decided: Vec<(Verdict, u8, String, Option<String>)> = Vec::new();
    for (r, outcome) in &outcomes {
        match outcome {
            Outcome::NotChecked { reason } => unchecked.push(format!("{} ({reason})", name(r))),
            Outcome::Checked { verdict, confidence, evidence, successor } => {
                decided.push((*verdict, *confidence, evidence.clone(), successor.clone()))
            }
        }
    }
    let worst = decided.iter().map(|d| verdict_rank(d.0)).max();
    let not_checked_note = (!unchecked.is_empty()).then(|| format!("not checked: {}", unchecked.join("; ")));
    match worst {
        Some(rank) if rank > 0 || not_checked_note.is_none() => {
            // The deciding references first (the most severe, least confident one leads, so
            // the claim claims no more certainty than its weakest deciding reference).
            let mut lead: Vec<&(Verdict, u8, String, Option<String>)> =
                decided.iter().filter(|d| verdict_rank(d.0) == rank).collect();
            lead.sort_by_key(|d| d.1);
            let (verdict, confidence, _, successor) = lead[0].clone();
            let mut parts: Vec<String> = lead.iter().map(|d| d.2.clone()).collect();
            let others: Vec<String> =
                decided.iter().filter(|d| verdict_rank(d.0) != rank).map(|d| format!("{}: {}", d.0, d.2)).collect();
            if !others.is_empty() {
                parts.push(format!("other references: {}", others.join("; ")));
            }
            parts.extend(not_checked_note);
            checked(verdict, confidence, parts.join(" | "), successor)
        }
        _ => {
            let proven: Vec<String> = decided.iter().map(|d| format!("{}: {}", d.0, d.2)).collect();
            let mut reason = not_checked_note.unwrap_or_default();
            if !proven.is_empty() {
                reason = format!("{reason}; checked: {}", proven.join("; "));
            }
            Outcome::NotChecked { reason }
        }
    }
}

/// Whether `name` occurs in `text` as a whole identifier.
fn identifiers_contain(text: &str, name: &str) -> bool {
    !name.is_empty() && crate::index::identifiers(text).any(|w| w == name)
}

/// VALID < AMBIGUOUS < STALE < CONTRADICTED: the order in which a reference's verdict
/// outweighs another's for the claim as a whole.
fn verdict_rank(v: Verdict) -> u8 {
    match v {
        Verdict::Valid => 0,
        Verdict::Ambiguous => 1,
        Verdict::Stale => 2,
        Verdict::Contradicted => 3,
    }
}

/// Values assigned to `key` in a config or source text: `key = v`, `key: v`, `"key": v`,
/// `KEY=v`, `const KEY: T = v`. Returns (line, value).
pub fn config_assignments(text: &str, key: &str) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.len() > 2000 {
            continue;
        }
        let mut rest = line;
        while let Some(pos) = rest.find(key) {
            let before = &rest[..pos];
            let after = &rest[pos + key.len()..];
            rest = after;
            let left_ok = before.chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
            let after = after.trim_start_matches(['"', '\'']);
            let right_ok = after.chars().next().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
            if !(left_ok && right_ok) {
                continue;
            }
            // `KEY=1 make x` (no space around `=`, an unquoted value): a shell assignment, whose
            // value ends at the first blank.
            if let Some(v) = after.strip_prefix('=').filter(|v| !v.starts_with([' ', '\t', '"', '\''])) {
                let value = clean_value(v.split_whitespace().next().unwrap_or(""));
                if !value.is_empty() {
                    found.push((i as u32 + 1, value));
                    break;
                }
            }
            // Skip a type annotation: `KEY: u32 = 100`.
            let after = after.trim_start();
            let value = if let Some(v) = after.strip_prefix('=') {
                v
            } else if let Some(v) = after.strip_prefix(':') {
                match v.find('=') {
                    Some(eq)
                        if !v[..eq].contains(['"', '\''])
                            && v[..eq].trim().chars().all(|c| c.is_alphanumeric() || "_<>&[]; ".contains(c))
                            && !v[..eq].trim().is_empty() =>
                    {
                        &v[eq + 1..]
                    }
                    _ => v,
                }
            } else {
                continue;
            };
            let value = clean_value(value);
            if !value.is_empty() {
                found.push((i as u32 + 1, value));
                break;
            }
        }
    }
    found
}

fn kind_name(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Text => "file",
        FileKind::Binary => "binary file",
        FileKind::Huge => "file (too large to index)",
        FileKind::Symlink => "symlink",
        FileKind::BrokenSymlink => "symlink whose target does not exist",
        FileKind::Special => "special file (FIFO, socket or device; never read)",
    }
}

fn clean_value(raw: &str) -> String {
    let mut v = raw.trim();
    for marker in [" #", " //", "\t#"] {
        if let Some(at) = v.find(marker) {
            v = &v[..at];
        }
    }
    let v = v.trim().trim_end_matches([',', ';']).trim();
    v.trim_matches(|c| c == '"' || c == '\'' || c == '`').trim().to_owned()
}

fn same_value(found: &str, claimed: &str) -> bool {
    let norm =
        |s: &str| s.trim().trim_matches(|c| c == '"' || c == '\'' || c == '`').trim().to_lowercase().replace('_', "");
    norm(found) == norm(claimed)
}

fn slice_lines(text: &str, first: u32, last: u32) -> String {
    text.lines()
        .skip(first.saturating_sub(1) as usize)
        .take((last.saturating_sub(first) + 1) as usize)
        .collect::<Vec<_>>()
        .join("\n")
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn clip(s: &str) -> String {
    let s = s.trim();
    if s.chars().count() <= 60 {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(60).collect::<String>())
    }
}

fn nearest_line(lines: &[&str], wanted: &str, around: u32) -> Option<u32> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim() == wanted)
        .map(|(i, _)| i as u32 + 1)
        .min_by_key(|&l| (i64::from(l) - i64::from(around)).abs())
}

/// The candidate sharing the most leading folders (then the longest common suffix) with
/// `path`, if exactly one is best.
fn best_candidate(path: &str, candidates: &[String]) -> Option<String> {
    let score = |c: &str| {
        let suffix = path.rsplit('/').zip(c.rsplit('/')).take_while(|(a, b)| a == b).count();
        (suffix, shared_dirs(path, c))
    };
    let best = candidates.iter().map(|c| score(c)).max()?;
    let mut top = candidates.iter().filter(|c| score(c) == best);
    let first = top.next()?;
    if top.next().is_none() {
        Some(first.clone())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text, key, and the (line, value) assignments found.
    type ConfigCase<'a> = (&'a str, &'a str, &'a [(u32, &'a str)]);

    #[test]
    fn a_rename_keeps_the_kind_of_file() {
        let cases = [
            ("js", "ts", true),
            ("JSX", "tsx", true),
            ("yml", "yaml", true),
            ("md", "mdx", true),
            ("h", "cpp", true),
            ("rs", "rs", true),
            ("rs", "rb", false),
            ("py", "rs", false),
            ("ts", "json", false),
            ("md", "py", false),
        ];
        for (a, b, want) in cases {
            assert_eq!(same_kind_of_file(a, b), want, "{a} {b}");
        }
    }

    #[test]
    fn example_paths_are_told_from_paths() {
        let cases: &[(&str, bool)] = &[
            ("path/to/file.ts", true),
            ("src/Path/To/x.rs", true),
            ("tests/path/test_foo.py", true),
            ("foo_tools.go", true),
            ("tests/specs/my_feature/main.ts", true),
            ("your-app/config.yml", true),
            ("src/utils/path.ts", false),
            ("src/food/barrel.ts", false),
            ("crates/mystery/lib.rs", false),
            ("docs/some.md", false),
            ("internal/ui/model/chat.go", false),
        ];
        for (path, example) in cases {
            assert_eq!(placeholder_path(path).is_some(), *example, "{path}");
        }
    }

    #[test]
    fn config_assignments_cover_common_syntaxes() {
        let cases: [ConfigCase; 9] = [
            ("max_connections = 100 # comment", "max_connections", &[(1, "100")]),
            ("  run: SKIP_UI_BUILD=1 make alloy", "SKIP_UI_BUILD", &[(1, "1")]),
            ("GREETING=\"hello world\"", "GREETING", &[(1, "hello world")]),
            ("timeout_ms: 750", "timeout_ms", &[(1, "750")]),
            ("{\n  \"retries\": 3,\n}", "retries", &[(2, "3")]),
            ("DATABASE_URL=postgres://x", "DATABASE_URL", &[(1, "postgres://x")]),
            ("pub const MAX_SHARDS: usize = 16;", "MAX_SHARDS", &[(1, "16")]),
            ("my_max_connections = 1\nmax_connections_total = 2", "max_connections", &[]),
            ("name = \"memval\"", "name", &[(1, "memval")]),
        ];
        for (text, key, want) in cases {
            let got = config_assignments(text, key);
            let want: Vec<(u32, String)> = want.iter().map(|(l, v)| (*l, v.to_string())).collect();
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn symbol_names_parse() {
        let cases = [
            ("ShardedCache", "ShardedCache", None),
            ("Cache::get", "get", Some("Cache")),
            ("Router.handle()", "handle", Some("Router")),
            ("parse_header()", "parse_header", None),
            ("crate::cache::ShardedCache", "ShardedCache", Some("cache")),
        ];
        for (raw, name, q) in cases {
            let s = SymbolName::parse(raw);
            assert_eq!((s.name.as_str(), s.qualifier.as_deref()), (name, q), "{raw}");
        }
    }

    #[test]
    fn best_candidate_prefers_the_closest_path() {
        let c = vec!["a/x/lru.go".to_owned(), "b/cache/lru.go".to_owned()];
        assert_eq!(best_candidate("internal/cache/lru.go", &c), Some("b/cache/lru.go".into()));
        assert_eq!(best_candidate("lru.go", &c), None);
    }
}
