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

use crate::names::basename;

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
    /// Every file and folder of the tree as (lower-case path, path), sorted.
    lower: Vec<(String, String)>,
}

impl TreeWords {
    /// The words of every folder, and every package as (folder, name) read from its manifest;
    /// `files` and `dirs` are every path of the tree.
    pub(crate) fn new<'a>(
        files: impl IntoIterator<Item = &'a str>,
        dirs: impl IntoIterator<Item = &'a str> + Clone,
        mut packages: Vec<(String, String)>,
    ) -> TreeWords {
        let mut lower: Vec<(String, String)> =
            files.into_iter().chain(dirs.clone()).map(|p| (p.to_lowercase(), p.to_owned())).collect();
        lower.sort();
        let dirs = dirs_by_words(dirs);
        packages.sort();
        packages.dedup_by(|a, b| a.0 == b.0);
        let names: Vec<String> = packages.iter().map(|(_, n)| n.clone()).collect();
        let project = project_words(&names);
        let mut by_key: HashMap<BTreeSet<String>, Vec<usize>> = HashMap::new();
        for (i, (_, name)) in packages.iter().enumerate() {
            by_key.entry(name_key(name, &project)).or_default().push(i);
        }
        TreeWords { dirs, packages, project, by_key, lower }
    }

    /// Folders whose words are exactly those of `path` (not `path` itself).
    pub(crate) fn same_words(&self, path: &str) -> Vec<&str> {
        same_words(&self.dirs, path)
    }

    /// The tree's paths whose lower-case form starts with `prefix` (lower case), as
    /// (lower-case path, path).
    pub(crate) fn lower_starting(&self, prefix: &str) -> &[(String, String)] {
        let from = self.lower.partition_point(|(l, _)| l.as_str() < prefix);
        let to = from + self.lower[from..].partition_point(|(l, _)| l.starts_with(prefix));
        &self.lower[from..to]
    }

    /// The tree's path whose lower-case form is `lower`, when exactly one is.
    pub(crate) fn path_in_any_case(&self, lower: &str) -> Option<&str> {
        match self.lower_starting(lower).iter().filter(|(l, _)| l == lower).collect::<Vec<_>>().as_slice() {
            [(_, path)] => Some(path),
            _ => None,
        }
    }

    /// (folder, package name) of the packages named like `name`, less the project's words.
    pub(crate) fn named_like(&self, name: &str) -> Vec<&(String, String)> {
        let key = name_key(name, &self.project);
        self.by_key.get(&key).into_iter().flatten().map(|&i| &self.packages[i]).collect()
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
