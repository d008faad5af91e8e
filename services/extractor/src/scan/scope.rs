//! What is in scope at the line being read, and the readings of a path written against it.
//! Relative paths are resolved here, because only the walker knows the folders in scope.
//!
//! A path's readings, most likely first: joined onto a folder right next to a bare name in the
//! same sentence ("`lru.go` in `internal/cache/`"), onto the folder of the enclosing list item,
//! onto the section's folder, onto the notes file's own folder, (in a skill) onto the skill's
//! bundle folders, then the path as written, then (bare names only) onto the folder named most
//! recently in the section. `../api.md` in a notes file in `docs/guide/` is `docs/api.md`; a `..`
//! that would climb above the repo root is kept as written for the investigator to refuse. A code
//! ref resolved from what the memory wrote (a tree row, a section's folder, the notes file's
//! folder) keeps the text as `written`. See `paths::readings` for the exceptions.

use crate::mentions::{gap, FileMention};
use crate::paths::{self, Demote, Folder, PathToken};

use super::walker::{Scope, Walker};

impl Walker {
    /// Folders a path in running text may be written against, most specific first.
    pub(super) fn folders<'a>(&'a self, near: Option<&'a [String]>) -> Vec<Folder<'a>> {
        let mut v = Vec::with_capacity(5);
        let folder =
            |readings, bare_only, fallback| Folder { readings, bare_only, fallback, demote: Demote::No, own: false };
        if let Some(r) = near {
            v.push(folder(r, true, false));
        }
        if let Some(r) = self.list_dir() {
            v.push(folder(r, false, false));
        }
        if let Some(r) = &self.section_dir {
            v.push(folder(r, false, false));
        }
        for (_, r) in self.outer_dirs.iter().rev().filter(|(_, r)| Some(r) != self.section_dir.as_ref()) {
            v.push(folder(r, false, false));
        }
        if let Some(c) = self.context_folder() {
            v.push(c);
            v.extend(self.package_folder());
        }
        if !self.skill_bundle.is_empty() {
            v.push(folder(&self.skill_bundle, true, false));
        }
        if let Some(own) = self.tool_folder() {
            v.push(folder(own, true, true));
        }
        if let Some(r) = &self.recent_dir {
            v.push(folder(r, true, true));
        }
        if !self.declared.is_empty() {
            v.push(folder(&self.declared, false, true));
        }
        v
    }

    /// The notes file's folder; in a docs folder or a skill, paths under well-known top
    /// folders are read from the repo root first ([`Demote`]).
    fn context_folder(&self) -> Option<Folder<'_>> {
        let c = self.context.as_ref()?;
        Some(Folder {
            readings: std::slice::from_ref(c),
            bare_only: false,
            fallback: false,
            demote: self.context_demote,
            own: true,
        })
    }

    /// The folder of a notes file kept in an agent tool's folder (`.cursor/rules/`, `.github/`),
    /// whose paths are read from the root: its bare names may still be its siblings
    /// (`testing.mdc` in `.cursor/rules/a.mdc`), read there after the root.
    pub(super) fn tool_folder(&self) -> Option<&[String]> {
        let own = self.file_dir.as_ref().filter(|_| self.context.is_none())?;
        Some(std::slice::from_ref(own))
    }

    /// The package a docs folder sits in (`web` for `web/docs/`), read like the notes file's
    /// folder, after it.
    fn package_folder(&self) -> Option<Folder<'_>> {
        (!self.package.is_empty()).then(|| Folder {
            readings: &self.package,
            bare_only: false,
            fallback: false,
            demote: self.context_demote,
            own: false,
        })
    }

    /// Folders a tree, listing or code block path may be written against.
    pub(super) fn structure_folders(&self) -> Vec<Folder<'_>> {
        let mut v = Vec::with_capacity(2);
        if let Some(r) = &self.section_dir {
            v.push(Folder { readings: r, bare_only: false, fallback: false, demote: Demote::No, own: false });
        }
        if let Some(c) = self.context_folder() {
            v.push(c);
            v.extend(self.package_folder());
        }
        v
    }

    /// The folder of the innermost list item about a folder.
    fn list_dir(&self) -> Option<&[String]> {
        self.list.iter().rev().find_map(|s| match &s.scope {
            Scope::Dir(r) => Some(r.as_slice()),
            Scope::File(_) | Scope::Elsewhere(_) => None,
        })
    }

    /// The list item about another repository the line is under, if any (index into
    /// [`Doc::elsewhere`](super::doc::Doc)).
    pub(super) fn elsewhere(&self) -> Option<usize> {
        self.list.iter().rev().find_map(|s| match s.scope {
            Scope::Elsewhere(k) => Some(k),
            _ => None,
        })
    }

    /// The file the innermost list item about a file is about, else the section's file.
    pub(super) fn anchor(&self) -> Option<usize> {
        self.list
            .iter()
            .rev()
            .find_map(|s| match s.scope {
                Scope::File(a) => Some(a),
                Scope::Dir(_) | Scope::Elsewhere(_) => None,
            })
            .or(self.section_anchor)
    }

    /// Readings of each path of a sentence. A bare name right next to a folder of the same
    /// sentence is read inside that folder first.
    pub(super) fn resolve(&self, orig: &str, raw: Vec<(PathToken, usize, usize)>) -> Vec<FileMention> {
        let folders = self.folders(None);
        let mut files: Vec<FileMention> = raw
            .into_iter()
            .map(|(tok, start, end)| FileMention {
                raw: tok.path.clone(),
                readings: paths::readings(&tok, &folders),
                tok,
                start,
                end,
                after: end,
            })
            .collect();
        for i in 0..files.len() {
            let f = &files[i];
            if f.tok.path.contains('/') || f.tok.dir || f.tok.unresolvable() {
                continue;
            }
            let next = files
                .get(i + 1)
                .filter(|d| paths::folder_like(&d.tok) && paths::name_in_folder(gap(orig, f.end, d.start)));
            let prev = i
                .checked_sub(1)
                .and_then(|j| files.get(j))
                .filter(|d| paths::folder_like(&d.tok) && paths::folder_then_name(gap(orig, d.end, f.start)));
            if let Some(dir) = next.or(prev).map(|d| d.readings.clone()) {
                files[i].readings = paths::readings(&files[i].tok, &self.folders(Some(&dir)));
            }
        }
        files
    }
}
