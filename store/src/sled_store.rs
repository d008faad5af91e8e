//! The sled database behind the [`ScoreStore`] trait.
//!
//! Every sled error leaves here through [`SledStore::error`], which tells a full disk
//! apart from a fault of the database, so the user is told to free space rather than to
//! move a healthy store aside.
//!
//! sled 0.34 hangs for good once a write has failed (a full disk): dropping the last handle
//! of a tree flushes, and that flush waits forever for the failed write to become stable.
//! So a store that saw an I/O error is marked broken, and its handles are leaked instead of
//! dropped (a clone of each is forgotten): the process reports the error and exits instead
//! of hanging. A flush asked for after that would wait forever too, so it is refused
//! ([`StoreError::Broken`]). This module must never drop or flush sled handles of a broken store.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use memval_proto::{ClaimResult, MemoryScore, RunHeader, UnixSeconds};
use serde::{Deserialize, Serialize};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the store at {path} is in use by another memval process (a run, or `memval serve scorer`); wait for it to finish, or pass --store DIR to use another")]
    InUse { path: String },
    #[error("the store at {path} cannot be opened ({source}); it may be corrupt or written by another version: move it aside (mv {path} {path}.bad) to start a new history, or pass --store DIR")]
    Open { path: String, source: sled::Error },
    // `{source}` is left to the error chain (anyhow prints it after a colon), said once.
    #[error("the disk holding the store at {path} is full; free space on it, or pass --store DIR on another disk. Nothing of this run was recorded as complete")]
    DiskFull { path: String, source: std::io::Error },
    #[error("cannot create {path}: {source}")]
    Create { path: String, source: std::io::Error },
    #[error("store at {path}: {source}")]
    Db { path: String, source: sled::Error },
    #[error("a write to the store at {path} failed earlier in this process, and the store takes no write after one failed: what came after it was not recorded. Run again (a new process can write the store), or pass --store DIR")]
    Broken { path: String },
    #[error("store record is corrupt: {0}")]
    Corrupt(postcard::Error),
}

impl StoreError {
    /// Whether this process can write the store no more: a write failed on the disk (full or
    /// otherwise), and sled 0.34 never takes a write again after one failed, even once the
    /// disk has room. A new process opening the same folder can; so a long-running writer
    /// (the scorer service) stops and leaves the restart to its supervisor.
    pub fn needs_new_process(&self) -> bool {
        matches!(
            self,
            StoreError::DiskFull { .. } | StoreError::Db { source: sled::Error::Io(_), .. } | StoreError::Broken { .. }
        )
    }
}

/// A run as recorded once it completed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRecord {
    pub header: RunHeader,
    pub finished_at: UnixSeconds,
    pub memories: u32,
    pub claims: u32,
    pub not_checked: u32,
}

/// One point of a memory's score history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryPoint {
    pub run_id: String,
    pub started_at: UnixSeconds,
    pub memory_id: String,
    pub source: String,
    pub score: Option<u8>,
    pub verdicts: Vec<(String, u8)>,
}

/// Operations the scorer and the CLI need from persistence.
pub trait ScoreStore: Send + Sync {
    /// Record a claim result; `false` when it was already there (a redelivery).
    fn put_claim(&self, run: &str, memory: &str, result: &ClaimResult) -> Result<bool, StoreError>;
    fn claims(&self, run: &str, memory: &str) -> Result<Vec<ClaimResult>, StoreError>;
    fn put_score(&self, run: &RunHeader, score: &MemoryScore) -> Result<(), StoreError>;
    /// Record the scores of memories whose claims all arrived together, in one write per
    /// table. A memory of the run that already has a score keeps it (a redelivery counts
    /// once): the returned list holds, in order, the stored score for those and `scores`'
    /// own for the rest.
    fn put_scores_once(&self, run: &RunHeader, scores: Vec<MemoryScore>) -> Result<Vec<MemoryScore>, StoreError>;
    fn score(&self, run: &str, memory: &str) -> Result<Option<MemoryScore>, StoreError>;
    fn scores(&self, run: &str) -> Result<Vec<MemoryScore>, StoreError>;
    fn put_run(&self, record: &RunRecord) -> Result<(), StoreError>;
    fn runs(&self) -> Result<Vec<RunRecord>, StoreError>;
    /// Score history of memories whose id or source contains `filter` (all when empty),
    /// oldest run first.
    fn history(&self, filter: &str) -> Result<Vec<HistoryPoint>, StoreError>;
    fn flush(&self) -> Result<(), StoreError>;
}

pub struct SledStore {
    /// The store's folder, for error messages.
    dir: String,
    /// Set once sled returned an I/O error; see the module doc.
    broken: Arc<AtomicBool>,
    claims: sled::Tree,
    scores: sled::Tree,
    runs: sled::Tree,
    history: sled::Tree,
    db: sled::Db,
}

fn key(parts: &[&[u8]]) -> Vec<u8> {
    let mut k = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            k.push(0);
        }
        k.extend_from_slice(p);
    }
    k
}

fn enc<T: Serialize>(v: &T) -> Vec<u8> {
    postcard::to_stdvec(v).expect("serialising to memory cannot fail")
}

fn dec<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, StoreError> {
    postcard::from_bytes(bytes).map_err(StoreError::Corrupt)
}

/// The identity of a memory across runs: where it came from plus its id.
pub fn memory_key(score: &MemoryScore) -> String {
    format!("{}|{}", score.memory.source.path, score.memory.id)
}

/// Whether an I/O error means the filesystem (or the user's quota on it) has no room left.
pub(crate) fn is_disk_full(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded)
}

/// The snapshots sled began to write in `dir` and never finished (`snap.<lsn>.generating`).
fn unfinished_snapshots(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("snap.") && n.ends_with(".generating"))
        })
        .collect()
}

/// Flush `flush` (a tree's or the database's) unless the store is `broken`: sled would wait
/// forever for the failed write to become stable.
fn flush_unless_broken(
    dir: &str,
    broken: &AtomicBool,
    flush: impl FnOnce() -> sled::Result<usize>,
) -> Result<(), StoreError> {
    if broken.load(Ordering::SeqCst) {
        return Err(StoreError::Broken { path: dir.to_owned() });
    }
    flush().map_err(|e| sled_error(dir, broken, e))?;
    Ok(())
}

/// A sled error of the store at `dir`, a full disk told apart; an I/O error marks the store
/// `broken`.
fn sled_error(dir: &str, broken: &AtomicBool, source: sled::Error) -> StoreError {
    if matches!(source, sled::Error::Io(_)) {
        broken.store(true, Ordering::SeqCst);
    }
    match source {
        sled::Error::Io(e) if is_disk_full(&e) => StoreError::DiskFull { path: dir.to_owned(), source: e },
        source => StoreError::Db { path: dir.to_owned(), source },
    }
}

impl SledStore {
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        // sled releases its file lock when its flusher thread ends, which may be a moment after
        // the last handle of this process was dropped: a store reopened at once (a test, a
        // later stage of the same process) finds its own lock. A few short waits cover that; a
        // store another process holds is still reported as in use, about a second later.
        let mut waits = 0;
        loop {
            match SledStore::open_once(dir) {
                Err(StoreError::InUse { .. }) if waits < LOCK_WAITS => {
                    waits += 1;
                    std::thread::sleep(std::time::Duration::from_millis(LOCK_WAIT_MS));
                }
                done => return done,
            }
        }
    }

    fn open_once(dir: &Path) -> Result<SledStore, StoreError> {
        let path = dir.display().to_string();
        let opened = match sled::Config::new().path(dir).open() {
            // A full disk can stop sled half-way through a snapshot: it writes the snapshot to
            // `snap.<lsn>.generating` and renames it only once whole, but reads that name back
            // as the newest snapshot and refuses the store. An unfinished snapshot holds
            // nothing the log does not; without it sled rebuilds from the last whole one.
            Err(sled::Error::Corruption { .. }) if !unfinished_snapshots(dir).is_empty() => {
                for file in unfinished_snapshots(dir) {
                    eprintln!(
                        "memval: the store at {path}: removing {}, a snapshot a full disk left unfinished",
                        file.display()
                    );
                    std::fs::remove_file(&file)
                        .map_err(|source| StoreError::Create { path: file.display().to_string(), source })?;
                }
                sled::Config::new().path(dir).open()
            }
            opened => opened,
        };
        let db = opened.map_err(|source| {
            let path = path.clone();
            // sled takes an exclusive file lock; another process holding it is not a fault,
            // and neither is a full disk (the store is fine, there is no room to grow it).
            match source {
                sled::Error::Io(e)
                    if e.kind() == std::io::ErrorKind::WouldBlock
                        || e.to_string().contains("could not acquire lock") =>
                {
                    StoreError::InUse { path }
                }
                sled::Error::Io(e) if is_disk_full(&e) => StoreError::DiskFull { path, source: e },
                source => StoreError::Open { path, source },
            }
        })?;
        let broken = Arc::new(AtomicBool::new(false));
        let tree = |name: &str| db.open_tree(name).map_err(|e| sled_error(&path, &broken, e));
        let (claims, scores, runs, history) = match (tree("claims"), tree("scores"), tree("runs"), tree("history")) {
            (Ok(c), Ok(s), Ok(r), Ok(h)) => (c, s, r, h),
            (c, s, r, h) => {
                let err =
                    [c.err(), s.err(), r.err(), h.err()].into_iter().flatten().next().expect("one of them failed");
                if broken.load(Ordering::SeqCst) {
                    std::mem::forget(db);
                }
                return Err(err);
            }
        };
        Ok(SledStore { claims, scores, runs, history, dir: path.clone(), broken, db })
    }

    /// Maps a sled error of this store to a [`StoreError`] (a full disk told apart).
    fn error(&self) -> impl Fn(sled::Error) -> StoreError + '_ {
        move |e| sled_error(&self.dir, &self.broken, e)
    }

    /// A named key-value table beside the scores, for data whose lifetime is the store's
    /// (the LLM result cache).
    pub fn table(&self, name: &str) -> Result<KvTable, StoreError> {
        Ok(KvTable {
            tree: self.db.open_tree(name).map_err(self.error())?,
            dir: self.dir.clone(),
            broken: self.broken.clone(),
        })
    }

    /// Content-addressed change-validation verdicts (`memval judge change --store`): the key
    /// is the verdict's own digest, so storing the same verdict twice keeps one record.
    pub fn verdicts(&self) -> Result<KvTable, StoreError> {
        self.table(VERDICTS_TABLE)
    }

    /// Sentence embeddings of memory texts (`memval pairs --method embed`), keyed by model
    /// id and the sha256 of the text, so a later run embeds only new or changed memories.
    pub fn embeddings(&self) -> Result<KvTable, StoreError> {
        self.table(EMBEDDINGS_TABLE)
    }
}

impl Drop for SledStore {
    fn drop(&mut self) {
        if self.broken.load(Ordering::SeqCst) {
            // A forgotten clone keeps each handle's count above zero, so no flush runs.
            for tree in [&self.claims, &self.scores, &self.runs, &self.history] {
                std::mem::forget(tree.clone());
            }
            std::mem::forget(self.db.clone());
        }
    }
}

/// How many times, and how long each, [`SledStore::open`] waits for a lock this process may
/// still hold through sled's flusher thread.
const LOCK_WAITS: u32 = 20;
const LOCK_WAIT_MS: u64 = 50;

/// The table [`SledStore::verdicts`] opens.
pub const VERDICTS_TABLE: &str = "change_verdicts";

/// The table [`SledStore::embeddings`] opens.
pub const EMBEDDINGS_TABLE: &str = "embeddings";

/// A key and its value.
pub type KvEntry = (Vec<u8>, Vec<u8>);

/// A key-value table of a [`SledStore`].
#[derive(Clone)]
pub struct KvTable {
    tree: sled::Tree,
    dir: String,
    broken: Arc<AtomicBool>,
}

impl Drop for KvTable {
    fn drop(&mut self) {
        if self.broken.load(Ordering::SeqCst) {
            std::mem::forget(self.tree.clone());
        }
    }
}

impl KvTable {
    pub fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.tree.get(key).map_err(|e| sled_error(&self.dir, &self.broken, e))?.map(|v| v.to_vec()))
    }

    /// Insert and flush, so what was paid for survives a crash of the run.
    pub fn put(&self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        let err = |e| sled_error(&self.dir, &self.broken, e);
        self.tree.insert(key, value).map_err(err)?;
        flush_unless_broken(&self.dir, &self.broken, || self.tree.flush())
    }

    /// Insert without flushing: for what can be computed again (kept verdicts and history),
    /// made durable by the run's own flush at its end.
    pub fn insert(&self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.tree.insert(key, value).map_err(|e| sled_error(&self.dir, &self.broken, e))?;
        Ok(())
    }

    pub fn remove(&self, key: &[u8]) -> Result<(), StoreError> {
        self.tree.remove(key).map_err(|e| sled_error(&self.dir, &self.broken, e))?;
        Ok(())
    }

    /// Remove every record whose key starts with `prefix`.
    pub fn remove_prefix(&self, prefix: &[u8]) -> Result<(), StoreError> {
        let err = |e| sled_error(&self.dir, &self.broken, e);
        let mut batch = sled::Batch::default();
        for key in self.tree.scan_prefix(prefix).keys() {
            batch.remove(key.map_err(err)?);
        }
        self.tree.apply_batch(batch).map_err(err)?;
        Ok(())
    }

    /// Insert only when `key` is absent, and flush; false when it was already there (the
    /// first record of a content address is kept).
    pub fn put_new(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        let err = |e| sled_error(&self.dir, &self.broken, e);
        let inserted = self.tree.compare_and_swap(key, None as Option<&[u8]>, Some(value)).map_err(err)?.is_ok();
        flush_unless_broken(&self.dir, &self.broken, || self.tree.flush())?;
        Ok(inserted)
    }

    /// Insert many records in one batch and flush once: one write per run, not per record
    /// (a per-record flush would dominate the time of storing thousands of embeddings).
    pub fn put_all(&self, entries: &[KvEntry]) -> Result<(), StoreError> {
        let err = |e| sled_error(&self.dir, &self.broken, e);
        let mut batch = sled::Batch::default();
        for (k, v) in entries {
            batch.insert(k.as_slice(), v.as_slice());
        }
        self.tree.apply_batch(batch).map_err(err)?;
        flush_unless_broken(&self.dir, &self.broken, || self.tree.flush())
    }

    /// Every record, in key order.
    pub fn entries(&self) -> Result<Vec<KvEntry>, StoreError> {
        self.tree
            .iter()
            .map(|kv| kv.map(|(k, v)| (k.to_vec(), v.to_vec())).map_err(|e| sled_error(&self.dir, &self.broken, e)))
            .collect()
    }

    pub fn len(&self) -> usize {
        self.tree.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tree.is_empty()
    }
}

impl ScoreStore for SledStore {
    fn put_claim(&self, run: &str, memory: &str, result: &ClaimResult) -> Result<bool, StoreError> {
        let k = key(&[run.as_bytes(), memory.as_bytes(), &result.index.to_be_bytes()]);
        let prior = self.claims.compare_and_swap(k, None as Option<&[u8]>, Some(enc(result))).map_err(self.error())?;
        Ok(prior.is_ok())
    }

    fn claims(&self, run: &str, memory: &str) -> Result<Vec<ClaimResult>, StoreError> {
        let prefix = key(&[run.as_bytes(), memory.as_bytes(), b""]);
        self.claims.scan_prefix(prefix).values().map(|v| dec(&v.map_err(self.error())?)).collect()
    }

    fn put_score(&self, run: &RunHeader, score: &MemoryScore) -> Result<(), StoreError> {
        self.scores
            .insert(key(&[run.run_id.as_bytes(), score.memory.id.as_bytes()]), enc(score))
            .map_err(self.error())?;
        let (k, point) = history_entry(run, score);
        self.history.insert(k, point).map_err(self.error())?;
        Ok(())
    }

    fn put_scores_once(&self, run: &RunHeader, scores: Vec<MemoryScore>) -> Result<Vec<MemoryScore>, StoreError> {
        let (mut score_writes, mut history_writes) = (sled::Batch::default(), sled::Batch::default());
        let mut out: Vec<MemoryScore> = Vec::with_capacity(scores.len());
        // Keys written by this call (not yet visible to `get`), to their place in `out`.
        let mut pending: std::collections::HashMap<Vec<u8>, usize> = Default::default();
        for score in scores {
            let k = key(&[run.run_id.as_bytes(), score.memory.id.as_bytes()]);
            if let Some(&first) = pending.get(&k) {
                out.push(out[first].clone());
                continue;
            }
            if let Some(stored) = self.scores.get(&k).map_err(self.error())? {
                out.push(dec(&stored)?);
                continue;
            }
            pending.insert(k.clone(), out.len());
            score_writes.insert(k, enc(&score));
            let (hk, point) = history_entry(run, &score);
            history_writes.insert(hk, point);
            out.push(score);
        }
        // Scores last: a crash between the two writes leaves a history point whose score
        // is missing, so the redelivered batch writes both again (the same bytes).
        self.history.apply_batch(history_writes).map_err(self.error())?;
        self.scores.apply_batch(score_writes).map_err(self.error())?;
        Ok(out)
    }

    fn score(&self, run: &str, memory: &str) -> Result<Option<MemoryScore>, StoreError> {
        self.scores.get(key(&[run.as_bytes(), memory.as_bytes()])).map_err(self.error())?.map(|v| dec(&v)).transpose()
    }

    fn scores(&self, run: &str) -> Result<Vec<MemoryScore>, StoreError> {
        let prefix = key(&[run.as_bytes(), b""]);
        self.scores.scan_prefix(prefix).values().map(|v| dec(&v.map_err(self.error())?)).collect()
    }

    fn put_run(&self, record: &RunRecord) -> Result<(), StoreError> {
        self.runs
            .insert(key(&[&record.header.started_at.to_be_bytes(), record.header.run_id.as_bytes()]), enc(record))
            .map_err(self.error())?;
        Ok(())
    }

    fn runs(&self) -> Result<Vec<RunRecord>, StoreError> {
        self.runs.iter().values().map(|v| dec(&v.map_err(self.error())?)).collect()
    }

    fn history(&self, filter: &str) -> Result<Vec<HistoryPoint>, StoreError> {
        let mut points: Vec<HistoryPoint> = Vec::new();
        for entry in self.history.iter() {
            let (k, v) = entry.map_err(self.error())?;
            let memory = k.split(|b| *b == 0).next().unwrap_or(&[]);
            if filter.is_empty() || String::from_utf8_lossy(memory).contains(filter) {
                points.push(dec(&v)?);
            }
        }
        Ok(points)
    }

    fn flush(&self) -> Result<(), StoreError> {
        flush_unless_broken(&self.dir, &self.broken, || self.db.flush())
    }
}

/// The history key and record of one memory's score in a run.
fn history_entry(run: &RunHeader, score: &MemoryScore) -> (Vec<u8>, Vec<u8>) {
    let point = HistoryPoint {
        run_id: run.run_id.clone(),
        started_at: run.started_at,
        memory_id: score.memory.id.clone(),
        source: score.memory.source.to_string(),
        score: score.score,
        verdicts: score
            .results
            .iter()
            .filter_map(|r| match &r.outcome {
                memval_proto::Outcome::Checked { verdict, confidence, .. } => {
                    Some((verdict.as_str().to_owned(), *confidence))
                }
                memval_proto::Outcome::NotChecked { .. } => None,
            })
            .collect(),
    };
    let mk = memory_key(score);
    (key(&[mk.as_bytes(), &run.started_at.to_be_bytes(), run.run_id.as_bytes()]), enc(&point))
}
