//! The validation result and the subject manifest as text: JSON (the contract) and Markdown
//! (for people). Every string that came from the subject, the acceptance or a model is
//! escaped for the terminal; Markdown table cells also have `|` escaped, and every field shown
//! inline (a cell, a list item, a `memval history` line) goes through [`one_line`] so a
//! criterion's reason cannot end the table or add a line.
//!
//! Rendering never changes what was decided: it prints the result it is given.

use memval_proto::display::{json_safe, one_line};

use super::manifest::Manifest;
use super::verdict::Validation;

pub fn json(v: &Validation) -> String {
    json_safe(&serde_json::to_string_pretty(v).unwrap_or_default())
}

pub fn manifest_json(m: &Manifest) -> String {
    json_safe(&serde_json::to_string_pretty(m).unwrap_or_default())
}

fn cell(s: &str) -> String {
    one_line(s).replace('|', "\\|")
}

fn code(s: &str) -> String {
    format!("`{}`", cell(s).replace('`', "'"))
}

pub fn markdown(v: &Validation) -> String {
    let mut out = String::new();
    out.push_str(&format!("# Change validation: {}\n\n", v.result.as_str()));
    out.push_str(&format!("- subject: {}\n- acceptance: {}\n", code(&v.subject_digest), code(&v.acceptance_digest)));
    out.push_str(&format!(
        "- author context: {}; validator context: {}\n",
        code(&v.author_context),
        code(&v.validator_context)
    ));
    match &v.freshness {
        Some(f) => out.push_str(&format!(
            "- freshness: {} attested by {}\n",
            serde_json::to_value(f.source).ok().and_then(|s| s.as_str().map(str::to_owned)).unwrap_or_default(),
            code(&f.attester)
        )),
        None => out.push_str("- freshness: not attested\n"),
    }
    out.push_str("\n## Criteria\n\n| id | result | reason | evidence |\n|---|---|---|---|\n");
    for c in &v.criteria {
        let result =
            serde_json::to_value(c.result).ok().and_then(|s| s.as_str().map(str::to_owned)).unwrap_or_default();
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            cell(&c.id),
            result,
            cell(&c.reason),
            c.evidence_refs.iter().map(|r| code(r)).collect::<Vec<_>>().join(", ")
        ));
    }
    out.push_str("\n## Findings\n\n");
    if v.findings.is_empty() {
        out.push_str("None.\n");
    }
    for f in &v.findings {
        out.push_str(&format!("- **{}**: {}", f.class.as_str(), cell(&f.summary)));
        if !f.evidence.is_empty() {
            out.push_str(&format!(" ({})", f.evidence.iter().map(|e| code(e)).collect::<Vec<_>>().join(", ")));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "\n## Checked\n\n{}\n",
        if v.checked.is_empty() {
            "Nothing.".to_owned()
        } else {
            v.checked.iter().map(|c| code(c)).collect::<Vec<_>>().join(", ")
        }
    ));
    out.push_str("\n## Not checked\n\n");
    if v.not_checked.is_empty() {
        out.push_str("Nothing.\n");
    }
    for n in &v.not_checked {
        out.push_str(&format!("- {}: {}\n", code(&n.id), cell(&n.reason)));
    }
    out.push_str("\n## Evidence\n\n");
    for e in &v.evidence {
        out.push_str(&format!("- {} ({}): {}\n", code(&e.id), e.kind, code(&e.detail.to_string())));
    }
    out
}

/// The record `--store` keeps for a verdict: its key (the verdict's digest) and value (the
/// time it was first stored and the verdict).
pub fn stored_record(v: &Validation, stored_at: &str) -> (String, String) {
    let key = super::verdict_digest(v);
    let value = serde_json::json!({"digest": key, "stored_at": stored_at, "verdict": v}).to_string();
    (key, value)
}

fn short(s: &str) -> &str {
    s.get(..12).unwrap_or(s)
}

/// `memval history`'s lines for the stored change verdicts `entries` (key, record), oldest
/// first as the memories' history reads; nothing when there are none.
pub fn history_lines(entries: Vec<(Vec<u8>, Vec<u8>)>) -> Vec<String> {
    if entries.is_empty() {
        return Vec::new();
    }
    let entries = oldest_first(entries);
    let mut lines = vec![format!("change verdicts ({})", entries.len())];
    lines.extend(entries.iter().map(|(k, v)| history_line(k, v)));
    lines
}

/// The stored records by `stored_at`, oldest first (an unreadable record sorts first).
fn oldest_first(mut entries: Vec<(Vec<u8>, Vec<u8>)>) -> Vec<(Vec<u8>, Vec<u8>)> {
    entries.sort_by_key(|(_, v)| {
        serde_json::from_slice::<serde_json::Value>(v)
            .ok()
            .and_then(|r| r["stored_at"].as_str().map(str::to_owned))
            .unwrap_or_default()
    });
    entries
}

/// `memval history --format json`'s `change_verdicts`: what [`history_lines`] shows of each
/// stored verdict, oldest first, digests in full: `{digest, stored_at, result,
/// subject_digest, acceptance_digest, author_context, validator_context}`, or `{digest,
/// error}` for a record that cannot be read (listed, never dropped).
pub fn history_records(entries: Vec<(Vec<u8>, Vec<u8>)>) -> Vec<serde_json::Value> {
    oldest_first(entries)
        .into_iter()
        .map(|(key, value)| {
            let digest = String::from_utf8_lossy(&key).into_owned();
            let Ok(record) = serde_json::from_slice::<serde_json::Value>(&value) else {
                return serde_json::json!({"digest": digest, "error": "unreadable record"});
            };
            let v = &record["verdict"];
            serde_json::json!({
                "digest": digest,
                "stored_at": record["stored_at"],
                "result": v["result"],
                "subject_digest": v["subject_digest"],
                "acceptance_digest": v["acceptance_digest"],
                "author_context": v["author_context"],
                "validator_context": v["validator_context"],
            })
        })
        .collect()
}

/// What one reviewer's model calls cost, for stderr (the result document is docs/contracts.md §8's and
/// nothing else).
pub fn review_usage(name: &str, u: &memval_llm::StageUsage) -> String {
    let cost = u.cost_usd.map_or("unpriced".to_owned(), |c| format!("${c:.4}"));
    format!(
        "memval: review by {}: {} calls, {} failed attempts, {} input / {} output tokens, {cost}",
        one_line(name),
        u.calls,
        u.failed_attempts,
        u.input_tokens,
        u.output_tokens
    )
}

/// One line of `memval history` for a stored verdict.
pub fn history_line(key: &[u8], value: &[u8]) -> String {
    let key = String::from_utf8_lossy(key);
    let Ok(record) = serde_json::from_slice::<serde_json::Value>(value) else {
        return format!("    {}  (unreadable record)", one_line(&key));
    };
    let v = &record["verdict"];
    let text = |x: &serde_json::Value| one_line(x.as_str().unwrap_or("-"));
    let key = one_line(&key);
    format!(
        "    {}  {:<10}  verdict {}  subject {}  acceptance {}  author {}  validator {}",
        text(&record["stored_at"]),
        text(&v["result"]),
        short(&key),
        short(&text(&v["subject_digest"])),
        short(&text(&v["acceptance_digest"])),
        text(&v["author_context"]),
        text(&v["validator_context"]),
    )
}

#[cfg(test)]
mod tests {
    use super::super::verdict::*;
    use super::*;

    #[test]
    fn untrusted_text_is_inert_in_both_formats() {
        let v = Validation {
            result: Outcome::Fail,
            criteria: vec![CriterionResult {
                id: "AC|1".into(),
                result: CriterionOutcome::Fail,
                reason: "exit 1\n\u{1b}]0;owned\u{7}".into(),
                evidence_refs: vec!["check:AC|1".into()],
            }],
            findings: vec![Finding { class: Class::CheckFailed, summary: "\u{202e}gnp.exe".into(), evidence: vec![] }],
            checked: vec!["AC|1".into()],
            not_checked: vec![],
            subject_digest: "s".into(),
            acceptance_digest: "a".into(),
            author_context: "a".into(),
            validator_context: "b".into(),
            freshness: None,
            evidence: vec![],
        };
        let md = markdown(&v);
        assert!(!md.contains('\u{1b}') && !md.contains('\u{202e}'), "{md}");
        assert!(md.contains("| AC\\|1 | fail |"), "{md}");
        assert!(md.contains("**check_failed**"));
        let js = json(&v);
        assert!(!js.contains('\u{202e}'));
        let back: serde_json::Value = serde_json::from_str(&js).unwrap();
        assert_eq!(back["findings"][0]["summary"], "\u{202e}gnp.exe");
        assert_eq!(back["result"], "FAIL");
    }
}
