//! Searches for a name given without a file: the commits that changed how often it occurs in the
//! repo's non-test code.
//!
//! A search for a name given without a file ([`GitRepo::name_removed`]) reads at most
//! [`NAME_SEARCH_COMMITS`] commits: its cost is counted in commits, not seconds, so the same
//! checkout gives the same answer on a busy machine; how many such searches one memory may ask
//! for is the investigator's budget.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;

use memval_proto::UnixSeconds;

use super::cmd::{git, output, output_or_error};
use super::GitRepo;
use crate::kept::Step;
use crate::name_log::{is_identifier, NameLog, NameLogBuilder};

/// The newest commits of a name search's range, newest first, and whether the range holds more.
pub(super) type SearchWindow = (Vec<String>, bool);

pub(super) type NameResults = HashMap<(String, Option<UnixSeconds>), Result<Vec<NameChange>, String>>;

/// A commit that changed how often a name occurs in the repo's non-test code: its id, its
/// parent's commit time and the code files it changed.
pub type NameChange = (String, UnixSeconds, Vec<String>);

/// A commit and the files (as memval names them) it changed a name's count in:
/// [`GitRepo::name_changes_in`].
pub type CommitFiles = (String, Vec<String>);

/// Commits [`GitRepo::name_removed`] returns, newest first: enough to step past later commits
/// that only touched a comment or a string naming it.
const NAME_CHANGES: usize = 8;

/// Commits one history search for a name given without a file reads: the newest ones on
/// `HEAD` since the memory's date. A bound in work, so the answer never depends on the
/// machine's load; a search that would need older commits says so instead of answering.
pub const NAME_SEARCH_COMMITS: usize = 2_000;
/// A guard against a git that hangs (a broken filesystem, a lock): a search running this
/// long is stopped and reported as not done. It must never be reached by a bounded search on a
/// working machine, or the verdict would depend on the machine's load: 120 s was reached once,
/// reading the patch of 2,000 commits of penpot (23,000 commits) on a 2-core machine at a load of
/// 8, so the guard is ten minutes.
const NAME_SEARCH_HANG: std::time::Duration = std::time::Duration::from_secs(600);

/// The first `max_lines` lines of stdout of a run fed `input` on stdin (`Some(None)` when git
/// failed before printing that many), or `None` when it ran past `limit` and was killed. Git
/// is stopped as soon as the lines are in, so a search that finds early costs little.
fn lines_fed_within(
    cmd: &mut Command,
    input: &str,
    max_lines: usize,
    limit: std::time::Duration,
) -> Option<Option<Vec<String>>> {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().ok()?;
    let mut stdin = child.stdin.take()?;
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if !line.trim().is_empty() {
                lines.push(line.trim().to_owned());
            }
            if lines.len() >= max_lines {
                break;
            }
        }
        lines
    });
    let started = std::time::Instant::now();
    loop {
        if reader.is_finished() {
            let lines = reader.join().unwrap_or_default();
            if lines.len() >= max_lines {
                let _ = child.kill();
                let _ = child.wait();
                let _ = writer.join();
                return Some(Some(lines));
            }
            let status = child.wait().ok()?;
            let _ = writer.join();
            return Some(status.success().then_some(lines));
        }
        if started.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            let _ = writer.join();
            let _ = reader.join();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Code files below the checkout's folder, tests left out.
pub(super) fn code_pathspecs() -> Vec<String> {
    crate::CODE_EXTENSIONS
        .iter()
        .map(|e| format!(":(glob)**/*.{e}"))
        .chain(crate::TEST_PATHSPECS.iter().map(|s| s.to_string()))
        .collect()
}

/// The [`NameLog`] of a run's stdout, built as it is read (`Some(None)` when git failed), or
/// `None` when it ran past `limit` and was killed.
fn name_log_within(
    cmd: &mut Command,
    beyond: Option<UnixSeconds>,
    limit: std::time::Duration,
) -> Option<Option<NameLog>> {
    let mut child = cmd.stdout(Stdio::piped()).spawn().ok()?;
    let stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut builder = NameLogBuilder::new(beyond);
        let mut input = BufReader::new(stdout);
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    while matches!(line.last(), Some(b'\n' | b'\r')) {
                        line.pop();
                    }
                    builder.feed(&String::from_utf8_lossy(&line));
                }
            }
        }
        builder.finish()
    });
    let started = std::time::Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let log = reader.join().ok()?;
                return Some(status.success().then_some(log));
            }
            Ok(None) if started.elapsed() < limit => std::thread::sleep(std::time::Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                let _ = reader.join();
                return None;
            }
        }
    }
}

impl GitRepo {
    /// The newest commits on `HEAD` (after `since`, when given) that changed how many times
    /// `name` occurs in the repo's non-test code files (docs, data and tests are not
    /// searched), newest first, at most [`NAME_CHANGES`]: for a name no longer defined
    /// anywhere, the one that removed or renamed its last definition is among them (the
    /// caller checks which). Reads the newest [`NAME_SEARCH_COMMITS`] commits of that range;
    /// when the range is longer and they hold no change, `Err` says the older history was not
    /// searched. Answers (and errors) are kept per (name, since), so the answer for one
    /// checkout is the same whichever claim asks first.
    pub fn name_removed(&self, name: &str, since: Option<UnixSeconds>) -> Result<Vec<NameChange>, String> {
        if name.is_empty() || name.starts_with('-') {
            return Ok(Vec::new());
        }
        let key = (name.to_owned(), since);
        if let Some(known) = self.name_results.lock().expect("name cache poisoned").get(&key) {
            return known.clone();
        }
        let found = if is_identifier(name) { self.logged_changes(name, since) } else { self.search_name(name, since) };
        self.name_results.lock().expect("name cache poisoned").insert(key, found.clone());
        found
    }

    /// [`GitRepo::name_removed`] for an identifier, from the [`NameLog`] of the window.
    fn logged_changes(&self, name: &str, since: Option<UnixSeconds>) -> Result<Vec<NameChange>, String> {
        let log = self.name_log.get_or_init(|| self.read_name_log()).clone()?;
        let Some(changes) = log.changes_of(name, since, NAME_CHANGES) else {
            return Err(format!(
                "history not searched for it before the newest {} commits since the memory was written",
                self.search_commits
            ));
        };
        Ok(changes
            .into_iter()
            .filter_map(|(commit, _, files)| {
                let parent_time = self.parent_time(&commit)?;
                Some((commit, parent_time, files.iter().filter_map(|f| self.local(f)).collect()))
            })
            .collect())
    }

    /// The newest commits (at most [`NAME_CHANGES`]) of the name-search window that changed
    /// how often the identifier `name` occurs in one of `files` (paths as memval names them),
    /// each with those files (as memval names them): `Ok(Some(empty))` when none did and the
    /// window holds all of `HEAD`'s history, `Ok(None)` when none did in the window and older
    /// history was not read, `Err` when git could not be read or `name` is not one identifier.
    /// Test files are outside the window's patch, as for [`GitRepo::name_removed`].
    pub fn name_changes_in(&self, name: &str, files: &[&str]) -> Result<Option<Vec<CommitFiles>>, String> {
        if !is_identifier(name) {
            return Err(format!("{name} is not one identifier, and only identifiers are logged"));
        }
        let log = self.name_log.get_or_init(|| self.read_name_log()).clone()?;
        let keep = |file: &str| self.local(file).is_some_and(|local| files.contains(&local.as_str()));
        Ok(log.changes_in(name, keep, NAME_CHANGES).map(|changes| {
            changes
                .into_iter()
                .map(|(commit, changed)| (commit, changed.iter().filter_map(|f| self.local(f)).collect()))
                .collect()
        }))
    }

    /// The patch of the newest `search_commits` commits of `HEAD`, non-test code files only,
    /// read into a [`NameLog`]: one walk for every name a run asks about.
    fn read_name_log(&self) -> Result<Arc<NameLog>, String> {
        let started = std::time::Instant::now();
        let kept = self.kept(&format!("names/v1\0{}", self.search_commits));
        if let Some(log) = kept.as_ref().and_then(|k| k.get::<NameLog>(&self.head)) {
            tracing::debug!(target: "memval::timing", names = log.changes.len(), seconds = started.elapsed().as_secs_f64(), "kept name log read");
            return Ok(Arc::new(log));
        }
        let beyond = output_or_error(git(&self.dir).args([
            "log",
            "-1",
            &format!("--skip={}", self.search_commits),
            "--format=%ct",
            &self.head,
        ]))?;
        let beyond = beyond.trim().parse::<UnixSeconds>().ok();
        // Only commits after a kept log can be added to it: an older checkout's window reaches
        // further back than the kept one.
        if let Some(kept) = &kept {
            if let Some((base, Step::Ahead(line))) = kept.nearest(&self.dir, &self.head, false) {
                if let (Some(old), Ok(newer)) =
                    (kept.get::<NameLog>(&base), self.name_patch(&format!("{base}..{}", self.head), None))
                {
                    let log = old.after(newer, line.merges, self.search_commits, beyond);
                    tracing::debug!(target: "memval::timing", names = log.changes.len(), seconds = started.elapsed().as_secs_f64(), "kept name log extended");
                    kept.put(&self.head, &log);
                    tracing::debug!(target: "memval::timing", seconds = started.elapsed().as_secs_f64(), "name log kept");
                    return Ok(Arc::new(log));
                }
            }
        }
        self.tell(&format!(
            "reading the code changes of the newest {} commits, for names no longer in the code (later runs reuse it)",
            self.search_commits
        ));
        let log = self.name_patch(&self.head, beyond)?;
        if let Some(kept) = &kept {
            kept.put(&self.head, &log);
        }
        Ok(Arc::new(log))
    }

    /// The [`NameLog`] of the patch of the newest `search_commits` commits of `range`, non-test
    /// code files only, read as git writes it: the patch itself is never held whole.
    fn name_patch(&self, range: &str, beyond: Option<UnixSeconds>) -> Result<NameLog, String> {
        let mut cmd = git(&self.dir);
        cmd.args([
            "log",
            &format!("--max-count={}", self.search_commits),
            "--format=commit %H %ct",
            "-p",
            "--unified=0",
            "--no-color",
            "--no-renames",
            "--no-ext-diff",
            range,
            "--",
        ])
        .args(code_pathspecs());
        match name_log_within(&mut cmd, beyond, NAME_SEARCH_HANG) {
            Some(Some(log)) => Ok(log),
            Some(None) => Err("history not searched for it: git log -p failed".into()),
            None => {
                Err(format!("history not searched for it: git did not answer within {} s", NAME_SEARCH_HANG.as_secs()))
            }
        }
    }

    /// Committer time of `commit`'s first parent (`None` for a root commit), asked once.
    fn parent_time(&self, commit: &str) -> Option<UnixSeconds> {
        if let Some(known) = self.parent_times.lock().expect("parent cache poisoned").get(commit) {
            return *known;
        }
        let time = output(git(&self.dir).args(["log", "-1", "--format=%ct", &format!("{commit}^")]))
            .and_then(|t| t.trim().parse::<UnixSeconds>().ok());
        self.parent_times.lock().expect("parent cache poisoned").insert(commit.to_owned(), time);
        time
    }

    /// The newest [`NAME_SEARCH_COMMITS`] commits on `HEAD` after `since`, newest first, and
    /// whether the range holds more; computed once per `since`.
    fn search_window(&self, since: Option<UnixSeconds>) -> Result<Arc<SearchWindow>, String> {
        if let Some(known) = self.search_windows.lock().expect("window cache poisoned").get(&since) {
            return Ok(known.clone());
        }
        let mut cmd = git(&self.dir);
        cmd.args(["rev-list", &format!("--max-count={}", self.search_commits + 1)]);
        if let Some(s) = since {
            cmd.arg(format!("--since={s}"));
        }
        cmd.arg("HEAD");
        let out = output_or_error(&mut cmd)?;
        let mut commits: Vec<String> =
            out.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect();
        let more = commits.len() > self.search_commits;
        commits.truncate(self.search_commits);
        let window = Arc::new((commits, more));
        self.search_windows.lock().expect("window cache poisoned").insert(since, window.clone());
        Ok(window)
    }

    fn search_name(&self, name: &str, since: Option<UnixSeconds>) -> Result<Vec<NameChange>, String> {
        let window = self.search_window(since)?;
        let (commits, more) = (&window.0, window.1);
        if commits.is_empty() {
            return Ok(Vec::new());
        }
        let pathspecs = code_pathspecs();
        // Exactly the window's commits, newest first: the same work on any machine.
        let mut cmd = git(&self.dir);
        // (No `-n`: with `--no-walk` it makes git walk past the commits given.)
        cmd.args(["log", "--no-walk=unsorted", "--stdin", "--format=%H"])
            .arg(format!("-S{name}"))
            .arg("--")
            .args(&pathspecs);
        let out = match lines_fed_within(&mut cmd, &(commits.join("\n") + "\n"), NAME_CHANGES, NAME_SEARCH_HANG) {
            Some(Some(out)) => out,
            Some(None) => return Err("history not searched for it: git log -S failed".into()),
            None => {
                return Err(format!(
                    "history not searched for it: git did not answer within {} s",
                    NAME_SEARCH_HANG.as_secs()
                ))
            }
        };
        let mut found = Vec::new();
        for commit in &out {
            let Some(parent_time) = output(git(&self.dir).args(["log", "-1", "--format=%ct", &format!("{commit}^")]))
                .and_then(|t| t.trim().parse::<UnixSeconds>().ok())
            else {
                continue;
            };
            let files = output(
                git(&self.dir)
                    .args(["show", "--format=", "--name-only", "--no-renames", commit, "--"])
                    .args(&pathspecs),
            )
            .map(|s| s.lines().filter_map(|l| self.local(l.trim())).collect())
            .unwrap_or_default();
            found.push((commit.to_owned(), parent_time, files));
        }
        if found.is_empty() && more {
            return Err(format!(
                "history not searched for it before the newest {} commits since the memory was written",
                self.search_commits
            ));
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name log read from git's pipe, line by line, is the one read from the whole patch,
    /// CRLF line ends and text that is not UTF-8 included.
    #[test]
    fn the_name_log_read_as_git_writes_it_is_the_whole_patchs() {
        let patch = "commit c2 200\ndiff --git a/x.rs b/x.rs\n--- a/x.rs\n+++ b/x.rs\n@@ -1 +1 @@\n-fn old_name() {}\r\n+fn new_name() {}\ncommit c1 100\ndiff --git a/y.rs b/y.rs\n--- a/y.rs\n+++ b/y.rs\n@@ -1 +1 @@\n-let gone = \u{fffd};\n";
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("patch");
        let mut bytes = patch.as_bytes().to_vec();
        bytes.extend_from_slice(b"+let kept = \xff;\n");
        std::fs::write(&file, &bytes).unwrap();
        let mut cat = Command::new("cat");
        cat.arg(&file);
        let streamed = name_log_within(&mut cat, Some(50), std::time::Duration::from_secs(60)).unwrap().unwrap();
        let whole = NameLog::parse(&String::from_utf8_lossy(&bytes), Some(50));
        assert_eq!(streamed, whole);
        assert!(streamed.changes.contains_key("old_name") && streamed.changes.contains_key("kept"));
    }
}
