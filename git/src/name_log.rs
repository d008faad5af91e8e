//! Which commits changed how often each identifier occurs in the code, read once per checkout.
//!
//! "Was this name ever in the code, and which commit took it out?" is asked for many names per
//! run. Asking git once per name (`git log -S`) costs a diff of every commit per name, and a
//! bound in seconds makes the answer depend on the machine's load. Instead the newest
//! [`NAME_SEARCH_COMMITS`](crate::NAME_SEARCH_COMMITS) commits of `HEAD` are read once as a
//! patch of the non-test code files (`git log -p -U0`), and for every identifier on a changed
//! line the commits (and files) where its count on removed lines differs from its count on added
//! lines are kept: the commits `git log -S<name>` would list for that name, restricted to whole
//! identifiers. Every later question is a lookup, and the work is fixed by the window: the same
//! on any machine.

use std::collections::HashMap;

use memval_proto::UnixSeconds;

/// Identifiers of changed lines, per commit of the window.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct NameLog {
    /// Commit ids and committer times, newest first (git's order).
    pub commits: Vec<(String, UnixSeconds)>,
    /// Code files named by the patch, by index.
    pub files: Vec<String>,
    /// identifier -> (commit index, file index) where its count changed, in commit order.
    pub changes: HashMap<Box<str>, Vec<(u32, u32)>>,
    /// Committer time of the newest commit older than the window: `None` when the window
    /// holds all of `HEAD`'s history.
    pub beyond: Option<UnixSeconds>,
}

/// A line of the patch: which part of the walk it is.
enum Line<'a> {
    Commit(&'a str, UnixSeconds),
    File(&'a str),
    Removed(&'a str),
    Added(&'a str),
    Other,
}

/// One line of the patch; `header`: between a `diff --git` line and the first `@@` hunk, where
/// `---` and `+++` name the file (elsewhere they are a removed `-- ...` or added `++ ...` line).
fn classify(line: &str, header: bool) -> Line<'_> {
    if let Some(rest) = line.strip_prefix("commit ") {
        let mut parts = rest.split(' ');
        if let (Some(id), Some(time)) = (parts.next(), parts.next().and_then(|t| t.parse().ok())) {
            return Line::Commit(id, time);
        }
    }
    if !header {
        return match (line.strip_prefix('-'), line.strip_prefix('+')) {
            (Some(rest), _) => Line::Removed(rest),
            (_, Some(rest)) => Line::Added(rest),
            _ => Line::Other,
        };
    }
    if let Some(rest) = line.strip_prefix("+++ ") {
        // `+++ b/path`, or `+++ /dev/null` for a deleted file (its `---` side names it).
        return rest.strip_prefix("b/").map(Line::File).unwrap_or(Line::Other);
    }
    if let Some(rest) = line.strip_prefix("--- ") {
        return rest.strip_prefix("a/").map(Line::File).unwrap_or(Line::Other);
    }
    Line::Other
}

/// The identifiers of a line: runs of letters, digits, `_` and `$` that do not start with a
/// digit.
pub(crate) fn identifiers(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| w.chars().next().is_some_and(|c| !c.is_ascii_digit()))
}

/// Whether `name` is one identifier as [`identifiers`] splits them (the log can answer for it).
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut it = identifiers(name);
    it.next() == Some(name) && it.next().is_none()
}

/// A [`NameLog`] built line by line from `git log -p -U0` output, so the patch is never held
/// whole: a window of commits that rewrote generated code can be gigabytes of text.
pub(crate) struct NameLogBuilder {
    log: NameLog,
    file_ids: HashMap<String, u32>,
    /// Net count per identifier in the current (commit, file): removed minus added.
    counts: HashMap<String, i64>,
    current: Option<(u32, u32)>,
    header: bool,
}

impl NameLogBuilder {
    pub(crate) fn new(beyond: Option<UnixSeconds>) -> NameLogBuilder {
        NameLogBuilder {
            log: NameLog { beyond, ..NameLog::default() },
            file_ids: HashMap::new(),
            counts: HashMap::new(),
            current: None,
            header: false,
        }
    }

    /// The counts of the (commit, file) just read, into the log.
    fn flush(&mut self) {
        if let Some((commit, file)) = self.current.take() {
            let mut changed: Vec<&String> = self.counts.iter().filter(|(_, n)| **n != 0).map(|(t, _)| t).collect();
            changed.sort_unstable();
            for token in changed {
                self.log.changes.entry(token.as_str().into()).or_default().push((commit, file));
            }
        }
        self.counts.clear();
    }

    fn count(&mut self, text: &str, by: i64) {
        for token in identifiers(text) {
            match self.counts.get_mut(token) {
                Some(n) => *n += by,
                None => {
                    self.counts.insert(token.to_owned(), by);
                }
            }
        }
    }

    /// One line of the patch (without its line break).
    pub(crate) fn feed(&mut self, line: &str) {
        if line.starts_with("diff --git ") {
            self.header = true;
        } else if line.starts_with("@@") {
            self.header = false;
        }
        match classify(line, self.header) {
            Line::Commit(id, time) => {
                self.header = false;
                self.flush();
                self.log.commits.push((id.to_owned(), time));
            }
            Line::File(path) => {
                let Some(commit) = self.log.commits.len().checked_sub(1) else { return };
                let next = self.file_ids.len() as u32;
                let file = match self.file_ids.get(path) {
                    Some(&id) => id,
                    None => {
                        self.file_ids.insert(path.to_owned(), next);
                        self.log.files.push(path.to_owned());
                        next
                    }
                };
                // `---` then `+++` name the same file; only a new one flushes.
                if self.current != Some((commit as u32, file)) {
                    self.flush();
                    self.current = Some((commit as u32, file));
                }
            }
            Line::Removed(text) if self.current.is_some() => self.count(text, 1),
            Line::Added(text) if self.current.is_some() => self.count(text, -1),
            _ => {}
        }
    }

    pub(crate) fn finish(mut self) -> NameLog {
        self.flush();
        self.log
    }
}

impl NameLog {
    /// Reads `git log -p -U0` output (each commit introduced by `commit <id> <ct>`) held whole.
    #[cfg(test)]
    pub fn parse(patch: &str, beyond: Option<UnixSeconds>) -> NameLog {
        let mut builder = NameLogBuilder::new(beyond);
        for line in patch.lines() {
            builder.feed(line);
        }
        builder.finish()
    }

    /// The log of `newer` commits (those of `kept..HEAD`, newest first) with this one (a kept
    /// commit's), in the order `HEAD`'s walk reads them (`kept::interleave` when a merge
    /// brought some in, else `newer` first), cut to the newest `window` commits: the log
    /// `HEAD`'s own walk reads (`kept.rs`). `beyond` is the new window's.
    pub fn after(self, newer: NameLog, merges: bool, window: usize, beyond: Option<UnixSeconds>) -> NameLog {
        // (from newer, index) of each commit, oldest first, then the walk's order.
        let tagged = |from_newer: bool, log: &NameLog| -> Vec<(bool, u32, i64, String)> {
            let n = log.commits.len() as u32;
            (0..n)
                .rev()
                .map(|i| (from_newer, i, log.commits[i as usize].1, log.commits[i as usize].0.clone()))
                .collect()
        };
        let (older, newest) = (tagged(false, &self), tagged(true, &newer));
        let mut order = match merges {
            true => crate::kept::interleave(older, newest, |t| (t.2, t.3.as_str())),
            false => older.into_iter().chain(newest).collect(),
        };
        order.reverse();
        let mut seen = std::collections::HashSet::new();
        order.retain(|t| seen.insert(t.3.clone()));
        order.truncate(window);
        let mut place: [HashMap<u32, u32>; 2] = [HashMap::new(), HashMap::new()];
        for (new_index, (from_newer, i, _, _)) in order.iter().enumerate() {
            place[usize::from(*from_newer)].insert(*i, new_index as u32);
        }
        let mut files: Vec<String> = Vec::new();
        let mut file_ids: HashMap<String, u32> = HashMap::new();
        let mut changes: HashMap<Box<str>, Vec<(u32, u32)>> = HashMap::new();
        for (from_newer, log) in [(true, &newer), (false, &self)] {
            let remap: Vec<u32> = log
                .files
                .iter()
                .map(|f| {
                    let next = files.len() as u32;
                    *file_ids.entry(f.clone()).or_insert_with(|| {
                        files.push(f.clone());
                        next
                    })
                })
                .collect();
            let place = &place[usize::from(from_newer)];
            for (name, at) in &log.changes {
                let kept = at.iter().filter_map(|(c, f)| Some((*place.get(c)?, remap[*f as usize])));
                changes.entry(name.clone()).or_default().extend(kept);
            }
        }
        changes.retain(|_, at| !at.is_empty());
        for at in changes.values_mut() {
            // By commit; within one, the patch's order of files.
            at.sort_by_key(|&(c, _)| c);
        }
        let commits = order.into_iter().map(|(_, _, time, id)| (id, time)).collect();
        NameLog { commits, files, changes, beyond }
    }

    /// The newest commits after `since` that changed how often `name` occurs, newest first,
    /// at most `limit`, each with its id, its time and the files where the count changed.
    /// `None` when the window may not reach back to `since` and holds no such commit.
    pub fn changes_of(
        &self,
        name: &str,
        since: Option<UnixSeconds>,
        limit: usize,
    ) -> Option<Vec<(String, UnixSeconds, Vec<String>)>> {
        let mut found: Vec<(String, UnixSeconds, Vec<String>)> = Vec::new();
        for &(commit, file) in self.changes.get(name).map(Vec::as_slice).unwrap_or(&[]) {
            let (id, time) = &self.commits[commit as usize];
            if since.is_some_and(|s| *time <= s) {
                continue;
            }
            let path = self.files[file as usize].clone();
            let count = found.len();
            match found.last_mut() {
                Some((last, _, files)) if last == id => files.push(path),
                _ if count >= limit => break,
                _ => found.push((id.clone(), *time, vec![path])),
            }
        }
        // The window answers for `since` when the first commit it left out is not newer.
        let reaches = match (self.beyond, since) {
            (None, _) => true,
            (Some(beyond), Some(since)) => beyond <= since,
            (Some(_), None) => false,
        };
        (reaches || !found.is_empty()).then_some(found)
    }

    /// The newest commits of the window (at most `limit`) that changed how often `name` occurs
    /// in a file `keep` accepts (given the file's path as the patch names it), each with those
    /// files: `Some(empty)` when none did and the window holds all of `HEAD`'s history; `None`
    /// when none did in the window but older history was not read.
    pub fn changes_in(
        &self,
        name: &str,
        keep: impl Fn(&str) -> bool,
        limit: usize,
    ) -> Option<Vec<(String, Vec<String>)>> {
        let mut found: Vec<(String, Vec<String>)> = Vec::new();
        for &(commit, file) in self.changes.get(name).map(Vec::as_slice).unwrap_or(&[]) {
            let path = &self.files[file as usize];
            if !keep(path) {
                continue;
            }
            let id = &self.commits[commit as usize].0;
            let count = found.len();
            match found.last_mut() {
                Some((last, files)) if last == id => files.push(path.clone()),
                _ if count >= limit => break,
                _ => found.push((id.clone(), vec![path.clone()])),
            }
        }
        (!found.is_empty() || self.beyond.is_none()).then_some(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATCH: &str = "commit c3 300
diff --git a/src/a.rs b/src/a.rs
--- a/src/a.rs
+++ b/src/a.rs
@@ -1 +1 @@
-fn old_name() { helper() }
+fn new_name() { helper() }
--- a/src/not_a_header
commit c2 200
diff --git a/src/b.rs b/src/b.rs
--- a/src/b.rs
+++ /dev/null
@@ -1 +0,0 @@
-fn gone() {}
commit c1 100
diff --git a/src/a.rs b/src/a.rs
--- /dev/null
+++ b/src/a.rs
@@ -0,0 +1 @@
+fn old_name() { helper() }
";

    #[test]
    fn a_count_that_changed_is_kept_one_that_moved_within_a_file_is_not() {
        let log = NameLog::parse(PATCH, None);
        let ids = |name: &str, since| {
            log.changes_of(name, since, 8).map(|v| v.into_iter().map(|(id, _, files)| (id, files)).collect::<Vec<_>>())
        };
        assert_eq!(
            ids("old_name", None),
            Some(vec![("c3".into(), vec!["src/a.rs".into()]), ("c1".into(), vec!["src/a.rs".into()])])
        );
        assert_eq!(ids("gone", None), Some(vec![("c2".into(), vec!["src/b.rs".into()])]));
        // `helper` was on a changed line of c3 but as often before as after: no change.
        assert_eq!(ids("helper", Some(150)), Some(vec![]));
        assert_eq!(ids("old_name", Some(300)), Some(vec![]));
    }

    #[test]
    fn a_window_that_does_not_reach_back_answers_only_what_it_holds() {
        // The commit before the window is at 90.
        let log = NameLog::parse(PATCH, Some(90));
        assert_eq!(log.changes_of("never_there", None, 8), None);
        assert_eq!(log.changes_of("never_there", Some(50), 8), None);
        assert_eq!(log.changes_of("never_there", Some(90), 8), Some(vec![]));
        assert_eq!(log.changes_of("gone", None, 8).map(|v| v.len()), Some(1));
    }

    #[test]
    fn a_name_changed_in_a_file_is_told_from_one_never_there() {
        let ids = |log: &NameLog, name: &str, file: &str| {
            log.changes_in(name, |f| f == file, 8).map(|v| v.into_iter().map(|(id, _)| id).collect::<Vec<_>>())
        };
        let whole = NameLog::parse(PATCH, None);
        assert_eq!(ids(&whole, "gone", "src/b.rs"), Some(vec!["c2".to_string()]));
        assert_eq!(ids(&whole, "old_name", "src/a.rs"), Some(vec!["c3".to_string(), "c1".to_string()]));
        // `gone` changed only in src/b.rs; `never_there` nowhere.
        assert_eq!(ids(&whole, "gone", "src/a.rs"), Some(vec![]));
        assert_eq!(ids(&whole, "never_there", "src/a.rs"), Some(vec![]));
        // A window that does not hold all history cannot say "never".
        let part = NameLog::parse(PATCH, Some(90));
        assert_eq!(ids(&part, "gone", "src/a.rs"), None);
        assert_eq!(ids(&part, "old_name", "src/a.rs").map(|v| v.len()), Some(2));
    }

    #[test]
    fn identifiers_are_whole_words() {
        assert!(is_identifier("ty_check"));
        assert!(is_identifier("$store"));
        assert!(!is_identifier("app.handleEvent"));
        assert!(!is_identifier("9lives"));
        assert_eq!(identifiers("x.y(z1, 2a)").collect::<Vec<_>>(), vec!["x", "y", "z1"]);
    }
}
