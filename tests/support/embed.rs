//! all-MiniLM-L6-v2 for the tests of the `embed` pair method, found through
//! `MEMVAL_EMBED_MODEL` (`scripts/embed-model.sh` fetches it; `scripts/test.sh` exports it
//! with `MEMVAL_REQUIRE_EMBED=1`, so in the suite a missing model fails instead of skipping).
#![allow(dead_code)]

use std::path::PathBuf;

/// The model's folder; `None`, said on stderr as not checked, when it is absent and not
/// required; a panic naming the script when `MEMVAL_REQUIRE_EMBED=1`.
pub fn model() -> Option<PathBuf> {
    match std::env::var_os("MEMVAL_EMBED_MODEL").map(PathBuf::from).filter(|d| d.join("model.safetensors").is_file()) {
        Some(dir) => Some(dir),
        None if std::env::var("MEMVAL_REQUIRE_EMBED").is_ok_and(|v| v == "1") => {
            panic!("MEMVAL_REQUIRE_EMBED=1 but MEMVAL_EMBED_MODEL does not name the model (bash scripts/embed-model.sh)")
        }
        None => {
            eprintln!("NOT CHECKED: no MEMVAL_EMBED_MODEL (bash scripts/embed-model.sh)");
            None
        }
    }
}
