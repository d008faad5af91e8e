//! Symbol claims placed in a file (or a folder).
//!
//! A symbol placed in a file is:
//! - **VALID** when it is defined there (at the stated line, if any); when it is defined in the
//!   file's successor (the file was renamed: a note says so, and the file claim carries the move);
//!   or when the file never defined it (prose or data, or git shows no version of it that did:
//!   the notes named the symbol beside a file that documents or uses it) and the symbol, judged by
//!   itself, is defined elsewhere (for a code file, whose parse misses definitions nested in
//!   function bodies, used elsewhere is enough for prose) — at most 80.
//! - **STALE** when it is defined at another line (`path:line`); moved to another file (new path);
//!   or renamed: a definition in the file whose body matches the old definition's body from git
//!   (new name). The old definition is read at the memory's date, or, for a memory without a date
//!   or one written after the change, just before the newest commit that changed how often the
//!   name occurs in the file (`git log -S`).
//! - **CONTRADICTED** when it is not defined anywhere, or git shows it was removed; or it is named
//!   in the file only in comments or strings.
//! - **not checked** when the file is gone and the name is defined in several other places:
//!   the name is there, which one the memory meant is not known, and the path's own claim
//!   reports the path.
//! - **AMBIGUOUS** when it is used as code in the file but not defined there; or the file
//!   reference is ambiguous and the places disagree (a line given).
//! - **not checked** when the file is in a language memval has no grammar for (thirteen have one,
//!   `crate::symbols`) and names the symbol without a definition the line-based reading found:
//!   memval cannot tell a definition from a use there, and says so.
//!
//! A file several places could mean (`forms/model_forms.py` in a repository of apps): the one
//! place defining the symbol is checked; several defining it is VALID (70, each package's own);
//! none defining it while some name it is not checked (a nested or generated definition memval
//! does not parse); none naming it, the symbol is judged by itself.

use memval_proto::{CodeRef, Outcome, UnixSeconds, Verdict};

use crate::confine::RepoRoot;
use crate::symbols::{Def, Lang};
use crate::usage;

use super::anywhere::Defined;
use super::common::{checked, identifiers_contain, list};
use super::located::{Located, NEVER_IN_REPO};
use super::reexport;
use super::symbol_name::SymbolName;
use super::Checker;

impl Checker<'_> {
    /// A symbol claim; one whose name is not defined, but which is written as an affix
    /// (`_int`, `test_`, `_test.go`), is read as the naming convention it is.
    pub(super) fn check_symbol(&self, r: &CodeRef, symbol: &str, since: Option<UnixSeconds>) -> Outcome {
        let out = self.check_symbol_named(r, symbol, since);
        // Only a verdict resting on absence gives way: a STALE found the name's successor.
        match out {
            Outcome::Checked { verdict: Verdict::Contradicted | Verdict::Ambiguous, .. }
            | Outcome::NotChecked { .. } => {
                self.file_of_that_name(r, symbol, since).or_else(|| self.naming_pattern(symbol)).unwrap_or(out)
            }
            _ => out,
        }
    }

    /// `build.proj`, `Directory.Packages.props`: a name written without a file that reads as a
    /// member of a type (`build::proj`) but is the name of a file of the repo, under an
    /// extension memval does not know. The file exists: VALID, where it is.
    fn file_of_that_name(&self, r: &CodeRef, symbol: &str, since: Option<UnixSeconds>) -> Option<Outcome> {
        let written = symbol.trim();
        if r.path.trim() != "." || written.contains([':', '(', ' ', '/']) {
            return None;
        }
        if !written.contains('.') {
            return self.root_file_of_that_name(written, since);
        }
        let mut places: Vec<&str> =
            self.index.files_named(written).iter().map(|&i| self.index.file_at(i).path.as_str()).collect();
        places.sort();
        let first = places.first()?;
        let more = match places.len() {
            1 => String::new(),
            n => format!(" (and {} more of that name)", n - 1),
        };
        Some(checked(
            Verdict::Valid,
            80,
            format!("{first} — a file of that name exists{more}: `{written}` names the file"),
            None,
        ))
    }

    /// `Steepfile`, `Guardfile`: a name without a dot that no code defines, but a file of the
    /// repository's root has (now, or in git history: a package moved under a folder took it
    /// along). The name is that file, checked as one: VALID where it is, STALE where git moved
    /// it. A file of that name only deeper in the tree is no reading of a bare word (a class
    /// `Config` beside a `tools/Config` script), and neither is a root file git saw deleted
    /// (the word may be the code's name the memory meant): both keep the symbol's outcome.
    fn root_file_of_that_name(&self, name: &str, since: Option<UnixSeconds>) -> Option<Outcome> {
        let at_root = self.index.file(name).is_some();
        let in_history = || self.git.is_some_and(|git| git.follow(name, None).known);
        if !(at_root || in_history()) {
            return None;
        }
        match self.check_file(&CodeRef::path(name), since, false) {
            Outcome::Checked {
                verdict: verdict @ (Verdict::Valid | Verdict::Stale),
                confidence,
                evidence,
                successor,
                since,
            } => {
                let evidence = format!("{evidence} (`{name}` names the file at the repository's root)");
                Some(Outcome::Checked { verdict, confidence, evidence, successor, since })
            }
            _ => None,
        }
    }

    pub(super) fn check_symbol_named(&self, r: &CodeRef, symbol: &str, since: Option<UnixSeconds>) -> Outcome {
        let sym = SymbolName::parse(symbol);
        if sym.name.is_empty() {
            return Outcome::NotChecked { reason: format!("cannot read a symbol name from {symbol:?}") };
        }
        let raw = r.path.trim();
        if raw == "." {
            return self.check_symbol_anywhere(&sym, r.line, since);
        }
        match self.locate(raw, &r.alt_paths, since) {
            Located::Refused(refusal) => Outcome::NotChecked { reason: refusal.to_string() },
            Located::NotInRepo(reason) => Outcome::NotChecked { reason },
            Located::NeverInRepo | Located::NameElsewhere { .. } => {
                Outcome::NotChecked { reason: NEVER_IN_REPO.into() }
            }
            Located::Here { path, dir: true, .. } => self.check_symbol_in_dir(&sym, &path),
            Located::Here { path, confidence, .. } => {
                let found = self.check_symbol_in_file(&sym, raw, &path, None, r.line, since, confidence);
                any_file_so_named(r, &sym, found)
            }
            Located::Moved { to, dir: true, .. } => self.check_symbol_in_dir(&sym, &to),
            Located::Moved { to, confidence, evidence, since: moved_in, .. } => {
                match self.check_symbol_in_file(&sym, raw, &to, Some(evidence), r.line, since, confidence) {
                    // The file's move made the memory stale, unless a later change of the
                    // symbol itself says when.
                    stale @ Outcome::Checked { verdict: Verdict::Stale, since: None, .. } => stale.since(moved_in),
                    other => other,
                }
            }
            Located::Gone { confidence, evidence, since: gone_in } => match self.defs_anywhere(&sym) {
                Defined::Once(path, line) => checked(
                    Verdict::Stale,
                    75,
                    format!("{path}:{line} — {} is defined here; {raw} is gone ({evidence})", sym.display()),
                    Some(path),
                )
                .since(gone_in),
                // The name is there, in several places: the memory's error, if any, is the
                // path's, which its own claim reports. Which definition it meant is not known.
                Defined::Several => Outcome::NotChecked {
                    reason: format!(
                        "{raw} — {evidence}; {} is defined in more than one other place, so which one the memory meant is not known (the path's own claim reports the path): not checked",
                        sym.display()
                    ),
                },
                Defined::Nowhere => checked(
                    Verdict::Contradicted,
                    confidence,
                    format!("{raw} — {evidence}; {} is not defined anywhere in the repo", sym.display()),
                    None,
                )
                .since(gone_in),
            },
            Located::Unclear { candidates } | Located::Split { candidates, .. } => {
                let defining: Vec<&String> =
                    candidates.iter().filter(|c| self.defs_in(c).iter().any(|d| sym.matches(c, d))).collect();
                match defining.as_slice() {
                    [only] => self.check_symbol_in_file(&sym, raw, only, None, r.line, since, 80),
                    // Packages side by side each with their own `search.py`: the memory names
                    // the kind of file, and several of them define it.
                    [first, ..] if r.line.is_none() => checked(
                        Verdict::Valid,
                        70,
                        format!(
                            "{first} — {} is defined in {} of the {} places named like {raw}: {}",
                            sym.display(),
                            defining.len(),
                            candidates.len(),
                            list(&defining.iter().map(|d| d.to_string()).collect::<Vec<_>>())
                        ),
                        None,
                    ),
                    [] => self.named_in_some(&sym, raw, &candidates, since),
                    _ => checked(
                        Verdict::Ambiguous,
                        40,
                        format!("{raw} — {} places match: {}", candidates.len(), list(&candidates)),
                        None,
                    ),
                }
            }
        }
    }

    /// A symbol placed in a file several places could mean, none of which has a definition of
    /// it memval parses. Named in some of them (a nested attribute, `Meta.fields`; a definition
    /// made at run time): memval cannot tell, and says so. Named in none: judged by itself.
    fn named_in_some(&self, sym: &SymbolName, raw: &str, candidates: &[String], since: Option<UnixSeconds>) -> Outcome {
        let naming: Vec<String> = candidates
            .iter()
            .filter(|c| self.index.read_text(c).is_some_and(|t| identifiers_contain(&t, &sym.name)))
            .cloned()
            .collect();
        if naming.is_empty() {
            return self.check_symbol_anywhere(sym, None, since);
        }
        Outcome::NotChecked {
            reason: format!(
                "{} is named in {} of the {} places matching {raw} ({}), and memval parses no definition of it there (a nested or generated definition it does not read): not checked",
                sym.display(),
                naming.len(),
                candidates.len(),
                list(&naming)
            ),
        }
    }

    pub(super) fn defs_in(&self, path: &str) -> &[Def] {
        self.index.defs_at(path)
    }

    pub(super) fn check_symbol_in_dir(&self, sym: &SymbolName, dir: &str) -> Outcome {
        let prefix = format!("{dir}/");
        let found: Vec<(String, u32)> = self
            .index
            .defs_named(&sym.name)
            .filter(|(f, d)| (dir == "." || f.path.starts_with(&prefix)) && sym.matches(&f.path, d))
            .map(|(f, d)| (f.path.clone(), d.line))
            .collect();
        match found.first() {
            Some((path, line)) => {
                checked(Verdict::Valid, 90, format!("{path}:{line} — {} is defined under {dir}/", sym.display()), None)
            }
            None => self.check_symbol_anywhere(sym, None, None),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_symbol_in_file(
        &self,
        sym: &SymbolName,
        raw: &str,
        path: &str,
        moved: Option<String>,
        line: Option<u32>,
        since: Option<UnixSeconds>,
        base: u8,
    ) -> Outcome {
        let defs: Vec<&Def> = self.defs_in(path).iter().filter(|d| sym.matches(path, d)).collect();
        let at_line = line.and_then(|l| defs.iter().find(|d| d.line == l));
        if at_line.is_none() {
            if let Some((l, def)) =
                line.and_then(|l| defs.iter().find(|d| self.line_inside_def(path, d, l)).map(|d| (l, d)))
            {
                let here = format!(
                    "{path}:{l} — inside {} {} (lines {}-{}), the line the text points at",
                    def.kind,
                    sym.display(),
                    def.line,
                    def.end_line
                );
                let note = moved
                    .map(|m| format!("; note: the file moved, the file claim carries it ({m})"))
                    .unwrap_or_default();
                return checked(Verdict::Valid, base.min(80), format!("{here}{note}"), None);
            }
        }
        if let Some(def) = at_line.or(defs.first()) {
            let here = format!("{path}:{} — {} {} is defined here", def.line, def.kind, sym.display());
            if let Some(line) = line.filter(|&l| l != def.line) {
                return checked(
                    Verdict::Stale,
                    base.min(90),
                    format!("{here}, not at line {line}{}", moved.map(|m| format!("; {m}")).unwrap_or_default()),
                    Some(format!("{path}:{}", def.line)),
                );
            }
            // Defined in the file's successor: the symbol is where the memory's file went, so
            // the claim about the symbol holds; the file claim carries the move.
            return match moved {
                Some(evidence) => checked(
                    Verdict::Valid,
                    base,
                    format!("{here}; note: the file moved, the file claim carries it ({evidence})"),
                    None,
                ),
                None => checked(Verdict::Valid, base, here, None),
            };
        }
        // Not defined in the file: moved to another file? The old definition (from git)
        // tells which of several same-named definitions is the moved one.
        let old = self.old_definition(sym, raw, path, since);
        // The file never was the symbol's home: the memory named the symbol beside a file that
        // documents or uses it. The claim is about the symbol, so it is judged by itself.
        // A code file's parse does not see every definition (one nested in a function body):
        // there the symbol must be defined elsewhere, not merely used, to be judged by itself.
        // `never_defined_in` first: without history it answers for a code file at once, and
        // the search for a definition elsewhere parses every file that names the symbol.
        if let Some(why) = old.is_none().then(|| self.never_defined_in(sym, raw, path)).flatten() {
            let defined_elsewhere = || self.index.defs_named(&sym.name).any(|(f, d)| sym.matches(&f.path, d));
            if Lang::of(path) == Lang::Doc || defined_elsewhere() {
                if let Outcome::Checked { verdict: Verdict::Valid, confidence, evidence, .. } =
                    self.check_symbol_anywhere(sym, None, since)
                {
                    return checked(
                        Verdict::Valid,
                        confidence.min(base).min(80),
                        format!("{evidence}; {path} {why}"),
                        None,
                    );
                }
            }
            // Git shows the file never defined it: nothing left it, so the name is judged by
            // itself (drift needs a past), whatever that finds.
            if self.git.is_some() {
                return match self.check_symbol_anywhere(sym, None, since) {
                    Outcome::Checked { verdict, confidence, evidence, successor, since } => {
                        checked(verdict, confidence.min(base).min(80), format!("{evidence}; {path} {why}"), successor)
                            .since(since)
                    }
                    not_checked => not_checked,
                };
            }
        }
        if let Some((other, def_line)) = self.moved_definition(sym, path, old.as_ref()) {
            // The file re-exports the whole module the name went to: it still offers the name.
            if self.index.read_text(path).is_some_and(|t| reexport::reexports_all(path, &t, &other)) {
                return checked(
                    Verdict::Valid,
                    base.min(80),
                    format!(
                        "{other}:{def_line} — {} is defined here; {path} re-exports everything of {other}",
                        sym.display()
                    ),
                    None,
                );
            }
            return checked(
                Verdict::Stale,
                base.min(85),
                format!("{other}:{def_line} — {} moved here; it is no longer defined in {path}", sym.display()),
                Some(other),
            )
            .since(self.name_changed_in(sym, raw, since));
        }
        // Renamed? Compare the old definition's body with the file's new definitions.
        if let Some(outcome) = self.find_rename(sym, raw, path, since) {
            return outcome;
        }
        // A history search that failed is not "it was never here": said, and trusted less.
        let failed = self.history_search_failure(sym, raw);
        let note = failed.as_ref().map(|e| format!(" (history not searched: {e})")).unwrap_or_default();
        // Mentioned as code, not in a comment or a string (which say nothing of the code).
        let text = self.index.read_text(path);
        let mention = text.as_deref().and_then(|t| usage::first_use(path, t, &sym.name));
        // A language memval has no grammar for (Elixir, Scala, Dart, ...): its lines were only
        // guessed at, so a file that has the name may well define it; a component's script may
        // define it in an object its parse does not read. Said, not guessed.
        if let Some(at) = mention.filter(|_| Lang::of(path).guessed()) {
            let ext = path.rsplit_once('.').map_or("these", |(_, e)| e);
            let reading = match Lang::of(path) {
                Lang::Other => format!("memval has no grammar for .{ext} files"),
                _ => format!("memval reads only the top-level definitions of a .{ext} file's script"),
            };
            return Outcome::NotChecked {
                reason: format!(
                    "{path}:{at} — {path} names {} but {reading} to tell a definition from a use: not checked",
                    sym.display()
                ),
            };
        }
        if let Some(at) = mention {
            return checked(
                Verdict::Ambiguous,
                40,
                format!("{path}:{at} — {} is mentioned here but no definition of it was found{note}", sym.display()),
                None,
            );
        }
        checked(
            Verdict::Contradicted,
            match (self.git.is_some(), failed.is_some()) {
                (true, false) => 85,
                (true, true) => 70,
                (false, _) => 75,
            },
            format!("{path} — {} is not defined in this file, nor anywhere else in the repo{note}", sym.display()),
            None,
        )
    }

    /// Why `path` (the file the memory named `sym` beside) never defined it, when that is
    /// known: prose and data define nothing; with history, git shows no version of the file
    /// that defined it (no commit ever changed how often the file names it, or the version
    /// before the last such commit did not define it, see [`Self::old_definition`]). `None`
    /// without history for code files, and when the history search failed: a symbol that left
    /// the file then is still read as moved.
    pub(super) fn never_defined_in(&self, sym: &SymbolName, raw: &str, path: &str) -> Option<&'static str> {
        if Lang::of(path) == Lang::Doc {
            return Some("is prose or data, which defines nothing (it only names it)");
        }
        let file = RepoRoot::normalise(raw).ok()?;
        self.git?
            .last_change_of(&file, &sym.name)
            .ok()
            .map(|_| "does not define it, and git shows no version of it that did")
    }
}

/// A memory that names its file by a bare name several files carry (`test_utils.py`) names any
/// of them: a symbol "moved" to another file of that name, with no line given, is where the
/// memory said (`helpdesk/integrations/erpnext/test_utils.py` for "helpers in `test_utils.py`").
fn any_file_so_named(r: &CodeRef, sym: &SymbolName, found: Outcome) -> Outcome {
    let bare = r.written.as_deref().map(str::trim).filter(|w| !w.is_empty() && !w.contains('/'));
    match (&found, bare, r.line) {
        (Outcome::Checked { verdict: Verdict::Stale, successor: Some(to), .. }, Some(bare), None)
            if to.rsplit('/').next() == Some(bare) =>
        {
            checked(
                Verdict::Valid,
                80,
                format!("{to} — {} is defined here, in a file named {bare} as the memory wrote it", sym.display()),
                None,
            )
        }
        _ => found,
    }
}

#[cfg(test)]
mod tests {
    use memval_proto::{CodeRef, Outcome, Verdict};

    use super::{any_file_so_named, checked, SymbolName};

    #[test]
    fn a_bare_file_name_names_every_file_so_named() {
        let moved = || checked(Verdict::Stale, 85, "moved".into(), Some("app/integrations/test_utils.py".into()));
        let sym = SymbolName::parse("enable_sync");
        let bare = CodeRef { written: Some("test_utils.py".into()), ..CodeRef::path("app/test_utils.py") };
        match any_file_so_named(&bare, &sym, moved()) {
            Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
                assert!(evidence.starts_with("app/integrations/test_utils.py"), "{evidence}")
            }
            other => panic!("written as a bare name another file carries: wanted VALID, got {other:?}"),
        }
        let with_folder = CodeRef::path("app/test_utils.py");
        assert!(matches!(
            any_file_so_named(&with_folder, &sym, moved()),
            Outcome::Checked { verdict: Verdict::Stale, .. }
        ));
        let other_name = CodeRef { written: Some("helpers.py".into()), ..CodeRef::path("app/helpers.py") };
        assert!(matches!(
            any_file_so_named(&other_name, &sym, moved()),
            Outcome::Checked { verdict: Verdict::Stale, .. }
        ));
    }
}
