//! What one commit did to the repository's dependency manifests (`package.json`, `Cargo.toml`,
//! `pubspec.yaml`, `go.mod`, ...): which manifests it deleted, with the name of the package each
//! declared, and which dependencies it added to the manifests it kept. This is how memval tells a
//! definition that left the repository into a package of its own (the package's folder deleted,
//! or the code that defined it now depending on a new package) from one that was removed.
//!
//! The commit's patch of manifest files (no context lines) is read file by file. A deleted
//! manifest's package name is the first `name` field (`"name": "@scope/pkg"`, `name: pkg`,
//! `name = "pkg"`) or `module` line among its removed lines. A dependency is added when an added
//! line of a manifest that was neither created nor deleted reads `name: version`,
//! `"name": "version"`, `name = "version"` or `name = { ... }`, or `module/path v1.2.3`, and no
//! removed line of the same file names it (that would be a version bump).

use std::collections::BTreeSet;

/// File names of the manifests read.
pub const MANIFEST_NAMES: &[&str] =
    &["package.json", "Cargo.toml", "pubspec.yaml", "go.mod", "pyproject.toml", "composer.json", "Project.toml"];

/// One manifest a commit changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestChange {
    /// Its path, relative to the checkout's folder as git printed it (from the repository top).
    pub path: String,
    /// The commit deleted it.
    pub deleted: bool,
    /// A deleted manifest's own package name.
    pub package: Option<String>,
    /// Dependencies added to a manifest the commit kept (not a version bump, not a new file).
    pub added: Vec<String>,
}

/// Whether `path`'s file name is one of [`MANIFEST_NAMES`].
pub fn is_manifest(path: &str) -> bool {
    MANIFEST_NAMES.contains(&path.rsplit('/').next().unwrap_or(path))
}

/// The manifest changes a `git show -U0 --no-renames` patch holds.
pub(crate) fn manifest_changes(patch: &str) -> Vec<ManifestChange> {
    let mut out = Vec::new();
    for file in patch.split("\ndiff --git ").map(|f| f.strip_prefix("diff --git ").unwrap_or(f)) {
        let Some(header) = file.lines().next() else { continue };
        let Some(path) = header.rsplit_once(" b/").map(|(_, b)| b.trim().to_owned()) else { continue };
        if !is_manifest(&path) {
            continue;
        }
        let head: Vec<&str> = file.lines().take_while(|l| !l.starts_with("@@")).collect();
        let deleted = head.iter().any(|l| l.starts_with("deleted file mode"));
        let created = head.iter().any(|l| l.starts_with("new file mode"));
        let body = file.lines().skip(head.len());
        let (mut removed, mut added_lines) = (Vec::new(), Vec::new());
        for line in body {
            if let Some(l) = line.strip_prefix('-').filter(|_| !line.starts_with("---")) {
                removed.push(l);
            } else if let Some(l) = line.strip_prefix('+').filter(|_| !line.starts_with("+++")) {
                added_lines.push(l);
            }
        }
        let package = if deleted { removed.iter().find_map(|l| package_name(l)) } else { None };
        let mut added = Vec::new();
        if !deleted && !created {
            let bumped: BTreeSet<String> = removed.iter().filter_map(|l| dependency(l)).collect();
            for name in added_lines.iter().filter_map(|l| dependency(l)) {
                if !bumped.contains(&name) && !added.contains(&name) {
                    added.push(name);
                }
            }
        }
        if deleted || !added.is_empty() {
            out.push(ManifestChange { path, deleted, package, added });
        }
    }
    out
}

/// A manifest line's declaration of its own package: `"name": "x"`, `name: x`, `name = "x"`,
/// `module x`.
fn package_name(line: &str) -> Option<String> {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix("module ") {
        return plausible(rest.trim());
    }
    let (key, value) = t.split_once([':', '='])?;
    if key.trim().trim_matches('"') != "name" {
        return None;
    }
    plausible(value.trim().trim_end_matches(',').trim().trim_matches(['"', '\'']))
}

/// A manifest line's dependency on a package with a version: `"pkg": "^1.2"`, `pkg: ^0.1.0`,
/// `pkg = "1"`, `pkg = { version = "1" }`, `\tmodule/path v1.2.3`.
fn dependency(line: &str) -> Option<String> {
    let t = line.trim();
    if let Some((module, version)) = t.split_once(char::is_whitespace) {
        if !module.contains([':', '=', '"'])
            && version.trim().starts_with('v')
            && version.trim()[1..].starts_with(|c: char| c.is_ascii_digit())
        {
            return plausible(module);
        }
    }
    let (key, value) = t.split_once([':', '='])?;
    let key = key.trim().trim_matches(['"', '\'']);
    let value = value.trim().trim_end_matches(',').trim().trim_matches(['"', '\'']);
    const NOT_DEPENDENCIES: &[&str] = &["name", "version", "module", "go", "edition", "rust-version", "sdk", "flutter"];
    if NOT_DEPENDENCIES.contains(&key) || key.contains(char::is_whitespace) {
        return None;
    }
    let versioned = value.starts_with('{')
        || value.trim_start_matches(['^', '~', '>', '=', '<', ' ']).starts_with(|c: char| c.is_ascii_digit())
        || ["workspace:", "npm:", "file:", "link:", "any", "*", "latest"].iter().any(|p| value.starts_with(p));
    versioned.then(|| plausible(key)).flatten()
}

/// A package name: at least two characters, a letter among them, none that a name lacks.
fn plausible(name: &str) -> Option<String> {
    let ok = name.chars().count() >= 2
        && name.chars().any(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '@' | '/' | '.' | '_' | '-'));
    ok.then(|| name.to_owned())
}

/// Whether manifest `text` names the package `name` (quoted, or as a whole word: a dependency).
pub fn names_package(text: &str, name: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || matches!(c, '@' | '/' | '.' | '_' | '-');
    text.match_indices(name).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(part) && !text[at + name.len()..].chars().next().is_some_and(part)
    })
}

#[cfg(test)]
mod tests {
    use super::{manifest_changes, names_package, ManifestChange};

    const PATCH: &str = "diff --git a/packages/shared/pubspec.yaml b/packages/shared/pubspec.yaml
index 1..2 100644
--- a/packages/shared/pubspec.yaml
+++ b/packages/shared/pubspec.yaml
@@ -12,0 +13 @@ dependencies:
+  shared_logging: ^0.1.0
diff --git a/tools/cli/pubspec.yaml b/tools/cli/pubspec.yaml
index 3..4 100644
--- a/tools/cli/pubspec.yaml
+++ b/tools/cli/pubspec.yaml
@@ -20 +20 @@
-  config: ^0.8.4
+  config: ^0.9.0
diff --git a/ui/core/package.json b/ui/core/package.json
deleted file mode 100644
index 5..0
--- a/ui/core/package.json
+++ /dev/null
@@ -1,4 +0,0 @@
-{
-  \"name\": \"@acme/core\",
-  \"version\": \"0.50.0\",
-  \"dependencies\": { \"lodash\": \"^4.0.0\" }
diff --git a/ui/app/package.json b/ui/app/package.json
index 6..7 100644
--- a/ui/app/package.json
+++ b/ui/app/package.json
@@ -3 +3,2 @@
+    \"@acme/core\": \"^0.50.0\",
+    \"build\": \"tsc -b\",
diff --git a/go.mod b/go.mod
index 8..9 100644
--- a/go.mod
+++ b/go.mod
@@ -5,0 +6 @@
+\tgithub.com/acme/logging v1.2.3
diff --git a/src/lib.rs b/src/lib.rs
index a..b 100644
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -1 +0,0 @@
-pub struct Gone;
";

    #[test]
    fn a_commits_deleted_manifests_and_added_dependencies() {
        let changes = manifest_changes(PATCH);
        let change = |path: &str, deleted: bool, package: Option<&str>, added: &[&str]| ManifestChange {
            path: path.into(),
            deleted,
            package: package.map(Into::into),
            added: added.iter().map(|s| s.to_string()).collect(),
        };
        assert_eq!(
            changes,
            vec![
                change("packages/shared/pubspec.yaml", false, None, &["shared_logging"]),
                change("ui/core/package.json", true, Some("@acme/core"), &[]),
                change("ui/app/package.json", false, None, &["@acme/core"]),
                change("go.mod", false, None, &["github.com/acme/logging"]),
            ],
            "a version bump is no new dependency, a script is none, and code files are not manifests"
        );
    }

    #[test]
    fn a_manifest_names_a_package_as_a_whole_word() {
        let text = "dependencies:\n  shared_logging: ^0.1.0\n  \"@acme/core\": \"1\"\n";
        assert!(names_package(text, "shared_logging"));
        assert!(names_package(text, "@acme/core"));
        assert!(!names_package(text, "shared"), "part of another name");
        assert!(!names_package(text, "acme/core"), "a scope is part of the name");
    }
}
