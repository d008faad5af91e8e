//! What a `judge pairs` run found, and its JSON and table views. Both views make untrusted
//! text (memory ids, agents, quotes, rationales, fallback reasons) inert for a terminal
//! before they return, and the table shows each such field through [`one_line`] so a
//! rationale with newlines cannot print a verdict of its own. Neither decides anything.

use std::collections::{BTreeMap, HashSet};

use memval_llm::UsageReport;
use memval_proto::display::{json_safe, one_line, terminal_safe};
use memval_proto::{Judgement, Pair, PairVerdict, RunHeader};
use serde_json::{json, Value};

use crate::input::Problem;
use crate::prompt::{self, PROMPT_VERSION};

/// A run of the pair judge: what was read, selected, judged and left out.
pub struct PairsResult {
    pub header: RunHeader,
    /// When the run ended.
    pub finished_at: i64,
    pub input: String,
    pub model: String,
    pub read: usize,
    pub problems: Vec<Problem>,
    pub selected: Vec<Pair>,
    pub judged: BTreeMap<(String, String), Judgement>,
    pub plan_over_cap: Vec<Pair>,
    pub plan_deferred: Vec<Pair>,
    pub duplicates: usize,
    pub pair_cap: u32,
    pub detail: Vec<String>,
    pub usage: UsageReport,
    pub text_ids: HashSet<String>,
    pub unanswered: BTreeMap<(String, String), String>,
}

impl PairsResult {
    fn id(&self, id: &str) -> Value {
        if self.text_ids.contains(id) {
            json!(id)
        } else {
            prompt::id_value(id)
        }
    }

    fn judgements(&self) -> Vec<(&Pair, &Judgement)> {
        self.selected
            .iter()
            .filter_map(|p| self.judged.get(&(p.id_a.clone(), p.id_b.clone())).map(|j| (p, j)))
            .collect()
    }

    /// Selected pairs with no judgement (their batch got no answer).
    pub fn not_judged(&self) -> Vec<&Pair> {
        self.selected.iter().filter(|p| !self.judged.contains_key(&(p.id_a.clone(), p.id_b.clone()))).collect()
    }

    /// The result as one JSON document (shape in the README).
    pub fn to_json(&self) -> Value {
        let judgements = self.judgements();
        let mut verdicts: BTreeMap<&str, usize> = PairVerdict::ALL.iter().map(|v| (v.as_str(), 0)).collect();
        for (_, j) in &judgements {
            *verdicts.entry(j.verdict.as_str()).or_default() += 1;
        }
        let fallbacks = judgements.iter().filter(|(_, j)| j.fallback.is_some()).count();
        let pair_ref =
            |p: &Pair, reason: &str| json!({"id_a": self.id(&p.id_a), "id_b": self.id(&p.id_b), "reason": reason});
        let mut not_judged: Vec<Value> = self
            .not_judged()
            .into_iter()
            .map(|p| {
                let reason = self.unanswered.get(&(p.id_a.clone(), p.id_b.clone())).map(String::as_str);
                pair_ref(p, reason.unwrap_or("the model gave no answer for its batch (see detail)"))
            })
            .collect();
        not_judged
            .extend(self.plan_deferred.iter().map(|p| pair_ref(p, "deferred: beyond --max-batches batches this run")));
        not_judged.extend(self.plan_over_cap.iter().map(|p| pair_ref(p, "over the pair cap")));
        json!({
            "run": {
                "id": self.header.run_id,
                "input": self.input,
                "started_at": memval_proto::rfc3339(self.header.started_at),
                "finished_at": memval_proto::rfc3339(self.finished_at),
                "model": self.model,
                "prompt_version": PROMPT_VERSION,
                "pairs_read": self.read,
                "pairs_skipped": self.problems.len(),
                "duplicates": self.duplicates,
                "pair_cap": self.pair_cap,
                "pairs_selected": self.selected.len(),
                "pairs_judged": judgements.len(),
                "pairs_deferred": self.plan_deferred.len(),
                "pairs_over_cap": self.plan_over_cap.len(),
                "fallbacks": fallbacks,
                "verdicts": verdicts,
            },
            "judgements": judgements.iter().map(|(p, j)| json!({
                "id_a": self.id(&j.id_a),
                "agent_a": p.agent_a,
                "id_b": self.id(&j.id_b),
                "agent_b": p.agent_b,
                "verdict": j.verdict.as_str(),
                "claim_a": j.claim_a,
                "claim_b": j.claim_b,
                "confidence": j.confidence,
                "rationale": j.rationale,
                "fallback": j.fallback,
                "score": p.score,
                "method": p.method,
            })).collect::<Vec<_>>(),
            "not_judged": not_judged,
            "detail": self.detail,
            "problems": self.problems.iter().map(|p| json!({"line": p.line, "reason": p.reason})).collect::<Vec<_>>(),
            "llm": self.usage,
        })
    }

    /// [`Self::to_json`] as the pretty document `judge pairs` prints, one trailing newline.
    pub fn json_text(&self) -> String {
        // A `Value` of strings, numbers and lists always serialises.
        json_safe(&format!("{}\n", serde_json::to_string_pretty(&self.to_json()).unwrap_or_default()))
    }

    /// One line per judgement, then what was not judged and why.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let judgements = self.judgements();
        let total = &self.usage.total;
        let cost = total.cost_usd.map(|c| format!(", ~${c:.4}")).unwrap_or_default();
        out.push_str(&format!(
            "judged {} of {} pairs with {} ({} calls, {} in / {} out tokens{cost})\n",
            judgements.len(),
            self.read,
            one_line(&self.model),
            total.calls,
            total.input_tokens,
            total.output_tokens
        ));
        for (p, j) in &judgements {
            out.push_str(&format!(
                "{:<13} {:>3}  {} ({}) <> {} ({})\n",
                j.verdict.as_str(),
                j.confidence,
                one_line(&p.id_a),
                one_line(&p.agent_a),
                one_line(&p.id_b),
                one_line(&p.agent_b)
            ));
            if j.verdict == PairVerdict::Contradictory {
                out.push_str(&format!("    a: {:?}\n    b: {:?}\n", j.claim_a, j.claim_b));
            }
            if !j.rationale.is_empty() {
                out.push_str(&format!("    {}\n", one_line(&j.rationale)));
            }
            if let Some(reason) = &j.fallback {
                out.push_str(&format!("    fallback: {}\n", one_line(reason)));
            }
        }
        for p in self.not_judged() {
            out.push_str(&format!(
                "not judged     {} <> {}: the model gave no answer for its batch\n",
                one_line(&p.id_a),
                one_line(&p.id_b)
            ));
        }
        if !self.plan_deferred.is_empty() {
            out.push_str(&format!("{} pairs deferred (beyond --max-batches)\n", self.plan_deferred.len()));
        }
        if !self.plan_over_cap.is_empty() {
            out.push_str(&format!("{} pairs over the pair cap of {}\n", self.plan_over_cap.len(), self.pair_cap));
        }
        for line in &self.detail {
            out.push_str(&format!("detail: {}\n", one_line(line)));
        }
        terminal_safe(&out)
    }
}
