//! docs/contracts.md §2 enforced on the model's extraction, and the merge with the rules' claims.
//!
//! Per claim: the type is one of the six, at least one code ref has a non-empty path, and the
//! claim is traceable to the memory text — every path it names (or that path's file name)
//! and every symbol occurs in the memory's content; a claim that fails is dropped with a note.
//! Per memory: exactly one entry per input memory id (an unknown id is dropped, a duplicated
//! id drops that memory's model claims), an empty list needs a skip_reason, at most 8 claims.
//! An answer with no `extractions` list is malformed: the caller retries once, then defers.

use std::collections::HashSet;

use memval_proto::{Claim, ClaimType, CodeRef, Memory};
use serde_json::Value;

use crate::claims::MAX_CLAIMS;

/// What the model's answer gave for a batch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extracted {
    /// Per input memory: the model's claims that passed, or `None` when the memory has no
    /// usable entry.
    pub claims: Vec<Option<Vec<Claim>>>,
    pub notes: Vec<String>,
    pub kept: usize,
    pub dropped: usize,
}

/// `Err` when the answer has no usable `extractions` list (malformed).
pub fn enforce(batch_id: &str, memories: &[&Memory], answer: &str) -> Result<Extracted, String> {
    let value = memval_llm::prompt::extract_json(answer).map_err(|e| format!("malformed model output ({e})"))?;
    let list = match &value {
        Value::Object(map) => map.get("extractions").and_then(Value::as_array),
        Value::Array(items) => Some(items),
        _ => None,
    }
    .ok_or_else(|| "malformed model output (no \"extractions\" list)".to_owned())?;
    let mut out = Extracted { claims: vec![None; memories.len()], ..Extracted::default() };
    let mut entries: Vec<Vec<&serde_json::Map<String, Value>>> = vec![Vec::new(); memories.len()];
    for (i, entry) in list.iter().enumerate() {
        let Some(obj) = entry.as_object() else {
            out.notes.push(format!("batch {batch_id}: entry {i} is not an object; dropped"));
            continue;
        };
        let id = match obj.get("memory_id") {
            Some(Value::String(s)) => Some(s.trim().to_owned()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        match id.as_ref().and_then(|id| memories.iter().position(|m| &m.id == id)) {
            Some(at) => entries[at].push(obj),
            None => out.notes.push(format!(
                "batch {batch_id}: extraction for memory {}, which is not in this batch; dropped",
                id.as_deref().unwrap_or("(missing id)")
            )),
        }
    }
    for (at, (memory, found)) in memories.iter().zip(entries).enumerate() {
        let obj = match found.as_slice() {
            [] => {
                out.notes.push(format!("batch {batch_id}: memory {}: no extraction; rules only", memory.id));
                continue;
            }
            [one] => *one,
            many => {
                out.notes.push(format!(
                    "batch {batch_id}: memory {}: {} extractions, exactly one allowed; rules only",
                    memory.id,
                    many.len()
                ));
                continue;
            }
        };
        let raw = obj.get("claims").and_then(Value::as_array).cloned().unwrap_or_default();
        let skip = obj.get("skip_reason").and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
        if raw.is_empty() && skip.is_none() {
            out.notes.push(format!(
                "batch {batch_id}: memory {}: no claims and no skip_reason (docs/contracts.md §2 rule 4); rules only",
                memory.id
            ));
            continue;
        }
        let mut claims = Vec::new();
        for c in &raw {
            match check_claim(memory, c) {
                Ok(claim) => claims.push(claim),
                Err(reason) => {
                    out.dropped += 1;
                    out.notes.push(format!("batch {batch_id}: memory {}: claim dropped: {reason}", memory.id));
                }
            }
        }
        if claims.len() > MAX_CLAIMS {
            out.dropped += claims.len() - MAX_CLAIMS;
            out.notes.push(format!(
                "batch {batch_id}: memory {}: {} claims, at most {MAX_CLAIMS} kept",
                memory.id,
                claims.len()
            ));
            claims.truncate(MAX_CLAIMS);
        }
        out.kept += claims.len();
        out.claims[at] = Some(claims);
    }
    Ok(out)
}

fn check_claim(memory: &Memory, value: &Value) -> Result<Claim, String> {
    let obj = value.as_object().ok_or("not an object")?;
    let claim_type = match obj.get("claim_type").and_then(Value::as_str) {
        Some(t) => ClaimType::parse(t.trim()).ok_or_else(|| format!("claim_type {t:?} is not one of the six"))?,
        None => return Err("no claim_type".into()),
    };
    let claim_text = obj
        .get("claim_text")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or("no claim_text")?;
    let refs = obj.get("code_refs").and_then(Value::as_array).ok_or("no code_refs list")?;
    let mut code_refs = Vec::new();
    for r in refs {
        let Some(path) = r.get("path").and_then(Value::as_str).map(str::trim).filter(|p| !p.is_empty()) else {
            continue;
        };
        if !traceable_path(&memory.content, path) {
            return Err(format!("path {path:?} does not occur in the memory text"));
        }
        let symbol = r.get("symbol").and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
        if let Some(symbol) = symbol {
            if !memory.content.contains(symbol) {
                return Err(format!("symbol {symbol:?} does not occur in the memory text"));
            }
        }
        let line = r.get("line").and_then(Value::as_u64).filter(|l| (1..=10_000_000).contains(l)).map(|l| l as u32);
        code_refs.push(CodeRef {
            path: path.to_owned(),
            symbol: symbol.map(str::to_owned),
            line,
            written: None,
            alt_paths: Vec::new(),
        });
    }
    if code_refs.is_empty() {
        return Err(format!("{claim_text:?} has no code ref with a path"));
    }
    let line = memory_line(&memory.content, &code_refs[0]);
    Ok(Claim { claim_type, claim_text: claim_text.to_owned(), line, lines: Vec::new(), code_refs, assertion: None })
}

/// A path the memory writes, or whose file name it writes (`lru.go` for `internal/cache/lru.go`
/// when the note names the folder in a heading).
fn traceable_path(content: &str, path: &str) -> bool {
    let path = path.trim_end_matches('/');
    let name = path.rsplit('/').next().unwrap_or(path);
    content.contains(path) || (name.len() >= 3 && content.contains(name))
}

/// The 1-based line of the memory's content where the claim's first anchor is written.
fn memory_line(content: &str, r: &CodeRef) -> u32 {
    let name = r.path.trim_end_matches('/').rsplit('/').next().unwrap_or(&r.path);
    let needles: Vec<&str> = [Some(r.path.as_str()), r.symbol.as_deref(), Some(name)].into_iter().flatten().collect();
    for needle in needles {
        if let Some((i, _)) = content.lines().enumerate().find(|(_, l)| l.contains(needle)) {
            return i as u32 + 1;
        }
    }
    1
}

fn identity(c: &Claim) -> (ClaimType, Vec<(String, Option<String>)>) {
    let mut refs: Vec<(String, Option<String>)> = c
        .code_refs
        .iter()
        .map(|r| (r.path.trim().trim_start_matches("./").trim_end_matches('/').to_owned(), r.symbol.clone()))
        .collect();
    refs.sort();
    (c.claim_type, refs)
}

/// The rules' claims (all of them), then the model's that say something new, at most
/// [`MAX_CLAIMS`] of those (docs/contracts.md §2 rule 5 caps model output only). A model
/// claim is the same as another when its text is (ignoring case and spacing), or when its
/// type and anchors are. Returns the merged list and how many model claims were duplicates.
pub fn merge(rules: Vec<Claim>, model: Vec<Claim>) -> (Vec<Claim>, usize) {
    let text = |c: &Claim| c.claim_text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    let mut texts: HashSet<String> = rules.iter().map(text).collect();
    let mut ids: HashSet<_> = rules.iter().map(identity).collect();
    let mut merged = rules;
    let mut duplicates = 0;
    let mut added = 0;
    for c in model {
        if !texts.insert(text(&c)) || !ids.insert(identity(&c)) {
            duplicates += 1;
            continue;
        }
        // `parse` already cut a memory's model claims to MAX_CLAIMS (and said so).
        if added < MAX_CLAIMS {
            merged.push(c);
            added += 1;
        }
    }
    (merged, duplicates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use memval_proto::Source;
    use serde_json::json;

    fn memory(id: &str, content: &str) -> Memory {
        Memory {
            id: id.into(),
            agent: "a".into(),
            content: content.into(),
            tier: 0,
            kind: "memory".into(),
            created_at: None,
            updated_at: None,
            source: Source { path: "m.jsonl".into(), line: Some(1), row: None, format: "jsonl".into() },
            context_dir: None,
            first_line: 1,
        }
    }

    const CACHE: &str = "Cache notes.\nThe ShardedCache in internal/cache/lru.go has a mutex per shard.";

    fn claim(t: &str, text: &str, path: &str, symbol: Option<&str>) -> Value {
        json!({"claim_type": t, "claim_text": text, "code_refs": [{"path": path, "symbol": symbol}]})
    }

    #[test]
    fn valid_claims_are_kept_with_their_line() {
        let m = memory("42", CACHE);
        let answer = json!({"extractions": [{"memory_id": 42, "claims": [claim("behavioral", "ShardedCache has a mutex per shard", "internal/cache/lru.go", Some("ShardedCache"))], "skip_reason": null}]});
        let out = enforce("b", &[&m], &answer.to_string()).unwrap();
        let claims = out.claims[0].as_ref().unwrap();
        assert_eq!((claims.len(), claims[0].claim_type, claims[0].line), (1, ClaimType::Behavioral, 2));
        assert_eq!(claims[0].code_refs[0].symbol.as_deref(), Some("ShardedCache"));
    }

    #[test]
    fn every_rule_is_enforced() {
        let m = memory("42", CACHE);
        let cases: Vec<(&str, Value, Option<usize>, &str)> = vec![
            (
                "bad type",
                json!([{"memory_id": 42, "claims": [claim("opinion", "x", "internal/cache/lru.go", None)]}]),
                Some(0),
                "not one of the six",
            ),
            (
                "no path",
                json!([{"memory_id": 42, "claims": [json!({"claim_type": "behavioral", "claim_text": "x", "code_refs": [{"path": ""}]})]}]),
                Some(0),
                "no code ref with a path",
            ),
            (
                "invented path",
                json!([{"memory_id": 42, "claims": [claim("file_reference", "x", "src/other.go", None)]}]),
                Some(0),
                "does not occur in the memory text",
            ),
            (
                "invented symbol",
                json!([{"memory_id": 42, "claims": [claim("symbol_reference", "x", "internal/cache/lru.go", Some("Evict"))]}]),
                Some(0),
                "symbol \"Evict\"",
            ),
            ("no claims, no reason", json!([{"memory_id": 42, "claims": []}]), None, "rule 4"),
            ("empty with reason", json!([{"memory_id": 42, "claims": [], "skip_reason": "process note"}]), Some(0), ""),
            ("unknown memory", json!([{"memory_id": 7, "claims": []}]), None, "memory 7, which is not in this batch"),
            (
                "duplicate entries",
                json!([{"memory_id": 42, "claims": []}, {"memory_id": "42", "claims": []}]),
                None,
                "2 extractions",
            ),
            (
                "nine claims",
                json!([{"memory_id": 42, "claims": (0..9).map(|i| claim("behavioral", &format!("c{i}"), "lru.go", None)).collect::<Vec<_>>()}]),
                Some(8),
                "at most 8 kept",
            ),
        ];
        for (name, answer, kept, note) in cases {
            let out = enforce("b", &[&m], &answer.to_string()).unwrap();
            assert_eq!(out.claims[0].as_ref().map(Vec::len), kept, "{name}: {:?}", out.notes);
            assert!(note.is_empty() || out.notes.iter().any(|n| n.contains(note)), "{name}: {:?}", out.notes);
        }
    }

    #[test]
    fn a_malformed_answer_is_an_error() {
        let m = memory("1", CACHE);
        for answer in ["", "no claims here", "{\"claims\": []}", "{\"extractions\": "] {
            assert!(enforce("b", &[&m], answer).is_err(), "{answer:?}");
        }
    }

    #[test]
    fn merge_keeps_rules_first_drops_duplicates_and_caps() {
        let c = |t: ClaimType, text: &str, path: &str| Claim {
            claim_type: t,
            claim_text: text.into(),
            line: 1,
            lines: Vec::new(),
            code_refs: vec![CodeRef::path(path)],
            assertion: None,
        };
        let rules = vec![c(ClaimType::FileReference, "`a.rs` exists", "a.rs")];
        let model = vec![
            c(ClaimType::FileReference, "a.rs is there", "./a.rs"),
            c(ClaimType::Behavioral, "`A.rs`  EXISTS", "b.rs"),
            c(ClaimType::Behavioral, "a.rs retries", "a.rs"),
        ];
        let (merged, dups) = merge(rules, model);
        assert_eq!(dups, 2);
        assert_eq!(merged.iter().map(|c| c.claim_text.as_str()).collect::<Vec<_>>(), ["`a.rs` exists", "a.rs retries"]);
        let many: Vec<Claim> =
            (0..10).map(|i| c(ClaimType::Behavioral, &format!("b{i}"), &format!("f{i}.rs"))).collect();
        assert_eq!(merge(Vec::new(), many.clone()).0.len(), MAX_CLAIMS);
        // the rules' claims are never cut, and do not crowd out the model's
        let rules: Vec<Claim> =
            (0..20).map(|i| c(ClaimType::FileReference, &format!("r{i}"), &format!("r{i}.rs"))).collect();
        assert_eq!(merge(rules, many).0.len(), 20 + MAX_CLAIMS);
    }
}
