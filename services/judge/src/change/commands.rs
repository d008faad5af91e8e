//! Acceptance checks: which commands may run in the judged tree, and running them.
//!
//! Every command is classified before it runs. Only a command whose every part is on the
//! read-only table below runs in the subject itself; formatters, regeneration and sync
//! scripts, anything with `--force`/`--write`/`--fix`, output redirection, command
//! substitution and every program the table does not know are mutating and run in a
//! disposable copy of the subject. A test runner counts as read-only (running the tests is
//! what acceptance asks); if one writes into the tree anyway, the end-of-judging manifest
//! catches it and the result is NOT_PROVEN.
//!
//! A check must never run a mutating command in the judged tree, and never outlive its
//! timeout: the command runs in its own process group, which is killed when the time is up
//! and again when the command exits (a background child cannot keep writing).
//!
//! The classification table: test runners, linters and readers are read-only; formatters,
//! regen/sync/update scripts, `--force`/`--write`/`--fix`, `sed -i`, output redirection, command
//! substitution and every unknown program are mutating. A check runs with `sh -c`; a mutating one
//! in a disposable copy of the subject, `.git` included; each in its own process group, killed at
//! the timeout and again at exit.

use std::io::{Read, Seek, SeekFrom};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

/// How a command was classified, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Class {
    pub mutating: bool,
    pub reason: String,
}

fn mutating(reason: impl Into<String>) -> Class {
    Class { mutating: true, reason: reason.into() }
}

/// Flags that ask a tool to write: `--force`, `--write`, `--fix` (and their `=`/`-…` forms).
const WRITE_FLAGS: [&str; 10] = [
    "--force",
    "--write",
    "--fix",
    "--in-place",
    "--overwrite",
    "--bless",
    "--update-snapshots",
    "--regen",
    "--apply",
    "--output",
];

/// Words in a program or script name that mean it writes the tree.
const WRITER_NAMES: [&str; 9] =
    ["regen", "generate", "gen-", "sync", "update", "format", "fmt", "bootstrap", "install"];

/// Programs that only read, whatever their (non-writing) arguments.
const READ_ONLY_PROGRAMS: [&str; 26] = [
    "true",
    "false",
    "test",
    "[",
    "echo",
    "printf",
    "cat",
    "head",
    "tail",
    "wc",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "diff",
    "cmp",
    "ls",
    "stat",
    "file",
    "sha256sum",
    "sha1sum",
    "md5sum",
    "uniq",
    "cut",
    "sleep",
    "pwd",
];

/// Classify one shell command line (as `sh -c` would run it).
pub fn classify(command: &str) -> Class {
    if command.contains("$(") || command.contains('`') || command.contains("<(") || command.contains(">(") {
        return mutating("command substitution runs commands that cannot be classified");
    }
    let segments = match split(command) {
        Ok(s) => s,
        Err(reason) => return mutating(reason),
    };
    if segments.is_empty() {
        return mutating("empty command");
    }
    let mut reasons = Vec::new();
    for words in &segments {
        let c = classify_segment(words);
        if c.mutating {
            return c;
        }
        reasons.push(c.reason);
    }
    Class { mutating: false, reason: reasons.join("; ") }
}

/// Words of each simple command, split on `&&`, `||`, `;`, `|`, `&` and newlines outside
/// quotes. A redirection to a file is refused here (it writes).
fn split(command: &str) -> Result<Vec<Vec<String>>, String> {
    let mut segments = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars().peekable();
    let end_word = |word: &mut String, words: &mut Vec<String>, in_word: &mut bool| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                let mut closed = false;
                for d in chars.by_ref() {
                    if d == c {
                        closed = true;
                        break;
                    }
                    word.push(d);
                }
                if !closed {
                    return Err("unbalanced quotes".into());
                }
            }
            '\\' => {
                in_word = true;
                if let Some(d) = chars.next() {
                    word.push(d);
                }
            }
            ' ' | '\t' => end_word(&mut word, &mut words, &mut in_word),
            ';' | '&' | '|' | '\n' => {
                end_word(&mut word, &mut words, &mut in_word);
                if c == '&' && word.is_empty() && words.last().is_some_and(|w| w.ends_with('>')) {
                    // `2>&1`, `>&2`: duplicating a descriptor writes no file.
                    let mut fd = String::new();
                    while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                        fd.push(d);
                        chars.next();
                    }
                    let last = words.pop().unwrap_or_default();
                    words.push(format!("{last}&{fd}"));
                    continue;
                }
                if let Some(&next) = chars.peek() {
                    if (c == '&' || c == '|') && next == c {
                        chars.next();
                    }
                }
                if !words.is_empty() {
                    segments.push(std::mem::take(&mut words));
                }
            }
            '>' => {
                end_word(&mut word, &mut words, &mut in_word);
                // A redirection: what it writes to is the next word.
                let mut op = String::from(">");
                if chars.peek() == Some(&'>') {
                    chars.next();
                    op.push('>');
                }
                words.push(op);
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    end_word(&mut word, &mut words, &mut in_word);
    if !words.is_empty() {
        segments.push(words);
    }
    // Merge a descriptor number written before `>` (`2>`) and check each redirection.
    for words in &mut segments {
        let mut i = 0;
        while i < words.len() {
            let w = words[i].clone();
            if w.starts_with('>') && !w.contains('&') {
                let target = words.get(i + 1).cloned().unwrap_or_default();
                if target != "/dev/null" {
                    return Err(format!("output redirection to {target:?} writes a file"));
                }
                words.drain(i..(i + 2).min(words.len()));
                if i > 0 && words[i - 1].chars().all(|c| c.is_ascii_digit()) {
                    words.remove(i - 1);
                }
                continue;
            }
            if w.starts_with('>') {
                words.remove(i);
                if i > 0 && words[i - 1].chars().all(|c| c.is_ascii_digit()) {
                    words.remove(i - 1);
                }
                continue;
            }
            if w.contains('<') {
                // Input redirection reads; `<<` here-documents read too.
                i += 1;
                continue;
            }
            i += 1;
        }
    }
    segments.retain(|w| !w.is_empty());
    Ok(segments)
}

fn has(words: &[String], flag: &str) -> bool {
    words.iter().any(|w| w == flag)
}

fn classify_segment(words: &[String]) -> Class {
    // Leading variable assignments (`RUST_LOG=x cargo test`) and `env` do not change what runs.
    let mut words: Vec<String> = words.iter().skip_while(|w| w.contains('=') && !w.starts_with('-')).cloned().collect();
    if words.first().is_some_and(|w| w == "env") {
        words.remove(0);
        words = words.into_iter().skip_while(|w| w.contains('=')).collect();
    }
    let Some(first) = words.first() else { return Class { mutating: false, reason: "assignment only".into() } };
    let program = first.rsplit('/').next().unwrap_or(first).to_owned();
    for w in &words {
        for flag in WRITE_FLAGS {
            if w == flag || w.starts_with(&format!("{flag}=")) || w.starts_with(&format!("{flag}-")) {
                return mutating(format!("{flag} asks {program} to write"));
            }
        }
    }
    let sub = words.get(1).map(String::as_str).unwrap_or("");
    let read_only = |why: &str| Class { mutating: false, reason: format!("{program}: {why}") };
    match program.as_str() {
        "cd" => return read_only("changes the shell's directory only"),
        "sed" if !words.iter().any(|w| w.starts_with("-i") || w.starts_with("--in-place")) => {
            return read_only("sed without -i prints")
        }
        "sed" => return mutating("sed -i edits files in place"),
        "find"
            if !words.iter().any(|w| {
                matches!(w.as_str(), "-delete" | "-exec" | "-execdir" | "-ok" | "-fprint" | "-fprintf" | "-fls")
            }) =>
        {
            return read_only("find without -delete/-exec lists")
        }
        "sort" if !words.iter().any(|w| w.starts_with("-o") || w.starts_with("--output")) => {
            return read_only("sort prints")
        }
        "cargo" => {
            return match sub {
                "test" | "check" | "build" | "bench" | "doc" | "tree" | "metadata" | "nextest" => {
                    read_only("builds into target/, which is build output")
                }
                "clippy" => read_only("lints"),
                "fmt" if has(&words, "--check") => read_only("fmt --check only compares"),
                _ => mutating(format!("cargo {sub} is not known to be read-only")),
            }
        }
        "go" => {
            return match sub {
                "test" | "vet" | "build" | "list" => read_only("go test/vet/build/list"),
                _ => mutating(format!("go {sub} is not known to be read-only")),
            }
        }
        "gofmt" if !has(&words, "-w") && (has(&words, "-l") || has(&words, "-d")) => {
            return read_only("gofmt -l/-d only lists")
        }
        "rustfmt" | "black" | "prettier" | "shfmt" | "clang-format" | "ruff"
            if has(&words, "--check") || has(&words, "--dry-run") =>
        {
            return read_only("formatter in check mode")
        }
        "ruff" if sub == "check" => return read_only("ruff check without --fix lints"),
        "python" | "python3" => {
            let module = words.iter().position(|w| w == "-m").and_then(|i| words.get(i + 1)).map(String::as_str);
            return match module {
                Some("pytest" | "unittest" | "mypy" | "pyflakes") => read_only("a test runner or type checker"),
                _ => mutating("a python program is not known to be read-only"),
            };
        }
        "pytest" | "mypy" | "eslint" | "tsc" | "jest" | "vitest" | "shellcheck" => {
            return read_only("a test runner or linter")
        }
        "npm" | "yarn" | "pnpm" => {
            let script = if sub == "run" { words.get(2).map(String::as_str).unwrap_or("") } else { sub };
            return match script {
                "test" | "t" | "lint" | "typecheck" => read_only("a test or lint script"),
                _ => mutating(format!("{program} {script} is not known to be read-only")),
            };
        }
        "make" => {
            return match sub {
                "test" | "check" | "lint" => read_only("a test target"),
                _ => mutating(format!("make {sub} is not known to be read-only")),
            }
        }
        "git" => {
            return match sub {
                "diff" | "status" | "log" | "show" | "ls-files" | "rev-parse" | "grep" | "cat-file" | "blame"
                | "ls-tree" => read_only("git reads"),
                _ => mutating(format!("git {sub} is not known to be read-only")),
            }
        }
        _ => {}
    }
    if let Some(name) = WRITER_NAMES.iter().find(|n| program.to_ascii_lowercase().contains(*n)) {
        return mutating(format!("{program} looks like a {} script", name.trim_end_matches('-')));
    }
    if READ_ONLY_PROGRAMS.contains(&program.as_str()) {
        return read_only("reads only");
    }
    mutating(format!("{program} is not on the read-only table"))
}

/// Where a check ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RanIn {
    Subject,
    DisposableCopy,
}

/// What running a check showed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckRun {
    pub command: String,
    pub classification: Class,
    pub ran_in: RanIn,
    /// `None` when the command did not exit by itself (killed at the timeout, or not started).
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub duration_ms: u64,
    /// The last bytes of stdout and stderr, interleaved as written.
    pub output_tail: String,
    /// Why the command could not be run at all.
    pub error: Option<String>,
}

/// Bytes of output kept as evidence.
pub const TAIL_BYTES: usize = 4000;

/// Classify `command` and run it with `sh -c` in `root`, or in a disposable copy of `root`
/// when it is mutating.
pub fn run_check(command: &str, root: &Path, timeout: Duration) -> CheckRun {
    let classification = classify(command);
    let mut run = CheckRun {
        command: command.to_owned(),
        ran_in: if classification.mutating { RanIn::DisposableCopy } else { RanIn::Subject },
        classification,
        exit_code: None,
        timed_out: false,
        duration_ms: 0,
        output_tail: String::new(),
        error: None,
    };
    let copy = if run.classification.mutating {
        match disposable_copy(root) {
            Ok(dir) => Some(dir),
            Err(e) => {
                run.error = Some(format!("cannot make a disposable copy of the subject: {e}"));
                return run;
            }
        }
    } else {
        None
    };
    let dir: PathBuf = copy.as_ref().map(|c| c.path().join("subject")).unwrap_or_else(|| root.to_owned());
    if let Err(e) = execute(command, &dir, timeout, &mut run) {
        run.error = Some(e);
    }
    run
}

fn execute(command: &str, dir: &Path, timeout: Duration, run: &mut CheckRun) -> Result<(), String> {
    let mut out = tempfile::tempfile().map_err(|e| format!("cannot make an output file: {e}"))?;
    let err = out.try_clone().map_err(|e| format!("cannot make an output file: {e}"))?;
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(out.try_clone().map_err(|e| e.to_string())?)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start sh: {e}"))?;
    let pgid = child.id();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() >= timeout => {
                kill_group(pgid);
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                kill_group(pgid);
                return Err(format!("cannot wait for the check: {e}"));
            }
        }
    };
    // Whatever the command left running in the background goes with it.
    kill_group(pgid);
    run.duration_ms = started.elapsed().as_millis() as u64;
    run.timed_out = status.is_none();
    run.exit_code = status.and_then(|s| s.code());
    if let Some(status) = status {
        if status.code().is_none() {
            use std::os::unix::process::ExitStatusExt;
            run.error = status.signal().map(|s| format!("killed by signal {s}"));
        }
    }
    let len = out.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
    out.seek(SeekFrom::Start(len.saturating_sub(TAIL_BYTES as u64))).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    out.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    run.output_tail = String::from_utf8_lossy(&bytes).into_owned();
    Ok(())
}

fn kill_group(pgid: u32) {
    // `kill` the binary, so this crate needs no libc binding; "no such process" is expected
    // when the group already ended.
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Directories not worth copying: build output is rebuilt by the check that needs it.
const NOT_COPIED: [&str; 6] = ["target", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".memval"];

/// A copy of `root` (including `.git`, so checks that read history work) in a temporary
/// directory that is deleted when dropped. Symlinks are copied as links, never followed.
pub fn disposable_copy(root: &Path) -> std::io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new().prefix("memval-change-").tempdir()?;
    copy_tree(root, &dir.path().join("subject"))?;
    Ok(dir)
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        let src = entry.path();
        let dst = to.join(&name);
        let ft = std::fs::symlink_metadata(&src)?.file_type();
        if ft.is_dir() {
            if name.to_str().is_some_and(|n| NOT_COPIED.contains(&n)) {
                continue;
            }
            copy_tree(&src, &dst)?;
        } else if ft.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&src)?, &dst)?;
        } else if ft.is_file() {
            std::fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_classified_before_they_run() {
        let cases: &[(&str, bool)] = &[
            ("cargo test -p foo", false),
            ("cargo clippy --all-targets", false),
            ("cargo clippy --fix", true),
            ("cargo fmt", true),
            ("cargo fmt --check", false),
            ("go test ./internal/gates/...", false),
            ("go generate ./...", true),
            ("gofmt -l .", false),
            ("gofmt -w .", true),
            ("python3 -m unittest discover -s tests", false),
            ("python3 -m pytest -q", false),
            ("python3 scripts/check.py", true),
            ("grep -q 'fn add' src/lib.rs && test -f README.md", false),
            ("cd cli && go test ./...", false),
            ("RUST_LOG=debug cargo test 2>&1 | tail -n 20", false),
            // The separator right after a descriptor duplication still separates.
            ("cargo test 2>&1;rm -rf src", true),
            ("cargo test 2>&1|tail", false),
            ("git diff --output=patch.txt", true),
            ("cargo test > out.txt", true),
            ("cargo test >/dev/null 2>&1", false),
            ("echo x >> src/lib.rs", true),
            ("sed -i 's/a/b/' x", true),
            ("sed -n 1p x", false),
            ("prettier --write .", true),
            ("prettier --check .", false),
            ("black .", true),
            ("./scripts/regen-fixtures.sh", true),
            ("scripts/sync_docs", true),
            ("npm test", false),
            ("npm run build", true),
            ("git status --porcelain", false),
            ("git checkout -- .", true),
            ("git push --force", true),
            ("grep x $(ls)", true),
            ("find . -name '*.rs' -delete", true),
            ("find . -name '*.rs'", false),
            ("frobnicate --check", true),
            ("test -f 'a b' ; false", false),
            ("echo 'unclosed", true),
            ("make test", false),
            ("make", true),
        ];
        for (cmd, want) in cases {
            let c = classify(cmd);
            assert_eq!(c.mutating, *want, "{cmd}: {}", c.reason);
            assert!(!c.reason.is_empty(), "{cmd}");
        }
    }

    #[test]
    fn a_check_reports_exit_code_output_and_where_it_ran() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "hello\n").unwrap();
        let ok = run_check("cat a.txt; echo done 1>&2", dir.path(), Duration::from_secs(20));
        assert_eq!(ok.exit_code, Some(0), "{ok:?}");
        assert_eq!(ok.ran_in, RanIn::Subject);
        assert!(ok.output_tail.contains("hello") && ok.output_tail.contains("done"), "{ok:?}");
        let bad = run_check("grep -q missing a.txt", dir.path(), Duration::from_secs(20));
        assert_eq!(bad.exit_code, Some(1));
        // A mutating check writes into a copy; the subject keeps its bytes.
        let m = run_check("echo changed > a.txt && cat a.txt", dir.path(), Duration::from_secs(20));
        assert_eq!(m.ran_in, RanIn::DisposableCopy);
        assert_eq!(m.exit_code, Some(0), "{m:?}");
        assert!(m.output_tail.contains("changed"));
        assert_eq!(std::fs::read_to_string(dir.path().join("a.txt")).unwrap(), "hello\n");
    }

    #[test]
    fn a_check_past_its_timeout_is_killed_with_its_children() {
        let dir = tempfile::tempdir().unwrap();
        let run = run_check("sleep 30 | cat", dir.path(), Duration::from_millis(300));
        assert!(run.timed_out, "{run:?}");
        assert_eq!(run.exit_code, None);
        assert!(run.duration_ms < 20_000, "{run:?}");
    }

    #[test]
    fn the_output_tail_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let run = run_check("seq 1 100000", dir.path(), Duration::from_secs(20));
        assert_eq!(run.exit_code, Some(0));
        assert!(run.output_tail.len() <= TAIL_BYTES);
        assert!(run.output_tail.ends_with("100000\n"));
    }
}
