//! Symbols named without a file, and where else a symbol missing from its file is defined.
//!
//! A symbol named without a file is:
//! - **VALID** when it is defined somewhere; or used by the repo's code but defined outside it (a
//!   dependency's or the language's: 70, with the first use).
//! - **STALE** when it exists only under another type (`Type::name`); or renamed: found from the
//!   newest commit that changed how often the name occurs in the repo (`git log -S`, after the
//!   memory's date when it has one), whose files' new definitions are compared with the old one
//!   by body.
//! - **CONTRADICTED** when it is not defined and no code uses it (a name only prose has, or
//!   nothing: the memory's own invention); or git shows the commit that removed its last
//!   definition.
//! - **AMBIGUOUS** (30, reported, not asserted) when it is neither defined nor used, git shows no
//!   commit since the memory's date that changed how often the code names it, and tests,
//!   comments, strings or config name it (an env var read from a string, a test marker): a term of
//!   the project more often than a wrong name. History is searched only when no code uses the
//!   name: at most 64 distinct searches of 2 s each and 10 s in all per checkout, results cached;
//!   past that the evidence says it was not searched, and such a term is AMBIGUOUS at 30 all the
//!   same, so a verdict never depends on how many names a run searched before it.

use memval_git::GitRepo;
use memval_proto::{Outcome, UnixSeconds, Verdict};

use crate::index::{FileInfo, Unique};
use crate::similar::shared_dirs;
use crate::symbols::{definitions, Lang};
use crate::usage;

use super::common::{checked, list, short};
use super::symbol_name::SymbolName;
use super::Checker;

/// What history says of a name no file of the repo defines now.
enum Removal {
    /// Its last definition was removed (or renamed) by a commit: the verdict that follows.
    Found(Outcome),
    /// Git searched, and no commit since the memory's date (or ever, for a memory without
    /// one) changed how often the repo's code names it: it was not a name of the code when
    /// the memory was written either.
    NeverInCode,
    /// Not asked (the code still uses the name, or there is no history), or commits touched
    /// only its uses.
    NotRemoved,
    /// Git was not asked (its budget for such searches is spent), with why: whether the name
    /// was ever the code's is not known, so its absence now is not a contradiction either,
    /// and a run's verdict does not depend on how many names came before.
    Unsearched(String),
}

impl Checker<'_> {
    /// A symbol named without a file; `line`, when the memory gave one, must match too.
    pub(super) fn check_symbol_anywhere(
        &self,
        sym: &SymbolName,
        line: Option<u32>,
        since: Option<UnixSeconds>,
    ) -> Outcome {
        let found: Vec<(String, u32)> = self
            .index
            .defs_named(&sym.name)
            .filter(|(f, d)| sym.matches(&f.path, d))
            .map(|(f, d)| (f.path.clone(), d.line))
            .collect();
        if let Some(want) = line {
            if let Some((path, at)) = found.iter().find(|(_, l)| *l == want) {
                return checked(Verdict::Valid, 90, format!("{path}:{at} — {} is defined here", sym.display()), None);
            }
            if let [(path, at)] = found.as_slice() {
                return checked(
                    Verdict::Stale,
                    80,
                    format!("{path}:{at} — {} is defined here, not at line {want}", sym.display()),
                    Some(format!("{path}:{at}")),
                );
            }
        }
        match found.as_slice() {
            [(path, line)] => {
                checked(Verdict::Valid, 95, format!("{path}:{line} — {} is defined here", sym.display()), None)
            }
            [(path, line), ..] => checked(
                Verdict::Valid,
                80,
                format!(
                    "{path}:{line} — {} is defined in {} places: {}",
                    sym.display(),
                    found.len(),
                    list(&found.iter().map(|(p, l)| format!("{p}:{l}")).collect::<Vec<_>>())
                ),
                None,
            ),
            [] => self.defined_nowhere(sym, since),
        }
    }

    /// A symbol no file of the repo defines now: a qualifier that belongs to another type, a
    /// definition history shows removed or renamed, a name the code uses from a dependency, a
    /// term of the project, or a name the memory got wrong.
    fn defined_nowhere(&self, sym: &SymbolName, since: Option<UnixSeconds>) -> Outcome {
        if sym.qualifier.is_some() {
            let other: Vec<String> = self
                .index
                .defs_named(&sym.name)
                .filter_map(|(_, d)| d.container.as_deref().map(|c| format!("{c}::{}", sym.name)))
                .collect();
            if let [only] = other.as_slice() {
                return checked(
                    Verdict::Stale,
                    60,
                    format!(". — {} is not defined; {only} is", sym.display()),
                    Some(only.clone()),
                );
            }
        }
        // Only names the repo's code no longer uses (a name still used is more often a
        // library's than a removed one of the repo's own). Docs, tests, comments,
        // strings and the notes file itself do not count as use.
        let used = usage::used_in_code(self.index, &sym.name);
        let removal = match self.git.filter(|_| !used) {
            Some(git) => self.removal_in_history(git, sym, since),
            None => Removal::NotRemoved,
        };
        let (never_in_code, unsearched, note) = match removal {
            Removal::Found(outcome) => return outcome,
            Removal::NeverInCode => (true, false, String::new()),
            Removal::NotRemoved => (false, false, String::new()),
            Removal::Unsearched(why) => (false, true, format!(" ({why})")),
        };
        if used {
            // The code still uses the name; what defines it is outside the repo (a
            // dependency, the language, a generated file). The memory's point, that
            // this is a name the code works with, holds.
            let at = usage::first_use_in_code(self.index, &sym.name)
                .map(|(path, line)| format!("{path}:{line}"))
                .unwrap_or_else(|| ".".into());
            checked(
                Verdict::Valid,
                70,
                format!("{at} — {} is used by the repo's code; its definition is not in the repo (a dependency's or the language's){note}", sym.display()),
                None,
            )
        } else if unsearched && self.named_outside_prose(&sym.name) {
            checked(
                Verdict::Ambiguous,
                30,
                format!(
                    ". — {} is not a name of the repo's code now: not defined or used (only tests, comments, strings or config name it){note}, so whether it was when the memory was written is not known; the memory may use it as a word",
                    sym.display()
                ),
                None,
            )
        } else if never_in_code && self.named_outside_prose(&sym.name) {
            // Neither defined nor used by the code, now or when the memory was written,
            // but the project names it in tests, comments, strings or config (an env
            // var read from a string, a test marker): a term of the project, more often
            // than a name the memory got wrong. Reported, not asserted. A name only
            // prose (or nothing) has stays CONTRADICTED below.
            let named = "only tests, comments, strings or config name it";
            checked(
                Verdict::Ambiguous,
                30,
                format!(
                    ". — {} is not a name of the repo's code: not defined or used now, and git shows no commit since the memory was written that added or removed it in code ({named}); the memory may use it as a word",
                    sym.display()
                ),
                None,
            )
        } else if self.index.mentions(&sym.name) {
            checked(
                Verdict::Contradicted,
                70,
                format!(
                    ". — {} is not defined and no code uses it (only docs, tests, comments or strings name it){note}",
                    sym.display()
                ),
                None,
            )
        } else {
            checked(
                Verdict::Contradicted,
                75,
                format!(". — {} is neither defined nor mentioned anywhere in the repo", sym.display()),
                None,
            )
        }
    }

    /// What history says of a name no file defines now: the commit that removed its last
    /// definition (and what replaced it), or that no commit since the memory's date changed
    /// how often the code names it, or that git was not asked.
    fn removal_in_history(&self, git: &GitRepo, sym: &SymbolName, since: Option<UnixSeconds>) -> Removal {
        let changes = match git.name_removed(&sym.name, since) {
            Ok(changes) => changes,
            Err(why) => return Removal::Unsearched(why),
        };
        if changes.is_empty() {
            return Removal::NeverInCode;
        }
        // Newest first: the first commit whose parent defined the name in a
        // file it changed removed (or renamed) its last definition; later
        // ones only touched uses of it.
        for (commit, before, files) in &changes {
            let defined_before = files.iter().any(|f| {
                git.show(&format!("{commit}^"), f)
                    .is_some_and(|t| definitions(Lang::of(f), &t).iter().any(|d| sym.matches(f, d)))
            });
            if !defined_before {
                continue;
            }
            for file in files.iter().filter(|f| self.index.file(f).is_some()) {
                if let Some(found @ Outcome::Checked { verdict: Verdict::Stale, .. }) =
                    self.find_rename(sym, file, file, Some(*before))
                {
                    return Removal::Found(found);
                }
            }
            return Removal::Found(checked(
                Verdict::Contradicted,
                85,
                self.with_history_note(
                    git,
                    format!(
                        ". — {} is not defined anywhere; git: its last definition was removed in {}",
                        sym.display(),
                        short(commit)
                    ),
                ),
                None,
            ));
        }
        Removal::NotRemoved
    }

    /// The one definition of `sym` outside `except`, or the best one in `near`'s folder.
    pub(super) fn unique_def_elsewhere(&self, sym: &SymbolName, except: Option<&str>) -> Option<(String, u32)> {
        if let Some(near) = except {
            return self.nearest_unique_def(sym, near);
        }
        // Only "exactly one definition" is an answer, so the search stops at the second one
        // (a common name would otherwise parse every file that mentions it); smaller files
        // first, since which two are found does not change the answer.
        let mut files: Vec<&FileInfo> = self.index.files_with_token(&sym.name).collect();
        files.sort_by_key(|f| f.lines);
        match self.index.unique_def(files, &sym.name, |f, d| sym.matches(&f.path, d)) {
            Unique::One(f, d) => Some((f.path.clone(), d.line)),
            Unique::None | Unique::Several => None,
        }
    }

    /// [`Self::unique_def_elsewhere`] of a symbol missing from `near`: the only definition
    /// elsewhere, or among several the only one sharing the most leading folders with `near`
    /// (at least one). The candidate files are parsed nearest first, and the first level with
    /// a definition decides, so a common name does not parse every file that mentions it;
    /// within that level a second definition ends the search (smaller files first).
    pub(super) fn nearest_unique_def(&self, sym: &SymbolName, near: &str) -> Option<(String, u32)> {
        let mut files: Vec<(usize, &FileInfo)> = self
            .index
            .files_with_token(&sym.name)
            .filter(|f| f.path != near)
            .map(|f| (shared_dirs(&f.path, near), f))
            .collect();
        files.sort_by_key(|(level, f)| (std::cmp::Reverse(*level), f.lines));
        for group in files.chunk_by(|a, b| a.0 == b.0) {
            match self.index.unique_def(group.iter().map(|(_, f)| *f), &sym.name, |f, d| sym.matches(&f.path, d)) {
                Unique::None => continue,
                // One at the nearest level with any: it, whatever lies further away (at
                // level 0 there is nothing further away, so it is the only one).
                Unique::One(f, d) => return Some((f.path.clone(), d.line)),
                Unique::Several => return None,
            }
        }
        None
    }
}
