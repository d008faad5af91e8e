//! Behavioural and architectural claims without an LLM investigator: only what their anchors
//! prove.
//!
//! Never VALID from Tier A. STALE when the code it describes moved; CONTRADICTED when that code is
//! gone; otherwise **not checked** (left for Tier B).

use memval_proto::{ClaimType, CodeRef, Outcome, UnixSeconds, Verdict};

use super::combine;
use super::common::checked;
use super::Checker;

impl Checker<'_> {
    /// Tier B claims (behavioral, architectural) without an investigator: a verdict only
    /// where the anchors alone prove one (the code they describe is gone or moved).
    pub(super) fn check_anchors(&self, claim_type: ClaimType, refs: &[CodeRef], since: Option<UnixSeconds>) -> Outcome {
        let outcomes: Vec<(&CodeRef, Outcome)> =
            refs.iter().filter(|r| !r.path.trim().is_empty()).map(|r| (r, self.check_ref(r, since))).collect();
        match combine(outcomes) {
            Outcome::Checked { verdict: Verdict::Contradicted, confidence, evidence, since, .. } => checked(
                Verdict::Contradicted,
                confidence.min(80),
                format!("{evidence} — the code this {claim_type} claim describes is gone"),
                None,
            )
            .since(since),
            Outcome::Checked { verdict: Verdict::Stale, confidence, evidence, successor, since } => checked(
                Verdict::Stale,
                confidence.min(60),
                format!(
                    "{evidence} — the code this {claim_type} claim describes has moved; its behaviour is unchecked"
                ),
                successor,
            )
            .since(since),
            // Every anchor is there (or undecided): what the claim says of them needs judgement.
            Outcome::Checked { evidence, .. } => Outcome::NotChecked {
                reason: format!(
                    "{claim_type} claim needs an LLM investigator (none configured); its anchors: {evidence}"
                ),
            },
            not_checked @ Outcome::NotChecked { .. } => not_checked,
        }
    }
}
