//! The acceptance a change is judged against: criteria with an id, a text, and optionally a
//! check command, scope globs, the weakening classes the criterion requires, and a timeout.
//!
//! Three formats, all parsed strictly (an unknown key or a malformed line is an error, so a
//! misspelt `check` can never silently turn a criterion into an unchecked one):
//!
//! JSON: `{"criteria": [{"id", "text", "check"?, "scope"?: [glob], "allows"?: [class],
//! "timeout_secs"?}]}`, or the same document as YAML (`.yaml`/`.yml`).
//!
//! Markdown checklist: one item per criterion, `- [ ] ID: text`, with indented sub-items
//! `- check: `command``, `- scope: `glob`, `glob``, `- allows: class, class`,
//! `- timeout: SECONDS`. Lines outside checklist items are prose and ignored.
//!
//! The acceptance digest is the sha256 of the file's bytes, whatever its format.

use std::path::Path;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::{Deserialize, Serialize};

use super::manifest::sha256_hex;
use super::ChangeError;

/// The weakening classes the `scope` module finds, word for word the finding classes they
/// produce; a criterion's `allows` names some of them.
pub const WEAKENING_CLASSES: [&str; 5] =
    ["test_deleted", "test_skipped", "tolerance_widened", "golden_rewritten", "acceptance_rewritten"];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Criterion {
    pub id: String,
    pub text: String,
    #[serde(default)]
    pub check: Option<String>,
    /// Globs (relative to the subject root) of the paths this criterion covers.
    #[serde(default)]
    pub scope: Vec<String>,
    /// Weakening classes (`test_skipped`, `test_deleted`, ...) this criterion requires, in its
    /// scope: such a change is then not a finding.
    #[serde(default)]
    pub allows: Vec<String>,
    #[serde(default)]
    pub timeout_secs: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonFile {
    criteria: Vec<Criterion>,
}

#[derive(Debug, Clone)]
pub struct Acceptance {
    pub criteria: Vec<Criterion>,
    pub digest: String,
}

impl Criterion {
    /// The criterion's scope as a matcher; `None` when it declares no scope.
    pub fn scope_set(&self) -> Option<GlobSet> {
        if self.scope.is_empty() {
            return None;
        }
        let mut b = GlobSetBuilder::new();
        for g in &self.scope {
            // Validated at parse time, so a glob here always compiles.
            if let Ok(glob) = Glob::new(g) {
                b.add(glob);
            }
        }
        b.build().ok()
    }
}

/// Read and parse an acceptance file.
pub fn load(path: &Path) -> Result<Acceptance, ChangeError> {
    let bytes = std::fs::read(path)
        .map_err(|e| ChangeError::Input(format!("cannot read the acceptance file {}: {e}", path.display())))?;
    let text = String::from_utf8(bytes.clone())
        .map_err(|_| ChangeError::Input(format!("the acceptance file {} is not UTF-8", path.display())))?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let criteria = match ext.as_str() {
        "json" => parse_json(&text)?,
        "md" | "markdown" => parse_markdown(&text)?,
        "yaml" | "yml" => parse_yaml(&text)?,
        _ if text.trim_start().starts_with('{') => parse_json(&text)?,
        _ => parse_markdown(&text)?,
    };
    validate(&criteria)?;
    Ok(Acceptance { criteria, digest: sha256_hex(&bytes) })
}

pub fn parse_json(text: &str) -> Result<Vec<Criterion>, ChangeError> {
    let file: JsonFile = serde_json::from_str(text).map_err(|e| ChangeError::Input(format!("acceptance JSON: {e}")))?;
    Ok(file.criteria)
}

pub fn parse_yaml(text: &str) -> Result<Vec<Criterion>, ChangeError> {
    let file: JsonFile =
        serde_yaml_ng::from_str(text).map_err(|e| ChangeError::Input(format!("acceptance YAML: {e}")))?;
    Ok(file.criteria)
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    s.strip_prefix('`').and_then(|r| r.strip_suffix('`')).unwrap_or(s).to_owned()
}

pub fn parse_markdown(text: &str) -> Result<Vec<Criterion>, ChangeError> {
    let mut criteria: Vec<Criterion> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let indented = line.starts_with(' ') || line.starts_with('\t');
        let trimmed = line.trim();
        let item = trimmed.strip_prefix("- ").or_else(|| trimmed.strip_prefix("* "));
        let Some(item) = item else { continue };
        if !indented {
            let Some(rest) =
                item.strip_prefix("[ ]").or_else(|| item.strip_prefix("[x]")).or_else(|| item.strip_prefix("[X]"))
            else {
                continue;
            };
            let Some((id, text)) = rest.trim().split_once(':') else {
                return Err(ChangeError::Input(format!("acceptance line {n}: a criterion is `- [ ] ID: text`")));
            };
            criteria.push(Criterion {
                id: id.trim().to_owned(),
                text: text.trim().to_owned(),
                check: None,
                scope: Vec::new(),
                allows: Vec::new(),
                timeout_secs: None,
            });
            continue;
        }
        let Some(current) = criteria.last_mut() else { continue };
        let Some((key, value)) = item.split_once(':') else {
            return Err(ChangeError::Input(format!(
                "acceptance line {n}: a criterion's detail is `- check|scope|allows|timeout: value`"
            )));
        };
        match key.trim() {
            "check" => {
                if current.check.is_some() {
                    return Err(ChangeError::Input(format!(
                        "acceptance line {n}: criterion {} has a second check",
                        current.id
                    )));
                }
                current.check = Some(unquote(value));
            }
            "scope" => current.scope.extend(value.split(',').map(unquote).filter(|s| !s.is_empty())),
            "allows" => current.allows.extend(value.split(',').map(unquote).filter(|s| !s.is_empty())),
            "timeout" => {
                let secs =
                    value.trim().trim_end_matches('s').parse().map_err(|_| {
                        ChangeError::Input(format!("acceptance line {n}: timeout is a number of seconds"))
                    })?;
                current.timeout_secs = Some(secs);
            }
            other => {
                return Err(ChangeError::Input(format!(
                    "acceptance line {n}: unknown criterion detail {other:?} (check, scope, allows, timeout)"
                )))
            }
        }
    }
    Ok(criteria)
}

fn validate(criteria: &[Criterion]) -> Result<(), ChangeError> {
    if criteria.is_empty() {
        return Err(ChangeError::Input("the acceptance file lists no criteria".into()));
    }
    let mut seen = std::collections::HashSet::new();
    for c in criteria {
        if c.id.trim().is_empty() || c.text.trim().is_empty() {
            return Err(ChangeError::Input("every criterion needs a non-empty id and text".into()));
        }
        if !seen.insert(c.id.as_str()) {
            return Err(ChangeError::Input(format!("criterion id {:?} appears twice", c.id)));
        }
        if c.check.as_deref().is_some_and(|s| s.trim().is_empty()) {
            return Err(ChangeError::Input(format!("criterion {}: the check command is empty", c.id)));
        }
        for g in &c.scope {
            Glob::new(g).map_err(|e| ChangeError::Input(format!("criterion {}: scope glob {g:?}: {e}", c.id)))?;
        }
        for a in &c.allows {
            if !WEAKENING_CLASSES.contains(&a.as_str()) {
                return Err(ChangeError::Input(format!(
                    "criterion {}: allows {a:?} is not a weakening class ({})",
                    c.id,
                    WEAKENING_CLASSES.join(", ")
                )));
            }
        }
        if c.timeout_secs == Some(0) {
            return Err(ChangeError::Input(format!("criterion {}: timeout must be at least 1 second", c.id)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_checklists_carry_checks_scopes_and_allowances() {
        let md = "# Acceptance\n\nSome prose.\n\n- [ ] AC1: adds returns the sum\n  - check: `python3 -m unittest -q`\n  - scope: `src/**`, `tests/**`\n  - timeout: 30\n- [x] AC2: the README says so\n  - allows: test_skipped\n- not a criterion\n";
        let c = parse_markdown(md).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].id, "AC1");
        assert_eq!(c[0].text, "adds returns the sum");
        assert_eq!(c[0].check.as_deref(), Some("python3 -m unittest -q"));
        assert_eq!(c[0].scope, vec!["src/**", "tests/**"]);
        assert_eq!(c[0].timeout_secs, Some(30));
        assert_eq!(c[1].check, None);
        assert_eq!(c[1].allows, vec!["test_skipped"]);
        validate(&c).unwrap();
    }

    #[test]
    fn malformed_acceptance_is_refused_with_the_reason() {
        let cases: [(&str, &str); 6] = [
            (r#"{"criteria": []}"#, "no criteria"),
            (r#"{"criteria": [{"id": "a", "text": "t", "chek": "true"}]}"#, "unknown field"),
            (r#"{"criteria": [{"id": "a", "text": "t"}, {"id": "a", "text": "u"}]}"#, "twice"),
            (r#"{"criteria": [{"id": "a", "text": "t", "scope": ["src/[a"]}]}"#, "scope glob"),
            (r#"{"criteria": [{"id": "a", "text": "t", "allows": ["anything"]}]}"#, "not a weakening class"),
            (r#"{"criteria": [{"id": " ", "text": "t"}]}"#, "non-empty id"),
        ];
        for (json, want) in cases {
            let err = parse_json(json).and_then(|c| validate(&c)).unwrap_err().to_string();
            assert!(err.contains(want), "{json}: {err}");
        }
        let err = parse_markdown("- [ ] AC1: x\n  - chek: `true`\n").unwrap_err().to_string();
        assert!(err.contains("unknown criterion detail"), "{err}");
        let err = parse_markdown("- [ ] no id here\n").unwrap_err().to_string();
        assert!(err.contains("ID: text"), "{err}");
    }

    #[test]
    fn yaml_is_the_json_document_written_as_yaml() {
        let yaml = "criteria:\n  - id: AC1\n    text: adds\n    check: python3 -m unittest -q\n    scope: [\"src/**\"]\n    timeout_secs: 30\n  - id: AC2\n    text: documented\n";
        let c = parse_yaml(yaml).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].check.as_deref(), Some("python3 -m unittest -q"));
        assert_eq!(c[0].scope, vec!["src/**"]);
        assert_eq!(c[0].timeout_secs, Some(30));
        assert_eq!(c[1].check, None);
        let err = parse_yaml("criteria:\n  - id: a\n    text: t\n    chek: x\n").unwrap_err().to_string();
        assert!(err.contains("unknown field"), "{err}");
    }

    #[test]
    fn the_digest_is_of_the_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("acc.json");
        let text = r#"{"criteria": [{"id": "a", "text": "t", "check": "true"}]}"#;
        std::fs::write(&p, text).unwrap();
        let a = load(&p).unwrap();
        assert_eq!(a.digest, sha256_hex(text.as_bytes()));
        assert_eq!(a.criteria[0].check.as_deref(), Some("true"));
    }
}
