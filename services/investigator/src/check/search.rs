//! The search of today's tree for a path that is not where the memory says: paths ending with
//! it, the same name elsewhere, the same stem with another extension.
//!
//! Before any tree search, a bare manifest or lock file (`requirements.txt`, `uv.lock`,
//! `Cargo.toml`, ...) missing at the root is the project's own and gone (50); copies deeper belong
//! to sub-projects. Two filters apply to same-named candidates without history: a place the memory
//! itself names as it is (or names a path inside that exists) was known to it as something else
//! and is no successor; and a file name that three or more files share (`base.ts`) ties nothing,
//! so the old file's folder name must appear in the candidate's path, and found only in a
//! subfolder of its old folder while that folder is still there it is the subfolder's own
//! (`skills/x/README.md` is not `skills/README.md` moved). The only file of its name in a folder
//! above or below the old one (`docs/CONTRIBUTING.md` → `CONTRIBUTING.md`, `scripts/x.json` →
//! `scripts/labeling/x.json`), of at most two files so named, is tied to it: a folder flattened or
//! sorted into subfolders. Copies of other projects (under `vendor/`, `third_party/`,
//! `node_modules/`) are no candidates for the repository's own file. Of several files named
//! like the gone path, the one that defines more
//! of the names the memory places in it than any other is where it moved; a file beside the old
//! place whose name grows the old one by an affix outranks a same-named file in an unrelated
//! folder. What the tree search leaves gone or unplaced gets the second look
//! (`check/tree_only.rs`).
//!
//! ## Words that are not references
//!
//! Found by reading every verdict on real notes checked against the tree of their own commit,
//! where a non-VALID verdict is either rot or a false alarm. A path that nothing in the tree ends
//! with (and, with history, git never had) is **not checked**, with the reason, when it reads as an
//! example (`path/to/`, `foo`/`bar` parts, `my_feature`/`your-app` stand-ins: `placeholder_path`)
//! or, with history, when git ignores it (a build output or local file: `RepoIndex::ignored_by`
//! reads the `.gitignore` of the root and of each folder on the way down; without history a
//! tracked path that moved away and is ignored now looks the same, so it is not skipped).
//!
//! **Drift needs a past.** With complete history, a path no reading of which is in the tree or
//! was ever in git history was never deleted or moved: the search answers `NeverInRepo` (nothing
//! of its name) or `NameElsewhere` (files of its name or stem elsewhere), and `check/no_past.rs`
//! decides whether it is still a claim about the repository.
//!
//! **Architecture Invariant:** none of these turns a path or name that exists, or that history
//! shows, into anything else; they apply only where the verdict would have rested on absence.

use memval_proto::UnixSeconds;

use crate::index::basename;
use crate::names::folder;

use super::anywhere::vendored;
use super::common::{best_candidate, identifiers_contain, list, placeholder_path, same_kind_of_file};
use super::history::since_of;
use super::located::Located;
use super::symbol_name::SymbolName;
use super::Checker;

/// Folders that conventionally sit at a repository's root: a path written starting with one
/// is written from the root.
pub(super) const ROOT_FOLDERS: &[&str] = &[
    "src", "lib", "libs", "pkg", "cmd", "internal", "app", "apps", "packages", "crates", "proto", "tests", "test",
    "docs", "scripts", "bin",
];

impl Checker<'_> {
    /// Successor search without history: the same path under a deeper folder, the same file
    /// name elsewhere, the same stem with another extension. With history and a date, a
    /// suffix that matches one place today is a move when the path as written existed
    /// itself; one that matches several places today is read against the tree at the
    /// memory's date, where it may have meant one.
    pub(super) fn search_tree(&self, path: &str) -> Located {
        self.search_tree_at(path, None, false)
    }

    /// `bare`: the memory wrote the path as a bare file name (its folder is a reading of
    /// memval's, not the memory's words).
    pub(super) fn search_tree_at(&self, path: &str, since: Option<UnixSeconds>, bare: bool) -> Located {
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
            0 => self.nothing_ends_with(path, bare),
            1 => self.one_place_ends_with(path, by_suffix.remove(0)),
            _ if self.git.is_none() => self.several_end_with_no_history(path, by_suffix),
            _ => self.several_end_with(path, by_suffix, since),
        }
    }

    /// Only `found` ends with `path`: a move when history knew the path, or (without history)
    /// when the path starts at a conventional root folder gone from the root; else the path
    /// is written relative to a folder.
    fn one_place_ends_with(&self, path: &str, found: String) -> Located {
        let suffix = format!("/{path}");
        let dir = self.index.is_dir(&found);
        // The path as written was a real path once: the memory meant it, and it moved.
        if let Some((git, trace)) = self.git.map(|g| (g, g.follow(path, None))).filter(|(_, t)| t.known) {
            // It left its place when its last name was deleted or renamed away.
            let left_in = trace.deleted_in.as_deref().or(trace.renames.last().map(|r| r.0.as_str()));
            return Located::Moved {
                evidence: self.with_history_note(git, format!("git: {path} existed; today only {found} ends with it")),
                to: found,
                dir,
                confidence: 80,
                since: left_in.and_then(|c| since_of(git, c)),
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
                since: None,
            };
        }
        if self.git.is_none() {
            return self.prefix_reading(path, &found, dir, 1);
        }
        Located::Here {
            note: Some(format!("{path} is written relative to a folder; full path {found}")),
            path: found,
            dir,
            confidence: 85,
        }
    }

    /// Several places end with `path` and there is no history: the one the memory's other
    /// references support, else gone or undecided.
    fn several_end_with_no_history(&self, path: &str, by_suffix: Vec<String>) -> Located {
        let name = basename(path);
        // Without history: the place under which the memory's other references are
        // found too (they moved, or are written relative to it, together); with no
        // such place, or several, the evidence is split and says so.
        match self.supported_prefix(path, &by_suffix) {
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
                    since: None,
                },
                None => Located::Unclear { candidates: by_suffix },
            },
        }
    }

    /// Several places end with `path` today; at the memory's date, maybe only one did.
    fn several_end_with(&self, path: &str, by_suffix: Vec<String>, since: Option<UnixSeconds>) -> Located {
        let suffix = format!("/{path}");
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
                        return still_named(path, &meant, found);
                    }
                }
            }
        }
        Located::Unclear { candidates: by_suffix }
    }

    /// Nothing ends with `path` (and, with git, history never had it): an example, an ignored
    /// path, the same name elsewhere, the same stem with another extension, the name grown by
    /// an affix beside it, or gone.
    fn nothing_ends_with(&self, path: &str, bare: bool) -> Located {
        let name = basename(path);
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
        if let Some(built) = self.git.and_then(|_| self.ignored_here(path)) {
            return built;
        }
        let mut same_name: Vec<String> =
            self.index.files_named(name).iter().map(|&i| self.index.file_at(i).path.clone()).collect();
        // Copies of other projects (`api/vendor/.../CONTRIBUTING.md`) are no successor of the
        // repository's own file, unless the path itself was in such a copy.
        if !vendored(path) && same_name.iter().any(|p| !vendored(p)) {
            same_name.retain(|p| !vendored(p));
        }
        let same_dir_name: Vec<String> = self.index.dirs_named(name).into_iter().map(str::to_owned).collect();
        let mut candidates = if same_name.is_empty() { same_dir_name } else { same_name };
        // The path itself, a folder left holding only the memory, is no place it went.
        candidates.retain(|c| c != path.trim_end_matches('/'));
        if self.git.is_none() {
            // A place the memory itself names as it is was known to it as something else.
            candidates.retain(|c| !self.context.knew(self.index, c, path));
        }
        // With complete history the path never was: a file of its name elsewhere is no
        // successor by itself (`check/no_past.rs` reads it against the memory's folders).
        let complete = self.git.is_some_and(|g| !g.paths_incomplete());
        let bare_and_unique = bare && candidates.len() == 1;
        if complete && !candidates.is_empty() && !bare_and_unique {
            return Located::NameElsewhere { candidates, stem: false };
        }
        if self.git.is_none() && candidates.len() > 1 {
            if let Some(moved) = self.defining_the_memorys(path, &candidates) {
                return moved;
            }
        }
        if let Some(best) = best_candidate(path, &candidates) {
            let dir = self.index.is_dir(&best);
            if self.git.is_none() {
                if let Some(why) = self.uncorroborated(path, &best) {
                    // A file beside the old place that grows its name says more than one
                    // that shares only the name in an unrelated folder.
                    if let Some(moved) = self.affixed_beside(path) {
                        return moved;
                    }
                    return Located::Gone {
                        confidence: 50,
                        evidence: format!(
                            "no history; nothing at {path}, and {} ({}) share only its name: {why}",
                            list(&candidates),
                            candidates.len()
                        ),
                        since: None,
                    };
                }
            }
            if self.git.is_some() && bare && candidates.len() == 1 {
                // Drift needs a past: git never had the path memval read, so nothing moved.
                // A bare name with one file of that name is that file.
                return Located::Here {
                    note: Some(format!(
                        "the only {} of that name ({path}, where it was looked for first, was never in the repository)",
                        if dir { "folder" } else { "file" }
                    )),
                    path: best,
                    dir,
                    confidence: 70,
                };
            }
            return Located::Moved {
                confidence: if candidates.len() == 1 { 65 } else { 55 },
                evidence: format!("no history; the only close match by name is {best}"),
                to: best,
                dir,
                since: None,
            };
        }
        if candidates.len() > 1 {
            // A path with folders that nothing ends with: the place it names is gone;
            // files of the same name elsewhere are listed, not chosen. A bare name in
            // several folders stays undecided.
            if path.contains('/') {
                // As above: a file beside the old place that grows its name outranks files that
                // share only the name in other folders (`sdk/src/client.rs` → `sdk/src/node_client.rs`
                // while four other crates have a `client.rs`).
                if let Some(moved) = self.affixed_beside(path) {
                    return moved;
                }
                return Located::Gone {
                    confidence: 55,
                    evidence: format!(
                        "no path ends with {path}; {} other places have its name: {}",
                        candidates.len(),
                        list(&candidates)
                    ),
                    since: None,
                };
            }
            return Located::Unclear { candidates };
        }
        self.same_stem_elsewhere(path).or_else(|| self.affixed_beside(path)).unwrap_or_else(|| self.never_in_repo())
    }

    /// `path`, not in the tree, as a path git ignores: a build output or local file.
    pub(super) fn ignored_here(&self, path: &str) -> Option<Located> {
        let (file, pattern) = self.index.ignored_by(path, false).or_else(|| self.index.ignored_by(path, true))?;
        Some(Located::NotInRepo(format!(
            "{path} is not in the tree and git ignores it ({file}: `{pattern}`): a build output or local file, which a checkout does not have"
        )))
    }

    /// Without history, of several files named like the gone `path`, the one that defines more
    /// of the symbols the memory places in `path` than any other (at least two, or the only
    /// one it places there): the file moved, and its definitions came along
    /// (`backend/src/client.py` → `backend/packages/harness/deerflow/client.py`, which defines
    /// the memory's `chat`, `stream` and `StreamEvent`, while `mcp/client.py` defines none).
    fn defining_the_memorys(&self, path: &str, candidates: &[String]) -> Option<Located> {
        let symbols: Vec<SymbolName> = self.context.symbols_in(path).iter().map(|s| SymbolName::parse(s)).collect();
        if symbols.is_empty() {
            return None;
        }
        let defines = |c: &str| {
            let defs = self.defs_in(c);
            symbols.iter().filter(|sym| defs.iter().any(|d| sym.matches(c, d))).count()
        };
        let mut scored: Vec<(usize, &String)> = candidates.iter().map(|c| (defines(c), c)).collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        let (best, found) = scored[0];
        let runner_up = scored.get(1).map_or(0, |s| s.0);
        if best == 0 || best == runner_up || (best < 2 && symbols.len() > 1) {
            return None;
        }
        Some(Located::Moved {
            evidence: format!(
                "no history; nothing at {path}; of the {} files named {}, {found} defines {best} of the {} names the memory places in it, more than any other",
                candidates.len(),
                basename(path),
                symbols.len()
            ),
            to: found.clone(),
            dir: false,
            confidence: 55,
            since: None,
        })
    }

    /// Without history, the one file beside where the path was whose name is the old name
    /// grown by an affix (`ui.cpp` → `ui.cpp.hpp`, `create-pr.md` → `archon-create-pr.md`):
    /// moved there, at a guess's confidence. Two or more such files, a folder that is gone, or
    /// a bare name leave the path gone. With history, git's own record decides.
    fn affixed_beside(&self, path: &str) -> Option<Located> {
        if self.git.is_some() {
            return None;
        }
        let path = path.trim_end_matches('/');
        // A bare name has no place of its own to be beside.
        let (folder, name) = path.rsplit_once('/')?;
        if name.starts_with('.') || !self.index.is_dir(folder) {
            return None;
        }
        let grown = |other: &str| {
            other.len() > name.len() + 1
                && (other.strip_prefix(name).is_some_and(|rest| rest.starts_with(['.', '-', '_']))
                    || other.strip_suffix(name).is_some_and(|rest| rest.ends_with(['-', '_', '.'])))
        };
        let mut found = self.index.children(folder).into_iter().filter(|(other, dir)| !dir && grown(other));
        let (only, _) = found.next()?;
        if found.next().is_some() {
            return None;
        }
        let to = format!("{folder}/{only}");
        Some(Located::Moved {
            evidence: format!(
                "no history; {to}, beside where it was, is the only file whose name grows {name} by an affix"
            ),
            to,
            dir: false,
            confidence: 50,
            since: None,
        })
    }

    /// Same stem, another extension of the same kind of file (`client.js` → `client.ts`,
    /// `ci.yml` → `ci.yaml`); a Rust file is not renamed to a Ruby one. A dotfile or dot-folder
    /// (`web/.next`) has no stem to share.
    fn same_stem_elsewhere(&self, path: &str) -> Option<Located> {
        let name = basename(path);
        let (stem, ext) = path.rsplit_once('.').filter(|(stem, _)| !basename(stem).is_empty())?;
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
        if self.git.is_some_and(|g| !g.paths_incomplete()) && !relatives.is_empty() {
            return Some(Located::NameElsewhere { candidates: relatives, stem: true });
        }
        let best = best_candidate(path, &relatives)?;
        Some(Located::Moved {
            evidence: format!("no history; {best} has the same stem with another extension"),
            to: best,
            dir: false,
            confidence: 50,
            since: None,
        })
    }

    /// Nothing of the name anywhere, nor in history: without history, gone; with history, a
    /// path that never was, which [`Checker::locate`] reads against the memory's folders.
    pub(super) fn never_in_repo(&self) -> Located {
        match self.git {
            Some(_) => Located::NeverInRepo,
            None => Located::Gone {
                confidence: 70,
                evidence: "not in the tree and no file of that name exists (no git history to consult)".into(),
                since: None,
            },
        }
    }

    /// Without history, a path found only under a prefix (`apps/vscode/src/x.ts` for
    /// `src/x.ts`). When the memory itself names that folder or something in it, the path is
    /// written relative to it: VALID. When its first folder is still at the root, notes
    /// abbreviate inside it: VALID, unless the memory's other paths in that folder are there
    /// as written (it means the root's folder, which no longer holds this one). A bare file name is how notes abbreviate: VALID. Else the
    /// path was written from the root and is no longer there: moved under the prefix, at the
    /// confidence of a guess (no history can confirm it), saying so.
    pub(super) fn prefix_reading(&self, path: &str, found: &str, dir: bool, places: usize) -> Located {
        let prefix = found.strip_suffix(&format!("/{path}")).unwrap_or("");
        let first = path.split('/').next().unwrap_or(path);
        let relative = |note: String| Located::Here {
            note: Some(note),
            path: found.to_owned(),
            dir,
            confidence: if places > 1 { 70 } else { 85 },
        };
        // A memory that names the path's first folder as an entry of its own (`sdk/` in a
        // listing of top folders beside `ts-libs/`) wrote it from the root, not inside `prefix/`.
        let own_entry = path.contains('/') && self.context.names_exactly(first);
        match self.context.names_under(self.index, prefix) {
            Some(named) if !own_entry => {
                return relative(format!(
                    "{path} is written relative to {prefix}/, a folder the memory names ({named}); full path {found}"
                ))
            }
            Some(_) => return Located::Moved {
                to: found.to_owned(),
                dir,
                confidence: if places > 1 { 50 } else { 60 },
                evidence: format!(
                    "no history; the memory names {first}/ as a folder of its own, which is not where {path} is, and {found} ends with it (read as moved under {prefix}/, unconfirmed)"
                ),
                since: None,
            },
            None => {}
        }
        // Its first folder is at the root: an abbreviation inside another folder of that name,
        // unless the memory's other paths use the root's (`docs/adr` there as written): then
        // the root's is the folder meant, and the file left it.
        let first_at_root = self.index.is_dir(first) || self.index.file(first).is_some();
        let root_meant = first_at_root && self.context.knew(self.index, first, path);
        if (!path.contains('/') && !dir) || (first_at_root && !root_meant) {
            return relative(format!("{path} is written relative to a folder; full path {found}"));
        }
        // What the memory names inside it is not in the place found: not the same folder.
        let inside = self.context.inside(self.index, path);
        if dir
            && !inside.is_empty()
            && !inside.iter().any(|p| {
                let there = format!("{prefix}/{p}");
                self.index.has(&there)
            })
        {
            return Located::Gone {
                confidence: 50,
                evidence: format!(
                    "no history; nothing at {path}, and {found} holds none of what the memory names in it ({})",
                    list(&inside)
                ),
                since: None,
            };
        }
        let siblings = self.context.found_under(self.index, prefix, path);
        let why =
            if siblings > 0 { format!(", as are {siblings} other paths the memory names") } else { String::new() };
        let root = if root_meant {
            format!("{first}/ at the root, where the memory's other paths in it are, does not hold it")
        } else {
            format!("{first} is not at the root")
        };
        Located::Moved {
            to: found.to_owned(),
            dir,
            confidence: if places > 1 { 50 } else { 60 },
            evidence: format!(
                "no history; {root} and the memory names nothing under {prefix}/; {found} ends with {path}{why} (read as moved under {prefix}/, unconfirmed)"
            ),
            since: None,
        }
    }

    /// Among several places ending with `path`, the one under whose prefix most of the
    /// memory's other references are found as well; `None` when none or a tie.
    pub(super) fn supported_prefix(&self, path: &str, places: &[String]) -> Option<String> {
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
    pub(super) fn uncorroborated(&self, path: &str, candidate: &str) -> Option<String> {
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
        // The repository's own files of the name: vendored copies do not count, unless the
        // path itself was in one.
        let own_named: Vec<&str> = self
            .index
            .files_named(basename(path))
            .iter()
            .map(|&i| self.index.file_at(i).path.as_str())
            .filter(|p| vendored(path) || !vendored(p))
            .collect();
        let same_named = own_named.len();
        // Its folder still there, a name many files share inside a subfolder of it is that
        // subfolder's own file (`skills/x/README.md` is not `skills/README.md` moved).
        let old_folder = folder(path);
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
        let new_folder = folder(candidate);
        // The only file of its name in a folder above or below its old one
        // (`docs/CONTRIBUTING.md` → `CONTRIBUTING.md`, `scripts/x.json` → `scripts/labeling/x.json`,
        // `backend/app/hello.py` → `backend/app/sample/hello.py` while a test fixture elsewhere
        // is named so too): a folder flattened or sorted into subfolders. Of a name three or
        // more files share, a subfolder's file is its own (above).
        let in_line = |f: &str| {
            f.is_empty() || old_folder.starts_with(&format!("{f}/")) || f.starts_with(&format!("{old_folder}/"))
        };
        let lined_up = own_named.iter().filter(|p| in_line(folder(p))).count();
        if same_named <= 2 && lined_up == 1 && !old_folder.is_empty() && in_line(new_folder) {
            return None;
        }
        // ... or in another folder of the same parent (`test/testsuite/x.jl` →
        // `test/test_common/x.jl`): a folder renamed or split beside itself.
        let grandparent = old_folder.rsplit_once('/').map(|(g, _)| g);
        if same_named == 1 && grandparent.is_some_and(|g| new_folder.starts_with(&format!("{g}/"))) {
            return None;
        }
        // A folder other than the root: every memory names something at the root.
        if !new_folder.is_empty() && self.context.existing_in(self.index, new_folder, path) {
            return None;
        }
        // The memory's other paths moved the same way: found under the candidate's folder
        // (`tensorzero-core/x` at `crates/tensorzero-core/x` beside `crates/tensorzero-node`),
        // or, for those in the same old folder, in the candidate's folder with the rest of
        // their path kept.
        if self.context.found_under(self.index, new_folder, path) > 0 {
            return None;
        }
        if !old_folder.is_empty()
            && !new_folder.is_empty()
            && self.context.moved_along(self.index, old_folder, new_folder, path)
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
}

/// What history found for `meant`, the one place that ended with `path` at the memory's date:
/// a move to a place that still ends with `path` (`application.properties`, written bare, moved
/// from `examples/demo/` to `examples/profiling/demo/` under the same name) leaves the path as
/// written naming it. The memory said which file, not where.
fn still_named(path: &str, meant: &str, found: Located) -> Located {
    match found {
        Located::Moved { to, dir, .. } if to.ends_with(&format!("/{path}")) => Located::Here {
            note: Some(format!(
                "{path} is written relative to a folder; at the memory's date it was {meant}, which git moved to {to}, where it still ends with {path}"
            )),
            path: to,
            dir,
            confidence: 80,
        },
        found => found,
    }
}
