//! all-MiniLM-L6-v2 for the tests of the `embed` pair method: `memval_embed::testing::model`,
//! the one finder the reconciler's own tests use too (`MEMVAL_EMBED_MODEL`; with
//! `MEMVAL_REQUIRE_EMBED=1`, as `scripts/test.sh` sets it, a missing model fails instead of
//! skipping).
#![allow(dead_code)]

pub use memval_embed::testing::model;
