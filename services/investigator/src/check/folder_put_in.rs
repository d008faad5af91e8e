//! Without history, a path found again with one folder put in its middle.
//!
//! Code set aside keeps its place inside a new folder: verifiers moved its first environments
//! from `verifiers/envs/` to `verifiers/legacy/envs/` and started a new `verifiers/envs/`
//! beside them. The old path's first folder and its rest are both kept, with one folder
//! between them (`verifiers/envs/python_env.py` → `verifiers/legacy/envs/python_env.py`).
//! When exactly one file (or folder, for a folder) of the repository is the missing path with
//! one folder put in after its first, it is where the path went: a guess, at 50, saying "no
//! history". A folder the memory's notes are kept in, left holding only them, is read so too
//! when another of the memory's paths in it is found at the new place (`locate.rs`).

use crate::names::basename;

use super::located::Located;
use super::Checker;

impl Checker<'_> {
    /// The one place that is `path` with one folder put in after its first segment, if
    /// exactly one is (`dir`: look among folders, else among files).
    pub(super) fn folder_put_in(&self, path: &str, dir: bool) -> Option<Located> {
        let path = path.trim_end_matches('/');
        let [to] = self.places_put_in(path, dir).try_into().ok()?;
        Some(put_in_at(path, to, dir))
    }

    /// Every place that is `path` with one folder put in after its first segment (`dir`:
    /// folders, else files), sorted.
    pub(super) fn places_put_in(&self, path: &str, dir: bool) -> Vec<String> {
        let path = path.trim_end_matches('/');
        let old: Vec<&str> = path.split('/').collect();
        // A file: its first folder, something between, and its name; a folder: two at least
        // (`verifiers/envs` → `verifiers/legacy/envs`).
        if old.len() < if dir { 2 } else { 3 } {
            return Vec::new();
        }
        let name = basename(path);
        let places: Vec<String> = if dir {
            self.index.dirs_named(name).into_iter().map(str::to_owned).collect()
        } else {
            self.index.files_named(name).iter().map(|&i| self.index.file_at(i).path.clone()).collect()
        };
        let mut found: Vec<String> = places.into_iter().filter(|p| one_folder_put_in(&old, p)).collect();
        found.sort();
        found
    }
}

/// `path` moved to `to`, one folder put in: the guess, at 50, with the folder named.
pub(super) fn put_in_at(path: &str, to: String, dir: bool) -> Located {
    let old: Vec<&str> = path.split('/').collect();
    let new: Vec<&str> = to.split('/').collect();
    let at = old.iter().zip(&new).position(|(a, b)| a != b).unwrap_or(old.len());
    let put_in = new[at].to_owned();
    Located::Moved {
        evidence: format!(
            "no history; {to} is the only place that is {path} with one folder ({put_in}/) put in: set aside there with its folder (unconfirmed)"
        ),
        to,
        dir,
        confidence: 50,
        since: None,
    }
}

/// Whether `new` is the segments `old` with one segment put in after the first and before the
/// last (`a/b/c` → `a/x/b/c` or `a/b/x/c`).
fn one_folder_put_in(old: &[&str], new: &str) -> bool {
    let new: Vec<&str> = new.split('/').collect();
    if new.len() != old.len() + 1 {
        return false;
    }
    (1..old.len()).any(|at| new[..at] == old[..at] && new[at + 1..] == old[at..])
}

#[cfg(test)]
mod tests {
    use super::one_folder_put_in;

    #[test]
    fn one_folder_between_the_first_and_the_name() {
        let old = ["verifiers", "envs", "python_env.py"];
        assert!(one_folder_put_in(&old, "verifiers/legacy/envs/python_env.py"));
        assert!(one_folder_put_in(&old, "verifiers/envs/v0/python_env.py"));
        // a new root, a folder renamed, two folders put in
        assert!(!one_folder_put_in(&old, "legacy/verifiers/envs/python_env.py"));
        assert!(!one_folder_put_in(&old, "verifiers/environments/python_env.py"));
        assert!(!one_folder_put_in(&old, "verifiers/a/b/envs/python_env.py"));
    }
}
