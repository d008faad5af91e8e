//! The validation result (docs/contracts.md §8) and the one function that chooses PASS, FAIL or
//! NOT_PROVEN from it.
//!
//! Every finding has a class from [`Class`], a closed list, so the same kind of defect is
//! named word for word each time it recurs. The decision never relabels: a finding or an
//! unverified criterion can only keep a result away from PASS, never be dropped to reach it.
//!
//! The result is docs/contracts.md §8's object plus `evidence`, the list `evidence_refs` point
//! into: manifests, check runs with exit code, output tail and duration, the scope report, each
//! reviewer's opinion. Finding classes are a closed enum, serialised by fixed names.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    #[serde(rename = "PASS")]
    Pass,
    #[serde(rename = "FAIL")]
    Fail,
    #[serde(rename = "NOT_PROVEN")]
    NotProven,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "PASS",
            Outcome::Fail => "FAIL",
            Outcome::NotProven => "NOT_PROVEN",
        }
    }

    /// The command's exit code: 0 PASS, 1 FAIL, 3 NOT_PROVEN (2 is bad input).
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Pass => 0,
            Outcome::Fail => 1,
            Outcome::NotProven => 3,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CriterionOutcome {
    Pass,
    Fail,
    NotChecked,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriterionResult {
    pub id: String,
    pub result: CriterionOutcome,
    pub reason: String,
    /// Ids of entries in the result's `evidence`.
    pub evidence_refs: Vec<String>,
}

/// The kind of a finding. Names are stable: they are the contract with whoever watches a
/// closed kind come back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    CheckFailed,
    CheckTimedOut,
    CheckNotRun,
    OutOfScopeChange,
    TestDeleted,
    TestSkipped,
    ToleranceWidened,
    GoldenRewritten,
    AcceptanceRewritten,
    SubjectMutated,
    EmptySubject,
    ContextCollision,
    ContextMissing,
    FreshnessUnattested,
    UnverifiedCriterion,
    ReviewFailed,
    ReviewerSplit,
    FabricatedCitation,
    UncitedReview,
    ReviewMalformed,
    ReviewUnavailable,
    DiversityUnsatisfied,
}

impl Class {
    pub fn as_str(self) -> &'static str {
        match self {
            Class::CheckFailed => "check_failed",
            Class::CheckTimedOut => "check_timed_out",
            Class::CheckNotRun => "check_not_run",
            Class::OutOfScopeChange => "out_of_scope_change",
            Class::TestDeleted => "test_deleted",
            Class::TestSkipped => "test_skipped",
            Class::ToleranceWidened => "tolerance_widened",
            Class::GoldenRewritten => "golden_rewritten",
            Class::AcceptanceRewritten => "acceptance_rewritten",
            Class::SubjectMutated => "subject_mutated",
            Class::EmptySubject => "empty_subject",
            Class::ContextCollision => "context_collision",
            Class::ContextMissing => "context_missing",
            Class::FreshnessUnattested => "freshness_unattested",
            Class::UnverifiedCriterion => "unverified_criterion",
            Class::ReviewFailed => "review_failed",
            Class::ReviewerSplit => "reviewer_split",
            Class::FabricatedCitation => "fabricated_citation",
            Class::UncitedReview => "uncited_review",
            Class::ReviewMalformed => "review_malformed",
            Class::ReviewUnavailable => "review_unavailable",
            Class::DiversityUnsatisfied => "diversity_unsatisfied",
        }
    }

    /// The weakening class of a scope finding.
    pub fn weakening(name: &str) -> Option<Class> {
        Some(match name {
            "test_deleted" => Class::TestDeleted,
            "test_skipped" => Class::TestSkipped,
            "tolerance_widened" => Class::ToleranceWidened,
            "golden_rewritten" => Class::GoldenRewritten,
            "acceptance_rewritten" => Class::AcceptanceRewritten,
            _ => return None,
        })
    }

    /// Findings that are a proven defect of the change make it FAIL.
    fn is_defect(self) -> bool {
        matches!(
            self,
            Class::CheckFailed
                | Class::OutOfScopeChange
                | Class::TestDeleted
                | Class::TestSkipped
                | Class::ToleranceWidened
                | Class::GoldenRewritten
                | Class::AcceptanceRewritten
                | Class::ReviewFailed
                | Class::ReviewerSplit
        )
    }

    /// Findings that void the validation itself: the subject was not one fixed thing, or the
    /// validator's independence is not attested. No verdict, not even FAIL, rests on them.
    fn voids_validation(self) -> bool {
        matches!(
            self,
            Class::SubjectMutated
                | Class::EmptySubject
                | Class::ContextCollision
                | Class::ContextMissing
                | Class::FreshnessUnattested
        )
    }
}

impl Serialize for Class {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub class: Class,
    pub summary: String,
    pub evidence: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotChecked {
    /// A criterion id, or `change_scope` / `weakening` for the change as a whole.
    pub id: String,
    pub reason: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FreshnessSource {
    Runtime,
    Caller,
}

impl FreshnessSource {
    /// The names a flag or a file gives the sources by, as they are serialised.
    pub const NAMES: [&'static str; 2] = ["runtime", "caller"];
}

impl std::str::FromStr for FreshnessSource {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "runtime" => Ok(FreshnessSource::Runtime),
            "caller" => Ok(FreshnessSource::Caller),
            _ => Err(format!("{s:?} is not a freshness source ({})", FreshnessSource::NAMES.join(", "))),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Freshness {
    pub source: FreshnessSource,
    pub attester: String,
}

/// One piece of evidence the result rests on; criteria and findings refer to it by `id`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    pub id: String,
    /// `manifest`, `check`, `scope` or `review`.
    pub kind: &'static str,
    pub detail: Value,
}

/// docs/contracts.md §8's result, plus `evidence` (what `evidence_refs` point at).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Validation {
    pub result: Outcome,
    pub criteria: Vec<CriterionResult>,
    pub findings: Vec<Finding>,
    pub checked: Vec<String>,
    pub not_checked: Vec<NotChecked>,
    pub subject_digest: String,
    pub acceptance_digest: String,
    pub author_context: String,
    pub validator_context: String,
    pub freshness: Option<Freshness>,
    pub evidence: Vec<Evidence>,
}

/// PASS, FAIL or NOT_PROVEN, exactly as docs/contracts.md §8 and the seed order them:
/// 1. a voided validation (mutated or empty subject, colliding or missing contexts,
///    unattested freshness) is NOT_PROVEN, whatever else was seen;
/// 2. a proven defect (a failed check, a delivered FAIL, an out-of-scope path, weakened
///    acceptance) is FAIL;
/// 3. PASS needs a non-empty `checked`, evidence for every criterion, every criterion passed,
///    non-empty top-level evidence, an empty `not_checked` and no finding at all;
/// 4. anything else is NOT_PROVEN.
pub fn decide(v: &Validation) -> Outcome {
    if v.findings.iter().any(|f| f.class.voids_validation()) {
        return Outcome::NotProven;
    }
    if v.findings.iter().any(|f| f.class.is_defect()) || v.criteria.iter().any(|c| c.result == CriterionOutcome::Fail) {
        return Outcome::Fail;
    }
    let all_proven = !v.criteria.is_empty()
        && v.criteria.iter().all(|c| c.result == CriterionOutcome::Pass && !c.evidence_refs.is_empty());
    if all_proven
        && !v.checked.is_empty()
        && !v.evidence.is_empty()
        && v.not_checked.is_empty()
        && v.findings.is_empty()
    {
        Outcome::Pass
    } else {
        Outcome::NotProven
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freshness_sources_parse_by_their_serialised_names() {
        for name in FreshnessSource::NAMES {
            let source: FreshnessSource = name.parse().unwrap();
            assert_eq!(serde_json::to_value(source).unwrap(), name);
        }
        assert!("Runtime".parse::<FreshnessSource>().is_err());
        assert!("".parse::<FreshnessSource>().is_err());
    }

    fn passing() -> Validation {
        Validation {
            result: Outcome::NotProven,
            criteria: vec![CriterionResult {
                id: "AC1".into(),
                result: CriterionOutcome::Pass,
                reason: "exit 0".into(),
                evidence_refs: vec!["check:AC1".into()],
            }],
            findings: vec![],
            checked: vec!["AC1".into()],
            not_checked: vec![],
            subject_digest: "s".into(),
            acceptance_digest: "a".into(),
            author_context: "ctx-a".into(),
            validator_context: "ctx-v".into(),
            freshness: Some(Freshness { source: FreshnessSource::Runtime, attester: "memval".into() }),
            evidence: vec![Evidence { id: "check:AC1".into(), kind: "check", detail: Value::Null }],
        }
    }

    fn finding(class: Class) -> Finding {
        Finding { class, summary: "x".into(), evidence: vec![] }
    }

    #[test]
    fn pass_only_under_every_condition() {
        assert_eq!(decide(&passing()), Outcome::Pass);
        type Case = (&'static str, Box<dyn Fn(&mut Validation)>, Outcome);
        let cases: Vec<Case> = vec![
            ("a failed criterion", Box::new(|v| v.criteria[0].result = CriterionOutcome::Fail), Outcome::Fail),
            ("a weakening", Box::new(|v| v.findings.push(finding(Class::TestSkipped))), Outcome::Fail),
            (
                "a criterion not checked",
                Box::new(|v| v.criteria[0].result = CriterionOutcome::NotChecked),
                Outcome::NotProven,
            ),
            ("a criterion without evidence", Box::new(|v| v.criteria[0].evidence_refs.clear()), Outcome::NotProven),
            ("an empty checked", Box::new(|v| v.checked.clear()), Outcome::NotProven),
            ("no top-level evidence", Box::new(|v| v.evidence.clear()), Outcome::NotProven),
            (
                "a not_checked entry",
                Box::new(|v| v.not_checked.push(NotChecked { id: "change_scope".into(), reason: "r".into() })),
                Outcome::NotProven,
            ),
            ("no criteria", Box::new(|v| v.criteria.clear()), Outcome::NotProven),
            (
                "a non-defect finding",
                Box::new(|v| v.findings.push(finding(Class::DiversityUnsatisfied))),
                Outcome::NotProven,
            ),
            (
                "colliding contexts, even with a failure",
                Box::new(|v| {
                    v.findings.push(finding(Class::ContextCollision));
                    v.criteria[0].result = CriterionOutcome::Fail;
                }),
                Outcome::NotProven,
            ),
            (
                "a mutated subject, even with a failure",
                Box::new(|v| {
                    v.findings.push(finding(Class::SubjectMutated));
                    v.findings.push(finding(Class::CheckFailed));
                }),
                Outcome::NotProven,
            ),
            (
                "unattested freshness",
                Box::new(|v| v.findings.push(finding(Class::FreshnessUnattested))),
                Outcome::NotProven,
            ),
        ];
        for (what, change, want) in cases {
            let mut v = passing();
            change(&mut v);
            assert_eq!(decide(&v), want, "{what}");
        }
    }

    #[test]
    fn classes_serialise_as_their_stable_names() {
        let json = serde_json::to_value(finding(Class::OutOfScopeChange)).unwrap();
        assert_eq!(json["class"], "out_of_scope_change");
        for name in super::super::acceptance::WEAKENING_CLASSES {
            assert_eq!(Class::weakening(name).unwrap().as_str(), name);
        }
        assert_eq!(serde_json::to_value(Outcome::NotProven).unwrap(), "NOT_PROVEN");
        assert_eq!([Outcome::Pass, Outcome::Fail, Outcome::NotProven].map(Outcome::exit_code), [0, 1, 3]);
    }
}
