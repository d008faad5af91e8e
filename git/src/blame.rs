//! When a line of a tracked file was written: the commit `git blame` gives each line of the
//! file as it is in the work tree, and whether one commit came before another.
//!
//! A memory kept in the repository (a notes file, a doc) was written line by line over many
//! commits. A change to the code that came *before* a line was written cannot have made that
//! line stale: whoever wrote it wrote it with the change already made (the investigator reads
//! such a line as describing the change, a plan or something else, not as drift).
//!
//! Lines changed in the work tree and not committed have no commit ([`LineWritten::Uncommitted`]);
//! a file git does not track is an error, like any git failure, and the caller says so. Blame
//! runs once per file and is kept for the checkout ([`GitRepo::line_written`]).

use std::collections::HashMap;
use std::sync::Arc;

use memval_proto::UnixSeconds;

use crate::run::{pathspec, read_only, status};
use crate::written::{FileLines, LineWritten};
use crate::{GitError, GitRepo};

/// The lines of a `git blame --porcelain` output, by final line number.
fn parse_porcelain(out: &str) -> Result<Vec<LineWritten>, GitError> {
    let mut times: HashMap<&str, UnixSeconds> = HashMap::new();
    let mut lines: Vec<(u32, &str)> = Vec::new();
    let mut current: Option<&str> = None;
    for line in out.lines() {
        if line.starts_with('\t') {
            continue;
        }
        let mut words = line.split(' ');
        let first = words.next().unwrap_or("");
        if first.len() >= 40 && first.bytes().all(|b| b.is_ascii_hexdigit()) {
            let (_orig, fin) = (words.next(), words.next());
            let fin: u32 = fin.and_then(|f| f.parse().ok()).ok_or_else(|| {
                GitError::Unexpected(format!("git blame printed a header without a line number: {line:?}"))
            })?;
            lines.push((fin, first));
            current = Some(first);
        } else if let (Some(commit), Some(time)) = (current, line.strip_prefix("committer-time ")) {
            if let Ok(t) = time.trim().parse() {
                times.insert(commit, t);
            }
        }
    }
    let mut written = vec![LineWritten::Uncommitted; lines.iter().map(|(n, _)| *n as usize).max().unwrap_or(0)];
    for (n, commit) in lines {
        let slot = &mut written[n as usize - 1];
        if commit.bytes().all(|b| b == b'0') {
            continue;
        }
        let time = *times
            .get(commit)
            .ok_or_else(|| GitError::Unexpected(format!("git blame gave commit {commit} no committer time")))?;
        *slot = LineWritten::Committed { commit: commit.to_owned(), time };
    }
    Ok(written)
}

impl GitRepo {
    /// Which commit wrote line `line` (1-based) of `path` (relative to the directory the
    /// repository was opened at) as it is in the work tree. `Ok(None)` for a line past the
    /// file's end; git's error when the file is untracked or blame failed.
    pub fn line_written(&self, path: &str, line: u32) -> Result<Option<LineWritten>, GitError> {
        let lines = self.blame_of(path)?;
        Ok(line.checked_sub(1).and_then(|i| lines.get(i as usize)).cloned())
    }

    fn blame_of(&self, path: &str) -> Result<FileLines, GitError> {
        if let Some(known) = self.blames.lock().expect("blame cache poisoned").get(path) {
            return known.clone();
        }
        let spec = pathspec(path)?;
        let file = spec.trim_start_matches(":(literal)");
        let found = read_only(self.dir(), &["blame", "--porcelain", "-w", "--", file])
            .and_then(|out| parse_porcelain(&String::from_utf8_lossy(&out)))
            .map(Arc::new);
        self.blames.lock().expect("blame cache poisoned").insert(path.to_owned(), found.clone());
        found
    }

    /// Whether `older` is `newer` or one of its ancestors (`git merge-base --is-ancestor`).
    pub fn is_ancestor(&self, older: &str, newer: &str) -> Result<bool, GitError> {
        for rev in [older, newer] {
            if rev.is_empty() || !rev.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(GitError::BadArgument(format!("{rev:?} is not a commit id")));
            }
        }
        status(self.dir(), &["merge-base", "--is-ancestor", older, newer])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn porcelain_lines_take_their_commit_and_time() {
        let a = "a".repeat(40);
        let zero = "0".repeat(40);
        let out = format!(
            "{a} 1 1 2\nauthor X\ncommitter-time 100\nfilename f\n\tone\n{a} 2 2\n\ttwo\n{zero} 3 3 1\ncommitter-time 200\n\tthree\n"
        );
        let got = parse_porcelain(&out).unwrap();
        let committed = LineWritten::Committed { commit: a.clone(), time: 100 };
        assert_eq!(got, vec![committed.clone(), committed, LineWritten::Uncommitted]);
    }

    #[test]
    fn a_header_without_a_line_number_is_an_error() {
        let out = format!("{} 1\n", "b".repeat(40));
        assert!(matches!(parse_porcelain(&out), Err(GitError::Unexpected(_))));
    }
}
