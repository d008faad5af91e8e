//! The Python tools of `scripts/pytools.sh` (the MCP SDK, pre-commit, actionlint,
//! jsonschema), found through `MEMVAL_VENV`. A test that needs them fails with what to run
//! when they are missing: it never skips, or a green run would say nothing about them.
#![allow(dead_code)]

use std::path::PathBuf;

/// The venv's `bin/` holding `tool`, or a panic naming the script that installs it.
pub fn tool(tool: &str) -> PathBuf {
    let venv = std::env::var_os("MEMVAL_VENV")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/memval/venv")))
        .expect("neither MEMVAL_VENV nor HOME is set");
    let path = venv.join("bin").join(tool);
    assert!(
        path.is_file(),
        "{} is missing: run `bash scripts/pytools.sh` (scripts/test.sh does) and export MEMVAL_VENV=<its venv>",
        path.display()
    );
    path
}

pub fn python() -> PathBuf {
    tool("python")
}
