//! One finding, one row: a behavioural or architectural claim whose verdict rests on the same
//! reference and evidence as a symbol or file claim of the same sentence is shown in that
//! claim's row, with both readings, in the table and Markdown; with other evidence, another
//! reference or another line it keeps a row of its own. JSON keeps every claim and links the
//! folded one to its row; the summary counts rows and claims both.

use memval_proto::{
    Action, Claim, ClaimResult, ClaimType, CodeRef, MemoryMeta, MemoryScore, Outcome, RunHeader, Source, Verdict,
};
use memval_report::{build, to_json, to_markdown, to_table, FailOn, Inputs, Report};

const SYMBOL_EVIDENCE: &str = "worker/ratelimit.py:7 — TokenBucket was renamed to RateLimiter";
const SENTENCE: &str = "Background jobs are throttled by `TokenBucket` in `worker/ratelimit.py`.";

fn code_ref(symbol: Option<&str>) -> CodeRef {
    CodeRef {
        path: "worker/ratelimit.py".into(),
        symbol: symbol.map(Into::into),
        line: None,
        written: None,
        alt_paths: Vec::new(),
    }
}

fn stale(confidence: u8, evidence: &str) -> Outcome {
    Outcome::Checked {
        verdict: Verdict::Stale,
        confidence,
        evidence: evidence.into(),
        successor: Some("RateLimiter".into()),
        since: None,
    }
}

fn result(
    index: u32,
    claim_type: ClaimType,
    text: &str,
    line: u32,
    refs: Vec<CodeRef>,
    outcome: Outcome,
) -> ClaimResult {
    ClaimResult {
        index,
        claim: Claim { claim_type, claim_text: text.into(), line, lines: vec![line], code_refs: refs, assertion: None },
        outcome,
    }
}

/// The symbol claim `TokenBucket` and the architectural reading of its sentence, as the
/// investigator decides the second from its anchors: `evidence` and `refs` for the second.
fn report(behaviour_line: u32, refs: Vec<CodeRef>, evidence: &str) -> Report {
    let header = RunHeader {
        run_id: "r1".into(),
        repo: "/repo".into(),
        commit: None,
        started_at: 1_764_590_400,
        expected_memories: 1,
    };
    let results = vec![
        result(
            0,
            ClaimType::SymbolReference,
            "`TokenBucket` is defined in worker/ratelimit.py",
            7,
            vec![code_ref(Some("TokenBucket"))],
            stale(95, SYMBOL_EVIDENCE),
        ),
        result(1, ClaimType::Architectural, SENTENCE, behaviour_line, refs, stale(60, evidence)),
    ];
    let memory = MemoryScore {
        memory: MemoryMeta {
            id: "CLAUDE.md".into(),
            agent: "claude".into(),
            tier: 1,
            kind: "notes".into(),
            created_at: None,
            updated_at: None,
            source: Source { path: "CLAUDE.md".into(), line: None, row: None, format: "notes".into() },
            first_line: 1,
        },
        score: Some(18),
        action: Some(Action::FlagForUser),
        results,
        skip_reason: None,
        left_out: Vec::new(),
    };
    build(
        &[memory],
        Inputs {
            header: &header,
            finished_at: 1_764_590_401,
            memories_path: "CLAUDE.md".into(),
            memories_format: "notes",
            store: "/repo/.memval/store".into(),
            fail_on: FailOn::Never,
            fail_confidence: 0,
            problems: Vec::new(),
        },
    )
}

/// Both references of the sentence, as the extractor gives them.
fn both_refs() -> Vec<CodeRef> {
    vec![code_ref(None), code_ref(Some("TokenBucket"))]
}

/// The architectural claim's evidence as `check/anchors.rs` builds it from its anchors.
fn derived_evidence() -> String {
    format!(
        "{SYMBOL_EVIDENCE} | other references: VALID: worker/ratelimit.py:1 — file exists — the code this architectural claim describes has moved; its behaviour is unchecked"
    )
}

/// The table's claim rows (those with a verdict cell).
fn rows(table: &str) -> Vec<&str> {
    table.lines().filter(|l| l.trim_start().starts_with("STALE")).collect()
}

#[test]
fn the_same_reference_and_evidence_is_one_row_with_both_readings() {
    let report = report(7, both_refs(), &derived_evidence());
    let table = to_table(&report, None);
    let rows = rows(&table);
    assert_eq!(rows.len(), 1, "{table}");
    assert!(rows[0].contains("`TokenBucket` is defined in") && rows[0].contains("STALE         95"), "{table}");
    let also = format!(
        "also read as an architectural claim (STALE 60 on the same evidence; behaviour not checked): {SENTENCE}"
    );
    assert!(table.lines().any(|l| l.trim_start().starts_with(&also)), "{table}");
    assert!(
        table.contains("1 memory, 1 finding shown for 2 claims (1 folded into another claim's row: same reference and evidence); by claim: 0 valid, 2 stale"),
        "{table}"
    );

    let md = to_markdown(&report);
    let md_rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| 7 |")).collect();
    assert_eq!(md_rows.len(), 1, "{md}");
    assert!(md_rows[0].contains(&also) && md_rows[0].contains("| **STALE** | 95 |"), "{md}");
    assert!(md.contains("- 1 memory, 1 finding shown for 2 claims"), "{md}");

    // JSON keeps both claims and links the folded one to its row.
    let json: serde_json::Value = serde_json::from_str(&to_json(&report)).unwrap();
    let claims = json["memories"][0]["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 2);
    assert_eq!(claims[0]["folded_into"], serde_json::Value::Null);
    assert_eq!(claims[1]["folded_into"], 0);
    assert_eq!((json["run"]["claims"].as_u64(), json["run"]["verdicts"]["STALE"].as_u64()), (Some(2), Some(2)));
}

#[test]
fn other_evidence_is_two_rows() {
    // The same references, but a verdict not derived from the symbol claim's evidence.
    let own = report(7, both_refs(), "worker/ratelimit.py:3 — the throttle is configured elsewhere");
    // Evidence that starts with the symbol claim's but goes on in the same word is not it.
    let cut = report(7, both_refs(), &format!("{SYMBOL_EVIDENCE}Factory — moved"));
    for report in [own, cut] {
        assert_two_rows(&report);
    }
}

#[test]
fn another_reference_or_another_line_is_two_rows() {
    // The sentence names only the file, not the symbol the other claim is about.
    assert_two_rows(&report(7, vec![code_ref(None)], &derived_evidence()));
    // The same references and evidence, from another sentence of the memory.
    assert_two_rows(&report(8, both_refs(), &derived_evidence()));
}

fn assert_two_rows(report: &Report) {
    let table = to_table(report, None);
    assert_eq!(rows(&table).len(), 2, "{table}");
    assert!(!table.contains("also read as"), "{table}");
    assert!(table.contains("1 memory, 2 claims: 0 valid, 2 stale"), "{table}");
    let md = to_markdown(report);
    assert_eq!(md.lines().filter(|l| l.contains("| **STALE** |")).count(), 2, "{md}");
    let json: serde_json::Value = serde_json::from_str(&to_json(report)).unwrap();
    // Each claim says it has a row of its own (the field is there, and null).
    let claims = json["memories"][0]["claims"].as_array().unwrap();
    assert!(claims.iter().all(|c| c.get("folded_into") == Some(&serde_json::Value::Null)), "{json}");
}
