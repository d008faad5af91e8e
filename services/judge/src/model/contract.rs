//! docs/contracts.md §5 enforced on the model's answer. Nothing the model says is kept unless it passes:
//! exactly one judgement per pair (matched by id_a/id_b), a verdict in the enum, an integer
//! confidence 0-100, and — for a contradiction — quotes that occur verbatim in each side's
//! content. A pair whose judgement fails any rule gets the docs/contracts.md §4 fallback (`unrelated`,
//! confidence 0) with the reason; an answer with no judgements list at all gives every pair
//! of the batch the fallback.

use memval_llm::prompt::extract_json;
use memval_proto::{Judgement, Pair, PairVerdict};
use serde_json::Value;

/// Longest rationale kept.
const MAX_RATIONALE: usize = 500;

/// The judgements of one batch, in pair order, and what went wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub judgements: Vec<Judgement>,
    pub notes: Vec<String>,
}

impl Checked {
    pub fn fallbacks(&self) -> usize {
        self.judgements.iter().filter(|j| j.fallback.is_some()).count()
    }
}

pub fn fallback(pair: &Pair, reason: String) -> Judgement {
    Judgement {
        id_a: pair.id_a.clone(),
        id_b: pair.id_b.clone(),
        verdict: PairVerdict::Unrelated,
        claim_a: String::new(),
        claim_b: String::new(),
        confidence: 0,
        rationale: String::new(),
        fallback: Some(reason),
    }
}

/// Every pair of the batch gets the fallback, for one reason.
pub fn all_fallback(batch_id: &str, pairs: &[Pair], reason: &str) -> Checked {
    Checked {
        judgements: pairs.iter().map(|p| fallback(p, reason.to_owned())).collect(),
        notes: vec![format!(
            "batch {batch_id}: {reason}; all {} pairs judged unrelated with confidence 0",
            pairs.len()
        )],
    }
}

/// An id as the model wrote it, compared as text (`12` and `"12"` are the same id).
fn id_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Check the model's `answer` for `pairs` against the contract.
pub fn enforce(batch_id: &str, pairs: &[Pair], answer: &str) -> Checked {
    let value = match extract_json(answer) {
        Ok(v) => v,
        Err(e) => return all_fallback(batch_id, pairs, &format!("malformed model output ({e})")),
    };
    let list = match &value {
        Value::Object(map) => map.get("judgements").and_then(Value::as_array),
        // A bare list of judgements: the envelope is lenient, the entries are not.
        Value::Array(items) => Some(items),
        _ => None,
    };
    let Some(list) = list else {
        return all_fallback(batch_id, pairs, "malformed model output (no \"judgements\" list)");
    };
    let mut notes = Vec::new();
    let mut answers: Vec<Vec<&serde_json::Map<String, Value>>> = vec![Vec::new(); pairs.len()];
    for (i, entry) in list.iter().enumerate() {
        let Some(obj) = entry.as_object() else {
            notes.push(format!("batch {batch_id}: entry {i} is not an object; dropped"));
            continue;
        };
        let (a, b) = (id_text(obj.get("id_a")), id_text(obj.get("id_b")));
        let found = pairs.iter().position(|p| Some(&p.id_a) == a.as_ref() && Some(&p.id_b) == b.as_ref());
        match found {
            Some(at) => answers[at].push(obj),
            None => notes.push(format!(
                "batch {batch_id}: extra judgement for ({}, {}), which is not a pair of this batch; dropped",
                a.as_deref().unwrap_or("?"),
                b.as_deref().unwrap_or("?")
            )),
        }
    }
    let mut judgements = Vec::with_capacity(pairs.len());
    for (pair, found) in pairs.iter().zip(answers) {
        let judged = match found.as_slice() {
            [] => Err("the model gave no judgement for this pair".to_owned()),
            [one] => check_one(pair, one),
            many => Err(format!("the model gave {} judgements for this pair; exactly one is allowed", many.len())),
        };
        match judged {
            Ok(j) => judgements.push(j),
            Err(reason) => {
                notes.push(format!(
                    "batch {batch_id}: pair ({}, {}): {reason}; judged unrelated with confidence 0",
                    pair.id_a, pair.id_b
                ));
                judgements.push(fallback(pair, reason));
            }
        }
    }
    Checked { judgements, notes }
}

fn check_one(pair: &Pair, obj: &serde_json::Map<String, Value>) -> Result<Judgement, String> {
    let verdict = match obj.get("verdict") {
        Some(Value::String(s)) => PairVerdict::parse(s)
            .ok_or_else(|| format!("verdict {s:?} is not contradictory, consistent or unrelated"))?,
        other => return Err(format!("verdict {} is not contradictory, consistent or unrelated", shown(other))),
    };
    let confidence = match obj.get("confidence") {
        Some(Value::Number(n)) if n.as_u64().is_some_and(|c| c <= 100) => n.as_u64().unwrap_or(0) as u8,
        other => return Err(format!("confidence {} is not an integer from 0 to 100", shown(other))),
    };
    let quote = |key: &str| -> Result<String, String> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.trim().to_owned()),
            Some(other) => Err(format!("{key} {} is not text", shown(Some(other)))),
        }
    };
    let (mut claim_a, mut claim_b) = (quote("claim_a")?, quote("claim_b")?);
    if verdict == PairVerdict::Contradictory {
        for (key, claim, content) in [("claim_a", &claim_a, &pair.content_a), ("claim_b", &claim_b, &pair.content_b)] {
            if claim.is_empty() {
                return Err(format!("a contradictory verdict needs {key}, a verbatim quote; it is empty"));
            }
            if !content.contains(claim.as_str()) {
                return Err(format!("{key} {:?} is not a verbatim quote of content_{}", clip(claim), &key[6..]));
            }
        }
    } else {
        // Optional for other verdicts; kept only when verbatim too.
        if !pair.content_a.contains(claim_a.as_str()) {
            claim_a.clear();
        }
        if !pair.content_b.contains(claim_b.as_str()) {
            claim_b.clear();
        }
    }
    let rationale = match obj.get("rationale") {
        Some(Value::String(s)) => s.trim().chars().take(MAX_RATIONALE).collect(),
        _ => String::new(),
    };
    Ok(Judgement {
        id_a: pair.id_a.clone(),
        id_b: pair.id_b.clone(),
        verdict,
        claim_a,
        claim_b,
        confidence,
        rationale,
        fallback: None,
    })
}

fn shown(v: Option<&Value>) -> String {
    match v {
        None => "(missing)".into(),
        Some(v) => clip(&v.to_string()),
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() <= 80 {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(80).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pair(a: &str, b: &str) -> Pair {
        Pair {
            id_a: a.into(),
            agent_a: "pm".into(),
            content_a: "We decided to use PostgreSQL as the primary database.".into(),
            id_b: b.into(),
            agent_b: "tech-lead".into(),
            content_b: "We rejected PostgreSQL; product store stays on SQLite.".into(),
            score: 0.4,
            method: "keyword".into(),
        }
    }

    fn good(a: u64, b: u64) -> Value {
        json!({"id_a": a, "id_b": b, "verdict": "contradictory", "claim_a": "use PostgreSQL as the primary database",
               "claim_b": "We rejected PostgreSQL", "confidence": 90, "rationale": "opposite decisions"})
    }

    fn with(mut v: Value, key: &str, value: Value) -> Value {
        v[key] = value;
        v
    }

    #[test]
    fn a_valid_answer_is_kept_as_is() {
        let pairs = [pair("1", "2"), pair("3", "4")];
        let answer = json!({"judgements": [good(3, 4), with(good(1, 2), "verdict", json!("Consistent"))]}).to_string();
        let checked = enforce("b", &pairs, &answer);
        assert!(checked.notes.is_empty(), "{:?}", checked.notes);
        assert_eq!(checked.judgements[0].verdict, PairVerdict::Consistent);
        assert_eq!(checked.judgements[1].verdict, PairVerdict::Contradictory);
        assert_eq!(checked.judgements[1].claim_b, "We rejected PostgreSQL");
        assert_eq!((checked.judgements[1].id_a.as_str(), checked.judgements[1].confidence), ("3", 90));
    }

    /// (answer for pairs (1,2) and (3,4), the fallback reason expected per pair or None).
    #[test]
    fn every_rule_is_enforced_per_pair() {
        let pairs = [pair("1", "2"), pair("3", "4")];
        let cases: Vec<(&str, Value, [Option<&str>; 2])> = vec![
            ("missing judgement", json!({"judgements": [good(1, 2)]}), [None, Some("no judgement")]),
            (
                "duplicate judgement",
                json!({"judgements": [good(1, 2), good(1, 2), good(3, 4)]}),
                [Some("2 judgements"), None],
            ),
            ("extra judgement is dropped", json!({"judgements": [good(1, 2), good(3, 4), good(5, 6)]}), [None, None]),
            (
                "out-of-enum verdict",
                json!([with(good(1, 2), "verdict", json!("conflicting")), good(3, 4)]),
                [Some("is not contradictory"), None],
            ),
            (
                "missing verdict",
                json!([with(good(1, 2), "verdict", Value::Null), good(3, 4)]),
                [Some("is not contradictory"), None],
            ),
            (
                "confidence out of range",
                json!([with(good(1, 2), "confidence", json!(101)), good(3, 4)]),
                [Some("confidence 101"), None],
            ),
            (
                "fractional confidence",
                json!([with(good(1, 2), "confidence", json!(0.9)), good(3, 4)]),
                [Some("confidence 0.9"), None],
            ),
            (
                "confidence as text",
                json!([with(good(1, 2), "confidence", json!("90")), good(3, 4)]),
                [Some("not an integer"), None],
            ),
            (
                "paraphrased quote",
                json!([with(good(1, 2), "claim_a", json!("PostgreSQL is the main database")), good(3, 4)]),
                [Some("not a verbatim quote of content_a"), None],
            ),
            (
                "quote from the other side",
                json!([with(good(1, 2), "claim_b", json!("use PostgreSQL")), good(3, 4)]),
                [Some("content_b"), None],
            ),
            ("empty quote", json!([with(good(1, 2), "claim_a", json!("")), good(3, 4)]), [Some("is empty"), None]),
            (
                "ids as strings",
                json!([with(with(good(1, 2), "id_a", json!("1")), "id_b", json!(" 2 ")), good(3, 4)]),
                [None, None],
            ),
            (
                "swapped ids do not match",
                json!([with(with(good(1, 2), "id_a", json!(2)), "id_b", json!(1)), good(3, 4)]),
                [Some("no judgement"), None],
            ),
        ];
        for (name, answer, want) in cases {
            let checked = enforce("b", &pairs, &answer.to_string());
            assert_eq!(checked.judgements.len(), 2, "{name}: one judgement per pair, always");
            for (j, want) in checked.judgements.iter().zip(want) {
                match want {
                    None => assert_eq!(j.fallback, None, "{name}"),
                    Some(reason) => {
                        let got = j.fallback.as_deref().unwrap_or_else(|| panic!("{name}: expected a fallback"));
                        assert!(got.contains(reason), "{name}: {got}");
                        assert_eq!(
                            (j.verdict, j.confidence, j.claim_a.as_str()),
                            (PairVerdict::Unrelated, 0, ""),
                            "{name}"
                        );
                    }
                }
            }
        }
        let extra = enforce("b", &pairs, &json!({"judgements": [good(1, 2), good(3, 4), good(5, 6)]}).to_string());
        assert!(extra.notes.iter().any(|n| n.contains("extra judgement for (5, 6)")), "{:?}", extra.notes);
    }

    #[test]
    fn a_malformed_answer_makes_every_pair_unrelated_with_a_note() {
        let pairs = [pair("1", "2"), pair("3", "4")];
        for answer in ["{\"judgements\": [", "I think they contradict.", "{\"verdicts\": []}", "42", ""] {
            let checked = enforce("batch-7", &pairs, answer);
            assert_eq!(checked.fallbacks(), 2, "{answer:?}");
            assert!(checked.judgements.iter().all(|j| j.verdict == PairVerdict::Unrelated && j.confidence == 0));
            assert_eq!(checked.notes.len(), 1);
            assert!(checked.notes[0].starts_with("batch batch-7: malformed model output"), "{}", checked.notes[0]);
        }
    }

    #[test]
    fn quotes_for_other_verdicts_are_kept_only_when_verbatim() {
        let pairs = [pair("1", "2")];
        let answer = json!([{"id_a": 1, "id_b": 2, "verdict": "consistent", "claim_a": "made up", "claim_b": "stays on SQLite", "confidence": 70}]);
        let j = &enforce("b", &pairs, &answer.to_string()).judgements[0];
        assert_eq!((j.claim_a.as_str(), j.claim_b.as_str(), j.fallback.as_deref()), ("", "stays on SQLite", None));
    }
}
