//! The real binary sized to a terminal, as a user sees it: help and the validate table at 80
//! and 160 columns (`COLUMNS`, which both read when stdout is not a terminal), and as wide as
//! the content when nothing gives a width.

#[allow(dead_code)] // not every helper is used here
mod support;

use std::process::{Command, Output};

use support::{demo_repo, workspace};

fn memval(columns: Option<usize>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_memval"));
    cmd.args(args).env_remove("COLUMNS");
    if let Some(w) = columns {
        cmd.env("COLUMNS", w.to_string());
    }
    cmd.output().expect("memval runs")
}

fn assert_fits(text: &str, width: usize, what: &str) {
    for line in text.lines() {
        assert!(line.chars().count() <= width, "{what}: a line over {width} columns:\n{line}");
    }
}

#[test]
fn help_wraps_to_columns_and_to_100_without_a_terminal() {
    let snapshot = std::fs::read_to_string(workspace().join("memval/tests/golden/validate-h-80.txt")).unwrap();
    let out = memval(Some(80), &["validate", "-h"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), snapshot, "validate -h at COLUMNS=80");
    for flag in ["-h", "--help"] {
        let text = String::from_utf8(memval(None, &["serve", "investigator", flag]).stdout).unwrap();
        assert_fits(&text, 100, &format!("serve investigator {flag}"));
        assert!(text.lines().any(|l| l.chars().count() > 90), "wrapped well short of 100:\n{text}");
        assert!(text.trim_end().rsplit("\n\n").next().unwrap().starts_with("Exit codes"), "{text}");
    }
}

#[test]
fn the_validate_table_fits_the_terminal_and_names_every_memory() {
    let demo = demo_repo();
    let store = tempfile::tempdir().unwrap();
    let memories = workspace().join("examples/memories/memories.jsonl");
    let table = |columns: Option<usize>| {
        let out = memval(
            columns,
            &[
                "validate",
                "--repo",
                demo.to_str().unwrap(),
                "--memories",
                memories.to_str().unwrap(),
                "--store",
                store.path().to_str().unwrap(),
                "--format",
                "table",
                "--fail-on",
                "never",
                "-q",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let source = format!("{}:1", memories.display());
    for width in [80, 160] {
        let text = table(Some(width));
        assert_fits(&text, width, &format!("table at {width}"));
        assert!(text.lines().all(|l| l == l.trim_end()), "a line ends in a space at {width}:\n{text}");
        // The claim keeps its path and line number, on one line.
        assert!(text.lines().any(|l| l.contains("internal/cache/lru.go:25")), "{text}");
        // Each not-checked claim is listed under the memory it comes from, named in full.
        let not_checked = text.split("\nnot checked (").nth(1).expect("a not-checked block");
        assert!(not_checked.lines().any(|l| l.trim() == source), "{source} not named at {width}:\n{text}");
    }
    // Without a width nothing wraps: each claim is on the line of its verdict.
    let text = table(None);
    assert!(
        text.lines()
            .any(|l| l.contains("VALID") && l.contains("`ShardedCache` is defined at internal/cache/lru.go:25")),
        "{text}"
    );
    assert!(text.lines().all(|l| l == l.trim_end()), "a line ends in a space:\n{text}");
}
