//! What reading history costs, kept across runs: the rename, deletion and addition history of
//! `HEAD`, the name log of its newest commits, and per-path answers (a path's versions, the
//! commit that last changed a name in it), each stored by the commit it describes.
//!
//! Each is a fact about one commit's history, so a copy keyed by that commit id is never stale.
//! A run on the same `HEAD` loads them without running git. A run on a descendant of a kept
//! commit (at most [`MAX_STEP`] commits later) reads only the log of `kept..HEAD` and puts it
//! with the kept one in the order `git log` walks `HEAD`: after it when no merge is among the new
//! commits (the walk then has one commit to follow at a time), else interleaved by committer
//! time ([`interleave`], how git's date-ordered walk meets the two lines). A run on an ancestor
//! (a checkout of an earlier commit) drops the kept history's commits after it; its name log,
//! whose window reaches further back, is read again. A path's answers hold at a commit that
//! descends from a kept one, or precedes it, when no commit in between changed the path
//! ([`touched`]). Anything
//! else (another branch, a rewritten history, too long a step) reads the whole history again, as
//! a first run does.
//!
//! Nothing is kept from a shallow clone (its oldest commit reads as adding every file, which a
//! deeper fetch changes) or from a log that needed a fallback (`GitRepo::incomplete`), and no
//! failed search is kept. The store behind [`Cache`] is the caller's; this crate only asks it
//! for bytes by key. Each kind of fact keeps its [`KEPT_HEADS`] newest commits and removes older
//! ones from the store.
//!
//! What a kept answer assumes: history simplification (`git log -- PATH` following one parent of
//! a merge whose result equals it) picks the same parents whichever way the walk is read, and
//! committer times do not run backwards across the two lines of a merge; `bench/warm/run.py`
//! replays real histories commit by commit and compares every report with a run on an empty
//! store.

use std::collections::HashSet;
use std::path::Path;

use serde::{de::DeserializeOwned, Serialize};

/// Where facts are kept between runs (memval's store). A failed write is the store's to
/// report; a missing or unreadable entry is recomputed.
pub trait Cache: Send + Sync {
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    fn put(&self, key: &str, value: &[u8]);
    fn remove(&self, key: &str);
    /// Remove every entry whose key starts with `prefix`.
    fn remove_prefix(&self, prefix: &str);
}

/// Commits kept per kind of fact (the newest ones run on).
pub const KEPT_HEADS: usize = 4;

/// The most commits between a kept commit and `HEAD` read on top of (or dropped from) a kept
/// history.
pub const MAX_STEP: usize = 1_000;

/// How the current `HEAD` relates to a kept commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// `HEAD` descends from the kept commit by these commits (`kept..HEAD`).
    Ahead(Line),
    /// `HEAD` is an ancestor of the kept commit; these commits (`HEAD..kept`) came after it.
    Behind(Line),
}

/// The commits between two, newest first, and whether a merge is among them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    pub commits: Vec<String>,
    pub merges: bool,
}

/// The commits of `base..tip` when `base` is an ancestor of `tip` and they are at most
/// [`MAX_STEP`]; `None` otherwise (another branch, too far, a git error).
fn descent(dir: &Path, base: &str, tip: &str) -> Option<Line> {
    git(dir, &["merge-base", "--is-ancestor", base, tip])?;
    let out = git(
        dir,
        &["rev-list", "--parents", &format!("--max-count={}", MAX_STEP + 1), &format!("{base}..{tip}"), "--"],
    )?;
    let mut line = Line { commits: Vec::new(), merges: false };
    for ids in out.lines().map(|l| l.split_whitespace().collect::<Vec<_>>()).filter(|ids| !ids.is_empty()) {
        line.merges |= ids.len() > 2;
        line.commits.push(ids[0].to_owned());
    }
    (line.commits.len() <= MAX_STEP).then_some(line)
}

/// How `head` relates to `kept`, if one descends from the other.
pub(crate) fn step(dir: &Path, kept: &str, head: &str) -> Option<Step> {
    if !is_commit_id(kept) || !is_commit_id(head) || kept == head {
        return None;
    }
    if let Some(ahead) = descent(dir, kept, head) {
        return Some(Step::Ahead(ahead));
    }
    descent(dir, head, kept).map(Step::Behind)
}

/// Two oldest-first sequences of commits' items merged into the order `git log` walks their
/// union in, when the newer commits came in by a merge: by committer time, oldest first,
/// each commit's items together and in their order (a tie keeps the older sequence first).
/// Without a merge the walk has one commit to follow at a time and `older` then `newer` is
/// its order, whatever the dates say.
pub(crate) fn interleave<T>(older: Vec<T>, newer: Vec<T>, at: impl Fn(&T) -> (i64, &str)) -> Vec<T> {
    let mut out = Vec::with_capacity(older.len() + newer.len());
    let (mut a, mut b) = (older.into_iter().peekable(), newer.into_iter().peekable());
    loop {
        let take_older = match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(x), Some(y)) => at(x).0 <= at(y).0,
        };
        let source = if take_older { &mut a } else { &mut b };
        let Some(first) = source.next() else { break };
        let commit = at(&first).1.to_owned();
        out.push(first);
        while let Some(next) = source.next_if(|n| at(n).1 == commit) {
            out.push(next);
        }
    }
    out
}

/// stdout of a read-only git command that succeeded.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    crate::run::read_only(dir, args).ok().map(|out| String::from_utf8_lossy(&out).into_owned())
}

fn is_commit_id(s: &str) -> bool {
    s.len() >= 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// One kind of fact in the cache: its entries are `{kind}\0{head}`, and `{kind}\0heads` lists
/// the heads kept, newest run first.
pub(crate) struct Kept<'a> {
    pub cache: &'a dyn Cache,
    pub kind: String,
}

impl Kept<'_> {
    fn key(&self, head: &str) -> String {
        format!("{}\0{head}", self.kind)
    }

    fn heads(&self) -> Vec<String> {
        self.cache
            .get(&self.key("heads"))
            .and_then(|b| postcard::from_bytes::<Vec<String>>(&b).ok())
            .unwrap_or_default()
    }

    /// The facts kept for `head`.
    pub fn get<T: DeserializeOwned>(&self, head: &str) -> Option<T> {
        let bytes = self.cache.get(&self.key(head))?;
        match postcard::from_bytes(&bytes) {
            Ok(value) => Some(value),
            Err(e) => {
                tracing::warn!(kind = %self.kind.escape_debug(), error = %e, "kept git facts unreadable; reading history again");
                None
            }
        }
    }

    /// A kept commit `head` descends from (or, with `behind_too`, precedes), with the commits
    /// between them; the newest kept first.
    pub fn nearest(&self, dir: &Path, head: &str, behind_too: bool) -> Option<(String, Step)> {
        self.heads().into_iter().filter(|kept| kept != head).find_map(|kept| {
            step(dir, &kept, head).filter(|s| behind_too || matches!(s, Step::Ahead(_))).map(|s| (kept, s))
        })
    }

    /// Keep `value` for `head`, and forget the oldest heads beyond [`KEPT_HEADS`].
    pub fn put<T: Serialize>(&self, head: &str, value: &T) {
        let Ok(bytes) = postcard::to_stdvec(value) else { return };
        self.cache.put(&self.key(head), &bytes);
        for old in newest_first(self.cache, &self.key("heads"), head, KEPT_HEADS) {
            self.cache.remove(&self.key(&old));
        }
    }
}

/// Put `item` first in the list kept under `list` (without repeats), keep its `keep` first
/// entries, and return those that fell off, for the caller to remove what they name.
pub fn newest_first(cache: &dyn Cache, list: &str, item: &str, keep: usize) -> Vec<String> {
    let mut items: Vec<String> = cache.get(list).and_then(|b| postcard::from_bytes(&b).ok()).unwrap_or_default();
    items.retain(|h| h != item);
    items.insert(0, item.to_owned());
    let mut seen = HashSet::new();
    items.retain(|h| seen.insert(h.clone()));
    let gone = items.split_off(keep.min(items.len()));
    if let Ok(bytes) = postcard::to_stdvec(&items) {
        cache.put(list, &bytes);
    }
    gone
}

impl Kept<'_> {
    fn item_key(&self, head: &str, item: &str) -> String {
        format!("{}\0{head}\0{item}", self.kind)
    }

    /// One of the facts kept for `head` (the facts about one path).
    pub fn get_item<T: DeserializeOwned>(&self, head: &str, item: &str) -> Option<T> {
        postcard::from_bytes(&self.cache.get(&self.item_key(head, item))?).ok()
    }

    pub fn put_item<T: Serialize>(&self, head: &str, item: &str, value: &T) {
        if let Ok(bytes) = postcard::to_stdvec(value) {
            self.cache.put(&self.item_key(head, item), &bytes);
        }
    }

    /// Count `head` among the kept heads, and remove every fact of the heads that fall off.
    pub fn register(&self, head: &str) {
        for old in newest_first(self.cache, &self.key("heads"), head, KEPT_HEADS) {
            self.cache.remove_prefix(&format!("{}\0{old}\0", self.kind));
        }
    }
}

/// Paths a commit of `from..to` added, changed or deleted (merges' own changes are not
/// listed: the history questions asked of a path do not read them either).
pub(crate) fn touched(dir: &Path, from: &str, to: &str) -> Option<HashSet<String>> {
    let out = git(dir, &["log", "--name-only", "--no-renames", "--format=", "-z", &format!("{from}..{to}"), "--"])?;
    Some(out.split(['\0', '\n']).map(str::trim).filter(|p| !p.is_empty()).map(str::to_owned).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Memory(Mutex<HashMap<String, Vec<u8>>>);

    impl Cache for Memory {
        fn get(&self, key: &str) -> Option<Vec<u8>> {
            self.0.lock().unwrap().get(key).cloned()
        }
        fn put(&self, key: &str, value: &[u8]) {
            self.0.lock().unwrap().insert(key.to_owned(), value.to_vec());
        }
        fn remove(&self, key: &str) {
            self.0.lock().unwrap().remove(key);
        }
        fn remove_prefix(&self, prefix: &str) {
            self.0.lock().unwrap().retain(|k, _| !k.starts_with(prefix));
        }
    }

    #[test]
    fn only_the_newest_heads_are_kept() {
        let cache = Memory::default();
        let kept = Kept { cache: &cache, kind: "t".into() };
        for n in 0..KEPT_HEADS + 2 {
            kept.put(&format!("h{n}"), &vec![n as u32]);
        }
        assert_eq!(kept.get::<Vec<u32>>("h0"), None, "the oldest was removed");
        assert_eq!(kept.get::<Vec<u32>>("h1"), None);
        assert_eq!(kept.get::<Vec<u32>>(&format!("h{}", KEPT_HEADS + 1)), Some(vec![KEPT_HEADS as u32 + 1]));
        assert_eq!(kept.heads().len(), KEPT_HEADS);
        assert_eq!(cache.0.lock().unwrap().len(), KEPT_HEADS + 1, "the heads and the list, nothing else");
    }

    #[test]
    fn an_unreadable_entry_is_recomputed_not_trusted() {
        let cache = Memory::default();
        cache.put("t\0h", &[0xff, 0xff, 0xff]);
        let kept = Kept { cache: &cache, kind: "t".into() };
        assert_eq!(kept.get::<Vec<String>>("h"), None);
    }
}
