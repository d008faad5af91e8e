//! Read-only view of the repo's git history through the `git` binary: renames and
//! deletions since a date, the commit at a date, and file contents at a commit.
//!
//! History is complete or says it is not: a shallow clone, a `git log` that fails with
//! rename detection (a partial clone whose blobs are missing: git never fetches here,
//! `GIT_NO_LAZY_FETCH`) and is retried without it, or one that fails outright, each leave a
//! [`GitRepo::incomplete`] note that the verdicts built on history carry, instead of
//! reading as "nothing happened".
//!
//! This file holds [`GitRepo`], what it keeps per checkout, and its opening; the questions are
//! answered in `history/`: the log of renames, deletions and additions (`index.rs`), where a
//! path or a folder went (`paths.rs`), questions about commits (`commits.rs`), the searches in
//! one file's history (`file_search.rs`), the searches for a name given without a file
//! (`names.rs`), old file versions (`old_files.rs`), and the `git` command they run (`cmd.rs`).

mod cmd;
mod commits;
mod file_search;
mod index;
mod names;
mod old_files;
mod paths;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use memval_proto::UnixSeconds;

use crate::kept::{Cache, Kept, Step};
use crate::name_log::NameLog;
use crate::GitError;

use cmd::{git, output};
pub use file_search::ere_literal;
use index::History;
pub use index::{Change, ChangeKind};
pub use names::NAME_SEARCH_COMMITS;
use names::{NameResults, SearchWindow};
use old_files::{BlobCache, CatFile};
pub use paths::{DirFate, Trace};

pub struct GitRepo {
    /// The directory given as repo (may be below the top level).
    dir: PathBuf,
    /// Path of `dir` below the top level, with a trailing `/`, or empty.
    prefix: String,
    pub head: String,
    /// `git rev-parse --is-shallow-repository`: history stops at a graft.
    shallow: bool,
    history: OnceLock<History>,
    /// Why the history loaded is not the whole story, when it is not.
    incomplete: OnceLock<Option<String>>,
    /// Whether commits, or the paths they touched, may be missing from it (a shallow clone, a
    /// log that failed outright), not only the pairing of renames.
    paths_lost: OnceLock<bool>,
    revs: Mutex<HashMap<UnixSeconds, Option<String>>>,
    /// Results of history searches for file-less names ([`GitRepo::name_removed`]), so
    /// repeated runs on one checkout search once.
    name_results: Mutex<NameResults>,
    /// The identifiers whose count each commit of the search window changed, read once.
    name_log: OnceLock<Result<Arc<NameLog>, String>>,
    /// Committer time of each commit's first parent, as asked.
    parent_times: Mutex<HashMap<String, Option<UnixSeconds>>>,
    /// Commits a name search reads ([`NAME_SEARCH_COMMITS`] unless a test sets fewer).
    search_commits: usize,
    /// The newest `search_commits` commits per `since`, and whether there were more.
    search_windows: Mutex<HashMap<Option<UnixSeconds>, Arc<SearchWindow>>>,
    /// File lists of a few commits' trees (the memories' dates).
    trees: Mutex<HashMap<String, Option<Arc<Vec<String>>>>>,
    cat: Mutex<Option<CatFile>>,
    /// File versions already read (`rev:path` -> text), so the many claims about one file
    /// cost one `cat-file` round trip and one inflate, not one each.
    blobs: Mutex<BlobCache>,
    /// [`GitRepo::last_change_of`]'s answers per (path, needle), and the versions of each
    /// path it looked at.
    last_changes: Mutex<HashMap<(String, String), Option<String>>>,
    versions: Mutex<HashMap<String, Option<Arc<Vec<String>>>>>,
    /// Whether a `diff.<driver>.textconv` is configured (then `-S` reads converted text).
    textconv: OnceLock<bool>,
    /// Where the history and the name log are kept between runs (`kept.rs`), if anywhere.
    cache: Option<Arc<dyn Cache>>,
    /// The kept commit whose path facts may hold here, and the paths changed in between.
    path_base: OnceLock<Option<(String, std::collections::HashSet<String>)>>,
    /// Whether this `HEAD` is counted among the heads whose path facts are kept.
    path_head_kept: OnceLock<()>,
    /// Which commit wrote each line of a file, per path asked (`blame.rs`).
    pub(crate) blames: Mutex<HashMap<String, Result<crate::written::FileLines, GitError>>>,
    /// Told, in a line for people, when a long read of history starts.
    progress: Option<Progress>,
}

/// Hears a line for people when a long step starts (the first read of a checkout's history).
pub type Progress = Arc<dyn Fn(&str) + Send + Sync>;

impl GitRepo {
    /// `None` when `dir` is not inside a git work tree with at least one commit, or git is
    /// not installed.
    pub fn open(dir: &Path) -> Option<GitRepo> {
        let head = output(git(dir).args(["rev-parse", "--verify", "-q", "HEAD"]))?.trim().to_owned();
        let prefix = output(git(dir).args(["rev-parse", "--show-prefix"]))?.trim().to_owned();
        let shallow =
            output(git(dir).args(["rev-parse", "--is-shallow-repository"])).is_some_and(|s| s.trim() == "true");
        Some(GitRepo {
            dir: dir.to_owned(),
            prefix,
            head,
            shallow,
            history: OnceLock::new(),
            incomplete: OnceLock::new(),
            paths_lost: OnceLock::new(),
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
        })
    }

    /// The same checkout, keeping its history and name log in `cache` between runs, and
    /// starting from what an earlier run kept there (`kept.rs`).
    pub fn with_cache(mut self, cache: Arc<dyn Cache>) -> GitRepo {
        self.cache = Some(cache);
        self
    }

    /// The same checkout, telling `progress` when a long read of history starts.
    pub fn with_progress(mut self, progress: Progress) -> GitRepo {
        self.progress = Some(progress);
        self
    }

    /// The directory the repository was opened at.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    fn tell(&self, line: &str) {
        if let Some(progress) = &self.progress {
            progress(line);
        }
    }

    /// A fact about `path` (`fact`: which question, and its argument) an earlier run kept, at
    /// this `HEAD` or at a kept commit with no commit in between that changed the path.
    fn kept_path_fact<T: serde::de::DeserializeOwned + serde::Serialize>(&self, fact: &str, path: &str) -> Option<T> {
        let kept = self.kept("paths/v1")?;
        let item = format!("{path}\0{fact}");
        if let Some(value) = kept.get_item(&self.head, &item) {
            return Some(value);
        }
        let (base, touched) = self
            .path_base
            .get_or_init(|| {
                let (base, step) = kept.nearest(&self.dir, &self.head, true)?;
                let touched = match step {
                    Step::Ahead(_) => crate::kept::touched(&self.dir, &base, &self.head)?,
                    Step::Behind(_) => crate::kept::touched(&self.dir, &self.head, &base)?,
                };
                Some((base, touched.iter().filter_map(|p| self.local(p)).collect()))
            })
            .as_ref()?;
        if touched.contains(path.trim_start_matches("./")) {
            return None;
        }
        let value: T = kept.get_item(base, &item)?;
        self.keep_path_fact(fact, path, &value);
        Some(value)
    }

    /// Keep a fact about `path` at this `HEAD` (`kept_path_fact`).
    fn keep_path_fact<T: serde::Serialize>(&self, fact: &str, path: &str, value: &T) {
        let Some(kept) = self.kept("paths/v1") else { return };
        self.path_head_kept.get_or_init(|| kept.register(&self.head));
        kept.put_item(&self.head, &format!("{path}\0{fact}"), value);
    }

    /// The kept facts of one kind for this checkout's folder, when there is a cache and the
    /// clone is not shallow.
    fn kept(&self, kind: &str) -> Option<Kept<'_>> {
        let cache = self.cache.as_deref().filter(|_| !self.shallow)?;
        Some(Kept { cache, kind: format!("{kind}\0{}", self.prefix) })
    }

    /// The same checkout with name searches reading only the newest `commits` commits (tests
    /// show the bound on a short history with it).
    pub fn with_name_search_commits(mut self, commits: usize) -> GitRepo {
        self.search_commits = commits;
        self
    }

    /// Path relative to `dir` from a path relative to the top level; `None` outside `dir`.
    fn local(&self, top_level_path: &str) -> Option<String> {
        top_level_path.strip_prefix(self.prefix.as_str()).map(str::to_owned)
    }
}
