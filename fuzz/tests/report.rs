//! The report writers on generated hostile text: every view of a report whose memory, agent,
//! source, claims and evidence come from the generator renders without a panic, the JSON and
//! SARIF views stay JSON (and give the text back unchanged), and no view carries a character
//! that would act on a terminal.

use std::time::Duration;

use memval_proto::display::is_active;
use memval_proto::{Action, ClaimResult, MemoryMeta, MemoryScore, Outcome, RunHeader, Since, Source, Verdict};
use memval_store::HistoryPoint;

fn memory(text: &str) -> memval_proto::Memory {
    let first: String = text.chars().take(40).collect();
    memval_proto::Memory {
        id: format!("fuzz-{first}"),
        agent: first.clone(),
        content: text.into(),
        tier: 1,
        kind: "notes".into(),
        created_at: Some(1_764_000_000),
        updated_at: None,
        source: Source { path: format!("{first}.md"), line: None, row: None, format: "notes".into() },
        context_dir: None,
        first_line: 1,
    }
}

/// The claims the rules find in `text`, each given an outcome whose evidence quotes the text.
fn score(text: &str) -> MemoryScore {
    let memory = memory(text);
    let extracted = memval_extractor::extract(&memory);
    let quote: String = text.chars().rev().take(80).collect();
    let results: Vec<ClaimResult> = extracted
        .claims
        .into_iter()
        .enumerate()
        .map(|(i, claim)| {
            let outcome = match i % 5 {
                4 => Outcome::NotChecked { reason: format!("not checked: {quote}") },
                k => Outcome::Checked {
                    verdict: Verdict::ALL[k],
                    confidence: (i * 37 % 101) as u8,
                    evidence: format!("{}: {quote}", claim.code_refs.first().map_or(".", |r| r.path.as_str())),
                    successor: (k == 2).then(|| quote.clone()),
                    // A hostile commit id shows wherever `since` is rendered.
                    since: (k >= 2).then(|| Since { commit: quote.clone(), date: i as i64 * 86_400 }),
                },
            };
            ClaimResult { index: i as u32, claim, outcome }
        })
        .collect();
    let meta = MemoryMeta {
        id: memory.id.clone(),
        agent: memory.agent.clone(),
        tier: memory.tier,
        kind: memory.kind.clone(),
        created_at: memory.created_at,
        updated_at: memory.updated_at,
        source: memory.source.clone(),
        first_line: memory.first_line,
    };
    MemoryScore {
        memory: meta,
        score: Some((text.len() % 101) as u8),
        action: Some(Action::FlagForReview),
        results,
        skip_reason: extracted.skip_reason,
        left_out: extracted.left_out,
    }
}

#[test]
fn every_report_view_renders_hostile_text_inert() {
    let failures = memval_fuzz::run("report", memval_fuzz::case_count(10_000), Duration::from_secs(2), |text| {
        let scored = score(text);
        let header = RunHeader {
            run_id: "fuzz".into(),
            repo: text.chars().take(20).collect(),
            commit: None,
            started_at: 0,
            expected_memories: 1,
        };
        let report = memval_report::build(
            std::slice::from_ref(&scored),
            memval_report::Inputs {
                header: &header,
                finished_at: 1,
                memories_path: text.chars().take(30).collect(),
                memories_format: "notes",
                store: "store".into(),
                fail_on: memval_report::FailOn::Stale,
                fail_confidence: memval_report::FAIL_CONFIDENCE,
                problems: vec![memval_report::Problem {
                    path: text.chars().take(10).collect(),
                    reason: text.chars().skip(10).take(60).collect(),
                }],
            },
        );
        let points = vec![HistoryPoint {
            run_id: "fuzz".into(),
            started_at: 0,
            memory_id: scored.memory.id.clone(),
            source: scored.memory.source.path.clone(),
            score: scored.score,
            verdicts: vec![("STALE".into(), 50)],
        }];
        let json = memval_report::to_json(&report);
        let sarif = memval_report::to_sarif(&report, &|p| p.to_owned());
        let history_json = memval_report::history::to_json(
            &points,
            vec![serde_json::json!({"digest": text, "verdict": "PASS", "reason": text})],
        );
        let views = [
            ("json", json.clone()),
            ("table", memval_report::to_table(&report, None)),
            ("md", memval_report::to_markdown(&report)),
            ("sarif", sarif.clone()),
            ("history json", history_json.clone()),
            ("history table", memval_report::history::to_table(&points, Some(text))),
        ];
        for (name, view) in &views {
            if let Some(c) = view.chars().find(|c| is_active(*c)) {
                panic!("{name} view carries the active character {c:?}");
            }
        }
        for (name, view) in [("json", &json), ("sarif", &sarif), ("history json", &history_json)] {
            let parsed: serde_json::Value =
                serde_json::from_str(view).unwrap_or_else(|e| panic!("{name} view is not JSON: {e}"));
            if name == "json" {
                assert_eq!(
                    parsed["memories"][0]["agent"].as_str(),
                    Some(scored.memory.agent.as_str()),
                    "the agent comes back unchanged"
                );
            }
        }
    });
    memval_fuzz::assert_none(&failures);
}
