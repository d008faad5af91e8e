//! docs/contracts.md §3 enforced on the investigator model's answer, and its evidence verified against the
//! repo. A claim keeps the model's verdict only when: exactly one entry names its claim_id,
//! the verdict is in the enum, the confidence an integer 0-100, the evidence cites at least one
//! `path:line` that exists in the repo, and every backticked quote occurs at or near a cited
//! line. Anything else makes the claim AMBIGUOUS with confidence 0 and the reason.

use std::sync::OnceLock;

use memval_proto::{Claim, Outcome, Verdict};
use regex::Regex;
use serde_json::Value;

use crate::confine::RepoRoot;
use crate::index::RepoIndex;

/// A quote may sit this many lines away from the line it is cited with.
pub const NEAR_LINES: u32 = 3;
/// Longest evidence kept.
const MAX_EVIDENCE: usize = 400;

/// What the answer gave, after the contract and the evidence check.
#[derive(Debug, Clone, PartialEq)]
pub struct Enforced {
    /// One per claim, in claim order.
    pub outcomes: Vec<Outcome>,
    pub notes: Vec<String>,
    /// Claims whose entry broke the contract (missing, duplicated, enum, range, no citation).
    pub violations: usize,
    /// Claims whose evidence cited a place that does not exist or quoted text not there.
    pub downgrades: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Rejection {
    /// The answer breaks the output contract.
    Contract(String),
    /// The evidence does not hold up against the repo.
    Evidence(String),
}

/// Why a claim's verdict was discarded, as the claim's evidence (it starts with the claim's
/// first path, as every evidence does).
pub fn ambiguous(claim: &Claim, reason: &str) -> Outcome {
    let path = claim.code_refs.iter().map(|r| r.path.trim()).find(|p| !p.is_empty()).unwrap_or(".");
    Outcome::Checked {
        verdict: Verdict::Ambiguous,
        confidence: 0,
        evidence: format!("{path} — {reason}"),
        successor: None,
        since: None,
    }
}

/// Every claim of the batch falls back, for one reason (no usable answer at all).
pub fn all_ambiguous(batch_id: &str, claims: &[(String, Claim)], reason: &str) -> Enforced {
    Enforced {
        outcomes: claims
            .iter()
            .map(|(_, c)| ambiguous(c, &format!("llm investigator: {reason}; AMBIGUOUS with confidence 0")))
            .collect(),
        notes: vec![format!("batch {batch_id}: {reason}; all {} claims AMBIGUOUS with confidence 0", claims.len())],
        violations: claims.len(),
        downgrades: 0,
    }
}

pub fn enforce(index: &RepoIndex, batch_id: &str, claims: &[(String, Claim)], answer: &str) -> Enforced {
    let value = match memval_llm::prompt::extract_json(answer) {
        Ok(v) => v,
        Err(e) => return all_ambiguous(batch_id, claims, &format!("malformed model output ({e})")),
    };
    let list = match &value {
        Value::Object(map) => map.get("verdicts").and_then(Value::as_array),
        Value::Array(items) => Some(items),
        _ => None,
    };
    let Some(list) = list else {
        return all_ambiguous(batch_id, claims, "malformed model output (no \"verdicts\" list)");
    };
    let mut notes = Vec::new();
    let mut found: Vec<Vec<&serde_json::Map<String, Value>>> = vec![Vec::new(); claims.len()];
    for (i, entry) in list.iter().enumerate() {
        let Some(obj) = entry.as_object() else {
            notes.push(format!("batch {batch_id}: entry {i} is not an object; dropped"));
            continue;
        };
        let id = match obj.get("claim_id") {
            Some(Value::String(s)) => Some(s.trim().to_owned()),
            Some(Value::Number(n)) => Some(format!("c{n}")),
            _ => None,
        };
        match id.as_ref().and_then(|id| claims.iter().position(|(cid, _)| cid == id)) {
            Some(at) => found[at].push(obj),
            None => notes.push(format!(
                "batch {batch_id}: extra verdict for claim_id {}, which is not a claim of this batch; dropped",
                id.as_deref().unwrap_or("(missing)")
            )),
        }
    }
    let mut outcomes = Vec::with_capacity(claims.len());
    let (mut violations, mut downgrades) = (0, 0);
    for ((id, claim), entries) in claims.iter().zip(found) {
        let checked = match entries.as_slice() {
            [] => Err(Rejection::Contract("the model gave no verdict for this claim".into())),
            [one] => check_one(index, one),
            many => Err(Rejection::Contract(format!(
                "the model gave {} verdicts for this claim; exactly one is allowed",
                many.len()
            ))),
        };
        match checked {
            Ok(outcome) => outcomes.push(outcome),
            Err(rejection) => {
                let reason = match rejection {
                    Rejection::Contract(r) => {
                        violations += 1;
                        r
                    }
                    Rejection::Evidence(r) => {
                        downgrades += 1;
                        r
                    }
                };
                notes.push(format!("batch {batch_id}: claim {id}: {reason}; AMBIGUOUS with confidence 0"));
                outcomes.push(ambiguous(claim, &format!("llm verdict discarded: {reason}")));
            }
        }
    }
    Enforced { outcomes, notes, violations, downgrades }
}

fn check_one(index: &RepoIndex, obj: &serde_json::Map<String, Value>) -> Result<Outcome, Rejection> {
    let verdict = match obj.get("verdict") {
        Some(Value::String(s)) => Verdict::parse(s.trim()).ok_or_else(|| {
            Rejection::Contract(format!("verdict {s:?} is not VALID, STALE, CONTRADICTED or AMBIGUOUS"))
        })?,
        other => {
            return Err(Rejection::Contract(format!(
                "verdict {} is not VALID, STALE, CONTRADICTED or AMBIGUOUS",
                shown(other)
            )))
        }
    };
    let confidence = match obj.get("confidence") {
        Some(Value::Number(n)) if n.as_u64().is_some_and(|c| c <= 100) => n.as_u64().unwrap_or(0) as u8,
        other => {
            return Err(Rejection::Contract(format!("confidence {} is not an integer from 0 to 100", shown(other))))
        }
    };
    let evidence = match obj.get("evidence") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.trim().replace(['\n', '\r'], " "),
        other => return Err(Rejection::Contract(format!("evidence {} is not a non-empty text", shown(other)))),
    };
    verify_evidence(index, &evidence)?;
    let evidence = clip(&evidence, MAX_EVIDENCE);
    Ok(Outcome::Checked { verdict, confidence, evidence: format!("{evidence} [llm]"), successor: None, since: None })
}

fn citation_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?:^|[\s(\[`'\x22,;])([A-Za-z0-9_@.+~\-][A-Za-z0-9_@.+~\-/\\]*):(\d{1,7})(?:-(\d{1,7}))?")
            .expect("citation regex")
    })
}

fn quote_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"`([^`]+)`").expect("quote regex"))
}

/// A `path:line[-end]` the evidence cites.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Citation {
    path: String,
    first: u32,
    last: u32,
}

fn citations(index: &RepoIndex, evidence: &str) -> Vec<(String, u32, u32)> {
    citation_re()
        .captures_iter(evidence)
        .filter_map(|c| {
            let raw = c.get(1)?.as_str().trim_end_matches(['.', ',']);
            let first: u32 = c.get(2)?.as_str().parse().ok()?;
            let last: u32 = c.get(3).and_then(|m| m.as_str().parse().ok()).unwrap_or(first);
            // A path: has a folder or an extension, or names a file of the repo (Makefile).
            let looks_like_path = raw.contains('/') || raw.contains('.') || index.file(raw).is_some();
            (looks_like_path && !raw.contains("://")).then(|| (raw.to_owned(), first, last.max(first)))
        })
        .collect()
}

/// Check that `evidence` cites at least one existing `path:line`, every citation exists, and
/// every backticked quote is at or near a cited line.
fn verify_evidence(index: &RepoIndex, evidence: &str) -> Result<(), Rejection> {
    let cited = citations(index, evidence);
    if cited.is_empty() {
        return Err(Rejection::Contract(format!("evidence {:?} cites no path:line", clip(evidence, 80))));
    }
    let mut places = Vec::new();
    for (raw, first, last) in cited {
        let path = RepoRoot::normalise(&raw)
            .map_err(|_| Rejection::Evidence(format!("evidence cites {raw}:{first}, outside the repo")))?;
        let Some(text) = index.read_text(&path) else {
            return Err(Rejection::Evidence(format!(
                "evidence cites {raw}:{first}, but {path} is not a readable file of the repo"
            )));
        };
        let lines: Vec<&str> = text.lines().collect();
        if first == 0 || last as usize > lines.len() {
            return Err(Rejection::Evidence(format!(
                "evidence cites {raw}:{first}, but {path} has {} lines",
                lines.len()
            )));
        }
        places.push((Citation { path, first, last }, lines.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>()));
    }
    for quote in quote_re().captures_iter(evidence).filter_map(|c| c.get(1)) {
        let needle = squash(quote.as_str());
        if needle.is_empty() {
            continue;
        }
        let near = places.iter().any(|(c, lines)| {
            let from = c.first.saturating_sub(NEAR_LINES).max(1) as usize - 1;
            let to = ((c.last + NEAR_LINES) as usize).min(lines.len());
            squash(&lines[from..to].join("\n")).contains(&needle)
        });
        if !near {
            let at: Vec<String> = places.iter().map(|(c, _)| format!("{}:{}", c.path, c.first)).collect();
            return Err(Rejection::Evidence(format!(
                "evidence quotes `{}`, which is not at or near {}",
                clip(quote.as_str(), 60),
                at.join(", ")
            )));
        }
    }
    Ok(())
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn shown(v: Option<&Value>) -> String {
    match v {
        None => "(missing)".into(),
        Some(v) => clip(&v.to_string(), 60),
    }
}

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memval_proto::{ClaimType, CodeRef};
    use serde_json::json;

    fn repo() -> (tempfile::TempDir, RepoIndex) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        let lru = "package cache\n\ntype shard struct {\n\tmu sync.Mutex\n\titems map[string]*entry\n}\n\ntype ShardedCache struct {\n\tshards []shard\n}\n";
        std::fs::write(dir.path().join("src/lru.go"), lru).unwrap();
        std::fs::write(dir.path().join("Makefile"), "all:\n\tgo build\n").unwrap();
        let index = RepoIndex::build(dir.path()).unwrap();
        (dir, index)
    }

    fn claims(n: usize) -> Vec<(String, Claim)> {
        (1..=n)
            .map(|i| {
                (
                    format!("c{i}"),
                    Claim {
                        claim_type: ClaimType::Behavioral,
                        claim_text: "ShardedCache has a mutex per shard".into(),
                        line: 1,
                        lines: Vec::new(),
                        code_refs: vec![CodeRef::path("src/lru.go")],
                        assertion: None,
                    },
                )
            })
            .collect()
    }

    fn verdict(id: &str, v: &str, confidence: Value, evidence: &str) -> Value {
        json!({"claim_id": id, "verdict": v, "confidence": confidence, "evidence": evidence})
    }

    const GOOD: &str = "src/lru.go:4 `mu sync.Mutex` is a field of each shard";

    #[test]
    fn a_valid_verdict_with_checked_evidence_is_kept() {
        let (_d, index) = repo();
        let answer = json!({"verdicts": [verdict("c1", "VALID", json!(95), GOOD)]}).to_string();
        let e = enforce(&index, "b", &claims(1), &answer);
        assert_eq!((e.violations, e.downgrades), (0, 0), "{:?}", e.notes);
        match &e.outcomes[0] {
            Outcome::Checked { verdict, confidence, evidence, .. } => {
                assert_eq!((*verdict, *confidence), (Verdict::Valid, 95));
                assert!(evidence.starts_with("src/lru.go:4 "), "{evidence}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// (name, entries for c1 and c2, expected fallback reason for c1 or None, counted as a
    /// violation (true) or a downgrade (false)).
    #[test]
    fn every_rule_is_enforced_per_claim() {
        let (_d, index) = repo();
        let ok2 = verdict("c2", "STALE", json!(70), "src/lru.go:8-10 `type ShardedCache struct` moved");
        let cases: Vec<(&str, Value, Option<&str>, bool)> = vec![
            ("missing verdict", json!([ok2.clone()]), Some("no verdict for this claim"), true),
            (
                "duplicate verdict",
                json!([verdict("c1", "VALID", json!(90), GOOD), verdict("c1", "STALE", json!(90), GOOD), ok2.clone()]),
                Some("2 verdicts"),
                true,
            ),
            (
                "extra verdict is dropped",
                json!([verdict("c1", "VALID", json!(90), GOOD), ok2.clone(), verdict("c9", "VALID", json!(90), GOOD)]),
                None,
                true,
            ),
            (
                "out-of-enum verdict",
                json!([verdict("c1", "TRUE", json!(90), GOOD), ok2.clone()]),
                Some("\"TRUE\" is not VALID"),
                true,
            ),
            (
                "confidence out of range",
                json!([verdict("c1", "VALID", json!(250), GOOD), ok2.clone()]),
                Some("confidence 250"),
                true,
            ),
            (
                "fractional confidence",
                json!([verdict("c1", "VALID", json!(0.95), GOOD), ok2.clone()]),
                Some("confidence 0.95"),
                true,
            ),
            ("empty evidence", json!([verdict("c1", "VALID", json!(90), "  "), ok2.clone()]), Some("evidence"), true),
            (
                "no citation",
                json!([verdict("c1", "VALID", json!(90), "the cache has a mutex per shard"), ok2.clone()]),
                Some("cites no path:line"),
                true,
            ),
            (
                "cited line past the end",
                json!([verdict("c1", "VALID", json!(90), "src/lru.go:48 `mu sync.Mutex`"), ok2.clone()]),
                Some("src/lru.go has 10 lines"),
                false,
            ),
            (
                "cited file does not exist",
                json!([verdict("c1", "VALID", json!(90), "internal/cache/lru.go:4 found it"), ok2.clone()]),
                Some("not a readable file"),
                false,
            ),
            (
                "cited path outside the repo",
                json!([verdict("c1", "VALID", json!(90), "../etc/passwd:1 root"), ok2.clone()]),
                Some("outside the repo"),
                false,
            ),
            (
                "quote not near the line",
                json!([verdict("c1", "VALID", json!(90), "src/lru.go:9 `mu sync.Mutex`"), ok2.clone()]),
                Some("not at or near src/lru.go:9"),
                false,
            ),
            (
                "quote a line off",
                json!([verdict("c1", "VALID", json!(90), "src/lru.go:5 `mu sync.Mutex`"), ok2.clone()]),
                None,
                false,
            ),
            (
                "quote that is nowhere",
                json!([verdict("c1", "VALID", json!(90), "src/lru.go:4 `mu sync.RWMutex`"), ok2.clone()]),
                Some("quotes `mu sync.RWMutex`"),
                false,
            ),
            (
                "quote far from the line",
                json!([verdict("c1", "VALID", json!(90), "src/lru.go:10 `package cache`"), ok2.clone()]),
                Some("not at or near src/lru.go:10"),
                false,
            ),
            (
                "file without extension",
                json!([verdict("c1", "VALID", json!(90), "Makefile:2 `go build`"), ok2.clone()]),
                None,
                false,
            ),
        ];
        for (name, entries, want, violation) in cases {
            let e = enforce(&index, "b", &claims(2), &json!({"verdicts": entries}).to_string());
            assert_eq!(e.outcomes.len(), 2, "{name}: one outcome per claim");
            assert!(
                matches!(&e.outcomes[1], Outcome::Checked { verdict: Verdict::Stale, confidence: 70, .. }),
                "{name}: c2 {:?}",
                e.outcomes[1]
            );
            match (want, &e.outcomes[0]) {
                (None, Outcome::Checked { confidence, .. }) => assert!(*confidence > 0, "{name}: {:?}", e.notes),
                (Some(reason), Outcome::Checked { verdict: Verdict::Ambiguous, confidence: 0, evidence, .. }) => {
                    assert!(evidence.contains(reason), "{name}: {evidence}");
                    assert!(evidence.starts_with("src/lru.go — "), "{name}: {evidence}");
                    assert_eq!((e.violations, e.downgrades), if violation { (1, 0) } else { (0, 1) }, "{name}");
                }
                (_, other) => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_malformed_answer_makes_every_claim_ambiguous() {
        let (_d, index) = repo();
        for answer in ["", "All claims are VALID.", "{\"verdicts\": [", "{\"results\": []}"] {
            let e = enforce(&index, "b7", &claims(3), answer);
            assert_eq!(e.violations, 3, "{answer:?}");
            assert!(e
                .outcomes
                .iter()
                .all(|o| matches!(o, Outcome::Checked { verdict: Verdict::Ambiguous, confidence: 0, .. })));
            assert!(e.notes[0].starts_with("batch b7: malformed model output"), "{:?}", e.notes);
        }
    }
}
