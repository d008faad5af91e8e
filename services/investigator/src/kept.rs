//! Tier A verdicts kept between runs, so re-checking a memory when nothing changed costs a
//! lookup instead of an index and a history walk.
//!
//! A memory's verdicts are kept under a digest of everything they are computed from:
//! - the code that computed them (memval's version and its executable's size and time, so a
//!   rebuilt binary never reads an older build's verdicts);
//! - the checkout ([`memval_git::worktree_state`]: `HEAD` and the content of every path `git
//!   status` reports, untracked ones included);
//! - the memory as extracted (its metadata and dates, its claims, what was left out).
//!
//! What a check read from outside the tree the walk indexes (a path `.gitignore` hides, a
//! path that does not exist) is not in that digest, so each kept entry lists those paths with
//! what was there ([`crate::index::stamp`]); an entry is used only when every one of them is
//! still the same. Without git there is no digest of the checkout, and no verdict is kept
//! (parsed definitions still are, by file content: `kept_defs.rs`). Tier
//! B's verdicts are not kept here (the model's own answers have their own cache); Tier B runs
//! again on the kept Tier A verdicts. The verdicts of the [`KEPT_STATES`] newest states are
//! kept; a run in another state removes the oldest state's.

use std::path::Path;
use std::sync::Arc;

use memval_git::Cache;
use memval_proto::{ClaimResult, ExtractedMemory};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::index::stamp;
use crate::kept_defs::{code_id, hex};

/// The version of what an entry holds; a change of [`Entry`] bumps it.
const FORMAT: &str = "verdicts/v1";

/// Checkout states whose verdicts are kept (the newest runs'); older states' are removed.
pub const KEPT_STATES: usize = 8;

/// One memory's kept verdicts.
#[derive(Serialize, Deserialize)]
struct Entry {
    results: Vec<ClaimResult>,
    /// Paths read outside the index, with what was there then.
    outside: Vec<(String, String)>,
}

/// The kept verdicts of one checkout state.
pub struct KeptVerdicts {
    cache: Arc<dyn Cache>,
    /// Digest of the code and the checkout: every key starts from it.
    state: String,
    /// The checkout's `HEAD`.
    head: String,
}

impl KeptVerdicts {
    /// Verdicts kept for the checkout whose state digest is `state`.
    pub fn new(cache: Arc<dyn Cache>, head: &str, state: &str) -> KeptVerdicts {
        let mut hash = Sha256::new();
        hash.update(FORMAT.as_bytes());
        hash.update([0]);
        hash.update(code_id().as_bytes());
        hash.update([0]);
        hash.update(state.as_bytes());
        let state = hex(&hash.finalize());
        for old in memval_git::newest_first(&*cache, &format!("{FORMAT}\0states"), &state, KEPT_STATES) {
            cache.remove_prefix(&format!("{FORMAT}\0{old}\0"));
        }
        KeptVerdicts { cache, state, head: head.to_owned() }
    }

    /// The commit of the checkout whose verdicts these are.
    pub fn head(&self) -> &str {
        &self.head
    }

    /// The key of a memory's verdicts.
    pub fn key(&self, item: &ExtractedMemory) -> Option<String> {
        let bytes = postcard::to_stdvec(item).ok()?;
        Some(format!("{FORMAT}\0{}\0{}", self.state, hex(&Sha256::digest(&bytes))))
    }

    /// The verdicts kept under `key`, when every path they read outside the index is as it was.
    pub fn get(&self, key: &str, root: &Path) -> Option<Vec<ClaimResult>> {
        let entry: Entry = postcard::from_bytes(&self.cache.get(key)?).ok()?;
        entry.outside.iter().all(|(path, was)| stamp(root, path) == *was).then_some(entry.results)
    }

    pub fn put(&self, key: &str, results: &[ClaimResult], outside: Vec<(String, String)>) {
        let entry = Entry { results: results.to_vec(), outside };
        if let Ok(bytes) = postcard::to_stdvec(&entry) {
            self.cache.put(key, &bytes);
        }
    }
}
