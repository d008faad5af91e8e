//! Without history, a file whose folder's files of its kind all changed extension.
//!
//! A project that renames its script language (kotuku's tests went from `test_axes.fluid` to
//! `test_axes.tiri`, its definitions from `xquery.fdl` to `xquery.tdl`) or converts a folder
//! (`setup.js` → `setup.ts`) leaves each file beside the one it was, under the same stem. So
//! a missing file whose folder holds exactly one file of its stem with another extension,
//! while no file of the old extension is left in that folder, was renamed to it: a guess, at
//! 50, saying "no history". Where several files of its stem stand there (`xquery.tdl` beside
//! `xquery.cpp`), the extension the memory's other missing files of the folder went to decides
//! (`constants.fdl` → `constants.tdl`).
//!
//! Files that live beside one of the same stem without being it are never read so: a header
//! and its source (`cache.h`, `cache.c`), a component's style sheet or page of docs beside its
//! code (`Button.css`, `Button.md` by `Button.tsx`), a source map, a snapshot
//! ([`COMPANIONS`], [`NEVER_RENAMED_TO`]). Nor is a format's successor (`wolverine.sln` beside
//! `wolverine.slnx`, `.doc` and `.docx`): the new file is written anew, not the old one renamed.

use crate::names::{basename, folder};

use super::located::Located;
use super::Checker;

/// Pairs of extensions (either way round) of two files that sit side by side as parts of one
/// thing, not as one file renamed.
const COMPANIONS: &[(&str, &str)] = &[
    ("h", "c"),
    ("h", "cc"),
    ("h", "cpp"),
    ("h", "cxx"),
    ("h", "m"),
    ("h", "mm"),
    ("hh", "cc"),
    ("hpp", "cpp"),
    ("hxx", "cxx"),
    ("pyi", "py"),
    ("mli", "ml"),
    ("hs-boot", "hs"),
    ("fsi", "fs"),
];

/// Extensions of files that accompany code of the same stem (styles, docs, maps, snapshots),
/// and of binary data built or converted from a source of the same stem (`world_cities.mbtiles`
/// made from `world_cities.sql`): never what a file was renamed to, nor from.
const NEVER_RENAMED_TO: &[&str] = &[
    "css", "scss", "sass", "less", "styl", "md", "mdx", "rst", "txt", "map", "snap", "lock", "orig", "bak", "mbtiles",
    "pmtiles", "db", "sqlite", "sqlite3", "png", "jpg", "jpeg", "gif", "webp", "ico", "svg", "pdf", "zip", "gz", "tgz",
    "tar", "bin", "wasm", "so", "dll", "dylib", "a", "o", "exe", "jar", "class", "pyc", "parquet", "pb",
];

impl Checker<'_> {
    /// `dir/stem.old` gone while `dir/stem.new` is the only file of its stem there and no
    /// `.old` file is left in `dir`: renamed with its folder's kind of file.
    pub(super) fn extension_changed(&self, path: &str) -> Option<Located> {
        let dir = folder(path);
        let name = basename(path);
        let (stem, old_ext) = name.rsplit_once('.')?;
        if stem.is_empty() || old_ext.is_empty() || NEVER_RENAMED_TO.contains(&old_ext.to_ascii_lowercase().as_str()) {
            return None;
        }
        if !dir.is_empty() && !self.index.is_dir(dir) {
            return None;
        }
        let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
        let beside: Vec<&str> = self
            .index
            .files_with_stem(stem)
            .iter()
            .map(|&i| self.index.file_at(i).path.as_str())
            .filter(|p| p.strip_prefix(&prefix).is_some_and(|rest| !rest.contains('/')))
            .filter(|p| *p != path)
            .collect();
        let ext_of = |p: &str| basename(p).rsplit_once('.').map(|(_, e)| e.to_owned());
        let beside: Vec<&str> =
            beside.into_iter().filter(|p| ext_of(p).is_some_and(|e| renamable(old_ext, &e))).collect();
        let old_suffix = format!(".{old_ext}");
        let to = match beside.as_slice() {
            [one] => *one,
            [] => return None,
            // `xquery.fdl` beside `xquery.tdl`, `xquery.cpp` and `xquery.h`: the extension the
            // memory's other missing files of the folder went to decides (`constants.fdl` →
            // `constants.tdl`).
            several => {
                let others: Vec<String> = self
                    .context
                    .inside(self.index, if dir.is_empty() { "." } else { dir })
                    .into_iter()
                    .filter(|p| p != path && p.strip_prefix(&prefix).is_some_and(|r| !r.contains('/')))
                    .filter(|p| p.ends_with(&old_suffix))
                    .collect();
                let taken_by_others = |candidate: &str| {
                    let Some(e) = ext_of(candidate) else { return false };
                    others.iter().any(|o| {
                        let stem = o.trim_end_matches(&old_suffix);
                        self.index.file(&format!("{stem}.{e}")).is_some()
                    })
                };
                let taken: Vec<&str> = several.iter().copied().filter(|c| taken_by_others(c)).collect();
                let [one] = taken[..] else { return None };
                one
            }
        };
        let new_ext = ext_of(to)?;
        let old_kind_left =
            self.index.children(dir).into_iter().any(|(entry, is_dir)| !is_dir && entry.ends_with(&old_suffix));
        if old_kind_left {
            return None;
        }
        let shown_dir = if dir.is_empty() { "the root".to_owned() } else { format!("{dir}/") };
        Some(Located::Moved {
            to: (*to).to_owned(),
            dir: false,
            confidence: 50,
            evidence: format!(
                "no history; {to}, the same name with .{new_ext} for .{old_ext}, stands where it was, and no .{old_ext} file is left in {shown_dir}: renamed with its folder's files of that kind (unconfirmed)"
            ),
            since: None,
        })
    }
}

/// Whether a file of extension `old` may have been renamed to one of extension `new` (both
/// without the dot): different, neither a companion's nor one that only accompanies code.
pub(super) fn renamable(old: &str, new: &str) -> bool {
    let (old, new) = (old.to_ascii_lowercase(), new.to_ascii_lowercase());
    old != new
        // `.sln` → `.slnx`, `.doc` → `.docx`: a format's successor, written anew, not renamed
        && !new.starts_with(old.as_str())
        && !old.starts_with(new.as_str())
        && !NEVER_RENAMED_TO.contains(&new.as_str())
        && !NEVER_RENAMED_TO.contains(&old.as_str())
        && !COMPANIONS.iter().any(|&(a, b)| (a == old && b == new) || (a == new && b == old))
}

#[cfg(test)]
mod tests {
    use super::renamable;

    #[test]
    fn a_kind_of_file_renamed_is_not_a_companion() {
        assert!(renamable("fluid", "tiri"));
        assert!(renamable("js", "ts"));
        assert!(renamable("java", "kt"));
        assert!(!renamable("h", "c"));
        assert!(!renamable("cpp", "hpp"));
        assert!(!renamable("tsx", "css"));
        assert!(!renamable("py", "md"));
        assert!(!renamable("ts", "TS"));
        assert!(!renamable("sln", "slnx"));
        assert!(!renamable("mbtiles", "sql"));
        assert!(!renamable("sql", "db"));
    }
}
