//! The sample at the top of README.md is the demo's real output, whole.
//!
//! The sample is the code block whose first line is `$ memval validate --repo /tmp/memval-demo
//! ...`: the command a user types after `bash scripts/demo.sh` has built the demo repository
//! in `/tmp/memval-demo`, then what it prints. This test builds the demo repository the way
//! the demo does (`examples/make-demo-repo.sh`, whose history is fixed: the same commits,
//! hashes and dates on every machine), in a folder of its own named `memval-demo`, runs the
//! debug binary with the sample's arguments and `--format table` (the default on a terminal;
//! the test's stdout is a pipe), and compares its stdout with the sample's lines.
//!
//! What legitimately varies is made equal first: the demo folder's path is written as
//! `/tmp/memval-demo`, trailing spaces are dropped (the table pads its last column), the run
//! gets `COLUMNS=120` whatever the caller's is, and `MEMVAL_*` variables of the caller's
//! environment do not reach it. The age part of the
//! score does not vary: the memory was committed in January 2026 and the age modifier stops
//! growing at 180 days. Progress and notes on stderr are not part of the sample.
//!
//! When they differ, `MEMVAL_BLESS=1 cargo test -p memval --test readme sample` writes the
//! output into the README; read the diff before committing it.

use std::path::Path;
use std::process::Command;

use crate::markdown::{Block, Doc};
use crate::{readme, workspace};

/// Where the README says the demo repository is.
const DEMO: &str = "/tmp/memval-demo";
/// How the sample block begins.
const PROMPT: &str = "$ memval validate --repo /tmp/memval-demo";

pub fn is_sample(block: &Block) -> bool {
    block.lines.first().is_some_and(|l| l.starts_with(PROMPT))
}

/// A command without the `MEMVAL_*` variables of the environment the tests run in.
fn clean(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(program);
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("MEMVAL_") {
            cmd.env_remove(name);
        }
    }
    cmd
}

/// Builds the demo repository in `dir` as `scripts/demo.sh` does.
fn make_demo(dir: &Path) {
    let out = clean("bash").arg(workspace().join("examples/make-demo-repo.sh")).arg(dir).output().unwrap();
    assert!(out.status.success(), "make-demo-repo.sh failed: {}", String::from_utf8_lossy(&out.stderr));
}

/// What `memval` prints for the sample's command, with the demo folder at `dir`, normalised
/// as the module doc says.
fn demo_output(command: &str, dir: &Path) -> String {
    let dir = dir.to_str().unwrap();
    let args: Vec<String> = command.split_whitespace().skip(1).map(|a| a.replace(DEMO, dir)).collect();
    // As a 120-column terminal shows it, whatever `COLUMNS` the tests run with.
    let out = clean(env!("CARGO_BIN_EXE_memval"))
        .args(&args)
        .args(["--format", "table"])
        .env("COLUMNS", "120")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "memval {args:?} failed: {stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    // A cell cut short would hold part of the folder's path, which no replacement fixes.
    let name = Path::new(dir).parent().unwrap().file_name().unwrap().to_str().unwrap();
    let text = stdout.replace(dir, DEMO);
    assert!(!text.contains(name), "the output holds a cut path of the demo folder {dir}:\n{text}");
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    lines.join("\n").trim_end().to_owned()
}

/// Replaces the sample's output lines in `readme` by `output`.
fn blessed(readme: &str, block: &Block, output: &str) -> String {
    let mut lines: Vec<&str> = readme.lines().collect();
    let first = block.fence_line + 2;
    lines.splice(first..first + block.lines.len() - 1, output.lines());
    lines.join("\n") + "\n"
}

#[test]
fn the_readme_sample_is_the_demo_output() {
    let text = readme();
    let doc = Doc::parse(&text);
    let samples: Vec<&Block> = doc.blocks.iter().filter(|b| is_sample(b)).collect();
    assert_eq!(samples.len(), 1, "README.md should hold one code block beginning `{PROMPT}`");
    let sample = samples[0];
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("memval-demo");
    make_demo(&dir);
    let command = sample.lines[0].trim_start_matches("$ ");
    let actual = demo_output(command, &dir);
    let shown = sample.lines[1..].join("\n");
    if shown.trim_end() == actual {
        return;
    }
    if std::env::var_os("MEMVAL_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(workspace().join("README.md"), blessed(&text, sample, &actual)).unwrap();
        eprintln!("README.md: the sample was rewritten with the demo's output");
        return;
    }
    panic!(
        "README.md's sample (line {}) is not what `{command}` prints now.\n\
         To write the output into the README, run\n    \
         MEMVAL_BLESS=1 cargo test -p memval --test readme sample\n\
         and read the diff.\n--- README\n{shown}\n--- memval prints\n{actual}\n",
        sample.fence_line + 1
    );
}
