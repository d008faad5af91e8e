//! memval's run store: what every run found (claim results, memory scores, run records and
//! each memory's score history), kept in a sled database between runs, plus named key-value
//! tables for data that lives as long as the store (the model result cache).
//!
//! The scorer writes it; `validate`, `history` and the judges read it. Where a store sits by
//! default ([`default_dir`]) and how it stays out of the user's `git status` ([`open`]) is
//! decided here, once. This crate must never write anywhere but the store's own folder.
//!
//! What it keeps: claim results, scores per run, run records, and a per-memory history keyed by
//! `source path | memory id` (what `memval history` reads), plus named key-value tables
//! ([`SledStore::table`]) for data that lives as long as the store: the model result cache, and
//! `embeddings` (sentence vectors by model id and text hash, written with one batch and one flush
//! per run by `KvTable::put_all`). [`default_dir`] is `REPO/.memval/store`, and [`open`] is the
//! one way to open a store: the `.memval/` folder gets a `.gitignore` that ignores everything, so
//! a run never shows in `git status`. A store in use by another process, one that cannot be read,
//! and a full disk (`StoreError::DiskFull`, from `ENOSPC`/`EDQUOT` on open or on any write) are
//! told apart, each saying what to do (wait or pass `--store`; move it aside; free space or put
//! `--store` on another disk). A run flushes its scores before it writes its run record and
//! flushes again, so a store that cannot take them stops the run before anything is reported.
//! A snapshot a full disk left half-written (sled's `snap.<lsn>.generating`, which sled would
//! read back as corrupt) is removed on the next open, saying so, and the store opens from its
//! last whole snapshot and log; `store/tests/full_disk.rs` and `tests/full_disk.rs` fill a real
//! tmpfs under it.

mod sled_store;

use std::path::{Path, PathBuf};

pub use sled_store::{
    memory_key, HistoryPoint, KvEntry, KvTable, RunRecord, ScoreStore, SledStore, StoreError, EMBEDDINGS_TABLE,
};

/// The store of a repository when no `--store` is given: `REPO/.memval/store`.
pub fn default_dir(repo: &Path) -> PathBuf {
    repo.join(".memval").join("store")
}

/// Open (or create) the store at `dir`. The default store's `.memval/` folder gets a
/// `.gitignore` that ignores everything, itself included, so a run never shows up in the
/// repository's `git status`.
pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|source| StoreError::Create { path: parent.display().to_string(), source })?;
        if parent.file_name().is_some_and(|n| n == ".memval") {
            let ignore = parent.join(".gitignore");
            if !ignore.exists() {
                std::fs::write(
                    &ignore,
                    "# memval's run store (memval validate --store); not part of the repository\n*\n",
                )
                .map_err(|source| StoreError::Create { path: ignore.display().to_string(), source })?;
            }
        }
    }
    SledStore::open(dir)
}
