//! The change under judgement (`--base REV`): every path that differs between REV and the
//! working tree, committed or not, as `memval_git::diff` reads it; each is adjudicated against
//! the criteria's scope globs, and the diff is searched for green obtained by weakening
//! acceptance (a test deleted or skipped, a tolerance widened, a golden file or the acceptance
//! file rewritten).
//!
//! A git failure is an error, never "no changes": an empty change is only what git says it is.
//! This module never runs git itself, and nothing it calls writes the repository.
//!
//! `memval_git::diff` gives every changed path between the base and the working tree (renames
//! detected, untracked files included); build output is then left out as in the manifest. Each
//! path is matched against the criteria's scope globs. The `-U0` diff of the files that existed
//! at the base is read for weakening (a file the change adds weakens nothing that was there): skip
//! markers added (more than removed), test definitions or test files removed, a tolerance line
//! whose only change is a number that grew, a golden/expected file or the acceptance file changed.
//! A criterion's `allows` (a weakening class, in its scope) makes that weakening part of the change
//! instead of a finding. A git failure is an error (exit 2).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use super::acceptance::Criterion;
use super::ChangeError;

pub use memval_git::diff::{ChangedPath, FileDiff};

/// A change that weakens acceptance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Weakening {
    pub class: &'static str,
    pub path: String,
    pub detail: String,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct ScopeReport {
    /// The commit `--base` resolved to.
    pub base: String,
    pub changed: Vec<ChangedPath>,
    /// Whether any criterion declares a scope; without one, no path can be adjudicated.
    pub scope_declared: bool,
    pub out_of_scope: Vec<String>,
    pub weakenings: Vec<Weakening>,
    /// Weakenings a criterion requires (`allows`), with that criterion's id.
    pub required: Vec<(Weakening, String)>,
}

/// The commit `rev` names in the repository holding `root`.
pub fn resolve_base(root: &Path, rev: &str) -> Result<String, ChangeError> {
    if rev.starts_with('-') {
        return Err(ChangeError::Input(format!("--base {rev:?} is not a revision")));
    }
    Ok(memval_git::diff::resolve_commit(root, rev)?)
}

/// Every path that differs between `base` and the working tree under `root` (tracked
/// changes, committed or not, and untracked files that are not ignored), build output left
/// out, sorted by path.
pub fn changed_paths(root: &Path, base: &str) -> Result<Vec<ChangedPath>, ChangeError> {
    let mut changed = memval_git::diff::changed_paths(root, base)?;
    // Build output is not part of the subject (the manifest excludes it too): a test run's
    // `__pycache__/` is not a change.
    let observed = |p: &str| !p.split('/').any(|c| super::manifest::EXCLUSIONS.contains(&c));
    changed.retain(|c| observed(&c.path) || c.old_path.as_deref().is_some_and(observed));
    changed.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(changed)
}

/// The line changes of every tracked file, keyed by its path after the change.
pub fn line_changes(root: &Path, base: &str) -> Result<BTreeMap<String, FileDiff>, ChangeError> {
    Ok(memval_git::diff::line_changes(root, base)?)
}

/// The change as a reviewer reads it: a unified diff with 3 lines of context.
pub fn review_diff(root: &Path, base: &str) -> Result<String, ChangeError> {
    Ok(memval_git::diff::review_diff(root, base)?)
}

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("a fixed pattern compiles"))
}

fn skip_marker() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"#\[ignore\b|@pytest\.mark\.(skip|xfail)|@unittest\.(skip|expectedFailure)|\.skipTest\(|\bt\.Skip(Now|f)?\(|\.skip\(|\bxit\(|\bxdescribe\(|\bxtest\(",
    )
}

fn test_definition() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r#"#\[(tokio::)?test\b|\bdef test_?\w*\s*\(|\bfunc Test\w*\(|\b(it|test)\(\s*['"`]"#)
}

fn tolerance_word() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    // Words whose number only loosens a check as it grows. `threshold` is not one of them: a
    // raised coverage threshold is stricter.
    re(
        &R,
        r"(?i)toleran|epsilon|\beps\b|atol|rtol|\bdelta\b|margin|abs_tol|rel_tol|approx|max_?diff|allowed_?(error|diff)",
    )
}

fn number() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"\d+(\.\d+)?([eE][-+]?\d+)?")
}

fn golden_path() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"(?i)golden|__snapshots__|(^|/)snapshots/|\.snap$|\.expected$|(^|/)expected[^/]*$")
}

fn is_test_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    lower.split('/').any(|c| c == "tests" || c == "test" || c == "__tests__" || c == "spec")
        || name.starts_with("test_")
        || name.contains("_test.")
        || name.contains(".test.")
        || name.contains(".spec.")
}

fn count(r: &Regex, lines: &[String]) -> usize {
    lines.iter().map(|l| r.find_iter(l).count()).sum()
}

/// A removed/added line pair that differs only in numbers, on a tolerance line, where a
/// number grew: the tolerance was widened.
fn widened(removed: &str, added: &str) -> Option<String> {
    if !tolerance_word().is_match(removed) || !tolerance_word().is_match(added) {
        return None;
    }
    let mask = |s: &str| number().replace_all(s.trim(), "N").into_owned();
    if mask(removed) != mask(added) {
        return None;
    }
    let nums = |s: &str| number().find_iter(s).filter_map(|m| m.as_str().parse::<f64>().ok()).collect::<Vec<_>>();
    let (before, after) = (nums(removed), nums(added));
    before
        .iter()
        .zip(&after)
        .find(|(b, a)| a > b)
        .map(|(b, a)| format!("{b} became {a}: `{}` → `{}`", removed.trim(), added.trim()))
}

/// Weakenings in a change: from the changed paths, the line changes of files that existed at
/// the base, and the acceptance file's own path. A file the change adds weakens nothing that
/// was there: its skip markers (often test data, as in this module's own tests) are not read.
pub fn weakenings(
    changed: &[ChangedPath],
    diffs: &BTreeMap<String, FileDiff>,
    acceptance_rel: Option<&str>,
) -> Vec<Weakening> {
    let mut out = Vec::new();
    for c in changed {
        if c.status == 'D' && is_test_path(&c.path) {
            out.push(Weakening {
                class: "test_deleted",
                path: c.path.clone(),
                detail: "a test file was deleted".into(),
            });
        }
        if matches!(c.status, 'M' | 'D' | 'R' | 'T') && golden_path().is_match(c.old_path.as_deref().unwrap_or(&c.path))
        {
            out.push(Weakening {
                class: "golden_rewritten",
                path: c.path.clone(),
                detail: format!("a golden/expected-output file was {}", status_word(c.status)),
            });
        }
        if acceptance_rel.is_some_and(|a| a == c.path || c.old_path.as_deref() == Some(a)) {
            out.push(Weakening {
                class: "acceptance_rewritten",
                path: c.path.clone(),
                detail: format!("the acceptance file itself was {}", status_word(c.status)),
            });
        }
    }
    // Per file: removed lines, added lines, and removed/added pairs in the same hunk.
    struct Lines {
        path: String,
        removed: Vec<String>,
        added: Vec<String>,
        pairs: Vec<(String, String)>,
    }
    let added: std::collections::HashSet<&str> =
        changed.iter().filter(|c| matches!(c.status, 'A' | 'U')).map(|c| c.path.as_str()).collect();
    let mut per_file: Vec<Lines> = Vec::new();
    for (path, diff) in diffs.iter().filter(|(p, _)| !added.contains(p.as_str())) {
        let removed: Vec<String> = diff.hunks.iter().flat_map(|h| h.0.clone()).collect();
        let added: Vec<String> = diff.hunks.iter().flat_map(|h| h.1.clone()).collect();
        let pairs = diff.hunks.iter().flat_map(|(r, a)| r.iter().cloned().zip(a.iter().cloned())).collect();
        per_file.push(Lines { path: path.clone(), removed, added, pairs });
    }
    for Lines { path, removed, added, pairs } in per_file {
        let (skips_before, skips_after) = (count(skip_marker(), &removed), count(skip_marker(), &added));
        if skips_after > skips_before {
            let example =
                added.iter().find(|l| skip_marker().is_match(l)).map(|l| l.trim().to_owned()).unwrap_or_default();
            out.push(Weakening {
                class: "test_skipped",
                path: path.clone(),
                detail: format!("{} skip marker(s) added: `{example}`", skips_after - skips_before),
            });
        }
        let (tests_before, tests_after) = (count(test_definition(), &removed), count(test_definition(), &added));
        if tests_before > tests_after {
            let example =
                removed.iter().find(|l| test_definition().is_match(l)).map(|l| l.trim().to_owned()).unwrap_or_default();
            out.push(Weakening {
                class: "test_deleted",
                path: path.clone(),
                detail: format!("{} test definition(s) removed: `{example}`", tests_before - tests_after),
            });
        }
        for (r, a) in pairs {
            if let Some(detail) = widened(&r, &a) {
                out.push(Weakening { class: "tolerance_widened", path: path.clone(), detail });
            }
        }
    }
    out.sort_by(|a, b| (a.path.as_str(), a.class).cmp(&(b.path.as_str(), b.class)));
    out.dedup();
    out
}

fn status_word(s: char) -> &'static str {
    match s {
        'D' => "deleted",
        'R' => "renamed",
        'T' => "changed in type",
        'A' | 'U' => "added",
        _ => "modified",
    }
}

/// Adjudicate the change against `criteria`: paths outside every scope, and weakenings not
/// required by a criterion (one whose `allows` names the class and whose scope covers the path).
pub fn adjudicate(
    root: &Path,
    base_rev: &str,
    criteria: &[Criterion],
    acceptance_rel: Option<&str>,
) -> Result<ScopeReport, ChangeError> {
    let base = resolve_base(root, base_rev)?;
    let changed = changed_paths(root, &base)?;
    let diffs = line_changes(root, &base)?;
    let sets: Vec<(&Criterion, globset::GlobSet)> =
        criteria.iter().filter_map(|c| c.scope_set().map(|s| (c, s))).collect();
    let scope_declared = !sets.is_empty();
    let mut out_of_scope = Vec::new();
    if scope_declared {
        for c in &changed {
            for p in std::iter::once(&c.path).chain(c.old_path.as_ref()) {
                if !sets.iter().any(|(_, s)| s.is_match(p)) {
                    out_of_scope.push(p.clone());
                }
            }
        }
    }
    let mut report =
        ScopeReport { base, changed: changed.clone(), scope_declared, out_of_scope, ..ScopeReport::default() };
    for w in weakenings(&changed, &diffs, acceptance_rel) {
        let by = criteria
            .iter()
            .find(|c| c.allows.iter().any(|a| a == w.class) && c.scope_set().is_none_or(|s| s.is_match(&w.path)));
        match by {
            Some(c) => report.required.push((w, c.id.clone())),
            None => report.weakenings.push(w),
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff_of(removed: &[&str], added: &[&str]) -> FileDiff {
        FileDiff {
            hunks: vec![(
                removed.iter().map(|s| s.to_string()).collect(),
                added.iter().map(|s| s.to_string()).collect(),
            )],
        }
    }

    fn classes(path: &str, d: FileDiff) -> Vec<&'static str> {
        let mut diffs = BTreeMap::new();
        diffs.insert(path.to_owned(), d);
        let changed = [ChangedPath { status: 'M', path: path.to_owned(), old_path: None }];
        weakenings(&changed, &diffs, None).into_iter().map(|w| w.class).collect()
    }

    #[test]
    fn weakening_in_line_changes_is_named() {
        let cases: Vec<(&str, FileDiff, Vec<&str>)> = vec![
            ("src/lib.rs", diff_of(&["#[test]"], &["#[test]", "#[ignore]"]), vec!["test_skipped"]),
            ("tests/test_x.py", diff_of(&[], &["    @pytest.mark.skip(reason='flaky')"]), vec!["test_skipped"]),
            ("tests/test_x.py", diff_of(&[], &["    @unittest.skip('later')"]), vec!["test_skipped"]),
            ("x_test.go", diff_of(&[], &["\tt.Skip(\"todo\")"]), vec!["test_skipped"]),
            (
                "a.test.js",
                diff_of(&["it('adds', () => {"], &["xit('adds', () => {"]),
                vec!["test_deleted", "test_skipped"],
            ),
            ("a.test.js", diff_of(&[], &["describe.skip('suite', () => {"]), vec!["test_skipped"]),
            ("tests/test_x.py", diff_of(&["def test_add():", "    assert add(1, 2) == 3"], &[]), vec!["test_deleted"]),
            (
                "src/num.rs",
                diff_of(
                    &["assert_relative_eq!(a, b, epsilon = 1e-9);"],
                    &["assert_relative_eq!(a, b, epsilon = 1e-3);"],
                ),
                vec!["tolerance_widened"],
            ),
            (
                "tests/t.py",
                diff_of(&["assert x == pytest.approx(1.0, rel=0.01)"], &["assert x == pytest.approx(1.0, rel=0.5)"]),
                vec!["tolerance_widened"],
            ),
            // Tightening, moving a skip, and ordinary edits are not weakening.
            ("src/num.rs", diff_of(&["let tolerance = 0.5;"], &["let tolerance = 0.01;"]), vec![]),
            ("src/lib.rs", diff_of(&["#[ignore]", "#[test]"], &["#[test]", "#[ignore]"]), vec![]),
            (
                "src/lib.rs",
                diff_of(&["fn add(a: i32) -> i32 { a }"], &["fn add(a: i32, b: i32) -> i32 { a + b }"]),
                vec![],
            ),
            ("src/lib.rs", diff_of(&["let retries = 3;"], &["let retries = 5;"]), vec![]),
            ("ci.toml", diff_of(&["coverage_threshold = 80"], &["coverage_threshold = 90"]), vec![]),
        ];
        for (path, d, want) in cases {
            assert_eq!(classes(path, d.clone()), want, "{path}: {d:?}");
        }
    }

    #[test]
    fn a_file_the_change_adds_weakens_nothing() {
        let mut diffs = BTreeMap::new();
        diffs.insert("tests/new_test.rs".to_owned(), diff_of(&[], &["#[ignore]", "r#\"@pytest.mark.skip\"#"]));
        diffs.insert("tests/old_test.rs".to_owned(), diff_of(&[], &["#[ignore]"]));
        let changed = [
            ChangedPath { status: 'A', path: "tests/new_test.rs".into(), old_path: None },
            ChangedPath { status: 'M', path: "tests/old_test.rs".into(), old_path: None },
        ];
        let w = weakenings(&changed, &diffs, None);
        let got: Vec<(&str, &str)> = w.iter().map(|w| (w.path.as_str(), w.class)).collect();
        assert_eq!(got, vec![("tests/old_test.rs", "test_skipped")]);
    }

    #[test]
    fn deleted_tests_goldens_and_the_acceptance_file_are_named_by_path() {
        let changed = vec![
            ChangedPath { status: 'D', path: "tests/test_parser.py".into(), old_path: None },
            ChangedPath { status: 'M', path: "testdata/parse.golden".into(), old_path: None },
            ChangedPath { status: 'A', path: "testdata/new.golden".into(), old_path: None },
            ChangedPath { status: 'M', path: "acceptance.json".into(), old_path: None },
            ChangedPath { status: 'D', path: "src/old.py".into(), old_path: None },
        ];
        let w = weakenings(&changed, &BTreeMap::new(), Some("acceptance.json"));
        let got: Vec<(&str, &str)> = w.iter().map(|w| (w.path.as_str(), w.class)).collect();
        assert_eq!(
            got,
            vec![
                ("acceptance.json", "acceptance_rewritten"),
                ("testdata/parse.golden", "golden_rewritten"),
                ("tests/test_parser.py", "test_deleted")
            ]
        );
    }
}
