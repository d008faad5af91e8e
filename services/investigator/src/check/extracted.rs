//! A definition that left the repository for a package of its own, not one that was removed.
//!
//! When the commit that removed a name's last definition also
//! - deleted the manifest of the package that held the definition (`ui/core/package.json`, the
//!   whole package gone) while a manifest of the repository today still depends on that
//!   package by its name (`@acme/core`), or
//! - made the package that held the definition depend on a new package (the nearest manifest
//!   above the defining file gained `acme_logging: ^0.1.0`, and still has it) and made the
//!   defining file, which it kept, name that package (`export 'package:acme_logging/...'`),
//!
//! the code moved into that package, now a dependency (a monorepo split, a library extracted
//! from the project): the name lives on outside the repository, where memval cannot read it.
//! The claim is **not checked**, with the package and the commit, instead of a CONTRADICTED
//! "removed" that the repository's own docs (a design note describing those classes) do not
//! deserve. A commit that only bumped a dependency's version adds none (`manifests.rs`).

use memval_git::{is_manifest, names_package, MANIFEST_NAMES};
use memval_proto::Outcome;

use crate::names::folder;

use super::common::short;
use super::symbol_name::SymbolName;
use super::Checker;

impl Checker<'_> {
    /// Not checked, with why, when `commit` (which removed `sym`'s last definition, from
    /// `defining` as its parent had them) moved that code into a package the repository now
    /// depends on; `None` otherwise.
    pub(super) fn left_for_package(
        &self,
        git: &memval_git::GitRepo,
        commit: &str,
        defining: &[&String],
        sym: &SymbolName,
    ) -> Option<Outcome> {
        let changes = git.manifest_changes(commit)?;
        let within = |manifest: &str, file: &str| {
            let dir = folder(manifest);
            dir.is_empty() || file.starts_with(&format!("{dir}/"))
        };
        // The whole package that held the definition was deleted, and is a dependency now.
        for change in changes.iter().filter(|c| c.deleted) {
            let Some(package) = &change.package else { continue };
            if !defining.iter().any(|f| within(&change.path, f)) {
                continue;
            }
            if let Some(user) = self.manifest_naming(package) {
                return Some(self.left(
                    sym,
                    commit,
                    &format!(
                        "with its package {package} ({} deleted there), which {user} depends on today",
                        change.path
                    ),
                ));
            }
        }
        // The package that held it gained a dependency in that commit, and still has it.
        for file in defining {
            let Some(own) = self.nearest_manifest(file) else { continue };
            let Some(change) = changes.iter().find(|c| !c.deleted && c.path == own) else { continue };
            let Some(now) = self.index.read_text(&own) else { continue };
            // ... and the file that defined it began to import it there: the code went into it.
            let (Some(before), Some(after)) = (git.show(&format!("{commit}^"), file), git.show(commit, file)) else {
                continue;
            };
            let imports = |text: &str, p: &str| names_in_code(text, p) || names_in_code(text, &p.replace('-', "_"));
            if let Some(package) =
                change.added.iter().find(|p| names_package(&now, p) && imports(&after, p) && !imports(&before, p))
            {
                return Some(self.left(
                    sym,
                    commit,
                    &format!("in the commit that made {own} depend on {package}, as it still does"),
                ));
            }
        }
        None
    }

    fn left(&self, sym: &SymbolName, commit: &str, how: &str) -> Outcome {
        Outcome::NotChecked {
            reason: format!(
                "{} is not defined in the repo now: its definition left in {} {how}: moved into that package, outside what memval reads; not checked",
                sym.display(),
                short(commit)
            ),
        }
    }

    /// The first manifest of today's tree (by path) that names `package` as a dependency.
    fn manifest_naming(&self, package: &str) -> Option<String> {
        let mut manifests: Vec<&str> =
            self.index.files().map(|(_, f)| f.path.as_str()).filter(|p| is_manifest(p)).collect();
        manifests.sort_unstable();
        manifests
            .into_iter()
            .find(|p| self.index.read_text(p).is_some_and(|t| names_package(&t, package)))
            .map(str::to_owned)
    }

    /// The manifest of today's tree nearest above `file`: the package it belongs to.
    fn nearest_manifest(&self, file: &str) -> Option<String> {
        let mut dir = folder(file);
        loop {
            for name in MANIFEST_NAMES {
                let candidate = if dir.is_empty() { (*name).to_owned() } else { format!("{dir}/{name}") };
                if self.index.file(&candidate).is_some() {
                    return Some(candidate);
                }
            }
            if dir.is_empty() {
                return None;
            }
            dir = folder(dir);
        }
    }
}

/// Whether code `text` names the package `name` (`package:acme_logging/x.dart`,
/// `from '@acme/core'`, `"github.com/acme/logging/sub"`): not inside a longer identifier.
fn names_in_code(text: &str, name: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(|c| part(c) || c == '@')
            && !text[at + name.len()..].chars().next().is_some_and(|c| part(c) || c == '-')
    })
}
