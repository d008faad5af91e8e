use std::time::Duration;

/// Why a model call produced no answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LlmError {
    /// The configuration cannot work (unknown provider, missing model or key): fix and rerun.
    #[error("llm config: {0}")]
    Config(String),
    /// The provider refused the request for good (4xx other than 408/429).
    #[error("the model server refused the request (http {status}): {body}")]
    Refused { status: u16, body: String },
    /// Still rate limited (429) when the retries ran out.
    #[error("rate limited (http 429) after {attempts} attempts: {body}")]
    RateLimited { attempts: u32, body: String },
    /// Still failing with 5xx when the retries ran out.
    #[error("model server error (http {status}) after {attempts} attempts: {body}")]
    Server { status: u16, attempts: u32, body: String },
    /// No complete answer within the per-call timeout, on every attempt.
    #[error("no answer within {timeout:?} after {attempts} attempts")]
    Timeout { timeout: Duration, attempts: u32 },
    /// The run's deadline passed (or a wait the server asked for would pass it).
    #[error("the run's llm deadline passed: {0}")]
    Deadline(String),
    /// The server could not be reached.
    #[error("cannot reach {url} after {attempts} attempts: {reason}")]
    Unreachable { url: String, attempts: u32, reason: String },
    /// A 2xx answer that is not what the protocol promises (not JSON, wrong shape). Not
    /// retried: the same request would most likely get the same answer.
    #[error("malformed answer from the model server: {0}")]
    Malformed(String),
    /// The run's call or spending budget is used up; the work is deferred.
    #[error("llm budget exhausted: {0}")]
    Budget(String),
}

impl LlmError {
    /// Whether the same call might succeed later (another run, a later redelivery).
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            LlmError::RateLimited { .. }
                | LlmError::Server { .. }
                | LlmError::Timeout { .. }
                | LlmError::Unreachable { .. }
        )
    }
}

/// At most this much of an error body goes into an error message.
const BODY_SNIPPET: usize = 300;

pub(crate) fn snippet(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.chars().count() <= BODY_SNIPPET {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(BODY_SNIPPET).collect::<String>())
    }
}
