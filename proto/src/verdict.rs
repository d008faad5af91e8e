use serde::{Deserialize, Serialize};

use crate::{Claim, UnixSeconds};

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
///
/// On the wire (and in the store) an outcome with a [`Since`] travels as a third variant after
/// the two older ones, so a message or a stored claim written before `since` existed still
/// decodes (as `since: None`); see [`OutcomeWire`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "OutcomeWire", into = "OutcomeWire")]
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
        /// The commit that moved, renamed, removed or changed what the claim names, when git
        /// history decided a STALE or CONTRADICTED verdict.
        since: Option<Since>,
    },
    /// Not proven either way by this run (Tier B without an investigator, budget, ...).
    NotChecked { reason: String },
}

impl Outcome {
    /// The same outcome, decided by the change `since` (a checked outcome only).
    pub fn since(mut self, change: Option<Since>) -> Outcome {
        if let Outcome::Checked { since, .. } = &mut self {
            *since = change;
        }
        self
    }

    /// The change that decided it, if history did.
    pub fn decided_by(&self) -> Option<&Since> {
        match self {
            Outcome::Checked { since, .. } => since.as_ref(),
            Outcome::NotChecked { .. } => None,
        }
    }
}

/// When a claim became false: the commit that made the change, and its committer date.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Since {
    /// Full commit id.
    pub commit: String,
    /// Committer date of that commit.
    pub date: UnixSeconds,
}

/// [`Outcome`] as postcard carries it. Postcard has no field tags, so a field cannot be added
/// to a variant; a variant can be added at the end. `CheckedSince` is written only when there
/// is a `since`, so what older builds wrote and read stays byte for byte the same.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum OutcomeWire {
    Checked { verdict: Verdict, confidence: u8, evidence: String, successor: Option<String> },
    NotChecked { reason: String },
    CheckedSince { verdict: Verdict, confidence: u8, evidence: String, successor: Option<String>, since: Since },
}

impl From<OutcomeWire> for Outcome {
    fn from(w: OutcomeWire) -> Outcome {
        match w {
            OutcomeWire::Checked { verdict, confidence, evidence, successor } => {
                Outcome::Checked { verdict, confidence, evidence, successor, since: None }
            }
            OutcomeWire::NotChecked { reason } => Outcome::NotChecked { reason },
            OutcomeWire::CheckedSince { verdict, confidence, evidence, successor, since } => {
                Outcome::Checked { verdict, confidence, evidence, successor, since: Some(since) }
            }
        }
    }
}

impl From<Outcome> for OutcomeWire {
    fn from(o: Outcome) -> OutcomeWire {
        match o {
            Outcome::Checked { verdict, confidence, evidence, successor, since: None } => {
                OutcomeWire::Checked { verdict, confidence, evidence, successor }
            }
            Outcome::Checked { verdict, confidence, evidence, successor, since: Some(since) } => {
                OutcomeWire::CheckedSince { verdict, confidence, evidence, successor, since }
            }
            Outcome::NotChecked { reason } => OutcomeWire::NotChecked { reason },
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape `Outcome` had before `since`, as older builds and stores wrote it.
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Before {
        Checked { verdict: Verdict, confidence: u8, evidence: String, successor: Option<String> },
        NotChecked { reason: String },
    }

    fn checked(since: Option<Since>) -> Outcome {
        Outcome::Checked {
            verdict: Verdict::Stale,
            confidence: 95,
            evidence: "a.rs — git: renamed a.rs → b.rs in 1234567".into(),
            successor: Some("b.rs".into()),
            since,
        }
    }

    #[test]
    fn an_outcome_without_since_is_written_as_before_and_what_was_written_before_still_reads() {
        let before = Before::Checked {
            verdict: Verdict::Stale,
            confidence: 95,
            evidence: "a.rs — git: renamed a.rs → b.rs in 1234567".into(),
            successor: Some("b.rs".into()),
        };
        let old = postcard::to_stdvec(&before).unwrap();
        assert_eq!(postcard::to_stdvec(&checked(None)).unwrap(), old);
        assert_eq!(postcard::from_bytes::<Outcome>(&old).unwrap(), checked(None));
        let not = postcard::to_stdvec(&Before::NotChecked { reason: "budget".into() }).unwrap();
        assert_eq!(postcard::from_bytes::<Outcome>(&not).unwrap(), Outcome::NotChecked { reason: "budget".into() });
    }

    #[test]
    fn an_outcome_with_since_round_trips_and_says_so() {
        let since = Since { commit: "1234567890abcdef1234567890abcdef12345678".into(), date: 1_700_000_000 };
        let with = checked(Some(since.clone()));
        let bytes = postcard::to_stdvec(&with).unwrap();
        assert_ne!(bytes, postcard::to_stdvec(&checked(None)).unwrap());
        let back: Outcome = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back.decided_by(), Some(&since));
        assert_eq!(back, with);
        assert_eq!(checked(None).since(Some(since.clone())), with);
    }
}
