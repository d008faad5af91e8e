//! Drift needs a past, at the memory's own line: a change made before the line was written
//! did not make it stale.
//!
//! A STALE or CONTRADICTED verdict that history decided says which commit made the claim false
//! (`since`). When the memory is a file of this repository (a notes file, a doc) and the line
//! the claim comes from was committed in that commit or after it, in history and in time (`git
//! blame` of the work tree's file, its committer date no older than the change's, then
//! `merge-base --is-ancestor`), whoever wrote the line wrote it with the
//! change already made: the line tells of the change itself ("`X` was removed", a migration
//! guide, a plan), of the user's side (`bin/rails` in the app a user generates), of another
//! package or system, or it was wrong when written. Read on real repositories' notes and docs,
//! such verdicts were a real problem about one time in four; those whose change came after the
//! line, three times in four. The claim is **not checked**, and the reason keeps what was found
//! so a reader can still look.
//!
//! A Markdown link to the thing keeps its verdict: a link is followed, not read, and one
//! written after its target went is broken, whatever the writer knew.
//!
//! A STALE verdict whose line names the old place and not the successor stays: the line was
//! written with an old name, not about the move, and the fix is known (`.github/CONTRIBUTING.md`
//! written months after it moved to `CONTRIBUTING.md`).
//!
//! Nothing changes when the line is not committed (written since the last commit: an agent's
//! fresh note is checked as before), when the memory is not a tracked file of this repository,
//! or when git cannot say (its error is logged; the verdict stands on the memory's date, as
//! without this rule).

use memval_git::LineWritten;
use memval_proto::{Claim, MemoryMeta, Outcome, Verdict};

use super::common::short;
use super::Checker;

impl Checker<'_> {
    /// `outcome`, or not checked when it is drift whose change came before the memory's line
    /// was written.
    pub(super) fn after_the_change(&self, claim: &Claim, memory: &MemoryMeta, outcome: Outcome) -> Outcome {
        let Outcome::Checked { verdict, confidence, evidence, since: Some(since), successor } = &outcome else {
            return outcome;
        };
        if !matches!(verdict, Verdict::Stale | Verdict::Contradicted) {
            return outcome;
        }
        let Some(git) = self.git else { return outcome };
        let Some((path, line)) = self.memory_line(memory, claim.line) else { return outcome };
        // A line that names the old place of a thing moved before it was written, and not
        // the new one, only used an old name: it does not tell of the move, and the fix is
        // known.
        if let Some(to) = successor.as_deref().filter(|_| *verdict == Verdict::Stale) {
            if !self.line_names(&path, line, to) {
                return outcome;
            }
        }
        // A link is followed, not read: one written after its target went is broken however
        // it came to be (calico's notes linking a design doc split up on the same branch). Of
        // the file it links, not of a name said to be in it.
        if claim.code_refs.first().is_some_and(|r| {
            r.symbol.is_none() && self.line_links_to(&path, line, r.written.as_deref().unwrap_or(&r.path))
        }) {
            return outcome;
        }
        let written = match git.line_written(&path, line) {
            // Committed with a date older than the change's: text brought back from before
            // the change (restored, replayed, copied from an older version) keeps its verdict.
            Ok(Some(LineWritten::Committed { time, .. })) if time < since.date => return outcome,
            Ok(Some(LineWritten::Committed { commit, .. })) => commit,
            Ok(_) => return outcome,
            Err(e) => {
                tracing::debug!(memory = %path, error = %e, "cannot tell when the memory's line was written");
                return outcome;
            }
        };
        match git.is_ancestor(&since.commit, &written) {
            Ok(true) => Outcome::NotChecked {
                reason: format!(
                    "{path}:{line} was written in {}, with the change already made ({} found: {verdict} {confidence}, {evidence}): a line written after the change tells of the change, a plan, the user's side or another system, not of drift",
                    short(&written),
                    short(&since.commit),
                ),
            },
            Ok(false) => outcome,
            Err(e) => {
                tracing::debug!(memory = %path, error = %e, "cannot order the change and the memory's line");
                outcome
            }
        }
    }

    /// Whether line `line` of the memory file `path` names `place`, whole or by a tail of it
    /// (`CONTRIBUTING.md` of `docs/CONTRIBUTING.md`; `new` of `Gadget::new`). An unreadable line names it,
    /// so the rule keeps applying.
    fn line_names(&self, path: &str, line: u32, place: &str) -> bool {
        let place = place.trim_end_matches('/');
        let place = place.rsplit("::").next().unwrap_or(place);
        let Some(text) = self.index.read_text(path) else { return true };
        let Some(at) = text.lines().nth(line.saturating_sub(1) as usize) else { return true };
        // The place or a tail of it (`src/x/` of `pkg/src/x/`, written from a package),
        // standing on its own: `GUIDE.md` inside `docs/GUIDE.md` is the old path, not the new.
        let segments: Vec<&str> = place.split('/').collect();
        (0..segments.len()).any(|from| {
            let tail = segments[from..].join("/");
            // The text of a link (`[CONTRIBUTING.md](.github/CONTRIBUTING.md)`) labels its
            // target, the old path: it names nothing else.
            at.match_indices(&tail).any(|(i, _)| {
                at[..i].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || "/_-.".contains(c)))
                    && !at[i + tail.len()..].starts_with("](")
            })
        })
    }

    /// Whether line `line` of the memory file `path` holds a Markdown link whose target is
    /// `target` (an anchor or a leading `./` aside).
    fn line_links_to(&self, path: &str, line: u32, target: &str) -> bool {
        let target = target.trim_start_matches("./");
        let Some(text) = self.index.read_text(path) else { return false };
        let Some(at) = text.lines().nth(line.saturating_sub(1) as usize) else { return false };
        at.split("](").skip(1).any(|rest| {
            let link = rest.split([')', ' ']).next().unwrap_or_default();
            let link = link.split('#').next().unwrap_or_default().trim_start_matches("./");
            !link.is_empty() && link == target
        })
    }

    /// The memory's file relative to the repository and the line of it claim line `line` sits
    /// on, when the memory is one file of this repository whose lines map one to one (a notes
    /// file: its content starts at `first_line`).
    fn memory_line(&self, memory: &MemoryMeta, line: u32) -> Option<(String, u32)> {
        let rel = self.index.memory_file(memory)?;
        Some((rel, memory.first_line + line.saturating_sub(1)))
    }
}
