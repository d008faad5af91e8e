//! What a run spent: calls, tokens and estimated cost, per stage.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::TokenUsage;

/// USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Price {
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
}

/// List prices (USD per million tokens, input/output) of common hosted models, matched by
/// the longest prefix of the model name. An estimate: override with the price flags when
/// your contract differs. Local models are not priced.
const PRICES: &[(&str, f64, f64)] = &[
    ("gpt-4o-mini", 0.15, 0.60),
    ("gpt-4o", 2.50, 10.00),
    ("gpt-4.1-nano", 0.10, 0.40),
    ("gpt-4.1-mini", 0.40, 1.60),
    ("gpt-4.1", 2.00, 8.00),
    ("o3-mini", 1.10, 4.40),
    ("o4-mini", 1.10, 4.40),
    ("claude-3-haiku", 0.25, 1.25),
    ("claude-3-5-haiku", 0.80, 4.00),
    ("claude-haiku-4", 1.00, 5.00),
    ("claude-3-5-sonnet", 3.00, 15.00),
    ("claude-3-7-sonnet", 3.00, 15.00),
    ("claude-sonnet-4", 3.00, 15.00),
    ("claude-opus-4", 15.00, 75.00),
];

/// The list price of `model`, if it is a known hosted model.
pub fn price_for(model: &str) -> Option<Price> {
    let name = model.rsplit('/').next().unwrap_or(model).to_ascii_lowercase();
    PRICES
        .iter()
        .filter(|(prefix, _, _)| name.starts_with(prefix))
        .max_by_key(|(prefix, _, _)| prefix.len())
        .map(|&(_, i, o)| Price { input_per_mtok: i, output_per_mtok: o })
}

/// Spending of one stage.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StageUsage {
    /// Calls the model answered (what is billed).
    pub calls: u64,
    /// Attempts that got no usable answer (429, 5xx, timeouts, unreachable, malformed).
    pub failed_attempts: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Estimated USD; `None` when the model has no known price.
    pub cost_usd: Option<f64>,
}

impl StageUsage {
    fn add(&mut self, other: &StageUsage) {
        self.calls += other.calls;
        self.failed_attempts += other.failed_attempts;
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cost_usd = match (self.cost_usd, other.cost_usd) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
    }
}

/// Spending of a run, per stage and in total.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UsageReport {
    pub provider: String,
    pub model: String,
    /// Whether `cost_usd` is estimated (the model has a price).
    pub priced: bool,
    pub stages: BTreeMap<String, StageUsage>,
    pub total: StageUsage,
    /// The run's limits, when set, and whether they stopped a call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<BudgetReport>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BudgetReport {
    pub max_usd: Option<f64>,
    pub max_calls: Option<u64>,
    /// Requests started (retries included).
    pub requests: u64,
    /// Calls refused because the budget was used up; their work was deferred.
    pub refused: u64,
    pub exhausted: bool,
}

/// Counts what every call of a client spends. Shared by all stages using the client.
#[derive(Debug)]
pub struct UsageMeter {
    provider: String,
    model: String,
    price: Option<Price>,
    stages: Mutex<BTreeMap<String, StageUsage>>,
}

impl UsageMeter {
    pub fn new(provider: &str, model: &str, price: Option<Price>) -> UsageMeter {
        UsageMeter {
            provider: provider.to_owned(),
            model: model.to_owned(),
            price,
            stages: Mutex::new(BTreeMap::new()),
        }
    }

    pub fn price(&self) -> Option<Price> {
        self.price
    }

    /// The estimated cost of `tokens` at this meter's price.
    pub fn cost(&self, tokens: TokenUsage) -> Option<f64> {
        self.price.map(|p| (tokens.input as f64 * p.input_per_mtok + tokens.output as f64 * p.output_per_mtok) / 1e6)
    }

    pub fn record_call(&self, stage: &str, tokens: TokenUsage) {
        let cost = self.cost(tokens);
        let mut stages = self.stages.lock().unwrap_or_else(|e| e.into_inner());
        let entry = stages.entry(stage.to_owned()).or_default();
        entry.add(&StageUsage {
            calls: 1,
            failed_attempts: 0,
            input_tokens: tokens.input,
            output_tokens: tokens.output,
            cost_usd: cost,
        });
    }

    /// Estimated USD spent so far (0 when unpriced).
    pub fn spent_usd(&self) -> f64 {
        let stages = self.stages.lock().unwrap_or_else(|e| e.into_inner());
        stages.values().filter_map(|s| s.cost_usd).sum()
    }

    pub fn record_failure(&self, stage: &str) {
        let mut stages = self.stages.lock().unwrap_or_else(|e| e.into_inner());
        stages.entry(stage.to_owned()).or_default().failed_attempts += 1;
    }

    pub fn report(&self) -> UsageReport {
        let stages = self.stages.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut total = StageUsage { cost_usd: self.price.map(|_| 0.0), ..StageUsage::default() };
        for usage in stages.values() {
            total.add(usage);
        }
        UsageReport {
            provider: self.provider.clone(),
            model: self.model.clone(),
            priced: self.price.is_some(),
            stages,
            total,
            budget: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_prefix_wins_and_vendor_prefixes_are_ignored() {
        assert_eq!(price_for("gpt-4o-mini").unwrap().input_per_mtok, 0.15);
        assert_eq!(price_for("gpt-4o-2024-08-06").unwrap().input_per_mtok, 2.50);
        assert_eq!(price_for("openai/gpt-4.1-mini").unwrap().output_per_mtok, 1.60);
        assert_eq!(price_for("claude-sonnet-4-20250514").unwrap().output_per_mtok, 15.0);
        assert_eq!(price_for("SmolLM2-135M-Instruct"), None);
    }

    #[test]
    fn usage_adds_up_per_stage_and_in_total() {
        let meter = UsageMeter::new("openai", "gpt-4o-mini", price_for("gpt-4o-mini"));
        meter.record_call("judge", TokenUsage { input: 1_000_000, output: 0 });
        meter.record_call("judge", TokenUsage { input: 0, output: 1_000_000 });
        meter.record_failure("investigator");
        let report = meter.report();
        let judge = &report.stages["judge"];
        assert_eq!((judge.calls, judge.input_tokens, judge.output_tokens), (2, 1_000_000, 1_000_000));
        assert!((judge.cost_usd.unwrap() - 0.75).abs() < 1e-9);
        assert_eq!(report.stages["investigator"].failed_attempts, 1);
        assert_eq!(report.total.calls, 2);
        assert!((report.total.cost_usd.unwrap() - 0.75).abs() < 1e-9);
        let unpriced = UsageMeter::new("openai", "local", None);
        unpriced.record_call("judge", TokenUsage { input: 5, output: 5 });
        assert_eq!(unpriced.report().total.cost_usd, None);
    }
}
