//! memval's LLM client: one [`ChatModel`] trait over two real wire protocols, OpenAI-compatible
//! chat completions with `tools`/`tool_calls` (OpenAI, vLLM, llama.cpp `llama-server`, Ollama,
//! LM Studio) and the Anthropic Messages API with `tool_use`/`tool_result`.
//!
//! [`LlmClient`] is the HTTP implementation. Around every call it keeps the promises the rest
//! of memval relies on:
//! - at most `max_concurrency` requests in flight (a semaphore), whatever the number of
//!   batches asking;
//! - a per-call timeout and a per-run deadline, so a hung server cannot stall a run;
//! - 429, 408 and 5xx answers (and connection failures, timeouts) are retried with exponential
//!   backoff and jitter, waiting at least what `Retry-After` asks, a bounded number of times;
//! - every answered call is counted per stage: calls, input/output tokens, estimated cost.
//!
//! This crate knows nothing about memories, claims or verdicts: stages build the prompts and
//! enforce the contracts on what comes back. It must never log or report an API key (the key
//! is read from the environment variable the config names, never from a flag or file), never
//! retry without bound, and never hold an unbounded number of requests.

mod cache;
mod client;
mod config;
mod error;
pub mod prompt;
mod retry;
mod types;
mod usage;
mod wire;

#[cfg(feature = "test-support")]
pub mod testing;

pub use cache::{cache_key, MemoryCache, ResultCache};
pub use client::{ChatModel, LlmClient};
pub use config::{LlmConfig, Provider, Settings};
pub use error::LlmError;
pub use retry::parse_retry_after;
pub use types::{
    BoxFuture, ChatRequest, ChatResponse, Message, StopReason, TokenUsage, ToolCall, ToolResult, ToolSpec,
};
pub use usage::{price_for, BudgetReport, Price, StageUsage, UsageMeter, UsageReport};
