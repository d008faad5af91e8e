//! The HTTP client: bounded concurrency, timeouts, retries, accounting.

use std::sync::{Arc, Once};
use std::time::Duration;

use tokio::sync::Semaphore;
use tokio::time::Instant;

use crate::config::LlmConfig;
use crate::error::snippet;
use crate::error::LlmError;
use crate::retry::{backoff, parse_retry_after, MAX_RETRY_AFTER};
use crate::types::{BoxFuture, ChatRequest, ChatResponse};
use crate::usage::{UsageMeter, UsageReport};
use crate::wire;

/// A model memval can talk to. Stages hold an `Arc<dyn ChatModel>`; [`LlmClient`] is the real
/// one, over either wire protocol.
pub trait ChatModel: Send + Sync {
    /// Provider and model, as `openai/gpt-4o-mini` (reports and cache keys).
    fn name(&self) -> String;
    /// One call on behalf of `stage` (the name its usage is counted under).
    fn chat<'a>(&'a self, stage: &'a str, request: &'a ChatRequest) -> BoxFuture<'a, Result<ChatResponse, LlmError>>;
    /// What calls so far have spent.
    fn usage(&self) -> UsageReport;
}

/// An API key that never shows in `Debug` output or logs.
#[derive(Clone)]
struct Secret(String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

#[derive(Debug, Clone)]
pub struct LlmClient {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: LlmConfig,
    key: Option<Secret>,
    url: String,
    http: reqwest::Client,
    permits: Semaphore,
    deadline: Instant,
    meter: UsageMeter,
    /// Requests started in this run, and requests refused for the budget.
    requests: std::sync::atomic::AtomicU64,
    refused: std::sync::atomic::AtomicU64,
}

/// One attempt's failure: the error to report if it is the last, and whether (and how long
/// at least) to wait before another.
struct Failure {
    error: LlmError,
    retry: bool,
    retry_after: Option<Duration>,
}

static CRYPTO: Once = Once::new();

impl LlmClient {
    /// A client for one run: the run's deadline starts now.
    pub fn new(config: LlmConfig) -> Result<LlmClient, LlmError> {
        CRYPTO.call_once(|| {
            // reqwest is built without a crypto provider; ring is the one async-nats links.
            // Another part of the process may have installed one already: that one is kept.
            let _ = rustls::crypto::ring::default_provider().install_default();
        });
        let key = config.api_key()?.map(Secret);
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10).min(config.call_timeout))
            .pool_max_idle_per_host(config.max_concurrency)
            .user_agent(concat!("memval/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| LlmError::Config(format!("cannot build the http client: {e}")))?;
        let url = wire::endpoint(config.provider, &config.base_url);
        let meter = UsageMeter::new(config.provider.as_str(), &config.model, config.price);
        Ok(LlmClient {
            inner: Arc::new(Inner {
                permits: Semaphore::new(config.max_concurrency.max(1)),
                deadline: Instant::now() + config.run_timeout,
                key,
                url,
                http,
                meter,
                requests: Default::default(),
                refused: Default::default(),
                config,
            }),
        })
    }

    pub fn config(&self) -> &LlmConfig {
        &self.inner.config
    }

    pub fn meter(&self) -> &UsageMeter {
        &self.inner.meter
    }

    /// One call, retried as the config allows. Holds one concurrency permit throughout, so
    /// a backing-off call keeps its place instead of letting another call hit a busy server.
    pub async fn chat(&self, stage: &str, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let inner = &*self.inner;
        let config = &inner.config;
        let body = wire::encode(
            config.provider,
            &config.model,
            request.max_tokens.unwrap_or(config.max_output_tokens),
            request,
        );
        let body =
            serde_json::to_vec(&body).map_err(|e| LlmError::Config(format!("cannot encode the request: {e}")))?;
        let _permit = tokio::time::timeout_at(inner.deadline, inner.permits.acquire())
            .await
            .map_err(|_| LlmError::Deadline("still waiting for a free request slot".into()))?
            .map_err(|_| LlmError::Deadline("client closed".into()))?;
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let now = Instant::now();
            if now >= inner.deadline {
                return Err(LlmError::Deadline(format!("{} attempts made", attempt - 1)));
            }
            self.spend(attempt)?;
            let timeout = config.call_timeout.min(inner.deadline - now);
            let failure = match tokio::time::timeout(timeout, self.attempt(&body, attempt)).await {
                Ok(Ok(response)) => {
                    inner.meter.record_call(stage, response.usage);
                    return Ok(response);
                }
                Ok(Err(failure)) => failure,
                Err(_) if timeout < config.call_timeout => {
                    inner.meter.record_failure(stage);
                    return Err(LlmError::Deadline(format!("attempt {attempt} was cut at the deadline")));
                }
                Err(_) => {
                    Failure { error: LlmError::Timeout { timeout, attempts: attempt }, retry: true, retry_after: None }
                }
            };
            inner.meter.record_failure(stage);
            if !failure.retry || attempt > config.max_retries {
                return Err(failure.error);
            }
            let delay = backoff(attempt, config.backoff_base, config.backoff_max, failure.retry_after);
            if failure.retry_after.is_some_and(|d| d > MAX_RETRY_AFTER) {
                return Err(failure.error);
            }
            if Instant::now() + delay >= inner.deadline {
                return Err(LlmError::Deadline(format!(
                    "the next attempt would start after it ({}); last error: {}",
                    humanize(delay),
                    failure.error
                )));
            }
            tracing::warn!(stage, attempt, delay_ms = delay.as_millis() as u64, error = %failure.error, "llm call failed, retrying");
            tokio::time::sleep(delay).await;
        }
    }

    /// Take one request from the run's budget, or refuse with [`LlmError::Budget`].
    fn spend(&self, attempt: u32) -> Result<(), LlmError> {
        use std::sync::atomic::Ordering;
        let inner = &*self.inner;
        let refuse = |why: String| {
            inner.refused.fetch_add(1, Ordering::SeqCst);
            Err(LlmError::Budget(if attempt > 1 { format!("{why} (during retries)") } else { why }))
        };
        if let Some(max) = inner.config.budget_usd {
            let spent = inner.meter.spent_usd();
            if spent >= max {
                return refuse(format!("${spent:.4} of the ${max:.4} budget spent"));
            }
        }
        if let Some(max) = inner.config.max_calls {
            let taken = inner.requests.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < max).then_some(n + 1));
            if taken.is_err() {
                return refuse(format!("all {max} model calls of the run are used"));
            }
        } else {
            inner.requests.fetch_add(1, Ordering::SeqCst);
        }
        Ok(())
    }

    /// The usage report with the budget's state.
    pub fn usage_report(&self) -> UsageReport {
        use std::sync::atomic::Ordering;
        let inner = &*self.inner;
        let mut report = inner.meter.report();
        if inner.config.budget_usd.is_some() || inner.config.max_calls.is_some() {
            let refused = inner.refused.load(Ordering::SeqCst);
            report.budget = Some(crate::usage::BudgetReport {
                max_usd: inner.config.budget_usd,
                max_calls: inner.config.max_calls,
                requests: inner.requests.load(Ordering::SeqCst),
                refused,
                exhausted: refused > 0,
            });
        }
        report
    }

    async fn attempt(&self, body: &[u8], attempt: u32) -> Result<ChatResponse, Failure> {
        let inner = &*self.inner;
        let mut request = inner.http.post(&inner.url).body(body.to_vec());
        for (name, value) in wire::headers(inner.config.provider, inner.key.as_ref().map(|k| k.0.as_str())) {
            request = request.header(name, value);
        }
        let response = request.send().await.map_err(|e| Failure {
            error: LlmError::Unreachable { url: inner.url.clone(), attempts: attempt, reason: error_chain(&e) },
            retry: true,
            retry_after: None,
        })?;
        let status = response.status().as_u16();
        let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let retry_after = parse_retry_after(
            header("retry-after").as_deref(),
            header("retry-after-ms").as_deref(),
            chrono::Utc::now().timestamp(),
        );
        let bytes = response.bytes().await.map_err(|e| Failure {
            error: LlmError::Unreachable {
                url: inner.url.clone(),
                attempts: attempt,
                reason: format!("answer cut off: {}", error_chain(&e)),
            },
            retry: true,
            retry_after: None,
        })?;
        match status {
            200..=299 => wire::decode(inner.config.provider, &bytes).map_err(|error| Failure {
                error,
                retry: false,
                retry_after: None,
            }),
            429 => Err(Failure {
                error: LlmError::RateLimited { attempts: attempt, body: snippet(&bytes) },
                retry: true,
                retry_after,
            }),
            408 | 500..=599 => Err(Failure {
                error: LlmError::Server { status, attempts: attempt, body: snippet(&bytes) },
                retry: true,
                retry_after,
            }),
            _ => Err(Failure {
                error: LlmError::Refused { status, body: snippet(&bytes) },
                retry: false,
                retry_after: None,
            }),
        }
    }
}

impl ChatModel for LlmClient {
    fn name(&self) -> String {
        format!("{}/{}", self.inner.config.provider.as_str(), self.inner.config.model)
    }

    fn chat<'a>(&'a self, stage: &'a str, request: &'a ChatRequest) -> BoxFuture<'a, Result<ChatResponse, LlmError>> {
        Box::pin(LlmClient::chat(self, stage, request))
    }

    fn usage(&self) -> UsageReport {
        self.usage_report()
    }
}

fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

fn humanize(d: Duration) -> String {
    format!("{:.1}s", d.as_secs_f64())
}
