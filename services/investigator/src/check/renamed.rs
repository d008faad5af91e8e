//! A symbol gone from the file the memory names: moved to another file, or renamed, read from
//! the file's old text in git (a definition of the same kind whose body is alike), or, when the
//! body changed too, from the commit that removed it: the one name that replaced the old one on
//! most of that commit's changed lines, when the tree defines it now (STALE 80). A definition
//! renamed in code that still gives the thing its old name as a string (`TimeDefinition =
//! ScalarDefinition(name="Time")`: a GraphQL, serialised or registered name) is the same thing
//! by the name the memory uses: VALID 75, at that line. Several new definitions as alike as
//! the best (enum members renamed together) are told apart by the commit's patch; when it
//! cannot, the verdict is AMBIGUOUS 50 and names them. The definition's file may have moved
//! after the rename: its history is read at the old path, its text at the new one.
//!
//! "Moved to another file" without a git record of the old definition means: the only same-named
//! definition elsewhere, or, among several, the only one sharing the most leading folders with the
//! claimed file (at least one). The candidates are the identifier index's files mentioning the
//! name, parsed nearest folder first; the first level with a definition decides
//! (`RepoIndex::unique_def`, see `crate::index`).

use std::sync::Arc;

use memval_proto::{Outcome, Since, UnixSeconds, Verdict};

use crate::confine::RepoRoot;
use crate::similar::{body_similarity, name_similarity};
use crate::symbols::{definitions, Def, Lang};

use super::common::{checked, identifiers_contain, list, short, slice_lines};
use super::history::since_of;
use super::respelled::name_words;
use super::symbol_name::SymbolName;
use super::Checker;

/// Likeness within which two renamed candidates are tied: the body cannot tell them apart.
const TIED: f64 = 0.02;

/// How many of a file's newest versions are read for the last one that defined a name (when a
/// memory without a date names it).
const MAX_VERSIONS_WALKED: usize = 64;

/// Of `versions` (commits that changed `file`, oldest first), the newest whose text `holds`,
/// among the last [`MAX_VERSIONS_WALKED`].
fn last_defining(
    git: &memval_git::GitRepo,
    versions: &[(String, UnixSeconds)],
    file: &str,
    holds: impl Fn(&Arc<str>) -> bool,
) -> Option<usize> {
    let first = versions.len().saturating_sub(MAX_VERSIONS_WALKED);
    (first..versions.len()).rev().find(|&i| git.show(&versions[i].0, file).is_some_and(|t| holds(&t)))
}

/// The line of `def`'s body in `text` that holds `name` as a string literal (`"Time"`,
/// `'Time'`), if one does.
fn quoted_in(text: &str, def: &Def, name: &str) -> Option<u32> {
    let body = slice_lines(text, def.line, def.end_line);
    let quoted = [format!("\"{name}\""), format!("'{name}'")];
    let at = body.lines().position(|l| quoted.iter().any(|q| l.contains(q.as_str())))?;
    Some(def.line + u32::try_from(at).ok()?)
}

impl Checker<'_> {
    /// The file's old text that still defined `sym`: as of the memory's date when that
    /// version has the definition; otherwise (a memory without a date, or one written after
    /// the change) the version just before the last commit that changed how often the name
    /// occurs in the file (`git log -S`), which is the commit that removed or renamed it.
    pub(super) fn old_text_defining(
        &self,
        sym: &SymbolName,
        raw: &str,
        path: &str,
        since: Option<UnixSeconds>,
    ) -> Option<Arc<str>> {
        let defines = |text: &str| definitions(Lang::of(raw), text).iter().any(|d| sym.matches(raw, d));
        if let Some(old) = self.changed_old_text(raw, path, since).filter(|t| defines(t)) {
            return Some(old);
        }
        let git = self.git?;
        let file = RepoRoot::normalise(raw).ok()?;
        // A failed search is said where the verdict is made ([`Self::history_search_failure`]).
        let commit = git.last_change_of(&file, &sym.name).ok()??;
        let old = git.show(&format!("{commit}^"), &file)?;
        let unchanged = self.index.read_text(path).is_some_and(|now| now == old);
        (!unchanged && defines(&old)).then_some(old)
    }

    /// The commit that renamed or removed `sym` from the memory's file, with its date: the first
    /// after the memory's date whose version no longer defines it; for a memory without a date,
    /// the last commit that changed how often the name occurs there.
    pub(super) fn name_changed_in(&self, sym: &SymbolName, raw: &str, since: Option<UnixSeconds>) -> Option<Since> {
        let git = self.git?;
        let file = RepoRoot::normalise(raw).ok()?;
        let lang = Lang::of(raw);
        let defines = |text: &str| definitions(lang, text).iter().any(|d| sym.matches(raw, d));
        if since.is_some() {
            return self.first_change_losing(&file, since, defines);
        }
        // Without a date: the commit after the newest version that defined it.
        let versions = git.commits_changing(&file, None).ok()?;
        if let Some(at) = last_defining(git, &versions, &file, |text| defines(text)) {
            return versions.get(at + 1).map(|(commit, date)| Since { commit: commit.clone(), date: *date });
        }
        let commit = git.last_change_of(&file, &sym.name).ok()??;
        since_of(git, &commit)
    }

    /// Why the history search for `sym` in the memory's file failed, when it did (the answer
    /// is kept by [`GitRepo::last_change_of`], so asking again costs nothing when it worked).
    pub(super) fn history_search_failure(&self, sym: &SymbolName, raw: &str) -> Option<String> {
        let file = RepoRoot::normalise(raw).ok()?;
        self.git?.last_change_of(&file, &sym.name).err().map(|e| e.to_string())
    }

    /// The definition of `sym` in the file the memory named, as it was at the memory's date,
    /// with its text.
    pub(super) fn old_definition(
        &self,
        sym: &SymbolName,
        raw: &str,
        path: &str,
        since: Option<UnixSeconds>,
    ) -> Option<(Def, String)> {
        let text = self.old_text_defining(sym, raw, path, since)?;
        let def = definitions(Lang::of(raw), &text).into_iter().find(|d| sym.matches(raw, d))?;
        let body = slice_lines(&text, def.line, def.end_line);
        Some((def, body))
    }

    /// Where `sym` went when it is no longer in `path`: the same-named definition elsewhere
    /// of the same kind whose body is most like the old one (or the only candidate).
    pub(super) fn moved_definition(
        &self,
        sym: &SymbolName,
        path: &str,
        old: Option<&(Def, String)>,
    ) -> Option<(String, u32)> {
        let Some((old_def, old_body)) = old else {
            return self.unique_def_elsewhere(sym, Some(path));
        };
        let mut scored: Vec<(f64, String, u32)> = self
            .index
            .defs_named(&sym.name)
            .filter(|(f, d)| f.path != path && sym.matches(&f.path, d) && d.kind == old_def.kind)
            .map(|(f, d)| {
                let body =
                    self.index.read_text(&f.path).map(|t| slice_lines(&t, d.line, d.end_line)).unwrap_or_default();
                (body_similarity(old_body, &body, &[&sym.name]), f.path.clone(), d.line)
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        match scored.as_slice() {
            [] => None,
            [(_, p, l)] => Some((p.clone(), *l)),
            [(best, p, l), (second, ..), ..] if best > second => Some((p.clone(), *l)),
            _ => self.unique_def_elsewhere(sym, Some(path)),
        }
    }

    /// `sym` renamed by substitution in the commit that removed it (`at`): one new name took
    /// its place on most of the lines that lost it, and the tree defines that name now.
    fn substituted(&self, sym: &SymbolName, raw: &str, old_line: u32, at: &Since) -> Option<Outcome> {
        let found = self.git?.substitution(&at.commit, &sym.name)?;
        let (file, def) = self.index.defs_named(&found.name).next()?;
        Some(checked(
            Verdict::Stale,
            80,
            format!(
                "{}:{} — {} was renamed to {} in {} (it replaced the old name on {} of the {} changed lines that held it; git: defined at {raw}:{old_line} when the memory was written)",
                file.path,
                def.line,
                sym.display(),
                found.name,
                &at.commit[..at.commit.len().min(12)],
                found.votes,
                found.lines
            ),
            Some(found.name.clone()),
        ))
    }

    /// Whether `commit` brought the identifier `name` into the file (at one of `paths`): absent
    /// from it at the commit's parent, present after.
    fn brought_in(&self, commit: &str, paths: &[&str], name: &str) -> bool {
        let Some(git) = self.git else { return false };
        paths.iter().any(|path| {
            git.show(commit, path).is_some_and(|after| identifiers_contain(&after, name))
                && !git.show(&format!("{commit}^"), path).is_some_and(|before| identifiers_contain(&before, name))
        })
    }

    pub(super) fn find_rename(
        &self,
        sym: &SymbolName,
        raw: &str,
        path: &str,
        since: Option<UnixSeconds>,
    ) -> Option<Outcome> {
        let current = self.index.read_text(path)?;
        let now_defs = self.defs_in(path);
        if let Some(old_text) = self.old_text_defining(sym, raw, path, since) {
            let lang = Lang::of(raw);
            let old_defs = definitions(lang, &old_text);
            let old = old_defs.iter().find(|d| sym.matches(raw, d))?;
            let old_body = slice_lines(&old_text, old.line, old.end_line);
            let old_names: Vec<&str> = old_defs.iter().map(|d| &*d.name).collect();
            let scored: Vec<(f64, &Def)> = now_defs
                .iter()
                .filter(|d| !old_names.contains(&&*d.name) && d.kind == old.kind)
                .map(|d| {
                    let body = slice_lines(&current, d.line, d.end_line);
                    (body_similarity(&old_body, &body, &[&sym.name, &d.name]), d)
                })
                .collect();
            let best = scored.iter().copied().max_by(|a, b| a.0.total_cmp(&b.0));
            // A one-line definition (a field, a struct tag's key, a constant) has too little body
            // to tell a rename from a neighbour of the same shape: the bar is higher, and a tag's
            // key, which is its field's line, is never matched by body (the substitution below
            // reads the commit instead).
            let bar = if old.kind == "tag" {
                f64::INFINITY
            } else if old.line == old.end_line {
                0.8
            } else {
                0.5
            };
            // ... and a rename is made in one commit: the one that took the old name away must
            // have brought the new one into the file (mikro-orm's `propagateToOneOwner: boolean;`
            // is not `colors: boolean;`, a field added years apart). A one-line definition needs
            // that commit found; a longer one is judged by its body when it is not.
            let one_line = old.line == old.end_line;
            // A longer definition too, when history names the commit: typeorm's `reIndex`,
            // removed in 2023 with the driver's deprecated calls, is no rename of a
            // `countDocuments` added to the file later, however alike two thin wrappers' bodies
            // are. The file may have moved before the rename (`src/cache.rs` → `src/store.rs`,
            // then `evict_oldest` → `evict_first`): the commit that took the name out of the
            // file where it is now counts too.
            let changed = self.name_changed_in(sym, raw, since);
            let changed_here =
                best.as_ref().filter(|_| path != raw).and_then(|_| self.name_changed_in(sym, path, since));
            let came_then = |def: &Def| {
                let brought = |at: &Since| self.brought_in(&at.commit, &[path, raw], &def.name);
                match (changed.as_ref(), changed_here.as_ref()) {
                    (None, None) => !one_line,
                    (there, here) => there.is_some_and(brought) || here.is_some_and(brought),
                }
            };
            let best = best.filter(|(_, def)| came_then(def));
            // Other definitions as alike as the best, come the same way (enum members renamed
            // together: `agent_tools = "agent_tools"` is as like `tools = "tools"` as
            // `template_variables = ...`): the body cannot tell which took its place; the
            // commit's patch may ([`GitRepo::substitution`]), else the verdict says it could not.
            let best = match best {
                Some((top, def)) if top >= bar => {
                    let tied: Vec<&Def> = std::iter::once(def)
                        .chain(
                            scored
                                .iter()
                                .filter(|(s, d)| d.name != def.name && *s >= bar && top - s < TIED && came_then(d))
                                .map(|(_, d)| *d),
                        )
                        .collect();
                    if tied.len() == 1 {
                        Some((top, def))
                    } else {
                        let substituted = changed
                            .as_ref()
                            .and_then(|at| self.git?.substitution(&at.commit, &sym.name))
                            .and_then(|found| tied.iter().find(|d| *d.name == *found.name).copied());
                        match substituted {
                            Some(def) => Some((top, def)),
                            None => {
                                let names: Vec<String> = tied.iter().map(|d| d.name.to_string()).collect();
                                return Some(
                                    checked(
                                        Verdict::Ambiguous,
                                        50,
                                        format!(
                                            "{path}:{} — {} is gone from here; {} definitions as alike as each other came with its going ({}): renamed to one of them, which one the code does not say",
                                            def.line,
                                            sym.display(),
                                            tied.len(),
                                            list(&names)
                                        ),
                                        None,
                                    )
                                    .since(changed),
                                );
                            }
                        }
                    }
                }
                other => other,
            };
            // The code renamed its definition but still gives it the old name as a string
            // (`TimeDefinition = ScalarDefinition(name="Time", ...)`, a serialised or registered
            // name): the thing the memory names is still there by that name.
            if let Some((_, def)) = best.filter(|(similarity, _)| *similarity >= bar) {
                if let Some(at) = quoted_in(&current, def, &sym.name) {
                    return Some(checked(
                        Verdict::Valid,
                        75,
                        format!(
                            "{path}:{at} — {} is still the name {} gives it (\"{}\"); only the code's name for the definition changed",
                            sym.display(),
                            def.name,
                            sym.name
                        ),
                        None,
                    ));
                }
            }
            return Some(match best {
                Some((similarity, def)) if similarity >= bar => checked(
                    Verdict::Stale,
                    (60.0 + 35.0 * similarity).round() as u8,
                    format!(
                        "{path}:{} — {} was renamed to {} (same body, {:.0}% alike; git: defined at {raw}:{} when the memory was written)",
                        def.line,
                        sym.display(),
                        def.name,
                        similarity * 100.0,
                        old.line
                    ),
                    Some(def.name.to_string()),
                )
                .since(changed),
                _ => {
                    if let Some(outcome) = changed.as_ref().and_then(|at| self.substituted(sym, raw, old.line, at)) {
                        return Some(outcome.since(changed));
                    }
                    // freya's `NativeRouter` → `NativeRouterExt`: the commit that took the name
                    // away brought in the one definition here that holds it with an affix,
                    // whatever its kind now (a component made an extension trait), or that
                    // it holds with one taken off (`pollingIntervalInMillis` → `pollingInterval`,
                    // the unit moved into the type).
                    if let Some(at) = changed.as_ref() {
                        let affixed: Vec<_> = now_defs
                            .iter()
                            .filter(|d| name_affixed(&sym.name, &d.name) || name_affixed(&d.name, &sym.name))
                            .filter(|d| self.brought_in(&at.commit, &[path, raw], &d.name))
                            .collect();
                        if let [def] = affixed[..] {
                            return Some(
                                checked(
                                    Verdict::Stale,
                                    70,
                                    format!(
                                        "{path}:{} — {} was removed in {}, which brought in {} here: its name with a prefix or suffix added or taken off, renamed and reshaped",
                                        def.line,
                                        sym.display(),
                                        short(&at.commit),
                                        def.name
                                    ),
                                    Some(def.name.to_string()),
                                )
                                .since(changed),
                            );
                        }
                    }
                    checked(
                        Verdict::Contradicted,
                        90,
                        format!("{path} — {} was defined at {raw}:{} when the memory was written and has been removed", sym.display(), old.line),
                        None,
                    )
                    .since(changed)
                }
            });
        }
        if self.git.is_some() {
            return None;
        }
        // No history: a close name of the same kind in the same file.
        let best = now_defs
            .iter()
            .map(|d| (name_similarity(&sym.name, &d.name), d))
            .filter(|(s, _)| *s >= 0.7)
            .max_by(|a, b| a.0.total_cmp(&b.0))?;
        Some(checked(
            Verdict::Stale,
            50,
            format!(
                "{path}:{} — no {} here; {} has a close name (no history to confirm a rename)",
                best.1.line,
                sym.display(),
                best.1.name
            ),
            Some(best.1.name.to_string()),
        ))
    }
}

/// Whether `new` is `old` with one or two words added at a word boundary: before it, after it
/// or between two of its words (`NativeRouter` → `NativeRouterExt`, `Config` → `AppConfig`,
/// `parse` → `parse_all`, `STATUS_CHOICE_NA` → `STATUS_CHOICE_WITH_NA`); a name of four
/// letters or fewer is too short to tell.
fn name_affixed(old: &str, new: &str) -> bool {
    if old.len() < 5 || new.len() <= old.len() {
        return false;
    }
    let (old, new) = (name_words(old), name_words(new));
    if old.is_empty() || new.len() <= old.len() || new.len() - old.len() > 2 {
        return false;
    }
    let added = new.len() - old.len();
    (0..=old.len()).any(|at| new[..at] == old[..at] && new[at + added..] == old[at..])
}

#[cfg(test)]
mod tests {
    use super::name_affixed;

    #[test]
    fn a_name_with_a_word_added_at_a_boundary() {
        assert!(name_affixed("NativeRouter", "NativeRouterExt"));
        assert!(name_affixed("Config", "AppConfig"));
        assert!(name_affixed("parse", "parse_all"));
        assert!(name_affixed("parse", "try_parse"));
        assert!(name_affixed("STATUS_CHOICE_NA", "STATUS_CHOICE_WITH_NA"), "a word between two");
        assert!(name_affixed("pollingInterval", "pollingIntervalInMillis"), "two words");
        assert!(!name_affixed("parse", "parse_all_of_it"), "three words");
        assert!(!name_affixed("STATUS_CHOICE_NA", "STATUS_OTHER_NA"), "a word changed, none added");
        assert!(!name_affixed("parse", "parser"), "no word boundary");
        assert!(!name_affixed("parse", "reparse"), "no word boundary");
        assert!(!name_affixed("Item", "ItemX"), "too short a name to tell");
        assert!(!name_affixed("Router", "Router"));
    }
}
