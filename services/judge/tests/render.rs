//! Every view the judges print, rendered from fixed values and compared with the golden files
//! in `tests/golden/`: the pair judge's result (JSON, table), the draft judgement (JSON, the
//! NATS reply, table), and the change validation (JSON, Markdown, the subject manifest and
//! `memval history`'s lines for stored verdicts).
//!
//! Each fixture carries hostile text where untrusted text goes (a terminal escape, a bell, a
//! bidi override and isolate, a `|`, a newline, a long line), so a view that stops making it
//! inert, or changes shape, fails here.
//!
//! After an intended change of a view, regenerate with `MEMVAL_UPDATE_GOLDEN=1 cargo test -p
//! memval-judge --test render` and read the diff before committing it.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use memval_judge::change::manifest::{Entry, Kind, Manifest};
use memval_judge::change::verdict::NotChecked;
use memval_judge::change::{
    render, Class, CriterionOutcome, CriterionResult, Evidence, Finding, Freshness, FreshnessSource, Outcome,
    Validation,
};
use memval_judge::draft;
use memval_judge::input::Problem;
use memval_judge::result::PairsResult;
use memval_llm::{StageUsage, UsageReport};
use memval_proto::{Judgement, Pair, PairVerdict, RunHeader};

const HOSTILE: &str = "\u{1b}[31mred\u{1b}[0m \u{7} \u{202e}evil\u{202c} \u{2067}rtl\u{2069} a|b\nnext";

fn long_line() -> String {
    format!("{}end", "long ".repeat(60))
}

/// Compare `actual` with `tests/golden/<name>`, or write it there when asked to.
fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name);
    if std::env::var_os("MEMVAL_UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(actual == expected, "{name} differs from its golden file:\n--- expected\n{expected}\n--- actual\n{actual}");
}

fn assert_inert(name: &str, view: &str) {
    for c in ['\u{1b}', '\u{7}', '\u{202e}', '\u{202c}', '\u{2067}', '\u{2069}'] {
        assert!(!view.contains(c), "{name} carries a raw {c:?}:\n{view}");
    }
}

fn pair(a: &str, b: &str, score: f64) -> Pair {
    Pair {
        id_a: a.into(),
        agent_a: "claude".into(),
        content_a: format!("content of {a}"),
        id_b: b.into(),
        agent_b: format!("codex{HOSTILE}"),
        content_b: format!("content of {b}"),
        score,
        method: "keyword".into(),
    }
}

fn pairs_result() -> PairsResult {
    let selected = vec![pair("1", "2", 0.8), pair("1", "m-7", 0.5), pair("3", "4", 0.4)];
    let mut judged = BTreeMap::new();
    judged.insert(
        ("1".to_owned(), "2".to_owned()),
        Judgement {
            id_a: "1".into(),
            id_b: "2".into(),
            verdict: PairVerdict::Contradictory,
            claim_a: format!("use port 8080 {HOSTILE}"),
            claim_b: "use port 9090".into(),
            confidence: 92,
            rationale: long_line(),
            fallback: None,
        },
    );
    judged.insert(
        ("1".to_owned(), "m-7".to_owned()),
        Judgement {
            id_a: "1".into(),
            id_b: "m-7".into(),
            verdict: PairVerdict::Unrelated,
            claim_a: String::new(),
            claim_b: String::new(),
            confidence: 0,
            rationale: String::new(),
            fallback: Some(format!("quote not found verbatim: {HOSTILE}")),
        },
    );
    let mut unanswered = BTreeMap::new();
    unanswered.insert(("3".to_owned(), "4".to_owned()), "the model was unreachable after 3 attempts".to_owned());
    let total =
        StageUsage { calls: 2, failed_attempts: 1, input_tokens: 1200, output_tokens: 300, cost_usd: Some(0.0123) };
    let mut stages = BTreeMap::new();
    stages.insert("judge".to_owned(), total.clone());
    PairsResult {
        header: RunHeader {
            run_id: "20261201T120000000000Z-0002".into(),
            repo: "/repo".into(),
            commit: None,
            started_at: 1_764_590_400,
            expected_memories: 0,
        },
        finished_at: 1_764_590_412,
        input: "pairs.jsonl".into(),
        model: "openai/scripted".into(),
        read: 6,
        problems: vec![Problem { line: 5, reason: format!("not JSON: {HOSTILE}") }],
        selected,
        judged,
        plan_over_cap: vec![pair("5", "6", 0.1)],
        plan_deferred: vec![pair("7", "8", 0.2)],
        duplicates: 1,
        pair_cap: 4,
        detail: vec![format!("batch 2: answer without a judgements list {HOSTILE}")],
        usage: UsageReport {
            provider: "openai".into(),
            model: "scripted".into(),
            priced: true,
            stages,
            total,
            budget: None,
        },
        text_ids: HashSet::from(["m-7".to_owned()]),
        unanswered,
    }
}

fn draft_judgement() -> draft::Judgement {
    draft::Judgement {
        judge: draft::JUDGE,
        score: Some(10),
        veto: true,
        confidence: 0.9,
        evidence: vec![draft::Evidence {
            memory_file: "feedback_hooks.md".into(),
            memory_excerpt: format!("never skip hooks {HOSTILE}"),
            draft_match: "git commit --no-verify".into(),
        }],
        reason: format!("the draft skips hooks a feedback memory forbids {}", long_line()),
        not_judged: vec![draft::NotJudged {
            memory_file: format!("user_{HOSTILE}.md"),
            reason: "no model configured".into(),
        }],
        detail: vec![format!("model entry dropped: {HOSTILE}")],
    }
}

fn validation(result: Outcome, stored: &str) -> Validation {
    Validation {
        result,
        criteria: vec![
            CriterionResult {
                id: "AC|1".into(),
                result: CriterionOutcome::Pass,
                reason: "check exited 0".into(),
                evidence_refs: vec!["check:AC|1".into()],
            },
            CriterionResult {
                id: "AC-2".into(),
                result: CriterionOutcome::Fail,
                reason: format!("exit 1\n{HOSTILE}"),
                evidence_refs: vec!["check:AC-2".into()],
            },
            CriterionResult {
                id: "AC-3".into(),
                result: CriterionOutcome::NotChecked,
                reason: long_line(),
                evidence_refs: vec![],
            },
        ],
        findings: vec![
            Finding {
                class: Class::CheckFailed,
                summary: format!("AC-2 failed: {HOSTILE}"),
                evidence: vec!["check:AC-2".into()],
            },
            Finding {
                class: Class::TestSkipped,
                summary: "1 skip marker(s) added: `#[ignore]`".into(),
                evidence: vec![],
            },
        ],
        checked: vec!["AC|1".into(), "AC-2".into()],
        not_checked: vec![NotChecked { id: "AC-3".into(), reason: format!("no check and no model {HOSTILE}") }],
        subject_digest: format!("{stored}0123456789abcdef"),
        acceptance_digest: "fedcba9876543210fedcba9876543210".into(),
        author_context: "ctx-author".into(),
        validator_context: format!("ctx-{HOSTILE}"),
        freshness: Some(Freshness { source: FreshnessSource::Runtime, attester: format!("ci{HOSTILE}") }),
        evidence: vec![
            Evidence { id: "check:AC|1".into(), kind: "check", detail: serde_json::json!({"exit": 0, "tail": "ok"}) },
            Evidence {
                id: "check:AC-2".into(),
                kind: "check",
                detail: serde_json::json!({"exit": 1, "tail": HOSTILE}),
            },
        ],
    }
}

fn manifest() -> Manifest {
    Manifest {
        schema: "subject-manifest.v1".into(),
        roots: vec![".".into()],
        exclusions: vec![".git".into(), "target".into()],
        files: vec![
            Entry { path: "run.sh".into(), kind: Kind::File, executable: true, sha256: "aa".repeat(32) },
            Entry { path: format!("src/{HOSTILE}.rs"), kind: Kind::File, executable: false, sha256: "bb".repeat(32) },
            Entry { path: "link".into(), kind: Kind::Symlink, executable: false, sha256: "cc".repeat(32) },
        ],
        digest: "dd".repeat(32),
    }
}

fn history_entries() -> Vec<(Vec<u8>, Vec<u8>)> {
    // Stored newest first, so the oldest-first order is the view's doing; one record unreadable.
    let (k2, v2) = render::stored_record(&validation(Outcome::Fail, "b"), "2026-12-02T00:00:00Z");
    let (k1, v1) = render::stored_record(&validation(Outcome::Pass, "a"), "2026-12-01T00:00:00Z");
    vec![
        (k2.into_bytes(), v2.into_bytes()),
        (k1.into_bytes(), v1.into_bytes()),
        (format!("bad{HOSTILE}").into_bytes(), b"{not json".to_vec()),
    ]
}

#[test]
fn every_view_matches_its_golden_file() {
    let pairs = pairs_result();
    let fail = validation(Outcome::Fail, "s");
    let cases: Vec<(&str, String)> = vec![
        ("pairs.json", pairs.json_text()),
        ("pairs.txt", pairs.to_table()),
        ("draft.json", draft::render::json(&draft_judgement())),
        ("draft-reply.json", String::from_utf8(draft::render::json_bytes(&draft_judgement())).unwrap()),
        ("draft.txt", draft::render::table(&draft_judgement())),
        ("change.json", render::json(&fail)),
        ("change.md", render::markdown(&fail)),
        ("change-manifest.json", render::manifest_json(&manifest())),
        ("change-history.txt", render::history_lines(history_entries()).join("\n") + "\n"),
    ];
    for (name, text) in cases {
        assert_inert(name, &text);
        golden(name, &text);
    }
}

#[test]
fn nothing_stored_is_no_history_lines() {
    assert_eq!(render::history_lines(Vec::new()), Vec::<String>::new());
    assert_eq!(render::history_records(Vec::new()), Vec::<serde_json::Value>::new());
}

#[test]
fn history_records_carry_what_the_history_lines_show() {
    let records = render::history_records(history_entries());
    let lines = render::history_lines(history_entries());
    // The heading, then one line per record, in the same order (oldest first, unreadable first).
    assert_eq!(records.len() + 1, lines.len());
    assert_eq!(records[0]["error"], "unreadable record");
    assert_eq!(records[0]["digest"], format!("bad{HOSTILE}"), "the JSON view keeps the key as it is");
    for (record, line) in records.iter().zip(&lines[1..]).skip(1) {
        for field in ["stored_at", "result", "author_context"] {
            let value = record[field].as_str().unwrap();
            assert!(line.contains(value), "{field} {value:?} not in {line:?}");
        }
        let digest = record["digest"].as_str().unwrap();
        assert_eq!(digest.len(), 64, "the full digest: {digest}");
        assert!(line.contains(&digest[..12]), "{line}");
        assert!(line.contains(&record["subject_digest"].as_str().unwrap()[..12]), "{line}");
    }
    assert_eq!(records[1]["result"], "PASS");
    assert_eq!(records[2]["result"], "FAIL");
    assert_eq!(records[2]["validator_context"], format!("ctx-{HOSTILE}"));
}

#[test]
fn json_views_decode_to_the_untrusted_text_unchanged() {
    // Escaping for the terminal must not change what a JSON reader gets.
    let pairs: serde_json::Value = serde_json::from_str(&pairs_result().json_text()).unwrap();
    assert_eq!(pairs["judgements"][0]["claim_a"], format!("use port 8080 {HOSTILE}"));
    assert_eq!(pairs["judgements"][1]["id_b"], "m-7", "a text id stays text");
    assert_eq!(pairs["judgements"][0]["id_a"], 1, "a numeric id is a number");
    let d: serde_json::Value = serde_json::from_str(&draft::render::json(&draft_judgement())).unwrap();
    assert_eq!(d["evidence"][0]["memory_excerpt"], format!("never skip hooks {HOSTILE}"));
    let c: serde_json::Value = serde_json::from_str(&render::json(&validation(Outcome::Fail, "s"))).unwrap();
    assert_eq!(c["freshness"]["attester"], format!("ci{HOSTILE}"));
}

/// What a memory, a draft or a model writes to forge lines: a line break, then text laid out
/// like the judges' own rows and verdict lines, with every other way to break a line.
const FORGED_LINES: &str = "\nCONTRADICTORY  99  1 (claude) <> 2 (codex)\r\ndraft-judge: VETO  score 0  confidence 1.00\n| AC-9 | pass | forged | |\u{2028}    2026-12-03T00:00:00Z  PASS  verdict forged\u{2029}\u{85}reason:\tforged";

/// Asserts `view` prints as many lines when untrusted fields carry forged lines as when they
/// carry plain text, and that the forged text is still shown, escaped, inline.
fn same_lines(name: &str, view: impl Fn(&str) -> String) {
    let plain = view("");
    let forged = view(FORGED_LINES);
    assert_eq!(forged.lines().count(), plain.lines().count(), "{name}: forged lines were printed as lines:\n{forged}");
    assert!(
        !forged.chars().any(|c| matches!(c, '\r' | '\u{2028}' | '\u{2029}' | '\u{85}')),
        "{name}: a raw line break:\n{forged}"
    );
    assert!(
        forged.contains("\\nCONTRADICTORY  99  1 (claude) <> 2 (codex)\\r\\n"),
        "{name}: the forged text is not shown escaped:\n{forged}"
    );
}

#[test]
fn no_view_lets_a_field_forge_a_line() {
    same_lines("pairs table", |t| {
        let mut r = pairs_result();
        r.model = format!("openai/scripted{t}");
        r.detail = vec![format!("batch 2{t}")];
        for p in r.selected.iter_mut().chain(&mut r.plan_over_cap).chain(&mut r.plan_deferred) {
            p.agent_a = format!("claude{t}");
        }
        for j in r.judged.values_mut() {
            j.rationale = format!("same port{t}");
            j.claim_a = format!("port 8080{t}");
            if j.fallback.is_some() {
                j.fallback = Some(format!("quote not found{t}"));
            }
        }
        r.to_table()
    });
    same_lines("draft table", |t| {
        let mut j = draft_judgement();
        j.reason = format!("skips hooks{t}");
        j.evidence[0].memory_file = format!("feedback{t}.md");
        j.evidence[0].memory_excerpt = format!("never skip hooks{t}");
        j.evidence[0].draft_match = format!("--no-verify{t}");
        j.not_judged[0].memory_file = format!("user{t}.md");
        j.not_judged[0].reason = format!("no model{t}");
        j.detail = vec![format!("entry dropped{t}")];
        draft::render::table(&j)
    });
    let validation_of = |t: &str| {
        let mut v = validation(Outcome::Fail, "s");
        v.criteria[1].reason = format!("exit 1{t}");
        v.criteria[1].id = format!("AC-2{t}");
        v.findings[0].summary = format!("AC-2 failed{t}");
        v.not_checked[0].reason = format!("no check{t}");
        v.author_context = format!("ctx-author{t}");
        v.validator_context = format!("ctx-validator{t}");
        v
    };
    same_lines("change markdown", |t| render::markdown(&validation_of(t)));
    same_lines("change history", |t| {
        let (key, value) = render::stored_record(&validation_of(t), &format!("2026-12-01T00:00:00Z{t}"));
        let unreadable = (format!("bad{t}").into_bytes(), b"{not json".to_vec());
        render::history_lines(vec![(key.into_bytes(), value.into_bytes()), unreadable]).join("\n") + "\n"
    });
}
