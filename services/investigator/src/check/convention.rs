//! A bare folder name that every package keeps: a convention, not the root's one folder.
//!
//! "Integration tests go in `tests/`" in a workspace of crates names the folder each crate
//! keeps its tests in (`crates/core/tests/`, `crates/cli/tests/`), a rule about where things
//! go. When the root once had a folder of that name and lost it (cuenv's root `tests/` held
//! CUE fixtures, deleted long after the rule was written), the rule still holds in every
//! package: the root's loss is not drift of what the sentence says.
//!
//! A memory that names other folders still at the root as bare names (zerocopy's layout:
//! `tools/`, `ci/`, then "`tests/`: UI and integration tests for the main crate") describes the
//! root, and its `tests/` is the root's: gone is gone there.
//!
//! Only the folder names packages keep by convention count ([`PER_PACKAGE`]), written bare,
//! gone from the root with nothing in its place, while at least two packages side by side
//! (`crates/a/tests`, `crates/b/tests`: folders of one parent) keep one. The verdict says the
//! root's folder is gone and where the packages keep theirs, below the confidence a gate acts
//! on.

use super::located::Located;
use super::Checker;

/// Folders each package of a workspace keeps of its own.
const PER_PACKAGE: &[&str] =
    &["tests", "test", "__tests__", "spec", "specs", "src", "examples", "benches", "bin", "include", "fixtures"];

/// Confidence of a convention read from the packages: the sentence holds in each of them,
/// but the memory may still have meant the root's folder.
const CONVENTION: u8 = 60;

impl Checker<'_> {
    /// `found` for a bare folder name `written`, read at the root (`raw`), gone from there: the
    /// folder each package keeps when packages side by side keep one; `found` unchanged otherwise.
    pub(super) fn each_packages_own(&self, raw: &str, written: &str, found: Located) -> Located {
        let Located::Gone { evidence, .. } = &found else {
            return found;
        };
        let name = written.trim().trim_start_matches("./").trim_end_matches('/');
        if name.contains('/') || !PER_PACKAGE.contains(&name) {
            return found;
        }
        // Only the root's folder: read under the notes' own folder (`sdks/java/examples` for
        // `examples/` in `sdks/java/CLAUDE.md`), the name is that package's, gone from it.
        if raw.trim().trim_start_matches("./").trim_end_matches('/') != name {
            return found;
        }
        // A memory that also names folders still at the root (`tools/`, `ci/` beside "`tests/`:
        // UI and integration tests") lays out the root: its `tests/` is the root's.
        if self.context.root_folders_named(self.index, name) > 0 {
            return found;
        }
        let mut places: Vec<String> = self.index.dirs_named(name).into_iter().map(str::to_owned).collect();
        places.sort();
        if !side_by_side(&places) {
            return found;
        }
        let shown: Vec<&str> = places.iter().take(3).map(String::as_str).collect();
        let more = places.len().saturating_sub(shown.len());
        let note = format!(
            "the root's {name}/ is gone ({evidence}), but {} packages keep a {name}/ of their own ({}{}): read as the folder each package keeps, a convention that holds",
            places.len(),
            shown.join(", "),
            if more > 0 { format!(" and {more} more") } else { String::new() },
        );
        Located::Here { path: places[0].clone(), dir: true, confidence: CONVENTION, note: Some(note) }
    }
}

/// Whether two of `places` are folders of packages side by side: different parents that share
/// a parent (`crates/a/tests` and `crates/b/tests`).
pub(super) fn side_by_side(places: &[String]) -> bool {
    let parent = |p: &str| p.rsplit_once('/').map_or(String::new(), |(up, _)| up.to_owned());
    places.iter().enumerate().any(|(i, a)| {
        places[i + 1..].iter().any(|b| {
            let (pa, pb) = (parent(a), parent(b));
            !pa.is_empty() && !pb.is_empty() && pa != pb && parent(&pa) == parent(&pb)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::side_by_side;

    #[test]
    fn packages_side_by_side_share_a_parent() {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(side_by_side(&v(&["crates/a/tests", "crates/b/tests"])));
        assert!(!side_by_side(&v(&["crates/a/tests", "tools/x/y/tests"])));
        assert!(!side_by_side(&v(&["crates/a/tests"])));
        // a folder inside another of the same name is not a second package
        assert!(!side_by_side(&v(&["a/tests", "a/tests/tests"])));
    }
}
