//! One finding, one row: which of a memory's checked claims is the same finding as another and
//! is shown in that claim's row instead of a row of its own. A leaf: it reads the scorer's claim
//! results (proto types) and imports nothing of the crate.
//!
//! The extractor reads a sentence such as "jobs are throttled by `TokenBucket` in
//! `worker/ratelimit.py`" twice: as a symbol claim, and as a behavioural (or architectural)
//! claim anchored to the same references. Without a model the investigator decides the second
//! from its anchors alone (`check/anchors.rs`): their combined evidence, the deciding anchor's
//! first, then a note that what the sentence says the code does is not checked, with a lower
//! confidence. Both then carry one finding, and a view listing both counts it twice.
//!
//! The rule: a checked behavioural or architectural claim `B` is folded into a checked claim
//! `A` of the same memory that is neither when
//! - they come from a common line of the memory (the same sentence, as far as lines tell);
//! - `A` names at least one reference, and every one of them (path, symbol, line) is among
//!   `B`'s;
//! - they have the same verdict, successor and `since`;
//! - `B`'s evidence is `A`'s, or `A`'s followed by a separator (` | ` or ` — `) and more: `B`'s
//!   verdict was derived from the evidence `A` shows.
//!
//! A claim with several candidates folds into the first. Only behavioural and architectural
//! claims fold, and only into others, so a row never hides behind a row that is itself hidden.
//! Folding is display only: scores, verdict counts, JSON and SARIF keep every claim.

use memval_proto::{ClaimResult, ClaimType, Outcome};

/// What `B`'s evidence may continue with after `A`'s (see the module doc).
const SEPARATORS: [&str; 2] = [" | ", " — "];

/// For each of a memory's checked claims, in order, the position (in the same list) of the
/// claim whose row shows it, or `None` when it has a row of its own.
pub(crate) fn folded_into(checked: &[&ClaimResult]) -> Vec<Option<usize>> {
    checked.iter().map(|b| checked.iter().position(|a| folds(b, a))).collect()
}

/// Whether `b` is the same finding as `a` and is shown in `a`'s row (the module doc's rule).
fn folds(b: &ClaimResult, a: &ClaimResult) -> bool {
    let (
        Outcome::Checked { verdict: bv, evidence: be, successor: bs, since: bsince, .. },
        Outcome::Checked { verdict: av, evidence: ae, successor: asucc, since: asince, .. },
    ) = (&b.outcome, &a.outcome)
    else {
        return false;
    };
    reading(b.claim.claim_type)
        && !reading(a.claim.claim_type)
        && shares_a_line(b, a)
        && !a.claim.code_refs.is_empty()
        && a.claim
            .code_refs
            .iter()
            .all(|r| b.claim.code_refs.iter().any(|s| s.path == r.path && s.symbol == r.symbol && s.line == r.line))
        && bv == av
        && bs == asucc
        && bsince == asince
        && extends(be, ae)
}

/// A claim about what code does or how it is arranged, rather than that a thing exists.
fn reading(claim_type: ClaimType) -> bool {
    matches!(claim_type, ClaimType::Behavioral | ClaimType::Architectural)
}

fn lines(r: &ClaimResult) -> &[u32] {
    if r.claim.lines.is_empty() {
        std::slice::from_ref(&r.claim.line)
    } else {
        &r.claim.lines
    }
}

fn shares_a_line(b: &ClaimResult, a: &ClaimResult) -> bool {
    lines(b).iter().any(|l| lines(a).contains(l))
}

/// `evidence` is `base`, or `base`, a separator and more.
fn extends(evidence: &str, base: &str) -> bool {
    !base.is_empty()
        && evidence
            .strip_prefix(base)
            .is_some_and(|rest| rest.is_empty() || SEPARATORS.iter().any(|s| rest.starts_with(s)))
}
