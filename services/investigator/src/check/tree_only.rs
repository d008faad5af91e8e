//! Without history, a second look at a path the tree search found gone or could not place:
//! the tree's folder words, package names and project files ([`crate::tree_words`]) read
//! against the memory's other references. Every answer here is a guess history could
//! overturn, reported below the confidence git evidence gets, with evidence saying "no history".
//!
//! ## The order of the second look
//!
//! The second look without history (`Checker::guess_without_history`): a path the tree search
//! found gone or could not place is read again from the tree alone, in this order.
//!
//! (0) The same path in other letter case, or a path whose first folder's contents moved up to
//! the root (`ragas/tests` → `tests`, backed by another of the memory's paths in `ragas/`;
//! `check/respelled.rs`), or a path under one agent tool's folder found with the same rest under
//! another's (`.claude/criteria.md` → `.agents/criteria.md`, `check/notes_renamed.rs`), before
//! anything else.
//!
//! (0a) A tree row (`extensions/storage`) whose shorter reading (`storage`) is found under a
//! folder with the same words as the tree's gone root (`submitqueue/extension/storage`): the
//! root was renamed and moved, and the row with it (55, `Checker::root_respelled`, asked by
//! `locate` before this second look).
//!
//! (1) A folder whose own references in the memory (`old/x`, `old/y`) are found elsewhere by (2)
//! or (3), or as the one close match by name: all in one folder, it moved there (50); two
//! thirds of them or more in one folder, it moved there too (45, the others named); else it
//! was split (AMBIGUOUS, the folders listed).
//!
//! (2) The unique folder with the same words (split on `/ - _ .`, lowercase, numeric ordering
//! prefixes dropped, plurals made singular: `packages/targets/postgres-adapter` →
//! `packages/3-targets/6-adapters/postgres`, 55). It comes before (3) because the whole path
//! agrees, not only its last folder.
//!
//! (3) A folder holding the package named like the missing folder: `package.json` `name`,
//! `Cargo.toml` `[package] name`, `pyproject.toml` `[project]` name, compared by words less the
//! words at least a quarter (and three) of the repo's package names share, which name the
//! project (`turso_parser` for `parser`, `@langchain/standard-tests` for
//! `libs/langchain-standard-tests`); unique in the tree (55).
//!
//! A candidate of (2) or (3) must hold what the memory names inside the missing folder (one
//! such path with its rest kept, or an entry of its name anywhere under the candidate)
//! whenever the memory names anything there: a moved folder takes its contents along, so
//! cline's deleted `cli/`, whose `src/components/ModelPicker.tsx` is nowhere, is not
//! `apps/cli`. Except a folder renumbered in its own folder (same parent, same name once the
//! leading ordering number is set aside: `cookbook/15_learning` → `cookbook/08_learning`),
//! which is the same folder even when the file the memory named inside it is gone. When the
//! memory names nothing inside, two readings need that support and are dropped without it: a
//! plural of a one-word name (`client` → `clients/`, the folder of many clients, not the one),
//! and a package that agrees with the path on its name only while the folder it sat in is gone
//! too (`references/hello-world`, deleted with `references/`, is not the test fixture
//! `packages/cli-v3/e2e/fixtures/hello-world`).
//!
//! (3a) A folder renamed by one word added to its name, beside it (`packages/rum` →
//! `packages/browser-rum`; `check/respelled.rs`).
//!
//! (3b) A source file (`.rs`, `.py`, `.ts`/`.js` and kin, `.go`, `.rb`,
//! `.ex`) gone where a folder of its stem now stands beside it holding files of its language
//! (`same_kind_of_file`: `client.js` → `client/index.ts` too) became that folder of modules:
//! its entry file when it has one (`mod.rs`, `__init__.py`, `index.ts`, ...), else the folder
//! (`handlers.rs` → `handlers/`, `presets.py` → `presets/__init__.py`, 55).
//!
//! (3c) A Markdown page gone where a folder of its stem beside it holds `SKILL.md`,
//! `README.md` or `index.md`, and the reverse: a folder's `SKILL.md` or `index.md` gone with its
//! folder where one page in the tree is named after the folder (`.kiro/skills/react/SKILL.md` →
//! `docs/agents/react.md`, 50); then a file whose name has the same words in another style
//! (`publishLocal.sh` → `scripts/publish_local.sh`), unique in the tree (`check/respelled.rs`).
//!
//! (3d) An agent tool's notes file (`CLAUDE.md`, `GEMINI.md`, `.cursorrules`, ...) gone where an
//! `AGENTS.md` stands beside it was renamed to it (55, `check/notes_renamed.rs`).
//!
//! (3e) A file gone where the one file of its stem beside it has another extension, and no file
//! of the old extension is left in the folder: renamed with its folder's files of that kind
//! (`test_axes.fluid` → `test_axes.tiri`, 50; not a header's source or a component's style
//! sheet, `check/extension_changed.rs`).
//!
//! (4) When the memory's other paths in an ancestor folder are found, at least two of them and
//! more than anywhere else, under one other folder with their rest kept, the entry there whose
//! name shares the longest prefix with the missing one's (≥ 60 % of the longer name, unique:
//! `validation` → `validators`, 45).
//!
//! (4a) The one place that is the path with one folder put in after its first
//! (`verifiers/envs/x.py` → `verifiers/legacy/envs/x.py`, 50, `check/folder_put_in.rs`).
//!
//! (4b) The path with one word replaced wherever it occurs (`winsdk` → `winapp`), when the same
//! replacement finds another of the memory's missing paths (50, `check/word_replaced.rs`).
//!
//! (5) A bare folder name with several places deeper that none of this ties to the memory is gone
//! (40), not AMBIGUOUS.
//!
//! **Architecture Invariant:** the second look never reads outside the index (no file system
//! beyond it, no git) and never overrides a path found as written.

use crate::names::basename;
use crate::tree_words::{folder_of_move, is_project_file, pluralised_name, prefix_likeness, renumbered, words};

use super::common::list;
use super::located::Located;
use super::module_folder::ModuleFolder;
use super::Checker;

impl Checker<'_> {
    /// Without history, a bare manifest or lock file (`requirements.txt`) that is not at the
    /// root: the project's own is gone, whatever sub-projects deeper hold one of that name.
    pub(crate) fn bare_project_file(&self, readings: &[&str]) -> Option<Located> {
        let bare = readings.iter().find(|r| !r.contains('/') && is_project_file(r))?;
        let deeper: Vec<String> =
            self.index.files_named(bare).iter().map(|&i| self.index.file_at(i).path.clone()).collect();
        let elsewhere = if deeper.is_empty() {
            "no other file has its name".to_owned()
        } else {
            format!("the {} of that name deeper ({}) belong to sub-projects", deeper.len(), list(&deeper))
        };
        Some(Located::Gone {
            confidence: 50,
            evidence: format!("no history; {bare} names the project's own file, which is not at the root; {elsewhere}"),
            since: None,
        })
    }

    /// Without history, a second look at a path the tree search found gone or could not place
    /// (`found`): where the memory's own references inside it went, a package named like it, a
    /// folder with the same words, or a similar name in the folder its siblings moved to. `None`
    /// keeps `found`. Every answer is a guess at confidence 40-55 that says "no history".
    pub(crate) fn guess_without_history(&self, path: &str, found: &Located) -> Option<Located> {
        if !matches!(found, Located::Gone { .. } | Located::Unclear { .. }) {
            return None;
        }
        if let Some(moved) =
            self.other_case(path).or_else(|| self.moved_up(path)).or_else(|| self.tool_folder_moved(path))
        {
            return Some(moved);
        }
        let folder_like = !basename(path).contains('.') || self.context.has_inside(path);
        if folder_like {
            if let Some(split) = self.children_went(path) {
                return Some(split);
            }
            if let Some(moved) = self.folder_successor(path) {
                return Some(moved);
            }
            if let Some(moved) = self.word_added(path) {
                return Some(moved);
            }
        }
        if !folder_like {
            if let Some(moved) = self
                .module_became_folder(path)
                .or_else(|| self.notes_became_agents_md(path))
                .or_else(|| self.page_became_folder(path))
                .or_else(|| self.folder_became_page(path))
                .or_else(|| self.same_words_restyled(path))
                .or_else(|| self.extension_changed(path))
            {
                return Some(moved);
            }
        }
        if let Some(moved) = self.renamed_in_moved_parent(path) {
            return Some(moved);
        }
        // A folder-like name may still be a file (`Makefile`): then files are looked at too.
        if let Some(moved) = self
            .folder_put_in(path, folder_like)
            .or_else(|| folder_like.then(|| self.folder_put_in(path, false)).flatten())
        {
            return Some(moved);
        }
        if let Some(moved) = self.word_replaced(path) {
            return Some(moved);
        }
        // A bare folder name with several places deeper, none of which anything the memory
        // says ties to it (no reference under it, no package named like it): what was at the
        // root is gone, and the others are other folders of a common name.
        if let Located::Unclear { candidates } = found {
            if folder_like && !path.contains('/') && candidates.iter().all(|c| self.index.is_dir(c)) {
                return Some(Located::Gone {
                    confidence: 40,
                    evidence: format!(
                        "no history; nothing named {path} at the root, and nothing the memory names ties it to the {} folders of that name deeper ({})",
                        candidates.len(),
                        list(candidates)
                    ),
                    since: None,
                });
            }
        }
        None
    }

    /// A successor of a folder by the same words or by package name, unique in the tree and
    /// not a place the memory names as it is (the memory knew that one as something else).
    /// The same words come first: the whole path agrees, where a package name is only the
    /// last folder's (`packages/targets/postgres` is `packages/3-targets/3-targets/postgres`,
    /// not the `postgres` package of `packages/3-extensions`). A candidate must not contradict
    /// what the memory says was inside the folder ([`Checker::holds_named_children`]); a plural
    /// of a one-word name and a package that shares nothing but its name with a path whose
    /// parent folder is gone too need the memory's children found there to count; a folder
    /// renumbered in place ([`renumbered`]) needs nothing more.
    fn folder_successor(&self, path: &str) -> Option<Located> {
        let name = basename(path);
        let tree = self.index.tree_words();
        let same: Vec<&str> = tree
            .same_words(path)
            .into_iter()
            .filter(|d| !self.context.knew(self.index, d, path))
            .filter(|d| {
                renumbered(path, d)
                    || match self.holds_named_children(path, d) {
                        Some(held) => held,
                        None => !pluralised_name(path, d),
                    }
            })
            .collect();
        if let [dir] = same.as_slice() {
            return Some(Located::Moved {
                to: (*dir).to_owned(),
                dir: true,
                confidence: 55,
                evidence: format!(
                    "no history; {dir} has the same words as {path} (reordered, numbered or plural; unconfirmed)"
                ),
                since: None,
            });
        }
        let by_name: Vec<&(String, String)> = tree
            .named_like(name)
            .into_iter()
            .filter(|(dir, _)| !dir.is_empty() && dir != path && !self.context.knew(self.index, dir, path))
            .filter(|(dir, _)| match self.holds_named_children(path, dir) {
                Some(held) => held,
                None => !self.only_the_name_agrees(path, dir),
            })
            .collect();
        if let [(dir, package)] = by_name.as_slice() {
            return Some(Located::Moved {
                to: dir.clone(),
                dir: true,
                confidence: 55,
                evidence: format!(
                    "no history; the package in {dir} is named {package}, as the memory named {name} (unconfirmed)"
                ),
                since: None,
            });
        }
        None
    }

    /// Whether `candidate` holds what the memory names inside the missing folder `path`: one
    /// of those paths with the rest of its path kept, or an entry of its name anywhere under
    /// `candidate`. `None` when the memory names nothing inside `path`. A folder that moved
    /// takes its contents along; one whose named contents are nowhere in the candidate is a
    /// different folder of a like name (cline's deleted `cli/`, whose `src/components/ModelPicker.tsx`
    /// is in no `apps/cli`).
    pub(crate) fn holds_named_children(&self, path: &str, candidate: &str) -> Option<bool> {
        let inside = self.context.inside(self.index, path);
        if inside.is_empty() {
            return None;
        }
        let under = format!("{candidate}/");
        Some(inside.iter().any(|child| {
            let rest = &child[path.len() + 1..];
            let kept = format!("{candidate}/{rest}");
            if self.index.has(&kept) {
                return true;
            }
            let name = basename(rest);
            self.index.files_named(name).iter().any(|&i| self.index.file_at(i).path.starts_with(&under))
                || self.index.dirs_named(name).into_iter().any(|d| d.starts_with(&under))
        }))
    }

    /// Whether `candidate` agrees with the missing `path` on its name only, while the folder
    /// `path` sat in is gone as well: none of the words of `path`'s folders is in the
    /// candidate's folders, and no other path the memory names in that gone folder has its
    /// package beside the candidate. A folder deleted with its parent (`references/hello-world`)
    /// is not shown moved by a like-named package somewhere unrelated
    /// (`packages/cli-v3/e2e/fixtures/hello-world`); a parent still there (`libs/` of
    /// `libs/langchain-standard-tests`) says the folder left it on its own, which a move does,
    /// and siblings found together (`plugins/alpha`, `plugins/beta` as `modules/alpha`,
    /// `modules/beta`) say their folder moved.
    fn only_the_name_agrees(&self, path: &str, candidate: &str) -> bool {
        let Some((parent, _)) = path.rsplit_once('/') else { return false };
        if self.index.is_dir(parent) {
            return false;
        }
        let there = candidate.rsplit_once('/').map_or("", |(up, _)| up);
        if !words(parent).is_disjoint(&words(there)) {
            return false;
        }
        let tree = self.index.tree_words();
        let siblings_beside = self.context.inside(self.index, parent).iter().filter(|p| *p != path).any(|sibling| {
            tree.named_like(basename(sibling))
                .iter()
                .any(|(dir, _)| dir != candidate && dir.rsplit_once('/').map_or("", |(up, _)| up) == there)
        });
        !siblings_beside
    }

    /// A folder whose own references in the memory (`path/x`, `path/y`) were found elsewhere
    /// (by the same words or package name, else as the one close match by name): all in one
    /// folder, or at least two thirds of them, it moved there; else it was split. A stray
    /// child or two found by name in an unrelated folder (`tests/shared/data` → `shared/data`,
    /// while eight others are under `tests/odyssey/`) do not split a folder that moved whole.
    fn children_went(&self, path: &str) -> Option<Located> {
        let inside = self.context.inside(self.index, path);
        // Where each child went, and whether only its name found it there.
        let mut found: Vec<(String, bool)> = Vec::new();
        for child in &inside {
            let rest = &child[path.len() + 1..];
            let (to, by_name) = match self.folder_successor(child) {
                Some(Located::Moved { to, .. }) => (to, false),
                _ => match self.search_tree(child) {
                    Located::Moved { to, .. } if to.ends_with(&format!("/{}", basename(rest))) => (to, true),
                    _ => continue,
                },
            };
            found.push((folder_of_move(rest, &to), by_name));
        }
        let went = tally(found.iter().map(|(f, _)| f.as_str()));
        let most = went.first().map_or(0, |w| w.1);
        // A child found only by its name, or children gone to more than one place, is weaker
        // evidence: then more than half of everything the memory names inside (children found
        // nowhere included) must be in the one folder, else only the children found by
        // package or words count. A folder split up, its children mostly gone, is not a move.
        let weak = found.iter().any(|f| f.1) || most < found.len();
        if weak && 2 * most <= inside.len() {
            let strong = tally(found.iter().filter(|f| !f.1).map(|(f, _)| f.as_str()));
            return self.moved_by(path, strong, false);
        }
        self.moved_by(path, went, true)
    }

    /// The verdict on a folder from where its children went (`went`: folders by count, most
    /// first): all of them in one folder, it moved there; with `majority`, two thirds of
    /// them (two at least) also; else it was split. Fewer than two children placed: `None`.
    fn moved_by(&self, path: &str, went: Vec<(String, usize)>, majority: bool) -> Option<Located> {
        let resolved: usize = went.iter().map(|w| w.1).sum();
        if resolved < 2 {
            return None;
        }
        let (top, most) = went[0].clone();
        if most == resolved {
            return Some(Located::Moved {
                to: top.clone(),
                dir: true,
                confidence: 50,
                evidence: format!("no history; the {resolved} paths the memory names in {path}/ are all found under {top}/ (unconfirmed)"),
                since: None,
            });
        }
        if majority && most >= 2 && 3 * most >= 2 * resolved {
            let others: Vec<String> = went[1..].iter().map(|(f, _)| f.clone()).collect();
            return Some(Located::Moved {
                to: top.clone(),
                dir: true,
                confidence: 45,
                evidence: format!(
                    "no history; {most} of the {resolved} paths the memory names in {path}/ are found under {top}/ (the rest under {}; unconfirmed)",
                    list(&others)
                ),
                since: None,
            });
        }
        Some(Located::Unclear { candidates: went.into_iter().map(|(f, _)| f).collect() })
    }

    /// A source file `dir/name.ext` gone while a folder `dir/name/` holding files of the same
    /// language ([`ModuleFolder`]) stands beside where it was: the module became a folder
    /// of modules (`handlers.rs` → `handlers/`, `presets.py` → `presets/__init__.py`,
    /// `client.js` → `client/index.ts`). The successor is the folder's entry file when it has
    /// one (the file that now answers to the module's name), else the folder.
    fn module_became_folder(&self, path: &str) -> Option<Located> {
        let module = ModuleFolder::of(path)?;
        let folder = &module.folder;
        if !self.index.is_dir(folder) || !self.index.files().any(|(_, f)| module.holds(&f.path)) {
            return None;
        }
        let (to, dir) = module.successor(|e| self.index.file(e).is_some());
        Some(Located::Moved {
            to,
            dir,
            confidence: 55,
            evidence: format!("no history; {folder}/ holds files of the language of {path}: a module that became a folder (unconfirmed)"),
            since: None,
        })
    }

    /// `old/a/b` whose siblings in the memory (`old/x/y`) are all found under one other folder
    /// (`new/x/y`), where `new/a` holds one entry with a name like `b` (`validation` →
    /// `validators`): moved with its parent and renamed.
    fn renamed_in_moved_parent(&self, path: &str) -> Option<Located> {
        let name = basename(path);
        let mut ancestor = path.rsplit_once('/').map(|(up, _)| up);
        while let Some(old) = ancestor.filter(|a| !a.is_empty()) {
            if let Some(new) = self.context.moved_to(self.index, old, path) {
                let rest = &path[old.len() + 1..];
                let parent = match rest.rsplit_once('/') {
                    Some((up, _)) => format!("{new}/{up}"),
                    None => new.clone(),
                };
                if !self.index.is_dir(&parent) {
                    return None;
                }
                let prefix = format!("{parent}/");
                let mut entries: Vec<&str> = self
                    .index
                    .dirs()
                    .chain(self.index.files().map(|(_, f)| f.path.as_str()))
                    .filter(|p| p.strip_prefix(&prefix).is_some_and(|r| !r.contains('/')))
                    .collect();
                entries.sort();
                entries.dedup();
                let scored: Vec<(f64, &str)> = entries
                    .iter()
                    .map(|e| (prefix_likeness(name, basename(e)), *e))
                    .filter(|(s, _)| *s >= 0.6)
                    .collect();
                let best = scored.iter().map(|s| s.0).fold(0.0, f64::max);
                let top: Vec<&str> = scored.iter().filter(|s| s.0 == best).map(|s| s.1).collect();
                if let [to] = top.as_slice() {
                    return Some(Located::Moved {
                        to: (*to).to_owned(),
                        dir: self.index.is_dir(to),
                        confidence: 45,
                        evidence: format!(
                            "no history; the memory's other paths in {old}/ are found under {new}/, and there {to} has a name like {name} (unconfirmed)"
                        ),
                        since: None,
                    });
                }
                return None;
            }
            ancestor = old.rsplit_once('/').map(|(up, _)| up);
        }
        None
    }
}

/// How many of `folders` are each folder, most first (ties by name).
fn tally<'a>(folders: impl Iterator<Item = &'a str>) -> Vec<(String, usize)> {
    let mut went: Vec<(String, usize)> = Vec::new();
    for folder in folders {
        match went.iter_mut().find(|(f, _)| f == folder) {
            Some((_, n)) => *n += 1,
            None => went.push((folder.to_owned(), 1)),
        }
    }
    went.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    went
}
