//! The terminal table sized to a terminal: at 80 and 160 columns no line is longer than the
//! terminal, none ends in a space, and what makes a claim checkable (its path, symbol and line
//! number) and the memory a not-checked claim comes from are all on screen, wrapped rather than
//! cut. Without a width the table is as wide as its content and nothing is cut either.

use memval_proto::{
    Action, Claim, ClaimResult, ClaimType, CodeRef, MemoryMeta, MemoryScore, Outcome, RunHeader, Source, Verdict,
};
use memval_report::{build, FailOn, Inputs, Report};

const LONG_PATH: &str = "services/storage/internal/cache/sharded/eviction/lru_eviction_policy.go";
const SYMBOL_CLAIM: &str =
    "`ShardedCache` is defined at services/storage/internal/cache/sharded/eviction/lru_eviction_policy.go:412";
const MEMORY_FILE: &str = "examples/memories/memories.jsonl";

fn result(index: u32, text: &str, outcome: Outcome) -> ClaimResult {
    ClaimResult {
        index,
        claim: Claim {
            claim_type: ClaimType::SymbolReference,
            claim_text: text.into(),
            line: index + 1,
            lines: vec![index + 1],
            code_refs: vec![CodeRef {
                path: LONG_PATH.into(),
                symbol: Some("ShardedCache".into()),
                line: Some(412),
                written: None,
                alt_paths: Vec::new(),
            }],
            assertion: None,
        },
        outcome,
    }
}

fn checked(verdict: Verdict, evidence: &str, successor: Option<&str>) -> Outcome {
    Outcome::Checked {
        verdict,
        confidence: 90,
        evidence: evidence.into(),
        successor: successor.map(Into::into),
        since: None,
    }
}

fn report() -> Report {
    let header = RunHeader {
        run_id: "r1".into(),
        repo: "/repo".into(),
        commit: None,
        started_at: 1_764_590_400,
        expected_memories: 1,
    };
    let memory = MemoryScore {
        memory: MemoryMeta {
            id: "m1".into(),
            agent: "claude".into(),
            tier: 1,
            kind: "notes".into(),
            created_at: None,
            updated_at: None,
            source: Source { path: MEMORY_FILE.into(), line: Some(12), row: None, format: "jsonl".into() },
            first_line: 1,
        },
        score: Some(40),
        action: Some(Action::FlagForReview),
        results: vec![
            result(
                0,
                SYMBOL_CLAIM,
                checked(
                    Verdict::Contradicted,
                    &format!("{LONG_PATH}:412 holds `LRUCache`, and ShardedCache is defined nowhere in the tree"),
                    None,
                ),
            ),
            result(
                1,
                &format!("`{LONG_PATH}`"),
                checked(Verdict::Stale, "moved", Some("services/storage/cache/lru_eviction_policy.go")),
            ),
            result(2, "`main.go`", checked(Verdict::Valid, "main.go exists", None)),
            result(
                3,
                "the cache evicts the least recently used shard first when the memory budget is reached",
                Outcome::NotChecked {
                    reason: format!(
                        "behavioral claim needs an LLM investigator (none configured); its anchors: {LONG_PATH}:412"
                    ),
                },
            ),
        ],
        skip_reason: None,
        left_out: Vec::new(),
    };
    build(
        &[memory],
        Inputs {
            header: &header,
            finished_at: 1_764_590_401,
            memories_path: MEMORY_FILE.into(),
            memories_format: "jsonl",
            store: "/repo/.memval/store".into(),
            fail_on: FailOn::Never,
            fail_confidence: 0,
            problems: Vec::new(),
        },
    )
}

/// Every line of `table` at most `width` characters and without a trailing space.
fn assert_fits(table: &str, width: usize) {
    for line in table.lines() {
        assert!(line.chars().count() <= width, "a line over {width} columns:\n{line}\nin:\n{table}");
        assert_eq!(line, line.trim_end(), "a line ending in a space:\n{table}");
    }
}

/// `text` is on screen, perhaps broken over lines of its column: the table is read column by
/// column (a cell starts after two or more spaces, and belongs to the column it starts at),
/// and one column, without its layout, holds `text` without its spaces.
fn shown(table: &str, text: &str) -> bool {
    let mut by_column: std::collections::BTreeMap<usize, String> = Default::default();
    for line in table.lines() {
        let chars: Vec<char> = line.chars().collect();
        let mut at = 0;
        while at < chars.len() {
            if chars[at] == ' ' {
                at += 1;
                continue;
            }
            let start = at;
            while at < chars.len() && !(chars[at] == ' ' && chars.get(at + 1).is_none_or(|c| *c == ' ')) {
                at += 1;
            }
            by_column.entry(start).or_default().extend(chars[start..at].iter().filter(|c| **c != ' '));
        }
    }
    let wanted: String = text.split_whitespace().collect();
    by_column.values().any(|column| column.contains(&wanted))
}

#[test]
fn the_table_fits_the_terminal_and_cuts_nothing_decisive() {
    for width in [80, 160] {
        let table = memval_report::to_table(&report(), Some(width));
        assert_fits(&table, width);
        assert!(!table.contains('…'), "text was cut at {width} columns:\n{table}");
        for decisive in [SYMBOL_CLAIM, LONG_PATH, "lru_eviction_policy.go:412", "ShardedCache", MEMORY_FILE] {
            assert!(shown(&table, decisive), "{decisive:?} is not whole at {width} columns:\n{table}");
        }
        // The file name and its line number stay on one line, even where the path breaks.
        assert!(table.lines().any(|l| l.contains("lru_eviction_policy.go:412")), "{table}");
        // The not-checked claim names the memory it comes from, whole, on a line of its own.
        let not_checked = table.split("not checked (1):").nth(1).expect("a not-checked block");
        assert!(not_checked.lines().any(|l| l.trim() == format!("{MEMORY_FILE}:12")), "{table}");
        assert!(shown(not_checked, "the cache evicts the least recently used shard first"), "{table}");
    }
    // The wider terminal needs fewer lines: the columns use the room.
    let narrow = memval_report::to_table(&report(), Some(80)).lines().count();
    let wide = memval_report::to_table(&report(), Some(160)).lines().count();
    assert!(wide < narrow, "160 columns: {wide} lines, 80: {narrow}");
}

#[test]
fn a_narrow_terminal_puts_the_evidence_under_the_claim() {
    let table = memval_report::to_table(&report(), Some(50));
    assert_fits(&table, 50);
    assert!(shown(&table, SYMBOL_CLAIM) && shown(&table, "→ services/storage/cache/lru_eviction_policy.go"), "{table}");
}

#[test]
fn without_a_terminal_the_columns_follow_the_content() {
    let table = memval_report::to_table(&report(), None);
    assert!(table.lines().any(|l| l.contains(SYMBOL_CLAIM)), "the claim is on one line:\n{table}");
    assert!(table.lines().all(|l| l == l.trim_end()), "a line ending in a space:\n{table}");
    // One claim column for the memory: every claim's evidence starts in the same column.
    let starts: Vec<usize> = ["→ services", "main.go exists"]
        .iter()
        .map(|e| table.lines().find_map(|l| l.find(e)).expect("evidence shown"))
        .collect();
    assert_eq!(starts[0], starts[1], "{table}");
}
