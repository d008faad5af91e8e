use serde::{Deserialize, Serialize};

use crate::Claim;

/// docs/contracts.md §3 verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Verdict {
    Valid,
    Stale,
    Contradicted,
    Ambiguous,
}

impl Verdict {
    pub const ALL: [Verdict; 4] = [Verdict::Valid, Verdict::Stale, Verdict::Contradicted, Verdict::Ambiguous];

    /// docs/contracts.md §3 points.
    pub fn points(self) -> u32 {
        match self {
            Verdict::Valid => 0,
            Verdict::Stale => 25,
            Verdict::Contradicted => 40,
            Verdict::Ambiguous => 10,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Valid => "VALID",
            Verdict::Stale => "STALE",
            Verdict::Contradicted => "CONTRADICTED",
            Verdict::Ambiguous => "AMBIGUOUS",
        }
    }

    pub fn parse(s: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.as_str().eq_ignore_ascii_case(s))
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What happened to one claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Checked {
        verdict: Verdict,
        /// 0-100, the strength of the evidence: the investigator's checks use a fixed scale
        /// (kept with `services/investigator/src/check/mod.rs`); a model's confidence is kept only
        /// as docs/llm.md says.
        confidence: u8,
        /// Starts with `path:line` and says what was found.
        evidence: String,
        /// New path, symbol or value when the verdict is STALE.
        successor: Option<String>,
    },
    /// Not proven either way by this run (Tier B without an investigator, budget, ...).
    NotChecked { reason: String },
}

/// A claim and its outcome; `index` is the claim's position in its memory's claim list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimResult {
    pub index: u32,
    pub claim: Claim,
    pub outcome: Outcome,
}

/// docs/contracts.md §3 suggested action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Pass,
    FlagForUser,
    FlagForReview,
    SuggestArchive,
}

impl Action {
    pub fn from_score(score: u8) -> Action {
        match score {
            0 => Action::Pass,
            1..=39 => Action::FlagForUser,
            40..=80 => Action::FlagForReview,
            _ => Action::SuggestArchive,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Action::Pass => "pass",
            Action::FlagForUser => "flag_for_user",
            Action::FlagForReview => "flag_for_review",
            Action::SuggestArchive => "suggest_archive",
        }
    }
}
