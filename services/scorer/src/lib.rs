//! The scorer stage: collects verdicts per memory, applies the docs/contracts.md §3 formula once every
//! claim of a memory has its outcome, and persists verdicts and scores in a sled store.
//!
//! Scoring is idempotent: a verdict delivered twice is stored once, keyed by run, memory
//! and claim index, so a redelivered batch cannot change a score. This crate must never
//! edit or delete a memory; it only records what was found.
//!
//! A memory whose every claim arrives in one batch item (what the investigator sends) is scored
//! at once: the batch's new scores and history points go to the store in one write per table, and
//! a memory of the run that already has a score keeps it. A memory whose claims are split over
//! several batches has each claim result stored under `(run, memory, claim index)` with
//! compare-and-swap, and is scored once it has `total_claims` results. A memory with no checked
//! claim has no score (reported as "not scored"). A scorer service flushes the store before it
//! acks each batch; the in-process run flushes once when the run completes (a sled flush is an
//! fsync, and nothing is acked to a broker). The stage is in `stage.rs`, the formula
//! (docs/contracts.md §3) in `formula.rs`.

pub mod formula;
mod stage;

use std::sync::Arc;

use memval_proto::{CheckedMemory, ClaimResult, MemoryMeta, MemoryScore, RunHeader, ScoreBatch, VerdictBatch};

pub use memval_store::{HistoryPoint, KvTable, RunRecord, ScoreStore, SledStore, StoreError};

pub struct ScorerStage {
    store: Arc<dyn ScoreStore>,
    flush_every_batch: bool,
}

impl ScorerStage {
    /// A scorer that flushes the store before each batch is acked: what a service needs,
    /// since an acked batch is never delivered again.
    pub fn new(store: Arc<dyn ScoreStore>) -> Self {
        ScorerStage { store, flush_every_batch: true }
    }

    /// A scorer for a run inside one process: nothing is acked to a broker, so the caller
    /// flushes once when the run completes instead of once per batch (a sled flush is an
    /// fsync).
    pub fn in_process(store: Arc<dyn ScoreStore>) -> Self {
        ScorerStage { store, flush_every_batch: false }
    }

    /// Record a batch and score every memory whose claims are now all in, then flush.
    /// Blocking I/O.
    pub fn record(store: &dyn ScoreStore, batch: VerdictBatch) -> Result<ScoreBatch, StoreError> {
        let scored = ScorerStage::record_unflushed(store, batch)?;
        store.flush()?;
        Ok(scored)
    }

    fn record_unflushed(store: &dyn ScoreStore, batch: VerdictBatch) -> Result<ScoreBatch, StoreError> {
        let run = &batch.run;
        // Memories whose every claim is in this batch (what the investigator sends) are
        // scored straight away and stored with one write per table; the others collect
        // their claims in the store, one compare-and-swap per claim, until they are complete.
        let mut scored: Vec<Option<MemoryScore>> = Vec::with_capacity(batch.items.len());
        let (mut complete, mut complete_at) = (Vec::new(), Vec::new());
        for item in batch.items {
            if is_complete(&item) {
                complete_at.push(scored.len());
                scored.push(None);
                let mut results = item.results;
                results.sort_by_key(|r| r.index);
                complete.push(score_memory(run, item.memory, results, item.skip_reason, item.left_out));
                continue;
            }
            for result in &item.results {
                store.put_claim(&run.run_id, &item.memory.id, result)?;
            }
            let results = store.claims(&run.run_id, &item.memory.id)?;
            if results.len() < item.total_claims as usize {
                // More results for this memory are on their way in another batch.
                continue;
            }
            let memory_score = score_memory(run, item.memory, results, item.skip_reason, item.left_out);
            store.put_score(run, &memory_score)?;
            scored.push(Some(memory_score));
        }
        if !complete.is_empty() {
            for (at, score) in complete_at.into_iter().zip(store.put_scores_once(run, complete)?) {
                scored[at] = Some(score);
            }
        }
        let items = scored.into_iter().flatten().collect();
        Ok(ScoreBatch { batch_id: format!("{}.s", batch.batch_id), run: batch.run, items })
    }
}

/// Every claim of the memory is in `item`, each once.
fn is_complete(item: &CheckedMemory) -> bool {
    let total = item.total_claims as usize;
    if item.results.len() != total {
        return false;
    }
    let mut seen = vec![false; total];
    item.results.iter().all(|r| match seen.get_mut(r.index as usize) {
        Some(slot) if !*slot => {
            *slot = true;
            true
        }
        _ => false,
    })
}

fn score_memory(
    run: &RunHeader,
    memory: MemoryMeta,
    results: Vec<ClaimResult>,
    skip_reason: Option<String>,
    left_out: Vec<memval_proto::LeftOut>,
) -> MemoryScore {
    let age = formula::age_days(memory.asserted_at(), run.started_at);
    let (score, action) = formula::score_results(&results, memory.tier, age);
    MemoryScore { memory, score, action, results, skip_reason, left_out }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memval_proto::*;

    fn batch(results: Vec<(u32, Verdict)>, total: u32) -> VerdictBatch {
        let meta = MemoryMeta {
            id: "m1".into(),
            agent: "a".into(),
            tier: 0,
            kind: "memory".into(),
            created_at: None,
            updated_at: None,
            source: Source { path: "m.jsonl".into(), line: Some(1), row: None, format: "jsonl".into() },
            first_line: 1,
        };
        let claim = Claim {
            claim_type: ClaimType::FileReference,
            claim_text: "x".into(),
            line: 1,
            lines: Vec::new(),
            code_refs: vec![CodeRef::path("x")],
            assertion: None,
        };
        VerdictBatch {
            run: RunHeader { run_id: "r".into(), repo: ".".into(), commit: None, started_at: 0, expected_memories: 1 },
            batch_id: "b".into(),
            items: vec![CheckedMemory {
                memory: meta,
                total_claims: total,
                results: results
                    .into_iter()
                    .map(|(index, verdict)| ClaimResult {
                        index,
                        claim: claim.clone(),
                        outcome: Outcome::Checked {
                            verdict,
                            confidence: 100,
                            evidence: "x:1".into(),
                            successor: None,
                            since: None,
                        },
                    })
                    .collect(),
                skip_reason: None,
                left_out: Vec::new(),
            }],
        }
    }

    #[test]
    fn a_memory_is_scored_once_all_claims_are_in_and_redelivery_counts_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = SledStore::open(dir.path()).unwrap();
        // Claim 0 of 2 arrives: not scored yet.
        assert!(ScorerStage::record(&store, batch(vec![(0, Verdict::Contradicted)], 2)).unwrap().items.is_empty());
        // The same claim again (a redelivery) must not complete the memory.
        assert!(ScorerStage::record(&store, batch(vec![(0, Verdict::Contradicted)], 2)).unwrap().items.is_empty());
        let done = ScorerStage::record(&store, batch(vec![(1, Verdict::Valid)], 2)).unwrap();
        assert_eq!(done.items.len(), 1);
        assert_eq!(done.items[0].score, Some(20));
        assert_eq!(store.claims("r", "m1").unwrap().len(), 2);
        // Redelivering the last batch yields the identical score.
        let again = ScorerStage::record(&store, batch(vec![(1, Verdict::Valid)], 2)).unwrap();
        assert_eq!(again.items[0].score, Some(20));
        assert_eq!(store.history("").unwrap().len(), 1);
    }

    #[test]
    fn a_memory_complete_in_one_batch_is_scored_at_once_and_its_first_score_stands() {
        let dir = tempfile::tempdir().unwrap();
        let store = SledStore::open(dir.path()).unwrap();
        let first =
            ScorerStage::record(&store, batch(vec![(1, Verdict::Valid), (0, Verdict::Contradicted)], 2)).unwrap();
        assert_eq!(first.items.len(), 1);
        assert_eq!(first.items[0].score, Some(20));
        let indices: Vec<u32> = first.items[0].results.iter().map(|r| r.index).collect();
        assert_eq!(indices, vec![0, 1], "results are stored in claim order");
        // A redelivery with other content (it cannot differ in practice) does not rescore.
        let again = ScorerStage::record(&store, batch(vec![(0, Verdict::Valid), (1, Verdict::Valid)], 2)).unwrap();
        assert_eq!(again.items, first.items);
        assert_eq!(store.scores("r").unwrap(), first.items);
        assert_eq!(store.history("").unwrap().len(), 1);
        // The same memory twice in one batch is scored once.
        let mut twice = batch(vec![(0, Verdict::Valid), (1, Verdict::Valid)], 2);
        twice.run.run_id = "r2".into();
        twice.items.push(twice.items[0].clone());
        let out = ScorerStage::record(&store, twice).unwrap();
        assert_eq!(out.items.len(), 2);
        assert_eq!(out.items[0], out.items[1]);
        assert_eq!(store.scores("r2").unwrap().len(), 1);
        // Duplicate claim indices are not a complete memory.
        let mut dup = batch(vec![(0, Verdict::Valid), (0, Verdict::Valid)], 2);
        dup.run.run_id = "r3".into();
        assert!(ScorerStage::record(&store, dup).unwrap().items.is_empty());
        assert_eq!(store.claims("r3", "m1").unwrap().len(), 1);
    }

    #[test]
    fn a_verdict_is_kept_once_under_its_content_address_and_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = SledStore::open(dir.path()).unwrap();
            let table = store.verdicts().unwrap();
            assert!(table.put_new(b"digest-b", b"second").unwrap());
            assert!(table.put_new(b"digest-a", b"first").unwrap());
            // The same address again keeps the first record.
            assert!(!table.put_new(b"digest-a", b"other").unwrap());
        }
        let store = SledStore::open(dir.path()).unwrap();
        let entries = store.verdicts().unwrap().entries().unwrap();
        assert_eq!(
            entries,
            vec![(b"digest-a".to_vec(), b"first".to_vec()), (b"digest-b".to_vec(), b"second".to_vec())]
        );
        assert!(store.history("").unwrap().is_empty(), "verdicts are not memory history");
    }
}
