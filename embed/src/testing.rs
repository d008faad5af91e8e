//! Finding all-MiniLM-L6-v2 for tests, in one place for every crate's tests (the reconciler's
//! and the binary's end-to-end tests): through `MEMVAL_EMBED_MODEL`, which
//! `scripts/embed-model.sh` fills and `scripts/test.sh` exports with `MEMVAL_REQUIRE_EMBED=1`,
//! so in the suite a missing model fails instead of skipping. Used by tests only; it reads two
//! environment variables and checks one file exists, nothing else.
//!
//! Behind the `test-support` feature; the binary's end-to-end tests reach it through
//! `tests/support/embed.rs`, which re-exports it.

use std::ffi::OsString;
use std::path::PathBuf;

/// The model's folder; `None`, said on stderr as not checked, when it is absent and not
/// required; a panic naming the script when `MEMVAL_REQUIRE_EMBED=1`.
pub fn model() -> Option<PathBuf> {
    let required = std::env::var("MEMVAL_REQUIRE_EMBED").is_ok_and(|v| v == "1");
    match find(std::env::var_os(crate::MODEL_ENV), required) {
        Ok(Some(dir)) => Some(dir),
        Ok(None) => {
            eprintln!("NOT CHECKED: no MEMVAL_EMBED_MODEL (bash scripts/embed-model.sh)");
            None
        }
        Err(why) => panic!("{why}"),
    }
}

/// The decision of [`model`], given the variable's value and whether the model is required.
fn find(dir: Option<OsString>, required: bool) -> Result<Option<PathBuf>, String> {
    match dir.map(PathBuf::from).filter(|d| d.join("model.safetensors").is_file()) {
        Some(dir) => Ok(Some(dir)),
        None if required => {
            Err("MEMVAL_REQUIRE_EMBED=1 but MEMVAL_EMBED_MODEL does not name the model (bash scripts/embed-model.sh)"
                .into())
        }
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_found_skipped_or_required() {
        let dir = tempfile::tempdir().unwrap();
        let here = Some(dir.path().as_os_str().to_owned());
        assert_eq!(find(None, false), Ok(None), "not set, not required: skipped (and said)");
        assert_eq!(find(here.clone(), false), Ok(None), "a folder without the weights is not the model");
        assert!(find(here.clone(), true).unwrap_err().contains("scripts/embed-model.sh"));
        assert!(find(None, true).is_err());
        std::fs::write(dir.path().join("model.safetensors"), b"w").unwrap();
        assert_eq!(find(here, true), Ok(Some(dir.path().to_path_buf())));
    }
}
