//! Without history: what the tree at one commit alone can say about a folder or file a memory
//! names that is no longer where it says. Three readings of the tree, each a general
//! capability a user can check by eye:
//!
//! - **Same words** ([`words`]): a folder whose path has the same words as the missing one,
//!   once separators, case, numeric ordering prefixes (`3-targets`) and plurals are set aside
//!   (`packages/targets/postgres-adapter` and `packages/3-targets/6-adapters/postgres`);
//!   renumbered in its own folder (`cookbook/15_learning` → `cookbook/08_learning`,
//!   [`renumbered`]), that is the same folder even when the memory's paths inside it are gone.
//! - **Package names** ([`manifest_name`], [`name_key`]): a folder whose `package.json`,
//!   `Cargo.toml` or `pyproject.toml` names the package the way the memory named the folder,
//!   less the words every package of the repo shares (`libs/langchain-standard-tests` and the
//!   folder of `@langchain/standard-tests`).
//! - **Project files** ([`is_project_file`]): a manifest or lock file named bare means the
//!   project's own, at the root; copies deeper belong to other projects.
//!
//! Everything here is a guess that history could overturn. The caller reports it at a
//! confidence below what git evidence gets, with evidence that says "no history". This module
//! reads only strings it is given: never the file system, never git, and memory text is only
//! compared, never obeyed.

use std::collections::{BTreeSet, HashMap};

use crate::check::{list, same_kind_of_file, Checker, Located};
use crate::index::{basename, RepoIndex};

/// The words of a path: split on `/ - _ .` and spaces, lowercase, numeric tokens (ordering
/// prefixes such as `3-` in `3-targets`) dropped, plurals made singular (`adapters` →
/// `adapter`, `utilities` → `utility`).
pub(crate) fn words(path: &str) -> BTreeSet<String> {
    path.split(['/', '-', '_', '.', ' ', '@'])
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .map(|w| singular(&w.to_lowercase()))
        .collect()
}

fn singular(w: &str) -> String {
    if let Some(stem) = w.strip_suffix("ies").filter(|s| s.len() >= 2) {
        return format!("{stem}y");
    }
    if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
        return w[..w.len() - 1].to_owned();
    }
    w.to_owned()
}

/// Whether `candidate`'s own name is the plural of the one-word name of `path`, ordering
/// prefixes and case set aside (`client` → `clients`, `example` → `3-examples`): a plural names
/// the folder of many such things, not the one the memory named, so it needs other support.
pub(crate) fn pluralised_name(path: &str, candidate: &str) -> bool {
    let bare =
        |p: &str| basename(p).trim_start_matches(|c: char| c.is_ascii_digit() || c == '-' || c == '_').to_lowercase();
    let (old, new) = (bare(path), bare(candidate));
    let one_word = !old.is_empty() && old.chars().all(|c| c.is_ascii_alphanumeric());
    one_word && old != new && singular(&new) == old
}

/// Whether `candidate` is `path` renumbered in place: the same parent folder, and the same
/// name once a leading ordering number is set aside (`cookbook/15_learning` and
/// `cookbook/08_learning`, `docs/guide` and `docs/2-guide`). Reordering a numbered sequence
/// moves the folder, not what it is, so this needs no other support.
pub(crate) fn renumbered(path: &str, candidate: &str) -> bool {
    let parent = |p: &str| p.rsplit_once('/').map_or("", |(up, _)| up).to_owned();
    let unnumbered = |name: &str| {
        name.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches(['-', '_', '.', ' ']).to_lowercase()
    };
    let (old, new) = (basename(path), basename(candidate));
    let numbered = |name: &str| name.starts_with(|c: char| c.is_ascii_digit());
    parent(path) == parent(candidate)
        && old != new
        && (numbered(old) || numbered(new))
        && !unnumbered(old).is_empty()
        && unnumbered(old) == unnumbered(new)
}

/// Folders grouped by their [`words`].
pub(crate) fn dirs_by_words<'a>(dirs: impl IntoIterator<Item = &'a str>) -> HashMap<BTreeSet<String>, Vec<String>> {
    let mut out: HashMap<BTreeSet<String>, Vec<String>> = HashMap::new();
    for d in dirs {
        out.entry(words(d)).or_default().push(d.to_owned());
    }
    for found in out.values_mut() {
        found.sort();
    }
    out
}

/// The folders of `by_words` whose words are exactly those of `path` (not `path` itself).
pub(crate) fn same_words<'a>(by_words: &'a HashMap<BTreeSet<String>, Vec<String>>, path: &str) -> Vec<&'a str> {
    let want = words(path);
    if want.is_empty() {
        return Vec::new();
    }
    by_words.get(&want).into_iter().flatten().map(String::as_str).filter(|d| *d != path).collect()
}

/// File names whose text can name the package of the folder they sit in.
pub(crate) const MANIFESTS: &[&str] = &["package.json", "Cargo.toml", "pyproject.toml"];

/// The package name a manifest gives: `package.json`'s first `"name"` (the top-level key
/// comes first in every manifest npm writes), `Cargo.toml`'s `[package] name`,
/// `pyproject.toml`'s `[project]` or `[tool.poetry]` `name`. `None` for anything else.
pub(crate) fn manifest_name(file_name: &str, text: &str) -> Option<String> {
    match file_name {
        "package.json" => {
            let at = text.find("\"name\"")?;
            let rest = text[at + 6..].trim_start().strip_prefix(':')?.trim_start().strip_prefix('"')?;
            let name = &rest[..rest.find('"')?];
            (!name.is_empty()).then(|| name.to_owned())
        }
        "Cargo.toml" => toml_name(text, &["[package]"]),
        "pyproject.toml" => toml_name(text, &["[project]", "[tool.poetry]"]),
        _ => None,
    }
}

/// `name = "..."` inside one of `sections` of a TOML text.
fn toml_name(text: &str, sections: &[&str]) -> Option<String> {
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = sections.contains(&line);
            continue;
        }
        if !inside {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        if key.trim() == "name" {
            let value = value.trim().trim_matches(['"', '\'']);
            return (!value.is_empty()).then(|| value.to_owned());
        }
    }
    None
}

/// Words that at least a quarter of the repo's package names share, and at least three (the
/// `turso` of `turso_*`, the `langchain` of `@langchain/*`): they name the project, not the
/// package. A repo's packages often carry older prefixes too (`limbo_*`), so a majority is
/// too much to ask.
pub(crate) fn project_words(names: &[String]) -> BTreeSet<String> {
    if names.len() < 3 {
        return BTreeSet::new();
    }
    let mut all: BTreeSet<String> = BTreeSet::new();
    for n in names {
        all.extend(words(n));
    }
    all.into_iter()
        .filter(|w| {
            let n = names.iter().filter(|n| words(n).contains(w)).count();
            n >= 3 && n * 4 >= names.len()
        })
        .collect()
}

/// What distinguishes a name within its project: its words less the project's words (all
/// of them when nothing would be left).
pub(crate) fn name_key(name: &str, project: &BTreeSet<String>) -> BTreeSet<String> {
    let all = words(name);
    let own: BTreeSet<String> = all.difference(project).cloned().collect();
    if own.is_empty() {
        all
    } else {
        own
    }
}

/// Manifest and lock files a package manager reads at a project's root. Named bare by a
/// memory, such a file is the project's own (at the root, or beside the notes), not one of
/// the same name in a sub-project.
pub(crate) fn is_project_file(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "package.json",
        "package-lock.json",
        "pnpm-lock.yaml",
        "pnpm-workspace.yaml",
        "yarn.lock",
        "bun.lock",
        "bun.lockb",
        "Cargo.toml",
        "Cargo.lock",
        "go.mod",
        "go.sum",
        "go.work",
        "pyproject.toml",
        "uv.lock",
        "poetry.lock",
        "Pipfile",
        "Pipfile.lock",
        "setup.py",
        "setup.cfg",
        "Gemfile",
        "Gemfile.lock",
        "composer.json",
        "composer.lock",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "settings.gradle",
        "settings.gradle.kts",
        "deno.json",
        "deno.lock",
    ];
    NAMES.contains(&name) || (name.starts_with("requirements") && name.ends_with(".txt"))
}

/// Where a child of a missing folder went, as a place for the folder: the successor less the
/// child's own remaining path when it kept it (`old/x/y` → `new/x/y` says `new`), else the
/// successor's parent (the child was renamed as it moved).
pub(crate) fn folder_of_move(child_rest: &str, successor: &str) -> String {
    match successor.strip_suffix(&format!("/{child_rest}")) {
        Some(folder) => folder.to_owned(),
        None => successor.rsplit_once('/').map_or("", |(up, _)| up).to_owned(),
    }
}

/// Languages whose module file can become a folder of the same name (`x.rs` → `x/`, `x.py` →
/// `x/__init__.py`): (stem, extension) of such a file, else `None`.
pub(crate) fn module_file(path: &str) -> Option<(&str, &str)> {
    const MODULE_EXTS: &[&str] = &["rs", "py", "ts", "tsx", "mts", "js", "jsx", "mjs", "cjs", "go", "rb", "ex", "exs"];
    let (stem, ext) = basename(path).rsplit_once('.')?;
    (!stem.is_empty() && MODULE_EXTS.contains(&ext)).then_some((stem, ext))
}

/// The file that answers to a folder's name as a module, by language.
const ENTRY_FILES: &[&str] =
    &["mod.rs", "__init__.py", "index.ts", "index.tsx", "index.mts", "index.js", "index.jsx", "index.mjs", "index.cjs"];

/// How alike two entry names are for a reorganised folder (`validation` and `validators`):
/// the length of their common lowercase prefix over the longer name's length. 0 for names
/// shorter than 4 characters, which share prefixes by accident.
pub(crate) fn prefix_likeness(a: &str, b: &str) -> f64 {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    if a.len() < 4 || b.len() < 4 || a == b {
        return if a == b { 1.0 } else { 0.0 };
    }
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    common as f64 / a.chars().count().max(b.chars().count()) as f64
}

/// What the second look asks of a whole tree, computed once per index: every folder by its
/// [`words`], and every package (folder, name) with its [`name_key`].
pub(crate) struct TreeWords {
    dirs: HashMap<BTreeSet<String>, Vec<String>>,
    packages: Vec<(String, String)>,
    project: BTreeSet<String>,
    by_key: HashMap<BTreeSet<String>, Vec<usize>>,
}

impl TreeWords {
    fn of(index: &RepoIndex) -> TreeWords {
        let dirs = dirs_by_words(index.dirs());
        let mut packages = Vec::new();
        for manifest in MANIFESTS {
            for &i in index.files_named(manifest) {
                let path = &index.file_at(i).path;
                if let Some(name) = index.read_text(path).and_then(|text| manifest_name(manifest, &text)) {
                    packages.push((path.rsplit_once('/').map_or("", |(d, _)| d).to_owned(), name));
                }
            }
        }
        packages.sort();
        packages.dedup_by(|a, b| a.0 == b.0);
        let names: Vec<String> = packages.iter().map(|(_, n)| n.clone()).collect();
        let project = project_words(&names);
        let mut by_key: HashMap<BTreeSet<String>, Vec<usize>> = HashMap::new();
        for (i, (_, name)) in packages.iter().enumerate() {
            by_key.entry(name_key(name, &project)).or_default().push(i);
        }
        TreeWords { dirs, packages, project, by_key }
    }

    /// Folders whose words are exactly those of `path` (not `path` itself).
    fn same_words(&self, path: &str) -> Vec<&str> {
        same_words(&self.dirs, path)
    }

    /// (folder, package name) of the packages named like `name`, less the project's words.
    fn named_like(&self, name: &str) -> Vec<&(String, String)> {
        let key = name_key(name, &self.project);
        self.by_key.get(&key).into_iter().flatten().map(|&i| &self.packages[i]).collect()
    }
}

impl RepoIndex {
    pub(crate) fn tree_words(&self) -> &TreeWords {
        self.tree_words.get_or_init(|| TreeWords::of(self))
    }
}

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
        let folder_like = !basename(path).contains('.') || self.context.has_inside(path);
        if folder_like {
            if let Some(split) = self.children_went(path) {
                return Some(split);
            }
            if let Some(moved) = self.folder_successor(path) {
                return Some(moved);
            }
        }
        if !folder_like {
            if let Some(moved) = self.module_became_folder(path) {
                return Some(moved);
            }
        }
        if let Some(moved) = self.renamed_in_moved_parent(path) {
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
            if self.index.file(&kept).is_some() || self.index.is_dir(&kept) {
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

    /// A folder whose own references in the memory (`path/x`, `path/y`) were found elsewhere:
    /// all in one folder, it moved there; in several, it was split.
    fn children_went(&self, path: &str) -> Option<Located> {
        let inside = self.context.inside(self.index, path);
        let mut went: Vec<String> = Vec::new();
        let mut resolved = 0;
        for child in &inside {
            let rest = &child[path.len() + 1..];
            let Some(Located::Moved { to, .. }) = self.folder_successor(child) else { continue };
            resolved += 1;
            let folder = folder_of_move(rest, &to);
            if !went.contains(&folder) {
                went.push(folder);
            }
        }
        if resolved < 2 {
            return None;
        }
        match went.as_slice() {
            [one] => Some(Located::Moved {
                to: one.clone(),
                dir: true,
                confidence: 50,
                evidence: format!("no history; the {resolved} paths the memory names in {path}/ are all found under {one}/ (unconfirmed)"),
            }),
            _ => Some(Located::Unclear { candidates: went }),
        }
    }

    /// A source file `dir/name.ext` gone while a folder `dir/name/` holding files of the same
    /// language ([`same_kind_of_file`]) stands beside where it was: the module became a folder
    /// of modules (`handlers.rs` → `handlers/`, `presets.py` → `presets/__init__.py`,
    /// `client.js` → `client/index.ts`). The successor is the folder's entry file when it has
    /// one (the file that now answers to the module's name), else the folder.
    fn module_became_folder(&self, path: &str) -> Option<Located> {
        let (stem, ext) = module_file(path)?;
        let folder = match path.rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/{stem}"),
            None => stem.to_owned(),
        };
        if !self.index.is_dir(&folder) {
            return None;
        }
        let same_language = |file: &str| module_file(file).is_some_and(|(_, other)| same_kind_of_file(ext, other));
        let prefix = format!("{folder}/");
        if !self.index.files().any(|(_, f)| f.path.starts_with(&prefix) && same_language(&f.path)) {
            return None;
        }
        let entry = ENTRY_FILES
            .iter()
            .map(|e| format!("{folder}/{e}"))
            .find(|e| same_language(e) && self.index.file(e).is_some());
        let (to, dir) = match entry {
            Some(entry) => (entry, false),
            None => (folder.clone(), true),
        };
        Some(Located::Moved {
            to,
            dir,
            confidence: 55,
            evidence: format!("no history; {folder}/ holds files of the language of {path}: a module that became a folder (unconfirmed)"),
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
                    });
                }
                return None;
            }
            ancestor = old.rsplit_once('/').map(|(up, _)| up);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ws: &[&str]) -> BTreeSet<String> {
        ws.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn words_drop_separators_order_prefixes_and_plurals() {
        let cases: &[(&str, &[&str])] = &[
            ("packages/targets/postgres-adapter", &["package", "target", "postgre", "adapter"]),
            ("packages/3-targets/6-adapters/postgres", &["package", "target", "postgre", "adapter"]),
            ("libs/langchain_standard.tests", &["lib", "langchain", "standard", "test"]),
            ("src/Utilities", &["src", "utility"]),
            ("v2/class", &["v2", "class"]),
            ("10/2024", &[]),
        ];
        for (path, want) in cases {
            assert_eq!(words(path), set(want), "{path}");
        }
    }

    #[test]
    fn a_plural_of_a_one_word_name_is_flagged() {
        let cases = [
            ("client", "clients", true),
            ("src/example", "3-examples", true),
            ("utility", "utilities", true),
            ("targets", "3-targets", false),
            ("client", "client", false),
            ("postgres-adapter", "postgres-adapters", false),
            ("packages/sql", "packages/2-sql", false),
            ("cli", "clients", false),
        ];
        for (path, candidate, want) in cases {
            assert_eq!(pluralised_name(path, candidate), want, "{path} -> {candidate}");
        }
    }

    #[test]
    fn a_folder_renumbered_in_place_is_told() {
        let cases = [
            ("cookbook/15_learning", "cookbook/08_learning", true),
            ("docs/guide", "docs/2-guide", true),
            ("01-intro", "02-intro", true),
            ("cookbook/15_learning", "other/08_learning", false),
            ("cookbook/15_learning", "cookbook/15_learning", false),
            ("cookbook/15_learning", "cookbook/08_teaching", false),
            ("docs/guide", "docs/guides", false),
            ("v1/15", "v1/08", false),
        ];
        for (path, candidate, want) in cases {
            assert_eq!(renumbered(path, candidate), want, "{path} -> {candidate}");
        }
    }

    #[test]
    fn same_words_keeps_only_exact_word_sets() {
        let tree = [
            "packages/3-targets",
            "packages/3-targets/3-targets",
            "packages/3-targets/3-targets/postgres",
            "packages/3-targets/6-adapters/postgres",
            "packages/3-targets/7-drivers/postgres",
            "packages/3-extensions/postgres",
        ];
        let cases: &[(&str, &[&str])] = &[
            ("packages/targets/postgres", &["packages/3-targets/3-targets/postgres"]),
            ("packages/targets/postgres-adapter", &["packages/3-targets/6-adapters/postgres"]),
            ("packages/targets/postgres-driver", &["packages/3-targets/7-drivers/postgres"]),
            ("packages/targets", &["packages/3-targets", "packages/3-targets/3-targets"]),
            ("examples/client/src", &[]),
            ("packages/3-extensions/postgres", &[]),
        ];
        for (path, want) in cases {
            assert_eq!(same_words(&dirs_by_words(tree), path), *want, "{path}");
        }
    }

    #[test]
    fn manifest_names_come_from_the_package_section() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            (
                "package.json",
                "{\n  \"name\": \"@langchain/standard-tests\",\n  \"version\": \"1\"}",
                Some("@langchain/standard-tests"),
            ),
            ("package.json", "{ \"private\": true }", None),
            ("Cargo.toml", "[workspace]\nmembers = []\n[package]\nname = \"turso_parser\"\n", Some("turso_parser")),
            ("Cargo.toml", "[workspace]\nname = \"x\"\n[dependencies]\nname = \"y\"\n", None),
            ("pyproject.toml", "[build-system]\nrequires = []\n[project]\nname = 'pkg-core'\n", Some("pkg-core")),
            ("pyproject.toml", "[tool.poetry]\nname = \"poetry-pkg\"\n", Some("poetry-pkg")),
            ("setup.cfg", "[metadata]\nname = x\n", None),
        ];
        for (file, text, want) in cases {
            assert_eq!(manifest_name(file, text).as_deref(), *want, "{file}: {text}");
        }
    }

    #[test]
    fn a_package_key_drops_the_words_the_project_shares() {
        let names: Vec<String> = [
            "turso_parser",
            "turso_pg_parser",
            "turso_core",
            "limbo_sim",
            "limbo_cli",
            "core_tester",
            "bench",
            "sqlite3",
            "x-tool",
            "y-tool",
            "z",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let project = project_words(&names);
        // `turso` is in 3 of 11 names (more than a quarter); `parser`, `limbo`, `tool` in 2.
        assert_eq!(project, set(&["turso"]));
        let cases: &[(&str, &[&str])] = &[
            ("turso_parser", &["parser"]),
            ("turso_pg_parser", &["pg", "parser"]),
            ("parser", &["parser"]),
            ("turso", &["turso"]),
        ];
        for (name, want) in cases {
            assert_eq!(name_key(name, &project), set(want), "{name}");
        }
        // Two names say nothing about what a project shares.
        assert!(project_words(&names[..2]).is_empty());
    }

    #[test]
    fn project_files_are_manifests_and_locks() {
        let cases = [
            ("requirements.txt", true),
            ("requirements-dev.txt", true),
            ("uv.lock", true),
            ("Cargo.toml", true),
            ("README.md", false),
            ("client.ts", false),
            ("requirements.md", false),
        ];
        for (name, want) in cases {
            assert_eq!(is_project_file(name), want, "{name}");
        }
    }

    #[test]
    fn a_child_says_where_its_folder_went() {
        let cases = [
            ("postgres", "packages/3-targets/3-targets/postgres", "packages/3-targets/3-targets"),
            ("postgres-adapter", "packages/3-targets/6-adapters/postgres", "packages/3-targets/6-adapters"),
            ("lib/bindings", "crates/tensorzero-node/lib/bindings", "crates/tensorzero-node"),
        ];
        for (rest, successor, want) in cases {
            assert_eq!(folder_of_move(rest, successor), want, "{rest}");
        }
    }

    #[test]
    fn prefix_likeness_measures_a_shared_stem() {
        let cases = [
            ("validation", "validators", 0.7),
            ("validation", "validation", 1.0),
            ("src", "srcs", 0.0),
            ("shared", "types", 0.0),
        ];
        for (a, b, want) in cases {
            assert!((prefix_likeness(a, b) - want).abs() < 1e-9, "{a} {b}: {}", prefix_likeness(a, b));
        }
    }
}
