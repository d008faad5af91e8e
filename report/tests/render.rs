//! Every view of one fixed report, compared with the golden files in `tests/golden/`.
//!
//! The fixture covers what a renderer must get right: each verdict, a successor, a claim
//! made on two lines, a resolved path with its written form, a claim folded into another's
//! row, a not-checked claim, unread text, an unreadable input, a memory with no claims, and hostile text (a terminal escape,
//! a bidi override, a `|` and a newline) in a memory's agent, a claim and evidence. The
//! dead-letter views render two letters with hostile headers (a reason quoting a payload
//! with escapes, a bidi override and a long line; a letter with no headers at all).
//!
//! After an intended change of a view, regenerate with `MEMVAL_UPDATE_GOLDEN=1 cargo test -p
//! memval-report` and read the diff before committing it.

use std::path::PathBuf;

use memval_proto::{
    Action, Claim, ClaimResult, ClaimType, CodeRef, LeftOut, MemoryMeta, MemoryScore, Outcome, RunHeader, Since,
    Source, Verdict,
};
use memval_report::dlq::DeadLetter;
use memval_report::{build, FailOn, Inputs, Problem, Report};
use memval_store::HistoryPoint;

const HOSTILE: &str = "\u{1b}]0;pwned\u{7} \u{202e}evil";

fn code_ref(path: &str, symbol: Option<&str>, written: Option<&str>) -> CodeRef {
    CodeRef {
        path: path.into(),
        symbol: symbol.map(Into::into),
        line: None,
        written: written.map(Into::into),
        alt_paths: Vec::new(),
    }
}

fn result(
    index: u32,
    claim_type: ClaimType,
    text: &str,
    lines: &[u32],
    refs: Vec<CodeRef>,
    outcome: Outcome,
) -> ClaimResult {
    ClaimResult {
        index,
        claim: Claim {
            claim_type,
            claim_text: text.into(),
            line: lines[0],
            lines: lines.to_vec(),
            code_refs: refs,
            assertion: None,
        },
        outcome,
    }
}

fn checked(verdict: Verdict, confidence: u8, evidence: &str, successor: Option<&str>) -> Outcome {
    Outcome::Checked {
        verdict,
        confidence,
        evidence: evidence.into(),
        successor: successor.map(Into::into),
        since: None,
    }
}

/// Decided by the commit `commit` of 2026-01-05 14:00 UTC.
fn since(commit: &str) -> Option<Since> {
    Some(Since { commit: commit.into(), date: 1_767_621_600 })
}

fn meta(id: &str, agent: &str, path: &str, format: &str, line: Option<u32>) -> MemoryMeta {
    MemoryMeta {
        id: id.into(),
        agent: agent.into(),
        tier: 1,
        kind: "notes".into(),
        created_at: Some(1_764_000_000),
        updated_at: None,
        source: Source { path: path.into(), line, row: None, format: format.into() },
        first_line: 3,
    }
}

fn fixture(fail_on: FailOn) -> Report {
    gated(fail_on, memval_report::FAIL_CONFIDENCE)
}

/// The fixture's report with `--fail-on fail_on --fail-confidence floor`.
fn gated(fail_on: FailOn, floor: u8) -> Report {
    let header = RunHeader {
        run_id: "20261201T120000000000Z-0001".into(),
        repo: "/repo".into(),
        commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
        started_at: 1_764_590_400,
        expected_memories: 3,
    };
    let notes = MemoryScore {
        memory: meta("notes-1", "claude", "CLAUDE.md", "notes", None),
        score: Some(41),
        action: Some(Action::FlagForReview),
        results: vec![
            result(
                0,
                ClaimType::FileReference,
                "`src/cache/lru.go`",
                &[2, 9],
                vec![code_ref("src/cache/lru.go", None, None)],
                checked(
                    Verdict::Stale,
                    85,
                    "src/cache/lru.go: moved to internal/cache/lru.go in abc1234",
                    Some("internal/cache/lru.go"),
                )
                .since(since("abc1234f00dabc1234f00dabc1234f00dabc1234")),
            ),
            result(
                1,
                ClaimType::SymbolReference,
                "`ShardedCache`",
                &[4],
                vec![code_ref("src/cache/lru.go", Some("ShardedCache"), None)],
                checked(Verdict::Contradicted, 90, "src/cache/lru.go: ShardedCache removed in def5678", None)
                    .since(since("def5678f00ddef5678f00ddef5678f00ddef5678")),
            ),
            result(
                2,
                ClaimType::FileReference,
                "`api.md`",
                &[5],
                vec![code_ref("docs/api.md", None, Some("../api.md"))],
                checked(Verdict::Valid, 100, "docs/api.md exists", None),
            ),
            result(
                3,
                ClaimType::FileReference,
                "`cfg` | pipes",
                &[6],
                vec![code_ref("cfg", None, None)],
                checked(Verdict::Ambiguous, 40, "cfg: 2 places match\nconfig/cfg, tools/cfg", None),
            ),
            result(
                5,
                ClaimType::SymbolReference,
                "`TokenBucket`",
                &[8],
                vec![code_ref("worker/ratelimit.py", Some("TokenBucket"), None)],
                checked(
                    Verdict::Stale,
                    95,
                    "worker/ratelimit.py:7 — TokenBucket was renamed to RateLimiter",
                    Some("RateLimiter"),
                ),
            ),
            // The same sentence read as an architectural claim, decided on the symbol's evidence:
            // shown in the symbol claim's row.
            result(
                6,
                ClaimType::Architectural,
                "jobs are throttled by `TokenBucket`",
                &[8],
                vec![code_ref("worker/ratelimit.py", Some("TokenBucket"), None)],
                checked(
                    Verdict::Stale,
                    60,
                    "worker/ratelimit.py:7 — TokenBucket was renamed to RateLimiter — its behaviour is unchecked",
                    Some("RateLimiter"),
                ),
            ),
            result(
                4,
                ClaimType::Behavioral,
                "retries three times",
                &[7],
                vec![code_ref("src/retry.rs", None, None)],
                Outcome::NotChecked { reason: "behavioral claims need the LLM investigator (--llm-provider)".into() },
            ),
        ],
        skip_reason: None,
        left_out: vec![LeftOut { line: 40, reason: "more than 4096 mentions: lines 40-52 not read".into() }],
    };
    let hostile = MemoryScore {
        memory: meta("jsonl-7", &format!("agent{HOSTILE}"), "memories.jsonl", "jsonl", Some(7)),
        score: Some(100),
        action: Some(Action::Pass),
        results: vec![result(
            0,
            ClaimType::FileReference,
            &format!("`README.md` {HOSTILE}"),
            &[1],
            vec![code_ref("README.md", None, None)],
            checked(Verdict::Valid, 100, &format!("README.md exists {HOSTILE}"), None),
        )],
        skip_reason: None,
        left_out: Vec::new(),
    };
    let empty = MemoryScore {
        memory: meta("jsonl-8", "codex", "memories.jsonl", "jsonl", Some(8)),
        score: None,
        action: None,
        results: Vec::new(),
        skip_reason: Some("no code reference in the text".into()),
        left_out: Vec::new(),
    };
    build(
        &[notes, hostile, empty],
        Inputs {
            header: &header,
            finished_at: 1_764_590_407,
            memories_path: "memories".into(),
            memories_format: "notes",
            store: "/repo/.memval/store".into(),
            fail_on,
            fail_confidence: floor,
            problems: vec![Problem { path: "broken.json".into(), reason: format!("not JSON {HOSTILE}") }],
        },
    )
}

fn history() -> Vec<HistoryPoint> {
    let point = |run: &str, at: i64, id: &str, source: &str, score: Option<u8>, verdicts: &[(&str, u8)]| HistoryPoint {
        run_id: run.into(),
        started_at: at,
        memory_id: id.into(),
        source: source.into(),
        score,
        verdicts: verdicts.iter().map(|(v, c)| ((*v).to_owned(), *c)).collect(),
    };
    vec![
        point("r1", 1_764_000_000, "m1", "CLAUDE.md", Some(100), &[("VALID", 100)]),
        point("r2", 1_764_100_000, "m1", "CLAUDE.md", Some(62), &[("VALID", 100), ("STALE", 85)]),
        point("r3", 1_764_200_000, "m1", "CLAUDE.md", Some(80), &[("VALID", 100)]),
        point("r2", 1_764_100_000, "m2", &format!("notes{HOSTILE}.md"), None, &[]),
    ]
}

/// Stored change verdicts as `memval_judge::change::render::history_records` gives them.
fn change_verdicts() -> Vec<serde_json::Value> {
    vec![
        serde_json::json!({"digest": "ab".repeat(32), "stored_at": "2026-12-01T00:00:00Z", "result": "PASS", "subject_digest": "s1",
            "acceptance_digest": "a1", "author_context": "ctx-a", "validator_context": format!("ctx-{HOSTILE}")}),
        serde_json::json!({"digest": format!("bad{HOSTILE}"), "error": "unreadable record"}),
    ]
}

fn dead_letters() -> Vec<DeadLetter> {
    vec![
        DeadLetter {
            sequence: 7,
            time: 1_764_590_400,
            stage: "investigator".into(),
            run: Some("20261201T120000000000Z-0001".into()),
            subject: Some("memval.v1.claims".into()),
            msg_id: Some("20261201T120000000000Z-0001.m0:0".into()),
            delivery: Some("5".into()),
            reason: Some(format!("permanent: cannot decode {HOSTILE} \u{2067}rtl\u{2069} {}", "x".repeat(300))),
            bytes: 1234,
        },
        DeadLetter {
            sequence: 12,
            time: 1_764_590_460,
            stage: format!("ingest{HOSTILE}"),
            run: None,
            subject: None,
            msg_id: None,
            delivery: Some("not a number".into()),
            reason: None,
            bytes: 0,
        },
    ]
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

#[test]
fn every_view_matches_its_golden_file() {
    let report = fixture(FailOn::Never);
    let cases: Vec<(&str, String)> = vec![
        ("report.json", memval_report::to_json(&report)),
        ("report.txt", memval_report::to_table(&report, None)),
        ("report.md", memval_report::to_markdown(&report)),
        ("report.sarif", memval_report::to_sarif(&report, &|p| format!("rel/{p}"))),
        ("history.json", memval_report::history::to_json(&history(), change_verdicts())),
        ("history.txt", memval_report::history::to_table(&history(), None)),
        ("history-none.txt", memval_report::history::to_table(&[], Some("cache"))),
        ("dlq.json", memval_report::dlq::to_json(&dead_letters())),
        ("dlq.txt", memval_report::dlq::to_table(&dead_letters())),
        ("dlq-none.json", memval_report::dlq::to_json(&[])),
        ("dlq-none.txt", memval_report::dlq::to_table(&[])),
    ];
    for (name, text) in cases {
        golden(name, &text);
    }
}

#[test]
fn no_view_carries_a_raw_control_character() {
    let report = fixture(FailOn::Never);
    let views = [
        memval_report::to_json(&report),
        memval_report::to_table(&report, None),
        memval_report::to_markdown(&report),
        memval_report::to_sarif(&report, &|p| p.to_owned()),
        memval_report::history::to_json(&history(), change_verdicts()),
        memval_report::history::to_table(&history(), None),
        memval_report::dlq::to_json(&dead_letters()),
        memval_report::dlq::to_table(&dead_letters()),
    ];
    for view in views {
        assert!(
            !view.contains('\u{1b}') && !view.contains('\u{7}') && !view.contains('\u{202e}'),
            "raw control character in:\n{view}"
        );
    }
}

#[test]
fn counts_and_fail_on_follow_the_verdicts() {
    let never = fixture(FailOn::Never);
    assert_eq!((never.run.memories, never.run.claims, never.run.checked), (3, 8, 7));
    // One claim not checked plus one unread range; the unread range is not a claim.
    assert_eq!(never.run.not_checked, 2);
    assert!(!never.run.failed);
    assert!(fixture(FailOn::Stale).run.failed, "a STALE claim reaches --fail-on stale");
    let contradicted_only = fixture(FailOn::Contradicted);
    assert!(contradicted_only.run.failed, "CONTRADICTED is at or above contradicted");
    // The verdicts at or above STALE have confidence 60, 85, 90 and 95.
    assert!(gated(FailOn::Stale, 95).run.failed, "STALE 95 is at the floor");
    assert!(!gated(FailOn::Stale, 96).run.failed, "every verdict is under the floor");
    assert!(!gated(FailOn::Contradicted, 91).run.failed, "the CONTRADICTED claim is at 90");
    assert!(gated(FailOn::Contradicted, 90).run.failed);
    assert_eq!(gated(FailOn::Stale, 96).run.verdicts, fixture(FailOn::Stale).run.verdicts, "the floor hides nothing");
    // The views say how many verdicts the floor kept out of the exit code.
    let said = "4 verdicts at or above stale have a confidence under 96";
    assert!(memval_report::to_table(&gated(FailOn::Stale, 96), None).contains(said));
    assert!(memval_report::to_markdown(&gated(FailOn::Stale, 96)).contains(said));
    assert!(!memval_report::to_table(&gated(FailOn::Stale, 60), None).contains("have a confidence under"));
}

#[test]
fn sarif_has_a_result_per_line_of_each_claim_that_is_not_valid() {
    let sarif: serde_json::Value =
        serde_json::from_str(&memval_report::to_sarif(&fixture(FailOn::Never), &|p| p.to_owned())).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let at: Vec<(String, u64)> = results
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap().to_owned(),
                r["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64().unwrap(),
            )
        })
        .collect();
    // The notes memory starts at line 3 of CLAUDE.md: text lines 2 and 9 are file lines 4 and 11.
    assert_eq!(
        at,
        vec![
            ("memval/stale".into(), 4),
            ("memval/stale".into(), 11),
            ("memval/contradicted".into(), 6),
            ("memval/ambiguous".into(), 8),
            // A claim folded into another's row in the table is still a result of its own.
            ("memval/stale".into(), 10),
            ("memval/stale".into(), 10)
        ]
    );
}

/// What a memory writes to forge a row: a line break, then text laid out like memval's own
/// rows (table, Markdown, history, dead letters), with every other way to break a line.
const FORGED_ROWS: &str = "\nCLAUDE.md  [claude]  score 100  pass\r\n    VALID        100  `src/lru.rs`  src/lru.rs exists\n| `CLAUDE.md` | claude | 100 | pass |\u{2028}    2026-12-01T00:00:00Z  100  run r9\u{2029}\u{85}     9  2026-12-01T00:00:00Z  ingest\tforged";

/// A report whose every field from a memory, the repository or a model holds `text`.
fn report_of(text: &str) -> Report {
    let header = RunHeader {
        run_id: format!("run{text}"),
        repo: format!("/repo{text}"),
        commit: Some(format!("abc{text}")),
        started_at: 1_764_590_400,
        expected_memories: 2,
    };
    let checked_memory = MemoryScore {
        memory: meta(&format!("m{text}"), &format!("agent{text}"), &format!("CLAUDE{text}.md"), "notes", None),
        score: Some(50),
        action: Some(Action::FlagForReview),
        results: vec![
            result(
                0,
                ClaimType::FileReference,
                &format!("`a.rs`{text}"),
                &[2],
                vec![code_ref("a.rs", None, None)],
                checked(Verdict::Stale, 85, &format!("moved{text}"), Some(&format!("b.rs{text}"))),
            ),
            result(
                1,
                ClaimType::FileReference,
                &format!("`c.rs`{text}"),
                &[3],
                vec![code_ref("c.rs", None, None)],
                checked(Verdict::Valid, 100, &format!("exists{text}"), None),
            ),
            result(
                3,
                ClaimType::SymbolReference,
                &format!("`Bucket`{text}"),
                &[5],
                vec![code_ref("d.rs", Some("Bucket"), None)],
                checked(Verdict::Stale, 95, &format!("d.rs:1 renamed{text}"), None),
            ),
            result(
                4,
                ClaimType::Behavioral,
                &format!("throttles{text}"),
                &[5],
                vec![code_ref("d.rs", Some("Bucket"), None)],
                checked(Verdict::Stale, 60, &format!("d.rs:1 renamed{text} — unchecked{text}"), None),
            ),
            result(
                2,
                ClaimType::Behavioral,
                &format!("retries{text}"),
                &[4],
                vec![],
                Outcome::NotChecked { reason: format!("needs a model{text}") },
            ),
        ],
        skip_reason: None,
        left_out: vec![LeftOut { line: 9, reason: format!("too long{text}") }],
    };
    let skipped = MemoryScore {
        memory: meta("m2", &format!("codex{text}"), "AGENTS.md", "notes", None),
        score: None,
        action: None,
        results: Vec::new(),
        skip_reason: Some(format!("no code reference{text}")),
        left_out: Vec::new(),
    };
    build(
        &[checked_memory, skipped],
        Inputs {
            header: &header,
            finished_at: 1_764_590_407,
            memories_path: format!("memories{text}"),
            memories_format: "notes",
            store: "/repo/.memval/store".into(),
            fail_on: FailOn::Never,
            fail_confidence: 0,
            problems: vec![Problem { path: format!("broken{text}.json"), reason: format!("not JSON{text}") }],
        },
    )
}

/// Asserts `view` prints as many lines when every untrusted field carries forged rows as when
/// it carries plain text, and that the forged rows' text is still shown (escaped, inline).
fn same_lines(name: &str, view: impl Fn(&str) -> String) {
    let plain = view("");
    let forged = view(FORGED_ROWS);
    assert_eq!(forged.lines().count(), plain.lines().count(), "{name}: forged rows were printed as rows:\n{forged}");
    assert!(
        !forged.chars().any(|c| matches!(c, '\r' | '\u{2028}' | '\u{2029}' | '\u{85}')),
        "{name}: a raw line break:\n{forged}"
    );
    assert!(
        forged.contains("\\nCLAUDE.md  [claude]  score 100  pass\\r\\n"),
        "{name}: the forged text is not shown escaped:\n{forged}"
    );
}

#[test]
fn no_view_lets_a_field_forge_a_row() {
    same_lines("report table", |t| memval_report::to_table(&report_of(t), None));
    same_lines("report markdown", |t| memval_report::to_markdown(&report_of(t)));
    // The folded claim's text is on the line of its own under its row, escaped like the rest.
    let folded = memval_report::to_table(&report_of(FORGED_ROWS), None);
    assert!(folded.contains("also read as a behavioral claim (STALE 60 on the same evidence; behaviour not checked): throttles\\nCLAUDE.md"), "{folded}");
    let history_of = |t: &str| {
        let point = |run: &str, source: &str| HistoryPoint {
            run_id: run.into(),
            started_at: 1_764_000_000,
            memory_id: format!("m{t}"),
            source: source.into(),
            score: Some(90),
            verdicts: vec![("VALID".into(), 100)],
        };
        vec![point(&format!("r1{t}"), &format!("CLAUDE{t}.md")), point("r2", &format!("CLAUDE{t}.md"))]
    };
    same_lines("history table", |t| memval_report::history::to_table(&history_of(t), None));
    same_lines("history table, nothing matched", |t| memval_report::history::to_table(&[], Some(&format!("lru{t}"))));
    same_lines("dead letters", |t| {
        let letter = DeadLetter {
            sequence: 7,
            time: 1_764_590_400,
            stage: format!("investigator{t}"),
            run: Some(format!("r1{t}")),
            subject: Some(format!("memval.v1.claims{t}")),
            msg_id: Some(format!("r1.m0:0{t}")),
            delivery: Some("5".into()),
            reason: Some(format!("permanent: cannot decode{t}")),
            bytes: 1,
        };
        memval_report::dlq::to_table(&[letter])
    });
}
