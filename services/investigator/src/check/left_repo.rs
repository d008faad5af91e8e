//! A path the memory itself places in another repository. A memory whose code moved out ("WDBX
//! moved out of this repository; source paths below read `../wdbx/crates/...`") names the new
//! home with paths outside the root (`../wdbx/crates/abi-wdbx/src/mvcc.rs`), which memval never
//! reads, and often names the same files again in the short form (`mvcc.rs`,
//! `crates/abi-wdbx/src/mvcc.rs`). Those are gone from this repository because they left it, as
//! the memory says: not a deletion to report. A path gone from the tree (and, with history, one
//! git had) that lies in a folder the memory names under a sibling repository's folder
//! (`../wdbx/` + `crates/abi-wdbx/src`), or a bare name git had in that folder, is not checked,
//! with the sibling path in the reason. A memory that names no such sibling path is read as
//! before: its paths are this repository's.

use memval_proto::{CodeRef, Outcome};

use super::Checker;

impl Checker<'_> {
    /// Not checked: the path of `r`, gone, lies in a folder the memory places in another
    /// repository. A bare name (`entropy.rs`, read from the memory's folder) counts when git had
    /// it in that folder.
    pub(super) fn left_for_sibling(&self, r: &CodeRef) -> Option<Outcome> {
        let path = r.path.trim().trim_start_matches("./").trim_end_matches('/');
        if path.is_empty() || path.starts_with("..") || self.index.has(path) {
            return None;
        }
        let written = r.written.as_deref().unwrap_or(path).trim().trim_start_matches("./");
        let name = if written.contains('/') { None } else { Some(written) };
        for sibling in self.context.outside_paths() {
            let Some(folder) = sibling_folder(sibling) else { continue };
            if self.index.is_dir(folder) || self.git.is_some_and(|git| !git.ever_had(folder)) {
                continue;
            }
            let inside = path == folder || path.starts_with(&format!("{folder}/"));
            let bare = name.is_some_and(|name| {
                let there = format!("{folder}/{name}");
                !self.index.has(&there) && self.git.is_some_and(|git| git.ever_had(&there))
            });
            if inside || bare {
                return Some(Outcome::NotChecked {
                    reason: format!(
                        "{written} is gone from this repository, and the memory places {folder}/ in another one ({sibling}), which memval does not read"
                    ),
                });
            }
        }
        None
    }
}

/// The folder a path into a sibling repository names, as a path of this one: `../wdbx/crates/
/// abi-wdbx/src/...` and `../wdbx/crates/abi-wdbx/src/mvcc.rs` give `crates/abi-wdbx/src`. Two
/// segments at least, so a sibling's root or top folder (`../wdbx/src`) says too little.
fn sibling_folder(sibling: &str) -> Option<&str> {
    let rest = sibling.strip_prefix("../")?;
    let (repo, inner) = rest.split_once('/')?;
    if repo.is_empty() || repo == ".." || inner.split('/').any(|s| s == "..") {
        return None;
    }
    let inner = inner.trim_end_matches('/');
    let inner = inner.strip_suffix("/...").or_else(|| inner.strip_suffix("...")).unwrap_or(inner);
    let inner = inner.trim_end_matches('/');
    // A file's folder; a path with no extension on its last segment is a folder already.
    let folder = match inner.rsplit_once('/') {
        Some((dir, last)) if last.contains('.') => dir,
        _ => inner,
    };
    (folder.split('/').filter(|s| !s.is_empty()).count() >= 2).then_some(folder)
}

#[cfg(test)]
mod tests {
    use super::sibling_folder;

    #[test]
    fn the_folder_a_sibling_path_names() {
        assert_eq!(sibling_folder("../wdbx/crates/abi-wdbx/src/..."), Some("crates/abi-wdbx/src"));
        assert_eq!(sibling_folder("../wdbx/crates/abi-wdbx/src/mvcc.rs"), Some("crates/abi-wdbx/src"));
        assert_eq!(sibling_folder("../wdbx/crates/abi-wdbx/"), Some("crates/abi-wdbx"));
        assert_eq!(sibling_folder("../wdbx/src/lib.rs"), None);
        assert_eq!(sibling_folder("../../x/a/b"), None);
        assert_eq!(sibling_folder("crates/a/b"), None);
    }
}
