//! Config claims: `key = value` in a named file, or anywhere when no file is named.
//!
//! A `key = value` claim is VALID when the file sets the key to that value; given without a file
//! and set by no config file, VALID when the assignment (or the quoted line,
//! `_MAX_VALUE = ENUM_MAX_VALUE`) is written in any non-prose file (85), or when the key is still
//! named there with the value set nowhere (a variable read at run time: 60, value unverified).
//! STALE (successor: the new value) when the key has another value, set once; given without a
//! file and with history, only when some version of that file had the memory's value (drift
//! needs a past), else not checked. A constant holding the key's own name (`X: &str = "X"`)
//! names the variable and sets no value. Not checked when
//! the key's last part is set several times to different values (an OpenAPI file's `format:`:
//! which one is meant is not known) or holds a structure, an expression or a typed declaration (`{`,
//! `cast(...)`, `Boolean? = null`);
//! a sentence's full stop is not part of a value, and `pnpm@11.11.0` is `pnpm` with its version
//! pinned (VALID 80). CONTRADICTED when the file is
//! gone or the key no longer set; given without a file, when nothing outside prose names the key
//! and there is no history (the evidence counts the config files read, it does not list them).
//! With history, such a key has no past in the repository: not checked (an environment
//! variable, a value given when running, another tool's setting), with the reason.

use memval_proto::{CodeRef, Outcome, Since, UnixSeconds, Verdict};

use crate::index::{basename, FileKind};

use super::common::{checked, clip, is_prose, list};
use super::history::since_of;
use super::located::{Located, NEVER_IN_REPO};
use super::Checker;

/// Values assigned to `key` in a config or source text: `key = v`, `key: v`, `"key": v`,
/// `KEY=v`, `const KEY: T = v`. Returns (line, value).
pub fn config_assignments(text: &str, key: &str) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.len() > 2000 {
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
            if !(left_ok && right_ok) {
                continue;
            }
            // `KEY=1 make x` (no space around `=`, an unquoted value): a shell assignment, whose
            // value ends at the first blank.
            if let Some(v) = after.strip_prefix('=').filter(|v| !v.starts_with([' ', '\t', '"', '\''])) {
                let value = clean_value(v.split_whitespace().next().unwrap_or(""));
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
            let value = clean_value(value);
            if !value.is_empty() {
                found.push((i as u32 + 1, value));
                break;
            }
        }
    }
    found
}

pub(super) fn clean_value(raw: &str) -> String {
    let mut v = raw.trim();
    for marker in [" #", " //", "\t#"] {
        if let Some(at) = v.find(marker) {
            v = &v[..at];
        }
    }
    let v = v.trim().trim_end_matches([',', ';']).trim();
    v.trim_matches(|c| c == '"' || c == '\'' || c == '`').trim().to_owned()
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

/// The last part of a dotted or colon-separated key (`server.port` → `port`).
fn leaf_of(key: &str) -> &str {
    key.rsplit(['.', ':']).next().unwrap_or(key).trim()
}

/// Whether a value read from a file is one value, not the start of a structure (`{`, `[`) or
/// a code expression (`_t.cast(...)`, `opts.x ?? 3`).
fn scalar(found: &str) -> bool {
    let f = found.trim();
    // `Boolean? = null`, `int | None = None`: a typed declaration with its default, which the
    // user's own setting (what docs show) overrides; not a value the repository sets.
    let typed_default = f.contains(" = ");
    !(f.is_empty()
        || f.starts_with(['{', '[', '('])
        || f.contains('(')
        || f.contains("??")
        || f.contains(" || ")
        || typed_default)
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
        let (files, moved) = if raw == "." {
            (self.config_files_defining(leaf), None)
        } else {
            match self.locate(raw, &r.alt_paths, since) {
                Located::Refused(refusal) => return Outcome::NotChecked { reason: refusal.to_string() },
                Located::NotInRepo(reason) => return Outcome::NotChecked { reason },
                Located::NeverInRepo | Located::NameElsewhere { .. } => {
                    return Outcome::NotChecked { reason: NEVER_IN_REPO.into() }
                }
                Located::Here { path, dir: false, .. } => (vec![path], None),
                Located::Moved { to, dir: false, evidence, .. } => (vec![to], Some(evidence)),
                Located::Here { path: dir, dir: true, .. } | Located::Moved { to: dir, dir: true, .. } => {
                    let prefix = format!("{dir}/");
                    let files =
                        self.config_files_defining(leaf).into_iter().filter(|f| f.starts_with(&prefix)).collect();
                    (files, None)
                }
                Located::Gone { confidence, evidence, since } => {
                    return checked(Verdict::Contradicted, confidence, format!("{raw} — {evidence}"), None).since(since)
                }
                Located::Unclear { candidates } | Located::Split { candidates, .. } => (candidates, None),
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
            Some((file, line, found)) if !scalar(found) => Outcome::NotChecked {
                reason: format!(
                    "{file}:{line} — {key} holds a structure, an expression or a typed declaration ({found}), not a value to compare with {value}"
                ),
            },
            Some((file, line, found)) if pinned(found, value) => checked(
                Verdict::Valid,
                80,
                format!("{file}:{line} — {key} = {found} ({value}, with its version pinned)"),
                None,
            ),
            Some((file, line, found)) if raw == "." => self.value_with_a_past(key, value, (file, *line, found), since),
            Some((file, line, found)) => checked(
                Verdict::Stale,
                85,
                format!("{file}:{line} — {key} is {found} now, not {value}"),
                Some(found.clone()),
            )
            .since(self.value_left(file, leaf, value, since)),
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
            None => {
                checked(Verdict::Contradicted, 75, format!("{} — {key} is not set there any more", list(&files)), None)
            }
        }
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
        match git.last_change_of(file, value.trim()) {
            Ok(Some(commit)) => stale().since(
                self.value_left(file, leaf_of(key), value, since)
                    .or_else(|| since_of(git, &commit)),
            ),
            Ok(None) => Outcome::NotChecked {
                reason: format!(
                    "{file}:{line} — {key} is {found} there, and no version of {file} in git history had {value}: the memory named no file, so not read as this repository's setting (an example, or a value given when running)"
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
        let mut candidates: Vec<&str> = self
            .index
            .files_with_token(word)
            .map(|f| f.path.as_str())
            .filter(|p| !is_prose(p) && !config_files.iter().any(|c| c == p))
            .collect();
        candidates.sort_unstable();
        let literal: String = format!("{key}={value}").split_whitespace().collect();
        let mut named = None;
        for path in &candidates {
            let Some(text) = self.index.read_text(path) else { continue };
            if !affix {
                if let Some((line, found)) =
                    config_assignments(&text, leaf).into_iter().find(|(_, f)| same_value(f, value))
                {
                    return checked(Verdict::Valid, 85, format!("{path}:{line} — {key} = {found}"), None);
                }
            }
            for (i, line) in text.lines().enumerate().filter(|(_, l)| l.len() <= 2000) {
                let bare: String = line.split_whitespace().collect();
                if bare.contains(&literal) {
                    return checked(Verdict::Valid, 85, format!("{path}:{} — contains `{}`", i + 1, clip(line)), None);
                }
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

    /// Text files that could set `leaf`: config files, plus files defining it as a constant.
    pub(super) fn config_files_defining(&self, leaf: &str) -> Vec<String> {
        const CONFIG_EXT: [&str; 11] =
            ["toml", "yaml", "yml", "json", "ini", "cfg", "conf", "env", "properties", "config", "editorconfig"];
        let mut files: Vec<String> = self
            .index
            .files()
            .filter(|(_, f)| f.kind == FileKind::Text)
            .filter(|(_, f)| {
                let name = basename(&f.path);
                let ext = name.rsplit('.').next().unwrap_or("");
                CONFIG_EXT.contains(&ext) || name.starts_with(".env")
            })
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
        for (found, one) in
            [("{", false), ("[1, 2]", false), ("_t.cast(_ApiType, x)", false), ("3", true), ("auto", true)]
        {
            assert_eq!(scalar(found), one, "{found}");
        }
    }

    #[test]
    fn config_assignments_cover_common_syntaxes() {
        let cases: [ConfigCase; 9] = [
            ("max_connections = 100 # comment", "max_connections", &[(1, "100")]),
            ("  run: SKIP_UI_BUILD=1 make alloy", "SKIP_UI_BUILD", &[(1, "1")]),
            ("GREETING=\"hello world\"", "GREETING", &[(1, "hello world")]),
            ("timeout_ms: 750", "timeout_ms", &[(1, "750")]),
            ("{\n  \"retries\": 3,\n}", "retries", &[(2, "3")]),
            ("DATABASE_URL=postgres://x", "DATABASE_URL", &[(1, "postgres://x")]),
            ("pub const MAX_SHARDS: usize = 16;", "MAX_SHARDS", &[(1, "16")]),
            ("my_max_connections = 1\nmax_connections_total = 2", "max_connections", &[]),
            ("name = \"memval\"", "name", &[(1, "memval")]),
        ];
        for (text, key, want) in cases {
            let got = config_assignments(text, key);
            let want: Vec<(u32, String)> = want.iter().map(|(l, v)| (*l, v.to_string())).collect();
            assert_eq!(got, want, "{text:?}");
        }
    }
}
