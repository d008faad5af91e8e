//! Symbols named without a file, and where else a symbol missing from its file is defined.
//!
//! A symbol named without a file is:
//! - **VALID** when it is defined somewhere, or defined under a qualifier nothing in the repo
//!   defines (`memval_proto::Memory`, `require.NoError`: a crate, package, alias or variable
//!   memval cannot resolve; 60); used by the repo's code but defined outside it (a
//!   dependency's or the language's: 70, with the first use); or, with history, never a name of
//!   the code but one that tests, strings or config use (an env var read from a string: 60, "a
//!   term of the project", where it is named).
//!   A member named under a type that does not define it but inherits it (`Pipeline.loads`,
//!   `loads` defined on `PipelineBase`, a base of `Pipeline`; an interface it embeds) is VALID
//!   (80), see `inherits`.
//! - **STALE** when it exists only under another type of the repo (`Type::name`) and, with
//!   history, git saw it defined under the type it is named under (else not checked:
//!   `Assert.True` of xUnit named in an MSTest repository's notes never left `Assert`); or renamed: found from the
//!   newest commit that changed how often the name occurs in the code (since the memory's date,
//!   then before it), whose files' new definitions are compared with the old one by body.
//! - **CONTRADICTED** when git shows the commit that removed its last definition (before the
//!   memory's date too: a memory written after the removal was wrong when written); when it was
//!   never a definition of the code (commits that only changed its uses, comments or strings do
//!   not make it one) and nothing in the repository has it at all (60, the memory's invention);
//!   and, without history, whenever it is neither defined nor used.
//! - **not checked** when its qualifier is a function of the repo (`Chain.Extract`): the member
//!   is one of what the function returns, a type the text does not give; and when it was never
//!   a name of the code but is one edit from one the code defines: a misspelling as often as
//!   another thing's name (about one in five was real on labelled repositories), named in the
//!   reason (the same letters in another case, `TestCliRunner` for `TestCLIRunner`, stays
//!   CONTRADICTED at 60, "a misspelling?"); an environment variable spelling a defined setting (`PYTH_PRO_URL` for
//!   `pyth_pro_url`) says so.
//! - **not checked** (drift needs a past), with history, when it was never a name of the code
//!   and two or more names the code defines end with it (`ObjectRenderer` for
//!   `HtmlObjectRenderer`, ...: a family's name, `family.rs`), or only prose names it (the memory itself, other docs): a library's, another project's or
//!   an example name, more often than the repository's.
//!
//! History is searched only when no code uses the name, and the search is bounded in work, not
//! time: the newest 2,000 commits of `HEAD` (`memval_git::NAME_SEARCH_COMMITS`), read once per
//! checkout for every identifier (`memval_git`'s name log); a name that is not one identifier
//! runs a `git log -S` of its own over the same commits, at most 48 distinct such names per
//! memory, in the memory's own order (`context::NAME_SEARCHES_PER_MEMORY`). A name past either
//! bound is **not checked**, with the reason: whether it was ever the code's is not known, and a
//! verdict must not depend on how busy the machine was or on which claims came first.

use memval_git::GitRepo;
use memval_proto::{Outcome, UnixSeconds, Verdict};

use crate::index::{FileInfo, Unique};
use crate::similar::shared_dirs;
use crate::symbols::{definitions, Lang};
use crate::usage;

use super::common::{checked, identifiers_contain, is_prose, list, short};
use super::config::{config_assignments, is_config_file};
use super::history::since_of;
use super::inherits::inherits;
use super::symbol_name::SymbolName;
use super::Checker;

/// The confidence of "not defined anywhere, its last definition removed in X" when no rename
/// was found: the commit may have renamed, inlined or split it in ways a rename search does not
/// see (on the labelled real repositories, the verdict's kind was right in about one case of
/// three), so it stays a finding below the confidence a CI gate acts on (80).
const REMOVED_NAME: u8 = 70;

/// Kinds of definition that are functions or methods, not types.
pub(super) const FUNCTION_KINDS: &[&str] = &["fn", "func", "function", "def", "method"];

/// What history says of a name no file of the repo defines now.
enum Removal {
    /// Its last definition was removed (or renamed) by a commit: the verdict that follows.
    Found(Outcome),
    /// Git searched, and no commit since the memory's date (or ever, for a memory without
    /// one) changed how often the repo's code names it: it was not a name of the code when
    /// the memory was written either.
    NeverInCode,
    /// Its last definition git saw was in a dependency's vendored copy (`vendor/`,
    /// `third_party/`, `node_modules/`), which this commit removed: a library's name.
    Vendored(String),
    /// Commits changed how often the code names it, and none removed a definition: the code
    /// used it (a local, a parameter, another library's name) until the newest of them.
    UsesRemoved(String),
    /// Git was not asked, or could not answer within its bound in commits, with why: whether
    /// the name was ever the code's is not known, so the claim is not checked.
    Unsearched(String),
}

/// How often the repository defines a name: [`Checker::defs_anywhere`].
pub(super) enum Defined {
    Nowhere,
    /// The one definition: its file and line.
    Once(String, u32),
    /// Two or more; the search stopped at the second.
    Several,
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
            // `ioQueue` (line 738), `error.isTaskCancelled` (line 354): a function's, a
            // variable's or a member's name with a line and no file is as often where it is used
            // (a call, a check) as where it is defined.
            if !found.is_empty() && sym.use_like() {
                return self.used_at_line(sym, want);
            }
            if let [(path, at)] = found.as_slice() {
                return checked(
                    Verdict::Stale,
                    80,
                    format!("{path}:{at} — {} is defined here, not at line {want}", sym.display()),
                    Some(format!("{path}:{at}")),
                );
            }
            // Several definitions and none on the memory's line: the name is there, the line
            // is not, and which definition the memory meant is not known.
            if let [(path, at), ..] = found.as_slice() {
                return checked(
                    Verdict::Ambiguous,
                    50,
                    format!(
                        "{path}:{at} — {} is defined in {} places, none at line {want}: {}",
                        sym.display(),
                        found.len(),
                        list(&found.iter().map(|(p, l)| format!("{p}:{l}")).collect::<Vec<_>>())
                    ),
                    None,
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

    /// A use-like name given with a line and no file, defined elsewhere: VALID when a file
    /// that names it has it at that line; else not checked, since which file's line the memory
    /// meant is not known.
    fn used_at_line(&self, sym: &SymbolName, want: u32) -> Outcome {
        let mut files: Vec<&FileInfo> = self.index.files_with_token(&sym.name).filter(|f| !is_prose(&f.path)).collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let at_line = files.into_iter().find(|f| {
            self.index
                .read_text(&f.path)
                .and_then(|t| t.lines().nth(want.saturating_sub(1) as usize).map(|l| identifiers_contain(l, &sym.name)))
                .unwrap_or(false)
        });
        match at_line {
            Some(f) => checked(
                Verdict::Valid,
                70,
                format!("{}:{want} — {} is used here (the line of a use, not of its definition)", f.path, sym.display()),
                None,
            ),
            None => Outcome::NotChecked {
                reason: format!(
                    "{} is defined in the repo, but not at line {want}; a function's or a member's name with a line and no file is as often the line of a use in a file the memory does not name: not checked",
                    sym.display()
                ),
            },
        }
    }

    /// A symbol no file of the repo defines now: a qualifier that belongs to another type, a
    /// definition history shows removed or renamed, a name the code uses from a dependency, a
    /// term of the project, or a name the memory got wrong.
    fn defined_nowhere(&self, sym: &SymbolName, since: Option<UnixSeconds>) -> Outcome {
        if let Some(qualifier) = &sym.qualifier {
            let mut other: Vec<(String, u32, String)> = self
                .index
                .defs_named(&sym.name)
                .map(|(f, d)| {
                    (
                        f.path.clone(),
                        d.line,
                        d.container.as_deref().map_or_else(|| sym.name.clone(), |c| format!("{c}::{}", sym.name)),
                    )
                })
                .collect();
            other.sort();
            // A qualifier nothing in the repo defines (a crate or package name, an import
            // alias, a variable: `memval_proto::Memory`, `require.NoError`) is a namespace
            // memval cannot resolve, not another type: the name defined is what the memory
            // names.
            if self.index.defs_named(qualifier).next().is_none() {
                if let Some((path, line, full)) = other.first() {
                    return checked(
                        Verdict::Valid,
                        60,
                        format!(
                            "{path}:{line} — {full} is defined here ({qualifier} is not a type or module of the repo: a package, an alias or a variable, not checked)"
                        ),
                        None,
                    );
                }
            }
            // `Pipeline.loads` with `loads` defined on `PipelineBase`, which `Pipeline` extends
            // (or an interface it embeds): the member is the qualifier's, inherited.
            let inherited = other.iter().find(|(_, _, full)| {
                full.rsplit_once("::").is_some_and(|(c, _)| c != qualifier && inherits(self.index, qualifier, c))
            });
            if let Some((path, line, full)) = inherited {
                let base = full.rsplit_once("::").map_or("", |(c, _)| c);
                return checked(
                    Verdict::Valid,
                    80,
                    format!(
                        "{path}:{line} — {full} is defined here, and {qualifier} gets it from {base}, one of its bases"
                    ),
                    None,
                );
            }
            // `Chain.Extract` with `Chain` a function: the member is one of what it returns,
            // whose type the text does not give; another type's member is no successor.
            let mut qualifier_defs = self.index.defs_named(qualifier).map(|(_, d)| d.kind).peekable();
            if qualifier_defs.peek().is_some() && qualifier_defs.all(|k| FUNCTION_KINDS.contains(&k)) {
                return Outcome::NotChecked {
                    reason: format!(
                        "{qualifier} is a function of the repo, so {} is a member of what it returns, a type the text does not name: not checked",
                        sym.display()
                    ),
                };
            }
            let containers: Vec<&String> = other.iter().map(|(_, _, full)| full).filter(|f| f.contains("::")).collect();
            // A lower-case qualifier is a variable or a property (`location.pathname`,
            // `result.errors`): its type is not in the text, so another type's member of that
            // name is no successor.
            let variable = qualifier.starts_with(|c: char| c.is_lowercase());
            if let ([only], false) = (containers.as_slice(), variable) {
                if let Some(unread) = self.never_a_member(sym, qualifier, only) {
                    return unread;
                }
                return checked(
                    Verdict::Stale,
                    60,
                    format!(". — {} is not defined; {only} is", sym.display()),
                    Some((*only).clone()),
                );
            }
        }
        // Only names the repo's code no longer uses (a name still used is more often a
        // library's than a removed one of the repo's own). Docs, tests, comments,
        // strings and the notes file itself do not count as use.
        if usage::used_in_code(self.index, &sym.name) {
            // The code still uses the name; what defines it is outside the repo (a
            // dependency, the language, a generated file). The memory's point, that
            // this is a name the code works with, holds.
            let first = usage::first_use_in_code(self.index, &sym.name);
            let at = first.as_ref().map(|(path, line)| format!("{path}:{line}")).unwrap_or_else(|| ".".into());
            // In a language memval reads by guesses only, the definition may well be there.
            let unread = first.as_ref().filter(|(path, _)| Lang::of(path).guessed()).map(|(path, _)| {
                let ext = path.rsplit_once('.').map_or("", |(_, ext)| ext);
                format!("memval reads no grammar of .{ext} files, so its definition may be among them")
            });
            let whose =
                unread.unwrap_or_else(|| "its definition is not in the repo (a dependency's or the language's)".into());
            return checked(
                Verdict::Valid,
                70,
                format!("{at} — {} is used by the repo's code; {whose}", sym.display()),
                None,
            );
        }
        let Some(git) = self.git else { return self.absent_without_history(sym) };
        // Drift needs a past: what history says since the memory's date, then before it (a
        // definition removed before the memory was last written is still one it got wrong).
        let mut removal = self.removal_in_history(git, sym, since);
        if since.is_some() && matches!(removal, Removal::NeverInCode) {
            removal = self.removal_in_history(git, sym, None);
        }
        match removal {
            // One or two letters (Vue's `h()`, a test's `t`) whose last definition git saw
            // removed: some file once defined that letter, which says nothing of the memory's.
            Removal::Found(Outcome::Checked { verdict: Verdict::Contradicted, evidence, .. })
                if sym.name.chars().count() <= 2 =>
            {
                Outcome::NotChecked {
                    reason: format!(
                        "{} is too short to tell from another library's function or a local name ({}): not checked",
                        sym.display(),
                        evidence.trim_start_matches(". — ")
                    ),
                }
            }
            Removal::Found(outcome) => self.unless_given_as_a_string(sym, outcome),
            Removal::Unsearched(why) => Outcome::NotChecked {
                reason: format!("{} is neither defined nor used by the repo's code now, and {why}", sym.display()),
            },
            Removal::NeverInCode => self.never_in_code(sym, None),
            Removal::UsesRemoved(commit) => self.never_in_code(sym, Some((git, &commit))),
            Removal::Vendored(commit) => self.vendored_removed(sym, &commit),
        }
    }

    /// `token_exchange`, which history shows renamed or removed as a definition, while the code
    /// keeps it as `StrategyTypeTokenExchange = "token_exchange"`: the name is the code's, as
    /// data (a strategy, a serialised field), and the definition history saw (a field renamed
    /// in another package) is not what the memory names. VALID 70, at that line.
    fn unless_given_as_a_string(&self, sym: &SymbolName, found: Outcome) -> Outcome {
        let drift = matches!(found, Outcome::Checked { verdict: Verdict::Stale | Verdict::Contradicted, .. });
        if !drift || sym.qualifier.is_some() {
            return found;
        }
        if let Some((path, line)) = usage::given_as_a_string(self.index, &sym.name) {
            return checked(
                Verdict::Valid,
                70,
                format!(
                    "{path}:{line} — the code gives {} as a string value (a constant, a key, a tag, an environment variable it reads or a hook it fires): a name it keeps as data",
                    sym.display()
                ),
                None,
            );
        }
        match self.kept_as_config_key(&sym.name) {
            Some((path, line)) => checked(
                Verdict::Valid,
                65,
                format!(
                    "{path}:{line} — {} is a key of this config file: an option the project still reads, though the code that defined it is gone from the repo",
                    sym.display()
                ),
                None,
            ),
            None => found,
        }
    }

    /// The first config file (JSON, YAML, TOML, ..., in path order) that has `name` as a key,
    /// and the key's line. Only a name of two words or more (`initialYangsPaths`,
    /// `max_retries`): a one-word key (`build`, `name`) is in every config file.
    fn kept_as_config_key(&self, name: &str) -> Option<(String, u32)> {
        let words = name.len() >= 6
            && (name.contains('_') || name.chars().skip(1).any(|c| c.is_ascii_uppercase()))
            && name.chars().any(|c| c.is_ascii_lowercase());
        if !words {
            return None;
        }
        let mut files: Vec<&str> = self
            .index
            .files_with_token(name)
            .map(|f| f.path.as_str())
            .filter(|p| is_config_file(p) && !is_prose(p))
            .collect();
        files.sort_unstable();
        files.into_iter().find_map(|path| {
            let text = self.index.read_text(path)?;
            let (line, _) = config_assignments(&text, name).into_iter().next()?;
            Some((path.to_owned(), line))
        })
    }

    /// Drift needs a past: `X::m`, with `m` defined only under another type `Y`, moved there
    /// only if a file that defines `X` once defined `m` under it. With history, the newest
    /// commits that changed how often `m` occurs in those files are read at their parents: when
    /// none defined `X::m` there, the memory names another library's or project's member
    /// (xUnit's `Assert.True` in the notes of an MSTest repository, .NET's `File.Exists`), not
    /// one that left `X`: not checked, with why. `None`: it may have moved (git saw it there, or
    /// there is no history to ask).
    fn never_a_member(&self, sym: &SymbolName, qualifier: &str, other: &str) -> Option<Outcome> {
        let git = self.git?;
        let mut files: Vec<&str> = self.index.defs_named(qualifier).map(|(f, _)| f.path.as_str()).collect();
        files.sort_unstable();
        files.dedup();
        let why = match git.name_changes_in(&sym.name, &files) {
            Ok(Some(changes)) => {
                if changes.iter().any(|(commit, changed)| !defined_before(git, commit, changed, sym).is_empty()) {
                    return None;
                }
                format!("git never saw {} defined under {qualifier} in a file that defines {qualifier}", sym.name)
            }
            Ok(None) => format!(
                "the newest {} commits never changed {} in a file that defines {qualifier} (older history not read)",
                memval_git::NAME_SEARCH_COMMITS,
                sym.name
            ),
            Err(why) => format!("whether it was ever there is not known ({why})"),
        };
        Some(Outcome::NotChecked {
            reason: format!(
                "{} is not defined, and {why}: {other} is another type's member, not where it went (a library's or another project's name, more often than a move); not checked",
                sym.display()
            ),
        })
    }

    /// A name whose only definition git saw was a dependency's vendored copy, removed in
    /// `commit` (keda's `vendor/` went, `assert.NotNil` with it): the memory names a library's
    /// name, which the vendored copy's removal does not take from the project. Still named by
    /// tests, strings or config: VALID as a term the project uses; otherwise not checked.
    fn vendored_removed(&self, sym: &SymbolName, commit: &str) -> Outcome {
        if let Some((path, line)) = self.first_named_outside_prose(&sym.name) {
            return checked(
                Verdict::Valid,
                60,
                format!(
                    "{path}:{line} — {} is named here; the only definition git saw was a dependency's vendored copy (removed in {}): a library's name the project uses",
                    sym.display(),
                    short(commit)
                ),
                None,
            );
        }
        Outcome::NotChecked {
            reason: format!(
                "{} is not defined, and the only definition git saw was a dependency's vendored copy (removed in {}): a library's name, not the repo's; not checked",
                sym.display(),
                short(commit)
            ),
        }
    }

    /// A name no code of the repo defines or uses, and that git never saw defined in its code:
    /// not drift of a definition. One or two letters are not checked. A close misspelling of a
    /// name the code defines is reported as that; a term tests, strings or config use (an env
    /// var read from a string) is the project's; a name only prose has (the memory itself,
    /// other docs) is not read as one of the code's; a name nothing in the repository has at
    /// all is the memory's invention. `used_until`: the commit that took the last of the code's
    /// uses of it, when the code once used it (a local, a parameter, another library's name):
    /// the evidence says so, and the invention becomes a name the code stopped using, since
    /// that commit. Where prose still names it, code that builds the name (an env var made from
    /// a prefix and a key) or a refactor that moved it out of sight is as likely as drift, so
    /// it stays not checked.
    fn never_in_code(&self, sym: &SymbolName, used_until: Option<(&GitRepo, &str)>) -> Outcome {
        let shown = sym.display();
        let past = match used_until {
            Some((_, commit)) => format!(
                "the repo's code no longer names it (its last uses went in {}) and git never saw it defined",
                short(commit)
            ),
            None => "it has never been a name of the repo's code (not now, not in git history)".to_owned(),
        };
        // `_tests` in "inside `_tests` modules", `_internal` of `*_internal`: never a name of
        // the code, but what names of the code end or begin with, a naming pattern.
        if sym.qualifier.is_none() {
            if let Some(pattern) = self.affix_of_names(&sym.name) {
                return pattern;
            }
        }
        // One or two letters (`f`, `F()`, `Q`, the `X.Y` of `vX.Y.Z`) say too little to be
        // told from a variable, a macro of the platform or a placeholder.
        if sym.name.chars().count() <= 2 {
            return Outcome::NotChecked {
                reason: format!(
                    "{shown} is too short to tell from a placeholder, a local variable or a platform's macro, and {past}: not checked"
                ),
            };
        }
        if let Some((path, line)) = self.first_named_outside_prose(&sym.name) {
            return checked(
                Verdict::Valid,
                60,
                format!(
                    "{path}:{line} — {shown} is named here: a term of the project (tests, strings or config), not a definition of its code"
                ),
                None,
            );
        }
        // `ObjectRenderer` in docs about `HtmlObjectRenderer`, `IMarkdownObjectRenderer`, ...:
        // the family's name, not an invention or a misspelling of one of them.
        if let Some(members) = self.family_of(&sym.name) {
            return Outcome::NotChecked {
                reason: format!(
                    "{shown}: {past}; the code defines {members}, which end with it: read as the name of that family, not checked"
                ),
            };
        }
        if let Some((near, path, line)) = self.defined_near_miss(&sym.name) {
            if super::respelled::restyled(&sym.name, &near) {
                return Outcome::NotChecked {
                    reason: format!(
                        "{shown}: {past}; {path}:{line} defines {near}, the same words in the code's own style: the name of the API it mirrors (another language's or library's spelling), not checked"
                    ),
                };
            }
            if super::respelled::env_spelling(&sym.name, &near) {
                return Outcome::NotChecked {
                    reason: format!(
                        "{shown}: {past}; {path}:{line} defines {near}, the same words as an environment variable spells them: the setting read from it (a CLI or settings library maps one to the other), not checked"
                    ),
                };
            }
            // The same letters in another case (`TestCliRunner` for `TestCLIRunner`): a
            // misspelling (on the labelled real repositories, each such verdict was real).
            if near.eq_ignore_ascii_case(&sym.name) {
                return checked(
                    Verdict::Contradicted,
                    60,
                    format!("{path}:{line} — {shown}: {past}; {near}, the same letters in another case, is defined here: a misspelling?"),
                    None,
                );
            }
            // One edit from a defined name is as often another thing's name (a field, a
            // library's, an example's, a naming pattern's `_tests`) as a misspelling: on the
            // labelled real repositories, about one such verdict in five was a real problem.
            return Outcome::NotChecked {
                reason: format!(
                    "{shown}: {past}; {path}:{line} defines {near}, one edit away: a misspelling of it, or the name of something else (a field, a library's or an example's name); not checked"
                ),
            };
        }
        if self.index.mentions(&sym.name) {
            return Outcome::NotChecked {
                reason: format!(
                    "{shown}: {past}, and only prose names it: not read as a reference to the code (a library's, another project's or an example name)"
                ),
            };
        }
        match used_until {
            Some((git, commit)) => checked(
                Verdict::Contradicted,
                60,
                self.with_history_note(
                    git,
                    format!(
                        ". — {shown} is no longer named by the repo's code: its last uses went in {} (git never saw it defined here: a local name, a parameter or another library's)",
                        short(commit)
                    ),
                ),
                None,
            )
            .since(since_of(git, commit)),
            None => checked(
                Verdict::Contradicted,
                60,
                format!(
                    ". — {shown} is not a name of this repository: no file has it and git never saw it in the code (invented, or another project's)"
                ),
                None,
            ),
        }
    }

    /// Without history: a name only prose has, or one nothing has.
    fn absent_without_history(&self, sym: &SymbolName) -> Outcome {
        if let Some(pattern) = self.affix_of_names(&sym.name).filter(|_| sym.qualifier.is_none()) {
            return pattern;
        }
        if self.index.mentions(&sym.name) {
            checked(
                Verdict::Contradicted,
                70,
                format!(
                    ". — {} is not defined and no code uses it (only docs, tests, comments or strings name it)",
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

    /// The one name the code defines that `name` misspells: the same letters in another case,
    /// or (for names of six characters or more) one edit away, two for ten or more. `None`
    /// when there is no such name or more than one.
    fn defined_near_miss(&self, name: &str) -> Option<(String, String, u32)> {
        let len = name.chars().count();
        if len < 6 {
            return None;
        }
        let edits = if len >= 10 { 2 } else { 1 };
        let mut found: Vec<(String, String, u32)> = Vec::new();
        for token in self.index.tokens() {
            let other = token.chars().count();
            if token == name || other.abs_diff(len) > edits || !crate::similar::within_edits(name, token, edits) {
                continue;
            }
            let mut defs: Vec<(String, u32)> =
                self.index.defs_named(token).map(|(f, d)| (f.path.clone(), d.line)).collect();
            defs.sort();
            if let Some((path, line)) = defs.into_iter().next() {
                found.push((token.to_owned(), path, line));
            }
            if found.len() > 1 {
                return None;
            }
        }
        found.pop()
    }

    /// The first file (by path) outside prose that names `name`, and the line. A setting's
    /// words for people (a CI step's `- name: Install Go`, a `description:`) are prose in a
    /// config file: a name found only there is not a term of the project.
    fn first_named_outside_prose(&self, name: &str) -> Option<(String, u32)> {
        let mut files: Vec<&FileInfo> = self.index.files_with_token(name).filter(|f| !is_prose(&f.path)).collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files.into_iter().find_map(|file| {
            let Some(text) = self.index.read_text(&file.path) else {
                return Some((file.path.clone(), 1));
            };
            let config = !super::user_file::is_code(&file.path);
            let line = text
                .lines()
                .position(|l| identifiers_contain(l, name) && !(config && words_for_people(l)))
                .map(|i| i as u32 + 1)?;
            Some((file.path.clone(), line))
        })
    }

    /// What history says of a name no file defines now: the commit that removed its last
    /// definition (and what replaced it), or that no commit since the memory's date changed
    /// how often the code names it, or that git was not asked.
    fn removal_in_history(&self, git: &GitRepo, sym: &SymbolName, since: Option<UnixSeconds>) -> Removal {
        if !memval_git::name_search_is_logged(&sym.name) && !self.context.take_search(&sym.name) {
            return Removal::Unsearched(format!(
                "history not searched for it: this memory already had {} names given without a file searched",
                super::context::NAME_SEARCHES_PER_MEMORY
            ));
        }
        let changes = match git.name_removed(&sym.name, since) {
            Ok(changes) => changes,
            Err(why) => return Removal::Unsearched(why),
        };
        if changes.is_empty() {
            // Behind a shallow or partial clone's edge the name may have been the code's.
            return match git.incomplete() {
                Some(why) => Removal::Unsearched(format!("history not searched for it: {why}")),
                None => Removal::NeverInCode,
            };
        }
        // Newest first: the first commit whose parent defined the name in a
        // file it changed removed (or renamed) its last definition; later
        // ones only touched uses of it.
        for (commit, before, files) in &changes {
            let defining = defined_before(git, commit, files, sym);
            if defining.is_empty() {
                continue;
            }
            if defining.iter().all(|f| vendored(f)) {
                return Removal::Vendored(commit.clone());
            }
            // Each file the commit changed, where it is now: a file moved after the rename
            // (OPC UA's builder extensions, renamed in July and moved by a layout change a
            // week later) is read at its new path, its history at the old one.
            let now: Vec<(&String, String)> = files
                .iter()
                .filter_map(|f| {
                    if self.index.file(f).is_some() {
                        return Some((f, f.clone()));
                    }
                    let trace = git.follow(f, Some(*before));
                    (trace.deleted_in.is_none() && !trace.renames.is_empty() && self.index.file(&trace.last).is_some())
                        .then_some((f, trace.last))
                })
                .collect();
            for (file, path) in &now {
                match self.find_rename(sym, file, path, Some(*before)) {
                    // Renamed, or renamed to one of several the code cannot tell apart.
                    Some(found @ Outcome::Checked { verdict: Verdict::Stale | Verdict::Ambiguous, .. }) => {
                        return Removal::Found(found.since(since_of(git, commit)));
                    }
                    // Renamed in code only: the definition still gives it the name.
                    Some(found @ Outcome::Checked { verdict: Verdict::Valid, .. }) => return Removal::Found(found),
                    _ => {}
                }
            }
            if let Some(moved_out) = self.left_for_package(git, commit, &defining, sym) {
                return Removal::Found(moved_out);
            }
            return Removal::Found(
                checked(
                    Verdict::Contradicted,
                    REMOVED_NAME,
                    self.with_history_note(
                        git,
                        format!(
                            ". — {} is not defined anywhere; git: its last definition was removed in {}",
                            sym.display(),
                            short(commit)
                        ),
                    ),
                    None,
                )
                .since(since_of(git, commit)),
            );
        }
        match changes.first() {
            Some((commit, _, _)) => Removal::UsesRemoved(commit.clone()),
            None => Removal::NeverInCode,
        }
    }

    /// The one definition of `sym` outside `except`, or the best one in `near`'s folder.
    pub(super) fn unique_def_elsewhere(&self, sym: &SymbolName, except: Option<&str>) -> Option<(String, u32)> {
        if let Some(near) = except {
            return self.nearest_unique_def(sym, near);
        }
        match self.defs_anywhere(sym) {
            Defined::Once(path, line) => Some((path, line)),
            Defined::Nowhere | Defined::Several => None,
        }
    }

    /// Whether the repository defines `sym` nowhere, once, or more than once. Only "exactly
    /// one definition" is an answer to follow, so the search stops at the second one (a
    /// common name would otherwise parse every file that mentions it); smaller files first,
    /// since which two are found does not change the answer.
    pub(super) fn defs_anywhere(&self, sym: &SymbolName) -> Defined {
        let mut files: Vec<&FileInfo> = self.index.files_with_token(&sym.name).collect();
        files.sort_by_key(|f| f.lines);
        match self.index.unique_def(files, &sym.name, |f, d| sym.matches(&f.path, d)) {
            Unique::One(f, d) => Defined::Once(f.path.clone(), d.line),
            Unique::None => Defined::Nowhere,
            Unique::Several => Defined::Several,
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

/// Whether one of `files`, as `commit`'s parent had it, defines `sym`.
fn defined_before<'f>(git: &GitRepo, commit: &str, files: &'f [String], sym: &SymbolName) -> Vec<&'f String> {
    files
        .iter()
        .filter(|f| {
            git.show(&format!("{commit}^"), f)
                .is_some_and(|t| definitions(Lang::of(f), &t).iter().any(|d| sym.matches(f, d)))
        })
        .collect()
}

/// Folders that hold a copy of another project's code (Go's `vendor/`, C and C++'s
/// `third_party/`, a committed `node_modules/`): a definition there is the dependency's.
const VENDORED: &[&str] = &["vendor", "third_party", "third-party", "node_modules", "bower_components"];

/// Whether `path` lies under a [`VENDORED`] folder.
pub(super) fn vendored(path: &str) -> bool {
    path.split('/').rev().skip(1).any(|segment| VENDORED.contains(&segment))
}

/// Keys whose values are words for people in a config file (`- name: Install Go`,
/// `description: ...`).
const WORDS_FOR_PEOPLE: &[&str] = &["name", "description", "title", "summary", "help", "message", "label", "comment"];

/// Whether a config file's line sets one of [`WORDS_FOR_PEOPLE`] to words (a value with a space
/// in it): the line is prose, not a use of a name.
fn words_for_people(line: &str) -> bool {
    let t = line.trim_start().trim_start_matches("- ").trim_start();
    let Some((key, value)) = t.split_once([':', '=']) else { return false };
    let key = key.trim().trim_matches(['"', '\'']).to_ascii_lowercase();
    let value = value.trim().trim_matches(['"', '\'', ',']);
    WORDS_FOR_PEOPLE.contains(&key.as_str()) && value.trim().contains(' ')
}

#[cfg(test)]
mod tests {
    use super::words_for_people;

    #[test]
    fn a_settings_words_for_people_are_prose() {
        assert!(words_for_people("    - name: Install Go"));
        assert!(words_for_people("description: \"Install the toolchain\""));
        assert!(words_for_people("  title = 'Run the tests'"));
        // a name set to a name, another key, a use
        assert!(!words_for_people("  name: Install"));
        assert!(!words_for_people("    run: make install"));
        assert!(!words_for_people("installer: Install"));
    }
}
