//! `--fail-on` of a validation run: the verdict at or above which a run fails (exit 1), or
//! never. One type from where it is given (`memval validate --fail-on`, the MCP
//! `validate_memories` tool's `fail_on`) to the report's `run.fail_on`.
//!
//! `--fail-confidence` goes with it: only a verdict at that confidence or above counts toward
//! `--fail-on` ([`FAIL_CONFIDENCE`] by default). A verdict below it is reported like any other;
//! it does not fail the run, and integrations that interrupt an agent do not name it.

use std::fmt;
use std::str::FromStr;

use memval_proto::Verdict;
use serde::{Deserialize, Serialize};

/// The confidence from which a verdict counts toward `--fail-on` unless the user says
/// otherwise: the level memval's checks give only on evidence that held up on real
/// repositories' notes and docs (BENCHMARKS.md, the precision benchmark).
pub const FAIL_CONFIDENCE: u8 = 80;

/// What `--fail-on` names. It serializes (and deserializes) as its [`name`](FailOn::name):
/// `"stale"` in the report's `run.fail_on`, as it always has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailOn {
    Ambiguous,
    /// The default of `memval validate` and of the MCP tool.
    #[default]
    Stale,
    Contradicted,
    Never,
}

impl FailOn {
    /// Every value, in the order `--help` lists them.
    pub const ALL: [FailOn; 4] = [FailOn::Ambiguous, FailOn::Stale, FailOn::Contradicted, FailOn::Never];

    /// The name a user gives (`--fail-on stale`) and the report shows.
    pub fn name(self) -> &'static str {
        match self {
            FailOn::Ambiguous => "ambiguous",
            FailOn::Stale => "stale",
            FailOn::Contradicted => "contradicted",
            FailOn::Never => "never",
        }
    }

    /// One line for `--help` where the name alone does not say it.
    pub fn help(self) -> Option<&'static str> {
        match self {
            FailOn::Never => Some("Never exit 1 for verdicts"),
            _ => None,
        }
    }

    /// The verdict at or above which the run fails; `None` for never.
    pub fn threshold(self) -> Option<Verdict> {
        match self {
            FailOn::Ambiguous => Some(Verdict::Ambiguous),
            FailOn::Stale => Some(Verdict::Stale),
            FailOn::Contradicted => Some(Verdict::Contradicted),
            FailOn::Never => None,
        }
    }

    /// Whether a claim with `verdict` reaches the threshold (severity order: [`severity`]).
    pub fn reached_by(self, verdict: Verdict) -> bool {
        self.threshold().is_some_and(|f| severity(verdict) >= severity(f))
    }

    /// Whether a claim with `verdict` at `confidence` fails the run: it reaches the threshold
    /// at `floor` (`--fail-confidence`) or above.
    pub fn failed_by(self, verdict: Verdict, confidence: u8, floor: u8) -> bool {
        confidence >= floor && self.reached_by(verdict)
    }
}

/// Severity order for `--fail-on`: AMBIGUOUS < STALE < CONTRADICTED.
pub fn severity(v: Verdict) -> u8 {
    match v {
        Verdict::Valid => 0,
        Verdict::Ambiguous => 1,
        Verdict::Stale => 2,
        Verdict::Contradicted => 3,
    }
}

impl fmt::Display for FailOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--fail-on` value that is none of [`FailOn::ALL`]'s names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFailOn(pub String);

impl fmt::Display for UnknownFailOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = FailOn::ALL.iter().map(|v| v.name()).collect();
        write!(f, "unknown --fail-on value {:?} (one of {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownFailOn {}

impl FromStr for FailOn {
    type Err = UnknownFailOn;

    /// A name exactly as [`FailOn::name`] gives it.
    fn from_str(s: &str) -> Result<FailOn, UnknownFailOn> {
        FailOn::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| UnknownFailOn(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_print_and_serialize_alike() {
        for v in FailOn::ALL {
            assert_eq!(v.name().parse::<FailOn>(), Ok(v));
            assert_eq!(v.to_string(), v.name());
            assert_eq!(serde_json::to_value(v).unwrap(), v.name());
            assert_eq!(serde_json::from_value::<FailOn>(serde_json::json!(v.name())).unwrap(), v);
        }
        assert!("Stale".parse::<FailOn>().is_err());
        assert_eq!(FailOn::default(), FailOn::Stale);
    }

    #[test]
    fn a_threshold_is_reached_at_or_above_it() {
        assert!(FailOn::Stale.reached_by(Verdict::Stale));
        assert!(FailOn::Stale.reached_by(Verdict::Contradicted));
        assert!(!FailOn::Stale.reached_by(Verdict::Ambiguous));
        assert!(!FailOn::Contradicted.reached_by(Verdict::Stale));
        assert!(FailOn::Ambiguous.reached_by(Verdict::Ambiguous));
        assert!(!FailOn::Ambiguous.reached_by(Verdict::Valid));
        for v in Verdict::ALL {
            assert!(!FailOn::Never.reached_by(v));
        }
    }
}
