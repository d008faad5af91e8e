//! Questions about commits: the commits that changed a path, a commit's date, `git rev-list
//! --before` for the commit at a memory's date, the manifests a commit deleted or gave a new
//! dependency (`manifests.rs`), and the name that took another's place in it (`substitution.rs`).

use memval_proto::UnixSeconds;

use super::cmd::{git, output, output_checked};
use super::names::code_pathspecs;
use super::GitRepo;
use crate::GitError;

impl GitRepo {
    /// The commits on `HEAD` that changed `path` (after `after`, when given), parents before
    /// children, with their committer dates.
    pub fn commits_changing(
        &self,
        path: &str,
        after: Option<UnixSeconds>,
    ) -> Result<Vec<(String, UnixSeconds)>, GitError> {
        if path.is_empty() || path.starts_with(['-', ':']) {
            return Ok(Vec::new());
        }
        let mut args = vec!["log", "--reverse", "--topo-order", "--format=%H %ct"];
        let since = after.map(|a| format!("--since=@{a}"));
        args.extend(since.as_deref());
        args.extend(["HEAD", "--", path]);
        let out = output_checked(git(&self.dir).args(&args), &args)?;
        Ok(out
            .lines()
            .filter_map(|l| l.split_once(' '))
            .filter_map(|(c, t)| Some((c.to_owned(), t.trim().parse::<UnixSeconds>().ok()?)))
            .filter(|(_, t)| after.is_none_or(|a| *t > a))
            .collect())
    }

    /// Committer date of `commit`: from the history already read when the commit renamed,
    /// deleted or added a path, else from git (`None` when git cannot say).
    pub fn commit_time(&self, commit: &str) -> Option<UnixSeconds> {
        if let Some(known) = self.indexed_history().times.get(commit) {
            return Some(*known);
        }
        if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        output(git(&self.dir).args(["log", "-1", "--format=%ct", commit, "--"]))?.trim().parse().ok()
    }

    /// The last commit on `HEAD` at or before `ts`.
    pub fn rev_at(&self, ts: UnixSeconds) -> Option<String> {
        let mut revs = self.revs.lock().expect("rev cache poisoned");
        revs.entry(ts)
            .or_insert_with(|| {
                output(git(&self.dir).args(["rev-list", "-1", &format!("--before={ts}"), "HEAD"]))
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
            })
            .clone()
    }

    /// The dependency manifests `commit` deleted or added dependencies to (`manifests.rs`),
    /// with paths relative to this checkout's folder; `None` when git could not show it.
    pub fn manifest_changes(&self, commit: &str) -> Option<Vec<crate::ManifestChange>> {
        if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut cmd = git(&self.dir);
        cmd.args(["show", "--format=", "-U0", "--no-color", "--no-renames", "--no-ext-diff", commit, "--"])
            .args(crate::manifests::MANIFEST_NAMES.iter().map(|n| format!(":(glob)**/{n}")));
        let mut changes = crate::manifests::manifest_changes(&output(&mut cmd)?);
        changes.retain_mut(|c| match c.path.strip_prefix(&self.prefix) {
            Some(inside) => {
                c.path = inside.to_owned();
                true
            }
            None => false,
        });
        Some(changes)
    }

    /// The name that took `name`'s place in `commit`, read from the commit's own patch of code
    /// files (`substitution.rs`): a rename done by substitution, whatever became of the body.
    pub fn substitution(&self, commit: &str, name: &str) -> Option<crate::Substitution> {
        if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) || name.is_empty() {
            return None;
        }
        let mut cmd = git(&self.dir);
        cmd.args(["show", "--format=", "-U0", "--no-color", "--no-renames", "--no-ext-diff", commit, "--"])
            .args(code_pathspecs());
        crate::substitution::substitution(&output(&mut cmd)?, name)
    }
}
