//! SARIF 2.1.0 for code scanning: one result per line of every claim that is not VALID.

use serde_json::json;

use crate::Report;

/// SARIF 2.1.0 for code scanning: one result per line of a claim that is not VALID, located
/// at the memory file and each line that makes the claim. `relative` maps a memory source path to a
/// repo-relative URI.
pub fn to_sarif(report: &Report, relative: &dyn Fn(&str) -> String) -> String {
    let rules = [
        ("memval/stale", "STALE", "warning", "Memory refers to code that moved or changed"),
        ("memval/contradicted", "CONTRADICTED", "error", "Memory contradicts the code"),
        ("memval/ambiguous", "AMBIGUOUS", "note", "Memory claim could not be decided"),
    ];
    let mut results = Vec::new();
    for m in &report.memories {
        let path = m.source.rsplit_once(['#']).map(|(p, _)| p).unwrap_or(&m.source);
        let path = match path.rsplit_once(':') {
            Some((p, l)) if l.chars().all(|c| c.is_ascii_digit()) => p,
            _ => path,
        };
        for c in m.claims.iter().filter(|c| c.verdict != "VALID") {
            let Some((id, _, level, _)) = rules.iter().find(|r| r.1 == c.verdict) else { continue };
            let successor = c.successor.as_deref().map(|s| format!(" Successor: {s}.")).unwrap_or_default();
            // A result at every line that makes the claim, so each shows in code review.
            let at: Vec<u32> =
                if c.source_lines.is_empty() { vec![c.source_line.unwrap_or(1)] } else { c.source_lines.clone() };
            for (k, line) in at.into_iter().enumerate() {
                // The first line keeps the fingerprint a claim has always had.
                let print = if k == 0 {
                    format!("{}|{}|{}", m.id, c.claim_type, c.claim_text)
                } else {
                    format!("{}|{}|{}|{line}", m.id, c.claim_type, c.claim_text)
                };
                results.push(json!({
                    "ruleId": id,
                    "level": level,
                    "message": {"text": format!("{} ({} {}%): {}.{successor} Evidence: {}", c.claim_text, c.verdict, c.confidence, m.id, c.evidence)},
                    "locations": [{
                        "physicalLocation": {
                            "artifactLocation": {"uri": relative(path)},
                            "region": {"startLine": line.max(1)}
                        }
                    }],
                    "partialFingerprints": {"memvalClaim/v1": print},
                    "properties": {"confidence": c.confidence, "claim_type": c.claim_type, "memory_id": m.id, "successor": c.successor, "since": c.since}
                }));
            }
        }
    }
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "memval",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|(id, _, level, text)| json!({
                    "id": id,
                    "shortDescription": {"text": text},
                    "defaultConfiguration": {"level": level}
                })).collect::<Vec<_>>()
            }},
            "automationDetails": {"id": format!("memval/{}", report.run.id)},
            "results": results
        }]
    });
    memval_proto::display::json_safe(&(serde_json::to_string_pretty(&doc).expect("sarif serialises") + "\n"))
}
