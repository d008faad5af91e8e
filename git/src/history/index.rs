//! The log of every rename, deletion and addition on `HEAD`'s history, and its index by path.
//!
//! What it runs: one `git log --full-history -M --name-status` of renames, deletions and
//! additions, loaded once on first need. When the `-M` log fails (rename detection needs blobs
//! a partial clone lacks) it is run again with `--no-renames`, and a deletion and an addition
//! of one file name within a commit are then paired into a move (`pair_moves`, also applied to
//! what `-M` missed). The investigator puts the [`GitRepo::incomplete`] note into every verdict
//! that rests on history, and caps at 70 one that rests on history *not* showing something.

use std::collections::HashMap;

use memval_proto::UnixSeconds;

use super::cmd::{git, output_or_error};
use super::GitRepo;
use crate::kept::Step;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ChangeKind {
    Renamed { from: String, to: String },
    Deleted { path: String },
    Added { path: String },
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Change {
    pub commit: String,
    pub time: UnixSeconds,
    pub kind: ChangeKind,
}

/// Every rename, deletion and addition on `HEAD`'s history, oldest first, and where each
/// path is mentioned in it (so following a path costs its own changes, not the history's).
#[derive(Default)]
pub(super) struct History {
    pub(super) changes: Vec<Change>,
    /// Committer date of each commit that renamed, deleted or added a path.
    pub(super) times: HashMap<String, UnixSeconds>,
    pub(super) by_path: HashMap<String, Vec<usize>>,
    /// The keys of `by_path`, sorted: the paths below a folder are one range of it.
    pub(super) paths: Vec<String>,
}

impl History {
    pub(super) fn new(changes: Vec<Change>) -> History {
        let mut by_path: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, change) in changes.iter().enumerate() {
            match &change.kind {
                ChangeKind::Renamed { from, to } => {
                    by_path.entry(from.clone()).or_default().push(i);
                    if to != from {
                        by_path.entry(to.clone()).or_default().push(i);
                    }
                }
                ChangeKind::Deleted { path } | ChangeKind::Added { path } => {
                    by_path.entry(path.clone()).or_default().push(i)
                }
            }
        }
        let mut paths: Vec<String> = by_path.keys().cloned().collect();
        paths.sort_unstable();
        let times = changes.iter().map(|c| (c.commit.clone(), c.time)).collect();
        History { changes, times, by_path, paths }
    }

    /// Whether `path` was in the tree at time `at`, as far as history shows: its last change
    /// at or before `at` added it (or renamed something to it), or it has none then and its
    /// first change after is not its addition (a file older than a shallow clone's history).
    pub(super) fn present_at(&self, path: &str, at: UnixSeconds) -> bool {
        let Some(mentions) = self.by_path.get(path) else { return false };
        let adds = |c: &Change| match &c.kind {
            ChangeKind::Added { path: p } | ChangeKind::Renamed { to: p, .. } => p == path,
            ChangeKind::Deleted { .. } => false,
        };
        let mut before = mentions.iter().map(|&i| &self.changes[i]).filter(|c| c.time <= at);
        match before.next_back() {
            Some(last) => adds(last),
            None => mentions.first().is_some_and(|&i| !adds(&self.changes[i])),
        }
    }
}

/// The folder a `git subtree --squash` commit puts its paths under: git-subtree writes each
/// import of another project as one commit of that project's tree, from its own root, with the
/// subject "Squashed 'PREFIX/' content from commit X" (the first) or "Squashed 'PREFIX/' changes
/// from X..Y" (each pull), and merges it in under PREFIX. Its paths are this repository's at
/// PREFIX: read at the root they would be paths this repository never had (spiff-arena's
/// `bin/recreate_db`, which is `spiffworkflow-backend/bin/recreate_db`). A subtree added without
/// `--squash` brings the other project's whole history, which no subject marks: not read so.
fn squashed_subtree(subject: &str) -> Option<&str> {
    let rest = subject.strip_prefix("Squashed '")?;
    let (prefix, after) = rest.split_once("' ")?;
    let squash = after.starts_with("content from commit ") || after.starts_with("changes from ");
    let plain = !prefix.is_empty() && !prefix.starts_with('/') && !prefix.split('/').any(|s| s == "..");
    (squash && plain && prefix.ends_with('/')).then_some(prefix)
}

/// One commit's changes with each deletion and addition of the same file name paired into a
/// rename when the name is unique on both sides: what `git log -M` reports for a pure move,
/// recovered when rename detection was not run (or missed a move with heavy edits in the same
/// commit). Other changes are kept as they are.
fn pair_moves(block: Vec<Change>) -> Vec<Change> {
    let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_owned();
    let mut deleted: HashMap<String, Vec<usize>> = HashMap::new();
    let mut added: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, c) in block.iter().enumerate() {
        match &c.kind {
            ChangeKind::Deleted { path } => deleted.entry(name(path)).or_default().push(i),
            ChangeKind::Added { path } => added.entry(name(path)).or_default().push(i),
            ChangeKind::Renamed { .. } => {}
        }
    }
    let mut pairs: HashMap<usize, usize> = HashMap::new();
    for (n, d) in &deleted {
        if let (1, Some(a)) = (d.len(), added.get(n).filter(|a| a.len() == 1)) {
            pairs.insert(d[0], a[0]);
        }
    }
    let paired_adds: std::collections::HashSet<usize> = pairs.values().copied().collect();
    let mut out = Vec::with_capacity(block.len());
    for (i, c) in block.iter().enumerate() {
        if paired_adds.contains(&i) {
            continue;
        }
        match (pairs.get(&i), &c.kind) {
            (Some(&a), ChangeKind::Deleted { path }) => {
                let ChangeKind::Added { path: to } = &block[a].kind else { unreachable!("paired with an addition") };
                out.push(Change {
                    commit: c.commit.clone(),
                    time: c.time,
                    kind: ChangeKind::Renamed { from: path.clone(), to: to.clone() },
                });
            }
            _ => out.push(c.clone()),
        }
    }
    out
}

impl GitRepo {
    /// Every rename, deletion and addition on `HEAD`'s history, oldest first. Loaded once.
    pub fn history(&self) -> &[Change] {
        &self.indexed_history().changes
    }

    /// Why history may be missing moves, or `None` when it is whole: a shallow clone, rename
    /// detection that failed (moves then come from deletions and additions of the same file
    /// name in one commit), or a `git log` that failed. Loads the history.
    pub fn incomplete(&self) -> Option<&str> {
        self.indexed_history();
        self.incomplete.get().and_then(|n| n.as_deref())
    }

    /// Whether a path the history never shows may still have been the repository's: a shallow
    /// clone's past is behind its graft, and a log that failed outright shows nothing. A log read
    /// again without rename detection (a partial clone whose blobs are missing) still lists every
    /// path each commit added or deleted: only which addition continued which deletion is guessed,
    /// so "never in the repository" stays as sure as with whole history. Loads the history.
    pub fn paths_incomplete(&self) -> bool {
        self.indexed_history();
        self.paths_lost.get().copied().unwrap_or(true)
    }

    /// The log of renames, deletions and additions of `range` (`HEAD`'s whole history, or the
    /// commits after a kept one). `--full-history`: git's default simplification follows only
    /// the parent a merge's tree equals, so a project whose old line was emptied and then merged
    /// with a new one ("Prepare to merge deer-flow-2") would lose the whole old line, and every
    /// path of it would look as if it had never been.
    fn log(&self, renames: bool, range: &str) -> Result<String, String> {
        let mut cmd = git(&self.dir);
        cmd.arg("log").arg("--full-history").arg(if renames { "-M" } else { "--no-renames" });
        cmd.args(["--name-status", "--diff-filter=RDA", "--format=%x1e%H %ct %s", range, "--", "."]);
        output_or_error(&mut cmd)
    }

    /// The changes a log lists, oldest first.
    fn parse_changes(&self, text: &str) -> Vec<Change> {
        let mut changes = Vec::new();
        for commit_block in text.split('\x1e').filter(|b| !b.trim().is_empty()) {
            let mut lines = commit_block.lines();
            let Some((commit, rest)) = lines.next().and_then(|h| h.split_once(' ')) else { continue };
            let (time, subject) = rest.split_once(' ').unwrap_or((rest, ""));
            let Ok(time) = time.trim().parse::<UnixSeconds>() else { continue };
            // A subtree's squashed commit lists the subproject's paths from its own root.
            let subtree = squashed_subtree(subject);
            let mut block = Vec::new();
            for line in lines {
                let placed: Vec<String>;
                let fields: Vec<&str> = match subtree {
                    None => line.split('\t').collect(),
                    Some(prefix) => {
                        placed = line
                            .split('\t')
                            .enumerate()
                            .map(|(i, f)| if i == 0 { f.to_owned() } else { format!("{prefix}{f}") })
                            .collect();
                        placed.iter().map(String::as_str).collect()
                    }
                };
                let kind = match fields.as_slice() {
                    [status, from, to] if status.starts_with('R') => match (self.local(from), self.local(to)) {
                        (Some(from), Some(to)) => ChangeKind::Renamed { from, to },
                        (Some(path), None) => ChangeKind::Deleted { path },
                        (None, Some(path)) => ChangeKind::Added { path },
                        (None, None) => continue,
                    },
                    ["D", path] => match self.local(path) {
                        Some(path) => ChangeKind::Deleted { path },
                        None => continue,
                    },
                    ["A", path] => match self.local(path) {
                        Some(path) => ChangeKind::Added { path },
                        None => continue,
                    },
                    _ => continue,
                };
                block.push(Change { commit: commit.to_owned(), time, kind });
            }
            changes.push(pair_moves(block));
        }
        // `git log` lists newest first.
        changes.into_iter().rev().flatten().collect()
    }

    /// The history an earlier run kept for this `HEAD`, or built from one it kept for an
    /// ancestor or a descendant of it (`kept.rs`).
    fn kept_history(&self) -> Option<Vec<Change>> {
        let kept = self.kept("history/v3")?;
        if let Some(changes) = kept.get::<Vec<Change>>(&self.head) {
            return Some(changes);
        }
        let (base, step) = kept.nearest(&self.dir, &self.head, true)?;
        let mut changes = kept.get::<Vec<Change>>(&base)?;
        match step {
            Step::Ahead(line) => {
                let text = self.log(true, &format!("{base}..{}", self.head)).ok()?;
                let newer = self.parse_changes(&text);
                changes = match line.merges {
                    true => crate::kept::interleave(changes, newer, |c| (c.time, c.commit.as_str())),
                    false => changes.into_iter().chain(newer).collect(),
                };
            }
            Step::Behind(line) => {
                let after: std::collections::HashSet<String> = line.commits.into_iter().collect();
                changes.retain(|c| !after.contains(&c.commit));
            }
        }
        kept.put(&self.head, &changes);
        Some(changes)
    }

    pub(super) fn indexed_history(&self) -> &History {
        self.history.get_or_init(|| {
            let started = std::time::Instant::now();
            if let Some(changes) = self.kept_history() {
                let _ = self.incomplete.set(None);
                let _ = self.paths_lost.set(false);
                tracing::debug!(target: "memval::timing", changes = changes.len(), seconds = started.elapsed().as_secs_f64(), "kept history read");
                let history = History::new(changes);
                tracing::debug!(target: "memval::timing", seconds = started.elapsed().as_secs_f64(), "kept history indexed");
                return history;
            }
            let mut notes = Vec::new();
            if self.shallow {
                notes.push("shallow clone: history before its oldest commit is unknown".to_owned());
            }
            self.tell("reading the git history's renames and deletions (later runs on this clone reuse it)");
            let mut lost = self.shallow;
            let text = match self.log(true, &self.head) {
                Ok(text) => text,
                Err(with_renames) => match self.log(false, &self.head) {
                    Ok(text) => {
                        notes.push(format!("{with_renames}; read again without rename detection (moves matched by file name within a commit)"));
                        text
                    }
                    Err(without) => {
                        notes.push(format!("{without}; no history used"));
                        lost = true;
                        String::new()
                    }
                },
            };
            let _ = self.paths_lost.set(lost);
            let _ = self.incomplete.set((!notes.is_empty()).then(|| notes.join("; ")));
            if !notes.is_empty() {
                tracing::warn!(repo = %self.dir.display(), problem = %notes.join("; "), "git history is incomplete");
            }
            let changes = self.parse_changes(&text);
            if notes.is_empty() {
                if let Some(kept) = self.kept("history/v3") {
                    kept.put(&self.head, &changes);
                }
            }
            History::new(changes)
        })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    #[test]
    fn a_deletion_and_an_addition_of_one_file_name_in_a_commit_are_a_move() {
        let c = |kind| Change { commit: "c".into(), time: 1, kind };
        let deleted = |p: &str| c(ChangeKind::Deleted { path: p.into() });
        let added = |p: &str| c(ChangeKind::Added { path: p.into() });
        let out = pair_moves(vec![deleted("src/engine.rs"), added("src/core/engine.rs"), added("README.md")]);
        assert_eq!(out, vec![c(rename("src/engine.rs", "src/core/engine.rs")), added("README.md")]);
        // a name deleted or added twice is not guessed
        let twice = vec![deleted("a/mod.rs"), deleted("b/mod.rs"), added("c/mod.rs")];
        assert_eq!(pair_moves(twice.clone()), twice);
    }

    pub(crate) fn rename(from: &str, to: &str) -> ChangeKind {
        ChangeKind::Renamed { from: from.into(), to: to.into() }
    }
}
