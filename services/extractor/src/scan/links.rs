//! Markdown links of a sentence.
//!
//! A markdown link's target is a path; a link written `./x` or `../x` is relative to the notes
//! file itself, as a markdown renderer reads it, whatever section folder the text is under. A
//! bare name with no extension is a path only when the link's text is that name
//! (`[gradle-conventions](gradle-conventions)`) or it is written `./name` (`[format](./format)`):
//! `[Setup](setup)` may be a docs site's page.
//! A link to `/x` with a file extension (`[CONTRIBUTING.md](/CONTRIBUTING.md)`) is read from
//! the repository's root, as a code host renders a repository's Markdown; `/docs/intro`,
//! without one, may be a docs site's route, and `/discord.png` an asset a site serves from its
//! static folder: both stay as written. A Cursor rule's `mdc:` link
//! (`[guide](mdc:.cursor/rules/guide.mdc)`) is read from the root too.

use std::ops::Range;

use crate::mentions::{FileMention, Line};
use crate::paths::{self, Demote, Folder, Strength};

use super::found::Found;
use super::walker::Walker;

/// Reads the link targets of the sentence `range` of `line` into `found`.
pub(super) fn links(line: &Line<'_>, range: &Range<usize>, found: &mut Found<'_>) {
    for link in line.links_in(range) {
        let target = &line.masked[link.target.clone()];
        let text = &line.orig[link.text.clone()];
        if let Some(tok) = root_relative(target).or_else(|| cursor_link(&line.orig[link.target.clone()])) {
            found.root_relative.push((link.start, link.end));
            found.raw.push((tok, link.start, link.end));
            continue;
        }
        if let Some(tok) = paths::classify(target, Strength::Standalone).or_else(|| named_as_itself(text, target)) {
            if target.trim_start().starts_with("./") || target.trim_start().starts_with("../") {
                found.own_relative.push((link.start, link.end));
            } else {
                found.linked.push((link.start, link.end));
            }
            found.raw.push((tok, link.start, link.end));
        }
    }
}

impl Walker {
    /// Reads the files at `own_relative` (links written `./x`, `../x`) from the notes file's
    /// own folder only, replacing the readings the folders in scope gave them.
    pub(super) fn own_relative_readings(&self, files: &mut [FileMention], own_relative: &[(usize, usize)]) {
        if let Some(own) = self.file_dir.as_ref().filter(|_| !own_relative.is_empty()) {
            let own = [Folder {
                readings: std::slice::from_ref(own),
                bare_only: false,
                fallback: false,
                demote: Demote::No,
                own: true,
            }];
            for f in files.iter_mut().filter(|f| own_relative.contains(&(f.start, f.end))) {
                f.readings = paths::readings(&f.tok, &own);
            }
        }
    }

    /// Puts first, for the files at `linked` (links written `instructions/x.md`) in a notes file
    /// of an agent tool's folder, whose text is otherwise read from the root
    /// (`.github/copilot-instructions.md`), their reading from that folder: a renderer opens
    /// `.github/instructions/x.md`. The readings they had stay after it.
    pub(super) fn tool_folder_link_readings(&self, files: &mut [FileMention], linked: &[(usize, usize)]) {
        let Some(own) = self.tool_folder().and_then(|f| f.first()).filter(|f| !f.is_empty() && *f != ".") else {
            return;
        };
        for f in files.iter_mut().filter(|f| linked.contains(&(f.start, f.end)) && !f.tok.unresolvable()) {
            let joined = format!("{own}/{}", f.tok.path.trim_start_matches("./"));
            if !f.readings.contains(&joined) {
                f.readings.insert(0, joined);
                f.readings.truncate(paths::MAX_READINGS);
            }
        }
    }

    /// Reads the files at `root_relative` (links written `/x.md`) from the repository's root
    /// only.
    pub(super) fn root_relative_readings(files: &mut [FileMention], root_relative: &[(usize, usize)]) {
        for f in files.iter_mut().filter(|f| root_relative.contains(&(f.start, f.end))) {
            f.readings = vec![f.tok.path.clone()];
        }
    }

    /// Adds to every path written `../x` its reading against the page's URL folder
    /// ([`paths::page_reading`]), after the readings it has, when the memory is a Markdown page.
    pub(super) fn page_relative_readings(&self, files: &mut [FileMention]) {
        let Some(page) = &self.page_dir else { return };
        for f in files.iter_mut() {
            if let Some(reading) = paths::page_reading(page, &f.tok.path) {
                if !f.readings.contains(&reading) && f.readings.len() < paths::MAX_READINGS {
                    f.readings.push(reading);
                }
            }
        }
    }
}

/// A link target written from the repository's root: `/CONTRIBUTING.md`,
/// `/website/content/docs/security.mdx` (one leading slash, a file's extension at the end).
fn root_relative(target: &str) -> Option<paths::PathToken> {
    let rest = target.trim().strip_prefix('/').filter(|r| !r.starts_with('/'))?;
    let name = rest.split(['#', '?']).next().unwrap_or(rest);
    let file = name.rsplit('/').next().unwrap_or(name);
    // Images and other assets a docs site serves from its static folder (`![x](/discord.png)`).
    const ASSETS: &[&str] = &["png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "avif", "bmp", "mp4", "webm", "pdf"];
    let asset = file.rsplit_once('.').is_some_and(|(_, ext)| ASSETS.contains(&ext.to_ascii_lowercase().as_str()));
    if !paths::has_known_ext(file) || asset {
        return None;
    }
    paths::classify(rest, Strength::Standalone).filter(|tok| !tok.unresolvable())
}

/// A Cursor rule's link to a file of the workspace, `[guide](mdc:.cursor/rules/guide.mdc)`:
/// the path after `mdc:`, read from the repository's root as Cursor reads it.
pub(super) fn cursor_link(target: &str) -> Option<paths::PathToken> {
    let rest = target.trim().strip_prefix("mdc:")?;
    paths::classify(rest, Strength::Standalone).filter(|tok| !tok.unresolvable())
}

/// `[gradle-conventions](gradle-conventions)`: a link to a bare name (no folder, no extension)
/// whose text is the name itself names a file or folder beside the notes file; so does a link
/// written `./name` (`[format](./format)`, `[the editor](./editor)`), whatever its text: `./`
/// is a path's way of starting, not a site route's.
fn named_as_itself(text: &str, target: &str) -> Option<paths::PathToken> {
    let written = target.trim();
    let here = written.starts_with("./");
    let name = written.trim_start_matches("./").trim_end_matches('/');
    let shown = text.trim().trim_matches('`').trim_start_matches("./").trim_end_matches('/');
    let bare = name.len() >= 2 && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
    (bare && (here || shown == name)).then(|| paths::parse(name)).flatten()
}
