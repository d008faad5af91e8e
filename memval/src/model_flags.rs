//! The `--llm-*` flags every command that can call a model shares, and what they configure:
//! a client, or the model stages of [`memval_pipeline::models`].

use std::path::PathBuf;

use anyhow::anyhow;
use memval_llm::{LlmClient, LlmConfig, Settings};
use memval_pipeline::models::{ModelStages, StageLimits};

/// Which model to call. `-h` lists provider, base URL, model and config file; the rest only
/// `--help`. Flags win over their environment variables, which win over the config
/// file (`--llm-config`, JSON with the same names: provider, base_url, model, api_key_env,
/// max_concurrency, call_timeout_secs, run_timeout_secs, max_retries, max_output_tokens,
/// price_input_per_mtok, price_output_per_mtok). The API key itself is only ever read from the
/// environment variable named by --llm-api-key-env.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LlmArgs {
    /// Wire protocol: openai or anthropic. No provider, no model: memval stays deterministic.
    ///
    /// openai is any OpenAI-compatible chat-completions server: OpenAI, vLLM, llama.cpp
    /// llama-server, Ollama, LM Studio; anthropic is the Messages API.
    #[arg(
        help_heading = "LLM",
        long = "llm-provider",
        env = "MEMVAL_LLM_PROVIDER",
        hide_env_values = true,
        value_name = "NAME"
    )]
    pub provider: Option<String>,
    /// Base URL of the API, e.g. http://127.0.0.1:8080/v1 for a local server.
    ///
    /// Default: https://api.openai.com/v1 or https://api.anthropic.com.
    #[arg(
        help_heading = "LLM",
        long = "llm-base-url",
        env = "MEMVAL_LLM_BASE_URL",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub base_url: Option<String>,
    /// Model name as the server knows it.
    #[arg(
        help_heading = "LLM",
        long = "llm-model",
        env = "MEMVAL_LLM_MODEL",
        hide_env_values = true,
        value_name = "MODEL"
    )]
    pub model: Option<String>,
    /// Name of the environment variable holding the API key.
    ///
    /// Default: OPENAI_API_KEY or ANTHROPIC_API_KEY when set; none for local servers.
    #[arg(
        help_heading = "LLM",
        hide_short_help = true,
        long = "llm-api-key-env",
        env = "MEMVAL_LLM_API_KEY_ENV",
        hide_env_values = true,
        value_name = "VAR"
    )]
    pub api_key_env: Option<String>,
    /// JSON file with any of these model settings (`--help` lists them all).
    #[arg(
        help_heading = "LLM",
        long = "llm-config",
        env = "MEMVAL_LLM_CONFIG",
        hide_env_values = true,
        value_name = "FILE"
    )]
    pub config: Option<PathBuf>,
    /// Model requests in flight at once. Default 4.
    #[arg(id = "llm_concurrency", help_heading = "LLM", hide_short_help = true, long = "llm-concurrency", env = "MEMVAL_LLM_CONCURRENCY", hide_env_values = true, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrency: Option<u32>,
    /// Seconds one call may take before it is abandoned (and retried). Default 120.
    #[arg(
        help_heading = "LLM",
        hide_short_help = true,
        long = "llm-timeout",
        env = "MEMVAL_LLM_TIMEOUT",
        hide_env_values = true,
        value_name = "SECONDS"
    )]
    pub call_timeout: Option<f64>,
    /// Seconds the whole run may spend calling the model. Default 1800.
    ///
    /// Later calls fail and their work is reported as not checked.
    #[arg(
        help_heading = "LLM",
        hide_short_help = true,
        long = "llm-run-timeout",
        env = "MEMVAL_LLM_RUN_TIMEOUT",
        hide_env_values = true,
        value_name = "SECONDS"
    )]
    pub run_timeout: Option<f64>,
    /// Retries of a call after 429, 5xx, a timeout or a connection failure. Default 4.
    #[arg(help_heading = "LLM", hide_short_help = true, long = "llm-max-retries", env = "MEMVAL_LLM_MAX_RETRIES", hide_env_values = true, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=10))]
    pub max_retries: Option<u32>,
    /// USD per million input tokens, for the cost estimate.
    ///
    /// Default: a built-in table of hosted models; local models are not priced.
    #[arg(
        help_heading = "LLM",
        hide_short_help = true,
        long = "llm-price-input",
        env = "MEMVAL_LLM_PRICE_INPUT",
        hide_env_values = true,
        value_name = "USD"
    )]
    pub price_input: Option<f64>,
    /// USD per million output tokens, for the cost estimate.
    #[arg(
        help_heading = "LLM",
        hide_short_help = true,
        long = "llm-price-output",
        env = "MEMVAL_LLM_PRICE_OUTPUT",
        hide_env_values = true,
        value_name = "USD"
    )]
    pub price_output: Option<f64>,
    /// Stop calling the model once the run's estimated cost reaches this many USD.
    ///
    /// The rest is deferred to a later run (never-validated memories go first) and the report
    /// says so.
    #[arg(
        help_heading = "LLM",
        hide_short_help = true,
        long = "budget-usd",
        env = "MEMVAL_BUDGET_USD",
        hide_env_values = true,
        value_name = "USD"
    )]
    pub budget_usd: Option<f64>,
    /// Stop calling the model after this many requests in the run (retries count).
    ///
    /// The rest is deferred.
    #[arg(
        help_heading = "LLM",
        hide_short_help = true,
        long = "max-llm-calls",
        env = "MEMVAL_MAX_LLM_CALLS",
        hide_env_values = true,
        value_name = "N"
    )]
    pub max_calls: Option<u64>,
}

impl LlmArgs {
    fn settings(&self) -> anyhow::Result<Settings> {
        let flags = Settings {
            provider: self.provider.clone(),
            base_url: self.base_url.clone(),
            model: self.model.clone(),
            api_key_env: self.api_key_env.clone(),
            max_concurrency: self.concurrency,
            call_timeout_secs: self.call_timeout,
            run_timeout_secs: self.run_timeout,
            max_retries: self.max_retries,
            max_output_tokens: None,
            price_input_per_mtok: self.price_input,
            price_output_per_mtok: self.price_output,
            budget_usd: self.budget_usd,
            max_calls: self.max_calls,
        };
        Ok(match &self.config {
            Some(path) => flags.or(Settings::from_file(path)?),
            None => flags,
        })
    }

    /// The configured model, or `None` when no model is configured.
    pub fn config(&self) -> anyhow::Result<Option<LlmConfig>> {
        Ok(self.settings()?.resolve()?)
    }

    /// A client for this run (its deadline starts now), or `None` without a model.
    pub fn client(&self) -> anyhow::Result<Option<LlmClient>> {
        match self.config()? {
            Some(config) => Ok(Some(LlmClient::new(config)?)),
            None => Ok(None),
        }
    }

    /// The configured model of a long-running service: without an explicit run timeout the
    /// client keeps calling for as long as the service runs (a run's 30-minute default would
    /// stop a service half an hour after it started).
    pub fn service_config(&self) -> anyhow::Result<Option<LlmConfig>> {
        let mut settings = self.settings()?;
        settings.run_timeout_secs = settings.run_timeout_secs.or(Some(SERVICE_RUN_TIMEOUT_SECS));
        Ok(settings.resolve()?)
    }

    /// A client, or a usage error naming the flags to set.
    pub fn require(&self, what: &str) -> anyhow::Result<LlmClient> {
        self.client()?.ok_or_else(|| {
            anyhow!("{what} needs a model: set --llm-provider openai|anthropic and --llm-model (or MEMVAL_LLM_PROVIDER/MEMVAL_LLM_MODEL, or --llm-config FILE)")
        })
    }
}

/// Ten years: no deadline, in practice, for a service's calls.
const SERVICE_RUN_TIMEOUT_SECS: f64 = 10.0 * 365.0 * 24.0 * 3600.0;

/// `memval validate`'s model settings: the shared `--llm-*` flags plus the per-stage limits.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ValidateLlmArgs {
    #[command(flatten)]
    pub llm: LlmArgs,
    /// Memories per extraction call (docs/contracts.md §4).
    #[arg(help_heading = "LLM", hide_short_help = true, long = "llm-memories-per-batch", env = "MEMVAL_LLM_MEMORIES_PER_BATCH", hide_env_values = true, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    pub memories_per_batch: u32,
    /// Extraction calls per run; 0: no model extraction.
    ///
    /// Memories beyond them keep the rules' claims only (deferred).
    #[arg(help_heading = "LLM", hide_short_help = true, long = "llm-extract-batches", env = "MEMVAL_LLM_EXTRACT_BATCHES", hide_env_values = true, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub extract_batches: u32,
    /// Claims per investigator call (docs/contracts.md §4).
    #[arg(help_heading = "LLM", hide_short_help = true, long = "llm-claims-per-batch", env = "MEMVAL_LLM_CLAIMS_PER_BATCH", hide_env_values = true, value_name = "N", default_value_t = 15,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    pub claims_per_batch: u32,
    /// Investigator calls per run; 0: no LLM investigator.
    ///
    /// The claims of memories beyond them are deferred (not checked, with the reason).
    #[arg(help_heading = "LLM", hide_short_help = true, long = "llm-investigate-batches", env = "MEMVAL_LLM_INVESTIGATE_BATCHES", hide_env_values = true, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub investigate_batches: u32,
    /// Tool calls (read_file, grep, glob) the investigator may make per batch.
    #[arg(help_heading = "LLM", hide_short_help = true, long = "llm-tool-budget", env = "MEMVAL_LLM_TOOL_BUDGET", hide_env_values = true, value_name = "N", default_value_t = 25,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub tool_budget: u32,
    /// Call the model even for results the store has cached.
    ///
    /// Cached: the same input, model, prompt version and, for verdicts, unchanged files.
    #[arg(
        help_heading = "LLM",
        hide_short_help = true,
        long = "llm-no-cache",
        env = "MEMVAL_LLM_NO_CACHE",
        hide_env_values = true
    )]
    pub no_cache: bool,
}

impl ValidateLlmArgs {
    /// The model stages for an in-process run, or `None` without a model. A cluster run's
    /// model is the services' to configure.
    pub fn build(&self, cluster: bool) -> anyhow::Result<Option<ModelStages>> {
        if cluster && self.llm.config()?.is_some() {
            return Err(anyhow!(
                "--llm-* with --nats: in a cluster the services call the model; give the flags to `memval serve extractor|investigator --llm-...` and run validate without them"
            ));
        }
        self.stages()
    }

    /// The model stages these flags configure, or `None` without a model: for a run in this
    /// process, or for a long-running `memval serve` stage (whose budget and spending are
    /// then the process's, across runs).
    pub fn stages(&self) -> anyhow::Result<Option<ModelStages>> {
        self.stages_with(self.llm.config()?)
    }

    /// [`Self::stages`] for a `memval serve` process (see [`LlmArgs::service_config`]).
    pub fn service_stages(&self) -> anyhow::Result<Option<ModelStages>> {
        self.stages_with(self.llm.service_config()?)
    }

    fn stages_with(&self, config: Option<LlmConfig>) -> anyhow::Result<Option<ModelStages>> {
        let Some(config) = config else { return Ok(None) };
        let limits = StageLimits {
            memories_per_batch: self.memories_per_batch as usize,
            extract_batches: self.extract_batches as usize,
            claims_per_batch: self.claims_per_batch as usize,
            investigate_batches: self.investigate_batches as usize,
            tool_budget: self.tool_budget as usize,
        };
        Ok(Some(ModelStages::new(config, limits)?))
    }
}
