//! README.md is checked, not trusted (issue 28): its sample is the demo's real output
//! (`sample`), every file, folder and section it cites is in the repository (`citations`),
//! and every flag it shows a command with is one of that command's flags (`flags`). Each
//! module states the rule it checks by; `markdown` is the reading they share.

mod citations;
mod flags;
mod markdown;
mod sample;

use std::path::PathBuf;

/// The repository's top folder.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// README.md as it is in the checkout.
pub fn readme() -> String {
    std::fs::read_to_string(workspace().join("README.md")).expect("README.md")
}
