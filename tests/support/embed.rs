//! all-MiniLM-L6-v2 for the tests of the `embed` pair method: `memval_embed::testing::model`,
//! the one finder the reconciler's own tests use too (`MEMVAL_EMBED_MODEL`; with
//! `MEMVAL_REQUIRE_EMBED=1`, as `scripts/test.sh` sets it, a missing model fails instead of
//! skipping).
#![allow(dead_code)]

use std::path::PathBuf;

/// The model's folder, or `None` (said on stderr) when it is absent and not required.
pub fn model() -> Option<PathBuf> {
    memval_embed::testing::model()
}
