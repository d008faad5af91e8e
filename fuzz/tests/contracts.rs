//! The model-output contract checks of every stage (model extraction, the Tier B
//! investigator, the pair judge) on generated hostile answers: never a panic, and never a
//! verdict that cites a place outside the repo.

use std::time::Duration;

use memval_proto::{Claim, ClaimType, CodeRef, Memory, Outcome, Pair, Source, Verdict};

fn memory(id: &str) -> Memory {
    Memory {
        id: id.into(),
        agent: "a".into(),
        content: "The parser is in `src/main.rs`.".into(),
        tier: 1,
        kind: "memory".into(),
        created_at: None,
        updated_at: None,
        source: Source { path: "m.jsonl".into(), line: Some(1), row: None, format: "jsonl".into() },
        context_dir: None,
        first_line: 1,
    }
}

#[test]
fn contracts_never_panic_and_never_cite_outside_the_repo() {
    // A repo with one file, and a secret beside it (outside the repo root).
    let outer = tempfile::tempdir().unwrap();
    std::fs::write(outer.path().join("secret.txt"), "TOP-SECRET-PLANTED-7d1f\n").unwrap();
    let repo = outer.path().join("repo");
    std::fs::create_dir_all(repo.join("src")).unwrap();
    std::fs::write(repo.join("src/main.rs"), "fn main() {}\n").unwrap();
    let index = memval_investigator::RepoIndex::build(&repo).unwrap();
    let memories = [memory("m1"), memory("m2")];
    let refs: Vec<&Memory> = memories.iter().collect();
    let claims: Vec<(String, Claim)> = ["c1", "c2"]
        .iter()
        .map(|id| {
            (
                id.to_string(),
                Claim {
                    claim_type: ClaimType::Behavioral,
                    claim_text: "main has a loop".into(),
                    line: 1,
                    lines: vec![1],
                    code_refs: vec![CodeRef::path("src/main.rs")],
                    assertion: None,
                },
            )
        })
        .collect();
    let pairs = vec![Pair {
        id_a: "1".into(),
        agent_a: "a".into(),
        content_a: "Use tabs.".into(),
        id_b: "2".into(),
        agent_b: "b".into(),
        content_b: "Never use tabs.".into(),
        score: 0.5,
        method: "keyword".into(),
    }];
    let seed = memval_fuzz::base_seed();
    let count = memval_fuzz::case_count(10_000);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    // How many answers got past the contracts (so the harness is known to reach them).
    let (mut kept_verdicts, mut kept_claims, mut kept_judgements) = (0usize, 0usize, 0usize);
    for i in 0..count {
        let answer = memval_fuzz::answer(seed, i);
        let started = std::time::Instant::now();
        let outcome = memval_runtime::panics::catch(|| {
            let extracted = memval_extractor::model::contract::enforce("b", &refs, &answer);
            let tier_b = memval_investigator::model::contract::enforce(&index, "b", &claims, &answer);
            let judged = memval_judge::contract::enforce("b", &pairs, &answer);
            (extracted, tier_b, judged)
        });
        match outcome {
            Err(panic) => failures.push(format!(
                "case {i}: panicked: {panic}; answer {:?}",
                answer.chars().take(200).collect::<String>()
            )),
            Ok((extracted, tier_b, judged)) => {
                kept_claims += extracted.map_or(0, |e| e.kept);
                kept_verdicts += tier_b
                    .outcomes
                    .iter()
                    .filter(|o| matches!(o, Outcome::Checked { confidence, .. } if *confidence > 0))
                    .count();
                kept_judgements += judged.judgements.iter().filter(|j| j.confidence > 0).count();
                for o in &tier_b.outcomes {
                    if let Outcome::Checked { verdict, evidence, .. } = o {
                        let outside =
                            evidence.contains("secret") || evidence.contains("/etc/") || evidence.contains("..");
                        if *verdict != Verdict::Ambiguous && outside {
                            failures
                                .push(format!("case {i}: a {verdict:?} verdict cites outside the repo: {evidence}"));
                        }
                        if evidence.contains("TOP-SECRET") {
                            failures.push(format!("case {i}: the planted secret reached the output"));
                        }
                    }
                }
                let shown = format!("{:?}", judged.judgements);
                if shown.contains("TOP-SECRET") {
                    failures.push(format!("case {i}: the planted secret reached a judgement"));
                }
            }
        }
        if started.elapsed() > Duration::from_secs(2) {
            failures.push(format!("case {i}: took {:?}", started.elapsed()));
        }
    }
    std::panic::set_hook(hook);
    println!("kept: {kept_claims} model claims, {kept_verdicts} Tier B verdicts, {kept_judgements} judgements");
    if count >= 1000 {
        assert!(
            kept_claims > 0 && kept_verdicts > 0 && kept_judgements > 0,
            "the generator never got past a contract: {kept_claims} {kept_verdicts} {kept_judgements}"
        );
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(10)].join("\n"));
}
