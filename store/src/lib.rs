//! memval's run store: what every run found (claim results, memory scores, run records and
//! each memory's score history), kept in a sled database between runs, plus named key-value
//! tables for data that lives as long as the store (the model result cache).
//!
//! The scorer writes it; `validate`, `history` and the judges read it. Where a store sits by
//! default ([`default_dir`]) and how it stays out of the user's `git status` ([`open`]) is
//! decided here, once. This crate must never write anywhere but the store's own folder.

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
