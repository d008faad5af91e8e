//! Searches in one file's history: the commit that changed how often a name occurs in it, whether
//! it ever held a line (`git log -G`), and when a line of it was written (`git blame`).
//!
//! [`GitRepo::last_change_of`] (the commit before which a file still defined a name,
//! `git log -S`) keeps its answers per (path, name) for the checkout, and first lists the path's
//! versions once (`git log --raw -- PATH`, the same walk as the search): a name that no version
//! contains cannot have changed, so it is answered without a search (most such names are
//! misremembered or invented). Anything it cannot read for sure (a missing or large blob, a
//! merge's combined diff, more than 64 versions, a configured textconv) runs the search; a search
//! that fails is a `GitError`, never kept, and the investigator's verdict then says the history
//! was not searched instead of trusting "not defined".

use std::collections::HashMap;
use std::sync::Arc;

use memval_proto::UnixSeconds;

use super::cmd::{git, output, output_checked};
use super::GitRepo;
use crate::GitError;

/// Entries kept per cache of [`GitRepo::last_change_of`] (answers, and versions per path);
/// when full it starts over.
const SEARCH_CACHE_ENTRIES: usize = 200_000;

/// Versions of one path read to rule a name out without a history search; a path changed
/// more often than this is searched by git (which reads them all anyway).
const MAX_PATH_VERSIONS: usize = 64;

/// The distinct non-zero blob ids of `git log --format= --raw --no-abbrev` output, or `None`
/// for a line of another shape (a merge's combined diff) or more than [`MAX_PATH_VERSIONS`].
fn blob_ids(raw: &str) -> Option<Vec<String>> {
    let mut ids: Vec<String> = Vec::new();
    for line in raw.lines().filter(|l| !l.trim().is_empty()) {
        // `:<mode> <mode> <old id> <new id> <status>\t<path>[\t<path>]`
        let meta = line.strip_prefix(':').filter(|m| !m.starts_with(':'))?.split('\t').next()?;
        let fields: Vec<&str> = meta.split(' ').collect();
        let [_, _, old, new, _] = fields.as_slice() else { return None };
        for id in [old, new] {
            if id.len() < 40 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            if id.bytes().any(|b| b != b'0') && !ids.iter().any(|known| known == id) {
                ids.push((*id).to_owned());
            }
        }
        if ids.len() > MAX_PATH_VERSIONS {
            return None;
        }
    }
    Some(ids)
}

/// `text` as a POSIX extended regular expression (what `git log -G` reads) that matches it
/// literally.
pub fn ere_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '.' | '[' | ']' | '*' | '^' | '$' | '+' | '?' | '(' | ')' | '{' | '}' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// In `git blame --porcelain` output, the committer time of the first line equal to `text`.
/// Each line's group starts with its commit; a commit's headers (`committer-time`) come only
/// with its first line, so they are kept per commit.
fn blamed_line_time(porcelain: &str, text: &str) -> Option<UnixSeconds> {
    let mut times: HashMap<&str, UnixSeconds> = HashMap::new();
    let mut commit = "";
    for line in porcelain.lines() {
        if let Some(content) = line.strip_prefix('\t') {
            if content.trim() == text {
                return times.get(commit).copied();
            }
            continue;
        }
        let mut words = line.split(' ');
        let first = words.next().unwrap_or("");
        if first.len() == 40 && first.bytes().all(|b| b.is_ascii_hexdigit()) {
            commit = first;
        } else if first == "committer-time" {
            if let Some(t) = words.next().and_then(|t| t.parse().ok()) {
                times.insert(commit, t);
            }
        }
    }
    None
}

impl GitRepo {
    /// The newest commit on `HEAD` that changed how many times `needle` occurs in `path`
    /// (`git log -S`): for a name no longer defined there, the commit that removed or
    /// renamed it. `Ok(None)` when there is none; git's error when the search failed.
    ///
    /// Answers are kept per (path, needle) for this checkout (errors are not kept: asked
    /// again, git is asked again). Most names asked about were never in the file at all (a
    /// misremembered or invented name): when no version of the path that this search walks
    /// contains the needle, no commit can have changed how often it occurs, and the answer
    /// is `None` without a search. The path's versions are listed once
    /// ([`GitRepo::path_versions`]); whatever cannot be read makes the search run as before.
    pub fn last_change_of(&self, path: &str, needle: &str) -> Result<Option<String>, GitError> {
        if needle.is_empty() || needle.starts_with('-') || path.starts_with(['-', ':']) {
            return Ok(None);
        }
        let key = (path.to_owned(), needle.to_owned());
        if let Some(known) = self.last_changes.lock().expect("search cache poisoned").get(&key) {
            return Ok(known.clone());
        }
        let fact = format!("last change\0{needle}");
        let found = match self.kept_path_fact::<Option<String>>(&fact, path) {
            Some(kept) => kept,
            None => {
                let found =
                    if self.never_contained(path, needle) { None } else { self.search_last_change(path, needle)? };
                self.keep_path_fact(&fact, path, &found);
                found
            }
        };
        let mut cache = self.last_changes.lock().expect("search cache poisoned");
        if cache.len() >= SEARCH_CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(key, found.clone());
        Ok(found)
    }

    /// When the line `text` of `path` at `HEAD` was written: the committer time of the commit
    /// `git blame` gives its first line equal to `text` (leading and trailing blanks aside).
    /// `Ok(None)` when no line is equal; git's error when blame failed.
    pub fn line_written_at(&self, path: &str, text: &str) -> Result<Option<UnixSeconds>, GitError> {
        if path.starts_with(['-', ':']) {
            return Ok(None);
        }
        let args = ["blame", "--porcelain", "HEAD", "--", path];
        let out = output_checked(git(&self.dir).args(args), &args)?;
        Ok(blamed_line_time(&out, text.trim()))
    }

    /// `git log -n 1 -S<needle> HEAD -- path`, the question [`GitRepo::last_change_of`] answers.
    fn search_last_change(&self, path: &str, needle: &str) -> Result<Option<String>, GitError> {
        let args = ["log", "-n", "1", "--format=%H", &format!("-S{needle}"), "HEAD", "--", path];
        let out = output_checked(git(&self.dir).args(args), &args)?;
        let commit = out.trim();
        Ok((!commit.is_empty()).then(|| commit.to_owned()))
    }

    /// Whether some version of `path` in `HEAD`'s history (each commit's before and after, as
    /// `git log HEAD -- path` walks it) `holds`. `None` when the versions could not be listed
    /// or read, or there are more than [`MAX_PATH_VERSIONS`] (then [`GitRepo::ever_matched`]
    /// asks git to search the patches instead).
    pub fn some_version(&self, path: &str, holds: impl Fn(&str) -> bool) -> Option<bool> {
        if path.is_empty() || path.starts_with(['-', ':']) {
            return Some(false);
        }
        let versions = self.path_versions(path)?;
        for id in versions.iter() {
            if holds(&self.read_spec(id.clone())?) {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether some commit of `HEAD`'s history added or removed a line of `path` that matches
    /// `pattern` (a POSIX extended regular expression, as git reads `-G`; build literal parts with
    /// [`ere_literal`]):
    /// whether the file ever held such a line (`git log -G`, root commit included). Git's error
    /// when the search failed.
    pub fn ever_matched(&self, path: &str, pattern: &str) -> Result<bool, GitError> {
        if pattern.is_empty() || path.is_empty() || path.starts_with(['-', ':']) {
            return Ok(false);
        }
        let key = (format!("{path}\0-G"), pattern.to_owned());
        if let Some(known) = self.last_changes.lock().expect("search cache poisoned").get(&key) {
            return Ok(known.is_some());
        }
        let args = ["log", "-n", "1", "--format=%H", &format!("-G{pattern}"), "HEAD", "--", path];
        let out = output_checked(git(&self.dir).args(args), &args)?;
        let found = !out.trim().is_empty();
        self.last_changes.lock().expect("search cache poisoned").insert(key, found.then(String::new));
        Ok(found)
    }

    /// Whether no version of `path` that `git log HEAD -- path` shows (before or after each
    /// commit) contains `needle`. `false` whenever that is not known for sure: the versions
    /// could not be listed or read, there are too many, or a textconv filter is configured
    /// (`-S` then searches the converted text, not the blob).
    fn never_contained(&self, path: &str, needle: &str) -> bool {
        if self.textconv_configured() {
            return false;
        }
        let Some(versions) = self.path_versions(path) else { return false };
        versions.iter().all(|id| self.read_spec(id.clone()).is_some_and(|text| !text.contains(needle)))
    }

    /// Blob ids of every version of `path` the walk of `git log HEAD -- path` diffs (each
    /// commit's before and after, same revision walk and pathspec as the `-S` search), listed
    /// once per path; `None` when git failed, printed a line of another shape, or there are
    /// more than [`MAX_PATH_VERSIONS`].
    fn path_versions(&self, path: &str) -> Option<Arc<Vec<String>>> {
        if let Some(known) = self.versions.lock().expect("version cache poisoned").get(path) {
            return known.clone();
        }
        let listed = match self.kept_path_fact::<Vec<String>>("versions", path) {
            Some(kept) => Some(Arc::new(kept)),
            None => {
                let listed =
                    output(git(&self.dir).args(["log", "--format=", "--raw", "--no-abbrev", "HEAD", "--", path]))
                        .and_then(|out| blob_ids(&out));
                if let Some(listed) = &listed {
                    self.keep_path_fact("versions", path, listed);
                }
                listed.map(Arc::new)
            }
        };
        let mut cache = self.versions.lock().expect("version cache poisoned");
        if cache.len() >= SEARCH_CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(path.to_owned(), listed.clone());
        listed
    }

    /// Whether git's configuration names any `diff.<driver>.textconv` (asked once).
    fn textconv_configured(&self) -> bool {
        *self.textconv.get_or_init(|| {
            match git(&self.dir).args(["config", "--get-regexp", r"^diff\..*\.textconv$"]).output() {
                // Exit 1 with nothing printed: no such key.
                Ok(out) => !(out.status.code() == Some(1) && out.stdout.is_empty()),
                Err(_) => true,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blob_ids_are_every_version_or_unknown() {
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let zero = "0".repeat(40);
        let raw = format!(":000000 100644 {zero} {a} A\tsrc/x.rs\n\n:100644 100644 {a} {b} M\tsrc/x.rs\n:100644 000000 {b} {zero} D\tsrc/x.rs\n");
        assert_eq!(blob_ids(&raw), Some(vec![a.clone(), b.clone()]));
        assert_eq!(blob_ids(""), Some(vec![]));
        // A merge's combined diff, an abbreviated id: not read, so not known.
        assert_eq!(blob_ids(&format!("::100644 100644 100644 {a} {b} {a} MM\tsrc/x.rs\n")), None);
        assert_eq!(blob_ids(":100644 100644 abc def M\tsrc/x.rs\n"), None);
        let many: String =
            (1..=MAX_PATH_VERSIONS + 1).map(|i| format!(":100644 100644 {zero} {i:040x} M\tx\n")).collect();
        assert_eq!(blob_ids(&many), None);
    }
}
