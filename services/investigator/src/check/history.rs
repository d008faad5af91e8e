//! What git history says of a path: renamed (the chain), a folder's fate, deleted (and whether
//! a file of its name took its place), and a file's text at the memory's date.
//!
//! Every verdict that rests on history carries history's completeness note in its evidence
//! (`GitRepo::incomplete`: a shallow clone, a log without rename detection, no history at all),
//! and one that rests on history *not* showing something is capped at 70. A rename or deletion git
//! recorded after the memory's date is 95; one found only by searching all history (the memory's
//! date is later than the change) is 80.

use std::sync::Arc;

use memval_git::GitRepo;
use memval_proto::{Since, UnixSeconds};

use crate::confine::RepoRoot;
use crate::index::basename;
use crate::similar::body_similarity;
use crate::symbols::Lang;

use super::common::{list, short, MAX_LISTED};
use super::extension_changed::renamable;
use super::located::Located;
use super::module_folder::ModuleFolder;
use super::Checker;

/// The change `commit` as a claim's `since`: its id and committer date.
pub(super) fn since_of(git: &GitRepo, commit: &str) -> Option<Since> {
    git.commit_time(commit).map(|date| Since { commit: commit.to_owned(), date })
}

/// Fewer distinct lines than this say too little to tell where a file's text went.
const MIN_LINES_EXTRACTED: usize = 8;

/// How many files a folder's last move must take before it speaks for the folder.
const MIN_LAST_FILES: usize = 3;

/// How many times a path must have been added and deleted again before its deletion reads as
/// a workflow's (a file made per change) rather than drift: three rounds are no accident.
const MIN_TIMES_MADE_AND_REMOVED: usize = 3;

/// Whether the file name `new` is `old` with a prefix or a suffix: the same extension, and a stem
/// that holds the old stem (of four characters or more) between separators
/// (`archon-create-pr.md` for `create-pr.md`, `client_v2.py` for `client.py`); or the whole old
/// name with an extension of two to four letters after it, the file rewritten in another
/// dialect (`build.gradle.kts` for `build.gradle`: Gradle's Kotlin script).
fn affixed(old: &str, new: &str) -> bool {
    let dialect = new.strip_prefix(old).and_then(|rest| rest.strip_prefix('.')).is_some_and(|ext| {
        (2..=4).contains(&ext.len()) && ext.bytes().all(|b| b.is_ascii_alphanumeric()) && old.contains('.')
    });
    if dialect {
        return true;
    }
    let split =
        |n: &str| n.rsplit_once('.').map_or((n.to_owned(), String::new()), |(s, e)| (s.to_owned(), e.to_owned()));
    let ((old_stem, old_ext), (new_stem, new_ext)) = (split(old), split(new));
    if old_ext != new_ext || old_stem.len() < 4 || new_stem == old_stem {
        return false;
    }
    let sep = |c: char| matches!(c, '-' | '_' | '.');
    new_stem.strip_suffix(old_stem.as_str()).is_some_and(|p| p.ends_with(sep))
        || new_stem.strip_prefix(old_stem.as_str()).is_some_and(|s| s.starts_with(sep))
}

/// The least text a deleted file must have had for a file of its name elsewhere to be read as
/// its copy by the text alone ([`Checker::text_lives_on`]).
const MIN_COPIED_TEXT: usize = 200;

/// How much of a deleted file's words a file of its name must hold to be its copy.
const COPIED_TEXT_ALIKE: f64 = 0.8;

impl Checker<'_> {
    /// The first commit after the memory's date (`since`) whose version of `file` no longer
    /// `holds` what the memory said (a definition, a setting), with its date: when the claim
    /// became false. The file's versions from then on are searched by halves, so a file changed
    /// a thousand times costs about ten reads. `None` without history, without a date, or when
    /// every version still holds it.
    pub(super) fn first_change_losing(
        &self,
        file: &str,
        since: Option<UnixSeconds>,
        holds: impl Fn(&str) -> bool,
    ) -> Option<Since> {
        let git = self.git?;
        let commits = git.commits_changing(file, Some(since?)).ok()?;
        let i = commits.partition_point(|(c, _)| git.show(c, file).is_some_and(|text| holds(&text)));
        commits.get(i).map(|(commit, date)| Since { commit: commit.clone(), date: *date })
    }

    pub(super) fn follow_history(
        &self,
        git: &GitRepo,
        path: &str,
        since: Option<UnixSeconds>,
        penalty: u8,
    ) -> Option<Located> {
        let trace = git.follow(path, since);
        if let Some(last) = trace.renames.last().map(|r| r.2.clone()) {
            let chain: Vec<String> =
                trace.renames.iter().map(|(commit, from, to)| format!("{from} → {to} in {}", short(commit))).collect();
            // `doc/Makefile` renamed to `doc/Makefile.am`: it became the template a configure
            // step makes it from.
            if trace.deleted_in.is_none() && TEMPLATE_SUFFIXES.iter().any(|s| last == format!("{path}{s}")) {
                return Some(made_from_template(
                    path,
                    format!("git renamed it to {last} in {}", short(&trace.renames[0].0)),
                    &last,
                ));
            }
            if trace.deleted_in.is_none() {
                if let Some(Located::Here { dir, .. }) = self.exists(&last, 100, None) {
                    return Some(Located::Moved {
                        to: last,
                        dir,
                        confidence: 95 - penalty,
                        evidence: self.with_history_note(git, format!("git: renamed {}", chain.join(", "))),
                        since: since_of(git, &trace.renames[0].0),
                    });
                }
            }
            // Renamed, then deleted where a file of its last name came in (Roboyard's
            // `Constants.java` → `Constants.kt`, deleted when the shared module got its copy):
            // that file is where it went, as for a file deleted under its own name.
            if let Some(commit) = trace.deleted_in.clone() {
                if let Located::Moved { to, dir, confidence, evidence, .. } =
                    self.deleted_file(git, &last, commit, since, penalty)
                {
                    let evidence = format!("git: renamed {}, then {}", chain.join(", "), after_git(&evidence));
                    let since = since_of(git, &trace.renames[0].0);
                    return Some(Located::Moved { to, dir, confidence, evidence, since });
                }
            }
            let deleted = trace.deleted_in.as_deref().map(short).unwrap_or("a later commit");
            return Some(Located::Gone {
                confidence: 90 - penalty,
                evidence: self
                    .with_history_note(git, format!("git: renamed {}, then deleted in {deleted}", chain.join(", "))),
                since: trace.deleted_in.as_deref().and_then(|c| since_of(git, c)),
            });
        }
        if let Some(found) = self.folder_fate(git, path, since, penalty) {
            return Some(found);
        }
        trace.deleted_in.map(|commit| self.deleted_file(git, &trace.last, commit, since, penalty))
    }

    /// The files of the tree with the deleted file's name or stem (`example_prd.md` for
    /// `scripts/example_prd.txt`) whose text is most of the deleted text (`old`, at least
    /// [`MIN_COPIED_TEXT`] bytes), sorted, each with the share of its words kept: copies made
    /// elsewhere before the original was deleted, and moved or renamed since, which no commit's
    /// additions show. One is the successor; several are places it may have gone to.
    fn text_lives_on(&self, last: &str, old: &str) -> Vec<(String, u32)> {
        if old.trim().len() < MIN_COPIED_TEXT {
            return Vec::new();
        }
        let name = basename(last);
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        let mut found: Vec<(String, f64)> = self
            .index
            .files_with_stem(stem)
            .iter()
            .chain(self.index.files_named(name))
            .map(|&i| self.index.file_at(i).path.clone())
            .filter(|p| p != last)
            .filter_map(|p| {
                let alike = body_similarity(old, &self.index.read_text(&p)?, &[]);
                (alike >= COPIED_TEXT_ALIKE).then_some((p, alike))
            })
            .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found.dedup_by(|a, b| a.0 == b.0);
        found.into_iter().map(|(p, alike)| (p, (alike * 100.0).round() as u32)).collect()
    }

    // A folder: where most of its files went; gone when most were deleted and no folder
    // took a quarter of them; otherwise split, with no successor to name. It went when its
    // last files left it, not when one of them, moved out long before, was deleted elsewhere
    // (Wox's `wox.ui.flutter/wox/`, whose icon moved to `wox.core/` and was deleted there).
    pub(super) fn folder_fate(
        &self,
        git: &GitRepo,
        path: &str,
        since: Option<UnixSeconds>,
        penalty: u8,
    ) -> Option<Located> {
        let fate = git.dir_fate(path, since)?;
        let n = fate.files;
        let live: Vec<&(String, usize)> = fate.moved.iter().filter(|(d, _)| self.index.is_dir(d)).collect();
        let top = live.first().map_or(0, |(_, c)| *c);
        if let Some((dir, c)) = live.first().filter(|(_, c)| c * 2 > n) {
            return Some(Located::Moved {
                to: dir.clone(),
                dir: true,
                confidence: 90 - penalty,
                evidence: self.with_history_note(
                    git,
                    format!("git: {c} of the {n} files of {path}/ that changed were moved into it"),
                ),
                since: fate.last_exit.as_deref().or(fate.last_change.as_deref()).and_then(|c| since_of(git, c)),
            });
        }
        // Files deleted over the years, then the rest moved together (`lib/web/` → `app/lib/web/`
        // when everything went under `app/`): the folder went where its last files went, when
        // most of them went to one live folder and that is a quarter of all that changed.
        let last_went = fate.last_exit_moved.first().filter(|(d, c)| {
            fate.last_exit_files >= MIN_LAST_FILES && c * 2 > fate.last_exit_files && c * 4 >= n && self.index.is_dir(d)
        });
        if let (Some((dir, c)), Some(exit)) = (last_went, fate.last_exit.as_deref()) {
            return Some(Located::Moved {
                to: dir.clone(),
                dir: true,
                confidence: 85 - penalty,
                evidence: self.with_history_note(
                    git,
                    format!(
                        "git: the last {} files of {path}/ left it together in {}, {c} of them into it ({n} of its files changed in all, {} deleted)",
                        fate.last_exit_files,
                        short(exit),
                        fate.deleted
                    ),
                ),
                since: since_of(git, exit),
            });
        }
        if fate.deleted * 2 > n && top * 4 < n {
            if let Some(kept) = fate.last_deletion.as_deref().and_then(|c| placeholders_only(git, path, c)) {
                return Some(kept);
            }
            let last = fate.last_deletion.as_deref().map(short).unwrap_or("a later commit");
            let (confidence, evidence) = self.history_confidence(
                git,
                90 - penalty,
                format!(
                    "git: {} of the {n} files of {path}/ that changed were deleted (the last in {last})",
                    fate.deleted
                ),
            );
            return Some(Located::Gone {
                confidence,
                evidence,
                since: fate.last_exit.as_deref().or(fate.last_change.as_deref()).and_then(|c| since_of(git, c)),
            });
        }
        if !live.is_empty() {
            let went: Vec<String> = live.iter().take(MAX_LISTED).map(|(d, c)| format!("{c} to {d}/")).collect();
            let rest = n.saturating_sub(live.iter().map(|(_, c)| c).sum::<usize>() + fate.deleted);
            let evidence = format!(
                "git: the {n} files of {path}/ that changed went apart ({}{}{}), no folder took most of them",
                went.join(", "),
                if rest > 0 { format!(", {rest} elsewhere") } else { String::new() },
                if fate.deleted > 0 { format!(", {} deleted", fate.deleted) } else { String::new() },
            );
            return Some(Located::Split {
                candidates: live.iter().map(|(d, _)| d.clone()).collect(),
                evidence: self.with_history_note(git, evidence),
            });
        }
        None
    }

    /// A file history shows deleted in `commit` (its last path `last`): moved when a file of
    /// its name was added after the memory and after the file itself, and resembles it, else
    /// gone.
    fn deleted_file(
        &self,
        git: &GitRepo,
        last: &str,
        commit: String,
        since: Option<UnixSeconds>,
        penalty: u8,
    ) -> Located {
        // A move spread over commits (copied then deleted, or deleted then added
        // elsewhere): a file of the same name that history shows added after the memory
        // and that exists now. A name match alone, without history saying it was added
        // then, is not a successor: the file was deleted.
        let name = basename(last);
        let old = git.show(&format!("{commit}^"), last);
        let resembles = |p: &str| {
            old.as_ref()
                .is_none_or(|old| self.index.read_text(p).is_some_and(|now| body_similarity(old, &now, &[]) >= 0.5))
        };
        // A copy made for a move comes after the file it copies: a file of the name added
        // before the old one was (another app's `Layout.tsx`, there a year earlier) lived
        // beside it, no successor.
        let born = first_added(git, last);
        let added_after_it = |t: UnixSeconds| born.is_none_or(|b| t >= b);
        // A file as old as it, under its name now or one it was renamed from since, is a
        // neighbour, not where the file went: towns' `multi/config.yaml`, added with
        // `multi_ne/config.yaml` and renamed `local_dev/config.yaml` days after that was deleted.
        let a_neighbour = |p: &str| born.is_some_and(|b| as_old_as(git, p, last, b));
        let added = |named: &dyn Fn(&str) -> bool| -> Vec<(String, String)> {
            let mut found: Vec<(String, String)> = git
                .added_where(named, since)
                .into_iter()
                .filter(|(p, _, t)| *p != last && self.index.file(p).is_some() && added_after_it(*t) && !a_neighbour(p))
                .map(|(p, c, _)| (p, c))
                .collect();
            found.sort();
            found.dedup_by(|a, b| a.0 == b.0);
            // A name alone is no successor: git's own rename detection wants half the content
            // kept, and so does this. The file as it was just before its deletion must resemble
            // the one that took its name now; an empty file resembles nothing. When history
            // no longer has the old text (a partial clone), the name is all there is to go on.
            found.retain(|(p, _)| resembles(p));
            found
        };
        let mut readded = added(&|n: &str| n == name);
        // Renamed with a prefix or a suffix in commits of their own (`create-pr.md` →
        // `archon-create-pr.md`): git pairs nothing, the name still holds the old one.
        if readded.is_empty() && old.is_some() {
            readded = added(&|n: &str| affixed(name, n));
        }
        // A common name (`index.ts`, `base.ts`) is added all over a busy repo: with
        // several, only those added by the deleting commit, else those in a folder of
        // the same name, count.
        if readded.len() > 1 {
            let same_commit: Vec<_> = readded.iter().filter(|(_, c)| *c == commit).cloned().collect();
            let parent = |p: &str| p.rsplit('/').nth(1).map(str::to_owned);
            let same_parent: Vec<_> = readded.iter().filter(|(p, _)| parent(p) == parent(last)).cloned().collect();
            readded = if !same_commit.is_empty() { same_commit } else { same_parent };
        }
        match readded.as_slice() {
            [(to, added_in)] => {
                return Located::Moved {
                    to: to.clone(),
                    dir: false,
                    confidence: 80 - penalty,
                    evidence: self.with_history_note(
                        git,
                        format!(
                            "git: deleted in {}; the same file name was added as {to} in {}",
                            short(&commit),
                            short(added_in)
                        ),
                    ),
                    since: since_of(git, &commit),
                }
            }
            [] => {}
            several => return Located::Unclear { candidates: several.iter().map(|(p, _)| p.clone()).collect() },
        }
        // `doc/Makefile` deleted when `doc/Makefile.am` came in: the file is made from that
        // template by the build's configure step now, and a checkout has it once that ran.
        if let Some(template) =
            TEMPLATE_SUFFIXES.iter().map(|s| format!("{last}{s}")).find(|t| self.index.file(t).is_some())
        {
            return made_from_template(
                last,
                format!("git deleted it in {}, and {template} is in the tree", short(&commit)),
                &template,
            );
        }
        // The files the deleting commit added, still in the tree: where its text or its name went.
        let added: Vec<String> = git.added_in(&commit).into_iter().filter(|p| self.index.file(p).is_some()).collect();
        // pdm's `docs/reference/configuration.md` deleted in the commit that added
        // `tasks/doc_templates/configuration.md.in`: the docs build makes it from that template.
        if let Some(template) =
            added.iter().find(|p| TEMPLATE_SUFFIXES.iter().any(|s| basename(p).strip_suffix(s) == Some(name)))
        {
            return made_from_template(
                last,
                format!("git deleted it in {}, which added {template}", short(&commit)),
                template,
            );
        }
        // Only a file the commit created: one git saw as another file renamed (inngest's `v1.ts` →
        // `engine.ts`, which also holds most of `v2.ts`, deleted beside it) is that file's successor.
        let created: Vec<String> = git.created_in(&commit).into_iter().filter(|p| added.contains(p)).collect();
        if let Some((to, kept, of)) = old.as_deref().and_then(|old| self.lines_went_to(git, &commit, &created, old)) {
            return Located::Moved {
                confidence: 70 - penalty,
                evidence: self.with_history_note(
                    git,
                    format!(
                        "git: deleted in {}, which added {to} with {kept} of its {of} lines: extracted there",
                        short(&commit)
                    ),
                ),
                since: since_of(git, &commit),
                to,
                dir: false,
            };
        }
        if let Some(to) = renamed_with_affix(&added, last) {
            return Located::Moved {
                confidence: 70 - penalty,
                evidence: self.with_history_note(
                    git,
                    format!("git: deleted in {}, which added {to}, the same name with a prefix or suffix: renamed and rewritten", short(&commit)),
                ),
                since: since_of(git, &commit),
                to,
                dir: false,
            };
        }
        if let Some(to) = renamed_with_extension(&added, last) {
            let ext = |p: &str| basename(p).rsplit_once('.').map(|(_, e)| e.to_owned()).unwrap_or_default();
            return Located::Moved {
                confidence: 70 - penalty,
                evidence: self.with_history_note(
                    git,
                    format!(
                        "git: deleted in {}, which added {to}, the same name with .{} for .{}: renamed and rewritten",
                        short(&commit),
                        ext(&to),
                        ext(last)
                    ),
                ),
                since: since_of(git, &commit),
                to,
                dir: false,
            };
        }
        if let Some((to, dir, folder)) = self.became_a_folder(&added, last) {
            return Located::Moved {
                confidence: 70 - penalty,
                evidence: self.with_history_note(
                    git,
                    format!(
                        "git: deleted in {}, which added files of its language in {folder}/ beside it: the module became a folder of modules",
                        short(&commit)
                    ),
                ),
                since: since_of(git, &commit),
                to,
                dir,
            };
        }
        let mut copies = old.as_deref().map(|old| self.text_lives_on(last, old)).unwrap_or_default();
        copies.retain(|(p, _)| !a_neighbour(p));
        if copies.len() > 1 {
            let places: Vec<String> = copies.into_iter().map(|(p, _)| p).collect();
            return Located::Split {
                evidence: self.with_history_note(
                    git,
                    format!(
                        "git: deleted in {}; its text lives on in {} files of its name: {}, no one of them its successor",
                        short(&commit),
                        places.len(),
                        list(&places)
                    ),
                ),
                candidates: places,
            };
        }
        if let Some((to, alike)) = copies.into_iter().next() {
            return Located::Moved {
                confidence: 70 - penalty,
                evidence: self.with_history_note(
                    git,
                    format!(
                        "git: deleted in {}; its text lives on in {to} ({alike}% of its words), a copy of it made elsewhere",
                        short(&commit)
                    ),
                ),
                since: since_of(git, &commit),
                to,
                dir: false,
            };
        }
        if let Some(times) = made_and_removed(git, last) {
            return Located::NotInRepo(format!(
                "{last} — git added it and deleted it again {times} times (the last in {}): a file made for one change and removed when it is done (a release note, a changeset), not one that stays; not checked",
                short(&commit)
            ));
        }
        let (confidence, evidence) = self.history_confidence(
            git,
            95 - penalty,
            format!("git: deleted in {} and nothing took its place", short(&commit)),
        );
        Located::Gone { confidence, evidence, since: since_of(git, &commit) }
    }

    /// Of the files `commit` added that are still there (`added`), the one that took more than half of
    /// the deleted file's lines (`old`, lines of a few characters and more, each counted once),
    /// with how many: a file extracted into a new place in the commit that deleted it, rewritten
    /// beyond what git calls a rename. Lines are compared with their runs of spaces made one, so a
    /// file moved and re-indented in one commit (a Markdown list's `- x` made `-   x`, which git
    /// sees as every line changed) is still found.
    fn lines_went_to(
        &self,
        git: &GitRepo,
        commit: &str,
        added: &[String],
        old: &str,
    ) -> Option<(String, usize, usize)> {
        let spaced = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
        let lines: std::collections::BTreeSet<String> =
            old.lines().filter(|l| l.chars().filter(|c| c.is_alphanumeric()).count() >= 4).map(spaced).collect();
        if lines.len() < MIN_LINES_EXTRACTED {
            return None;
        }
        let mut best: Option<(String, usize)> = None;
        for path in added {
            let Some(text) = git.show(commit, path) else { continue };
            let there: std::collections::BTreeSet<String> = text.lines().map(spaced).collect();
            let kept = lines.iter().filter(|l| there.contains(*l)).count();
            if best.as_ref().is_none_or(|(p, k)| kept > *k || (kept == *k && path < p)) {
                best = Some((path.clone(), kept));
            }
        }
        best.filter(|(_, kept)| kept * 2 > lines.len()).map(|(p, kept)| (p, kept, lines.len()))
    }

    /// `evidence`, with a note when the history it comes from is incomplete.
    pub(super) fn with_history_note(&self, git: &GitRepo, evidence: String) -> String {
        match git.incomplete() {
            Some(why) => format!("{evidence} (history incomplete: {why})"),
            None => evidence,
        }
    }

    /// A verdict that rests on history not showing something: at most 70 when the history
    /// is incomplete, and the evidence says why.
    pub(super) fn history_confidence(&self, git: &GitRepo, confidence: u8, evidence: String) -> (u8, String) {
        match git.incomplete() {
            Some(_) => (confidence.min(70), self.with_history_note(git, evidence)),
            None => (confidence, evidence),
        }
    }

    /// Text of the file the memory named, as it was when the memory was written.
    pub(super) fn old_text(&self, raw: &str, since: Option<UnixSeconds>) -> Option<Arc<str>> {
        let git = self.git?;
        let rev = git.rev_at(since?)?;
        let path = RepoRoot::normalise(raw).ok()?;
        git.show(&rev, &path)
    }

    /// [`Self::old_text`] of `raw`, unless it is the text `path` has now, in the same
    /// language: then it has the definitions `path` has now, so a symbol missing now was
    /// missing then too, and parsing it again (per claim, uncached) would only find that out
    /// slowly. This is the common case of a symbol that never existed in an unchanged file.
    pub(super) fn changed_old_text(&self, raw: &str, path: &str, since: Option<UnixSeconds>) -> Option<Arc<str>> {
        let old = self.old_text(raw, since)?;
        let unchanged = Lang::of(raw) == Lang::of(path)
            && self.index.read_text(path).is_some_and(|now| Arc::ptr_eq(&now, &old) || now == old);
        (!unchanged).then_some(old)
    }
}

/// Suffixes of the templates a configure step makes a file from (autotools' `Makefile.am` and
/// `config.h.in`, CMake's `configure_file` inputs).
const TEMPLATE_SUFFIXES: &[&str] = &[".in", ".am", ".cmake.in"];

/// `path`, now made from `template` by a build's configure step: a generated file, not checked;
/// `how` is what git shows of it.
fn made_from_template(path: &str, how: String, template: &str) -> Located {
    Located::NotInRepo(format!(
        "{path} — {how}: {template} is the template a build's configure step makes it from, so a generated file; not checked"
    ))
}

/// Whether `path` began no later than `gone` did (`born`), under its name now or the one a
/// chain of renames made it from: a file as old as the deleted one lived beside it, and is no
/// copy made of it.
fn as_old_as(git: &GitRepo, path: &str, gone: &str, born: UnixSeconds) -> bool {
    let mut origin = path.to_owned();
    // A chain of renames is short; the bound keeps a cycle of renames (a → b → a) finite.
    for _ in 0..8 {
        if origin == gone {
            return false;
        }
        match git.renamed_from(&origin) {
            Some(from) => origin = from,
            None => break,
        }
    }
    first_added(git, &origin).is_some_and(|t| t <= born)
}

/// Evidence worded "git: deleted in X; ..." without its leading "git: ", to follow a chain of
/// renames.
fn after_git(evidence: &str) -> &str {
    evidence.strip_prefix("git: ").unwrap_or(evidence)
}

/// When history first added a file at `path` (a name added, deleted and added again counts
/// from its first time), if it did at all.
fn first_added(git: &GitRepo, path: &str) -> Option<UnixSeconds> {
    git.added_named(basename(path), None).into_iter().filter(|(p, _, _)| p == path).map(|(_, _, t)| t).min()
}

/// How many times history shows `path` added and then deleted, when that is
/// [`MIN_TIMES_MADE_AND_REMOVED`] or more: the file of a workflow that makes it for one change
/// and removes it when the change is released (strawberry's `RELEASE.md`), which a memory names
/// as something to write, not as a file that should be there.
fn made_and_removed(git: &GitRepo, path: &str) -> Option<usize> {
    let (added, deleted) = git.times_added_and_deleted(path);
    let times = added.min(deleted);
    (times >= MIN_TIMES_MADE_AND_REMOVED).then_some(times)
}

impl Checker<'_> {
    /// A source file `dir/name.ext` deleted in the commit that added files of its language
    /// (`added`, still in the tree) in a folder `dir/name/` beside it: the module became a folder
    /// of modules (tuff's `box-tool/core-box.ts` → `box-tool/core-box/index.ts`). The successor
    /// is the folder's entry file when it has one, else the folder; returned with whether it
    /// is the folder, and the folder.
    fn became_a_folder(&self, added: &[String], path: &str) -> Option<(String, bool, String)> {
        let module = ModuleFolder::of(path)?;
        if !added.iter().any(|p| module.holds(p)) {
            return None;
        }
        let (to, dir) = module.successor(|e| self.index.file(e).is_some());
        Some((to, dir, module.folder))
    }
}

/// The files that only keep an empty folder in git (`storage/logs/.gitignore`).
const PLACEHOLDERS: &[&str] = &[".gitkeep", ".keep", ".gitignore", ".placeholder", ".empty"];

/// A folder that held nothing but placeholder files ([`PLACEHOLDERS`]) when its last one was
/// deleted (`deleted_in`): a place the program fills as it runs (Laravel's `storage/logs/`,
/// a cache, uploads), which git kept empty and a checkout makes when it runs; its files going
/// says nothing of what the memory describes. Not checked, with why.
fn placeholders_only(git: &GitRepo, path: &str, deleted_in: &str) -> Option<Located> {
    let files = git.files_at(&format!("{deleted_in}^"))?;
    let under = format!("{path}/");
    let held: Vec<String> = files.iter().filter(|f| f.starts_with(&under)).cloned().collect();
    let only_placeholders = !held.is_empty() && held.iter().all(|f| PLACEHOLDERS.contains(&basename(f)));
    only_placeholders.then(|| {
        Located::NotInRepo(format!(
            "{path}/ — git kept only a placeholder in it ({}) until {} deleted it: a folder the program fills as it runs (logs, caches, uploads), not checked",
            list(&held),
            short(deleted_in)
        ))
    })
}

/// Of `added` (the files the deleting commit added, still in the tree), the one beside the
/// deleted `path` with its stem and another extension a file may be renamed to
/// ([`super::extension_changed::renamable`]: `eslint.config.mjs` → `eslint.config.js`, not a
/// header's source nor a format's successor): the file converted in the commit that deleted it.
fn renamed_with_extension(added: &[String], path: &str) -> Option<String> {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let (stem, old_ext) = name.rsplit_once('.')?;
    if stem.is_empty() {
        return None;
    }
    let mut found = added.iter().filter(|p| {
        let (d, n) = p.rsplit_once('/').unwrap_or(("", p.as_str()));
        d == dir && n.rsplit_once('.').is_some_and(|(s, e)| s == stem && renamable(old_ext, e))
    });
    let first = found.next()?;
    found.next().is_none().then(|| first.clone())
}

/// Of `added` (the files the deleting commit added, still in the tree), the one beside the
/// deleted `path` whose name is the old one with a word put before or after it ([`affixed`]:
/// `util/run_tests_e2e` → `util/run_tests_e2e_host`): a rename git did not pair, made in the
/// deleting commit, the text rewritten beyond the resemblance the search over later commits
/// asks for.
fn renamed_with_affix(added: &[String], path: &str) -> Option<String> {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let mut found = added.iter().filter(|p| {
        let (d, n) = p.rsplit_once('/').unwrap_or(("", p.as_str()));
        d == dir && affixed(name, n)
    });
    let first = found.next()?;
    found.next().is_none().then(|| first.clone())
}
