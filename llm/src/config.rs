//! Which model to call and how: from flags, environment and/or a JSON config file.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::usage::{price_for, Price};
use crate::LlmError;

/// The wire protocol a model server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// OpenAI-compatible `POST {base}/chat/completions` (OpenAI, vLLM, llama.cpp, Ollama, LM Studio).
    Openai,
    /// Anthropic Messages API, `POST {base}/v1/messages`.
    Anthropic,
}

impl Provider {
    pub fn parse(s: &str) -> Option<Provider> {
        match s.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-compatible" | "vllm" | "llama.cpp" | "llamacpp" | "ollama" | "lmstudio" => {
                Some(Provider::Openai)
            }
            "anthropic" | "claude" => Some(Provider::Anthropic),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Openai => "openai",
            Provider::Anthropic => "anthropic",
        }
    }

    /// The base URL each SDK uses: OpenAI's includes `/v1`, Anthropic's does not.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::Openai => "https://api.openai.com/v1",
            Provider::Anthropic => "https://api.anthropic.com",
        }
    }

    /// The variable the key is read from when the config names none.
    pub fn default_key_env(self) -> &'static str {
        match self {
            Provider::Openai => "OPENAI_API_KEY",
            Provider::Anthropic => "ANTHROPIC_API_KEY",
        }
    }
}

/// Settings as a user gives them; every field optional so flags, environment and a config file
/// can be layered ([`Settings::or`]). The key itself is never a setting, only the name of the
/// variable holding it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub provider: Option<String>,
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key_env: Option<String>,
    pub max_concurrency: Option<u32>,
    pub call_timeout_secs: Option<f64>,
    pub run_timeout_secs: Option<f64>,
    pub max_retries: Option<u32>,
    pub max_output_tokens: Option<u32>,
    /// USD per million input tokens; overrides the built-in price table.
    pub price_input_per_mtok: Option<f64>,
    /// USD per million output tokens; overrides the built-in price table.
    pub price_output_per_mtok: Option<f64>,
    /// Stop calling the model once this much (estimated USD) is spent in the run.
    pub budget_usd: Option<f64>,
    /// Stop calling the model after this many requests in the run (retries count).
    pub max_calls: Option<u64>,
}

macro_rules! layer {
    ($self:ident, $other:ident, $($field:ident),*) => {
        Settings { $($field: $self.$field.or($other.$field)),* }
    };
}

impl Settings {
    /// `self` where set, else `other` (flags/env over the config file).
    pub fn or(self, other: Settings) -> Settings {
        layer!(
            self,
            other,
            provider,
            base_url,
            model,
            api_key_env,
            max_concurrency,
            call_timeout_secs,
            run_timeout_secs,
            max_retries,
            max_output_tokens,
            price_input_per_mtok,
            price_output_per_mtok,
            budget_usd,
            max_calls
        )
    }

    /// Read a JSON config file whose keys are the fields of [`Settings`].
    pub fn from_file(path: &Path) -> Result<Settings, LlmError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| LlmError::Config(format!("cannot read {}: {e}", path.display())))?;
        serde_json::from_str(&text).map_err(|e| LlmError::Config(format!("{}: {e}", path.display())))
    }

    /// Whether the user asked for a model at all.
    pub fn is_empty(&self) -> bool {
        self.provider.is_none() && self.model.is_none() && self.base_url.is_none()
    }

    /// The effective configuration; `Ok(None)` when no model is configured (the deterministic
    /// path runs alone).
    pub fn resolve(self) -> Result<Option<LlmConfig>, LlmError> {
        if self.is_empty() {
            return Ok(None);
        }
        let provider = match self.provider.as_deref() {
            Some(p) => Provider::parse(p).ok_or_else(|| {
                LlmError::Config(format!(
                    "unknown provider {p:?}: use openai (any OpenAI-compatible server) or anthropic"
                ))
            })?,
            None => {
                return Err(LlmError::Config(
                    "a model is configured but no provider: set --llm-provider openai|anthropic".into(),
                ))
            }
        };
        let model = self
            .model
            .filter(|m| !m.trim().is_empty())
            .ok_or_else(|| LlmError::Config("no model named: set --llm-model (MEMVAL_LLM_MODEL)".into()))?;
        let base_url = self.base_url.unwrap_or_else(|| provider.default_base_url().to_owned());
        let parsed =
            reqwest::Url::parse(&base_url).map_err(|e| LlmError::Config(format!("base url {base_url:?}: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(LlmError::Config(format!("base url {base_url:?} must be http or https")));
        }
        let secs = |name: &str, v: Option<f64>, default: f64| -> Result<Duration, LlmError> {
            let v = v.unwrap_or(default);
            // Up to about 30 years: a service's calls have no deadline in practice.
            if v.is_finite() && v > 0.0 && v < 1e9 {
                Ok(Duration::from_secs_f64(v))
            } else {
                Err(LlmError::Config(format!("{name} must be a positive number of seconds below 1e9, not {v}")))
            }
        };
        let price = match (self.price_input_per_mtok, self.price_output_per_mtok) {
            (None, None) => price_for(&model),
            (i, o) => {
                let (i, o) = (i.unwrap_or(0.0), o.unwrap_or(0.0));
                if !(i.is_finite() && o.is_finite() && i >= 0.0 && o >= 0.0) {
                    return Err(LlmError::Config(
                        "prices must be non-negative numbers (USD per million tokens)".into(),
                    ));
                }
                Some(Price { input_per_mtok: i, output_per_mtok: o })
            }
        };
        if let Some(b) = self.budget_usd {
            if !(b.is_finite() && b >= 0.0) {
                return Err(LlmError::Config(format!("the budget must be a non-negative number of USD, not {b}")));
            }
            if price.is_none() {
                return Err(LlmError::Config(format!(
                    "a USD budget needs a price, and {model} has none in memval's table: set --llm-price-input and --llm-price-output (USD per million tokens), or use --max-llm-calls"
                )));
            }
        }
        Ok(Some(LlmConfig {
            provider,
            base_url: base_url.trim_end_matches('/').to_owned(),
            model,
            api_key_env: self.api_key_env.filter(|v| !v.trim().is_empty()),
            max_concurrency: self.max_concurrency.unwrap_or(4).clamp(1, 64) as usize,
            call_timeout: secs("call timeout", self.call_timeout_secs, 120.0)?,
            run_timeout: secs("run timeout", self.run_timeout_secs, 1800.0)?,
            max_retries: self.max_retries.unwrap_or(4).min(10),
            max_output_tokens: self.max_output_tokens.unwrap_or(4096).clamp(16, 200_000),
            price,
            budget_usd: self.budget_usd,
            max_calls: self.max_calls,
            backoff_base: Duration::from_millis(500),
            backoff_max: Duration::from_secs(30),
        }))
    }
}

/// An effective, validated configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmConfig {
    pub provider: Provider,
    /// Without a trailing slash.
    pub base_url: String,
    pub model: String,
    /// The variable holding the API key; `None` uses the provider's usual variable when it is
    /// set, and no key otherwise (local servers).
    pub api_key_env: Option<String>,
    /// Requests in flight at once, over every stage sharing the client.
    pub max_concurrency: usize,
    /// Longest wait for one complete answer.
    pub call_timeout: Duration,
    /// Longest the client keeps calling, counted from its creation (one run).
    pub run_timeout: Duration,
    /// Retries after the first attempt for 429, 408, 5xx, timeouts and connection failures.
    pub max_retries: u32,
    pub max_output_tokens: u32,
    /// `None`: cost is not estimated (a local or unknown model).
    pub price: Option<Price>,
    /// No new request once the run's estimated spending reaches this (requests in flight
    /// finish, so it can be passed by at most `max_concurrency` calls).
    pub budget_usd: Option<f64>,
    /// No new request after this many in the run (retries count).
    pub max_calls: Option<u64>,
    /// First backoff; doubles per attempt up to `backoff_max`, with jitter.
    pub backoff_base: Duration,
    pub backoff_max: Duration,
}

impl LlmConfig {
    /// A config for `provider` at `base_url` with defaults for everything else.
    pub fn new(provider: Provider, base_url: &str, model: &str) -> LlmConfig {
        Settings {
            provider: Some(provider.as_str().into()),
            base_url: Some(base_url.into()),
            model: Some(model.into()),
            ..Settings::default()
        }
        .resolve()
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("invalid base url {base_url:?}"))
    }

    /// The API key from the environment. A variable the user named must be set; the
    /// provider's usual one is used only when present.
    pub fn api_key(&self) -> Result<Option<String>, LlmError> {
        match &self.api_key_env {
            Some(var) => match std::env::var(var) {
                Ok(key) if !key.trim().is_empty() => Ok(Some(key.trim().to_owned())),
                _ => Err(LlmError::Config(format!("the API key variable {var} is not set (or empty)"))),
            },
            None => Ok(std::env::var(self.provider.default_key_env()).ok().filter(|k| !k.trim().is_empty())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_configured_means_no_model() {
        assert_eq!(Settings::default().resolve().unwrap(), None);
    }

    #[test]
    fn flags_win_over_the_file_and_defaults_fill_the_rest() {
        let flags = Settings { model: Some("flag-model".into()), ..Settings::default() };
        let file: Settings =
            serde_json::from_str(r#"{"provider":"anthropic","model":"file-model","max_concurrency":2}"#).unwrap();
        let cfg = flags.or(file).resolve().unwrap().unwrap();
        assert_eq!(cfg.provider, Provider::Anthropic);
        assert_eq!(cfg.model, "flag-model");
        assert_eq!(cfg.max_concurrency, 2);
        assert_eq!(cfg.base_url, "https://api.anthropic.com");
        assert_eq!(cfg.max_retries, 4);
    }

    #[test]
    fn incomplete_or_wrong_settings_say_what_to_fix() {
        let cases = [
            (Settings { model: Some("m".into()), ..Settings::default() }, "no provider"),
            (Settings { provider: Some("openai".into()), ..Settings::default() }, "--llm-model"),
            (
                Settings { provider: Some("gemini".into()), model: Some("m".into()), ..Settings::default() },
                "unknown provider",
            ),
            (
                Settings {
                    provider: Some("openai".into()),
                    model: Some("m".into()),
                    base_url: Some("ftp://x".into()),
                    ..Settings::default()
                },
                "http",
            ),
            (
                Settings {
                    provider: Some("openai".into()),
                    model: Some("m".into()),
                    call_timeout_secs: Some(-1.0),
                    ..Settings::default()
                },
                "positive",
            ),
        ];
        for (settings, want) in cases {
            let err = settings.clone().resolve().unwrap_err().to_string();
            assert!(err.contains(want), "{settings:?}: {err}");
        }
    }

    #[test]
    fn a_config_file_with_an_unknown_key_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("llm.json");
        std::fs::write(&path, r#"{"provider":"openai","api_key":"sk-secret"}"#).unwrap();
        let err = Settings::from_file(&path).unwrap_err().to_string();
        assert!(err.contains("api_key"), "{err}");
    }

    #[test]
    fn a_named_key_variable_must_be_set() {
        let mut cfg = LlmConfig::new(Provider::Openai, "http://127.0.0.1:1/v1", "m");
        cfg.api_key_env = Some("MEMVAL_TEST_SURELY_UNSET_KEY".into());
        assert!(cfg.api_key().unwrap_err().to_string().contains("MEMVAL_TEST_SURELY_UNSET_KEY"));
    }

    #[test]
    fn known_models_are_priced_and_local_ones_are_not() {
        let priced = Settings {
            provider: Some("openai".into()),
            model: Some("gpt-4o-mini-2024-07-18".into()),
            ..Settings::default()
        };
        assert!(priced.resolve().unwrap().unwrap().price.is_some());
        let local = Settings { provider: Some("openai".into()), model: Some("smollm2".into()), ..Settings::default() };
        assert!(local.clone().resolve().unwrap().unwrap().price.is_none());
        let unpriced_budget = Settings { budget_usd: Some(1.0), ..local };
        assert!(unpriced_budget.resolve().unwrap_err().to_string().contains("--llm-price-input"));
        let flagged = Settings {
            provider: Some("openai".into()),
            model: Some("smollm2".into()),
            price_input_per_mtok: Some(1.0),
            ..Settings::default()
        };
        assert_eq!(
            flagged.resolve().unwrap().unwrap().price,
            Some(Price { input_per_mtok: 1.0, output_per_mtok: 0.0 })
        );
    }
}
