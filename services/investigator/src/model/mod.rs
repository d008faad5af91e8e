//! Tier B: the claims Tier A could not prove go to an LLM investigator, an agent loop over
//! the provider's tool-calling API with three read-only, repo-confined tools
//! ([`tools`]).
//!
//! Per batch of at most `claims_per_batch` claims (15) the model gets at most `tool_budget`
//! tool calls (25); a run sends at most `batches_per_run` batches (5), and the claims of the
//! memories that do not fit are deferred (reported not checked, with the reason). The answer
//! is checked by [`contract`], never trusted: a claim without a valid verdict, or whose
//! evidence does not hold up against the repo, is AMBIGUOUS with confidence 0.
//!
//! With a model configured (`InvestigatorStage::with_tier_b`), the claims Tier A leaves
//! `not_checked`, and whose paths all stay inside the repo, go to the loop after Tier A has run:
//! whole memories per call where they fit, the per-run limit counted per run id. The tools
//! ([`tools`]): `read_file` (at most 200 numbered lines), `grep` (a Rust regex with size limits,
//! at most 60 matches), `glob` (at most 200 paths); every answer is capped at 12 KiB and file
//! text is labelled untrusted data. Calls beyond the tool budget are answered with an error
//! telling the model to answer now; a model still asking for tools two turns later gets
//! AMBIGUOUS 0 for every claim of the batch. A call that gets no answer (after the client's
//! retries) leaves the batch's claims `not_checked` with the error: it is never a verdict. The
//! prompt is in `prompt.rs`, the answer's contract in `contract.rs`; what is kept of an answer
//! and how results are cached is described in `docs/llm.md`.
//!
//! The tools resolve every path through `confine`, and `grep`/`glob` see only the run's index,
//! which never follows a symlink: nothing outside the repo root reaches the model.
//! `tests/tier_b.rs` tries `/etc/passwd`, `../`, `a/../../`, an escaping symlink and escaping
//! globs, and checks that no request body carries the outside file.

pub mod contract;
pub mod prompt;
pub mod tools;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use memval_llm::{cache_key, ChatModel, ChatRequest, LlmError, Message, ResultCache, ToolResult};
use memval_proto::{Claim, Outcome, VerdictBatch};
use serde::Serialize;

use crate::confine::RepoRoot;
use crate::evidence::Evidence;

/// Name the investigator's model usage is counted under.
pub const STAGE: &str = "investigator";
/// Most notes kept per run for the report.
const MAX_NOTES: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierBConfig {
    pub claims_per_batch: usize,
    pub batches_per_run: usize,
    pub tool_budget: usize,
}

impl Default for TierBConfig {
    /// docs/contracts.md §3, §4: 15 claims per call, 5 calls per run, 25 tool calls per batch.
    fn default() -> Self {
        TierBConfig { claims_per_batch: 15, batches_per_run: 5, tool_budget: 25 }
    }
}

/// What Tier B did in a run, for the report.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TierBStats {
    pub batches: usize,
    pub claims_sent: usize,
    /// Claims that kept the model's verdict.
    pub verdicts_kept: usize,
    /// Claims whose entry broke the output contract (missing, extra, enum, range, no citation).
    pub contract_violations: usize,
    /// Claims whose evidence cited a place that does not exist, or quoted text not there.
    pub evidence_downgrades: usize,
    pub tool_calls: usize,
    /// Tool calls that tried to leave the repo root.
    pub tool_refusals: usize,
    pub tool_errors: usize,
    /// Batches the model never answered (the claims stay not checked).
    pub failed_batches: usize,
    pub deferred_memories: usize,
    pub deferred_claims: usize,
    /// Claims answered from the result cache (their files unchanged): no call.
    pub cache_hits: usize,
    pub notes: Vec<String>,
}

impl TierBStats {
    fn note(&mut self, note: String) {
        if self.notes.len() < MAX_NOTES {
            self.notes.push(note);
        }
    }

    fn absorb(&mut self, other: TierBStats) {
        self.batches += other.batches;
        self.claims_sent += other.claims_sent;
        self.verdicts_kept += other.verdicts_kept;
        self.contract_violations += other.contract_violations;
        self.evidence_downgrades += other.evidence_downgrades;
        self.tool_calls += other.tool_calls;
        self.tool_refusals += other.tool_refusals;
        self.tool_errors += other.tool_errors;
        self.failed_batches += other.failed_batches;
        self.deferred_memories += other.deferred_memories;
        self.deferred_claims += other.deferred_claims;
        self.cache_hits += other.cache_hits;
        for n in other.notes {
            self.note(n);
        }
    }
}

#[derive(Default)]
struct RunState {
    batches_used: usize,
    stats: TierBStats,
}

/// The LLM investigator. Shared by every batch of every run of an investigator stage.
pub struct TierB {
    model: Arc<dyn ChatModel>,
    config: TierBConfig,
    runs: Mutex<HashMap<String, RunState>>,
    cache: std::sync::OnceLock<Arc<dyn ResultCache>>,
}

/// A cached verdict and the files it was made from, by git blob id.
#[derive(Serialize, serde::Deserialize)]
struct Cached {
    outcome: Outcome,
    deps: Vec<(String, String)>,
}

/// Where a claim sits in a verdict batch: (memory index, result index).
type Slot = (usize, usize);

impl TierB {
    pub fn new(model: Arc<dyn ChatModel>, config: TierBConfig) -> TierB {
        let config = TierBConfig {
            claims_per_batch: config.claims_per_batch.max(1),
            batches_per_run: config.batches_per_run,
            tool_budget: config.tool_budget,
        };
        TierB { model, config, runs: Mutex::new(HashMap::new()), cache: std::sync::OnceLock::new() }
    }

    /// Keep verdicts in `cache`, and answer a claim from it while the files the verdict was
    /// made from are unchanged. Set once.
    pub fn set_cache(&self, cache: Arc<dyn ResultCache>) {
        let _ = self.cache.set(cache);
    }

    fn cache_key(&self, claim: &Claim) -> String {
        let input = serde_json::to_string(&(claim.claim_type, &claim.claim_text, &claim.code_refs)).unwrap_or_default();
        cache_key(&[STAGE, prompt::PROMPT_VERSION, &self.model.name(), &self.config.tool_budget.to_string(), &input])
    }

    pub fn model(&self) -> &Arc<dyn ChatModel> {
        &self.model
    }

    /// What Tier B did for `run_id` so far (and forget it).
    pub fn take_stats(&self, run_id: &str) -> TierBStats {
        self.runs.lock().unwrap_or_else(|e| e.into_inner()).remove(run_id).map(|r| r.stats).unwrap_or_default()
    }

    fn with_run<T>(&self, run_id: &str, f: impl FnOnce(&mut RunState) -> T) -> T {
        let mut runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
        f(runs.entry(run_id.to_owned()).or_default())
    }

    /// Give the claims Tier A left not checked (and may be checked: no path refused) to the
    /// model, and put its checked verdicts in their place.
    pub async fn refine(&self, evidence: Arc<Evidence>, mut batch: VerdictBatch) -> VerdictBatch {
        let run_id = batch.run.run_id.clone();
        let mut per_memory: Vec<Vec<Slot>> = Vec::new();
        for (mi, item) in batch.items.iter().enumerate() {
            let slots: Vec<Slot> = item
                .results
                .iter()
                .enumerate()
                .filter(|(_, r)| matches!(r.outcome, Outcome::NotChecked { .. }) && eligible(&evidence, &r.claim))
                .map(|(ri, _)| (mi, ri))
                .collect();
            if !slots.is_empty() {
                per_memory.push(slots);
            }
        }
        let mut hits = 0usize;
        if let Some(cache) = self.cache.get().cloned() {
            let keyed: Vec<(Slot, String)> = per_memory
                .iter()
                .flatten()
                .map(|&(mi, ri)| ((mi, ri), self.cache_key(&batch.items[mi].results[ri].claim)))
                .collect();
            let holder = evidence.clone();
            let found: Vec<(Slot, Outcome)> = tokio::task::spawn_blocking(move || {
                keyed
                    .into_iter()
                    .filter_map(|(slot, key)| {
                        let cached: Cached = serde_json::from_slice(&cache.get(&key)?).ok()?;
                        let fresh = cached.deps.iter().all(|(path, blob)| blob_id(&holder.index, path) == *blob);
                        fresh.then_some((slot, cached.outcome))
                    })
                    .collect()
            })
            .await
            .unwrap_or_default();
            for ((mi, ri), outcome) in found {
                batch.items[mi].results[ri].outcome = outcome;
                hits += 1;
            }
            for slots in &mut per_memory {
                slots.retain(|&(mi, ri)| matches!(batch.items[mi].results[ri].outcome, Outcome::NotChecked { .. }));
            }
            per_memory.retain(|s| !s.is_empty());
        }
        if hits > 0 {
            self.with_run(&run_id, |run| run.stats.cache_hits += hits);
        }
        if per_memory.is_empty() {
            return batch;
        }
        // Whole memories per model call where they fit, so a deferred memory is deferred whole.
        let mut chunks: Vec<Vec<Slot>> = Vec::new();
        let mut current: Vec<Slot> = Vec::new();
        for slots in per_memory {
            for part in slots.chunks(self.config.claims_per_batch) {
                if current.len() + part.len() > self.config.claims_per_batch {
                    chunks.push(std::mem::take(&mut current));
                }
                current.extend_from_slice(part);
            }
        }
        if !current.is_empty() {
            chunks.push(current);
        }
        let mut granted = Vec::new();
        let mut deferred = TierBStats::default();
        for chunk in chunks {
            let ok = self.with_run(&run_id, |run| {
                let ok = run.batches_used < self.config.batches_per_run;
                run.batches_used += usize::from(ok);
                ok
            });
            if ok {
                granted.push(chunk);
                continue;
            }
            let mut memories: Vec<usize> = chunk.iter().map(|(mi, _)| *mi).collect();
            memories.dedup();
            deferred.deferred_memories += memories.len();
            deferred.deferred_claims += chunk.len();
            for (mi, ri) in chunk {
                batch.items[mi].results[ri].outcome = Outcome::NotChecked {
                    reason: format!(
                        "deferred to the next run: this run's LLM investigator budget ({} batches of {} claims) is used up",
                        self.config.batches_per_run, self.config.claims_per_batch
                    ),
                };
            }
        }
        if deferred.deferred_claims > 0 {
            deferred.note(format!(
                "{} claims of {} memories deferred: the run's Tier B budget of {} batches is used up",
                deferred.deferred_claims, deferred.deferred_memories, self.config.batches_per_run
            ));
        }
        let calls = granted.iter().enumerate().map(|(n, chunk)| {
            let claims: Vec<(String, Claim)> = chunk
                .iter()
                .enumerate()
                .map(|(i, &(mi, ri))| (format!("c{}", i + 1), batch.items[mi].results[ri].claim.clone()))
                .collect();
            let id = format!("{}#t{n}", batch.batch_id);
            let evidence = evidence.clone();
            async move { self.investigate(evidence, &id, claims).await }
        });
        let results = futures::future::join_all(calls).await;
        let mut stats = deferred;
        let mut to_cache: Vec<(String, Outcome, Vec<String>)> = Vec::new();
        for (chunk, (outcomes, batch_stats, read)) in granted.iter().zip(results) {
            stats.absorb(batch_stats);
            for (&(mi, ri), outcome) in chunk.iter().zip(outcomes) {
                let claim = &batch.items[mi].results[ri].claim;
                if self.cache.get().is_some() && matches!(outcome, Outcome::Checked { .. }) {
                    let mut deps: Vec<String> =
                        claim.code_refs.iter().filter_map(|r| RepoRoot::normalise(&r.path).ok()).collect();
                    deps.extend(read.iter().cloned());
                    deps.sort();
                    deps.dedup();
                    to_cache.push((self.cache_key(claim), outcome.clone(), deps));
                }
                batch.items[mi].results[ri].outcome = outcome;
            }
        }
        if let (Some(cache), false) = (self.cache.get().cloned(), to_cache.is_empty()) {
            // Paid for: kept at once, so a crash later in the run does not lose it.
            let holder = evidence.clone();
            let _ = tokio::task::spawn_blocking(move || {
                for (key, outcome, paths) in to_cache {
                    let deps = paths.into_iter().map(|p| {
                        let blob = blob_id(&holder.index, &p);
                        (p, blob)
                    });
                    if let Ok(bytes) = serde_json::to_vec(&Cached { outcome, deps: deps.collect() }) {
                        cache.put(&key, &bytes);
                    }
                }
            })
            .await;
        }
        self.with_run(&run_id, |run| run.stats.absorb(stats));
        batch
    }

    /// One agent loop over `claims`: tool calls until the model answers (or its budget is
    /// spent), then the answer checked against the contract and the repo.
    /// Returns the outcomes, what happened, and the files the model read (what its verdicts
    /// depend on, for the cache).
    pub async fn investigate(
        &self,
        evidence: Arc<Evidence>,
        batch_id: &str,
        claims: Vec<(String, Claim)>,
    ) -> (Vec<Outcome>, TierBStats, Vec<String>) {
        let mut read: Vec<String> = Vec::new();
        let mut stats = TierBStats { batches: 1, claims_sent: claims.len(), ..TierBStats::default() };
        let budget = self.config.tool_budget;
        let mut request: ChatRequest = prompt::request(&claims, budget);
        let mut used = 0usize;
        // Turns after the budget is spent in which the model still asks for tools.
        let mut overdrawn = 0;
        let answer = loop {
            let response = match self.model.chat(STAGE, &request).await {
                Ok(r) => r,
                Err(e @ LlmError::Budget(_)) => {
                    stats.deferred_claims += claims.len();
                    stats.note(format!("batch {batch_id}: {e}; {} claims deferred to the next run", claims.len()));
                    let reason = format!("deferred to the next run: {e}");
                    return (
                        claims.iter().map(|_| Outcome::NotChecked { reason: reason.clone() }).collect(),
                        stats,
                        read,
                    );
                }
                Err(e) => {
                    stats.failed_batches += 1;
                    stats.note(format!(
                        "batch {batch_id}: the model gave no answer: {e}; {} claims not checked",
                        claims.len()
                    ));
                    let reason = format!("llm investigator failed: {e}");
                    return (
                        claims.iter().map(|_| Outcome::NotChecked { reason: reason.clone() }).collect(),
                        stats,
                        read,
                    );
                }
            };
            if response.tool_calls.is_empty() {
                break Some(response.text);
            }
            if used >= budget {
                overdrawn += 1;
                if overdrawn > 2 {
                    break None;
                }
            }
            let calls = response.tool_calls.clone();
            let grant = budget.saturating_sub(used).min(calls.len());
            used += grant;
            let index_holder = evidence.clone();
            let (run, refused): (Vec<crate::model::tools::ToolOutput>, Vec<ToolResult>) = {
                let to_run = calls[..grant].to_vec();
                let outputs = tokio::task::spawn_blocking(move || {
                    to_run.iter().map(|c| crate::model::tools::call(&index_holder.index, c)).collect::<Vec<_>>()
                })
                .await
                .unwrap_or_default();
                let refused = calls[grant..]
                    .iter()
                    .map(|c| ToolResult {
                        call_id: c.id.clone(),
                        content: format!(
                            "error: the budget of {budget} tool calls is used up; reply now with your verdicts as JSON"
                        ),
                        is_error: true,
                    })
                    .collect();
                (outputs, refused)
            };
            stats.tool_calls += grant;
            let mut results = Vec::with_capacity(calls.len());
            for (call, output) in calls.iter().zip(run.iter()) {
                if output.refused {
                    stats.tool_refusals += 1;
                    stats.note(format!(
                        "batch {batch_id}: refused {}({}): {}",
                        call.name, call.arguments, output.content
                    ));
                } else if output.is_error {
                    stats.tool_errors += 1;
                } else if call.name == "read_file" {
                    if let Some(path) =
                        call.arguments.get("path").and_then(|p| p.as_str()).and_then(|p| RepoRoot::normalise(p).ok())
                    {
                        read.push(path);
                    }
                }
                results.push(ToolResult {
                    call_id: call.id.clone(),
                    content: output.content.clone(),
                    is_error: output.is_error,
                });
            }
            results.extend(refused);
            if used >= budget && grant == calls.len() {
                if let Some(last) = results.last_mut() {
                    last.content.push_str(&format!(
                        "\n[that was the last of your {budget} tool calls; reply now with your verdicts as JSON]"
                    ));
                }
            }
            request.messages.push(Message::Assistant { text: response.text, tool_calls: calls });
            request.messages.push(Message::ToolResults(results));
        };
        let enforced = match answer {
            None => contract::all_ambiguous(
                batch_id,
                &claims,
                &format!("the model kept calling tools after its budget of {budget} was spent and gave no verdicts"),
            ),
            Some(text) => {
                let holder = evidence.clone();
                let id = batch_id.to_owned();
                let claims_for_check = claims.clone();
                tokio::task::spawn_blocking(move || contract::enforce(&holder.index, &id, &claims_for_check, &text))
                    .await
                    .unwrap_or_else(|e| {
                        contract::all_ambiguous(batch_id, &claims, &format!("checking the answer panicked: {e}"))
                    })
            }
        };
        stats.contract_violations += enforced.violations;
        stats.evidence_downgrades += enforced.downgrades;
        stats.verdicts_kept += claims.len() - enforced.violations - enforced.downgrades;
        for n in enforced.notes {
            stats.note(n);
        }
        (enforced.outcomes, stats, read)
    }
}

/// A claim the model may look at: every path it names stays inside the repo. A claim Tier A
/// refused for naming a path outside stays refused.
fn eligible(evidence: &Evidence, claim: &Claim) -> bool {
    let paths: Vec<&str> = claim.code_refs.iter().map(|r| r.path.trim()).filter(|p| !p.is_empty()).collect();
    !paths.is_empty()
        && paths.iter().all(|p| RepoRoot::normalise(p).is_ok_and(|n| evidence.index.root.resolve_existing(&n).is_ok()))
}

/// The git blob id (`git hash-object`) of a repo file's current content; `-` when it is not
/// a readable file inside the repo. What a cached verdict's freshness is checked against.
pub fn blob_id(index: &crate::index::RepoIndex, path: &str) -> String {
    use sha1::{Digest, Sha1};
    let Ok(Some(real)) = index.root.resolve_existing(path) else { return "-".into() };
    let Ok(bytes) = std::fs::read(real) else { return "-".into() };
    let mut h = Sha1::new();
    h.update(format!("blob {}\0", bytes.len()).as_bytes());
    h.update(&bytes);
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
