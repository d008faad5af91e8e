//! The store's table of what runs keep for later runs of the same checkout: Tier A verdicts,
//! git history and the name log (the investigator's `kept.rs` and `memval-git`'s say what is
//! kept and how it is keyed). Everything in it can be computed again, so a failed read is a
//! miss and a failed write a warning; it is made durable by the run's flush at its end.

use memval_investigator::Cache;
use memval_store::{KvTable, SledStore, StoreError};

/// The table [`StoreKept`] opens.
pub const KEPT_TABLE: &str = "kept";

pub struct StoreKept(KvTable);

impl StoreKept {
    pub fn new(store: &SledStore) -> Result<StoreKept, StoreError> {
        Ok(StoreKept(store.table(KEPT_TABLE)?))
    }
}

impl Cache for StoreKept {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.0.get(key.as_bytes()).unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot read kept verdicts and history; checking again");
            None
        })
    }

    fn put(&self, key: &str, value: &[u8]) {
        if let Err(e) = self.0.insert(key.as_bytes(), value) {
            tracing::warn!(error = %e, "cannot keep verdicts and history for the next run");
        }
    }

    fn remove(&self, key: &str) {
        if let Err(e) = self.0.remove(key.as_bytes()) {
            tracing::warn!(error = %e, "cannot remove an old kept entry");
        }
    }

    fn remove_prefix(&self, prefix: &str) {
        if let Err(e) = self.0.remove_prefix(prefix.as_bytes()) {
            tracing::warn!(error = %e, "cannot remove old kept entries");
        }
    }
}
