//! Config claims: `key = value` in a named file, or anywhere when no file is named.
//!
//! A `key = value` claim is VALID when the file sets the key to that value; given without a
//! file and set by no config file, VALID when the assignment (or the quoted line,
//! `_MAX_VALUE = ENUM_MAX_VALUE`) is written in any non-prose file (85), or when the key is still
//! named there with the value set nowhere (a variable read at run time: 60, value unverified).
//!
//! What sets a key: `key = v`, `key: v`, `"key": v`, `KEY=v`, `const KEY: T = v`, `#define KEY
//! v`; not a commented-out line (`# level = 5` in a sample file), not the base type after a
//! declaration (`enum Status : byte`), and in code not an unquoted name (`TIMEOUT =
//! LOGIN_TIMEOUT`, `publish=data.meta.action`: a reference to another name, no value). Quotes
//! escaped inside a string (`data-icon=\"x\"` in JSON) are quotes.
//!
//! **Drift needs a past.** STALE (successor: the new value) when the key has another value, set
//! once, and, with history, some version of that file set it to the memory's value (read from
//! each version while there are few, else from the patches: `git log -G`); a value the file
//! never had is the user's own, an example or another file's: not checked, with the reason.
//! CONTRADICTED when the file is gone or the key no longer set and, with history, some version
//! of the file set it; a file that never set it (a doc that only tells of it) is not checked.
//! A constant holding the key's own name (`X: &str = "X"`) names the variable and sets no
//! value. Not checked when the key's last part is set several times to different values (an
//! OpenAPI file's `format:`: which one is meant is not known) or holds a structure, an
//! expression or a typed declaration (`{`, `cast(...)`, `Boolean? = null`); a sentence's full
//! stop is not part of a value, and `pnpm@11.11.0` is `pnpm` with its version pinned (VALID 80).
//! Given without a file, CONTRADICTED when nothing outside prose names the key and there is no
//! history (the evidence counts the config files read, it does not list them). With history,
//! such a key has no past in the repository: not checked (an environment variable, a value
//! given when running, another tool's setting), with the reason.

use memval_proto::{CodeRef, Outcome, Since, UnixSeconds, Verdict};

use crate::index::{basename, FileKind};

use crate::symbols::Lang;

use super::common::{checked, clip, is_prose, list};
use super::located::{Located, NEVER_IN_REPO};
use super::Checker;

/// Values assigned to `key` in a config or source text: `key = v`, `key: v`, `"key": v`,
/// `KEY=v`, `const KEY: T = v`. Returns (line, value).
pub fn config_assignments(text: &str, key: &str) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    let mut string_block: Option<&str> = None;
    for (i, line) in text.lines().enumerate() {
        // Inside a triple-quoted string (a TOML `"""` description, a Python docstring) a line
        // is text: `MISE_PRERELEASES=1` there documents the setting, it sets nothing.
        if let Some(quote) = string_block {
            if line.matches(quote).count() % 2 == 1 {
                string_block = None;
            }
            continue;
        }
        string_block = ["\"\"\"", "'''"].into_iter().find(|q| line.matches(q).count() % 2 == 1);
        if line.len() > 2000 {
            continue;
        }
        // `#define KEY 18`: a C macro is a setting.
        if let Some(value) = macro_value(line, key) {
            found.push((i as u32 + 1, value));
            continue;
        }
        // A commented-out line (`# KEY = 5` in a sample file) sets nothing.
        if commented(line) {
            continue;
        }
        let mut rest = line;
        while let Some(pos) = rest.find(key) {
            let before = &rest[..pos];
            let after = &rest[pos + key.len()..];
            rest = after;
            let left_ok = before.chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
            let after = after.trim_start_matches(['"', '\'']);
            let right_ok = after.chars().next().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
            if !(left_ok && right_ok) || declares(before) {
                continue;
            }
            // `KEY=1 make x` (no space around `=`, an unquoted value): a shell assignment, whose
            // value ends at the first blank.
            if let Some(v) = after.strip_prefix('=').filter(|v| !v.starts_with([' ', '\t', '"', '\''])) {
                // Closing marks of the text around it (`` `X=1`) ``) are not part of the value.
                let word = v.split_whitespace().next().unwrap_or("");
                let value = clean_value(word.trim_end_matches(['`', ')', ']', ',', ';']));
                if !value.is_empty() {
                    found.push((i as u32 + 1, value));
                    break;
                }
            }
            // Skip a type annotation: `KEY: u32 = 100`.
            let after = after.trim_start();
            let value = if let Some(v) = after.strip_prefix('=') {
                v
            } else if let Some(v) = after.strip_prefix(':') {
                match v.find('=') {
                    Some(eq)
                        if !v[..eq].contains(['"', '\''])
                            && v[..eq].trim().chars().all(|c| c.is_alphanumeric() || "_<>&[]; ".contains(c))
                            && !v[..eq].trim().is_empty() =>
                    {
                        &v[eq + 1..]
                    }
                    _ => v,
                }
            } else {
                continue;
            };
            let value = quoted_value(value).unwrap_or_else(|| clean_value(value));
            if !value.is_empty() {
                found.push((i as u32 + 1, value));
                break;
            }
        }
    }
    found
}

/// The text of a quoted value that is all the line gives (`"board")` in
/// `+picker(scope="board")`, `'x'];`): the string ends at its closing quote, and what follows it
/// closes the text around it. `None` when the value is not one quoted string (`"a" + b`, no
/// closing quote), which [`clean_value`] then reads.
fn quoted_value(raw: &str) -> Option<String> {
    let t = raw.trim_start();
    let quote = t.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &t[1..];
    let mut escaped = false;
    let end = body.char_indices().find_map(|(at, c)| {
        let closes = c == quote && !escaped;
        escaped = c == '\\' && !escaped;
        closes.then_some(at)
    })?;
    let rest = body[end + 1..].trim_start_matches(|c: char| c.is_whitespace() || ")]},;".contains(c));
    (rest.is_empty() || rest.starts_with('#') || rest.starts_with("//")).then(|| body[..end].trim().to_owned())
}

/// Whether `line` is a comment in the common syntaxes (`#`, `//`, `;`, `/*`, `*`, `<!--`,
/// `--` followed by a blank): a line a sample file leaves for the user to uncomment.
fn commented(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#')
        || t.starts_with("//")
        || t.starts_with("/*")
        || t.starts_with("<!--")
        || t.starts_with(';')
        || t.starts_with("* ")
        || t.starts_with("-- ")
}

/// The value of `#define KEY value` on `line`, when it defines `key`.
fn macro_value(line: &str, key: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start().strip_prefix("define")?;
    let rest = rest.strip_prefix([' ', '\t'])?.trim_start().strip_prefix(key)?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let value = clean_value(rest.split("//").next().unwrap_or(""));
    (!value.is_empty()).then_some(value)
}

/// Whether the text before a key ends with a keyword that declares a type or a function
/// (`enum Status : byte`, `class Foo: Base`): what follows is a base type, not a value.
fn declares(before: &str) -> bool {
    const KEYWORDS: [&str; 17] = [
        "enum",
        "class",
        "struct",
        "interface",
        "trait",
        "record",
        "protocol",
        "extension",
        "object",
        "namespace",
        "module",
        "union",
        "type",
        "def",
        "fn",
        "func",
        "fun",
    ];
    before.split_whitespace().next_back().is_some_and(|w| KEYWORDS.contains(&w))
}

pub(super) fn clean_value(raw: &str) -> String {
    let mut v = raw.trim();
    for marker in [" #", " //", "\t#"] {
        if let Some(at) = v.find(marker) {
            v = &v[..at];
        }
    }
    let v = v.trim().trim_end_matches([',', ';']).trim();
    // `\"x\"`: quotes escaped inside a string of JSON or code are quotes too.
    v.trim_matches(|c| c == '"' || c == '\'' || c == '`' || c == '\\').trim().to_owned()
}

pub(super) fn same_value(found: &str, claimed: &str) -> bool {
    let norm = |s: &str| {
        let s = s.trim().trim_matches(|c| c == '"' || c == '\'' || c == '`').trim().to_lowercase().replace('_', "");
        // A sentence's full stop after a word (`MISE_ENV=ci.`) is not part of the value.
        match s.strip_suffix('.') {
            Some(word) if word.chars().all(|c| c.is_alphanumeric() || c == '-') => word.to_owned(),
            _ => s,
        }
    };
    norm(found) == norm(claimed)
}

/// A line that sets `leaf` (to `value`, when given), as `git log -G` reads it: the key, with
/// no comment marker before it on the line unless it is `#define`, then `=`, `:` or a blank,
/// then the value on the same line.
fn setting_pattern(leaf: &str, value: Option<&str>) -> String {
    let key = format!("^([^#;/]*|[[:space:]]*#[[:space:]]*define[[:space:]]+){}", memval_git::ere_literal(leaf));
    match value {
        Some(v) => format!("{key}[\"' ]*[:= \t].*{}", memval_git::ere_literal(v.trim())),
        None => format!("{key}[\"' ]*[:= \t]"),
    }
}

impl Checker<'_> {
    /// Whether some version of `file` in history set `leaf` (to `value`, when given): each
    /// version read as the tree is ([`config_assignments`]) while there are few, else the
    /// patches searched by git ([`setting_pattern`]).
    fn ever_set(
        &self,
        git: &memval_git::GitRepo,
        file: &str,
        leaf: &str,
        value: Option<&str>,
    ) -> Result<bool, memval_git::GitError> {
        let holds = |text: &str| {
            config_assignments(text, leaf).iter().any(|(_, found)| value.is_none_or(|v| same_value(found, v)))
        };
        match git.some_version(file, holds) {
            Some(found) => Ok(found),
            None => git.ever_matched(file, &setting_pattern(leaf, value)),
        }
    }
}

/// The last part of a dotted or colon-separated key (`server.port` → `port`).
fn leaf_of(key: &str) -> &str {
    key.rsplit(['.', ':']).next().unwrap_or(key).trim()
}

/// Whether a value read from a file is one value, not the start of a structure (`{`, `[`), a
/// code expression (`_t.cast(...)`, `opts.x ?? 3`) or a template filled in when it runs
/// (`<< parameters.x >>`, `${{ inputs.x }}`, `{{ .Values.x }}`, `${X:-1}`, `$X`).
fn scalar(found: &str) -> bool {
    let f = found.trim();
    let template = f.starts_with('$') || f.contains("${") || f.contains("{{") || f.contains("<<");
    // `Boolean? = null`, `int | None = None`: a typed declaration with its default, which the
    // user's own setting (what docs show) overrides; not a value the repository sets.
    let typed_default = f.contains(" = ");
    !(f.is_empty()
        || f.starts_with(['{', '[', '('])
        || f.contains('(')
        || f.contains("??")
        || f.contains(" || ")
        || typed_default
        || template)
}

/// `pnpm@11.11.0` for `pnpm`: the value the memory names, with a version pinned after `@`.
fn pinned(found: &str, claimed: &str) -> bool {
    found.split_once('@').is_some_and(|(name, version)| {
        same_value(name, claimed) && version.chars().next().is_some_and(|c| c.is_ascii_digit() || c == '^' || c == '~')
    })
}

impl Checker<'_> {
    pub(super) fn check_config(&self, r: &CodeRef, key: &str, value: &str, since: Option<UnixSeconds>) -> Outcome {
        let raw = r.path.trim();
        let leaf = leaf_of(key);
        if leaf.is_empty() {
            return Outcome::NotChecked { reason: format!("cannot read a config key from {key:?}") };
        }
        // `guessed`: the memory's path is not there, and the files are those it could mean.
        let (files, moved, guessed) = if raw == "." {
            (self.config_files_defining(leaf), None, false)
        } else {
            match self.locate(raw, &r.alt_paths, since) {
                Located::Refused(refusal) => return Outcome::NotChecked { reason: refusal.to_string() },
                Located::NotInRepo(reason) => return Outcome::NotChecked { reason },
                Located::NeverInRepo | Located::NameElsewhere { .. } => {
                    return Outcome::NotChecked { reason: NEVER_IN_REPO.into() }
                }
                Located::Here { path, dir: false, .. } => (vec![path], None, false),
                Located::Moved { to, dir: false, evidence, .. } => (vec![to], Some(evidence), false),
                Located::Here { path: dir, dir: true, .. } | Located::Moved { to: dir, dir: true, .. } => {
                    let prefix = format!("{dir}/");
                    let files =
                        self.config_files_defining(leaf).into_iter().filter(|f| f.starts_with(&prefix)).collect();
                    (files, None, false)
                }
                Located::Gone { confidence, evidence, since } => {
                    return checked(Verdict::Contradicted, confidence, format!("{raw} — {evidence}"), None).since(since)
                }
                Located::Unclear { candidates } | Located::Split { candidates, .. } => (candidates, None, true),
            }
        };
        let mut seen = Vec::new();
        let mut own_name = None;
        for file in &files {
            let Some(text) = self.index.read_text(file) else { continue };
            for (line, found) in config_assignments(&text, leaf) {
                if same_value(&found, value) {
                    let evidence = format!("{file}:{line} — {key} = {found}");
                    return match &moved {
                        Some(m) => checked(Verdict::Stale, 85, format!("{evidence}; {m}"), Some(file.clone())),
                        None => checked(Verdict::Valid, 95, evidence, None),
                    };
                }
                // A constant holding the key's own name (`UV_TORCH_BACKEND: &str =
                // "UV_TORCH_BACKEND"`) names the variable; it sets no value of it.
                if found.trim_matches(|c| c == '"' || c == '\'').eq_ignore_ascii_case(leaf) {
                    own_name.get_or_insert(format!("{file}:{line}"));
                    continue;
                }
                seen.push((file.clone(), line, found));
            }
        }
        let mut values: Vec<&str> = seen.iter().map(|(_, _, v)| v.as_str()).collect();
        values.sort_unstable();
        values.dedup();
        if values.len() > 1 {
            // The key's last part is set to several values (`format:` in an OpenAPI file):
            // which one the memory means is not known, so none is asserted.
            return Outcome::NotChecked {
                reason: format!(
                    "{key} is set {} times to {} different values ({}), none of them {value}: which one the memory means is not known",
                    seen.len(),
                    values.len(),
                    list(&values.iter().map(|v| v.to_string()).collect::<Vec<_>>())
                ),
            };
        }
        match seen.first() {
            Some((file, line, found)) if !scalar(found) || self.names_another(file, *line, found) => {
                Outcome::NotChecked {
                    reason: format!(
                        "{file}:{line} — {key} holds a structure, an expression, a template, a typed declaration or another name ({found}), not a value to compare with {value}"
                    ),
                }
            }
            Some((file, line, found)) if pinned(found, value) => checked(
                Verdict::Valid,
                80,
                format!("{file}:{line} — {key} = {found} ({value}, with its version pinned)"),
                None,
            ),
            // Another value in one of several files the memory might mean says nothing about
            // the memory's own file (a user's `values.yaml` a doc tells them to write).
            Some((file, line, found)) if guessed => Outcome::NotChecked {
                reason: format!(
                    "{raw} is not there; of the {} files of its name, {file}:{line} sets {key} to {found}, not {value}: which file the memory means is not known",
                    files.len()
                ),
            },
            // A setting given without a file, another value in the one config file that sets
            // it: a script or a CI file may set the memory's value (`export ASAN_OPTIONS=...`
            // in the build script a skill documents, beside the package manager's own).
            Some((file, line, found)) => match (raw == ".").then(|| self.set_outside(key, leaf, value, &files)) {
                Some(Some((at, set))) => checked(
                    Verdict::Valid,
                    80,
                    format!("{at} — {set} (and {file}:{line} sets {key} to {found}: one of the places that set it)"),
                    None,
                ),
                _ => self.value_with_a_past(key, value, (file, *line, found), since, raw == "."),
            },
            None if raw == "." => match own_name {
                Some(at) => checked(
                    Verdict::Valid,
                    60,
                    format!("{at} — the repo still names {key} (a constant holding its name); no file sets it to {value} (a value given when running, not checked)"),
                    None,
                ),
                None => self.config_key_elsewhere(key, leaf, value, &files),
            },
            None if files.is_empty() => {
                checked(Verdict::Contradicted, 70, format!("{raw} — no config file sets {key}"), None)
            }
            None => self.unset_with_a_past(key, &files),
        }
    }

    /// A key the memory placed in `files`, which no longer set it. With history, drift needs a
    /// past: CONTRADICTED only when some version of one of them set the key (a document that
    /// only tells of the key, another tool's file, never did), else not checked.
    fn unset_with_a_past(&self, key: &str, files: &[String]) -> Outcome {
        let gone =
            || checked(Verdict::Contradicted, 75, format!("{} — {key} is not set there any more", list(files)), None);
        let Some(git) = self.git else { return gone() };
        for file in files {
            match self.ever_set(git, file, leaf_of(key), None) {
                Ok(true) => return gone(),
                Ok(false) => {}
                Err(e) => {
                    return Outcome::NotChecked {
                        reason: format!("{file} does not set {key}; git could not search its history for it: {e}"),
                    }
                }
            }
        }
        Outcome::NotChecked {
            reason: format!(
                "{} — {key} is not set there, and no version in git history set it: not drift (the memory tells of a setting of another file, the user's or another tool's)",
                list(files)
            ),
        }
    }

    /// Whether `found`, read on `line` of a code file, is another name (`LOGIN_TIMEOUT`,
    /// `data.meta.action`) rather than a value written there: in code an unquoted word is a
    /// reference, only numbers, booleans, nulls and quoted text are values.
    fn names_another(&self, file: &str, line: u32, found: &str) -> bool {
        if matches!(Lang::of(file), Lang::Doc | Lang::Other | Lang::Embedded(_)) {
            return false;
        }
        let word = found.trim();
        let literal_word =
            ["true", "false", "null", "none", "nil", "undefined"].contains(&word.to_ascii_lowercase().as_str());
        let number = word.trim_start_matches(['-', '+']).starts_with(|c: char| c.is_ascii_digit());
        if literal_word || number {
            return false;
        }
        let text = self.index.read_text(file);
        let at = text.as_deref().and_then(|t| t.lines().nth(line.saturating_sub(1) as usize)).unwrap_or("");
        !['"', '\'', '`'].iter().any(|q| at.contains(&format!("{q}{word}")))
    }

    /// A setting the memory gave without a file, set to another value in `file`. With history,
    /// drift needs a past: STALE only when some version of `file` had the memory's value (an
    /// example's `logLevel: 4096`, a value the user passes when running, is not one the repo
    /// ever set); without history the value found is all there is.
    fn value_with_a_past(
        &self,
        key: &str,
        value: &str,
        (file, line, found): (&str, u32, &str),
        since: Option<UnixSeconds>,
        no_file: bool,
    ) -> Outcome {
        let stale = || {
            checked(
                Verdict::Stale,
                85,
                format!("{file}:{line} — {key} is {found} now, not {value}"),
                Some(found.to_owned()),
            )
        };
        let Some(git) = self.git else { return stale() };
        let leaf = leaf_of(key);
        match self.ever_set(git, file, leaf, Some(value)) {
            Ok(true) => stale().since(self.value_left(file, leaf, value, since)),
            Ok(false) => Outcome::NotChecked {
                reason: format!(
                    "{file}:{line} — {key} is {found} there, and no version of {file} in git history set it to {value}: not drift ({})",
                    if no_file {
                        "the memory named no file: an example, or a value given when running"
                    } else {
                        "the memory's value is the user's own, an example, or another file's"
                    }
                ),
            },
            Err(e) => Outcome::NotChecked { reason: format!("{file}:{line} — {key} is {found} there; git could not search {file}'s history for {value}: {e}") },
        }
    }

    /// The first commit after the memory's date whose `file` no longer sets `leaf` to `value`.
    fn value_left(&self, file: &str, leaf: &str, value: &str, since: Option<UnixSeconds>) -> Option<Since> {
        self.first_change_losing(file, since, |text| {
            config_assignments(text, leaf).iter().any(|(_, found)| same_value(found, value))
        })
    }

    /// A setting the memory gave without a file, which no config file sets: the memory may
    /// quote code (`_MAX_VALUE = GHOSTTY_ENUM_MAX_VALUE`, the suffix every enum ends with), or
    /// tell how to set a variable the code reads (`UPDATE_SNAPSHOTS=true`). So the rest of the
    /// repo's non-prose files are read: the assignment written there is VALID; the key still
    /// named (read) there is VALID with the value unverified; only a key nothing names any more
    /// is CONTRADICTED. Prose (the notes themselves, docs) proves nothing either way.
    pub(super) fn config_key_elsewhere(&self, key: &str, leaf: &str, value: &str, config_files: &[String]) -> Outcome {
        // A key written as an affix (`_MAX_VALUE`) is part of longer names: its files are
        // found by the value's word instead.
        let affix = leaf.starts_with('_') || leaf.ends_with('_');
        let word = if affix { value.trim_matches(|c| c == '"' || c == '\'' || c == '`') } else { leaf };
        let candidates = self.non_prose_naming(word, config_files);
        if let Some((at, set)) = self.set_in(key, leaf, value, &candidates, affix) {
            return checked(Verdict::Valid, 85, format!("{at} — {set}"), None);
        }
        let mut named = None;
        for path in &candidates {
            let Some(text) = self.index.read_text(path) else { continue };
            for (i, line) in text.lines().enumerate().filter(|(_, l)| l.len() <= 2000) {
                if named.is_none() && !affix && crate::index::identifiers(line).any(|t| t == leaf) {
                    named = Some(format!("{path}:{}", i + 1));
                }
            }
        }
        let read = format!("{} config files read", config_files.len());
        match named {
            Some(at) => checked(
                Verdict::Valid,
                60,
                format!("{at} — the repo still names {key}; no file sets it to {value} (a value given when running, not checked; {read})"),
                None,
            ),
            // Drift needs a past: with history, a key no file outside prose names is an
            // environment setting, a value given when running or another tool's; without
            // history there is nothing better than the tree to go by.
            None if self.git.is_some() => Outcome::NotChecked {
                reason: format!(
                    "no file of the repo sets {key} or names it, outside prose ({read}): not read as a setting of this repository (an environment variable, a value given when running, or another tool's)"
                ),
            },
            None => checked(
                Verdict::Contradicted,
                70,
                format!(". — no file of the repo sets {key} = {value} or names {key}, outside prose ({read})"),
                None,
            ),
        }
    }

    /// Where a non-prose file outside `config_files` sets `key` to `value`: `(file:line, what
    /// it says)`.
    fn set_outside(&self, key: &str, leaf: &str, value: &str, config_files: &[String]) -> Option<(String, String)> {
        self.set_in(key, leaf, value, &self.non_prose_naming(leaf, config_files), false)
    }

    /// The files outside prose and outside `config_files` whose text has the token `word`, in
    /// path order.
    fn non_prose_naming(&self, word: &str, config_files: &[String]) -> Vec<&str> {
        let mut files: Vec<&str> = self
            .index
            .files_with_token(word)
            .map(|f| f.path.as_str())
            .filter(|p| !is_prose(p) && !config_files.iter().any(|c| c == p))
            .collect();
        files.sort_unstable();
        files
    }

    /// The first of `paths` that sets `key` to `value`, as an assignment of its syntax or the
    /// literal `key=value` (spaces aside): `(file:line, what it says)`. An `affix` key
    /// (`_MAX_VALUE`) is looked for as the literal only.
    fn set_in(&self, key: &str, leaf: &str, value: &str, paths: &[&str], affix: bool) -> Option<(String, String)> {
        let literal: String = format!("{key}={value}").split_whitespace().collect();
        for path in paths {
            let Some(text) = self.index.read_text(path) else { continue };
            if !affix {
                if let Some((line, found)) =
                    config_assignments(&text, leaf).into_iter().find(|(_, f)| same_value(f, value))
                {
                    return Some((format!("{path}:{line}"), format!("{key} = {found}")));
                }
            }
            for (i, line) in text.lines().enumerate().filter(|(_, l)| l.len() <= 2000) {
                let bare: String = line.split_whitespace().collect();
                if bare.contains(&literal) {
                    return Some((format!("{path}:{}", i + 1), format!("contains `{}`", clip(line))));
                }
            }
        }
        None
    }

    /// Text files that could set `leaf`: config files, plus files defining it as a constant.
    pub(super) fn config_files_defining(&self, leaf: &str) -> Vec<String> {
        let mut files: Vec<String> = self
            .index
            .files()
            .filter(|(_, f)| f.kind == FileKind::Text && is_config_file(&f.path))
            .map(|(_, f)| f.path.clone())
            .collect();
        for (f, _) in self.index.defs_named(leaf) {
            if !files.contains(&f.path) {
                files.push(f.path.clone());
            }
        }
        files
    }
}

/// A config file by its name: TOML, YAML, JSON, INI-like, `.properties`, `.env*`.
pub(super) fn is_config_file(path: &str) -> bool {
    const CONFIG_EXT: [&str; 11] =
        ["toml", "yaml", "yml", "json", "ini", "cfg", "conf", "env", "properties", "config", "editorconfig"];
    let name = basename(path);
    let ext = name.rsplit('.').next().unwrap_or("");
    CONFIG_EXT.contains(&ext) || name.starts_with(".env")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text, key, and the (line, value) assignments found.
    type ConfigCase<'a> = (&'a str, &'a str, &'a [(u32, &'a str)]);

    /// What a found value can be compared with: a sentence's full stop and a pinned version are
    /// not a different value; a structure or an expression is no value at all.
    #[test]
    fn values_compare_as_values() {
        assert!(same_value("ci.", "ci"));
        assert!(!same_value("1.0", "1"));
        assert!(pinned("pnpm@11.11.0", "pnpm"));
        assert!(!pinned("pnpm@latest-tag", "yarn"));
        for (found, one) in [
            ("{", false),
            ("[1, 2]", false),
            ("_t.cast(_ApiType, x)", false),
            ("<< parameters.include_test_deps >>", false),
            ("${{ inputs.level }}", false),
            ("prefix-{{ .Values.tag }}", false),
            ("${PORT:-8080}", false),
            ("$HOME/.cache", false),
            ("3", true),
            ("auto", true),
            ("a<b", true),
        ] {
            assert_eq!(scalar(found), one, "{found}");
        }
    }

    /// What is no setting: a commented-out line, a declaration's base type; what is one: a C
    /// macro, a value in escaped quotes.
    #[test]
    fn comments_and_declarations_set_nothing() {
        assert_eq!(
            config_assignments("# level = 5\n; level = 6\n// level = 7\nlevel = 8", "level"),
            vec![(4, "8".into())]
        );
        assert_eq!(config_assignments("#define DT_PIN 18 // pin\n#define DT_PINS 4", "DT_PIN"), vec![(1, "18".into())]);
        assert!(config_assignments("public enum Status : byte", "Status").is_empty());
        assert!(config_assignments("class Widget: Base", "Widget").is_empty());
        assert_eq!(
            config_assignments("\"use data-icon=\\\"inline-start\\\" here\"", "data-icon"),
            vec![(1, "inline-start".into())]
        );
    }

    /// A quoted string is the value only when nothing but closing marks or a comment follows it.
    #[test]
    fn a_quoted_value_ends_at_its_quote() {
        for (raw, want) in [
            ("\"board\")", Some("board")),
            ("'a\\'b' ] // note", Some("a\\'b")),
            ("\"v\" + version", None),
            ("\"unclosed", None),
            ("plain", None),
        ] {
            assert_eq!(quoted_value(raw).as_deref(), want, "{raw}");
        }
    }

    #[test]
    fn config_assignments_cover_common_syntaxes() {
        let cases: [ConfigCase; 14] = [
            ("max_connections = 100 # comment", "max_connections", &[(1, "100")]),
            ("  run: SKIP_UI_BUILD=1 make alloy", "SKIP_UI_BUILD", &[(1, "1")]),
            ("GREETING=\"hello world\"", "GREETING", &[(1, "hello world")]),
            ("timeout_ms: 750", "timeout_ms", &[(1, "750")]),
            ("{\n  \"retries\": 3,\n}", "retries", &[(2, "3")]),
            ("DATABASE_URL=postgres://x", "DATABASE_URL", &[(1, "postgres://x")]),
            ("pub const MAX_SHARDS: usize = 16;", "MAX_SHARDS", &[(1, "16")]),
            ("my_max_connections = 1\nmax_connections_total = 2", "max_connections", &[]),
            ("name = \"memval\"", "name", &[(1, "memval")]),
            // text of a triple-quoted string documents a setting; the lines after it set again
            ("description = \"\"\"\nSet `PRE=1`) to opt in.\n\"\"\"\nPRE=0", "PRE", &[(4, "0")]),
            ("def f():\n    '''\n    LIMIT = 5 in the docstring\n    '''\n    LIMIT = 7\n", "LIMIT", &[(5, "7")]),
            ("run: PRE=1`) make", "PRE", &[(1, "1")]),
            // a quoted value ends at its closing quote; the call around it is not part of it
            ("  +themeColorPicker(scope=\"board\")", "scope", &[(1, "board")]),
            ("opts = {mode: 'fast'}", "mode", &[(1, "fast")]),
        ];
        for (text, key, want) in cases {
            let got = config_assignments(text, key);
            let want: Vec<(u32, String)> = want.iter().map(|(l, v)| (*l, v.to_string())).collect();
            assert_eq!(got, want, "{text:?}");
        }
    }
}
