//! File and directory claims: does the path exist, and if not, where did it go.
//!
//! A file or directory claim is:
//! - **VALID** when the path exists: verbatim, via an alternative reading (another folder the
//!   memory's text allows), or as the unique path ending in it when the path as written never
//!   existed itself; with several such paths today, the unique one that existed at the memory's
//!   date.
//! - **STALE**, with the successor as the new path, when:
//!   - git's rename chain since the memory's date ends at an existing path;
//!   - for a folder: more than half of the files it had at the memory's date ended up in one
//!     folder (files added later or already gone do not count; a moved file votes for the folder
//!     that took the old folder's place only when its sub-folders below it were kept, else for
//!     none), each file followed through its renames (`GitRepo::dir_fate`);
//!   - it was deleted, and history shows the same file name added after the memory's date at a
//!     path that exists, with a text that resembles the deleted one's (identifier Jaccard ≥ 0.5,
//!     as git's rename detection wants half the content; an empty file resembles nothing; a
//!     partial clone without the old text falls back to the name): a move spread over commits;
//!   - the same, for a name with a prefix or a suffix added (`create-pr.md` →
//!     `archon-create-pr.md`: the same extension, the old stem of four characters or more
//!     between separators), when no file of the same name was;
//!   - it was deleted by a commit that added a file, still there, holding more than half of its
//!     distinct lines (of four letters or digits and more; eight such lines at least): extracted
//!     there and rewritten beyond what git calls a rename (70);
//!   - the path as written existed in history and a unique path ends in it today;
//!   - without history: the unique path ending in it, when the path starts at a conventional root
//!     folder (`src/`, `packages/`, `proto/`, ...) that is gone from the root (a monorepo move,
//!     not an abbreviation), or when its first folder is gone from the root while the memory
//!     names nothing in the new prefix or a folder above it (otherwise it is written relative to
//!     that folder: VALID);
//!   - among several places ending in it, the one under which the memory's other references are
//!     found too;
//!   - a same-name file, only when something ties it to the memory: the same parent folder name,
//!     a symbol the memory places in the file found in it, another of the memory's paths beside
//!     it or under its folder, the memory's other paths of the same old folder found in its
//!     folder, or it is the only file of its name and sits in a folder above or below the old one;
//!   - same stem with another extension of the same kind of file (`js`/`ts`, `yml`/`yaml`,
//!     `md`/`mdx`; `same_kind_of_file`: a `.rs` file is not renamed to a `.rb` one);
//!   - without history, a module file gone where a folder of its stem holding files of its
//!     language stands beside it: the folder's entry file, else the folder (55).
//! - **CONTRADICTED** when:
//!   - it was deleted and history shows no re-addition (a file of the same name that was already
//!     there is not a successor);
//!   - a folder more than half of whose files were deleted while no folder took a quarter of them;
//!   - it never existed and nothing similar does;
//!   - without history: a path with folders that no path ends with (same-name places are listed,
//!     not chosen); a same-name file that nothing ties to the memory (50); a name three or more
//!     files share found only in a subfolder of its still-present old folder (50); a folder in
//!     one or several places none of which holds what the memory names in it (50); a bare folder
//!     name with several places deeper that nothing ties to the memory (40); a bare manifest or
//!     lock file missing at the root (50).
//! - **AMBIGUOUS** when several places match a bare file name (or a path with folders) and the
//!   memory's other references back none of them; without history, a folder whose named children
//!   went to different folders; several re-additions; a folder whose files went apart with no
//!   majority and not mostly deleted, or mostly deleted while a quarter or more went to one folder
//!   (`Located::Split`, AMBIGUOUS 50, the evidence counting where they went).
//!
//! With complete history, the rules above that rest on a path git never had (a same-name file
//! elsewhere, the same stem, "never existed") give way to `check/no_past.rs`: such a path is
//! read against its own folder and the memory's package, and is not checked when nothing there
//! makes it a reference. A bare name (`lib/`, `pyproject.toml`) that the root does not have
//! while packages side by side do (`actionpack/lib`, `activerecord/lib`) is VALID, each
//! package's own, whatever the root once had.
//!
//! ## Naming conventions
//!
//! An affix
//! or file-name ending the memory names as a convention (`_int`, `test_`, `.test.ts`, `_test.go`)
//! that is not itself defined is VALID (65) when names or file names of the repo carry it
//! (`naming_pattern`, the count and the first few in the evidence); only a CONTRADICTED or
//! AMBIGUOUS verdict gives way to it, never a STALE that found a successor, and not for a dunder
//! name or an affix that is itself a word of the repo.
//!
//! **Architecture Invariant:** none of these turns a path or name that exists, or that history
//! shows, into anything else; they apply only where the verdict would have rested on absence.

use memval_proto::{CodeRef, Outcome, UnixSeconds, Verdict};

use crate::index::FileKind;
use crate::names::folder;

use super::common::{as_written, checked, kind_name, list, MAX_LISTED};
use super::located::{Located, NEVER_IN_REPO};
use super::Checker;

impl Checker<'_> {
    /// `as_folder`: the memory wrote the path as a folder (`mettagrid/`).
    pub(super) fn check_file(&self, r: &CodeRef, since: Option<UnixSeconds>, as_folder: bool) -> Outcome {
        let written = r.path.trim();
        let raw = self.meant(written, &r.alt_paths);
        // The memory wrote a bare file name (`test_hil_bounded.py`) that the extractor joined onto
        // a folder the text names: when the repository has exactly one file of that name, the
        // name as written is a reading too, so that file is the one meant, not a move from a place
        // the memory never wrote. (A name many files have, `__init__.py` in a tree diagram, is
        // left to the joined reading.)
        let mut alts = r.alt_paths.clone();
        let bare_written = r.written.as_deref().map(|w| w.trim().trim_end_matches('/'));
        if let Some(bare) = bare_written.filter(|w| !w.contains('/') && !w.is_empty()) {
            if bare != written && !alts.iter().any(|a| a == bare) && self.index.files_named(bare).len() == 1 {
                alts.push(bare.to_owned());
            }
            // ... and when the folder it was joined onto (the package a skill describes,
            // `web/mobile`) holds exactly one file or folder of that name deeper down
            // (`web/mobile/src/pages/_app.tsx` for `_app.tsx`), that one is meant: the folder
            // came from the memory's context, the depth was never written.
            if let Some(one) = self.one_named_under(folder(written), bare) {
                if one != written && !alts.contains(&one) {
                    alts.push(one);
                }
            }
        }
        let mut found = self.locate_written(written, &alts, r.written.as_deref(), since);
        // A bare file name history had at one deeper place names that file (`check/no_past.rs`).
        if let (Some(git), Located::NotInRepo(_) | Located::NeverInRepo) = (self.git, &found) {
            let bare = as_written(std::iter::once(written).chain(alts.iter().map(String::as_str)));
            if let Some(there) = self.bare_name_in_history(git, bare) {
                found = self.users_file(bare, &there).unwrap_or(there);
            }
        }
        // A folder the memory names where the tree has a file of its name, and history shows a
        // folder there once: a placeholder left when the folder moved (metta's `mettagrid`, "the
        // mettagrid dir ... is now in packages/mettagrid"). What history says of the folder
        // decides. A path that was only ever a file (a script drawn as `etc/ecal/` in a tree) is
        // that file, and without history nothing says a folder was ever there. Only a file where
        // the memory put the folder counts: one of that name found elsewhere is another thing.
        if let (true, Some(git), Located::Here { path, dir: false, .. }) = (as_folder, self.git, &found) {
            let where_written = path == written || r.alt_paths.iter().any(|a| a == path);
            let plain =
                |f: &crate::index::FileInfo| matches!(f.kind, FileKind::Text | FileKind::Binary | FileKind::Huge);
            if where_written && self.index.file(path).is_some_and(plain) {
                if let Some(fate) = self.folder_fate(git, &path.clone(), since, 0) {
                    found = fate;
                }
            }
        }
        // `.paket/paket.bootstrapper.exe` in a README or doc: a binary its reader builds or
        // downloads, named as what the reader has, not as a file of the repository's tree.
        if let Located::Gone { evidence, .. } = &found {
            if self.context.for_people() && is_binary(written) {
                return Outcome::NotChecked {
                    reason: format!(
                        "{written} is a built or downloaded binary, which a README or doc names as what its reader has, not as a file the repository keeps ({evidence}); not checked"
                    ),
                };
            }
        }
        // `changelog.d/fixed/6623-x.md`: a release-notes fragment, which the release that
        // collects it deletes by design; its deletion is no drift.
        if let Located::Gone { evidence, .. } = &found {
            if let Some(folder) = release_fragment(written) {
                return Outcome::NotChecked {
                    reason: format!(
                        "{written} is a release-notes fragment in {folder}, which a release collects and deletes by design ({evidence}); not checked"
                    ),
                };
            }
        }
        // `.test.ts`: a file-name ending the memory names as a convention, not a file.
        if matches!(found, Located::Gone { .. } | Located::NotInRepo(_)) && !written.contains('/') {
            if let Some(pattern) = self.naming_pattern(written) {
                return pattern;
            }
        }
        match found {
            Located::Refused(refusal) => Outcome::NotChecked { reason: refusal.to_string() },
            Located::NotInRepo(reason) => Outcome::NotChecked { reason },
            Located::NeverInRepo | Located::NameElsewhere { .. } => {
                Outcome::NotChecked { reason: NEVER_IN_REPO.into() }
            }
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
            Located::Moved { to, dir, confidence, evidence, since } => {
                if let Some(valid) = self.written_from_package(r, &to, dir) {
                    return valid;
                }
                let shown = if dir { format!("{to}/") } else { to.clone() };
                checked(Verdict::Stale, confidence, format!("{raw} — now at {shown}; {evidence}"), Some(to))
                    .since(since)
            }
            Located::Gone { confidence, evidence, since } => {
                if let Some(away) = self.left_for_sibling(r) {
                    return away;
                }
                checked(Verdict::Contradicted, confidence, format!("{raw} — {evidence}"), None).since(since)
            }
            // Places that each end with the path as written: what the memory says, that such a
            // file or folder exists, holds in each of them, whichever it meant.
            Located::Unclear { candidates } if exists_in_each(written, &r.alt_paths, &candidates) => checked(
                Verdict::Valid,
                60,
                format!("{} — exists in {} places: {}", candidates[0], candidates.len(), list(&candidates)),
                None,
            ),
            // Places it may have gone to (history, or a folder whose files went apart).
            Located::Unclear { candidates } => checked(
                Verdict::Ambiguous,
                40,
                format!("{raw} — {} places match: {}", candidates.len(), list(&candidates)),
                None,
            ),
            Located::Split { evidence, .. } => checked(Verdict::Ambiguous, 50, format!("{raw} — {evidence}"), None),
        }
    }

    /// The file a code block of the memory is written for (`Assertion::SnippetFile`, `#
    /// .github/workflows/ci.yml` over a workflow). In an agent's notes it is the repository's
    /// file, and a move or deletion is drift; so it is in a doc's block for the project's own
    /// code (`# app/policies/reports_policy.rb` in a design doc). A README or doc's block for a
    /// tool's file under a dot-folder or a dotfile every project keeps (`.github/workflows/`,
    /// `.vscode/`, `.envrc`: "use Nix in CI:" over the reader's workflow) is the reader's as often:
    /// one the repository had and lost is not checked, with what history says of the
    /// repository's copy. One the repository never had is read by `no_past`.
    pub(super) fn check_snippet_file(&self, r: &CodeRef, since: Option<UnixSeconds>) -> Outcome {
        let outcome = self.check_file(r, since, false);
        let tool_file = r.path.trim().trim_start_matches("./").starts_with('.');
        match &outcome {
            Outcome::Checked { verdict: Verdict::Stale | Verdict::Contradicted, evidence, .. }
                if self.context.for_people() && tool_file =>
            {
                Outcome::NotChecked {
                    reason: format!(
                        "{} is the file a code block of this page is written for, and a page for people shows blocks its readers copy into their own project: not read as the repository's copy ({evidence}); not checked",
                        r.path.trim()
                    ),
                }
            }
            _ => outcome,
        }
    }

    /// The one file, else the one folder, named `name` at any depth under `folder` (a folder
    /// other than the root), if exactly one is.
    fn one_named_under(&self, folder: &str, name: &str) -> Option<String> {
        if folder.is_empty() || name.is_empty() {
            return None;
        }
        let prefix = format!("{folder}/");
        let files: Vec<&str> = self
            .index
            .files_named(name)
            .iter()
            .map(|&i| self.index.file_at(i).path.as_str())
            .filter(|p| p.starts_with(&prefix))
            .collect();
        match files.as_slice() {
            [one] => return Some((*one).to_owned()),
            [_, _, ..] => return None,
            [] => {}
        }
        let dirs: Vec<&str> = self.index.dirs_named(name).into_iter().filter(|d| d.starts_with(&prefix)).collect();
        match dirs.as_slice() {
            [one] => Some((*one).to_owned()),
            _ => None,
        }
    }

    /// `_int`, `test_`, `.test.ts`, `_test.go`: an affix the memory names as a convention
    /// ("integration tests end in `_int`"), not a name. VALID when names or file names of the
    /// repo carry it, with how many and the first few; `None` when the text is no affix or
    /// nothing carries it (the caller's verdict stands).
    pub(super) fn naming_pattern(&self, written: &str) -> Option<Outcome> {
        let w = written.trim();
        if self.index.mentions(w) {
            return None;
        }
        self.affix_of_names(w)
    }

    /// [`Checker::naming_pattern`] for a text the caller already knows no code names as a
    /// whole (a symbol's name: `_tests` in "no `test_` prefixes inside `_tests` modules").
    pub(super) fn affix_of_names(&self, w: &str) -> Option<Outcome> {
        let affix = w.len() >= 3
            && !w.contains(['/', ' ', '(', ':'])
            && !w.starts_with("__")
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
}

/// Whether every candidate is the path as the memory wrote it (its shortest reading) or ends
/// with it: the same file or folder, in several places.
/// Extensions of built or packaged binaries: programs, libraries, packages.
const BINARY_EXTENSIONS: &[&str] = &["exe", "dll", "so", "dylib", "jar", "nupkg", "whl", "msi", "pdb", "apk", "ipa"];

/// Whether `path` names a built or packaged binary (`paket.bootstrapper.exe`, `libx.so`).
fn is_binary(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && BINARY_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()))
}

fn exists_in_each(written: &str, alts: &[String], candidates: &[String]) -> bool {
    let shortest = as_written(std::iter::once(written).chain(alts.iter().map(String::as_str)));
    !shortest.is_empty()
        && !candidates.is_empty()
        && candidates.iter().all(|c| c == shortest || c.ends_with(&format!("/{shortest}")))
}

/// The fragment folder a file sits in when it is a release-notes fragment: towncrier's
/// `changelog.d/` and `newsfragments/`, changesets' `.changeset/`, each holding one small file
/// per change until a release gathers them into the changelog. Its README or config stays.
fn release_fragment(path: &str) -> Option<&str> {
    const FOLDERS: &[&str] = &["changelog.d", "newsfragments", ".changeset", "changes.d", "unreleased"];
    let (dir, name) = path.rsplit_once('/')?;
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("readme") || lower.starts_with("config") || lower.starts_with("template") {
        return None;
    }
    dir.split('/').find(|f| FOLDERS.contains(f))
}
