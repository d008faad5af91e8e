//! A path written from the package a notes file sits in, found there: no move.
//!
//! A doc deep in a package (`plugins/x/src/Experimental/README.md`, `plugins/x/docs/guide.md`)
//! often names paths from the package's root (`src/Experimental/Experiment/`), the way its
//! readers and its build see them. When the repository grew a level (a plugin moved into
//! `plugins/x/` with its docs), history says the path as read from the repository's root moved
//! to `plugins/x/src/Experimental/Experiment`: exactly where the memory's text points when read
//! from a folder above its own file. The memory is right about its package; that is VALID (80),
//! with the folder it was read from, not STALE with the path it already names.
//!
//! Only when the memory's own file moved there too, in history (`src/Experimental/README.md` →
//! `plugins/x/src/Experimental/README.md`), or came to its path when the path as read from the
//! package was already there (a doc written in the package after the move: what it names from
//! its package is there; a project merged in under a folder with its whole history, whose
//! paths history also shows at the root). A doc that was in the package before the path came
//! there read it from the root, and that path moved. Only folders
//! strictly above the memory's own folder and below the root count: a successor
//! in the memory's own folder is where another reading of a bare name points, which stays a
//! move (`check/locate.rs`), and one at the root is the path as written. Paths written `../x`
//! or absolute are the memory's own readings, not a package's. A doc in a docs site's section
//! named for a package (`web/doc/content/docs/rebrgen/` on `rebrgen/`) writes that package's
//! paths the same way, under the same condition of dates.

use memval_git::{ChangeKind, GitRepo};
use memval_proto::{CodeRef, Outcome, Verdict};

use super::common::checked;
use super::Checker;

impl Checker<'_> {
    /// VALID when the successor `to` history found for `r` is the path as the memory wrote it,
    /// read from a folder above the memory's own file.
    pub(super) fn written_from_package(&self, r: &CodeRef, to: &str, dir: bool) -> Option<Outcome> {
        let git = self.git?;
        let file = self.context.own_file()?;
        let own = file.rsplit_once('/').map(|(dir, _)| dir)?;
        // The path as written, and as the memory's text placed it (`class_based.cpp` under a
        // line naming `src/ebmcodegen/` is `src/ebmcodegen/class_based.cpp`).
        let mut readings: Vec<&str> = Vec::new();
        for path in [r.written.as_deref().unwrap_or(&r.path), r.path.as_str()] {
            let path = path.trim();
            let path = path.strip_prefix("./").unwrap_or(path).trim_end_matches('/');
            let plain = !path.is_empty() && !path.starts_with('/') && !path.split('/').any(|s| s == ".." || s == ".");
            if plain && !readings.contains(&path) {
                readings.push(path);
            }
        }
        readings.into_iter().find_map(|written| read_in_package(git, file, own, written, to, dir))
    }
}

/// [`Checker::written_from_package`] for one reading `written` of the memory's path.
fn read_in_package(git: &GitRepo, file: &str, own: &str, written: &str, to: &str, dir: bool) -> Option<Outcome> {
    let mut above = own.rsplit_once('/').map(|(up, _)| up);
    while let Some(package) = above.filter(|a| !a.is_empty()) {
        if to == format!("{package}/{written}") && (moved_into(git, file, package) || came_after(git, file, to)) {
            let why =
                "the package the memory's file sits in (read from another folder, it is a path history moved here)";
            return Some(read_from(package, to, written, dir, why));
        }
        above = package.rsplit_once('/').map(|(up, _)| up);
    }
    // A docs site's section named for a package (`web/doc/content/docs/rebrgen/testing.md`
    // on `rebrgen/`) writes that package's paths from its root, as its own docs do.
    let package = to.strip_suffix(written)?.strip_suffix('/')?;
    let name = package.rsplit('/').next()?;
    let named = own.split('/').any(|seg| seg == name) && !own.starts_with(&format!("{package}/")) && own != package;
    (named && came_after(git, file, to))
        .then(|| read_from(package, to, written, dir, "the package the section of the memory's file is named for"))
}

/// VALID (80): `to` is there, the memory's `written` read from `package`, for the reason `why`.
fn read_from(package: &str, to: &str, written: &str, dir: bool, why: &str) -> Outcome {
    let what = if dir { "directory" } else { "file" };
    checked(Verdict::Valid, 80, format!("{to} — {what} exists; {written} is written from {package}/, {why}"), None)
}

/// Whether the memory's file `file` came to its path when `to`, the path as read from its
/// package, was already there: a memory written inside the package after the package got its
/// shape reads its paths from there (rebrgen's skills, added under `rebrgen/` two weeks after
/// that project was merged in with its whole history, name `script/build.py`).
/// A path history never shows coming (merged in with another project's history, whose
/// commits record it at that project's root, or older than a shallow clone) was there before
/// anything history records; a memory file history never shows coming arrived the same way.
fn came_after(git: &GitRepo, file: &str, to: &str) -> bool {
    !git.ever_had(to) || git.first_came(file).is_some_and(|came| git.had_at(to, came))
}

/// Whether history shows the memory's file `file` renamed into `package` from the same path
/// without it (`src/Experimental/README.md` → `plugins/x/src/Experimental/README.md`).
fn moved_into(git: &GitRepo, file: &str, package: &str) -> bool {
    let Some(before) = file.strip_prefix(package).and_then(|rest| rest.strip_prefix('/')) else {
        return false;
    };
    git.history().iter().any(|c| matches!(&c.kind, ChangeKind::Renamed { from, to } if from == before && to == file))
}
