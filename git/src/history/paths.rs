//! What history says of paths after a date, read from the log of renames, deletions and
//! additions (`index.rs`): where a path went ([`GitRepo::follow`]), what became of a folder's
//! files ([`GitRepo::dir_fate`]), whether a path was there at a time, and the paths a commit added.

use std::collections::HashMap;

use memval_proto::UnixSeconds;

use super::index::ChangeKind;
use super::GitRepo;

/// What became of a directory's files after a date ([`GitRepo::dir_fate`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DirFate {
    /// Files below it that history shows changing after the date (moved or deleted).
    pub files: usize,
    pub deleted: usize,
    /// The commit of the last deletion seen.
    pub last_deletion: Option<String>,
    /// Folders the moved files ended in, with how many, most first.
    pub moved: Vec<(String, usize)>,
    /// The newest commit that moved or deleted one of the counted files, following each past
    /// the folder (a file moved out and deleted years later counts at its deletion).
    pub last_change: Option<String>,
    /// The newest commit in which a counted file left the folder (renamed out of it, or deleted
    /// while in it): when the folder's last files went.
    pub last_exit: Option<String>,
    /// How many counted files left the folder in `last_exit`.
    pub last_exit_files: usize,
    /// Where those went, by the folder that kept their place below it, most first.
    pub last_exit_moved: Vec<(String, usize)>,
}

/// Where a path went after a date.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    /// Renames followed, oldest first: (commit, from, to).
    pub renames: Vec<(String, String, String)>,
    /// The commit that deleted the last name, if the chain ends in a deletion.
    pub deleted_in: Option<String>,
    /// The name the chain ends at (the input path when nothing happened).
    pub last: String,
    /// Whether history mentions the path at all.
    pub known: bool,
}

impl GitRepo {
    /// Paths added after `since` whose file name is `name`, with the commit and time that
    /// added each, oldest first: where a deleted file may have been re-added (a move spread
    /// over commits: copied then deleted, or deleted then added elsewhere).
    pub fn added_named(&self, name: &str, since: Option<UnixSeconds>) -> Vec<(String, String, UnixSeconds)> {
        self.added_where(|n| n == name, since)
    }

    /// Paths added after `since` whose file name `named` accepts, with the commit and time that
    /// added each, oldest first.
    pub fn added_where(
        &self,
        named: impl Fn(&str) -> bool,
        since: Option<UnixSeconds>,
    ) -> Vec<(String, String, UnixSeconds)> {
        let name_of = |p: &str| p.rsplit('/').next().unwrap_or(p).to_owned();
        self.history()
            .iter()
            .filter(|c| since.is_none_or(|s| c.time > s))
            .filter_map(|c| match &c.kind {
                ChangeKind::Added { path } if named(&name_of(path)) => Some((path.clone(), c.commit.clone(), c.time)),
                ChangeKind::Renamed { to, .. } if named(&name_of(to)) => Some((to.clone(), c.commit.clone(), c.time)),
                _ => None,
            })
            .collect()
    }

    /// The path the newest rename into `to` came from, when a rename made it.
    pub fn renamed_from(&self, to: &str) -> Option<String> {
        self.history().iter().rev().find_map(|c| match &c.kind {
            ChangeKind::Renamed { from, to: into } if into == to => Some(from.clone()),
            _ => None,
        })
    }

    /// The paths `commit` added as new files, not as a rename of another.
    pub fn created_in(&self, commit: &str) -> Vec<String> {
        self.history()
            .iter()
            .filter(|c| c.commit == commit)
            .filter_map(|c| match &c.kind {
                ChangeKind::Added { path } => Some(path.clone()),
                ChangeKind::Renamed { .. } | ChangeKind::Deleted { .. } => None,
            })
            .collect()
    }

    /// The paths `commit` added (renames' new paths included), as history read them.
    pub fn added_in(&self, commit: &str) -> Vec<String> {
        self.history()
            .iter()
            .filter(|c| c.commit == commit)
            .filter_map(|c| match &c.kind {
                ChangeKind::Added { path } | ChangeKind::Renamed { to: path, .. } => Some(path.clone()),
                ChangeKind::Deleted { .. } => None,
            })
            .collect()
    }

    /// Follow `path` through renames committed after `since` (all history when `None`).
    pub fn follow(&self, path: &str, since: Option<UnixSeconds>) -> Trace {
        let history = self.indexed_history();
        let mut trace = Trace { last: path.to_owned(), known: history.by_path.contains_key(path), ..Trace::default() };
        // Changes before `cursor` are behind the chain: after a rename, only later changes
        // of the new name count.
        let mut cursor = 0usize;
        'chain: while let Some(mentions) = history.by_path.get(&trace.last) {
            for &i in &mentions[mentions.partition_point(|&i| i < cursor)..] {
                let change = &history.changes[i];
                if since.is_some_and(|s| change.time <= s) {
                    continue;
                }
                match &change.kind {
                    ChangeKind::Renamed { from, to } if *from == trace.last => {
                        trace.renames.push((change.commit.clone(), from.clone(), to.clone()));
                        trace.last = to.clone();
                        trace.deleted_in = None;
                        cursor = i + 1;
                        continue 'chain;
                    }
                    ChangeKind::Deleted { path: p } if *p == trace.last => {
                        trace.deleted_in = Some(change.commit.clone())
                    }
                    ChangeKind::Added { path: p } if *p == trace.last => trace.deleted_in = None,
                    _ => {}
                }
            }
            break;
        }
        trace
    }

    /// What became of the files below directory `dir` after `since`: each file that history
    /// shows there at `since` (not one added later, not one already gone) is followed through
    /// its renames; a file that ends in a deletion counts as deleted, one that was moved
    /// votes for the folder that took the place of `dir` (the last new path that kept its
    /// sub-folders below `dir`, with them taken off) or, when none kept them, for no folder.
    /// `None` when history shows no file below `dir` changing after `since`.
    pub fn dir_fate(&self, dir: &str, since: Option<UnixSeconds>) -> Option<DirFate> {
        let history = self.indexed_history();
        let prefix = format!("{dir}/");
        let mut fate = DirFate::default();
        let mut moved: HashMap<String, usize> = HashMap::new();
        let mut exits: Vec<(String, Option<String>)> = Vec::new();
        let first = history.paths.partition_point(|p| p.as_str() < prefix.as_str());
        let files = history.paths[first..].iter().take_while(|p| p.starts_with(&prefix));
        for file in files {
            if since.is_some_and(|s| !history.present_at(file, s)) {
                continue;
            }
            let trace = self.follow(file, since);
            let rest = &file[prefix.len()..];
            let below = rest.rsplit_once('/').map(|(d, _)| d);
            let base_of = |to: &str| -> Option<String> {
                let new_dir = to.rsplit_once('/').map_or("", |(d, _)| d);
                match below {
                    None => Some(new_dir.to_owned()),
                    Some(below) if new_dir == below => Some(String::new()),
                    Some(below) => new_dir.strip_suffix(below).and_then(|b| b.strip_suffix('/')).map(str::to_owned),
                }
            };
            let decided_by = trace.deleted_in.as_ref().or(trace.renames.last().map(|r| &r.0));
            if let Some(commit) = decided_by {
                let newer = |c: &String| history.times.get(c) > history.times.get(commit);
                if !fate.last_change.as_ref().is_some_and(newer) {
                    fate.last_change = Some(commit.clone());
                }
            }
            // Where it first left the folder: renamed out of it (to the folder that kept its
            // place below it, if one did), or deleted while still in it.
            let exit = match trace.renames.iter().find(|(_, _, to)| !to.starts_with(&prefix)) {
                Some((commit, _, to)) => Some((commit.clone(), base_of(to).filter(|b| !b.is_empty() && b != dir))),
                None => trace.deleted_in.clone().map(|c| (c, None)),
            };
            if let Some(exit) = exit {
                exits.push(exit);
            }
            if trace.deleted_in.is_some() {
                fate.deleted += 1;
                if let Some(c) = &trace.deleted_in {
                    fate.last_deletion = Some(c.clone());
                }
            } else if !trace.renames.is_empty() {
                // The folder went where the file last kept its place below it (its sub-folder
                // path inside `dir`; a file right inside `dir` keeps it anywhere): a folder
                // renamed whole and reorganised inside afterwards went to its new name. A file
                // that never kept its place went elsewhere and votes for no folder.
                if let Some(base) = trace.renames.iter().rev().find_map(|(_, _, to)| base_of(to)) {
                    if !base.is_empty() && base != dir {
                        *moved.entry(base).or_default() += 1;
                    }
                }
            } else {
                continue;
            }
            fate.files += 1;
        }
        if fate.files == 0 {
            return None;
        }
        let mut moved: Vec<(String, usize)> = moved.into_iter().collect();
        moved.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        fate.moved = moved;
        // The folder's last files: those that left it in the newest commit any file left it in.
        let when = |c: &String| history.times.get(c).copied();
        if let Some(last) = exits.iter().map(|(c, _)| c).max_by(|a, b| when(a).cmp(&when(b)).then(a.cmp(b))).cloned() {
            let mut went: HashMap<String, usize> = HashMap::new();
            for (_, to) in exits.iter().filter(|(c, _)| *c == last) {
                fate.last_exit_files += 1;
                if let Some(to) = to {
                    *went.entry(to.clone()).or_default() += 1;
                }
            }
            let mut went: Vec<(String, usize)> = went.into_iter().collect();
            went.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            fate.last_exit_moved = went;
            fate.last_exit = Some(last);
        }
        Some(fate)
    }

    /// Whether history shows `path`, or a file below the folder `path`, in the tree at time `at`
    /// (an addition at or before it and no deletion between; see `History::present_at`).
    pub fn had_at(&self, path: &str, at: UnixSeconds) -> bool {
        let history = self.indexed_history();
        if history.present_at(path, at) {
            return true;
        }
        let prefix = format!("{path}/");
        let first = history.paths.partition_point(|p| p.as_str() < prefix.as_str());
        history.paths[first..].iter().take_while(|p| p.starts_with(&prefix)).any(|p| history.present_at(p, at))
    }

    /// When history first shows `path` in the tree: its first addition, or the first rename to
    /// it. `None` when history never added it (not in history, or older than a shallow clone's).
    pub fn first_came(&self, path: &str) -> Option<UnixSeconds> {
        let history = self.indexed_history();
        let mentions = history.by_path.get(path)?;
        mentions.iter().map(|&i| &history.changes[i]).find_map(|c| match &c.kind {
            ChangeKind::Added { path: p } | ChangeKind::Renamed { to: p, .. } if p == path => Some(c.time),
            _ => None,
        })
    }

    /// Whether history shows `path` at any time, as a file or as a folder with a file below it.
    pub fn ever_had(&self, path: &str) -> bool {
        let history = self.indexed_history();
        if history.by_path.contains_key(path) {
            return true;
        }
        let prefix = format!("{}/", path.trim_end_matches('/'));
        let first = history.paths.partition_point(|p| p.as_str() < prefix.as_str());
        history.paths.get(first).is_some_and(|p| p.starts_with(&prefix))
    }

    /// When history last took `path`, or a file below the folder `path`, away (a deletion or a
    /// rename from it): the folder's last file gone is when the folder went.
    pub fn last_taken_away(&self, path: &str) -> Option<UnixSeconds> {
        self.last_taken_away_in(path).map(|(_, time)| time)
    }

    /// [`GitRepo::last_taken_away`] with the commit that did it.
    pub fn last_taken_away_in(&self, path: &str) -> Option<(String, UnixSeconds)> {
        let history = self.indexed_history();
        let prefix = format!("{}/", path.trim_end_matches('/'));
        let first = history.paths.partition_point(|p| p.as_str() < prefix.as_str());
        let below = history.paths[first..].iter().take_while(|p| p.starts_with(&prefix));
        std::iter::once(path.trim_end_matches('/'))
            .chain(below.map(String::as_str))
            .flat_map(|p| history.by_path.get(p).into_iter().flatten().map(move |&i| (p, &history.changes[i])))
            .filter(|(p, c)| match &c.kind {
                ChangeKind::Deleted { path: d } => d == p,
                ChangeKind::Renamed { from, to } => from == p && to != p,
                ChangeKind::Added { .. } => false,
            })
            .max_by_key(|(_, c)| c.time)
            .map(|(_, c)| (c.commit.clone(), c.time))
    }

    /// How many times history added `path` (or renamed something to it) and how many times it
    /// deleted it (or renamed it away), from the path's own changes.
    pub fn times_added_and_deleted(&self, path: &str) -> (usize, usize) {
        let history = self.indexed_history();
        let (mut added, mut deleted) = (0, 0);
        for &i in history.by_path.get(path).into_iter().flatten() {
            match &history.changes[i].kind {
                ChangeKind::Added { .. } => added += 1,
                ChangeKind::Deleted { .. } => deleted += 1,
                ChangeKind::Renamed { from, to } => {
                    added += usize::from(to == path && from != path);
                    deleted += usize::from(from == path && to != path);
                }
            }
        }
        (added, deleted)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::{Mutex, OnceLock};

    use super::*;
    use crate::history::index::tests::rename;
    use crate::history::index::{Change, History};
    use crate::history::old_files::BlobCache;
    use crate::history::NAME_SEARCH_COMMITS;

    fn repo(changes: Vec<(u64, ChangeKind)>) -> GitRepo {
        let changes = changes
            .into_iter()
            .enumerate()
            .map(|(n, (time, kind))| Change { commit: format!("c{n}"), time: time as UnixSeconds, kind })
            .collect();
        GitRepo {
            dir: PathBuf::from("."),
            prefix: String::new(),
            head: "h".into(),
            shallow: false,
            history: OnceLock::from(History::new(changes)),
            incomplete: OnceLock::from(None),
            paths_lost: OnceLock::from(false),
            revs: Mutex::new(HashMap::new()),
            trees: Mutex::new(HashMap::new()),
            name_results: Mutex::new(HashMap::new()),
            search_commits: NAME_SEARCH_COMMITS,
            search_windows: Mutex::new(HashMap::new()),
            name_log: OnceLock::new(),
            parent_times: Mutex::new(HashMap::new()),
            cat: Mutex::new(None),
            blobs: Mutex::new(BlobCache::default()),
            last_changes: Mutex::new(HashMap::new()),
            versions: Mutex::new(HashMap::new()),
            textconv: OnceLock::new(),
            cache: None,
            path_base: OnceLock::new(),
            path_head_kept: OnceLock::new(),
            blames: Mutex::new(HashMap::new()),
            progress: None,
        }
    }

    #[test]
    fn follow_walks_a_chain_through_later_changes_of_each_new_name_only() {
        let git = repo(vec![
            (10, ChangeKind::Deleted { path: "b".into() }), // an older b, before the chain
            (20, rename("a", "b")),
            (30, ChangeKind::Added { path: "a".into() }), // a new a: not the one followed
            (40, rename("a", "z")),
            (50, rename("b", "c")),
            (60, ChangeKind::Deleted { path: "c".into() }),
            (70, ChangeKind::Added { path: "c".into() }),
        ]);
        let t = git.follow("a", Some(15));
        assert_eq!(
            t.renames.iter().map(|r| (r.1.as_str(), r.2.as_str())).collect::<Vec<_>>(),
            vec![("a", "b"), ("b", "c")]
        );
        assert_eq!((t.last.as_str(), t.deleted_in.as_deref(), t.known), ("c", None, true));
        // Changes at or before `since` are not followed.
        let t = git.follow("a", Some(25));
        assert_eq!((t.last.as_str(), t.renames.len()), ("z", 1));
        let t = git.follow("b", Some(55));
        assert_eq!((t.last.as_str(), t.deleted_in.as_deref()), ("b", None));
        let t = git.follow("c", Some(65));
        assert_eq!((t.last.as_str(), t.deleted_in.as_deref()), ("c", None));
        let t = git.follow("c", Some(55));
        assert_eq!(t.deleted_in.as_deref(), None, "re-added after the deletion");
        let t = git.follow("b", None);
        assert_eq!((t.last.as_str(), t.deleted_in.as_deref()), ("c", None));
        let t = git.follow("nowhere", None);
        assert_eq!((t.last.as_str(), t.known, t.renames.len()), ("nowhere", false, 0));
    }

    #[test]
    fn a_folders_fate_counts_only_the_files_it_had_at_the_date() {
        let add = |p: &str| ChangeKind::Added { path: p.into() };
        let del = |p: &str| ChangeKind::Deleted { path: p.into() };
        let git = repo(vec![
            (10, add("d/a.rs")),
            (10, add("d/b.rs")),
            (10, add("d/old.rs")),
            (15, del("d/old.rs")),   // gone before the date: not counted
            (30, add("d/late1.rs")), // added after the date: not counted
            (30, add("d/late2.rs")),
            (40, rename("d/a.rs", "e/a.rs")),
            (50, del("d/b.rs")),
            (50, del("d/late1.rs")),
            (50, del("d/late2.rs")),
            // a file older than the history shown (a shallow clone): there at the date
            (60, del("d/shallow.rs")),
        ]);
        let fate = git.dir_fate("d", Some(20)).unwrap();
        assert_eq!((fate.files, fate.deleted, fate.moved.clone()), (3, 2, vec![("e".to_owned(), 1)]));
        // Without a date every file history shows below it counts.
        let fate = git.dir_fate("d", None).unwrap();
        assert_eq!((fate.files, fate.deleted), (6, 5));
        assert!(git.dir_fate("d", Some(70)).is_none());

        // A moved file votes for where its place below the folder was kept, else for none.
        let git = repo(vec![
            (10, rename("k/sub/a.rs", "new/sub/a.rs")),
            (10, rename("k/top.rs", "new/top2.rs")),
            (10, rename("k/sub/b.rs", "flat/b.rs")),
            (20, rename("k/sub/c.rs", "tmp/sub/c.rs")),
            (30, rename("tmp/sub/c.rs", "other/c.rs")), // kept its place in tmp, then not
        ]);
        let fate = git.dir_fate("k", None).unwrap();
        assert_eq!((fate.files, fate.deleted), (4, 0));
        assert_eq!(fate.moved, vec![("new".to_owned(), 2), ("tmp".to_owned(), 1)]);
    }

    #[test]
    fn follow_ends_in_a_deletion_and_survives_a_rename_cycle() {
        let git = repo(vec![
            (1, rename("a", "b")),
            (2, rename("b", "a")),
            (3, rename("a", "b")),
            (4, ChangeKind::Deleted { path: "b".into() }),
        ]);
        let t = git.follow("a", None);
        assert_eq!(t.renames.len(), 3);
        assert_eq!((t.last.as_str(), t.deleted_in.as_deref()), ("b", Some("c3")));
    }
}
